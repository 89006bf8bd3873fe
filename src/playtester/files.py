"""Writing files people and tools read: atomically (a reader never sees half a file, a crash leaves the old
one), and XML text that XML 1.0 can hold."""

from __future__ import annotations

import os
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
