"""Scripted demonstrations of the park for the preference-conditioned agent (paper 001's imitation data).

A tester would record these by hand; this script stands in for one so that anyone can rerun it. It is a
**ground-truth demonstrator**, declared as such: it reads the park's probe (the player's pose, where each
object of interest stands, which of its faces have been seen) and its ``walkable`` hook (the real collision
map) to plan its way, and it plays only the park's 9 actions (``park.actions.yaml``). Agents that claim to
be pixel-based never read any of this; they learn from the traces (actions and the frames they replay to).

Two kinds, as the paper's two policies:
- ``inspect``: walk from the episode's start to an object of interest and around it until every face has
  been seen (the OOI-inspection behaviour); the object is the nearest reachable one the start can reach.
- ``path``: follow the pathways for two minutes of game time (900 steps of 4 frames at 30 fps), turning
  at junctions at random (the path-following preference), inside the **west region** (``x < WEST_X``)
  only, which evaluations of agents leave out (`in_demo_region`).

Each demonstration is a trace (the format of a bug's ``trace.json``) with its seed, so it replays exactly;
its action space is identified by content, so the files load from any clone path. A demonstration that
does not reach its goal (an object it cannot get round, a start outside the region) is not written.

Usage: python bench/park_demos.py [--inspect 150] [--path 50] [--out bench/data/park_demos]

The inspections ``bench/ppgta.py`` uses by default are not this script's: they are the orbit demonstrator's
(``bench/ppgta.py --write-inspect-demos 150 --inspect bench/data/park_demos_orbit/inspect``), whose every action
follows from where its object is on screen; this script's ``inspect`` walks between stand points only it knows
and imitations of it never saw all 8 faces. Its 150 stay in ``bench/data/park_demos/inspect`` (``--inspect`` of
``bench/ppgta.py`` names them; the results files before the orbit ones used them).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import deque
from pathlib import Path
from typing import Any

from playtester.actions.space import space_to_dict
from playtester.drive.spec import resolve
from playtester.env import GameEnv
from playtester.findings import Trace

WEST_X = 32.0  # path demonstrations stay west of this (tiles); evaluations leave that region out
PATH_STEPS = 900  # two minutes of game time: 900 steps x 4 frames at 30 fps
INSPECT_LIMIT = 900  # steps an inspection may take before it is given up
ORBIT_R = 1.7  # tiles from the object where the demonstrator stands to look at a face
TURN_TOLERANCE = 10.0  # degrees: close enough to walk
HOOKS = "playtester.plans.hooks:call_hook"


def in_demo_region(x: float, y: float) -> bool:
    """The west region the path demonstrations come from (evaluations leave it out)."""
    return x < WEST_X


class Demonstrator:
    """Plays one episode of the park through ``env`` towards a goal, reading the probe's ground truth."""

    def __init__(self, env: GameEnv, seed: int) -> None:
        self.env, self.seed = env, seed
        self.names = list(env.space.names)
        self.actions: list[int] = []
        env.reset(seed=seed)
        status, walk = env.worker.call(HOOKS, "walkable")
        assert status == "ok", walk
        self.walkable = walk  # [y][x]

    # ---- the probe's ground truth
    @property
    def obs(self) -> Any:
        return self.env.last_obs

    def pose(self) -> tuple[float, float, float]:
        f = self.obs.features
        return f["x"], f["y"], f["angle"]

    def oois(self) -> dict[str, Any]:
        return {k: e for k, e in self.obs.entities.items() if k.startswith("ooi-")}

    # ---- acting
    def act(self, name: str) -> bool:
        """Play one action; False when the episode ended."""
        a = self.names.index(name)
        self.actions.append(a)
        _, _, term, trunc, _ = self.env.step(a)
        return not (term or trunc)

    def face(self, tx: float, ty: float) -> bool:
        """Turn towards ``(tx, ty)`` by one step; True when already facing it (within the tolerance)."""
        x, y, angle = self.pose()
        want = math.degrees(math.atan2(ty - y, tx - x)) % 360  # 0 = east, 90 = south: the game's convention
        diff = (want - angle + 180) % 360 - 180
        if abs(diff) <= TURN_TOLERANCE:
            return True
        self.act("turn_right" if diff > 0 else "turn_left")
        return False

    def walk_to(self, tx: float, ty: float, limit: int) -> bool:
        """Walk along a planned route to the tile centre ``(tx, ty)``; False when it cannot be reached in
        ``limit`` steps."""
        route = self.route((int(self.pose()[0]), int(self.pose()[1])), (int(tx), int(ty)))
        if route is None:
            return False
        for cx, cy in route[1:]:
            target = (cx + 0.5, cy + 0.5)
            stuck = 0
            while math.dist(self.pose()[:2], target) > 0.35:
                if len(self.actions) >= limit:
                    return False
                if self.face(*target):
                    before = self.pose()[:2]
                    self.act("forward")
                    stuck = stuck + 1 if math.dist(before, self.pose()[:2]) < 0.01 else 0
                    if stuck > 6:  # an invisible wall (a navigation bug): give this route up
                        return False
        return True

    def route(self, start: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]] | None:
        """Breadth-first route over walkable tiles, 4-connected (diagonals would clip tree corners)."""
        size = len(self.walkable)
        prev: dict[tuple[int, int], tuple[int, int] | None] = {start: None}
        queue = deque([start])
        while queue:
            cur = queue.popleft()
            if cur == goal:
                out = [cur]
                while prev[out[-1]] is not None:
                    out.append(prev[out[-1]])  # type: ignore[arg-type]
                return out[::-1]
            x, y = cur
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nxt[0] < size and 0 <= nxt[1] < size and nxt not in prev and self.walkable[nxt[1]][nxt[0]]:
                    prev[nxt] = cur
                    queue.append(nxt)
        return None

    # ---- the two behaviours
    def inspect(self) -> str | None:
        """Go to the nearest reachable object and around it until all 8 faces are seen: its id, or None."""
        x, y, _ = self.pose()
        candidates = sorted((math.dist((x, y), e.pos), k) for k, e in self.oois().items() if e.attrs.get("reachable"))
        for _, ooi in candidates[:3]:
            ox, oy = self.oois()[ooi].pos
            for k in range(16):  # stand points around it, 22.5 degrees apart, nearest first after the first
                if len(self.oois()[ooi].attrs.get("seen_faces") or []) >= 8:
                    return ooi
                a = math.radians(22.5 * k + math.degrees(math.atan2(y - oy, x - ox)))
                sx, sy = ox + ORBIT_R * math.cos(a), oy + ORBIT_R * math.sin(a)
                if not (0 <= int(sx) < len(self.walkable) and self.walkable[int(sy)][int(sx)]):
                    continue
                if not self.walk_to(sx, sy, INSPECT_LIMIT):
                    if len(self.actions) >= INSPECT_LIMIT:
                        return None
                    continue
                while not self.face(ox, oy):
                    if len(self.actions) >= INSPECT_LIMIT:
                        return None
            if len(self.oois()[ooi].attrs.get("seen_faces") or []) >= 8:
                return ooi
            return None  # the nearest one could not be gone round: not a demonstration of inspecting
        return None

    def follow_paths(self, rng: random.Random, steps: int = PATH_STEPS) -> bool:
        """Follow pathways for ``steps`` steps inside the west region, choosing at junctions at random."""
        status, tiles = self.env.worker.call(HOOKS, "pathways")
        assert status == "ok", tiles
        path = {(int(t[0]), int(t[1])) for t in tiles if in_demo_region(t[0] + 0.5, t[1] + 0.5)}
        cur = (int(self.pose()[0]), int(self.pose()[1]))
        if cur not in path:
            return False
        came: tuple[int, int] | None = None
        while len(self.actions) < steps:
            x, y = cur
            nxt = [n for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if n in path and n != came]
            if not nxt:
                nxt = [came] if came else []
            if not nxt:
                return False
            ahead = (2 * x - came[0], 2 * y - came[1]) if came else None
            step = ahead if ahead in nxt and rng.random() < 0.8 else rng.choice(nxt)
            target = (step[0] + 0.5, step[1] + 0.5)
            tries = 0
            while math.dist(self.pose()[:2], target) > 0.35 and len(self.actions) < steps:
                tries += 1
                if tries > 40:  # blocked (an invisible wall across the path): turn back
                    break
                if self.face(*target):
                    self.act("forward")
            came, cur = cur, (int(self.pose()[0]), int(self.pose()[1]))
        return in_demo_region(*self.pose()[:2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inspect", type=int, default=150)
    ap.add_argument("--path", type=int, default=50)
    ap.add_argument("--first-seed", type=int, default=50001)
    ap.add_argument("--out", default=str(Path(__file__).parent / "data" / "park_demos"))
    args = ap.parse_args()
    spec = resolve("park")
    env = GameEnv(spec, capture=None)
    space = space_to_dict(env.space)
    out = Path(args.out)
    written = {"inspect": 0, "path": 0}
    tried = {"inspect": 0, "path": 0}
    seed = args.first_seed
    t0 = time.perf_counter()
    try:
        for kind, want in (("inspect", args.inspect), ("path", args.path)):
            (out / kind).mkdir(parents=True, exist_ok=True)
            while written[kind] < want:
                seed += 1
                tried[kind] += 1
                demo = Demonstrator(env, seed)
                if kind == "path" and not in_demo_region(*demo.pose()[:2]):
                    continue
                ok = demo.inspect() if kind == "inspect" else demo.follow_paths(random.Random(seed))
                if not ok:
                    continue
                trace = Trace(spec.text, spec.config.model_dump(mode="json"), seed, space, demo.actions)
                written[kind] += 1
                (out / kind / f"{kind}_{written[kind]:03d}.json").write_text(trace.to_json())
                print(f"{kind} {written[kind]}/{want}: seed {seed}, {len(demo.actions)} steps"
                      + (f", {ok}" if kind == "inspect" else ""), flush=True)
    finally:
        env.close()
    summary = {"written": written, "tried": tried, "seconds": round(time.perf_counter() - t0, 1),
               "west_x": WEST_X, "path_steps": PATH_STEPS, "first_seed": args.first_seed}
    (out / "README.json").write_text(json.dumps(summary, indent=2))
    print(summary)


if __name__ == "__main__":
    main()
