"""Driver overhead: each bundled game under playtester vs the same game's loop run directly.

For every bundled game, side by side in one run:
  raw        the game's own main(fps=0, max_frames=F) in a headless subprocess, no playtester at all; when the
             game ends before F frames (the player died), main() is called again in the same process, seeded
             like the next episode, until F frames are drawn: a new game costs the raw run what the game's
             start-up costs (pygame.init, set_mode, loading), as it costs a player who plays again;
  raw/1      the same, but stopping when the game first ends (the only raw figure before 2026-11-25: it never
             paid for a new game, so games that end often looked slower under the driver than they are);
  driven     the same game in a playtester Worker, no-op inputs, 10 frames per step, an 84x84 frame
             captured at the end of each step (what GameEnv does by default), one step per round trip;
  driven/nc  the same without frame capture;
  ahead      as driven, but 8 steps sent at once (`Worker.step_many`: what replays, ddmin and agents whose
             inputs do not depend on the frame can do): the episode goes from step to step without waiting.
A game that ends under no-op inputs is reset, as a campaign would; the resets per 1000 steps of the driven
run are printed too: each costs a fork of the worker host and the import of the game's module.
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
want, again = int(sys.argv[2]), sys.argv[4] == "1"
life = 0
t = time.perf_counter()
while flips[0] < want:
    mod.main(fps=0, max_frames=want - flips[0], **args)
    if not again:
        break
    life += 1
    random.seed(life)  # as the driver seeds the next episode
    np.random.seed(life)
print(time.perf_counter() - t, flips[0])
"""


def raw_fps(game: str, frames: int, args: dict, again: bool = True) -> float:
    """Frames per second of the game alone; ``again``: start a new game when it ends, until ``frames``."""
    out = subprocess.run([sys.executable, "-c", RAW, game, str(frames), repr(args), "1" if again else "0"],
                         capture_output=True,
                         text=True, timeout=600, check=True)
    seconds, drawn = out.stdout.strip().splitlines()[-1].split()
    return int(drawn) / float(seconds)


def driven_fps(game: str, frames: int, capture, k: int = 10, resets: list[int] | None = None,
               ahead: int = 1) -> float:
    """Frames per second under a Worker; ``ahead`` > 1: that many steps per `Worker.step_many`."""
    spec = resolve(game).with_config(max_episode_steps=10**9)
    with Worker(spec, capture=capture) as w:
        w.reset(seed=0)
        noop = InputFrame()
        for _ in range(5):  # warm up
            w.step(noop, frames=k)
        n = frames // k
        i = done_frames = started = 0
        t = time.perf_counter()
        while i < n:
            if ahead > 1:
                played = w.step_many([(noop, k)] * min(ahead, n - i))
            else:
                played = [w.step(noop, frames=k)]
            i += len(played)
            done_frames += k * len(played)
            if played[-1].done:  # the game ended (e.g. the player died): a new episode, as a campaign would
                w.reset(seed=i)
                started += 1
        if resets is not None:
            resets.append(round(1000 * started / n))
        return done_frames / (time.perf_counter() - t)


