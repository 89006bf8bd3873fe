"""The analysed space's game expressions (p_g, p_g_free, game variables' ``src``, ``in:keyat:`` names) compiled
without trusting them: an analysis can come from a file (``analyze --json``, ``--actions analyzed:FILE``, a
trace, the store), so its expressions are data, and data must not run code.

The boundary is `compile_game_expr`: the text is parsed to an AST and every node is checked against what the
analysis emits (`analysis/paths.py` ``to_python`` and the ``G(...)`` sources of `analysis/symbolic.py`):

- names: only the roots ``L`` (the loop's locals), ``M`` (module globals), ``S`` (an instance), ``H`` (held
  inputs) and the functions ``getattr``, ``bool``, ``len``; constants (numbers, strings, None, booleans, tuples);
- attributes: no name with a leading double underscore except ``__self__`` and ``__qualname__`` (emitted for
  bound methods and dispatch tests); subscripts: a constant string key may not be a dunder name either, and a key
  of a module's globals (``M[i][...]``) must be a constant;
- boolean, comparison (``in``, ``is`` included), arithmetic and bitwise operators, ``x if c else y``;
- calls, without keywords or ``*``: each one goes through `_call` at run time, which lets through only ``bool``,
  ``len``, a ``getattr`` that refuses the same dunder names, functions of the game's own code (a Python function
  defined outside the standard library, site-packages and playtester, or in playtester's bundled games: the game
  runs its own code anyway), and
  methods of objects (not module functions) whose names the analysis emits (``get_``, ``is_``, ``has_``,
  ``collide``, ``contains``, ``copy``, ``keys``, ``values``, ``items``, ``count``).

Anything else raises `UnsafeExpression` naming the expression and where it came from. A validated tree is then
compiled (with each call rewritten to ``_call(f, ...)``) and evaluated with ``eval`` of that code object: the
validation, not the evaluation, is the security boundary, and the compiled code runs as fast as before.
"""

from __future__ import annotations

import ast
import os
import site
import sysconfig
import types
from typing import Any

from playtester.errors import ConfigError

ROOT_NAMES = frozenset({"L", "M", "S", "H"})
FUNCTION_NAMES = frozenset({"getattr", "bool", "len"})
ALLOWED_DUNDERS = frozenset({"__self__", "__qualname__"})
METHOD_PREFIXES = ("get_", "is_", "has_", "collide", "contains", "copy", "keys", "values", "items", "count")

_BOOL_OPS = (ast.And, ast.Or)
_BIN_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitOr, ast.BitAnd, ast.BitXor,
            ast.LShift, ast.RShift)
_UNARY_OPS = (ast.Not, ast.USub, ast.UAdd, ast.Invert)
_CMP_OPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn)
_CONSTANTS = (int, float, complex, str, bool, type(None))
MAX_LENGTH = 100_000


class UnsafeExpression(ConfigError):
    """An expression of an analysed action space that is not of the form the analysis emits: refused, not run."""


def _dunder(name: str) -> bool:
    return name.startswith("__")


def _bad_attr(name: str) -> bool:
    return _dunder(name) and name not in ALLOWED_DUNDERS


