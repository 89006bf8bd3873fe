"""Pieces the learning explorers share: the explorer protocol, hyper-parameter overrides, masked action
selection, the Nature-CNN, a replay buffer that keeps action masks, and Pareto sorting.

Every agent is an `Explorer`: ``act(obs, info, slot) -> int`` plus hooks that the campaign loop
(`playtester.campaign.CampaignLoop`, behind both ``run`` and ``explore``) calls on every agent; the
base's hooks do nothing, so the random agent overrides ``act`` only:

- ``shared = True``: one instance serves every worker (``slot`` says which); False: one per worker.
- ``setup(info: CampaignInfo)``: once, before the first step (game features, reward feature, ...).
- ``demonstrate(demos: list[Demo])``: once, after ``setup`` and before the first step of a fresh campaign
  started with demonstrations (``explore --demos``): what each step of each demonstration showed and the
  action it took. Only agents with ``learns_from_demos = True`` get demonstrations.
- ``attach(slot, ctl: EpisodeControl)``: the handle through which an agent controls its slot's episodes
  (snapshot, restore, replay a trace from a seed).
- ``episode_start(slot) -> bool``: at each new episode; True when the agent started it itself through
  ``ctl`` (Go-Explore's return to a cell), False for an ordinary reset with the campaign's next seed.
- ``observe(slot, t: Transition) -> bool``: after every step; True asks the campaign to end the episode.
- ``plan(obs, info, slot) -> Plan | None``: acting ahead. Called right after ``act`` chose a step's action;
  a plan (`playtester.drive.worker.Plan`: ``choose(mask) -> int``, small and picklable) lets the campaign
  play up to its ``ahead`` steps in one call to the worker (one Ray actor call for all of them): the worker
  chooses each later action with ``plan.choose`` on the action mask of the step before it. The plan must
  choose exactly what ``act`` would there, from the mask alone: the loop still calls ``act`` for every
  step of the batch, afterwards, with that step's observation, and stops with an error when the two
  differ. The base answers None (one step at a time); the random agent plans.
- ``episode_end(slot, outcome)``: when an episode ends (outcome as stored: finished, done, crash, ...).
- ``state_bytes() / load_state(blob)``: the agent's state for ``explore --resume`` (stored in the
  campaign row's ``agent_state``, every ``save_every_s`` seconds and at the end).
- ``stats() -> dict``: numbers for logs and benchmarks.

Only numpy is imported here; torch is imported by the functions that need it.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from playtester.errors import NoValidActionError, UsageError
from playtester.files import UnsafeDataFile, pack_tree, unpack_tree


# ------------------------------------------------------------------------------------- the protocol
@dataclass
class CampaignInfo:
    """What a campaign tells its explorer before the first step."""

    n_actions: int
    workers: int = 1
    features: list[str] = field(default_factory=list)  # the game's probe features, in order (may be empty)
    reward_feature: str | None = None
    position: str = "auto"  # where the player's position comes from (the position map's source)
    position_cell: float = 1.0
    cell_features: list[str] = field(default_factory=list)  # features that join Go-Explore's cell keys
    abstraction: str = "features"  # the campaign's state abstraction (keys in Transition.key)
    snapshots: bool = False  # the workers can park snapshots of episodes (pygame games)
    max_episode_steps: int = 1000
    detector: str | None = None  # model bundle of the game's object detector (the texture oracle's), if any


@dataclass
class Transition:
    """One step as the explorer sees it afterwards."""

    obs: Any  # the observation the action was chosen on
    action: int
    reward: float
    next_obs: Any
    terminated: bool
    truncated: bool
    info: dict[str, Any]  # the next step's info (action_mask, features, ...)
    key: str | None  # the campaign's abstract state key of next_obs (encoded), None when it has none
    new: bool  # next_obs is a state the campaign had never seen
    game_obs: Any = None  # the driver's Observation (entities, events, frame) of next_obs


@dataclass
class DemoStep:
    """One step of a demonstration: what the agent would have seen, and what the demonstrator did."""

    obs: Any  # the observation the action was chosen on (the campaign's observation type)
    info: dict[str, Any]  # its info (action_mask, features, ...)
    action: int
    reward: float  # the reward the action earned


@dataclass
class Demo:
    """A demonstration played through the campaign's driver: its source and its steps."""

    source: str  # the trace file it came from
    steps: list[DemoStep]


