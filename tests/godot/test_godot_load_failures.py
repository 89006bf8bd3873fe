"""A Godot project that cannot load is an error that says why, never a pass (issue 56: Godot prints `Failed loading
scene` and exits 0, and every step used to count as a finished episode: 0 bugs, exit 0)."""

from __future__ import annotations

import shutil
import subprocess
import sys

from playtester.drive.spec import GAMES_DIR


def project(tmp_path):
    folder = tmp_path / "coinhop"
    shutil.copytree(GAMES_DIR / "godot" / "coinhop", folder)
    return folder


def run(folder):
    return subprocess.run([sys.executable, "-m", "playtester.cli", "run", f"godot:{folder}", "--steps", "10"],
                          capture_output=True, text=True, timeout=300)


def test_a_missing_main_scene_is_exit_2_with_godots_line(godot, tmp_path):
    folder = project(tmp_path)
    text = (folder / "project.godot").read_text().replace('run/main_scene="res://main.tscn"',
                                                          'run/main_scene="res://Missing.tscn"')
    (folder / "project.godot").write_text(text)
    res = run(folder)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "did not get to its first step" in res.stderr and "Failed loading scene: res://Missing.tscn" in res.stderr
    assert "Not in the project folder" in res.stderr and "finished" not in res.stdout


def broken_autoload(tmp_path):
    """coinhop plus an autoload whose script does not parse: Godot prints the parse error before the add-on's hello,
    leaves the autoload out and plays on."""
    folder = project(tmp_path)
    with open(folder / "project.godot", "a") as f:
        f.write('\n[autoload]\n\nBroken="*res://broken.gd"\n')
    (folder / "broken.gd").write_text("extends Node\n\nfunc _ready(:\n\tpass\n")
    return folder


def test_a_parse_error_in_an_autoload_is_exit_2_with_godots_line(godot, tmp_path):
    res = run(broken_autoload(tmp_path))
    assert res.returncode == 2, res.stdout + res.stderr  # (it was exit 0, 0 findings: the error came before hello)
    err = " ".join(res.stderr.split())  # (the message is wrapped to the terminal's width)
    assert "could not load part of itself at start-up" in err
    assert "Parse Error: Expected an identifier for an argument. (At: res://broken.gd:3)" in err  # Godot's line
    assert "res://broken.gd:3 (an autoload in project.godot)" in err and "Fix it there" in err  # what to do
    assert "finished" not in res.stdout


def test_explore_on_a_broken_autoload_is_exit_2_and_no_bugs(godot, tmp_path):
    folder = broken_autoload(tmp_path)
    out = tmp_path / "out"
    res = subprocess.run([sys.executable, "-m", "playtester.cli", "explore", f"godot:{folder}", "--budget", "100",
                          "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "Parse Error" in res.stderr and not (out / "bugs").exists()


def quits_at_start(tmp_path, code):
    """coinhop whose main scene quits in its _ready (with exit code ``code``): Godot exits before the first step."""
    folder = project(tmp_path)
    main = folder / "main.gd"
    main.write_text(main.read_text().replace("func _ready():\n", f"func _ready():\n\tget_tree().quit({code})\n", 1))
    return folder


def test_a_game_that_exits_with_an_error_code_before_its_first_step_is_exit_2(godot, tmp_path):
    res = run(quits_at_start(tmp_path, 1))
    # (it was exit 1 with 10 "crash" findings: each episode's reset met a dead game)
    assert res.returncode == 2, res.stdout + res.stderr
    err = " ".join(res.stderr.split())
    assert "did not get to its first step" in err and "exited with code 1 before its first step" in err
    assert "crash" not in res.stdout


def test_a_game_that_quits_before_its_first_step_says_so_without_engine_noise(godot, tmp_path):
    res = run(quits_at_start(tmp_path, ""))
    assert res.returncode == 2, res.stdout + res.stderr
    err = " ".join(res.stderr.split())
    # (it was exit 2 with Debian's locale warnings as "its error lines": nothing about what happened)
    assert "quit before its first step, printing no error" in err and "_ready" in err
    assert "locale" not in err
