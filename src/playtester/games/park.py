"""Park: a first-person pixel open world to test, after the PPGTA paper's Unreal city park.

The player walks a large park (a 96x96 tile map from ``layout_seed``) seen in first person through a
raycaster: pathways (a connected network of 2-tile-wide paths, the preferred area), grass, lakes (not
walkable), bridges where a path crosses a lake, a service area (a paved yard with a small building),
trees and a hedge around the park. Objects of interest (OOIs) of four types -- rock pillars, barrels,
tires and chairs -- stand along the pathways, some on or next to a path, some a few tiles off it. They
are billboards whose texture depends on the side they are seen from (8 faces, 45 degrees each, each face
with its own look); about half of the objects of each type show a texture bug on some of their faces.
The task of a tester is the paper's: explore the park, find the OOIs and look at them from every side.

The layout, the objects and their bugs come from ``random.Random(layout_seed)``; the textures from a
fixed seed. The start pose is drawn from the module-level :mod:`random` (seeded per episode by
playtester): a random pathway tile the player can leave, facing one of 8 directions; ``start=(x, y)``
or ``(x, y, angle)`` fixes it. The game never ends by itself (episodes are the driver's business).

The world is rendered at 160x120 (numpy: a DDA over all columns at once against tree, building and hedge
tiles, the ground looked up in a baked texture of the whole park, distance fog), scaled to the 640x480
window; the objects are then drawn at window resolution, hidden behind walls with the per-column depth
buffer.

Controls (the paper's 9 actions):
    W / S               walk forward / back along the facing
    A / D               strafe left / right
    Left / Right        turn left / right
    Up / Down           look up / down (moves the horizon)
    Space               jump (a short vertical bob; it hops over nothing)
    Escape              quit

Instrumentation (:mod:`playtester.probe`), every frame: the features ``x, y`` (tiles), ``angle``
(degrees, 0 = east, 90 = south), ``pitch`` (window pixels the horizon moved down), ``z`` (jump height),
``on_path`` (1 on a path or bridge tile), ``visible`` (OOIs on screen), ``faces_seen``, ``oois_seen``
and ``oois_tested`` (OOIs all ``TESTED_FACES`` = 8 of whose faces were seen this episode, the rule of the
benches and the report's maps); the entity ``player`` (``angle``,
``pitch``, ``z``, ``on_path``) and one entity per OOI, ``ooi-i`` of kind ``rock_pillar``, ``barrel``,
``tire`` or ``chair``, with ``yaw`` (degrees), ``bugged``, ``bug_faces`` (8 entries: ``none``,
``lowres`` or ``stretched``), ``reachable`` (from the start region, the navigation bugs included),
``seen_faces``, and this frame's ``screen_box`` (``[x0, y0, x1, y1]`` window pixels of the part not
hidden behind walls, or None when the object is not on screen), ``face`` (the face shown, or None) and
``distance``. A face counts as seen when its object is on screen, within ``SEEN_DISTANCE`` tiles and its
box at least ``SEEN_MIN_HEIGHT`` pixels tall. Events: ``layout`` (once, at the start: sizes and
counts), ``face_seen`` (``ooi``, ``kind``, ``face``, ``bug``), ``ooi_tested`` (``ooi``, once its last face is
seen) and ``jump``.
Hooks: ``teleport(x, y, angle=None)``, ``walkable()`` (the real collision map, ``[y][x]``),
``pathways()`` (every path and bridge tile, ``[x, y]``) and ``layout()`` (the map as rows of
characters, the invisible walls, the objects).

Injected bugs (``INJECTED_BUGS``):
    lowres-texture      texture     About half of the objects of each type show some of their faces
                                    (1 to 3 of 8) with a low-resolution texture (downscaled 8x, then
                                    scaled back up: blocky). The entity attrs name the bugged faces.
    stretched-texture   texture     The same, with a stretched texture (the pattern scaled 3x along the
                                    width: wrong aspect). An object may mix both kinds.
    invisible-wall-k    navigation  ``k = 0 .. 2``: a line across a straight pathway that is drawn as path
                                    but blocks movement (the player has to walk round it on the grass).
    blocked-bridge      navigation  The only bridge to an island in a small lake blocks movement halfway
                                    (it is drawn as a normal bridge): the objects on the island cannot be
                                    reached (their ``reachable`` attr is False).
    sealed-grove        navigation  A path leads into a grove ringed by trees, but its entrance blocks
                                    movement: the objects in the clearing cannot be reached.

Run it with ``python -m playtester.games.park`` (``--layout-seed``, ``--fps 0`` for an uncapped loop).
"""

from __future__ import annotations

import argparse
import math
import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygame

from playtester import probe

__all__ = [
    "INJECTED_BUGS",
    "OOI_TYPES",
    "Layout",
    "Ooi",
    "Park",
    "generate_layout",
    "main",
    "reachable_tiles",
]

# ---- world -----------------------------------------------------------------------------------------
MAP_SIZE = 96
GRASS, PATH, WATER, BRIDGE, PAVED, TREE, BUILDING, HEDGE = range(8)
SOLID_TILES = (TREE, BUILDING, HEDGE)  # block movement and rays
BLOCKING_TILES = (WATER, TREE, BUILDING, HEDGE)  # block movement
TILE_CHARS = {GRASS: ".", PATH: "=", WATER: "~", BRIDGE: "#", PAVED: "_", TREE: "T", BUILDING: "B", HEDGE: "H"}

OOI_TYPES = ("rock_pillar", "barrel", "tire", "chair")
OOIS_PER_TYPE = 8  # in the open park; the island and the grove hold 3 more each
N_INVISIBLE_WALLS = 3

# ---- screen and camera -------------------------------------------------------------------------------
SCREEN_W, SCREEN_H = 640, 480
RENDER_W, RENDER_H = 160, 120
SCALE = SCREEN_W // RENDER_W
PLANE = 0.66  # tan(half the horizontal field of view): about 67 degrees
FOCAL = (SCREEN_W / 2) / PLANE  # window pixels per unit of height at distance 1
FOCAL_LOW = FOCAL / SCALE
MAX_DIST = 24.0  # view distance in tiles; fog grows towards it
WALL_H = 1.4
EYE_H = 0.5
FOG_START = 6.0

# ---- player --------------------------------------------------------------------------------------------
MOVE_SPEED = 0.06  # tiles per frame
TURN_SPEED = math.radians(3.0)  # per frame
PITCH_SPEED = 6  # window pixels per frame
MAX_PITCH = 120
JUMP_FRAMES = 14
JUMP_HEIGHT = 0.3
PLAYER_RADIUS = 0.2
DEFAULT_FPS = 30

# ---- testing the objects --------------------------------------------------------------------------------
SEEN_DISTANCE = 6.0
SEEN_MIN_HEIGHT = 32
N_FACES = 8
TESTED_FACES = N_FACES  # an OOI is tested when one episode saw all its faces (what the benches and maps count)

