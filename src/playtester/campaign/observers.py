"""What watches a campaign's steps (`loop.Observer`s), each doing one job:

- `OracleWatch`: each step through the episode's oracle suite; findings go to a sink (the store).
- `StateCoverage`: the abstract state key of each step, and which states are new (for the explorer too).
- `PositionWatch`: where the player went, per episode (the position map).
- `CodeWatch`: the game's executed lines, merged per episode and for the campaign.
- `ExplorerHooks`: the agent's ``observe`` / ``episode_end`` hooks (Transition per step).
- `EpisodeWriter`: each ended episode, with the campaign's totals, to the store.
- `AgentSaver`: a learning agent's state to the store every ``every_s`` seconds and at the end.

The order in the loop's list matters where one reads what another set: state coverage before the explorer
(the transition carries the key), code coverage before the episode writer (its totals).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from playtester.agents.common import Transition
from playtester.campaign.loop import CampaignLoop, Observer, Slot, Step
from playtester.coverage.code import CodeCoverage
from playtester.coverage.maps import PositionMap
from playtester.coverage.state import encode_key


class OracleWatch(Observer):
    """Every played step through the slot's oracle suite; findings go to ``sink(slot, finding)``. Replayed
    steps are watched too (the oracles keep their windows) but what they find was reported before."""

    def __init__(self, sink: Callable[[Slot, Any], None]) -> None:
        self.sink = sink

    def on_step(self, step: Step) -> None:
        if step.slot.suite is not None and step.game_obs is not None:
            for f in step.slot.suite.check(step.game_obs, step.index):
                self.sink(step.slot, f)

    def on_replay_step(self, slot: Slot, index: int) -> None:
        if slot.suite is not None and slot.last_obs is not None:
            slot.suite.check(slot.last_obs, index)


class StateCoverage(Observer):
    """Distinct abstract states: ``key(step)`` gives a step's state (None: it has none), encoded here.
    ``seen`` counts visits per state over the campaign (a resumed campaign passes its stored counts);
    ``episode[slot]`` counts this episode's, written with the episode."""

    def __init__(self, key: Callable[[Step], Any], seen: dict[str, int] | None = None) -> None:
        self.key = key
        self.seen: dict[str, int] = dict(seen or {})
        self.episode: dict[int, Counter[str]] = {}

    def on_episode_start(self, slot: Slot, fresh: bool) -> None:
        self.episode[slot.index] = Counter()

    def on_step(self, step: Step) -> None:
        key = self.key(step)
        if key is None:
            return
        k = step.key = encode_key(key)
        self.episode.setdefault(step.slot.index, Counter())[k] += 1
        if k not in self.seen:
            self.seen[k] = 0
            step.fresh = True
        self.seen[k] += 1


class PositionWatch(Observer):
    """The player's positions in each episode (`PositionMap` of the game's config)."""

    def __init__(self, cell: float, source: str) -> None:
        self.cell, self.source = cell, source
        self.episode: dict[int, PositionMap] = {}

    def on_episode_start(self, slot: Slot, fresh: bool) -> None:
        self.episode[slot.index] = PositionMap(self.cell, self.source)

    def on_step(self, step: Step) -> None:
        if step.game_obs is not None:
            self.episode.setdefault(step.slot.index, PositionMap(self.cell, self.source)).add(step.game_obs)


