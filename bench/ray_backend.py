"""The Ray backend's cost: steps/s of a campaign with 2 workers, local vs Ray (``--backend ray``), side by side.

Issue 21's target: Ray >= 0.9 of local. Measured here, on one machine with a local Ray instance (the actors
run on the same cores as the parent and the games):

  steps/s        `run_agent` (``playtester run``): random agent, 2 workers, a fixed step budget, blockmaze's
                 analyzed space (made once), no frames captured; the loop's own time (from the first reset to
                 the budget), not worker start-up. Local and Ray alternate in interleaved rounds (order swapped
                 every round); median and best round (interference only slows a run, so the best round is the
                 code's own speed; the median is what the machine gave).
  parent CPU     process time of the parent (every thread: Ray's core worker threads included) over the loop,
                 per step: what bounds how many workers one driver can feed.
  latency        one worker stepped one step at a time (act, wait, act...): microseconds per step, local Worker
                 vs RayWorker, and a Ray actor call that does nothing (the per-call floor Ray adds).

The machine is shared: `uptime`'s load averages before and after are recorded; run it under ``nice``.
Writes bench/results/ray_backend.json (command, commit, machine, date); asserts nothing.
Usage: nice -n 10 python bench/ray_backend.py [--steps 1000] [--rounds 4] [--latency-steps 300]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from provenance import provenance, write_results

from playtester.campaign import run_agent
from playtester.drive.ray_worker import RayWorker, connect
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker
from playtester.env import resolve_space


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def campaign(spec, space, backend: str, steps: int) -> dict[str, float]:
    """One `run_agent` run: steps/s of its loop and the parent's CPU seconds per step over the loop."""
    marks: list[tuple[float, int]] = []

    def on_step(s) -> None:
        marks.append((time.process_time(), s.steps))

    s = run_agent(spec, agent="random", steps=steps, workers=2, seed=0, actions=space, on_step=on_step,
                  backend=backend)
    (c0, n0), (c1, n1) = marks[0], marks[-1]
    return {"steps_per_s": s.steps_per_s, "cpu_ms_per_step": 1000 * (c1 - c0) / max(1, n1 - n0), "steps": s.steps}


def latency(spec, space, backend: str, n: int) -> float:
    """Microseconds per step of one worker stepped one step at a time (act, wait for its answer, act...)."""
    w = Worker(spec, space, capture=None) if backend == "local" else RayWorker(spec, space, capture=None)
    try:
        w.reset(seed=0)
        done = 0
        t = time.perf_counter()
        for i in range(n):
            if w.act(i % len(space)).done:
                w.reset(seed=i)
            done += 1
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
    args = ap.parse_args()
    made = provenance()
    load_before = load()
    spec = resolve(args.game)
    space = resolve_space(spec, "analyzed")
    t = time.perf_counter()
    ray = connect(None)
    init_s = time.perf_counter() - t
    runs: dict[str, list[dict[str, float]]] = {"local": [], "ray": []}
    for r in range(args.rounds):
        for backend in (("local", "ray") if r % 2 == 0 else ("ray", "local")):
            runs[backend].append(campaign(spec, space, backend, args.steps))
            print(f"round {r + 1} {backend:5s} {runs[backend][-1]['steps_per_s']:7.1f} steps/s  "
                  f"parent {runs[backend][-1]['cpu_ms_per_step']:.3f} ms CPU/step", flush=True)
    lat = {b: latency(spec, space, b, args.latency_steps) for b in ("local", "ray")}
    null_us = null_call_us(ray)
    ray.shutdown()

    def summary(b: str) -> dict[str, float]:
        sps = [x["steps_per_s"] for x in runs[b]]
        cpu = [x["cpu_ms_per_step"] for x in runs[b]]
        return {"steps_per_s_median": round(statistics.median(sps), 1), "steps_per_s_best": round(max(sps), 1),
                "parent_cpu_ms_per_step_median": round(statistics.median(cpu), 3),
                "parent_cpu_ms_per_step_best": round(min(cpu), 3), "rounds": runs[b]}

    local, rayb = summary("local"), summary("ray")
    per_round = [round(y["steps_per_s"] / x["steps_per_s"], 3) for x, y in zip(runs["local"], runs["ray"], strict=True)]
    record = {
        "game": args.game, "workers": 2, "agent": "random", "steps_per_run": args.steps, "rounds": args.rounds,
        "nice": os.nice(0), "load_before": load_before, "load_after": load(), "ray_init_s": round(init_s, 1),
        "local": local, "ray": rayb,
        "ratio_median": round(rayb["steps_per_s_median"] / local["steps_per_s_median"], 3),
        "ratio_best": round(rayb["steps_per_s_best"] / local["steps_per_s_best"], 3),
        "ratio_per_round": per_round,
        "latency_us_per_step": {"local": round(lat["local"]), "ray": round(lat["ray"]),
                                "ray_extra": round(lat["ray"] - lat["local"])},
        "ray_null_call_us": round(null_us),
    }
    print(f"steps/s with 2 workers: local median {local['steps_per_s_median']} (best {local['steps_per_s_best']}), "
          f"ray median {rayb['steps_per_s_median']} (best {rayb['steps_per_s_best']}); ray/local median "
          f"{record['ratio_median']}, best {record['ratio_best']}, per round {per_round}")
    print(f"parent CPU per step: local {local['parent_cpu_ms_per_step_median']} ms, ray "
          f"{rayb['parent_cpu_ms_per_step_median']} ms (medians)")
    print(f"one worker, one step at a time: local {lat['local']:.0f} us/step, ray {lat['ray']:.0f} us/step; "
          f"a null Ray actor call {null_us:.0f} us; load {load_before} -> {record['load_after']}")
    print(write_results("ray_backend", record, made))


if __name__ == "__main__":
    main()
