"""Tests of the bundled Block Maze game (maze logic, rules, probe calls, headless runs)."""

from __future__ import annotations

import json
import os
import random
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
from gamekit import RecordingSink, install_sink, run_headless, run_python  # noqa: E402

from playtester.games import blockmaze as bm  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

KEY_FOR_STEP = {(1, 0): pygame.K_RIGHT, (-1, 0): pygame.K_LEFT, (0, 1): pygame.K_DOWN, (0, -1): pygame.K_UP}
KEY_STEP = {key: step for step, key in KEY_FOR_STEP.items()}


@pytest.fixture
def sink(monkeypatch: pytest.MonkeyPatch) -> RecordingSink:
    return install_sink(monkeypatch)


def no_keys() -> defaultdict[int, bool]:
    return defaultdict(bool)


def held(key: int) -> defaultdict[int, bool]:
    keys = defaultdict(bool)
    keys[key] = True
    return keys


def walk(game: bm.BlockMaze, path: list[tuple[int, int]]) -> None:
    """Walk ``path`` (which starts at the robot's cell) with one key press per step."""
    assert path[0] == game.robot.cell
    for (x0, y0), (x1, y1) in zip(path, path[1:], strict=False):
        game.handle_key_down(KEY_FOR_STEP[(x1 - x0, y1 - y0)])
        game.update(no_keys())
        assert game.robot.cell == (x1, y1)


# ---- maze generation -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 6, 7, 8, 11, 21, 31])
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 17])
def test_maze_connects_start_to_gold_inside_a_solid_border(size: int, seed: int) -> None:
    grid = bm.generate_maze(size, random.Random(seed))
    start, goal = bm.start_and_goal(size)

    assert len(grid) == size and all(len(row) == size for row in grid)
    assert grid[start[1]][start[0]] and grid[goal[1]][goal[0]]
    assert goal in bm.reachable(grid, start)
    assert not any(grid[0]) and not any(grid[-1])
    assert not any(row[0] or row[-1] for row in grid)
    # Every free cell belongs to the maze: nothing is carved off on its own.
    free = {(x, y) for y, row in enumerate(grid) for x, cell in enumerate(row) if cell}
    assert bm.reachable(grid, start) == free
    path = bm.shortest_path(grid, start, goal)
    assert path is not None and path[0] == start and path[-1] == goal


@pytest.mark.parametrize("size", [7, 11, 31])
def test_maze_has_loops(size: int) -> None:
    grid = bm.generate_maze(size, random.Random(5))
    free = [(x, y) for y, row in enumerate(grid) for x, cell in enumerate(row) if cell]
    edges = sum(1 for x, y in free for nx, ny in ((x + 1, y), (x, y + 1)) if grid[ny][nx])
    assert edges > len(free) - 1  # a tree (perfect maze) would have exactly len(free) - 1


def test_layout_is_fixed_by_the_layout_seed() -> None:
    assert bm.generate_maze(15, random.Random(4)) == bm.generate_maze(15, random.Random(4))
    assert bm.generate_maze(15, random.Random(4)) != bm.generate_maze(15, random.Random(5))
    random.seed(1)
    first = bm.BlockMaze(size=15, layout_seed=4).grid
    random.seed(2)
    assert bm.BlockMaze(size=15, layout_seed=4).grid == first


def test_layout_does_not_consume_the_module_random() -> None:
    random.seed(9)
    bm.generate_maze(21, random.Random(0))
    after = random.random()
    random.seed(9)
    assert random.random() == after


@pytest.mark.parametrize("size", [3, 4, 152, 11.0, True])
def test_generate_maze_rejects_bad_sizes(size: Any) -> None:
    with pytest.raises(ValueError, match="size"):
        bm.generate_maze(size, random.Random(0))


# ---- reachability and bug placement --------------------------------------------------------------


