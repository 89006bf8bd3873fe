"""Object-test verdicts: a small CPU classifier that says, for a crop of an object seen on screen, whether
its texture is ``normal``, ``lowres`` (blocky) or ``stretched`` (the pattern scaled along the width).

Labels come from the probe, automatically, for any game whose entities report ``screen_box`` (window
pixels), ``face`` (the face shown this frame, or None), ``bug_faces`` (per face: ``none``, ``lowres`` or
``stretched``) and ``distance``, and that registers the hooks ``teleport(x, y, angle)`` and ``walkable()``
(the park does). The collector puts the player in front of a chosen face of a chosen object, at a random
distance up to ``seen_distance`` tiles, the three verdicts drawn in equal shares, and keeps a crop of
every object on screen that is *seen* as the game counts it (within ``seen_distance`` tiles, its box at
least ``min_height`` window pixels tall) and not mostly hidden behind a nearer object.

Crops are taken from the **full-size frame** (a blocky texture does not survive the detector's 160x120
input): around the box, grown by ``MARGIN`` of its size on every side, resized to ``PATCH`` x ``PATCH`` (area
average); the classifier sees the box's part of it resized to ``CROP`` x ``CROP``, its edges jittered during
training so that a detector's box, which is never exactly the probe's, is judged as well.

How the box becomes a square is the crop's **shape** (``CROP_SHAPES``, `patch`). ``box`` (the default, the
shipped bundle's): the box itself resized to a square, so its aspect ratio is lost: a tall rock pillar's texels
are widened about 2.2x, a tire's narrowed, and since a stretched texture *is* an aspect ratio (texels 3x wider
than tall), "stretched" looks different for every kind, and the classifier learns it per kind and per texture.
``inner`` (the largest square inside the box) and ``outer`` (the smallest square round it) keep the frame's
aspect ratio (one scale on both axes; the training jitter moves the centre and scales both axes alike).
``inner`` keeps the most pixels of the texture. Measured: on training objects only (measured by hand, the
two rock pillars with stretched faces held out of training, the test objects left out), ``inner`` judged 152 of
their 173 stretched crops right and ``box`` none; but on the held-out test objects (``bench/park_verdicts.py``,
``bench/results/park_verdicts_inner.json``) the retrained ``inner`` classifier was worse: 86.6% of the crops
right against 92.8%, the test pillar's stretched face still judged normal (5 of 44 right) and 53 of the
148 low-resolution chair crops judged stretched or normal. So ``box`` stays the default and the shipped
bundle's. A bundle records its shape (``crop_shape``; none: ``box``).

**Synthetic stretched crops** (`stretch`, `synthesise`, ``VerdictConfig.stretch_aug``): the park draws one texture
per kind, face and bug, so the training split holds only a few stretched faces of each kind (two of rock pillars)
and "stretched" had to be learnt kind by kind. With ``stretch_aug`` > 0 that share of the normal training crops is
replaced, batch by batch, by a copy whose box shows its middle third (a factor drawn in ``STRETCH_FACTORS``, 2.5-3.5,
the park's bug being 3x) resampled across the box's width, labelled ``stretched``: every kind and face gets stretched
examples. The object's silhouette is stretched with its texture (the park's bug keeps the silhouette), so the
synthetic crops are not exactly the real ones. Chosen on validation (``bench/park_verdicts.py --select-only``) and
measured on park layouts no earlier run had used (``bench/results/park_verdicts_augment.json``: layouts 21 and 22,
625 faces seen end to end, 93.4% right with ``stretch_aug`` 0.3 against 88.5% for the shipped bundle; stretched
faces 93.6% against 77.6%, low-resolution faces 87.2% against 89.7%). The shipped bundle is still trained
without it; the augmented one is written to ``.cache/vision/park-texture-augment.pt``.

The crops are split 70/10/20 **by object** (every crop of an object goes to one split, stratified by
whether it is bugged): the test split holds objects never seen in training.

`TextureJudge` is what runs on frames with no probe at all: the detector (`playtester.vision.detector`)
finds the objects on the frame downscaled to its input, and each box at least ``min_height`` pixels tall
on the full frame is cropped there and classified. A model *bundle* (`save_bundle`) holds both nets; the
``texture`` oracle loads one (`playtester.oracles.texture`).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
    import torch.nn.functional as F
    from torch import nn
except ImportError as e:  # pragma: no cover - depends on the installed extras
    from playtester.extras import missing

    raise missing("agents", "texture verdicts", "PyTorch (torch)") from e

from playtester.oracles.texture import FrameJudge
from playtester.vision.dataset import CACHE_DIR, PARK_KINDS, SPLITS, covered, downscale, stratified_split

VERDICTS = ("normal", "lowres", "stretched")
BUG_VERDICT = {"none": 0, "lowres": 1, "stretched": 2}  # the probe's bug_faces entries -> verdict index
PATCH = 128
MARGIN = 0.25
CROP = 64
CROP_SHAPES = ("box", "inner", "outer")  # see `patch`
CROP_SHAPE = "box"  # the default, the shipped bundle's: "inner" measured worse on the held-out objects (below)
SEEN_DISTANCE = 6.0  # the park's rule for a face seen (tiles; window pixels below)
SEEN_MIN_HEIGHT = 32
HOOKS = "playtester.vision.dataset:call_hook"
DEFAULT_BUNDLE = CACHE_DIR / "park-texture.pt"  # where `playtester vision verdict park` writes by default


# ---- crops -----------------------------------------------------------------------------------------------
def _resize(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """uint8 (H, W, 3) -> (size[1], size[0], 3), area-averaged (antialiased) when shrinking."""
    t = torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1)[None].float()
    out = F.interpolate(t, size=(size[1], size[0]), mode="bilinear", antialias=True, align_corners=False)
    return out[0].permute(1, 2, 0).round().clamp(0, 255).to(torch.uint8).numpy()


def patch(frame: np.ndarray, box: Sequence[float], margin: float = MARGIN, size: int = PATCH,
          shape: str = CROP_SHAPE) -> np.ndarray:
    """A ``size`` x ``size`` patch around ``box`` (``x0, y0, x1, y1`` frame pixels) cut from ``frame`` (outside
    the frame: grey), its inner part the square or rectangle ``shape`` names (`CROP_SHAPES`) grown by ``margin``
    of its size on each side: ``inner``, the largest square inside the box, centred (the object's middle at
    the most pixels); ``outer``, the smallest square round the box, centred (all of the object); both keep one
    scale on both axes, so the frame's aspect ratio. ``box``: the box itself, resized to a square (its aspect
    ratio lost: the first bundles' crops)."""
    if shape not in CROP_SHAPES:
        raise ValueError(f"crop shape {shape!r}: one of {', '.join(CROP_SHAPES)}")
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
    if shape != "box":
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        half = (min(w, h) if shape == "inner" else max(w, h)) / 2
        x0, x1, y0, y1, w, h = cx - half, cx + half, cy - half, cy + half, 2 * half, 2 * half
    X0, Y0 = int(math.floor(x0 - margin * w)), int(math.floor(y0 - margin * h))
    X1, Y1 = int(math.ceil(x1 + margin * w)), int(math.ceil(y1 + margin * h))
    if shape != "box":  # the rounding must not make it oblong
        X1 = X0 + max(X1 - X0, Y1 - Y0)
        Y1 = Y0 + (X1 - X0)
    H, W = frame.shape[:2]
    out = np.full((Y1 - Y0, X1 - X0, 3), 128, np.uint8)
    sx0, sy0, sx1, sy1 = max(X0, 0), max(Y0, 0), min(X1, W), min(Y1, H)
    if sx1 > sx0 and sy1 > sy0:
        out[sy0 - Y0:sy1 - Y0, sx0 - X0:sx1 - X0] = frame[sy0:sy1, sx0:sx1]
    return _resize(out, (size, size))


