"""Action spaces: what an agent can choose, and the inputs each choice performs."""

from playtester.actions.space import Action, ActionContext, ActionSpace, native_space

__all__ = ["Action", "ActionContext", "ActionSpace", "native_space", "make_space"]


def make_space(kind: str, blacklist: list[str] | None = None) -> ActionSpace:
    """Build an action space from a CLI-style name: ``blind`` or ``manual:FILE``."""
    from playtester.errors import UsageError

    if kind == "blind":
        from playtester.actions.blind import blind_space

        return blind_space(blacklist or [])
    if kind.startswith("manual:"):
        from playtester.actions.manual import load_manual

        return load_manual(kind.split(":", 1)[1], blacklist or [])
    raise UsageError(f"unknown action space {kind!r}; use 'analyzed', 'blind', 'manual:path/to/actions.yaml' or "
                     "'analyzed:FILE.json' (a space exported by playtester analyze --json)")
