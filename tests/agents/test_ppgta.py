"""PPGTA and Inspector (paper 001): the pieces learn what they should on toys (imitation, the RND ensemble's
novelty, PPO), bad input is a clear error, and a short campaign on the real park (headless) learns from the
park's demonstrations, tests objects and leaves verdicts in the bird's-eye record."""

from __future__ import annotations

import copy
import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import torch  # noqa: E402

torch.set_num_threads(1)  # as the agents do (setup_torch): 2 cores are shared with the game workers

from playtester.agents import make_agent  # noqa: E402
from playtester.agents.common import CampaignInfo, Demo, DemoStep  # noqa: E402
from playtester.agents.ppgta import (  # noqa: E402
    Alpha,
    Episodes,
    Policy,
    PpgtaAgent,
    PpgtaConfig,
    Ppo,
    RndEnsemble,
    fit_imitation,
    od_mask,
)
from playtester.errors import ConfigError, UsageError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEMOS = ROOT / "bench" / "data" / "park_demos"


def small_cfg(**kw) -> PpgtaConfig:
    return PpgtaConfig(**{"feat": 16, "mlp": 32, "local_hidden": 16, "global_hidden": 32, "k_frames": 3, **kw})


# ---------------------------------------------------------------------------------------- OD mask
def test_od_mask_keeps_colour_inside_the_box_and_greys_the_rest():
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 256, size=(48, 64, 3), dtype=np.uint8)
    out = od_mask(frame, (10, 5, 20, 15))
    assert np.array_equal(out[5:15, 10:20], frame[5:15, 10:20])
    outside = out.copy()
    outside[5:15, 10:20] = 0
    assert np.all(outside[..., 0] == outside[..., 1]) and np.all(outside[..., 1] == outside[..., 2])
    assert not np.array_equal(out[0:5], frame[0:5])  # greyed
    whole = od_mask(frame, None)
    assert np.all(whole[..., 0] == whole[..., 2])


# ------------------------------------------------------------------------------------- imitation
def toy_episodes(n: int, length: int, rng: np.random.Generator, feat: int = 16) -> Episodes:
    """A toy demonstrator: each step shows one of 4 feature prototypes (plus noise); the demonstrator plays
    the prototype's action, except that after prototype 3 it repeats its previous action (memory needed)."""
    protos = rng.normal(size=(4, feat)).astype(np.float32)
    masked, full, acts = [], [], []
    for _ in range(n):
        s = rng.integers(4, size=length)
        a = np.zeros(length, np.int64)
        for t in range(length):
            a[t] = (a[t - 1] if t else 0) if s[t] == 3 else s[t]
        x = protos[s] + 0.1 * rng.normal(size=(length, feat)).astype(np.float32)
        masked.append(x)
        full.append(x + 0.1 * rng.normal(size=x.shape).astype(np.float32))
        acts.append(a)
    return Episodes(masked, full, acts)


def test_imitation_with_the_consistency_loss_reaches_90_percent_on_a_toy_demonstrator():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    both = toy_episodes(30, 40, rng)
    train = Episodes(both.masked[:24], both.full[:24], both.actions[:24])
    test = Episodes(both.masked[24:], both.full[24:], both.actions[24:])  # held-out episodes
    policy = Policy(16, 4, small_cfg())
    untrained = fit_imitation(Policy(16, 4, small_cfg()), train, test, small_cfg(il_updates=0), rng)
    res = fit_imitation(policy, train, test, small_cfg(il_updates=120, il_episodes=8, lr=3e-3), rng)
    assert untrained["accuracy"] < 0.6
    assert res["accuracy"] > 0.9, res


# ------------------------------------------------------------------------------------------- RND
def test_rnd_ensemble_novelty_falls_on_repeated_frames_and_rises_on_new_ones():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    rnd = RndEnsemble(n_in=96, members=5, out=16, capacity=1024, lr=1e-3, seed=0)
    seen = rng.random((8, 96)).astype(np.float32)
    for x in seen:
        rnd.add(x)
    before = float(rnd.novelty(seen).mean())
    for _ in range(300):
        for x in seen[rng.integers(8, size=2)]:
            rnd.add(x)
        rnd.train(64)
    after = float(rnd.novelty(seen).mean())
    new = float(rnd.novelty(rng.random((8, 96)).astype(np.float32) * 3).mean())
    assert after < 0.5 * before, (before, after)
    assert new > 3 * after, (after, new)


def test_alpha_follows_the_papers_schedule():
    a = Alpha(0.8, 0.5, 0.05, 0.1, 0.1)
    assert a.update(1.0) == 0.8
    values = [a.update(v) for v in (0.8, 0.6, 0.4, 0.2, 0.0, -0.2, -0.4, -0.6, -0.8)]
    assert values[0] == pytest.approx(0.75) and values[-1] == pytest.approx(0.5)  # floor 0.5
    assert a.update(-0.75) == pytest.approx(0.5)  # a small change moves nothing
    assert a.update(0.0) == pytest.approx(0.6) and a.update(1.0) == pytest.approx(0.7)
    assert a.update(2.0) == pytest.approx(0.8) and a.update(3.0) == pytest.approx(0.8)  # ceiling 0.8


