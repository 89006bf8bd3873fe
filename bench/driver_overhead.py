"""Driver overhead: each bundled game under playtester vs the same game's loop run directly.

For every bundled game, side by side in one run:
  raw        the game's own main(fps=0, max_frames=F) in a headless subprocess, no playtester at all;
  driven     the same game in a playtester Worker, no-op inputs, 10 frames per step, an 84x84 frame
             captured at the end of each step (what GameEnv does by default);
  driven/nc  the same without frame capture.
A game that ends under no-op inputs is reset, as a campaign would; the resets per 1000 steps of the driven
run are printed too, since the raw run never pays for a new episode process.
Then steps/s with 2 workers vs 1, and memory per worker (RSS and USS of the host + episode process).
Each column is measured in several interleaved rounds (7 by default) and printed twice: the median, and the
best round (fastest). On a shared or virtualised machine interference only ever slows a run down, so the best
round is the estimate of the code's own speed (as ``timeit`` advises); the median shows what the machine
gave. The ratio is printed both ways, and per round (each driven round over the raw round beside it).
Prints figures and writes them to bench/results/driver_overhead.json (with command, commit, machine and
date); asserts nothing.  Usage: python bench/driver_overhead.py [--frames 6000]
Options for one game at another capture size: ``--games park --capture 64 --out park_driver_overhead``
measures only the park, capturing 64x64 frames in the driven run, and writes
bench/results/park_driver_overhead.json (the defaults, every game at 84x84, are unchanged).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import psutil
from provenance import provenance, write_results

from playtester.drive import InputFrame, Worker, bundled_games, resolve

RAW = """
import os, random, sys, time
os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
import importlib
import numpy as np
import pygame
mod = importlib.import_module("playtester.games." + sys.argv[1])
args = eval(sys.argv[3])
random.seed(0)  # as the driver seeds episode 0
np.random.seed(0)
flips = [0]
flip = pygame.display.flip
def counted():
    flips[0] += 1
    flip()
