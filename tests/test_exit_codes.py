"""One exit-code contract for every command (issue 54), each case a real `playtester` subprocess:
0 no bug, 1 reproduced bugs, 2 usage or input error, 3 playtester itself failed (one line and a log file)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys

import pytest
from conftest import GAMES


def playtester(*args, cwd=None, env=None, timeout=600):
    return subprocess.run([sys.executable, "-m", "playtester.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=env)


@pytest.fixture(scope="module")
def crash_run(tmp_path_factory):
    """A campaign with one bug that reproduces (a crash at frame 45, step 5, whatever the agent does)."""
    out = tmp_path_factory.mktemp("crash") / "run"
    res = playtester("explore", f"{GAMES / 'raise_at.py'}:main", "--game-arg", "n=45", "--actions", "blind",
                     "--budget", "20", "--no-shrink", "--out", str(out))
    return out, res


def test_0_when_no_bug(tmp_path):
    res = playtester("explore", f"{GAMES / 'repo_layout' / 'src' / 'main.py'}:main", "--budget", "20",
                     "--out", str(tmp_path / "run"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 reproduced" in res.stdout


def test_1_when_a_bug_reproduced(crash_run):
    _, res = crash_run
    assert res.returncode == 1, res.stdout + res.stderr
    assert "1 reproduced" in res.stdout and "FLAKY" not in res.stdout


def test_a_bug_that_does_not_reproduce_is_flaky_and_exits_0_unless_fail_on_flaky(tmp_path):
    """A finding that does not fire again at its step when replayed is noise a CI build shows but does not fail
    on (as pytest-rerunfailures), unless --fail-on flaky."""
    spec = f"{GAMES / 'flaky.py'}:main"
    args = ["--game-arg", f"counter={tmp_path / 'counter'}", "--actions", "blind", "--budget", "20", "--no-shrink"]
    res = playtester("explore", spec, *args, "--out", str(tmp_path / "a"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "1 flaky" in res.stdout and "FLAKY (did not reproduce)" in res.stdout
    res = playtester("explore", spec, *args, "--fail-on", "flaky", "--out", str(tmp_path / "b"))
    assert res.returncode == 1, res.stdout + res.stderr


@pytest.mark.parametrize("args, expected", [
    (["explore", "no_such_game_anywhere", "--out", "{tmp}/x"], "no bundled game, file or importable module"),
    (["explore", "blockmaze", "--fail-on", "sometimes", "--out", "{tmp}/x"], "--fail-on 'sometimes'"),
    (["replay", "{tmp}/nothing/bugs/1"], "no playtester store in"),
    (["finalize", "{tmp}"], "holds no campaign"),
    (["explore", "park", "--agent", "ppgta", "--budget", "400", "--out", "{tmp}/x"], "ends within ppgta's warm-up"),
    (["vision", "evaluate", "{tmp}/none.pt"], "no model file"),
])
def test_2_for_usage_and_input_errors(tmp_path, args, expected):
    res = playtester(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert res.returncode == 2, res.stdout + res.stderr
    assert expected in res.stderr and "Traceback" not in res.stderr + res.stdout


def test_2_for_an_unknown_bug_a_damaged_store_or_a_malformed_stored_trace(crash_run, tmp_path):
    out, _ = crash_run
    res = playtester("replay", str(out / "bugs" / "99"))
    assert res.returncode == 2 and "no bug 99" in res.stderr and "its bugs are [1]" in res.stderr, res.stderr
    copy = tmp_path / "run"
    shutil.copytree(out, copy)
    with sqlite3.connect(copy / "playtester.sqlite") as db:
        db.execute("""UPDATE bugs SET trace = json_set(trace, '$.actions', json('["up", 3]'))""")
    res = playtester("replay", str(copy / "bugs" / "1"))
    assert res.returncode == 2, res.stdout + res.stderr
    assert "bug 1" in res.stderr and "action numbers" in res.stderr and "Traceback" not in res.stderr
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "playtester.sqlite").write_bytes(b"this is no database" * 100)
    res = playtester("replay", str(damaged / "bugs" / "1"))
    assert res.returncode == 2 and "damaged or not a playtester store" in res.stderr, res.stderr


def test_3_with_a_log_file_when_playtester_itself_fails(tmp_path):
    """An exception playtester did not expect: exit 3, one line naming the log file, the traceback in the file."""
    code = ("import sys; from playtester import cli\n"
            "@cli.app.command()\n"
            "def boom() -> None:\n"
            "    raise KeyError('detector')\n"
            "sys.argv = ['playtester', 'boom']; cli.main()\n")
    env = {**__import__("os").environ, "PLAYTESTER_LOG_DIR": str(tmp_path / "logs")}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 3, res.stdout + res.stderr
    assert "playtester failed: KeyError: 'detector'" in res.stderr and "Traceback" not in res.stderr
    [log] = (tmp_path / "logs").glob("playtester-error-*.log")
    assert str(log) in res.stderr and "in boom" in log.read_text() and "KeyError: 'detector'" in log.read_text()


def test_an_input_error_raised_outside_a_commands_handler_keeps_its_code():
    """main() turns a PlaytesterError no command caught into its own exit code and one 'error:' line."""
    code = ("import sys; from playtester import cli; from playtester.errors import UsageError\n"
            "@cli.app.command()\n"
            "def bad() -> None:\n"
            "    raise UsageError('no such level: 9; the game has levels 1-3')\n"
            "sys.argv = ['playtester', 'bad']; cli.main()\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "error: no such level: 9" in res.stderr and "Traceback" not in res.stderr