SKY_TOP = np.array((96, 150, 220), np.float32)
SKY_HORIZON = np.array((200, 220, 235), np.float32)
FOG = np.array((190, 205, 215), np.float32)


def _bug(id: str, kind: str, description: str) -> dict[str, Any]:
    return {"id": id, "kind": kind, "description": description}


INJECTED_BUGS: list[dict[str, Any]] = [
    _bug("lowres-texture", "texture", "About half of the objects of each type show 1 to 3 of their 8 faces with a "
         "low-resolution texture (downscaled 8x, then scaled back up: blocky)."),
    _bug("stretched-texture", "texture", "About half of the objects of each type show 1 to 3 of their 8 faces with a "
         "stretched texture (the pattern scaled 3x along the width)."),
    *[_bug(f"invisible-wall-{k}", "navigation", "A line across a straight pathway is drawn as path but blocks "
           "movement.") for k in range(N_INVISIBLE_WALLS)],
    _bug("blocked-bridge", "navigation", "The only bridge to a lake island blocks movement halfway: the objects on "
         "the island are unreachable."),
    _bug("sealed-grove", "navigation", "The path into a tree-ringed grove is blocked at its entrance: the objects in "
         "the clearing are unreachable."),
]

Tile = tuple[int, int]


# ==============================================================================================================
# Layout
# ==============================================================================================================
@dataclass
class Ooi:
    """An object of interest: where it stands, its type, which way it faces and which faces are bugged."""

    index: int
    kind: str
    x: float
    y: float
    yaw: float  # radians; face 0 looks along yaw
    bug_faces: list[str] = field(default_factory=lambda: ["none"] * N_FACES)
    area: str = "park"  # park, island or grove
    reachable: bool = True

    @property
    def id(self) -> str:
        return f"ooi-{self.index}"

    @property
    def bugged(self) -> bool:
        return any(b != "none" for b in self.bug_faces)


@dataclass
class Layout:
    """A generated park: ``tiles[y, x]``, the invisible walls, the objects and the start tiles."""

    tiles: np.ndarray
    invisible: np.ndarray  # bool [y, x]: drawn as what tiles says, but blocks movement
    oois: list[Ooi]
    bugs: dict[str, list[Tile]]  # navigation bug id -> its tiles
    start_tiles: list[Tile]  # path tiles of the region the player can walk, sorted
    service_area: tuple[int, int, int, int]  # x, y, w, h
    island: tuple[int, int]  # centre tile
    grove: tuple[int, int]  # centre tile

    @property
    def size(self) -> int:
        return int(self.tiles.shape[0])

    def blocked(self) -> np.ndarray:
        """Movement blocked ``[y, x]``: water, trees, the building, the hedge, the invisible walls."""
        return np.isin(self.tiles, BLOCKING_TILES) | self.invisible

    def path_tiles(self) -> list[Tile]:
        ys, xs = np.nonzero(np.isin(self.tiles, (PATH, BRIDGE)))
        return sorted(zip(xs.tolist(), ys.tolist(), strict=True))


def reachable_tiles(blocked: np.ndarray, start: Tile) -> np.ndarray:
    """Tiles reachable from ``start`` with 4-neighbour steps over unblocked tiles (bool ``[y, x]``)."""
    h, w = blocked.shape
    seen = np.zeros_like(blocked, dtype=bool)
    sx, sy = start
    if blocked[sy, sx]:
        return seen
    seen[sy, sx] = True
    queue: deque[Tile] = deque([start])
    while queue:
        x, y = queue.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and not seen[ny, nx] and not blocked[ny, nx]:
                seen[ny, nx] = True
                queue.append((nx, ny))
    return seen


def _boxes_overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int], margin: int = 0) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return not (ax + aw + margin <= bx or bx + bw + margin <= ax or ay + ah + margin <= by or by + bh + margin <= ay)


def _segment_tiles(a: Tile, b: Tile, horizontal_first: bool) -> list[Tile]:
    """The tiles of a 2-wide L-shaped path from ``a`` to ``b``."""
    (ax, ay), (bx, by) = a, b
    corner = (bx, ay) if horizontal_first else (ax, by)
    out: list[Tile] = []
    for (x0, y0), (x1, y1) in ((a, corner), (corner, b)):
        if y0 == y1:
            for x in range(min(x0, x1), max(x0, x1) + 2):
                out += [(x, y0), (x, y0 + 1)]
        else:
            for y in range(min(y0, y1), max(y0, y1) + 2):
                out += [(x0, y), (x0 + 1, y)]
    return out


