"""One loader for every config file playtester reads (YAML or TOML), with errors that name file, line and field.

`load` reads a file (or a table inside a TOML file, e.g. ``tool.playtester`` of a ``pyproject.toml``),
validates it against a pydantic model and returns the model. When the file is invalid it raises
`ConfigError` listing *every* problem, one a line::

    game/playtester.toml:3: field 'fpss': unknown field 'fpss'; did you mean 'fps'?
    game/playtester.toml:7: field 'init[1].frames': Input should be greater than or equal to 1 (got 0)

Unknown fields (the model forbids extra fields) get a "did you mean" from the model's field names at that
level (or the list of known fields when none is close). Syntax errors name the file and the line.

Lines come from ``yaml.compose`` node marks for YAML; TOML has no position API in ``tomllib``, so a small
scanner over the text maps dotted paths (table headers, arrays of tables, ``key = value`` lines, dotted
keys, inline tables and arrays) to lines. An error whose exact path has no line gets its nearest parent's.

Lower-level pieces (`read`, `parse`, `validate`, `explain`, `Source.line_of`) serve loaders that check
more than one model can say (a plan's version, duplicate names).

This module sits in the lowest layer: it imports only `playtester.errors` and third-party packages.
"""

from __future__ import annotations

import bisect
import difflib
import re
import tomllib
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

from playtester.errors import ConfigError

Kind = Literal["yaml", "toml"]
Loc = tuple[Any, ...]
Label = Callable[[dict[str, Any]], "str | None"]
M = TypeVar("M", bound=BaseModel)

__all__ = ["Source", "clean_loc", "expect_mapping", "explain", "field_text", "known_fields", "load", "parse", "read",
           "section", "toml_lines", "validate", "yaml_lines"]


def _name_label(item: dict[str, Any]) -> str | None:
    name = item.get("name")
    return str(name) if name else None


# ------------------------------------------------------------------------------------------------ source
@dataclass
class Source:
    """A parsed config file: its data and where each path of it is written.

    Attributes:
        path: the file (as given; errors show it like this).
        text: its text.
        kind: ``yaml`` or ``toml``.
        data: the parsed data, or the selected table's (see `select`).
        table: the path of the selected table inside the file (``("tool", "playtester")``), or ``()``.
        lines: 1-based line of every path of the whole file that the scanner found; computed from the text
            when first needed (an error), so valid files are parsed once.
    """

    path: Path
    text: str
    kind: Kind
    data: Any
    table: Loc = ()
    lines: dict[Loc, int] | None = None

    def select(self, table: str | None) -> Source:
        """The same file narrowed to a table (``"tool.playtester"``); a missing table is an empty one.

        Raises:
            ConfigError: the path holds something other than a table.
        """
        if not table:
            return self
        data, path = self.data, self.table
        for part in table.split("."):
            path = (*path, part)
            if not isinstance(data, dict):
                break
            data = data.get(part, {})
        if not isinstance(data, dict):
            raise ConfigError(f"{self.path}:{self._line(path)}: field '{'.'.join(path)}': expected a table "
                              f"([{'.'.join(path)}] with key = value lines), not {_type_name(data)}")
        return Source(self.path, self.text, self.kind, data, path, self.lines)

    def _line(self, full: Loc) -> int:
        if self.lines is None:
            self.lines = toml_lines(self.text) if self.kind == "toml" else yaml_lines(self.text)
        for n in range(len(full), -1, -1):
            if full[:n] in self.lines:
                return self.lines[full[:n]]
        return 1

    def line_of(self, loc: Sequence[Any]) -> int:
        """Line of a path inside the data (relative to the selected table), else of its nearest parent."""
        return self._line((*self.table, *loc))

    def where(self, loc: Sequence[Any] = ()) -> str:
        """``FILE:LINE`` of a path inside the data."""
        return f"{self.path}:{self.line_of(loc)}"

    def error(self, loc: Sequence[Any], message: str, label: Label = _name_label) -> str:
        """One error line: ``FILE:LINE: field 'a.b[2].c': message``."""
        return f"{self.where(loc)}: field '{field_text(tuple(loc), self.data, self.table, label)}': {message}"


def _type_name(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "a string", type(None): "nothing (empty)"}.get(
        type(value), type(value).__name__)


def parse(text: str, path: str | Path, kind: Kind | None = None, what: str = "config file") -> Source:
    """Parse config text (``kind`` from the file's suffix when left out: ``.toml`` is TOML, else YAML).

    Raises:
        ConfigError: a syntax error, naming the file and line and saying how to fix it.
    """
    path = Path(path)
    kind = kind or ("toml" if path.suffix.lower() == ".toml" else "yaml")
    if kind == "toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(_toml_syntax(e, path, text, what)) from None
        return Source(path, text, "toml", data)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(_yaml_syntax(e, path, what)) from None
    return Source(path, text, "yaml", data)


