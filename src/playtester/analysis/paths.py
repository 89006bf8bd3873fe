"""From explored paths to actions (Section 3.3 and Appendix A of the action-space paper).

Each path condition p is split into conjuncts over game state only (p_g), conjuncts that involve
inputs (p_i, solved at play time under the concrete game state), and conjuncts over unknowns only
(dropped: nothing at play time can evaluate them). Paths with the same p_g and p_i are one action.
p_g is compiled to Python over the live game (`to_python`); p_i travels as SMT-LIB text.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import z3

from playtester.analysis import symbolic as sx

MAX_ACTIONS = 512  # distinct paths turned into actions; more are reported and left out
ACTIONS_RESERVE = 0.3  # share of the analysis budget kept for turning the paths read into actions
# read and made whatever the budget says, so that an analysis whose execution used the budget up still has a
# (partial) space: a bounded overrun of the budget
MIN_PATHS = 256
MIN_ACTIONS = 32


def conjuncts(e: Any) -> list[Any]:
    if z3.is_and(e):
        out = []
        for c in e.children():
            out.extend(conjuncts(c))
        return out
    return [e]


def var_kinds(e: Any) -> set[str]:
    return {n.split(":", 1)[0] for n in sx._var_map(e)}


def build_actions(ex: sx.Executor, ends: list[sx.State], screen: tuple[int, int]) -> tuple[list[dict[str, Any]], int]:
    seen: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}  # (p_g, p_i) -> its entry in unique
    order: list[dict[str, Any]] = []
    merged = 0
    kind_of: dict[int, str] = {}  # conjunct id -> "g" (game only) | "i" (inputs) | "" (drop)
    keep: list[Any] = []
    flat_of: dict[int, list[Any]] = {}
    unique: list[Any] = []
    # past this, the paths read so far become the actions (a partial space): the rest of the budget is kept for
    # building and naming them. The paths are read in a spread order (the executor's is depth-first: a prefix
    # of it would be one corner of the input handling)
    soft_deadline = ex.hard_deadline - ACTIONS_RESERVE * ex.budget_s
    spread = list(range(len(ends)))
    random.Random(len(ends)).shuffle(spread)
    for n_read, k in enumerate(spread):
        st = ends[k]
        if (n_read >= MIN_PATHS and time.process_time() > soft_deadline) or (n_read and ex.past_ceiling()):
            ex.partial = "; ".join(filter(None, [ex.partial, f"{n_read} of {len(ends)} paths read before the "
                                                              "analysis budget ran out"]))
            break
        pg_parts, pi_parts = [], []
        flat = []
        for c0 in st.pc:
            if c0.get_id() in ex.assumed:
                continue  # followed on the live state past the fork budget: not a validity condition
            got = flat_of.get(c0.get_id())
            if got is None:
                keep.append(c0)
                got = flat_of[c0.get_id()] = conjuncts(c0)
            flat.extend(got)
        for c in flat:
            cid = c.get_id()
            kind = kind_of.get(cid)
            if kind is None:
                keep.append(c)
                kinds = var_kinds(c)
                if "in" in kinds:
                    kind = "i"
                elif (kinds <= {"g"} and kinds) or (not kinds and z3.is_false(z3.simplify(c))):
                    kind = "g"
                else:
                    kind = ""  # unknown-only or unknown+game: dropped (over-approximation)
                kind_of[cid] = kind
            if kind == "g":
                pg_parts.append(c)
            elif kind == "i":
                pi_parts.append(c)
        key = (tuple(sorted({c.get_id() for c in pg_parts})), tuple(sorted({c.get_id() for c in pi_parts})))
        if key in seen:
            merged += 1
            j = seen[key]
            if k < unique[j][0]:  # the one first in the executor's order stands for them (as without a budget)
                unique[j] = (k, key, pg_parts, pi_parts, st)
            continue
        seen[key] = len(unique)
        unique.append((k, key, pg_parts, pi_parts, st))
    unique = [u[1:] for u in sorted(unique, key=lambda u: u[0])]  # back in the executor's order
    if len(unique) > MAX_ACTIONS:
        # keep every game state served: take paths round-robin over their p_g, so no state is left
        # without actions when the cap cuts
        ex.notes.append(f"{len(unique)} distinct paths: {MAX_ACTIONS} became actions, round-robin over "
                        "their game-state conditions")
        groups: dict[Any, list[Any]] = {}
        for u in unique:
            groups.setdefault(u[0][0], []).append(u)
        picked: list[Any] = []
        while len(picked) < MAX_ACTIONS:
            for g in groups.values():
                if g and len(picked) < MAX_ACTIONS:
                    picked.append(g.pop(0))
        unique = picked
    # many paths share p_i (they differ in p_g): build, expand, solve and print it once per distinct p_i
    by_pi: dict[tuple[int, ...], tuple[Any, list[Any], dict[str, Any], str, str]] = {}
    for key, pg_parts, pi_parts, st in unique:
        if order and ((len(order) >= MIN_ACTIONS and time.process_time() > ex.hard_deadline)
                      or ex.past_ceiling()):  # keep those made: a partial space
            ex.partial = "; ".join(filter(None, [ex.partial, f"{len(order)} of {len(unique)} actions made before "
                                                 "the analysis budget ran out"]))
            break
        got = by_pi.get(key[1])
        if got is None:
            pi = _and(pi_parts)
            ex._last_pins = {}
            prev = _previous_frame(pi, ex)
            solver = z3.Solver()
            solver.set("timeout", ex.ms_left(500))  # within the budget's ceiling
            solver.add(pi)
            pi_text = _readable(_and([c for c in pi_parts if not _is_domain(c)]) if pi_parts else pi, ex.gv)
            got = by_pi[key[1]] = (pi, prev, ex._last_pins, solver.to_smt2(), pi_text)
        pi, prev, pins, text, pi_text = got
        for k_pi, k_text, k_pi_text, k_pins in _per_key(ex, pi, text, pi_text, pins):
            order.append(_action(ex, k_pi, prev, k_pins, k_text, k_pi_text, pg_parts, st))
    return order, merged


SPLIT_KEYS_MAX = 24  # a path whose event key may be any of 2 to this many keys is one action per key


def _per_key(ex: Any, pi: Any, text: str, pi_text: str, pins: dict[str, Any]) -> list[tuple[Any, str, str, Any]]:
    """One p_i per key the path's event key may be, when that is 2 to ``SPLIT_KEYS_MAX`` keys (``K_1 <= event.key
    <= K_9``, ``event.key in KEYPAD``, ``event.unicode.isdigit()``): the paper's actions are inputs, and one
    solution of such a path pressed one digit of nine (sudoku's digits found 1 of 10 each way); else the path as
    it is (one key, or any key but those tested: an "other key" path)."""
    if "in:ev_key" not in sx._var_map(pi) or pins.get("key") is not None or ex.past_ceiling() or \
            time.process_time() > ex.hard_deadline:
        return [(pi, text, pi_text, pins)]
    key = z3.Int("in:ev_key")
    solver = z3.Solver()
    solver.set("timeout", ex.ms_left(200))
    solver.add(pi)
    found: list[int] = []
    while len(found) <= SPLIT_KEYS_MAX:
        if solver.check() != z3.sat:
            break
        v = solver.model().eval(key, model_completion=True)
        if not z3.is_int_value(v):
            return [(pi, text, pi_text, pins)]
        found.append(v.as_long())
        solver.add(key != v)
    if not 2 <= len(found) <= SPLIT_KEYS_MAX or solver.check() == z3.unknown:
        return [(pi, text, pi_text, pins)]
    out = []
    for code in sorted(found):
        one = z3.And(pi, key == code)
        smt = z3.Solver()
        smt.add(one)
        out.append((one, smt.to_smt2(), f"{pi_text} and (ev_key == {code})", pins))
    return out


def _action(ex: Any, pi: Any, prev: list[Any], pins: dict[str, Any], text: str, pi_text: str, pg_parts: list[Any],
            st: Any) -> dict[str, Any]:
    """One path's action: its p_g and p_i, compiled and printed, and what performing it needs."""
    pg_parts = pg_parts + prev
    names = sx._var_map(pi)
    # does solving depend on the previous frame's inputs beyond what p_g already tests?
    ev = "in:ev_type" in names
    # (a key or button p_i leaves free is picked among those up, or released among those held: the held
    # ones matter then too; so does the mouse for a motion p_i does not place)
    kinds = pins.get("type")
    needs_held = [k for k, need in (
        ("keys", ev and pins.get("key") is None and
         ("in:ev_key" in names or kinds in (None, ex.pg.KEYDOWN, ex.pg.KEYUP))),
        ("mouse_buttons", ev and pins.get("button") is None and
         ("in:ev_button" in names or kinds in (None, ex.pg.MOUSEBUTTONDOWN, ex.pg.MOUSEBUTTONUP))),
        ("mouse_pos", ev and kinds in (None, ex.pg.MOUSEMOTION))) if need]
    pg = z3.simplify(_and(pg_parts)) if pg_parts else z3.BoolVal(True)
    game_in_pi = sorted(n for n in sx._var_map(pi) if n.startswith("g:"))
    pg_src = to_python(pg, ex.gv)
    # p_g without its tests on sprite instances (S[k]): what holds while no instance exists yet (a ship that
    # joins its group when play starts), instead of taking every such action for valid
    free = [c for c in pg_parts if "S[" not in to_python(c, ex.gv)] if "S[" in pg_src else None
    act = {"_pi": pi, "p_g": pg_src, "p_g_text": _readable(pg, ex.gv), "p_i": text,
           **({"p_g_free": to_python(z3.simplify(_and(free)) if free else z3.BoolVal(True), ex.gv)}
              if free is not None else {}),
           "p_i_text": pi_text,
           "p_i_game_vars": game_in_pi,
           "forked": {k: list(v) if isinstance(v, tuple) else v for k, v in st.forked.items()
                      if k not in ("ev_key_domain", "ev_kept") and not k.startswith("num:")},
           "decisions": [[f, line, side] for f, line, side in st.decisions],
           "needs_held": needs_held,
           "tap_key": pins.get("tap"),
           "uses_instances": "S[" in pg_src or any("S[" in ex.gv.info[g]["src"] for g in game_in_pi)}
    return act


def _and(parts: list[Any]) -> Any:
    """``z3.And(*parts)`` for Bool terms of one context, built in one C call (z3.And coerces and checks
    every argument in Python, which dominated the actions phase on games with long path conditions)."""
    if not parts:
        return z3.BoolVal(True)
    if len(parts) == 1:
        return parts[0]
    ctx = parts[0].ctx
    arr = (z3.Ast * len(parts))()
    for i, c in enumerate(parts):
        arr[i] = c.as_ast()
    return z3.BoolRef(z3.Z3_mk_and(ctx.ref(), len(parts), arr), ctx)


def _pinned(solver: Any, var: Any) -> int | None:
    """The value ``var`` must take in every solution, or None."""
    if solver.check() != z3.sat:
        return None
    v = solver.model().eval(var, model_completion=True)
    if not z3.is_int_value(v):
        return None
    solver.push()
    solver.add(var != v)
    unique = solver.check() == z3.unsat
    solver.pop()
    return v.as_long() if unique else None


def _previous_frame(pi: Any, ex: sx.Executor) -> list[Any]:
    """Multi-frame inputs: a KEYDOWN/KEYUP (or button) event of a known key needs that key up (down) in
    the previous frame, which is game state (the paper's expansion); it joins p_g as a held-input test."""
    names = sx._var_map(pi)
    if "in:ev_type" not in names:
        return []
    s = getattr(ex, "_frame_solver", None)
    if s is None:
        s = ex._frame_solver = z3.Solver()  # one solver for every p_i (push / pop): no set-up per action
    s.set("timeout", ex.ms_left(200))
    s.push()
    try:
        return _expand(s, pi, names, ex)
    finally:
        s.pop()


def _expand(s: Any, pi: Any, names: dict[str, Any], ex: sx.Executor) -> list[Any]:
    s.add(pi)
    t = _pinned(s, names["in:ev_type"])
    pg = ex.pg
    out = []
    ex._last_pins = {"type": t}
    if t in (pg.KEYDOWN, pg.KEYUP) and "in:ev_key" in names:
        k = _pinned(s, names["in:ev_key"])
        ex._last_pins["key"] = k
        if k is not None:
            held = ex.gv.var(f"{k} in H.keys", "held_key")
            out.append(z3.Not(held) if t == pg.KEYDOWN else held)
            if t == pg.KEYUP:
                ex._last_pins["tap"] = k  # performed as a tap where the key is up (`space._Runtime.perform`)
    if t == pg.KEYUP and ex._last_pins.get("key") is None:
        # "release any key" (a title's ``if event.type == KEYUP: waiting = False``, maybe after ``key != ESCAPE``):
        # with no key held no KEYUP can come, so the action taps one its condition allows (SPACE when it may),
        # down then up within the action, as for a known key's KEYUP
        ex._last_pins["tap"] = _some_key(s, names.get("in:ev_key"), pg.K_SPACE)
    if t in (pg.MOUSEBUTTONDOWN, pg.MOUSEBUTTONUP) and "in:ev_button" in names:
        b = _pinned(s, names["in:ev_button"])
        ex._last_pins["button"] = b
        if b is not None:
            held = ex.gv.var(f"{b} in H.mouse_buttons", "held_button")
            out.append(z3.Not(held) if t == pg.MOUSEBUTTONDOWN else held)
    return out


def _some_key(s: Any, key: Any, prefer: int) -> int | None:
    """A key code the solver's constraints allow for ``key`` (``prefer`` when they allow it); None when ``key`` is
    not constrained (any key: ``prefer``) or nothing is satisfiable."""
    if key is None:
        return prefer
    s.push()
    try:
        s.add(key == prefer)
        if s.check() == z3.sat:
            return prefer
    finally:
        s.pop()
    if s.check() != z3.sat:
        return None
    v = s.model().eval(key, model_completion=True)
    return v.as_long() if z3.is_int_value(v) and v.as_long() > 0 else None


def _is_domain(c: Any) -> bool:
    """The 'some input event happened' conjunct (ev_type is one of the device's event types)."""
    return z3.is_or(c) and set(sx._var_map(c)) == {"in:ev_type"}


# --------------------------------------------------------------------------- z3 -> Python (Appendix A)
_CMP = {z3.Z3_OP_EQ: "==", z3.Z3_OP_LE: "<=", z3.Z3_OP_LT: "<", z3.Z3_OP_GE: ">=", z3.Z3_OP_GT: ">",
        z3.Z3_OP_ADD: "+", z3.Z3_OP_SUB: "-", z3.Z3_OP_MUL: "*", z3.Z3_OP_DIV: "/", z3.Z3_OP_IDIV: "//",
        z3.Z3_OP_MOD: "%"}


_MEMO: dict[tuple[int, bool], tuple[Any, str]] = {}


def to_python(e: Any, gv: sx.GameVars, readable: bool = False) -> str:
    """A Python expression equivalent to the z3 formula ``e`` over game variables (memoized: the same
    sub-formulas recur in many path conditions)."""
    key = (e.get_id(), readable)
    got = _MEMO.get(key)
    if got is not None and got[0].eq(e):
        return got[1]
    out = _to_python(e, gv, readable)
    if len(_MEMO) > 100000:
        _MEMO.clear()
    _MEMO[key] = (e, out)
    return out


def _to_python(e: Any, gv: sx.GameVars, readable: bool) -> str:
    k = e.decl().kind() if z3.is_app(e) else None
    if z3.is_true(e):
        return "True"
    if z3.is_false(e):
        return "False"
    if z3.is_int_value(e):
        return str(e.as_long())
    if z3.is_rational_value(e):
        return repr(float(e.numerator_as_long()) / float(e.denominator_as_long()))
    if z3.is_const(e) and k == z3.Z3_OP_UNINTERPRETED:
        name = e.decl().name()
        info = gv.info.get(name)
        if info is None:
            return name if readable else "True"
        return f"({info['src']})"
    args = e.children()
    if k == z3.Z3_OP_AND:
        return "(" + " and ".join(to_python(a, gv, readable) for a in args) + ")"
    if k == z3.Z3_OP_OR:
        return "(" + " or ".join(to_python(a, gv, readable) for a in args) + ")"
    if k == z3.Z3_OP_NOT:
        return f"(not {to_python(args[0], gv, readable)})"
    if k == z3.Z3_OP_ITE:
        return f"({to_python(args[1], gv, readable)} if {to_python(args[0], gv, readable)} else {to_python(args[2], gv, readable)})"
    if k in (z3.Z3_OP_TO_REAL, z3.Z3_OP_TO_INT):
        return to_python(args[0], gv, readable)
    if k == z3.Z3_OP_UMINUS:
        return f"(-{to_python(args[0], gv, readable)})"
    if k == z3.Z3_OP_EQ and len(args) == 2:
        # enums: a string compared with a constant
        for a, b in ((args[0], args[1]), (args[1], args[0])):
            if z3.is_const(a) and a.decl().name() in gv.enums and z3.is_int_value(b):
                inv = {v: s for s, v in gv.enums[a.decl().name()].items()}
                s = inv.get(b.as_long())
                if s is not None:
                    return f"({to_python(a, gv, readable)} == {s!r})"
    if k in _CMP and len(args) >= 2:
        op = _CMP[k]
        return "(" + f" {op} ".join(to_python(a, gv, readable) for a in args) + ")"
    if k == z3.Z3_OP_DISTINCT and len(args) == 2:
        return f"({to_python(args[0], gv, readable)} != {to_python(args[1], gv, readable)})"
    if readable:
        return e.sexpr()
    return "True"  # something we cannot translate: valid (over-approximate)


def _readable(e: Any, gv: sx.GameVars) -> str:
    """The formula as Python-like text with game variables shown as their source (for people)."""
    text = to_python(e, gv, readable=True)
    text = re.sub(r"L\['(\w+)'\]", r"\1", text)
    text = re.sub(r"M\[\d+\]\['(\w+)'\]", r"\1", text)
    text = re.sub(r"S\[\d+\]", "self", text)
    return text.replace("in:", "")
