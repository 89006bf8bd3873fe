"""Tests of the bundled dungeon game (level data, rules, probe calls, headless runs, the driver)."""

from __future__ import annotations

import math
import os
import random
from collections import defaultdict
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
from gamekit import ROOT, RecordingSink, install_sink, run_headless  # noqa: E402

from playtester.games import dungeon as dg  # noqa: E402

GAMES = ROOT / "src" / "playtester" / "games"
COMPLETABLE = [v for v in dg.VARIANTS if v != "bug"]
DRIVER_KEYS = {"up": "UP", "down": "DOWN", "left": "LEFT", "right": "RIGHT"}
GAME_KEYS = {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT, "right": pygame.K_RIGHT}


@pytest.fixture
def sink(monkeypatch: pytest.MonkeyPatch) -> RecordingSink:
    return install_sink(monkeypatch)


def keys_down(*keys: int) -> defaultdict[int, bool]:
    state: defaultdict[int, bool] = defaultdict(bool)
    for key in keys:
        state[key] = True
    return state


def run_frames(game: dg.Dungeon, frames: int, *held: int) -> None:
    for _ in range(frames):
        game.update(keys_down(*held))


def play_commands(game: dg.Dungeon, commands: list[str]) -> None:
    """Play solver commands directly on a game object (no window): one key press per command."""
    for command in commands:
        if command in GAME_KEYS:
            run_frames(game, dg.MOVE_FRAMES, GAME_KEYS[command])
        elif command == "jump":
            game.handle_key_down(dg.JUMP_KEY)
            run_frames(game, dg.JUMP_FRAMES + 1)
        else:
            game.handle_key_down(dg.INTERACT_KEY)
            run_frames(game, 2)


# ---- level data ----------------------------------------------------------------------------------------
def simple_reach(level: dg.LevelData, door_open: bool) -> set[tuple[int, int]]:
    """An independent BFS: walk to walkable tiles, or jump two tiles over exactly one lava tile."""
    grid = dg.walkable_grid(level, door_open)

    def free(x: int, y: int) -> bool:
        return 0 <= y < len(grid) and 0 <= x < len(grid[y]) and grid[y][x]

    seen = {level.hero}
    todo = [level.hero]
    while todo:
        x, y = todo.pop()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nexts = [(x + dx, y + dy)]
            if level.terrain((x + dx, y + dy)) == dg.LAVA:
                nexts = [(x + 2 * dx, y + 2 * dy)]
            for nx, ny in nexts:
                if free(nx, ny) and (nx, ny) not in seen:
                    seen.add((nx, ny))
                    todo.append((nx, ny))
    return seen


@pytest.mark.parametrize("variant", dg.VARIANTS)
def test_level_shape_and_actors(variant: str) -> None:
    level = dg.level_data(variant)
    assert len(level.rows) == dg.ROWS and all(len(row) == dg.COLS for row in level.rows)
    assert set("".join(level.rows)) <= {dg.WALL, dg.FLOOR, dg.DOOR, dg.LAVA}
    assert "".join(level.rows).count(dg.DOOR) == 1
    assert all(ch == dg.WALL for ch in level.rows[0] + level.rows[-1])
    assert all(row[0] == row[-1] == dg.WALL for row in level.rows)
    assert level.lava, "every level has a lava pit"
    floor = {(x, y) for y, row in enumerate(level.rows) for x, ch in enumerate(row) if ch == dg.FLOOR}
    actors = [level.hero, level.shrine, *level.switches, *level.enemies, *level.coins]
    assert set(actors) <= floor
    assert len(set(actors)) == len(actors)
    if variant == "spawns":
        assert level.spawning and level.enemies == ()
    else:
        assert level.enemies and level.coins


@pytest.mark.parametrize("variant", COMPLETABLE)
def test_switch_then_shrine_reachable(variant: str) -> None:
    level = dg.level_data(variant)
    closed = simple_reach(level, door_open=False)
    assert any(c in closed for s in level.switches for c in dg.interact_cells(s))
    assert not any(c in closed for c in dg.interact_cells(level.shrine)), "the door must matter"
    walk_only = dg.reachable(level, door_open=True, jumps=False)
    assert not any(c in walk_only for c in dg.interact_cells(level.shrine)), "the lava must matter"
    opened = simple_reach(level, door_open=True)
    assert any(c in opened for c in dg.interact_cells(level.shrine))
    commands = dg.solve(level)
    assert commands is not None and commands[-1] == "interact" and commands.count("interact") == 2
    assert "jump" in commands


