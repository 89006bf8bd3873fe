"""Delta debugging finds 1-minimal failing inputs."""

from __future__ import annotations

from playtester.replay import ddmin


def test_ddmin_single_culprit():
    out, tests, minimal = ddmin(list(range(100)), lambda xs: 37 in xs)
    assert out == [37] and minimal and tests < 30


def test_ddmin_needs_a_combination_in_order():
    def fails(xs):  # fails when 3 comes before 8 and 8 before 12
        try:
            return xs.index(3) < xs.index(8) < xs.index(12)
        except ValueError:
            return False

    out, _, minimal = ddmin(list(range(20)), fails)
    assert out == [3, 8, 12] and minimal


def test_ddmin_result_is_one_minimal_for_repeated_items():
    # needs at least three 1s: any 1-minimal answer has exactly three
    out, _, minimal = ddmin([0, 1, 0, 1, 1, 0, 1, 0, 1], lambda xs: xs.count(1) >= 3)
    assert out == [1, 1, 1] and minimal


def test_ddmin_respects_its_budget():
    out, tests, minimal = ddmin(list(range(64)), lambda xs: 5 in xs and 60 in xs, max_tests=3)
    assert tests <= 3 and not minimal and 5 in out and 60 in out


def test_ddmin_refuses_an_input_that_does_not_fail():
    import pytest

    from playtester.replay import NotFailing

    with pytest.raises(NotFailing, match="does not fail"):
        ddmin(list(range(10)), lambda xs: 42 in xs)
