"""Action-space analysis of Godot 3 projects (the action-space paper, 000_*.txt, done for GDScript).

The project's scripts are parsed with gdtoolkit (Godot 3 syntax); every input handler (``_input``,
``_unhandled_input``, ``_unhandled_key_input``, ``_process``, ``_physics_process``) that reads an InputMap
action is executed symbolically with z3, functions of the same script called as statements inlined:

- inputs: ``in:A`` (action A held during the step) and ``was:A`` (held during the previous step):
  ``Input.is_action_pressed(A)`` is ``in:A``; ``Input.is_action_just_pressed(A)`` and
  ``event.is_action_pressed(A)`` are ``in:A and not was:A``; ``..._just_released`` / ``event.is_action_released``
  ``not in:A and was:A``; ``Input.get_action_strength(A)`` is 1 or 0; ``Input.get_axis(N, P)`` their difference.
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
At play time (`GodotAnalyzedSpace`, in the episode process) an action is valid when its ``p_g`` holds for the
live values of the watched game variables and the inputs held in the previous step (z3 only on a cache miss:
the values are few); performing it holds the first of its input sets whose path condition holds.
"""

from __future__ import annotations

import itertools
import re
import sys
import time
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from playtester.actions.space import Action, ActionContext, ActionSpace, register_loader
from playtester.analysis import Analysis
from playtester.drive.inputs import InputFrame

HANDLERS = ("_input", "_unhandled_input", "_unhandled_key_input", "_process", "_physics_process")
MAX_PATHS = 2000  # paths per handler; more: the handler's space is partial (noted)
MAX_ENUM_ACTIONS = 8  # InputMap actions read; up to this many every subset is tried, beyond only pairs
INLINE_DEPTH = 3
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