# ------------------------------------------------------------------------------------------- PPO
def test_ppo_improves_a_toy_return():
    """A contextual bandit on features: two prototypes; action 1 pays in the first, action 2 in the second."""
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    cfg = small_cfg(ppo_lr=3e-3, n_steps=128)
    protos = rng.normal(size=(2, 16)).astype(np.float32)
    net = Policy(16, 3, cfg)
    ppo = Ppo(net, cfg)

    def rollout() -> tuple[dict[str, np.ndarray], float]:
        rows = {k: [] for k in ("windows", "globals", "actions", "logp", "values", "masks", "rewards", "dones")}
        with torch.no_grad():
            for _ in range(cfg.n_steps):
                s = int(rng.integers(2))
                p = net.proj(torch.as_tensor(np.repeat(protos[s][None], cfg.k_frames, 0)))
                g = torch.zeros(1, cfg.global_hidden)
                logits, value = net.heads(torch.cat([net.local_state(p[None]), g], -1))
                dist = torch.distributions.Categorical(logits=logits[0])
                a = int(dist.sample())
                for k, v in (("windows", p.numpy()), ("globals", g[0].numpy()), ("actions", a),
                             ("logp", float(dist.log_prob(torch.tensor(a)))), ("values", float(value[0])),
                             ("masks", np.ones(3, np.float32)), ("rewards", float(a == s + 1)), ("dones", 1.0)):
                    rows[k].append(v)
        data = {k: np.array(v, dtype=np.int64 if k == "actions" else np.float32) for k, v in rows.items()}
        return data, float(data["rewards"].mean())

    first = [rollout()[1] for _ in range(3)]
    for _ in range(25):
        data, _ = rollout()
        ppo.update(data, 0.0)
    last = [rollout()[1] for _ in range(3)]
    assert np.mean(first) < 0.5 and np.mean(last) > 0.85, (first, last)


def test_ppo_learns_the_policy_it_samples_from_at_a_temperature():
    """With ``act_temp`` the agent samples from softmax(logits / T): PPO's ratios must use the same distribution,
    so with a zero learning rate (nothing changes) every ratio is 1 and the approximate KL is 0; sampled at T and
    read back at 1 it is not."""
    torch.manual_seed(0)
    rng = np.random.default_rng(2)
    n, temp = 64, 0.3
    cfg = small_cfg(n_steps=n, ppo_lr=0.0, act_temp=temp)
    net = Policy(16, 3, cfg).eval()  # as the agent's (no dropout: the ratios are exact)
    win = torch.as_tensor(rng.normal(size=(n, cfg.k_frames, cfg.mlp)).astype(np.float32))
    glob = torch.as_tensor(rng.normal(size=(n, cfg.global_hidden)).astype(np.float32))
    with torch.no_grad():
        logits, values = net.heads(torch.cat([net.local_state(win), glob], -1))
        dist = torch.distributions.Categorical(logits=logits / temp)
        acts = dist.sample()
        logp = dist.log_prob(acts)
    roll = {"windows": win.numpy(), "globals": glob.numpy(), "actions": acts.numpy(), "logp": logp.numpy(),
            "values": values.numpy(), "masks": np.ones((n, 3), np.float32),
            "rewards": rng.normal(size=n).astype(np.float32), "dones": np.zeros(n, np.float32)}
    same, plain = Ppo(net, cfg), Ppo(copy.deepcopy(net), small_cfg(n_steps=n, ppo_lr=0.0))
    same.update(roll, 0.0)
    plain.update(roll, 0.0)
    assert abs(same.last["approx_kl"]) < 1e-6 and plain.last["approx_kl"] > 1e-3, (same.last, plain.last)
    with pytest.raises(UsageError, match="act_temp"):
        make_agent("ppgta:act_temp=0", 9)


def test_the_value_loss_moves_the_actor_only_when_the_value_is_not_detached():
    """PPO starts from the path-following policy, whose value head imitation never trained: with ``value_detached``
    (PPGTA's default) the value loss trains that head alone and leaves the action logits as the policy loss makes
    them; without it (Inspector, CleanRL) it moves the shared layers, and so the logits too."""
    rng = np.random.default_rng(1)
    n = 64
    cfg0 = small_cfg(n_steps=n, ent_coef=0.0)
    roll = {"windows": rng.normal(size=(n, cfg0.k_frames, cfg0.mlp)).astype(np.float32),
            "globals": rng.normal(size=(n, cfg0.global_hidden)).astype(np.float32),
            "actions": rng.integers(3, size=n), "logp": np.full(n, -np.log(3), np.float32),
            "values": np.zeros(n, np.float32), "masks": np.ones((n, 3), np.float32),
            "rewards": (10.0 * rng.normal(size=n)).astype(np.float32), "dones": np.zeros(n, np.float32)}
    probe = torch.cat([torch.zeros(8, 2 * cfg0.local_hidden), torch.as_tensor(roll["globals"][:8])], -1)  # h^c

    def after(detached: bool, vf_coef: float) -> tuple[torch.Tensor, torch.Tensor]:
        torch.manual_seed(0)
        net = Policy(16, 3, cfg0)
        ppo = Ppo(net, small_cfg(n_steps=n, ent_coef=0.0, value_detached=detached, vf_coef=vf_coef))
        torch.manual_seed(1)
        ppo.update(roll, 0.0)
        with torch.no_grad():
            logits, value = net.heads(probe)
        return logits, value

    for detached in (True, False):
        (l0, v0), (l1, v1) = after(detached, 0.0), after(detached, 0.5)
        assert not torch.allclose(v0, v1)  # the value head learns either way
        assert torch.allclose(l0, l1) is detached, detached


class Pixels:
    """A toy pixel game for `toy.drive`: six frames in turn, every action valid, 12 steps an episode."""

    n_actions = 9

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames, self.t = frames, 0

    def reset(self):
        self.t = 0
        return self.frames[0], {"action_mask": np.ones(9, np.int8), "features": {"t": 0.0}}

    def step(self, a):
        self.t += 1
        info = {"action_mask": np.ones(9, np.int8), "features": {"t": float(self.t % 3)}}
        return self.frames[self.t % 6], 0.0, False, self.t >= 12, info


# ----------------------------------------------------------------------------------- bad input
def test_bad_input_is_a_clear_error(tmp_path):
    with pytest.raises(UsageError, match="has no option 'nope'"):
        make_agent("ppgta:nope=1", 9)
    with pytest.raises(UsageError, match="frame_w"):
        make_agent("ppgta:frame_w=4", 9)
    with pytest.raises(UsageError, match="after_test must be stay or return"):
        make_agent("ppgta:after_test=back", 9)
    agent = PpgtaAgent(9, warmup_steps=0)
    with pytest.raises(ConfigError, match="does not exist"):
        agent.setup(CampaignInfo(9, detector=str(tmp_path / "none.pt")))
    with pytest.warns(RuntimeWarning, match="no object detector"):
        agent.setup(CampaignInfo(9))
    with pytest.raises(UsageError, match="needs RGB frames"):
        agent.act(np.zeros(7, np.float32), {})
    frame = np.zeros((120, 160, 3), np.uint8)
    agent.demonstrate([Demo("x/path/p.json", [DemoStep(frame, {}, 0, 0.0)] * 3)])
    with pytest.raises(UsageError, match="OOI inspections"):
        agent.act(frame, {})  # no inspection demonstrations: said when it trains, before anything is learnt
    assert agent.is_inspection("bench/data/park_demos/inspect/x.json") and agent.is_inspection("d/inspect_1.json")
    assert not agent.is_inspection("bench/data/park_demos/path/inspect.json.bak/x.json")


