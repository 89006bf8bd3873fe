"""bench/campaign_pool.py: a benchmark stopped by a signal leaves no campaign process running (the pool's
processes die with the bench's), a real subprocess killed for real."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import os, sys, time
sys.path.insert(0, {bench!r})
from campaign_pool import run_pool

def job(j):
    open(j["pidfile"], "w").write(str(os.getpid()))
    time.sleep(120)
    return j

if __name__ == "__main__":
    run_pool(job, [{{"pidfile": {pidfile!r}}}], 1, str)
"""


def test_a_killed_bench_leaves_no_pool_process(tmp_path):
    pidfile = tmp_path / "child.pid"
    script = tmp_path / "bench_like.py"
    script.write_text(SCRIPT.format(bench=str(ROOT / "bench"), pidfile=str(pidfile)))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, str(script)], env=env)
    try:
        deadline = time.monotonic() + 60
        while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        child = int(pidfile.read_text())
        os.kill(child, 0)  # the campaign process runs
        proc.send_signal(signal.SIGTERM)  # as `kill` or a CI timeout stops a bench
        proc.wait(30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            os.kill(child, signal.SIGKILL)
            raise AssertionError("the pool's process outlived the bench")
    finally:
        if proc.poll() is None:
            proc.kill()
