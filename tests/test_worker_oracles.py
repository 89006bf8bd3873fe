"""Oracles where the game runs (issue 21): the worker checks each step as it arrives and sends its findings back
with the step's answer; the parent's `OracleWatch` only sinks them.

- a `Worker` with ``oracles`` checks the reset's step 0, each step (one per call, a batch acting ahead), with the
  episode's step index; findings ride in ``info["findings"]``; the suite's state is copied with each snapshot and
  restored with it; the texture oracle's judgements of a step come back as ``info["judged"]``;
- the same seeds give the same findings (kind, signature, step, episode seed, trace) with the oracles in the
  parent and in the worker: blockmaze's injected bugs (one step per call and acting ahead), a crash and a hang,
  and a Go-Explore campaign (snapshots and returns); the Ray tests are in test_worker_oracles_ray.py.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from conftest import fixture_spec

from playtester.campaign import Budget, explore
from playtester.campaign.explore import check_oracles_in
from playtester.campaign.loop import Observer
from playtester.campaign.observers import BirdsEyeWatch, OracleWatch, WorkerOracles
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker
from playtester.env import resolve_space
from playtester.errors import UsageError
from playtester.findings import Finding
from playtester.oracles import OracleSuite, TextureOracle, oracle_settings
from playtester.store import Store


class Every:
    """A toy oracle: a finding at every step (its signature the number of steps it has checked so far), and
    the steps it checked, in order (its state: copied with snapshots)."""

    kind = "every"

    def reset(self) -> None:
        self.checked: list[int] = []

    def check(self, obs: Any, step: int) -> list[Finding]:
        self.checked.append(step)
        return [Finding("every", f"step {step}", f"every:{len(self.checked)}", step, "",
                        {"checked": list(self.checked)})]


def every_suite() -> OracleSuite:
    suite = OracleSuite([Every()])
    suite.reset()
    return suite


def findings(obs: Any) -> list[tuple[int, list[int]]]:
    return [(f.step, f.details["checked"]) for f in obs.info.get("findings", [])]


@pytest.fixture(scope="module")
def maze():
    spec = resolve("blockmaze")
    return spec, resolve_space(spec, "blind")


def test_the_worker_checks_every_step_where_it_runs_and_its_suite_goes_with_snapshots(maze):
    spec, space = maze
    with Worker(spec, space, capture=None, oracles=every_suite) as w:
        obs = w.reset(seed=1)
        assert findings(obs) == [(0, [0])]
        for i in range(1, 4):
            assert findings(w.act(0)) == [(i, list(range(i + 1)))]
        snap = w.snapshot()
        assert snap is not None
        assert findings(w.act(0)) == [(4, [0, 1, 2, 3, 4])]
        assert findings(w.act(0)) == [(5, [0, 1, 2, 3, 4, 5])]
        back = w.restore(snap)
        assert back is not None and "findings" not in back.info  # the restored step's findings were sent before
        # the suite is as it was at the snapshot: it goes on from step 3, not from step 5
        assert findings(w.act(0)) == [(4, [0, 1, 2, 3, 4])]
        assert findings(w.act(0)) == [(5, [0, 1, 2, 3, 4, 5])]
        back = w.restore(snap)  # restored again: a fresh copy of the suite at the snapshot each time
        assert findings(w.act(0)) == [(4, [0, 1, 2, 3, 4])]
        # acting ahead: every batch step is checked as it arrives, with its own index
        rng = np.random.default_rng(0)
        from playtester.agents.common import RandomPlan

        actions, out = w.act_ahead(0, RandomPlan.of(rng, len(space)), 5)
        assert [findings(o)[0][0] for o in out] == [5, 6, 7, 8, 9]
        assert findings(out[-1])[0][1] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        obs = w.reset(seed=2)  # a new episode: a fresh suite
        assert findings(obs) == [(0, [0])]
        w.drop_snapshot(snap)
        assert w._suite_snapshots == {}


def _key(obs: Any) -> str:
    return f"frame {obs.frame_no}"


def test_a_ray_actors_worker_sends_findings_and_state_keys_as_typed_fields(maze):
    """What the actor's `Worker` measured crosses as `messages.Checked` fields (issue 58), not inside ``obs.info``;
    the `RayWorker` side (`Checked.observation`) gives users the same ``info`` keys as a local `Worker`. Run
    without Ray: the `WorkerHost` is called directly, as its actor would be."""
    import pickle as pk

    from playtester.agents.common import RandomPlan
    from playtester.drive import messages as wire
    from playtester.drive.ray_worker import WorkerHost

    spec, space = maze
    h = WorkerHost(spec, space, None, False, None, every_suite, compact=True)
    try:
        h.watch_states(_key)
        start = wire.decode(h.reset(1))
        assert isinstance(start, wire.WorkerState) and start.answer is not None
        assert [f.step for f in start.answer.findings] == [0] and start.answer.state_key == _key(start.answer.obs)
        assert "findings" not in start.answer.obs.info and "state_key" not in start.answer.obs.info
        one = wire.decode(pk.loads(h.act(0, None)))
        assert isinstance(one, wire.Steps) and one.actions == (0,) and one.steps == 1
        (c,) = one.answers
        assert [f.step for f in c.findings] == [1] and c.watched and c.state_key == _key(c.obs)
        assert set(c.obs.info) & {"findings", "state_key"} == set()
        obs = c.observation()
        assert findings(obs) == [(1, [0, 1])] and obs.info["state_key"] == _key(obs)
        batch = wire.decode(pk.loads(h.act_ahead(0, RandomPlan.of(np.random.default_rng(0), len(space)), 4, None)))
        assert [f.step for c in batch.answers for f in c.findings] == [2, 3, 4, 5]
        assert all("findings" not in c.obs.info for c in batch.answers)
    finally:
        h.close()
    with Worker(spec, space, capture=None, oracles=every_suite) as w:  # a local worker: into info at once
        w.watch_states(_key)
        obs = w.reset(seed=1)
        assert findings(obs) == [(0, [0])] and obs.info["state_key"] == _key(obs)
        assert w.checked is not None and w.checked.obs is obs


def test_a_worker_without_oracles_checks_nothing(maze):
    spec, space = maze
    with Worker(spec, space, capture=None) as w:
        assert "findings" not in w.reset(seed=1).info and "findings" not in w.act(0).info
        assert w.suite is None


def record_steps(env: Any) -> list[dict[str, Any]]:
    """Wrap ``env.step`` to keep each step's info in the list returned (``del env.step`` puts it back)."""
    seen: list[dict[str, Any]] = []
    real_step = env.step

    def step(a: int) -> Any:
        out = real_step(a)
        seen.append(dict(env.last_obs.info))
        return out

    env.step = step
    return seen


