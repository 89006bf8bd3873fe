"""Navigation strategies of the plan agent: ``teleport``, ``path`` and ``learned``.

Each step the agent asks its navigator how to get to the current target (a node's or a rule's); the
answer is a move (one of the plan config's moves, performed with the game's normal inputs), a teleport
(through the ``teleport`` hook the game registers, run in the game process), ``arrived``, or
``unreachable`` (with the reason; the agent then acts where it is, as a person would report "out of
reach", and the action's validation decides).

- `TeleportNavigator`: puts the player on an approach tile with the game's ``teleport(x, y)`` hook.
- `PathNavigator`: A* over the walkable grid the game exposes with its ``walkable()`` hook, re-planned
  every step (targets and actors move; a door that opens changes the grid); tiles next to actors of the
  config's ``avoid`` kinds cost more.
- `LearnedNavigator` (`playtester.plans.learned`): a small PPO policy that sees a local grid sensor and
  the direction to its target.

Coordinates are the game's world units; a grid game's tiles are ``(round(x), round(y))``.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

Cell = tuple[int, int]
Grid = Sequence[Sequence[bool]]


@dataclass
class Task:
    """Where the agent wants to be: near ``pos`` (within ``tolerance``), optionally facing it."""

    pos: tuple[float, float]
    tolerance: float
    face: bool = False
    label: str = ""
    actor_id: str | None = None


@dataclass
class Decision:
    """What a navigator says: ``move`` (with the move's name), ``teleport`` (to ``cell``), ``arrived``,
    ``unreachable`` (``reason``; ``move`` may still bring the player closer), ``wait``."""

    kind: str
    move: str | None = None
    cell: Cell | None = None
    reason: str = ""


@dataclass
class NavState:
    """What a navigator may look at: the player, its facing, the grid, other actors."""

    player: tuple[float, float]
    facing: str | None
    grid: Grid | None
    moves: dict[str, tuple[int, int]]
    avoid: list[tuple[float, float]] = field(default_factory=list)

    @property
    def cell(self) -> Cell:
        return (int(round(self.player[0])), int(round(self.player[1])))


def free(grid: Grid | None, cell: Cell) -> bool:
    if grid is None:
        return True
    x, y = cell
    return 0 <= y < len(grid) and 0 <= x < len(grid[y]) and bool(grid[y][x])


def approach(task: Task, state: NavState) -> list[tuple[Cell, str | None]]:
    """The tiles the player may act from, with the move that must bring it there when it must face the
    target (``(tile, move)``; move None: any way in)."""
    tx, ty = task.pos
    tcell = (int(round(tx)), int(round(ty)))
    out: list[tuple[Cell, str | None]] = []
    if task.face:
        for name, (dx, dy) in state.moves.items():
            g = (tcell[0] - dx, tcell[1] - dy)
            if free(state.grid, g) and g != tcell:
                out.append((g, name))
        return out
    r = int(math.ceil(task.tolerance)) + 1
    for y in range(tcell[1] - r, tcell[1] + r + 1):
        for x in range(tcell[0] - r, tcell[0] + r + 1):
            if math.hypot(x - tx, y - ty) <= task.tolerance + 1e-9 and free(state.grid, (x, y)):
                out.append(((x, y), None))
    return out


def arrived(task: Task, state: NavState) -> bool:
    px, py = state.player
    if task.face:
        return any(state.cell == g and state.facing == m for g, m in approach(task, state))
    return math.hypot(px - task.pos[0], py - task.pos[1]) <= task.tolerance + 1e-6


def _step_back(cell: Cell, move: str, moves: dict[str, tuple[int, int]]) -> Cell:
    dx, dy = moves[move]
    return (cell[0] - dx, cell[1] - dy)


def astar(grid: Grid, start: Cell, goals: set[Cell], moves: dict[str, tuple[int, int]],
          penalty: dict[Cell, float] | None = None) -> list[str] | None:
    """Cheapest list of moves from ``start`` to any of ``goals`` over walkable tiles (A*, Manhattan
    heuristic to the nearest goal). None when no goal is reachable."""
    if not goals:
        return None
    if start in goals:
        return []
    goal_list = list(goals)

    def h(c: Cell) -> float:
        return min(abs(c[0] - g[0]) + abs(c[1] - g[1]) for g in goal_list) if len(goal_list) < 32 else 0.0

    best: dict[Cell, float] = {start: 0.0}
    came: dict[Cell, tuple[Cell, str]] = {}
    heap: list[tuple[float, int, Cell]] = [(h(start), 0, start)]
    order = 0
    while heap:
        _, _, cell = heapq.heappop(heap)
        if cell in goals:
            path: list[str] = []
            while cell != start:
                cell, move = came[cell][0], came[cell][1]
                path.append(move)
            return path[::-1]
        g0 = best[cell]
        for name, (dx, dy) in moves.items():
            nxt = (cell[0] + dx, cell[1] + dy)
            if not free(grid, nxt):
                continue
            cost = g0 + 1.0 + (penalty.get(nxt, 0.0) if penalty else 0.0)
            if cost < best.get(nxt, math.inf):
                best[nxt] = cost
                came[nxt] = (cell, name)
                order += 1
                heapq.heappush(heap, (cost + h(nxt), order, nxt))
    return None


def reachable(grid: Grid, start: Cell, moves: dict[str, tuple[int, int]]) -> dict[Cell, int]:
    """Walking distance from ``start`` to every reachable tile."""
    from collections import deque

    dist = {start: 0}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        for dx, dy in moves.values():
            n = (c[0] + dx, c[1] + dy)
            if n not in dist and free(grid, n):
                dist[n] = dist[c] + 1
                queue.append(n)
    return dist


def _penalties(state: NavState, target: tuple[float, float]) -> dict[Cell, float]:
    out: dict[Cell, float] = {}
    for ax, ay in state.avoid:
        if math.hypot(ax - target[0], ay - target[1]) < 0.5:
            continue
        c = (int(round(ax)), int(round(ay)))
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                n = (c[0] + dx, c[1] + dy)
                out[n] = out.get(n, 0.0) + (6.0 if (dx, dy) == (0, 0) else 2.0)
    return out


def plan_route(task: Task, state: NavState) -> tuple[list[str] | None, Cell | None]:
    """Moves that bring the player to act on ``task`` (ending with the facing move), and the tile."""
    assert state.grid is not None
    cands = approach(task, state)
    penalty = _penalties(state, task.pos)
    start = state.cell
    if task.face:
        pre = {}
        for g, m in cands:
            assert m is not None
            p = _step_back(g, m, state.moves)
            if free(state.grid, p):
                pre[p] = m
        route = astar(state.grid, start, set(pre), state.moves, penalty)
        if route is None:
            return None, None
        end = start
        for mv in route:
            dx, dy = state.moves[mv]
            end = (end[0] + dx, end[1] + dy)
        return [*route, pre[end]], end
    goals = {g for g, _ in cands}
    route = astar(state.grid, start, goals, state.moves, penalty)
    return route, None if route is None else start


def closest_reachable(task: Task, state: NavState) -> Cell | None:
    """The reachable tile closest to the target (where a tester would stand when it is out of reach)."""
    assert state.grid is not None
    dist = reachable(state.grid, state.cell, state.moves)
    if not dist:
        return None
    return min(dist, key=lambda c: (math.hypot(c[0] - task.pos[0], c[1] - task.pos[1]), dist[c], c))


class Navigator:
    """Base class: ``step(task, state) -> Decision``."""

    name = "base"
    needs_grid = False

    def reset(self) -> None:
        pass

    def step(self, task: Task, state: NavState) -> Decision:  # pragma: no cover - interface
        raise NotImplementedError


class PathNavigator(Navigator):
    """A* over the game's walkable grid, re-planned every step."""

    name = "path"
    needs_grid = True

    def step(self, task: Task, state: NavState) -> Decision:
        if arrived(task, state):
            return Decision("arrived")
        if state.grid is None:
            return Decision("unreachable", reason="the game exposes no walkable grid (probe.hook('walkable', ...))")
        route, _ = plan_route(task, state)
        if route:
            return Decision("move", move=route[0])
        if route == [] and not task.face:
            return Decision("arrived")
        near = closest_reachable(task, state)
        if near is None or near == state.cell:
            return Decision("unreachable", reason=f"no reachable tile within {task.tolerance:g} of "
                            f"{task.label or task.pos}; the closest reachable tile is {state.cell}")
        to_near = astar(state.grid, state.cell, {near}, state.moves)
        return Decision("unreachable", move=to_near[0] if to_near else None,
                        reason=f"no reachable tile within {task.tolerance:g} of {task.label or task.pos}; "
                        f"going to the closest reachable tile {near}")


class TeleportNavigator(Navigator):
    """Teleport through the game's ``teleport`` hook to an approach tile (then one facing step)."""

    name = "teleport"
    needs_grid = True  # optional: used to pick standable tiles when the game offers it

    def __init__(self) -> None:
        self.tried: set[Cell] = set()

    def reset(self) -> None:
        self.tried = set()

    def step(self, task: Task, state: NavState) -> Decision:
        if arrived(task, state):
            return Decision("arrived")
        cands = approach(task, state)
        if task.face:
            for g, m in cands:
                assert m is not None
                p = _step_back(g, m, state.moves)
                if state.cell == p:
                    return Decision("move", move=m)
            spots = [_step_back(g, m, state.moves) for g, m in cands if m is not None]
            spots = [p for p in spots if free(state.grid, p)]
        else:
            spots = [g for g, _ in cands]
        spots = [s for s in spots if s not in self.tried]
        spots.sort(key=lambda c: (math.hypot(c[0] - task.pos[0], c[1] - task.pos[1]), c))
        if not spots:
            return Decision("unreachable", reason=f"no tile the teleport hook accepts within {task.tolerance:g} "
                            f"of {task.label or task.pos}")
        self.tried.add(spots[0])
        return Decision("teleport", cell=spots[0])
