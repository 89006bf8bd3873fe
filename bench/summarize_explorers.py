"""Means over seeds of explorer campaigns, written back into their results file.

The README's explorer table prints, per game and agent, the mean distinct states and steps/s over the
seeds of a results file; this script computes them from the raw runs and stores them under
``summary`` in the same file, so every printed figure is in the file it came from. Runs that keep their
bugs whole (``all_bugs``) are scored again here, each injected bug by its own signature
(``explorers.injected``), with their false alarms (bugs that match no injected bug) counted; older runs
keep the injected bugs they stored and no false-alarm count (None).

Usage: python bench/summarize_explorers.py bench/results/explorers.json [bench/results/X/explorers.json ...]
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from explorers import false_alarms, injected  # noqa: E402  (bench/ is not a package)


def rescore(run: dict) -> tuple[list[str] | None, int | None]:
    """The injected bugs a run found and its false alarms (stored bugs that match none), each matched by its
    own signature (explorers.injected); (None, None) for a run stored before its bugs were kept whole."""
    if "all_bugs" not in run:
        return None, None
    found = {injected(run["game"], b) for b in run["all_bugs"]}
    return sorted(found - {None}), false_alarms(run["game"], run["all_bugs"])


def summarize(path: Path) -> dict[str, dict[str, float]]:
    data = json.loads(path.read_text())
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in data["runs"]:
        groups[f"{r['game']} {r['agent']}"].append(r)
    summary = {}
    for key, runs in sorted(groups.items()):
        summary[key] = {"seeds": [r["seed"] for r in runs],
                        "states_mean": round(statistics.mean(r["states"] for r in runs), 1),
                        "steps_per_s_mean": round(statistics.mean(r["steps_per_s"] for r in runs), 1),
                        "bugs_per_seed": [len(rescore(r)[0] if "all_bugs" in r else r["bugs"]) for r in runs],
                        "false_alarms_per_seed": [rescore(r)[1] for r in runs]}
    data["summary"] = summary
    path.write_text(json.dumps(data, indent=1))
    return summary


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        for key, s in summarize(Path(arg)).items():
            print(f"{arg}: {key}: states {s['states_mean']:,.1f}, {s['steps_per_s_mean']:,.1f} steps/s, "
                  f"bugs {s['bugs_per_seed']}, false alarms {s['false_alarms_per_seed']} (seeds {s['seeds']})")
