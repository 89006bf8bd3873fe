"""Action-space analysis benchmark: the action-space paper's Tables 1-3 for our games.

1. Per game: analysis time (the symbolic part, and the recording run before it), number of actions,
   average number of valid actions per step, validity-check time per step and solve/perform time per
   step (measured in the worker while the random agent plays).
2. Per game: state coverage (scene abstraction) and code coverage reached by the random agent with the
   same step budget and seeds using ``analyzed``, ``blind`` and a hand-written ``manual`` space;
   state coverage is normalized per game to [0, 1] by the best of the three (as the paper does).

Prints figures and writes bench/results/action_spaces.json; asserts nothing.
Usage: python bench/action_spaces.py [--steps 1000] [--seeds 2] [--games blockmaze,chimp]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from provenance import provenance

from playtester.actions import make_space
from playtester.agents import make_agent
from playtester.analysis import analyze
from playtester.campaign import Budget, explore
from playtester.drive.spec import resolve
from playtester.env import GameEnv

GAMES = ["blockmaze", "platformer", "tilematch", "arena", "combat", "dungeon", "pygame.examples.aliens:main",
         "pygame.examples.chimp:main"]
MANUAL = {"pygame.examples.aliens:main": "bench/manual/aliens.actions.yaml",
          "pygame.examples.chimp:main": "bench/manual/chimp.actions.yaml"}


def manual_space(spec):
    if spec.text in MANUAL:
        return make_space(f"manual:{MANUAL[spec.text]}", spec.config.blacklist)
    base = Path(spec.config_path).parent
    return make_space(f"manual:{base / spec.config.actions}", spec.config.blacklist)


def timings(spec, space, steps: int, seed: int) -> dict:
    """Play ``steps`` random steps with the analyzed space; the worker's validity / perform timings."""
    env = GameEnv(spec, actions=space, obs_size=(16, 16))
    agent = make_agent("random", len(space), seed=seed)
    obs, info = env.reset(seed=seed)
    done_steps = 0
    stats: dict = {}
    snap: dict = {}  # the episode's figures so far (an episode that ends by the game exiting takes its own)
    while done_steps < steps:
        obs, r, term, trunc, info = env.step(agent.act(obs, info))
        done_steps += 1
        if term or trunc:
            last = _stats(env)
            stats = _merge(stats, last or snap)
            snap = {}
            obs, info = env.reset(seed=seed + done_steps)
        elif done_steps % 20 == 0:
            snap = _stats(env) or snap
    stats = _merge(stats, _stats(env) or snap)
    env.close()
    return stats


def _stats(env) -> dict:
    try:
        return env.worker.call("playtester.analysis.space:stats")
    except Exception:  # noqa: BLE001 - the episode ended: its figures went with it
        return {}


def _merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        if isinstance(v, (int, float)) and k != "n_actions":
            out[k] = out.get(k, 0) + v
        else:
            out[k] = v
    return out


def coverage(spec, space, steps: int, seed: int) -> tuple[int, int]:
    spec = spec.with_config(abstraction="auto")
    with tempfile.TemporaryDirectory() as out:
        r = explore(spec, out=out, agent="random", budget=Budget(steps=steps), workers=1, seed=seed,
                    actions=space, code_coverage=True, replay_known=False, finalize=False)
        states, lines = r.states, r.code_covered
        r.store.close()
    return states, lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--out", default="bench/results/action_spaces.json")
    args = ap.parse_args()
    made = provenance()
    rows = []
    for game in args.games.split(","):
        spec = resolve(game)
        t0 = time.perf_counter()
        a = analyze(spec)
        total = time.perf_counter() - t0
        analyzed = a.space()
        t = timings(spec, analyzed, min(args.steps, 600), seed=0)
        mask_n, perf_n = max(1, t.get("mask_n", 0)), max(1, t.get("perform_n", 0))
        row = {"game": game, "analysis_s": a.seconds, "record_run_s": a.run_seconds, "total_s": total,
               "actions": len(analyzed), "paths": a.result["stats"]["paths"],
               "truncated": a.result["stats"]["truncated"],
               "avg_valid": t.get("valid_sum", 0) / mask_n, "validity_ms": 1000 * t.get("mask_s", 0) / mask_n,
               "perform_ms": 1000 * t.get("perform_s", 0) / perf_n, "perform_unsat": t.get("perform_unsat", 0),
               "empty_masks": t.get("empty_masks", 0), "z3_solves": t.get("solves", 0),
               "reuses": t.get("reuses", 0), "cache_hits": t.get("cache_hits", 0)}
        spaces = {"analyzed": analyzed, "blind": make_space("blind", spec.config.blacklist),
                  "manual": manual_space(spec)}
        for name, space in spaces.items():
            st, cl = [], []
            for seed in range(args.seeds):
                s, c = coverage(spec, space, args.steps, seed)
                st.append(s)
                cl.append(c)
            row[f"{name}_states"] = statistics.mean(st)
            row[f"{name}_lines"] = statistics.mean(cl)
            row[f"{name}_states_sd"] = statistics.stdev(st) if len(st) > 1 else 0.0
            row[f"{name}_states_runs"], row[f"{name}_lines_runs"] = st, cl  # each seed's figure
            row[f"{name}_n"] = len(space)
        best = max(row[f"{n}_states"] for n in spaces) or 1
        for n in spaces:
            row[f"{n}_states_norm"] = row[f"{n}_states"] / best
        rows.append(row)
        print(f"{game}: analysis {row['analysis_s']:.2f} s (+{row['record_run_s']:.2f} s recording), "
              f"{row['actions']} actions, {row['avg_valid']:.1f} valid/step, validity {row['validity_ms']:.3f} ms, "
              f"perform {row['perform_ms']:.3f} ms ({row['z3_solves']} z3 solves, {row['reuses']} reuses, "
              f"{row['cache_hits']} cache hits) | states a/b/m {row['analyzed_states']:.0f}/"
              f"{row['blind_states']:.0f}/{row['manual_states']:.0f} | lines a/b/m {row['analyzed_lines']:.0f}/"
              f"{row['blind_lines']:.0f}/{row['manual_lines']:.0f}", flush=True)
    avg = {k: statistics.mean(r[k] for r in rows) for k in rows[0] if isinstance(rows[0][k], (int, float))
           and not isinstance(rows[0][k], bool)}
    print("average: " + ", ".join(f"{k}={v:.3f}" for k, v in avg.items()))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({**made, "steps": args.steps, "seeds": args.seeds, "rows": rows,
                                          "average": avg}, indent=1))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
