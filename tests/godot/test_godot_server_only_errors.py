"""An error line that only godot3-server prints is not the game's (issue 56, openjam2020): its dummy rasterizer
makes an Image of a mipmapped texture's data without the mipmaps ("Expected data size ... in Image::create()"); a
renderer (godot3 under Xvfb, a player's Godot) loads the texture silently. Real Godot: the fixture's texture is
imported with mipmaps by playtester's import, loaded at frame 10."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from playtester.drive.godot import prepared_copy
from playtester.drive.spec import resolve
from playtester.env import default_space

PROJ = Path(__file__).resolve().parent.parent / "fixtures" / "godot" / "mipmapproj"


def test_the_servers_image_create_error_is_not_a_finding_of_the_game(godot, worker_for, tmp_path):
    # the server does print it for this project (else this test would prove nothing)
    project = prepared_copy(PROJ, tmp_path)  # imported by playtester; played as it is (the add-on's autoload out)
    (project / "override.cfg").unlink()
    p = subprocess.run(["timeout", "3", "godot3-server", "--path", str(project), "--audio-driver", "Dummy"],
                       capture_output=True, text=True, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert "in Image::create(), got instead" in p.stdout + p.stderr
    spec = resolve(f"godot:{PROJ}")
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    obs = w.reset(0)
    logs = list(obs.logs)
    for _ in range(6):
        obs = w.act(0)
        logs += obs.logs
    assert obs.frame_no >= 10 and obs.info.get("exit") is None
    assert not [r for r in logs if "Image::create" in r.message], logs


def test_a_renderer_loads_that_texture_silently(godot, tmp_path):
    if shutil.which("godot3") is None or shutil.which("xvfb-run") is None:
        pytest.skip("godot3 / xvfb-run are not installed (make godot)")
    project = prepared_copy(PROJ, tmp_path)
    (project / "override.cfg").unlink()
    p = subprocess.run(["timeout", "20", "xvfb-run", "-a", "godot3", "--path", str(project), "--audio-driver",
                        "Dummy"], capture_output=True, text=True,
                       env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert "Godot Engine" in p.stdout + p.stderr and "Image::create" not in p.stdout + p.stderr
