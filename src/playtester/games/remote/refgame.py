"""The remote-game protocol's reference game: a tiny Python game server (docs/protocol.md, version 2).

A corridor of 20 cells: the player walks ``left``/``right`` and may ``jump``; a coin sits at cell 15 and
emits a ``coin_collected`` event. It shows the game side of the protocol in plain Python (no playtester
import): connect to ``127.0.0.1:$PLAYTESTER_PORT``, read the challenge, say hello with the proof of
``$PLAYTESTER_SECRET`` (HMAC-SHA256 of the challenge's nonce), answer ``reset``/``step`` with observations,
``quit``, and answer anything else with an error. Errors go to stderr the way Godot prints them (an error
line, then ``   At: FILE:LINE.``), followed by the ``@@playtester sync SEQ`` marker before each reply.

Injected bugs for the protocol's tests (``--bug=KIND``, at step ``--at=N``, default 3): ``error`` prints a
script error on every step from N on; ``crash`` exits with code 3; ``segv`` dies of SIGSEGV; ``hang`` stops
answering (sleeps); ``slowcrash`` prints Godot's crash-handler line and then stops (a crash whose handler is still
at the backtrace when the step times out); ``garbage`` sends bytes that are not a message; ``spawn`` starts a child process that
would outlive a careless driver (a Python sleeping 600 s, with ``--tag=TAG`` in its command line) and then
hangs; ``early`` exits with code 4 before it connects.

Run it as ``remote:python -m playtester.games.remote.refgame --bug=error``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import time

PROTOCOL = 2
ACTIONS = ["jump", "left", "right"]


def send(sock: socket.socket, msg: dict) -> None:
    data = json.dumps(msg).encode()
    sock.sendall(struct.pack(">I", len(data)) + data)


def recv(sock: socket.socket) -> dict | None:
    head = b""
    while len(head) < 4:
        chunk = sock.recv(4 - len(head))
        if not chunk:
            return None
        head += chunk
    (n,) = struct.unpack(">I", head)
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    try:
        msg = json.loads(data)
    except ValueError:
        return {"type": "__malformed__"}
    return msg if isinstance(msg, dict) else {"type": "__malformed__"}


class Game:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.x, self.y, self.coins, self.frame = 2, 0, 0, 0
        self.coin_x = 15
        self.steps = 0

    def play(self, actions: list[str], frames: int) -> list[dict]:
        events = []
        for _ in range(frames):
            self.frame += 1
            if "left" in actions:
                self.x = max(0, self.x - 1)
            if "right" in actions:
                self.x = min(19, self.x + 1)
            self.y = 1 if "jump" in actions else 0
            if self.coin_x is not None and self.x == self.coin_x:
                self.coins += 1
                self.coin_x = None
                events.append({"name": "coin_collected", "data": {"value": 1, "source": "player"}, "frame": self.frame})
        return events

    def entities(self) -> list[dict]:
        out = [{"id": "Player", "kind": "player", "pos": [self.x * 16.0, self.y * 16.0],
                "props": {"coins": self.coins, "on_ground": self.y == 0}}]
        if self.coin_x is not None:
            out.append({"id": "Coin", "kind": "coin", "pos": [self.coin_x * 16.0, 0.0], "props": {}})
        return out


def main() -> None:
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    port = int(opts.get("playtester-port") or os.environ["PLAYTESTER_PORT"])
    bug, at = opts.get("bug", "none"), int(opts.get("at", "3"))
    if bug == "early":
        sys.exit(4)
    print("ERROR: start-up noise before hello is not a finding\n   At: engine/start.cpp:1.", file=sys.stderr)
    sock = socket.create_connection(("127.0.0.1", port))
    protocol = int(opts.get("protocol", PROTOCOL))
    hello = {"type": "hello", "protocol": protocol, "engine": "refgame", "engine_version": "1", "game": "corridor",
             "capabilities": {"pixels": False, "entities": True, "snapshots": False, "inputs": ["actions"],
                              "stderr_sync": True},
             "actions": ACTIONS}
    if protocol >= 2:  # the challenge first: prove the launch's secret (an older game says hello unasked)
        challenge = recv(sock) or {}
        secret = os.environ.get("PLAYTESTER_SECRET", "")
        hello["auth"] = hmac.new(secret.encode(), str(challenge.get("nonce", "")).encode(), hashlib.sha256).hexdigest()
    print("@@playtester hello", file=sys.stderr, flush=True)
    send(sock, hello)
    game = Game(0)
    while True:
        msg = recv(sock)
        if msg is None or msg.get("type") == "quit":
            return
        seq, kind = msg.get("seq", -1), msg.get("type")
        if kind == "reset":
            game = Game(int(msg.get("seed", 0)))
            reply = {"type": "observation", "seq": seq, "frame_no": 0, "time_ms": 0, "entities": game.entities(),
                     "events": [], "done": False}
        elif kind == "step":
            game.steps += 1
            if game.steps >= at and bug != "none":
                if bug == "error":
                    print(f"SCRIPT ERROR: play: Invalid get index 'coins' (on base: 'Nil').\n   At: "
                          f"res://refgame.gd:{40 + game.x}.", file=sys.stderr, flush=True)
                elif bug == "crash":
                    print("refgame: giving up", file=sys.stderr, flush=True)
                    os._exit(3)
                elif bug == "segv":
                    os.kill(os.getpid(), signal.SIGSEGV)
                elif bug == "hang":
                    time.sleep(3600)
                elif bug == "slowcrash":  # as Godot's crash handler starts, then is slow with the backtrace
                    print("handle_crash: Program crashed with signal 11\nDumping the backtrace.", file=sys.stderr,
                          flush=True)
                    time.sleep(3600)
                elif bug == "spawn":
                    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", opts.get("tag", "")])
                    time.sleep(3600)
                elif bug == "garbage":
                    sock.sendall(struct.pack(">I", 5) + b"nope!")
                    time.sleep(3600)
            events = game.play(list(msg.get("inputs", {}).get("actions", [])), max(1, int(msg.get("frames", 1))))
            reply = {"type": "observation", "seq": seq, "frame_no": game.frame, "time_ms": game.frame * 1000 // 60,
                     "entities": game.entities(), "events": events, "done": game.x == 19,
                     "logs": []}
        else:
            reply = {"type": "error", "seq": seq, "message": f"unknown message type {kind!r} (protocol "
                     f"{PROTOCOL} knows reset, step, quit)"}
        print(f"@@playtester sync {seq}", file=sys.stderr, flush=True)
        send(sock, reply)


if __name__ == "__main__":
    main()
