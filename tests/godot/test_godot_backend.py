"""The godot: backend with the real Godot 3 runtime (Debian's godot3-server; godot3-runner + Xvfb for frames).

Skipped when godot3-server is not installed (`make godot` installs it), unless PLAYTESTER_REQUIRE_GODOT=1,
which makes a missing runtime a failure (CI).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

from playtester.drive.backend import backend_for
from playtester.drive.godot import input_actions, prepared_copy
from playtester.drive.spec import GAMES_DIR, resolve
from playtester.env import default_space
from playtester.oracles.balance import BalanceOracle
from playtester.oracles.error_log import ErrorLogOracle
from playtester.oracles.hang import HangOracle

REQUIRE = os.environ.get("PLAYTESTER_REQUIRE_GODOT") == "1"
COINHOP = GAMES_DIR / "godot" / "coinhop"


def _need(binary: str, package: str) -> None:
    if shutil.which(binary) is None:
        if REQUIRE:
            pytest.fail(f"{binary} is not installed and PLAYTESTER_REQUIRE_GODOT=1 (apt-get install {package})")
        pytest.skip(f"{binary} is not installed (apt-get install {package}, or make godot)")


@pytest.fixture(autouse=True)
def _server():
    _need("godot3-server", "godot3-server")


def godot_processes() -> list[psutil.Process]:
    out = []
    for p in psutil.process_iter(["name", "cmdline", "ppid"]):
        try:
            if p.info["name"] and p.info["name"].startswith("godot3") and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.Error:
            pass
    return out


def mine(procs: list[psutil.Process], host_pid: int | None) -> list[psutil.Process]:
    """The processes of ``procs`` that descend from this test's worker host."""
    if host_pid is None:
        return []
    out = []
    for p in procs:
        try:
            if any(a.pid == host_pid for a in p.parents()):
                out.append(p)
        except psutil.Error:
            pass
    return out


def play(w, space, names):
    idx = [a.name for a in space.actions]
    return [w.act(idx.index(n)) for n in names]


def test_declared_actions_come_from_the_input_map():
    spec = resolve("godot:coinhop")
    assert spec.kind == "godot" and Path(spec.target) == COINHOP.resolve()
    assert backend_for(spec).capabilities.declared_actions and not backend_for(spec).capabilities.pixels
    assert input_actions(COINHOP) == ["jump", "move_left", "move_right"]
    assert [a.name for a in default_space(spec).actions] == [
        "none", "jump", "move_left", "move_right", "jump+move_left", "jump+move_right", "move_left+move_right"]


def test_the_project_is_copied_with_the_addon_and_left_untouched(tmp_path):
    before = sorted(p.name for p in COINHOP.iterdir())
    copy = prepared_copy(COINHOP, tmp_path)
    assert (copy / "override.cfg").read_text().count("PlaytesterAddon=") == 1
    assert (copy / "addons" / "__playtester__" / "playtester.gd").is_file()
    assert prepared_copy(COINHOP, tmp_path) == copy  # made once
    assert sorted(p.name for p in COINHOP.iterdir()) == before
    assert not (COINHOP / "override.cfg").exists()


def test_the_copy_is_made_again_when_the_project_changes(tmp_path):
    project = tmp_path / "coinhop"
    shutil.copytree(COINHOP, project)
    copy = prepared_copy(project, tmp_path / "work")
    made = (copy / "project.godot").stat().st_mtime_ns
    assert prepared_copy(project, tmp_path / "work") == copy and (copy / "project.godot").stat().st_mtime_ns == made
    (project / "player.gd").write_text((project / "player.gd").read_text() + "\n# edited\n")
    prepared_copy(project, tmp_path / "work")
    assert (copy / "player.gd").read_text().endswith("# edited\n")  # the edit reached the copy


