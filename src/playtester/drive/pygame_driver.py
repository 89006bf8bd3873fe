"""Inside a worker: run an unmodified pygame game frame by frame on virtual devices and a virtual clock.

`install()` replaces pygame's input, event, time and display-flip functions with ones backed by a
`Runtime` before any game code is imported. The game's own main loop then runs as usual; whenever it
reaches a frame boundary (``Clock.tick``, ``display.flip``/``update``, a blocking ``event.wait`` with
nothing queued, or a loop that keeps polling input without ever flipping), the runtime counts a
frame, and at the end of a step it sends an `Observation` to the parent and waits for the next inputs.

Frame boundaries: consecutive boundaries of different kinds with no input read between them are one
boundary (``flip`` then ``tick`` ends one frame, not two). Virtual time advances with ``Clock.tick``
(by the frame rate asked for), ``time.delay``/``wait``/``time.sleep`` (by what was asked), and by the
configured frame rate at every frame of a game that never ticks or waits. Nothing ever sleeps.

Only this module (and the rest of ``drive/``) touches pygame at run time.
"""

from __future__ import annotations

import inspect
import logging
import os
import random
import re
import sys
import time as _time
import traceback
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from playtester import probe
from playtester.drive import lifetime, warm
from playtester.drive import messages as wire
from playtester.drive.context import ActionContext, SpaceLike
from playtester.drive.episode import answer_step, hello, seed_python, send, serve
from playtester.drive.inputs import InputFrame
from playtester.drive.observation import (
    CheckFailure,
    Entity,
    EpisodeOptions,
    GameEvent,
    GameExit,
    LogRecord,
    Observation,
    TraceFrame,
)
from playtester.drive.spec import GameSpec

pygame: Any = None  # imported by install()
RT: Runtime | None = None  # the runtime of this episode process
HOST_PID: int | None = None  # the worker host: parked snapshots end when it is gone
SNAPSHOT_POLL_S = 1.0  # how often a parked snapshot looks for its host
_ORIG: dict[str, Callable[..., Any]] = {}

IDLE_READS = 500  # input reads with no frame boundary that count as one idle frame
QUEUE_MAX = 4096  # SDL's queue is bounded too; oldest events are dropped past this
VIRTUAL_EPOCH = 1_700_000_000.0  # time.time() of a virtual clock at 0 ms
_MOD_OF_KEY: dict[int, int] = {}
# A frame's game work is measured in CPU time of the game's thread, so other work on a busy machine
# (other workers, other jobs) does not make the game's frames look slow to the frame_time oracle.
_FRAME_CLOCK = _time.thread_time
REAL_PERF_COUNTER = _time.perf_counter  # the real one: the game's time.perf_counter becomes virtual


def end_process(code: int = 0) -> None:
    """Leave the episode process at once: the game's own cleanup code never runs (it may hang)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            pass
    os._exit(code)


# ------------------------------------------------------------------------------------------ probe sink
class ProbeSink:
    """Collects probe calls for the current step.

    Calls from the game only store their arguments (a game may report dozens of entities a frame);
    conversion to picklable records happens once per step, in `snapshot`.
    """

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.events: list[GameEvent] = []
        self.checks: list[CheckFailure] = []
        self.features: dict[str, Any] = {}
        self.entities: dict[Any, tuple[str, Any, dict[str, Any]]] = {}
        self.logs: list[LogRecord] = []

    def on_event(self, name: str, data: dict[str, Any]) -> None:
        self.events.append(GameEvent(str(name), _plain(data), self.rt.frame_no))

    def on_check(self, message: str, data: dict[str, Any], where: tuple[str, int, str]) -> None:
        self.checks.append(CheckFailure(str(message), _plain(data), where[0], where[1], where[2], self.rt.frame_no))

    def on_observe(self, features: dict[str, Any]) -> None:
        self.features.update(features)

    def on_entity(self, id: Any, kind: str, pos: Any, attrs: dict[str, Any]) -> None:
        self.entities[id] = (kind, pos, attrs)

    def numeric_features(self) -> dict[str, float]:
        out = {}
        for k, v in self.features.items():
            try:
                out[k] = float(v)
            except (TypeError, ValueError):
                continue
        return out

    def snapshot(self) -> tuple[list[GameEvent], list[CheckFailure], dict[str, Entity], list[LogRecord]]:
        """The step's events, checks, entities and logs as records; the sink starts a new step."""
        entities = {}
        for id, (kind, pos, attrs) in self.entities.items():
            p = None if pos is None else (float(pos[0]), float(pos[1]))
            entities[str(id)] = Entity(str(id), str(kind), p, _plain(attrs))
        out = (self.events, self.checks, entities, self.logs)
        self.events, self.checks, self.entities, self.logs = [], [], {}, []
        return out


class _ErrorLogHandler(logging.Handler):
    """Keeps the game's log records at ERROR level and above for the error-log oracle."""

    def __init__(self, sink: ProbeSink) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a badly formatted record is still worth reporting
            message = str(record.msg)
        self.sink.logs.append(LogRecord(record.name, record.levelname, message[:1000], record.pathname,
                                        record.lineno, self.sink.rt.frame_no))


# Sprite groups created by the game, in creation order (labels "Group#0", "LayeredUpdates#3", ...).
_GROUPS: list[weakref.ref[Any]] = []


