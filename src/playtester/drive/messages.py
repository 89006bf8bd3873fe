"""Every message between the parent (a `Worker`), its worker host and the episode process, as frozen, versioned
dataclasses, with one `encode` / `decode` pair.

On the wire a message is the tuple ``(kind, version, *fields)`` (fields in the dataclass's order), sent as the
connection sends everything (a standard pickle over our own socketpair: `playtester.drive.episode.send`); no code
reads a message by position but `decode`, and a message whose kind or version this side does not know is refused
with a `MessageError` that names both. The kind comes first, so a reader that only asks "is it a stop?" (a batch
polling its parent) need not decode the rest.

Directions (docs/architecture.md, "Messages"):

* parent -> host: `StartEpisode`, `Resume`, `Quit`; host -> parent: `Ready`, `Exited`, `ResumeFailed`.
* parent -> episode: `Step`, `Act`, `Ahead`, `Stop`, `End`, `Call`, `TakeSnapshot`.
* episode -> parent: `Hello`, `Answer`, `Batch` (of `BatchStep`), `Final`, `Reply`, `SnapshotTaken`, `Coverage`,
  `SpecError`; `Broken` is the parent's own note of a connection that broke (never sent).
* a `Worker` -> its caller across a process (a Ray actor's `WorkerHost` -> `RayWorker`): `Steps`, `Called` and
  `WorkerState`, whose steps are `Checked`: one answered step with what was measured where the game runs as typed
  fields (``findings``, ``state_key``, ``judged``).
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from playtester.errors import WorkerError


class MessageError(WorkerError):
    """A message this side cannot read: an unknown kind, a version it does not speak, or the wrong shape."""


@dataclass(frozen=True)
class Message:
    """Base of every message: ``kind`` names it on the wire, ``version`` is its layout's version."""

    kind: ClassVar[str] = ""
    version: ClassVar[int] = 1


# ---------------------------------------------------------------------------------- parent <-> worker host
@dataclass(frozen=True)
class StartEpisode(Message):
    """Fork a fresh episode process for ``spec`` with ``seed`` (``space``: the action space; ``opts``:
    `EpisodeOptions`)."""

    kind: ClassVar[str] = "episode"
    spec: Any
    seed: int
    space: Any
    opts: Any


@dataclass(frozen=True)
class Resume(Message):
    """Wake the parked snapshot ``snapshot`` (its pid): it becomes the live episode."""

    kind: ClassVar[str] = "resume"
    snapshot: int


@dataclass(frozen=True)
class Quit(Message):
    """The host ends."""

    kind: ClassVar[str] = "quit"


@dataclass(frozen=True)
class Ready(Message):
    """The host is up (its pid)."""

    kind: ClassVar[str] = "ready"
    pid: int


@dataclass(frozen=True)
class Exited(Message):
    """An episode process (or a resumed snapshot) ended: its pid, wait status and peak resident KiB."""

    kind: ClassVar[str] = "exited"
    pid: int
    status: int
    peak_kb: int = 0


@dataclass(frozen=True)
class ResumeFailed(Message):
    """The snapshot to resume was gone."""

    kind: ClassVar[str] = "resume_failed"
    snapshot: int


# ---------------------------------------------------------------------------------- parent -> episode
@dataclass(frozen=True)
class Step(Message):
    """Hold raw ``inputs`` for ``frames`` frames (``hold``: for how many of them; None: all)."""

    kind: ClassVar[str] = "step"
    inputs: Any
    frames: int
    hold: int | None
    capture: Any


@dataclass(frozen=True)
class Act(Message):
    """Play action ``action`` of the episode's space for ``frames`` frames."""

    kind: ClassVar[str] = "act"
    action: int
    frames: int
    capture: Any


@dataclass(frozen=True)
class Ahead(Message):
    """A batch of at most ``n`` steps the episode plays itself: ``action`` first, then ``plan.choose(mask)``."""

    kind: ClassVar[str] = "ahead"
    action: int
    frames: int
    capture: Any
    plan: Any
    n: int


@dataclass(frozen=True)
class Stop(Message):
    """End the batch under way after the step in flight."""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True)
class End(Message):
    """End the episode (its backend sends what it still has: `Coverage`)."""

    kind: ClassVar[str] = "end"


