"""Inside a worker: run a ViZDoom map or scenario (``doom:`` specs, the ``doom`` extra) as a playtester game.

Specs: ``doom:freedoom2:MAP01`` (a map of the Freedoom WADs that ViZDoom ships, monsters off: a level to
explore), ``doom:my_way_home`` (a scenario ``.cfg`` of ``vizdoom.scenarios_path``) or ``doom:path/to/file.cfg``.
``--game-arg monsters=true`` keeps a Freedoom map's monsters (and adds ``attack``); a scenario has ``attack``
when its own buttons include it. The engine runs headless (no window, 160x120, no HUD, no sound) and
deterministic per seed (``set_seed`` before ``new_episode``); one action holds its buttons for
``frames_per_action`` tics (4 by default: 35 tics are a second of game time).

What a step reports:
- the frame (RGB), ``info["screen_size"]``;
- the player as entity ``player`` and features ``x``/``y`` in **map tiles** (`TILE` map units, x east,
  y south: the report's bird's-eye orientation, origin at the map's north-west corner), plus ``pos_x``,
  ``pos_y``, ``angle`` (degrees, 0 east, counter-clockwise), ``health`` in the engine's units;
- every object in view (ViZDoom's labels buffer: ground truth) except the player, as an entity
  ``obj<ID>`` (the id of the object placed there on the map, `Geometry.objects`; ``thing<N>`` for one spawned
  or moved while playing) of kind ``barrel``, ``pillar``, ``item``, ``monster``, ``decoration`` or ``other`` with attrs ``class``
  (the engine's class name), ``screen_box`` ``[x0, y0, x1, y1]`` in screen pixels and ``distance`` (tiles);
  objects of interest also carry ``bug_faces`` ``["none"]`` and ``seen_faces`` (``[0]`` when the box is at least
  `SEEN_HEIGHT` pixels tall), so the report's bird's-eye maps show each one seen or missed.

The map's geometry (sectors, blocking lines, the objects placed, the player's start) is read once per
map by a second, short-lived engine with sector and object info on (`geometry`; cached on disk: those
buffers cost half the engine's speed when on every step). It gives the ``layout`` hook (rows of tiles
for the report's bird's-eye maps: ``_`` floor, ``B`` wall, ``D`` door, ``=`` the preferred route) and
`preferred_route`, the route the demonstrations follow (`bench/doom_demos.py`).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from playtester.drive import messages as wire
from playtester.drive.context import SpaceLike
from playtester.drive.episode import run_runner, send, serve
from playtester.drive.inputs import InputFrame
from playtester.drive.observation import EpisodeOptions, GameExit, Observation, resize_nearest
from playtester.drive.spec import GameSpec
from playtester.files import write_atomic

TILE = 32.0  # map units per tile (the player is 32 units wide)
NAV_CELL = 16.0  # map units per cell of the walking grid the route is planned on
PLAYER_RADIUS = 16.0
NAV_MARGIN = 24.0  # how far the route keeps the player's centre from walls (its radius and some room)
MAX_STEP_UP = 24.0  # Doom's step height
MIN_CLEARANCE = 56.0  # the player's height
RESOLUTION = "RES_160X120"
NO_ACTION = -1  # a raw step (`Worker.step` with inputs, not an action): no button held
SEEN_HEIGHT = 8  # screen pixels (of 120) an object's box must be tall for it to count as seen
GEOMETRY_VERSION = 1

TURN_DEG = 7.5  # degrees a turning action turns per tic (30 a step of 4 tics), at once: Doom's own turn keys
#               start slowly for 6 tics, so a random walker would hardly turn

MOVES: list[tuple[str, tuple[str, ...]]] = [
    ("forward", ("MOVE_FORWARD",)), ("turn left", ("TURN_LEFT",)), ("turn right", ("TURN_RIGHT",)),
    ("forward left", ("MOVE_FORWARD", "TURN_LEFT")), ("forward right", ("MOVE_FORWARD", "TURN_RIGHT")),
    ("backward", ("MOVE_BACKWARD",)), ("strafe left", ("MOVE_LEFT",)), ("strafe right", ("MOVE_RIGHT",)),
    ("use", ("USE",)),
]
ATTACK = ("attack", ("ATTACK",))
BUTTONS = ["MOVE_FORWARD", "MOVE_BACKWARD", "TURN_LEFT_RIGHT_DELTA", "MOVE_LEFT", "MOVE_RIGHT", "USE", "ATTACK"]


def button_values(pressed: tuple[str, ...]) -> list[float]:
    """The engine's button vector of an action (turning through the delta button: `TURN_DEG` a tic)."""
    row = [0.0] * len(BUTTONS)
    for b in pressed:
        if b in ("TURN_LEFT", "TURN_RIGHT"):
            row[BUTTONS.index("TURN_LEFT_RIGHT_DELTA")] = -TURN_DEG if b == "TURN_LEFT" else TURN_DEG
        else:
            row[BUTTONS.index(b)] = 1.0
    return row