pygame.display.flip = counted  # a counter, to know how many frames the game really drew
t = time.perf_counter()
mod.main(fps=0, max_frames=int(sys.argv[2]), **args)
print(time.perf_counter() - t, flips[0])
"""


def raw_fps(game: str, frames: int, args: dict) -> float:
    out = subprocess.run([sys.executable, "-c", RAW, game, str(frames), repr(args)], capture_output=True,
                         text=True, timeout=600, check=True)
    seconds, drawn = out.stdout.strip().splitlines()[-1].split()
    return int(drawn) / float(seconds)


def driven_fps(game: str, frames: int, capture, k: int = 10, resets: list[int] | None = None) -> float:
    spec = resolve(game).with_config(max_episode_steps=10**9)
    with Worker(spec, capture=capture) as w:
        w.reset(seed=0)
        noop = InputFrame()
        for _ in range(5):  # warm up
            w.step(noop, frames=k)
        n = frames // k
        done_frames = started = 0
        t = time.perf_counter()
        for i in range(n):
            obs = w.step(noop, frames=k)
            done_frames += k
            if obs.done:  # the game ended (e.g. the player died): a new episode, as a campaign would
                w.reset(seed=i)
                started += 1
        if resets is not None:
            resets.append(round(1000 * started / n))
        return done_frames / (time.perf_counter() - t)


def parallel_steps(game: str, workers: int, steps: int, k: int = 10, capture=(84, 84)) -> float:
    spec = resolve(game).with_config(max_episode_steps=10**9)
    ws = [Worker(spec, capture=capture) for _ in range(workers)]
    try:
        for i, w in enumerate(ws):
            w.reset(seed=i)
        noop = InputFrame()
        t = time.perf_counter()
        for _ in range(steps):
            for w in ws:
                w.step_async(noop, frames=k)
            for i, w in enumerate(ws):
                if w.step_wait().done:
                    w.reset(seed=i)
        return steps * workers / (time.perf_counter() - t)
    finally:
        for w in ws:
            w.close()


def memory(game: str) -> tuple[float, float]:
    spec = resolve(game)
    with Worker(spec, capture=(84, 84)) as w:
        w.reset(seed=0)
        for _ in range(20):
            w.step(InputFrame(), frames=10)
        host = psutil.Process(w._proc.pid)
        procs = [host, *host.children()]
        rss = sum(p.memory_info().rss for p in procs) / 2**20
        uss = sum(p.memory_full_info().uss for p in procs) / 2**20
        return rss, uss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=6000)
    ap.add_argument("--steps", type=int, default=300, help="steps per worker for the 1 vs 2 worker figure")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved repetitions; medians and best rounds are printed")
    ap.add_argument("--games", nargs="+", default=None, help="only these bundled games (default: all)")
    ap.add_argument("--capture", type=int, default=84, help="side of the square frame the driven run captures")
    ap.add_argument("--out", default="driver_overhead", help="results file name under bench/results (no .json)")
    a = ap.parse_args()
    size = (a.capture, a.capture)
    made = provenance()
    rows = {}
    print(f"# driver overhead, {a.frames} frames per measurement, {os.cpu_count()} CPUs, Python "
          f"{sys.version.split()[0]}")
    print(f"{'game':<12} {'raw fps':>9} {'driven fps':>11} {'ratio':>6} {'no-capture fps':>15} {'ratio':>6} "
          f"{'best: raw':>10} {'driven':>7} {'ratio':>6} {'no-capt.':>8} {'ratio':>6} {'round ratios':>18} "
          f"{'1 worker st/s':>14} {'2 workers st/s':>15} {'x':>5} {'RSS MiB':>8} {'USS MiB':>8} {'resets/1k':>9}")
    for game in a.games or bundled_games():
        args = resolve(game).config.game_args
        runs: dict[str, list[float]] = {"raw": [], "drv": [], "nc": [], "one": [], "two": []}
        resets: list[int] = []
        for _ in range(a.rounds):  # interleaved, so drifts of the machine hit every column alike
            runs["raw"].append(raw_fps(game, a.frames, args))
            runs["drv"].append(driven_fps(game, a.frames, size, resets=resets))
            runs["nc"].append(driven_fps(game, a.frames, None))
            runs["one"].append(parallel_steps(game, 1, a.steps, capture=size))
            runs["two"].append(parallel_steps(game, 2, a.steps, capture=size))
        raw, drv, drv_nc, one, two = (statistics.median(runs[k]) for k in ("raw", "drv", "nc", "one", "two"))
        b_raw, b_drv, b_nc = (max(runs[k]) for k in ("raw", "drv", "nc"))
        paired = sorted(d / r for d, r in zip(runs["drv"], runs["raw"], strict=True))
        rss, uss = memory(game)
        spread = f"{paired[0]:.2f}-{paired[-1]:.2f}"
        print(f"{game:<12} {raw:>9,.0f} {drv:>11,.0f} {drv / raw:>6.2f} {drv_nc:>15,.0f} {drv_nc / raw:>6.2f} "
              f"{b_raw:>10,.0f} {b_drv:>7,.0f} {b_drv / b_raw:>6.2f} {b_nc:>8,.0f} {b_nc / b_raw:>6.2f} "
              f"{spread:>18} {one:>14,.0f} {two:>15,.0f} {two / one:>5.2f} {rss:>8.0f} {uss:>8.0f} {max(resets):>9}")
        rows[game] = {"runs": runs, "raw_fps": round(raw), "driven_fps": round(drv), "ratio": round(drv / raw, 2),
                      "nocapture_fps": round(drv_nc), "nocapture_ratio": round(drv_nc / raw, 2),
                      "best_raw_fps": round(b_raw), "best_driven_fps": round(b_drv),
                      "best_ratio": round(b_drv / b_raw, 2), "best_nocapture_fps": round(b_nc),
                      "best_nocapture_ratio": round(b_nc / b_raw, 2),
                      "round_ratios": [round(x, 2) for x in paired],
                      "median_round_ratio": round(statistics.median(paired), 2),
                      "steps_1_worker": round(one), "steps_2_workers": round(two), "x": round(two / one, 2),
                      "rss_mb": round(rss), "uss_mb": round(uss), "resets_per_1k_steps": max(resets)}
    record = {"frames": a.frames, "rounds": a.rounds, "games": rows}
    if a.capture != 84:
        record["capture"] = list(size)
    print(f"written to {write_results(a.out, record, made)}")


if __name__ == "__main__":
    main()
