"""Shared fixtures of the Godot tests."""

from __future__ import annotations

import os
import shutil

import pytest

REQUIRE = os.environ.get("PLAYTESTER_REQUIRE_GODOT") == "1"  # CI: a missing runtime fails instead of skipping


@pytest.fixture
def godot():
    """Skip (or, with PLAYTESTER_REQUIRE_GODOT=1, fail) a test that needs godot3-server when it is missing."""
    if shutil.which("godot3-server") is None:
        if REQUIRE:
            pytest.fail("godot3-server is not installed and PLAYTESTER_REQUIRE_GODOT=1")
        pytest.skip("godot3-server is not installed (apt-get install godot3-server, or make godot)")
