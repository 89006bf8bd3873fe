"""Frame-time oracle: a frame whose in-game work (CPU time of the game's thread, playtester's own time excluded) exceeds
a budget.

The game's start-up (its frames up to and including the first that reads input: imports, loading images and sounds) is
not a frame of play: it is measured apart (``startup_ms``) and judged only against ``startup_budget_ms`` when one is set.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from playtester.drive.observation import Observation
from playtester.findings import Finding


class FrameTimeSettings(BaseModel):
    """The frame-time oracle's key of the ``[oracles]`` table."""

    model_config = ConfigDict(extra="forbid")
    frame_budget_ms: float = Field(250.0, gt=0, description="game work (CPU time of the game thread) one frame "
                                   "may take (start-up frames, before the game first reads input, are not judged "
                                   "by it)")
    startup_budget_ms: float | None = Field(None, gt=0, description="game work its start-up (the frames up to the "
                                            "first that reads input: imports, loading) may take in all; off when "
                                            "not set")


class FrameTimeOracle:
    kind = "frame_time"
    settings = FrameTimeSettings  # its keys of the [oracles] table

    @classmethod
    def from_settings(cls, s: FrameTimeSettings) -> FrameTimeOracle:
        return cls(s.frame_budget_ms, s.startup_budget_ms)

    def __init__(self, budget_ms: float, startup_budget_ms: float | None = None) -> None:
        self.budget_ms = budget_ms
        self.startup_budget_ms = startup_budget_ms

    def reset(self) -> None:
        pass

    def check(self, obs: Observation, step: int) -> list[Finding]:
        out: list[Finding] = []
        startup = obs.info.get("startup_ms")
        if (self.startup_budget_ms is not None and startup is not None and obs.info.get("started")
                and float(startup) > self.startup_budget_ms):
            out.append(Finding("frame_time", f"start-up took {float(startup):.1f} ms of game work before the game "
                               f"first read input (startup_budget_ms {self.startup_budget_ms:g} ms)",
                               "frame_time:startup-over-budget", step, "",
                               {"ms": float(startup), "budget_ms": self.startup_budget_ms}))
        ms = float(obs.info.get("max_frame_ms", 0.0))
        if ms <= self.budget_ms:
            return out
        return out + [Finding("frame_time", f"a frame took {ms:.1f} ms of game work (budget {self.budget_ms:g} ms)",
                        "frame_time:over-budget", step, "", {"ms": ms, "budget_ms": self.budget_ms})]
