"""Tile Match: a match-3 puzzle on an 8x8 board, played with the mouse only.

Swap two neighbouring tiles to line up three or more of the same colour in a row or a column. The line
is cleared and scores, the tiles above fall down, new tiles come in from the top (drawn with the
module-level :mod:`random`, which playtester seeds per episode), and lines formed by the falling tiles
clear as well: a cascade, worth more per tile the longer it goes on. A swap that makes no line is
swapped back and costs nothing. An L or T shaped match of five leaves a *star tile* of its colour at the
corner. The game ends when the moves (30 by default) are spent: a "Game over" screen stays up for about
a second and ``main`` returns. When no swap can make a line the board is reshuffled.

The game exists to widen the input kinds a program analysis of the game must handle: there is no
keyboard control at all, a swap is either two clicks or a press-drag-release gesture, and the hover
highlight polls ``pygame.mouse.get_pos()`` from a sprite's ``update()``.

Controls:
    Click a tile, then click a neighbour   swap the two (click the selected tile again to deselect)
    Press on a tile and drag               swap it with the neighbour in the drag direction (half a tile
                                           of movement is enough); a drag made while a match is still
                                           being cleared is remembered and played when the board settles
    Mouse over the board                   highlights the tile under the cursor
    Escape                                 quit

Instrumentation (:mod:`playtester.probe`): every frame ``observe(score, moves_left, combo, selected)``,
the entities ``cursor`` (window pixels) and ``selected`` (its ``(col, row)`` cell, while a tile is
selected); the events ``swap``, ``no_match``, ``match`` (``count``, ``combo``, ``points``), ``cascade``
(``combo``), ``shuffle`` and ``game_over``; and the invariants "board not full" and "3-in-a-row left
standing" (checked whenever the board settles) and "score decreased" (every frame).

Injected bugs (kept on purpose; listed in :data:`INJECTED_BUGS` for benchmark scoring):

1. ``drag-off-right-edge-crash`` (crash, ``IndexError``). A drag made while the board is resolving a
   match (tiles flashing or falling, including cascades) is buffered, and its target tile is nudged as
   feedback. The bounds test of that buffering code checks the row and the left edge but not the right
   edge, so pressing on a tile of the last column (column 7) during the clear/fall animation and dragging
   right, off the board, by at least half a tile indexes column 8 of the tile sprites. The same drag
   while the board is idle, or a drag off any other edge, is ignored as it should be.
2. ``star-line-left-standing`` (assertion, probe check ``"3-in-a-row left standing"``). The board scan
   :func:`find_runs` compares raw tile codes unless it is given ``key=color_of``, and the game calls it
   without the key. A star tile (made by an L/T match of five) therefore never matches plain tiles of its
   own colour: when falling tiles line it up with two of them, the line stands after the board settles.
3. ``cascade-star-score-drop`` (assertion, probe check ``"score decreased"``). The score counts up live
   during a chain and is re-synchronised to ``banked + chain_points`` when the board settles. A wave that
   makes a star sets ``chain_points`` instead of adding to it, so when a *cascade* wave (combo 2 or more)
   contains an L/T match of five, the points of the chain's earlier waves are dropped at the end of the
   chain and the score goes down.

Run it with ``python -m playtester.games.tilematch --moves 30 --colors 6``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import pygame

from playtester import probe

__all__ = [
    "COLS",
    "INJECTED_BUGS",
    "ROWS",
    "STAR",
    "HoverHighlight",
    "SelectionMarker",
    "TileMatch",
    "TileSprite",
    "adjacent",
    "apply_clear",
    "cell_at",
    "cell_center",
    "collapse",
    "color_of",
    "drag_target",
    "find_runs",
    "generate_board",
    "has_move",
    "in_bounds",
    "main",
    "plan_clear",
    "resolve_board",
    "swap",
    "try_swap",
]

INJECTED_BUGS: list[dict[str, str]] = [
    {
        "id": "drag-off-right-edge-crash",
        "kind": "crash",
        "message": "IndexError",
        "description": "A drag buffered while a match is being cleared (TileMatch.mouse_drag) checks the row "
        "and the left edge of its target but not the right edge, then nudges tiles[row][8].",
        "how": "Make a match; while its tiles flash or fall (about 20 frames), press on a tile of the last "
        "column and drag right, off the board, by at least half a tile with the button held.",
    },
    {
        "id": "star-line-left-standing",
        "kind": "assertion",
        "message": "3-in-a-row left standing",
        "description": "find_runs() compares raw tile codes unless given key=color_of, so the star tile an "
        "L/T match of five leaves never matches plain tiles of its colour; a line through it stands.",
        "how": "Make an L or T shaped match of five (it leaves a star); sometimes the falling tiles line the "
        "star up with two tiles of its colour and the board settles with that line standing.",
    },
    {
        "id": "cascade-star-score-drop",
        "kind": "assertion",
        "message": "score decreased",
        "description": "A wave that creates a star sets chain_points instead of adding to it, so the chain's "
        "earlier points are lost when the score is re-synchronised as the board settles.",
        "how": "Make a swap whose cascade (combo >= 2) contains an L or T shaped match of five; when the "
        "board settles the score drops.",
    },
]

Cell = tuple[int, int]  # (row, col)
Grid = list[list[int | None]]

ROWS = 8
COLS = 8
STAR = 8  # tile code of a star tile = colour + STAR
MIN_COLORS = 3
MAX_COLORS = 6

# --- Screen layout -----------------------------------------------------------------------------------
CELL = 48
BOARD_X = 16
BOARD_Y = 56
BOARD_W = COLS * CELL
BOARD_H = ROWS * CELL
PANEL_X = BOARD_X + BOARD_W + 16
WIDTH = 600
HEIGHT = BOARD_Y + BOARD_H + 16
DRAG_THRESHOLD = CELL // 2

# --- Timing (frames) ---------------------------------------------------------------------------------
DEFAULT_FPS = 60
SWAP_FRAMES = 6
CLEAR_FRAMES = 8
FALL_FRAMES = 8
NUDGE_FRAMES = 8
GAME_OVER_FRAMES = 60  # about a second of "Game over" before main() returns

# --- Scoring -----------------------------------------------------------------------------------------
POINTS_PER_TILE = 10
STAR_BONUS = 100

# --- Colours -----------------------------------------------------------------------------------------
BG_COLOR = (28, 30, 46)
BOARD_DARK = (44, 48, 70)
BOARD_LIGHT = (52, 57, 82)
HUD_TEXT = (235, 235, 240)
HOVER_COLOR = (250, 250, 250)
SELECT_COLOR = (255, 215, 0)
STAR_RING = (255, 255, 255)
OVERLAY = (0, 0, 0, 170)
TILE_COLORS = [
    (220, 60, 60),  # red circle
    (240, 170, 40),  # orange square
    (70, 190, 90),  # green triangle
    (70, 130, 230),  # blue diamond
    (170, 90, 210),  # purple hexagon
    (225, 225, 225),  # white cross
]

# Game states.
IDLE = "idle"
SWAPPING = "swapping"
UNSWAPPING = "unswapping"
CLEARING = "clearing"
FALLING = "falling"
OVER = "over"


class RandomSource(Protocol):
    """What the board needs of a random generator (``random`` itself or a ``random.Random``)."""

    def randrange(self, stop: int) -> int: ...

    def choice(self, seq: Sequence[Any]) -> Any: ...


# --------------------------------------------------------------------------------------------------
# Pure board logic. A grid is ``grid[row][col]``: a tile code (colour ``0..colors-1``, ``+ STAR`` for a
# star tile) or None for an empty cell (only between a clear and the collapse).
# --------------------------------------------------------------------------------------------------


def color_of(code: int | None) -> int | None:
    """The colour of a tile code (a star tile has the colour it was made from)."""
    return None if code is None else code % STAR


def in_bounds(cell: Cell, rows: int = ROWS, cols: int = COLS) -> bool:
    """True when ``(row, col)`` lies on the board."""
    r, c = cell
    return 0 <= r < rows and 0 <= c < cols


def adjacent(a: Cell, b: Cell) -> bool:
    """True when two cells share an edge."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def swap(grid: Grid, a: Cell, b: Cell) -> None:
    """Exchange the tiles of cells ``a`` and ``b`` in place."""
    grid[a[0]][a[1]], grid[b[0]][b[1]] = grid[b[0]][b[1]], grid[a[0]][a[1]]


