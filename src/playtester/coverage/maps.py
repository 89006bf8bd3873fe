"""Position map: where the player has been, as visit counts over a grid of cells."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from playtester.drive.observation import Observation

__all__ = ["PLAYER_NAMES", "PositionMap"]

PLAYER_NAMES = ("player", "robot", "agent")
"""Entity ids or kinds that ``source="auto"`` takes for the player, in this order."""


class PositionMap:
    """Visit counts over the player's position, as the game reports it through the probe.

    Position sources:

    - ``"features"``: the ``x`` and ``y`` features (``probe.observe``).
    - ``"entity:NAME"``: the entity whose id is NAME, else the first whose kind is NAME (``probe.entity``).
    - ``"auto"``: entity ``player``, ``robot``, ``agent`` (each by id, then by kind), then features x/y.

    A position ``(x, y)`` is counted in cell ``(floor(x / cell), floor(y / cell))``.

    Args:
        cell: cell size in the game's units (1.0 suits grid games; use e.g. 16 or 32 for pixels).
        source: where to read the position from.

    Attributes:
        cell: the cell size.
        source: the position source.
        missed: observations that had no position.

    Raises:
        ValueError: ``cell <= 0`` or an unknown source.
    """

    def __init__(self, cell: float = 1.0, source: str = "auto") -> None:
        if not cell > 0:
            raise ValueError(f"PositionMap: cell must be positive, got {cell}")
        if source not in ("auto", "features") and not (source.startswith("entity:") and len(source) > 7):
            raise ValueError(
                f"PositionMap: source must be 'auto', 'features' or 'entity:NAME', got {source!r}"
            )
        self.cell = cell
        self.source = source
        self.missed = 0
        self._counts: dict[tuple[int, int], int] = {}

    def position(self, obs: Observation) -> tuple[float, float] | None:
        """The player's position in ``obs`` according to `source`, or None when it has none."""
        if self.source == "features":
            return _feature_position(obs)
        if self.source == "auto":
            for name in PLAYER_NAMES:
                pos = _entity_position(obs, name)
                if pos is not None:
                    return pos
            return _feature_position(obs)
        return _entity_position(obs, self.source[len("entity:") :])

    def add(self, obs: Observation) -> bool:
        """Count the cell of the player's position; True when the cell was not visited before."""
        pos = self.position(obs)
        if pos is None or not (math.isfinite(pos[0]) and math.isfinite(pos[1])):
            self.missed += 1
            return False
        cell = (math.floor(pos[0] / self.cell), math.floor(pos[1] / self.cell))
        n = self._counts.get(cell, 0)
        self._counts[cell] = n + 1
        return n == 0

    @property
    def counts(self) -> dict[tuple[int, int], int]:
        """Visits per cell ``(cx, cy)`` (a copy)."""
        return dict(self._counts)

    @property
    def cells(self) -> int:
        """Number of distinct cells visited."""
        return len(self._counts)

    def to_array(self) -> tuple[np.ndarray, tuple[int, int]]:
        """The counts as a 2-D int64 array and the cell at its corner.

        Returns:
            ``(array, (min_x, min_y))`` where ``array[cy - min_y, cx - min_x]`` is the visit count of cell
            ``(cx, cy)``: rows are y, columns are x, as on screen. An empty map gives a (0, 0) array and
            ``(0, 0)``.
        """
        if not self._counts:
            return np.zeros((0, 0), dtype=np.int64), (0, 0)
        xs = [x for x, _ in self._counts]
        ys = [y for _, y in self._counts]
        min_x, min_y = min(xs), min(ys)
        grid = np.zeros((max(ys) - min_y + 1, max(xs) - min_x + 1), dtype=np.int64)
        for (x, y), n in self._counts.items():
            grid[y - min_y, x - min_x] = n
        return grid, (min_x, min_y)

    def merge(self, other: PositionMap) -> None:
        """Add another map's counts (e.g. another worker's) into this one.

        Raises:
            ValueError: the maps use different cell sizes.
        """
        if other.cell != self.cell:
            raise ValueError(
                f"cannot merge a position map with cell {other.cell} into one with cell {self.cell}"
            )
        for cell, n in other._counts.items():
            self._counts[cell] = self._counts.get(cell, 0) + n
        self.missed += other.missed

    def to_records(self) -> list[tuple[int, int, int]]:
        """``[(cx, cy, visits), ...]`` sorted by cell: plain data for storing a campaign."""
        return sorted((x, y, n) for (x, y), n in self._counts.items())

    @classmethod
    def from_records(
        cls, records: Iterable[Sequence[int]], cell: float = 1.0, source: str = "auto"
    ) -> PositionMap:
        """Rebuild a map from `to_records` output (lists are fine, as after JSON).

        Args:
            records: ``(cx, cy, visits)`` triples.
            cell: the cell size the records were made with.
            source: the position source for further `add` calls.
        """
        pmap = cls(cell=cell, source=source)
        for x, y, n in records:
            key = (int(x), int(y))
            pmap._counts[key] = pmap._counts.get(key, 0) + int(n)
        return pmap


def _feature_position(obs: Observation) -> tuple[float, float] | None:
    features = obs.features
    if "x" in features and "y" in features:
        return float(features["x"]), float(features["y"])
    return None


def _entity_position(obs: Observation, name: str) -> tuple[float, float] | None:
    entity = obs.entities.get(name)
    if entity is None:
        entity = next((e for e in obs.entities.values() if e.kind == name), None)
    if entity is None or entity.pos is None:
        return None
    return float(entity.pos[0]), float(entity.pos[1])
