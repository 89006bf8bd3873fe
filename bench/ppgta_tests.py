"""Where PPGTA's tests go: each object test of a park campaign, with what the game's ground truth says it was on.

`bench/ppgta.py` counts the objects a campaign tested; this bench looks at the tests themselves. It runs the same
campaigns (`ppgta.campaign`: one worker, every oracle of the park on, the same demonstrations) and, in the campaign's
process, a campaign observer (`TestLog`, among `explore`'s ``observers``) reads the probe of each step (the step's
``game_obs``, for scoring only: the agent never sees it). When a test starts, the agent's box on the frame it started on (its biggest, ``SlotState.box``, in its
160x120 pixels) is matched with the objects' ``screen_box`` in the probe of that same frame: the object whose box
overlaps it most (intersection over union at least ``MATCH_IOU``) is the one under test, and none means the detector
saw an object of interest where there is none. Each test's row has that object, its distance in tiles, how many of
its 8 faces the episode had seen when the test started and when it ended, the test's steps and how it ended (the
object lost, the step limit, the episode's end). The summary groups the tests by the distance they started at, and
sets them beside the objects the campaigns finished in all (`bench/ppgta.py`'s count: an object with all 8 faces seen
in one episode, by a test or while exploring).

Usage: python bench/ppgta_tests.py --seeds 0 --episodes 6 [--agent ppgta:warmup_steps=300] [--name ppgta_tests]
"""

from __future__ import annotations

import argparse
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

from playtester.campaign.loop import Observer  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

NEAR, FAR = 4.0, 9.0  # tiles: the start-distance groups (the orbit demonstrations inspect from within 6 tiles)
MATCH_IOU = 0.3  # the agent's box and an object's screen box overlap at least this much: the test is on it
NONE = "on no object of interest"
TESTING = ("approach", "test")  # the agent's modes while a test runs (an approach, ``approach_steps``, then the inspection)
GROUPS = (f"within {NEAR:g} tiles", f"{NEAR:g} to {FAR:g} tiles", f"beyond {FAR:g} tiles", NONE)


def target(game_obs: Any, box: tuple[float, ...] | None, scale: float) -> tuple[str | None, float | None]:
    """The object of interest whose screen box (window pixels) best overlaps ``box`` (the agent's pixels, times
    ``scale`` to the window's), and its distance in tiles; (None, None) when none overlaps at least ``MATCH_IOU``."""
    from playtester.vision.evaluate import box_iou

    if box is None:
        return None, None
    b = tuple(v * scale for v in box)
    best = max(((box_iou(b, e.attrs["screen_box"]), k, e) for k, e in game_obs.entities.items()
                if k.startswith("ooi-") and e.attrs.get("screen_box")), default=None, key=lambda t: t[0])
    if best is None or best[0] < MATCH_IOU:
        return None, None
    return best[1], round(float(best[2].attrs["distance"]), 2)


def faces(game_obs: Any, ooi: str | None) -> int | None:
    e = game_obs.entities.get(ooi) if ooi else None
    return None if e is None else len(e.attrs.get("seen_faces") or ())


class TestLog(Observer):
    """A campaign observer (`explore`'s ``observers``: called after the campaign's own, so the agent has observed
    the step) that writes a row for each of the agent's tests into ``rows``."""

    def __init__(self, scale: float) -> None:
        self.scale = scale  # window pixels per agent pixel
        self.rows: list[dict[str, Any]] = []
        self.open: dict[int, dict[str, Any]] = {}  # slot -> the running test's row
        self.before: dict[int, Any] = {}  # slot -> the probe of the frame the agent acted on this step
        self.tests = 0  # the agent's count of tests started, as last seen

    def close(self, agent: Any, slot: int, how: str | None = None) -> None:
        row = self.open.pop(slot)
        lost, limit = agent.counts["tests_lost"] - row.pop("lost0"), agent.counts["tests_at_limit"] - row.pop("limit0")
        stale = agent.counts.get("tests_stale", 0) - row.pop("stale0")
        row["ended"] = how or ("lost" if lost else "limit" if limit else "stale" if stale else "other")
        self.rows.append(row)

    def on_step(self, step: Any) -> None:
        slot, agent, go = step.slot.index, step.slot.agent, step.game_obs
        if go is None:
            return
        if step.action is None:  # an episode's first frame
            self.before[slot] = go
            return
        st = agent.slots.get(slot)
        if slot in self.open:
            row = self.open[slot]
            row["steps"] += 1
            row["approach_steps"] += int(st is not None and st.mode == "approach")
            row["faces_end"] = faces(go, row["ooi"])
            if st is None or st.mode not in TESTING:
                self.close(agent, slot)
        if agent.counts["tests"] != self.tests:  # a test started on this step's frame
            self.tests = agent.counts["tests"]
            start = self.before.get(slot, go)
            box = st.box if st is not None else None
            ooi, dist = target(start, box, self.scale)
            self.open[slot] = {"step": agent.steps, "ooi": ooi, "distance": dist,
                               "box_h": None if box is None else round(box[3] - box[1], 1),
                               "faces_start": faces(start, ooi), "faces_end": faces(go, ooi), "steps": 1,
                               "approach_steps": int(st is not None and st.mode == "approach"),
                               "lost0": agent.counts["tests_lost"], "limit0": agent.counts["tests_at_limit"],
                               "stale0": agent.counts.get("tests_stale", 0)}
            if st is None or st.mode not in TESTING:
                self.close(agent, slot)
        self.before[slot] = go

    def on_episode_end(self, slot: Any, outcome: str, reason: str) -> None:
        if slot.index in self.open:
            self.close(slot.agent, slot.index, "episode_end")
        self.before.pop(slot.index, None)


