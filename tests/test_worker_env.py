"""The worker host's environment: the game's bytecode is cached in the worker's folder, not the game's."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import GAMES


def test_the_game_is_compiled_once_per_worker_and_its_folder_stays_clean(tmp_path, monkeypatch, worker_for):
    """Episode processes import the game afresh at every reset; with PYTHONDONTWRITEBYTECODE set (as on some
    machines) every reset compiled it from source. Bytecode now goes to the worker's own pycache folder, so
    later resets load it, and nothing is written beside the user's game."""
    from playtester.drive.spec import resolve

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    game = tmp_path / "mygame" / "game.py"
    game.parent.mkdir()
    shutil.copy(GAMES / "no_input.py", game)
    w = worker_for(resolve(f"{game}:main"), capture=None)
    for seed in range(2):
        assert not w.reset(seed=seed).done
    cached = [p.name for p in (Path(w._tmp_dir) / "pycache").rglob("*.pyc")]
    assert any(name.startswith("game.") for name in cached), cached
    assert not list(game.parent.rglob("__pycache__")), "bytecode was written beside the game"