BARRELS = {"ExplosiveBarrel", "BurningBarrel"}
PILLARS = {"Column", "TechPillar", "ShortGreenColumn", "TallGreenColumn", "ShortRedColumn", "TallRedColumn",
           "SkullColumn", "HeartColumn", "EvilEye", "FloatingSkull", "TechLamp", "TechLamp2", "TallTechLamp"}
ITEMS = {"HealthBonus", "ArmorBonus", "Stimpack", "Medikit", "Soulsphere", "Megasphere", "InvulnerabilitySphere",
         "BlurSphere", "Berserk", "RadSuit", "Infrared", "Allmap", "Backpack", "GreenArmor", "BlueArmor", "Clip",
         "ClipBox", "Shell", "ShellBox", "RocketAmmo", "RocketBox", "Cell", "CellPack", "BlueCard", "RedCard",
         "YellowCard", "BlueSkull", "RedSkull", "YellowSkull", "Chainsaw", "Pistol", "Shotgun", "SuperShotgun",
         "Chaingun", "RocketLauncher", "PlasmaRifle", "BFG9000"}
MONSTERS = {"ZombieMan", "ShotgunGuy", "ChaingunGuy", "DoomImp", "Demon", "Spectre", "LostSoul", "Cacodemon",
            "HellKnight", "BaronOfHell", "Arachnotron", "PainElemental", "Revenant", "Fatso", "Archvile",
            "SpiderMastermind", "Cyberdemon", "WolfensteinSS", "MarineChainsawVzd", "CommanderKeen"}
OOI_KINDS = ("barrel", "pillar", "item")  # the objects of interest


def category(name: str) -> str:
    """The kind of an object, by its engine class name: barrel, pillar, item, monster, decoration, player, or
    other (projectiles, puffs, blood: what the engine spawns while playing)."""
    if name == "DoomPlayer":
        return "player"
    if name in BARRELS:
        return "barrel"
    if name in PILLARS:
        return "pillar"
    if name in ITEMS:
        return "item"
    if name in MONSTERS:
        return "monster"
    if name.startswith(("Dead", "Gibbed", "Nonsolid", "Hanging", "Meat", "Torch", "Big", "Stalag", "Candle",
                        "Short", "Tall", "Blue", "Red", "Green", "Hang", "Gibs", "Colon", "Brain",
                        "Heads", "Impaled", "Live", "Skull", "Stick", "Pool", "Corpse")):
        return "decoration"
    return "other"


def vizdoom() -> Any:
    """The ``vizdoom`` module, or a UsageError naming the ``doom`` extra."""
    from playtester.extras import require

    return require("vizdoom", "doom", "doom: games (ViZDoom)")


@dataclass(frozen=True)
class Scenario:
    """What a ``doom:`` spec names: a config file, and for a Freedoom map the WAD and map."""

    config: str
    wad: str | None = None
    map: str | None = None
    monsters: bool = True
    attack: bool = True  # an ``attack`` action: a Freedoom map with its monsters, a scenario whose buttons have it

    def key(self) -> str:
        text = json.dumps([self.config, self.wad, self.map, self.monsters, GEOMETRY_VERSION])
        for p in (self.config, self.wad):
            if p and os.path.isfile(p):
                text += f"{os.path.getsize(p)}:{os.path.getmtime(p)}"
        return hashlib.sha1(text.encode()).hexdigest()[:16]