def read(path: str | Path, kind: Kind | None = None, table: str | None = None,
         what: str = "config file") -> Source:
    """Read and parse a config file, optionally narrowed to a table (see `parse`, `Source.select`).

    Raises:
        ConfigError: the file cannot be read, has a syntax error, or the table is not a table.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"{what} {path}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{what} {path}: not UTF-8 text ({e.reason} at byte {e.start}); save it as UTF-8") from None
    return parse(text, path, kind, what).select(table)


def load(path: str | Path, model: type[M], kind: Kind | None = None, table: str | None = None,
         what: str = "config file", label: Label = _name_label) -> M:
    """Read a config file (or a table of it) and validate it against ``model``.

    Args:
        path: the file; ``.toml`` is read as TOML, anything else as YAML (unless ``kind`` says).
        model: the pydantic model of the file (or table).
        kind: ``yaml`` or ``toml``, to override the suffix.
        table: a dotted table inside the file (``tool.playtester``); missing: an empty table.
        what: what the file is, for messages (``game config``).
        label: names a list item in field paths (``nodes[2] ('jump lava')``); default: its ``name``.

    Raises:
        ConfigError: unreadable file, syntax error, not a mapping, or invalid fields: every error, each
            as ``FILE:LINE: field 'a.b[2].c': message``.
    """
    source = read(path, kind, table, what)
    expect_mapping(source, what)
    return validate(source, model, label)


def section(raw: Any, model: type[M], path: str | Path | None, table: str, where: str) -> M:
    """Validate one section of a game config (``[oracles]``, ``[coverage]``, ...) held raw by the layer below
    and checked by the layer that owns it.

    Args:
        raw: the section's data as the config holds it (a dict; None: empty).
        model: the section's model.
        path: the config file it came from, if any (``playtester.toml`` or a ``pyproject.toml``).
        table: the section's name (``oracles``); in a ``pyproject.toml`` under ``tool.playtester``.
        where: what to name when the data is not the file's (an override): e.g. the game's spec.

    Raises:
        ConfigError: every invalid key, as ``FILE:LINE: field 'table.key': message`` when ``raw`` is the
            file's section (else ``WHERE: field 'table.key': ...``), with "did you mean" for typos.
    """
    raw = dict(raw or {})
    try:
        return model.model_validate(raw, context={"config_dir": str(Path(path).parent)} if path else None)
    except ValidationError as e:
        source = None
        if path:
            full = f"tool.playtester.{table}" if Path(path).name == "pyproject.toml" else table
            try:
                source = read(path, "toml", table=full)
            except ConfigError:
                source = None
        if source is not None and source.data == raw:
            raise ConfigError(explain(e, model, source=source)) from None
        raise ConfigError(explain(e, model, where=f"{where}: {table}", data=raw)) from None


def expect_mapping(source: Source, what: str, fields: str = "") -> None:
    """Raise `ConfigError` unless the data is a mapping (an empty file is an empty mapping for TOML only)."""
    if not isinstance(source.data, dict):
        hint = f" ({fields})" if fields else ""
        raise ConfigError(f"{source.where()}: a {what} is a mapping{hint}, not {_type_name(source.data)}; "
                          "write one 'key: value' per line at the top level")


# ------------------------------------------------------------------------------------------- validation
def validate(source: Source, model: type[M], label: Label = _name_label) -> M:
    """Validate a source's data against ``model``.

    Raises:
        ConfigError: every validation error, each as ``FILE:LINE: field 'a.b[2].c': message``.
    """
    try:
        return model.model_validate(source.data)
    except ValidationError as e:
        raise ConfigError(explain(e, model, source=source, label=label)) from None


def explain(err: ValidationError, model: type[BaseModel], source: Source | None = None, where: str = "",
            data: Any = None, label: Label = _name_label) -> str:
    """Every error of ``err``, one a line: ``FILE:LINE: field 'a.b[2].c': message`` with a source, else
    ``WHERE: field 'a.b[2].c': message`` (e.g. for overrides given on the command line)."""
    if source is not None:
        data = source.data
    out: list[tuple[int, str]] = []
    for e in err.errors():
        loc = clean_loc(tuple(e["loc"]), data)
        msg = _message(e, model, loc)
        if source is not None:
            item = (source.line_of(loc), source.error(loc, msg, label))
        else:
            item = (0, f"{where or 'config'}: field '{field_text(loc, data, (), label)}': {msg}")
        if item not in out:
            out.append(item)
    return "\n".join(text for _, text in sorted(out, key=lambda t: t[0]))  # in file order (stable)


_TAGS = {"int", "str", "float", "bool", "none", "bytes", "dict", "list", "tuple", "set", "frozenset"}


def clean_loc(loc: Loc, data: Any = None) -> Loc:
    """A pydantic error location without the tags pydantic adds for union members and validators
    (``function-after[...]``, ``tuple[float, float]``, ``int``), keeping keys the data really has."""
    out: list[Any] = []
    cur = data
    for p in loc:
        real = isinstance(cur, dict) and p in cur
        if not real and isinstance(p, str) and (any(c in p for c in "[(-") or p in _TAGS):
            continue
        out.append(p)
        if isinstance(cur, dict):
            cur = cur.get(p)
        elif isinstance(cur, list) and isinstance(p, int) and 0 <= p < len(cur):
            cur = cur[p]
        else:
            cur = None
    return tuple(out)


def _message(e: Any, model: type[BaseModel], loc: Loc) -> str:
    kind = e["type"]
    if kind == "extra_forbidden" and loc:
        known = known_fields(model, loc[:-1])
        close = _close(str(loc[-1]), known)
        if close:
            return f"unknown field {loc[-1]!r}; did you mean {' or '.join(map(repr, close))}?"
        return f"unknown field {loc[-1]!r}; known fields: {', '.join(known) or 'none'}"
    msg = str(e["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if kind == "missing":
        return f"{msg} (add {loc[-1]!r})" if loc and isinstance(loc[-1], str) else msg
    value = e.get("input")
    if not kind.startswith(("value_error", "assertion_error")) and isinstance(value, (int, float, str, bool)):
        shown = repr(value)
        if len(shown) <= 40:
            msg += f" (got {shown})"
    return msg


def _close(word: str, known: list[str]) -> list[str]:
    """Up to two close names; the second only when it is nearly as close as the first."""
    close = difflib.get_close_matches(word, known, n=2)
    score = [difflib.SequenceMatcher(None, word, c).ratio() for c in close]
    return close[:1] if len(close) == 2 and score[1] < score[0] - 0.1 else close


def field_text(loc: Loc, data: Any, prefix: Loc = (), label: Label = _name_label) -> str:
    """``nodes[2] ('interact switch').tolerance`` from a location, list items labelled from the data."""
    parts: list[str] = [str(p) for p in prefix]
    cur = data
    for p in loc:
        if isinstance(p, int):
            text = ""
            if isinstance(cur, list) and 0 <= p < len(cur) and isinstance(cur[p], dict):
                try:
                    name = label(cur[p])
                except Exception:  # a label must never hide the real error
                    name = None
                text = f" ({name!r})" if name else ""
            parts[-1:] = [f"{parts[-1] if parts else ''}[{p}]{text}"]
            cur = cur[p] if isinstance(cur, list) and 0 <= p < len(cur) else None
        else:
            parts.append(str(p))
            cur = cur.get(p) if isinstance(cur, dict) else None
    return ".".join(parts) or "(top level)"


def known_fields(model: type[BaseModel], loc: Loc) -> list[str]:
    """Field names of the model found at ``loc`` (through nested models, lists, dicts and unions)."""
    types_here: list[Any] = [model]
    for p in loc:
        nxt: list[Any] = []
        for t in types_here:
            nxt.extend(_step(t, p))
        types_here = nxt
        if not types_here:
            return []
    for t in types_here:
        for m in _flatten(t):
            if isinstance(m, type) and issubclass(m, BaseModel):
                return [n for n, f in m.model_fields.items() if not f.exclude]
    return []


def _flatten(t: Any) -> list[Any]:
    """The members of a union (``X | None``, ``Optional``, ``Annotated``), or the type itself."""
    origin = get_origin(t)
    if origin is typing.Annotated:
        return _flatten(get_args(t)[0])
    if origin is typing.Union or origin is types.UnionType:
        return [m for a in get_args(t) for m in _flatten(a)]
    return [t]


def _step(t: Any, p: Any) -> list[Any]:
    out: list[Any] = []
    for m in _flatten(t):
        origin, args = get_origin(m), get_args(m)
        if isinstance(m, type) and issubclass(m, BaseModel):
            f = m.model_fields.get(p) if isinstance(p, str) else None
            if f is not None:
                out.append(f.annotation)
        elif isinstance(origin, type) and issubclass(origin, Mapping) and len(args) == 2:
            out.append(args[1])
        elif origin is tuple and isinstance(p, int) and args:
            out.append(args[0] if len(args) == 2 and args[1] is Ellipsis else args[p] if p < len(args) else None)
        elif isinstance(origin, type) and issubclass(origin, (list, set, frozenset, Sequence)) and args:
            out.append(args[0])
    return [o for o in out if o is not None]


# ---------------------------------------------------------------------------------------- syntax errors
def _yaml_syntax(e: yaml.YAMLError, path: Path, what: str) -> str:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    line = mark.line + 1 if mark is not None else 1
    col = f", column {mark.column + 1}" if mark is not None else ""
    problem = getattr(e, "problem", None) or str(e)
    context, cmark = getattr(e, "context", None), getattr(e, "context_mark", None)
    if context and cmark is not None and cmark.line + 1 != line:
        context = f"{context} that starts at line {cmark.line + 1}"
    detail = f"{problem} ({context})" if context else problem
    return (f"{path}:{line}: not valid YAML{col}: {detail}; fix the {what} there (check the indentation, "
            "a missing ':' after a key, an unclosed bracket or quote; quote values that hold ': ' or start "
            "with a special character)")


def _toml_syntax(e: tomllib.TOMLDecodeError, path: Path, text: str, what: str) -> str:
    msg = str(e)
    m = re.search(r"\(at line (\d+), column (\d+)\)$", msg)
    if m:
        line, where = int(m.group(1)), f", column {m.group(2)}"
        msg = msg[: m.start()].rstrip()
    elif msg.endswith("(at end of document)"):
        line, where = max(1, len(text.splitlines())), " (at the end of the file)"
        msg = msg.removesuffix("(at end of document)").rstrip()
    else:
        line, where = 1, ""
    return (f"{path}:{line}: not valid TOML{where}: {msg}; fix the {what} there (strings need quotes, "
            "arrays and inline tables need their closing ] or }, each key = value on its own line) "
            "or remove the file")


# ------------------------------------------------------------------------------------------- YAML lines
def yaml_lines(text: str) -> dict[Loc, int]:
    """Line (1-based) of every mapping key and sequence item of a YAML document, by path."""
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return {}
    out: dict[Loc, int] = {}
    above: set[int] = set()  # nodes being walked: a recursive alias (&a [*a]) ends there

    def walk(node: Any, path: Loc) -> None:
        out.setdefault(path, node.start_mark.line + 1)
        if id(node) in above:
            return
        above.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                key = _yaml_key(k)
                out[(*path, key)] = k.start_mark.line + 1
                walk(v, (*path, key))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, (*path, i))
        above.discard(id(node))

    if root is not None:
        walk(root, ())
    return out


def _yaml_key(node: Any) -> Any:
    """A key node's value as safe_load gives it (``1`` for ``1:``, ``True`` for ``yes:``), else its text."""
    if isinstance(node, yaml.ScalarNode) and node.tag != "tag:yaml.org,2002:str":
        try:
            return yaml.constructor.SafeConstructor().construct_object(node)
        except yaml.YAMLError:
            return node.value
    return getattr(node, "value", None)


