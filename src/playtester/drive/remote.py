"""Games in another engine's process, driven over playtester's remote-game protocol (docs/protocol.md).

The episode process (forked by the worker host, as for every backend) gets a connection to the game: the
game's process is started with the port of a listening socket on 127.0.0.1 (``PLAYTESTER_PORT`` and
``--playtester-port=PORT``) and connects to it; playtester sends a ``challenge`` (a nonce), the game answers with its
``hello``, which proves the launch's secret (``PLAYTESTER_SECRET``, in the game's environment, never on its command
line: HMAC-SHA256 of the nonce); a peer that cannot prove it is dropped and logged, and the real game is still
awaited. Then ``reset``, ``step`` and ``quit`` from here, each answered with an ``observation`` (or an ``error``). It runs the same command loop as every
backend (`playtester.drive.episode.serve`), so the worker, env and campaign above see an ordinary game.

Findings come from what the engine does, not from hooks inside it:
- the game's stderr is read on a thread; ``SCRIPT ERROR:`` / ``ERROR:`` lines with their ``At: FILE:LINE``
  line become `LogRecord`s (the ``error_log`` oracle's input), attached to the step they were printed in
  (an engine that prints ``@@playtester sync SEQ`` before each reply marks where a step's lines end);
- a game process that dies (the connection closes) ends the episode with a crash (signal or exit code,
  with the end of its stderr);
- a step not answered within 80% of the step timeout is a hang: the game's process group is killed.

Processes: the game runs in a process group of its own and dies with its parent (``PR_SET_PDEATHSIG``). Its
parent is a `Keeper` forked by the worker's first episode: adopted by the worker host (a child subreaper)
when that episode ends, in the host's process group, dead with the host. It keeps the game and its
connection between episodes and hands both to each new episode process, so a reset is a scene change, not
an engine start (``PLAYTESTER_REMOTE_FRESH=1``: a fresh game process per episode, the episode's own child).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import json
import logging
import os
import re
import secrets
import select
import shlex
import signal
import socket
import struct
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from playtester.drive import messages as wire
from playtester.drive.context import SpaceLike
from playtester.drive.episode import recv, send, serve
from playtester.drive.inputs import InputFrame, key_name
from playtester.drive.observation import (
    Entity,
    EpisodeOptions,
    GameEvent,
    GameExit,
    LogRecord,
    Observation,
    resize_nearest,
    signal_name,
)
from playtester.drive.spec import GameSpec

PROTOCOL = 2  # 2: the hello proves the launch's secret (the answer to playtester's challenge); 1 had no proof
SECRET_ENV = "PLAYTESTER_SECRET"  # the launch's secret, in the game's environment (not on its command line)
MAX_HELLO = 1 << 20  # bytes: a longer first message from a peer not yet authenticated is dropped unread
MAX_PEERS = 32  # connections waiting to prove the secret at once (more: the oldest is dropped)
MAX_MESSAGE = 64 << 20  # bytes: a larger length prefix is a broken peer, not a message
SYNC = "@@playtester sync "
HELLO_MARK = "@@playtester hello"  # printed to stderr just before the hello: what came before is start-up noise
STDERR_SLICE = 0.02  # s: while waiting for an answer, the game's stderr pipe is drained this often
PIPELINE = 16  # acting ahead on a game that offers "pipeline": steps sent before the oldest one's answer is in
BUNDLE = 8  # ... answered steps sent to the worker in one message, when they are in together
NAP_STEPS = 4  # ... when none of the steps in flight is answered yet, wait about this many steps' time first
NAP_MAX = 0.002  # s (at most)
GROUP = 8  # ... and "batch_each": steps per request (the first and its "then", each answered as it ends)
HANG_SHARE = 0.8  # of step_timeout_s: the episode reports the hang (with the game's stderr) before the
#                   worker's own watchdog, which would kill the episode process without a word


log = logging.getLogger(__name__)


class ProtocolError(Exception):
    """The game broke the protocol (a malformed message, a wrong version)."""


class GameGone(Exception):
    """The game's connection closed or its process died."""


class GameTimeout(Exception):
    """The game did not answer in time."""


# ------------------------------------------------------------------------------------------- framing
def send_msg(sock: socket.socket, msg: dict[str, Any]) -> None:
    """One message: a 4-byte big-endian length, then that many bytes of UTF-8 JSON."""
    data = json.dumps(msg, separators=(",", ":")).encode()
    sock.sendall(struct.pack(">I", len(data)) + data)


def _recv_exact(sock: socket.socket, n: int, deadline: float | None) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise GameTimeout()
            sock.settimeout(left)
        else:
            sock.settimeout(None)
        try:
            chunk = sock.recv(min(n - len(buf), 1 << 20))
        except TimeoutError:
            raise GameTimeout() from None
        except OSError as e:
            raise GameGone(str(e)) from None
        if not chunk:
            raise GameGone("the connection closed")
        buf += chunk
    return bytes(buf)


# ------------------------------------------------------------------------- Godot's binary Variant format
ENCODINGS = ("json", "godot-variant")  # what playtester reads (docs/protocol.md, "Encodings")
_V_DICT_HEADER = b"\x12\x00\x00\x00"  # a Variant-encoded Dictionary starts so; a JSON object starts with "{"
_FLAG_64 = 1 << 16
_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_I64 = struct.Struct("<q")
_F32 = struct.Struct("<f")
_F64 = struct.Struct("<d")
_FLOATS = {5: 2, 6: 4, 7: 3, 8: 6, 9: 4, 10: 4, 11: 6, 12: 9, 13: 12, 14: 4}  # Vector2 ... Color: float32 each


def _pad4(n: int) -> int:
    return (n + 3) & ~3


def _leaf(data: bytes, i: int, head: int) -> tuple[Any, int] | None:
    """The common leaves (int, real, String, bool, null) at ``i`` (just past their header), or None."""
    t = head & 0xFFFF
    if t == 3:
        if head & _FLAG_64:
            return _F64.unpack_from(data, i)[0], i + 8
        return _F32.unpack_from(data, i)[0], i + 4
    if t == 2:
        if head & _FLAG_64:
            return _I64.unpack_from(data, i)[0], i + 8
        return _I32.unpack_from(data, i)[0], i + 4
    if t == 4:
        n = _U32.unpack_from(data, i)[0]
        return data[i + 4:i + 4 + n].decode("utf-8"), i + 4 + ((n + 3) & ~3)
    if t == 1:
        return _U32.unpack_from(data, i)[0] != 0, i + 4
    if t == 0:
        return None, i
    return None


def _decode(data: bytes, i: int) -> tuple[Any, int]:
    u32 = _U32.unpack_from
    head = u32(data, i)[0]
    i += 4
    t = head & 0xFFFF
    if t == 18 or t == 19:  # Dictionary, Array: leaves decoded here (no call for each), containers recursively
        n = u32(data, i)[0] & 0x7FFFFFFF
        i += 4
        items = []
        append = items.append
        for _ in range(n * 2 if t == 18 else n):
            h = u32(data, i)[0]
            i += 4
            ht = h & 0xFFFF
            if ht == 3 and not h & _FLAG_64:
                append(_F32.unpack_from(data, i)[0])
                i += 4
            elif ht == 4:
                m = u32(data, i)[0]
                append(data[i + 4:i + 4 + m].decode("utf-8"))
                i += 4 + ((m + 3) & ~3)
            elif ht == 2 and not h & _FLAG_64:
                append(_I32.unpack_from(data, i)[0])
                i += 4
            else:
                leaf = _leaf(data, i, h)
                if leaf is None:
                    v, i = _decode(data, i - 4)
                    append(v)
                else:
                    append(leaf[0])
                    i = leaf[1]
        if t == 18:
            it = iter(items)
            return dict(zip(it, it, strict=False)), i
        return items, i
    leaf = _leaf(data, i, head)
    if leaf is not None:
        return leaf
    if t == 16:  # RID: nothing encoded
        return None, i
    if t in _FLOATS:  # vectors, rects, transforms, colours: lists of numbers
        n = _FLOATS[t]
        return list(struct.unpack_from(f"<{n}f", data, i)), i + 4 * n
    if t == 20:  # PoolByteArray: bytes
        n = _U32.unpack_from(data, i)[0]
        i += 4
        return data[i:i + n], i + _pad4(n)
    if t in (21, 22):  # PoolIntArray, PoolRealArray
        n = _U32.unpack_from(data, i)[0]
        i += 4
        return list(struct.unpack_from(f"<{n}{'i' if t == 21 else 'f'}", data, i)), i + 4 * n
    if t == 23:  # PoolStringArray: each string with its NUL, padded
        n = _U32.unpack_from(data, i)[0]
        i += 4
        strs = []
        for _ in range(n):
            m = _U32.unpack_from(data, i)[0]
            i += 4
            strs.append(data[i:i + m].rstrip(b"\0").decode("utf-8"))
            i += _pad4(m)
        return strs, i
    if t in (24, 25, 26):  # PoolVector2Array, PoolVector3Array, PoolColorArray: lists of lists
        n = _U32.unpack_from(data, i)[0]
        i += 4
        w = t - 22
        flat = struct.unpack_from(f"<{n * w}f", data, i)
        return [list(flat[k:k + w]) for k in range(0, n * w, w)], i + 4 * n * w
    if t == 17 and head & _FLAG_64:  # an Object sent as its instance id
        return _I64.unpack_from(data, i)[0], i + 8
    if t == 15:  # NodePath (names, subnames): "a/b:c"
        n = _U32.unpack_from(data, i)[0]
        if not n & 0x80000000:  # the old format: just a string
            return _decode(_U32.pack(4) + data[i:], 0)[0], i + 4 + _pad4(n)
        names, subs, flags = n & 0x7FFFFFFF, _U32.unpack_from(data, i + 4)[0], _U32.unpack_from(data, i + 8)[0]
        i += 12
        parts = []
        for _ in range(names + subs):
            m = _U32.unpack_from(data, i)[0]
            parts.append(data[i + 4:i + 4 + m].decode("utf-8"))
            i += 4 + _pad4(m)
        text = ("/" if flags & 1 else "") + "/".join(parts[:names])
        return text + "".join(":" + p for p in parts[names:]), i
    raise ValueError(f"Variant type {t} (header {head:#x}) at byte {i - 4} is not one playtester reads")


def decode_variant(data: bytes) -> Any:
    """A value in Godot 3's binary Variant format (what ``var2bytes`` writes, ``bytes2var`` reads; little-endian):
    numbers, strings, bools and null as themselves, arrays and dictionaries as lists and dicts, vectors, colours
    and the like as lists of numbers, a PoolByteArray as bytes. `ValueError` for what is not one."""
    try:
        v, end = _decode(data, 0)
    except (struct.error, UnicodeDecodeError, RecursionError, TypeError) as e:
        raise ValueError(f"not a Variant: {e}") from None
    if end != len(data):
        raise ValueError(f"a Variant of {end} bytes followed by {len(data) - end} more")
    return v


