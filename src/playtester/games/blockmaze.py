"""Block Maze: steer a robot through a walled grid to a gold coin.

This is the small benchmark game of the Wuji paper (Zheng et al., ASE 2019): a robot on a grid of
cells, some of them solid blocks, moves north, south, east or west towards a gold coin. Moving into a
block does nothing. A handful of *bug cells*, placed at random reachable positions, stand for injected
bugs: entering one fails an invariant check, which is how a tester finds it.

The layout is a maze generated from ``layout_seed`` (a perfect maze with a few extra walls knocked out
so that there are loops), so the level is the same for a given seed. The bug cells are drawn with the
module-level :mod:`random`, which playtester seeds per episode, so they move between episodes; with a
``bug_seed`` they are drawn once from that seed and stay put, as the Wuji paper's injected bugs do. The
robot starts in the top-left cell, the gold lies in the bottom-right one.

Controls:
    Arrow keys or WASD   move one cell; hold the key to keep moving (one cell every 6 frames)
    Escape               quit

Injected bugs (``INJECTED_BUGS``; one per bug cell, ``k = 0 .. n_bugs - 1``):
    bug-cell-k   assertion   ``probe.check`` fails with "bug cell k entered" when the robot steps onto
                             bug cell ``k``.

Run it with ``python -m playtester.games.blockmaze --size 15 --bugs 5``.
"""

from __future__ import annotations

import argparse
import random
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import pygame

from playtester import probe

__all__ = [
    "INJECTED_BUGS",
    "BlockMaze",
    "BugCell",
    "Gold",
    "Robot",
    "Wall",
    "cell_size_for",
    "generate_maze",
    "injected_bugs",
    "main",
    "place_bugs",
    "reachable",
    "shortest_path",
    "start_and_goal",
]

Cell = tuple[int, int]
Grid = list[list[bool]]

MIN_SIZE = 5
MAX_SIZE = 151
MAX_WINDOW = 640
HUD_HEIGHT = 28
REPEAT_FRAMES = 6
WIN_LINGER_FRAMES = 30

FLOOR_COLOR = (222, 214, 180)
WALL_COLOR = (34, 85, 51)
WALL_EDGE_COLOR = (24, 62, 37)
BUG_DOT_COLOR = (208, 199, 163)
ROBOT_COLOR = (70, 110, 170)
ROBOT_EDGE_COLOR = (40, 60, 100)
EYE_COLOR = (250, 250, 250)
GOLD_COLOR = (240, 196, 40)
GOLD_EDGE_COLOR = (170, 120, 20)
HUD_COLOR = (30, 30, 30)
HUD_TEXT_COLOR = (235, 235, 235)
WIN_TEXT_COLOR = (255, 220, 60)

NORTH = (0, -1)
SOUTH = (0, 1)
WEST = (-1, 0)
EAST = (1, 0)

# Key -> (dx, dy). Arrows and WASD.
DIRECTION_KEYS: dict[int, Cell] = {
    pygame.K_UP: NORTH,
    pygame.K_w: NORTH,
    pygame.K_DOWN: SOUTH,
    pygame.K_s: SOUTH,
    pygame.K_LEFT: WEST,
    pygame.K_a: WEST,
    pygame.K_RIGHT: EAST,
    pygame.K_d: EAST,
}


def injected_bugs(n_bugs: int = 5) -> list[dict[str, Any]]:
    """Describe the bugs injected into a game with ``n_bugs`` bug cells.

    Args:
        n_bugs: Number of bug cells in the game.

    Returns:
        One dict per bug cell with the keys ``id``, ``kind``, ``message`` (the exact ``probe.check``
        message) and ``description``.

    Raises:
        ValueError: If ``n_bugs`` is negative.
    """
    if n_bugs < 0:
        raise ValueError(f"n_bugs must be >= 0, got {n_bugs}")
    return [
        {
            "id": f"bug-cell-{k}",
            "kind": "assertion",
            "message": f"bug cell {k} entered",
            "description": (
                f"Bug cell {k} sits at a random cell reachable from the start (re-drawn each episode); "
                "a probe.check fails when the robot steps onto it."
            ),
        }
        for k in range(n_bugs)
    ]


