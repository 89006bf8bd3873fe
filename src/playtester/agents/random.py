"""The random agent: uniform over the actions that are valid now.

An all-zero action mask is not a reason to pick action 0: it is a bug in the action space or the game,
and the agent says so with `NoValidActionError`.

It acts ahead: its choice depends on the action mask only, so `plan` hands the worker a copy of its generator
(`RandomPlan`) that draws, on each step's mask, what ``act`` would draw there; the campaign then plays
several steps per call to the worker with the same actions, hence the same findings, as one at a time.
"""

from __future__ import annotations

from typing import Any

from playtester.agents.common import Explorer, RandomPlan, random_valid


class RandomAgent(Explorer):
    """Picks uniformly among valid actions (``info["action_mask"]``), with its own seeded generator. One per
    worker (``shared = False``); its hooks are the base's no-ops; it plans (acts ahead)."""

    name = "random"
    shared = False

    def act(self, obs: Any, info: dict[str, Any], slot: int = 0) -> int:
        return random_valid(self.rng, info.get("action_mask"), self.n_actions)

    def plan(self, obs: Any, info: dict[str, Any], slot: int = 0) -> RandomPlan:
        return RandomPlan.of(self.rng, self.n_actions)
