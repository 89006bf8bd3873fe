"""The Ray backend's cost: steps/s of a campaign with 2 workers, local vs Ray (``--backend ray``), side by side,
one step per call to the worker and acting ahead (batches of ``--ahead`` steps, one call each).

Issue 21's target: Ray >= 0.9 of local. Measured here, on one machine with a local Ray instance (the actors
run on the same cores as the parent and the games):

  steps/s        `run_agent` (``playtester run``): random agent, 2 workers, a fixed step budget, blockmaze's
                 analyzed space (made once; its action masks change from step to step), no frames captured;
                 the loop's own time (from the first reset to the budget), not worker start-up. Four runs a
                 round: ``local`` and ``ray`` one step per call (the loop's ``ahead`` = 1), ``local_ahead``
                 and ``ray_ahead`` acting ahead (``ahead`` = 8: the random agent's plan chooses each step's
                 action on its mask in the worker, a batch of up to 8 steps per call, one Ray actor call
                 each); their order rotates every round, so each round's ratios are side by side. Median and
                 best round (interference only slows a run, so the best round is the code's own speed; the
                 median is what the machine gave).
  parent CPU     process time of the parent (every thread: Ray's core worker threads included) over the loop,
                 per step: what bounds how many workers one driver can feed.
  job CPU        CPU time of the parent and every process under it (worker hosts, episodes, a local Ray's
                 raylet, GCS and actors) from a tenth of the budget to its end, per step: what a step costs the
                 machine, whatever else runs on it (on a loaded machine steps/s ratios also reflect how the
                 scheduler shares the cores among more or fewer processes).
  latency        one worker stepped one step at a time (act, wait, act...): microseconds per step, local Worker
                 vs RayWorker, and a Ray actor call that does nothing (the per-call floor Ray adds); and the
                 same worker acting ahead (``act_ahead``, batches of ``--ahead``).

The machine is shared: `uptime`'s load averages before and after are recorded; run it under ``nice``.
Writes bench/results/ray_backend.json (``--name``: another name; command, commit, machine, date); asserts nothing.
Usage: nice -n 10 python bench/ray_backend.py [--steps 1000] [--rounds 4] [--latency-steps 300] [--ahead 8]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
import psutil
from provenance import provenance, write_results

import playtester.campaign.loop as loop_module
from playtester.agents.common import RandomPlan
from playtester.campaign import run_agent
from playtester.drive.ray_worker import RayWorker, connect
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker
from playtester.env import resolve_space


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def job_cpu() -> float:
    """CPU seconds of this process and every process under it (worker hosts, episode processes, a local Ray's
    head processes and actors), the ended ones included through their parents' waited-children times."""
    me = psutil.Process()
    total = 0.0
    for p in [me, *me.children(recursive=True)]:
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def campaign(spec, space, backend: str, steps: int, ahead: int) -> dict[str, float]:
    """One `run_agent` run with the loop's ``ahead``: steps/s of its loop, the parent's CPU seconds per step
    over the loop, and the whole job's (every process under this one) from a tenth of the budget to its end
    (``run_agent`` has no ``ahead`` of its own: the loop's default is set for the run)."""
    marks: list[tuple[float, int]] = []
    job: list[tuple[float, int]] = []

    def on_step(s) -> None:
        marks.append((time.process_time(), s.steps))
        if (not job and s.steps >= steps // 10) or (len(job) == 1 and s.steps >= steps):
            job.append((job_cpu(), s.steps))

    default, loop_module.AHEAD = loop_module.AHEAD, ahead
    try:
        s = run_agent(spec, agent="random", steps=steps, workers=2, seed=0, actions=space, on_step=on_step,
                      backend=backend)
    finally:
        loop_module.AHEAD = default
    (c0, n0), (c1, n1) = marks[0], marks[-1]
    (j0, m0), (j1, m1) = job[0], job[-1]
    return {"steps_per_s": s.steps_per_s, "cpu_ms_per_step": 1000 * (c1 - c0) / max(1, n1 - n0), "steps": s.steps,
            "job_cpu_ms_per_step": 1000 * (j1 - j0) / max(1, m1 - m0)}


def latency(spec, space, backend: str, n: int, ahead: int = 1) -> float:
    """Microseconds per step of one worker stepped one step at a time (act, wait for its answer, act...), or
    (``ahead`` > 1) in batches of ``ahead`` steps chosen by a random plan (`act_ahead`)."""
    w = Worker(spec, space, capture=None) if backend == "local" else RayWorker(spec, space, capture=None)
    try:
        obs = w.reset(seed=0)
        plan = RandomPlan.of(np.random.default_rng(0), len(space))
        done = 0
        t = time.perf_counter()
        while done < n:
            a = plan.choose(obs.action_mask)
            if ahead > 1:
                _, out = w.act_ahead(a, plan, min(ahead, n - done))
            else:
                out = [w.act(a)]
            done += len(out)
            obs = out[-1]
            if obs.done:
                obs = w.reset(seed=done)
        return 1e6 * (time.perf_counter() - t) / done
    finally:
        w.close()


def null_call_us(ray, n: int = 500) -> float:
    @ray.remote
    class Null:
        def ping(self, x: int) -> int:
            return x

    a = Null.remote()
    ray.get(a.ping.remote(0))
    t = time.perf_counter()
    for i in range(n):
        ray.get(a.ping.remote(i))
    us = 1e6 * (time.perf_counter() - t) / n
    ray.kill(a)
    return us


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="blockmaze")
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--latency-steps", type=int, default=300)
    ap.add_argument("--ahead", type=int, default=8, help="steps per batch in the acting-ahead runs")
    ap.add_argument("--name", default="ray_backend", help="results file name under bench/results")
    args = ap.parse_args()
    made = provenance()
    load_before = load()
    spec = resolve(args.game)
    space = resolve_space(spec, "analyzed")
    t = time.perf_counter()
    ray = connect(None)
    init_s = time.perf_counter() - t
    kinds = {"local": ("local", 1), "ray": ("ray", 1), "local_ahead": ("local", args.ahead),
             "ray_ahead": ("ray", args.ahead)}
    order = list(kinds)
    runs: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
    for r in range(args.rounds):
        for kind in order[r % 4:] + order[:r % 4]:  # the order rotates: each kind goes first once in 4 rounds
            backend, ahead = kinds[kind]
            runs[kind].append(campaign(spec, space, backend, args.steps, ahead))
            print(f"round {r + 1} {kind:11s} {runs[kind][-1]['steps_per_s']:7.1f} steps/s  "
                  f"parent {runs[kind][-1]['cpu_ms_per_step']:.3f} ms CPU/step  "
                  f"job {runs[kind][-1]['job_cpu_ms_per_step']:.3f} ms CPU/step", flush=True)
    lat = {b: latency(spec, space, b, args.latency_steps) for b in ("local", "ray")}
    lat_ahead = {b: latency(spec, space, b, args.latency_steps, args.ahead) for b in ("local", "ray")}
    null_us = null_call_us(ray)
    ray.shutdown()

    def summary(b: str) -> dict[str, float]:
        sps = [x["steps_per_s"] for x in runs[b]]
        cpu = [x["cpu_ms_per_step"] for x in runs[b]]
        return {"steps_per_s_median": round(statistics.median(sps), 1), "steps_per_s_best": round(max(sps), 1),
                "parent_cpu_ms_per_step_median": round(statistics.median(cpu), 3),
                "parent_cpu_ms_per_step_best": round(min(cpu), 3),
                "job_cpu_ms_per_step_median": round(statistics.median(x["job_cpu_ms_per_step"] for x in runs[b]), 3),
                "rounds": runs[b]}

    s = {k: summary(k) for k in kinds}

    def ratios(num: str, den: str) -> dict[str, object]:
        return {"median": round(s[num]["steps_per_s_median"] / s[den]["steps_per_s_median"], 3),
                "best": round(s[num]["steps_per_s_best"] / s[den]["steps_per_s_best"], 3),
                "per_round": [round(y["steps_per_s"] / x["steps_per_s"], 3)
                              for x, y in zip(runs[den], runs[num], strict=True)]}

    one, ahead_vs_ahead, ahead_vs_one = ratios("ray", "local"), ratios("ray_ahead", "local_ahead"), \
        ratios("ray_ahead", "local")
    record = {
        "game": args.game, "workers": 2, "agent": "random", "steps_per_run": args.steps, "rounds": args.rounds,
        "ahead": args.ahead, "order": "local, ray, local_ahead, ray_ahead, rotated by one every round",
        "nice": os.nice(0), "load_before": load_before, "load_after": load(), "ray_init_s": round(init_s, 1),
        # one step per call to the worker (ahead = 1), as before acting ahead
        "local": s["local"], "ray": s["ray"],
        "ratio_median": one["median"], "ratio_best": one["best"], "ratio_per_round": one["per_round"],
        # acting ahead: batches of up to `ahead` steps per call (one Ray actor call each)
        "local_ahead": s["local_ahead"], "ray_ahead": s["ray_ahead"],
        "ratio_ahead": ahead_vs_ahead,  # ray_ahead / local_ahead
        "ratio_ahead_vs_local": ahead_vs_one,  # ray_ahead / local (one step per call): issue 21's comparison
        "local_ahead_vs_local": ratios("local_ahead", "local"),
        "latency_us_per_step": {"local": round(lat["local"]), "ray": round(lat["ray"]),
                                "ray_extra": round(lat["ray"] - lat["local"])},
        "latency_ahead_us_per_step": {"local": round(lat_ahead["local"]), "ray": round(lat_ahead["ray"]),
                                      "ray_extra": round(lat_ahead["ray"] - lat_ahead["local"])},
        "ray_null_call_us": round(null_us),
    }
    for k in kinds:
        print(f"{k:11s} median {s[k]['steps_per_s_median']:7.1f} steps/s (best {s[k]['steps_per_s_best']:7.1f}); "
              f"parent CPU {s[k]['parent_cpu_ms_per_step_median']:.3f} ms/step (best "
              f"{s[k]['parent_cpu_ms_per_step_best']:.3f}); job CPU {s[k]['job_cpu_ms_per_step_median']:.3f} ms/step")
    print(f"ray/local one step per call: median {one['median']}, best {one['best']}, per round {one['per_round']}")
    print(f"ray/local acting ahead ({args.ahead}): median {ahead_vs_ahead['median']}, best {ahead_vs_ahead['best']}, "
          f"per round {ahead_vs_ahead['per_round']}")
    print(f"ray acting ahead / local one step per call: median {ahead_vs_one['median']}, best {ahead_vs_one['best']}, "
          f"per round {ahead_vs_one['per_round']}")
    print(f"one worker: one step at a time local {lat['local']:.0f} us/step, ray {lat['ray']:.0f} us/step; acting "
          f"ahead local {lat_ahead['local']:.0f}, ray {lat_ahead['ray']:.0f}; a null Ray actor call {null_us:.0f} us; "
          f"load {load_before} -> {record['load_after']}")
    print(write_results(args.name, record, made))


if __name__ == "__main__":
    main()