@dataclass(frozen=True)
class Call(Message):
    """Run ``target`` (``module:function``) in the live game with ``args``; answered with `Reply`."""

    kind: ClassVar[str] = "call"
    target: str
    args: tuple[Any, ...]


@dataclass(frozen=True)
class TakeSnapshot(Message):
    """Park a copy of the episode; answered with `SnapshotTaken`."""

    kind: ClassVar[str] = "snapshot"


# ---------------------------------------------------------------------------------- episode -> parent
@dataclass(frozen=True)
class Hello(Message):
    """The episode process started (its pid); ``ahead``: it plays batches itself (`Ahead`)."""

    kind: ClassVar[str] = "hello"
    pid: int
    ahead: bool = False


@dataclass(frozen=True)
class Answer(Message):
    """The observation of the step asked for (or of the episode's start)."""

    kind: ClassVar[str] = "obs"
    obs: Any


@dataclass(frozen=True)
class BatchStep:
    """One step of a batch the episode plays: its observation (bytes: pickled on its own, so a relay need not
    unpickle it), its action, whether the batch goes on, the next step's action when known (the one a crash or
    hang of the game in that step was playing) and, with the batch's last step, the plan as the episode left it."""

    obs: Any
    action: int | None
    more: bool
    next: int | None = None
    plan: Any = None


@dataclass(frozen=True)
class Batch(Message):
    """Steps of a batch the episode plays itself, in order."""

    kind: ClassVar[str] = "bobs"
    steps: tuple[BatchStep, ...]

    def wire(self) -> tuple[Any, ...]:
        return (tuple((s.obs, s.action, s.more, s.next, s.plan) for s in self.steps),)

    @classmethod
    def unwire(cls, fields: tuple[Any, ...]) -> Batch:
        (steps,) = fields
        return cls(tuple(BatchStep(*s) for s in steps))


@dataclass(frozen=True)
class Final(Message):
    """The episode ended with ``obs`` (its ``info["exit"]`` says how); ``action``: the batch step it ended in."""

    kind: ClassVar[str] = "final"
    obs: Any
    action: int | None = None


@dataclass(frozen=True)
class Reply(Message):
    """The answer to a `Call`: ``ok`` (True, False, or ``"memory"``) and the value (or the error's text)."""

    kind: ClassVar[str] = "reply"
    ok: Any
    value: Any


@dataclass(frozen=True)
class SnapshotTaken(Message):
    """The snapshot's id (its pid), or None when the episode could not park one."""

    kind: ClassVar[str] = "snapshot_taken"
    snapshot: int | None


@dataclass(frozen=True)
class Coverage(Message):
    """Code lines new to the worker, sent by an ending episode: ``{file: [line, ...]}``."""

    kind: ClassVar[str] = "coverage"
    lines: dict[str, list[int]]


@dataclass(frozen=True)
class SpecError(Message):
    """The game spec could not be started (why, in words)."""

    kind: ClassVar[str] = "spec_error"
    why: str


@dataclass(frozen=True)
class Broken(Message):
    """The parent's own note that the connection broke or a message could not be read (never sent)."""

    kind: ClassVar[str] = "broken"
    why: str = ""


# ---------------------------------------------------------------------------------- a worker -> its caller
@dataclass(frozen=True)
class Checked(Message):
    """One step a worker answered, with what was measured where the game runs: the oracles' ``findings`` (empty:
    none), the step's abstract ``state_key`` (None: not watched or no state) and the texture oracle's ``judged``
    (None: nothing judged this step), plus the suite's other ``notes``. `Checked.observation` puts them into
    ``obs.info`` as users of `Observation` read them."""

    kind: ClassVar[str] = "checked"
    obs: Any
    findings: tuple[Any, ...] = ()
    state_key: str | None = None
    judged: Any = None
    notes: dict[str, Any] = field(default_factory=dict)
    watched: bool = False  # a state key was computed (``state_key`` None then means "no state")

    def observation(self) -> Any:
        """``obs`` with the fields in its ``info`` (``findings`` only when there are some, ``state_key`` when it
        was computed, ``judged`` when something was judged)."""
        if not (self.watched or self.findings or self.notes or self.judged is not None):
            return self.obs  # nothing measured: a packed observation stays packed
        info = self.obs.info
        if self.watched:
            info["state_key"] = self.state_key
        if self.findings:
            info["findings"] = list(self.findings)
        if self.notes:
            info.update(self.notes)
        if self.judged is not None:
            info["judged"] = self.judged
        return self.obs


