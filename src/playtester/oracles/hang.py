"""Hang oracle: the watchdog found a step that never reached its next frame boundary."""

from __future__ import annotations

from playtester.drive.observation import Observation
from playtester.findings import Finding, frames_signature, location_of


class HangOracle:
    kind = "hang"
    error = True  # its bugs are things that broke (JUnit <error>)

    def reset(self) -> None:
        pass

    def check(self, obs: Observation, step: int) -> list[Finding]:
        exit = obs.exit
        if exit is None or exit.kind != "hang":
            return []
        sig = f"hang:{frames_signature(exit.frames, lines=False)}" if exit.frames else "hang:unknown"
        return [Finding("hang", exit.message, sig, step, location_of(exit.frames),
                        {"stack": exit.traceback[-8000:]})]
