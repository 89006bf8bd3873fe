"""``--sandbox`` (issue 57, `drive.sandbox`): episodes under bubblewrap, no network, writes only in the worker's own
folder. A fixture game that connects to a port of this machine, or writes beside its folder, gets a crash finding
that says the sandbox denied it, and nothing reaches the port or the disk; without the sandbox the same game does
both (the control). Real bwrap; skipped where it is missing unless PLAYTESTER_REQUIRE_BWRAP=1."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GAMES

from playtester.drive.spec import resolve

if shutil.which("bwrap") is None:
    if os.environ.get("PLAYTESTER_REQUIRE_BWRAP") == "1":
        raise RuntimeError("PLAYTESTER_REQUIRE_BWRAP=1 but bwrap is not installed (make bwrap)")
    pytest.skip("bubblewrap (bwrap) is not installed: make bwrap", allow_module_level=True)

CLI = Path(sys.executable).parent / "playtester"


def _game(tmp_path: Path) -> Path:
    folder = tmp_path / "escape"
    shutil.copytree(GAMES / "escape", folder)
    return folder


def _first(w):
    obs = w.reset(seed=0)
    return obs.info.get("exit") if obs.done else None


def test_a_game_that_connects_to_this_machine_is_stopped_and_told(worker_for, tmp_path, monkeypatch):
    game = _game(tmp_path)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        listener.settimeout(0.5)
        monkeypatch.setenv("ESCAPE_PORT", str(listener.getsockname()[1]))
        exit = _first(worker_for(resolve(f"{game}/escape.py:main_net", sandbox=True), capture=None))
        assert exit is not None and exit.kind == "exception", exit
        assert exit.exc_type == "ConnectionRefusedError" and "denied by playtester's --sandbox" in exit.message, exit
        with pytest.raises(TimeoutError):
            listener.accept()  # nothing came
        # control: without the sandbox the game reaches the port
        assert _first(worker_for(resolve(f"{game}/escape.py:main_net"), capture=None)) is None
        conn, _ = listener.accept()
        assert conn.recv(100) == b"hello from the game\n"
        conn.close()


def test_a_game_that_writes_outside_its_folder_is_stopped_and_nothing_is_written(worker_for, tmp_path):
    game = _game(tmp_path)
    exit = _first(worker_for(resolve(f"{game}/escape.py:main_write", sandbox=True), capture=None))
    assert exit is not None and exit.exc_type == "OSError" and "Read-only file system" in exit.message, exit
    assert "a write outside the game's folder" in exit.message
    assert not (tmp_path / "escaped.txt").exists() and not (game / "score.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["escape"]
    # control: without the sandbox the game writes beside its folder (its own save goes to the episode's copy)
    assert _first(worker_for(resolve(f"{game}/escape.py:main_write"), capture=None)) is None
    assert (tmp_path / "escaped.txt").read_text() == "out" and not (game / "score.txt").exists()


def test_explore_sandbox_reports_the_denied_write_as_a_finding(tmp_path):
    game = _game(tmp_path)
    out = tmp_path / "run"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1] / "src"))
    res = subprocess.run([str(CLI), "explore", f"{game}/escape.py:main_write", "--sandbox", "--budget", "20",
                          "--no-shrink", "--out", str(out)], capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 1, res.stdout[-3000:] + res.stderr[-3000:]
    bugs = [json.loads((b / "bug.json").read_text()) for b in sorted((out / "bugs").iterdir())]
    assert any("denied by playtester's --sandbox" in json.dumps(b) for b in bugs), bugs
    assert not (tmp_path / "escaped.txt").exists()


def test_sandbox_without_bubblewrap_is_a_usage_error_saying_how_to_install_it(tmp_path):
    game = _game(tmp_path)
    env = dict(os.environ, PATH=str(CLI.parent), PYTHONPATH=str(Path(__file__).parents[1] / "src"))
    res = subprocess.run([str(CLI), "run", f"{game}/escape.py:main_write", "--sandbox", "--steps", "5"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 2 and "apt-get install bubblewrap" in res.stdout + res.stderr, res.stdout + res.stderr
    assert not (tmp_path / "escaped.txt").exists()
