"""Plugins: every open set of playtester is an entry-point group, found by one registry.

==========================  =====================================================================
group                       an entry point names
==========================  =====================================================================
``playtester.backends``     a `drive.backend.Backend` (an engine: its spec prefix, resolver, episode body)
``playtester.oracles``      an oracle class (``kind``, ``reset``, ``check``; ``settings``, ``error``)
``playtester.agents``       an agent class (an `agents.common.Explorer`)
``playtester.spaces``       a loader of serialized action spaces that carry the entry point's field
``playtester.replayers``    a `replay.Replayer` of the bug kind named by the entry point
``playtester.judges``       a loader of the texture oracle's model bundles
==========================  =====================================================================

playtester's own parts are entry points of its own distribution (``[project.entry-points."playtester.*"]`` in
pyproject.toml), as a package of the user's adds its own, the way pytest finds ``pytest11`` plugins. Each group
is read once, on first use, and each entry point is imported only when its name is asked for (an agent that
needs PyTorch is imported when it is made, not when the agents are listed). A plugin that does not import is
named with its distribution and error; two distributions claiming one name are both named.

Code may also `Registry.add` a part at run time (tests, notebooks); that is the same table.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any, Generic, TypeVar

from playtester.errors import UsageError

T = TypeVar("T")

__all__ = ["PluginError", "Registry", "own_entry_points"]


class PluginError(UsageError):
    """A plugin is broken or clashes with another: the installation needs fixing (exit code 2)."""


def _dist(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"{dist.metadata['Name']} {dist.version}" if dist is not None else "playtester (its source tree)"


_SOURCE_PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def own_entry_points(group: str) -> list[EntryPoint]:
    """playtester's own entry points of ``group`` as its source tree's pyproject.toml declares them.

    Used only when the installed metadata of playtester declares no ``playtester.*`` group at all: a source
    checkout run with ``PYTHONPATH=src`` over an editable install made before the groups existed. An install
    (``pip install .``, the wheel, a fresh ``pip install -e .``) reads them from its metadata."""
    if not _SOURCE_PYPROJECT.is_file():
        return []
    with _SOURCE_PYPROJECT.open("rb") as f:
        project = tomllib.load(f).get("project", {})
    if project.get("name") != "playtester":
        return []
    table = project.get("entry-points", {}).get(group, {})
    return [EntryPoint(name, value, group) for name, value in table.items()]


def _installed_declares_groups() -> bool:
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        eps = distribution("playtester").entry_points
    except PackageNotFoundError:
        return False
    return any(ep.group.startswith("playtester.") for ep in eps)


class Registry(Generic[T]):
    """The parts of one kind (``backends``, ``oracles``, ...): entry points of the group ``playtester.KIND``
    plus what code added with `add`, each loaded on first use.

    Args:
        kind: the kind's name (plural), also the group's suffix.
        adapt: ``adapt(name, loaded)``: the part as the registry keeps it (an oracle class becomes its
            `OracleKind`); it may raise ValueError or TypeError for a part that is not of the kind.
    """

    def __init__(self, kind: str, adapt: Callable[[str, Any], T] | None = None) -> None:
        self.kind = kind
        self.group = f"playtester.{kind}"
        self._adapt = adapt or (lambda name, obj: obj)
        self._found: dict[str, EntryPoint] | None = None
        self._parts: dict[str, T] = {}  # loaded or added, by name
        self._origin: dict[str, str] = {}  # name -> who registered it, for messages

    # ---- discovery
    def entry_points(self) -> dict[str, EntryPoint]:
        """The group's entry points by name (read once).

        Raises:
            PluginError: two distributions register one name.
        """
        if self._found is None:
            found: dict[str, EntryPoint] = {}
            eps = list(entry_points(group=self.group))
            if not _installed_declares_groups():
                eps = own_entry_points(self.group) + eps
            # playtester's own first, then other distributions'; by name within each (installers sort a group's
            # entry points, so the declared order is not kept)
            eps.sort(key=lambda ep: (_dist(ep).split(" ")[0] != "playtester", ep.name))
            for ep in eps:
                other = found.get(ep.name)
                if other is not None and other.value != ep.value:
                    raise PluginError(
                        f"{self.kind[:-1]} {ep.name!r} is registered twice in entry-point group {self.group!r}: "
                        f"by {_dist(other)} ({other.value}) and by {_dist(ep)} ({ep.value}); uninstall one of them")
                found.setdefault(ep.name, ep)
            self._found = found
        return self._found

    def names(self) -> list[str]:
        """Every name, loaded or not: playtester's entry points, then other distributions', each by name, then
        parts added in code."""
        return list(dict.fromkeys([*self.entry_points(), *self._parts]))

    def __contains__(self, name: object) -> bool:
        return name in self._parts or name in self.entry_points()

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    # ---- loading
    def get(self, name: str) -> T:
        """The part called ``name``, imported on first use.

        Raises:
            KeyError: no part has that name.
            PluginError: its entry point does not import, or is not a part of this kind.
        """
        if name in self._parts:
            return self._parts[name]
        ep = self.entry_points().get(name)
        if ep is None:
            raise KeyError(name)
        try:
            obj = ep.load()
        except ModuleNotFoundError as e:
            if getattr(e, "name", None) in _OPTIONAL:  # a missing extra: its caller says which one to install
                raise
            raise self._broken(ep, e) from e
        except Exception as e:  # noqa: BLE001 - any failure to import a plugin is reported with its name
            raise self._broken(ep, e) from e
        try:
            part = self._adapt(name, obj)
        except (TypeError, ValueError) as e:
            raise self._broken(ep, e) from e
        self._parts[name] = part
        self._origin[name] = _dist(ep)
        return part

    def _broken(self, ep: EntryPoint, e: BaseException) -> PluginError:
        return PluginError(f"{self.kind[:-1]} plugin {ep.name!r} (entry point {ep.name} = {ep.value} in group "
                           f"{self.group!r} of {_dist(ep)}) failed to load: {type(e).__name__}: {e}")

    def load_all(self) -> dict[str, T]:
        """Every part, loaded, by name in `names` order."""
        return {name: self.get(name) for name in self.names()}

    def loaded(self) -> dict[str, T]:
        """The parts loaded or added so far (nothing is imported)."""
        return dict(self._parts)

    # ---- registering in code
    def add(self, name: str, part: Any, origin: str = "code", *, replace: bool = False) -> T:
        """Register ``part`` as ``name`` (adapted as an entry point's object would be); ``replace``: in place of
        the part or entry point of that name, if any.

        Raises:
            PluginError: ``name`` is taken by another part (re-adding the same part is a no-op).
        """
        adapted = self._adapt(name, part)
        if name in self and not replace:
            current = self.get(name)
            if current == adapted or current is part:
                return current
            raise PluginError(f"{self.kind[:-1]} {name!r} is registered twice: by {self._origin.get(name, '?')} "
                              f"and by {origin}")
        self._parts[name] = adapted
        self._origin[name] = origin
        return adapted

    def remove(self, name: str) -> None:
        """Forget a part added in code (tests)."""
        self._parts.pop(name, None)
        self._origin.pop(name, None)


# Modules of optional extras: a plugin that needs one and lacks it raises ModuleNotFoundError as is, so the
# caller's own message names the extra (`playtester.extras.missing`).
_OPTIONAL = {"torch", "ray", "vizdoom", "gdtoolkit", "spacy", "rapidfuzz"}