def test_reachable_stops_at_walls() -> None:
    rows = ["#######", "#..#..#", "#..#..#", "#######"]
    grid = [[c == "." for c in row] for row in rows]
    assert bm.reachable(grid, (1, 1)) == {(1, 1), (2, 1), (1, 2), (2, 2)}
    assert bm.reachable(grid, (0, 0)) == set()
    assert bm.shortest_path(grid, (1, 1), (4, 1)) is None


def test_bug_cells_are_reachable_distinct_and_avoid_start_and_gold() -> None:
    # A pocket on the right cannot be reached from the start; bugs must never go there.
    rows = ["########", "#....#.#", "#.##.#.#", "#....#.#", "########"]
    grid = [[c == "." for c in row] for row in rows]
    start, goal = (1, 1), (4, 3)
    candidates = bm.reachable(grid, start) - {start, goal}
    for seed in range(30):
        bugs = bm.place_bugs(grid, start, goal, len(candidates), random.Random(seed))
        assert len(bugs) == len(set(bugs)) == len(candidates)
        assert set(bugs) == candidates
    with pytest.raises(ValueError, match="bug cells"):
        bm.place_bugs(grid, start, goal, len(candidates) + 1, random.Random(0))
    with pytest.raises(ValueError):
        bm.place_bugs(grid, start, goal, -1, random.Random(0))


@pytest.mark.parametrize("size", [5, 11, 31])
def test_game_bug_cells_follow_the_module_random(size: int) -> None:
    random.seed(123)
    game = bm.BlockMaze(size=size, n_bugs=5, layout_seed=2)
    start, goal = bm.start_and_goal(size)
    bugs = game.bug_positions
    assert len(bugs) == len(set(bugs)) == 5
    assert start not in bugs and goal not in bugs
    assert set(bugs) <= bm.reachable(game.grid, start)

    random.seed(123)
    assert bm.BlockMaze(size=size, n_bugs=5, layout_seed=2).bug_positions == bugs
    others = set()
    for seed in range(5):
        random.seed(seed)
        others.add(tuple(bm.BlockMaze(size=size, n_bugs=5, layout_seed=2).bug_positions))
    assert len(others) > 1


def test_a_bug_seed_fixes_the_bug_cells_whatever_the_module_random() -> None:
    placed = set()
    for seed in range(5):
        random.seed(seed)
        placed.add(tuple(bm.BlockMaze(size=21, n_bugs=5, bug_seed=7).bug_positions))
    assert len(placed) == 1
    assert placed != {tuple(bm.BlockMaze(size=21, n_bugs=5, bug_seed=8).bug_positions)}
    with pytest.raises(ValueError, match="bug_seed"):
        bm.BlockMaze(size=21, bug_seed="7")


def test_injected_bugs_describe_one_assertion_per_bug_cell() -> None:
    bugs = bm.injected_bugs(7)
    assert [b["id"] for b in bugs] == [f"bug-cell-{k}" for k in range(7)]
    assert [b["message"] for b in bugs] == [f"bug cell {k} entered" for k in range(7)]
    assert all(b["kind"] == "assertion" and b["description"] for b in bugs)
    assert all(set(b) == {"id", "kind", "message", "description"} for b in bugs)
    assert bm.INJECTED_BUGS == bm.injected_bugs() == bm.injected_bugs(5)
    assert bm.injected_bugs(0) == []
    with pytest.raises(ValueError):
        bm.injected_bugs(-1)


# ---- game rules and probe calls ------------------------------------------------------------------


def test_key_press_moves_one_cell_and_walls_block(sink: RecordingSink) -> None:
    game = bm.BlockMaze(size=11, n_bugs=0, layout_seed=0)
    x, y = game.start
    # The border is solid: north and west of the start cell are walls.
    game.handle_key_down(pygame.K_UP)
    game.handle_key_down(pygame.K_a)
    assert game.robot.cell == (x, y) and game.steps == 0 and sink.events == []

    step = (1, 0) if game.grid[y][x + 1] else (0, 1)
    game.handle_key_down(KEY_FOR_STEP[step])
    assert game.robot.cell == (x + step[0], y + step[1])
    assert game.steps == 1
    assert sink.events == [("moved", {"x": x + step[0], "y": y + step[1]})]


