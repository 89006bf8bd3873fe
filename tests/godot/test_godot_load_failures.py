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
