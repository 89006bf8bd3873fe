"""The step's round trip: observations pickled flat, the scene read cheaply, and waits that poll before sleeping."""

from __future__ import annotations

import os
import pickle
import socket
import threading
import time

import numpy as np
from conftest import fixture_spec

from playtester.drive import wait
from playtester.drive.inputs import InputFrame
from playtester.drive.observation import Entity, GameEvent, Observation
from playtester.drive.spec import resolve
from playtester.drive.wait import CommandWait, ReplyWait


def _round_trip(obs: Observation) -> Observation:
    return pickle.loads(pickle.dumps(obs, protocol=pickle.HIGHEST_PROTOCOL))


def test_an_observation_comes_back_whole_with_a_writable_frame():
    frame = np.frombuffer(bytes(range(256)) * 63, dtype=np.uint8).reshape(84, 64, 3)  # read-only, as captured
    obs = Observation(frame, {"x": 1.5}, [GameEvent("hit", {"n": 1}, 3)], entities={
        "hero": Entity("hero", "player", (1.0, 2.0), {"hp": 3}), "w": Entity("w", "wall", None, {})},
        done=True, frame_no=7, time_ms=116, reward=0.5, action_mask=np.array([1, 0], np.int8), info={"k": (1, 2)})
    back = _round_trip(obs)
    assert np.array_equal(back.frame, frame) and back.frame.shape == (84, 64, 3) and back.frame.dtype == np.uint8
    assert back.frame.flags.writeable  # as numpy's own unpickling gave it: callers may draw on it
    back.frame[0, 0, 0] = 255
    assert frame[0, 0, 0] == 0  # and its own memory
    assert back.entities == obs.entities and list(back.entities) == ["hero", "w"]
    assert (back.features, back.events, back.done, back.frame_no, back.time_ms, back.reward, back.info) == \
        (obs.features, obs.events, True, 7, 116, 0.5, {"k": (1, 2)})
    assert np.array_equal(back.action_mask, obs.action_mask)


def test_frames_of_other_kinds_and_no_frame_keep_their_type():
    assert _round_trip(Observation(None)).frame is None
    f = np.arange(6, dtype=np.float32).reshape(2, 3)
    back = _round_trip(Observation(f))
    assert back.frame.dtype == np.float32 and np.array_equal(back.frame, f)
    strided = np.zeros((8, 8, 3), np.uint8)[::2]  # not contiguous: numpy's own pickling
    assert _round_trip(Observation(strided)).frame.shape == (4, 8, 3)


def test_the_scene_and_entities_of_a_live_game_cross_intact(worker_for):
    w = worker_for(fixture_spec("sprite_groups"), capture=(16, 12))
    w.reset(seed=0)
    first = w.step(InputFrame(), frames=1)
    scene = dict(first.info["scene"])
    kinds = sorted(scene.values())
    assert kinds == [("Cloud",), ("Hero",), ("Wall",)]  # Group, GroupSingle and LayeredUpdates all read
    later = w.step(InputFrame(), frames=6)
    assert sorted(dict(later.info["scene"]).values()) == [("Cloud",), ("Coin", "Wall"), ("Hero",)]
    hero = later.entities["hero"]
    assert hero.kind == "player" and hero.attrs == {"hp": 3, "tag": "a"} and hero.pos[0] > first.entities["hero"].pos[0]
    assert later.frame.shape == (12, 16, 3) and later.frame.flags.writeable


def test_a_quick_parent_is_waited_for_by_polling_and_a_slow_one_asleep(monkeypatch):
    a, b = socket.socketpair()
    try:
        w = CommandWait(b.fileno(), cap_us=2000)
        for _ in range(20):  # answers within the window: found while polling
            threading.Timer(0.0002, a.send, (b"x",)).start()
            w.wait()
            b.recv(1)
        assert w.spun >= 15, (w.spun, w.slept)
        w.slept = 0
        for _ in range(5):  # a parent that takes 20 ms: the wait sleeps (no polling for that long)
            threading.Timer(0.02, a.send, (b"x",)).start()
            w.wait()
            b.recv(1)
        assert w.slept >= 4 and w.turn > 0.002
        off = CommandWait(b.fileno(), cap_us=0)
        threading.Timer(0.0002, a.send, (b"x",)).start()
        off.wait()
        b.recv(1)
        assert (off.spun, off.slept) == (0, 1)
        monkeypatch.setattr(wait, "_CORES", 1)  # one core: the parent could not answer while the episode polls
        single = CommandWait(b.fileno(), cap_us=2000)
        for _ in range(3):
            threading.Timer(0.0002, a.send, (b"x",)).start()
            single.wait()
            b.recv(1)
        assert (single.spun, single.slept) == (0, 3)
    finally:
        a.close()
        b.close()


def test_the_parent_polls_around_when_an_answer_is_due_and_only_with_a_core_to_spare(monkeypatch):
    a, b = socket.socketpair()
    try:
        r = ReplyWait(b.fileno())
        for _ in range(30):  # answers 3 ms after each send
            r.sent()
            threading.Timer(0.003, a.send, (b"x",)).start()
            assert r.wait(5.0)
            b.recv(1)
        assert 0.0025 < r.lo <= r.hi < 0.02
        assert r.spun >= 10, (r.spun, r.slept)  # once the window is known, answers are found while polling
        monkeypatch.setattr(wait, "_CORES", 1)  # every core busy with a game: sleep
        monkeypatch.setattr(wait, "_live_hosts", 1)
        spun = r.spun
        for _ in range(5):
            r.sent()
            threading.Timer(0.003, a.send, (b"x",)).start()
            assert r.wait(5.0)
            b.recv(1)
        assert r.spun == spun
        window = list(r.times)
        r.sent()
        a.send(b"x")  # an answer already waiting when the wait starts: read at once, and not timed
        time.sleep(0.01)
        assert r.wait(5.0) and list(r.times) == window
        b.recv(1)
        r.sent()
        t = time.perf_counter()
        assert not r.wait(0.05) and time.perf_counter() - t >= 0.045  # no answer: the timeout still holds
    finally:
        a.close()
        b.close()


def test_a_real_game_steps_by_polling_on_both_sides(worker_for):
    w = worker_for(resolve("blockmaze"), capture=(84, 84))
    w.reset(seed=0)
    for _ in range(60):
        w.step(InputFrame(), frames=10)
    if len(os.sched_getaffinity(0)) > 1:
        assert w._wait.spun > 5, (w._wait.spun, w._wait.slept)
    cmd = w.call("playtester.drive.episode:wait_counts")
    assert cmd[0] + cmd[1] >= 60 and cmd[0] > 0  # every command waited for, some found while polling


def test_an_observation_pickles_with_older_protocols_and_deep_copies():
    import copy

    frame = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    obs = Observation(frame, entities={"e": Entity("e", "k", (1.0, 1.0), {"a": 1})})
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(obs, protocol=protocol))
        assert np.array_equal(back.frame, frame) and back.frame.flags.writeable and back.entities == obs.entities
    twin = copy.deepcopy(obs)
    twin.frame[0, 0, 0] = 99
    assert frame[0, 0, 0] == 0 and twin.entities == obs.entities