def scene() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The scene abstraction: for each live sprite group, the classes of the sprites in it."""
    out = []
    plain = pygame.sprite.AbstractGroup.sprites
    for i, ref in enumerate(_GROUPS):
        group = ref()
        if group is None:
            continue
        # the group's own dict, not a list copy, unless its class keeps its sprites another way (GroupSingle,
        # LayeredUpdates); the classes once each, then their names (every step, in the game's process)
        types = set(map(type, group.spritedict if type(group).sprites is plain else group.sprites()))
        if types:
            out.append((f"{type(group).__name__}#{i}", tuple(sorted({t.__name__ for t in types}))))
    return tuple(sorted(out))


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    """Keep probe data picklable and small: numbers, strings, bools, tuples of them; repr otherwise."""
    out: dict[str, Any] = {}
    for k, v in data.items():
        if isinstance(v, (int, float, str, bool)) or v is None:
            out[k] = v
        elif isinstance(v, (tuple, list)) and all(isinstance(x, (int, float, str, bool)) for x in v):
            out[k] = tuple(v)
        else:
            out[k] = repr(v)[:200]
    return out


# -------------------------------------------------------------------------------------- code coverage
def prepare_code_tracing() -> None:
    """Import coverage.py's tracer modules (in the worker host, before forking), so a traced episode does not
    pay for the import (about 0.1 s) in its own process."""
    CodeTracer.modules()


class CodeTracer:
    """Lines of the game's own source that run in this episode process, measured by coverage.py's line tracer.

    coverage.py's C tracer (``CTracer``; its Python ``PyTracer`` where the C extension is missing) is driven
    directly, with coverage.py's own rules for which files to trace (the ``include`` patterns, matched
    against canonical file names as ``coverage run --include`` does): the lines are the same as a
    ``coverage.Coverage(include=...)`` run would record, without its per-episode set-up and SQLite data.

    ``known`` are lines this worker has already reported: they are not sent again, and a step that runs no
    line outside them is a step without news. After ``patience`` steps in a row without news (0: never),
    the tracer stops for the rest of the episode: on Python 3.11 a line tracer slows every frame of the
    process, whatever it records, so the only cheap tracer is one that is off.
    """

    _mods: tuple[Any, ...] | None = None

    @classmethod
    def modules(cls) -> tuple[Any, ...]:
        if cls._mods is None:
            from coverage.disposition import disposition_init
            from coverage.files import GlobMatcher, canonical_filename, prep_patterns
            from coverage.python import source_for_file

            try:
                from coverage.tracer import CFileDisposition as disp_class
                from coverage.tracer import CTracer as tracer_class
            except ImportError:  # coverage.py without its C extension
                from coverage.disposition import FileDisposition as disp_class
                from coverage.pytracer import PyTracer as tracer_class
            cls._mods = (tracer_class, disp_class, disposition_init, GlobMatcher, canonical_filename, prep_patterns,
                         source_for_file)
        return cls._mods

    def __init__(self, include: list[str], known: dict[str, list[int]] | None = None, patience: int = 0) -> None:
        tracer_class, disp_class, disposition_init, glob_matcher, canonical, prep, source_for_file = self.modules()
        match = glob_matcher(prep(include), "include").match

        def should_trace(filename: str, frame: Any) -> Any:  # coverage.py's InOrOut.should_trace, include only
            disp = disposition_init(disp_class, filename)
            if filename.startswith("<"):
                return disp
            dunder_file = frame.f_globals.get("__file__") if frame is not None and frame.f_globals else None
            if dunder_file:
                name = source_for_file(dunder_file)
                if os.path.basename(filename) == os.path.basename(name):
                    filename = name
            if not filename or filename.startswith(("<", "memory:")):
                return disp
            disp.canonical_filename = disp.source_filename = canonical(filename)
            disp.trace = bool(match(disp.source_filename))
            return disp

        self.sent: dict[str, set[int]] = {f: set(lines) for f, lines in (known or {}).items()}
        self.data: dict[str, set[int]] = {f: set(lines) for f, lines in self.sent.items()}
        self.seen = sum(len(v) for v in self.data.values())
        self.patience = patience
        self.quiet = 0  # steps in a row without a new line
        self.running = False
        tracer = self.tracer = tracer_class()
        tracer.data = self.data
        tracer.should_trace = should_trace
        tracer.should_trace_cache = {}
        tracer.trace_arcs = False
        tracer.warn = lambda *a, **k: None
        tracer.lock_data = tracer.unlock_data = lambda: None
        for name, value in (("file_tracers", {}), ("concur_id_func", None), ("check_include", None),
                            ("should_start_context", None), ("switch_context", None), ("disable_plugin", None)):
            if hasattr(tracer, name):
                setattr(tracer, name, value)

    def start(self) -> None:
        self.tracer.start()
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.tracer.stop()
            self.running = False

    def end_step(self) -> bool:
        """Count a step; True when this step used up the patience and the tracer stopped."""
        if not self.running:
            return False
        seen = sum(len(v) for v in self.data.values())
        if seen > self.seen:
            self.seen, self.quiet = seen, 0
            return False
        self.quiet += 1
        if self.patience and self.quiet >= self.patience:
            self.stop()
            return True
        return False

    def new_lines(self) -> dict[str, list[int]]:
        """Lines run since the last call, not among the known ones: ``{file: sorted lines}``."""
        out = {}
        for f, lines in list(self.data.items()):
            sent = self.sent.setdefault(f, set())
            if len(lines) > len(sent):
                new = lines - sent
                if new:
                    sent.update(new)
                    out[f] = sorted(new)
        return out


# ---------------------------------------------------------------------------------------- the runtime
class Runtime:
    """Virtual devices, event queue, clock and frame stepping of one episode."""

    def __init__(self, conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None,
                 opts: EpisodeOptions) -> None:
        self.conn = conn
        self.spec = spec
        self.cfg = spec.config
        self.space = space
        self.opts = opts
        self.capture = opts.capture
        self.code: CodeTracer | None = None
        self.steps_done = 0
        self.seed = seed
        self.frame_ms = 1000.0 / self.cfg.fps
        # clock
        self.now = 0.0
        self.uses_clock = False
        self.game_advanced = False
        self.timers: dict[int, list[Any]] = {}  # type -> [due, interval, loops_left (0 = forever), event]
        # events
        self.queue: list[Any] = []
        self.blocked: set[int] = set()
        # devices
        self.held = InputFrame()
        self.target = InputFrame()
        self.just_down: frozenset[int] = frozenset()
        self.just_up: frozenset[int] = frozenset()
        self.mouse_just_down: frozenset[int] = frozenset()
        self.mouse_just_up: frozenset[int] = frozenset()
        self.mouse_pos = (0, 0)
        self.mouse_rel = [0, 0]
        self.mods_override: int | None = None
        self.repeat = (0, 0)
        self.repeat_due: dict[int, float] = {}
        self._pressed: tuple[frozenset[int], Any] | None = None
        self._applied: InputFrame | None = None
        # frames
        self.frame_no = 0
        self.group: set[str] = set()
        self.input_read = False
        self.reads = 0
        self.step_reads = 0
        self.frames_left = 0
        self.hold_left: int | None = None
        self.batch: tuple[int, Any, int] | None = None  # a batch this process plays (`episode.answer_step`)
        self.batch_frames = 1
        self.screen_size = (0, 0)
        self.done_reason: str | None = None
        self.sink = ProbeSink(self)
        self.ctx = ActionContext(rng=random.Random(seed ^ 0x5EED5EED), game=LiveGame())
        self.reward_prev: float | None = None
        self.game_work_ms = 0.0
        self.max_frame_ms = 0.0
        # start-up: the frames up to and including the first that reads input (imports, loading images) are
        # start-up time, never a slow frame (`startup_ms`; the frame_time oracle's own startup_budget_ms)
        self.input_seen = False
        self.started = False
        self.startup_ms = 0.0
        self.startup_sent = False
        self.window_shown = False  # the desktop's first window events were posted (`_desktop_window_events`)
        self._work_t0 = _FRAME_CLOCK()
        self._done_pred = None
        if self.cfg.done_when:
            from playtester.expr import compile_expr

            self._done_pred = compile_expr(self.cfg.done_when, "done_when")
        self.last_frame: np.ndarray | None = None
        # audio files this machine cannot decode, played as silence (silent_audio): (file, reason)
        self.silenced: list[tuple[str, str]] = []
        self.silenced_sent = 0
        self.music_silent = False  # the music loaded last is one of them: play() does nothing
        for j in range(self.cfg.joysticks):
            self._post(pygame.event.Event(pygame.JOYDEVICEADDED, device_index=j, guid=f"playtester-{j}"))

    # ---- clock
    def advance(self, ms: float) -> None:
        """Move the virtual clock forward, firing timers that fall due on the way."""
        if ms <= 0:
            return
        end = self.now + ms
        while self.timers:
            etype, (due, interval, loops, ev) = min(self.timers.items(), key=lambda kv: kv[1][0])
            if due > end:
                break
            self.now = due
            self._post(ev)
            if loops == 1:
                del self.timers[etype]
            else:
                self.timers[etype] = [due + interval, interval, max(0, loops - 1) if loops else 0, ev]
        self.now = end

    def ticks(self) -> int:
        self.reads += 1
        if self.reads > IDLE_READS:
            self.reads = 0
            self.boundary("idle")
        return int(self.now)

    def delay(self, ms: float) -> None:
        self.game_advanced = True
        self.advance(max(0.0, float(ms)))

    # ---- events
    def _post(self, ev: Any) -> bool:
        if ev.type in self.blocked:
            return False
        self.queue.append(ev)
        if len(self.queue) > QUEUE_MAX:
            del self.queue[0]
        return True

    def note_read(self) -> None:
        self.input_read = self.input_seen = True
        self.step_reads += 1
        self.reads += 1
        if self.reads > IDLE_READS:  # polling forever without a frame boundary: the game idles
            self.reads = 0
            self.boundary("idle")

    @staticmethod
    def _types(t: Any) -> set[int] | None:
        if t is None:
            return None
        if isinstance(t, int):
            return {t}
        return {int(x) for x in t}

    def take(self, eventtype: Any = None, exclude: Any = None) -> list[Any]:
        self.note_read()
        types, excl = self._types(eventtype), self._types(exclude)
        if types is None and not excl:
            out, self.queue = self.queue, []
            return out
        out, rest = [], []
        for ev in self.queue:
            match = (types is None or ev.type in types) and not (excl and ev.type in excl)
            (out if match else rest).append(ev)
        self.queue = rest
        return out

    def wait(self, timeout: int = 0) -> Any:
        waited_from = self.now
        while True:
            self.note_read()
            if self.queue:
                return self.queue.pop(0)
            if timeout and self.now - waited_from >= timeout:
                return pygame.event.Event(pygame.NOEVENT)
            self.boundary("wait")  # the game waits for input: this frame is over

    # ---- devices
    def pressed(self) -> Any:
        self.note_read()
        keys = self.held.keys
        if self._pressed is None or self._pressed[0] != keys:
            self._pressed = (keys, _Pressed.build(keys))
        return self._pressed[1]

    def mods(self) -> int:
        self.note_read()
        if self.mods_override is not None:
            return self.mods_override
        m = 0
        for k in self.held.keys:
            m |= _MOD_OF_KEY.get(k, 0)
        return m

    def joy_axis(self, joy: int, axis: int) -> float:
        self.note_read()
        for j, a, v in self.held.joy_axes:
            if j == joy and a == axis:
                return v
        return 0.0

    def joy_button(self, joy: int, button: int) -> bool:
        self.note_read()
        return (joy, button) in self.held.joy_buttons

    def joy_hat(self, joy: int, hat: int) -> tuple[int, int]:
        self.note_read()
        for j, h, v in self.held.joy_hats:
            if j == joy and h == hat:
                return v
        return (0, 0)

    def apply_inputs(self, new: InputFrame) -> None:
        """Start a frame with ``new`` held: emit the events a real device would, update polled state."""
        if new is self._applied:  # the same inputs held on: only the "just" sets and key repeat change
            if self.just_down or self.just_up or self.mouse_just_down or self.mouse_just_up:
                self.just_down = self.just_up = self.mouse_just_down = self.mouse_just_up = frozenset()
            if self.repeat[0] > 0:
                self._key_repeat()
            return
        self._applied = new
        old = self.held
        pg = pygame
        if new.mouse_pos is None:
            new = InputFrame(new.keys, self.mouse_pos, new.mouse_buttons, new.wheel, new.joy_axes,
                             new.joy_buttons, new.joy_hats, new.native)
        if new == old:  # a new step holding the same inputs: nothing changes but a wheel turn
            self.just_down = self.just_up = self.mouse_just_down = self.mouse_just_up = frozenset()
            self._key_repeat()
            if new.wheel != (0, 0):
                self._post_wheel(new.wheel)
            return
        self.held = new
        down, up = new.keys - old.keys, old.keys - new.keys
        self.just_down, self.just_up = frozenset(down), frozenset(up)
        mods = self.mods_now()
        for k in sorted(up):
            self._post(pg.event.Event(pg.KEYUP, key=k, mod=mods, unicode="", scancode=0, window=None))
            self.repeat_due.pop(k, None)
        for k in sorted(down):
            uni = _unicode(k, mods)
            self._post(pg.event.Event(pg.KEYDOWN, key=k, mod=mods, unicode=uni, scancode=0, window=None))
            if uni:
                self._post(pg.event.Event(pg.TEXTINPUT, text=uni, window=None))
            if self.repeat[0] > 0:
                self.repeat_due[k] = self.now + self.repeat[0]
        self._key_repeat()
        buttons = (1 in new.mouse_buttons, 2 in new.mouse_buttons, 3 in new.mouse_buttons)
        if new.mouse_pos != self.mouse_pos:
            rel = (new.mouse_pos[0] - self.mouse_pos[0], new.mouse_pos[1] - self.mouse_pos[1])
            self.mouse_rel[0] += rel[0]
            self.mouse_rel[1] += rel[1]
            self.mouse_pos = new.mouse_pos
            self._post(pg.event.Event(pg.MOUSEMOTION, pos=self.mouse_pos, rel=rel, buttons=buttons,
                                      touch=False, window=None))
        mdown, mup = new.mouse_buttons - old.mouse_buttons, old.mouse_buttons - new.mouse_buttons
        self.mouse_just_down, self.mouse_just_up = frozenset(mdown), frozenset(mup)
        for b in sorted(mup):
            self._post(pg.event.Event(pg.MOUSEBUTTONUP, pos=self.mouse_pos, button=b, touch=False, window=None))
        for b in sorted(mdown):
            self._post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=self.mouse_pos, button=b, touch=False,
                                      window=None))
        if new.wheel != (0, 0):
            self._post_wheel(new.wheel)
        old_axes = {(j, a): v for j, a, v in old.joy_axes}
        new_axes = {(j, a): v for j, a, v in new.joy_axes}
        for (j, a) in sorted(old_axes.keys() | new_axes.keys()):
            v = new_axes.get((j, a), 0.0)
            if v != old_axes.get((j, a), 0.0):
                self._post(pg.event.Event(pg.JOYAXISMOTION, joy=j, instance_id=j, axis=a, value=v))
        for j, b in sorted(old.joy_buttons - new.joy_buttons):
            self._post(pg.event.Event(pg.JOYBUTTONUP, joy=j, instance_id=j, button=b))
        for j, b in sorted(new.joy_buttons - old.joy_buttons):
            self._post(pg.event.Event(pg.JOYBUTTONDOWN, joy=j, instance_id=j, button=b))
        old_hats = {(j, h): v for j, h, v in old.joy_hats}
        new_hats = {(j, h): v for j, h, v in new.joy_hats}
        for (j, h) in sorted(old_hats.keys() | new_hats.keys()):
            v = new_hats.get((j, h), (0, 0))
            if v != old_hats.get((j, h), (0, 0)):
                self._post(pg.event.Event(pg.JOYHATMOTION, joy=j, instance_id=j, hat=h, value=v))

    def _post_wheel(self, wheel: tuple[int, int]) -> None:
        x, y = wheel
        self._post(pygame.event.Event(pygame.MOUSEWHEEL, x=x, y=y, flipped=False, precise_x=float(x),
                                      precise_y=float(y), touch=False, window=None))

    def mods_now(self) -> int:
        m = 0
        for k in self.held.keys:
            m |= _MOD_OF_KEY.get(k, 0)
        return m

    def _key_repeat(self) -> None:
        delay, interval = self.repeat
        if delay <= 0:
            return
        for k in sorted(self.held.keys):
            due = self.repeat_due.get(k)
            if due is not None and self.now >= due:
                self._post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=self.mods_now(),
                                              unicode=_unicode(k, self.mods_now()), scancode=0, window=None))
                self.repeat_due[k] = self.now + max(interval, 1)

    # ---- frames
    def boundary(self, kind: str) -> None:
        """A frame boundary in the game's loop (tick, flip, update, wait, idle)."""
        if self.group and not self.input_read and kind not in self.group:
            self.group.add(kind)  # merged with the boundary just before it
            return
        self.group = {kind}
        self.input_read = False
        self.reads = 0
        self.frame_end()

    def frame_end(self) -> None:
        now = _FRAME_CLOCK()  # a system call on Linux (a thread's CPU clock has no vDSO): one per frame
        work = (now - self._work_t0) * 1000.0
        self.game_work_ms += work
        if not self.started:
            self.startup_ms += work
            self.started = self.input_seen
        elif work > self.max_frame_ms:
            self.max_frame_ms = work
        self.frame_no += 1
        if not self.uses_clock and not self.game_advanced:
            self.advance(self.frame_ms)
        self.game_advanced = False
        self._check_done()
        self.frames_left -= 1
        if self.hold_left is not None:
            self.hold_left -= 1
            if self.hold_left <= 0:
                self.target = self.target.released()
                self.hold_left = None
        if self.frames_left > 0 and self.done_reason is None:
            self.apply_inputs(self.target)
            self._work_t0 = now  # the next frame's work includes this bookkeeping (microseconds)
            return
        playing = answer_step(self, self.observe(done=self.done_reason is not None))  # (its batch's next step set up)
        if self.steps_done == 1:
            warm.note(self.opts.warm_notes)  # what the game loaded to reach its first frame
        if not playing:
            self.next_command()
        self._work_t0 = _FRAME_CLOCK()

    def _check_done(self) -> None:
        if self.done_reason is not None:
            return
        names = self.cfg.done_events
        if names:
            for ev in self.sink.events:
                if ev.name in names:
                    self.done_reason = f"event {ev.name}"
                    return
        if self._done_pred is not None and self._done_pred(self.sink.numeric_features()):
            self.done_reason = f"done_when {self.cfg.done_when}"

    def next_command(self) -> None:
        """Block until the parent says what to do next, and set up the next step (`episode.serve`)."""
        serve(self)

    # ---- the episode protocol (drive.episode.serve)
    def over(self) -> bool:
        return self.done_reason is not None

    def final_observation(self) -> Observation:
        return self.observe(done=True)

    def perform(self, action: int) -> tuple[InputFrame, int | None]:
        self.ctx.held, self.ctx.features = self.held, self.sink.numeric_features()
        self.ctx.screen_size = self.screen_size
        return self.space.perform(action, self.ctx)  # type: ignore[union-attr]

    def begin_step(self, inputs: InputFrame, frames: int, hold: int | None) -> None:
        self.frames_left = frames
        self.hold_left = hold if hold and hold < self.frames_left else None
        self.target = inputs
        self.step_reads = 0
        self.game_work_ms = self.max_frame_ms = 0.0
        self.apply_inputs(inputs)

    def end(self) -> None:
        warm.note(self.opts.warm_notes)
        if self.code is not None:
            try:
                self.send(wire.Coverage(self.code.new_lines()))
            except OSError:
                pass  # the parent is gone: nobody reads it
        end_process()

    def call(self, target: str, args: tuple[Any, ...]) -> tuple[Any, Any]:
        return _call_in_game(self, target, args)  # a playtester function in the live game (analysis, hooks)

    def snapshot(self) -> None:
        snapshot_fork(self)  # park a forked copy of this episode (Go-Explore's return)

    def grab_frame(self) -> np.ndarray | None:
        surf = pygame.display.get_surface() if pygame.display.get_init() else None
        if surf is None:
            return self.last_frame
        try:
            size = surf.get_size()
            self.screen_size = size
            if self.capture is None:
                return None
            if isinstance(self.capture, tuple) and tuple(self.capture) != size:
                surf = pygame.transform.scale(surf, self.capture)
            w, h = surf.get_size()
            frame = np.frombuffer(pygame.image.tobytes(surf, "RGB"), dtype=np.uint8).reshape(h, w, 3)
        except pygame.error:
            return self.last_frame
        self.last_frame = frame
        return frame

    def observe(self, done: bool = False, exit: GameExit | None = None) -> Observation:
        frame = self.grab_frame()
        sink = self.sink
        features = sink.numeric_features()
        reward = 0.0
        if self.cfg.reward_feature and self.cfg.reward_feature in features:
            value = features[self.cfg.reward_feature]
            reward = 0.0 if self.reward_prev is None else value - self.reward_prev
            self.reward_prev = value
        mask = None
        if self.space is not None:
            self.ctx.held, self.ctx.features, self.ctx.screen_size = self.held, features, self.screen_size
            mask = self.space.mask(self.ctx)
        info: dict[str, Any] = {"inputs_read": self.step_reads, "screen_size": self.screen_size,
                                "game_work_ms": self.game_work_ms, "max_frame_ms": self.max_frame_ms,
                                "held": self.held, "scene": scene()}
        self.steps_done += 1
        code = self.code
        if code is not None:
            stopped = code.end_step()
            if stopped:
                info["code_stopped"] = self.steps_done
            if stopped or done or exit is not None or self.steps_done % self.opts.code_every == 0:
                info["code_lines"] = code.new_lines()
        if exit is not None:
            info["exit"] = exit
        if self.done_reason:
            info["done_reason"] = self.done_reason
        if not self.startup_sent:
            info["startup_ms"] = self.startup_ms
            info["started"] = self.started
            self.startup_sent = self.started
        if len(self.silenced) > self.silenced_sent:
            info["audio_silenced"] = self.silenced[self.silenced_sent:]
            self.silenced_sent = len(self.silenced)
        events, checks, entities, logs = sink.snapshot()
        return Observation(frame=frame, features=features, events=events, checks=checks, logs=logs,
                           entities=entities,
                           done=done or exit is not None, frame_no=self.frame_no, time_ms=int(self.now),
                           reward=reward, action_mask=mask, info=info)

    def send(self, msg: wire.Message) -> None:
        send(self.conn, msg)

    # ---- audio
    def silence_audio(self, source: Any, error: BaseException) -> bool:
        """Whether a sound or music file that failed to load plays as silence instead (recording it).

        Only with ``silent_audio`` on, the mixer running and the file there: a missing file, a mixer the
        game never started or silencing turned off raise as the game would without playtester."""
        if not _silent_audio_on(self.cfg) or not pygame.mixer.get_init():
            return False
        if isinstance(source, (str, bytes, os.PathLike)):
            path = os.fsdecode(source)
            if not os.path.isfile(path):
                return False
            name = path
            # named from the game's folder: the episode's copy (its cwd) or the original one, where code that builds
            # paths from its own __file__ reads its assets (`drive.isolation` copies the folder, not the code)
            for base in (os.getcwd(), self.spec.workdir):
                if base and os.path.isabs(path) and path.startswith(os.path.join(os.path.abspath(base), "")):
                    name = os.path.relpath(path, base)
                    break
        elif hasattr(source, "read"):
            name = str(getattr(source, "name", None) or repr(source))
        else:
            return False
        if all(f != name for f, _ in self.silenced):
            self.silenced.append((name, str(error) or type(error).__name__))
        return True


