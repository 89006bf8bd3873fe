"""Campaigns: an agent plays a game on N worker processes until a budget is spent.

- `run_agent` is the engine behind ``playtester run``: it accounts for every episode (finished,
  crashed, hung, truncated) and counts failed ``probe.check`` calls, without storing anything.
- `explore` is the engine behind ``playtester explore``: every step also passes through the oracles
  and coverage, and findings, traces and coverage go to the SQLite store as they happen.
"""

from __future__ import annotations

import copy
import glob
import os
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playtester.actions.space import space_identity, space_to_dict
from playtester.agents import make_agent
from playtester.agents.common import CampaignInfo, Demo, DemoStep, Transition
from playtester.coverage.code import CodeCoverage
from playtester.coverage.maps import PositionMap
from playtester.coverage.state import Abstraction, encode_key, make_abstraction
from playtester.drive.observation import GameExit, Observation
from playtester.drive.spec import GameSpec, resolve
from playtester.drive.worker import code_include_patterns
from playtester.env import GameEnv, resolve_space, space_from_dict
from playtester.errors import ConfigError, NoValidActionError, UsageError
from playtester.findings import Trace
from playtester.oracles import make_oracles
from playtester.store import Store


@dataclass
class EpisodeEnd:
    """How one episode ended."""

    worker: int
    seed: int
    steps: int
    outcome: str  # finished | done | truncated | crash | hang | memory | no-valid-action
    exit: GameExit | None = None
    reason: str = ""


@dataclass
class RunSummary:
    """What a run did and found."""

    game: str
    agent: str
    actions: str
    n_actions: int
    workers: int
    steps: int = 0
    seconds: float = 0.0
    episodes: list[EpisodeEnd] = field(default_factory=list)
    checks: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    warnings: list[str] = field(default_factory=list)
    inputs_read: int = 0
    memory_limit_mb: int | None = None  # each episode process's data limit (0: none)
    peak_rss_mb: float = 0.0  # the largest peak resident memory of an episode process

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    def count(self, outcome: str) -> int:
        return sum(1 for e in self.episodes if e.outcome == outcome)

    @property
    def crashes(self) -> list[EpisodeEnd]:
        return [e for e in self.episodes if e.outcome == "crash"]

    @property
    def hangs(self) -> list[EpisodeEnd]:
        return [e for e in self.episodes if e.outcome == "hang"]

    @property
    def memory(self) -> list[EpisodeEnd]:
        return [e for e in self.episodes if e.outcome == "memory"]


def _outcome(exit: GameExit | None, truncated: bool, done_reason: str | None) -> str:
    if exit is None:
        return "truncated" if truncated else ("done" if done_reason else "finished")
    if exit.kind in ("hang", "memory"):
        return exit.kind
    return "crash" if exit.is_failure else "finished"


def with_memory_limit(spec: GameSpec, workers: int) -> GameSpec:
    """``spec`` with its per-worker memory limit settled: the config's, else half the machine's memory split
    over ``workers``. Settled in the spec, it is in every trace, so a memory bug replays under its limit."""
    if spec.config.memory_limit_mb is not None:
        return spec
    from playtester.drive.lifetime import auto_memory_limit_mb

    return spec.with_config(memory_limit_mb=auto_memory_limit_mb(workers))


