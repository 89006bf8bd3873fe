"""Wuji (Zheng et al., ASE 2019, paper 002, Section IV): evolutionary multi-objective optimization plus
deep RL, testing on the fly. Single file, CleanRL style.

The loop (Fig. 2a of the paper):

1. A population P of ``population`` policy networks with random weights.
2. Each policy is scored by playing ``runs`` episodes: its *exploration score* (the average number of
   distinct abstract states per run, the campaign's state abstraction) and its *winning score* (the
   average return, the game's reward feature).
3. Offspring P' (``offspring`` of them): parents chosen by *binary tournament* on Pareto dominance
   (Algorithm Cross-Mutate), *single-point crossover* on the flattened weights (with probability
   ``crossover_rate``), *Gaussian mutation* (noise N(0, ``mutation_sigma``) added to every weight, with
   probability ``mutation_rate``). Each offspring is scored.
4. Q: each offspring is trained with *A2C* on the winning reward, one episode per training round, until
   *early stop* (``max_train_rounds`` rounds, ``max_train_s`` seconds, or ``patience`` rounds without a
   better return); its weights are written back into a new policy, which is scored.
5. The next P: *non-dominated sorting* and *crowding distance* select ``population`` policies from
   P + P' + Q (Algorithms ND-Sort, Pop-Select, CD-Select). Each policy kept in P plays one more scoring
   run per generation, up to ``rescore_runs`` runs (ours: the paper does not say how noisy scores are
   handled; without it one lucky run holds its place for ever). Back to 3.

Testing happens on the fly: every episode any policy plays, training rounds included, is an episode of
the campaign, so it passes through the oracles and its bugs are stored with their traces. Policies take
turns on the workers: a worker starting an episode takes the next pending job (score a policy, or one
more training round of an offspring); when none is free it plays a policy of P, and that run refines the
policy's scores too.

The paper's network: three fully connected hidden layers on the game's scalar features, batch
normalization, ReLU, an output per valid action; MSE value loss, Adam; an entropy term and a floor on
each valid action's probability. Here the hidden layers use layer normalization instead of batch
normalization (actions are chosen one state at a time, and crossover mixes flattened weights, where
batch statistics have no meaning), and games without probe features get 12x12 grayscale pixels as
input. The extracted text of the paper lost most numbers; defaults marked (paper) are its, the others
are ours (SB3's A2C where it applies).
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import torch
from torch import nn

from playtester.agents.common import (
    Demo,
    Explorer,
    RunningNorm,
    Transition,
    binary_tournament,
    gray,
    make_config,
    select_population,
    setup_torch,
)
from playtester.errors import NoValidActionError


@dataclass
class WujiConfig:
    """Hyper-parameters of Wuji."""

    population: int = 30
    """Policies in P (paper: 30)."""
    offspring: int = 30
    """Policies in P' per generation (paper: 30)."""
    runs: int = 2
    """Episodes that score a policy (the paper's m)."""
    hidden: int = 128
    """Units of each of the three hidden layers (paper: three fully connected layers)."""
    crossover_rate: float = 0.9
    """Probability that two parents are crossed (single-point) rather than the first copied."""
    mutation_rate: float = 1.0
    """Probability that an offspring is mutated (Gaussian noise on every weight)."""
    mutation_sigma: float = 0.02
    """Standard deviation of the mutation noise."""
    learning_rate: float = 1e-3
    """Adam learning rate of A2C (paper: Adam)."""
    gamma: float = 0.99
    """Discount of A2C (SB3: 0.99)."""
    n_steps: int = 20
    """Steps per A2C update (SB3: 5, with one such rollout from each of its usual 4 to 16 environments per
    update; here one episode trains at a time: 5 steps made noisy gradients and 4x the updates, which run
    in the campaign's loop; on combat, 20 and a leaner forward pass raised Wuji from 271 to 325 steps/s)."""
    ent_coef: float = 0.01
    """Weight of the entropy term of the actor loss (paper: an entropy term)."""
    vf_coef: float = 0.5
    """Weight of the critic's MSE loss (SB3: 0.5)."""
    max_grad_norm: float = 0.5
    """Gradient clipping (SB3: 0.5)."""
    norm_reward: bool = True
    """A2C learns from rewards divided by the running standard deviation of the discounted return (SB3's
    VecNormalize, Gymnasium's NormalizeReward). Game scores come in tens and hundreds: unscaled, the critic
    chases returns of hundreds, every update is clipped, and the advantages carry little but the return's
    size. Scores (the winning score) always use the raw reward."""
    min_prob: float = 0.01
    """Floor on the probability of each valid action (paper: "at least" a probability for each)."""
    floor_mass: float = 0.2
    """Most probability the floors take together: each floor is at most ``floor_mass / valid actions``.
    The paper's games have a handful of actions; with the 60 to 200 valid actions of an analyzed space,
    a 0.01 floor each would leave the policy choosing less than half of the steps."""
    max_train_rounds: int = 10
    """Early stop: most training rounds (episodes) per offspring."""
    patience: int = 3
    """Early stop: rounds without a better return before training stops (paper: consecutive rounds)."""
    max_train_s: float = 300.0
    """Early stop: most seconds of training per offspring (paper: a maximum training time)."""
    pixel_size: int = 12
    """Side of the grayscale input for games without probe features."""
    demo_share: float = 0.5
    """With demonstrations (``explore --demos``; ours, after paper 001's imitation of a few demonstrations):
    the share of P0 cloned from them; the rest keeps random weights, so the first population still spans
    what the demonstrator never did."""
    bc_steps: int = 1000
    """Adam steps of behaviour cloning per cloned policy (minibatches of ``bc_batch`` demonstration steps)."""
    bc_batch: int = 256
    """Demonstration steps per behaviour-cloning minibatch."""
    rescore_runs: int = 4
    """A policy kept in P plays one more scoring run each generation until it has this many (its scores are
    running means over its runs; 0 or 1: never re-scored). Scores of one run are noisy, and selection keeps
    the luckiest: without re-scoring, a lucky run holds its place for ever and evolution stalls."""