@dataclass(frozen=True)
class Steps(Message):
    """A Ray actor's answer to a step call (`WorkerHost`): the steps answered, in order, each `Checked`, with the
    action each played (None: raw inputs), and the worker's step count after them."""

    kind: ClassVar[str] = "steps"
    answers: tuple[Checked, ...]
    actions: tuple[int | None, ...]
    steps: int


@dataclass(frozen=True)
class Called(Message):
    """A Ray actor's answer to `Call`: whether it answered, its value (or its `WorkerError`), and the batch steps the
    game played past the last answer (`Checked`, with their actions), for the caller to answer first."""

    kind: ClassVar[str] = "called"
    ok: bool
    value: Any
    held: tuple[Checked, ...] = ()
    held_actions: tuple[int | None, ...] = ()


@dataclass(frozen=True)
class WorkerState(Message):
    """What a Ray actor's worker tells its `RayWorker` after a reset, restore, end or close."""

    kind: ClassVar[str] = "worker_state"
    steps: int
    peak_rss_kb: int
    final_code_lines: dict[str, list[int]]
    snapshot_count: int
    host_starts: int
    answer: Checked | None = None  # the reset's or restore's first step (None: none, or a restore that failed)


KINDS: dict[str, type[Message]] = {c.kind: c for c in (
    StartEpisode, Resume, Quit, Ready, Exited, ResumeFailed, Step, Act, Ahead, Stop, End, Call, TakeSnapshot,
    Hello, Answer, Batch, Final, Reply, SnapshotTaken, Coverage, SpecError, Broken, Checked, Steps, Called,
    WorkerState)}
_FIELDS: dict[type[Message], tuple[str, ...]] = {c: tuple(f.name for f in dataclasses.fields(c)) for c in KINDS.values()}
_GET: dict[type[Message], Any] = {c: (lambda m: ()) if not n else (lambda m, g=operator.attrgetter(n[0]): (g(m),))
                                  if len(n) == 1 else operator.attrgetter(*n) for c, n in _FIELDS.items()}


def encode(msg: Message) -> tuple[Any, ...]:
    """``msg`` as it goes on the wire: ``(kind, version, *fields)``."""
    cls = type(msg)
    body = msg.wire() if cls is Batch else _GET[cls](msg)  # type: ignore[attr-defined]
    return (cls.kind, cls.version, *body)


def decode(data: Any) -> Message:
    """The message ``data`` (what `encode` made) stands for; a `MessageError` naming the kind and version when this
    side does not know that kind, speaks another version of it, or the fields do not fit it."""
    if type(data) is not tuple or len(data) < 2:
        raise MessageError(f"not a playtester message: {_short(data)} (a message is (kind, version, *fields); "
                           "both sides must run the same playtester)")
    kind, version = data[0], data[1]
    cls = KINDS.get(kind)
    if cls is None:
        raise MessageError(f"unknown message kind {kind!r} (version {version!r}): this playtester knows "
                           f"{', '.join(sorted(KINDS))}; both sides must run the same playtester")
    if version != cls.version:
        raise MessageError(f"message {kind!r} of version {version!r}: this playtester speaks version {cls.version} "
                           "of it; both sides must run the same playtester")
    names = _FIELDS[cls]
    if len(data) - 2 != len(names):
        raise MessageError(f"message {kind!r} of version {version!r} does not fit its fields ({', '.join(names)}): "
                           f"{len(data) - 2} given")
    if cls is Batch:
        try:
            return Batch.unwire(data[2:])
        except (TypeError, ValueError) as e:
            raise MessageError(f"message {kind!r} of version {version!r} does not fit its fields (steps): {e}") from e
    msg = object.__new__(cls)  # the fields as they came, without the frozen __init__'s setattr per field
    msg.__dict__.update(zip(names, data[2:], strict=True))
    return msg


def _short(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 200 else text[:200] + "..."