def find_runs(
    grid: Sequence[Sequence[int | None]], key: Callable[[Any], Any] | None = None
) -> list[list[Cell]]:
    """Every horizontal and vertical line of three or more equal tiles.

    Args:
        grid: The board.
        key: What makes two tiles equal; None compares the raw tile codes (so a star tile only lines up
            with stars of its colour), ``color_of`` compares colours.

    Returns:
        The runs, horizontal ones first, each a list of ``(row, col)`` cells in board order.
    """
    k = key if key is not None else (lambda v: v)
    rows, cols = len(grid), len(grid[0]) if grid else 0
    runs: list[list[Cell]] = []
    for r in range(rows):
        c = 0
        while c < cols:
            v = k(grid[r][c])
            end = c + 1
            while end < cols and v is not None and k(grid[r][end]) == v:
                end += 1
            if v is not None and end - c >= 3:
                runs.append([(r, x) for x in range(c, end)])
            c = end
    for c in range(cols):
        r = 0
        while r < rows:
            v = k(grid[r][c])
            end = r + 1
            while end < rows and v is not None and k(grid[end][c]) == v:
                end += 1
            if v is not None and end - r >= 3:
                runs.append([(y, c) for y in range(r, end)])
            r = end
    return runs


def plan_clear(
    grid: Sequence[Sequence[int | None]], runs: Sequence[Sequence[Cell]]
) -> tuple[set[Cell], dict[Cell, int]]:
    """Decide what a set of runs does to the board.

    Every cell of a run is cleared, except where a horizontal and a vertical run of the same tiles cross
    and cover five cells or more (an L or T shape): that corner becomes a star tile of their colour.

    Returns:
        ``(cleared, stars)``: the cells to empty, and star tile codes by cell.
    """
    horizontal = [run for run in runs if run[0][0] == run[-1][0]]
    vertical = [run for run in runs if run[0][1] == run[-1][1] and len(run) > 1 and run[0][0] != run[-1][0]]
    stars: dict[Cell, int] = {}
    for h in horizontal:
        for v in vertical:
            corner = set(h) & set(v)
            if corner and len(set(h) | set(v)) >= 5:
                (cell,) = corner
                code = grid[cell[0]][cell[1]]
                if code is not None:
                    stars[cell] = color_of(code) + STAR
    cleared = {cell for run in runs for cell in run} - set(stars)
    return cleared, stars