class CodeWatch(Observer):
    """Executed lines of the game's source, as the workers report them: per episode (stored with it) and
    merged into ``code`` (the campaign's `CodeCoverage`) when the episode ends. Lines an episode process ran
    after its last report arrive with the next reset."""

    def __init__(self, code: CodeCoverage) -> None:
        self.code = code
        self.episode: dict[int, dict[str, set[int]]] = {}

    def on_reset(self, slot: Slot) -> None:
        worker = getattr(slot.env, "worker", None)
        late = worker.final_code_lines if worker is not None else None
        if late:
            self.code.add(late)

    def on_episode_start(self, slot: Slot, fresh: bool) -> None:
        self.episode[slot.index] = {}

    def _add(self, slot: Slot, obs: Any) -> None:
        if obs is None:
            return
        mine = self.episode.setdefault(slot.index, {})
        for f, lines in obs.info.get("code_lines", {}).items():
            mine.setdefault(f, set()).update(lines)

    def on_step(self, step: Step) -> None:
        self._add(step.slot, step.game_obs)

    def on_replay_step(self, slot: Slot, index: int) -> None:
        self._add(slot, slot.last_obs)

    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None:
        self.code.add(self.episode.get(slot.index, {}))


class ExplorerHooks(Observer):
    """The agent's view of each step (`Transition`) and of each episode's end."""

    def on_step(self, step: Step) -> None:
        if step.action is None:
            return
        agent = step.slot.agent
        step.stop = bool(agent.observe(step.slot.index, Transition(
            step.prev_obs, step.action, step.reward, step.obs, step.terminated, step.truncated, step.info,
            step.key, step.fresh, step.game_obs))) or step.stop

    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None:
        slot.agent.episode_end(slot.index, outcome)


class EpisodeWriter(Observer):
    """Each ended episode to the store with the campaign's totals so far (the coverage timeline)."""

    def __init__(self, store: Any, campaign_id: int, states: StateCoverage, positions: PositionWatch,
                 code: CodeWatch) -> None:
        self.store, self.cid = store, campaign_id
        self.states, self.positions, self.code = states, positions, code
        self.loop: CampaignLoop | None = None

    def on_start(self, loop: CampaignLoop) -> None:
        self.loop = loop

    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None:
        loop = self.loop
        assert loop is not None
        t = loop.now_s()
        code = self.code.code
        self.store.record_episode(
            self.cid, worker=slot.index, seed=slot.seed, steps=len(slot.actions), outcome=outcome, reason=reason,
            ended_s=t, actions=slot.actions, new_states=dict(self.states.episode.get(slot.index, {})),
            positions=self.positions.episode[slot.index].counts if slot.index in self.positions.episode else {},
            code_lines=self.code.episode.get(slot.index, {}),
            totals={"t_s": t, "steps": loop.steps, "episodes": loop.episodes, "states": len(self.states.seen),
                    "code_covered": code.covered(), "code_total": code.total(),
                    "bugs": self.store.bug_count(self.cid), "steps_per_s": loop.steps / max(t - loop.elapsed0, 1e-9),
                    "next_seed": loop.next_seed})


class AgentSaver(Observer):
    """A learning agent's state (``state_bytes``) to the campaign row, every ``every_s`` and at the end,
    so ``explore --resume`` continues what it learnt."""

    def __init__(self, save: Callable[[bytes], None], agent: Any, every_s: float) -> None:
        self.save, self.agent, self.every_s = save, agent, every_s
        self.saved_at = time.perf_counter()

    def on_round(self, loop: CampaignLoop) -> None:
        if time.perf_counter() - self.saved_at > self.every_s:
            self.on_end(loop)

    def on_end(self, loop: CampaignLoop) -> None:
        self.save(self.agent.state_bytes())
        self.saved_at = time.perf_counter()


class Progress(Observer):
    """``callback(dict)`` after every round: steps, seconds, episodes, states, bugs (every 100 steps)."""

    def __init__(self, callback: Callable[[dict[str, Any]], None], states: StateCoverage,
                 bugs: Callable[[], int]) -> None:
        self.callback, self.states, self.bugs = callback, states, bugs

    def on_round(self, loop: CampaignLoop) -> None:
        self.callback({"steps": loop.steps, "seconds": loop.now_s(), "episodes": loop.episodes,
                       "states": len(self.states.seen), "bugs": self.bugs() if loop.steps % 100 == 0 else None,
                       "budget": loop.budget})
