"""The Ray backend's tuning for a local instance, and its call path (see `playtester.drive.ray_worker`):

- ``LOCAL_SYSTEM_CONFIG`` goes to a local instance that `connect` starts, never to a cluster joined by address
  (a joined cluster keeps its own settings: Ray refuses ``_system_config`` there anyway);
- on a real local instance the settings hold: the actors (and the games they fork) run at the driver's niceness,
  not at Ray's default 15, which would have them yield the cores to everything else on the machine;
- the worker actors send no task events and answer steps in one pickled piece (`WorkerHost._answer`), which the
  `RayWorker` reads either way;
- acting ahead keeps `DEPTH` calls of a plan in flight, and gives the same steps as the local worker, with a
  plan cut short by the end of an episode and a plan dropped mid-way alike.
"""

from __future__ import annotations

import os
import pickle
from typing import Any

import numpy as np
import pytest

import playtester.drive.ray_worker as rw
from playtester.agents.common import RandomPlan
from playtester.drive import messages as wire
from playtester.drive.spec import resolve
from playtester.env import resolve_space


class FakeRay:
    """What `connect` calls of Ray, recorded."""

    def __init__(self) -> None:
        self.inits: list[dict[str, Any]] = []

    def is_initialized(self) -> bool:
        return False

    def init(self, **kwargs: Any) -> None:
        self.inits.append(kwargs)


@pytest.fixture
def fake_ray(monkeypatch):
    fake = FakeRay()
    monkeypatch.setattr(rw, "require_ray", lambda: fake)
    monkeypatch.setattr(rw, "guard", lambda pids: 0)  # no guard process for processes that do not exist
    return fake


def test_a_local_instance_gets_the_local_settings(fake_ray):
    rw.connect(None)
    (kw,) = fake_ray.inits
    assert kw["_system_config"] == rw.LOCAL_SYSTEM_CONFIG and kw["_system_config"] is not rw.LOCAL_SYSTEM_CONFIG
    assert kw["_system_config"]["worker_niceness"] == 0 and kw["num_cpus"] == rw.LOCAL_CPUS
    assert kw["include_dashboard"] is False and kw["log_to_driver"] is False


def test_a_cluster_joined_by_address_keeps_its_own_settings(fake_ray):
    rw.connect("127.0.0.1:6379")
    (kw,) = fake_ray.inits
    assert kw["address"] == "127.0.0.1:6379"
    assert not {"_system_config", "num_cpus", "object_store_memory", "include_dashboard"} & set(kw)


def test_every_local_setting_is_one_this_ray_knows():
    """A setting Ray does not know would be refused at start (or, renamed in a later Ray, silently lost): each key
    is one of the names in this Ray's core library."""
    ray = pytest.importorskip("ray")
    lib = os.path.join(os.path.dirname(ray.__file__), "_raylet.so")
    with open(lib, "rb") as f:
        names = set(f.read().split(b"\0"))
    missing = [k for k in rw.LOCAL_SYSTEM_CONFIG if k.encode() not in names]
    assert not missing, f"not settings of Ray {ray.__version__}: {missing}"


def test_the_local_instance_runs_its_actors_at_the_drivers_niceness(ray_local):
    @ray_local.remote
    class Nice:
        def nice(self) -> int:
            return os.nice(0)

    a = Nice.remote()
    try:
        assert ray_local.get(a.nice.remote(), timeout=60) == os.nice(0)  # Ray's default would be 15 more
    finally:
        ray_local.kill(a)


def test_worker_actors_send_no_task_events_and_answer_in_one_piece(ray_local):
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    w = rw.RayWorker(spec, space, capture=None)
    try:
        assert w.actor_options["enable_task_events"] is rw.TASK_EVENTS is False
        w.reset(seed=0)
        raw = ray_local.get(w.actor.act.remote(0, None), timeout=60)
        assert isinstance(raw, bytes) and rw.COMPACT
        answer = wire.decode(pickle.loads(raw))
        assert isinstance(answer, wire.Steps) and answer.actions == (0,)
        obs, steps = answer.answers[0].obs, answer.steps
        assert steps == 1 and obs.action_mask is not None
        # an answer Ray serialized reads the same
        _, (same,), n = w._answer_of(ray_local.put(wire.encode(answer)), 10)
        assert n == steps and same.features == obs.features and (same.action_mask == obs.action_mask).all()
    finally:
        w.close()


def _plan(seed: int, space: Any) -> RandomPlan:
    return RandomPlan.of(np.random.default_rng(seed), len(space))


