"""What comes back from a game after a step: small picklable dataclasses."""

from __future__ import annotations

import os
import pickle
import signal
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

ExitKind = Literal["finished", "exit", "exception", "signal", "hang", "memory", "killed", "worker", "worker_lost"]


def resize_nearest(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``frame`` (H, W, C) resized to ``size`` = (width, height) by nearest neighbour."""
    w, h = size
    if frame.shape[1] == w and frame.shape[0] == h:
        return frame
    ys = np.arange(h) * frame.shape[0] // h
    xs = np.arange(w) * frame.shape[1] // w
    return frame[ys][:, xs]


@dataclass
class GameEvent:
    """A ``probe.event`` call: name, data, and the frame it happened on."""

    name: str
    data: dict[str, Any]
    frame: int


@dataclass
class CheckFailure:
    """A failed ``probe.check``: its message and where in the game's source it was called."""

    message: str
    data: dict[str, Any]
    file: str
    line: int
    function: str
    frame: int


@dataclass
class Entity:
    """A ``probe.entity`` report: an actor of the game and where it is."""

    id: str
    kind: str
    pos: tuple[float, float] | None
    attrs: dict[str, Any]

    def __reduce__(self) -> tuple[Any, ...]:
        # the constructor and a tuple: a third cheaper to pickle and unpickle than a dataclass's default
        # (object.__new__, then its __dict__), and an observation carries one per reported actor each step
        return (Entity, (self.id, self.kind, self.pos, self.attrs))


@dataclass
class LogRecord:
    """A record the game logged at ERROR level or above (Python ``logging``)."""

    logger: str
    level: str
    message: str
    file: str
    line: int
    frame: int


@dataclass
class EpisodeOptions:
    """What the episode process should measure and send back, besides the game itself.

    Attributes:
        capture: frames to capture: None, ``"full"``, or a (width, height) to downscale to.
        hang_dump: file the episode dumps its Python stack to when the watchdog asks (SIGUSR1).
        code_include: coverage.py ``include`` patterns of the game's own source files; None: no code
            coverage.
        code_trace: measure code coverage in this episode (with ``code_include``); False: the episode runs
            untraced (the worker traces a share of its steps only, see `Worker`).
        code_known: lines the worker already has, ``{file: [line, ...]}``: not sent again, and a step that
            runs none but these brings no news.
        code_patience: stop tracing after this many steps in a row without a new line (0: never).
        code_every: send newly covered lines every this many steps (and at the episode's end).
        memory_limit_mb: the episode process's data limit in MiB (``RLIMIT_DATA``); 0 or None: none.
        warm_notes: file where episodes note what they loaded, for the host to load before the next fork
            (`playtester.drive.warm`); None: no notes.
        home: the folder the host makes afresh before each episode (a copy of ``home_from``, else empty) and
            the episode process takes as its HOME (`GameConfig.fresh_home`); None: the worker's own HOME.
        home_from: the folder ``home`` starts as a copy of; None: empty.
        game_copies: the folder under which the host makes each episode a copy of the game's folder of its own
            (`drive.isolation`, `GameConfig.fresh_folder`); None: the episode runs in the game's folder itself.
        folder: set by the host: this episode's copy of the game's folder, its working folder.
    """

    capture: object = "full"
    hang_dump: str | None = None
    code_include: list[str] | None = None
    code_trace: bool = True
    code_known: dict[str, list[int]] | None = None
    code_patience: int = 0
    code_every: int = 20
    memory_limit_mb: int | None = None
    warm_notes: str | None = None
    home: str | None = None
    home_from: str | None = None
    game_copies: str | None = None
    folder: str | None = None

    @property
    def fatal_dump(self) -> str | None:
        """File the episode's faulthandler writes the stack of a fatal signal to (SIGSEGV in native code,
        SIGABRT, SIGFPE): beside ``hang_dump``."""
        return os.path.join(os.path.dirname(self.hang_dump), "fatal.txt") if self.hang_dump else None


@dataclass
class TraceFrame:
    """One frame of a Python traceback (file, line, function, source line)."""

    file: str
    line: int
    function: str
    source: str = ""


def signal_name(sig: int) -> str:
    """``SIGSEGV`` for 11; the number itself for a signal this system does not name."""
    try:
        return signal.Signals(sig).name
    except ValueError:
        return str(sig)


@dataclass
class GameExit:
    """How a game's episode ended when it ended by itself (or was killed by the watchdog).

    Attributes:
        kind: ``finished`` (entry returned), ``exit`` (``sys.exit``), ``exception`` (uncaught),
            ``signal`` (the process died of a signal), ``killed`` (``os._exit`` or died without a
            word), ``hang`` (no frame boundary within the step timeout), ``memory`` (the game used up
            the episode's memory limit: a ``MemoryError``, or native code that died at the limit),
            ``worker`` (playtester's own worker failed), ``worker_lost`` (the Ray actor or the node running
            the worker died: not the game's doing, not a failure; `playtester.drive.ray_worker`).
        code: exit status, when there is one.
        signal: signal number, when the process died of one.
        exc_type: exception class name, for ``exception``.
        message: one line saying what happened.
        traceback: the formatted traceback text, for ``exception``.
        frames: the traceback's frames, innermost last.
    """

    kind: ExitKind
    code: int | None = None
    signal: int | None = None
    exc_type: str | None = None
    message: str = ""
    traceback: str = ""
    frames: list[TraceFrame] = field(default_factory=list)

    @property
    def is_failure(self) -> bool:
        """True for crashes and hangs; False for a game that simply ended, or whose worker was lost."""
        if self.kind in ("finished", "worker_lost"):
            return False
        if self.kind == "exit":
            return self.code not in (0, None)
        return True

    def describe(self) -> str:
        return self.message or self.kind


@dataclass
class Observation:
    """The state of a game after a step.

    Attributes:
        frame: the screen as an RGB ``uint8`` array of shape (height, width, 3), downscaled when the step
            asked for it; None when capture was off.
        features: the latest value of every ``probe.observe`` feature.
        events: ``probe.event`` calls during the step.
        checks: failed ``probe.check`` calls during the step.
        logs: records the game logged at ERROR level or above during the step.
        entities: ``probe.entity`` reports during the step (latest per id).
        done: the episode is over (the game ended, crashed, hung, or met its done condition).
        frame_no: frames since the episode started.
        time_ms: the game's virtual clock.
        reward: increase of the configured reward feature during the step (or the env's reward).
        action_mask: validity of each action of the episode's action space, int8, when there is one.
        info: everything else: ``exit`` (a `GameExit` when the game ended by itself), ``inputs_read``
            (input API calls during the step), ``done_reason``, ``screen_size``, ``max_frame_ms`` (the
            longest frame's in-game work, wall-clock, start-up frames left out), ``startup_ms`` and ``started``
            (the game's start-up work: its frames up to the first that reads input; sent until it has ended), ``scene`` (live sprites: sorted
            ``(group label, sprite class names)`` pairs), ``code_lines`` (newly covered lines,
            ``{file: [line, ...]}``, when code coverage is on), ``code_stopped`` (the step at which this
            episode stopped measuring code coverage, on that step only), ``answer_lost`` (a remote game's step
            played to its end whose answer went down with the game in a joined batch: its frames and error lines
            are its own, the rest is the step's before; docs/protocol.md), ...
    """

    frame: np.ndarray | None
    features: dict[str, float] = field(default_factory=dict)
    events: list[GameEvent] = field(default_factory=list)
    checks: list[CheckFailure] = field(default_factory=list)
    logs: list[LogRecord] = field(default_factory=list)
    entities: dict[str, Entity] = field(default_factory=dict)
    done: bool = False
    frame_no: int = 0
    time_ms: int = 0
    reward: float = 0.0
    action_mask: np.ndarray | None = None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def exit(self) -> GameExit | None:
        return self.info.get("exit")

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, tuple[Any, ...]]:
        """Pickled flat (one goes from the game to the parent every step): a uint8 frame as its raw bytes and
        shape, not through numpy's own reduce, and the entities as plain tuples, not one reduce call each; in
        the game's process, after its frames have taken the caches, numpy's reduce and a call per entity cost
        a dungeon observation about 60 us against 18 us hot (measured by hand). Unpickled as the same
        `Observation`, its frame a writable array over the bytes read. The frame's memory goes into the pickle
        as it is with protocol 5 (a `pickle.PickleBuffer`), as a copy with older ones (multiprocessing's
        default, `copy.deepcopy`)."""
        frame = self.frame
        if isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.flags.c_contiguous:
            data = frame if frame.flags.writeable else bytearray(frame.data)
            wire: Any = (pickle.PickleBuffer(data) if isinstance(protocol, int) and protocol >= 5
                         else bytearray(data.data if isinstance(data, np.ndarray) else data), frame.shape)
        else:
            wire = frame
        ents = self.entities
        return _observation, (wire, self.features, self.events, self.checks, self.logs,
                              tuple((k, e.id, e.kind, e.pos, e.attrs) for k, e in ents.items()) if ents else (),
                              self.done, self.frame_no, self.time_ms, self.reward, self.action_mask, self.info)


