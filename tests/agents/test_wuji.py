"""Wuji: the population improves both objectives on a toy problem; operators do what the paper says."""

from __future__ import annotations

import numpy as np
from toy import Line, drive

from playtester.agents.wuji import WujiAgent


def test_population_improves_exploration_and_winning_scores_on_a_toy_problem():
    agent = WujiAgent(3, seed=1, population=6, offspring=6, runs=1, hidden=32, max_train_rounds=4, patience=2,
                      learning_rate=3e-3)
    drive(agent, Line(), 20 * 260, ["x"])
    h = agent.history
    assert agent.generation >= 4, h
    first, last = h[0], h[-1]
    assert last["es_mean"] > first["es_mean"] + 2 and last["rs_mean"] > first["rs_mean"] + 2, h
    assert last["rs_max"] >= first["rs_max"] and last["es_max"] >= first["es_max"]


def test_crossover_is_single_point_and_mutation_adds_noise():
    agent = WujiAgent(3, seed=0)
    f, m = np.zeros(50, np.float32), np.ones(50, np.float32)
    child = agent.crossover(f, m)
    point = int(np.argmax(child))
    assert 0 < point < 50 and (child[:point] == 0).all() and (child[point:] == 1).all()
    noisy = agent.mutate(f)
    assert noisy.shape == f.shape and 0 < np.abs(noisy).mean() < 0.1 and (noisy != 0).all()


def test_state_round_trips_for_resume():
    agent = WujiAgent(3, seed=2, population=4, offspring=4, runs=1, hidden=16, max_train_rounds=2)
    drive(agent, Line(), 400, ["x"])
    again = WujiAgent(3, seed=2, population=4, offspring=4, runs=1, hidden=16, max_train_rounds=2)
    again.load_state(agent.state_bytes())
    assert again.generation == agent.generation and again.history == agent.history
    assert [p.id for p in again.population] == [p.id for p in agent.population]
    assert all((a.weights == b.weights).all() for a, b in zip(again.population, agent.population, strict=True))
    episodes = again.episodes
    drive(again, Line(), 100, ["x"])  # and it plays on from there
    assert again.episodes > episodes


def test_the_numpy_actor_matches_the_torch_policy():
    import numpy as np
    import torch

    from playtester.agents.wuji import FastActor, Policy, action_probs, action_probs_np

    torch.manual_seed(0)
    net = Policy(9, 6, 32)
    fast = FastActor(net)
    rng = np.random.default_rng(0)
    for _ in range(20):
        x = rng.normal(size=9)
        mask = rng.integers(0, 2, size=6)
        mask[rng.integers(6)] = 1
        with torch.no_grad():
            logits, _ = net(torch.as_tensor(x, dtype=torch.float32)[None])
            want = action_probs(logits, torch.as_tensor(mask)[None], 0.01)[0].numpy()
        np.testing.assert_allclose(fast.logits(x), logits[0].numpy(), rtol=1e-4, atol=1e-5)
        got = action_probs_np(fast.logits(x), mask, 0.01)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
        assert got[mask == 0].sum() == 0 and abs(got.sum() - 1) < 1e-9
