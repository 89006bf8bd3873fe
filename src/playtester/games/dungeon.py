"""Dungeon: the explicit-plans article's example level, top-down and tile-based.

A hero walks a 20x15 grid of 32 px tiles. The level is the one of the article's Figure 9: a locked
door opened by a switch, a lava pit to jump over and an end-of-level shrine to activate, plus enemies
that chase the hero when near and hurt on contact, and coins to collect. A plan that completes it has
three nodes: toggle the switch, jump over the lava, interact with the shrine.

The hero moves one tile per step (``MOVE_FRAMES`` frames per tile, the position slides between tiles).
Walking into a wall or the closed door only turns the hero; walking into lava kills. A jump carries the
hero two tiles in the facing direction, over one tile of lava (or floor); landing in lava kills too.
Interact and attack act on what is next to the hero (the 8 tiles around it and its own tile).

Controls:
    Arrow keys or WASD   move one tile (hold to keep walking)
    E                    interact: the switch next to the hero opens the door, the shrine wins
    Space                attack: kills the enemies next to the hero or just in front of it
    J                    jump two tiles in the facing direction, over one tile of lava
    Escape               quit

Variants (``main(variant=...)``):
    base     the article's level.
    moved    the same walls; switch, shrine, enemies and coins at other positions.
    layout   a different wall layout: rooms stacked vertically, the door and the lava pit elsewhere.
    spawns   the base level; enemies appear at random floor tiles (module-level :mod:`random`, seeded
             per episode by playtester) at the start and then every ``SPAWN_EVERY`` frames.
    bug      the injected bug below.

Every variant except ``bug`` can be completed (:func:`solve` finds the inputs).

Instrumentation (:mod:`playtester.probe`), every frame: entities ``hero`` (``facing``, ``airborne``,
``hp``), ``switch-i`` (``on``), ``door-0`` (``open``), ``shrine`` (``active``), ``enemy-N``, ``coin-i``
and ``lava-i`` in tile units, and the features ``x, y, hp, coins, door_open, shrine_active``. Events:
``interact`` (``target`` id or None, ``kind``), ``attack``, ``jump``, ``landed``, ``switch_on``,
``door_opened``, ``shrine_activated``, ``win``, ``enemy_killed``, ``collected``, ``hurt``,
``hero_died``. Hooks: ``teleport(x, y)`` and ``walkable()``.

Injected bugs (``INJECTED_BUGS``):
    unreachable-switch   plan   Variant ``bug``: the switch was moved into a pocket sealed by walls (the
                                article's "button moved too high to reach"). No tile the hero can reach
                                is next to it, so the interact node of a plan never finds its target, the
                                door never opens and the plan's validation ("door_opened" after
                                interacting with the switch) fails.

Run it with ``python -m playtester.games.dungeon --variant base``.
"""

from __future__ import annotations

import argparse
import heapq
import math
import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from playtester import probe

__all__ = [
    "INJECTED_BUGS",
    "VARIANTS",
    "Coin",
    "Door",
    "Dungeon",
    "Enemy",
    "Hero",
    "LavaTile",
    "LevelData",
    "Shrine",
    "Switch",
    "interact_cells",
    "level_data",
    "main",
    "reachable",
    "solve",
    "walkable_grid",
]

Cell = tuple[int, int]

INJECTED_BUGS: list[dict[str, str]] = [
    {
        "id": "unreachable-switch",
        "kind": "plan",
        "variant": "bug",
        "message": "door never opens: switch unreachable",
        "description": "In variant 'bug' the switch sits in a pocket sealed by walls, so no tile the hero "
        "can reach is next to it: interacting never toggles it, the door never opens and the shrine "
        "cannot be reached. A plan 'activate the switch, jump the lava, interact with the shrine' fails "
        "its first node's validation.",
        "how": "Run variant 'bug' and follow the base level's plan: the switch cannot be reached.",
    },
]

# --- Screen and tuning ----------------------------------------------------------------------------------
COLS, ROWS = 20, 15
TILE = 32
HUD_HEIGHT = 24
SCREEN_W, SCREEN_H = COLS * TILE, ROWS * TILE + HUD_HEIGHT
DEFAULT_FPS = 60
MOVE_FRAMES = 6  # frames to walk one tile
JUMP_FRAMES = 12  # frames in the air for a two-tile jump
ATTACK_COOLDOWN = 15
ATTACK_RANGE = 1.5  # tiles from the hero's centre
ATTACK_FRONT_RANGE = 0.9  # tiles from the centre of the tile in front
REQUEST_FRAMES = 8  # an interact/jump pressed while walking waits this long for the hero to stop
MAX_HP = 3
HURT_FRAMES = 60
ENEMY_SPEED = 0.05  # tiles per frame
ENEMY_HALF = 0.35  # half the side of an enemy's collision box, in tiles
CHASE_RADIUS = 5.0
CONTACT_RANGE = 0.7
SPAWN_EVERY = 240
SPAWN_START = 3
MAX_ENEMIES = 6
SPAWN_MIN_DISTANCE = 5.0
END_FRAMES = 60  # frames of "You win" / "You died" before main() returns

WALL, FLOOR, DOOR, LAVA = "#", ".", "D", "L"