def scenario(target: str, game_args: dict[str, Any] | None = None) -> Scenario:
    """The scenario of ``doom:TARGET``.

    Raises:
        GameSpecError: the target names no WAD map, scenario or config file.
    """
    from playtester.errors import GameSpecError

    vzd = vizdoom()
    args = dict(game_args or {})
    unknown = sorted(set(args) - {"monsters"})
    if unknown:
        raise GameSpecError(f"doom:{target}: unknown --game-arg {', '.join(unknown)}; doom: games take monsters=true|false")
    package = Path(vzd.__file__).resolve().parent
    scenarios = Path(vzd.scenarios_path)
    wad_name, sep, map_name = target.partition(":")
    if sep and wad_name in ("freedoom1", "freedoom2"):
        if not map_name:
            raise GameSpecError(f"doom:{target} names no map; write e.g. doom:freedoom1:E1M1 or doom:freedoom2:MAP01")
        monsters = bool(args.get("monsters", False))
        return Scenario(str(scenarios / f"{wad_name}.cfg"), str(package / f"{wad_name}.wad"), map_name.upper(),
                        monsters, attack=monsters)
    path = Path(target).expanduser()
    if path.suffix != ".cfg":
        path = scenarios / f"{target}.cfg"
    if not path.is_file():
        names = sorted(p.stem for p in scenarios.glob("*.cfg"))
        raise GameSpecError(f"doom:{target}: no ViZDoom scenario {path.name} (in {scenarios}); write a map of the "
                            f"Freedoom WADs (doom:freedoom1:E1M1, doom:freedoom2:MAP01), a scenario ({', '.join(names)}) "
                            "or a path to a .cfg")
    game = vzd.DoomGame()  # the scenario's own buttons say whether it shoots (not initialised: no engine runs)
    game.load_config(str(path.resolve()))
    shoots = vzd.Button.ATTACK in game.get_available_buttons()
    return Scenario(str(path.resolve()), monsters=bool(args.get("monsters", True)), attack=shoots)


def moves(scn: Scenario) -> list[tuple[str, tuple[str, ...]]]:
    return MOVES + [ATTACK] if scn.attack else list(MOVES)


def declared_actions(spec: GameSpec) -> tuple[int, list[str]]:
    """The backend's ``declared``: the movement actions (and ``attack`` where monsters are on)."""
    names = [name for name, _ in moves(scenario(spec.target, spec.config.game_args))]
    return len(names), names


def _workdir() -> str:
    """A folder of our own for the engine's ``_vizdoom.ini`` and ``_vizdoom/`` (it writes them in its cwd)."""
    folder = Path(tempfile.gettempdir()) / f"playtester-vizdoom-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return str(folder)


def make_game(scn: Scenario, *, labels: bool = True, info: bool = False) -> Any:
    """An initialised headless ``DoomGame`` for ``scn`` (no window, no sound, no HUD, 160x120 RGB)."""
    vzd = vizdoom()
    work = _workdir()
    game = vzd.DoomGame()
    game.load_config(scn.config)
    if scn.wad:
        game.set_doom_scenario_path(scn.wad)
    if scn.map:
        game.set_doom_map(scn.map)
    if not scn.monsters:
        game.add_game_args("-nomonsters")
    game.set_doom_config_path(os.path.join(work, "_vizdoom.ini"))
    game.set_window_visible(False)
    game.set_sound_enabled(False)
    game.set_audio_buffer_enabled(False)
    game.set_automap_buffer_enabled(False)
    game.set_depth_buffer_enabled(False)
    game.set_render_hud(False)
    game.set_screen_resolution(getattr(vzd.ScreenResolution, RESOLUTION))
    game.set_screen_format(vzd.ScreenFormat.RGB24)
    game.set_labels_buffer_enabled(labels)
    game.set_objects_info_enabled(info)
    game.set_sectors_info_enabled(info)
    game.set_episode_timeout(0)  # playtester's max_episode_steps ends episodes
    game.set_available_buttons([getattr(vzd.Button, b) for b in BUTTONS])
    gv = vzd.GameVariable
    game.set_available_game_variables([gv.POSITION_X, gv.POSITION_Y, gv.ANGLE, gv.HEALTH])
    game.set_mode(vzd.Mode.PLAYER)
    cwd = os.getcwd()
    os.chdir(work)
    try:
        game.init()
    finally:
        os.chdir(cwd)
    return game


# ---- the map's geometry


