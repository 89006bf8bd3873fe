"""Tests of the bundled park: layout, the 9 actions, collisions, objects' screen boxes and texture bugs,
all through playtester's real driver (a Worker running ``playtester.games.park``)."""

from __future__ import annotations

import math
import os
import random
import re

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from gamekit import ROOT, run_headless  # noqa: E402

from playtester.games import park as pk  # noqa: E402

GAMES = ROOT / "src" / "playtester" / "games"
LAYOUT = pk.generate_layout(0)
FPA = 4  # frames_per_action of park.toml


# ---- helpers ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def worker():
    from playtester.drive import Worker, resolve

    w = Worker(resolve("park"), capture="full")
    yield w
    w.close()


def hook(w, name, *args):
    status, value = w.call("playtester.plans.hooks:call_hook", name, *args)
    assert status == "ok", value
    return value


def place(w, x, y, angle, seed=0):
    """Reset, teleport to ``(x, y)`` facing ``angle`` degrees, and return the next frame's observation."""
    from playtester.drive import InputFrame

    w.reset(seed=seed)
    assert hook(w, "teleport", x, y, angle) is True
    return w.step(InputFrame(), frames=1)


def press(w, key, frames=FPA):
    from playtester.drive import InputFrame

    return w.step(InputFrame.make(keys=[key] if key else []), frames=frames)


def pose(obs):
    f = obs.features
    return f["x"], f["y"], f["angle"], f["pitch"], f["z"]


def open_spot(radius=3):
    """The first grass tile (row by row) with a clear square of ``radius`` tiles round it and no object near."""
    blocked = LAYOUT.blocked()
    for y in range(10, LAYOUT.size - 10):
        for x in range(10, LAYOUT.size - 10):
            if blocked[y - radius:y + radius + 1, x - radius:x + radius + 1].any():
                continue
            if any(math.hypot(o.x - x - 0.5, o.y - y - 0.5) < radius + 2 for o in LAYOUT.oois):
                continue
            return x + 0.5, y + 0.5
    raise AssertionError("no open spot")


def clear_line(x0, y0, x1, y1):
    """No tree, building or hedge between two points (sampled every 0.05 tile)."""
    solid = np.isin(LAYOUT.tiles, pk.SOLID_TILES)
    steps = int(math.hypot(x1 - x0, y1 - y0) / 0.05) + 1
    return not any(solid[int(y0 + (y1 - y0) * t / steps), int(x0 + (x1 - x0) * t / steps)] for t in range(steps + 1))


def viewpoint(o, face, dist):
    """Where to stand to see ``face`` of object ``o`` from ``dist`` tiles, and the angle to face it (degrees)."""
    a = o.yaw + face * 2 * math.pi / pk.N_FACES
    return o.x + dist * math.cos(a), o.y + dist * math.sin(a), math.degrees(a + math.pi) % 360


_FREE = pk.Park(layout_seed=0, start=None)


def can_view(o, face, dist):
    x, y, _ = viewpoint(o, face, dist)
    return _FREE.free_at(x, y) and clear_line(x, y, o.x, o.y)


def box_pixels(obs, box, fx=(0.3, 0.7), fy=(0.15, 0.45)):
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    return obs.frame[int(y0 + fy[0] * h):int(y0 + fy[1] * h), int(x0 + fx[0] * w):int(x0 + fx[1] * w)]


def colours(pixels):
    return len({tuple(p) for p in pixels.reshape(-1, 3).tolist()})


def transitions(pixels):
    """Colour changes between horizontal neighbours and between vertical neighbours, per pixel."""
    h = (pixels[:, 1:] != pixels[:, :-1]).any(axis=2).mean()
    v = (pixels[1:] != pixels[:-1]).any(axis=2).mean()
    return h, v


