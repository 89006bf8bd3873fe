"""Tests for the bundled ``arena`` twin-stick shooter: pure logic, injected bugs, smoke run, the driver."""

from __future__ import annotations

import builtins
import inspect
import math
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from gamekit import run_headless  # noqa: E402

from playtester.actions.manual import load_manual
from playtester.drive import InputFrame, Observation, Worker, resolve
from playtester.games import arena as ar
from playtester.oracles import oracle_settings
from playtester.oracles.balance import BalanceOracle

LEFT, TOP, RIGHT, BOTTOM = (
    ar.ARENA.left + ar.PLAYER_RADIUS,
    ar.ARENA.top + ar.PLAYER_RADIUS,
    ar.ARENA.right - ar.PLAYER_RADIUS,
    ar.ARENA.bottom - ar.PLAYER_RADIUS,
)
D = math.sqrt(0.5)


# --- pure logic -------------------------------------------------------------------------------------------
def test_normalize_and_its_zero_vector() -> None:
    assert ar.normalize(3, 4) == pytest.approx((0.6, 0.8))
    assert ar.normalize(0, -2) == pytest.approx((0.0, -1.0))
    with pytest.raises(ZeroDivisionError):  # callers must guard (injected bug 1 does not)
        ar.normalize(0.0, 0.0)
    assert ar.direction_or(0.0, 0.0, (1.0, 0.0)) == (1.0, 0.0)
    assert ar.direction_or(0.0, 5.0, (1.0, 0.0)) == pytest.approx((0.0, 1.0))
    assert ar.direction_or(0.3, 0.0, (0.0, 1.0), minimum=0.5) == (0.0, 1.0)
    assert ar.rotate(1, 0, 90) == pytest.approx((0.0, 1.0))


def test_clamp_and_contains() -> None:
    assert ar.arena_contains(ar.ARENA.centerx, ar.ARENA.centery)
    assert ar.clamp_to_arena(-50, 1000) == (LEFT, BOTTOM)
    assert ar.clamp_to_arena(300, 200) == (300, 200)
    for x, y in [(-50, -50), (1000, 300), (300, 1000), (RIGHT + 0.1, TOP)]:
        assert not ar.arena_contains(x, y)
        assert ar.arena_contains(*ar.clamp_to_arena(x, y))
    assert ar.arena_contains(LEFT, BOTTOM) and ar.arena_contains(RIGHT, TOP)


def test_dash_walls_fix_one_wall_but_not_a_corner() -> None:
    assert ar.resolve_dash_walls(RIGHT + 7, 200) == (RIGHT, 200)  # side wall
    assert ar.resolve_dash_walls(300, TOP - 7) == (300, TOP)  # top wall
    assert ar.resolve_dash_walls(300, 200) == (300, 200)
    x, y = ar.resolve_dash_walls(RIGHT + 7, TOP - 7)  # both at once: injected bug 2
    assert x == RIGHT and y == TOP - 7
    assert not ar.arena_contains(x, y)


def test_waves_get_harder() -> None:
    plans = [ar.wave_plan(w) for w in range(1, 11)]
    assert plans[0] == ar.WavePlan(count=3, hp=20, speed=1.0)
    for a, b in zip(plans, plans[1:], strict=False):
        assert b.count >= a.count and b.hp > a.hp and b.speed >= a.speed
    assert all(p.speed < ar.PLAYER_SPEED for p in plans)  # the player can always outrun them
    with pytest.raises(ValueError):
        ar.wave_plan(0)


def test_spawn_positions_along_the_walls_and_away_from_the_player() -> None:
    player = (ar.ARENA.centerx, ar.ARENA.centery)
    a = ar.spawn_positions(25, player, random.Random(5))
    assert a == ar.spawn_positions(25, player, random.Random(5))
    assert a != ar.spawn_positions(25, player, random.Random(6))
    for x, y in a:
        assert ar.arena_contains(x, y, ar.ENEMY_RADIUS)
        assert math.hypot(x - player[0], y - player[1]) >= ar.SAFE_SPAWN
    # None draws from the module-level random, which playtester seeds per episode.
    random.seed(3)
    first = ar.spawn_positions(4, player)
    random.seed(3)
    assert ar.spawn_positions(4, player) == first
    # In a corner the player still gets enemies, at the safe distance when there is room.
    corner = (LEFT, TOP)
    for x, y in ar.spawn_positions(30, corner, random.Random(1)):
        assert math.hypot(x - corner[0], y - corner[1]) >= ar.SAFE_SPAWN