class Executor:
    """Symbolic execution of one script's handlers."""

    def __init__(self, script: str, tree: Any, actions: list[str], consts: dict[str, Any]) -> None:
        self.z3 = _z3()
        self.script = script
        self.funcs: dict[str, Any] = {}
        self.members: set[str] = set(NODE_PROPERTIES)
        self.consts = consts
        self.actions = set(actions)
        self.used_actions: set[str] = set()
        self.game_vars: dict[str, dict[str, Any]] = {}  # z3 name -> {"script", "read", "text", "sort"}
        self.unsupported: list[tuple[int, str]] = []  # (line, what was not analysed)
        self.notes: list[str] = []
        self.reads_input = False
        self.event_keys: set[str] = set()  # keys the event handler compares event.scancode with
        self.event_vars = False  # the handler read its event as a key event (ev:* variables to eliminate)
        self.solver = self.z3.Solver()
        self.solver.set("timeout", 2000)
        self.paths = 0
        self.line = 0  # the statement being executed (for what is reported as not analysed)
        self.truncated = False
        self._collect(tree)

    # ---- the script's top level
    def _collect(self, tree: Any) -> None:
        for st in tree.children:
            kind = getattr(st, "data", None)
            if kind == "func_def":
                self.funcs[str(st.children[0].children[0])] = st
            elif kind in ("class_var_stmt", "export_stmt", "onready_stmt", "puppet_var_stmt"):
                for v in st.iter_subtrees():
                    if v.data in ("var_empty", "var_assigned", "var_typed", "var_typed_assgnd", "var_inf"):
                        self.members.add(str(v.children[0]))
                        break
            elif kind == "const_stmt":
                name = str(st.children[1])
                try:
                    self.consts[name] = self.const_value(st.children[-1])
                except Unsupported:
                    self.consts[name] = Opaque(name)
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
        header = fn.children[0]
        params = [str(a.children[0]) for a in header.iter_subtrees() if a.data.startswith("func_arg")]
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
        d = getattr(st, "data", None)
        self.line = _line(st) or self.line
        try:
            if d == "if_stmt":
                return self.if_stmt(st.children, s, depth)
            if d == "expr_stmt":
                return self.expr_stmt(st.children[0], s, depth)
            if d == "func_var_stmt":
                v = st.children[0]
                name = str(v.children[0])
                s.store[name] = self.expr(v.children[-1], s) if v.data in ("var_assigned", "var_typed_assgnd",
                                                                              "var_inf") else None
                return [s]
            if d == "return_stmt":
                if st.children:
                    s.store["@return"] = self.expr(st.children[0], s)
                s.returned = True
                return [s]
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
                return self.match_stmt(st, s, depth)
        except Unsupported as e:
            self.unsupported.append((_line(st), str(e)))
            return [s]
        self.unsupported.append((_line(st), f"statement {d}"))
        return [s]

    def if_stmt(self, branches: list[Any], s: State, depth: int) -> list[State]:
        out: list[State] = []
        rest: State | None = s
        for br in branches:
            if rest is None:
                break
            if br.data == "else_branch":
                out.extend(self.block(br.children, [rest], depth))
                rest = None
                break
            cond = self.as_bool(self.expr(br.children[0], rest))
            yes, rest = self.fork(rest, cond)
            if yes is not None:
                out.extend(self.block(br.children[1:], [yes], depth))
        if rest is not None:
            out.append(rest)
        return out

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

    def expr_stmt(self, e: Any, s: State, depth: int) -> list[State]:
        e = _unwrap(e)
        if getattr(e, "data", None) == "assnmnt_expr":
            target, op, value = e.children[0], str(e.children[1]), e.children[2]
            key = _text(target)
            v = self.expr(value, s)
            if op != "=":
                old = self.expr(target, s)
                v = self.binop(op[:-1], old, v)
            if getattr(target, "data", None) == "subscr_expr":
                s.effects.append(f"set {key} = {_show(v)}")
                return [s]
            s.store[key] = v
            for k in [k for k in s.store if k.startswith(key + ".")]:
                del s.store[k]
            return [s]
        if getattr(e, "data", None) == "standalone_call":
            name = str(e.children[0]) if not str(e.children[0]) == "." else str(e.children[1])
            if name in self.funcs and depth < INLINE_DEPTH:
                fn = self.funcs[name]
                params = [str(a.children[0]) for a in fn.children[0].iter_subtrees() if a.data.startswith("func_arg")]
                args = [self.expr(a, s) for a in _args(e)]
                saved = {p: s.store.get(p, _MISSING) for p in params}
                for p, a in zip(params, args, strict=False):
                    s.store[p] = a
                outs = self.block(fn.children[1:], [s], depth + 1)
                for o in outs:
                    o.returned = False
                    for p, old in saved.items():
                        if old is _MISSING:
                            o.store.pop(p, None)
                        else:
                            o.store[p] = old
                return outs
        v = self.expr(e, s)  # a call for its effect
        s.effects.append(f"call {_show(v)}")
        return [s]

    # ---- expressions
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
                return Opaque(name, f"get:{name}")
            if _key_const(name):
                return KeyConst(name, None, key_name(name))
            return Opaque(name)
        d = e.data
        ch = e.children
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
                v = self.binop(str(ch[i]), v, self.expr(ch[i + 1], s))
            return v
        if d == "neg_expr":
            v = self.expr(ch[-1], s)
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
                return Opaque(f"{name}()", f"call:{name}")
            if name in self.funcs:
                return Opaque(f"{name}()")  # a function of the script used as a value: not inlined here
            shown = ", ".join(_show(self.expr(a, s)) for a in args)
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
            if key in s.store:
                return s.store[key]
            if key in self.consts:
                return self._py_to_z3(self.consts[key])
            base = key.split(".")[0]
            if base in s.store:
                v = s.store[base]
                return Opaque(f"{_show(v)}.{'.'.join(key.split('.')[1:])}")
            if base in self.members:
                return Opaque(key, "get:" + key.replace(".", ":"))
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
        if d in ("array", "dict", "get_node", "node_path"):
            return Opaque(_text(e))
        if d == "type_test":
            if self.event is not None and _text(ch[0]) == self.event and _text(ch[-1]) == "InputEventKey":
                self.reads_input = self.event_vars = True
                return z3.Bool("ev:is_key")
            return Opaque(_text(e))
        return Opaque(_text(e))

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
            names = [_action_name(a, self) for a in args]
            if method in ("is_action_pressed", "is_action_just_pressed", "is_action_just_released",
                          "is_action_released", "get_action_strength", "is_action", "get_axis",
                          "get_action_raw_strength"):
                if any(n is None for n in names):  # the branch is kept, its condition left free
                    self.unsupported.append((self.line, f"{text}() with an action that is not a constant string"))
                    return Opaque(_text(e))
                for n in names:
                    if n not in self.actions:
                        self.notes.append(f"{self.script}: {text}({n!r}) names an action not in the InputMap")
                    self.used_actions.add(n)
                now = [z3.Bool(f"in:{n}") for n in names]
                was = [z3.Bool(f"was:{n}") for n in names]
                event = base != "Input"
                if method == "is_action_pressed" and not event:
                    return now[0]
                if method == "is_action_just_pressed" or (method == "is_action_pressed" and event):
                    return z3.And(now[0], z3.Not(was[0]))
                if method in ("is_action_just_released", "is_action_released"):
                    return z3.And(z3.Not(now[0]), was[0])
                if method == "is_action":
                    return now[0] != was[0]
                if method in ("get_action_strength", "get_action_raw_strength"):
                    return z3.If(now[0], z3.RealVal(1), z3.RealVal(0))
                if method == "get_axis":
                    return z3.If(now[1], z3.RealVal(1), z3.RealVal(0)) - z3.If(now[0], z3.RealVal(1), z3.RealVal(0))
            if method in ("is_key_pressed", "is_physical_key_pressed") and base == "Input" and len(args) == 1:
                key = self.expr(args[0], s)
                if isinstance(key, KeyConst):
                    self.used_actions.add("key:" + key.key)
                    return z3.Bool("in:key:" + key.key)
                self.unsupported.append((self.line, f"{text}() with a key that is not a KEY_* constant"))
                return Opaque(_text(e))
            if base != "Input" and method == "is_pressed" and not args:
                self.event_vars = True
                return z3.Bool("ev:pressed")
            if base != "Input" and method == "is_echo" and not args:
                return z3.BoolVal(False)
            if base == "Input":  # keys, mouse, joypads read directly: the branch is kept, its condition left free
                self.unsupported.append((self.line, f"Input.{method}() (only InputMap actions are modelled)"))
                return Opaque(_text(e))
            return Opaque(f"{text}()")  # event.is_pressed(), event.scancode...: not modelled
        shown = ", ".join(_show(self.expr(a, s)) for a in args)
        return Opaque(f"{text}({shown})")

    def event_cases(self, cond: Any) -> Any:
        """A path condition over the event handler's event (``ev:is_key``, ``ev:key:X``, ``ev:pressed``) read over
        the events a step can bring: a press or a release of each key compared with ``event.scancode``, or no key
        event of those keys. Without any key compared, the event's variables stay free (over-approximated)."""
        z3 = self.z3
        if not self.event_vars or not self.event_keys:
            return cond
        keys = sorted(self.event_keys)
        is_key, pressed = z3.Bool("ev:is_key"), z3.Bool("ev:pressed")
        cases = []
        for k in keys:
            now, was = z3.Bool("in:key:" + k), z3.Bool("was:key:" + k)
            for down in (True, False):
                sub = [(is_key, z3.BoolVal(True)), (pressed, z3.BoolVal(down))] + \
                    [(z3.Bool("ev:key:" + j), z3.BoolVal(j == k)) for j in keys]
                edge = z3.And(now, z3.Not(was)) if down else z3.And(z3.Not(now), was)
                cases.append(z3.And(z3.substitute(cond, *sub), edge))
        sub = [(is_key, z3.BoolVal(False)), (pressed, z3.BoolVal(False))] + \
            [(z3.Bool("ev:key:" + j), z3.BoolVal(False)) for j in keys]
        cases.append(z3.substitute(cond, *sub))  # no event of these keys
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


