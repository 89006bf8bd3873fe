"""Code coverage bookkeeping: executed lines counted against coverage.py's statements."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from playtester.coverage import CodeCoverage

SOURCE = textwrap.dedent(
    '''\
    """Module docstring."""

    # a comment
    import os


    def f(a):
        """Docstring."""
        if a:
            return os.sep
        total = (1 +
                 2)
        return total


    def never():  # pragma: no cover
        return 1
    '''
)
# Statements: 4 (import), 7 (def f), 9 (if), 10 (return), 11 (total = ... over 11-12), 13 (return),
# 16 (def never) is excluded with its body by the pragma.
STATEMENTS = {4, 7, 9, 10, 11, 13}


@pytest.fixture
def game_file(tmp_path: Path) -> str:
    path = tmp_path / "game.py"
    path.write_text(SOURCE)
    return str(path)


def test_statements_come_from_the_parser(game_file):
    assert CodeCoverage().statements(game_file) == STATEMENTS


def test_only_statement_lines_count(game_file):
    cov = CodeCoverage()
    # 1: docstring, 3: comment, 5: blank, 8: docstring, 17: excluded; 12 is part of the statement on 11.
    cov.add({game_file: [1, 3, 4, 5, 8, 12, 17]})
    assert cov.executed(game_file) == {4, 11}
    assert cov.covered() == 2
    assert cov.total() == 6
    assert cov.percent() == pytest.approx(100 * 2 / 6)
    assert cov.per_file() == [(game_file, 2, 6)]


def test_merge_is_a_union(game_file):
    a, b = CodeCoverage(), CodeCoverage()
    a.add({game_file: [4, 7, 9]})
    b.add({game_file: [9, 10]})
    a.merge(b)
    assert a.executed(game_file) == {4, 7, 9, 10}
    assert a.covered() == 4
    assert a.percent() == pytest.approx(100 * 4 / 6)


def test_tracked_files_count_even_if_unexecuted(game_file, tmp_path):
    other = tmp_path / "other.py"
    other.write_text("x = 1\ny = 2\n")
    cov = CodeCoverage(files=[str(other)])
    cov.add({game_file: STATEMENTS})
    assert cov.total() == 8 and cov.covered() == 6
    assert cov.per_file() == sorted([(game_file, 6, 6), (str(other), 0, 2)])


def test_unreadable_files_have_no_statements(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def (:\n")
    missing = str(tmp_path / "missing.py")
    cov = CodeCoverage()
    cov.add({str(bad): [1], missing: [1, 2]})
    assert cov.total() == 0 and cov.covered() == 0 and cov.percent() == 0.0
    assert set(cov.errors) == {str(bad), missing}


def test_records_round_trip(game_file):
    cov = CodeCoverage()
    cov.add({game_file: [13, 4, 12]})
    records = cov.to_records()
    assert records == [(game_file, [4, 12, 13])]
    back = CodeCoverage.from_records(json.loads(json.dumps(records)))
    assert back.executed(game_file) == {4, 11, 13}
    assert back.to_records() == records
