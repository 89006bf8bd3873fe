"""p_i as plain Python: a z3 formula translated once into a compiled predicate over an assignment.

`compile_smt2(text)` translates p_i's SMT-LIB text (as z3's ``to_smt2`` writes it: declarations, asserts,
lets; Boolean connectives, ite, comparisons, integer and real arithmetic, div/mod/rem, to_real/to_int/
is_int/abs, numerals, constants) into one Python function and returns it as a `Predicate`, or None when
the text holds anything else (the caller then keeps using z3). Reading the text is much faster than
walking the z3 AST through its Python API. `compile_formula` does the same for a z3 expression.
``Predicate(values)`` takes a dict {constant name: value} (bool, int, or `fractions.Fraction` for reals:
exact, as z3 is) and answers True or False, or None when it cannot decide (a constant without a value,
a division by zero, whose value z3 leaves to the model).

`Devices.ok` is `space.add_device_rules` (and `space.solve`'s key list) checked on an assignment: what
the solver enforces besides p_i when an action is performed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

MAX_INLINE_DEPTH = 40  # deeper sub-expressions go to temporaries (Python's parser limits nesting)


class Unsupported(Exception):
    """The formula uses an operator the translation does not cover."""


def _idiv(a: int, b: int) -> int:
    """SMT-LIB ``div``: a = b * q + r with 0 <= r < |b|."""
    if b == 0:
        raise ZeroDivisionError
    return (a - a % abs(b)) // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError
    return a % abs(b)


def _rem(a: int, b: int) -> int:
    """z3's ``rem``: mod with the divisor's sign."""
    r = _mod(a, b)
    return r if b >= 0 else -r


def _rdiv(a: Any, b: Any) -> Fraction:
    if b == 0:
        raise ZeroDivisionError
    return Fraction(a) / b


def _distinct(*xs: Any) -> bool:
    return all(xs[i] != xs[j] for i in range(len(xs)) for j in range(i + 1, len(xs)))


_HELPERS: dict[str, Any] = {"_idiv": _idiv, "_mod": _mod, "_rem": _rem, "_rdiv": _rdiv, "_distinct": _distinct,
                            "_floor": math.floor, "_abs": abs, "Fraction": Fraction}


class Predicate:
    """A compiled formula: ``pred(values) -> True | False | None`` (None: undecided)."""

    def __init__(self, fn: Callable[[dict[str, Any]], Any], names: tuple[str, ...], source: str) -> None:
        self.fn = fn
        self.names = names  # the formula's constants
        self.source = source

    def __call__(self, values: dict[str, Any]) -> bool | None:
        try:
            return bool(self.fn(values))
        except (KeyError, ZeroDivisionError, TypeError, ValueError, OverflowError):
            return None


def compile_formula(formula: Any) -> Predicate | None:
    """A z3 formula as a compiled Python predicate (through its SMT-LIB text), or None."""
    import z3

    s = z3.Solver()
    s.add(formula)
    return compile_smt2(s.to_smt2())


def compile_smt2(text: str) -> Predicate | None:
    """The conjunction of the asserts of an SMT-LIB script (as z3's ``to_smt2`` writes p_i) as a compiled
    Python predicate, or None if it uses something not translated."""
    try:
        return _Translator().run(text)
    except (Unsupported, RecursionError, SyntaxError, MemoryError, ValueError, IndexError):
        return None


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c in "()":
            out.append(c)
            i += 1
        elif c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        elif c == "|":
            j = text.index("|", i + 1)
            out.append(text[i:j + 1])
            i = j + 1
        elif c == '"':
            raise Unsupported("string literal")
        else:
            j = i
            while j < n and text[j] not in " \t\r\n();|":
                j += 1
            out.append(text[i:j])
            i = j
    return out


def _sexprs(text: str) -> list[Any]:
    """The script as nested lists of tokens (iteratively: let chains nest deeply)."""
    top: list[Any] = []
    stack = [top]
    for tok in _tokens(text):
        if tok == "(":
            new: list[Any] = []
            stack[-1].append(new)
            stack.append(new)
        elif tok == ")":
            stack.pop()
            if not stack:
                raise Unsupported("unbalanced")
        else:
            stack[-1].append(tok)
    if len(stack) != 1:
        raise Unsupported("unbalanced")
    return top


def _symbol(tok: str) -> str:
    return tok[1:-1] if tok.startswith("|") else tok


_NARY = {"and": " and ", "or": " or ", "+": " + ", "*": " * ", "=": " == ", "<": " < ", "<=": " <= ",
         ">": " > ", ">=": " >= "}
_UNARY = {"not": "(not {0})", "to_real": "{0}", "to_int": "_floor({0})", "is_int": "(_floor({0}) == {0})",
          "abs": "_abs({0})"}
_LEFT = {"div": "_idiv", "mod": "_mod", "rem": "_rem", "/": "_rdiv"}


class _Translator:
    def __init__(self) -> None:
        self.vars: dict[str, str] = {}  # constant name -> local
        self.declared: set[str] = set()
        self.lines: list[str] = []
        self.consts: dict[str, Any] = {}

    def run(self, text: str) -> Predicate:
        parts = []
        for cmd in _sexprs(text):
            if not isinstance(cmd, list) or not cmd:
                raise Unsupported("top level")
            head = cmd[0]
            if head in ("declare-fun", "declare-const"):
                args = cmd[2] if head == "declare-fun" else []
                sort = cmd[-1]
                if args or sort not in ("Bool", "Int", "Real"):
                    raise Unsupported(f"declaration of {cmd[1]}")
                self.declared.add(_symbol(cmd[1]))
            elif head == "assert":
                parts.append(self.expr(cmd[1], {})[0])
            elif head in ("set-info", "set-option", "set-logic", "check-sat", "get-model", "exit"):
                continue
            else:
                raise Unsupported(str(head))
        body = [f"    {local} = v[{name!r}]" for name, local in self.vars.items()] + self.lines
        body.append(f"    return {' and '.join(parts) if parts else 'True'}")
        source = "def _pred(v):\n" + "\n".join(body) + "\n"
        ns: dict[str, Any] = dict(_HELPERS, **self.consts)
        exec(compile(source, "<p_i predicate>", "exec"), ns)  # noqa: S102 - vetted (tests/test_no_code_from_data.py): source generated from a closed grammar, names repr()'d
        return Predicate(ns["_pred"], tuple(self.vars), source)

    def temp(self, expr: str) -> str:
        t = f"t{len(self.lines)}"
        self.lines.append(f"    {t} = {expr}")
        return t

    def expr(self, e: Any, env: dict[str, str]) -> tuple[str, int]:
        """(Python expression, nesting depth) for the term ``e``; let-bound terms become temporaries."""
        while isinstance(e, list) and e and e[0] == "let":  # a let chain, iteratively
            env = dict(env)
            bound = {}
            for name, term in e[1]:
                bound[_symbol(name)] = self.temp(self.expr(term, env)[0])
            env.update(bound)  # parallel binding: the terms see the outer names
            e = e[2]
        if isinstance(e, str):
            return self.atom(e, env), 0
        if not e:
            raise Unsupported("()")
        head = e[0]
        if isinstance(head, list):
            raise Unsupported("indexed operator")
        kids = [self.expr(k, env) for k in e[1:]]
        args = [k[0] for k in kids]
        depth = 1 + max((k[1] for k in kids), default=0)
        out = self.apply(head, args)
        if depth > MAX_INLINE_DEPTH:
            return self.temp(out), 0
        return out, depth

    def atom(self, tok: str, env: dict[str, str]) -> str:
        name = _symbol(tok)
        if name in env:
            return env[name]
        if tok == "true" or tok == "false":
            return "True" if tok == "true" else "False"
        if tok[0].isdigit():
            if tok.isdigit():
                return f"({int(tok)})"
            c = f"c{len(self.consts)}"
            self.consts[c] = Fraction(tok)  # a decimal: exact
            return c
        if name not in self.declared:
            raise Unsupported(f"symbol {name}")
        local = self.vars.get(name)
        if local is None:
            local = self.vars[name] = f"x{len(self.vars)}"
        return local

    def apply(self, head: str, args: list[str]) -> str:
        n = len(args)
        if head in _NARY:
            if n == 0:
                if head in ("and", "or"):
                    return "True" if head == "and" else "False"
                raise Unsupported(f"{head} of nothing")
            if n == 1 and head not in ("and", "or", "+", "*"):
                raise Unsupported(f"{head} of one")
            return "(" + _NARY[head].join(args) + ")"
        if head in _UNARY and n == 1:
            return _UNARY[head].format(*args)
        if head == "-":
            if n == 1:
                return f"(-{args[0]})"
            return "(" + " - ".join(args) + ")"
        if head in _LEFT and n >= 2:
            out = args[0]
            for a in args[1:]:
                out = f"{_LEFT[head]}({out}, {a})"
            return out
        if head == "=>" and n >= 2:
            out = args[-1]
            for a in reversed(args[:-1]):
                out = f"((not {a}) or {out})"
            return out
        if head == "xor" and n >= 2:
            out = args[0]
            for a in args[1:]:
                out = f"({out} != {a})"
            return out
        if head == "ite" and n == 3:
            return f"({args[1]} if {args[0]} else {args[2]})"
        if head == "distinct" and n >= 2:
            return f"({args[0]} != {args[1]})" if n == 2 else "_distinct(" + ", ".join(args) + ")"
        raise Unsupported(f"{head}/{n}")


# ------------------------------------------------------------------------------------ device rules
class Devices:
    """Which device rules apply to a formula (from its input variables): `ok` checks them."""

    def __init__(self, input_names: list[str] | set[str] | dict[str, Any]) -> None:
        import pygame

        vs = set(input_names)
        self.names = frozenset(vs)
        self.ev_type = "in:ev_type" in vs
        self.ev_key = "in:ev_key" in vs
        self.key_vars = {int(n[len("in:key_"):]): n for n in vs if n.startswith("in:key_")}
        self.ev_button = "in:ev_button" in vs
        self.mb_vars = {i: f"in:mb_{i}" for i in (1, 2, 3) if f"in:mb_{i}" in vs}
        self.mx = "in:mx" in vs
        self.my = "in:my" in vs
        self.unit = [n for n in vs if n.startswith(("in:hx_", "in:hy_", "in:ev_hx", "in:ev_hy", "in:ax_"))]
        self.KEYDOWN, self.KEYUP = pygame.KEYDOWN, pygame.KEYUP
        self.MBD, self.MBU, self.MOTION = pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION

    def ok(self, v: dict[str, Any], held: Any, screen: tuple[int, int], key_domain: set[int]) -> bool | None:
        """Whether the assignment ``v`` respects the rules `add_device_rules` adds (``naming`` off) and
        `solve`'s key list, relative to the inputs ``held`` in the previous frame; None: undecided."""
        try:
            return self._ok(v, held, screen, key_domain)
        except (KeyError, TypeError, ValueError):
            return None

    def _ok(self, v: dict[str, Any], held: Any, screen: tuple[int, int], key_domain: set[int]) -> bool | None:
        et = v["in:ev_type"] if self.ev_type else None
        if self.ev_key:
            k = v["in:ev_key"]
            if not (k > 0 and k in key_domain):
                return False
            if self.ev_type:
                if et == self.KEYDOWN and k in held.keys:
                    return False
                if et == self.KEYUP and k not in held.keys:
                    return False
                var = self.key_vars.get(k)
                if var is not None:
                    if et == self.KEYDOWN and not v[var]:
                        return False
                    if et == self.KEYUP and v[var]:
                        return False
        elif self.ev_type and et == self.KEYUP and not any(
                hk not in self.key_vars or not v[self.key_vars[hk]] for hk in held.keys):
            return False  # no held key p_i lets go of (`held_device_rules`)
        if self.ev_button:
            b = v["in:ev_button"]
            if not (1 <= b <= 3):
                return False
            if self.ev_type:
                was = b in held.mouse_buttons
                if was and et == self.MBD or not was and et == self.MBU:
                    return False
                var = self.mb_vars.get(b)
                if var is not None:
                    if et == self.MBD and not v[var]:
                        return False
                    if et == self.MBU and v[var]:
                        return False
        elif self.ev_type and et == self.MBU and not any(
                i not in self.mb_vars or not v[self.mb_vars[i]] for i in held.mouse_buttons):
            return False
        if self.ev_type and self.mx and held.mouse_pos is not None and et == self.MOTION:
            if not self.my:
                return None  # add_device_rules needs both coordinates here
            if (v["in:mx"], v["in:my"]) == tuple(held.mouse_pos):
                return False
        w, h = screen if screen != (0, 0) else (640, 480)
        if self.mx and not (0 <= v["in:mx"] < w):
            return False
        if self.my and not (0 <= v["in:my"] < h):
            return False
        return all(-1 <= v[n] <= 1 for n in self.unit)