def _call_in_game(rt: Runtime, target: str, args: tuple[Any, ...]) -> tuple[bool, Any]:
    """Run ``module:function(rt, *args)`` inside the episode process; (True, result) or (False, error)."""
    import importlib

    module, _, name = target.partition(":")
    if not module.startswith("playtester."):
        return False, f"refused to call {target!r}: only playtester functions run in the game process"
    try:
        fn = getattr(importlib.import_module(module), name)
        return True, fn(rt, *args)
    except Exception as e:  # noqa: BLE001 - reported to the parent, never a game crash
        if lifetime.is_memory_error(e):  # past the episode's limit: room to answer, then the limit again
            lifetime.use_headroom()
            text = "".join(traceback.format_exception(e))[-4000:]
            del e
            lifetime.apply_memory_limit(rt.opts.memory_limit_mb)
            return "memory", text
        return False, "".join(traceback.format_exception(e))[-4000:]


class LiveGame:
    """A handle on the live game for action spaces that read game objects (``ActionContext.game``).

    Masks and actions are computed at a frame boundary, inside the game's own call stack, so the
    frame running the game's main loop is found by walking up from here.
    """

    def __init__(self) -> None:
        self._frames: dict[tuple[str, str, int], Any] = {}

    def frame(self, file: str, name: str, firstlineno: int) -> Any:
        """The live frame of the game function (file, name, first line), or None."""
        f = sys._getframe(1)
        while f is not None:
            c = f.f_code
            if c.co_firstlineno == firstlineno and c.co_name == name and c.co_filename == file:
                return f
            f = f.f_back
        return None

    def module_globals(self, file: str) -> dict[str, Any] | None:
        """The globals of the loaded module whose source is ``file`` (the main script included)."""
        for m in list(sys.modules.values()):
            if getattr(m, "__file__", None) == file:
                return m.__dict__
        f = sys._getframe(1)
        while f is not None:
            if f.f_code.co_filename == file:
                return f.f_globals
            f = f.f_back
        return None


