"""The synthetic stretched crops (`verdict.stretch`, `verdict.synthesise`): made from a normal crop, the box's texels
come out ``factor`` times as long on the chosen axis and unchanged on the other, the margin round the box is left
alone, and they are labelled ``stretched``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from playtester.vision import verdict as vd  # noqa: E402

TEXEL = 4  # pixels a side of a texel of the synthetic texture


def _checker(size: int = vd.PATCH, texel: int = TEXEL) -> np.ndarray:
    """A patch of square texels: a checkerboard, black and white, ``texel`` pixels a side."""
    y, x = np.mgrid[:size, :size]
    on = ((x // texel + y // texel) % 2).astype(np.uint8) * 255
    return np.repeat(on[..., None], 3, axis=2)


def _mean_run(line: np.ndarray) -> float:
    """Mean length of the runs of one colour along a line of pixels (thresholded at grey), the cut ends left out."""
    b = line > 127
    edges = np.flatnonzero(b[1:] != b[:-1])
    return float(np.diff(edges).mean())


def _box(size: int = vd.PATCH) -> tuple[int, int]:
    a, b = vd._inner(size)
    return int(np.ceil(a)) + 2, int(np.floor(b)) - 2  # inside the box, clear of its edges


@pytest.mark.parametrize("factor", [2.5, 3.0, 3.5])
def test_a_stretch_along_the_width_makes_square_texels_factor_times_wider(factor: float) -> None:
    p = _checker()[None]
    out = vd.stretch(p, factor, axis=2)[0]
    a, b = _box()
    rows = range(a, b, 3)
    wide = np.mean([_mean_run(out[r, a:b, 0]) for r in rows])
    tall = np.mean([_mean_run(out[a:b, c, 0]) for c in range(a, b, 3)])
    assert wide == pytest.approx(factor * TEXEL, rel=0.12)
    assert tall == pytest.approx(TEXEL, rel=0.05)  # the other axis is untouched
    # the margin round the box (the object's surroundings) is left as it was
    lo, hi = vd._inner(vd.PATCH)
    assert np.array_equal(out[:, : int(np.floor(lo))], p[0][:, : int(np.floor(lo))])
    assert np.array_equal(out[:, int(np.ceil(hi)):], p[0][:, int(np.ceil(hi)):])


def test_a_stretch_along_the_height_stretches_the_height_only() -> None:
    out = vd.stretch(_checker()[None], 3.0, axis=1)[0]
    a, b = _box()
    assert np.mean([_mean_run(out[a:b, c, 0]) for c in range(a, b, 3)]) == pytest.approx(3 * TEXEL, rel=0.12)
    assert np.mean([_mean_run(out[r, a:b, 0]) for r in range(a, b, 3)]) == pytest.approx(TEXEL, rel=0.05)


def test_the_stretch_is_about_the_box_centre_and_keeps_the_middle() -> None:
    # a ramp along the width: the box's middle value stays in the middle, its ends come from nearer the middle
    ramp = np.tile(np.arange(vd.PATCH, dtype=np.uint8)[None, :, None], (vd.PATCH, 1, 3))
    out = vd.stretch(ramp[None], 3.0, axis=2)[0, 64, :, 0].astype(int)
    a, b = vd._inner(vd.PATCH)
    left, right = int(np.ceil(a)), int(np.floor(b)) - 1
    assert abs(out[64] - 64) <= 1
    assert abs((out[right] - out[left]) - (right - left) / 3) <= 2  # the box shows a third of what it showed


def test_synthesise_relabels_only_normal_crops_as_stretched() -> None:
    rng = np.random.default_rng(0)
    patches = np.stack([_checker()] * 300)
    labels = np.array([0, 1, 2] * 100)
    out, new = vd.synthesise(patches, labels, 0.5, rng)
    changed = np.flatnonzero((out != patches).any(axis=(1, 2, 3)))
    assert set(new[changed]) == {vd.VERDICTS.index("stretched")}
    assert set(labels[changed]) == {vd.VERDICTS.index("normal")}  # lowres and stretched crops are left alone
    assert 30 <= len(changed) <= 70  # about half of the 100 normal crops
    assert (new[labels != 0] == labels[labels != 0]).all()
    assert (labels == np.array([0, 1, 2] * 100)).all()  # the caller's labels untouched
    # every changed crop really is stretched by a factor in the park's range
    a, b = _box()
    runs = [np.mean([_mean_run(out[i, r, a:b, 0]) for r in range(a, b, 5)]) / TEXEL for i in changed]
    assert min(runs) > vd.STRETCH_FACTORS[0] * 0.85 and max(runs) < vd.STRETCH_FACTORS[1] * 1.15
    with pytest.raises(ValueError):
        vd.stretch(patches[:1], 0.5)


def test_training_with_synthetic_stretch_says_so_in_the_bundle(tmp_path) -> None:
    import torch

    from playtester.vision.detector import CenterNet

    rng = np.random.default_rng(0)
    n = 24
    data = vd.Crops(rng.integers(0, 255, (n, vd.PATCH, vd.PATCH, 3), dtype=np.uint8), np.array([0, 1, 2] * 8),
                    np.zeros(n, np.int64), np.arange(n) % 6, np.zeros(n, np.int64), np.full(n, 100.0, np.float32),
                    np.array([0, 0, 0, 0, 1, 2]), ("rock_pillar",))
    det_path = tmp_path / "det.pt"
    torch.save({"state_dict": CenterNet(1, 8).state_dict(), "kinds": ["rock_pillar"], "input_size": [160, 120],
                "n_kinds": 1, "width": 8, "stride": 4}, det_path)
    plain = vd.train(data, vd.VerdictConfig(epochs=1, batch=8, width=4, crop=32))
    aug = vd.train(data, vd.VerdictConfig(epochs=1, batch=8, width=4, crop=32, stretch_aug=0.5))
    assert plain.augment == {} and aug.augment["stretch"]["share_of_normal"] == 0.5
    assert aug.cpu_seconds > 0
    meta = torch.load(vd.save_bundle(tmp_path / "b.pt", aug, det_path), map_location="cpu", weights_only=True)
    assert meta["verdict"]["augment"]["stretch"]["factors"] == list(vd.STRETCH_FACTORS)
    assert meta["verdict"]["train_cpu_seconds"] > 0
    # a bundle serves as the detector of the next one (the reproduction from a clone: the old shipped bundle)
    again = torch.load(vd.save_bundle(tmp_path / "c.pt", plain, tmp_path / "b.pt"), map_location="cpu",
                       weights_only=True)
    assert again["detector"].keys() == meta["detector"].keys() and "verdict" not in again["detector"]
    sd, sd0 = again["detector"]["state_dict"], meta["detector"]["state_dict"]
    assert sd.keys() == sd0.keys() and all(torch.equal(sd[k], sd0[k]) for k in sd)
