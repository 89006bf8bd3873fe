"""Action-space analysis of Godot 3 projects (the action-space paper, 000_*.txt, done for GDScript).

The project's scripts are parsed with gdtoolkit (Godot 3 syntax); every input handler (``_input``,
``_unhandled_input``, ``_unhandled_key_input``, ``_process``, ``_physics_process``) that reads an InputMap
action is executed symbolically with z3. Calls are followed (`Executor.lift`, up to ``INLINE_DEPTH``): to the
script's own functions and those it inherits (``extends`` a project script), and to other scripts' when the
object is known (`Project`): a node path (``$Control``, ``get_node``) resolved through the scenes, a
``class_name`` / ``preload`` (``.new()``), an autoload. Each path through the callee is a path of the caller.

- action names: constant strings, or built from constants (``"jump" + SUFFIX``, ``"p%d" % n``, ``str(n)``,
  members set once to a constant and never assigned).

- inputs: ``in:A`` (action A held during the step) and ``was:A`` (held during the previous step):
  ``Input.is_action_pressed(A)`` is ``in:A``; ``Input.is_action_just_pressed(A)`` and
  ``event.is_action_pressed(A)`` are ``in:A and not was:A``; ``..._just_released`` / ``event.is_action_released``
  ``not in:A and was:A``; ``Input.get_action_strength(A)`` is 1 or 0; ``Input.get_axis(N, P)`` their difference,
  ``Input.get_vector`` a `Vec` of two (both Godot 3.4's: ``requires``). A read whose value flows into the path
  (not a branch's condition) splits the path by the inputs it reads, each part with its concrete value, so
  ``velocity = dir * SPEED`` is a distinct effect for each direction. ``Vector2`` / ``Vector3`` values are
  modelled (`Vec`: components, constants, arithmetic, ``normalized``, ``length``, ``limit_length``).
- pointer events: in an event handler, ``event is InputEventScreenTouch`` / ``InputEventMouseButton`` (with
  ``event.button_index == BUTTON_LEFT``) are a press or a release of the input ``tap:4``.
- Godot's default actions (``ui_left``...) are InputMap actions; those the blacklist leaves out of the played
  actions (``ui_cancel`` on Esc, ``toggle_fullscreen`` on F11) are never held.
- keys read directly (inputs ``key:NAME``, NAME as Godot names the key: ``KEY_SPACE`` is ``key:Space``):
  ``Input.is_key_pressed(KEY_X)`` is ``in:key:X``; in an event handler, ``event is InputEventKey``,
  ``event.scancode == KEY_X`` (or ``match event.scancode``), ``event.pressed`` / ``event.is_pressed()`` describe
  the event, and each path's condition is read over the events a step can bring: a press of each key compared
  (``in:key:X and not was:key:X``), its release (``not in:key:X and was:key:X``), or no key event of those
  keys; ``event.echo`` is false (playtester's inputs do not repeat).
- game state: a member variable (``state``, ``velocity.x``) or a query method of the node (``is_on_floor()``)
  not assigned before is a game variable ``g:SCRIPT:TERM``, which the add-on reads live (``watch``);
  anything else (another node's property, a call with arguments) is a free variable (over-approximated).
- a path's effect is what it leaves in the node's members, the calls it makes and the errors it hits
  (a missing key of a constant dictionary); paths with the same effect are one behaviour.

Actions are the feasible combinations of one behaviour per handler (a joint behaviour J); each has the sets of
InputMap actions that can produce it (z3: the path condition with those inputs is satisfiable). ``p_g`` is the
path condition with the inputs projected out (the disjunction over J's input sets), ``p_i`` the path condition.
Handlers whose conditions share no variable are decided apart; when the joint behaviours over all held sets would
number more than ``MAX_JOINT``, each such group's joint behaviours are actions of their own (the other groups'
behaviours left free; the action lists its ``handlers``) instead of their product.
At play time (`GodotAnalyzedSpace`, in the episode process) an action is valid when its ``p_g`` holds for the
live values of the watched game variables and the inputs held in the previous step (z3 only on a cache miss:
the values are few); performing it holds the first of its input sets whose path condition holds.
"""

from __future__ import annotations

import itertools
import math
import re
import sys
import time
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from playtester.actions.space import Action, ActionContext, ActionSpace
from playtester.analysis import Analysis
from playtester.drive.inputs import InputFrame

INPUT_READS = ("is_action_pressed", "is_action_just_pressed", "is_action_just_released", "is_action_released",
               "get_action_strength", "get_action_raw_strength", "is_action", "get_axis", "get_vector")
NUMERIC_READS = ("get_action_strength", "get_action_raw_strength", "get_axis", "get_vector")
CLICK = "tap:4"  # a screen touch or a left mouse button event: a tap at the screen's centre (the add-on's tap:K)
HANDLERS = ("_input", "_unhandled_input", "_unhandled_key_input", "_process", "_physics_process", "_integrate_forces")
MAX_PATHS = 2000  # paths per handler; more: the handler's space is partial (noted)
MAX_ENUM_ACTIONS = 8  # InputMap actions read; up to this many every subset is tried, beyond only pairs
INLINE_DEPTH = 3
MAX_JOINT = 20000  # joint behaviours (over the held sets); more: each independent group's behaviours are actions apart
# built-in properties of the node a script extends: assigning them is an effect, reading them a game variable
NODE_PROPERTIES = frozenset({"position", "global_position", "rotation", "rotation_degrees", "scale", "translation",
                             "visible", "modulate"})
QUERY = re.compile(r"^(is_|get_|has_|can_)[A-Za-z0-9_]*$")


def _gdtoolkit_parser() -> Any:
    """gdtoolkit 3.x's parser. gdtoolkit imports ``pkg_resources`` for its version only, and recent setuptools
    dropped it: a stand-in is put in ``sys.modules`` for that import and taken out again after it (left there,
    it would fool code that checks for the real one, such as pytest's ``monkeypatch.syspath_prepend``)."""
    shimmed = False
    try:
        import pkg_resources  # noqa: F401
    except ImportError:
        import importlib.metadata

        shim = types.ModuleType("pkg_resources")
        shim.get_distribution = lambda name: types.SimpleNamespace(version=importlib.metadata.version(name))  # type: ignore[attr-defined]
        sys.modules["pkg_resources"] = shim
        shimmed = True
    try:
        from gdtoolkit.parser import parser
    except ModuleNotFoundError as e:
        if e.name is None or e.name.split(".")[0] != "gdtoolkit":
            raise
        from playtester.analysis import AnalysisError
        from playtester.extras import missing

        raise AnalysisError(str(missing("godot", "the GDScript analysis of a godot: project", "gdtoolkit"))) from None
    finally:
        if shimmed:
            sys.modules.pop("pkg_resources", None)
    return parser


# ------------------------------------------------------------------------------------ values
@dataclass(frozen=True)
class Opaque:
    """A value the analysis does not model (a vector, a node, a call's result): its text, and the term the
    add-on can read live on the script's node (``get:velocity:x``, ``call:is_on_floor``), if any."""

    text: str
    read: str | None = None


class Unsupported(Exception):
    pass


@dataclass(frozen=True)
class KeyConst(Opaque):
    """A key constant (``KEY_SPACE``) and the key's Godot name (``Space``)."""

    key: str = ""


@dataclass(frozen=True)
class EventScancode(Opaque):
    """``event.scancode`` of the handler's event."""


@dataclass(frozen=True)
class EventButton(Opaque):
    """``event.button_index`` of the handler's event."""


@dataclass(frozen=True)
class ScriptRef(Opaque):
    """A script of the project (``InputHandler``, ``preload("res://x.gd")``) or an object running it (a node of
    the scene, ``$Control``; an instance, ``InputHandler.new()``): calls to its functions are followed.
    ``key``: where an object's member values are kept in the caller's store (``key.member``)."""

    script: str = ""
    instance: bool = False
    node: bool = False  # a node of the scene tree: its members can be read live
    key: str = ""


@dataclass(frozen=True)
class Patched(Opaque):
    """An opaque value some of whose components the path assigned (``v = f()`` then ``v.x = 1``):
    ``root`` is the opaque value's text."""

    root: str = ""


@dataclass(frozen=True, eq=False)
class Vec(Opaque):
    """A ``Vector2`` / ``Vector3`` whose components are values (numbers, terms over inputs, opaque values)."""

    kind: str = "Vector2"
    parts: tuple[Any, ...] = ()


VEC_CONSTS = {
    "Vector2": {"ZERO": (0, 0), "ONE": (1, 1), "LEFT": (-1, 0), "RIGHT": (1, 0), "UP": (0, -1), "DOWN": (0, 1)},
    "Vector3": {"ZERO": (0, 0, 0), "ONE": (1, 1, 1), "LEFT": (-1, 0, 0), "RIGHT": (1, 0, 0), "UP": (0, 1, 0),
                "DOWN": (0, -1, 0), "FORWARD": (0, 0, -1), "BACK": (0, 0, 1)},
}
AXES = "xyz"


def _vec(kind: str, parts: Any) -> Vec:
    parts = tuple(parts)
    return Vec(f"{kind}({', '.join(_show(p) for p in parts)})", None, kind, parts)


def key_name(const: str) -> str:
    """The input name of a ``KEY_*`` constant: Godot's name of the key (``KEY_SPACE`` -> ``Space``, ``KEY_A`` ->
    ``A``, ``KEY_KP_ENTER`` -> ``Kp Enter``), which the add-on turns back into the key
    (``OS.find_scancode_from_string`` ignores case)."""
    return const[4:].replace("_", " ").title()


def _key_const(name: str) -> bool:
    return name.startswith("KEY_") and len(name) > 4 and name[4:].replace("_", "").isalnum()


@dataclass
class State:
    cond: list[Any]
    store: dict[str, Any]
    effects: list[str]
    returned: bool = False


def _z3() -> Any:
    import z3

    return z3


# ------------------------------------------------------------------------------------ the project
_SECTION = re.compile(r"\n(?=\[)")
_ATTR = re.compile(r'(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|ExtResource\(\s*\d+\s*\)|[^\s\]]+)')
_EXT = re.compile(r"ExtResource\(\s*(\d+)\s*\)")
_PROP = re.compile(r"^([A-Za-z_][\w/]*)\s*=", re.M)
_PROP_VALUE = re.compile(r"^([A-Za-z_][\w/]*)\s*=(.*)$", re.M)


