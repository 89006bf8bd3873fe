"""`playtester init GAME` (issue 54): the playtester.toml it writes, from real runs of real games.

Each fixture is copied into a tmp folder (the config goes beside the game) and init runs as a user runs it: a
subprocess of the command line. The written file is read back with the project's config loader, and a short
campaign with it is compared with one without it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GAMES

from playtester.drive.spec import load_config, resolve

SRC = Path(__file__).resolve().parent.parent / "src"


def playtester(*args: str, cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    """The command line in a subprocess; this checkout's code first, whatever the working folder."""
    env = os.environ | {"PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "playtester.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=env)


def init_beside(tmp_path: Path, fixture: str, *args: str) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """Copy a fixture game into tmp_path and run init on it: (game file, written config, process)."""
    name, _, func = fixture.partition(":")
    game = tmp_path / name
    shutil.copy(GAMES / name, game)
    out = playtester("init", f"{game}:{func}" if func else str(game), "--seconds", "2", *args)
    return game, tmp_path / "playtester.toml", out


def test_title_any_key_and_quit_key(tmp_path):
    """A title that waits for any key, arrows to play, q quits: init writes RETURN as the init (it gets past the
    title from a fresh start), blacklists q and no movement key, lists the controls and leaves TODOs."""
    game, toml, out = init_beside(tmp_path, "title_anykey.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"wrote {toml}" in out.stdout and "q (quit)" in out.stdout
    cfg = load_config(toml)
    assert cfg.blacklist == ["q"]
    assert not {"LEFT", "RIGHT", "UP", "DOWN"} & set(cfg.blacklist)
    assert [s.keys for s in cfg.init if s.keys] == [["RETURN"]]
    text = toml.read_text()
    assert "# q: quit key" in text and "entry returned" in text
    assert "#   LEFT | " in text  # a control, with its valid-when and inputs
    listed = [ln.split(" | ")[0] for ln in text.splitlines() if ln.startswith("#   ") and " | " in ln][1:]
    assert "distinct input(s) in" in text and len(listed) == len(set(listed))  # one line per input
    assert "# TODO: how an episode ends" in text and "moved" in text  # the probe event it saw
    assert f"# game spec: {game}" in text and 'entry = "title_anykey.py"' in text
    # the file is the one a campaign on the game reads, and its init gets past the title
    spec = resolve(str(game))
    assert spec.config_path == str(toml) and spec.config.init == cfg.init
    from playtester.drive.worker import Worker

    with Worker(spec) as w:
        obs = w.reset(seed=0)
        assert obs.features["playing"] == 1
    with Worker(spec.with_config(init=[])) as w:
        assert w.reset(seed=0).features["playing"] == 0


def test_written_init_lets_a_campaign_past_the_title(tmp_path):
    """A title that waits for ENTER only: a short random campaign over the arrows never moves the square without
    the written file and moves it with it. The same run finds ESCAPE (sys.exit(0)) and the pause key P."""
    game = tmp_path / "title_enter.py"
    shutil.copy(GAMES / "title_enter.py", game)
    arrows = tmp_path / "arrows.yaml"
    arrows.write_text("version: 1\nactions:\n" + "".join(f"  - name: {k.lower()}\n    keys: [{k}]\n"
                                                        for k in ("LEFT", "RIGHT", "UP", "DOWN")))
    from playtester.campaign import run_agent

    def moved() -> int:
        summary = run_agent(resolve(str(game)), steps=40, seed=0, actions=f"manual:{arrows}")
        assert summary.steps == 40
        return summary.events["moved"]

    assert moved() == 0  # no config: the arrows do nothing on the title
    out = playtester("init", str(game), "--seconds", "2")
    assert out.returncode == 0, out.stdout + out.stderr
    cfg = load_config(tmp_path / "playtester.toml")
    assert [s.keys for s in cfg.init if s.keys] == [["RETURN"]]
    assert cfg.blacklist == ["ESCAPE", "p"]
    text = (tmp_path / "playtester.toml").read_text()
    assert "# p: pause key: p froze the screen" in text and "sys.exit(0)" in text
    assert moved() > 0


@pytest.mark.parametrize("fixture, expected, kind", [
    ("paddle_pause.py", ["p"], "pause"),  # the ball stops, nothing moves the paddle; p again: it moves
    ("fullscreen_toggle.py:main", ["f", "t"], "fullscreen"),  # Window.set_fullscreen / toggle_fullscreen
])
def test_pause_and_fullscreen_keys(tmp_path, fixture, expected, kind):
    _, toml, out = init_beside(tmp_path, fixture)
    assert out.returncode == 0, out.stdout + out.stderr
    cfg = load_config(toml)
    assert cfg.blacklist == expected
    assert cfg.init == []  # nothing to pass: play starts at once (paddle) / no input but f, t changes the screen
    for key in expected:
        assert f"# {key}: {kind} key" in toml.read_text()


def test_bundled_game_quit_key_not_its_moves(tmp_path):
    """blockmaze plays from its first frame: ESCAPE (which ends it) is blacklisted, the moves are not, there is
    no init; a module spec's config goes in the current folder, and init says how to use it."""
    out = playtester("init", "blockmaze", "--seconds", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    cfg = load_config(tmp_path / "playtester.toml")
    assert cfg.blacklist == ["ESCAPE"] and cfg.init == []
    assert cfg.game_args == {"size": 11, "n_bugs": 5}  # the game's own arguments, so it runs the same
    assert (cfg.frames_per_action, cfg.fps, cfg.max_episode_steps) == (10, 30, 200)  # and its run settings
    assert f"--config {tmp_path / 'playtester.toml'}" in out.stdout


def test_refuses_to_overwrite_without_force(tmp_path):
    game = tmp_path / "title_anykey.py"
    shutil.copy(GAMES / "title_anykey.py", game)
    toml = tmp_path / "playtester.toml"
    toml.write_text("# mine\n")
    out = playtester("init", str(game))
    assert out.returncode == 2
    assert "already exists" in out.stderr and "--force" in out.stderr
    assert toml.read_text() == "# mine\n"
    other = tmp_path / "sub" / "other.toml"
    out = playtester("init", str(game), "--seconds", "1", "--out", str(other))
    assert out.returncode == 0, out.stderr
    assert load_config(other).blacklist == ["q"] and toml.read_text() == "# mine\n"
    out = playtester("init", str(game), "--seconds", "1", "--force")
    assert out.returncode == 0, out.stderr
    assert load_config(toml).blacklist == ["q"]


def test_errors_a_user_can_hit(tmp_path):
    out = playtester("init", "gym:CartPole-v1", cwd=tmp_path)
    assert out.returncode == 2 and "pygame games" in out.stderr
    out = playtester("init", str(tmp_path / "missing.py"), cwd=tmp_path)
    assert out.returncode == 2 and "does not exist" in out.stderr
    assert not (tmp_path / "playtester.toml").exists()
