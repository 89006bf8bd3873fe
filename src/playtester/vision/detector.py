"""A small CenterNet-style object detector, trained from scratch on the CPU (one file, top to bottom).

The net is fully convolutional: a 4-stage encoder (strides 2, 4, 8, 16) and a small top-down neck back
to stride 4, then one head per output cell with

* a heatmap per kind (sigmoid): 1 at the cell of an object's centre, a Gaussian around it, 0 elsewhere,
  trained with CenterNet's penalty-reduced focal loss;
* the box size as ``log(w / stride), log(h / stride)`` and the centre's offset inside its cell, trained
  with an L1 loss at the centre cells only.

Detections are the local maxima (3x3) of the heatmaps, each with its cell's size and offset. Training:
AdamW with a cosine learning rate, horizontal flips and brightness jitter; after each epoch the AP on the
validation split is measured and the best epoch's weights are kept (the validation split is used for
nothing else). The model file is a ``torch.save`` of ``{"state_dict", "kinds", "input_size", "width",
"epoch", "val_ap", ...}``.
"""

from __future__ import annotations

import math
import time
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

    raise missing("agents", "the detector", "PyTorch (torch)") from e

from playtester.vision.evaluate import ap_per_kind

STRIDE = 4


# ---- the net ---------------------------------------------------------------------------------------------
def conv(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, padding=dilation, dilation=dilation, bias=False),
                         nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class CenterNet(nn.Module):
    def __init__(self, n_kinds: int, width: int = 16) -> None:
        super().__init__()
        c1, c2, c3, c4 = width, 2 * width, 4 * width, 6 * width
        self.n_kinds = n_kinds
        self.s2 = nn.Sequential(conv(3, c1, 2), conv(c1, c1))
        self.s4 = nn.Sequential(conv(c1, c2, 2), conv(c2, c2))
        self.s8 = nn.Sequential(conv(c2, c3, 2), conv(c3, c3))
        self.s16 = nn.Sequential(conv(c3, c4, 2), conv(c4, c4), conv(c4, c4, dilation=2))
        self.lat8, self.top16 = nn.Conv2d(c3, c3, 1), nn.Conv2d(c4, c3, 1)
        self.fuse8 = conv(c3, c3)
        self.lat4, self.top8 = nn.Conv2d(c2, c2, 1), nn.Conv2d(c3, c2, 1)
        self.fuse4 = conv(c2, c2)
        self.head = nn.Sequential(conv(c2, 2 * c2), nn.Conv2d(2 * c2, n_kinds + 4, 1))
        nn.init.constant_(self.head[-1].bias[:n_kinds], -2.19)  # a prior of 0.1 on every cell
        nn.init.zeros_(self.head[-1].bias[n_kinds:])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, 3, H, W) floats in [0, 1] -> (B, kinds + 4, H / 4, W / 4): heatmap logits, log sizes, offsets."""
        x = x - 0.5
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        p8 = self.fuse8(self.lat8(f8) + F.interpolate(self.top16(f16), size=f8.shape[-2:], mode="nearest"))
        p4 = self.fuse4(self.lat4(f4) + F.interpolate(self.top8(p8), size=f4.shape[-2:], mode="nearest"))
        return self.head(p4)


# ---- targets and loss ------------------------------------------------------------------------------------
def targets(boxes_per_image: Sequence[np.ndarray], labels_per_image: Sequence[np.ndarray], n_kinds: int,
            out_hw: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heatmaps (B, K, h, w), regression targets (B, 4, h, w) and the centre mask (B, h, w) of a batch."""
    h, w = out_hw
    heat = np.zeros((len(boxes_per_image), n_kinds, h, w), dtype=np.float32)
    reg = np.zeros((len(boxes_per_image), 4, h, w), dtype=np.float32)
    mask = np.zeros((len(boxes_per_image), h, w), dtype=np.float32)
    ys, xs = np.arange(h)[:, None], np.arange(w)[None, :]
    for b, (boxes, labels) in enumerate(zip(boxes_per_image, labels_per_image, strict=True)):
        order = np.argsort(-(boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])) if len(boxes) else []
        for i in order:  # big first, so a small object's centre wins a shared cell
            x0, y0, x1, y1 = boxes[i] / STRIDE
            cx, cy = min((x0 + x1) / 2, w - 1e-3), min((y0 + y1) / 2, h - 1e-3)
            ix, iy = int(cx), int(cy)
            sx, sy = max(0.5, (x1 - x0) / 6), max(0.5, (y1 - y0) / 6)
            g = np.exp(-((xs - ix) ** 2) / (2 * sx * sx) - ((ys - iy) ** 2) / (2 * sy * sy))
            heat[b, labels[i]] = np.maximum(heat[b, labels[i]], g)
            reg[b, :, iy, ix] = (math.log(max(x1 - x0, 0.25)), math.log(max(y1 - y0, 0.25)), cx - ix, cy - iy)
            mask[b, iy, ix] = 1.0
    return heat, reg, mask