def test_bug_variant_switch_is_unreachable() -> None:
    level = dg.level_data("bug")
    reach = simple_reach(level, door_open=False) | dg.reachable(level, door_open=False)
    assert not any(c in reach for s in level.switches for c in dg.interact_cells(s))
    assert dg.solve(level) is None
    # With the door forced open the rest of the level is fine: the switch is the only problem.
    assert any(c in simple_reach(level, True) for c in dg.interact_cells(level.shrine))
    assert [b["kind"] for b in dg.INJECTED_BUGS] == ["plan"]
    assert dg.INJECTED_BUGS[0]["message"] == "door never opens: switch unreachable"
    assert "unreachable-switch" in (dg.__doc__ or "")


def test_moved_and_layout_differ_from_base() -> None:
    base, moved, layout = (dg.level_data(v) for v in ("base", "moved", "layout"))
    assert moved.rows == base.rows
    assert moved.switches != base.switches and moved.shrine != base.shrine
    assert set(moved.enemies).isdisjoint(base.enemies) and set(moved.coins).isdisjoint(base.coins)
    assert layout.rows != base.rows and layout.door != base.door and set(layout.lava).isdisjoint(base.lava)


def test_unknown_variant_is_rejected() -> None:
    with pytest.raises(ValueError, match="variant"):
        dg.level_data("nope")
    with pytest.raises(ValueError, match="variant"):
        dg.main(variant="nope", fps=0, max_frames=1)
    with pytest.raises(ValueError, match="fps"):
        dg.main(fps=-1, max_frames=1)


# ---- rules on the game object --------------------------------------------------------------------------
@pytest.mark.parametrize("variant", COMPLETABLE)
def test_solver_commands_win_every_completable_variant(variant: str, sink: RecordingSink) -> None:
    random.seed(0)
    game = dg.Dungeon(variant)
    game.enemies.empty()  # rules only: the driver test below plays with enemies
    play_commands(game, dg.solve(game.level) or [])
    names = sink.names()
    assert game.won and game.door.open and game.shrine.active
    assert names.index("switch_on") < names.index("door_opened") < names.index("jump")
    assert names.index("landed") < names.index("shrine_activated") < names.index("win")
    run_frames(game, dg.END_FRAMES)
    assert game.finished


def test_walking_into_a_wall_turns_and_into_lava_kills(sink: RecordingSink) -> None:
    game = dg.Dungeon("base")
    game.enemies.empty()
    assert game.teleport(1, 1)
    run_frames(game, dg.MOVE_FRAMES, pygame.K_LEFT)  # the border wall
    assert game.hero.cell == (1, 1) and game.hero.facing == dg.LEFT
    run_frames(game, dg.MOVE_FRAMES, pygame.K_d)
    assert game.hero.cell == (2, 1) and (game.hero.x, game.hero.y) == (2.0, 1.0)
    # The closed door blocks, the lava kills.
    assert game.teleport(6, 7)
    run_frames(game, dg.MOVE_FRAMES, pygame.K_RIGHT)
    assert game.hero.cell == (6, 7)
    assert game.teleport(12, 6)
    run_frames(game, dg.MOVE_FRAMES, pygame.K_RIGHT)
    assert not game.hero.alive and ("hero_died", {"cause": "lava"}) in sink.events
    run_frames(game, dg.END_FRAMES)
    assert game.finished


def test_jump_crosses_one_lava_tile(sink: RecordingSink) -> None:
    game = dg.Dungeon("base")
    game.enemies.empty()
    assert game.teleport(11, 6)
    run_frames(game, dg.MOVE_FRAMES, pygame.K_RIGHT)  # walk to (12, 6) facing the lava
    game.handle_key_down(dg.JUMP_KEY)
    run_frames(game, 1)
    assert game.hero.airborne
    run_frames(game, dg.JUMP_FRAMES)
    assert game.hero.alive and game.hero.cell == (14, 6)
    jump = next(d for n, d in sink.events if n == "jump")
    assert jump == {"x": 12, "y": 6, "to_x": 14, "to_y": 6, "over": dg.LAVA}
    assert ("landed", {"x": 14, "y": 6}) in sink.events
    # Against a wall the hero only hops in place.
    assert game.teleport(18, 6)
    game.hero.facing = dg.RIGHT
    game.handle_key_down(dg.JUMP_KEY)
    run_frames(game, dg.JUMP_FRAMES + 1)
    assert game.hero.cell == (18, 6) and game.hero.alive


