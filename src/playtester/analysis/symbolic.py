"""Symbolic execution of a pygame game's input-handling code over Python's ``ast``, with z3.

This is Section 3.2 of the action-space paper (000_*.txt) for Python. It runs inside the game's own
process, at a frame boundary, so names resolve against the live, imported game: module globals that
hold constants and key-binding tables are folded to their values, method calls dispatch on the class
of the live object, and the main loop's locals are the roots of the game state.

Values the executor computes with:

- plain Python values (folded constants, modules, functions, classes, binding dicts);
- z3 expressions over *input* variables (``in:...``: polled keys, the frame's event, the mouse, the
  joysticks) and *game* variables (``g:N``, each a Python expression over the live game, see `GameVars`);
- `G`: an opaque game-state expression (its Python source over the roots, and its live value);
- `UNKNOWN`-like fresh values for calls that cannot be analysed (method summaries);
- small models of pygame's input objects (`KeyState`, `EventList`, `EventV`, `JoyV`).

Each explored path ends as a `Path`: its condition, split later into a game part p_g and an input part
p_i (analysis/__init__.py).
"""

from __future__ import annotations

import ast
import builtins
import inspect
import itertools
import math
import os
import random
import re
import time
import types
from dataclasses import dataclass, field
from typing import Any

import z3

from playtester.analysis.safe_expr import compile_game_expr, eval_game_expr, namespace

MAX_PATHS = 1000  # forks per frame before the analysis stops forking (follows one side) and says so
HARD_SECONDS = 10.0  # CPU time of the whole analysis (every loop) before it gives up (`AnalysisBudget`)
FORK_SHARE = 0.2  # the share of the budget during which the executor may fork
MAX_SECONDS = FORK_SHARE * HARD_SECONDS  # symbolic execution time before the executor stops forking (one side)
# past ``trim_deadline`` (the budget less the actions' reserve) each block runs at most this many unfinished paths
# through its next statement (fewer as the hard deadline comes, down to 1) and drops the rest: the paths running end
# in time, and their actions are a partial space
TRIM_KEEP = 64
LIVE_SHARE = 0.75  # of the paths a trim keeps, the share kept for paths in the live game's world (if it has them)
MAX_UNROLL = 64  # iterations of a loop over a constant collection
MAX_DEPTH = 12  # nested inlined calls
GIVE_UP_GRACE = 0.05  # share of the budget past the hard deadline, while paths are being cut, before giving up
# the last share of the budget, kept past the hard deadline for ending the paths still running and making and naming
# the actions: the budget itself (``Executor.ceiling``) is a ceiling, passed by at most one solver check (each check's
# timeout is cut to what is left of it, `Executor.ms_left`) or one statement
FINISH_SHARE = 0.1
# tests on game state a path may take against what the game does now (`Executor.fork`): a path in another game
# state (``self.state == "menu"`` while the game plays; later tests of the same values are that one assumption
# again) is followed, one that also assumes other, unrelated game values differ is not
MAX_DEVIATED = 1
TYPED_KEYS = tuple(range(ord("0"), ord("9") + 1)) + tuple(range(ord("a"), ord("z") + 1))  # one path each when typed
MAX_CHAR_FORKS = 64  # characters of a container a typed character is tested against, one path each
_CHAR_TESTS = ("isdigit", "isdecimal", "isnumeric", "isalpha", "isalnum", "isspace", "isprintable", "islower")
GRID = 4  # mouse positions are forked into a GRID x GRID screen grid (the paper's choice)


@dataclass(frozen=True)
class G:
    """A game-state expression: ``src`` is Python over the roots (``L`` loop locals, ``M[i]`` module
    globals, ``S`` an instance, ``H`` the held inputs); None when it cannot be evaluated at play time."""

    src: str | None
    live: Any = None

    def __repr__(self) -> str:
        return f"G({self.src})"


class _Fresh:
    """A value nothing is known about (a summarized call whose result depends on inputs)."""

    def __repr__(self) -> str:
        return "?"


@dataclass(frozen=True)
class KeyState:
    """The result of ``key.get_pressed()`` (just=None), ``get_just_pressed`` ('down'), ``get_just_released``."""

    just: str | None = None


@dataclass(frozen=True)
class EventList:
    """The result of ``event.get(...)``: at most one symbolic event per frame (types: allowed types)."""

    types: tuple[int, ...] | None = None


@dataclass(frozen=True)
class EventV:
    """The frame's symbolic event."""


@dataclass(frozen=True)
class JoyV:
    """A joystick object (index)."""

    index: int


@dataclass(frozen=True)
class Vec:
    """A 2-D vector or point (``Vector2`` model, positions): components are values."""

    x: Any
    y: Any


@dataclass(frozen=True)
class SymStr:
    """A string derived from an input: ``pg.key.name(event.key)`` (kind ``key``) or
    ``pg.event.event_name(event.type)`` (kind ``event``), with a constant prefix and suffix (``"on_" +
    name``) and a case change (``.lower()``). ``getattr(obj, s)`` forks once per attribute it can name.
    Kind ``char``: the character a key types, ``event.unicode`` or ``chr(event.key)`` (a printable key's code
    is its character's, unshifted), compared with characters, tested with ``in "0123456789"`` (one path per
    character) or ``.isdigit()``."""

    var: Any
    kind: str
    prefix: str = ""
    suffix: str = ""
    case: str = ""


@dataclass
class FuncRef:
    """A game function or method to inline (``self_value`` bound for methods)."""

    fn: types.FunctionType
    self_value: Any = None
    has_self: bool = False


@dataclass
class State:
    """One execution path: its condition and the local variables of each inlined call."""

    pc: list[Any] = field(default_factory=list)
    env: dict[str, Any] = field(default_factory=dict)
    forked: dict[str, Any] = field(default_factory=dict)  # fork points already decided (mouse cell, axes)
    reads: set[str] = field(default_factory=set)  # input variables read on this path
    depth: int = 0
    ended: bool = False  # a raise ended the frame
    ev_hit: bool = False  # a branch on the frame's event took the side its condition names
    # a branch on another input (a held key, the mouse) took the side its condition names: in the body of
    # the loop over ``event.get()`` (``if command[K_UP]:`` there), the event then made a difference
    in_hit: bool = False
    decisions: list[tuple[str, int, bool]] = field(default_factory=list)  # input-dependent ifs taken
    # input-derived values stored into live game objects this frame, (id(object), attribute) -> value: they
    # outlive the inlined call that stored them (``self.keys = key.get_pressed()`` in one method, read in
    # another)
    heap: dict[tuple[int, str], Any] = field(default_factory=dict)
    # past the frame's last input read (`Executor.run_block`): nothing the rest of the frame does can read an
    # input or test one, so it could only split this path by game state into actions with the same inputs
    done: bool = False
    # the game values (``g:N``) this path assumes to differ from what they are now (`Executor.fork`)
    deviated: frozenset[str] = frozenset()
    deviations: int = 0  # how many unrelated assumptions (tests sharing no game value) those are

    def copy(self) -> State:
        return State(list(self.pc), dict(self.env), dict(self.forked), set(self.reads), self.depth, self.ended,
                     self.ev_hit, in_hit=self.in_hit, decisions=list(self.decisions), heap=dict(self.heap),
                     done=self.done, deviated=self.deviated, deviations=self.deviations)



# ------------------------------------------------------------------------------------ game variables
class GameVars:
    """z3 variables standing for game-state expressions, and how to evaluate each at play time.

    kind: ``truth`` (bool(src)), ``int``, ``real``, ``enum`` (a string compared with constants; codes
    in ``enums``), ``isnone`` (src is None), ``held_key`` / ``held_button`` (the previous frame's inputs).
    """

    def __init__(self) -> None:
        self.by_key: dict[tuple[str, str], Any] = {}
        self.info: dict[str, dict[str, Any]] = {}
        self.enums: dict[str, dict[str, int]] = {}

    def var(self, src: str, kind: str, roots: str = "", live: Any = None) -> Any:
        key = (src, kind)
        v = self.by_key.get(key)
        if v is None:
            name = f"g:{len(self.by_key)}"
            if kind in ("truth", "isnone", "held_key", "held_button"):
                v = z3.Bool(name)
            elif kind in ("int", "enum"):
                v = z3.Int(name)
            else:
                v = z3.Real(name)
            self.by_key[key] = v
            self.info[name] = {"src": src, "kind": kind}
            if kind == "enum":
                self.enums[name] = {}
        return v

    def enum_code(self, var: Any, value: str) -> int:
        table = self.enums[str(var)]
        if value not in table:
            table[value] = len(table)
        return table[value]


UNSAFE_CALL_NAMES = {"play", "fire", "kill", "add", "remove", "append", "pop", "update", "draw", "blit", "post",
                     "quit", "exit", "set_mode", "fill", "stop", "move_ip", "clamp_ip", "inflate_ip", "clear",
                     # frame boundaries: calling one from the analysis would end a frame of the live game
                     "tick", "flip", "pump", "wait", "delay"}
PURE_BUILTINS = {abs, min, max, len, int, float, bool, round, isinstance, hasattr, any, all, sum, str, tuple,
                 sorted, divmod, pow}
# methods of a folded constant (dict, tuple, frozenset, str) that only read it
PURE_METHODS = {"items", "keys", "values", "get", "index", "count", "copy", "lower", "upper", "startswith",
                "endswith", "strip", "split", "isdisjoint", "issubset", "issuperset", "union", "intersection"}


def _pure_module_callee(f: ast.Attribute, globs: dict[str, Any]) -> bool:
    """``math.hypot``, ``pygame.Rect``, ``pg.math.Vector2``: a dotted name from the module's globals that is a
    class or a function of a pure standard module (so calling it changes no game state)."""
    parts: list[str] = []
    node: ast.expr = f
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in globs or not isinstance(globs[node.id], types.ModuleType):
        return False
    obj: Any = globs[node.id]
    for part in reversed(parts):
        obj = getattr(obj, part, None)
        if obj is None:
            return False
    return isinstance(obj, type) or getattr(obj, "__module__", None) in ("math", "operator", "cmath")


class AnalysisBudget(Exception):  # noqa: N818 - reads as what ran out
    """The analysis passed its hard budget of CPU time (``analysis_seconds``) and gave up."""


