"""``playtester explore``, the whole job (as Stable-Baselines3's ``learn()``): the known failures of the game replayed
first, the campaign loop with every observer (oracles, state and code coverage, the position map, the explorer's
hooks, and the SQLite store, which gets findings, traces and coverage as they happen, so a killed campaign resumes
and its report still renders), then the new bugs checked and the reports written (`finish.finish_campaign`); `explore`
returns the verdict (`CampaignResult`). An observer may stop the campaign (`Observer.on_step` returns False)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playtester.actions.space import space_to_dict
from playtester.agents.settings import agent_settings
from playtester.campaign.control import EpisodeControl
from playtester.campaign.demos import load_demos, play_demos
from playtester.campaign.finish import check_fail_on, exit_code, finish_campaign, unfinished_bugs
from playtester.campaign.loop import Budget, CampaignLoop, Observer, Slot
from playtester.campaign.observers import (
    AgentSaver,
    BirdsEyeWatch,
    CodeWatch,
    EpisodeWriter,
    ExplorerHooks,
    OracleWatch,
    PositionWatch,
    Progress,
    StateCoverage,
    StateKey,
    WorkerOracles,
)
from playtester.campaign.run import campaign_info, make_agents, with_memory_limit
from playtester.coverage.code import CodeCoverage
from playtester.coverage.settings import coverage_settings
from playtester.coverage.state import Abstraction, make_abstraction
from playtester.drive.observation import Observation
from playtester.drive.ray_worker import check_backend
from playtester.drive.spec import GameSpec, resolve
from playtester.env import GameEnv, resolve_space, space_from_dict
from playtester.errors import UsageError
from playtester.findings import Trace
from playtester.oracles import frames_needed, make_oracles, oracle_settings
from playtester.report.maps import BIRDSEYE_FILE
from playtester.store import Store

CAPTURE = (48, 48)  # frames the explorer captures: enough for pixel cells and the frozen-screen oracle
SAVE_AGENT_EVERY_S = 30.0  # a learning agent's state goes to the store this often (and at the end)
ORACLES_IN = ("worker", "parent")  # where a campaign's oracles check its steps (the first: the default)
ORACLES_ENV = "PLAYTESTER_ORACLES"  # the environment's choice of ``oracles_in``


def check_oracles_in(where: str | None) -> str:
    """``oracles_in`` as given, else ``$PLAYTESTER_ORACLES``, else ``worker``; a UsageError for anything else."""
    value = (where if where is not None else os.environ.get(ORACLES_ENV) or ORACLES_IN[0]).strip().lower()
    if value not in ORACLES_IN:
        raise UsageError(f"oracles in {value!r}: where a campaign's oracles check its steps is 'worker' (where the "
                         "game runs: the local worker object, or the Ray actor) or 'parent' (this process)")
    return value


def choose_abstraction(name: str, obs: Observation, features: list[str] | None,
                       ranges: dict[str, tuple[float, float]] | None = None, buckets: int = 10) -> Abstraction:
    """The state abstraction for coverage: as configured, or for ``auto`` the game's probe features when
    it reports any (ranged ones cut into ``buckets`` intervals), else the scene (live sprites by class and
    group), else pixel cells when there are frames, else the features a later screen brings (a headless engine's
    title screen, with no entity yet: pixel cells of no frame would count no state at all)."""
    if name == "auto":
        name = "features" if obs.features else ("scene" if obs.info.get("scene") is not None and
                                                obs.info.get("scene") != () else
                                                "pixels" if obs.frame is not None else "features")
    if name == "features":
        return make_abstraction("features", features=features, ranges=ranges or None, m=buckets)
    return make_abstraction(name)


@dataclass
class CampaignResult:
    """A campaign's verdict: what it played and found, where it is stored, the files written, and its exit code."""

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
    warnings: list[str] = field(default_factory=list)  # workers dropped (lost past their restarts)
    demos: dict[str, Any] = field(default_factory=dict)  # the demonstrations: read (from the cache), played, seconds
    stopped: str | None = None  # why an observer stopped the campaign before its budget was spent (None: it was not)
    checked: list[int] = field(default_factory=list)  # bugs replayed (and shrunk) at the end: the new ones, and on
    #                                                   a resume those a killed run stored but never replayed
    report: Path | None = None  # report.html (None: explore ran with ``finalize=False``)
    junit: Path | None = None  # junit.xml
    fail_on: str = "reproduced"  # what fails the run (`finish.exit_code`)

    @property
    def bugs(self) -> list[Any]:
        """Every bug of the campaign (`findings.Bug`), as stored now."""
        return self.store.bugs(self.campaign_id)

    @property
    def exit_code(self) -> int:
        """1 when a bug fails the run (it reproduced; any bug with ``fail_on="flaky"``), else 0."""
        return exit_code(self.bugs, self.fail_on)


