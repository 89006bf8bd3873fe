"""What every results file records about how it was made: the command, the git commit (and whether the
tree had uncommitted changes), the machine (cores, memory, Python, platform, the CPU's model and the vector
instructions torch's kernels use on it) and the date.

The learned agents' figures depend on the last: torch picks its CPU kernels by the instructions the CPU has (AVX-512
or AVX2), and the two round differently, so a network trained on one kind of machine ends a few ulps away from the
same network trained on the other, and a campaign's play drifts from there. ``ATEN_CPU_CAPABILITY=avx2`` (or
``avx512``) makes torch use the kernels a results file names, where the CPU has them; that is not always enough
(the BLAS library and oneDNN choose their own kernels by the CPU's model too), so the CPU's model is kept as well."""

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


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _torch_capability() -> str | None:
    """The vector instructions torch's CPU kernels use here (``AVX512``, ``AVX2``, ...), None without torch."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        return None
    import torch

    return str(torch.backends.cpu.get_cpu_capability())


def provenance() -> dict[str, object]:
    import psutil

    return {
        "command": " ".join([os.path.relpath(sys.argv[0], ROOT) if sys.argv[0] else "python", *sys.argv[1:]]),
        "commit": _git("rev-parse", "HEAD") or "unknown",
        "dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "machine": {"cores": os.cpu_count(), "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
                    "python": sys.version.split()[0], "platform": platform.platform(), "cpu": _cpu_model(),
                    "torch_cpu_capability": _torch_capability()},
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        # settings given by environment (PLAYTESTER_SPIN_US=0 and the like), which the command line does not show
        "environment": {k: v for k, v in sorted(os.environ.items())
                        if k.startswith("PLAYTESTER_") or k in ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA",
                                                                 "MKL_CBWR", "OMP_NUM_THREADS")},
    }


def write_results(name: str, record: dict[str, object], made: dict[str, object] | None = None) -> Path:
    """bench/results/NAME.json: ``record`` with the provenance of the run (``made`` when taken at its start)."""
    import json

    out = ROOT / "bench" / "results" / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({**(made or provenance()), **record}, indent=1))
    return out
