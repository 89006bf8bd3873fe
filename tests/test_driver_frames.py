"""Frame stepping, virtual time, determinism, headless sound, specs that run at import time."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import fixture_spec

from playtester.drive.inputs import InputFrame
from playtester.drive.spec import bundled_games, resolve
from playtester.errors import GameSpecError


def test_flip_then_tick_is_one_frame_and_tick_sets_virtual_time(worker_for):
    w = worker_for(fixture_spec("echo_inputs"))
    obs = w.reset(seed=0)
    start_frame, start_ms = obs.features["frame"], obs.time_ms
    obs = w.step(InputFrame(), frames=30)
    assert obs.features["frame"] - start_frame == 30  # the game's own loop count matches our frames
    assert obs.frame_no == 31
    # a frame ends at its flip, before its tick: 31 frames = 30 ticks at 30 fps = 1 s of virtual time
    assert abs(obs.time_ms - 1000) <= 1 and start_ms < 34


def test_time_sleep_delay_and_wall_clocks_are_virtual(worker_for):
    w = worker_for(fixture_spec("clocks"))
    w.reset(seed=0)
    obs = w.step(InputFrame(), frames=5)
    # each frame sleeps 20 ms and delays 5 ms: time.time() moved exactly 25 ms, nothing else added
    assert obs.features["dt_ms"] == pytest.approx(25.0, abs=1e-3)
    assert obs.time_ms == 6 * 25


def test_blocking_wait_ends_a_frame_and_waits_for_input(worker_for):
    w = worker_for(fixture_spec("turn_based"))
    obs = w.reset(seed=0)
    assert "moves" not in obs.features
    obs = w.step(InputFrame.make(keys=["RIGHT"]), frames=1)
    assert obs.features["moves"] == 1
    obs = w.step(InputFrame(), frames=5)  # idle frames while the game blocks in event.wait()
    obs = w.step(InputFrame.make(keys=["LEFT"]), frames=1)
    assert obs.features["moves"] == 2 and not obs.done


def test_polling_loop_without_flip_still_advances(worker_for):
    w = worker_for(fixture_spec("turn_based", game_args={"mode": "poll"}))
    w.reset(seed=0)
    obs = w.step(InputFrame.make(keys=["a"]), frames=2)
    obs = w.step(InputFrame(), frames=2)
    obs = w.step(InputFrame.make(keys=["b"]), frames=2)
    assert obs.features["moves"] == 2 and not obs.done


def test_loop_at_import_time_runs(worker_for):
    w = worker_for(fixture_spec("at_import", function=None))
    w.reset(seed=0)
    for _ in range(3):
        w.step(InputFrame.make(keys=["RIGHT"]), frames=1)
        obs = w.step(InputFrame(), frames=1)
    assert obs.features["x"] == 3


def test_sound_loading_and_playing_work_headless(worker_for):
    w = worker_for(fixture_spec("sound"))
    obs = w.reset(seed=0)
    assert not obs.done, obs.exit
    obs = w.step(InputFrame.make(keys=["SPACE"]), frames=2)
    assert obs.features == {"played": 1.0, "mixer": 1.0}


@pytest.mark.parametrize("game", bundled_games())
def test_bundled_games_are_deterministic(worker_for, game):
    """Same seed + same inputs = identical frames; another seed may differ."""
    spec = resolve(game)
    rng = np.random.default_rng(7)
    from playtester.actions.blind import COMMON_KEYS

    keys = ["LEFT", "RIGHT", "UP", "DOWN", "SPACE", "f", "r", "w", "a", "s", "d"]
    assert set(keys) <= set(COMMON_KEYS)
    plan = [InputFrame.make(keys=list(rng.choice(keys, size=rng.integers(0, 3))),
                            mouse=(int(rng.integers(0, 600)), int(rng.integers(0, 350))),
                            buttons=[1] if rng.random() < 0.2 else [])
            for _ in range(60)]

    def play(seed):
        w = worker_for(spec, capture="full")
        frames = [w.reset(seed=seed).frame]
        for f in plan:
            obs = w.step(f, frames=4)
            frames.append(obs.frame)
            if obs.done:
                break
        w.close()
        return frames

    a, b = play(3), play(3)
    assert len(a) == len(b) and len(a) > 5
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert len({x.tobytes() for x in a}) > 3  # the game really moved


def test_capture_downscaled_and_off(worker_for):
    w = worker_for(fixture_spec("echo_inputs"), capture=(16, 12))
    assert w.reset(seed=0).frame.shape == (12, 16, 3)
    w2 = worker_for(fixture_spec("echo_inputs"), capture=None)
    obs = w2.reset(seed=0)
    assert obs.frame is None and obs.info["screen_size"] == (160, 120)


def test_init_sequence_runs_before_the_first_observation(worker_for):
    spec = fixture_spec("echo_inputs", init=[{"keys": ["SPACE"], "frames": 2}, {"frames": 3}])
    w = worker_for(spec)
    obs = w.reset(seed=0)
    assert obs.frame_no == 6 and obs.features["space"] == 0  # pressed during init, released after
    assert w.steps == 0


def test_done_when_and_done_events_end_the_episode(worker_for):
    w = worker_for(fixture_spec("echo_inputs", done_when="frame >= 7"))
    w.reset(seed=0)
    obs = w.step(InputFrame(), frames=10)
    assert obs.done and obs.features["frame"] == 7 and obs.info["done_reason"] == "done_when frame >= 7"
    assert "exit" not in obs.info  # the game did not end by itself
    w2 = worker_for(fixture_spec("echo_inputs", done_events=["key"]))
    w2.reset(seed=0)
    assert not w2.step(InputFrame(), frames=3).done
    obs = w2.step(InputFrame.make(keys=["a"]), frames=5)
    assert obs.done and obs.info["done_reason"] == "event key" and obs.frame_no == 5


def test_reward_is_the_increase_of_the_reward_feature(worker_for):
    w = worker_for(fixture_spec("echo_inputs", reward_feature="frame"))
    w.reset(seed=0)
    assert w.step(InputFrame(), frames=4).reward == 4.0


def test_a_child_process_the_game_waits_for_does_not_move_its_clock(worker_for):
    """``subprocess.run(..., timeout=)`` polls its child with sleeps against the real clock; the game's virtual
    ``time.sleep`` used to advance the game's clock at each of them without waiting, so the game started at a
    time set by how long the child took (space-invaders-pygame, through pygame's SysFont and ``fc-list``: 16 ms
    or 99 s by turns, and different play). Those sleeps are real now: the game starts at 0 ms every time."""
    w = worker_for(fixture_spec("waits_for_child"))
    starts = set()
    for seed in range(3):
        obs = w.reset(seed=seed)
        assert not obs.done, obs.exit
        starts.add(obs.features["start_ms"])
    assert starts == {0}, starts


def test_os_entropy_is_drawn_from_the_episode_seed(worker_for):
    """A game that seeds itself from ``secrets`` / ``os.urandom`` (zombie-escape) plays the same for the same seed:
    the OS entropy of an episode comes from its seed (``seeded_entropy``, on by default); off, it is the OS's."""
    w = worker_for(fixture_spec("entropy"))
    first, again, other = (w.reset(seed=s).features for s in (7, 7, 8))
    assert first == again and set(first) == {"secrets", "urandom", "uuid4", "system"}
    assert all(first[k] != other[k] for k in first)  # another seed, other bytes
    off = worker_for(fixture_spec("entropy", seeded_entropy=False))
    a, b = (off.reset(seed=7).features for _ in range(2))
    assert all(a[k] != b[k] for k in a)  # the OS's own (equal by chance: about 2**-31 each)


