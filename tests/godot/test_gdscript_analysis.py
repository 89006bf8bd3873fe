"""The ``analyzed`` action space of Godot projects: GDScript parsed with gdtoolkit, paths solved with z3, validity
(p_g) checked on what the add-on reads live from the real Godot runtime."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from playtester.actions.space import space_from_dict, space_to_dict
from playtester.analysis import analyze
from playtester.analysis.gdscript import GodotAnalyzedSpace, analyze_project
from playtester.drive.godot import input_actions
from playtester.drive.spec import GAMES_DIR, resolve
from playtester.env import resolve_space

COINHOP = GAMES_DIR / "godot" / "coinhop"


def _by_name(result):
    return {a["name"]: a for a in result["actions"]}


def test_coinhop_actions_are_its_behaviours_with_their_conditions():
    r = analyze_project(COINHOP, input_actions(COINHOP))
    acts = _by_name(r)
    # one action per distinct behaviour: pressing both directions is standing still, not an action of its own
    assert "move_left+move_right" not in acts
    assert ["move_left", "move_right"] in acts["none"]["held"]
    assert acts["none"]["p_g_text"] == "True" and acts["move_left"]["p_g_text"] == "True"
    # jumping needs the floor and a fresh press (just_pressed: not held in the step before)
    assert "is_on_floor()" in acts["jump"]["p_g_text"] and "Not(was:jump)" in acts["jump"]["p_g_text"]
    # the wall kick to the left is its own action, valid on a wall, and the analysis sees its missing key
    kicks = [a for a in r["actions"] if a["held"][0] == ["jump", "move_left"] and "is_on_wall()" in a["p_g_text"]
             and "Not(is_on_wall())" not in a["p_g_text"]]
    assert len(kicks) == 1 and kicks[0]["errors"] == ["error: invalid index 'left' of WALL_KICK"]
    right_kick = [a for a in r["actions"] if a["held"][0] == ["jump", "move_right"] and not a["errors"]]
    assert len(right_kick) == 2  # the kick to the right works; jumping right off the floor is another behaviour
    assert ["res://player.gd", "call:is_on_wall"] in r["watch"]
    assert ["res://player.gd", "call:is_on_floor"] in r["watch"]
    assert r["handlers"] == [{"file": "res://player.gd", "function": "_physics_process", "line": 20, "paths": 14,
                              "behaviours": len(r["actions"])}]
    assert r["timings"]["total_s"] > 0


def _project(tmp_path, script, actions=("left", "right", "fire", "dash")):
    (tmp_path / "project.godot").write_text("config_version=4\n\n[input]\n\n" + "".join(
        f'{a}={{\n"deadzone": 0.5,\n"events": [  ]\n}}\n' for a in actions) + "ui_accept={\n}\n")
    (tmp_path / "hero.gd").write_text(textwrap.dedent(script))
    return tmp_path


def test_combinations_events_strength_state_and_match(tmp_path):
    _project(tmp_path, """
        extends KinematicBody2D
        enum State {IDLE, STUNNED}
        var state = State.IDLE
        var mode = "walk"
        var speed = 0.0
        var shots = 0
        var dashed = false

        func _physics_process(delta):
            if state == State.STUNNED:
                return
            if Input.is_action_pressed("left") and not Input.is_action_pressed("right"):
                speed = -Input.get_action_strength("left")
            elif Input.is_action_pressed("right") and not Input.is_action_pressed("left"):
                speed = 1.0
            match mode:
                "walk":
                    pass
                "fly":
                    if Input.is_action_just_released("dash"):
                        dashed = true

        func _unhandled_input(event):
            if event.is_action_pressed("fire"):
                shots += 1
    """)
    r = analyze_project(tmp_path, input_actions(tmp_path))
    assert input_actions(tmp_path) == ["dash", "fire", "left", "right"]
    assert sorted(r["input_actions"]) == ["dash", "fire", "left", "right"]
    assert {h["function"] for h in r["handlers"]} == {"_physics_process", "_unhandled_input"}
    by_first = {}
    for a in r["actions"]:
        by_first.setdefault(tuple(a["held"][0]), []).append(a)
    # left, right and fire each behave differently; left+right is the same as nothing for the movement
    assert ("left",) in by_first and ("right",) in by_first and ("fire",) in by_first
    assert all(("left", "right") not in [tuple(h) for h in a["held"][:1]] for a in r["actions"])
    # the stunned state does nothing whatever is held (valid only when state == STUNNED: the enum's value 1)
    stunned = [a for a in r["actions"] if "state" in a["p_g_text"] and a["held"][0] == []]
    assert stunned, [a["p_g_text"] for a in r["actions"]]
    # the release of dash matters only in the "fly" mode, after dash was held
    dash = [a for a in r["actions"] if any("dashed = True" in e for e in a["effects"])]
    assert dash and all("was:dash" in a["p_g_text"] and "fly" in a["p_g_text"] for a in dash)
    assert all("dash" not in a["held"][0] for a in dash)  # released: not held now
    # fire through _unhandled_input's event: a fresh press
    fire = [a for a in r["actions"] if any("shots = " in e for e in a["effects"])]
    assert fire and all("Not(was:fire)" in a["p_g_text"] for a in fire)
    assert {w[1] for w in r["watch"]} >= {"get:state", "get:mode"}


def test_unparsable_script_is_reported_not_fatal(tmp_path):
    _project(tmp_path, """
        extends Node
        func _process(delta):
            if Input.is_action_pressed("left"):
                print("left")
    """)
    (tmp_path / "broken.gd").write_text("func (:\n")
    r = analyze_project(tmp_path, input_actions(tmp_path))
    assert any(u["file"] == "res://broken.gd" for u in r["unsupported"])
    assert {tuple(a["held"][0]) for a in r["actions"]} == {(), ("left",)}


def test_the_space_round_trips_and_names_its_input_sets():
    spec = resolve("godot:coinhop")
    a = analyze(spec)
    space = a.space()
    assert isinstance(space, GodotAnalyzedSpace) and space.kind == "analyzed"
    back = space_from_dict(json.loads(json.dumps(space_to_dict(space))))
    assert isinstance(back, GodotAnalyzedSpace)
    assert back.names == space.names and back.input_sets == space.input_sets and back.watch == space.watch


def test_analyze_cli_lists_the_godot_actions():
    from typer.testing import CliRunner

    from playtester.cli import app

    out = CliRunner().invoke(app, ["analyze", "godot:coinhop", "--limit", "0"], terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "8 actions of godot:coinhop" in out.output and "is_on_wall()" in out.output
    assert "res://player.gd:20 in _physics_process()" in out.output


def test_validity_follows_the_live_game_and_the_wall_kick_finds_the_bug(godot, worker_for):
    spec = resolve("godot:coinhop")
    space = resolve_space(spec, "analyzed")
    names = space.names
    kick = next(i for i, a in enumerate(space.godot_analysis["actions"]) if a["errors"])
    jump = names.index("jump")
    w = worker_for(spec, space=space)
    obs = w.reset(0)
    for _ in range(3):
        obs = w.act(names.index("none"))
    assert obs.action_mask[jump] == 1 and obs.action_mask[kick] == 0  # standing on the floor, no wall
    obs = w.act(jump)
    assert obs.features["player_y"] < 200  # it jumped
    assert obs.action_mask[jump] == 0  # in the air (and jump is still held)
    for _ in range(12):
        obs = w.act(names.index("move_left"))
    floor_left = next(i for i, a in enumerate(space.godot_analysis["actions"]) if a["held"][0] == ["jump", "move_left"]
                      and "Not(is_on_wall())" in a["p_g_text"])
    # back on the floor against the left wall: the kick and a jump straight up, not the running jump to the left
    assert obs.action_mask[kick] == 1 and obs.action_mask[jump] == 1 and obs.action_mask[floor_left] == 0
    obs = w.act(kick)
    assert any("Invalid get index 'left'" in log.message for log in obs.logs)


def test_blind_space_presses_and_releases_keys(godot, worker_for):
    spec = resolve("godot:coinhop")
    space = resolve_space(spec, "blind")
    names = space.names
    w = worker_for(spec, space=space)
    obs = w.reset(0)
    x0 = obs.features["player_x"]
    obs = w.act(names.index("press RIGHT"))
    obs = w.act(names.index("press a"))  # RIGHT stays held
    x1 = obs.features["player_x"]
    assert x1 > x0 + 20
    obs = w.act(names.index("release RIGHT"))
    obs = w.act(names.index("press a"))
    x2 = obs.features["player_x"]
    obs = w.act(names.index("press b"))
    assert abs(obs.features["player_x"] - x2) < 1.0  # released: it stands


def test_keys_read_directly_are_inputs_and_other_reads_are_reported(tmp_path):
    _project(tmp_path, """
        extends Node
        var boost = false
        var moving = false
        var code = 0

        func _process(delta):
            if Input.is_key_pressed(KEY_SHIFT):
                boost = true
            if Input.is_action_pressed("right"):
                moving = true
            if Input.is_key_pressed(code):
                moving = false
    """)
    r = analyze_project(tmp_path, input_actions(tmp_path))
    assert "key:Shift" in r["input_actions"]
    # a key read through a variable cannot be named: reported with its line, the branch kept with a free condition
    assert [(u["file"], u["line"]) for u in r["unsupported"]] == [("res://hero.gd", 12)]
    assert "is_key_pressed" in r["unsupported"][0]["what"]
    boosts = [a for a in r["actions"] if any("boost = True" in e for e in a["effects"])]
    assert boosts and all("key:Shift" in h for a in boosts for h in a["held"])
    assert not any("boost = True" in e for a in r["actions"] if "key:Shift" not in a["held"][0] for e in a["effects"])


def test_an_exported_godot_space_loads_back_with_analyzed_file(tmp_path):
    """`analyze godot:... --json FILE` then `--actions analyzed:FILE`: the same actions, no re-analysis; a name
    edited by hand is kept."""
    out = tmp_path / "coinhop.json"
    proc = subprocess.run([sys.executable, "-m", "playtester.cli", "analyze", "godot:coinhop", "--json", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(out.read_text())
    data["actions"][1]["name"] = "renamed by hand"
    out.write_text(json.dumps(data))
    space = resolve_space(resolve("godot:coinhop"), f"analyzed:{out}")
    assert len(space) == len(data["analysis"]["actions"]) == 8
    assert space.actions[1].name == "renamed by hand"
    assert space.kind == "analyzed" and type(space).__name__ == "GodotAnalyzedSpace"


def test_gdtoolkit_loads_without_pkg_resources_and_leaves_no_stand_in(tmp_path):
    """Recent setuptools has no pkg_resources, which gdtoolkit 3.x imports: the parser still loads and parses,
    and the stand-in is gone afterwards (left in sys.modules it broke pytest's monkeypatch.syspath_prepend)."""
    script = tmp_path / "noshim.py"
    script.write_text(textwrap.dedent("""
        import importlib.abc, sys
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == "pkg_resources":
                    raise ModuleNotFoundError("No module named 'pkg_resources'", name="pkg_resources")
        sys.meta_path.insert(0, Block())
        from playtester.analysis.gdscript import _gdtoolkit_parser
        tree = _gdtoolkit_parser().parse("extends Node\\nfunc _process(d):\\n\\tpass\\n", gather_metadata=True)
        print(type(tree).__name__, "pkg_resources" in sys.modules)
    """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["Tree", "False"]
