"""Arena: a top-down twin-stick shooter bundled with playtester as a benchmark (joystick first).

Survive waves of enemies in a walled arena. Enemies spawn along the walls (positions drawn with the
module-level :mod:`random`, which playtester seeds per episode) and chase the player; bullets kill them,
touching one costs a hit point, every wave has more, tougher and faster enemies. The game ends when hp
reaches 0 (or after the last wave): "Game over" is shown for about a second and :func:`main` returns.

Controls (a game controller first; the keyboard is the fallback when ``pygame.joystick.get_count()`` is
0, i.e. no controller is plugged in):
    Left stick (axes 0, 1)      / W A S D      move
    Right stick (axes 2, 3)     / arrow keys   aim, and fire continuously while the stick is pushed past
                                               half way (``FIRE_THRESHOLD``); the arrows always fire
    Button 0                    / Space        dash (``DASH_FRAMES`` frames, invulnerable, then a cooldown)
    Button 1                    / B            bomb: kills every enemy near the player (limited bombs)
    Hat (d-pad): up, right, down, left / Q, E  select weapon 1, 2, 3, 4 / previous, next weapon
    Escape                                     quit

The controller is opened the way real games do it: on ``JOYDEVICEADDED`` with
``pygame.joystick.Joystick(event.device_index)``. Movement, aim and dash are polled every frame
(``get_axis``, ``get_button``; ``get_hat`` opens the weapon wheel overlay while the d-pad is held); the
bomb (``JOYBUTTONDOWN``) and weapon selection (``JOYHATMOTION``) are events. The player's movement
follows the action-space paper's Listing 4: the axis value is used without a branch
(``x += axis * speed``).

Weapons (designed damage per hit, the balance range is 1..20 for every weapon):
    1 pistol   10 damage, one bullet every 12 frames
    2 smg       4 damage, one bullet every 4 frames, small alternating spread
    3 cannon   16 damage (designed), one heavy slug every 30 frames
    4 shotgun   6 damage per pellet, 5 pellets every 28 frames

Instrumentation goes through :mod:`playtester.probe`: every frame ``observe(x, y, hp, score, wave, bombs,
weapon, dash_ready, enemies)``, entities ``player`` and ``enemy-N``; events ``shot``, ``hit`` (damage,
weapon), ``dash``, ``bomb``, ``enemy_killed``, ``wave``, ``weapon``, ``hurt``, ``player_died``, ``win``;
checks "hp within 0..MAX_HP", "bombs >= 0" and "player inside the arena walls".

Injected bugs (kept on purpose; listed in :data:`INJECTED_BUGS` for benchmark scoring):

1. ``dash-bomb-crash`` (crash, ``ZeroDivisionError``). A bomb set off while the player is dashing is
   "slung" ahead along the aim (the right stick) instead of going off at the player's feet, and the
   throw direction is computed with :func:`normalize`, which divides by the vector's length without the
   zero check every other caller has. With the right stick exactly neutral (0, 0) the length is 0. Needs
   all of: a dash in progress (button 0 pressed with the dash ready; it lasts ``DASH_FRAMES`` frames,
   including the frame it starts), a bomb left (``bombs > 0``), button 1 going down in one of the dash's
   frames, and the right stick exactly centred. Keyboard: Space and B with no arrow key held.
2. ``dash-corner-escape`` (assertion, probe check ``"player inside the arena walls"``). Walking is clamped
   on both axes, but a dash step resolves the walls with :func:`resolve_dash_walls`, which corrects x
   *or* y (an ``elif`` instead of a second ``if``). Dashing diagonally into a corner crosses both walls in
   one step, only x is pushed back, and the player ends up inside the wall (outside the arena).
3. ``cannon-damage`` (balance, ``hit.damage`` outside [1, 20]). The weapon table has a typo: the cannon
   (weapon 3, d-pad down) does 160 damage per hit instead of the designed 16. Every hit is reported as
   ``probe.event("hit", damage=d, weapon=w)``; the game's config sets the balance oracle's range
   ``"hit.damage" = [1, 20]``.

Run it with ``python -m playtester.games.arena`` (``--fps 0 --frames 300`` for a quick headless run).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pygame

from playtester import probe

__all__ = [
    "ARENA",
    "INJECTED_BUGS",
    "WEAPONS",
    "Bullet",
    "Enemy",
    "Explosion",
    "Game",
    "Player",
    "WavePlan",
    "Weapon",
    "arena_contains",
    "clamp_to_arena",
    "direction_or",
    "main",
    "normalize",
    "resolve_dash_walls",
    "rotate",
    "spawn_positions",
    "wave_plan",
]

INJECTED_BUGS: list[dict[str, str]] = [
    {
        "id": "dash-bomb-crash",
        "kind": "crash",
        "message": "ZeroDivisionError",
        "description": "A bomb set off during a dash is thrown along the aim vector, normalised with "
        "normalize() (no zero check); with the right stick exactly neutral its length is 0 (Game.detonate).",
        "how": "Press joystick button 0 (dash, when ready) and, in the same frame or within the dash's "
        "8 frames, button 1 (bomb, with bombs left) while the right stick (axes 2, 3) is exactly centred; "
        "keyboard: Space and B together with no arrow key held.",
    },
    {
        "id": "dash-corner-escape",
        "kind": "assertion",
        "message": "player inside the arena walls",
        "description": "resolve_dash_walls() corrects x or y but not both (elif), so a diagonal dash that "
        "crosses two walls in one step (a corner) leaves the player inside the wall.",
        "how": "Walk into a corner (e.g. left stick up-right until stopped), then dash (button 0) with the "
        "left stick still pointing diagonally into the corner.",
    },
    {
        "id": "cannon-damage",
        "kind": "balance",
        "message": "hit.damage = 160 is outside its designed range [1, 20]",
        "description": "The weapon table gives the cannon (weapon 3) 160 damage per hit instead of the "
        "designed 16; hits are reported as probe.event('hit', damage=..., weapon=...).",
        "how": "Select weapon 3 (hat down, i.e. hats {'0.0': [0, -1]}; keyboard: E twice) and hit an enemy "
        "with the right stick (or arrows).",
    },
]

# --- Screen and arena -----------------------------------------------------------------------------------
SCREEN_W, SCREEN_H = 640, 480
HUD_H = 32
WALL = 16
ARENA = pygame.Rect(WALL, HUD_H + WALL, SCREEN_W - 2 * WALL, SCREEN_H - HUD_H - 2 * WALL)
DEFAULT_FPS = 60
END_FRAMES = 60  # frames of "Game over" / "Arena cleared" before main() returns (~1 s at 60 fps)

# --- Player tuning (per frame: the game runs on a fixed timestep of one frame) ---------------------------
PLAYER_RADIUS = 11
PLAYER_SPEED = 3.0
MAX_HP = 5
HURT_FRAMES = 45  # invulnerability after a hit
FIRE_THRESHOLD = 0.5  # right-stick magnitude that fires
MOVE_DEADZONE = 0.2  # for facing and dash direction only; movement itself uses the raw axis
DASH_SPEED = 10.0
DASH_FRAMES = 8
DASH_COOLDOWN = 40
MAX_BOMBS = 3
BOMB_RADIUS = 140
BOMB_THROW = 120  # how far a bomb set off mid-dash is slung ahead
ENEMY_RADIUS = 11
CONTACT_DAMAGE = 1
KNOCKBACK = 40
SAFE_SPAWN = 160  # enemies never spawn closer than this to the player (when there is room)
WAVE_DELAY = 45  # frames between a cleared wave (or the start) and the next wave


@dataclass(frozen=True)
class Weapon:
    """One weapon's tuning."""

    name: str
    damage: int  # per bullet / pellet
    cooldown: int  # frames between shots
    speed: float
    pellets: int = 1
    spread: float = 0.0  # degrees between pellets (shotgun) or alternating offset (smg)
    radius: int = 3
    life: int = 70
    color: tuple[int, int, int] = (250, 240, 120)


