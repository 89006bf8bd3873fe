"""What the driver (the parent process) spends per step of an `explore` campaign, part by part: local vs Ray,
one step per call to a worker vs acting ahead (8 steps per call), and the oracles in the parent vs in the worker
(``explore(oracles_in=...)``: where the game's worker is, the findings coming back with each step). Issue 21's
bound on how many workers one driver can feed.

Each setup is one `explore` campaign (random agent, blockmaze's analyzed space, 2 workers, every observer: the
oracles, state and code coverage, positions, the bird's-eye trace, the explorer's hooks, the store). Each
observer's hooks, the environment's step calls and the agent's `act` / `plan` are wrapped to add up the main
thread's CPU time (``time.thread_time``) spent in them; the process's CPU over the loop (all threads: Ray's
own included) is measured beside it (the game's source is parsed for code coverage before the clock starts: a
one-off of 0.05-0.2 s that otherwise lands in one episode's end and blurs the per-step parts). ``Worker.check_step`` (the oracles where the game runs) is timed too: with
the local backend it runs in this process (the local `Worker` object is here), with Ray in the actor (not here);
so are the store's writes (a finding's, inside ``OracleWatch.on_step``; an episode's, inside the episode writer),
and ``oracle_checks_here_us_per_step`` is ``OracleWatch.on_step`` less the findings' writes: the oracles' own
checks in the parent's main thread.

Each setup runs ``--rounds`` times, the order of the setups rotated every round (so each placement's runs are
side by side); per setup the median round is reported (steps/s, CPU per step) with every round kept. Prints the
figures and writes bench/results/NAME.json (``--name``, default parent_cost_worker_oracles; the first run of this
bench, oracles in the parent only, is parent_cost.json) with command, commit, machine, date and the load average
before and after; asserts nothing.

Usage: nice -n 10 python bench/parent_cost.py [--steps 1500] [--game blockmaze] [--rounds 1]
           [--backends local,ray] [--ahead 1,8] [--oracles parent,worker] [--name parent_cost_worker_oracles]
"""

from __future__ import annotations

import argparse
import os
import statistics
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
from playtester.drive.worker import Worker
from playtester.env import GameEnv, resolve_space
from playtester.store import Store

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
        for o in loop.observers:  # the game's source is parsed for code coverage once a campaign (0.05-0.2 s):
            if isinstance(o, obs_mod.CodeWatch):  # before the clock starts, not in one episode's end
                o.code.total()
        COST.clear()
        self.c0, self.t0, self.tt0 = time.process_time(), time.perf_counter(), time.thread_time()

    def on_end(self, loop) -> None:
        self.c1, self.t1, self.tt1 = time.process_time(), time.perf_counter(), time.thread_time()


def one_run(spec, space, steps: int, backend: str, ahead: int, where: str) -> dict:
    """One `explore` campaign: its steps/s, the parent's CPU per step (all threads, and the main thread) and
    the main thread's CPU per step in each part."""
    loop_module.AHEAD = ahead
    clock = Clock()
    with tempfile.TemporaryDirectory() as d:
        r = explore(spec, out=d, budget=Budget(steps=steps), workers=2, seed=3, actions=space, replay_known=False,
                    backend=backend, observers=[clock], oracles_in=where, finalize=False)
        bugs = len(r.bugs)
        r.store.close()
    n = clock.loop.steps
    # the oracles' own checks in this process: OracleWatch less the store's writes of what it found
    checks = COST["OracleWatch.on_step"] - COST["Store.record_finding (the findings' sink, inside OracleWatch.on_step)"]
    return {"steps": n, "bugs": bugs, "oracle_checks_here_us_per_step": round(1e6 * checks / n, 1), "steps_per_s": round(n / (clock.t1 - clock.t0), 1),
            "parent_cpu_ms_per_step": round(1000 * (clock.c1 - clock.c0) / n, 3),
            "main_thread_cpu_ms_per_step": round(1000 * (clock.tt1 - clock.tt0) / n, 3),
            "parts_us_per_step": {k: round(1e6 * v / n, 1) for k, v in sorted(COST.items(), key=lambda kv: -kv[1])}}


