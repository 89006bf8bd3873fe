"""The episode process's command loop, shared by every backend.

Between two steps an episode process waits for the parent's next command (`serve`): ``end`` (stop: the
backend flushes what it measured), ``call`` (run a playtester function in the live game, answered with
``reply``), ``snapshot`` (park a copy of the episode), or a step: ``step`` (raw inputs) or ``act`` (an
action of the space, which the backend performs into inputs), or ``ahead`` (a batch the episode plays itself,
choosing each later step's action with the parent's plan: `answer_step`). Once the episode is over every step
is answered with its final observation. What a backend supplies is an `Episode`.
"""

from __future__ import annotations

import os
import pickle
import struct
from collections.abc import Callable, Sequence
from multiprocessing.reduction import ForkingPickler
from typing import Any, Protocol

from playtester.drive import messages as wire
from playtester.drive.inputs import InputFrame
from playtester.drive.observation import Observation
from playtester.drive.wait import CommandWait


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
        """Park a copy of the episode and answer `messages.SnapshotTaken` (its id, or None)."""
        ...


def dumps(message: Any) -> bytes:
    """``message`` pickled as multiprocessing would, but by the C pickler alone.

    multiprocessing's ``ForkingPickler`` looks every object up in a Python-level dispatch table (for sockets
    and connections, which no message here carries): that doubled the cost of pickling an observation with
    entities. The stream is the same standard pickle either way, read by ``Connection.recv``; anything the
    plain pickler refuses still goes through ``ForkingPickler``."""
    try:
        return pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return bytes(ForkingPickler.dumps(message))


def send(conn: Any, message: wire.Message) -> None:
    """``conn.send(encode(message))`` in one write (`playtester.drive.messages`).

    multiprocessing writes a message over 16 KiB (an observation with a frame) as a header, then a body: the
    reader, woken by the header, sleeps again until the body comes, two more context switches per step.
    Here the header and body go in one ``writev``; the bytes on the wire are the same, so the other side
    reads them with ``conn.recv()`` (and `recv` decodes them)."""
    body = dumps(wire.encode(message))
    if len(body) > 0x7FFFFFFF:
        conn.send_bytes(body)
        return
    fd = conn.fileno()
    header = struct.pack("!i", len(body))
    sent = os.writev(fd, (header, body))
    if sent < len(body) + 4:  # a full socket buffer: write the rest as it drains
        data = memoryview(header + body)[sent:]
        while data:
            data = data[os.write(fd, data):]


def send_many(conn: Any, messages: Sequence[wire.Message]) -> None:
    """Several messages in one ``writev``, each framed as `send` frames it (the reader sees them one by one)."""
    parts: list[bytes] = []
    for message in messages:
        body = dumps(wire.encode(message))
        parts += (struct.pack("!i", len(body)), body)
    fd = conn.fileno()
    data = b"".join(parts)
    view = memoryview(data)[os.write(fd, data):]
    while view:  # a full socket buffer: write the rest as it drains
        view = view[os.write(fd, view):]


_WAITS: dict[int, CommandWait] = {}  # connection fd -> its wait (one per episode process)
_STASHED: dict[int, Any] = {}  # connection fd -> a command read during a batch that was not its stop (for `serve`)
PLAYS_ENV = "PLAYTESTER_EPISODE_PLAYS"  # "0": in-process episodes do not offer to play batches (A/B benches)


def recv(conn: Any) -> wire.Message:
    """The next message on ``conn``, decoded (`messages.decode`: a `MessageError` for one this side cannot read)."""
    return wire.decode(conn.recv())


def hello(pid: int) -> wire.Hello:
    """The hello of an in-process episode (pygame's): its pid, and that it plays batches itself (``ahead``: the
    worker then sends the plan with a batch's first action, `answer_step`), unless ``$PLAYTESTER_EPISODE_PLAYS``
    is 0."""
    return wire.Hello(pid, ahead=os.environ.get(PLAYS_ENV, "1") != "0")


