"""Oracles: small bug detectors that look at every step's `Observation`.

crash, hang, memory (the episode's memory limit used up), stuck (Wuji), assertion (``probe.check``), balance (designed ranges), error_log
(ERROR records from the game's logging), frame_time (a frame over its work budget).
"""

from playtester.oracles.assertion import AssertionOracle
from playtester.oracles.balance import BalanceOracle
from playtester.oracles.base import Oracle, OracleSuite
from playtester.oracles.crash import CrashOracle
from playtester.oracles.error_log import ErrorLogOracle
from playtester.oracles.frame_time import FrameTimeOracle
from playtester.oracles.hang import HangOracle
from playtester.oracles.memory import MemoryOracle
from playtester.oracles.stuck import StuckOracle

ALL_KINDS = ["crash", "hang", "memory", "stuck", "assertion", "balance", "error_log", "frame_time"]

__all__ = ["ALL_KINDS", "AssertionOracle", "BalanceOracle", "CrashOracle", "ErrorLogOracle", "FrameTimeOracle",
           "HangOracle", "MemoryOracle", "Oracle", "OracleSuite", "StuckOracle", "make_oracles"]


def make_oracles(settings) -> OracleSuite:  # settings: playtester.drive.spec.OracleSettings
    """The oracle suite a game's configuration asks for."""
    made = {
        "crash": lambda: CrashOracle(),
        "hang": lambda: HangOracle(),
        "memory": lambda: MemoryOracle(),
        "stuck": lambda: StuckOracle(settings.stuck_steps, settings.stuck_threshold, settings.stuck_min_inputs,
                                     settings.stuck_features, settings.stuck_screen,
                                     settings.stuck_criterion),
        "assertion": lambda: AssertionOracle(),
        "balance": lambda: BalanceOracle({k: tuple(v) for k, v in settings.balance.items()}),
        "error_log": lambda: ErrorLogOracle(),
        "frame_time": lambda: FrameTimeOracle(settings.frame_budget_ms),
    }
    return OracleSuite([made[k]() for k in settings.enabled])
