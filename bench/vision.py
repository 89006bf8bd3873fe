"""The park's object detector: AP@0.5 per kind of OOI on the test split, over training seeds.

Collects (or reuses, from .cache/vision/park.npz) 2000 shots of the park labelled from the probe, trains
the CenterNet-style CPU detector of `playtester.vision.detector` once per seed and writes
bench/results/vision.json: per seed and kind the test AP, the training seconds and the best epoch, and the
dataset's box counts per kind and split. Seeds run in parallel processes (``--jobs``) with one PyTorch
thread each.

    .venv/bin/python bench/vision.py [--seeds 0 1 2] [--epochs 10] [--jobs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import ROOT, provenance, write_results  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

DATA = ROOT / ".cache" / "vision" / "park.npz"


def run_seed(seed: int, epochs: int, threads: int) -> dict[str, object]:
    from playtester.vision.dataset import Shots
    from playtester.vision.detector import TrainConfig, detect, save, train
    from playtester.vision.evaluate import ap_per_kind

    data = Shots.load(DATA)
    result = train(data, TrainConfig(epochs=epochs, seed=seed, threads=threads),
                   log=lambda line: print(f"[seed {seed}] {line}", flush=True))
    test = data.indices("test")
    ap = ap_per_kind(detect(result.model, data.frames[test]), [data.targets(i) for i in test], data.kinds)
    save(result, ROOT / "bench" / "out" / f"vision-seed{seed}.pt", test_ap=ap, game="park")
    return {"seed": seed, "ap": ap, "train_seconds": round(result.seconds, 1), "best_epoch": result.epoch + 1,
            "epochs": epochs, "val_ap": result.val_ap, "history": result.history}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=3)
    ap.add_argument("--shots", type=int, default=2000)
    args = ap.parse_args()
    made = provenance()

    from playtester.vision.dataset import PARK_KINDS, load_or_collect

    start = time.perf_counter()
    data = load_or_collect("park", PARK_KINDS, args.shots, 0, path=DATA)
    collect_seconds = time.perf_counter() - start
    counts = data.counts()
    threads = max(1, (os.cpu_count() or 2) // args.jobs)
    with ProcessPoolExecutor(args.jobs) as pool:
        runs = list(pool.map(run_seed, args.seeds, [args.epochs] * len(args.seeds), [threads] * len(args.seeds)))

    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"park detector: test AP@0.5 over {len(runs)} seeds (mean ± sd)")
    table.add_column("kind")
    table.add_column("AP@0.5", justify="right")
    table.add_column("test boxes", justify="right")
    summary = {}
    for kind in data.kinds:
        values = [r["ap"][kind] for r in runs]
        mean, sd = statistics.mean(values), statistics.stdev(values) if len(values) > 1 else 0.0
        summary[kind] = {"mean": round(mean, 4), "sd": round(sd, 4)}
        table.add_row(kind, f"{100 * mean:.1f} ± {100 * sd:.1f}%", str(counts["test"][kind]))
    secs = [r["train_seconds"] for r in runs]
    Console().print(table)
    print(f"training: {statistics.mean(secs):.0f} s per seed ({args.jobs} in parallel, {threads} thread(s) each)")
    record = {
        "game": "park", "kinds": list(data.kinds), "shots": len(data), "input_size": list(data.frames.shape[2:0:-1]),
        "dataset": counts, "collect_seconds": round(collect_seconds, 1), "jobs": args.jobs,
        "threads_per_job": threads, "runs": runs, "summary": summary,
    }
    print(f"written to {write_results('vision', record, made)}")


if __name__ == "__main__":
    main()
