"""Oracles where the game runs, on the Ray backend (issue 21): each actor checks its steps (one per call or a
batch acting ahead) and sends the findings back with them; the same seeds give the same findings as with the
oracles in the parent, and this process runs no oracle at all. Loopback Ray only, as test_ray_backend.py."""

from __future__ import annotations

import pytest
from test_worker_oracles import both_ways, campaign

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
