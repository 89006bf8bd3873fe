"""The park's detector before and after the hard negatives, on the same test shots.

``bench/vision.py --scenery 600 --miner bench/out/vision-seed0.pt --out-prefix vision_hardneg --name
vision_hardneg`` trains a detector on the 2000 labelled shots plus 600 scenery-only shots (hard negatives,
`playtester.vision.dataset.collect_scenery`, each split 70/10/20). This bench measures both detectors (the first
one, trained without them, and the new one) on the merged set's test split:

- AP@0.5 per kind on the whole test split (the scenery shots add false positives to it), and on the test shots
  of the first 2000 (the split of ``vision.json``);
- false detections on the **scenery test shots** (nothing to detect there): the share of shots with a detection
  at the texture judge's score (0.3) or more, and detections per shot;
- the same on the whole test split: detections at 0.3 or more that match no labelled box (IoU < 0.5).

Written to bench/results/vision_hardneg_compare.json.

    .venv/bin/python bench/vision_hardneg.py [--before bench/out/vision-seed0.pt] [--after bench/out/vision_hardneg-seed0.pt]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import ROOT, provenance, write_results  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, default=ROOT / "bench" / "out" / "vision-seed0.pt")
    ap.add_argument("--after", type=Path, default=ROOT / "bench" / "out" / "vision_hardneg-seed0.pt")
    ap.add_argument("--data", type=Path, default=ROOT / ".cache" / "vision" / "park-scenery600.npz")
    ap.add_argument("--base-shots", type=int, default=2000, help="the first N shots are the labelled ones")
    ap.add_argument("--min-score", type=float, default=0.3)
    args = ap.parse_args()
    made = provenance()

    import numpy as np
    import torch

    torch.set_num_threads(1)
    from playtester.vision.dataset import Shots
    from playtester.vision.detector import detect, load
    from playtester.vision.evaluate import ap_per_kind, iou

    data = Shots.load(args.data)
    test = data.indices("test")
    base = test[test < args.base_shots]
    scenery = test[test >= args.base_shots]
    record = {"data": os.path.relpath(args.data, ROOT), "test_shots": len(test), "test_base_shots": len(base),
              "test_scenery_shots": len(scenery), "min_score": args.min_score, "models": {}}
    for name, path in (("before", args.before), ("after", args.after)):
        net, _meta = load(path)
        dets = detect(net, data.frames[test])
        by_shot = dict(zip(test.tolist(), dets, strict=True))
        truth = {int(i): data.targets(int(i)) for i in test}
        ap_all = ap_per_kind(dets, [truth[int(i)] for i in test], data.kinds)
        ap_base = ap_per_kind([by_shot[int(i)] for i in base], [truth[int(i)] for i in base], data.kinds)
        on_scenery = [int((by_shot[int(i)][1] >= args.min_score).sum()) for i in scenery]
        unmatched = 0
        for i in test:
            boxes, scores, _ = by_shot[int(i)]
            gt = truth[int(i)][0]
            for b in boxes[scores >= args.min_score]:
                if not len(gt) or iou(np.asarray(b, float), np.asarray(gt, float)).max() < 0.5:
                    unmatched += 1
        record["models"][name] = {
            "file": os.path.relpath(path, ROOT),
            "ap_test": {k: round(v, 4) for k, v in ap_all.items()},
            "ap_test_base_shots": {k: round(v, 4) for k, v in ap_base.items()},
            "scenery_shots_with_a_detection": sum(n > 0 for n in on_scenery),
            "scenery_share_with_a_detection": round(sum(n > 0 for n in on_scenery) / max(1, len(scenery)), 4),
            "scenery_detections_per_shot": round(sum(on_scenery) / max(1, len(scenery)), 4),
            "unmatched_detections_test": unmatched,
            "unmatched_detections_per_test_shot": round(unmatched / len(test), 4),
        }
        m = record["models"][name]
        print(f"{name}: AP {m['ap_test']} (first 2000's test shots: {m['ap_test_base_shots']}); scenery shots with a "
              f"detection >= {args.min_score}: {m['scenery_shots_with_a_detection']}/{len(scenery)}; unmatched "
              f"detections on the test split: {unmatched}")
    print(f"written to {write_results('vision_hardneg_compare', record, made)}")


if __name__ == "__main__":
    main()
