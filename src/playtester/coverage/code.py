"""Code coverage bookkeeping: statement coverage of a game's own source files, merged across workers.

The workers measure with coverage.py and report executed line numbers per file; this module keeps
their union and counts it against the statements coverage.py's parser finds in each file (parsed once
per file). Executed lines are mapped to the first line of their statement, like coverage.py's own
report, and lines that are not statements (blank lines, comments, docstrings, excluded code) never
count.

Requires the ``coverage`` package (imported when a file is first parsed).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["DEFAULT_EXCLUDE", "CodeCoverage"]

DEFAULT_EXCLUDE = "|".join(
    f"(?:{pattern})"
    for pattern in (
        # The same as coverage.py's default [report] exclude_lines.
        r"#\s*(pragma|PRAGMA)[:\s]?\s*(no|NO)\s*(cover|COVER)",
        r"^\s*(((async )?def .*?)?[\])]+(\s*->.*?)?:\s*)?\.\.\.\s*(#|$)",
        r"^\s*if (typing\.)?TYPE_CHECKING:",
    )
)
"""Lines matching this regex (and the blocks they start) are not counted as statements."""


class _FileStatements:
    """The parsed statements of one file and the map from any line to its statement's first line."""

    def __init__(self, filename: str, exclude: str | None) -> None:
        from coverage.exceptions import CoverageException
        from coverage.python import PythonParser

        self.error: str | None = None
        self._parser: PythonParser | None = None
        self.statements: frozenset[int] = frozenset()
        try:
            parser = PythonParser(filename=filename, exclude=exclude)
            parser.parse_source()
        except (CoverageException, ValueError) as err:  # NoSource, NotPython, undecodable or NUL bytes
            self.error = str(err)
            return
        self._parser = parser
        self.statements = frozenset(parser.statements)

    def covered(self, lines: Iterable[int]) -> set[int]:
        """The statements among ``lines``, after mapping each line to its statement's first line."""
        if self._parser is None:
            return set()
        return self._parser.first_lines(lines) & self.statements


class CodeCoverage:
    """Executed statements of a set of source files, merged across workers.

    Files are keyed by the path string the workers report (coverage.py reports absolute paths);
    the same file under two spellings counts twice, so report one canonical form. A file that cannot be
    read or parsed counts as having no statements; `errors` says why.

    Args:
        files: source files to count even if nothing in them ever runs (so they lower `percent`).
        exclude: regex of lines to leave out of the statements, as coverage.py's ``exclude_lines``.
    """

    def __init__(self, files: Iterable[str] = (), exclude: str | None = DEFAULT_EXCLUDE) -> None:
        self.exclude = exclude
        self._executed: dict[str, set[int]] = {}
        self._parsed: dict[str, _FileStatements] = {}
        self.track(files)

    def track(self, files: Iterable[str]) -> None:
        """Count these files in `total` even if none of their lines has run."""
        for file in files:
            self._executed.setdefault(file, set())

    def add(self, lines: dict[str, Iterable[int]]) -> None:
        """Add executed line numbers, ``{file path: lines}``, as a worker reports them."""
        for file, numbers in lines.items():
            self._executed.setdefault(file, set()).update(numbers)

    def merge(self, other: CodeCoverage) -> None:
        """Add another coverage's executed lines (the union)."""
        self.add(other._executed)

    def files(self) -> list[str]:
        """The files known so far, sorted."""
        return sorted(self._executed)

    def _file(self, file: str) -> _FileStatements:
        parsed = self._parsed.get(file)
        if parsed is None:
            parsed = self._parsed[file] = _FileStatements(file, self.exclude)
        return parsed

    def statements(self, file: str) -> set[int]:
        """The statement lines of ``file`` (first lines of multi-line statements); parsed once per file."""
        return set(self._file(file).statements)

    def executed(self, file: str) -> set[int]:
        """The statement lines of ``file`` that ran."""
        return self._file(file).covered(self._executed.get(file, ()))

    def covered(self) -> int:
        """Executed statements over all files."""
        return sum(len(self.executed(f)) for f in self._executed)

    def total(self) -> int:
        """Statements over all known files."""
        return sum(len(self._file(f).statements) for f in self._executed)

    def percent(self) -> float:
        """Covered statements as a percentage of all statements (0.0 when there are none)."""
        total = self.total()
        return 100.0 * self.covered() / total if total else 0.0

    def per_file(self) -> list[tuple[str, int, int]]:
        """``[(file, covered, total), ...]`` sorted by file."""
        return [(f, len(self.executed(f)), len(self._file(f).statements)) for f in self.files()]

    @property
    def errors(self) -> dict[str, str]:
        """Files that could not be read or parsed, with the reason."""
        return {f: p.error for f, p in self._parsed.items() if p.error is not None}

    def to_records(self) -> list[tuple[str, list[int]]]:
        """``[(file, sorted executed lines), ...]`` sorted by file: plain data for storing a campaign.

        The raw executed lines are kept (not only statements), so nothing is lost if files are parsed
        differently later.
        """
        return [(f, sorted(self._executed[f])) for f in self.files()]

    @classmethod
    def from_records(
        cls, records: Iterable[Sequence[Any]], exclude: str | None = DEFAULT_EXCLUDE
    ) -> CodeCoverage:
        """Rebuild a coverage from `to_records` output (lists are fine, as after JSON)."""
        coverage = cls(exclude=exclude)
        for file, lines in records:
            coverage.add({file: (int(n) for n in lines)})
        return coverage
