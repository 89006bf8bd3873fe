"""The campaign loop on toy environments: seeds, budget, observer order, episode ends, empty masks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from playtester.agents.common import Explorer
from playtester.campaign import Budget, CampaignLoop, Observer
from playtester.errors import NoValidActionError


class Counter10:
    """Counts steps; an episode lasts ``length`` steps; the mask is ``mask``; remembers its seeds."""

    last_obs = None  # a `LoopEnv`: no driver observation, no batches, no game
    can_act_ahead = ahead = False
    worker = None

    def __init__(self, length: int = 10, mask: Any = None) -> None:
        self.length, self.mask, self.t, self.seeds, self.pending = length, mask, 0, [], None

    def info(self) -> dict[str, Any]:
        return {} if self.mask is None else {"action_mask": np.array(self.mask, dtype=np.int8)}

    def reset(self, seed: int | None = None) -> tuple[Any, dict[str, Any]]:
        self.seeds.append(seed)
        self.t = 0
        return self.t, self.info()

    def step_async(self, a: int) -> None:
        self.pending = a

    def step_wait(self) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.t += 1
        return self.t, float(self.pending), self.t >= self.length, False, self.info()

    def close(self) -> None:
        pass


class Log(Observer):
    def __init__(self, name: str, log: list) -> None:
        self.name, self.log = name, log

    def on_step(self, step: Any) -> None:
        self.log.append((self.name, "step", step.slot.index, step.index))

    def on_episode_end(self, slot: Any, outcome: str, reason: str) -> None:
        self.log.append((self.name, "end", slot.index, outcome))


def test_seeds_in_start_order_budget_in_steps_and_observers_in_list_order():
    envs = [Counter10(length=3), Counter10(length=3)]
    log: list = []
    loop = CampaignLoop(envs, [Explorer(2, seed=0), Explorer(2, seed=1)], Budget(steps=7), seed=5,
                        observers=[Log("a", log), Log("b", log)])
    loop.run()
    assert loop.steps == 7
    # slot 0 starts with 5, slot 1 with 6; each new episode takes the next seed in the order it starts
    assert envs[0].seeds == [5, 7] and envs[1].seeds == [6, 8]
    assert log[:4] == [("a", "step", 0, 0), ("b", "step", 0, 0), ("a", "step", 1, 0), ("b", "step", 1, 0)]
    ends = [e for e in log if e[0] == "a" and e[1] == "end"]
    # 7 steps = 3 rounds of both slots (each ends an episode at step 3), then slot 0 alone: a step budget is
    # exact; the episode in flight ends as "budget", slot 1's unplayed new one is not counted
    assert [e[3] for e in ends].count("finished") == 2 and ("a", "end", 0, "budget") in ends
    assert loop.episodes == 3


def test_an_observer_can_end_the_episode_and_the_outcome_is_agent():
    class StopAt2(Observer):
        def on_step(self, step: Any) -> None:
            step.stop = step.index == 2

    log: list = []
    loop = CampaignLoop([Counter10()], [Explorer(2)], Budget(steps=4), observers=[StopAt2(), Log("a", log)])
    loop.run()
    assert ("a", "end", 0, "agent") in log
    assert [e for e in log if e[1] == "step"][:4] == [("a", "step", 0, 0), ("a", "step", 0, 1), ("a", "step", 0, 2),
                                                      ("a", "step", 0, 0)]


def test_an_observer_that_returns_false_stops_the_campaign_after_the_round_in_flight():
    """`Observer.on_step` returning False (as an SB3 callback's ``_on_step``): the other slot's step of that round
    is still answered and observed (by every observer, the later ones too), the episodes in flight end as
    ``stopped``, ``on_end`` runs once, and ``loop.stopped`` says who stopped it. None and True go on."""

    class StopAt(Observer):
        def __init__(self) -> None:
            self.ends = 0

        def on_step(self, step: Any) -> bool | None:
            if step.slot.index == 0 and step.index == 2:
                return False
            return True if step.index == 1 else None

        def on_end(self, loop: Any) -> None:
            self.ends += 1

    log: list = []
    stopper = StopAt()
    envs = [Counter10(), Counter10()]
    loop = CampaignLoop(envs, [Explorer(2, seed=0), Explorer(2, seed=1)], Budget(steps=1000),
                        observers=[stopper, Log("a", log)])
    loop.run()
    # two rounds of two slots: slot 0's step 2 stops the campaign, slot 1's step 2 of that round is still seen
    assert loop.steps == 4 and loop.stopped == "StopAt stopped the campaign at step 3"
    steps = [e for e in log if e[1] == "step"]
    assert steps[-2:] == [("a", "step", 0, 2), ("a", "step", 1, 2)] and len(steps) == 6
    assert [e for e in log if e[1] == "end"] == [("a", "end", 0, "stopped"), ("a", "end", 1, "stopped")]
    assert stopper.ends == 1 and loop.episodes == 2
    # the budget alone ends a campaign with ``stopped`` None
    other = CampaignLoop([Counter10()], [Explorer(2)], Budget(steps=3))
    other.run()
    assert other.stopped is None and other.steps == 3


def test_no_valid_action_ends_the_episode_and_a_mask_that_never_allows_anything_is_an_error():
    log: list = []
    loop = CampaignLoop([Counter10(mask=[0, 0])], [Explorer(2)], Budget(steps=5), observers=[Log("a", log)])
    with pytest.raises(NoValidActionError, match="no action at the start of 100 episodes"):
        loop.run()
    assert ("a", "end", 0, "no-valid-action") in log and loop.steps == 0


def test_the_explorer_can_start_an_episode_itself():
    class Returner(Explorer):
        def episode_start(self, slot: int) -> bool:
            self.starts = getattr(self, "starts", 0) + 1
            return self.starts > 1  # the first one is the campaign's; later ones the explorer's own

    env = Counter10(length=2)
    starts: list = []

    class Starts(Observer):
        def on_episode_start(self, slot: Any, fresh: bool) -> None:
            starts.append(fresh)

    loop = CampaignLoop([env], [Returner(2)], Budget(steps=6), observers=[Starts()])
    loop.run()
    assert env.seeds == [0]  # never reset again: the explorer took over every later episode
    assert starts[0] is True and not any(starts[1:]) and len(starts) >= 2


def test_the_clock_starts_when_every_worker_is_up():
    """A worker that takes long to start (a Ray actor starts at its first call) is not charged to the campaign:
    a time budget shorter than the start-up still plays steps, and `startup_s` holds the start-up."""
    import time

    class SlowStart(Counter10):
        def reset(self, seed: int | None = None) -> tuple[Any, dict[str, Any]]:
            if not self.seeds:
                time.sleep(0.4)  # the first call starts the worker
            return super().reset(seed)

    loop = CampaignLoop([SlowStart(), SlowStart()], [Explorer(2, seed=0), Explorer(2, seed=1)], Budget(seconds=0.3))
    loop.run()
    assert loop.startup_s >= 0.8
    assert loop.steps > 0  # with the start-up counted, the 0.3 s budget would be spent before the first round
    assert loop.now_s() < loop.startup_s