def encode_variant(v: Any) -> bytes:
    """``v`` in Godot 3's binary Variant format (what ``bytes2var`` reads): None, bools, ints, floats, strings, bytes
    (a PoolByteArray), lists/tuples (an Array) and dicts (a Dictionary)."""
    out = bytearray()

    def enc(x: Any) -> None:
        if x is None:
            out.extend(_U32.pack(0))
        elif isinstance(x, bool):
            out.extend(_U32.pack(1) + _U32.pack(int(x)))
        elif isinstance(x, int):
            if -(1 << 31) <= x < (1 << 31):
                out.extend(_U32.pack(2) + _I32.pack(x))
            else:
                out.extend(_U32.pack(2 | _FLAG_64) + _I64.pack(x))
        elif isinstance(x, float):
            if _F32.unpack(_F32.pack(x))[0] == x or x != x:
                out.extend(_U32.pack(3) + _F32.pack(x))
            else:
                out.extend(_U32.pack(3 | _FLAG_64) + _F64.pack(x))
        elif isinstance(x, str):
            b = x.encode()
            out.extend(_U32.pack(4) + _U32.pack(len(b)) + b + b"\0" * (_pad4(len(b)) - len(b)))
        elif isinstance(x, (bytes, bytearray)):
            out.extend(_U32.pack(20) + _U32.pack(len(x)) + bytes(x) + b"\0" * (_pad4(len(x)) - len(x)))
        elif isinstance(x, dict):
            out.extend(_U32.pack(18) + _U32.pack(len(x)))
            for k, val in x.items():
                enc(k)
                enc(val)
        elif isinstance(x, (list, tuple)):
            out.extend(_U32.pack(19) + _U32.pack(len(x)))
            for val in x:
                enc(val)
        else:
            raise TypeError(f"{type(x).__name__} has no Variant encoding here")

    enc(v)
    return bytes(out)


_JSON = json.JSONDecoder()


def parse_body(raw: bytes) -> dict[str, Any]:
    """One message's body: a JSON object (it starts with ``{``) or, from a game that was asked for the
    ``godot-variant`` encoding, a Variant-encoded Dictionary. `ProtocolError` for anything else."""
    if raw[:4] == _V_DICT_HEADER:
        try:
            msg = decode_variant(raw)
        except ValueError as e:
            raise ProtocolError(f"a broken Variant message: {e}: {raw[:64]!r}") from None
        return msg
    try:
        msg = _JSON.decode(raw.decode()) if raw[:1] == b"{" else json.loads(raw)  # (json.loads guesses the encoding)
    except ValueError as e:
        raise ProtocolError(f"not JSON: {e}: {raw[:200]!r}") from None
    if not isinstance(msg, dict):
        raise ProtocolError(f"not a JSON object: {raw[:200]!r}")
    return msg


def recv_msg(sock: socket.socket, deadline: float | None = None) -> dict[str, Any]:
    """The next message (a JSON object); `GameTimeout` past ``deadline`` (``time.monotonic``), `GameGone` when the
    peer closed, `ProtocolError` for what is not a message."""
    (n,) = struct.unpack(">I", _recv_exact(sock, 4, deadline))
    if n > MAX_MESSAGE:
        raise ProtocolError(f"message of {n} bytes announced (the limit is {MAX_MESSAGE})")
    return parse_body(_recv_exact(sock, n, deadline))


# ------------------------------------------------------------------------------------- the game's log
_AT = re.compile(r"^\s+At: (?P<file>.+?):(?P<line>\d+)(?::[^\s]*)?\.?\s*$")
_CRASHED = re.compile(r"Program crashed with signal (\d+)")  # Godot's crash handler, before its backtrace
_ERROR = re.compile(r"^(?P<level>SCRIPT ERROR|USER SCRIPT ERROR|USER ERROR|ERROR): (?P<message>.*)$")
# what an engine prints when the project itself cannot load (Godot 3: a main scene, an autoload, a script that does
# not parse, a resource never imported): the game then quits, often with exit code 0
_NOISE = re.compile(r"Invalid locale|Unsupported locale|make_dir_recursive")  # Debian's Godot in a C locale
_LOAD_FAILED = re.compile(r"Failed loading scene|Failed loading resource|Cannot open file|Parse Error|"
                          r"Failed to load script|Failed to instance|Couldn't load|Can't autoload|Script does not inherit")


def load_failures(tail: str) -> list[str]:
    """The engine's own lines saying the project could not load, in order; a line that names no file gets the
    place of its ``At:`` line (Godot's parse error: ``... Parse Error: ... (At: res://broken.gd:3)``)."""
    lines = tail.splitlines()
    out = []
    for i, ln in enumerate(lines):
        if not (_LOAD_FAILED.search(ln) and ("ERROR" in ln or "Error" in ln)):
            continue
        at = _AT.match(lines[i + 1]) if i + 1 < len(lines) else None
        if at and "res://" not in ln and at["file"].startswith("res://"):
            ln = f"{ln.strip()} (At: {at['file']}:{at['line']})"
        out.append(ln.strip())
    return out


class ProjectRefused(Exception):
    """Found during a run: the project cannot be played here as it is (an engine older than the project needs). The
    command stops with this message and exit code 2 (`RemoteRunner.run` sends it as the spec's error): not a finding
    of the game."""


def load_failure(tail: str) -> str | None:
    """The line that says best why the project could not load (a scene that failed to load, else the first such
    line), or None."""
    lines = load_failures(tail)
    return next((ln for ln in lines if "Failed loading scene" in ln), lines[0] if lines else None)


