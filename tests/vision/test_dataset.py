"""Shots labelled from the probe: boxes inside the frame and around the object, stratified splits."""

from __future__ import annotations

import math
import os
from collections import Counter, namedtuple

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from playtester.vision import dataset as ds  # noqa: E402

E = namedtuple("E", "kind pos attrs")


# ---- pure functions ----------------------------------------------------------------------------------------
def test_label_scales_clips_drops_small_and_hidden_boxes():
    ents = {
        "a": E("barrel", (0, 0), {"screen_box": [40, 40, 120, 200], "distance": 2.0}),
        "b": E("tire", (0, 0), {"screen_box": [600, -20, 700, 100], "distance": 3.0}),  # clipped
        "c": E("chair", (0, 0), {"screen_box": [10, 10, 30, 30], "distance": 1.0}),  # 5 px tall at 1/4
        "d": E("barrel", (0, 0), {"screen_box": [50, 60, 100, 180], "distance": 5.0}),  # behind a
        "e": E("barrel", (0, 0), {"screen_box": None, "distance": 1.0}),
        "f": E("player", (0, 0), {"screen_box": [0, 0, 640, 480]}),
    }
    boxes, labels = ds.label(ents, ds.PARK_KINDS, (640, 480))
    assert boxes == [[10.0, 10.0, 30.0, 50.0], [150.0, 0.0, 160.0, 25.0]]
    assert labels == [ds.PARK_KINDS.index("barrel"), ds.PARK_KINDS.index("tire")]
    # without the occlusion rule the hidden barrel stays
    boxes, _ = ds.label(ents, ds.PARK_KINDS, (640, 480), max_covered=1.0)
    assert [12.5, 15.0, 25.0, 45.0] in boxes
    # kinds is a parameter
    assert ds.label(ents, ("tire",), (640, 480))[1] == [0]


def test_stratified_split_keeps_the_shares_in_every_stratum():
    strata = ["a"] * 100 + ["b"] * 50 + ["c"] * 30 + [""] * 20
    split = ds.stratified_split(strata, seed=3)
    for s in set(strata):
        got = Counter(split[[i for i, x in enumerate(strata) if x == s]].tolist())
        n = strata.count(s)
        for part, share in enumerate(ds.SPLIT_SHARES):
            assert abs(got[part] - share * n) <= 1, (s, got)
    assert not np.array_equal(split, ds.stratified_split(strata, seed=4))  # shuffled by the seed


def test_downscale_block_means():
    frame = np.zeros((8, 8, 3), np.uint8)
    frame[:4, :4] = 200
    frame[0, 4] = 16
    small = ds.downscale(frame, (2, 2))
    assert small.shape == (2, 2, 3) and small[0, 0, 0] == 200 and small[0, 1, 0] == 1 and small[1, 1, 0] == 0



@pytest.mark.parametrize("shape, size", [((480, 640, 3), (160, 120)), ((360, 480, 3), (160, 120)),
                                         ((300, 300, 3), (10, 10)), ((120, 160, 3), (160, 120))])
def test_downscale_is_the_rounded_float_block_mean(shape, size):
    """The integer sums give the bytes of the rounded float mean (what the detector was trained on), halves
    rounded to even as numpy rounds them; a 30x30 block needs 32-bit sums."""
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, shape, dtype=np.uint8)
    frame[:30, :30] = 255
    w, h = size
    fy, fx = shape[0] // h, shape[1] // w
    want = frame.reshape(h, fy, w, fx, 3).mean(axis=(1, 3)).round().astype(np.uint8)
    assert np.array_equal(ds.downscale(frame, size), want)
    assert ds.downscale(frame, (shape[1], shape[0])) is frame  # at its size already: the frame itself
    halves = np.zeros((2, 2, 3), np.uint8)
    halves[0, 0] = 1  # means: 1/4 -> 0; 2/4 = 0.5 -> 0 and 6/4 = 1.5 -> 2 (halves to even)
    assert ds.downscale(halves, (1, 1))[0, 0, 0] == 0
    assert ds.downscale(np.array([[[1], [1]], [[0], [0]]], np.uint8), (1, 1))[0, 0, 0] == 0
    assert ds.downscale(np.array([[[3], [3]], [[0], [0]]], np.uint8), (1, 1))[0, 0, 0] == 2

# ---- through the park ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def shots():
    return ds.collect("park", shots=120, seed=5)


