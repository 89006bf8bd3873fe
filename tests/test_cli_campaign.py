"""`playtester explore / replay / minimize` as a user runs them: real subprocesses, real signals."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

from conftest import GAMES


def playtester(*args, timeout=600, cwd=None):
    return subprocess.run([sys.executable, "-m", "playtester.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


def test_explore_writes_report_junit_and_bug_folders_then_replay_and_minimize(tmp_path):
    out = tmp_path / "run"
    res = playtester("explore", f"{GAMES / 'raise_at.py'}:main", "--game-arg", "n=45", "--actions", "blind",
                     "--budget", "30", "--out", str(out))
    assert res.returncode == 1, res.stdout + res.stderr  # bugs found
    # frame 45 falls in step 5 whatever the agent does: 5 actions of any kind is the 1-minimal trace
    assert "ValueError: boom at frame 45" in res.stdout and "shrunk 5 -> 5 actions" in res.stdout
    html = (out / "report.html").read_text()
    assert 'id="bugs"' in html and "boom at frame 45" in html and f"playtester replay {out}/bugs/1" in html
    suite = ET.parse(out / "junit.xml").getroot().find("testsuite")
    crash = [tc for tc in suite.iter("testcase") if tc.get("name") == "crash"]
    assert crash and crash[0].find("error") is not None  # crashes are <error>, not <failure>
    bug = json.loads((out / "bugs" / "1" / "bug.json").read_text())
    assert bug["kind"] == "crash" and (out / "bugs" / "1" / "strip.png").is_file()

    res = playtester("replay", str(out / "bugs" / "1"))
    assert res.returncode == 0 and "reproduced" in res.stdout and "fired at step 5" in res.stdout
    res = playtester("minimize", str(out / "bugs" / "1"))
    assert res.returncode == 0 and "5 -> 5 actions" in res.stdout and "1-minimal" in res.stdout
    assert len(json.loads((out / "bugs" / "1" / "min_trace.json").read_text())["actions"]) == 5

    # the game was "fixed" (it now raises at frame 450): its trace is kept unshrunk, not "minimized" to nothing
    from playtester.replay import minimize_bug
    from playtester.store import Store

    bug = Store(out, create=False).bug(1)
    fixed = bug.trace.with_actions(bug.trace.actions)
    fixed.config["game_args"] = {**fixed.config.get("game_args", {}), "n": 450}
    bug.trace = fixed
    result = minimize_bug(bug, max_seconds=30)
    assert not result.reproduced and result.trace.actions == fixed.actions[:bug.first_step]
    assert "did not show the bug again" in result.describe(len(fixed.actions))


def _count(db, table):
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_sigkill_then_resume_loses_nothing_already_found(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "playtester.cli", "explore", "blockmaze", "--budget", "2500",
                             "--out", str(out), "--no-shrink"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    db = out / "playtester.sqlite"
    deadline = time.time() + 120
    while time.time() < deadline and (_count(db, "episodes") < 3 or _count(db, "bugs") < 1):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    with sqlite3.connect(db) as con:
        steps_before, status = con.execute("SELECT steps, status FROM campaigns").fetchone()
        bugs_before = dict(con.execute("SELECT signature, count FROM bugs"))
    assert status == "running" and steps_before > 0 and bugs_before

    res = playtester("explore", "--resume", "--out", str(out), "--budget", "2500", "--no-shrink")
    assert res.returncode == 1, res.stdout + res.stderr
    with sqlite3.connect(db) as con:
        steps, status, n = con.execute("SELECT steps, status, COUNT(*) FROM campaigns").fetchone()
        bugs_after = dict(con.execute("SELECT signature, count FROM bugs"))
    assert n == 1 and status == "finished" and steps == 2500
    assert all(bugs_after[sig] >= c for sig, c in bugs_before.items())  # nothing found was lost
    # the bugs found before the kill were replayed when the campaign resumed, as the new ones were (issue 54)
    with sqlite3.connect(db) as con:
        unchecked = con.execute("SELECT id FROM bugs WHERE replay IS NULL").fetchall()
        flaky = dict(con.execute("SELECT signature, flaky FROM bugs"))
    assert unchecked == [] and all(flaky[sig] is not None for sig in bugs_before)


def test_finalize_replays_and_shrinks_what_a_killed_campaign_left_and_writes_the_report(tmp_path):
    out = tmp_path / "run"
    res = playtester("explore", f"{GAMES / 'raise_at.py'}:main", "--game-arg", "n=45", "--actions", "blind",
                     "--budget", "20", "--out", str(out))
    assert res.returncode == 1
    with sqlite3.connect(out / "playtester.sqlite") as con:  # as a run killed before its end leaves it
        con.execute("UPDATE bugs SET replay = NULL, flaky = NULL, min_trace = NULL")
    (out / "report.html").unlink()
    res = playtester("finalize", str(out))
    assert res.returncode == 1, res.stdout + res.stderr
    assert "1 bug(s) checked now" in res.stdout and "shrunk 5 -> 5 actions" in res.stdout
    assert (out / "report.html").is_file() and (out / "bugs" / "1" / "min_trace.json").is_file()
    res = playtester("finalize", str(out))  # nothing left to do: the same verdict, no replay
    assert res.returncode == 1 and "0 bug(s) checked now" in res.stdout


def test_replay_and_minimize_work_from_any_folder(tmp_path):
    """A campaign on a relative spec (`game.py`, run from the game's folder) replays from elsewhere: the trace
    keeps the folder it was recorded from (issue 54: 'game file main.py does not exist')."""
    game = tmp_path / "game"
    game.mkdir()
    (game / "main.py").write_text((GAMES / "raise_at.py").read_text())
    out = tmp_path / "run"
    res = playtester("explore", "main.py:main", "--game-arg", "n=45", "--actions", "blind", "--budget", "20",
                     "--no-shrink", "--out", str(out), cwd=game)
    assert res.returncode == 1, res.stdout + res.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    res = playtester("replay", str(out / "bugs" / "1"), cwd=elsewhere)
    assert res.returncode == 0 and "reproduced" in res.stdout, res.stdout + res.stderr
    res = playtester("minimize", str(out / "bugs" / "1"), "--seconds", "20", cwd=elsewhere)
    assert res.returncode == 0 and "1-minimal" in res.stdout, res.stdout + res.stderr


def test_corrupted_config_is_a_usage_error(tmp_path):
    (tmp_path / "game.py").write_text((GAMES / "no_input.py").read_text())
    (tmp_path / "playtester.toml").write_text("frames_per_action = 'ten'\n[oracles]\nstuck_steps = -1\n")
    res = playtester("explore", str(tmp_path / "game.py"), "--out", str(tmp_path / "o"))
    assert res.returncode == 2
    assert "playtester.toml:1: field 'frames_per_action'" in res.stderr
    (tmp_path / "playtester.toml").write_text("frames_per_action = 10\n[oracles]\nstuck_steps = -1\n")
    res = playtester("explore", str(tmp_path / "game.py"), "--out", str(tmp_path / "o"))
    assert res.returncode == 2 and "playtester.toml:3: field 'oracles.stuck_steps'" in res.stderr
    assert not (tmp_path / "o").exists() or not list((tmp_path / "o").iterdir())  # nothing stored
    res = playtester("run", str(tmp_path / "game.py"), "--steps", "5")  # run checks the same tables
    assert res.returncode == 2 and "playtester.toml:3: field 'oracles.stuck_steps'" in res.stderr


def test_resume_without_a_campaign_is_a_usage_error(tmp_path):
    res = playtester("explore", "--resume", "--out", str(tmp_path))
    assert res.returncode == 2 and "nothing to resume" in res.stderr


def test_no_code_coverage_says_off_in_the_summary_and_the_report(tmp_path):
    out = tmp_path / "run"
    res = playtester("explore", "blockmaze", "--actions", "blind", "--budget", "30", "--no-shrink",
                     "--no-code-coverage", "--out", str(out))
    assert res.returncode in (0, 1), res.stdout + res.stderr
    line = next(x for x in res.stdout.splitlines() if "code coverage" in x)
    assert "off" in line and "statements" not in line, line
    html = (out / "report.html").read_text()
    assert "off (not measured in this campaign)" in html and "0 of" not in html
    res = playtester("explore", "blockmaze", "--actions", "blind", "--budget", "30", "--no-shrink",
                     "--out", str(tmp_path / "on"))
    assert "statements" in next(x for x in res.stdout.splitlines() if "code coverage" in x)


def test_oracles_in_on_the_command_line(tmp_path):
    """``--oracles-in parent|worker`` (or PLAYTESTER_ORACLES) picks where the oracles check; the same crash is found
    either way, and a wrong place is a usage error that names the two."""
    found = {}
    for where in ("parent", "worker"):
        out = tmp_path / where
        res = playtester("explore", f"{GAMES / 'raise_at.py'}:main", "--game-arg", "n=45", "--actions", "blind",
                         "--budget", "120", "--out", str(out), "--no-shrink", "--oracles-in", where)
        assert res.returncode == 1, res.stdout + res.stderr  # bugs found
        with sqlite3.connect(out / "playtester.sqlite") as db:
            found[where] = db.execute("select kind, signature, first_step from bugs order by id").fetchall()
    assert found["parent"] == found["worker"] and found["parent"], found
    res = playtester("explore", "blockmaze", "--budget", "10", "--out", str(tmp_path / "x"), "--oracles-in", "cloud")
    assert res.returncode == 2 and "'worker'" in res.stdout + res.stderr and "'parent'" in res.stdout + res.stderr