WEAPONS: dict[int, Weapon] = {
    1: Weapon("pistol", damage=10, cooldown=12, speed=9.0),
    2: Weapon("smg", damage=4, cooldown=4, speed=11.0, spread=4.0, radius=2, color=(160, 240, 255)),
    # Injected bug 3: designed damage 16; a typo makes it 160.
    3: Weapon("cannon", damage=160, cooldown=30, speed=7.0, radius=6, color=(255, 150, 60)),
    4: Weapon(
        "shotgun", damage=6, cooldown=28, speed=10.0, pellets=5, spread=8.0, life=26, color=(250, 200, 200)
    ),
}
DESIGNED_DAMAGE = (1, 20)

# Hat value (x, y; y = 1 is up) -> weapon.
HAT_WEAPONS: dict[tuple[int, int], int] = {(0, 1): 1, (1, 0): 2, (0, -1): 3, (-1, 0): 4}

COLORS = {
    "floor": (38, 42, 52),
    "grid": (48, 53, 66),
    "wall": (90, 96, 120),
    "hud": (20, 22, 28),
    "text": (230, 230, 235),
    "player": (80, 170, 250),
    "player_dash": (200, 240, 255),
    "gun": (240, 240, 240),
    "enemy": (220, 70, 70),
    "enemy_edge": (120, 30, 30),
    "bomb": (255, 220, 120),
    "wheel": (255, 255, 255),
}