# ------------------------------------------------------------------------------------------- TOML lines
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_NUMLIKE_END = ",]}\n#"


class _TomlScanner:
    """Maps dotted paths of a (syntactically valid) TOML text to lines. Lenient: it stops at anything odd."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.out: dict[Loc, int] = {}
        self.aot: dict[Loc, int] = {}  # array-of-tables path -> items seen

    def line(self, pos: int | None = None) -> int:
        return bisect.bisect_right(self.starts, self.i if pos is None else pos)

    def mark(self, path: Loc, pos: int | None = None, replace: bool = True) -> None:
        if replace:
            self.out[path] = self.line(pos)
        else:
            self.out.setdefault(path, self.line(pos))

    def peek(self, n: int = 1) -> str:
        return self.s[self.i: self.i + n]

    def skip_ws(self, newlines: bool = False) -> None:
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.i += 1
            elif c == "#":
                while self.i < len(self.s) and self.s[self.i] != "\n":
                    self.i += 1
            else:
                break

    def scan(self) -> dict[Loc, int]:
        table: Loc = ()
        while True:
            self.skip_ws(newlines=True)
            if self.i >= len(self.s):
                break
            start = self.i
            if self.peek(2) == "[[":
                self.i += 2
                path = self.key()
                self.i = self.s.index("]]", self.i) + 2
                self._mark_parents(path, start)
                base = self._resolve(path)
                n = self.aot.get(base, 0)
                self.aot[base] = n + 1
                table = (*base, n)
                self.mark(table, start)
            elif self.peek() == "[":
                self.i += 1
                path = self.key()
                self.i = self.s.index("]", self.i) + 1
                self._mark_parents(path, start)
                table = self._resolve(path)
                self.mark(table, start)
            else:
                path = self.key()
                self.skip_ws()
                if self.peek() != "=":
                    break
                self.i += 1
                self.skip_ws()
                full = (*table, *path)
                for n in range(len(table) + 1, len(full)):
                    self.mark(full[:n], start, replace=False)
                self.mark(full, start)
                self.value(full)
            self.skip_ws()
        return self.out

    def _resolve(self, path: Loc) -> Loc:
        """A header path with the current item index after every array of tables along it (not the last)."""
        out: Loc = ()
        for k, part in enumerate(path):
            out = (*out, part)
            if out in self.aot and k < len(path) - 1:
                out = (*out, self.aot[out] - 1)
        return out

    def _mark_parents(self, path: Loc, pos: int) -> None:
        for n in range(1, len(path) + 1):
            self.mark(self._resolve(path[:n]), pos, replace=False)

    def key(self) -> Loc:
        parts: list[str] = []
        while True:
            self.skip_ws()
            c = self.peek()
            if c == '"':
                parts.append(self.basic_string())
            elif c == "'":
                end = self.s.index("'", self.i + 1)
                parts.append(self.s[self.i + 1: end])
                self.i = end + 1
            else:
                m = _BARE.match(self.s, self.i)
                if not m:
                    break
                parts.append(m.group())
                self.i = m.end()
            self.skip_ws()
            if self.peek() == ".":
                self.i += 1
                continue
            break
        return tuple(parts)

    def basic_string(self) -> str:
        if self.peek(3) == '"""':
            end = self.i + 3
            while True:
                end = self.s.index('"""', end)
                if self.s[end - 1] != "\\":
                    break
                end += 1
            while self.s[end + 3: end + 4] == '"':
                end += 1
            raw = self.s[self.i + 3: end]
            self.i = end + 3
            return raw
        j = self.i + 1
        while self.s[j] != '"':
            j += 2 if self.s[j] == "\\" else 1
        raw = self.s[self.i + 1: j]
        self.i = j + 1
        try:
            return tomllib.loads(f'k = "{raw}"')["k"]
        except tomllib.TOMLDecodeError:
            return raw

    def value(self, path: Loc) -> None:
        c = self.peek()
        if c == '"':
            self.basic_string()
        elif c == "'":
            if self.peek(3) == "'''":
                end = self.s.index("'''", self.i + 3)
                while self.s[end + 3: end + 4] == "'":
                    end += 1
                self.i = end + 3
            else:
                self.i = self.s.index("'", self.i + 1) + 1
        elif c == "[":
            self.i += 1
            n = 0
            while True:
                self.skip_ws(newlines=True)
                if self.peek() in ("]", ""):
                    self.i += 1
                    break
                self.mark((*path, n))
                self.value((*path, n))
                n += 1
                self.skip_ws(newlines=True)
                if self.peek() == ",":
                    self.i += 1
        elif c == "{":
            self.i += 1
            while True:
                self.skip_ws(newlines=True)
                if self.peek() in ("}", ""):
                    self.i += 1
                    break
                start = self.i
                key = self.key()
                self.skip_ws()
                if self.peek() != "=":
                    raise ValueError("unexpected TOML")
                self.i += 1
                self.skip_ws()
                full = (*path, *key)
                for n in range(len(path) + 1, len(full)):
                    self.mark(full[:n], start, replace=False)
                self.mark(full, start)
                self.value(full)
                self.skip_ws(newlines=True)
                if self.peek() == ",":
                    self.i += 1
        else:
            while self.i < len(self.s) and self.s[self.i] not in _NUMLIKE_END:
                self.i += 1


def toml_lines(text: str) -> dict[Loc, int]:
    """Line (1-based) of every table header, array-of-tables item, key, inline-table key and array item of
    a TOML text, by path (``("tool", "playtester", "init", 1, "keys")``). Partial for text it cannot follow."""
    scanner = _TomlScanner(text)
    try:
        return scanner.scan()
    except (ValueError, IndexError):
        return scanner.out


# ---------------------------------------------------------------------------------------------- writing TOML
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_value(v: Any) -> str:
    """``v`` (a bool, number, string, list or table of them) as a TOML value, for a config file playtester writes
    (``playtester init``, the benchmarks' per-game configs)."""
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k if _BARE_KEY.match(k) else json.dumps(k)} = {toml_value(x)}"
                                for k, x in v.items()) + " }"
    raise ConfigError(f"cannot write {v!r} ({type(v).__name__}) in a TOML config file")
