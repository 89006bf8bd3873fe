"""The one step loop every campaign runs: worker slots, seeds, the budget, and observers.

`CampaignLoop` owns N slots (one environment and one agent each), plays one round at a time (every
slot's action is sent before any result is awaited, so the workers step in parallel; each slot plays one
step a round), starts and ends episodes, and tells its observers what happened, in the style of Stable-Baselines3's callbacks. It knows
nothing of oracles, coverage, stores or progress bars: those are observers (`observers.py`). ``playtester
run`` is the loop with counting observers only; ``playtester explore`` adds the oracles, coverage, the
store and the explorer's hooks; the agent tests drive the same loop on toy environments.

An environment is a `LoopEnv`: ``reset(seed=) -> (obs, info)``, ``step_async(action)``,
``step_wait() -> (obs, reward, terminated, truncated, info)``, ``last_obs`` (the driver's `Observation`
of the latest step, or None for environments that have none), ``can_act_ahead`` and ``ahead`` (False for an
environment that plays no batches), ``worker`` (None for one with no game) and ``close()``: `playtester.env.GameEnv` and toy environments alike. An
agent is a `LoopAgent` (every `playtester.agents.common.Explorer` is one).

Acting ahead (``ahead`` > 1): when a slot's agent answers `Explorer.plan` with a plan (the random agent does)
and its environment can play batches (``env.can_act_ahead``: `GameEnv` over the local `Worker` or the
`RayWorker`), the slot's action goes to the worker with the plan, and the worker goes on playing: each later
action is chosen where the game runs, by the plan, on the action mask of the step before it. A `RayWorker`
asks its actor for ``ahead`` steps per call (fewer where an answer that long would pass Ray's inline limit)
and sends the next call as soon as an answer is in (the actor plays while this process looks at the steps it
has); with the local `Worker` the game's episode process plays the plan itself (pygame and remote games:
`playtester.drive.episode.answer_step`, `RemoteRunner.play_batch`), or the worker sends each step as soon as
the answer before it is in. The rounds stay as they were: in each later round the slot's step is the plan's
next answer (nothing is sent), taken in slot order with the other slots' steps, its action recorded in the trace, and
``act`` called on it as if it had been asked (the agent's state advances as it would have; an answer that
differs from the plan's is an error), then the observers told. So every observer sees every step, in the
same order, and a campaign gives the same episodes, traces and findings with any ``ahead``. A plan never
runs past the episode's step limit or the step budget (its length is capped by both: the games play at most
one step per slot beyond the budget); it ends at the step that ends the episode (a crash or hang is that
step's, with its trace), and what is left of it when the loop ends an episode itself (an explorer's stop,
the end of the budget) is dropped with the episode.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from playtester.errors import NoValidActionError, UsageError, WorkerError, WorkerLostError

EMPTY_ROUNDS = 100  # rounds in a row in which no slot could act: the action mask never allows anything
AHEAD = 32  # acting ahead: steps per call to a Ray worker (the default of `CampaignLoop`'s ``ahead``; 1: off); 32 against
#            8: about a tenth less CPU a step on Ray (dungeon, 2 workers; the Ray bench reports blockmaze)
PLAN_MAX = 10_000  # steps one plan may play (within the episode's limit and the budget), ``ahead`` per call


def check_ahead(ahead: Any) -> int:
    """``ahead`` as a batch length (an integer >= 1), or a UsageError that says what it may be."""
    if isinstance(ahead, bool) or not isinstance(ahead, int) or ahead < 1:
        raise UsageError(f"ahead = {ahead!r}: the steps per call to a worker when acting ahead must be an integer "
                         f">= 1 (1: off, one step per call; default {AHEAD})")
    return ahead


class LoopEnv(Protocol):
    """What the loop asks of an environment (see the module's doc). One that can act ahead (``can_act_ahead``
    True, as `playtester.env.GameEnv`) is an `AheadEnv` too."""

    last_obs: Any  # the driver's `Observation` of the latest step, or None
    can_act_ahead: bool  # it plays batches (`AheadEnv`); False: one step a call
    worker: Any  # the `playtester.drive.workerlike.WorkerLike` that plays the game (None: no game, a toy)

    @property
    def ahead(self) -> bool:
        """The next ``step_wait`` answers a batch's step that was not sent with ``step_async`` (False: never)."""
        ...

    def reset(self, *, seed: int | None = None) -> tuple[Any, dict[str, Any]]: ...
    def step_async(self, action: int) -> None: ...
    def step_wait(self) -> tuple[Any, float, bool, bool, dict[str, Any]]: ...
    def close(self) -> None: ...