def _play(w: Any, space: Any, seed: int, n: int, chunk: int | None = None, stop: int | None = None) -> list[Any]:
    """(action, features, done) of each step of a plan of ``n`` steps after a reset with ``seed``, read one at a
    time (at most ``stop`` of them: the rest of the plan is dropped by `end_episode`)."""
    plan = _plan(seed, space)
    obs = w.reset(seed=seed)
    a = plan.choose(obs.action_mask)
    kw = {"chunk": chunk} if chunk else {}
    w.act_ahead_async(a, plan, n, **kw)
    out = []
    while True:
        obs = w.step_wait()
        out.append((w.played, dict(obs.features), obs.done))
        if (stop and len(out) >= stop) or not w.ahead:
            break
    w.end_episode()
    return out


def test_acting_ahead_keeps_depth_calls_in_flight_and_plays_what_the_local_worker_plays(ray_local, monkeypatch):
    from playtester.drive.worker import Worker

    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    local = Worker(spec, space, capture=None)
    try:
        want = [_play(local, space, seed, 60) for seed in (0, 1)]
        cut = _play(local, space, 2, 60, stop=11)
        again = _play(local, space, 3, 20)
    finally:
        local.close()
    assert any(len(x) > 16 for x in want)
    for depth in (1, 2):
        monkeypatch.setattr(rw, "DEPTH", depth)
        w = rw.RayWorker(spec, space, capture=None)
        try:
            obs = w.reset(seed=0)
            plan = _plan(0, space)
            w.act_ahead_async(plan.choose(obs.action_mask), plan, 60, chunk=8)
            assert w.in_flight and len(w._queued) == depth - 1  # the plan's next call is queued behind the first
            w.end_episode()
            assert not w.in_flight and not w._queued
            assert [_play(w, space, seed, 60, chunk=8) for seed in (0, 1)] == want
            assert _play(w, space, 2, 60, chunk=4, stop=11) == cut  # dropped mid-plan: calls still queued
            assert _play(w, space, 3, 20, chunk=8) == again  # ... play nothing the next episode sees
        finally:
            w.close()


def _batches(h: rw.WorkerHost, space: Any, total: int | None, calls: int, n: int = 4) -> list[Any]:
    """(actions, observations, steps) of ``calls`` calls of ``n`` steps of a plan, as the actor answers them."""
    obs = _reset(h)
    plan = _plan(0, space)
    got = [_batch(h.act_ahead(plan.choose(obs.action_mask), plan, n, None, total))]
    while len(got) < calls:
        got.append(_batch(h.act_more(n)))
    return got


def _reset(h: rw.WorkerHost) -> Any:
    state = wire.decode(h.reset(0))
    assert isinstance(state, wire.WorkerState) and state.answer is not None
    return state.answer.observation()


def _batch(raw: bytes) -> tuple[list[Any], list[Any], int]:
    """(actions, observations, steps) of an actor's compact answer, as `RayWorker` reads it."""
    msg = wire.decode(pickle.loads(raw))
    assert isinstance(msg, wire.Steps)
    return list(msg.actions), [c.observation() for c in msg.answers], msg.steps


def test_an_actors_game_plays_the_whole_plan_without_waiting_for_each_call():
    """With the plan's length (``total``: `PLAY_ON`) the game waits for a command once, at the plan's start, not
    once per call: it goes on while an answer crosses Ray. Without it (as before), it stops after each call's
    steps and waits for the next. The steps are the same either way."""
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    waits, steps = {}, {}
    for total in (40, None):
        h = rw.WorkerHost(spec, space, None, False, None, None, compact=True, relay=True)
        try:
            got = _batches(h, space, total, calls=10)
            called = wire.decode(h.call("playtester.drive.episode:wait_counts", (), 30))
            assert isinstance(called, wire.Called) and called.ok and called.held == ()
            spun, slept = called.value
            waits[total] = spun + slept
            steps[total] = [(a, o.frame_no, dict(o.features)) for b in got for a, o in zip(b[0], b[1], strict=True)]
        finally:
            h.close()
    assert len(steps[40]) == 40 and steps[40] == steps[None]
    # for the plan's start, then (the plan played out) for the call; as before: one per call of the plan, the call's
    assert waits[40] == 2 and waits[None] == 11


