"""PPGTA against Inspector and random on the park (paper 001, Section VI), side by side, through ``explore``.

Each (agent, seed) is one ``playtester explore`` campaign on the park (one worker, code coverage off, every
oracle of the park's config on, the texture oracle included): ``--episodes`` episodes of ``--steps`` steps from
the park's random starts (a random pathway tile and facing per episode seed). ``ppgta`` and ``inspector`` first
learn from the park's demonstrations (``--path-demos`` path-following runs from ``bench/data/park_demos/path``,
recorded in the west region that the metrics below leave out, and ``--inspect-demos`` OOI inspections from
``bench/data/park_demos_orbit/inspect``, the orbit demonstrator's, below; the first N of each folder, sorted);
``random`` gets none. The figures come from the campaign's own bird's-eye record (``birdseye-ID.jsonl``: each
episode's thinned position trace, the faces the probe says it saw, the texture oracle's verdicts matched to
objects), the ground truth being read for scoring only:

- **pathway coverage**: the share of the park's path and bridge tiles the player stood on over the run (the
  trace's points joined by straight lines, sampled every 0.1 tile), overall and east of the demonstrations'
  region (``x >= 32``, `park_demos.in_demo_region`), the paper's "preferred area"; ``path_coverage_curve``, the
  share after each episode;
- **OOIs tested**: objects all 8 of whose faces one episode saw; the curve is the number of distinct objects
  tested after each episode (the paper's Figure 8), and the share after 18 episodes (or the run's end); an
  episode is the campaign's (a reset with a new seed) with the record's episodes the agent started itself by
  restoring a snapshot (PPGTA's ``after_test=return``) counted in it (`campaign_episodes`);
- **test success rate**: objects tested with every face's majority verdict right (a face never judged counts as
  judged normal: `report.maps.object_status`), over all objects (the paper's definition);
- **frames per second**: campaign steps over the campaign's wall time (demonstrations and training included),
  and over the CPU seconds of the campaign's process and its game workers (``steps_per_cpu_s``: it does not
  change when other work shares the machine).

Campaigns run in ``--jobs`` processes at once (spawned; torch one thread each). Results: bench/results/NAME.json,
bird's-eye maps of each agent's first seed in bench/results/NAME_AGENT_{traces,status}.png, and the curves after
each episode (pathway coverage and objects tested, each agent's mean over the seeds with the range of the seeds,
the targets dashed) in bench/results/NAME_curves.png; ``--plot NAME`` draws that figure again from the results file
(a file from before the coverage curve was recorded gets the objects-tested panel only).

The inspection demonstrations are by default the 150 of ``bench/data/park_demos_orbit/inspect``, written by the
orbit demonstrator (`orbit`: it circles its object keeping it in view, every action following from where the
object is on screen). ``--inspect DIR`` takes them from DIR instead: ``--inspect bench/data/park_demos/inspect``
gives the older ones by ``bench/park_demos.py``'s demonstrator (it walks between stand points only it knows, with
its object on no detector box for about half its steps, and a pixel policy imitating it never saw all 8 faces;
the results files before the orbit ones were made with them). ``--write-inspect-demos N --inspect DIR`` writes N
orbit inspections to DIR, ``inspect_001.json`` on, from episode seeds 50002 on (starts with no object within reach
skipped), deterministically: N = 150 gives the set in that folder, and any N its first N files. The results file
records both demonstration folders relative to the repository (absolute, for a folder outside it).

    .venv/bin/python bench/ppgta.py [--episodes 45] [--steps 2000] [--seeds 0,1,2] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from campaign_pool import cpu_seconds, mean_sd, run_pool  # noqa: E402
from park_demos import in_demo_region  # noqa: E402
from provenance import ROOT, provenance, write_results  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

DEMOS = ROOT / "bench" / "data" / "park_demos"
ORBIT_DEMOS = ROOT / "bench" / "data" / "park_demos_orbit"  # the orbit demonstrator's inspections (`orbit`)
PATH_CHARS = "=#"  # path and bridge tiles in the layout hook's rows


def repo_path(folder: str | Path) -> str:
    """``folder`` (relative to the working directory, or absolute) as results files name it: relative to the
    repository, with ``/`` separators, or absolute when it lies outside the repository."""
    p = Path(folder).resolve()
    try:
        return p.relative_to(ROOT).as_posix()
    except ValueError:
        return str(p)


def pick_demos(folder: Path, n: int, out: Path) -> Path:
    """The first ``n`` traces of ``folder`` (sorted) copied to ``out`` (the folder name is kept: ``inspect``
    tells the agent which demonstrations show inspections)."""
    out.mkdir(parents=True, exist_ok=True)
    for p in sorted(folder.glob("*.json"))[:n]:
        (out / p.name).write_text(p.read_text())
    return out


def shore_tiles(rows: list[str], reach: int = 2) -> set[tuple[int, int]]:
    """Grass tiles within ``reach`` tiles (Chebyshev) of a lake: the "grass by the lakes" preference."""
    water = {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "~"}
    return {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "." and any(
        (x + dx, y + dy) in water for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1))}


def write_demos(n: int, out: Path, first_seed: int, prefix: str, demonstrate: Any, setup: Any = None) -> None:
    """Write ``n`` demonstrations by the park's ground-truth demonstrator (`park_demos.Demonstrator`, which reads
    the probe to plan; agents see only the traces) to ``out/PREFIX_NNN.json``: for episode seeds from
    ``first_seed + 1``, ``demonstrate(demo, seed, context)`` plays one and returns what it was about (None: no
    demonstration from that start, skipped); ``setup(env)`` gives the ``context`` once (None: none)."""
    from park_demos import Demonstrator

    from playtester.actions.space import space_to_dict
    from playtester.drive.spec import resolve
    from playtester.env import GameEnv
    from playtester.findings import Trace

    spec = resolve("park")
    env = GameEnv(spec, capture=None)
    space = space_to_dict(env.space)
    out.mkdir(parents=True, exist_ok=True)
    written, seed = 0, first_seed
    try:
        context = setup(env) if setup is not None else None
        while written < n:
            seed += 1
            demo = Demonstrator(env, seed)
            about = demonstrate(demo, seed, context)
            if about is None:
                continue
            trace = Trace(spec.text, spec.config.model_dump(mode="json"), seed, space, demo.actions)
            written += 1
            (out / f"{prefix}_{written:03d}.json").write_text(trace.to_json())
            print(f"{prefix} {written}/{n}: seed {seed}, {len(demo.actions)} steps, {about}", flush=True)
    finally:
        env.close()


def write_lake_demos(n: int, out: Path, first_seed: int = 70001, steps: int = 900) -> None:
    """A second preference, as data: ``n`` demonstrations that walk to the lake shore of the west region and
    follow it on the grass (choosing at forks at random), ``steps`` steps each (`write_demos`)."""
    import random

    def shore_of(env: Any) -> set[tuple[int, int]]:
        env.reset(seed=first_seed)
        rows = env.worker.call("playtester.vision.dataset:call_hook", "layout")[1]["rows"]
        return {t for t in shore_tiles(rows) if in_demo_region(t[0] + 0.5, t[1] + 0.5)}

    def lakes(demo: Any, seed: int, shore: set[tuple[int, int]]) -> str | None:
        walk = {(x, y) for y, row in enumerate(demo.walkable) for x, ok in enumerate(row) if ok}
        tiles = shore & walk
        x, y, _ = demo.pose()
        if not in_demo_region(x, y) or not tiles:
            return None
        goal = min(tiles, key=lambda t: math.dist((x, y), (t[0] + 0.5, t[1] + 0.5)))
        if not demo.walk_to(goal[0] + 0.5, goal[1] + 0.5, steps // 3):
            return None
        return "the lake shore" if follow_tiles(demo, tiles, random.Random(seed), steps) else None

    write_demos(n, out, first_seed, "lakes", lakes, shore_of)


ORBIT_NEAR, ORBIT_FAR = 1.4, 2.4  # tiles: the orbit demonstrator's distance band round its object
ORBIT_TOLERANCE = 12.0  # degrees off the view's centre before it turns (one turn step is 12 degrees)
ORBIT_REACH = 6.0  # tiles: an object farther than this from the start is not one to inspect from there
ORBIT_LIMIT = 400  # steps an orbit may take before it is given up


def orbit_action(dist: float, bearing: float, side: str) -> str:
    """The orbit demonstrator's action, a function of what the screen shows of its object: off the view's centre
    (``bearing``, degrees, positive = to the right) -> turn to it; too far / too near (``dist``, tiles: the box's
    height on screen) -> forward / back; else strafe round it on ``side``."""
    if abs(bearing) > ORBIT_TOLERANCE:
        return "turn_right" if bearing > 0 else "turn_left"
    if dist > ORBIT_FAR:
        return "forward"
    if dist < ORBIT_NEAR:
        return "back"
    return side


def nearest_ooi(demo: Any) -> str | None:
    """The id of the reachable object nearest the player, if it lies within ``ORBIT_REACH`` tiles."""
    x, y, _ = demo.pose()
    near = sorted((math.dist((x, y), e.pos), k) for k, e in demo.oois().items() if e.attrs.get("reachable"))
    return near[0][1] if near and near[0][0] <= ORBIT_REACH else None


def orbit(demo: Any, limit: int = ORBIT_LIMIT) -> str | None:
    """Inspect the nearest reachable object within ``ORBIT_REACH`` tiles by circling it with it in view (strafing
    round it, the other way when blocked) until all 8 faces are seen: its id, or None.

    Unlike `park_demos.Demonstrator.inspect` (which walks between stand points it alone knows, along tile-centre
    routes, and has its object on no box for about half its steps), every action follows from where the object is
    on screen, so a pixel policy can learn it (the ground truth only picks the object and says when to stop)."""
    from playtester.games.park import TESTED_FACES

    ooi = nearest_ooi(demo)
    if ooi is None:
        return None
    ox, oy = demo.oois()[ooi].pos
    side, stuck = "strafe_left", 0
    while len(demo.actions) < limit:
        if len(demo.oois()[ooi].attrs.get("seen_faces") or ()) >= TESTED_FACES:
            return ooi
        x, y, angle = demo.pose()
        bearing = (math.degrees(math.atan2(oy - y, ox - x)) - angle + 180) % 360 - 180
        a = orbit_action(math.dist((x, y), (ox, oy)), bearing, side)
        demo.act(a)
        if a.startswith("turn"):
            continue
        if math.dist((x, y), demo.pose()[:2]) >= 0.01:
            stuck = 0
            continue
        stuck += 1  # blocked (a tree, the water, the object): circle the other way
        if stuck > 20:
            return None
        if a == side:
            side = "strafe_right" if side == "strafe_left" else "strafe_left"
    return None


def write_recovery_demos(n: int, out: Path, first_seed: int = 60001, steps: int = 900, drift: float = 0.1) -> None:
    """The path-following preference with recoveries (`write_demos`): ``n`` demonstrations that follow the paths of
    the west region as `park_demos.Demonstrator.follow_paths` does, but at a junction or tile, with probability
    ``drift``, wander off for a few steps (a turn of 36 to 96 degrees either way, then 2 to 6 steps forward) and
    walk back to the nearest path tile before going on. A demonstrator that never leaves the path shows a pixel
    policy no way back once its own errors take it off (imitation's compounding errors); these show it. The drifts
    are in the demonstrations too, so they are imitated at their rate as well."""
    import random

    def recover(demo: Any, seed: int, _context: Any) -> str | None:
        rng = random.Random(seed)
        status, tiles = demo.env.worker.call("playtester.plans.hooks:call_hook", "pathways")
        assert status == "ok", tiles
        path = {(int(t[0]), int(t[1])) for t in tiles if in_demo_region(t[0] + 0.5, t[1] + 0.5)}
        if (int(demo.pose()[0]), int(demo.pose()[1])) not in path:
            return None
        drifts, came = 0, None
        while len(demo.actions) < steps:
            cur = (int(demo.pose()[0]), int(demo.pose()[1]))
            if cur in path and rng.random() >= drift:
                if not tile_step(demo, path, came, rng, steps):
                    return None
                came = cur
                continue
            if cur in path:  # a drift: off at an angle for a few steps
                drifts += 1
                turn = rng.choice(("turn_left", "turn_right"))
                for _ in range(rng.randint(3, 8)):  # 12 degrees a step: 36 to 96 degrees
                    demo.act(turn)
                for _ in range(rng.randint(2, 6)):
                    demo.act("forward")
            here = (int(demo.pose()[0]), int(demo.pose()[1]))
            back = min(path, key=lambda t: math.dist(demo.pose()[:2], (t[0] + 0.5, t[1] + 0.5)))
            if here not in path and not demo.walk_to(back[0] + 0.5, back[1] + 0.5, steps):
                if len(demo.actions) >= steps:
                    break
                return None
            came = None
        return f"{drifts} drifts" if in_demo_region(*demo.pose()[:2]) else None

    write_demos(n, out, first_seed, "path", recover)


def write_inspect_demos(n: int, out: Path, first_seed: int = 50001) -> None:
    """``n`` OOI inspections by the orbit demonstrator (`orbit`), from the park's random starts (episode seeds
    from ``first_seed + 1``; starts with no object within reach are skipped), as trace files in ``out``."""
    write_demos(n, out, first_seed, "inspect", lambda demo, seed, _context: orbit(demo))


def tile_step(demo: Any, tiles: set[tuple[int, int]], came: tuple[int, int] | None, rng: Any, steps: int) -> bool:
    """From the player's tile, walk to a 4-connected neighbour in ``tiles`` other than ``came``: straight on with p 0.8
    when it can, else one at random; back to ``came`` at a dead end (False: no way at all). Stops at ``steps``
    actions, or after 40 steps without getting there (blocked)."""
    x, y = int(demo.pose()[0]), int(demo.pose()[1])
    nxt = [t for t in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if t in tiles and t != came]
    nxt = nxt or ([came] if came else [])
    if not nxt:
        return False
    ahead = (2 * x - came[0], 2 * y - came[1]) if came else None
    step = ahead if ahead in nxt and rng.random() < 0.8 else rng.choice(nxt)
    target, tries = (step[0] + 0.5, step[1] + 0.5), 0
    while math.dist(demo.pose()[:2], target) > 0.35 and len(demo.actions) < steps and tries < 40:
        tries += 1
        if demo.face(*target):
            demo.act("forward")
    return True


def follow_tiles(demo: Any, tiles: set[tuple[int, int]], rng: Any, steps: int) -> bool:
    """Walk over ``tiles`` (4-connected) until ``steps`` actions, mostly straight on, turning back at dead ends."""
    came: tuple[int, int] | None = None
    while len(demo.actions) < steps:
        cur = (int(demo.pose()[0]), int(demo.pose()[1]))
        if not tile_step(demo, tiles, came, rng, steps):
            return False
        came = cur
    return True


def campaign(job: dict[str, Any], observers: Sequence[Any] = ()) -> dict[str, Any]:
    """One campaign (in its own process): the bird's-eye record, the agent's stats, timings. ``observers``: more
    observers of the campaign's loop (`explore`'s), e.g. bench/ppgta_tests.py's log of the agent's tests."""
    import playtester.vision  # noqa: F401 - registers the texture judge's loader, as the CLI does
    from playtester.campaign import Budget, explore
    from playtester.campaign.observers import BIRDSEYE_FILE
    from playtester.drive.spec import resolve

    spec = resolve("park").with_config(max_episode_steps=job["steps"])
    out = Path(job["out"])
    with cpu_seconds() as used:
        wall0 = time.perf_counter()
        r = explore(spec, out=out, agent=job["agent"], budget=Budget(steps=job["steps"] * job["episodes"]),
                    workers=1, seed=job["seed"], code_coverage=False, replay_known=False, demos=job["demos"],
                    observers=observers, finalize=False)
        wall = time.perf_counter() - wall0
    r.store.close()
    lines = [json.loads(x) for x in (out / BIRDSEYE_FILE.format(cid=r.campaign_id)).read_text().splitlines()]
    return {"agent": job["agent"], "label": job["label"], "seed": job["seed"], "steps": r.steps,
            "episodes": r.episodes, "wall_s": round(wall, 1), "loop_s": round(r.seconds, 1),
            "cpu_s": round(used["s"], 1),
            "bugs": len(r.new_bugs), "agent_stats": r.agent_stats, "birdseye": lines}


def tiles_of(trace: list[list[float]]) -> set[tuple[int, int]]:
    """Tiles a thinned trace passes through (consecutive points joined by straight lines)."""
    out = {(int(trace[0][0]), int(trace[0][1]))} if trace else set()
    for (x0, y0), (x1, y1) in zip(trace, trace[1:], strict=False):
        n = max(1, int(math.dist((x0, y0), (x1, y1)) / 0.1))
        out.update((int(x0 + (x1 - x0) * i / n), int(y0 + (y1 - y0) * i / n)) for i in range(n + 1))
    return out


def campaign_episodes(records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The record's episodes grouped by the campaign's episodes: a fresh one (a reset with the next seed) and the
    ones the agent started itself after it by restoring a snapshot (``fresh`` false: PPGTA's
    ``after_test=return``), which go on with the same game episode and its step limit. A record's faces stay its
    own: an object counts as tested when one record saw all its faces."""
    groups: list[list[dict[str, Any]]] = []
    last: dict[Any, list[dict[str, Any]]] = {}  # worker -> its running group (records of workers interleave)
    for ep in records:
        worker = ep.get("worker")
        if worker in last and ep.get("fresh", True) is False:
            last[worker].append(ep)
        else:
            last[worker] = [ep]
            groups.append(last[worker])
    return groups


