"""Agents: they see Gymnasium spaces and numpy arrays, never pygame objects.

- ``random``: uniform over valid actions (one per worker).
- ``curiosity``: count-based curiosity DQN with invalid-action masking (paper 000, Section 4.1).
- ``wuji``: Wuji's evolutionary multi-objective search with A2C (paper 002, Section IV).
- ``goexplore``: Go-Explore's archive of cells, returning by snapshot or by replaying the trace.
- ``ppgta``: preference-conditioned pixel agent (paper 001): PPO on style + ensemble novelty, imitation tests.
- ``inspector``: its baseline: single RND, no preference, behaviour-cloned tests.

An agent name may carry hyper-parameter overrides: ``wuji:population=8,runs=1`` (the fields of the
agent's config dataclass). The learning explorers import torch only when they are made.

Each agent is an entry point of the group ``playtester.agents`` (``NAME = "module:Class"``, playtester's in its
pyproject.toml): another package adds one the same way, and ``--agent NAME`` finds it (`playtester.plugins`).
"""

from __future__ import annotations

from typing import Any

from playtester.agents.random import RandomAgent
from playtester.plugins import Registry


def _agent(name: str, cls: Any) -> type:
    if not isinstance(cls, type) or not callable(getattr(cls, "act", None)):
        raise TypeError(f"a playtester.agents entry point names an agent class with act(obs, info); got {cls!r}")
    return cls


AGENTS: Registry[type] = Registry("agents", _agent)  # name -> agent class, each imported when first asked for

__all__ = ["AGENTS", "RandomAgent", "agent_class", "make_agent"]


def agent_class(name: str) -> type:
    """The class of agent ``name`` (options after ``:`` are ignored)."""
    from playtester.errors import UsageError

    base = name.partition(":")[0].strip()
    if base not in AGENTS:
        raise UsageError(f"unknown agent {base!r}; available: {', '.join(sorted(AGENTS))}")
    try:
        return AGENTS.get(base)
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
