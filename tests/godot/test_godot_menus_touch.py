"""Menus, buttons and touch on Godot games (issue 56): the add-on reports the visible, enabled BaseButtons; the
declared space clicks them ("click:K", masked while there is no K-th) and taps the screen ("tap:K") where the
project reads screen touches; a config's ``init`` clicks with the mouse. Real Godot processes (godot3-server)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from playtester.drive.godot import pointer_sets
from playtester.drive.spec import resolve
from playtester.env import default_space

HERE = Path(__file__).resolve().parent
MENU = HERE / "menuproj"
TOUCH = HERE / "touchproj"


def test_the_title_button_is_clicked_by_a_random_agent(godot, worker_for):
    spec = resolve(f"godot:{MENU}")
    space = default_space(spec)
    names = space.names
    assert names[:4] == ["none", "ui_left", "ui_right", "ui_left+ui_right"]
    assert [n for n in names if n.startswith("click:")] == ["click:0", "click:1", "click:2", "click:3"]
    w = worker_for(spec, space=space, capture=None)
    obs = w.reset(0)
    assert "player_x" not in obs.features
    # Start alone: Options is disabled and Secret hidden
    assert [b[4] for b in obs.info["buttons"]] == ["Start"]
    assert obs.info["buttons"][0][:4] == [440, 300, 144, 40]
    valid = [names[i] for i in np.flatnonzero(obs.action_mask)]
    assert "click:0" in valid and "click:1" not in valid
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs = w.act(int(rng.choice(np.flatnonzero(obs.action_mask))))
        if "player_x" in obs.features:
            break
    assert "player_x" in obs.features, "a random agent never left the title"
    assert "buttons" not in obs.info and obs.action_mask[names.index("click:0")] == 0  # the level has no buttons
    x0 = obs.features["player_x"]
    for _ in range(3):
        obs = w.act(names.index("ui_right"))
    assert obs.features["player_x"] > x0  # the level plays


def test_the_configs_init_clicks_start(godot, worker_for):
    spec = resolve(f"godot:{MENU}").with_config(init=[{"mouse": (512, 320), "buttons": [1], "frames": 1},
                                                      {"mouse": (512, 320), "frames": 1}])
    w = worker_for(spec, space=default_space(spec), capture=None)
    obs = w.reset(0)
    assert "player_x" in obs.features  # the init's click (press, release) on Start: the episode starts in the level


def test_a_tap_is_a_screen_touch_the_game_sees(godot, worker_for):
    assert pointer_sets(TOUCH) == [(f"tap:{k}",) for k in range(9)]  # no InputMap action, no button: taps alone
    spec = resolve(f"godot:{TOUCH}")
    space = default_space(spec)
    assert space.names[:2] == ["none", "tap:0"]
    w = worker_for(spec, space=space, capture=None)
    obs = w.reset(0)
    assert obs.features["main_touches"] == 0
    obs = w.act(space.names.index("tap:4"))  # the centre of the 1024x600 screen, pressed and released
    assert (obs.features["main_touches"], obs.features["main_releases"]) == (1, 1)
    assert (obs.features["main_touch_x"], obs.features["main_touch_y"]) == (512, 300)
    obs = w.act(space.names.index("tap:0"))
    assert obs.features["main_touches"] == 2 and obs.features["main_touch_x"] < 200
    obs = w.act(space.names.index("none"))
    assert obs.features["main_touches"] == 2
