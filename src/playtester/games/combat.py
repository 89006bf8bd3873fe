"""Combat: a hero against a three-phase boss in a small arena, after the Wuji paper's combat scenarios.

The Wuji paper (Zheng et al., ASE 2019) tests online combat games: a player character with skills,
cooldowns, mana and timed buffs fights a boss, and the bugs it reports live in exactly that machinery
(a division by a distance that can be zero, a damage formula that turns negative under three buffs).
This game is a small, playable stand-in for such a scenario, with those kinds of bugs injected.

The hero fights in a walled arena of 640x400 pixels. The boss has ``BOSS_MAX_HP`` hit points and three
phases: below 66% of its hp it enters phase 2 (faster, a weakness curse, it no longer shoves the hero
away), below 33% phase 3 (faster still, its slam sets the hero on fire). A shrine tile in the bottom
left corner blesses a hero who stands on it for a moment. The boss out-damages a hero who just stands
and strikes; using the heal, stepping out of the telegraphed slam and swipe, and timing the buffs wins.
Every number is in frames (a fixed timestep of one frame); the boss's choices, damage spreads and crits
come from the module-level :mod:`random`, which playtester seeds per episode.

Controls:
    Arrow keys or WASD   move (diagonals with two keys); the last direction is the hero's facing
    1 or J               strike: melee (reach ``STRIKE_RANGE``), no mana; 3 hits in a row give *rage*
    2 or K               bolt: a projectile, ``BOLT_COST`` mana; may crit
    3 or L               heal: *regen* (heal over time) and *shield* (half damage taken), ``HEAL_COST`` mana
    4 or U               charge: dash ``CHARGE_FRAMES`` frames (immune meanwhile); locks on to the boss
                         within ``LOCK_RANGE``, else dashes where the hero faces; a hit gives *haste*
    Escape               quit
A skill key casts on key-down and keeps casting while held, whenever the skill is ready.

Buffs and debuffs (frame timers; the HUD lists them):
    rage       +50% damage                          3 strike hits within ``COMBO_WINDOW`` frames of each other
    haste      double speed and cooldown recovery,  a charge that hits the boss
               but lighter blows (-``HASTE_PENALTY``)
    blessing   +``BLESSING_BONUS`` damage, double mana regen, cures weakness; standing ``SHRINE_FRAMES``
               frames on the shrine (which then rests ``SHRINE_COOLDOWN`` frames)
    regen      +``REGEN_HEAL`` hp every ``REGEN_EVERY`` frames   the heal skill
    shield     boss damage x0.5                     the heal skill
    weakness   damage x0.6; slows the hero's actions   the boss's curse (phase 2+)
    burning    ``BURN_DAMAGE`` hp every ``BURN_EVERY`` frames   the boss's slam in phase 3

Designed damage of one hero hit on the boss (the ``hit`` event's ``damage``): base strike 10-14, bolt
14-20, charge 16-22; x1.5 with rage, x0.6 with weakness, +4 with blessing, -3 with haste, x1.5 on a
crit (strike and bolt, ``CRIT_CHANCE``), minus the boss's armor (0 / 2 / 4 by phase), at least 1. So
every hit lies in **[1, 60]** (the highest is a raging, blessed bolt crit: (20 x 1.5 + 4) x 1.5 = 51),
which is the ``balance`` range in ``combat.toml``.

Instrumentation: every frame ``probe.observe(hero_x, hero_y, hero_hp, mana, boss_hp, boss_phase,
distance, buffs, buff_mask, score, boss_dx, boss_dy, facing_x, facing_y, boss_windup)`` (``score`` is the
damage dealt to the boss so far, ``buffs`` the number of active buffs and debuffs, ``buff_mask`` which
ones: bit i for ``BUFF_ORDER[i]``, ``boss_dx``/``boss_dy`` the boss's offset from the hero, ``facing_*``
the hero's facing, ``boss_windup`` 1 while the boss telegraphs an attack) and the
entities ``"hero"`` and ``"boss"``; the events ``skill`` (``name``), ``hit`` (``damage``, ``skill``),
``buff`` (``name``), ``phase`` (``phase``), ``hurt`` (``damage``, ``attack``: the boss hit the hero), ``win`` and ``hero_died``; invariants through ``probe.check``. Hooks:
``teleport(x, y)`` (the hero) and ``debug_phase(phase)`` (sets the boss's hp to the top of that phase),
for tests only; plain play never uses them.

Injected bugs (kept on purpose; listed in :data:`INJECTED_BUGS` for benchmark scoring):

1. ``charge-zero-distance`` (crash, ``ZeroDivisionError``). As in the paper's Section V-D, the charge
   locks on by dividing the offset to the boss by the distance, with no guard for a distance of 0. In
   phase 1 the boss shoves a hero who walks into its body back out, so the distance never reaches 0;
   from phase 2 on it does not, and a hero standing exactly on the boss's centre (``distance == 0``) who
   uses the charge crashes the game. Depth: boss phase 2 or 3.
2. ``negative-damage`` (assertion, probe check ``"damage turned negative"``). The *ascension* synergy
   of rage + haste + blessing was meant to add ``ASCENSION_BONUS`` to a hit, but its operands are
   swapped (``ASCENSION_BONUS - damage``), so with all three buffs at once almost every hit heals the
   boss instead of hurting it. Depth: the three buffs together (a strike combo, a charge hit and the
   shrine), any phase. The same hit's ``hit.damage`` is also below the balance range, so the balance
   oracle reports it too (``hit.damage``, low side).
3. ``weak-charge-corner-stuck`` (stuck). The charge's timer runs down by the hero's action rate, taken
   once when the charge starts; under weakness (without haste) that rate is ``int(0.5) == 0``. A charge
   that ends by reaching the boss or bumping a wall does not need the timer, but one wedged in a corner
   (both axes blocked in the same frame) waits for it, forever: the hero can no longer move or act, is
   immune, and its mana stops regenerating, while the boss keeps moving. Trigger: weakened (the curse,
   phase 2+), no haste, the boss farther than ``LOCK_RANGE``, the hero in a corner charging diagonally
   into it (e.g. hold Up+Left in the top-left corner and press 4). Seen by the stuck oracle over
   ``hero_x``, ``hero_y``, ``mana``.
4. ``bolt-crit-x15`` (balance, ``hit.damage`` above its range). The bolt's crit multipliers by phase
   are ``(1.5, 1.5, 15.0)``: a decimal point went missing, so in phase 3 a bolt crit hits for 15x (210 to
   300 damage against the designed [1, 60]). Depth: boss phase 3, one bolt in ``1 / CRIT_CHANCE``.

Run it with ``python -m playtester.games.combat`` (``--start-phase 2`` to practise a later phase).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

import pygame

from playtester import probe

__all__ = [
    "INJECTED_BUGS",
    "SKILLS",
    "Boss",
    "Bolt",
    "Combat",
    "Hero",
    "Shrine",
    "Skill",
    "action_rate",
    "boss_damage",
    "boss_phase",
    "hero_damage",
    "main",
    "phase_top_hp",
]

INJECTED_BUGS: list[dict[str, str]] = [
    {
        "id": "charge-zero-distance",
        "kind": "crash",
        "message": "ZeroDivisionError",
        "description": "The charge's lock-on divides the offset to the boss by the distance with no guard for "
        "0 (Hero.start_charge). Only from boss phase 2 on, when the boss stops shoving the hero out of its "
        "body, can the distance be 0.",
        "how": "Bring the boss below 66% hp (phase 2), walk onto its exact centre (distance == 0) and press "
        "4 (or U).",
    },
    {
        "id": "negative-damage",
        "kind": "assertion",
        "message": "damage turned negative",
        "description": "hero_damage() applies the rage + haste + blessing 'ascension' synergy as "
        "ASCENSION_BONUS - damage instead of damage + ASCENSION_BONUS, so a hit heals the boss. The balance "
        "oracle also sees the hit (hit.damage below its range).",
        "how": "Get rage (3 strike hits in a row), haste (a charge that hits the boss) and blessing (stand on "
        "the shrine) at the same time, then hit the boss.",
    },
    {
        "id": "weak-charge-corner-stuck",
        "kind": "stuck",
        "message": "the game state did not change",
        "description": "The charge timer runs down by the action rate taken at the start of the charge, which "
        "is 0 under weakness; a charge wedged in a corner waits for that timer forever, so the hero can "
        "neither move nor act and its position and mana freeze while the boss keeps moving.",
        "how": "In phase 2+ get cursed (weakness, no haste), stand in an arena corner with the boss farther "
        "than LOCK_RANGE, hold the two keys pointing into the corner and press 4.",
    },
    {
        "id": "bolt-crit-x15",
        "kind": "balance",
        "message": "hit.damage",
        "description": "BOLT_CRIT_MULT is (1.5, 1.5, 15.0): in phase 3 a bolt crit deals 15x its base "
        "(210-300) against the designed [1, 60] per hit.",
        "how": "Bring the boss below 33% hp (phase 3) and hit it with bolts until one crits "
        "(CRIT_CHANCE per bolt).",
    },
]

# --- Screen and arena ---------------------------------------------------------------------------------
SCREEN_W, SCREEN_H = 640, 480
HUD_H = 80
ARENA_W, ARENA_H = 640, 400
TILE = 40
DEFAULT_FPS = 60
END_FRAMES = 60  # frames of "Victory" / "Defeat" before main() returns

# --- Hero (positions are arena pixels on a 4-pixel lattice; everything per frame) ----------------------
HERO_RADIUS = 12
HERO_MIN_X, HERO_MAX_X = 16, ARENA_W - 16
HERO_MIN_Y, HERO_MAX_Y = 16, ARENA_H - 16
HERO_START = (120, 200)
HERO_MAX_HP = 100
HERO_MAX_MANA = 100
HERO_SPEED = 4
HASTE_SPEED = 8
MANA_REGEN_EVERY = 6  # frames per mana point (3 with blessing)
CRIT_CHANCE = 0.12

# --- Skills ---------------------------------------------------------------------------------------------
STRIKE_RANGE = 60
STRIKE_BASE = (10, 14)
COMBO_HITS = 3
COMBO_WINDOW = 90
BOLT_BASE = (14, 20)
BOLT_COST = 15
BOLT_SPEED = 10
BOLT_CRIT_MULT = (1.5, 1.5, 15.0)  # injected bug 4 (bolt-crit-x15): phase 3 should be 1.5
CRIT_MULT = 1.5
HEAL_COST = 35
CHARGE_COST = 20
CHARGE_BASE = (16, 22)
CHARGE_STEP = 8
CHARGE_FRAMES = 20
CHARGE_REACH = 40
LOCK_RANGE = 160

# --- Buffs ------------------------------------------------------------------------------------------------
RAGE_MULT = 1.5
WEAKNESS_MULT = 0.6
WEAKNESS_TEMPO = 0.5  # weakness slows the hero's actions
BLESSING_BONUS = 4
HASTE_PENALTY = 3
HASTE_RATE = 2
ASCENSION_BONUS = 6  # rage + haste + blessing together
SHIELD_MULT = 0.5
MIN_DAMAGE = 1
REGEN_HEAL = 3
REGEN_EVERY = 12
BURN_DAMAGE = 2
BURN_EVERY = 20
BUFF_FRAMES = {
    "rage": 240,
    "haste": 240,
    "blessing": 360,
    "regen": 180,
    "shield": 180,
    "weakness": 240,
    "burning": 180,
}
BUFF_ORDER = ("rage", "haste", "blessing", "regen", "shield", "weakness", "burning")
DEBUFFS = frozenset({"weakness", "burning"})

# --- Shrine -------------------------------------------------------------------------------------------------
SHRINE_CENTER = (60, 340)
SHRINE_FRAMES = 30
SHRINE_COOLDOWN = 900

# --- Boss -------------------------------------------------------------------------------------------------
BOSS_MAX_HP = 900
BOSS_RADIUS = 28
BOSS_START = (480, 200)
BOSS_ARMOR = (0, 2, 4)
BOSS_MOVE_EVERY = (3, 2, 1)  # frames per 4-pixel step, by phase
BOSS_STOP_DISTANCE = 48  # the boss stops chasing this close
SWIPE_RANGE = 64
SWIPE_WINDUP = (22, 18, 15)
SWIPE_DAMAGE = (14, 16, 18)
SWIPE_COOLDOWN = 50
SLAM_RADIUS = 110
SLAM_TRIGGER = 200  # the boss slams only when the hero is this close
SLAM_WINDUP = (44, 38, 32)
SLAM_DAMAGE = (22, 26, 30)
SLAM_EVERY = (240, 200, 170)
CURSE_WINDUP = 20
CURSE_DAMAGE = (0, 12, 14)
CURSE_EVERY = (0, 320, 260)  # 0: no curse in phase 1
RECOVER_FRAMES = 14
PHASE_THRESHOLDS = (66, 33)  # percent of max hp where phases 2 and 3 begin

# --- Colours -------------------------------------------------------------------------------------------------
FLOOR = (58, 52, 64)
FLOOR_LINE = (70, 63, 78)
WALL = (30, 26, 34)
HUD_BG = (22, 20, 26)
TEXT = (235, 235, 235)
HERO_COLOR = (80, 150, 230)
HERO_CHARGE_COLOR = (250, 250, 140)
BOSS_COLORS = ((170, 60, 60), (200, 90, 40), (230, 40, 110))
BOLT_COLOR = (120, 220, 255)
SHRINE_COLOR = (240, 210, 90)
SHRINE_IDLE = (110, 100, 70)
HP_COLOR = (200, 50, 60)
MANA_COLOR = (60, 110, 230)
BAR_BG = (60, 60, 60)
TELEGRAPH = (255, 80, 80)
BUFF_COLORS = {
    "rage": (230, 70, 50),
    "haste": (90, 220, 120),
    "blessing": (240, 210, 90),
    "regen": (100, 230, 180),
    "shield": (150, 170, 240),
    "weakness": (150, 90, 170),
    "burning": (255, 130, 30),
}

Vec = tuple[int, int]


@dataclass(frozen=True)
class Skill:
    """A hero skill: its name, keys, mana cost and cooldown in frames."""

    name: str
    keys: tuple[int, ...]
    cost: int
    cooldown: int


SKILLS: tuple[Skill, ...] = (
    Skill("strike", (pygame.K_1, pygame.K_j), 0, 18),
    Skill("bolt", (pygame.K_2, pygame.K_k), BOLT_COST, 40),
    Skill("heal", (pygame.K_3, pygame.K_l), HEAL_COST, 360),
    Skill("charge", (pygame.K_4, pygame.K_u), CHARGE_COST, 150),
)
SKILL_BY_NAME = {s.name: s for s in SKILLS}
SKILL_BY_KEY = {key: s.name for s in SKILLS for key in s.keys}

MOVE_KEYS: dict[int, Vec] = {
    pygame.K_UP: (0, -1),
    pygame.K_w: (0, -1),
    pygame.K_DOWN: (0, 1),
    pygame.K_s: (0, 1),
    pygame.K_LEFT: (-1, 0),
    pygame.K_a: (-1, 0),
    pygame.K_RIGHT: (1, 0),
    pygame.K_d: (1, 0),
}


# --------------------------------------------------------------------------------------------------
# Pure rules.
# --------------------------------------------------------------------------------------------------


def boss_phase(hp: float, max_hp: float = BOSS_MAX_HP) -> int:
    """Phase of a boss with ``hp`` of ``max_hp``: 1 above 66%, 2 above 33%, else 3."""
    if hp * 100 > PHASE_THRESHOLDS[0] * max_hp:
        return 1
    if hp * 100 > PHASE_THRESHOLDS[1] * max_hp:
        return 2
    return 3


def phase_top_hp(phase: int, max_hp: int = BOSS_MAX_HP) -> int:
    """The highest hp at which a boss is in ``phase`` (1, 2 or 3)."""
    if phase == 1:
        return max_hp
    if phase not in (2, 3):
        raise ValueError(f"phase must be 1, 2 or 3, got {phase!r}")
    return PHASE_THRESHOLDS[phase - 2] * max_hp // 100


def hero_damage(base: float, buffs: Collection[str], armor: int = 0, crit_mult: float = 1.0) -> int:
    """Damage one hero hit of ``base`` deals to the boss.

    Args:
        base: The skill's rolled base damage.
        buffs: Names of the hero's active buffs and debuffs.
        armor: The boss's armor (subtracted after the multipliers).
        crit_mult: 1.0, or the crit multiplier when the hit crits.

    Returns:
        The damage; at least ``MIN_DAMAGE`` by design, but see injected bug 2 (negative-damage).
    """
    dmg = float(base)
    if "rage" in buffs:
        dmg *= RAGE_MULT
    if "weakness" in buffs:
        dmg *= WEAKNESS_MULT
    if "blessing" in buffs:
        dmg += BLESSING_BONUS
    if "haste" in buffs:
        dmg -= HASTE_PENALTY
    dmg *= crit_mult
    damage = max(MIN_DAMAGE, round(dmg) - armor)
    if "rage" in buffs and "haste" in buffs and "blessing" in buffs:
        # "Ascension": meant to be damage + ASCENSION_BONUS. Injected bug 2: operands swapped.
        damage = ASCENSION_BONUS - damage
    return damage


def boss_damage(base: float, buffs: Collection[str]) -> int:
    """Damage a boss attack of ``base`` deals to the hero (halved by shield, at least 1)."""
    dmg = float(base)
    if "shield" in buffs:
        dmg *= SHIELD_MULT
    return max(MIN_DAMAGE, round(dmg))


def action_rate(buffs: Collection[str]) -> int:
    """How fast the hero's action timers (the charge) run down per frame: haste doubles, weakness halves.

    Under weakness without haste this is ``int(0.5) == 0`` (the root of injected bug 3).
    """
    rate = float(HASTE_RATE if "haste" in buffs else 1)
    if "weakness" in buffs:
        rate *= WEAKNESS_TEMPO
    return int(rate)


def _sign(v: float, dead: float = 0.38) -> int:
    return 0 if abs(v) <= dead else (1 if v > 0 else -1)


def _clamp(v: int, lo: int, hi: int) -> int:
    return lo if v < lo else hi if v > hi else v


# --------------------------------------------------------------------------------------------------
# Sprites.
# --------------------------------------------------------------------------------------------------


class Hero(pygame.sprite.Sprite):
    """The player's hero: position, hp, mana, cooldowns, buffs and the charge state."""

    def __init__(self, pos: Vec = HERO_START) -> None:
        super().__init__()
        self.x, self.y = pos
        self.hp = HERO_MAX_HP
        self.mana = HERO_MAX_MANA
        self.facing: Vec = (1, 0)
        self.cooldowns: dict[str, int] = {s.name: 0 for s in SKILLS}
        self.buffs: dict[str, int] = {}
        self.combo = 0
        self.combo_timer = 0
        self.mana_clock = 0
        self.charging = False
        self.charge_dir: Vec = (0, 0)
        self.charge_left = 0
        self.charge_rate = 1
        self.charge_target = False
        self.charge_hit = False
        self.image = pygame.Surface((2 * HERO_RADIUS + 4, 2 * HERO_RADIUS + 4), pygame.SRCALPHA)
        self.rect = self.image.get_rect()
        self._drawn: tuple[Any, ...] | None = None

    # ---- state ---------------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.hp > 0

    def active_buffs(self) -> set[str]:
        return set(self.buffs)

    def add_buff(self, name: str, frames: int | None = None) -> None:
        """Start (or refresh) buff ``name`` for ``frames`` frames (its default duration)."""
        fresh = name not in self.buffs
        self.buffs[name] = max(self.buffs.get(name, 0), BUFF_FRAMES[name] if frames is None else frames)
        if name == "blessing":
            self.buffs.pop("weakness", None)
        if fresh:
            probe.event("buff", buff=name)

    def tick_buffs(self) -> int:
        """Advance buff timers by a frame; return the hp change from regen and burning (immune: none)."""
        delta = 0
        for name in list(self.buffs):
            left = self.buffs[name]
            elapsed = BUFF_FRAMES[name] - left
            if name == "regen" and elapsed > 0 and elapsed % REGEN_EVERY == 0:
                delta += REGEN_HEAL
            if name == "burning" and elapsed > 0 and elapsed % BURN_EVERY == 0 and not self.charging:
                delta -= BURN_DAMAGE
            if left <= 1:
                del self.buffs[name]
            else:
                self.buffs[name] = left - 1
        return delta

    def tick_cooldowns(self) -> None:
        step = HASTE_RATE if "haste" in self.buffs else 1
        for name, left in self.cooldowns.items():
            self.cooldowns[name] = max(0, left - step)
        if self.combo_timer > 0:
            self.combo_timer -= 1
            if self.combo_timer == 0:
                self.combo = 0

    def regen_mana(self) -> None:
        """One point of mana every ``MANA_REGEN_EVERY`` frames (twice as fast blessed); none while charging."""
        if self.charging:
            return
        self.mana_clock += 2 if "blessing" in self.buffs else 1
        if self.mana_clock >= MANA_REGEN_EVERY:
            self.mana_clock -= MANA_REGEN_EVERY
            self.mana = min(HERO_MAX_MANA, self.mana + 1)

    def heal(self, amount: int) -> None:
        self.hp = _clamp(self.hp + amount, 0, HERO_MAX_HP)

    def hurt(self, amount: int) -> int:
        """Take ``amount`` damage unless charging (immune); return the damage taken."""
        if self.charging or amount <= 0:
            return 0
        taken = min(self.hp, amount)
        self.hp -= taken
        return taken

    # ---- skills --------------------------------------------------------------------------------------
    def ready(self, name: str) -> bool:
        """True when skill ``name`` is off cooldown and affordable (and the hero can act)."""
        skill = SKILL_BY_NAME[name]
        return self.alive and not self.charging and self.cooldowns[name] == 0 and self.mana >= skill.cost

    def spend(self, name: str) -> bool:
        """Pay for skill ``name`` (mana, cooldown) if it is ready; return whether it was."""
        if not self.ready(name):
            return False
        skill = SKILL_BY_NAME[name]
        self.mana -= skill.cost
        self.cooldowns[name] = skill.cooldown
        return True

    def note_strike_hit(self) -> None:
        """Count a strike hit towards the rage combo."""
        self.combo += 1
        self.combo_timer = COMBO_WINDOW
        if self.combo >= COMBO_HITS:
            self.combo = 0
            self.add_buff("rage")

    # ---- movement ----------------------------------------------------------------------------------
    def speed(self) -> int:
        return HASTE_SPEED if "haste" in self.buffs else HERO_SPEED

    def move(self, dx: int, dy: int) -> None:
        """Walk one frame in direction ``(dx, dy)`` (each -1, 0 or 1), staying in the arena."""
        if (dx, dy) == (0, 0):
            return
        self.facing = (dx, dy)
        step = self.speed()
        self.x = _clamp(self.x + dx * step, HERO_MIN_X, HERO_MAX_X)
        self.y = _clamp(self.y + dy * step, HERO_MIN_Y, HERO_MAX_Y)

    def place(self, x: int, y: int) -> None:
        """Put the hero at ``(x, y)``, snapped to the 4-pixel lattice and kept in the arena."""
        self.x = _clamp(int(x) // 4 * 4, HERO_MIN_X, HERO_MAX_X)
        self.y = _clamp(int(y) // 4 * 4, HERO_MIN_Y, HERO_MAX_Y)

    def start_charge(self, boss: Boss) -> None:
        """Begin a charge: lock on to the boss when it is within ``LOCK_RANGE``, else dash ahead."""
        dx, dy = boss.x - self.x, boss.y - self.y
        distance = math.hypot(dx, dy)
        if distance <= LOCK_RANGE:
            # Injected bug 1 (charge-zero-distance): no guard for distance == 0.
            ux, uy = dx / distance, dy / distance
            self.charge_dir = (_sign(ux), _sign(uy))
            self.charge_target = True
        else:
            self.charge_dir = self.facing
            self.charge_target = False
        self.charging = True
        self.charge_hit = False
        self.charge_left = CHARGE_FRAMES
        self.charge_rate = action_rate(self.buffs)  # taken once (injected bug 3 when it is 0)

    def charge_step(self) -> None:
        """Advance the charge by one frame: dash, slide to a stop at a wall, run the timer down."""
        sx, sy = self.charge_dir[0] * CHARGE_STEP, self.charge_dir[1] * CHARGE_STEP
        nx = _clamp(self.x + sx, HERO_MIN_X, HERO_MAX_X)
        ny = _clamp(self.y + sy, HERO_MIN_Y, HERO_MAX_Y)
        hit_x, hit_y = nx != self.x + sx, ny != self.y + sy
        self.x, self.y = nx, ny
        if hit_x and hit_y:
            # Wedged in a corner: stop and brace until the charge time runs out.
            self.charge_dir = (0, 0)
        elif hit_x or hit_y:
            self.end_charge()  # bumped a wall
            return
        self.charge_left -= self.charge_rate
        if self.charge_left <= 0:
            self.end_charge()

    def end_charge(self) -> None:
        self.charging = False
        self.charge_dir = (0, 0)
        self.charge_left = 0

    # ---- sprite --------------------------------------------------------------------------------------
    def update(self) -> None:
        """Keep the sprite on the hero and redraw it when its look changes."""
        self.rect.center = (self.x, HUD_H + self.y)
        look = (self.facing, self.charging, "shield" in self.buffs, self.alive)
        if look == self._drawn:
            return
        self._drawn = look
        size = self.image.get_width()
        c = size // 2
        self.image.fill((0, 0, 0, 0))
        color = HERO_CHARGE_COLOR if self.charging else HERO_COLOR if self.alive else (90, 90, 90)
        pygame.draw.circle(self.image, color, (c, c), HERO_RADIUS)
        if "shield" in self.buffs:
            pygame.draw.circle(self.image, BUFF_COLORS["shield"], (c, c), HERO_RADIUS + 1, 2)
        fx, fy = self.facing
        pygame.draw.circle(self.image, (20, 20, 30), (c + fx * 7, c + fy * 7), 3)


class Boss(pygame.sprite.Sprite):
    """The boss: chases the hero and attacks with a telegraphed swipe, a slam and (phase 2+) a curse."""

    def __init__(self, pos: Vec = BOSS_START, hp: int = BOSS_MAX_HP) -> None:
        super().__init__()
        self.x, self.y = pos
        self.hp = hp
        self.phase = boss_phase(hp)
        self.state = "chase"
        self.attack: str | None = None
        self.timer = 0
        self.frame = 0
        self.swipe_cd = 0
        self.slam_cd = SLAM_EVERY[self.phase - 1]
        self.curse_cd = CURSE_EVERY[self.phase - 1]
        self.image = pygame.Surface((2 * BOSS_RADIUS + 4, 2 * BOSS_RADIUS + 4), pygame.SRCALPHA)
        self.rect = self.image.get_rect()
        self._drawn: tuple[Any, ...] | None = None

    @property
    def alive(self) -> bool:
        return self.hp > 0

    @property
    def armor(self) -> int:
        return BOSS_ARMOR[self.phase - 1]

    def take(self, damage: int) -> None:
        """Apply a hit's damage (a negative one heals), keeping hp within 0..max."""
        self.hp = _clamp(self.hp - damage, 0, BOSS_MAX_HP)

    def distance_to(self, hero: Hero) -> float:
        return math.hypot(hero.x - self.x, hero.y - self.y)

    def step_towards(self, hero: Hero) -> None:
        """One 4-pixel step towards the hero along the axis with the larger gap."""
        dx, dy = hero.x - self.x, hero.y - self.y
        if abs(dx) > abs(dy) or (abs(dx) == abs(dy) and random.random() < 0.5):
            self.x += 4 * _sign(dx, 0)
        else:
            self.y += 4 * _sign(dy, 0)
        self.x = _clamp(self.x, BOSS_RADIUS, ARENA_W - BOSS_RADIUS)
        self.y = _clamp(self.y, BOSS_RADIUS, ARENA_H - BOSS_RADIUS)

    def think(self, game: Combat) -> None:
        """Advance the boss's AI by one frame."""
        hero = game.hero
        self.frame += 1
        self.swipe_cd = max(0, self.swipe_cd - 1)
        self.slam_cd = max(0, self.slam_cd - 1)
        self.curse_cd = max(0, self.curse_cd - 1)
        if not self.alive or not hero.alive:
            return
        p = self.phase - 1
        distance = self.distance_to(hero)
        if self.state == "windup":
            self.timer -= 1
            if self.timer <= 0:
                game.boss_attack(self.attack or "swipe")
                self.state, self.timer, self.attack = "recover", RECOVER_FRAMES, None
            return
        if self.state == "recover":
            self.timer -= 1
            if self.timer <= 0:
                self.state = "chase"
            return
        choices = []
        if distance <= SWIPE_RANGE and self.swipe_cd == 0:
            choices.append("swipe")
        if distance <= SLAM_TRIGGER and self.slam_cd == 0:
            choices.append("slam")
        if CURSE_EVERY[p] and self.curse_cd == 0 and "weakness" not in hero.buffs:
            choices.append("curse")
        if choices:
            self.attack = random.choice(choices)
            self.state = "windup"
            self.timer = {"swipe": SWIPE_WINDUP[p], "slam": SLAM_WINDUP[p], "curse": CURSE_WINDUP}[self.attack]
            if self.attack == "swipe":
                self.swipe_cd = SWIPE_COOLDOWN
            elif self.attack == "slam":
                self.slam_cd = SLAM_EVERY[p]
            else:
                self.curse_cd = CURSE_EVERY[p]
            probe.event("boss_attack", attack=self.attack)
            return
        if distance > BOSS_STOP_DISTANCE and self.frame % BOSS_MOVE_EVERY[p] == 0:
            self.step_towards(hero)

    def update(self) -> None:
        """Keep the sprite on the boss and redraw it when its phase or state changes."""
        self.rect.center = (self.x, HUD_H + self.y)
        look = (self.phase, self.state, self.alive)
        if look == self._drawn:
            return
        self._drawn = look
        size = self.image.get_width()
        c = size // 2
        self.image.fill((0, 0, 0, 0))
        color = BOSS_COLORS[self.phase - 1] if self.alive else (70, 70, 70)
        pygame.draw.circle(self.image, color, (c, c), BOSS_RADIUS)
        pygame.draw.circle(self.image, (20, 10, 10), (c, c), BOSS_RADIUS, 2)
        eye = (255, 240, 120) if self.state == "windup" else (250, 250, 250)
        for ex in (-9, 9):
            pygame.draw.circle(self.image, eye, (c + ex, c - 6), 4)


class Bolt(pygame.sprite.Sprite):
    """The hero's bolt: flies straight at ``BOLT_SPEED`` until it hits the boss or leaves the arena."""

    def __init__(self, x: float, y: float, vx: float, vy: float) -> None:
        super().__init__()
        self.x, self.y, self.vx, self.vy = float(x), float(y), vx, vy
        self.image = pygame.Surface((12, 12), pygame.SRCALPHA)
        pygame.draw.circle(self.image, BOLT_COLOR, (6, 6), 5)
        self.rect = self.image.get_rect(center=(round(x), HUD_H + round(y)))

    def update(self) -> None:
        self.x += self.vx
        self.y += self.vy
        self.rect.center = (round(self.x), HUD_H + round(self.y))
        if not (0 <= self.x <= ARENA_W and 0 <= self.y <= ARENA_H):
            self.kill()


class Shrine(pygame.sprite.Sprite):
    """The shrine tile: standing on it ``SHRINE_FRAMES`` frames blesses the hero, then it rests."""

    def __init__(self, center: Vec = SHRINE_CENTER) -> None:
        super().__init__()
        self.center = center
        self.tile = pygame.Rect(0, 0, TILE, TILE)
        self.tile.center = center
        self.standing = 0
        self.rest = 0
        self.image = pygame.Surface((TILE, TILE))
        self.rect = self.image.get_rect(center=(center[0], HUD_H + center[1]))
        self._drawn: tuple[int, int] | None = None

    def covers(self, hero: Hero) -> bool:
        return self.tile.collidepoint(hero.x, hero.y)

    def visit(self, hero: Hero) -> None:
        """One frame of the shrine's logic for ``hero``."""
        if self.rest > 0:
            self.rest -= 1
            return
        if not self.covers(hero) or hero.charging:
            self.standing = 0
            return
        self.standing += 1
        if self.standing >= SHRINE_FRAMES:
            self.standing = 0
            self.rest = SHRINE_COOLDOWN
            hero.add_buff("blessing")

    def update(self) -> None:
        look = (self.rest > 0, self.standing // 6)
        if look == self._drawn:
            return
        self._drawn = look
        self.image.fill(SHRINE_IDLE if self.rest else SHRINE_COLOR)
        pygame.draw.rect(self.image, (60, 50, 20), self.image.get_rect(), 2)
        if self.standing:
            h = TILE * self.standing // SHRINE_FRAMES
            pygame.draw.rect(self.image, (255, 255, 220), (4, TILE - h, TILE - 8, h), 0)


# --------------------------------------------------------------------------------------------------
# The game.
# --------------------------------------------------------------------------------------------------


class Combat:
    """State and rules of one fight (no window needed until :meth:`draw`).

    Attributes:
        hero, boss, shrine: the sprites.
        bolts: the hero's bolts in flight.
        score: damage dealt to the boss so far (the sum of the ``hit`` events' damage).
        won, lost: how the fight ended, once it has.
    """

    def __init__(self, start_phase: int = 1) -> None:
        self.hero = Hero()
        self.boss = Boss(hp=phase_top_hp(start_phase))
        self.shrine = Shrine()
        self.bolts = pygame.sprite.Group()
        self.actors = pygame.sprite.Group(self.shrine, self.boss, self.hero)
        self.queued: list[str] = []
        self.score = 0
        self.won = False
        self.lost = False
        self.frames = 0
        self.frames_since_end = 0
        self.flash: tuple[str, int] | None = None  # (attack, frames left) for the hit effect
        self._background: pygame.Surface | None = None
        self._font: pygame.font.Font | None = None
        self._big_font: pygame.font.Font | None = None

    # ---- input -----------------------------------------------------------------------------------
    def handle_key_down(self, key: int) -> None:
        """Queue the skill on ``key`` (if any) for this frame."""
        name = SKILL_BY_KEY.get(key)
        if name is not None and name not in self.queued:
            self.queued.append(name)

    @staticmethod
    def direction(keys: Any) -> Vec:
        dx = dy = 0
        for key, (kx, ky) in MOVE_KEYS.items():
            if keys[key]:
                dx += kx
                dy += ky
        return _sign(dx, 0), _sign(dy, 0)

    # ---- rules -----------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.won or self.lost

    @property
    def finished(self) -> bool:
        """True once the end screen has been shown ``END_FRAMES`` frames."""
        return self.over and self.frames_since_end >= END_FRAMES

    def distance(self) -> float:
        return self.boss.distance_to(self.hero)

    def update(self, keys: Any) -> None:
        """Advance the fight by one frame, with ``keys`` the pressed-key state."""
        self.frames += 1
        hero, boss = self.hero, self.boss
        if self.flash is not None:
            self.flash = (self.flash[0], self.flash[1] - 1) if self.flash[1] > 1 else None
        if self.over:
            self.frames_since_end += 1
            self.queued.clear()
            self.bolts.update()
            self.actors.update()
            return

        hero.heal(hero.tick_buffs())
        hero.tick_cooldowns()
        hero.regen_mana()
        if hero.charging:
            hero.charge_step()
            self._charge_impact()
        else:
            hero.move(*self.direction(keys))
            for skill in SKILLS:
                if any(keys[k] for k in skill.keys) and skill.name not in self.queued:
                    self.queued.append(skill.name)
            for name in self.queued:
                self.cast(name)
        self.queued.clear()

        if boss.phase == 1 and not hero.charging:
            self._shove_out(hero, boss)
        boss.think(self)
        self.bolts.update()
        for bolt in list(self.bolts):
            if math.hypot(bolt.x - boss.x, bolt.y - boss.y) <= BOSS_RADIUS:
                bolt.kill()
                self._hit("bolt", BOLT_BASE, BOLT_CRIT_MULT[boss.phase - 1])
        self.shrine.visit(hero)
        self._check_end()
        self.actors.update()

    def cast(self, name: str) -> bool:
        """Use skill ``name`` if it is ready; return whether it was used."""
        hero, boss = self.hero, self.boss
        if not hero.spend(name):
            return False
        probe.event("skill", skill=name)
        if name == "strike":
            if self.distance() <= STRIKE_RANGE:
                self._hit("strike", STRIKE_BASE, CRIT_MULT)
                hero.note_strike_hit()
        elif name == "bolt":
            dx, dy = boss.x - hero.x, boss.y - hero.y
            norm = math.hypot(dx, dy)
            if norm > 0:
                vx, vy = dx / norm * BOLT_SPEED, dy / norm * BOLT_SPEED
            else:
                vx, vy = hero.facing[0] * BOLT_SPEED, hero.facing[1] * BOLT_SPEED
            self.bolts.add(Bolt(hero.x, hero.y, vx, vy))
        elif name == "heal":
            hero.add_buff("regen")
            hero.add_buff("shield")
        elif name == "charge":
            hero.start_charge(boss)
            self._charge_impact()
        return True

    def _charge_impact(self) -> None:
        hero = self.hero
        if hero.charging and hero.charge_target and not hero.charge_hit and self.distance() <= CHARGE_REACH:
            hero.charge_hit = True
            self._hit("charge", CHARGE_BASE, 1.0)
            hero.end_charge()
            hero.add_buff("haste")

    def _hit(self, skill: str, base: tuple[int, int], crit_mult: float) -> None:
        """Roll and apply one hero hit on the boss."""
        boss = self.boss
        if not boss.alive:
            return
        crit = crit_mult != 1.0 and random.random() < CRIT_CHANCE
        damage = hero_damage(random.randint(*base), self.hero.buffs, boss.armor, crit_mult if crit else 1.0)
        probe.check(damage >= 0, "damage turned negative", damage=damage, skill=skill)
        boss.take(damage)
        self.score += damage
        probe.event("hit", damage=damage, skill=skill, crit=crit)
        phase = max(boss.phase, boss_phase(boss.hp))
        if phase != boss.phase:
            self.set_boss_phase(phase)

    def set_boss_phase(self, phase: int) -> None:
        boss = self.boss
        boss.phase = phase
        boss.curse_cd = min(boss.curse_cd, 60) if boss.curse_cd else 60
        probe.event("phase", phase=phase)

    def boss_attack(self, attack: str) -> None:
        """The boss's wind-up for ``attack`` is over: resolve it."""
        hero, boss = self.hero, self.boss
        p = boss.phase - 1
        distance = self.distance()
        self.flash = (attack, 12)
        if attack == "swipe":
            if distance <= SWIPE_RANGE + 8:
                if self._hurt(SWIPE_DAMAGE[p], attack) and boss.phase == 3:
                    hero.add_buff("burning")
        elif attack == "slam":
            if distance <= SLAM_RADIUS:
                if self._hurt(SLAM_DAMAGE[p], attack) and boss.phase == 3:
                    hero.add_buff("burning")
        elif attack == "curse" and not hero.charging:
            self._hurt(CURSE_DAMAGE[p], attack)
            hero.add_buff("weakness")

    def _hurt(self, base: int, attack: str) -> int:
        taken = self.hero.hurt(boss_damage(base, self.hero.buffs))
        if taken:
            probe.event("hurt", damage=taken, attack=attack)
        return taken

    @staticmethod
    def _shove_out(hero: Hero, boss: Boss) -> None:
        """Phase 1: a hero inside the boss's body is pushed back out along the larger gap."""
        dx, dy = hero.x - boss.x, hero.y - boss.y
        if math.hypot(dx, dy) >= BOSS_RADIUS:
            return
        if abs(dx) >= abs(dy):
            side = _sign(dx, 0) or -hero.facing[0] or -1
            for s in (side, -side):  # the other side when the boss stands against a wall
                x = boss.x + s * (BOSS_RADIUS + 4)
                if HERO_MIN_X <= x <= HERO_MAX_X:
                    hero.x = x
                    return
        else:
            side = _sign(dy, 0) or -hero.facing[1] or -1
            for s in (side, -side):
                y = boss.y + s * (BOSS_RADIUS + 4)
                if HERO_MIN_Y <= y <= HERO_MAX_Y:
                    hero.y = y
                    return

    def _check_end(self) -> None:
        if not self.boss.alive and not self.won:
            self.won = True
            probe.event("win")
        elif not self.hero.alive and not self.lost and not self.won:
            self.lost = True
            self.hero.end_charge()
            probe.event("hero_died")

    # ---- hooks (tests and plans; plain play never calls them) --------------------------------------
    def teleport(self, x: float, y: float) -> bool:
        """Put the hero at ``(x, y)`` (the ``teleport`` hook)."""
        self.hero.place(int(x), int(y))
        self.hero.update()
        return True

    def debug_phase(self, phase: int) -> int:
        """Set the boss's hp to the top of ``phase`` and switch to it (the ``debug_phase`` hook)."""
        self.boss.hp = phase_top_hp(int(phase))
        if int(phase) != self.boss.phase:
            self.set_boss_phase(int(phase))
        return self.boss.hp

    # ---- probe -------------------------------------------------------------------------------------
    def report(self) -> None:
        """Tell playtester about this frame: features, entities, invariants."""
        hero, boss = self.hero, self.boss
        probe.check(0 <= hero.hp <= HERO_MAX_HP, "hero hp out of range", hp=hero.hp)
        probe.check(0 <= hero.mana <= HERO_MAX_MANA, "mana out of range", mana=hero.mana)
        probe.check(0 <= boss.hp <= BOSS_MAX_HP, "boss hp out of range", hp=boss.hp)
        probe.observe(
            hero_x=hero.x,
            hero_y=hero.y,
            hero_hp=hero.hp,
            mana=hero.mana,
            boss_hp=boss.hp,
            boss_phase=boss.phase,
            distance=round(self.distance(), 1),
            buffs=len(hero.buffs),
            buff_mask=sum(1 << i for i, name in enumerate(BUFF_ORDER) if name in hero.buffs),
            score=self.score,
            boss_dx=round(boss.x - hero.x, 1),
            boss_dy=round(boss.y - hero.y, 1),
            facing_x=hero.facing[0],
            facing_y=hero.facing[1],
            boss_windup=int(boss.state == "windup"),
        )
        probe.entity("hero", "hero", (hero.x, hero.y), hp=hero.hp, mana=hero.mana, charging=hero.charging)
        probe.entity("boss", "boss", (boss.x, boss.y), hp=boss.hp, phase=boss.phase, state=boss.state)

    # ---- drawing ---------------------------------------------------------------------------------
    def draw(self, screen: pygame.Surface) -> None:
        """Draw the arena, the actors, the telegraphs and the HUD."""
        if self._background is None:
            self._background = pygame.Surface((SCREEN_W, SCREEN_H))
            self._background.fill(HUD_BG)
            pygame.draw.rect(self._background, FLOOR, (0, HUD_H, ARENA_W, ARENA_H))
            for x in range(0, ARENA_W, TILE):
                pygame.draw.line(self._background, FLOOR_LINE, (x, HUD_H), (x, HUD_H + ARENA_H))
            for y in range(0, ARENA_H, TILE):
                pygame.draw.line(self._background, FLOOR_LINE, (0, HUD_H + y), (ARENA_W, HUD_H + y))
            pygame.draw.rect(self._background, WALL, (0, HUD_H, ARENA_W, ARENA_H), 4)
        if self._font is None:
            self._font = pygame.font.Font(None, 20)
            self._big_font = pygame.font.Font(None, 64)
        screen.blit(self._background, (0, 0))
        boss = self.boss
        if boss.state == "windup" and boss.alive:
            radius = SLAM_RADIUS if boss.attack == "slam" else SWIPE_RANGE if boss.attack == "swipe" else 0
            if radius:
                pygame.draw.circle(screen, TELEGRAPH, (boss.x, HUD_H + boss.y), radius, 2)
            else:
                pygame.draw.line(screen, BUFF_COLORS["weakness"], boss.rect.center, self.hero.rect.center, 2)
        if self.flash is not None:
            attack, left = self.flash
            radius = SLAM_RADIUS if attack == "slam" else SWIPE_RANGE
            if attack != "curse":
                pygame.draw.circle(screen, (255, 200, 120), (boss.x, HUD_H + boss.y), radius - left, 3)
        self.actors.draw(screen)
        self.bolts.draw(screen)
        self._draw_hud(screen)
        if self.over and self._big_font is not None:
            text = self._big_font.render("Victory" if self.won else "Defeat", True, (255, 220, 80))
            box = text.get_rect(center=(SCREEN_W // 2, HUD_H + ARENA_H // 2))
            pygame.draw.rect(screen, HUD_BG, box.inflate(30, 14))
            screen.blit(text, box)

    def _bar(self, screen: pygame.Surface, x: int, y: int, w: int, frac: float, color: Any, label: str) -> None:
        assert self._font is not None
        pygame.draw.rect(screen, BAR_BG, (x, y, w, 14))
        pygame.draw.rect(screen, color, (x, y, round(w * max(0.0, min(1.0, frac))), 14))
        pygame.draw.rect(screen, TEXT, (x, y, w, 14), 1)
        screen.blit(self._font.render(label, True, TEXT), (x + 4, y + 1))

    def _draw_hud(self, screen: pygame.Surface) -> None:
        assert self._font is not None
        hero, boss = self.hero, self.boss
        self._bar(screen, 8, 8, 200, hero.hp / HERO_MAX_HP, HP_COLOR, f"HP {hero.hp}/{HERO_MAX_HP}")
        self._bar(screen, 8, 28, 200, hero.mana / HERO_MAX_MANA, MANA_COLOR, f"Mana {hero.mana}")
        self._bar(screen, 380, 8, 252, boss.hp / BOSS_MAX_HP, BOSS_COLORS[boss.phase - 1],
                  f"Boss {boss.hp}/{BOSS_MAX_HP}  phase {boss.phase}")
        for pct in PHASE_THRESHOLDS:
            x = 380 + 252 * pct // 100
            pygame.draw.line(screen, TEXT, (x, 6), (x, 24), 1)
        for i, skill in enumerate(SKILLS):
            box = pygame.Rect(220 + i * 38, 8, 34, 34)
            ready = hero.ready(skill.name)
            pygame.draw.rect(screen, (70, 80, 90) if ready else (40, 40, 45), box)
            left = hero.cooldowns[skill.name]
            if left:
                h = box.height * left // skill.cooldown
                pygame.draw.rect(screen, (20, 20, 20), (box.x, box.bottom - h, box.w, h))
            pygame.draw.rect(screen, TEXT, box, 1)
            screen.blit(self._font.render(str(i + 1), True, TEXT), (box.x + 3, box.y + 2))
            screen.blit(self._font.render(skill.name[:3], True, TEXT), (box.x + 3, box.y + 18))
        x = 8
        for name in BUFF_ORDER:
            if name in hero.buffs:
                label = self._font.render(f"{name} {hero.buffs[name] // 6 / 10:.1f}", True, HUD_BG)
                box = label.get_rect(topleft=(x, 52)).inflate(8, 4)
                pygame.draw.rect(screen, BUFF_COLORS[name], box)
                screen.blit(label, (x, 52))
                x = box.right + 6
        status = f"Damage {self.score}   distance {self.distance():.0f}"
        screen.blit(self._font.render(status, True, TEXT), (380, 30))


def _validate_main_args(fps: int, max_frames: int | None, start_phase: int) -> None:
    if isinstance(fps, bool) or not isinstance(fps, int) or fps < 0:
        raise ValueError(f"fps must be an int >= 0 (0 = unlimited), got {fps!r}")
    if max_frames is not None and (
        isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 0
    ):
        raise ValueError(f"max_frames must be None or an int >= 0, got {max_frames!r}")
    if start_phase not in (1, 2, 3):
        raise ValueError(f"start_phase must be 1, 2 or 3, got {start_phase!r}")


def main(fps: int = DEFAULT_FPS, max_frames: int | None = None, start_phase: int = 1) -> None:
    """Fight until the boss or the hero falls (then ``END_FRAMES`` more frames), Escape, or ``max_frames``.

    Args:
        fps: Frame-rate cap; 0 runs as fast as possible. Game speed is per frame either way.
        max_frames: Return after drawing this many frames (None: no limit).
        start_phase: Start the boss at the top of this phase (1, 2 or 3), to practise later phases.

    Raises:
        ValueError: If an argument is out of range.
    """
    _validate_main_args(fps, max_frames, start_phase)
    pygame.init()
    try:
        screen = pygame.display.set_mode((SCREEN_W, SCREEN_H))
        pygame.display.set_caption("Combat")
        clock = pygame.time.Clock()
        game = Combat(start_phase=start_phase)
        probe.hook("teleport", game.teleport)
        probe.hook("debug_phase", game.debug_phase)
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
    parser = argparse.ArgumentParser(prog="python -m playtester.games.combat", description="Combat: hero vs boss")
    parser.add_argument("--fps", type=int, default=DEFAULT_FPS, help="frame-rate cap, 0 = unlimited")
    parser.add_argument("--frames", type=int, default=None, help="quit after this many frames")
    parser.add_argument("--start-phase", type=int, default=1, choices=(1, 2, 3), help="boss phase to start in")
    return parser.parse_args(None if argv is None else list(argv))


if __name__ == "__main__":
    _args = _parse_args()
    main(fps=_args.fps, max_frames=_args.frames, start_phase=_args.start_phase)
