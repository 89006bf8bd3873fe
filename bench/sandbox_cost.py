"""What ``--sandbox`` costs per step (issue 57): the same games, seeds and inputs played with and without it, side by
side in one run, plus the per-episode copy of the game's folder (``fresh_folder``) on its own.

For each game and seed, one worker per mode plays ``--episodes`` episodes of ``--steps`` steps with fixed inputs
(RIGHT and LEFT held in turn), the modes in a rotating order so that a load that changes over the run falls on each
alike; the time per step counts everything the campaign waits for (the episode's start, with its copy of the game's
folder, and each step), the worker's start-up (and bwrap's) apart. Per mode: the mean over seeds and its spread
(standard deviation over seeds); the ratio is sandbox / plain per seed, then averaged.

Modes: ``plain`` (the default: each episode in a copy of the game's folder), ``sandbox`` (``--sandbox``: the same
under bubblewrap, every file of the copy copied), ``shared`` (``fresh_folder = false``: the game's folder itself).

    python bench/sandbox_cost.py                  # writes bench/results/sandbox_cost.json
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import provenance, write_results  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = {
    # a file game laid out as a repository (src/main.py, assets/): its folder is copied per episode
    "repo_layout": str(ROOT / "tests" / "fixtures" / "games" / "repo_layout" / "src" / "main.py") + ":main",
    "blockmaze": "blockmaze",  # a bundled game (a module: no folder of its own to copy)
}
MODES = {"plain": {}, "sandbox": {"sandbox": True}, "shared": {"fresh_folder": False}}


def play(spec_text: str, mode: dict, seed: int, episodes: int, steps: int) -> dict:
    from playtester.drive.inputs import InputFrame
    from playtester.drive.spec import resolve
    from playtester.drive.worker import Worker

    spec = resolve(spec_text, **mode) if mode else resolve(spec_text)
    keys = [InputFrame.make(keys=["RIGHT"]), InputFrame.make(keys=["LEFT"])]
    t0 = time.perf_counter()
    w = Worker(spec, capture=None)
    try:
        w.reset(seed=seed)  # the first episode starts the host (bwrap, Python, pygame): timed apart
        start = time.perf_counter() - t0
        played, resets = 0, []
        t1 = time.perf_counter()
        for e in range(episodes):
            if e:
                r = time.perf_counter()
                w.reset(seed=seed + e)
                resets.append(time.perf_counter() - r)
            for i in range(steps):
                obs = w.step(keys[(i // 10) % 2])
                played += 1
                if obs.done:
                    break
        total = time.perf_counter() - t1
    finally:
        w.close()
    return {"start_s": round(start, 4), "steps": played, "ms_per_step": round(1000 * total / played, 4),
            "reset_ms": round(1000 * statistics.mean(resets), 3) if resets else None}


def _mean_sd(values: list[float]) -> dict:
    return {"mean": round(statistics.mean(values), 4),
            "sd": round(statistics.stdev(values), 4) if len(values) > 1 else 0.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--episodes", type=int, default=5)
    ap.add_argument("--steps", type=int, default=60, help="steps per episode")
    ap.add_argument("--games", default=",".join(GAMES))
    args = ap.parse_args()
    made = provenance()
    rows = []
    for game in args.games.split(","):
        runs: dict[str, list[dict]] = {m: [] for m in MODES}
        names = list(MODES)
        for seed in range(args.seeds):
            order = names[seed % len(names):] + names[:seed % len(names)]
            for m in order:
                runs[m].append(play(GAMES[game], MODES[m], seed, args.episodes, args.steps))
        ratio = [s["ms_per_step"] / p["ms_per_step"] for s, p in zip(runs["sandbox"], runs["plain"], strict=True)]
        copy = [p["ms_per_step"] / s["ms_per_step"] for p, s in zip(runs["plain"], runs["shared"], strict=True)]
        row = {"game": game, "spec": GAMES[game].replace(str(ROOT) + "/", ""),
               "modes": {m: {"ms_per_step": _mean_sd([r["ms_per_step"] for r in v]),
                             "reset_ms": _mean_sd([r["reset_ms"] for r in v if r["reset_ms"] is not None]),
                             "start_s": _mean_sd([r["start_s"] for r in v]), "runs": v} for m, v in runs.items()},
               "sandbox_over_plain": _mean_sd(ratio), "plain_over_shared": _mean_sd(copy)}
        rows.append(row)
        ms = row["modes"]
        print(f"{game}: ms/step plain {ms['plain']['ms_per_step']['mean']:.3f} ± {ms['plain']['ms_per_step']['sd']:.3f}, "
              f"sandbox {ms['sandbox']['ms_per_step']['mean']:.3f} ± {ms['sandbox']['ms_per_step']['sd']:.3f}, "
              f"shared folder {ms['shared']['ms_per_step']['mean']:.3f} ± {ms['shared']['ms_per_step']['sd']:.3f}; "
              f"sandbox/plain {row['sandbox_over_plain']['mean']:.3f} ± {row['sandbox_over_plain']['sd']:.3f}; "
              f"episode start plain {ms['plain']['reset_ms']['mean']:.1f} ms, sandbox "
              f"{ms['sandbox']['reset_ms']['mean']:.1f} ms, shared {ms['shared']['reset_ms']['mean']:.1f} ms")
    record = {"seeds": args.seeds, "episodes": args.episodes, "steps_per_episode": args.steps, "rows": rows}
    print(f"written to {write_results('sandbox_cost', record, made)}")


if __name__ == "__main__":
    main()