def test_interact_attack_coins_and_hurt(sink: RecordingSink) -> None:
    game = dg.Dungeon("base")
    level = game.level
    game.handle_key_down(dg.INTERACT_KEY)
    run_frames(game, 1)
    assert ("interact", {"target": None, "kind": None}) in sink.events and not game.door.open
    # Coins are picked up by walking onto them.
    coin = level.coins[0]
    assert game.teleport(coin[0] - 1, coin[1])
    run_frames(game, dg.MOVE_FRAMES, pygame.K_RIGHT)
    assert game.coins_collected == 1 and ("collected", {"id": "coin-0", "coins": 1}) in sink.events
    # An enemy next to the hero dies from one attack; touching one hurts.
    enemy = min(game.enemies, key=lambda e: e.number)
    assert game.teleport(enemy.x - 1, enemy.y)
    game.handle_key_down(dg.ATTACK_KEY)
    assert ("enemy_killed", {"id": enemy.id}) in sink.events and enemy not in game.enemies
    other = next(iter(game.enemies))
    assert game.teleport(other.x, other.y - 1)
    run_frames(game, 30)
    assert game.hero.hp == dg.MAX_HP - 1 and sink.names().count("hurt") == 1
    # Interacting next to the switch opens the door.
    sx, sy = level.switches[0]
    assert game.teleport(sx + 1, sy)
    game.handle_key_down(dg.INTERACT_KEY)
    run_frames(game, 1)
    assert game.door.open and ("door_opened", {"id": "door-0"}) in sink.events
    assert ("interact", {"target": "switch-0", "kind": "switch"}) in sink.events


def test_report_and_hooks(sink: RecordingSink) -> None:
    game = dg.Dungeon("base")
    game.report()
    hero = sink.entities["hero"]
    assert hero[0] == "hero" and hero[1] == (2.0, 2.0) and hero[2]["facing"] == "down"
    assert sink.entities["switch-0"] == ("switch", (3.0, 11.0), {"on": False})
    assert sink.entities["door-0"] == ("door", (7.0, 7.0), {"open": False})
    assert sink.entities["shrine"] == ("shrine", (16.0, 7.0), {"active": False})
    assert {k for k, v in sink.entities.items() if v[0] == "enemy"} == {"enemy-0", "enemy-1"}
    assert {k for k, v in sink.entities.items() if v[0] == "coin"} == {"coin-0", "coin-1", "coin-2"}
    assert sum(v[0] == "lava" for v in sink.entities.values()) == 4
    assert sink.features == {"x": 2.0, "y": 2.0, "hp": 3, "coins": 0, "door_open": 0, "shrine_active": 0}

    grid = game.walkable()
    assert len(grid) == dg.ROWS and len(grid[0]) == dg.COLS
    assert grid[2][2] and not grid[0][0] and not grid[7][7] and not grid[5][13]
    assert not game.teleport(7, 7) and not game.teleport(13, 5) and not game.teleport(0, 0)
    game.door.unlock()
    assert game.walkable()[7][7] and game.teleport(7, 7) and game.hero.cell == (7, 7)


def test_spawns_variant_draws_enemies_from_the_module_random(sink: RecordingSink) -> None:
    def spawned(seed: int) -> list[tuple[float, float]]:
        random.seed(seed)
        game = dg.Dungeon("spawns")
        game.hero.hp = 10**6  # the enemies catch the idle hero; keep it alive so spawning goes on
        run_frames(game, dg.SPAWN_EVERY * 2)
        return [(e.x, e.y) for e in sorted(game.enemies, key=lambda e: e.number)] + [(game.next_enemy, 0)]

    first = spawned(1)
    assert first == spawned(1)
    assert first[-1][0] == dg.SPAWN_START + 2  # three at the start, then one every SPAWN_EVERY frames
    assert len({tuple(spawned(s)) for s in range(4)}) > 1
    random.seed(5)
    game = dg.Dungeon("spawns")
    for enemy in game.enemies:
        assert dg.level_data("spawns").terrain((int(enemy.x), int(enemy.y))) == dg.FLOOR
        assert math.hypot(enemy.x - 2, enemy.y - 2) >= dg.SPAWN_MIN_DISTANCE - 1


# ---- headless runs ---------------------------------------------------------------------------------------
def test_headless_smoke_run_exits_cleanly() -> None:
    for variant in dg.VARIANTS:
        result = run_headless("playtester.games.dungeon", "--frames", "200", "--fps", "0", "--variant", variant)
        assert result.returncode == 0, result.stderr


def test_config_and_action_space() -> None:
    from playtester.actions.manual import load_manual
    from playtester.drive import resolve

    spec = resolve("dungeon")
    cfg = spec.config
    assert cfg.frames_per_action == dg.MOVE_FRAMES
    assert cfg.done_events == ["win", "hero_died"] and cfg.coverage["position"] == "entity:hero"
    assert cfg.game_args == {"variant": "base"}
    space = load_manual(GAMES / "dungeon.actions.yaml", cfg.blacklist)
    assert space.names == ["up", "down", "left", "right", "idle", "interact", "attack", "jump"]