@dataclass
class _Campaign:
    """A campaign being set up: what `explore` settled before the loop starts."""

    store: Store
    prior: Any  # the stored campaign resumed, or None
    spec: GameSpec
    space: Any
    agent: str
    workers: int
    capture: Any = None  # the frames the campaign's workers capture (and its oracles see)


def explore(spec: GameSpec | str | None, *, out: str | Path, agent: str = "random", budget: Budget = Budget(steps=1000),
            workers: int = 1, seed: int = 0, actions: Any = None, resume: bool = False, code_coverage: bool = True,
            replay_known: bool = True, on_progress: Callable[[dict[str, Any]], None] | None = None,
            max_store_mb: float | None = None, demos: Sequence[str | Path] = (),
            backend: str | None = None, observers: Sequence[Observer] = (), ahead: int | None = None,
            oracles_in: str | None = None, finalize: bool = True, shrink: bool = True, shrink_seconds: float = 30.0,
            fail_on: str = "reproduced",
            on_check: Callable[[int | None, str], None] | None = None) -> CampaignResult:
    """Run a testing campaign, the whole job: the game's known failures replayed first (``replay_known``), then
    ``agent`` plays the game on ``workers`` workers until ``budget`` is spent or an observer stops it (its
    ``on_step`` returns False); every step passes through the oracles; bugs, traces and coverage go to the store
    in ``out`` as they are found. Then (``finalize``) each new bug is replayed twice and its trace shrunk
    (``shrink``, at most ``shrink_seconds`` a bug; ``on_check(bug_id, message)`` hears how each went), and the
    bug folders, ``junit.xml`` and ``report.html`` are written in ``out``. The `CampaignResult` says what was found,
    where the reports are, and the exit code (``fail_on``: ``reproduced`` or ``flaky``, see `finish.exit_code`).
    ``finalize=False``: the loop only (the bugs stored unchecked, no report; ``playtester finalize`` does the rest).

    ``spec``: a `GameSpec`, or a game spec's text (``blockmaze``, ``path/to/game.py``: `resolve`d); None with
    ``resume``.

    With ``resume``, the latest unfinished campaign in ``out`` continues where it stopped (its game,
    config, action space, seeds, coverage and bugs are read back from the store).

    ``demos``: trace files (or folders of them) of play to learn from, for agents that take demonstrations
    (``wuji``); they are played once through the campaign's driver before the first step, unwatched by the
    oracles and left out of coverage and the step count (see `load_demos`).

    ``backend``: where the workers run (``local``, ``ray``, ``ray:ADDRESS``; `playtester.env.make_worker`); the
    store, the agent and coverage stay in this process (the oracles: see ``oracles_in``).

    ``observers``: more `Observer`s of the campaign's loop, called after the campaign's own (a benchmark's
    measures, e.g. route coverage). ``ahead``: acting ahead, steps per call to a Ray worker (`CampaignLoop`;
    None: its default, 1: off).

    ``oracles_in``: where the oracles check each step: ``worker`` (the default; ``$PLAYTESTER_ORACLES`` when
    None): where the game's worker is (the local `Worker` object, or the Ray actor), each step's findings coming
    back with its answer (`WorkerOracles`); ``parent``: in this process, each episode's suite in its slot.
    The same seeds give the same findings either way.
    """
    check_backend(backend)
    check_fail_on(fail_on)
    if isinstance(spec, str):
        spec = resolve(spec)
    where = check_oracles_in(oracles_in)
    c = _open(spec, out, agent, workers, actions, resume, demos, max_store_mb)
    agents = make_agents(c.agent, len(c.space), c.workers, seed)
    _check_warmup(agents[0], c.agent, budget, resume)
    demo_traces = _demos_for(agents[0], demos, c.spec, c.space)
    capture = agents[0].capture or CAPTURE
    # the workers capture what the oracles need (full-size frames for the texture oracle); the agent sees its size
    c.capture = frames_needed(oracle_settings(c.spec)) or capture
    settings = oracle_settings(c.spec)
    if where == "worker" and agents[0].reads_detections(getattr(settings, "texture_model", None)):
        # one detection a frame: the texture oracle's, handed to the agent with each step (`GameEnv`'s info)
        settings = settings.model_copy(update={"texture_detections": True})
    in_worker = WorkerOracles(settings) if where == "worker" else None
    envs: list[GameEnv] = []
    try:
        for _ in range(c.workers):
            envs.append(GameEnv(c.spec, actions=c.space, capture=c.capture, obs_size=capture,
                                code_coverage=code_coverage, backend=backend, oracles=in_worker))
        result = _run(c, envs, agents, budget, seed, code_coverage, replay_known, on_progress, demo_traces,
                      observers, ahead, in_worker is None)
    finally:
        for env in envs:
            env.close()
    result.fail_on = fail_on
    if finalize:  # the new bugs, and on a resume those a killed run stored but never replayed
        pending = list(dict.fromkeys(result.new_bugs + unfinished_bugs(c.store, result.campaign_id)))
        done = finish_campaign(c.store, result.campaign_id, pending, shrink=shrink, shrink_seconds=shrink_seconds,
                      fail_on=fail_on, on_check=on_check)
        result.checked, result.report, result.junit = done.checked, done.report, done.junit
    return result


