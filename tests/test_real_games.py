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