def _inner(size: int = PATCH, margin: float = MARGIN) -> tuple[float, float]:
    """Where the box lies in a patch (the same on both axes)."""
    a = margin / (1 + 2 * margin) * size
    return a, size - a


def crops(patches: np.ndarray, jitter: float = 0.0, rng: np.random.Generator | None = None,
          square: bool = False, size: int = CROP) -> torch.Tensor:
    """(N, 3, size, size) floats in [0, 1]: the inner part of each patch (the box, or its square), its edges
    moved by a random ``jitter`` share of its size (training) or not at all. ``square``: the jitter moves the
    centre and scales both axes alike, so the crop keeps the patch's aspect ratio; else each edge moves on
    its own (the first bundles' training)."""
    a, b = _inner(patches.shape[1])
    n = len(patches)
    edges = np.tile(np.array([a, a, b, b], np.float32), (n, 1))  # x0, y0, x1, y1
    if jitter and rng is not None:
        if square:
            shift = rng.normal(0, jitter * (b - a), (n, 2)).astype(np.float32)
            scale = np.exp(rng.normal(0, jitter, (n, 1))).astype(np.float32)
            centre, half = (a + b) / 2 + shift, (b - a) / 2 * scale
            edges = np.concatenate([centre - half, centre + half], 1)
        else:
            edges += rng.normal(0, jitter * (b - a), (n, 4)).astype(np.float32)
            edges = edges.clip(0, patches.shape[1])
            edges[:, 2:] = np.maximum(edges[:, 2:], edges[:, :2] + 8)
    x = torch.from_numpy(np.ascontiguousarray(patches)).permute(0, 3, 1, 2).float() / 255.0
    # one affine grid per crop: a bilinear resample of the chosen rectangle at size x size
    s = patches.shape[1]
    cx, cy = (edges[:, 0] + edges[:, 2]) / s - 1, (edges[:, 1] + edges[:, 3]) / s - 1
    hw, hh = (edges[:, 2] - edges[:, 0]) / s, (edges[:, 3] - edges[:, 1]) / s
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0], theta[:, 0, 2] = torch.from_numpy(hw), torch.from_numpy(cx)
    theta[:, 1, 1], theta[:, 1, 2] = torch.from_numpy(hh), torch.from_numpy(cy)
    grid = F.affine_grid(theta, [n, 3, size, size], align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


# ---- synthetic bugs: stretched crops made from normal ones ----------------------------------------------------
STRETCH_FACTORS = (2.5, 3.5)  # the park stretches a face's texture 3x along its width (park._stretched); a
# little either side, as the box jitter and the resampling blur the factor a crop shows anyway


def stretch(patches: np.ndarray, factors: float | Sequence[float] | np.ndarray, axis: int = 2,
            region: tuple[float, float] | None = None) -> np.ndarray:
    """Patches (N, S, S, 3) uint8 with the texture of their box stretched by ``factors`` (one, or one a patch) along
    ``axis`` (2: the width, as the park's stretch bug; 1: the height), as a texture bug would show it: the box's
    middle ``1 / factor`` resampled (linear) to the whole box, about its centre, on that axis only. ``region``: where
    the box lies on that axis (patch pixels; default the inner part of a patch, `_inner`); the margin round the box
    (the object's surroundings) is left as it is, so the object keeps its place and its box. A square texel of the
    box comes out ``factor`` times as long on ``axis``, unchanged on the other. Used to teach the classifier
    "stretched" from every kind's normal crops (`VerdictConfig.stretch_aug`)."""
    if axis not in (1, 2):
        raise ValueError(f"axis {axis}: 1 (height) or 2 (width)")
    patches = np.asarray(patches)
    n, size = len(patches), patches.shape[axis]
    f = np.broadcast_to(np.asarray(factors, np.float64), (n,)).astype(np.float64)
    if (f < 1).any():
        raise ValueError("stretch factors must be 1 or more")
    a, b = region if region is not None else _inner(size)
    lo, hi = int(math.floor(a)), int(math.ceil(b))
    centre = (a + b) / 2
    out = patches.astype(np.float32)  # a copy
    coords = np.arange(lo, hi) + 0.5  # pixel centres of the box on that axis
    for i in range(n):
        src = (centre + (coords - centre) / f[i] - 0.5).clip(0, size - 1)  # where each pixel reads, in pixel index
        i0 = np.floor(src).astype(np.int64)
        i1 = np.minimum(i0 + 1, size - 1)
        w = (src - i0).astype(np.float32)
        p = patches[i].astype(np.float32)
        if axis == 2:
            out[i, :, lo:hi] = p[:, i0] * (1 - w)[None, :, None] + p[:, i1] * w[None, :, None]
        else:
            out[i, lo:hi] = p[i0] * (1 - w)[:, None, None] + p[i1] * w[:, None, None]
    return out.round().clip(0, 255).astype(np.uint8)


def synthesise(patches: np.ndarray, labels: np.ndarray, share: float, rng: np.random.Generator,
               factors: tuple[float, float] = STRETCH_FACTORS, axis: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """A training batch with about ``share`` of its ``normal`` patches replaced by `stretch`ed copies (a factor drawn
    log-uniform in ``factors``), labelled ``stretched``. Returns new arrays; which ones changed is random."""
    labels = np.asarray(labels).copy()
    pick = np.flatnonzero((labels == VERDICTS.index("normal")) & (rng.random(len(labels)) < share))
    if len(pick) == 0:
        return patches, labels
    patches = patches.copy()
    f = np.exp(rng.uniform(math.log(factors[0]), math.log(factors[1]), len(pick)))
    patches[pick] = stretch(patches[pick], f, axis)
    labels[pick] = VERDICTS.index("stretched")
    return patches, labels


# ---- the labelled crops ------------------------------------------------------------------------------------
@dataclass
class Crops:
    """Labelled crops: ``patches`` (N, PATCH, PATCH, 3) uint8, ``labels`` (N,) verdict index, ``kinds``
    (N,) kind index, ``objects`` (N,) which object, ``faces`` (N,), ``heights`` (N,) the box height in
    window pixels, ``object_split`` (by object index) 0/1/2 = train/val/test (-1: not one of the kinds), the
    kind names, and the patches' ``crop_shape`` (see `patch`)."""

    patches: np.ndarray
    labels: np.ndarray
    kinds: np.ndarray
    objects: np.ndarray
    faces: np.ndarray
    heights: np.ndarray
    object_split: np.ndarray
    kind_names: tuple[str, ...]
    crop_shape: str = CROP_SHAPE

    def __len__(self) -> int:
        return len(self.patches)

    def indices(self, split: str) -> np.ndarray:
        return np.flatnonzero(self.object_split[self.objects] == SPLITS.index(split))

    def counts(self) -> dict[str, dict[str, int]]:
        """Crops per split and verdict (and objects per split)."""
        out = {}
        for s in SPLITS:
            idx = self.indices(s)
            row = {v: int((self.labels[idx] == j).sum()) for j, v in enumerate(VERDICTS)}
            row["objects"] = int((self.object_split == SPLITS.index(s)).sum())
            out[s] = row
        return out

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, patches=self.patches, labels=self.labels, kinds=self.kinds, objects=self.objects,
                            faces=self.faces, heights=self.heights, object_split=self.object_split,
                            kind_names=np.array(self.kind_names), crop_shape=np.array(self.crop_shape))
        return path

    @classmethod
    def load(cls, path: str | Path) -> Crops:
        with np.load(path) as z:
            return cls(z["patches"], z["labels"].astype(np.int64), z["kinds"].astype(np.int64),
                       z["objects"].astype(np.int64), z["faces"].astype(np.int64), z["heights"].astype(np.float32),
                       z["object_split"].astype(np.int64), tuple(str(k) for k in z["kind_names"]),
                       str(z["crop_shape"]) if "crop_shape" in z else "box")  # older files: the box resized


def seen_faces(obs: Any, kinds: Sequence[str], seen_distance: float = SEEN_DISTANCE,
               min_height: float = SEEN_MIN_HEIGHT, max_covered: float = 0.3) -> list[tuple[Any, list[float], int, int]]:
    """Ground truth of a full-size observation: ``(entity, box, face, verdict)`` of every object of
    ``kinds`` whose face is seen this frame (on screen, within ``seen_distance``, box at least
    ``min_height`` pixels tall, at most ``max_covered`` of it behind nearer objects). Evaluation only."""
    out, near = [], []
    for e in obs.entities.values():
        a = e.attrs
        if e.kind not in kinds or not a.get("screen_box") or a.get("face") is None or a.get("distance") is None:
            continue
        box = [float(v) for v in a["screen_box"]]
        if float(a["distance"]) > seen_distance or box[3] - box[1] < min_height:
            continue
        out.append((e, box, int(a["face"]), BUG_VERDICT[str(a["bug_faces"][int(a["face"])])]))
        near.append(float(a["distance"]))
    if len(out) > 1:
        out = [o for i, o in enumerate(out)
               if covered(o[1], [p[1] for j, p in enumerate(out) if near[j] < near[i]]) <= max_covered]
    return out


def _entity_index(eid: str) -> int:
    digits = "".join(ch for ch in eid if ch.isdigit())
    return int(digits) if digits else zlib.crc32(eid.encode()) % 10_000


def face_views(w: Any, obs: Any, rng: random.Random, walkable: list[list[bool]], kinds: Sequence[str],
               objects: set[int] | None = None, seen_distance: float = SEEN_DISTANCE,
               jitter_actions: int = 2) -> Any:
    """Teleport in front of a face of an object (the verdict drawn in equal shares, the object among
    ``objects`` when given) and return the observation. Uses the probe: data collection only."""
    rows, cols = len(walkable), len(walkable[0])
    pool: dict[int, list[tuple[Any, int]]] = {0: [], 1: [], 2: []}
    for e in obs.entities.values():
        if e.kind in kinds and e.pos is not None and "bug_faces" in e.attrs:
            if objects is not None and _entity_index(e.id) not in objects:
                continue
            for f, bug in enumerate(e.attrs["bug_faces"]):
                pool[BUG_VERDICT[str(bug)]].append((e, f))
    classes = [c for c in pool if pool[c]]
    n_faces = len(next(iter(pool[classes[0]]))[0].attrs["bug_faces"])
    for _ in range(200):
        e, f = rng.choice(pool[rng.choice(classes)])
        d = math.exp(rng.uniform(math.log(1.0), math.log(seen_distance - 0.2)))
        a = math.radians(float(e.attrs.get("yaw", 0.0))) + f * 2 * math.pi / n_faces
        a += rng.uniform(-0.4, 0.4) * math.pi / n_faces
        x, y = e.pos[0] + d * math.cos(a), e.pos[1] + d * math.sin(a)
        if not (0 <= x < cols and 0 <= y < rows) or not walkable[int(y)][int(x)]:
            continue
        facing = (math.degrees(a + math.pi) + rng.uniform(-20, 20)) % 360
        status, ok = w.call(HOOKS, "teleport", x, y, facing)
        if status == "ok" and ok is not False:
            break
    from playtester.drive import InputFrame

    obs = w.step(InputFrame(), frames=1)
    for _ in range(rng.randrange(jitter_actions + 1)):  # turn, look or jump a little (no walking)
        obs = w.act(rng.choice((4, 5, 6, 7, 8)) if len(w.space) >= 9 else rng.randrange(len(w.space)),
                    frames=rng.randint(1, 3))
    return obs


def _object_split(obs: Any, kinds: Sequence[str], seed: int) -> dict[int, int]:
    ents = sorted((e for e in obs.entities.values() if e.kind in kinds and "bug_faces" in e.attrs),
                  key=lambda e: _entity_index(e.id))
    strata = [any(b != "none" for b in e.attrs["bug_faces"]) for e in ents]
    split = stratified_split(strata, seed=seed)
    return {_entity_index(e.id): int(s) for e, s in zip(ents, split, strict=True)}


def _spec(game: str, game_args: dict[str, Any] | None = None) -> Any:
    from playtester.drive import resolve

    spec = resolve(game)
    return spec.with_config(game_args=spec.config.game_args | game_args) if game_args else spec


def collect(game: str = "park", kinds: Sequence[str] = PARK_KINDS, crops_wanted: int = 4000, seed: int = 0,
            progress: Callable[[int, int], None] | None = None, crop_shape: str = CROP_SHAPE,
            game_args: dict[str, Any] | None = None) -> Crops:
    """Drive ``game`` (full-size frames) and keep ``crops_wanted`` labelled crops (see the module docstring;
    ``crop_shape``: see `patch`; ``game_args``: replace some of the game's arguments, e.g. another park layout)."""
    from playtester.drive import Worker
    from playtester.env import default_space

    kinds = tuple(kinds)
    rng = random.Random(seed)
    spec = _spec(game, game_args)
    rows: dict[str, list[Any]] = {k: [] for k in ("patches", "labels", "kinds", "objects", "faces", "heights")}
    with Worker(spec, space=default_space(spec), capture="full") as w:
        obs = w.reset(seed=seed)
        status, walkable = w.call(HOOKS, "walkable")
        if status != "ok":
            from playtester.errors import UsageError

            raise UsageError(f"{game}: texture verdicts need the game's 'teleport' and 'walkable' hooks; it "
                             f"registers {', '.join(walkable) or 'none'}")
        split = _object_split(obs, kinds, seed)
        while len(rows["labels"]) < crops_wanted:
            obs = face_views(w, obs, rng, walkable, kinds)
            if obs.frame is None:
                continue
            for e, box, face, verdict in seen_faces(obs, kinds):
                rows["patches"].append(patch(obs.frame, box, shape=crop_shape))
                rows["labels"].append(verdict)
                rows["kinds"].append(kinds.index(e.kind))
                rows["objects"].append(_entity_index(e.id))
                rows["faces"].append(face)
                rows["heights"].append(box[3] - box[1])
            if progress is not None:
                progress(len(rows["labels"]), crops_wanted)
    object_split = np.full(max(split) + 1, -1, np.int64)  # -1: not an object of these kinds
    for i, s in split.items():
        object_split[i] = s
    return Crops(np.stack(rows["patches"]), np.array(rows["labels"], np.int64), np.array(rows["kinds"], np.int64),
                 np.array(rows["objects"], np.int64), np.array(rows["faces"], np.int64),
                 np.array(rows["heights"], np.float32), object_split, kinds, crop_shape)


def cache_path(game: str, n: int, seed: int = 0, crop_shape: str = CROP_SHAPE) -> Path:
    return CACHE_DIR / f"{game}-crops-{n}-s{seed}{'' if crop_shape == CROP_SHAPE else '-' + crop_shape}.npz"


def load_or_collect(game: str = "park", kinds: Sequence[str] = PARK_KINDS, n: int = 4000, seed: int = 0,
                    path: str | Path | None = None, progress: Any = None, crop_shape: str = CROP_SHAPE) -> Crops:
    """The cached crops, or new ones collected and cached. Another ``crop_shape`` than the default (e.g. ``box``,
    the first bundles' oblong patches, to measure those bundles) is cached apart."""
    path = Path(path) if path is not None else cache_path(Path(game).stem, n, seed, crop_shape)
    if path.exists():
        data = Crops.load(path)
        if (data.kind_names == tuple(kinds) and len(data) >= n and data.patches.shape[1] == PATCH
                and data.crop_shape == crop_shape):
            return data  # else (e.g. a cache of the other patches): collected again
    data = collect(game, kinds, n, seed, progress=progress, crop_shape=crop_shape)
    data.save(path)
    return data


# ---- the classifier ------------------------------------------------------------------------------------------
def _block(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
                         nn.Conv2d(c_out, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out),
                         nn.ReLU(inplace=True), nn.MaxPool2d(2))


class VerdictNet(nn.Module):
    """Three conv blocks (64 -> 32 -> 16 -> 8), global average and max pooling, a linear layer to the verdicts."""

    def __init__(self, width: int = 16, crop: int = CROP) -> None:
        super().__init__()
        self.width, self.crop = width, crop  # crop: the side of the crops it judges
        self.features = nn.Sequential(_block(3, width), _block(width, 2 * width), _block(2 * width, 4 * width))
        self.out = nn.Linear(8 * width, len(VERDICTS))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x - 0.5)
        return self.out(torch.cat([f.mean((2, 3)), f.amax((2, 3))], 1))


