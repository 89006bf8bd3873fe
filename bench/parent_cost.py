"""What the driver (the parent process) spends per step of an `explore` campaign, part by part: local vs Ray,
one step per call to a worker vs acting ahead (8 steps per call). Issue 21's bound on how many workers one
driver can feed.

Each setup is one `explore` campaign (random agent, blockmaze's analyzed space, 2 workers, every observer: the
oracles, state and code coverage, positions, the bird's-eye trace, the explorer's hooks, the store). Each
observer's hooks, the environment's step calls and the agent's `act` / `plan` are wrapped to add up the main
thread's CPU time (``time.thread_time``) spent in them; the process's CPU over the loop (all threads: Ray's
own included) is measured beside it. Prints the figures and writes bench/results/parent_cost.json (with
command, commit, machine, date and the load average before and after); asserts nothing.

Usage: python bench/parent_cost.py [--steps 1500] [--game blockmaze]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import defaultdict

from provenance import provenance, write_results

import playtester.campaign.loop as loop_module
from playtester.agents.random import RandomAgent
from playtester.campaign import Budget, explore
from playtester.campaign import observers as obs_mod
from playtester.campaign.loop import Observer
from playtester.drive.spec import resolve
from playtester.env import GameEnv, resolve_space

COST: defaultdict[str, float] = defaultdict(float)
OBSERVERS = ["OracleWatch", "StateCoverage", "PositionWatch", "BirdsEyeWatch", "CodeWatch", "ExplorerHooks",
             "EpisodeWriter", "Progress"]


def wrap(cls: type, name: str, key: str) -> None:
    f = getattr(cls, name)

    def timed(*a, **k):
        t = time.thread_time()
        try:
            return f(*a, **k)
        finally:
            COST[key] += time.thread_time() - t

    setattr(cls, name, timed)


class Clock(Observer):
    """The loop's own span: wall, process CPU (all threads) and main-thread CPU."""

    def on_start(self, loop) -> None:
        self.loop = loop
        COST.clear()
        self.c0, self.t0, self.tt0 = time.process_time(), time.perf_counter(), time.thread_time()

    def on_end(self, loop) -> None:
        self.c1, self.t1, self.tt1 = time.process_time(), time.perf_counter(), time.thread_time()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--game", default="blockmaze")
    args = ap.parse_args()
    made = provenance()
    for cname in OBSERVERS:
        cls = getattr(obs_mod, cname, None)
        for m in ("on_step", "on_episode_end", "on_round"):
            if cls is not None and m in cls.__dict__:
                wrap(cls, m, f"{cname}.{m}")
    wrap(GameEnv, "step_wait", "GameEnv.step_wait (the answer, its conversion and info)")
    wrap(GameEnv, "step_async", "GameEnv.step_async")
    wrap(GameEnv, "reset", "GameEnv.reset")
    wrap(RandomAgent, "act", "agent.act")
    wrap(RandomAgent, "plan", "agent.plan")
    spec = resolve(args.game)
    space = resolve_space(spec, "analyzed")
    load_before = os.getloadavg()
    rows = {}
    for backend, ahead in [("local", 1), ("local", 8), ("ray", 1), ("ray", 8)]:
        loop_module.AHEAD = ahead
        clock = Clock()
        with tempfile.TemporaryDirectory() as d:
            r = explore(spec, out=d, budget=Budget(steps=args.steps), workers=2, seed=3, actions=space,
                        replay_known=False, backend=backend, observers=[clock])
            r.store.close()
        n = clock.loop.steps
        rows[f"{backend}, ahead {ahead}"] = row = {
            "steps": n, "steps_per_s": round(n / (clock.t1 - clock.t0), 1),
            "parent_cpu_ms_per_step": round(1000 * (clock.c1 - clock.c0) / n, 3),
            "main_thread_cpu_ms_per_step": round(1000 * (clock.tt1 - clock.tt0) / n, 3),
            "parts_us_per_step": {k: round(1e6 * v / n, 1) for k, v in sorted(COST.items(), key=lambda kv: -kv[1])}}
        print(f"{backend:5} ahead {ahead}: {row['steps_per_s']:7.1f} steps/s, parent CPU "
              f"{row['parent_cpu_ms_per_step']:.3f} ms/step (main thread {row['main_thread_cpu_ms_per_step']:.3f})",
              flush=True)
        for k, v in list(row["parts_us_per_step"].items())[:8]:
            print(f"    {k:55} {v:8.1f} us/step")
    out = write_results("parent_cost", {"game": args.game, "workers": 2, "agent": "random", "actions": "analyzed",
                                        "load_before": load_before, "load_after": os.getloadavg(), "setups": rows},
                        made)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