class AheadEnv(LoopEnv, Protocol):
    """An environment that plays batches (``can_act_ahead``): its episode's step limit and steps so far, the
    batch's start, and the action of each step it answers."""

    max_episode_steps: int
    episode_steps: int
    played: int | None

    def act_ahead_async(self, action: int, plan: Any, n: int, chunk: int) -> None: ...


class LoopAgent(Protocol):
    """What the loop asks of an agent: its ``name``, an action (``act``), a `Plan` to act ahead with or None
    (``plan``), and whether it starts the slot's next episode itself (``episode_start``: a return to a snapshot or
    a trace). `playtester.agents.common.Explorer` implements it (and the hooks `observers.ExplorerHooks` calls)."""

    name: str

    def act(self, obs: Any, info: dict[str, Any], slot: int = 0) -> int: ...
    def plan(self, obs: Any, info: dict[str, Any], slot: int = 0) -> Any | None: ...
    def episode_start(self, slot: int) -> bool: ...


@dataclass(frozen=True)
class Budget:
    """How long a campaign runs: wall-clock seconds or a number of steps."""

    seconds: float | None = None
    steps: int | None = None

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"10m"``, ``"90s"``, ``"1h"``, ``"1h30m"`` (time) or ``"50000"`` (steps)."""
        text = text.strip().lower()
        if text.isdigit():
            return cls(steps=int(text))
        parts = re.fullmatch(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?", text)
        if not text or not parts or not any(parts.groups()):
            raise UsageError(f"budget {text!r} is neither a time (10m, 90s, 1h30m) nor a step count (50000)")
        h, m, s = (float(g) if g else 0.0 for g in parts.groups())
        return cls(seconds=h * 3600 + m * 60 + s)

    def spent(self, steps: int, seconds: float) -> bool:
        return (self.steps is not None and steps >= self.steps) or (self.seconds is not None and seconds >= self.seconds)

    def __str__(self) -> str:
        return f"{self.steps} steps" if self.steps is not None else f"{self.seconds:g} s"


@dataclass
class Slot:
    """One worker's episode in flight."""

    index: int
    env: LoopEnv
    agent: LoopAgent
    seed: int = 0
    actions: list[int] = field(default_factory=list)  # played in this episode, from its start (its trace)
    obs: Any = None
    info: dict[str, Any] = field(default_factory=dict)
    suite: Any = None  # the oracles' state for this episode (copied into snapshots); None without oracles here
    # (no ``make_suite``: none, or the workers check where the game runs and copy theirs into their snapshots)
    replaying: deque[int] | None = None  # actions of a trace being replayed (an explorer's return) still to play
    replayed: Callable[[bool], None] | None = None  # called when that replay ends: did it get there?
    replay_t0: float = 0.0
    replay_skip: int = 0  # actions of that trace a restored snapshot already stood at
    dropped: bool = False  # its worker was lost past its restarts: the campaign goes on without this slot

    @property
    def last_obs(self) -> Any:
        """The driver's `Observation` of the latest step (None for environments without one)."""
        return self.env.last_obs


@dataclass
class Step:
    """One played step as the observers see it. Step 0 is an episode's first observation (no action)."""

    slot: Slot
    index: int  # steps played in the episode, this one included
    action: int | None
    prev_obs: Any  # the observation the action was chosen on, and its info
    prev_info: dict[str, Any] | None
    obs: Any
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]
    game_obs: Any  # the driver's Observation of this step, or None
    key: str | None = None  # the campaign's abstract state key (set by a state-coverage observer)
    fresh: bool = False  # a state the campaign had never seen
    stop: bool = False  # an observer (the explorer) asks to end the episode here


