"""The campaign report: one self-contained HTML file that opens offline.

Everything is inline: CSS in a ``<style>`` element, charts as SVG, images as base64 PNG data URIs. No
script, no fonts, no network. Every piece of text from the store is escaped with `html.escape`.

Sections: summary tiles and campaign facts, coverage over time (distinct states, code coverage, bugs
found), the bug table (``<table id="bugs">``, one ``<tr data-kind="...">`` per bug), one card per bug
(frames, signature, details), the position heat map, and episodes by outcome.
"""

from __future__ import annotations

import base64
import html
import json
import math
import shlex
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from playtester.errors import UsageError
from playtester.files import write_atomic
from playtester.findings import Bug
from playtester.oracles import kinds as oracle_kinds
from playtester.report.images import HEAT_RAMP, UNVISITED_RGB, frame_strip, heatmap, png_bytes
from playtester.store import Campaign, Store

__all__ = ["BUG_TABLE_HEADER_RGB", "KIND_COLORS", "MAX_STRIP_FRAMES", "replay_command", "write_report"]

BUG_TABLE_HEADER_RGB = (38, 50, 92)
"""Background of the bug table's header row (``#26325c``); used nowhere else on the page, so a
screenshot test can find the table by this exact colour."""

MAX_STRIP_FRAMES = 8
"""A bug's card shows at most this many of its last frames."""

KIND_COLORS = {
    "crash": "#c62828", "hang": "#7b1fa2", "memory": "#4a148c", "stuck": "#ef6c00", "assertion": "#d81b60",
    "balance": "#00838f", "error_log": "#6d4c41", "frame_time": "#1565c0",
}
"""One colour per oracle kind (chips, chart markers)."""

OUTCOME_COLORS = {
    "finished": "#2e7d32", "done": "#43a047", "truncated": "#78909c", "crash": "#c62828", "hang": "#7b1fa2",
    "memory": "#4a148c",
    "no-valid-action": "#ef6c00",
    "worker_lost": "#8d6e63",  # the worker's Ray actor or node died: not the game's doing
}

_OTHER_COLOR = "#546e7a"
_MAX_CHART_POINTS = 1500
_MAX_DETAILS_CHARS = 20000

FramesFor = Callable[[Bug], list[np.ndarray]]


def _hex(rgb: Sequence[int]) -> str:
    return "#" + "".join(f"{int(c):02x}" for c in rgb)


def e(value: Any) -> str:
    """Escaped text for HTML (quotes too, so it is safe in attributes)."""
    return html.escape(str(value), quote=True)


def replay_command(folder: Path, bug_id: int) -> str:
    """``playtester replay FOLDER/bugs/ID``, quoted for a POSIX shell."""
    return f"playtester replay {shlex.quote(str(Path(folder) / 'bugs' / str(bug_id)))}"


def png_data_uri(rgb: np.ndarray) -> str:
    return "data:image/png;base64," + base64.b64encode(png_bytes(rgb)).decode("ascii")


# ---------------------------------------------------------------- formatting
def fmt_int(n: float | int) -> str:
    return f"{int(n):,}"


def fmt_seconds(s: float) -> str:
    """``0.42 s``, ``12.3 s``, ``4m 05s``, ``2h 03m``."""
    if s < 10:
        return f"{s:.2f} s"
    if s < 60:
        return f"{s:.1f} s"
    m, sec = divmod(int(round(s)), 60)
    if m < 60:
        return f"{m}m {sec:02d}s"
    h, m = divmod(m, 60)
    return f"{h}h {m:02d}m"


def _fmt_tick(v: float, percent: bool = False) -> str:
    if percent:
        return f"{v:g}%"
    a = abs(v)
    if a >= 1e6:
        return f"{v / 1e6:.3g}M"
    if a >= 1e4:
        return f"{v / 1e3:.3g}k"
    return f"{v:.4g}"


def _trace_len(trace: Any) -> str:
    return "—" if trace is None else fmt_int(len(trace.actions))


