"""Shared helpers: fixture games under tests/fixtures/games, run through real worker processes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAMES = FIXTURES / "games"


def fixture_spec(name: str, function: str | None = "main", **config):
    """A GameSpec for tests/fixtures/games/NAME.py[:function] with config overrides."""
    from playtester.drive.spec import resolve

    text = str(GAMES / f"{name}.py") + (f":{function}" if function else "")
    return resolve(text, **config) if config else resolve(text)


@pytest.fixture
def worker_for():
    """Make Workers that are closed at the end of the test."""
    from playtester.drive.worker import Worker

    made = []

    def make(spec, **kwargs):
        w = Worker(spec, **kwargs)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()
