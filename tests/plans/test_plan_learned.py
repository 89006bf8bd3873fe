"""The learned navigation: the shipped PPO policy, its training script, and plans run with it."""

from __future__ import annotations

import pytest
from plankit import DUNGEON_PLAN

from playtester.plans.learned import DEFAULT_POLICY, PPOConfig, evaluate, load_policy, train


def test_shipped_policy_navigates_new_layouts():
    policy = load_policy()
    assert DEFAULT_POLICY.stat().st_size < 1_000_000
    assert evaluate(policy, 60, seed=4242, max_steps=120, sensor=policy.sensor, memory=policy.memory) >= 0.85


def test_training_script_writes_a_loadable_policy(tmp_path):
    cfg = PPOConfig(total_steps=2 * 8 * 16, num_envs=8, num_steps=16, eval_episodes=5, hidden=16)
    stats = train(cfg, tmp_path / "p.pt", log=lambda s: None)
    assert 0.0 <= stats["success_rate"] <= 1.0
    policy = load_policy(tmp_path / "p.pt")
    assert policy.sensor == cfg.sensor


def test_missing_policy_file_is_a_clear_error(tmp_path):
    from playtester.errors import UsageError

    with pytest.raises(UsageError, match="no navigation policy at .*python -m playtester.plans.learned"):
        load_policy(tmp_path / "nope.pt")


def test_never_trained_on_doors_or_fights_yet_completes_the_dungeon():
    from playtester.plans.runner import plan_spec, run_plan
    from playtester.plans.schema import load_plan

    plan = load_plan(DUNGEON_PLAN)
    lines: list[str] = []
    r, _, _ = run_plan(plan, plan_spec(plan, game_args={"variant": "base"}), "learned", 0, log=lines.append)
    assert r.ok, "\n".join(lines)
    assert r.hook_calls == [] and "win" in r.events


def test_learned_navigation_catches_the_injected_bug():
    from playtester.plans.runner import plan_spec, run_plan
    from playtester.plans.schema import load_plan

    plan = load_plan(DUNGEON_PLAN)
    r, _, _ = run_plan(plan, plan_spec(plan, game_args={"variant": "bug"}), "learned", 0)
    assert not r.ok and [v.name for v in r.failed_validations] == ["the switch opens the door"]


def test_the_shield_never_steps_onto_unwalkable_tiles():
    from playtester.plans.learned import LearnedNavigator
    from playtester.plans.navigation import NavState, Task

    rows = ["#####", "#.L.#", "#####"]  # L: lava (not walkable) between the player and the target
    grid = [[ch == "." for ch in row] for row in rows]
    moves = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
    nav = LearnedNavigator()
    for _ in range(30):
        d = nav.step(Task((3.0, 1.0), 0.0), NavState((1.0, 1.0), None, grid, moves))
        assert d.kind == "wait"  # every move is blocked: never into the lava