def test_inspector_needs_only_inspections_and_explores_on_novelty_alone():
    from playtester.agents.ppgta import InspectorAgent

    agent = InspectorAgent(9, warmup_steps=4, idm_updates=2, il_updates=2, inspect_il_updates=2)
    assert agent.cfg.rnd_members == 1 and agent.cfg.alpha == 0 and not agent.cfg.od_mask
    rng = np.random.default_rng(0)
    frames = [rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8) for _ in range(6)]
    with pytest.warns(RuntimeWarning):
        agent.setup(CampaignInfo(9))
    agent.demonstrate([Demo("d/path/a.json", [DemoStep(f, {}, 0, 0.0) for f in frames]),
                       Demo("d/inspect/b.json", [DemoStep(f, {}, 4, 0.0) for f in frames]),
                       Demo("d/inspect/c.json", [DemoStep(f, {}, 5, 0.0) for f in frames])])
    assert agent.fit_stats["preference_demos"] == 0 and agent.fit_stats["inspect_demos"] == 2  # path ones unused
    from toy import drive

    with pytest.warns(RuntimeWarning, match="no object detector"):
        drive(agent, Pixels(frames), 30, ["t"])
    st = agent.stats()
    assert st["fitted"] and st["warmup"] == 4 and st["explore"] == 26 and agent.path_policy is None
    again = InspectorAgent(9, warmup_steps=4, idm_updates=2, il_updates=2, inspect_il_updates=2)  # explore --resume
    again.load_state(agent.state_bytes())
    assert again.fitted and again.steps == 30 and again.ppo is not None and again.inspect_policy is not None
    x = torch.zeros(1, 3, 48, 64)
    assert torch.equal(again.encoder(x), agent.encoder(x))
    with pytest.raises(UsageError, match="inspector"):
        PpgtaAgent(9).load_state(agent.state_bytes())


def test_what_the_agent_does_depends_on_its_seed_not_on_the_process_history():
    """Two agents with the same seed play the same, though the process drew from torch's global random stream
    between one's start and its first step (as loading the detector for the first time in a process does): a
    bench that runs several campaigns in one process gets each campaign's own result."""
    from toy import drive

    rng = np.random.default_rng(3)
    frames = [rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8) for _ in range(6)]

    def play(draw: int) -> PpgtaAgent:
        agent = PpgtaAgent(9, seed=5, warmup_steps=4, idm_updates=3, il_updates=3, inspect_il_updates=3, n_steps=8,
                           feat=16, mlp=16, local_hidden=8, global_hidden=16)
        with pytest.warns(RuntimeWarning, match="no object detector"):
            agent.setup(CampaignInfo(9))
        torch.rand(draw)  # someone else's draws
        agent.demonstrate([Demo("d/path/a.json", [DemoStep(f, {}, i % 3, 0.0) for i, f in enumerate(frames)]),
                           Demo("d/path/b.json", [DemoStep(f, {}, 4, 0.0) for f in frames]),
                           Demo("d/inspect/c.json", [DemoStep(f, {}, 5, 0.0) for f in frames]),
                           Demo("d/inspect/e.json", [DemoStep(f, {}, 1, 0.0) for f in frames])])
        with pytest.warns(RuntimeWarning, match="no object detector"):
            drive(agent, Pixels(frames), 30, ["t"])  # the warm-up, the fitting, PPO's first updates
            torch.rand(draw)  # and more of them while it plays
            drive(agent, Pixels(frames), 30, ["t"])
        return agent

    a, b = play(0), play(1000)
    assert a.stats()["ppo_updates"] >= 2
    assert a.explore_actions.tolist() == b.explore_actions.tolist()
    for (k, x), (_, y) in zip(a.ppo.net.state_dict().items(), b.ppo.net.state_dict().items(), strict=True):
        assert torch.equal(x, y), k


class _Snapshots:
    """The campaign's `EpisodeControl` as far as after_test=return uses it: snapshots that restore (the real one, on
    the park, is in test_after_a_test_ppgta_can_return_to_where_the_test_began)."""

    slot, snapshots = 0, True

    def __init__(self) -> None:
        self.made: list[int] = []
        self.restored: list[int] = []
        self.dropped: list[int] = []

    def snapshot(self) -> int:
        self.made.append(len(self.made))
        return self.made[-1]

    def restore(self, snap: int) -> bool:
        self.restored.append(snap)
        return True

    def drop(self, snap: int) -> None:
        self.dropped.append(snap)


