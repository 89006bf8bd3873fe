"""The pytest plugin (plans collected as tests) and plans recorded from stored traces and play."""

from __future__ import annotations

from plankit import DUNGEON_PLAN

PLAN = DUNGEON_PLAN.read_text()


def test_plugin_collects_plan_files_as_tests(tmp_path):
    import subprocess
    import sys

    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "good.plan.yaml").write_text(PLAN)
    (suite / "broken.plan.yaml").write_text("version: 1\ngame: dungeon\nnodes:\n  - {actor: switch, tolerance: -2}\n")
    bug = PLAN.replace("name: complete the dungeon", "name: the bug variant").replace(
        "game: dungeon\n", "game: dungeon\ngame_args: {variant: bug}\n")
    (suite / "bug.plan.yaml").write_text(bug)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--plan-out",
                           str(tmp_path / "runs"), "-rf", "--continue-on-collection-errors", "-o", "addopts=",
                           str(suite)], capture_output=True, text=True, timeout=300, cwd=suite)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "1 failed, 1 passed, 1 error" in out, out
    assert "plan 'the bug variant' failed: validation 'the switch opens the door' failed" in out
    assert "FAILED node 1 'interact switch': interact on switch-0: the switch opens the door" in out
    assert "broken.plan.yaml:4: field 'nodes[0] ('switch').tolerance'" in out
    assert (tmp_path / "runs" / "bugs" / "1" / "trace.json").is_file()


def test_record_from_a_trace_gives_a_plan_that_runs(tmp_path):
    from playtester.actions.space import space_to_dict
    from playtester.findings import Trace
    from playtester.plans.agent import control_space
    from playtester.plans.recorder import record_trace
    from playtester.plans.runner import plan_spec, run_plan
    from playtester.plans.schema import dump_plan, load_plan, parse_plan

    plan = load_plan(DUNGEON_PLAN)
    spec = plan_spec(plan)
    result, cfg, spec = run_plan(plan, spec)
    assert result.ok
    trace = Trace(spec.text, spec.config.model_dump(), result.seed, space_to_dict(control_space(cfg)), result.actions)
    path = tmp_path / "trace.json"
    path.write_text(trace.to_json())
    recorded = record_trace(spec, path, every=4)
    acts = [(n.actor, n.action) for n in recorded.nodes if n.action]
    assert acts == [("switch-0", "interact"), (acts[1][0], "jump"), ("shrine", "interact")]
    assert acts[1][0].startswith("lava-")
    assert sum(1 for n in recorded.nodes if n.at is not None) >= 3  # periodic positions
    again = parse_plan(dump_plan(recorded))  # a valid plan file
    again.game = "dungeon"
    r2, _, _ = run_plan(again, plan_spec(again))
    assert r2.ok, r2.reason


def test_record_play_maps_keys_to_actions():
    from playtester.drive.spec import resolve
    from playtester.plans.recorder import record_play

    spec = resolve("dungeon").with_config(game_args={"variant": "base", "fps": 0, "max_frames": 120})
    # walk down 9 tiles from (2, 2) to (2, 11), next to the switch at (3, 11), then press E
    plan = record_play(spec, every=2, held={0: ["DOWN"], 54: []}, script={70: ["e"]})
    acts = [(n.actor, n.action) for n in plan.nodes if n.action]
    assert acts == [("switch-0", "interact")]
    walked = [n.at for n in plan.nodes if n.at]
    assert len(walked) >= 3 and all(x == 2.0 for x, _ in walked) and max(y for _, y in walked) >= 9.0
