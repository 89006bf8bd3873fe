"""Settings chosen on seed 0, checked on seeds 1-3: Go-Explore's ``repeat_prob`` and ``max_snapshots`` and
combat's ``cell_features``, each default against its alternatives, same step budget, side by side.

The defaults were picked on seed 0 (``repeat_prob=0.5`` on Block Maze, ``max_snapshots=-1`` (auto: 64..512
per worker by memory) and ``cell_features=["buff_mask"]`` on combat). Here every value runs on seeds 1, 2
and 3 (never 0) with a *step* budget (a machine's load changes wall-time figures, not these), 2 workers,
the game's default action space (the hand-written one, as ``bench/explorers.py``'s ``--actions default``),
oracles and state coverage on, code coverage off, the games as ``bench/explorers.py`` sets them up
(``GAMES``). The experiments:

- ``repeat_prob``: goexplore with 0.5 (default), 0.95, 0.0 on blockmaze (size 11) and maze41 (size 41,
  bug cells drawn from the campaign seed).
- ``max_snapshots``: goexplore with -1 (default, auto) and 128 on combat.
- ``cell_features``: combat with ``["buff_mask"]`` (default, combat.toml) and ``[]``, goexplore.

The combat default (max_snapshots=-1 and cell_features=["buff_mask"]) is one campaign per seed, shared by
both combat experiments. Per run it records distinct states (the campaign's state coverage, as
``bench/explorers.py`` counts them), Go-Explore's cells, the injected bugs found (``explorers.injected``,
each bug by its own signature) with the step at which each was first found, false alarms (findings that
match no injected bug), steps and steps/s. Writes ``bench/results/settings_check.json`` (provenance, every
run, a summary per setting value) and ``settings_check.png`` (states and injected bugs per run, one column
per setting value), and prints a table.

Usage: python bench/settings_check.py [--maze-steps 6000] [--combat-steps 15000] [--seeds 1,2,3]
       [--experiments repeat_prob,max_snapshots,cell_features] [--mazes blockmaze,maze41]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from explorers import GAMES, injected, n_injected
from provenance import provenance

from playtester.agents.settings import agent_settings
from playtester.campaign import Budget, explore
from playtester.drive.spec import resolve
from playtester.report.images import png_bytes

OUT = Path(__file__).parent / "results"

# (experiment, value label, agent name, config overrides); the first value of each experiment is its default
REPEAT_PROB = [("0.5", "goexplore"), ("0.95", "goexplore:repeat_prob=0.95"), ("0.0", "goexplore:repeat_prob=0.0")]
MAX_SNAPSHOTS = [("-1", "goexplore"), ("128", "goexplore:max_snapshots=128")]
CELL_FEATURES = [('["buff_mask"]', None), ("[]", [])]


def configs(experiments: list[str], mazes: list[str]) -> list[dict]:
    """Every distinct campaign configuration to run, each with the (experiment, game, value) it stands for."""
    out: list[dict] = []
    if "repeat_prob" in experiments:
        for game in mazes:
            for label, agent in REPEAT_PROB:
                out.append({"key": f"{game} {agent}", "game": game, "agent": agent, "cell_features": None,
                            "uses": [("repeat_prob", game, label)]})
    combat_default = {"key": "combat goexplore", "game": "combat", "agent": "goexplore", "cell_features": None,
                      "uses": []}
    if "max_snapshots" in experiments or "cell_features" in experiments:
        out.append(combat_default)
    if "max_snapshots" in experiments:
        combat_default["uses"].append(("max_snapshots", "combat", MAX_SNAPSHOTS[0][0]))
        for label, agent in MAX_SNAPSHOTS[1:]:
            out.append({"key": f"combat {agent}", "game": "combat", "agent": agent, "cell_features": None,
                        "uses": [("max_snapshots", "combat", label)]})
    if "cell_features" in experiments:
        combat_default["uses"].append(("cell_features", "combat", CELL_FEATURES[0][0]))
        for label, feats in CELL_FEATURES[1:]:
            out.append({"key": f"combat goexplore cell_features={label}", "game": "combat", "agent": "goexplore",
                        "cell_features": feats, "uses": [("cell_features", "combat", label)]})
    return out


def run(cfg: dict, seed: int, steps: int, workers: int) -> dict:
    """One campaign of ``cfg`` on ``seed`` for ``steps`` steps; its figures."""
    game = cfg["game"]
    name, args = GAMES[game]
    spec = resolve(name)
    args = {k: seed if v == "campaign seed" else v for k, v in args.items()}
    if args:
        spec = spec.with_config(game_args=spec.config.game_args | args)
    if cfg["cell_features"] is not None:
        spec = spec.with_config(cell_features=cfg["cell_features"])
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        r = explore(spec, out=out, agent=cfg["agent"], budget=Budget(steps=steps), workers=workers, seed=seed,
                    code_coverage=False, replay_known=False, actions=None, finalize=False)
        found: dict[str, dict] = {}
        alarms = []
        for b in r.bugs:
            which = injected(game, b)
            if which is None:
                alarms.append(b.message[:120])
            elif which not in found or b.first_found_s < found[which]["first_found_s"]:
                found[which] = {"first_found_s": round(b.first_found_s, 2)}
        # the step at which each injected bug was first found: the timeline's steps at that time
        timeline = [(t["t_s"], t["states"], t["steps"]) for t in r.store.timeline(r.campaign_id)]
        for v in found.values():
            v["first_found_step"] = next((s for t, _, s in timeline if t >= v["first_found_s"]), r.steps)
        # all injected bugs found: the step of the last one (an upper bound: the timeline's next point)
        all_at = max(v["first_found_step"] for v in found.values()) if len(found) == n_injected(game) else None
        stats = {k: v for k, v in (r.agent_stats or {}).items() if k != "history"}
        return {"key": cfg["key"], "game": game, "agent": cfg["agent"],
                "cell_features": agent_settings(spec).cell_features, "seed": seed, "workers": workers,
                "step_budget": steps, "steps": r.steps, "episodes": r.episodes, "seconds": round(r.seconds, 2),
                "wall_s": round(time.perf_counter() - t0, 2), "steps_per_s": round(r.steps / max(r.seconds, 1e-9), 1),
                "states": r.states, "cells": stats.get("cells"), "snapshot_cap": stats.get("snapshot_cap"),
                "snapshots": stats.get("snapshots"), "bugs": sorted(found), "n_bugs": len(found),
                "bug_first_found": found, "all_bugs_by_step": all_at, "false_alarms": len(alarms), "false_alarm_messages": alarms,
                "timeline": timeline, "stats": stats}


def spread(xs: list[float]) -> dict[str, float]:
    return {"mean": round(statistics.mean(xs), 1), "min": min(xs), "max": max(xs),
            "sd": round(statistics.stdev(xs), 1) if len(xs) > 1 else 0.0}


def summarize(cfgs: list[dict], runs: list[dict]) -> list[dict]:
    rows = []
    for cfg in cfgs:
        rs = sorted((r for r in runs if r["key"] == cfg["key"]), key=lambda r: r["seed"])
        if not rs:
            continue
        for experiment, game, label in cfg["uses"]:
            rows.append({"experiment": experiment, "game": game, "value": label,
                         "default": label in (REPEAT_PROB[0][0], MAX_SNAPSHOTS[0][0], CELL_FEATURES[0][0]),
                         "key": cfg["key"], "seeds": [r["seed"] for r in rs],
                         "states_per_seed": [r["states"] for r in rs], "states": spread([r["states"] for r in rs]),
                         "cells_per_seed": [r["cells"] for r in rs],
                         "cells": spread([r["cells"] or 0 for r in rs]),
                         "bugs_per_seed": [r["n_bugs"] for r in rs], "bugs": spread([r["n_bugs"] for r in rs]),
                         "bug_names_per_seed": [r["bugs"] for r in rs],
                         "all_bugs_by_step_per_seed": [r.get("all_bugs_by_step") for r in rs],
                         "false_alarms_per_seed": [r["false_alarms"] for r in rs],
                         "false_alarms": spread([r["false_alarms"] for r in rs]),
                         "steps_per_s_per_seed": [r["steps_per_s"] for r in rs],
                         "steps_per_s": spread([r["steps_per_s"] for r in rs]),
                         "of": n_injected(game)})
    order = {"repeat_prob": 0, "max_snapshots": 1, "cell_features": 2}
    return sorted(rows, key=lambda x: (order[x["experiment"]], x["game"]))


def table(rows: list[dict], budgets: dict[str, int]) -> str:
    lines = ["| setting | game (steps) | value | distinct states, mean (min-max) | cells, mean | injected bugs, "
             "mean (per seed) | all found by step (per seed) | false alarms (per seed) | steps/s, mean |",
             "|---|---|---|---|---|---|---|---|---|"]
    for x in rows:
        s, b = x["states"], x["bugs"]
        lines.append(f"| {x['experiment']} | {x['game']} ({budgets[x['game']]:,}) | {x['value']}"
                     f"{' (default)' if x['default'] else ''} | {s['mean']:,.1f} ({s['min']:,}-{s['max']:,}) | "
                     f"{x['cells']['mean']:,.1f} | {b['mean']:.1f} of {x['of']} "
                     f"({', '.join(map(str, x['bugs_per_seed']))}) | "
                     f"{', '.join('-' if v is None else f'{v:,}' for v in x['all_bugs_by_step_per_seed'])} | "
                     f"{', '.join(map(str, x['false_alarms_per_seed']))} | {x['steps_per_s']['mean']:.0f} |")
    return "\n".join(lines)


def figure(rows: list[dict], w_col: int = 36, h: int = 160) -> bytes:
    """Per setting value a column: its runs' distinct states (top panel, dots, scaled per game) and injected
    bugs (bottom panel, of the game's total), the default's column in green, the others in grey; a blank
    column between experiments."""
    cols: list[dict | None] = []
    for x in rows:
        if cols and cols[-1] is not None and (cols[-1]["experiment"], cols[-1]["game"]) != (x["experiment"], x["game"]):
            cols.append(None)
        cols.append(x)
    gap = 8
    w = 10 + len(cols) * w_col
    img = np.full((2 * h + 3 * gap, w, 3), 255, np.uint8)
    smax: dict[str, float] = {}
    for x in rows:
        smax[x["game"]] = max(smax.get(x["game"], 0), max(x["states_per_seed"]))
    for panel in (0, 1):
        top = gap + panel * (h + gap)
        img[top + h, 5:w - 5] = 0
        for i, x in enumerate(cols):
            if x is None:
                img[top:top + h, 10 + i * w_col + w_col // 2] = 200
                continue
            color = (44, 160, 44) if x["default"] else (110, 110, 110)
            vals = x["states_per_seed"] if panel == 0 else x["bugs_per_seed"]
            vmax = smax[x["game"]] if panel == 0 else x["of"]
            x0 = 10 + i * w_col
            img[top:top + h, x0] = 235
            for k, v in enumerate(vals):
                y = top + h - 1 - int(round(v / max(vmax, 1e-9) * (h - 4)))
                cx = x0 + 8 + k * 8
                img[max(top, y - 2):y + 3, cx - 2:cx + 3] = color
            mean = statistics.mean(vals)
            y = top + h - 1 - int(round(mean / max(vmax, 1e-9) * (h - 4)))
            img[y, x0 + 4:x0 + w_col - 4] = (0, 0, 0)
    return png_bytes(img)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maze-steps", type=int, default=6000)
    ap.add_argument("--combat-steps", type=int, default=15000)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--experiments", default="repeat_prob,max_snapshots,cell_features")
    ap.add_argument("--mazes", default="blockmaze,maze41")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--report", action="store_true", help="run nothing: print the table and draw the figure "
                    "from the runs already in OUT/settings_check.json (e.g. of an interrupted run)")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    if 0 in seeds:
        raise SystemExit("seed 0 is where the defaults were chosen: check them on other seeds")
    cfgs = configs(args.experiments.split(","), args.mazes.split(","))
    budgets = {"blockmaze": args.maze_steps, "maze41": args.maze_steps, "combat": args.combat_steps}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "settings_check.json"
    if args.report:
        data = json.loads(path.read_text())
        rows = summarize(cfgs, data["runs"])
        (out / "settings_check.png").write_bytes(figure(rows))
        print(table(rows, data["step_budgets"]))
        return
    made = provenance()
    runs: list[dict] = []
    t_start = time.perf_counter()
    games = sorted(dict.fromkeys(c["game"] for c in cfgs), key=["blockmaze", "combat", "maze41"].index)
    for game in games:  # maze41 last: the optional one
        for seed in seeds:
            for cfg in (c for c in cfgs if c["game"] == game):  # interleaved: machine load drifts over time
                res = run(cfg, seed, budgets[game], args.workers)
                runs.append(res)
                print(f"  {cfg['key']} seed {seed}: {res['n_bugs']}/{n_injected(game)} bugs {res['bugs']}, "
                      f"{res['false_alarms']} false alarms, {res['states']} states, {res['cells']} cells, "
                      f"{res['steps_per_s']:.0f} steps/s ({res['wall_s']:.0f} s)", flush=True)
                record = {**made, "step_budgets": budgets, "seeds": seeds, "workers": args.workers,
                          "actions": "default", "wall_s": round(time.perf_counter() - t_start, 1),
                          "summary": summarize(cfgs, runs), "runs": runs}
                path.write_text(json.dumps(record, indent=1))
    rows = summarize(cfgs, runs)
    (out / "settings_check.png").write_bytes(figure(rows))
    print(f"\nseeds {', '.join(map(str, seeds))}; {args.workers} workers; default action space; "
          f"{time.perf_counter() - t_start:.0f} s in all")
    print(table(rows, budgets))


if __name__ == "__main__":
    main()
