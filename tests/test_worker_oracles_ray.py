"""Oracles where the game runs, on the Ray backend (issue 21): each actor checks its steps (one per call or a
batch acting ahead) and sends the findings back with them; the same seeds give the same findings as with the
oracles in the parent, and this process runs no oracle at all. Loopback Ray only, as test_ray_backend.py."""

from __future__ import annotations

import pytest
from test_worker_oracles import both_ways, campaign, record_steps

from playtester.campaign import Budget
from playtester.drive.spec import resolve
from playtester.env import resolve_space


@pytest.mark.parametrize("ahead", [1, 8])
def test_same_findings_on_ray_with_the_oracles_in_the_actor(tmp_path, ray_local, monkeypatch, ahead):
    runs = both_ways(tmp_path, monkeypatch, backend="ray", ahead=ahead)
    assert runs["worker"][:4] == runs["parent"][:4]  # findings, episodes, states and their visits
    assert runs["parent"][4] >= 300 and runs["worker"][4] == 0  # every check ran in the actors
    assert runs["worker"][5].not_sent == 1 and runs["worker"][5].sent >= 300  # the states: from the actors


def test_go_explore_on_ray_with_the_oracles_in_the_actor(tmp_path, ray_local, monkeypatch):
    """Snapshots parked in the actor carry the suite's state: returns find what they find in the parent."""
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    runs = {}
    for where in ("parent", "worker"):
        found, episodes, r = campaign(spec, tmp_path / where, where, monkeypatch, agent="goexplore",
                                      budget=Budget(steps=600), workers=1, seed=3, actions=space, backend="ray")
        runs[where] = (found, episodes, r.states, r.agent_stats["snapshots"], r.agent_stats["returns"], r.visits)
        assert r.agent_stats.get("restore_ms", 0) > 0
    assert runs["parent"][0] and runs["parent"][4]["snapshot"] > 0
    assert runs["worker"] == runs["parent"]


def test_demonstrations_replay_unchecked_in_the_actor(ray_local, monkeypatch):
    """`play_demos` on a Ray worker: its actor checks none of the demonstrations' steps (their findings would be
    dropped), and the episode after them is checked again from its reset."""
    monkeypatch.setenv("PLAYTESTER_CACHE", "off")  # every step played (the cache would read the second copy)
    from conftest import fixture_spec

    from playtester.actions.space import space_to_dict
    from playtester.campaign.demos import play_demos
    from playtester.campaign.observers import WorkerOracles
    from playtester.env import GameEnv
    from playtester.findings import Trace
    from playtester.oracles import oracle_settings

    spec = fixture_spec("buggy")  # E logs an ERROR: an error_log finding at each episode's first press
    space = resolve_space(spec, "blind")
    press, release = space.names.index("press e"), space.names.index("release e")
    env = GameEnv(spec, actions=space, capture=None, obs_type="features", backend="ray",
                  oracles=WorkerOracles(oracle_settings(spec)))
    try:
        env.reset(seed=1)
        trace = Trace(spec.text, spec.config.model_dump(mode="json"), 7, space_to_dict(space),
                      [press, release, press, release])
        seen = record_steps(env)
        demos = play_demos(env, [("demo.json", trace), ("demo2.json", trace)])
        del env.step
        assert [len(d.steps) for d in demos] == [4, 4] and len(seen) == 8
        assert not any(i.get("findings") for i in seen)
        env.reset(seed=2)  # the campaign's first episode: the actor checks again
        env.step(press)
        found = env.last_obs.info.get("findings") or []
        assert [f.kind for f in found] == ["error_log"] and "inventory corrupted" in found[0].message
    finally:
        env.close()


def test_an_actor_started_while_unwatched_checks_nothing_until_it_ends(ray_local):
    """An actor lost inside `RayWorker.unwatched` is replaced by one told so too."""
    from conftest import fixture_spec
    from test_ray_backend import _kill

    from playtester.campaign.observers import WorkerOracles
    from playtester.drive.ray_worker import RayWorker
    from playtester.oracles import oracle_settings

    spec = fixture_spec("buggy")
    space = resolve_space(spec, "blind")
    press = space.names.index("press e")
    w = RayWorker(spec, space, capture=None, oracles=WorkerOracles(oracle_settings(spec)))
    try:
        with w.unwatched():
            w.reset(seed=1)
            assert not w.act(press).info.get("findings")
            _kill(ray_local, w.actor)
            w.reset(seed=2)  # a new actor
            assert w.actor_starts == 2 and not w.act(press).info.get("findings")
        w.reset(seed=3)
        assert [f.kind for f in w.act(press).info.get("findings") or []] == ["error_log"]
    finally:
        w.close()
