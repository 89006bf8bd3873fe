"""Platformer: a small side-scrolling pygame game bundled with playtester as a benchmark.

Run, jump and shoot your way to the flag at the right end of a level about 3000 px wide, seen through
a 640x360 window that follows the player. Coins and kills give score, enemies hurt on contact, pits
kill. Sounds are tiny square-wave blips synthesised in memory, graphics are plain shapes.

Controls:
    Left/Right or A/D (or joystick axis 0)   run (slower in mud)
    Space (or joystick button 0)            jump, when on the ground, not in mud and not just landed
    Mouse                                   aim; the first enemy or crate on the aim line is outlined
    F (on release) or left click            fire toward the aim point, while there is ammo
    R (on press)                            reload to ``MAX_AMMO``
    Escape                                  quit

The input code deliberately follows the listings of the action-space paper, so that a program analyser
can recover the player's actions from it: the horizontal axis / jump logic of Listing 1 and the mouse
ray-cast highlight of Listing 4 live in :meth:`Player.update`; the multi-frame inputs of Listing 3
(reload on key-down, fire on key-up while ``ammo > 0``) live in :meth:`Player.handle_event`, which the
main loop calls for every event of ``pygame.event.get()``.

Instrumentation goes through :mod:`playtester.probe` (``observe``, ``entity``, ``event``, ``check`` and
the ``teleport`` / ``walkable`` hooks); outside playtester these calls cost nothing.

Injected bugs (kept on purpose; listed in :data:`INJECTED_BUGS` for benchmark scoring):

1. ``air-reload-fire-crash`` (crash, ``ZeroDivisionError``). Reloading an *empty* gun "racks" a fresh
   magazine, and a shot fired in the air adds a kick of ``RACK_KICK / frames_since_rack``. A shot in the
   very frame the magazine was racked divides by zero. It needs all of: ammo == 0, the player airborne,
   and in one frame both R going down and F being released (either event order: an empty F release is
   remembered for the frame and fired by the reload), or a left click processed after the R press.
2. ``fall-through-floor`` (assertion, probe check ``"player fell through the floor"``). Collision rects
   are built from horizontal runs of same-kind tiles, and :func:`tile_runs` drops one-cell runs
   (``last > first`` instead of ``>=``). In level 0 the ground tile at column 13 between two mud puddles
   is such a run: it is drawn but not solid, so walking right from the start the player sinks into it.
3. ``double-kill-score`` (assertion, probe check ``"enemy killed twice"``). Bullet/enemy hits iterate over
   a snapshot of the live enemies taken before the loop, so two bullets hitting an enemy with one hp
   left in the same frame kill it twice and score it twice (firing with F-release and a click in one
   frame).
"""

from __future__ import annotations

import argparse
import math
import random
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import pygame

from playtester import probe

__all__ = [
    "INJECTED_BUGS",
    "LEVELS",
    "Bullet",
    "Coin",
    "Crate",
    "Enemy",
    "Flag",
    "Game",
    "LevelLayout",
    "Player",
    "Solid",
    "Tile",
    "build_level",
    "main",
    "raycast",
    "tile_runs",
]

INJECTED_BUGS: list[dict[str, str]] = [
    {
        "id": "air-reload-fire-crash",
        "kind": "crash",
        "message": "ZeroDivisionError",
        "description": "Firing in the frame an empty gun is reloaded, while airborne, divides by zero in the "
        "air-spread computation (Player.fire).",
        "how": "Empty the gun (5 shots), jump, and while in the air press R and release F in the same frame "
        "(either event order), or press R and then left-click in the same frame.",
    },
    {
        "id": "fall-through-floor",
        "kind": "assertion",
        "message": "player fell through the floor",
        "description": "tile_runs() drops one-cell runs, so the lone ground tile at column 13 of level 0 "
        "(x 390..420, between two mud puddles) is drawn but has no collision.",
        "how": "Level 0: walk right from the start; at x ~390..420 the player sinks into the ground tile.",
    },
    {
        "id": "double-kill-score",
        "kind": "assertion",
        "message": "enemy killed twice",
        "description": "Bullet/enemy hits loop over a stale snapshot of the live enemies, so two bullets "
        "hitting a one-hp enemy in the same frame kill and score it twice.",
        "how": "Shoot an enemy once (it chases), then aim at it and release F and left-click in the same "
        "frame, so both bullets reach it in the same frame.",
    },
]

# --- Screen and world -------------------------------------------------------------------------------
SCREEN_W, SCREEN_H = 640, 360
TILE = 30
DEFAULT_FPS = 60
END_FRAMES = 60  # frames of "Game over" / "Level complete" before main() returns

# --- Player tuning (per-frame constants: a fixed timestep of one frame) ------------------------------
PLAYER_W, PLAYER_H = 20, 28
RUN_SPEED = 3.5
MUD_SPEED = 1.75
JUMP_SPEED = 10.5
GRAVITY = 0.5
MAX_FALL = 12.0
DEADZONE = 0.2
LAND_LOCK_FRAMES = 4  # jumping is disabled for a few frames after landing
MAX_HP = 3
HURT_FRAMES = 60  # invulnerability after a hit
HURT_HOP = 5.0
MAX_AMMO = 5
BULLET_SPEED = 9.0
BULLET_LIFE = 70
AIR_SPREAD = 4.0  # degrees of random spread for shots fired in the air
RACK_KICK = 12.0  # extra degrees right after an empty gun is reloaded, decaying with frames

