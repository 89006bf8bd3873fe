"""Each oracle, on a real game that has that bug."""

from __future__ import annotations

import pytest
from conftest import GAMES, fixture_spec

from playtester.drive.inputs import InputFrame
from playtester.oracles import make_oracles, oracle_settings


def play(worker_for, spec, frames_seq, capture=(16, 16)):
    suite = make_oracles(spec.config.oracles)
    w = worker_for(spec, capture=capture)
    suite.reset()
    found = suite.check(w.reset(seed=0), 0)
    for step, frame in enumerate(frames_seq, start=1):
        obs = w.step(frame)
        found += suite.check(obs, step)
        if obs.done:
            break
    return found


def keys(*names):
    return InputFrame.make(keys=list(names))


def test_error_log_oracle(worker_for):
    found = play(worker_for, fixture_spec("buggy"), [keys(), keys("e"), keys()])
    [f] = [f for f in found if f.kind == "error_log"]
    assert f.step == 2 and "inventory corrupted: -1 items" in f.message and "buggy.inventory" in f.signature


def test_balance_oracle_on_event_fields(worker_for):
    spec = fixture_spec("buggy", oracles={"balance": {"hit.damage": (1, 50)}})
    found = play(worker_for, spec, [keys("j"), keys(), keys("h")])
    [f] = [f for f in found if f.kind == "balance"]
    assert f.step == 3 and f.signature == "balance:hit.damage:high" and "999" in f.message


def test_frame_time_oracle(worker_for):
    spec = fixture_spec("buggy", oracles={"frame_budget_ms": 40})
    found = play(worker_for, spec, [keys(), keys("w"), keys()])
    [f] = [f for f in found if f.kind == "frame_time"]
    assert f.step == 2 and f.details["ms"] > 40


def test_stuck_oracle_fires_only_while_inputs_keep_arriving(worker_for):
    spec = fixture_spec("buggy", oracles={"stuck_steps": 8, "enabled": ["stuck"]})
    moves = [keys("LEFT"), keys("RIGHT"), keys("UP"), keys("DOWN")]
    # idle (no inputs) for a long time: not stuck
    assert play(worker_for, spec, [keys()] * 20) == []
    # walking around: not stuck
    assert play(worker_for, spec, moves * 5) == []
    # walked every way, then trapped while inputs keep coming: stuck, once
    found = play(worker_for, spec, moves + [keys("t")] + moves * 5)
    assert [f.kind for f in found] == ["stuck"] and found[0].step == 12  # window of 8 states + this one
    assert found[0].details["state"] == {"x": 10.0, "y": 10.0} and found[0].details["inputs"] == 4
    # trapped before any input moved anything: nothing says the inputs should move it (Wuji's window says stuck)
    assert play(worker_for, spec, [keys("t")] + moves * 5) == []
    window = fixture_spec("buggy", oracles={"stuck_steps": 8, "enabled": ["stuck"], "stuck_criterion": "window"})
    found = play(worker_for, window, [keys("t")] + moves * 5)
    assert [f.kind for f in found] == ["stuck"] and found[0].step == 8


def test_crash_and_hang_oracles(worker_for):
    found = play(worker_for, fixture_spec("raise_at", game_args={"n": 25}), [keys()] * 5)
    [f] = found
    assert f.kind == "crash" and f.step == 3 and f.signature.startswith("crash:ValueError:raise_at.py:update:")
    raise_line = next(i for i, line in enumerate((GAMES / "raise_at.py").read_text().splitlines(), 1)
                      if "raise ValueError" in line)
    assert f.location.endswith(f"raise_at.py:{raise_line}")
    found = play(worker_for, fixture_spec("forever", step_timeout_s=1.0), [keys()] * 3)
    [h] = found
    # innermost frame by function only (a spinning loop is dumped on any of its lines), then its callers
    assert h.kind == "hang" and h.signature.split(" < ")[0] == "hang:forever.py:spin"
    assert h.signature.split(" < ")[1].startswith("forever.py:main:")


def test_assertion_oracle_and_once_per_episode(worker_for):
    from playtester.drive.spec import resolve

    spec = resolve("platformer")
    found = play(worker_for, spec, [keys("RIGHT")] * 25)
    floor = [f for f in found if f.kind == "assertion"]
    # the check fails on many frames while the player sinks, but it is one finding per episode
    assert len(floor) == 1 and floor[0].message == "player fell through the floor"
    assert floor[0].signature.startswith("assertion:platformer.py:")


@pytest.mark.parametrize("bad,match", [({"enabled": ["nope"]}, "unknown oracle 'nope'"),
                                       ({"balance": {"x": (5, 1)}}, "low 5.0 above high 1.0")])
def test_bad_oracle_settings_are_config_errors(bad, match):
    from playtester.errors import ConfigError

    with pytest.raises(ConfigError, match=match):
        oracle_settings(fixture_spec("buggy", oracles=bad))


def test_the_oracles_table_is_checked_against_the_registry_with_file_lines(tmp_path):
    """Typos and bad values in [oracles] name the file, line and key, with the closest registered key; in a
    pyproject's [tool.playtester.oracles] too."""
    from playtester.drive.spec import resolve
    from playtester.errors import ConfigError

    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    toml = tmp_path / "playtester.toml"
    toml.write_text("fps = 30\n\n[oracles]\nstuck_step = 3\nframe_budget_ms = -1\n")
    with pytest.raises(ConfigError) as e:
        oracle_settings(resolve(str(tmp_path / "game.py")))
    assert str(e.value).splitlines() == [
        f"{toml}:4: field 'oracles.stuck_step': unknown field 'stuck_step'; did you mean 'stuck_steps'?",
        f"{toml}:5: field 'oracles.frame_budget_ms': Input should be greater than 0 (got -1)"]
    toml.unlink()
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.playtester]\nfps = 30\n\n[tool.playtester.oracles]\nenabled = ["crash", "hangs"]\n')
    with pytest.raises(ConfigError, match=rf"{pyproject}:5: field 'tool.playtester.oracles.enabled': unknown oracle "
                       r"'hangs'; known: assertion, balance, crash, error_log, frame_time, hang, memory, stuck"):
        oracle_settings(resolve(str(tmp_path / "game.py")))