def generate_layout(layout_seed: int = 0, size: int = MAP_SIZE) -> Layout:
    """Generate the park for ``layout_seed`` (deterministic; does not touch the module-level random).

    Raises:
        ValueError: If ``layout_seed`` is not an int or ``size`` is below 64.
    """
    if isinstance(layout_seed, bool) or not isinstance(layout_seed, int):
        raise ValueError(f"layout_seed must be an int, got {layout_seed!r}")
    if isinstance(size, bool) or not isinstance(size, int) or size < 64:
        raise ValueError(f"size must be an int >= 64, got {size!r}")
    rng = random.Random(layout_seed)
    n = size
    tiles = np.full((n, n), GRASS, np.uint8)
    invisible = np.zeros((n, n), bool)
    yy, xx = np.mgrid[0:n, 0:n]

    # -- reserved boxes: service area, island lake, grove (x, y, w, h) --------------------------------
    boxes: list[tuple[int, int, int, int]] = []

    def place_box(w: int, h: int) -> tuple[int, int, int, int]:
        for _ in range(500):
            box = (rng.randint(4, n - 4 - w), rng.randint(4, n - 4 - h), w, h)
            if not any(_boxes_overlap(box, other, 8) for other in boxes):
                boxes.append(box)
                return box
        raise RuntimeError("could not place the park's areas")  # pragma: no cover - 96 tiles leave room

    service = place_box(16, 12)
    island_box = place_box(15, 15)
    grove_box = place_box(11, 11)

    # -- lakes -------------------------------------------------------------------------------------------
    for _ in range(4):
        cx, cy = rng.uniform(12, n - 12), rng.uniform(12, n - 12)
        rx, ry = rng.uniform(4, 9), rng.uniform(4, 9)
        k, phase, amp = rng.randint(2, 5), rng.uniform(0, 2 * math.pi), rng.uniform(0.1, 0.25)
        theta = np.arctan2(yy - cy, xx - cx)
        d = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2
        tiles[d * (1 + amp * np.sin(k * theta + phase)) < 1] = WATER
    for bx, by, bw, bh in boxes:
        tiles[by - 2:by + bh + 2, bx - 2:bx + bw + 2] = GRASS

    # -- service area: paved yard, building at its back, entrance at the middle of the front --------------
    sx, sy, sw, sh = service
    tiles[sy:sy + sh, sx:sx + sw] = PAVED
    tiles[sy + 1:sy + 5, sx + 4:sx + 11] = BUILDING
    service_door = (sx + sw // 2, sy + sh)

    # -- island lake: water ring, island, one bridge towards the park centre (its middle is the bug) -------
    ix, iy, iw, ih = island_box
    icx, icy = ix + iw // 2, iy + ih // 2
    dist2 = (xx - icx) ** 2 + (yy - icy) ** 2
    tiles[dist2 <= 7 ** 2] = WATER
    tiles[dist2 <= 3 ** 2] = GRASS
    down = icy < n // 2  # the bridge points at the park's centre, vertically
    sign = 1 if down else -1
    bridge_tiles = [(icx + dx, icy + sign * r) for r in range(3, 9) for dx in (0, 1)]
    for x, y in bridge_tiles:
        tiles[y, x] = BRIDGE
    blocked_bridge = [(icx + dx, icy + sign * 5) for dx in (0, 1)]
    island_foot = (icx, icy + sign * 9)

    # -- grove: two rings of trees, a clearing, an entrance from the park centre's side --------------------
    gx, gy, gw, gh = grove_box
    gcx, gcy = gx + gw // 2, gy + gh // 2
    ring = np.maximum(np.abs(xx - gcx), np.abs(yy - gcy))
    tiles[(ring >= 4) & (ring <= 5)] = TREE
    tiles[ring <= 3] = GRASS
    gsign = 1 if gcx < n // 2 else -1  # the entrance points at the centre, horizontally
    entrance = [(gcx + gsign * r, gcy + dy) for r in range(3, 8) for dy in (0, 1)]
    for x, y in entrance:
        tiles[y, x] = PATH
    sealed = [(gcx + gsign * 4, gcy + dy) for dy in (0, 1)]
    grove_foot = (gcx + gsign * 7, gcy)

    # -- pathway network: random nodes + the three entrances, MST of L-shaped paths, a few loops ----------
    nodes: list[Tile] = [service_door, island_foot, grove_foot]
    tries = 0
    while len(nodes) < 16 and tries < 2000:
        tries += 1
        p = (rng.randint(6, n - 8), rng.randint(6, n - 8))
        if any(abs(p[0] - q[0]) + abs(p[1] - q[1]) < 14 for q in nodes):
            continue
        if any(_boxes_overlap((p[0] - 1, p[1] - 1, 4, 4), b, 1) for b in boxes):
            continue
        nodes.append(p)

    def feasible(a: Tile, b: Tile) -> list[Tile] | None:
        for first in (True, False):
            cells = _segment_tiles(a, b, first)
            if all(2 <= x < n - 2 and 2 <= y < n - 2 for x, y in cells) and not any(
                bx <= x < bx + bw and by <= y < by + bh
                for x, y in cells for bx, by, bw, bh in boxes
            ):
                return cells
        return None

    edges = []
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            cells = feasible(nodes[i], nodes[j])
            if cells is not None:
                (ax, ay), (bx, by) = nodes[i], nodes[j]
                edges.append((abs(ax - bx) + abs(ay - by), i, j, cells))
    edges.sort(key=lambda e: (e[0], e[1], e[2]))
    parent = list(range(len(nodes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    chosen, spare = [], []
    for e in edges:
        ri, rj = find(e[1]), find(e[2])
        if ri != rj:
            parent[ri] = rj
            chosen.append(e)
        else:
            spare.append(e)
    spare = [e for e in spare if e[0] < 40]
    chosen += rng.sample(spare, min(3, len(spare)))
    path_mask = np.zeros((n, n), bool)
    for _, _, _, cells in chosen:
        for x, y in cells:
            path_mask[y, x] = True
    # the service door sits on the yard's edge: the yard's paving stays
    water = tiles == WATER
    tiles[path_mask & water] = BRIDGE
    tiles[path_mask & (tiles == GRASS)] = PATH

    # -- trees: scattered and in clumps, never on or beside a path ----------------------------------------
    near_path = np.zeros((n, n), bool)
    walk = np.isin(tiles, (PATH, BRIDGE, PAVED))
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            near_path |= np.roll(np.roll(walk, dy, 0), dx, 1)
    free_grass = (tiles == GRASS) & ~near_path
    for bx, by, bw, bh in boxes:
        free_grass[by - 1:by + bh + 1, bx - 1:bx + bw + 1] = False
    for y in range(n):
        for x in range(n):
            if free_grass[y, x] and rng.random() < 0.05:
                tiles[y, x] = TREE
    for _ in range(10):
        cx, cy, r = rng.randint(8, n - 9), rng.randint(8, n - 9), rng.randint(2, 3)
        for y in range(cy - r, cy + r + 1):
            for x in range(cx - r, cx + r + 1):
                if free_grass[y, x] and (x - cx) ** 2 + (y - cy) ** 2 <= r * r and rng.random() < 0.6:
                    tiles[y, x] = TREE

    # -- hedge round the park ---------------------------------------------------------------------------------
    tiles[:2, :] = HEDGE
    tiles[-2:, :] = HEDGE
    tiles[:, :2] = HEDGE
    tiles[:, -2:] = HEDGE

    # -- navigation bugs ---------------------------------------------------------------------------------------
    bugs: dict[str, list[Tile]] = {"blocked-bridge": blocked_bridge, "sealed-grove": sealed}
    fair_reach = reachable_tiles(np.isin(tiles, BLOCKING_TILES), service_door)
    candidates: list[list[Tile]] = []
    for y in range(3, n - 4):
        for x in range(3, n - 4):
            if tiles[y, x] != PATH or not fair_reach[y, x]:
                continue
            if any(abs(x - bx) < 12 and abs(y - by) < 12 for bx, by in (service_door, island_foot, grove_foot)):
                continue
            # a horizontal path (rows y, y+1) running straight for 5 tiles, grass above and below
            row = tiles[y:y + 2, x - 2:x + 3]
            if (row == PATH).all() and tiles[y - 1, x] == GRASS and tiles[y + 2, x] == GRASS:
                candidates.append([(x, y), (x, y + 1)])
            col = tiles[y - 2:y + 3, x:x + 2]
            if (col == PATH).all() and tiles[y, x - 1] == GRASS and tiles[y, x + 2] == GRASS:
                candidates.append([(x, y), (x + 1, y)])
    walls: list[list[Tile]] = []
    for cand in rng.sample(candidates, len(candidates)):
        if all(abs(cand[0][0] - w[0][0]) + abs(cand[0][1] - w[0][1]) >= 20 for w in walls):
            walls.append(cand)
        if len(walls) == N_INVISIBLE_WALLS:
            break
    for k, wall in enumerate(walls):
        bugs[f"invisible-wall-{k}"] = wall
    for cells in bugs.values():
        for x, y in cells:
            invisible[y, x] = True

    blocked = np.isin(tiles, BLOCKING_TILES) | invisible
    reach = reachable_tiles(blocked, service_door)

    # -- objects of interest --------------------------------------------------------------------------------
    oois: list[Ooi] = []
    taken: list[Tile] = []

    def add(kind: str, tile: Tile, area: str) -> None:
        x, y = tile
        oois.append(Ooi(len(oois), kind, x + 0.5 + rng.uniform(-0.15, 0.15), y + 0.5 + rng.uniform(-0.15, 0.15),
                        rng.uniform(0, 2 * math.pi), area=area, reachable=bool(reach[y, x])))
        taken.append(tile)

    paths = [(x, y) for x, y in zip(*np.nonzero(tiles.T == PATH), strict=True) if reach[y, x]]
    paths = [(int(x), int(y)) for x, y in paths]
    for i in range(OOIS_PER_TYPE * len(OOI_TYPES)):
        kind = OOI_TYPES[i % len(OOI_TYPES)]
        off = (0, 1, 2, 2, 3, 4, 5)[i % 7]  # tiles off the path: some on it, most beside it, some further
        for _ in range(500):
            px, py = rng.choice(paths)
            ang = rng.uniform(0, 2 * math.pi)
            x, y = int(px + round(off * math.cos(ang))), int(py + round(off * math.sin(ang)))
            if not (0 <= x < n and 0 <= y < n) or not reach[y, x] or tiles[y, x] not in (GRASS, PATH, PAVED):
                continue
            if any(abs(x - tx) + abs(y - ty) < 6 for tx, ty in taken):
                continue
            if not all(reach[y + dy, x + dx] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                continue  # room to walk round it
            add(kind, (x, y), "park")
            break
    for k, (dx, dy) in enumerate(((-1, -1), (1, 0), (-1, 1))):
        add(OOI_TYPES[k], (icx + dx, icy + dy), "island")
    for k, (dx, dy) in enumerate(((-2, -2), (2, -1), (0, 2))):
        add(OOI_TYPES[3 - k], (gcx + dx, gcy + dy), "grove")

    # -- texture bugs: about half of each type, 1 to 3 faces each ---------------------------------------------
    for kind in OOI_TYPES:
        group = [o for o in oois if o.kind == kind]
        for o in rng.sample(group, len(group) // 2):
            for face in rng.sample(range(N_FACES), rng.randint(1, 3)):
                o.bug_faces[face] = rng.choice(("lowres", "stretched"))

    starts = [t for t in paths if not invisible[t[1], t[0]]]
    return Layout(tiles, invisible, oois, bugs, sorted(starts), service, (icx, icy), (gcx, gcy))


# ==============================================================================================================
# Textures (procedural, fixed seed)
# ==============================================================================================================
OOI_SIZE = {  # world width, height (tiles) and texture width, height (pixels)
    "rock_pillar": (0.5, 1.1, 40, 88),
    "barrel": (0.55, 0.7, 44, 56),
    "tire": (0.7, 0.55, 56, 44),
    "chair": (0.55, 0.8, 44, 64),
}
OOI_RADIUS = {"rock_pillar": 0.25, "barrel": 0.28, "tire": 0.3, "chair": 0.28}
FACE_TINTS = np.array([(1.0, 1.0, 1.0), (1.1, 0.9, 0.9), (0.9, 1.1, 0.9), (0.9, 0.9, 1.1),
                       (1.1, 1.1, 0.85), (1.1, 0.85, 1.1), (0.85, 1.1, 1.1), (0.8, 0.8, 0.8)], np.float32)


def _ooi_mask(kind: str, face: int, w: int, h: int) -> np.ndarray:
    """Silhouette ``[x, y]`` of an object's face (True where opaque)."""
    x = (np.arange(w)[:, None] + 0.5) / w
    y = (np.arange(h)[None, :] + 0.5) / h
    side = face % 4 == 2  # seen from the side (faces 2 and 6)
    if kind == "rock_pillar":
        half = 0.42 - 0.08 * y + 0.04 * np.sin(y * 17 + face)
        return (np.abs(x - 0.5) < half) & (y > 0.02)
    if kind == "barrel":
        bulge = 0.4 + 0.07 * np.sin(np.pi * y)
        return (np.abs(x - 0.5) < bulge) & (y > 0.03)
    if kind == "tire":
        if side:  # the tread, seen edge on
            return (np.abs(x - 0.5) < 0.2) & (y > 0.02)
        squash = 1.0 - 0.5 * (face % 2)  # diagonals: an ellipse
        r = np.hypot((x - 0.5) / (0.5 * squash), (y - 0.5) / 0.5)
        return (r < 1.0) & (r > 0.45)
    # chair: backrest, seat, legs; seen from the side an h-shaped profile
    if side:
        back = (x < 0.22) & (y < 0.62)
        seat = (y > 0.5) & (y < 0.62)
        legs = (y >= 0.62) & ((x < 0.16) | (x > 0.84))
        return back | seat | legs
    back = (np.abs(x - 0.5) < 0.42) & (y < 0.5)
    seat = (np.abs(x - 0.5) < 0.46) & (y >= 0.5) & (y < 0.62)
    legs = (y >= 0.62) & ((np.abs(x - 0.1) < 0.06) | (np.abs(x - 0.9) < 0.06))
    return back | seat | legs


def _ooi_pattern(kind: str, face: int, w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """Colours ``[x, y, 3]`` (float) of an object's face, many distinct colours, the face's own look."""
    x = (np.arange(w)[:, None] + 0.5) / w * np.ones((1, h))
    y = (np.arange(h)[None, :] + 0.5) / h * np.ones((w, 1))
    noise = rng.normal(0, 14, (w, h, 3))
    if kind == "rock_pillar":
        base = np.array((128, 124, 118)) + 30 * np.sin(y[..., None] * 23 + x[..., None] * 5 + face)
        crack = (np.abs(np.sin(x * 9 + y * 31 + face * 1.7)) < 0.08)[..., None]
        col = np.where(crack, base * 0.5, base)
    elif kind == "barrel":
        staves = 0.8 + 0.2 * (np.floor(x * 7) % 2)[..., None]
        col = np.array((150, 60, 40)) * staves
        hoops = ((np.abs(y - 0.2) < 0.05) | (np.abs(y - 0.8) < 0.05))[..., None]
        col = np.where(hoops, np.array((90, 90, 100)), col)
    elif kind == "tire":
        tread = (np.floor(x * 12 + y * 12 + face) % 2)[..., None]
        col = np.array((40, 40, 45)) + 25 * tread
    else:
        grain = 20 * np.sin(y[..., None] * 60 + 3 * np.sin(x[..., None] * 7 + face))
        col = np.array((170, 120, 60)) + grain
    col = col * FACE_TINTS[face]
    # the face's mark: face+1 small squares in a row near the top (so a face shows only from its side)
    mark = np.zeros((w, h), bool)
    for k in range(face + 1):
        cx = 0.2 + 0.6 * (k + 0.5) / (face + 1)
        mark |= (np.abs(x - cx) < 0.25 / (face + 1)) & (np.abs(y - 0.35) < 0.04)
    col = np.where(mark[..., None], np.array((240, 220, 60)), col)
    return np.clip(col + noise, 0, 255)


def _lowres(col: np.ndarray, factor: int = 8) -> np.ndarray:
    w, h = col.shape[:2]
    out = col.copy()
    for bx in range(0, w, factor):
        for by in range(0, h, factor):
            out[bx:bx + factor, by:by + factor] = col[bx:bx + factor, by:by + factor].mean(axis=(0, 1))
    return out


def _stretched(col: np.ndarray, factor: int = 3) -> np.ndarray:
    w = col.shape[0]
    src = (np.arange(w) // factor + w * (factor - 1) // (2 * factor)).clip(0, w - 1)
    return col[src]


def _face_surface(col: np.ndarray, mask: np.ndarray) -> pygame.Surface:
    rgb = np.round(col).astype(np.uint8)
    rgb[~mask] = (255, 0, 255)
    rgb[mask & (rgb == (255, 0, 255)).all(axis=2)] = (254, 0, 255)
    surf = pygame.Surface(mask.shape, 0, 24)
    pygame.surfarray.blit_array(surf, rgb)
    surf.set_colorkey((255, 0, 255))
    return surf


def make_ooi_textures() -> dict[tuple[str, int, str], pygame.Surface]:
    """Every object texture: ``(kind, face, bug)`` with bug ``none``, ``lowres`` or ``stretched``."""
    rng = np.random.default_rng(20240601)
    out: dict[tuple[str, int, str], pygame.Surface] = {}
    for kind in OOI_TYPES:
        _, _, tw, th = OOI_SIZE[kind]
        for face in range(N_FACES):
            mask = _ooi_mask(kind, face, tw, th)
            col = _ooi_pattern(kind, face, tw, th, rng)
            out[kind, face, "none"] = _face_surface(col, mask)
            out[kind, face, "lowres"] = _face_surface(_lowres(col), mask)
            out[kind, face, "stretched"] = _face_surface(_stretched(col), mask)
    return out


WALL_TU, WALL_TV = 16, 32
FOG_LEVELS = 16


def make_wall_textures() -> np.ndarray:
    """Wall textures ``[fog level, side, tile type, u, v, 3]`` uint8 (fog and side shading baked in)."""
    rng = np.random.default_rng(7)
    u = (np.arange(WALL_TU)[:, None] + 0.5) / WALL_TU * np.ones((1, WALL_TV))
    v = (np.arange(WALL_TV)[None, :] + 0.5) / WALL_TV * np.ones((WALL_TU, 1))
    tex = np.zeros((8, WALL_TU, WALL_TV, 3), np.float32)
    leaves = np.array((40, 105, 45)) + rng.normal(0, 18, (WALL_TU, WALL_TV, 3))
    trunk = ((np.abs(u - 0.5) < 0.16) & (v > 0.8))[..., None]
    tex[TREE] = np.where(trunk, np.array((95, 65, 40)), leaves * (0.75 + 0.25 * (1 - v))[..., None])
    bricks = ((np.floor(v * 12) % 1 == 0) & ((v * 12) % 1 < 0.12)) | (((u * 4 + 0.5 * (np.floor(v * 12) % 2)) % 1) < 0.08)
    tex[BUILDING] = np.where(bricks[..., None], np.array((200, 195, 185)), np.array((170, 90, 70)))
    window = (np.abs(u - 0.5) < 0.2) & (np.abs(v - 0.35) < 0.15)
    tex[BUILDING] = np.where(window[..., None], np.array((60, 90, 130)), tex[BUILDING])
    tex[HEDGE] = np.array((30, 80, 35)) + rng.normal(0, 14, (WALL_TU, WALL_TV, 3))
    out = np.zeros((FOG_LEVELS, 2, 8, WALL_TU, WALL_TV, 3), np.uint8)
    for level in range(FOG_LEVELS):
        f = level / (FOG_LEVELS - 1)
        for side, shade in ((0, 1.0), (1, 0.78)):
            out[level, side] = np.clip(tex * shade * (1 - f) + FOG * f, 0, 255).astype(np.uint8)
    return out


GROUND_RES = 4  # texels per tile


def make_ground(layout: Layout) -> np.ndarray:
    """The baked ground of the whole park, ``[x, y, 3]`` uint8 at ``GROUND_RES`` texels per tile."""
    rng = np.random.default_rng(11)
    n, r = layout.size, GROUND_RES
    tiles = layout.tiles.T  # [x, y]
    t = np.repeat(np.repeat(tiles, r, 0), r, 1)
    palette = np.zeros((8, 3), np.float32)
    palette[GRASS] = (70, 140, 60)
    palette[PATH] = (200, 180, 130)
    palette[WATER] = (50, 100, 170)
    palette[BRIDGE] = (130, 90, 55)
    palette[PAVED] = (150, 150, 150)
    palette[TREE] = (45, 95, 40)
    palette[BUILDING] = (110, 110, 110)
    palette[HEDGE] = (40, 90, 40)
    col = palette[t]
    tx = np.arange(n * r)[:, None] * np.ones((1, n * r), int)
    ty = np.arange(n * r)[None, :] * np.ones((n * r, 1), int)
    col += rng.normal(0, 6, col.shape) * (t == GRASS)[..., None]
    col[(t == GRASS) & ((tx // r + ty // r) % 2 == 0)] *= 0.93  # checker for depth cues
    planks = (t == BRIDGE) & (((tx + ty) % r) == 0)
    col[planks] *= 0.7
    slabs = (t == PAVED) & ((tx % r == 0) | (ty % r == 0))
    col[slabs] *= 0.8
    ripples = (t == WATER) & (((tx * 3 + ty * 5) % 11) == 0)
    col[ripples] = (110, 150, 210)
    edge = (t == PATH) & ((tx % r == 0) | (ty % r == 0))
    col[edge] *= 0.95
    return np.clip(col, 0, 255).astype(np.uint8)


# ==============================================================================================================
# The game
# ==============================================================================================================
class Park:
    """State, rules and rendering of the park (no window needed until :meth:`draw`).

    Attributes:
        layout: The generated park.
        x, y: The player's position in tiles; ``angle`` in radians (0 = east, pi/2 = south).
        pitch: Window pixels the horizon is moved down (looking up) or up (negative: looking down).
        jump_frame: Frames into the current jump (0 when on the ground).
        seen: For each object, the faces seen so far.
        boxes: This frame's screen box and face of every object on screen (index -> ((x0, y0, x1, y1), face)).
    """

    def __init__(self, layout_seed: int = 0, start: Any = None) -> None:
        self.layout = generate_layout(layout_seed)
        self.layout_seed = layout_seed
        n = self.layout.size
        self.blocked = self.layout.blocked()
        self.solid = np.isin(self.layout.tiles, SOLID_TILES)
        self.solid_xy = np.ascontiguousarray(self.solid.T)
        self.tiles_xy = np.ascontiguousarray(self.layout.tiles.T)
        self.on_path_map = np.isin(self.layout.tiles, (PATH, BRIDGE))
        self.n = n
        self.oois = self.layout.oois
        self.ooi_x = np.array([o.x for o in self.oois])
        self.ooi_y = np.array([o.y for o in self.oois])
        self.seen: list[set[int]] = [set() for _ in self.oois]
        self.tested: set[int] = set()
        self.boxes: dict[int, tuple[tuple[int, int, int, int], int, float]] = {}
        self.frame = 0
        self.pitch = 0
        self.jump_frame = 0
        self.x, self.y, self.angle = self._start_pose(start)
        self._ooi_tex: dict[tuple[str, int, str], pygame.Surface] | None = None
        self._wall_tex: np.ndarray | None = None
        self._ground: np.ndarray | None = None
        self._low: pygame.Surface | None = None

    def _start_pose(self, start: Any) -> tuple[float, float, float]:
        if start is None:
            tx, ty = random.choice(self.layout.start_tiles)
            return tx + 0.5, ty + 0.5, random.randrange(8) * math.pi / 4
        if isinstance(start, str):
            start = [float(v) for v in start.replace(" ", "").split(",")]
        if not isinstance(start, (list, tuple)) or len(start) not in (2, 3):
            raise ValueError(f"start must be (x, y) or (x, y, angle in degrees), got {start!r}")
        x, y = float(start[0]), float(start[1])
        angle = math.radians(float(start[2])) if len(start) == 3 else 0.0
        if not self.free_at(x, y):
            raise ValueError(f"start {start!r} is not a free position")
        return x, y, angle

    # ---- rules ------------------------------------------------------------------------------------------
    @property
    def z(self) -> float:
        """Height of the jump this frame."""
        if self.jump_frame <= 0:
            return 0.0
        t = self.jump_frame / JUMP_FRAMES
        return 4 * JUMP_HEIGHT * t * (1 - t)

    def free_at(self, x: float, y: float) -> bool:
        """True when the player's body fits at ``(x, y)``: no blocking tile or object under it."""
        r = PLAYER_RADIUS
        for cx, cy in ((x - r, y - r), (x + r, y - r), (x - r, y + r), (x + r, y + r)):
            tx, ty = int(math.floor(cx)), int(math.floor(cy))
            if not (0 <= tx < self.n and 0 <= ty < self.n) or self.blocked[ty, tx]:
                return False
        d2 = (self.ooi_x - x) ** 2 + (self.ooi_y - y) ** 2
        for i in np.nonzero(d2 < 1.0)[0]:
            if d2[i] < (OOI_RADIUS[self.oois[i].kind] + PLAYER_RADIUS) ** 2:
                return False
        return True

    def try_move(self, dx: float, dy: float) -> None:
        """Move by ``(dx, dy)``, sliding along what blocks (each axis on its own)."""
        if dx and self.free_at(self.x + dx, self.y):
            self.x += dx
        if dy and self.free_at(self.x, self.y + dy):
            self.y += dy

    def update(self, keys: Any) -> None:
        """Advance one frame with the pressed-key state ``keys`` (``pygame.key.get_pressed()``)."""
        self.frame += 1
        if keys[pygame.K_LEFT]:
            self.angle -= TURN_SPEED
        if keys[pygame.K_RIGHT]:
            self.angle += TURN_SPEED
        self.angle %= 2 * math.pi
        if keys[pygame.K_UP]:
            self.pitch = min(MAX_PITCH, self.pitch + PITCH_SPEED)
        if keys[pygame.K_DOWN]:
            self.pitch = max(-MAX_PITCH, self.pitch - PITCH_SPEED)
        forward = (keys[pygame.K_w] - keys[pygame.K_s]) * MOVE_SPEED
        strafe = (keys[pygame.K_d] - keys[pygame.K_a]) * MOVE_SPEED
        if forward or strafe:
            ca, sa = math.cos(self.angle), math.sin(self.angle)
            # right of the facing is (-sin, cos): facing east, the right hand points south (+y)
            self.try_move(forward * ca - strafe * sa, forward * sa + strafe * ca)
        if self.jump_frame > 0:
            self.jump_frame += 1
            if self.jump_frame >= JUMP_FRAMES:
                self.jump_frame = 0
        elif keys[pygame.K_SPACE]:
            self.jump_frame = 1
            probe.event("jump")

    def teleport(self, x: float, y: float, angle: float | None = None) -> bool:
        """Put the player at ``(x, y)`` (tiles), facing ``angle`` degrees if given (the ``teleport`` hook).

        Returns:
            True if the player was moved (the place is free).
        """
        if not self.free_at(float(x), float(y)):
            return False
        self.x, self.y = float(x), float(y)
        if angle is not None:
            self.angle = math.radians(float(angle)) % (2 * math.pi)
        return True

    def walkable(self) -> list[list[bool]]:
        """The real collision map, ``[y][x]`` True where the player can walk (the ``walkable`` hook)."""
        return (~self.blocked).tolist()

    def pathways(self) -> list[list[int]]:
        """Every path and bridge tile, ``[x, y]`` (the ``pathways`` hook)."""
        return [[x, y] for x, y in self.layout.path_tiles()]

    def layout_info(self) -> dict[str, Any]:
        """The map as rows of characters, the navigation bugs' tiles and the objects (the ``layout`` hook)."""
        rows = ["".join(TILE_CHARS[int(t)] for t in row) for row in self.layout.tiles]
        return {
            "rows": rows,
            "bugs": {k: [list(t) for t in v] for k, v in self.layout.bugs.items()},
            "oois": [{"id": o.id, "kind": o.kind, "x": o.x, "y": o.y, "yaw": math.degrees(o.yaw),
                      "bug_faces": list(o.bug_faces), "area": o.area, "reachable": o.reachable}
                     for o in self.oois],
        }

    def on_path(self) -> bool:
        return bool(self.on_path_map[int(self.y), int(self.x)])

    def face_seen_from(self, i: int, x: float, y: float) -> int:
        """Which face of object ``i`` is seen from ``(x, y)``."""
        o = self.oois[i]
        a = math.atan2(y - o.y, x - o.x) - o.yaw
        return int(round(a / (2 * math.pi / N_FACES))) % N_FACES

    # ---- rendering -----------------------------------------------------------------------------------
    def _prepare(self) -> None:
        if self._ooi_tex is None:
            self._ooi_tex = make_ooi_textures()
            self._wall_tex = make_wall_textures()
            self._ground = make_ground(self.layout)
            rows = np.arange(RENDER_H * 3)
            t = np.clip(rows / (RENDER_H * 1.5), 0, 1)[:, None]
            self._sky = (SKY_TOP * (1 - t) + SKY_HORIZON * t).astype(np.uint8)  # [rows, 3]
            self._cam = (2 * (np.arange(RENDER_W) + 0.5) / RENDER_W - 1).astype(np.float64)
            self._k = np.arange(int(MAX_DIST * 1.3) + 2, dtype=np.float64)[None, :]
            self._rows = np.arange(RENDER_H, dtype=np.float64) + 0.5

    def _cast(self, rdx: np.ndarray, rdy: np.ndarray) -> tuple[np.ndarray, ...]:
        """Vectorised DDA: for every column the perpendicular distance, side, tile type and texture u."""
        n, px, py = self.n, self.x, self.y
        rdx = np.where(np.abs(rdx) < 1e-9, 1e-9, rdx)
        rdy = np.where(np.abs(rdy) < 1e-9, 1e-9, rdy)
        mx, my = math.floor(px), math.floor(py)
        stepx, stepy = np.sign(rdx), np.sign(rdy)
        ddx, ddy = np.abs(1 / rdx), np.abs(1 / rdy)
        sdx = np.where(rdx < 0, (px - mx) * ddx, (mx + 1 - px) * ddx)
        sdy = np.where(rdy < 0, (py - my) * ddy, (my + 1 - py) * ddy)
        k = self._k
        cols = np.arange(len(rdx))
        # crossings of vertical grid lines: the ray enters column mx + (k+1)*stepx
        tx = sdx[:, None] + k * ddx[:, None]
        cx = (mx + (k + 1) * stepx[:, None]).astype(np.intp).clip(0, n - 1)
        cy = np.floor(py + tx * rdy[:, None]).astype(np.intp).clip(0, n - 1)
        hitx = self.solid_xy[cx, cy] & (tx < MAX_DIST)
        fx = hitx.argmax(axis=1)
        tX = np.where(hitx[cols, fx], tx[cols, fx], np.inf)
        ty = sdy[:, None] + k * ddy[:, None]
        ry = (my + (k + 1) * stepy[:, None]).astype(np.intp).clip(0, n - 1)
        rx = np.floor(px + ty * rdx[:, None]).astype(np.intp).clip(0, n - 1)
        hity = self.solid_xy[rx, ry] & (ty < MAX_DIST)
        fy = hity.argmax(axis=1)
        tY = np.where(hity[cols, fy], ty[cols, fy], np.inf)
        side = tY < tX
        dist = np.where(side, tY, tX)
        kind = np.where(side, self.tiles_xy[rx[cols, fy], ry[cols, fy]], self.tiles_xy[cx[cols, fx], cy[cols, fx]])
        d = np.where(np.isfinite(dist), dist, 0.0)
        hit = np.where(side, px + d * rdx, py + d * rdy)
        u = hit - np.floor(hit)
        return dist, side, kind, u

    def render_low(self) -> np.ndarray:
        """The 160x120 world image ``[x, y, 3]`` (no objects); fills the depth buffer ``self.zbuf``."""
        self._prepare()
        assert self._wall_tex is not None and self._ground is not None
        ca, sa = math.cos(self.angle), math.sin(self.angle)
        rdx = ca + (-sa * PLANE) * self._cam
        rdy = sa + (ca * PLANE) * self._cam
        dist, side, kind, u = self._cast(rdx, rdy)
        self.zbuf = dist
        eye = EYE_H + self.z
        horizon = RENDER_H / 2 + self.pitch / SCALE
        img = np.empty((RENDER_W, RENDER_H, 3), np.uint8)

        # sky: a gradient that moves with the horizon
        start = int(RENDER_H * 1.5 - horizon)
        img[:] = self._sky[start:start + RENDER_H][None, :, :]

        # ground: rows below the horizon, looked up in the baked park texture, fogged by distance
        first = max(0, int(math.floor(horizon + 0.5)))
        if first < RENDER_H:
            rows = self._rows[first:]
            below = np.maximum(rows - horizon, 1e-3)
            rowdist = eye * FOCAL_LOW / below
            wx = self.x + rdx[:, None] * rowdist[None, :]
            wy = self.y + rdy[:, None] * rowdist[None, :]
            gmax = self._ground.shape[0] - 1
            gx = (wx * GROUND_RES).astype(np.intp).clip(0, gmax)
            gy = (wy * GROUND_RES).astype(np.intp).clip(0, gmax)
            ground = self._ground[gx, gy].astype(np.float32)
            fog = np.clip((rowdist - FOG_START) / (MAX_DIST - FOG_START), 0, 1).astype(np.float32)[None, :, None]
            img[:, first:] = (ground + (FOG - ground) * fog).astype(np.uint8)

        # walls: trees, building, hedge, with baked fog and side shading
        hitcols = np.isfinite(dist)
        if hitcols.any():
            d = np.where(hitcols, dist, MAX_DIST)
            bottom = horizon + eye * FOCAL_LOW / d
            top = horizon + (eye - WALL_H) * FOCAL_LOW / d
            r = self._rows[None, :]
            mask = (r >= top[:, None]) & (r < bottom[:, None]) & hitcols[:, None]
            v = ((r - top[:, None]) / (bottom - top)[:, None] * WALL_TV).astype(np.intp).clip(0, WALL_TV - 1)
            ui = (u * WALL_TU).astype(np.intp).clip(0, WALL_TU - 1)
            level = (np.clip((d - FOG_START) / (MAX_DIST - FOG_START), 0, 1) * (FOG_LEVELS - 1)).astype(np.intp)
            cols = self._wall_tex[level[:, None], side.astype(np.intp)[:, None], kind.astype(np.intp)[:, None],
                                  ui[:, None], v]
            np.copyto(img, cols, where=mask[..., None])
        return img

    def draw(self, screen: pygame.Surface) -> None:
        """Render the frame onto the 640x480 ``screen`` and work out the objects' screen boxes."""
        img = self.render_low()
        assert self._ooi_tex is not None
        if self._low is None or self._low.get_bitsize() != screen.get_bitsize():
            self._low = pygame.Surface((RENDER_W, RENDER_H), 0, screen)
        pygame.surfarray.blit_array(self._low, img)
        pygame.transform.scale(self._low, (SCREEN_W, SCREEN_H), screen)
        self._draw_objects(screen)
        # crosshair
        cx, cy = SCREEN_W // 2, SCREEN_H // 2
        pygame.draw.line(screen, (255, 255, 255), (cx - 5, cy), (cx + 5, cy))
        pygame.draw.line(screen, (255, 255, 255), (cx, cy - 5), (cx, cy + 5))

    def _draw_objects(self, screen: pygame.Surface) -> None:
        assert self._ooi_tex is not None
        self.boxes = {}
        ca, sa = math.cos(self.angle), math.sin(self.angle)
        sx, sy = self.ooi_x - self.x, self.ooi_y - self.y
        depth = sx * ca + sy * sa
        lateral = -sx * sa + sy * ca
        eye = EYE_H + self.z
        horizon = SCREEN_H / 2 + self.pitch
        order = np.argsort(-depth)
        for i in order.tolist():
            d = float(depth[i])
            if d < 0.15 or d > MAX_DIST:
                continue
            o = self.oois[i]
            ww, wh, tw, th = OOI_SIZE[o.kind]
            cx = SCREEN_W / 2 * (1 + float(lateral[i]) / (d * PLANE))
            w, h = FOCAL * ww / d, FOCAL * wh / d
            x0, x1 = cx - w / 2, cx + w / 2
            y1 = horizon + eye * FOCAL / d
            y0 = y1 - h
            if x1 <= 0 or x0 >= SCREEN_W or y1 <= 0 or y0 >= SCREEN_H:
                continue
            # columns in front of the walls, in render columns
            c0, c1 = max(0, int(x0 // SCALE)), min(RENDER_W, int(math.ceil(x1 / SCALE)))
            front = self.zbuf[c0:c1] > d
            if not front.any():
                continue
            face = self.face_seen_from(i, self.x, self.y)
            tex = self._ooi_tex[o.kind, face, o.bug_faces[face]]
            vx0, vx1 = max(0.0, x0), min(float(SCREEN_W), x1)
            vy0, vy1 = max(0.0, y0), min(float(SCREEN_H), y1)
            # the part of the texture on screen, scaled to its on-screen size
            ax0, ax1 = (vx0 - x0) / w * tw, (vx1 - x0) / w * tw
            ay0, ay1 = (vy0 - y0) / h * th, (vy1 - y0) / h * th
            area = pygame.Rect(int(ax0), int(ay0), max(1, math.ceil(ax1) - int(ax0)), max(1, math.ceil(ay1) - int(ay0)))
            area = area.clip(tex.get_rect())
            if area.w <= 0 or area.h <= 0:
                continue
            # scale the whole texels covered, then place so texel edges land where they should
            px0 = x0 + area.x / tw * w
            py0 = y0 + area.y / th * h
            sw = max(1, int(round(area.w / tw * w)))
            sh = max(1, int(round(area.h / th * h)))
            part = pygame.transform.scale(tex.subsurface(area), (sw, sh))
            ix0, iy0 = int(round(px0)), int(round(py0))
            # blit the runs of columns in front of the walls
            vis_x0, vis_x1 = SCREEN_W, 0
            run_start = None
            for j in range(c1 - c0 + 1):
                inside = j < c1 - c0 and bool(front[j])
                if inside and run_start is None:
                    run_start = j
                elif not inside and run_start is not None:
                    rx0 = max(int(math.floor(vx0)), (c0 + run_start) * SCALE)
                    rx1 = min(int(math.ceil(vx1)), (c0 + j) * SCALE)
                    if rx1 > rx0:
                        screen.blit(part, (rx0, iy0), pygame.Rect(rx0 - ix0, 0, rx1 - rx0, sh))
                        vis_x0, vis_x1 = min(vis_x0, rx0), max(vis_x1, rx1)
                    run_start = None
            if vis_x1 <= vis_x0:
                continue
            box = (vis_x0, max(0, int(math.floor(vy0))), vis_x1, min(SCREEN_H, int(math.ceil(vy1))))
            dist = math.hypot(float(sx[i]), float(sy[i]))
            self.boxes[i] = (box, face, dist)
            if dist <= SEEN_DISTANCE and box[3] - box[1] >= SEEN_MIN_HEIGHT and face not in self.seen[i]:
                self.seen[i].add(face)
                probe.event("face_seen", ooi=o.id, kind=o.kind, face=face, bug=o.bug_faces[face])
                if len(self.seen[i]) >= TESTED_FACES and i not in self.tested:
                    self.tested.add(i)
                    probe.event("ooi_tested", ooi=o.id)

    # ---- probe ---------------------------------------------------------------------------------------------
    def report(self) -> None:
        """Tell playtester about this frame (after :meth:`draw`, which works out the screen boxes)."""
        if not probe.active():
            return
        angle = round(math.degrees(self.angle), 3)
        on_path = int(self.on_path())
        probe.observe(x=self.x, y=self.y, angle=angle, pitch=self.pitch, z=self.z, on_path=on_path,
                      visible=len(self.boxes), faces_seen=sum(len(s) for s in self.seen),
                      oois_seen=sum(1 for s in self.seen if s), oois_tested=len(self.tested))
        probe.entity("player", "player", (self.x, self.y), angle=angle, pitch=self.pitch, z=self.z,
                     on_path=bool(on_path))
        for i, o in enumerate(self.oois):
            seen = self.boxes.get(i)
            probe.entity(o.id, o.kind, (o.x, o.y), yaw=round(math.degrees(o.yaw), 3), bugged=o.bugged,
                         bug_faces=tuple(o.bug_faces), reachable=o.reachable, area=o.area,
                         seen_faces=tuple(sorted(self.seen[i])),
                         screen_box=None if seen is None else seen[0],
                         face=None if seen is None else seen[1],
                         distance=None if seen is None else round(seen[2], 3))


def _validate_main_args(fps: int, max_frames: int | None) -> None:
    if isinstance(fps, bool) or not isinstance(fps, int) or fps < 0:
        raise ValueError(f"fps must be an int >= 0 (0 = unlimited), got {fps!r}")
    if max_frames is not None and (isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 0):
        raise ValueError(f"max_frames must be None or an int >= 0, got {max_frames!r}")


def main(layout_seed: int = 0, start: Sequence[float] | str | None = None, fps: int = DEFAULT_FPS,
         max_frames: int | None = None) -> None:
    """Play the park in a window until the player quits.

    Args:
        layout_seed: Seed of the park's layout, objects and bugs.
        start: ``(x, y)`` or ``(x, y, angle in degrees)`` (or ``"x,y[,angle]"``); None draws a random
            pathway tile and facing from the module-level :mod:`random`.
        fps: Frame-rate cap; 0 runs as fast as possible.
        max_frames: Return after this many frames (None: no limit).

    Raises:
        ValueError: If an argument is out of range.
    """
    _validate_main_args(fps, max_frames)
    game = Park(layout_seed=layout_seed, start=start)
    pygame.init()
    try:
        screen = pygame.display.set_mode((SCREEN_W, SCREEN_H))
        pygame.display.set_caption("Park")
        clock = pygame.time.Clock()
        probe.hook("teleport", game.teleport)
        probe.hook("walkable", game.walkable)
        probe.hook("pathways", game.pathways)
        probe.hook("layout", game.layout_info)
        probe.event("layout", size=game.n, layout_seed=layout_seed, oois=len(game.oois),
                    path_tiles=len(game.layout.path_tiles()),
                    unreachable=sum(1 for o in game.oois if not o.reachable))
        frames = 0
        running = max_frames is None or max_frames > 0
        while running:
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                    running = False
            game.update(pygame.key.get_pressed())
            game.draw(screen)
            game.report()
            pygame.display.flip()
            clock.tick(fps)
            frames += 1
            if max_frames is not None and frames >= max_frames:
                running = False
    finally:
        pygame.quit()


def _parse_args(argv: Iterable[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m playtester.games.park", description="Park")
    parser.add_argument("--layout-seed", type=int, default=0, help="seed of the park's layout")
    parser.add_argument("--start", default=None, help="x,y[,angle] start pose (default: random pathway tile)")
    parser.add_argument("--fps", type=int, default=DEFAULT_FPS, help="frame-rate cap, 0 = unlimited")
    parser.add_argument("--frames", type=int, default=None, help="quit after this many frames")
    return parser.parse_args(None if argv is None else list(argv))


if __name__ == "__main__":
    _args = _parse_args()
    main(layout_seed=_args.layout_seed, start=_args.start, fps=_args.fps, max_frames=_args.frames)