# ------------------------------------------------------------------------------------------ snapshots
SNAPSHOT_DONE_FD: int | None = None  # the host's pipe: a resumed snapshot writes a byte when its episode ended
_SNAPSHOT_SIG = 12  # SIGUSR2: wakes a parked snapshot
_snapshot_children: list[int] = []


def _audio_lock(lock: bool) -> None:
    """Hold SDL's audio device lock across a fork, so the child never inherits it held by the audio
    thread (which does not exist in the child). Best effort: only when the mixer runs."""
    try:
        if not (pygame is not None and pygame.mixer.get_init()):
            return
        lib = _sdl_lib()
        if lib is not None:
            (lib.SDL_LockAudio if lock else lib.SDL_UnlockAudio)()
    except Exception:  # noqa: BLE001 - sound is never worth failing a snapshot
        pass


_SDL: list[Any] = []


def _sdl_lib() -> Any:
    if not _SDL:
        import ctypes

        lib = None
        try:
            with open("/proc/self/maps") as f:
                paths = {line.split()[-1] for line in f if "libSDL2-2.0" in line}
            if paths:
                lib = ctypes.CDLL(sorted(paths)[0])
        except OSError:
            lib = None
        _SDL.append(lib)
    return _SDL[0]


def snapshot_fork(rt: Runtime) -> None:
    """Answer a ``snapshot`` command: fork a copy of this episode process that parks (blocked in
    ``sigwait``) and tell the parent its pid; this process goes on as the live episode.

    Each time the parked copy receives SIGUSR2 (the host sends it on ``("resume", pid)``), it forks a
    child that becomes the live episode, exactly in the state of the snapshot (interpreter, game,
    virtual clock, random generators), says ``hello``, and waits for commands; the parked copy waits for
    that child, reports its exit status as the host does (`messages.Exited`), writes a byte to
    the host's done pipe, and parks again, so one snapshot can be resumed any number of times.
    """
    import signal

    for pid in list(_snapshot_children):  # reap snapshots the parent has dropped (killed)
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                _snapshot_children.remove(pid)
        except ChildProcessError:
            _snapshot_children.remove(pid)
    signal.pthread_sigmask(signal.SIG_BLOCK, {_SNAPSHOT_SIG})  # before the fork: no early wake-up is lost
    # CPython reseeds the module-level random generator in every forked child (os.register_at_fork in
    # random.py); the snapshot and each resumed episode put the episode's generator state back
    rng_state = random.getstate()
    _audio_lock(True)
    try:
        pid = os.fork()
    except OSError:  # too many processes: no snapshot, the episode goes on
        _audio_lock(False)
        rt.send(wire.SnapshotTaken(None))
        return
    _audio_lock(False)
    if pid:
        _snapshot_children.append(pid)
        rt.send(wire.SnapshotTaken(pid))
        return
    _snapshot_children.clear()
    random.setstate(rng_state)
    parked = os.getpid()
    try:
        while True:
            if signal.sigtimedwait({_SNAPSHOT_SIG}, SNAPSHOT_POLL_S) is None:
                if HOST_PID is not None and not lifetime.alive(HOST_PID):
                    end_process(0)  # the worker is gone (its parent died): so is this snapshot
                continue
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})  # the child's end wakes the wait below
            _audio_lock(True)
            child = os.fork()
            _audio_lock(False)
            if child == 0:
                lifetime.die_with_parent(parked)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
                _snapshot_children.clear()
                random.setstate(rng_state)
                rt.send(wire.Hello(os.getpid()))
                return  # back in next_command: this process is now the live episode
            status, peak_kb = _wait_resumed_child(child)
            try:
                send(rt.conn, wire.Exited(child, status, peak_kb))
                if SNAPSHOT_DONE_FD is not None:
                    os.write(SNAPSHOT_DONE_FD, b"x")
            except OSError:
                end_process(0)
    except BaseException:  # noqa: BLE001 - a parked snapshot never runs the game's code on its own
        end_process(0)


