"""Position map: where the player was, from probe entities or x/y features."""

from __future__ import annotations

import json

import numpy as np
import pytest

from playtester.coverage import PositionMap
from playtester.drive.observation import Entity, Observation


def at(x: float, y: float) -> Observation:
    return Observation(frame=None, features={"x": x, "y": y})


def with_entity(eid: str, kind: str, pos, features=None) -> Observation:
    return Observation(frame=None, features=features or {}, entities={eid: Entity(eid, kind, pos, {})})


def test_counts_cells_from_features():
    pm = PositionMap(source="features")
    assert pm.add(at(1, 2)) is True
    assert pm.add(at(1.7, 2.2)) is False  # same cell (1, 2)
    assert pm.add(at(-0.5, 0)) is True  # floor: cell (-1, 0)
    assert pm.add(Observation(frame=None)) is False
    assert pm.counts == {(1, 2): 2, (-1, 0): 1}
    assert pm.cells == 2 and pm.missed == 1


def test_cell_size_groups_positions():
    pm = PositionMap(cell=32, source="features")
    for x, y in [(0, 0), (31.9, 10), (32, 10), (100, 70)]:
        pm.add(at(x, y))
    assert pm.counts == {(0, 0): 2, (1, 0): 1, (3, 2): 1}


def test_auto_prefers_player_entity_then_features():
    pm = PositionMap()
    assert pm.position(with_entity("player", "player", (5.0, 6.0), {"x": 1, "y": 1})) == (5.0, 6.0)
    assert pm.position(with_entity("hero", "robot", (7.0, 8.0))) == (7.0, 8.0)  # matched by kind
    assert pm.position(with_entity("e1", "enemy", (7.0, 8.0), {"x": 1, "y": 2})) == (1.0, 2.0)
    assert pm.position(with_entity("player", "player", None, {"x": 3, "y": 4})) == (3.0, 4.0)
    assert pm.position(with_entity("e1", "enemy", (7.0, 8.0))) is None


def test_named_entity_source():
    pm = PositionMap(source="entity:ship")
    o = Observation(
        frame=None,
        features={"x": 1, "y": 1},
        entities={
            "player": Entity("player", "player", (0.0, 0.0), {}),
            "s": Entity("s", "ship", (4.0, 9.0), {}),
        },
    )
    assert pm.position(o) == (4.0, 9.0)
    assert pm.position(at(1, 1)) is None  # features are not used for an entity source


def test_bad_arguments():
    with pytest.raises(ValueError):
        PositionMap(cell=0)
    with pytest.raises(ValueError):
        PositionMap(source="entity:")
    with pytest.raises(ValueError):
        PositionMap(source="mouse")


def test_array_rows_are_y_and_origin_is_min_cell():
    pm = PositionMap(source="features")
    for x, y in [(2, 5), (2, 5), (4, 5), (2, 8)]:
        pm.add(at(x, y))
    grid, (min_x, min_y) = pm.to_array()
    assert (min_x, min_y) == (2, 5)
    assert grid.shape == (4, 3)  # y spans 5..8 (rows), x spans 2..4 (columns)
    assert grid[0, 0] == 2 and grid[0, 2] == 1 and grid[3, 0] == 1
    assert grid.sum() == 4
    assert np.count_nonzero(grid) == 3


def test_empty_array():
    grid, origin = PositionMap().to_array()
    assert grid.shape == (0, 0) and origin == (0, 0)


def test_merge_and_records():
    a, b = PositionMap(source="features"), PositionMap(source="features")
    a.add(at(0, 0))
    b.add(at(0, 0))
    b.add(at(3, 1))
    a.merge(b)
    assert a.counts == {(0, 0): 2, (3, 1): 1}
    records = a.to_records()
    assert records == [(0, 0, 2), (3, 1, 1)]
    back = PositionMap.from_records(json.loads(json.dumps(records)), source="features")
    assert back.counts == a.counts
    with pytest.raises(ValueError):
        a.merge(PositionMap(cell=2))
