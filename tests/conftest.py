"""Shared helpers: fixture games under tests/fixtures/games, run through real worker processes."""

from __future__ import annotations

import os
import shutil
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


@pytest.fixture(autouse=True, scope="session")
def own_cache(tmp_path_factory):
    """What playtester caches (the detections of demonstrations) goes to a folder of this session's, not the
    user's ~/.cache: every run starts from an empty cache."""
    before = os.environ.get("PLAYTESTER_CACHE")
    os.environ["PLAYTESTER_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        os.environ.pop("PLAYTESTER_CACHE", None)
    else:
        os.environ["PLAYTESTER_CACHE"] = before


REQUIRE_GODOT = os.environ.get("PLAYTESTER_REQUIRE_GODOT") == "1"  # CI: a missing Godot fails instead of skipping


@pytest.fixture
def godot():
    """Skip (or, with PLAYTESTER_REQUIRE_GODOT=1, fail) a test that needs godot3-server when it is missing."""
    if shutil.which("godot3-server") is None:
        if REQUIRE_GODOT:
            pytest.fail("godot3-server is not installed and PLAYTESTER_REQUIRE_GODOT=1")
        pytest.skip("godot3-server is not installed (apt-get install godot3-server, or make godot)")


@pytest.fixture(scope="module")
def ray_local():
    """A local Ray instance for this module, shut down (every actor and Ray process with it) at its end."""
    ray = pytest.importorskip("ray")
    from playtester.drive.ray_worker import connect

    connect(None)
    yield ray
    ray.shutdown()