def _action_name(node: Any, ex: Executor) -> str | None:
    node = _unwrap(node)
    if getattr(node, "data", None) == "string":
        return _string(node)
    if not hasattr(node, "data") and str(node) in ex.consts and isinstance(ex.consts[str(node)], str):
        return ex.consts[str(node)]
    return None


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
        if k.split(".")[0] in ex.members:
            parts.append(f"{k} = {_show(s.store[k])}")
    return "; ".join(parts + s.effects)


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
    for path in gd_scripts(project):
        res = "res://" + path.relative_to(project).as_posix()
        tp = time.perf_counter()
        try:
            tree = parser.parse(path.read_text(encoding="utf-8", errors="replace"), gather_metadata=True)
        except Exception as e:  # noqa: BLE001 - a script gdtoolkit cannot parse (Godot 4 syntax, a syntax error)
            unsupported.append({"file": res, "line": 0, "what": f"not parsed as Godot 3 GDScript: "
                                f"{str(e).splitlines()[0][:160]}"})
            t_parse += time.perf_counter() - tp
            continue
        t_parse += time.perf_counter() - tp
        for name in HANDLERS:
            ex = Executor(res, tree, input_actions, {})
            if name not in ex.funcs:
                continue
            states = ex.run(name)
            for line, what in ex.unsupported:
                if {"file": res, "line": line, "what": what} not in unsupported:
                    unsupported.append({"file": res, "line": line, "what": what})
            notes.extend(ex.notes)
            truncated |= ex.truncated
            if not ex.reads_input:
                continue
            used |= ex.used_actions
            game_vars.update(ex.game_vars)
            n_paths += len(states)
            if ex.event_vars and not ex.event_keys:
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
                             "behaviours": len(groups)})
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


