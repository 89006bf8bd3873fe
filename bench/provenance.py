"""What every results file records about how it was made: the command, the git commit (and whether the
tree had uncommitted changes), the machine (cores, memory, Python, platform, the CPU's model and vector
instruction flags, and the kernels torch uses when the bench runs torch in its own process) and the date.

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


VECTOR_FLAGS = ("avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_vnni", "avx512_bf16",
                "amx_tile")


def _cpu() -> tuple[str, list[str]]:
    """The CPU's model and which of ``VECTOR_FLAGS`` it has (from /proc/cpuinfo; what torch, the BLAS library and
    oneDNN choose their kernels by). Read from the file, so that a bench that does not use torch does not load it."""
    model, flags = None, None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and model is None:
                model = value.strip()
            elif key.strip() == "flags" and flags is None:
                have = set(value.split())
                flags = [f for f in VECTOR_FLAGS if f in have]
    except OSError:
        pass
    return model or platform.processor() or "unknown", flags or []


def _torch_capability() -> str | None:
    """The vector instructions torch's CPU kernels use in this process (``AVX512``, ``AVX2``, ...), when the bench has
    loaded torch here; None otherwise (the CPU's flags say what it would pick, ``ATEN_CPU_CAPABILITY`` overrides)."""
    torch = sys.modules.get("torch")
    return None if torch is None else str(torch.backends.cpu.get_cpu_capability())


def provenance() -> dict[str, object]:
    import psutil

    cpu, flags = _cpu()
    return {
        "command": " ".join([os.path.relpath(sys.argv[0], ROOT) if sys.argv[0] else "python", *sys.argv[1:]]),
        "commit": _git("rev-parse", "HEAD") or "unknown",
        "dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "machine": {"cores": os.cpu_count(), "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
                    "python": sys.version.split()[0], "platform": platform.platform(), "cpu": cpu,
                    "cpu_vector_flags": flags, "torch_cpu_capability": _torch_capability()},
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


def select_games(every: list[dict], where: str, split: str, games: str) -> list[dict]:
    """The games of a corpus (``every``, read from ``where``) in ``split`` (``all``: every split), only those named
    in ``games`` when given (comma-separated); exits naming any game the corpus does not hold, or that lies in
    another split (so that no held-out game is run by naming it under a development split)."""
    import sys

    chosen = [g for g in every if split == "all" or g["split"] == split]
    if split != "all" and not chosen:
        sys.exit(f"no game of {where} is in split {split!r}")
    if games:
        wanted = games.split(",")
        unknown = set(wanted) - {g["name"] for g in every}
        if unknown:
            sys.exit(f"not in {where}: {', '.join(sorted(unknown))}")
        elsewhere = sorted(set(wanted) - {g["name"] for g in chosen})
        if elsewhere:
            splits = {g["name"]: g["split"] for g in every}
            sys.exit(f"not in split {split!r}: " + ", ".join(f"{n} ({splits[n]})" for n in elsewhere)
                     + "; name their split with --split")
        chosen = [g for g in chosen if g["name"] in wanted]
    return chosen
