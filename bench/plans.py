"""Benchmark of explicit plans on the dungeon (README figures).

1. Plan success rate on the dungeon's variants (base, moved, layout, spawns; several episode seeds each)
   for: input-list replay (the inputs of a passing ``path`` run on the base level, seed 0, replayed with
   the same validations armed), ``path`` navigation, ``learned`` navigation, and ``teleport``.
   A run succeeds when the game reports ``win`` and no validation failed.
2. The injected bug (variant ``bug``): how often each method's run fails, and fails on the switch's
   validation.
3. Text-to-plan accuracy on the hand-written sentences of ``bench/data/text2plan_dungeon.yaml`` (node /
   rule, action, actor, and all three), with the embedding model and with rapidfuzz alone.

Run: ``python bench/plans.py [--seeds 10] [--json out.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import yaml
from provenance import provenance, write_results

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[1]
PLAN = ROOT / "src" / "playtester" / "games" / "dungeon.plan.yaml"
EVAL = ROOT / "bench" / "data" / "text2plan_dungeon.yaml"
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


def text_accuracy(embeddings: bool) -> dict:
    from playtester.drive.spec import resolve
    from playtester.plans.text import TextToPlan

    t0 = time.perf_counter()
    t2p = TextToPlan.for_game(resolve("dungeon"), use_embeddings=embeddings)
    load = time.perf_counter() - t0
    data = yaml.safe_load(EVAL.read_text())["sentences"]
    kind = action = actor = allok = 0
    misses = []
    t0 = time.perf_counter()
    for sentence, k, a, c in data:
        s = t2p.parse(sentence)
        got = ("reject", None, None) if s.kind == "rejected" else (s.kind, s.action.name, s.actor.name if s.actor else None)
        kind += got[0] == k
        action += got[1] == a
        actor += got[2] == c
        allok += got == (k, a, c)
        if got != (k, a, c):
            misses.append(f"{sentence} -> {got}")
    per = (time.perf_counter() - t0) / len(data)
    n = len(data)
    return {"matcher": t2p.matcher_name, "sentences": n, "kind": kind / n, "action": action / n, "actor": actor / n,
            "all": allok / n, "all_correct": allok, "ms_per_sentence": per * 1000, "load_s": load, "misses": misses,
            "rejects": sum(1 for s in data if s[1] == "reject"), "rules": sum(1 for s in data if s[1] == "rule")}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--json", default=None, help="also write the results here (always: bench/results/plans.json)")
    parser.add_argument("--skip-text", action="store_true")
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
    if not args.skip_text:
        print("\ntext-to-plan accuracy ...", flush=True)
        rows = [text_accuracy(True), text_accuracy(False)]
        out["text"] = rows
        print("\n| matcher | sentences | node/rule | action | actor | all three | ms/sentence |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['matcher']} | {r['sentences']} ({r['rules']} rules, {r['rejects']} to reject) | "
                  f"{r['kind']:.0%} | {r['action']:.0%} | {r['actor']:.0%} | {r['all']:.0%} | {r['ms_per_sentence']:.1f} |")
        for r in rows:
            for m in r["misses"]:
                print(f"  miss ({'embeddings' if 'MiniLM' in r['matcher'] else 'rapidfuzz'}): {m}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    print(f"written to {write_results('plans', out, made)}")


if __name__ == "__main__":
    main()