def _flaky(flaky: bool | None) -> str:
    return "—" if flaky is None else ("yes" if flaky else "no")


def _kind_chip(kind: str) -> str:
    return f'<span class="chip" style="background:{KIND_COLORS.get(kind, _OTHER_COLOR)}">{e(kind)}</span>'


# ---------------------------------------------------------------- charts
def _nice_ticks(vmax: float, integer: bool = False, n: int = 5) -> list[float]:
    """Round tick values from 0 to at least ``vmax``."""
    if not math.isfinite(vmax) or vmax <= 0:
        vmax = 1.0
    raw = vmax / n
    mag = 10 ** math.floor(math.log10(raw))
    step = mag * 10
    for m in ((1, 2, 5) if integer else (1, 2, 2.5, 5)):
        if m * mag >= raw:
            step = m * mag
            break
    if integer:
        step = max(1.0, math.ceil(step))
    count = max(1, math.ceil(vmax / step - 1e-9))
    return [i * step for i in range(count + 1)]


def _thin(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    if len(points) <= _MAX_CHART_POINTS:
        return points
    k = math.ceil(len(points) / _MAX_CHART_POINTS)
    return points[::k] + ([points[-1]] if (len(points) - 1) % k else [])


def line_chart(points: list[tuple[float, float]], *, y_label: str, color: str, x_max: float | None = None,
               integer: bool = False, percent: bool = False, step: bool = False,
               markers: Sequence[tuple[float, float, str, str]] = (), aria: str = "") -> str:
    """An inline SVG line chart with axes, grid lines, tick labels and axis labels.

    Args:
        points: (x seconds, y) in time order.
        y_label: the y axis label.
        color: line colour.
        x_max: right end of the x axis (default: the last x).
        integer: y values are counts (integer ticks).
        percent: y values are percentages (ticks end in %, axis capped at 100).
        step: draw a step function (value holds until the next point).
        markers: (x, y, colour, tooltip) circles drawn over the line.
        aria: the chart's accessible label.
    """
    W, H = 420, 250
    ml, mr, mt, mb = 60, 16, 14, 46
    pw, ph = W - ml - mr, H - mt - mb
    pts = _thin(sorted(points, key=lambda p: p[0]))
    xs_max = max([p[0] for p in pts] + [x_max or 0.0, 1e-9])
    y_top = max([p[1] for p in pts] + [0.0])
    xt = _nice_ticks(xs_max)
    yt = _nice_ticks(y_top * (1.08 if not integer else 1.0) if y_top > 0 else 1.0, integer=integer)
    if percent:
        yt = [t for t in yt if t <= 100] or [0.0, 100.0]
        if yt[-1] < y_top:
            yt.append(100.0)
    x1, y1 = xt[-1], yt[-1]

    def sx(x: float) -> float:
        return ml + pw * (x / x1 if x1 else 0)

    def sy(y: float) -> float:
        return mt + ph * (1 - (y / y1 if y1 else 0))

    out = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" '
           f'aria-label="{e(aria or y_label)}">']
    for t in yt:
        y = sy(t)
        out.append(f'<line class="grid" x1="{ml}" y1="{y:.1f}" x2="{W - mr}" y2="{y:.1f}"/>')
        out.append(f'<text class="tick" x="{ml - 6}" y="{y + 4:.1f}" text-anchor="end">'
                   f'{e(_fmt_tick(t, percent))}</text>')
    for t in xt:
        x = sx(t)
        out.append(f'<line class="tickmark" x1="{x:.1f}" y1="{mt + ph}" x2="{x:.1f}" y2="{mt + ph + 4}"/>')
        out.append(f'<text class="tick" x="{x:.1f}" y="{mt + ph + 18}" text-anchor="middle">'
                   f'{e(_fmt_tick(t))}</text>')
    out.append(f'<line class="axis" x1="{ml}" y1="{mt}" x2="{ml}" y2="{mt + ph}"/>')
    out.append(f'<line class="axis" x1="{ml}" y1="{mt + ph}" x2="{W - mr}" y2="{mt + ph}"/>')
    out.append(f'<text class="label" x="{ml + pw / 2:.1f}" y="{H - 6}" text-anchor="middle">time (s)</text>')
    out.append(f'<text class="label" transform="translate(14 {mt + ph / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle">{e(y_label)}</text>')
    if pts:
        path: list[tuple[float, float]] = []
        for i, (x, y) in enumerate(pts):
            if step and i:
                path.append((x, pts[i - 1][1]))
            path.append((x, y))
        if x_max is not None and x_max > pts[-1][0]:
            path.append((x_max, pts[-1][1]))
        d = " ".join(f"{'M' if i == 0 else 'L'}{sx(x):.1f},{sy(y):.1f}" for i, (x, y) in enumerate(path))
        area = d + f" L{sx(path[-1][0]):.1f},{sy(0):.1f} L{sx(path[0][0]):.1f},{sy(0):.1f} Z"
        out.append(f'<path d="{area}" fill="{color}" fill-opacity="0.12" stroke="none"/>')
        out.append(f'<path d="{d}" fill="none" stroke="{color}" stroke-width="2.2" stroke-linejoin="round"/>')
        lx, ly = path[-1]
        out.append(f'<circle cx="{sx(lx):.1f}" cy="{sy(ly):.1f}" r="3.5" fill="{color}"/>')
    for x, y, c, tip in markers:
        out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="4.5" fill="{c}" stroke="#fff" '
                   f'stroke-width="1.5"><title>{e(tip)}</title></circle>')
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------- sections
CSS = """
:root { --ink:#1d2330; --muted:#5f6b7a; --line:#e3e7ee; --bg:#f3f5f9; --card:#ffffff; --accent:#3f51b5; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
  font:14px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;
  font-size:12.5px; }
header.top { background:#1b1f2a; color:#fff; padding:22px 32px 20px; }
header.top .brand { font-size:12px; letter-spacing:.14em; text-transform:uppercase; color:#9fb0d0; }
header.top h1 { margin:4px 0 2px; font-size:26px; font-weight:650; word-break:break-all; }
header.top .sub { color:#c3cbe0; font-size:13px; }
main { max-width:1180px; margin:0 auto; padding:20px 24px 40px; }
.verdict { border-radius:10px; padding:12px 16px; margin:0 0 18px; font-weight:600; }
.verdict.bad { background:#fdecea; color:#8e1c1c; border:1px solid #f5c2bd; }
.verdict.good { background:#e8f5e9; color:#1b5e20; border:1px solid #bfe3c2; }
.tiles { display:grid; grid-template-columns:repeat(auto-fill, minmax(150px, 1fr)); gap:12px; margin-bottom:18px; }
.tile { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:12px 14px; }
.tile .v { font-size:22px; font-weight:650; font-variant-numeric:tabular-nums; }
.tile .k { color:var(--muted); font-size:12px; text-transform:uppercase; letter-spacing:.06em; }
section.panel { background:var(--card); border:1px solid var(--line); border-radius:12px; padding:18px 20px;
  margin-bottom:18px; }
section.panel > h2 { margin:0 0 12px; font-size:17px; font-weight:650; }
h3 { margin:0 0 6px; font-size:14px; font-weight:600; color:#37414f; }
dl.facts { display:grid; grid-template-columns:max-content 1fr; gap:4px 18px; margin:0; }
dl.facts dt { color:var(--muted); }
dl.facts dd { margin:0; word-break:break-word; }
.chip { display:inline-block; color:#fff; border-radius:999px; padding:1px 9px; font-size:12px; font-weight:600;
  white-space:nowrap; }
.kinds .chip { margin:0 6px 6px 0; }
.charts { display:grid; grid-template-columns:repeat(auto-fit, minmax(320px, 1fr)); gap:16px; }
svg.chart { width:100%; height:auto; display:block; }
svg.chart .grid { stroke:#edf0f5; stroke-width:1; }
svg.chart .axis, svg.chart .tickmark { stroke:#8a94a3; stroke-width:1; }
svg.chart text { font-family:inherit; }
svg.chart .tick { fill:#5f6b7a; font-size:12.5px; }
svg.chart .label { fill:#3c4656; font-size:13.5px; }
.note { color:var(--muted); font-style:italic; margin:6px 0; }
table { border-collapse:collapse; width:100%; }
table.data th, table.data td { padding:7px 10px; text-align:left; vertical-align:top; border-bottom:1px solid var(--line); }
table.data td.n, table.data th.n { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
table.data tbody tr:nth-child(even) { background:#fafbfd; }
table.data th { font-size:12px; text-transform:uppercase; letter-spacing:.04em; color:var(--muted); }
#bugs thead th { background:BUGHEAD; color:#fff; border-bottom:none; }
#bugs td.msg { max-width:360px; word-break:break-word; }
#bugs td.msg .loc { display:block; color:var(--muted); font-size:12px; }
#bugs code.cmd { white-space:nowrap; }
code.cmd { background:#f1f3f8; border:1px solid #e1e5ee; border-radius:5px; padding:1px 6px; user-select:all; }
a { color:var(--accent); text-decoration:none; }
a:hover { text-decoration:underline; }
.bug { border:1px solid var(--line); border-left:5px solid var(--kind, #546e7a); border-radius:8px;
  padding:12px 14px; margin:0 0 14px; }
.bug h3 { display:flex; gap:8px; align-items:baseline; font-size:15px; margin-bottom:8px; }
.bug h3 .msg { word-break:break-word; }
.bug .strip { margin:10px 0 4px; overflow-x:auto; }
.bug .strip img { display:block; image-rendering:pixelated; max-width:none; border-radius:4px; }
.bug details { margin-top:8px; }
.bug summary { cursor:pointer; color:var(--muted); }
pre { background:#f6f8fb; border:1px solid var(--line); border-radius:6px; padding:10px; overflow:auto;
  max-height:360px; margin:6px 0 0; white-space:pre-wrap; word-break:break-word; }
.two { display:grid; grid-template-columns:repeat(auto-fit, minmax(340px, 1fr)); gap:18px; }
.heat img { image-rendering:pixelated; max-width:100%; height:auto; border-radius:4px; display:block; }
.legend { display:flex; align-items:center; gap:8px; color:var(--muted); font-size:12px; margin-top:8px; }
.legend .ramp { width:160px; height:10px; border-radius:3px; background:linear-gradient(to right, RAMP); }
.legend .swatch { width:12px; height:12px; border-radius:2px; background:UNVISITED; display:inline-block; }
.bar { background:#edf0f5; border-radius:4px; height:10px; min-width:80px; }
.bar span { display:block; height:10px; border-radius:4px; }
footer { color:var(--muted); font-size:12px; text-align:center; padding:10px 0 30px; }
""".replace("BUGHEAD", _hex(BUG_TABLE_HEADER_RGB)).replace(
    "RAMP", ", ".join(_hex(c) for c in HEAT_RAMP)).replace("UNVISITED", _hex(UNVISITED_RGB))