def test_after_a_return_no_test_starts_until_the_object_just_tested_is_out_of_view():
    from playtester.agents.common import Transition

    rng = np.random.default_rng(4)
    frames = [rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8) for _ in range(6)]
    agent = PpgtaAgent(9, seed=2, warmup_steps=0, idm_updates=2, il_updates=2, inspect_il_updates=2, feat=16, mlp=16,
                       local_hidden=8, global_hidden=16, after_test="return", test_steps=5, cooldown=3)
    with pytest.warns(RuntimeWarning, match="no object detector"):
        agent.setup(CampaignInfo(9, max_episode_steps=1000))
    agent.demonstrate([Demo("d/path/a.json", [DemoStep(f, {}, i % 3, 0.0) for i, f in enumerate(frames)]),
                       Demo("d/inspect/b.json", [DemoStep(f, {}, 5, 0.0) for f in frames])])
    in_view = [True]
    agent.boxes = lambda frame: [((40.0, 30.0, 80.0, 90.0), "crate", 0.9)] if in_view[0] else []  # 60 px tall
    ctl = _Snapshots()
    agent.attach(0, ctl)
    agent.episode_start(0)

    def step() -> bool:
        a = agent.act(frames[0], {})
        return agent.observe(0, Transition(frames[0], a, 0.0, frames[1], False, False, {}, None, False))

    played = next(n for n in range(1, 10) if step())  # the object in view: a test starts at once, ends after test_steps
    assert played == 6 and agent.counts["tests"] == 1 and agent.counts["tests_at_limit"] == 1
    assert ctl.made == [0] and agent.counts["test"] >= 5
    agent.episode_end(0, "agent")
    assert agent.episode_start(0) is True and ctl.restored == [0] and ctl.dropped == [0]  # back, snapshot freed
    assert not any(step() for _ in range(10))  # past the cooldown, the object (the one tested) still in view
    assert agent.counts["tests"] == 1 and agent.counts["test_returns"] == 1
    in_view[0] = False
    step()  # out of view once
    in_view[0] = True
    step()
    assert agent.counts["tests"] == 2 and ctl.made == [0, 1]  # an object in view again: the next test


def _tiny_tester(seed: int, n_frames: int, **cfg):
    """``n_frames`` random frames and a small PPGTA agent (no detector, fitted at its first step, one test only)."""
    rng = np.random.default_rng(seed)
    frames = [rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8) for _ in range(n_frames)]
    agent = PpgtaAgent(9, seed=2, warmup_steps=0, idm_updates=2, il_updates=2, inspect_il_updates=2, feat=16, mlp=16,
                       local_hidden=8, global_hidden=16, cooldown=1000, **cfg)
    with pytest.warns(RuntimeWarning, match="no object detector"):
        agent.setup(CampaignInfo(9, max_episode_steps=1000))
    return frames, agent


@pytest.mark.parametrize("test_steps, limit", [(0, 7), (4, 4)])
def test_a_test_lasts_at_most_as_long_as_the_longest_inspection_demonstration(test_steps, limit):
    """With ``test_steps`` 0 (the default) a test's step limit is the longest inspection demonstration's length
    (preference demonstrations do not count); a given ``test_steps`` is the limit."""
    from playtester.agents.common import Transition

    frames, agent = _tiny_tester(5, 9, test_steps=test_steps)
    agent.demonstrate([Demo("d/path/a.json", [DemoStep(f, {}, i % 3, 0.0) for i, f in enumerate(frames)]),
                       Demo("d/inspect/b.json", [DemoStep(f, {}, 5, 0.0) for f in frames[:7]]),
                       Demo("d/inspect/c.json", [DemoStep(f, {}, 5, 0.0) for f in frames[:3]])])
    agent.boxes = lambda frame: [((40.0, 30.0, 80.0, 90.0), "crate", 0.9)]  # an object always in view
    agent.attach(0, _Snapshots())
    agent.episode_start(0)
    for _ in range(30):
        a = agent.act(frames[0], {})
        agent.observe(0, Transition(frames[0], a, 0.0, frames[1], False, False, {}, None, False))
    assert agent.stats()["test_limit"] == limit
    # one test (the cooldown holds the next off): the steps it took are the limit, and it ended there
    assert agent.counts["tests"] == 1 and agent.counts["tests_at_limit"] == 1 and agent.counts["test"] == limit


@pytest.mark.parametrize("lost_steps, limit", [(0, 3), (5, 5)])
def test_a_test_ends_when_its_object_is_gone_longer_than_the_demonstrations_ever_lost_theirs(lost_steps, limit):
    """With ``lost_steps`` 0 (the default) a test ends when no box big enough to test has been seen for longer than
    the longest such stretch of an inspection demonstration after its first box (boxes too small, before the first
    and in preference demonstrations do not count); a given ``lost_steps`` is the limit."""
    from playtester.agents.common import Transition

    frames, agent = _tiny_tester(6, 12, lost_steps=lost_steps)
    big, small = [((40.0, 30.0, 80.0, 90.0), "crate", 0.9)], [((40.0, 30.0, 44.0, 35.0), "crate", 0.9)]
    shown = {  # the boxes of each demonstration's frames, by its first frame
        0: [[]] * 12,  # preference: a long stretch with no box (not counted)
        1: [[], [], [], [], [], big, [], big, small, small, [], big],  # 5 before the first box; then gaps 1 and 3
        2: [big, [], [], big, big],  # a gap of 2
    }
    agent.demo_boxes = lambda fs: shown[next(k for k, f in enumerate(frames) if np.array_equal(f, fs[0]))]
    agent.demonstrate([Demo("d/path/a.json", [DemoStep(f, {}, i % 3, 0.0) for i, f in enumerate(frames)]),
                       Demo("d/inspect/b.json", [DemoStep(f, {}, 5, 0.0) for f in frames[1:]] + [DemoStep(frames[1], {}, 5, 0.0)]),
                       Demo("d/inspect/c.json", [DemoStep(f, {}, 5, 0.0) for f in frames[2:7]])])
    assert agent.fit_stats["lost_limit"] == limit
    view = [True]
    agent.boxes = lambda frame: big if view[0] else []
    agent.attach(0, _Snapshots())
    agent.episode_start(0)

    def step():
        a = agent.act(frames[0], {})
        agent.observe(0, Transition(frames[0], a, 0.0, frames[1], False, False, {}, None, False))

    step()  # fits the networks; the object in view starts the test
    assert agent.counts["tests"] == 1 and agent.counts["test"] == 1
    view[0] = False
    for _ in range(limit):
        step()
    assert agent.counts["tests_lost"] == 0 and agent.counts["test"] == 1 + limit  # out of view for `limit` steps
    step()
    assert agent.counts["tests_lost"] == 1 and agent.counts["test"] == 1 + limit  # one more: the test is over