def test_weapon_table_and_the_cannon_typo() -> None:
    lo, hi = ar.DESIGNED_DAMAGE
    assert set(ar.WEAPONS) == {1, 2, 3, 4} and set(ar.HAT_WEAPONS.values()) == {1, 2, 3, 4}
    assert all(lo <= w.damage <= hi for i, w in ar.WEAPONS.items() if i != 3)
    assert ar.WEAPONS[3].damage == 160  # injected bug 3 (designed 16)
    assert ar.HAT_WEAPONS[(0, -1)] == 3


def test_injected_bugs_shape() -> None:
    source = inspect.getsource(ar)
    assert [bug["id"] for bug in ar.INJECTED_BUGS] == [
        "dash-bomb-crash",
        "dash-corner-escape",
        "cannon-damage",
    ]
    for bug in ar.INJECTED_BUGS:
        assert set(bug) == {"id", "kind", "message", "description", "how"}
        assert all(isinstance(value, str) and value for value in bug.values())
        assert bug["id"] in ar.__doc__
    crash, assertion, balance = ar.INJECTED_BUGS
    assert crash["kind"] == "crash" and issubclass(getattr(builtins, crash["message"]), BaseException)
    assert assertion["kind"] == "assertion" and f'"{assertion["message"]}"' in source
    assert balance["kind"] == "balance" and balance["message"].startswith("hit.damage = 160")


def test_config_and_manual_space() -> None:
    spec = resolve("arena")
    cfg = spec.config
    assert cfg.joysticks == 1 and cfg.done_events == ["player_died"] and cfg.reward_feature == "score"
    assert oracle_settings(resolve("arena")).balance == {"hit.damage": (1.0, 20.0)}
    assert cfg.features and {"x", "y", "hp", "score", "wave", "bombs", "weapon", "dash_ready"} <= set(
        cfg.features
    )
    space = load_manual(Path(ar.__file__).with_name("arena.actions.yaml"))
    frames = [a.inputs for a in space.actions]
    assert len(space) == 1 + 8 + 8 + 2 + 4
    assert (
        sum(
            1
            for f in frames
            if {a for _, a, _ in f.joy_axes} == {0, 1} or {a for _, a, _ in f.joy_axes} in ({0}, {1})
        )
        == 8
    )
    assert sum(1 for f in frames if f.joy_axes and {a for _, a, _ in f.joy_axes} <= {2, 3}) == 8
    assert {h for f in frames for _, _, h in f.joy_hats} == set(ar.HAT_WEAPONS)
    assert {b for f in frames for b in f.joy_buttons} == {(0, 0), (0, 1)}


# --- smoke run in a real subprocess -------------------------------------------------------------------------
def test_headless_smoke_run() -> None:
    result = run_headless("playtester.games.arena", "--frames", "200", "--fps", "0")
    assert result.returncode == 0, result.stderr


# --- through playtester's driver ----------------------------------------------------------------------------
@pytest.fixture
def worker() -> Iterator[Worker]:
    w = Worker(resolve("arena"), capture=None)
    yield w
    w.close()


def _names(obs: Observation) -> list[str]:
    return [e.name for e in obs.events]


def _to_corner(w: Worker) -> Observation:
    """Walk up-right into the top-right corner."""
    obs = w.step(InputFrame.make(axes={(0, 0): D, (0, 1): -D}), frames=200)
    assert (obs.features["x"], obs.features["y"]) == (RIGHT, TOP)
    return obs


def test_left_stick_moves_and_right_stick_fires(worker: Worker) -> None:
    obs = worker.reset(seed=0)
    x0, y0 = obs.features["x"], obs.features["y"]
    assert obs.entities["player"].pos == (x0, y0)
    obs = worker.step(InputFrame.make(axes={(0, 0): 1.0}), frames=10)
    assert obs.features["x"] == pytest.approx(x0 + 10 * ar.PLAYER_SPEED) and obs.features["y"] == y0
    obs = worker.step(InputFrame.make(axes={(0, 0): -0.5}), frames=10)  # the raw axis value is the speed
    assert obs.features["x"] == pytest.approx(x0 + 5 * ar.PLAYER_SPEED)
    obs = worker.step(InputFrame.make(axes={(0, 2): 0.4}), frames=30)  # below the fire threshold
    assert "shot" not in _names(obs)
    obs = worker.step(InputFrame.make(axes={(0, 2): 1.0}), frames=30)
    shots = [e for e in obs.events if e.name == "shot"]
    assert len(shots) == 3 and shots[0].data["weapon"] == 1 and shots[0].data["dx"] == 1.0
    assert not obs.done and not obs.checks