# ---- bugs list and layout ---------------------------------------------------------------------------------
def test_injected_bugs_match_the_docstring():
    section = pk.__doc__.split("Injected bugs (``INJECTED_BUGS``):")[1].split("\n\n")[0]
    documented = re.findall(r"^    ([a-z][a-z-]*(?:-k)?)\s+(texture|navigation)\s", section, re.M)
    expanded = []
    for name, kind in documented:
        if name.endswith("-k"):
            expanded += [(f"{name[:-2]}-{k}", kind) for k in range(pk.N_INVISIBLE_WALLS)]
        else:
            expanded.append((name, kind))
    assert [(b["id"], b["kind"]) for b in pk.INJECTED_BUGS] == expanded
    assert len(expanded) == 7 and all(b["description"] for b in pk.INJECTED_BUGS)
    # every navigation bug is in the generated park
    nav = {b["id"] for b in pk.INJECTED_BUGS if b["kind"] == "navigation"}
    for seed in range(4):
        assert set(pk.generate_layout(seed).bugs) == nav


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_layout_has_the_parks_areas_and_exactly_the_bugged_objects_unreachable(seed):
    lay = pk.generate_layout(seed)
    counts = {t: int((lay.tiles == t).sum()) for t in range(8)}
    assert counts[pk.PATH] > 300 and counts[pk.WATER] > 200 and counts[pk.BRIDGE] >= 12
    assert counts[pk.PAVED] > 100 and counts[pk.BUILDING] == 28 and counts[pk.TREE] > 200
    # the invisible walls are drawn as path or bridge
    assert all(lay.tiles[y, x] in (pk.PATH, pk.BRIDGE) for cells in lay.bugs.values() for x, y in cells)
    # without the navigation bugs every object could be reached; with them, those on the island and in the grove
    fair = pk.reachable_tiles(np.isin(lay.tiles, pk.BLOCKING_TILES), lay.start_tiles[0])
    real = pk.reachable_tiles(lay.blocked(), lay.start_tiles[0])
    assert all(fair[int(o.y), int(o.x)] for o in lay.oois)
    assert [o.reachable for o in lay.oois] == [bool(real[int(o.y), int(o.x)]) for o in lay.oois]
    assert {o.index for o in lay.oois if not o.reachable} == {o.index for o in lay.oois if o.area != "park"}
    assert sum(o.area != "park" for o in lay.oois) == 6
    # the start tiles: paths the player can walk, most of the park's paths
    assert all(real[y, x] and lay.tiles[y, x] == pk.PATH for x, y in lay.start_tiles)
    assert len(lay.start_tiles) > 0.8 * counts[pk.PATH]
    # about half of each type bugged, on 1 to 3 faces
    for kind in pk.OOI_TYPES:
        group = [o for o in lay.oois if o.kind == kind]
        assert len(group) >= pk.OOIS_PER_TYPE and sum(o.bugged for o in group) == len(group) // 2
        for o in group:
            assert sum(b != "none" for b in o.bug_faces) in ((1, 2, 3) if o.bugged else (0,))
    # objects stand near the paths: some on or beside them, some further
    path = np.argwhere(np.isin(lay.tiles, (pk.PATH, pk.BRIDGE)))
    offs = [np.abs(path - (int(o.y), int(o.x))).sum(axis=1).min() for o in lay.oois if o.area == "park"]
    assert min(offs) <= 1 and max(offs) >= 4 and max(offs) <= 10


def test_layout_is_fixed_by_the_layout_seed_only():
    random.seed(1)
    a = pk.generate_layout(3)
    after = random.random()
    random.seed(1)
    b = pk.generate_layout(3)
    assert random.random() == after  # the module random is left alone
    assert np.array_equal(a.tiles, b.tiles) and a.oois == b.oois and a.bugs == b.bugs
    assert not np.array_equal(a.tiles, pk.generate_layout(4).tiles)
    with pytest.raises(ValueError, match="layout_seed"):
        pk.generate_layout("3")