# ------------------------------------------------------------------------------- the real park
def test_without_tests_ppgta_learns_from_the_preference_alone():
    """`ppgta:tests=false`: a game with no inspection demonstrations (ViZDoom's route): no inspection policy is
    trained, none is asked for, and no test starts; the preference still shapes exploration."""
    agent = PpgtaAgent(9, tests=False, warmup_steps=4, idm_updates=2, il_updates=2)
    rng = np.random.default_rng(1)
    frames = [rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8) for _ in range(6)]
    with pytest.warns(RuntimeWarning, match="no object detector"):
        agent.setup(CampaignInfo(9))
    agent.demonstrate([Demo("d/route/a.json", [DemoStep(f, {}, 0, 0.0) for f in frames]),
                       Demo("d/route/b.json", [DemoStep(f, {}, 1, 0.0) for f in frames])])
    from toy import drive

    with pytest.warns(RuntimeWarning, match="no object detector"):
        drive(agent, Pixels(frames), 20, ["t"])
    st = agent.stats()
    assert st["fitted"] and agent.fit_stats["preference_demos"] == 2 and agent.fit_stats["inspect_demos"] == 0
    assert agent.inspect_policy is None and agent.path_policy is not None
    from playtester.agents.ppgta import InspectorAgent

    lone = InspectorAgent(9, tests=False, warmup_steps=0)  # no preference, no inspections: nothing to learn
    with pytest.warns(RuntimeWarning):
        lone.setup(CampaignInfo(9))
    lone.demonstrate([Demo("d/route/a.json", [DemoStep(f, {}, 0, 0.0) for f in frames])])
    with pytest.raises(UsageError, match="got no demonstration it learns from .*warmup_steps=N"):
        lone.act(frames[0], {})
    with pytest.raises(UsageError, match="OOI inspections"):  # the default still asks for them
        bad = PpgtaAgent(9, warmup_steps=0)
        with pytest.warns(RuntimeWarning):
            bad.setup(CampaignInfo(9))
        bad.demonstrate([Demo("d/route/a.json", [DemoStep(f, {}, 0, 0.0) for f in frames])])
        bad.act(frames[0], {})


def test_without_tests_or_demonstrations_inspector_learns_from_its_own_frames_alone():
    """Inspector with ``tests=false`` on a game with no inspection demonstrations (ViZDoom): it takes no preference
    either, so its encoder learns the inverse dynamics of its own warm-up frames and PPO explores on novelty alone
    from random weights (RND on frames, as Inspector's exploration is)."""
    from toy import drive

    from playtester.agents.ppgta import InspectorAgent

    rng = np.random.default_rng(2)
    frames = [rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8) for _ in range(6)]
    agent = InspectorAgent(9, tests=False, warmup_steps=8, idm_updates=3, n_steps=8, batch=4)
    with pytest.warns(RuntimeWarning, match="no object detector"):
        agent.setup(CampaignInfo(9))
    before = [p.detach().clone() for p in agent.encoder.parameters()]
    with pytest.warns(RuntimeWarning, match="no object detector"):
        drive(agent, Pixels(frames), 30, ["t"])
    st = agent.stats()
    assert st["fitted"] and st["warmup"] == 8 and st["explore"] == 22 and st["test"] == 0
    assert agent.inspect_policy is None and agent.path_policy is None and agent.ppo is not None
    assert "idm_train_accuracy" in agent.fit_stats and "idm_accuracy_own_frames" in agent.fit_stats
    assert any(not torch.equal(a, b) for a, b in zip(before, agent.encoder.parameters(), strict=True))  # it trained
    assert st["ppo_updates"] >= 2 and st["rnd_updates"] > 0


def _few_demos(tmp_path: Path) -> list[Path]:
    """Two short path-following demonstrations (cut to 60 steps) and two inspections, copied."""
    out = []
    for kind, names, cut in (("path", ["path_001.json", "path_002.json"], 60),
                             ("inspect", ["inspect_001.json", "inspect_002.json"], None)):
        d = tmp_path / "demos" / kind
        d.mkdir(parents=True)
        for name in names:
            trace = json.loads((DEMOS / kind / name).read_text())
            if cut:
                trace["actions"] = trace["actions"][:cut]
            (d / name).write_text(json.dumps(trace))
        out.append(d)
    return out


AGENT = ("ppgta:warmup_steps=40,idm_updates=30,il_updates=10,inspect_il_updates=10,il_episodes=2,n_steps=32,"
         "feat=32,mlp=32,local_hidden=16,global_hidden=32,test_steps=40,cooldown=20,n_steps=16")


@pytest.mark.parametrize("approach, where", [(0, "worker"), (20, "parent")])
def test_a_short_ppgta_campaign_on_the_park_learns_from_demonstrations_and_tests(tmp_path, approach, where):
    import playtester.vision  # noqa: F401 - registers the detector loader (the CLI imports it too)
    from playtester.campaign import Budget, explore
    from playtester.campaign.observers import BIRDSEYE_FILE
    from playtester.drive.spec import resolve

    spec = resolve("park").with_config(max_episode_steps=110)
    r = explore(spec, out=tmp_path / "out", agent=AGENT + f",approach_steps={approach}", budget=Budget(steps=200),
                workers=1, code_coverage=False, replay_known=False, demos=_few_demos(tmp_path), seed=3, finalize=False,
                oracles_in=where)
    s = r.agent_stats
    assert r.steps == 200 and s["fitted"] and s["warmup"] == 40
    # one detection a frame: with the oracles where the game runs, the texture oracle's detections come with each
    # step and the agent never runs the detector itself; with them in this process it detects every frame itself
    if where == "worker":
        assert s["detections_own"] == 0 and s["detections_shared"] >= 2 * 200
    else:
        assert s["detections_shared"] == 0 and s["detections_own"] >= 200
    assert s["inspect_demos"] == 2 and s["preference_demos"] == 2 and s["demo_steps"] == 120 + 2 * 110  # cut
    assert 0.0 <= s["idm_accuracy"] <= 1.0 and s["idm_train_accuracy"] > 1 / 9
    assert s["explore"] + s["test"] + s["warmup"] + s["approach"] == 200
    if approach:  # every test began with an approach, which ended one of three ways or with its episode
        ended = s["approaches_reached"] + s["approaches_at_limit"] + s["approaches_lost"]
        assert s["approach"] >= 1 and 0 <= s["tests"] - ended <= r.episodes
        assert sum(s["box_motion"]["pairs"]) > 100 and s["approach_height"] >= 10  # learnt from the demonstrations
    else:
        assert s["approach"] == 0 and "box_motion" not in s
    assert s["ppo_updates"] >= 1 and s["rnd_updates"] >= 1 and s["tests"] >= 1 and s["test"] >= 1
    # every test ends by losing its object, at the step limit, or with its episode (at most one per episode)
    assert 0 <= s["tests"] - s["tests_lost"] - s["tests_at_limit"] <= r.episodes
    assert sum(s["explore_actions"]) == s["explore"] and s["ppo_approx_kl"] >= 0.0 and s["ppo_entropy"] > 0.0
    lines = [json.loads(x) for x in (tmp_path / "out" / BIRDSEYE_FILE.format(cid=r.campaign_id)).read_text().splitlines()]
    assert len(lines) - 1 == r.episodes == 2 and all(ep["trace"] for ep in lines[1:])


