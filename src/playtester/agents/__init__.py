"""Agents: they see Gymnasium spaces and numpy arrays, never pygame objects.

- ``random``: uniform over valid actions (one per worker).
- ``curiosity``: count-based curiosity DQN with invalid-action masking (paper 000, Section 4.1).
- ``wuji``: Wuji's evolutionary multi-objective search with A2C (paper 002, Section IV).
- ``goexplore``: Go-Explore's archive of cells, returning by snapshot or by replaying the trace.
- ``ppgta``: preference-conditioned pixel agent (paper 001): PPO on style + ensemble novelty, imitation tests.
- ``inspector``: its baseline: single RND, no preference, behaviour-cloned tests.

An agent name may carry hyper-parameter overrides: ``wuji:population=8,runs=1`` (the fields of the
agent's config dataclass). The learning explorers import torch only when they are made.
"""

from __future__ import annotations

import importlib
from typing import Any

from playtester.agents.random import RandomAgent

AGENTS: dict[str, str] = {
    "random": "playtester.agents.random:RandomAgent",
    "curiosity": "playtester.agents.curiosity:CuriosityAgent",
    "wuji": "playtester.agents.wuji:WujiAgent",
    "goexplore": "playtester.agents.goexplore:GoExploreAgent",
    "ppgta": "playtester.agents.ppgta:PpgtaAgent",
    "inspector": "playtester.agents.ppgta:InspectorAgent",
}

__all__ = ["AGENTS", "RandomAgent", "agent_class", "make_agent"]


def agent_class(name: str) -> type:
    """The class of agent ``name`` (options after ``:`` are ignored)."""
    from playtester.errors import UsageError

    base = name.partition(":")[0].strip()
    if base not in AGENTS:
        raise UsageError(f"unknown agent {base!r}; available: {', '.join(sorted(AGENTS))}")
    module, _, cls = AGENTS[base].partition(":")
    try:
        return getattr(importlib.import_module(module), cls)
    except ModuleNotFoundError as e:
        if e.name != "torch":
            raise
        from playtester.extras import missing

        raise missing("agents", f"the {base} agent", "PyTorch (torch)") from None


def make_agent(name: str, n_actions: int, seed: int = 0, workers: int = 1) -> Any:
    """An agent by name (``random``, ``curiosity``, ``wuji``, ``goexplore``, with ``:key=value,...``
    overrides of its hyper-parameters)."""
    from playtester.agents.common import parse_agent
    from playtester.errors import UsageError

    base, overrides = parse_agent(name)
    cls = agent_class(base)
    if cls is RandomAgent:
        if overrides:
            raise UsageError("the random agent has no options")
        return RandomAgent(n_actions, seed=seed)
    return cls(n_actions, seed=seed, workers=workers, **overrides)