def _check_warmup(agent: Any, name: str, budget: Budget, resume: bool) -> None:
    """An agent that plays random warm-up steps before it learns (PPGTA, Inspector) refuses a step budget that
    ends within them: the campaign would be random play under its name (issue 54)."""
    warm = getattr(getattr(agent, "cfg", None), "warmup_steps", None)
    if resume or budget.steps is None or not isinstance(warm, int) or warm <= 0 or budget.steps > warm:
        return
    base = name.split(":", 1)[0]
    raise UsageError(f"--budget {budget.steps} steps ends within {base}'s warm-up of {warm} random steps (it learns "
                     "its encoder from them before it acts on its own), so the whole campaign would be random play; "
                     f"give a budget above {warm} steps, or {base}:warmup_steps=N with N below the budget")


def _open(spec: GameSpec | None, out: str | Path, agent: str, workers: int, actions: Any, resume: bool,
          demos: Sequence[str | Path], max_store_mb: float | None) -> _Campaign:
    """The store, and the game, space, agent and workers: given, or read back from the campaign resumed."""
    if demos and resume:
        raise UsageError("--demos starts a campaign; a resumed campaign keeps what its agent learnt from the "
                         "demonstrations it started with: leave --demos out with --resume")
    if not resume:
        from playtester.agents import agent_class

        agent_class(agent)  # an unknown agent, or one whose extra is not installed: say so before storing
        if spec is not None:  # and a bad [oracles], [coverage] or [agent] table
            oracle_settings(spec), coverage_settings(spec), agent_settings(spec)
    store = Store(out, max_mb=max_store_mb)
    prior = store.campaign()
    if not resume:
        if spec is None:
            raise UsageError("explore needs a game")
        return _Campaign(store, None, with_memory_limit(spec, workers), resolve_space(spec, actions), agent, workers)
    if prior is None:
        raise UsageError(f"nothing to resume in {out}: it holds no campaign")
    if prior.status == "finished":
        raise UsageError(f"the latest campaign in {out} (#{prior.id}) already finished; run without --resume "
                         "to start a new one")
    return _Campaign(store, prior, resolve(prior.game, **prior.config), space_from_dict(prior.space), prior.agent,
                     prior.workers)