class EpisodeControl(Protocol):
    """A slot's episodes, as the campaign lets an explorer steer them (see campaign.explore)."""

    slot: int
    seed: int  # the running episode's seed
    actions: list[int]  # actions played in the running episode, from its start
    snapshots: bool  # snapshots are supported by this worker

    def snapshot(self) -> Any | None:
        """Park the running episode (worker process fork + oracle state); None when not possible."""
        ...

    def restore(self, snap: Any) -> bool:
        """Make ``snap`` the running episode; False when the snapshot is gone."""
        ...

    def replay(self, seed: int, actions: Sequence[int], on_done: Callable[[bool], None] | None = None,
               start: Any | None = None) -> bool:
        """Start an episode with ``seed`` and play ``actions`` (the oracles watch, nothing is re-reported);
        False when the episode ended before the last action. With ``start``, a snapshot of this slot whose
        trace is a prefix of ``seed``, ``actions``: restore it and play only the rest (from the seed
        when it is gone or not a prefix). With ``on_done``, return True at once: the
        campaign's loop plays the actions beside the other slots' steps (a long replay no longer holds
        every worker up) and calls ``on_done(reached)`` at the end; a replay that fails starts the slot
        afresh (``episode_start`` again)."""
        ...

    def drop(self, snap: Any) -> None:
        """Free a snapshot."""
        ...

    def timings(self) -> dict[str, float]:
        """Seconds and counts spent returning: ``restore_s``, ``restores``, ``replay_s``, ``replays``, ..."""
        ...


# ----------------------------------------------------------------------------------- configuration
def parse_agent(text: str) -> tuple[str, dict[str, str]]:
    """``"wuji:population=8,runs=1"`` -> ``("wuji", {"population": "8", "runs": "1"})``."""
    name, _, rest = text.partition(":")
    overrides: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise UsageError(f"agent option {part!r} in {text!r}: write NAME=VALUE (e.g. wuji:population=8)")
        overrides[key.strip()] = value.strip()
    return name.strip(), overrides


