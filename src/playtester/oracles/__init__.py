"""Oracles: small bug detectors that look at every step's `Observation`.

crash, hang, memory (the episode's memory limit used up), stuck (Wuji), assertion (``probe.check``), balance
(designed ranges), error_log (ERROR records from the game's logging), frame_time (a frame over its work budget).
Each is registered below, once: adding one is its file and its line (see `registry`).
"""

from playtester.oracles.assertion import AssertionOracle
from playtester.oracles.balance import BalanceOracle, BalanceSettings
from playtester.oracles.base import Oracle, OracleSuite
from playtester.oracles.crash import CrashOracle
from playtester.oracles.error_log import ErrorLogOracle
from playtester.oracles.frame_time import FrameTimeOracle, FrameTimeSettings
from playtester.oracles.hang import HangOracle
from playtester.oracles.memory import MemoryOracle
from playtester.oracles.registry import (
    REGISTRY,
    error_kinds,
    frames_needed,
    kinds,
    oracle_settings,
    register,
    settings_model,
)
from playtester.oracles.stuck import StuckOracle, StuckSettings
from playtester.oracles.texture import TextureOracle, TextureSettings

register(CrashOracle, error=True)
register(HangOracle, error=True)
register(MemoryOracle, error=True)
register(StuckOracle, StuckSettings)
register(AssertionOracle)
register(BalanceOracle, BalanceSettings)
register(ErrorLogOracle)
register(FrameTimeOracle, FrameTimeSettings)
register(TextureOracle, TextureSettings)

__all__ = ["REGISTRY", "AssertionOracle", "BalanceOracle", "CrashOracle", "ErrorLogOracle", "FrameTimeOracle",
           "HangOracle", "MemoryOracle", "Oracle", "OracleSuite", "StuckOracle", "error_kinds", "frames_needed",
           "kinds", "make_oracles", "oracle_settings", "register", "settings_model"]


def make_oracles(settings) -> OracleSuite:  # a validated [oracles] table (`oracle_settings`), or a raw dict
    """The oracle suite the game's ``[oracles]`` settings ask for."""
    if isinstance(settings, dict):
        settings = settings_model().model_validate(settings)
    return OracleSuite([REGISTRY[k].make(settings) for k in settings.enabled])
