"""Games that crash, exit, die, hang or never read input: each ends cleanly with the right report,
and the next episode runs. Real processes, real signals, no mocks."""

from __future__ import annotations

import signal

from conftest import fixture_spec

from playtester.drive.inputs import InputFrame


def run_until_done(w, limit=50):
    obs = None
    for _ in range(limit):
        obs = w.step(InputFrame(), frames=1)
        if obs.done:
            return obs
    return obs


def test_exception_at_frame_n(worker_for):
    w = worker_for(fixture_spec("raise_at", game_args={"n": 5}))
    w.reset(seed=0)
    obs = run_until_done(w)
    exit = obs.info["exit"]
    assert obs.done and exit.kind == "exception" and exit.is_failure
    assert exit.exc_type == "ValueError" and "boom at frame 5" in exit.message
    assert exit.frames[-1].function == "update" and exit.frames[-1].file.endswith("raise_at.py")
    assert "Traceback" in exit.traceback
    assert obs.frame is not None  # the last frame before the crash is kept
    # the next episode runs, in the same worker host
    starts = w.host_starts
    obs = w.reset(seed=1)
    assert not obs.done and w.host_starts == starts


def test_a_crash_in_the_games_own_crash_handler_names_the_first_error(worker_for):
    # fallingsky 0.0.8's handler calls traceback.format_exc(error): a TypeError that hides the real one
    w = worker_for(fixture_spec("raise_at", game_args={"n": 3, "broken_handler": True}))
    w.reset(seed=0)
    exit = run_until_done(w).info["exit"]
    assert exit.kind == "exception" and exit.exc_type == "TypeError"
    assert "while handling ValueError: boom at frame 3 at raise_at.py:10" in exit.message
    assert any(f.file.endswith("raise_at.py") and f.function == "main" for f in exit.frames)  # the handler's line


def test_os_exit(worker_for):
    w = worker_for(fixture_spec("os_exit"))
    w.reset(seed=0)
    obs = run_until_done(w)
    assert obs.info["exit"].kind == "exit" and obs.info["exit"].code == 3 and obs.info["exit"].is_failure
    assert not w.reset(seed=1).done


def test_process_killed_by_signal(worker_for):
    w = worker_for(fixture_spec("os_exit", game_args={"sig": int(signal.SIGKILL)}))
    w.reset(seed=0)
    obs = run_until_done(w)
    exit = obs.info["exit"]
    assert exit.kind == "signal" and exit.signal == signal.SIGKILL and "SIGKILL" in exit.message
    assert not w.reset(seed=1).done


def test_a_fatal_signal_in_native_code_has_the_games_python_location(worker_for):
    """A segmentation fault (here raised at frame 4 of os_exit.py's loop) is where native code (SDL, a C
    extension) kills a game: faulthandler's dump gives it the game's Python location and a signature that
    tells two such crashes apart. (pygame's parachute turns SIGSEGV into an abort: SIGABRT is what a real
    segfault in a pygame game looks like.)"""
    from playtester.oracles.crash import CrashOracle

    w = worker_for(fixture_spec("os_exit", game_args={"sig": int(signal.SIGSEGV)}))
    w.reset(seed=0)
    obs = run_until_done(w)
    exit = obs.info["exit"]
    assert exit.kind == "signal" and exit.signal in (signal.SIGSEGV, signal.SIGABRT)
    assert exit.frames and exit.frames[-1].function == "main" and exit.frames[-1].file.endswith("os_exit.py")
    assert "in main (os_exit.py:" in exit.message and "Fatal Python error" in exit.traceback
    [finding] = CrashOracle().check(obs, 4)
    assert finding.signature.startswith(f"crash:signal:{exit.signal}:") and finding.location
    assert not w.reset(seed=1).done


def test_sys_exit_and_normal_return(worker_for):
    w = worker_for(fixture_spec("sys_exit", game_args={"code": 2}))
    w.reset(seed=0)
    obs = run_until_done(w)
    assert obs.info["exit"].kind == "exit" and obs.info["exit"].code == 2 and obs.info["exit"].is_failure
    w2 = worker_for(fixture_spec("sys_exit", game_args={"code": -1}))
    w2.reset(seed=0)
    obs = run_until_done(w2)
    assert obs.info["exit"].kind == "finished" and not obs.info["exit"].is_failure
    # stepping a finished episode keeps answering with its final state
    assert w2.step(InputFrame(), frames=1).done


def test_infinite_loop_is_a_hang_with_its_location(worker_for):
    w = worker_for(fixture_spec("forever", step_timeout_s=1.5))
    w.reset(seed=0)
    obs = run_until_done(w, limit=10)
    exit = obs.info["exit"]
    assert exit.kind == "hang" and exit.is_failure
    assert exit.frames and exit.frames[-1].function == "spin", exit.traceback
    assert "forever.py" in exit.frames[-1].file
    # a fresh worker serves the next episode
    starts = w.host_starts
    obs = w.reset(seed=1)
    assert not obs.done and w.host_starts == starts + 1


def test_game_that_never_reads_input_runs_and_says_so(worker_for):
    w = worker_for(fixture_spec("no_input"))
    obs = w.reset(seed=0)
    for _ in range(5):
        obs = w.step(InputFrame.make(keys=["SPACE"]), frames=10)
    assert not obs.done and obs.features["frame"] == 51
    assert obs.info["inputs_read"] == 0
    assert not w.reset(seed=1).done


def test_bad_function_name_is_a_spec_error_not_a_crash(worker_for):
    import pytest

    from playtester.errors import GameSpecError

    w = worker_for(fixture_spec("raise_at", function="nope"))
    with pytest.raises(GameSpecError, match="has no function 'nope'.*main"):
        w.reset(seed=0)
