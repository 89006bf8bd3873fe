"""The add-on leaves the game as it was (issue 56): presses are just-pressed in ``_process`` and in
``_physics_process``, the add-on is not one of the root's children, and a reset leaves no node the game added to
the root behind. Real Godot processes (godot3-server), no mocks."""

from __future__ import annotations

from pathlib import Path

from playtester.drive.spec import resolve
from playtester.env import default_space

HERE = Path(__file__).resolve().parent


def test_a_press_is_just_pressed_in_process_and_in_physics_process(godot, worker_for):
    spec = resolve(f"godot:{HERE / 'justproj'}")
    space = default_space(spec)
    jump, none = space.names.index("jump"), space.names.index("none")
    w = worker_for(spec, space=space, capture=None)
    obs = w.reset(0)
    assert obs.features["idle_presses"] == 0 and obs.features["physics_presses"] == 0
    for i in range(1, 4):
        obs = w.act(jump)  # pressed on the step's first frame, held for its 3 frames
        assert (obs.features["idle_presses"], obs.features["physics_presses"]) == (i, i)
        obs = w.act(jump)  # still held: no new press
        assert (obs.features["idle_presses"], obs.features["physics_presses"]) == (i, i)
        w.act(none)
    obs = w.reset(1)  # a reset releases it: the next press counts again
    obs = w.act(jump)
    assert (obs.features["idle_presses"], obs.features["physics_presses"]) == (1, 1)


def test_the_main_scene_is_the_roots_only_child(godot, worker_for):
    spec = resolve(f"godot:{HERE / 'rootproj'}")
    w = worker_for(spec, space=default_space(spec), capture=None)
    for seed in (0, 1):
        obs = w.reset(seed)
        for _ in range(5):
            obs = w.act(0)
            logs = [r.message for r in obs.logs]
            assert not any("root's children" in m for m in logs), logs
        assert obs.features["main_checks"] >= 16 and obs.features["main_wrong"] == 0


def test_a_reset_frees_what_the_game_added_to_the_root(godot, worker_for):
    spec = resolve(f"godot:{HERE / 'splitproj'}")
    w = worker_for(spec, space=default_space(spec), capture=None)
    for seed in (0, 1, 2):
        w.reset(seed)
        obs = w.act(0)
        assert obs.features["main_viewports"] == 1  # the split view of this episode alone, as at a fresh start
