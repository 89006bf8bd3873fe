"""Scripted demonstrations of a preferred route on ViZDoom's Freedoom 2 MAP01 (issue 22), and the route's measures.

The route is the map's own (`playtester.drive.doom.preferred_route`: from the player's start to the object
of interest farthest from it by walking distance, the shortest walkable way over the sector geometry), the
same for every seed. The demonstrator is a **ground-truth demonstrator**, declared as such: it reads the
player's position and angle (the probe's features) and the map's geometry to steer, and plays only the
game's declared actions. Each demonstration first plays a few seeded random actions (so the ten differ),
then plans the shortest walkable way from where it stands to the route's goal and follows it (turn towards
a point a few cells ahead, walk; ``use`` and a strafe when it stops moving). One that does not reach the
goal within `LIMIT` steps is not written.

Each demonstration is a trace (the format of a bug's ``trace.json``, as `bench/park_demos.py` writes) with its
seed, so it replays exactly (`tests/test_vizdoom.py`). ``route.json`` beside them holds the route's tiles and
goal, which `route_measures` (and `bench/ppgta.py`) read.

Usage: python bench/doom_demos.py [--demos 10] [--out bench/data/doom_demos]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path
from typing import Any

from playtester.actions.space import space_to_dict
from playtester.coverage.route import ObjectsSeen, RouteCoverage
from playtester.drive import doom
from playtester.drive.spec import resolve
from playtester.env import GameEnv
from playtester.findings import Trace

GAME = "doom:freedoom2:MAP01"
OUT = Path(__file__).resolve().parent / "data" / "doom_demos"
LIMIT = 700  # steps a demonstration may take
LOOKAHEAD = 2  # path cells (16 map units each) ahead of the nearest one that the demonstrator aims at
#               (1 when it is off the path: cutting corners drops it into pits it cannot climb out of)
ARRIVE = 48.0  # map units from the goal that count as there


def route_measures(route_file: str | Path = OUT / "route.json") -> tuple[RouteCoverage, ObjectsSeen]:
    """Fresh measures for an explorer's episodes: coverage of the demonstrated route (tiles) and objects of
    interest seen. Feed both every `Observation` (``.add(obs)``); read ``.share`` and ``len(...)``."""
    data = json.loads(Path(route_file).read_text())
    return RouteCoverage([tuple(t) for t in data["tiles"]], reach=1), ObjectsSeen(doom.OOI_KINDS)


class Demonstrator:
    """Plays one episode of ``env`` along the shortest walkable way to ``goal`` (map units)."""

    def __init__(self, env: GameEnv, geo: doom.Geometry, goal: tuple[float, float], seed: int) -> None:
        self.env, self.geo, self.goal, self.seed = env, geo, goal, seed
        self.names = list(env.space.names)
        self.actions: list[int] = []
        env.reset(seed=seed)

    def pose(self) -> tuple[float, float, float]:
        f = self.env.last_obs.features
        return f["pos_x"], f["pos_y"], f["angle"]

    def act(self, name: str) -> None:
        i = self.names.index(name)
        self.actions.append(i)
        self.env.step(i)

    def run(self) -> bool:
        rng = random.Random(self.seed)
        for _ in range(rng.randint(0, 12)):  # a seeded detour, so that the demonstrations differ
            self.act(rng.choice(["turn left", "turn right", "forward", "strafe left", "strafe right"]))
        path = doom.plan_path(self.geo, self.pose()[:2], self.goal)
        if path is None:
            return False
        idx, still, best, since = 0, 0, 0, 0
        while len(self.actions) < LIMIT:
            x, y, angle = self.pose()
            if math.dist((x, y), self.goal) < ARRIVE:
                return True
            near = min(range(idx, min(idx + 12, len(path))), key=lambda k: math.dist((x, y), path[k]))
            idx = near
            best, since = (near, 0) if near > best else (best, since + 1)
            if since > 12:  # no progress along the path: back off and plan again from here
                self.act("backward")
                self.act(rng.choice(["strafe left", "strafe right"]))
                path = doom.plan_path(self.geo, self.pose()[:2], self.goal) or path
                idx, best, since = 0, 0, 0
                continue
            ahead = LOOKAHEAD if math.dist((x, y), path[near]) < 16.0 else 1
            tx, ty = path[min(near + ahead, len(path) - 1)]
            err = (math.degrees(math.atan2(ty - y, tx - x)) - angle + 180.0) % 360.0 - 180.0
            if still >= 3:  # stuck on a door or a corner: open, then side-step
                self.act("use")
                self.act(rng.choice(["strafe left", "strafe right"]))
                still = 0
            elif abs(err) > 45:
                self.act("turn left" if err > 0 else "turn right")
            elif abs(err) > 16:
                self.act("forward left" if err > 0 else "forward right")
            else:
                self.act("forward")
            nx, ny, _ = self.pose()
            still = still + 1 if math.dist((x, y), (nx, ny)) < 2.0 and abs(err) <= 45 else 0
        return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--demos", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    spec = resolve(GAME)
    scn = doom.scenario(spec.target, spec.config.game_args)
    geo = doom.geometry(scn)
    path, goal = doom.preferred_route(geo)
    tiles = doom.route_tiles(geo, path)
    (out / "route.json").write_text(json.dumps({
        "game": GAME, "tile": doom.TILE, "goal": {**goal, "tile": list(geo.to_tiles(goal["x"], goal["y"]))},
        "start": list(geo.to_tiles(*geo.start[:2])), "tiles": [list(t) for t in tiles]}, indent=1))
    env = GameEnv(spec, capture=None)
    space = space_to_dict(env.space)
    written, tried, summary = 0, 0, []
    try:
        seed = args.first_seed
        while written < args.demos and tried < 3 * args.demos:
            tried += 1
            demo = Demonstrator(env, geo, (goal["x"], goal["y"]), seed)
            ok = demo.run()
            seed += 1
            if not ok:
                print(f"seed {seed - 1}: did not reach the goal in {len(demo.actions)} steps", flush=True)
                continue
            written += 1
            trace = Trace(spec.text, spec.config.model_dump(mode="json"), seed - 1, space, demo.actions)
            (out / f"demo_{written:02d}.json").write_text(trace.to_json())
            summary.append({"seed": seed - 1, "steps": len(demo.actions)})
            print(f"demo {written}/{args.demos}: seed {seed - 1}, {len(demo.actions)} steps", flush=True)
    finally:
        env.close()
    info: dict[str, Any] = {"game": GAME, "written": written, "tried": tried, "demos": summary,
                            "route_tiles": len(tiles), "goal": goal["class"],
                            "seconds": round(time.perf_counter() - t0, 1)}
    (out / "README.json").write_text(json.dumps(info, indent=2))
    print(info)


if __name__ == "__main__":
    main()