def _wait_resumed_child(child: int) -> tuple[int, int]:
    """In a parked snapshot: wait for the episode resumed from it (its exit status and peak memory in KiB),
    looking for the host every `SNAPSHOT_POLL_S`; when the host is gone, end the child and this process."""
    import signal

    while True:
        try:
            pid, status, usage = os.wait4(child, os.WNOHANG)
        except InterruptedError:
            continue
        if pid:
            return status, int(usage.ru_maxrss)
        if signal.sigtimedwait({signal.SIGCHLD}, SNAPSHOT_POLL_S) is None and HOST_PID is not None \
                and not lifetime.alive(HOST_PID):
            os.kill(child, signal.SIGKILL)
            end_process(0)


class _Pressed:
    """Builds ``key.get_pressed()`` results: real ScancodeWrapper objects answering from held keys."""

    cls: Any = None

    @classmethod
    def build(cls, keys: frozenset[int]) -> Any:
        if cls.cls is None:
            base = pygame.key.ScancodeWrapper

            class VirtualPressed(base):  # type: ignore[misc, valid-type]
                def __getitem__(self, key: Any) -> Any:
                    if isinstance(key, slice):
                        return tuple.__getitem__(self, key)
                    return key in self.held

            cls.cls = VirtualPressed
        obj = cls.cls([False] * 512)
        obj.held = keys
        return obj


def _unicode(key: int, mods: int) -> str:
    if 32 <= key < 127:
        ch = chr(key)
        if mods & pygame.KMOD_SHIFT and ch.isalpha():
            ch = ch.upper()
        return ch
    return ""


# ------------------------------------------------------------------------------------ patched pygame
class VirtualClock:
    """``pygame.time.Clock`` on the virtual clock: ``tick`` never sleeps and ends a frame."""

    def __init__(self) -> None:
        self._last = RT.now if RT else 0.0
        self._time = 0.0
        self._fps = 0.0

    def tick(self, framerate: float = 0) -> int:
        rt = RT
        assert rt is not None
        rt.uses_clock = True
        rt.game_advanced = True
        step = 1000.0 / framerate if framerate and framerate > 0 else rt.frame_ms
        target = self._last + step
        if rt.now < target:
            rt.advance(target - rt.now)
        elapsed = rt.now - self._last
        self._last = rt.now
        self._time = elapsed
        self._fps = 1000.0 / elapsed if elapsed > 0 else 0.0
        rt.boundary("tick")
        return int(round(elapsed))

    tick_busy_loop = tick

    def get_time(self) -> int:
        return int(round(self._time))

    def get_rawtime(self) -> int:
        return 0

    def get_fps(self) -> float:
        return self._fps


class VirtualJoystick:
    """``pygame.joystick.Joystick(i)`` for a virtual joystick with 6 axes, 16 buttons and 1 hat."""

    def __init__(self, index: int) -> None:
        if RT is None or not 0 <= index < RT.cfg.joysticks:
            raise pygame.error("Invalid joystick device number")
        self._i = index

    def init(self) -> None:
        pass

    def quit(self) -> None:
        pass

    def get_init(self) -> bool:
        return True

    def get_id(self) -> int:
        return self._i

    def get_instance_id(self) -> int:
        return self._i

    def get_guid(self) -> str:
        return f"playtester-virtual-{self._i}"

    def get_name(self) -> str:
        return f"playtester virtual joystick {self._i}"

    def get_power_level(self) -> str:
        return "wired"

    def get_numaxes(self) -> int:
        return 6

    def get_numbuttons(self) -> int:
        return 16

    def get_numhats(self) -> int:
        return 1

    def get_numballs(self) -> int:
        return 0

    def get_axis(self, axis: int) -> float:
        return RT.joy_axis(self._i, axis)  # type: ignore[union-attr]

    def get_button(self, button: int) -> bool:
        return RT.joy_button(self._i, button)  # type: ignore[union-attr]

    def get_hat(self, hat: int) -> tuple[int, int]:
        return RT.joy_hat(self._i, hat)  # type: ignore[union-attr]

    def get_ball(self, ball: int) -> tuple[int, int]:
        return (0, 0)

    def rumble(self, *args: Any, **kwargs: Any) -> bool:
        return True

    def stop_rumble(self) -> None:
        pass


