"""Small, safe boolean expressions over probe features, e.g. ``"hp <= 0 or lives == 0"``.

Used for a game's done condition and for manual actions' validity. Only names, numbers, strings,
comparisons, arithmetic and and/or/not are allowed; a name that is not a feature reads as 0.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import Any

from playtester.errors import ConfigError

_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.Mod: operator.mod, ast.FloorDiv: operator.floordiv}
_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Gt: operator.gt, ast.GtE: operator.ge}


def compile_expr(text: str, where: str = "expression") -> Callable[[Mapping[str, Any]], bool]:
    """Compile ``text`` into a predicate over a feature mapping.

    Raises:
        ConfigError: the text is not a valid expression of the allowed form; names ``where``.
    """
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as e:
        raise ConfigError(f"{where}: cannot parse {text!r}: {e.msg}") from None

    def ev(node: ast.AST, env: Mapping[str, Any]) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
            return node.value
        if isinstance(node, ast.Name):
            return env.get(node.id, 0)
        if isinstance(node, ast.BoolOp):
            vals = (ev(v, env) for v in node.values)
            return all(vals) if isinstance(node.op, ast.And) else any(vals)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not ev(node.operand, env)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand, env)
        if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
            return _BIN[type(node.op)](ev(node.left, env), ev(node.right, env))
        if isinstance(node, ast.Compare):
            left = ev(node.left, env)
            for op, comp in zip(node.ops, node.comparators, strict=True):
                right = ev(comp, env)
                if not _CMP[type(op)](left, right):
                    return False
                left = right
            return True
        raise ConfigError(f"{where}: {ast.unparse(node)!r} is not allowed in {text!r}; use feature names, "
                          "numbers, comparisons, + - * /, and/or/not")

    # Validate the whole tree once, with an empty environment, so errors surface at load time.
    for node in ast.walk(tree):
        allowed = (ast.Constant, ast.Name, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Compare, ast.Load,
                   ast.And, ast.Or, ast.Not, ast.USub, *_BIN, *_CMP)
        if not isinstance(node, allowed):
            raise ConfigError(f"{where}: {type(node).__name__} is not allowed in {text!r}; use feature names, "
                              "numbers, comparisons, + - * /, and/or/not")

    def predicate(env: Mapping[str, Any]) -> bool:
        try:
            return bool(ev(tree, env))
        except (ZeroDivisionError, TypeError):
            return False

    return predicate


def check_expr(text: str | None, where: str) -> str | None:
    """A pydantic field validator's body: ``text`` if it compiles, else ValueError with the reason."""
    if text is not None:
        from playtester.errors import ConfigError

        try:
            compile_expr(text, where)
        except ConfigError as e:
            raise ValueError(str(e)) from None
    return text
