"""Which folder a pygame game runs in: its project root, as the person who wrote it ran it.

Games open their images and sounds by paths relative to the working folder (``pygame.image.load("assets/ship.png")``),
so a game started from the wrong folder crashes on its first frame, in every episode. ``python src/main.py`` from a
repository's root runs with the repository as the working folder and ``src/`` as ``sys.path[0]``; playtester does the
same: ``sys.path[0]`` is always the entry file's folder, and the working folder is

1. the config's ``cwd`` (relative to the config file), when set;
2. else the folder, among the entry's folder and its parents up to the project's root (the nearest that holds
   ``pyproject.toml``, ``setup.py``, ``setup.cfg``, ``requirements.txt`` or ``.git``), against which most of the
   relative paths written in the game's code exist (the entry's folder wins a tie);
3. else, when no path in the code says (a game that opens nothing, or builds every path from ``__file__``), the
   entry's folder, where ``cd FOLDER; python game.py`` runs it.
"""

from __future__ import annotations

import ast
from pathlib import Path

MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", ".git")
MAX_UP = 3  # parents of the entry's folder looked at
MAX_FILES = 60  # the game's .py files read for paths
ASSET_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tga", ".webp", ".svg", ".wav", ".ogg", ".mp3",
                  ".flac", ".mid", ".midi", ".ttf", ".otf", ".fnt", ".json", ".txt", ".csv", ".tmx", ".tsx",
                  ".xml", ".dat", ".map", ".lvl", ".level", ".yaml", ".yml", ".ini", ".cfg", ".db", ".sqlite"}


def candidates(entry_dir: Path) -> list[Path]:
    """The entry's folder and its parents up to the nearest that holds a project marker (at most MAX_UP up)."""
    out = [entry_dir]
    if any((entry_dir / m).exists() for m in MARKERS):
        return out
    folder = entry_dir
    for _ in range(MAX_UP):
        if folder.parent == folder:
            break
        folder = folder.parent
        out.append(folder)
        if any((folder / m).exists() for m in MARKERS):
            return out
    return [entry_dir]  # no marker above: the entry's folder stands alone


def relative_paths(sources: list[Path]) -> set[str]:
    """String constants in the game's code that look like relative file or folder paths ("assets/ship.png",
    "img", "font.ttf"); the parts of a literal ``os.path.join("assets", "x.png")`` count one by one."""
    out: set[str] = set()
    for path in sources[:MAX_FILES]:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, OSError, ValueError):
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            text = node.value.strip()
            if not text or len(text) > 200 or "\n" in text or text.startswith(("/", "~", "http")) or ":" in text:
                continue
            p = Path(text)
            if "/" in text or "\\" in text or p.suffix.lower() in ASSET_SUFFIXES:
                out.add(text.replace("\\", "/"))
            elif text.isidentifier() and len(text) > 2:
                out.add(text)  # a bare folder name ("assets", "images") counts when it is a folder
    return out


def _score(folder: Path, paths: set[str]) -> int:
    n = 0
    for text in paths:
        p = folder / text
        try:
            if ("/" in text or Path(text).suffix) and p.exists() or p.is_dir() and text.isidentifier():
                n += 1
        except OSError:
            continue
    return n


def game_sources(entry: Path) -> list[Path]:
    """The entry file first, then the other .py files of its folder and of the folders below it (sorted)."""
    folder = entry.parent
    rest = [p for pattern in ("*.py", "*/*.py") for p in sorted(folder.glob(pattern)) if p != entry]
    return [entry, *rest][:MAX_FILES]


def project_root(entry: Path) -> Path:
    """The working folder for the game whose entry file is ``entry`` (rules 2 and 3 of the module docstring)."""
    entry = entry.resolve()
    folders = candidates(entry.parent)
    if len(folders) == 1:
        return folders[0]
    paths = relative_paths(game_sources(entry))
    scores = [_score(f, paths) for f in folders]
    best = max(scores)
    return folders[scores.index(best)]  # the nearest folder with the most (entry's folder first, also at none)


def describe(cwd: str, entry_dir: str) -> str:
    """How a message says where the game ran, and how to change it."""
    how = ('set cwd = "FOLDER" (relative to the playtester.toml) in the game\'s playtester.toml, '
           "e.g. cwd = \".\" to run it in the config's own folder")
    if Path(cwd) == Path(entry_dir):
        return f"playtester ran the game in {cwd} (its entry file's folder); if it expects another working folder, {how}"
    return (f"playtester ran the game in {cwd} (the project root it found above the entry's folder {entry_dir}); if "
            f"it expects another working folder, {how}")
