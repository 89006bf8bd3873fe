"""Backends: which engine runs a game, and what it can do (capability flags).

A backend is one registered `Backend`: the spec kinds it runs (``gym:`` ids are kind ``gym``; pygame games
are named by file or module), the function its episode process runs, what the worker host prepares once,
how a game with its own discrete actions declares them, and its `Capabilities`. Everything above the
driver asks a capability (``backend_for(spec).capabilities.snapshots``), never the engine's name, so a new
engine is one file with its episode function plus one `register_backend` line here.

The episode process speaks the worker's command protocol (`playtester.drive.episode.serve`): ``step``,
``act``, ``call``, ``snapshot``, ``end`` in, ``hello``, ``obs``, ``final``, ``reply``, ``coverage`` out.
Functions are named as ``"module:function"`` and imported where they run, so the parent of a Gymnasium
game never imports pygame and the worker host imports only the engine it runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playtester.drive.spec import GameSpec


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

    def call(self, name: str, *args: Any) -> Any:
        """Import and call one of the backend's functions (``run_episode``, ``prepare_host``, ...)."""
        target = getattr(self, name)
        if target is None:
            raise ValueError(f"backend {self.name!r} has no {name}")
        return load(target)(*args)


BACKENDS: dict[str, Backend] = {}


def register_backend(backend: Backend) -> None:
    """Make ``backend`` run its spec kinds.

    Raises:
        ValueError: another backend already runs one of them.
    """
    taken = [k for k in backend.kinds if k in BACKENDS and BACKENDS[k].name != backend.name]
    if taken:
        raise ValueError(f"spec kind {taken[0]!r} already runs on backend {BACKENDS[taken[0]].name!r}")
    for kind in backend.kinds:
        BACKENDS[kind] = backend


def backend_for(spec: GameSpec) -> Backend:
    """The backend that runs ``spec``."""
    try:
        return BACKENDS[spec.kind]
    except KeyError:
        from playtester.errors import GameSpecError

        raise GameSpecError(f"no backend runs {spec.kind!r} games ({spec.text}); known: "
                            f"{', '.join(sorted(BACKENDS))}") from None


def capabilities(spec: GameSpec) -> Capabilities:
    return backend_for(spec).capabilities


def load(target: str) -> Callable[..., Any]:
    """The function ``"module:function"``."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


register_backend(Backend(
    "pygame", ("module", "file"),
    Capabilities(python=True, snapshots=True, code_coverage=True, analysis=True, pixels=True, entities=True,
                 declared_actions=False),
    run_episode="playtester.drive.pygame_driver:run_episode",
    prepare_host="playtester.drive.pygame_driver:prepare_host",
    prepare_episode="playtester.drive.pygame_driver:prepare_episode"))
register_backend(Backend(
    "gym", ("gym",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=False, pixels=True, entities=True,
                 declared_actions=True),
    run_episode="playtester.drive.gym_driver:run_gym_episode",
    declared="playtester.drive.gym_driver:declared_actions"))
register_backend(Backend(
    "remote", ("remote",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=False, pixels=True, entities=True,
                 declared_actions=True),
    run_episode="playtester.drive.remote:run_remote_episode",
    declared="playtester.drive.remote:remote_declared"))
register_backend(Backend(
    "godot", ("godot",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=True, pixels=False, entities=True,
                 declared_actions=True, scripts="gdscript"),
    run_episode="playtester.drive.godot:run_godot_episode",
    declared="playtester.drive.godot:declared_actions"))
register_backend(Backend(
    "godot-runner", ("godot-runner",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=True, pixels=True, entities=True,
                 declared_actions=True, scripts="gdscript"),
    run_episode="playtester.drive.godot:run_godot_runner_episode",
    declared="playtester.drive.godot:declared_actions"))
register_backend(Backend(
    "doom", ("doom",),
    Capabilities(python=False, snapshots=False, code_coverage=False, analysis=False, pixels=True, entities=True,
                 declared_actions=True),
    run_episode="playtester.drive.doom:run_doom_episode",
    declared="playtester.drive.doom:declared_actions"))
