"""The benches' copies of the Godot add-on still fit the add-on, and do what they claim: bench/godot.py's timed copy
(every anchor it inserts its timers at is found exactly once, or the copy is refused with the anchor named; on a real
coinhop every part is timed) and its free-observation copy (same frames and events, no entity), and
bench/godot_native_probe.py's copy that observes through native code (its anchors). Also the bench's interval of the
median round."""

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


def test_the_free_observation_copy_fits_the_addon_and_is_refused_when_its_anchor_changed():
    free = bench_godot.free_obs_addon(ADDON.read_text())
    assert "_entities_compact()\n\tvar t := int(" not in free and "ent = []  # bench" in free
    changed = ADDON.read_text().replace("\t_entities_compact()\n\tvar t := int(", "\t_entities_compact()\n\tvar t = int(")
    with pytest.raises(ValueError, match="FREE_OBS_EDITS"):
        bench_godot.free_obs_addon(changed)


def test_the_free_observation_copy_plays_the_same_frames_and_reports_no_entity(godot, tmp_path, monkeypatch):
    # a real coinhop on godot3-server, the same actions with the add-on and with its free-observation copy: the
    # frames go on alike (10 a step) and the game's events still come, but the copy's answers list no entity
    from playtester.drive.worker import Worker
    from playtester.env import default_space

    spec = bench_godot.resolve("godot:coinhop").with_config(done_events=[], frames_per_action=bench_godot.FRAMES_PER_STEP)
    space = default_space(spec)
    free = tmp_path / "playtester.gd"
    free.write_text(bench_godot.free_obs_addon(ADDON.read_text()))
    seen = {}
    for name, addon in (("addon", None), ("free", str(free))):
        if addon:
            monkeypatch.setenv("PLAYTESTER_GODOT_ADDON", addon)
        with Worker(spec, space, capture=None) as w:
            w.reset(seed=0)
            obs = [w.act(space.names.index("move_right")) for _ in range(30)]  # hurt, a coin, then a fall
            seen[name] = ([o.frame_no for o in obs], [len(o.entities) for o in obs],
                          [e.name for o in obs for e in o.events])
    assert seen["free"][0] == seen["addon"][0] == [10 * (i + 1) for i in range(30)]
    assert min(seen["addon"][1]) > 0 and max(seen["free"][1]) == 0
    assert seen["free"][2] == seen["addon"][2] and {"hurt", "collected", "fell_out"} <= set(seen["addon"][2])


def test_the_native_probes_addon_copy_fits_the_addon():
    # bench/godot_native_probe.py's copy of the add-on that observes through observe.c: every anchor is found once
    import godot_native_probe

    native = godot_native_probe.native_addon(ADDON.read_text())
    assert "native.observe(nodes, c_ninfos)" in native and "func _paths(" in native
    assert '"observer": "native" if native != null else "gdscript"' in native
    with pytest.raises(ValueError, match="NATIVE_EDITS"):
        godot_native_probe.native_addon(ADDON.read_text().replace("func _bodies(node: Node", "func _bodies(nd: Node"))


def test_the_median_rounds_interval_brackets_the_median_and_narrows_with_more_rounds():
    import random
    import statistics

    rng = random.Random(1)
    few = [rng.uniform(0.4, 1.0) for _ in range(7)]
    many = [rng.uniform(0.4, 1.0) for _ in range(41)]
    for values in (few, many):
        lo, hi = bench_godot.median_ci(values)
        assert lo <= statistics.median(values) <= hi
    assert bench_godot.median_ci(many)[1] - bench_godot.median_ci(many)[0] < \
        bench_godot.median_ci(few)[1] - bench_godot.median_ci(few)[0]
    assert bench_godot.median_ci([0.7] * 9) == [0.7, 0.7]