def _actions(behaviours: list[list[Behaviour]], names: list[str], game_vars: dict[str, Any]) -> list[dict[str, Any]]:
    """Joint behaviours (one per input handler) that some set of held actions can produce, as actions."""
    z3 = _z3()
    solver = z3.Solver()
    solver.set("timeout", 2000)
    joint: dict[tuple[int, ...], list[tuple[str, ...]]] = {}
    for held in _subsets(names):
        sub = _assign(names, held)
        options = []
        for bs in behaviours:
            ok = []
            for k, b in enumerate(bs):
                c = z3.simplify(z3.substitute(b.cond, *sub)) if sub else b.cond
                if z3.is_false(c):
                    continue
                solver.push()
                solver.add(c)
                if solver.check() != z3.unsat:
                    ok.append((k, c))
                solver.pop()
            options.append(ok)
        for combo in itertools.product(*options):
            conds = [c for _, c in combo]
            solver.push()
            solver.add(*conds)
            feasible = solver.check() != z3.unsat
            solver.pop()
            if feasible:
                joint.setdefault(tuple(k for k, _ in combo), []).append(held)
    out: list[dict[str, Any]] = []
    used_names: dict[str, int] = {}
    simp = z3.Tactic("ctx-solver-simplify")
    for key, helds in sorted(joint.items(), key=lambda kv: (len(kv[1][0]), kv[1][0], kv[0])):
        phi = z3.And(*[behaviours[h][k].cond for h, k in enumerate(key)])
        per_held = [z3.simplify(z3.substitute(phi, *_assign(names, h))) for h in helds]
        p_g = _simplify(z3.Or(*per_held), simp)
        effects = [behaviours[h][k].effect for h, k in enumerate(key)]
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


register_loader("godot_analysis", _load_space)


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
    names = input_actions(spec.target)
    result = analyze_project(spec.target, names)
    if not result["actions"] or not result["handlers"]:
        raise AnalysisError(f"analysis of {spec.text} found no input handling: no script's _input, "
                            "_unhandled_input, _process or _physics_process reads an InputMap action")
    warnings = [f"{u['file']}:{u['line']}: {u['what']}" for u in result["unsupported"]]
    warnings += [f"{n}; the space may miss actions" for n in result["stats"]["notes"]]
    if result.get("partial"):
        warnings.insert(0, f"partial action space: {result['partial']}")
    return GodotAnalysis(spec.text, result, time.perf_counter() - t0, 0.0, warnings, result["timings"]["cpu_s"])


class GodotAnalysis(Analysis):
    """An `Analysis` of a Godot project: its space is a `GodotAnalyzedSpace`."""

    def space(self) -> Any:
        return make_space(self.result, source=f"analyzed:{self.game}")