# --- Other actors ----------------------------------------------------------------------------------
ENEMY_W, ENEMY_H = 24, 24
ENEMY_HP = 2
PATROL_SPEED = 1.0
CHASE_SPEED = 2.0
SIGHT_X, SIGHT_Y = 160, 60
ALERT_FRAMES = 180  # an enemy that was shot chases this long
CRATE_SIZE = 28
CRATE_HP = 2
COIN_SCORE = 10
ENEMY_SCORE = 50

# --- Level map characters -----------------------------------------------------------------------------
GROUND, BRICK, MUD = "#", "=", "~"
SOLID_CHARS = GROUND + BRICK + MUD

COLORS = {
    "sky": (120, 180, 235),
    "hill": (95, 160, 110),
    GROUND: (130, 90, 50),
    "grass": (70, 170, 60),
    BRICK: (170, 80, 60),
    MUD: (90, 70, 40),
    "player": (40, 80, 200),
    "enemy": (200, 50, 60),
    "enemy_chase": (240, 120, 30),
    "bullet": (250, 240, 120),
    "coin": (250, 210, 40),
    "crate": (160, 110, 60),
    "flag": (240, 240, 240),
    "pole": (90, 90, 90),
    "highlight": (255, 255, 0),
    "text": (20, 20, 30),
}

# Level maps, one character per TILE x TILE cell: '.' air, '#' ground, '=' brick, '~' mud (solid, sticky),
# 'P' player start, 'E' enemy, 'B' crate, 'F' goal flag (these stand on the cell's bottom), 'C' coin.
LEVEL_0: list[str] = [
    "....................................................................................................",
    "....................................................................................................",
    "....................................................................................................",
    ".................................CCC....................................C...........................",
    "................................====...................................===..........................",
    "............................CC......................................................................",
    ".......CC...................E.................C..................EC....................EC...........",
    "......====................======............=====..............=======................====..........",
    ".....................C.................C...................CC.................C.....................",
    "..P.............C.B...........E.....B..........E....C..E................E..B........E.......C...F...",
    "###########~~#~~####...###############...#########~~~#####....#######~~######...####################",
    "####################...###############...#################....###############...####################",
]

LEVEL_1: list[str] = [
    "....................................................................................................",
    "....................................................................................................",
    "....................................................................................................",
    ".........................................CC..................................CEC....................",
    "........................................====................................=====...................",
    ".......................CEC.............................................C............................",
    "...........C..........=====.........C..........CE.....................===..................C........",
    "..........===..................C...==........======................C......................===.......",
    "...............................==..................................==...............................",
    "..P.....E...........B....E................E....B...........CC.E.................E..B..C.......E..F..",
    "##############....############........##############....##~~~~####........###########...############",
    "##############....############........##############....##########........###########...############",
]

LEVELS: list[list[str]] = [LEVEL_0, LEVEL_1]


# --- Pure level logic ----------------------------------------------------------------------------------
class Solid(NamedTuple):
    """One collision rectangle of the level: a merged horizontal run of same-kind tiles."""

    rect: pygame.Rect
    kind: str


@dataclass
class LevelLayout:
    """Everything :func:`build_level` reads out of a level map, in world pixels unless noted.

    Attributes:
        grid: The map rows (one character per ``TILE`` x ``TILE`` cell).
        tiles: Drawn tiles as ``(col, row, char)`` cells.
        solids: Collision rectangles (merged tile runs).
        player_start: Mid-bottom point where the player spawns.
        coins: Centres of the coins.
        enemies: Mid-bottom points where the enemies spawn.
        crates: Mid-bottom points of the crates.
        flag: Mid-bottom point of the goal flag pole.
    """

    grid: list[str]
    tiles: list[tuple[int, int, str]] = field(default_factory=list)
    solids: list[Solid] = field(default_factory=list)
    player_start: tuple[int, int] = (0, 0)
    coins: list[tuple[int, int]] = field(default_factory=list)
    enemies: list[tuple[int, int]] = field(default_factory=list)
    crates: list[tuple[int, int]] = field(default_factory=list)
    flag: tuple[int, int] = (0, 0)

    @property
    def cols(self) -> int:
        """Number of map columns."""
        return len(self.grid[0])

    @property
    def rows(self) -> int:
        """Number of map rows."""
        return len(self.grid)

    @property
    def width(self) -> int:
        """World width in pixels."""
        return self.cols * TILE

    @property
    def height(self) -> int:
        """World height in pixels."""
        return self.rows * TILE

    def cell(self, col: int, row: int) -> str:
        """The map character at ``(col, row)``; ``"."`` (air) outside the map."""
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return self.grid[row][col]
        return "."

    def walkable(self) -> list[list[bool]]:
        """Coarse grid, one bool per cell: True where the map shows open air (room to stand or fall)."""
        return [[ch not in SOLID_CHARS for ch in row] for row in self.grid]


def tile_runs(row: str, kind: str) -> list[tuple[int, int]]:
    """Split one map row into runs of consecutive ``kind`` cells.

    Args:
        row: One row of a level map.
        kind: The tile character to look for.

    Returns:
        ``(first, last)`` column pairs, both inclusive, left to right.
    """
    runs: list[tuple[int, int]] = []
    first: int | None = None
    for col, ch in enumerate(row + "."):
        if ch == kind and first is None:
            first = col
        elif ch != kind and first is not None:
            last = col - 1
            if last > first:  # injected bug 2: should be >=, a one-cell run is dropped
                runs.append((first, last))
            first = None
    return runs


