"""Every figure in the benchmark tables of the docs (and of the README) comes from a results file a `bench/` script wrote.

Each page under docs/benchmarks/ (but its index) is one benchmark section; so is each section of README.md whose
heading says "Benchmark", if the README has any. A section must name its results (``bench/results/NAME.json`` or a
folder of them), and every number in its tables (indented ones inside list items too) must appear in those files,
as a number or inside a string, at the precision the page prints it (1,079 matches 1079.4; 0.76 matches 0.7612;
98% matches 0.9807). Small integers match easily; the rates, times, states and ratios that carry the claims do not
match by chance.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")
RESULTS_REF = re.compile(r"bench/results/[\w./-]+")


def benchmark_sections(text: str) -> list[tuple[str, list[str]]]:
    """(heading, lines) of every section whose heading contains 'Benchmark', up to the next heading of
    the same or a higher level."""
    out: list[tuple[str, list[str]]] = []
    current: tuple[str, int, list[str]] | None = None
    for line in text.splitlines():
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            if current is not None and level <= current[1]:
                out.append((current[0], current[2]))
                current = None
            if current is None and "Benchmark" in line:
                current = (line, level, [])
                continue
        if current is not None:
            current[2].append(line)
    if current is not None:
        out.append((current[0], current[2]))
    return out


def numbers_in(obj: object, acc: set[float]) -> None:
    if isinstance(obj, bool) or obj is None:
        return
    if isinstance(obj, int | float):
        acc.add(float(obj))
    elif isinstance(obj, str):
        for m in NUMBER.finditer(obj):
            acc.add(float(m.group().replace(",", "")))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            numbers_in(k, acc)
            numbers_in(v, acc)
    elif isinstance(obj, list):
        for v in obj:
            numbers_in(v, acc)


def printed_forms(values: set[float]) -> set[str]:
    """How a value may be printed: at 0-3 decimals, rounded half-even or half-up (a file may keep 2314.5
    of a figure printed as 2,315), and a fraction as a percentage (0.98 as 98%)."""
    forms: set[str] = set()
    for v in values:
        for x in (v, 100 * v):
            for d in range(4):
                forms.add(f"{round(x, d):.{d}f}")
                forms.add(f"{math.floor(x * 10**d + 0.5) / 10**d:.{d}f}")
    return forms


def results_of(lines: list[str]) -> list[Path]:
    files: list[Path] = []
    for ref in RESULTS_REF.findall("\n".join(lines)):
        path = ROOT / ref.rstrip(".,)")
        if path.is_dir():
            files += sorted(path.rglob("*.json"))
        elif path.suffix == ".json" and path.is_file():
            files.append(path)
    return files


BENCHMARKS = ROOT / "docs" / "benchmarks"


def benchmark_pages() -> list[tuple[str, list[str]]]:
    """(page, lines) of every benchmark page: the whole page is the section."""
    return [(str(p.relative_to(ROOT)), p.read_text().splitlines())
            for p in sorted(BENCHMARKS.glob("*.md")) if p.name != "index.md"]


SECTIONS = benchmark_pages() + [(f"README.md {h}", lines)
                                for h, lines in benchmark_sections((ROOT / "README.md").read_text())]


def test_the_docs_have_benchmark_pages():
    assert len(benchmark_pages()) >= 15, [h for h, _ in SECTIONS]


def test_every_benchmark_page_is_in_the_site_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    assert not [p for p, _ in benchmark_pages() if p.removeprefix("docs/") not in nav]


@pytest.mark.parametrize("heading,lines", SECTIONS, ids=[h.removeprefix("docs/benchmarks/").lstrip("# ")[:40] for h, _ in SECTIONS])
def test_every_number_in_a_benchmark_table_is_in_its_results_files(heading, lines):
    files = results_of(lines)
    assert files, f"{heading!r} names no results file (bench/results/NAME.json) its figures come from"
    values: set[float] = set()
    for f in files:
        numbers_in(json.loads(f.read_text()), values)
    forms = printed_forms(values)
    missing = []
    rows = [line.strip() for line in lines]  # a table inside a list item is indented: its rows count too
    for i, line in enumerate(rows):
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        if i + 1 < len(rows) and rows[i + 1].startswith("|") and set(rows[i + 1]) <= set("|-: "):
            continue  # a header row (the separator follows it)
        cells = [c.strip() for c in line.strip("|").split("|")]
        for cell in cells:
            for m in NUMBER.finditer(cell.replace("**", "")):
                token = m.group().replace(",", "")
                if token not in forms:
                    missing.append(f"{token} in: {line[:90]}")
    assert not missing, (f"{heading!r}: numbers not found in {[str(f.relative_to(ROOT)) for f in files]}:\n"
                         + "\n".join(missing))


def test_results_files_say_how_they_were_made():
    """Results written by this session's scripts carry command, commit, machine and date."""
    for name in ("campaign_memory",):
        data = json.loads((ROOT / "bench" / "results" / f"{name}.json").read_text())
        for run in data.get("runs", [data]):
            assert {"command", "commit", "machine", "date"} <= set(run), name
