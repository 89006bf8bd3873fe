"""Driver overhead in fine pairs: each bundled game's raw loop and the same game under playtester, taking turns.

`bench/driver_overhead.py` times each column as a whole run (3,000-6,000 frames, a new process each) and pairs
the rounds; a round's raw and driven runs are tens of seconds apart, so anything else the machine does in
between lands in one and not the other, and a game's ratio moved by up to 0.2 between two idle runs. Here the
two run side by side at a finer grain, both alive at once, each paused while the other plays:

  raw     the game's own main(fps=0) in a headless subprocess, no playtester at all, paused (blocked on its
          stdin, off the clock) after every ``--chunk`` frames; when the game ends, main() is called again,
          seeded like the next episode (as `driver_overhead.py`'s raw run with restarts);
  driven  the same game in a playtester Worker: no-op inputs, 10 frames per step, an 84x84 frame captured at
          the end of each step (what GameEnv does by default), one step per round trip, ``--chunk`` / 10 steps;
          a game that ends is reset, as a campaign would.

Each pair is one raw chunk and one driven chunk of the same number of frames, the order alternating from pair
to pair; the ratio of a pair is driven fps over raw fps. The first ``--warmup`` pairs are left out (imports,
caches). Printed per game: the median pair ratio with its quartiles, and the medians of each side's fps.
Writes bench/results/NAME.json (command, commit, machine, date); asserts nothing.

    .venv/bin/python bench/driver_paired.py [--pairs 40] [--chunk 600] [--games arena platformer]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

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
chunk = int(sys.argv[2])
random.seed(0)  # as the driver seeds episode 0
np.random.seed(0)
flips, clock = [0], [0.0]
flip = pygame.display.flip
def paused():
    flip()
    flips[0] += 1
    if flips[0] % chunk == 0:  # a chunk drawn: say how long it took, wait (off the clock) to play the next
        sys.stdout.write(f"{time.perf_counter() - clock[0]}\\n")
        sys.stdout.flush()
        if sys.stdin.readline().strip() != "go":
            os._exit(0)
        clock[0] = time.perf_counter()
pygame.display.flip = paused
if sys.stdin.readline().strip() != "go":
    os._exit(0)
clock[0] = time.perf_counter()
life = 0
while True:
    mod.main(fps=0, max_frames=10**9, **args)
    life += 1
    random.seed(life)  # as the driver seeds the next episode
    np.random.seed(life)
"""


class Raw:
    """The game alone in a subprocess that plays ``chunk`` frames each time it is told to."""

    def __init__(self, game: str, chunk: int, args: dict) -> None:
        self.chunk = chunk
        self.proc = subprocess.Popen([sys.executable, "-c", RAW, game, str(chunk), repr(args)], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def play(self) -> float:
        """Frames per second of the next chunk (the game's own clock, read inside its process)."""
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the raw game exited (code {self.proc.wait()})")
        return self.chunk / float(line)

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


class Driven:
    """The game in a playtester Worker, ``chunk`` frames (10 a step) each time it is told to."""

    def __init__(self, game: str, chunk: int, k: int = 10) -> None:
        spec = resolve(game).with_config(max_episode_steps=10**9)
        self.worker = Worker(spec, capture=(84, 84))
        self.k, self.steps, self.seed, self.resets = k, chunk // k, 0, 0
        self.worker.reset(seed=0)

    def play(self) -> float:
        w, noop = self.worker, InputFrame()
        t = time.perf_counter()
        for _ in range(self.steps):
            if w.step(noop, frames=self.k).done:  # the game ended: a new episode, as a campaign would
                self.seed += 1
                w.reset(seed=self.seed)
                self.resets += 1
        return self.steps * self.k / (time.perf_counter() - t)

    def close(self) -> None:
        self.worker.close()


def quartiles(xs: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(xs, n=4)
    return q[0], statistics.median(xs), q[2]


def measure(game: str, pairs: int, chunk: int, warmup: int) -> dict:
    raw, drv = Raw(game, chunk, resolve(game).config.game_args), Driven(game, chunk)
    try:
        r_fps, d_fps = [], []
        for i in range(warmup + pairs):
            first, second = (raw, drv) if i % 2 == 0 else (drv, raw)  # alternate who plays first
            a, b = first.play(), second.play()
            r, d = (a, b) if first is raw else (b, a)
            if i >= warmup:
                r_fps.append(r)
                d_fps.append(d)
        ratios = [d / r for d, r in zip(d_fps, r_fps, strict=True)]
        q1, med, q3 = quartiles(ratios)
        return {"ratio_median": round(med, 3), "ratio_q1": round(q1, 3), "ratio_q3": round(q3, 3),
                "pairs_at_least_0.8": sum(x >= 0.8 for x in ratios), "pairs": len(ratios),
                "raw_fps_median": round(statistics.median(r_fps)), "driven_fps_median": round(statistics.median(d_fps)),
                "resets": drv.resets, "raw_fps": [round(x) for x in r_fps], "driven_fps": [round(x) for x in d_fps]}
    finally:
        raw.close()
        drv.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--chunk", type=int, default=600, help="frames per chunk (a multiple of 10)")
    ap.add_argument("--warmup", type=int, default=4, help="pairs played first and left out")
    ap.add_argument("--games", nargs="+", default=None, help="only these bundled games (default: all)")
    ap.add_argument("--name", default="driver_paired", help="results file name under bench/results (no .json)")
    a = ap.parse_args()
    made = provenance()
    print(f"# driver overhead in fine pairs: {a.pairs} pairs of {a.chunk} frames per game, {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}")
    print(f"{'game':<12} {'ratio median':>12} {'quartiles':>12} {'pairs >= 0.8':>12} {'raw fps':>8} {'driven fps':>10} "
          f"{'resets':>6}")
    rows = {}
    for game in a.games or bundled_games():
        r = rows[game] = measure(game, a.pairs, a.chunk, a.warmup)
        print(f"{game:<12} {r['ratio_median']:>12.2f} {r['ratio_q1']:>5.2f}-{r['ratio_q3']:<6.2f} "
              f"{r['pairs_at_least_0.8']:>6}/{r['pairs']:<5} {r['raw_fps_median']:>8,} {r['driven_fps_median']:>10,} "
              f"{r['resets']:>6}")
    record = {"pairs": a.pairs, "chunk": a.chunk, "warmup": a.warmup, "frames_per_step": 10, "capture": [84, 84],
              "games": rows}
    print(f"written to {write_results(a.name, record, made)}")


if __name__ == "__main__":
    main()
