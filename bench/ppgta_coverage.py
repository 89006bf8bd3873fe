"""Pathway coverage alone: what a number of steps allows on the park, for scripted walkers with the ground truth.

`bench/ppgta.py` reports the share of the park's path and bridge tiles an agent stood on. Read alone, 17% after
6 episodes of 1,000 steps says nothing about how far from possible it is: the player walks 0.24 tiles a step and
turns 12 degrees a step, the park has 772 path tiles, and an episode starts on a random one. This bench plays two
ground-truth walkers (`park_demos.Demonstrator`: they read the probe's pose and the collision map; no agent does)
from the **same episode starts as a campaign** of that seed (episode seeds ``seed``, ``seed + 1``, ..., as
``explore`` draws them), scored the way `bench/ppgta.py` scores a campaign (`ppgta.tiles_of`, the points joined by
straight lines) from every step's position; ``path_coverage_as_recorded`` is the same from the trace a campaign's
bird's-eye record would keep (`BirdsEyeWatch.thin_trace`: a point each time the player moved ``min_move``, at most
``max_points`` an episode, thinner when full), which is what `bench/ppgta.py` scores an agent on:

- **path**: the path-following preference of the park's demonstrations, without their region: along the paths,
  straight on at a junction with p 0.8, else a random way, turning back at a dead end (`ppgta.follow_tiles`). It
  is the behaviour PPGTA's path-following policy imitates, played perfectly and everywhere.
- **frontier**: the nearest path tile not yet stood on in the campaign (breadth-first over the walkable map,
  remembered across episodes), walked to by its route (`Demonstrator.walk_to`). It knows the map and its own
  history, which no pixel agent does: a reference, not a method, and not a bound either (it walks from tile centre
  to tile centre, turning at each, so it is slow on bends; from some starts the path walker covers more).

Per walker and seed it records the coverage after each episode and at every ``--every`` steps of the run (so the
coverage of the first N steps reads off the curve: a PPGTA campaign explores in only part of its steps, the rest are
its tests).

    .venv/bin/python bench/ppgta_coverage.py [--episodes 6] [--steps 1000] [--seeds 0,1,2] [--jobs 2]
        [--name ppgta_coverage]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from campaign_pool import cpu_seconds, mean_sd, run_pool  # noqa: E402
from park_demos import in_demo_region  # noqa: E402
from ppgta import PATH_CHARS, follow_tiles, tiles_of  # noqa: E402
from provenance import provenance, write_results  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

WALKERS = ("path", "frontier")


def nearest_unvisited(walkable: list[list[bool]], start: tuple[int, int], goals: set[tuple[int, int]]
                      ) -> tuple[int, int] | None:
    """The first tile of ``goals`` a breadth-first search over walkable tiles (4-connected) from ``start`` meets."""
    size = len(walkable)
    seen, queue = {start}, deque([start])
    while queue:
        cur = queue.popleft()
        if cur in goals:
            return cur
        x, y = cur
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nxt[0] < size and 0 <= nxt[1] < size and nxt not in seen and walkable[nxt[1]][nxt[0]]:
                seen.add(nxt)
                queue.append(nxt)
    return None


def walk(job: dict[str, Any]) -> dict[str, Any]:
    """One walker's campaign (in its own process): ``episodes`` episodes of ``steps`` steps from the starts of
    campaign seed ``seed``; its coverage curve."""
    from park_demos import Demonstrator

    from playtester.campaign.observers import BirdsEyeWatch
    from playtester.drive.spec import resolve
    from playtester.env import GameEnv

    walker, seed, steps, episodes, every = job["walker"], job["seed"], job["steps"], job["episodes"], job["every"]
    spec = resolve("park").with_config(max_episode_steps=steps)
    with cpu_seconds() as used:
        env = GameEnv(spec, capture=None)
        try:
            env.reset(seed=seed)
            rows = env.worker.call("playtester.vision.dataset:call_hook", "layout")[1]["rows"]
            paths = {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch in PATH_CHARS}
            east = {t for t in paths if not in_demo_region(t[0] + 0.5, t[1] + 0.5)}
            visited: set[tuple[int, int]] = set()
            recorded: set[tuple[int, int]] = set()  # from the trace as a campaign's bird's-eye record keeps it
            watch = BirdsEyeWatch(Path(os.devnull))  # its thinning rule only (`thin_trace`); it writes nothing here
            per_episode, per_episode_recorded, curve, starts, total = [], [], [], [], 0
            for ep in range(episodes):
                demo = Demonstrator(env, seed + ep)
                trace = [list(demo.pose()[:2])]
                starts.append([round(v, 2) for v in demo.pose()])
                act = demo.act

                def traced(name: str, _act: Any = act, _trace: list[list[float]] = trace, _demo: Any = demo) -> bool:
                    ok = _act(name)
                    _trace.append(list(_demo.pose()[:2]))
                    return ok

                demo.act = traced  # type: ignore[method-assign]
                if walker == "path":
                    follow_tiles(demo, paths, random.Random(seed * 1000 + ep), steps)
                else:
                    mine, done, given_up = set(visited), 0, set()
                    while len(demo.actions) < steps:
                        mine |= tiles_of(trace[max(0, done - 1):])
                        done = len(trace)
                        here = (int(demo.pose()[0]), int(demo.pose()[1]))
                        goal = nearest_unvisited(demo.walkable, here, paths - mine - given_up)
                        if goal is None:
                            break
                        if not demo.walk_to(goal[0] + 0.5, goal[1] + 0.5, steps):
                            given_up.add(goal)  # blocked on the way (an invisible wall): another goal next
                # the coverage at every `every` steps of the run, then at the episode's end
                for k in range(every - total % every if total % every else every, len(trace), every):
                    curve.append([total + k, round(len(paths & (visited | tiles_of(trace[:k + 1]))) / len(paths),
                                                   4)])
                total += len(demo.actions)
                visited |= tiles_of(trace)
                per_episode.append(round(len(visited & paths) / len(paths), 4))
                kept: dict[str, Any] = {"trace": [], "gap": watch.min_move}
                for x, y in trace:
                    watch.thin_trace(kept, (round(x, 2), round(y, 2)))
                recorded |= tiles_of(kept["trace"])
                per_episode_recorded.append(round(len(recorded & paths) / len(paths), 4))
        finally:
            env.close()
    return {"walker": walker, "seed": seed, "steps": total, "episodes": episodes, "starts": starts,
            "path_tiles": len(paths),
            "path_coverage": per_episode[-1], "path_coverage_eval_region": round(len(visited & east) / len(east), 4),
            "coverage_after_episode": per_episode, "coverage_curve": curve, "cpu_s": round(used["s"], 1),
            "path_coverage_as_recorded": per_episode_recorded[-1],
            "coverage_after_episode_as_recorded": per_episode_recorded}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=6)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--seeds", default="0,1,2", help="campaign seeds (episode seeds follow each)")
    ap.add_argument("--walkers", default=",".join(WALKERS))
    ap.add_argument("--every", type=int, default=500, help="steps between points of the coverage curve")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--name", default="ppgta_coverage")
    args = ap.parse_args()
    made = provenance()
    t0 = time.perf_counter()
    seeds = [int(s) for s in args.seeds.split(",")]
    walkers = [w for w in args.walkers.split(",") if w]
    unknown = sorted(set(walkers) - set(WALKERS))
    if unknown:
        ap.error(f"unknown walker(s) {unknown}: choose from {', '.join(WALKERS)}")
    jobs = [{"walker": w, "seed": s, "steps": args.steps, "episodes": args.episodes, "every": args.every}
            for w in walkers for s in seeds]
    runs = run_pool(walk, jobs, args.jobs, lambda r: (
        f"{r['walker']} seed {r['seed']}: pathway coverage {100 * r['path_coverage']:.1f}% "
        f"(east {100 * r['path_coverage_eval_region']:.1f}%), {r['cpu_s']} CPU s"))
    per_walker: dict[str, Any] = {}
    for w in walkers:
        mine = sorted((r for r in runs if r["walker"] == w), key=lambda r: r["seed"])
        per_walker[w] = {k: mean_sd([r[k] for r in mine])
                         for k in ("path_coverage", "path_coverage_eval_region", "path_coverage_as_recorded")}
        per_walker[w]["coverage_after_episode_mean"] = [
            round(sum(c) / len(c), 4) for c in zip(*(r["coverage_after_episode"] for r in mine), strict=True)]
        per_walker[w]["runs"] = mine
    record = {"game": "park", "episodes": args.episodes, "steps_per_episode": args.steps, "seeds": seeds,
              "every": args.every, "path_tiles": runs[0]["path_tiles"], "seconds": round(time.perf_counter() - t0, 1),
              "per_walker": per_walker}
    for w, a in per_walker.items():
        print(f"{w:9s} pathway coverage {100 * a['path_coverage']['mean']:.1f}% +- "
              f"{100 * a['path_coverage']['sd']:.1f} (east {100 * a['path_coverage_eval_region']['mean']:.1f}%), "
              f"after each episode {a['coverage_after_episode_mean']}")
    print(f"written to {write_results(args.name, record, made)}")


if __name__ == "__main__":
    main()
