"""``playtester plan ...`` as a user runs it: real subprocesses, exit codes, JUnit, replay."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

from plankit import DUNGEON_PLAN


def playtester(*args, timeout=300, env=None):
    import os

    e = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "playtester.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=e)


def test_plan_run_failure_writes_junit_and_replays(tmp_path):
    out = playtester("plan", "run", str(DUNGEON_PLAN), "--game-arg", "variant=bug", "--junit",
                     str(tmp_path / "junit.xml"), "--out", str(tmp_path / "runs"))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "[FAIL] validation 'the switch opens the door'" in out.stdout
    assert "FAILED: plan 'complete the dungeon'" in out.stdout
    root = ET.parse(tmp_path / "junit.xml").getroot()
    cases = root.findall(".//testcase")
    assert [c.get("name") for c in cases] == [
        "node 1 'interact switch': interact on switch-0: the switch opens the door", "plan completes"]
    assert all(c.find("failure") is not None for c in cases)
    assert root.get("tests") == "2" and root.get("failures") == "2"
    rep = playtester("replay", str(tmp_path / "runs" / "bugs" / "1"))
    assert rep.returncode == 0, rep.stdout + rep.stderr
    assert "reproduced: plan 'complete the dungeon': validation 'the switch opens the door' failed" in rep.stdout
    assert "in all 2 runs" in rep.stdout
    mini = playtester("minimize", str(tmp_path / "runs" / "bugs" / "1"))  # not a false "1-minimal"
    assert mini.returncode == 2 and "plan traces are not shrunk" in mini.stdout + mini.stderr, mini.stdout


def test_plan_run_passes_with_exit_0(tmp_path):
    out = playtester("plan", "run", str(DUNGEON_PLAN), "--game-arg", "variant=layout", "--junit",
                     str(tmp_path / "j.xml"), "--out", str(tmp_path / "runs"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "PASSED" in out.stdout and "1/1 plans passed" in out.stdout
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.get("failures") == "0" and int(root.get("tests")) >= 4
    assert not (tmp_path / "runs").exists()


def test_plan_validate_and_errors(tmp_path):
    ok = playtester("plan", "validate", str(DUNGEON_PLAN))
    assert ok.returncode == 0 and "ok: plan 'complete the dungeon', 3 nodes, 1 rules" in ok.stdout
    bad = tmp_path / "bad.plan.yaml"
    bad.write_text("version: 1\ngame: dungeon\nnodes:\n  - actor: switch\n    action: pull\n")
    out = playtester("plan", "validate", str(bad))
    assert out.returncode == 2
    assert f"{bad}:5: field 'nodes[0] ('pull switch').action': unknown action 'pull'" in out.stderr


def test_plan_actors_lists_actors_actions_and_hooks():
    out = playtester("plan", "actors", "dungeon")
    assert out.returncode == 0, out.stderr
    for text in ("switch: switch-0 (3,11)", "shrine: shrine (16,7)", "interact: keys e", "jump: keys j",
                 "the switch opens the door", "teleport, walkable"):
        assert text in out.stdout, text


def test_from_text_then_run(tmp_path):
    plan = tmp_path / "t.plan.yaml"
    out = playtester("plan", "from-text", "dungeon", "Activate the switch. Jump over the ledge. Interact with the shrine.",
                     "--out", str(plan), "--no-embeddings")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "embedding model not installed or disabled" in out.stdout
    run = playtester("plan", "run", str(plan), "--out", str(tmp_path / "runs"))
    assert run.returncode == 0, run.stdout + run.stderr
