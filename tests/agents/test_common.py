"""Shared explorer pieces: Pareto sorting and crowding distance against DEAP's, masked selection."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from playtester.agents import make_agent
from playtester.agents.common import (
    crowding_distance,
    dominates,
    masked_argmax,
    masked_max,
    non_dominated_sort,
    parse_agent,
    select_population,
)
from playtester.errors import UsageError

deap = pytest.importorskip("deap")
from deap import base, creator, tools  # noqa: E402

if not hasattr(creator, "FitnessMax2"):
    creator.create("FitnessMax2", base.Fitness, weights=(1.0, 1.0))
    creator.create("Ind2", list, fitness=creator.FitnessMax2)


def _deap_pop(scores):
    pop = []
    for i, s in enumerate(scores):
        ind = creator.Ind2([i])
        ind.fitness.values = tuple(s)
        pop.append(ind)
    return pop


@pytest.mark.parametrize("seed", range(6))
def test_sorting_crowding_and_selection_match_deap(seed):
    rng = np.random.default_rng(seed)
    n = 25
    # integer scores make ties and duplicates, the cases where implementations part ways
    scores = [tuple(float(v) for v in rng.integers(0, 6, size=2)) for _ in range(n)]
    pop = _deap_pop(scores)
    ours = non_dominated_sort(scores)
    theirs = tools.sortNondominated(pop, len(pop))
    assert [sorted(ind[0] for ind in f) for f in theirs] == [sorted(f) for f in ours]
    for front, dfront in zip(ours, theirs, strict=True):
        tools.emo.assignCrowdingDist(dfront)
        dist = crowding_distance(scores, front)
        for ind in dfront:
            assert dist[ind[0]] == pytest.approx(ind.fitness.crowding_dist)
    rank = {i: r for r, f in enumerate(ours) for i in f}
    dist = {i: d for f in ours for i, d in crowding_distance(scores, f).items()}
    for k in (5, 12, 20):
        chosen = select_population(scores, k)
        picked = [ind[0] for ind in tools.selNSGA2(_deap_pop(scores), k)]
        assert len(chosen) == k == len(set(chosen))
        # the same selection up to ties: the same fronts and crowding distances are taken
        assert sorted((rank[i], -dist[i]) for i in chosen) == sorted((rank[i], -dist[i]) for i in picked)


def test_dominance_is_strict():
    assert dominates((2, 1), (1, 1)) and not dominates((1, 1), (1, 1)) and not dominates((2, 0), (1, 1))


def test_masked_argmax_and_target_max_skip_invalid_actions():
    q = np.array([[5.0, 1.0, 2.0], [0.0, 9.0, -1.0]])
    mask = np.array([[0, 1, 1], [1, 0, 0]], dtype=np.int8)
    assert masked_argmax(q, mask).tolist() == [2, 0]
    tq = torch.tensor(q)
    assert masked_argmax(tq, torch.tensor(mask)).tolist() == [2, 0]
    assert masked_max(tq, torch.tensor(mask)).tolist() == [2.0, 0.0]
    assert masked_max(tq, torch.tensor([[0, 0, 0], [1, 1, 1]])).tolist() == [0.0, 9.0]  # no valid action: 0


def test_agent_names_take_hyper_parameter_overrides():
    assert parse_agent("wuji:population=8, runs=1") == ("wuji", {"population": "8", "runs": "1"})
    agent = make_agent("goexplore:explore_steps=7,return_mode=replay", 5)
    assert agent.cfg.explore_steps == 7 and agent.cfg.return_mode == "replay"
    with pytest.raises(UsageError, match="no option 'nope'"):
        make_agent("goexplore:nope=1", 5)
    with pytest.raises(UsageError, match="unknown agent"):
        make_agent("smart", 5)


def test_running_norm_one_sample_at_a_time_matches_batches():
    """Agents update the feature statistics one step at a time (a fast path): the same mean and variance
    as a batch update, and the same as numpy's over all the samples."""
    import numpy as np

    from playtester.agents.common import RunningNorm

    xs = np.random.default_rng(0).normal(3.0, 2.0, size=(400, 5))
    one, batch = RunningNorm(5), RunningNorm(5)
    for x in xs:
        one.update(x)
    batch.update(xs[:150])
    batch.update(xs[150:])
    np.testing.assert_allclose(one.mean, batch.mean, atol=1e-9)
    np.testing.assert_allclose(one.var, batch.var, rtol=1e-6)
    np.testing.assert_allclose(one.mean, xs.mean(0), atol=1e-5)
    np.testing.assert_allclose(one.var, xs.var(0), rtol=1e-3)
