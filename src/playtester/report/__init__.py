"""Reports of a campaign: ``report.html``, ``junit.xml`` and one folder per bug.

All of it is read from the `Store`; nothing here touches pygame. Images are written with numpy and
zlib only (`images`).

Bug folders (``FOLDER/bugs/ID/``), what ``playtester replay FOLDER/bugs/ID`` reads:

- ``trace.json``: the first failing episode (`Trace.to_json`), when the bug has one;
- ``min_trace.json``: the shrunk trace, when it has been shrunk;
- ``bug.json``: ``{"schema": 1, "id", "kind", "message", "signature", "location", "count",
  "first_found_s", "first_step", "flaky", "details"}``;
- ``frames/000.png``, ``001.png``, ...: the frames ``frames_for_bug`` gave, oldest first, and
  ``strip.png``: the last `MAX_STRIP_FRAMES` of them side by side.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from playtester.files import write_atomic
from playtester.findings import BUG_JSON_SCHEMA, Bug
from playtester.report.html import BUG_TABLE_HEADER_RGB, MAX_STRIP_FRAMES, replay_command, write_report
from playtester.report.images import frame_strip, heatmap, png_bytes, png_decode
from playtester.report.junit import write_junit
from playtester.store import Store

__all__ = ["BUG_JSON_SCHEMA", "BUG_TABLE_HEADER_RGB", "MAX_STRIP_FRAMES", "frame_strip", "heatmap", "png_bytes",
           "png_decode", "replay_command", "write_bug_folders", "write_junit", "write_report"]

_FRAME_NAME = re.compile(r"^\d{3,}\.png$")


def _write(path: Path, data: bytes) -> None:
    write_atomic(path, data)


def write_bug_folders(store: Store, campaign_id: int, folder: Path,
                      frames_for_bug: Callable[[Bug], list[np.ndarray]] | None = None) -> list[Path]:
    """Write ``folder/bugs/<id>/`` for every bug of the campaign (see the module docstring).

    Files are replaced; frames left from an earlier write of the same bug are removed when new frames
    are given. Without ``frames_for_bug`` (or when it gives no frames) existing frames are kept.

    Args:
        store: the findings store.
        campaign_id: the campaign.
        folder: the output folder (usually the store's folder).
        frames_for_bug: gives a bug's frames (e.g. by replaying its trace).

    Returns:
        The bug folders, in bug id order.
    """
    out: list[Path] = []
    for bug in store.bugs(campaign_id):
        d = Path(folder) / "bugs" / str(bug.id)
        d.mkdir(parents=True, exist_ok=True)
        if bug.trace is not None:
            _write(d / "trace.json", bug.trace.to_json().encode("utf-8"))
        if bug.min_trace is not None:
            _write(d / "min_trace.json", bug.min_trace.to_json().encode("utf-8"))
        info = {"schema": BUG_JSON_SCHEMA, "id": bug.id, "kind": bug.kind, "message": bug.message,
                "signature": bug.signature, "location": bug.location, "count": bug.count,
                "first_found_s": bug.first_found_s, "first_step": bug.first_step, "flaky": bug.flaky,
                "replay": replay_command(Path(folder), bug.id), "details": bug.details}
        _write(d / "bug.json", json.dumps(info, indent=2, sort_keys=True, default=str).encode("utf-8"))
        frames = list(frames_for_bug(bug) or []) if frames_for_bug is not None else []
        if frames:
            fdir = d / "frames"
            fdir.mkdir(exist_ok=True)
            for old in fdir.iterdir():
                if _FRAME_NAME.match(old.name):
                    old.unlink()
            for i, f in enumerate(frames):
                _write(fdir / f"{i:03d}.png", png_bytes(f))
            _write(d / "strip.png", png_bytes(frame_strip(frames[-MAX_STRIP_FRAMES:])))
        out.append(d)
    return out