# --- Pure logic -----------------------------------------------------------------------------------------
def normalize(x: float, y: float) -> tuple[float, float]:
    """Return the unit vector in the direction of ``(x, y)``.

    Callers must not pass the zero vector: its length is 0 and this raises ``ZeroDivisionError``
    (:func:`direction_or` is the safe variant).
    """
    length = math.hypot(x, y)
    return x / length, y / length


def direction_or(
    x: float, y: float, fallback: tuple[float, float], minimum: float = 1e-9
) -> tuple[float, float]:
    """Unit vector of ``(x, y)``, or ``fallback`` when the vector is shorter than ``minimum``."""
    if math.hypot(x, y) < minimum:
        return fallback
    return normalize(x, y)


def rotate(x: float, y: float, degrees: float) -> tuple[float, float]:
    """Rotate the vector ``(x, y)`` by ``degrees`` (screen coordinates: positive turns clockwise)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return x * c - y * s, x * s + y * c


def _bounds(radius: float) -> tuple[float, float, float, float]:
    return ARENA.left + radius, ARENA.top + radius, ARENA.right - radius, ARENA.bottom - radius


def arena_contains(x: float, y: float, radius: float = PLAYER_RADIUS) -> bool:
    """True when a circle of ``radius`` centred on ``(x, y)`` lies inside the arena walls."""
    left, top, right, bottom = _bounds(radius)
    return left <= x <= right and top <= y <= bottom


def clamp_to_arena(x: float, y: float, radius: float = PLAYER_RADIUS) -> tuple[float, float]:
    """Move ``(x, y)`` to the nearest point where a circle of ``radius`` fits inside the walls."""
    left, top, right, bottom = _bounds(radius)
    return min(max(x, left), right), min(max(y, top), bottom)


def resolve_dash_walls(x: float, y: float, radius: float = PLAYER_RADIUS) -> tuple[float, float]:
    """Push a dashing circle back out of the wall it ran into.

    Injected bug 2: the y correction is an ``elif``, so when one step crosses a side wall and the top or
    bottom wall at once (a diagonal dash into a corner), only x is corrected.
    """
    left, top, right, bottom = _bounds(radius)
    if x < left or x > right:
        x = min(max(x, left), right)
    elif y < top or y > bottom:  # injected bug 2: should be a separate `if`
        y = min(max(y, top), bottom)
    return x, y


class WavePlan(NamedTuple):
    """How many enemies a wave has and how tough and fast they are."""

    count: int
    hp: int
    speed: float


def wave_plan(wave: int) -> WavePlan:
    """The enemies of wave ``wave`` (1-based): more, tougher and faster each wave.

    Raises:
        ValueError: If ``wave`` is below 1.
    """
    if wave < 1:
        raise ValueError(f"waves start at 1, got {wave}")
    return WavePlan(
        count=min(3 + 2 * (wave - 1), 25), hp=20 + 6 * (wave - 1), speed=min(1.0 + 0.15 * (wave - 1), 2.6)
    )


def spawn_positions(
    count: int, player: Sequence[float], rng: random.Random | None = None, tries: int = 20
) -> list[tuple[float, float]]:
    """Choose where the enemies of a wave appear: along the walls, away from the player.

    Each position is drawn on the inside edge of a random wall; draws closer than ``SAFE_SPAWN`` to the
    player are redrawn up to ``tries`` times (then the farthest draw is kept).

    Args:
        count: Number of enemies.
        player: The player's position.
        rng: Generator to draw with; None uses the module-level :mod:`random` (seeded per episode by
            playtester).
        tries: Draws per enemy before giving up on the safe distance.

    Returns:
        ``count`` positions, each inside the arena for an enemy's radius.
    """
    draw = random if rng is None else rng
    left, top, right, bottom = _bounds(ENEMY_RADIUS + 2)
    out: list[tuple[float, float]] = []
    for _ in range(count):
        best: tuple[float, float] | None = None
        best_distance = -1.0
        for _ in range(max(1, tries)):
            side = draw.randrange(4)
            t = draw.random()
            if side == 0:
                pos = (left + t * (right - left), top)
            elif side == 1:
                pos = (right, top + t * (bottom - top))
            elif side == 2:
                pos = (left + t * (right - left), bottom)
            else:
                pos = (left, top + t * (bottom - top))
            distance = math.hypot(pos[0] - player[0], pos[1] - player[1])
            if distance > best_distance:
                best, best_distance = pos, distance
            if distance >= SAFE_SPAWN:
                break
        assert best is not None
        out.append(best)
    return out


# --- Sprites --------------------------------------------------------------------------------------------
def _circle_image(
    radius: int, color: tuple[int, int, int], edge: tuple[int, int, int] | None = None
) -> pygame.Surface:
    image = pygame.Surface((2 * radius + 2, 2 * radius + 2), pygame.SRCALPHA)
    pygame.draw.circle(image, color, (radius + 1, radius + 1), radius)
    if edge is not None:
        pygame.draw.circle(image, edge, (radius + 1, radius + 1), radius, 2)
    return image


class Player(pygame.sprite.Sprite):
    """The player: reads the sticks (or the keyboard) in :meth:`update`, moves, dashes and shoots."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.x = float(ARENA.centerx)
        self.y = float(ARENA.centery)
        self.hp = MAX_HP
        self.bombs = MAX_BOMBS
        self.weapon = 1
        self.facing = (1.0, 0.0)
        self.aim = (0.0, 0.0)
        self.fire_cooldown = 0
        self.dash_frames = 0
        self.dash_cooldown = 0
        self.dash_dir = (1.0, 0.0)
        self.invulnerable = 0
        self.shots = 0
        self._images = {
            "normal": _circle_image(PLAYER_RADIUS, COLORS["player"], (30, 70, 130)),
            "dash": _circle_image(PLAYER_RADIUS, COLORS["player_dash"], (30, 70, 130)),
            "blink": pygame.Surface((2 * PLAYER_RADIUS + 2, 2 * PLAYER_RADIUS + 2), pygame.SRCALPHA),
        }
        self.image = self._images["normal"]
        self.rect = self.image.get_rect(center=(round(self.x), round(self.y)))

    @property
    def dashing(self) -> bool:
        """True during the frames of a dash."""
        return self.dash_frames > 0

    @property
    def dash_ready(self) -> bool:
        """True when button 0 would start a dash now."""
        return self.dash_cooldown == 0 and not self.dashing

    def update(self) -> None:
        """Read the controls and advance the player by one frame."""
        joy = self.game.controller()
        if joy is not None:
            move_x, move_y = joy.get_axis(0), joy.get_axis(1)
            aim_x, aim_y = joy.get_axis(2), joy.get_axis(3)
            dash_held = joy.get_button(0)
        else:
            keys = pygame.key.get_pressed()
            move_x = keys[pygame.K_d] - keys[pygame.K_a]
            move_y = keys[pygame.K_s] - keys[pygame.K_w]
            aim_x = keys[pygame.K_RIGHT] - keys[pygame.K_LEFT]
            aim_y = keys[pygame.K_DOWN] - keys[pygame.K_UP]
            dash_held = keys[pygame.K_SPACE]
        self.aim = (aim_x, aim_y)
        if math.hypot(move_x, move_y) > MOVE_DEADZONE:
            self.facing = normalize(move_x, move_y)

        if self.dash_frames > 0:
            self.dash_frames -= 1  # the previous frame of the dash is over
        if self.dash_cooldown > 0:
            self.dash_cooldown -= 1
        if dash_held and self.dash_ready:
            self.dash_dir = self.facing if math.hypot(move_x, move_y) > MOVE_DEADZONE else self._look()
            self.dash_frames = DASH_FRAMES
            self.dash_cooldown = DASH_COOLDOWN + DASH_FRAMES
            probe.event("dash", dx=self.dash_dir[0], dy=self.dash_dir[1])

        if self.dashing:
            self.x += self.dash_dir[0] * DASH_SPEED
            self.y += self.dash_dir[1] * DASH_SPEED
            self.x, self.y = resolve_dash_walls(self.x, self.y)
        else:
            # Listing 4: the axis value moves the player, no branch on it.
            self.x += move_x * PLAYER_SPEED
            self.y += move_y * PLAYER_SPEED
            self.x, self.y = clamp_to_arena(self.x, self.y)

        if self.fire_cooldown > 0:
            self.fire_cooldown -= 1
        magnitude = math.hypot(aim_x, aim_y)
        if magnitude > FIRE_THRESHOLD and self.fire_cooldown == 0:
            self.fire(aim_x / magnitude, aim_y / magnitude)

        if self.invulnerable > 0:
            self.invulnerable -= 1
        if self.dashing:
            self.image = self._images["dash"]
        elif self.invulnerable and (self.invulnerable // 4) % 2:
            self.image = self._images["blink"]
        else:
            self.image = self._images["normal"]
        self.rect.center = (round(self.x), round(self.y))

    def _look(self) -> tuple[float, float]:
        """Where the player looks: the aim while the right stick is pushed, else the facing."""
        return direction_or(self.aim[0], self.aim[1], self.facing, minimum=FIRE_THRESHOLD)

    def fire(self, dx: float, dy: float) -> None:
        """Shoot the current weapon in the unit direction ``(dx, dy)``."""
        weapon = WEAPONS[self.weapon]
        self.fire_cooldown = weapon.cooldown
        if weapon.pellets > 1:
            half = (weapon.pellets - 1) / 2
            offsets = [(i - half) * weapon.spread for i in range(weapon.pellets)]
        else:
            offsets = [(-1, 0, 1)[self.shots % 3] * weapon.spread]
        for offset in offsets:
            vx, vy = rotate(dx, dy, offset)
            start = (self.x + vx * (PLAYER_RADIUS + 2), self.y + vy * (PLAYER_RADIUS + 2))
            self.game.bullets.add(Bullet(start, (vx, vy), self.weapon))
        self.shots += 1
        probe.event("shot", weapon=self.weapon, dx=round(dx, 3), dy=round(dy, 3))

    def select_weapon(self, weapon: int) -> None:
        """Switch to weapon ``weapon`` (1..4)."""
        if weapon in WEAPONS and weapon != self.weapon:
            self.weapon = weapon
            self.fire_cooldown = max(self.fire_cooldown, 6)
            probe.event("weapon", weapon=weapon, label=WEAPONS[weapon].name)

    def hurt(self, damage: int) -> None:
        """Take contact damage unless invulnerable (just hurt, or dashing)."""
        if self.invulnerable or self.dashing or self.hp <= 0:
            return
        self.hp = max(0, self.hp - damage)
        self.invulnerable = HURT_FRAMES
        probe.event("hurt", hp=self.hp)


class Enemy(pygame.sprite.Sprite):
    """A chaser: walks straight at the player."""

    _image_cache: dict[int, pygame.Surface] = {}

    def __init__(self, game: Game, ident: int, pos: Sequence[float], plan: WavePlan) -> None:
        super().__init__()
        self.game = game
        self.ident = ident
        self.name = f"enemy-{ident}"
        self.x, self.y = float(pos[0]), float(pos[1])
        self.hp = plan.hp
        self.max_hp = plan.hp
        self.speed = plan.speed
        self.flash = 0
        if ENEMY_RADIUS not in Enemy._image_cache:
            Enemy._image_cache[ENEMY_RADIUS] = _circle_image(
                ENEMY_RADIUS, COLORS["enemy"], COLORS["enemy_edge"]
            )
        self.image = Enemy._image_cache[ENEMY_RADIUS]
        self.rect = self.image.get_rect(center=(round(self.x), round(self.y)))

    def update(self) -> None:
        """Step towards the player."""
        player = self.game.player
        dx, dy = direction_or(player.x - self.x, player.y - self.y, (0.0, 0.0))
        self.x += dx * self.speed
        self.y += dy * self.speed
        self.x, self.y = clamp_to_arena(self.x, self.y, ENEMY_RADIUS)
        if self.flash > 0:
            self.flash -= 1
        self.rect.center = (round(self.x), round(self.y))

    def knock_back(self, distance: float) -> None:
        """Push the enemy ``distance`` pixels away from the player."""
        player = self.game.player
        dx, dy = direction_or(self.x - player.x, self.y - player.y, (1.0, 0.0))
        self.x, self.y = clamp_to_arena(self.x + dx * distance, self.y + dy * distance, ENEMY_RADIUS)
        self.rect.center = (round(self.x), round(self.y))


class Bullet(pygame.sprite.Sprite):
    """A bullet of one weapon; it flies straight until it hits an enemy, a wall or its range."""

    _image_cache: dict[int, pygame.Surface] = {}

    def __init__(self, pos: Sequence[float], direction: Sequence[float], weapon: int) -> None:
        super().__init__()
        spec = WEAPONS[weapon]
        self.weapon = weapon
        self.damage = spec.damage
        self.radius = spec.radius
        self.x, self.y = float(pos[0]), float(pos[1])
        self.vx, self.vy = direction[0] * spec.speed, direction[1] * spec.speed
        self.life = spec.life
        if weapon not in Bullet._image_cache:
            Bullet._image_cache[weapon] = _circle_image(spec.radius, spec.color)
        self.image = Bullet._image_cache[weapon]
        self.rect = self.image.get_rect(center=(round(self.x), round(self.y)))

    def update(self) -> None:
        """Fly one frame; vanish at the walls or at the end of the range."""
        self.x += self.vx
        self.y += self.vy
        self.life -= 1
        if self.life <= 0 or not arena_contains(self.x, self.y, 0):
            self.kill()
            return
        self.rect.center = (round(self.x), round(self.y))


class Explosion(pygame.sprite.Sprite):
    """The bomb's expanding ring (drawn only)."""

    FRAMES = 14

    def __init__(self, pos: Sequence[float]) -> None:
        super().__init__()
        self.pos = (round(pos[0]), round(pos[1]))
        self.age = 0
        self.image = pygame.Surface((2 * BOMB_RADIUS + 4, 2 * BOMB_RADIUS + 4), pygame.SRCALPHA)
        self.rect = self.image.get_rect(center=self.pos)
        self.update()

    def update(self) -> None:
        """Grow the ring; vanish after ``FRAMES`` frames."""
        self.age += 1
        if self.age > self.FRAMES:
            self.kill()
            return
        self.image.fill((0, 0, 0, 0))
        radius = max(2, BOMB_RADIUS * self.age // self.FRAMES)
        centre = (BOMB_RADIUS + 2, BOMB_RADIUS + 2)
        pygame.draw.circle(self.image, (*COLORS["bomb"], 60), centre, radius)
        pygame.draw.circle(self.image, COLORS["bomb"], centre, radius, 3)


# --- The game -------------------------------------------------------------------------------------------
class Game:
    """One game of Arena: sprites, rules, probes and drawing."""

    def __init__(self, waves: int = 10) -> None:
        """Set up the arena; the first wave comes after ``WAVE_DELAY`` frames.

        Args:
            waves: Waves to clear to win.

        Raises:
            ValueError: If ``waves`` is below 1.
        """
        if isinstance(waves, bool) or not isinstance(waves, int) or waves < 1:
            raise ValueError(f"waves must be an int >= 1, got {waves!r}")
        self.waves = waves
        self.joystick: Any = None
        self.player = Player(self)
        self.enemies = pygame.sprite.Group()
        self.bullets = pygame.sprite.Group()
        self.effects = pygame.sprite.Group()
        self.score = 0
        self.wave = 0
        self.wave_timer = WAVE_DELAY
        self.next_enemy = 0
        self.state = "play"  # "play", "dead" or "won"
        self.end_timer = 0
        self.frame = 0
        self.bomb_requested = False
        self.wheel_open = False
        self._background: pygame.Surface | None = None
        self._font: pygame.font.Font | None = None
        self._big_font: pygame.font.Font | None = None
        self._hud_text: str | None = None
        self._hud_image: pygame.Surface | None = None

    # --- input ----------------------------------------------------------------------------------------
    def controller(self) -> Any:
        """The game controller to read, or None to fall back on the keyboard."""
        if self.joystick is None or pygame.joystick.get_count() == 0:
            return None
        return self.joystick

    def handle_event(self, event: pygame.event.Event) -> None:
        """React to one input event (device hot-plug, bomb, weapon selection)."""
        if event.type == pygame.JOYDEVICEADDED:
            if self.joystick is None:
                self.joystick = pygame.joystick.Joystick(event.device_index)
                self.joystick.init()
            return
        if event.type == pygame.JOYDEVICEREMOVED:
            if self.joystick is not None and event.instance_id == self.joystick.get_instance_id():
                self.joystick = None
            return
        if self.state != "play":
            return
        player = self.player
        if event.type == pygame.JOYBUTTONDOWN and event.button == 1:
            self.bomb_requested = True
        elif event.type == pygame.JOYHATMOTION and event.hat == 0:
            weapon = HAT_WEAPONS.get(tuple(event.value))
            if weapon is not None:
                player.select_weapon(weapon)
        elif event.type == pygame.KEYDOWN and self.controller() is None:
            if event.key == pygame.K_b:
                self.bomb_requested = True
            elif event.key == pygame.K_q:
                player.select_weapon((player.weapon - 2) % len(WEAPONS) + 1)
            elif event.key == pygame.K_e:
                player.select_weapon(player.weapon % len(WEAPONS) + 1)

    # --- rules ----------------------------------------------------------------------------------------
    def update(self) -> None:
        """Advance the game by one frame."""
        self.frame += 1
        if self.state != "play":
            self.end_timer -= 1
            self.effects.update()
            self.bomb_requested = False
            self._report()
            return
        joy = self.controller()
        self.wheel_open = joy is not None and joy.get_hat(0) != (0, 0)
        self.player.update()
        if self.bomb_requested:
            self.bomb_requested = False
            self.detonate()
        self.enemies.update()
        self.bullets.update()
        self.effects.update()
        self._resolve_hits()
        self._advance_waves()
        if self.player.hp <= 0:
            self._end("dead", "player_died", wave=self.wave, score=self.score)
        self._report()

    def detonate(self) -> None:
        """Set off a bomb, if one is left: every enemy within ``BOMB_RADIUS`` of the blast dies."""
        player = self.player
        if player.bombs <= 0:
            return
        player.bombs -= 1
        if player.dashing:
            # A bomb set off mid-dash is slung ahead along the aim. Injected bug 1: no zero check (every
            # other direction uses direction_or); a neutral right stick divides by zero.
            dx, dy = normalize(*player.aim)
            centre = clamp_to_arena(player.x + dx * BOMB_THROW, player.y + dy * BOMB_THROW, 0)
        else:
            centre = (player.x, player.y)
        self.effects.add(Explosion(centre))
        killed = [e for e in self.enemies if math.hypot(e.x - centre[0], e.y - centre[1]) <= BOMB_RADIUS]
        probe.event(
            "bomb", x=round(centre[0], 1), y=round(centre[1], 1), bombs=player.bombs, kills=len(killed)
        )
        for enemy in killed:
            self._kill(enemy, cause="bomb")

    def _resolve_hits(self) -> None:
        player = self.player
        for bullet in self.bullets.sprites():
            for enemy in self.enemies.sprites():
                reach = bullet.radius + ENEMY_RADIUS
                if (bullet.x - enemy.x) ** 2 + (bullet.y - enemy.y) ** 2 <= reach * reach:
                    bullet.kill()
                    enemy.hp -= bullet.damage
                    enemy.flash = 4
                    probe.event("hit", damage=bullet.damage, weapon=bullet.weapon, enemy=enemy.name)
                    if enemy.hp <= 0:
                        self._kill(enemy, cause="bullet")
                    break
        reach = PLAYER_RADIUS + ENEMY_RADIUS
        for enemy in self.enemies.sprites():
            if (player.x - enemy.x) ** 2 + (player.y - enemy.y) ** 2 < reach * reach:
                if not player.invulnerable and not player.dashing:
                    player.hurt(CONTACT_DAMAGE)
                    enemy.knock_back(KNOCKBACK)

    def _kill(self, enemy: Enemy, cause: str) -> None:
        enemy.kill()
        self.score += 10 * self.wave
        probe.event("enemy_killed", id=enemy.name, cause=cause, score=self.score)

    def _advance_waves(self) -> None:
        if self.enemies:
            return
        if self.wave >= self.waves:
            self._end("won", "win", score=self.score)
            return
        self.wave_timer -= 1
        if self.wave_timer > 0:
            return
        self.wave += 1
        self.wave_timer = WAVE_DELAY
        if self.wave > 1:
            self.player.bombs = min(MAX_BOMBS, self.player.bombs + 1)
        plan = wave_plan(self.wave)
        for pos in spawn_positions(plan.count, (self.player.x, self.player.y)):
            self.enemies.add(Enemy(self, self.next_enemy, pos, plan))
            self.next_enemy += 1
        probe.event("wave", wave=self.wave, enemies=plan.count)

    def _end(self, state: str, event: str, **data: Any) -> None:
        self.state = state
        self.end_timer = END_FRAMES
        probe.event(event, **data)

    @property
    def finished(self) -> bool:
        """True once the end screen has been shown long enough."""
        return self.state != "play" and self.end_timer <= 0

    def _report(self) -> None:
        player = self.player
        probe.observe(
            x=round(player.x, 2),
            y=round(player.y, 2),
            hp=player.hp,
            score=self.score,
            wave=self.wave,
            bombs=player.bombs,
            weapon=player.weapon,
            dash_ready=int(player.dash_ready),
            enemies=len(self.enemies),
        )
        probe.entity("player", "player", (player.x, player.y), hp=player.hp, weapon=player.weapon)
        for enemy in self.enemies:
            probe.entity(enemy.name, "enemy", (enemy.x, enemy.y), hp=enemy.hp)
        probe.check(0 <= player.hp <= MAX_HP, "hp within 0..MAX_HP", hp=player.hp)
        probe.check(player.bombs >= 0, "bombs >= 0", bombs=player.bombs)
        probe.check(
            arena_contains(player.x, player.y), "player inside the arena walls", x=player.x, y=player.y
        )

    # --- drawing --------------------------------------------------------------------------------------
    def _paint_background(self) -> pygame.Surface:
        surface = pygame.Surface((SCREEN_W, SCREEN_H))
        surface.fill(COLORS["wall"])
        pygame.draw.rect(surface, COLORS["hud"], (0, 0, SCREEN_W, HUD_H))
        pygame.draw.rect(surface, COLORS["floor"], ARENA)
        for x in range(ARENA.left + 32, ARENA.right, 32):
            pygame.draw.line(surface, COLORS["grid"], (x, ARENA.top), (x, ARENA.bottom - 1))
        for y in range(ARENA.top + 32, ARENA.bottom, 32):
            pygame.draw.line(surface, COLORS["grid"], (ARENA.left, y), (ARENA.right - 1, y))
        return surface

    def draw(self, screen: pygame.Surface) -> None:
        """Draw the arena, the sprites, the HUD and any end-of-game message."""
        if self._background is None:
            self._background = self._paint_background()
            self._font = pygame.font.Font(None, 24)
            self._big_font = pygame.font.Font(None, 64)
        screen.blit(self._background, (0, 0))
        self.effects.draw(screen)
        for enemy in self.enemies:
            screen.blit(enemy.image, enemy.rect)
            if enemy.hp < enemy.max_hp:
                width = round(2 * ENEMY_RADIUS * max(0, enemy.hp) / enemy.max_hp)
                pygame.draw.rect(
                    screen,
                    (250, 250, 250) if enemy.flash else (90, 220, 90),
                    (enemy.rect.left, enemy.rect.top - 5, width, 3),
                )
        self.bullets.draw(screen)
        player = self.player
        screen.blit(player.image, player.rect)
        look = player._look()
        tip = (player.x + look[0] * (PLAYER_RADIUS + 7), player.y + look[1] * (PLAYER_RADIUS + 7))
        pygame.draw.line(
            screen, COLORS["gun"], (round(player.x), round(player.y)), (round(tip[0]), round(tip[1])), 3
        )
        if self.wheel_open:
            for (hx, hy), weapon in HAT_WEAPONS.items():
                centre = (round(player.x + hx * 30), round(player.y - hy * 30))
                pygame.draw.circle(
                    screen, WEAPONS[weapon].color, centre, 7, 0 if weapon == player.weapon else 2
                )

        assert self._font is not None and self._big_font is not None
        dash = "ready" if player.dash_ready else "--"
        hud = (
            f"HP {player.hp}/{MAX_HP}   Score {self.score}   Wave {self.wave}/{self.waves}   "
            f"Bombs {player.bombs}   {WEAPONS[player.weapon].name}   Dash {dash}"
        )
        if hud != self._hud_text:
            self._hud_text = hud
            self._hud_image = self._font.render(hud, True, COLORS["text"])
        if self._hud_image is not None:
            screen.blit(self._hud_image, (10, (HUD_H - self._hud_image.get_height()) // 2))
        if self.state != "play":
            message = "Game over" if self.state == "dead" else "Arena cleared!"
            text = self._big_font.render(message, True, (255, 255, 255))
            where = text.get_rect(center=ARENA.center)
            screen.blit(self._big_font.render(message, True, (0, 0, 0)), where.move(3, 3))
            screen.blit(text, where)


def _validate_main_args(fps: int, max_frames: int | None, waves: int) -> None:
    if isinstance(fps, bool) or not isinstance(fps, int) or fps < 0:
        raise ValueError(f"fps must be an int >= 0 (0 = unlimited), got {fps!r}")
    if max_frames is not None and (
        isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 0
    ):
        raise ValueError(f"max_frames must be None or an int >= 0, got {max_frames!r}")
    if isinstance(waves, bool) or not isinstance(waves, int) or waves < 1:
        raise ValueError(f"waves must be an int >= 1, got {waves!r}")


def main(fps: int = DEFAULT_FPS, max_frames: int | None = None, waves: int = 10) -> None:
    """Play until the window is closed, Escape, death (or the last wave), or ``max_frames``.

    Args:
        fps: Frame-rate cap; 0 runs as fast as possible. Game speed is per frame either way.
        max_frames: Return after drawing this many frames (for benchmarks); None plays on.
        waves: Waves to clear to win.

    Raises:
        ValueError: If an argument is out of range.
    """
    _validate_main_args(fps, max_frames, waves)
    pygame.init()
    try:
        screen = pygame.display.set_mode((SCREEN_W, SCREEN_H))
        pygame.display.set_caption("Arena")
        clock = pygame.time.Clock()
        game = Game(waves=waves)
        frames = 0
        running = max_frames is None or max_frames > 0
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
    finally:
        pygame.quit()


def _parse_args(argv: Iterable[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m playtester.games.arena",
        description="Arena: a twin-stick shooter bundled with playtester.",
    )
    parser.add_argument("--fps", type=int, default=DEFAULT_FPS, help="frame-rate cap, 0 = unlimited")
    parser.add_argument("--frames", type=int, default=None, help="quit after this many frames")
    parser.add_argument("--waves", type=int, default=10, help="waves to clear to win")
    return parser.parse_args(None if argv is None else list(argv))


if __name__ == "__main__":
    _args = _parse_args()
    main(fps=_args.fps, max_frames=_args.frames, waves=_args.waves)