class StderrReader:
    """Reads a game's stderr: keeps its tail, parses error lines into `LogRecord`s and notes the sync markers
    (``@@playtester sync SEQ``).

    No thread: the episode's own thread reads the pipe (non-blocking) whenever it waits for the game anyway
    (`RemoteGame.request` waits on the game's socket and its stderr together) and when it needs what was
    printed. A game that prints its sync line before it sends its answer has that line in the pipe by the time
    the answer arrives, so no wait and no thread hand-off is left on a step's path (a reader thread woken for
    every sync line, then waking the episode's thread, cost about 0.17 ms a step)."""

    def __init__(self, stream: Any, engine: str) -> None:
        self.engine = engine
        self.tail: deque[str] = deque(maxlen=200)
        self.records: list[LogRecord] = []  # error records since the last sync line
        self.tagged: list[tuple[int, list[LogRecord]]] = []  # (seq, the records printed before its sync line)
        self.synced = -1
        self.counting = False  # error lines count once the game said hello (engine start-up noise does not): from
        #                        its HELLO_MARK line, or (a game without stderr_sync) from the hello itself
        self.before: list[str] = []  # the lines printed before that (start-up: a script that did not parse, ...)
        self.frame = 0  # the frame the game is at, for the records
        self._pending: LogRecord | None = None
        self._stream = stream  # kept: it owns the file descriptor
        self.fd: int = stream.fileno()
        os.set_blocking(self.fd, False)
        self._buf = b""
        self._done = False

    def pump(self, timeout: float = 0.0) -> bool:
        """Read what the game printed (waiting up to ``timeout`` seconds for the first bytes); False at the end of
        the stream."""
        import select

        while not self._done:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                if timeout <= 0:
                    return True
                ready, _, _ = select.select([self.fd], [], [], timeout)
                timeout = 0.0
                if not ready:
                    return True
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self._done = True
                if self._buf:
                    self._line(self._buf)
                    self._buf = b""
                self._flush()
                return False
            timeout = 0.0
            lines = (self._buf + chunk).split(b"\n")
            self._buf = lines.pop()
            for raw in lines:
                self._line(raw)
            if len(chunk) < 1 << 16:
                return True  # all there was (a pipe gives what it holds): no second read to learn it is empty
        return not self._done

    def _line(self, raw: bytes) -> None:
        line = raw.decode("utf-8", "replace")
        if line == HELLO_MARK:
            self._flush()
            self.records.clear()
            self.tagged.clear()
            self.counting = True
            return
        if line.startswith(SYNC):
            self._flush()
            try:
                seq = int(line[len(SYNC):])
            except ValueError:
                return
            self.synced = max(self.synced, seq)
            if self.records:  # they were printed during request seq (a pipelined game may already be on the next)
                self.tagged.append((seq, self.records))
                self.records = []
            return
        self.tail.append(line)
        if not self.counting and len(self.before) < 1000:
            self.before.append(line)
        self._parse(line)

    def _parse(self, line: str) -> None:
        m = _ERROR.match(line)
        if m:
            self._flush()
            if self.counting:
                self._pending = LogRecord(self.engine, m["level"], m["message"].strip(), "", 0, self.frame)
            return
        at = _AT.match(line)
        if at and self._pending is not None:
            self._pending.file, self._pending.line = at["file"], int(at["line"])
            self._flush()

    def _flush(self) -> None:
        if self._pending is not None:
            self.records.append(self._pending)
            self._pending = None

    def wait_sync(self, seq: int, timeout: float) -> None:
        """Until the marker of request ``seq`` was read (every line printed before the reply is in)."""
        if self.synced >= seq:  # read already (a pipelined game's answers come in together): no read needed
            return
        self.pump()
        if self.synced >= seq:
            return
        deadline = time.monotonic() + timeout
        while self.synced < seq and not self._done:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self.pump(left)

    def wait_hello(self, timeout: float) -> None:
        """Until the game's HELLO_MARK line was read (every start-up line is in `before`)."""
        deadline = time.monotonic() + timeout
        self.pump()
        while not self.counting and not self._done:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self.pump(left)

    def take(self, pump: bool = True) -> list[LogRecord]:
        """Every record read so far."""
        if pump:
            self.pump()
        out = [r for _, rs in self.tagged for r in rs] + self.records
        self.tagged, self.records = [], []
        return out

    def peek(self) -> list[LogRecord]:
        """Every record read so far, left in place."""
        return [r for _, rs in self.tagged for r in rs] + self.records

    def take_upto(self, seq: int) -> list[LogRecord]:
        """The records printed before the sync line of request ``seq`` (and of older ones), not those printed
        after it: with requests pipelined, the game may be playing the next one already."""
        out: list[LogRecord] = []
        while self.tagged and self.tagged[0][0] <= seq:
            out += self.tagged.pop(0)[1]
        return out

    def text(self, n: int = 60) -> str:
        self.pump()
        return "\n".join(list(self.tail)[-n:])

    def join(self, timeout: float) -> None:
        """Read until the stream ends (the game is gone), for at most ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not self._done:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self.pump(left)


def distinct_records(records: list[LogRecord], frame: int) -> list[LogRecord]:
    """A step's error records, one per distinct error (an error may repeat every frame), each at the step's
    ``frame``."""
    out: dict[tuple[str, str, str, int], LogRecord] = {}
    for r in records:
        r.frame = frame
        out.setdefault((r.level, r.message, r.file, r.line), r)
    return list(out.values())


# -------------------------------------------------------------------------------------- the client
def _die_with(parent: int) -> Callable[[], None]:
    def pre() -> None:  # in the child, between fork and exec
        from playtester.drive.lifetime import die_with_parent

        die_with_parent(parent)

    return pre


def _term_with(parent: int) -> Callable[[], None]:
    """Like `_die_with`, with SIGTERM: for a process that must clean up after itself (Xvfb removes its lock
    file and socket on SIGTERM; killed, it leaves them in /tmp)."""
    def pre() -> None:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os._exit(0)

    return pre


@dataclass
class Hello:
    """What the game said of itself."""

    engine: str
    engine_version: str
    game: str
    capabilities: dict[str, Any]
    actions: list[str]
    raw: dict[str, Any] = field(default_factory=dict)


class RemoteGame:
    """One game process and its connection.

    Args:
        command: the game's command line (the port goes into ``PLAYTESTER_PORT`` and, with ``port_arg``, a
            ``--playtester-port=PORT`` argument).
        engine: the engine's name, for log records.
        cwd, env: where and with what environment the game runs (``env`` is added to this process's).
        start_timeout: seconds for the game to connect and say hello.
        display: run the game on an Xvfb display of its own (``DISPLAY`` set).
        keeper: a folder where a keeper process holds the game between episodes (see `Keeper`); None: the game
            is this object's child and ends with it.
    """

    def __init__(self, command: list[str], engine: str = "remote", cwd: str | None = None,
                 env: dict[str, str] | None = None, start_timeout: float = 30.0, port_arg: bool = True,
                 autostart: bool = True, display: bool = False, keeper: str | None = None) -> None:
        self.engine = engine
        self._seq = itertools.count(int.from_bytes(os.urandom(3), "big") * 16)  # no clash with an old episode's
        self.sock: socket.socket | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.pid: int | None = None
        self.stderr: StderrReader | None = None
        self.hello: Hello | None = None
        self.fresh = True  # the game process was started for this object (not kept from an earlier episode)
        self.broken = False  # killed or dead: a keeper must not hand it out again
        self.keeper = keeper
        self.launch = {"command": list(command), "cwd": cwd, "env": dict(env or {}), "port_arg": port_arg,
                       "display": display, "engine": engine}
        self.start_timeout = start_timeout
        self._xvfb: subprocess.Popen[bytes] | None = None
        self._status: int | None = None
        self._rbuf = bytearray()  # what was read of the game's socket and is not a whole message yet
        self._sent: deque[int] = deque()  # seqs of the requests sent and not answered yet (`submit`)
        self._joined: deque[dict[str, Any]] = deque()  # answers of a joined message not taken yet (`submit_steps`)
        if autostart:
            self.start()

    def start(self) -> None:
        """Start the game (or take the keeper's live one) and wait for its hello; on failure (`GameGone`,
        `GameTimeout`, `ProtocolError`) the game's process group is killed (its exit status and stderr stay
        readable)."""
        try:
            if self.keeper is not None:
                self._start_kept()
            else:
                self._start_direct()
        except BaseException:
            self.broken = True
            self.close(0.0)
            raise

    # ---- a game of our own
    def _start_direct(self) -> None:
        env = dict(self.launch["env"])
        if self.launch["display"]:
            display, self._xvfb = start_xvfb(self.keeper or self.launch["cwd"] or ".")
            env["DISPLAY"] = display
        self.proc, self.sock, msg = launch_game(self.launch["command"], self.launch["cwd"], env, self.start_timeout,
                                                self.launch["port_arg"], on_stderr=self._read_stderr)
        self.pid = self.proc.pid
        self._hello(msg)

    def _read_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc, self.pid = proc, proc.pid
        self.stderr = StderrReader(proc.stderr, self.engine)

    def _hello(self, msg: dict[str, Any]) -> None:
        assert self.sock is not None
        self.hello = check_hello(self.sock, msg, self.engine)
        if not self.hello.capabilities.get("stderr_sync") and self.stderr is not None:
            self.stderr.counting = True  # else the game's "@@playtester hello" line starts the counting

    # ---- a game the keeper holds across episodes
    def _start_kept(self) -> None:
        assert self.keeper is not None
        reply, fds = keeper_request(self.keeper, {"op": "get", "launch": self.launch,
                                                  "start_timeout": self.start_timeout})
        self.pid = reply.get("pid")
        game_fd = stderr_fd = None
        if len(fds) == 2:
            game_fd, stderr_fd = fds
        elif len(fds) == 1:
            stderr_fd = fds[0]
        if stderr_fd is not None:
            self.stderr = StderrReader(os.fdopen(stderr_fd, "rb", buffering=0), self.engine)
            if not reply.get("fresh", True):
                self.stderr.counting = True
        if not reply.get("ok"):
            self._status = reply.get("status")
            if game_fd is not None:
                os.close(game_fd)
            kind = reply.get("kind")
            if kind == "timeout":
                raise GameTimeout()
            if kind == "gone":
                raise GameGone(str(reply.get("message")))
            raise ProtocolError(str(reply.get("message")))
        self.fresh = bool(reply.get("fresh"))
        assert game_fd is not None
        self.sock = socket.socket(fileno=game_fd)
        caps = reply["hello"].get("capabilities") or {}
        self.hello = Hello(str(reply["hello"].get("engine", self.engine)), str(reply["hello"].get("engine_version", "")),
                           str(reply["hello"].get("game", "")), caps,
                           [str(a) for a in reply["hello"].get("actions") or []], reply["hello"])
        if not caps.get("stderr_sync") and self.stderr is not None:
            self.stderr.counting = True

    def request(self, msg: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        """Send ``msg`` (a seq is added) and return its answer (an ``observation`` or ``error``), with the
        error lines the game printed meanwhile as ``logs`` (`LogRecord`s)."""
        return self.answer(self.submit(msg), timeout)

    def submit(self, msg: dict[str, Any]) -> int:
        """Send ``msg`` with a seq of its own, without waiting for its answer (`answer`); its seq. A game whose
        hello offers ``pipeline`` may be sent the next requests before it answers this one (it answers them in
        order)."""
        assert self.sock is not None
        seq = next(self._seq)
        try:
            send_msg(self.sock, {**msg, "seq": seq})
        except OSError as e:
            raise GameGone(str(e)) from None
        self._sent.append(seq)
        return seq

    def submit_steps(self, steps: list[dict[str, Any]]) -> list[int]:
        """Send several ``step`` requests as one (the first, the rest in its ``then``, each with a seq of its own and
        ``each``: a game whose hello offers ``batch_each`` answers every one of them as it ends); their seqs, each
        answered with `answer`."""
        if len(steps) == 1:
            return [self.submit(steps[0])]
        assert self.sock is not None
        seqs = [next(self._seq) for _ in steps]
        then = [{"inputs": st["inputs"], "frames": st["frames"], "seq": q}
                for st, q in zip(steps[1:], seqs[1:], strict=True)]
        msg = {**steps[0], "seq": seqs[0], "each": True, "then": then}
        if self.hello is not None and self.hello.capabilities.get("batch_joined") and \
                os.environ.get("PLAYTESTER_REMOTE_JOIN", "1") != "0":
            msg["join"] = True  # their answers in one message, after the last (docs/protocol.md, "Joined answers")
        try:
            send_msg(self.sock, msg)
        except OSError as e:
            raise GameGone(str(e)) from None
        self._sent.extend(seqs)
        return seqs

    def answer(self, seq: int, timeout: float | None) -> dict[str, Any]:
        """The answer to request ``seq`` (`submit`; answers to older requests are read and dropped), with the error
        lines the game printed while it played that request as ``logs_parsed`` (`LogRecord`s): with requests
        pipelined, those printed before the game's sync line of ``seq``, not those of the next request."""
        assert self.sock is not None and self.hello is not None and self.stderr is not None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            reply = self._next_message(deadline)
            if reply.get("seq", seq) == seq:
                break  # an answer to an older request (it timed out on our side) is dropped
        while self._sent and self._sent[0] <= seq:
            self._sent.popleft()
        synced = bool(self.hello.capabilities.get("stderr_sync"))
        if synced:
            self.stderr.wait_sync(seq, 2.0)  # it reads the pipe
        if synced and self._sent:  # the game may be printing the next request's lines already
            records = self.stderr.take_upto(seq)
        else:
            records = self.stderr.take(pump=not synced)
        reply["logs_parsed"] = distinct_records(records, int(reply.get("frame_no", 0) or 0))
        return reply

    def answer_ready(self) -> bool:
        """The next message of the game's is all here (read without waiting): taking it costs no wait."""
        if self._joined:
            return True
        buf = self._rbuf
        if len(buf) < 4 or len(buf) < 4 + struct.unpack_from(">I", buf)[0]:
            try:
                chunk = self.sock.recv(1 << 20, socket.MSG_DONTWAIT)  # type: ignore[union-attr]
            except (BlockingIOError, InterruptedError):
                return False
            except OSError:
                return False  # the wait for it says what happened
            if not chunk:
                return False
            buf += chunk
        return len(buf) >= 4 and len(buf) >= 4 + struct.unpack_from(">I", buf)[0]

    @property
    def in_flight(self) -> int:
        """Requests sent and not answered yet."""
        return len(self._sent)

    def _next_message(self, deadline: float | None) -> dict[str, Any]:
        """The game's next message, read from its socket while its stderr is read too (a game blocked on a full
        stderr pipe would never answer); `GameTimeout` past ``deadline``."""
        import select

        assert self.sock is not None and self.stderr is not None
        if self._joined:
            return self._joined.popleft()
        buf = self._rbuf
        while True:
            if len(buf) >= 4:
                (n,) = struct.unpack_from(">I", buf)
                if n > MAX_MESSAGE:
                    raise ProtocolError(f"message of {n} bytes announced (the limit is {MAX_MESSAGE})")
                if len(buf) >= 4 + n:
                    body = bytes(buf[4:4 + n])
                    del buf[:4 + n]
                    msg = parse_body(body)
                    if msg.get("type") == "observations":  # a joined batch's answers, in order (docs/protocol.md)
                        answers = msg.get("answers")
                        if not isinstance(answers, list) or not answers or \
                                not all(isinstance(a, dict) for a in answers):
                            raise ProtocolError("an 'observations' message without a list of answers")
                        self._joined.extend(answers[1:])
                        return answers[0]
                    return msg
            # wait on the socket alone, the stderr pipe drained every STDERR_SLICE: waking on the sync line the game
            # prints just before its answer would cost a second wake-up on every step
            left = STDERR_SLICE
            if deadline is not None:
                left = min(left, deadline - time.monotonic())
                if left <= 0:
                    raise GameTimeout()
            try:
                ready, _, _ = select.select([self.sock], [], [], left)
            except (OSError, ValueError) as e:
                raise GameGone(str(e)) from None
            if not ready:
                self.stderr.pump()
                continue
            if ready:
                try:
                    chunk = self.sock.recv(1 << 20)
                except BlockingIOError:
                    continue
                except OSError as e:
                    raise GameGone(str(e)) from None
                if not chunk:
                    raise GameGone("the connection closed")
                buf += chunk

    def alive(self) -> bool:
        if self.proc is not None:
            return self.proc.poll() is None
        return self.pid is not None and _alive(self.pid)

    def exit_status(self, wait: float = 2.0) -> int | None:
        """The game's exit status (as `subprocess` gives it: negative for a signal), waiting up to ``wait``
        seconds for it to end; None while it runs."""
        if self.proc is not None:
            try:
                return self.proc.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                return None
        if self._status is not None or self.pid is None or self.keeper is None:
            return self._status
        try:
            reply, _ = keeper_request(self.keeper, {"op": "status", "pid": self.pid, "wait": wait})
        except OSError:
            return None
        self._status = reply.get("status")
        return self._status

    def kill(self) -> None:
        """Kill the game's process group (the game and whatever it started)."""
        self.broken = True
        if self.pid is not None:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self.proc is not None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        elif self.keeper is not None and self.pid is not None:
            self.exit_status(2.0)  # the keeper reaps it

    def close(self, grace: float = 1.0) -> None:
        """End the connection. A game of our own: ``quit``, a moment to go, then its process group is killed. A
        kept game that is still sound stays with its keeper for the next episode."""
        if self.keeper is not None and not self.broken and self.sock is not None and self.alive():
            self.sock.close()  # the keeper's copy of the connection stays open
            self.sock = None
            return
        if self.sock is not None and grace > 0 and self.keeper is None:
            try:
                send_msg(self.sock, {"type": "quit", "seq": next(self._seq)})
            except OSError:
                pass
            self.exit_status(grace)
        self.kill()
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.stderr is not None:
            self.stderr.join(1.0)
        if self._xvfb is not None:
            stop_xvfb(self._xvfb)
            self._xvfb = None


