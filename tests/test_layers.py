"""House rules import-linter cannot state: no private name is imported across packages."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "playtester"


def _package(module: str) -> str:
    """``playtester.analysis.space`` -> ``analysis``; ``playtester.cli`` -> ``cli``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_no_private_names_are_imported_across_packages():
    offenders = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC.parent).with_suffix("")
        here = _package(".".join(rel.parts))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("playtester."):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                if private and _package(node.module) != here:
                    offenders.append(f"{rel}: from {node.module} import {', '.join(private)}")
    assert not offenders, "\n".join(offenders)
    assert _package("playtester.analysis.space") == "analysis"  # the rule's own reading of a module