@dataclass
class VerdictConfig:
    epochs: int = 12
    batch: int = 64
    lr: float = 3e-3
    weight_decay: float = 1e-4
    width: int = 16
    jitter: float = 0.06
    brightness: float = 0.15
    seed: int = 0
    threads: int = 1
    time_budget: float | None = None
    crop: int = CROP
    stretch_aug: float = 0.0  # share of the normal training crops replaced by synthetic stretched ones (`synthesise`)
    stretch_factors: tuple[float, float] = STRETCH_FACTORS


@dataclass
class VerdictResult:
    model: VerdictNet
    epoch: int
    val_accuracy: float
    seconds: float
    history: list[dict[str, float]] = field(default_factory=list)
    crop_shape: str = CROP_SHAPE  # how the crops it learnt from were cut (see `patch`)
    cpu_seconds: float = float("nan")  # CPU time of the training (this process)
    augment: dict[str, Any] = field(default_factory=dict)  # the synthetic bugs it learnt from (none: {})


@torch.no_grad()
def classify(model: VerdictNet, patches: np.ndarray, batch: int = 256) -> np.ndarray:
    """Verdict probabilities (N, 3) of patches (N, PATCH, PATCH, 3) uint8."""
    model.eval()
    if len(patches) == 0:
        return np.zeros((0, len(VERDICTS)), np.float32)
    size = getattr(model, "crop", CROP)
    out = [torch.softmax(model(crops(patches[i:i + batch], size=size)), 1).numpy()
           for i in range(0, len(patches), batch)]
    return np.concatenate(out)


