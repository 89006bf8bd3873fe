"""The remote protocol's authenticated hello (docs/protocol.md, *Authentication*; issue 57).

The game's port is on its command line (``--playtester-port=``), which any local user reads in /proc; the launch's
secret is not (``PLAYTESTER_SECRET``, in the game's environment). An impostor that reads the port and connects first is
dropped (it cannot answer the challenge), and the real game is still taken. Real processes throughout: the impostor is
a separate Python process, run as uid 65534 (nobody) when the tests run as root, else as this user.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
import uuid

import pytest

from playtester.drive.remote import PROTOCOL, ProtocolError, RemoteGame
from playtester.drive.spec import resolve
from playtester.env import default_space
from playtester.errors import GameSpecError

REF = [sys.executable, "-m", "playtester.games.remote.refgame"]
ENV = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}

# The impostor: finds the process whose command line carries TAG and --playtester-port=, connects first, answers a
# challenge (if any) with a made-up proof, else says a protocol-1 hello unasked; prints what happened as JSON.
IMPOSTOR = r'''
import json, os, socket, struct, sys, time
tag, protocol = sys.argv[1], int(sys.argv[2])
def send(s, m):
    d = json.dumps(m).encode(); s.sendall(struct.pack(">I", len(d)) + d)
def recv(s, t):
    s.settimeout(t); b = b""
    while len(b) < 4:
        c = s.recv(4 - len(b))
        if not c: return None
        b += c
    n = struct.unpack(">I", b)[0]; d = b""
    while len(d) < n:
        c = s.recv(n - len(d))
        if not c: return None
        d += c
    return json.loads(d)
end, port = time.monotonic() + 20, None
while port is None and time.monotonic() < end:
    for pid in os.listdir("/proc"):
        if not pid.isdigit(): continue
        try:
            args = open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace").split("\0")
        except OSError:
            continue
        if any(tag in a for a in args):
            for a in args:
                if a.startswith("--playtester-port="): port = int(a.split("=", 1)[1])
if port is None:
    print(json.dumps({"found": False})); sys.exit(0)
s = socket.create_connection(("127.0.0.1", port)); t = time.monotonic()
hello = {"type": "hello", "protocol": 1, "engine": "impostor", "game": "fake", "capabilities": {"entities": True},
         "actions": ["pwned"]}
try:
    first = recv(s, 0.5)
except socket.timeout:
    first = None
if first and first.get("type") == "challenge":
    hello.update(protocol=first.get("protocol", protocol), auth="0" * 64)
send(s, hello)
try:
    answer = recv(s, 10)
except (socket.timeout, OSError) as e:
    answer = {"type": "__" + type(e).__name__}
print(json.dumps({"found": True, "uid": os.getuid(), "connected_at": t, "challenge": first, "answer": answer}))
'''


def _python_for_nobody() -> str | None:
    """A Python that uid 65534 may run (this one may live under root's home)."""
    for exe in (sys.executable, "/usr/bin/python3"):
        try:
            if subprocess.run([exe, "-c", "pass"], user=65534, cwd="/", capture_output=True).returncode == 0:
                return exe
        except OSError:
            pass
    return None


AS_NOBODY = os.getuid() == 0 and _python_for_nobody() is not None


def impostor(tag: str) -> subprocess.Popen[str]:
    """The impostor, as uid 65534 when the tests run as root (else as this user: it still does not read the game's
    environment)."""
    exe, kwargs = (_python_for_nobody(), {"user": 65534}) if AS_NOBODY else (sys.executable, {})
    return subprocess.Popen([exe, "-c", IMPOSTOR, tag, str(PROTOCOL)], stdout=subprocess.PIPE, text=True, cwd="/",
                            **kwargs)


def delayed(tag: str, delay: float = 0.4) -> list[str]:
    """The reference game, started after ``delay`` (a shell that sleeps first, the port and TAG on its command
    line): the impostor surely connects first."""
    return ["sh", "-c", f'sleep {delay}; exec "$0" "$@"', *REF, f"--tag={tag}"]


def test_an_impostor_that_connects_first_is_dropped_and_the_game_is_taken_20_of_20(caplog):
    caplog.set_level(logging.WARNING, logger="playtester.drive.remote")
    taken, reports = 0, []
    for _ in range(20):
        tag = f"auth-{uuid.uuid4().hex[:10]}"
        imp = impostor(tag)
        t0 = time.monotonic()
        try:
            g = RemoteGame(delayed(tag), "remote", env=ENV, start_timeout=20)
        except Exception:
            imp.kill()
            raise
        try:
            report = json.loads(imp.communicate(timeout=20)[0])
            reports.append(report)
            assert report["found"] and report["connected_at"] - t0 < 0.4, report  # it connected before the game
            if AS_NOBODY:
                assert report["uid"] == 65534
            assert report["answer"] is None or report["answer"].get("type") != "observation", report
            if g.hello.engine == "refgame" and g.hello.actions == ["jump", "left", "right"]:
                obs = g.request({"type": "reset", "seed": 1}, timeout=5)
                assert obs["type"] == "observation" and obs["entities"][0]["id"] == "Player"
                taken += 1
        finally:
            g.close()
    assert taken == 20, reports
    dropped = [r for r in caplog.records if "dropped" in r.getMessage()]
    assert len(dropped) >= 20 and "127.0.0.1:" in dropped[0].getMessage() and "uid" in dropped[0].getMessage()


def test_a_game_with_a_wrong_secret_is_refused_with_a_clear_message():
    wrong = ["sh", "-c", 'PLAYTESTER_SECRET=not-the-secret exec "$0" "$@"', *REF]
    t0 = time.monotonic()
    with pytest.raises(ProtocolError, match="secret") as e:
        RemoteGame(wrong, "remote", env=ENV, start_timeout=20)
    assert "PLAYTESTER_SECRET" in str(e.value) and "HMAC" in str(e.value)
    assert time.monotonic() - t0 < 10  # refused at once, not at the start timeout


def test_a_game_without_the_secret_is_refused_through_the_worker(worker_for):
    spec = resolve("remote:sh -c 'unset PLAYTESTER_SECRET; exec python -m playtester.games.remote.refgame'")
    w = worker_for(spec, space=default_space(resolve("remote:python -m playtester.games.remote.refgame")),
                   capture=None)
    with pytest.raises(GameSpecError, match="PLAYTESTER_SECRET"):
        w.reset(0)


def test_an_old_game_is_told_what_to_update():
    with pytest.raises(ProtocolError) as e:
        RemoteGame([*REF, "--protocol=1"], "remote", env=ENV, start_timeout=20)
    text = str(e.value)
    assert f"playtester speaks {PROTOCOL}" in text and "protocol 1" in text and "update" in text


def test_an_impostor_racing_a_godot_game_is_dropped_and_the_game_is_taken_20_of_20(tmp_path, caplog):
    """The same race against the real Godot add-on (godot3-server), Godot started 0.4 s late so that the impostor
    surely connects first; the add-on proves the secret with its HMAC built on HashingContext."""
    import shutil

    if shutil.which("godot3-server") is None:
        pytest.skip("godot3-server is not installed (apt-get install godot3-server)")
    from playtester.drive import godot
    from playtester.drive.observation import EpisodeOptions

    caplog.set_level(logging.WARNING, logger="playtester.drive.remote")
    launch = godot._launch(resolve("godot:coinhop"), EpisodeOptions(hang_dump=str(tmp_path / "hang.txt")), False)
    tag = str(tmp_path)  # the project's copy is under it: on Godot's command line (--path)
    assert any(tag in part for part in launch.command)
    command = ["sh", "-c", 'sleep 0.4; exec "$0" "$@"', *launch.command]  # the impostor surely connects first
    taken, reports = 0, []
    for _ in range(20):
        imp = impostor(tag)
        t0 = time.monotonic()
        try:
            g = RemoteGame(command, "godot", launch.cwd, launch.env, start_timeout=30)
        except Exception:
            imp.kill()
            raise
        try:
            report = json.loads(imp.communicate(timeout=20)[0])
            reports.append(report)
            assert report["found"] and report["connected_at"] - t0 < 0.4, report  # it connected before the game
            if g.hello.engine == "godot" and g.hello.actions == ["jump", "move_left", "move_right"]:
                obs = g.request({"type": "reset", "seed": 1}, timeout=10)
                assert obs["type"] == "observation"
                taken += 1
        finally:
            g.close()
    assert taken == 20, reports
    assert all((r["challenge"] or {}).get("type") == "challenge" and (r["answer"] or {}).get("type") in (None, "error")
               for r in reports), reports
    dropped = [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()]
    assert len(dropped) == 20 and all("not the game's process" in m for m in dropped), dropped