def _demos_for(agent: Any, demos: Sequence[str | Path], spec: GameSpec, space: Any) -> list[tuple[str, Trace]]:
    if not demos:
        return []
    if not agent.learns_from_demos:
        from playtester.agents import AGENTS, agent_class

        takers = [n for n in AGENTS if agent_class(n).learns_from_demos]
        raise UsageError(f"the {agent.name!r} agent does not learn from demonstrations; "
                         f"--demos works with: {', '.join(takers)}")
    return load_demos(demos, spec, space_to_dict(space))


def _run(c: _Campaign, envs: list[GameEnv], agents: list[Any], budget: Budget, seed: int, code_coverage: bool,
         replay_known: bool, on_progress: Callable[[dict[str, Any]], None] | None,
         demo_traces: list[tuple[str, Trace]], extra: Sequence[Observer] = (), ahead: int | None = None,
         oracles_here: bool = True) -> CampaignResult:
    spec, store, prior, cfg = c.spec, c.store, c.prior, c.spec.config
    first_seed = prior.next_seed if prior else seed
    first = envs[0].reset(seed=first_seed)  # the first episode tells which abstraction fits the game
    cov = coverage_settings(spec)
    abstraction = choose_abstraction(prior.abstraction if prior else cov.abstraction, envs[0].last_obs,
                                     cfg.features, cov.feature_ranges, cov.feature_buckets)
    if not oracles_here:  # the abstract states are computed where the game runs too (from the next step on)
        for env in envs:
            env.watch_states(StateKey(abstraction))
    info = campaign_info(spec, envs[0], c.workers, abstraction.name, envs[0].worker.snapshots_supported)
    # statements of the game's files that it ran (imported), every statement of each counted; files beside the game
    # it never imports (tools, tests, other games of a repository) are not the game (issue 54: 10% shown, 76% real)
    code = CodeCoverage()
    if prior:
        cid, seen = prior.id, store.states(prior.id)
        code.add(store.code_lines(cid))
        store.update_campaign(cid, status="running")
    else:
        cid, seen = store.new_campaign(spec.text, cfg.model_dump(mode="json"), c.agent, space_to_dict(c.space),
                                       str(budget), c.workers, seed, abstraction.name), {}
    new_bugs: list[int] = []
    oracles = oracle_settings(spec)
    # the oracles in this process: a suite per episode in its slot; else the workers check (`WorkerOracles`)
    make_suite = (lambda: make_oracles(oracles)) if oracles_here else None
    loop = CampaignLoop(envs, agents, budget, seed=first_seed + 1, make_suite=make_suite,
                        steps=prior.steps if prior else 0, episodes=prior.episodes if prior else 0,
                        elapsed_s=prior.elapsed_s if prior else 0.0, ahead=ahead)
    loop.observers += _observers(loop, c, cid, abstraction, code, seen, new_bugs, on_progress) + list(extra)
    loop.slots[0].seed, (loop.slots[0].obs, loop.slots[0].info) = first_seed, first
    demo_counts: dict[str, Any] = {}
    replayed, reproduced = _prepare(loop, c, info, demo_traces, first_seed, cid, new_bugs, replay_known,
                                    demo_counts)
    try:
        loop.run(reset=[False] + [True] * (c.workers - 1))
    except BaseException:  # interrupted (or failed): the repeat counts of the episodes in flight are kept too
        with contextlib.suppress(Exception):
            store.flush_counts()
        raise
    store.update_campaign(cid, status="finished", steps=loop.steps, episodes=loop.episodes, elapsed_s=loop.now_s())
    states = next(o for o in loop.observers if isinstance(o, StateCoverage))
    stats = agents[0].stats()
    return CampaignResult(cid, store, loop.steps, loop.episodes, loop.now_s(), len(states.seen), code.covered(),
                          code.total(), new_bugs, replayed, reproduced, stats, loop.warnings, demo_counts,
                          stopped=loop.stopped)


