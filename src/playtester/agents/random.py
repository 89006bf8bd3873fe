"""The random agent: uniform over the actions that are valid now.

An all-zero action mask is not a reason to pick action 0: it is a bug in the action space or the game,
and the agent says so with `NoValidActionError`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from playtester.errors import NoValidActionError


class RandomAgent:
    """Picks uniformly among valid actions (``info["action_mask"]``), with its own seeded generator."""

    name = "random"

    def __init__(self, n_actions: int, seed: int = 0) -> None:
        self.n_actions = n_actions
        self.rng = np.random.default_rng(seed)

    def act(self, obs: Any, info: dict[str, Any]) -> int:
        mask = info.get("action_mask")
        if mask is None:
            return int(self.rng.integers(self.n_actions))
        valid = np.flatnonzero(mask)
        if valid.size == 0:
            raise NoValidActionError("the action mask has no valid action in this state")
        return int(self.rng.choice(valid))