class Observer:
    """Something that watches a campaign. Every method is optional; the loop calls them in list order.

    - ``on_start(loop)``: once, before the first episode starts.
    - ``on_reset(slot)``: the slot's game was reset or restored (a new episode process runs).
    - ``on_episode_start(slot, fresh)``: an episode begins; ``fresh`` when the campaign reset it (its step
      0 follows), False when the explorer started it itself (a return to a snapshot or a trace).
    - ``on_step(step)``: a played step (`Step`), step 0 included. Returning False stops the campaign (as a
      Stable-Baselines3 callback's ``_on_step``): the round in flight is finished (every step already sent is
      answered and observed), the episodes in flight end (outcome ``stopped``), ``on_end`` is called, and
      `campaign.explore` keeps what was found, checks it and writes the report as after a spent budget.
      None (no return) or True goes on.
    - ``on_replay_step(slot, index)``: a step of a replayed trace (watched, not counted, nothing re-reported).
    - ``on_episode_end(slot, outcome, reason)``: an episode ended (finished, done, truncated, crash, hang,
      memory, worker_lost, no-valid-action, agent, budget, stopped).
    - ``on_round(loop)``: after every round of steps.
    - ``on_end(loop)``: once, after the budget was spent and the episodes in flight were ended.
    """

    def on_start(self, loop: CampaignLoop) -> None: ...
    def on_reset(self, slot: Slot) -> None: ...
    def on_episode_start(self, slot: Slot, fresh: bool) -> None: ...
    def on_step(self, step: Step) -> bool | None: ...
    def on_replay_step(self, slot: Slot, index: int) -> None: ...
    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None: ...
    def on_round(self, loop: CampaignLoop) -> None: ...
    def on_end(self, loop: CampaignLoop) -> None: ...


def outcome_of(exit: Any, truncated: bool, done_reason: str | None) -> str:
    """How an episode ended, from its exit (a `GameExit` or None), truncation and done reason."""
    if exit is None:
        return "truncated" if truncated else ("done" if done_reason else "finished")
    if exit.kind in ("hang", "memory", "worker_lost"):
        return exit.kind
    return "crash" if exit.is_failure else "finished"


