"""Agents: they see Gymnasium spaces and numpy arrays, never pygame objects."""

from playtester.agents.random import RandomAgent

AGENTS = {"random": RandomAgent}

__all__ = ["AGENTS", "RandomAgent", "make_agent"]


def make_agent(name: str, n_actions: int, seed: int = 0) -> RandomAgent:
    """An agent by name (``random``)."""
    from playtester.errors import UsageError

    if name not in AGENTS:
        raise UsageError(f"unknown agent {name!r}; available: {', '.join(sorted(AGENTS))}")
    return AGENTS[name](n_actions, seed=seed)
