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
        obs, steps = pickle.loads(raw)
        assert steps == 1 and obs.action_mask is not None
        same, n = w._steps(ray_local.put((obs, steps)), 10)  # an answer Ray serialized reads the same
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
