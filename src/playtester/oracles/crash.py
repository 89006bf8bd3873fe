"""Crash oracle: an uncaught exception in game code, or the game process dying (signal, exit code)."""

from __future__ import annotations

import os

from playtester.drive.observation import Observation
from playtester.findings import Finding, frames_signature, location_of


class CrashOracle:
    kind = "crash"
    error = True  # its bugs are things that broke (JUnit <error>)

    def reset(self) -> None:
        pass

    def check(self, obs: Observation, step: int) -> list[Finding]:
        exit = obs.exit
        if exit is None or exit.kind in ("hang", "memory") or not exit.is_failure:
            return []
        if exit.kind == "exception":
            sig = f"crash:{exit.exc_type}:{frames_signature(exit.frames)}"
        elif exit.kind == "signal":
            sig = f"crash:signal:{exit.signal}" + (f":{frames_signature(exit.frames)}" if exit.frames else "")
        elif exit.kind == "exit":
            sig = f"crash:exit:{exit.code}"
        else:
            sig = f"crash:{exit.kind}"
        loc = location_of(exit.frames)
        msg = exit.message + (f" at {os.path.basename(loc)}" if loc else "")
        return [Finding("crash", msg, sig, step, loc, {"traceback": exit.traceback[-8000:], "exit": exit.kind,
                                                       "code": exit.code, "signal": exit.signal})]
