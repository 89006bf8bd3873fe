"""Each episode of a pygame game in a copy of the game's folder of its own (issue 57, `drive.isolation`): a game
that writes a save file beside itself plays the same in every episode and every replay, and its folder is never
written. Real worker processes and real files; the control (``fresh_folder = false``) shows the fixture leaks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import GAMES

from playtester.drive import isolation
from playtester.drive.inputs import InputFrame
from playtester.drive.spec import resolve

CLI = Path(sys.executable).parent / "playtester"


def _game(tmp_path: Path) -> Path:
    folder = tmp_path / "save_file"
    shutil.copytree(GAMES / "save_file", folder)
    return folder


def _episode(w, seed=1):
    """(saved score seen at start, x at start, how the episode ended within 6 steps)."""
    obs = w.reset(seed=seed)
    start = (obs.features["saved"], obs.features["x"])
    for _ in range(6):
        if obs.done:
            break
        obs = w.step(InputFrame.make(keys=["RIGHT"]))
    exit = obs.info.get("exit")
    return start, (exit.kind, exit.exc_type) if exit else None


def test_every_episode_starts_from_the_games_folder_as_it_was(worker_for, tmp_path):
    game = _game(tmp_path)
    w = worker_for(resolve(f"{game}/save_file.py:main"), capture=None)
    runs = [_episode(w) for _ in range(3)]
    assert runs == [((-1, 4), ("exception", "RuntimeError"))] * 3, runs  # the first-run bug, every time
    assert not (game / "save.txt").exists()  # the game's folder is not written
    assert sorted(p.name for p in game.rglob("*")) == ["assets", "save_file.py", "ship.txt"]
    # control: the episodes share the folder, the second sees the first's save and plays otherwise
    shared = worker_for(resolve(f"{game}/save_file.py:main", fresh_folder=False), capture=None)
    first, second = _episode(shared), _episode(shared)
    assert first[0] == (-1, 4) and second[0][0] != -1 and second[1] is None, (first, second)
    assert (game / "save.txt").exists()


def test_the_copy_links_assets_and_copies_what_a_game_may_rewrite(tmp_path):
    src = tmp_path / "g"
    (src / "img").mkdir(parents=True)
    (src / "img" / "ship.png").write_bytes(b"png")
    (src / "scores.json").write_text("{}")
    (src / ".git").mkdir()
    (src / ".git" / "HEAD").write_text("ref")
    dest = isolation.fresh_copy(str(src), str(tmp_path / "copies"))
    d = Path(dest)
    reflinks = isolation._reflink_ok.get((src.stat().st_dev, d.stat().st_dev))
    if not reflinks:  # ext4, tmpfs: hard links for assets, copies for data
        assert (d / "img" / "ship.png").stat().st_ino == (src / "img" / "ship.png").stat().st_ino
        assert (d / "scores.json").stat().st_ino != (src / "scores.json").stat().st_ino
    (d / "scores.json").write_text('{"best": 9}')
    assert (src / "scores.json").read_text() == "{}"
    assert (d / ".git").is_symlink() and (d / ".git" / "HEAD").read_text() == "ref"
    again = isolation.fresh_copy(str(src), str(tmp_path / "copies"))  # the last episode's folder is gone
    assert not d.exists() and json.loads(Path(again, "scores.json").read_text()) == {}


def test_a_bug_of_the_first_run_replays_from_the_cli(tmp_path):
    game = _game(tmp_path)
    out = tmp_path / "run"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1] / "src"))
    res = subprocess.run([str(CLI), "explore", f"{game}/save_file.py:main", "--budget", "30", "--no-shrink",
                          "--out", str(out)], capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 1, res.stdout[-3000:] + res.stderr[-3000:]
    bugs = sorted((out / "bugs").iterdir())
    bug = json.loads((bugs[0] / "bug.json").read_text())
    assert "first run" in json.dumps(bug), bug
    replay = subprocess.run([str(CLI), "replay", str(bugs[0])], capture_output=True, text=True, timeout=300, env=env)
    assert replay.returncode == 0 and "fired at step 1 in all 2 runs" in replay.stdout, replay.stdout + replay.stderr
    assert bug.get("flaky") in (False, None), bug  # the campaign's own replays reproduced it too
    assert not (game / "save.txt").exists()


def test_a_folder_too_large_to_copy_is_shared_with_a_note(tmp_path, monkeypatch, capsys):
    src = tmp_path / "big"
    src.mkdir()
    for i in range(5):
        (src / f"level{i}.txt").write_text(str(i))
    monkeypatch.setattr(isolation, "MAX_ENTRIES", 3)
    assert isolation.fresh_copy(str(src), str(tmp_path / "copies")) is None
    assert list((tmp_path / "copies").iterdir()) == [] and "more than 3 files" in capsys.readouterr().err
