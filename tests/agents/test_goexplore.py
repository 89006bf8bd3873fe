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
                   actions=f"manual:{GAMES / 'corridor.actions.yaml'}", code_coverage=False, replay_known=False,
        finalize=False)


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


# ---- cells and selection, on the agent alone (no game process)
def _transition(features, entities=None):
    from playtester.agents.common import Transition
    from playtester.drive.observation import Observation

    obs = Observation(frame=None, features=dict(features))
    return Transition(None, 0, 0.0, None, False, False, {}, None, True, game_obs=obs)


def _agent(**opts):
    from playtester.agents.common import CampaignInfo
    from playtester.agents.goexplore import GoExploreAgent

    agent = GoExploreAgent(4, **opts)
    agent.setup(CampaignInfo(4, features=["x", "y", "score", "buffs"], reward_feature="score",
                             position="features", position_cell=10.0, cell_features=["buffs"]))
    return agent


def test_cell_features_join_the_position_cell_key():
    agent = _agent()
    a = agent.cell_key(_transition({"x": 15, "y": 25, "score": 0, "buffs": 0}))
    b = agent.cell_key(_transition({"x": 15, "y": 25, "score": 0, "buffs": 2}))
    c = agent.cell_key(_transition({"x": 19, "y": 21, "score": 0, "buffs": 2.7}))
    assert a != b and b == c  # same 10-unit position cell; buffs 2 and 2.7 share the integer part
    assert agent.cell_key(_transition({"x": 15, "y": 25, "score": 7, "buffs": 0})) != a  # a higher score bucket


@pytest.mark.parametrize("base,scores,same", [(2.0, (300, 500), True), (1.25, (300, 500), False)])
def test_score_base_sets_how_fine_score_buckets_are(base, scores, same):
    agent = _agent(score_base=base)
    lo, hi = (agent.level(s) for s in scores)
    assert (lo == hi) is same and hi >= lo


def test_level_weight_prefers_cells_of_the_highest_score_bucket():
    from playtester.agents.goexplore import Cell

    flat, ranked = _agent(level_weight=1.0), _agent(level_weight=0.1)
    for agent in (flat, ranked):
        agent.top_level = agent.level(1000)
    low, high = Cell(0, (), 3.0), Cell(0, (), 1000.0)
    assert flat.weight(low) == pytest.approx(flat.weight(high))
    assert ranked.weight(high) == pytest.approx(flat.weight(high))
    levels_below = ranked.level(1000) - ranked.level(3)
    assert ranked.weight(low) == pytest.approx(flat.weight(low) * 0.1 ** levels_below)


def test_cells_without_a_snapshot_on_this_worker_weigh_less():
    from playtester.agents.goexplore import Cell

    agent = _agent(replay_weight=0.1)
    agent.archive = {"a": Cell(0, (1,), 0.0), "b": Cell(0, (2,), 0.0)}
    agent.held = {0: {"a"}}
    w0, w1 = agent.selection_weights(0, ["a", "b"]), agent.selection_weights(1, ["a", "b"])
    assert w0[1] == pytest.approx(0.1 * w0[0])  # slot 0 parked a snapshot of a only
    assert w1[0] == pytest.approx(w1[1])  # slot 1 holds none: both are replays
    replaying = _agent(replay_weight=0.1, return_mode="replay")
    replaying.archive, replaying.held = agent.archive, agent.held
    w = replaying.selection_weights(0, ["a", "b"])
    assert w[0] == pytest.approx(w[1])  # without snapshots every return is a replay


def test_an_action_that_changed_nothing_is_not_repeated():
    agent = _agent(repeat_prob=1.0)
    info = {"action_mask": [1, 1, 1, 1]}
    first = agent.act(None, info)
    assert all(agent.act(None, info) == first for _ in range(20))  # repeat_prob 1: always repeated
    agent.observe(0, _transition({"x": 5, "y": 5, "score": 0, "buffs": 0}))
    agent.observe(0, _transition({"x": 5, "y": 5, "score": 0, "buffs": 0}))  # a move into a wall
    assert 0 not in agent.last_action  # the next action is drawn afresh


def test_cell_feature_buckets_fixed_size_and_log2():
    from playtester.agents.common import CampaignInfo
    from playtester.agents.goexplore import GoExploreAgent, bucket

    assert [bucket(v, "log2") for v in (0, 0.5, 1, 2, 3, 4, 7, 8, -4)] == [0, 1, 1, 2, 2, 3, 3, 4, -3]
    assert [bucket(v, 16.0) for v in (0, 15.9, 16, -1)] == [0, 0, 1, -1]
    assert bucket(None, "log2") is None and bucket(float("nan"), 2.0) is None
    agent = GoExploreAgent(4)
    agent.setup(CampaignInfo(4, features=["x", "y", "score", "distance"], reward_feature="score",
                             position="features", position_cell=10.0, cell_features=["distance:log2"]))
    keys = [agent.cell_key(_transition({"x": 15, "y": 25, "score": 0, "distance": d})) for d in (0, 4, 6.5, 9)]
    assert keys[0] != keys[1] == keys[2] != keys[3]  # standing on the target is a cell of its own


