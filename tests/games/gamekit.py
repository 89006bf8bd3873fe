"""Shared helpers of the bundled games' tests: a probe sink that records every call, and a headless
run of a game module in a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from playtester import probe

ROOT = Path(__file__).resolve().parents[2]
HEADLESS = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


class RecordingSink:
    """Stands in for playtester's driver sink and records every probe call.

    Attributes:
        events: ``(name, data)`` per ``probe.event``.
        checks: ``(message, data)`` per failed ``probe.check``.
        observations: the features of each ``probe.observe`` call.
        features: the latest value of every feature.
        entities: the latest ``(kind, pos, attrs)`` per entity id.
    """

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.checks: list[tuple[str, dict[str, Any]]] = []
        self.observations: list[dict[str, Any]] = []
        self.features: dict[str, Any] = {}
        self.entities: dict[Any, tuple[str, Any, dict[str, Any]]] = {}

    def on_event(self, name: str, data: dict[str, Any]) -> None:
        self.events.append((name, data))

    def on_check(self, message: str, data: dict[str, Any], where: Any) -> None:
        self.checks.append((message, data))

    def on_observe(self, features: dict[str, Any]) -> None:
        self.observations.append(dict(features))
        self.features.update(features)

    def on_entity(self, id: Any, kind: str, pos: Any, attrs: dict[str, Any]) -> None:
        self.entities[id] = (kind, pos, dict(attrs))

    @property
    def check_messages(self) -> list[str]:
        return [message for message, _ in self.checks]

    def names(self) -> list[str]:
        """The names of the events, in order."""
        return [name for name, _ in self.events]

    def named(self, name: str) -> list[dict[str, Any]]:
        """The data of every event called ``name``."""
        return [data for n, data in self.events if n == name]


def install_sink(monkeypatch: pytest.MonkeyPatch) -> RecordingSink:
    """Route the probe to a fresh `RecordingSink` for one test."""
    sink = RecordingSink()
    monkeypatch.setattr(probe, "_sink", sink)
    return sink


def run_python(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in a real subprocess with SDL's dummy drivers and ``src`` importable."""
    env = {**os.environ, **HEADLESS}
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def run_headless(module: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ARGS`` headless (see `run_python`)."""
    return run_python("-m", module, *args, timeout=timeout)
