"""The episode process's command loop, shared by every backend.

Between two steps an episode process waits for the parent's next command (`serve`): ``end`` (stop: the
backend flushes what it measured), ``call`` (run a playtester function in the live game, answered with
``reply``), ``snapshot`` (park a copy of the episode), or a step: ``step`` (raw inputs) or ``act`` (an
action of the space, which the backend performs into inputs). Once the episode is over every step is
answered with its final observation. What a backend supplies is an `Episode`.
"""

from __future__ import annotations

import os
import struct
from multiprocessing.reduction import ForkingPickler
from typing import Any, Protocol

from playtester.drive.inputs import InputFrame
from playtester.drive.observation import Observation


class Episode(Protocol):
    """One live episode, as the command loop drives it."""

    conn: Any
    capture: Any

    def over(self) -> bool:
        """The episode has ended (every further step gets `final_observation`)."""
        ...

    def final_observation(self) -> Observation: ...

    def perform(self, action: int) -> tuple[InputFrame, int | None]:
        """The inputs of action ``action`` of the space, and for how many frames they are held (None: all)."""
        ...

    def begin_step(self, inputs: InputFrame, frames: int, hold: int | None) -> None:
        """Set up the step the parent asked for; the backend plays it after `serve` returns."""
        ...

    def end(self) -> None:
        """The parent ends the episode: send what is still to send, then end the process."""
        ...

    def call(self, target: str, args: tuple[Any, ...]) -> tuple[Any, Any]:
        """Run ``target`` in the live game: ``(ok, value)``."""
        ...

    def snapshot(self) -> None:
        """Park a copy of the episode and answer ``("snapshot", id or None)``."""
        ...


def send(conn: Any, message: Any) -> None:
    """``conn.send(message)`` in one write.

    multiprocessing writes a message over 16 KiB (an observation with a frame) as a header, then a body: the
    parent, woken by the header, sleeps again until the body comes, two more context switches per step.
    The bytes on the wire are the same, so the parent reads it with ``conn.recv()`` as before."""
    body = ForkingPickler.dumps(message)
    if len(body) > 0x7FFFFFFF:
        conn.send_bytes(body)
        return
    data = memoryview(struct.pack("!i", len(body)) + bytes(body))
    fd = conn.fileno()
    while data:
        data = data[os.write(fd, data):]


def serve(ep: Episode) -> None:
    """Answer the parent's commands until it asks for a step, and set that step up (`Episode.begin_step`).
    A parent that is gone ends the episode (nobody would read what it does)."""
    while True:
        try:
            msg = ep.conn.recv()
        except (EOFError, OSError):
            ep.end()
            return
        op = msg[0]
        if op == "end":
            ep.end()
            return
        if op == "call":  # run a playtester function in the live game (analysis, hooks)
            send(ep.conn, ("reply", ep.call(msg[1], msg[2])))
            continue
        if op == "snapshot":
            ep.snapshot()
            continue
        if ep.over():  # the episode is over: answer with the same final state
            send(ep.conn, ("obs", ep.final_observation()))
            continue
        if op == "step":
            _, inputs, frames, hold, ep.capture = msg
        elif op == "act":
            _, index, frames, ep.capture = msg
            inputs, hold = ep.perform(index)
        else:
            raise RuntimeError(f"unknown command {op!r}")
        ep.begin_step(inputs, max(1, int(frames)), hold)
        return
