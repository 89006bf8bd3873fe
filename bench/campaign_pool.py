"""Helpers of the benchmarks that run whole campaigns side by side in a process pool (bench/ppgta.py,
bench/doom_agents.py): each campaign's own CPU time, the pool itself, and the mean and spread over seeds."""

from __future__ import annotations

import os
import resource
import statistics
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context
from typing import Any


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


@contextmanager
def cpu_seconds() -> Iterator[dict[str, float]]:
    """CPU seconds of the block, this process's and its reaped children's (the campaign's game workers), as
    ``["s"]`` once it ends. Counted from the block's start: a pool process that ran an earlier campaign is not
    charged for it (bench/ppgta.py was, before)."""
    out = {"s": 0.0}
    t0 = _cpu()
    try:
        yield out
    finally:
        out["s"] = _cpu() - t0


def run_pool(campaign: Callable[[dict[str, Any]], dict[str, Any]], jobs: list[dict[str, Any]], workers: int,
             line: Callable[[dict[str, Any]], str]) -> list[dict[str, Any]]:
    """``campaign(job)`` for every job, ``workers`` at a time in spawned processes (each campaign starts its own
    game workers), printing ``line(run)`` as each ends; the runs in job order."""
    from playtester.drive.lifetime import die_with_parent

    runs = []
    # each pool process dies with this one (SIGKILL on its death): a bench stopped by a signal leaves no campaign
    # running on (its game workers already die with their campaign's process)
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=die_with_parent,
                             initargs=(os.getpid(),)) as pool:
        for run in pool.map(campaign, jobs):
            runs.append(run)
            print(line(run), flush=True)
    return runs


def mean_sd(values: list[float]) -> dict[str, float]:
    """Mean and sample standard deviation (0 for one value), rounded to 4 places: a figure over seeds."""
    return {"mean": round(statistics.mean(values), 4), "sd": round(statistics.stdev(values), 4) if len(values) > 1
            else 0.0}