@dataclass
class Geometry:
    """A map's sectors (floor, ceiling, lines ``(x1, y1, x2, y2, blocking)``), its objects at the start
    (``{"id", "class", "kind", "x", "y"}`` in map units), the player's start ``(x, y, angle)`` and bounds."""

    sectors: list[dict[str, Any]]
    objects: list[dict[str, Any]]
    start: tuple[float, float, float]
    bounds: tuple[float, float, float, float]  # min x, min y, max x, max y (map units)
    _nav: Any = field(default=None, repr=False)

    def to_tiles(self, x: float, y: float) -> tuple[float, float]:
        """Map units to tiles: x east, y south, from the map's north-west corner."""
        return (x - self.bounds[0]) / TILE, (self.bounds[3] - y) / TILE

    def from_tiles(self, tx: float, ty: float) -> tuple[float, float]:
        return self.bounds[0] + tx * TILE, self.bounds[3] - ty * TILE

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in tiles."""
        return (int((self.bounds[2] - self.bounds[0]) // TILE) + 1, int((self.bounds[3] - self.bounds[1]) // TILE) + 1)

    def ooi(self) -> list[dict[str, Any]]:
        """The objects of interest placed on the map (barrels, pillars, items), positions in tiles."""
        out = []
        for o in self.objects:
            if o["kind"] in OOI_KINDS:
                tx, ty = self.to_tiles(o["x"], o["y"])
                out.append({"id": f"obj{o['id']}", "kind": o["kind"], "class": o["class"], "x": tx, "y": ty,
                            "bug_faces": ["none"]})  # one face, no injected bug: the report's "tested" = seen
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"sectors": self.sectors, "objects": self.objects, "start": list(self.start),
                "bounds": list(self.bounds)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Geometry:
        return cls(d["sectors"], d["objects"], tuple(d["start"]), tuple(d["bounds"]))  # type: ignore[arg-type]

    def _grid(self, cell: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Cell centres (x, y arrays in map units, rows north to south) of a grid of ``cell`` units."""
        w = int((self.bounds[2] - self.bounds[0]) // cell) + 1
        h = int((self.bounds[3] - self.bounds[1]) // cell) + 1
        cx = self.bounds[0] + (np.arange(w) + 0.5) * cell
        cy = self.bounds[3] - (np.arange(h) + 0.5) * cell
        X, Y = np.meshgrid(cx, cy)
        return X, Y, np.zeros(X.shape, np.int32)

    def sector_index(self, cell: float) -> np.ndarray:
        """For each cell of a ``cell``-unit grid, the sector its centre lies in (-1: none); even-odd rule
        over each sector's lines, the smallest sector winning where sectors nest."""
        X, Y, _ = self._grid(cell)
        out = np.full(X.shape, -1, np.int32)
        area = np.full(X.shape, np.inf)
        for i, s in enumerate(self.sectors):
            a = np.asarray([ln[:4] for ln in s["lines"]], np.float64).reshape(-1, 4)
            if len(a) == 0:
                continue
            inside = np.zeros(X.shape, bool)
            for xa, ya, xb, yb in a:
                if ya == yb:
                    continue
                inside ^= ((ya > Y) != (yb > Y)) & (X < (xb - xa) * (Y - ya) / (yb - ya) + xa)
            size = (a[:, [0, 2]].max() - a[:, [0, 2]].min()) * (a[:, [1, 3]].max() - a[:, [1, 3]].min())
            better = inside & (size < area)
            out[better], area[better] = i, size
        return out

    def _blocked_near(self, cell: float, radius: float) -> np.ndarray:
        """Cells whose centre is within ``radius`` of a line the player cannot cross (blocking, or a step
        too high, or too little room under the ceiling on the other side)."""
        X, Y, _ = self._grid(cell)
        segs = []
        heights = {}
        for i, s in enumerate(self.sectors):
            for ln in s["lines"]:
                key = tuple(sorted([(ln[0], ln[1]), (ln[2], ln[3])]))
                heights.setdefault(key, []).append(i)
        for key, owners in heights.items():
            (xa, ya), (xb, yb) = key
            block = len(owners) < 2
            if not block:  # a closed door (no room under its ceiling) opens on USE: only its floor counts
                a, b = (self.sectors[j] for j in owners[:2])
                block = abs(a["floor"] - b["floor"]) > MAX_STEP_UP or (
                    not (_door(a) or _door(b))
                    and min(a["ceiling"], b["ceiling"]) - max(a["floor"], b["floor"]) < MIN_CLEARANCE)
            if block:
                segs.append((xa, ya, xb, yb))
        for s in self.sectors:
            for ln in s["lines"]:
                if ln[4]:
                    segs.append(tuple(ln[:4]))
        near = np.zeros(X.shape, bool)
        x0, y1 = X[0, 0], Y[0, 0]  # the first cell's centre (rows go south, columns east)
        h, w = X.shape
        for xa, ya, xb, yb in set(segs):  # each segment tests only the cells of its bounding box
            j0 = max(int((min(xa, xb) - radius - x0) // cell), 0)
            j1 = min(int((max(xa, xb) + radius - x0) // cell) + 2, w)
            i0 = max(int((y1 - max(ya, yb) - radius) // cell), 0)
            i1 = min(int((y1 - min(ya, yb) + radius) // cell) + 2, h)
            if j0 >= j1 or i0 >= i1:
                continue
            sx, sy = X[i0:i1, j0:j1], Y[i0:i1, j0:j1]
            dx, dy = xb - xa, yb - ya
            n2 = dx * dx + dy * dy or 1e-9
            t = np.clip(((sx - xa) * dx + (sy - ya) * dy) / n2, 0, 1)
            near[i0:i1, j0:j1] |= (sx - xa - t * dx) ** 2 + (sy - ya - t * dy) ** 2 < radius * radius
        return near

    def walkable(self, cell: float = NAV_CELL) -> np.ndarray:
        """Cells of a ``cell``-unit grid where the player's centre may stand, closed doors included (USE
        opens them), rows north to south."""
        if self._nav is not None and self._nav[0] == cell:
            return self._nav[1]
        sec = self.sector_index(cell)
        ok = (sec >= 0) & ~self._blocked_near(cell, NAV_MARGIN)
        self._nav = (cell, ok)
        return ok

    def rows(self, route: list[tuple[int, int]] | None = None) -> list[str]:
        """The map as rows of tiles for the report (`report.maps`): ``_`` floor, ``D`` a closed door (no room
        under the ceiling), ``B`` a wall, `` `` outside, ``=`` the preferred route's tiles."""
        sec = self.sector_index(TILE)
        room = np.array([s["ceiling"] - s["floor"] >= MIN_CLEARANCE for s in self.sectors] + [False])
        grid = np.full(sec.shape, " ")
        grid[sec >= 0] = "_"
        grid[(sec >= 0) & ~room[sec]] = "D"
        h, w = grid.shape
        for s in self.sectors:
            for xa, ya, xb, yb, blocking in s["lines"]:
                if not blocking:
                    continue
                n = int(max(abs(xb - xa), abs(yb - ya)) / (TILE / 4)) + 2
                for t in np.linspace(0.0, 1.0, n):
                    tx, ty = self.to_tiles(xa + (xb - xa) * t, ya + (yb - ya) * t)
                    i, j = min(int(ty), h - 1), min(int(tx), w - 1)
                    grid[i, j] = "B"
        for tx, ty in route or ():
            if 0 <= ty < h and 0 <= tx < w:
                grid[ty, tx] = "="
        return ["".join(r) for r in grid]


def _door(sector: dict[str, Any]) -> bool:
    """A closed door: no room for the player under its ceiling (USE raises it)."""
    return bool(sector["ceiling"] - sector["floor"] < MIN_CLEARANCE)


def _read_geometry(scn: Scenario) -> Geometry:
    game = make_game(scn, labels=False, info=True)
    try:
        game.set_seed(0)
        game.new_episode()
        state = game.get_state()
        sectors = [{"floor": float(s.floor_height), "ceiling": float(s.ceiling_height),
                    "lines": [[float(ln.x1), float(ln.y1), float(ln.x2), float(ln.y2), bool(ln.is_blocking)]
                              for ln in s.lines]} for s in state.sectors]
        objects = [{"id": int(o.id), "class": o.name, "kind": category(o.name), "x": float(o.position_x),
                    "y": float(o.position_y)} for o in state.objects if o.name != "DoomPlayer"]
        x, y, angle = (float(v) for v in state.game_variables[:3])
    finally:
        game.close()
    pts = np.asarray([ln[:4] for s in sectors for ln in s["lines"]], np.float64).reshape(-1, 4)
    bounds = (float(pts[:, [0, 2]].min()), float(pts[:, [1, 3]].min()), float(pts[:, [0, 2]].max()),
              float(pts[:, [1, 3]].max()))
    return Geometry(sectors, objects, (x, y, angle), bounds)


_GEOMETRY: dict[str, Geometry] = {}


def geometry(scn: Scenario) -> Geometry:
    """The map's geometry: from this process's memory, the on-disk cache, or a short-lived engine."""
    key = scn.key()
    if key in _GEOMETRY:
        return _GEOMETRY[key]
    path = Path(_workdir()) / f"geometry-{key}.json"
    geo = None
    if path.is_file():
        try:
            geo = Geometry.from_dict(json.loads(path.read_text()))
        except (ValueError, KeyError, TypeError):
            geo = None
    if geo is None:
        geo = _read_geometry(scn)
        write_atomic(path, json.dumps(geo.to_dict()))
    _GEOMETRY[key] = geo
    return geo


# ---- the preferred route


class Paths:
    """Shortest walkable paths from one point (a breadth-first tree over the `NAV_CELL` grid, 8-connected,
    no corner cutting) to anywhere the player can walk to from it without opening a door."""

    def __init__(self, geo: Geometry, start: tuple[float, float]) -> None:
        self.geo = geo
        self.ok = ok = geo.walkable()
        h, w = ok.shape
        s = _nearest_ok(ok, self.cell(start))
        self.prev: dict[tuple[int, int], tuple[int, int]] = {}
        if s is None:
            return
        self.prev[s] = s
        todo = deque([s])
        while todo:
            c = todo.popleft()
            for di, dj in ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
                n = (c[0] + di, c[1] + dj)
                if 0 <= n[0] < h and 0 <= n[1] < w and ok[n] and n not in self.prev:
                    if di and dj and not (ok[c[0] + di, c[1]] and ok[c[0], c[1] + dj]):
                        continue  # no corner cutting
                    self.prev[n] = c
                    todo.append(n)

    def cell(self, p: tuple[float, float]) -> tuple[int, int]:
        h, w = self.ok.shape
        return (min(max(int((self.geo.bounds[3] - p[1]) // NAV_CELL), 0), h - 1),
                min(max(int((p[0] - self.geo.bounds[0]) // NAV_CELL), 0), w - 1))

    def to(self, goal: tuple[float, float], reach: int = 3) -> list[tuple[float, float]] | None:
        """The path to ``goal`` (map units) as cell centres in map units; None: it cannot be reached."""
        g = _nearest_ok(self.ok, self.cell(goal), reach, self.prev)
        if g is None:
            return None
        path = [g]
        while self.prev[path[-1]] != path[-1]:
            path.append(self.prev[path[-1]])
        b = self.geo.bounds
        return [(b[0] + (j + 0.5) * NAV_CELL, b[3] - (i + 0.5) * NAV_CELL) for i, j in reversed(path)]


def plan_path(geo: Geometry, start: tuple[float, float], goal: tuple[float, float]) -> list[tuple[float, float]] | None:
    """The shortest walkable path between two points in map units (`Paths`); None when there is none."""
    return Paths(geo, start).to(goal)


def _nearest_ok(ok: np.ndarray, c: tuple[int, int], reach: int = 3,
                within: Any = None) -> tuple[int, int] | None:
    """The walkable cell nearest ``c`` within ``reach`` cells (and in ``within``, when given)."""
    best = None
    for di in range(-reach, reach + 1):
        for dj in range(-reach, reach + 1):
            n = (c[0] + di, c[1] + dj)
            if 0 <= n[0] < ok.shape[0] and 0 <= n[1] < ok.shape[1] and ok[n] and (within is None or n in within):
                d = di * di + dj * dj
                if best is None or d < best[0]:
                    best = (d, n)
    return best[1] if best else None


def preferred_route(geo: Geometry) -> tuple[list[tuple[float, float]], dict[str, Any]]:
    """The route a designer would want walked, from the map alone: from the player's start to the object of
    interest farthest from it by walking distance (doors opened on the way; barrels first, then pillars,
    then items: the first kind with one the start can reach), the shortest walkable way. Returns the path
    (map units, `NAV_CELL` apart) and the goal object.

    Raises:
        ValueError: the start reaches no object of interest.
    """
    paths = Paths(geo, geo.start[:2])
    for kind in OOI_KINDS:
        best: tuple[int, list[tuple[float, float]], dict[str, Any]] | None = None
        for o in geo.objects:
            if o["kind"] != kind:
                continue
            path = paths.to((o["x"], o["y"]))
            if path is not None and (best is None or len(path) > best[0]):
                best = (len(path), path, o)
        if best is not None:
            return best[1], best[2]
    raise ValueError("no object of interest can be reached from the player's start on this map")


def route_tiles(geo: Geometry, path: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """The tiles (x, y) a path in map units passes through, in order, without repeats."""
    out: list[tuple[int, int]] = []
    for x, y in path:
        tx, ty = geo.to_tiles(x, y)
        t = (int(tx), int(ty))
        if not out or out[-1] != t:
            if t not in out:
                out.append(t)
    return out


# ---- the episode


class DoomRunner:
    """Steps one ViZDoom game on commands from the parent (the `playtester.drive.episode.Episode`)."""

    def __init__(self, conn: Any, spec: GameSpec | None, seed: int, space: SpaceLike | None, capture: Any,
                 scn: Scenario | None = None) -> None:
        """``scn`` instead of ``spec`` and no ``conn``: a runner that only steps and observes, in this process
        (`offline`)."""
        self.conn, self.spec, self.space, self.capture = conn, spec, space, capture
        self.scn = scn if scn is not None else scenario(spec.target, spec.config.game_args)  # type: ignore[union-attr]
        self.geo = geometry(self.scn)
        self.game = make_game(self.scn)
        self.buttons = [button_values(pressed) for _, pressed in moves(self.scn)]
        # the labels' object ids are not the object info's: an object is known by its class and where it was placed
        self.ids = {(o["class"], round(o["x"]), round(o["y"])): f"obj{o['id']}" for o in self.geo.objects}
        self.seed = seed
        self.frame_no = 0
        self.total_reward = 0.0
        self.done = False
        self.ended = False
        self.pending: tuple[int, int] = (0, 1)
        self.last: Observation | None = None
        from playtester import probe

        probe.hook("layout", self.layout)
        probe.hook("objects", self.objects)

    @classmethod
    def offline(cls, scn: Scenario, seed: int = 0) -> DoomRunner:
        """A runner with no parent: `step` plays an action and returns the observation (benchmarks measure the
        engine and this process's observation code without the worker's round trip). Close ``.game`` after."""
        runner = cls(None, None, seed, None, None, scn)
        runner.game.set_seed(seed)
        runner.game.new_episode()
        return runner

    def step(self, action: int, frames: int = 4) -> Observation:
        """Play one action (`NO_ACTION`: none) for ``frames`` tics and observe (what `run` does between two
        commands)."""
        buttons = self.buttons[action] if action != NO_ACTION else [0.0] * len(BUTTONS)
        reward = float(self.game.make_action(buttons, frames))
        self.frame_no += frames
        self.total_reward += reward
        self.done = bool(self.game.is_episode_finished())
        return self.observe(reward, self.done)

    def layout(self) -> dict[str, Any]:
        """The ``layout`` hook: the map's rows with the preferred route (the report's bird's-eye maps)."""
        try:
            path, _ = preferred_route(self.geo)
            route = route_tiles(self.geo, path)
        except ValueError:
            route = []
        return {"rows": self.geo.rows(route), "tile": TILE}

    def objects(self) -> list[dict[str, Any]]:
        """The ``objects`` hook: the objects of interest placed on the map (positions in tiles)."""
        return self.geo.ooi()

    def observe(self, reward: float, done: bool) -> Observation:
        state = self.game.get_state()
        if state is None:  # the episode is over: the engine has no state; keep the last one's view
            last = self.last or Observation(frame=None)
            return Observation(frame=last.frame, features=dict(last.features), entities=dict(last.entities),
                               done=True, frame_no=self.frame_no, time_ms=self.frame_no * 1000 // 35,
                               reward=reward, action_mask=last.action_mask,
                               info={"inputs_read": 1, "screen_size": last.info.get("screen_size")})
        screen = state.screen_buffer
        h, w = screen.shape[:2]
        frame = None
        if self.capture is not None:
            frame = np.ascontiguousarray(screen)
            if isinstance(self.capture, tuple):
                frame = resize_nearest(frame, tuple(self.capture))
        x, y, angle, health = (float(v) for v in state.game_variables)
        tx, ty = self.geo.to_tiles(x, y)
        from playtester.drive.observation import Entity

        entities = {"player": Entity("player", "player", (tx, ty), {"angle": angle})}
        for lb in state.labels:
            name = lb.object_name
            if name == "DoomPlayer":
                continue
            ox, oy = self.geo.to_tiles(float(lb.object_position_x), float(lb.object_position_y))
            kind = category(name)
            attrs: dict[str, Any] = {"class": name, "distance": math.hypot(ox - tx, oy - ty),
                                     "screen_box": [int(lb.x), int(lb.y), int(lb.x + lb.width), int(lb.y + lb.height)]}
            if kind in OOI_KINDS:  # the report's bird's-eye maps count an object seen (its one face) from this
                attrs["bug_faces"], attrs["seen_faces"] = ["none"], [0] if lb.height >= SEEN_HEIGHT else []
            key = self.ids.get((name, round(lb.object_position_x), round(lb.object_position_y)))
            if key is None:  # spawned while playing (a puff, a dropped item) or moved (a monster): its own id
                key = f"thing{lb.object_id}"
            entities[key] = Entity(key, kind, (ox, oy), attrs)
        features = {"x": tx, "y": ty, "pos_x": x, "pos_y": y, "angle": angle, "health": health,
                    "reward_total": self.total_reward}
        mask = np.ones(len(self.space), dtype=np.int8) if self.space is not None else None
        obs = Observation(frame=frame, features=features, entities=entities, done=done, frame_no=self.frame_no,
                          time_ms=self.frame_no * 1000 // 35, reward=reward, action_mask=mask,
                          info={"inputs_read": 1, "screen_size": (w, h)})
        self.last = obs
        return obs

    # ---- the episode protocol (drive.episode.serve)
    def over(self) -> bool:
        return self.done

    def final_observation(self) -> Observation:
        obs = self.last or self.observe(0.0, True)
        return Observation(frame=obs.frame, features=dict(obs.features), entities=dict(obs.entities), done=True,
                           frame_no=self.frame_no, time_ms=obs.time_ms, reward=0.0, action_mask=obs.action_mask,
                           info=dict(obs.info))

    def perform(self, action: int) -> tuple[InputFrame, int | None]:
        return self.space.actions[action].inputs, None  # type: ignore[union-attr]

    def begin_step(self, inputs: InputFrame, frames: int, hold: int | None) -> None:
        self.pending = (inputs.native if inputs.native is not None else NO_ACTION, frames)  # raw inputs: none held

    def end(self) -> None:
        self.ended = True

    def call(self, target: str, args: tuple[Any, ...]) -> tuple[Any, Any]:
        """Run ``module:function(self, *args)`` (a playtester function: the hooks) in this process."""
        import importlib
        import traceback

        module, _, name = target.partition(":")
        if not module.startswith("playtester."):
            return False, f"refused to call {target!r}: only playtester functions run in the game process"
        try:
            return True, getattr(importlib.import_module(module), name)(self, *args)
        except Exception as e:  # noqa: BLE001 - reported to the parent
            return False, "".join(traceback.format_exception(e))[-4000:]

    def snapshot(self) -> None:
        send(self.conn, wire.SnapshotTaken(None))  # no snapshots: the campaign returns by replaying traces

    def run(self) -> None:
        self.game.set_seed(int(self.seed) % (2 ** 31))
        self.game.new_episode()
        send(self.conn, wire.Answer(self.observe(0.0, False)))
        while True:
            serve(self)
            if self.ended:
                return
            action, frames = self.pending
            if not (0 <= action < len(self.buttons) or action == NO_ACTION):
                raise ValueError(f"action {action} out of range: doom: games have {len(self.buttons)} actions")
            obs = self.step(action, frames)
            if self.done:
                obs.info["done_reason"] = ("the player died" if self.game.is_player_dead()
                                           else "the level ended (exit or timeout)")
            send(self.conn, wire.Answer(obs))


def run_doom_episode(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, opts: EpisodeOptions) -> None:
    """Body of an episode process for a ViZDoom game; the engine (a process of its own) ends with the episode."""
    run_runner(conn, getattr(spec.config, "memory_limit_mb", None),
               lambda: DoomRunner(conn, spec, seed, space, opts.capture), close=lambda r: r.game.close())


__all__ = ["GameExit", "Geometry", "Scenario", "category", "declared_actions", "geometry", "make_game",
           "preferred_route", "route_tiles", "run_doom_episode", "scenario"]