def test_demonstrations_replay_unchecked_and_the_next_episode_is_checked_again(maze, monkeypatch):
    """`play_demos` plays through the campaign's first worker before the first step: its steps' findings would be
    dropped, so the worker checks none of them (the texture oracle's networks cost more than the park's frames),
    and the campaign's first episode after it gets a fresh suite."""
    monkeypatch.setenv("PLAYTESTER_CACHE", "off")  # every step played (the cache would read the second copy)
    from playtester.actions.space import space_to_dict
    from playtester.campaign.demos import play_demos
    from playtester.env import GameEnv
    from playtester.findings import Trace

    spec, space = maze
    env = GameEnv(spec, actions=space, capture=None, obs_type="features", oracles=every_suite)
    try:
        env.reset(seed=1)
        assert findings(env.last_obs) == [(0, [0])]
        env.step(0)
        assert findings(env.last_obs) == [(1, [0, 1])]
        trace = Trace(spec.text, spec.config.model_dump(mode="json"), 7, space_to_dict(space), [0, 1, 0, 1])
        seen = record_steps(env)
        demos = play_demos(env, [("demo.json", trace), ("demo2.json", trace)])
        del env.step
        assert [len(d.steps) for d in demos] == [4, 4] and [s.action for s in demos[0].steps] == [0, 1, 0, 1]
        assert len(seen) == 8 and not any("findings" in i for i in seen)
        assert env.worker.oracles is every_suite  # put back
        env.reset(seed=2)  # the campaign's first episode: checked from its step 0, by a fresh suite
        assert findings(env.last_obs) == [(0, [0])]
        env.step(0)
        assert findings(env.last_obs) == [(1, [0, 1])]
    finally:
        env.close()


class FakeJudge:
    """Judges every frame: one object, its box the frame's left half."""

    def __call__(self, frame: Any) -> list[Any]:
        from playtester.vision.verdict import Judgement

        h, w = frame.shape[:2]
        return [Judgement((0.0, 0.0, w / 2, float(h)), "barrel", 0.9, "lowres", 0.99)]


def texture_suite() -> OracleSuite:
    suite = OracleSuite([TextureOracle(judge=FakeJudge(), every=2, confirm=2, min_height=0, min_score=0)])
    suite.reset()
    return suite


