"""Bird's-eye maps: the park's real layout from above, exploration traces and objects coloured by test status,
checked pixel by pixel, and the report's section built from them."""

from __future__ import annotations

import base64
import math
import re

import numpy as np

from playtester.games import park as pk
from playtester.report import png_decode, write_report
from playtester.report.maps import (
    OUTLINE_RGB,
    STATUS_RGB,
    TILE_RGB,
    TRACE_RGB,
    BirdsEye,
    base_map,
    exploration_map,
    status_map,
)
from playtester.store import Store

LAYOUT = pk.generate_layout(0)
ROWS = ["".join(pk.TILE_CHARS[int(t)] for t in row) for row in LAYOUT.tiles]
S = 6


def px(img, x, y):
    """The pixel at the centre of tile-space point (x, y)."""
    return tuple(int(v) for v in img[int(y * S), int(x * S)])


def test_base_map_draws_each_tile_in_its_colour():
    img = base_map(ROWS, S)
    assert img.shape == (96 * S, 96 * S, 3)
    path_x, path_y = LAYOUT.path_tiles()[0]
    assert px(img, path_x + 0.5, path_y + 0.5) == TILE_RGB["="] or ROWS[path_y][path_x] == "#"
    ys, xs = np.nonzero(LAYOUT.tiles == pk.WATER)
    assert px(img, xs[0] + 0.5, ys[0] + 0.5) == TILE_RGB["~"]
    assert px(img, 0.5, 0.5) == TILE_RGB["H"]  # the hedge round the park


def test_traces_are_red_lines_over_the_map_and_nowhere_else():
    (ax, ay), (bx, by) = LAYOUT.path_tiles()[0], LAYOUT.path_tiles()[-1]
    trace = [(ax + 0.5, ay + 0.5), (ax + 0.5, by + 0.5), (bx + 0.5, by + 0.5)]  # an L through the park
    img = exploration_map(BirdsEye(ROWS, traces=[trace], scale=S))
    mid = (ax + 0.5, (ay + by) / 2 + 0.5)
    for x, y in trace + [mid]:
        assert px(img, x, y) == TRACE_RGB, (x, y)
    red = (img == TRACE_RGB).all(axis=2)
    # only the two segments are red: about their length in pixels, one pixel wide
    length = (abs(by - ay) + abs(bx - ax)) * S
    assert length - 2 <= red.sum() <= length + 4
    plain = base_map(ROWS, S)
    assert ((img != plain).any(axis=2) == red).all()  # nothing else changed


def test_objects_are_dots_coloured_by_status():
    statuses = ["ok", "wrong", "missed"]
    objects = [{"id": o.id, "x": o.x, "y": o.y, "status": statuses[i % 3]} for i, o in enumerate(LAYOUT.oois)]
    img = status_map(BirdsEye(ROWS, objects=objects, scale=S))
    for o in objects:
        assert px(img, o["x"], o["y"]) == STATUS_RGB[o["status"]], o
        # a dark outline ring just outside the dot (radius 1.2 tiles)
        yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
        d = np.hypot(xx + 0.5 - o["x"] * S, yy + 0.5 - o["y"] * S)
        ring = (d > 1.2 * S + 0.2) & (d < 1.2 * S + 0.8)
        alone = all(math.hypot(p["x"] - o["x"], p["y"] - o["y"]) > 4 for p in objects if p is not o)
        if alone:  # (the island's three objects stand closer: their dots overlap)
            assert ring.sum() > 10 and (img[ring] == OUTLINE_RGB).all(), o
    # a change of status changes the dot's colour
    objects[0]["status"] = "wrong" if objects[0]["status"] != "wrong" else "ok"
    again = status_map(BirdsEye(ROWS, objects=objects, scale=S))
    assert px(again, objects[0]["x"], objects[0]["y"]) == STATUS_RGB[objects[0]["status"]]


def test_report_shows_the_maps_when_given(tmp_path):
    store = Store(tmp_path / "run")
    cid = store.new_campaign("park", {}, "random", {"kind": "manual", "actions": []}, "100 steps", 1, 0, "features")
    store.record_episode(cid, worker=0, seed=0, steps=100, outcome="truncated", reason="max steps", ended_s=1.0,
                         actions=[0] * 100, new_states={}, positions={(3, 4): 100}, code_lines={},
                         totals={"t_s": 1.0, "steps": 100, "episodes": 1, "states": 0, "code_covered": 0,
                                 "code_total": 0, "bugs": 0, "steps_per_s": 100.0, "next_seed": 1})
    store.update_campaign(cid, steps=100, episodes=1, elapsed_s=1.0, status="finished")
    o = LAYOUT.oois[0]
    view = BirdsEye(ROWS, traces=[[(o.x - 3, o.y), (o.x + 3, o.y)]],
                    objects=[{"id": o.id, "x": o.x, "y": o.y, "status": "wrong"}], scale=S)
    without = write_report(store, cid, tmp_path / "a.html").read_text()
    assert 'id="birdseye"' not in without
    text = write_report(store, cid, tmp_path / "b.html", birdseye=view).read_text()
    assert 'id="birdseye"' in text and "tested, verdict wrong: 1" in text and "missed: 0" in text
    section = text[text.index('id="birdseye"'):]
    imgs = [png_decode(base64.b64decode(m)) for m in re.findall(r'src="data:image/png;base64,([^"]+)"', section)[:2]]
    assert np.array_equal(imgs[0], exploration_map(view)) and np.array_equal(imgs[1], status_map(view))
    assert px(imgs[1], o.x, o.y) == STATUS_RGB["wrong"] and px(imgs[0], o.x - 2, o.y) == TRACE_RGB
    store.close()
