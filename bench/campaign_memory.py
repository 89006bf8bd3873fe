"""Memory of a long campaign, per worker: what a user's machine must have for `playtester explore`.

Runs one `explore` campaign (Go-Explore by default: it parks snapshots, the most memory-hungry explorer)
for --seconds on a bundled game with --workers workers, and samples every --every seconds, for each
worker, the processes under its host (host, live episode, parked snapshots): their summed PSS (each
shared copy-on-write page split over the processes sharing it: the worker's fair share of the
machine's memory) and summed USS (pages only that process holds: what killing the worker gives back
at least), and the largest single episode or snapshot process (RSS). Each episode
process runs under the per-worker data limit (printed); the peaks show how far below it a campaign
stays. Adds its run to bench/results/campaign_memory.json (one run per game and agent, each with its
command, commit, machine and date).

Usage: python bench/campaign_memory.py [--game combat] [--agent goexplore] [--seconds 600] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from pathlib import Path

import psutil
from provenance import provenance

from playtester.campaign import Budget, explore
from playtester.drive.lifetime import auto_memory_limit_mb
from playtester.drive.spec import resolve

OUT = Path(__file__).parent / "results" / "campaign_memory.json"


def sample(stop: threading.Event, every: float, peaks: dict[int, dict[str, float]]) -> None:
    me = psutil.Process(os.getpid())
    while not stop.wait(every):
        for host in me.children():
            procs = [host, *host.children(recursive=True)]
            pss = uss = biggest = 0.0
            for p in procs:
                try:
                    info = p.memory_full_info()
                except psutil.Error:
                    continue
                pss += info.pss / 2**20
                uss += info.uss / 2**20
                if p.pid != host.pid:
                    biggest = max(biggest, info.rss / 2**20)
            pk = peaks.setdefault(host.pid, {"pss_mb": 0.0, "uss_mb": 0.0, "episode_rss_mb": 0.0, "processes": 0})
            pk["pss_mb"] = max(pk["pss_mb"], pss)
            pk["uss_mb"] = max(pk["uss_mb"], uss)
            pk["episode_rss_mb"] = max(pk["episode_rss_mb"], biggest)
            pk["processes"] = max(pk["processes"], len(procs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="combat")
    ap.add_argument("--agent", default="goexplore")
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--every", type=float, default=5.0, help="seconds between samples")
    ap.add_argument("--out", default="/tmp/playtester-campaign-memory")
    a = ap.parse_args()
    import shutil

    shutil.rmtree(a.out, ignore_errors=True)
    peaks: dict[int, dict[str, float]] = {}
    stop = threading.Event()
    sampler = threading.Thread(target=sample, args=(stop, a.every, peaks), daemon=True)
    sampler.start()
    limit = auto_memory_limit_mb(a.workers)
    made = provenance()  # as the run starts: the commit it ran
    t0 = time.perf_counter()
    result = explore(resolve(a.game), out=a.out, agent=a.agent, budget=Budget(seconds=a.seconds), workers=a.workers,
                     seed=0, finalize=False)
    stop.set()
    sampler.join()
    workers = sorted(peaks.values(), key=lambda p: -p["uss_mb"])[: a.workers]  # hosts restarted after a hang
    record = {**made, "game": a.game, "agent": a.agent, "seconds": round(time.perf_counter() - t0, 1),
              "workers": a.workers, "memory_limit_mb": limit, "steps": result.steps, "episodes": result.episodes,
              "per_worker_peak": [{k: round(v, 1) for k, v in p.items()} for p in workers]}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    runs = json.loads(OUT.read_text()).get("runs", []) if OUT.is_file() else []
    runs = [r for r in runs if (r["game"], r["agent"]) != (a.game, a.agent)] + [record]  # one run per game/agent
    OUT.write_text(json.dumps({"runs": runs}, indent=1))
    print(f"# {a.agent} on {a.game}, {a.seconds:g} s, {a.workers} workers; data limit per episode process "
          f"{limit} MiB ({result.steps:,} steps, {result.episodes} episodes)")
    print(f"{'worker':>6} {'peak PSS MiB':>13} {'peak USS MiB':>13} {'largest episode RSS MiB':>24} {'processes':>10}")
    for i, p in enumerate(workers):
        print(f"{i:>6} {p['pss_mb']:>13,.0f} {p['uss_mb']:>13,.0f} {p['episode_rss_mb']:>24,.0f} {p['processes']:>10}")
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