def _space_text(space: dict[str, Any]) -> str:
    kind = space.get("kind", "?")
    if isinstance(space.get("actions"), list):
        size: Any = len(space["actions"])
    else:
        size = space.get("n", space.get("size", "?"))
    return f"{kind}, {size} actions"


def _summary(c: Campaign, bugs: list[Bug], states: int, covered: int, elapsed: float) -> str:
    sps = f"{c.steps / elapsed:,.1f}" if elapsed > 0 else "—"
    code = f"{100.0 * covered / c.code_total:.1f}%" if c.code_total > 0 else "off"
    errors = sum(1 for b in bugs if b.kind in ("crash", "hang", "memory"))
    if bugs:
        verdict = (f'<div class="verdict bad">{len(bugs)} bug{"s" if len(bugs) != 1 else ""} found'
                   + (f" ({errors} crash{'es' if errors != 1 else ''} or hang{'s' if errors != 1 else ''})"
                      if errors else "") + f" in {fmt_int(c.steps)} steps.</div>")
    else:
        verdict = f'<div class="verdict good">No bugs found in {fmt_int(c.steps)} steps.</div>'
    tiles = [("steps", fmt_int(c.steps)), ("episodes", fmt_int(c.episodes)), ("elapsed", fmt_seconds(elapsed)),
             ("steps / s", sps), ("distinct states", fmt_int(states)), ("code coverage", code),
             ("bugs", fmt_int(len(bugs)))]
    tile_html = "".join(f'<div class="tile"><div class="v">{e(v)}</div><div class="k">{e(k)}</div></div>'
                        for k, v in tiles)
    by_kind = Counter(b.kind for b in bugs)
    known = oracle_kinds()
    order = [k for k in known if k in by_kind] + sorted(k for k in by_kind if k not in known)
    kinds = ("".join(f'{_kind_chip(k)}<span class="mono">×{by_kind[k]}</span>&nbsp;&nbsp; ' for k in order)
             if order else '<span class="note">none</span>')
    facts = [
        ("game", c.game), ("agent", c.agent), ("action space", _space_text(c.space)), ("budget", c.budget),
        ("workers", c.workers), ("seed", c.seed), ("state abstraction", c.abstraction), ("status", c.status),
        ("started", time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(c.started_at))),
    ]
    if c.code_total > 0:
        facts.append(("code coverage", f"{code} ({fmt_int(covered)} of {fmt_int(c.code_total)} statements of the "
                                        "game's files that ran)"))
    else:
        facts.append(("code coverage", "off (not measured in this campaign)"))
    dl = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in facts)
    return (verdict + f'<div class="tiles">{tile_html}</div>'
            f'<section class="panel" id="summary"><h2>Campaign</h2><div class="two">'
            f'<dl class="facts">{dl}</dl>'
            f'<div><h3>Bugs by kind</h3><div class="kinds">{kinds}</div></div></div></section>')