def prepare_host(host_pid: int, snapshot_done_fd: int) -> None:
    """Once in a worker host (the pygame backend's ``prepare_host``): install the virtual devices; parked
    snapshots watch ``host_pid`` and say on ``snapshot_done_fd`` when a resumed episode ended."""
    global HOST_PID, SNAPSHOT_DONE_FD
    install()
    warm.install_code_cache()
    HOST_PID, SNAPSHOT_DONE_FD = host_pid, snapshot_done_fd


def prepare_episode(opts: EpisodeOptions) -> None:
    """In the host, before an episode forks (``prepare_episode``): code tracing is imported once here, and
    what earlier episodes loaded (`playtester.drive.warm`)."""
    if opts.code_include and opts.code_trace:
        prepare_code_tracing()
    warm.warm(opts.warm_notes)


def install() -> None:
    """Import pygame and replace its device, event, time and flip functions with virtual ones.

    Called once in the worker host, before any game code is imported; the patched functions act on
    the `Runtime` of the current episode process (`RT`).
    """
    global pygame
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import subprocess  # noqa: F401  (bound to the real clocks before the game's become virtual: REAL_WAITS)

    import numpy.random  # noqa: F401  (every episode seeds it: loaded once here, not in each episode process)
    import pygame as pg
    import pygame.locals  # noqa: F401  (games import it; have it loaded before the fork)

    pygame = pg
    for name in ("KMOD_LSHIFT", "KMOD_RSHIFT", "KMOD_LCTRL", "KMOD_RCTRL", "KMOD_LALT", "KMOD_RALT",
                 "KMOD_LMETA", "KMOD_RMETA", "KMOD_LGUI", "KMOD_RGUI"):
        key = "K_" + name[5:]
        if hasattr(pg, key) and hasattr(pg, name):
            _MOD_OF_KEY[getattr(pg, key)] = getattr(pg, name)
    ev, key, mouse, tm, disp, joy = pg.event, pg.key, pg.mouse, pg.time, pg.display, pg.joystick
    _ORIG.update(flip=disp.flip, update=disp.update, set_mode=disp.set_mode)

    def rt() -> Runtime:
        assert RT is not None, "playtester's virtual devices are used outside an episode"
        return RT

    # events
    ev.get = lambda eventtype=None, pump=True, exclude=None: rt().take(eventtype, exclude)

    def poll() -> Any:
        r = rt()
        r.note_read()
        return r.queue.pop(0) if r.queue else pg.event.Event(pg.NOEVENT)

    def peek(eventtype: Any = None, pump: bool = True) -> bool:
        r = rt()
        r.note_read()
        types = r._types(eventtype)
        return any(types is None or e.type in types for e in r.queue)

    def clear(eventtype: Any = None, pump: bool = True) -> None:
        r = rt()
        types = r._types(eventtype)
        r.queue = [] if types is None else [e for e in r.queue if e.type not in types]

    def set_blocked(t: Any) -> None:
        r = rt()
        if t is None:
            r.blocked = set(range(pg.NUMEVENTS)) if hasattr(pg, "NUMEVENTS") else set(range(0x10000))
        else:
            r.blocked |= r._types(t) or set()

    def set_allowed(t: Any) -> None:
        r = rt()
        r.blocked = set() if t is None else r.blocked - (r._types(t) or set())

    ev.poll = poll
    ev.wait = lambda timeout=0: rt().wait(timeout)
    ev.peek = peek
    ev.pump = lambda *a, **k: rt().note_read()
    ev.clear = clear
    ev.post = lambda event: rt()._post(event)
    ev.set_blocked = set_blocked
    ev.set_allowed = set_allowed
    ev.get_blocked = lambda t: bool((rt()._types(t) or set()) & rt().blocked)

    # keyboard
    key.get_pressed = lambda: rt().pressed()
    key.get_mods = lambda: rt().mods()

    def set_mods(m: int) -> None:
        rt().mods_override = m

    key.set_mods = set_mods
    key.get_focused = lambda: True
    if hasattr(key, "get_just_pressed"):
        key.get_just_pressed = lambda: (rt().note_read(), _Pressed.build(rt().just_down))[1]
        key.get_just_released = lambda: (rt().note_read(), _Pressed.build(rt().just_up))[1]

    def set_repeat(delay: int = 0, interval: int = 0) -> None:
        rt().repeat = (int(delay), int(interval or delay))

    key.set_repeat = set_repeat
    key.get_repeat = lambda: rt().repeat

    # mouse
    def get_pos(*a: Any, **k: Any) -> tuple[int, int]:
        r = rt()
        r.note_read()
        return r.mouse_pos

    def get_pressed(num_buttons: int = 3, **k: Any) -> tuple[bool, ...]:
        r = rt()
        r.note_read()
        return tuple(b in r.held.mouse_buttons for b in range(1, num_buttons + 1))

    def get_rel() -> tuple[int, int]:
        r = rt()
        r.note_read()
        rel = (r.mouse_rel[0], r.mouse_rel[1])
        r.mouse_rel = [0, 0]
        return rel

    def set_pos(*pos: Any) -> None:
        p = pos[0] if len(pos) == 1 else pos
        r = rt()
        r.mouse_pos = (int(p[0]), int(p[1]))
        r.held = InputFrame(r.held.keys, r.mouse_pos, r.held.mouse_buttons, (0, 0), r.held.joy_axes,
                            r.held.joy_buttons, r.held.joy_hats)

    mouse.get_pos = get_pos
    mouse.get_pressed = get_pressed
    mouse.get_rel = get_rel
    mouse.set_pos = set_pos
    mouse.get_focused = lambda: True
    if hasattr(mouse, "get_just_pressed"):
        def _just(buttons: frozenset[int]) -> tuple[bool, ...]:
            rt().note_read()
            return tuple(b in buttons for b in range(1, 6))

        mouse.get_just_pressed = lambda: _just(rt().mouse_just_down)
        mouse.get_just_released = lambda: _just(rt().mouse_just_up)

    # joystick
    joy.get_count = lambda: (rt().note_read(), rt().cfg.joysticks)[1]
    joy.Joystick = VirtualJoystick
    joy.JoystickType = VirtualJoystick
    if hasattr(pg, "Joystick"):
        pg.Joystick = VirtualJoystick

    # time
    tm.get_ticks = lambda: rt().ticks()

    def delay(ms: int) -> int:
        rt().delay(ms)
        return int(ms)

    tm.delay = delay
    tm.wait = delay

    def set_timer(event: Any, millis: int, loops: int = 0) -> None:
        r = rt()
        e = event if isinstance(event, pg.event.EventType) else pg.event.Event(int(event))
        if millis <= 0:
            r.timers.pop(e.type, None)
        else:
            r.timers[e.type] = [r.now + millis, float(millis), int(loops), e]

    tm.set_timer = set_timer
    tm.Clock = VirtualClock
    if hasattr(pg, "Clock"):
        pg.Clock = VirtualClock

    # display: a flip or update ends a frame
    def flip() -> None:
        _ORIG["flip"]()
        rt().boundary("flip")

    def update(*a: Any, **k: Any) -> None:
        _ORIG["update"](*a, **k)
        rt().boundary("update")

    def set_mode(*a: Any, **k: Any) -> Any:
        surf = _ORIG["set_mode"](*a, **k)
        if RT is not None:
            RT.screen_size = surf.get_size()
        flags = a[1] if len(a) > 1 else k.get("flags", 0)
        _set_fullscreen(bool(int(flags or 0) & pg.FULLSCREEN))  # as a real display: the mode's flag decides
        _MODES[0] += 1  # a new mode sizes the window again (ends the virtual sizes of headless windows)
        if RT is not None and not RT.window_shown:
            RT.window_shown = True
            for ev in _desktop_window_events(pg):
                RT._post(ev)
        return surf

    disp.flip = flip
    disp.update = update
    disp.set_mode = set_mode

    _install_silent_audio(pg)
    _install_headless_fullscreen(pg)

    # sprite groups, for the scene abstraction
    import pygame.sprite as sprite

    group_init = sprite.AbstractGroup.__init__

    def tracked_init(self: Any, *a: Any, **k: Any) -> None:
        group_init(self, *a, **k)
        _GROUPS.append(weakref.ref(self))

    sprite.AbstractGroup.__init__ = tracked_init


