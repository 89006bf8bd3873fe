"""bench/godot.py's timed copy of the Godot add-on (where a step's time goes) still fits the add-on: every anchor
it inserts its timers at is found exactly once, or the copy is refused with the anchor named."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from playtester.drive.godot import ADDON

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import godot as bench_godot  # noqa: E402


def test_the_timed_addon_fits_the_addon_as_it_is():
    source = ADDON.read_text()
    timed = bench_godot.timed_addon(source)
    for part in bench_godot.PARTS + ("between", "in_addon"):
        assert f'_b("{part}"' in timed, part
    assert timed.count("func _process_timed():") == 1 and timed.count("func _apply_inputs_timed(") == 1


def test_an_addon_that_changed_under_an_anchor_is_refused_by_name():
    source = ADDON.read_text().replace("\tvar msg: Dictionary = parsed.result\n", "\tvar msg = parsed.result\n")
    with pytest.raises(ValueError, match="parsed.result"):
        bench_godot.timed_addon(source)


def test_the_timed_addon_runs_and_times_each_part_of_the_steps_after_the_warm_up(godot):
    rate = bench_godot.addon_parts(300)  # a real coinhop on godot3-server, acting ahead with the timed copy
    parts = bench_godot.LAST_PARTS
    assert rate > 0 and parts["answers"] == 250  # written every 250 answers after the reset's and warm-up's
    for part in ("between", "inputs", "parse", "entities", "answer_json", "sync_line", "send"):
        assert parts[part] > 0, part  # each part was reached and timed
    assert parts["between"] > parts["entities"]  # ten frames of the game cost more than reading six entities
    assert parts["other"] > -1.0  # the named parts lie inside the add-on's own time (to the clock's microsecond)