def run_agent(spec: GameSpec, agent: str = "random", steps: int = 1000, workers: int = 1, seed: int = 0,
              actions: Any = None, on_step: Callable[[RunSummary], None] | None = None) -> RunSummary:
    """Run ``agent`` on the game for ``steps`` steps in total over ``workers`` worker processes.

    Episode seeds are ``seed``, ``seed + 1``, ... in the order episodes start, so a run is reproducible.
    """
    spec = with_memory_limit(spec, workers)
    envs = [GameEnv(spec, actions=actions, obs_type="pixels", capture=None)]
    envs += [GameEnv(spec, actions=envs[0].space, obs_type="pixels", capture=None) for _ in range(workers - 1)]
    space = envs[0].space
    summary = RunSummary(spec.text, agent, space.kind, len(space), workers, warnings=list(space.warnings))
    agents = [make_agent(agent, len(space), seed=seed * 1000 + i) for i in range(workers)]
    if getattr(agents[0], "shared", False):
        summary.warnings.append(f"agent {agent.split(':')[0]!r} learns only in a campaign (`playtester explore`); "
                                "here it plays its untrained policy")
    next_seed = seed
    states: list[tuple[Any, dict[str, Any], int]] = []
    silenced: dict[str, str] = {}  # audio files the machine could not decode, played as silence: reason
    t0 = time.perf_counter()
    try:
        for env in envs:
            obs, info = env.reset(seed=next_seed)
            _note_silenced(silenced, env.last_obs)
            states.append((obs, info, next_seed))
            next_seed += 1
        read_in_episode = [0] * workers
        while summary.steps < steps:
            active = list(range(min(workers, steps - summary.steps)))
            chosen: dict[int, int] = {}
            for i in active:
                obs, info, ep_seed = states[i]
                try:
                    chosen[i] = agents[i].act(obs, info)
                except NoValidActionError as e:
                    summary.episodes.append(EpisodeEnd(i, ep_seed, envs[i].episode_steps, "no-valid-action",
                                                       reason=str(e)))
                    obs, info = envs[i].reset(seed=next_seed)
                    states[i] = (obs, info, next_seed)
                    next_seed += 1
            for i, a in chosen.items():
                envs[i].step_async(a)
            for i in chosen:
                obs, _r, term, trunc, info = envs[i].step_wait()
                summary.steps += 1
                last = envs[i].last_obs
                assert last is not None
                _note_silenced(silenced, last)
                reads = int(last.info.get("inputs_read", 0))
                summary.inputs_read += reads
                read_in_episode[i] += reads
                summary.checks.update(c.message for c in last.checks)
                summary.events.update(e.name for e in last.events)
                if term or trunc:
                    ep_seed = states[i][2]
                    summary.episodes.append(EpisodeEnd(i, ep_seed, envs[i].episode_steps,
                                                       _outcome(info.get("exit"), trunc, info.get("done_reason")),
                                                       info.get("exit"), info.get("done_reason", "")))
                    if read_in_episode[i] == 0 and envs[i].episode_steps > 1:
                        msg = f"the game never read any input during episode seed {ep_seed}"
                        if msg not in summary.warnings:
                            summary.warnings.append(msg)
                    read_in_episode[i] = 0
                    obs, info = envs[i].reset(seed=next_seed)
                    _note_silenced(silenced, envs[i].last_obs)
                    states[i] = (obs, info, next_seed)
                    next_seed += 1
                else:
                    states[i] = (obs, info, states[i][2])
            summary.seconds = time.perf_counter() - t0
            if on_step:
                on_step(summary)
    finally:
        summary.seconds = time.perf_counter() - t0
        if silenced:
            summary.warnings.append(silenced_warning(silenced))
        for env in envs:
            env.close()
        summary.memory_limit_mb = spec.config.memory_limit_mb
        summary.peak_rss_mb = max(env.worker.peak_rss_kb for env in envs) / 1024
    return summary


def _note_silenced(seen: dict[str, str], obs: Any) -> None:
    for name, reason in (obs.info.get("audio_silenced") or ()) if obs is not None else ():
        seen.setdefault(name, reason)


def silenced_warning(silenced: dict[str, str]) -> str:
    """One warning for every audio file that played as silence (``silent_audio``), with why it could not."""
    reasons = set(silenced.values())
    files = ", ".join(sorted(silenced))
    why = f" ({next(iter(reasons))})" if len(reasons) == 1 else \
        " (" + "; ".join(f"{f}: {r}" for f, r in sorted(silenced.items())) + ")"
    return (f"audio this machine cannot decode played as silence: {files}{why}; silent_audio = false in "
            "playtester.toml (or --no-silent-audio) makes it a crash instead")


# ------------------------------------------------------------------------------------------ explore
CAPTURE = (48, 48)  # frames the explorer captures: enough for pixel cells and the frozen-screen oracle
SAVE_AGENT_EVERY_S = 30.0  # a learning agent's state goes to the store this often (and at the end)


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