def _silent_audio_on(cfg: Any) -> bool:
    """``silent_audio`` of the config; unset: on when no real audio device is in use (SDL's dummy or disk
    driver, which workers use, or no output device at all)."""
    if cfg.silent_audio is not None:
        return bool(cfg.silent_audio)
    driver = os.environ.get("SDL_AUDIODRIVER", "")
    try:
        if pygame.mixer.get_init():
            driver = pygame.mixer.get_driver()
    except (AttributeError, pygame.error):
        pass
    return driver.lower() in ("", "dummy", "disk")


HEADLESS_VIDEO = ("dummy", "offscreen")  # SDL video drivers with no display behind them
_FULLSCREEN = [False]  # the virtual fullscreen state of this episode (a fresh fork of the host: windowed)
_FULLSCREEN_CHANGES = [0]  # how many times the virtual fullscreen state changed in this episode
_MODES = [0]  # set_mode calls so far: a headless window's virtual size holds until the next one


def fullscreen_state(rt: Any) -> tuple[bool, int]:
    """The window's (virtual) fullscreen state and how many times it changed in this episode so far, under a
    headless driver: a `Worker.call` target (``playtester init`` asks it before and after a key to find a
    fullscreen key; a key that goes fullscreen and back in one press changes it twice)."""
    return bool(_FULLSCREEN[0]), _FULLSCREEN_CHANGES[0]


def _set_fullscreen(value: bool) -> None:
    if bool(value) != _FULLSCREEN[0]:
        _FULLSCREEN_CHANGES[0] += 1
    _FULLSCREEN[0] = bool(value)


def _install_headless_fullscreen(pg: Any) -> None:
    """Fullscreen on a display that does not exist. Under SDL's dummy driver (the workers' default),
    ``pygame.display.toggle_fullscreen()`` raises "That operation is not supported", and a window put in
    exclusive fullscreen (``Window.set_fullscreen(False)``) crashes the process natively (SIGSEGV or SIGABRT) in
    the next ``set_mode(size, SCALED)`` (pygame-ce 2.5.8, SDL 2.32.10). Both work on a real display (X11 under
    Xvfb): crashes of the headless setup, not of the game (zombie-escape's fullscreen key died so in every run).
    Under a headless driver fullscreen is therefore virtual: those calls succeed, ``display.is_fullscreen()``
    answers what they and ``set_mode``'s ``FULLSCREEN`` flag set (as X11 under Xvfb answers), nothing reaches SDL,
    and the game's frames keep their size.

    So is the size of a window: growing a ``SCALED`` window (``Window.size = ...``, a game's window-scale key)
    and setting the mode again corrupts the dummy driver's heap ("double free or corruption", then SIGABRT,
    SIGSEGV or a deadlock; zombie-escape's window-scale keys on its title screen), where X11 under Xvfb resizes
    the window. Under a headless driver a window's ``size`` answers the size last set on it until the next
    ``set_mode``, and the display surface (the frames) keeps the mode's size, as a SCALED window's does on a real
    display."""
    if os.environ.get("SDL_VIDEODRIVER", "").lower() not in HEADLESS_VIDEO:
        return
    disp = pg.display

    def toggle_fullscreen() -> int:
        _set_fullscreen(not _FULLSCREEN[0])
        return 1

    disp.toggle_fullscreen = toggle_fullscreen
    if hasattr(disp, "is_fullscreen"):
        disp.is_fullscreen = lambda: _FULLSCREEN[0]
    base = getattr(pg, "Window", None)
    if base is None:
        try:
            from pygame._sdl2.video import Window as base  # type: ignore[import-not-found,no-redef]
        except Exception:  # noqa: BLE001 - a pygame without windows: nothing to make virtual
            return

    class HeadlessWindow(base):  # type: ignore[misc,valid-type]
        """A window of the headless display: fullscreen and windowed only set the virtual state."""

        def set_fullscreen(self, desktop: bool = False) -> None:
            _set_fullscreen(True)

        def set_windowed(self) -> None:
            _set_fullscreen(False)

        @property  # type: ignore[misc]
        def size(self) -> tuple[int, int]:
            mode, size = self.__dict__.get("_virtual_size", (None, None))
            return size if mode == _MODES[0] else base.size.__get__(self)

        @size.setter
        def size(self, value: Any) -> None:
            w, h = value
            self.__dict__["_virtual_size"] = (_MODES[0], (int(w), int(h)))  # this window's, until the next mode

    HeadlessWindow.__name__ = HeadlessWindow.__qualname__ = "Window"
    import importlib

    for where in ("pygame", "pygame.window", "pygame._sdl2", "pygame._sdl2.video"):
        try:
            mod = importlib.import_module(where)
        except Exception:  # noqa: BLE001 - not in this pygame
            continue
        if getattr(mod, "Window", None) is base:
            mod.Window = HeadlessWindow


def _install_silent_audio(pg: Any) -> None:
    """``mixer.music.load/queue/play`` and ``mixer.Sound(file)``: a file this machine cannot decode (MIDI
    without a synth) loads and plays as silence when ``silent_audio`` is on (`Runtime.silence_audio`)."""
    mixer = getattr(pg, "mixer", None)
    music = getattr(mixer, "music", None)
    if mixer is None or music is None:
        return  # pygame built without its mixer
    load, play, queue = music.load, music.play, music.queue
    _ORIG.update(music_load=load, music_play=play, music_queue=queue, Sound=mixer.Sound)

    def decoded(call: Any, a: tuple[Any, ...], k: dict[str, Any]) -> bool:
        """Run a music call; False when its file cannot be decoded here and is silenced instead."""
        try:
            call(*a, **k)
            return True
        except pg.error as e:
            if RT is None or not RT.silence_audio(a[0] if a else k.get("filename"), e):
                raise
            return False

    def music_load(*a: Any, **k: Any) -> None:
        ok = decoded(load, a, k)
        if RT is not None:
            RT.music_silent = not ok

    def music_play(*a: Any, **k: Any) -> None:
        if RT is not None and RT.music_silent:
            return  # silence
        play(*a, **k)

    def music_queue(*a: Any, **k: Any) -> None:
        decoded(queue, a, k)

    music.load, music.play, music.queue = music_load, music_play, music_queue

    class Sound(mixer.Sound):  # type: ignore[misc, valid-type]
        __doc__ = mixer.Sound.__doc__

        def __init__(self, *a: Any, **k: Any) -> None:
            try:
                super().__init__(*a, **k)
            except pg.error as e:
                source = a[0] if a else k.get("file")
                if "buffer" in k or "array" in k or RT is None or not RT.silence_audio(source, e):
                    raise
                super().__init__(buffer=bytes(4))  # one silent sample

    Sound.__name__ = Sound.__qualname__ = "Sound"
    Sound.__module__ = mixer.Sound.__module__
    mixer.Sound = Sound
    if getattr(pg, "Sound", None) is _ORIG["Sound"]:
        pg.Sound = Sound


