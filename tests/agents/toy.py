"""Toy environments written in Python (no game process), played by the campaign's own loop: fast checks
that an agent learns, with its hooks called exactly as in a campaign."""

from __future__ import annotations

from typing import Any

import numpy as np

from playtester.agents.common import CampaignInfo
from playtester.campaign import Budget, CampaignLoop, Observer
from playtester.campaign.observers import ExplorerHooks, StateCoverage


class TwoStates:
    """Two states shown as a black or a white 84x84 frame. In state 0 action 1 pays 1, in state 1 action
    2 does; action 3 would pay 10 in both but is always masked; the next state is random; 10 steps."""

    n_actions = 4

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.s, self.t = 0, 0

    def obs(self) -> np.ndarray:
        return np.full((84, 84, 3), 255 * self.s, dtype=np.uint8)

    def info(self) -> dict[str, Any]:
        return {"action_mask": np.array([1, 1, 1, 0], dtype=np.int8), "features": {"s": float(self.s)}}

    def reset(self) -> tuple[np.ndarray, dict[str, Any]]:
        self.s, self.t = int(self.rng.integers(2)), 0
        return self.obs(), self.info()

    def step(self, a: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        assert a != 3, "a masked action was chosen"
        r = 1.0 if (self.s == 0 and a == 1) or (self.s == 1 and a == 2) else 0.0
        self.s, self.t = int(self.rng.integers(2)), self.t + 1
        return self.obs(), r, False, self.t >= 10, self.info()


class Line:
    """A line of positions 0..20 starting at 0; actions left, right, stay; 20 steps. The reward is 1 per
    new farthest position, so a policy that walks right both wins more and sees more states."""

    n_actions = 3

    def __init__(self) -> None:
        self.x = self.best = self.t = 0

    def info(self) -> dict[str, Any]:
        return {"action_mask": np.ones(3, dtype=np.int8), "features": {"x": float(self.x)}}

    def reset(self) -> tuple[np.ndarray, dict[str, Any]]:
        self.x = self.best = self.t = 0
        return np.array([self.x], dtype=np.float32), self.info()

    def step(self, a: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.x = int(np.clip(self.x + (-1, 1, 0)[a], 0, 20))
        r = 1.0 if self.x > self.best else 0.0
        self.best = max(self.best, self.x)
        self.t += 1
        return np.array([self.x], dtype=np.float32), r, False, self.t >= 20, self.info()


class ToyEnv:
    """A toy as a campaign environment (``step_async`` / ``step_wait``; no driver observation)."""

    last_obs = None  # a `LoopEnv`: no driver observation, no batches, no game
    can_act_ahead = ahead = False
    worker = None

    def __init__(self, toy: Any) -> None:
        self.toy, self.pending = toy, None

    def reset(self, seed: int | None = None) -> tuple[Any, dict[str, Any]]:
        return self.toy.reset()

    def step_async(self, a: int) -> None:
        self.pending = a

    def step_wait(self) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return self.toy.step(self.pending)

    def close(self) -> None:
        pass


class OnStep(Observer):
    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def on_step(self, step: Any) -> None:
        if step.action is not None:
            self.fn(step.prev_obs, step.prev_info, step.action)


def drive(agent: Any, env: Any, steps: int, features: list[str], on_step: Any = None) -> None:
    """Play ``steps`` steps of ``env`` with ``agent`` on the campaign's own loop (one slot), the state key
    being the toy's features; ``on_step(obs, info, action)`` sees each action and what it was chosen on."""
    agent.setup(CampaignInfo(env.n_actions, 1, features=features))
    keys = StateCoverage(lambda step: tuple(sorted(step.info["features"].items())))
    observers = [keys, ExplorerHooks()] + ([OnStep(on_step)] if on_step else [])
    CampaignLoop([ToyEnv(env)], [agent], Budget(steps=steps), observers=observers).run()