def _alive(pid: int) -> bool:
    from playtester.drive.lifetime import alive

    return alive(pid)


def launch_game(command: list[str], cwd: str | None, env: dict[str, str], start_timeout: float, port_arg: bool,
                on_stderr: Callable[[subprocess.Popen[bytes]], None] | None = None
                ) -> tuple[subprocess.Popen[bytes], socket.socket, dict[str, Any]]:
    """Start a game in a process group of its own (killed when this process dies), wait for it to connect and
    prove the launch's secret in its hello (`accept_game`); the connection and the hello. ``on_stderr`` gets the
    process as soon as it runs (to read its stderr).

    The secret (``secrets.token_hex(32)``, new at each launch) goes in the game's environment (``PLAYTESTER_SECRET``):
    /proc/PID/environ is readable only by the game's own user, while the port, on its command line, is readable by
    every user.

    Raises:
        GameGone: it exited before it connected (the process is in the exception's ``proc``).
        GameTimeout: no connection and proved hello within ``start_timeout``.
        ProtocolError: it could not be started, its first message is not a message, or the game itself failed the
            proof (a wrong or missing secret, an older protocol: the message says which).
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    proc = None
    secret = secrets.token_hex(32)
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(MAX_PEERS)
        port = listener.getsockname()[1]
        full_env = dict(os.environ) | env | {"PLAYTESTER_PORT": str(port), SECRET_ENV: secret}
        argv = [*command, *([f"--playtester-port={port}"] if port_arg else [])]
        try:
            proc = subprocess.Popen(argv, cwd=cwd, env=full_env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_die_with(os.getpid()))
        except OSError as e:
            raise ProtocolError(f"cannot start {argv[0]}: {e}") from None
        if on_stderr is not None:
            on_stderr(proc)
        sock, msg = accept_game(listener, proc, secret, time.monotonic() + start_timeout)
    finally:
        listener.close()
    sock.setblocking(True)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return proc, sock, msg


def prove(secret: str, nonce: str) -> str:
    """The game's proof: HMAC-SHA256 keyed with the secret's text (UTF-8) of the nonce's text, in lowercase hex."""
    return hmac.new(secret.encode(), nonce.encode(), hashlib.sha256).hexdigest()


@dataclass
class _Peer:
    """A connection to the game's port that has not proved the secret yet."""

    sock: socket.socket
    addr: tuple[str, int]
    nonce: str
    buf: bytearray = field(default_factory=bytearray)


def accept_game(listener: socket.socket, proc: subprocess.Popen[bytes], secret: str,
                deadline: float) -> tuple[socket.socket, dict[str, Any]]:
    """The connection of the game ``proc`` and its hello, once it proved ``secret``: each peer that connects is sent
    a ``challenge`` (a fresh nonce) and must answer with a hello whose ``auth`` is `prove` (secret, nonce). Any other
    peer (a local user who read the port in /proc, a game of an older protocol) is answered with an ``error``,
    dropped and logged (a warning naming its address, uid and pid where /proc tells them), and the listener goes on
    waiting for the real game until ``deadline``. A refused peer that is the game itself (a process of its process
    group) is a `ProtocolError` at once (a wrong secret, an older protocol); so is a refusal when the game then
    exits or the time runs out (the refusal was most likely the game's)."""
    peers: dict[int, _Peer] = {}
    refusal: str | None = None  # why the last peer was refused
    exited: float | None = None  # when the game's process was first seen dead
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                if refusal is not None:
                    raise ProtocolError(refusal)
                raise GameTimeout()
            if proc.poll() is not None:  # dead: a hello it sent just before is read (0.5 s), then it is gone
                exited = exited if exited is not None else time.monotonic()
                if not peers or time.monotonic() - exited > 0.5:
                    if refusal is not None:
                        raise ProtocolError(refusal)
                    raise GameGone("the game exited before it connected")
            nap = min(0.05 if exited is not None else 0.2, left)
            ready, _, _ = select.select([listener, *(p.sock for p in peers.values())], [], [], nap)
            for r in ready:
                if r is listener:
                    try:
                        conn, addr = listener.accept()
                    except OSError:
                        continue
                    conn.setblocking(False)
                    peer = _Peer(conn, addr, secrets.token_hex(32))
                    try:
                        send_msg(conn, {"type": "challenge", "protocol": PROTOCOL, "nonce": peer.nonce})
                    except OSError:
                        conn.close()
                        continue
                    if len(peers) >= MAX_PEERS:  # a flood: the oldest waiting peer goes
                        oldest = next(iter(peers))
                        _refuse(peers.pop(oldest), proc, "too many connections waiting to prove the secret", None)
                    peers[conn.fileno()] = peer
                    continue
                peer = peers[r.fileno()]
                try:
                    chunk = peer.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    del peers[r.fileno()]
                    _refuse(peer, proc, "it closed the connection before its hello", None)
                    continue
                peer.buf += chunk
                if len(peer.buf) < 4:
                    continue
                (n,) = struct.unpack(">I", peer.buf[:4])
                if n > MAX_HELLO:
                    del peers[r.fileno()]
                    _refuse(peer, proc, f"a first message of {n} bytes announced", None)
                    continue
                if len(peer.buf) < 4 + n:
                    continue
                del peers[r.fileno()]
                try:
                    msg = parse_body(bytes(peer.buf[4:4 + n]))
                except ProtocolError as e:
                    msg = {"type": f"<{e}>"}
                why = _unproved(msg, secret, peer.nonce)
                if why is None and len(peer.buf) > 4 + n:
                    why = "it sent more than its hello before any request"
                if why is None:
                    for other in peers.values():
                        other.sock.close()
                    peers.clear()
                    return peer.sock, msg
                whose = _refuse(peer, proc, why[0], why[1])
                if whose == "game":
                    raise ProtocolError(f"the game's hello was refused: {why[0]}")
                if whose == "unknown":  # (the game's, if it then exits or never proves the secret)
                    refusal = f"the game's hello was refused: {why[0]}"
    except BaseException:
        for p in peers.values():
            p.sock.close()
        raise


def _unproved(msg: dict[str, Any], secret: str, nonce: str) -> tuple[str, str] | None:
    """Why a peer's first message does not prove the secret (the text for playtester, the error for the peer), or
    None when it does."""
    if msg.get("type") != "hello":
        return (f"its first message is {str(msg.get('type'))[:200]!r}, not hello",
                "the first message must be a hello answering the challenge")
    if msg.get("protocol") != PROTOCOL:
        text = (f"the game speaks protocol {msg.get('protocol')!r}; playtester speaks {PROTOCOL}, whose hello "
                f"proves the launch's secret (the HMAC-SHA256 of the challenge's nonce with {SECRET_ENV}): update "
                "the game's side of the protocol (Godot: the add-on shipped with this playtester, "
                "playtester/drive/godot_addon/playtester.gd; another engine: docs/protocol.md, *Authentication*)")
        return text, f"playtester speaks protocol {PROTOCOL}, the game {msg.get('protocol')!r}: {text}"
    auth = msg.get("auth")
    if not isinstance(auth, str) or not hmac.compare_digest(auth.lower().encode(), prove(secret, nonce).encode()):
        what = "no proof" if auth is None else "a wrong proof"
        text = (f"its hello carries {what} of the launch's secret (auth: the HMAC-SHA256, keyed with the "
                f"environment variable {SECRET_ENV}, of the challenge's nonce): a game that does not read "
                f"{SECRET_ENV} from its environment, or one whose {SECRET_ENV} was changed")
        return text, f"refused: the hello does not prove the launch's secret ({SECRET_ENV})"
    return None


def _refuse(peer: _Peer, proc: subprocess.Popen[bytes], why: str, tell: str | None) -> str:
    """Answer a peer that did not prove the secret with an error (``tell``), close it, log it. Whose it was:
    ``game`` (a process of the game's process group holds its end), ``other`` (another process, or another user's:
    the game runs as this user, whose processes /proc shows), ``unknown`` (/proc does not tell)."""
    who = _peer_owner(peer.addr, peer.sock.getsockname())
    if who is None:
        whose, note = "unknown", ""
    elif who[1] is not None and _pgid(who[1]) == proc.pid:
        whose, note = "game", ": the game's own process"
    else:
        whose, note = "other", ": not the game's process"
    if tell is not None:
        try:
            peer.sock.setblocking(True)
            peer.sock.settimeout(0.2)
            send_msg(peer.sock, {"type": "error", "seq": -1, "message": tell})
        except OSError:
            pass
    peer.sock.close()
    uid, pid = who if who is not None else (None, None)
    log.warning("playtester: dropped a connection to the game's port from %s:%d (uid %s, pid %s%s): %s",
                peer.addr[0], peer.addr[1], "?" if uid is None else uid, "?" if pid is None else pid, note, why)
    return whose


def _peer_owner(addr: tuple[str, int], ours: tuple[str, int]) -> tuple[int, int | None] | None:
    """The uid (from /proc/net/tcp) and, where this user may see it, the pid of the local process at the other end
    of a connection to ``ours`` from ``addr``; None where /proc does not tell."""
    def hexaddr(a: tuple[str, int]) -> str:
        return f"{int.from_bytes(socket.inet_aton(a[0]), sys.byteorder):08X}:{a[1]:04X}"

    local, remote = hexaddr(addr), hexaddr(ours)
    try:
        with open("/proc/net/tcp") as f:
            rows = [line.split() for line in f.readlines()[1:]]
    except OSError:
        return None
    for row in rows:
        if len(row) > 9 and row[1] == local and row[2] == remote:
            uid, inode = int(row[7]), row[9]
            break
    else:
        return None
    target = f"socket:[{inode}]"
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.stat(f"/proc/{pid}").st_uid != uid:
                continue
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return uid, int(pid)
        except OSError:
            continue
    return uid, None