def choose_abstraction(name: str, obs: Observation, features: list[str] | None,
                       ranges: dict[str, tuple[float, float]] | None = None, buckets: int = 10) -> Abstraction:
    """The state abstraction for coverage: as configured, or for ``auto`` the game's probe features when
    it reports any (ranged ones cut into ``buckets`` intervals), else the scene (live sprites by class and
    group), else pixel cells."""
    if name == "auto":
        name = "features" if obs.features else ("scene" if obs.info.get("scene") is not None and
                                                obs.info.get("scene") != () else "pixels")
    if name == "features":
        return make_abstraction("features", features=features, ranges=ranges or None, m=buckets)
    return make_abstraction(name)


@dataclass
class ExploreResult:
    """What a campaign found, with where it is stored."""

    campaign_id: int
    store: Store
    steps: int
    episodes: int
    seconds: float
    states: int
    code_covered: int
    code_total: int
    new_bugs: list[int]
    replayed_known: int = 0
    reproduced_known: int = 0
    agent_stats: dict[str, Any] = field(default_factory=dict)  # the explorer's own numbers (stats())

    @property
    def bugs(self) -> list[Any]:
        return self.store.bugs(self.campaign_id)


@dataclass
class _Slot:
    """One worker's episode in flight."""

    env: GameEnv
    agent: Any
    index: int = 0
    seed: int = 0
    actions: list[int] = field(default_factory=list)
    obs: Any = None
    info: dict[str, Any] = field(default_factory=dict)
    states: Counter[str] = field(default_factory=Counter)
    positions: PositionMap | None = None
    code: dict[str, set[int]] = field(default_factory=dict)
    suite: Any = None
    replaying: deque[int] | None = None  # actions of a trace being replayed (an explorer's return) still to play
    replayed: Callable[[bool], None] | None = None  # called when that replay ends: did it get there?
    replay_t0: float = 0.0
    replay_skip: int = 0  # actions of that trace a restored snapshot already stood at


@dataclass
class Snapshot:
    """A parked copy of an episode (see `Worker.snapshot`) with what the campaign needs to continue it:
    the seed and actions that led there (its trace) and the oracles' state at that step."""

    slot: int
    id: int
    seed: int
    actions: tuple[int, ...]
    suite: Any