class Policy(nn.Module):
    """Actor-critic MLP: three hidden layers (layer norm, ReLU), a logit per action and a value."""

    def __init__(self, n_in: int, n_actions: int, hidden: int) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for i in range(3):
            layers += [nn.Linear(n_in if i == 0 else hidden, hidden), nn.LayerNorm(hidden), nn.ReLU()]
        self.body = nn.Sequential(*layers)
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        return self.actor(h), self.critic(h).squeeze(-1)


def discounted(rewards: list[float], gamma: float, bootstrap: float = 0.0) -> list[float]:
    """The discounted return from each step: ``r_t + gamma * r_t+1 + ...``, then ``bootstrap``."""
    out, g = [], bootstrap
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    return out[::-1]


def masked_logits(logits: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
    """Logits with invalid actions (mask 0) set to the lowest float."""
    return logits if mask is None else torch.where(mask > 0, logits, torch.finfo(logits.dtype).min)


def action_probs(logits: torch.Tensor, mask: torch.Tensor | None, min_prob: float,
                 floor_mass: float = 1.0) -> torch.Tensor:
    """Softmax over valid actions, each valid action given at least ``min(min_prob, floor_mass / k)``
    (k valid actions in the row)."""
    p = torch.softmax(masked_logits(logits, mask), -1)
    if mask is None:
        mask = torch.ones_like(p)
    k = (mask > 0).float().sum(-1, keepdim=True).clamp(min=1)
    floor = torch.clamp(min(floor_mass, 1.0) / k, max=min_prob)
    return p * (1 - floor * k) + floor * (mask > 0).float()


class FastActor:
    """A Policy as numpy arrays, to pick one action at a time without torch's per-call overhead (the same
    functions as ``Policy.forward``'s logits and value; rebuilt after every training update)."""

    def __init__(self, net: Policy) -> None:
        def arr(t: torch.Tensor) -> np.ndarray:
            return t.detach().numpy().astype(np.float64)

        mods = list(net.body)
        self.layers = [(arr(mods[i].weight), arr(mods[i].bias), arr(mods[i + 1].weight), arr(mods[i + 1].bias),
                        float(mods[i + 1].eps)) for i in range(0, len(mods), 3)]
        self.w, self.b = arr(net.actor.weight), arr(net.actor.bias)
        self.vw, self.vb = arr(net.critic.weight)[0], float(arr(net.critic.bias)[0])

    def body(self, x: np.ndarray) -> np.ndarray:
        h = np.asarray(x, dtype=np.float64)
        for w, b, g, beta, eps in self.layers:  # layer norm in place: twice as fast as ndarray.mean/var
            h = w @ h + b
            h -= h.sum() / h.size
            h *= g / math.sqrt(h @ h / h.size + eps)
            h += beta
            np.maximum(h, 0.0, out=h)
        return h

    def logits(self, x: np.ndarray) -> np.ndarray:
        return self.w @ self.body(x) + self.b

    def value(self, x: np.ndarray) -> float:
        """The critic's value of ``x`` (A2C's bootstrap at the end of a rollout)."""
        return float(self.vw @ self.body(x) + self.vb)


def action_probs_np(logits: np.ndarray, mask: np.ndarray | None, min_prob: float,
                    floor_mass: float = 1.0) -> np.ndarray:
    """``action_probs`` for one state in numpy."""
    valid = np.ones_like(logits, dtype=bool) if mask is None else np.asarray(mask) > 0
    z = np.where(valid, logits, -np.inf)
    p = np.exp(z - z[valid].max())
    p /= p.sum()
    k = int(valid.sum())
    floor = min(min_prob, min(floor_mass, 1.0) / max(k, 1))
    return p * (1 - floor * k) + floor * valid


@dataclass
class Individual:
    """A policy of the population with its scores."""

    id: int
    weights: np.ndarray
    origin: str  # P0 | demo (P0 cloned from demonstrations) | P' | Q
    es: float = 0.0  # exploration score: mean distinct states per run
    rs: float = 0.0  # winning score: mean return per run
    runs: int = 0

    def score(self, states: int, ret: float) -> None:
        self.runs += 1
        self.es += (states - self.es) / self.runs
        self.rs += (ret - self.rs) / self.runs

    @property
    def scores(self) -> tuple[float, float]:
        return (self.es, self.rs)


@dataclass
class Job:
    """Work on one individual: score it, and for an offspring train a copy (Q) and score that."""

    ind: Individual
    train: bool = False
    evals_left: int = 0
    trained: Individual | None = None
    rounds: int = 0
    best: float = -np.inf
    stale: int = 0
    train_t0: float = 0.0
    busy: bool = False
    done: bool = False


@dataclass
class SlotRun:
    """The episode a worker is playing."""

    job: Job | None
    ind: Individual | None
    mode: str  # eval | train | train_eval | extra
    net: Policy
    opt: Any = None
    states: set[str] = field(default_factory=set)
    ret: float = 0.0
    disc: float = 0.0  # discounted return so far (for reward scaling)
    rollout: list[tuple[np.ndarray, int, float, np.ndarray | None]] = field(default_factory=list)
    x: np.ndarray | None = None
    mask: np.ndarray | None = None
    fast: FastActor | None = None  # numpy copy of net's actor; None after an update changed net


class WujiAgent(Explorer):
    """Wuji's evolutionary multi-objective search with A2C, testing on the fly."""

    name = "wuji"
    learns_from_demos = True

    def __init__(self, n_actions: int, seed: int = 0, workers: int = 1, **overrides: Any) -> None:
        super().__init__(n_actions, seed, workers)
        self.cfg: WujiConfig = make_config(WujiConfig, overrides)
        setup_torch(seed)
        self.n_in: int | None = None
        self.norm: RunningNorm | None = None
        self.ret_norm = RunningNorm(1, count=0.0)  # of the discounted return in training episodes
        self.template: Policy | None = None
        self.population: list[Individual] = []
        self.jobs: list[Job] = []
        self.phase = "init"  # init: scoring P0; evolve: a generation of P' and Q in progress
        self.generation = 0
        self.next_id = 0
        self.runs: dict[int, SlotRun] = {}
        self.history: list[dict[str, float]] = []  # per generation: mean and max of both scores in P
        self.episodes = 0
        self.train_updates = 0
        self.demo_stats: dict[str, float] = {}

    # ---- inputs
    def features_of(self, obs: Any, info: dict[str, Any]) -> np.ndarray:
        names = self.info.features
        if names:
            feats = info.get("features", {})
            return np.array([float(feats.get(n, 0.0)) for n in names], dtype=np.float64)
        size = self.cfg.pixel_size
        if isinstance(obs, np.ndarray) and obs.ndim == 3:
            return gray(obs, (size, size)).reshape(-1).astype(np.float64) / 255.0
        return np.asarray(obs, dtype=np.float64).reshape(-1)

    def _ensure(self, x: np.ndarray) -> None:
        if self.n_in is not None:
            return
        self.n_in = int(x.size)
        self.norm = RunningNorm(self.n_in)
        self.template = Policy(self.n_in, self.n_actions, self.cfg.hidden)
        for _ in range(self.cfg.population):
            self.population.append(self._new(self._flat(Policy(self.n_in, self.n_actions, self.cfg.hidden)), "P0"))
        self.jobs = [Job(ind, evals_left=self.cfg.runs) for ind in self.population]

    def _new(self, weights: np.ndarray, origin: str) -> Individual:
        self.next_id += 1
        return Individual(self.next_id, weights.astype(np.float32), origin)

    @staticmethod
    def _flat(net: nn.Module) -> np.ndarray:
        return nn.utils.parameters_to_vector(net.parameters()).detach().numpy().copy()

    def _net(self, weights: np.ndarray) -> Policy:
        assert self.template is not None
        net = copy.deepcopy(self.template)  # a copy is ~50x cheaper than a new module's random init
        nn.utils.vector_to_parameters(torch.as_tensor(weights), net.parameters())
        return net

    # ---- demonstrations (ours: Wuji starts from random weights)
    def demonstrate(self, demos: list[Demo]) -> None:
        """Clone ``demo_share`` of P0 from the demonstrations: each cloned policy starts from its own random
        weights and learns, on a bootstrap sample of the demonstrations, the demonstrator's actions (the
        likelihood under the same masked, floored probabilities it acts with) and the discounted return of
        the scaled rewards (its critic, so that A2C's first advantages do not undo the cloning). The input
        and return statistics start from the demonstrations too."""
        episodes = [d.steps for d in demos if d.steps]
        if not episodes:
            return
        c = self.cfg
        xs = [[self.features_of(s.obs, s.info) for s in ep] for ep in episodes]
        self._ensure(xs[0][0])
        assert self.norm is not None
        if self.info.features:
            for ep in xs:
                for x in ep:
                    self.norm.update(x)
        xn = [np.stack([self.norm(x) if self.info.features else x for x in ep]).astype(np.float32) for ep in xs]
        targets = []
        for ep in episodes:  # the scaled rewards' discounted returns, as A2C's critic will learn them
            disc, scaled = 0.0, []
            for s in ep:
                disc = disc * c.gamma + s.reward
                scaled.append(s.reward / self._return_scale(disc) if c.norm_reward else s.reward)
            targets.append(np.array(discounted(scaled, c.gamma), dtype=np.float32))
        acts = [np.array([s.action for s in ep]) for ep in episodes]
        masks = [np.stack([np.asarray(s.info["action_mask"], dtype=np.float32) if s.info.get("action_mask")
                           is not None else np.ones(self.n_actions, dtype=np.float32) for s in ep]) for ep in episodes]
        n_clone = min(len(self.population), max(1, round(c.demo_share * len(self.population))))
        accuracy = []
        for ind in self.population[:n_clone]:
            pick = self.rng.integers(len(episodes), size=len(episodes)) if len(episodes) > 1 else [0]
            X = torch.as_tensor(np.concatenate([xn[i] for i in pick]))
            A = torch.as_tensor(np.concatenate([acts[i] for i in pick]), dtype=torch.long)
            M = torch.as_tensor(np.concatenate([masks[i] for i in pick]))
            G = torch.as_tensor(np.concatenate([targets[i] for i in pick]))
            net = self._net(ind.weights)
            opt = torch.optim.Adam(net.parameters(), lr=c.learning_rate)
            for _ in range(c.bc_steps):
                idx = torch.as_tensor(self.rng.integers(len(X), size=min(c.bc_batch, len(X))))
                logits, values = net(X[idx])
                probs = action_probs(logits, M[idx], c.min_prob, c.floor_mass)
                nll = -torch.log(probs.gather(1, A[idx][:, None]).squeeze(1) + 1e-8).mean()
                loss = nll + c.vf_coef * ((G[idx] - values) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                opt.step()
            with torch.no_grad():
                logits, _ = net(X)
                accuracy.append(float((masked_logits(logits, M).argmax(-1) == A).float().mean()))
            ind.weights = self._flat(net).astype(np.float32)
            ind.origin = "demo"
        self.demo_stats = {"demos": len(episodes), "demo_steps": sum(map(len, episodes)), "cloned": n_clone,
                           "bc_accuracy": float(np.mean(accuracy))}

    # ---- evolution (Algorithms Cross-Mutate, Pop-Select)
    def crossover(self, f: np.ndarray, m: np.ndarray) -> np.ndarray:
        """Single-point crossover (SPX) of two flattened weight vectors."""
        point = int(self.rng.integers(1, f.size))
        return np.concatenate([f[:point], m[point:]])

    def mutate(self, w: np.ndarray) -> np.ndarray:
        """Additive Gaussian noise on every weight."""
        return (w + self.rng.normal(0.0, self.cfg.mutation_sigma, size=w.shape)).astype(np.float32)

    def make_offspring(self) -> list[Individual]:
        scores = [p.scores for p in self.population]
        kids = []
        for _ in range(self.cfg.offspring):
            f = self.population[binary_tournament(scores, self.rng)].weights
            m = self.population[binary_tournament(scores, self.rng)].weights
            w = self.crossover(f, m) if self.rng.random() < self.cfg.crossover_rate else f.copy()
            if self.rng.random() < self.cfg.mutation_rate:
                w = self.mutate(w)
            kids.append(self._new(w, "P'"))
        return kids

    def _advance(self) -> None:
        """All jobs of the phase are done: select the next population and start a generation."""
        if self.jobs and not all(j.done for j in self.jobs):
            return
        if self.phase == "evolve":
            # P' and Q are the offspring jobs' (a re-scoring job's policy is already in P: once in the pool)
            pool = self.population + [j.ind for j in self.jobs if j.train] + [j.trained for j in self.jobs if j.trained]
            keep = select_population([p.scores for p in pool], self.cfg.population)
            self.population = [pool[i] for i in keep]
            self.generation += 1
        es = [p.es for p in self.population]
        rs = [p.rs for p in self.population]
        self.history.append({"generation": self.generation, "es_mean": float(np.mean(es)), "es_max": float(np.max(es)),
                             "rs_mean": float(np.mean(rs)), "rs_max": float(np.max(rs))})
        self.phase = "evolve"
        self.jobs = [Job(p, evals_left=1) for p in self.population if p.runs < self.cfg.rescore_runs]  # re-score P
        self.jobs += [Job(kid, train=True, evals_left=self.cfg.runs) for kid in self.make_offspring()]

    # ---- episodes
    def episode_start(self, slot: int) -> bool:
        self.runs.pop(slot, None)  # set up lazily at the first act (the input size is known there)
        return False

    def _begin(self, slot: int) -> SlotRun:
        job = next((j for j in self.jobs if not j.busy and not j.done), None)
        if job is None:  # nothing free: test on with a policy of P (the run refines its scores)
            ind = self.population[int(self.rng.integers(len(self.population)))]
            return SlotRun(None, ind, "extra", self._net(ind.weights))
        job.busy = True
        if job.evals_left > 0:
            return SlotRun(job, job.ind, "eval", self._net(job.ind.weights))
        if job.trained is None:  # the first training round: Q starts as a copy of the offspring
            job.trained = self._new(job.ind.weights.copy(), "Q")
            job.train_t0 = time.perf_counter()
        if job.rounds < 0:  # training stopped: score Q
            return SlotRun(job, job.trained, "train_eval", self._net(job.trained.weights))
        net = self._net(job.trained.weights)
        # fused Adam: one kernel for all parameters (a quarter of the step time of the per-tensor loop on CPU)
        opt = torch.optim.Adam(net.parameters(), lr=self.cfg.learning_rate, fused=True)
        return SlotRun(job, job.trained, "train", net, opt)

    def act(self, obs: Any, info: dict[str, Any], slot: int = 0) -> int:
        x = self.features_of(obs, info)
        self._ensure(x)
        run = self.runs.get(slot)
        if run is None:
            run = self.runs[slot] = self._begin(slot)
        assert self.norm is not None
        if self.info.features:
            self.norm.update(x)
            x = self.norm(x)
        mask = info.get("action_mask")
        if mask is not None and not np.any(mask):
            raise NoValidActionError("the action mask has no valid action in this state")
        if run.fast is None:
            run.fast = FastActor(run.net)
        p = action_probs_np(run.fast.logits(x), mask, self.cfg.min_prob, self.cfg.floor_mass)
        run.x, run.mask = x.astype(np.float32), None if mask is None else np.asarray(mask)
        cdf = np.cumsum(p)  # inverse-CDF sampling: Generator.choice validates p on every call
        return int(min(np.searchsorted(cdf, self.rng.random() * cdf[-1], side="right"), self.n_actions - 1))

    def observe(self, slot: int, t: Transition) -> bool:
        run = self.runs.get(slot)
        if run is None or run.x is None:
            return False
        if t.key is not None:
            run.states.add(t.key)
        run.ret += float(t.reward)
        if run.mode == "train":
            reward = float(t.reward)
            if self.cfg.norm_reward:
                run.disc = run.disc * self.cfg.gamma + reward
                reward /= self._return_scale(run.disc)
            run.rollout.append((run.x, int(t.action), reward, run.mask))
            done = t.terminated or t.truncated
            if len(run.rollout) >= self.cfg.n_steps or done:
                bootstrap = 0.0
                if not t.terminated:
                    nx = self.features_of(t.next_obs, t.info)
                    if self.info.features and self.norm is not None:
                        nx = self.norm(nx)
                    if run.fast is None:
                        run.fast = FastActor(run.net)
                    bootstrap = run.fast.value(nx)
                self._a2c_update(run, bootstrap)
        return False

    def _return_scale(self, disc: float) -> float:
        """Add a discounted return to the running statistics; their standard deviation (the return itself
        while there is no spread yet; at least 1e-4)."""
        self.ret_norm.update(np.array([disc]))
        var = float(self.ret_norm.var[0])
        return max(math.sqrt(var) if var > 0 else abs(disc), 1e-4)

    def _a2c_update(self, run: SlotRun, bootstrap: float) -> None:
        c = self.cfg
        xs = torch.as_tensor(np.stack([r[0] for r in run.rollout]))
        acts = torch.as_tensor([r[1] for r in run.rollout], dtype=torch.long)
        masks = None if run.rollout[0][3] is None else torch.as_tensor(np.stack([r[3] for r in run.rollout]))
        ret = torch.as_tensor(discounted([r[2] for r in run.rollout], c.gamma, bootstrap), dtype=torch.float32)
        logits, values = run.net(xs)
        probs = action_probs(logits, masks, c.min_prob, c.floor_mass)
        logp = torch.log(probs.gather(1, acts[:, None]).squeeze(1) + 1e-8)
        entropy = -(probs * torch.log(probs + 1e-8)).sum(-1).mean()
        adv = ret - values.detach()
        loss = -(adv * logp).mean() + c.vf_coef * ((ret - values) ** 2).mean() - c.ent_coef * entropy
        run.opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(run.net.parameters(), c.max_grad_norm)
        run.opt.step()
        run.fast = None
        run.rollout.clear()
        self.train_updates += 1

    def episode_end(self, slot: int, outcome: str) -> None:
        run = self.runs.pop(slot, None)
        self.episodes += 1
        if run is None:
            return
        if run.mode == "extra" and run.ind is not None:  # an unasked run of a policy of P refines its scores
            run.ind.score(len(run.states), run.ret)
        if run.job is None:
            return
        job = run.job
        job.busy = False
        if run.mode == "eval":
            job.ind.score(len(run.states), run.ret)
            job.evals_left -= 1
            if job.evals_left <= 0 and not job.train:
                job.done = True
        elif run.mode == "train":
            assert job.trained is not None
            if run.rollout:
                self._a2c_update(run, 0.0)
            job.trained.weights = self._flat(run.net).astype(np.float32)  # weights written back
            job.rounds += 1
            if run.ret > job.best + 1e-9:
                job.best, job.stale = run.ret, 0
            else:
                job.stale += 1
            c = self.cfg
            if job.rounds >= c.max_train_rounds or job.stale >= c.patience or \
                    time.perf_counter() - job.train_t0 > c.max_train_s:
                job.rounds = -1  # early stop: next, score Q
                job.evals_left = c.runs
        elif run.mode == "train_eval":
            assert job.trained is not None
            job.trained.score(len(run.states), run.ret)
            job.evals_left -= 1
            if job.evals_left <= 0:
                job.done = True
        self._advance()

    # ---- resume and stats
    def state(self) -> dict[str, Any]:
        def ind(p: Individual) -> tuple[Any, ...]:
            return (p.id, p.weights, p.origin, p.es, p.rs, p.runs)

        return {"n_in": self.n_in, "population": [ind(p) for p in self.population], "phase": self.phase,
                "generation": self.generation, "next_id": self.next_id, "history": self.history,
                "norm": None if self.norm is None else (self.norm.mean, self.norm.var, self.norm.count),
                "ret_norm": (self.ret_norm.mean, self.ret_norm.var, self.ret_norm.count),
                "jobs": [(ind(j.ind), j.train, j.evals_left, None if j.trained is None else ind(j.trained), j.rounds,
                          j.best, j.stale, j.done) for j in self.jobs],
                "episodes": self.episodes, "config": asdict(self.cfg), "demo_stats": self.demo_stats}

    def set_state(self, state: dict[str, Any]) -> None:
        if state["n_in"] is None:
            return
        self.n_in = state["n_in"]
        self.template = Policy(self.n_in, self.n_actions, self.cfg.hidden)
        self.norm = RunningNorm(self.n_in)
        self.norm.mean, self.norm.var, self.norm.count = state["norm"]
        if "ret_norm" in state:  # none in states saved before reward scaling
            self.ret_norm.mean, self.ret_norm.var, self.ret_norm.count = state["ret_norm"]
        self.population = [Individual(*p) for p in state["population"]]
        self.phase, self.generation, self.next_id = state["phase"], state["generation"], state["next_id"]
        self.history = state["history"]
        self.episodes = state["episodes"]
        self.demo_stats = state.get("demo_stats", {})
        self.jobs = []
        members = {p.id: p for p in self.population}  # a re-scoring job scores the policy of P itself
        for ind, train, left, trained, rounds, best, stale, done in state["jobs"]:
            self.jobs.append(Job(members.get(ind[0]) or Individual(*ind), train, left,
                                 None if trained is None else Individual(*trained),
                                 rounds, best, stale, time.perf_counter(), False, done))

    def stats(self) -> dict[str, Any]:
        return {"generation": self.generation, "phase": self.phase, "episodes": self.episodes,
                "train_updates": self.train_updates, "history": self.history[-3:],
                "jobs_done": sum(j.done for j in self.jobs), "jobs": len(self.jobs), **self.demo_stats}
