"""The random baseline on ViZDoom's Freedoom 2 MAP01 (issue 22): steps/s, coverage of the demonstrated route,
objects of interest seen; the ten demonstrations measured the same way for reference.

Each seed is one worker playing uniformly random actions (seeded) in episodes of the game config's
``max_episode_steps`` (1,000 steps of 4 tics: about two minutes of game time each) for ``--steps`` steps.
Route coverage: the share of the route's tiles (`bench/data/doom_demos/route.json`, written by
`bench/doom_demos.py`) that the player came within one tile of, over all its episodes; objects seen: distinct
barrels, pillars and items whose ground-truth box (the labels buffer) was at least 8 pixels tall on the
160x120 screen. Steps/s is the wall-clock rate of the whole loop (engine, worker, parent, both measures);
``cli_run_steps_per_s`` is ``playtester run GAME --steps 2000 --seed S`` (the campaign loop, one worker),
``engine_steps_per_s`` the engine and the episode's observation code alone, in one process (no round trip);
``blockmaze_cli_run_steps_per_s`` the same ``playtester run`` on the bundled Block Maze right after, as a
reference under the same machine load (``load_avg_1min``: the machine is shared).

Usage: python bench/doom_random.py [--seeds 0 1 2] [--steps 3000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from doom_demos import GAME, OUT, route_measures  # noqa: E402
from provenance import provenance, write_results  # noqa: E402

from playtester.drive import doom  # noqa: E402
from playtester.env import GameEnv  # noqa: E402
from playtester.findings import Trace  # noqa: E402


def random_run(seed: int, steps: int) -> dict[str, object]:
    route, seen = route_measures()
    env = GameEnv(GAME, capture=None)
    rng = random.Random(seed)
    n = len(env.space)
    episodes, done, t0 = 0, 0, time.perf_counter()
    try:
        while done < steps:
            env.reset(seed=seed * 1000 + episodes)
            episodes += 1
            for obs in (env.last_obs,):
                route.add(obs)
                seen.add(obs)
            while done < steps:
                _, _, term, trunc, _ = env.step(rng.randrange(n))
                done += 1
                route.add(env.last_obs)
                seen.add(env.last_obs)
                if term or trunc:
                    break
        wall = time.perf_counter() - t0
    finally:
        env.close()
    return {"seed": seed, "steps": done, "episodes": episodes, "seconds": round(wall, 2),
            "steps_per_s": round(done / wall, 1), "route_coverage": round(route.share, 4),
            "objects_seen": len(seen), "objects_seen_by_kind": seen.by_kind()}


def engine_speed(seed: int, steps: int) -> float:
    """Steps/s of the engine alone, in this process: the step (4 tics) and the observation the episode process
    builds (labels, position), without the worker's round trip to the parent."""
    runner = doom.DoomRunner.offline(doom.scenario(GAME.split(":", 1)[1]), seed)
    rng = random.Random(seed)
    n = len(runner.buttons)
    try:
        t0 = time.perf_counter()
        for _ in range(steps):
            runner.step(rng.randrange(n))
            if runner.done:
                runner.game.new_episode()
        return round(steps / (time.perf_counter() - t0), 1)
    finally:
        runner.game.close()


def cli_speed(seed: int, steps: int, game: str = GAME) -> float:
    """Steps/s of ``playtester run GAME --steps N`` (the random agent through the campaign loop, one worker)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        subprocess.run([sys.executable, "-m", "playtester.cli", "run", game, "--steps", str(steps), "--seed",
                        str(seed), "--json", str(out)], check=True, capture_output=True, cwd=tmp)
        return round(float(json.loads(out.read_text())["steps_per_s"]), 1)


def demos_measured() -> dict[str, object]:
    """The demonstrations replayed and measured like the random runs (each alone, and all together)."""
    total_route, total_seen = route_measures()
    per = []
    env = GameEnv(GAME, capture=None)
    try:
        for f in sorted(OUT.glob("demo_*.json")):
            trace = Trace.from_json(f.read_text())
            route, seen = route_measures()
            env.reset(seed=trace.seed)
            for m in (route, seen, total_route, total_seen):
                m.add(env.last_obs)
            for a in trace.actions:
                env.step(a)
                for m in (route, seen, total_route, total_seen):
                    m.add(env.last_obs)
            per.append({"demo": f.name, "steps": len(trace.actions), "route_coverage": round(route.share, 4),
                        "objects_seen": len(seen)})
    finally:
        env.close()
    return {"demos": per, "all_route_coverage": round(total_route.share, 4), "all_objects_seen": len(total_seen),
            "steps": sum(int(p["steps"]) for p in per)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--name", default="doom_random")
    args = ap.parse_args()
    made = provenance()
    spec_scn = doom.scenario(GAME.split(":", 1)[1])
    total = len(doom.geometry(spec_scn).ooi())
    runs = []
    for seed in args.seeds:
        r = random_run(seed, args.steps)
        r["cli_run_steps_per_s"] = cli_speed(seed, 2000)
        r["engine_steps_per_s"] = engine_speed(seed, 3000)
        r["blockmaze_cli_run_steps_per_s"] = cli_speed(seed, 2000, "blockmaze")  # the same machine load
        r["load_avg_1min"] = round(os.getloadavg()[0], 2)
        print(r, flush=True)
        runs.append(r)
    demos = demos_measured()
    print(demos, flush=True)
    mean = {k: round(sum(float(r[k]) for r in runs) / len(runs), 4)  # type: ignore[arg-type]
            for k in ("steps_per_s", "cli_run_steps_per_s", "engine_steps_per_s", "blockmaze_cli_run_steps_per_s",
                      "route_coverage", "objects_seen")}
    record = {"game": GAME, "agent": "random", "seeds": args.seeds, "steps_per_seed": args.steps,
              "objects_of_interest_on_map": total, "runs": runs, "mean": mean, "demonstrations": demos}
    print(f"written to {write_results(args.name, record, made)}")


if __name__ == "__main__":
    main()