def test_after_a_test_ppgta_can_return_to_where_the_test_began(tmp_path):
    """``after_test=return``: the test's last step ends the episode (outcome agent) and the next starts from the
    snapshot taken when the test began (same seed, same place, not fresh); the test's steps still count."""
    import playtester.vision  # noqa: F401 - registers the detector loader (the CLI imports it too)
    from playtester.campaign import Budget, explore
    from playtester.campaign.observers import BIRDSEYE_FILE
    from playtester.drive.spec import resolve

    spec = resolve("park").with_config(max_episode_steps=110)
    r = explore(spec, out=tmp_path / "out", agent=AGENT + ",after_test=return", budget=Budget(steps=230), workers=1,
                code_coverage=False, replay_known=False, demos=_few_demos(tmp_path), seed=3, finalize=False)
    s = r.agent_stats
    assert r.steps == 230 and s["explore"] + s["test"] + s["warmup"] == 230
    assert s["test_returns"] >= 1 and s["test_return_failed"] == 0
    assert s["test_returns"] <= s["tests_lost"] + s["tests_at_limit"]  # only a test that ended returns
    lines = [json.loads(x) for x in (tmp_path / "out" / BIRDSEYE_FILE.format(cid=r.campaign_id)).read_text().splitlines()]
    eps = lines[1:]
    assert len(eps) == r.episodes and sum(not ep["fresh"] for ep in eps) == s["test_returns"]
    # a campaign episode is still 110 steps, its tests included (the game's own count went back with each return,
    # by at least lost_steps): the third starts at step 220
    assert sum(ep["fresh"] for ep in eps) == 3
    for before, back in zip(eps, eps[1:], strict=False):
        if back["fresh"]:
            continue
        assert before["outcome"] == "agent" and back["seed"] == before["seed"]  # the same game episode goes on
        # from where the test began: a place the episode before it passed (its trace is thinned to 0.25 tile;
        # the first point of the return is a step after the restore)
        assert min(math.dist(back["trace"][0], p) for p in before["trace"]) < 1.0


# ------------------------------------------------------------- detections of the demonstrations, kept
def _park_walk(n: int, seed: int) -> tuple[np.ndarray, list[int]]:
    """``n`` frames of the real park at the agent's size (random walking from ``seed``'s start) and the actions
    between them."""
    from playtester.agents.ppgta import CAPTURE
    from playtester.env import GameEnv

    env = GameEnv("park", obs_size=CAPTURE)
    try:
        obs, _ = env.reset(seed=seed)
        rng, frames, actions = np.random.default_rng(seed), [obs], []
        for _ in range(n - 1):
            actions.append(int(rng.integers(env.action_space.n)))
            obs, *_ = env.step(actions[-1])
            frames.append(obs)
    finally:
        env.close()
    return np.stack(frames), actions


def _park_frames(n: int, seed: int) -> np.ndarray:
    return _park_walk(n, seed)[0]


def test_the_demonstrations_detections_are_batched_kept_and_read_back(tmp_path, monkeypatch):
    """The boxes of a demonstration are the detector's one frame at a time; a second agent with the same frames
    and detector reads them from the cache without running the detector; a torn entry is detected again; other
    frames are another entry; PLAYTESTER_CACHE=off keeps nothing."""
    import playtester.vision  # noqa: F401 - registers the detector loader
    from playtester.oracles.texture import load_judge

    path = str(ROOT / "src" / "playtester" / "vision" / "park-texture.pt")
    judge, why = load_judge(path)
    assert judge is not None, why
    frames = _park_frames(40, seed=4)
    one_by_one = [judge.detect(f) for f in frames]
    assert sum(map(len, one_by_one)) > 0, "the walk should pass an object, or the test shows nothing"
    batched = judge.detect_many(frames, batch=16)
    assert len(batched) == len(frames)

    def same(xs, ys) -> bool:  # batches of other sizes round differently in the last bits
        return len(xs) == len(ys) and all(
            len(a) == len(b) and all(ka == kb and abs(sa - sb) < 1e-4 and np.allclose(ba, bb, atol=1e-3)
                                     for (ba, ka, sa), (bb, kb, sb) in zip(a, b, strict=True))
            for a, b in zip(xs, ys, strict=True))

    assert same(one_by_one, batched)

    monkeypatch.setenv("PLAYTESTER_CACHE", str(tmp_path / "cache"))

    ran: list[int] = []  # the frames each detector run had
    real = judge.detect_many

    def counted(fr, **kw):
        ran.append(len(fr))
        return real(fr, **kw)

    monkeypatch.setattr(judge, "detect_many", counted)  # the agents load this same judge (cached by path)

    def agent() -> PpgtaAgent:
        a = PpgtaAgent(9, detector=path)
        a.setup(CampaignInfo(9))
        assert a.judge is judge
        return a

    first = agent().demo_boxes(frames)
    entries = list((tmp_path / "cache" / "detections").glob("*.json"))
    assert ran == [40] and len(entries) == 1
    assert same(first, [sorted((d for d in f if d[2] >= 0.5), key=lambda d: -(d[0][3] - d[0][1])) for f in batched])
    ran.clear()
    second = agent()
    assert second.demo_boxes(frames) == first and ran == [] and second.counts["demo_frames_cached"] == 40
    entries[0].write_text(entries[0].read_text()[:50])  # torn
    assert agent().demo_boxes(frames) == first and ran == [40]
    assert json.loads(entries[0].read_text())  # written anew
    ran.clear()
    agent().demo_boxes(frames[:20])
    assert ran == [20] and len(list((tmp_path / "cache" / "detections").glob("*.json"))) == 2
    monkeypatch.setenv("PLAYTESTER_CACHE", "off")
    ran.clear()
    off = agent()
    assert off.demo_boxes(frames) == first and ran == [40] and off.counts["demo_frames_cached"] == 0
    assert len(list((tmp_path / "cache" / "detections").glob("*.json"))) == 2


