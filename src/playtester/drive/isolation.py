"""Each episode of a pygame game runs in a copy of the game's folder of its own (issue 57).

A game that writes a save, a high score or a settings file beside itself (``open("highscore.txt", "w")``) would
otherwise change every later episode: the same seed would play differently, and a bug found in the first episode (a
first-run-only crash) would not reproduce on replay. `GameConfig.fresh_folder` (on by default) makes the worker host
build, before it forks each episode, a fresh copy of the game's working folder (`GameSpec.workdir`, the project root
of `drive.workdir`) from the original, and the episode process runs in it. The original is never written.

The copy is cheap, made per file:

- a reflink (``FICLONE``: a copy-on-write clone of the file's blocks) where the filesystem has them (btrfs, XFS,
  bcachefs); else
- a hard link for files a game reads and does not rewrite (`LINKED`: images, sounds, fonts, videos, code), the
  bulk of a game's folder;
- a plain copy for everything else (saves, JSON, text, levels, files without a suffix): what a game may rewrite;
- a symbolic link to the original for folders that are no part of the game's data (`SKIPPED`: ``.git``, virtual
  environments, caches).

What this does not isolate: a hard-linked asset rewritten in place (that writes through to the original; a game
that rewrites its own images is rare, and ``--sandbox`` mounts the original read-only: `drive.sandbox`), and a file
written by an absolute path or one built from the module's ``__file__`` (the game's code is loaded from the
original folder, so its tracebacks, coverage and bug signatures name the original files); ``--sandbox`` binds the
episode's copy over the original folder, so those land in the copy too.

Each episode gets a new folder (``ep-N`` under the worker's temporary folder). A folder is removed once no process
below the host works in it any more: a Go-Explore snapshot (a parked fork of an episode) keeps its episode's
folder until it is gone.
"""

from __future__ import annotations

import errno
import itertools
import os
import shutil
from pathlib import Path
from typing import Any

from playtester.drive import lifetime, sandbox

LINKED = frozenset({
    ".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tga", ".webp", ".svg", ".ico", ".tif", ".tiff", ".pcx", ".xcf",
    ".wav", ".ogg", ".mp3", ".flac", ".mid", ".midi", ".opus", ".mod", ".xm", ".it", ".s3m",
    ".ttf", ".otf", ".fon", ".fnt", ".woff", ".woff2",
    ".mp4", ".webm", ".avi", ".mkv", ".mpg",
    ".py", ".pyc", ".pyi", ".so", ".pyd", ".dll", ".dylib",
})
SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox", ".nox", "node_modules",
                     ".mypy_cache", ".pytest_cache", ".ruff_cache", ".idea", ".vscode"})
MAX_ENTRIES = 20000  # files and folders copied at most; a larger folder (a cwd of "/", a home) runs shared
FICLONE = 0x40049409  # linux/fs.h: _IOW(0x94, 9, int)
_reflink_ok: dict[tuple[int, int], bool] = {}  # (source device, copy's device) -> reflinks work there
_serial = itertools.count(1)


def episode_root(spec: Any, tmp_dir: str) -> str | None:
    """Where a worker's episodes get their copies of the game's folder (the host makes one folder per episode in
    it), or None where none is made: ``fresh_folder`` off, a game whose code does not run in the episode process,
    or a game without a folder of its own (a module of an installed package)."""
    from playtester.drive.backend import capabilities

    if not getattr(spec.config, "fresh_folder", True) or not spec.workdir or not capabilities(spec).python:
        return None
    return os.path.join(tmp_dir, "games")


def fresh_copy(source: str, root: str, keep_pid: int | None = None) -> str | None:
    """A new copy of the folder ``source`` under ``root`` (``root/ep-N``), for the next episode; folders of earlier
    episodes that no process below ``keep_pid`` (the host: its episodes and their snapshots) works in are
    removed first. Answers the copy's path; None (with a line on stderr, the worker's log) for a folder of more
    than `MAX_ENTRIES` files and folders, which the episode then shares."""
    os.makedirs(root, mode=0o700, exist_ok=True)
    _prune(root, keep_pid)
    dest = os.path.join(root, f"ep-{next(_serial)}")
    shutil.rmtree(dest, ignore_errors=True)
    try:
        copy_tree(source, dest, [MAX_ENTRIES])
    except _TooLarge:
        shutil.rmtree(dest, ignore_errors=True)
        import sys

        print(f"playtester: {source} holds more than {MAX_ENTRIES} files and folders: the episodes run in it, "
              f"not in copies (set cwd in the game's playtester.toml to the game's own folder)", file=sys.stderr)
        return None
    return dest


class _TooLarge(Exception):
    pass


def copy_tree(source: str, dest: str, budget: list[int] | None = None) -> None:
    """``dest`` as a copy-on-write view of ``source`` (the rules of the module docstring); ``budget``: entries
    left to copy (a one-item list, shared down the tree), past which `_TooLarge` is raised."""
    if budget is not None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooLarge
    os.mkdir(dest)
    shutil.copystat(source, dest, follow_symlinks=False)
    with os.scandir(source) as entries:
        for entry in entries:
            target = os.path.join(dest, entry.name)
            try:
                if entry.is_symlink():
                    os.symlink(os.readlink(entry.path), target)
                elif entry.is_dir():
                    if entry.name in SKIPPED:
                        os.symlink(entry.path, target)
                    else:
                        copy_tree(entry.path, target, budget)
                elif entry.is_file():
                    if budget is not None:
                        budget[0] -= 1
                        if budget[0] < 0:
                            raise _TooLarge
                    copy_file(entry.path, target)
            except OSError:
                continue  # unreadable (a socket, a file of another user): the game meets it missing


def copy_file(source: str, dest: str) -> str:
    """One file of the copy: ``"reflink"``, ``"link"`` or ``"copy"`` (what was done)."""
    key = (os.stat(source).st_dev, os.stat(os.path.dirname(dest)).st_dev)
    if _reflink_ok.get(key, True) and _reflink(source, dest):
        _reflink_ok[key] = True
        return "reflink"
    _reflink_ok[key] = False
    if Path(source).suffix.lower() in LINKED and not sandbox.active():  # the sandbox: no write reaches an original
        try:
            os.link(source, dest)
            return "link"
        except OSError as e:
            if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.EACCES):
                raise
    shutil.copy2(source, dest)
    return "copy"


def _reflink(source: str, dest: str) -> bool:
    import fcntl

    try:
        with open(source, "rb") as s, open(dest, "wb") as d:
            fcntl.ioctl(d.fileno(), FICLONE, s.fileno())
    except OSError:
        try:
            os.unlink(dest)
        except OSError:
            pass
        return False
    shutil.copystat(source, dest)
    return True


def _prune(root: str, keep_pid: int | None) -> None:
    """Remove the episode folders under ``root`` that no process below ``keep_pid`` has as its working folder."""
    try:
        names = [n for n in os.listdir(root) if n.startswith("ep-")]
    except OSError:
        return
    if not names:
        return
    used: set[str] = set()
    for pid in lifetime.descendants(keep_pid) if keep_pid else []:
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if cwd.startswith(root + os.sep):
            used.add(cwd[len(root) + 1:].split(os.sep, 1)[0])
    for name in names:
        if name not in used:
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)