def score(run: dict[str, Any], reachable: dict[str, bool]) -> dict[str, Any]:
    """The paper's metrics of one campaign from its bird's-eye record."""
    from playtester.report.maps import object_status

    head, episodes = run["birdseye"][0], [e for e in run["birdseye"][1:] if "trace" in e]
    rows = head["map"]
    paths = {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch in PATH_CHARS}
    east = {t for t in paths if not in_demo_region(t[0] + 0.5, t[1] + 0.5)}
    objects = head["objects"]
    shore = shore_tiles(rows)
    points = [(int(x), int(y)) for e in episodes for x, y in e["trace"]]
    visited: set[tuple[int, int]] = set()
    tested: set[str] = set()
    curve, per_episode_cov, cov_curve = [], [], []
    groups = campaign_episodes(episodes)
    for group in groups:
        tiles = set().union(*(tiles_of(ep["trace"]) for ep in group))
        per_episode_cov.append(len(tiles & paths) / len(paths))
        visited |= tiles
        cov_curve.append(round(len(visited & paths) / len(paths), 4))
        tested |= {o["id"] for ep in group for o in objects
                   if len(ep.get("faces", {}).get(o["id"], ())) >= len(o["bug_faces"])}
        curve.append(len(tested))
    status = object_status(objects, episodes)
    first = min(18, len(groups))
    status18 = object_status(objects, [ep for group in groups[:first] for ep in group])
    n, n_reach = len(objects), sum(reachable.get(o["id"], True) for o in objects)
    return {
        "path_coverage": round(len(visited & paths) / len(paths), 4),
        "path_coverage_eval_region": round(len(visited & east) / len(east), 4),
        "path_coverage_per_episode": round(statistics.mean(per_episode_cov), 4) if per_episode_cov else 0.0,
        "trace_on_paths": round(sum(p in paths for p in points) / max(1, len(points)), 4),
        "trace_by_lakes": round(sum(p in shore for p in points) / max(1, len(points)), 4),
        "path_coverage_curve": cov_curve, "oois": n, "reachable_oois": n_reach, "tested_curve": curve,
        "tested": len(tested), "tested_share": round(len(tested) / n, 4),
        "tested_after_18": curve[first - 1] if curve else 0, "tested_after_18_share": round((curve[first - 1] if curve
                                                                                            else 0) / n, 4),
        "right": sum(s["status"] == "ok" for s in status), "success_rate": round(sum(s["status"] == "ok"
                                                                                    for s in status) / n, 4),
        "right_after_18": sum(s["status"] == "ok" for s in status18),
        "status": [{k: s[k] for k in ("id", "x", "y", "kind", "status")} for s in status],
        "fps": round(run["steps"] / run["wall_s"], 1) if run["wall_s"] else None,
        "steps_per_cpu_s": round(run["steps"] / run["cpu_s"], 1) if run["cpu_s"] else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=45)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seeds", default="0,1,2", help="campaign seeds (episode seeds follow each)")
    ap.add_argument("--agents", default="ppgta,inspector,random", help="agent specs, comma-separated (options "
                    "with + instead of ,: ppgta:warmup_steps=500+il_updates=200); LABEL@SPEC names one in the "
                    "results (default: the agent's name; two specs of one agent need labels)")
    ap.add_argument("--path-demos", type=int, default=50, help="path-following demonstrations used (of 50)")
    ap.add_argument("--inspect-demos", type=int, default=150, help="inspection demonstrations used (of 150)")
    ap.add_argument("--preference", default=str(DEMOS / "path"), help="folder of the preference demonstrations")
    ap.add_argument("--inspect", default=str(ORBIT_DEMOS / "inspect"), help="folder of the inspection "
                    "demonstrations (default: the orbit demonstrator's; bench/data/park_demos/inspect: the older ones)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--name", default="ppgta")
    ap.add_argument("--plot", metavar="NAME", help="draw bench/results/NAME_curves.png from the results file "
                    "bench/results/NAME.json and stop")
    ap.add_argument("--write-lake-demos", type=int, default=0, metavar="N",
                    help="write N lake-shore preference demonstrations to --preference and stop")
    ap.add_argument("--write-recovery-demos", type=int, default=0, metavar="N",
                    help="write N path-following demonstrations with drifts off the path and recoveries to "
                    "--preference and stop")
    ap.add_argument("--write-inspect-demos", type=int, default=0, metavar="N",
                    help="write N inspections by the orbit demonstrator (every action from the screen) to --inspect "
                    "and stop")
    args = ap.parse_args()
    if args.plot:
        results = ROOT / "bench" / "results" / f"{args.plot}.json"
        if not results.is_file():
            ap.error(f"--plot {args.plot}: no results file {results.relative_to(ROOT)}; name one of "
                     f"bench/results/*.json that bench/ppgta.py wrote")
        print(f"written to {curves_png(json.loads(results.read_text()), results.with_name(f'{args.plot}_curves.png'))}")
        return
    if args.write_lake_demos:
        write_lake_demos(args.write_lake_demos, Path(args.preference))
        return
    if args.write_recovery_demos:
        write_recovery_demos(args.write_recovery_demos, Path(args.preference))
        return
    if args.write_inspect_demos:
        write_inspect_demos(args.write_inspect_demos, Path(args.inspect))
        return
    made = provenance()
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    labelled = [a.strip().replace("+", ",").rpartition("@") for a in args.agents.split(",") if a.strip()]
    agents = [spec for _, _, spec in labelled]
    labels = {spec: label or spec.partition(":")[0] for label, _, spec in labelled}
    if len(set(labels.values())) < len(labels) or len(labels) < len(agents):
        ap.error(f"--agents: an agent spec given twice, or two agents with one label ({', '.join(labels.values())}): "
                 "give each spec once and name them LABEL@SPEC")
    tmp = Path(tempfile.mkdtemp(prefix="ppgta-bench-"))
    # the replayed demonstrations (`campaign.demos`) and their detections (`PpgtaAgent.demo_boxes`) are cached: shared
    # by this run's campaigns, never read from an earlier run's, so every results file's CPU figures include
    # computing them once
    os.environ["PLAYTESTER_CACHE"] = str(tmp / "cache")
    demos = [str(pick_demos(Path(args.preference), args.path_demos, tmp / "demos" / "preference")),
             str(pick_demos(Path(args.inspect), args.inspect_demos, tmp / "demos" / "inspect"))]
    jobs = [{"agent": a, "label": labels[a], "seed": s, "episodes": args.episodes, "steps": args.steps,
             "out": str(tmp / f"{labels[a]}-{s}-{i}"), "demos": [] if a.startswith("random") else demos[1:] if a.startswith("inspector") else demos}
            for i, (s, a) in enumerate((s, a) for s in seeds for a in agents)]  # a seed may be given twice
    start = time.perf_counter()
    runs = run_pool(campaign, jobs, args.jobs, lambda run: (
        f"{run['label']} seed {run['seed']}: {run['steps']} steps in {run['wall_s']} s ({run['cpu_s']} CPU s)"))
    seconds = time.perf_counter() - start
    from playtester.drive import Worker, resolve
    from playtester.env import default_space

    spec = resolve("park")
    with Worker(spec, space=default_space(spec), capture=None) as w:
        w.reset(seed=0)
        layout = w.call("playtester.vision.dataset:call_hook", "layout")[1]
    reachable = {o["id"]: bool(o["reachable"]) for o in layout["oois"]}
    per_agent: dict[str, Any] = {}
    for label in dict.fromkeys(r["label"] for r in runs):
        mine = [r for r in runs if r["label"] == label]
        scores = [score(r, reachable) for r in mine]
        keys = ("path_coverage", "path_coverage_eval_region", "path_coverage_per_episode", "tested", "tested_share",
                "tested_after_18", "tested_after_18_share", "right", "success_rate", "fps", "steps_per_cpu_s", "trace_on_paths",
                "trace_by_lakes")
        per_agent[label] = {
            **{k: mean_sd([s[k] for s in scores]) for k in keys},
            "tested_curve_mean": [round(statistics.mean(c), 2) for c in zip(*[s["tested_curve"] for s in scores],
                                                                            strict=False)],
            "path_coverage_curve_mean": [round(statistics.mean(c), 4) for c in zip(
                *[s["path_coverage_curve"] for s in scores], strict=False)],
            "cpu_s": sum(r["cpu_s"] for r in mine), "wall_s": sum(r["wall_s"] for r in mine),
            "runs": [{"seed": r["seed"], "steps": r["steps"], "episodes": r["episodes"], "wall_s": r["wall_s"],
                      "cpu_s": r["cpu_s"], "bugs": r["bugs"], "agent_stats": r["agent_stats"],
                      **{k: v for k, v in s.items() if k != "status"}} for r, s in zip(mine, scores, strict=True)],
        }
        _maps(args.name, label, mine[0], scores[0])
    record: dict[str, Any] = {"game": "park", "episodes": args.episodes, "steps_per_episode": args.steps, "seeds": seeds,
              "agents": agents, "labels": labels, "path_demos": args.path_demos, "inspect_demos": args.inspect_demos,
              "preference_demos": repo_path(args.preference),
              "inspect_demos_folder": repo_path(args.inspect),
              "size_note": ("the paper's protocol (45 x 2000, 3 seeds)" if (args.episodes, args.steps, len(seeds)) ==
                            (45, 2000, 3) else f"scaled down from the paper's 45 x 2000 x 3 seeds: {args.episodes} x "
                            f"{args.steps} x {len(seeds)}"),
              "seconds": round(seconds, 1), "cpu_s_total": round(sum(r["cpu_s"] for r in runs), 1),
              "targets": {"path_coverage": 0.85, "tested_after_18_share": 0.8, "success_rate": 0.75,
                          "cpu_minutes": 60},
              "per_agent": per_agent}
    for label, a in per_agent.items():
        print(f"{label:10s} pathway coverage {100 * a['path_coverage']['mean']:.1f}% (east "
              f"{100 * a['path_coverage_eval_region']['mean']:.1f}%), tested {a['tested']['mean']:.1f} (after 18: "
              f"{a['tested_after_18']['mean']:.1f}), success {100 * a['success_rate']['mean']:.1f}%, fps "
              f"{a['fps']['mean']:.1f}, CPU {a['cpu_s'] / 60:.1f} min")
    print(f"written to {write_results(args.name, record, made)}")
    try:
        print(f"written to {curves_png(record, ROOT / 'bench' / 'results' / f'{args.name}_curves.png')}")
    except ImportError as e:  # the results file is written; the figure can be drawn later with --plot NAME
        print(f"no curves figure ({e}; install the dev extra: pip install -e '.[dev]', then bench/ppgta.py --plot "
              f"{args.name})")
    shutil.rmtree(tmp, ignore_errors=True)  # the campaigns' stores (their figures are in the results file)


