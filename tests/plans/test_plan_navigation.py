"""A* and approach tiles on small grids (pure functions of the path navigator)."""

from __future__ import annotations

from playtester.plans.navigation import NavState, PathNavigator, Task, approach, astar, plan_route

MOVES = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def grid(rows):
    return [[ch != "#" for ch in row] for row in rows]


ROOMS = grid([
    "#######",
    "#..#..#",
    "#..#..#",
    "#.....#",
    "#######",
])


def test_astar_goes_around_walls():
    path = astar(ROOMS, (1, 1), {(5, 1)}, MOVES)
    assert path is not None and len(path) == 8  # down 2, right 4, up 2
    x, y = 1, 1
    for m in path:
        dx, dy = MOVES[m]
        x, y = x + dx, y + dy
        assert ROOMS[y][x]
    assert (x, y) == (5, 1)


def test_astar_none_when_sealed():
    sealed = grid(["#####", "#.#.#", "#####"])
    assert astar(sealed, (1, 1), {(3, 1)}, MOVES) is None


def test_facing_route_ends_with_a_step_towards_the_target():
    task = Task((3.0, 1.0), 1.0, face=True)  # the wall tile (3, 1): reach it from the left, facing right
    state = NavState((1.0, 2.0), "down", ROOMS, MOVES)
    route, end = plan_route(task, state)
    assert route is not None and route[-1] in ("right", "up", "down")
    cands = approach(task, state)
    assert ((2, 1), "right") in cands


def test_path_navigator_unreachable_goes_to_closest_tile():
    sealed = grid(["#######", "#..#..#", "#######"])
    nav = PathNavigator()
    d = nav.step(Task((5.0, 1.0), 1.0, label="x"), NavState((1.0, 1.0), None, sealed, MOVES))
    assert d.kind == "unreachable" and d.move == "right" and "closest reachable tile (2, 1)" in d.reason
    d = nav.step(Task((5.0, 1.0), 1.0, label="x"), NavState((2.0, 1.0), None, sealed, MOVES))
    assert d.kind == "unreachable" and d.move is None


def test_avoided_actors_make_paths_detour():
    open_room = grid(["#######", "#.....#", "#.....#", "#.....#", "#######"])
    state = NavState((1.0, 2.0), None, open_room, MOVES, avoid=[(3.0, 2.0)])
    route, _ = plan_route(Task((5.0, 2.0), 0.0), state)
    plain, _ = plan_route(Task((5.0, 2.0), 0.0), NavState((1.0, 2.0), None, open_room, MOVES))
    assert plain == ["right"] * 4
    assert route is not None and route != plain and len(route) >= 4