def _pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def choose_encoding(hello: Hello | None, frames: bool = False) -> str:
    """The encoding of the game's answers to ask for in ``reset``: ``godot-variant`` when frames are captured and the
    game offers it (its hello's ``capabilities.encodings``): a frame goes as raw bytes instead of base64 in JSON;
    else ``json``: for entities alone, what Godot's ``var2bytes`` saves over its ``to_json`` (~100 us for a whole
    coinhop observation) Python spends reading the Variant instead of JSON (its JSON reader is C; this module's
    Variant reader is Python): a step costs the same CPU either way (bench/godot.py).
    ``PLAYTESTER_REMOTE_ENCODING=json|godot-variant`` chooses (when the game offers it)."""
    offered = (hello.capabilities.get("encodings") if hello is not None else None) or ["json"]
    wanted = os.environ.get("PLAYTESTER_REMOTE_ENCODING") or ("godot-variant" if frames else "json")
    return wanted if wanted in offered and wanted in ENCODINGS else "json"


def check_hello(sock: socket.socket, msg: dict[str, Any], engine: str) -> Hello:
    """The game's hello, checked (a wrong version is answered with an error, then refused; `accept_game` already
    refused one that does not prove the secret)."""
    if msg.get("type") != "hello":
        raise ProtocolError(f"the game's first message is {msg.get('type')!r}, not hello")
    if msg.get("protocol") != PROTOCOL:
        try:
            send_msg(sock, {"type": "error", "seq": -1, "message": f"playtester speaks protocol {PROTOCOL}, the "
                            f"game {msg.get('protocol')!r}"})
        except OSError:
            pass
        raise ProtocolError(f"the game speaks protocol {msg.get('protocol')!r}; playtester speaks {PROTOCOL}")
    caps = msg.get("capabilities") or {}
    return Hello(str(msg.get("engine", engine)), str(msg.get("engine_version", "")), str(msg.get("game", "")), caps,
                 [str(a) for a in msg.get("actions") or []], msg)


# ------------------------------------------------------------------------------------------ Xvfb
def start_xvfb(where: str) -> tuple[str, subprocess.Popen[bytes]]:
    """An Xvfb display of our own (it dies with this process): its name and process.

    The display number is picked at random among those nobody uses: X clients connect to the abstract socket
    ``@/tmp/.X11-unix/XN`` first, which other containers on the same network namespace may hold even where
    this one's /tmp has no lock file for it (``xvfb-run -a`` trips over that)."""
    import random
    import shutil

    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise ProtocolError("this game needs Xvfb for its display; install it (apt-get install xvfb)")
    rng = random.Random()
    log_path = os.path.join(where, "xvfb.log")
    for _ in range(20):
        num = rng.randint(100, 20000)
        if os.path.exists(f"/tmp/.X{num}-lock") or _x_listening(num):
            continue
        with open(log_path, "ab") as log:
            proc = subprocess.Popen([xvfb, f":{num}", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                                    start_new_session=True, preexec_fn=_term_with(os.getpid()))
        if _x_ready(num, proc, 10.0):
            return f":{num}", proc
        proc.kill()
        proc.wait()
    raise ProtocolError(f"Xvfb did not start (see {log_path})")


def stop_xvfb(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()  # SIGTERM: Xvfb removes its lock file and socket (a killed one leaves them)
    try:
        proc.wait(timeout=3)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _x_listening(num: int) -> bool:
    """Whether some X server listens on display ``:num``'s abstract socket (what Xlib tries first)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(f"\0/tmp/.X11-unix/X{num}")
        return True
    except OSError:
        return False
    finally:
        s.close()


def _x_ready(num: int, proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait until our Xvfb on ``:num`` accepts connections (False when it exits or the time runs out)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        if _x_listening(num):
            return True
        time.sleep(0.02)
    return False


# ------------------------------------------------------------------------------------------ the keeper
KEEPER_SOCKET = "remote-keeper.sock"


def keeper_request(folder: str, msg: dict[str, Any], spawn: bool = True) -> tuple[dict[str, Any], list[int]]:
    """Ask the keeper of ``folder`` (started when there is none and ``spawn``): its answer and the file
    descriptors it passed."""
    path = os.path.join(folder, KEEPER_SOCKET)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        try:
            s.connect(path)
        except OSError:
            if not spawn:
                raise
            s.close()
            start_keeper(folder)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
        data = json.dumps(msg).encode()
        s.sendall(struct.pack(">I", len(data)) + data)
        s.settimeout(float(msg.get("start_timeout", 0)) + float(msg.get("wait", 0)) + 30.0)
        head, fds, _, _ = socket.recv_fds(s, 4, 4)
        while len(head) < 4:
            more = s.recv(4 - len(head))
            if not more:
                raise OSError("the keeper closed the connection")
            head += more
        (n,) = struct.unpack(">I", head)
        body = b""
        while len(body) < n:
            more = s.recv(n - len(body))
            if not more:
                raise OSError("the keeper closed the connection")
            body += more
        return json.loads(body), list(fds)
    finally:
        s.close()


def start_keeper(folder: str) -> None:
    """Fork the keeper of ``folder``: it holds a game process and its connection across the episodes of one
    worker (each episode is a new process forked by the worker host; the keeper, orphaned when the episode
    that started it ends, is adopted by the host, a child subreaper). It is in the host's process group (a
    worker killed on a hang takes it along) and asks for SIGKILL when the host dies; the games it starts ask
    for SIGKILL when it dies."""
    path = os.path.join(folder, KEEPER_SOCKET)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(4)
    host = os.getppid()
    me = os.getpid()
    pid = os.fork()
    if pid == 0:
        try:
            keep = listener.fileno()
            os.closerange(3, keep)
            os.closerange(keep + 1, 65536)
            Keeper(listener, host, me, folder).run()
        finally:
            os._exit(0)
    listener.close()


class Keeper:
    """The keeper process's loop (see `start_keeper`): ``get`` hands out the live game for a launch (starting
    it when there is none, or when the launch differs), ``status`` reaps a game and tells its exit status."""

    def __init__(self, listener: socket.socket, host: int, episode: int, folder: str) -> None:
        self.listener, self.host, self.episode, self.folder = listener, host, episode, folder
        self.proc: subprocess.Popen[bytes] | None = None
        self.sock: socket.socket | None = None
        self.launch: dict[str, Any] | None = None
        self.hello: dict[str, Any] | None = None
        self.xvfb: tuple[str, subprocess.Popen[bytes]] | None = None
        self.armed = False

    def run(self) -> None:
        import select

        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            while self.parent_ok():
                ready, _, _ = select.select([self.listener], [], [], 0.25)
                if not ready:
                    continue
                conn, _ = self.listener.accept()
                try:
                    self.serve(conn)
                except Exception:  # noqa: BLE001 - a client that went away; the keeper goes on
                    pass
                finally:
                    conn.close()
        finally:
            self.drop()
            if self.xvfb is not None:
                stop_xvfb(self.xvfb[1])

    def parent_ok(self) -> bool:
        ppid = os.getppid()
        if ppid == self.host and not self.armed:  # adopted by the host: die with it from now on
            from playtester.drive.lifetime import die_with_parent

            die_with_parent(self.host)
            self.armed = True
        return ppid in (self.host, self.episode)

    def answer(self, conn: socket.socket, msg: dict[str, Any], fds: list[int]) -> None:
        data = json.dumps(msg).encode()
        packet = struct.pack(">I", len(data)) + data
        socket.send_fds(conn, [packet[:4]], fds) if fds else conn.sendall(packet[:4])
        conn.sendall(packet[4:])

    def serve(self, conn: socket.socket) -> None:
        conn.settimeout(10.0)
        (n,) = struct.unpack(">I", _recv_exact(conn, 4, time.monotonic() + 10))
        msg = json.loads(_recv_exact(conn, n, time.monotonic() + 10))
        if msg.get("op") == "status":
            status = None
            if self.proc is not None and self.proc.pid == msg.get("pid"):
                try:
                    status = self.proc.wait(timeout=float(msg.get("wait", 2.0)))
                except subprocess.TimeoutExpired:
                    status = None
            self.answer(conn, {"status": status}, [])
            return
        launch = msg["launch"]
        if self.proc is not None and self.launch == launch and self.proc.poll() is None and self.sock is not None:
            self.answer(conn, {"ok": True, "fresh": False, "pid": self.proc.pid, "hello": self.hello},
                        [self.sock.fileno(), self.proc.stderr.fileno()])  # type: ignore[union-attr]
            return
        self.drop()
        env = dict(launch["env"])
        if launch.get("display"):
            if self.xvfb is None or self.xvfb[1].poll() is not None:
                self.xvfb = start_xvfb(self.folder)
            env["DISPLAY"] = self.xvfb[0]
        holder: list[subprocess.Popen[bytes]] = []
        try:
            proc, sock, first = launch_game(launch["command"], launch["cwd"], env, float(msg["start_timeout"]),
                                            launch["port_arg"], on_stderr=holder.append)
        except (GameGone, GameTimeout, ProtocolError) as e:
            kind = {GameGone: "gone", GameTimeout: "timeout"}.get(type(e), "protocol")
            status = None
            if holder:
                try:
                    os.killpg(holder[0].pid, signal.SIGKILL)
                except OSError:
                    pass
                status = holder[0].wait()
            self.answer(conn, {"ok": False, "kind": kind, "message": str(e) or kind, "status": status,
                               "pid": holder[0].pid if holder else None},
                        [holder[0].stderr.fileno()] if holder and holder[0].stderr else [])
            if holder and holder[0].stderr:
                holder[0].stderr.close()
            return
        self.proc, self.sock, self.launch = proc, sock, launch
        try:
            check_hello(sock, first, launch.get("engine", "remote"))
        except ProtocolError as e:
            pid = proc.pid
            self.answer(conn, {"ok": False, "kind": "protocol", "message": str(e), "pid": pid},
                        [proc.stderr.fileno()])  # type: ignore[union-attr]
            self.drop()
            return
        self.hello = first
        self.answer(conn, {"ok": True, "fresh": True, "pid": proc.pid, "hello": first},
                    [sock.fileno(), proc.stderr.fileno()])  # type: ignore[union-attr]

    def drop(self) -> None:
        """End the game held (its process group)."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            self.proc.wait()
            if self.proc.stderr is not None:
                self.proc.stderr.close()
        if self.sock is not None:
            self.sock.close()
        self.proc = self.sock = self.launch = self.hello = None


# ---------------------------------------------------------------------------------- declared actions
def action_sets(names: list[str]) -> list[tuple[str, ...]]:
    """The declared space of a game with these input actions: nothing held, each action, each pair."""
    names = sorted(dict.fromkeys(names))
    return [(), *((n,) for n in names), *itertools.combinations(names, 2)]


def action_labels(sets: list[tuple[str, ...]]) -> list[str]:
    return ["+".join(s) if s else "none" for s in sets]


# ------------------------------------------------------------------------------------ the episode
@dataclass
class Launch:
    """How to start one remote game: what the engine-specific part of a backend prepares."""

    command: list[str]
    engine: str
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    port_arg: bool = True
    cleanup: Callable[[], None] | None = None  # after the game is gone
    display: bool = False  # run it on an Xvfb display of its own
    keeper: str | None = None  # a folder where a keeper holds the game between episodes; None: a fresh one each


