"""Error-log oracle: records at ERROR level or above from the game's Python logging, or an engine's error lines."""

from __future__ import annotations

import os
import re

from playtester.drive.observation import LogRecord, Observation
from playtester.findings import Finding

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def signature(r: LogRecord) -> str:
    """What makes two error records the same bug.

    A Python log call site is the bug (its message formats values that change from run to run), so it is the
    logger, the file and the line. An engine's error line (Godot's ``SCRIPT ERROR: ... At: res://x.gd:LINE``)
    can raise different errors at one line (a null base, then a bad index), so its message is part of it too,
    with its numbers blanked (an index or a value is not a different bug)."""
    where = f"error_log:{r.logger}:{os.path.basename(r.file)}:{r.line}"
    if r.file.endswith(".py"):
        return where
    return f"{where}:{_NUMBER.sub('#', r.message)[:120]}"


class ErrorLogOracle:
    kind = "error_log"

    def reset(self) -> None:
        pass

    def check(self, obs: Observation, step: int) -> list[Finding]:
        return [Finding("error_log", f"{r.level} from logger {r.logger!r}: {r.message}", signature(r), step,
                        f"{r.file}:{r.line}" if r.file else r.logger, {"level": r.level, "message": r.message})
                for r in obs.logs]
