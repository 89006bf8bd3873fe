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
