"""Bird's-eye maps (the PPGTA paper's Figures 7 and 9) for games that report positions: the game's map seen
from above with the exploration traces over it (red lines), and its objects of interest as dots coloured by
the state of their test: tested and judged right (green), tested and judged wrong (red), tested with no
verdict (blue: no texture oracle ran), missed (grey).

The map is rows of tile characters (the park's ``layout`` hook gives them: ``.`` grass, ``=`` path,
``~`` water, ``#`` bridge, ``_`` paved, ``T`` tree, ``B`` building, ``H`` hedge); positions are in tiles
(x right, y down). numpy only; the HTML section embeds the PNGs (`images.png_bytes`).

`playtester explore` records what the maps need with the campaign observer `BirdsEyeWatch`, one JSON line an
episode in ``birdseye-CAMPAIGN.jsonl`` next to the store; `load_birdseye` turns that file into a `BirdsEye`
(the report reads it by itself when the file is there).
"""

from __future__ import annotations

import base64
import html
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from playtester.report.images import png_bytes

BIRDSEYE_FILE = "birdseye-{cid}.jsonl"  # in the run folder, next to the store: `campaign.observers.BirdsEyeWatch`
#                                     writes it, `load_birdseye` reads it (the report, by itself)
TILE_RGB = {  # muted ground, pathways light (the paper draws them white) so the traces stand out
    ".": (92, 120, 86), "=": (236, 236, 228), "~": (70, 110, 160), "#": (200, 190, 170), "_": (170, 170, 170),
    "T": (50, 80, 50), "B": (120, 100, 90), "H": (40, 64, 40),
}
OTHER_RGB = (128, 128, 128)
TRACE_RGB = (220, 30, 30)
STATUS_RGB = {"ok": (20, 190, 60), "wrong": (230, 30, 30), "tested": (40, 110, 230), "missed": (150, 150, 150)}
OUTLINE_RGB = (20, 20, 20)
STATUS_LABEL = {"ok": "tested, verdict right", "wrong": "tested, verdict wrong",
                "tested": "tested, no verdict (no texture oracle)", "missed": "missed"}
MAX_TRACES = 300  # episodes drawn on the exploration map at most (evenly spread over the campaign)


@dataclass
class BirdsEye:
    """What a bird's-eye map shows: the map's ``rows`` (one string per tile row), the exploration ``traces``
    (per episode, the player's ``(x, y)`` positions in tiles) and the ``objects`` (``{"id", "x", "y",
    "status"}`` with status ``ok``, ``wrong``, ``tested`` or ``missed``). ``episodes``: how many episodes the
    traces stand for (more than ``len(traces)`` when only some were kept to draw)."""

    rows: Sequence[str]
    traces: list[list[tuple[float, float]]] = field(default_factory=list)
    objects: list[dict[str, Any]] = field(default_factory=list)
    scale: int = 6  # pixels per tile
    title: str = ""
    episodes: int | None = None


def base_map(rows: Sequence[str], scale: int = 6) -> np.ndarray:
    """The map's tiles as an RGB image, ``scale`` pixels per tile."""
    h, w = len(rows), max((len(r) for r in rows), default=0)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = OTHER_RGB
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            img[y, x] = TILE_RGB.get(ch, OTHER_RGB)
    return np.repeat(np.repeat(img, scale, 0), scale, 1)