def apply_clear(grid: Grid, cleared: Iterable[Cell], stars: dict[Cell, int]) -> None:
    """Empty the ``cleared`` cells and put the ``stars`` in place."""
    for r, c in cleared:
        grid[r][c] = None
    for (r, c), code in stars.items():
        grid[r][c] = code


def collapse(grid: Grid, colors: int, rng: RandomSource) -> list[list[int]]:
    """Let tiles fall into the empty cells below them and fill the columns from the top.

    New tiles are drawn with ``rng.randrange(colors)``, column by column from left to right, the
    lowest new tile of a column first.

    Returns:
        ``drops[row][col]``: how many cells the tile now at ``(row, col)`` fell (0 if it did not move;
        a new tile counts from above the board).
    """
    rows, cols = len(grid), len(grid[0])
    drops = [[0] * cols for _ in range(rows)]
    for c in range(cols):
        write = rows - 1
        for r in range(rows - 1, -1, -1):
            code = grid[r][c]
            if code is not None:
                grid[write][c] = code
                drops[write][c] = write - r
                write -= 1
        missing = write + 1
        for r in range(write, -1, -1):
            grid[r][c] = rng.randrange(colors)
            drops[r][c] = missing
    return drops


def try_swap(grid: Grid, a: Cell, b: Cell) -> bool:
    """Swap two neighbouring tiles if that makes a line; otherwise leave the board as it was.

    Returns:
        True when the swap was kept.
    """
    if not (
        adjacent(a, b) and in_bounds(a, len(grid), len(grid[0])) and in_bounds(b, len(grid), len(grid[0]))
    ):
        return False
    swap(grid, a, b)
    if find_runs(grid):
        return True
    swap(grid, a, b)
    return False


def has_move(grid: Grid) -> bool:
    """True when some swap of two neighbouring tiles makes a line."""
    rows, cols = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(cols):
            for b in ((r, c + 1), (r + 1, c)):
                if in_bounds(b, rows, cols):
                    swap(grid, (r, c), b)
                    found = bool(find_runs(grid))
                    swap(grid, (r, c), b)
                    if found:
                        return True
    return False