def test_held_key_repeats_every_six_frames(sink: RecordingSink) -> None:
    game = bm.BlockMaze(size=11, n_bugs=0, layout_seed=0)
    x, y = game.start
    step = (1, 0) if game.grid[y][x + 1] else (0, 1)
    key = KEY_FOR_STEP[step]
    # From the start the first corridor is at least two cells long (room, opening, room).
    game.handle_key_down(key)  # frame 0: moves at once
    cells = [game.robot.cell]
    for _ in range(2 * bm.REPEAT_FRAMES + 1):  # frames 0 .. 12 with the key held
        game.update(held(key))
        cells.append(game.robot.cell)
    first = (x + step[0], y + step[1])
    second = (x + 2 * step[0], y + 2 * step[1])
    assert cells[: bm.REPEAT_FRAMES + 1] == [first] * (bm.REPEAT_FRAMES + 1)
    assert cells[bm.REPEAT_FRAMES + 1] == second

    # Releasing the key stops the repeat.
    game.update(no_keys())
    before = game.robot.cell
    for _ in range(3 * bm.REPEAT_FRAMES):
        game.update(no_keys())
    assert game.robot.cell == before


def test_entering_a_bug_cell_fails_its_check_once_per_entry(sink: RecordingSink) -> None:
    random.seed(7)
    game = bm.BlockMaze(size=11, n_bugs=5, layout_seed=0)
    target = game.bug_positions[3]
    path = bm.shortest_path(game.grid, game.start, target)
    assert path is not None
    walk(game, path)
    entered = [(m, d) for m, d in sink.checks if m == "bug cell 3 entered"]
    assert entered == [("bug cell 3 entered", {"cell": target})]
    # Every failed check on the way is a bug cell the robot really stood on.
    for message, data in sink.checks:
        k = int(message.split()[2])
        assert data["cell"] == game.bug_positions[k] and data["cell"] in path

    # Staying put (frames pass, bumping into walls) does not fire it again.
    for key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT):
        if not game.robot.can_enter((target[0] + KEY_STEP[key][0], target[1] + KEY_STEP[key][1])):
            game.handle_key_down(key)
    for _ in range(20):
        game.update(no_keys())
    assert sum(m == "bug cell 3 entered" for m, _ in sink.checks) == 1

    # Leaving and coming back is a new entry.
    back = path[-2]
    walk(game, [target, back, target])
    assert sum(m == "bug cell 3 entered" for m, _ in sink.checks) == 2


def test_reaching_the_gold_wins_and_the_game_then_finishes(sink: RecordingSink) -> None:
    random.seed(0)
    game = bm.BlockMaze(size=7, n_bugs=2, layout_seed=3)
    path = bm.shortest_path(game.grid, game.start, game.goal)
    assert path is not None
    walk(game, path)
    assert game.won and game.score == 1 and game.steps == len(path) - 1
    assert [name for name, _ in sink.events].count("win") == 1
    assert sink.events[-1] == ("win", {})

    game.handle_key_down(KEY_FOR_STEP[(path[-2][0] - path[-1][0], path[-2][1] - path[-1][1])])
    assert game.robot.cell == game.goal  # input is ignored after the win
    frames = 1
    while not game.finished:
        game.update(no_keys())
        frames += 1
        assert frames < 1000
    assert frames >= bm.WIN_LINGER_FRAMES


def test_report_sends_features_and_entities(sink: RecordingSink) -> None:
    game = bm.BlockMaze(size=9, n_bugs=1, layout_seed=1)
    game.report()
    x, y = game.start
    assert sink.observations == [{"x": x, "y": y, "steps": 0, "score": 0}]
    assert sink.entities == {"robot": ("robot", (x, y), {}), "gold": ("gold", game.goal, {})}