class EpisodeControl:
    """How an explorer steers one slot's episodes (Go-Explore's return): snapshot the running episode,
    restore a snapshot, or replay a trace from its seed. Built by `explore`; see agents/common.py."""

    def __init__(self, slot: _Slot, slots: list[_Slot], make_suite: Callable[[], Any],
                 add_code: Callable[[_Slot, Observation], None], late_code: Callable[[_Slot], None]) -> None:
        self._slot, self._slots = slot, slots
        self.slot = slot.index
        self._make_suite, self._add_code, self._late_code = make_suite, add_code, late_code
        self.snapshots = slot.env.worker.snapshots_supported
        self._t = {"restore_s": 0.0, "restores": 0, "restore_failed": 0, "replay_s": 0.0, "replays": 0,
                   "replay_steps": 0, "replay_skipped_steps": 0, "snapshot_s": 0.0, "snapshots": 0}

    @property
    def seed(self) -> int:
        return self._slot.seed

    @property
    def actions(self) -> list[int]:
        return self._slot.actions

    def snapshot(self) -> Snapshot | None:
        t0 = time.perf_counter()
        sid = self._slot.env.snapshot() if self.snapshots else None
        if sid is None:
            return None
        self._t["snapshot_s"] += time.perf_counter() - t0
        self._t["snapshots"] += 1
        return Snapshot(self.slot, sid, self._slot.seed, tuple(self._slot.actions), copy.deepcopy(self._slot.suite))

    def restore(self, snap: Snapshot) -> bool:
        if snap.slot != self.slot:
            return False
        t0 = time.perf_counter()
        started = self._slot.env.restore(snap.id)
        if started is None:
            self._t["restore_failed"] += 1
            return False
        self._late_code(self._slot)
        slot = self._slot
        slot.obs, slot.info = started
        slot.seed, slot.actions = snap.seed, list(snap.actions)
        slot.suite = copy.deepcopy(snap.suite)
        self._t["restore_s"] += time.perf_counter() - t0
        self._t["restores"] += 1
        return True

    def replay(self, seed: int, actions: list[int] | tuple[int, ...],
               on_done: Callable[[bool], None] | None = None, start: Snapshot | None = None) -> bool:
        t0 = time.perf_counter()
        slot, env = self._slot, self._slot.env
        actions = tuple(actions)
        skip = 0
        if (start is not None and start.seed == seed and actions[:len(start.actions)] == start.actions
                and self.restore(start)):  # a snapshot on the way: replay only the rest
            skip = len(start.actions)
            obs, info, suite = slot.obs, slot.info, slot.suite
            self._t["replay_skipped_steps"] += skip
        else:
            obs, info = env.reset(seed=seed)
            self._late_code(slot)
            suite = self._make_suite()
            suite.check(env.last_obs, 0)  # findings on the way were reported when the trace was first played
        rest = actions[skip:]
        if on_done is not None and rest:  # played by the campaign's loop, beside the other slots' steps
            slot.obs, slot.info, slot.seed, slot.actions, slot.suite = obs, info, seed, list(actions[:skip]), suite
            slot.replaying, slot.replayed, slot.replay_t0, slot.replay_skip = deque(rest), on_done, t0, skip
            return True
        for j, a in enumerate(rest, start=skip):
            obs, _r, term, trunc, info = env.step(a)
            self.watch(suite, j + 1)
            if (term or trunc) and j < len(actions) - 1:
                return False
        self._t["replay_s"] += time.perf_counter() - t0
        self._t["replays"] += 1
        self._t["replay_steps"] += len(rest)
        if env.last_obs is not None and env.last_obs.done:
            return False
        slot.obs, slot.info, slot.seed, slot.actions, slot.suite = obs, info, seed, list(actions), suite
        if on_done is not None:
            on_done(True)
        return True

    def watch(self, suite: Any, step: int) -> None:
        """One replayed step seen by the oracles (their findings were reported when the trace was first
        played, so they are dropped) and by code coverage."""
        suite.check(self._slot.env.last_obs, step)
        self._add_code(self._slot, self._slot.env.last_obs)

    def replayed(self, ok: bool) -> None:
        """The end of a replay played by the campaign's loop (see `replay`): count it, tell the explorer."""
        slot = self._slot
        done, slot.replaying, slot.replayed = slot.replayed, None, None
        if ok:
            self._t["replay_s"] += time.perf_counter() - slot.replay_t0
            self._t["replays"] += 1
            self._t["replay_steps"] += len(slot.actions) - slot.replay_skip
        if done is not None:
            done(ok)

    def drop(self, snap: Snapshot) -> None:
        self._slots[snap.slot].env.worker.drop_snapshot(snap.id)

    def timings(self) -> dict[str, float]:
        return dict(self._t)


