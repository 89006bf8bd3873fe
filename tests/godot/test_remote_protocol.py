"""The remote-game protocol (docs/protocol.md) against its Python reference game (no Godot needed).

Every test runs real processes: a Worker (host + episode process) that starts the reference game
(`playtester.games.remote.refgame`) and speaks the protocol with it over TCP.
"""

from __future__ import annotations

import os
import sys
import time
import uuid

import psutil
import pytest

from playtester.drive.backend import backend_for
from playtester.drive.remote import PROTOCOL, RemoteGame
from playtester.drive.spec import resolve
from playtester.env import default_space
from playtester.errors import GameSpecError
from playtester.oracles.crash import CrashOracle
from playtester.oracles.error_log import ErrorLogOracle
from playtester.oracles.hang import HangOracle

REF = "remote:python -m playtester.games.remote.refgame"


def ref_spec(*args: str, **config):
    return resolve(" ".join([REF, *args]), **config)


def ref_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "playtester.games.remote.refgame", *args]


def left(space) -> int:
    return [a.name for a in space.actions].index("left")


def tagged(tag: str) -> list[psutil.Process]:
    out = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            if any(tag in part for part in p.info["cmdline"] or []):
                out.append(p)
        except psutil.Error:
            pass
    return out


@pytest.fixture
def game():
    made = []

    def make(*args: str) -> RemoteGame:
        env = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        g = RemoteGame(ref_command(*args), "remote", env=env, start_timeout=20)
        made.append(g)
        return g

    yield make
    for g in made:
        g.close()


def test_hello_declares_engine_capabilities_and_actions(game):
    g = game()
    assert g.hello.engine == "refgame" and g.hello.raw["protocol"] == PROTOCOL
    assert g.hello.capabilities["entities"] is True and g.hello.capabilities["pixels"] is False
    assert g.hello.actions == ["jump", "left", "right"]


def test_unknown_message_is_answered_with_an_error_and_the_game_goes_on(game):
    g = game()
    reply = g.request({"type": "teleport", "x": 3}, timeout=5)
    assert reply["type"] == "error" and "teleport" in reply["message"]
    obs = g.request({"type": "reset", "seed": 1}, timeout=5)
    assert obs["type"] == "observation" and obs["frame_no"] == 0
    obs = g.request({"type": "step", "inputs": {"actions": ["right"]}, "frames": 3}, timeout=5)
    assert obs["frame_no"] == 3 and obs["entities"][0]["pos"][0] == 5 * 16.0


def test_declared_space_from_hello_and_steps_through_the_worker(worker_for):
    spec = ref_spec()
    assert backend_for(spec).capabilities.declared_actions
    space = default_space(spec)
    assert [a.name for a in space.actions] == ["none", "jump", "left", "right", "jump+left", "jump+right",
                                               "left+right"]
    w = worker_for(spec, space=space, capture=None)
    obs = w.reset(0)
    assert obs.features["player_x"] == 32.0 and obs.entities["player"].kind == "player"
    obs = w.act([a.name for a in space.actions].index("right"))  # 10 frames: to cell 12
    assert obs.features["player_x"] == 12 * 16.0 and obs.frame_no == 10
    obs = w.act([a.name for a in space.actions].index("jump+right"))  # passes the coin at 15
    assert [e.name for e in obs.events] == ["coin_collected"] and obs.events[0].data["value"] == 1
    assert obs.features["player_coins"] == 1.0 and obs.features["player_y"] == 16.0


def test_error_lines_become_error_log_findings_at_their_step(worker_for):
    spec = ref_spec("--bug=error", "--at=2")
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    obs = w.reset(0)
    assert obs.logs == []  # the start-up ERROR printed before hello is engine noise, not a finding
    obs = w.act(left(space))
    assert obs.logs == []
    obs = w.act(left(space))  # step 2: the game prints a SCRIPT ERROR at refgame.gd:40 + x (x is 0 by now)
    assert [(r.level, r.file, r.line) for r in obs.logs] == [("SCRIPT ERROR", "res://refgame.gd", 40)]
    findings = ErrorLogOracle().check(obs, 2)
    assert findings[0].signature.startswith("error_log:remote:refgame.gd:40:")
    assert "Invalid get index" in findings[0].message


@pytest.mark.parametrize("bug, kind", [("crash", "exit"), ("segv", "signal")])
def test_a_game_that_dies_is_a_crash(worker_for, bug, kind):
    spec = ref_spec(f"--bug={bug}", "--at=2")
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    w.reset(0)
    assert w.act(left(space)).exit is None
    obs = w.act(left(space))
    assert obs.done and obs.exit.kind == kind and obs.exit.is_failure
    if kind == "exit":
        assert obs.exit.code == 3 and "giving up" in obs.exit.traceback  # the end of its stderr comes along
    else:
        assert obs.exit.signal == 11
    (finding,) = CrashOracle().check(obs, 2)
    assert finding.signature == ("crash:exit:3" if kind == "exit" else "crash:signal:11")


