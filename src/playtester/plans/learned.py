"""Learned navigation: a small PPO policy that walks a grid to a target (the article's "Reinforcement
Learning Integration").

The policy observes a local grid sensor around the player (walkable tiles, tiles it visited recently, the
target when it is in view) and the direction and distance to its current target, and picks one of four
moves. It is trained here, in one file (CleanRL-style PPO, hyper-parameters in `PPOConfig`), on random
layouts (rooms, walls with doorways, lava strips, pillars) and random targets, in a fast numpy grid
world: it never sees the dungeon, never opens doors, never fights. With plan nodes and rules around it
(`LearnedNavigator` is the plan agent's ``--navigation learned``), it completes the dungeon.

Train: ``python -m playtester.plans.learned --out src/playtester/plans/nav_policy.pt`` (about 5 CPU
minutes on one thread; seeded, so reproducible). The shipped weights are ``plans/nav_policy.pt``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from playtester.plans.navigation import Decision, Navigator, NavState, Task, approach, arrived, free

SENSOR = 11  # the sensor sees SENSOR x SENSOR tiles centred on the player
MOVES = (("up", (0, -1)), ("down", (0, 1)), ("left", (-1, 0)), ("right", (1, 0)))
OBS_DIM = 3 * SENSOR * SENSOR + 3
DEFAULT_POLICY = Path(__file__).resolve().parent / "nav_policy.pt"
VISIT_MEMORY = 48  # steps a visited tile stays marked in the sensor


def observe(grid: Any, pos: tuple[int, int], target: tuple[float, float], visits: dict[tuple[int, int], int],
            now: int, sensor: int = SENSOR, memory: int = VISIT_MEMORY) -> np.ndarray:
    """The policy's observation: 3 sensor channels (walkable, recently visited, target) and the target's
    direction (unit vector) and distance (/20, capped at 1)."""
    r = sensor // 2
    h = len(grid)
    w = len(grid[0]) if h else 0
    walk = np.zeros((sensor, sensor), np.float32)
    seen = np.zeros((sensor, sensor), np.float32)
    tgt = np.zeros((sensor, sensor), np.float32)
    px, py = pos
    tx, ty = int(round(target[0])), int(round(target[1]))
    for j in range(sensor):
        y = py + j - r
        for i in range(sensor):
            x = px + i - r
            if 0 <= y < h and 0 <= x < w and grid[y][x]:
                walk[j, i] = 1.0
            t = visits.get((x, y))
            if t is not None and now - t < memory:
                seen[j, i] = 1.0 - (now - t) / memory
            if (x, y) == (tx, ty):
                tgt[j, i] = 1.0
    dx, dy = target[0] - px, target[1] - py
    d = math.hypot(dx, dy)
    direction = [dx / d, dy / d] if d > 1e-6 else [0.0, 0.0]
    return np.concatenate([walk.ravel(), seen.ravel(), tgt.ravel(),
                           np.array([*direction, min(d, 20.0) / 20.0], np.float32)])


# -------------------------------------------------------------------------------------- training world
def random_layout(rng: np.random.Generator, w: int = 20, h: int = 15) -> np.ndarray:
    """A random dungeon-like layout: walled border, 0-3 walls with 1-2 doorways each, lava strips,
    pillars. True = walkable."""
    g = np.ones((h, w), bool)
    g[0, :] = g[-1, :] = g[:, 0] = g[:, -1] = False
    for _ in range(int(rng.integers(0, 4))):
        if rng.random() < 0.5:
            x = int(rng.integers(3, w - 3))
            g[1:-1, x] = False
            for _ in range(int(rng.integers(1, 3))):
                g[int(rng.integers(1, h - 1)), x] = True
        else:
            y = int(rng.integers(3, h - 3))
            g[y, 1:-1] = False
            for _ in range(int(rng.integers(1, 3))):
                g[y, int(rng.integers(1, w - 1))] = True
    for _ in range(int(rng.integers(0, 3))):  # lava strips / rubble: short blocked runs
        x, y = int(rng.integers(1, w - 1)), int(rng.integers(1, h - 1))
        n = int(rng.integers(2, 5))
        if rng.random() < 0.5:
            g[y:y + n, x] = False
        else:
            g[y, x:x + n] = False
    for _ in range(int(rng.integers(0, 8))):
        g[int(rng.integers(1, h - 1)), int(rng.integers(1, w - 1))] = False
    return g


def bfs(g: np.ndarray, start: tuple[int, int]) -> dict[tuple[int, int], int]:
    dist = {start: 0}
    q = deque([start])
    h, w = g.shape
    while q:
        x, y = q.popleft()
        for _, (dx, dy) in MOVES:
            n = (x + dx, y + dy)
            if 0 <= n[1] < h and 0 <= n[0] < w and g[n[1], n[0]] and n not in dist:
                dist[n] = dist[(x, y)] + 1
                q.append(n)
    return dist


class GridWorld:
    """One training episode: a random layout, a start and a reachable target."""

    def __init__(self, rng: np.random.Generator, max_steps: int, sensor: int = SENSOR,
                 memory: int = VISIT_MEMORY) -> None:
        self.rng = rng
        self.max_steps = max_steps
        self.sensor, self.memory = sensor, memory
        self.reset()

    def reset(self) -> np.ndarray:
        while True:
            self.g = random_layout(self.rng)
            free_cells = np.argwhere(self.g)
            sy, sx = free_cells[self.rng.integers(len(free_cells))]
            self.pos = (int(sx), int(sy))
            reach = bfs(self.g, self.pos)
            far = [c for c, d in reach.items() if d >= 2]
            if far:
                break
        self.target = far[int(self.rng.integers(len(far)))]
        self.dist = bfs(self.g, self.target)
        self.t = 0
        self.visits: dict[tuple[int, int], int] = {self.pos: 0}
        return self.obs()

    def obs(self) -> np.ndarray:
        return observe(self.g, self.pos, (float(self.target[0]), float(self.target[1])), self.visits, self.t,
                       self.sensor, self.memory)

    def step(self, a: int) -> tuple[np.ndarray, float, bool, bool]:
        dx, dy = MOVES[a][1]
        n = (self.pos[0] + dx, self.pos[1] + dy)
        before = self.dist[self.pos]
        reward = -0.01
        if self.g[n[1], n[0]]:
            self.pos = n
        else:
            reward -= 0.05
        self.t += 1
        reward += 0.1 * (before - self.dist[self.pos])
        if self.visits.get(self.pos) is not None and self.t - self.visits[self.pos] < self.memory:
            reward -= 0.02
        self.visits[self.pos] = self.t
        success = self.pos == self.target
        if success:
            reward += 1.0
        done = success or self.t >= self.max_steps
        return self.obs(), reward, done, success


# -------------------------------------------------------------------------------------------- the agent
def _torch() -> Any:
    from playtester.extras import require

    return require("torch", "agents", "the learned navigator (navigator: learned)")


def make_policy(hidden: int = 128, obs_dim: int = OBS_DIM) -> Any:
    torch = _torch()
    from torch import nn

    class Policy(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
            self.pi = nn.Linear(hidden, len(MOVES))
            self.v = nn.Linear(hidden, 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            z = self.body(x)
            return self.pi(z), self.v(z).squeeze(-1)

    return Policy()


@dataclass
class PPOConfig:
    """PPO hyper-parameters (CleanRL's defaults where they fit)."""

    seed: int = 0
    total_steps: int = 800_000
    num_envs: int = 32
    num_steps: int = 64
    lr: float = 3e-4
    gamma: float = 0.98
    gae_lambda: float = 0.95
    update_epochs: int = 4
    minibatches: int = 4
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 128
    max_episode_steps: int = 80
    eval_episodes: int = 200
    sensor: int = SENSOR
    memory: int = VISIT_MEMORY

    @property
    def obs_dim(self) -> int:
        return 3 * self.sensor * self.sensor + 3


def train(cfg: PPOConfig, out: str | Path, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train the navigation policy with PPO and save it (weights + config + evaluation) to ``out``."""
    torch = _torch()

    torch.set_num_threads(1)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    envs = [GridWorld(np.random.default_rng(rng.integers(1 << 31)), cfg.max_episode_steps, cfg.sensor, cfg.memory)
            for _ in range(cfg.num_envs)]
    policy = make_policy(cfg.hidden, cfg.obs_dim)
    OBS = cfg.obs_dim
    opt = torch.optim.Adam(policy.parameters(), lr=cfg.lr, eps=1e-5)
    n, e = cfg.num_steps, cfg.num_envs
    obs_buf = torch.zeros((n, e, OBS))
    act_buf = torch.zeros((n, e), dtype=torch.long)
    logp_buf = torch.zeros((n, e))
    rew_buf = torch.zeros((n, e))
    done_buf = torch.zeros((n, e))
    val_buf = torch.zeros((n, e))
    obs = torch.tensor(np.stack([env.obs() for env in envs]))
    updates = cfg.total_steps // (n * e)
    t0 = time.perf_counter()
    successes: deque[float] = deque(maxlen=200)
    for update in range(updates):
        for g in opt.param_groups:
            g["lr"] = cfg.lr * (1.0 - update / updates)
        for t in range(n):
            with torch.no_grad():
                logits, v = policy(obs)
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()
            obs_buf[t], act_buf[t], logp_buf[t], val_buf[t] = obs, a, dist.log_prob(a), v
            nxt = []
            for i, env in enumerate(envs):
                o, r, d, s = env.step(int(a[i]))
                rew_buf[t, i] = r
                done_buf[t, i] = float(d)
                if d:
                    successes.append(float(s))
                    o = env.reset()
                nxt.append(o)
            obs = torch.tensor(np.stack(nxt))
        with torch.no_grad():
            _, next_v = policy(obs)
            adv = torch.zeros((n, e))
            last = torch.zeros(e)
            for t in reversed(range(n)):
                nv = next_v if t == n - 1 else val_buf[t + 1]
                nonterm = 1.0 - done_buf[t]
                delta = rew_buf[t] + cfg.gamma * nv * nonterm - val_buf[t]
                last = delta + cfg.gamma * cfg.gae_lambda * nonterm * last
                adv[t] = last
            ret = adv + val_buf
        b_obs, b_act, b_logp = obs_buf.reshape(-1, OBS), act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        size = n * e
        mb = size // cfg.minibatches
        for _ in range(cfg.update_epochs):
            perm = torch.randperm(size)
            for s in range(0, size, mb):
                idx = perm[s:s + mb]
                logits, v = policy(b_obs[idx])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                a_ = b_adv[idx]
                a_ = (a_ - a_.mean()) / (a_.std() + 1e-8)
                pg = torch.max(-a_ * ratio, -a_ * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
                vloss = 0.5 * ((v - b_ret[idx]) ** 2).mean()
                loss = pg + cfg.vf_coef * vloss - cfg.ent_coef * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), cfg.max_grad_norm)
                opt.step()
        if update % 20 == 0 or update == updates - 1:
            rate = float(np.mean(successes)) if successes else 0.0
            log(f"update {update + 1}/{updates}: steps {(update + 1) * size:,}, success {rate:.2f}, "
                f"{(update + 1) * size / (time.perf_counter() - t0):,.0f} steps/s")
    rate = evaluate(policy, cfg.eval_episodes, seed=cfg.seed + 10_000, max_steps=cfg.max_episode_steps,
                    sensor=cfg.sensor, memory=cfg.memory)
    stats = {"success_rate": rate, "seconds": time.perf_counter() - t0, "steps": updates * n * e}
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    state = {k: v.to(torch.float16) for k, v in policy.state_dict().items()}  # half the size; plenty for a policy
    torch.save({"state_dict": state, "config": asdict(cfg), "stats": stats, "obs_dim": cfg.obs_dim,
                "sensor": cfg.sensor, "memory": cfg.memory}, out)
    log(f"saved {out}: held-out success {rate:.2f} in {stats['seconds']:.0f} s")
    return stats


def greedy(policy: Any, obs: np.ndarray) -> int:
    torch = _torch()

    with torch.no_grad():
        logits, _ = policy(torch.as_tensor(obs, dtype=torch.float32)[None])
    return int(logits.argmax(-1)[0])


def act(policy: Any, obs: np.ndarray, rng: np.random.Generator | None, mask: np.ndarray) -> int:
    """The policy's move among the allowed ones (``mask``): sampled with ``rng``, else the likeliest."""
    torch = _torch()

    with torch.no_grad():
        logits, _ = policy(torch.as_tensor(obs, dtype=torch.float32)[None])
    p = torch.softmax(logits[0], -1).numpy().astype(np.float64) * mask
    if rng is None:
        return int(np.argmax(p))
    return int(rng.choice(len(p), p=p / p.sum()))


def sample(policy: Any, obs: np.ndarray, rng: np.random.Generator) -> int:
    """A move drawn from the policy's distribution (a greedy policy can loop forever; sampling escapes)."""
    torch = _torch()

    with torch.no_grad():
        logits, _ = policy(torch.as_tensor(obs, dtype=torch.float32)[None])
    p = torch.softmax(logits[0], -1).numpy().astype(np.float64)
    return int(rng.choice(len(p), p=p / p.sum()))


def evaluate(policy: Any, episodes: int, seed: int, max_steps: int = 80, stochastic: bool = True,
             sensor: int = SENSOR, memory: int = VISIT_MEMORY) -> float:
    """Success rate of the policy (sampled, as `LearnedNavigator` uses it) on new layouts and targets."""
    rng = np.random.default_rng(seed)
    act_rng = np.random.default_rng(seed + 1)
    wins = 0
    for _ in range(episodes):
        env = GridWorld(np.random.default_rng(rng.integers(1 << 31)), max_steps, sensor, memory)
        o, d, s = env.obs(), False, False
        while not d:
            o, _, d, s = env.step(sample(policy, o, act_rng) if stochastic else greedy(policy, o))
        wins += int(s)
    return wins / episodes


def load_policy(path: str | Path | None = None) -> Any:
    """The trained policy (the shipped weights by default)."""
    torch = _torch()

    from playtester.errors import UsageError

    torch.set_num_threads(1)
    path = Path(path) if path else DEFAULT_POLICY
    if not path.is_file():
        raise UsageError(f"no navigation policy at {path}; train one with 'python -m playtester.plans.learned "
                         f"--out {path}'")
    data = torch.load(path, map_location="cpu", weights_only=True)
    sensor, memory = int(data.get("sensor", SENSOR)), int(data.get("memory", VISIT_MEMORY))
    if data.get("obs_dim") != 3 * sensor * sensor + 3:
        raise UsageError(f"{path}: inconsistent policy file (obs_dim {data.get('obs_dim')}, sensor {sensor}); "
                         "retrain it")
    policy = make_policy(int(data["config"]["hidden"]), int(data["obs_dim"]))
    policy.load_state_dict({k: v.float() for k, v in data["state_dict"].items()})
    policy.eval()
    policy.sensor, policy.memory = sensor, memory
    return policy


class LearnedNavigator(Navigator):
    """The plan agent's ``learned`` navigation: the PPO policy walks towards an approach tile of the
    target (facing targets: the tile before it, then the facing step). It needs the walkable grid for its
    sensor; it does not plan paths: a target it cannot reach is found out by the node's timeout."""

    name = "learned"
    needs_grid = True

    def __init__(self, policy_path: str | Path | None = None, sample: bool = True, seed: int = 0) -> None:
        self.policy = load_policy(policy_path)
        self.sample = sample
        self.rng = np.random.default_rng(seed)
        self.visits: dict[tuple[int, int], int] = {}
        self.t = 0
        self.names = {n: i for i, (n, _) in enumerate(MOVES)}

    def reset(self) -> None:
        self.visits = {}
        self.t = 0

    def step(self, task: Task, state: NavState) -> Decision:
        if arrived(task, state):
            return Decision("arrived")
        if state.grid is None:
            return Decision("unreachable", reason="the game exposes no walkable grid (probe.hook('walkable', ...))")
        cands = approach(task, state)
        goal: tuple[float, float] = task.pos
        if task.face:
            pre = []
            for g, m in cands:
                dx, dy = state.moves[m]  # type: ignore[index]
                p = (g[0] - dx, g[1] - dy)
                if state.cell == p:
                    return Decision("move", move=m)
                if free(state.grid, p):
                    pre.append(p)
            if pre:
                goal = min(pre, key=lambda c: (math.hypot(c[0] - state.player[0], c[1] - state.player[1]), c))
        elif cands and not free(state.grid, (int(round(task.pos[0])), int(round(task.pos[1])))):
            goal = min((g for g, _ in cands), key=lambda c: (math.hypot(c[0] - state.player[0], c[1] - state.player[1]), c))
        self.t += 1
        self.visits[state.cell] = self.t
        obs = observe(state.grid, state.cell, goal, self.visits, self.t, self.policy.sensor, self.policy.memory)
        # a shield: never step onto a tile the game says the player cannot stand on (lava kills)
        mask = np.array([free(state.grid, (state.cell[0] + d[0], state.cell[1] + d[1])) for _, d in MOVES])
        if not mask.any():
            return Decision("wait")
        a = act(self.policy, obs, self.rng if self.sample else None, mask)
        name = MOVES[a][0]
        move = name if name in state.moves else next(iter(state.moves))
        return Decision("move", move=move)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m playtester.plans.learned",
                                     description="Train the learned navigation policy (PPO).")
    parser.add_argument("--out", default=str(DEFAULT_POLICY))
    parser.add_argument("--steps", type=int, default=PPOConfig.total_steps)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sensor", type=int, default=SENSOR)
    parser.add_argument("--memory", type=int, default=VISIT_MEMORY)
    args = parser.parse_args(argv)
    train(PPOConfig(seed=args.seed, total_steps=args.steps, sensor=args.sensor, memory=args.memory), args.out)


if __name__ == "__main__":
    main()