def explore(spec: GameSpec | None, *, out: str | Path, agent: str = "random", budget: Budget = Budget(steps=1000),
            workers: int = 1, seed: int = 0, actions: Any = None, resume: bool = False, code_coverage: bool = True,
            replay_known: bool = True, on_progress: Callable[[dict[str, Any]], None] | None = None,
            max_store_mb: float | None = None, demos: Sequence[str | Path] = ()) -> ExploreResult:
    """Run a testing campaign: ``agent`` plays the game on ``workers`` workers until ``budget`` is spent;
    every step passes through the oracles; bugs, traces and coverage go to the store in ``out``.

    With ``resume``, the latest unfinished campaign in ``out`` continues where it stopped (its game,
    config, action space, seeds, coverage and bugs are read back from the store).

    ``demos``: trace files (or folders of them) of play to learn from, for agents that take demonstrations
    (``wuji``); they are played once through the campaign's driver before the first step, unwatched by the
    oracles and left out of coverage and the step count (see `load_demos`).
    """
    if demos and resume:
        raise UsageError("--demos starts a campaign; a resumed campaign keeps what its agent learnt from the "
                         "demonstrations it started with: leave --demos out with --resume")
    if not resume:
        from playtester.agents import agent_class

        agent_class(agent)  # an unknown agent, or one whose extra is not installed: say so before storing
    store = Store(out, max_mb=max_store_mb)
    prior = store.campaign()
    if resume:
        if prior is None:
            raise UsageError(f"nothing to resume in {out}: it holds no campaign")
        if prior.status == "finished":
            raise UsageError(f"the latest campaign in {out} (#{prior.id}) already finished; run without --resume "
                             "to start a new one")
        spec = resolve(prior.game, **prior.config)
        space = space_from_dict(prior.space)
        agent, workers = prior.agent, prior.workers
    else:
        if spec is None:
            raise UsageError("explore needs a game")
        space = resolve_space(spec, actions)
        spec = with_memory_limit(spec, workers)
    cfg = spec.config
    shared = make_agent(agent, len(space), seed=seed * 1000, workers=workers)
    demo_traces: list[tuple[str, Trace]] = []
    if demos:
        if not getattr(shared, "learns_from_demos", False):
            from playtester.agents import AGENTS, agent_class

            takers = [n for n in AGENTS if getattr(agent_class(n), "learns_from_demos", False)]
            raise UsageError(f"the {getattr(shared, 'name', agent)!r} agent does not learn from demonstrations; "
                             f"--demos works with: {', '.join(takers)}")
        demo_traces = load_demos(demos, spec, space_to_dict(space))
    if not getattr(shared, "shared", False):  # plain agents: one per worker, as `run` does
        agents = [shared] + [make_agent(agent, len(space), seed=seed * 1000 + i) for i in range(1, workers)]
    else:
        agents = [shared] * workers
    capture = getattr(shared, "capture", None) or CAPTURE
    envs = [GameEnv(spec, actions=space, capture=capture, obs_size=capture, code_coverage=code_coverage)
            for _ in range(workers)]
    slots = [_Slot(env, agents[i], index=i) for i, env in enumerate(envs)]
    hook = {name: getattr(shared, name, None) if getattr(shared, "shared", False) else None
            for name in ("setup", "attach", "episode_start", "observe", "episode_end", "state_bytes")}
    space_dict = space_to_dict(space)
    config_dump = cfg.model_dump(mode="json")
    code = CodeCoverage()
    if spec.kind != "gym" and code_coverage:  # count the game's files even where nothing ran: honest percent
        for pattern in code_include_patterns(spec):
            code.track(glob.glob(os.path.join(os.path.dirname(pattern), "*.py")) if pattern.endswith("*")
                       else [pattern])
    result_new: list[int] = []
    try:
        # the first episode tells which abstraction fits the game
        first_seed = prior.next_seed if resume and prior else seed
        slots[0].obs, slots[0].info = envs[0].reset(seed=first_seed)
        slots[0].seed = first_seed
        abstraction = choose_abstraction(prior.abstraction if resume and prior else cfg.abstraction,
                                         envs[0].last_obs, cfg.features, cfg.feature_ranges, cfg.feature_buckets)
        # what a learning agent takes as input (checked before the campaign is stored: a typo loses nothing)
        inputs = list(cfg.agent_features or cfg.features or sorted(envs[0].last_obs.features))
        missing = [n for n in cfg.agent_features or [] if n not in envs[0].last_obs.features]
        if missing:
            reported = ", ".join(sorted(envs[0].last_obs.features)) or "no features"
            raise ConfigError(f"{spec.text}: agent_features lists {', '.join(map(repr, missing))}, which the "
                              f"game's probe does not report; it reports {reported}. Fix the names in the game "
                              f"config, or report them with probe.observe")
        if resume and prior:
            cid = prior.id
            steps, episodes, elapsed0, next_seed = prior.steps, prior.episodes, prior.elapsed_s, prior.next_seed + 1
            seen = dict(store.states(cid))
            code.add(store.code_lines(cid))
            store.update_campaign(cid, status="running")
        else:
            cid = store.new_campaign(spec.text, config_dump, agent, space_dict, str(budget), workers, seed,
                                     abstraction.name)
            steps, episodes, elapsed0, next_seed = 0, 0, 0.0, seed + 1
            seen = {}
        t0 = time.perf_counter()

        def now_s() -> float:
            return elapsed0 + time.perf_counter() - t0

        def trace_of(slot: _Slot, n: int) -> Trace:
            return Trace(spec.text, config_dump, slot.seed, space_dict, slot.actions[:n])

        def record(slot: _Slot, obs: Observation, step: int) -> tuple[str | None, bool]:
            for f in slot.suite.check(obs, step):
                bug_id, new = store.record_finding(cid, spec.text, f, trace_of(slot, f.step), now_s())
                if new:
                    result_new.append(bug_id)
            key = abstraction.key(obs)
            k, fresh = None, False
            if key is not None:
                k = encode_key(key)
                slot.states[k] += 1
                if k not in seen:
                    seen[k] = 0
                    fresh = True
                seen[k] += 1
            slot.positions.add(obs)  # type: ignore[union-attr]
            add_code(slot, obs)
            return k, fresh

        def add_code(slot: _Slot, obs: Observation) -> None:
            for f, lines in obs.info.get("code_lines", {}).items():
                slot.code.setdefault(f, set()).update(lines)

        def late_code(slot: _Slot) -> None:
            late = slot.env.worker.final_code_lines  # lines the previous episode ran after its last report
            if late:
                code.add(late)

        def new_suite() -> Any:
            suite = make_oracles(cfg.oracles)
            suite.reset()
            return suite

        def start(slot: _Slot, first: bool = False) -> None:
            nonlocal next_seed
            slot.states = Counter()
            slot.positions = PositionMap(cfg.position_cell, cfg.position)
            slot.code = {}
            if not first and hook["episode_start"] and hook["episode_start"](slot.index):
                return  # the explorer started the episode itself (a return to a snapshot or a trace)
            if not first:
                slot.seed = next_seed
                next_seed += 1
                slot.obs, slot.info = slot.env.reset(seed=slot.seed)
                late_code(slot)
            slot.actions = []
            slot.suite = new_suite()
            record(slot, slot.env.last_obs, 0)

        def finish(slot: _Slot, outcome: str, reason: str) -> None:
            nonlocal episodes
            episodes += 1
            if hook["episode_end"]:
                hook["episode_end"](slot.index, outcome)
            code.add(slot.code)
            n_bugs = store.bug_count(cid)
            t = now_s()
            store.record_episode(cid, worker=slots.index(slot), seed=slot.seed, steps=len(slot.actions),
                                 outcome=outcome, reason=reason, ended_s=t, actions=slot.actions,
                                 new_states=dict(slot.states), positions=slot.positions.counts,  # type: ignore[union-attr]
                                 code_lines=slot.code,
                                 totals={"t_s": t, "steps": steps, "episodes": episodes, "states": len(seen),
                                         "code_covered": code.covered(), "code_total": code.total(),
                                         "bugs": n_bugs, "steps_per_s": steps / max(t - elapsed0, 1e-9),
                                         "next_seed": next_seed})

        if hook["setup"]:
            hook["setup"](CampaignInfo(len(space), workers, features=inputs,
                                       reward_feature=cfg.reward_feature, position=cfg.position,
                                       position_cell=cfg.position_cell, cell_features=list(cfg.cell_features),
                                       abstraction=abstraction.name,
                                       snapshots=envs[0].worker.snapshots_supported,
                                       max_episode_steps=envs[0].max_episode_steps))
        if demo_traces:  # played on the first worker, then the first episode starts afresh
            shared.demonstrate(play_demos(envs[0], demo_traces))
            envs[0].worker.final_code_lines = {}
            slots[0].obs, slots[0].info = envs[0].reset(seed=first_seed)
        controls: dict[int, EpisodeControl] = {}
        if hook["attach"]:
            for slot in slots:
                controls[slot.index] = EpisodeControl(slot, slots, new_suite, add_code, late_code)
                hook["attach"](slot.index, controls[slot.index])
        if resume and prior and prior.agent_state and hasattr(shared, "load_state"):
            shared.load_state(prior.agent_state)
        saved_at = time.perf_counter()

        def save_agent() -> None:
            if hook["state_bytes"]:
                store.update_campaign(cid, agent_state=hook["state_bytes"]())

        def act(slot: _Slot) -> int:
            if hook["observe"] is not None or getattr(slot.agent, "shared", False):
                return slot.agent.act(slot.obs, slot.info, slot.index)
            return slot.agent.act(slot.obs, slot.info)

        replayed = reproduced = 0
        if replay_known and not resume:
            replayed, reproduced = _replay_known(store, cid, spec.text, result_new)
        start(slots[0], first=True)
        for slot in slots[1:]:
            start(slot)
        prev: dict[int, Any] = {}

        def replay_step(slot: _Slot, ended: bool) -> None:
            """One step of a return by trace replay (`EpisodeControl.watch`; state coverage and the step count
            leave it out); a replay that cannot reach its end starts the slot afresh."""
            ctl = controls[slot.index]
            ctl.watch(slot.suite, len(slot.actions))
            if ended or slot.env.last_obs.done:
                ctl.replayed(False)
                start(slot)
            elif not slot.replaying:
                ctl.replayed(True)

        while not budget.spent(steps, now_s()):
            active = slots if budget.steps is None else slots[:max(1, min(len(slots), budget.steps - steps))]
            replaying: set[int] = set()
            for slot in active:
                if slot.replaying:
                    replaying.add(slot.index)
                    a = slot.replaying.popleft()
                    slot.actions.append(a)
                    slot.env.step_async(a)
                    continue
                try:
                    a = act(slot)
                except NoValidActionError as e:
                    finish(slot, "no-valid-action", str(e))
                    start(slot)
                    a = act(slot)
                prev[slot.index] = slot.obs
                slot.actions.append(a)
                slot.env.step_async(a)
            for slot in active:
                if slot.index in replaying:
                    slot.obs, _r, term, trunc, slot.info = slot.env.step_wait()
                    replay_step(slot, term or trunc)
                    continue
                slot.obs, r, term, trunc, slot.info = slot.env.step_wait()
                steps += 1
                obs = slot.env.last_obs
                key, fresh = record(slot, obs, len(slot.actions))
                stop = False
                if hook["observe"]:
                    stop = bool(hook["observe"](slot.index, Transition(prev.pop(slot.index, None), slot.actions[-1], r,
                                                                       slot.obs, term, trunc, slot.info, key,
                                                                       fresh, obs)))
                if term or trunc:
                    exit = obs.exit
                    finish(slot, _outcome(exit, trunc, obs.info.get("done_reason")),
                           exit.message if exit else obs.info.get("done_reason", "step limit"))
                    start(slot)
                elif stop:
                    finish(slot, "agent", f"{shared.name} ended the episode")
                    start(slot)
            if hook["state_bytes"] and time.perf_counter() - saved_at > SAVE_AGENT_EVERY_S:
                save_agent()
                saved_at = time.perf_counter()
            if on_progress:
                on_progress({"steps": steps, "seconds": now_s(), "episodes": episodes, "states": len(seen),
                             "bugs": store.bug_count(cid) if steps % 100 == 0 else None,
                             "budget": budget})
        for slot in slots:  # the episodes in flight count too (not a return still replaying its way there)
            if slot.actions and slot.replayed is None:
                finish(slot, "budget", "the campaign's budget was spent")
        save_agent()
        store.update_campaign(cid, status="finished", steps=steps, episodes=episodes, elapsed_s=now_s())
        stats = shared.stats() if hasattr(shared, "stats") else {}
        return ExploreResult(cid, store, steps, episodes, now_s(), len(seen), code.covered(), code.total(),
                             result_new, replayed, reproduced, stats)
    finally:
        for env in envs:
            env.close()


