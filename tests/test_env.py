"""GameEnv and VectorGameEnv: the Gymnasium contract, masks, truncation, parallel workers."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import fixture_spec
from gymnasium.utils.env_checker import check_env

from playtester.env import GameEnv, VectorGameEnv


@pytest.mark.parametrize("obs_type", ["pixels", "features"])
def test_check_env_on_bundled_game(obs_type):
    env = GameEnv("blockmaze", obs_type=obs_type, obs_size=(64, 48), render_mode="rgb_array",
                  max_episode_steps=30)
    try:
        check_env(env, skip_render_check=False)
        obs, info = env.reset(seed=1)
        assert env.observation_space.contains(obs)
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (env.action_space.n,)
        if obs_type == "features":
            assert env.feature_names == ["x", "y", "steps", "score"]  # as the game config lists them
    finally:
        env.close()


def test_check_env_on_gymnasium_minigrid():
    pytest.importorskip("minigrid")
    env = GameEnv("gym:MiniGrid-Empty-5x5-v0", obs_size=(32, 32), render_mode="rgb_array")
    try:
        check_env(env)
        assert env.space.kind == "native" and env.space.names[:3] == ["left", "right", "forward"]
        obs, info = env.reset(seed=0)
        _, _, term, _, info = env.step(2)  # forward
        assert info["features"]["x"] == 2.0 and not term
    finally:
        env.close()


def test_truncation_at_episode_step_limit():
    env = GameEnv("blockmaze", max_episode_steps=3, capture=None)
    try:
        env.reset(seed=0)
        flags = [env.step(0)[3] for _ in range(3)]
        assert flags == [False, False, True]
    finally:
        env.close()


def test_manual_space_masks_follow_probe_features(tmp_path):
    spec = tmp_path / "actions.yaml"
    spec.write_text("version: 1\nactions:\n  - name: noop\n  - name: left when moved\n    keys: [LEFT]\n"
                    "    when: 'frame > 3'\n")
    env = GameEnv(fixture_spec("echo_inputs"), actions=f"manual:{spec}", capture=None)
    try:
        _, info = env.reset(seed=0)
        assert info["action_mask"].tolist() == [1, 0]
        _, _, _, _, info = env.step(0)
        assert info["action_mask"].tolist() == [1, 1]
    finally:
        env.close()


def test_vector_env_steps_workers_in_parallel_and_autoresets():
    venv = VectorGameEnv(fixture_spec("raise_at", game_args={"n": 25}), num_envs=2, capture=(16, 16),
                         obs_size=(16, 16))
    try:
        obs, infos = venv.reset(seed=10)
        assert obs.shape == (2, 16, 16, 3)
        ended, finals = 0, []
        for _ in range(4):
            obs, rew, term, trunc, infos = venv.step(np.zeros(2, dtype=np.int64))
            ended += int(term.sum())
            if "final_info" in infos:
                finals.append(infos["final_info"]["exit"])
        assert ended == 2  # both crashed at frame 25 (step 3) and were reset in the same step
        assert len(finals) == 1 and all(e.kind == "exception" for e in finals[0])
        assert (infos["frame_no"] == 11).all()  # the fresh episodes went on
        pids = {env.worker._proc.pid for env in venv.envs}
        assert len(pids) == 2
    finally:
        venv.close()
