"""The banned words of a blind text-to-plan set (bench/text2plan_banned.py): inflections of a base, and the
checker that lists the banned words of a set's sentences and ignores its labels and comments."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from text2plan_banned import FUNCTION, check, forms  # noqa: E402


def test_forms_inflect_a_base():
    assert {"hop", "hops", "hopped", "hopping"} <= forms("hop")
    assert {"energize", "energise", "energised"} <= forms("energize")
    assert {"carry", "carries", "carried"} <= forms("carry")


def test_the_check_reads_sentences_only():
    text = '# a comment: lever\n  - ["Yank the Lever twice.", node, interact, switch, {yank: interact}]\n'
    found = check(text, {"lever", "yank", "switch"})
    assert len(found) == 2 and "'Yank'" in found[0] and "'Lever'" in found[1]  # not the label "switch"
    assert check('  - ["Go to it.", node, go, door]\n', {"door"}) == []
    assert "every" in FUNCTION and "whenever" in FUNCTION  # the words of a sentence's shape stay allowed