def _restore_audio() -> None:
    """pygame's own ``mixer.music.load/play/queue`` and ``mixer.Sound`` back (this episode process only)."""
    if "Sound" not in _ORIG:
        return
    music = pygame.mixer.music
    music.load, music.play, music.queue = _ORIG["music_load"], _ORIG["music_play"], _ORIG["music_queue"]
    if getattr(pygame, "Sound", None) is pygame.mixer.Sound:
        pygame.Sound = _ORIG["Sound"]
    pygame.mixer.Sound = _ORIG["Sound"]


# standard-library modules whose ``time.sleep`` waits for something outside the game (a child process): there it
# sleeps for real and the virtual clock stands still. ``subprocess.Popen.wait(timeout)`` polls the child with
# growing sleeps against the real clock; on the virtual clock each sleep advanced the game's time without
# waiting, so the game's time at its first frame depended on how long a child took: pygame's ``SysFont`` runs
# ``fc-list`` with a timeout, and space-invaders-pygame started at 16 ms or at 99 s of virtual time by turns.
REAL_WAITS = frozenset({"subprocess.py"})


def _install_python_time(rt: Runtime) -> None:
    """Inside the game, ``time.sleep`` advances the virtual clock (except where the standard library waits for a
    child process: `REAL_WAITS`), and wall clocks read it."""
    import time

    real_sleep = time.sleep
    stdlib = warm.STDLIB + os.sep

    def sleep(s: float) -> None:
        caller = sys._getframe(1).f_code.co_filename
        if os.path.basename(caller) in REAL_WAITS and os.path.realpath(caller).startswith(stdlib):
            real_sleep(s)  # a real wait (its deadline is on the real clock: `install` imports subprocess first)
        else:
            rt.delay(float(s) * 1000.0)

    time.sleep = sleep
    if rt.cfg.virtual_time:
        time.time = lambda: VIRTUAL_EPOCH + rt.now / 1000.0
        time.time_ns = lambda: int((VIRTUAL_EPOCH + rt.now / 1000.0) * 1e9)
        time.monotonic = lambda: rt.now / 1000.0
        time.monotonic_ns = lambda: int(rt.now * 1e6)
        time.perf_counter = lambda: rt.now / 1000.0
        time.perf_counter_ns = lambda: int(rt.now * 1e6)


# ----------------------------------------------------------------------------------------- an episode
def _frames_of(tb: Any) -> list[TraceFrame]:
    return [TraceFrame(f.filename, f.lineno or 0, f.name, (f.line or "").strip())
            for f in traceback.extract_tb(tb)]


def _load_and_run(spec: GameSpec) -> None:
    """Import the game and run its entry point (or its import-time / ``__main__`` loop)."""
    import importlib
    import importlib.util
    import runpy

    args = dict(spec.config.game_args)
    if spec.kind == "file":
        sys.argv = [spec.target]
        if spec.function is None:
            runpy.run_path(spec.target, run_name="__main__")
            return
        mod_name = os.path.splitext(os.path.basename(spec.target))[0]
        loader_spec = importlib.util.spec_from_file_location(mod_name, spec.target)
        assert loader_spec and loader_spec.loader
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[mod_name] = module
        loader_spec.loader.exec_module(module)
    else:
        sys.argv = [spec.target]
        if spec.function is None:
            runpy.run_module(spec.target, run_name="__main__", alter_sys=True)
            return
        module = importlib.import_module(spec.target)
    func = getattr(module, spec.function, None)
    if not callable(func):
        names = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_"))[:15]
        raise _SpecProblem(f"{spec.target} has no function {spec.function!r}"
                           + (f"; callables there: {', '.join(names)}" if names else ""))
    result = func(**args)
    if inspect.iscoroutine(result):  # an async main (pygbag style): run it as asyncio.run(main()) would
        import asyncio

        asyncio.run(result)


class _SpecProblem(Exception):
    pass


def _desktop_window_events(pg: Any) -> list[Any]:
    """What a desktop's SDL posts when a game's window first opens (shown, exposed, mouse and input focus), which
    the dummy video driver does not: a game that waits for focus or an expose before it draws plays as on a
    desktop (issue 54)."""
    out = [pg.event.Event(pg.WINDOWSHOWN, window=None), pg.event.Event(pg.WINDOWEXPOSED, window=None),
           pg.event.Event(pg.VIDEOEXPOSE), pg.event.Event(pg.ACTIVEEVENT, gain=1, state=1),
           pg.event.Event(pg.WINDOWENTER, window=None), pg.event.Event(pg.ACTIVEEVENT, gain=1, state=2),
           pg.event.Event(pg.WINDOWFOCUSGAINED, window=None)]
    return out


_NO_FILE = re.compile(r"No file '([^']+)' found|Couldn't open ([^\s:]+)|No such file or directory: '([^']+)'")


def _relative_file_missing(e: BaseException) -> str | None:
    """The relative path a game failed to open (FileNotFoundError, pygame's "No file 'x' found"), else None."""
    name = getattr(e, "filename", None) if isinstance(e, FileNotFoundError) else None
    if not isinstance(name, str):
        m = _NO_FILE.search(str(e)) if isinstance(e, OSError | pygame.error) else None
        name = next((g for g in m.groups() if g), None) if m else None
    if not name or os.path.isabs(name):
        return None
    return name


def run_episode(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, opts: EpisodeOptions) -> None:
    """Body of an episode process (forked from the worker host): run the game until it ends."""
    global RT
    import faulthandler
    import signal

    if opts.hang_dump:
        faulthandler.register(signal.SIGUSR1, file=open(opts.hang_dump, "w"), all_threads=False)  # noqa: SIM115
        # a fatal signal in native code (SIGSEGV in SDL, SIGABRT, SIGFPE) dumps the game's Python stack too, so
        # such a crash has a location (the worker reads it when the episode dies of a signal)
        faulthandler.enable(file=open(opts.fatal_dump, "w"), all_threads=False)  # noqa: SIM115
    warm.episode_started()
    seed_python(seed, spec.config.seeded_entropy)
    if spec.workdir:
        os.chdir(opts.folder or spec.workdir)  # the episode's own copy of the game's folder (`drive.isolation`)
    if spec.root:
        sys.path.insert(0, spec.root)
    rt = RT = Runtime(conn, spec, seed, space, opts)
    _install_python_time(rt)
    if not _silent_audio_on(rt.cfg):
        _restore_audio()  # silent_audio off: pygame's own functions, failing as without playtester
    probe._sink = rt.sink
    logging.getLogger().addHandler(_ErrorLogHandler(rt.sink))
    if opts.code_include and opts.code_trace:
        rt.code = CodeTracer(opts.code_include, opts.code_known, opts.code_patience)
        rt.code.start()
    rt.frames_left = 1  # the first frame boundary ends the reset
    send(conn, hello(os.getpid()))
    exit: GameExit
    try:
        _load_and_run(spec)
        exit = GameExit("finished", message="the game's entry point returned")
    except _SpecProblem as e:
        send(conn, wire.SpecError(str(e)))
        os._exit(0)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) or e.code is None else 1
        exit = GameExit("exit", code=code or 0, message=f"the game called sys.exit({e.code!r})")
    except BaseException as e:  # noqa: BLE001 - any game failure is a finding, reported, not raised
        exit = lifetime.exit_of_exception(e, rt.opts.memory_limit_mb, skip_file=__file__)
        while len(exit.frames) > 1 and exit.frames[-1].file == __file__:
            exit.frames.pop()  # a replaced pygame function that raised: the game's call is where it failed
        from playtester.drive.sandbox import denial_note

        note = denial_note(e)
        if note is not None:
            exit.message = f"{exit.message} {note}"[:2000]
        missing = _relative_file_missing(e)
        if missing is not None:
            from playtester.drive.workdir import describe

            exit.message = (f"{exit.message} [{missing!r} is a path relative to the working folder: "
                            f"{describe(spec.workdir or os.getcwd(), spec.root or os.getcwd())}]")[:2000]
    try:
        rt.send(wire.Final(rt.observe(done=True, exit=exit)))
        warm.note(opts.warm_notes)
    finally:
        end_process()

