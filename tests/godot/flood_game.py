"""A minimal game for the protocol's tests: before answering each step it prints N bytes of error lines to stderr
(more than a pipe holds), then an error line of its own with its step, then the sync line."""

import hashlib
import hmac
import json
import os
import socket
import struct
import sys


def main() -> None:
    size = int(os.environ.get("FLOOD_BYTES", "300000"))
    sock = socket.create_connection(("127.0.0.1", int(os.environ["PLAYTESTER_PORT"])))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(msg):
        data = json.dumps(msg).encode()
        sock.sendall(struct.pack(">I", len(data)) + data)

    def recv():
        head = b""
        while len(head) < 4:
            more = sock.recv(4 - len(head))
            if not more:
                return None
            head += more
        (n,) = struct.unpack(">I", head)
        body = b""
        while len(body) < n:
            body += sock.recv(n - len(body))
        return json.loads(body)

    nonce = recv()["nonce"]  # the challenge: the hello proves the launch's secret (docs/protocol.md, Authentication)
    auth = hmac.new(os.environ["PLAYTESTER_SECRET"].encode(), nonce.encode(), hashlib.sha256).hexdigest()
    sys.stderr.write("@@playtester hello\n")
    sys.stderr.flush()
    send({"type": "hello", "protocol": 2, "auth": auth, "engine": "flood", "engine_version": "1", "game": "flood",
          "capabilities": {"pixels": False, "entities": True, "stderr_sync": True}, "actions": ["a"]})
    frame = 0
    while True:
        msg = recv()
        if msg is None or msg.get("type") == "quit":
            return
        frame += int(msg.get("frames", 0))
        line = "noise " + "x" * 90 + "\n"
        sys.stderr.write(line * (size // len(line)))
        sys.stderr.write(f"SCRIPT ERROR: step_{msg['seq']}: flooded\n   At: res://flood.gd:{frame}.\n")
        sys.stderr.write(f"@@playtester sync {msg['seq']}\n")
        sys.stderr.flush()
        send({"type": "observation", "seq": msg["seq"], "frame_no": frame, "time_ms": 0, "done": False,
              "entities": [{"id": "P", "kind": "p", "pos": [frame, 0], "props": {}}], "events": []})


if __name__ == "__main__":
    main()
