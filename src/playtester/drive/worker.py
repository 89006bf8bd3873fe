"""Worker processes: one game instance each, with a watchdog.

Layout of processes::

    parent (agent, env)  ──socket──  worker host  (python -m playtester.drive.worker)
                                        └─ fork ─  episode process: runs the game until it ends

The host imports pygame and installs the virtual devices once, then forks a fresh episode process for
every ``reset``, so each episode starts from a clean interpreter state in milliseconds. The episode
process talks to the parent directly over the inherited socket; when it ends (returns, raises, exits,
dies of a signal) the host reports its exit status. A step that does not come back within the step
timeout is a hang: the parent asks the episode process for a Python stack dump, kills the whole
worker, and the next ``reset`` starts a fresh one. None of this ever raises out of `Worker.step`:
what happened arrives as ``Observation.info["exit"]``.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import os
import pickle
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from playtester.drive import isolation, lifetime, sandbox
from playtester.drive import messages as wire
from playtester.drive.backend import backend_for, capabilities
from playtester.drive.episode import recv, send, send_many
from playtester.drive.inputs import InputFrame
from playtester.drive.observation import (
    EpisodeOptions,
    GameExit,
    Observation,
    PackedObservation,
    TraceFrame,
    plain,
    signal_name,
)
from playtester.drive.spec import GameSpec
from playtester.drive.wait import ReplyWait, host_ended, host_started
from playtester.errors import GameSpecError, MemoryLimitError, NoValidActionError, WorkerError

if TYPE_CHECKING:
    import numpy as np

    from playtester.drive.context import SpaceLike

Capture = None | str | tuple[int, int]  # None: no frame, "full": full size, (w, h): downscaled
CODE_SHARE = 0.08  # code coverage: the share of a worker's steps that are traced (see Worker)
CODE_PATIENCE = 50  # a traced episode stops tracing after this many steps in a row without a new line
# ``Observation.info`` keys that belong to the step that sent them, not to the state: a restored snapshot's
# observation leaves them out (its code lines were counted, its findings reported, its judgements read)
STEP_ONLY = frozenset({"code_lines", "detections", "findings", "judged", "state_key"})


# ------------------------------------------------------------------------------------ the host side
def host_main(fd: int, parent_pid: int) -> None:
    """Entry of the worker host process: fork one episode process per ``episode`` command."""
    lifetime.die_with_parent(parent_pid)
    conn = Connection(fd)
    host_pid = os.getpid()
    prepared: set[str] = set()  # backends whose host preparation ran (pygame: virtual devices installed)
    done_r, done_w = os.pipe()  # a resumed snapshot says "my episode ended" here (backends with snapshots)
    _become_subreaper()
    send(conn, wire.Ready(host_pid))
    while True:
        try:
            while not conn.poll(1.0):
                if os.getppid() != parent_pid:  # the parent is gone (and prctl was not there to tell us)
                    _end_group()
            msg = recv(conn)
        except (EOFError, OSError):
            os._exit(0)
        if isinstance(msg, wire.Quit):
            os._exit(0)
        if isinstance(msg, wire.Resume):  # wake a parked snapshot; its child is the live episode until it ends
            try:
                os.kill(msg.snapshot, signal.SIGUSR2)
            except OSError:
                send(conn, wire.ResumeFailed(msg.snapshot))
                continue
            _wait_resumed(done_r, msg.snapshot)
            _reap()
            continue
        if not isinstance(msg, wire.StartEpisode):
            continue
        spec, seed, space, opts = msg.spec, msg.seed, msg.space, msg.opts
        backend = backend_for(spec)
        if backend.name not in prepared:
            prepared.add(backend.name)
            if backend.prepare_host is not None:
                backend.call("prepare_host", host_pid, done_w)
        if backend.prepare_episode is not None:
            backend.call("prepare_episode", opts)  # work each episode would repeat, done once in the host
        prepare = getattr(space, "prepare", None)
        if prepare is not None:
            prepare()  # work every episode would repeat (parsing an analyzed space) is done once, here
        if opts.home:
            _fresh_home(opts.home, opts.home_from)
        if opts.game_copies and spec.workdir:
            opts.folder = isolation.fresh_copy(spec.workdir, opts.game_copies, host_pid)
        pid = os.fork()
        if pid == 0:
            try:
                lifetime.die_with_parent(host_pid)
                if opts.home:
                    _use_home(opts.home)
                lifetime.apply_memory_limit(opts.memory_limit_mb)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                backend.call("run_episode", conn, spec, seed, space, opts)
            finally:
                os._exit(70)
        status, peak_kb = _wait(pid)
        try:
            send(conn, wire.Exited(pid, status, peak_kb))
        except OSError:
            os._exit(0)
        _reap()


def _fresh_home(home: str, template: str | None) -> None:
    """Make ``home`` afresh for the next episode: a copy of ``template``, else empty (what the last episode
    saved there is gone). A template that cannot be copied leaves it empty; the game then says what it misses."""
    shutil.rmtree(home, ignore_errors=True)
    try:
        if template:
            shutil.copytree(template, home, symlinks=True)
            return
    except OSError:
        shutil.rmtree(home, ignore_errors=True)
    os.makedirs(home, exist_ok=True)


def _use_home(home: str) -> None:
    """In the episode process: ``home`` is HOME, and the XDG config, data and state folders are in it (what a
    game saves goes there); the cache folder stays the user's (a cold fontconfig cache would make pygame's
    ``SysFont`` wait on ``fc-list``)."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    os.environ.update(HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                      XDG_DATA_HOME=os.path.join(home, ".local", "share"),
                      XDG_STATE_HOME=os.path.join(home, ".local", "state"), XDG_CACHE_HOME=cache)


def _wait(pid: int) -> tuple[int, int]:
    """Wait for child ``pid``: its exit status and its peak resident memory in KiB."""
    while True:
        try:
            _, status, usage = os.wait4(pid, 0)
            return status, int(usage.ru_maxrss)
        except InterruptedError:
            continue