_NAMES: dict[str, str] = {}
_NON_ALNUM = re.compile(r"[^0-9a-zA-Z]+")


def _feature_name(text: str) -> str:
    name = _NAMES.get(text)
    if name is None:  # a game has few ids and property names: each is worked out once
        name = _NON_ALNUM.sub("_", text).strip("_").lower() or "node"
        if len(_NAMES) < 100_000:
            _NAMES[text] = name
    return name


_PROP_FEATURES: dict[tuple[str, str], str] = {}


class EntityTable:
    """The entities of a game that sends only what changed (``delta`` in ``reset``): each observation's
    ``entities`` are merged into the last ones, its ``gone`` ids removed. Cleared at each reset."""

    def __init__(self) -> None:
        self.entities: dict[str, Entity] = {}
        self.features: dict[str, dict[str, float]] = {}
        self.schemas: dict[int, _Schema] = {}  # a compact game's entities by index (its "new" schemas)

    def clear(self) -> None:
        self.entities, self.features, self.schemas = {}, {}, {}


@dataclass
class _Schema:
    """One entity of a ``compact`` answer (its ``new`` schema): its feature id, kind, number of variables, whether it
    has a position, and (in the name order a JSON answer's ``props`` have: Godot's JSON writer sorts keys) each
    variable's place in the list, name and feature name."""

    eid: str
    kind: str
    count: int
    pos: bool
    props: list[tuple[int, str, str]]
    xy: tuple[str, str]
    player: bool


def _schema(raw: Any) -> tuple[int, _Schema]:
    idx, gid, kind, names, pos = raw
    eid = _feature_name(str(gid))
    names = [str(n) for n in names]
    props = [(k, names[k], f"{eid}_{_feature_name(names[k])}") for k in sorted(range(len(names)), key=names.__getitem__)]
    return int(idx), _Schema(eid, str(kind), len(names), bool(pos), props, (eid + "_x", eid + "_y"), eid == "player")


def _merge_compact(reply: dict[str, Any], table: EntityTable) -> None:
    """A ``compact`` answer merged into ``table``: its new schemas, its gone entities, then its changed ones (each its
    index, its values in its schema's order, then x and y if it has a position)."""
    schemas = table.schemas
    for raw in reply.get("new") or ():
        try:
            idx, sch = _schema(raw)
        except (TypeError, ValueError) as e:
            raise ProtocolError(f"a broken compact schema {raw!r}: {e}") from None
        schemas[idx] = sch
    for g in reply.get("gone") or ():
        sch = schemas.get(g)
        if sch is not None:
            table.entities.pop(sch.eid, None)
            table.features.pop(sch.eid, None)
    flat = reply.get("ent") or ()
    i, n = 0, len(flat)
    entities, features = table.entities, table.features
    try:
        while i < n:
            sch = schemas[flat[i]]
            k = sch.count
            values = flat[i + 1:i + 1 + k]  # (one cut short: values[j] below raises IndexError)
            i += 1 + k
            feats: dict[str, float] = {}  # in `_entity`'s order: the position's, then the variables'
            pos = None
            if sch.pos:
                pos = (float(flat[i]), float(flat[i + 1]))
                i += 2
                feats[sch.xy[0]], feats[sch.xy[1]] = pos
                if sch.player:
                    feats["x"], feats["y"] = pos
            props: dict[str, Any] = {}
            for j, name, f in sch.props:
                v = values[j]
                if v is None:
                    continue
                props[name] = v
                t = type(v)
                if t is float or t is int or t is bool:
                    feats[f] = float(v)
            entities[sch.eid] = Entity(sch.eid, sch.kind, pos, props)
            features[sch.eid] = feats
    except (KeyError, IndexError, TypeError, ValueError) as e:
        raise ProtocolError(f"a broken compact observation at item {i} of {n}: {e}") from None


def _entity(e: dict[str, Any]) -> tuple[str, Entity, dict[str, float]]:
    """One protocol entity: its id, `Entity` and features."""
    eid = _feature_name(str(e.get("id", "")))
    pos = e.get("pos")
    pos_t = (float(pos[0]), float(pos[1])) if type(pos) is list and len(pos) >= 2 else None
    props = e.get("props") or {}
    features: dict[str, float] = {}
    if pos_t is not None:
        features[eid + "_x"], features[eid + "_y"] = pos_t
        if eid == "player":
            features["x"], features["y"] = pos_t
    names = _PROP_FEATURES
    for k, v in props.items():
        t = type(v)
        if t is float or t is int or t is bool:
            f = names.get((eid, k))
            if f is None:
                f = names[(eid, k)] = f"{eid}_{_feature_name(k)}"
            features[f] = float(v)
    return eid, Entity(eid, str(e.get("kind", "")), pos_t, dict(props)), features


def observation_of(reply: dict[str, Any], capture: Any, table: EntityTable | None = None) -> Observation:
    """A protocol ``observation`` as playtester's `Observation` (features: each entity's position and number
    properties as ``ID_x``, ``ID_y``, ``ID_PROP``; ``x``/``y`` from an entity named ``player``). A ``delta``
    observation is merged into ``table`` (the entities it does not list are as they were)."""
    entities: dict[str, Entity] = {}
    features: dict[str, float] = {}
    if reply.get("compact"):
        if table is None:
            table = EntityTable()
        _merge_compact(reply, table)
        entities = dict(table.entities)
        for feats in table.features.values():
            features.update(feats)
    elif reply.get("delta") and table is not None:
        for gid in reply.get("gone") or ():
            eid = _feature_name(str(gid))
            table.entities.pop(eid, None)
            table.features.pop(eid, None)
        for e in reply.get("entities") or ():
            eid, ent, feats = _entity(e)
            table.entities[eid] = ent
            table.features[eid] = feats
        entities = dict(table.entities)
        for feats in table.features.values():
            features.update(feats)
    else:
        for e in reply.get("entities") or ():
            eid, ent, feats = _entity(e)
            entities[eid] = ent
            features.update(feats)
    get = reply.get
    evs = get("events")
    events = [GameEvent(str(ev.get("name", "")), dict(ev.get("data") or {}), int(ev.get("frame", 0)))
              for ev in evs] if evs else []
    logs = list(get("logs_parsed") or ())
    for r in get("logs") or ():  # records the game sends itself (an engine that can catch its errors)
        logs.append(LogRecord(str(r.get("logger", "game")), str(r.get("level", "ERROR")), str(r.get("message", "")),
                              str(r.get("file", "")), int(r.get("line", 0)), int(get("frame_no", 0))))
    frame = None
    f = get("frame")
    if f is not None and isinstance(f, dict) and f.get("format", "rgb8") == "rgb8":
        w, h = int(f["width"]), int(f["height"])
        data = f["data"] if isinstance(f["data"], bytes) else base64.b64decode(f["data"])  # Variant: raw bytes
        frame = np.frombuffer(data, dtype=np.uint8)[: w * h * 3].reshape(h, w, 3).copy()
        if isinstance(capture, tuple) and (w, h) != tuple(capture):
            frame = resize_nearest(frame, capture)
    return Observation(frame=frame, features=features, events=events, logs=logs, entities=entities,
                       done=bool(reply.get("done")), frame_no=int(reply.get("frame_no", 0)),
                       time_ms=int(reply.get("time_ms", 0)), info={"inputs_read": 1})


def _capture_arg(capture: Any) -> Any:
    if capture is None:
        return None
    if isinstance(capture, tuple):
        return [int(capture[0]), int(capture[1])]
    return "full"


