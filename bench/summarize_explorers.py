"""Means over seeds of explorer campaigns, written back into their results file.

The README's explorer table prints, per game and agent, the mean distinct states and steps/s over the
seeds of a results file; this script computes them from the raw runs and stores them under
``summary`` in the same file, so every printed figure is in the file it came from.

Usage: python bench/summarize_explorers.py bench/results/explorers.json [bench/results/X/explorers.json ...]
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path


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
                        "bugs_per_seed": [len(r["bugs"]) for r in runs]}
    data["summary"] = summary
    path.write_text(json.dumps(data, indent=1))
    return summary


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        for key, s in summarize(Path(arg)).items():
            print(f"{arg}: {key}: states {s['states_mean']:,.1f}, {s['steps_per_s_mean']:,.1f} steps/s, "
                  f"bugs {s['bugs_per_seed']} (seeds {s['seeds']})")
