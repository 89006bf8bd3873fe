"""The blacklist (default ESCAPE, F11, PAUSE) applies to Godot's declared space (issue 56: toggle_pause and
toggle_fullscreen stayed in): an InputMap action bound to blacklisted keys alone, or named for pausing, fullscreen or
quitting while that key is blacklisted, is left out; a blacklist without the key keeps it."""

from __future__ import annotations

from playtester.drive.godot import input_actions
from playtester.drive.spec import resolve
from playtester.env import default_space


def _key(code):
    return ('Object(InputEventKey,"resource_local_to_scene":false,"resource_name":"","device":0,"alt":false,'
            '"shift":false,"control":false,"meta":false,"command":false,"pressed":false,'
            f'"scancode":{code},"physical_scancode":0,"unicode":0,"echo":false,"script":null)')


def _pad(button):
    return ('Object(InputEventJoypadButton,"resource_local_to_scene":false,"resource_name":"","device":0,'
            f'"button_index":{button},"pressure":0.0,"pressed":false,"script":null)')


def _action(name, *events):
    return f'{name}={{\n"deadzone": 0.5,\n"events": [ ' + ",\n".join(events) + "\n ]\n}\n"


def project(tmp_path):
    esc, f11, pause, space, p = 16777217, 16777254, 16777225, 32, 80
    (tmp_path / "project.godot").write_text(
        "config_version=4\n\n[application]\n\nconfig/name=\"Blacklisted\"\n\n[input]\n\n"
        + _action("toggle_pause", _key(pause)) + _action("toggle_fullscreen", _key(f11))
        + _action("leave", _key(esc)) + _action("quit_game", _key(p)) + _action("pause", _key(p))
        + _action("menu", _key(esc), _pad(11)) + _action("jump", _key(space)) + _action("shoot"))
    (tmp_path / "hero.gd").write_text('extends Node\n\nfunc _input(e):\n\tif e.is_action_pressed("ui_cancel") or '
                                      'e.is_action_pressed("ui_accept"):\n\t\tpass\n')
    return tmp_path


def test_the_default_blacklist_leaves_pause_fullscreen_and_quit_actions_out(tmp_path):
    folder = project(tmp_path)
    # menu: Esc or a pad button (not Esc alone); shoot: no events; ui_cancel: Esc (Godot's default InputMap)
    assert input_actions(folder) == ["jump", "menu", "shoot", "ui_accept"]
    names = default_space(resolve(f"godot:{folder}")).names
    assert not {"toggle_pause", "toggle_fullscreen", "leave", "quit_game", "pause", "ui_cancel"} & set(
        n for name in names for n in name.split("+"))
    assert "jump+menu" in names


def test_a_blacklist_without_the_keys_keeps_them(tmp_path):
    folder = project(tmp_path)
    every = ["jump", "leave", "menu", "pause", "quit_game", "shoot", "toggle_fullscreen", "toggle_pause",
             "ui_accept", "ui_cancel"]
    assert input_actions(folder, []) == every
    spec = resolve(f"godot:{folder}").with_config(blacklist=[])
    assert set(default_space(spec).names) >= set(every)
    # only Esc blacklisted: the quit/Esc actions out, pause and fullscreen back in
    assert input_actions(folder, ["ESCAPE"]) == ["jump", "menu", "pause", "shoot", "toggle_fullscreen",
                                                 "toggle_pause", "ui_accept"]
