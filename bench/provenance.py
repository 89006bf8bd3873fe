"""What every results file records about how it was made: the command, the git commit (and whether the
tree had uncommitted changes), the machine (cores, memory, Python, platform) and the date."""

from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def provenance() -> dict[str, object]:
    import psutil

    return {
        "command": " ".join([os.path.relpath(sys.argv[0], ROOT) if sys.argv[0] else "python", *sys.argv[1:]]),
        "commit": _git("rev-parse", "HEAD") or "unknown",
        "dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "machine": {"cores": os.cpu_count(), "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
                    "python": sys.version.split()[0], "platform": platform.platform()},
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        # settings given by environment (PLAYTESTER_SPIN_US=0 and the like), which the command line does not show
        "environment": {k: v for k, v in sorted(os.environ.items()) if k.startswith("PLAYTESTER_")},
    }


def write_results(name: str, record: dict[str, object], made: dict[str, object] | None = None) -> Path:
    """bench/results/NAME.json: ``record`` with the provenance of the run (``made`` when taken at its start)."""
    import json

    out = ROOT / "bench" / "results" / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({**(made or provenance()), **record}, indent=1))
    return out