def build_level(index: int = 0) -> LevelLayout:
    """Read level ``index`` of :data:`LEVELS` into drawn tiles, collision rects and spawn points.

    Args:
        index: Which level to build.

    Returns:
        The level layout.

    Raises:
        ValueError: If there is no such level or its map is malformed.
    """
    if not 0 <= index < len(LEVELS):
        raise ValueError(f"no level {index}; levels are 0..{len(LEVELS) - 1}")
    grid = LEVELS[index]
    if len({len(row) for row in grid}) != 1:
        raise ValueError(f"level {index}: map rows differ in length")
    layout = LevelLayout(grid=list(grid))
    found_player = found_flag = False
    for row_index, row in enumerate(grid):
        for col, ch in enumerate(row):
            centre = (col * TILE + TILE // 2, row_index * TILE + TILE // 2)
            bottom = (col * TILE + TILE // 2, (row_index + 1) * TILE)
            if ch in SOLID_CHARS:
                layout.tiles.append((col, row_index, ch))
            elif ch == "P":
                layout.player_start, found_player = bottom, True
            elif ch == "C":
                layout.coins.append(centre)
            elif ch == "E":
                layout.enemies.append(bottom)
            elif ch == "B":
                layout.crates.append(bottom)
            elif ch == "F":
                layout.flag, found_flag = bottom, True
            elif ch != ".":
                raise ValueError(f"level {index}: unknown map character {ch!r} at ({col}, {row_index})")
        # Merge runs of same-kind tiles into one collision rect each: far fewer rects to test.
        for kind in SOLID_CHARS:
            for first, last in tile_runs(row, kind):
                rect = pygame.Rect(first * TILE, row_index * TILE, (last - first + 1) * TILE, TILE)
                layout.solids.append(Solid(rect, kind))
    if not (found_player and found_flag):
        raise ValueError(f"level {index}: the map needs a 'P' and an 'F'")
    return layout


def raycast(
    start: Sequence[float],
    end: Sequence[float],
    targets: Sequence[pygame.Rect],
    blockers: Sequence[pygame.Rect] = (),
) -> int | None:
    """Cast a ray along the segment ``start`` -> ``end`` and find the first target it hits.

    Args:
        start: Where the ray starts (world pixels).
        end: Where it ends.
        targets: Rects that can be hit.
        blockers: Rects that stop the ray (walls); a target behind one is not hit.

    Returns:
        The index in ``targets`` of the nearest target on the segment, or None.
    """
    x0, y0 = round(start[0]), round(start[1])
    x1, y1 = round(end[0]), round(end[1])

    def distance(rect: pygame.Rect) -> float | None:
        clipped = rect.clipline(x0, y0, x1, y1)
        if not clipped:
            return None
        (cx, cy), _ = clipped  # clipline keeps the segment's direction: this is the entry point
        return math.hypot(cx - x0, cy - y0)

    best: int | None = None
    best_distance = math.inf
    for i, rect in enumerate(targets):
        d = distance(rect)
        if d is not None and d < best_distance:
            best, best_distance = i, d
    if best is None:
        return None
    for rect in blockers:
        d = distance(rect)
        if d is not None and d < best_distance:
            return None
    return best


def make_blip(frequency: float, ms: int, volume: float = 0.25) -> pygame.mixer.Sound:
    """Synthesise a short square-wave blip that fades out, matching the mixer's rate and channels.

    Args:
        frequency: Tone in Hz.
        ms: Length in milliseconds.
        volume: Peak amplitude, 0..1.

    Returns:
        A sound ready to ``play()``.
    """
    rate, _size, channels = pygame.mixer.get_init()
    count = max(1, rate * ms // 1000)
    half_period = max(1, int(rate / frequency / 2))
    samples = array("h")
    for i in range(count):
        level = int(32767 * volume * (1 - i / count))
        value = level if (i // half_period) % 2 == 0 else -level
        samples.extend([value] * channels)
    return pygame.mixer.Sound(buffer=samples.tobytes())


# --- Sprites ---------------------------------------------------------------------------------------
class Tile(pygame.sprite.Sprite):
    """A drawn map tile. It never moves; collision uses the merged :class:`Solid` rects instead."""

    def __init__(self, col: int, row: int, kind: str, grass: bool) -> None:
        """Create the tile at map cell ``(col, row)``; ``grass`` draws a grassy top (air above)."""
        super().__init__()
        self.kind = kind
        self.image = pygame.Surface((TILE, TILE))
        self.image.fill(COLORS[kind])
        if kind == BRICK:
            pygame.draw.line(self.image, (120, 50, 40), (0, TILE // 2), (TILE, TILE // 2), 2)
            pygame.draw.line(self.image, (120, 50, 40), (TILE // 2, 0), (TILE // 2, TILE // 2), 2)
        elif kind == MUD:
            for x in (6, 17, 25):
                pygame.draw.circle(self.image, (70, 55, 30), (x, 10 + x % 7), 3)
        elif grass:
            pygame.draw.rect(self.image, COLORS["grass"], (0, 0, TILE, 6))
        pygame.draw.rect(self.image, (0, 0, 0), self.image.get_rect(), 1)
        self.rect = self.image.get_rect(topleft=(col * TILE, row * TILE))


class Coin(pygame.sprite.Sprite):
    """A coin that bobs up and down; touching it scores :data:`COIN_SCORE`."""

    def __init__(self, game: Game, centre: tuple[int, int], index: int) -> None:
        """Place coin number ``index`` at ``centre``."""
        super().__init__()
        self.game = game
        self.name = f"coin-{index}"
        self.image = pygame.Surface((12, 12), pygame.SRCALPHA)
        pygame.draw.circle(self.image, COLORS["coin"], (6, 6), 6)
        pygame.draw.circle(self.image, (200, 150, 20), (6, 6), 6, 2)
        self.home = centre
        self.phase = random.uniform(0, 2 * math.pi)
        self.rect = self.image.get_rect(center=centre)

    def update(self) -> None:
        """Bob around the home position."""
        offset = round(3 * math.sin(self.game.frame / 12 + self.phase))
        self.rect.center = (self.home[0], self.home[1] + offset)


class Crate(pygame.sprite.Sprite):
    """A wooden crate: solid for the player, blocks bullets, breaks after :data:`CRATE_HP` hits."""

    def __init__(self, game: Game, midbottom: tuple[int, int], index: int) -> None:
        """Place crate number ``index`` standing on ``midbottom``."""
        super().__init__()
        self.game = game
        self.name = f"crate-{index}"
        self.hp = CRATE_HP
        self.flash = 0
        self.image = pygame.Surface((CRATE_SIZE, CRATE_SIZE))
        self.rect = self.image.get_rect(midbottom=midbottom)
        self._paint()

    def _paint(self) -> None:
        colour = (240, 220, 180) if self.flash else COLORS["crate"]
        self.image.fill(colour)
        pygame.draw.rect(self.image, (90, 60, 30), self.image.get_rect(), 3)
        pygame.draw.line(self.image, (90, 60, 30), (0, 0), (CRATE_SIZE, CRATE_SIZE), 2)

    def hit(self) -> bool:
        """Take one bullet; returns True when the crate breaks."""
        self.hp -= 1
        self.flash = 6
        self._paint()
        return self.hp <= 0

    def update(self) -> None:
        """Fade the hit flash."""
        if self.flash:
            self.flash -= 1
            if not self.flash:
                self._paint()


class Flag(pygame.sprite.Sprite):
    """The goal: a pole with a waving flag; touching it wins the level."""

    def __init__(self, game: Game, midbottom: tuple[int, int]) -> None:
        """Plant the pole at ``midbottom``."""
        super().__init__()
        self.game = game
        self.image = pygame.Surface((34, 3 * TILE), pygame.SRCALPHA)
        self.rect = self.image.get_rect(midbottom=midbottom)
        self.update()

    def update(self) -> None:
        """Wave the flag."""
        self.image.fill((0, 0, 0, 0))
        pygame.draw.rect(self.image, COLORS["pole"], (15, 0, 4, self.rect.height))
        wave = round(3 * math.sin(self.game.frame / 8))
        pygame.draw.polygon(self.image, COLORS["flag"], [(19, 2), (34, 10 + wave), (19, 20)])
        pygame.draw.polygon(self.image, (200, 30, 30), [(19, 2), (34, 10 + wave), (19, 20)], 2)


class Bullet(pygame.sprite.Sprite):
    """A shot flying in a straight line until it hits a wall, a crate, an enemy or runs out of range."""

    def __init__(self, game: Game, pos: pygame.Vector2, velocity: pygame.Vector2) -> None:
        """Launch a bullet from ``pos`` with ``velocity`` (pixels per frame)."""
        super().__init__()
        self.game = game
        self.pos = pygame.Vector2(pos)
        self.velocity = pygame.Vector2(velocity)
        self.life = BULLET_LIFE
        self.image = pygame.Surface((6, 6), pygame.SRCALPHA)
        pygame.draw.circle(self.image, COLORS["bullet"], (3, 3), 3)
        self.rect = self.image.get_rect(center=(round(self.pos.x), round(self.pos.y)))

    def update(self) -> None:
        """Fly one frame; vanish in walls, out of the world or at the end of the range."""
        self.pos += self.velocity
        self.rect.center = (round(self.pos.x), round(self.pos.y))
        self.life -= 1
        world = self.game.layout
        outside = not (0 <= self.pos.x < world.width and -TILE <= self.pos.y < world.height)
        if self.life <= 0 or outside or self.rect.collidelist(self.game.solid_rects) != -1:
            self.kill()


class Enemy(pygame.sprite.Sprite):
    """A walker that patrols its platform and chases the player when it sees them or is shot."""

    def __init__(self, game: Game, midbottom: tuple[int, int], index: int) -> None:
        """Place enemy number ``index`` standing on ``midbottom``; it patrols the platform below it."""
        super().__init__()
        self.game = game
        self.name = f"enemy-{index}"
        self.hp = ENEMY_HP
        self.dead = False
        self.alert = 0
        self.chasing = False
        self.image = pygame.Surface((ENEMY_W, ENEMY_H), pygame.SRCALPHA)
        self.rect = self.image.get_rect(midbottom=midbottom)
        self.left, self.right = self._patrol_span(midbottom)
        self.direction = random.choice((-1, 1))
        start = midbottom[0] - ENEMY_W / 2 + random.uniform(-TILE / 2, TILE / 2)
        self.x = min(max(start, self.left), self.right - ENEMY_W)
        self.rect.x = round(self.x)
        self._paint()

    def _patrol_span(self, midbottom: tuple[int, int]) -> tuple[int, int]:
        """World x range of the floor the enemy stands on: open cells with a drawn tile below."""
        layout = self.game.layout
        col, row = midbottom[0] // TILE, midbottom[1] // TILE - 1

        def standable(c: int) -> bool:
            return layout.cell(c, row) not in SOLID_CHARS and layout.cell(c, row + 1) in SOLID_CHARS

        left = right = col
        while standable(left - 1):
            left -= 1
        while standable(right + 1):
            right += 1
        return left * TILE, (right + 1) * TILE

    def _paint(self) -> None:
        self.image.fill((0, 0, 0, 0))
        body = COLORS["enemy_chase"] if self.chasing else COLORS["enemy"]
        pygame.draw.rect(self.image, body, (0, 4, ENEMY_W, ENEMY_H - 4), border_radius=6)
        eye_x = ENEMY_W // 2 + 5 * self.direction
        pygame.draw.circle(self.image, (255, 255, 255), (eye_x, 10), 4)
        pygame.draw.circle(self.image, (0, 0, 0), (eye_x + self.direction, 10), 2)

    def update(self) -> None:
        """Patrol back and forth, or chase the player while alerted or when the player is close."""
        player = self.game.player
        dx = player.rect.centerx - self.rect.centerx
        dy = player.rect.centery - self.rect.centery
        if self.alert:
            self.alert -= 1
        self.chasing = self.alert > 0 or (abs(dx) < SIGHT_X and abs(dy) < SIGHT_Y)
        if self.chasing:
            if abs(dx) > 2:
                self.direction = 1 if dx > 0 else -1
            speed = CHASE_SPEED if abs(dx) > 2 else 0.0
        else:
            speed = PATROL_SPEED
        old_x = self.x
        self.x += self.direction * speed
        if self.x < self.left:
            self.x = self.left
            if not self.chasing:
                self.direction = 1
        elif self.x > self.right - ENEMY_W:
            self.x = self.right - ENEMY_W
            if not self.chasing:
                self.direction = -1
        self.rect.x = round(self.x)
        if pygame.sprite.spritecollideany(self, self.game.crates):
            self.x = old_x
            self.rect.x = round(self.x)
            if not self.chasing:
                self.direction = -self.direction
        self._paint()


class Player(pygame.sprite.Sprite):
    """The player character: runs, jumps, aims with the mouse and shoots."""

    def __init__(self, game: Game, midbottom: tuple[int, int]) -> None:
        """Spawn the player standing on ``midbottom``."""
        super().__init__()
        self.game = game
        self.image = pygame.Surface((PLAYER_W, PLAYER_H), pygame.SRCALPHA)
        self.rect = self.image.get_rect(midbottom=midbottom)
        self.x, self.y = float(self.rect.x), float(self.rect.y)
        self.vx = 0.0
        self.vy = 0.0
        self.facing = 1
        self.hp = MAX_HP
        self.ammo = MAX_AMMO
        self.jump_enabled = True
        self.grounded = False
        self.ground_kind = ""
        self.land_lock = 0
        self.invulnerable = 0
        self.rack_frame = -10_000  # frame an empty gun last got a fresh magazine
        self.dry_pull_frame = -1  # frame F was released on an empty gun
        self.joystick: pygame.joystick.JoystickType | None = None
        self.aim = pygame.Vector2(self.rect.centerx + 100, self.rect.centery)
        self.highlight: pygame.sprite.Sprite | None = None

    def on_ground(self) -> bool:
        """True while standing on something solid (as of the last physics step)."""
        return self.grounded

    def in_mud(self) -> bool:
        """True while standing on mud."""
        return self.grounded and self.ground_kind == MUD

    def update(self) -> None:
        """Read the controls (Listings 1 and 4), then move with gravity and collisions."""
        # Listing 1: horizontal axis from the joystick if there is one, else from the keyboard.
        keys = pygame.key.get_pressed()
        jump_button = False
        if pygame.joystick.get_count() > 0:
            if self.joystick is None:
                self.joystick = pygame.joystick.Joystick(0)
            axis = self.joystick.get_axis(0)
            jump_button = bool(self.joystick.get_button(0))
        else:
            axis = (keys[pygame.K_RIGHT] or keys[pygame.K_d]) - (keys[pygame.K_LEFT] or keys[pygame.K_a])
        speed = MUD_SPEED if self.in_mud() else RUN_SPEED
        if axis > DEADZONE:
            self.vx = speed
            self.facing = 1
        elif axis < -DEADZONE:
            self.vx = -speed
            self.facing = -1
        else:
            self.vx = 0.0
        if self.jump_enabled and self.on_ground():
            if keys[pygame.K_SPACE] or jump_button:
                self.vy = -JUMP_SPEED
                self.game.sounds["jump"].play()
                probe.event("jump", x=self.rect.centerx, y=self.rect.centery)

        # Listing 4: aim at the mouse (screen -> world), ray-cast toward it, highlight what it hits.
        mx, my = pygame.mouse.get_pos()
        self.aim.update(mx + self.game.camera.x, my + self.game.camera.y)
        targets = self.game.aim_targets()
        hit = raycast(self.rect.center, self.aim, [t.rect for t in targets], self.game.solid_rects)
        if hit is not None:
            self.highlight = targets[hit]
        else:
            self.highlight = None

        self._move()
        if self.land_lock:
            self.land_lock -= 1
        if self.invulnerable:
            self.invulnerable -= 1
        self.jump_enabled = self.land_lock == 0 and not self.in_mud()
        self._paint()

    def handle_event(self, event: pygame.event.Event) -> None:
        """Listing 3: reload when R goes down, fire when F comes up (or on a left click) with ammo left."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_r:
            was_empty = self.ammo == 0
            self.ammo = MAX_AMMO
            self._reloaded(was_empty)
        elif event.type == pygame.KEYUP and event.key == pygame.K_f:
            if self.ammo > 0:
                self.fire()
            else:
                # Remember the empty trigger pull: if R goes down in this same frame, the shot still goes.
                self.dry_pull_frame = self.game.frame
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.ammo > 0:
                self.fire()

    def _reloaded(self, was_empty: bool) -> None:
        probe.event("reload", was_empty=was_empty)
        if was_empty:
            # A fresh magazine is racked into an empty gun; shots kick harder until it settles.
            self.rack_frame = self.game.frame
            if self.dry_pull_frame == self.game.frame:
                self.dry_pull_frame = -1
                self.fire()

    def fire(self) -> None:
        """Shoot one bullet toward the aim point (with some spread in the air) and use one round."""
        start = pygame.Vector2(self.rect.center)
        direction = self.aim - start
        if direction.length_squared() < 1:
            direction = pygame.Vector2(self.facing, 0)
        spread = 0.0
        if not self.on_ground():
            frames_since_rack = self.game.frame - self.rack_frame
            spread = AIR_SPREAD + RACK_KICK / frames_since_rack  # injected bug 1: 0 in the rack frame
        if spread:
            direction.rotate_ip(random.uniform(-spread, spread))
        self.ammo -= 1
        self.game.spawn_bullet(start, direction.normalize() * BULLET_SPEED)
        self.game.sounds["shot"].play()
        probe.event("shot", ammo=self.ammo, x=self.rect.centerx, y=self.rect.centery)

    def hurt(self) -> None:
        """Lose one hp (unless still invulnerable from the last hit) and hop."""
        if self.invulnerable or self.hp <= 0:
            return
        self.hp -= 1
        self.invulnerable = HURT_FRAMES
        self.vy = -HURT_HOP
        probe.event("hurt", hp=self.hp)

    def move_to(self, x: float, y: float) -> None:
        """Put the player's centre at world position ``(x, y)`` and stop it (the ``teleport`` hook)."""
        self.rect.center = (round(x), round(y))
        self.x, self.y = float(self.rect.x), float(self.rect.y)
        self.vx = self.vy = 0.0
        self.grounded = False

    def _move(self) -> None:
        """Apply gravity and move one axis at a time, stopping at solids."""
        solids = self.game.collision_rects()
        world_w = self.game.layout.width
        self.vy = min(self.vy + GRAVITY, MAX_FALL)

        self.x = min(max(self.x + self.vx, 0.0), float(world_w - PLAYER_W))
        self.rect.x = math.floor(self.x)
        for index in self.rect.collidelistall(solids):
            if self.vx > 0:
                self.rect.right = solids[index].left
            elif self.vx < 0:
                self.rect.left = solids[index].right
            self.x = float(self.rect.x)

        was_grounded = self.grounded
        self.y += self.vy
        self.rect.y = math.floor(self.y)
        for index in self.rect.collidelistall(solids):
            if self.vy > 0:
                self.rect.bottom = solids[index].top
            elif self.vy < 0:
                self.rect.top = solids[index].bottom
                self.vy = 0.0
            self.y = float(self.rect.y)
        feet = pygame.Rect(self.rect.left, self.rect.bottom, self.rect.width, 1)
        self.grounded = self.vy >= 0 and feet.collidelist(solids) != -1
        self.ground_kind = ""
        if self.grounded:
            self.vy = 0.0
            self.y = float(self.rect.y)
            for solid in self.game.layout.solids:
                if feet.colliderect(solid.rect):
                    self.ground_kind = solid.kind
                    if solid.kind == MUD:
                        break
            if not was_grounded:
                self.land_lock = LAND_LOCK_FRAMES

    def _paint(self) -> None:
        self.image.fill((0, 0, 0, 0))
        if self.invulnerable and (self.invulnerable // 4) % 2:
            return  # blink while invulnerable
        pygame.draw.rect(self.image, COLORS["player"], (0, 6, PLAYER_W, PLAYER_H - 6), border_radius=4)
        pygame.draw.circle(self.image, (250, 210, 170), (PLAYER_W // 2, 7), 7)
        eye_x = PLAYER_W // 2 + 3 * self.facing
        pygame.draw.circle(self.image, (0, 0, 0), (eye_x, 6), 2)


# --- The game ---------------------------------------------------------------------------------------
class Game:
    """One level being played: sprites, rules, probes and drawing. Needs ``pygame.init()`` first."""

    def __init__(self, level: int = 0) -> None:
        """Build level ``level`` and everything in it.

        Args:
            level: Index into :data:`LEVELS`.
        """
        self.layout = build_level(level)
        self.frame = 0
        self.state = "play"  # "play", "dead" or "won"
        self.end_timer = 0
        self.score = 0
        self.camera = pygame.Vector2(0, 0)
        self.solid_rects = [solid.rect for solid in self.layout.solids]
        self.sounds = {"jump": make_blip(660, 90), "shot": make_blip(220, 60)}
        self.font = pygame.font.Font(None, 24)
        self.big_font = pygame.font.Font(None, 64)

        self.tiles = pygame.sprite.Group()
        self.tile_at: dict[tuple[int, int], Tile] = {}
        for col, row, kind in self.layout.tiles:
            tile = Tile(col, row, kind, grass=self.layout.cell(col, row - 1) not in SOLID_CHARS)
            self.tiles.add(tile)
            self.tile_at[(col, row)] = tile
        self.player = Player(self, self.layout.player_start)
        self.coins = pygame.sprite.Group(Coin(self, c, i) for i, c in enumerate(self.layout.coins))
        self.crates = pygame.sprite.Group(Crate(self, c, i) for i, c in enumerate(self.layout.crates))
        self.enemies = pygame.sprite.Group(Enemy(self, e, i) for i, e in enumerate(self.layout.enemies))
        self.bullets = pygame.sprite.Group()
        self.flag = Flag(self, self.layout.flag)
        coin_count = len(self.layout.coins) + len(self.layout.crates)  # every crate holds a coin
        self.max_score = COIN_SCORE * coin_count + ENEMY_SCORE * len(self.layout.enemies)
        self._coin_index = len(self.layout.coins)
        self._background = self._paint_background()

        probe.hook("teleport", self.player.move_to)
        probe.hook("walkable", self.layout.walkable)
        self._follow_player()

    @property
    def finished(self) -> bool:
        """True once the game-over or level-complete screen has been shown long enough."""
        return self.state != "play" and self.end_timer <= 0

    def collision_rects(self) -> list[pygame.Rect]:
        """Everything the player collides with: level solids plus the crates still standing."""
        return self.solid_rects + [crate.rect for crate in self.crates]

    def aim_targets(self) -> list[pygame.sprite.Sprite]:
        """Sprites the aim ray can highlight: live enemies and crates."""
        return [*self.enemies, *self.crates]

    def spawn_bullet(self, pos: pygame.Vector2, velocity: pygame.Vector2) -> None:
        """Add a bullet to the world."""
        self.bullets.add(Bullet(self, pos, velocity))

    def handle_event(self, event: pygame.event.Event) -> None:
        """Pass an input event to the player while the level is being played."""
        if self.state == "play":
            self.player.handle_event(event)

    def update(self) -> None:
        """Advance the game by one frame."""
        if self.state != "play":
            self.end_timer -= 1
            self._report()
            self.frame += 1
            return
        self.player.update()
        self.enemies.update()
        self.bullets.update()
        self.coins.update()
        self.crates.update()
        self.flag.update()
        self._resolve_hits()
        self._check_player()
        self._follow_player()
        self._report()
        self.frame += 1

    def _resolve_hits(self) -> None:
        player = self.player
        # Snapshot so enemies can be killed while looping (injected bug 3: a killed one stays in it).
        live_enemies = self.enemies.sprites()
        for bullet in self.bullets.sprites():
            crate = pygame.sprite.spritecollideany(bullet, self.crates)
            if crate is not None:
                bullet.kill()
                if crate.hit():
                    self._break_crate(crate)
                continue
            for enemy in live_enemies:
                if bullet.rect.colliderect(enemy.rect):
                    bullet.kill()
                    self._shoot_enemy(enemy)
                    break

        for coin in pygame.sprite.spritecollide(player, self.coins, True):
            self.score += COIN_SCORE
            probe.event("coin", id=coin.name, score=self.score)

        if pygame.sprite.spritecollideany(player, self.enemies) is not None:
            player.hurt()

    def _shoot_enemy(self, enemy: Enemy) -> None:
        enemy.hp -= 1
        enemy.alert = ALERT_FRAMES
        if enemy.hp <= 0:
            probe.check(not enemy.dead, "enemy killed twice", id=enemy.name)
            enemy.dead = True
            enemy.kill()
            self.score += ENEMY_SCORE
            probe.event("enemy_killed", id=enemy.name, score=self.score)

    def _break_crate(self, crate: Crate) -> None:
        crate.kill()
        probe.event("crate_broken", id=crate.name)
        self.coins.add(Coin(self, crate.rect.center, self._coin_index))
        self._coin_index += 1

    def _check_player(self) -> None:
        player = self.player
        layout = self.layout
        # The player must never be inside a tile that is drawn as floor: look at the column under it.
        col = player.rect.centerx // TILE
        for row in range(player.rect.top // TILE, (player.rect.bottom - 1) // TILE + 1):
            if layout.cell(col, row) in SOLID_CHARS:
                probe.check(
                    player.rect.bottom <= row * TILE,
                    "player fell through the floor",
                    x=player.rect.centerx,
                    y=player.rect.bottom,
                    col=col,
                    row=row,
                )
                break
        if player.rect.top > layout.height:
            self._end("dead", "player_died", cause="pit")
        elif player.hp <= 0:
            self._end("dead", "player_died", cause="enemy")
        elif player.rect.colliderect(self.flag.rect):
            self._end("won", "win", score=self.score)

    def _end(self, state: str, event: str, **data: object) -> None:
        self.state = state
        self.end_timer = END_FRAMES
        probe.event(event, **data)

    def _follow_player(self) -> None:
        target = self.player.rect.centerx - SCREEN_W / 2
        self.camera.x = min(max(target, 0), self.layout.width - SCREEN_W)
        self.camera.y = 0

    def _report(self) -> None:
        player = self.player
        probe.observe(
            x=player.rect.centerx,
            y=player.rect.centery,
            vx=player.vx,
            vy=player.vy,
            hp=player.hp,
            ammo=player.ammo,
            score=self.score,
            on_ground=int(player.on_ground()),
            jump_enabled=int(player.jump_enabled),
        )
        probe.entity("player", "player", player.rect.center, hp=player.hp, ammo=player.ammo)
        for enemy in self.enemies:
            probe.entity(enemy.name, "enemy", enemy.rect.center, hp=enemy.hp, chasing=int(enemy.chasing))
        for coin in self.coins:
            probe.entity(coin.name, "coin", coin.home)
        for crate in self.crates:
            probe.entity(crate.name, "crate", crate.rect.center, hp=crate.hp)
        probe.entity("flag", "flag", self.flag.rect.midbottom)
        probe.check(player.hp <= MAX_HP, "hp above its maximum", hp=player.hp)
        probe.check(0 <= player.ammo <= MAX_AMMO, "ammo outside 0..MAX_AMMO", ammo=player.ammo)
        probe.check(self.score <= self.max_score, "score above the maximum possible", score=self.score)

    # --- drawing ---------------------------------------------------------------------------------------
    def _paint_background(self) -> pygame.Surface:
        surface = pygame.Surface((SCREEN_W, SCREEN_H))
        surface.fill(COLORS["sky"])
        for i in range(5):
            pygame.draw.circle(surface, COLORS["hill"], (i * 160 + 40, SCREEN_H + 40), 130)
        return surface

    def draw(self, screen: pygame.Surface) -> None:
        """Draw the visible part of the world, the HUD and any end-of-level message."""
        cam_x = round(self.camera.x)
        screen.blit(self._background, (0, 0))
        first_col = cam_x // TILE
        for col in range(first_col, first_col + SCREEN_W // TILE + 2):
            for row in range(self.layout.rows):
                tile = self.tile_at.get((col, row))
                if tile is not None:
                    screen.blit(tile.image, tile.rect.move(-cam_x, 0))
        for group in (self.coins, self.crates, self.enemies, self.bullets):
            for sprite in group:
                screen.blit(sprite.image, sprite.rect.move(-cam_x, 0))
        screen.blit(self.flag.image, self.flag.rect.move(-cam_x, 0))
        screen.blit(self.player.image, self.player.rect.move(-cam_x, 0))
        target = self.player.highlight
        if target is not None and target.alive():
            pygame.draw.rect(screen, COLORS["highlight"], target.rect.move(-cam_x, 0).inflate(6, 6), 2)
        aim = (round(self.player.aim.x) - cam_x, round(self.player.aim.y))
        pygame.draw.circle(screen, COLORS["text"], aim, 6, 1)
        pygame.draw.line(screen, COLORS["text"], (aim[0] - 9, aim[1]), (aim[0] + 9, aim[1]))
        pygame.draw.line(screen, COLORS["text"], (aim[0], aim[1] - 9), (aim[0], aim[1] + 9))

        hud = f"HP {self.player.hp}/{MAX_HP}   Ammo {self.player.ammo}/{MAX_AMMO}   Score {self.score}"
        screen.blit(self.font.render(hud, True, COLORS["text"]), (10, 8))
        if self.state != "play":
            message = "Game over" if self.state == "dead" else "Level complete!"
            text = self.big_font.render(message, True, (255, 255, 255))
            shadow = self.big_font.render(message, True, (0, 0, 0))
            where = text.get_rect(center=(SCREEN_W // 2, SCREEN_H // 2))
            screen.blit(shadow, where.move(3, 3))
            screen.blit(text, where)


def main(fps: int = DEFAULT_FPS, max_frames: int | None = None, level: int = 0) -> None:
    """Play the game until the window is closed, Escape, game over, the level is won or ``max_frames``.

    Args:
        fps: Frame-rate cap; 0 runs as fast as possible. Game speed is per frame either way.
        max_frames: Return after drawing this many frames (for benchmarks); None plays on.
        level: Index into :data:`LEVELS`.
    """
    pygame.mixer.pre_init(22050, -16, 1, 512)
    pygame.init()
    pygame.mixer.init()
    screen = pygame.display.set_mode((SCREEN_W, SCREEN_H))
    pygame.display.set_caption("Platformer")
    clock = pygame.time.Clock()
    game = Game(level)
    frames = 0
    running = True
    while running:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                running = False
            else:
                game.handle_event(event)
        if not running:
            break
        game.update()
        game.draw(screen)
        pygame.display.flip()
        clock.tick(fps)
        frames += 1
        if game.finished or (max_frames is not None and frames >= max_frames):
            running = False
    pygame.quit()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Platformer: a small side-scroller bundled with playtester.")
    parser.add_argument("--fps", type=int, default=DEFAULT_FPS, help="frame-rate cap, 0 = unlimited")
    parser.add_argument("--frames", type=int, default=None, help="quit after this many frames")
    parser.add_argument("--level", type=int, default=0, help=f"level index, 0..{len(LEVELS) - 1}")
    args = parser.parse_args()
    main(fps=args.fps, max_frames=args.frames, level=args.level)