def test_waves_spawn_enemies_that_chase_and_hurt(worker: Worker) -> None:
    worker.reset(seed=0)
    obs = worker.step(InputFrame(), frames=ar.WAVE_DELAY + 1)
    assert obs.features["wave"] == 1 and obs.features["enemies"] == 3
    enemies = {k: v for k, v in obs.entities.items() if v.kind == "enemy"}
    assert set(enemies) == {"enemy-0", "enemy-1", "enemy-2"}
    assert "wave" in _names(obs)
    hurt = []
    for _ in range(100):
        obs = worker.step(InputFrame(), frames=10)
        hurt += [e for e in obs.events if e.name == "hurt"]
        if obs.done:
            break
    assert hurt and obs.done and "player_died" in _names(obs)
    assert obs.features["hp"] == 0 and not obs.checks


def test_hat_dash_and_bomb(worker: Worker) -> None:
    worker.reset(seed=0)
    obs = worker.step(InputFrame.make(hats={(0, 0): (1, 0)}), frames=2)
    assert obs.features["weapon"] == 2 and "weapon" in _names(obs)
    obs = worker.step(InputFrame.make(axes={(0, 0): 1.0}, joy_buttons=[(0, 0)]), frames=1)
    assert "dash" in _names(obs) and obs.features["dash_ready"] == 0
    obs = worker.step(InputFrame(), frames=ar.DASH_FRAMES + ar.DASH_COOLDOWN + 1)
    assert obs.features["dash_ready"] == 1
    obs = worker.step(InputFrame(), frames=ar.WAVE_DELAY)  # wave 1 is on
    obs = worker.step(InputFrame.make(joy_buttons=[(0, 1)]), frames=2)
    bomb = [e for e in obs.events if e.name == "bomb"]
    assert len(bomb) == 1 and obs.features["bombs"] == ar.MAX_BOMBS - 1 and not obs.done


def test_keyboard_fallback_without_a_joystick() -> None:
    w = Worker(resolve("arena", joysticks=0), capture=None)
    try:
        obs = w.reset(seed=0)
        x0 = obs.features["x"]
        obs = w.step(InputFrame.make(keys=["d"]), frames=10)
        assert obs.features["x"] == pytest.approx(x0 + 10 * ar.PLAYER_SPEED)
        obs = w.step(InputFrame.make(keys=["LEFT"]), frames=13)
        assert [e.data["dx"] for e in obs.events if e.name == "shot"] == [-1.0, -1.0]
        obs = w.step(InputFrame.make(keys=["e"]), frames=2)
        assert obs.features["weapon"] == 2
        obs = w.step(InputFrame.make(keys=["q"]), frames=2)
        assert obs.features["weapon"] == 1
        # Joystick inputs do nothing without a joystick plugged in.
        obs = w.step(InputFrame.make(axes={(0, 0): 1.0}), frames=5)
        assert obs.features["x"] == pytest.approx(x0 + 10 * ar.PLAYER_SPEED)
    finally:
        w.close()


@pytest.mark.parametrize("same_frame", [True, False])
def test_crash_dash_and_bomb_with_the_right_stick_neutral(worker: Worker, same_frame: bool) -> None:
    worker.reset(seed=0)
    worker.step(InputFrame(), frames=3)
    if same_frame:
        obs = worker.step(InputFrame.make(joy_buttons=[(0, 0), (0, 1)]), frames=2)
    else:  # the manual space's "dash" then "bomb": the dash still lasts when the bomb goes off
        obs = worker.step(InputFrame.make(joy_buttons=[(0, 0)]), frames=6)
        assert not obs.done
        obs = worker.step(InputFrame.make(joy_buttons=[(0, 1)]), frames=2)
    assert obs.done and obs.info["exit"].kind == "exception"
    assert obs.info["exit"].exc_type == "ZeroDivisionError"
    assert obs.info["exit"].frames[-1].function == "normalize"


