"""Polling before sleeping (drive/wait.py), on and off side by side: steps/s with 1 and with 2 workers.

`bench/driver_paired.py` measures one worker stepping synchronously, where both sides poll (the parent because its
one worker leaves a core free). A campaign on this 2-core machine runs 2 workers: the parent does not poll then,
and the episode polls for a command only while the parent answers quickly. This bench checks that the waits cost
nothing there: each round plays the same steps with the waits on and off (the episode's through
``PLAYTESTER_SPIN_US`` in the worker host's environment, the parent's through ``Worker(spin=...)``), in alternating
order, the 2 workers sending their steps at once and reading the answers in turn as a campaign round does
(no-op inputs, 10 frames a step, an 84x84 capture; a game that ends is reset). Printed per game and setting: the
median of the rounds' steps/s and the median ratio on/off of the rounds. Writes bench/results/NAME.json.

    .venv/bin/python bench/waits.py [--rounds 6] [--steps 400] [--games dungeon platformer blockmaze]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

from driver_overhead import parallel_steps
from provenance import provenance, write_results


def steps_per_second(game: str, workers: int, steps: int, on: bool) -> float:
    os.environ["PLAYTESTER_SPIN_US"] = "300" if on else "0"  # read by each worker host as it starts
    # 20 steps untimed first: the parent's window of answer times fills
    return parallel_steps(game, workers, steps, warmup=20, spin=on)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--steps", type=int, default=400, help="steps per worker per run")
    ap.add_argument("--games", nargs="+", default=["dungeon", "platformer", "blockmaze"])
    ap.add_argument("--name", default="waits", help="results file name under bench/results (no .json)")
    a = ap.parse_args()
    made = provenance()
    print(f"# waits on vs off: {a.rounds} rounds of {a.steps} steps per worker, {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}")
    print(f"{'game':<12} {'workers':>7} {'on st/s':>8} {'off st/s':>8} {'on/off':>7} {'rounds on/off':>30}")
    rows: dict[str, dict] = {}
    for game in a.games:
        for workers in (1, 2):
            on_runs, off_runs = [], []
            for r in range(a.rounds):
                for on in ((True, False) if r % 2 == 0 else (False, True)):  # alternate who goes first
                    (on_runs if on else off_runs).append(steps_per_second(game, workers, a.steps, on))
            ratios = [x / y for x, y in zip(on_runs, off_runs, strict=True)]
            row = rows.setdefault(game, {})[f"{workers}_workers"] = {
                "on_median": round(statistics.median(on_runs), 1), "off_median": round(statistics.median(off_runs), 1),
                "ratio_median": round(statistics.median(ratios), 3), "ratios": [round(x, 3) for x in ratios],
                "on": [round(x, 1) for x in on_runs], "off": [round(x, 1) for x in off_runs]}
            print(f"{game:<12} {workers:>7} {row['on_median']:>8,.0f} {row['off_median']:>8,.0f} "
                  f"{row['ratio_median']:>7.3f} {' '.join(f'{x:.2f}' for x in ratios):>30}")
    os.environ.pop("PLAYTESTER_SPIN_US", None)
    record = {"rounds": a.rounds, "steps": a.steps, "frames_per_step": 10, "capture": [84, 84], "games": rows}
    print(f"written to {write_results(a.name, record, made)}")


if __name__ == "__main__":
    main()