class CampaignLoop:
    """N slots stepping in rounds until ``budget`` is spent, with ``observers`` told everything.

    Episode seeds are ``seed``, ``seed + 1``, ... in the order episodes start, so a campaign replays.
    ``make_suite`` makes a fresh oracle suite for each episode (None: no oracles). ``steps``, ``episodes``
    and ``elapsed_s`` continue a resumed campaign's counts. A slot whose environment raises
    `WorkerLostError` when it starts an episode (a Ray worker lost past its restarts) is dropped with a
    warning (``warnings``) and the others go on; with none left, `WorkerError`. ``ahead``: acting ahead, the
    steps per call to a Ray worker (see the module's doc; None: `AHEAD`; 1: off, one step per call).

    An observer whose ``on_step`` returns False, or anyone calling `stop`, ends the campaign after the round in
    flight (``stopped`` says why; None when the budget ended it).

    The campaign's clock (`now_s`, a time budget, steps/s) starts when every slot has started its first
    episode: the workers' own start (a Ray actor's and the game host inside it, which start at its first call)
    is not campaign time, so a backend is not charged for starting up (``startup_s`` holds how long it took).
    """

    def __init__(self, envs: Sequence[LoopEnv], agents: Sequence[LoopAgent], budget: Budget, *, seed: int = 0,
                 observers: Sequence[Observer] = (), make_suite: Callable[[], Any] | None = None,
                 steps: int = 0, episodes: int = 0, elapsed_s: float = 0.0, ahead: int | None = None) -> None:
        self.ahead = check_ahead(AHEAD if ahead is None else ahead)
        self.batches = 0  # plans handed to workers when acting ahead
        self.batched_steps = 0  # steps a plan chose (after each plan's first, which the agent's act chose)
        self.slots = [Slot(i, env, agent) for i, (env, agent) in enumerate(zip(envs, agents, strict=True))]
        self.budget, self.next_seed = budget, seed
        self.observers = list(observers)
        self.make_suite = make_suite
        self.steps, self.episodes, self.elapsed0 = steps, episodes, elapsed_s
        self.t0 = time.perf_counter()
        self.startup_s = 0.0  # from here to every slot's first episode started (`run`)
        self.agents = list({id(a): a for a in agents}.values())  # a shared explorer once
        self._empty_rounds = 0
        self.warnings: list[str] = []
        self.stopped: str | None = None  # why the campaign was stopped before its budget was spent (`stop`)

    # ---- time and events
    def now_s(self) -> float:
        """Seconds the campaign has run, a resumed campaign's earlier time included."""
        return self.elapsed0 + time.perf_counter() - self.t0

    def emit(self, event: str, *args: Any) -> None:
        for o in self.observers:
            getattr(o, event)(*args)

    def emit_step(self, step: Step) -> None:
        """Every observer's ``on_step``; one that returns False stops the campaign (`stop`), the later ones still
        see the step."""
        for o in self.observers:
            if o.on_step(step) is False and self.stopped is None:
                self.stop(f"{type(o).__name__} stopped the campaign at step {self.steps}")

    def stop(self, reason: str) -> None:
        """End the campaign after the round in flight: every step already sent is answered and observed, then the
        episodes in flight end (outcome ``stopped``) and ``on_end`` is called."""
        self.stopped = self.stopped or reason

    @property
    def done(self) -> bool:
        """The budget is spent, or the campaign was stopped."""
        return self.stopped is not None or self.budget.spent(self.steps, self.now_s())

    def new_suite(self) -> Any:
        if self.make_suite is None:
            return None
        suite = self.make_suite()
        suite.reset()
        return suite

    # ---- running
    def run(self, reset: Sequence[bool] | None = None) -> None:
        """Start every slot's first episode (``reset[i]`` False: slot i's game was already reset at
        ``slot.seed``), play rounds until the budget is spent, and end the episodes in flight."""
        self.emit("on_start", self)
        for slot in self.slots:
            self.start(slot, reset=True if reset is None else reset[slot.index])
        now = time.perf_counter()
        self.startup_s, self.t0 = now - self.t0, now  # the clock starts once every worker is up
        while not self.done:
            self.round()
            self.emit("on_round", self)
        outcome, why = ("stopped", self.stopped) if self.stopped else ("budget", "the campaign's budget was spent")
        for slot in self.slots:  # the episodes in flight count too (not a return still replaying its way there)
            if slot.actions and slot.replayed is None and not slot.dropped:
                self.finish(slot, outcome, why)
        self.emit("on_end", self)

    def start(self, slot: Slot, reset: bool = True) -> None:
        """Begin the slot's next episode: the explorer's own (a return), else a reset with the next seed.
        A slot whose worker is lost for good is dropped."""
        try:
            self._start(slot, reset)
        except WorkerLostError as e:
            slot.dropped, slot.replaying, slot.replayed, slot.actions = True, None, None, []
            self.warnings.append(f"worker {slot.index} dropped: {e}")
            if all(s.dropped for s in self.slots):
                raise WorkerError(f"every worker was lost; the last: {e}") from e

    def _start(self, slot: Slot, reset: bool) -> None:
        if slot.agent.episode_start(slot.index):
            self.emit("on_episode_start", slot, False)
            return
        if reset:
            slot.seed, self.next_seed = self.next_seed, self.next_seed + 1
            slot.obs, slot.info = slot.env.reset(seed=slot.seed)
            self.emit("on_reset", slot)
        slot.actions = []
        slot.suite = self.new_suite()
        self.emit("on_episode_start", slot, True)
        self.emit_step(Step(slot, 0, None, None, None, slot.obs, 0.0, False, False, slot.info, slot.last_obs))

    def finish(self, slot: Slot, outcome: str, reason: str) -> None:
        self.episodes += 1
        self.emit("on_episode_end", slot, outcome, reason)

    def round(self) -> None:
        """Every active slot sends its action (or has the next step of its batch in flight already), then
        every result is taken in slot order."""
        live = [s for s in self.slots if not s.dropped]
        active = live if self.budget.steps is None else live[:max(1, min(len(live), self.budget.steps - self.steps))]
        sent: list[tuple[Slot, bool, Any, dict[str, Any], bool]] = []
        for slot in active:
            replay = bool(slot.replaying)
            prev, prev_info = slot.obs, slot.info
            if not replay and slot.env.ahead:  # the batch's next step: already played or playing
                sent.append((slot, False, prev, prev_info, True))
                continue
            a = slot.replaying.popleft() if replay else self._act(slot)  # type: ignore[union-attr]
            if a is None:
                continue
            slot.actions.append(a)
            n = 1 if replay else self._plan_len(slot, len(active))
            plan = slot.agent.plan(prev, prev_info, slot.index) if n > 1 else None
            if plan is not None:
                _ahead_env(slot).act_ahead_async(a, plan, n, self.ahead)
                self.batches += 1
            else:
                slot.env.step_async(a)
            sent.append((slot, replay, prev, prev_info, False))
        self._empty_rounds = 0 if sent else self._empty_rounds + 1
        if self._empty_rounds >= EMPTY_ROUNDS:
            raise NoValidActionError(f"the action mask allowed no action at the start of {EMPTY_ROUNDS} episodes "
                                     "in a row: check the action space (`playtester analyze`) or the game's mask")
        for slot, replay, prev, prev_info, ahead in sent:
            slot.obs, r, term, trunc, slot.info = slot.env.step_wait()
            if replay:
                self._replay_step(slot, term or trunc)
                continue
            if ahead:
                self._ahead_step(slot, prev, prev_info)
            self.steps += 1
            step = Step(slot, len(slot.actions), slot.actions[-1], prev, prev_info, slot.obs, r, term, trunc,
                        slot.info, slot.last_obs)
            self.emit_step(step)
            if term or trunc:
                exit = slot.info.get("exit")
                self.finish(slot, outcome_of(exit, trunc, slot.info.get("done_reason")),
                            exit.message if exit else slot.info.get("done_reason", "step limit"))
                self.start(slot)
            elif step.stop:
                self.finish(slot, "agent", f"{slot.agent.name} ended the episode")
                self.start(slot)

    def _plan_len(self, slot: Slot, active: int) -> int:
        """How many steps a plan of the slot may play: up to the episode's step limit and the step budget's
        rounds left (in calls of ``ahead`` steps); 1 when acting ahead is off (``ahead`` 1), the slot's environment
        plays no batches or its agent has no plan."""
        if self.ahead <= 1 or not slot.env.can_act_ahead:
            return 1
        env = _ahead_env(slot)
        n = min(PLAN_MAX, env.max_episode_steps - env.episode_steps)
        if self.budget.steps is not None:
            n = min(n, -(-(self.budget.steps - self.steps) // max(1, active)))  # the rounds left, rounded up
        return max(1, n)

    def _ahead_step(self, slot: Slot, prev: Any, prev_info: dict[str, Any]) -> None:
        """A batch's step, answered: its action into the trace, and the agent asked as if it chose it (its
        state advances as it would have); a plan that chose otherwise than the agent's ``act`` is an error."""
        played = _ahead_env(slot).played
        self.batched_steps += 1
        try:
            own = slot.agent.act(prev, prev_info, slot.index)
        except NoValidActionError:
            own = None
        if own != played:
            raise WorkerError(f"{slot.agent.name}'s plan chose action {played} where its "
                              f"act chooses {own} (step {len(slot.actions) + 1} of the episode with seed {slot.seed}): "
                              "a plan must choose what act would, from the action mask alone")
        slot.actions.append(played)

    def _act(self, slot: Slot) -> int | None:
        """The agent's action; None when no action is valid (that episode ends, the slot waits a round)."""
        try:
            return slot.agent.act(slot.obs, slot.info, slot.index)
        except NoValidActionError as e:
            self.finish(slot, "no-valid-action", str(e))
            self.start(slot)
            return None

    def _replay_step(self, slot: Slot, ended: bool) -> None:
        """One step of a return by trace replay, played beside the other slots' steps (watched by the
        oracles and code coverage, left out of state coverage and the step count). A replay that cannot
        reach its end starts the slot afresh."""
        self.emit("on_replay_step", slot, len(slot.actions))
        done = slot.last_obs is not None and slot.last_obs.done
        if ended or done or not slot.replaying:
            end, slot.replaying, slot.replayed = slot.replayed, None, None
            ok = not (ended or done)
            if end is not None:
                end(ok)
            if not ok:
                self.start(slot)

    def close(self) -> None:
        for slot in self.slots:
            slot.env.close()


def _ahead_env(slot: Slot) -> AheadEnv:
    """The slot's environment as one that plays batches (the loop asks only when its ``can_act_ahead``)."""
    return cast(AheadEnv, slot.env)
