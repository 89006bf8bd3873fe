"""Where PPGTA's tests go: each object test of a park campaign, with what the game's ground truth says it was on.

`bench/ppgta.py` counts the objects a campaign tested; this bench looks at the tests themselves. It runs the same
campaigns (`ppgta.campaign`: one worker, every oracle of the park on, the same demonstrations) and, in the campaign's
process, reads the probe at each step the agent observes (``Transition.game_obs``, for scoring only: the agent never
sees it). When a test starts it notes the object of interest the test is most likely on: the nearest one inside the
player's field of view (the park's ``PLANE``: about 67 degrees), its distance in tiles and how many of its 8 faces had
been seen in the episode; when the test ends, how many have been seen then, the test's steps and how it ended (the
object lost, the step limit, the episode's end). Tests are then grouped by the distance they started at: a test
that starts with no object of interest within ``FAR`` tiles in view started on something that is not one (the
detector's false positive) or on one too far to inspect.

Usage: python bench/ppgta_tests.py --seeds 0 --episodes 6 [--agent ppgta:warmup_steps=300] [--name ppgta_tests]
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from campaign_pool import run_pool  # noqa: E402
from ppgta import DEMOS, ORBIT_DEMOS, pick_demos, repo_path  # noqa: E402
from provenance import provenance, write_results  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

NEAR, FAR = 4.0, 9.0  # tiles: the start-distance groups (the orbit demonstrations inspect from within 6 tiles)


def target(game_obs: Any, half_fov: float) -> tuple[str | None, float | None]:
    """The nearest object of interest inside the field of view, and its distance (None, None: none in view)."""
    f = game_obs.features
    x, y, angle = f["x"], f["y"], f["angle"]
    seen = []
    for k, e in game_obs.entities.items():
        if not k.startswith("ooi-"):
            continue
        bearing = (math.degrees(math.atan2(e.pos[1] - y, e.pos[0] - x)) - angle + 180) % 360 - 180
        if abs(bearing) <= half_fov:
            seen.append((math.dist((x, y), e.pos), k))
    return (min(seen)[1], round(min(seen)[0], 2)) if seen else (None, None)


def faces(game_obs: Any, ooi: str | None) -> int | None:
    e = game_obs.entities.get(ooi) if ooi else None
    return None if e is None else len(e.attrs.get("seen_faces") or ())


def job(j: dict[str, Any]) -> dict[str, Any]:
    """One campaign (`ppgta.campaign`) with the agent's observe and episode_end wrapped to log its tests."""
    import ppgta as bench_ppgta

    from playtester.agents import ppgta
    from playtester.games.park import PLANE

    half_fov = math.degrees(math.atan(PLANE))
    tests: list[dict[str, Any]] = []
    open_: dict[int, dict[str, Any]] = {}  # slot -> the running test's row
    seen = {"tests": 0}
    observe, episode_end = ppgta.PpgtaAgent.observe, ppgta.PpgtaAgent.episode_end

    def close(agent: Any, slot: int, how: str | None = None) -> None:
        row = open_.pop(slot)
        if how is None:
            lost = agent.counts["tests_lost"] - row.pop("lost0")
            limit = agent.counts["tests_at_limit"] - row.pop("limit0")
            how = "lost" if lost else "limit" if limit else "other"
        else:
            row.pop("lost0"), row.pop("limit0")
        row["ended"] = how
        tests.append(row)

    def logged_observe(self: Any, slot: int, t: Any) -> bool:
        stop = observe(self, slot, t)
        st, go = self.slots.get(slot), t.game_obs
        if go is None:
            return stop
        if slot in open_:
            row = open_[slot]
            row["steps"] += 1
            row["faces_end"] = faces(go, row["ooi"])
            if st is None or st.mode != "test":
                close(self, slot)
        if self.counts["tests"] != seen["tests"]:  # a test started on this step's action
            seen["tests"] = self.counts["tests"]
            ooi, dist = target(go, half_fov)  # after the test's first step
            open_[slot] = {"step": self.steps, "ooi": ooi, "distance": dist, "faces_start": faces(go, ooi),
                           "faces_end": faces(go, ooi), "steps": 1, "lost0": self.counts["tests_lost"],
                           "limit0": self.counts["tests_at_limit"]}
            if st is None or st.mode != "test":
                close(self, slot)
        return stop

    def logged_episode_end(self: Any, slot: int, outcome: str) -> None:
        if slot in open_:
            close(self, slot, "episode_end")
        episode_end(self, slot, outcome)

    ppgta.PpgtaAgent.observe, ppgta.PpgtaAgent.episode_end = logged_observe, logged_episode_end
    run = bench_ppgta.campaign(j)
    return {"seed": j["seed"], "agent": j["agent"], "steps": run["steps"], "cpu_s": run["cpu_s"],
            "agent_stats": {k: v for k, v in run["agent_stats"].items() if k in ("tests", "test", "explore",
                                                                                 "tests_lost", "tests_at_limit")},
            "tests": tests}