class _Check(ast.NodeVisitor):
    def __init__(self, text: str, where: str) -> None:
        self.text, self.where = text, where

    def refuse(self, node: ast.AST, why: str) -> None:
        part = ast.unparse(node) if not isinstance(node, (ast.expr_context, ast.operator, ast.cmpop)) else ""
        raise UnsafeExpression(
            f"{self.where}: refused the expression {_short(self.text)!r}: {why}{f' ({_short(part)!r})' if part else ''}. "
            "An analysed action space is data: its expressions may only read the game (names L, M, S, H, "
            "attributes, subscripts, comparisons, arithmetic and the calls the analysis emits). "
            "Analyse the game again (`playtester analyze --json FILE`) if this file is not one you trust.")

    def generic_visit(self, node: ast.AST) -> None:  # every kind not named below
        self.refuse(node, f"{type(node).__name__} is not allowed")

    def visit_Expression(self, node: ast.Expression) -> None:
        self.visit(node.body)

    def visit_Constant(self, node: ast.Constant) -> None:
        if not isinstance(node.value, _CONSTANTS):
            self.refuse(node, "a constant of this type is not allowed")

    def visit_Tuple(self, node: ast.Tuple) -> None:
        for e in node.elts:
            self.visit(e)

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load) or node.id not in ROOT_NAMES | FUNCTION_NAMES:
            self.refuse(node, f"the name {node.id!r} is not one of L, M, S, H, getattr, bool, len")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if _bad_attr(node.attr):
            self.refuse(node, f"the attribute {node.attr!r} is not allowed")
        self.visit(node.value)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and _dunder(key.value):
            self.refuse(node, f"the key {key.value!r} is not allowed")
        base = node.value
        if isinstance(base, ast.Subscript) and isinstance(base.value, ast.Name) and base.value.id == "M" and \
                not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            self.refuse(node, "a module's globals are read by a constant name only")
        if isinstance(key, ast.Slice):
            for part in (key.lower, key.upper, key.step):
                if part is not None:
                    self.visit(part)
        else:
            self.visit(key)
        self.visit(base)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        if not isinstance(node.op, _BOOL_OPS):
            self.refuse(node, "this operator is not allowed")
        for v in node.values:
            self.visit(v)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if not isinstance(node.op, _BIN_OPS):
            self.refuse(node, "this operator is not allowed")
        self.visit(node.left)
        self.visit(node.right)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if not isinstance(node.op, _UNARY_OPS):
            self.refuse(node, "this operator is not allowed")
        self.visit(node.operand)

    def visit_Compare(self, node: ast.Compare) -> None:
        if not all(isinstance(op, _CMP_OPS) for op in node.ops):
            self.refuse(node, "this comparison is not allowed")
        self.visit(node.left)
        for c in node.comparators:
            self.visit(c)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.visit(node.test)
        self.visit(node.body)
        self.visit(node.orelse)

    def visit_Call(self, node: ast.Call) -> None:
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            self.refuse(node, "calls take plain arguments only")
        f = node.func
        if isinstance(f, ast.Name) and f.id == "getattr":
            if not 2 <= len(node.args) <= 3:
                self.refuse(node, "getattr takes an object, a name and a default")
            name = node.args[1]
            if isinstance(name, ast.Constant) and (not isinstance(name.value, str) or _bad_attr(name.value)):
                self.refuse(node, f"the attribute {name.value!r} is not allowed")
        elif isinstance(f, ast.Name) and f.id not in FUNCTION_NAMES:
            self.refuse(node, f"{f.id!r} may not be called")
        elif not isinstance(f, (ast.Name, ast.Attribute, ast.Subscript)):
            self.refuse(node, "only a name, an attribute or a subscript may be called")
        self.visit(f)
        for a in node.args:
            self.visit(a)