def test_an_oracle_is_one_class_and_one_register_line():
    """A new oracle registers its kind, settings and report style; the [oracles] table, the suite and the
    JUnit error kinds follow without another edit."""
    from pydantic import BaseModel

    from playtester.oracles import REGISTRY, error_kinds, kinds, register, settings_model
    from playtester.oracles.registry import settings_model as cached

    class FpsSettings(BaseModel):
        fps_floor: float = 30.0

    class FpsOracle:
        kind = "fps"

        def __init__(self, floor: float) -> None:
            self.floor = floor

        @classmethod
        def from_settings(cls, s):
            return cls(s.fps_floor)

        def reset(self) -> None:
            pass

        def check(self, obs, step):
            return []

    try:
        register(FpsOracle, FpsSettings, error=True)
        assert "fps" in kinds() and "fps" in error_kinds()
        suite = make_oracles({"enabled": ["crash", "fps"], "fps_floor": 20})
        assert suite.kinds == ["crash", "fps"] and suite.oracles[1].floor == 20
        assert "fps_floor" in settings_model().model_fields
        with pytest.raises(ValueError, match="registered twice"):
            register(FpsOracle)
    finally:
        REGISTRY.remove("fps")
        cached.cache_clear()
    assert "fps" not in kinds() and "fps_floor" not in settings_model().model_fields


def test_error_log_signature_python_site_vs_engine_message():
    """A Python log site is one bug whatever it formats; an engine's error line keeps its message (numbers
    blanked), so two different errors at one GDScript line are two bugs and two indices of one are one."""
    from playtester.drive.observation import LogRecord
    from playtester.oracles.error_log import signature

    py = [LogRecord("game.inv", "ERROR", f"inventory corrupted: {n} items", "/g/inv.py", 12, 0) for n in (-1, -7)]
    assert signature(py[0]) == signature(py[1]) == "error_log:game.inv:inv.py:12"
    gd = [LogRecord("godot", "ERROR", m, "res://player.gd", 40, 0) for m in (
        "Invalid get index '3' (on base: 'Array').", "Invalid get index '12' (on base: 'Array').",
        "Invalid call. Nonexistent function 'hit' in base 'Nil'.")]
    assert signature(gd[0]) == signature(gd[1]) != signature(gd[2])
    assert signature(gd[2]).startswith("error_log:godot:player.gd:40:Invalid call")


def test_frame_time_leaves_start_up_out(worker_for):
    """Loading before the game first reads input (and in the frame that first reads it) is start-up, not a slow
    frame: no frame_time finding at step 0 (issue 54: three of four false alarms on real games); a slow frame during
    play still is one; start-up is judged only against startup_budget_ms, when set."""
    spec = fixture_spec("slow_start", oracles={"frame_budget_ms": 150})
    found = play(worker_for, spec, [keys(), keys("w"), keys()])
    assert [(f.kind, f.step, f.signature) for f in found] == [("frame_time", 2, "frame_time:over-budget")]
    w = worker_for(spec, capture=(16, 16))
    first = w.reset(seed=0)
    assert first.info["started"] and first.info["startup_ms"] > 700 and first.info["max_frame_ms"] < 150
    assert "startup_ms" not in w.step(keys()).info  # sent until start-up ended, then no more
    budget = fixture_spec("slow_start", oracles={"frame_budget_ms": 150, "startup_budget_ms": 500})
    found = play(worker_for, budget, [keys(), keys()])
    assert [(f.kind, f.step, f.signature) for f in found] == [("frame_time", 0, "frame_time:startup-over-budget")]
    assert found[0].details["ms"] > 700


def test_run_reports_the_game_start_up_apart():
    from playtester.campaign import run_agent

    s = run_agent(fixture_spec("slow_start", max_episode_steps=5), steps=12, actions="blind")
    assert len(s.game_startup_ms) >= 2 and min(s.game_startup_ms) > 700  # one per episode, loading included


def test_a_slow_frame_that_keeps_working_is_a_slow_frame_not_a_hang(worker_for):
    """A frame that saves 300 screenshots runs past step_timeout_s but works all the while (CPU and writes): the
    watchdog waits (up to slow_frame_limit_s) and the frame_time oracle reports it; with no extension allowed it
    is a hang that kills the game, as before (issue 54)."""
    spec = fixture_spec("save_screens", step_timeout_s=0.5, oracles={"frame_budget_ms": 250})
    found = play(worker_for, spec, [keys(), keys("s"), keys("RIGHT")])
    assert [(f.kind, f.step) for f in found] == [("frame_time", 2)] and found[0].details["ms"] > 500
    strict = fixture_spec("save_screens", step_timeout_s=0.5, slow_frame_limit_s=0.5)
    found = play(worker_for, strict, [keys(), keys("s"), keys("RIGHT")])
    assert [(f.kind, f.step) for f in found] == [("hang", 2)]


def test_the_window_events_of_a_desktop_arrive_at_start(worker_for):
    """A game that waits for WINDOWSHOWN and WINDOWFOCUSGAINED does not crash under playtester alone (issue 54)."""
    assert play(worker_for, fixture_spec("focus_first"), [keys("RIGHT")] * 3) == []
