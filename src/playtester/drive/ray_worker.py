"""Game workers as Ray actors: a campaign's games on a Ray cluster (``--backend ray[:ADDRESS]``).

Layout of processes::

    parent (agent, GameEnv, RayWorker)  ──Ray──  actor (WorkerHost: a real `Worker`)  on any node
                                                   └─ socketpair ─ worker host ─ fork per reset ─ episode

A `RayWorker` has the `Worker`'s interface (what `GameEnv` and the campaign use) and forwards each call to
a Ray actor that holds an ordinary `Worker`: the fork-per-episode processes, the watchdog, snapshots and
code coverage all stay inside the actor, on the actor's node. ``act_async``/``step_async`` send the remote
call, ``step_wait`` waits for its answer, so a campaign's rounds step every actor in parallel as they step
local workers.

Acting ahead (``act_ahead_async``): one remote call plays several steps in the actor, each action chosen
there by the agent's plan on the action mask of the step before it (the random agent's plan draws what its
``act`` would); ``step_wait`` answers them one at a time from here, and the plan's next call goes as soon as
an answer is in, so the actor plays while the campaign looks at the steps it has. A step costs the parent one
Ray call per batch instead of one per step (a null actor call is about 1 ms on a loaded 2-core machine). `DEPTH`
calls of a plan are in flight at once: the actor finds its next batch queued when it ends one (a batch cut short
by the episode's end makes the calls queued behind it answer nothing). The actor's game plays the whole plan
(``PLAY_ON``: the first call says how long it is), not one call's steps: it goes on while a call's answer crosses
Ray and the next call comes, and each `WorkerHost.act_more` reads on where the last stopped; a `call` between
hands back the steps the game played past the last answer (`WorkerHost.call`), so every step played is answered.

What crosses Ray: a batch's answer goes as one pickled bytes object (``COMPACT``: Ray's own serializer costs more
on a list of observations); a batch step that nothing in the actor reads (no oracles, abstract state or code
coverage there, as under ``playtester run``) stays in the bytes the game sent (`Worker.pass_through`,
`PackedObservation`, ``RELAY``), relayed without being unpickled and pickled again; and the worker actors send
Ray no task events (``TASK_EVENTS``: the state API and timeline do not list their calls). These hold on a cluster too.

A local instance (no address) is started with ``LOCAL_SYSTEM_CONFIG``: its workers at this process's niceness
(Ray's default puts them 15 lower, so on a shared machine the games yield the cores to everything else), no
event-loop stats or metrics collection, and answers up to ``INLINE_BYTES`` sent back inline in the call's reply
(Ray's default, 100 KiB, sent explore's batches with 48x48 frames through the object store and the raylet). A
cluster joined by address keeps its own settings (``max_direct_call_object_size`` is one to raise there too);
acting ahead asks each call for as many steps as keep its answer under ``INLINE_SHARE`` of the limit there
(``CLUSTER_INLINE_BYTES``: Ray's default unless ``$PLAYTESTER_RAY_INLINE_BYTES`` says otherwise; `_fit_chunk`).
Where the CPU goes per step, process by process, is measured by ``bench/ray_backend.py``.

Faults: an actor (or its node) that dies mid-episode ends that episode with ``GameExit(kind="worker_lost")``
(not a game failure: no crash finding, no bug). The next `reset` starts a new actor; a slot whose actor was
lost more than ``max_restarts`` times raises `WorkerLostError` from `reset`, and the campaign drops it.
Snapshots live in the actor that made them: after a restart `restore` answers None and the explorer
replays the trace instead.

Ray is an optional extra (``playtester[ray]``); this module imports it only inside its functions, so the
local backend never loads it.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import pickle
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from playtester.drive import messages as wire
from playtester.drive.backend import capabilities
from playtester.drive.inputs import InputFrame
from playtester.drive.lifetime import descendants, guard
from playtester.drive.observation import GameExit, Observation
from playtester.drive.spec import GameSpec
from playtester.drive.worker import Plan, Stepper
from playtester.errors import NoValidActionError, UsageError, WorkerError, WorkerLostError

MAX_RESTARTS = 3  # new actors a slot may start after its first; past them its reset raises WorkerLostError
WAIT_SLACK_S = 60.0  # beyond the step timeout (the actor's own watchdog), how long a step's answer may take
LOCAL_CPUS = 1  # the local Ray instance started without an address (actors take no CPU while they run)
LOCAL_OBJECT_STORE = 128 * 2**20  # bytes: observations are small
INLINE_BYTES = 4 * 2**20  # a local instance's largest answer sent inline (`LOCAL_SYSTEM_CONFIG`)
# a cluster's, as Ray's default ``max_direct_call_object_size`` (``PLAYTESTER_RAY_INLINE_BYTES``: a cluster started
# with another): acting ahead keeps each call's answer under a share of it (`RayWorker._fit_chunk`)
CLUSTER_INLINE_BYTES = int(os.environ.get("PLAYTESTER_RAY_INLINE_BYTES", str(100 * 2**10)))
INLINE_SHARE = 0.75  # of the inline limit, what a call's steps may take by the size of the last answer's steps
_ID_BITS = 32  # a snapshot id is (actor generation << 32) | the snapshot's pid in that actor
# Ray's settings for the local instance (`connect` without an address; a cluster joined by address keeps its own):
LOCAL_SYSTEM_CONFIG: dict[str, Any] = {
    "worker_niceness": 0,  # Ray starts its workers at nice 15: the actors, and the games they fork, would yield the
    # cores to the driver, Ray's daemons and anything else on the machine
    "event_stats": False,  # timing and counting every event-loop handler, in every Ray process, for debug dumps
    "enable_metrics_collection": False,  # Ray's Prometheus metrics: no dashboard reads them here
    # a call's answer up to this size goes back inline, in the call's reply, not through the object store and the
    # raylet (Ray's default: 100 KiB, which a batch of 32 steps with 48x48 frames, explore's capture, passes)
    "max_direct_call_object_size": INLINE_BYTES,
}
TASK_EVENTS = False  # Ray's per-call task events (state API, timeline) for the worker actors: cost on every call
COMPACT = True  # a batch's answer crosses Ray as one pickled bytes object (Ray's serializer walks each object)
DEPTH = 2  # acting ahead: calls of a plan in flight to the actor (2: its next batch is queued when it ends one)
# acting ahead: the actor's game plays the whole plan, not one call's steps at a time (`WorkerHost.act_ahead`)
PLAY_ON = True
RELAY = True  # the actor relays batch steps it has nothing to read in the game's bytes (`Worker.pass_through`)


def parse_backend(text: str | None) -> tuple[str, str | None]:
    """``local``, ``ray`` or ``ray:ADDRESS`` -> (kind, address). A UsageError for anything else."""
    value = (text or "local").strip()
    kind, _, address = value.partition(":")
    if kind == "local" and not address:
        return "local", None
    if kind == "ray":
        return "ray", address.strip() or None
    raise UsageError(f"--backend {value!r}: use local (the default), ray (a local Ray instance) or ray:HOST:PORT "
                     "(join a Ray cluster)")


def require_ray() -> Any:
    """``import ray``, or a UsageError naming the ``ray`` extra."""
    from playtester.extras import require

    return require("ray", "ray", "--backend ray")


def check_backend(text: str | None) -> tuple[str, str | None]:
    """`parse_backend`, and for Ray that the extra is installed (before a campaign stores anything)."""
    kind, address = parse_backend(text)
    if kind == "ray":
        require_ray()
    return kind, address


LOOPBACK = "127.0.0.1"
TOKEN_FILE_ENV = "PLAYTESTER_RAY_TOKEN_FILE"  # where the local instance's token is kept (default: `token_file`)


def token_file() -> str:
    """The file holding this user's token for the local Ray instances playtester starts:
    ``$PLAYTESTER_RAY_TOKEN_FILE``, else ``$XDG_CONFIG_HOME/playtester/ray_auth_token`` (``~/.config/...``)."""
    if os.environ.get(TOKEN_FILE_ENV):
        return os.environ[TOKEN_FILE_ENV]
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "playtester", "ray_auth_token")


def ensure_token(path: str) -> str:
    """A token of 256 random bits in ``path``, made when missing (folder 0700, file 0600, created with those
    modes: never readable by another user, not even for a moment); an existing file looser than 0600 is
    tightened. Ray's own ``ray.init`` writes ``~/.ray/auth_token`` with the process's umask (0644 under the
    usual 022), which any local user can read; hence a file of playtester's."""
    import secrets
    import stat

    folder = os.path.dirname(path) or "."
    os.makedirs(folder, mode=0o700, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if stat.S_IMODE(os.stat(path).st_mode) & 0o077:
            os.chmod(path, 0o600)
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    return path


def secure_local_env() -> None:
    """The environment a local Ray instance is started in (before ``import ray``; its processes inherit it):

    - its node address is loopback (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``: Ray's own switch for a machine that
      is not part of a cluster, under which the GCS, the raylet, the object manager and the workers listen on
      127.0.0.1; Ray otherwise takes the machine's outward address and its servers listen on every interface);
    - token authentication on (``RAY_AUTH_MODE=token``) with this user's token (`token_file`, 0600) unless the
      environment names one (``RAY_AUTH_TOKEN`` or ``RAY_AUTH_TOKEN_PATH``). An explicit ``RAY_AUTH_MODE=disabled``
      is respected, with a warning."""
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    mode = os.environ.setdefault("RAY_AUTH_MODE", "token").lower()
    if mode != "token":
        logging.getLogger(__name__).warning(
            "RAY_AUTH_MODE=%s: the local Ray instance accepts work from any process of this machine that finds "
            "its ports; unset it to turn Ray's token authentication on", mode)
    elif not os.environ.get("RAY_AUTH_TOKEN") and not os.environ.get("RAY_AUTH_TOKEN_PATH"):
        os.environ["RAY_AUTH_TOKEN_PATH"] = ensure_token(token_file())


def connect(address: str | None) -> Any:
    """Ray, initialized: ``ray.init(address=...)`` joins a cluster, no address starts a local instance
    (no dashboard, one CPU, a small object store, quiet logs) whose processes are named to the lifetime
    guard, so none outlives this process however it ends, that listens on 127.0.0.1 only and asks for this
    user's token (`secure_local_env`). Once per process: a later call with another address is refused."""
    if not address:
        secure_local_env()
    ray = require_ray()
    if ray.is_initialized():
        return ray
    if not address:
        with contextlib.suppress(ImportError, AttributeError):  # Ray imported before `secure_local_env` ran
            from ray._private import ray_constants  # (it reads the switch when imported)

            ray_constants.ENABLE_RAY_CLUSTER = False
        with contextlib.suppress(ImportError, AttributeError):
            from ray._raylet import Config  # Ray caches its config: reread RAY_AUTH_MODE as `ray.init` does

            Config.initialize("")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    quiet = {"logging_level": logging.WARNING, "log_to_driver": False}
    try:
        if address:
            ray.init(address=address, **quiet)
        else:
            ray.init(num_cpus=LOCAL_CPUS, include_dashboard=False, object_store_memory=LOCAL_OBJECT_STORE,
                     _node_ip_address=LOOPBACK, _system_config=dict(LOCAL_SYSTEM_CONFIG), **quiet)
            guard(descendants())  # Ray's agents outlive a killed driver otherwise (children of its raylet)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise WorkerError(f"cannot {'join the Ray cluster at ' + address if address else 'start a local Ray'}: "
                          f"{e}") from e
    return ray


