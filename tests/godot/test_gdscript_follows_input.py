"""The GDScript analysis follows input where real projects read it (issue 56, "Analysis that follows input"): in a
helper function, in another node's script or a Reference class, through names built from constants, as action
strengths combined in vectors, through Godot 3.4's get_axis / get_vector, in screen touches; and Godot's default
InputMap actions are not reported as missing. Each fixture project is under tests/fixtures/godot/."""

from __future__ import annotations

import textwrap
from pathlib import Path

from playtester.analysis import analyze
from playtester.analysis.gdscript import analyze_project
from playtester.drive.godot import input_actions
from playtester.drive.spec import resolve
from playtester.env import resolve_space

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "godot"


def _analyze(name):
    folder = FIXTURES / name
    return analyze_project(folder, input_actions(folder))


def _effects(a):
    return " ".join(a["effects"])


def _by_first(r):
    return {tuple(a["held"][0]): a for a in r["actions"]}


def test_input_read_in_a_helper_gives_each_direction_its_own_action():
    """Causes 1 and 4: get_direction() combines four action strengths in a Vector2; each direction (and each
    diagonal) is an action of its own, opposite directions cancel out."""
    r = _analyze("helperproj")
    assert r["input_actions"] == ["move_down", "move_left", "move_right", "move_up"]
    assert [h["function"] for h in r["handlers"]] == ["_physics_process"]
    by = _by_first(r)
    assert {("move_right",), ("move_left",), ("move_up",), ("move_down",), ("move_down", "move_right")} <= set(by)
    assert "velocity = Vector2(4, 0)" in _effects(by[("move_right",)])
    assert "velocity = Vector2(-4, 0)" in _effects(by[("move_left",)])
    assert "velocity = Vector2(0, -4)" in _effects(by[("move_up",)])
    assert "velocity = Vector2(0, 4)" in _effects(by[("move_down",)])
    # left and right together stand still: the same action as nothing held, not an action of their own
    assert ["move_left", "move_right"] in by[()]["held"] and "velocity = Vector2(0, 0)" in _effects(by[()])
    assert len([a for a in r["actions"] if a["name"].startswith("none")]) == 1
    assert len(r["actions"]) == 9  # 3 x 3 directions
    assert r["unsupported"] == [] and r["stats"]["notes"] == []


def test_four_strengths_in_the_handler_are_four_directions_not_two_nones(tmp_path):
    """Cause 4 without the helper: the strengths combined in a Vector2 used to make one symbolic effect for every
    input and a free condition on `dir != Vector2.ZERO`: two actions, both `none`."""
    folder = tmp_path / "inline"
    folder.mkdir()
    (folder / "project.godot").write_text((FIXTURES / "helperproj" / "project.godot").read_text())
    (folder / "player.gd").write_text(textwrap.dedent("""\
        extends KinematicBody2D
        const SPEED = 80
        var velocity = Vector2.ZERO

        func _physics_process(delta):
            var input_vector = Vector2.ZERO
            input_vector.x = Input.get_action_strength("move_right") - Input.get_action_strength("move_left")
            input_vector.y = Input.get_action_strength("move_down") - Input.get_action_strength("move_up")
            input_vector = input_vector.normalized()
            if input_vector != Vector2.ZERO:
                velocity = velocity.move_toward(input_vector * SPEED, 500 * delta)
            else:
                velocity = velocity.move_toward(Vector2.ZERO, 500 * delta)
            velocity = move_and_slide(velocity)
    """))
    r = analyze_project(folder, input_actions(folder))
    names = [a["name"] for a in r["actions"]]
    assert {"none", "move_right", "move_left", "move_up", "move_down"} <= set(names), names
    assert not any(n.startswith("none #") for n in names)
    assert len(names) == 9
    assert "Vector2(80, 0)" in _effects(_by_first(r)[("move_right",)])


def test_input_read_by_another_nodes_script_and_by_reference_classes():
    """Cause 2: `onready var control = $Control` (resolved through main.tscn), `InputHandler.new()` (class_name)
    and `preload("res://dasher.gd").new()`."""
    r = _analyze("nodesproj")
    assert r["input_actions"] == ["dash", "jump", "move_left", "move_right"]
    by = _by_first(r)
    assert "position.x = 2 +" in _effects(by[("move_right",)])
    assert "position.x = -2 +" in _effects(by[("move_left",)])
    hop = [a for a in r["actions"] if "hops = 1 +" in _effects(a)]
    assert hop and all("Not(was:jump)" in a["p_g_text"] for a in hop)
    assert all("jump" in a["held"][0] for a in hop)
    dash = [a for a in r["actions"] if "dashes = 1 +" in _effects(a)]
    assert dash and all("dash" in h for a in dash for h in a["held"])
    assert not any("dashes" in _effects(a) for a in r["actions"] if "dash" not in a["held"][0])


