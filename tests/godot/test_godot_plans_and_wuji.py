"""Explicit plans (teleport navigation through the add-on's hook call) and Wuji on the bundled Godot game."""

from __future__ import annotations

import pytest
from test_godot_backend import _server  # noqa: F401  (the autouse fixture: skip without godot3-server)

from playtester.drive.spec import GAMES_DIR, resolve

COINHOP = GAMES_DIR / "godot" / "coinhop"



def test_hooks_reach_the_main_scene(worker_for):
    from playtester.plans.agent import control_space
    from playtester.plans.hooks import __name__ as hooks
    from playtester.plans.schema import config_for

    spec = resolve("godot:coinhop")
    w = worker_for(spec, space=control_space(config_for(spec)))
    w.reset(0)
    assert w.call(f"{hooks}:hook_names") == ["teleport", "walkable"]
    assert w.call(f"{hooks}:call_hook", "teleport", 100, 150) == ("ok", True)
    obs = w.act([a.name for a in w.space.actions].index("idle"))  # the player falls from where it was put
    assert abs(obs.entities["player"].pos[0] - 100) < 1 and 150 < obs.entities["player"].pos[1] < 215
    assert w.call(f"{hooks}:call_hook", "fly", 1)[0] == "missing"
    grid = w.call(f"{hooks}:call_hook", "walkable")[1]
    assert len(grid) == 240 and len(grid[0]) == 320 and grid[100][100] and not grid[230][100]


def test_plan_collects_coins_and_validates_the_jump():
    from playtester.plans.runner import run_plan
    from playtester.plans.schema import load_plan

    result, cfg, spec = run_plan(load_plan(COINHOP / "coinhop.plan.yaml"))
    assert result.ok, result.reason
    assert [h[1] for h in result.hook_calls] == ["teleport"] * len(result.hook_calls) and result.hook_calls
    assert result.events.count("collected") == 2
    assert [v.ok for v in result.validations] == [True]


def test_plan_fails_when_the_jump_cannot_lift(tmp_path):
    from playtester.plans.runner import run_plan
    from playtester.plans.schema import load_plan

    plan = tmp_path / "air.plan.yaml"
    plan.write_text(f"version: 1\nname: jump in mid-air\ngame: godot:{COINHOP}\nnavigation: teleport\n"
                    "max_steps: 60\nnodes:\n  - at: [150, 60]\n    action: jump\n    tolerance: 2\n"
                    "    timeout_steps: 3\n")
    result, cfg, spec = run_plan(load_plan(plan))
    assert not result.ok
    assert [v.ok for v in result.validations] == [False]  # it fell instead of rising


def test_wuji_explores_coinhop(tmp_path):
    pytest.importorskip("torch")
    from playtester.campaign import Budget, explore

    r = explore(resolve("godot:coinhop"), out=tmp_path, agent="wuji:population=2,offspring=2,runs=1,hidden=16,"
                "max_train_rounds=1", budget=Budget(steps=80), workers=1, code_coverage=False, replay_known=False,
        finalize=False)
    try:
        assert r.steps >= 80 and r.episodes >= 1 and r.states > 10
        assert not [b for b in r.bugs if b.kind == "worker"]
        assert r.agent_stats.get("episodes", 0) >= 1
    finally:
        r.store.close()
