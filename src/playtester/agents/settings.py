"""The ``[agent]`` section of a game config: what a learning explorer is told beyond the campaign's own.

It is held raw by the game config (`playtester.drive.spec.GameConfig.agent`, below this layer) and
validated here, with the config file's line numbers (`agent_settings`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from playtester import configfile
from playtester.drive.spec import cell_feature


class AgentSettings(BaseModel):
    """``[agent]``: a learning explorer's inputs and Go-Explore's domain-knowledge cells."""

    model_config = ConfigDict(extra="forbid")
    features: list[str] | None = Field(
        None, description="probe features a learning agent takes as input (Wuji's policy network), when it "
        "should see more than coverage counts (where the boss is, which way the hero faces); default: the "
        "game's features")
    cell_features: list[str] = Field(default_factory=list, description="probe features that tell game states "
                                     "apart beyond the player's position (Go-Explore's domain-knowledge cells: "
                                     "a level, keys held, buffs); NAME joins each cell's key with its integer "
                                     "part, NAME:STEP with floor(value / STEP), NAME:log2 with a log2 bucket "
                                     "(0 alone, then (0,1], (1,3], (3,7], ...)")

    @field_validator("cell_features")
    @classmethod
    def _cell_features(cls, v: list[str]) -> list[str]:
        for entry in v:
            cell_feature(entry)
        return v


def agent_settings(spec: Any) -> AgentSettings:
    """The game's ``[agent]`` section, validated.

    Raises:
        ConfigError: every invalid key, with the config file's line and "did you mean" for typos.
    """
    return configfile.section(spec.config.agent, AgentSettings, spec.config_path, "agent", spec.text)