def generate_board(colors: int, rng: RandomSource, rows: int = ROWS, cols: int = COLS) -> Grid:
    """A full board with no line of three standing and at least one move.

    Cells are filled row by row, each with ``rng.choice`` among the colours that do not complete a line
    with the two cells to its left or above; the board is drawn again until it has a move.
    """
    if isinstance(colors, bool) or not isinstance(colors, int) or not MIN_COLORS <= colors <= MAX_COLORS:
        raise ValueError(f"colors must be an int from {MIN_COLORS} to {MAX_COLORS}, got {colors!r}")
    while True:
        grid: Grid = [[None] * cols for _ in range(rows)]
        for r in range(rows):
            for c in range(cols):
                banned = set()
                if c >= 2 and grid[r][c - 1] == grid[r][c - 2]:
                    banned.add(grid[r][c - 1])
                if r >= 2 and grid[r - 1][c] == grid[r - 2][c]:
                    banned.add(grid[r - 1][c])
                grid[r][c] = rng.choice([k for k in range(colors) if k not in banned])
        if has_move(grid):
            return grid


def resolve_board(grid: Grid, colors: int, rng: RandomSource) -> list[tuple[set[Cell], dict[Cell, int]]]:
    """Clear lines, collapse and refill until the board is still (what the game does, without animation).

    Returns:
        One ``(cleared, stars)`` pair per wave; the first wave is the swap's match, the others cascades.
    """
    waves = []
    while runs := find_runs(grid):
        cleared, stars = plan_clear(grid, runs)
        apply_clear(grid, cleared, stars)
        collapse(grid, colors, rng)
        waves.append((cleared, stars))
    return waves


# --- Geometry ----------------------------------------------------------------------------------------


def cell_at(pos: tuple[int, int]) -> Cell | None:
    """The board cell under window pixel ``pos``, or None off the board."""
    x, y = pos
    if not (BOARD_X <= x < BOARD_X + BOARD_W and BOARD_Y <= y < BOARD_Y + BOARD_H):
        return None
    return (y - BOARD_Y) // CELL, (x - BOARD_X) // CELL


def cell_center(cell: Cell) -> tuple[int, int]:
    """Window pixel at the centre of ``(row, col)``."""
    r, c = cell
    return BOARD_X + c * CELL + CELL // 2, BOARD_Y + r * CELL + CELL // 2


def drag_target(start: Cell, start_pos: tuple[int, int], pos: tuple[int, int]) -> Cell | None:
    """The neighbour a drag from ``start`` points at, once it moved ``DRAG_THRESHOLD`` pixels.

    The longer axis of the movement wins; the result may lie off the board.
    """
    dx, dy = pos[0] - start_pos[0], pos[1] - start_pos[1]
    if max(abs(dx), abs(dy)) < DRAG_THRESHOLD:
        return None
    if abs(dx) >= abs(dy):
        return start[0], start[1] + (1 if dx > 0 else -1)
    return start[0] + (1 if dy > 0 else -1), start[1]


# --------------------------------------------------------------------------------------------------
# Sprites.
# --------------------------------------------------------------------------------------------------

_TILE_IMAGES: dict[tuple[int, int], pygame.Surface] = {}


