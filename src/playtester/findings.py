"""What a campaign finds: oracle findings, de-duplicated bugs, and replayable traces.

A `Finding` is one firing of an oracle at one step. Findings with the same *signature* are the same
`Bug` (the same bug found a thousand times is one bug with a count). A `Trace` is everything needed to
replay an episode: (game spec, config, seed, action space, action list).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, fields
from typing import Any

from playtester.drive.observation import TraceFrame

TRACE_SCHEMA = 1
BUG_JSON_SCHEMA = 1  # bug.json in a bug folder (report.write_bug_folders, a failed plan's folder)
# Frames from these places are the tool's or the library's, not the game's.
_NOT_GAME = (f"{os.sep}pygame{os.sep}", f"{os.sep}playtester{os.sep}drive{os.sep}",
             f"{os.sep}playtester{os.sep}probe.py", "<frozen ", f"{os.sep}runpy.py", f"{os.sep}importlib{os.sep}")


def game_frames(frames: list[TraceFrame]) -> list[TraceFrame]:
    """The frames of a traceback that belong to the game (not pygame, not playtester, not importlib)."""
    return [f for f in frames if not any(p in f.file for p in _NOT_GAME)]


def frames_signature(frames: list[TraceFrame], depth: int = 3, lines: bool = True) -> str:
    """``file:function:line`` of the innermost game frames, innermost first.

    Hangs leave out the innermost line (``lines=False`` for it): a stack dumped while a loop spins
    lands on any line of the loop, and it is the same hang.
    """
    inner = list(reversed(game_frames(frames)[-depth:] or frames[-depth:]))
    return " < ".join(f"{os.path.basename(f.file)}:{f.function}" + (f":{f.line}" if lines or i else "")
                      for i, f in enumerate(inner))


def location_of(frames: list[TraceFrame]) -> str:
    inner = game_frames(frames) or frames
    return f"{inner[-1].file}:{inner[-1].line}" if inner else ""


@dataclass
class Finding:
    """One firing of an oracle.

    Attributes:
        kind: the oracle's kind (``crash``, ``hang``, ``stuck``, ``assertion``, ``balance``,
            ``error_log``, ``frame_time``).
        message: one line for people.
        signature: what makes two findings the same bug.
        step: the episode step at which it fired (0 is the reset).
        location: ``file:line`` in the game, when known.
        details: anything else (traceback text, feature values, ...), JSON-serializable.
    """

    kind: str
    message: str
    signature: str
    step: int
    location: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def is_error(self) -> bool:
        """Crashes and hangs are errors (something broke); the rest are failures (a check did not hold)."""
        return self.kind in ("crash", "hang", "memory")


def short_hash(text: str, n: int = 10) -> str:
    return hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()[:n]


@dataclass
class Trace:
    """An episode as a replayable recipe. ``actions[i]`` is the action of step ``i + 1``.

    Attributes:
        game: the game spec text.
        config: the full game configuration (``GameConfig.model_dump()``).
        seed: the episode seed.
        space: the action space, serialized (`actions.space.space_to_dict`).
        actions: the action indices, in order.
        capture: the frames the oracles watched when it was recorded (``[width, height]``, ``"full"``; None:
            none), so that a replay shows the oracles the same frames (a frozen screen is seen in frames only).
        origin: the folder ``game`` was resolved from when it was recorded (absolute), so a relative spec
            (``main.py``, a module found in the current folder) replays from any folder; None in older traces.
    """

    game: str
    config: dict[str, Any]
    seed: int
    space: dict[str, Any]
    actions: list[int] = field(default_factory=list)
    schema: int = TRACE_SCHEMA
    capture: list[int] | str | None = None
    origin: str | None = None

    def prefix(self, n: int) -> Trace:
        """The trace cut to its first ``n`` actions."""
        return self.with_actions(self.actions[:n])

    def with_actions(self, actions: list[int]) -> Trace:
        return Trace(self.game, self.config, self.seed, self.space, list(actions), self.schema, self.capture,
                     self.origin)

    @property
    def frame_capture(self) -> tuple[int, int] | str | None:
        """``capture`` as a worker takes it."""
        return tuple(self.capture) if isinstance(self.capture, list) else self.capture  # type: ignore[return-value]

    def to_json(self) -> str:
        # the fields as they are (plain JSON values): `asdict` deep-copies the nested space and config first, which
        # took about ten times as long as the encoding (9 ms of 10 for an analyzed blockmaze space), once per new bug;
        # no origin is no field (traces written before it had none, and demonstrations keep theirs byte for byte)
        return json.dumps({f.name: getattr(self, f.name) for f in fields(self)
                           if not (f.name == "origin" and self.origin is None)}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Trace:
        from playtester.errors import ConfigError, TraceFormatError

        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ConfigError(f"trace is not valid JSON: {e}") from None
        if not isinstance(data, dict) or data.get("schema") != TRACE_SCHEMA:
            raise ConfigError(f"trace schema {data.get('schema') if isinstance(data, dict) else '?'} is not "
                              f"supported (this playtester reads schema {TRACE_SCHEMA})")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        missing = sorted(n for n in ("game", "config", "seed", "space") if n not in data)
        if unknown or missing:
            raise TraceFormatError(f"trace has {'unknown fields ' + ', '.join(unknown) if unknown else ''}"
                              f"{'; ' if unknown and missing else ''}"
                              f"{'no ' + ', '.join(missing) if missing else ''}; it was not written by playtester "
                              f"(schema {TRACE_SCHEMA}) or was edited")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, int) and not isinstance(a, bool) and a >= 0
                                                    for a in actions):
            bad = actions if not isinstance(actions, list) else next(
                a for a in actions if not (isinstance(a, int) and not isinstance(a, bool) and a >= 0))
            raise TraceFormatError(f"trace actions must be a list of action numbers (integers >= 0); found {bad!r}")
        listed = data["space"].get("actions") if isinstance(data.get("space"), dict) else None
        n = len(listed) if isinstance(listed, list) and listed else None
        if n is not None and any(a >= n for a in actions):
            raise TraceFormatError(f"trace action {max(actions)} is out of its action space's range 0..{n - 1}")
        return cls(**data)


@dataclass
class Bug:
    """A de-duplicated bug: every finding with its signature, counted, with its first trace."""

    id: int
    kind: str
    signature: str
    message: str
    location: str
    count: int
    first_found_s: float  # seconds after the campaign started
    first_step: int
    trace: Trace | None = None
    min_trace: Trace | None = None
    flaky: bool | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def fails(self, flaky_too: bool = False) -> bool:
        """Whether this bug fails a run (its exit code, its JUnit case): it reproduced when replayed, or was never
        replayed; a *flaky* bug (its replays did not fire it at its step) only with ``flaky_too`` (``--fail-on
        flaky``)."""
        return flaky_too or not self.flaky
