"""The few calls a game may add to tell playtester what is going on inside it.

This module has no dependencies and costs one attribute test per call when no test is running, so a
game can keep its probe calls in production builds::

    from playtester import probe

    probe.observe(x=player.x, y=player.y, hp=player.hp)   # features, read by observations/oracles
    probe.entity("door-1", "door", (12, 4), open=False)     # an actor and where it is
    probe.event("coin_collected", value=10)                 # something happened
    probe.check(hp <= max_hp, "hp above its maximum")        # an invariant; a failure is a bug

Inside a playtester worker the driver installs a *sink* that collects these calls frame by frame and
hands them back in each ``Observation``. Outside one, every call returns at once.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = ["active", "event", "check", "observe", "entity", "hook", "hooks"]

# Set by playtester's driver inside a worker process; None everywhere else.
_sink: Any = None
_hooks: dict[str, Callable[..., Any]] = {}


def active() -> bool:
    """True when the game runs under playtester (a sink is installed)."""
    return _sink is not None


def event(name: str, /, **data: Any) -> None:
    """Broadcast a named game event (``"door_opened"``, ``"player_died"``) with optional data."""
    if _sink is not None:
        _sink.on_event(name, data)


def check(condition: Any, message: str = "", /, **data: Any) -> bool:
    """Assert an invariant of the game. A false ``condition`` is reported as a bug, never raised.

    Returns ``bool(condition)`` so it can guard recovery code in the game.
    """
    ok = bool(condition)
    if not ok and _sink is not None:
        frame = sys._getframe(1)
        where = (frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)
        _sink.on_check(message or "probe.check failed", data, where)
    return ok


def observe(**features: float) -> None:
    """Report numeric features of the current state (``x=3, hp=40``); the latest value wins."""
    if _sink is not None:
        _sink.on_observe(features)


def entity(id: Any, kind: str, pos: tuple[float, float] | None = None, /, **attrs: Any) -> None:
    """Report an actor of the game: a stable ``id``, its ``kind`` and its world position."""
    if _sink is not None:
        _sink.on_entity(id, kind, pos, attrs)


def hook(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Offer playtester a capability, e.g. ``hook("teleport", player.move_to)``.

    Known hook names: ``teleport(x, y)`` and ``walkable() -> list[list[bool]]`` (used by plans).
    Registration is kept even when no test runs, so it is cheap and safe to call at start-up.
    """
    _hooks[name] = fn
    return fn


def hooks() -> dict[str, Callable[..., Any]]:
    """The hooks the game registered so far (name -> callable)."""
    return dict(_hooks)
