"""The analysis on real games from PyPI (bench/real_games.toml): it finds the inputs their docs or code say
they use. Installs the pinned games exactly as bench/real_games.py does (its `install`), into the same cache;
skipped only when the package registry cannot be reached. Run with ``make test-slow``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
GAMES = ["jpong", "pong-arcade", "pysnakepygame"]  # controls from their code, their README (pong-arcade), their code


def _real_games():
    """bench/real_games.py as a module (it puts bench/ on sys.path for its sibling provenance.py: taken off
    again, so that bench's scripts cannot shadow anything for the other tests)."""
    before = list(sys.path)
    spec = importlib.util.spec_from_file_location("real_games", BENCH / "real_games.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.path[:] = before
    return module


real_games = _real_games()
CORPUS = {g["name"]: g for g in real_games.load_corpus()}


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", GAMES)
def test_analysis_finds_documented_controls(name: str, tmp_path: Path) -> None:
    game = CORPUS[name]
    try:
        real_games.install(game)
    except real_games.InstallError as e:
        if e.unreachable:
            pytest.skip(f"the package registry is unreachable, so {game['pip']} cannot be installed: {e}")
        raise
    row = real_games.measure_analysis(game, seed=0, space_file=tmp_path / "space.json")
    a = row["analysis"]
    assert a["status"] == "succeeded", f"{name}: analysis {a['status']}: {a.get('reason')}"
    missing = set(row["controls"]) - set(row["controls_found"])
    assert not missing, (f"{name}: the analysis found no action pressing {sorted(missing)} "
                         f"(documented: {row['controls']}; its actions press {a['inputs']})")


def test_a_timed_out_or_stopped_measurement_leaves_no_process(tmp_path: Path) -> None:
    """The bench's children run in process groups of their own: a timeout kills the child's whole group (a
    game it started too), and so does the bench's own end (SIGTERM). Real processes; their pids are checked."""
    import os
    import signal
    import subprocess
    import time

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        with open(f"/proc/{pid}/stat") as f:  # a zombie waiting for its reaper is gone too
            return f.read().split(") ")[1][0] != "Z"

    pids = tmp_path / "pids"
    child = ["bash", "-c", f"sleep 300 & echo $! >> {pids}; echo $$ >> {pids}; wait"]
    with pytest.raises(subprocess.TimeoutExpired):
        real_games._run(child, timeout=1)
    time.sleep(0.3)
    assert [p for p in map(int, pids.read_text().split()) if alive(p)] == []

    pids.unlink()
    script = tmp_path / "stop.py"
    script.write_text(f"import importlib.util, signal, atexit\n"
                      f"spec = importlib.util.spec_from_file_location('rg', {str(BENCH / 'real_games.py')!r})\n"
                      f"rg = importlib.util.module_from_spec(spec); spec.loader.exec_module(rg)\n"
                      f"atexit.register(rg._kill_all); signal.signal(signal.SIGTERM, rg._on_signal)\n"
                      f"rg._run({child!r}, timeout=300)\n")
    bench = subprocess.Popen([sys.executable, str(script)])
    for _ in range(100):
        if pids.exists() and len(pids.read_text().split()) == 2:
            break
        time.sleep(0.1)
    bench.send_signal(signal.SIGTERM)
    bench.wait(timeout=30)
    time.sleep(0.3)
    assert [p for p in map(int, pids.read_text().split()) if alive(p)] == []


def test_repo_corpus_selection() -> None:
    """``--corpus repo`` selects bench/repo_games.toml's games of one split (dev by default), each tagged with its
    corpus and split; naming a game of another split exits instead of running it (the held-out splits stay
    held out unless asked for)."""
    import tomllib

    games = tomllib.loads((BENCH / "repo_games.toml").read_text())["game"]
    dev = [g["name"] for g in games if g["split"] == "dev"]
    chosen = real_games.select("", "repo", "dev")
    assert [g["name"] for g in chosen] == dev
    assert {(g["corpus"], g["split"]) for g in chosen} == {("repo", "dev")}
    assert [g["name"] for g in real_games.select(",".join(dev[:2]), "repo", "dev")] == dev[:2]
    held = next(g["name"] for g in games if g["split"] != "dev")
    with pytest.raises(SystemExit, match="not in split 'dev'"):
        real_games.select(held, "repo", "dev")
    with pytest.raises(SystemExit, match="not in bench/repo_games.toml"):
        real_games.select("no-such-game", "repo", "dev")
    game = chosen[0]
    assert real_games.game_dir(game).parent == real_games.REPO_CACHE and real_games.pythonpath(game) == []
    assert real_games.version(game) == game["commit"][:7]
    pypi = real_games.select("jpong")  # the default corpus is still PyPI's
    assert pypi[0]["corpus"] == "pypi" and real_games.game_dir(pypi[0]) == real_games.CACHE / "jpong"


def test_summary_per_split_and_issue55_targets() -> None:
    """The summary counts issue 55's figures (space size per documented control, the blind fallback) over all
    rows and per split."""

    def row(split: str, actions: int, controls: int, found: int, fallback: int, lines: tuple, states: tuple) -> dict:
        ctl = [f"k{i}" for i in range(controls)]
        r = {"game": f"g{split}{actions}", "split": split, "controls": ctl, "controls_found": ctl[:found],
             "run": {"rc": 0, "steps": 10},
             "analysis": {"status": "succeeded", "actions": actions, "analysed_actions": actions - fallback,
                          "fallback_actions": fallback, "path_actions": actions - fallback + 1, "analysis_s": 0.1},
             "analyzed": {"lines": lines[0], "states": states[0]}, "blind": {"lines": lines[1], "states": states[1]}}
        r["actions_per_control"] = real_games.per_control(r)
        return r

    rows = [row("dev", 4, 2, 2, 0, (10, 9), (5, 3)), row("dev", 160, 2, 1, 150, (8, 9), (2, 3)),
            row("heldout2", 6, 3, 3, 0, (7, 7), (4, 3))]
    s = real_games.summary(rows)
    assert s["median_actions_per_control"] == 2.0 and s["max_actions_per_control"] == 80.0
    assert s["spaces_with_fallback"] == 1 and s["fallback_actions"] == 150 and s["games_all_controls_found"] == 2
    assert s["targets_issue55"]["median actions per documented control <= 3"]
    assert not s["targets_issue55"]["analyzed >= blind on code coverage on >= 90%"]  # 2 of 3
    assert set(s["by_split"]) == {"dev", "heldout2"}
    dev = s["by_split"]["dev"]
    assert dev["games"] == 2 and dev["median_actions_per_control"] == 41.0
    assert not dev["targets_issue55"]["median actions per documented control <= 3"]
    assert s["by_split"]["heldout2"]["targets_issue55"]["analyzed > blind on distinct states on >= 80%"]
    assert "Split heldout2: " in real_games.summary_lines(s)
