"""``godot-runner:`` sees the game's script errors (issue 56): Debian's godot3-runner is a release export template,
in which GDScript's run-time checks are compiled out (no ``SCRIPT ERROR`` line, not with ``--verbose``, not in a log
file), so godot-runner plays with Debian's ``godot3`` (a debug build that renders) when it is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from playtester.drive import godot
from playtester.drive.spec import resolve
from playtester.env import default_space

FAULTPROJ = Path(__file__).resolve().parent / "faultproj"


def _need(*binaries: str) -> None:
    for b in binaries:
        if shutil.which(b) is None:
            pytest.skip(f"{b} is not installed (make godot)")


def test_godot_runner_reports_the_script_error_the_server_reports(worker_for):
    _need("godot3", "Xvfb", "godot3-server")
    assert Path(godot.godot_binary(True)).name == "godot3"
    seen = {}
    for kind in ("godot", "godot-runner"):
        spec = resolve(f"{kind}:{FAULTPROJ}")
        space = default_space(spec)
        w = worker_for(spec, space=space, capture=(32, 24) if kind == "godot-runner" else None)
        obs = w.reset(0)
        if kind == "godot-runner":
            assert obs.frame is not None and obs.frame.shape == (24, 32, 3)
        logs = []
        for _ in range(6):  # "left" held: a script error on every 7th frame (main.gd:33)
            obs = w.act(space.names.index("left"))
            logs += obs.logs
        seen[kind] = {(r.level, r.file, r.line, r.message) for r in logs}
        w.close()
    assert any(f and f.endswith("main.gd") and line == 33 for _, f, line, _ in seen["godot"]), seen["godot"]
    assert seen["godot-runner"] == seen["godot"]


def test_debians_godot3_runner_prints_no_script_error(tmp_path):
    """Why godot3 is preferred: the release template is silent about the same error (if this starts failing, a newer
    godot3-runner prints script errors and could be preferred again)."""
    _need("godot3-runner", "xvfb-run")
    proj = tmp_path / "p"
    proj.mkdir()
    (proj / "project.godot").write_text('config_version=4\n[application]\nrun/main_scene="res://main.tscn"\n')
    (proj / "main.gd").write_text('extends Node\nvar n = 0\nfunc _process(_d):\n\tn += 1\n\tif n == 3:\n'
                                  '\t\tvar x = {}["missing"]\n\tif n == 5:\n\t\tprint("debug_build=", '
                                  'OS.is_debug_build())\n\t\tget_tree().quit()\n')
    (proj / "main.tscn").write_text('[gd_scene load_steps=2 format=2]\n[ext_resource path="res://main.gd" '
                                    'type="Script" id=1]\n[node name="Main" type="Node"]\nscript = ExtResource( 1 )\n')
    out = {}
    for binary in ("godot3-runner", "godot3"):
        if shutil.which(binary) is None:
            continue
        p = subprocess.run(["xvfb-run", "-a", binary, "--path", str(proj), "--audio-driver", "Dummy"],
                           capture_output=True, text=True, timeout=120, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
        out[binary] = p.stdout + p.stderr
    assert "debug_build=False" in out["godot3-runner"] and "SCRIPT ERROR" not in out["godot3-runner"]
    if "godot3" in out:
        assert "debug_build=True" in out["godot3"] and "Invalid get index 'missing'" in out["godot3"]