class Executor:
    """Explores the paths of one frame of the game's input handling (see the module docstring)."""

    def __init__(self, *, pygame: Any, game_files: set[str], reaches_input: Any, screen: tuple[int, int],
                 roots: dict[str, Any], module_index: dict[str, int], rebound: dict[str, set[str]] | None = None,
                 joysticks: int = 0, blacklist: frozenset[int] = frozenset()) -> None:
        self.pg = pygame
        self.game_files = game_files
        self.reaches_input = reaches_input  # function(code) -> bool, from the call graph
        self.screen = screen
        self.roots = roots  # root name -> live namespace ("L": loop locals, "M0": module globals ...)
        self.module_index = module_index  # module file -> index in M
        self.rebound = rebound or {}  # module file -> globals the game assigns at run time (not constants)
        self.gv = GameVars()
        self.unsupported: dict[tuple[str, int], str] = {}
        self.notes: list[str] = []
        self.inlined: set[str] = set()
        self.summarized: set[str] = set()
        self.truncated = False
        self._side_rng = random.Random(0)  # past the fork budget: which side of an input test a path follows
        self.merged_paths = 0  # paths folded into others by merge_locals
        self._fresh = itertools.count()
        self._asts: dict[types.CodeType, ast.FunctionDef] = {}
        self._pure: dict[types.CodeType, bool] = {}
        self.kept_stmts = 0
        self.sliced_stmts = 0
        ev = pygame
        self.event_types = {ev.KEYDOWN, ev.KEYUP, ev.MOUSEBUTTONDOWN, ev.MOUSEBUTTONUP, ev.MOUSEMOTION}
        if joysticks:
            self.event_types |= {ev.JOYAXISMOTION, ev.JOYBUTTONDOWN, ev.JOYBUTTONUP, ev.JOYHATMOTION}
        self.blacklist = blacklist
        self.max_forks = MAX_PATHS
        self.max_seconds = MAX_SECONDS
        self.partial: str | None = None  # set when the budget cut the actions phase short
        self.live_ns: dict[str, Any] | None = None  # the roots as they are now (set by analysis.live)
        self.instances: list[Any] = []  # S[k]: one live instance per instance root
        self._live_cache: dict[str, Any] = {}
        self._side_cache: dict[int, tuple[Any, Any]] = {}  # condition id -> (condition, its live view)
        self.assumed: set[int] = set()  # conditions followed on the live state after the fork budget
        self.deadline = time.process_time() + MAX_SECONDS  # CPU time: the game's clocks are virtual
        self.hard_deadline = time.process_time() + HARD_SECONDS  # past it: give up (AnalysisBudget)
        self.budget_s = HARD_SECONDS  # the whole budget (the actions phase keeps a share of it)
        self.trim_deadline = self.hard_deadline  # past it: unfinished paths are dropped (set by analysis.live)
        self.ceiling = self.hard_deadline  # the end of the budget: no action is made or named past it (analysis.live)
        self.dropped_paths = 0
        self._var_cache: dict[int, set[str]] = {}
        # game values that are a live rect's layout (``g:N`` -> ``g:N == value now``), `rect_contains`: the paths'
        # feasibility is checked under them
        self.layout: dict[str, Any] = {}
        self._sat_cache: dict[tuple[int, ...], bool] = {}
        self._solver = z3.Solver()
        self._solver.set("timeout", 25)  # nonlinear conditions (vector lengths) may not finish: unknown counts as feasible
        self._keep: list[Any] = []
        self._simple: dict[int, tuple[Any, Any, int, Any]] = {}  # test id -> (test, simplified, its id, negation)
        self._true_id, self._false_id = z3.BoolVal(True).get_id(), z3.BoolVal(False).get_id()  # hash-consed
        self._unused: ast.expr | None = None  # the call of the expression statement running now
        self.input_apis = self._input_apis()
        # the input horizon: whether the code after the statement running now (the rest of its blocks, a loop's
        # body again, the caller's rest after an inlined call) may read inputs; False at the loop body's end
        self._after = False
        self._cur: ast.stmt | None = None  # the statement running now
        self._call_node: ast.Call | None = None  # the call being inlined
        self._suffix: dict[tuple[int, int], bool] = {}
        self.horizon_cuts = 0  # paths ended at the input horizon
        self.cut_paths = 0  # paths ended where they were at the hard deadline (`_cut_at_deadline`)
        self._first_cut: str | None = None
        # a receiver that is one of a dict's state objects (``self.state`` picked from ``self.state_dict``): its
        # source -> (the dict's source, the dict); see `each_state`
        self._state_picks: dict[str, tuple[str, dict[Any, Any]]] = {}
        self._state_dicts: dict[tuple[int, str], str | None] = {}  # (id(owner), attribute) -> its state dict's name
        self._state_dicts_seen: set[str] = set()  # loop locals and globals looked up in `_root_state_dict`

    # ---- input API table (the live, virtualized pygame functions)
    def _input_apis(self) -> dict[int, str]:
        pg = self.pg
        table = {
            pg.key.get_pressed: "key.get_pressed", pg.event.get: "event.get", pg.event.poll: "event.poll",
            pg.event.wait: "event.wait", pg.mouse.get_pos: "mouse.get_pos", pg.mouse.get_pressed: "mouse.get_pressed",
            pg.mouse.get_rel: "mouse.get_rel", pg.key.get_mods: "key.get_mods",
            pg.joystick.Joystick: "joystick.Joystick",
        }
        for name in ("get_just_pressed", "get_just_released"):
            if hasattr(pg.key, name):
                table[getattr(pg.key, name)] = f"key.{name}"
        table[pg.joystick.get_count] = "joystick.get_count"
        return {id(k): v for k, v in table.items()}

    def api_name(self, obj: Any) -> str | None:
        return self.input_apis.get(id(obj))

    # ---- variables
    def fresh(self, sort: str = "bool") -> Any:
        n = next(self._fresh)
        return z3.Bool(f"u:{n}") if sort == "bool" else z3.Real(f"u:{n}")

    def inp(self, st: State, name: str, sort: str = "int") -> Any:
        st.reads.add(name)
        if sort == "bool":
            return z3.Bool(f"in:{name}")
        if sort == "real":
            return z3.Real(f"in:{name}")
        return z3.Int(f"in:{name}")

    def note(self, node: ast.AST, fn_file: str, what: str) -> None:
        self.unsupported.setdefault((fn_file, getattr(node, "lineno", 0)), what)

    # ---- feasibility
    def feasible(self, pc: list[Any]) -> bool:
        """Is the path condition satisfiable? The rest is known satisfiable, so only the last conjunct and the
        conjuncts linked to it through shared variables (transitively) are solved: the others constrain
        independent variables (constraint independence, as KLEE does)."""
        if not pc:
            return True
        last = pc[-1]
        names = set(_names(last))
        rest = []
        for c in pc[:-1]:
            cv = self._var_cache.get(c.get_id())
            if cv is None:
                cv = self._var_cache[c.get_id()] = _names(c)
                self._keep.append(c)  # ids stay unique while the expression lives
            rest.append((c, cv))
        linked = [last]
        grew = True
        while grew and rest:
            grew = False
            left = []
            for c, cv in rest:
                if cv & names:
                    linked.append(c)
                    names |= cv
                    grew = True
                else:
                    left.append((c, cv))
            rest = left
        if self.layout:
            linked += [pin for n in names if (pin := self.layout.get(n)) is not None]
        todo = sorted(linked, key=lambda c: c.get_id())
        key = tuple(c.get_id() for c in todo)
        got = self._sat_cache.get(key)
        if got is None:
            self._solver.push()
            self._solver.add(*todo)
            got = self._solver.check() != z3.unsat
            self._solver.pop()
            self._sat_cache[key] = got
            self._keep.extend(todo)
        return got

    def fork(self, st: State, cond: Any) -> list[tuple[State, bool]]:
        """Split ``st`` on a z3 condition: the feasible sides, each with its condition added."""
        cid = cond.get_id()
        got = self._simple.get(cid)
        if got is None:  # the same test comes once per path: simplify and negate it once
            simple = z3.simplify(cond)
            got = self._simple[cid] = (cond, simple, simple.get_id(), z3.Not(simple))
        _, cond, sid, neg = got
        if sid == self._true_id:
            return [(st, True)]
        if sid == self._false_id:
            return [(st, False)]
        if self.truncated:
            live = self._live_view(cond)
            lid = live.get_id()
            if lid in (self._true_id, self._false_id):  # past the budget: follow the side the game takes now
                side = lid == self._true_id
                s2 = st.copy()
                taken = cond if side else neg
                s2.pc = [*st.pc, taken]
                # an assumption about this moment, not a validity condition: kept out of p_g
                self._keep.append(taken)
                self.assumed.add(taken.get_id())
                return [(s2, side)]
            # a test on inputs and game state (``aim > T and self.cooldown == 0``): the game's part is taken
            # as it is now, the rest stays a condition on the inputs (else the one side explored would make
            # every later path need this moment's game state in p_g)
            cond, neg = live, z3.Not(live)
        out = []
        names = _var_map(cond)
        on_event = any(n.startswith("in:ev_") for n in names)
        on_input = not on_event and any(n.startswith("in:") for n in names)
        live_side, one_side = None, False
        if not self.truncated:
            live_side, one_side = self._deviation(st, cond, names, on_event or on_input)
        sides = ((True, cond), (False, neg))
        if self.truncated and self._side_rng.random() < 0.5:
            # past the fork budget a path follows one side of a test on inputs: a seeded coin picks it, so the
            # paths kept are a spread sample; always the first (pressed) side made every action hold every
            # input tested late in the frame (all four direction keys at once: a player who does not move)
            sides = sides[::-1]
        skipped = False
        for side, c in sides:
            deviated, deviations = st.deviated, st.deviations
            if live_side is not None and side != live_side:
                gnames = {n for n in names if n.startswith("g:")}
                if not gnames & st.deviated:
                    deviations += 1
                    # a test on an input and game state together (``event.key == K_LEFT and heading != "right"``)
                    # is the input's own condition: its side where the input acts is followed however many
                    # values the path assumed before (it lost a snake's LEFT on the title, where the play mode
                    # was assumed already), and counts as assumed for the tests after it
                    if deviations > MAX_DEVIATED and not (on_event or on_input):
                        skipped = True
                        continue  # a second, unrelated game state assumed other than it is now: not followed
                deviated = st.deviated | gnames
            pc = [*st.pc, c]
            if self.feasible(pc):
                s2 = st.copy()
                s2.pc = pc
                if on_event and side:
                    s2.ev_hit = True
                elif on_input and side:
                    s2.in_hit = True
                s2.deviated, s2.deviations = deviated, deviations
                out.append((s2, side))
                if self.truncated or one_side:
                    break
        if skipped and len(out) == 1 and not (on_event or on_input):
            # the side the live game takes was followed alone because the other would be a second assumed game
            # value: it is how the analysis chose to go on, not a condition for the action. Kept in p_g it made
            # pygame-brickbreaker's restart key (KEYDOWN r while game_over) valid only with the ball still on
            # screen, which never holds once the game is over (the ball fell), so no agent could restart. A
            # wrapper of its own (z3 shares equal terms) keeps it out of p_g here only, not where it is forked
            s2 = out[0][0]
            marked = z3.And(s2.pc[-1], z3.BoolVal(True))
            s2.pc[-1] = marked
            self._keep.append(marked)
            self.assumed.add(marked.get_id())
        if len(out) == 2:
            self._count_fork()
        return out

    def _deviation(self, st: State, cond: Any, names: dict[str, Any], on_input: bool) -> tuple[bool | None, bool]:
        """The side of a test the game takes now when its game state alone decides it (None when the live game
        cannot tell, or the inputs decide), and whether to follow one side only. Game state may differ from now
        in a later frame (p_g says in which), so both sides are followed, but a path may assume at most
        `MAX_DEVIATED` game values other than they are now (`State.deviated`): ``if self.controller and
        self.controller.get_init():`` with no controller attached, or ``if self.paused and event.type ==
        MOUSEMOTION`` while the game plays, are followed into the world where they hold, but there a test on
        game state the live game cannot evaluate (the absent controller's methods, unknown values) takes one
        side: each would double every path of a world that exists only by assumption, and none of them is a
        condition on an input. Tests on inputs fork everywhere."""
        gnames = [n for n in names if n.startswith("g:")]
        if not gnames:
            return None, bool(st.deviated) and not on_input  # unknown values only, in an assumed world: one side
        live = self._live_view(cond)
        lid = live.get_id()
        if lid in (self._true_id, self._false_id):
            return lid == self._true_id, False
        return None, bool(st.deviated) and not on_input

    def _live_view(self, cond: Any) -> Any:
        """``cond`` with every game value the live game can give replaced by it, simplified (memoized: past
        the budget the same game-state test comes once per input combination)."""
        got = self._side_cache.get(cond.get_id())
        if got is None:
            got = self._side_cache[cond.get_id()] = (cond, self._live_view_now(cond))  # cond kept: its id stays
        return got[1]

    def _live_view_now(self, cond: Any) -> Any:
        subs = []
        for n, v in _var_map(cond).items():
            if not n.startswith("g:"):
                continue
            val = self._live_value(n)
            if val is _NOPE:
                continue
            try:
                subs.append((v, z3.BoolVal(bool(val)) if z3.is_bool(v) else
                             (z3.IntVal(int(val)) if v.is_int() else z3.RealVal(float(val)))))
            except (TypeError, ValueError, z3.Z3Exception):
                continue
        return z3.simplify(z3.substitute(cond, *subs)) if subs else cond

    def _live_value(self, name: str) -> Any:
        if name in self._live_cache:
            return self._live_cache[name]
        info = self.gv.info.get(name)
        val: Any = _NOPE
        if info is not None and self.live_ns is not None:
            try:
                code = compile_game_expr(info["src"], f"game variable {name}")
                ns = namespace(**{k: v for k, v in self.live_ns.items() if k in ("L", "M", "H")}, S=self.instances)
                val = eval_game_expr(code, ns)
                if info["kind"] == "enum":
                    val = self.gv.enums[name].get(val, -1)
            except Exception:  # noqa: BLE001 - not evaluable now
                val = _NOPE
        self._live_cache[name] = val
        return val

    def _count_fork(self) -> None:
        self.fork_budget = getattr(self, "fork_budget", 0) + 1
        if self.truncated:
            return
        if self.fork_budget > self.max_forks:
            self.truncated = True
            self.notes.append(f"more than {self.max_forks} forks in one frame: later branches follow one side only")
        elif self.fork_budget % 64 == 0 and time.process_time() > self.deadline:
            self.truncated = True
            self.notes.append(f"symbolic execution passed {self.max_seconds:g} s: later branches follow one side only")

    # ---- conversions of values to z3
    def to_bool(self, st: State, v: Any, node: ast.AST, file: str) -> list[tuple[State, Any]]:
        """The truth of ``v`` as a z3 Bool or a Python bool (forking on game values that need it)."""
        if isinstance(v, z3.BoolRef):
            return [(st, v)]
        if isinstance(v, z3.ArithRef):
            return [(st, v != 0)]
        if isinstance(v, G):
            if v.src is None:
                return [(st, self.fresh())]
            if v.live is None and not v.src.endswith(")"):
                return [(st, self.gv.var(f"({v.src}) is not None", "truth"))]
            return [(st, self.gv.var(f"bool({v.src})", "truth"))]
        if isinstance(v, _Fresh):
            return [(st, self.fresh())]
        if isinstance(v, Vec):
            return [(st, True)]
        if isinstance(v, SymStr) and v.kind == "char":  # a key that types a character (else "")
            return [(st, True if v.prefix or v.suffix else z3.And(v.var >= 32, v.var < 127))]
        if isinstance(v, (KeyState, EventList, EventV, JoyV, FuncRef)):
            return [(st, True)]
        try:
            return [(st, bool(v))]
        except Exception:  # noqa: BLE001 - truth of a strange object: unknown
            return [(st, self.fresh())]

    def to_num(self, st: State, v: Any, like: Any = None) -> Any:
        """``v`` as a z3 arithmetic term (or a Python number)."""
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, (int, float)):
            return v
        if isinstance(v, z3.BoolRef):
            return z3.If(v, 1, 0)
        if isinstance(v, z3.ArithRef):
            return v
        if isinstance(v, G) and v.src is not None:
            live = v.live
            if isinstance(live, bool):
                return z3.If(self.gv.var(f"bool({v.src})", "truth"), 1, 0)
            if isinstance(live, int):
                return self.gv.var(v.src, "int")
            return self.gv.var(v.src, "real")
        return self.fresh("real")

    def compare(self, st: State, op: ast.cmpop, a: Any, b: Any) -> Any:
        """A comparison as a z3 Bool or a Python bool."""
        if isinstance(op, (ast.Is, ast.IsNot)):
            if b is None and isinstance(a, tuple) and a and isinstance(a[0], str) and a[0] in ("method", "joymethod"):
                return isinstance(op, ast.IsNot)  # a handler picked from a table is never None
            if isinstance(a, G) and a.src is not None and (b is None or isinstance(b, (bool, int))):
                r = self.gv.var(f"({a.src}) is {b!r}", "isnone")
                return r if isinstance(op, ast.Is) else z3.Not(r)
            if _concrete(a) and _concrete(b):
                return (a is b) if isinstance(op, ast.Is) else (a is not b)
            if isinstance(a, (z3.ExprRef, Vec, EventV)) and b is None:
                return isinstance(op, ast.IsNot)
            return self.fresh()
        if isinstance(op, (ast.In, ast.NotIn)):
            r = self.member(st, a, b)
            return z3.Not(r) if isinstance(op, ast.NotIn) and isinstance(r, z3.BoolRef) else (
                (not r) if isinstance(op, ast.NotIn) else r)
        if isinstance(a, Vec) or isinstance(b, Vec):
            if isinstance(op, (ast.Eq, ast.NotEq)):
                av, bv = _as_vec(a), _as_vec(b)
                if av is None or bv is None:
                    return isinstance(op, ast.NotEq)
                eq = z3.And(self._eq(st, av.x, bv.x), self._eq(st, av.y, bv.y))
                return eq if isinstance(op, ast.Eq) else z3.Not(eq)
            return self.fresh()
        for x, y in ((a, b), (b, a)):  # a key / event name compared with a constant: a condition on the code
            if isinstance(x, SymStr) and isinstance(y, str) and isinstance(op, (ast.Eq, ast.NotEq)):
                eq = self.symstr_eq(x, y)
                return eq if isinstance(op, ast.Eq) else (z3.Not(eq) if isinstance(eq, z3.BoolRef) else not eq)
        # strings as enums
        for x, y in ((a, b), (b, a)):
            if isinstance(y, str) and isinstance(x, G) and x.src is not None:
                var = self.gv.var(x.src, "enum")
                eq = var == self.gv.enum_code(var, y)
                if isinstance(op, ast.Eq):
                    return eq
                if isinstance(op, ast.NotEq):
                    return z3.Not(eq)
        if _concrete(a) and _concrete(b):
            try:
                return _PYCMP[type(op)](a, b)
            except Exception:  # noqa: BLE001
                return self.fresh()
        if isinstance(a, tuple) or isinstance(b, tuple):
            if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and isinstance(op, (ast.Eq, ast.NotEq)):
                eq = z3.And(*[_as_bool(self._eq(st, x, y)) for x, y in zip(a, b, strict=True)]) if a else z3.BoolVal(True)
                return eq if isinstance(op, ast.Eq) else z3.Not(eq)
            return self.fresh()
        if isinstance(op, (ast.Eq, ast.NotEq)):
            eq = self._eq(st, a, b)
            return eq if isinstance(op, ast.Eq) else (z3.Not(eq) if isinstance(eq, z3.BoolRef) else not eq)
        x, y = self.to_num(st, a), self.to_num(st, b)
        x, y = _unify(x, y)
        return _PYCMP[type(op)](x, y)

    def _eq(self, st: State, a: Any, b: Any) -> Any:
        if isinstance(a, SymStr) and isinstance(b, str) or isinstance(b, SymStr) and isinstance(a, str):
            return self.symstr_eq(a, b) if isinstance(a, SymStr) else self.symstr_eq(b, a)
        if isinstance(a, z3.BoolRef) or isinstance(b, z3.BoolRef):
            if isinstance(a, (bool, z3.BoolRef)) and isinstance(b, (bool, z3.BoolRef)):
                return a == b
        if isinstance(a, G) and b is None or isinstance(b, G) and a is None:
            g = a if isinstance(a, G) else b
            return self.gv.var(f"({g.src}) is None", "isnone") if g.src else self.fresh()
        if a is None or b is None:
            return (a is None) and (b is None) if _concrete(a) and _concrete(b) else z3.BoolVal(False)
        if (isinstance(a, G) and isinstance(b, G)) and (a.src is None or b.src is None):
            return self.fresh()
        if isinstance(a, G) and not isinstance(a.live, (int, float)) and isinstance(b, G) and a.src and b.src:
            return self.gv.var(f"({a.src}) == ({b.src})", "truth")
        x, y = _unify(self.to_num(st, a), self.to_num(st, b))
        return x == y

    def member(self, st: State, item: Any, container: Any) -> Any:
        if isinstance(container, G) and _handler_table(container.live) and _symbolic(item):
            terms = [_as_bool(self._eq(st, item, k)) for k in container.live if isinstance(k, (int, str, bool))]
            return z3.Or(*terms) if terms else False  # a handler table's keys: fixed while the game runs
        if isinstance(container, G):
            if isinstance(item, G) and item.src and container.src:
                return self.gv.var(f"({item.src}) in ({container.src})", "truth")
            return self.fresh()
        if isinstance(container, (dict, tuple, list, set, frozenset, range, str)):
            if _concrete(item):
                try:
                    return item in container
                except TypeError:
                    return False
            keys = list(container)
            if not keys:
                return False
            if len(keys) > 512:
                return self.fresh()
            terms = [_as_bool(self._eq(st, item, k)) for k in keys if isinstance(k, (int, float, str, bool))]
            return z3.Or(*terms) if terms else self.fresh()
        if isinstance(container, KeyState):
            return self.fresh()
        return self.fresh()

    def typed(self, st: State, var: Any) -> list[State]:
        """A key code taken as the character it types (``chr(event.key)``, ``text += event.unicode``): one path
        per digit and letter key (the text a player types differs by them: an angle, a name) and one for any
        other key, once per path (``forked["typed"]``)."""
        if "typed" in st.forked:
            return [st]
        out: list[State] = []
        taken = []
        for code in TYPED_KEYS:
            if code in self.blacklist:
                continue
            cond = var == code
            taken.append(cond)
            pc = [*st.pc, cond]
            if self.feasible(pc):
                s2 = st.copy()
                s2.pc = pc
                s2.forked["typed"] = chr(code)
                s2.ev_hit = s2.ev_hit or any(n.startswith("in:ev_") for n in _var_map(cond))
                out.append(s2)
        pc = [*st.pc, z3.Not(z3.Or(*taken))] if taken else list(st.pc)
        if self.feasible(pc):
            s3 = st.copy()
            s3.pc = pc
            s3.forked["typed"] = "other"
            out.append(s3)
        if len(out) > 1:
            self._count_fork()
        return out

    def char_member(self, st: State, item: Any, container: Any, negate: bool) -> list[tuple[State, Any]] | None:
        """``ch in "0123456789"`` for a typed character ``ch``: one path per character of the container (the
        action types that character; a game value such as the prompt's ``allowed`` string is read live, and its
        containing the character is the path's game condition), and one where it is none of them. None when
        ``item`` is no typed character or the container no string (or list of characters) known now."""
        if not (isinstance(item, SymStr) and item.kind == "char" and not item.prefix and not item.suffix):
            return None
        live = container.live if isinstance(container, G) else container
        src = container.src if isinstance(container, G) else None
        if isinstance(container, G) and src is None:
            return None
        if isinstance(live, str):
            chars = list(dict.fromkeys(live))
        elif isinstance(live, (list, tuple, set, frozenset)) and all(isinstance(c, str) and len(c) == 1 for c in live):
            chars = sorted(set(live))
        else:
            return None
        if not chars or len(chars) > MAX_CHAR_FORKS:
            return None
        out: list[tuple[State, Any]] = []
        taken = []
        for ch in chars:
            code = _char_code(ch, item.case, self.blacklist)
            if code is None:
                continue
            cond = item.var == code
            if src is not None:  # the live string may change (another prompt): its holding ch is game state
                cond = z3.And(cond, self.gv.var(f"({ch!r}) in ({src})", "truth"))
            taken.append(cond)
            pc = [*st.pc, cond]
            if self.feasible(pc):
                s2 = st.copy()
                s2.pc = pc
                s2.ev_hit = s2.ev_hit or any(n.startswith("in:ev_") for n in _var_map(cond))
                out.append((s2, not negate))
        rest = z3.Not(z3.Or(*taken)) if taken else z3.BoolVal(True)
        pc = [*st.pc, rest]
        if self.feasible(pc):
            s3 = st.copy()
            s3.pc = pc
            out.append((s3, negate))
        if len(out) > 1:
            self._count_fork()
        return out

    # ---- strings named after inputs (``pg.key.name(event.key)``)
    def symstr_code(self, s: SymStr, text: str) -> int | None:
        """The key (event type) whose name, with ``s``'s prefix, suffix and case, is ``text``; None if none."""
        if not (text.startswith(s.prefix) and text.endswith(s.suffix)) or len(text) < len(s.prefix) + len(s.suffix):
            return None
        middle = text[len(s.prefix):len(text) - len(s.suffix)]
        if s.kind == "char":
            return _char_code(middle, s.case, self.blacklist)
        if s.kind == "key":
            names = self._key_names()
        else:
            names = {self.pg.event.event_name(t): t for t in self.event_types}
        for name, code in names.items():
            cased = name.upper() if s.case == "upper" else name.lower() if s.case == "lower" else name
            if cased == middle:
                return code
        return None

    def _key_names(self) -> dict[str, int]:
        got = getattr(self, "_key_name_table", None)
        if got is None:
            got = {}
            for attr in dir(self.pg):
                if attr.startswith("K_"):
                    code = getattr(self.pg, attr)
                    if isinstance(code, int) and code not in self.blacklist:
                        name = self.pg.key.name(code)
                        if name:
                            got.setdefault(name, code)
            self._key_name_table = got
        return got

    def symstr_eq(self, s: SymStr, text: str) -> Any:
        code = self.symstr_code(s, text)
        return s.var == code if code is not None else False

    def symstr_getattr(self, st: State, obj: Any, s: SymStr, default: Any, has_default: bool,
                       node: ast.AST, file: str) -> list[tuple[State, Any]]:
        """``getattr(obj, "on_" + key_name, default)``: one path per attribute of ``obj`` a key (event type)
        can name, under that input condition; the rest get the default (or end: AttributeError)."""
        live = obj.live if isinstance(obj, G) else obj
        out: list[tuple[State, Any]] = []
        rest: State | None = st
        names = [n for n in dir(type(live)) + list(getattr(live, "__dict__", {})) if not n.startswith("__")]
        for name in dict.fromkeys(names):
            code = self.symstr_code(s, name)
            if code is None or rest is None:
                continue
            nxt = None
            for s2, side in self.fork(rest, s.var == code):
                if side:
                    out.append((s2, self.attr(s2, obj, name, node, file)))
                else:
                    nxt = s2
            rest = nxt
        if rest is not None:
            if has_default:
                out.append((rest, default))
            else:
                rest.ended = True
                out.append((rest, None))
        return out

    # ---- functions
    def fn_ast(self, fn: types.FunctionType) -> ast.FunctionDef | None:
        code = fn.__code__
        if code in self._asts:
            return self._asts[code]
        tree = None
        try:
            src = inspect.getsource(fn)
            import textwrap

            mod = ast.parse(textwrap.dedent(src))
            node = mod.body[0]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                ast.increment_lineno(mod, code.co_firstlineno - node.lineno)
                tree = node
        except (OSError, TypeError, SyntaxError, IndexError):
            tree = None
        self._asts[code] = tree  # type: ignore[assignment]
        return tree

    def is_game_fn(self, fn: Any) -> bool:
        return isinstance(fn, types.FunctionType) and fn.__code__.co_filename in self.game_files

    def _reads_only_constants(self, fn: types.FunctionType) -> bool:
        """Every global ``fn`` reads is a builtin, a module or a folded constant (never game state), so its
        value depends on its arguments only."""
        g = fn.__globals__
        rebound = self.rebound.get(g.get("__file__", ""), ())
        for name in fn.__code__.co_names:
            if name in g:
                v = g[name]
                if name in rebound or not (_foldable(v) or isinstance(v, types.ModuleType)):
                    return False
            elif not hasattr(builtins, name):
                return False
        return True

    def is_pure(self, fn: types.FunctionType, depth: int = 0) -> bool:
        """A conservative check that calling ``fn`` changes nothing (so a mask may call it)."""
        code = fn.__code__
        if code in self._pure:
            return self._pure[code]
        self._pure[code] = False  # recursion: assume impure
        tree = self.fn_ast(fn)
        ok = tree is not None and depth < 3
        if ok:
            for node in ast.walk(tree):
                if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    if any(not isinstance(t, (ast.Name, ast.Tuple)) for t in targets):
                        ok = False
                elif isinstance(node, (ast.Global, ast.Nonlocal, ast.Delete, ast.Yield, ast.YieldFrom, ast.Await)):
                    ok = False
                elif isinstance(node, ast.Call):
                    f = node.func
                    name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
                    if name in UNSAFE_CALL_NAMES or name.startswith("set_"):
                        ok = False
                    elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
                        meth = getattr(_owner_class(fn), name, None) if _owner_class(fn) else None
                        if isinstance(meth, types.FunctionType) and not self.is_pure(meth, depth + 1):
                            ok = False
                    elif isinstance(f, ast.Attribute) and name not in PURE_METHODS and not name.startswith(
                            ("get_", "is_", "has_", "collide", "contains", "copy")) \
                            and not _pure_module_callee(f, fn.__globals__):
                        ok = False  # another object's method (``scene.tick()``): unknown, so not pure
                    elif isinstance(f, ast.Name):
                        target = fn.__globals__.get(f.id, getattr(builtins, f.id, None))
                        if isinstance(target, types.FunctionType) and self.is_game_fn(target):
                            ok = ok and self.is_pure(target, depth + 1)
                        elif target not in PURE_BUILTINS and not isinstance(target, type) and \
                                getattr(target, "__module__", "") not in ("math", "operator"):
                            ok = False
                if not ok:
                    break
        self._pure[code] = ok
        return ok

    # ---- running a frame
    def run_block(self, stmts: list[ast.stmt], st: State, file: str) -> list[tuple[State, Any]]:
        """Execute statements; returns (state, flow) pairs, flow None | ('return', v) | 'break' | 'continue'."""
        states: list[tuple[State, Any]] = [(st, None)]
        outer, cur = self._after, self._cur
        try:
            for k, stmt in enumerate(stmts):
                if time.process_time() > self.hard_deadline:
                    if time.process_time() > min(self.hard_deadline + GIVE_UP_GRACE * self.budget_s, self.ceiling) or \
                            self.trim_deadline >= self.hard_deadline:
                        raise AnalysisBudget(f"symbolic execution passed the analysis budget of CPU time "
                                             f"(at {os.path.basename(file)}:{stmt.lineno})")
                    self._cut_at_deadline(states, file, stmt)
                    break
                if not outer and not self.suffix_reads(stmts, k):
                    self._horizon(states)
                    break
                self._after = outer or self.suffix_reads(stmts, k + 1)
                self._cur = stmt
                nxt: list[tuple[State, Any]] = []
                for i, (s, flow) in enumerate(states):
                    if flow is not None or s.ended or s.done:
                        nxt.append((s, flow))
                        continue
                    if len(states) - i > 1 and time.process_time() > self.trim_deadline:
                        keep = self._trim_keep()
                        ran = sum(1 for x, f in nxt if f is None and not x.ended and not x.done)
                        if len(states) - i + ran > keep:  # the paths already run through stmt are trimmed too:
                            nxt = self._trim(nxt + states[i:], stmt, file, keep, ran=len(nxt))  # else they
                            break  # are kept whole, and being first in fork order, they are one corner
                    nxt.extend(self.run_stmt(stmt, s, file))
                states = nxt
        finally:
            self._after, self._cur = outer, cur
        return states

    def ms_left(self, cap_ms: int) -> int:
        """A solver check's timeout: ``cap_ms``, or less as the ceiling of the budget comes (at least 1 ms: past the
        ceiling a check ends at once, unknown)."""
        return max(1, min(cap_ms, int((self.ceiling - time.process_time()) * 1000)))

    def past_ceiling(self) -> bool:
        """The whole budget is spent: make and name no more actions."""
        return time.process_time() > self.ceiling

    def _cut_at_deadline(self, states: list[tuple[State, Any]], file: str, stmt: ast.stmt) -> None:
        """At the hard deadline, the paths still running (the trimming kept them) end where they are: their
        conditions so far become actions (tests later in the frame are not explored: each such action
        over-approximates), so a budget spent executing still leaves a partial space rather than none. Past
        ``GIVE_UP_GRACE`` more of the budget (unwinding takes long) the analysis gives up."""
        cut = 0
        for s, flow in states:
            if flow is None and not s.ended and not s.done:
                s.done = True
                cut += 1
        if cut:
            self.cut_paths += cut
            self._first_cut = self._first_cut or f"{os.path.basename(file)}:{stmt.lineno}"
            self.partial = self._partial_text()

    def _partial_text(self) -> str:
        parts = []
        if self.dropped_paths:
            parts.append(f"{self.dropped_paths} paths dropped unfinished to end the symbolic execution within the "
                         "analysis budget")
        if self.cut_paths:
            parts.append(f"{self.cut_paths} paths cut short at the end of the analysis budget (at "
                         f"{self._first_cut}): their tests later in the frame unexplored")
        return "; ".join(parts)

    def suffix_reads(self, stmts: list[ast.stmt], k: int) -> bool:
        """Whether ``stmts[k:]`` (nested blocks included) may read an input: a kept statement whose own expression
        calls an input API, a function reaching one or an unknown callee, or reads a name or field derived from
        inputs (``_pt_in``, set by `slice_function`; a statement never sliced, such as a block the slicer did not
        see, counts as reading)."""
        key = (id(stmts), k)
        got = self._suffix.get(key)
        if got is None:
            got = self._suffix[key] = any(_stmt_reads(x) for x in stmts[k:])
            self._keep.append(stmts)  # the id stays the list's
        return got

    def _horizon(self, states: list[tuple[State, Any]]) -> None:
        """The input horizon: nothing left in the frame reads an input (the rest of this block, of the blocks
        around it, of the callers), so each live path is finished; what is left could only test game state
        (and values the inputs already decided), splitting a path into actions that press the same inputs
        under complementary game conditions (their union is the path's own). A path whose stored game
        values hold inputs (``self.vx = dx``, read by a method later) runs on."""
        for s, flow in states:
            if flow is None and not s.ended and not s.done and not any(_holds_input(v) for v in s.heap.values()):
                s.done = True
                self.horizon_cuts += 1

    def _trim_keep(self) -> int:
        """How many unfinished paths a block may run on past the trim deadline: ``TRIM_KEEP``, falling to 1 as
        the hard deadline comes (paths that take long to finish are cut further while time runs out)."""
        span = max(self.hard_deadline - self.trim_deadline, 1e-9)
        left = max(0.0, self.hard_deadline - time.process_time()) / span
        return max(1, math.ceil(TRIM_KEEP * left))

    def _trim(self, todo: list[tuple[State, Any]], stmt: ast.stmt, file: str, keep: int,
              ran: int = 0) -> list[tuple[State, Any]]:
        """Past the trim deadline, the paths at ``stmt`` (the first ``ran`` of ``todo`` already run through it):
        the finished ones kept, the others cut to ``keep`` (round robin over the distinct sets of inputs read,
        each group in a seeded shuffle) and those not yet run through ``stmt`` run; the rest are dropped, so
        the paths still running end within the budget (a partial space, said in ``partial``)."""
        already = {id(s) for s, _ in todo[:ran]}
        done = [(s, f) for s, f in todo if f is not None or s.ended or s.done]
        live = [s for s, f in todo if f is None and not s.ended and not s.done]
        # paths in the world the live game is in (no game value assumed other than it is now) first, up to
        # LIVE_SHARE of what is kept: the agent starts there, and an action valid only in an assumed world
        # (paused, a debug mode, a controller attached) cannot be taken until the game gets there; zombie-
        # escape's trimmed space had 8 actions valid in play, mostly clicks on a pause menu
        here = [s for s in live if not s.deviated]
        there = [s for s in live if s.deviated]
        kept = self._spread(here, min(keep, max(keep - len(there), math.ceil(LIVE_SHARE * keep))))
        kept += self._spread(there, keep - len(kept))
        if len(kept) < keep:
            ids = {id(s) for s in kept}
            kept += self._spread([s for s in here if id(s) not in ids], keep - len(kept))
        self.dropped_paths += len(live) - len(kept)
        self.partial = self._partial_text()
        out = done
        for s in kept:
            out.extend([(s, None)] if id(s) in already else self.run_stmt(stmt, s, file))
        return out

    @staticmethod
    def _spread(states: list[State], n: int) -> list[State]:
        """Up to ``n`` of ``states``, round robin over the distinct sets of inputs read, each group in a seeded
        shuffle: a spread sample (the list is in fork order, a prefix of it is one corner of the input code)."""
        groups: dict[frozenset[str], list[State]] = {}
        for s in states:
            groups.setdefault(frozenset(s.reads), []).append(s)
        queues = list(groups.values())
        for q in queues:
            random.Random(len(q)).shuffle(q)
        kept: list[State] = []
        while len(kept) < n and queues:
            queues = [q for q in queues if q]
            for q in queues:
                if len(kept) < n:
                    kept.append(q.pop(0))
        return kept

    def run_stmt(self, node: ast.stmt, st: State, file: str) -> list[tuple[State, Any]]:
        if getattr(node, "_pt_sliced", False):
            return [(st, None)]
        if isinstance(node, ast.Expr):
            self._unused = node.value
            return [(s, None) for s, _ in self.ev(node.value, st, file)]
        if isinstance(node, ast.Assign):
            out = []
            for s, v in self.ev(node.value, st, file):
                for s2 in self.discretize(s, v):
                    for t in node.targets:
                        self.assign(t, v, s2, file)
                    out.append((s2, None))
            return out
        if isinstance(node, ast.AnnAssign):
            if node.value is None:
                return [(st, None)]
            out = []
            for s, v in self.ev(node.value, st, file):
                self.assign(node.target, v, s, file)
                out.append((s, None))
            return out
        if isinstance(node, ast.AugAssign):
            load = _as_load(node.target)
            out = []
            for s, cur in self.ev(load, st, file):
                for s2, v in self.ev(node.value, s, file):
                    for s3, r in self.binop(s2, node.op, cur, v, node, file):
                        for s4 in self.discretize(s3, r):
                            self.assign(node.target, r, s4, file)
                            out.append((s4, None))
            return out
        if isinstance(node, ast.If):
            out = []
            for s, c in self.ev(node.test, st, file):
                for s2, b in self.to_bool(s, c, node, file):
                    sides = []
                    for s3, side in self.branch(s2, b):
                        s3.decisions.append((file, node.lineno, side))  # the path, for the cross-check
                        sides.append(self.run_block(node.body if side else node.orelse, s3, file))
                    out.extend(self.join_or_keep(s2, b, sides))
            return out
        if isinstance(node, ast.For):
            after = self._after
            self._after = after or self.suffix_reads(node.body, 0) or self.suffix_reads(node.orelse, 0)
            try:  # the next iteration runs the body again
                return self.run_for(node, st, file)
            finally:
                self._after = after
        if isinstance(node, ast.While):
            self.note(node, file, "while loop in input handling: body explored 0 or 1 times")
            out = [(st.copy(), None)]
            after = self._after
            self._after = after or self.suffix_reads(node.body, 0) or bool(_stmt_reads(node))
            try:
                for s, flow in self.run_block(node.body, st, file):
                    out.append((s, None if flow in ("break", "continue") else flow))
            finally:
                self._after = after
            return out
        if isinstance(node, ast.Return):
            if node.value is None:
                return [(st, ("return", None))]
            return [(s, ("return", v)) for s, v in self.ev(node.value, st, file)]
        if isinstance(node, ast.Break):
            return [(st, "break")]
        if isinstance(node, ast.Continue):
            return [(st, "continue")]
        if isinstance(node, ast.Raise):
            st.ended = True
            return [(st, ("return", None))]
        if isinstance(node, ast.Try):
            if node.handlers:
                self.note(node, file, "try/except: only the try body is explored")
            return self.run_block(node.body + node.orelse + node.finalbody, st, file)
        if isinstance(node, ast.With):
            return self.run_block(node.body, st, file)
        if isinstance(node, ast.Match):
            return self.run_match(node, st, file)
        if isinstance(node, (ast.Pass, ast.Global, ast.Nonlocal, ast.FunctionDef, ast.ClassDef, ast.Import,
                             ast.ImportFrom, ast.Assert, ast.Delete, ast.AsyncFunctionDef)):
            return [(st, None)]
        self.note(node, file, f"{type(node).__name__} statement is not analysed")
        return [(st, None)]

    # ---- match statements
    def run_match(self, node: ast.Match, st: State, file: str) -> list[tuple[State, Any]]:
        """``match`` as the if/elif chain it is: a value pattern (``case pygame.K_r:``) is ``subject ==
        value``, a singleton ``subject is value``, ``|`` an ``or``, ``_`` and a capture always match (the
        capture binds the subject), a guard is and-ed to its pattern. Any other pattern (class, sequence,
        mapping) matches under an unknown condition: one path where it matches and one where it does not
        (the space over-approximates). Each case's test is a decision on the ``case`` line."""
        hidden = f"_pt_match_{node.lineno}_{node.col_offset}"
        out: list[tuple[State, Any]] = []
        for s, subj in self.ev(node.subject, st, file):
            s.env[hidden] = subj
            out.extend(self._run_cases(node, 0, s, hidden, file))
        return out

    def _run_cases(self, node: ast.Match, i: int, st: State, hidden: str, file: str) -> list[tuple[State, Any]]:
        if i >= len(node.cases):
            return [(st, None)]
        case = node.cases[i]
        test, binds = _pattern_test(case.pattern, hidden)
        if test is not None and case.guard is not None:
            test = ast.BoolOp(op=ast.And(), values=[test, _rename(case.guard, binds, hidden)])
        if test is not None:
            ast.copy_location(test, case.pattern)
            ast.fix_missing_locations(test)
            values = self.ev(test, st, file)
        else:
            self.note(case.pattern, file, f"{type(case.pattern).__name__} in a match: the case is taken or not "
                                          f"under an unknown condition")
            values = [(st, self.fresh())]
        out: list[tuple[State, Any]] = []
        for s, c in values:
            for s2, b in self.to_bool(s, c, case.pattern, file):
                sides = []
                for s3, side in self.branch(s2, b):
                    s3.decisions.append((file, case.pattern.lineno, side))  # the path, for the cross-check
                    if side:
                        subj = s3.env.get(hidden)
                        for name in binds:
                            s3.env[name] = subj if test is not None else _Fresh()
                        sides.append(self.run_block(case.body, s3, file))
                    else:
                        sides.append(self._run_cases(node, i + 1, s3, hidden, file))
                out.extend(self.join_or_keep(s2, b, sides))
        return out

    def discretize(self, st: State, v: Any) -> list[State]:
        """An input-derived number stored without a branch (Listing 4: ``x += h * speed``) is forked
        into negative / zero / positive, as the paper does for axis values, so it still yields actions."""
        terms = [v.x, v.y] if isinstance(v, Vec) else [v]
        states = [st]
        for t in terms:
            if not isinstance(t, z3.ArithRef) or not _symbolic(t) or z3.is_const(t) or \
                    any(not n.startswith("in:") for n in _var_map(t)):
                continue  # only pure input values (a delta), not game state updated by them
            key = f"num:{t.get_id()}"
            nxt = []
            for s in states:
                if key in s.forked:
                    nxt.append(s)
                    continue
                for cond, label in ((t < 0, "neg"), (t == 0, "zero"), (t > 0, "pos")):
                    pc = [*s.pc, cond]
                    if self.feasible(pc):
                        s2 = s.copy()
                        s2.pc = pc
                        s2.forked[key] = label
                        nxt.append(s2)
                        if self.truncated:
                            break
            if len(nxt) > len(states):
                self._count_fork()
            states = nxt
        return states

    def join_or_keep(self, st: State, cond: Any, sides: list[list[tuple[State, Any]]]) -> list[tuple[State, Any]]:
        """The two sides of a branch as one path when `join_unknown` can join them, else every path of both."""
        joined = self.join_unknown(st, cond, sides)
        return [(joined, None)] if joined is not None else [x for side_out in sides for x in side_out]

    def join_unknown(self, base: State, cond: Any, sides: list[list[tuple[State, Any]]]) -> State | None:
        """Both sides of a test on unknown values only (a summarized call's result, ``hypot(dx, dy) > DZ``)
        continue as one path when each side is one path that added no condition and fell through: the
        test is not a condition on inputs or on game state (it would be dropped from p_i and p_g), so the
        two paths would make the same action unless what they stored differs, and a stored value that
        differs becomes unknown. Without this, every such test doubles the paths after it."""
        if len(sides) != 2 or not isinstance(cond, z3.BoolRef) or any(len(x) != 1 for x in sides):
            return None
        names = _var_map(cond)
        if not names or any(not n.startswith("u:") for n in names):
            return None
        (a, fa), (b, fb) = sides[0][0], sides[1][0]
        n = len(base.pc) + 1
        if fa is not None or fb is not None or a.ended or b.ended or a.done or b.done or len(a.pc) != n or len(b.pc) != n or \
                a.forked != b.forked or a.ev_hit != b.ev_hit or a.depth != b.depth or \
                {k: _vsig(v) for k, v in a.heap.items()} != {k: _vsig(v) for k, v in b.heap.items()}:
            return None
        merged = base.copy()
        merged.env = {}
        for k in a.env.keys() | b.env.keys():
            va, vb = a.env.get(k, _NOPE), b.env.get(k, _NOPE)
            same = va is vb or (va is not _NOPE and vb is not _NOPE and _vsig(va) == _vsig(vb))
            if not same and not (_plain(va) and _plain(vb)):
                return None  # an input handle (a joystick made on one side) must not become unknown
            merged.env[k] = va if same else _Fresh()
        merged.reads = a.reads | b.reads
        merged.forked = dict(a.forked)
        merged.heap = dict(a.heap)
        self.merged_paths += 1
        return merged

    def branch(self, st: State, b: Any) -> list[tuple[State, bool]]:
        if isinstance(b, z3.BoolRef):
            return self.fork(st, b)
        return [(st, bool(b))]

    def run_for(self, node: ast.For, st: State, file: str) -> list[tuple[State, Any]]:
        out: list[tuple[State, Any]] = []
        for s, it in self.ev(node.iter, st, file):
            if isinstance(it, EventList):
                out.append((s.copy(), None))  # no event this frame
                s1 = s.copy()
                s1.pc.append(self._event_type_domain(s1, it))
                s1.ev_hit = False
                s1.in_hit = False
                self.assign(node.target, EventV(), s1, file)
                for s2, flow in self.run_block(node.body, s1, file):
                    if not s2.ev_hit and not s2.in_hit and not s2.forked.get("ev_kept"):
                        continue  # the event changed nothing: the same as no event at all
                    # (a held key tested in the event loop, ``if command[K_UP]:``, acts once per event: kept)
                    out.append((s2, flow if isinstance(flow, tuple) else None))
                continue
            stored = s.heap.get((id(it.live), "__items__")) if isinstance(it, G) and it.live is not None else None
            if stored is None and isinstance(it, G) and isinstance(it.live, list) and it.src and \
                    it.src.rsplit(".", 1)[-1] in getattr(self, "input_fields", ()):
                stored = ()  # a list of inputs collected this frame, and none was: nothing to handle
            if isinstance(stored, tuple):
                out.extend(self.run_stored(node, s, stored, file))
                continue
            items = _iter_concrete(it)
            if items is None and isinstance(it, G):
                items = self.live_items(node, it)
            if isinstance(it, tuple) and any(isinstance(x, EventV) for x in it):
                out.extend(self.run_stored(node, s, it, file))  # events collected this frame
                continue
            if items is None:
                if isinstance(it, G) and it.src is not None:
                    self.note(node, file, "loop over a game collection: one iteration with an unknown element")
                states = [(s, None)]
                s1 = s.copy()
                self.assign(node.target, G(None), s1, file)
                states = self.run_block(node.body, s1, file)
                out.append((s, None))
                out.extend((x, f if isinstance(f, tuple) else None) for x, f in states)
                continue
            if len(items) > MAX_UNROLL:
                self.note(node, file, f"loop over {len(items)} items: only the first {MAX_UNROLL} are explored")
            out.extend(self.unroll(node, s, items, file, merge=_only_locals(node.body)))
        return out

    def live_items(self, node: ast.For, it: G) -> list[Any] | None:
        """A loop over a live game collection whose body reads inputs, walked over what it holds now: a sprite
        group's members (one per sprite class, `group_members`), a list or tuple's items by index
        (``L['buttons'][2]``: each button's rect tested against the mouse is its own click target). None (one
        iteration with an unknown element) for anything else, or when the body reads no input."""
        if it.live is None or not self.suffix_reads(node.body, 0):
            return None
        if _is_group(it.live):
            return list(self.group_members(it.live))
        if it.src is not None and isinstance(it.live, (list, tuple)) and 0 < len(it.live) <= MAX_UNROLL:
            return [G(f"{it.src}[{i}]", x) for i, x in enumerate(it.live)]
        return None

    def run_stored(self, node: ast.For, st: State, items: tuple[Any, ...], file: str) -> list[tuple[State, Any]]:
        """A loop over the items a list got this frame (``for e in self.pending``): each item in turn. A
        path whose collected event nothing handled by the frame's end is dropped there (`drop_unhandled`:
        the path without the event covers it); the list may be walked again before that."""
        return self.unroll(node, st, items, file, merge=False)

    def unroll(self, node: ast.For, st: State, items: Any, file: str, merge: bool) -> list[tuple[State, Any]]:
        """The loop run once per item (the first MAX_UNROLL), ``break``/``continue``/``return`` honoured, then
        its ``else``; with ``merge``, paths with equal locals continue as one after each iteration."""
        live: list[tuple[State, Any]] = [(st, None)]
        out: list[tuple[State, Any]] = []
        for item in list(items)[:MAX_UNROLL]:
            nxt: list[tuple[State, Any]] = []
            for s2, flow in live:
                if flow is not None or s2.ended or s2.done:
                    out.append((s2, flow if isinstance(flow, tuple) else None))
                    continue
                self.assign(node.target, item, s2, file)
                for s3, f3 in self.run_block(node.body, s2, file):
                    nxt.append((s3, None if f3 == "continue" else f3))
            live = self.merge_locals(nxt) if merge else nxt
        for s2, flow in live:
            if flow == "break":
                out.append((s2, None))
            elif flow is None:
                out.extend(self.run_block(node.orelse, s2, file))
            else:
                out.append((s2, flow))
        return out

    @staticmethod
    def drop_unhandled(ends: list[State]) -> list[State]:
        """The frame's end: a path whose event was collected into a list (``self.pending.append(e)``) and
        never branched on is the same as the path without an event."""
        return [s for s in ends if s.ev_hit or not s.forked.get("ev_kept")]

    def merge_locals(self, items: list[tuple[State, Any]]) -> list[tuple[State, Any]]:
        """State merging after an iteration of a loop whose body only sets local variables (no calls, no
        stores into game objects): paths that leave it with the same locals continue as one path under
        the disjunction of their conditions. ``for key, (kx, ky) in MOVES.items(): if keys[key]: dx += kx``
        leaves 9 directions, not 2**len(MOVES) paths (LEFT+RIGHT held moves as no key held does)."""
        if len(items) < 2:
            return items
        groups: dict[Any, list[State]] = {}
        for st, flow in items:
            if flow is not None or st.ended or st.done:
                return items  # a break / return inside: leave the paths as they are
            sig = (tuple(sorted((k, _vsig(v)) for k, v in st.env.items())), tuple(sorted(st.forked.items())),
                   st.ev_hit, st.depth, tuple(sorted((k, _vsig(v)) for k, v in st.heap.items())))
            groups.setdefault(sig, []).append(st)
        out = []
        for g in groups.values():
            first = g[0]
            if len(g) == 1:
                out.append((first, None))
                continue
            n = min(len(x.pc) for x in g)
            k = 0  # the shared prefix of the conditions (forks copy the list: shared items are identical)
            while k < n and all(x.pc[k] is first.pc[k] for x in g):
                k += 1
            rests = [[c for c in x.pc[k:] if c.get_id() not in self.assumed] for x in g]
            merged = first.copy()
            merged.pc = first.pc[:k] + [z3.Or(*[z3.And(*r) if len(r) > 1 else (r[0] if r else z3.BoolVal(True))
                                                for r in rests])]
            merged.in_hit = any(x.in_hit for x in g)  # kept by the event loop if any of them would be
            merged.deviated = frozenset().union(*[x.deviated for x in g])
            merged.deviations = max(x.deviations for x in g)
            for x in g[1:]:
                merged.reads |= x.reads
                d = 0
                while d < min(len(merged.decisions), len(x.decisions)) and merged.decisions[d] == x.decisions[d]:
                    d += 1
                merged.decisions = merged.decisions[:d]
            self.merged_paths += len(g) - 1
            out.append((merged, None))
        return out

    def _event_type_domain(self, st: State, el: EventList) -> Any:
        t = self.inp(st, "ev_type")
        types_ = self.event_types if el.types is None else (set(el.types) & self.event_types)
        return z3.Or(*[t == x for x in sorted(types_)]) if types_ else z3.BoolVal(False)

    def assign(self, target: ast.expr, v: Any, st: State, file: str) -> None:
        if isinstance(target, ast.Name):
            st.env[target.id] = v
        elif isinstance(target, (ast.Tuple, ast.List)):
            vals = _unpack(v, len(target.elts))
            for t, x in zip(target.elts, vals, strict=True):
                self.assign(t, x, st, file)
        elif isinstance(target, ast.Attribute):
            path = _dotted(target)
            if path is not None:
                st.env[path] = v  # later reads in this frame see the stored value
            base = st.env.get(target.value.id) if isinstance(target.value, ast.Name) else None
            if isinstance(base, G) and base.live is not None:
                key = (id(base.live), target.attr)
                if _symbolic(v) or isinstance(v, KeyState) or key in st.heap or \
                        isinstance(v, tuple) and not v and target.attr in getattr(self, "input_fields", ()):
                    st.heap[key] = v  # other methods of the same object read it (State.heap)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, _Fresh(), st, file)

    # ---- expressions
    def ev_Await(self, node: ast.Await, st: State, file: str) -> list[tuple[State, Any]]:  # noqa: N802
        """``await x`` in an async main loop (pygbag style: ``await asyncio.sleep(0)`` every frame): the
        awaited expression is evaluated (a game coroutine's call as any call); its result is unknown."""
        return [(s, _Fresh()) for s, _ in self.ev(node.value, st, file)]

    def ev(self, node: ast.expr, st: State, file: str) -> list[tuple[State, Any]]:
        m = getattr(self, "ev_" + type(node).__name__, None)
        if m is None:
            self.note(node, file, f"{type(node).__name__} expression is not analysed")
            return [(st, _Fresh())]
        return m(node, st, file)

    def ev_Constant(self, node: ast.Constant, st: State, file: str) -> list[tuple[State, Any]]:
        return [(st, node.value)]

    def ev_Name(self, node: ast.Name, st: State, file: str) -> list[tuple[State, Any]]:
        name = node.id
        if name in st.env:
            return [(st, st.env[name])]
        mod_globals = st.env.get("__globals__", {})
        if name in mod_globals:
            return [(st, self.global_value(name, mod_globals))]
        if hasattr(builtins, name):
            return [(st, getattr(builtins, name))]
        return [(st, _Fresh())]

    def global_value(self, name: str, g: dict[str, Any]) -> Any:
        v = g[name]
        if isinstance(v, list) and name in getattr(self, "input_fields", ()):
            # a global list the game collects inputs in (``EVENTS.append(event)``, maybe imported from another
            # module): the live list, never folded into a constant table
            idx = self.module_index.get(g.get("__file__", ""), None)
            return G(None if idx is None else f"M[{idx}][{name!r}]", v)
        if isinstance(v, list) and name.isupper() and _foldable(tuple(v)) and \
                name not in self.rebound.get(g.get("__file__", ""), ()):
            return tuple(v)  # a constant table by convention (ALL_CAPS), e.g. a list of key bindings
        if _foldable(v) or isinstance(v, (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType)):
            if name not in self.rebound.get(g.get("__file__", ""), ()):
                return v  # a constant (never rebound by ``global`` or the module's own loop): folded
        idx = self.module_index.get(g.get("__file__", ""), None)
        if idx is None:
            return G(None, v)
        return G(f"M[{idx}][{name!r}]", v)

    def ev_Attribute(self, node: ast.Attribute, st: State, file: str) -> list[tuple[State, Any]]:
        path = _dotted(node)
        if path is not None and path in st.env:
            return [(st, st.env[path])]
        out = []
        for s, base in self.ev(node.value, st, file):
            if isinstance(base, tuple) and node.attr in _LIST_OPS and isinstance(node.value, (ast.Name, ast.Attribute)):
                out.append((s, ("listop", node.value, node.attr, base)))  # a list the frame made: ``pending = []``
                continue
            if isinstance(base, EventV) and node.attr == "pos":
                out.extend(self.fork_mouse(s))  # an event's position is a mouse position: the 4x4 grid
                continue
            out.append((s, self.attr(s, base, node.attr, node, file)))
        return out

    def attr(self, st: State, base: Any, name: str, node: ast.AST, file: str) -> Any:
        if isinstance(base, EventV):
            return self.event_attr(st, name)
        if isinstance(base, Vec):
            if name in ("x", "centerx"):
                return base.x
            if name in ("y", "centery"):
                return base.y
            return _Fresh()
        if isinstance(base, G):
            if base.live is not None and (id(base.live), name) in st.heap:
                return st.heap[(id(base.live), name)]
            live = _NOPE
            if base.live is not None:
                try:
                    live = getattr(base.live, name)
                except Exception:  # noqa: BLE001 - a property that fails: unknown
                    live = _NOPE
            if live is not _NOPE and self.api_name(live):
                return live
            if live is not _NOPE and isinstance(live, self.pg.key.ScancodeWrapper):
                # a key state the game stored at its last key event (``self.keys = key.get_pressed()``): key
                # states change only with key events, so it is this frame's pressed keys
                return KeyState()
            if live is not _NOPE and _is_joystick(live):
                return JoyV(_joy_index(live))
            if live is not _NOPE and (isinstance(live, (types.MethodType, types.BuiltinMethodType)) or callable(live)
                                      and not isinstance(live, type)):
                return ("method", base, name, live)
            if live is not _NOPE and _foldable(live) and isinstance(live, (dict, tuple, frozenset)) and \
                    not isinstance(live, bool):
                return live  # a binding table held by a game object
            if base.src is None:
                return G(None, None if live is _NOPE else live)
            if live is not _NOPE and live is not None and base.live is not None:
                dname = self._state_dict_of(base.live, name, live)
                if dname is not None:
                    self._state_picks[f"{base.src}.{name}"] = (f"{base.src}.{dname}", getattr(base.live, dname))
            return G(f"{base.src}.{name}", None if live is _NOPE else live)
        if isinstance(base, JoyV):
            return ("joymethod", base, name)
        if isinstance(base, SymStr) and name in ("lower", "upper", "casefold"):
            return ("strcase", base, "upper" if name == "upper" else "lower")
        if isinstance(base, SymStr) and base.kind == "char" and name in _CHAR_TESTS:
            return ("strtest", base, name)
        if isinstance(base, (_Fresh, z3.ExprRef, KeyState, EventList)):
            return _Fresh()
        if isinstance(base, types.ModuleType) and name in getattr(self, "input_fields", ()) and \
                isinstance(getattr(base, name, None), list):
            # another module's global list the game collects inputs in (``events.EVENTS.append(event)`` in the
            # main loop, ``for e in events.EVENTS`` in the player's module): the live list, so that what one
            # module put there this frame (State.heap, under its id) is what the other walks
            idx = self.module_index.get(getattr(base, "__file__", None) or "", None)
            return G(None if idx is None else f"M[{idx}][{name!r}]", getattr(base, name))
        try:
            return getattr(base, name)
        except Exception:  # noqa: BLE001
            return _Fresh()

    def event_attr(self, st: State, name: str) -> Any:
        if name == "type":
            return self.inp(st, "ev_type")
        if name in ("key", "scancode"):
            k = self.inp(st, "ev_key")
            if self.blacklist and "ev_key_domain" not in st.forked:
                st.forked["ev_key_domain"] = True
                st.pc.append(z3.And(*[k != b for b in sorted(self.blacklist)]))
            return k
        if name == "button":
            return self.inp(st, "ev_button")
        if name == "pos":
            return self.mouse_pos(st)
        if name == "buttons":
            return tuple(self.inp(st, f"mb_{i}", "bool") for i in (1, 2, 3))
        if name in ("joy", "instance_id"):
            return self.inp(st, "ev_joy")
        if name == "axis":
            return self.inp(st, "ev_axis")
        if name == "hat":
            return self.inp(st, "ev_hat")
        if name == "value":
            return Vec(self.inp(st, "ev_hx"), self.inp(st, "ev_hy"))
        if name == "mod":
            return self.inp(st, "ev_mod")
        if name == "unicode":  # what the key types (the driver posts a printable key's character)
            return SymStr(self.event_attr(st, "key"), "char")
        return _Fresh()

    def mouse_pos(self, st: State) -> Vec:
        return Vec(self.inp(st, "mx"), self.inp(st, "my"))

    def ev_Subscript(self, node: ast.Subscript, st: State, file: str) -> list[tuple[State, Any]]:
        out = []
        for s, base in self.ev(node.value, st, file):
            for s2, idx in self.ev(node.slice, s, file):
                out.extend(self.subscript(s2, base, idx, node, file))
        return out

    def subscript(self, st: State, base: Any, idx: Any, node: ast.AST, file: str) -> list[tuple[State, Any]]:
        if isinstance(base, KeyState):
            return [(st, self.key(st, idx, base.just))]
        if isinstance(base, Vec) and isinstance(idx, int):
            return [(st, base.x if idx == 0 else base.y)]
        if isinstance(base, tuple) and isinstance(idx, int):
            try:
                return [(st, base[idx])]
            except IndexError:
                return [(st, _Fresh())]
        if isinstance(base, dict):
            if _concrete(idx):
                try:
                    return [(st, base[idx])]
                except (KeyError, TypeError):
                    st.ended = True  # a KeyError ends the frame
                    return [(st, None)]
            return self.dict_lookup(st, base, idx, None, raise_missing=True)
        if isinstance(base, (tuple, list)) and isinstance(idx, z3.ArithRef):
            out = []
            for i, item in enumerate(base[:MAX_UNROLL]):
                for s2, side in self.fork(st.copy(), idx == i):
                    if side:
                        out.append((s2, item))
            return out
        if isinstance(base, G) and _handler_table(base.live) and _symbolic(idx):
            return self.dict_lookup(st, base.live, idx, None, raise_missing=True, src=base.src)
        if isinstance(base, G):
            if _concrete(idx) and base.src is not None:
                live = None
                try:
                    live = base.live[idx] if base.live is not None else None
                except Exception:  # noqa: BLE001
                    live = None
                return [(st, G(f"{base.src}[{idx!r}]", live))]
            if isinstance(idx, G) and idx.src and base.src:
                src = f"{base.src}[{idx.src}]"
                if _state_dict(base.live, self) and isinstance(idx.live, (str, int)) and idx.live in base.live:
                    # ``self.state_dict[self.state_name]``: the live state object, and each state's methods (`each_state`)
                    self._state_picks[src] = (base.src, base.live)
                    return [(st, G(src, base.live[idx.live]))]
                return [(st, G(src, None))]
            return [(st, G(None))]
        if _concrete(base) and _concrete(idx):
            try:
                return [(st, base[idx])]
            except Exception:  # noqa: BLE001
                return [(st, _Fresh())]
        return [(st, _Fresh())]

    def dict_lookup(self, st: State, d: dict[Any, Any], key: Any, default: Any,
                    raise_missing: bool = False, src: str | None = None) -> list[tuple[State, Any]]:
        """A lookup in a constant table with a symbolic key: one fork per entry, plus 'missing'. A live
        dict held by the game (``src``: its path) may hold bound methods (a handler table): each becomes a
        method of the object it is bound to, reached through ``src[key].__self__``."""
        if not _symbolic(key):
            return [(st, G(None))]
        out = []
        rest: State | None = st
        for k, v in list(d.items())[:512]:
            if rest is None:
                break
            if not isinstance(k, (int, float, str, bool)):
                continue
            eq = _as_bool(self._eq(rest, key, k))
            nxt = None
            for s2, side in self.fork(rest, eq):
                if side:
                    out.append((s2, _wrap(v, f"{src}[{k!r}]" if src else None)))
                else:
                    nxt = s2
            rest = nxt
        if rest is not None:
            if raise_missing:
                rest.ended = True
                out.append((rest, None))
            else:
                out.append((rest, default))
        return out

    def key(self, st: State, idx: Any, just: str | None) -> Any:
        """A polled key: ``key.get_pressed()[idx]``; ``just`` models get_just_pressed/released."""
        if isinstance(idx, bool):
            idx = int(idx)
        if isinstance(idx, int):
            if idx in self.blacklist:
                return False
            now = self.inp(st, f"key_{idx}", "bool")
            prev = self.gv.var(f"{idx} in H.keys", "held_key")
        elif isinstance(idx, G) and idx.src is not None:
            now = self.inp(st, f"keyat:{idx.src}", "bool")
            prev = self.gv.var(f"({idx.src}) in H.keys", "held_key")
        else:
            return self.fresh()
        if just == "down":
            return z3.And(now, z3.Not(prev))
        if just == "up":
            return z3.And(z3.Not(now), prev)
        return now

    def ev_Index(self, node: Any, st: State, file: str) -> list[tuple[State, Any]]:  # pragma: no cover - py<3.9
        return self.ev(node.value, st, file)

    def ev_Slice(self, node: ast.Slice, st: State, file: str) -> list[tuple[State, Any]]:
        return [(st, _Fresh())]

    def ev_Tuple(self, node: ast.Tuple, st: State, file: str) -> list[tuple[State, Any]]:
        return self._seq(node.elts, st, file, tuple)

    def ev_List(self, node: ast.List, st: State, file: str) -> list[tuple[State, Any]]:
        return self._seq(node.elts, st, file, tuple)

    def ev_Set(self, node: ast.Set, st: State, file: str) -> list[tuple[State, Any]]:
        return self._seq(node.elts, st, file, tuple)

    def _seq(self, elts: list[ast.expr], st: State, file: str, kind: Any) -> list[tuple[State, Any]]:
        states: list[tuple[State, list[Any]]] = [(st, [])]
        for e in elts:
            nxt = []
            for s, acc in states:
                for s2, v in self.ev(e, s, file):
                    nxt.append((s2, [*acc, v]))
            states = nxt
        return [(s, kind(acc)) for s, acc in states]

    def ev_Dict(self, node: ast.Dict, st: State, file: str) -> list[tuple[State, Any]]:
        return [(st, _Fresh())]

    def ev_JoinedStr(self, node: ast.JoinedStr, st: State, file: str) -> list[tuple[State, Any]]:
        return [(st, _Fresh())]

    def ev_Lambda(self, node: ast.Lambda, st: State, file: str) -> list[tuple[State, Any]]:
        return [(st, _Fresh())]

    def ev_ListComp(self, node: Any, st: State, file: str) -> list[tuple[State, Any]]:
        return [(st, _Fresh())]

    ev_GeneratorExp = ev_SetComp = ev_DictComp = ev_ListComp

    def ev_NamedExpr(self, node: ast.NamedExpr, st: State, file: str) -> list[tuple[State, Any]]:
        out = []
        for s, v in self.ev(node.value, st, file):
            self.assign(node.target, v, s, file)
            out.append((s, v))
        return out

    def ev_UnaryOp(self, node: ast.UnaryOp, st: State, file: str) -> list[tuple[State, Any]]:
        out = []
        for s, v in self.ev(node.operand, st, file):
            if isinstance(node.op, ast.Not):
                for s2, b in self.to_bool(s, v, node, file):
                    out.append((s2, z3.Not(b) if isinstance(b, z3.BoolRef) else (not b)))
            elif isinstance(node.op, ast.USub):
                if isinstance(v, Vec):
                    out.append((s, Vec(self._neg(s, v.x), self._neg(s, v.y))))
                else:
                    out.append((s, self._neg(s, v)))
            elif isinstance(node.op, ast.UAdd):
                out.append((s, v))
            else:
                out.append((s, _Fresh()))
        return out

    def _neg(self, st: State, v: Any) -> Any:
        if _concrete(v) and isinstance(v, (int, float)):
            return -v
        x = self.to_num(st, v)
        return -x

    def ev_BoolOp(self, node: ast.BoolOp, st: State, file: str) -> list[tuple[State, Any]]:
        """``a and b`` / ``a or b``: z3 And/Or when both sides are symbolic booleans, else short-circuit."""
        is_and = isinstance(node.op, ast.And)
        results: list[tuple[State, Any]] = []
        pending: list[tuple[State, list[Any]]] = [(st, [])]
        for i, e in enumerate(node.values):
            nxt = []
            for s, acc in pending:
                for s2, v in self.ev(e, s, file):
                    last = i == len(node.values) - 1
                    if isinstance(v, z3.BoolRef) or last:
                        nxt.append((s2, [*acc, v]))
                        continue
                    for s3, b in self.to_bool(s2, v, node, file):
                        if isinstance(b, z3.BoolRef):
                            nxt.append((s3, [*acc, b]))
                        elif b != is_and:  # short-circuit with a concrete value
                            results.append((s3, self._combine(acc, v, is_and)))
                        else:
                            nxt.append((s3, acc))
            pending = nxt
        for s, acc in pending:
            results.append((s, self._combine(acc[:-1], acc[-1], is_and) if acc else (True if is_and else False)))
        return results

    def _combine(self, acc: list[Any], last: Any, is_and: bool) -> Any:
        if not acc:
            return last
        if not isinstance(last, (bool, z3.BoolRef)):
            # ``a and obj`` in a condition: the truth of obj (its value as data is rarely what matters)
            last = self.to_bool(State(), last, ast.Pass(), "")[0][1]
        terms = [*acc, _as_bool(last)]
        return z3.And(*terms) if is_and else z3.Or(*terms)

    def ev_Compare(self, node: ast.Compare, st: State, file: str) -> list[tuple[State, Any]]:
        out = []
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            for s, left in self.ev(node.left, st, file):
                for s2, right in self.ev(node.comparators[0], s, file):
                    forked = self.char_member(s2, left, right, isinstance(node.ops[0], ast.NotIn))
                    if forked is not None:
                        out.extend(forked)
                    else:
                        out.append((s2, self.compare(s2, node.ops[0], left, right)))
            return out
        for s, left in self.ev(node.left, st, file):
            states: list[tuple[State, Any, Any]] = [(s, left, True)]
            for op, comp in zip(node.ops, node.comparators, strict=True):
                nxt = []
                for s2, lv, acc in states:
                    for s3, rv in self.ev(comp, s2, file):
                        c = self.compare(s3, op, lv, rv)
                        if isinstance(acc, bool) and acc is True:
                            nacc = c
                        elif isinstance(c, bool):
                            nacc = acc if c else False
                        else:
                            nacc = z3.And(_as_bool(acc), c) if not isinstance(acc, bool) else (c if acc else False)
                        nxt.append((s3, rv, nacc))
                states = nxt
            out.extend((s2, acc) for s2, _, acc in states)
        return out

    def ev_IfExp(self, node: ast.IfExp, st: State, file: str) -> list[tuple[State, Any]]:
        out = []
        for s, c in self.ev(node.test, st, file):
            for s2, b in self.to_bool(s, c, node, file):
                sides = [self.ev(node.body if side else node.orelse, s3, file) for s3, side in self.branch(s2, b)]
                joined = self.join_unknown(s2, b, [[(x, None) for x, _ in side] for side in sides])
                if joined is not None:
                    va, vb = sides[0][0][1], sides[1][0][1]
                    out.append((joined, va if va is vb or _vsig(va) == _vsig(vb) else _Fresh()))
                else:
                    out.extend(x for side in sides for x in side)
        return out

    def ev_BinOp(self, node: ast.BinOp, st: State, file: str) -> list[tuple[State, Any]]:
        out = []
        for s, a in self.ev(node.left, st, file):
            for s2, b in self.ev(node.right, s, file):
                out.extend(self.binop(s2, node.op, a, b, node, file))
        return out

    def binop(self, st: State, op: ast.operator, a: Any, b: Any, node: ast.AST, file: str) -> list[tuple[State, Any]]:
        if isinstance(op, ast.Add):  # text + event.unicode: the key types into the text
            for x, y in ((a, b), (b, a)):
                if isinstance(x, SymStr) and x.kind == "char" and not x.prefix and not x.suffix and \
                        (isinstance(y, str) and y or isinstance(y, G) and isinstance(y.live, str)):
                    return [(s2, _Fresh()) for s2 in self.typed(st, x.var)]
        if isinstance(op, ast.Add) and (isinstance(a, SymStr) and isinstance(b, str) or
                                        isinstance(b, SymStr) and isinstance(a, str)):
            if isinstance(a, SymStr):  # "on_" + key name, name + "_pressed"
                return [(st, SymStr(a.var, a.kind, a.prefix, a.suffix + b, a.case))]
            return [(st, SymStr(b.var, b.kind, a + b.prefix, b.suffix, b.case))]
        if _concrete(a) and _concrete(b):
            try:
                return [(st, _PYOP[type(op)](a, b))]
            except Exception:  # noqa: BLE001
                return [(st, _Fresh())]
        if not _symbolic(a) and not _symbolic(b) and _evaluable(a) and _evaluable(b) and \
                (isinstance(a, G) or isinstance(b, G)) and type(op) in _OPSRC:
            live = None
            try:
                live = _PYOP[type(op)](_live(a), _live(b))
            except Exception:  # noqa: BLE001
                live = None
            return [(st, G(f"({_src(a)} {_OPSRC[type(op)]} {_src(b)})", live))]
        if isinstance(a, Vec) or isinstance(b, Vec):
            av, bv = _as_vec(a), _as_vec(b)
            if av is not None and bv is not None and isinstance(op, (ast.Add, ast.Sub)):
                return [(st, Vec(self._arith(st, op, av.x, bv.x), self._arith(st, op, av.y, bv.y)))]
            if isinstance(op, (ast.Mult, ast.Div)) and (av is None) != (bv is None):
                v, k = (av, b) if av is not None else (bv, a)
                return [(st, Vec(self._arith(st, op, v.x, k), self._arith(st, op, v.y, k)))]
            return [(st, _Fresh())]
        if isinstance(a, (tuple, str)) or isinstance(b, (tuple, str)):
            return [(st, _Fresh())]
        if isinstance(a, G) and isinstance(b, G) and a.src and b.src and not _symbolic(a) and not _symbolic(b):
            live = None
            try:
                live = _PYOP[type(op)](a.live, b.live)
            except Exception:  # noqa: BLE001
                live = None
            return [(st, G(f"({a.src} {_OPSRC.get(type(op), '?')} {b.src})", live))]
        return [(st, self._arith(st, op, a, b))]

    def _arith(self, st: State, op: ast.operator, a: Any, b: Any) -> Any:
        if _concrete(a) and _concrete(b):
            try:
                return _PYOP[type(op)](a, b)
            except Exception:  # noqa: BLE001
                return _Fresh()
        if isinstance(a, G) and isinstance(b, (int, float)) and a.src and isinstance(a.live, (int, float)):
            try:
                return G(f"({a.src} {_OPSRC[type(op)]} {b!r})", _PYOP[type(op)](a.live, b))
            except Exception:  # noqa: BLE001
                pass
        x, y = _unify(self.to_num(st, a), self.to_num(st, b))
        if isinstance(op, ast.Add):
            return x + y
        if isinstance(op, ast.Sub):
            return x - y
        if isinstance(op, ast.Mult):
            return x * y
        if isinstance(op, ast.Div):
            return z3.ToReal(x) / y if isinstance(x, z3.ArithRef) and x.is_int() else x / y
        if isinstance(op, ast.FloorDiv) and _is_int_term(x) and _is_int_term(y):
            return x / y
        if isinstance(op, ast.Mod) and _is_int_term(x) and _is_int_term(y):
            return x % y
        return self.fresh("real")

    # ---- calls
    def ev_Call(self, node: ast.Call, st: State, file: str) -> list[tuple[State, Any]]:
        out = []
        for s, fn in self.ev(node.func, st, file):
            arg_states: list[tuple[State, list[Any]]] = [(s, [])]
            for a in node.args:
                nxt = []
                for s2, acc in arg_states:
                    if isinstance(a, ast.Starred):  # f(*xs): the items when xs is a tuple or list here
                        for s3, v in self.ev(a.value, s2, file):
                            nxt.append((s3, [*acc, *v] if isinstance(v, (tuple, list)) else [*acc, _Fresh()]))
                        continue
                    for s3, v in self.ev(a, s2, file):
                        nxt.append((s3, [*acc, v]))
                arg_states = nxt
            for s2, args in arg_states:
                kwargs = {}
                for kw in node.keywords:
                    vals = self.ev(kw.value, s2, file)
                    if kw.arg:
                        kwargs[kw.arg] = vals[0][1]
                out.extend(self.call(s2, fn, args, kwargs, node, file))
        return out

    def call(self, st: State, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.Call,
             file: str) -> list[tuple[State, Any]]:
        api = self.api_name(fn)
        if api is not None:
            return self.input_call(st, api, args, kwargs, node, file)
        if isinstance(fn, tuple) and fn and fn[0] == "joymethod":
            return self.joy_call(st, fn[1], fn[2], args)
        if isinstance(fn, tuple) and fn and fn[0] == "method":
            base, name, live = fn[1:4]
            return self.method_call(st, base, name, live, args, kwargs, node, file)
        if isinstance(fn, tuple) and fn and fn[0] == "listop":
            _, target, op, items = fn
            val = args[-1] if args else None
            if op == "clear":
                new: Any = ()
            elif op == "extend":
                new = (*items, EventV()) if isinstance(val, EventList) else \
                    (*items, *val) if isinstance(val, tuple) else None
            else:
                new = (*items, val)
            if new is None:
                self.assign(target, _Fresh(), st, file)
            else:
                self.assign(target, new, st, file)
                if any(isinstance(x, EventV) for x in new) and op != "clear":
                    st.forked["ev_kept"] = True  # kept for later: handled there, or the path is no event
            return [(st, None)]
        if isinstance(fn, tuple) and fn and fn[0] == "strtest":
            b = fn[1]
            codes = [c for c in _printable_codes(self.blacklist) if getattr(_typed(c, b.case), fn[2])()]
            return [(st, z3.Or(*[b.var == c for c in codes]) if codes else False)]
        if fn is chr and len(args) == 1 and isinstance(args[0], z3.ArithRef) and _symbolic(args[0]):
            return [(s2, SymStr(args[0], "char")) for s2 in self.typed(st, args[0])]  # the character a key types
        if fn is ord and len(args) == 1 and isinstance(args[0], SymStr) and args[0].kind == "char" and \
                not args[0].prefix and not args[0].suffix:
            return [(st, args[0].var)]
        if isinstance(fn, tuple) and fn and fn[0] == "strcase":
            b = fn[1]
            return [(st, SymStr(b.var, b.kind, getattr(b.prefix, fn[2])(), getattr(b.suffix, fn[2])(), fn[2]))]
        if args and isinstance(args[0], z3.ArithRef) and _symbolic(args[0]) and (
                fn is getattr(self.pg.key, "name", None) or fn is getattr(self.pg.event, "event_name", None)):
            return [(st, SymStr(args[0], "key" if fn is self.pg.key.name else "event"))]
        if isinstance(fn, types.MethodType) and self.is_game_fn(fn.__func__):
            # a bound method held as data (a handler table, a bus's listeners) reached without a source path
            return self.method_call(st, G(None, fn.__self__), fn.__name__, fn, args, kwargs, node, file)
        if isinstance(fn, types.FunctionType) and self.is_game_fn(fn):
            return self.inline_or_summarize(st, FuncRef(fn), args, kwargs, node, file, src=None)
        if isinstance(fn, type) and fn.__module__.startswith("pygame") and fn.__name__ in ("Vector2", "Rect", "FRect"):
            if fn.__name__ == "Vector2":
                if len(args) == 1:
                    v = _as_vec(args[0])
                    return [(st, v if v is not None else _Fresh())]
                if len(args) == 2:
                    return [(st, Vec(args[0], args[1]))]
            return [(st, _Fresh())]
        if isinstance(fn, type) and self.is_game_class(fn):
            init = fn.__dict__.get("__init__")
            if isinstance(init, types.FunctionType) and self.is_game_fn(init) and self.reaches_input(init.__code__):
                # a constructor that reads inputs: its paths (conditions, forks) count; the new object is unknown
                return [(s, G(None)) for s, _ in self.inline_or_summarize(st, FuncRef(init, G(None), True), args,
                                                                          kwargs, node, file, src=None)]
            # else what it stores goes into an object the analysis does not follow: nothing to explore
            return [(st, G(None))]
        if fn in (bool,):
            return [(s, b) for s, b in self.to_bool(st, args[0], node, file)] if args else [(st, False)]
        if fn is len and len(args) == 1 and not kwargs and isinstance(args[0], (tuple, list)):
            return [(st, len(args[0]))]  # a sequence of input values (``mouse.get_pressed()``): its length is known
        if fn in (int, float) and args and isinstance(args[0], (z3.ExprRef,)):
            v = self.to_num(st, args[0])
            return [(st, z3.ToInt(v) if fn is int and isinstance(v, z3.ArithRef) and not v.is_int() else v)]
        if fn is abs and args and isinstance(args[0], z3.ArithRef):
            v = args[0]
            return [(st, z3.If(v >= 0, v, -v))]
        if fn in (min, max) and len(args) == 2 and any(isinstance(a, z3.ArithRef) for a in args):
            x, y = _unify(self.to_num(st, args[0]), self.to_num(st, args[1]))
            return [(st, z3.If(x <= y, x, y) if fn is min else z3.If(x >= y, x, y))]
        if fn is getattr and len(args) >= 2 and isinstance(args[1], SymStr):
            return self.symstr_getattr(st, args[0], args[1], args[2] if len(args) > 2 else None, len(args) > 2,
                                       node, file)
        if fn is hasattr and len(args) == 2 and isinstance(args[1], SymStr):
            live = args[0].live if isinstance(args[0], G) else args[0]
            codes = [c for n in dir(live) if (c := self.symstr_code(args[1], n)) is not None]
            return [(st, z3.Or(*[args[1].var == c for c in codes]) if codes else False)]
        if fn is getattr and len(args) >= 2:
            if isinstance(args[1], str):
                return [(st, self.attr(st, args[0], args[1], node, file))]
            if isinstance(args[0], G) and args[0].src and _evaluable(args[1]) and not _symbolic(args[1]):
                return [(st, G(f"getattr({args[0].src}, {_src(args[1])})", None))]
            self.note(node, file, "getattr with a computed name: dispatch taken from the recorded call graph")
            return [(st, _Fresh())]
        if isinstance(fn, (types.BuiltinFunctionType, types.BuiltinMethodType)) and fn.__self__ is not None and \
                isinstance(fn.__self__, dict) and fn.__name__ == "get" and args:
            d = fn.__self__
            if _concrete(args[0]):
                return [(st, d.get(args[0], args[1] if len(args) > 1 else None))]
            return self.dict_lookup(st, d, args[0], args[1] if len(args) > 1 else None)
        if isinstance(fn, types.BuiltinMethodType) and fn.__name__ in PURE_METHODS and _foldable(fn.__self__) and \
                all(_concrete(a) for a in args) and not kwargs:  # MOVES.items() on a folded constant
            try:
                v = fn(*args)
            except Exception:  # noqa: BLE001
                return [(st, _Fresh())]
            return [(st, tuple(v) if fn.__name__ in ("items", "keys", "values") else v)]
        if all(_concrete(a) for a in args) and all(_concrete(v) for v in kwargs.values()) and _safe_pure(fn):
            try:
                return [(st, fn(*args, **kwargs))]
            except Exception:  # noqa: BLE001
                return [(st, _Fresh())]
        if isinstance(fn, (G, _Fresh)) or fn is None:
            return self.dispatch(st, fn, args, kwargs, node, file)
        return [(st, _Fresh())]

    def dispatch(self, st: State, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.Call,
                 file: str) -> list[tuple[State, Any]]:
        """A call whose target is game state (dict- or getattr-dispatched handlers): the targets come from
        the call graph recorded at run time; each one that reads inputs is explored under the condition
        that the call resolves to it."""
        site = getattr(self, "dynamic_by_site", {}).get((file, node.lineno), ())
        out: list[tuple[State, Any]] = []
        targets = []
        for code in site:
            f = getattr(self, "functions_by_code", {}).get(code)
            if f is not None and self._needs_inline(f, args):
                targets.append(f)
        if not targets:
            if isinstance(fn, G) and fn.src is not None and not kwargs and all(_evaluable(a) for a in args) and \
                    fn.src.rpartition(".")[2].startswith(("get_", "is_", "has_")):
                # a getter of a game value the live game cannot call now (``self.controller.get_init()`` with
                # no controller): a game expression, as `method_call` makes for a live object, so the same call
                # is one game value wherever the frame makes it
                return [(st, G(f"{fn.src}({', '.join(_src(a) for a in args)})", None))]
            return [(st, _Fresh())]
        rest = st
        for f in targets:
            src = fn.src if isinstance(fn, G) else None
            if src is not None:
                cond = self.gv.var(f"getattr({src}, '__qualname__', None) == {f.__qualname__!r}", "truth")
            else:
                cond = self.fresh()
            s2 = rest.copy()
            s2.pc.append(cond)
            rest = rest.copy()
            rest.pc.append(z3.Not(cond))
            has_self = "." in f.__qualname__ and bool(f.__code__.co_varnames[:1] == ("self",))
            self_v = G(f"{src}.__self__", getattr(fn.live, "__self__", None)) if (src and has_self) else G(None)
            tree = self.fn_ast(f)
            if tree is None or st.depth >= MAX_DEPTH:
                continue
            self.inlined.add(f.__qualname__)
            out.extend(self.inline(s2, FuncRef(f, self_v, has_self), tree, args, kwargs, node))
        out.append((rest, _Fresh()))
        return out

    def is_game_class(self, cls: type) -> bool:
        mod = __import__("sys").modules.get(cls.__module__)
        return getattr(mod, "__file__", None) in self.game_files

    def _needs_inline(self, fn: types.FunctionType, args: list[Any]) -> bool:
        return self.reaches_input(fn.__code__) or any(_symbolic(a) for a in args)

    def method_call(self, st: State, base: G, name: str, live: Any, args: list[Any], kwargs: dict[str, Any],
                    node: ast.Call, file: str) -> list[tuple[State, Any]]:
        if isinstance(base.live, list) and name in ("append", "extend", "clear", "insert"):
            return self.list_store(st, base, name, args)
        # pygame C methods games branch on (models)
        if name in ("collidepoint",) and len(args) in (1, 2):
            p = _as_vec(args[0]) if len(args) == 1 else Vec(args[0], args[1])
            if p is not None and base.src is not None and (_symbolic(p.x) or _symbolic(p.y)):
                return [(st, self.rect_contains(st, base, p))]
        if name in ("colliderect",) and args and base.src is not None and isinstance(args[0], G) and args[0].src:
            return [(st, self.gv.var(f"{base.src}.colliderect({args[0].src})", "truth"))]
        func = getattr(live, "__func__", None)
        if isinstance(func, types.FunctionType) and self.is_game_fn(func) and base.src is not None and \
                (base.src in self._state_picks or self._root_state_dict(base)) and \
                not isinstance(getattr(live, "__self__", None), type):
            return self.each_state(st, base, name, args, kwargs, node, file)
        if isinstance(func, types.FunctionType) and self.is_game_fn(func):
            src = f"{base.src}.{name}" if base.src is not None else None
            if isinstance(getattr(live, "__self__", None), type):  # a classmethod: cls is the class, not game state
                return self.inline_or_summarize(st, FuncRef(func, G(None, live.__self__), True), args, kwargs, node,
                                                file, src=src)
            return self.inline_or_summarize(st, FuncRef(func, base, True), args, kwargs, node, file, src=src)
        if isinstance(live, types.FunctionType) and self.is_game_fn(live):  # a staticmethod: no self
            return self.inline_or_summarize(st, FuncRef(live), args, kwargs, node, file, src=None)
        if name == "get" and isinstance(base.live, dict) and args:
            if _concrete(args[0]):
                try:
                    return [(st, _wrap(base.live.get(args[0], args[1] if len(args) > 1 else None),
                                       f"{base.src}[{args[0]!r}]" if base.src else None))]
                except TypeError:
                    return [(st, _Fresh())]
            return self.dict_lookup(st, base.live, args[0], args[1] if len(args) > 1 else None, src=base.src)
        if name in ("update",) and base.live is not None and _is_group(base.live):
            return self.group_update(st, base, args, node, file)
        if name == "sprites" and not args and base.live is not None and _is_group(base.live):
            return [(st, self.group_members(base.live))]  # a tuple: ``for s in group.sprites()`` unrolls over it
        # a builtin or library method of a game object: a game expression when its args are
        if base.src is not None and all(_evaluable(a) for a in args) and not kwargs and name not in UNSAFE_CALL_NAMES \
                and not name.startswith("set_") and name.startswith(("get_", "is_", "has_", "collide", "contains",
                                                                   "copy", "keys", "values", "items", "count")):
            live_v = None
            try:
                live_v = live(*[_live(a) for a in args]) if name.startswith(("get_", "is_", "has_")) else None
            except Exception:  # noqa: BLE001
                live_v = None
            return [(st, G(f"{base.src}.{name}({', '.join(_src(a) for a in args)})", live_v))]
        return [(st, _Fresh())]

    def _state_dict_of(self, owner: Any, name: str, obj: Any) -> str | None:
        """The attribute of ``owner`` holding a dict of state objects among which ``obj`` (``owner.name``) is:
        ``self.state`` one of ``self.state_dict``'s values (memoized per owner and attribute)."""
        key = (id(owner), name)
        if key in self._state_dicts:
            return self._state_dicts[key]
        found = None
        if isinstance(getattr(owner, "__dict__", None), dict) and self.is_game_class(type(obj)):
            for dname, d in list(vars(owner).items()):
                if isinstance(dname, str) and dname != name and _state_dict(d, self) and \
                        any(v is obj for v in d.values()):
                    found = dname
                    break
        self._state_dicts[key] = found
        return found

    def _root_state_dict(self, base: G) -> bool:
        """A loop local or module global receiver (``state.update(keys)`` with ``state = states[name]``): whether
        a dict of state objects among the loop's locals or that module's globals holds it (then recorded)."""
        if base.src in self._state_dicts_seen:
            return False
        self._state_dicts_seen.add(base.src or "")
        m = re.fullmatch(r"(L|M\[\d+\])\[('[A-Za-z_]\w*')\]", base.src or "")
        if m is None or base.live is None or self.live_ns is None or not self.is_game_class(type(base.live)):
            return False
        root = m.group(1)
        try:
            ns = self.live_ns["L"] if root == "L" else self.live_ns["M"][int(root[2:-1])]
            items = list(ns.items())
        except Exception:  # noqa: BLE001 - not readable now
            return False
        for k, d in items:
            if isinstance(k, str) and f"{k!r}" != m.group(2) and _state_dict(d, self) and \
                    any(v is base.live for v in d.values()):
                self._state_picks[base.src] = (f"{root}[{k!r}]", d)
                return True
        return False

    def each_state(self, st: State, base: G, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.Call,
                   file: str) -> list[tuple[State, Any]]:
        """A method called on a state object picked from a dict of states (``self.state.get_event(event)`` with
        ``self.state = self.state_dict[self.state_name]``): the method of every state object of the live dict
        runs, each on a path that holds while the receiver is that object (``L['self'].state is
        L['self'].state_dict['race']``, in p_g), not only the state the game is in now. The states whose method
        reads no input share one path (none of the others). An unknown value (``u:state:...``), dropped from
        p_g, keeps two calls on the same receiver in one frame (``get_event`` then ``update``) in one state."""
        dsrc, states = self._state_picks[base.src]
        sel = z3.Int(f"u:state:{base.src}")
        out: list[tuple[State, Any]] = []
        not_here: list[Any] = []
        for i, (k, obj) in enumerate(list(states.items())):
            try:
                bound = getattr(obj, name)
            except Exception:  # noqa: BLE001 - a state without the method: a path of the rest (it would raise)
                continue
            func = getattr(bound, "__func__", None)
            if not isinstance(func, types.FunctionType) or not self.is_game_fn(func) or \
                    isinstance(getattr(bound, "__self__", None), type) or not self._needs_inline(func, args):
                continue
            cond = self.gv.var(f"{base.src} is {dsrc}[{k!r}]", "truth")
            not_here += [z3.Not(cond), sel != i]
            s2 = st.copy()
            s2.pc.append(z3.And(cond, sel == i))
            if not self.feasible(s2.pc):
                continue
            self_v = base if obj is base.live else G(f"{dsrc}[{k!r}]", obj)
            out.extend(self.inline_or_summarize(s2, FuncRef(func, self_v, True), args, kwargs, node, file,
                                                src=f"{self_v.src}.{name}"))
        rest = st.copy()
        if not_here:
            rest.pc.append(z3.And(*not_here))
        if len(not_here) < 2 * len(states) and self.feasible(rest.pc):
            out.append((rest, _Fresh()))
        return out

    def rect_contains(self, st: State, rect: G, p: Vec) -> Any:
        """``rect.collidepoint(p)``: a condition over the rect's fields as game values (the action clicks where the
        rect is at play time). A live rect's fields are its layout: paths are pruned under their values now
        (`feasible`), so a menu's buttons or a board's cells, tested in turn, make one path each (the mouse in
        this one and in none before) rather than every subset of them, and a grid cell the rect misses none."""
        src = rect.src
        x, y = self.gv.var(f"{src}.x", "int"), self.gv.var(f"{src}.y", "int")
        w, h = self.gv.var(f"{src}.w", "int"), self.gv.var(f"{src}.h", "int")
        live = rect.live
        if isinstance(live, (self.pg.Rect, getattr(self.pg, "FRect", self.pg.Rect))):
            for var, val in ((x, live.x), (y, live.y), (w, live.w), (h, live.h)):
                if str(var) not in self.layout:
                    pin = var == int(val)
                    self.layout[str(var)] = pin
                    self._keep.append(pin)
            cell = st.forked.get("mouse")
            if cell is not None and z3.is_expr(p.x) and z3.is_expr(p.y) and \
                    str(p.x) == "in:mx" and str(p.y) == "in:my":
                # the mouse's grid cell misses the rect as it is now: false on this path, no solver call (a board of
                # 64 cells tested in turn costs one check per cell the grid cell meets)
                (x0, x1), (y0, y1) = self.cell_box(cell)
                if live.right <= x0 or live.x >= x1 or live.bottom <= y0 or live.y >= y1:
                    return False
        px, py = _unify(self.to_num(st, p.x), x)[0], _unify(self.to_num(st, p.y), y)[0]
        return z3.And(x <= px, px < x + w, y <= py, py < y + h)

    def group_update(self, st: State, group: G, args: list[Any], node: ast.Call, file: str) -> list[tuple[State, Any]]:
        """``Group.update(*args)`` (``GroupSingle``'s too) calls ``update`` on every sprite: analyse each sprite
        class's update that reads inputs, with ``self`` an instance of that class (root ``S[k]``)."""
        states = [(st, None)]
        passed = any(_holds_input(a) for a in args)  # ``group.update(self.keys)``: each update reads them
        for rep in self.group_members(group.live):
            upd = getattr(type(rep.live), "update", None)
            if not isinstance(upd, types.FunctionType) or not self.is_game_fn(upd) or \
                    not (passed or self.reaches_input(upd.__code__)):
                continue
            nxt = []
            for s, _ in states:
                for s2, _v in self.inline_or_summarize(s, FuncRef(upd, rep, True), args, {}, node, file, src=None):
                    nxt.append((s2, None))
            states = nxt
        return states

    def group_members(self, group: Any) -> tuple[G, ...]:
        """The sprites of a live group as the executor sees them: one per sprite class in it, each an instance
        root ``S[k]`` (found again by its class at play time, so a sprite of that class added later counts):
        ``for s in group``, ``group.sprites()`` and ``Group.update()`` dispatch to each class's methods once."""
        out: list[G] = []
        seen: set[type] = set()
        try:
            sprites = list(group.sprites())
        except Exception:  # noqa: BLE001
            return ()
        for spr in sprites:
            cls = type(spr)
            if cls in seen:
                continue
            seen.add(cls)
            k = self.instance_root(cls)
            while len(self.instances) <= k:
                self.instances.append(spr)
            out.append(G(f"S[{k}]", self.instances[k]))
        return tuple(out)

    def list_store(self, st: State, base: G, name: str, args: list[Any]) -> list[tuple[State, Any]]:
        """``self.pending.append(event)``: input-derived items put into a live list this frame (State.heap,
        under the list's id) are what a later ``for e in self.pending`` walks (collected in one method,
        handled in another); ``extend(pg.event.get())`` puts the frame's event there, ``clear()`` empties."""
        key = (id(base.live), "__items__")
        items = st.heap.get(key, ())
        if name == "clear":
            if key in st.heap:
                st.heap[key] = ()
            return [(st, None)]
        val = args[-1] if args else None
        if name == "extend":
            if isinstance(val, EventList):
                val = EventV()
                new = (*items, val) if isinstance(items, tuple) else items
            elif isinstance(val, tuple):
                new = (*items, *val) if isinstance(items, tuple) else items
            else:
                return [(st, None)]
        else:
            new = (*items, val) if isinstance(items, tuple) else items
        if key in st.heap or _symbolic(val) or isinstance(val, EventV):
            st.heap[key] = new
            if isinstance(val, EventV):
                st.forked["ev_kept"] = True  # kept for later: handled there, or the path is no event
        return [(st, None)]

    def instance_root(self, cls: type) -> int:
        key = (cls.__module__, cls.__qualname__)
        roots = self.roots.setdefault("S", [])
        if key not in roots:
            roots.append(key)
        return roots.index(key)

    def inline_or_summarize(self, st: State, ref: FuncRef, args: list[Any], kwargs: dict[str, Any], node: ast.Call,
                            file: str, src: str | None) -> list[tuple[State, Any]]:
        fn = ref.fn
        if self.truncated and node is self._unused and not self.reaches_input(fn.__code__):
            # past the fork budget, a call whose value is dropped and that reads no input could only add
            # one side of a test on values already read (an inlined call's stores do not outlive it)
            self.summarized.add(fn.__qualname__)
            return [(st, None)]
        if self._needs_inline(fn, args) and st.depth < MAX_DEPTH:
            tree = self.fn_ast(fn)
            if tree is not None:
                self.inlined.add(fn.__qualname__)
                return self.inline(st, ref, tree, args, kwargs, node)
            self.note(node, file, f"source of {fn.__qualname__} is not available: summarized")
        self.summarized.add(fn.__qualname__)
        pure = self.is_pure(fn)
        if pure and not ref.has_self and all(_concrete(a) for a in args) and all(_concrete(v) for v in kwargs.values()) \
                and self._reads_only_constants(fn):
            try:  # a pure game function of concrete values only (``_sign(dx)``): its value
                value = fn(*args, **kwargs)
                if _foldable(value):
                    return [(st, value)]
            except Exception:  # noqa: BLE001
                pass
        if src is not None and all(_evaluable(a) for a in args) and not kwargs and pure:
            live = None
            if ref.has_self and isinstance(ref.self_value, G) and ref.self_value.live is not None:
                try:  # a pure method: its live value tells the types of what it returns (a joystick...)
                    live = fn(ref.self_value.live, *[_live(a) for a in args])
                except Exception:  # noqa: BLE001
                    live = None
            if _is_joystick(live):
                return [(st, JoyV(_joy_index(live)))]
            return [(st, G(f"{src}({', '.join(_src(a) for a in args)})", live))]
        if any(_symbolic(a) for a in args):
            return [(st, _Fresh())]
        return [(st, G(None))]

    def inline(self, st: State, ref: FuncRef, tree: ast.FunctionDef, args: list[Any],
               kwargs: dict[str, Any], node: ast.Call | None = None) -> list[tuple[State, Any]]:
        fn = ref.fn
        caller_env = st.env
        env: dict[str, Any] = {"__globals__": fn.__globals__}
        params = [a.arg for a in tree.args.posonlyargs + tree.args.args]
        values = ([ref.self_value] if ref.has_self else []) + list(args)
        defaults = list(fn.__defaults__ or ())
        for i, p in enumerate(params):
            if i < len(values):
                env[p] = values[i]
            elif p in kwargs:
                env[p] = kwargs[p]
            else:
                j = i - (len(params) - len(defaults))
                env[p] = defaults[j] if 0 <= j < len(defaults) else _Fresh()
        for a in tree.args.kwonlyargs:
            env[a.arg] = kwargs.get(a.arg, (fn.__kwdefaults__ or {}).get(a.arg, _Fresh()))
        if tree.args.vararg:
            env[tree.args.vararg.arg] = tuple(values[len(params):])
        if tree.args.kwarg:
            env[tree.args.kwarg.arg] = _Fresh()
        # attribute paths through self are read live (their values are game state)
        s0 = st.copy()
        s0.env = env
        s0.depth = st.depth + 1
        slice_function(tree, self)
        out = []
        cur, after = self._cur, self._after
        # after the callee returns, the caller's statement has nothing left to do when it is the call itself
        # (``self.handle(e)``, ``x = self.read()``: x is input-derived by name where the rest reads it); in any
        # other expression the rest of the statement may still read inputs
        if not (isinstance(cur, (ast.Expr, ast.Assign)) and node is not None and cur.value is node):
            self._after = True
        try:
            for s, flow in self.run_block(tree.body, s0, fn.__code__.co_filename):
                ret = flow[1] if isinstance(flow, tuple) else None
                s.env = dict(caller_env)
                s.depth = st.depth
                out.append((s, ret))
        finally:
            self._after = after
        return out

    def joy_call(self, st: State, joy: JoyV, name: str, args: list[Any]) -> list[tuple[State, Any]]:
        j = joy.index
        if name == "get_axis" and args and isinstance(args[0], int):
            return self.axis(st, f"ax_{j}_{args[0]}")
        if name == "get_button" and args and isinstance(args[0], int):
            return [(st, self.inp(st, f"jb_{j}_{args[0]}", "bool"))]
        if name == "get_hat" and args and isinstance(args[0], int):
            return [(st, (self.inp(st, f"hx_{j}_{args[0]}"), self.inp(st, f"hy_{j}_{args[0]}")))]
        return [(st, _Fresh())]

    def axis(self, st: State, name: str) -> list[tuple[State, Any]]:
        """An axis value, forked into negative / zero / positive at its first read (the paper's choice)."""
        v = self.inp(st, name, "real")
        if name in st.forked:
            return [(st, v)]
        out = []
        for cond, label in ((v < 0, "neg"), (v == 0, "zero"), (v > 0, "pos")):
            s2 = st.copy()
            s2.pc.append(z3.And(v >= -1, v <= 1, cond))
            s2.forked[name] = label
            out.append((s2, v))
            if self.truncated:
                break
        self._count_fork()
        return out

    def input_call(self, st: State, api: str, args: list[Any], kwargs: dict[str, Any], node: ast.Call,
                   file: str) -> list[tuple[State, Any]]:
        if api == "key.get_pressed":
            return [(st, KeyState())]
        if api == "key.get_just_pressed":
            return [(st, KeyState("down"))]
        if api == "key.get_just_released":
            return [(st, KeyState("up"))]
        if api == "event.get":
            types_ = None
            t = args[0] if args else kwargs.get("eventtype")
            if isinstance(t, int):
                types_ = (t,)
            elif isinstance(t, (tuple, list)) and all(isinstance(x, int) for x in t):
                types_ = tuple(t)
            return [(st, EventList(types_))]
        if api in ("event.poll", "event.wait"):
            s2 = st.copy()
            s2.pc.append(self._event_type_domain(s2, EventList()))
            return [(st, G(None)), (s2, EventV())]
        if api == "mouse.get_pos":
            return self.fork_mouse(st)
        if api == "mouse.get_pressed":
            n = args[0] if args and isinstance(args[0], int) and args[0] in (3, 5) else \
                kwargs.get("num_buttons", 3) if kwargs.get("num_buttons") in (3, 5) else 3
            return [(st, tuple(self.inp(st, f"mb_{i}", "bool") if i <= 3 else False for i in range(1, n + 1)))]
        if api == "mouse.get_rel":
            return [(st, Vec(_Fresh(), _Fresh()))]
        if api == "key.get_mods":
            return [(st, self.inp(st, "mods"))]
        if api == "joystick.get_count":
            return [(st, self.pg.joystick.get_count())]  # fixed by the game's config: folded
        if api == "joystick.Joystick":
            return [(st, JoyV(args[0] if args and isinstance(args[0], int) else 0))]
        return [(st, _Fresh())]

    def cell_box(self, cell: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
        """The screen pixels of a mouse grid cell: ((x0, x1), (y0, y1)), ends excluded."""
        (col, row), (w, h) = cell, self.screen
        return (col * w // GRID, (col + 1) * w // GRID), (row * h // GRID, (row + 1) * h // GRID)

    def fork_mouse(self, st: State) -> list[tuple[State, Any]]:
        """The mouse position, forked into a GRID x GRID screen grid at its first read."""
        pos = self.mouse_pos(st)
        if "mouse" in st.forked:
            return [(st, pos)]
        out = []
        for row in range(GRID):
            for col in range(GRID):
                (x0, x1), (y0, y1) = self.cell_box((col, row))
                s2 = st.copy()
                s2.pc.append(z3.And(pos.x >= x0, pos.x < x1, pos.y >= y0, pos.y < y1))
                s2.forked["mouse"] = (col, row)
                out.append((s2, pos))
                if self.truncated:
                    return out
        self._count_fork()
        return out


# ------------------------------------------------------------------------------------------- slicing
def slice_function(tree: ast.FunctionDef | ast.Module, ex: Executor) -> None:
    """Mark the statements irrelevant to input handling (``_pt_sliced``), once per function.

    Kept: statements that call input APIs or functions that reach them, statements that read a value
    derived from inputs (data dependence, by name, flow-insensitive), the statements those read from
    (backward), and compound statements around anything kept (control dependence). When unsure (a
    call we cannot resolve by name), the statement is kept.
    """
    if getattr(tree, "_pt_sliced_done", False):
        return
    tree._pt_sliced_done = True  # type: ignore[union-attr]
    stmts = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n is not tree]
    params = {a.arg for a in tree.args.args} if isinstance(tree, (ast.FunctionDef, ast.AsyncFunctionDef)) else set()
    tainted: set[str] = set(params) - {"self"}
    # fields a method stored inputs in (``self.keys``, ``self.pending``): reading them (through ``self`` or
    # another name, ``inbox.events``) reads inputs
    fields = set(getattr(ex, "input_fields", ()))

    globs = set(getattr(ex, "input_globals", ()))  # global lists holding inputs, read by their bare name too

    def reads_field(reads: set[str]) -> bool:
        return bool(fields) and any("." in r and r.rsplit(".", 1)[1] in fields or r in globs for r in reads)

    def names_in(node: ast.AST) -> set[str]:
        out = set()
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                out.add(n.id)
            elif isinstance(n, ast.Attribute):
                d = _dotted(n)
                if d:
                    out.add(d)
        return out

    def own_expr_nodes(s: ast.stmt) -> list[ast.AST]:
        if isinstance(s, (ast.If, ast.While)):
            return [s.test]
        if isinstance(s, ast.Match):
            return [s.subject, *[c.pattern for c in s.cases], *[c.guard for c in s.cases if c.guard is not None]]
        if isinstance(s, ast.For):
            return [s.iter, s.target]
        if isinstance(s, ast.With):
            return list(s.items)
        if isinstance(s, (ast.Try, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            return []
        if isinstance(s, ast.Assign):  # what it stores to is not read; the objects it stores into are
            return [s.value, *[r for t in s.targets for r in target_reads(t)]]
        return [s]

    def target_reads(t: ast.expr) -> list[ast.AST]:
        if isinstance(t, ast.Attribute):
            return [t.value]  # ``self.x = v`` reads ``self``, not ``self.x``
        if isinstance(t, ast.Subscript):
            return [t.value, t.slice]
        if isinstance(t, (ast.Tuple, ast.List)):
            return [r for e in t.elts for r in target_reads(e)]
        if isinstance(t, ast.Starred):
            return target_reads(t.value)
        return []

    def calls_input(s: ast.stmt) -> bool:
        for part in own_expr_nodes(s):
            for n in ast.walk(part):
                if isinstance(n, ast.Call):
                    f = n.func
                    name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else None)
                    if name is None or name in _INPUT_NAMES or name in ex.reaching_names:
                        return True
                    if name not in ex.known_names:
                        return True  # unknown callee: keep (over-approximate)
        return False

    def targets_of(s: ast.stmt) -> set[str]:
        ts: list[ast.expr] = []
        if isinstance(s, ast.Assign):
            ts = s.targets
        elif isinstance(s, (ast.AugAssign, ast.AnnAssign)):
            ts = [s.target]
        elif isinstance(s, ast.For):
            ts = [s.target]
        out: set[str] = set()
        for t in ts:
            out |= stored(t)
        return out

    def stored(t: ast.expr) -> set[str]:
        """The name or attribute path a target stores (``self.grid[i] = v`` changes ``self.grid``)."""
        if isinstance(t, ast.Name):
            return {t.id}
        if isinstance(t, ast.Attribute):
            d = _dotted(t)
            return {d} if d else set()
        if isinstance(t, ast.Subscript):
            return stored(t.value)
        if isinstance(t, (ast.Tuple, ast.List)):
            return set().union(*[stored(e) for e in t.elts]) if t.elts else set()
        if isinstance(t, ast.Starred):
            return stored(t.value)
        return set()

    # a plain local set outside any loop and read by nothing after it is dead in this pass: the analysis runs
    # the frame (and each call) once, so ``if game.finished: running = False`` at the end of the main loop's
    # body decides nothing this frame (the next frame reads ``running`` live) and must not fork on game state
    in_any_loop = {id(n) for loop in stmts if isinstance(loop, (ast.For, ast.While))
                   for b in [*loop.body, *loop.orelse] for n in ast.walk(b)}
    call_pos = [_pos(s) for s in stmts if any(isinstance(n, ast.Call) for p in own_expr_nodes(s) for n in ast.walk(p))]
    is_module = isinstance(tree, ast.Module)
    declared = {n for s in stmts if isinstance(s, (ast.Global, ast.Nonlocal)) for n in s.names}

    def dead_store(s: ast.stmt, name: str, reads: list[tuple[int, int]]) -> bool:
        if "." in name or name in declared or id(s) in in_any_loop or not isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            return False
        at = _pos(s)
        if any(r > at for r in reads):
            return False
        return not (is_module and any(c > at for c in call_pos))  # a module global a later call may read

    parents: dict[int, ast.stmt] = {}
    for s in stmts:
        for child in ast.iter_child_nodes(s):
            if isinstance(child, ast.stmt):
                parents[id(child)] = s
            elif isinstance(child, ast.match_case):
                for inner in child.body:
                    parents[id(inner)] = s

    def jump_matters(j: ast.stmt, last_kept: tuple[int, int]) -> bool:
        if isinstance(j, ast.Raise) or isinstance(j, ast.Return) and j.value is not None:
            return True  # it ends the path, or its value is the call's
        if isinstance(j, ast.Return):
            return last_kept > _pos(j)
        return last_kept > (0, 0)  # break / continue: any kept statement may run in a later iteration

    keep: set[int] = set()
    controlled: set[int] = set()  # local assignments under an input-dependent test, in a loop
    in_loops = {id(n) for loop in stmts if isinstance(loop, ast.For) for b in loop.body for n in ast.walk(b)}
    changed = True
    while changed:
        changed = False
        for s in stmts:
            reads = set().union(*[names_in(p) for p in own_expr_nodes(s)]) if own_expr_nodes(s) else set()
            direct = calls_input(s) or bool(reads & tainted) or id(s) in controlled or reads_field(reads)
            if direct:
                new_t = targets_of(s) - tainted
                if new_t:
                    tainted |= new_t
                    changed = True
                if id(s) not in keep:
                    keep.add(id(s))
                    changed = True
                if isinstance(s, (ast.If, ast.Match)) and id(s) in in_loops:
                    # control dependence (inside loops, where merge_locals folds the paths back together): a
                    # local set only when an input-derived test holds is input-derived
                    branches = s.body + s.orelse if isinstance(s, ast.If) else [x for c in s.cases for x in c.body]
                    for inner in branches:
                        if isinstance(inner, (ast.Assign, ast.AugAssign)) and id(inner) not in controlled and \
                                all(isinstance(t, ast.Name) for t in
                                    (inner.targets if isinstance(inner, ast.Assign) else [inner.target])):
                            controlled.add(id(inner))
                            changed = True
        # backward: definitions of names read by kept statements
        needed: dict[str, list[tuple[int, int]]] = {}
        for s in stmts:
            if id(s) in keep:
                for p in own_expr_nodes(s):
                    for name in names_in(p):
                        needed.setdefault(name, []).append(_pos(s))
        for s in stmts:
            if id(s) not in keep and any(not dead_store(s, name, needed[name]) for name in targets_of(s) & needed.keys()):
                keep.add(id(s))
                changed = True
        # control dependence: the compound statements around kept ones, and around a jump that decides
        # whether kept statements run (``if self.press is None: return`` before the handling of a click)
        last_kept = max((_pos(s) for s in stmts if id(s) in keep), default=(0, 0))
        for s in stmts:
            if id(s) in keep or (isinstance(s, JUMPS) and jump_matters(s, last_kept)):
                p = parents.get(id(s))
                while p is not None and id(p) not in keep:
                    keep.add(id(p))
                    changed = True
                    p = parents.get(id(p))
    # the input horizon (`Executor.suffix_reads`): which kept statements read an input themselves. Unlike the
    # slice above, a callee that is no game function (``font.render``, ``dict.update``) reads none: the
    # executor never inlines library code, so no input is read there; a name-less callee
    # (``self.handlers[t](e)``) and a call site where the recording saw a function reaching input are
    # dispatched calls, which do
    dyn = getattr(ex, "dynamic_reaching_lines", None)
    game_names = getattr(ex, "game_names", None)

    def calls_input_h(s: ast.stmt) -> bool:
        if game_names is None:
            return calls_input(s)
        for part in own_expr_nodes(s):
            for n in ast.walk(part):
                if isinstance(n, ast.Call):
                    f = n.func
                    name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else None)
                    if name is None or name in _INPUT_NAMES or name in ex.reaching_names or \
                            (dyn is not None and n.lineno in dyn):
                        return True
                    if name not in game_names and name not in ex.known_names and isinstance(f, ast.Name):
                        return True  # a local or parameter holding a function: a dispatched call
        return False

    reading: dict[int, bool] = {}
    tainted_h: set[str] = set(params) - {"self"}
    grew = True
    while grew:
        grew = False
        for s in stmts:
            if id(s) not in keep or reading.get(id(s)):
                continue
            reads = set().union(*[names_in(p) for p in own_expr_nodes(s)]) if own_expr_nodes(s) else set()
            if calls_input_h(s) or bool(reads & tainted_h) or id(s) in controlled or reads_field(reads):
                reading[id(s)] = True
                tainted_h |= targets_of(s)
                grew = True
    for s in stmts:
        s._pt_in = reading.get(id(s), False)  # type: ignore[attr-defined]
        if id(s) in keep or isinstance(s, (ast.Return, ast.Break, ast.Continue, ast.Raise)):
            ex.kept_stmts += 1
        else:
            s._pt_sliced = True  # type: ignore[attr-defined]
            ex.sliced_stmts += 1


JUMPS = (ast.Return, ast.Break, ast.Continue, ast.Raise)


def _typed(code: int, case: str = "") -> str:
    """The character a printable key types without a modifier, with a ``.lower()`` / ``.upper()`` applied."""
    ch = chr(code)
    return ch.upper() if case == "upper" else ch


def _printable_codes(blacklist: frozenset[int]) -> list[int]:
    return [c for c in range(32, 127) if c not in blacklist and not chr(c).isupper()]


def _char_code(text: str, case: str, blacklist: frozenset[int]) -> int | None:
    """The key code that types ``text`` (one character; a letter case-insensitively, as the driver types a
    letter lowercase and upper with shift); None when no printable key types it, or it is blacklisted."""
    if len(text) != 1:
        return None
    for c in _printable_codes(blacklist):
        if _typed(c, case) == text or (case == "" and text.isalpha() and chr(c) == text.lower()):
            return c
    return None


def _stmt_reads(s: ast.stmt) -> bool:
    """Whether ``s`` or a statement nested in it may read an input (``_pt_in``; not sliced yet: it may)."""
    for n in ast.walk(s):
        if isinstance(n, ast.stmt) and not getattr(n, "_pt_sliced", False) and getattr(n, "_pt_in", True):
            return True
    return False


def _holds_input(v: Any, depth: int = 0) -> bool:
    """Whether a stored value carries an input (a z3 term over ``in:`` variables, an input handle)."""
    if isinstance(v, (KeyState, EventList, EventV, JoyV)):
        return True
    if isinstance(v, z3.ExprRef):
        return any(n.startswith("in:") for n in _var_map(v))
    if isinstance(v, Vec):
        return _holds_input(v.x, depth) or _holds_input(v.y, depth)
    if isinstance(v, (tuple, list)) and depth < 3:
        return any(_holds_input(x, depth + 1) for x in v)
    return False


def _pos(s: ast.AST) -> tuple[int, int]:
    return (getattr(s, "lineno", 0), getattr(s, "col_offset", 0))


_LIST_OPS = {"append", "extend", "clear", "insert"}
_INPUT_NAMES = {"get_pressed", "get_just_pressed", "get_just_released", "get", "poll", "wait", "get_pos",
                "get_rel", "get_mods", "get_axis", "get_button", "get_hat", "Joystick"}


# ------------------------------------------------------------------------------------------- helpers
_NOPE = object()


def _pattern_test(p: ast.pattern, hidden: str) -> tuple[ast.expr | None, list[str]]:
    """A ``case`` pattern as a test on the subject (held in the local ``hidden``) and the names it binds;
    the test is None for a pattern with no such test (class, sequence, mapping: taken under an unknown
    condition, its names bound to unknown values)."""
    subj = ast.Name(id=hidden, ctx=ast.Load())
    if isinstance(p, ast.MatchValue):
        return ast.Compare(left=subj, ops=[ast.Eq()], comparators=[p.value]), []
    if isinstance(p, ast.MatchSingleton):
        return ast.Compare(left=subj, ops=[ast.Is()], comparators=[ast.Constant(value=p.value)]), []
    if isinstance(p, ast.MatchAs):
        if p.pattern is None:
            return ast.Constant(value=True), [p.name] if p.name else []
        test, binds = _pattern_test(p.pattern, hidden)
        return test, binds + ([p.name] if p.name else [])
    if isinstance(p, ast.MatchOr):
        parts = [_pattern_test(x, hidden) for x in p.patterns]
        if any(t is None for t, _ in parts):
            return None, _captures(p)
        return ast.BoolOp(op=ast.Or(), values=[t for t, _ in parts]), parts[0][1] if parts else []
    return None, _captures(p)


def _captures(p: ast.pattern) -> list[str]:
    out = []
    for n in ast.walk(p):
        if isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            out.append(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            out.append(n.rest)
    return out


def _rename(e: ast.expr, names: list[str], hidden: str) -> ast.expr:
    """The guard ``e`` with the names its pattern captured (all the subject itself) read as ``hidden``."""
    if not names:
        return e

    class R(ast.NodeTransformer):
        def visit_Name(self, n: ast.Name) -> ast.AST:  # noqa: N802
            return ast.copy_location(ast.Name(id=hidden, ctx=n.ctx), n) if n.id in names else n

    import copy

    return R().visit(copy.deepcopy(e))


def _concrete(v: Any) -> bool:
    if isinstance(v, (z3.ExprRef, G, _Fresh, KeyState, EventList, EventV, JoyV, Vec, FuncRef, SymStr)):
        return False
    if isinstance(v, tuple):
        return all(_concrete(x) for x in v)
    return True


def _symbolic(v: Any) -> bool:
    """Does ``v`` depend on user inputs?"""
    if isinstance(v, z3.ExprRef):
        return any(n.startswith("in:") for n in _var_map(v))
    if isinstance(v, (EventV, KeyState, EventList, JoyV, SymStr)):
        return True
    if isinstance(v, Vec):
        return _symbolic(v.x) or _symbolic(v.y)
    if isinstance(v, tuple):
        return any(_symbolic(x) for x in v)
    return False


def _handler_table(v: Any) -> bool:
    """A live dict of handlers (bound methods or functions, or lists of them): its keys are fixed while the
    game runs, unlike a dict of game state (``self.cooldowns``), which may be empty now and not later."""
    if not isinstance(v, dict) or not v or len(v) > 512:
        return False
    for x in v.values():
        items = x if isinstance(x, (list, tuple)) else [x]
        if not items or not all(isinstance(i, (types.MethodType, types.FunctionType)) for i in items):
            return False
    return True


def _wrap(v: Any, src: str | None, depth: int = 0) -> Any:
    """A live value read out of a game container, as the executor holds it: a bound method (a handler in a
    table) becomes a method of the object it is bound to (``src.__self__``); lists of them, tuples."""
    if isinstance(v, types.MethodType) and isinstance(v.__func__, types.FunctionType):
        return ("method", G(f"{src}.__self__" if src else None, v.__self__), v.__name__, v)
    if isinstance(v, (list, tuple)) and depth < 2 and len(v) <= 64 and \
            any(isinstance(x, (types.MethodType, list, tuple)) for x in v):
        return tuple(_wrap(x, f"{src}[{i}]" if src else None, depth + 1) for i, x in enumerate(v))
    return v


def _evaluable(v: Any) -> bool:
    if isinstance(v, G):
        return v.src is not None
    return _concrete(v) and isinstance(v, (int, float, str, bool, type(None), tuple))


def _src(v: Any) -> str:
    return v.src if isinstance(v, G) else repr(v)


def _live(v: Any) -> Any:
    return v.live if isinstance(v, G) else v


_VARS_CACHE: dict[int, tuple[Any, dict[str, Any]]] = {}


def _var_map(e: Any) -> dict[str, Any]:
    """The uninterpreted constants of a z3 expression, by name (memoized per sub-expression: path
    conditions share most of their structure)."""
    eid = e.get_id()
    got = _VARS_CACHE.get(eid)
    if got is not None:
        return got[1]
    if len(_VARS_CACHE) > 300000:
        _VARS_CACHE.clear()
    n = e.num_args() if z3.is_app(e) else 0
    if n == 0:
        out = {e.decl().name(): e} if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED else {}
    else:
        out = {}
        for k in range(n):
            child = _var_map(e.arg(k))
            if child:
                if not out:
                    out = child
                elif child is not out:
                    out = {**out, **child}
    _VARS_CACHE[eid] = (e, out)  # e is kept alive, so its id stays its own
    return out


def _names(e: Any) -> set[str]:
    return set(_var_map(e))


def _vars(e: Any) -> set[Any]:
    return set(_var_map(e).values())


def _vsig(v: Any, depth: int = 0) -> Any:
    """A hashable summary of a local's value for state merging: equal summaries mean equal values (z3
    terms are hash-consed, so equal terms share an id); anything else is compared by identity."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return (type(v).__name__, v)
    if isinstance(v, z3.ExprRef):
        return ("z", v.get_id())
    if isinstance(v, (tuple, list)) and depth < 4 and len(v) <= 64:
        return (type(v).__name__, tuple(_vsig(x, depth + 1) for x in v))
    if isinstance(v, Vec):
        return ("vec", _vsig(v.x, depth + 1), _vsig(v.y, depth + 1))
    return ("id", id(v))


def _plain(v: Any, depth: int = 0) -> bool:
    """Data, not a way to reach inputs or game objects: a value that may become unknown at a join."""
    if v is _NOPE or v is None or isinstance(v, (bool, int, float, str, z3.ExprRef, _Fresh)):
        return True
    if isinstance(v, G):
        return v.live is None or isinstance(v.live, (bool, int, float, str))
    if isinstance(v, Vec):
        return _plain(v.x, depth + 1) and _plain(v.y, depth + 1)
    if isinstance(v, tuple) and depth < 4 and len(v) <= 16:
        return all(_plain(x, depth + 1) for x in v)
    return False


def _only_locals(body: list[ast.stmt]) -> bool:
    """The statements only compute and set local names (no call, no attribute or item store, no flow out
    of the loop), so two paths with equal locals after them are the same path."""
    for n in (x for stmt in body for x in ast.walk(stmt)):
        if getattr(n, "_pt_sliced", False):
            return False  # a sliced statement may have set something: the locals do not tell the paths apart
        if isinstance(n, (ast.Call, ast.Return, ast.Break, ast.Raise, ast.Yield, ast.YieldFrom, ast.Await,
                          ast.Global, ast.Nonlocal, ast.Delete, ast.With, ast.Try, ast.NamedExpr)):
            return False
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(not all(isinstance(t, ast.Name) for t in ast.walk(x) if isinstance(t, ast.expr) and
                           not isinstance(t, (ast.Tuple, ast.List, ast.Load, ast.Store))) for x in targets):
                return False
    return True


def _foldable(v: Any) -> bool:
    if isinstance(v, (bool, int, float, str, type(None))):
        return True
    if isinstance(v, (tuple, frozenset)):
        try:
            return len(v) <= 4096 and all(_foldable(x) for x in v)
        except TypeError:  # a tuple subclass that refuses iteration (key states): not a constant table
            return False
    if isinstance(v, dict):
        return len(v) <= 4096 and all(_foldable(k) and _foldable(x) for k, x in v.items())
    return False


def _as_bool(v: Any) -> Any:
    if isinstance(v, bool):
        return z3.BoolVal(v)
    return v


def _as_vec(v: Any) -> Vec | None:
    if isinstance(v, Vec):
        return v
    if isinstance(v, tuple) and len(v) == 2:
        return Vec(v[0], v[1])
    if isinstance(v, G) and v.src is not None:
        return Vec(G(f"{v.src}[0]"), G(f"{v.src}[1]"))
    return None


def _unify(x: Any, y: Any) -> tuple[Any, Any]:
    """Make an Int and a Real term comparable (z3 does not mix sorts)."""
    xa, ya = isinstance(x, z3.ArithRef), isinstance(y, z3.ArithRef)
    xi = xa and _int_sorted(x)
    yi = ya and _int_sorted(y)
    xr = isinstance(x, float) or xa and not xi
    yr = isinstance(y, float) or ya and not yi
    if xr and yi:
        y = z3.ToReal(y)
    if yr and xi:
        x = z3.ToReal(x)
    return x, y


def _int_sorted(e: Any) -> bool:
    """``e.is_int()`` without building a SortRef (this runs for every arithmetic operand)."""
    ctx = e.ctx_ref()
    return z3.Z3_get_sort_kind(ctx, z3.Z3_get_sort(ctx, e.as_ast())) == z3.Z3_INT_SORT


def _is_int_term(v: Any) -> bool:
    return isinstance(v, int) or isinstance(v, z3.ArithRef) and v.is_int()


def _iter_concrete(v: Any) -> list[Any] | None:
    if isinstance(v, (tuple, list, frozenset, set, range, str)):
        return list(v)
    if isinstance(v, dict):
        return list(v)
    if isinstance(v, types.GeneratorType):
        return None
    return None


def _unpack(v: Any, n: int) -> list[Any]:
    if isinstance(v, Vec) and n == 2:
        return [v.x, v.y]
    if isinstance(v, tuple) and len(v) == n:
        return list(v)
    if isinstance(v, G) and v.src is not None:
        live = list(v.live) if isinstance(v.live, (tuple, list)) and len(v.live) == n else [None] * n
        return [G(f"{v.src}[{i}]", live[i]) for i in range(n)]
    return [_Fresh() for _ in range(n)]


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def _as_load(node: ast.expr) -> ast.expr:
    new = ast.parse(ast.unparse(node), mode="eval").body
    ast.copy_location(new, node)
    return new


def _owner_class(fn: types.FunctionType) -> type | None:
    qual = fn.__qualname__.split(".")
    if len(qual) < 2:
        return None
    obj: Any = __import__("sys").modules.get(fn.__module__)
    for part in qual[:-1]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj if isinstance(obj, type) else None


def _is_joystick(v: Any) -> bool:
    return type(v).__name__ in ("VirtualJoystick", "JoystickType", "Joystick") and hasattr(v, "get_axis")


def _joy_index(v: Any) -> int:
    try:
        return int(v.get_id())
    except Exception:  # noqa: BLE001
        return 0


def _state_dict(d: Any, ex: Executor) -> bool:
    """A dict of a game's state objects: 2 to 64 entries under constant keys, each an instance of a game class."""
    return type(d) is dict and 2 <= len(d) <= 64 and all(
        isinstance(k, (str, int)) and not isinstance(v, type) and ex.is_game_class(type(v)) for k, v in d.items())


def _is_group(v: Any) -> bool:
    """A pygame sprite group, or a game's subclass of one (``class CameraGroup(pygame.sprite.Group)``)."""
    return hasattr(v, "sprites") and hasattr(v, "update") and \
        any(c.__module__.startswith("pygame") and c.__name__ == "AbstractGroup" for c in type(v).__mro__)


def _safe_pure(fn: Any) -> bool:
    return fn in PURE_BUILTINS or getattr(fn, "__module__", None) == "math" or fn is math.hypot


_PYCMP = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
          ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}
_PYOP = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
         ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
         ast.Pow: lambda a, b: a ** b, ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b,
         ast.BitXor: lambda a, b: a ^ b, ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b}
_OPSRC = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
          ast.Pow: "**", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
