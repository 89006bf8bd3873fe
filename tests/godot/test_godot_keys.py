"""Keys read directly by GDScript (``event is InputEventKey``, ``event.scancode == KEY_X``, ``Input.is_key_pressed``):
analysed as inputs ``key:NAME`` like InputMap actions, and injected as ``InputEventKey``s by the add-on."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from playtester.analysis.gdscript import analyze_project, key_name
from playtester.drive.godot import input_actions
from playtester.drive.spec import resolve
from playtester.env import resolve_space

KEYPROJ = Path(__file__).resolve().parent / "keyproj"


def _project(tmp_path, script):
    (tmp_path / "project.godot").write_text('config_version=4\\n\\n[input]\\n\\nfire={\\n"deadzone": 0.5,\\n"events": [  ]\\n}\\n')
    (tmp_path / "hero.gd").write_text(textwrap.dedent(script))
    return tmp_path


def _effects(a):
    return " ".join(a["effects"])


def test_key_names_are_godots():
    assert [key_name(k) for k in ("KEY_SPACE", "KEY_A", "KEY_LEFT", "KEY_KP_ENTER")] == ["Space", "A", "Left",
                                                                                       "Kp Enter"]


def test_the_key_project_is_analysed_like_input_actions():
    r = analyze_project(KEYPROJ, input_actions(KEYPROJ))
    assert r["input_actions"] == ["key:Left", "key:Right", "key:Space", "wave"]
    assert r["unsupported"] == []
    by_held = {tuple(a["held"][0]): a for a in r["actions"]}
    # the event handler: a fresh press of Space hops (not when Space was already held)
    hop = by_held[("key:Space",)]
    assert "hops = 1 +" in _effects(hop) and "position.y = -10 +" in _effects(hop)
    assert "Not(was:key:Space)" in hop["p_g_text"]
    # the polled keys: Right wins over Left (elif), both held is Right's behaviour
    assert "position.x = 2 +" in _effects(by_held[("key:Right",)])
    assert "position.x = -2 +" in _effects(by_held[("key:Left",)])
    assert ["key:Left", "key:Right"] in by_held[("key:Right",)]["held"]
    assert "hops" not in _effects(by_held[("key:Left",)]) and by_held[()]["p_g_text"] == "True"


def test_match_on_scancode_release_echo_and_keys_not_compared(tmp_path):
    _project(tmp_path, """
        extends Node
        var charging = false
        var fired = false
        var repeated = false
        var anything = false

        func _input(event):
            if event is InputEventKey:
                if event.echo:
                    repeated = true
                match event.scancode:
                    KEY_A, KEY_B:
                        if event.pressed:
                            charging = true
                        else:
                            fired = true

        func _unhandled_key_input(event):
            if event.is_pressed():
                anything = true
    """)
    r = analyze_project(tmp_path, input_actions(tmp_path))
    assert {"key:A", "key:B"} <= set(r["input_actions"])
    charge = [a for a in r["actions"] if "charging = True" in _effects(a)]
    assert charge and all(set(h) & {"key:A", "key:B"} for a in charge for h in a["held"])
    # the release: A or B held in the previous step and not now
    fire = [a for a in r["actions"] if "fired = True" in _effects(a)]
    assert fire and all("was:key:A" in a["p_g_text"] or "was:key:B" in a["p_g_text"] for a in fire)
    assert all(not set(a["held"][0]) & {"key:A", "key:B"} for a in fire)
    assert not any("repeated = True" in _effects(a) for a in r["actions"])  # playtester sends no echoes
    # a handler that reads a key event without naming the key: reported, its condition left free
    assert any(u["what"].startswith("_unhandled_key_input: a key event") for u in r["unsupported"])


def test_analysed_key_actions_move_the_live_game_as_their_paths_say(godot, worker_for):
    spec = resolve(f"godot:{KEYPROJ}")
    space = resolve_space(spec, "analyzed")
    names = space.names
    w = worker_for(spec, space=space)
    obs = w.reset(0)
    x0, y0 = obs.features["walker_x"], obs.features["walker_y"]
    obs = w.act(names.index("key:Right"))  # held 5 frames: +2 a physics frame
    assert obs.features["walker_x"] == pytest.approx(x0 + 10) and obs.features["walker_y"] == y0
    obs = w.act(names.index("key:Left"))
    assert obs.features["walker_x"] == pytest.approx(x0)
    hop = names.index("key:Space")
    assert obs.action_mask[hop] == 1
    obs = w.act(hop)  # a fresh press: one hop, whatever the frames
    assert obs.features["walker_y"] == pytest.approx(y0 - 10) and obs.features["walker_hops"] == 1
    assert obs.action_mask[hop] == 0  # Space is held now: holding it again is no press (masked)
    obs = w.act(hop)  # performed anyway: no second hop
    assert obs.features["walker_hops"] == 1
    obs = w.act(names.index("none"))
    obs = w.act(names.index("key:Right+key:Space"))  # released, pressed again, with Right: hop and walk
    assert obs.features["walker_hops"] == 2 and obs.features["walker_x"] == pytest.approx(x0 + 10)
    assert obs.features["walker_y"] == pytest.approx(y0 - 20)