def test_no_crash_for_the_parts_of_the_combination(worker: Worker) -> None:
    worker.reset(seed=0)
    worker.step(InputFrame(), frames=3)
    # Dash and bomb together with the right stick pushed: the bomb is slung ahead along the aim.
    obs = worker.step(InputFrame.make(axes={(0, 2): 1.0}, joy_buttons=[(0, 0), (0, 1)]), frames=2)
    bomb = [e for e in obs.events if e.name == "bomb"]
    assert not obs.done and len(bomb) == 1 and bomb[0].data["x"] > obs.features["x"]
    # A bomb after the dash is over, stick neutral: at the player's feet.
    obs = worker.step(InputFrame(), frames=ar.DASH_FRAMES)
    obs = worker.step(InputFrame.make(joy_buttons=[(0, 1)]), frames=2)
    assert not obs.done and "bomb" in _names(obs)
    # Dash and bomb with no bombs left: nothing goes off.
    obs = worker.step(InputFrame(), frames=ar.DASH_COOLDOWN + ar.DASH_FRAMES)
    obs = worker.step(InputFrame.make(joy_buttons=[(0, 1)]), frames=2)
    assert obs.features["bombs"] == 0
    obs = worker.step(InputFrame.make(joy_buttons=[(0, 0), (0, 1)]), frames=2)
    assert not obs.done and "dash" in _names(obs) and "bomb" not in _names(obs)


def test_diagonal_dash_into_a_corner_leaves_the_arena(worker: Worker) -> None:
    worker.reset(seed=0)
    obs = _to_corner(worker)
    assert not obs.checks
    obs = worker.step(InputFrame.make(axes={(0, 0): D, (0, 1): -D}, joy_buttons=[(0, 0)]), frames=4)
    assert "dash" in _names(obs)
    assert obs.features["y"] < TOP and obs.features["x"] == RIGHT
    assert {c.message for c in obs.checks} == {"player inside the arena walls"}
    # Dashing straight into a wall is fine; after the dash the player walks back inside.
    obs = worker.step(InputFrame(), frames=ar.DASH_FRAMES + ar.DASH_COOLDOWN + 2)
    assert ar.arena_contains(obs.features["x"], obs.features["y"])
    obs = worker.step(InputFrame.make(axes={(0, 0): 1.0}, joy_buttons=[(0, 0)]), frames=4)
    assert "dash" in _names(obs) and not obs.checks


def test_cannon_hits_break_the_designed_damage_range(worker: Worker) -> None:
    obs = worker.reset(seed=1)
    obs = worker.step(InputFrame.make(hats={(0, 0): (0, -1)}), frames=2)  # d-pad down: the cannon
    assert obs.features["weapon"] == 3
    oracle = BalanceOracle(dict(oracle_settings(resolve("arena")).balance))
    hits, findings = [], []
    for step in range(200):
        enemies = [e for e in obs.entities.values() if e.kind == "enemy"]
        if enemies:  # aim the right stick at the first enemy
            ex, ey = enemies[0].pos
            dx, dy = ar.normalize(ex - obs.features["x"], ey - obs.features["y"])
            obs = worker.step(InputFrame.make(axes={(0, 2): dx, (0, 3): dy}), frames=6)
        else:
            obs = worker.step(InputFrame(), frames=6)
        hits += [e.data for e in obs.events if e.name == "hit"]
        findings += oracle.check(obs, step)
        if hits:
            break
    assert hits and hits[0]["weapon"] == 3 and hits[0]["damage"] > 20
    assert findings and findings[0].message == ar.INJECTED_BUGS[2]["message"]


def test_pistol_hits_stay_in_the_designed_range(worker: Worker) -> None:
    obs = worker.reset(seed=1)
    damage = []
    for _ in range(200):
        enemies = [e for e in obs.entities.values() if e.kind == "enemy"]
        if enemies:
            ex, ey = enemies[0].pos
            dx, dy = ar.normalize(ex - obs.features["x"], ey - obs.features["y"])
            obs = worker.step(InputFrame.make(axes={(0, 2): dx, (0, 3): dy}), frames=6)
        else:
            obs = worker.step(InputFrame(), frames=6)
        damage += [e.data["damage"] for e in obs.events if e.name == "hit"]
        if "enemy_killed" in _names(obs):
            break
    assert damage and set(damage) == {10}
    assert "enemy_killed" in _names(obs) and obs.features["score"] == 10