def group(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Tests by the distance they started at: how many, their steps, how many gained a face or finished one."""
    def name(d: float | None) -> str:
        return f"none in view or over {FAR:g} tiles" if d is None or d > FAR else \
            f"within {NEAR:g} tiles" if d <= NEAR else f"{NEAR:g} to {FAR:g} tiles"

    out: dict[str, Any] = {}
    total = sum(r["steps"] for r in rows) or 1
    for key in (f"within {NEAR:g} tiles", f"{NEAR:g} to {FAR:g} tiles", f"none in view or over {FAR:g} tiles"):
        mine = [r for r in rows if name(r["distance"]) == key]
        out[key] = {"tests": len(mine), "steps": sum(r["steps"] for r in mine),
                    "share_of_test_steps": round(sum(r["steps"] for r in mine) / total, 3),
                    "gained_a_face": sum((r["faces_end"] or 0) > (r["faces_start"] or 0) for r in mine),
                    "finished_an_object": sum((r["faces_end"] or 0) >= 8 > (r["faces_start"] or 0) for r in mine),
                    "lost": sum(r["ended"] == "lost" for r in mine), "at_limit": sum(r["ended"] == "limit"
                                                                                     for r in mine)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="ppgta:warmup_steps=300", help="agent spec (options after ':', '+' between)")
    ap.add_argument("--seeds", default="0")
    ap.add_argument("--episodes", type=int, default=6)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--path-demos", type=int, default=8)
    ap.add_argument("--inspect-demos", type=int, default=150)
    ap.add_argument("--preference", default=str(DEMOS / "path"))
    ap.add_argument("--inspect", default=str(ORBIT_DEMOS / "inspect"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--name", default="ppgta_tests")
    args = ap.parse_args()
    made = provenance()
    tmp = Path(tempfile.mkdtemp(prefix="ppgta-tests-"))
    os.environ["PLAYTESTER_CACHE"] = str(tmp / "cache")  # as bench/ppgta.py: shared by this run only
    demos = [str(pick_demos(Path(args.preference), args.path_demos, tmp / "demos" / "preference")),
             str(pick_demos(Path(args.inspect), args.inspect_demos, tmp / "demos" / "inspect"))]
    agent = args.agent.replace("+", ",")
    jobs = [{"agent": agent, "label": agent.partition(":")[0], "seed": int(s), "episodes": args.episodes,
             "steps": args.steps, "out": str(tmp / f"run-{s}"),
             "demos": demos[1:] if agent.startswith("inspector") else demos}
            for s in args.seeds.split(",") if s.strip()]
    start = time.perf_counter()
    runs = run_pool(job, jobs, args.jobs, lambda r: f"seed {r['seed']}: {len(r['tests'])} tests ({r['cpu_s']} CPU s)")
    shutil.rmtree(tmp, ignore_errors=True)
    rows = [t for r in runs for t in r["tests"]]
    groups = group(rows)
    for key, g in groups.items():
        print(f"{key:28s} {g['tests']:3d} tests, {100 * g['share_of_test_steps']:.0f}% of test steps, "
              f"{g['gained_a_face']} gained a face, {g['finished_an_object']} finished an object, "
              f"{g['lost']} lost, {g['at_limit']} at the limit")
    record = {"game": "park", "agent": agent, "seeds": [r["seed"] for r in runs], "episodes": args.episodes,
              "steps_per_episode": args.steps, "path_demos": args.path_demos, "inspect_demos": args.inspect_demos,
              "preference_demos": repo_path(args.preference), "inspect_demos_folder": repo_path(args.inspect),
              "near_far_tiles": [NEAR, FAR], "seconds": round(time.perf_counter() - start, 1),
              "cpu_s_total": round(sum(r["cpu_s"] for r in runs), 1), "groups": groups,
              "per_seed": {str(r["seed"]): group(r["tests"]) for r in runs}, "runs": runs}
    print(f"written to {write_results(args.name, record, made)}")


if __name__ == "__main__":
    main()
