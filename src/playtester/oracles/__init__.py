"""Oracles: small bug detectors that look at every step's `Observation`.

crash, hang, memory (the episode's memory limit used up), stuck (Wuji), assertion (``probe.check``), balance
(designed ranges), error_log (ERROR records from the game's logging), frame_time (a frame over its work budget).
Each is an entry point of the group ``playtester.oracles`` (pyproject.toml): adding one is its module and its
entry point, in playtester or in a package of the user's (see `registry`).
"""

from playtester.oracles.assertion import AssertionOracle
from playtester.oracles.balance import BalanceOracle
from playtester.oracles.base import Oracle, OracleSuite
from playtester.oracles.crash import CrashOracle
from playtester.oracles.error_log import ErrorLogOracle
from playtester.oracles.frame_time import FrameTimeOracle
from playtester.oracles.hang import HangOracle
from playtester.oracles.memory import MemoryOracle
from playtester.oracles.registry import (
    REGISTRY,
    error_kinds,
    frames_needed,
    kinds,
    oracle,
    oracle_settings,
    register,
    settings_model,
)
from playtester.oracles.stuck import StuckOracle
from playtester.oracles.texture import TextureOracle

__all__ = ["REGISTRY", "AssertionOracle", "BalanceOracle", "CrashOracle", "ErrorLogOracle", "FrameTimeOracle",
           "HangOracle", "MemoryOracle", "Oracle", "OracleSuite", "StuckOracle", "TextureOracle", "error_kinds", "frames_needed",
           "kinds", "make_oracles", "oracle", "oracle_settings", "register", "settings_model"]


def make_oracles(settings) -> OracleSuite:  # a validated [oracles] table (`oracle_settings`), or a raw dict
    """The oracle suite the game's ``[oracles]`` settings ask for."""
    if isinstance(settings, dict):
        settings = settings_model().model_validate(settings)
    return OracleSuite([REGISTRY.get(k).make(settings) for k in settings.enabled])
