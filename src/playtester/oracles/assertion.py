"""Assertion oracle: a failed ``probe.check`` in the game."""

from __future__ import annotations

import os

from playtester.drive.observation import Observation
from playtester.findings import Finding


class AssertionOracle:
    kind = "assertion"

    def reset(self) -> None:
        pass

    def check(self, obs: Observation, step: int) -> list[Finding]:
        return [Finding("assertion", c.message,
                        f"assertion:{os.path.basename(c.file)}:{c.line}:{c.message}", step,
                        f"{c.file}:{c.line}", {"data": c.data, "function": c.function, "frame": c.frame})
                for c in obs.checks]