def test_each_episode_starts_with_a_home_of_its_own(worker_for, tmp_path, monkeypatch):
    """What one episode saves under HOME (a high score: planetoids-game) is not there for the next, so the same
    seed plays the same on any machine (``fresh_home``, on by default); ``home`` is a folder each episode's HOME
    starts as a copy of; off, the episodes share the worker's HOME."""
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    (tmp_path / "user").mkdir()
    w = worker_for(fixture_spec("home_save"))
    assert [w.reset(seed=1).features["runs_before"] for _ in range(3)] == [0, 0, 0]
    assert not (tmp_path / "user" / ".home_save_runs").exists()  # the user's HOME is untouched
    template = tmp_path / "saved"
    (template / ".config").mkdir(parents=True)
    (template / ".config" / "home_save.txt").write_text("5")
    (template / ".home_save_runs").write_text("41")
    t = worker_for(fixture_spec("home_save", home=str(template)))
    assert [(o.features["runs_before"], o.features["level"]) for o in (t.reset(seed=1), t.reset(seed=1))] == \
        [(41, 5), (41, 5)]
    assert (template / ".home_save_runs").read_text() == "41"  # the template is copied, never written
    shared = worker_for(fixture_spec("home_save", fresh_home=False))
    assert [shared.reset(seed=1).features["runs_before"] for _ in range(2)] == [0, 1]
    with pytest.raises(GameSpecError, match="home: the folder .*nowhere does not exist"):
        worker_for(fixture_spec("home_save", home=str(tmp_path / "nowhere"))).reset(seed=1)


def test_a_gymnasium_environment_drawing_from_pythons_randomness_plays_the_same_for_the_same_seed(worker_for,
                                                                                                 monkeypatch):
    """The Gymnasium runner seeds Python's randomness as the pygame runner does (`seed_python`): ``random``, numpy's
    global generator and OS entropy come from the episode's seed, not only the environment's own ``np_random``."""
    from conftest import GAMES

    monkeypatch.setenv("PYTHONPATH", str(GAMES))
    w = worker_for(resolve("gym:gym_draws:Draws-v0"))
    first, again, other = (w.reset(seed=s).frame[0, :3].tolist() for s in (7, 7, 8))
    assert first == again and first != [[0, 0, 0]] * 3
    assert all(a != b for a, b in zip(first, other, strict=True))  # another seed, other draws
