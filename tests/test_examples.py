"""Real games no one here wrote: pygame-ce's own examples, run unmodified under the driver."""

from __future__ import annotations

import numpy as np
import pytest

from playtester.actions.blind import blind_space
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker


@pytest.mark.parametrize("game,frames", [("pygame.examples.aliens:main", 4), ("pygame.examples.chimp:main", 2)])
def test_pygame_examples_run_for_thousands_of_steps(game, frames):
    spec = resolve(game).with_config(frames_per_action=frames)
    space = blind_space(spec.config.blacklist)
    rng = np.random.default_rng(0)
    distinct, ended, steps = set(), [], 0
    with Worker(spec, space, capture=(32, 24)) as w:
        obs = w.reset(seed=0)
        assert not obs.done, obs.info.get("exit")
        while steps < 2000:
            obs = w.act(int(rng.integers(len(space))))
            steps += 1
            distinct.add(obs.frame.tobytes())
            if obs.done:
                ended.append(obs.info["exit"])
                obs = w.reset(seed=steps)
    assert len(distinct) > 200  # the game really moves and reacts
    # every episode that ended did so as the game decided (aliens: the player died); none crashed
    assert all(e.kind == "finished" for e in ended), [e.message for e in ended]
    if "aliens" in game:
        assert ended, "aliens' player should die under random play within 2000 steps"
