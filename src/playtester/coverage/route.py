"""Coverage of a preferred route and objects seen: the measures of an explorer against demonstrations.

- `RouteCoverage`: the share of a route's cells (tiles the route passes through) that the player came
  near (within ``reach`` cells, Chebyshev distance) in any of the episodes it was given.
- `ObjectsSeen`: the distinct objects of interest that were in view, by the ground truth of the game's
  entities (those of the wanted kinds with a ``screen_box`` at least ``min_height`` pixels tall).

Both read `Observation`s (or plain positions), so they work for any game that reports the player's position
(`PositionMap`'s sources) and entities with screen boxes (the park's objects, ViZDoom's labels buffer).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from playtester.coverage.maps import PositionMap
from playtester.drive.observation import Observation

__all__ = ["ObjectsSeen", "RouteCoverage"]


class RouteCoverage:
    """How much of a route the player walked.

    Args:
        route: the route's cells ``(cx, cy)`` in the position's units divided by ``cell`` (e.g. tiles).
        cell: cell size of the positions (1.0: positions are already in tiles).
        reach: a route cell counts as covered when a visited position's cell is within this many cells of
            it (Chebyshev distance: 1 = the cell or one of its 8 neighbours).
        source: where the player's position comes from (`PositionMap`'s ``source``).
    """

    def __init__(self, route: Iterable[Sequence[int]], cell: float = 1.0, reach: int = 1,
                 source: str = "auto") -> None:
        self.route = [(int(c[0]), int(c[1])) for c in route]
        if not self.route:
            raise ValueError("RouteCoverage: the route has no cells")
        self.cell, self.reach = cell, reach
        self.positions = PositionMap(cell, source)
        self.visited: set[tuple[int, int]] = set()

    def add(self, obs: Observation) -> None:
        """Count the player's position in ``obs`` (an observation without one is skipped)."""
        pos = self.positions.position(obs)
        if pos is not None:
            self.add_position(pos)

    def add_position(self, pos: Sequence[float]) -> None:
        if math.isfinite(pos[0]) and math.isfinite(pos[1]):
            self.visited.add((math.floor(pos[0] / self.cell), math.floor(pos[1] / self.cell)))

    def covered(self) -> list[tuple[int, int]]:
        """The route's cells covered so far."""
        r = self.reach
        return [c for c in self.route
                if any((c[0] + dx, c[1] + dy) in self.visited for dx in range(-r, r + 1) for dy in range(-r, r + 1))]

    @property
    def share(self) -> float:
        """Covered route cells over all route cells (0..1)."""
        return len(self.covered()) / len(self.route)


class ObjectsSeen:
    """Distinct objects of interest in view, from the entities' ground-truth screen boxes.

    Args:
        kinds: entity kinds that are objects of interest.
        min_height: the smallest box height (screen pixels) that counts as seen.
    """

    def __init__(self, kinds: Iterable[str], min_height: float = 8.0) -> None:
        self.kinds = set(kinds)
        self.min_height = min_height
        self.seen: dict[str, str] = {}  # entity id -> kind

    def add(self, obs: Observation) -> list[str]:
        """Note the objects in view in ``obs``; returns the ids seen for the first time."""
        new = []
        for key, e in obs.entities.items():
            if e.kind not in self.kinds:
                continue
            box = e.attrs.get("screen_box")
            if box is None or float(box[3]) - float(box[1]) < self.min_height:
                continue
            if key not in self.seen:
                self.seen[key] = e.kind
                new.append(key)
        return new

    def by_kind(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for kind in self.seen.values():
            out[kind] = out.get(kind, 0) + 1
        return dict(sorted(out.items()))

    def __len__(self) -> int:
        return len(self.seen)
