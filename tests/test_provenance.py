"""bench/provenance.py: what a results file records about the machine, and that recording it loads no torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
SCRIPT = f"""
import json, sys
sys.path.insert(0, {str(BENCH)!r})
from provenance import VECTOR_FLAGS, provenance
first = provenance()["machine"]
loaded = "torch" in sys.modules
import torch
second = provenance()["machine"]
print(json.dumps({{"first": first, "loaded": loaded, "second": second, "capability": str(torch.backends.cpu.get_cpu_capability()),
                  "known": list(VECTOR_FLAGS)}}))
"""


def test_provenance_records_the_cpus_flags_and_torchs_kernels_only_where_torch_was_loaded():
    pytest.importorskip("torch")
    out = json.loads(subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True,
                                    timeout=120).stdout)
    first, second = out["first"], out["second"]
    assert not out["loaded"]  # recording the machine did not import torch
    assert first["torch_cpu_capability"] is None
    assert second["torch_cpu_capability"] == out["capability"]  # once the bench has torch, its kernels are named
    assert first["cpu"] and first["cpu"] != "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():  # the flags are the CPU's own, in the known order
        have = set(next(line for line in cpuinfo.read_text().splitlines() if line.startswith("flags"))
                   .partition(":")[2].split())
        assert first["cpu_vector_flags"] == [f for f in out["known"] if f in have]
