"""PPGTA, the preference-conditioned pixel-based game-testing agent (Abdelfattah, Brown and Zhang, paper 001,
Section IV), and its baseline Inspector (Liu et al. 2022, as paper 001 describes it). Single file, CleanRL style,
read top to bottom:

1. **Object masks** (`od_mask`). The objects of interest (OOIs) come from the game's object detector, the one
   its texture oracle uses (``[oracles] texture_model``, loaded through `playtester.oracles.texture.load_judge`;
   the campaign names it in ``CampaignInfo.detector``). The OD mask turns a frame grey except inside the box of
   the OOI under test (a frame with no OOI is all grey).
2. **Feature encoder by masked inverse dynamics** (`Encoder`, `InverseDynamics`, `fit_inverse_dynamics`): a small
   CNN learns to predict the action between two adjacent frames, one of them OD-masked at random. Trained from
   scratch on the demonstrations plus the agent's own first frames (``warmup_steps`` random steps: the
   demonstrator plays 3 of the 9 actions); 20% of the episodes are held out and its accuracy on them is reported
   (``idm_accuracy``).
3. **Memory-augmented imitation** (`Policy`, `fit_imitation`): the encoder, a local bi-directional GRU over the
   last ``k_frames`` frames, a global GRU over the trajectory so far, an MLP head on their concatenated states.
   Cross-entropy on the demonstrations plus the temporal consistency loss of Eq. 4: the student sees OD-masked
   frames, an EMA teacher the full frames, and the student's concatenated state is pulled towards the teacher's
   (DINO's cross-entropy between their softmaxed states, centred and sharpened teacher), weight ``lam``. Two
   policies: **inspection** (demonstrations whose path has a folder or name ``inspect_match``) and **path
   following**, the preference (every other demonstration). A preference is data: other demonstrations, another
   preferred style, and no code changes.
4. **Exploration** (`Ppo`, `RndEnsemble`): PPO whose actor and critic start from the path-following policy;
   intrinsic reward from an ensemble of ``rnd_members`` RND predictors on downsampled, OD-masked frames, ``r_e``
   = the variance of their predictions (replay buffer of 1024 transitions, as in the paper; each member trains
   on its own random half of each batch, as disagreement-based exploration does, or they agree and the variance
   collapses; divided by a running estimate of the spread of its discounted return, as RND implementations do);
   style reward ``r_p = -KL(pi_e || pi_p)`` against the path-following policy, as its one-sample estimate
   ``-(log pi_e(a_t) - log pi_p(a_t))`` (its expectation under pi_e is the KL; unlike the KL itself it depends on
   the action taken, so PPO learns from it: RLHF's PPO does the same); ``r = alpha r_p + (1 - alpha) r_e``
   with the paper's schedule (alpha starts at 0.8, falls by 0.05 to a floor of 0.5 when ``r_e`` drops by more
   than 0.1 between adjacent steps, rises by 0.1 back to 0.8 when it rises by more than 0.1: our reading of
   "once the change rises").
5. **Testing**: when the detector shows an OOI whose box is at least ``test_min_box`` pixels tall and no test ran
   in the last ``cooldown`` steps, the inspection policy takes over until ``test_steps`` pass or the OOI has been
   out of view for ``lost_steps`` steps; then exploration resumes. The verdicts are the texture oracle's (the
   campaign's), as for every agent. Pixels cannot tell two barrels apart, so "untested" is approximated by the
   cooldown; the agent cannot know when every face has been seen (that is the probe's ground truth), so the
   test ends by the step limit or when the object is lost. With ``approach_steps`` (ours, off by default) a test
   first steers its object to where the inspection demonstrations began (`BoxMotion`, `PpgtaAgent._approach`);
   with ``stale_steps`` (ours, off by default) a test whose recent frames the RND ensemble finds much less novel
   than exploration's ends early (`PpgtaAgent._stale`).

``inspector`` (`InspectorAgent`): the same pipeline with what paper 001 says its predecessor lacked: one RND
predictor on unmasked frames (``r_e`` = its prediction error), no preference (alpha 0: PPO from random weights on
the novelty reward alone), and plain behaviour cloning for the inspection policy (no mask, no consistency loss).

**Scaled down from the paper, for a CPU with 2 shared cores** (networks, data and steps; each choice is a field
of `PpgtaConfig`, overridable with ``--agent ppgta:key=value``):

- No pretrained backbone is reachable (the paper fine-tunes AlexNet): a 3-layer CNN trained from scratch on
  64x48 frames (paper 128x128), then **frozen**: the imitation and PPO stages train what is on top of it (a
  projection, the GRUs and the heads) on features computed once per frame; the paper fine-tunes the backbone
  through the imitation loss too.
- GRU sizes 64 (local, each direction) and 128 (global) with a 128-unit MLP (paper 256, 1024, 512 + 256).
- RND on 32x24 frames with MLP target and predictors (paper 64x64 through the backbone, MLPs 512 and 256): the
  encoder, trained to tell actions apart, discards where the player is.
- PPO updates the local GRU and the heads; the global GRU's state is stored with each step as an input (the
  projection and global GRU stay as the path-following policy learnt them, so ``pi_p`` and ``pi_e`` share them).
  Its value loss trains the value head alone (``value_detached``; Inspector, from random weights, keeps CleanRL's
  shared loss): the critic starts untrained, and through the shared layers its first losses rewrote the imitation.
- Demonstrations: at most ``max_demo_steps`` steps of them are used (whole episodes, picked at random); the
  imitation trains for ``il_updates`` minibatches of trajectory chunks (the inspection policy for
  ``inspect_il_updates``; truncated backpropagation through time, the global GRU starting each chunk from its
  state along the whole trajectory), not 40 epochs with early stopping; held out per kind: round(20%) of the
  episodes, at least one left to train on.

Hyper-parameters marked (paper) are paper 001's; PPO's are CleanRL's ``ppo.py`` defaults (the paper uses
Inspector's, which it does not list); the others are ours.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import time
import warnings
from collections import deque
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from playtester.agents.common import (
    Demo,
    Explorer,
    RunningNorm,
    Transition,
    make_config,
    random_valid,
    setup_torch,
)
from playtester.drive.observation import resize_nearest
from playtester.errors import ConfigError, NoValidActionError, UsageError
from playtester.files import cache_dir, write_atomic

CAPTURE = (160, 120)  # the agent's frames: the detector's own input size


STALE_WINDOW = 500  # stale_steps: exploration's novelty is averaged over this many recent steps (the ensemble learns)
TEST_STEPS_FALLBACK = 300  # a test's step limit with test_steps 0 and no inspection demonstration kept
LOST_STEPS_FALLBACK = 30  # lost_steps 0 and no inspection demonstration kept with a box big enough to test


@dataclass
class PpgtaConfig:
    """Hyper-parameters of PPGTA (and of Inspector, which changes a few: see `InspectorAgent`)."""

    # ---- frames and the detector
    frame_w: int = 64
    """Width of the networks' input frames (paper 128; 64x48 keeps a CNN step under a millisecond)."""
    frame_h: int = 48
    """Height of the networks' input frames."""
    detector: str = ""
    """Model bundle of the object detector; empty: the campaign's (the texture oracle's ``texture_model``)."""
    min_score: float = 0.5
    """Detector score from which a box is an OOI."""
    od_mask: bool = True
    """Students see OD-masked frames (paper); False: full frames everywhere (Inspector)."""
    # ---- encoder (masked inverse dynamics)
    feat: int = 128
    """Encoder output size."""
    warmup_steps: int = 1000
    """Random steps the agent plays before it trains: its own frames for the inverse dynamics (ours)."""
    idm_updates: int = 600
    """Adam updates of the inverse-dynamics encoder (minibatches of ``batch`` pairs)."""
    batch: int = 64
    """Minibatch size of the encoder and imitation training (paper: 64)."""
    lr: float = 1e-3
    """AdamW learning rate of the encoder and the imitation (paper: warm-up 2e-3 to 1e-2, cosine; ours a flat 1e-3 for far fewer updates)."""
    held_out: float = 0.2
    """Share of the demonstration episodes held out to report accuracies (paper: 70/10/20)."""
    max_demo_steps: int = 30000
    """Most demonstration steps used (whole episodes at random); the rest are ignored (memory and time)."""
    inspect_match: str = "inspect"
    """A demonstration whose source has a folder of this name, or a file name starting with it, shows OOI
    inspection; every other demonstration shows the preferred exploration style."""
    # ---- imitation (memory-augmented, with the EMA teacher)
    k_frames: int = 4
    """Frames the local bi-GRU sees (paper: a stack of 4)."""
    local_hidden: int = 64
    """Local bi-GRU hidden size per direction (paper 256)."""
    global_hidden: int = 128
    """Global GRU hidden size (paper 1024)."""
    mlp: int = 128
    """Width of the MLP head's two layers (paper 512 and 256; layer norm and dropout 0.2 as the paper)."""
    il_updates: int = 300
    """AdamW updates of the path-following imitation policy (minibatches of ``il_episodes`` chunks of ``il_chunk``
    steps)."""
    inspect_il_updates: int = 1000
    """AdamW updates of the inspection policy. Chosen on development starts (`bench/ppgta_inspect.py`, episode
    seeds from 95001, 150 orbit inspections): against 300, held-out action accuracy 86.0% -> 88.8% and starts
    with an object tested 15 -> 23 of 40; on held-out starts (90001 on) 15 -> 23 of 30, for 1.5 to 3 minutes more
    of fitting."""
    il_episodes: int = 16
    """Chunks per imitation minibatch, each from a random episode."""
    il_chunk: int = 48
    """Steps per chunk (truncated backpropagation through time; the global GRU starts each chunk from its
    state along the whole trajectory, recomputed every ``il_refresh`` updates)."""
    il_refresh: int = 50
    """Updates between recomputations of the global GRU's states along the trajectories."""
    lam: float = 0.1
    """Weight of the temporal consistency loss (Eq. 4's lambda; not given in the paper)."""
    ema: float = 0.99
    """EMA rate of the teacher (DINO: 0.996 over far more updates)."""
    teacher_temp: float = 0.04
    """DINO's teacher temperature."""
    student_temp: float = 0.1
    """DINO's student temperature."""
    # ---- exploration: RND ensemble, style reward, PPO
    rnd_members: int = 5
    """Predictors in the RND ensemble (paper: an ensemble; 1 = the original RND, Inspector)."""
    rnd_buffer: int = 1024
    """Replay buffer of the RND predictors in transitions (paper: 1024)."""
    rnd_w: int = 32
    """Width of the RND input frames (paper 64x64)."""
    rnd_h: int = 24
    """Height of the RND input frames."""
    rnd_out: int = 64
    """Output size of the RND target and predictors."""
    rnd_every: int = 4
    """Steps between RND training updates (each one minibatch of ``batch`` from the buffer)."""
    rnd_lr: float = 1e-3
    """AdamW learning rate of the predictors."""
    alpha: float = 0.8
    """Initial and highest weight of the style reward (paper: 0.8; 0 = novelty only)."""
    alpha_min: float = 0.5
    """Floor of alpha (paper: 0.5)."""
    alpha_down: float = 0.05
    """Alpha falls by this when the novelty drops (paper: 0.05)."""
    alpha_up: float = 0.1
    """Alpha rises by this when the novelty recovers (paper: 0.1)."""
    novelty_eps: float = 0.1
    """A change of the novelty reward between adjacent steps beyond this is a drop or a rise (paper: 0.1)."""
    ppo_from_preference: bool = True
    """PPO's actor and critic start from the path-following policy (paper); False: random weights."""
    value_detached: bool = True
    """The value loss trains the value head alone, not the layers it shares with the actor (ours). PPO's critic
    starts from the path-following policy, whose value head imitation never trained: its first losses, on
    normalized novelty returns, are far larger than the policy's, and through the shared layers they rewrote
    what imitation had learnt."""
    act_temp: float = 1.0
    """Temperature of the exploration policy: it samples from softmax(logits / act_temp), PPO's ratios and the
    style reward's ``pi_p`` use the same (1: the paper's, plain sampling)."""
    n_steps: int = 128
    """Steps per slot per PPO rollout (CleanRL: 128)."""
    ppo_epochs: int = 4
    """PPO epochs per rollout (CleanRL: 4)."""
    minibatches: int = 4
    """PPO minibatches per epoch (CleanRL: 4)."""
    ppo_lr: float = 2.5e-4
    """PPO's Adam learning rate (CleanRL: 2.5e-4)."""
    gamma: float = 0.99
    """Discount (CleanRL: 0.99)."""
    gae_lambda: float = 0.95
    """GAE lambda (CleanRL: 0.95)."""
    clip: float = 0.2
    """PPO's clipping (CleanRL: 0.2)."""
    ent_coef: float = 0.01
    """Entropy bonus (CleanRL: 0.01)."""
    vf_coef: float = 0.5
    """Value loss weight (CleanRL: 0.5)."""
    max_grad_norm: float = 0.5
    """Gradient clipping (CleanRL: 0.5)."""
    # ---- testing
    tests: bool = True
    """Start object tests (needs inspection demonstrations); false: explore only, from the preference alone (a
    game with no inspection demonstrations, e.g. ViZDoom's)."""
    test_min_box: float = 10.0
    """An OOI box at least this many pixels tall (of 120: 40 window pixels) starts a test."""
    test_steps: int = 0
    """Most steps of one test; 0: as many as the longest inspection demonstration kept (of those given, within
    ``max_demo_steps``). The agent cannot tell when every face has been seen, so it inspects for as long as the
    demonstrator ever did: the park's orbit inspections, 145 steps; the older demonstrator's, about 300 (this
    field's fixed default until the orbit inspections came)."""
    lost_steps: int = 30
    """A test ends when no OOI box big enough to start a test (``test_min_box``) has been seen for more than this
    many steps; 0: the longest the inspection demonstrations kept ever went without one, after their first (the
    park's orbit inspections: 9 steps). 0 was better on the development seeds and worse on the reported ones
    (README, ``ppgta_lost_limit``), so the default stays 30."""
    cooldown: int = 100
    """Steps after a test before another may start (pixels cannot tell two objects of a kind apart)."""
    approach_steps: int = 0
    """Most steps of a test's approach (ours; 0: none, the paper's, the inspection policy takes over at once). With
    N > 0 a test first steers towards the OOI that started it, turning until its box is centred and walking until
    it is as big as at the inspection demonstrations' first frames (`BoxMotion`: which action moves a box where is
    learnt from adjacent frames of the demonstrations and the agent's own play, so no action is named), for at
    most N steps, then the inspection policy takes over. The demonstrations the policy imitates all begin near
    their object; a campaign's tests began wherever a box first got big enough. Tried on the park with N = 40 and not
    adopted: tests gained faces almost twice as often, the campaigns finished fewer objects (README, "A test's
    approach")."""
    stale_steps: int = 0
    """A test ends when the novelty of its last N steps' OD-masked frames (the RND ensemble's) averages less than
    ``stale_ratio`` times its mean over the last 500 exploration steps (ours; 0: off, the paper's). The ensemble is trained on every step, so an object whose faces the agent has seen, in this test or
    an earlier one, shows little novelty: a pixel-only sign that the test gains nothing. N and the ratio were
    fixed before any run. Tried on the park with N = 20 and not adopted: an inspection's frames are less novel than
    exploration's whether it gains or not, so nearly every test ended at its 21st step and the campaigns finished
    half as many objects (README, "A test that ends when its frames stop being novel")."""
    stale_ratio: float = 0.5
    """See ``stale_steps``."""
    after_test: str = "stay"
    """Where exploration resumes after a test: ``stay`` (the paper: where the test left the player) or ``return``
    (restore the snapshot of the game taken when the test began, with the exploration policy's memory of then, on
    games whose workers park snapshots, e.g. pygame's; elsewhere as ``stay``). The test's steps still count; the
    return takes none. The test ends its episode in the campaign's record (outcome ``agent``) and the return
    starts the next one (not fresh: no new seed). The campaign's episode still ends after ``max_episode_steps``
    steps, its tests included (the game's own count went back with the snapshot), and no test starts after a
    return until a frame shows no OOI (the one in view is the one just tested)."""