class RemoteRunner:
    """One episode of a remote game, driven by the worker's command loop (`serve`)."""

    def __init__(self, conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, opts: EpisodeOptions,
                 launch: Launch, sets: list[tuple[str, ...]] | None) -> None:
        self.conn, self.spec, self.seed, self.space, self.capture = conn, spec, seed, space, opts.capture
        self.launch, self.sets = launch, sets
        self.game: RemoteGame | None = None
        self.done = False
        self.ended = False
        self.pending: tuple[InputFrame, int] = (InputFrame(), 1)
        self.batch: tuple[int, Any, int] | None = None  # a batch to play (`serve`'s "ahead"): action, plan, steps
        self.shared_mask: np.ndarray | None = None  # in a batch with a static mask: every step's mask (one object,
        #                                             pickled once per message to the worker; nobody writes masks)
        self.last: Observation | None = None
        self.unanswered = False  # the last step waited for got no answer (the game hung or died: `observed`)
        self.reward_total = 0.0
        self.table = EntityTable()  # the entities so far, for a game that sends only what changed
        self.step_timeout = spec.config.step_timeout_s * HANG_SHARE
        self.done_pred = None
        if spec.config.done_when:
            from playtester.expr import compile_expr

            self.done_pred = compile_expr(spec.config.done_when, "done_when")

    # ---- the episode protocol (drive.episode.serve)
    def over(self) -> bool:
        return self.done

    def final_observation(self) -> Observation:
        assert self.last is not None
        return Observation(frame=self.last.frame, features=dict(self.last.features), entities=self.last.entities,
                           done=True, frame_no=self.last.frame_no, time_ms=self.last.time_ms,
                           action_mask=self.last.action_mask, info={"inputs_read": 1})

    def perform(self, action: int) -> tuple[InputFrame, int | None]:
        return self.space.actions[action].inputs, None  # type: ignore[union-attr]

    def begin_step(self, inputs: InputFrame, frames: int, hold: int | None) -> None:
        self.pending = (inputs, frames)

    def end(self) -> None:
        self.ended = True

    def call(self, target: str, args: tuple[Any, ...]) -> tuple[Any, Any]:
        return False, f"{target}: a {self.launch.engine} game runs no playtester functions (no in-process hooks)"

    def snapshot(self) -> None:
        send(self.conn, wire.SnapshotTaken(None))  # no snapshots: the campaign returns by replaying traces

    # ---- running
    def inputs_of(self, inputs: InputFrame) -> dict[str, Any]:
        actions: list[str] = []
        if inputs.native is not None and self.sets is not None and 0 <= inputs.native < len(self.sets):
            actions = list(self.sets[inputs.native])
        return {"actions": actions, "keys": sorted(key_name(k) for k in inputs.keys)}

    def observe(self, reply: dict[str, Any]) -> Observation:
        if reply.get("type") == "error":
            raise ProtocolError(f"the game answered with an error: {reply.get('message')}")
        obs = observation_of(reply, self.capture, self.table)
        cfg = self.spec.config
        if cfg.reward_feature and self.last is not None:
            obs.reward = obs.features.get(cfg.reward_feature, 0.0) - self.last.features.get(cfg.reward_feature, 0.0)
        if self.space is not None:
            obs.action_mask = self.shared_mask if self.shared_mask is not None else \
                np.ones(len(self.space), dtype=np.int8)
        if obs.done:
            obs.info["done_reason"] = "the game said done"
        hit = [e.name for e in obs.events if e.name in cfg.done_events]
        if hit and not obs.done:
            obs.done, obs.info["done_reason"] = True, f"event {hit[0]}"
        if self.done_pred is not None and not obs.done and self.done_pred(obs.features):
            obs.done, obs.info["done_reason"] = True, f"done_when {cfg.done_when}"
        self.done = obs.done
        return obs

    def ended_by(self, exit: GameExit) -> Observation:
        """The final observation of an episode whose game died, hung or broke the protocol."""
        last = self.last
        self.done = True
        return Observation(frame=last.frame if last else None, features=dict(last.features) if last else {},
                           entities=last.entities if last else {}, done=True,
                           frame_no=last.frame_no if last else 0, time_ms=last.time_ms if last else 0,
                           action_mask=last.action_mask if last else None, info={"exit": exit})

    def lost_step(self, seq: int, frames: int) -> Observation:
        """A step of a joined batch (docs/protocol.md, "Joined answers") that the game played to its end (its sync
        line was read) but whose answer went down with the game, which died or hung before it sent the batch's one
        message: the step's frames are counted and its error lines are its own, but what the game looked like is
        not known, so its features, entities and mask are the observation's before it (``info["answer_lost"]``)."""
        assert self.game is not None and self.game.stderr is not None
        last = self.last
        frame_no = (last.frame_no if last else 0) + frames
        fps = float((self.game.hello.capabilities if self.game.hello else {}).get("fps") or 60.0)
        logs = distinct_records(self.game.stderr.take_upto(seq), frame_no)
        return Observation(frame=last.frame if last else None, features=dict(last.features) if last else {},
                           entities=dict(last.entities) if last else {}, logs=logs, frame_no=frame_no,
                           time_ms=int(round(frame_no * 1000.0 / fps)),
                           action_mask=last.action_mask if last else None,
                           info={"inputs_read": 1, "answer_lost": True})

    def died(self, why: str) -> GameExit:
        assert self.game is not None and self.game.stderr is not None
        status = self.game.exit_status(2.0)
        self.game.stderr.join(1.0)
        tail = self.game.stderr.text()
        logs = self.game.stderr.peek()  # (kept: `lost_step` takes those of steps played to their end)
        if status is None:
            self.game.kill()
            return GameExit("worker", message=f"the {self.launch.engine} game's connection broke ({why}) while its "
                            "process still ran; it was killed", traceback=tail)
        if status < 0:
            sig = -status
            name = signal_name(sig)
            exit = GameExit("signal", signal=sig, message=f"the {self.launch.engine} game process died of signal "
                            f"{name}", traceback=tail)
        elif load_failure(tail) is not None:  # never a plain quit: the project (or a scene it changed to) failed
            exit = GameExit("exception", exc_type="ProjectLoadError", code=status,
                            message=f"the {self.launch.engine} game could not load part of its project and quit "
                            f"(exit code {status}): {load_failure(tail)}", traceback=tail)
        elif status == 0:
            exit = GameExit("exit", code=0, message=f"the {self.launch.engine} game quit", traceback=tail)
        else:
            exit = GameExit("exit", code=status, message=f"the {self.launch.engine} game process exited with code "
                            f"{status}", traceback=tail)
        if logs and exit.is_failure:
            exit.message += f" (last error: {logs[-1].message} at {logs[-1].file}:{logs[-1].line})"
        return exit

    def refused(self, exit: GameExit | None) -> bool:
        """A game that quit before its first step (whatever its exit code: a signal is a crash), or could not load
        its project then: not a pass and not the game's bug, but a project playtester cannot run as it is (exit
        code 2 with the engine's own lines). Sent as the spec's error; True when it was."""
        if exit is None or not (exit.exc_type == "ProjectLoadError" or exit.kind == "exit"):
            return False
        tail = exit.traceback or ""
        why = self.version_refusal(tail.splitlines())
        if why is None:
            errors = load_failures(tail)[:4] or [ln.strip() for ln in tail.splitlines()
                                                 if _ERROR.match(ln.strip()) and not _NOISE.search(ln)][-4:]
            why = (f"the {self.launch.engine} project did not get to its first step: {exit.message}"
                   + ("; its error lines:\n  " + "\n  ".join(errors) if errors else
                      " before its first step, printing no error (a game that quits by itself at start-up cannot "
                      f"be played: what makes it quit is in {self.startup_code})")
                   + self.load_hint(errors))
        send(self.conn, wire.SpecError(why))
        return True

    startup_code = "its start-up code"  # where a game that quits at start-up decides to (an engine's runner says)

    def load_hint(self, errors: list[str]) -> str:
        """What to do about the project's load errors ``errors`` (the engine's lines); an engine's `RemoteRunner`
        says (`GodotRunner`: files named that are not in the project, a script that did not parse)."""
        return ""

    def version_refusal(self, lines: list[str]) -> str | None:
        """Why the engine that runs the game is too old for the project, read from its lines ``lines`` (a method
        that engine lacks), or None. An engine's `RemoteRunner` says (`GodotRunner`)."""
        return None

    def start_refusal(self) -> str | None:
        """Why the project cannot be played, from what a fresh game printed before its hello (its start-up: a
        script that does not parse, an autoload or scene that did not load: the engine prints it and goes on), or
        None. Lines that name ``user://`` (a save file not made yet) are not the project's."""
        game = self.game
        if game is None or not game.fresh or game.stderr is None or game.hello is None \
                or not game.hello.capabilities.get("stderr_sync"):
            return None
        game.stderr.wait_hello(2.0)
        why = self.version_refusal(game.stderr.before)
        if why is not None:
            return why
        errors = [ln for ln in load_failures("\n".join(game.stderr.before)) if "user://" not in ln]
        if not errors:
            return None
        return (f"the {self.launch.engine} project could not load part of itself at start-up (the engine went on "
                "without it, so every step would test a broken game); its error lines:\n  " + "\n  ".join(errors[:4])
                + self.load_hint(errors))

    def hang(self, what: str, timeout: float | None = None) -> GameExit:
        assert self.game is not None
        timeout = self.step_timeout if timeout is None else timeout
        crashed = _CRASHED.search(self.game.stderr.text(10**6))  # the whole tail kept: the backtrace follows it
        if crashed:  # it crashed, and its crash handler was still at the backtrace (slow on a busy machine)
            self.game.kill()
            self.game.stderr.join(1.0)
            sig = int(crashed.group(1))
            name = signal_name(sig)
            return GameExit("signal", signal=sig, message=f"the {self.launch.engine} game crashed with signal {name} "
                            f"(its crash handler was still writing the backtrace after {timeout:g}s; its "
                            "process group was killed)", traceback=self.game.stderr.text())
        self.game.kill()
        self.game.stderr.join(1.0)
        return GameExit("hang", message=f"the {self.launch.engine} game answered no {what} within "
                        f"{timeout:g}s of wall-clock time; its process group was killed",
                        traceback=self.game.stderr.text())

    def exchange(self, msg: dict[str, Any], what: str, timeout: float | None = None) -> Observation:
        assert self.game is not None
        game = self.game
        wait = self.step_timeout if timeout is None else timeout
        return self.observed(lambda: game.request(msg, wait), what, wait)

    def observed(self, reply_of: Callable[[], dict[str, Any]], what: str,
                 timeout: float | None = None) -> Observation:
        """The observation of the reply ``reply_of()`` waits for; a hang, a dead game or a broken protocol (the game
        is killed) is the episode's final observation."""
        assert self.game is not None
        self.unanswered = True  # (a hang or a death: the answer never came)
        try:
            reply = reply_of()
        except GameTimeout:
            return self.ended_by(self.hang(what, timeout))
        except GameGone as e:
            return self.ended_by(self.died(str(e)))
        except ProtocolError as e:
            self.unanswered = False
            self.game.kill()
            return self.ended_by(GameExit("worker", message=f"the {self.launch.engine} game broke the protocol: {e}",
                                          traceback=self.game.stderr.text()))
        self.unanswered = False
        try:
            return self.observe(reply)
        except ProtocolError as e:
            self.game.kill()
            return self.ended_by(GameExit("worker", message=str(e), traceback=self.game.stderr.text()))

    def run(self) -> None:
        start = self.spec.config.start_timeout_s * HANG_SHARE
        self.game = RemoteGame(self.launch.command, self.launch.engine, self.launch.cwd, self.launch.env, start,
                               self.launch.port_arg, autostart=False, display=self.launch.display,
                               keeper=self.launch.keeper)
        try:
            self.game.start()
        except GameTimeout:
            tail = self.game.stderr.text() if self.game.stderr else ""
            send(self.conn, wire.Final(self.ended_by(GameExit("hang", message=f"the {self.launch.engine} game did not "
                                                               f"connect and say hello within {start:g}s; its process "
                                                               "group was killed", traceback=tail))))
            return
        except GameGone as e:  # it died on the way up: a crash at start, or a project that cannot load
            exit = self.died(str(e))
            if self.refused(exit):
                return
            send(self.conn, wire.Final(self.ended_by(exit)))
            return
        except ProtocolError as e:  # not a game we can drive (wrong protocol, not startable): the spec's fault
            tail = self.game.stderr.text(20) if self.game.stderr else ""
            send(self.conn, wire.SpecError(f"the {self.launch.engine} game did not start: {e}" +
                                           (f"; its stderr ends with:\n{tail}" if tail else "")))
            return
        try:
            why = self.start_refusal()
            if why is not None:
                self.game.kill()
                send(self.conn, wire.SpecError(why))
                return
            reset = {"type": "reset", "seed": int(self.seed), "args": self.spec.config.game_args,
                     "capture": _capture_arg(self.capture)}
            encoding = choose_encoding(self.game.hello, self.capture is not None)
            if encoding != "json":
                reset["encoding"] = encoding
            if self.game.hello.capabilities.get("delta") and os.environ.get("PLAYTESTER_REMOTE_DELTA", "1") != "0":
                reset["delta"] = True
                if self.game.hello.capabilities.get("compact") and \
                        os.environ.get("PLAYTESTER_REMOTE_COMPACT", "1") != "0":
                    reset["compact"] = True
            # the reset plays the episode's first frame: it may take what start-up may (start_timeout_s), not one
            # step's time (a first frame that compiles shaders or bakes a ProceduralSky's radiance on software GL)
            obs = self.exchange(reset, "reset", start)
            if obs.done and self.refused(obs.info.get("exit")):
                return
            self.send(obs)
            while not self.ended:
                serve(self)
                if self.ended:
                    return
                if self.batch is not None:
                    self.play_batch()
                    continue
                inputs, frames = self.pending
                obs = self.exchange({"type": "step", "inputs": self.inputs_of(inputs), "frames": frames,
                                     "capture": _capture_arg(self.capture)}, "step")
                self.send(obs)
        except ProjectRefused as e:  # (the engine is too old for the project: `version_refusal`)
            self.game.kill()
            send(self.conn, wire.SpecError(str(e)))
        finally:
            self.game.close()
            if self.launch.cleanup is not None:
                self.launch.cleanup()

    # ---- acting ahead: a batch played here (`Worker.act_ahead_async` on a remote game)
    def static_mask(self) -> np.ndarray | None:
        """The action mask every step has, when neither the mask nor an action's inputs depend on the game's
        state (the next steps' inputs are then known before the last answer is in), else None. Here: every
        step's mask is all ones and an action is its fixed inputs."""
        return None if self.space is None else np.ones(len(self.space), dtype=np.int8)

    def step_request(self, inputs: InputFrame, frames: int) -> dict[str, Any]:
        return {"type": "step", "inputs": self.inputs_of(inputs), "frames": frames,
                "capture": _capture_arg(self.capture)}

    def collect(self, seq: int) -> Observation:
        """The observation of step request ``seq`` (`exchange`'s second half: a hang, crash or broken protocol is
        the episode's final observation)."""
        assert self.game is not None
        game = self.game
        return self.observed(lambda: game.answer(seq, self.step_timeout), "step")

    def drain(self) -> None:
        """Read and drop the answers to the steps still in flight (played past the batch's end: the episode is
        over), so that the game's connection and stderr are clean for the next episode; a game that does not
        answer them is killed (and replaced at the next episode)."""
        assert self.game is not None
        while self.game.in_flight and not self.game.broken:
            try:
                self.game.answer(self.game._sent[0], self.step_timeout)
            except (GameTimeout, GameGone, ProtocolError):
                self.game.kill()

    def parent_says(self) -> str | None:
        """The parent's ``stop`` or ``end`` of the batch, if it came (read without waiting)."""
        try:
            if not self.conn.poll(0):
                return None
            msg = recv(self.conn)
        except (EOFError, OSError):
            return "end"
        return "stop" if isinstance(msg, wire.Stop) else "end"

    def play_batch(self) -> None:
        """Play the batch `serve` set up (its first step's inputs in ``pending``): each later action is chosen here
        by the plan on the step before's action mask, and every step is answered to the parent on its own,
        a `messages.BatchStep` (``more``: another step of the batch follows), as soon as it is in (the steps whose
        answers are in together go in one `messages.Batch`; the step that ends it with a crash, hang or broken
        answer as `messages.Final` with its action). The next step goes to the game before
        this one is handed on, so the game plays while the parent looks.
        With a mask and inputs that depend on nothing (`static_mask`) and a game that offers ``pipeline``, up to
        ``PIPELINE`` steps are in flight at the game, so it never waits for us, ``GROUP`` per request with
        ``batch_each`` (each still answered on its own, with its own sync line: its error lines are its own; with
        ``batch_joined`` the group's answers come in one message after its last step, and a crash or hang inside it
        keeps the steps played before it with the last observation, marked ``answer_lost``: `lost_step`); when
        none of them is answered yet, this process sleeps about ``NAP_STEPS`` steps' time before it looks, so that
        answers are read and handed on several at a time (one wake-up of each process for several steps: about a
        third less CPU a step). The batch ends after its steps, at a ``done`` or final observation, when the plan
        raises `NoValidActionError`, or when the parent says ``stop`` (the steps in flight are still answered) or
        ``end``. A hang, crash or broken answer is the step it happens in (the steps before it are handed on
        first)."""
        from playtester.errors import NoValidActionError

        assert self.game is not None and self.batch is not None
        action, plan, left = self.batch
        self.batch = None
        inputs, frames = self.pending
        static = self.static_mask()
        caps = self.game.hello.capabilities if self.game.hello else {}
        self.shared_mask = static
        depth = PIPELINE if static is not None and caps.get("pipeline") and caps.get("stderr_sync") else 1
        group = GROUP if depth > 1 and caps.get("batch_each") and self.capture is None else 1
        flight: deque[tuple[int, int | None]] = deque()  # (action, seq) of the steps sent, in order
        out: list[wire.BatchStep] = []  # answered steps not sent to the parent yet
        nap = group > 1 and os.environ.get("PLAYTESTER_REMOTE_NAP", "1") != "0"
        t0, answered = time.perf_counter(), 0
        stopped: str | None = None

        def submit(a: int, inputs: InputFrame) -> bool:
            try:
                flight.append((a, self.game.submit(self.step_request(inputs, frames))))  # type: ignore[union-attr]
            except GameGone:
                flight.append((a, None))  # the game is gone: that is this step's end
                return False
            return True

        def submit_group(chosen: list[tuple[int, InputFrame]]) -> bool:
            try:
                seqs = self.game.submit_steps([self.step_request(i, frames) for _, i in chosen])  # type: ignore[union-attr]
            except GameGone:
                flight.append((chosen[0][0], None))  # the game is gone: that is this step's end
                return False
            flight.extend((a, q) for (a, _), q in zip(chosen, seqs, strict=True))
            return True

        def next_action(mask: Any) -> int | None:
            try:
                return int(plan.choose(mask))
            except NoValidActionError:
                return None  # the caller's agent says so at its next act

        submit(action, inputs)
        left -= 1
        while flight:
            if static is not None:  # the inputs do not depend on the answers: keep the game busy
                while left > 0 and stopped is None and len(flight) + min(group, left) <= depth:
                    chosen: list[tuple[int, InputFrame]] = []
                    while len(chosen) < min(group, left):
                        a = next_action(static)
                        if a is None:
                            left = 0
                            break
                        inputs, hold = self.perform(a)
                        self.begin_step(inputs, frames, hold)
                        chosen.append((a, inputs))
                    left = max(0, left - len(chosen))
                    if chosen and not submit_group(chosen):
                        left = 0
            if nap and len(flight) > NAP_STEPS and answered and not self.game.answer_ready():
                # none is in yet: let the game play a few more before we look (at its pace so far), so that they
                # are read, handed on and woken for together, not one wake-up of each process per step
                time.sleep(min(NAP_MAX, NAP_STEPS * (time.perf_counter() - t0) / answered))
            a, seq = flight.popleft()
            if seq is None:  # the game was gone before the request went: its death is this step's
                obs = self.ended_by(self.died("the connection closed"))
            else:
                obs = self.collect(seq)
            if obs.exit is not None and self.unanswered and seq is not None:
                # a joined batch: the steps whose sync lines came were played to their end, and their answers went
                # down with the game (`lost_step`); the crash or hang is the first step after them
                synced = self.game.stderr.synced if self.game.stderr is not None else -1
                lost = 0
                while seq <= synced and flight and flight[0][1] is not None:
                    self.last = self.lost_step(seq, frames)
                    out.append(wire.BatchStep(self.last, a, True))
                    a, seq = flight.popleft()
                    lost += 1
                if lost:
                    obs = self.ended_by(obs.exit)
            if obs.exit is not None:  # a crash, hang or broken protocol: this step's (its action with it); the batch ends
                self.shared_mask = None
                if out:
                    send(self.conn, wire.Batch(tuple(out)))
                send(self.conn, wire.Final(obs, a))
                self.ended = True
                return
            self.last = obs
            answered += 1
            if obs.done:
                self.drain()
                left = 0
                flight.clear()
            elif static is None and left > 0 and stopped is None:  # choose on this step's mask
                nxt = next_action(obs.action_mask)
                if nxt is None:
                    left = 0
                else:
                    inputs, hold = self.perform(nxt)
                    self.begin_step(inputs, frames, hold)
                    left -= 1
                    submit(nxt, inputs)
            # the batch's last step takes the plan back as it stands after its draws here (`Worker.plan_after`)
            out.append(wire.BatchStep(obs, a, True) if flight else wire.BatchStep(obs, a, False, None, plan))
            # the steps whose answers are in already go to the parent together: one message, one wake-up
            if not flight or len(out) >= BUNDLE or not self.game.answer_ready():
                send(self.conn, wire.Batch(tuple(out)))
                out = []
                if stopped is None and flight:
                    stopped = self.parent_says()
        self.shared_mask = None
        if stopped == "end":
            self.end()

    def send(self, obs: Observation) -> None:
        if obs.exit is not None:
            send(self.conn, wire.Final(obs))
            self.ended = True
            return
        self.last = obs
        send(self.conn, wire.Answer(obs))  # one write: a frame makes it a header and a body otherwise