def _charts(c: Campaign, timeline: list[dict[str, Any]], bugs: list[Bug], elapsed: float) -> str:
    parts = []
    if timeline:
        states = [(0.0, 0.0)] + [(float(p["t_s"]), float(p["states"])) for p in timeline]
        parts.append('<div><h3>Distinct states over time</h3>'
                     + line_chart(states, y_label="distinct states", color="#3f51b5", x_max=elapsed,
                                  integer=True, aria="distinct states over time") + "</div>")
        code = [(float(p["t_s"]), 100.0 * p["code_covered"] / p["code_total"]) for p in timeline
                if p["code_total"] > 0]
        if code:
            parts.append('<div><h3>Code coverage over time</h3>'
                         + line_chart([(0.0, 0.0)] + code, y_label="lines covered (%)", color="#00897b",
                                      x_max=elapsed, percent=True, aria="code coverage over time") + "</div>")
        else:
            parts.append('<div><h3>Code coverage over time</h3><p class="note">Code coverage was not '
                         'measured in this campaign.</p></div>')
    else:
        parts.append('<div><h3>Coverage over time</h3><p class="note">No episode has finished yet, so there '
                     'is no coverage timeline.</p></div>')
    found = sorted(bugs, key=lambda b: (b.first_found_s, b.id))
    pts = [(0.0, 0.0)] + [(float(b.first_found_s), float(i + 1)) for i, b in enumerate(found)]
    markers = [(float(b.first_found_s), float(i + 1), KIND_COLORS.get(b.kind, _OTHER_COLOR),
                f"#{b.id} {b.kind} at {b.first_found_s:.1f} s: {b.message}") for i, b in enumerate(found)]
    parts.append('<div><h3>Bugs found over time</h3>'
                 + line_chart(pts, y_label="bugs found", color="#c62828", x_max=elapsed, integer=True, step=True,
                              markers=markers, aria="bugs found over time") + "</div>")
    return f'<section class="panel" id="coverage"><h2>Over time</h2><div class="charts">{"".join(parts)}</div></section>'


