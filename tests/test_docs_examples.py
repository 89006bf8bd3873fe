"""The Python examples of the docs run as written (each fenced block after an ``<!-- example: NAME -->`` line)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = re.compile(r"<!-- example: (\S+) -->\n```python\n(.*?)```", re.S)


def examples(page: str) -> dict[str, str]:
    return dict(EXAMPLE.findall((ROOT / page).read_text(encoding="utf-8")))


def test_the_campaign_example_of_the_python_api_runs_and_stops_at_the_first_bug(tmp_path):
    code = examples("docs/guides/python-api.md")["campaign"]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=600)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr  # the bug reproduced: the verdict fails the run
    assert re.search(r"^StopAtFirstBug stopped the campaign at step \d+$", out, re.M), out
    steps = int(re.search(r"^(\d+) steps, (\d+) bug", out, re.M).group(1))  # type: ignore[union-attr]
    assert 0 < steps < 5000 and "bug cell" in out
    assert (tmp_path / "runs" / "today" / "report.html").is_file() and (tmp_path / "runs/today/junit.xml").is_file()
