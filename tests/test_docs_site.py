"""The documentation: docs/ builds as a MkDocs site with no warning (every page in the nav, every link and anchor
resolved), the configuration reference matches the models it is generated from, the ready CI job files run what
the CI guide says, and the README stays a short front door whose links lead somewhere."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"


def test_the_site_builds_with_no_warning(tmp_path):
    missing = [m for m in ("mkdocs", "material") if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not importable: install the dev extra (pip install -e '.[dev]', "
                    "which brings mkdocs-material) to build the docs site")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True, timeout=240,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "WARNING" not in out, out
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "guides" / "config-reference" / "index.html").is_file()


def _generator():
    spec = importlib.util.spec_from_file_location("gen_config_reference", DOCS / "gen_config_reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_config_reference_is_what_the_models_say():
    gen = _generator()
    page = DOCS / "guides" / "config-reference.md"
    assert page.read_text() == gen.render(), ("docs/guides/config-reference.md is stale: "
                                              "run python docs/gen_config_reference.py and commit the page")


def test_the_config_reference_covers_every_field():
    from playtester.drive.spec import GameConfig
    from playtester.oracles import settings_model

    page = (DOCS / "guides" / "config-reference.md").read_text()
    fields = [f for f in GameConfig.model_fields if f not in ("oracles", "coverage", "agent")]
    fields += list(settings_model().model_fields)
    assert not [f for f in fields if f"| `{f}` |" not in page]


@pytest.mark.parametrize("name", ["github-actions.yml", "gitlab-ci.yml"])
def test_the_ci_job_files_run_a_campaign_and_keep_its_report(name):
    text = (DOCS / "ci" / name).read_text()
    yaml.safe_load(text)
    assert "pip install" in text
    assert re.search(r'playtester explore "?\$GAME"? --budget 5m --out runs/ci', text)
    for f in ("runs/ci/report.html", "runs/ci/junit.xml"):
        assert f in text, f


def test_the_readme_is_a_short_front_door():
    lines = README.read_text().splitlines()
    assert len(lines) <= 250, len(lines)
    # the set-up commands block comes first, as it was: make demo and make test are a contract (.ci/run runs both)
    assert lines[0] == "# playtester" and lines[2] == "```" and lines[5] == "```", lines[:6]
    assert lines[3].startswith("make demo    # bootstraps .venv")
    assert lines[4].startswith("make test    # bootstraps .venv with dev extras")


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    heads = [line.lstrip("#").strip() for line in page.read_text().splitlines() if line.startswith("#")]
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in heads}


def test_the_readme_links_lead_somewhere():
    links = [(t, a) for t, a in re.findall(r"\]\(([^)#\s]+)(?:#([^)]*))?\)", README.read_text()) if "://" not in t]
    assert links
    assert not [t for t, _ in links if not (ROOT / t).exists()]
    assert not [f"{t}#{a}" for t, a in links if a and a not in _anchors(ROOT / t)]