def _end_group() -> None:
    """Kill this host's process group (its episode and parked snapshots), and so itself."""
    try:
        os.killpg(0, signal.SIGKILL)
    finally:
        os._exit(0)


def _become_subreaper() -> None:
    """Parked snapshots whose episode process ended are re-parented to the host (Linux), which reaps them."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def _reap() -> None:
    """Collect snapshots that were dropped (killed) after their episode process had ended."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _wait_resumed(done_r: int, snapshot_pid: int) -> None:
    """Block until the episode resumed from a snapshot has ended (its snapshot writes a byte)."""
    while True:
        ready, _, _ = select.select([done_r], [], [], 1.0)
        if ready:
            os.read(done_r, 1)
            return
        if not lifetime.alive(snapshot_pid):
            return


# ---------------------------------------------------------------------------------- the parent side
def _worker_env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONHASHSEED="0", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONUNBUFFERED="1",
               HF_HUB_OFFLINE="1")
    return env


def _parse_dump(text: str) -> list[TraceFrame]:
    """Frames of a faulthandler dump, innermost last."""
    frames = [TraceFrame(m.group(1), int(m.group(2)), m.group(3))
              for m in re.finditer(r'File "([^"]+)", line (\d+) in (\S+)', text)]
    return list(reversed(frames))


def code_include_patterns(spec: GameSpec) -> list[str]:
    """coverage.py ``include`` patterns for the game's own source: its folder, its package, or its file.

    The same in the parent and in the game's process: modules are found without importing them, under the
    spec's root first (a game found in the current directory need not be importable from here)."""
    from playtester.drive.spec import locate_module, module_folder

    if spec.kind == "file":
        return [os.path.join(os.path.dirname(spec.target), "*")]
    if spec.target.startswith("playtester.games."):
        found = locate_module(spec.target)
        if found is not None and found.origin:
            return [found.origin]  # a bundled game is one file; the rest of playtester is not the game
    folder = module_folder(spec.target, spec.root)
    if folder is None:
        return [os.path.join(spec.root or os.getcwd(), "*")]
    return [os.path.join(folder, "*")]


class Plan(Protocol):
    """How an agent acting ahead chooses its next actions where the game runs (`Worker.act_ahead_async`).

    ``choose(mask)`` is the action to play in the state whose action mask is ``mask`` (``np.int8`` of the
    space's size, or None when the backend gives none): what the agent's ``act`` would answer there, from the
    mask alone (no frame, no features). It raises `NoValidActionError` (its own state left as it was) when it
    cannot choose: the batch ends before that step and the agent's ``act`` says so. A plan is small and
    picklable: a Ray worker sends it to its actor with the batch."""

    def choose(self, mask: np.ndarray | None) -> int: ...


class Stepper:
    """Blocking steps and the action check, built on a worker's own ``step_async`` / ``act_async`` /
    ``step_wait`` (the local `Worker` and `playtester.drive.ray_worker.RayWorker` alike; both are
    `playtester.drive.workerlike.WorkerLike`)."""

    space: SpaceLike | None
    can_act_ahead = True  # both workers play batches (`act_ahead_async`)

    def step(self, inputs: InputFrame, frames: int | None = None, hold: int | None = None) -> Observation:
        """Hold ``inputs`` for ``frames`` frames (the config's frames per action by default)."""
        self.step_async(inputs, frames, hold)  # type: ignore[attr-defined]
        return self.step_wait()  # type: ignore[attr-defined]

    def act(self, action: int, frames: int | None = None) -> Observation:
        """Perform action ``action`` of the worker's action space for one step."""
        self.act_async(action, frames)  # type: ignore[attr-defined]
        return self.step_wait()  # type: ignore[attr-defined]

    def act_ahead(self, action: int, plan: Plan | None, n: int,
                  frames: int | None = None) -> tuple[list[int | None], list[Observation]]:
        """A whole batch (``act_ahead_async``): the actions played and their observations, in order."""
        self.act_ahead_async(action, plan, n, frames)  # type: ignore[attr-defined]
        actions, out = [], []
        while True:
            out.append(self.step_wait())  # type: ignore[attr-defined]
            actions.append(self.played)  # type: ignore[attr-defined]
            if not self.ahead:  # type: ignore[attr-defined]
                return actions, out

    def checked_action(self, action: int) -> int:
        """``action`` as an index of the worker's space, or a WorkerError saying why it is not one."""
        if self.space is None:
            raise WorkerError("act() needs a worker created with an action space")
        if not 0 <= action < len(self.space):
            raise WorkerError(f"action {action} is outside the action space of {len(self.space)} actions")
        return int(action)