def _observation(frame: Any, features: dict[str, float], events: list[GameEvent], checks: list[CheckFailure],
                 logs: list[LogRecord], entities: tuple[tuple[Any, ...], ...], done: bool, frame_no: int,
                 time_ms: int, reward: float, action_mask: np.ndarray | None, info: dict[str, Any]) -> Observation:
    """An `Observation` from its flat pickled form (`Observation.__reduce_ex__`)."""
    if isinstance(frame, tuple):
        data, shape = frame
        frame = np.frombuffer(data if isinstance(data, bytearray) else bytearray(data), dtype=np.uint8).reshape(shape)
    return Observation(frame, features, events, checks, logs,
                       {k: Entity(i, kind, pos, attrs) for k, i, kind, pos, attrs in entities}, done, frame_no,
                       time_ms, reward, action_mask, info)


class PackedObservation:
    """An `Observation` still in its pickled bytes, as a pygame episode sends a batch step that goes on
    (`playtester.drive.episode.answer_step`): a worker with nothing to read in it (no oracles, no abstract state,
    no code coverage: a Ray actor under ``playtester run``, `Worker.pass_through`) relays it as it came instead
    of unpickling and pickling it again. Pickled, it is the observation itself (`__reduce__`), so whoever
    unpickles it further on gets an `Observation`; any attribute read here unpacks it (`unpack`)."""

    __slots__ = ("data", "_obs")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._obs: Observation | None = None

    def unpack(self) -> Observation:
        if self._obs is None:
            self._obs = pickle.loads(self.data)  # noqa: S301 - vetted (tests/test_no_code_from_data.py): our own process's bytes, not a file
        return self._obs

    def __getattr__(self, name: str) -> Any:
        return getattr(self.unpack(), name)

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        return pickle.loads, (self.data,)


def plain(obs: Any) -> Any:
    """``obs`` as an `Observation` (a `PackedObservation` unpacked; anything else as it is)."""
    return obs.unpack() if isinstance(obs, PackedObservation) else obs