# ------------------------------------------------------------------------------------------- frames
def gray3(frame: np.ndarray) -> np.ndarray:
    """An RGB frame in grey, still 3 channels."""
    g = (frame[..., 0] * 0.299 + frame[..., 1] * 0.587 + frame[..., 2] * 0.114).astype(np.uint8)
    return np.repeat(g[..., None], 3, axis=-1)


def od_mask(frame: np.ndarray, box: tuple[float, float, float, float] | None) -> np.ndarray:
    """Paper 001's OD mask: grey everywhere except inside ``box`` (x0, y0, x1, y1 in ``frame``'s pixels);
    with no box, the whole frame grey."""
    out = gray3(frame)
    if box is not None:
        h, w = frame.shape[:2]
        x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
        x1, y1 = min(w, int(math.ceil(box[2]))), min(h, int(math.ceil(box[3])))
        if x1 > x0 and y1 > y0:
            out[y0:y1, x0:x1] = frame[y0:y1, x0:x1]
    return out


def longest_gap(seen: list[bool]) -> int:
    """The longest run of False in ``seen``."""
    best = run = 0
    for x in seen:
        run = 0 if x else run + 1
        best = max(best, run)
    return best


APPROACH_LOST = 5  # an approach is given up when no box big enough to test was seen for more steps than this


