"""``playtester run``: the campaign loop with counting observers only (no oracles, no store).

It accounts for every episode (finished, crashed, hung, truncated) and counts failed ``probe.check`` calls.
A learning agent's hooks are called as in a campaign (it learns while it plays), but nothing is kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playtester.agents import agent_class, make_agent
from playtester.agents.common import CampaignInfo
from playtester.agents.settings import agent_settings
from playtester.campaign.loop import Budget, CampaignLoop, Observer, Slot, Step
from playtester.campaign.observers import ExplorerHooks
from playtester.coverage.settings import coverage_settings
from playtester.drive.observation import GameExit
from playtester.drive.ray_worker import check_backend
from playtester.drive.spec import GameSpec
from playtester.env import GameEnv
from playtester.errors import ConfigError
from playtester.oracles import oracle_settings


@dataclass
class EpisodeEnd:
    """How one episode ended."""

    worker: int
    seed: int
    steps: int
    outcome: str  # finished | done | truncated | crash | hang | memory | worker_lost | no-valid-action | agent
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
    seconds: float = 0.0  # from every worker's first episode started to the end (the loop's clock)
    startup_s: float = 0.0  # starting the workers and their first episodes, before the clock
    episodes: list[EpisodeEnd] = field(default_factory=list)
    checks: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    warnings: list[str] = field(default_factory=list)
    inputs_read: int = 0
    memory_limit_mb: int | None = None  # each episode process's data limit (0: none)
    peak_rss_mb: float = 0.0  # the largest peak resident memory of an episode process
    agent_stats: dict[str, Any] = field(default_factory=dict)  # a learning agent's own numbers (stats())
    game_startup_ms: list[float] = field(default_factory=list)  # each episode's start-up work (`frame_time`)
    blind_actions: int = 0  # of n_actions, the analyzed space's blind ones for input loops it did not analyse

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


class RunCounts(Observer):
    """What ``playtester run`` reports, into ``summary``: ended episodes by outcome, failed checks, probe
    events, inputs read, audio played as silence, and episodes in which the game read no input."""

    def __init__(self, summary: RunSummary, on_round: Callable[[RunSummary], None] | None = None) -> None:
        self.summary, self.callback = summary, on_round
        self.read: Counter[int] = Counter()  # inputs read in each slot's running episode
        self.silenced: dict[str, str] = {}  # audio files the machine could not decode, played as silence: reason

    def on_reset(self, slot: Slot) -> None:
        note_silenced(self.silenced, slot.last_obs)
        self._startup(slot.last_obs)

    def _startup(self, obs: Any) -> None:
        info = getattr(obs, "info", None) or {}
        if info.get("started") and "startup_ms" in info:  # once per episode: the step its start-up ended
            self.summary.game_startup_ms.append(float(info["startup_ms"]))

    def on_step(self, step: Step) -> None:
        obs = step.game_obs
        note_silenced(self.silenced, obs)
        if step.action is not None:
            self._startup(obs)
        if step.action is None:
            return
        self.summary.steps += 1
        if obs is not None:
            self.summary.checks.update(c.message for c in obs.checks)
            self.summary.events.update(e.name for e in obs.events)
            reads = int(obs.info.get("inputs_read", 0))
            self.summary.inputs_read += reads
            self.read[step.slot.index] += reads

    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None:
        steps, read = len(slot.actions), self.read.pop(slot.index, 0)
        if outcome in ("budget", "stopped"):
            return  # still running when the run ended: not an ended episode
        exit = slot.info.get("exit") if outcome != "no-valid-action" else None
        self.summary.episodes.append(EpisodeEnd(slot.index, slot.seed, steps, outcome, exit,
                                                reason if outcome == "no-valid-action" else
                                                slot.info.get("done_reason", "")))
        if read == 0 and steps > 1:
            msg = f"the game never read any input during episode seed {slot.seed}"
            if msg not in self.summary.warnings:
                self.summary.warnings.append(msg)

    def on_round(self, loop: CampaignLoop) -> None:
        self.summary.seconds = loop.now_s()
        if self.callback:
            self.callback(self.summary)


def with_memory_limit(spec: GameSpec, workers: int) -> GameSpec:
    """``spec`` with its per-worker memory limit settled: the config's, else half the machine's memory split
    over ``workers``. Settled in the spec, it is in every trace, so a memory bug replays under its limit."""
    if spec.config.memory_limit_mb is not None:
        return spec
    from playtester.drive.lifetime import auto_memory_limit_mb

    return spec.with_config(memory_limit_mb=auto_memory_limit_mb(workers))


def make_agents(agent: str, n_actions: int, workers: int, seed: int) -> list[Any]:
    """One agent per worker (seeds ``seed * 1000 + i``), or one shared explorer serving every worker."""
    first = make_agent(agent, n_actions, seed=seed * 1000, workers=workers)
    if first.shared:
        return [first] * workers
    return [first] + [make_agent(agent, n_actions, seed=seed * 1000 + i) for i in range(1, workers)]


def campaign_info(spec: GameSpec, env: GameEnv, workers: int, abstraction: str, snapshots: bool) -> CampaignInfo:
    """What a campaign tells its explorer (``setup``), from the game's config and ``env``'s first observation.

    Raises:
        ConfigError: ``[agent] features`` names a feature the game's probe does not report.
    """
    cfg, first, agent, cov = spec.config, env.last_obs, agent_settings(spec), coverage_settings(spec)
    reported = sorted(first.features) if first is not None else []
    missing = [n for n in agent.features or [] if n not in reported]
    if missing:
        raise ConfigError(f"{spec.text}: [agent] features lists {', '.join(map(repr, missing))}, which the game's "
                          f"probe does not report; it reports {', '.join(reported) or 'no features'}. Fix the "
                          "names in the game config, or report them with probe.observe")
    return CampaignInfo(len(env.space), workers, features=list(agent.features or cfg.features or reported),
                        reward_feature=cfg.reward_feature, position=cov.position, position_cell=cov.position_cell,
                        cell_features=list(agent.cell_features), abstraction=abstraction, snapshots=snapshots,
                        max_episode_steps=env.max_episode_steps,
                        detector=getattr(oracle_settings(spec), "texture_model", None))


def run_agent(spec: GameSpec, agent: str = "random", steps: int = 1000, workers: int = 1, seed: int = 0,
              actions: Any = None, on_step: Callable[[RunSummary], None] | None = None,
              backend: str | None = None, ahead: int | None = None) -> RunSummary:
    """Run ``agent`` on the game for ``steps`` steps in total over ``workers`` worker processes.

    Episode seeds are ``seed``, ``seed + 1``, ... in the order episodes start, so a run is reproducible.
    ``backend``: where the workers run (``local``, ``ray``, ``ray:ADDRESS``; `playtester.env.make_worker`).
    ``ahead``: acting ahead, steps per call to a Ray worker (`CampaignLoop`; None: its default, 1: off).
    """
    oracle_settings(spec), coverage_settings(spec), agent_settings(spec)  # a bad table says so, as explore does
    check_backend(backend)
    spec = with_memory_limit(spec, workers)
    # frames only for an agent that sees them, at its size (the random agent sees none: no capture cost)
    size = agent_class(agent).capture
    view = {"capture": size, "obs_size": size} if size else {"capture": None}
    envs = [GameEnv(spec, actions=actions, obs_type="pixels", backend=backend, **view)]
    envs += [GameEnv(spec, actions=envs[0].space, obs_type="pixels", backend=backend, **view)
             for _ in range(workers - 1)]
    space = envs[0].space
    from playtester.analysis.space import FALLBACK_PREFIX

    summary = RunSummary(spec.text, agent, space.kind, len(space), workers, warnings=list(space.warnings),
                         blind_actions=sum(1 for a in space.actions if a.name.startswith(FALLBACK_PREFIX)))
    counts = RunCounts(summary, on_step)
    loop = CampaignLoop(envs, make_agents(agent, len(space), workers, seed), Budget(steps=steps), seed=seed + 1,
                        observers=[counts, ExplorerHooks()], ahead=ahead)
    try:
        loop.slots[0].seed = seed  # the first episode tells a learning agent the game's features
        loop.slots[0].obs, loop.slots[0].info = envs[0].reset(seed=seed)
        counts.on_reset(loop.slots[0])
        info = campaign_info(spec, envs[0], workers, abstraction="none", snapshots=False)
        for a in loop.agents:
            a.setup(info)
        loop.run(reset=[False] + [True] * (workers - 1))
        summary.agent_stats = loop.agents[0].stats() if len(loop.agents) == 1 else {}
    finally:
        summary.seconds, summary.startup_s = loop.now_s(), loop.startup_s
        summary.warnings.extend(loop.warnings)
        if counts.silenced:
            summary.warnings.append(silenced_warning(counts.silenced))
        loop.close()
        summary.memory_limit_mb = spec.config.memory_limit_mb
        summary.peak_rss_mb = max(env.worker.peak_rss_kb for env in envs) / 1024
    return summary


def note_silenced(seen: dict[str, str], obs: Any) -> None:
    """Note the audio files ``obs`` says played as silence (``silent_audio``)."""
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