class _Guard(ast.NodeTransformer):
    """Every call ``f(a, ...)`` of a validated tree as ``_call(f, a, ...)``."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        return ast.Call(func=ast.Name(id="_call", ctx=ast.Load()), args=[node.func, *node.args], keywords=[])


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def validate_game_expr(text: Any, where: str = "analysed action space") -> ast.Expression:
    """The parsed tree of ``text`` once it is known to be of the form the analysis emits.

    Raises:
        UnsafeExpression: anything else (naming ``where`` and the expression).
    """
    if not isinstance(text, str):
        raise UnsafeExpression(f"{where}: an expression must be a string, not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise UnsafeExpression(f"{where}: refused an expression of {len(text)} characters (at most {MAX_LENGTH})")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        raise UnsafeExpression(f"{where}: cannot parse the expression {_short(text)!r}: {e}") from None
    try:
        _Check(text, where).visit(tree)
    except RecursionError:
        raise UnsafeExpression(f"{where}: the expression {_short(text)!r} nests too deeply") from None
    return tree


_COMPILED: dict[str, types.CodeType] = {}


def compile_game_expr(text: Any, where: str = "analysed action space") -> types.CodeType:
    """``text`` validated (`validate_game_expr`) and compiled to a code object for `eval_game_expr` (once per
    distinct text and process)."""
    got = _COMPILED.get(text) if isinstance(text, str) else None
    if got is None:
        tree = ast.fix_missing_locations(_Guard().visit(validate_game_expr(text, where)))
        got = compile(tree, "<analysed expression>", "eval", dont_inherit=True)
        if len(_COMPILED) > 50000:
            _COMPILED.clear()
        _COMPILED[text] = got
    return got


def check_analysis(analysis: dict[str, Any], where: str = "analysed action space") -> None:
    """Every expression of a Python analysis result (``p_g``, ``p_g_free`` of each path, the game variables'
    ``src``) validated and compiled, so a file with one that is not of the analysis' form is refused on load.

    Raises:
        UnsafeExpression: naming ``where``, the action and the expression.
    """
    for i, g in enumerate(analysis.get("actions") or ()):
        paths = g.get("paths", [g]) if isinstance(g, dict) else []
        for j, p in enumerate(paths):
            for fld in ("p_g", "p_g_free"):
                if p.get(fld) is not None:
                    compile_game_expr(p[fld], f"{where}: actions[{i}].paths[{j}].{fld}")
    parts = [("", analysis), *((f"loops[{k}].", e) for k, e in enumerate(analysis.get("loops") or ()))]
    for prefix, part in parts:
        for name, info in ((part.get("game_vars") or {}) if isinstance(part, dict) else {}).items():
            if isinstance(info, dict) and "src" in info:
                compile_game_expr(info["src"], f"{where}: {prefix}game_vars[{name!r}].src")


# ---------------------------------------------------------------------------------------- run time
def _library_roots() -> tuple[str, ...]:
    roots: set[str] = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            roots.add(os.path.realpath(p))
    try:
        roots.update(os.path.realpath(p) for p in site.getsitepackages())
    except AttributeError:  # pragma: no cover - a virtualenv's old site module
        pass
    roots.add(os.path.realpath(os.path.dirname(os.__file__)))
    roots.add(os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # playtester
    return tuple(r.rstrip(os.sep) + os.sep for r in roots)


_LIBRARY = _library_roots()
_BUNDLED_GAMES = os.path.realpath(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "games")) + os.sep
_GAME_CODE: dict[str, bool] = {}


def _is_game_code(code: types.CodeType) -> bool:
    file = code.co_filename
    got = _GAME_CODE.get(file)
    if got is None:
        real = os.path.realpath(file) if not file.startswith("<") else ""
        got = _GAME_CODE[file] = bool(real) and (real.startswith(_BUNDLED_GAMES) or not real.startswith(_LIBRARY))
    return got


def safe_getattr(obj: Any, name: Any, *default: Any) -> Any:
    """``getattr`` refusing the dunder names the analysis does not emit (a name computed from game values)."""
    if not isinstance(name, str) or _bad_attr(name):
        raise UnsafeExpression(f"getattr of {name!r} refused in an analysed expression")
    return getattr(obj, name, *default)


_BUILTIN_METHOD = (types.BuiltinMethodType, types.MethodWrapperType)


_OK_METHODS: set[Any] = set()  # functions whose bound methods passed the guard (the fast path)


def _call(f: Any, *args: Any) -> Any:
    if type(f) is types.MethodType and f.__func__ in _OK_METHODS:
        return f(*args)
    if f is bool or f is len or f is safe_getattr:
        return f(*args)
    if isinstance(f, types.MethodType):
        fn = f.__func__
        if isinstance(fn, types.FunctionType) and (_is_game_code(fn.__code__) or fn.__name__.startswith(METHOD_PREFIXES)):
            _OK_METHODS.add(fn)
            return f(*args)
    elif isinstance(f, types.FunctionType):
        if _is_game_code(f.__code__):
            return f(*args)
    elif isinstance(f, _BUILTIN_METHOD):
        owner = getattr(f, "__self__", None)
        if owner is not None and not isinstance(owner, types.ModuleType) and f.__name__.startswith(METHOD_PREFIXES):
            return f(*args)
    raise UnsafeExpression(f"call of {getattr(f, '__qualname__', type(f).__name__)!r} refused in an analysed "
                           "expression: only the game's own functions, bool, len, getattr and the methods the analysis "
                           f"emits ({', '.join(METHOD_PREFIXES)}...) may be called")


def namespace(**roots: Any) -> dict[str, Any]:
    """The globals an expression compiled by `compile_game_expr` is evaluated in (no builtins)."""
    return {"__builtins__": {}, "getattr": safe_getattr, "bool": bool, "len": len, "_call": _call, **roots}


def eval_game_expr(code: types.CodeType, ns: dict[str, Any]) -> Any:
    """Evaluate a code object made by `compile_game_expr` in a `namespace`."""
    return eval(code, ns)  # noqa: S307 - vetted: a code object of `compile_game_expr` (validated tree, guarded calls)