def test_action_names_built_from_constants_are_folded():
    """Cause 3: "right" + suffix (a member never assigned), "left" + SUFFIX, "jump_p%d" % number,
    "duck_p" + str(number)."""
    r = _analyze("suffixproj")
    assert r["input_actions"] == ["duck_p1", "jump_p1", "left_p1", "right_p1"]
    assert r["unsupported"] == []
    by = _by_first(r)
    assert "position.x = 2 +" in _effects(by[("right_p1",)])
    assert "position.x = -2 +" in _effects(by[("left_p1",)])
    assert "ducked = True" in _effects(by[("duck_p1",)]) and "ducked = False" in _effects(by[()])
    assert "Not(was:jump_p1)" in by[("jump_p1",)]["p_g_text"]


def test_get_axis_and_get_vector_read_both_actions_and_need_godot_3_4():
    """Cause 5: Input.get_axis / Input.get_vector (Godot 3.4) read each of their actions; the project is noted
    as needing Godot 3.4 (Debian's godot3 is 3.2.3)."""
    r = _analyze("axisproj")
    assert r["input_actions"] == ["move_down", "move_left", "move_right", "move_up", "turn_left", "turn_right"]
    by = _by_first(r)
    assert "turning = 1" in _effects(by[("turn_right",)]) and "turning = -1" in _effects(by[("turn_left",)])
    assert "Vector2(3, 0)" in _effects(by[("move_right",)]) and "Vector2(0, -3)" in _effects(by[("move_up",)])
    assert ["turn_left", "turn_right"] in by[()]["held"]
    # a diagonal is limited to length 1, as get_vector does
    diag = _effects(by[("move_down", "move_right")])
    assert "Vector2(2.12" in diag, diag
    assert r["requires"]["godot"] == "3.4"
    assert any("get_vector" in w and "3.4" in w for w in r["requires"]["why"])
    warnings = analyze(resolve(f"godot:{FIXTURES / 'axisproj'}")).warnings
    assert "res://player.gd:9: Input.get_vector() is Godot 3.4's: the project needs Godot 3.4 (Debian's godot3 is " \
        "3.2.3)" in warnings, warnings


def test_a_screen_touch_is_a_tap_action():
    """Cause 6: `event is InputEventScreenTouch and event.pressed` is the tap input `tap:4` (the add-on's tap at the
    screen's centre: a press and a release in one step, each step it is held): the press's and the release's
    behaviours both hold it; no key event is reported as unsupported."""
    r = _analyze("touchproj")
    assert r["input_actions"] == ["tap:4"]
    assert r["unsupported"] == []
    tap = [a for a in r["actions"] if "taps = 1 +" in _effects(a)]
    assert len(tap) == 1 and tap[0]["held"] == [["tap:4"]] and tap[0]["p_g_text"] == "True"
    lift = [a for a in r["actions"] if "lifts = 1 +" in _effects(a)]
    assert len(lift) == 1 and lift[0]["held"] == [["tap:4"]]
    nothing = [a for a in r["actions"] if a["held"] == [[]]]
    assert len(nothing) == 1 and "taps" not in _effects(nothing[0]) and "lifts" not in _effects(nothing[0])
    assert len(r["actions"]) == 3


def test_a_touch_project_played_with_its_analyzed_space_hops_on_a_tap(godot, worker_for):
    spec = resolve(f"godot:{FIXTURES / 'touchproj'}")
    space = resolve_space(spec, "analyzed")
    tap = next(i for i, a in enumerate(space.godot_analysis["actions"]) if "taps = 1 +" in " ".join(a["effects"]))
    none = next(i for i, a in enumerate(space.godot_analysis["actions"]) if a["held"] == [[]])
    w = worker_for(spec, space=space, capture=None)
    y0 = w.reset(0).features["player_y"]
    obs = w.act(none)
    assert obs.features["player_y"] == y0
    obs = w.act(tap)
    assert obs.features["player_y"] == y0 - 10  # one tap: a touch press (and its release)
    obs = w.act(tap)
    assert obs.features["player_y"] == y0 - 20  # held again: another tap