def median_row(runs: list[dict]) -> dict:
    """The round with the median parent CPU per step (its parts with it), and every round's figures."""
    mid = sorted(runs, key=lambda x: x["parent_cpu_ms_per_step"])[(len(runs) - 1) // 2]
    return {**mid, "steps_per_s_median": round(statistics.median(x["steps_per_s"] for x in runs), 1),
            "steps_per_s_best": max(x["steps_per_s"] for x in runs),
            "oracle_checks_here_us_per_step_median": round(statistics.median(
                x["oracle_checks_here_us_per_step"] for x in runs), 1),
            "main_thread_cpu_ms_per_step_median": round(statistics.median(
                x["main_thread_cpu_ms_per_step"] for x in runs), 3),
            "parent_cpu_ms_per_step_median": round(statistics.median(x["parent_cpu_ms_per_step"] for x in runs), 3),
            "rounds": [{k: x[k] for k in ("steps_per_s", "parent_cpu_ms_per_step", "main_thread_cpu_ms_per_step")}
                       for x in runs]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--game", default="blockmaze")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--backends", default="local,ray")
    ap.add_argument("--ahead", default="1,8", help="steps per call to a worker, one setup each")
    ap.add_argument("--oracles", default="parent,worker", help="where the oracles check, one setup each")
    ap.add_argument("--name", default="parent_cost_worker_oracles", help="the results file's name")
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
    wrap(Worker, "check_step", "Worker.check_step (the oracles where the game runs; local: in this process)")
    wrap(obs_mod.StateKey, "__call__", "StateKey (the abstraction where the game runs, inside Worker.check_step)")
    wrap(Store, "record_finding", "Store.record_finding (the findings' sink, inside OracleWatch.on_step)")
    wrap(Store, "record_episode", "Store.record_episode (inside EpisodeWriter.on_episode_end)")
    wrap(RandomAgent, "act", "agent.act")
    wrap(RandomAgent, "plan", "agent.plan")
    spec = resolve(args.game)
    space = resolve_space(spec, "analyzed")
    load_before = os.getloadavg()
    setups = [(b, int(a), w) for b in args.backends.split(",") for a in args.ahead.split(",")
              for w in args.oracles.split(",")]
    runs: dict[str, list[dict]] = defaultdict(list)
    for r in range(args.rounds):
        for backend, ahead, where in setups[r % len(setups):] + setups[:r % len(setups)]:
            key = f"{backend}, ahead {ahead}, oracles in the {where}"
            runs[key].append(row := one_run(spec, space, args.steps, backend, ahead, where))
            print(f"round {r + 1} {key:40}: {row['steps_per_s']:7.1f} steps/s, parent CPU "
                  f"{row['parent_cpu_ms_per_step']:.3f} ms/step (main thread {row['main_thread_cpu_ms_per_step']:.3f})",
                  flush=True)
    rows = {f"{b}, ahead {a}, oracles in the {w}": median_row(runs[f"{b}, ahead {a}, oracles in the {w}"])
            for b, a, w in setups}
    for key, row in rows.items():
        print(f"{key:40}: median {row['steps_per_s_median']:7.1f} steps/s, parent CPU "
              f"{row['parent_cpu_ms_per_step_median']:.3f} ms/step (main thread "
              f"{row['main_thread_cpu_ms_per_step_median']:.3f}; oracle checks in OracleWatch "
              f"{row['oracle_checks_here_us_per_step_median']:.1f} us/step)")
        for k, v in list(row["parts_us_per_step"].items())[:6]:
            print(f"    {k:75} {v:8.1f} us/step")
    compare = {}
    for b in args.backends.split(","):
        for a in args.ahead.split(","):
            p, w = rows.get(f"{b}, ahead {a}, oracles in the parent"), rows.get(f"{b}, ahead {a}, oracles in the worker")
            if p and w:
                compare[f"{b}, ahead {a}"] = {
                    "parent_cpu_ms_per_step": {"parent": p["parent_cpu_ms_per_step_median"],
                                               "worker": w["parent_cpu_ms_per_step_median"]},
                    "main_thread_cpu_ms_per_step": {"parent": p["main_thread_cpu_ms_per_step_median"],
                                                    "worker": w["main_thread_cpu_ms_per_step_median"]},
                    "oracle_checks_in_oraclewatch_us_per_step": {"parent": p["oracle_checks_here_us_per_step_median"],
                                                                 "worker": w["oracle_checks_here_us_per_step_median"]},
                    "steps_per_s": {"parent": p["steps_per_s_median"], "worker": w["steps_per_s_median"]},
                    "worker_over_parent_steps_per_s": round(w["steps_per_s_median"] / p["steps_per_s_median"], 3),
                    "per_round_worker_over_parent_steps_per_s": [
                        round(y["steps_per_s"] / x["steps_per_s"], 3)
                        for x, y in zip(runs[f"{b}, ahead {a}, oracles in the parent"],
                                        runs[f"{b}, ahead {a}, oracles in the worker"], strict=True)]}
                print(f"{b}, ahead {a}: oracles in the worker / in the parent: steps/s "
                      f"{compare[f'{b}, ahead {a}']['worker_over_parent_steps_per_s']}, parent CPU "
                      f"{w['parent_cpu_ms_per_step_median']:.3f} vs {p['parent_cpu_ms_per_step_median']:.3f} ms/step")
    out = write_results(args.name, {"game": args.game, "workers": 2, "agent": "random", "actions": "analyzed",
                                    "steps_per_run": args.steps, "rounds": args.rounds, "nice": os.nice(0),
                                    "order": "setups rotated by one every round", "load_before": load_before,
                                    "load_after": os.getloadavg(), "setups": rows, "worker_vs_parent": compare},
                        made)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