def test_entities_signals_and_inputs_through_the_addon(worker_for):
    spec = resolve("godot:coinhop")
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=(32, 24))
    obs = w.reset(0)
    assert obs.frame is None  # godot3-server renders nothing
    assert set(obs.entities) == {"main", "player", "enemy", "coin1", "coin2", "coin3"}
    assert obs.entities["player"].kind == "player" and obs.entities["player"].pos[0] == pytest.approx(30)
    assert obs.features["player_hp"] == 3 and obs.features["main_score"] == 0
    steps = play(w, space, ["move_right"] * 5)  # 50 frames at 100 px/s: 83 px to the right, past coin 1
    obs = steps[-1]
    assert obs.frame_no == 50 and obs.time_ms == round(50 * 1000 / 60)
    assert obs.features["player_x"] == pytest.approx(30 + 50 * 100 / 60, abs=0.5)
    assert "coin1" not in obs.entities and obs.features["main_score"] == 1
    assert obs.info.get("exit") is None
    # the script signals emitted on the way arrive as events, with their arguments by name and their source
    events = [(e.name, e.data) for o in steps for e in o.events]
    assert ("hurt", {"damage": 2, "hp": 1, "source": "Player"}) in events  # crossed the spikes once
    assert ("collected", {"value": 1, "source": "Coin1"}) in events
    assert obs.features["player_hp"] == 1


def test_same_seed_same_actions_same_run(worker_for):
    spec = resolve("godot:coinhop")
    space = default_space(spec)
    runs = []
    for _ in range(2):
        w = worker_for(spec, space=space, capture=None)
        w.reset(7)
        runs.append([sorted(o.features.items()) for o in play(w, space, ["move_right", "jump+move_right", "none",
                                                                         "move_left", "jump"] * 3)])
        w.close()
    assert runs[0] == runs[1]


def test_script_error_is_an_error_log_finding(worker_for):
    spec = resolve("godot:coinhop")
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    w.reset(0)
    before, after = play(w, space, ["move_left", "jump+move_left"])  # jump while pushing the left wall
    assert before.logs == []
    assert [(r.logger, r.level, r.file, r.line) for r in after.logs] == [
        ("godot", "SCRIPT ERROR", "res://player.gd", 41)]
    (finding,) = ErrorLogOracle().check(after, 2)
    assert finding.signature.startswith("error_log:godot:player.gd:41:_wall_kick: Invalid get index") and "Invalid get index 'left'" in finding.message


def test_falling_through_the_cracked_floor_and_negative_hp_are_balance_findings(worker_for):
    spec = resolve("godot:coinhop")
    oracle = BalanceOracle({k: tuple(v) for k, v in spec.config.oracles["balance"].items()})
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    w.reset(0)
    # stand in the spikes (x 67..83): 2 damage a hit, 0.5 s apart: 3 -> 1 -> -1, and no death at 0
    obs = play(w, space, ["move_right"] * 2 + ["none"] * 6)
    hp = [o.features["player_hp"] for o in obs]
    seen = {f.signature for o in obs for f in oracle.check(o, 0)}
    w.reset(0)
    walk = play(w, space, ["jump+move_right"] + ["move_right"] * 9)  # over the spikes, then on to x 140..170
    seen |= {f.signature for o in walk for f in oracle.check(o, 0)}
    assert min(hp) < 0 and "balance:player_hp:low" in seen, hp
    assert "balance:player_y:high" in seen, [round(o.features["player_y"]) for o in walk]


def test_a_frozen_runtime_is_a_hang_and_its_process_group_is_killed(worker_for):
    spec = resolve("godot:coinhop", step_timeout_s=2.0)
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    w.reset(0)
    (game,) = mine(godot_processes(), w.host_pid)
    os.kill(game.pid, signal.SIGSTOP)  # the engine stops answering, as a GDScript endless loop would
    t0 = time.monotonic()
    (obs,) = play(w, space, ["none"])
    assert time.monotonic() - t0 < 2.0
    assert obs.exit.kind == "hang" and HangOracle().check(obs, 1)[0].kind == "hang"
    game.wait(timeout=5)  # killed (a stopped process dies of SIGKILL)
    assert not mine(godot_processes(), w.host_pid)


