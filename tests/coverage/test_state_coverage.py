"""State coverage: abstractions (scene, feature buckets, pixel cells) and the counters built on them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from playtester.coverage import (
    EpisodeStates,
    FeatureBuckets,
    PixelCells,
    SceneAbstraction,
    StateCoverage,
    auto_abstraction,
    make_abstraction,
)
from playtester.coverage.state import decode_key, encode_key
from playtester.drive.observation import Entity, Observation

SCENE = (("Group#0", ("Enemy", "Player")), ("RenderUpdates#1", ("Bullet",)))


def obs(frame: np.ndarray | None = None, **kwargs) -> Observation:
    return Observation(frame=frame, **kwargs)


def scene_obs(scene, player_pos=(10.0, 20.0), colour=(255, 0, 0)) -> Observation:
    return obs(
        frame=np.full((4, 4, 3), colour, dtype=np.uint8),
        entities={"player": Entity("player", "player", player_pos, {})},
        features={"x": player_pos[0], "y": player_pos[1]},
        info={"scene": scene},
    )


# ---- scene ----------------------------------------------------------------------------------------


def test_scene_key_ignores_positions_and_colours():
    a = SceneAbstraction().key(scene_obs(SCENE, player_pos=(1.0, 2.0), colour=(255, 0, 0)))
    b = SceneAbstraction().key(scene_obs(SCENE, player_pos=(300.0, 40.0), colour=(0, 0, 255)))
    assert a == b == SCENE


def test_scene_key_changes_when_a_sprite_class_appears():
    more = (("Group#0", ("Enemy", "Player", "PowerUp")), ("RenderUpdates#1", ("Bullet",)))
    assert SceneAbstraction().key(scene_obs(SCENE)) != SceneAbstraction().key(scene_obs(more))


def test_scene_key_is_none_without_scene_and_accepts_lists():
    assert SceneAbstraction().key(obs()) is None
    as_lists = json.loads(json.dumps(SCENE))  # what a JSON round trip makes of it
    assert SceneAbstraction().key(obs(info={"scene": as_lists})) == SCENE


# ---- feature buckets ------------------------------------------------------------------------------


def test_feature_buckets_boundaries_and_clamping():
    fb = FeatureBuckets(m=10, ranges={"hp": (0.0, 100.0)})
    assert [fb.bucket("hp", v) for v in (0.0, 9.999, 10.0, 55.0, 99.9)] == [0, 0, 1, 5, 9]
    # Out of range is clamped to the first and last bucket; the upper bound itself is the last bucket.
    assert [fb.bucket("hp", v) for v in (-50.0, 100.0, 1e9)] == [0, 9, 9]
    assert fb.bucket("hp", float("nan")) is None


def test_feature_buckets_without_range_round_values():
    fb = FeatureBuckets()
    key = fb.key(obs(features={"y": 4.6, "x": 3, "lives": 2.0}))
    assert key == (("lives", 2), ("x", 3), ("y", 5))  # all features, sorted by name


def test_feature_buckets_selected_features_and_missing_ones():
    fb = FeatureBuckets(features=["x", "y"], m=4, ranges={"x": (0, 8), "y": (0, 8)})
    a = fb.key(obs(features={"x": 0.5, "y": 7.9, "score": 1}))
    b = fb.key(obs(features={"x": 1.9, "y": 6.0, "score": 999}))
    assert a == b == (("x", 0), ("y", 3))  # score is not part of the key
    assert fb.key(obs(features={"x": 1.0})) is None
    assert FeatureBuckets().key(obs()) is None


def test_feature_buckets_reject_bad_parameters():
    with pytest.raises(ValueError):
        FeatureBuckets(m=0)
    with pytest.raises(ValueError):
        FeatureBuckets(ranges={"x": (5.0, 5.0)})


# ---- pixel cells ----------------------------------------------------------------------------------


def object_frame(col: int, noise: np.ndarray | None = None) -> np.ndarray:
    """A 96x132 frame: mid-gray background (level 3 of 8), a white 12x24 block at column ``col``."""
    frame = np.full((96, 132, 3), 112, dtype=np.uint8)
    frame[36:48, col : col + 24] = 255
    if noise is not None:
        frame = (frame.astype(np.int16) + noise).clip(0, 255).astype(np.uint8)
    return frame


def test_pixel_cells_equal_for_small_noise_within_a_level():
    rng = np.random.default_rng(0)
    noise = rng.integers(-3, 4, size=(96, 132, 3))
    pc = PixelCells()
    assert pc.key(obs(object_frame(12))) == pc.key(obs(object_frame(12, noise)))


def test_pixel_cells_differ_for_a_moved_object():
    pc = PixelCells()
    assert pc.key(obs(object_frame(12))) != pc.key(obs(object_frame(84)))


def test_pixel_cells_shape_levels_and_luminance():
    pc = PixelCells()
    frame = np.zeros((16, 22, 3), dtype=np.uint8)
    frame[:, 11:] = (0, 255, 0)  # right half pure green: luminance 0.587 * 255 = 149.7 -> level 4
    cells = pc.cells(frame)
    assert cells.shape == (8, 11) and cells.dtype == np.uint8
    assert (cells[:, :5] == 0).all()
    assert (cells[:, 6:] == 4).all()
    assert cells[0, 5] == 2  # the middle cell straddles both halves: half of 149.7 -> level 2
    assert len(pc.key(obs(frame))) == 88
    assert pc.cells(np.full((3, 3, 3), 255, dtype=np.uint8)).max() == 7  # smaller than the grid


def test_pixel_cells_average_uneven_blocks():
    # 17 rows do not divide into 8 cells: row cells are 2 or 3 pixels tall and averaged exactly.
    frame = np.zeros((17, 11, 3), dtype=np.uint8)
    frame[0] = 255  # the first cell has rows 0-1 (17 * 1 // 8 == 2): mean 127.5 -> level 3
    cells = PixelCells().cells(frame)
    assert (cells[0] == 3).all() and (cells[1:] == 0).all()


def test_pixel_cells_none_without_frame():
    assert PixelCells().key(obs()) is None


# ---- choosing an abstraction ----------------------------------------------------------------------


def test_make_and_auto_abstraction():
    assert isinstance(make_abstraction("scene"), SceneAbstraction)
    assert make_abstraction("features", m=5).m == 5
    assert make_abstraction("pixels", width=4).width == 4
    with pytest.raises(ValueError):
        make_abstraction("nope")
    frame = np.zeros((8, 8, 3), dtype=np.uint8)
    assert isinstance(
        auto_abstraction(obs(frame, features={"x": 1.0}, info={"scene": SCENE})), SceneAbstraction
    )
    assert isinstance(auto_abstraction(obs(frame, features={"x": 1.0})), FeatureBuckets)
    assert isinstance(auto_abstraction(obs(frame)), PixelCells)


def test_params_rebuild_an_equal_abstraction():
    for a in (SceneAbstraction(), FeatureBuckets(["x"], m=3, ranges={"x": (0, 1)}), PixelCells(5, 4, 16)):
        assert make_abstraction(a.name, **a.params()) == a


# ---- counters -------------------------------------------------------------------------------------


def test_state_coverage_counts_new_states_and_visits():
    cov = StateCoverage(FeatureBuckets())
    assert cov.add(obs(features={"x": 1, "y": 1})) is True
    assert cov.add(obs(features={"x": 1.2, "y": 0.9})) is False  # rounds to the same state
    assert cov.add(obs(features={"x": 2, "y": 1})) is True
    assert cov.add(obs()) is False  # no features: no state
    assert cov.count == 2 and cov.unknown == 1
    assert cov.visits((("x", 1), ("y", 1))) == 2
    assert cov.visits((("x", 9), ("y", 9))) == 0
    assert list(cov.keys()) == [(("x", 1), ("y", 1)), (("x", 2), ("y", 1))]


def test_state_coverage_merge_adds_visits():
    a, b = StateCoverage(FeatureBuckets()), StateCoverage(FeatureBuckets())
    a.add(obs(features={"x": 1}))
    b.add(obs(features={"x": 1}))
    b.add(obs(features={"x": 2}))
    a.merge(b)
    assert a.count == 2 and a.visits((("x", 1),)) == 2
    with pytest.raises(ValueError):
        a.merge(StateCoverage(PixelCells()))


@pytest.mark.parametrize(
    "abstraction, observations",
    [
        (SceneAbstraction(), [scene_obs(SCENE), scene_obs(SCENE), scene_obs(SCENE[:1])]),
        (FeatureBuckets(ranges={"x": (0, 1)}), [obs(features={"x": 0.5, "y": -2}), obs(features={"x": 0.9})]),
        (PixelCells(), [obs(object_frame(0)), obs(object_frame(60)), obs(object_frame(0))]),
    ],
)
def test_state_coverage_round_trips_through_records(abstraction, observations):
    cov = StateCoverage(abstraction)
    for o in observations:
        cov.add(o)
    records = cov.to_records()
    assert all(isinstance(k, str) and isinstance(n, int) for k, n in records)
    assert records == sorted(records)
    back = StateCoverage.from_records(json.loads(json.dumps(records)), abstraction)
    assert back.to_records() == records
    assert {k: back.visits(k) for k in back.keys()} == {k: cov.visits(k) for k in cov.keys()}
    # Restored keys match freshly computed ones, so a resumed campaign keeps counting the same states.
    assert back.add(observations[0]) is False


def test_key_encoding_is_deterministic():
    key = (("Group#0", ("A", "B")),)
    assert encode_key(key) == encode_key(tuple(key)) == "(('Group#0', ('A', 'B')),)"
    assert decode_key(encode_key(b"\x00\x07")) == b"\x00\x07"
    with pytest.raises(ValueError):
        decode_key("__import__('os')")


def test_episode_states_count_and_reset():
    ep = EpisodeStates(FeatureBuckets())
    assert ep.add(obs(features={"x": 1})) is True
    assert ep.add(obs(features={"x": 1})) is False
    assert ep.add(obs(features={"x": 2})) is True
    assert ep.add(obs()) is False
    assert ep.count == 2
    ep.reset()
    assert ep.count == 0
    assert ep.add(obs(features={"x": 1})) is True