def answer_step(ep: Any, obs: Observation) -> bool:
    """Hand the step just played to the parent; True when the episode's batch goes on (its next step set up
    here, with `Episode.begin_step`), False when the episode waits for the parent's next command (`serve`).

    Outside a batch the answer is `messages.Answer`. In a batch (``ahead``: ``ep.batch`` = (this step's action,
    the plan, steps left counting this one), ``ep.batch_frames``) the next action is chosen here, by the plan on
    this step's mask, and goes with the answer: a `messages.Batch` of one `BatchStep` (more, next), so the parent
    knows which action a step that crashes or hangs the game was playing (this process dies with the game, so
    nothing is held back: every step is answered as it ends); such a step's observation goes pickled on its own
    (bytes), so a worker with nothing to read in it relays it as it is (`Worker.pass_through`). The batch's last
    step is answered with ``more`` False and the plan as it stands after its draws here (whoever goes on with it, a Ray actor's next
    call, draws what comes next). The batch ends after ``n`` steps, at a ``done`` observation, when the plan raises
    `NoValidActionError`, or when the parent asked to stop (``stop``, read here between two steps without waiting;
    another command read instead is kept for `serve`; the parent gone ends the episode)."""
    batch = getattr(ep, "batch", None)
    if batch is None:
        send(ep.conn, wire.Answer(obs))
        return False
    action, plan, left = batch
    left -= 1
    nxt = None
    if left > 0 and not obs.done and not _stop_asked(ep):
        from playtester.errors import NoValidActionError

        try:
            nxt = int(plan.choose(obs.action_mask))
        except NoValidActionError:
            nxt = None  # the caller's agent says so at its next act
    if nxt is None:  # the plan goes back with the last step: where it stands now (`Worker.plan_after`)
        ep.batch = None
        send(ep.conn, wire.Batch((wire.BatchStep(obs, action, False, None, plan),)))
        return False
    # pickled apart: a relay need not unpickle it
    send(ep.conn, wire.Batch((wire.BatchStep(dumps(obs), action, True, nxt),)))
    ep.batch = (nxt, plan, left)
    inputs, hold = ep.perform(nxt)
    ep.begin_step(inputs, ep.batch_frames, hold)
    return True


def _stop_asked(ep: Any) -> bool:
    """Whether the parent wrote while the batch played (a ``stop``, or another command kept for `serve`)."""
    if not _command_wait(ep.conn).poller.poll(0):  # (the poll object `serve` waits with)
        return False
    fd = ep.conn.fileno()
    try:
        msg = recv(ep.conn)
    except (EOFError, OSError):
        ep.end()  # the parent is gone: nobody would read what the episode does
        return True
    if not isinstance(msg, wire.Stop):
        _STASHED[fd] = msg
    return True


def _command_wait(conn: Any) -> CommandWait:
    fd = conn.fileno()
    w = _WAITS.get(fd)
    if w is None:
        w = _WAITS[fd] = CommandWait(fd)
    return w


