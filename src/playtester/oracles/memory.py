"""Memory oracle: the game used up its episode's memory limit.

Each episode process runs under a data limit (``memory_limit_mb``, see drive/lifetime.py). A game that
allocates past it gets a ``MemoryError`` (or, in native code, dies at the limit); the episode ends with
``GameExit(kind="memory")`` and this oracle reports it with where the last allocation was made. It is a
finding of its own, not a crash: the fix is usually a leak (a list that only grows, surfaces made every
frame), and the limit the campaign ran under is in the trace's config, so the bug replays the same way.
"""

from __future__ import annotations

import os

from playtester.drive.observation import Observation
from playtester.findings import Finding, frames_signature, location_of


class MemoryOracle:
    kind = "memory"
    error = True  # its bugs are things that broke (JUnit <error>)

    def reset(self) -> None:
        pass

    def check(self, obs: Observation, step: int) -> list[Finding]:
        exit = obs.exit
        if exit is None or exit.kind != "memory":
            return []
        # the failing allocation is wherever the leak happened to cross the limit: functions, not lines
        sig = f"memory:{frames_signature(exit.frames, lines=False)}" if exit.frames else "memory:native"
        loc = location_of(exit.frames)
        msg = exit.message + (f" at {os.path.basename(loc)}" if loc else "")
        return [Finding("memory", msg, sig, step, loc, {"traceback": exit.traceback[-8000:]})]
