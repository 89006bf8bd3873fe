"""Frames labelled from the probe: detection shots of any game whose probe reports entities with a
``screen_box`` attr (``[x0, y0, x1, y1]`` in window pixels, or None when off screen).

A *shot* is one frame, downscaled to the detector's input size, with the boxes of the entities of the
wanted ``kinds`` on it (scaled the same way). Shots come from driving the game in a `Worker`:

* when the game registers the hooks ``teleport(x, y, angle)`` and ``walkable()`` (a ``[y][x]`` grid of
  booleans), the player is put at a random walkable spot a random distance from an entity of the kind
  seen least so far, facing it give or take a random turn, then takes a few random actions (turns,
  steps, looks up or down): the objects appear at many sizes and from every side. Some shots face a
  random way from a random spot (mostly shots without objects);
* otherwise the game is driven by a random walk of its action space and every ``walk_every`` steps a
  frame is kept.

**Hard negatives** (`collect_scenery`): shots of scenery only (nothing of the wanted kinds on them, or only
objects too far or too small to label), from random spots facing random ways, looking at the ground or the sky,
optionally chosen by a *miner* (the current detector: the frames it fires on are always kept), merged with the
other shots by `merge`. They teach the detector what not to fire on (a building's edge, brown ground).

Boxes smaller than ``min_height`` x ``min_width`` pixels at the detector size are dropped (too small to
judge). The shots are split train/val/test stratified by the *main* kind of each shot (the kind of its
tallest box, or none), saved as one compressed ``.npz``: ``frames`` (N, H, W, 3) uint8, ``boxes`` (M, 4)
float32 ``x0, y0, x1, y1`` at the detector size, ``labels`` (M,) int (index into ``kinds``), ``shot`` (M,)
the shot of each box, ``split`` (N,) 0 train, 1 val, 2 test, and ``kinds``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

PARK_KINDS = ("rock_pillar", "barrel", "tire", "chair")
INPUT_SIZE = (160, 120)  # (width, height) of the detector's input
SPLITS = ("train", "val", "test")
SPLIT_SHARES = (0.7, 0.1, 0.2)
CACHE_DIR = Path(".cache") / "vision"


def call_hook(rt: Any, name: str, *args: Any) -> tuple[str, Any]:
    """Run inside the game's episode process (through `Worker.call`): the game's hook ``name``."""
    from playtester import probe

    fn = probe.hooks().get(name)
    if fn is None:
        return "missing", sorted(probe.hooks())
    value = fn(*args)
    try:
        value = value.tolist()  # numpy arrays
    except AttributeError:
        pass
    return "ok", value


def hook_names(rt: Any) -> list[str]:
    from playtester import probe

    return sorted(probe.hooks())


@dataclass
class Shots:
    """A labelled set of shots (see the module docstring for the fields)."""

    frames: np.ndarray
    boxes: np.ndarray
    labels: np.ndarray
    shot: np.ndarray
    split: np.ndarray
    kinds: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.frames)

    def targets(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """The boxes and labels of shot ``i``."""
        m = self.shot == i
        return self.boxes[m], self.labels[m]

    def indices(self, split: str) -> np.ndarray:
        return np.flatnonzero(self.split == SPLITS.index(split))

    def counts(self) -> dict[str, dict[str, int]]:
        """Boxes per split and kind, and shots per split (``shots``) and shots without boxes (``empty``)."""
        out: dict[str, dict[str, int]] = {}
        for s, name in enumerate(SPLITS):
            in_split = self.split[self.shot] == s
            row = {k: int(((self.labels == j) & in_split).sum()) for j, k in enumerate(self.kinds)}
            row["shots"] = int((self.split == s).sum())
            with_box = set(self.shot[in_split].tolist())
            row["empty"] = row["shots"] - len(with_box)
            out[name] = row
        return out

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, frames=self.frames, boxes=self.boxes, labels=self.labels, shot=self.shot,
                            split=self.split, kinds=np.array(self.kinds))
        return path

    @classmethod
    def load(cls, path: str | Path) -> Shots:
        with np.load(path) as z:
            return cls(z["frames"], z["boxes"].astype(np.float32), z["labels"].astype(np.int64),
                       z["shot"].astype(np.int64), z["split"].astype(np.int64), tuple(str(k) for k in z["kinds"]))


def downscale(frame: np.ndarray, size: tuple[int, int] = INPUT_SIZE) -> np.ndarray:
    """``frame`` (H, W, 3) at ``size`` (width, height): block means for whole factors, else nearest; the frame
    itself when it is that size."""
    w, h = size
    H, W = frame.shape[:2]
    if (H, W) == (h, w):
        return frame
    if H % h == 0 and W % w == 0:
        fy, fx = H // h, W // w
        acc = np.uint16 if fy * fx * 255 < 2**16 else np.uint32
        # integer sums of each block by adding its rows, then its columns, slice by slice (numpy's sum with a
        # dtype took 5 times as long, a float mean over both axes 25 times), then the mean rounded half to
        # even as np.round does: the same bytes as the rounded float mean, since the sums are exact
        rows = frame.reshape(h, fy, -1)
        acc_rows = rows[:, 0].astype(acc)
        for i in range(1, fy):
            acc_rows += rows[:, i]
        cols = acc_rows.reshape(h, w, fx, -1)
        blocks = cols[:, :, 0].copy()
        for i in range(1, fx):
            blocks += cols[:, :, i]
        n = fy * fx
        q, r = np.divmod(blocks, n)
        q += (2 * r > n) | ((2 * r == n) & (q % 2 == 1))
        return q.astype(np.uint8)
    ys = ((np.arange(h) + 0.5) * H / h).astype(int)
    xs = ((np.arange(w) + 0.5) * W / w).astype(int)
    return frame[ys][:, xs]


def label(entities: dict[str, Any], kinds: Sequence[str], window: tuple[int, int],
          size: tuple[int, int] = INPUT_SIZE, min_height: float = 6.0,
          min_width: float = 2.0, max_covered: float = 0.6) -> tuple[list[list[float]], list[int]]:
    """The boxes (at ``size``) and kind indices of the ``entities`` of ``kinds`` on screen.

    ``window`` is the (width, height) of the frame the screen boxes are in; boxes are clipped to it. When
    the entities report their ``distance``, a box covered more than ``max_covered`` by the boxes of nearer
    entities is dropped (the probe's screen boxes only account for walls, not for other objects)."""
    sx, sy = size[0] / window[0], size[1] / window[1]
    boxes, labels, near = [], [], []
    for e in entities.values():
        if e.kind not in kinds:
            continue
        box = e.attrs.get("screen_box")
        if not box:
            continue
        x0, y0, x1, y1 = (max(0.0, min(float(box[0]), window[0])), max(0.0, min(float(box[1]), window[1])),
                          max(0.0, min(float(box[2]), window[0])), max(0.0, min(float(box[3]), window[1])))
        x0, x1, y0, y1 = x0 * sx, x1 * sx, y0 * sy, y1 * sy
        if y1 - y0 < min_height or x1 - x0 < min_width:
            continue
        boxes.append([x0, y0, x1, y1])
        labels.append(kinds.index(e.kind))
        d = e.attrs.get("distance")
        near.append(float(d) if isinstance(d, (int, float)) else math.inf)
    if max_covered < 1.0 and len(boxes) > 1:  # drop the objects hidden behind nearer ones
        keep = [covered(boxes[i], [b for j, b in enumerate(boxes) if near[j] < near[i]]) <= max_covered
                for i in range(len(boxes))]
        boxes = [b for b, k in zip(boxes, keep, strict=True) if k]
        labels = [lab for lab, k in zip(labels, keep, strict=True) if k]
    return boxes, labels


def covered(box: Sequence[float], others: Sequence[Sequence[float]], grid: int = 16) -> float:
    """The share of ``box`` covered by the union of ``others`` (sampled on a ``grid`` x ``grid`` lattice)."""
    if not others:
        return 0.0
    x0, y0, x1, y1 = box
    xs = x0 + (np.arange(grid) + 0.5) * (x1 - x0) / grid
    ys = y0 + (np.arange(grid) + 0.5) * (y1 - y0) / grid
    px, py = np.meshgrid(xs, ys)
    hit = np.zeros_like(px, dtype=bool)
    for a0, b0, a1, b1 in others:
        hit |= (px >= a0) & (px <= a1) & (py >= b0) & (py <= b1)
    return float(hit.mean())


def stratified_split(strata: Sequence[Any], shares: Sequence[float] = SPLIT_SHARES,
                     seed: int = 0) -> np.ndarray:
    """0/1/2 (train/val/test) per item, each stratum split in the ``shares`` proportions (rounded)."""
    rng = random.Random(seed)
    out = np.zeros(len(strata), dtype=np.int64)
    groups: dict[Any, list[int]] = {}
    for i, s in enumerate(strata):
        groups.setdefault(s, []).append(i)
    for key in sorted(groups, key=str):
        idx = groups[key]
        rng.shuffle(idx)
        n = len(idx)
        n_val = round(n * shares[1])
        n_test = round(n * shares[2])
        for j, i in enumerate(idx):
            out[i] = 1 if j < n_val else 2 if j < n_val + n_test else 0
    return out


def collect(game: str = "park", kinds: Sequence[str] = PARK_KINDS, shots: int = 2000, seed: int = 0,
            size: tuple[int, int] = INPUT_SIZE, min_height: float = 6.0, empty_share: float = 0.08,
            distance: tuple[float, float] = (1.0, 9.0), max_turn: float = 28.0, jitter_actions: int = 3,
            walk_every: int = 5, progress: Any = None) -> Shots:
    """Drive ``game`` and keep ``shots`` labelled shots (see the module docstring)."""
    from playtester.drive import InputFrame, Worker, resolve
    from playtester.env import default_space

    kinds = tuple(kinds)
    rng = random.Random(seed)
    spec = resolve(game)
    space = default_space(spec)
    frames: list[np.ndarray] = []
    all_boxes: list[list[float]] = []
    all_labels: list[int] = []
    shot_of: list[int] = []
    strata: list[str] = []
    seen: Counter[str] = Counter({k: 0 for k in kinds})

    with Worker(spec, space=space, capture="full") as w:
        obs = w.reset(seed=seed)
        hooks = set(w.call("playtester.vision.dataset:hook_names"))
        teleport = {"teleport", "walkable"} <= hooks
        walkable = w.call("playtester.vision.dataset:call_hook", "walkable")[1] if teleport else None
        episode, steps = 0, 0
        while len(frames) < shots:
            if teleport:
                obs = _teleport_shot(w, obs, kinds, seen, rng, walkable, distance, max_turn, jitter_actions,
                                     empty_share, InputFrame)
            else:
                for _ in range(walk_every):
                    obs = w.act(rng.randrange(len(space)))
                    steps += 1
                if obs.done or steps >= spec.config.max_episode_steps:
                    episode += 1
                    steps = 0
                    obs = w.reset(seed=seed + episode)
                    continue
            if obs.frame is None:
                continue
            window = (obs.frame.shape[1], obs.frame.shape[0])
            boxes, labels = label(obs.entities, kinds, window, size, min_height)
            i = len(frames)
            frames.append(downscale(obs.frame, size))
            all_boxes += boxes
            all_labels += labels
            shot_of += [i] * len(boxes)
            seen.update(kinds[j] for j in labels)
            tallest = max(range(len(boxes)), key=lambda j: boxes[j][3] - boxes[j][1]) if boxes else None
            strata.append(kinds[labels[tallest]] if tallest is not None else "")
            if progress is not None:
                progress(len(frames), shots)
    return Shots(np.stack(frames), np.array(all_boxes, dtype=np.float32).reshape(-1, 4),
                 np.array(all_labels, dtype=np.int64), np.array(shot_of, dtype=np.int64),
                 stratified_split(strata, seed=seed), kinds)


def _teleport_shot(w: Any, obs: Any, kinds: tuple[str, ...], seen: Counter[str], rng: random.Random,
                   walkable: list[list[bool]], distance: tuple[float, float], max_turn: float,
                   jitter_actions: int, empty_share: float, input_frame: Any) -> Any:
    """Teleport near an entity of the least seen kind (or anywhere, for ``empty_share`` of the shots)."""
    rows, cols = len(walkable), len(walkable[0])
    targets = [e for e in obs.entities.values() if e.kind in kinds and e.pos is not None]
    for _ in range(200):
        if rng.random() < empty_share or not targets:
            x, y = rng.uniform(0, cols), rng.uniform(0, rows)
            angle = rng.uniform(0, 360)
        else:
            least = min(seen[k] for k in kinds if any(e.kind == k for e in targets))
            pool = [e for e in targets if seen[e.kind] == least]
            e = rng.choice(pool)
            d = math.exp(rng.uniform(math.log(distance[0]), math.log(distance[1])))  # sizes spread evenly
            a = rng.uniform(0, 2 * math.pi)
            x, y = e.pos[0] + d * math.cos(a), e.pos[1] + d * math.sin(a)
            angle = (math.degrees(a + math.pi) + rng.uniform(-max_turn, max_turn)) % 360
        if not (0 <= x < cols and 0 <= y < rows) or not walkable[int(y)][int(x)]:
            continue
        status, ok = w.call("playtester.vision.dataset:call_hook", "teleport", x, y, angle)
        if status == "ok" and ok is not False:
            break
    obs = w.step(input_frame(), frames=1)
    if w.space is not None:
        for _ in range(rng.randrange(jitter_actions + 1)):
            obs = w.act(rng.randrange(len(w.space)), frames=rng.randint(1, 4))
    return obs


def merge(a: Shots, b: Shots) -> Shots:
    """The shots of ``a`` then those of ``b`` (same kinds), each keeping its own split."""
    if a.kinds != b.kinds:
        raise ValueError(f"shots of different kinds: {a.kinds} and {b.kinds}")
    return Shots(np.concatenate([a.frames, b.frames]), np.concatenate([a.boxes, b.boxes]),
                 np.concatenate([a.labels, b.labels]), np.concatenate([a.shot, b.shot + len(a)]),
                 np.concatenate([a.split, b.split]), a.kinds)


def collect_scenery(game: str = "park", kinds: Sequence[str] = PARK_KINDS, shots: int = 700, seed: int = 1,
                    size: tuple[int, int] = INPUT_SIZE, min_height: float = 6.0, miner: Any = None,
                    mined_score: float = 0.3, keep_unmined: float = 0.3, max_candidates: int | None = None,
                    jitter_actions: int = 4, progress: Any = None) -> tuple[Shots, dict[str, int]]:
    """**Hard negatives**: ``shots`` shots of scenery only, labelled from the probe like every shot.

    The player is teleported to a random walkable spot facing a random way, then takes a few random actions
    (turns, looks up or down at the ground or the sky, steps); a frame is a candidate when the probe puts no
    box of ``kinds`` on it that `label` would keep (nothing on screen, or only objects too far, too small or
    hidden: what the detector must not fire on). ``miner`` (optional: the downscaled frame -> the detector's
    best score on it, e.g. the current detector) makes the set *hard*: a candidate it fires on (score at least
    ``mined_score``) is always kept, another only with probability ``keep_unmined``. Split 70/10/20 like the
    other shots. Returns the shots and counts (``candidates``, ``mined``: kept shots the miner fired on,
    ``tiny_objects``: kept shots with an object on screen too small or hidden to be labelled)."""
    from playtester.drive import InputFrame, Worker, resolve
    from playtester.env import default_space

    kinds = tuple(kinds)
    rng = random.Random(seed)
    spec = resolve(game)
    space = default_space(spec)
    frames: list[np.ndarray] = []
    stats = {"candidates": 0, "mined": 0, "tiny_objects": 0}
    limit = max_candidates if max_candidates is not None else 8 * shots
    with Worker(spec, space=space, capture="full") as w:
        w.reset(seed=seed)
        status, walkable = w.call("playtester.vision.dataset:call_hook", "walkable")
        if status != "ok" or "teleport" not in set(w.call("playtester.vision.dataset:hook_names")):
            from playtester.errors import UsageError

            raise UsageError(f"{game}: scenery shots need the game's 'teleport' and 'walkable' hooks")
        rows, cols = len(walkable), len(walkable[0])
        while len(frames) < shots and stats["candidates"] < limit:
            for _ in range(200):
                x, y = rng.uniform(0, cols), rng.uniform(0, rows)
                if walkable[int(y)][int(x)]:
                    status, ok = w.call("playtester.vision.dataset:call_hook", "teleport", x, y,
                                        rng.uniform(0, 360))
                    if status == "ok" and ok is not False:
                        break
            obs = w.step(InputFrame(), frames=1)
            for _ in range(rng.randrange(jitter_actions + 1)):
                obs = w.act(rng.randrange(len(space)), frames=rng.randint(1, 6))
            if obs.frame is None:
                continue
            window = (obs.frame.shape[1], obs.frame.shape[0])
            boxes, _ = label(obs.entities, kinds, window, size, min_height)
            if boxes:
                continue
            stats["candidates"] += 1
            small = downscale(obs.frame, size)
            fired = miner is not None and float(miner(small)) >= mined_score
            if miner is not None and not fired and rng.random() >= keep_unmined:
                continue
            frames.append(small)
            stats["mined"] += int(fired)
            stats["tiny_objects"] += int(any(e.kind in kinds and e.attrs.get("screen_box")
                                             for e in obs.entities.values()))
            if progress is not None:
                progress(len(frames), shots)
    n = len(frames)
    return Shots(np.stack(frames) if frames else np.zeros((0, size[1], size[0], 3), np.uint8),
                 np.zeros((0, 4), np.float32), np.zeros(0, np.int64), np.zeros(0, np.int64),
                 stratified_split([""] * n, seed=seed), kinds), stats


def cache_path(game: str, shots: int, kinds: Sequence[str], seed: int = 0) -> Path:
    tag = "-".join(kinds) if tuple(kinds) != PARK_KINDS else "default"
    suffix = "" if (shots, tag, seed) == (2000, "default", 0) else f"-{shots}-{tag}-s{seed}"
    return CACHE_DIR / f"{game}{suffix}.npz"


def load_or_collect(game: str, kinds: Sequence[str] = PARK_KINDS, shots: int = 2000, seed: int = 0,
                    path: str | Path | None = None, progress: Any = None) -> Shots:
    """The cached shots of ``game`` (collected and saved on first use)."""
    path = Path(path) if path is not None else cache_path(game, shots, kinds, seed)
    if path.exists():
        data = Shots.load(path)
        if data.kinds == tuple(kinds) and len(data) == shots:
            return data
    data = collect(game, kinds, shots, seed, progress=progress)
    data.save(path)
    return data