def load_demos(paths: Sequence[str | Path], spec: GameSpec, space: dict[str, Any]) -> list[tuple[str, Trace]]:
    """The demonstration traces in ``paths``, checked against the campaign's game and action space. A path
    is a trace file or a folder: a bug folder (``DIR/bugs/N``, which holds ``trace.json``) gives its
    ``trace.json`` (not ``min_trace.json``, a prefix of it, nor ``bug.json``); any other folder gives every
    ``*.json`` in it and the ``trace.json`` of each bug folder in it (so ``DIR/bugs`` gives every bug's).

    Any trace is a demonstration: one written by a script or by `explore` (a bug's ``trace.json``), or
    play recorded with the same action space. A trace of another game, game arguments or action space
    would show the agent actions that do not mean what they meant; that is a ConfigError naming the file.
    """
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = [p / "trace.json"] if (p / "trace.json").is_file() else \
                sorted(p.glob("*.json")) + sorted(p.glob("*/trace.json"))
            if not found:
                raise ConfigError(f"demonstrations folder {p} holds no trace files (*.json, or */trace.json of "
                                  "bug folders)")
            files += found
        elif p.is_file():
            files.append(p)
        else:
            raise ConfigError(f"demonstration {p} does not exist; pass trace files or folders of them")
    out: list[tuple[str, Trace]] = []
    cfg = spec.config.model_dump(mode="json")
    for f in files:
        try:
            trace = Trace.from_json(f.read_text())
        except ConfigError as e:
            raise ConfigError(f"demonstration {f}: {e}") from None
        except (OSError, UnicodeDecodeError, TypeError) as e:
            raise ConfigError(f"demonstration {f} cannot be read as a trace: {e}") from None
        where = f"demonstration {f}"
        try:
            game = resolve(trace.game).name
        except Exception:  # noqa: BLE001 - a game that no longer resolves is reported below by name
            game = trace.game
        if game != spec.name:
            raise ConfigError(f"{where} plays {trace.game!r}, not {spec.text!r}; pass demonstrations of this game")
        for key in ("game_args", "frames_per_action"):
            if trace.config.get(key) != cfg.get(key):
                raise ConfigError(f"{where} was played with {key} = {trace.config.get(key)!r}, this campaign uses "
                                  f"{cfg.get(key)!r}; record it again, or run the campaign with the same {key}")
        if space_identity(trace.space) != space_identity(space):  # content, not the path it was loaded from
            names = [a.get("name") for a in trace.space.get("actions", [])]
            raise ConfigError(f"{where} uses another action space ({len(names)} actions: "
                              f"{', '.join(map(str, names[:6]))}{', ...' if len(names) > 6 else ''}); its action "
                              "numbers would mean other inputs. Run the campaign with --actions matching the "
                              "demonstration's, or record it again")
        if not trace.actions:
            raise ConfigError(f"{where} has no actions")
        out.append((str(f), trace))
    return out