def job(j: dict[str, Any]) -> dict[str, Any]:
    """One campaign (`ppgta.campaign`) with a `TestLog` among its observers."""
    import ppgta as bench_ppgta

    from playtester.agents.ppgta import CAPTURE
    from playtester.games.park import SCREEN_W

    log = TestLog(SCREEN_W / CAPTURE[0])
    run = bench_ppgta.campaign(j, observers=[log])
    curve = bench_ppgta.score(run, {})["tested_curve"]  # bench/ppgta.py's count: in tests or not
    return {"seed": j["seed"], "agent": j["agent"], "steps": run["steps"], "cpu_s": run["cpu_s"],
            "tested_curve": curve, "tested": curve[-1] if curve else 0,
            "agent_stats": {k: v for k, v in run["agent_stats"].items() if k in (
                "tests", "test", "explore", "tests_lost", "tests_at_limit", "approach", "approaches_reached",
                "approaches_at_limit", "approaches_lost", "approach_height", "approach_centre", "box_motion",
                "tests_stale")},
            "tests": log.rows}


def group(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Tests by what they started on: an object within ``NEAR`` tiles, ``NEAR`` to ``FAR``, beyond, or none; how
    many, their steps, how many gained a face of it, finished it (all 8 seen) or began with it finished already (in
    the episode: pixels cannot tell two objects of a kind apart), how they ended."""
    def name(r: dict[str, Any]) -> str:
        d = r["distance"]
        return NONE if r["ooi"] is None else GROUPS[0] if d <= NEAR else GROUPS[1] if d <= FAR else GROUPS[2]

    out: dict[str, Any] = {}
    total = sum(r["steps"] for r in rows) or 1
    for key in GROUPS:
        mine = [r for r in rows if name(r) == key]
        out[key] = {"tests": len(mine), "steps": sum(r["steps"] for r in mine),
                    "approach_steps": sum(r.get("approach_steps", 0) for r in mine),
                    "share_of_test_steps": round(sum(r["steps"] for r in mine) / total, 3),
                    "gained_a_face": sum((r["faces_end"] or 0) > (r["faces_start"] or 0) for r in mine),
                    "finished_an_object": sum((r["faces_end"] or 0) >= 8 > (r["faces_start"] or 0) for r in mine),
                    "on_an_object_already_finished": sum((r["faces_start"] or 0) >= 8 for r in mine),
                    "lost": sum(r["ended"] == "lost" for r in mine), "at_limit": sum(r["ended"] == "limit"
                                                                                     for r in mine),
                    "stale": sum(r["ended"] == "stale" for r in mine)}
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
    tested = sum(r["tested"] for r in runs)
    print(f"the campaigns finished {tested} objects (bench/ppgta.py's count, each campaign's distinct ones), "
          f"{sum(g['finished_an_object'] for g in groups.values())} tests finished one")
    for key, g in groups.items():
        print(f"{key:24s} {g['tests']:3d} tests, {100 * g['share_of_test_steps']:.0f}% of test steps, "
              f"{g['gained_a_face']} gained a face, {g['finished_an_object']} finished an object, "
              f"{g['on_an_object_already_finished']} on one finished already, "
              f"{g['lost']} lost, {g['at_limit']} at the limit")
    record = {"game": "park", "agent": agent, "seeds": [r["seed"] for r in runs], "episodes": args.episodes,
              "steps_per_episode": args.steps, "path_demos": args.path_demos, "inspect_demos": args.inspect_demos,
              "preference_demos": repo_path(args.preference), "inspect_demos_folder": repo_path(args.inspect),
              "near_far_tiles": [NEAR, FAR], "match_iou": MATCH_IOU, "seconds": round(time.perf_counter() - start, 1),
              "cpu_s_total": round(sum(r["cpu_s"] for r in runs), 1), "objects_finished": tested, "groups": groups,
              "per_seed": {str(r["seed"]): group(r["tests"]) for r in runs}, "runs": runs}
    print(f"written to {write_results(args.name, record, made)}")


if __name__ == "__main__":
    main()