# --------------------------------------------------------------------- a test's approach (approach_steps)
def _box(cx: float, h: float, kind: str = "crate") -> tuple[tuple[float, ...], str, float]:
    return ((cx - h / 2, 60 - h / 2, cx + h / 2, 60 + h / 2), kind, 0.9)


def test_box_motion_learns_how_each_action_moves_a_box_and_steers_by_it():
    from playtester.agents.ppgta import BoxMotion

    m = BoxMotion(4, 160.0, min_count=3)
    assert m.steer(_box(30, 12)[0], 8.0) is None  # nothing learnt yet
    for _ in range(3):
        m.add(_box(70, 10), [_box(70, 12)], 0)  # 0: the box grows
        m.add(_box(70, 10), [_box(150, 30, "barrel"), _box(82, 10)], 1)  # 1: 12 px right (the other kind is not it)
        m.add(_box(70, 10), [_box(58, 10)], 2)  # 2: 12 px left
    m.add(_box(70, 10), [_box(140, 10)], 3)  # too far to be the same object: not counted
    m.add(None, [_box(70, 10)], 3)  # no box before
    assert m.n.tolist() == [3, 3, 3, 0]
    assert m.table()["shift_px"] == [0.0, 12.0, -12.0, 0.0] and m.table()["growth"][0] == round(math.log(1.2), 4)
    assert m.steer(_box(30, 12)[0], 8.0) == 1  # left of the middle: the action that moves it right
    assert m.steer(_box(130, 12)[0], 8.0) == 2
    assert m.steer(_box(84, 12)[0], 8.0) == 0  # centred: the action that brings it nearer
    assert m.steer(_box(84, 12)[0], 8.0, mask=[0, 1, 1, 1]) is None  # none valid grows it
    assert m.steer(_box(30, 12)[0], 8.0, mask=[1, 0, 1, 1]) == 0  # none valid centres it: nearer still


def test_what_box_motion_learnt_is_kept_with_the_agents_state_for_resume():
    a = PpgtaAgent(9, approach_steps=10, feat=16, mlp=16, local_hidden=8, global_hidden=16)
    for _ in range(5):
        a.motion.add(_box(70, 10), [_box(82, 11)], 4)
    b = PpgtaAgent(9, approach_steps=10, feat=16, mlp=16, local_hidden=8, global_hidden=16)
    b.load_state(a.state_bytes())
    assert b.motion.table() == a.motion.table() and b.motion.steer(_box(30, 12)[0], 8.0) == 4
    old = a.state()
    del old["box_motion"]  # a state stored before the approach: nothing learnt, no error
    c = PpgtaAgent(9, approach_steps=10, feat=16, mlp=16, local_hidden=8, global_hidden=16)
    c.set_state(old)
    assert c.motion.n.sum() == 0


class _Toy:
    """A box on screen that actions move as a first-person camera would: 4 turns left (the box moves right),
    5 turns right, 0 walks forward (it grows), every other action leaves it."""

    def __init__(self, cx: float, h: float) -> None:
        self.cx, self.h, self.shown = cx, h, True

    def boxes(self, frame=None) -> list[Any]:
        return [_box(self.cx, self.h)] if self.shown else []

    def move(self, a: int) -> None:
        self.cx += {4: 12.0, 5: -12.0}.get(a, 0.0)
        self.h *= 1.15 if a == 0 else 1.0


def _approacher(toy: _Toy):
    """A small PPGTA with approach_steps; its inspection demonstration begins with a 30 px box 4 px right of the
    middle, its preference demonstration turns and walks in the toy world (what `BoxMotion` learns from)."""
    frames, agent = _tiny_tester(7, 12, approach_steps=30)
    acts = [4, 4, 5, 5, 0, 0, 4, 5, 0, 0, 5, 4] * 2
    walk, seen = _Toy(60, 12), []
    for a in acts:
        seen.append(walk.boxes())
        walk.move(a)
    inspect = [[_box(84, 30)]] + [[_box(84, 34)]] * 6
    agent.demo_boxes = lambda fs: seen if len(fs) == len(acts) else inspect
    agent.demonstrate([Demo("d/path/a.json", [DemoStep(f, {}, a, 0.0) for f, a in zip(frames * 2, acts, strict=True)]),
                       Demo("d/inspect/b.json", [DemoStep(f, {}, 5, 0.0) for f in frames[:7]])])
    assert agent.fit_stats["approach_height"] == 30 and agent.fit_stats["approach_centre"] == 8
    agent.boxes = toy.boxes
    agent.attach(0, _Snapshots())
    agent.episode_start(0)
    return frames, agent