def test_an_actor_relays_the_steps_it_does_not_read_in_the_bytes_the_game_sent():
    """A Ray actor's `Worker` (``pass_through``) keeps a batch step that goes on pickled (`PackedObservation`) when
    nothing in the actor reads it; pickled across, it is the same observation. With an abstract state to compute
    (`watch_states`), every step is unpacked and carries it; a local `Worker` hands out only `Observation`s."""
    from playtester.drive.observation import Observation, PackedObservation
    from playtester.drive.worker import Worker

    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    h = rw.WorkerHost(spec, space, None, False, None, None, compact=True, relay=True)
    try:
        obs = _reset(h)
        plan = _plan(0, space)
        h.worker.act_ahead_async(plan.choose(obs.action_mask), plan, 6)
        relayed = [h.worker.step_wait() for _ in range(6)]
        assert [type(o) for o in relayed] == [PackedObservation] * 5 + [Observation]  # the last ends the batch
        h.end_episode()
        got = _batches(h, space, 12, calls=3)
        h.watch_states(_feature_key)
        keyed = _batches(h, space, 12, calls=3)
    finally:
        h.close()
    local = Worker(spec, space, capture=None)
    try:
        obs = local.reset(0)
        plan = _plan(0, space)
        actions, want = local.act_ahead(plan.choose(obs.action_mask), plan, 12)
    finally:
        local.close()
    assert all(type(o) is Observation for o in want)
    for batches in (got, keyed):
        out = [o for b in batches for o in b[1]]
        assert all(type(o) is Observation for o in out)  # unpickled in the caller: observations again
        assert [b for x in batches for b in x[0]] == actions
        assert [(o.frame_no, o.features, o.action_mask.tolist()) for o in out] == \
            [(o.frame_no, o.features, o.action_mask.tolist()) for o in want]
    assert all(o.info["state_key"] == _feature_key(o) for b in keyed for o in b[1])
    assert all("state_key" not in o.info for b in got for o in b[1])


def _feature_key(obs: Any) -> str:
    return repr(sorted(obs.features.items()))


def test_a_game_that_dies_inside_a_relayed_batch_ends_there_as_its_finding():
    """The game's process dies (``os._exit``) in a batch whose earlier steps the actor relayed unread: the step is
    answered with the death (an ``exit`` end) and the state of the last step played, unpacked from its bytes."""
    from conftest import fixture_spec

    spec = fixture_spec("os_exit", frames_per_action=1)
    space = resolve_space(spec, "blind")
    h = rw.WorkerHost(spec, space, None, False, None, None, compact=True, relay=True)
    try:
        obs = _reset(h)
        plan = _plan(0, space)
        actions, first, _ = _batch(h.act_ahead(plan.choose(obs.action_mask), plan, 1, None, 10))
        actions, rest, _ = _batch(h.act_more(9))
    finally:
        h.close()
    out = first + rest
    assert [o.done for o in out] == [False] * (len(out) - 1) + [True]
    end = out[-1]
    assert end.exit is not None and end.exit.kind == "exit" and end.exit.code == 3
    assert end.frame_no == out[-2].frame_no and len(actions) == len(rest)  # the last state the game showed


def test_acting_ahead_keeps_each_answer_under_the_inline_limit(ray_local):
    """An answer over Ray's inline limit would cross through the object store and the raylet: once an answer
    shows how large a step is (frames make them large), each later call asks for as many steps as fit under
    `INLINE_SHARE` of the limit (the calls already queued keep their size), this plan's and the next plan's
    first call too; the steps played are the local worker's all the same."""
    from playtester.drive.worker import Worker

    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    local = Worker(spec, space, capture=(48, 48))
    try:
        want = [_play(local, space, seed, 60) for seed in (0, 1)]
    finally:
        local.close()
    w = rw.RayWorker(spec, space, capture=(48, 48))
    sizes: list[tuple[int, int]] = []  # (steps, bytes) of each batch's answer
    steps = w._steps

    def record(ref: Any, timeout: float) -> Any:
        value = steps(ref, timeout)
        if isinstance(value, tuple) and len(value) == 3:
            sizes.append((len(value[1]), w._answer_bytes))
        return value

    try:
        w._steps = record  # type: ignore[method-assign]
        w.inline_bytes = 40_000  # about five steps with 48x48 frames
        got = [_play(w, space, seed, 60, chunk=32) for seed in (0, 1)]
    finally:
        w.close()
    assert got == want and all(len(x) > 40 for x in got)
    per_step = sizes[0][1] / sizes[0][0]
    assert sizes[0][0] == 32 and 5_000 < per_step < 10_000  # the first answer: the caller's 32 steps, over the limit
    later = sizes[2:]  # (the second answer's call was queued before the first answer came)
    assert later and all(b <= w.inline_bytes for _, b in later), sizes
    fit = int(rw.INLINE_SHARE * 40_000 // per_step)
    assert fit - 1 <= max(n for n, _ in later) <= fit + 1  # as many as fit (by the last answer's size), no fewer
