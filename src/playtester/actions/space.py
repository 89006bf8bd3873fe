"""Discrete action spaces: N actions, each turning into held inputs, each with a validity test.

An `ActionSpace` travels to the worker process with every episode, because validity tests and the
inputs an action performs may depend on the live game (analyzed spaces read game objects). In the
worker, `ActionSpace.mask(ctx)` says which actions are valid now and `ActionSpace.perform(i, ctx)` says
what to hold for the next step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from playtester.drive.context import ActionContext
from playtester.drive.inputs import InputFrame, frame_from_dict, frame_to_dict
from playtester.plugins import Registry

__all__ = ["Action", "ActionContext", "ActionMode", "ActionSpace", "filter_blacklist", "native_space", "register_loader",
           "space_from_dict", "space_identity", "space_to_dict"]

ActionMode = Literal["hold", "press", "release", "move", "native"]


@dataclass
class Action:
    """One discrete action.

    Attributes:
        name: readable name, unique in its space (``press LEFT``, ``jump``).
        inputs: the inputs this action holds, presses, or releases.
        mode: ``hold`` replaces what is held with ``inputs``; ``press`` adds ``inputs`` to what is held;
            ``release`` lets ``inputs`` go; ``move`` moves the mouse to grid cell ``cell`` (and presses
            ``inputs``' mouse buttons there, a click, when it has any);
            ``native`` passes ``inputs.native`` to an environment with its own discrete actions.
        hold_frames: hold the inputs only for the first N frames of the step, then let them go (a tap).
        when: validity expression over probe features (manual spaces); None means always valid.
        cell: (column, row, grid size) for ``move`` actions.
        description: what the action does, for people and for text matching.
    """

    name: str
    inputs: InputFrame = field(default_factory=InputFrame)
    mode: ActionMode = "hold"
    hold_frames: int | None = None
    when: str | None = None
    cell: tuple[int, int, int] | None = None
    description: str = ""

    def perform(self, ctx: ActionContext) -> InputFrame:
        """The inputs to hold for the next step, given what is held now."""
        prev = ctx.held
        if self.mode == "hold":
            pos = self.inputs.mouse_pos if self.inputs.mouse_pos is not None else prev.mouse_pos
            return replace(self.inputs, mouse_pos=pos)
        if self.mode == "press":
            return replace(prev.merged(self.inputs), wheel=self.inputs.wheel)
        if self.mode == "release":
            return replace(prev, keys=prev.keys - self.inputs.keys,
                           mouse_buttons=prev.mouse_buttons - self.inputs.mouse_buttons,
                           joy_buttons=prev.joy_buttons - self.inputs.joy_buttons, wheel=(0, 0))
        if self.mode == "move":
            assert self.cell is not None
            col, row, n = self.cell
            w, h = ctx.screen_size
            pos = (int((col + 0.5) * w / n), int((row + 0.5) * h / n))
            if self.inputs.mouse_buttons:  # a click there: the move and the buttons (a tap with ``hold_frames``)
                return replace(prev, mouse_pos=pos, mouse_buttons=self.inputs.mouse_buttons, wheel=(0, 0))
            return replace(prev, mouse_pos=pos, wheel=(0, 0))
        return self.inputs

    def describe(self) -> str:
        if self.mode == "move" and self.cell:
            return f"move mouse to cell ({self.cell[0]},{self.cell[1]}) of {self.cell[2]}x{self.cell[2]}"
        return f"{self.mode} {self.inputs.describe()}"


@dataclass
class ActionSpace:
    """N discrete actions of one kind (``blind``, ``manual``, ``native``, ``analyzed``)."""

    kind: str
    actions: list[Action]
    warnings: list[str] = field(default_factory=list)
    source: str | None = None
    _compiled: dict[int, Any] = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.actions)

    @property
    def names(self) -> list[str]:
        return [a.name for a in self.actions]

    def mask(self, ctx: ActionContext) -> np.ndarray:
        """Validity of each action in the current state, as ``np.int8`` of shape (N,)."""
        mask = np.ones(len(self.actions), dtype=np.int8)
        for i, action in enumerate(self.actions):
            if action.when is not None:
                pred = self._compiled.get(i)
                if pred is None:
                    from playtester.expr import compile_expr

                    pred = self._compiled[i] = compile_expr(action.when, f"action {action.name!r} when")
                mask[i] = pred(ctx.features)
        return mask

    def perform(self, index: int, ctx: ActionContext) -> tuple[InputFrame, int | None]:
        """The inputs to hold for action ``index`` and for how many frames (None: the whole step)."""
        action = self.actions[index]
        return action.perform(ctx), action.hold_frames

    def extra_dict(self) -> dict[str, Any]:
        """Fields of this kind of space beyond its actions, JSON-ready, for `space_to_dict` (each key with a
        loader registered by `register_loader`)."""
        return {}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_compiled"] = {}
        return state


def filter_blacklist(actions: list[Action], blacklist: frozenset[int], describe: str) -> tuple[list[Action], list[str]]:
    """Drop actions that would press a blacklisted key; say which were dropped."""
    kept, warnings = [], []
    for a in actions:
        if a.inputs.keys & blacklist and a.mode != "release":
            warnings.append(f"{describe}: action {a.name!r} presses a blacklisted key and was left out")
        elif a.mode == "release" and a.inputs.keys and a.inputs.keys <= blacklist:
            continue
        else:
            kept.append(a)
    return kept, warnings


def native_space(n: int, names: list[str] | None = None) -> ActionSpace:
    """The action space of an environment with its own ``Discrete(n)`` actions."""
    names = names or [f"action {i}" for i in range(n)]
    return ActionSpace("native", [Action(names[i], InputFrame(native=i), mode="native") for i in range(n)])


SPACE_SCHEMA = 1


# Spaces of a kind defined in a higher layer (the analysis) serialize their own extra fields
# (`ActionSpace.extra_dict`); a loader for them is an entry point of the group ``playtester.spaces`` named after
# the extra field (``analysis``, ``godot_analysis``), imported when a space that carries the field is loaded.
SPACES: Registry[Callable[[dict[str, Any], list[Action]], ActionSpace]] = Registry("spaces")


def register_loader(field_name: str, loader: Callable[[dict[str, Any], list[Action]], ActionSpace]) -> None:
    """Load serialized spaces that carry ``field_name`` with ``loader(data, actions)`` (`space_from_dict`), in
    code; an installed loader is an entry point of ``playtester.spaces``."""
    SPACES.add(field_name, loader)


def portable_source(source: str | None) -> str | None:
    """Where a space came from, as a trace stores it: a file of a bundled game as ``playtester/...`` (the same
    in every clone and install), any other path as given. Informational only: a space is matched by content
    (`space_identity`), never by this path."""
    if not source:
        return source
    import os

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../playtester
    path = os.path.abspath(source)
    if path.startswith(package + os.sep):
        return "playtester/" + os.path.relpath(path, package).replace(os.sep, "/")
    return source


def space_to_dict(space: ActionSpace) -> dict[str, Any]:
    """A JSON-ready form of an action space, so a trace replays with exactly the same actions."""
    extra = space.extra_dict()
    return {"schema": SPACE_SCHEMA, "kind": space.kind, "source": portable_source(space.source), **extra, "actions": [
        {"name": a.name, "inputs": frame_to_dict(a.inputs), "mode": a.mode, "hold_frames": a.hold_frames,
         "when": a.when, "cell": list(a.cell) if a.cell else None, "description": a.description}
        for a in space.actions]}


def space_identity(data: dict[str, Any]) -> str:
    """What an action space's numbers mean, as a hash of its content: each action's name, inputs, mode,
    hold and validity, and for an analyzed space each action's p_g and p_i. Not where it came from (its
    ``source`` path, the analysed files' paths): the same space in another clone of a project, or on
    another machine, has the same identity, so a trace recorded there replays here."""
    import hashlib
    import json

    content: dict[str, Any] = {"kind": data.get("kind"), "actions": data.get("actions", [])}
    analysis = data.get("analysis")
    if isinstance(analysis, dict):
        content["analysis"] = [{k: a.get(k) for k in ("p_g", "p_i")} for a in analysis.get("actions", [])]
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def space_from_dict(data: dict[str, Any]) -> ActionSpace:
    """The inverse of `space_to_dict`."""
    from playtester.errors import ConfigError

    if data.get("schema") != SPACE_SCHEMA:
        raise ConfigError(f"action space schema {data.get('schema')!r} is not supported (expected {SPACE_SCHEMA})")
    actions = [Action(a["name"], frame_from_dict(a["inputs"]), a["mode"], a["hold_frames"], a["when"],
                      tuple(a["cell"]) if a["cell"] else None, a.get("description", ""))
               for a in data["actions"]]
    for key in SPACES.names():
        if data.get(key):
            return SPACES.get(key)(data, actions)
    extra = sorted(k for k in data if k not in ("schema", "kind", "source", "actions") and data[k])
    if extra:  # a kind of space whose plugin is not installed
        raise ConfigError(f"action space {data.get('kind')!r} carries {', '.join(extra)}, and no loader for it is "
                          "installed: the package that made it adds one to the entry-point group playtester.spaces")
    return ActionSpace(data["kind"], actions, source=data.get("source"))
