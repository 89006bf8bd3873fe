"""Plan and plan-config files: loading, errors that name file, line and field, dumping."""

from __future__ import annotations

import pytest
from plankit import DUNGEON_PLAN, GAMES, dungeon_config, plan_writer

from playtester.errors import ConfigError
from playtester.plans.schema import (
    check_plan_against,
    dump_plan,
    load_config,
    load_plan,
    parse_plan,
)


def test_shipped_plan_and_config_load():
    plan = load_plan(DUNGEON_PLAN)
    assert [n.action for n in plan.nodes] == ["interact", "jump", "interact"]
    assert [n.actor for n in plan.nodes] == ["switch", "lava", "shrine"]
    assert plan.rules[0].when.within == 3 and plan.rules[0].priority == 10
    cfg = load_config(GAMES / "dungeon.plan-config.yaml")
    assert cfg.gameplay_actions == ["interact", "attack", "jump"]
    check_plan_against(plan, cfg)


def test_dump_round_trips():
    plan = load_plan(DUNGEON_PLAN)
    again = parse_plan(dump_plan(plan))
    assert again.model_dump(exclude={"source"}) == plan.model_dump(exclude={"source"})


@pytest.mark.parametrize("body, line, field, words", [
    ("nodes:\n  - actor: switch\n    tolerance: -1\n", 4, "nodes[0] ('switch').tolerance", "greater than or equal"),
    ("nodes:\n  - actor: switch\n    actoin: interact\n", 4, "nodes[0] ('switch').actoin", "did you mean 'action'"),
    ("nodes: []\n", 2, "nodes", "at least 1"),
    ("nodes:\n  - actor: a\n    at: [1, 2]\n", 3, "nodes[0] ('a')", "either 'actor' or 'at'"),
    ("navigation: fly\nnodes:\n  - actor: a\n", 2, "navigation", "'teleport', 'path' or 'learned'"),
    ("nodes:\n  - actor: a\nrules:\n  - when: {within: 3}\n", 5, "rules[0].when", "needs an 'actor'"),
    ("nodes:\n  - actor: a\nrules:\n  - when: {actor: enemy, features: 'hp >'}\n", 5, "rules[0].when.features",
     "cannot parse"),
])
def test_bad_plans_name_file_line_and_field(tmp_path, body, line, field, words):
    write_plan = plan_writer(tmp_path)
    path = write_plan("version: 1\n" + body)
    with pytest.raises(ConfigError) as e:
        load_plan(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}:{line}: field '{field}'"), msg
    assert words in msg


def test_unknown_action_is_named_with_line_and_suggestion(tmp_path):
    write_plan, dungeon_cfg = plan_writer(tmp_path), dungeon_config()
    path = write_plan("version: 1\nnodes:\n  - actor: switch\n    action: interract\n")
    with pytest.raises(ConfigError) as e:
        check_plan_against(load_plan(path), dungeon_cfg)
    msg = str(e.value)
    assert f"{path}:4:" in msg and "unknown action 'interract'" in msg and "did you mean 'interact'" in msg


def test_version_yaml_and_type_errors(tmp_path):
    write_plan = plan_writer(tmp_path)
    with pytest.raises(ConfigError, match=r":1: field 'version': plan schema version 2"):
        load_plan(write_plan("version: 2\nnodes: [{actor: a}]\n"))
    with pytest.raises(ConfigError, match=r"p.plan.yaml:\d+: not valid YAML"):
        load_plan(write_plan("version: 1\nnodes:\n  - [unclosed\n"))
    with pytest.raises(ConfigError, match=r":1: a plan is a mapping"):
        load_plan(write_plan("- just a list\n"))
    with pytest.raises(ConfigError, match="cannot read"):
        load_plan(write_plan("x") .with_name("missing.plan.yaml"))


def test_bad_config_names_field(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text("version: 1\nplayer: hero\ncontrols:\n  up: {keys: [UP]}\n  idle: {}\n  jump: {keys: [NOPE]}\n")
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert f"{path}:6: field 'controls.jump.keys'" in str(e.value) and "unknown key name 'NOPE'" in str(e.value)
    path.write_text("version: 1\ncontrols:\n  idle: {}\nmoves: {up: [0, -1]}\n")
    with pytest.raises(ConfigError, match="controls lack 'up'"):
        load_config(path)
