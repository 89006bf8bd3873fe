"""Findings pipeline benchmarks. Prints figures; asserts nothing.

1. Recall on Block Maze (the Wuji setting: bug cells at random reachable positions): wall time for the
   random agent to find all injected bugs, with 1 and 2 workers, and the recall curve (bugs found by
   time), over several campaign seeds.
2. Cost of oracles and coverage per step, as a ratio to stepping without them, measured side by side
   (interleaved rounds, medians): plain stepping; + oracles + state coverage + position map; + code
   coverage as `explore` measures it (coverage.py's line tracer in a share of the worker's steps, see
   playtester.drive.worker.Worker); + code coverage traced in every step (all episodes, to their end);
   the full campaign (everything + the SQLite store), per step once started: a 10-step campaign is timed
   too and its seconds (start-up, store, report) are taken off and shown apart. For both code coverage
   columns, the distinct lines of the game's source they reported over the same steps (same seeds, same
   actions).
   Each column is measured in several interleaved rounds (5 by default); medians are printed, and the best round
   of each column too (interference from other work only ever slows a round down, so the best round estimates
   the code's own cost, as ``timeit`` advises). "code coverage over oracles" is what code coverage adds on top
   of the oracles column, the cost of code coverage itself.

Writes bench/results/findings.json (every figure printed, with command, commit, machine and date).
Usage: python bench/findings.py [--seconds 60] [--seeds 3] [--steps 3000] [--only recall|cost]
(--only cost keeps the recall figures of the previous results file, with the provenance of their run)
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time

from provenance import ROOT, provenance, write_results

from playtester.agents import make_agent
from playtester.campaign import CAPTURE, Budget, choose_abstraction, explore
from playtester.coverage.maps import PositionMap
from playtester.drive.spec import resolve
from playtester.env import GameEnv
from playtester.games.blockmaze import injected_bugs
from playtester.oracles import make_oracles


def recall(seconds: float, workers: int, seed: int, size: int) -> list[float]:
    """first-found times (s) of the distinct injected bugs of one campaign."""
    spec = resolve("blockmaze").with_config(game_args={"size": size, "n_bugs": 5})
    with tempfile.TemporaryDirectory() as out:
        r = explore(spec, out=out, budget=Budget(seconds=seconds), workers=workers, seed=seed,
                    code_coverage=False, replay_known=False, finalize=False)
        expected = {b["message"] for b in injected_bugs(5)}
        return sorted(b.first_found_s for b in r.bugs if b.message in expected)


def campaign_seconds(spec, steps: int) -> float:
    """Wall seconds of a whole `explore` campaign of ``steps`` steps (start-up, store and report included)."""
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        explore(spec, out=out, budget=Budget(steps=steps), code_coverage=True, replay_known=False, finalize=False)
        return time.perf_counter() - t


def stepping(game: str, steps: int, mode: str, lines: dict[str, float] | None = None) -> float:
    """steps/s of the random agent on one worker, with more or less of the pipeline switched on; with code
    coverage, the number of distinct source lines the worker reported goes to ``lines[mode]``."""
    spec = resolve(game).with_config(max_episode_steps=200)
    if mode == "campaign":  # per step once started: a 10-step campaign measures the fixed start-up and end
        fixed = campaign_seconds(spec, 10)
        if lines is not None:
            lines["startup_s"] = fixed
        return (steps - 10) / max(1e-9, campaign_seconds(spec, steps) - fixed)
    env = GameEnv(spec, capture=CAPTURE, obs_size=CAPTURE, code_coverage=mode in ("code", "code_all"))
    if mode == "code_all":  # every step traced: what code coverage cost before it was sampled
        env.worker.code_share, env.worker.code_patience = 1.0, 0
    agent = make_agent("random", env.action_space.n, seed=0)
    obs, info = env.reset(seed=0)
    suite = make_oracles(spec.config.oracles) if mode != "plain" else None
    abstraction = choose_abstraction("auto", env.last_obs, spec.config.features)
    seen: set = set()
    pos = PositionMap()
    t = time.perf_counter()
    for i in range(steps):
        obs, _r, term, trunc, info = env.step(agent.act(obs, info))
        if suite is not None:
            last = env.last_obs
            suite.check(last, i)
            key = abstraction.key(last)
            if key is not None:
                seen.add(key)
            pos.add(last)
        if term or trunc:
            obs, info = env.reset()
            if suite is not None:
                suite.reset()
    rate = steps / (time.perf_counter() - t)
    env.close()
    if lines is not None and mode in ("code", "code_all"):
        lines[mode] = sum(len(v) for v in env.worker.code_known.values())
    return rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60.0, help="budget of each recall campaign")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--size", type=int, default=11, help="maze size")
    ap.add_argument("--steps", type=int, default=3000, help="steps per cost measurement")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", choices=("recall", "cost"), help="run one part; the other keeps its previous figures")
    a = ap.parse_args()
    made = provenance()
    record: dict = {"recall": {"seconds": a.seconds, "size": a.size, "runs": [], "median_all5_s": {}},
                    "cost": {"steps": a.steps, "rounds": a.rounds, "games": {}}}
    if a.only:
        kept = "cost" if a.only == "recall" else "recall"
        try:
            previous = json.loads((ROOT / "bench" / "results" / "findings.json").read_text())
        except (OSError, ValueError):
            previous = {}
        if kept in previous:
            record[kept] = previous[kept]
            record[kept].setdefault("made", {k: previous.get(k) for k in ("command", "commit", "dirty", "date")})
    if a.only != "cost":
        run_recall(a, record)
    if a.only != "recall":
        run_cost(a, record)
    print(f"written to {write_results('findings', record, made)}")


def run_recall(a: argparse.Namespace, record: dict) -> None:
    print(f"# 1. recall on blockmaze (size {a.size}, 5 bug cells), random agent, {a.seconds:g} s budget, "
          f"{a.seeds} seeds")
    print(f"{'workers':>7} {'seed':>5} {'found':>6} {'time to all 5 (s)':>18}  first-found times (s)")
    for workers in (1, 2):
        alls = []
        for seed in range(a.seeds):
            times = recall(a.seconds, workers, seed, a.size)
            all5 = times[-1] if len(times) == 5 else None
            alls.append(all5)
            record["recall"]["runs"].append({"workers": workers, "seed": seed, "times_s": [round(t, 1) for t in times],
                                             "all5_s": None if all5 is None else round(all5, 1)})
            shown = " ".join(f"{t:.1f}" for t in times)
            print(f"{workers:>7} {seed:>5} {len(times):>6} {all5 if all5 is None else round(all5, 1)!s:>18}  {shown}")
        done = [x for x in alls if x is not None]
        if done:
            record["recall"]["median_all5_s"][str(workers)] = round(statistics.median(done), 1)
            print(f"{workers:>7} {'med':>5} {'':>6} {statistics.median(done):>18.1f}  ({len(done)}/{a.seeds} "
                  "campaigns found all 5)")



def run_cost(a: argparse.Namespace, record: dict) -> None:
    print(f"\n# 2. cost of oracles and coverage per step ({a.steps} steps, median of {a.rounds} interleaved rounds)")
    print(f"{'game':<11} {'plain st/s':>10} {'+oracles+state':>15} {'extra':>6} {'+code cov':>10} {'extra':>6} "
          f"{'lines':>6} {'+code all':>10} {'extra':>6} {'lines':>6} {'campaign':>9} {'extra':>6}")
    modes = ("plain", "oracles", "code", "code_all", "campaign")
    for game in ("blockmaze", "platformer"):
        runs: dict[str, list[float]] = {m: [] for m in modes}
        lines: dict[str, list[int]] = {"code": [], "code_all": []}
        startup: list[float] = []
        for _ in range(a.rounds):
            for mode in runs:
                found: dict[str, float] = {}
                runs[mode].append(stepping(game, a.steps, mode, found))
                if mode in found:
                    lines[mode].append(found[mode])
                if "startup_s" in found:
                    startup.append(found["startup_s"])
        plain, orc, code, full, camp = (statistics.median(runs[m]) for m in modes)
        b_plain, b_orc, b_code, b_full = (max(runs[m]) for m in ("plain", "oracles", "code", "code_all"))
        code_lines, full_lines = (statistics.median(lines[m]) for m in ("code", "code_all"))
        print(f"{game:<11} {plain:>10.0f} {orc:>15.0f} {plain / orc - 1:>6.0%} {code:>10.0f} {plain / code - 1:>6.0%} "
              f"{code_lines:>6.0f} {full:>10.0f} {plain / full - 1:>6.0%} {full_lines:>6.0f} "
              f"{camp:>9.0f} {plain / camp - 1:>6.0%}  (start-up and end of a campaign: {statistics.median(startup):.1f} s)")
        print(f"{'  best':<11} {b_plain:>10.0f} {b_orc:>15.0f} {b_plain / b_orc - 1:>6.0%} {b_code:>10.0f} "
              f"{b_plain / b_code - 1:>6.0%} {'':>6} {b_full:>10.0f} {b_plain / b_full - 1:>6.0%}   "
              f"code coverage over oracles: median {orc / code - 1:.0%}, best {b_orc / b_code - 1:.0%}")
        record["cost"]["games"][game] = {
            "runs": runs, "lines": lines, "plain": round(plain), "oracles": round(orc),
            "oracles_extra_pct": round(100 * (plain / orc - 1)),
            "code": round(code), "code_extra_pct": round(100 * (plain / code - 1)), "code_lines": round(code_lines),
            "code_over_oracles_pct": round(100 * (orc / code - 1)),
            "code_all": round(full), "code_all_extra_pct": round(100 * (plain / full - 1)),
            "code_all_lines": round(full_lines),
            "campaign": round(camp), "campaign_extra_pct": round(100 * (plain / camp - 1)),
            "campaign_startup_s": round(statistics.median(startup), 2), "campaign_startup_runs": startup,
            "best": {"plain": round(b_plain), "oracles": round(b_orc), "code": round(b_code), "code_all": round(b_full),
                     "oracles_extra_pct": round(100 * (b_plain / b_orc - 1)),
                     "code_extra_pct": round(100 * (b_plain / b_code - 1)),
                     "code_over_oracles_pct": round(100 * (b_orc / b_code - 1)),
                     "code_all_extra_pct": round(100 * (b_plain / b_full - 1))}}


if __name__ == "__main__":
    main()