def play_demos(env: GameEnv, traces: list[tuple[str, Trace]]) -> list[Demo]:
    """Play each demonstration from its seed through ``env``: what each step showed, and the action taken.
    A demonstration that ends early (the game finished, crashed or hung) keeps the steps it played."""
    demos = []
    for source, trace in traces:
        obs, info = env.reset(seed=trace.seed)
        steps = []
        for a in trace.actions:
            nobs, r, term, trunc, ninfo = env.step(a)
            steps.append(DemoStep(obs, info, int(a), float(r)))
            obs, info = nobs, ninfo
            if term or trunc:
                break
        demos.append(Demo(source, steps))
    return demos


def _replay_known(store: Store, cid: int, game: str, new: list[int]) -> tuple[int, int]:
    """Replay failures found by earlier campaigns on this game first (as Hypothesis does)."""
    from playtester.replay import run_trace

    replayed = reproduced = 0
    for bug in store.known_failures(game):
        trace = bug.min_trace or bug.trace
        if trace is None:
            continue
        replayed += 1
        run = run_trace(trace, stop_on=bug.signature)
        for f in run.findings:
            if f.signature == bug.signature:
                reproduced += 1
                bug_id, is_new = store.record_finding(cid, game, f, trace.prefix(f.step), 0.0)
                if is_new:
                    new.append(bug_id)
                break
    return replayed, reproduced


