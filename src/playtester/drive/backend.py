"""Backends: which engine runs a game, and what it can do (capability flags).

A backend is one `Backend`, an entry point of the group ``playtester.backends`` (`playtester.plugins`): the
prefix of its specs (``gym`` for ``gym:ID``) and the function that resolves them, the spec kinds it runs (pygame
games, named by file or module, have no prefix), the function its episode process runs, what the worker host
prepares once, how a game with its own discrete actions declares them, and its `Capabilities`. Everything above
the driver asks a capability (``backend_for(spec).capabilities.snapshots``), never the engine's name, and
`drive.spec.resolve` loops over the backends' prefixes, so a new engine is one module (its episode function and
its ``Backend``) plus one entry point, in playtester or in a package of the user's.

The episode process speaks the worker's command protocol (`playtester.drive.episode.serve`): ``step``,
``act``, ``call``, ``snapshot``, ``end`` in, ``hello``, ``obs``, ``final``, ``reply``, ``coverage`` out.
Functions are named as ``"module:function"`` and imported where they run, so the parent of a Gymnasium
game never imports pygame and the worker host imports only the engine it runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from playtester.plugins import Registry


class SpecLike(Protocol):
    """What the backends read of a `drive.spec.GameSpec` (spec.py imports this module, not the other way)."""

    text: str
    kind: str


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do. Each flag is checked by the code that needs it, never the engine's name."""

    python: bool  # the game's own Python runs in the episode process under playtester's hooks (probe, virtual
    #               time, faulthandler: a hang comes with the game's stack)
    snapshots: bool  # an episode can be parked and resumed (a forked copy of the episode process)
    code_coverage: bool  # statement coverage of the game's source can be measured in the episode process
    analysis: bool  # the action-space analysis can read the game's input handling (in `scripts`)
    pixels: bool  # frames can be captured
    entities: bool  # the game reports entities (probe, or the engine's own objects)
    declared_actions: bool  # the game declares its own discrete actions: no other action space applies
    scripts: str = "python"  # the language of the game's input handling that the analysis reads, when
    #                      `analysis` is set: "python" (in the live game) or "gdscript" (the project's files)


@dataclass(frozen=True)
class Backend:
    """One engine."""

    name: str
    kinds: tuple[str, ...]  # the spec kinds it runs
    capabilities: Capabilities
    run_episode: str  # "module:function(conn, spec, seed, space, opts)": the episode process's body
    prepare_host: str | None = None  # "module:function(host_pid, snapshot_done_fd)": once in a worker host
    prepare_episode: str | None = None  # "module:function(opts)": in the host before each episode's fork
    declared: str | None = None  # "module:function(spec) -> (n, names)": the game's own actions
    prefix: str | None = None  # its specs' prefix (``gym`` for ``gym:ID``); None: the backend of specs with none
    #                            (files, modules, bundled games), tried after every prefix
    resolve: str | None = None  # "module:function(text, folders) -> GameSpec": a spec's text, prefix included,
    #                             resolved (``folders``: where else to look for a module, e.g. the config's)

    def call(self, name: str, *args: Any) -> Any:
        """Import and call one of the backend's functions (``run_episode``, ``prepare_host``, ...)."""
        target = getattr(self, name)
        if target is None:
            raise ValueError(f"backend {self.name!r} has no {name}")
        return load(target)(*args)


BACKENDS: Registry[Backend] = Registry("backends", lambda name, b: _checked(name, b))


def _checked(name: str, backend: Any) -> Backend:
    if not isinstance(backend, Backend):
        raise TypeError(f"a playtester.backends entry point names a Backend, not {type(backend).__name__}")
    if backend.name != name:
        raise ValueError(f"the entry point {name!r} names backend {backend.name!r}; give both the same name")
    return backend


def backends() -> list[Backend]:
    """Every backend (entry points of ``playtester.backends``, then any added in code), loaded."""
    return list(BACKENDS.load_all().values())


def register_backend(backend: Backend) -> None:
    """Make ``backend`` run its spec kinds (in code; an installed engine is an entry point of the group
    ``playtester.backends``).

    Raises:
        ValueError: another backend already runs one of its kinds or claims its prefix.
    """
    for other in backends():
        if other.name == backend.name:
            continue
        taken = [k for k in backend.kinds if k in other.kinds]
        if taken:
            raise ValueError(f"spec kind {taken[0]!r} already runs on backend {other.name!r}")
        if backend.prefix is not None and backend.prefix == other.prefix:
            raise ValueError(f"spec prefix {backend.prefix + ':'!r} is already backend {other.name!r}'s")
    BACKENDS.add(backend.name, backend)


def backend_for(spec: SpecLike) -> Backend:
    """The backend that runs ``spec``."""
    for backend in backends():
        if spec.kind in backend.kinds:
            return backend
    from playtester.errors import GameSpecError

    raise GameSpecError(f"no backend runs {spec.kind!r} games ({spec.text}); known: "
                        f"{', '.join(sorted(k for b in backends() for k in b.kinds))}")


def capabilities(spec: SpecLike) -> Capabilities:
    return backend_for(spec).capabilities


def load(target: str) -> Callable[..., Any]:
    """The function ``"module:function"``."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)



# playtester's own engines, each an entry point of the group ``playtester.backends`` in pyproject.toml. They are
# declared here, in a module that imports no engine, because resolving a spec loads every backend (to read its
# prefix): the engines' modules are imported only where their functions run.
PYGAME = Backend(
    "pygame", ("module", "file"),
    Capabilities(python=True, snapshots=True, code_coverage=True, analysis=True, pixels=True, entities=True,
                 declared_actions=False),
    run_episode="playtester.drive.pygame_driver:run_episode",
    prepare_host="playtester.drive.pygame_driver:prepare_host",
    prepare_episode="playtester.drive.pygame_driver:prepare_episode",
    resolve="playtester.drive.spec:resolve_python")
GYM = Backend(
    "gym", ("gym",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=False, pixels=True, entities=True,
                 declared_actions=True),
    run_episode="playtester.drive.gym_driver:run_gym_episode",
    declared="playtester.drive.gym_driver:declared_actions",
    prefix="gym", resolve="playtester.drive.spec:resolve_gym")
REMOTE = Backend(
    "remote", ("remote",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=False, pixels=True, entities=True,
                 declared_actions=True),
    run_episode="playtester.drive.remote:run_remote_episode",
    declared="playtester.drive.remote:remote_declared",
    prefix="remote", resolve="playtester.drive.spec:resolve_remote")
GODOT = Backend(
    "godot", ("godot",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=True, pixels=False, entities=True,
                 declared_actions=True, scripts="gdscript"),
    run_episode="playtester.drive.godot:run_godot_episode",
    declared="playtester.drive.godot:declared_actions",
    prefix="godot", resolve="playtester.drive.spec:resolve_remote")
GODOT_RUNNER = Backend(
    "godot-runner", ("godot-runner",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=True, pixels=True, entities=True,
                 declared_actions=True, scripts="gdscript"),
    run_episode="playtester.drive.godot:run_godot_runner_episode",
    declared="playtester.drive.godot:declared_actions",
    prefix="godot-runner", resolve="playtester.drive.spec:resolve_remote")
DOOM = Backend(
    "doom", ("doom",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=False, pixels=True, entities=True,
                 declared_actions=True),
    run_episode="playtester.drive.doom:run_doom_episode",
    declared="playtester.drive.doom:declared_actions",
    prefix="doom", resolve="playtester.drive.spec:resolve_doom")