def test_the_texture_oracles_judgements_come_back_with_their_step(maze):
    spec, space = maze
    with Worker(spec, space, capture="full", oracles=texture_suite) as w:
        obs = w.reset(seed=1)
        if obs.frame is None or obs.frame.shape[1] < 320:
            pytest.skip("blockmaze's window is too narrow for the texture oracle")
        steps = [obs] + [w.act(0) for _ in range(4)]
    judged = [("judged" in o.info) for o in steps]
    assert judged == [True, False, True, False, True]  # every 2nd step's frame
    assert [o.info["judged"][0].kind for o in steps if "judged" in o.info] == ["barrel"] * 3
    # the second judged frame confirms the verdict: a finding, with no frame in it (it pickles small)
    assert [f.signature for f in steps[2].info["findings"]] == ["texture:barrel:lowres"]
    assert len(pickle.dumps(steps[2].info["findings"])) < 2000
    # the bird's-eye record reads the judgements sent with the step (the slot's suite is not in this process)
    slot = type("S", (), {"suite": None})()
    assert BirdsEyeWatch._judgements(slot, 2, steps[2]) == steps[2].info["judged"]
    assert BirdsEyeWatch._judgements(slot, 1, steps[1]) is None


def test_where_the_oracles_check_is_the_callers_then_the_environments_then_the_worker(monkeypatch):
    monkeypatch.delenv("PLAYTESTER_ORACLES", raising=False)
    assert check_oracles_in(None) == "worker"
    monkeypatch.setenv("PLAYTESTER_ORACLES", "parent")
    assert check_oracles_in(None) == "parent" and check_oracles_in("worker") == "worker"
    monkeypatch.setenv("PLAYTESTER_ORACLES", "cloud")
    with pytest.raises(UsageError, match="oracles in 'cloud'"):
        check_oracles_in(None)


def test_worker_oracles_pickle_small_and_make_the_configs_suite(maze):
    spec, _ = maze
    make = WorkerOracles(oracle_settings(spec))
    suite = make()
    assert suite.kinds == list(oracle_settings(spec).enabled)
    again = pickle.loads(pickle.dumps(make))
    assert again().kinds == suite.kinds and len(pickle.dumps(make)) < 4000
    assert check_oracles_in("Parent") == "parent"
    with pytest.raises(UsageError, match="oracles in 'elsewhere'"):
        check_oracles_in("elsewhere")


def test_oracle_watch_sinks_what_the_worker_sent_and_drops_it_on_a_replayed_step():
    from playtester.campaign.loop import Slot, Step
    from playtester.drive.observation import GameExit, Observation

    sunk: list[Any] = []
    watch = OracleWatch(lambda slot, f: sunk.append(f.signature))
    slot = Slot(0, None, None)
    f = Finding("crash", "boom", "crash:x", 3)
    obs = Observation(frame=None, info={"findings": [f]})
    watch.on_step(Step(slot, 3, 1, None, None, None, 0.0, True, False, {}, obs))
    assert sunk == ["crash:x"] and "findings" not in obs.info
    watch.on_step(Step(slot, 3, 1, None, None, None, 0.0, True, False, {}, obs))  # the same answer again: nothing
    assert sunk == ["crash:x"]
    lost = Observation(frame=None, done=True, info={"exit": GameExit("worker_lost"), "findings": [f]})
    watch.on_step(Step(slot, 4, 1, None, None, None, 0.0, True, False, {}, lost))
    assert sunk == ["crash:x"]

    class Env:
        last_obs = Observation(frame=None, info={"findings": [f]})

    watch.on_replay_step(Slot(0, Env(), None), 3)
    assert sunk == ["crash:x"] and "findings" not in Env.last_obs.info


# ------------------------------------------------------------------------------- whole campaigns, both ways
class KeysSent(Observer):
    """Steps whose abstract state the worker sent (``info["state_key"]``), and those it did not."""

    def __init__(self) -> None:
        self.sent = self.not_sent = 0

    def on_step(self, step: Any) -> None:
        if "state_key" in getattr(step.game_obs, "info", {}):
            self.sent += 1
        else:
            self.not_sent += 1


