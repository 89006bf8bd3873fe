"""The command line, run as a user runs it: a real subprocess, real exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import GAMES


def playtester(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "playtester.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_run_bundled_game_prints_a_summary(tmp_path):
    out = playtester("run", "blockmaze", "--steps", "300", "--workers", "2", "--json", str(tmp_path / "s.json"))
    assert out.returncode == 0, out.stderr
    assert "steps/s" in out.stdout and "game crashes" in out.stdout
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["steps"] == 300 and data["workers"] == 2 and data["actions"] == "manual"
    assert data["startup_s"] > 0 and "of start-up" in out.stdout  # the workers' start, kept off the clock


def test_run_calls_a_learning_agents_hooks(tmp_path):
    """`run` is the campaign loop without a store: a learning explorer sees every step (Go-Explore's archive
    grows), where the random agent has nothing to report."""
    out = playtester("run", "blockmaze", "--agent", "goexplore", "--steps", "60", "--json", str(tmp_path / "g.json"))
    assert out.returncode == 0, out.stderr
    stats = json.loads((tmp_path / "g.json").read_text())["agent_stats"]
    assert stats["cells"] > 1, stats
    out = playtester("run", "blockmaze", "--steps", "20", "--json", str(tmp_path / "r.json"))
    assert json.loads((tmp_path / "r.json").read_text())["agent_stats"] == {}


def test_run_reports_crashes_with_exit_code_1(tmp_path):
    out = playtester("run", f"{GAMES / 'raise_at.py'}:main", "--steps", "40", "--actions", "blind",
                     "--game-arg", "n=12", "--json", str(tmp_path / "s.json"))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "ValueError: boom at frame 12" in out.stdout and "raise_at.py" in out.stdout
    data = json.loads((tmp_path / "s.json").read_text())
    assert {e["outcome"] for e in data["episodes"]} == {"crash"}


def test_bad_input_exits_2_with_a_clear_message(tmp_path):
    out = playtester("run", "no_such_game_here")
    assert out.returncode == 2 and "no bundled game, file or importable module" in out.stderr
    bad = tmp_path / "a.yaml"
    bad.write_text("version: 1\nactions:\n  - name: x\n    keys: [NOPE]\n")
    out = playtester("run", "blockmaze", "--actions", f"manual:{bad}")
    assert out.returncode == 2 and "a.yaml:4" in out.stderr and "unknown key name 'NOPE'" in out.stderr
    out = playtester("run", "blockmaze", "--game-arg", "size")
    assert out.returncode == 2 and "name=value" in out.stderr


def test_games_lists_bundled_games():
    out = playtester("games")
    assert out.returncode == 0 and {"blockmaze", "platformer"} <= set(out.stdout.split())


def test_ahead_plays_the_same_run_and_a_bad_value_is_refused(tmp_path):
    """``--ahead`` (acting ahead) changes how steps travel, not which: the same seed gives the same episodes
    and the same crash as one step per call; 0 is refused with the option named."""
    runs = {}
    for k in ("1", "8"):
        out = playtester("run", f"{GAMES / 'raise_at.py'}:main", "--steps", "60", "--actions", "blind",
                         "--game-arg", "n=12", "--ahead", k, "--json", str(tmp_path / f"{k}.json"))
        assert out.returncode == 1, out.stdout + out.stderr
        runs[k] = json.loads((tmp_path / f"{k}.json").read_text())
    assert [(e["outcome"], e["steps"]) for e in runs["1"]["episodes"]] == \
        [(e["outcome"], e["steps"]) for e in runs["8"]["episodes"]]
    assert runs["8"]["steps"] == 60 and len(runs["8"]["episodes"]) >= 4
    out = playtester("run", "blockmaze", "--ahead", "0")
    assert out.returncode == 2 and "--ahead" in out.stderr