def _tile_image(code: int, size: int) -> pygame.Surface:
    """The picture of a tile code at ``size`` pixels (cached)."""
    cached = _TILE_IMAGES.get((code, size))
    if cached is not None:
        return cached
    image = pygame.Surface((size, size), pygame.SRCALPHA)
    color = TILE_COLORS[code % STAR]
    shape = code % STAR
    s = size
    m = max(1, s // 8)
    if shape == 0:
        pygame.draw.circle(image, color, (s // 2, s // 2), s // 2 - m)
    elif shape == 1:
        pygame.draw.rect(image, color, (m, m, s - 2 * m, s - 2 * m), border_radius=max(0, s // 8))
    elif shape == 2:
        pygame.draw.polygon(image, color, [(s // 2, m), (s - m, s - m), (m, s - m)])
    elif shape == 3:
        pygame.draw.polygon(image, color, [(s // 2, m), (s - m, s // 2), (s // 2, s - m), (m, s // 2)])
    elif shape == 4:
        q = s // 4
        pygame.draw.polygon(
            image, color, [(q, m), (s - q, m), (s - m, s // 2), (s - q, s - m), (q, s - m), (m, s // 2)]
        )
    else:
        w = max(2, s // 4)
        pygame.draw.rect(image, color, ((s - w) // 2, m, w, s - 2 * m))
        pygame.draw.rect(image, color, (m, (s - w) // 2, s - 2 * m, w))
    if code >= STAR:
        pygame.draw.circle(image, STAR_RING, (s // 2, s // 2), s // 2 - 1, max(1, s // 16))
        pygame.draw.circle(image, STAR_RING, (s // 2, s // 2), max(1, s // 10))
    _TILE_IMAGES[(code, size)] = image
    return image


class TileSprite(pygame.sprite.Sprite):
    """The tile shown in one board cell, with its swap, fall, clear and nudge animations."""

    def __init__(self, game: TileMatch, cell: Cell) -> None:
        super().__init__()
        self.game = game
        self.cell = cell
        self.offset = (0.0, 0.0)  # pixels the tile starts away from its cell, animated back to 0
        self.anim_frames = 0
        self.anim_left = 0
        self.clearing = False
        self.nudge_left = 0
        self.nudge_dir = (0, 0)
        self.image = pygame.Surface((CELL, CELL), pygame.SRCALPHA)
        self.rect = self.image.get_rect(topleft=(BOARD_X + cell[1] * CELL, BOARD_Y + cell[0] * CELL))

    def slide_from(self, dx: float, dy: float, frames: int) -> None:
        """Start the tile ``(dx, dy)`` pixels away from its cell and slide it home in ``frames`` frames."""
        self.offset = (dx, dy)
        self.anim_frames = self.anim_left = frames

    def nudge(self, direction: Cell) -> None:
        """Wobble the tile toward ``direction`` (feedback for a buffered drag)."""
        self.nudge_left = NUDGE_FRAMES
        self.nudge_dir = direction

    def update(self) -> None:
        """Advance the tile's animation by a frame and redraw it."""
        r, c = self.cell
        code = self.game.grid[r][c]
        x, y = BOARD_X + c * CELL, BOARD_Y + r * CELL
        if self.anim_left > 0:
            t = self.anim_left / self.anim_frames
            x += round(self.offset[0] * t)
            y += round(self.offset[1] * t)
            self.anim_left -= 1
        if self.nudge_left > 0:
            wobble = 3 if (self.nudge_left // 2) % 2 == 0 else -3
            x += wobble * self.nudge_dir[1]
            y += wobble * self.nudge_dir[0]
            self.nudge_left -= 1
        size = CELL - 4
        if self.clearing and self.game.state == CLEARING:
            progress = self.game.timer / CLEAR_FRAMES
            size = max(4, round((CELL - 4) * (1.0 - 0.8 * progress)))
        if code is None or (self.clearing and self.game.state == CLEARING and self.game.timer % 4 == 3):
            self.image = pygame.Surface((CELL, CELL), pygame.SRCALPHA)
        else:
            self.image = pygame.Surface((CELL, CELL), pygame.SRCALPHA)
            pic = _tile_image(code, size)
            self.image.blit(pic, ((CELL - size) // 2, (CELL - size) // 2))
        self.rect = self.image.get_rect(topleft=(x, y))


class HoverHighlight(pygame.sprite.Sprite):
    """An outline that follows the mouse over the board (polls ``pygame.mouse.get_pos()``)."""

    def __init__(self) -> None:
        super().__init__()
        self.image = pygame.Surface((CELL, CELL), pygame.SRCALPHA)
        pygame.draw.rect(self.image, HOVER_COLOR, self.image.get_rect(), 2, border_radius=6)
        self.blank = pygame.Surface((CELL, CELL), pygame.SRCALPHA)
        self.outline = self.image
        self.rect = self.image.get_rect()
        self.cell: Cell | None = None
        self.pos = (0, 0)

    def update(self) -> None:
        """Move onto the tile under the cursor, or hide when the cursor is off the board."""
        self.pos = pygame.mouse.get_pos()
        self.cell = cell_at(self.pos)
        if self.cell is None:
            self.image = self.blank
            return
        self.image = self.outline
        self.rect.topleft = (BOARD_X + self.cell[1] * CELL, BOARD_Y + self.cell[0] * CELL)


class SelectionMarker(pygame.sprite.Sprite):
    """A pulsing frame around the selected tile."""

    def __init__(self, game: TileMatch) -> None:
        super().__init__()
        self.game = game
        self.frame = 0
        self.image = pygame.Surface((CELL, CELL), pygame.SRCALPHA)
        self.rect = self.image.get_rect()

    def update(self) -> None:
        """Follow the selected tile; invisible when nothing is selected."""
        self.frame += 1
        self.image = pygame.Surface((CELL, CELL), pygame.SRCALPHA)
        cell = self.game.selected
        if cell is None:
            return
        width = 3 if (self.frame // 8) % 2 == 0 else 2
        pygame.draw.rect(self.image, SELECT_COLOR, self.image.get_rect(), width, border_radius=6)
        self.rect.topleft = (BOARD_X + cell[1] * CELL, BOARD_Y + cell[0] * CELL)


# --------------------------------------------------------------------------------------------------
# The game.
# --------------------------------------------------------------------------------------------------


class TileMatch:
    """State and rules of one game (no window needed until :meth:`draw`).

    Attributes:
        grid: ``grid[row][col]`` tile codes.
        state: one of ``idle``, ``swapping``, ``unswapping``, ``clearing``, ``falling``, ``over``.
        score: points so far (live during a chain, re-synchronised when the board settles).
        moves_left: swaps that made a line count against this.
        combo: wave number of the chain being resolved (1 = the swap's own match), 0 when idle.
        selected: the selected cell, if any.
        pending: a drag buffered while the board was resolving, played when it settles.
    """

    def __init__(self, moves: int = 30, colors: int = 6) -> None:
        """Draw the board with the module-level :mod:`random`.

        Raises:
            ValueError: If ``moves`` is not a positive int or ``colors`` is out of range.
        """
        if isinstance(moves, bool) or not isinstance(moves, int) or moves < 1:
            raise ValueError(f"moves must be an int >= 1, got {moves!r}")
        self.colors = colors
        self.grid: Grid = generate_board(colors, random)
        self.state = IDLE
        self.timer = 0
        self.score = 0
        self.banked = 0
        self.chain_points = 0
        self.moves_left = moves
        self.combo = 0
        self.best_combo = 0
        self.selected: Cell | None = None
        self.press: tuple[Cell, tuple[int, int]] | None = None
        self.pending: tuple[Cell, Cell] | None = None
        self.swapping: tuple[Cell, Cell] | None = None
        self.wave: tuple[set[Cell], dict[Cell, int]] = (set(), {})
        self.over_frames = 0
        self._last_score = 0

        self.tiles: list[list[TileSprite]] = [
            [TileSprite(self, (r, c)) for c in range(COLS)] for r in range(ROWS)
        ]
        self.tile_group = pygame.sprite.Group(*(t for row in self.tiles for t in row))
        self.hover = HoverHighlight()
        self.marker = SelectionMarker(self)
        self.overlay_group = pygame.sprite.Group(self.hover, self.marker)

        self._background: pygame.Surface | None = None
        self._font: pygame.font.Font | None = None
        self._big_font: pygame.font.Font | None = None

    # ---- input -----------------------------------------------------------------------------------

    def mouse_down(self, pos: tuple[int, int]) -> None:
        """Left button pressed at ``pos``: start a press, or finish a click-click swap."""
        cell = cell_at(pos)
        if cell is None:
            if self.state == IDLE:
                self.selected = None
            self.press = None
            return
        self.press = (cell, pos)
        if self.state == IDLE and self.selected is not None and adjacent(self.selected, cell):
            first = self.selected
            self.selected = None
            self.press = None
            self.request_swap(first, cell, "click")

    def mouse_drag(self, pos: tuple[int, int]) -> None:
        """The mouse moved to ``pos`` with the left button held."""
        if self.press is None:
            return
        start, start_pos = self.press
        target = drag_target(start, start_pos, pos)
        if target is None:
            return
        self.press = None
        self.selected = None
        if self.state == IDLE:
            if in_bounds(target):
                self.request_swap(start, target, "drag")
        elif self.state in (CLEARING, FALLING):
            # Buffer the drag until the board settles and nudge its target as feedback.
            tr, tc = target
            if 0 <= tr < ROWS and tc >= 0:
                self.pending = (start, target)
                self.tiles[tr][tc].nudge((target[0] - start[0], target[1] - start[1]))

    def mouse_up(self, pos: tuple[int, int]) -> None:
        """Left button released: a press that did not turn into a drag is a click (select/deselect)."""
        if self.press is None:
            return
        cell, _ = self.press
        self.press = None
        if self.state != IDLE:
            return
        self.selected = None if self.selected == cell else cell

    def handle_event(self, event: pygame.event.Event) -> None:
        """Route one pygame event to the mouse handlers."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse_down(event.pos)
        elif event.type == pygame.MOUSEMOTION and event.buttons[0]:
            self.mouse_drag(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.mouse_up(event.pos)

    # ---- rules -----------------------------------------------------------------------------------

    def request_swap(self, a: Cell, b: Cell, how: str) -> bool:
        """Start swapping two neighbouring tiles (only while idle and with moves left).

        Returns:
            True if the swap started.
        """
        if self.state != IDLE or self.moves_left <= 0:
            return False
        if not (in_bounds(a) and in_bounds(b) and adjacent(a, b)):
            return False
        swap(self.grid, a, b)
        self._slide_pair(a, b)
        self.swapping = (a, b)
        self.state = SWAPPING
        self.timer = 0
        probe.event("swap", a=list(a), b=list(b), how=how)
        return True

    def _slide_pair(self, a: Cell, b: Cell) -> None:
        dy, dx = (b[0] - a[0]) * CELL, (b[1] - a[1]) * CELL
        self.tiles[a[0]][a[1]].slide_from(dx, dy, SWAP_FRAMES)
        self.tiles[b[0]][b[1]].slide_from(-dx, -dy, SWAP_FRAMES)

    def _begin_clear(self, runs: list[list[Cell]]) -> None:
        cleared, stars = plan_clear(self.grid, runs)
        self.wave = (cleared, stars)
        count = len(cleared) + len(stars)
        points = POINTS_PER_TILE * count * self.combo
        if stars:
            points += STAR_BONUS * len(stars)
            self.chain_points = points
        else:
            self.chain_points += points
        self.score += points
        self.best_combo = max(self.best_combo, self.combo)
        for r, c in cleared:
            self.tiles[r][c].clearing = True
        if self.combo > 1:
            probe.event("cascade", combo=self.combo)
        probe.event("match", count=count, combo=self.combo, points=points, stars=len(stars))
        self.state = CLEARING
        self.timer = 0

    def _finish_clear(self) -> None:
        cleared, stars = self.wave
        for r, c in cleared:
            self.tiles[r][c].clearing = False
        apply_clear(self.grid, cleared, stars)
        drops = collapse(self.grid, self.colors, random)
        for r in range(ROWS):
            for c in range(COLS):
                if drops[r][c]:
                    self.tiles[r][c].slide_from(0, -drops[r][c] * CELL, FALL_FRAMES)
        self.state = FALLING
        self.timer = 0

    def _settle(self) -> None:
        self.score = self.banked + self.chain_points
        self.banked = self.score
        self.chain_points = 0
        self.combo = 0
        self.state = IDLE
        self.timer = 0
        probe.check(all(v is not None for row in self.grid for v in row), "board not full")
        standing = find_runs(self.grid, key=color_of)
        probe.check(
            not standing, "3-in-a-row left standing", runs=[[list(cell) for cell in run] for run in standing]
        )
        if not has_move(self.grid):
            self.grid = generate_board(self.colors, random)
            probe.event("shuffle")
        if self.moves_left <= 0:
            self.state = OVER
            self.pending = None
            self.selected = None
            probe.event("game_over", score=self.score, best_combo=self.best_combo)
            return
        if self.pending is not None:
            a, b = self.pending
            self.pending = None
            self.request_swap(a, b, "drag")

    def update(self) -> None:
        """Advance the game by one frame: animations, then the state machine."""
        self.timer += 1
        if self.state == SWAPPING and self.timer >= SWAP_FRAMES:
            assert self.swapping is not None
            a, b = self.swapping
            runs = find_runs(self.grid)
            if runs:
                self.swapping = None
                self.moves_left -= 1
                self.combo = 1
                self._begin_clear(runs)
            else:
                swap(self.grid, a, b)
                self._slide_pair(a, b)
                self.state = UNSWAPPING
                self.timer = 0
                probe.event("no_match", a=list(a), b=list(b))
        elif self.state == UNSWAPPING and self.timer >= SWAP_FRAMES:
            self.swapping = None
            self.state = IDLE
            self.timer = 0
        elif self.state == CLEARING and self.timer >= CLEAR_FRAMES:
            self._finish_clear()
        elif self.state == FALLING and self.timer >= FALL_FRAMES:
            runs = find_runs(self.grid)
            if runs:
                self.combo += 1
                self._begin_clear(runs)
            else:
                self._settle()
        elif self.state == OVER:
            self.over_frames += 1
        self.tile_group.update()
        self.overlay_group.update()

    def report(self) -> None:
        """Tell playtester about this frame."""
        probe.observe(
            score=self.score,
            moves_left=self.moves_left,
            combo=self.combo,
            selected=int(self.selected is not None),
        )
        probe.entity("cursor", "cursor", self.hover.pos)
        if self.selected is not None:
            r, c = self.selected
            probe.entity("selected", "tile", (c, r), color=color_of(self.grid[r][c]))
        probe.check(
            self.score >= self._last_score, "score decreased", before=self._last_score, after=self.score
        )
        self._last_score = self.score

    @property
    def finished(self) -> bool:
        """True once the game-over screen has been shown long enough."""
        return self.state == OVER and self.over_frames >= GAME_OVER_FRAMES

    # ---- drawing ---------------------------------------------------------------------------------

    def draw(self, screen: pygame.Surface) -> None:
        """Draw the board, the tiles, the hover/selection frames and the HUD."""
        if self._background is None:
            self._background = pygame.Surface((WIDTH, HEIGHT))
            self._background.fill(BG_COLOR)
            for r in range(ROWS):
                for c in range(COLS):
                    shade = BOARD_LIGHT if (r + c) % 2 == 0 else BOARD_DARK
                    pygame.draw.rect(
                        self._background, shade, (BOARD_X + c * CELL, BOARD_Y + r * CELL, CELL, CELL)
                    )
        if self._font is None:
            self._font = pygame.font.Font(None, 30)
            self._big_font = pygame.font.Font(None, 64)
        screen.blit(self._background, (0, 0))
        screen.set_clip(pygame.Rect(BOARD_X, BOARD_Y, BOARD_W, BOARD_H))
        self.tile_group.draw(screen)
        screen.set_clip(None)
        self.overlay_group.draw(screen)

        title = self._font.render("Tile Match", True, HUD_TEXT)
        screen.blit(title, (BOARD_X, (BOARD_Y - title.get_height()) // 2))
        lines = [f"Score {self.score}", f"Moves {self.moves_left}"]
        if self.combo > 1:
            lines.append(f"Combo x{self.combo}")
        for i, text in enumerate(lines):
            screen.blit(self._font.render(text, True, HUD_TEXT), (PANEL_X, BOARD_Y + 8 + i * 32))
        if self.state == OVER and self._big_font is not None:
            shade = pygame.Surface((WIDTH, HEIGHT), pygame.SRCALPHA)
            shade.fill(OVERLAY)
            screen.blit(shade, (0, 0))
            text = self._big_font.render("Game over", True, SELECT_COLOR)
            screen.blit(text, text.get_rect(center=(WIDTH // 2, HEIGHT // 2 - 24)))
            sub = self._font.render(f"Final score {self.score}", True, HUD_TEXT)
            screen.blit(sub, sub.get_rect(center=(WIDTH // 2, HEIGHT // 2 + 24)))


def _validate_main_args(fps: int, max_frames: int | None) -> None:
    if isinstance(fps, bool) or not isinstance(fps, int) or fps < 0:
        raise ValueError(f"fps must be an int >= 0 (0 = unlimited), got {fps!r}")
    if max_frames is not None and (
        isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 0
    ):
        raise ValueError(f"max_frames must be None or an int >= 0, got {max_frames!r}")


def main(fps: int = DEFAULT_FPS, max_frames: int | None = None, moves: int = 30, colors: int = 6) -> None:
    """Play until the window closes, Escape, ``max_frames``, or the moves run out (then ~1 s of "Game over").

    Args:
        fps: Frame-rate cap; 0 runs as fast as possible. Animations count frames either way.
        max_frames: Return after drawing this many frames (for benchmarks); None plays on.
        moves: Matching swaps before the game ends.
        colors: Tile colours, ``MIN_COLORS`` to ``MAX_COLORS``.

    Raises:
        ValueError: If an argument is out of range.
    """
    _validate_main_args(fps, max_frames)
    game = TileMatch(moves=moves, colors=colors)  # draws the board first, from the seeded random

    pygame.init()
    try:
        screen = pygame.display.set_mode((WIDTH, HEIGHT))
        pygame.display.set_caption("Tile Match")
        clock = pygame.time.Clock()
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
            game.update()
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
    parser = argparse.ArgumentParser(prog="python -m playtester.games.tilematch", description="Tile Match")
    parser.add_argument("--fps", type=int, default=DEFAULT_FPS, help="frame-rate cap, 0 = unlimited")
    parser.add_argument("--frames", type=int, default=None, help="quit after this many frames")
    parser.add_argument("--moves", type=int, default=30, help="matching swaps before the game ends")
    parser.add_argument("--colors", type=int, default=6, help=f"tile colours, {MIN_COLORS}..{MAX_COLORS}")
    return parser.parse_args(None if argv is None else list(argv))


if __name__ == "__main__":
    _args = _parse_args()
    main(fps=_args.fps, max_frames=_args.frames, moves=_args.moves, colors=_args.colors)
