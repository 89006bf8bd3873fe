"""PPGTA, Inspector and random on ViZDoom's Freedoom 2 MAP01 (issue 22), side by side, through ``explore``.

Each (agent, seed) is one ``playtester explore`` campaign on ``doom:freedoom2:MAP01`` (one worker, code coverage
off, the game's own oracles): ``--episodes`` episodes of ``--steps`` steps, every episode from the map's player
start (ViZDoom has no random starts; the demonstrations start there too, so unlike paper 001, which leaves the
demonstrations' region out of its measures, the route measured here begins where the demonstrations begin).
``ppgta`` first learns from the route demonstrations (``bench/data/doom_demos/demo_*.json``, the preference;
there are no inspection demonstrations for Doom and the game has no object detector, so it runs with
``tests=false``: explore only, no inspection policy, no object tests). ``inspector`` takes no preference and,
with ``tests=false``, no inspections: it gets no demonstration, its encoder learns the inverse dynamics of its own
warm-up frames and PPO explores from random weights on the novelty of one RND predictor alone (since 2026-11-29;
before, it failed when it trained, and the results files before ``doom_agents_inspector`` leave it out).
``random`` gets none.
The demonstrations are played once through the campaign's driver before the first step and are not counted.

Measured per campaign by an observer on the campaign's own steps (the game's ground truth, for scoring only,
as `bench/doom_random.py` measures the random baseline):

- **route coverage**: the share of the preferred route's tiles (``bench/data/doom_demos/route.json``) the
  player came within one tile of, over all the campaign's episodes (`bench.doom_demos.route_measures`);
- **objects seen**: distinct barrels, pillars and items whose ground-truth box was at least 8 pixels tall;
- **steps per CPU second**: campaign steps over the CPU seconds of the campaign's process and its game worker
  (demonstrations, training and the measuring observer included), and ``fps`` over wall time.

Campaigns run in ``--jobs`` spawned processes. Results: bench/results/NAME.json.

    .venv/bin/python bench/doom_agents.py [--episodes 3] [--steps 1000] [--seeds 0,1,2] [--jobs 2]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from campaign_pool import cpu_seconds, mean_sd, run_pool  # noqa: E402
from doom_demos import GAME, OUT, route_measures  # noqa: E402
from provenance import ROOT, provenance, write_results  # noqa: E402


def campaign(job: dict[str, Any]) -> dict[str, Any]:
    """One campaign (in its own process): route coverage, objects seen, the agent's stats, timings."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from doom_demos import route_measures as measures

    from playtester.campaign import Budget, explore
    from playtester.campaign.loop import Observer
    from playtester.drive.spec import resolve

    route, seen = measures()
    counted = {"steps": 0, "first_obs": 0}

    class RouteWatch(Observer):  # type: ignore[misc]
        def on_step(self, step: Any) -> None:
            if step.game_obs is None:
                return
            counted["steps" if step.index else "first_obs"] += 1
            route.add(step.game_obs)
            seen.add(step.game_obs)

    spec = resolve(GAME).with_config(max_episode_steps=job["steps"])
    out = Path(job["out"])
    with cpu_seconds() as used:
        wall0 = time.perf_counter()
        r = explore(spec, out=out, agent=job["agent"], budget=Budget(steps=job["steps"] * job["episodes"]),
                    workers=1, seed=job["seed"], code_coverage=False, replay_known=False, demos=job["demos"],
                    observers=[RouteWatch()], finalize=False)
        wall = time.perf_counter() - wall0
    r.store.close()
    cpu = used["s"]
    return {"agent": job["agent"], "label": job["label"], "seed": job["seed"], "steps": r.steps,
            "episodes": r.episodes, "steps_measured": counted["steps"], "episode_starts_measured": counted["first_obs"],
            "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "bugs": len(r.new_bugs),
            "route_coverage": round(route.share, 4), "objects_seen": len(seen), "objects_seen_by_kind": seen.by_kind(),
            "steps_per_cpu_s": round(r.steps / cpu, 1) if cpu else None,
            "fps": round(r.steps / wall, 1) if wall else None, "agent_stats": r.agent_stats}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=3)
    ap.add_argument("--steps", type=int, default=1000, help="steps per episode")
    ap.add_argument("--seeds", default="0,1,2", help="campaign seeds (episode seeds follow each)")
    ap.add_argument("--agents", default="ppgta:warmup_steps=300+tests=false,inspector:warmup_steps=300+tests=false,random",
                    help="agent specs, comma-separated "
                    "(options with + instead of ,: ppgta:warmup_steps=300+il_updates=200)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--name", default="doom_agents")
    args = ap.parse_args()
    made = provenance()
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    agents = [a.replace("+", ",") for a in args.agents.split(",") if a.strip()]
    tmp = Path(tempfile.mkdtemp(prefix="doom-agents-"))
    demos = [str(p) for p in sorted(OUT.glob("demo_*.json"))]
    jobs = [{"agent": a, "label": a.partition(":")[0], "seed": s, "episodes": args.episodes, "steps": args.steps,
             "out": str(tmp / f"{a.partition(':')[0]}-{s}"),
             "demos": demos if a.startswith("ppgta") else []}
            for s in seeds for a in agents]
    start = time.perf_counter()
    runs = run_pool(campaign, jobs, args.jobs, lambda run: (
        f"{run['label']} seed {run['seed']}: {run['steps']} steps in {run['wall_s']} s ({run['cpu_s']} CPU s), "
        f"route {100 * run['route_coverage']:.1f}%, objects {run['objects_seen']}"))
    seconds = time.perf_counter() - start
    per_agent: dict[str, Any] = {}
    for label in dict.fromkeys(r["label"] for r in runs):
        mine = [r for r in runs if r["label"] == label]
        per_agent[label] = {
            **{k: mean_sd([float(r[k]) for r in mine]) for k in ("route_coverage", "objects_seen",
                                                                    "steps_per_cpu_s", "fps")},
            "cpu_s": round(sum(r["cpu_s"] for r in mine), 1), "wall_s": round(sum(r["wall_s"] for r in mine), 1),
            "runs": mine,
        }
    route, _ = route_measures()
    record = {"game": GAME, "episodes": args.episodes, "steps_per_episode": args.steps, "seeds": seeds,
              "agents": agents, "preference_demos": [str(Path(d).relative_to(ROOT)) for d in demos],
              "inspect_demos": 0, "route_tiles": len(route.route), "starts": "the map's player start, every episode",
              "scale": f"{args.episodes} episodes x {args.steps} steps x {len(seeds)} seeds per agent",
              "seconds": round(seconds, 1), "cpu_s_total": round(sum(r["cpu_s"] for r in runs), 1),
              "per_agent": per_agent}
    for label, a in per_agent.items():
        print(f"{label:10s} route coverage {100 * a['route_coverage']['mean']:.1f}%, objects seen "
              f"{a['objects_seen']['mean']:.1f}, {a['steps_per_cpu_s']['mean']:.1f} steps/CPU s")
    print(f"written to {write_results(args.name, record, made)}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
