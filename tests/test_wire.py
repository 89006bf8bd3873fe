"""The step's round trip: observations pickled flat, the scene read cheaply, and waits that poll before sleeping."""

from __future__ import annotations

import os
import pickle
import socket

import numpy as np
import pytest
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


class _Simulated:
    """A clock and a poller for the wait policies, so that their decisions do not hang on how busy the machine
    is (sub-millisecond timers fail on a loaded one): time moves only when the waiter polls (``POLL_S`` a poll
    without sleeping) or sleeps (to the answer, or to the end of its timeout), and the answer to the command in
    flight is readable from ``due`` on."""

    POLL_S = 2e-6

    def __init__(self, monkeypatch) -> None:
        self.now = 100.0
        self.due: float | None = None
        self.spins = 0  # polls without sleeping
        monkeypatch.setattr(wait, "CLOCK", lambda: self.now)

    def answer_in(self, seconds: float | None) -> None:
        self.due = None if seconds is None else self.now + seconds

    def poll(self, timeout_ms: int | None = None) -> list[tuple[int, int]]:
        ready = [(0, 1)]
        if self.due is not None and self.now >= self.due:
            return ready
        if timeout_ms == 0:
            self.spins += 1
            self.now += self.POLL_S
            return []
        end = float("inf") if timeout_ms is None or timeout_ms < 0 else self.now + timeout_ms / 1000
        if self.due is not None and self.due <= end:
            self.now = self.due
            return ready
        self.now = end
        return []


def test_a_quick_parent_is_waited_for_by_polling_and_a_slow_one_asleep(monkeypatch):
    monkeypatch.setattr(wait, "_CORES", 2)
    sim = _Simulated(monkeypatch)
    w = CommandWait(0, cap_us=2000)
    w.poller = sim
    for _ in range(20):  # a parent that answers 200 us after each command: found while polling, once timed
        sim.answer_in(200e-6)
        w.wait()
    assert (w.spun, w.slept) == (19, 1) and abs(w.turn - 200e-6) < 20e-6
    for i in range(5):  # a parent that takes 20 ms: the first wait polls its window (about twice 200 us) in vain,
        spins = sim.spins  # then, with the parent's time past the cap, every wait sleeps at once
        sim.answer_in(0.02)
        w.wait()
        assert (sim.spins == spins) == (i > 0), (i, sim.spins - spins)
    assert (w.spun, w.slept) == (19, 6) and w.turn > 0.002
    for cap, cores in ((0, 2), (2000, 1)):  # polling turned off; one core, where the parent could not answer
        monkeypatch.setattr(wait, "_CORES", cores)  # while the episode polls: every wait sleeps at once
        quiet = CommandWait(0, cap_us=cap)
        quiet.poller = sim
        spins = sim.spins
        for _ in range(3):
            sim.answer_in(200e-6)
            quiet.wait()
        assert (quiet.spun, quiet.slept, sim.spins) == (0, 3, spins)


def test_a_command_already_waiting_is_read_by_polling():
    a, b = socket.socketpair()
    try:
        w = CommandWait(b.fileno(), cap_us=2000)
        a.send(b"x")
        w.wait()
        assert (w.spun, w.slept) == (1, 0) and b.recv(1) == b"x"
    finally:
        a.close()
        b.close()


def test_the_parent_polls_around_when_an_answer_is_due_and_only_with_a_core_to_spare(monkeypatch):
    monkeypatch.setattr(wait, "_CORES", 2)
    monkeypatch.setattr(wait, "_live_hosts", 1)  # one worker on two cores: a core to spare
    sim = _Simulated(monkeypatch)
    r = ReplyWait(10**6)  # past select's FD_SETSIZE: its sleeps go through the poller too
    r.poller = sim
    for _ in range(30):  # answers 3 ms after each send: the first 8 are waited for asleep and timed, then
        r.sent()  # the parent sleeps until just before the fastest tenth and polls until the answer
        sim.answer_in(0.003)
        assert r.wait(5.0)
    assert r.lo == pytest.approx(0.003, abs=1e-5) and r.hi == pytest.approx(0.003, abs=1e-5)
    assert (r.spun, r.slept) == (22, 8)
    monkeypatch.setattr(wait, "_live_hosts", 2)  # every core busy with a game: sleep
    spins = sim.spins
    for _ in range(5):
        r.sent()
        sim.answer_in(0.003)
        assert r.wait(5.0)
    assert (r.spun, r.slept, sim.spins - spins) == (22, 13, 5)  # one look each: is the answer in already?
    monkeypatch.setattr(wait, "_live_hosts", 1)
    window = list(r.times)
    r.sent()
    sim.answer_in(0.0)  # an answer already waiting when the wait starts: read at once, and not timed
    assert r.wait(5.0) and list(r.times) == window
    r.sent()
    sim.answer_in(None)
    t = sim.now
    assert not r.wait(0.05) and sim.now - t >= 0.045  # no answer: the timeout still holds


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
