"""A reset plays the episode's first frame, which may take what start-up may (start_timeout_s), not one step's
time (issue 56: godot-runner timed out on the first reset of a project with a ProceduralSky, 17 s under software GL);
a step that long is still a hang."""

from __future__ import annotations

import time
from pathlib import Path

from playtester.drive.spec import resolve
from playtester.env import default_space

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "godot"


def test_a_slow_scene_set_up_at_reset_is_not_a_hang(godot, worker_for):
    spec = resolve(f"godot:{FIXTURES / 'slowfirstproj'}")
    assert spec.config.step_timeout_s == 2
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    for seed in (0, 1):  # the first episode, then a reset of the kept engine (a scene reload: _ready again)
        t0 = time.monotonic()
        obs = w.reset(seed)
        assert time.monotonic() - t0 > 2.5  # the set-up did take longer than a step may
        assert obs.info.get("exit") is None, obs.info.get("exit")
        x = obs.entities["main"].pos[0]
        for _ in range(3):
            obs = w.act(space.names.index("right"))
        assert obs.info.get("exit") is None and obs.entities["main"].pos[0] > x
