"""The HTML report: content read back from a real store, and a headless Chromium screenshot."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import numpy as np
import pytest

from playtester.findings import Bug, Finding, Trace
from playtester.report import BUG_TABLE_HEADER_RGB, frame_strip, png_decode, write_bug_folders, write_report
from playtester.store import Store

SPACE = {"schema": 1, "kind": "manual", "source": None,
         "actions": [{"name": n, "inputs": {}, "mode": "hold", "hold_frames": None, "when": None, "cell": None,
                      "description": ""} for n in ("left", "right", "jump", "noop")]}
EVIL = "<script>alert('x')</script> & \"boom\""


def build_store(folder: Path) -> tuple[Store, int, dict[str, int]]:
    """A finished campaign with four bugs (one shrunk, one flaky), three episodes, positions, code lines."""
    store = Store(folder)
    cid = store.new_campaign("blockmaze", {"fps": 30}, "random", SPACE, "5000 steps", 2, 7, "scene")

    def trace(seed: int, n: int) -> Trace:
        return Trace("blockmaze", {"fps": 30}, seed, SPACE, [i % 4 for i in range(n)])

    ids = {}
    ids["crash"], new = store.record_finding(cid, "blockmaze", Finding("crash", f"ZeroDivisionError {EVIL}",
                                             "crash:maze.py:move:41", 10, "maze.py:41",
                                             {"traceback": "Traceback (most recent call last):\n  ..."}),
                                             trace(1, 10), 1.25)
    assert new
    assert store.record_finding(cid, "blockmaze", Finding("crash", "again", "crash:maze.py:move:41", 3), trace(2, 3),
                                2.0) == (ids["crash"], False)
    ids["hang"], _ = store.record_finding(cid, "blockmaze", Finding("hang", "no answer in 5 s", "hang:maze.py:loop",
                                          20, "maze.py:77"), trace(3, 20), 4.5)
    ids["stuck"], _ = store.record_finding(cid, "blockmaze", Finding("stuck", "screen unchanged for 300 frames",
                                           "stuck:hub", 40), trace(4, 40), 7.0)
    ids["assertion"], _ = store.record_finding(cid, "blockmaze", Finding("assertion", "hp >= 0", "assert:hp",
                                               5, "maze.py:120"), None, 8.5)
    store.set_bug(ids["crash"], min_trace=trace(1, 3), flaky=False)
    store.set_bug(ids["stuck"], flaky=True)
    t, steps = 0.0, 0
    for ep, (outcome, n) in enumerate([("done", 120), ("crash", 10), ("truncated", 200)]):
        t += 3.0
        steps += n
        store.record_episode(
            cid, worker=ep % 2, seed=ep, steps=n, outcome=outcome, reason="goal" if outcome == "done" else "",
            ended_s=t, actions=[0] * n, new_states={f"s{ep}-{i}": 1 for i in range(5 + 10 * ep)},
            positions={(x, ep): x + 1 for x in range(6)} | {(ep, 4): 30},
            code_lines={"maze.py": range(10 + 20 * ep, 30 + 20 * ep)},
            totals={"t_s": t, "steps": steps, "episodes": ep + 1, "states": 5 * (ep + 1) + 10 * ep,
                    "code_covered": 20 + 20 * ep, "code_total": 200, "bugs": ep + 1, "steps_per_s": steps / t,
                    "next_seed": ep + 1})
    store.update_campaign(cid, status="finished")
    return store, cid, ids


@pytest.fixture
def campaign(tmp_path):
    store, cid, ids = build_store(tmp_path / "run")
    yield store, cid, ids
    store.close()


def frames_for(bug: Bug) -> list[np.ndarray]:
    """Frames for the crash and the hang (a moving red square), none for the others."""
    if bug.kind not in ("crash", "hang"):
        return []
    out = []
    for i in range(12):
        f = np.full((60, 80, 3), (30, 120, 200), np.uint8)
        f[20:36, 4 + 5 * i:20 + 5 * i] = (230, 40, 40)
        out.append(f)
    return out


def test_report_content(campaign, tmp_path):
    store, cid, ids = campaign
    out = write_report(store, cid, tmp_path / "run" / "report.html", frames_for)
    assert out == tmp_path / "run" / "report.html"
    text = out.read_text("utf-8")
    assert text.startswith("<!DOCTYPE html>")

    table = re.search(r'<table id="bugs".*?</table>', text, re.S).group(0)
    rows = re.findall(r'<tr data-kind="([^"]+)" data-bug="(\d+)">(.*?)</tr>', table, re.S)
    assert [(k, int(b)) for k, b, _ in rows] == [(k, ids[k]) for k in ("crash", "hang", "stuck", "assertion")]
    cells = {k: re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for k, _, row in rows}
    # id, kind, message, count, first found, trace, shrunk, flaky, replay
    assert cells["crash"][3] == "2" and cells["crash"][4] == "1.2 s"
    assert (cells["crash"][5], cells["crash"][6], cells["crash"][7]) == ("10", "3", "no")
    assert (cells["stuck"][5], cells["stuck"][6], cells["stuck"][7]) == ("40", "—", "yes")
    assert (cells["assertion"][5], cells["assertion"][6], cells["assertion"][7]) == ("—", "—", "—")
    for kind, bug_id in ids.items():
        assert f"playtester replay {tmp_path / 'run' / 'bugs' / str(bug_id)}</code>" in cells[kind][8]

    # escaping: the message is shown, never executed; nothing loads from outside
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;boom&quot;" in text
    assert "<script" not in text.lower()
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"<link|@import|url\(", text)
    assert all(src.startswith("data:image/png;base64,") for src in re.findall(r'src="([^"]*)"', text))

    # summary
    assert "manual, 4 actions" in text and "5000 steps" in text and "random" in text
    assert "30.0%" in text  # 60 of 200 lines
    assert ">330<" in text  # steps; 9 s elapsed -> 36.7 steps/s
    assert "36.7" in text
    assert "episodes by outcome" in text.lower() and 'data-outcome="truncated"' in text

    # charts: states, code coverage, bugs found
    assert text.count('<svg class="chart"') == 3
    assert "distinct states" in text and "lines covered (%)" in text and "bugs found" in text

    # images: two strips of the last 8 frames and the heat map, all valid PNGs
    pngs = [png_decode(base64.b64decode(b)) for b in re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", text)]
    strips = [p for p in pngs if p.shape[0] == 96]
    assert len(strips) == 2 and len(pngs) == 3
    assert np.array_equal(strips[0], frame_strip(frames_for(store.bug(ids["crash"]))[-8:]))
    assert text.count("no frames") == 2  # stuck and assertion


def test_report_without_data(tmp_path):
    store = Store(tmp_path / "empty")
    cid = store.new_campaign("platformer", {}, "random", {"kind": "native", "n": 5}, "1m", 1, 0, "pixels")
    out = write_report(store, cid, tmp_path / "out" / "r.html")
    text = out.read_text("utf-8")
    assert "No bugs found" in text and "no coverage timeline" in text and "does not tell playtester where its player is" in text
    assert "probe.observe(x=..., y=...)" in text  # what to add for a map (issue 54)
    assert "No episodes recorded" in text and "native, 5 actions" in text
    assert re.search(r'<table id="bugs"', text) and "data-kind" not in text
    with pytest.raises(Exception, match="no campaign 99"):
        write_report(store, 99, tmp_path / "out" / "r.html")
    store.close()


def test_report_frames_failure_is_a_note(campaign, tmp_path):
    store, cid, _ = campaign

    def broken(bug: Bug) -> list[np.ndarray]:
        raise RuntimeError("replay failed")

    text = write_report(store, cid, tmp_path / "r.html", broken).read_text("utf-8")
    assert text.count("replay failed") == 4


def test_bug_folders(campaign, tmp_path):
    store, cid, ids = campaign
    folder = tmp_path / "run"
    dirs = write_bug_folders(store, cid, folder, frames_for)
    assert dirs == [folder / "bugs" / str(ids[k]) for k in ("crash", "hang", "stuck", "assertion")]
    crash = folder / "bugs" / str(ids["crash"])
    info = json.loads((crash / "bug.json").read_text())
    assert {k: info[k] for k in ("kind", "count", "first_found_s", "flaky", "location", "signature")} == {
        "kind": "crash", "count": 2, "first_found_s": 1.25, "flaky": False, "location": "maze.py:41",
        "signature": "crash:maze.py:move:41"}
    assert info["message"].endswith(EVIL) and info["schema"] == 1
    assert Trace.from_json((crash / "trace.json").read_text()).actions == [i % 4 for i in range(10)]
    assert len(Trace.from_json((crash / "min_trace.json").read_text()).actions) == 3
    frames = sorted((crash / "frames").iterdir())
    assert [f.name for f in frames] == [f"{i:03d}.png" for i in range(12)]
    assert np.array_equal(png_decode(frames[5].read_bytes()), frames_for(store.bug(ids["crash"]))[5])
    assert png_decode((crash / "strip.png").read_bytes()).shape == (96, 8 * 128 + 7 * 2, 3)
    stuck = folder / "bugs" / str(ids["stuck"])
    assert (stuck / "trace.json").is_file() and not (stuck / "min_trace.json").exists()
    assert not (stuck / "frames").exists() and not (stuck / "strip.png").exists()
    assert json.loads((stuck / "bug.json").read_text())["flaky"] is True
    assertion = folder / "bugs" / str(ids["assertion"])
    assert sorted(p.name for p in assertion.iterdir()) == ["bug.json"]
    # written again with fewer frames: no stale frames stay
    write_bug_folders(store, cid, folder, lambda bug: frames_for(bug)[:2])
    assert sorted(p.name for p in (crash / "frames").iterdir()) == ["000.png", "001.png"]


@pytest.mark.timeout(180)
def test_report_in_headless_chromium(campaign, tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        if os.environ.get("PLAYTESTER_REQUIRE_BROWSER"):
            pytest.fail("chromium is required here (PLAYTESTER_REQUIRE_BROWSER is set) but not installed; "
                        "run 'make browser' (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (make browser, or apt-get install -y chromium)")
    store, cid, _ = campaign
    html_file = write_report(store, cid, tmp_path / "run" / "report.html", frames_for)
    shot = tmp_path / "shot.png"
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,1600",
           f"--screenshot={shot}", html_file.as_uri()]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # chromium and the helpers it started
        proc.communicate()
        pytest.fail("chromium did not finish the screenshot in 120 s")
    assert shot.is_file(), f"chromium wrote no screenshot (rc {proc.returncode}): {err[-2000:]}"
    img = png_decode(shot.read_bytes())
    assert img.shape[:2] == (1600, 1200)
    rgb = img[:, :, :3]
    colors = np.unique(rgb.reshape(-1, 3)[::7], axis=0)
    assert len(colors) > 50, "the screenshot is (nearly) blank"
    header = np.all(rgb == np.array(BUG_TABLE_HEADER_RGB, np.uint8), axis=2)
    assert header.sum() > 10_000, "the bug table's header is not visible"
    rows = np.nonzero(header.any(axis=1))[0]
    cols = np.nonzero(header.any(axis=0))[0]
    assert cols.max() - cols.min() > 800  # a full-width table, not a stray pixel
    assert 20 <= rows.max() - rows.min() <= 80