def serve(ep: Episode) -> None:
    """Answer the parent's commands until it asks for a step, and set that step up (`Episode.begin_step`).
    A parent that is gone ends the episode (nobody would read what it does)."""
    wait = _command_wait(ep.conn)
    while True:
        msg = _STASHED.pop(ep.conn.fileno(), None)
        try:
            if msg is None:
                wait.wait()
                msg = recv(ep.conn)
        except (EOFError, OSError):
            ep.end()
            return
        cls = type(msg)
        if cls is wire.End:
            ep.end()
            return
        if cls is wire.Call:  # run a playtester function in the live game (analysis, hooks)
            ok, value = ep.call(msg.target, msg.args)
            send(ep.conn, wire.Reply(ok, value))
            continue
        if cls is wire.TakeSnapshot:
            ep.snapshot()
            continue
        if cls is wire.Stop:  # the stop of a batch the episode had ended already (remote games: `Worker._settle`)
            continue
        if ep.over():  # the episode is over: answer with the same final state
            send(ep.conn, wire.Answer(ep.final_observation()))
            continue
        if cls is wire.Step:
            inputs, frames, hold, ep.capture = msg.inputs, msg.frames, msg.hold, msg.capture  # type: ignore[attr-defined]
        elif cls is wire.Act:
            frames, ep.capture = msg.frames, msg.capture  # type: ignore[attr-defined]
            inputs, hold = ep.perform(msg.action)  # type: ignore[attr-defined]
        elif cls is wire.Ahead:
            frames = msg.frames  # a batch the episode plays itself (an episode whose hello said so: `answer_step`)
            ep.capture = msg.capture
            inputs, hold = ep.perform(msg.action)
            ep.batch = (msg.action, msg.plan, msg.n)  # type: ignore[attr-defined]
            ep.batch_frames = max(1, int(frames))  # type: ignore[attr-defined]
        else:
            raise wire.MessageError(f"the episode process got {msg.kind!r} (version {msg.version}), which is no "
                                 "command to an episode")
        ep.begin_step(inputs, max(1, int(frames)), hold)
        return


def seed_python(seed: int, entropy: bool = True) -> None:
    """Python-level randomness of an episode process from the episode's seed, for every in-process runner:
    ``random``, numpy's global generator and, with ``entropy`` (`GameConfig.seeded_entropy`), OS entropy
    (`seed_entropy`). A game or environment that draws from them without seeding them itself plays the same
    for the same seed."""
    import random

    import numpy as np

    random.seed(seed)
    np.random.seed(seed % (2**32))
    if entropy:
        seed_entropy(seed)


def seed_entropy(seed: int) -> None:
    """OS entropy drawn from the episode's seed: ``os.urandom`` and what reads it (``secrets``, ``random.SystemRandom``,
    ``uuid.uuid4``) give the same bytes for the same seed (``random.Random()`` without a seed reads the OS in C: not
    covered). A game that seeds itself from ``secrets`` (zombie-escape's ad-hoc runs) otherwise plays differently
    each time, and no trace of it replays. This episode process only (a fresh fork of the host each episode)."""
    import random

    stream = random.Random(f"playtester-entropy-{seed}")

    def urandom(n: int) -> bytes:
        if n < 0:
            raise ValueError("negative argument not allowed")
        return stream.getrandbits(8 * n).to_bytes(n, "little") if n else b""

    os.urandom = urandom
    random._urandom = urandom  # type: ignore[attr-defined]  (SystemRandom and secrets read it from there)


def run_runner(conn: Any, memory_limit_mb: int | None, make: Callable[[], Any],
               close: Callable[[Any], None] | None = None) -> None:
    """The body of an episode process whose game is one runner object (gym's `GymRunner`, ViZDoom's
    `DoomRunner`): say hello, ``make()`` the runner and ``run()`` it; a failure of the game or engine is
    the episode's final observation (a finding), ``close(runner)`` ends what the runner started, and the
    process exits without running the parent's atexit handlers."""
    send(conn, wire.Hello(os.getpid()))
    runner = None
    try:
        runner = make()
        runner.run()
    except BaseException as e:  # noqa: BLE001 - a failure of the game is a finding
        from playtester.drive.lifetime import exit_of_exception

        exit = exit_of_exception(e, memory_limit_mb)
        send(conn, wire.Final(Observation(frame=None, done=True, info={"exit": exit})))
    finally:
        try:
            if runner is not None and close is not None:
                close(runner)
        finally:
            os._exit(0)


def wait_counts(rt: Any) -> tuple[int, int]:
    """(found while polling, found after sleeping) over this episode process's waits for a command (called in
    the game with `Worker.call`, by tests and benches)."""
    return sum(w.spun for w in _WAITS.values()), sum(w.slept for w in _WAITS.values())