def finalize_bugs(store: Store, campaign_id: int, bug_ids: list[int], shrink: bool = True,
                  shrink_seconds: float = 30.0, on_bug: Callable[[int, str], None] | None = None) -> None:
    """For each new bug: replay it twice (flaky or not), and shrink its trace with ddmin."""
    from playtester.replay import minimize_bug, replay_bug

    for bug_id in bug_ids:
        bug = store.bug(bug_id)
        if bug.trace is None:
            continue
        report = replay_bug(bug)
        store.set_bug(bug_id, flaky=report.flaky, replay=report.describe())
        if on_bug:
            on_bug(bug_id, report.describe())
        if shrink and report.reproduced and bug.kind != "hang":
            result = minimize_bug(store.bug(bug_id), max_seconds=shrink_seconds)
            if result.reproduced:
                store.set_bug(bug_id, min_trace=result.trace)
            if on_bug:
                on_bug(bug_id, f"shrunk {result.describe(len(bug.trace.actions))}" if result.reproduced
                       else result.describe(len(bug.trace.actions)))


def bug_frames(bug: Any, n: int = 8) -> list[Any]:
    """The last ``n`` full-size frames of a bug's (shrunk) trace, by replaying it."""
    from playtester.replay import run_trace

    trace = bug.min_trace or bug.trace
    if trace is None:
        return []
    return run_trace(trace, stop_on=bug.signature, keep_frames=n, capture="full").frames