INJECTED_BUGS: list[dict[str, Any]] = injected_bugs(5)


# --------------------------------------------------------------------------------------------------
# Pure logic: maze generation, reachability, bug placement.
# --------------------------------------------------------------------------------------------------


def _check_size(size: int) -> None:
    if isinstance(size, bool) or not isinstance(size, int):
        raise ValueError(f"size must be an int, got {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"size must be between {MIN_SIZE} and {MAX_SIZE}, got {size}")


def start_and_goal(size: int) -> tuple[Cell, Cell]:
    """Return the robot's start cell and the gold's cell for a maze of ``size`` cells per side.

    The start is the top-left room ``(1, 1)``; the gold is in the bottom-right room, the last odd
    coordinate inside the border (for an even ``size`` the row and column just inside the border
    stay solid).

    Args:
        size: Cells per side.

    Returns:
        ``(start, goal)`` as ``(x, y)`` grid coordinates.
    """
    _check_size(size)
    last = size - 2 if size % 2 == 1 else size - 3
    return (1, 1), (last, last)


def generate_maze(size: int, rng: random.Random, extra_openings: float = 0.1) -> Grid:
    """Generate a maze with loops.

    Rooms are the cells with two odd coordinates; a recursive backtracker (iterative, so large mazes do
    not hit the recursion limit) carves a perfect maze between them, then about ``extra_openings`` of
    the remaining inner walls between two rooms are knocked out so that the maze has loops.

    Args:
        size: Cells per side, at least ``MIN_SIZE``.
        rng: Random generator used for every choice; the same seed gives the same maze.
        extra_openings: Fraction of the remaining room-separating walls to remove (at least one wall
            is removed when any candidate exists and the fraction is positive).

    Returns:
        ``grid[y][x]`` is True for a free cell and False for a block.

    Raises:
        ValueError: If ``size`` is out of range or ``extra_openings`` is not in [0, 1].
    """
    _check_size(size)
    if not 0.0 <= extra_openings <= 1.0:
        raise ValueError(f"extra_openings must be in [0, 1], got {extra_openings}")
    _, (last, _) = start_and_goal(size)
    grid: Grid = [[False] * size for _ in range(size)]

    start = (1, 1)
    grid[1][1] = True
    stack: list[Cell] = [start]
    while stack:
        x, y = stack[-1]
        neighbours: list[Cell] = []
        for dx, dy in (NORTH, SOUTH, WEST, EAST):
            nx, ny = x + 2 * dx, y + 2 * dy
            if 1 <= nx <= last and 1 <= ny <= last and not grid[ny][nx]:
                neighbours.append((nx, ny))
        if not neighbours:
            stack.pop()
            continue
        nx, ny = rng.choice(neighbours)
        grid[(y + ny) // 2][(x + nx) // 2] = True
        grid[ny][nx] = True
        stack.append((nx, ny))

    # Inner walls that separate two rooms: exactly one coordinate even.
    candidates: list[Cell] = [
        (x, y)
        for y in range(1, last + 1)
        for x in range(1, last + 1)
        if (x % 2) != (y % 2) and not grid[y][x]
    ]
    if candidates and extra_openings > 0:
        count = max(1, int(len(candidates) * extra_openings))
        for x, y in rng.sample(candidates, count):
            grid[y][x] = True
    return grid


def _is_free(grid: Sequence[Sequence[bool]], cell: Cell) -> bool:
    x, y = cell
    return 0 <= y < len(grid) and 0 <= x < len(grid[y]) and bool(grid[y][x])


def reachable(grid: Sequence[Sequence[bool]], start: Cell) -> set[Cell]:
    """Return every free cell reachable from ``start`` with north/south/east/west steps.

    Args:
        grid: ``grid[y][x]`` True for a free cell.
        start: ``(x, y)`` cell to search from.

    Returns:
        The reachable cells, ``start`` included; empty if ``start`` is not a free cell.
    """
    if not _is_free(grid, start):
        return set()
    seen: set[Cell] = {start}
    queue: deque[Cell] = deque([start])
    while queue:
        x, y = queue.popleft()
        for dx, dy in (NORTH, SOUTH, WEST, EAST):
            nxt = (x + dx, y + dy)
            if nxt not in seen and _is_free(grid, nxt):
                seen.add(nxt)
                queue.append(nxt)
    return seen


def shortest_path(grid: Sequence[Sequence[bool]], start: Cell, goal: Cell) -> list[Cell] | None:
    """Return a shortest path of free cells from ``start`` to ``goal`` (both included).

    Args:
        grid: ``grid[y][x]`` True for a free cell.
        start: ``(x, y)`` cell to start from.
        goal: ``(x, y)`` cell to reach.

    Returns:
        The cells of the path in order, or None when ``goal`` cannot be reached.
    """
    if not _is_free(grid, start) or not _is_free(grid, goal):
        return None
    came_from: dict[Cell, Cell | None] = {start: None}
    queue: deque[Cell] = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            path: list[Cell] = []
            step: Cell | None = cell
            while step is not None:
                path.append(step)
                step = came_from[step]
            return path[::-1]
        x, y = cell
        for dx, dy in (NORTH, SOUTH, WEST, EAST):
            nxt = (x + dx, y + dy)
            if nxt not in came_from and _is_free(grid, nxt):
                came_from[nxt] = cell
                queue.append(nxt)
    return None


def place_bugs(
    grid: Sequence[Sequence[bool]],
    start: Cell,
    goal: Cell,
    n: int,
    rng: random.Random | None = None,
) -> list[Cell]:
    """Choose ``n`` distinct bug cells reachable from ``start``, avoiding ``start`` and ``goal``.

    Args:
        grid: ``grid[y][x]`` True for a free cell.
        start: The robot's start cell.
        goal: The gold's cell.
        n: Number of bug cells.
        rng: Generator to draw with; None uses the module-level :mod:`random` (seeded per episode by
            playtester).

    Returns:
        ``n`` cells, bug cell ``k`` at index ``k``.

    Raises:
        ValueError: If ``n`` is negative or larger than the number of candidate cells.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"number of bug cells must be an int >= 0, got {n!r}")
    candidates = sorted(reachable(grid, start) - {start, goal})
    if n > len(candidates):
        raise ValueError(f"cannot place {n} bug cells: only {len(candidates)} reachable free cells")
    if rng is None:
        return random.sample(candidates, n)
    return rng.sample(candidates, n)


def cell_size_for(size: int) -> int:
    """Pixel size of one cell so that the window (maze and HUD) stays within about ``MAX_WINDOW`` pixels.

    Args:
        size: Cells per side.

    Returns:
        The cell size in pixels, between 4 and 48.
    """
    _check_size(size)
    return max(4, min(48, (MAX_WINDOW - HUD_HEIGHT) // size))


# --------------------------------------------------------------------------------------------------
# Sprites.
# --------------------------------------------------------------------------------------------------


class Wall(pygame.sprite.Sprite):
    """A solid block of the maze. Static: it is drawn once onto the background."""

    def __init__(self, cell: Cell, cell_size: int, top: int) -> None:
        """Create the block at grid ``cell``.

        Args:
            cell: ``(x, y)`` grid coordinates.
            cell_size: Pixel size of a cell.
            top: Pixel offset of the maze below the HUD.
        """
        super().__init__()
        self.cell = cell
        self.image = pygame.Surface((cell_size, cell_size))
        self.image.fill(WALL_COLOR)
        if cell_size >= 8:
            pygame.draw.rect(self.image, WALL_EDGE_COLOR, self.image.get_rect(), 1)
        self.rect = self.image.get_rect(topleft=(cell[0] * cell_size, top + cell[1] * cell_size))


class BugCell(pygame.sprite.Sprite):
    """An injected bug: a cell the robot must never enter. Drawn as a barely visible dot."""

    def __init__(self, index: int, cell: Cell, cell_size: int, top: int) -> None:
        """Create bug cell number ``index`` at grid ``cell``.

        Args:
            index: Stable number of the bug cell (``0 .. n_bugs - 1``).
            cell: ``(x, y)`` grid coordinates.
            cell_size: Pixel size of a cell.
            top: Pixel offset of the maze below the HUD.
        """
        super().__init__()
        self.index = index
        self.cell = cell
        self.image = pygame.Surface((cell_size, cell_size), pygame.SRCALPHA)
        radius = max(1, cell_size // 10)
        pygame.draw.circle(self.image, BUG_DOT_COLOR, (cell_size // 2, cell_size // 2), radius)
        self.rect = self.image.get_rect(topleft=(cell[0] * cell_size, top + cell[1] * cell_size))

    def contains(self, robot: Robot) -> bool:
        """Return True when ``robot`` stands on this cell."""
        return robot.cell == self.cell

    def update(self) -> None:
        """Bug cells do not change during a game."""


class Gold(pygame.sprite.Sprite):
    """The gold coin the robot has to reach. It glints (its radius pulses) every few frames."""

    def __init__(self, cell: Cell, cell_size: int, top: int) -> None:
        """Create the coin at grid ``cell``.

        Args:
            cell: ``(x, y)`` grid coordinates.
            cell_size: Pixel size of a cell.
            top: Pixel offset of the maze below the HUD.
        """
        super().__init__()
        self.cell = cell
        self.cell_size = cell_size
        self.frame = 0
        self.collected = False
        self.image = pygame.Surface((cell_size, cell_size), pygame.SRCALPHA)
        self.rect = self.image.get_rect(topleft=(cell[0] * cell_size, top + cell[1] * cell_size))
        self._radius = -1
        self._render(self._base_radius())

    def _base_radius(self) -> int:
        return max(1, self.cell_size * 3 // 10)

    def _render(self, radius: int) -> None:
        if radius == self._radius:
            return
        self._radius = radius
        self.image.fill((0, 0, 0, 0))
        if self.collected:
            return
        center = (self.cell_size // 2, self.cell_size // 2)
        pygame.draw.circle(self.image, GOLD_COLOR, center, radius)
        if radius >= 4:
            pygame.draw.circle(self.image, GOLD_EDGE_COLOR, center, radius, 2)

    def collect(self) -> None:
        """Hide the coin once the robot has picked it up."""
        self.collected = True
        self._radius = -1
        self._render(0)

    def update(self) -> None:
        """Advance the glint animation by one frame."""
        self.frame += 1
        if self.collected:
            return
        pulse = 1 if (self.frame // 10) % 2 == 1 and self.cell_size >= 12 else 0
        self._render(self._base_radius() + pulse)


class Robot(pygame.sprite.Sprite):
    """The player's robot. It lives on grid cells and cannot enter blocks."""

    def __init__(self, cell: Cell, grid: Sequence[Sequence[bool]], cell_size: int, top: int) -> None:
        """Create the robot at grid ``cell``.

        Args:
            cell: ``(x, y)`` start cell.
            grid: The maze, ``grid[y][x]`` True for a free cell.
            cell_size: Pixel size of a cell.
            top: Pixel offset of the maze below the HUD.
        """
        super().__init__()
        self.cell = cell
        self.grid = grid
        self.cell_size = cell_size
        self.top = top
        self.facing: Cell = EAST
        self.image = pygame.Surface((cell_size, cell_size), pygame.SRCALPHA)
        self.rect = self.image.get_rect()
        self._drawn_facing: Cell | None = None
        self.update()

    def can_enter(self, cell: Cell) -> bool:
        """Return True when ``cell`` is a free cell of the maze."""
        return _is_free(self.grid, cell)

    def move(self, dx: int, dy: int) -> bool:
        """Step one cell in direction ``(dx, dy)``.

        Args:
            dx: -1, 0 or 1 along x.
            dy: -1, 0 or 1 along y.

        Returns:
            True if the robot moved, False if a block was in the way.
        """
        self.facing = (dx, dy)
        target = (self.cell[0] + dx, self.cell[1] + dy)
        if not self.can_enter(target):
            return False
        self.cell = target
        return True

    def place(self, cell: Cell) -> bool:
        """Put the robot on ``cell`` directly if it is free.

        Returns:
            True if the robot was placed, False if ``cell`` is a block or off the maze.
        """
        if not self.can_enter(cell):
            return False
        self.cell = cell
        return True

    def update(self) -> None:
        """Keep the sprite's rect on the robot's cell and redraw it when it turns."""
        self.rect.topleft = (self.cell[0] * self.cell_size, self.top + self.cell[1] * self.cell_size)
        if self.facing == self._drawn_facing:
            return
        self._drawn_facing = self.facing
        size = self.cell_size
        margin = max(1, size // 8)
        self.image.fill((0, 0, 0, 0))
        body = pygame.Rect(margin, margin, size - 2 * margin, size - 2 * margin)
        pygame.draw.rect(self.image, ROBOT_COLOR, body, border_radius=max(0, size // 6))
        if size >= 10:
            pygame.draw.rect(self.image, ROBOT_EDGE_COLOR, body, 1, border_radius=max(0, size // 6))
            eye = max(1, size // 10)
            cx, cy = size // 2 + self.facing[0] * size // 6, size // 2 + self.facing[1] * size // 6
            spread = size // 6
            if self.facing[0] == 0:
                eyes = ((cx - spread, cy), (cx + spread, cy))
            else:
                eyes = ((cx, cy - spread), (cx, cy + spread))
            for pos in eyes:
                pygame.draw.circle(self.image, EYE_COLOR, pos, eye)


# --------------------------------------------------------------------------------------------------
# The game.
# --------------------------------------------------------------------------------------------------


class BlockMaze:
    """State and rules of one game of Block Maze (no window needed until :meth:`draw`).

    Attributes:
        grid: ``grid[y][x]`` True for a free cell.
        start: The robot's start cell.
        goal: The gold's cell.
        bug_positions: Bug cell ``k`` is ``bug_positions[k]``.
        steps: Moves made by the player (teleports excluded).
        score: 0, or 1 once the gold is reached.
        won: True once the gold is reached.
    """

    def __init__(self, size: int = 11, n_bugs: int = 5, layout_seed: int = 0, bug_seed: int | None = None) -> None:
        """Build the level.

        The layout comes from ``random.Random(layout_seed)``; the bug cells from the module-level
        :mod:`random`, or from ``random.Random(bug_seed)`` when one is given.

        Args:
            size: Cells per side.
            n_bugs: Number of bug cells.
            layout_seed: Seed of the maze layout.
            bug_seed: Seed of fixed bug cells (None: new cells every episode).

        Raises:
            ValueError: If an argument is out of range.
        """
        _check_size(size)
        if isinstance(layout_seed, bool) or not isinstance(layout_seed, int):
            raise ValueError(f"layout_seed must be an int, got {layout_seed!r}")
        self.size = size
        self.layout_seed = layout_seed
        self.grid: Grid = generate_maze(size, random.Random(layout_seed))
        self.start, self.goal = start_and_goal(size)
        if bug_seed is not None and (isinstance(bug_seed, bool) or not isinstance(bug_seed, int)):
            raise ValueError(f"bug_seed must be an int or None, got {bug_seed!r}")
        rng = None if bug_seed is None else random.Random(bug_seed)
        self.bug_positions: list[Cell] = place_bugs(self.grid, self.start, self.goal, n_bugs, rng)

        self.cell_size = cell_size_for(size)
        self.top = HUD_HEIGHT
        self.width = size * self.cell_size
        self.height = HUD_HEIGHT + size * self.cell_size

        self.walls = pygame.sprite.Group()
        for y, row in enumerate(self.grid):
            for x, free in enumerate(row):
                if not free:
                    self.walls.add(Wall((x, y), self.cell_size, self.top))
        self.bug_cells = pygame.sprite.Group()
        for k, cell in enumerate(self.bug_positions):
            self.bug_cells.add(BugCell(k, cell, self.cell_size, self.top))
        self.gold = Gold(self.goal, self.cell_size, self.top)
        self.robot = Robot(self.start, self.grid, self.cell_size, self.top)
        self.pieces = pygame.sprite.Group(self.gold, self.robot)

        self.steps = 0
        self.score = 0
        self.won = False
        self.frames_since_win = 0
        self.held_key: int | None = None
        self.held_frames = 0

        self._background: pygame.Surface | None = None
        self._font: pygame.font.Font | None = None
        self._big_font: pygame.font.Font | None = None
        self._hud_text: str | None = None
        self._hud_image: pygame.Surface | None = None

    # ---- input -----------------------------------------------------------------------------------

    def handle_key_down(self, key: int) -> None:
        """React to a key press: a direction key moves the robot one cell at once.

        Args:
            key: The ``pygame.K_*`` code of the pressed key.
        """
        if self.won or key not in DIRECTION_KEYS:
            return
        self.held_key = key
        self.held_frames = 0
        dx, dy = DIRECTION_KEYS[key]
        self.try_move(dx, dy)

    def update(self, keys: Any) -> None:
        """Advance the game by one frame.

        While the last pressed direction key stays held, the robot moves one more cell every
        ``REPEAT_FRAMES`` frames.

        Args:
            keys: The pressed-key state, as returned by ``pygame.key.get_pressed()``.
        """
        if self.held_key is not None and not self.won:
            if keys[self.held_key]:
                if self.held_frames > 0 and self.held_frames % REPEAT_FRAMES == 0:
                    dx, dy = DIRECTION_KEYS[self.held_key]
                    self.try_move(dx, dy)
                self.held_frames += 1
            else:
                self.held_key = None
                self.held_frames = 0
        if self.won:
            self.frames_since_win += 1
        self.bug_cells.update()
        self.pieces.update()

    # ---- rules -----------------------------------------------------------------------------------

    def try_move(self, dx: int, dy: int) -> bool:
        """Move the robot one cell if no block is in the way.

        Args:
            dx: -1, 0 or 1 along x.
            dy: -1, 0 or 1 along y.

        Returns:
            True if the robot moved.
        """
        if not self.robot.move(dx, dy):
            return False
        self.steps += 1
        x, y = self.robot.cell
        probe.event("moved", x=x, y=y)
        self._entered_cell()
        return True

    def teleport(self, x: int, y: int) -> bool:
        """Put the robot on cell ``(x, y)`` if it is free (playtester's ``teleport`` hook).

        Entering a bug cell or the gold this way counts like walking onto it.

        Args:
            x: Column of the target cell.
            y: Row of the target cell.

        Returns:
            True if the robot was moved there.
        """
        target = (int(x), int(y))
        if target == self.robot.cell:
            return True
        if not self.robot.place(target):
            return False
        self.robot.update()
        self._entered_cell()
        return True

    def walkable(self) -> list[list[bool]]:
        """Return a copy of the maze, ``[y][x]`` True for a free cell (playtester's ``walkable`` hook)."""
        return [list(row) for row in self.grid]

    def _entered_cell(self) -> None:
        """Run the checks for the cell the robot has just stepped onto."""
        robot = self.robot
        for bug in self.bug_cells:
            probe.check(not bug.contains(robot), f"bug cell {bug.index} entered", cell=robot.cell)
        if robot.cell == self.goal and not self.won:
            self.won = True
            self.score = 1
            self.gold.collect()
            probe.event("win")

    def report(self) -> None:
        """Tell playtester about the current frame's state."""
        x, y = self.robot.cell
        probe.observe(x=x, y=y, steps=self.steps, score=self.score)
        probe.entity("robot", "robot", (x, y))
        probe.entity("gold", "gold", self.goal)

    @property
    def finished(self) -> bool:
        """True once the win screen has been shown long enough."""
        return self.won and self.frames_since_win >= WIN_LINGER_FRAMES

    # ---- drawing ---------------------------------------------------------------------------------

    def draw(self, screen: pygame.Surface) -> None:
        """Draw the maze, the pieces and the HUD onto ``screen``."""
        if self._background is None:
            self._background = pygame.Surface((self.width, self.height))
            self._background.fill(FLOOR_COLOR)
            self.walls.draw(self._background)
        if self._font is None:
            self._font = pygame.font.Font(None, 24)
            self._big_font = pygame.font.Font(None, max(24, min(72, self.width // 6)))

        screen.blit(self._background, (0, 0))
        self.bug_cells.draw(screen)
        self.pieces.draw(screen)

        hud = f"Steps: {self.steps}   Score: {self.score}   Level {self.layout_seed}"
        if hud != self._hud_text:
            self._hud_text = hud
            self._hud_image = self._font.render(hud, True, HUD_TEXT_COLOR)
        pygame.draw.rect(screen, HUD_COLOR, (0, 0, self.width, HUD_HEIGHT))
        if self._hud_image is not None:
            screen.blit(self._hud_image, (6, (HUD_HEIGHT - self._hud_image.get_height()) // 2))

        if self.won and self._big_font is not None:
            text = self._big_font.render("You win", True, WIN_TEXT_COLOR)
            box = text.get_rect(center=(self.width // 2, self.top + (self.height - self.top) // 2))
            pygame.draw.rect(screen, HUD_COLOR, box.inflate(24, 12))
            screen.blit(text, box)


def _validate_main_args(fps: int, max_frames: int | None) -> None:
    if isinstance(fps, bool) or not isinstance(fps, int) or fps < 0:
        raise ValueError(f"fps must be an int >= 0 (0 = unlimited), got {fps!r}")
    if max_frames is not None and (
        isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 0
    ):
        raise ValueError(f"max_frames must be None or an int >= 0, got {max_frames!r}")


def main(
    size: int = 11,
    n_bugs: int = 5,
    layout_seed: int = 0,
    fps: int = 30,
    max_frames: int | None = None,
    bug_seed: int | None = None,
) -> None:
    """Play Block Maze in a window until the player quits or wins.

    Args:
        size: Cells per side (odd sizes fill the window best), ``MIN_SIZE`` to ``MAX_SIZE``.
        n_bugs: Number of bug cells, placed with the module-level :mod:`random`.
        layout_seed: Seed of the maze layout.
        bug_seed: Seed of fixed bug cells; None draws new ones every episode.
        fps: Frame rate cap; 0 runs as fast as possible.
        max_frames: Stop after this many frames have been drawn (None: no limit).

    Raises:
        ValueError: If an argument is out of range (e.g. more bug cells than free cells).
    """
    _validate_main_args(fps, max_frames)
    game = BlockMaze(size=size, n_bugs=n_bugs, layout_seed=layout_seed, bug_seed=bug_seed)

    pygame.init()
    try:
        screen = pygame.display.set_mode((game.width, game.height))
        pygame.display.set_caption("Block Maze")
        clock = pygame.time.Clock()
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
            keys = pygame.key.get_pressed()
            game.update(keys)
            game.report()

            game.draw(screen)
            pygame.display.flip()
            clock.tick(fps)

            frames += 1
            if max_frames is not None and frames >= max_frames:
                running = False
            if game.finished:
                running = False
    finally:
        pygame.quit()


def _parse_args(argv: Iterable[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m playtester.games.blockmaze", description="Block Maze")
    parser.add_argument("--size", type=int, default=11, help="cells per side (odd recommended)")
    parser.add_argument("--bugs", type=int, default=5, help="number of bug cells")
    parser.add_argument("--layout-seed", type=int, default=0, help="seed of the maze layout")
    parser.add_argument("--bug-seed", type=int, default=None, help="seed of fixed bug cells (default: new per run)")
    parser.add_argument("--fps", type=int, default=30, help="frame rate cap, 0 = unlimited")
    parser.add_argument("--frames", type=int, default=None, help="quit after this many frames")
    return parser.parse_args(None if argv is None else list(argv))


if __name__ == "__main__":
    _args = _parse_args()
    main(
        size=_args.size,
        n_bugs=_args.bugs,
        layout_seed=_args.layout_seed,
        fps=_args.fps,
        max_frames=_args.frames,
        bug_seed=_args.bug_seed,
    )
