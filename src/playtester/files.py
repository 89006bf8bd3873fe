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


# ------------------------------------------------------------------------- data files that are data
class UnsafeDataFile(ValueError):
    """A file (or stored blob) in a format that could run code when loaded (a pickle, ``torch.save``): refused."""


DATA_MAGIC = "playtester-data/1"
_PICKLE_HINT = ("it is a Python pickle (or torch.save archive), a format that runs code when loaded, so a file "
                "from elsewhere could run anything; it is refused, not read")


def pack_tree(tree: object) -> bytes:
    """``tree`` (dicts with any of these as keys, lists, tuples, sets, str, bytes, int, float, bool, None, numpy
    arrays and scalars, torch tensors) as bytes that cannot run code when read back: a numpy ``.npz`` of the
    arrays and a JSON skeleton (`unpack_tree`).

    Raises:
        TypeError: a value of another type (named, with where it is in the tree).
    """
    import io
    import json

    import numpy as np

    arrays: dict[str, np.ndarray] = {}

    def enc(x: object, where: str) -> object:
        if x is None or isinstance(x, (bool, str)):
            return x
        if isinstance(x, int):
            return x if -(2 ** 63) <= x < 2 ** 63 else {"int": str(x)}
        if isinstance(x, float):
            return {"float": repr(x)} if x != x or x in (float("inf"), float("-inf")) else x
        if isinstance(x, (list, tuple, set, frozenset)):
            kind = {list: "list", tuple: "tuple", set: "set", frozenset: "frozenset"}[type(x)] \
                if type(x) in (list, tuple, set, frozenset) else ("tuple" if isinstance(x, tuple) else "list")
            return {kind: [enc(v, f"{where}[{i}]") for i, v in enumerate(x)]}
        if isinstance(x, dict):
            return {"dict": [[enc(k, f"{where} key"), enc(v, f"{where}[{k!r}]")] for k, v in x.items()]}
        if isinstance(x, (bytes, bytearray)):
            name = f"a{len(arrays)}"
            arrays[name] = np.frombuffer(bytes(x), dtype=np.uint8)
            return {"bytes": name}
        if isinstance(x, (np.ndarray, np.generic)):
            a = np.asarray(x)
            if a.dtype.hasobject:
                raise TypeError(f"{where}: a numpy array of Python objects cannot be kept as data")
            name = f"a{len(arrays)}"
            arrays[name] = a
            return {"ndarray" if isinstance(x, np.ndarray) else "scalar": name}
        if type(x).__module__ == "torch" and type(x).__name__ in ("Tensor", "Parameter"):
            import torch

            t = x.detach().cpu()  # type: ignore[attr-defined]
            name = f"a{len(arrays)}"
            if t.dtype == torch.bfloat16:
                arrays[name] = t.float().numpy()
            else:
                arrays[name] = t.numpy()
            return {"tensor": name, "dtype": str(t.dtype).removeprefix("torch.")}
        raise TypeError(f"{where}: a {type(x).__module__}.{type(x).__qualname__} cannot be kept as data")

    skeleton = json.dumps({"format": DATA_MAGIC, "tree": enc(tree, "state")})
    arrays["__tree__"] = np.frombuffer(skeleton.encode("utf-8"), dtype=np.uint8)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def unpack_tree(blob: bytes, what: str = "data") -> object:
    """The tree `pack_tree` wrote. numpy reads it with ``allow_pickle=False``: nothing in it can run code.

    Raises:
        UnsafeDataFile: ``blob`` is a pickle or ``torch.save`` archive (the old formats), or not this format;
            the message names ``what``, why it is refused and that it is to be made again.
    """
    import io
    import json
    import zipfile

    import numpy as np

    if not blob.startswith(b"PK"):
        why = _PICKLE_HINT if blob[:1] == b"\x80" else "not a playtester data file"
        raise UnsafeDataFile(f"{what}: refused: {why}")
    try:
        with np.load(io.BytesIO(blob), allow_pickle=False) as z:
            if "__tree__" not in z.files:
                raise UnsafeDataFile(f"{what}: refused: {_PICKLE_HINT}")
            arrays = {k: z[k] for k in z.files}
    except UnsafeDataFile:
        raise
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as e:
        raise UnsafeDataFile(f"{what}: refused: not a readable playtester data file ({e})") from None
    try:
        head = json.loads(arrays.pop("__tree__").tobytes().decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise UnsafeDataFile(f"{what}: refused: its skeleton is not JSON ({e})") from None
    if not isinstance(head, dict) or head.get("format") != DATA_MAGIC:
        raise UnsafeDataFile(f"{what}: refused: not of format {DATA_MAGIC}")

    def arr(name: object) -> np.ndarray:
        if not isinstance(name, str) or name not in arrays:
            raise UnsafeDataFile(f"{what}: refused: it names an array {name!r} it does not hold")
        return arrays[name]

    def dec(x: object) -> object:
        if x is None or isinstance(x, (bool, int, float, str)):
            return x
        if isinstance(x, dict) and len(x) in (1, 2):
            kind, v = next(iter(x.items()))
            if kind == "int":
                return int(v)
            if kind == "float":
                return float(v)
            if kind in ("list", "tuple", "set", "frozenset") and isinstance(v, list):
                items = [dec(i) for i in v]
                return {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[kind](items)
            if kind == "dict" and isinstance(v, list):
                return {dec(k): dec(i) for k, i in v}
            if kind == "bytes":
                return arr(v).tobytes()
            if kind == "ndarray":
                return arr(v)
            if kind == "scalar":
                return arr(v)[()]
            if kind == "tensor":
                import torch

                t = torch.from_numpy(np.array(arr(v)))
                dtype = getattr(torch, str(x.get("dtype")), None)
                return t.to(dtype) if isinstance(dtype, torch.dtype) else t
        raise UnsafeDataFile(f"{what}: refused: an entry {str(x)[:80]!r} of no known kind")

    try:
        return dec(head["tree"])
    except (TypeError, ValueError, RecursionError, OverflowError) as e:
        if isinstance(e, UnsafeDataFile):
            raise
        raise UnsafeDataFile(f"{what}: refused: a malformed entry ({e})") from None