def loss_fn(out: torch.Tensor, heat: torch.Tensor, reg: torch.Tensor, mask: torch.Tensor,
            n_kinds: int) -> tuple[torch.Tensor, dict[str, float]]:
    """CenterNet's focal loss on the heatmaps plus L1 on sizes and offsets at the centres."""
    p = torch.sigmoid(out[:, :n_kinds]).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    n_pos = pos.sum().clamp(min=1.0)
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - pos)).sum()
    focal = (pos_loss + neg_loss) / n_pos
    m = mask.unsqueeze(1)
    l1 = (F.l1_loss(out[:, n_kinds:], reg, reduction="none") * m).sum() / n_pos
    return focal + l1, {"focal": float(focal.detach()), "l1": float(l1.detach())}


# ---- decoding --------------------------------------------------------------------------------------------
@torch.no_grad()
def decode(out: torch.Tensor, n_kinds: int, top_k: int = 50,
           min_score: float = 0.01) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(boxes x0 y0 x1 y1 in input pixels, scores, labels) per image of a batch of net outputs."""
    heat = torch.sigmoid(out[:, :n_kinds])
    peaks = heat * (F.max_pool2d(heat, 3, 1, 1) == heat).float()
    b, k, h, w = heat.shape
    scores, idx = peaks.reshape(b, -1).topk(min(top_k, k * h * w))
    result = []
    for i in range(b):
        keep = scores[i] >= min_score
        s, j = scores[i][keep], idx[i][keep]
        lab, cell = j // (h * w), j % (h * w)
        cy, cx = cell // w, cell % w
        r = out[i, n_kinds:].reshape(4, -1)[:, cell]
        bw, bh = torch.exp(r[0]), torch.exp(r[1])
        x, y = cx.float() + r[2], cy.float() + r[3]
        boxes = torch.stack([x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2], 1) * STRIDE
        result.append((boxes.numpy(), s.numpy(), lab.numpy()))
    return result


def as_tensor(frames: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(frames)).permute(0, 3, 1, 2).float() / 255.0


@torch.no_grad()
def detect(model: CenterNet, frames: np.ndarray, batch: int = 64,
           **kw: Any) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Detections on uint8 frames (N, H, W, 3) at the model's input size."""
    model.eval()
    out = []
    for i in range(0, len(frames), batch):
        out += decode(model(as_tensor(frames[i:i + batch])), model.n_kinds, **kw)
    return out


# ---- training --------------------------------------------------------------------------------------------
@dataclass
class TrainConfig:
    epochs: int = 10
    batch: int = 32
    lr: float = 3e-3
    weight_decay: float = 1e-4
    width: int = 16
    seed: int = 0
    threads: int = 2
    time_budget: float | None = None  # seconds; stops early (keeping the best epoch) when spent
    flip: bool = True
    brightness: float = 0.15


@dataclass
class TrainResult:
    model: CenterNet
    kinds: tuple[str, ...]
    input_size: tuple[int, int]
    epoch: int
    val_ap: dict[str, float]
    seconds: float
    history: list[dict[str, float]] = field(default_factory=list)


