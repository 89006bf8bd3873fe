"""The park's object detector: AP@0.5 per kind of OOI on the test split, over training seeds.

Collects (or reuses, from .cache/vision/park.npz) 2000 shots of the park labelled from the probe, trains
the CenterNet-style CPU detector of `playtester.vision.detector` once per seed and writes
bench/results/vision.json (``--name``): per seed and kind the test AP, the training's wall seconds, its
**CPU seconds** (user + system time of the process that trained, `resource.getrusage`, measured around the
training only: unlike wall time it does not grow when other work shares the machine) and the best epoch, and
the dataset's box counts per kind and split. Seeds run in parallel processes (``--jobs``) with one PyTorch
thread each.

``--scenery N`` adds N scenery-only shots (hard negatives, `playtester.vision.dataset.collect_scenery`; with
``--miner DETECTOR`` the frames that detector fires on are always kept), cached as ``park-sceneryN.npz``; the
collection's counts and CPU time go to ``scenery``. The shipped detector came from ``--seeds 0 --jobs 1 --threads 1
--scenery 600 --miner bench/out/vision-seed0.pt --out-prefix vision_hardneg --name vision_hardneg``.

    .venv/bin/python bench/vision.py [--seeds 0 1 2] [--epochs 10] [--jobs 3] [--name vision]
"""

from __future__ import annotations

import argparse
import os
import resource
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


def _cpu() -> float:
    """User + system seconds of this process and of its children that ended (the game's worker processes)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_seed(seed: int, epochs: int, threads: int, data_path: Path = DATA, prefix: str = "vision") -> dict[str, object]:
    from playtester.vision.dataset import Shots
    from playtester.vision.detector import TrainConfig, detect, save, train
    from playtester.vision.evaluate import ap_per_kind

    data = Shots.load(data_path)
    before, wall0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    result = train(data, TrainConfig(epochs=epochs, seed=seed, threads=threads),
                   log=lambda line: print(f"[seed {seed}] {line}", flush=True))
    after, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter() - wall0
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    test = data.indices("test")
    ap = ap_per_kind(detect(result.model, data.frames[test]), [data.targets(i) for i in test], data.kinds)
    save(result, ROOT / "bench" / "out" / f"{prefix}-seed{seed}.pt", test_ap=ap, game="park")
    return {"seed": seed, "ap": ap, "train_seconds": round(result.seconds, 1),
            "train_cpu": {"user_s": round(user, 1), "sys_s": round(system, 1), "cpu_s": round(user + system, 1),
                          "cpu_minutes": round((user + system) / 60, 2), "wall_s": round(wall, 1),
                          "threads": threads},
            "best_epoch": result.epoch + 1,
            "epochs": epochs, "val_ap": result.val_ap, "history": result.history}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=3)
    ap.add_argument("--shots", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=0, help="PyTorch threads per job (0: cores // jobs)")
    ap.add_argument("--data", type=Path, default=DATA, help="the shots (collected there when missing)")
    ap.add_argument("--name", default="vision", help="results file name under bench/results")
    ap.add_argument("--scenery", type=int, default=0,
                    help="add this many scenery-only shots (hard negatives, `dataset.collect_scenery`) to the shots")
    ap.add_argument("--miner", type=Path, default=None,
                    help="a detector (bench/out/vision-seed0.pt) that picks the hard scenery shots: those it fires on")
    ap.add_argument("--out-prefix", default="vision", help="models go to bench/out/PREFIX-seedN.pt")
    args = ap.parse_args()
    made = provenance()

    from playtester.vision.dataset import PARK_KINDS, Shots, collect_scenery, load_or_collect, merge

    start, cpu0, cached = time.perf_counter(), _cpu(), args.data.is_file()
    data = load_or_collect("park", PARK_KINDS, args.shots, 0, path=args.data)
    collect_seconds, collect_cpu = time.perf_counter() - start, _cpu() - cpu0
    scenery: dict[str, object] | None = None
    train_path = args.data
    if args.scenery:
        train_path = args.data.with_name(f"{args.data.stem}-scenery{args.scenery}.npz")
        if train_path.is_file():
            data = Shots.load(train_path)
            scenery = {"shots": args.scenery, "cached": True, "miner": str(args.miner)}
        else:
            miner = None
            if args.miner is not None:
                import torch

                from playtester.vision.detector import detect, load

                torch.set_num_threads(1)
                net, _ = load(args.miner)

                def miner(frame: object) -> float:
                    scores = detect(net, frame[None], min_score=0.05)[0][1]  # type: ignore[index]
                    return float(scores.max()) if len(scores) else 0.0
            t0, c0 = time.perf_counter(), _cpu()
            extra, stats = collect_scenery("park", PARK_KINDS, args.scenery, seed=1, miner=miner)
            data = merge(data, extra)
            data.save(train_path)
            scenery = {"shots": len(extra), "cached": False, "seed": 1,
                       "miner": None if args.miner is None else os.path.relpath(args.miner, ROOT), **stats,
                       "collect_seconds": round(time.perf_counter() - t0, 1), "collect_cpu_s": round(_cpu() - c0, 1)}
        print(f"with {args.scenery} scenery shots: {len(data)} shots ({scenery})", flush=True)
    counts = data.counts()
    threads = args.threads or max(1, (os.cpu_count() or 2) // args.jobs)
    from playtester.drive.lifetime import die_with_parent

    # each training process dies with this one: a bench stopped by a signal leaves none training on
    with ProcessPoolExecutor(args.jobs, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
        runs = list(pool.map(run_seed, args.seeds, [args.epochs] * len(args.seeds), [threads] * len(args.seeds),
                             [train_path] * len(args.seeds), [args.out_prefix] * len(args.seeds)))

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
    cpu = [r["train_cpu"]["cpu_s"] for r in runs]
    print(f"training: {statistics.mean(secs):.0f} s per seed ({args.jobs} in parallel, {threads} thread(s) each), "
          f"{statistics.mean(cpu) / 60:.2f} CPU minutes per seed (user + sys)")
    record = {
        "game": "park", "kinds": list(data.kinds), "shots": len(data), "input_size": list(data.frames.shape[2:0:-1]),
        "dataset": counts, "collect_seconds": round(collect_seconds, 1),
        "collect_cpu_s": None if cached else round(collect_cpu, 1),  # this process and its game workers
        "data": os.path.relpath(train_path, ROOT), "data_cached": cached, "scenery": scenery, "jobs": args.jobs,
        "threads_per_job": threads, "runs": runs, "summary": summary,
        "train_cpu_minutes": {"mean": round(statistics.mean(cpu) / 60, 2),
                              "sd": round(statistics.stdev(cpu) / 60, 2) if len(cpu) > 1 else 0.0,
                              "max": round(max(cpu) / 60, 2)},
    }
    print(f"written to {write_results(args.name, record, made)}")


if __name__ == "__main__":
    main()