def _bug_table(bugs: list[Bug], folder: Path) -> str:
    head = ("<tr><th class=\"n\">id</th><th>kind</th><th>message</th><th class=\"n\">count</th>"
            "<th class=\"n\">first found</th><th class=\"n\">trace</th><th class=\"n\">shrunk</th>"
            "<th>flaky</th><th>replay</th></tr>")
    rows = []
    for b in bugs:
        loc = f'<span class="loc mono">{e(b.location)}</span>' if b.location else ""
        rows.append(
            f'<tr data-kind="{e(b.kind)}" data-bug="{b.id}"><td class="n"><a href="#bug-{b.id}">{b.id}</a></td>'
            f"<td>{_kind_chip(b.kind)}</td><td class=\"msg\">{e(b.message)}{loc}</td>"
            f'<td class="n">{fmt_int(b.count)}</td><td class="n">{b.first_found_s:.1f} s</td>'
            f'<td class="n">{_trace_len(b.trace)}</td><td class="n">{_trace_len(b.min_trace)}</td>'
            f"<td>{_flaky(b.flaky)}</td><td><code class=\"cmd\">{e(replay_command(folder, b.id))}</code></td></tr>")
    body = "".join(rows) if rows else '<tr><td colspan="9" class="note">No bugs found.</td></tr>'
    note = ('<p class="note">trace / shrunk: actions in the first failing episode, and after shrinking '
            "(— when not shrunk yet).</p>" if rows else "")
    return (f'<section class="panel"><h2>Bugs</h2><table id="bugs" class="data"><thead>{head}</thead>'
            f"<tbody>{body}</tbody></table>{note}</section>")