class BoxMotion:
    """How each action moves an OOI's box on screen, learnt from pairs of adjacent frames: for each action, the
    mean shift of the box's centre (pixels, right positive) and the mean log-ratio of its height (> 0: it grows,
    the object nears). A pair counts when the first frame's biggest box has a box of the same kind in the next
    frame whose centre moved less than ``reach`` of the frame's width (the nearest such: the same object)."""

    def __init__(self, n_actions: int, width: float, min_count: int = 5, reach: float = 0.35) -> None:
        self.width, self.min_count, self.reach = width, min_count, reach
        self.n = np.zeros(n_actions)
        self.dx = np.zeros(n_actions)
        self.dh = np.zeros(n_actions)

    def add(self, before: Any, after: list[Any], action: int) -> None:
        """``before``: the first frame's biggest detection (box, kind, score) or None; ``after``: the next frame's."""
        if before is None or not after:
            return
        (x0, y0, x1, y1), kind = before[0], before[1]
        cx, h = (x0 + x1) / 2, y1 - y0
        near = [d for d in after if d[1] == kind and abs((d[0][0] + d[0][2]) / 2 - cx) < self.reach * self.width]
        if not near or h <= 0:
            return
        b = min(near, key=lambda d: abs((d[0][0] + d[0][2]) / 2 - cx))[0]
        if b[3] - b[1] <= 0:
            return
        self.n[action] += 1
        self.dx[action] += (b[0] + b[2]) / 2 - cx
        self.dh[action] += math.log((b[3] - b[1]) / h)

    def add_episode(self, found: list[list[Any]], actions: Any) -> None:
        """Every adjacent pair of one trajectory (``found``: each frame's detections, biggest first)."""
        for t in range(len(found) - 1):
            self.add(found[t][0] if found[t] else None, found[t + 1], int(actions[t]))

    def steer(self, box: tuple[float, ...], tol: float, mask: Any = None) -> int | None:
        """The action that brings ``box``'s centre within ``tol`` pixels of the middle the most, while it is
        outside; then the one that grows it the most. None: no action known well enough does either."""
        known = self.n >= self.min_count
        if mask is not None:
            known &= np.asarray(mask) > 0
        if not known.any():
            return None
        n = np.maximum(self.n, 1)
        err = (box[0] + box[2]) / 2 - self.width / 2
        if abs(err) > tol:
            after = np.where(known, np.abs(err + self.dx / n), np.inf)
            a = int(np.argmin(after))
            if after[a] < abs(err):
                return a
        gain = np.where(known, self.dh / n, -np.inf)
        a = int(np.argmax(gain))
        return a if gain[a] > 0 else None

    def state(self) -> dict[str, list[float]]:
        return {"n": self.n.tolist(), "dx": self.dx.tolist(), "dh": self.dh.tolist()}

    def set_state(self, state: dict[str, list[float]]) -> None:
        self.n, self.dx, self.dh = (np.array(state[k], dtype=np.float64) for k in ("n", "dx", "dh"))

    def table(self) -> dict[str, list[float]]:
        n = np.maximum(self.n, 1)
        return {"pairs": self.n.astype(int).tolist(), "shift_px": np.round(self.dx / n, 2).tolist(),
                "growth": np.round(self.dh / n, 4).tolist()}


def scale_box(box: tuple[float, ...] | None, src: tuple[int, int], dst: tuple[int, int]) -> tuple[float, ...] | None:
    """A box from a frame of ``src`` (width, height) to one of ``dst``."""
    if box is None:
        return None
    sx, sy = dst[0] / src[0], dst[1] / src[1]
    return (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy)


def to_chw(frames: np.ndarray) -> torch.Tensor:
    """uint8 (N, H, W, 3) -> float (N, 3, H, W) in [0, 1]."""
    return torch.as_tensor(frames).permute(0, 3, 1, 2).float() / 255.0


# ------------------------------------------------------------------------------ encoder (Sec. IV-A)
class Encoder(nn.Module):
    """The feature encoder (FE): three strided convolutions and a linear layer."""

    def __init__(self, w: int, h: int, feat: int) -> None:
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 16, 5, stride=2, padding=2), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten())
        with torch.no_grad():
            n = self.conv(torch.zeros(1, 3, h, w)).shape[1]
        self.fc = nn.Sequential(nn.Linear(n, feat), nn.ReLU())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.conv(x))


class InverseDynamics(nn.Module):
    """Eq. 3: the action between two adjacent frames, from their encodings."""

    def __init__(self, encoder: Encoder, feat: int, n_actions: int) -> None:
        super().__init__()
        self.encoder = encoder
        self.head = nn.Sequential(nn.Linear(2 * feat, 128), nn.ReLU(), nn.Linear(128, n_actions))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return self.head(torch.cat([self.encoder(a), self.encoder(b)], -1))


@dataclass
class Pairs:
    """Adjacent frame pairs (uint8, N x H x W x 3, full and masked) and the action between them."""

    first: np.ndarray
    first_masked: np.ndarray
    second: np.ndarray
    second_masked: np.ndarray
    actions: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


def fit_inverse_dynamics(model: InverseDynamics, train: Pairs, test: Pairs | None, updates: int, batch: int,
                         lr: float, rng: np.random.Generator) -> dict[str, float]:
    """Train ``model`` (encoder included) to predict actions; one frame of each pair OD-masked at random (the
    paper's augmentation). Returns the accuracy on ``train`` and, when given, on the held-out ``test``."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    for _ in range(updates):
        idx = rng.integers(len(train), size=min(batch, len(train)))
        which = rng.integers(3, size=len(idx))  # 0: neither masked, 1: the first, 2: the second
        a = np.where((which == 1)[:, None, None, None], train.first_masked[idx], train.first[idx])
        b = np.where((which == 2)[:, None, None, None], train.second_masked[idx], train.second[idx])
        loss = F.cross_entropy(model(to_chw(a), to_chw(b)), torch.as_tensor(train.actions[idx]))
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    out = {"idm_train_accuracy": idm_accuracy(model, train)}
    if test is not None and len(test):
        out["idm_accuracy"] = idm_accuracy(model, test)
        out["idm_test_pairs"] = float(len(test))
    return out


@torch.no_grad()
def idm_accuracy(model: InverseDynamics, pairs: Pairs) -> float:
    right = 0
    for i in range(0, len(pairs), 256):
        s = slice(i, i + 256)
        pred = model(to_chw(pairs.first[s]), to_chw(pairs.second_masked[s])).argmax(-1).numpy()
        right += int((pred == pairs.actions[s]).sum())
    return right / max(1, len(pairs))


@torch.no_grad()
def encode(encoder: Encoder, frames: np.ndarray) -> np.ndarray:
    """Features of uint8 frames (N, H, W, 3), in batches."""
    out = [encoder(to_chw(frames[i:i + 512])).numpy() for i in range(0, len(frames), 512)]
    return np.concatenate(out) if out else np.zeros((0, encoder.fc[0].out_features), np.float32)


# ---------------------------------------------------------------------- imitation policy (Sec. IV-B)
class Policy(nn.Module):
    """On encoder features: a projection, a local bi-GRU over the last K frames, a global GRU over the
    trajectory, and an MLP head (action logits; a value head for PPO). ``state`` is the concatenated h^c."""

    def __init__(self, feat: int, n_actions: int, cfg: PpgtaConfig) -> None:
        super().__init__()
        d = cfg.mlp
        self.proj = nn.Sequential(nn.Linear(feat, d), nn.LayerNorm(d), nn.ReLU())
        self.local = nn.GRU(d, cfg.local_hidden, batch_first=True, bidirectional=True)
        self.glob = nn.GRU(d, cfg.global_hidden, batch_first=True)
        self.body = nn.Sequential(nn.Linear(2 * cfg.local_hidden + cfg.global_hidden, d), nn.LayerNorm(d), nn.ReLU(),
                                  nn.Dropout(0.2), nn.Linear(d, d), nn.LayerNorm(d), nn.ReLU())
        self.actor = nn.Linear(d, n_actions)
        self.critic = nn.Linear(d, 1)
        self.k = cfg.k_frames

    def local_state(self, windows: torch.Tensor) -> torch.Tensor:
        """(B, K, d) projected windows -> (B, 2 * local_hidden): the last hidden state of each direction."""
        _, h = self.local(windows)
        return torch.cat([h[0], h[1]], -1)

    def heads(self, hc: torch.Tensor, detach_value: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
        """Action logits and value; ``detach_value``: the value's gradient stops at the value head."""
        z = self.body(hc)
        return self.actor(z), self.critic(z.detach() if detach_value else z).squeeze(-1)

    def sequence(self, feats: torch.Tensor, h0: torch.Tensor | None = None) -> torch.Tensor:
        """(B, T, feat) trajectories (from the start, or from the global GRU state ``h0``, (1, B, hidden)) ->
        (B, T, h^c): every step's concatenated state."""
        p = self.proj(feats)
        g, _ = self.glob(p, h0)
        B, T, d = p.shape
        idx = (torch.arange(T)[:, None] + torch.arange(-self.k + 1, 1)[None]).clamp(min=0)  # (T, K)
        windows = p[:, idx].reshape(B * T, self.k, d)
        return torch.cat([self.local_state(windows).reshape(B, T, -1), g], -1)


@dataclass
class Episodes:
    """Demonstration episodes as encoder features: the student's (masked) and the teacher's (full)."""

    masked: list[np.ndarray]
    full: list[np.ndarray]
    actions: list[np.ndarray]

    def batch(self, idx: Any, starts: Any = None, length: int | None = None, context: int = 0
              ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, list[int]]:
        """Padded (B, T, feat) tensors (student's, teacher's), the actions (B, T), the mask of the steps to learn
        from (B, T), and where each row starts: episode ``idx[j]`` from ``starts[j]`` for ``length`` steps (whole
        episodes without them), preceded by up to ``context`` earlier steps (in the rows, not in the mask: the
        local window's frames before a chunk)."""
        rows = []
        for j, i in enumerate(idx):
            n = len(self.actions[i])
            s = 0 if starts is None else int(starts[j])
            e = n if length is None else min(n, s + length)
            rows.append((i, max(0, s - context), s, e))
        T = max(e - b for _, b, _, e in rows)
        B, f = len(idx), self.masked[0].shape[1]
        m, full = np.zeros((B, T, f), np.float32), np.zeros((B, T, f), np.float32)
        acts, valid = np.zeros((B, T), np.int64), np.zeros((B, T), np.float32)
        for j, (i, b, s, e) in enumerate(rows):
            m[j, :e - b], full[j, :e - b], acts[j, :e - b] = self.masked[i][b:e], self.full[i][b:e], self.actions[i][b:e]
            valid[j, s - b:e - b] = 1
        return (torch.as_tensor(m), torch.as_tensor(full), torch.as_tensor(acts), torch.as_tensor(valid),
                [b for _, b, _, _ in rows])


