"""AP@0.5 on hand-made cases whose AP is known."""

from __future__ import annotations

import math

import numpy as np
import pytest

from playtester.vision.evaluate import ap_per_kind, average_precision, iou, match

A = [0.0, 0.0, 10.0, 10.0]
B = [20.0, 20.0, 30.0, 40.0]


def det(*rows):
    """Detections of one image: (box, score, label) rows."""
    if not rows:
        return np.zeros((0, 4)), np.zeros(0), np.zeros(0, dtype=int)
    return (np.array([r[0] for r in rows], float), np.array([r[1] for r in rows]),
            np.array([r[2] for r in rows]))


def truth(*rows):
    if not rows:
        return np.zeros((0, 4)), np.zeros(0, dtype=int)
    return np.array([r[0] for r in rows], float), np.array([r[1] for r in rows])


def test_iou():
    assert iou(np.array(A), np.array([A]))[0] == pytest.approx(1.0)
    assert iou(np.array(A), np.array([[5.0, 0.0, 15.0, 10.0]]))[0] == pytest.approx(50 / 150)
    assert iou(np.array(A), np.array([B]))[0] == 0.0


def test_average_precision_of_ranked_flags():
    assert average_precision([True, True], 2) == pytest.approx(1.0)
    assert average_precision([False, True], 1) == pytest.approx(0.5)  # a false positive ranked first
    assert average_precision([True, False], 1) == pytest.approx(1.0)  # ranked last: no harm
    assert average_precision([True], 2) == pytest.approx(0.5)  # a missed object
    assert average_precision([], 3) == 0.0
    assert math.isnan(average_precision([False], 0))
    # the VOC textbook case: precision envelope 1, 2/3, 1/2 at recall steps of 1/4, recall ends at 3/4
    assert average_precision([True, False, True, False, False, True], 4) == pytest.approx((1 + 2 / 3 + 1 / 2) / 4)
    # the envelope: a later, higher precision lifts the earlier recall step
    assert average_precision([False, True, True], 2) == pytest.approx(2 / 3)


def test_perfect_detections_give_one():
    truths = [truth((A, 0), (B, 1)), truth((B, 0))]
    dets = [det((A, 0.9, 0), (B, 0.8, 1)), det((B, 0.7, 0))]
    assert ap_per_kind(dets, truths, ["a", "b"]) == {"a": pytest.approx(1.0), "b": pytest.approx(1.0)}


def test_false_positive_ranked_first_and_missed_objects():
    truths = [truth((A, 0)), truth((B, 0))]
    # a false positive (wrong place) above the only true positive; the other object is missed
    dets = [det(([50.0, 50.0, 60.0, 60.0], 0.9, 0), (A, 0.5, 0)), det()]
    flags, n = match(dets, truths, 0)
    assert flags == [False, True] and n == 2
    assert ap_per_kind(dets, truths, ["a"])["a"] == pytest.approx(0.25)


def test_duplicates_wrong_kind_and_low_overlap_are_false_positives():
    truths = [truth((A, 0))]
    dets = [det((A, 0.9, 0), (A, 0.8, 0), ([6.0, 0.0, 16.0, 10.0], 0.7, 0), (A, 0.95, 1))]
    flags, n = match(dets, truths, 0)
    assert flags == [True, False, False] and n == 1
    ap = ap_per_kind(dets, truths, ["a", "b"])
    assert ap["a"] == pytest.approx(1.0) and math.isnan(ap["b"])  # kind b has no box to find
    # IoU exactly 0.5 counts (>=): a box twice as wide as the truth
    assert match([det(([0.0, 0.0, 20.0, 10.0], 1.0, 0))], truths, 0)[0] == [True]


def test_a_detection_in_the_wrong_image_does_not_match():
    truths = [truth((A, 0)), truth()]
    dets = [det(), det((A, 0.9, 0))]
    assert ap_per_kind(dets, truths, ["a"])["a"] == 0.0
