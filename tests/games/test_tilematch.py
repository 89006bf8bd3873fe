"""Tests for the bundled ``tilematch`` benchmark game: board logic, injected bugs, smoke run, the driver."""

from __future__ import annotations

import builtins
import inspect
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from gamekit import HEADLESS, run_headless  # noqa: E402

from playtester.drive import InputFrame, Observation, Worker, resolve
from playtester.games import tilematch as tm

S = tm.STAR


def _grid(rows: list[str]) -> tm.Grid:
    """A grid from strings: digits are colours, letters a-f are star tiles of colours 0-5, '.' empty."""
    out: tm.Grid = []
    for row in rows:
        line: list[int | None] = []
        for ch in row:
            if ch == ".":
                line.append(None)
            elif ch.isdigit():
                line.append(int(ch))
            else:
                line.append(ord(ch) - ord("a") + S)
        out.append(line)
    return out


class _Script:
    """A stand-in random generator that hands out fixed values."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)

    def randrange(self, stop: int) -> int:
        value = self.values.pop(0)
        assert 0 <= value < stop
        return value

    def choice(self, seq: Any) -> Any:
        return seq[0]


# --- pure board logic -----------------------------------------------------------------------------------
def test_find_runs_rows_columns_and_lengths() -> None:
    grid = _grid(["1112", "3402", "3452", "3410"])
    runs = tm.find_runs(grid)
    assert [(0, 0), (0, 1), (0, 2)] in runs
    assert [(1, 0), (2, 0), (3, 0)] in runs
    assert [(0, 3), (1, 3), (2, 3)] in runs
    assert [(1, 1), (2, 1), (3, 1)] in runs
    assert len(runs) == 4
    assert tm.find_runs(_grid(["1212", "2121"])) == []
    assert tm.find_runs(_grid(["22222"])) == [[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]]
    assert tm.find_runs(_grid(["..1", "..1"])) == []  # empty cells never match


def test_star_tiles_match_only_by_colour_when_asked() -> None:
    grid = _grid(["1b1", "023", "302"])  # b = star of colour 1 between two plain 1s
    assert tm.color_of(grid[0][1]) == 1
    assert tm.find_runs(grid) == []  # raw codes: the game's scan (bug 2)
    assert tm.find_runs(grid, key=tm.color_of) == [[(0, 0), (0, 1), (0, 2)]]


def test_plan_clear_l_and_t_shapes_leave_a_star_at_the_corner() -> None:
    grid = _grid(["1000", "1023", "1112", "2345"])  # L: column 0 rows 0-2 and row 2 cols 0-2
    cleared, stars = tm.plan_clear(grid, tm.find_runs(grid))
    assert stars == {(2, 0): 1 + S}
    assert cleared == {(0, 0), (1, 0), (2, 1), (2, 2), (0, 1), (0, 2), (0, 3)}
    grid = _grid(["2343", "5444", "3242"])  # T: row 1 cols 1-3 and column 2 rows 0-2
    cleared, stars = tm.plan_clear(grid, tm.find_runs(grid))
    assert stars == {(1, 2): 4 + S}
    assert cleared == {(1, 1), (1, 3), (0, 2), (2, 2)}
    straight = _grid(["33333"])  # a straight five makes no star
    assert tm.plan_clear(straight, tm.find_runs(straight)) == ({(0, c) for c in range(5)}, {})


def test_collapse_drops_tiles_and_refills_from_the_top() -> None:
    grid = _grid(["12", "3.", "..", "45"])
    drops = tm.collapse(grid, 6, _Script([0, 2, 5]))
    # column 0: 1 and 3 fall one cell onto the 4, one new tile; column 1: 2 falls two, two new tiles
    # (the lowest new tile of a column is drawn first)
    assert grid == [[0, 5], [1, 2], [3, 2], [4, 5]]
    assert drops == [[1, 2], [1, 2], [1, 2], [0, 0]]


def test_swap_back_when_no_line() -> None:
    grid = _grid(["120", "213", "345"])
    before = [row[:] for row in grid]
    assert tm.try_swap(grid, (0, 0), (0, 1)) is False
    assert grid == before  # swapped back
    assert tm.try_swap(grid, (0, 0), (2, 2)) is False  # not neighbours
    grid = _grid(["1201", "3412", "5353"])
    assert tm.try_swap(grid, (0, 2), (0, 3)) is False
    grid = _grid(["1121", "3402", "5353"])
    assert tm.try_swap(grid, (0, 2), (0, 3)) is True
    assert grid[0] == [1, 1, 1, 2]


def test_generate_board_is_full_still_playable_and_seeded() -> None:
    for seed in range(20):
        grid = tm.generate_board(6, random.Random(seed))
        assert len(grid) == tm.ROWS and all(len(row) == tm.COLS for row in grid)
        assert all(v is not None and 0 <= v < 6 for row in grid for v in row)
        assert tm.find_runs(grid, key=tm.color_of) == []
        assert tm.has_move(grid)
    assert tm.generate_board(6, random.Random(3)) == tm.generate_board(6, random.Random(3))
    assert tm.generate_board(6, random.Random(3)) != tm.generate_board(6, random.Random(4))
    with pytest.raises(ValueError):
        tm.generate_board(2, random.Random(0))


def test_resolve_board_clears_until_still() -> None:
    grid = _grid(["0123", "1230", "0012", "2301"])
    grid[2][2] = 0  # row 2: 0 0 0 2
    waves = tm.resolve_board(grid, 6, random.Random(0))
    assert waves and (2, 0) in waves[0][0]
    assert all(v is not None for row in grid for v in row)
    assert tm.find_runs(grid) == []


def test_geometry_and_drag_target() -> None:
    assert tm.cell_at(tm.cell_center((3, 5))) == (3, 5)
    assert tm.cell_at((tm.BOARD_X - 1, tm.BOARD_Y)) is None
    assert tm.cell_at((tm.BOARD_X + tm.BOARD_W, tm.BOARD_Y)) is None
    x, y = tm.cell_center((2, 2))
    assert tm.drag_target((2, 2), (x, y), (x + 5, y + 3)) is None
    assert tm.drag_target((2, 2), (x, y), (x + tm.DRAG_THRESHOLD, y + 3)) == (2, 3)
    assert tm.drag_target((2, 2), (x, y), (x - 30, y + 40)) == (3, 2)
    assert tm.drag_target((2, 2), (x, y), (x, y - 30)) == (1, 2)
    assert tm.drag_target((0, 7), (x, y), (x + 40, y)) == (0, 8)  # off the board: callers must check


# --- injected bugs metadata ---------------------------------------------------------------------------
def test_injected_bugs_shape() -> None:
    source = inspect.getsource(tm)
    assert len({bug["id"] for bug in tm.INJECTED_BUGS}) == len(tm.INJECTED_BUGS) >= 2
    for bug in tm.INJECTED_BUGS:
        assert set(bug) == {"id", "kind", "message", "description", "how"}
        assert all(isinstance(value, str) and value for value in bug.values())
        assert bug["id"] in tm.__doc__
        if bug["kind"] == "crash":
            assert issubclass(getattr(builtins, bug["message"]), BaseException)
        else:
            assert bug["kind"] == "assertion"
            assert f'"{bug["message"]}"' in source
    assert {bug["kind"] for bug in tm.INJECTED_BUGS} == {"crash", "assertion"}


# --- smoke run in a real subprocess -------------------------------------------------------------------
def test_headless_smoke_run() -> None:
    result = run_headless("playtester.games.tilematch", "--frames", "200", "--fps", "0")
    assert result.returncode == 0, result.stderr


# --- through playtester's driver ----------------------------------------------------------------------
def _swaps(grid: tm.Grid) -> Iterator[tuple[tm.Cell, tm.Cell]]:
    """Every neighbouring pair whose swap makes a line, in board order."""
    for r in range(tm.ROWS):
        for c in range(tm.COLS):
            for b in ((r, c + 1), (r + 1, c)):
                if tm.in_bounds(b) and tm.try_swap([row[:] for row in grid], (r, c), b):
                    yield (r, c), b


def _find_episode(want: Any, seeds: range = range(400)) -> tuple[int, tm.Cell, tm.Cell]:
    """A seed and a first swap whose resolution (with the game's own random draws) satisfies ``want``.

    The game draws its board first from the episode-seeded ``random`` and then its refills, so
    ``random.Random(seed)`` reproduces both.
    """
    for seed in seeds:
        rng = random.Random(seed)
        board = tm.generate_board(6, rng)
        state = rng.getstate()
        for a, b in _swaps(board):
            grid = [row[:] for row in board]
            tm.swap(grid, a, b)
            rng.setstate(state)
            if want(tm.resolve_board(grid, 6, rng), grid):
                return seed, a, b
    raise AssertionError("no episode found")


class _Player:
    """Drives a Worker and keeps every event and failed check seen."""

    def __init__(self, worker: Worker, seed: int) -> None:
        self.w = worker
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.checks: list[str] = []
        self.obs = worker.reset(seed=seed)

    def step(self, frames: int = 1, mouse: tuple[int, int] | None = None, held: bool = False) -> Observation:
        self.obs = self.w.step(InputFrame.make(mouse=mouse, buttons=["left"] if held else []), frames=frames)
        self.events += [(e.name, e.data) for e in self.obs.events]
        self.checks += [c.message for c in self.obs.checks]
        return self.obs

    def click(self, cell: tm.Cell) -> None:
        pos = tm.cell_center(cell)
        self.step(1, pos, held=True)
        self.step(1, pos)

    def names(self) -> list[str]:
        return [name for name, _ in self.events]


@pytest.fixture(scope="module")
def worker() -> Iterator[Worker]:
    for name, value in HEADLESS.items():
        os.environ.setdefault(name, value)
    w = Worker(resolve("tilematch"), capture=None)
    yield w
    w.close()


def test_click_click_swap_matches_and_scores(worker: Worker) -> None:
    board = tm.generate_board(6, random.Random(0))
    a, b = next(_swaps(board))
    p = _Player(worker, seed=0)
    assert p.obs.features["score"] == 0 and p.obs.features["moves_left"] == 30
    p.click(a)
    assert p.obs.features["selected"] == 1
    assert p.obs.entities["selected"].pos == (a[1], a[0])
    p.click(b)
    p.step(40)
    assert "swap" in p.names() and "match" in p.names()
    match = next(data for name, data in p.events if name == "match")
    assert match["count"] >= 3 and match["combo"] == 1
    assert p.obs.features["score"] >= 30
    assert p.obs.features["moves_left"] == 29
    assert p.obs.features["combo"] == 0 and p.obs.features["selected"] == 0
    assert p.obs.entities["cursor"].pos == tm.cell_center(b)
    assert not p.checks and not p.obs.done


def test_non_matching_swap_is_swapped_back(worker: Worker) -> None:
    board = tm.generate_board(6, random.Random(0))
    matching = set(_swaps(board))
    a, b = next(
        ((r, c), (r, c + 1))
        for r in range(tm.ROWS)
        for c in range(tm.COLS - 1)
        if ((r, c), (r, c + 1)) not in matching
    )
    p = _Player(worker, seed=0)
    p.click(a)
    p.click(b)
    p.step(20)
    assert p.names() == ["swap", "no_match"]
    assert p.obs.features["moves_left"] == 30 and p.obs.features["score"] == 0


def test_drag_swaps_too(worker: Worker) -> None:
    board = tm.generate_board(6, random.Random(1))
    a, b = next(_swaps(board))
    p = _Player(worker, seed=1)
    x, y = tm.cell_center(a)
    bx, by = tm.cell_center(b)
    p.step(1, (x, y), held=True)  # press
    p.step(1, ((x + bx) // 2 + (bx - x) // 4, (y + by) // 2 + (by - y) // 4), held=True)  # drag 3/4 of a tile
    p.step(1, (bx, by))  # release
    p.step(40)
    swap = next(data for name, data in p.events if name == "swap")
    assert swap["how"] == "drag" and {tuple(swap["a"]), tuple(swap["b"])} == {a, b}
    assert "match" in p.names() and p.obs.features["score"] >= 30


def _resolving_player(worker: Worker, seed: int = 0) -> _Player:
    """A player who has just made a match: its tiles are being cleared."""
    board = tm.generate_board(6, random.Random(seed))
    a, b = next(_swaps(board))
    p = _Player(worker, seed=seed)
    p.click(a)
    p.step(1, tm.cell_center(b), held=True)
    p.step(tm.SWAP_FRAMES, tm.cell_center(b))
    assert p.obs.features["combo"] >= 1  # clearing / falling
    return p


def test_crash_drag_off_the_right_edge_while_resolving(worker: Worker) -> None:
    p = _resolving_player(worker)
    x, y = tm.cell_center((0, tm.COLS - 1))
    p.step(1, (x, y), held=True)  # press on the last column
    obs = p.step(1, (x + tm.DRAG_THRESHOLD + 6, y), held=True)  # drag right, off the board
    assert obs.done
    assert obs.info["exit"].kind == "exception"
    assert obs.info["exit"].exc_type == "IndexError"


def test_no_crash_for_other_edges_or_when_idle(worker: Worker) -> None:
    p = _resolving_player(worker)
    x, y = tm.cell_center((0, 0))
    p.step(1, (x, y), held=True)
    p.step(1, (x - tm.DRAG_THRESHOLD - 6, y), held=True)  # off the left edge while resolving
    p.step(1, (x, y))
    x, y = tm.cell_center((tm.ROWS - 1, 3))
    p.step(1, (x, y), held=True)
    p.step(1, (x, y + tm.DRAG_THRESHOLD + 6), held=True)  # off the bottom edge
    p.step(1)
    p.step(40)
    assert p.obs.features["combo"] == 0 and not p.obs.done
    x, y = tm.cell_center((2, tm.COLS - 1))
    p.step(1, (x, y), held=True)  # the crashing drag, but with the board idle
    obs = p.step(2, (x + 60, y), held=True)
    assert not obs.done and obs.info.get("exit") is None


def test_l_or_t_match_can_leave_a_line_standing(worker: Worker) -> None:
    def want(waves: list[Any], grid: tm.Grid) -> bool:
        return any(stars for _, stars in waves) and bool(tm.find_runs(grid, key=tm.color_of))

    seed, a, b = _find_episode(want)
    p = _Player(worker, seed=seed)
    p.click(a)
    p.click(b)
    p.step(120)
    assert any(data.get("stars") for name, data in p.events if name == "match")
    assert "3-in-a-row left standing" in p.checks


def test_star_in_a_cascade_makes_the_score_drop(worker: Worker) -> None:
    def want(waves: list[Any], grid: tm.Grid) -> bool:
        return any(stars for _, stars in waves[1:])

    seed, a, b = _find_episode(want)
    p = _Player(worker, seed=seed)
    p.click(a)
    p.click(b)
    p.step(120)
    assert "cascade" in p.names()
    assert "score decreased" in p.checks


def test_game_over_after_the_last_move_then_main_returns() -> None:
    board = tm.generate_board(6, random.Random(0))
    a, b = next(_swaps(board))
    spec = resolve("tilematch", game_args={"moves": 1, "colors": 6}, done_events=[])
    with Worker(spec, capture=None) as w:
        p = _Player(w, seed=0)
        p.click(a)
        p.click(b)
        p.step(40)
        assert "game_over" in p.names() and not p.obs.done
        assert p.obs.features["moves_left"] == 0
        p.click(b)  # input on the game-over screen does nothing
        obs = p.step(tm.GAME_OVER_FRAMES)
        assert obs.done and obs.info["exit"].kind == "finished"
        assert p.names().count("swap") == 1