class CountWriter(Observer):
    """Writes the counts of bugs found again (`Store.record_finding` keeps them in memory) at each episode's
    end and at the campaign's end: a driver killed mid-episode loses only that episode's repeat counts, never
    a bug."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None:
        self.store.flush_counts()

    def on_end(self, loop: CampaignLoop) -> None:
        self.store.flush_counts()


def _observers(loop: CampaignLoop, c: _Campaign, cid: int, abstraction: Abstraction, code: CodeCoverage,
               seen: dict[str, int], new_bugs: list[int],
               on_progress: Callable[[dict[str, Any]], None] | None) -> list[Observer]:
    """The campaign's observers, in the order they must see each step (see observers.py)."""
    spec, store, cfg, agent = c.spec, c.store, c.spec.config, loop.slots[0].agent
    config, space = cfg.model_dump(mode="json"), space_to_dict(c.space)
    origin = os.getcwd()  # where the spec was resolved: a relative spec replays from any folder

    def sink(slot: Slot, finding: Any) -> None:
        trace = Trace(spec.text, config, slot.seed, space, slot.actions[:finding.step],
                      capture=list(c.capture) if isinstance(c.capture, tuple) else c.capture, origin=origin)
        bug_id, new = store.record_finding(cid, spec.text, finding, trace, loop.now_s())
        if new:
            new_bugs.append(bug_id)

    states = StateCoverage(lambda step: abstraction.key(step.game_obs) if step.game_obs is not None else None, seen)
    cov = coverage_settings(spec)
    positions, code_watch = PositionWatch(cov.position_cell, cov.position), CodeWatch(code)
    birdseye = BirdsEyeWatch(store.folder / BIRDSEYE_FILE.format(cid=cid), cov.position)  # the report's maps
    observers: list[Observer] = [OracleWatch(sink), CountWriter(store), birdseye, states, positions, code_watch,
                                 ExplorerHooks(), EpisodeWriter(store, cid, states, positions, code_watch)]
    if agent.shared:
        observers.append(AgentSaver(lambda blob: store.update_campaign(cid, agent_state=blob), agent,
                                    SAVE_AGENT_EVERY_S))
    if on_progress:
        observers.append(Progress(on_progress, states, lambda: store.bug_count(cid)))
    return observers


def _prepare(loop: CampaignLoop, c: _Campaign, info: Any, demo_traces: list[tuple[str, Trace]], first_seed: int,
             cid: int, new_bugs: list[int], replay_known: bool, demo_counts: dict[str, Any]) -> tuple[int, int]:
    """Before the first step: the explorer's setup, demonstrations (`play_demos` fills ``demo_counts``), episode
    controls and resumed state, then the known failures of this game replayed (as Hypothesis does)."""
    first, agent = loop.slots[0], loop.slots[0].agent
    for a in loop.agents:
        a.setup(info)
    if demo_traces:  # played on the first worker, then the first episode starts afresh
        agent.demonstrate(play_demos(first.env, demo_traces, demo_counts))
        first.env.worker.final_code_lines = {}
        first.obs, first.info = first.env.reset(seed=first_seed)
    for slot in loop.slots:
        slot.agent.attach(slot.index, EpisodeControl(slot, loop))
    if c.prior is not None and c.prior.agent_state and agent.shared:
        agent.load_state(c.prior.agent_state)
    if not replay_known or c.prior is not None:
        return 0, 0
    return _replay_known(c.store, cid, c.spec.text, new_bugs)


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