UP, DOWN, LEFT, RIGHT = (0, -1), (0, 1), (-1, 0), (1, 0)
DIRECTIONS: dict[str, Cell] = {"up": UP, "down": DOWN, "left": LEFT, "right": RIGHT}
DIRECTION_NAMES: dict[Cell, str] = {v: k for k, v in DIRECTIONS.items()}
START_FACING = DOWN

# Key -> direction, in the order held keys are read.
DIRECTION_KEYS: list[tuple[int, Cell]] = [
    (pygame.K_UP, UP),
    (pygame.K_w, UP),
    (pygame.K_DOWN, DOWN),
    (pygame.K_s, DOWN),
    (pygame.K_LEFT, LEFT),
    (pygame.K_a, LEFT),
    (pygame.K_RIGHT, RIGHT),
    (pygame.K_d, RIGHT),
]
INTERACT_KEY = pygame.K_e
ATTACK_KEY = pygame.K_SPACE
JUMP_KEY = pygame.K_j

# Colours.
FLOOR_COLOR = (92, 84, 76)
FLOOR_LINE = (80, 73, 66)
WALL_COLOR = (48, 44, 60)
WALL_EDGE = (30, 27, 38)
LAVA_COLORS = ((214, 72, 24), (236, 110, 30), (250, 150, 40))
DOOR_CLOSED = (130, 82, 40)
DOOR_OPEN = (70, 60, 52)
SWITCH_OFF = (170, 60, 60)
SWITCH_ON = (70, 200, 90)
SHRINE_IDLE = (120, 120, 170)
SHRINE_ACTIVE = (240, 230, 120)
COIN_COLOR = (240, 196, 40)
ENEMY_COLOR = (150, 40, 140)
HERO_COLOR = (70, 130, 210)
HERO_HURT = (230, 230, 255)
HUD_COLOR = (20, 20, 24)
TEXT_COLOR = (235, 235, 235)


# --- Level data (pure) ----------------------------------------------------------------------------------
BASE_ROWS = (
    "####################",
    "#......#.....#.....#",
    "#......#.....#.....#",
    "#......#.....#.....#",
    "#......#.....#.....#",
    "#......#.....L.....#",
    "#......#.....L.....#",
    "#......D.....L.....#",
    "#......#.....L.....#",
    "#......#.....#.....#",
    "#......#.....#.....#",
    "#......#.....#.....#",
    "#......#.....#.....#",
    "#......#.....#.....#",
    "####################",
)

# The base level with a sealed pocket around (4, 12), where the bug variant puts the switch.
BUG_ROWS = (
    *BASE_ROWS[:11],
    "#..###.#.....#.....#",
    "#..#.#.#.....#.....#",
    "#..###.#.....#.....#",
    "####################",
)

LAYOUT_ROWS = (
    "####################",
    "#.........#........#",
    "#.........#........#",
    "#.........#........#",
    "#..................#",
    "############D#######",
    "#..................#",
    "#.....######.......#",
    "#..................#",
    "#..................#",
    "###LLLL#############",
    "#..................#",
    "#..................#",
    "#..................#",
    "####################",
)

VARIANTS = ("base", "moved", "layout", "spawns", "bug")


@dataclass(frozen=True)
class LevelData:
    """One variant's level: terrain rows (``#`` wall, ``.`` floor, ``D`` door, ``L`` lava) and actors.

    Attributes:
        variant: The variant's name.
        rows: ``rows[y][x]`` is the terrain of tile ``(x, y)``.
        hero: The hero's start tile.
        switches: Switch tiles (any switch opens the door).
        shrine: The shrine's tile.
        enemies: Start tiles of the enemies (empty for ``spawns``: they are drawn at random).
        coins: Coin tiles.
        spawning: Enemies appear at random positions over time.
    """

    variant: str
    rows: tuple[str, ...]
    hero: Cell
    switches: tuple[Cell, ...]
    shrine: Cell
    enemies: tuple[Cell, ...]
    coins: tuple[Cell, ...]
    spawning: bool = False

    @property
    def door(self) -> Cell:
        """The door's tile (every level has exactly one)."""
        return next((x, y) for y, row in enumerate(self.rows) for x, ch in enumerate(row) if ch == DOOR)

    @property
    def lava(self) -> list[Cell]:
        """Lava tiles, row by row."""
        return [(x, y) for y, row in enumerate(self.rows) for x, ch in enumerate(row) if ch == LAVA]

    def terrain(self, cell: Cell) -> str:
        """The terrain character of ``cell``; off the map counts as wall."""
        x, y = cell
        if 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]):
            return self.rows[y][x]
        return WALL


def level_data(variant: str = "base") -> LevelData:
    """Return the level of ``variant`` (one of :data:`VARIANTS`).

    Raises:
        ValueError: For an unknown variant.
    """
    base_actors: dict[str, Any] = dict(
        hero=(2, 2),
        switches=((3, 11),),
        shrine=(16, 7),
        enemies=((10, 3), (16, 12)),
        coins=((5, 4), (10, 10), (16, 2)),
    )
    if variant == "base":
        return LevelData("base", BASE_ROWS, **base_actors)
    if variant == "moved":
        return LevelData(
            "moved",
            BASE_ROWS,
            hero=(2, 2),
            switches=((6, 13),),
            shrine=(17, 2),
            enemies=((9, 12), (15, 10)),
            coins=((1, 8), (11, 2), (18, 13)),
        )
    if variant == "layout":
        return LevelData(
            "layout",
            LAYOUT_ROWS,
            hero=(2, 2),
            switches=((17, 3),),
            shrine=(10, 12),
            enemies=((4, 8), (15, 12)),
            coins=((8, 3), (16, 8), (2, 12)),
        )
    if variant == "spawns":
        return LevelData("spawns", BASE_ROWS, **{**base_actors, "enemies": ()}, spawning=True)
    if variant == "bug":
        return LevelData("bug", BUG_ROWS, **{**base_actors, "switches": ((4, 12),)})
    raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")


