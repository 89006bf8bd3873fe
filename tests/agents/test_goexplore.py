"""Go-Explore reaches a deep cell of a corridor that random play does not reach with the same budget,
returning by snapshot and by trace replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from playtester.campaign import Budget, explore
from playtester.drive.spec import resolve
from playtester.replay import replay_bug

GAMES = Path(__file__).parent / "games"


def _corridor():
    return resolve(f"{GAMES / 'corridor.py'}:main", frames_per_action=2, max_episode_steps=60)


def _run(tmp_path, agent):
    return explore(_corridor(), out=tmp_path / agent.replace(":", "_"), agent=agent, budget=Budget(steps=1500),
                   actions=f"manual:{GAMES / 'corridor.actions.yaml'}", code_coverage=False, replay_known=False)


def test_random_play_does_not_reach_the_deep_cell(tmp_path):
    r = _run(tmp_path, "random")
    assert not [b for b in r.bugs if b.kind != "frame_time"]  # the wall-clock oracle may fire when loaded
    assert max(x for x, _ in r.store.positions(r.campaign_id)) < 20


@pytest.mark.parametrize("mode", ["snapshot", "replay"])
def test_goexplore_reaches_it_and_the_bug_replays_from_the_seed(tmp_path, mode):
    r = _run(tmp_path, f"goexplore:explore_steps=30,return_mode={mode}")
    [bug] = [b for b in r.bugs if b.kind != "frame_time"]  # the wall-clock oracle may fire when loaded
    assert bug.message == "deep cell reached" and len(bug.trace.actions) >= 20
    assert replay_bug(bug).reproduced  # the returned-to trace plus exploration is the bug's full trace
    episodes = r.store.episodes(r.campaign_id)
    assert any(e["outcome"] == "agent" for e in episodes)  # explorations end after explore_steps
    returns = r.agent_stats["returns"]
    assert returns[mode] > 5 and returns["replay_failed"] == 0
    if mode == "snapshot":
        assert r.agent_stats["restore_ms"] > 0 and r.agent_stats["timings"]["snapshots"] > 0
    else:
        assert r.agent_stats["replay_ms"] > 0 and r.agent_stats["snapshots"] == 0