def train(data: Any, config: TrainConfig | None = None,
          log: Callable[[str], None] | None = None) -> TrainResult:
    """Train on the ``train`` split of `playtester.vision.dataset.Shots`, keeping the best epoch on ``val``."""
    cfg = config or TrainConfig()
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    kinds = tuple(data.kinds)
    n_kinds = len(kinds)
    tr, va = data.indices("train"), data.indices("val")
    per_shot = [data.targets(i) for i in range(len(data))]
    h, w = data.frames.shape[1:3]
    out_hw = (math.ceil(h / STRIDE), math.ceil(w / STRIDE))
    model = CenterNet(n_kinds, cfg.width)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    steps = cfg.epochs * math.ceil(len(tr) / cfg.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg.lr, total_steps=steps, pct_start=0.1)
    best: tuple[float, int, dict[str, Any], dict[str, float]] = (-1.0, -1, {}, {})
    history = []
    start = time.perf_counter()
    for epoch in range(cfg.epochs):
        model.train()
        order = rng.permutation(tr)
        losses = []
        for s in range(0, len(order), cfg.batch):
            idx = order[s:s + cfg.batch]
            frames = data.frames[idx].copy()
            boxes = [per_shot[i][0].copy() for i in idx]
            labels = [per_shot[i][1] for i in idx]
            if cfg.flip:  # mirror half the batch
                for j in np.flatnonzero(rng.random(len(idx)) < 0.5):
                    frames[j] = frames[j, :, ::-1]
                    boxes[j][:, [0, 2]] = w - boxes[j][:, [2, 0]]
            x = as_tensor(frames)
            if cfg.brightness:
                x = (x * torch.from_numpy(rng.uniform(1 - cfg.brightness, 1 + cfg.brightness,
                                                      (len(idx), 1, 1, 1))).float()).clamp(0, 1)
            heat, reg, mask = (torch.from_numpy(a) for a in targets(boxes, labels, n_kinds, out_hw))
            loss, _ = loss_fn(model(x), heat, reg, mask, n_kinds)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            losses.append(float(loss.detach()))
        val = ap_per_kind(detect(model, data.frames[va]), [per_shot[i] for i in va], kinds)
        mean = float(np.nanmean(list(val.values())))
        elapsed = time.perf_counter() - start
        history.append({"epoch": epoch, "loss": float(np.mean(losses)), "val_map": mean, "seconds": elapsed})
        if log:
            log(f"epoch {epoch + 1}/{cfg.epochs}  loss {np.mean(losses):.3f}  val mAP {mean:.3f}  {elapsed:.0f}s")
        if mean > best[0]:
            best = (mean, epoch, {k: v.clone() for k, v in model.state_dict().items()}, val)
        if cfg.time_budget is not None and elapsed > cfg.time_budget:
            break
    model.load_state_dict(best[2])
    model.eval()
    return TrainResult(model, kinds, (w, h), best[1], best[3], time.perf_counter() - start, history)


# ---- files -----------------------------------------------------------------------------------------------
def save(result: TrainResult, path: str | Path, **extra: Any) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"state_dict": result.model.state_dict(), "kinds": list(result.kinds),
                "input_size": list(result.input_size), "n_kinds": len(result.kinds),
                "width": result.model.s2[0][0].out_channels, "stride": STRIDE, "epoch": result.epoch,
                "val_ap": result.val_ap, "train_seconds": result.seconds, **extra}, path)
    return path


DETECTOR_KEYS = ("state_dict", "kinds", "n_kinds", "width")


def load(path: str | Path) -> tuple[CenterNet, dict[str, Any]]:
    """The model in a file written by `save` (or the detector inside a `vision verdict` bundle), and its metadata.

    Raises:
        UsageError: the file is no model playtester wrote (the message names what it holds).
    """
    from playtester.errors import UsageError

    try:
        meta = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - not a torch file, or one holding code: refused either way
        raise UsageError(f"{path} is not a model file playtester can read ({type(e).__name__}: {str(e)[:200]}); "
                         "give a file written by 'playtester vision train'") from None
    if isinstance(meta, dict) and isinstance(meta.get("detector"), dict) and "verdict" in meta:
        meta = {**meta["detector"], "game": meta.get("game", meta["detector"].get("game", "park"))}  # a bundle
    missing = [k for k in DETECTOR_KEYS if not isinstance(meta, dict) or k not in meta]
    if missing:
        held = ", ".join(sorted(map(str, meta))[:12]) if isinstance(meta, dict) else type(meta).__name__
        raise UsageError(f"{path} is not a detector written by 'playtester vision train' (it lacks "
                         f"{', '.join(missing)}; it holds {held or 'nothing'})")
    meta = dict(meta)
    model = CenterNet(meta["n_kinds"], meta["width"])
    model.load_state_dict(meta.pop("state_dict"))
    model.eval()
    return model, meta
