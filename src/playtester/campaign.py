"""Run an agent on a game across N worker processes for a step budget, and summarize what happened.

This is the engine behind ``playtester run``. Every episode that ends is accounted for: finished,
crashed (exception, signal, non-zero exit), hung, or truncated at the step limit; failed
``probe.check`` calls are counted by message.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playtester.agents import make_agent
from playtester.drive.observation import GameExit
from playtester.drive.spec import GameSpec
from playtester.env import GameEnv
from playtester.errors import NoValidActionError


@dataclass
class EpisodeEnd:
    """How one episode ended."""

    worker: int
    seed: int
    steps: int
    outcome: str  # finished | done | truncated | crash | hang | no-valid-action
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


def _outcome(exit: GameExit | None, truncated: bool, done_reason: str | None) -> str:
    if exit is None:
        return "truncated" if truncated else ("done" if done_reason else "finished")
    if exit.kind == "hang":
        return "hang"
    return "crash" if exit.is_failure else "finished"


def run_agent(spec: GameSpec, agent: str = "random", steps: int = 1000, workers: int = 1, seed: int = 0,
              actions: Any = None, on_step: Callable[[RunSummary], None] | None = None) -> RunSummary:
    """Run ``agent`` on the game for ``steps`` steps in total over ``workers`` worker processes.

    Episode seeds are ``seed``, ``seed + 1``, ... in the order episodes start, so a run is reproducible.
    """
    envs = [GameEnv(spec, actions=actions, obs_type="pixels", capture=None)]
    envs += [GameEnv(spec, actions=envs[0].space, obs_type="pixels", capture=None) for _ in range(workers - 1)]
    space = envs[0].space
    summary = RunSummary(spec.text, agent, space.kind, len(space), workers, warnings=list(space.warnings))
    agents = [make_agent(agent, len(space), seed=seed * 1000 + i) for i in range(workers)]
    next_seed = seed
    states: list[tuple[Any, dict[str, Any], int]] = []
    t0 = time.perf_counter()
    try:
        for env in envs:
            obs, info = env.reset(seed=next_seed)
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
                    states[i] = (obs, info, next_seed)
                    next_seed += 1
                else:
                    states[i] = (obs, info, states[i][2])
            summary.seconds = time.perf_counter() - t0
            if on_step:
                on_step(summary)
    finally:
        summary.seconds = time.perf_counter() - t0
        for env in envs:
            env.close()
    return summary
