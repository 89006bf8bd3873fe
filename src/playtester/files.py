"""Writing files people and tools read: atomically (a reader never sees half a file, a crash leaves the old
one), and XML text that XML 1.0 can hold; where results that can be computed again are kept, and a folder's
fingerprint (what tells them stale)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection
from pathlib import Path


def write_atomic(path: str | Path, data: bytes | str) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` through a temporary file beside it and a rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    os.replace(tmp, path)
    return path


def xml_safe(text: str) -> str:
    """XML 1.0 cannot hold most control characters; replace them (tracebacks may contain anything)."""
    return "".join(ch if ch in "\t\n\r" or ord(ch) >= 0x20 and not 0xD800 <= ord(ch) <= 0xDFFF
                   and ch not in "\ufffe\uffff" else "\ufffd" for ch in text)


def cache_dir(kind: str) -> Path | None:
    """The folder where playtester keeps results it could compute again (``kind``: what they are; `write_atomic`
    makes it): ``$PLAYTESTER_CACHE/KIND``, else ``$XDG_CACHE_HOME/playtester/KIND``, else ``~/.cache/playtester/KIND``;
    None when ``PLAYTESTER_CACHE`` is ``off`` (or ``0``): compute everything every time."""
    root = os.environ.get("PLAYTESTER_CACHE", "")
    if root.strip().lower() in ("off", "0", "no", "false"):
        return None
    base = Path(root) if root else \
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "playtester"
    return base / kind


def folder_fingerprint(folder: Path, content: bool = True, skip_dirs: Collection[str] = (".git",),
                       skip_suffixes: Collection[str] = (), big_file: int | None = None,
                       max_files: int | None = None, max_read: int | None = None) -> str | None:
    """A hash of every file under ``folder`` (those in a folder named in ``skip_dirs`` or with a suffix in
    ``skip_suffixes`` left out): each file's path, size and content, or its modification time instead of its
    content when ``content`` is false or the file is larger than ``big_file`` bytes. None when the folder holds
    more than ``max_files`` files or more than ``max_read`` bytes to read: too large to fingerprint quickly."""
    h, files, read = hashlib.sha256(), 0, 0
    for p in sorted(folder.rglob("*")):
        if not p.is_file() or p.suffix in skip_suffixes or any(d in p.parts for d in skip_dirs):
            continue
        st = p.stat()
        files += 1
        h.update(f"{p.relative_to(folder)}\0{st.st_size}\0".encode())
        if not content or big_file is not None and st.st_size > big_file:
            h.update(str(st.st_mtime_ns).encode())
        else:
            read += st.st_size
            h.update(hashlib.sha256(p.read_bytes()).digest())
        if max_files is not None and files > max_files or max_read is not None and read > max_read:
            return None
    return h.hexdigest()
