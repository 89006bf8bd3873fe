"""Error-log oracle: records at ERROR level or above from the game's Python logging."""

from __future__ import annotations

import os

from playtester.drive.observation import Observation
from playtester.findings import Finding


class ErrorLogOracle:
    kind = "error_log"

    def reset(self) -> None:
        pass

    def check(self, obs: Observation, step: int) -> list[Finding]:
        return [Finding("error_log", f"{r.level} from logger {r.logger!r}: {r.message}",
                        f"error_log:{r.logger}:{os.path.basename(r.file)}:{r.line}", step, f"{r.file}:{r.line}",
                        {"level": r.level, "message": r.message})
                for r in obs.logs]