# ---- through the driver ----------------------------------------------------------------------------------
ACTIONS = {  # key -> (forward, right, turn degrees, pitch) per action of FPA frames
    "w": (1, 0, 0, 0), "s": (-1, 0, 0, 0), "a": (0, -1, 0, 0), "d": (0, 1, 0, 0),
    "LEFT": (0, 0, -12, 0), "RIGHT": (0, 0, 12, 0), "UP": (0, 0, 0, 24), "DOWN": (0, 0, 0, -24),
}


@pytest.mark.parametrize("key", [*ACTIONS, "SPACE"])
def test_every_action_changes_the_pose_as_expected(worker, key):
    x, y = open_spot()
    before = place(worker, x, y, 30)
    assert pose(before) == pytest.approx((x, y, 30, 0, 0))
    after = press(worker, key)
    x1, y1, angle, pitch, z = pose(after)
    assert not np.array_equal(before.frame, after.frame)  # the view changed
    if key == "SPACE":
        assert (x1, y1, angle, pitch) == pytest.approx((x, y, 30, 0)) and z > 0.1
        heights = [pose(press(worker, None, 1))[4] for _ in range(pk.JUMP_FRAMES)]
        assert max(heights) <= pk.JUMP_HEIGHT + 1e-9 and heights[-1] == 0  # a bob: up, then down again
        assert pose(press(worker, None, 1))[:2] == pytest.approx((x, y))
        return
    forward, right, turn, look = ACTIONS[key]
    a = math.radians(30)
    step = pk.MOVE_SPEED * FPA
    dx = step * (forward * math.cos(a) - right * math.sin(a))
    dy = step * (forward * math.sin(a) + right * math.cos(a))
    assert (x1, y1, angle, pitch, z) == pytest.approx((x + dx, y + dy, 30 + turn, look, 0), abs=1e-6)
    assert after.features["on_path"] == 0