def draw_traces(img: np.ndarray, traces: list[list[tuple[float, float]]], scale: int,
                rgb: Sequence[int] = TRACE_RGB, width: int = 1) -> np.ndarray:
    """Each trace as a polyline (its consecutive positions joined), ``width`` pixels thick, in place."""
    h, w = img.shape[:2]
    for trace in traces:
        pts = np.asarray(trace, np.float64).reshape(-1, 2) * scale
        if len(pts) == 0:
            continue
        if len(pts) == 1:
            pts = np.vstack([pts, pts])
        a, b = pts[:-1], pts[1:]
        n = np.maximum(2 * np.ceil(np.abs(b - a).max(1)).astype(int), 1)  # two samples per pixel
        t = np.concatenate([np.linspace(0, 1, k + 1) for k in n])
        seg = np.repeat(np.arange(len(a)), n + 1)
        p = a[seg] + (b[seg] - a[seg]) * t[:, None]
        xs, ys = np.floor(p[:, 0] + 1e-6).astype(int), np.floor(p[:, 1] + 1e-6).astype(int)
        for dy in range(-(width // 2), width - width // 2):
            for dx in range(-(width // 2), width - width // 2):
                ok = (xs + dx >= 0) & (xs + dx < w) & (ys + dy >= 0) & (ys + dy < h)
                img[ys[ok] + dy, xs[ok] + dx] = rgb
    return img


def draw_objects(img: np.ndarray, objects: list[dict[str, Any]], scale: int, radius: float | None = None) -> np.ndarray:
    """Each object as a dot with a dark outline, coloured by its ``status`` (`STATUS_RGB`), in place."""
    r = radius if radius is not None else max(3.0, 1.2 * scale)
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    for o in objects:
        cx, cy = float(o["x"]) * scale, float(o["y"]) * scale
        d2 = (xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2
        img[d2 <= (r + 1) ** 2] = OUTLINE_RGB
        img[d2 <= r ** 2] = STATUS_RGB.get(str(o.get("status")), OTHER_RGB)
    return img


def exploration_map(view: BirdsEye) -> np.ndarray:
    """The map with the exploration traces (Figure 7 of the paper)."""
    return draw_traces(base_map(view.rows, view.scale), view.traces, view.scale)


def status_map(view: BirdsEye) -> np.ndarray:
    """The map with the objects coloured by the state of their test (Figure 9 of the paper)."""
    return draw_objects(base_map(view.rows, view.scale), view.objects, view.scale)


def _uri(img: np.ndarray) -> str:
    return "data:image/png;base64," + base64.b64encode(png_bytes(img)).decode("ascii")


def birdseye_html(view: BirdsEye) -> str:
    """An HTML section with both maps, their legends and the counts of objects per status."""
    counts = {s: sum(1 for o in view.objects if o.get("status") == s) for s in STATUS_RGB}
    legend = "".join(f'<span class="swatch" style="background:rgb{STATUS_RGB[s]}"></span>'
                     f"<span>{STATUS_LABEL[s]}: {counts[s]}</span>&nbsp;" for s in STATUS_RGB)
    a, b = exploration_map(view), status_map(view)
    title = html.escape(view.title or "Bird's-eye maps")
    return (f'<section class="panel" id="birdseye"><h2>{title}</h2><div class="two">'
            f'<div><h3>Exploration traces ({_episodes(view)})</h3><img src="{_uri(a)}" '
            f'alt="exploration traces" width="{a.shape[1]}" height="{a.shape[0]}"><div class="legend">'
            f'<span class="swatch" style="background:rgb{TRACE_RGB}"></span><span>where the player went</span>'
            f'&nbsp;<span class="swatch" style="background:rgb{TILE_RGB["="]}"></span><span>pathways</span></div></div>'
            f'<div><h3>Objects of interest ({len(view.objects)})</h3><img src="{_uri(b)}" alt="objects by test status" '
            f'width="{b.shape[1]}" height="{b.shape[0]}"><div class="legend">{legend}</div></div>'
            "</div></section>")


def _episodes(view: BirdsEye) -> str:
    n = view.episodes if view.episodes is not None else len(view.traces)
    return f"{n} episodes" if n == len(view.traces) else f"{len(view.traces)} of {n} episodes drawn"


def object_status(objects: list[dict[str, Any]], episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each object with its ``status`` over the episodes (`BirdsEyeWatch` records): ``ok`` when some episode
    tested it (saw every face) and the texture oracle's majority verdict on every face matched its
    ``bug_faces`` (a face it never judged counts as judged normal: the oracle said nothing of it); ``wrong``
    when tested and judged, never right; ``tested`` when tested only in episodes without texture verdicts;
    ``missed`` otherwise. Also ``tested_episodes`` and ``faces_seen`` (most faces one episode saw)."""
    out = []
    for o in objects:
        truth = ["normal" if b == "none" else str(b) for b in o["bug_faces"]]
        n = len(truth)
        tested = right = judged = most = 0
        for ep in episodes:
            faces = set(ep.get("faces", {}).get(o["id"], ()))
            most = max(most, len(faces))
            if len(faces) < n:
                continue
            tested += 1
            if not ep.get("judged"):
                continue
            judged += 1
            votes = ep.get("votes", {}).get(o["id"], {})
            verdicts = [Counter(votes.get(str(f), {})).most_common(1)[0][0] if votes.get(str(f)) else "normal"
                        for f in range(n)]
            right += int(verdicts == truth)
        status = "ok" if right else "wrong" if judged else "tested" if tested else "missed"
        out.append({**o, "status": status, "tested_episodes": tested, "faces_seen": most})
    return out


def load_birdseye(path: str | Path, scale: int = 6, max_traces: int = MAX_TRACES) -> BirdsEye | None:
    """The bird's-eye view of a campaign from its ``birdseye-CAMPAIGN.jsonl`` (None: no such file, or nothing
    in it). The map is the game's rows when its ``layout`` hook gave them, else blank tiles around what was
    seen; at most ``max_traces`` episodes' traces are drawn, evenly spread."""
    p = Path(path)
    if not p.is_file():
        return None
    lines = [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not lines or "objects" not in lines[0]:
        return None
    head, episodes = lines[0], [r for r in lines[1:] if "trace" in r]
    traces = [[(float(x), float(y)) for x, y in ep["trace"]] for ep in episodes]
    if len(traces) > max_traces:
        keep = np.linspace(0, len(traces) - 1, max_traces).round().astype(int)
        traces = [traces[i] for i in sorted(set(keep.tolist()))]
    rows = head.get("map")
    if not rows:  # no map from the game: blank tiles covering the traces and the objects
        pts = [p for t in traces for p in t] + [(o["x"], o["y"]) for o in head["objects"]]
        w = int(max((x for x, _ in pts), default=0)) + 2
        h = int(max((y for _, y in pts), default=0)) + 2
        rows = ["?" * w] * h
    return BirdsEye(rows, traces=traces, objects=object_status(head["objects"], episodes), scale=scale,
                    episodes=len(episodes))
