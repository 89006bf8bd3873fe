"""A project written for a newer Godot than the runtime (Debian's godot3 is 3.2.3) is told so once, as the runtime's
limit (exit 2: "the project needs Godot 3.4 (Input.get_axis); this runtime is 3.2.3"), never as the game's bug
(issue 56: `Nonexistent function 'get_axis' in base 'InputDefault'` was an error_log finding of the game)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

NEWAPI = Path(__file__).resolve().parent / "newapiproj"


def explore(folder, out):
    return subprocess.run([sys.executable, "-m", "playtester.cli", "explore", f"godot:{folder}", "--budget", "200",
                           "--out", str(out)], capture_output=True, text=True, timeout=300)


def test_input_get_axis_on_godot_3_2_is_the_version_it_needs_not_a_bug(godot, tmp_path):
    res = explore(NEWAPI, tmp_path / "out")
    err = " ".join(res.stderr.split())
    assert res.returncode == 2, res.stdout + res.stderr  # (it was 1 bug: an error_log finding at player.gd:8)
    assert "the project needs Godot 3.4 (Input.get_axis); this runtime is 3.2.3" in err
    assert "Nonexistent function 'get_axis' in base 'InputDefault'. (At: res://player.gd:8)" in err  # Godot's line
    assert err.count("needs Godot") == 1 and not (tmp_path / "out" / "bugs").exists()


def test_a_newer_api_met_mid_episode_stops_the_run_with_the_version(godot, tmp_path):
    """The call is reached after 20 frames, in the middle of the first episode (not at start-up)."""
    folder = tmp_path / "late"
    shutil.copytree(NEWAPI, folder)
    (folder / "player.gd").write_text(
        "extends Node2D\n\nvar frames := 0\n\n\nfunc _physics_process(delta):\n\tframes += 1\n\tif frames > 20:\n"
        "\t\tposition.x += Input.get_axis(\"ui_left\", \"ui_right\") * 100.0 * delta\n")
    res = explore(folder, tmp_path / "out")
    err = " ".join(res.stderr.split())
    assert res.returncode == 2, res.stdout + res.stderr
    assert "the project needs Godot 3.4 (Input.get_axis); this runtime is 3.2.3" in err and "(At: res://player.gd:9)" in err
    assert not (tmp_path / "out" / "bugs").exists()


def test_apis_newer_than_the_runtime_as_godot_3_2_3_names_them():
    """The lines are Godot 3.2.3's own (run: parse errors and run-time calls of 3.4 and 3.5 APIs)."""
    from playtester.drive.godot import needs_newer_godot, newer_api

    assert newer_api("Invalid call. Nonexistent function 'get_vector' in base 'InputDefault'.", "3.2.3.stable") == \
        ("3.4", "Input.get_vector")
    assert newer_api('Parse Error: The method "limit_length" isn\'t declared on base "Vector2".', "3.2.3") == \
        ("3.4", "Vector2.limit_length")
    assert newer_api('Parse Error: The method "create_tween" isn\'t declared in the current class.', "3.2.3") == \
        ("3.5", "create_tween()")
    assert newer_api("Invalid call. Nonexistent function 'create_tween' in base 'SceneTree'.", "3.2.3") == \
        ("3.5", "SceneTree.create_tween")
    assert newer_api('Parse Error: The identifier "Time" isn\'t declared in the current scope.', "3.2.3") == \
        ("3.5", "Time")
    # a misspelt method, or an API the runtime has, is the game's
    assert newer_api("Invalid call. Nonexistent function 'get_axs' in base 'InputDefault'.", "3.2.3") is None
    assert newer_api("Invalid call. Nonexistent function 'get_axis' in base 'InputDefault'.", "3.4.2.stable") is None
    # several: the newest version, each API once
    lines = ["SCRIPT ERROR: Nonexistent function 'get_axis' in base 'InputDefault'.", "   At: res://a.gd:3.",
             "SCRIPT ERROR: Nonexistent function 'get_axis' in base 'InputDefault'.", "   At: res://a.gd:3.",
             "SCRIPT ERROR: Nonexistent function 'create_tween' in base 'SceneTree'.", "   At: res://b.gd:9."]
    why = needs_newer_godot(lines, "3.2.3.stable")
    assert why.startswith("the project needs Godot 3.5 (SceneTree.create_tween); this runtime is 3.2.3")
    assert why.count("get_axis") == 1 and "(At: res://a.gd:3)" in why
