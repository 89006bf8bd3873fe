"""The ``[coverage]`` section of a game config: how states are told apart and where the player is.

It is held raw by the game config (`playtester.drive.spec.GameConfig.coverage`, below this layer) and
validated here, with the config file's line numbers (`coverage_settings`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from playtester import configfile


class CoverageSettings(BaseModel):
    """``[coverage]``: the state abstraction and the position map."""

    model_config = ConfigDict(extra="forbid")
    abstraction: str = Field("auto", description="state abstraction for coverage: auto, features, scene, pixels")
    feature_ranges: dict[str, tuple[float, float]] = Field(
        default_factory=dict, description="ranges of probe features for the features abstraction: each ranged "
        "feature is cut into feature_buckets equal intervals (Wuji's state abstraction); others are rounded")
    feature_buckets: int = Field(10, ge=1, description="intervals per ranged feature (Wuji's m)")
    position: str = Field("auto", description="where the player's position comes from, for the map: auto, "
                          "features, or entity:NAME")
    position_cell: float = Field(1.0, gt=0, description="size of a position-map cell, in the game's units")

    @field_validator("feature_ranges")
    @classmethod
    def _feature_ranges(cls, v: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        for k, (lo, hi) in v.items():
            if not hi > lo:
                raise ValueError(f"feature range of {k!r} must have its high above its low, got [{lo}, {hi}]")
        return v


def coverage_settings(spec: Any) -> CoverageSettings:
    """The game's ``[coverage]`` section, validated.

    Raises:
        ConfigError: every invalid key, with the config file's line and "did you mean" for typos.
    """
    return configfile.section(spec.config.coverage, CoverageSettings, spec.config_path, "coverage", spec.text)