def test_a_game_that_exits_before_it_connects_cannot_be_played(worker_for):
    """A game that quits before its first step is a project playtester cannot run as it is (exit code 2 with what
    it printed), never a finished episode nor a bug of the game (issue 56; before: an exit at reset)."""
    from playtester.errors import GameSpecError

    spec = ref_spec("--bug=early")
    w = worker_for(spec, space=default_space(ref_spec()), capture=None)
    with pytest.raises(GameSpecError, match=r"exited with code 4 before its first step.*its start-up code"):
        w.reset(0)


def test_a_game_that_stops_answering_is_a_hang_within_the_timeout_and_leaves_nothing_behind(worker_for):
    tag = f"pt-orphan-{uuid.uuid4().hex}"
    spec = ref_spec("--bug=spawn", "--at=2", f"--tag={tag}", step_timeout_s=2.0)
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    w.reset(0)
    w.act(left(space))
    host = psutil.Process(w.host_pid)
    t0 = time.monotonic()
    obs = w.act(left(space))  # the game starts a child (tagged), then never answers
    took = time.monotonic() - t0
    assert obs.exit.kind == "hang" and "process group was killed" in obs.exit.message
    assert took < 2.0  # the episode reports it (at 80% of step_timeout_s), before the worker's own watchdog
    (finding,) = HangOracle().check(obs, 2)
    assert finding.kind == "hang"
    deadline = time.monotonic() + 5
    while tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert tagged(tag) == []  # the game's child died with its process group
    left_over = [c for c in host.children(recursive=True) if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    assert all(c.cmdline() == host.cmdline() for c in left_over)  # at most the keeper (a fork of the host), idle
    w.close()
    psutil.wait_procs(left_over, timeout=5)
    assert not any(c.is_running() and c.status() != psutil.STATUS_ZOMBIE for c in [host, *left_over])


def test_the_game_is_kept_across_episodes_and_dies_with_the_worker_host(worker_for):
    """One game process serves a worker's episodes (a keeper holds it; each reset starts the game over); it
    runs in a process group of its own, and PR_SET_PDEATHSIG takes the keeper and the game down with the host,
    however the host ends."""
    tag = f"pt-pdeath-{uuid.uuid4().hex}"
    spec = ref_spec(f"--tag={tag}")
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    first = w.reset(0)
    (game,) = tagged(tag)
    w.act(left(space))
    again = w.reset(0)
    assert tagged(tag) == [game] and again.features == first.features and again.frame_no == 0
    assert game.pid != w._episode_pid and os.getpgid(game.pid) == game.pid  # its own process group
    os.kill(w.host_pid, 9)  # no chance to clean up: only the kernel's death signals can end the game
    psutil.wait_procs([game], timeout=5)
    assert tagged(tag) == []


def test_a_fresh_game_per_episode_when_asked(worker_for, monkeypatch):
    monkeypatch.setenv("PLAYTESTER_REMOTE_FRESH", "1")
    tag = f"pt-fresh-{uuid.uuid4().hex}"
    spec = ref_spec(f"--tag={tag}")
    w = worker_for(spec, space=default_space(spec), capture=None)
    w.reset(0)
    (one,) = tagged(tag)
    w.reset(1)
    (two,) = tagged(tag)
    assert one.pid != two.pid and not one.is_running()


def test_a_crashed_kept_game_is_replaced_at_the_next_reset(worker_for):
    spec = ref_spec("--bug=crash", "--at=1")
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    for seed in range(2):
        assert w.reset(seed).exit is None
        obs = w.act(left(space))
        assert obs.exit.kind == "exit" and obs.exit.code == 3


def test_a_game_whose_crash_handler_is_still_writing_at_the_timeout_is_a_crash_not_a_hang(worker_for):
    """Godot's crash handler prints "Program crashed with signal N", then a backtrace that can take longer than a
    step's timeout on a busy machine: that is the crash it says, not a hang."""
    spec = ref_spec("--bug=slowcrash", "--at=2", step_timeout_s=2.0)
    w = worker_for(spec, space=default_space(spec), capture=None)
    w.reset(0)
    w.act(0)
    obs = w.act(0)
    assert obs.done and obs.exit.kind == "signal" and obs.exit.signal == 11, obs.exit
    assert "crash handler" in obs.exit.message and "Program crashed" in obs.exit.traceback
    (finding,) = CrashOracle().check(obs, 2)
    assert finding.signature == "crash:signal:11"


def test_garbage_from_the_game_ends_the_episode_without_a_hang(worker_for):
    spec = ref_spec("--bug=garbage", "--at=1", step_timeout_s=5.0)
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    w.reset(0)
    t0 = time.monotonic()
    obs = w.act(left(space))
    assert time.monotonic() - t0 < 3.0
    assert obs.exit.kind == "worker" and "not JSON" in obs.exit.message


def test_a_game_that_speaks_another_protocol_version_is_refused(worker_for):
    spec = ref_spec("--protocol=99")
    w = worker_for(spec, space=default_space(ref_spec()), capture=None)
    with pytest.raises(GameSpecError, match="protocol 99"):
        w.reset(0)