class Project:
    """What the analysis needs to follow calls across a project's scripts: their parse trees, ``class_name``s,
    autoloads and, from its scenes (.tscn), where each script runs (scene, node path) and which script a node path
    names, and the properties the scenes set on each script's nodes (exported values)."""

    def __init__(self, root: Path, trees: dict[str, Any]) -> None:
        self.root = root
        self.trees = trees  # res path -> parse tree
        self.classes: dict[str, str] = {}
        self.bases: dict[str, str] = {}  # script -> the project script it extends
        for res, tree in trees.items():
            for st in tree.children:
                if getattr(st, "data", None) == "classname_stmt":
                    self.classes[str(st.children[0])] = res
        for res, tree in trees.items():
            for st in tree.children:
                if getattr(st, "data", None) == "extends_stmt" and st.children:
                    base = self.script_named(_text(st.children[0]))
                    if base and base != res:
                        self.bases[res] = base
        self.scenes: dict[str, dict[str, str | None]] = {}  # scene -> {node path ("" the root): script}
        self.props: dict[str, dict[str, set[str]]] = {}  # script -> property -> the values scenes set (text)
        self._raw: dict[str, Any] = {}
        for path in sorted(root.rglob("*.tscn")):
            if {".import", ".git", "addons"} & set(path.relative_to(root).parts):
                continue
            try:
                self._raw["res://" + path.relative_to(root).as_posix()] = _read_scene(path.read_text(
                    encoding="utf-8", errors="replace"))
            except OSError:
                continue
        for scene in self._raw:
            self.scenes[scene] = self._flatten(scene, 0)
        self.placements: dict[str, list[tuple[str, str]]] = {}
        for scene, nodes in self.scenes.items():
            for node, script in nodes.items():
                if script:
                    self.placements.setdefault(script, []).append((scene, node))
        self.autoloads: dict[str, str] = {}
        self.inputmap: set[str] = set()  # the actions project.godot's [input] declares
        try:
            text = (root / "project.godot").read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        section = None
        for line in text.splitlines():
            m = re.match(r"^\[([^\]]+)\]\s*$", line)
            if m:
                section = m.group(1)
                continue
            if section == "input":
                m = re.match(r'^"?([^"=\s]+)"?\s*=', line)
                if m:
                    self.inputmap.add(m.group(1))
            a = re.match(r'^(\w+)\s*=\s*"\*?(res://[^"]+)"', line) if section == "autoload" else None
            if a:
                target = a.group(2)
                script = target if target.endswith(".gd") else (self.scenes.get(target) or {}).get("")
                if script:
                    self.autoloads[a.group(1)] = script

    def script_named(self, text: str) -> str | None:
        """The project script an ``extends`` / ``preload`` names: a quoted res:// path or a class_name."""
        text = text.strip()
        if text[:1] in "\"'":
            path = text.strip("\"'")
            return path if path in self.trees else None
        return self.classes.get(text)

    def _flatten(self, scene: str, depth: int) -> dict[str, str | None]:
        raw = self._raw.get(scene)
        if raw is None or depth > 4:
            return {}
        ext, nodes = raw
        out: dict[str, str | None] = {}
        for name, parent, instance, script, props in nodes:
            path = name if parent == "." else (f"{parent}/{name}" if parent is not None else "")
            if parent is None:
                path = ""
            sub = ext.get(instance) if instance else None
            if sub is not None and sub.endswith(".tscn"):
                inner = self._flatten(sub, depth + 1)
                for k, v in inner.items():
                    out[f"{path}/{k}".strip("/") if k else path] = v
            if script is not None:
                out[path] = ext.get(script)
            target = out.get(path)
            if target:
                mine = self.props.setdefault(target, {})
                for k, v in props.items():
                    mine.setdefault(k, set()).add(v)
        return out

    def node_names(self, script: str) -> list[str]:
        """The names of the nodes the scenes put ``script`` on (a scene's root by its own name unless another scene
        instances that scene, where the instance's name is the one it runs under)."""
        instanced = {ext.get(inst) for ext, nodes in self._raw.values() for _, _, inst, _, _ in nodes if inst}
        out: list[str] = []
        for scene, node in self.placements.get(script, []):
            if node:
                out.append(node.split("/")[-1])
            elif scene not in instanced:
                raw = self._raw.get(scene)
                if raw and raw[1]:
                    out.append(raw[1][0][0])
        return list(dict.fromkeys(out))

    def node_script(self, script: str, rel: str) -> str | None:
        """The script of the node at ``rel`` (a node path, relative or /root/...) from the nodes running
        ``script``; None when no scene says, or the scenes disagree."""
        found: set[str] = set()
        if rel.startswith("/root/"):
            parts = rel[len("/root/"):].split("/")
            if len(parts) == 1 and parts[0] in self.autoloads:
                return self.autoloads[parts[0]]
            for scene, nodes in self.scenes.items():
                raw = self._raw.get(scene)
                if raw and raw[1] and raw[1][0][0] == parts[0]:
                    got = nodes.get("/".join(parts[1:]))
                    if got:
                        found.add(got)
            return found.pop() if len(found) == 1 else None
        for scene, node in self.placements.get(script, []):
            parts = [p for p in node.split("/") if p]
            for p in rel.split("/"):
                if p == "..":
                    if not parts:
                        break
                    parts.pop()
                elif p not in ("", "."):
                    parts.append(p)
            else:
                got = self.scenes[scene].get("/".join(parts))
                if got:
                    found.add(got)
        return found.pop() if len(found) == 1 else None


def _read_scene(text: str) -> tuple[dict[str, str], list[tuple[str, str | None, str | None, str | None,
                                                              dict[str, str]]]]:
    """A .tscn's external resources (id -> res path) and nodes (name, parent, instance id, script id, the
    properties it sets)."""
    ext: dict[str, str] = {}
    nodes = []
    for sec in _SECTION.split(text):
        if sec.startswith("[ext_resource"):
            head = sec.split("]")[0]
            attrs = {k: v.strip('"') for k, v in _ATTR.findall(head)}
            if "id" in attrs and "path" in attrs:
                ext[attrs["id"]] = attrs["path"]
        elif sec.startswith("[node"):
            m = _PROP.search(sec)
            head, body = (sec[:m.start()], sec[m.start():]) if m else (sec, "")
            attrs = {k: v for k, v in _ATTR.findall(head)}
            inst = _EXT.match(attrs.get("instance", ""))
            script = re.search(r"^script\s*=\s*ExtResource\(\s*(\d+)\s*\)", body, re.M)
            parent = attrs["parent"].strip('"') if "parent" in attrs else None
            nodes.append((attrs.get("name", "").strip('"'), parent, inst.group(1) if inst else None,
                          script.group(1) if script else None,
                          {k: v.strip() for k, v in _PROP_VALUE.findall(body) if k != "script"}))
    return ext, nodes