def _frames_html(bug: Bug, frames_for_bug: FramesFor | None) -> str:
    if frames_for_bug is None:
        return '<p class="note">no frames</p>'
    try:
        frames = list(frames_for_bug(bug) or [])
    except Exception as ex:  # a report is still written when one bug's frames cannot be had
        return f'<p class="note">no frames (getting them failed: {e(type(ex).__name__)}: {e(ex)})</p>'
    if not frames:
        return '<p class="note">no frames</p>'
    shown = frames[-MAX_STRIP_FRAMES:]
    try:
        uri = png_data_uri(frame_strip(shown))
    except ValueError as ex:
        return f'<p class="note">no frames ({e(ex)})</p>'
    return (f'<div class="strip"><img src="{uri}" alt="last {len(shown)} frames of bug {bug.id}"></div>'
            f'<div class="note">the last {len(shown)} of {len(frames)} frames, oldest first</div>')


def _details_text(details: dict[str, Any]) -> str:
    text = json.dumps(details, indent=2, sort_keys=True, default=str)
    return text if len(text) <= _MAX_DETAILS_CHARS else text[:_MAX_DETAILS_CHARS] + "\n… (cut)"


def _bug_cards(bugs: list[Bug], folder: Path, frames_for_bug: FramesFor | None) -> str:
    if not bugs:
        return ""
    cards = []
    for b in bugs:
        facts = [("signature", f'<code>{e(b.signature)}</code>'),
                 ("location", f'<code>{e(b.location)}</code>' if b.location else "—"),
                 ("first found", f"step {fmt_int(b.first_step)}, {b.first_found_s:.1f} s into the campaign"),
                 ("count", fmt_int(b.count)),
                 ("trace", "none stored" if b.trace is None else
                  f"{_trace_len(b.trace)} actions, seed {b.trace.seed}"
                  + (f"; shrunk to {_trace_len(b.min_trace)}" if b.min_trace is not None else "")),
                 ("flaky", _flaky(b.flaky)),
                 ("replay", f'<code class="cmd">{e(replay_command(folder, b.id))}</code>')]
        dl = "".join(f"<dt>{e(k)}</dt><dd>{v}</dd>" for k, v in facts)
        tb = b.details.get("traceback") if isinstance(b.details, dict) else None
        tb_html = f"<pre>{e(tb)}</pre>" if isinstance(tb, str) and tb.strip() else ""
        det = (f"<details><summary>details</summary><pre>{e(_details_text(b.details))}</pre></details>"
               if b.details else "")
        cards.append(
            f'<article class="bug" id="bug-{b.id}" data-kind="{e(b.kind)}" '
            f'style="--kind:{KIND_COLORS.get(b.kind, _OTHER_COLOR)}">'
            f'<h3><a href="#bug-{b.id}">#{b.id}</a> {_kind_chip(b.kind)} <span class="msg">{e(b.message)}</span></h3>'
            f"{_frames_html(b, frames_for_bug)}<dl class=\"facts\">{dl}</dl>{tb_html}{det}</article>")
    return f'<section class="panel" id="bug-details"><h2>Bug details</h2>{"".join(cards)}</section>'