def walkable_grid(level: LevelData, door_open: bool = False) -> list[list[bool]]:
    """Tiles the hero can stand on, ``[y][x]``: floor (switch, shrine and coin tiles included) and the
    door when ``door_open``; never walls or lava."""
    return [[ch == FLOOR or (ch == DOOR and door_open) for ch in row] for row in level.rows]


def interact_cells(cell: Cell) -> list[Cell]:
    """Tiles from which the hero can interact with an actor on ``cell``: the tile and its 8 neighbours."""
    x, y = cell
    return [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


def _free(grid: Sequence[Sequence[bool]], cell: Cell) -> bool:
    x, y = cell
    return 0 <= y < len(grid) and 0 <= x < len(grid[y]) and bool(grid[y][x])


def reachable(level: LevelData, door_open: bool, start: Cell | None = None, jumps: bool = True) -> set[Cell]:
    """Tiles the hero can reach from ``start`` (the level's start by default) by walking and, when
    ``jumps``, jumping two tiles over one tile of lava or floor (never over walls or a closed door)."""
    grid = walkable_grid(level, door_open)
    start = level.hero if start is None else start
    if not _free(grid, start):
        return set()
    seen = {start}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        for dx, dy in DIRECTIONS.values():
            steps = [(x + dx, y + dy)]
            middle = level.terrain((x + dx, y + dy))
            if jumps and (middle == LAVA or _free(grid, (x + dx, y + dy))):
                steps.append((x + 2 * dx, y + 2 * dy))
            for nxt in steps:
                if nxt not in seen and _free(grid, nxt):
                    seen.add(nxt)
                    queue.append(nxt)
    return seen


# Costs of the planner's commands, in sixths of a tile-walk: a jump takes two walks' time and is
# slightly penalised so that plans walk where they can and jump where they must.
WALK_COST, JUMP_COST = 6, 13


def _route(
    level: LevelData, door_open: bool, start: Cell, facing: Cell, goals: set[Cell]
) -> tuple[list[str], Cell, Cell] | None:
    """Cheapest command list from (start, facing) to any tile of ``goals``, over (tile, facing) states."""
    grid = walkable_grid(level, door_open)
    origin = (start, facing)
    best: dict[tuple[Cell, Cell], int] = {origin: 0}
    came: dict[tuple[Cell, Cell], tuple[tuple[Cell, Cell], str] | None] = {origin: None}
    order = 0
    heap: list[tuple[int, int, tuple[Cell, Cell]]] = [(0, order, origin)]
    while heap:
        cost, _, state = heapq.heappop(heap)
        if cost > best[state]:
            continue
        cell, face = state
        if cell in goals:
            commands: list[str] = []
            node: tuple[Cell, Cell] = state
            while came[node] is not None:
                node, command = came[node]  # type: ignore[misc]
                commands.append(command)
            return commands[::-1], cell, face
        x, y = cell
        options: list[tuple[tuple[Cell, Cell], str, int]] = []
        for name, (dx, dy) in DIRECTIONS.items():
            target = (x + dx, y + dy)
            if _free(grid, target):
                options.append(((target, (dx, dy)), name, WALK_COST))
            elif level.terrain(target) != LAVA:  # bumping into a wall or the closed door turns
                options.append(((cell, (dx, dy)), name, WALK_COST))
        dx, dy = face
        middle, landing = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
        if (level.terrain(middle) == LAVA or _free(grid, middle)) and _free(grid, landing):
            options.append(((landing, face), "jump", JUMP_COST))
        for nxt, command, step in options:
            if cost + step < best.get(nxt, 1 << 30):
                best[nxt] = cost + step
                came[nxt] = (state, command)
                order += 1
                heapq.heappush(heap, (cost + step, order, nxt))
    return None


def solve(level: LevelData) -> list[str] | None:
    """Commands that complete ``level`` from its start, ignoring enemies: ``"up"``, ``"down"``,
    ``"left"``, ``"right"`` (one tile, or a turn when blocked), ``"jump"`` and ``"interact"``.

    Returns:
        The commands, ending with the shrine's interact; None when the level cannot be completed
        (variant ``bug``: no reachable tile is next to the switch).
    """
    near_switch = {c for s in level.switches for c in interact_cells(s)}
    first = _route(level, False, level.hero, START_FACING, near_switch)
    if first is None:
        return None
    to_switch, cell, facing = first
    second = _route(level, True, cell, facing, set(interact_cells(level.shrine)))
    if second is None:
        return None
    return [*to_switch, "interact", *second[0], "interact"]


# --- Sprites --------------------------------------------------------------------------------------------
def _tile_rect(pos: tuple[float, float]) -> pygame.Rect:
    return pygame.Rect(round(pos[0] * TILE), HUD_HEIGHT + round(pos[1] * TILE), TILE, TILE)


class LavaTile(pygame.sprite.Sprite):
    """A tile of lava; its glow cycles with the frame counter."""

    def __init__(self, index: int, cell: Cell) -> None:
        super().__init__()
        self.index = index
        self.cell = cell
        self.phase = (cell[0] * 7 + cell[1] * 3) % len(LAVA_COLORS)
        self.frame = 0
        self.image = pygame.Surface((TILE, TILE))
        self.rect = _tile_rect(cell)
        self._drawn = -1
        self.update()

    def update(self, *args: Any) -> None:
        self.frame += 1
        shade = (self.frame // 12 + self.phase) % len(LAVA_COLORS)
        if shade == self._drawn:
            return
        self._drawn = shade
        self.image.fill(LAVA_COLORS[shade])
        pygame.draw.circle(self.image, LAVA_COLORS[(shade + 1) % len(LAVA_COLORS)], (TILE // 3, TILE // 2), 5)
        pygame.draw.circle(
            self.image, LAVA_COLORS[(shade + 2) % len(LAVA_COLORS)], (2 * TILE // 3, TILE // 4), 3
        )


class Door(pygame.sprite.Sprite):
    """The locked door; opened by a switch."""

    def __init__(self, cell: Cell) -> None:
        super().__init__()
        self.cell = cell
        self.open = False
        self.image = pygame.Surface((TILE, TILE))
        self.rect = _tile_rect(cell)
        self._render()

    def _render(self) -> None:
        if self.open:
            self.image.fill(DOOR_OPEN)
            pygame.draw.rect(self.image, DOOR_CLOSED, self.image.get_rect(), 3)
        else:
            self.image.fill(DOOR_CLOSED)
            for x in (8, 16, 24):
                pygame.draw.line(self.image, WALL_EDGE, (x, 2), (x, TILE - 3), 2)
            pygame.draw.circle(self.image, COIN_COLOR, (TILE - 8, TILE // 2), 3)

    def unlock(self) -> bool:
        """Open the door; True if it was closed."""
        if self.open:
            return False
        self.open = True
        self._render()
        return True

    def update(self, *args: Any) -> None:
        """Doors do not animate."""


class Switch(pygame.sprite.Sprite):
    """A floor lever; interacting with it turns it on (for good) and opens the door."""

    def __init__(self, index: int, cell: Cell) -> None:
        super().__init__()
        self.index = index
        self.id = f"switch-{index}"
        self.cell = cell
        self.on = False
        self.image = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
        self.rect = _tile_rect(cell)
        self._render()

    def _render(self) -> None:
        self.image.fill((0, 0, 0, 0))
        pygame.draw.rect(self.image, (60, 60, 60), (6, 20, TILE - 12, 8))
        tip = (TILE - 8, 6) if self.on else (8, 6)
        pygame.draw.line(self.image, (200, 200, 200), (TILE // 2, 22), tip, 3)
        pygame.draw.circle(self.image, SWITCH_ON if self.on else SWITCH_OFF, tip, 5)

    def toggle_on(self) -> bool:
        """Turn the switch on; True if it was off."""
        if self.on:
            return False
        self.on = True
        self._render()
        return True

    def update(self, *args: Any) -> None:
        """Switches do not animate."""


class Shrine(pygame.sprite.Sprite):
    """The end-of-level shrine; activating it wins. It pulses once active."""

    def __init__(self, cell: Cell) -> None:
        super().__init__()
        self.id = "shrine"
        self.cell = cell
        self.active = False
        self.frame = 0
        self.image = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
        self.rect = _tile_rect(cell)
        self._drawn: tuple[bool, int] | None = None
        self.update()

    def activate(self) -> bool:
        """Activate the shrine; True if it was idle."""
        if self.active:
            return False
        self.active = True
        return True

    def update(self, *args: Any) -> None:
        self.frame += 1
        glow = (self.frame // 8) % 3 if self.active else 0
        if (self.active, glow) == self._drawn:
            return
        self._drawn = (self.active, glow)
        self.image.fill((0, 0, 0, 0))
        color = SHRINE_ACTIVE if self.active else SHRINE_IDLE
        pygame.draw.polygon(self.image, color, [(TILE // 2, 2), (TILE - 4, TILE - 4), (4, TILE - 4)])
        pygame.draw.circle(self.image, (255, 255, 255), (TILE // 2, TILE // 2 + 4), 3 + glow * 2)


class Coin(pygame.sprite.Sprite):
    """A coin, collected when the hero steps onto its tile."""

    def __init__(self, index: int, cell: Cell) -> None:
        super().__init__()
        self.index = index
        self.id = f"coin-{index}"
        self.cell = cell
        self.frame = 0
        self.image = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
        self.rect = _tile_rect(cell)
        self._width = -1
        self.update()

    def update(self, *args: Any) -> None:
        self.frame += 1
        width = (4, 7, 10, 7)[(self.frame // 10) % 4]
        if width == self._width:
            return
        self._width = width
        self.image.fill((0, 0, 0, 0))
        pygame.draw.ellipse(self.image, COIN_COLOR, (TILE // 2 - width, 8, 2 * width, TILE - 16))


class Enemy(pygame.sprite.Sprite):
    """A slime that chases the hero when it is within ``CHASE_RADIUS`` tiles and hurts on contact."""

    def __init__(self, number: int, cell: Cell) -> None:
        super().__init__()
        self.number = number
        self.id = f"enemy-{number}"
        self.x, self.y = float(cell[0]), float(cell[1])
        self.frame = 0
        self.image = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
        self.rect = _tile_rect((self.x, self.y))
        self._squash = -1
        self._render(0)

    @property
    def center(self) -> tuple[float, float]:
        return self.x + 0.5, self.y + 0.5

    def _render(self, squash: int) -> None:
        if squash == self._squash:
            return
        self._squash = squash
        self.image.fill((0, 0, 0, 0))
        pygame.draw.ellipse(
            self.image, ENEMY_COLOR, (4 - squash, 8 + squash, TILE - 8 + 2 * squash, TILE - 12 - squash)
        )
        pygame.draw.circle(self.image, (255, 255, 255), (TILE // 2 - 5, 16), 3)
        pygame.draw.circle(self.image, (255, 255, 255), (TILE // 2 + 5, 16), 3)

    def update(self, game: Dungeon | None = None) -> None:
        """Chase the hero one frame's worth, sliding along walls."""
        self.frame += 1
        if game is not None and game.hero.alive and not game.won:
            hx, hy = game.hero.center
            cx, cy = self.center
            dx, dy = hx - cx, hy - cy
            if math.hypot(dx, dy) <= CHASE_RADIUS:
                step_x = math.copysign(min(ENEMY_SPEED, abs(dx)), dx)
                if step_x and game.enemy_box_free(cx + step_x, cy):
                    self.x += step_x
                    cx += step_x
                step_y = math.copysign(min(ENEMY_SPEED, abs(dy)), dy)
                if step_y and game.enemy_box_free(cx, cy + step_y):
                    self.y += step_y
        self.rect = _tile_rect((self.x, self.y))
        self._render((self.frame // 15) % 2 * 2)


class Hero(pygame.sprite.Sprite):
    """The player's hero: walks tile by tile, jumps two tiles, has ``MAX_HP`` hit points."""

    def __init__(self, cell: Cell) -> None:
        super().__init__()
        self.cell = cell
        self.x, self.y = float(cell[0]), float(cell[1])
        self.facing: Cell = START_FACING
        self.hp = MAX_HP
        self.alive = True
        self.invulnerable = 0
        self.move_from: Cell | None = None
        self.move_to: Cell | None = None
        self.progress = 0
        self.airborne = False
        self.image = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
        self.rect = _tile_rect((self.x, self.y))
        self._drawn: tuple[Any, ...] | None = None
        self.update()

    @property
    def center(self) -> tuple[float, float]:
        return self.x + 0.5, self.y + 0.5

    @property
    def busy(self) -> bool:
        """Walking or in the air."""
        return self.move_to is not None

    def start(self, target: Cell, airborne: bool) -> None:
        self.move_from, self.move_to = self.cell, target
        self.progress = 0
        self.airborne = airborne

    def advance(self) -> Cell | None:
        """Slide one frame towards the target; return the target once reached."""
        if self.move_to is None or self.move_from is None:
            return None
        self.progress += 1
        total = JUMP_FRAMES if self.airborne else MOVE_FRAMES
        t = min(1.0, self.progress / total)
        (x0, y0), (x1, y1) = self.move_from, self.move_to
        self.x, self.y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        if self.progress < total:
            return None
        arrived = self.move_to
        self.cell = arrived
        self.x, self.y = float(arrived[0]), float(arrived[1])
        self.move_from = self.move_to = None
        self.airborne = False
        return arrived

    def place(self, cell: Cell) -> None:
        self.cell = cell
        self.x, self.y = float(cell[0]), float(cell[1])
        self.move_from = self.move_to = None
        self.airborne = False

    def update(self, *args: Any) -> None:
        if self.invulnerable > 0:
            self.invulnerable -= 1
        lift = 0
        if self.airborne:
            lift = int(10 * math.sin(math.pi * self.progress / JUMP_FRAMES))
        self.rect = _tile_rect((self.x, self.y)).move(0, -lift)
        flash = self.invulnerable > 0 and (self.invulnerable // 4) % 2 == 0
        key = (self.facing, flash, self.alive)
        if key == self._drawn:
            return
        self._drawn = key
        self.image.fill((0, 0, 0, 0))
        color = HERO_HURT if flash else HERO_COLOR
        if not self.alive:
            color = (90, 90, 90)
        pygame.draw.circle(self.image, color, (TILE // 2, TILE // 2), TILE // 2 - 4)
        fx, fy = self.facing
        nose = (TILE // 2 + fx * 10, TILE // 2 + fy * 10)
        pygame.draw.circle(self.image, (255, 255, 255), nose, 4)


# --- The game -------------------------------------------------------------------------------------------
class Dungeon:
    """State and rules of one game (no window needed until :meth:`draw`).

    Attributes:
        level: The variant's :class:`LevelData`.
        hero, door, shrine: The actors.
        switches, enemies, coins, lava, actors: Sprite groups.
        coins_collected: Coins picked up.
        won: True once the shrine is activated.
        frame: Frames played.
    """

    def __init__(self, variant: str = "base") -> None:
        """Build the level of ``variant``; enemies of ``spawns`` come from the module-level random.

        Raises:
            ValueError: For an unknown variant.
        """
        self.level = level_data(variant)
        self.variant = variant
        self.hero = Hero(self.level.hero)
        self.door = Door(self.level.door)
        self.shrine = Shrine(self.level.shrine)
        self.switches = pygame.sprite.Group(*(Switch(i, c) for i, c in enumerate(self.level.switches)))
        self.coins = pygame.sprite.Group(*(Coin(i, c) for i, c in enumerate(self.level.coins)))
        self.lava = pygame.sprite.Group(*(LavaTile(i, c) for i, c in enumerate(self.level.lava)))
        self.enemies = pygame.sprite.Group()
        self.next_enemy = 0
        for cell in self.level.enemies:
            self.spawn_enemy(cell)
        if self.level.spawning:
            for _ in range(SPAWN_START):
                self.spawn_random_enemy()
        self.fixtures = pygame.sprite.Group(self.door, *self.switches, self.shrine)
        self.heroes = pygame.sprite.GroupSingle(self.hero)
        self.coins_collected = 0
        self.won = False
        self.frame = 0
        self.end_frames = 0
        self.attack_cooldown = 0
        self.requests: dict[str, int] = {}  # "interact"/"jump" -> frames left to act on it
        self._background: pygame.Surface | None = None
        self._font: pygame.font.Font | None = None

    # ---- terrain -------------------------------------------------------------------------------------
    def walkable(self) -> list[list[bool]]:
        """Tiles the hero can stand on now, ``[y][x]`` (playtester's ``walkable`` hook)."""
        return walkable_grid(self.level, self.door.open)

    def hero_can_stand(self, cell: Cell) -> bool:
        ch = self.level.terrain(cell)
        return ch == FLOOR or (ch == DOOR and self.door.open)

    def enemy_box_free(self, cx: float, cy: float) -> bool:
        """True when an enemy centred at ``(cx, cy)`` overlaps only floor (or the open door)."""
        x0, x1 = math.floor(cx - ENEMY_HALF), math.floor(cx + ENEMY_HALF - 1e-9)
        y0, y1 = math.floor(cy - ENEMY_HALF), math.floor(cy + ENEMY_HALF - 1e-9)
        return all(self.hero_can_stand((x, y)) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))

    # ---- enemies -------------------------------------------------------------------------------------
    def spawn_enemy(self, cell: Cell) -> Enemy:
        enemy = Enemy(self.next_enemy, cell)
        self.next_enemy += 1
        self.enemies.add(enemy)
        return enemy

    def spawn_random_enemy(self) -> Enemy | None:
        """Put an enemy on a random floor tile away from the hero (module-level :mod:`random`)."""
        hx, hy = self.hero.center
        fixed = {*self.level.switches, self.level.shrine}
        candidates = [
            (x, y)
            for y, row in enumerate(self.level.rows)
            for x, ch in enumerate(row)
            if ch == FLOOR
            and (x, y) not in fixed
            and math.hypot(x + 0.5 - hx, y + 0.5 - hy) >= SPAWN_MIN_DISTANCE
        ]
        if not candidates:
            return None
        return self.spawn_enemy(random.choice(candidates))

    # ---- input ---------------------------------------------------------------------------------------
    def handle_key_down(self, key: int) -> None:
        """React to a key press: interact, attack or jump (directions are read from the held keys)."""
        if self.over:
            return
        if key == ATTACK_KEY:
            self.attack()
        elif key == INTERACT_KEY:
            self.requests["interact"] = REQUEST_FRAMES
        elif key == JUMP_KEY:
            self.requests["jump"] = REQUEST_FRAMES

    @property
    def over(self) -> bool:
        return self.won or not self.hero.alive

    @property
    def finished(self) -> bool:
        """True once the end screen has been shown for ``END_FRAMES`` frames."""
        return self.over and self.end_frames >= END_FRAMES

    # ---- rules ---------------------------------------------------------------------------------------
    def update(self, keys: Any) -> None:
        """Advance one frame with ``keys`` (``pygame.key.get_pressed()``) held."""
        self.frame += 1
        hero = self.hero
        if self.attack_cooldown > 0:
            self.attack_cooldown -= 1
        if not self.over:
            if not hero.busy:
                if "jump" in self.requests:
                    del self.requests["jump"]
                    self.jump()
                if "interact" in self.requests and not hero.busy:
                    del self.requests["interact"]
                    self.interact()
            if not hero.busy:
                for key, direction in DIRECTION_KEYS:
                    if keys[key]:
                        self.walk(direction)
                        break
            was_airborne = hero.airborne
            arrived = hero.advance()
            if arrived is not None:
                if was_airborne:
                    probe.event("landed", x=arrived[0], y=arrived[1])
                if self.level.terrain(arrived) == LAVA:
                    self.die("lava")
                else:
                    self.entered(arrived)
            self.requests = {name: left - 1 for name, left in self.requests.items() if left > 1}
        self.enemies.update(self)
        if not self.over:
            self.contact()
            if self.level.spawning and self.frame % SPAWN_EVERY == 0 and len(self.enemies) < MAX_ENEMIES:
                self.spawn_random_enemy()
        else:
            self.end_frames += 1
        self.heroes.update()
        self.coins.update()
        self.lava.update()
        self.fixtures.update()

    def walk(self, direction: Cell) -> bool:
        """Face ``direction`` and start walking one tile; walls and the closed door only turn the hero.

        Returns:
            True if the hero started moving (into lava too: it dies on arrival).
        """
        hero = self.hero
        hero.facing = direction
        target = (hero.cell[0] + direction[0], hero.cell[1] + direction[1])
        if self.hero_can_stand(target) or self.level.terrain(target) == LAVA:
            hero.start(target, airborne=False)
            return True
        return False

    def jump(self) -> bool:
        """Jump two tiles in the facing direction, over one tile of lava or floor.

        Blocked by a wall or the closed door in between or on the landing tile: the hero hops in place.
        Landing in lava kills.
        """
        hero = self.hero
        dx, dy = hero.facing
        x, y = hero.cell
        middle, landing = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
        clear = self.level.terrain(middle) == LAVA or self.hero_can_stand(middle)
        lands = self.hero_can_stand(landing) or self.level.terrain(landing) == LAVA
        target = landing if clear and lands else hero.cell
        probe.event("jump", x=x, y=y, to_x=target[0], to_y=target[1], over=self.level.terrain(middle))
        hero.start(target, airborne=True)
        return target != hero.cell

    def interact(self) -> str | None:
        """Interact with the switch or shrine next to the hero (the facing tile first).

        Returns:
            The id of the actor interacted with, or None.
        """
        hero = self.hero
        near = set(interact_cells(hero.cell))
        front = (hero.cell[0] + hero.facing[0], hero.cell[1] + hero.facing[1])
        actors: list[Any] = [s for s in self.switches if s.cell in near] + (
            [self.shrine] if self.shrine.cell in near else []
        )
        actors.sort(key=lambda a: (a.cell != front, a.cell != hero.cell, a.id))
        if not actors:
            probe.event("interact", target=None, kind=None)
            return None
        actor = actors[0]
        if isinstance(actor, Switch):
            probe.event("interact", target=actor.id, kind="switch")
            if actor.toggle_on():
                probe.event("switch_on", id=actor.id)
            if self.door.unlock():
                probe.event("door_opened", id="door-0")
        else:
            probe.event("interact", target="shrine", kind="shrine")
            if actor.activate():
                probe.event("shrine_activated")
                self.won = True
                probe.event("win", coins=self.coins_collected)
        return actor.id

    def attack(self) -> int:
        """Swing: kill the enemies next to the hero or just in front of it (after a cooldown).

        Returns:
            The number of enemies killed; -1 while the attack cools down.
        """
        if self.attack_cooldown > 0:
            return -1
        self.attack_cooldown = ATTACK_COOLDOWN
        hx, hy = self.hero.center
        fx, fy = hx + self.hero.facing[0], hy + self.hero.facing[1]
        hit = [
            e
            for e in self.enemies
            if math.hypot(e.center[0] - hx, e.center[1] - hy) <= ATTACK_RANGE
            or math.hypot(e.center[0] - fx, e.center[1] - fy) <= ATTACK_FRONT_RANGE
        ]
        probe.event("attack", facing=DIRECTION_NAMES[self.hero.facing], hits=len(hit))
        for enemy in sorted(hit, key=lambda e: e.number):
            enemy.kill()
            probe.event("enemy_killed", id=enemy.id)
        return len(hit)

    def contact(self) -> None:
        """Enemies touching the hero hurt it (not in the air, not while it flashes after a hit)."""
        hero = self.hero
        if hero.airborne or hero.invulnerable > 0:
            return
        hx, hy = hero.center
        for enemy in sorted(self.enemies, key=lambda e: e.number):
            if math.hypot(enemy.center[0] - hx, enemy.center[1] - hy) < CONTACT_RANGE:
                hero.hp -= 1
                hero.invulnerable = HURT_FRAMES
                probe.event("hurt", by=enemy.id, hp=hero.hp)
                if hero.hp <= 0:
                    self.die("enemy")
                return

    def die(self, cause: str) -> None:
        self.hero.alive = False
        self.hero.move_from = self.hero.move_to = None
        self.hero.airborne = False
        probe.event("hero_died", cause=cause)

    def entered(self, cell: Cell) -> None:
        """The hero now stands on ``cell``: pick up a coin there."""
        for coin in sorted(self.coins, key=lambda c: c.index):
            if coin.cell == cell:
                coin.kill()
                self.coins_collected += 1
                probe.event("collected", id=coin.id, coins=self.coins_collected)

    def teleport(self, x: float, y: float) -> bool:
        """Put the hero on tile ``(x, y)`` if it can stand there (playtester's ``teleport`` hook)."""
        cell = (int(round(x)), int(round(y)))
        if self.over or not self.hero_can_stand(cell):
            return False
        self.hero.place(cell)
        self.entered(cell)
        return True

    def report(self) -> None:
        """Tell playtester about this frame: features and every actor, in tile units."""
        hero = self.hero
        probe.observe(
            x=hero.x,
            y=hero.y,
            hp=hero.hp,
            coins=self.coins_collected,
            door_open=int(self.door.open),
            shrine_active=int(self.shrine.active),
        )
        probe.entity(
            "hero",
            "hero",
            (hero.x, hero.y),
            facing=DIRECTION_NAMES[hero.facing],
            airborne=hero.airborne,
            hp=hero.hp,
        )
        for switch in sorted(self.switches, key=lambda s: s.index):
            probe.entity(switch.id, "switch", (float(switch.cell[0]), float(switch.cell[1])), on=switch.on)
        probe.entity(
            "door-0", "door", (float(self.door.cell[0]), float(self.door.cell[1])), open=self.door.open
        )
        probe.entity(
            "shrine",
            "shrine",
            (float(self.shrine.cell[0]), float(self.shrine.cell[1])),
            active=self.shrine.active,
        )
        for enemy in sorted(self.enemies, key=lambda e: e.number):
            probe.entity(enemy.id, "enemy", (enemy.x, enemy.y))
        for coin in sorted(self.coins, key=lambda c: c.index):
            probe.entity(coin.id, "coin", (float(coin.cell[0]), float(coin.cell[1])))
        for lava in sorted(self.lava, key=lambda t: t.index):
            probe.entity(f"lava-{lava.index}", "lava", (float(lava.cell[0]), float(lava.cell[1])))

    # ---- drawing -------------------------------------------------------------------------------------
    def draw(self, screen: pygame.Surface) -> None:
        if self._background is None:
            self._background = pygame.Surface((SCREEN_W, SCREEN_H))
            self._background.fill(HUD_COLOR)
            for y, row in enumerate(self.level.rows):
                for x, ch in enumerate(row):
                    rect = _tile_rect((x, y))
                    if ch == WALL:
                        pygame.draw.rect(self._background, WALL_COLOR, rect)
                        pygame.draw.rect(self._background, WALL_EDGE, rect, 2)
                    else:
                        pygame.draw.rect(self._background, FLOOR_COLOR, rect)
                        pygame.draw.rect(self._background, FLOOR_LINE, rect, 1)
        if self._font is None:
            self._font = pygame.font.Font(None, 24)
        screen.blit(self._background, (0, 0))
        self.lava.draw(screen)
        self.fixtures.draw(screen)
        self.coins.draw(screen)
        self.enemies.draw(screen)
        self.heroes.draw(screen)
        hud = (
            f"HP {self.hero.hp}/{MAX_HP}   Coins {self.coins_collected}   "
            + ("Door open" if self.door.open else "Door locked")
            + f"   [{self.variant}]"
        )
        screen.blit(self._font.render(hud, True, TEXT_COLOR), (6, 4))
        if self.over:
            text = "You win" if self.won else "You died"
            big = pygame.font.Font(None, 72).render(text, True, SHRINE_ACTIVE if self.won else SWITCH_OFF)
            box = big.get_rect(center=(SCREEN_W // 2, SCREEN_H // 2))
            pygame.draw.rect(screen, HUD_COLOR, box.inflate(24, 12))
            screen.blit(big, box)


def _validate_main_args(variant: str, fps: int, max_frames: int | None) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    if isinstance(fps, bool) or not isinstance(fps, int) or fps < 0:
        raise ValueError(f"fps must be an int >= 0 (0 = unlimited), got {fps!r}")
    if max_frames is not None and (
        isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 0
    ):
        raise ValueError(f"max_frames must be None or an int >= 0, got {max_frames!r}")


def main(variant: str = "base", fps: int = DEFAULT_FPS, max_frames: int | None = None) -> None:
    """Play the dungeon until the window is closed, Escape, a win or death (plus ``END_FRAMES``), or
    ``max_frames``.

    Args:
        variant: One of :data:`VARIANTS`.
        fps: Frame-rate cap; 0 runs as fast as possible. Game speed is per frame either way.
        max_frames: Return after this many frames (None: no limit).

    Raises:
        ValueError: If an argument is out of range.
    """
    _validate_main_args(variant, fps, max_frames)
    pygame.init()
    try:
        screen = pygame.display.set_mode((SCREEN_W, SCREEN_H))
        pygame.display.set_caption("Dungeon")
        clock = pygame.time.Clock()
        game = Dungeon(variant)
        probe.hook("teleport", game.teleport)
        probe.hook("walkable", game.walkable)
        frames = 0
        running = max_frames is None or max_frames > 0
        while running:
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    running = False
                elif event.type == pygame.KEYDOWN:
                    if event.key == pygame.K_ESCAPE:
                        running = False
                    else:
                        game.handle_key_down(event.key)
            if not running:
                break
            game.update(pygame.key.get_pressed())
            game.report()
            game.draw(screen)
            pygame.display.flip()
            clock.tick(fps)
            frames += 1
            if game.finished or (max_frames is not None and frames >= max_frames):
                running = False
    finally:
        pygame.quit()


def _parse_args(argv: Iterable[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m playtester.games.dungeon", description="Dungeon: the explicit-plans example level"
    )
    parser.add_argument("--variant", choices=VARIANTS, default="base", help="level variant")
    parser.add_argument("--fps", type=int, default=DEFAULT_FPS, help="frame-rate cap, 0 = unlimited")
    parser.add_argument("--frames", type=int, default=None, help="quit after this many frames")
    return parser.parse_args(None if argv is None else list(argv))


if __name__ == "__main__":
    _args = _parse_args()
    main(variant=_args.variant, fps=_args.fps, max_frames=_args.frames)