class Executor:
    """Symbolic execution of one script's handlers (and of the functions they call, in this script or others)."""

    def __init__(self, script: str, tree: Any, actions: list[str], consts: dict[str, Any],
                 project: Project | None = None, parent: Executor | None = None, node: bool = True) -> None:
        from playtester.drive.godot import GODOT_UI_ACTIONS

        self.z3 = _z3()
        self.script = script
        self.project = project
        self.root: Executor = parent.root if parent is not None else self
        self.node = node  # the script runs on a node of the scene (its members are read live), not a Reference
        self.funcs: dict[str, Any] = {}
        self.own_funcs: set[str] = set()
        self.members: set[str] = set(NODE_PROPERTIES)
        self.member_init: dict[str, Any] = {}  # member -> its initial value's expression
        self.member_consts: dict[str, Any] = {}  # members set once, to a constant, never assigned: folded in names
        self.consts = consts
        self.actions = set(actions)
        self.default_actions = set(GODOT_UI_ACTIONS)  # Godot's default InputMap
        # the InputMap's actions playtester does not play with (the blacklist's: ui_cancel on Esc, toggle_fullscreen
        # on F11): never held
        inputmap = self.default_actions | (project.inputmap if project is not None else set())
        self.left_out = inputmap - self.actions
        self.event: str | None = None
        if parent is None:
            self.used_actions: set[str] = set()
            self.game_vars: dict[str, dict[str, Any]] = {}  # z3 name -> {"script", "read", "text", "sort"}
            self.unsupported: list[tuple[str, int, str]] = []  # (file, line, what was not analysed)
            self.notes: list[str] = []
            self.requires: list[str] = []  # what needs a newer Godot than 3.2 (get_axis, get_vector: 3.4)
            self.event_keys: set[str] = set()  # keys the event handler compares event.scancode with
            self.solver = self.z3.Solver()
            self.solver.set("timeout", 2000)
            self.others: dict[tuple[str, bool], Executor] = {}  # other scripts' executors (calls followed)
            self.flags = {"reads_input": False, "event_vars": False, "pointer": False, "truncated": False,
                          "touch": False, "mouse": False}
        else:
            r = parent.root
            self.used_actions, self.game_vars, self.unsupported = r.used_actions, r.game_vars, r.unsupported
            self.notes, self.requires, self.event_keys, self.solver = r.notes, r.requires, r.event_keys, r.solver
            self.others, self.flags = r.others, r.flags
        self.paths = 0
        self.line = 0  # the statement being executed (for what is reported as not analysed)
        self.fold: dict[str, Any] | None = None  # members read as these constants (an action's name being built)
        self.node_envs: list[tuple[str, dict[str, Any]]] = []  # per node of the script: its members set in _ready
        self.pinned: dict[str, Any] | None = None  # this run's node: those members' values (else: any node's)
        self.inlined: set[str] = set()
        self.held_conds: list[Any] = []
        self._assigned: set[str] = set()
        self._exported: set[str] = set()
        self._collect(tree, 0)

    # flags shared by the executors of one handler (its own script's and those of the scripts it calls)
    reads_input = property(lambda self: self.flags["reads_input"],
                           lambda self, v: self.flags.__setitem__("reads_input", v))
    event_vars = property(lambda self: self.flags["event_vars"],  # the handler read its event as a key/pointer
                          lambda self, v: self.flags.__setitem__("event_vars", v))  # event (ev:* to eliminate)
    pointer = property(lambda self: self.flags["pointer"],  # ... as a touch or mouse button event
                       lambda self, v: self.flags.__setitem__("pointer", v))
    truncated = property(lambda self: self.flags["truncated"],
                         lambda self, v: self.flags.__setitem__("truncated", v))

    def other(self, script: str, node: bool) -> Executor | None:
        """The executor of another script of the project (calls to it are followed), or None."""
        key = (script, node)
        if key not in self.others:
            tree = self.project.trees.get(script) if self.project is not None else None
            self.others[key] = Executor(script, tree, sorted(self.actions), {}, self.project, self, node) \
                if tree is not None else None  # type: ignore[assignment]
        return self.others[key]

    # ---- the script's top level
    def _collect(self, tree: Any, level: int) -> None:
        """Functions, members, constants and enums of the script, those of the project script it extends first."""
        base = self.project.bases.get(self.script) if self.project is not None and level == 0 else None
        if base:
            self._collect_base(base, 1)
        self._assigned |= {_text(a.children[0]).removeprefix("self.").split(".")[0].split("[")[0]
                           for a in tree.iter_subtrees() if a.data == "assnmnt_expr"}
        for st in tree.children:
            kind = getattr(st, "data", None)
            if kind == "func_def":
                name = str(st.children[0].children[0])
                self.funcs[name] = st
                if level == 0:
                    self.own_funcs.add(name)
            elif kind in ("class_var_stmt", "export_stmt", "onready_stmt", "puppet_var_stmt"):
                for v in st.iter_subtrees():
                    if v.data in ("var_empty", "var_assigned", "var_typed", "var_typed_assgnd", "var_inf"):
                        name = str(v.children[0])
                        self.members.add(name)
                        if kind == "export_stmt":
                            self._exported.add(name)
                        if v.data in ("var_assigned", "var_typed_assgnd", "var_inf"):
                            self.member_init[name] = v.children[-1]
                        break
            elif kind == "const_stmt":
                name = str(st.children[1])
                try:
                    self.consts[name] = self.const_value(st.children[-1])
                except Unsupported:
                    ref = self.script_of(st.children[-1])
                    self.consts[name] = ScriptRef(name, None, ref) if ref else Opaque(name)
            elif kind == "enum_def":
                body = st.children[0]
                prefix = str(body.children[0]) + "." if body.data == "enum_named" and \
                    not hasattr(body.children[0], "data") else ""
                n = 0
                for el in body.children:
                    if getattr(el, "data", None) == "enum_element":
                        if len(el.children) > 1:
                            try:
                                n = int(self.const_value(el.children[1]))
                            except (Unsupported, TypeError, ValueError):
                                pass
                        self.consts[prefix + str(el.children[0])] = n
                        n += 1
        # a member set once to a constant and never assigned (not by the script, not by a scene for an exported
        # one) is that constant where an action's name is built from it ("jump" + suffix)
        if level:
            return
        set_by_scenes = self.project.props.get(self.script, {}) if self.project is not None else {}
        for name, init in self.member_init.items():
            if name in self._assigned:
                continue
            try:
                v = self.const_value(init)
            except Unsupported:
                continue
            if not isinstance(v, (str, int, float, bool)):
                continue
            values = [v]
            if name in self._exported and name in set_by_scenes:  # each node's value, from the scenes
                try:
                    values += [_literal(x) for x in sorted(set_by_scenes[name])]
                except (ValueError, SyntaxError):
                    continue
            values = list(dict.fromkeys(values))
            if all(isinstance(x, (str, int, float, bool)) for x in values):
                self.member_consts[name] = values  # several: the script's nodes differ (player 1, player 2)
        self._fold_ready()

    def _fold_ready(self) -> None:
        """Members that ``_ready`` sets once, in its straight-line start, to a value built from constants and the
        node's own name (``_up = name.to_lower() + "_move_up"``), and that nothing else in the script assigns: one
        value per node the scenes put the script on (each node's name, read from the scene files), folded where an
        action's name is built from them."""
        if self.project is None or not self.node or "_ready" not in self.own_funcs:
            return
        nodes = self.project.node_names(self.script)
        if not nodes:
            return
        own = self.project.trees.get(self.script)
        if own is None:
            return
        counts: dict[str, int] = {}
        for a in own.iter_subtrees():
            if a.data == "assnmnt_expr":
                m = _text(a.children[0]).removeprefix("self.").split(".")[0].split("[")[0]
                counts[m] = counts.get(m, 0) + 1
        found: dict[str, list[Any]] = {}
        bad: set[str] = set()
        per_node: list[tuple[str, dict[str, Any]]] = []
        for node_name in nodes:
            local: dict[str, Any] = {}
            per_node.append((node_name, {}))
            for st in self.funcs["_ready"].children[1:]:
                kind = getattr(st, "data", None)
                if kind == "func_var_stmt":
                    v = st.children[0]
                    if getattr(v, "data", None) in ("var_assigned", "var_typed_assgnd", "var_inf"):
                        try:
                            local[str(v.children[0])] = self._fold_value(v.children[-1], local, node_name)
                        except Unsupported:
                            local[str(v.children[0])] = _MISSING
                    continue
                if kind != "expr_stmt":
                    break  # a branch or a loop: what follows is not straight-line
                a = _unwrap(st.children[0])
                if getattr(a, "data", None) != "assnmnt_expr" or len(a.children) != 3 or str(a.children[1]) != "=":
                    continue
                m = _text(a.children[0]).removeprefix("self.")
                if m not in self.members or counts.get(m) != 1 or m in self.member_consts:
                    continue
                try:
                    v = self._fold_value(a.children[2], local, node_name)
                except Unsupported:
                    bad.add(m)
                    continue
                found.setdefault(m, []).append(v)
                per_node[-1][1][m] = v
        folded = {m for m, values in found.items() if m not in bad and len(values) == len(nodes) and
                  all(isinstance(x, (str, int, float, bool)) for x in values)}
        for m in folded:
            self.member_consts[m] = list(dict.fromkeys(found[m]))
        envs = [(n, {m: v for m, v in env.items() if m in folded}) for n, env in per_node]
        if folded and len({tuple(sorted(e.items())) for _, e in envs}) > 1:
            self.node_envs = envs  # the nodes differ: each node's handlers are analysed on their own

    def _fold_value(self, node: Any, local: dict[str, Any], node_name: str) -> Any:
        """A value of ``_ready``'s straight-line start: constants, its locals set so far, the node's ``name``,
        ``+`` and ``str()``, and a string's ``to_lower()`` / ``to_upper()`` / ``strip_edges()``."""
        from lark import Token

        if isinstance(node, Token) and node.type == "NAME":
            n = str(node)
            if n in local:
                if local[n] is _MISSING:
                    raise Unsupported(n)
                return local[n]
            if n == "name":
                return node_name
            return self.const_value(node)
        d = getattr(node, "data", None)
        if d in ("expr", "par_expr") and len(node.children) == 1:
            return self._fold_value(node.children[0], local, node_name)
        if d == "arith_expr" and all(str(c) == "+" for c in node.children[1::2]):
            parts = [self._fold_value(c, local, node_name) for c in node.children[0::2]]
            if all(isinstance(x, str) for x in parts):
                return "".join(parts)
            if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in parts):
                return sum(parts)
            raise Unsupported("+")
        if d == "getattr_call" and not _args(node):
            g = node.children[0]
            if getattr(g, "data", None) == "getattr" and len(g.children) == 3:
                base = self._fold_value(g.children[0], local, node_name)
                op = {"to_lower": str.lower, "to_upper": str.upper, "strip_edges": str.strip}.get(str(g.children[2]))
                if isinstance(base, str) and op is not None:
                    return op(base)
            raise Unsupported(_text(node))
        if d == "standalone_call" and str(node.children[0]) == "str" and len(_args(node)) == 1:
            v = self._fold_value(_args(node)[0], local, node_name)
            return _gd_str(v) if isinstance(v, bool) else str(v)
        return self.const_value(node)

    def _collect_base(self, base: str, level: int) -> None:
        assert self.project is not None
        up = self.project.bases.get(base)
        if up and up in self.project.trees and level < 4:
            self._collect_base(up, level + 1)
        saved, self.script = self.script, base
        try:
            self._collect(self.project.trees[base], level)
        finally:
            self.script = saved

    def script_of(self, node: Any) -> str | None:
        """The project script ``preload("res://x.gd")`` / ``load(...)`` names."""
        node = _unwrap(node)
        if self.project is None or getattr(node, "data", None) != "standalone_call" or \
                str(node.children[0]) not in ("preload", "load"):
            return None
        args = _args(node)
        if len(args) == 1 and getattr(_unwrap(args[0]), "data", None) == "string":
            path = _string(_unwrap(args[0]))
            return path if path in self.project.trees else None
        return None

    def const_value(self, node: Any) -> Any:
        """A constant expression's Python value (numbers, strings, dicts, arrays)."""
        from lark import Token

        if isinstance(node, Token):
            if node.type == "NUMBER":
                return float(node) if any(c in node for c in ".eE") else int(node)
            if node.type == "NAME":
                if str(node) in ("true", "false"):
                    return str(node) == "true"
                if str(node) in self.consts:
                    return self.consts[str(node)]
            raise Unsupported(str(node))
        d = node.data
        if d in ("expr", "par_expr") and len(node.children) == 1:
            return self.const_value(node.children[0])
        if d == "string":
            return _string(node)
        if d == "dict":
            out = {}
            for kv in node.children:
                if getattr(kv, "data", None) != "kv_pair":
                    continue
                el = kv.children[0]
                if el.data == "c_dict_element":
                    out[self.const_value(el.children[0])] = _Const(el.children[1], self)
                else:
                    out[str(el.children[0])] = _Const(el.children[1], self)
            return out
        raise Unsupported(d)

    # ---- running
    def run(self, name: str) -> list[State]:
        fn = self.funcs[name]
        params = _params(fn)
        store: dict[str, Any] = {}
        for p in params:
            store[p] = Opaque(p)  # the event of _input; delta of _process
        self.event = params[0] if name in ("_input", "_unhandled_input", "_unhandled_key_input") and params else None
        states = self.block(fn.children[1:], [State([], store, [])], 0)
        return states

    def block(self, stmts: list[Any], states: list[State], depth: int) -> list[State]:
        for st in stmts:
            live = [s for s in states if not s.returned]
            done = [s for s in states if s.returned]
            if not live:
                return states
            nxt: list[State] = []
            for s in live:
                nxt.extend(self.stmt(st, s, depth))
            states = done + nxt
            if len(states) > MAX_PATHS:
                self.truncated = True
                states = states[:MAX_PATHS]
        return states

    def fork(self, s: State, cond: Any) -> tuple[State | None, State | None]:
        z3 = self.z3
        c = z3.simplify(cond)
        outs: list[State | None] = []
        for branch in (c, z3.simplify(z3.Not(c))):
            if z3.is_false(branch):
                outs.append(None)
                continue
            if not z3.is_true(branch):
                self.solver.push()
                self.solver.add(*s.cond, branch)
                ok = self.solver.check() != z3.unsat
                self.solver.pop()
                if not ok:
                    outs.append(None)
                    continue
            outs.append(State(s.cond + ([] if z3.is_true(branch) else [branch]), dict(s.store), list(s.effects)))
        return outs[0], outs[1]

    def stmt(self, st: Any, s: State, depth: int) -> list[State]:
        out = self._stmt(st, s, depth)
        for o in out:  # the values of the calls the statement made (`lift`) are the statement's alone
            for k in [k for k in o.store if k.startswith("@call:")]:
                del o.store[k]
        return out

    def _stmt(self, st: Any, s: State, depth: int) -> list[State]:
        d = getattr(st, "data", None)
        self.line = _line(st) or self.line
        try:
            if d == "if_stmt":
                return self.if_stmt(st.children, s, depth)
            if d == "expr_stmt":
                return [o for s2 in self.lift(st.children[0], [s], depth)
                        for o in self.expr_stmt(st.children[0], s2)]
            if d == "func_var_stmt":
                v = st.children[0]
                name = str(v.children[0])
                if v.data not in ("var_assigned", "var_typed_assgnd", "var_inf"):
                    s.store[name] = None
                    return [s]
                out = self.lift(v.children[-1], [s], depth)
                for s2 in out:
                    s2.store[name] = self.expr(v.children[-1], s2)
                return out
            if d == "return_stmt":
                out = self.lift(st.children[0], [s], depth) if st.children else [s]
                for s2 in out:
                    if st.children:
                        s2.store["@return"] = self.expr(st.children[0], s2)
                    s2.returned = True
                return out
            if d in ("pass_stmt", "break_stmt", "continue_stmt"):
                return [s]
            if d in ("while_stmt", "for_stmt"):
                # one pass of the body, under a free condition (loops rarely read inputs per iteration)
                if d == "for_stmt":
                    s.store[str(st.children[0])] = Opaque(str(st.children[0]))
                cond = self.z3.Bool(f"g:{self.script}:loop@{_line(st)}")
                a, b = self.fork(s, cond)
                out = self.block(st.children[1:] if d == "while_stmt" else st.children[2:], [a] if a else [], depth)
                return out + ([b] if b else [])
            if d == "match_stmt":
                return [o for s2 in self.lift(st.children[0], [s], depth) for o in self.match_stmt(st, s2, depth)]
        except Unsupported as e:
            self.unsupported.append((self.script, _line(st), str(e)))
            return [s]
        self.unsupported.append((self.script, _line(st), f"statement {d}"))
        return [s]

    def if_stmt(self, branches: list[Any], s: State, depth: int) -> list[State]:
        out: list[State] = []
        rests: list[State] = [s]
        for br in branches:
            if not rests:
                break
            if br.data == "else_branch":
                for r in rests:
                    out.extend(self.block(br.children, [r], depth))
                rests = []
                break
            nxt: list[State] = []
            for r in self.lift(br.children[0], rests, depth, cond=True):
                cond = self.as_bool(self.expr(br.children[0], r))
                yes, no = self.fork(r, cond)
                if yes is not None:
                    out.extend(self.block(br.children[1:], [yes], depth))
                if no is not None:
                    nxt.append(no)
            rests = nxt
        return out + rests

    def match_stmt(self, st: Any, s: State, depth: int) -> list[State]:
        subject = self.expr(st.children[0], s)
        out: list[State] = []
        rest: State | None = s
        for br in st.children[1:]:
            if rest is None:
                break
            pat = br.children[0]
            text = _text(pat)
            if text in ("_",) or text.startswith("var "):
                out.extend(self.block(br.children[1:], [rest], depth))
                rest = None
                break
            alts = []
            leaves = [str(t) for t in pat.scan_values(lambda v: True)] if hasattr(pat, "scan_values") else [text]
            pats = leaves if leaves and all(_key_const(x) for x in leaves) else text.split(",")
            for p in pats:
                p = p.strip()
                if _key_const(p) and isinstance(subject, EventScancode):
                    alts.append(self.eq(subject, KeyConst(p, None, key_name(p))))
                    continue
                try:
                    val = self._py_to_z3(self.consts[p] if p in self.consts else _literal(p))
                except (Unsupported, KeyError, ValueError):
                    raise Unsupported(f"match pattern {p}") from None
                alts.append(self.eq(subject, val))
            yes, rest = self.fork(rest, self.z3.Or(*alts))
            if yes is not None:
                out.extend(self.block(br.children[1:], [yes], depth))
        if rest is not None:
            out.append(rest)
        return out

    def expr_stmt(self, e: Any, s: State) -> list[State]:
        e = _unwrap(e)
        if getattr(e, "data", None) == "assnmnt_expr":
            target, op, value = e.children[0], str(e.children[1]), e.children[2]
            key = _text(target).removeprefix("self.")
            v = self.expr(value, s)
            if op != "=":
                old = self.expr(target, s)
                v = self.binop(op[:-1], old, v)
            if getattr(target, "data", None) == "subscr_expr":
                s.effects.append(f"set {key} = {_show(v)}")
                return [s]
            base, _, attr = key.rpartition(".")
            if base and attr in AXES and isinstance(s.store.get(base), Vec) and \
                    AXES.index(attr) < len(s.store[base].parts):  # a component of a vector the path built
                vec = s.store[base]
                s.store[base] = _vec(vec.kind, [v if i == AXES.index(attr) else p for i, p in enumerate(vec.parts)])
                return [s]
            s.store[key] = v
            for k in [k for k in s.store if k.startswith(key + ".")]:
                del s.store[k]
            old = s.store.get(base) if base else None
            if isinstance(old, Opaque) and not isinstance(old, Vec):  # a component of an opaque value the path
                root = old.root if isinstance(old, Patched) else old.text  # holds: the value shows it
                shown = ", ".join(f"{k[len(base) + 1:]}={_show(s.store[k])}" for k in sorted(s.store)
                                  if k.startswith(base + ".") and k.count(".") == base.count(".") + 1)
                s.store[base] = Patched(f"{root}{{{shown}}}", None, root)
            return [s]
        if getattr(e, "data", None) in ("standalone_call", "getattr_call") and f"@call:{id(e)}" in s.store:
            return [s]  # a call followed into the function called (or an input read): its effects are the path's
        v = self.expr(e, s)  # a call for its effect
        s.effects.append(f"call {_show(v)}")
        return [s]

    # ---- calls followed
    def lift(self, node: Any, states: list[State], depth: int, cond: bool = False) -> list[State]:
        """Execute the calls in expression ``node`` that run code of the project (functions of this script or of
        other scripts, `follow`) or read inputs whose values flow into the path's effects (`read_input`), in
        evaluation order, before the expression: each state's results are kept under ``@call:ID`` for `expr`.
        ``cond``: ``node`` is a condition (an input read whose truth value decides a branch is not split here: the
        branch splits on it)."""
        if not hasattr(node, "data") or not states:
            return states
        d = node.data
        inner = cond and d in ("expr", "par_expr", "and_test", "or_test", "not_test")
        for c in node.children:
            if hasattr(c, "data"):
                states = self.lift(c, states, depth, inner)
        if d not in ("standalone_call", "getattr_call"):
            return states
        out: list[State] = []
        for s in states:
            out.extend(self.lift_call(node, s, depth, cond))
        return out

    def lift_call(self, node: Any, s: State, depth: int, cond: bool) -> list[State]:
        key = f"@call:{id(node)}"
        if node.data == "standalone_call":
            name = str(node.children[0])
            if name in self.funcs and depth < INLINE_DEPTH:
                return self.follow(self, None, name, _args(node), s, depth, key)
            return [s]
        g = node.children[0]
        if getattr(g, "data", None) != "getattr" or len(g.children) < 3:
            return [s]
        method = str(g.children[-1])
        base = g.children[:-2]
        if len(base) != 1:
            return [s]
        btext = _text(base[0])
        if btext == "Input" or (self.event is not None and btext == self.event):
            if method in INPUT_READS and (method in NUMERIC_READS or not cond):
                return self.read_input(node, s, key)
            return [s]
        if btext == "self" and method in self.funcs and depth < INLINE_DEPTH:
            return self.follow(self, None, method, _args(node), s, depth, key)
        if depth >= INLINE_DEPTH:
            return [s]
        ref = self.expr(base[0], s)
        if isinstance(ref, ScriptRef) and method not in ("new", "call", "call_deferred", "connect"):
            target, obj = (self, None) if not ref.instance and ref.script == self.script else \
                (self.other(ref.script, ref.node), ref)
            if target is not None and method in target.funcs:
                return self.follow(target, obj, method, _args(node), s, depth, key)
        return [s]

    def follow(self, target: Executor, ref: ScriptRef | None, name: str, arg_nodes: list[Any], s: State,
               depth: int, key: str) -> list[State]:
        """Execute function ``name`` of ``target`` (this script, ``ref`` None: on this object; else on the object
        ``ref``) as a call from state ``s``: one state per path through it, its return value under ``key``.
        The callee sees the members of its object (this object's from ``s``; another's kept in ``s`` under
        ``ref.key.``), its parameters bound to the arguments; its locals are its own."""
        fn = target.funcs[name]
        params = _params(fn)
        args = [self.expr(a, s) for a in arg_nodes]
        prefix = f"{ref.key}." if ref is not None and ref.key else None
        if ref is None:
            inner = {k: v for k, v in s.store.items() if self._shared(k)}
        elif prefix is not None:
            inner = {k[len(prefix):]: v for k, v in s.store.items() if k.startswith(prefix)}
        else:
            inner = {}
        event = None
        for i, p in enumerate(params):
            inner[p] = args[i] if i < len(args) else Opaque(p)
            if i < len(args) and self.event is not None and type(args[i]) is Opaque and args[i].text == self.event:
                event = p  # the handler's event, passed on
        saved_event, saved_line = target.event, target.line
        target.event = event
        try:
            outs = target.block(fn.children[1:], [State(list(s.cond), inner, list(s.effects))], depth + 1)
        finally:
            target.event, target.line = saved_event, saved_line
        result = []
        for o in outs:
            ret = o.store.pop("@return", Opaque("null"))
            if ref is None:
                store = {k: v for k, v in s.store.items() if not self._shared(k)}
                store.update((k, v) for k, v in o.store.items() if self._shared(k))
            else:
                store = {k: v for k, v in s.store.items() if prefix is None or not k.startswith(prefix)}
                if prefix is not None:
                    store.update((prefix + k, v) for k, v in o.store.items()
                                 if k.split(".")[0] in target.members)
            store[key] = ret
            result.append(State(o.cond, store, o.effects))
        return result

    def _shared(self, k: str) -> bool:
        """A store entry a function of this object shares with its callers: a member (or another object's)."""
        return k.split(".")[0] in self.members or (k.startswith("@") and not k.startswith("@call:")
                                                   and k != "@return")

    def read_input(self, node: Any, s: State, key: str) -> list[State]:
        """An input read whose value flows into the path (a strength, an axis, a vector, a pressed state kept in a
        variable): the path splits on the inputs it reads, each part with its concrete value."""
        z3 = self.z3
        v = self.call(node, s)
        if isinstance(v, Opaque) and not isinstance(v, Vec):
            s.store[key] = v
            return [s]
        if not isinstance(v, Vec) and z3.is_bool(v):
            out = []
            yes, no = self.fork(s, v)
            for st, val in ((yes, True), (no, False)):
                if st is not None:
                    st.store[key] = z3.BoolVal(val)
                    out.append(st)
            return out
        conds = list(self.held_conds)  # one per action argument (held or not), set by `call`
        cases: list[tuple[State, list[int]]] = [(s, [])]
        for c in conds:
            nxt = []
            for st, held in cases:
                yes, no = self.fork(st, c)
                if yes is not None:
                    nxt.append((yes, held + [1]))
                if no is not None:
                    nxt.append((no, held + [0]))
            cases = nxt
        method = str(node.children[0].children[-1])
        out = []
        for st, held in cases:
            val: Any
            if method == "get_axis":
                val = z3.RealVal(held[1] - held[0])
            elif method == "get_vector":
                val = _vec("Vector2", [z3.RealVal(held[1] - held[0]), z3.RealVal(held[3] - held[2])])
                val = _vec_method(val, "limit_length", [z3.RealVal(1)]) or val
            else:
                val = z3.RealVal(held[0])
            st.store[key] = val
            out.append(st)
        return out

    def expr(self, e: Any, s: State) -> Any:
        from lark import Token

        z3 = self.z3
        if isinstance(e, Token):
            if e.type == "NUMBER":
                return z3.RealVal(str(e))
            if e.type in ("HEX", "BIN"):
                return z3.RealVal(int(str(e).replace("_", ""), 0))
            name = str(e)
            if name in ("true", "false"):
                return z3.BoolVal(name == "true")
            if name == "null":
                return Opaque("null")
            if name in s.store:
                return s.store[name]
            parts = sorted(k for k in s.store if k.startswith(name + "."))
            if parts:  # a member some of whose components were assigned (velocity.x = ...)
                shown = ", ".join(f"{k[len(name) + 1:]}={_show(s.store[k])}" for k in parts)
                return Opaque(f"{name}{{{shown}}}")
            if name in self.consts:
                return self._py_to_z3(self.consts[name])
            if name in self.members:
                if self.fold is not None and name in self.fold:
                    return self._py_to_z3(self.fold[name])
                init = self.member_init.get(name)
                if init is not None:
                    ref = self._ref_of(init, name)
                    if ref is not None:
                        return ref
                return Opaque(name, f"get:{name}" if self.node else None)
            if _key_const(name):
                return KeyConst(name, None, key_name(name))
            if self.project is not None:
                if name in self.project.classes:
                    return ScriptRef(name, None, self.project.classes[name])
                if name in self.project.autoloads:
                    return ScriptRef(name, None, self.project.autoloads[name], True, True, "@autoload:" + name)
            return Opaque(name)
        d = e.data
        ch = e.children
        if d in ("standalone_call", "getattr_call"):
            got = s.store.get(f"@call:{id(e)}", _MISSING)
            if got is not _MISSING:  # executed by `lift`
                return got
        if d in ("expr", "par_expr") and len(ch) == 1:
            return self.expr(ch[0], s)
        if d == "string":
            return z3.StringVal(_string(e))
        if d in ("and_test", "or_test"):
            parts = [self.as_bool(self.expr(c, s)) for c in ch if not _is_tok(c, ("and", "or", "&&", "||"))]
            return z3.And(*parts) if d == "and_test" else z3.Or(*parts)
        if d == "not_test":
            return z3.Not(self.as_bool(self.expr(ch[-1], s)))
        if d == "comparison":
            a, op, b = self.expr(ch[0], s), str(ch[1]), self.expr(ch[2], s)
            return self.compare(op, a, b)
        if d in ("arith_expr", "mdr_expr"):
            v = self.expr(ch[0], s)
            for i in range(1, len(ch), 2):
                if str(ch[i]) == "%":
                    v = self.format(v, ch[i + 1], s)
                else:
                    v = self.binop(str(ch[i]), v, self.expr(ch[i + 1], s))
            return v
        if d == "neg_expr":
            v = self.expr(ch[-1], s)
            if isinstance(v, Vec):
                return _vec(v.kind, [-p if _is_num(p) else Opaque("-" + _show(p)) for p in v.parts])
            return -v if _is_num(v) else Opaque("-" + _show(v))
        if d == "test_expr":
            a, c, b = self.expr(ch[0], s), self.as_bool(self.expr(ch[2], s)), self.expr(ch[4], s)
            if _same_sort(a, b):
                return z3.simplify(z3.If(c, a, b))
            c = z3.simplify(c)
            if z3.is_true(c):
                return a
            if z3.is_false(c):
                return b
            return Opaque(f"({_show(a)} if {c} else {_show(b)})")
        if d == "getattr_call":
            return self.call(e, s)
        if d == "standalone_call":
            name = str(ch[0]) if str(ch[0]) != "." else str(ch[1])
            args = _args(e)
            if name in ("is_on_floor", "is_on_wall", "is_on_ceiling") or (QUERY.match(name) and not args):
                return Opaque(f"{name}()", f"call:{name}" if self.node else None)
            if name in self.funcs:
                return Opaque(f"{name}()")  # a function of the script used as a value: not followed here
            vals = [self.expr(a, s) for a in args]
            if name in VEC_CONSTS and len(vals) in (0, len(VEC_CONSTS[name]["ZERO"])):
                return _vec(name, vals or [z3.RealVal(0)] * len(VEC_CONSTS[name]["ZERO"]))
            if name in ("str", "String"):
                cs = [_concrete(z3.simplify(v)) if not isinstance(v, Opaque) else None for v in vals]
                if cs and all(c is not None for c in cs):
                    return z3.StringVal("".join(_gd_str(c) for c in cs))
            if name == "get_node" and len(args) == 1 and getattr(_unwrap(args[0]), "data", None) == "string":
                ref = self.node_ref(_string(_unwrap(args[0])), _text(e))
                if ref is not None:
                    return ref
            if name in ("preload", "load"):
                script = self.script_of(e)
                if script:
                    return ScriptRef(_text(e), None, script)
            if name == "get_parent" and not args:
                ref = self.node_ref("..", _text(e))
                if ref is not None:
                    return ref
            shown = ", ".join(_show(v) for v in vals)
            return Opaque(f"{name}({shown})")
        if d == "getattr":
            key = _text(e)
            if self.event is not None and key.startswith(self.event + ".") and key.count(".") == 1:
                attr = key.split(".")[1]
                if attr in ("scancode", "physical_scancode"):
                    self.reads_input = True
                    return EventScancode(key)
                if attr == "pressed":
                    self.reads_input = self.event_vars = True
                    return z3.Bool("ev:pressed")
                if attr == "echo":
                    return z3.BoolVal(False)  # playtester's inputs never repeat
                if attr == "button_index":
                    self.reads_input = True
                    return EventButton(key)
                if attr == "index":
                    return z3.RealVal(0)  # the first finger: playtester touches with one
            if key.startswith("self."):
                key = key[len("self."):]
                if "." not in key:
                    return self.expr(Token("NAME", key), s)
            if key in s.store:
                return s.store[key]
            kind, _, const = key.partition(".")
            if kind in VEC_CONSTS and const in VEC_CONSTS[kind]:
                return _vec(kind, [z3.RealVal(c) for c in VEC_CONSTS[kind][const]])
            if key in self.consts:
                return self._py_to_z3(self.consts[key])
            base, _, attr = key.rpartition(".")
            if len(ch) == 3 and hasattr(ch[0], "data"):  # a component of a computed value (f().x)
                bv = self.expr(ch[0], s)
                if isinstance(bv, Vec) and attr in AXES and AXES.index(attr) < len(bv.parts):
                    return bv.parts[AXES.index(attr)]
                return Opaque(f"{_show(bv)}.{attr}")
            if base in s.store and isinstance(s.store[base], Vec) and attr in AXES and \
                    AXES.index(attr) < len(s.store[base].parts):
                return s.store[base].parts[AXES.index(attr)]
            first = key.split(".")[0]
            if first in s.store:
                v = s.store[first]
                return Opaque(f"{_show(v)}.{'.'.join(key.split('.')[1:])}")
            if first in self.members:
                return Opaque(key, "get:" + key.replace(".", ":") if self.node else None)
            return Opaque(key)
        if d == "subscr_expr":
            base = self.expr(ch[0], s)
            idx = self.expr(ch[1], s)
            name = _text(ch[0])
            table = self.consts.get(name)
            if isinstance(table, dict):
                k = _concrete(z3.simplify(idx)) if not isinstance(idx, Opaque) else None
                if k is not None:
                    if k not in table:
                        s.effects.append(f"error: invalid index {k!r} of {name}")
                        return Opaque(f"{name}[{k!r}]")
                    v = table[k]
                    return self._py_to_z3(v.value() if isinstance(v, _Const) else v)
            return Opaque(f"{_show(base)}[{_show(idx)}]")
        if d == "get_node":
            path = ch[0]
            rel = _string(path) if getattr(path, "data", None) == "string" else \
                "/".join(str(x) for x in path.children) if hasattr(path, "children") else str(path)
            ref = self.node_ref(rel, _text(e))
            return ref if ref is not None else Opaque(_text(e))
        if d in ("array", "dict", "node_path"):
            return Opaque(_text(e))
        if d == "type_test":
            if self.event is not None and _text(ch[0]) == self.event:
                kind = _text(ch[-1])
                if kind == "InputEventKey":
                    self.reads_input = self.event_vars = True
                    return z3.Bool("ev:is_key")
                if kind in ("InputEventScreenTouch", "InputEventMouseButton"):
                    self.reads_input = self.event_vars = self.pointer = True
                    self.used_actions.add(CLICK)
                    self.flags["touch" if kind == "InputEventScreenTouch" else "mouse"] = True
                    return z3.Bool("ev:is_touch" if kind == "InputEventScreenTouch" else "ev:is_mouse")
            return Opaque(_text(e))
        return Opaque(_text(e))

    def _ref_of(self, init: Any, name: str) -> ScriptRef | None:
        """The object a member's initial value is, when it is a node or an instance of a project script
        (``onready var control = $Control``, ``var handler = InputHandler.new()``)."""
        init = _unwrap(init)
        if getattr(init, "data", None) not in ("get_node", "getattr_call", "standalone_call"):
            return None
        v = self.expr(init, State([], {}, []))
        if isinstance(v, ScriptRef) and v.instance:
            return ScriptRef(name, None, v.script, True, v.node, name)
        return None

    def node_ref(self, rel: str, text: str) -> ScriptRef | None:
        if self.project is None or not self.node:
            return None
        script = self.project.node_script(self.script, rel)
        return ScriptRef(text, None, script, True, True, "@node:" + rel) if script else None

    def format(self, a: Any, rhs: Any, s: State) -> Any:
        """``"fmt" % value`` / ``"fmt" % [values]`` with constants: the string (GDScript formats as Python does)."""
        z3 = self.z3
        fmt = _concrete(z3.simplify(a)) if not isinstance(a, Opaque) and z3.is_expr(a) else None
        rhs = _unwrap(rhs)
        if getattr(rhs, "data", None) == "array":
            items = [c for c in rhs.children if hasattr(c, "data") or str(c) not in ("[", "]", ",")]
            vals = [self.expr(c, s) for c in items]
        else:
            vals = [self.expr(rhs, s)]
        if isinstance(fmt, str):
            cs = [_concrete(z3.simplify(v)) if not isinstance(v, Opaque) and z3.is_expr(v) else None for v in vals]
            if all(c is not None for c in cs):
                try:
                    return z3.StringVal(fmt % tuple(_gd_str(c) if isinstance(c, bool) else c for c in cs))
                except (TypeError, ValueError):
                    pass
        if len(vals) == 1:
            return self.binop("%", a, vals[0])
        return Opaque(f"({_show(a)} % [{', '.join(_show(v) for v in vals)}])")

    def names_of(self, node: Any, s: State) -> list[str]:
        """An action's name: a constant string, or one built from constants (``"jump" + SUFFIX``, ``"p%d" % n``,
        ``str(n)``, a member set once to a constant and never assigned); several when the member's value differs
        between the script's nodes (an exported value the scenes set: ``"jump" + action_suffix``). [] if unknown."""
        z3 = self.z3
        used = {str(x) for x in node.scan_values(lambda v: True)} if hasattr(node, "scan_values") else {str(node)}
        pinned = self.pinned or {}
        choices = [(m, [pinned[m]] if m in pinned else vs) for m, vs in sorted(self.member_consts.items())
                   if m in used and m not in s.store]
        envs: list[dict[str, Any] | None] = [None] + [dict(zip([m for m, _ in choices], combo, strict=True))
                                                      for combo in itertools.product(*[vs for _, vs in choices])][:16]
        out: list[str] = []
        for env in envs:
            self.fold = env
            try:
                v = self.expr(node, s)
            finally:
                self.fold = None
            if not isinstance(v, Opaque) and z3.is_expr(v) and z3.is_string(v):
                c = _concrete(z3.simplify(v))
                if isinstance(c, str):
                    if env is None:
                        return [c]
                    out.append(c)
        return list(dict.fromkeys(out)) if len(out) == len(envs) - 1 else []

    def call(self, e: Any, s: State) -> Any:
        z3 = self.z3
        target = e.children[0]  # getattr: base . name
        text = _text(target)
        parts = text.split(".")
        method = parts[-1]
        base = ".".join(parts[:-1])
        args = _args(e)
        if base == "Input" or (self.event is not None and base == self.event):
            self.reads_input = True
            if method in INPUT_READS:
                n_names = {"get_axis": 2, "get_vector": 4}.get(method, 1)
                names = [self.names_of(a, s) for a in args[:n_names]]
                if not all(names) or len(names) < n_names:  # the branch is kept, its condition left free
                    self.unsupported.append((self.script, self.line,
                                             f"{text}() with an action that is not a constant string"))
                    return Opaque(_text(e))
                if method in ("get_axis", "get_vector"):
                    self.requires.append(f"{self.script}:{self.line}: Input.{method}() is Godot 3.4's")
                now, was = [], []  # per argument: one term per name it can be (several: the nodes differ)
                for alts in names:
                    now.append([])
                    was.append([])
                    for n in alts:
                        if n in self.left_out:
                            continue  # a default action left out of the space (ui_cancel: Esc): never held
                        if n not in self.actions and n not in self.default_actions:
                            self.notes.append(f"{self.script}: {text}({n!r}) names an action not in the InputMap")
                        self.used_actions.add(n)
                        now[-1].append(z3.Bool(f"in:{n}"))
                        was[-1].append(z3.Bool(f"was:{n}"))
                event = base != "Input"

                def any_of(terms: list[Any]) -> Any:
                    return z3.Or(*terms) if terms else z3.BoolVal(False)

                if method == "is_action_pressed" and not event:
                    return any_of(now[0])
                if method == "is_action_just_pressed" or (method == "is_action_pressed" and event):
                    return any_of([z3.And(a, z3.Not(b)) for a, b in zip(now[0], was[0], strict=True)])
                if method in ("is_action_just_released", "is_action_released"):
                    return any_of([z3.And(z3.Not(a), b) for a, b in zip(now[0], was[0], strict=True)])
                if method == "is_action":
                    return any_of([a != b for a, b in zip(now[0], was[0], strict=True)])
                self.held_conds = [any_of(n) for n in now]  # what `read_input` splits a strength's path on
                strength = [z3.If(c, z3.RealVal(1), z3.RealVal(0)) for c in self.held_conds]
                if method in ("get_action_strength", "get_action_raw_strength"):
                    return strength[0]
                if method == "get_axis":
                    return strength[1] - strength[0]
                return _vec("Vector2", [strength[1] - strength[0], strength[3] - strength[2]])  # get_vector
            if method in ("is_key_pressed", "is_physical_key_pressed") and base == "Input" and len(args) == 1:
                key = self.expr(args[0], s)
                if isinstance(key, KeyConst):
                    self.used_actions.add("key:" + key.key)
                    return z3.Bool("in:key:" + key.key)
                self.unsupported.append((self.script, self.line,
                                         f"{text}() with a key that is not a KEY_* constant"))
                return Opaque(_text(e))
            if base != "Input" and method == "is_pressed" and not args:
                self.event_vars = True
                return z3.Bool("ev:pressed")
            if base != "Input" and method == "is_echo" and not args:
                return z3.BoolVal(False)
            if base == "Input":  # keys, mouse, joypads read directly: the branch is kept, its condition left free
                self.unsupported.append((self.script, self.line,
                                         f"Input.{method}() (only InputMap actions are modelled)"))
                return Opaque(_text(e))
            return Opaque(f"{text}()")  # event.is_pressed(), event.scancode...: not modelled
        vals = [self.expr(a, s) for a in args]
        g = target.children if hasattr(target, "children") else []
        if len(g) == 3:  # one base: a value whose methods are modelled (vectors), or a script's class / object
            bv = self.expr(g[0], s)
            if isinstance(bv, Vec):
                got = _vec_method(bv, method, vals)
                if got is not None:
                    return got
            if isinstance(bv, ScriptRef) and method == "new" and not bv.instance:
                return ScriptRef(f"{bv.text}.new()", None, bv.script, True, False, f"@new:{id(e)}")
            if not isinstance(bv, Opaque) or type(bv) is Vec:
                return Opaque(f"{_show(bv)}.{method}({', '.join(_show(v) for v in vals)})")
        shown = ", ".join(_show(v) for v in vals)
        return Opaque(f"{text}({shown})")

    def event_cases(self, cond: Any) -> Any:
        """A path condition over the event handler's event (``ev:is_key``, ``ev:key:X``, ``ev:pressed``,
        ``ev:is_touch``, ``ev:is_mouse``, ``ev:button_left``) read over the events a step can bring: a press or a
        release of each key compared with ``event.scancode``, a tap (``CLICK``: a press and a release in the step,
        as a screen touch or a left mouse button event; either event while the tap is held), or no such event. Without any key or pointer event read, the
        event's variables stay free (over-approximated)."""
        z3 = self.z3
        if not self.event_vars or not (self.event_keys or self.pointer):
            return cond
        keys = sorted(self.event_keys)
        names = ["is_key", "pressed", "is_touch", "is_mouse", "button_left"] + [f"key:{k}" for k in keys]

        def sub(**on: bool) -> list[tuple[Any, Any]]:
            return [(z3.Bool("ev:" + n), z3.BoolVal(bool(on.get(n.replace("key:", "k_"), False)))) for n in names]

        cases = []
        for down in (True, False):
            for k in keys:
                now, was = z3.Bool("in:key:" + k), z3.Bool("was:key:" + k)
                edge = z3.And(now, z3.Not(was)) if down else z3.And(z3.Not(now), was)
                cases.append(z3.And(z3.substitute(cond, *sub(is_key=True, pressed=down, **{"k_" + k: True})), edge))
            if self.pointer:  # a tap presses and releases within its step: each step it is held
                edge = z3.Bool("in:" + CLICK)
                kinds = ([{"is_touch": True}] if self.flags["touch"] else []) + \
                    ([{"is_mouse": True, "button_left": True}] if self.flags["mouse"] else [])
                for kind in kinds:  # the kinds of event the handler tells apart (the others: it ignores them)
                    cases.append(z3.And(z3.substitute(cond, *sub(pressed=down, **kind)), edge))
        none = z3.substitute(cond, *sub())  # no event of these keys, no tap (a tap held brings its events)
        cases.append(z3.And(none, z3.Not(z3.Bool("in:" + CLICK))) if self.pointer else none)
        return z3.simplify(z3.Or(*cases))

    # ---- helpers over values
    def game_var(self, v: Opaque, sort: str) -> Any:
        z3 = self.z3
        name = f"g:{self.script}:{v.text}" + ("" if sort == "bool" else f":{sort}")
        if name not in self.game_vars:
            self.game_vars[name] = {"script": self.script, "read": v.read, "text": v.text, "sort": sort}
        return {"bool": z3.Bool, "real": z3.Real, "str": z3.String}[sort](name)

    def as_bool(self, v: Any) -> Any:
        z3 = self.z3
        if isinstance(v, Opaque):
            return self.game_var(v, "bool")
        if z3.is_bool(v):
            return v
        if z3.is_arith(v):
            return v != 0
        if z3.is_string(v):
            return v != z3.StringVal("")
        return self.game_var(Opaque(str(v)), "bool")

    def _lift(self, a: Any, other: Any) -> Any:
        z3 = self.z3
        if not isinstance(a, Opaque):
            return a
        if not isinstance(other, Opaque):
            if z3.is_arith(other):
                return self.game_var(a, "real")
            if z3.is_string(other):
                return self.game_var(a, "str")
            if z3.is_bool(other):
                return self.game_var(a, "bool")
        return a

    def eq(self, a: Any, b: Any) -> Any:
        z3 = self.z3
        if isinstance(b, EventScancode):
            a, b = b, a
        if isinstance(a, EventScancode) and isinstance(b, KeyConst):  # the event is this key's
            self.event_keys.add(b.key)
            self.event_vars = True
            self.used_actions.add("key:" + b.key)
            return z3.Bool("ev:key:" + b.key)
        if isinstance(b, EventButton):
            a, b = b, a
        if isinstance(a, EventButton) and isinstance(b, Opaque) and b.text.startswith("BUTTON_"):
            self.event_vars = self.pointer = self.reads_input = self.flags["mouse"] = True
            self.used_actions.add(CLICK)
            return z3.Bool("ev:button_left") if b.text == "BUTTON_LEFT" else z3.BoolVal(False)
        if isinstance(a, Vec) and isinstance(b, Vec):
            if len(a.parts) != len(b.parts):
                return z3.BoolVal(False)
            return z3.simplify(z3.And(*[self.eq(x, y) for x, y in zip(a.parts, b.parts, strict=True)]))
        a, b = self._lift(a, b), self._lift(b, a)
        if isinstance(a, Opaque) or isinstance(b, Opaque):
            if isinstance(a, Opaque) and isinstance(b, Opaque) and a.text == b.text:
                return z3.BoolVal(True)
            return self.game_var(Opaque(f"{_show(a)} == {_show(b)}"), "bool")
        if not _same_sort(a, b):
            return z3.BoolVal(False)
        return a == b

    def compare(self, op: str, a: Any, b: Any) -> Any:
        z3 = self.z3
        if op == "==":
            return self.eq(a, b)
        if op == "!=":
            return z3.Not(self.eq(a, b))
        a, b = self._lift(a, b), self._lift(b, a)
        if isinstance(a, Opaque) and isinstance(b, Opaque):
            return self.game_var(Opaque(f"{_show(a)} {op} {_show(b)}"), "bool")
        if isinstance(a, Opaque):
            a = self.game_var(a, "real")
        if isinstance(b, Opaque):
            b = self.game_var(b, "real")
        if not (z3.is_arith(a) and z3.is_arith(b)):
            return self.game_var(Opaque(f"{_show(a)} {op} {_show(b)}"), "bool")
        return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]

    def binop(self, op: str, a: Any, b: Any) -> Any:
        z3 = self.z3
        if isinstance(a, Vec) or isinstance(b, Vec):
            return self.vec_binop(op, a, b)
        if _is_num(a) and _is_num(b) and op in "+-*/":
            if op == "/":
                bb = z3.simplify(b)
                if z3.is_rational_value(bb) and bb.as_fraction() == 0:
                    return Opaque(f"{_show(a)} / 0")
            return z3.simplify({"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b}[op]())
        if z3.is_expr(a) and z3.is_string(a) and not isinstance(b, Opaque) and z3.is_expr(b) and z3.is_string(b) \
                and op == "+":
            return z3.simplify(z3.Concat(a, b))
        if isinstance(a, Opaque) and _is_num(b) and a.read is not None:
            a = self.game_var(a, "real")
            return self.binop(op, a, b)
        return Opaque(f"({_show(a)} {op} {_show(b)})")

    def vec_binop(self, op: str, a: Any, b: Any) -> Any:
        """Vectors added, subtracted, multiplied or divided (by a vector of the same kind or a number)."""
        if op in "+-*/" and isinstance(a, Vec) and isinstance(b, Vec) and a.kind == b.kind:
            return _vec(a.kind, [self.binop(op, x, y) for x, y in zip(a.parts, b.parts, strict=True)])
        if op in "*/" and isinstance(a, Vec) and _is_num(b):
            return _vec(a.kind, [self.binop(op, x, b) for x in a.parts])
        if op == "*" and isinstance(b, Vec) and _is_num(a):
            return _vec(b.kind, [self.binop(op, a, x) for x in b.parts])
        return Opaque(f"({_show(a)} {op} {_show(b)})")

    def _py_to_z3(self, v: Any) -> Any:
        z3 = self.z3
        if isinstance(v, bool):
            return z3.BoolVal(v)
        if isinstance(v, (int, float)):
            return z3.RealVal(str(v))
        if isinstance(v, str):
            return z3.StringVal(v)
        if isinstance(v, _Const):
            return self._py_to_z3(v.value())
        if isinstance(v, Opaque):
            return v
        return Opaque(repr(v) if not isinstance(v, dict) else "{...}")


class _Const:
    """A constant dictionary's entry, evaluated when used."""

    def __init__(self, node: Any, ex: Executor) -> None:
        self.node, self.ex = node, ex

    def value(self) -> Any:
        try:
            return self.ex.const_value(self.node)
        except Unsupported:
            return Opaque(_text(self.node))


_MISSING = object()


def _params(fn: Any) -> list[str]:
    """A function's parameter names, in order."""
    header = fn.children[0]
    out = []
    for c in header.children:
        if getattr(c, "data", None) == "func_args":
            out += [str(a.children[0]) for a in c.children if getattr(a, "data", "").startswith("func_arg")]
    return out


def _gd_str(v: Any) -> str:
    """A constant as GDScript's ``str()`` writes it (``True``, ``1`` for 1.0)."""
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _vec_method(v: Vec, method: str, args: list[Any]) -> Any:
    """A vector method on a vector whose components are numbers (``normalized``, ``length``, ``limit_length``),
    else None."""
    import math

    z3 = _z3()
    nums = [_concrete(z3.simplify(p)) if _is_num(p) else None for p in v.parts]
    if any(not isinstance(n, (int, float)) or isinstance(n, bool) for n in nums):
        return None
    length = math.sqrt(sum(float(n) ** 2 for n in nums))

    def scaled(k: float) -> Vec:
        return _vec(v.kind, [z3.RealVal(_num_text(float(n) * k)) for n in nums])

    if method == "normalized" and not args:
        return scaled(1 / length if length else 0.0)
    if method in ("length", "length_squared") and not args:
        return z3.RealVal(_num_text(length if method == "length" else length * length))
    if method in ("limit_length", "clamped") and len(args) <= 1:
        lim = _concrete(z3.simplify(args[0])) if args and _is_num(args[0]) else (1 if not args else None)
        if not isinstance(lim, (int, float)):
            return None
        return scaled(lim / length) if length > lim else v
    return None


def _num_text(x: float) -> str:
    """A float for z3.RealVal: rounded (a direction's normalized components are irrational)."""
    r = round(x, 6)
    return str(int(r)) if float(r).is_integer() else repr(r)


def _is_tok(c: Any, values: tuple[str, ...]) -> bool:
    return not hasattr(c, "data") and str(c) in values


def _is_num(v: Any) -> bool:
    z3 = _z3()
    return not isinstance(v, Opaque) and z3.is_expr(v) and z3.is_arith(v)


def _same_sort(a: Any, b: Any) -> bool:
    z3 = _z3()
    return not isinstance(a, Opaque) and not isinstance(b, Opaque) and z3.is_expr(a) and z3.is_expr(b) and \
        a.sort() == b.sort()


def _concrete(v: Any) -> Any:
    z3 = _z3()
    if z3.is_string_value(v):
        return v.as_string()
    if z3.is_rational_value(v):
        f = v.as_fraction()
        return int(f) if f.denominator == 1 else float(f)
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    return None


def _show(v: Any) -> str:
    if isinstance(v, Opaque):
        return v.text
    z3 = _z3()
    if z3.is_expr(v):
        v = z3.simplify(v)
        c = _concrete(v)
        if c is not None:
            return repr(c)
        return str(v)
    return repr(v)


def _unwrap(e: Any) -> Any:
    while getattr(e, "data", None) == "expr" and len(e.children) == 1:
        e = e.children[0]
    return e


def _args(call: Any) -> list[Any]:
    """The argument expressions of a call (``standalone_call``: NAME ( args ); ``getattr_call``: getattr ( args ))."""
    ch = list(call.children)
    start = next(i for i, c in enumerate(ch) if not hasattr(c, "data") and str(c) == "(")
    return [c for c in ch[start + 1:] if hasattr(c, "data") or str(c) not in ("(", ")", ",")]


def _string(node: Any) -> str:
    import ast

    raw = str(node.children[0])
    try:
        return str(ast.literal_eval(raw))
    except (ValueError, SyntaxError):
        return raw.strip("\"'")


def _literal(text: str) -> Any:
    import ast

    if text in ("true", "false"):
        return text == "true"
    return ast.literal_eval(text)


def _text(node: Any) -> str:
    """Source-like text of a subtree (tokens joined; dots and brackets tight)."""
    if not hasattr(node, "data"):
        return str(node)
    if node.data == "string":
        return str(node.children[0])
    if node.data == "getattr":
        return "".join(_text(c) for c in node.children)
    if node.data == "subscr_expr":
        return f"{_text(node.children[0])}[{_text(node.children[1])}]"
    if node.data in ("standalone_call", "getattr_call"):
        return "".join(_text(c) if hasattr(c, "data") or str(c) in "().," else str(c) for c in node.children)
    return " ".join(_text(c) for c in node.children)


def _line(node: Any) -> int:
    meta = getattr(node, "meta", None)
    return int(getattr(meta, "line", 0) or 0) if meta is not None and not getattr(meta, "empty", True) else 0


# ------------------------------------------------------------------------------ the analysis
def gd_scripts(project: Path) -> list[Path]:
    return sorted(p for p in project.rglob("*.gd") if "addons" not in p.relative_to(project).parts
                  and ".import" not in p.parts and ".git" not in p.parts)


@dataclass
class Behaviour:
    """Paths of one handler with the same effect: their disjunction."""

    handler: str
    effect: str
    cond: Any


def _effect_of(ex: Executor, s: State) -> str:
    parts = []
    for k in sorted(s.store):
        if k.split(".")[0] in ex.members or (k.startswith(("@node:", "@autoload:")) and "." in k):
            parts.append(f"{k} = {_show(s.store[k])}")
    return "; ".join(parts + s.effects)


def _node_pins(res: str, tree: Any, input_actions: list[str], proj: Project) -> list[tuple[str, dict[str, Any]] | None]:
    """The script's nodes whose handlers are analysed one by one (their members set in ``_ready`` differ), else
    [None]: the script's handlers once, for any of its nodes."""
    return list(Executor(res, tree, input_actions, {}, proj).node_envs) or [None]


def analyze_project(project: str | Path, input_actions: list[str]) -> dict[str, Any]:
    """The analyzed action space of a Godot 3 project (JSON-ready): see the module's docstring."""
    z3 = _z3()
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    project = Path(project).resolve()
    parser = _gdtoolkit_parser()
    behaviours: list[list[Behaviour]] = []  # per input handler
    game_vars: dict[str, dict[str, Any]] = {}
    unsupported: list[dict[str, Any]] = []
    notes: list[str] = []
    used: set[str] = set()
    n_paths = 0
    handlers: list[dict[str, Any]] = []
    truncated = False
    t_parse = 0.0
    trees: dict[str, Any] = {}
    for path in gd_scripts(project):
        res = "res://" + path.relative_to(project).as_posix()
        tp = time.perf_counter()
        try:
            trees[res] = parser.parse(path.read_text(encoding="utf-8", errors="replace"), gather_metadata=True)
        except Exception as e:  # noqa: BLE001 - a script gdtoolkit cannot parse (Godot 4 syntax, a syntax error)
            unsupported.append({"file": res, "line": 0, "what": f"not parsed as Godot 3 GDScript: "
                                f"{str(e).splitlines()[0][:160]}"})
        t_parse += time.perf_counter() - tp
    proj = Project(project, trees)
    extended = set(proj.bases.values())
    requires: list[str] = []
    for res, tree in trees.items():
        if res in extended and res not in proj.placements:
            continue  # a base class no scene runs as it is: its handlers are analysed in the scripts extending it
        for name, pin in [(h, p) for h in HANDLERS for p in _node_pins(res, tree, input_actions, proj)]:
            ex = Executor(res, tree, input_actions, {}, proj)
            if name not in ex.funcs:
                continue
            ex.pinned = pin[1] if pin else None  # one node of several that differ (pong's Left and Right paddles)
            states = ex.run(name)
            for file, line, what in ex.unsupported:
                if {"file": file, "line": line, "what": what} not in unsupported:
                    unsupported.append({"file": file, "line": line, "what": what})
            notes.extend(ex.notes)
            requires.extend(r for r in ex.requires if r not in requires)
            truncated |= ex.truncated
            if not ex.reads_input:
                continue
            used |= ex.used_actions
            game_vars.update(ex.game_vars)
            n_paths += len(states)
            if ex.event_vars and not ex.event_keys and not ex.pointer:
                unsupported.append({"file": res, "line": _line(ex.funcs[name]), "what": f"{name}: a key event not "
                                    "compared with a KEY_* constant (its condition left free)"})
            groups: dict[str, list[Any]] = {}
            for s in states:
                cond = ex.event_cases(z3.And(*s.cond) if s.cond else z3.BoolVal(True))
                if z3.is_false(cond):
                    continue  # an event no step brings (another key than those compared)
                groups.setdefault(_effect_of(ex, s), []).append(cond)
            behaviours.append([Behaviour(f"{res}:{name}", eff, z3.simplify(z3.Or(*cs)))
                               for eff, cs in groups.items()])
            handlers.append({"file": res, "function": name, "line": _line(ex.funcs[name]), "paths": len(states),
                             "behaviours": len(groups), **({"node": pin[0]} if pin else {})})
    t_exec = time.perf_counter() - t0
    t1 = time.perf_counter()
    actions = _actions(behaviours, sorted(used), game_vars)
    t_act = time.perf_counter() - t1
    cpu = time.process_time() - cpu0
    loop = handlers[0] if handlers else {"file": "-", "function": "-", "line": 0}
    watch = sorted({(v["script"], v["read"]) for n, v in game_vars.items() if v["read"]
                    and any(n in a["vars"] for a in actions)})
    return {
        "engine": "godot",
        "actions": actions,
        "input_actions": sorted(used),
        "game_vars": game_vars,
        "watch": [list(w) for w in watch],
        "handlers": handlers,
        "loop": {"file": loop["file"], "function": loop["function"], "line": loop["line"]},
        "unsupported": unsupported,
        "requires": {"godot": "3.4", "why": requires} if requires else None,
        "partial": f"a handler had more than {MAX_PATHS} paths" if truncated else None,
        "stats": {"paths": n_paths, "merged": n_paths - sum(len(b) for b in behaviours), "kept_statements": 0,
                  "sliced_statements": 0, "inlined": [], "summarized": [], "truncated": truncated,
                  "notes": sorted(set(notes)), "handlers": len(handlers)},
        "timings": {"prepare_s": t_parse, "execute_s": t_exec - t_parse, "actions_s": t_act, "cpu_s": cpu,
                    "total_s": time.perf_counter() - t0},
    }


def _subsets(names: list[str]) -> list[tuple[str, ...]]:
    if len(names) <= MAX_ENUM_ACTIONS:
        return [c for k in range(len(names) + 1) for c in itertools.combinations(names, k)]
    return [(), *((n,) for n in names), *itertools.combinations(names, 2)]


def _assign(names: list[str], held: tuple[str, ...], prefix: str = "in:") -> list[tuple[Any, Any]]:
    z3 = _z3()
    return [(z3.Bool(prefix + n), z3.BoolVal(n in held)) for n in names]


def _reads(cond: Any, names: list[str]) -> frozenset[str]:
    """The InputMap actions (of ``names``) whose ``in:`` input ``cond`` reads."""
    wanted = set(names)
    return frozenset(n for v in _free_vars(cond) if (n := v.decl().name()).startswith("in:")
                     and (n := n[3:]) in wanted)


def _components(options: list[list[tuple[int, Any, frozenset[str]]]]) -> list[list[int]]:
    """The handlers grouped so that no two groups' options share a variable (their conditions can be decided apart:
    a conjunction of conditions over disjoint variables is satisfiable when each is)."""
    parent = list(range(len(options)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for h, ok in enumerate(options):
        for _, _, vs in ok:
            for v in vs:
                if v in owner:
                    parent[find(h)] = find(owner[v])
                else:
                    owner[v] = h
    groups: dict[int, list[int]] = {}
    for h in range(len(options)):
        groups.setdefault(find(h), []).append(h)
    return list(groups.values())


def _actions(behaviours: list[list[Behaviour]], names: list[str], game_vars: dict[str, Any]) -> list[dict[str, Any]]:
    """Joint behaviours (one per input handler) that some set of held actions can produce, as actions.

    What makes this scale (issue 56: openjam2020's player handler has 430 behaviours, 8 actions give 256 held
    sets): a behaviour's condition under a held set depends only on the held actions it reads, so it is decided
    once per such part (not per held set); handlers whose remaining conditions share no variable are decided apart
    (their joint behaviours are the product of each group's feasible ones, none of them solved again), and a
    group's joint conditions are decided once per distinct set of conditions."""
    z3 = _z3()
    solver = z3.Solver()
    solver.set("timeout", 2000)
    reads = [[_reads(b.cond, names) for b in bs] for bs in behaviours]
    one: dict[tuple[int, int, frozenset[str]], tuple[Any, frozenset[str]] | None] = {}
    group_ok: dict[tuple[Any, ...], list[tuple[int, ...]]] = {}
    joint: dict[tuple[Any, ...], list[tuple[str, ...]]] = {}
    per_held: list[tuple[tuple[str, ...], list[tuple[list[int], list[tuple[int, ...]]]]]] = []
    for held in _subsets(names):
        held_set = frozenset(held)
        sub = _assign(names, held)
        options: list[list[tuple[int, Any, frozenset[str]]]] = []
        for h, bs in enumerate(behaviours):
            ok = []
            for k, b in enumerate(bs):
                key = (h, k, held_set & reads[h][k])
                if key not in one:
                    c = z3.simplify(z3.substitute(b.cond, *sub)) if sub else b.cond
                    got = None
                    if not z3.is_false(c):
                        solver.push()
                        solver.add(c)
                        if solver.check() != z3.unsat:
                            got = (c, frozenset(v.decl().name() for v in _free_vars(c)))
                        solver.pop()
                    one[key] = got
                if one[key] is not None:
                    c, vs = one[key]
                    ok.append((k, c, vs))
            options.append(ok)
        if not all(options):
            continue
        parts: list[tuple[list[int], list[tuple[int, ...]]]] = []
        for hs in _components(options):
            gkey = tuple((h, tuple((k, c.get_id()) for k, c, _ in options[h])) for h in hs)
            if gkey not in group_ok:
                feasible = []
                for combo in itertools.product(*[options[h] for h in hs]):
                    if len(combo) > 1:
                        solver.push()
                        solver.add(*[c for _, c, _ in combo])
                        sat = solver.check() != z3.unsat
                        solver.pop()
                        if not sat:
                            continue
                    feasible.append(tuple(k for k, _, _ in combo))
                group_ok[gkey] = feasible
            if not group_ok[gkey]:
                break
            parts.append((hs, group_ok[gkey]))
        else:
            per_held.append((held, parts))
    apart = sum(math.prod(len(ks) for _, ks in parts) for _, parts in per_held) > MAX_JOINT
    for held, parts in per_held:
        if apart:  # too many joint behaviours: each group's own, the other groups' behaviours left free
            for hs, ks in parts:
                for t in ks:
                    joint.setdefault(tuple(zip(hs, t, strict=True)), []).append(held)
            continue
        order = [h for hs, _ in parts for h in hs]
        for combo in itertools.product(*[ks for _, ks in parts]):
            flat = [k for ks in combo for k in ks]
            key = tuple(k for _, k in sorted(zip(order, flat, strict=True)))
            joint.setdefault(key, []).append(held)
    out: list[dict[str, Any]] = []
    used_names: dict[str, int] = {}
    simp = z3.Tactic("ctx-solver-simplify")
    for key, helds in sorted(joint.items(), key=lambda kv: (len(kv[1][0]), kv[1][0], kv[0])):
        pairs = list(key) if apart else list(enumerate(key))
        phi = z3.And(*[behaviours[h][k].cond for h, k in pairs])
        per_held = [z3.simplify(z3.substitute(phi, *_assign(names, h))) for h in helds]
        p_g = _simplify(z3.Or(*per_held), simp)
        effects = [behaviours[h][k].effect for h, k in pairs]
        base = "+".join(helds[0]) or "none"
        n = used_names.get(base, 0)
        used_names[base] = n + 1
        name = base if n == 0 else f"{base} #{n + 1}"
        vars_ = sorted({str(d) for c in per_held for d in _free_vars(c)})
        out.append({
            "name": name,
            "held": [list(h) for h in helds],  # the input sets that perform it, the first preferred
            "p_g": _smt2(p_g), "p_g_text": _readable(p_g),
            "p_i": [_smt2(c) for c in per_held], "p_i_text": _readable(_simplify(phi, simp)),
            "effects": effects, "vars": vars_,
            "errors": [e for eff in effects for e in eff.split("; ") if e.startswith("error:")],
            **({"handlers": sorted({behaviours[h][0].handler for h, _ in pairs})} if apart else {}),
        })
    return out


def _simplify(f: Any, tactic: Any) -> Any:
    z3 = _z3()
    try:
        goals = tactic(f)
        parts = [z3.And(*g) if len(g) else z3.BoolVal(True) for g in goals]
        return z3.simplify(z3.Or(*parts)) if parts else z3.BoolVal(False)
    except z3.Z3Exception:
        return z3.simplify(f)


def _free_vars(f: Any) -> list[Any]:
    z3 = _z3()
    out, seen, todo = [], set(), [f]
    while todo:
        e = todo.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.append(e)
        todo.extend(e.children())
    return out


def _smt2(f: Any) -> str:
    z3 = _z3()
    s = z3.Solver()
    s.add(f)
    return s.to_smt2()


def _parse_smt2(text: str) -> Any:
    z3 = _z3()
    v = z3.parse_smt2_string(text)
    return z3.And(*v) if len(v) != 1 else v[0]


def _readable(f: Any) -> str:
    text = str(f)
    text = re.sub(r"g:res://[^:]+:", "", text)
    return re.sub(r"\s+", " ", re.sub(r":(real|str)\b", "", text))


# ---------------------------------------------------------------------------- the space at play time
@dataclass
class GodotAnalyzedSpace(ActionSpace):
    """The ``analyzed`` space of a Godot project. ``input_sets`` are the sets of InputMap actions its actions
    hold (the Godot runner sends ``input_sets[InputFrame.native]``); ``watch`` the game variables the add-on
    reads live for validity (``ctx.game``: {"watch": [[values per node] per watch entry]})."""

    godot_analysis: dict[str, Any] = field(default_factory=dict)
    _rt: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        sets: list[tuple[str, ...]] = []
        for a in self.godot_analysis.get("actions", []):
            for h in a["held"]:
                if tuple(h) not in sets:
                    sets.append(tuple(h))
        self.input_sets = sets
        self.watch = [tuple(w) for w in self.godot_analysis.get("watch", [])]

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_rt"] = None
        return state

    def extra_dict(self) -> dict[str, Any]:
        return {"godot_analysis": self.godot_analysis}

    def _runtime(self) -> _GodotRuntime:
        if self._rt is None:
            self._rt = _GodotRuntime(self)
        return self._rt

    def mask(self, ctx: ActionContext) -> np.ndarray:
        return self._runtime().mask(ctx)

    def perform(self, index: int, ctx: ActionContext) -> tuple[InputFrame, int | None]:
        return self._runtime().perform(index, ctx), None


class _GodotRuntime:
    def __init__(self, space: GodotAnalyzedSpace) -> None:
        a = space.godot_analysis
        self.space = space
        self.actions = a["actions"]
        self.names = list(a.get("input_actions", []))
        self.watch = space.watch
        self.game_vars = a.get("game_vars", {})
        self.p_g: list[Any] = []
        self.p_i: list[list[Any]] = []
        self.cache: dict[tuple[Any, ...], Any] = {}
        self.timing = {"mask_s": 0.0, "mask_n": 0, "solves": 0, "cache_hits": 0, "perform_s": 0.0, "perform_n": 0,
                       "valid_sum": 0, "empty_masks": 0}
        self.solver = None

    def _load(self) -> None:
        if not self.p_g:
            self.p_g = [_parse_smt2(x["p_g"]) for x in self.actions]
            self.p_i = [[_parse_smt2(t) for t in x["p_i"]] for x in self.actions]
            z3 = _z3()
            self.solver = z3.Solver()
            self.solver.set("timeout", 500)

    def _subs(self, ctx: ActionContext, node: int) -> tuple[tuple[Any, ...], list[tuple[Any, Any]]]:
        """The substitution of the previous step's held actions and node ``node``'s watched values."""
        z3 = _z3()
        held = set(_held_actions(ctx, self.space))
        subs = [(z3.Bool("was:" + n), z3.BoolVal(n in held)) for n in self.names]
        values = (ctx.game or {}).get("watch") if isinstance(ctx.game, dict) else None
        key: list[Any] = [tuple(sorted(held))]
        if values:
            for (script, read), vals in zip(self.watch, values, strict=False):
                if not vals:
                    key.append(None)
                    continue
                v = vals[min(node, len(vals) - 1)]
                key.append(v)
                for name, info in self.game_vars.items():
                    if info["script"] == script and info["read"] == read:
                        c = _to_z3(v, info["sort"])
                        if c is not None:
                            subs.append((_var(name, info["sort"]), c))
        return tuple(key), subs

    def _nodes(self, ctx: ActionContext) -> int:
        values = (ctx.game or {}).get("watch") if isinstance(ctx.game, dict) else None
        return max([len(v) for v in values or [] if v] or [1])

    def _holds(self, f: Any, subs: list[tuple[Any, Any]]) -> bool:
        z3 = _z3()
        g = z3.simplify(z3.substitute(f, *subs)) if subs else f
        if z3.is_true(g):
            return True
        if z3.is_false(g):
            return False
        self.timing["solves"] += 1
        assert self.solver is not None
        self.solver.push()
        self.solver.add(g)
        ok = self.solver.check() != z3.unsat
        self.solver.pop()
        return ok

    def mask(self, ctx: ActionContext) -> np.ndarray:
        t0 = time.perf_counter()
        self._load()
        n = len(self.actions)
        out = np.zeros(n, dtype=np.int8)
        for node in range(self._nodes(ctx)):
            key, subs = self._subs(ctx, node)
            got = self.cache.get(("m", key))
            if got is None:
                got = np.array([self._holds(f, subs) for f in self.p_g], dtype=np.int8)
                self.cache[("m", key)] = got
            else:
                self.timing["cache_hits"] += 1
            out |= got
        if n and not out.any():
            out[:] = 1
            self.timing["empty_masks"] += 1
        self.timing["mask_s"] += time.perf_counter() - t0
        self.timing["mask_n"] += 1
        self.timing["valid_sum"] += int(out.sum())
        return out

    def perform(self, index: int, ctx: ActionContext) -> InputFrame:
        t0 = time.perf_counter()
        self._load()
        act = self.actions[index]
        choice = tuple(act["held"][0])
        for node in range(self._nodes(ctx)):
            key, subs = self._subs(ctx, node)
            got = self.cache.get(("p", index, key))
            if got is None:
                got = next((tuple(h) for h, f in zip(act["held"], self.p_i[index], strict=False)
                            if self._holds(f, subs)), None)
                self.cache[("p", index, key)] = got or ()
            if got:
                choice = got
                break
        if len(self.cache) > 100000:
            self.cache.clear()
        self.timing["perform_s"] += time.perf_counter() - t0
        self.timing["perform_n"] += 1
        return InputFrame(native=self.space.input_sets.index(choice))


def _held_actions(ctx: ActionContext, space: GodotAnalyzedSpace) -> tuple[str, ...]:
    native = ctx.held.native
    if native is not None and 0 <= native < len(space.input_sets):
        return space.input_sets[native]
    return ()


def _var(name: str, sort: str) -> Any:
    z3 = _z3()
    return {"bool": z3.Bool, "real": z3.Real, "str": z3.String}[sort](name)


def _to_z3(v: Any, sort: str) -> Any:
    z3 = _z3()
    if sort == "bool" and isinstance(v, (bool, int, float)):
        return z3.BoolVal(bool(v))
    if sort == "real" and isinstance(v, (bool, int, float)):
        return z3.RealVal(str(float(v)))
    if sort == "str" and isinstance(v, str):
        return z3.StringVal(v)
    return None


def _load_space(data: dict[str, Any], actions: list[Action]) -> GodotAnalyzedSpace:
    return GodotAnalyzedSpace(data["kind"], actions, source=data.get("source"), godot_analysis=data["godot_analysis"])



def make_space(result: dict[str, Any], source: str) -> GodotAnalyzedSpace:
    acts = []
    for i, a in enumerate(result["actions"]):
        acts.append(Action(a["name"], InputFrame(native=i), mode="native",
                           description=f"valid when {a['p_g_text']}; holds {' or '.join('+'.join(h) or 'nothing' for h in a['held'])}"))
    return GodotAnalyzedSpace("analyzed", acts, source=source, godot_analysis=result)


def analyze_godot(spec: Any) -> Any:
    """`playtester.analysis.analyze` for ``godot:`` / ``godot-runner:`` specs: an `Analysis` whose space is a
    `GodotAnalyzedSpace`."""
    from playtester.analysis import AnalysisError
    from playtester.drive.godot import input_actions

    t0 = time.perf_counter()
    names = input_actions(spec.target, spec.config.blacklist)
    result = analyze_project(spec.target, names)
    if not result["actions"] or not result["handlers"]:
        raise AnalysisError(f"analysis of {spec.text} found no input handling: no script's _input, "
                            "_unhandled_input, _process or _physics_process reads an InputMap action")
    warnings = [f"{u['file']}:{u['line']}: {u['what']}" for u in result["unsupported"]]
    warnings += [f"{n}; the space may miss actions" for n in result["stats"]["notes"]]
    if result.get("requires"):
        warnings += [f"{w}: the project needs Godot {result['requires']['godot']} (Debian's godot3 is 3.2.3)"
                     for w in result["requires"]["why"]]
    if result.get("partial"):
        warnings.insert(0, f"partial action space: {result['partial']}")
    return GodotAnalysis(spec.text, result, time.perf_counter() - t0, 0.0, warnings, result["timings"]["cpu_s"])


class GodotAnalysis(Analysis):
    """An `Analysis` of a Godot project: its space is a `GodotAnalyzedSpace`."""

    def space(self) -> Any:
        return make_space(self.result, source=f"analyzed:{self.game}")