def campaign(spec: Any, out: Any, where: str, monkeypatch: Any, **kw: Any) -> tuple[list[Any], list[Any], Any]:
    """Every finding the campaign sank (kind, signature, step, episode seed, its trace's actions), its episodes
    (seed, steps, outcome) and its result (with ``keys``: a `KeysSent`, ``states``: the stored
    visits per state)."""
    got: list[tuple[Any, ...]] = []
    record = Store.record_finding

    def recording(self: Store, cid: int, game: str, finding: Any, trace: Any, t: float) -> Any:
        got.append((finding.kind, finding.signature, finding.step, trace.seed, tuple(trace.actions)))
        return record(self, cid, game, finding, trace, t)

    monkeypatch.setattr(Store, "record_finding", recording)
    keys = KeysSent()
    r = explore(spec, out=out, replay_known=False, oracles_in=where, observers=[keys], **kw, finalize=False)
    r.keys, r.visits = keys, r.store.states(r.campaign_id)
    episodes = [(e["seed"], e["steps"], e["outcome"]) for e in r.store.episodes(r.campaign_id)]
    r.store.close()
    return sorted(g for g in got if g[0] != "frame_time"), episodes, r


def count_parent_checks(monkeypatch: Any) -> list[int]:
    """How many times `OracleWatch` checked a step with a suite in this process."""
    n = [0]
    real = OracleSuite.check

    def counted(self: OracleSuite, obs: Any, step: int) -> Any:
        import inspect

        if any(fr.function in ("on_step", "on_replay_step") for fr in inspect.stack()[1:3]):
            n[0] += 1
        return real(self, obs, step)

    monkeypatch.setattr(OracleSuite, "check", counted)
    return n


def both_ways(tmp_path: Any, monkeypatch: Any, **kw: Any) -> dict[str, tuple[Any, ...]]:
    """blockmaze's analyzed space, 300 steps on 2 workers, with the oracles in the parent and in the worker: per
    place (findings, episodes, states, visits, oracle checks made in this process, the state keys' counts)."""
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    parent_checks = count_parent_checks(monkeypatch)
    runs = {}
    for where in ("parent", "worker"):
        parent_checks[0] = 0
        found, episodes, r = campaign(spec, tmp_path / where, where, monkeypatch, budget=Budget(steps=300),
                                      workers=2, seed=3, actions=space, **kw)
        runs[where] = (found, episodes, r.states, r.visits, parent_checks[0], r.keys)
    assert runs["parent"][0], "blockmaze's injected bugs should be found in 300 steps"
    return runs


@pytest.mark.parametrize("ahead", [1, 8])
def test_same_findings_with_the_oracles_in_the_parent_and_in_the_worker(tmp_path, monkeypatch, ahead):
    runs = both_ways(tmp_path, monkeypatch, ahead=ahead)
    assert runs["worker"][:4] == runs["parent"][:4]  # findings, episodes, states and their visits
    assert runs["parent"][4] >= 300 and runs["worker"][4] == 0  # the worker's run checked nothing in OracleWatch
    # the abstract states: computed in the worker for every step but the first episode's first (its reset
    # chose the abstraction), in the parent for all with the oracles there
    assert runs["worker"][5].not_sent == 1 and runs["worker"][5].sent >= 300 and runs["parent"][5].sent == 0


@pytest.mark.parametrize("game, config, budget, kind", [
    ("os_exit", {"game_args": {"sig": 9}}, 12, "crash"),
    ("forever", {"step_timeout_s": 1.0}, 4, "hang"),
])
def test_a_crash_and_a_hang_are_found_the_same_in_the_worker(tmp_path, monkeypatch, game, config, budget, kind):
    spec = fixture_spec(game, **config)
    runs = {where: campaign(spec, tmp_path / where, where, monkeypatch, budget=Budget(steps=budget),
                            actions="blind")[:2] for where in ("parent", "worker")}
    assert kind in [f[0] for f in runs["parent"][0]]
    assert runs["worker"] == runs["parent"]


def test_go_explore_with_the_oracles_in_the_worker_finds_what_it_finds_in_the_parent(tmp_path, monkeypatch):
    """Snapshots and returns: the suite's state travels with the worker's snapshots (not the parent's)."""
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    runs = {}
    for where in ("parent", "worker"):
        found, episodes, r = campaign(spec, tmp_path / where, where, monkeypatch, agent="goexplore",
                                      budget=Budget(steps=600), workers=1, seed=3, actions=space)
        runs[where] = (found, episodes, r.states, r.agent_stats["snapshots"], r.agent_stats["returns"], r.visits)
        assert r.agent_stats.get("restore_ms", 0) > 0  # it returned to snapshots
    assert runs["parent"][3] > 0 and runs["parent"][4]["snapshot"] > 0 and len(runs["parent"][1]) >= 3
    # findings after returns: one episode seed's bug found again at several steps of its returns
    assert len(runs["parent"][0]) > len({(f[1], f[3]) for f in runs["parent"][0]})
    assert runs["worker"] == runs["parent"]
