"""Tests for the bundled ``platformer`` benchmark game: level logic, ray cast, injected bugs, smoke run."""

from __future__ import annotations

import builtins
import inspect
import random
from collections import deque
from collections.abc import Iterator

import pygame
import pytest
from gamekit import HEADLESS, RecordingSink, install_sink, run_headless

from playtester import probe
from playtester.games import platformer as pf


# --- level layout ---------------------------------------------------------------------------------------
def _unsupported_tiles(layout: pf.LevelLayout) -> list[tuple[int, int, str]]:
    """Drawn tiles whose cell is not covered by any collision rect."""
    return [
        (col, row, kind)
        for col, row, kind in layout.tiles
        if not any(s.rect.collidepoint(col * pf.TILE + 1, row * pf.TILE + 1) for s in layout.solids)
    ]


def _standable(layout: pf.LevelLayout, col: int, row: int) -> bool:
    solid = pf.SOLID_CHARS
    return layout.cell(col, row) not in solid and layout.cell(col, row + 1) in solid


def _reachable(layout: pf.LevelLayout, start: tuple[int, int], goal: tuple[int, int]) -> bool:
    """Coarse reachability over standable cells, with the jump range the physics constants give."""
    airtime = 2 * pf.JUMP_SPEED / pf.GRAVITY
    max_dx = int((pf.RUN_SPEED * airtime + pf.PLAYER_W) // pf.TILE)
    max_up = int(pf.JUMP_SPEED**2 / (2 * pf.GRAVITY) // pf.TILE)
    seen = {start}
    todo = deque([start])
    while todo:
        col, row = todo.popleft()
        if (col, row) == goal:
            return True
        for c in range(col - max_dx, col + max_dx + 1):
            for r in range(row - max_up, layout.rows):
                if (c, r) not in seen and _standable(layout, c, r):
                    seen.add((c, r))
                    todo.append((c, r))
    return False


@pytest.mark.parametrize("index", range(len(pf.LEVELS)))
def test_level_shape_and_flag_reachable(index: int) -> None:
    layout = pf.build_level(index)
    assert layout.width >= 3 * pf.SCREEN_W
    assert layout.height == pf.SCREEN_H
    start = (layout.player_start[0] // pf.TILE, layout.player_start[1] // pf.TILE - 1)
    goal = (layout.flag[0] // pf.TILE, layout.flag[1] // pf.TILE - 1)
    assert _standable(layout, *start)
    assert _standable(layout, *goal)
    assert _reachable(layout, start, goal)
    # There are pits: ground columns with nothing under them.
    bottom = layout.grid[-1]
    assert "." in bottom
    assert layout.coins and layout.enemies and layout.crates
    # Every enemy stands on a drawn floor.
    for x, y in layout.enemies:
        assert _standable(layout, x // pf.TILE, y // pf.TILE - 1)


def test_level_zero_has_exactly_one_drawn_but_not_solid_floor_tile() -> None:
    layout = pf.build_level(0)
    assert _unsupported_tiles(layout) == [(13, 10, pf.GROUND)]
    # It is a floor tile: open air above it, ground under it, flanked by mud.
    assert layout.cell(13, 9) not in pf.SOLID_CHARS
    assert layout.cell(13, 11) == pf.GROUND
    assert layout.cell(12, 10) == layout.cell(14, 10) == pf.MUD
    assert layout.walkable()[10][13] is False  # the map (and the walkable hook) says it is solid


def test_other_levels_have_no_hidden_holes() -> None:
    for index in range(1, len(pf.LEVELS)):
        assert _unsupported_tiles(pf.build_level(index)) == []


def test_tile_runs_and_the_dropped_single_cell_run() -> None:
    assert pf.tile_runs("##.###~~#", "#") == [(0, 1), (3, 5)]  # the lone "#" at 8 is dropped (bug 2)
    assert pf.tile_runs("##.###~~#", "~") == [(6, 7)]
    assert pf.tile_runs("..#..", "#") == []


def test_build_level_rejects_unknown_levels() -> None:
    with pytest.raises(ValueError):
        pf.build_level(len(pf.LEVELS))


# --- ray cast ---------------------------------------------------------------------------------------
def test_raycast_hits_rect_on_line_and_misses_rect_off_it() -> None:
    on_line = pygame.Rect(100, 90, 20, 20)
    off_line = pygame.Rect(100, 200, 20, 20)
    assert pf.raycast((0, 100), (300, 100), [off_line, on_line]) == 1
    assert pf.raycast((0, 100), (300, 100), [off_line]) is None
    assert pf.raycast((0, 100), (50, 100), [on_line]) is None  # segment ends before the rect


def test_raycast_picks_nearest_and_respects_blockers() -> None:
    near, far = pygame.Rect(100, 90, 20, 20), pygame.Rect(200, 90, 20, 20)
    assert pf.raycast((0, 100), (300, 100), [far, near]) == 1
    assert pf.raycast((300, 100), (0, 100), [far, near]) == 0  # direction matters
    wall = pygame.Rect(50, 0, 10, 300)
    assert pf.raycast((0, 100), (300, 100), [near], blockers=[wall]) is None
    behind = pygame.Rect(250, 0, 10, 300)
    assert pf.raycast((0, 100), (300, 100), [near], blockers=[behind]) == 0


# --- injected bugs metadata ---------------------------------------------------------------------------
def test_injected_bugs_shape() -> None:
    source = inspect.getsource(pf)
    assert len(pf.INJECTED_BUGS) >= 2
    assert len({bug["id"] for bug in pf.INJECTED_BUGS}) == len(pf.INJECTED_BUGS)
    for bug in pf.INJECTED_BUGS:
        assert set(bug) == {"id", "kind", "message", "description", "how"}
        assert all(isinstance(value, str) and value for value in bug.values())
        assert bug["id"] in pf.__doc__
        if bug["kind"] == "crash":
            assert issubclass(getattr(builtins, bug["message"]), BaseException)
        else:
            assert bug["kind"] == "assertion"
            assert f'"{bug["message"]}"' in source
    assert {bug["kind"] for bug in pf.INJECTED_BUGS} == {"crash", "assertion"}


# --- in-process game checks (headless) ----------------------------------------------------------------
class _Keys:
    def __init__(self, held: set[int]) -> None:
        self.held = held

    def __getitem__(self, key: int) -> bool:
        return key in self.held


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[pf.Game, RecordingSink, set[int]]]:
    for name, value in HEADLESS.items():
        monkeypatch.setenv(name, value)
    sink = install_sink(monkeypatch)
    held: set[int] = set()
    monkeypatch.setattr(probe, "_hooks", {})
    monkeypatch.setattr(pygame.key, "get_pressed", lambda: _Keys(held))
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: (600, 180))
    pygame.mixer.pre_init(22050, -16, 1, 512)
    pygame.init()
    pygame.mixer.init()
    screen = pygame.display.set_mode((pf.SCREEN_W, pf.SCREEN_H))
    random.seed(1)
    g = pf.Game(0)
    g.draw(screen)
    yield g, sink, held
    pygame.quit()


def _run(g: pf.Game, frames: int) -> None:
    for _ in range(frames):
        g.update()


def _key(kind: int, key: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0)


def test_hooks_and_observations(game: tuple[pf.Game, RecordingSink, set[int]]) -> None:
    g, sink, _ = game
    hooks = probe.hooks()
    assert set(hooks) >= {"teleport", "walkable"}
    grid = hooks["walkable"]()
    assert len(grid) == g.layout.rows and len(grid[0]) == g.layout.cols
    hooks["teleport"](1500, 100)
    assert g.player.rect.center == (1500, 100)
    _run(g, 3)
    assert set(sink.features) >= {"x", "y", "vx", "vy", "hp", "ammo", "score", "on_ground"}
    assert sink.features["on_ground"] == 0


def test_walking_right_sinks_into_the_bug_tile(game: tuple[pf.Game, RecordingSink, set[int]]) -> None:
    g, sink, held = game
    held.add(pygame.K_RIGHT)
    _run(g, 200)
    assert "player fell through the floor" in sink.check_messages
    assert g.player.rect.bottom == 11 * pf.TILE  # standing on the ground row under the hole
    assert 13 * pf.TILE <= g.player.rect.centerx < 14 * pf.TILE


def _empty_and_airborne(g: pf.Game) -> None:
    g.player.ammo = 0
    g.player.move_to(200, 150)  # mid-air over solid ground
    _run(g, 2)
    assert not g.player.on_ground()


@pytest.mark.parametrize("order", ["reload_first", "fire_first"])
def test_crash_needs_reload_and_fire_in_one_frame_while_airborne_and_empty(
    game: tuple[pf.Game, RecordingSink, set[int]], order: str
) -> None:
    g, _, _ = game
    _empty_and_airborne(g)
    events = [_key(pygame.KEYDOWN, pygame.K_r), _key(pygame.KEYUP, pygame.K_f)]
    if order == "fire_first":
        events.reverse()
    with pytest.raises(ZeroDivisionError):
        for event in events:
            g.handle_event(event)


def test_no_crash_for_the_parts_of_the_combination(game: tuple[pf.Game, RecordingSink, set[int]]) -> None:
    g, sink, _ = game
    _empty_and_airborne(g)
    g.handle_event(_key(pygame.KEYUP, pygame.K_f))  # F alone on an empty gun: nothing
    assert g.player.ammo == 0
    g.update()
    g.handle_event(_key(pygame.KEYDOWN, pygame.K_r))  # R alone
    g.update()
    g.handle_event(_key(pygame.KEYUP, pygame.K_f))  # F one frame later: a normal air shot
    assert g.player.ammo == pf.MAX_AMMO - 1
    # Not empty before the reload: no rack, no crash.
    g.handle_event(_key(pygame.KEYDOWN, pygame.K_r))
    g.handle_event(_key(pygame.KEYUP, pygame.K_f))
    assert g.player.ammo == pf.MAX_AMMO - 1
    # On the ground the combination is harmless too.
    _run(g, 120)
    assert g.player.on_ground()
    g.player.ammo = 0
    g.handle_event(_key(pygame.KEYDOWN, pygame.K_r))
    g.handle_event(_key(pygame.KEYUP, pygame.K_f))
    assert g.player.ammo == pf.MAX_AMMO - 1
    assert [name for name, _ in sink.events].count("shot") == 3


def test_double_kill_scores_twice(game: tuple[pf.Game, RecordingSink, set[int]]) -> None:
    g, sink, _ = game
    enemy = next(iter(g.enemies))
    enemy.hp = 1
    for _ in range(2):  # two bullets reach it in the same frame
        g.spawn_bullet(pygame.Vector2(enemy.rect.center), pygame.Vector2(0, 0))
    g.update()
    assert "enemy killed twice" in sink.check_messages
    assert g.score == 2 * pf.ENEMY_SCORE


# --- smoke run in a real subprocess -------------------------------------------------------------------
@pytest.mark.parametrize("level", [0, 1])
def test_headless_smoke_run(level: int) -> None:
    result = run_headless("playtester.games.platformer", "--frames", "300", "--fps", "0", "--level", str(level))
    assert result.returncode == 0, result.stderr
