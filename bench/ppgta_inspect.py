"""Object tests alone: how often an agent's tests see all 8 faces of the object in front of it, on the park.

`bench/ppgta.py` measures tests inside whole campaigns, where an object is tested only if exploration first
brings the agent to it; a miss there can be the explorer's or the test's. This bench takes exploration out:
each agent learns as in a campaign (the same demonstrations, its own ``warmup_steps`` random steps, then its
networks fitted), then plays from held-out starts that have an object within the orbit demonstrator's reach
(`ppgta.orbit`: episode seeds from ``--first-seed + 1``, none of the demonstrations' 50002-50212), ``--limit``
steps each, with its own act/observe as in a campaign (its tests start and stop by its own rules). A start
counts as **tested** when one object got all 8 faces seen in that episode (the probe, read for scoring only).
The orbit demonstrator from the same start is the ceiling: ``orbit`` tests its nearest object by ground truth.

    .venv/bin/python bench/ppgta_inspect.py [--agents ppgta:warmup_steps=300,inspector:warmup_steps=300]
        [--starts 30] [--first-seed 90000] [--inspect-demos 20] [--path-demos 8] [--name ppgta_inspect]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from campaign_pool import cpu_seconds, run_pool  # noqa: E402
from ppgta import DEMOS, ORBIT_DEMOS, ORBIT_LIMIT, nearest_ooi, orbit, pick_demos, repo_path  # noqa: E402
from provenance import provenance, write_results  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def starts(n: int, first_seed: int) -> list[tuple[int, str, int | None]]:
    """``n`` episode seeds from ``first_seed + 1`` with a reachable object within ``ORBIT_REACH`` tiles of the
    start: (seed, the nearest one's id, the orbit demonstrator's steps to test it or None)."""
    from park_demos import Demonstrator

    from playtester.drive.spec import resolve
    from playtester.env import GameEnv

    env = GameEnv(resolve("park"), capture=None)
    out, seed = [], first_seed
    try:
        while len(out) < n:
            seed += 1
            demo = Demonstrator(env, seed)
            target = nearest_ooi(demo)
            if target is None:
                continue
            got = orbit(demo)
            out.append((seed, target, len(demo.actions) if got else None))
    finally:
        env.close()
    return out


def evaluate(job: dict[str, Any]) -> dict[str, Any]:
    """One agent (in its own process): learn as in a campaign, then play each start for ``limit`` steps."""
    import numpy as np

    import playtester.vision  # noqa: F401 - registers the texture judge's loader, as the CLI does
    from playtester.actions.space import space_to_dict
    from playtester.agents import make_agent
    from playtester.agents.common import Transition
    from playtester.campaign.demos import load_demos, play_demos
    from playtester.campaign.run import campaign_info
    from playtester.drive.spec import resolve
    from playtester.games.park import TESTED_FACES

    spec = resolve("park").with_config(max_episode_steps=10**6)
    with cpu_seconds() as used:
        from playtester.env import GameEnv

        env = GameEnv(spec)
        agent = make_agent(job["agent"], len(env.space), seed=job["seed"] * 1000)
        env.reset(seed=job["warmup_seed"])
        agent.setup(campaign_info(spec, env, 1, "features", False))
        agent.demonstrate(play_demos(env, load_demos(job["demos"], spec, space_to_dict(env.space))))

        def play(seed: int, steps: int, until: Any = None) -> int:
            obs, info = env.reset(seed=seed)
            agent.episode_start(0)
            for t in range(steps):
                a = agent.act(obs, info, 0)
                nobs, r, term, trunc, ninfo = env.step(a)
                agent.observe(0, Transition(obs, a, r, nobs, term, trunc, ninfo, None, False, env.last_obs))
                obs, info = nobs, ninfo
                if until is not None and until():
                    agent.episode_end(0, "stopped")
                    return t + 1
            agent.episode_end(0, "stopped")
            return steps

        seed = job["warmup_seed"]
        while not agent.fitted:  # the warm-up: random steps, then the networks are fitted on the next act
            play(seed, 500)
            seed += 1
        rows = []
        for seed, target, demo_steps in job["starts"]:
            tests0, test0 = agent.counts["tests"], agent.counts["test"]

            def tested() -> bool:
                ents = env.last_obs.entities
                return any(len(e.attrs.get("seen_faces") or ()) >= TESTED_FACES for k, e in ents.items()
                           if k.startswith("ooi-"))

            steps = play(seed, job["limit"], tested)
            seen = {k: len(e.attrs.get("seen_faces") or ()) for k, e in env.last_obs.entities.items()
                    if k.startswith("ooi-")}
            rows.append({"seed": seed, "target": target, "demonstrator_steps": demo_steps,
                         "tested": tested(), "steps": steps, "target_faces": seen.get(target, 0),
                         "tests_started": agent.counts["tests"] - tests0, "test_steps": agent.counts["test"] - test0})
        stats = agent.stats()
        env.close()
    ok = [r for r in rows if r["tested"]]
    return {"agent": job["agent"], "label": job["label"], "rows": rows, "cpu_s": round(used["s"], 1),
            "tested": len(ok), "starts": len(rows),
            "median_steps_when_tested": statistics.median([r["steps"] for r in ok]) if ok else None,
            "mean_target_faces": round(float(np.mean([r["target_faces"] for r in rows])), 2),
            "agent_stats": {k: v for k, v in stats.items() if "accuracy" in k or k in ("tests", "test", "fit_s")}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", default="ppgta:warmup_steps=300,inspector:warmup_steps=300",
                    help="agent specs, comma-separated (options with + instead of ,)")
    ap.add_argument("--starts", type=int, default=30)
    ap.add_argument("--first-seed", type=int, default=90000)
    ap.add_argument("--limit", type=int, default=ORBIT_LIMIT, help="steps from each start")
    ap.add_argument("--seed", type=int, default=0, help="the agents' seed")
    ap.add_argument("--path-demos", type=int, default=8)
    ap.add_argument("--inspect-demos", type=int, default=20)
    ap.add_argument("--preference", default=str(DEMOS / "path"))
    ap.add_argument("--inspect", default=str(ORBIT_DEMOS / "inspect"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--name", default="ppgta_inspect")
    args = ap.parse_args()
    made = provenance()
    t0 = time.perf_counter()
    picked = starts(args.starts, args.first_seed)
    ceiling = sum(s[2] is not None for s in picked)
    print(f"{len(picked)} starts; the orbit demonstrator tested {ceiling} of them", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="ppgta-inspect-"))
    demos = [str(pick_demos(Path(args.preference), args.path_demos, tmp / "preference")),
             str(pick_demos(Path(args.inspect), args.inspect_demos, tmp / "inspect"))]
    agents = [a.replace("+", ",") for a in args.agents.split(",") if a.strip()]
    jobs = [{"agent": a, "label": a, "seed": args.seed, "warmup_seed": 80001,
             "limit": args.limit, "starts": picked,
             "demos": demos[1:] if a.startswith("inspector") else demos} for a in agents]
    runs = run_pool(evaluate, jobs, args.jobs, lambda r: (
        f"{r['label']}: tested {r['tested']} of {r['starts']} starts ({r['cpu_s']} CPU s)"))
    shutil.rmtree(tmp, ignore_errors=True)
    record = {"game": "park", "starts": len(picked), "first_seed": args.first_seed, "limit": args.limit,
              "agent_seed": args.seed, "path_demos": args.path_demos, "inspect_demos": args.inspect_demos,
              "preference_demos": repo_path(args.preference), "inspect_demos_folder": repo_path(args.inspect),
              "orbit_demonstrator_tested": ceiling,
              "orbit_demonstrator_median_steps": statistics.median([s[2] for s in picked if s[2] is not None])
              if ceiling else None,
              "seconds": round(time.perf_counter() - t0, 1), "per_agent": {r["label"]: r for r in runs}}
    for r in runs:
        print(f"{r['label']:10s} tested {r['tested']}/{r['starts']} (demonstrator {ceiling}), median steps "
              f"{r['median_steps_when_tested']}, faces of the nearest object {r['mean_target_faces']}/8, "
              f"{r['cpu_s'] / 60:.1f} CPU min, {r['agent_stats']}")
    print(f"written to {write_results(args.name, record, made)}")


if __name__ == "__main__":
    main()