def accuracy(model: VerdictNet, data: Crops, idx: np.ndarray) -> float:
    if len(idx) == 0:
        return float("nan")
    return float((classify(model, data.patches[idx]).argmax(1) == data.labels[idx]).mean())


def train(data: Crops, config: VerdictConfig | None = None, log: Callable[[str], None] | None = None) -> VerdictResult:
    """Train on the ``train`` split (classes weighted to equal shares), keep the best epoch on ``val``."""
    cfg = config or VerdictConfig()
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    tr, va = data.indices("train"), data.indices("val")
    model = VerdictNet(cfg.width, cfg.crop)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    steps = max(1, cfg.epochs * math.ceil(len(tr) / cfg.batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg.lr, total_steps=steps, pct_start=0.15)
    counts = np.bincount(data.labels[tr], minlength=len(VERDICTS)).astype(np.float64)
    if cfg.stretch_aug:  # the classes' shares once the synthetic stretched crops are made
        moved = counts[VERDICTS.index("normal")] * cfg.stretch_aug
        counts[VERDICTS.index("normal")] -= moved
        counts[VERDICTS.index("stretched")] += moved
    weight = torch.tensor(counts.sum() / np.maximum(counts, 1) / len(VERDICTS), dtype=torch.float32)
    best: tuple[float, int, dict[str, Any]] = (-math.inf, -1, {})
    history = []
    start, cpu = time.perf_counter(), time.process_time()
    for epoch in range(cfg.epochs):
        model.train()
        order = rng.permutation(tr)
        losses = []
        for s in range(0, len(order), cfg.batch):
            idx = order[s:s + cfg.batch]
            p, y = data.patches[idx].copy(), data.labels[idx]
            if cfg.stretch_aug:
                p, y = synthesise(p, y, cfg.stretch_aug, rng, cfg.stretch_factors)
            flip = rng.random(len(idx)) < 0.5
            p[flip] = p[flip, :, ::-1]
            x = crops(p, cfg.jitter, rng, square=data.crop_shape != "box", size=cfg.crop)
            if cfg.brightness:
                x = (x * torch.from_numpy(rng.uniform(1 - cfg.brightness, 1 + cfg.brightness,
                                                      (len(idx), 1, 1, 1))).float()).clamp(0, 1)
            loss = F.cross_entropy(model(x), torch.from_numpy(y), weight=weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            losses.append(float(loss.detach()))
        val = accuracy(model, data, va) if len(va) else -float(np.mean(losses))
        elapsed = time.perf_counter() - start
        history.append({"epoch": epoch, "loss": float(np.mean(losses)), "val_accuracy": val, "seconds": elapsed})
        if log:
            log(f"epoch {epoch + 1}/{cfg.epochs}  loss {np.mean(losses):.3f}  val accuracy {val:.3f}  {elapsed:.0f}s")
        if val > best[0]:
            best = (val, epoch, {k: v.clone() for k, v in model.state_dict().items()})
        if cfg.time_budget is not None and elapsed > cfg.time_budget:
            break
    model.load_state_dict(best[2])
    model.eval()
    augment = ({"stretch": {"share_of_normal": cfg.stretch_aug, "factors": list(cfg.stretch_factors), "axis": "width"}}
               if cfg.stretch_aug else {})
    return VerdictResult(model, best[1], best[0], time.perf_counter() - start, history, data.crop_shape,
                         time.process_time() - cpu, augment)


# ---- the pipeline on frames with no probe: detector + classifier -----------------------------------------------
@dataclass
class Judgement:
    """One object judged on a frame: its box (full-frame pixels), kind, detector score, verdict and the
    verdict's probability."""

    box: tuple[float, float, float, float]
    kind: str
    score: float
    verdict: str
    p: float

    def as_dict(self) -> dict[str, Any]:
        return {"box": [round(v, 1) for v in self.box], "kind": self.kind, "score": round(self.score, 3),
                "verdict": self.verdict, "p": round(self.p, 3)}


class TextureJudge(FrameJudge):
    """Detector + verdict classifier, run on full-size frames (no probe). The two halves are apart too
    (`FrameJudge`): `detect` (the frame's objects) and `judge_found` (the verdicts of some of them), so the texture
    oracle can detect every frame, hand the detections to the agent, and classify only what it must."""

    def __init__(self, detector: nn.Module, detector_meta: dict[str, Any], verdict: VerdictNet,
                 min_score: float = 0.3, min_height: float = SEEN_MIN_HEIGHT, crop_shape: str = CROP_SHAPE) -> None:
        self.detector, self.verdict = detector.eval(), verdict.eval()
        self.crop_shape = crop_shape  # cut crops as the classifier's training did
        self.kinds = tuple(detector_meta["kinds"])
        self.input_size = tuple(detector_meta["input_size"])
        self.min_score, self.min_height = min_score, min_height

    def detect(self, frame: np.ndarray) -> list[tuple[tuple[float, float, float, float], str, float]]:
        """Boxes (full-frame pixels), kinds and scores of the objects the detector finds on ``frame``."""
        return self.detect_many(frame[None])[0]

    def detect_many(self, frames: np.ndarray, batch: int = 64
                    ) -> list[list[tuple[tuple[float, float, float, float], str, float]]]:
        """`detect` on each of ``frames`` (N, H, W, 3), run through the detector ``batch`` at a time (on this
        machine's CPU about 1.4x faster a frame than one by one)."""
        from playtester.vision.detector import detect

        H, W = frames.shape[1:3]
        sx, sy = W / self.input_size[0], H / self.input_size[1]
        small = frames if (W, H) == tuple(self.input_size) else \
            np.stack([downscale(f, self.input_size) for f in frames])
        out = []
        for boxes, scores, labels in detect(self.detector, small, batch=batch, min_score=self.min_score):
            found = []
            for b, s, lab in zip(boxes, scores, labels, strict=True):
                box = (max(0.0, float(b[0]) * sx), max(0.0, float(b[1]) * sy), min(W, float(b[2]) * sx),
                       min(H, float(b[3]) * sy))
                found.append((box, self.kinds[int(lab)], float(s)))
            out.append(_suppress(found))
        return out

    @property
    def fingerprint(self) -> str:
        """A hash of what decides the detections: the detector's weights, kinds, input size and score floor
        (results cached under it are this detector's, whichever file it was loaded from)."""
        if not hasattr(self, "_fingerprint"):
            h = hashlib.sha256(repr((self.kinds, tuple(self.input_size), self.min_score)).encode())
            for name, t in sorted(self.detector.state_dict().items()):
                h.update(name.encode())
                h.update(t.detach().cpu().contiguous().numpy().tobytes())
            self._fingerprint = h.hexdigest()[:24]
        return self._fingerprint

    @torch.no_grad()
    def __call__(self, frame: np.ndarray) -> list[Judgement]:
        """Every object found on ``frame`` whose box is at least ``min_height`` pixels tall, judged."""
        return self.judge_found(frame, self.detect(frame))

    @torch.no_grad()
    def judge_found(self, frame: np.ndarray, found: Sequence[tuple[Any, str, float]]) -> list[Judgement]:
        """The objects ``found`` on ``frame`` (`detect`'s) whose box is at least ``min_height`` pixels tall, judged."""
        found = [d for d in found if d[0][3] - d[0][1] >= self.min_height]
        if not found:
            return []
        probs = classify(self.verdict, np.stack([patch(frame, box, shape=self.crop_shape) for box, _, _ in found]))
        return [Judgement(box, kind, score, VERDICTS[int(p.argmax())], float(p.max()))
                for (box, kind, score), p in zip(found, probs, strict=True)]


def _suppress(dets: list[tuple[Any, str, float]], threshold: float = 0.5) -> list[tuple[Any, str, float]]:
    """Greedy non-maximum suppression across kinds (one object, one box)."""
    from playtester.vision.evaluate import iou

    kept: list[tuple[Any, str, float]] = []
    for d in sorted(dets, key=lambda d: -d[2]):
        if all(iou(np.array(d[0]), np.array([k[0]]))[0] < threshold for k in kept):
            kept.append(d)
    return kept


# ---- files ---------------------------------------------------------------------------------------------------
def save_bundle(path: str | Path, verdict: VerdictResult, detector_path: str | Path, min_score: float = 0.3,
                **extra: Any) -> Path:
    """One file with the detector (read from ``detector_path``: a `playtester.vision.detector.save` file, or a
    bundle, whose detector is taken, e.g. the shipped ``park-texture.pt``), the detector score it is trusted from
    (``min_score``) and the verdict classifier: what the ``texture`` oracle loads."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    detector = torch.load(detector_path, map_location="cpu", weights_only=True)
    if "verdict" in detector and "detector" in detector:  # a whole bundle: its detector
        detector = detector["detector"]
    torch.save({"detector": detector, "verdict": {"state_dict": verdict.model.state_dict(),
                                                  "width": verdict.model.width, "verdicts": list(VERDICTS),
                                                  "crop": verdict.model.crop, "patch": PATCH, "margin": MARGIN,
                                                  "crop_shape": verdict.crop_shape,
                                                  "epoch": verdict.epoch, "val_accuracy": verdict.val_accuracy,
                                                  "train_seconds": verdict.seconds,
                                                  "train_cpu_seconds": verdict.cpu_seconds,
                                                  "augment": verdict.augment},
                "min_score": float(min_score), **extra}, path)
    return path


def load_bundle(path: str | Path, **kw: Any) -> TextureJudge:
    """The `TextureJudge` in a bundle written by `save_bundle`."""
    from playtester.errors import UsageError
    from playtester.vision.detector import CenterNet

    try:
        meta = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - not a torch file, or one holding code: refused either way
        raise UsageError(f"{path} is not a model bundle playtester can read ({type(e).__name__}: {str(e)[:200]}); "
                         "give a bundle written by 'playtester vision verdict'") from None
    if not (isinstance(meta, dict) and isinstance(meta.get("detector"), dict) and isinstance(meta.get("verdict"), dict)):
        plain = isinstance(meta, dict) and "state_dict" in meta and "kinds" in meta
        raise UsageError(f"{path} is " + ("a detector from 'playtester vision train', not a texture bundle: the "
                                          "texture oracle and PPGTA's detector need a bundle from 'playtester vision "
                                          "verdict GAME --detector " + str(path) + "' (the detector plus its verdict "
                                          "classifier)" if plain else
                                          "not a texture bundle written by 'playtester vision verdict'"))
    det = dict(meta["detector"])
    detector = CenterNet(det["n_kinds"], det["width"])
    detector.load_state_dict(det.pop("state_dict"))
    v = meta["verdict"]
    verdict = VerdictNet(v["width"], int(v.get("crop", CROP)))
    verdict.load_state_dict(v["state_dict"])
    kw.setdefault("min_score", float(meta.get("min_score", 0.3)))
    kw.setdefault("crop_shape", str(v.get("crop_shape", "box")))  # older bundles: the box resized to a square
    return TextureJudge(detector, det, verdict, **kw)


# ---- evaluation of the whole pipeline on held-out objects --------------------------------------------------------
def evaluate_judge(judge: TextureJudge, game: str = "park", objects: set[int] | None = None, views: int = 300,
                   seed: int = 1, kinds: Sequence[str] = PARK_KINDS, iou_threshold: float = 0.5,
                   game_args: dict[str, Any] | None = None) -> dict[str, Any]:
    """Drive ``game`` to ``views`` face views of ``objects`` (held out) and judge the frames with no probe;
    compare with the probe's ground truth. Faces seen that the detector missed count as judged ``normal``
    (the oracle says nothing of them). Returns the counts and accuracies."""
    return evaluate_judges({"judge": judge}, game, objects, views, seed, kinds, iou_threshold, game_args)["judge"]


def evaluate_judges(judges: dict[str, TextureJudge], game: str = "park", objects: set[int] | None = None,
                    views: int = 300, seed: int = 1, kinds: Sequence[str] = PARK_KINDS, iou_threshold: float = 0.5,
                    game_args: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """`evaluate_judge` for several judges at once, on the same frames (a paired comparison): name -> result.
    ``objects`` None: every object of ``kinds``; ``game_args``: e.g. another park layout."""
    from playtester.drive import Worker
    from playtester.env import default_space

    rng = random.Random(seed)
    spec = _spec(game, game_args)
    tallies = {name: _Tally() for name in judges}
    with Worker(spec, space=default_space(spec), capture="full") as w:
        obs = w.reset(seed=seed)
        walkable = w.call(HOOKS, "walkable")[1]
        for _ in range(views):
            obs = face_views(w, obs, rng, walkable, kinds, objects)
            truth = seen_faces(obs, kinds)
            if not truth or obs.frame is None:
                continue
            truth = [t for t in truth if objects is None or _entity_index(t[0].id) in objects]
            for name, judge in judges.items():
                tallies[name].add(truth, judge(obs.frame), iou_threshold)
    return {name: t.result() for name, t in tallies.items()}


class _Tally:
    """`evaluate_judges`' counts for one judge."""

    def __init__(self) -> None:
        self.confusion = np.zeros((len(VERDICTS), len(VERDICTS)), np.int64)  # truth x judged (missed -> normal)
        self.on_detected = np.zeros_like(self.confusion)  # the faces the detector found
        self.matched = self.missed = 0
        self.by_kind: dict[str, list[int]] = {}  # kind -> [faces judged right (missed: as normal), faces seen]
        self.matches: list[dict[str, Any]] = []  # every face the detector found: its kind (true and judged), truth,
        # verdict, p, box height, score, distance
        self.faces: list[list[Any]] = []  # every face seen: object index, kind, face, truth, verdict (None: missed)

    def add(self, truth: list[tuple[Any, list[float], int, int]], judged: list[Judgement], iou_threshold: float) -> None:
        from playtester.vision.evaluate import iou

        confusion, on_detected, by_kind, matches = self.confusion, self.on_detected, self.by_kind, self.matches
        for e, box, face, verdict in truth:
            best = max(judged, key=lambda j: iou(np.array(box), np.array([j.box]))[0], default=None)
            tally = by_kind.setdefault(e.kind, [0, 0])
            tally[1] += 1
            if best is not None and iou(np.array(box), np.array([best.box]))[0] >= iou_threshold:
                self.matched += 1
                confusion[verdict, VERDICTS.index(best.verdict)] += 1
                on_detected[verdict, VERDICTS.index(best.verdict)] += 1
                tally[0] += int(VERDICTS.index(best.verdict) == verdict)
                matches.append({"kind": e.kind, "judged_kind": best.kind, "truth": VERDICTS[verdict],
                                "verdict": best.verdict, "p": round(best.p, 4),
                                "height": round(best.box[3] - best.box[1], 1), "score": round(best.score, 3),
                                "distance": round(float(e.attrs["distance"]), 2)})
                self.faces.append([_entity_index(e.id), e.kind, face, VERDICTS[verdict], best.verdict])
            else:
                self.missed += 1
                confusion[verdict, 0] += 1
                tally[0] += int(verdict == 0)
                self.faces.append([_entity_index(e.id), e.kind, face, VERDICTS[verdict], None])

    def result(self) -> dict[str, Any]:
        confusion, on_detected, matched = self.confusion, self.on_detected, self.matched
        total = int(confusion.sum())
        per_kind_verdict: dict[str, dict[str, list[int]]] = {}  # kind -> truth -> [right (missed: as normal), seen]
        for _, kind, _, truth, judged in self.faces:
            row = per_kind_verdict.setdefault(kind, {v: [0, 0] for v in VERDICTS})[truth]
            row[0] += int((judged or "normal") == truth)
            row[1] += 1
        return {"faces_seen": total, "detected": matched, "missed": self.missed,
                "accuracy": float(np.trace(confusion) / total) if total else float("nan"),
                "accuracy_detected": float(np.trace(on_detected) / matched) if matched else float("nan"),
                "per_verdict": {v: float(confusion[i, i] / confusion[i].sum()) if confusion[i].sum() else float("nan")
                                for i, v in enumerate(VERDICTS)},
                "per_kind": {k: {"faces_seen": n, "accuracy": round(r / n, 4)}
                             for k, (r, n) in sorted(self.by_kind.items())},
                "per_kind_verdict_right_of": dict(sorted(per_kind_verdict.items())),
                "confusion": confusion.tolist(), "confusion_detected": on_detected.tolist(), "matches": self.matches,
                "faces": self.faces}


def abstaining(ev: dict[str, Any], min_height: float | dict[str, float] = SEEN_MIN_HEIGHT, min_score: float = 0.0,
               min_p: float = 0.0) -> dict[str, Any]:
    """`evaluate_judge`'s faces scored as the texture oracle judges them: a face found with a box under
    ``min_height`` pixels, a detector score under ``min_score`` or a verdict probability under ``min_p`` is
    **not judged** (no verdict, no alarm) instead of guessed at. Accuracy on the faces judged, the share of the
    faces seen that were judged, and the bugged faces judged normal (missed bugs) and normal faces judged bugged
    (false alarms). ``min_height`` may be a table kind -> pixels, as the oracle's ``texture_min_height``: a face is
    held to the floor of the kind the detector named."""
    from playtester.oracles.texture import min_height_for

    judged = [m for m in ev["matches"] if m["height"] >= min_height_for(min_height, m.get("judged_kind", ""))
              and m["score"] >= min_score and m["p"] >= min_p]
    right = sum(m["truth"] == m["verdict"] for m in judged)
    seen = ev["faces_seen"]
    return {"min_height": min_height, "min_score": min_score, "min_p": min_p, "faces_seen": seen,
            "judged": len(judged), "not_judged": seen - len(judged),
            "judged_share": round(len(judged) / seen, 4) if seen else float("nan"),
            "accuracy_judged": round(right / len(judged), 4) if judged else float("nan"),
            "normal_judged_bugged": sum(m["truth"] == "normal" and m["verdict"] != "normal" for m in judged),
            "bug_judged_normal": sum(m["truth"] != "normal" and m["verdict"] == "normal" for m in judged),
            "bug_judged_other_bug": sum(m["truth"] != "normal" and m["verdict"] not in ("normal", m["truth"])
                                        for m in judged),
            "per_verdict": {v: round(sum(m["truth"] == v == m["verdict"] for m in judged) /
                                     max(1, sum(m["truth"] == v for m in judged)), 4) for v in VERDICTS},
            "per_kind": {k: {"judged": sum(m.get("kind") == k for m in judged),
                             "accuracy_judged": round(sum(m.get("kind") == k and m["truth"] == m["verdict"]
                                                          for m in judged) / max(1, sum(m.get("kind") == k
                                                                                        for m in judged)), 4)}
                         for k in sorted({m["kind"] for m in judged if "kind" in m})}}