def test_default_inputmap_actions_are_not_reported_missing():
    """Cause 7: ui_left, ui_accept, ui_cancel are Godot's default InputMap: no `names an action not in the
    InputMap` note; ui_cancel (Esc, left out of the declared space) is never held by the analyzed space."""
    folder = FIXTURES / "uiproj"
    assert input_actions(folder) == ["ui_accept", "ui_left", "ui_right"]
    r = _analyze("uiproj")
    assert r["stats"]["notes"] == []
    assert r["input_actions"] == ["ui_accept", "ui_left", "ui_right"]
    assert not any("ui_cancel" in h for a in r["actions"] for h in a["held"])
    by = _by_first(r)
    assert "position.x = 2 +" in _effects(by[("ui_right",)])


def test_a_helper_project_played_with_its_analyzed_space_moves_both_ways(godot, worker_for):
    spec = resolve(f"godot:{FIXTURES / 'helperproj'}")
    space = resolve_space(spec, "analyzed")
    names = space.names
    w = worker_for(spec, space=space, capture=None)
    obs = w.reset(0)
    x0, y0 = obs.features["player_x"], obs.features["player_y"]
    for _ in range(5):
        obs = w.act(names.index("move_right"))
    x1 = obs.features["player_x"]
    assert x1 > x0 + 50  # 5 steps of 5 frames at 4 px
    for _ in range(10):
        obs = w.act(names.index("move_left"))
    assert obs.features["player_x"] < x1 - 100
    for _ in range(5):
        obs = w.act(names.index("move_up"))
    assert obs.features["player_y"] < y0 - 50
    x2 = obs.features["player_x"]
    obs = w.act(names.index("none"))
    assert obs.features["player_x"] == x2


def test_the_event_passed_to_a_helper_a_base_class_and_an_autoload(tmp_path):
    """Calls are followed with the handler's event passed on (`_handle(event)`), into functions inherited from
    the project script a script extends, and into an autoload's script."""
    (tmp_path / "project.godot").write_text(
        'config_version=4\n\n[application]\n\nrun/main_scene="res://main.tscn"\n\n'
        '[autoload]\n\nControls="*res://controls.gd"\n\n[input]\n\n'
        + "".join(f'{a}={{\n"deadzone": 0.5,\n"events": [  ]\n}}\n' for a in ("fire", "left", "right")))
    (tmp_path / "main.tscn").write_text('[gd_scene load_steps=2 format=2]\n\n'
                                        '[ext_resource path="res://hero.gd" type="Script" id=1]\n\n'
                                        '[node name="Hero" type="Node2D"]\nscript = ExtResource( 1 )\n')
    (tmp_path / "actor.gd").write_text(textwrap.dedent("""\
        extends Node2D
        class_name Actor
        var speed = 0

        func get_direction():
            return Controls.direction()
    """))
    (tmp_path / "controls.gd").write_text(textwrap.dedent("""\
        extends Node

        func direction():
            if Input.is_action_pressed("right"):
                return 1
            if Input.is_action_pressed("left"):
                return -1
            return 0
    """))
    (tmp_path / "hero.gd").write_text(textwrap.dedent("""\
        extends Actor
        var shots = 0
        var spaces = 0

        func _physics_process(_delta):
            speed = get_direction() * 3

        func _unhandled_input(event):
            _handle(event)

        func _handle(ev):
            if ev.is_action_pressed("fire"):
                shots += 1
            if ev is InputEventKey and ev.pressed and ev.scancode == KEY_SPACE:
                spaces += 1
    """))
    r = analyze_project(tmp_path, input_actions(tmp_path))
    assert r["input_actions"] == ["fire", "key:Space", "left", "right"]
    assert {(h["file"], h["function"]) for h in r["handlers"]} == {("res://hero.gd", "_physics_process"),
                                                                    ("res://hero.gd", "_unhandled_input")}
    by = _by_first(r)
    assert "speed = 3" in _effects(by[("right",)]) and "speed = -3" in _effects(by[("left",)])
    assert "shots = 1 +" in _effects(by[("fire",)]) and "Not(was:fire)" in by[("fire",)]["p_g_text"]
    assert "spaces = 1 +" in _effects(by[("key:Space",)])
    assert r["unsupported"] == []


