"""Benchmark of explicit plans on the dungeon (README figures).

1. Plan success rate on the dungeon's variants (base, moved, layout, spawns; several episode seeds each)
   for: input-list replay (the inputs of a passing ``path`` run on the base level, seed 0, replayed with
   the same validations armed), ``path`` navigation, ``learned`` navigation, and ``teleport``.
   A run succeeds when the game reports ``win`` and no validation failed.
2. The injected bug (variant ``bug``): how often each method's run fails, and fails on the switch's
   validation.
Text-to-plan accuracy (development and held-out sentences) is measured by ``bench/text2plan.py``.

Run: ``python bench/plans.py [--seeds 10] [--json out.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from provenance import provenance, write_results

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[1]
PLAN = ROOT / "src" / "playtester" / "games" / "dungeon.plan.yaml"
VARIANTS = ["base", "moved", "layout", "spawns"]


def plan_runs(seeds: int) -> dict:
    from playtester.drive.worker import Worker
    from playtester.plans.agent import PlanAgent, control_space, replay_actions
    from playtester.plans.runner import plan_spec
    from playtester.plans.schema import config_for, load_plan

    plan = load_plan(PLAN)
    cfg = config_for(plan_spec(plan), plan)
    space = control_space(cfg)
    workers: dict[str, Worker] = {}

    def worker(variant: str) -> Worker:
        if variant not in workers:
            workers[variant] = Worker(plan_spec(plan, game_args={"variant": variant}), space, capture=None)
        return workers[variant]

    # the input list: a passing path run on the base level, seed 0
    rec = PlanAgent(plan, cfg, worker("base"), navigation="path").run(0)
    assert rec.ok, rec.reason
    table: dict = {"replay": {}, "path": {}, "learned": {}, "teleport": {}}
    bug: dict = {}
    times: dict = {m: [] for m in table}
    steps: dict = {m: [] for m in table}
    try:
        for variant in [*VARIANTS, "bug"]:
            w = worker(variant)
            for method in table:
                wins = caught = 0
                for seed in range(seeds):
                    t0 = time.perf_counter()
                    if method == "replay":
                        results, failed_at, events = replay_actions(w, cfg, seed, rec.actions, rec.hook_calls,
                                                                    [p.to_list() for p in rec.performed])
                        ok = failed_at is None and "win" in events and all(r.ok for r in results)
                        switch_failed = any(r.ok is False and r.name == "the switch opens the door" for r in results)
                        n = len(rec.actions)
                    else:
                        r = PlanAgent(plan, cfg, w, navigation=method).run(seed)
                        ok = r.ok
                        switch_failed = any(v.name == "the switch opens the door" for v in r.failed_validations)
                        n = r.steps
                    times[method].append(time.perf_counter() - t0)
                    if variant != "bug":
                        steps[method].append(n)
                    wins += int(ok)
                    caught += int(not ok and switch_failed)
                if variant == "bug":
                    bug[method] = {"failed": seeds - wins, "caught_by_switch_validation": caught, "runs": seeds}
                else:
                    table[method][variant] = wins / seeds
                print(f"  {method:9s} {variant:7s} {wins}/{seeds} passed", flush=True)
    finally:
        for w in workers.values():
            w.close()
    return {"success": table, "bug": bug, "seeds": seeds, "input_list_steps": len(rec.actions),
            "seconds_per_run": {m: sum(v) / len(v) for m, v in times.items()},
            "steps_per_run": {m: sum(v) / len(v) for m, v in steps.items()}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--json", default=None, help="also write the results here (always: bench/results/plans.json)")
    parser.add_argument("--skip-text", action="store_true", help="(kept for old scripts; text-to-plan is bench/text2plan.py)")
    args = parser.parse_args()
    made = provenance()
    print("plan runs on the dungeon variants ...", flush=True)
    runs = plan_runs(args.seeds)
    out = {"plans": runs}
    print("\n| method | " + " | ".join(VARIANTS) + " | bug caught |")
    print("|---|" + "---|" * (len(VARIANTS) + 1))
    names = {"replay": "input-list replay", "path": "plan, `path`", "learned": "plan, `learned`",
             "teleport": "plan, `teleport`"}
    for m, row in runs["success"].items():
        b = runs["bug"][m]
        print(f"| {names[m]} | " + " | ".join(f"{row[v]:.0%}" for v in VARIANTS)
              + f" | {b['caught_by_switch_validation']}/{b['runs']} |")
    print(f"\n(seeds 0..{args.seeds - 1} per variant; input list: {runs['input_list_steps']} steps; mean seconds per "
          "run: " + ", ".join(f"{m} {s:.2f}" for m, s in runs["seconds_per_run"].items()) + "; mean steps: "
          + ", ".join(f"{m} {s:.0f}" for m, s in runs["steps_per_run"].items()) + ")")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    print(f"written to {write_results('plans', out, made)}")


if __name__ == "__main__":
    main()
