"""The CPU detector: targets, decoding, and a tiny end-to-end train on synthetic shots."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from playtester.vision import detector as dt  # noqa: E402
from playtester.vision.dataset import Shots, stratified_split  # noqa: E402
from playtester.vision.evaluate import ap_per_kind  # noqa: E402


def synthetic(n=260, size=(96, 64), seed=0):
    """Noisy green frames with red squares (kind 0) and blue upright bars (kind 1)."""
    rng = np.random.default_rng(seed)
    w, h = size
    frames = rng.integers(40, 120, (n, h, w, 3)).astype(np.uint8)
    frames[..., 1] += 60
    boxes, labels, shot, strata = [], [], [], []
    for i in range(n):
        kinds_here = []
        for _ in range(rng.integers(1, 3)):
            k = int(rng.integers(2))
            bw, bh = (int(rng.integers(8, 20)),) * 2 if k == 0 else (int(rng.integers(4, 8)), int(rng.integers(14, 30)))
            x0, y0 = int(rng.integers(0, w - bw)), int(rng.integers(0, h - bh))
            frames[i, y0:y0 + bh, x0:x0 + bw] = (220, 30, 30) if k == 0 else (30, 40, 230)
            boxes.append([x0, y0, x0 + bw, y0 + bh])
            labels.append(k)
            shot.append(i)
            kinds_here.append(k)
        strata.append(kinds_here[-1])
    return Shots(frames, np.array(boxes, np.float32), np.array(labels), np.array(shot),
                 stratified_split(strata, seed=seed), ("square", "bar"))


def test_targets_peak_at_the_box_centre_with_its_size():
    heat, reg, mask = dt.targets([np.array([[8.0, 4.0, 24.0, 36.0]])], [np.array([1])], 2, (16, 24))
    assert heat[0, 0].max() == 0 and heat[0, 1, 5, 4] == 1.0 and (heat[0, 1] == 1).sum() == 1
    assert mask.sum() == 1 and mask[0, 5, 4] == 1
    assert reg[0, :, 5, 4] == pytest.approx([np.log(4.0), np.log(8.0), 0.0, 0.0])


def test_decode_inverts_the_targets():
    box = np.array([[10.0, 6.0, 30.0, 46.0]])
    heat, reg, _ = dt.targets([box], [np.array([0])], 2, (16, 24))
    logits = torch.logit(torch.from_numpy(heat).clamp(1e-4, 1 - 1e-4))
    out = torch.cat([logits, torch.from_numpy(reg)], 1)
    boxes, scores, labels = dt.decode(out, 2, min_score=0.5)[0]
    assert labels.tolist() == [0] and boxes[0] == pytest.approx(box[0], abs=1e-4)


def test_tiny_training_finds_the_boxes(tmp_path):
    data = synthetic()
    test = data.indices("test")
    truths = [data.targets(i) for i in test]
    torch.manual_seed(0)
    untrained = dt.CenterNet(2, 8).eval()
    before = ap_per_kind(dt.detect(untrained, data.frames[test]), truths, data.kinds)
    result = dt.train(data, dt.TrainConfig(epochs=10, batch=16, width=8, threads=1, lr=5e-3))
    after = ap_per_kind(dt.detect(result.model, data.frames[test]), truths, data.kinds)
    assert min(after.values()) > 0.6, (before, after)
    assert min(after.values()) > max(before.values()) + 0.4
    # the file keeps the weights and what they detect
    path = dt.save(result, tmp_path / "m.pt")
    model, meta = dt.load(path)
    assert meta["kinds"] == ["square", "bar"] and meta["input_size"] == [96, 64]
    again = dt.detect(model, data.frames[test[:4]])
    first = dt.detect(result.model, data.frames[test[:4]])
    assert all(np.allclose(a[0], b[0]) and np.allclose(a[1], b[1]) for a, b in zip(again, first, strict=True))
    # files that are not what a command needs say so, as input errors (issue 54: KeyError tracebacks before)
    from playtester.errors import UsageError
    from playtester.vision import verdict

    with pytest.raises(UsageError, match="is a detector from 'playtester vision train', not a texture bundle"):
        verdict.load_bundle(path)
    torch.save({"weights": [1, 2]}, tmp_path / "other.pt")
    with pytest.raises(UsageError, match="not a detector written by 'playtester vision train'.*lacks state_dict"):
        dt.load(tmp_path / "other.pt")
    (tmp_path / "text.pt").write_text("not torch")
    with pytest.raises(UsageError, match="not a model file playtester can read"):
        dt.load(tmp_path / "text.pt")


def test_the_detector_of_the_shipped_bundle_loads_for_vision_evaluate():
    """`vision evaluate` on the shipped texture bundle evaluates its detector (a KeyError before, issue 54)."""
    from pathlib import Path

    model, meta = dt.load(Path(dt.__file__).parent / "park-texture.pt")
    assert meta["kinds"] and isinstance(model, dt.CenterNet)