def test_a_dead_runtime_is_a_crash(worker_for):
    spec = resolve("godot:coinhop")
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    w.reset(0)
    (game,) = mine(godot_processes(), w.host_pid)
    os.kill(game.pid, signal.SIGSEGV)
    (obs,) = play(w, space, ["none"])
    assert obs.exit.kind in ("signal", "exit") and obs.exit.is_failure, obs.exit
    w.close()
    assert not mine(godot_processes(), w.host_pid)


def test_runner_frames_under_xvfb(worker_for):
    _need("godot3-runner", "godot3-runner")
    _need("Xvfb", "xvfb")
    import glob

    locks = set(glob.glob("/tmp/.X*-lock"))
    spec = resolve("godot-runner:coinhop")
    assert backend_for(spec).capabilities.pixels
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=(64, 48))
    obs = w.reset(0)
    assert obs.frame is not None and obs.frame.shape == (48, 64, 3) and obs.frame.dtype == np.uint8
    first = obs.frame
    obs = play(w, space, ["move_right"] * 3)[-1]
    assert obs.frame.shape == (48, 64, 3) and not np.array_equal(obs.frame, first)  # the player moved
    assert len({tuple(px) for px in obs.frame.reshape(-1, 3)}) > 3  # a drawn scene, not a blank screen
    assert w.reset(1).frame.shape == (48, 64, 3)  # the kept runner and its display serve the next episode
    w.close()
    deadline = time.monotonic() + 5
    while set(glob.glob("/tmp/.X*-lock")) - locks and time.monotonic() < deadline:
        time.sleep(0.05)
    assert set(glob.glob("/tmp/.X*-lock")) - locks == set()  # our Xvfb ended cleanly (SIGTERM), no stale lock


def test_explore_finds_the_three_injected_bugs(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "playtester.cli", "explore", "godot:coinhop", "--agent", "random",
                           "--budget", "1500", "--no-shrink", "--out", str(out)],
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    import sqlite3

    with sqlite3.connect(out / "playtester.sqlite") as db:
        sigs = {r[0] for r in db.execute("select signature from bugs")}
    assert {"balance:player_hp:low", "balance:player_y:high"} <= sigs, sigs
    assert any(s.startswith("error_log:godot:player.gd:41:") for s in sigs), sigs
    assert (out / "report.html").is_file() and (out / "junit.xml").is_file()


def test_the_addon_answers_unknown_messages_and_resets_to_the_same_start(tmp_path):
    """The protocol with the real add-on: an error for what it does not know, and resets (seed, main scene)
    that replay the same way on one connection."""
    from playtester.drive import godot
    from playtester.drive.observation import EpisodeOptions
    from playtester.drive.remote import RemoteGame

    launch = godot._launch(resolve("godot:coinhop"), EpisodeOptions(hang_dump=str(tmp_path / "hang.txt")), False)
    g = RemoteGame(launch.command, "godot", launch.cwd, launch.env, start_timeout=30)
    try:
        assert g.hello.engine == "godot" and g.hello.engine_version.startswith("3.")
        assert g.hello.actions == ["jump", "move_left", "move_right"] and g.hello.capabilities["pixels"] is False
        reply = g.request({"type": "teleport"}, timeout=5)
        assert reply["type"] == "error" and "teleport" in reply["message"]
        runs = []
        for _ in range(2):
            first = g.request({"type": "reset", "seed": 3}, timeout=10)
            step = g.request({"type": "step", "inputs": {"actions": ["move_right"]}, "frames": 30}, timeout=10)
            runs.append((first["frame_no"], first["entities"], step["frame_no"], step["entities"],
                         [e["name"] for e in step["events"]]))
        assert runs[0] == runs[1] and runs[0][0] == 0 and runs[0][2] == 30 and runs[0][4] == ["hurt"]
    finally:
        g.close()
    assert g.proc.poll() is not None
