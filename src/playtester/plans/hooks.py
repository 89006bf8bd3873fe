"""Run inside the game's episode process (through `Worker.call`): the hooks a game registered with
``probe.hook`` (``teleport(x, y)``, ``walkable()``), invoked between two frames, never from the parent."""

from __future__ import annotations

from typing import Any


def _plain(value: Any) -> Any:
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    try:  # numpy arrays and scalars
        return _plain(value.tolist())
    except AttributeError:
        return repr(value)[:200]


def call_hook(rt: Any, name: str, *args: Any) -> tuple[str, Any]:
    """``("ok", result)`` of the game's hook ``name``, or ``("missing", [registered names])``."""
    from playtester import probe

    hooks = probe.hooks()
    fn = hooks.get(name)
    if fn is None:
        return "missing", sorted(hooks)
    return "ok", _plain(fn(*args))


def hook_names(rt: Any) -> list[str]:
    """The names of the hooks the game registered so far."""
    from playtester import probe

    return sorted(probe.hooks())