def run_remote(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, opts: EpisodeOptions,
               launch: Callable[[], Launch], sets: list[tuple[str, ...]] | None,
               runner: type[RemoteRunner] | None = None) -> None:
    """Body of an episode process for a remote game; ``launch`` prepares how to start it (raises
    `GameSpecError` when it cannot be run here: reported as a spec error); ``runner`` is the engine's
    `RemoteRunner` subclass, if it has one."""
    from playtester.errors import GameSpecError

    send(conn, wire.Hello(os.getpid(), ahead=True))  # it plays a batch itself (`RemoteRunner.play_batch`)
    try:
        try:
            how = launch()
        except GameSpecError as e:
            send(conn, wire.SpecError(str(e)))
            return
        (runner or RemoteRunner)(conn, spec, seed, space, opts, how, sets).run()
    except BaseException as e:  # noqa: BLE001 - playtester's own failure here is a finding of kind worker
        from playtester.drive.lifetime import exit_of_exception

        exit = exit_of_exception(e, None)
        exit.kind = "worker"
        try:
            send(conn, wire.Final(Observation(frame=None, done=True, info={"exit": exit})))
        except OSError:
            pass
    finally:
        os._exit(0)


# ------------------------------------------------------------------------- the generic remote: backend
def remote_command(spec: GameSpec) -> list[str]:
    """``remote:COMMAND``'s command line (``python`` is this interpreter)."""
    argv = shlex.split(spec.target)
    if argv and argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return argv


def keeper_folder(opts: EpisodeOptions) -> str | None:
    """Where the keeper of this worker's game lives (the worker's folder), or None: a fresh game process for
    every episode (no worker folder, or ``PLAYTESTER_REMOTE_FRESH=1``)."""
    if os.environ.get("PLAYTESTER_REMOTE_FRESH") == "1" or not opts.hang_dump:
        return None
    return os.path.dirname(opts.hang_dump)


def _remote_launch(spec: GameSpec, opts: EpisodeOptions) -> Launch:
    return Launch(remote_command(spec), "remote", spec.root, keeper=keeper_folder(opts))


def remote_declared(spec: GameSpec) -> tuple[int, list[str]]:
    """A ``remote:`` game's declared actions: its hello's, read from a short start of the game."""
    from playtester.errors import GameSpecError

    try:
        game = RemoteGame(remote_command(spec), "remote", spec.root, start_timeout=spec.config.start_timeout_s)
    except (GameGone, GameTimeout, ProtocolError) as e:
        raise GameSpecError(f"{spec.text}: the game did not start and say hello: {e}") from None
    try:
        labels = action_labels(action_sets(game.hello.actions))
    finally:
        game.close()
    return len(labels), labels


def _remote_sets(spec: GameSpec, space: SpaceLike | None) -> list[tuple[str, ...]]:
    names = [getattr(a, "name", "") for a in space.actions] if space is not None else []
    return [tuple(n.split("+")) if n != "none" else () for n in names]


def run_remote_episode(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, opts: EpisodeOptions) -> None:
    """Body of an episode process for ``remote:COMMAND`` (the actions are the space's names: ``a+b``)."""
    run_remote(conn, spec, seed, space, opts, lambda: _remote_launch(spec, opts), _remote_sets(spec, space))
