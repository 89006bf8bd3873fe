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