def test_a_test_first_turns_to_its_object_and_walks_up_to_it_then_inspects():
    from playtester.agents.common import Transition

    toy = _Toy(30, 12)  # a small box left of the middle
    frames, agent = _approacher(toy)
    played, at = [], []
    for _ in range(20):
        a = agent.act(frames[0], {})
        played.append((agent.slots[0].mode, a))  # the mode it acted in
        at.append((toy.cx, toy.h))  # where the box was when it acted
        toy.move(a)
        agent.observe(0, Transition(frames[0], a, 0.0, frames[1], False, False, {}, None, False))
    approach = [a for mode, a in played if mode == "approach"]
    # turned left until the box was within 8 px of the middle (30 -> 78), then walked until it was 30 px tall
    assert approach == [4] * 4 + [0] * 7, played
    assert agent.counts["tests"] == 1 and agent.counts["approaches_reached"] == 1 and agent.counts["approach"] == 11
    # then the inspection, for as long as its demonstration (7 steps); then exploration
    assert agent.counts["test"] == agent.fit_stats["test_limit"] == 7 and agent.counts["tests_at_limit"] == 1
    assert agent.counts["explore"] == 20 - 11 - 7 and [m for m, _ in played[11:18]] == ["test"] * 7
    assert abs(at[11][0] - 80) <= 8 and at[11][1] >= 30  # the inspection began where its demonstration did


def test_an_approach_that_loses_its_object_gives_the_test_up():
    from playtester.agents.common import Transition
    from playtester.agents.ppgta import APPROACH_LOST

    toy = _Toy(30, 12)
    frames, agent = _approacher(toy)

    def step() -> None:
        a = agent.act(frames[0], {})
        toy.move(a)
        agent.observe(0, Transition(frames[0], a, 0.0, frames[1], False, False, {}, None, False))

    step()
    step()
    assert agent.slots[0].mode == "approach"
    toy.shown = False
    for _ in range(APPROACH_LOST):
        step()
    assert agent.slots[0].mode == "approach"  # steering by the box last seen
    step()
    assert agent.slots[0].mode == "explore" and agent.counts["approaches_lost"] == 1 and agent.counts["tests_lost"] == 1
    assert agent.counts["test"] == 0 and agent.slots[0].since_test <= 1  # the cooldown holds off the next test


def test_on_the_park_box_motion_learns_that_turning_moves_boxes_and_walking_grows_them():
    """From the real park's frames (a random walk) and its detector: turning left moves an object's box right,
    turning right moves it left, walking forward makes it bigger and backwards smaller (no action is named)."""
    import playtester.vision  # noqa: F401 - registers the detector loader
    from playtester.agents.ppgta import BoxMotion
    from playtester.oracles.texture import load_judge

    judge, why = load_judge(str(ROOT / "src" / "playtester" / "vision" / "park-texture.pt"))
    assert judge is not None, why
    frames, actions = _park_walk(400, seed=6)
    m = BoxMotion(9, 160.0)
    m.add_episode([sorted((d for d in f if d[2] >= 0.5), key=lambda d: -(d[0][3] - d[0][1]))
                   for f in judge.detect_many(frames)], actions)
    t = m.table()
    forward, _strafe_left, back, _strafe_right, turn_left, turn_right = range(6)  # park.actions.yaml's order
    assert min(t["pairs"][a] for a in (forward, back, turn_left, turn_right)) >= 5, t
    assert t["shift_px"][turn_left] > 5 and t["shift_px"][turn_right] < -5, t
    assert t["growth"][forward] > 0 > t["growth"][back], t


# --------------------------------------------------------------------- a test that gains nothing (stale_steps)
@pytest.mark.parametrize("test_novelty, stale", [(0.1, True), (1.0, False)])
def test_a_test_whose_frames_are_no_longer_novel_ends_early(test_novelty, stale):
    """With ``stale_steps`` 3 a test ends once its last 3 frames were less novel than half exploration's mean
    (the RND ensemble's novelty: scripted here, 1.0 while exploring); as novel as exploration, it runs to its limit."""
    from playtester.agents.common import Transition

    frames, agent = _tiny_tester(5, 9, stale_steps=3)
    agent.demonstrate([Demo("d/path/a.json", [DemoStep(f, {}, i % 3, 0.0) for i, f in enumerate(frames)]),
                       Demo("d/inspect/b.json", [DemoStep(f, {}, 5, 0.0) for f in frames[:7]])])
    t = {"n": 0}
    agent.boxes = lambda frame: [((40.0, 30.0, 80.0, 90.0), "crate", 0.9)] if t["n"] >= 6 else []  # in view from step 6
    agent.rnd.novelty = lambda x: np.array([test_novelty if agent.slots[0].mode == "test" else 1.0])
    agent.attach(0, _Snapshots())
    agent.episode_start(0)
    modes = []
    for t["n"] in range(30):
        a = agent.act(frames[0], {})
        modes.append(agent.slots[0].mode)
        agent.observe(0, Transition(frames[0], a, 0.0, frames[1], False, False, {}, None, False))
    assert agent.counts["tests"] == 1
    if stale:  # 3 test steps observed, then the 4th act sees them and ends the test
        assert agent.counts["tests_stale"] == 1 and agent.counts["test"] == 3 and modes.count("test") == 3
    else:
        assert agent.counts["tests_stale"] == 0 and agent.counts["tests_at_limit"] == 1 and agent.counts["test"] == 7
    assert agent.explore_novelty[0] == pytest.approx(1.0)  # the mean of exploration steps only


def test_stale_needs_a_full_window_and_is_off_by_default():
    from collections import deque

    from playtester.agents.ppgta import SlotState

    a = PpgtaAgent(9, stale_steps=3, feat=16, mlp=16, local_hidden=8, global_hidden=16)
    a.explore_novelty = [1.0, 10]  # exploration's recent mean: 1.0
    st = SlotState(deque(), torch.zeros(1, 1, 16), test_novelty=deque([0.2, 0.3], maxlen=3))
    assert not a._stale(st)  # two of three
    st.test_novelty.append(0.1)
    assert a._stale(st)
    st.test_novelty.extend([0.6, 0.7, 0.5])
    assert not a._stale(st)
    off = PpgtaAgent(9, feat=16, mlp=16, local_hidden=8, global_hidden=16)
    off.explore_novelty = [1.0, 10]
    assert not off._stale(SlotState(deque(), torch.zeros(1, 1, 16), test_novelty=deque([0.0] * 5)))
    b = PpgtaAgent(9, stale_steps=3, feat=16, mlp=16, local_hidden=8, global_hidden=16)
    b.set_state(a.state())
    assert b.explore_novelty == [1.0, 10]  # kept for resume