def make_config(cls: type, overrides: dict[str, Any] | None) -> Any:
    """A hyper-parameter dataclass with string overrides converted to each field's type."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, raw in (overrides or {}).items():
        if key not in fields:
            raise UsageError(f"{cls.__name__} has no option {key!r}; options: {', '.join(sorted(fields))}")
        default = getattr(cls(), key)
        try:
            if not isinstance(raw, str):
                values[key] = raw
            elif isinstance(default, bool):
                values[key] = raw.lower() in ("1", "true", "yes", "on")
            elif isinstance(default, int):
                values[key] = int(float(raw))
            elif isinstance(default, float):
                values[key] = float(raw)
            elif isinstance(default, tuple):
                values[key] = tuple(v for v in raw.split("+") if v)
            else:
                values[key] = raw
        except ValueError:
            raise UsageError(f"{cls.__name__}.{key}: {raw!r} is not a {type(default).__name__}") from None
    return cls(**values)


class Explorer:
    """Base of the learning explorers: one shared instance, no-op hooks, pickled state."""

    name = "explorer"
    shared = True
    capture: tuple[int, int] | None = None  # frame size the explorer wants (None: the campaign's)
    learns_from_demos = False  # True: it takes demonstrations (see `demonstrate`)
    torch_state = False  # True: its state holds tensors (kept as arrays by `files.pack_tree`, read back as tensors)

    def __init__(self, n_actions: int, seed: int = 0, workers: int = 1) -> None:
        self.n_actions = n_actions
        self.seed = seed
        self.workers = workers
        self.rng = np.random.default_rng(seed)
        self.info = CampaignInfo(n_actions, workers)
        self.ctl: dict[int, EpisodeControl] = {}

    def setup(self, info: CampaignInfo) -> None:
        self.info = info

    def reads_detections(self, detector: str | None) -> bool:
        """Whether this agent acts on the object detections of the model bundle ``detector`` (the texture oracle's,
        ``[oracles] texture_model``): then the oracle, checking where the game runs, detects every frame once and
        the step's info carries them (``info["detections"]``: (frame width, height) and the (box, kind, score) of
        each object, in that frame's pixels), and the agent need not run the detector again."""
        return False

    def attach(self, slot: int, ctl: EpisodeControl) -> None:
        self.ctl[slot] = ctl

    def demonstrate(self, demos: list[Demo]) -> None:
        """Learn from demonstrations before the first step (agents with ``learns_from_demos``)."""

    def act(self, obs: Any, info: dict[str, Any], slot: int = 0) -> int:
        return random_valid(self.rng, info.get("action_mask"), self.n_actions)

    def plan(self, obs: Any, info: dict[str, Any], slot: int = 0) -> Any | None:
        """How to choose the next steps' actions without seeing them (a `Plan`), or None: one step at a time."""
        return None

    def episode_start(self, slot: int) -> bool:
        return False

    def observe(self, slot: int, t: Transition) -> bool:
        return False

    def episode_end(self, slot: int, outcome: str) -> None:
        pass

    def state(self) -> dict[str, Any]:
        """Plain data (numpy arrays, torch state dicts) for resume."""
        return {}

    def set_state(self, state: dict[str, Any]) -> None:
        pass

    def state_bytes(self) -> bytes:
        """`state` with the agent's name and random state, for the store: a numpy ``.npz`` of its arrays and
        tensors with a JSON skeleton (`files.pack_tree`), a format that cannot run code when read back."""
        return pack_tree({"agent": self.name, "state": self.state(), "rng": self.rng.bit_generator.state})

    def load_state(self, blob: bytes) -> None:
        """The state `state_bytes` wrote. A state of the old format (a pickle or ``torch.save``: formats that run
        code when read) is refused with a `UsageError`: resume the campaign from the start, or run it again."""
        try:
            data = unpack_tree(blob, "the stored agent state")
        except UnsafeDataFile as e:
            raise UsageError(f"{e}. Agent states stored by playtester before this format cannot be resumed: start "
                             "the campaign again (without --resume)") from None
        if not isinstance(data, dict):
            raise UsageError("the stored agent state is not an agent's state")
        if data.get("agent") != self.name:
            raise UsageError(f"the stored agent state is {data.get('agent')!r}'s, not {self.name!r}'s")
        self.rng.bit_generator.state = data["rng"]
        self.set_state(data["state"])

    def stats(self) -> dict[str, Any]:
        return {}


# ------------------------------------------------------------------------------- action selection
@dataclass
class RandomPlan:
    """A `playtester.drive.worker.Plan` for the random agent: ``random_valid`` on each step's mask with a copy of
    the agent's generator, so it draws what the agent's ``act`` draws next (the worker's copy advances; the
    agent's own generator advances as the loop calls ``act`` on each step of the batch)."""

    rng: np.random.Generator
    n: int

    @classmethod
    def of(cls, rng: np.random.Generator, n: int) -> RandomPlan:
        copy = np.random.Generator(type(rng.bit_generator)())
        copy.bit_generator.state = rng.bit_generator.state
        return cls(copy, n)

    def choose(self, mask: Any) -> int:
        return random_valid(self.rng, mask, self.n)


def random_valid(rng: np.random.Generator, mask: Any, n: int) -> int:
    """A uniformly random valid action."""
    if mask is None:
        return int(rng.integers(n))
    valid = np.flatnonzero(mask)
    if valid.size == 0:
        raise NoValidActionError("the action mask has no valid action in this state")
    return int(valid[rng.integers(valid.size)])  # the same draw as rng.choice(valid), 7x cheaper


def masked_argmax(values: Any, mask: Any) -> Any:
    """Argmax over the last axis with invalid actions (mask 0) excluded (Huang and Ontanon 2022): their
    values are replaced by the lowest float, so one is chosen only when no action is valid. Works on
    numpy arrays and torch tensors; ``mask`` None means every action is valid."""
    if mask is None:
        return values.argmax(-1)
    if isinstance(values, np.ndarray):
        masked = np.where(np.asarray(mask) > 0, values, np.finfo(values.dtype).min)
        return masked.argmax(-1)
    import torch

    m = mask if isinstance(mask, torch.Tensor) else torch.as_tensor(np.asarray(mask), device=values.device)
    return torch.where(m > 0, values, torch.finfo(values.dtype).min).argmax(-1)


