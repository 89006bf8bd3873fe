"""A project without imported assets (no ``.import/`` folder: Godot's default .gitignore leaves it out of
repositories) is imported by Godot's own editor on playtester's copy before it runs (issue 56).

``importproj`` draws a png sprite and holds a wav sound. Without the import Godot cannot load its scene (the wav:
``Failed loading scene``, exit 2) and the sprite has no texture; with it the scene loads, the texture is 16 pixels
wide and the ship moves. The project folder itself is never written to."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from playtester.drive.godot import editor_binary, import_targets, prepared_copy
from playtester.drive.spec import resolve
from playtester.env import default_space

IMPORTPROJ = Path(__file__).resolve().parent / "importproj"


@pytest.fixture
def editor(godot):
    if editor_binary() is None:
        pytest.skip("no Godot editor to import with (godot3-server or godot3; make godot)")


def project(tmp_path) -> Path:
    folder = tmp_path / "importproj"
    shutil.copytree(IMPORTPROJ, folder)
    return folder


def test_the_fixture_has_assets_to_import_and_none_imported():
    assert not (IMPORTPROJ / ".import").exists()
    assert import_targets(IMPORTPROJ) == [
        ".import/blip.wav-63afe2eb95a4af3e878a9faef4bf8254.md5", ".import/blip.wav-63afe2eb95a4af3e878a9faef4bf8254.sample",
        ".import/ship.png-232cf3806b465084ad9b06c70afe8991.md5", ".import/ship.png-232cf3806b465084ad9b06c70afe8991.stex"]


def test_the_copy_is_imported_by_godot_and_the_project_left_untouched(editor, tmp_path):
    folder = project(tmp_path)
    before = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    copy = prepared_copy(folder, tmp_path / "work")
    assert import_targets(copy) == []
    assert (copy / ".import" / "ship.png-232cf3806b465084ad9b06c70afe8991.stex").stat().st_size > 0
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) == before  # nothing written there
    # a second copy (another worker, another run) takes the import from the cache
    again = prepared_copy(folder, tmp_path / "work2")
    assert import_targets(again) == []


def test_the_run_loads_the_scene_says_it_imported_and_plays(editor, tmp_path):
    folder = project(tmp_path)
    env = dict(os.environ, PLAYTESTER_CACHE=str(tmp_path / "cache"))  # a cold cache: the import runs here
    res = subprocess.run([sys.executable, "-m", "playtester.cli", "run", f"godot:{folder}", "--steps", "30"],
                         capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "importing the assets of" in res.stderr and "Godot's editor" in res.stderr
    assert "Failed loading scene" not in res.stdout + res.stderr


def test_the_imported_texture_is_there_and_the_ship_moves(editor, worker_for):
    spec = resolve(f"godot:{IMPORTPROJ}")
    space = default_space(spec)
    w = worker_for(spec, space=space)
    obs = w.reset(0)
    assert obs.info.get("exit") is None
    assert obs.features["ship_width"] == 16  # the texture was imported (without it: no texture, -1)
    x0 = obs.features["ship_x"]
    idx = [a.name for a in space.actions].index("move_right")
    for _ in range(5):
        obs = w.act(idx)
    assert obs.features["ship_x"] == pytest.approx(x0 + 5 * 5 * 2)
