"""Virtual input devices: events agree with polled state, for keys, mouse and joysticks."""

from __future__ import annotations

from conftest import fixture_spec

from playtester.drive.inputs import InputFrame


def names(obs, kind):
    return [e.data for e in obs.events if e.name == kind]


def test_key_down_up_events_agree_with_get_pressed(worker_for):
    w = worker_for(fixture_spec("echo_inputs"))
    obs = w.reset(seed=0)
    assert obs.features["space"] == 0
    obs = w.step(InputFrame.make(keys=["SPACE"]), frames=3)
    keys = names(obs, "key")
    assert keys == [{"type": "KeyDown", "key": "space", "mod": 0}]  # one KEYDOWN, on the first frame only
    assert obs.features["space"] == 1
    # held on: no new events, still pressed, just_pressed only on the frame it went down
    obs = w.step(InputFrame.make(keys=["SPACE"]), frames=2)
    assert names(obs, "key") == []
    assert obs.features["space"] == 1 and obs.features["just_space"] == 0
    obs = w.step(InputFrame(), frames=1)
    assert names(obs, "key") == [{"type": "KeyUp", "key": "space", "mod": 0}]
    assert obs.features["space"] == 0 and obs.features["justup_space"] == 1


def test_just_pressed_is_true_on_the_frame_the_key_goes_down(worker_for):
    w = worker_for(fixture_spec("echo_inputs"))
    w.reset(seed=0)
    obs = w.step(InputFrame.make(keys=["SPACE"]), frames=1)
    assert obs.features["just_space"] == 1


def test_modifiers_and_text_input(worker_for):
    w = worker_for(fixture_spec("echo_inputs"))
    w.reset(seed=0)
    obs = w.step(InputFrame.make(keys=["LSHIFT", "a"]), frames=1)
    assert obs.features["shift"] == 1 and obs.features["a"] == 1
    assert {"text": "A"} in names(obs, "text")


def test_posting_events_does_not_change_polled_state(worker_for):
    # the game posts its own event at frame 3; it must arrive, and get_pressed stays untouched
    w = worker_for(fixture_spec("echo_inputs", game_args={"post_at": 3}))
    w.reset(seed=0)
    obs = w.step(InputFrame(), frames=4)
    assert names(obs, "custom") == [{"value": 42}]
    assert obs.features["space"] == 0 and obs.features["left"] == 0


def test_filtered_event_get_keeps_other_events(worker_for):
    w = worker_for(fixture_spec("echo_inputs", game_args={"filtered": True}))
    w.reset(seed=0)
    obs = w.step(InputFrame.make(keys=["LEFT"], mouse=(10, 20), buttons=[1]), frames=1)
    assert [d["key"] for d in names(obs, "key")] == ["left"]
    assert names(obs, "mouse") == [{"type": "MouseButtonDown", "button": 1, "pos": (10, 20)}]
    assert names(obs, "motion") == [{"pos": (10, 20), "rel": (10, 20)}]


def test_timers_fire_on_virtual_time(worker_for):
    w = worker_for(fixture_spec("echo_inputs", game_args={"timer_ms": 100}))
    w.reset(seed=0)
    obs = w.step(InputFrame(), frames=30)  # 30 frames at 30 fps = 1 s of virtual time
    ticks = [d["ticks"] for d in names(obs, "timer")]
    assert len(ticks) in (9, 10)
    # the k-th timer event is due at (k+1)*100 ms and is read by the game within one frame (33 ms)
    assert all(0 <= t - 100 * (k + 1) <= 34 for k, t in enumerate(ticks)), ticks


def test_mouse_position_buttons_and_motion(worker_for):
    w = worker_for(fixture_spec("echo_inputs"))
    w.reset(seed=0)
    obs = w.step(InputFrame.make(mouse=(50, 60), buttons=["right"]), frames=2)
    assert (obs.features["mx"], obs.features["my"], obs.features["b3"], obs.features["b1"]) == (50, 60, 1, 0)
    assert names(obs, "motion") == [{"pos": (50, 60), "rel": (50, 60)}]
    assert names(obs, "mouse") == [{"type": "MouseButtonDown", "button": 3, "pos": (50, 60)}]
    obs = w.step(InputFrame.make(mouse=(55, 60)), frames=1)
    assert names(obs, "motion") == [{"pos": (55, 60), "rel": (5, 0)}]
    assert names(obs, "mouse") == [{"type": "MouseButtonUp", "button": 3, "pos": (55, 60)}]
    assert obs.features["b3"] == 0
    obs = w.step(InputFrame(), frames=1)  # no position given: the mouse stays where it was
    assert (obs.features["mx"], obs.features["my"]) == (55, 60) and names(obs, "motion") == []


def test_mouse_wheel(worker_for):
    w = worker_for(fixture_spec("echo_inputs"))
    w.reset(seed=0)
    obs = w.step(InputFrame.make(wheel=(0, -1)), frames=2)
    assert names(obs, "wheel") == [{"x": 0, "y": -1}]


def test_joystick_axes_buttons_hats(worker_for):
    w = worker_for(fixture_spec("echo_inputs", joysticks=1))
    obs = w.reset(seed=0)
    assert names(obs, "joy_added") == [{"index": 0}]
    frame = InputFrame.make(axes={(0, 0): -1.0}, joy_buttons=[(0, 1)], hats={(0, 0): (1, 0)})
    obs = w.step(frame, frames=2)
    assert (obs.features["ax0"], obs.features["jb1"], obs.features["hatx"]) == (-1.0, 1, 1)
    types = [d["data"] for d in names(obs, "joy")]
    assert len(types) == 3 and "'axis', 0" in types[0] and "'value', -1.0" in types[0]
    obs = w.step(InputFrame(), frames=1)
    assert (obs.features["ax0"], obs.features["jb1"], obs.features["hatx"]) == (0.0, 0, 0)
    assert len(names(obs, "joy")) == 3  # axis back to 0, button up, hat centred


def test_input_frames_survive_pickling_compactly():
    import pickle

    from playtester.drive.inputs import InputFrame

    frames = [InputFrame(), InputFrame.make(keys=["a", "LEFT"], mouse=(3, 4), buttons=[1], wheel=(0, -1),
                                            axes={(0, 1): 0.5}, joy_buttons=[(0, 2)], hats={(0, 0): (1, 0)}, native=3)]
    for f in frames:
        back = pickle.loads(pickle.dumps(f, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == f and hash(back) == hash(f) and isinstance(back.keys, frozenset)
    assert len(pickle.dumps(frames[0], protocol=pickle.HIGHEST_PROTOCOL)) < 80  # a reference, not a field dict