def masked_max(values: Any, mask: Any) -> Any:
    """Max over the last axis of valid actions (torch); rows without a valid action give 0."""
    import torch

    if mask is None:
        return values.max(-1).values
    low = torch.finfo(values.dtype).min
    out = torch.where(mask > 0, values, low).max(-1).values
    return torch.where(mask.sum(-1) > 0, out, torch.zeros_like(out))


# --------------------------------------------------------------------------------- observations
def gray(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """An RGB frame as a (height, width) uint8 grayscale image, resized nearest-neighbour."""
    from playtester.drive.observation import resize_nearest

    if frame.shape[1] != size[0] or frame.shape[0] != size[1]:
        frame = resize_nearest(frame, size)
    return (frame[..., 0] * 0.299 + frame[..., 1] * 0.587 + frame[..., 2] * 0.114).astype(np.uint8)


class RunningNorm:
    """Running mean and variance (Welford, batched) to standardize feature vectors, clipped to +-clip."""

    def __init__(self, n: int, clip: float = 5.0, count: float = 1e-4) -> None:
        """``count``: the weight of the prior (mean 0, variance 1); 0 trusts the first samples alone."""
        self.mean = np.zeros(n)
        self.var = np.ones(n)
        self.count = count
        self.clip = clip

    def update(self, x: np.ndarray) -> None:
        if x.ndim == 1:  # one sample (an agent's step): the same update without the batch reductions
            self.count += 1.0
            delta = x - self.mean
            self.mean = self.mean + delta / self.count
            self.var = self.var + (delta * (x - self.mean) - self.var) / self.count
            return
        x = np.atleast_2d(x)
        b_mean, b_var, b_n = x.mean(0), x.var(0), x.shape[0]
        delta = b_mean - self.mean
        total = self.count + b_n
        self.mean = self.mean + delta * b_n / total
        self.var = (self.var * self.count + b_var * b_n + delta**2 * self.count * b_n / total) / total
        self.count = total

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.clip((x - self.mean) / np.sqrt(self.var + 1e-8), -self.clip, self.clip).astype(np.float32)


# --------------------------------------------------------------------------------- the Nature-CNN
def nature_cnn(n_actions: int, in_channels: int = 4) -> Any:
    """The DQN network of Mnih et al. 2015 (Nature): 84x84 inputs, conv 32x8x8/4, 64x4x4/2, 64x3x3/1,
    a 512-unit layer, one value per action; inputs are uint8 scaled to [0, 1]."""
    import torch
    from torch import nn

    class NatureCNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = nn.Sequential(
                nn.Conv2d(in_channels, 32, 8, stride=4), nn.ReLU(),
                nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
                nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(),
                nn.Flatten(), nn.Linear(3136, 512), nn.ReLU(),
                nn.Linear(512, n_actions))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.net(x.float() / 255.0)

    return NatureCNN()


# --------------------------------------------------------------------------------- replay buffer
class ReplayBuffer:
    """A ring buffer of transitions that also stores the action mask of the next state, so the target's
    max over next actions skips invalid ones. Observations are uint8; the arrays are allocated with
    ``np.zeros`` (pages are only used as they are written), so a large capacity costs what is filled."""

    def __init__(self, capacity: int, obs_shape: tuple[int, ...], n_actions: int, seed: int = 0) -> None:
        self.capacity = capacity
        self.obs = np.zeros((capacity, *obs_shape), dtype=np.uint8)
        self.next_obs = np.zeros((capacity, *obs_shape), dtype=np.uint8)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.next_masks = np.ones((capacity, n_actions), dtype=np.int8)
        self.pos = 0
        self.full = False
        self.rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return self.capacity if self.full else self.pos

    def add(self, obs: np.ndarray, action: int, reward: float, next_obs: np.ndarray, done: bool,
            next_mask: np.ndarray | None) -> None:
        i = self.pos
        self.obs[i], self.next_obs[i] = obs, next_obs
        self.actions[i], self.rewards[i], self.dones[i] = action, reward, float(done)
        self.next_masks[i] = 1 if next_mask is None else next_mask
        self.pos = (i + 1) % self.capacity
        self.full = self.full or self.pos == 0

    def sample(self, n: int) -> dict[str, np.ndarray]:
        idx = self.rng.integers(0, len(self), size=n)
        return {"obs": self.obs[idx], "actions": self.actions[idx], "rewards": self.rewards[idx],
                "next_obs": self.next_obs[idx], "dones": self.dones[idx], "next_masks": self.next_masks[idx]}


# ---------------------------------------------------------------------------------- Pareto sorting
def dominates(a: Sequence[float], b: Sequence[float]) -> bool:
    """``a`` Pareto-dominates ``b`` (all objectives maximized): no worse in each, better in one."""
    return all(x >= y for x, y in zip(a, b, strict=True)) and any(x > y for x, y in zip(a, b, strict=True))


def non_dominated_sort(scores: Sequence[Sequence[float]]) -> list[list[int]]:
    """Indices of ``scores`` in Pareto fronts, best first (Wuji's Algorithm ND-Sort; Deb et al.'s fast
    non-dominated sort). Objectives are maximized. Equal points share a front."""
    n = len(scores)
    dominated_by: list[list[int]] = [[] for _ in range(n)]
    count = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            if dominates(scores[i], scores[j]):
                dominated_by[i].append(j)
                count[j] += 1
            elif dominates(scores[j], scores[i]):
                dominated_by[j].append(i)
                count[i] += 1
    fronts: list[list[int]] = []
    current = [i for i in range(n) if count[i] == 0]
    while current:
        fronts.append(current)
        nxt = []
        for i in current:
            for j in dominated_by[i]:
                count[j] -= 1
                if count[j] == 0:
                    nxt.append(j)
        current = sorted(nxt)
    return fronts


def crowding_distance(scores: Sequence[Sequence[float]], front: Sequence[int]) -> dict[int, float]:
    """Crowding distance of each index of ``front`` (Wuji's Algorithm CD-Select, NSGA-II's measure):
    the extremes of each objective get infinity (Wuji: "we will always select them"); the others the
    sum over objectives of the gap between their two neighbours, normalized by the objective's range
    and the number of objectives (as DEAP does)."""
    dist = {i: 0.0 for i in front}
    if not front:
        return dist
    crowd = [(tuple(scores[i]), i) for i in front]
    nobj = len(crowd[0][0])
    for k in range(nobj):
        crowd.sort(key=lambda e: e[0][k])
        dist[crowd[0][1]] = math.inf
        dist[crowd[-1][1]] = math.inf
        if crowd[-1][0][k] == crowd[0][0][k]:
            continue
        norm = nobj * float(crowd[-1][0][k] - crowd[0][0][k])
        for prev, cur, nxt in zip(crowd[:-2], crowd[1:-1], crowd[2:], strict=True):
            dist[cur[1]] += (nxt[0][k] - prev[0][k]) / norm
    return dist


def select_population(scores: Sequence[Sequence[float]], n: int) -> list[int]:
    """Wuji's Algorithm Pop-Select (NSGA-II's selection): whole fronts in order while they fit, then the
    least crowded points of the front that does not."""
    chosen: list[int] = []
    for front in non_dominated_sort(scores):
        if len(chosen) + len(front) <= n:
            chosen += front
            if len(chosen) == n:
                break
            continue
        dist = crowding_distance(scores, front)
        chosen += sorted(front, key=lambda i: dist[i], reverse=True)[: n - len(chosen)]
        break
    return chosen


def binary_tournament(scores: Sequence[Sequence[float]], rng: np.random.Generator) -> int:
    """Wuji's selection for crossover: two random candidates; the dominating one, else either at random."""
    a, b = (int(i) for i in rng.choice(len(scores), size=2, replace=len(scores) < 2))
    if dominates(scores[a], scores[b]):
        return a
    if dominates(scores[b], scores[a]):
        return b
    return a if rng.random() < 0.5 else b


# ------------------------------------------------------------------------------------ torch helpers
def torch_bytes(obj: Any) -> bytes:
    import torch

    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def torch_load(blob: bytes) -> Any:
    """What `torch_bytes` wrote, read with ``weights_only=True`` (tensors and plain containers: no code runs)."""
    import torch

    return torch.load(io.BytesIO(blob), weights_only=True)


def setup_torch(seed: int) -> None:
    """One thread per process (2 cores are shared with the game workers), seeded."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