def parallel_steps(game: str, workers: int, steps: int, k: int = 10, capture=(84, 84), warmup: int = 0,
                   **worker_options) -> float:
    """Steps/s of ``workers`` workers whose steps go out at once and are read in turn (as a campaign round does),
    after ``warmup`` steps each that are not timed."""
    spec = resolve(game).with_config(max_episode_steps=10**9)
    ws = [Worker(spec, capture=capture, **worker_options) for _ in range(workers)]
    try:
        for i, w in enumerate(ws):
            w.reset(seed=i)
        noop = InputFrame()
        for _ in range(warmup):
            for w in ws:
                w.step(noop, frames=k)
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
    ap.add_argument("--ahead", type=int, default=8, help="steps per message in the 'ahead' column")
    a = ap.parse_args()
    size = (a.capture, a.capture)
    made = provenance()
    rows = {}
    print(f"# driver overhead, {a.frames} frames per measurement, {os.cpu_count()} CPUs, Python "
          f"{sys.version.split()[0]}")
    print(f"{'game':<12} {'raw fps':>9} {'driven fps':>11} {'ratio':>6} {'no-capture fps':>15} {'ratio':>6} "
          f"{'best: raw':>10} {'driven':>7} {'ratio':>6} {'no-capt.':>8} {'ratio':>6} {'round ratios':>18} "
          f"{'raw/1':>7} {'ahead':>7} {'ratio':>6} {'best':>5} "
          f"{'1 worker st/s':>14} {'2 workers st/s':>15} {'x':>5} {'RSS MiB':>8} {'USS MiB':>8} {'resets/1k':>9}")
    for game in a.games or bundled_games():
        args = resolve(game).config.game_args
        runs: dict[str, list[float]] = {"raw": [], "raw1": [], "drv": [], "nc": [], "ahead": [], "one": [], "two": []}
        resets: list[int] = []
        for _ in range(a.rounds):  # interleaved, so drifts of the machine hit every column alike
            runs["raw"].append(raw_fps(game, a.frames, args))
            runs["raw1"].append(raw_fps(game, a.frames, args, again=False))
            runs["ahead"].append(driven_fps(game, a.frames, size, ahead=a.ahead))
            runs["drv"].append(driven_fps(game, a.frames, size, resets=resets))
            runs["nc"].append(driven_fps(game, a.frames, None))
            runs["one"].append(parallel_steps(game, 1, a.steps, capture=size))
            runs["two"].append(parallel_steps(game, 2, a.steps, capture=size))
        raw, drv, drv_nc, one, two = (statistics.median(runs[k]) for k in ("raw", "drv", "nc", "one", "two"))
        raw1, ahead = statistics.median(runs["raw1"]), statistics.median(runs["ahead"])
        b_raw, b_drv, b_nc, b_ahead = (max(runs[k]) for k in ("raw", "drv", "nc", "ahead"))
        paired = sorted(d / r for d, r in zip(runs["drv"], runs["raw"], strict=True))
        rss, uss = memory(game)
        spread = f"{paired[0]:.2f}-{paired[-1]:.2f}"
        print(f"{game:<12} {raw:>9,.0f} {drv:>11,.0f} {drv / raw:>6.2f} {drv_nc:>15,.0f} {drv_nc / raw:>6.2f} "
              f"{b_raw:>10,.0f} {b_drv:>7,.0f} {b_drv / b_raw:>6.2f} {b_nc:>8,.0f} {b_nc / b_raw:>6.2f} "
              f"{spread:>18} {raw1:>7,.0f} {ahead:>7,.0f} {ahead / raw:>6.2f} {b_ahead / b_raw:>5.2f} {one:>14,.0f} {two:>15,.0f} {two / one:>5.2f} {rss:>8.0f} {uss:>8.0f} {max(resets):>9}")
        rows[game] = {"runs": runs, "raw_fps": round(raw), "driven_fps": round(drv), "ratio": round(drv / raw, 2),
                      "nocapture_fps": round(drv_nc), "nocapture_ratio": round(drv_nc / raw, 2),
                      "best_raw_fps": round(b_raw), "best_driven_fps": round(b_drv),
                      "best_ratio": round(b_drv / b_raw, 2), "best_nocapture_fps": round(b_nc),
                      "best_nocapture_ratio": round(b_nc / b_raw, 2),
                      "round_ratios": [round(x, 2) for x in paired],
                      "raw_one_life_fps": round(raw1), "ahead_fps": round(ahead), "ahead_ratio": round(ahead / raw, 2),
                      "best_ahead_fps": round(b_ahead), "best_ahead_ratio": round(b_ahead / b_raw, 2),
                      "median_round_ratio": round(statistics.median(paired), 2),
                      "steps_1_worker": round(one), "steps_2_workers": round(two), "x": round(two / one, 2),
                      "rss_mb": round(rss), "uss_mb": round(uss), "resets_per_1k_steps": max(resets)}
    record = {"frames": a.frames, "rounds": a.rounds, "ahead": a.ahead, "raw_restarts": True, "games": rows}
    if a.capture != 84:
        record["capture"] = list(size)
    print(f"written to {write_results(a.out, record, made)}")


if __name__ == "__main__":
    main()