def test_moves_follow_the_facing_after_turning(worker):
    x, y = open_spot()
    place(worker, x, y, 0)
    for _ in range(90 // 12 + 1):  # 96 degrees: about south
        obs = press(worker, "RIGHT")
    assert obs.features["angle"] == pytest.approx(96)
    obs = press(worker, "w")
    a = math.radians(96)
    assert pose(obs)[:2] == pytest.approx((x + 0.24 * math.cos(a), y + 0.24 * math.sin(a)))


def _approach(kind_tile):
    """A tile of ``kind_tile`` with three walkable grass tiles west of it in its row, free of objects."""
    blocked = LAYOUT.blocked()
    for y in range(4, LAYOUT.size - 4):
        for x in range(6, LAYOUT.size - 4):
            if LAYOUT.tiles[y, x] != kind_tile or LAYOUT.invisible[y, x]:
                continue
            row = LAYOUT.tiles[y, x - 3:x]
            if (row == pk.GRASS).all() and not blocked[y, x - 3:x].any() and not blocked[y - 1:y + 2, x - 3:x].any():
                if all(math.hypot(o.x - x, o.y - y) > 4 for o in LAYOUT.oois):
                    return x, y
    raise AssertionError(f"no approach to tile type {kind_tile}")


@pytest.mark.parametrize("tile", [pk.WATER, pk.TREE])
def test_lakes_and_trees_block_walking(worker, tile):
    tx, ty = _approach(tile)
    place(worker, tx - 2.5, ty + 0.5, 0)
    for _ in range(15):  # 3.6 tiles east if nothing were there
        obs = press(worker, "w")
    x, y = pose(obs)[:2]
    assert x == pytest.approx(tx - pk.PLAYER_RADIUS, abs=pk.MOVE_SPEED + 1e-6) and x < tx - pk.PLAYER_RADIUS + 1e-9
    assert y == pytest.approx(ty + 0.5)


@pytest.mark.parametrize("k", range(pk.N_INVISIBLE_WALLS))
def test_invisible_wall_blocks_where_the_map_shows_a_path(worker, k):
    (ax, ay), (bx, by) = LAYOUT.bugs[f"invisible-wall-{k}"]
    rows = hook(worker, "layout")["rows"]
    walkable = hook(worker, "walkable")
    paths = {tuple(t) for t in hook(worker, "pathways")}
    for x, y in ((ax, ay), (bx, by)):
        assert rows[y][x] == "=" and (x, y) in paths and walkable[y][x] is False
        assert walkable[y][x - 3] if ax == bx else walkable[y - 3][x]  # the path before it is walkable
    if ax == bx:  # a wall across a horizontal path: walk east along the path into it
        start, angle = (ax - 2.5, ay + 1.0), 0
    else:
        start, angle = (ax + 1.0, ay - 2.5), 90
    obs = place(worker, *start, angle)
    assert obs.features["on_path"] == 1
    for _ in range(15):
        obs = press(worker, "w")
    x, y = pose(obs)[:2]
    if ax == bx:
        assert x == pytest.approx(ax - pk.PLAYER_RADIUS, abs=pk.MOVE_SPEED) and y == pytest.approx(start[1])
    else:
        assert y == pytest.approx(ay - pk.PLAYER_RADIUS, abs=pk.MOVE_SPEED) and x == pytest.approx(start[0])
    assert obs.features["on_path"] == 1


def _open_object():
    """A reachable object that can be seen from face 0 at 1.5 and 4 tiles."""
    for o in LAYOUT.oois:
        if o.reachable and can_view(o, 0, 1.5) and can_view(o, 0, 4.0):
            return o
    raise AssertionError("no object in the open")


def test_screen_boxes_only_when_on_screen_and_smaller_when_far(worker):
    o = _open_object()
    boxes = {}
    for dist in (1.5, 4.0):
        x, y, angle = viewpoint(o, 0, dist)
        obs = place(worker, x, y, angle)
        e = obs.entities[o.id]
        assert e.kind == o.kind and e.attrs["face"] == 0 and e.attrs["distance"] == pytest.approx(dist, abs=1e-3)
        box = e.attrs["screen_box"]
        x0, y0, x1, y1 = box
        assert 0 <= x0 < 320 < x1 <= pk.SCREEN_W and 0 <= y0 < y1 <= pk.SCREEN_H  # ahead, in the middle
        boxes[dist] = box
        assert obs.features["visible"] >= 1
        # facing away: no box, no face; turned 60 degrees (the field of view is about 67): none either
        for turn in (180, 60, -60):
            assert hook(worker, "teleport", x, y, angle + turn) is True
            away = press(worker, None, 1)
            assert away.entities[o.id].attrs["screen_box"] is None and away.entities[o.id].attrs["face"] is None
    near, far = boxes[1.5], boxes[4.0]
    hn, hf = near[3] - near[1], far[3] - far[1]
    wn, wf = near[2] - near[0], far[2] - far[0]
    assert hf < hn and wf < wn
    if near[1] > 0:  # not clipped at the top of the window: heights go as 1 / distance
        assert hn / hf == pytest.approx(4.0 / 1.5, rel=0.1)


def test_walls_hide_objects(worker):
    """An object behind a tree has no screen box, though it is in the field of view."""
    solid = np.isin(LAYOUT.tiles, pk.SOLID_TILES)
    for o in LAYOUT.oois:
        if not o.reachable:
            continue
        for face in range(pk.N_FACES):
            for dist in (3.0, 4.0, 5.0):
                x, y, angle = viewpoint(o, face, dist)
                if not _FREE.free_at(x, y) or clear_line(x, y, o.x, o.y):
                    continue
                # hidden: every sample of the line of sight hits the same tree tile's column of view
                mx, my = (x + o.x) / 2, (y + o.y) / 2
                if not solid[int(my), int(mx)]:
                    continue
                obs = place(worker, x, y, angle)
                assert obs.entities[o.id].attrs["screen_box"] is None, (o.id, face, dist)
                return
    pytest.skip("no object behind a tree in this layout")


def _bugged_views(kind_of_bug):
    """(object, bugged face, normal face) seen from 1.5 tiles, not tires (their middle is a hole)."""
    for o in LAYOUT.oois:
        if o.kind == "tire" or not o.reachable:
            continue
        bad = [f for f in range(pk.N_FACES) if o.bug_faces[f] == kind_of_bug and can_view(o, f, 1.5)]
        good = [f for f in range(pk.N_FACES) if o.bug_faces[f] == "none" and can_view(o, f, 1.5)]
        if bad and good:
            return o, bad[0], good[0]
    raise AssertionError(f"no viewable {kind_of_bug} face")


def _look(worker, o, face):
    obs = place(worker, *viewpoint(o, face, 1.5))
    e = obs.entities[o.id]
    assert e.attrs["face"] == face and e.attrs["screen_box"] is not None
    assert face in e.attrs["seen_faces"]  # near and big enough: the face counts as seen
    return box_pixels(obs, e.attrs["screen_box"]), e


def test_a_lowres_face_shows_blocky_pixels_and_the_normal_face_does_not(worker):
    o, bad, good = _bugged_views("lowres")
    low, e = _look(worker, o, bad)
    normal, _ = _look(worker, o, good)
    assert e.attrs["bug_faces"][bad] == "lowres" and e.attrs["bugged"] is True
    assert colours(normal) > 150
    assert colours(low) < 40 and colours(normal) > 4 * colours(low)


def test_a_stretched_face_shows_wide_texels_and_the_normal_face_does_not(worker):
    o, bad, good = _bugged_views("stretched")
    wide, e = _look(worker, o, bad)
    normal, _ = _look(worker, o, good)
    assert e.attrs["bug_faces"][bad] == "stretched"
    h, v = transitions(normal)
    assert 0.6 < h / v < 1.6  # square texels
    h, v = transitions(wide)
    assert v / h > 2.0  # texels three times wider than tall


def _all_round_object():
    """A reachable object whose every face can be seen from 2 to 3 tiles."""
    for o in LAYOUT.oois:
        if o.reachable and all(any(can_view(o, f, d) for d in (2.0, 2.5, 3.0)) for f in range(pk.N_FACES)):
            return o
    raise AssertionError("no object that can be seen from all round")


def test_an_object_is_tested_when_all_its_faces_are_seen_as_the_benches_count():
    # the game's rule is the one bench/park_baseline.py, bench/ppgta.py and the report's maps count: all 8 faces
    assert pk.TESTED_FACES == pk.N_FACES == 8


def test_faces_are_seen_only_near_and_an_object_is_tested_from_all_round(worker):
    o = _all_round_object()
    x, y, angle = viewpoint(o, 0, 8.0)
    if can_view(o, 0, 8.0):
        far = place(worker, x, y, angle)
        assert far.entities[o.id].attrs["screen_box"] is not None and far.entities[o.id].attrs["seen_faces"] == ()
    worker.reset(seed=0)
    events, faces, tested_at = [], [], []
    for face in range(pk.N_FACES):
        for dist in (2.0, 2.5, 3.0):
            if can_view(o, face, dist):
                assert hook(worker, "teleport", *viewpoint(o, face, dist)) is True
                obs = press(worker, None, 1)
                events += obs.events
                faces.append(face)
                tested_at.append(obs.features["oois_tested"])
                break
    assert faces == list(range(pk.N_FACES))
    attrs = obs.entities[o.id].attrs
    assert attrs["seen_faces"] == tuple(faces)
    seen = [ev.data for ev in events if ev.name == "face_seen" and ev.data["ooi"] == o.id]
    assert [s["face"] for s in seen] == faces and all(s["bug"] == o.bug_faces[s["face"]] for s in seen)
    # 7 faces seen do not make a test (the rule once said 6); the 8th does, once
    assert tested_at[:-1] == [0] * (pk.N_FACES - 1) and tested_at[-1] == 1
    assert [ev.data for ev in events if ev.name == "ooi_tested"] == [{"ooi": o.id}]
    assert obs.features["faces_seen"] >= len(faces)


def test_probe_reports_objects_pathways_and_the_unreachable(worker):
    obs = worker.reset(seed=4)
    assert [ev.data for ev in obs.events if ev.name == "layout"] == [
        {"size": 96, "layout_seed": 0, "oois": len(LAYOUT.oois), "path_tiles": len(LAYOUT.path_tiles()),
         "unreachable": 6}]
    x, y = obs.entities["player"].pos
    assert (int(x), int(y)) in set(LAYOUT.start_tiles) and obs.features["on_path"] == 1
    for o in LAYOUT.oois:
        e = obs.entities[o.id]
        assert e.kind == o.kind and e.pos == pytest.approx((o.x, o.y))
        assert e.attrs["reachable"] == o.reachable and e.attrs["bug_faces"] == tuple(o.bug_faces)
    assert sorted(map(tuple, hook(worker, "pathways"))) == LAYOUT.path_tiles()
    assert hook(worker, "teleport", 0.5, 0.5) is False  # the hedge


def test_start_is_drawn_from_the_episode_seed_or_fixed_by_a_game_arg():
    from playtester.drive import Worker, resolve

    starts = set()
    with Worker(resolve("park"), capture=None) as w:
        for seed in range(6):
            obs = w.reset(seed=seed)
            starts.add(pose(obs)[:3])
            if seed == 0:
                assert pose(w.reset(seed=0))[:3] == pose(obs)[:3]
    assert len(starts) >= 4
    x, y = open_spot()
    spec = resolve("park").with_config(game_args={"layout_seed": 0, "start": [x, y, 90]})
    with Worker(spec, capture=None) as w:
        assert pose(w.reset(seed=3))[:3] == pytest.approx((x, y, 90))


def test_same_seed_same_actions_same_frames():
    from playtester.drive import InputFrame, Worker, resolve

    rng = random.Random(5)
    keys = ["w", "a", "s", "d", "LEFT", "RIGHT", "UP", "DOWN", "SPACE"]
    plan = [rng.choice(keys) for _ in range(40)]

    def play(seed):
        with Worker(resolve("park"), capture="full") as w:
            obs = w.reset(seed=seed)
            out = [(obs.frame, obs.features, {k: e.attrs for k, e in obs.entities.items()})]
            for key in plan:
                obs = w.step(InputFrame.make(keys=[key]), frames=FPA)
                out.append((obs.frame, obs.features, {k: e.attrs for k, e in obs.entities.items()}))
            return out

    a, b, c = play(5), play(5), play(6)
    assert all(np.array_equal(fa, fb) and xa == xb and ea == eb for (fa, xa, ea), (fb, xb, eb) in zip(a, b, strict=True))
    assert len({f.tobytes() for f, _, _ in a}) > 10
    assert a[0][1] != c[0][1]  # another seed: another start


def test_config_and_action_space():
    from playtester.actions.manual import load_manual
    from playtester.drive import resolve

    cfg = resolve("park").config
    assert cfg.frames_per_action == FPA and cfg.max_episode_steps == 2000
    assert cfg.coverage["position"] == "entity:player" and cfg.game_args == {"layout_seed": 0}
    space = load_manual(GAMES / "park.actions.yaml", cfg.blacklist)
    assert space.names == ["forward", "strafe_left", "back", "strafe_right", "turn_left", "turn_right",
                           "look_up", "look_down", "jump"]


def test_headless_run_exits_cleanly():
    result = run_headless("playtester.games.park", "--frames", "30", "--fps", "0", "--layout-seed", "2")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("kwargs", "match"), [({"fps": -1}, "fps"), ({"max_frames": 1.5}, "max_frames"),
                                               ({"start": (1, 2, 3, 4)}, "start"), ({"start": (0.5, 0.5)}, "start")])
def test_main_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        pk.main(**kwargs)
