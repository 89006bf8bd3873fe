"""Average precision of a detector, per kind, at an IoU threshold (PASCAL VOC's all-point interpolated AP).

For one kind: the detections of every image, ranked by score (highest first), are matched greedily to
the ground-truth boxes of their image: a detection is a true positive when its best IoU with a box of the
kind not matched yet is at least ``iou`` (that box is then matched), else a false positive. AP is the
area under the precision-recall curve after making precision monotone (each precision replaced by the
best precision at that recall or beyond), summed over every recall step.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def iou(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """IoU of one ``x0, y0, x1, y1`` box with each row of ``boxes``."""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    ix = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
    iy = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
    inter = ix * iy
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return inter / np.maximum(area + areas - inter, 1e-12)


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """IoU of two ``x0, y0, x1, y1`` boxes (0 when either is empty)."""
    return float(iou(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))[0])


def average_precision(tp: Sequence[bool], n_truth: int) -> float:
    """All-point interpolated AP of detections already ranked by score (``tp``: true positive or not)."""
    if n_truth == 0:
        return float("nan")
    tp_arr = np.asarray(tp, dtype=np.float64)
    if tp_arr.size == 0:
        return 0.0
    tps = np.cumsum(tp_arr)
    fps = np.cumsum(1 - tp_arr)
    recall = np.concatenate([[0.0], tps / n_truth, [1.0]])
    precision = np.concatenate([[0.0], tps / (tps + fps), [0.0]])
    precision = np.maximum.accumulate(precision[::-1])[::-1]  # the envelope: best precision to the right
    step = np.flatnonzero(recall[1:] != recall[:-1])
    return float(np.sum((recall[step + 1] - recall[step]) * precision[step + 1]))


def match(detections: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
          truths: Sequence[tuple[np.ndarray, np.ndarray]], label: int,
          threshold: float = 0.5) -> tuple[list[bool], int]:
    """Ranked true-positive flags of the detections of kind ``label`` and the number of boxes of that kind.

    ``detections[i]`` is ``(boxes, scores, labels)`` of image ``i``; ``truths[i]`` is ``(boxes, labels)``."""
    ranked = []  # (score, image, box)
    n_truth = 0
    for i, ((boxes, scores, labels), (_, tlabels)) in enumerate(zip(detections, truths, strict=True)):
        for b, s in zip(np.asarray(boxes).reshape(-1, 4)[np.asarray(labels) == label],
                        np.asarray(scores)[np.asarray(labels) == label], strict=False):
            ranked.append((float(s), i, b))
        n_truth += int((np.asarray(tlabels) == label).sum())
    ranked.sort(key=lambda r: -r[0])
    used = {i: np.zeros(int((np.asarray(t[1]) == label).sum()), dtype=bool) for i, t in enumerate(truths)}
    flags = []
    for _, i, b in ranked:
        tboxes = np.asarray(truths[i][0]).reshape(-1, 4)[np.asarray(truths[i][1]) == label]
        if len(tboxes) == 0:
            flags.append(False)
            continue
        overlaps = iou(np.asarray(b, dtype=np.float64), tboxes)
        overlaps[used[i]] = -1.0
        j = int(np.argmax(overlaps))
        if overlaps[j] >= threshold:
            used[i][j] = True
            flags.append(True)
        else:
            flags.append(False)
    return flags, n_truth


def ap_per_kind(detections: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
                truths: Sequence[tuple[np.ndarray, np.ndarray]], kinds: Sequence[str],
                threshold: float = 0.5) -> dict[str, float]:
    """AP at IoU ``threshold`` of each kind (NaN for a kind with no box in ``truths``)."""
    return {k: average_precision(*match(detections, truths, j, threshold)) for j, k in enumerate(kinds)}