def test_boxes_lie_inside_the_frame_and_kinds_are_balanced(shots):
    w, h = ds.INPUT_SIZE
    assert shots.frames.shape == (120, h, w, 3) and shots.frames.dtype == np.uint8
    b = shots.boxes
    assert len(b) > 100
    assert (b[:, 0] >= 0).all() and (b[:, 1] >= 0).all() and (b[:, 2] <= w).all() and (b[:, 3] <= h).all()
    assert (b[:, 3] - b[:, 1] >= 6).all() and (b[:, 2] > b[:, 0]).all()
    per_kind = Counter(shots.labels.tolist())
    assert set(per_kind) == set(range(4))
    assert max(per_kind.values()) < 1.6 * min(per_kind.values())
    assert 0 < (np.bincount(shots.shot, minlength=len(shots)) == 0).sum() < 0.3 * len(shots)  # some empty shots


def test_split_of_collected_shots_is_stratified(shots):
    counts = shots.counts()
    total = {k: sum(counts[s][k] for s in ds.SPLITS) for k in shots.kinds}
    for k in shots.kinds:
        assert all(counts[s][k] > 0 for s in ds.SPLITS), counts
        assert counts["train"][k] > counts["test"][k] > counts["val"][k] * 0.8
        assert 0.5 < counts["train"][k] / total[k] < 0.85


def test_a_box_in_front_of_an_object_surrounds_its_pixels():
    """Teleported in front of an object of each kind (tires, with their hole, aside), the labelled box
    frames the object: its middle is unlike the scenery just left and right of the box."""
    from playtester.drive import InputFrame, Worker, resolve
    from playtester.games import park as pk

    lay = pk.generate_layout(0)
    free = pk.Park(layout_seed=0, start=None)
    solid = np.isin(lay.tiles, pk.SOLID_TILES)
    done = set()
    with Worker(resolve("park"), capture="full") as w:
        obs = w.reset(seed=0)
        for o in lay.oois:
            if o.kind in done or o.kind == "tire" or not o.reachable:
                continue
            a = o.yaw
            x, y = o.x + 2.5 * math.cos(a), o.y + 2.5 * math.sin(a)
            line = [(o.x + (x - o.x) * t / 40, o.y + (y - o.y) * t / 40) for t in range(41)]
            if not free.free_at(x, y) or any(solid[int(py), int(px)] for px, py in line):
                continue
            if any(math.hypot(p.x - o.x, p.y - o.y) < 3.5 for p in lay.oois if p is not o):
                continue
            assert w.call("playtester.vision.dataset:call_hook", "teleport", x, y,
                          math.degrees(a + math.pi) % 360) == ("ok", True)
            obs = w.step(InputFrame(), frames=1)
            boxes, labels = ds.label(obs.entities, ds.PARK_KINDS, (640, 480))
            assert ds.PARK_KINDS.index(o.kind) in labels
            if len(boxes) > 1:  # another object in view: its box could flank this one
                continue
            small = ds.downscale(obs.frame).astype(float)
            x0, y0, x1, y1 = (int(round(v)) for v in boxes[0])
            assert 0 < x0 < x1 < 160 and x1 - x0 < 100  # a box in the middle, not the whole frame
            ym = slice(y0 + (y1 - y0) // 4, y0 + (y1 - y0) // 2)
            inside = small[ym, x0 + (x1 - x0) // 4:x1 - (x1 - x0) // 4].reshape(-1, 3).mean(axis=0)
            left = small[ym, max(0, x0 - 6):x0 - 1].reshape(-1, 3).mean(axis=0)
            right = small[ym, x1 + 1:x1 + 6].reshape(-1, 3).mean(axis=0)
            assert np.abs(inside - left).sum() > 40 and np.abs(inside - right).sum() > 40, (o.kind, inside, left)
            done.add(o.kind)
    assert done == {"rock_pillar", "barrel", "chair"}


def test_scenery_shots_show_no_object_to_detect_and_the_miner_picks_hard_ones(shots):
    """Hard negatives: every scenery shot is one where the probe puts no labelled box; a miner that fires on
    every frame keeps every candidate, one that never fires keeps about ``keep_unmined`` of them; merged
    shots keep their boxes and splits."""
    extra, stats = ds.collect_scenery("park", shots=12, seed=9, miner=lambda frame: 1.0)
    assert len(extra) == 12 and len(extra.boxes) == 0 and stats["mined"] == 12 and stats["candidates"] == 12
    assert extra.frames.shape[1:] == (ds.INPUT_SIZE[1], ds.INPUT_SIZE[0], 3)
    assert sorted(set(extra.split.tolist())) == [0, 1, 2]
    few, stats = ds.collect_scenery("park", shots=4, seed=9, miner=lambda frame: 0.0, keep_unmined=0.5)
    assert len(few) == 4 and stats["mined"] == 0 and stats["candidates"] > 4
    merged = ds.merge(shots, extra)
    assert len(merged) == len(shots) + 12 and len(merged.boxes) == len(shots.boxes)
    assert (merged.split[len(shots):] == extra.split).all()
    assert merged.counts()["train"]["empty"] == shots.counts()["train"]["empty"] + int((extra.split == 0).sum())