class WorkerHost:
    """What runs in the Ray actor: one `Worker` and a method per call the `RayWorker` forwards. Answers are
    `playtester.drive.messages` (`Steps`, `Called`, `WorkerState`: each step a `Checked`, its findings, abstract
    state and judgements as fields), encoded; a snapshot's id is a plain int."""

    def __init__(self, spec: GameSpec, space: Any, capture: Any, code_coverage: bool,
                 memory_limit_mb: int | None, oracles: Any = None, compact: bool = False, relay: bool = False) -> None:
        from playtester.drive.worker import Worker

        # spin=False: an actor cannot see the other actors and games on its node, so it never polls for an
        # answer (drive/wait.py: only a process that knows a core is free does)
        self.worker = Worker(spec, space, capture=capture, code_coverage=code_coverage,
                             memory_limit_mb=memory_limit_mb, oracles=oracles, spin=False)
        self.worker.pass_through = relay  # steps nothing here reads cross Ray in the bytes the game sent
        self.worker.typed_checks = True  # what is measured here crosses as `Checked` fields, not in obs.info
        self.compact = compact  # the steps' answers go back pickled here, as one bytes object (`RayWorker._steps`)
        self._plan: Plan | None = None  # the last batch's plan and its last observation (for act_more)
        self._end: Observation | None = None
        self._frames: int | None = None
        self._unwatched: Any = None  # `Worker.unwatched`, entered (`unwatch`)

    def where(self) -> tuple[str, int]:
        """(node id, actor pid): where this worker runs."""
        import ray

        return ray.get_runtime_context().get_node_id(), os.getpid()

    def reset(self, seed: int) -> tuple[Any, ...]:
        self._plan = self._end = None
        obs = self.worker.reset(seed=seed)
        return wire.encode(self._state(self._checked(obs)))

    def _checked(self, obs: Any, checked: wire.Checked | None = None) -> wire.Checked:
        """The step ``obs`` the worker answered last, with what it measured (`Worker.check_step`)."""
        checked = checked if checked is not None else self.worker.checked
        return checked if checked is not None and checked.obs is obs else wire.Checked(obs)

    def _answer(self, msg: wire.Message) -> Any:
        """A step's answer as it crosses Ray (`messages.encode`): pickled here in one piece (``compact``), or as it
        is."""
        data = wire.encode(msg)
        return pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL) if self.compact else data

    def act(self, action: int, frames: int | None) -> Any:
        obs = self.worker.act(action, frames)
        return self._answer(wire.Steps((self._checked(obs),), (self.worker.played,), self.worker.steps))

    def step(self, inputs: InputFrame, frames: int | None, hold: int | None) -> Any:
        obs = self.worker.step(inputs, frames, hold)
        return self._answer(wire.Steps((self._checked(obs),), (None,), self.worker.steps))

    def step_many(self, steps: Sequence[tuple[InputFrame | int, int | None]]) -> Any:
        w = self.worker
        out = w.step_many(steps)
        checks = w.many_checked if len(w.many_checked) == len(out) else [w.checked] * len(out)
        answers = tuple(self._checked(o, c) for o, c in zip(out, checks, strict=True))
        return self._answer(wire.Steps(answers, tuple(None if isinstance(i, InputFrame) else int(i)
                                                      for i, _ in steps[:len(out)]), w.steps))

    def _read(self, n: int) -> wire.Steps:
        """The next ``n`` steps of the batch in flight (fewer when it ends first), and the steps so far. The batch
        may go on in the episode past them: the next `act_more` reads on where this stopped."""
        w = self.worker
        actions: list[int | None] = []
        out: list[wire.Checked] = []
        while len(out) < n:
            out.append(self._checked(w.step_wait()))
            actions.append(w.played)
            if not w.ahead:
                break
        self._plan = w.plan_after  # the episode's copy once the batch ended there (the plan until then)
        self._end = out[-1].obs
        return wire.Steps(tuple(out), tuple(actions), w.steps)

    def act_ahead(self, action: int, plan: Plan | None, n: int, frames: int | None, total: int | None = None) -> Any:
        """`messages.Steps` of the first ``n`` steps of a batch of ``total`` (`Worker.act_ahead`), as `_answer` sends
        it. The game plays the whole batch without waiting for the caller's next `act_more`: it
        goes on while this answer crosses Ray (a ``stop`` ends it: `call`, `end_episode`, `reset`)."""
        self._frames = frames
        self.worker.act_ahead_async(action, plan, max(int(n), int(total or n)), frames)
        return self._answer(self._read(int(n)))

    def act_more(self, n: int) -> Any:
        """The next ``n`` steps of the plan: read on in the batch the game is playing, or (a batch that ended at its
        length) a new batch of the plan as the last one left it, its first action chosen on the last step's mask;
        none when that step ended the episode or the plan cannot choose."""
        if self.worker.ahead:
            return self._answer(self._read(n))
        plan, end = self._plan, self._end
        if plan is None or end is None or end.done:
            return self._answer(wire.Steps((), (), self.worker.steps))
        try:
            action = plan.choose(end.action_mask)
        except NoValidActionError:
            return self._answer(wire.Steps((), (), self.worker.steps))
        self.worker.act_ahead_async(action, plan, n, self._frames)
        return self._answer(self._read(n))

    def call(self, target: str, args: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        """`Worker.call` after the batch in flight stopped, as an encoded `messages.Called`: whether it answered, its
        value or its `WorkerError`, and the batch's steps the game played past the last `act_more` (with their
        actions, in order) for the caller to answer before its next step: they come back even when the call fails,
        e.g. after one of them ended the game."""
        held = self.worker.take_held()
        steps = tuple(self._checked(o, c) for o, _, c in held)
        actions = tuple(a for _, a, _ in held)
        try:
            return wire.encode(wire.Called(True, self.worker.call(target, *args, timeout=timeout), steps, actions))
        except WorkerError as e:
            return wire.encode(wire.Called(False, e, steps, actions))

    def watch_states(self, state_key: Any) -> None:
        self.worker.watch_states(state_key)

    def unwatch(self, on: bool) -> None:
        """Enter (``on``) or leave the worker's `Worker.unwatched`: no oracle suite nor abstract state meanwhile."""
        if on and self._unwatched is None:
            self._unwatched = self.worker.unwatched()
            self._unwatched.__enter__()
        elif not on and self._unwatched is not None:
            cm, self._unwatched = self._unwatched, None
            cm.__exit__(None, None, None)

    def snapshot(self) -> int | None:
        return self.worker.snapshot()

    def restore(self, snapshot: int) -> tuple[Any, ...]:
        self._plan = self._end = None
        obs = self.worker.restore(snapshot)
        return wire.encode(self._state(None if obs is None else wire.Checked(obs)))

    def drop_snapshot(self, snapshot: int) -> None:
        self.worker.drop_snapshot(snapshot)

    def end_episode(self) -> tuple[Any, ...]:
        self.worker.end_episode()
        return wire.encode(self._state())

    def close(self) -> tuple[Any, ...]:
        self.worker.close()
        return wire.encode(self._state())

    def _state(self, answer: wire.Checked | None = None) -> wire.WorkerState:
        w = self.worker
        return wire.WorkerState(w.steps, w.peak_rss_kb, w.final_code_lines, w.snapshot_count, w.host_starts, answer)


_placed = itertools.count()  # actors placed by this process: the next goes to the next node in turn


def _next_node(ray: Any) -> Any:
    """Where the next actor goes: the cluster's live nodes with CPUs in turn (the head first, then by node id),
    softly (when that node is gone or full, Ray places it elsewhere); ``SPREAD`` on a one-node cluster.
    Ray's own ``SPREAD`` alone may put two actors on one node of two."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0]
    if len(nodes) < 2:
        return "SPREAD"
    nodes.sort(key=lambda n: ("node:__internal_head__" not in n["Resources"], n["NodeID"]))
    return NodeAffinitySchedulingStrategy(nodes[next(_placed) % len(nodes)]["NodeID"], soft=True)


def _lost_errors(ray: Any) -> tuple[type[BaseException], ...]:
    """The exceptions that say an actor (or its node, or its answer) is gone, not that the game failed."""
    e = ray.exceptions
    names = ("RayActorError", "ActorDiedError", "ActorUnavailableError", "NodeDiedError", "WorkerCrashedError",
             "ObjectLostError", "OwnerDiedError", "LocalRayletDiedError", "GetTimeoutError", "ActorUnschedulableError")
    return tuple(getattr(e, n) for n in names if hasattr(e, n))


class RayWorker(Stepper):
    """A `Worker` whose processes run in a Ray actor (see the module's doc). Same arguments as `Worker`,
    plus ``address`` (a Ray cluster to join; None: a local Ray instance), ``max_restarts`` (new actors after
    lost ones, over the worker's life) and ``actor_options`` (Ray's ``.options(...)``; by default each new
    actor goes to the next of the cluster's live nodes in turn, head first: `_next_node`). ``oracles`` (see
    `Worker`) goes to the actor's `Worker`: the steps are checked in the actor and come back with their findings."""

    def __init__(self, spec: GameSpec, space: Any = None, capture: Any = "full", code_coverage: bool = False,
                 memory_limit_mb: int | None = None, *, address: str | None = None, max_restarts: int = MAX_RESTARTS,
                 actor_options: dict[str, Any] | None = None, oracles: Any = None) -> None:
        self._ray = connect(address)
        self._local, self._guarded = address is None, 0  # a local Ray's processes are named to the guard
        self._lost = _lost_errors(self._ray)
        self.spec, self.space, self.capture = spec, space, capture
        self.capabilities = capabilities(spec)
        self.code_coverage, self.memory_limit_mb = code_coverage, memory_limit_mb
        self.oracles = oracles
        self.state_key: Any = None  # `watch_states`: sent to each actor this worker starts
        self._unwatched = False  # inside `unwatched`: each actor started meanwhile is told too
        self.max_restarts = max_restarts
        self.actor_options = {"max_restarts": 0, "max_task_retries": 0, "enable_task_events": TASK_EVENTS,
                              **(actor_options or {})}
        self.steps = 0
        self.peak_rss_kb = 0
        self.final_code_lines: dict[str, list[int]] = {}
        self.snapshot_count = 0
        self.host_starts = 0
        self.actor_starts = 0  # actors started (1 + restarts)
        self.lost = 0  # actors lost
        self.lost_reason = ""
        self._actor: Any = None
        self._pending: Any = None  # the ObjectRef of the step in flight
        self._batch = 0  # the steps of the batch in flight (act_ahead; 0: one step): its answer has them all
        self._more = 0  # steps the plan may still play after the batch in flight (in calls of _chunk steps)
        self._chunk = 0
        self._chunk_max = 0  # the caller's steps per call; `_chunk` is fewer when a call's answer would not go inline
        self.inline_bytes = INLINE_BYTES if address is None else CLUSTER_INLINE_BYTES
        self._fit = 0  # steps per call whose answer goes inline, by the last answer's size (0: none seen yet)
        self._answer_bytes = 0  # the size of the last answer, pickled (`COMPACT`)
        self._cont = False  # the batch in flight continues a plan (act_more): no step the caller sent
        self._queued: deque[tuple[Any, int]] = deque()  # continuations sent after the one in flight: (ref, steps)
        self._buf: deque[tuple[Observation, int | None]] = deque()  # a batch's steps not answered yet
        self._sent: int | None = None  # the action of the step in flight (None: raw inputs)
        self.played: int | None = None  # the action of the step `step_wait` answered last
        self._last: Observation | None = None
        self._active = False  # the actor holds a live episode
        self._start_actor()

    # ---- the actor
    def _start_actor(self) -> None:
        options = dict(self.actor_options)
        if "scheduling_strategy" not in options:
            options["scheduling_strategy"] = _next_node(self._ray)
        cls = self._ray.remote(WorkerHost)
        self._actor = cls.options(**options).remote(self.spec, self.space, self.capture, self.code_coverage,
                                                    self.memory_limit_mb, self.oracles, COMPACT, COMPACT and RELAY)
        self.actor_starts += 1
        if self.state_key is not None:  # in order with the calls after it
            self._actor.watch_states.remote(self.state_key)
        if self._unwatched:
            self._actor.unwatch.remote(True)

    @contextlib.contextmanager
    def unwatched(self) -> Iterator[None]:
        """`Worker.unwatched` in the actor: the steps played inside are not checked there (no oracle suite, no
        abstract state), as demonstrations replayed before a campaign (`campaign.demos.play_demos`). Calls to the
        actor run in order, so steps sent before are checked. An actor started inside, in place of a lost one, is
        told too; the next reset after it makes a fresh suite."""
        self._unwatched = True  # in order with the steps in flight: those sent before are checked
        self._tell_unwatched(True)
        try:
            yield
        finally:
            self._unwatched = False
            self._tell_unwatched(False)

    def _tell_unwatched(self, on: bool) -> None:
        if self._actor is not None:
            try:
                self._get(self._actor.unwatch.remote(on), 60.0)
            except self._lost as e:
                self._lose(e)

    def watch_states(self, state_key: Any) -> None:
        """`Worker.watch_states` in the actor (and in every actor started after a lost one)."""
        self.state_key = state_key
        if self._actor is not None:
            try:
                self._get(self._actor.watch_states.remote(state_key), 60.0)
            except self._lost as e:
                self._lose(e)

    def where(self) -> tuple[str, int]:
        """(node id, pid) of the actor running this worker now."""
        return self._get(self._actor.where.remote(), self.spec.config.start_timeout_s)

    @property
    def actor(self) -> Any:
        """The Ray actor handle (tests kill it with ``ray.kill``)."""
        return self._actor

    def _get(self, ref: Any, timeout: float) -> Any:
        return self._ray.get(ref, timeout=timeout)

    def _steps(self, ref: Any, timeout: float) -> tuple[list[int | None], list[Observation], int]:
        """The answer of a call for a batch's steps (`act_ahead`, `act_more`): as `_answer_of`."""
        return self._answer_of(ref, timeout)

    def _answer_of(self, ref: Any, timeout: float) -> tuple[list[int | None], list[Observation], int]:
        """The answer of a step call (`WorkerHost._answer`: a `messages.Steps`, pickled in one piece or as it is):
        the actions played, their observations (what the actor measured put into their ``info``) and the actor's
        step count."""
        msg = wire.decode(self._unpack(self._ray.get(ref, timeout=timeout)))
        if not isinstance(msg, wire.Steps):
            raise wire.MessageError(f"a step call was answered with {msg.kind!r} (version {msg.version})")
        return list(msg.actions), [c.observation() for c in msg.answers], msg.steps

    def _unpack(self, value: Any) -> Any:
        """An answer as `WorkerHost._answer` sent it: pickled in one piece (bytes), or as it is."""
        if not isinstance(value, bytes):
            return value
        self._answer_bytes = len(value)
        return pickle.loads(value)  # noqa: S301 - vetted (tests/test_no_code_from_data.py): our own process's bytes, not a file

    def _state(self, ref: Any, timeout: float) -> wire.WorkerState:
        msg = wire.decode(self._get(ref, timeout))
        if not isinstance(msg, wire.WorkerState):
            raise wire.MessageError(f"the actor answered with {msg.kind!r} (version {msg.version}), not its state")
        self._note(msg)
        return msg

    def _fit_chunk(self, steps: int) -> None:
        """Steps per call from now on: the caller's, or fewer where an answer of that many steps (by the size of the
        last answer's ``steps``) would pass `INLINE_SHARE` of the inline limit, so it would cross Ray through the
        object store and the raylet instead of in the call's reply (frames make answers large)."""
        if steps <= 0 or not self._answer_bytes:
            return
        self._fit = max(1, int(INLINE_SHARE * self.inline_bytes * steps // self._answer_bytes))
        self._chunk = max(1, min(self._chunk_max, self._fit))

    def _lose(self, e: BaseException) -> None:
        """The actor is gone (or does not answer): forget it and its snapshots; the next reset starts another."""
        self.lost += 1
        self.lost_reason = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
        actor, self._actor, self._pending, self._active, self._batch = self._actor, None, None, False, 0
        self._buf.clear()
        self._queued.clear()
        self._more, self._cont = 0, False
        if actor is not None:
            try:
                self._ray.kill(actor, no_restart=True)
            except Exception:  # noqa: BLE001 - already dead, or its node is gone
                pass

    def _lost_obs(self) -> Observation:
        last = self._last
        exit = GameExit("worker_lost", message=f"the worker's Ray actor was lost mid-episode ({self.lost_reason}); "
                        "the episode ends here (not a game bug), the next reset starts a new actor")
        obs = Observation(frame=last.frame if last else None, features=dict(last.features) if last else {},
                          done=True, frame_no=last.frame_no if last else 0, time_ms=last.time_ms if last else 0,
                          action_mask=last.action_mask if last else None, info={"exit": exit})
        self._last, self._active = obs, False
        return obs

    def _note(self, state: wire.WorkerState) -> None:
        self.steps = state.steps
        self.peak_rss_kb = max(self.peak_rss_kb, state.peak_rss_kb)
        self.final_code_lines = state.final_code_lines
        self.snapshot_count, self.host_starts = state.snapshot_count, state.host_starts

    # ---- episodes
    def reset(self, seed: int = 0) -> Observation:
        """A new episode with ``seed`` in this worker's actor; a new actor when it was lost (at most
        ``max_restarts`` times over this worker's life, then `WorkerLostError`)."""
        self._wait_pending()
        while True:
            if self._actor is None:
                if self.actor_starts > self.max_restarts:
                    raise WorkerLostError(f"the worker's Ray actor was lost {self.lost} times (last: "
                                          f"{self.lost_reason}); no more restarts ({self.max_restarts})")
                self._start_actor()
            try:
                state = self._state(self._actor.reset.remote(int(seed)), self.spec.config.start_timeout_s + WAIT_SLACK_S)
            except self._lost as e:
                self._lose(e)
                continue
            assert state.answer is not None
            obs = state.answer.observation()
            if self._local and self._guarded != self.actor_starts:  # the new actor's processes are up now
                guard(descendants())
                self._guarded = self.actor_starts
            self._last, self._active = obs, not obs.done
            return obs

    def step_async(self, inputs: InputFrame, frames: int | None = None, hold: int | None = None) -> None:
        self._send("step", inputs, frames, hold)
        self._sent = None

    def act_async(self, action: int, frames: int | None = None) -> None:
        action = self.checked_action(action)
        self._send("act", action, frames)
        self._sent = action

    def act_ahead_async(self, action: int, plan: Plan | None, n: int, frames: int | None = None,
                        chunk: int | None = None) -> None:
        """`Worker.act_ahead_async` in the actor, ``chunk`` steps per remote call (all ``n`` by default): the
        actor chooses each step's action on the mask the step before it showed, and plays it. The first
        `step_wait` waits for the first call's answer, the next ones answer its other steps from here; as soon
        as an answer is in, the next call goes (the plan goes on in the actor), so the actor plays while the
        caller looks at the steps it has. A lost actor ends the episode at the first step not answered yet
        (``worker_lost``)."""
        if plan is None or n <= 1:
            self.act_async(action, frames)
            return
        action = self.checked_action(action)
        chunk = int(chunk or n)
        first = min(int(n), chunk, self._fit or chunk)
        self._send("act_ahead", action, plan, first, frames, int(n) if PLAY_ON else None)
        self._sent = action
        if self._pending is not True:
            self._batch, self._more, self._chunk, self._cont = first, int(n) - first, first, False
            self._chunk_max = chunk
            self._queue_more()

    def _queue_more(self) -> None:
        """Keep `DEPTH` calls of the plan in flight: the next continuations go now, so the actor finds its next
        batch queued when it ends one (instead of waiting for this process to take the answer and ask again)."""
        while self._more > 0 and 1 + len(self._queued) < DEPTH:
            n = min(self._more, self._chunk)
            self._queued.append((self._actor.act_more.remote(n), n))
            self._more -= n

    @property
    def ahead(self) -> bool:
        """The next `step_wait` answers a step of a batch that the caller did not send itself (may wait for the
        actor's next answer to know)."""
        if not self._buf and self._cont:
            self._fetch()
        return bool(self._buf)

    @property
    def in_flight(self) -> bool:
        """A step or a batch of steps is being played in the actor (its answer not taken yet)."""
        return self._pending is not None and self._pending is not True

    def _fetch(self, go_on: bool = True) -> None:
        """Take the answer of the batch in flight into the buffer; the next call already queued (`DEPTH`) is in
        flight now, and (``go_on``) the plan's next call goes. A batch that ended short (the episode ended, or
        the plan could not choose) ends the plan: a continuation queued behind it plays nothing. A lost actor:
        the first batch's answer is a ``worker_lost`` end; a continuation's is nothing (the caller's next step
        finds the episode ended so)."""
        ref, self._pending = self._pending, None
        batch, self._batch = self._batch, 0
        cont, self._cont = self._cont, False
        try:
            actions, out, steps = self._steps(ref, self.spec.config.step_timeout_s * batch + WAIT_SLACK_S)
        except self._lost as e:
            self._lose(e)
            obs = self._lost_obs()
            if not cont:
                self._buf.append((obs, self._sent))
            return
        if out:
            self._note_end(out[-1])
        self.steps = steps - len(out) - len(self._buf)
        self._buf.extend(zip(out, actions, strict=True))
        self._fit_chunk(len(out))
        if len(out) < batch or out[-1].done:
            self._more = 0
            self._queued.clear()  # each answers nothing, in order in the actor: the plan ended here
            return
        if not go_on:
            self._more = 0  # nothing more is sent; what is queued already is the caller's to take or drop
        if self._queued:
            (self._pending, self._batch), self._cont = self._queued.popleft(), True
        elif self._more > 0:
            n = min(self._more, self._chunk)
            self._pending = self._actor.act_more.remote(n)
            self._batch, self._more, self._cont = n, self._more - n, True
        self._queue_more()

    def _send(self, method: str, *args: Any) -> None:
        if self._pending is not None or self._buf:
            raise WorkerError("a step is already in flight; call step_wait() first")
        if self._last is None:
            raise WorkerError("no episode is running; call reset() first")
        if self._actor is None or not self._active:
            self._pending = True  # the episode is over (or its actor lost): step_wait answers its final state
            return
        self._pending = getattr(self._actor, method).remote(*args)

    def step_wait(self) -> Observation:
        """The answer to the step sent (or the next of a batch: `ahead`); a ``worker_lost`` exit when the actor
        died meanwhile."""
        if not self._buf and self._batch and self._pending is not None:
            self._fetch()
        if self._buf:
            obs, self.played = self._buf.popleft()
            self.steps += 1
            self._last = obs
            return obs
        if self._pending is None:
            raise WorkerError("no step in flight; call step_async() first")
        ref, self._pending = self._pending, None
        self.played = self._sent
        if ref is True:
            assert self._last is not None
            return self._last
        try:
            _, (obs,), self.steps = self._answer_of(ref, self.spec.config.step_timeout_s + WAIT_SLACK_S)
        except self._lost as e:
            self._lose(e)
            return self._lost_obs()
        self._last = obs
        self._note_end(obs)
        return obs

    def _note_end(self, obs: Observation) -> None:
        """An answered step that ended the game (a done observation with its exit): no live episode in the actor."""
        if obs.done and obs.exit is not None:
            self._active = False

    def _wait_pending(self) -> None:
        """Read the step in flight, and drop what is left of a batch (the episode is being ended or replaced):
        a continuation still queued is not waited for (the actor plays it, in order, before the next call)."""
        if self._batch and self._pending is not None:
            self._fetch(go_on=False)
            if self._cont:
                self._pending, self._batch, self._cont = None, 0, False
            self._queued.clear()
        elif self._pending is not None:
            self.step_wait()
        self._buf.clear()
        self._more = 0

    def step_many(self, steps: Sequence[tuple[InputFrame | int, int | None]]) -> list[Observation]:
        """`Worker.step_many` in the actor: one remote call for every step."""
        if self._pending is not None or self._buf:
            raise WorkerError("a step is already in flight; call step_wait() first")
        if not steps:
            return []
        if self._actor is None or not self._active:
            assert self._last is not None, "no episode is running; call reset() first"
            return [self._last]
        try:
            _, out, self.steps = self._answer_of(self._actor.step_many.remote(list(steps)),
                                                 self.spec.config.step_timeout_s * len(steps) + WAIT_SLACK_S)
        except self._lost as e:
            self._lose(e)
            return [self._lost_obs()]
        if out:
            self._last = out[-1]
            self._note_end(out[-1])
        return out

    def call(self, target: str, *args: Any, timeout: float = 60.0) -> Any:
        """`Worker.call` in the actor's live episode. The plan's calls in flight (up to `DEPTH`) are taken in first
        and their steps kept for `step_wait`, then the steps the game played past them (`WorkerHost.act_ahead`: it
        does not wait for the next call): the call sees the game after all of them, and the plan ends there."""
        while self._cont and self._pending is not None:  # the plan's steps in flight, kept for step_wait
            self._fetch(go_on=False)
        if self._pending is not None:
            raise WorkerError("a step is already in flight; call step_wait() first")
        if self._actor is None:
            raise WorkerError(f"no live episode to call {target} in (the worker's Ray actor was lost)")
        try:
            called = wire.decode(self._get(self._actor.call.remote(target, args, timeout), timeout + WAIT_SLACK_S))
        except self._lost as e:
            self._lose(e)
            raise WorkerError(f"the worker's Ray actor was lost while running {target}: {e}") from e
        if not isinstance(called, wire.Called):
            raise wire.MessageError(f"a call was answered with {called.kind!r} (version {called.version})")
        held = [c.observation() for c in called.held]
        # the plan's steps the game played past the last answer, in order, before the call
        self._buf.extend(zip(held, called.held_actions, strict=True))
        if held:
            self._note_end(held[-1])
        if not called.ok:
            raise called.value
        return called.value

    def end_episode(self) -> None:
        self.final_code_lines = {}
        self._wait_pending()
        if self._actor is not None:
            try:
                self._state(self._actor.end_episode.remote(), 60.0)
            except self._lost as e:
                self._lose(e)
        self._last, self._active = None, False

    # ---- snapshots: parked in the actor that made them
    @property
    def snapshots_supported(self) -> bool:
        return self.capabilities.snapshots and hasattr(os, "fork")

    def snapshot(self) -> int | None:
        """`Worker.snapshot` in the actor; the id also names the actor (a later actor never restores it)."""
        if not self.snapshots_supported or self._actor is None or self._pending is not None or self._buf \
                or not self._active:
            return None
        try:
            sid = self._get(self._actor.snapshot.remote(), self.spec.config.step_timeout_s + WAIT_SLACK_S)
        except self._lost as e:
            self._lose(e)
            return None
        return None if sid is None else (self.actor_starts << _ID_BITS) | int(sid)

    def restore(self, snapshot: int) -> Observation | None:
        """Resume a snapshot of this worker's current actor; None when it is gone (its actor was lost)."""
        if snapshot >> _ID_BITS != self.actor_starts or self._actor is None:
            return None
        self._wait_pending()
        try:
            state = self._state(self._actor.restore.remote(snapshot & (2**_ID_BITS - 1)),
                                self.spec.config.start_timeout_s + WAIT_SLACK_S)
        except self._lost as e:
            self._lose(e)
            return None
        obs = None if state.answer is None else state.answer.observation()
        if obs is not None:
            self._last, self._active = obs, True
        return obs

    def drop_snapshot(self, snapshot: int) -> None:
        if snapshot >> _ID_BITS == self.actor_starts and self._actor is not None:
            self._actor.drop_snapshot.remote(snapshot & (2**_ID_BITS - 1))  # in order with later calls

    def close(self) -> None:
        """End the episode and the actor (its worker processes die with it)."""
        actor, self._actor = self._actor, None
        self._pending, self._active, self._batch = None, False, 0
        self._buf.clear()
        self._queued.clear()
        self._more, self._cont = 0, False
        if actor is None:
            return
        try:
            self._state(actor.close.remote(), 30.0)
        except Exception:  # noqa: BLE001 - lost, or Ray already shut down: nothing left to close
            pass
        try:
            self._ray.kill(actor, no_restart=True)
        except Exception:  # noqa: BLE001
            pass

    def __enter__(self) -> RayWorker:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
