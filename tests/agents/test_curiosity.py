"""The curiosity DQN: masked actions are never chosen, it learns a 2-state task, curiosity rewards
rarely visited states."""

from __future__ import annotations

import numpy as np
import torch
from toy import TwoStates, drive

from playtester.agents.curiosity import CuriosityAgent


def test_masked_dqn_never_picks_a_masked_action_and_learns_a_two_state_task():
    env = TwoStates(seed=0)
    agent = CuriosityAgent(4, seed=0, beta=0.0, extrinsic_weight=1.0, learning_starts=48, exploration_steps=200,
                           end_e=0.05, target_network_frequency=50, train_frequency=1, batch_size=8,
                           learning_rate=5e-4, gamma=0.5, buffer_size=2000)
    chosen = []
    drive(agent, env, 300, ["s"], on_step=lambda o, i, a: chosen.append(a))
    assert 3 not in chosen and agent.updates > 200
    # greedy now: the right action in each state, although the masked one would pay 10
    agent.cfg.end_e = agent.cfg.start_e = 0.0
    for s, want in ((0, 1), (1, 2)):
        env.s = s
        agent.stacks.clear()
        assert agent.act(env.obs(), env.info(), 0) == want
        with torch.no_grad():
            q = agent.q(torch.as_tensor(agent.stacks[0][None]))[0]
        assert q[want] > q[[a for a in range(3) if a != want]].max()
    # and the buffer kept every next state's mask, so targets never bootstrap from action 3
    assert (agent.buffer.next_masks[: len(agent.buffer), 3] == 0).all()


def test_curiosity_reward_is_inverse_to_the_visit_count():
    agent = CuriosityAgent(2, seed=0)
    assert [agent.intrinsic("a") for _ in range(4)] == [1.0, 0.5, 1 / 3, 0.25]
    assert agent.intrinsic("b") == 1.0 and agent.intrinsic(None) == 0.0
    half = CuriosityAgent(2, seed=0, count_power=0.5)
    half.intrinsic("a")
    assert np.isclose(half.intrinsic("a"), 1 / np.sqrt(2))


def test_playtester_run_shows_a_pixel_agent_real_frames_at_its_size(monkeypatch):
    """`run_agent` (playtester run) captures frames at the size the agent asks for (`capture`): it used to
    capture none, and a pixel agent learned from black frames."""
    from playtester.campaign import run_agent
    from playtester.drive.spec import resolve

    seen: list[tuple[tuple[int, ...], int]] = []
    act = CuriosityAgent.act

    def recording(self, obs, info, slot=0):
        seen.append((obs.shape, int(obs.max())))
        return act(self, obs, info, slot)

    monkeypatch.setattr(CuriosityAgent, "act", recording)
    s = run_agent(resolve("blockmaze"), agent="curiosity", steps=12, actions="blind")
    assert s.steps == 12 and len(seen) == 12
    assert all(shape == (84, 84, 3) for shape, _ in seen)
    assert all(brightest > 0 for _, brightest in seen)  # the game's screen, not an empty frame
