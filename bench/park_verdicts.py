"""The park's object-test verdicts: how often the crop classifier judges a face seen right (normal / lowres /
stretched), on objects held out of its training.

Reads the model bundle (``playtester vision verdict park`` writes .cache/vision/park-texture.pt: the detector
and the verdict classifier) and the cached crops it was trained on (.cache/vision/park-crops-4000-s0.npz,
split 70/10/20 by object), then measures

- **probe boxes**: verdicts on the test split's crops (boxes from the probe), overall, per verdict and per
  kind of object;
- **end to end**: the park driven to ``--views`` face views of the test objects (three verdicts in equal
  shares), each frame judged with no probe (detector, then classifier on its boxes) and compared with the
  ground truth of every face seen: the share of faces the detector found, the verdicts right among those,
  and among all faces seen (a face the detector missed counts as judged normal: the oracle says nothing).

Per verdict and per kind of object, both ways. The crops are those the bundle's classifier was trained on:
cut as the bundle says (``crop_shape``, `playtester.vision.verdict.patch`: ``box``, the box resized to a square,
for a bundle that says nothing; ``inner``, the largest square inside it), from the same views and boxes. ``--before FILE`` puts an earlier
results file's figures beside the new ones (``before``).

``--train`` retrains the classifier first (as the CLI does) and writes the bundle. Results go to
bench/results/park_verdicts.json.

    .venv/bin/python bench/park_verdicts.py [--views 300] [--train [--crop-shape inner]] [--before RESULTS.json]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import ROOT, provenance, write_results  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", default=str(ROOT / ".cache" / "vision" / "park-texture.pt"))
    ap.add_argument("--detector", default=str(ROOT / "bench" / "out" / "vision-seed0.pt"),
                    help="the detector to bundle when training (bench/vision.py writes it)")
    ap.add_argument("--crops", type=int, default=4000)
    ap.add_argument("--views", type=int, default=300)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--train", action="store_true")
    ap.add_argument("--crop-shape", default=None, help="--train: the crops' shape (default: verdict.CROP_SHAPE)")
    ap.add_argument("--rebundle", type=Path, default=None,
                    help="first swap the bundle's detector for this one (bench/vision.py writes it), keeping its "
                         "verdict classifier; the bundle is rewritten")
    ap.add_argument("--name", default="park_verdicts", help="results file name under bench/results")
    ap.add_argument("--before", type=Path, default=None,
                    help="an earlier results file of this bench, whose figures go beside the new ones")
    args = ap.parse_args()
    made = provenance()

    import numpy as np
    import torch

    torch.set_num_threads(1)
    from playtester.vision import verdict as vd
    from playtester.vision.dataset import SPLITS

    os.chdir(ROOT)  # the crops' cache is relative to the repository
    data = vd.load_or_collect("park", n=args.crops, seed=0, crop_shape=args.crop_shape or vd.CROP_SHAPE)
    if args.train:
        result = vd.train(data, vd.VerdictConfig(epochs=args.epochs, threads=1), log=print)
        vd.save_bundle(args.bundle, result, args.detector, game="park")
    if args.rebundle is not None:
        whole = torch.load(args.bundle, map_location="cpu", weights_only=True)
        whole["detector"] = torch.load(args.rebundle, map_location="cpu", weights_only=True)
        whole["detector_file"] = os.path.relpath(args.rebundle, ROOT)
        torch.save(whole, args.bundle)
    whole = torch.load(args.bundle, map_location="cpu", weights_only=True)
    meta = whole["verdict"]
    judge = vd.load_bundle(args.bundle)
    if judge.crop_shape != vd.CROP_SHAPE:  # e.g. a bundle of the first classifiers: the patches it was trained on
        data = vd.load_or_collect("park", n=args.crops, seed=0, crop_shape=judge.crop_shape)
    test = data.indices("test")
    pred = vd.classify(judge.verdict, data.patches[test]).argmax(1)
    truth = data.labels[test]
    per_verdict = {v: round(float((pred[truth == i] == i).mean()), 4) for i, v in enumerate(vd.VERDICTS)
                   if (truth == i).any()}
    per_kind = {k: round(float((pred[data.kinds[test] == i] == truth[data.kinds[test] == i]).mean()), 4)
                for i, k in enumerate(data.kind_names) if (data.kinds[test] == i).any()}
    per_kind_verdict = {k: {v: [int(((pred == j) & (truth == j) & (data.kinds[test] == i)).sum()),
                                int(((truth == j) & (data.kinds[test] == i)).sum())] for j, v in enumerate(vd.VERDICTS)}
                        for i, k in enumerate(data.kind_names) if (data.kinds[test] == i).any()}
    held_out = {int(i) for i in np.flatnonzero(data.object_split == SPLITS.index("test"))}
    start = time.perf_counter()
    e2e = vd.evaluate_judge(judge, "park", held_out, args.views, seed=1)
    from playtester.oracles.texture import DEFAULTS

    matches = e2e.pop("matches")
    # the faces as the texture oracle judges them: boxes too small, unsure detections and unsure verdicts are
    # "not judged" (no verdict, no alarm) rather than guessed at; at the oracle's frozen defaults, at the
    # settings before them, and by minimum box height alone
    e2e_with = dict(e2e, matches=matches)
    oracle_view = {
        "frozen_defaults": vd.abstaining(e2e_with, DEFAULTS["texture_min_height"], DEFAULTS["texture_min_score"],
                                         DEFAULTS["texture_min_p"]),
        "before": vd.abstaining(e2e_with, 32.0, 0.3, 0.9),
        "by_min_height": [vd.abstaining(e2e_with, h) for h in (32.0, 40.0, 48.0, 64.0)],
    }
    record = {
        "game": "park", "crops": data.counts(), "patch": vd.PATCH, "crop": int(meta.get("crop", vd.CROP)),
        "crop_shape": judge.crop_shape,
        "bundle": os.path.relpath(args.bundle, ROOT), "detector_file": whole.get("detector_file"),
        "detector_test_ap": whole["detector"].get("test_ap"),
        "training": {"epochs_kept": meta["epoch"] + 1, "val_accuracy": round(meta["val_accuracy"], 4),
                     "train_seconds": round(meta["train_seconds"], 1), "threads": 1},
        "test_objects": sorted(held_out),
        "probe_boxes": {"crops": int(len(test)), "accuracy": round(float((pred == truth).mean()), 4),
                        "per_verdict": per_verdict, "per_kind": per_kind,
                        "per_kind_verdict_right_of": per_kind_verdict},
        "end_to_end": {**{k: (round(v, 4) if isinstance(v, float) else v) for k, v in e2e.items()},
                       "views": args.views, "seconds": round(time.perf_counter() - start, 1)},
        "as_the_oracle_judges": oracle_view, "settings": dict(DEFAULTS),
    }
    if args.before is not None:
        import json

        b = json.loads(args.before.read_text())
        record["before"] = {"file": os.path.relpath(args.before, ROOT), "date": b.get("date"),
                            "commit": b.get("commit"), "bundle": b.get("bundle"),
                            "crop_shape": b.get("crop_shape", "box"), "training": b.get("training"),
                            "probe_boxes": b.get("probe_boxes"), "end_to_end": b.get("end_to_end"),
                            "as_the_oracle_judges": {"frozen_defaults":
                                                     b.get("as_the_oracle_judges", {}).get("frozen_defaults")}}
    print(f"probe boxes: {100 * record['probe_boxes']['accuracy']:.1f}% of {len(test)} test crops right "
          f"({per_verdict}); end to end: {e2e['detected']}/{e2e['faces_seen']} faces found, verdicts right "
          f"{100 * e2e['accuracy_detected']:.1f}% of those, {100 * e2e['accuracy']:.1f}% of all")
    fz = oracle_view["frozen_defaults"]
    print(f"as the oracle judges (frozen defaults {dict(DEFAULTS)}): {fz['judged']}/{fz['faces_seen']} faces judged, "
          f"{100 * fz['accuracy_judged']:.1f}% of them right; {fz['normal_judged_bugged']} normal faces judged bugged")
    print(f"written to {write_results(args.name, record, made)}")


if __name__ == "__main__":
    main()