def _heat(positions: dict[tuple[int, int], int]) -> str:
    if not positions:
        return ('<div class="heat"><h3>Where the player went</h3><p class="note">This game does not tell '
                "playtester where its player is, so there is no map. To get one, report the position from the "
                "game's loop with <code>probe.observe(x=..., y=...)</code> (or an entity: "
                "<code>probe.entity(\"player\", \"player\", (x, y))</code> with <code>position = \"entity:player\"</code> "
                "in the config's <code>[coverage]</code> table); see the docs' probe section.</p></div>")
    img = heatmap(positions)
    xs = [x for x, _ in positions]
    ys = [y for _, y in positions]
    top = max(positions.values())
    return (f'<div class="heat"><h3>Where the player went</h3>'
            f'<img src="{png_data_uri(img)}" alt="position heat map" width="{img.shape[1]}" height="{img.shape[0]}">'
            f'<div class="legend"><span>1 visit</span><span class="ramp"></span><span>{fmt_int(top)} visits '
            f'(log scale)</span>&nbsp;<span class="swatch"></span><span>never</span></div>'
            f'<p class="note">{fmt_int(len(positions))} cells visited; x {min(xs)}…{max(xs)}, '
            f"y {min(ys)}…{max(ys)} (y down)</p></div>")


def _outcomes(episodes: list[dict[str, Any]]) -> str:
    if not episodes:
        return '<div><h3>Episodes by outcome</h3><p class="note">No episodes recorded.</p></div>'
    groups: dict[str, list[dict[str, Any]]] = {}
    for ep in episodes:
        groups.setdefault(str(ep["outcome"]), []).append(ep)
    total = len(episodes)
    rows = []
    for outcome, eps in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        steps = sum(int(x["steps"]) for x in eps)
        reason, n = Counter(str(x["reason"]) for x in eps).most_common(1)[0]
        share = 100.0 * len(eps) / total
        color = OUTCOME_COLORS.get(outcome, _OTHER_COLOR)
        rows.append(f'<tr data-outcome="{e(outcome)}"><td>{e(outcome)}</td><td class="n">{fmt_int(len(eps))}</td>'
                    f'<td><div class="bar"><span style="width:{share:.1f}%;background:{color}"></span></div></td>'
                    f'<td class="n">{fmt_int(steps)}</td><td class="n">{steps / len(eps):,.1f}</td>'
                    f'<td>{e(reason) if reason else "—"}{f" <span class=note>({n})</span>" if reason else ""}</td></tr>')
    return ('<div><h3>Episodes by outcome</h3><table class="data" id="outcomes"><thead><tr><th>outcome</th>'
            '<th class="n">episodes</th><th>share</th><th class="n">steps</th><th class="n">mean steps</th>'
            f'<th>usual reason</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


def render_report(store: Store, campaign_id: int | None, folder: Path,
                  frames_for_bug: FramesFor | None = None, birdseye: Any = None) -> str:
    """The report's HTML text (see `write_report`)."""
    c = store.campaign(campaign_id)
    if c is None or (campaign_id is not None and c.id != campaign_id):
        ids = [x.id for x in store.campaigns()]
        raise UsageError(f"no campaign {campaign_id} in {store.path}"
                         + (f"; campaigns there: {ids}" if ids else "; it has none (run 'playtester explore')"))
    bugs = store.bugs(c.id)
    timeline = store.timeline(c.id)
    states = len(store.states(c.id)) or (int(timeline[-1]["states"]) if timeline else 0)
    # statements covered, as the campaign counted them (raw executed lines include continuation lines)
    covered = int(timeline[-1]["code_covered"]) if timeline else 0
    if not covered:
        covered = sum(len(v) for v in store.code_lines(c.id).values())
    covered = min(covered, c.code_total) if c.code_total > 0 else covered
    elapsed = max([float(c.elapsed_s)] + [float(p["t_s"]) for p in timeline] + [float(b.first_found_s) for b in bugs])
    from playtester import __version__

    body = [
        f'<header class="top"><div class="brand">playtester report</div><h1>{e(c.game)}</h1>'
        f'<div class="sub">campaign {c.id} · agent {e(c.agent)} · {e(c.status)} · '
        f'{e(time.strftime("%Y-%m-%d %H:%M", time.localtime(c.started_at)))}</div></header><main>',
        _summary(c, bugs, states, covered, elapsed),
        _charts(c, timeline, bugs, elapsed),
        _bug_table(bugs, folder),
        _bug_cards(bugs, folder, frames_for_bug),
        f'<section class="panel" id="map"><h2>Exploration</h2><div class="two">{_heat(store.positions(c.id))}'
        f"{_outcomes(store.episodes(c.id))}</div></section>",
        _birdseye(birdseye, store, c.id),
        f'<footer>generated by playtester {e(__version__)} on '
        f'{e(time.strftime("%Y-%m-%d %H:%M:%S"))} from {e(store.path)}</footer></main>',
    ]
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>playtester report: {e(c.game)} (campaign {c.id})</title><style>{CSS}</style></head>"
            f'<body>{"".join(body)}</body></html>\n')