def test_components_set_in_helpers_exported_names_and_integrate_forces(tmp_path):
    """Patterns of Godot's own demos: a velocity copied, its components set from the direction in a helper and
    returned; action names built from an exported suffix the scenes set per node ("" / "_p1" / "_p2"), each
    name a way to perform the action; input read in a RigidBody2D's `_integrate_forces`."""
    (tmp_path / "project.godot").write_text(
        'config_version=4\n\n[input]\n\n'
        + "".join(f'{a}={{\n"deadzone": 0.5,\n"events": [  ]\n}}\n'
                  for a in ("jump", "move_left", "move_left_p2", "move_right", "move_right_p2")))
    (tmp_path / "main.tscn").write_text(textwrap.dedent("""\
        [gd_scene load_steps=3 format=2]

        [ext_resource path="res://hero.gd" type="Script" id=1]
        [ext_resource path="res://ball.gd" type="Script" id=2]

        [node name="Main" type="Node2D"]

        [node name="Hero" type="KinematicBody2D" parent="."]
        script = ExtResource( 1 )

        [node name="Hero2" type="KinematicBody2D" parent="."]
        script = ExtResource( 1 )
        action_suffix = "_p2"

        [node name="Ball" type="RigidBody2D" parent="."]
        script = ExtResource( 2 )
    """))
    (tmp_path / "hero.gd").write_text(textwrap.dedent("""\
        extends KinematicBody2D
        export var speed = Vector2(150, 300)
        export(String) var action_suffix = ""
        var _velocity = Vector2.ZERO

        func _physics_process(_delta):
            var direction = get_direction()
            _velocity = calculate_move_velocity(_velocity, direction, speed)
            _velocity = move_and_slide(_velocity)

        func get_direction():
            return Vector2(Input.get_action_strength("move_right" + action_suffix)
                - Input.get_action_strength("move_left" + action_suffix), 0)

        func calculate_move_velocity(linear_velocity, direction, speed):
            var velocity = linear_velocity
            velocity.x = speed.x * direction.x
            return velocity
    """))
    (tmp_path / "ball.gd").write_text(textwrap.dedent("""\
        extends RigidBody2D
        var jumps = 0

        func _integrate_forces(state):
            if Input.is_action_pressed("jump"):
                jumps += 1
    """))
    r = analyze_project(tmp_path, input_actions(tmp_path))
    assert r["input_actions"] == ["jump", "move_left", "move_left_p2", "move_right", "move_right_p2"]
    assert r["unsupported"] == []
    by = _by_first(r)
    right, left = _effects(by[("move_right",)]), _effects(by[("move_left",)])
    assert "x=(speed.x * 1)" in right and "x=(speed.x * -1)" in left
    assert ["move_right_p2"] in by[("move_right",)]["held"]  # player 2's name performs the same action
    assert "jumps = 1 +" in _effects(by[("jump",)])
    assert "res://ball.gd" in {h["file"] for h in r["handlers"]}


def test_action_names_built_from_the_nodes_name_in_ready_give_each_node_its_actions():
    """demo_pong: one script on two nodes, each reading `name.to_lower() + "_move_up"` set in _ready. The node names
    come from the scene; each node's handler is analysed on its own, so every paddle's actions are in the space
    (it used to give one `none` action, then one paddle's)."""
    r = _analyze("nodenameproj")
    assert r["input_actions"] == ["left_move_down", "left_move_up", "right_move_down", "right_move_up"]
    assert sorted(h.get("node") for h in r["handlers"]) == ["Left", "Right"]
    held = {a for act in r["actions"] for h in act["held"] for a in h}
    assert held == set(r["input_actions"])
    firsts = {tuple(a["held"][0]) for a in r["actions"]}
    assert {("left_move_up",), ("left_move_down",), ("right_move_up",), ("right_move_down",)} <= firsts
    assert len(r["actions"]) == 9  # 3 x 3: each paddle still, up or down
    assert r["unsupported"] == [] and r["stats"]["notes"] == []


def test_a_node_named_project_played_with_its_analyzed_space_moves_each_paddle_alone(godot, worker_for):
    spec = resolve(f"godot:{FIXTURES / 'nodenameproj'}")
    space = resolve_space(spec, "analyzed")
    names = space.names
    w = worker_for(spec, space=space, capture=None)
    obs = w.reset(0)
    left, right = obs.entities["left"].pos[1], obs.entities["right"].pos[1]
    for _ in range(5):
        obs = w.act(names.index("right_move_up"))
    assert obs.entities["right"].pos[1] < right - 50 and obs.entities["left"].pos[1] == left
    for _ in range(5):
        obs = w.act(names.index("left_move_down"))
    assert obs.entities["left"].pos[1] > left + 50
