"""Frame-time oracle: a frame whose in-game work (CPU time of the game's thread, playtester's own time excluded) exceeds
a budget."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from playtester.drive.observation import Observation
from playtester.findings import Finding


class FrameTimeSettings(BaseModel):
    """The frame-time oracle's key of the ``[oracles]`` table."""

    model_config = ConfigDict(extra="forbid")
    frame_budget_ms: float = Field(250.0, gt=0, description="game work (CPU time of the game thread) one frame "
                                   "may take")


class FrameTimeOracle:
    kind = "frame_time"

    @classmethod
    def from_settings(cls, s: FrameTimeSettings) -> FrameTimeOracle:
        return cls(s.frame_budget_ms)

    def __init__(self, budget_ms: float) -> None:
        self.budget_ms = budget_ms

    def reset(self) -> None:
        pass

    def check(self, obs: Observation, step: int) -> list[Finding]:
        ms = float(obs.info.get("max_frame_ms", 0.0))
        if ms <= self.budget_ms:
            return []
        return [Finding("frame_time", f"a frame took {ms:.1f} ms of game work (budget {self.budget_ms:g} ms)",
                        "frame_time:over-budget", step, "", {"ms": ms, "budget_ms": self.budget_ms})]