def test_teleport_and_walkable_hooks(sink: RecordingSink) -> None:
    random.seed(4)
    game = bm.BlockMaze(size=11, n_bugs=5, layout_seed=0)
    walkable = game.walkable()
    assert walkable == game.grid and walkable is not game.grid
    walkable[1][1] = False
    assert game.grid[1][1]  # a copy

    assert game.teleport(0, 0) is False
    assert game.teleport(99, 99) is False
    assert game.robot.cell == game.start

    bug = game.bug_positions[1]
    assert game.teleport(*bug) is True
    assert game.robot.cell == bug and game.steps == 0
    assert sink.checks == [("bug cell 1 entered", {"cell": bug})]
    assert game.teleport(*bug) is True  # already there: no new entry
    assert len(sink.checks) == 1


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"size": 3}, "size"),
        ({"size": 11.5}, "size"),
        ({"n_bugs": -1}, "bug"),
        ({"size": 5, "n_bugs": 7}, "bug cells"),
        ({"fps": -1}, "fps"),
        ({"max_frames": -5}, "max_frames"),
        ({"layout_seed": "x"}, "layout_seed"),
    ],
)
def test_main_rejects_bad_arguments(kwargs: dict[str, Any], match: str) -> None:
    # fps=0 and max_frames=1 unless under test, so that a missed validation fails fast instead of hanging.
    with pytest.raises(ValueError, match=match):
        bm.main(**{"fps": 0, "max_frames": 1, **kwargs})


# ---- headless runs in a real subprocess ----------------------------------------------------------


def test_headless_smoke_run_exits_cleanly() -> None:
    result = run_headless("playtester.games.blockmaze", "--frames", "200", "--fps", "0")
    assert result.returncode == 0, result.stderr


def test_headless_run_with_key_events_reaches_the_gold() -> None:
    # Feed real KEYDOWN events through pygame's queue along a shortest path and record probe calls.
    script = textwrap.dedent(
        """
        import json, random
        import pygame
        from playtester import probe
        from playtester.games import blockmaze as bm

        class Sink:
            def __init__(self):
                self.events, self.frames = [], 0
            def on_event(self, name, data):
                self.events.append(name)
            def on_check(self, message, data, where):
                self.events.append("check:" + message)
            def on_observe(self, features):
                self.frames += 1
                self.last = features
            def on_entity(self, *args):
                pass

        sink = probe._sink = Sink()
        random.seed(11)
        grid = bm.generate_maze(9, random.Random(6))
        start, goal = bm.start_and_goal(9)
        path = bm.shortest_path(grid, start, goal)
        keys = {(1, 0): pygame.K_d, (-1, 0): pygame.K_a, (0, 1): pygame.K_s, (0, -1): pygame.K_w}
        presses = [keys[(b[0] - a[0], b[1] - a[1])] for a, b in zip(path, path[1:])]
        real_get = pygame.event.get
        def get(*args, **kwargs):
            if presses and sink.frames % 2 == 0:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=presses.pop(0), mod=0))
            return real_get(*args, **kwargs)
        pygame.event.get = get
        bm.main(size=9, n_bugs=5, layout_seed=6, fps=0, max_frames=5000)
        print(json.dumps({"frames": sink.frames, "last": sink.last, "events": sink.events,
                          "steps": len(path) - 1, "hooks": sorted(probe.hooks())}))
        """
    )
    result = run_python("-c", script)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["last"]["score"] == 1 and out["last"]["steps"] == out["steps"]
    assert out["events"].count("moved") == out["steps"] and out["events"].count("win") == 1
    assert out["frames"] < 5000  # main returned on its own after the win screen
    assert out["frames"] >= 2 * out["steps"] + bm.WIN_LINGER_FRAMES - 2
    assert out["hooks"] == ["teleport", "walkable"]