class Worker(Stepper):
    """One game instance in its own processes, stepped from the parent.

    Args:
        spec: the game to run.
        space: the action space used by `act` (and for masks); None to drive with raw `InputFrame`s.
        capture: frames to capture: None, ``"full"``, or a (width, height) to downscale to.
        code_coverage: measure statement coverage of the game's own source files (coverage.py's line
            tracer in the episode process); lines new to this worker arrive in
            ``Observation.info["code_lines"]`` and, for episodes ended with `end_episode`, in
            `final_code_lines`.
        code_share: the share of steps traced for code coverage. A line tracer slows the whole episode
            process (1.2-3x on Python 3.11), so whole episodes are traced from their start while the
            worker's traced steps are at most this share of its steps (its first episode always), and a
            traced episode stops tracing after ``code_patience`` steps in a row without a line new to
            this worker. Lines that run only in untraced steps are never counted; 1.0 and patience 0
            trace everything.
        spin: the parent may poll for a step's answer without sleeping, around when it is due, while this
            process's workers leave a core free (`playtester.drive.wait.ReplyWait`); False: always sleep.
        oracles: checking where the game runs (issue 21): a picklable callable that makes a fresh oracle suite
            (``check(obs, step) -> findings``, optionally ``notes(step) -> dict``) for each episode, or None
            (nothing is checked here). With it, every step this worker answers is checked here as it arrives
            (the reset's step 0, each step of `act` / `step`, of a batch and of `step_many`), and its findings
            ride back in the step's ``Observation.info["findings"]`` (its notes as further ``info`` keys, e.g.
            the texture oracle's ``judged``); the suite's state is copied with each snapshot and restored
            with it (see `check_step`). A `RayWorker` passes it to the `Worker` in its actor.
    """

    def __init__(self, spec: GameSpec, space: SpaceLike | None = None, capture: Capture = "full",
                 code_coverage: bool = False, memory_limit_mb: int | None = None,
                 code_share: float = CODE_SHARE, code_patience: int = CODE_PATIENCE,
                 oracles: Callable[[], Any] | None = None, spin: bool = True) -> None:
        self.spec = spec
        self.oracles = oracles
        self.state_key: Callable[[Observation], str | None] | None = None  # see `watch_states`
        # a relay (a Ray actor's Worker): a batch step nothing here reads stays pickled (`PackedObservation`)
        self.pass_through = False
        self.suite: Any = None  # the live episode's oracle suite (made by ``oracles`` at each reset)
        self._suite_snapshots: dict[int, Any] = {}  # snapshot -> a copy of the suite as it stood there
        self.capabilities = capabilities(spec)
        if memory_limit_mb is None:
            memory_limit_mb = spec.config.memory_limit_mb
        # MiB of data each episode process may use (0: no limit); None in the config: this worker alone
        self.memory_limit_mb = lifetime.auto_memory_limit_mb(1) if memory_limit_mb is None else memory_limit_mb
        self.peak_rss_kb = 0  # the largest peak resident memory of an episode process of this worker
        self.space = space
        self.capture = capture
        self.code_include = code_include_patterns(spec) if code_coverage and self.capabilities.code_coverage \
            else None
        self.final_code_lines: dict[str, list[int]] = {}
        self.code_share, self.code_patience = code_share, code_patience
        self.code_known: dict[str, set[int]] = {}  # every line this worker's episodes have reported
        self.code_steps = [0, 0]  # [traced, all] steps, for code_share
        self._code_tracing = False  # the live episode is being traced
        self._code_snapshots: dict[int, bool] = {}  # snapshot -> it was being traced
        self._proc: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self._wait: ReplyWait | None = None  # waits for the episode's answers (drive/wait.py)
        self.spin = spin
        self._tmp_dir = lifetime.worker_dir()  # also removes the folders of killed runs
        self._cleanup_tmp = weakref.finalize(self, shutil.rmtree, self._tmp_dir, True)
        self.log_path = os.path.join(self._tmp_dir, "game.log")
        self._episode_pid: int | None = None
        self._active = False  # an episode process is alive
        self._pending = False  # a step was sent, its answer not yet read
        self._sent: int | None = None  # the action of the step in flight (None: raw inputs)
        self.played: int | None = None  # the action of the step `step_wait` answered last (None: raw inputs)
        self._plan: Plan | None = None  # acting ahead: chooses the batch's next step (see act_ahead_async)
        self._plan_left = 0  # steps of the batch not sent yet
        self._plan_frames: int | None = None
        self._auto = False  # the step in flight was sent by the batch, not by the caller
        # batch steps read early (by `call`), in order: (observation, action, what `check_step` measured)
        self._held: list[tuple[Observation, int | None, wire.Checked | None]] = []
        # `check_step`'s record of the step `step_wait` answered last (None: nothing measured); a relay (a Ray actor's
        # Worker: ``typed_checks``) leaves ``obs.info`` as the game sent it and sends these fields on as they are
        self.checked: wire.Checked | None = None
        self.typed_checks = False
        self.many_checked: list[wire.Checked | None] = []  # `step_many`'s steps' records, in order
        self._episode_plays = False  # the episode process plays a batch itself (its hello said so)
        self.plan_after: Plan | None = None  # the last batch's plan as it stands after the batch's draws
        self._ebatch = False  # such a batch is under way: its steps arrive as "bobs" messages
        self._bobs: tuple[int, bool, int | None] | None = None  # the last batch step's action, whether more
        #                                                              follow, and the next one's action if known
        self._bq: deque[wire.BatchStep] = deque()  # batch steps that came in one message, not answered yet
        self._last: Observation | None = None
        self.steps = 0
        self.host_starts = 0
        self._snapshots: dict[int, tuple[Observation, int, int]] = {}  # pid -> (obs, steps, host generation)
        self._live_snapshot: int | None = None  # the snapshot the live episode was resumed from
        self._drop_later: set[int] = set()
        lifetime.register(self)

    @property
    def host_pid(self) -> int | None:
        """The worker host's pid (also its process group), while it runs."""
        return self._proc.pid if self._proc is not None and self._proc.returncode is None else None

    # ---- process management
    def _start_host(self) -> None:
        parent_sock, child_sock = socket.socketpair()
        log = open(self.log_path, "ab")  # noqa: SIM115 - owned by the host process
        # -P: the current folder (often the game's) is not put first on the host's sys.path, where a game's
        # own top-level module (a bundled old `yaml`) would shadow playtester's dependencies
        cmd = [sys.executable, "-P", "-m", "playtester.drive.worker", str(child_sock.fileno()), str(os.getpid())]
        preexec = None
        try:
            if self.spec.config.sandbox:  # under bubblewrap (`drive.sandbox`); the host's parent is then bwrap
                cmd, preexec = sandbox.host_command(cmd[:-1] + ["0"], [self._tmp_dir])
            self._proc = subprocess.Popen(
                cmd, pass_fds=(child_sock.fileno(),), env=_worker_env(), start_new_session=True,
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=preexec)
        except OSError as e:
            raise WorkerError(f"cannot start a worker process ({sys.executable}): {e}") from e
        finally:
            child_sock.close()
            log.close()
        self._conn = Connection(parent_sock.detach())
        self._wait = ReplyWait(self._conn.fileno(), enabled=self.spin)
        host_started()
        self.host_starts += 1
        msg = self._recv(timeout=60.0)
        if not isinstance(msg, wire.Ready):
            tail = self.log_tail()
            self._kill()
            raise WorkerError(f"the worker process did not start (got {msg!r}); its log ends with:\n{tail}")

    def _kill(self) -> None:
        if self._proc is not None:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if self._conn is not None:
            self._conn.close()
        if self._wait is not None:
            host_ended()
            self._wait = None
        self._proc = self._conn = None
        self._active = self._pending = False
        self._plan, self._auto, self._held, self._ebatch = None, False, [], False
        self._bq.clear()
        self._episode_pid = None
        self._snapshots.clear()  # parked snapshots die with the host's process group
        self._code_snapshots.clear()
        self._suite_snapshots.clear()
        self._live_snapshot = None
        self._drop_later.clear()

    def _recv(self, timeout: float, working: bool = False) -> wire.Message | None:
        """The next message, or None after ``timeout`` seconds. ``working``: a step's answer, waited for longer (up
        to ``slow_frame_limit_s`` in all) while the episode process keeps working: it used CPU *and* made reads or
        writes in each ``timeout`` (a game saving files in one long frame); a loop that only spins does neither
        and is a hang at ``timeout``."""
        assert self._conn is not None
        try:
            if not self._wait.wait(timeout):  # type: ignore[union-attr]
                if not working or not self._still_working(timeout):
                    return None
            return recv(self._conn)
        except wire.MessageError:
            raise  # the other side speaks another playtester: say so, not "the game broke"
        except (EOFError, OSError, ValueError):
            return wire.Broken()
        except Exception as e:  # noqa: BLE001 - a half-written message from a dying process
            return wire.Broken(repr(e))

    def _still_working(self, timeout: float) -> bool:
        """Wait on past ``timeout`` while the episode process keeps making progress (`_recv`); True once its
        message is there."""
        pid, limit = self._episode_pid, self.spec.config.slow_frame_limit_s
        before = lifetime.progress(pid) if pid else None
        waited = timeout
        while before is not None and waited < limit:
            chunk = min(timeout, limit - waited)
            if self._wait.wait(chunk):  # type: ignore[union-attr]
                return True
            waited += chunk
            now = lifetime.progress(pid)  # type: ignore[arg-type]
            if now is None or now[0] <= before[0] or now[1] <= before[1]:
                return False
            before = now
        return False

    def log_tail(self, n: int = 2000) -> str:
        """The end of what the game and worker printed (stdout and stderr)."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - n))
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    # ---- episodes
    def reset(self, seed: int = 0) -> Observation:
        """Start a new episode of the game with ``seed`` and return its first frame."""
        self.end_episode()
        self.suite = None  # the config's init steps are not checked
        if self._proc is None or self._proc.poll() is not None:
            self._kill()
            self._start_host()
        assert self._conn is not None
        traced, steps = self.code_steps
        self._code_tracing = bool(self.code_include) and traced <= self.code_share * steps
        opts = EpisodeOptions(capture=self.capture, hang_dump=os.path.join(self._tmp_dir, "hang.txt"),
                              code_include=self.code_include, code_trace=self._code_tracing,
                              code_known={f: sorted(v) for f, v in self.code_known.items()} if self._code_tracing
                              else None, code_patience=self.code_patience, memory_limit_mb=self.memory_limit_mb,
                              warm_notes=os.path.join(self._tmp_dir, "warm.txt"), **self._home_options(),
                              game_copies=isolation.episode_root(self.spec, self._tmp_dir))
        send(self._conn, wire.StartEpisode(self.spec, int(seed), self.space, opts))
        hello = self._recv(timeout=self.spec.config.start_timeout_s)
        if not isinstance(hello, wire.Hello):
            self._kill()
            raise WorkerError(f"the worker did not start an episode (got {hello!r}); log:\n{self.log_tail()}")
        self._episode_pid = hello.pid
        self._episode_plays = bool(hello.ahead)
        self._active = True
        self._pending = True
        self.steps = 0
        obs = self._answer(self.spec.config.start_timeout_s, starting=True)
        for step in self.spec.config.init:
            if obs.done:
                break
            frame = InputFrame.make(keys=step.keys, mouse=step.mouse, buttons=step.buttons)
            obs = self.step(frame, frames=step.frames)
        self.steps = 0
        if self.oracles is not None:
            self.suite = self.oracles()
        self.check_step(obs, 0)
        return obs

    def _home_options(self) -> dict[str, str | None]:
        """``home`` / ``home_from`` of the episode (`GameConfig.fresh_home`): for a game whose Python runs in the
        episode process (a remote engine's runtime gets its own environment from its backend)."""
        cfg = self.spec.config
        if not cfg.fresh_home or not capabilities(self.spec).python:
            return {}
        template = cfg.home
        if template and not os.path.isabs(template) and self.spec.config_path:
            template = os.path.join(os.path.dirname(self.spec.config_path), template)
        if template and not os.path.isdir(template):
            raise GameSpecError(f"home: the folder {template} does not exist (each episode's HOME starts as a copy "
                                f"of it; relative paths are relative to the game's config file): create it, or "
                                f"remove 'home' for an empty HOME")
        return {"home": os.path.join(self._tmp_dir, "home"), "home_from": template}

    def watch_states(self, state_key: Callable[[Observation], str | None] | None) -> None:
        """From now on, give each answered step its abstract state, computed here: ``state_key(obs)`` (a
        picklable callable: the campaign's abstraction, its key encoded) into ``obs.info["state_key"]`` (None:
        the step has no state). None stops it."""
        self.state_key = state_key

    @contextlib.contextmanager
    def unwatched(self) -> Iterator[None]:
        """Steps played inside are not checked here: no oracle suite (nor a new one at a reset inside) and no
        abstract state, for play whose findings nobody would keep (demonstrations replayed before a campaign:
        the texture oracle's networks on each of their frames cost more than the game). The next reset after
        it makes a fresh suite as before."""
        oracles, state_key = self.oracles, self.state_key
        self.oracles, self.suite, self.state_key = None, None, None
        try:
            yield
        finally:
            self.oracles, self.state_key = oracles, state_key

    @property
    def reads_steps(self) -> bool:
        """Something here reads each answered step: the oracles (`check_step`), the abstract state (`watch_states`)
        or code coverage (`_count_code`); without any, a relay passes batch steps on packed (``pass_through``)."""
        return self.suite is not None or self.state_key is not None or bool(self.code_include)

    def check_step(self, obs: Observation, index: int) -> None:
        """Check an answered step with the live episode's oracle suite (``oracles``), here, where the game runs, into
        `checked` (a `messages.Checked`: its findings, the suite's notes of the step, e.g. the texture oracle's
        ``judged``, and with `watch_states` the step's abstract state). Findings carry no frames (text and numbers).
        Unless this worker relays its records typed (``typed_checks``: a Ray actor's), they go into ``obs.info`` as
        users read them: ``info["findings"]`` (absent when there are none: the parent's `OracleWatch` sinks them),
        ``info["state_key"]``, ``info["judged"]`` and the other notes."""
        self.checked = checked = self.check(obs, index)
        if checked is not None and not self.typed_checks:
            checked.observation()

    def check(self, obs: Observation, index: int) -> wire.Checked | None:
        """What `check_step` measures of ``obs`` (the episode's step ``index``), ``obs`` left as it is; None when
        nothing is measured here (no oracle suite, no abstract state)."""
        watched = self.state_key is not None
        suite = self.suite
        if not watched and suite is None:
            return None
        key = self.state_key(obs) if watched else None  # type: ignore[misc]
        findings: tuple[Any, ...] = ()
        judged, notes = None, {}
        if suite is not None:
            found = suite.check(obs, index)
            if found:
                findings = tuple(found)
            note = getattr(suite, "notes", None)
            extra = note(index) if note is not None else None
            if extra:
                notes = dict(extra)
                judged = notes.pop("judged", None)
        return wire.Checked(obs, findings, key, judged, notes, watched)

    def step_async(self, inputs: InputFrame, frames: int | None = None, hold: int | None = None) -> None:
        self._send(wire.Step(inputs, frames or self.spec.config.frames_per_action, hold, self.capture))
        self._sent = None

    def act_async(self, action: int, frames: int | None = None) -> None:
        action = self.checked_action(action)
        self._send(wire.Act(action, frames or self.spec.config.frames_per_action, self.capture))
        self._sent = action

    # ---- acting ahead: a batch of steps whose actions are chosen here, from each step's action mask
    def act_ahead_async(self, action: int, plan: Plan | None, n: int, frames: int | None = None,
                        chunk: int | None = None) -> None:
        """Start a batch of at most ``n`` steps: ``action`` first, then ``plan.choose(mask)`` on the action
        mask of each step's observation, chosen and sent here as soon as that observation arrives (the game
        plays the next step while the caller looks at this one; ``chunk``, the `RayWorker`'s steps per actor
        call, means nothing here: each step is its own message). `step_wait` answers the batch's steps one
        at a time, in order, each with its action in `played`; `ahead` says whether the next answer is a
        batch step the caller did not send. The batch ends after ``n`` steps, at an observation that is
        ``done``, when the plan raises `NoValidActionError`, or when `call`, `snapshot`, `end_episode` or
        `reset` comes between (a batch step in flight then is read and kept for the next `step_wait`;
        `end_episode` and `reset` drop it). Every step is observed, timed and watched as by `act`: a crash or
        hang is that step's. The `RayWorker` plays the batch in its actor, ``chunk`` steps per remote call.
        An episode process that says it can (pygame's: `playtester.drive.episode.answer_step`; remote games:
        `playtester.drive.remote.RemoteRunner.play_batch`) gets the plan with the first action and plays the
        batch itself, each step still answered on its own (``$PLAYTESTER_EPISODE_PLAYS`` = 0: pygame's does not
        offer it); `call` then sees the game past the batch's steps it played before it read the stop (all
        kept)."""
        if self._episode_plays and plan is not None and n > 1 and self._active:
            action = self.checked_action(action)
            self._send(wire.Ahead(action, frames or self.spec.config.frames_per_action, self.capture, plan, int(n)))
            self._sent = action
            self._ebatch = True
            self.plan_after = plan  # until the episode sends its copy back with the batch's last step
            return
        self.act_async(action, frames)
        self._plan = plan if n > 1 else None
        self.plan_after = plan  # played here: the same object
        self._plan_left, self._plan_frames = n - 1, frames

    @property
    def ahead(self) -> bool:
        """The next `step_wait` answers a step of a batch that the caller did not send itself."""
        return bool(self._held) or (self._pending and self._auto)

    def _plan_next(self, obs: Observation) -> None:
        """Send the batch's next step, chosen on ``obs``'s mask, unless the batch ends at ``obs``."""
        plan, self._plan = self._plan, None
        if plan is None or obs.done or not self._active or self._plan_left <= 0:
            return
        try:
            action = plan.choose(obs.action_mask)
        except NoValidActionError:
            return  # the caller's agent says so at its next act, as it would without acting ahead
        self._plan_left -= 1
        self.act_async(action, self._plan_frames)
        self._auto = True
        if self._plan_left > 0:
            self._plan = plan

    def _settle(self, keep: bool) -> None:
        """End acting ahead: no further batch step is sent; one in flight is read and kept for the next
        `step_wait` (``keep``) or read and dropped."""
        self._plan = None
        if self._ebatch and self._auto and self._pending:  # the episode plays it: it stops after the steps in flight
            assert self._conn is not None
            try:
                send(self._conn, wire.Stop())
            except OSError:
                pass
            held = []
            while self._auto and self._pending:
                obs = self.step_wait()
                held.append((obs, self.played, self.checked))
            self._held = self._held + held if keep else []
        elif self._auto and self._pending:
            obs = self.step_wait()
            self._held = self._held + [(obs, self.played, self.checked)] if keep else []
        elif not keep:
            self._held = []
        self._auto = False

    def take_held(self) -> list[tuple[Observation, int | None, wire.Checked | None]]:
        """End acting ahead (`_settle`) and hand over every batch step read but not answered by `step_wait` yet,
        as (observation, action, `check_step`'s record) in order: a Ray actor's batch that played past what its caller asked for
        (`playtester.drive.ray_worker.WorkerHost`) gives them back with its next answer."""
        self._settle(keep=True)
        held, self._held = self._held, []
        return held

    def step_many(self, steps: Sequence[tuple[InputFrame | int, int | None]]) -> list[Observation]:
        """Play several steps known in advance, without a round trip between them.

        ``steps`` are ``(inputs, frames)`` or ``(action, frames)`` pairs (an int is an action of the space;
        frames None: the config's frames per action). Every command is sent at once, so the episode process
        reads the next one as soon as it has sent an observation, and the parent's own work on an observation
        overlaps the game's next frames. Each step is still observed, timed and watched as by `step`: a hang
        is a hang of that step. The answer stops at the first observation that is ``done``; the commands
        queued behind it are not played (an episode that stays up after its end answers them with its final
        state, which is read and dropped here). For inputs that do not depend on what the game shows, not
        even its action mask: replays of a trace, ddmin's candidates (an agent that chooses from the mask,
        as the random agent does, acts ahead with `act_ahead_async` instead)."""
        if self._pending or self._held:
            raise WorkerError("a step is already in flight; call step_wait() first")
        msgs: list[wire.Message] = []
        for inputs, frames in steps:
            frames = frames or self.spec.config.frames_per_action
            if isinstance(inputs, InputFrame):
                msgs.append(wire.Step(inputs, frames, None, self.capture))
            else:
                msgs.append(wire.Act(self.checked_action(inputs), frames, self.capture))
        if not msgs:
            return []
        if not self._active:
            self._pending = True
            return [self.step_wait()]
        assert self._conn is not None
        try:
            send_many(self._conn, msgs)
        except OSError:
            pass  # the episode process is gone; the first answer says how it ended
        out = []
        self.many_checked = []
        for sent in range(1, len(msgs) + 1):
            self._pending = True
            obs = self.step_wait()
            out.append(obs)
            self.many_checked.append(self.checked)
            if obs.done:
                if self._active:  # ended but still up: it answers each queued command with its final state
                    for _ in range(len(msgs) - sent):
                        if self._recv(self.spec.config.step_timeout_s) is None:
                            self._kill()
                            break
                break
        return out

    def call(self, target: str, *args: Any, timeout: float = 60.0) -> Any:
        """Run the playtester function ``module:function(runtime, *args)`` inside the live episode
        process, between two steps, and return its result (used by program analysis and hooks). Between two
        steps of a batch (`act_ahead_async`) the batch ends first, after its step in flight: the call sees the
        game there, up to one step past what `step_wait` has answered."""
        self._settle(keep=True)
        if self._pending:
            raise WorkerError("a step is already in flight; call step_wait() first")
        if not self._active or self._conn is None:
            raise WorkerError(f"no live episode to call {target} in (the game ended or was never reset)")
        send(self._conn, wire.Call(target, args))
        msg = self._recv(timeout)
        if msg is None:
            self._hang(timeout, False)
            raise WorkerError(f"{target} did not answer within {timeout:g} s in the game process")
        if not isinstance(msg, wire.Reply):
            self._answer_other(msg)
            raise WorkerError(f"the game ended while running {target}")
        ok, value = msg.ok, msg.value
        if ok == "memory":
            raise MemoryLimitError(f"{target} ran out of the game process's memory limit "
                                   f"({self.memory_limit_mb} MiB of data):\n{value}")
        if not ok:
            raise WorkerError(f"{target} failed in the game process:\n{value}")
        return value

    def _answer_other(self, msg: wire.Message) -> None:
        if isinstance(msg, wire.Final):
            self._last = msg.obs
            self._expect_exit()
        elif isinstance(msg, wire.Exited):
            self._last = self._died(msg.status, msg.peak_kb)
            self._active = False

    def _send(self, msg: wire.Message) -> None:
        if self._pending or self._held:
            raise WorkerError("a step is already in flight; call step_wait() first")
        if not self._active:
            if self._last is None:
                raise WorkerError("no episode is running; call reset() first")
            self._pending = True  # the episode is over: step_wait answers with its final state
            return
        assert self._conn is not None
        try:
            send(self._conn, msg)
            self._wait.sent()  # type: ignore[union-attr]
        except OSError:
            pass  # the episode process is gone; step_wait will find out how it ended
        self._pending = True

    def step_wait(self) -> Observation:
        """The answer to the step sent with `step_async` / `act_async` (or the next of a batch: `ahead`)."""
        if self._held:
            obs, self.played, self.checked = self._held.pop(0)
            return obs
        if not self._pending:
            raise WorkerError("no step in flight; call step_async() first")
        self.played, self._auto = self._sent, False
        self.checked = None
        if not self._active:
            self._pending, self._plan, self._ebatch = False, None, False
            assert self._last is not None
            return self._last
        self.steps += 1
        obs = self._answer(self.spec.config.step_timeout_s, working=True)
        if self._ebatch:  # a step of a batch the episode plays: its action, and whether the batch goes on
            bobs, self._bobs = self._bobs, None
            if bobs is not None:
                self.played = self._sent = bobs[0]
            if bobs is not None and bobs[1] and self._active:
                self._pending = self._auto = True
                if bobs[2] is not None:
                    self._sent = bobs[2]
            else:
                self._ebatch = False
        if self._plan is not None:
            self._plan_next(obs)  # the game plays the batch's next step while this one is checked
        self.check_step(obs, self.steps)
        return obs

    def _answer(self, timeout: float, starting: bool = False, working: bool = False) -> Observation:
        msg = self._bq.popleft() if self._bq else self._recv(timeout, working)
        self._pending = False
        if msg is None:
            return self._hang(timeout, starting)
        cls = type(msg)
        if cls is wire.Answer:
            obs: Observation = msg.obs  # type: ignore[attr-defined]
        elif cls is wire.Batch or cls is wire.BatchStep:  # steps of a batch the episode plays itself; an
            # in-process episode adds the next step's action (`episode.answer_step`): the one a crash or hang of the
            # game in that step was playing
            if cls is wire.Batch:
                step, *later = msg.steps  # type: ignore[attr-defined]
                self._bq.extend(later)
            else:
                step = msg
            obs, more = step.obs, step.more
            self._bobs = (step.action, more, step.next)
            if not more and step.plan is not None:  # the batch's last step: its plan as the episode left it
                self.plan_after = step.plan
            if isinstance(obs, bytes):  # a step the batch goes on after (not done), pickled on its own
                if more and self.pass_through and not self.reads_steps:
                    self._last = PackedObservation(obs)  # relayed as it came: nothing here reads it
                    return self._last  # type: ignore[return-value]
                obs = pickle.loads(obs)  # noqa: S301 - vetted (tests/test_no_code_from_data.py): our own process's bytes, not a file
        elif cls is wire.Final:
            obs = msg.obs  # type: ignore[attr-defined]
            if msg.action is not None:  # type: ignore[attr-defined]  # the last step of a batch the episode played
                self._bobs = (msg.action, False, None)  # type: ignore[attr-defined]
            self._expect_exit()
        elif cls is wire.Exited:
            obs = self._died(msg.status, msg.peak_kb)  # type: ignore[attr-defined]
        elif cls is wire.SpecError:
            self._expect_exit()
            self._active = False
            raise GameSpecError(f"game spec {self.spec.text!r}: {msg.why}")  # type: ignore[attr-defined]
        else:
            obs = self._broken(msg)
        if obs.frame is None and self._last is not None and obs.done:
            obs.frame = self._last.frame
        if self.code_include:
            self._count_code(obs)
        self._last = obs
        if obs.done and obs.exit is not None:
            self._active = False
        return obs

    def _count_code(self, obs: Observation) -> None:
        self.code_steps[0] += self._code_tracing
        self.code_steps[1] += 1
        if "code_stopped" in obs.info:
            self._code_tracing = False
        self._add_code(obs.info.get("code_lines"))

    def _add_code(self, lines: dict[str, list[int]] | None) -> None:
        for f, numbers in (lines or {}).items():
            self.code_known.setdefault(f, set()).update(numbers)

    def _expect_exit(self) -> None:
        msg = self._recv(10.0)
        if not isinstance(msg, wire.Exited):
            self._kill()
        else:
            self._note_peak(msg)
        self._active = False
        self._episode_pid = None

    def _note_peak(self, msg: wire.Exited) -> int:
        peak = int(msg.peak_kb)
        self.peak_rss_kb = max(self.peak_rss_kb, peak)
        return peak

    def _died(self, status: int, peak_kb: int = 0) -> Observation:
        self._active = False
        self._episode_pid = None
        self.peak_rss_kb = max(self.peak_rss_kb, peak_kb)
        limit_kb = self.memory_limit_mb * 1024
        if limit_kb and peak_kb >= 0.9 * limit_kb:  # native code that died when an allocation failed
            exit = GameExit("memory", message=f"the game process died at its memory limit ({self.memory_limit_mb} "
                            f"MiB; peak resident {peak_kb // 1024} MiB)", code=status)
        elif os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            name = signal_name(sig)
            exit = GameExit("signal", signal=sig, message=f"the game process died of signal {name}")
            dump = self._fatal_dump()
            if dump:  # faulthandler's stack of the fatal signal (SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL)
                exit.frames = _parse_dump(dump)
                if exit.frames:
                    last = exit.frames[-1]
                    exit.message += f" in {last.function} ({os.path.basename(last.file)}:{last.line})"
        else:
            code = os.WEXITSTATUS(status)
            exit = GameExit("exit", code=code, message=f"the game process exited with code {code} without "
                            "returning (os._exit or a fatal error in native code)")
        tail = self.log_tail(1500)
        if tail:
            exit.traceback = (self._fatal_dump() + "\n" + tail).strip() if exit.frames else tail
        return self._final(exit)

    def _fatal_dump(self) -> str:
        path = EpisodeOptions(hang_dump=os.path.join(self._tmp_dir, "hang.txt")).fatal_dump
        try:
            with open(path, encoding="utf-8", errors="replace") as f:  # type: ignore[arg-type]
                return f.read()
        except OSError:
            return ""

    def _hang(self, timeout: float, starting: bool) -> Observation:
        frames: list[TraceFrame] = []
        dump_text = ""
        dump = os.path.join(self._tmp_dir, "hang.txt")
        if self._episode_pid is not None and self.capabilities.python:  # faulthandler dumps the game's stack
            try:
                os.kill(self._episode_pid, signal.SIGUSR1)
                deadline = time.monotonic() + 1.0
                while time.monotonic() < deadline:
                    time.sleep(0.02)
                    with open(dump, encoding="utf-8", errors="replace") as f:
                        dump_text = f.read()
                    if dump_text.rstrip().endswith(")") or "File" in dump_text:
                        time.sleep(0.05)
                        with open(dump, encoding="utf-8", errors="replace") as f:
                            dump_text = f.read()
                        break
            except OSError:
                pass
            frames = _parse_dump(dump_text)
        self._kill()
        where = f" in {frames[-1].function} ({os.path.basename(frames[-1].file)}:{frames[-1].line})" if frames else ""
        what = "start" if starting else "step"
        exit = GameExit("hang", message=f"no frame boundary within {timeout:g}s of wall-clock time during a "
                        f"{what}{where}; the game was killed", traceback=dump_text, frames=frames)
        return self._final(exit)

    def _broken(self, msg: Any) -> Observation:
        self._kill()
        return self._final(GameExit("worker", message=f"the worker's connection broke ({msg!r}); "
                                    f"log:\n{self.log_tail(800)}"))

    def _final(self, exit: GameExit) -> Observation:
        last = self._last
        obs = Observation(frame=last.frame if last else None, features=dict(last.features) if last else {},
                          done=True, frame_no=last.frame_no if last else 0, time_ms=last.time_ms if last else 0,
                          action_mask=last.action_mask if last else None, info={"exit": exit})
        self._active = False
        return obs

    def end_episode(self) -> None:
        """Stop the running episode, if any (its process is ended; the host stays up)."""
        self.final_code_lines = {}
        self._settle(keep=False)
        if self._pending and self._active:
            self.step_wait()
        if self._active and self._conn is not None:
            try:
                send(self._conn, wire.End())
                msg = self._recv(5.0)
                while msg is not None and not isinstance(msg, wire.Exited | wire.Broken):
                    if isinstance(msg, wire.Coverage):
                        self.final_code_lines = msg.lines
                        self._add_code(msg.lines)
                    msg = self._recv(5.0)
                if not isinstance(msg, wire.Exited):
                    self._kill()
                else:
                    self._note_peak(msg)
            except OSError:
                self._kill()
        self._active = self._pending = False
        self._bq.clear()
        self._episode_pid = None
        self._last = None
        self._live_snapshot = None
        for pid in self._drop_later:
            self._kill_snapshot(pid)
        self._drop_later.clear()

    # ---- snapshots (Go-Explore's return): a parked fork of the episode process
    @property
    def snapshots_supported(self) -> bool:
        """Snapshots need a backend that has them (the episode process forks itself) on a system with fork."""
        return self.capabilities.snapshots and hasattr(os, "fork")

    def snapshot(self) -> int | None:
        """Park a copy of the running episode in its current state; returns its id (None when the episode
        is over, a step is in flight, or snapshots are not supported). `restore` resumes it, any number of
        times; `drop_snapshot` ends it. Snapshots live until dropped or until the worker restarts."""
        if not self.snapshots_supported or not self._active or self._pending or self._held \
                or self._last is None or self._last.done or self._conn is None:
            return None
        try:
            send(self._conn, wire.TakeSnapshot())
        except OSError:
            return None
        msg = self._recv(self.spec.config.step_timeout_s)
        if not isinstance(msg, wire.SnapshotTaken):
            self._kill()
            raise WorkerError(f"the episode process did not answer a snapshot request (got {msg!r}); "
                              f"log:\n{self.log_tail(800)}")
        sid = msg.snapshot
        if sid is None:
            return None  # fork failed (process limit): no snapshot this time
        self._snapshots[sid] = (plain(self._last), self.steps, self.host_starts)
        self._code_snapshots[sid] = self._code_tracing  # a snapshot goes on as its episode did
        if self.suite is not None:  # the oracles' state at the snapshot, for its restores
            self._suite_snapshots[sid] = copy.deepcopy(self.suite)
        return int(sid)

    def restore(self, snapshot: int) -> Observation | None:
        """End the running episode and resume ``snapshot`` as the live episode; returns the observation it
        was taken at (without that step's events and checks), or None when the snapshot is gone (dropped,
        or the worker restarted after a hang): return by replaying the trace instead."""
        rec = self._snapshots.get(snapshot)
        if rec is None or rec[2] != self.host_starts:
            self._snapshots.pop(snapshot, None)
            self._suite_snapshots.pop(snapshot, None)
            return None
        self.end_episode()
        if self._proc is None or self._proc.poll() is not None or self._conn is None:
            return None
        try:
            send(self._conn, wire.Resume(snapshot))
        except OSError:
            return None
        hello = self._recv(self.spec.config.start_timeout_s)
        if not isinstance(hello, wire.Hello):
            self._snapshots.pop(snapshot, None)
            self._suite_snapshots.pop(snapshot, None)
            if not isinstance(hello, wire.ResumeFailed):
                self._kill()
            return None
        obs, steps, _ = rec
        obs = dataclasses.replace(obs, events=[], checks=[], logs=[],
                                  info={k: v for k, v in obs.info.items() if k not in STEP_ONLY})
        self._episode_pid = hello.pid
        self._active, self._pending = True, False
        self._live_snapshot = snapshot
        self.steps = steps
        self._last = obs
        self._code_tracing = self._code_snapshots.get(snapshot, False)
        saved = self._suite_snapshots.get(snapshot)
        self.suite = copy.deepcopy(saved) if saved is not None else (self.oracles() if self.oracles else None)
        return obs

    def drop_snapshot(self, snapshot: int) -> None:
        """End a parked snapshot (at once, or when the episode resumed from it ends)."""
        self._code_snapshots.pop(snapshot, None)
        self._suite_snapshots.pop(snapshot, None)
        if self._snapshots.pop(snapshot, None) is None:
            return
        if snapshot == self._live_snapshot:
            self._drop_later.add(snapshot)
        else:
            self._kill_snapshot(snapshot)

    @property
    def snapshot_count(self) -> int:
        return len(self._snapshots)

    def _kill_snapshot(self, pid: int) -> None:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

    def close(self) -> None:
        """End the episode and the worker processes."""
        if self._active and self._proc is not None:
            try:
                self.end_episode()  # the episode's exit status and peak memory come back
            except (WorkerError, OSError):
                pass
        if self._proc is not None and self._conn is not None:
            try:
                send(self._conn, wire.Quit())
            except OSError:
                pass
        self._kill()
        self._cleanup_tmp()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self._kill()
        except Exception:  # noqa: BLE001
            pass


if __name__ == "__main__":
    host_main(int(sys.argv[1]), int(sys.argv[2]) or os.getppid())  # 0: the parent is the sandbox's bwrap
