"""Coverage of a preferred route and objects seen (coverage/route.py), on plain observations."""

from __future__ import annotations

import pytest

from playtester.coverage.route import ObjectsSeen, RouteCoverage
from playtester.drive.observation import Entity, Observation


def at(x: float, y: float, **entities: tuple[str, list[int] | None]) -> Observation:
    ents = {"player": Entity("player", "player", (x, y), {})}
    for key, (kind, box) in entities.items():
        ents[key] = Entity(key, kind, (0.0, 0.0), {"screen_box": box})
    return Observation(frame=None, entities=ents)


def test_route_cells_count_when_the_player_came_within_reach():
    route = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0), (9, 0)]
    cover = RouteCoverage(route, reach=1)
    assert cover.share == 0.0
    cover.add(at(0.5, 0.5))
    assert cover.covered() == [(0, 0), (1, 0)]  # its own cell and the next one (Chebyshev 1)
    cover.add(at(5.2, 1.9))  # one row off the route: cells 4, 5, 6 are within one cell
    assert cover.share == pytest.approx(0.5)
    cover.add(at(9.5, 3.5))  # three rows off: too far
    assert cover.share == pytest.approx(0.5)
    cover.add(Observation(frame=None))  # no position: skipped
    exact = RouteCoverage(route, reach=0)
    for x in (0.5, 1.5, 5.2):
        exact.add_position((x, 0.4))
    assert exact.share == pytest.approx(0.3)
    tiles = RouteCoverage([(0, 0), (1, 0)], cell=32.0, reach=0)  # positions in map units, cells of 32
    tiles.add_position((40.0, 10.0))
    assert tiles.covered() == [(1, 0)]
    with pytest.raises(ValueError, match="no cells"):
        RouteCoverage([])


def test_objects_seen_are_distinct_wanted_kinds_with_a_tall_enough_box():
    seen = ObjectsSeen(["barrel", "pillar"], min_height=8)
    assert seen.add(at(0, 0, a=("barrel", [0, 0, 5, 10]), b=("barrel", [0, 0, 5, 7]), c=("tree", [0, 0, 9, 40]),
                       d=("pillar", None))) == ["a"]  # b too small, c not wanted, d off screen
    assert seen.add(at(0, 0, a=("barrel", [0, 0, 5, 30]), d=("pillar", [10, 10, 20, 30]))) == ["d"]
    assert len(seen) == 2 and seen.by_kind() == {"barrel": 1, "pillar": 1}