@pytest.mark.parametrize("entry", ["distance:", "distance:zero", "distance:-2", ":log2", "distance:inf"])
def test_malformed_cell_features_are_config_errors(tmp_path, entry):
    from playtester.agents.settings import agent_settings
    from playtester.drive.spec import resolve
    from playtester.errors import ConfigError

    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    (tmp_path / "playtester.toml").write_text(f'fps = 30\n\n[agent]\ncell_features = ["{entry}"]\n')
    with pytest.raises(ConfigError, match=r"playtester.toml:4: field 'agent.cell_features"):
        agent_settings(resolve(str(tmp_path / "game.py")))


def test_a_return_by_replay_does_not_hold_the_other_worker_up(tmp_path):
    """Replays run in the campaign's loop beside the other slots: while one worker replays its way back to a
    cell (steps that do not count), the other keeps exploring (steps that do)."""
    counted: list[int] = []
    r = explore(_corridor(), out=tmp_path / "two", agent="goexplore:explore_steps=30,return_mode=replay",
                budget=Budget(steps=1500), workers=2, actions=f"manual:{GAMES / 'corridor.actions.yaml'}",
                code_coverage=False, replay_known=False, on_progress=lambda p: counted.append(p["steps"]),
        finalize=False)
    replay_steps = r.agent_stats["timings"]["replay_steps"]
    assert r.agent_stats["returns"]["replay"] > 5 and r.agent_stats["returns"]["replay_failed"] == 0
    # each loop round steps both workers; a round that counted fewer than 2 had a worker replaying
    rounds = list(zip([0] + counted[:-1], counted, strict=True))
    idle = sum(2 - (b - a) for a, b in rounds)
    assert replay_steps > 0 and idle >= replay_steps
    # one replayed while the other explored (the last round may be short for the step budget alone)
    assert any(b - a == 1 for a, b in rounds[:-1])
    [bug] = [b for b in r.bugs if b.kind != "frame_time"]
    assert replay_bug(bug).reproduced


def test_a_replay_starts_from_the_nearest_snapshot_on_the_way(tmp_path):
    """A worker returning to a cell the other worker found restores its own snapshot of a cell on the way
    there (where that exploration set out from) and replays only the rest; bugs found after such a
    return still replay from the seed."""
    r = explore(_corridor(), out=tmp_path / "two", agent="goexplore:explore_steps=30,replay_weight=1", workers=2,
                budget=Budget(steps=1500), actions=f"manual:{GAMES / 'corridor.actions.yaml'}",
                code_coverage=False, replay_known=False, finalize=False)
    stats = r.agent_stats
    assert stats["returns"]["via_snapshot"] > 0 and stats["returns"]["replay_failed"] == 0
    assert stats["timings"]["replay_skipped_steps"] > stats["timings"]["replay_steps"] > 0
    [bug] = [b for b in r.bugs if b.kind != "frame_time"]
    assert replay_bug(bug).reproduced


def test_the_snapshot_cap_follows_the_memory_available():
    from playtester.agents.goexplore import GoExploreAgent, auto_snapshot_cap

    assert auto_snapshot_cap(2, avail_mb=21_000) == 512  # a 24 GB machine: the most
    assert auto_snapshot_cap(2, avail_mb=2_000) == 64  # a small one: the least
    assert auto_snapshot_cap(1, avail_mb=4_000) == 200 and auto_snapshot_cap(2, avail_mb=4_000) == 100  # shared
    assert auto_snapshot_cap(2, avail_mb=None) in range(64, 513)
    assert GoExploreAgent(4, max_snapshots=3).snapshot_cap == 3 and GoExploreAgent(4).snapshot_cap >= 64


def test_no_cell_where_the_episode_ended_or_hit_its_step_limit():
    import dataclasses

    agent = _agent()
    t = _transition({"x": 5, "y": 5, "score": 0, "buffs": 0})
    agent.observe(0, dataclasses.replace(t, terminated=True))
    agent.observe(0, dataclasses.replace(t, truncated=True))
    assert not agent.archive  # a return there could not explore a single step
    agent.observe(0, t)
    assert len(agent.archive) == 1
