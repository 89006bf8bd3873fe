"""The plan agent on the real dungeon, headless in worker processes: nodes, rules, navigation, validation."""

from __future__ import annotations

import pytest
from plankit import DUNGEON_PLAN

from playtester.drive.observation import GameEvent, Observation
from playtester.plans.agent import HookError, call_hook, control_space
from playtester.plans.runner import plan_spec, run_plan
from playtester.plans.schema import load_plan, parse_plan
from playtester.plans.validation import Validation, Validator


def run(variant: str, navigation: str | None = None, seed: int | None = None, plan=None):
    plan = plan or load_plan(DUNGEON_PLAN)
    lines: list[str] = []
    result, cfg, spec = run_plan(plan, plan_spec(plan, game_args={"variant": variant}), navigation, seed,
                                 log=lines.append)
    return result, lines


def test_path_navigation_completes_the_base_level():
    r, lines = run("base", "path")
    assert r.ok, "\n".join(lines)
    assert r.nodes_done == 3 and "win" in r.events
    assert [v.name for v in r.validations] == ["the switch opens the door", "a jump carries the hero over",
                                               "the shrine activates"]
    assert all(v.ok for v in r.validations)
    assert r.hook_calls == []  # path navigation moves with the game's keys only (no teleport)
    nodes = [i for i, line in enumerate(lines) if line.startswith("node ")]
    assert len(nodes) == 3 and lines[nodes[0]].startswith("node 1/3: interact switch")


@pytest.mark.parametrize("variant", ["moved", "layout"])
def test_the_same_plan_survives_moved_actors_and_a_new_layout(variant):
    r, lines = run(variant, "path")
    assert r.ok, "\n".join(lines)
    assert "win" in r.events


def test_rules_interrupt_and_the_plan_resumes_where_it_left_off():
    r, lines = run("spawns", "path", seed=0)
    assert r.ok, "\n".join(lines)
    text = "\n".join(lines)
    assert "rule 'attack any enemy within 3 tiles' (priority 10) applies" in text
    first_rule = next(i for i, line in enumerate(lines) if line.startswith("rule "))
    resume = next(i for i, line in enumerate(lines) if line.startswith("no rule applies: resuming node"))
    assert first_rule < resume
    waiting = lines[first_rule].rsplit("node ", 1)[1].split()[0]
    assert lines[resume].endswith(f"resuming node {waiting}")
    # resumed, not restarted: every node started exactly once
    assert sum(1 for line in lines if line.startswith("node 1/3")) == 1
    attacks = [v for v in r.validations if v.action == "attack"]
    assert attacks and all(v.ok for v in attacks) and all(v.context.startswith("rule ") for v in attacks)


def test_the_injected_bug_fails_the_switch_validation():
    r, lines = run("bug", "path")
    assert not r.ok
    failed = r.failed_validations
    assert [v.name for v in failed] == ["the switch opens the door"]
    assert failed[0].context == "node 1 'interact switch'" and "door_opened" in failed[0].message
    assert r.failed_step == failed[0].done_step and r.nodes_done <= 1
    assert any("out of reach" in line for line in lines)


def test_teleport_goes_through_the_game_hook():
    r, lines = run("base", "teleport")
    assert r.ok, "\n".join(lines)
    assert r.hook_calls and all(h[1] == "teleport" for h in r.hook_calls)
    assert r.steps < 20  # no walking


def test_hooks_run_in_the_game_and_missing_hooks_say_so():
    from playtester.drive.worker import Worker
    from playtester.plans.schema import config_for

    plan = load_plan(DUNGEON_PLAN)
    spec = plan_spec(plan)
    cfg = config_for(spec, plan)
    with Worker(spec, control_space(cfg), capture=None) as w:
        w.reset(seed=0)
        grid = call_hook(w, "walkable")
        assert len(grid) == 15 and len(grid[0]) == 20 and grid[2][2] is True and grid[0][0] is False
        assert grid[7][7] is False  # the closed door
        assert call_hook(w, "teleport", 0, 0) is False  # a wall: the game refuses
        assert call_hook(w, "teleport", 5, 5) is True
        obs = w.act(control_space(cfg).names.index("idle"))
        assert obs.entities["hero"].pos == (5.0, 5.0)
        with pytest.raises(HookError, match="registers no 'fly' hook .*teleport, walkable"):
            call_hook(w, "fly")


def test_a_missing_actor_is_acted_on_where_the_player_is_and_fails_its_validation():
    plan = parse_plan("version: 1\nname: ghost\nnodes:\n  - {actor: switch-9, action: interact}\n")
    plan.game = "dungeon"
    r, lines = run("base", "path", plan=plan)
    assert not r.ok
    assert any("no actor 'switch-9'" in line for line in lines)


def obs(step_events=(), **features) -> Observation:
    return Observation(frame=None, features=dict(features),
                       events=[GameEvent(n, {}, 0) for n in step_events])


def test_validator_event_binding_timeout_and_delay():
    kills = Validation("kills", "attack", event="enemy_killed", timeout_steps=2,
                       check=lambda b, a, e: (a["kills"] == b["kills"] + 1, "no kill counted"))
    later = Validation("score later", "interact", after_steps=2,
                       check=lambda b, a, e: (a["score"] > b["score"], "score did not grow"))
    results = []
    v = Validator([kills, later], "hero", on_result=results.append)
    v.before_action(obs(kills=0), 1, "attack", "enemy", "enemy-1", "rule")
    v.observe(obs(kills=0), 1)
    assert not results
    v.observe(obs(["enemy_killed"], kills=1), 2)
    assert results[-1].ok is True
    v.before_action(obs(kills=1), 3, "attack", "enemy", "enemy-2", "rule")
    v.observe(obs(kills=1), 3)
    v.observe(obs(kills=1), 4)
    assert results[-1].ok is False and "within 2 steps" in results[-1].message
    v.before_action(obs(score=1), 5, "interact", None, None, "node 1")
    v.observe(obs(score=1), 5)
    assert len(results) == 2
    v.observe(obs(score=1), 6)
    assert results[-1].ok is False and results[-1].message == "score did not grow"
    v.before_action(obs(kills=1), 7, "attack", None, None, "node 2")
    v.finish(obs(kills=1), 7, "the game ended")
    assert results[-1].ok is False and "the game ended before event 'enemy_killed'" in results[-1].message
    assert v.before_action(obs(), 8, "jump", None, None, "node 3") is None  # no validation for jump


def test_the_most_specific_validation_applies():
    any_target = Validation("any", "interact", event="x")
    switch = Validation("switch", "interact", target="switch", event="y")
    v = Validator([any_target, switch], "hero")
    assert v.find("interact", "switch", "switch-0").name == "switch"
    assert v.find("interact", "shrine", "shrine").name == "any"
    assert v.find("attack", "enemy", "enemy-0") is None