def _maps(name: str, label: str, run: dict[str, Any], s: dict[str, Any]) -> None:
    from playtester.report.images import png_bytes
    from playtester.report.maps import BirdsEye, exploration_map, status_map

    head = run["birdseye"][0]
    traces = [[tuple(p) for p in e["trace"]] for e in run["birdseye"][1:] if "trace" in e]
    view = BirdsEye(head["map"], traces=traces, objects=s["status"], scale=6)
    for kind, img in (("traces", exploration_map(view)), ("status", status_map(view))):
        (ROOT / "bench" / "results" / f"{name}_{label}_{kind}.png").write_bytes(png_bytes(img))


AGENT_COLOURS = {"ppgta": "#1565c0", "inspector": "#ef6c00", "random": "#757575"}
OTHER_COLOURS = ("#2e7d32", "#6a1b9a", "#c62828", "#00838f", "#9e9d24")


def curves_png(record: dict[str, Any], out: Path) -> Path:
    """The curves after each episode of a results file's agents, side by side: pathway coverage (%) and objects
    tested (of all the park's), each agent's mean over its seeds as a line and the seeds' lowest to highest as a
    band, with the paper's targets dashed (85% coverage after 45 episodes, 80% of the objects tested within 18).
    A results file without ``path_coverage_curve`` per run (before 2d993c7) gets the second panel only."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    agents = record["per_agent"]
    have_cov = all("path_coverage_curve" in r for a in agents.values() for r in a["runs"])
    panels = [("path_coverage_curve", "pathway coverage (%)", 100.0)] if have_cov else []
    panels.append(("tested_curve", "objects tested", 1.0))
    oois = max((r.get("oois", 0) for a in agents.values() for r in a["runs"]), default=0)
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.9), squeeze=False)
    others = iter(OTHER_COLOURS)
    colours = {label: AGENT_COLOURS.get(label) or next(others, "#000000") for label in agents}
    for ax, (key, ylabel, scale) in zip(axes[0], panels, strict=True):
        for label, a in agents.items():
            curves = [[v * scale for v in r[key]] for r in a["runs"] if r.get(key)]
            if not curves:
                continue
            n = min(len(c) for c in curves)
            x = np.arange(1, n + 1)
            values = np.array([c[:n] for c in curves])
            ax.fill_between(x, values.min(0), values.max(0), color=colours[label], alpha=0.18, linewidth=0)
            ax.plot(x, values.mean(0), color=colours[label], linewidth=2, label=f"{label} ({len(curves)} seeds)")
        if key == "path_coverage_curve":
            ax.axhline(100 * record["targets"]["path_coverage"], color="black", linestyle="--", linewidth=1)
            ax.text(1, 100 * record["targets"]["path_coverage"] + 1.5, "target after 45 episodes", fontsize=8)
            ax.set_ylim(0, 100)
        elif oois:
            target = record["targets"]["tested_after_18_share"] * oois
            ax.plot([1, 18], [target, target], color="black", linestyle="--", linewidth=1)
            ax.text(1, target + 0.5, "target within 18 episodes", fontsize=8)
            ax.set_ylim(0, oois)
            ylabel = f"objects tested (of {oois})"
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("episode")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(f"park, {record['episodes']} episodes x {record['steps_per_episode']} steps, seeds "
                 f"{', '.join(str(s) for s in record['seeds'])}\nline: mean over the seeds, band: lowest to highest seed",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


if __name__ == "__main__":
    main()