# ---- through playtester's driver -------------------------------------------------------------------------
@pytest.fixture
def worker_factory():
    from playtester.drive import Worker, resolve

    made = []

    def make(variant: str = "base"):
        spec = resolve("dungeon")
        if variant != "base":
            spec = spec.with_config(game_args={"variant": variant})
        made.append(Worker(spec, capture=None))
        return made[-1]

    yield make
    for w in made:
        w.close()


@pytest.fixture
def worker(worker_factory):
    return worker_factory()


def drive_commands(w, commands: list[str]) -> tuple[Any, list[Any]]:
    """Play solver commands through the driver with key presses, fighting off enemies that come close.

    Returns:
        The last observation and every probe event seen.
    """
    from playtester.drive import InputFrame

    events: list[Any] = []
    obs = w.reset(seed=0)

    def step(keys: list[str], frames: int) -> None:
        nonlocal obs
        obs = w.step(InputFrame.make(keys=keys), frames=frames)
        events.extend(obs.events)

    def nearest_enemy() -> float:
        hx, hy = obs.entities["hero"].pos
        dists = [math.hypot(e.pos[0] - hx, e.pos[1] - hy) for e in obs.entities.values() if e.kind == "enemy"]
        return min(dists, default=math.inf)

    for command in commands:
        for _ in range(40):
            distance = nearest_enemy()
            if distance > 2.5:
                break
            if distance <= 1.4:
                step(["SPACE"], 2)
                step([], dg.ATTACK_COOLDOWN - 2)
            else:
                step([], 2)  # let it come closer
        if command in DRIVER_KEYS:
            step([DRIVER_KEYS[command]], dg.MOVE_FRAMES)
        elif command == "jump":
            step(["j"], 2)
            step([], dg.JUMP_FRAMES)
        else:
            step(["e"], 2)
        if obs.done:
            break
    return obs, events


def test_driver_walking_moves_the_hero(worker) -> None:
    from playtester.drive import InputFrame

    obs = worker.reset(seed=0)
    start = obs.entities["hero"].pos
    assert start == (2.0, 2.0) and obs.features["hp"] == dg.MAX_HP
    obs = worker.step(InputFrame.make(keys=["RIGHT"]), frames=dg.MOVE_FRAMES)
    assert obs.entities["hero"].pos == (3.0, 2.0) and obs.entities["hero"].attrs["facing"] == "right"
    obs = worker.step(InputFrame.make(keys=["s"]), frames=dg.MOVE_FRAMES)
    assert obs.entities["hero"].pos == (3.0, 3.0)
    assert {"switch-0", "door-0", "shrine", "enemy-0", "coin-0", "lava-0"} <= set(obs.entities)


@pytest.mark.parametrize("variant", COMPLETABLE)
def test_driver_completes_the_level_with_normal_inputs(worker_factory, variant: str) -> None:
    """The strongest check that a level is completable: play the solver's route with key presses
    through playtester's driver, fighting off the enemies that come close, until the game wins."""
    commands = dg.solve(dg.level_data(variant))
    assert commands is not None
    obs, events = drive_commands(worker_factory(variant), commands)
    names = [e.name for e in events]
    assert "hero_died" not in names
    assert obs.done
    assert names.count("door_opened") == 1 and names.count("win") == 1
    assert names.index("switch_on") < names.index("door_opened") < names.index("jump")
    assert names.index("jump") < names.index("landed") < names.index("shrine_activated") < names.index("win")
    assert obs.features["door_open"] == 1 and obs.features["shrine_active"] == 1


def test_driver_bug_variant_plan_fails_at_the_switch(worker_factory) -> None:
    """The base level's plan, replayed on variant 'bug': the interact finds no switch, the door stays
    shut, and the game is never won -- the failed validation the article describes."""
    commands = dg.solve(dg.level_data("base"))
    assert commands is not None
    obs, events = drive_commands(worker_factory("bug"), commands)
    interacts = [e.data for e in events if e.name == "interact"]
    assert interacts and interacts[0] == {"target": None, "kind": None}
    names = [e.name for e in events]
    assert "door_opened" not in names and "switch_on" not in names and "win" not in names
    assert not obs.done and obs.features["door_open"] == 0
    assert obs.entities["switch-0"].attrs == {"on": False} and obs.entities["door-0"].attrs == {"open": False}