def _birdseye(view: Any, store: Store, campaign_id: int) -> str:
    """The bird's-eye maps (`report.maps.BirdsEye`) when there is one to show: the one given, else the
    campaign's own record next to the store (``birdseye-ID.jsonl``, written by `BirdsEyeWatch` during
    ``playtester explore``)."""
    from playtester.report.maps import BIRDSEYE_FILE, birdseye_html, load_birdseye

    if view is None:
        view = load_birdseye(Path(store.folder) / BIRDSEYE_FILE.format(cid=campaign_id))
    if view is None:
        return ""

    return birdseye_html(view)


def write_report(store: Store, campaign_id: int, out: Path,
                 frames_for_bug: FramesFor | None = None, *, folder: Path | None = None,
                 birdseye: Any = None) -> Path:
    """Write the campaign's report as one self-contained HTML file.

    Args:
        store: the findings store to read.
        campaign_id: the campaign to report on (None: the latest).
        out: the HTML file to write (its folder is created; the file is replaced atomically).
        frames_for_bug: gives a bug's frames (e.g. by replaying its trace); the last
            `MAX_STRIP_FRAMES` are shown as a strip. Called once per bug; an exception becomes a note.
        folder: the output folder whose ``bugs/ID`` the replay commands name (default: ``out``'s folder).
        birdseye: a `report.maps.BirdsEye` (the map, exploration traces, objects by test status) to show
            as the bird's-eye maps section; None shows the campaign's own (``birdseye-ID.jsonl`` next to the
            store, which ``playtester explore`` writes for games that report positions), or leaves the
            section out when there is none.

    Returns:
        ``out``.

    Raises:
        UsageError: the store has no such campaign.
    """
    out = Path(out)
    text = render_report(store, campaign_id, Path(folder) if folder is not None else out.parent, frames_for_bug,
                         birdseye)
    return write_atomic(out, text)