@torch.no_grad()
def global_states(policy: Policy, feats: list[np.ndarray], batch: int = 16) -> list[np.ndarray]:
    """The global GRU's state after each step of each whole trajectory (T, hidden), for chunked training."""
    out = []
    for k in range(0, len(feats), batch):
        group = feats[k:k + batch]
        T = max(len(f) for f in group)
        x = np.zeros((len(group), T, group[0].shape[1]), np.float32)
        for j, f in enumerate(group):
            x[j, :len(f)] = f
        g, _ = policy.glob(policy.proj(torch.as_tensor(x)))
        out += [g[j, :len(f)].numpy() for j, f in enumerate(group)]
    return out


def initial_states(states: list[np.ndarray], idx: Any, begins: list[int], hidden: int) -> torch.Tensor:
    """(1, B, hidden): the global state before step ``begins[j]`` of trajectory ``idx[j]`` (zeros at its start)."""
    h = np.zeros((1, len(idx), hidden), np.float32)
    for j, (i, b) in enumerate(zip(idx, begins, strict=True)):
        if b > 0:
            h[0, j] = states[i][b - 1]
    return torch.as_tensor(h)


def fit_imitation(policy: Policy, train: Episodes, test: Episodes | None, cfg: PpgtaConfig,
                  rng: np.random.Generator, consistency: bool = True) -> dict[str, float]:
    """Eq. 4: cross-entropy on the demonstrator's actions plus ``lam`` times the consistency between the student's
    h^c (masked frames) and its EMA teacher's (full frames), DINO-style (centred, sharpened teacher softmax).
    Returns the action accuracy on ``train`` and, when given, on the held-out ``test``."""
    teacher = copy.deepcopy(policy).eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    center = torch.zeros(2 * cfg.local_hidden + cfg.global_hidden)
    opt = torch.optim.AdamW(policy.parameters(), lr=cfg.lr)
    n = len(train.actions)
    lengths = np.array([len(a) for a in train.actions])
    policy.train()
    for u in range(cfg.il_updates):
        if u % cfg.il_refresh == 0:  # the global GRU's states along every whole trajectory (truncated BPTT)
            s_states = global_states(policy, train.masked)
            t_states = global_states(teacher, train.full)
        idx = rng.integers(n, size=cfg.il_episodes)
        starts = (rng.random(len(idx)) * np.maximum(1, lengths[idx] - cfg.il_chunk + 1)).astype(int)
        masked, full, acts, valid, begins = train.batch(idx, starts, cfg.il_chunk, cfg.k_frames - 1)
        hc = policy.sequence(masked, initial_states(s_states, idx, begins, cfg.global_hidden))
        logits, _ = policy.heads(hc)
        ce = (F.cross_entropy(logits.reshape(-1, logits.shape[-1]), acts.reshape(-1), reduction="none")
              * valid.reshape(-1)).sum() / valid.sum()
        loss = ce
        if consistency and cfg.lam > 0:
            with torch.no_grad():
                ht = teacher.sequence(full, initial_states(t_states, idx, begins, cfg.global_hidden))
                pt = F.softmax((ht - center) / cfg.teacher_temp, -1)
            ls = F.log_softmax(hc / cfg.student_temp, -1)
            cons = (-(pt * ls).sum(-1) * valid).sum() / valid.sum()
            loss = ce + cfg.lam * cons
            center = 0.9 * center + 0.1 * (ht * valid[..., None]).sum((0, 1)) / valid.sum()
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
        opt.step()
        with torch.no_grad():
            for pt_, ps in zip(teacher.parameters(), policy.parameters(), strict=True):
                pt_.mul_(cfg.ema).add_(ps.detach(), alpha=1 - cfg.ema)
    policy.eval()
    out = {"train_accuracy": imitation_accuracy(policy, train)}
    if test is not None and test.actions:
        out["accuracy"] = imitation_accuracy(policy, test)
    return out


@torch.no_grad()
def imitation_accuracy(policy: Policy, eps: Episodes) -> float:
    """The share of the demonstrator's actions the policy's most likely action matches, over whole trajectories."""
    right = total = 0
    for k in range(0, len(eps.actions), 16):
        masked, _, acts, valid, _ = eps.batch(list(range(k, min(k + 16, len(eps.actions)))))
        logits, _ = policy.heads(policy.sequence(masked))
        right += int(((logits.argmax(-1) == acts).float() * valid).sum())
        total += int(valid.sum())
    return right / max(1, total)


# ---------------------------------------------------------------------------- novelty (Sec. IV-C)
class RndEnsemble:
    """RND with ``members`` predictors: a fixed random target and predictors trained (MSE) to match it on a replay
    buffer of ``capacity`` inputs. The novelty of an input is the variance of the predictions across members
    (paper 001), or with one member the original RND's prediction error. Inputs are standardized by running
    statistics, clipped to +-5 (as Burda et al.)."""

    def __init__(self, n_in: int, members: int, out: int, capacity: int, lr: float, seed: int) -> None:
        def mlp(hidden: int) -> nn.Module:
            return nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, out))

        self.target = mlp(128)
        for p in self.target.parameters():
            p.requires_grad_(False)
        self.predictors = nn.ModuleList(mlp(128) for _ in range(members))
        self.opt = torch.optim.AdamW(self.predictors.parameters(), lr=lr)
        self.norm = RunningNorm(n_in)
        self.buffer = np.zeros((capacity, n_in), np.float32)
        self.size = self.pos = 0
        self.rng = np.random.default_rng(seed)
        self.updates = 0

    def add(self, x: np.ndarray) -> None:
        self.norm.update(x)
        self.buffer[self.pos] = x
        self.pos = (self.pos + 1) % len(self.buffer)
        self.size = min(self.size + 1, len(self.buffer))

    @torch.no_grad()
    def novelty(self, x: np.ndarray) -> np.ndarray:
        """The novelty of each row of ``x`` (N, n_in)."""
        z = torch.as_tensor(self.norm(np.atleast_2d(x)))
        preds = torch.stack([p(z) for p in self.predictors])  # (M, N, out)
        if len(self.predictors) == 1:
            return ((preds[0] - self.target(z)) ** 2).mean(-1).numpy()
        return preds.var(0, unbiased=False).mean(-1).numpy()

    def train(self, batch: int) -> float:
        """One update: each member on its own random half of a minibatch from the buffer."""
        if self.size < batch:
            return 0.0
        z = torch.as_tensor(self.norm(self.buffer[self.rng.integers(self.size, size=batch)]))
        with torch.no_grad():
            y = self.target(z)
        loss = torch.zeros(())
        for p in self.predictors:
            keep = torch.as_tensor(self.rng.random(batch) < (0.5 if len(self.predictors) > 1 else 1.0))
            if keep.any():
                loss = loss + F.mse_loss(p(z[keep]), y[keep])
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.updates += 1
        return float(loss.detach())


class Alpha:
    """Paper 001's adaptive mix of style and novelty: falls by ``down`` to ``low`` when the novelty drops by
    more than ``eps`` between adjacent steps, rises by ``up`` back to ``high`` when it rises by more than ``eps``."""

    def __init__(self, high: float, low: float, down: float, up: float, eps: float) -> None:
        self.high, self.low, self.down, self.up, self.eps = high, min(low, high), down, up, eps
        self.value = high
        self.last: float | None = None

    def update(self, novelty: float) -> float:
        if self.last is not None:
            change = novelty - self.last
            if change < -self.eps:
                self.value = max(self.low, self.value - self.down)
            elif change > self.eps:
                self.value = min(self.high, self.value + self.up)
        self.last = novelty
        return self.value


