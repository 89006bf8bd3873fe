"""A warm worker host: what each episode would load again, the host loads once before it forks.

Every episode is a fresh fork of the worker host, so whatever the game's first frame needs and the host
does not have yet is paid for at every reset: the standard-library and pygame modules the game imports
(``argparse`` brings ``gettext``, which compiles regular expressions), and, where Python writes no
bytecode cache (``PYTHONDONTWRITEBYTECODE``, a read-only game folder), compiling the game's own source.
A game that ends every few seconds spends a third of its time on that.

An episode notes in a file what it imported and which source files it compiled (`note`); before the next
fork the host (`warm`) imports the noted modules that are safe to import early (the standard library,
pygame, numpy: no game code runs) and compiles the noted sources into an in-memory cache that the import
system of every later episode uses (`install_code_cache`). The game's own modules are never imported
early: their import-time code runs in the episode, seeded and on virtual devices, as before. A cached code
object is used only for the exact source bytes it was compiled from.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
import sysconfig
from typing import Any

STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"])
_EARLY_PACKAGES = ("pygame", "numpy")  # imported early as well: compiled extensions with no game code
_NEVER_EARLY = {"this", "antigravity", "__main__", "turtle", "tkinter", "idlelib", "pydoc", "readline"}

_CODE: dict[str, tuple[bytes, Any]] = {}  # source path -> (source bytes, code object)
_MISSED: list[str] = []  # sources this process compiled itself (a cache miss)
_BASELINE: frozenset[str] = frozenset()  # modules loaded when this episode forked
_SEEN = [0]  # bytes of the notes file the host has read


def install_code_cache() -> None:
    """Make source imports use `_CODE` (once, in the host: every forked episode inherits it)."""
    loader = importlib.machinery.SourceFileLoader
    if getattr(loader.source_to_code, "_playtester_cached", False):
        return
    compile_source = loader.source_to_code

    def source_to_code(self: Any, data: Any, path: Any, *, _optimize: int = -1) -> Any:
        hit = _CODE.get(path) if isinstance(path, str) else None
        if hit is not None and hit[0] == data and _optimize == -1:
            return hit[1]
        if isinstance(path, str):
            _MISSED.append(path)
        return compile_source(self, data, path, _optimize=_optimize)

    source_to_code._playtester_cached = True  # type: ignore[attr-defined]
    loader.source_to_code = source_to_code  # type: ignore[method-assign]


def episode_started() -> None:
    """In a new episode process: what it loads from now on is noted against what the host had."""
    global _BASELINE
    _BASELINE = frozenset(sys.modules)
    _MISSED.clear()


def note(path: str | None) -> None:
    """In an episode process: append the modules it imported and the sources it compiled to ``path``."""
    if not path:
        return
    lines = [f"M {name}" for name in sys.modules.keys() - _BASELINE if _early(name)]
    lines += [f"C {p}" for p in _MISSED]
    _MISSED.clear()
    if not lines:
        return
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    except OSError:
        pass  # only a missed speed-up


def warm(path: str | None) -> None:
    """In the host, before a fork: load what episodes noted in ``path`` since the last call."""
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as f:
            f.seek(_SEEN[0])
            text = f.read()
    except OSError:
        return
    _SEEN[0] += len(text.encode("utf-8"))
    for line in text.splitlines():
        kind, _, item = line.partition(" ")
        if kind == "M" and item not in sys.modules:
            try:
                importlib.import_module(item)
            except BaseException:  # noqa: BLE001 - a module that cannot load early loads in the episode
                pass
        elif kind == "C" and item not in _CODE:
            try:
                with open(item, "rb") as f:
                    data = f.read()
                _CODE[item] = (data, compile(data, item, "exec", dont_inherit=True))
            except (OSError, SyntaxError, ValueError):
                pass


def _early(name: str) -> bool:
    """Whether module ``name`` may be imported in the host: the standard library, pygame or numpy."""
    top = name.partition(".")[0]
    if top in _NEVER_EARLY or top.startswith("_playtester"):
        return False
    if top in _EARLY_PACKAGES:
        return True
    module = sys.modules.get(name)
    file = getattr(module, "__file__", None)
    if file is None:
        return top in sys.builtin_module_names
    file = os.path.realpath(file)
    return file.startswith(STDLIB + os.sep) and "site-packages" not in file
