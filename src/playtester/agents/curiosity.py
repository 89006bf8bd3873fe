"""Count-based curiosity DQN with invalid-action masking: the learning explorer of the action-space paper
(Volokh and Halfond, paper 000, Section 4.1), written in CleanRL's single-file style (dqn_atari.py).

- Reward: curiosity only, inverse to the visit count of the abstract state reached,
  ``r = beta / n(s')**count_power`` (Tang et al. 2017; Gordillo et al. 2021). The count is over the
  campaign's state abstraction, the one state coverage is measured with, as in the paper (which used
  its scene abstraction for both); playtester's ``auto`` picks the game's probe features, else the
  scene, else pixel cells.
- Network and pipeline: DQN (Mnih et al. 2015) with the Nature-CNN, 84x84 grayscale frames, 4 stacked.
- Invalid-action masking (Huang and Ontanon 2022): masked actions get the lowest value when acting, and
  the target's max over next actions only looks at the actions valid in the next state (the replay
  buffer stores each next state's mask).
- One shared network and replay buffer serve every worker; frames are stacked per worker.

The paper gives no DQN hyper-parameters beyond Mnih et al.'s network and pipeline; the defaults below
are CleanRL's dqn_atari values, with the exploration schedule and replay start scaled to the paper's
runs (150,000 steps per game).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from playtester.agents.common import (
    Explorer,
    ReplayBuffer,
    Transition,
    gray,
    make_config,
    masked_argmax,
    masked_max,
    nature_cnn,
    random_valid,
    setup_torch,
)


@dataclass
class CuriosityConfig:
    """Hyper-parameters of the curiosity DQN."""

    learning_rate: float = 1e-4
    """Adam learning rate (CleanRL dqn_atari: 1e-4)."""
    buffer_size: int = 100_000
    """Replay memory in transitions (CleanRL: 1e6 for 10M steps; 100k fits the paper's 150k-step runs)."""
    gamma: float = 0.99
    """Discount (Mnih et al.: 0.99)."""
    target_network_frequency: int = 1000
    """Steps between copies of the online network into the target (CleanRL: 1000)."""
    batch_size: int = 32
    """Transitions per gradient step (Mnih et al.: 32)."""
    start_e: float = 1.0
    """Initial epsilon of epsilon-greedy (Mnih et al.: 1.0)."""
    end_e: float = 0.01
    """Final epsilon (CleanRL: 0.01)."""
    exploration_steps: int = 15_000
    """Steps over which epsilon decays (CleanRL: 10% of the run; 10% of the paper's 150k steps)."""
    learning_starts: int = 5_000
    """Steps before learning starts (CleanRL: 80k of 10M; scaled to the paper's runs)."""
    train_frequency: int = 4
    """Steps between gradient steps (Mnih et al.: 4)."""
    frame_stack: int = 4
    """Frames stacked as the network's input (Mnih et al.: 4)."""
    frame_size: int = 84
    """Side of the grayscale input frames (Mnih et al.: 84)."""
    beta: float = 1.0
    """Scale of the curiosity reward."""
    count_power: float = 1.0
    """Exponent of the visit count: 1 is the paper's "inverse to the number of visits", 0.5 Tang et al.'s."""
    extrinsic_weight: float = 0.0
    """Weight of the game's own reward (the reward feature) added to the curiosity reward (paper: 0)."""
    max_grad_norm: float = 10.0
    """Gradient clipping (CleanRL: none; kept as a guard, rarely active)."""


class CuriosityAgent(Explorer):
    """Epsilon-greedy masked DQN on a count-based curiosity reward."""

    name = "curiosity"
    torch_state = True
    capture = (84, 84)

    def __init__(self, n_actions: int, seed: int = 0, workers: int = 1, **overrides: Any) -> None:
        super().__init__(n_actions, seed, workers)
        self.cfg: CuriosityConfig = make_config(CuriosityConfig, overrides)
        setup_torch(seed)
        c = self.cfg
        self.q = nature_cnn(n_actions, c.frame_stack)
        self.target = nature_cnn(n_actions, c.frame_stack)
        self.target.load_state_dict(self.q.state_dict())
        self.opt = torch.optim.Adam(self.q.parameters(), lr=c.learning_rate)
        self.buffer = ReplayBuffer(c.buffer_size, (c.frame_stack, c.frame_size, c.frame_size), n_actions, seed)
        self.counts: dict[str, int] = {}
        self.stacks: dict[int, np.ndarray] = {}  # slot -> stacked frames of its current observation
        self.steps = 0
        self.updates = 0
        self.loss = 0.0
        self.train_s = 0.0
        self.intrinsic_sum = 0.0

    # ---- observations
    def _frame(self, obs: Any) -> np.ndarray:
        size = self.cfg.frame_size
        if isinstance(obs, np.ndarray) and obs.ndim == 3:
            return gray(obs, (size, size))
        return np.zeros((size, size), dtype=np.uint8)

    def _stack(self, slot: int, obs: Any) -> np.ndarray:
        st = self.stacks.get(slot)
        if st is None:  # a new episode: the first frame repeated (CleanRL's FrameStack on reset)
            st = np.repeat(self._frame(obs)[None], self.cfg.frame_stack, axis=0)
            self.stacks[slot] = st
        return st

    def epsilon(self) -> float:
        c = self.cfg
        frac = min(1.0, self.steps / max(1, c.exploration_steps))
        return c.start_e + frac * (c.end_e - c.start_e)

    # ---- acting
    def act(self, obs: Any, info: dict[str, Any], slot: int = 0) -> int:
        mask = info.get("action_mask")
        stack = self._stack(slot, obs)
        if self.rng.random() < self.epsilon():
            return random_valid(self.rng, mask, self.n_actions)
        if mask is not None and not np.any(mask):
            return random_valid(self.rng, mask, self.n_actions)  # raises NoValidActionError
        with torch.no_grad():
            values = self.q(torch.as_tensor(stack[None]))[0]
        return int(masked_argmax(values, None if mask is None else torch.as_tensor(np.asarray(mask))))

    def intrinsic(self, key: str | None) -> float:
        """The curiosity reward of reaching ``key`` (its count includes this visit)."""
        if key is None:
            return 0.0
        n = self.counts.get(key, 0) + 1
        self.counts[key] = n
        return self.cfg.beta / n**self.cfg.count_power

    def observe(self, slot: int, t: Transition) -> bool:
        c = self.cfg
        stack = self._stack(slot, t.obs)
        nxt = np.concatenate([stack[1:], self._frame(t.next_obs)[None]])
        r = self.intrinsic(t.key)
        self.intrinsic_sum += r
        r += c.extrinsic_weight * float(t.reward)
        self.buffer.add(stack, t.action, r, nxt, t.terminated, t.info.get("action_mask"))
        self.stacks[slot] = nxt
        self.steps += 1
        if self.steps > c.learning_starts and self.steps % c.train_frequency == 0:
            self.train_step()
        if self.steps % c.target_network_frequency == 0:
            self.target.load_state_dict(self.q.state_dict())
        return False

    def episode_end(self, slot: int, outcome: str) -> None:
        self.stacks.pop(slot, None)

    def train_step(self) -> None:
        t0 = time.perf_counter()
        b = self.buffer.sample(self.cfg.batch_size)
        obs, next_obs = torch.as_tensor(b["obs"]), torch.as_tensor(b["next_obs"])
        with torch.no_grad():
            next_max = masked_max(self.target(next_obs), torch.as_tensor(b["next_masks"]))
            target = torch.as_tensor(b["rewards"]) + self.cfg.gamma * next_max * (1 - torch.as_tensor(b["dones"]))
        q = self.q(obs).gather(1, torch.as_tensor(b["actions"])[:, None]).squeeze(1)
        loss = F.mse_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.q.parameters(), self.cfg.max_grad_norm)
        self.opt.step()
        self.updates += 1
        self.loss = float(loss.detach())
        self.train_s += time.perf_counter() - t0

    # ---- resume and stats
    def state(self) -> dict[str, Any]:
        # the replay buffer is not kept (up to GBs); after a resume it refills while learning goes on
        return {"q": self.q.state_dict(), "target": self.target.state_dict(), "opt": self.opt.state_dict(),
                "counts": dict(self.counts), "steps": self.steps, "updates": self.updates, "config": asdict(self.cfg)}

    def set_state(self, state: dict[str, Any]) -> None:
        self.q.load_state_dict(state["q"])
        self.target.load_state_dict(state["target"])
        self.opt.load_state_dict(state["opt"])
        self.counts = dict(state["counts"])
        self.steps, self.updates = state["steps"], state["updates"]

    def stats(self) -> dict[str, Any]:
        return {"steps": self.steps, "updates": self.updates, "epsilon": round(self.epsilon(), 3),
                "loss": self.loss, "buffer": len(self.buffer), "counted_states": len(self.counts),
                "train_ms_per_update": 1000 * self.train_s / max(1, self.updates)}