# -------------------------------------------------------------------------------------------- PPO
def gae(rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, next_value: float, gamma: float,
        lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Generalized advantage estimates and returns of one rollout (``dones[t]``: the episode ended after step t)."""
    adv = np.zeros(len(rewards), np.float32)
    last = 0.0
    for t in reversed(range(len(rewards))):
        nv = next_value if t == len(rewards) - 1 else values[t + 1]
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * nv * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv, adv + values


class Ppo:
    """CleanRL's PPO (clipped objective, GAE, normalized advantages, entropy bonus) on a `Policy` whose projection
    and global GRU are frozen: each step stores its projected window and global state as inputs."""

    def __init__(self, policy: Policy, cfg: PpgtaConfig, generator: torch.Generator | None = None) -> None:
        self.net, self.cfg, self.gen = policy, cfg, generator
        for p in list(policy.proj.parameters()) + list(policy.glob.parameters()):
            p.requires_grad_(False)
        self.opt = torch.optim.Adam([p for p in policy.parameters() if p.requires_grad], lr=cfg.ppo_lr, eps=1e-5)
        critic = set(policy.critic.parameters())
        self.clip_groups = [[p for p in policy.parameters() if p not in critic], list(critic)] if cfg.value_detached \
            else [list(policy.parameters())]
        self.updates = 0
        self.last: dict[str, float] = {}

    def update(self, roll: dict[str, np.ndarray], next_value: float) -> None:
        c = self.cfg
        adv, ret = gae(roll["rewards"], roll["values"], roll["dones"], next_value, c.gamma, c.gae_lambda)
        win, g = torch.as_tensor(roll["windows"]), torch.as_tensor(roll["globals"])
        acts, old_logp = torch.as_tensor(roll["actions"]), torch.as_tensor(roll["logp"])
        masks = torch.as_tensor(roll["masks"])
        adv_t, ret_t = torch.as_tensor(adv), torch.as_tensor(ret)
        n = len(acts)
        size = max(1, n // c.minibatches)  # the net stays in eval mode: no dropout, the ratios are exact
        for _ in range(c.ppo_epochs):
            order = torch.randperm(n, generator=self.gen)
            for i in range(0, n, size):
                mb = order[i:i + size]
                logits, value = self.net.heads(torch.cat([self.net.local_state(win[mb]), g[mb]], -1),
                                               detach_value=c.value_detached)
                logits = logits / c.act_temp
                logits = torch.where(masks[mb] > 0, logits, torch.finfo(logits.dtype).min)
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(acts[mb])
                log_ratio = logp - old_logp[mb]
                ratio = log_ratio.exp()
                a = adv_t[mb]
                a = (a - a.mean()) / (a.std() + 1e-8) if len(mb) > 1 else a
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - c.clip, 1 + c.clip)).mean()
                v_loss = 0.5 * ((value - ret_t[mb]) ** 2).mean()
                ent = dist.entropy().mean()
                loss = pg - c.ent_coef * ent + c.vf_coef * v_loss
                self.opt.zero_grad()
                loss.backward()
                for group in self.clip_groups:  # with value_detached, the value head's norm apart (no coupling)
                    nn.utils.clip_grad_norm_(group, c.max_grad_norm)
                self.opt.step()
        self.updates += 1
        self.last = {"pg_loss": float(pg.detach()), "v_loss": float(v_loss.detach()), "entropy": float(ent.detach()),
                     "approx_kl": float(((ratio - 1) - log_ratio).mean().detach())}  # CleanRL's, last minibatch


# ------------------------------------------------------------------------------------------ the agent
@dataclass
class SlotState:
    """One worker's running episode, as the agent tracks it."""

    window: deque  # encoder features of the last K frames (masked)
    g: torch.Tensor  # global GRU state of the exploration policy (shared with pi_p: same frozen GRU)
    mode: str = "explore"  # explore | approach | test
    test_window: deque | None = None
    test_g: torch.Tensor | None = None
    test_steps: int = 0
    approach: int = 0  # steps of this test's approach so far (mode approach)
    target: tuple[float, ...] | None = None  # the box the approach steers by (the last one seen)
    lost: int = 0
    since_test: int = 10**9
    det: Any = None  # the biggest OOI detection of this step's frame: (box in the agent's pixels, kind, score)
    pending: dict[str, Any] | None = None  # the PPO step awaiting its reward
    alpha: Alpha | None = None
    disc: float = 0.0  # discounted novelty return (its running spread scales the novelty)
    prev_pair: tuple[np.ndarray, np.ndarray] | None = None  # warm-up: this frame, full and masked
    back: Any = None  # after_test=return: (snapshot of the game, exploration memory) taken when the test began
    returning: bool = False  # the test has ended: this step's observe ends the episode, episode_start restores
    played: int = 0  # steps of this campaign episode, the tests it returned from included
    returned: bool = False  # this campaign episode went back after a test: it ends itself at its step limit
    clear: bool = True  # a test may start: false after a return until a frame shows no OOI (the one just tested)
    test_novelty: deque | None = None  # stale_steps: the novelty of this test's last N next frames

    @property
    def box(self) -> tuple[float, ...] | None:
        """The OOI box of this step's frame (the agent's pixels): the biggest detection's."""
        return None if self.det is None else self.det[0]


class PpgtaAgent(Explorer):
    """PPGTA: preference-conditioned exploration (PPO on style + ensemble novelty) and imitation-driven tests."""

    name = "ppgta"
    torch_state = True
    capture = CAPTURE
    learns_from_demos = True
    defaults: dict[str, Any] = {}

    def __init__(self, n_actions: int, seed: int = 0, workers: int = 1, **overrides: Any) -> None:
        super().__init__(n_actions, seed, workers)
        self.cfg: PpgtaConfig = make_config(PpgtaConfig, {**self.defaults, **overrides})
        c = self.cfg
        if c.frame_w < 16 or c.frame_h < 16 or c.k_frames < 1 or c.rnd_members < 1 or not c.act_temp > 0:
            raise UsageError(f"{self.name}: frame_w and frame_h must be >= 16, k_frames and rnd_members >= 1, "
                             "act_temp > 0")
        if c.after_test not in ("stay", "return"):
            raise UsageError(f"{self.name}: after_test must be stay or return, not {c.after_test!r} "
                             f"(--agent {self.name}:after_test=return)")
        setup_torch(seed)
        # the agent's own random streams: what else the process did with torch's global one (e.g. building the
        # detector the first time a process loads it) must not change what the agent does
        self.gen = torch.Generator().manual_seed(seed)
        self.size = (c.frame_w, c.frame_h)
        self.encoder = Encoder(c.frame_w, c.frame_h, c.feat)
        self.path_policy: Policy | None = None
        self.inspect_policy: Policy | None = None
        self.ppo: Ppo | None = None
        self.rnd = RndEnsemble(c.rnd_w * c.rnd_h * 3, c.rnd_members, c.rnd_out, c.rnd_buffer, c.rnd_lr, seed)
        self.ret_norm = RunningNorm(1, count=0.0)
        self.judge: Any = None
        self.shared = False  # the step's info carries the texture oracle's detections, this agent's detector's
        self._last_detect: tuple[Any, list[Any]] = (None, [])
        self.demo_raw: list[tuple[str, np.ndarray, np.ndarray, list[Any]]] = []  # kind, frames, actions, boxes
        self.own: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]] = []  # warm-up pairs
        self.slots: dict[int, SlotState] = {}
        self.rollouts: dict[int, list[dict[str, Any]]] = {}
        self.fitted = False
        self.steps = 0
        self.counts = {"explore": 0, "test": 0, "warmup": 0, "tests": 0, "tests_lost": 0, "tests_at_limit": 0,
                       "demo_frames_cached": 0, "test_returns": 0, "test_return_failed": 0, "approach": 0,
                       "approaches_reached": 0, "approaches_at_limit": 0, "approaches_lost": 0, "tests_stale": 0,
                       "detections_shared": 0, "detections_own": 0}
        self.explore_novelty = [0.0, 0]  # stale_steps: exploration steps' recent mean novelty, and their count
        self.motion = BoxMotion(n_actions, CAPTURE[0])  # how actions move boxes (approach_steps > 0)
        self._back: dict[int, Any] = {}  # slot -> what to restore at its next episode_start (after_test=return)
        self._cache_warned = False
        self.explore_actions = np.zeros(n_actions, np.int64)  # what the exploration policy played
        self.fit_stats: dict[str, float] = {}
        self.timing = {"detect_s": 0.0, "demo_detect_s": 0.0, "act_s": 0.0, "observe_s": 0.0, "fit_s": 0.0, "ppo_s": 0.0}
        self.novelty_sum = 0.0
        self.style_sum = 0.0

    # ---- setup: the detector
    def setup(self, info: Any) -> None:
        super().setup(info)
        path = self.cfg.detector or getattr(info, "detector", None)
        if not path:
            warnings.warn(f"{self.name}: no object detector (the game has no [oracles] texture_model and no "
                          f"{self.name}:detector=PATH was given): it explores but starts no object tests",
                          RuntimeWarning, stacklevel=2)
            return
        from playtester.oracles.texture import load_judge

        if not Path(path).is_file():
            raise ConfigError(f"{self.name}: the detector bundle {path} does not exist; name an existing one with "
                              f"--agent {self.name}:detector=PATH or [oracles] texture_model")
        self.judge, why = load_judge(path)
        if self.judge is None:
            raise ConfigError(f"{self.name}: cannot load the detector {path}: {why}")
        self.shared = self.reads_detections(getattr(info, "detector", None))

    def reads_detections(self, detector: str | None) -> bool:
        """The texture oracle's detections serve as this agent's when its detector is the oracle's (no
        ``detector`` of its own, or the same file)."""
        if not detector:
            return False
        mine = self.cfg.detector
        return not mine or Path(mine).resolve() == Path(detector).resolve()

    def found(self, frame: np.ndarray, info: dict[str, Any]) -> list[tuple[tuple[float, ...], str, float]]:
        """The OOIs of a step's frame: the texture oracle's detections of it when the step's ``info`` carries them
        (``info["detections"]``, its detector being this agent's: `reads_detections`), scaled to the agent's
        pixels, so the detector does not run again; else `boxes`."""
        shared = info.get("detections") if self.shared and self.judge is not None else None
        if shared is None:
            return self.boxes(frame)
        (w, h), raw = shared
        sx, sy = CAPTURE[0] / w, CAPTURE[1] / h
        found = self._oois([((b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy), k, sc) for b, k, sc in raw])
        self.counts["detections_shared"] += 1
        self._last_detect = (frame, found)
        return found

    def boxes(self, frame: np.ndarray) -> list[tuple[tuple[float, ...], str, float]]:
        """The detector's OOIs on ``frame`` (the agent's 160x120 pixels), biggest first (the latest frame's are
        kept: a step's next frame is the next step's frame)."""
        if self.judge is None:
            return []
        if self._last_detect[0] is frame:
            return self._last_detect[1]
        t0 = time.perf_counter()
        found = self._oois(self.judge.detect(frame))
        self.timing["detect_s"] += time.perf_counter() - t0
        self.counts["detections_own"] += 1
        self._last_detect = (frame, found)
        return found

    def _oois(self, found: list[Any]) -> list[tuple[tuple[float, ...], str, float]]:
        return sorted((d for d in found if d[2] >= self.cfg.min_score), key=lambda d: -(d[0][3] - d[0][1]))

    def demo_boxes(self, frames: np.ndarray) -> list[list[tuple[tuple[float, ...], str, float]]]:
        """`boxes` of each frame of one demonstration (N, 120, 160, 3), detected in batches. A fixed set of
        demonstrations replays to the same frames every campaign, so the detections are kept in the cache
        (`playtester.files.cache_dir`, ``detections``) under a hash of the detector and the frames: the next
        campaign with the same demonstrations and detector reads them instead (an unreadable entry is detected
        again)."""
        if self.judge is None:
            return [[] for _ in frames]
        t0 = time.perf_counter()
        folder, fingerprint = cache_dir("detections"), getattr(self.judge, "fingerprint", None)
        entry, raw = None, None
        if folder is not None and fingerprint is not None:
            h = hashlib.sha256(f"{fingerprint}|{frames.shape}|{frames.dtype}".encode())
            h.update(np.ascontiguousarray(frames).data)
            entry = folder / f"{h.hexdigest()[:32]}.json"
            raw = self._read_boxes(entry, len(frames))
        if raw is not None:
            self.counts["demo_frames_cached"] += len(frames)
        else:
            many = getattr(self.judge, "detect_many", None)
            raw = many(frames) if many is not None else [self.judge.detect(f) for f in frames]
            if entry is not None:
                try:
                    write_atomic(entry, json.dumps([[[list(b), k, s] for b, k, s in f] for f in raw]))
                except OSError as e:  # a read-only or full disk: detect again next time, say so once
                    if not self._cache_warned:
                        warnings.warn(f"{self.name}: cannot keep detections in {folder} ({e}); set "
                                      "PLAYTESTER_CACHE to a writable folder, or to off", RuntimeWarning,
                                      stacklevel=2)
                        self._cache_warned = True
        self.timing["demo_detect_s"] += time.perf_counter() - t0
        return [self._oois(f) for f in raw]

    @staticmethod
    def _read_boxes(entry: Path, n: int) -> list[list[Any]] | None:
        try:
            raw = json.loads(entry.read_text())
            found = [[(tuple(float(v) for v in b), str(k), float(s)) for b, k, s in f] for f in raw]
        except (OSError, ValueError, TypeError):  # none yet, torn or foreign: detect again and write it anew
            return None
        return found if len(found) == n and all(len(d[0]) == 4 for f in found for d in f) else None

    def frame_of(self, obs: Any) -> np.ndarray:
        if not (isinstance(obs, np.ndarray) and obs.ndim == 3 and obs.shape[2] == 3):
            raise UsageError(f"{self.name} plays from pixels: it needs RGB frames, got "
                             f"{getattr(obs, 'shape', type(obs).__name__)}")
        return resize_nearest(obs, CAPTURE) if obs.shape[:2] != (CAPTURE[1], CAPTURE[0]) else obs

    def views(self, frame: np.ndarray, box: tuple[float, ...] | None) -> tuple[np.ndarray, np.ndarray]:
        """The network's input frame, full and OD-masked (``box`` in the 160x120 frame's pixels)."""
        small = resize_nearest(frame, self.size)
        masked = od_mask(small, scale_box(box, CAPTURE, self.size)) if self.cfg.od_mask else small
        return small, masked

    def rnd_input(self, masked: np.ndarray) -> np.ndarray:
        c = self.cfg
        return resize_nearest(masked, (c.rnd_w, c.rnd_h)).reshape(-1).astype(np.float32) / 255.0

    # ---- demonstrations
    def demonstrate(self, demos: list[Demo]) -> None:
        """Keep the demonstrations (frames at the network's size, the detector's box on each, the actions), split
        into inspection and preference by their source; the networks train after the warm-up steps."""
        c = self.cfg
        eps = [d for d in demos if d.steps]
        order = self.rng.permutation(len(eps))
        total, gaps = 0, []
        starts: list[tuple[float, float]] = []  # each inspection demonstration's first box: height, |offset|
        for i in order:
            d = eps[int(i)]
            kind = "inspect" if self.is_inspection(d.source) else "preference"
            if kind == "preference" and not self.needs_preference:
                continue
            if total + len(d.steps) > c.max_demo_steps and self.demo_raw:
                continue
            total += len(d.steps)
            full = np.stack([self.frame_of(s.obs) for s in d.steps])
            found_all = self.demo_boxes(full)
            boxes = [scale_box(found[0][0] if found else None, CAPTURE, self.size) for found in found_all]
            actions = np.array([s.action for s in d.steps])
            if c.approach_steps > 0:
                self.motion.add_episode(found_all, actions)
            if kind == "inspect":
                big = [any(f[0][3] - f[0][1] >= c.test_min_box for f in found) for found in found_all]
                if any(big):
                    gaps.append(longest_gap(big[big.index(True):]))
                    b = found_all[big.index(True)][0][0]
                    starts.append((b[3] - b[1], abs((b[0] + b[2]) / 2 - CAPTURE[0] / 2)))
            frames = np.stack([resize_nearest(f, self.size) for f in full])
            self.demo_raw.append((kind, frames, actions, boxes))
        kinds = [k for k, *_ in self.demo_raw]
        longest = max((len(a) for k, _f, a, _b in self.demo_raw if k == "inspect"), default=TEST_STEPS_FALLBACK)
        self.fit_stats.update({"demos_given": len(eps), "demos_used": len(self.demo_raw),
                               "demo_steps": total, "inspect_demos": kinds.count("inspect"),
                               "preference_demos": kinds.count("preference"),
                               "test_limit": c.test_steps or longest,
                               "lost_limit": c.lost_steps or max(1, max(gaps, default=LOST_STEPS_FALLBACK))})
        if c.approach_steps > 0:  # an approach ends where the inspection demonstrations began (median box)
            hs, dxs = [h for h, _ in starts], [dx for _, dx in starts]
            self.fit_stats.update({"approach_height": float(np.median(hs)) if hs else c.test_min_box,
                                   "approach_centre": max(8.0, float(np.percentile(dxs, 75))) if dxs else 16.0})

    @property
    def needs_preference(self) -> bool:
        """The preference demonstrations are used: for the style reward, or to start PPO from."""
        return self.cfg.alpha > 0 or self.cfg.ppo_from_preference

    def is_inspection(self, source: str) -> bool:
        m = self.cfg.inspect_match
        p = Path(source)
        return bool(m) and (m in p.parts[:-1] or p.name.startswith(m))

    def _check_demos(self) -> None:
        kinds = [k for k, *_ in self.demo_raw]
        need = (["inspect"] if self.cfg.tests else []) + (["preference"] if self.needs_preference else [])
        missing = [k for k in need if k not in kinds]
        if missing:
            what = {"inspect": f"OOI inspections (files under a folder named {self.cfg.inspect_match!r})",
                    "preference": "the preferred exploration style (any other trace)"}
            raise UsageError(f"{self.name} learns from demonstrations and got none of "
                             f"{' nor '.join(what[k] for k in missing)}; pass --demos DIR (e.g. --demos "
                             "bench/data/park_demos/path --demos bench/data/park_demos/inspect)")
        if not self.demo_raw and len(self.own) < 2:  # e.g. inspector with tests=false and no warm-up
            raise UsageError(f"{self.name} got no demonstration it learns from (it uses "
                             f"{'inspections only' if not self.needs_preference else 'inspections and a preference'}"
                             f"{'' if self.cfg.tests else ', and tests=false leaves out the inspections'}) and played "
                             "no warm-up steps to learn its encoder from; pass --demos DIR with demonstrations of the "
                             f"kind it uses, or {self.name}:warmup_steps=N (N > 1) to learn from its own frames alone")

    # ---- training (after the warm-up)
    def _pairs(self, episodes: list[tuple[np.ndarray, np.ndarray, list[Any]]]) -> Pairs:
        first, first_m, second, second_m, acts = [], [], [], [], []
        for frames, actions, boxes in episodes:
            masked = self._masked(frames, boxes)
            first.append(frames[:-1])
            first_m.append(masked[:-1])
            second.append(frames[1:])
            second_m.append(masked[1:])
            acts.append(actions[:-1])
        return Pairs(*(np.concatenate(x) for x in (first, first_m, second, second_m, acts)))

    def _own_pairs(self, rows: list[Any]) -> Pairs:
        return Pairs(*(np.stack([r[i] for r in rows]) for i in range(4)), np.array([r[4] for r in rows]))

    def fit(self) -> None:
        """Train the encoder (masked inverse dynamics), the two imitation policies and start PPO."""
        t0 = time.perf_counter()
        c = self.cfg
        self._check_demos()
        torch.manual_seed(self.seed)  # the networks built and trained here start from the agent's seed alone
        held = [False] * len(self.demo_raw)  # per kind, round(held_out * n) episodes, keeping one to train on
        for kind in ("preference", "inspect"):
            idx = [i for i, (k, *_) in enumerate(self.demo_raw) if k == kind]
            n_test = min(len(idx) - 1, max(1, round(c.held_out * len(idx)))) if c.held_out > 0 else 0
            for i in self.rng.permutation(idx)[:max(0, n_test)]:
                held[int(i)] = True
        eps = [(f, a, b) for _, f, a, b in self.demo_raw]
        train = [e for e, h in zip(eps, held, strict=True) if not h]
        test = [e for e, h in zip(eps, held, strict=True) if h]
        tr, te = self._pairs(train) if train else None, self._pairs(test) if test else None
        own_te = None
        if len(self.own) > 1:  # the agent's own warm-up frames: 80% train, the last 20% held out
            cut = max(1, int(len(self.own) * (1 - c.held_out)))
            own_tr = self._own_pairs(self.own[:cut])
            own_te = self._own_pairs(self.own[cut:]) if cut < len(self.own) else None
            tr = own_tr if tr is None else \
                Pairs(*(np.concatenate([getattr(tr, k), getattr(own_tr, k)]) for k in Pairs.__dataclass_fields__))
        assert tr is not None  # _check_demos: demonstrations or warm-up frames
        idm = InverseDynamics(self.encoder, c.feat, self.n_actions)
        self.fit_stats.update(fit_inverse_dynamics(idm, tr, te, c.idm_updates, c.batch, c.lr, self.rng))
        if own_te is not None:
            self.fit_stats["idm_accuracy_own_frames"] = idm_accuracy(idm, own_te)
        for p in self.encoder.parameters():
            p.requires_grad_(False)
        self.encoder.eval()
        self.own.clear()
        feats: dict[str, tuple[list[Episodes], ...]] = {}
        for kind in ("preference", "inspect"):
            sets = []
            for want in (False, True):
                rows = [(f, a, b) for (k, f, a, b), h in zip(self.demo_raw, held, strict=True) if k == kind and h == want]
                masked = [encode(self.encoder, self._masked(f, b)) for f, a, b in rows]
                full = [encode(self.encoder, f) for f, a, b in rows]
                sets.append(Episodes(masked, full, [a for _, a, _ in rows]))
            feats[kind] = tuple(sets)
        if self.cfg.tests:
            self.inspect_policy = self._imitate("inspect", *feats["inspect"])
        if feats["preference"][0].actions and self.needs_preference:
            self.path_policy = self._imitate("preference", *feats["preference"])
        explorer = copy.deepcopy(self.path_policy) if c.ppo_from_preference and self.path_policy is not None \
            else Policy(c.feat, self.n_actions, c)
        explorer.eval()
        self.ppo = Ppo(explorer, c, self.gen)
        self.demo_raw.clear()
        self.fitted = True
        self.timing["fit_s"] += time.perf_counter() - t0
        for slot, st in list(self.slots.items()):  # the policies start with no memory; the episode goes on
            self.slots[slot] = replace(self._fresh(), played=st.played)

    def _masked(self, frames: np.ndarray, boxes: list[Any]) -> np.ndarray:
        if not self.cfg.od_mask:
            return frames
        return np.stack([od_mask(f, b) for f, b in zip(frames, boxes, strict=True)])

    def _imitate(self, kind: str, train: Episodes, test: Episodes) -> Policy:
        if not train.actions:
            raise UsageError(f"{self.name}: every {kind} demonstration was held out; pass more of them")
        policy = Policy(self.cfg.feat, self.n_actions, self.cfg)
        cfg = replace(self.cfg, il_updates=self.cfg.inspect_il_updates) if kind == "inspect" else self.cfg
        res = fit_imitation(policy, train, test if test.actions else None, cfg, self.rng, consistency=cfg.od_mask)
        self.fit_stats.update({f"{kind}_il_{k}": v for k, v in res.items()})
        return policy

    # ---- acting
    def _fresh(self) -> SlotState:
        c = self.cfg
        return SlotState(deque(maxlen=c.k_frames), torch.zeros(1, 1, c.global_hidden),
                         alpha=Alpha(c.alpha, c.alpha_min, c.alpha_down, c.alpha_up, c.novelty_eps))

    def episode_start(self, slot: int) -> bool:
        st = self.slots.get(slot)
        if st is not None and st.pending is not None:
            st.pending = None
        back = self._back.pop(slot, None)
        if back is not None:  # a test ended (after_test=return): back to where it began, as it was then
            snap, memory = back
            ctl = self.ctl[slot]
            ok = ctl.restore(snap)
            ctl.drop(snap)
            if ok:
                self.counts["test_returns"] += 1
                self.slots[slot] = memory
                return True
            self.counts["test_return_failed"] += 1
        self.slots[slot] = self._fresh()
        return False

    def _remember(self, st: SlotState, slot: int) -> None:
        """after_test=return, as a test begins: a snapshot of the game and the exploration policy's memory."""
        ctl = self.ctl.get(slot)
        if self.cfg.after_test != "return" or ctl is None or not ctl.snapshots:
            return
        snap = ctl.snapshot()
        if snap is None:
            return
        memory = SlotState(deque(st.window, maxlen=self.cfg.k_frames), st.g.clone(),
                           alpha=copy.deepcopy(st.alpha), disc=st.disc, since_test=0)
        st.back = (snap, memory)

    def act(self, obs: Any, info: dict[str, Any], slot: int = 0) -> int:
        t0 = time.perf_counter()
        mask = info.get("action_mask")
        if mask is not None and not np.any(mask):
            raise NoValidActionError("the action mask has no valid action in this state")
        st = self.slots.get(slot) or self.slots.setdefault(slot, self._fresh())
        frame = self.frame_of(obs)
        if not self.fitted and self.steps >= self.cfg.warmup_steps:
            self.fit()
            st = self.slots[slot]
        found = self.found(frame, info)
        big = [d for d in found if d[0][3] - d[0][1] >= self.cfg.test_min_box]
        st.det = found[0] if found else None
        small, masked = self.views(frame, st.box)
        if not self.fitted:
            self.counts["warmup"] += 1
            st.prev_pair = (small, masked)
            a = random_valid(self.rng, mask, self.n_actions)
        else:
            a = self._act_fitted(st, slot, masked, big, mask)
        self.timing["act_s"] += time.perf_counter() - t0
        return a

    def _sample(self, logits: torch.Tensor, mask: Any) -> tuple[int, float, torch.Tensor]:
        if mask is not None:
            logits = torch.where(torch.as_tensor(np.asarray(mask)) > 0, logits, torch.finfo(logits.dtype).min)
        logp = F.log_softmax(logits, -1)
        a = int(torch.multinomial(logp.exp(), 1, generator=self.gen).item())
        return a, float(logp[a]), logp

    @torch.no_grad()
    def _act_fitted(self, st: SlotState, slot: int, masked: np.ndarray, big: list[Any], mask: Any) -> int:
        c = self.cfg
        f = self.encoder(to_chw(masked[None]))[0]
        st.since_test += 1
        st.clear = st.clear or not big
        if st.mode == "explore" and big and st.clear and st.since_test > c.cooldown and self.inspect_policy is not None:
            self.counts["tests"] += 1
            self._cut(slot)
            self._remember(st, slot)
            if c.approach_steps > 0:
                st.mode, st.approach, st.lost, st.target = "approach", 0, 0, big[0][0]
            else:
                self._inspect(st)
        st.window.append(f)
        assert self.ppo is not None
        if st.mode == "approach":
            a = self._approach(st, big, mask)
            if a is not None:
                return a
        if st.mode == "test":
            assert st.test_window is not None and self.inspect_policy is not None
            st.test_steps += 1
            st.lost = 0 if big else st.lost + 1
            lost_limit = self.fit_stats.get("lost_limit", c.lost_steps or LOST_STEPS_FALLBACK)
            stale = self._stale(st)
            ended = st.test_steps > self.fit_stats.get("test_limit", c.test_steps or TEST_STEPS_FALLBACK) \
                or st.lost > lost_limit or stale
            if ended:
                self.counts["tests_lost" if st.lost > lost_limit else "tests_stale" if stale else "tests_at_limit"] += 1
            if ended and st.back is not None:  # this step is the test's last; its observe asks for the return
                st.returning = True
            if ended and st.back is None:
                st.mode, st.since_test = "explore", 0
            else:
                st.test_window.append(f)
                pol = self.inspect_policy
                p, st.test_g = self._step(pol, st.test_window, st.test_g)
                logits, _ = pol.heads(torch.cat([pol.local_state(p[None]), st.test_g[0]], -1))
                self.counts["test"] += 1
                return self._sample(logits[0], mask)[0]
        net = self.ppo.net
        p, st.g = self._step(net, st.window, st.g)
        hc = torch.cat([net.local_state(p[None]), st.g[0]], -1)
        logits, value = net.heads(hc)
        a, logp, logp_all = self._sample(logits[0] / c.act_temp, mask)
        self.explore_actions[a] += 1
        style = 0.0
        if self.path_policy is not None and c.alpha > 0:
            pp = self.path_policy
            ref = F.log_softmax(pp.heads(torch.cat([pp.local_state(pp.proj(torch.stack(list(st.window)))[None]),
                                                    st.g[0]], -1))[0][0] / c.act_temp, -1)
            style = -(float(logp_all[a]) - float(ref[a]))  # one-sample -KL(pi_e || pi_p): depends on the action
        n_mask = np.ones(self.n_actions, np.float32) if mask is None else np.asarray(mask, np.float32)
        st.pending = {"windows": p.numpy(), "globals": st.g[0, 0].numpy(), "actions": a, "logp": logp,
                      "values": float(value[0]), "masks": n_mask, "style": style}
        self.counts["explore"] += 1
        if len(self.rollouts.get(slot, ())) >= c.n_steps:
            self._update(slot, float(value[0]))
        return a

    def _stale(self, st: SlotState) -> bool:
        """``stale_steps``: the test's last N frames were much less novel than exploration's are on average."""
        n = self.cfg.stale_steps
        if n <= 0 or st.test_novelty is None or len(st.test_novelty) < n or self.explore_novelty[1] == 0:
            return False
        return float(np.mean(st.test_novelty)) < self.cfg.stale_ratio * self.explore_novelty[0]

    def _inspect(self, st: SlotState) -> None:
        """The inspection policy takes over, with no memory (its demonstrations began at their object)."""
        st.test_novelty = deque(maxlen=max(1, self.cfg.stale_steps))
        st.mode, st.test_steps, st.lost = "test", 0, 0
        st.test_window, st.test_g = deque(maxlen=self.cfg.k_frames), torch.zeros(1, 1, self.cfg.global_hidden)

    def _approach(self, st: SlotState, big: list[Any], mask: Any) -> int | None:
        """One step of a test's approach (``approach_steps``): the action `BoxMotion` steers with, or None when the
        approach has ended this step (the inspection takes over, or the OOI was lost: exploration resumes)."""
        st.approach += 1
        st.lost = 0 if big else st.lost + 1
        if big:
            st.target = big[0][0]
        if st.lost > APPROACH_LOST:  # given up, as a test that lost its object: exploration resumes
            self.counts["approaches_lost"] += 1
            self.counts["tests_lost"] += 1
            st.mode, st.since_test = "explore", 0
            st.returning = st.back is not None
            return None
        box, tol = st.target, self.fit_stats.get("approach_centre", 16.0)
        assert box is not None
        near = bool(big) and box[3] - box[1] >= self.fit_stats.get("approach_height", self.cfg.test_min_box) \
            and abs((box[0] + box[2]) / 2 - CAPTURE[0] / 2) <= tol
        a = None if near or st.approach > self.cfg.approach_steps else self.motion.steer(box, tol, mask)
        if a is None:
            self.counts["approaches_reached" if near else "approaches_at_limit"] += 1
            self._inspect(st)
            return None
        self.counts["approach"] += 1
        return a

    def _step(self, pol: Policy, window: deque, g: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The window's projected features (K, d), padded with its first, and the global GRU's next state."""
        feats = list(window)
        feats = [feats[0]] * (self.cfg.k_frames - len(feats)) + feats
        p = pol.proj(torch.stack(feats))
        _, g = pol.glob(p[-1:][None], g)
        return p, g

    def _cut(self, slot: int) -> None:
        """The exploration policy stops acting (a test starts): its rollout's last step ends a segment."""
        roll = self.rollouts.get(slot)
        if roll:
            roll[-1]["dones"] = 1.0

    def _update(self, slot: int, next_value: float) -> None:
        t0 = time.perf_counter()
        roll = self.rollouts.pop(slot)
        keys = ("windows", "globals", "actions", "logp", "values", "masks", "rewards", "dones")
        data = {k: np.array([r[k] for r in roll], dtype=np.int64 if k == "actions" else np.float32) for k in keys}
        assert self.ppo is not None
        with torch.enable_grad():  # called while acting, under no_grad
            self.ppo.update(data, next_value)
        self.timing["ppo_s"] += time.perf_counter() - t0

    # ---- learning from each step
    def observe(self, slot: int, t: Transition) -> bool:
        t0 = time.perf_counter()
        self.steps += 1
        st = self.slots.get(slot)
        if st is None:
            return False
        st.played += 1
        frame = self.frame_of(t.next_obs)
        found = self.found(frame, t.info)  # the next frame's (kept for the next act)
        if self.cfg.approach_steps > 0:
            self.motion.add(st.det, found, int(t.action))
        if not self.fitted:  # warm-up: keep the pair (this frame, the next one) and the action between them
            if st.prev_pair is not None:
                nsmall, nmasked = self.views(frame, found[0][0] if found else None)
                self.own.append((st.prev_pair[0], st.prev_pair[1], nsmall, nmasked, int(t.action)))
                st.prev_pair = None
            self.timing["observe_s"] += time.perf_counter() - t0
            return False
        # the next frame's novelty, OD-masked
        _, masked = self.views(frame, found[0][0] if found else None)
        x = self.rnd_input(masked)
        novelty = float(self.rnd.novelty(x[None])[0])
        self.rnd.add(x)
        if self.steps % self.cfg.rnd_every == 0:
            self.rnd.train(self.cfg.batch)
        st.disc = st.disc * self.cfg.gamma + novelty
        self.ret_norm.update(np.array([st.disc]))
        scale = math.sqrt(float(self.ret_norm.var[0])) if self.ret_norm.count > 1 else 1.0
        r_e = novelty / max(scale, 1e-8)
        self.novelty_sum += r_e
        if st.mode == "test" and st.test_novelty is not None:
            st.test_novelty.append(novelty)
        elif st.mode == "explore":  # the mean of the last STALE_WINDOW exploration steps' (a running mean before)
            self.explore_novelty[1] += 1
            self.explore_novelty[0] += (novelty - self.explore_novelty[0]) / min(self.explore_novelty[1], STALE_WINDOW)
        if st.pending is not None:
            assert st.alpha is not None
            alpha = st.alpha.update(r_e)
            step = st.pending
            st.pending = None
            step["rewards"] = alpha * step.pop("style") + (1 - alpha) * r_e
            step["dones"] = float(t.terminated or t.truncated)
            self.style_sum += step["rewards"]
            self.rollouts.setdefault(slot, []).append(step)
        self.timing["observe_s"] += time.perf_counter() - t0
        if st.returned and st.played >= self.info.max_episode_steps:  # the game's own count forgot the tests
            st.returning = False
            return not (t.terminated or t.truncated)
        return st.returning and not (t.terminated or t.truncated)

    def episode_end(self, slot: int, outcome: str) -> None:
        roll = self.rollouts.get(slot)
        if roll:
            roll[-1]["dones"] = 1.0
        st = self.slots.pop(slot, None)
        if st is not None and st.back is not None:
            if st.returning and outcome == "agent":
                snap, memory = st.back
                memory.played, memory.returned, memory.clear = st.played, True, False
                self._back[slot] = (snap, memory)  # restored by the next episode_start
            else:  # the episode ended inside the test (step limit, crash, ...): nothing to return to
                self.ctl[slot].drop(st.back[0])

    # ---- resume and stats
    def state(self) -> dict[str, Any]:
        nets = {"encoder": self.encoder.state_dict()}
        for name in ("path_policy", "inspect_policy"):
            pol = getattr(self, name)
            nets[name] = None if pol is None else pol.state_dict()
        nets["ppo"] = None if self.ppo is None else self.ppo.net.state_dict()
        return {"nets": nets, "fitted": self.fitted, "steps": self.steps, "rnd": [p.state_dict() for p in
                self.rnd.predictors], "rnd_target": self.rnd.target.state_dict(), "fit_stats": self.fit_stats,
                "config": asdict(self.cfg), "box_motion": self.motion.state(), "explore_novelty": list(self.explore_novelty)}

    def set_state(self, state: dict[str, Any]) -> None:
        c = self.cfg
        nets = state["nets"]
        self.encoder.load_state_dict(nets["encoder"])
        for name in ("path_policy", "inspect_policy"):
            if nets[name] is not None:
                pol = Policy(c.feat, self.n_actions, c)
                pol.load_state_dict(nets[name])
                pol.eval()
                setattr(self, name, pol)
        if nets["ppo"] is not None:
            pol = Policy(c.feat, self.n_actions, c)
            pol.load_state_dict(nets["ppo"])
            pol.eval()
            self.ppo = Ppo(pol, c, self.gen)
        for p, sd in zip(self.rnd.predictors, state["rnd"], strict=True):
            p.load_state_dict(sd)
        self.rnd.target.load_state_dict(state["rnd_target"])
        self.fitted, self.steps, self.fit_stats = state["fitted"], state["steps"], dict(state["fit_stats"])
        if "box_motion" in state:  # states stored before the approach have none
            self.motion.set_state(state["box_motion"])
        if "explore_novelty" in state:  # nor before stale_steps
            self.explore_novelty = [float(state["explore_novelty"][0]), int(state["explore_novelty"][1])]

    def stats(self) -> dict[str, Any]:
        n = max(1, self.counts["explore"])
        return {"steps": self.steps, "fitted": self.fitted, **self.counts, **self.fit_stats,
                "explore_actions": self.explore_actions.tolist(),
                "ppo_updates": 0 if self.ppo is None else self.ppo.updates,
                **({} if self.ppo is None else {f"ppo_{k}": v for k, v in self.ppo.last.items()}),  # the last update's
                "rnd_updates": self.rnd.updates,
                **({"box_motion": self.motion.table()} if self.cfg.approach_steps > 0 else {}),
                "mean_novelty": self.novelty_sum / max(1, self.steps), "mean_reward": self.style_sum / n,
                **{k: round(v, 2) for k, v in self.timing.items()}}


class InspectorAgent(PpgtaAgent):
    """Inspector (Liu et al. 2022) as paper 001 describes it: one RND predictor on full frames, no preference
    (PPO from random weights on the novelty reward alone), plain behaviour cloning for the tests."""

    name = "inspector"
    defaults = {"rnd_members": 1, "alpha": 0.0, "alpha_min": 0.0, "ppo_from_preference": False, "od_mask": False,
                "value_detached": False}
