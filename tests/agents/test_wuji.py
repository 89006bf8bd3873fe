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
    assert again.ret_norm.count == agent.ret_norm.count > 0 and (again.ret_norm.var == agent.ret_norm.var).all()
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
        with torch.no_grad():
            value = float(net(torch.as_tensor(x, dtype=torch.float32)[None])[1][0])
        assert abs(fast.value(x) - value) < 1e-4
        got = action_probs_np(fast.logits(x), mask, 0.01)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
        assert got[mask == 0].sum() == 0 and abs(got.sum() - 1) < 1e-9


def test_action_floors_take_at_most_floor_mass_together():
    """The paper's floor keeps every valid action possible; with a hundred valid actions a 0.01 floor each
    would leave the policy choosing 0 steps in 1. ``floor_mass`` caps what the floors take together."""
    import numpy as np
    import torch

    from playtester.agents.wuji import action_probs, action_probs_np

    logits = np.zeros(150)
    logits[7] = 50.0  # the policy is sure of action 7
    mask = np.ones(150)
    mask[100:] = 0  # 100 valid actions
    old = action_probs_np(logits, mask, 0.01)  # no cap: the floors take everything
    assert old[7] < 0.02
    p = action_probs_np(logits, mask, 0.01, floor_mass=0.2)
    assert abs(p[7] - (0.8 + 0.002)) < 1e-9 and p[:100].min() >= 0.002 - 1e-12 and p[100:].sum() == 0
    few = np.zeros(6)
    few[2] = 50.0
    q = action_probs_np(few, np.ones(6), 0.01, floor_mass=0.2)  # few actions: the paper's 0.01 floor
    assert abs(q.min() - 0.01) < 1e-9
    both = action_probs(torch.as_tensor(np.stack([logits, np.pad(few, (0, 144), constant_values=-1e9)]),
                                        dtype=torch.float32),
                        torch.as_tensor(np.stack([mask, np.pad(np.ones(6), (0, 144))]), dtype=torch.float32),
                        0.01, 0.2).numpy()
    np.testing.assert_allclose(both[0], p, atol=1e-6)
    np.testing.assert_allclose(both[1][:6], q, atol=1e-6)


def test_wuji_never_picks_a_masked_action_while_scoring_and_training():
    """Every action Wuji plays, in scoring and in A2C training episodes, is one the mask allows."""
    from toy import Line

    class Masked(Line):
        def info(self):
            info = super().info()
            info["action_mask"] = np.array([self.t % 2 == 0, 1, self.t % 3 == 0], dtype=np.int8)
            return info

    bad = []

    def check(obs, info, a):
        if not info["action_mask"][a]:
            bad.append((info["action_mask"].tolist(), a))

    agent = WujiAgent(3, seed=0, population=3, offspring=3, runs=1, hidden=16, max_train_rounds=2, patience=1)
    drive(agent, Masked(), 600, ["x"], on_step=check)
    assert agent.train_updates > 0 and not bad, bad[:5]


def test_a_lucky_score_is_scored_again_and_averaged():
    """Scores of one run are noisy and selection keeps the luckiest: a policy kept in P plays more scoring
    runs (re-scoring jobs, and the runs of P that fill idle workers), so its scores become means."""
    agent = WujiAgent(3, seed=3, population=4, offspring=4, runs=1, hidden=16, max_train_rounds=2, patience=1,
                      rescore_runs=4)
    drive(agent, Line(), 100, ["x"])  # P0 scored
    lucky = agent.population[0]
    lucky.es, lucky.rs, lucky.runs = 25.0, 25.0, 1  # a run no policy can repeat on Line (at most 21 and 20)
    drive(agent, Line(), 2000, ["x"])  # 100 steps were 5 whole episodes: nothing is left half-played
    assert lucky.runs >= 3, (lucky.runs, agent.generation)
    assert lucky.es < 25.0 and lucky.rs < 25.0  # the mean of its runs
    ids = [p.id for p in agent.population]
    assert len(set(ids)) == len(ids), ids  # a re-scored policy is in the selection pool once, not twice
    kept = [p for p in agent.population if p.origin == "P0"]
    assert kept and all(p.runs >= 2 for p in kept), [(p.id, p.runs) for p in kept]


def test_a2c_learns_from_rewards_scaled_by_the_return_scale():
    """Game scores come in hundreds; A2C's rewards are divided by the running std of the discounted return
    (``norm_reward``), the raw return still makes the winning score."""

    class BigLine(Line):
        def step(self, a):
            obs, r, term, trunc, info = super().step(a)
            return obs, 500.0 * r, term, trunc, info

    seen: dict[bool, list[float]] = {True: [], False: []}
    for norm in (True, False):
        agent = WujiAgent(3, seed=0, population=2, offspring=2, runs=1, hidden=16, max_train_rounds=3,
                          norm_reward=norm)
        update = agent._a2c_update

        def spy(run, bootstrap, norm=norm, update=update):
            seen[norm] += [r for _, _, r, _ in run.rollout]
            update(run, bootstrap)

        agent._a2c_update = spy
        drive(agent, BigLine(), 600, ["x"])
        assert agent.train_updates > 0
        assert max(p.rs for p in agent.population) >= 500.0  # scores in the game's units
    assert max(seen[False]) == 500.0
    assert 0 < max(seen[True]) < 10.0, max(seen[True])
