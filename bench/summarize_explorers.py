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
        states = [r["states"] for r in runs]
        summary[key] = {"seeds": [r["seed"] for r in runs],
                        "states_mean": round(statistics.mean(states), 1),
                        "states_sd": round(statistics.stdev(states), 1) if len(states) > 1 else None,
                        "steps_mean": round(statistics.mean(r["steps"] for r in runs), 1),
                        "steps_per_s_mean": round(statistics.mean(r["steps_per_s"] for r in runs), 1),
                        "states_per_1k_steps_mean": round(statistics.mean(1000 * r["states"] / r["steps"]
                                                                          for r in runs), 1),
                        "bugs_per_seed": [len(rescore(r)[0] if "all_bugs" in r else r["bugs"]) for r in runs],
                        "bug_names_per_seed": [rescore(r)[0] if "all_bugs" in r else sorted(r["bugs"]) for r in runs],
                        "false_alarms_per_seed": [rescore(r)[1] for r in runs]}
    data["summary"] = summary
    data["equal_steps"] = equal_steps(data["runs"])
    path.write_text(json.dumps(data, indent=1))
    return summary


def states_at(run: dict, steps: int) -> int:
    """Distinct states a run had when it had taken ``steps`` steps (its timeline: [seconds, states, steps])."""
    best = 0
    for _t, states, at in run["timeline"]:
        if at <= steps:
            best = states
    return best


def equal_steps(runs: list[dict]) -> dict[str, dict]:
    """Agents compared at the same number of steps rather than the same wall time: per game and seed, the
    steps the slowest agent took, and each agent's states at that point (learning costs steps on a shared
    machine; this says what the agent does with the steps it gets)."""
    by: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for r in runs:
        if r.get("timeline") and r["timeline"] and len(r["timeline"][0]) >= 3:
            by[(r["game"], r["seed"])].append(r)
    out: dict[str, dict] = {}
    for (game, seed), rs in sorted(by.items()):
        if len(rs) < 2:
            continue
        common = min(r["steps"] for r in rs)
        out[f"{game} seed {seed}"] = {"steps": common, **{r["agent"]: states_at(r, common) for r in rs}}
    agents = sorted({a for v in out.values() for a in v if a != "steps"})
    for game in sorted({k.split(" seed ")[0] for k in out}):
        rows = [v for k, v in out.items() if k.startswith(game + " seed ")]
        out[f"{game} mean"] = {a: round(statistics.mean(v[a] for v in rows if a in v), 1) for a in agents
                               if any(a in v for v in rows)}
    return out


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        for key, s in summarize(Path(arg)).items():
            print(f"{arg}: {key}: states {s['states_mean']:,.1f} (sd {s['states_sd']}), "
                  f"{s['steps_per_s_mean']:,.1f} steps/s, {s['states_per_1k_steps_mean']} states per 1k steps, "
                  f"bugs {s['bug_names_per_seed']}, false alarms {s['false_alarms_per_seed']} (seeds {s['seeds']})")
        for key, v in json.loads(Path(arg).read_text())["equal_steps"].items():
            print(f"{arg}: at equal steps, {key}: {v}")
