"""What detecting the objects on PPGTA's demonstrations costs, three ways, side by side in one run.

Before its first step a PPGTA campaign replays its demonstrations and runs the object detector on every frame
(`PpgtaAgent.demo_boxes`; the boxes give the OD mask the encoder and the imitation train on). This bench replays
the benchmark's demonstrations (``--path-demos`` of ``bench/data/park_demos/path`` and ``--inspect-demos`` of
``bench/data/park_demos_orbit/inspect``, as `bench/ppgta.py` picks them) once, then times on their frames, ``--reps``
times each, in turn:

- **one by one**: the detector on each frame alone (`TextureJudge.detect`, what the agent did before);
- **batched, cold**: `demo_boxes` with an empty cache: the detector on 64 frames at a time, the result written to
  the cache;
- **cached**: `demo_boxes` again on the same frames: the cache read back (what every later campaign with the same
  demonstrations and detector does).

It also checks that the three give the same boxes (to 1e-3 px: batches round differently in the last bits).
Usage: ``python bench/demo_detections.py [--path-demos 8 --inspect-demos 150 --reps 3]``; writes
``bench/results/NAME.json``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ppgta import DEMOS, ORBIT_DEMOS, pick_demos, repo_path  # noqa: E402
from provenance import provenance, write_results  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def same(xs: list, ys: list) -> bool:
    return len(xs) == len(ys) and all(
        len(a) == len(b) and all(ka == kb and abs(sa - sb) < 1e-4 and np.allclose(ba, bb, atol=1e-3)
                                 for (ba, ka, sa), (bb, kb, sb) in zip(a, b, strict=True))
        for a, b in zip(xs, ys, strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--path-demos", type=int, default=8)
    ap.add_argument("--inspect-demos", type=int, default=150)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--name", default="demo_detections")
    args = ap.parse_args()
    made = provenance()
    import torch

    torch.set_num_threads(1)  # as in a campaign's agent
    import playtester.vision  # noqa: F401 - registers the detector loader
    from playtester.actions.space import space_to_dict
    from playtester.agents.common import CampaignInfo
    from playtester.agents.ppgta import CAPTURE, PpgtaAgent
    from playtester.campaign import load_demos, play_demos
    from playtester.drive.spec import resolve
    from playtester.env import GameEnv
    from playtester.oracles import oracle_settings

    tmp = Path(tempfile.mkdtemp(prefix="demo-detections-"))
    folders = [pick_demos(DEMOS / "path", args.path_demos, tmp / "demos" / "path"),
               pick_demos(ORBIT_DEMOS / "inspect", args.inspect_demos, tmp / "demos" / "inspect")]
    spec = resolve("park")
    env = GameEnv(spec, obs_size=CAPTURE)
    t0 = time.perf_counter()
    demos = play_demos(env, load_demos(folders, spec, space_to_dict(env.space)))
    replay_s = time.perf_counter() - t0
    env.close()
    episodes = [np.stack([s.obs for s in d.steps]) for d in demos if d.steps]
    n = sum(len(f) for f in episodes)
    print(f"{len(episodes)} demonstrations, {n} frames, replayed in {replay_s:.1f} s")

    agent = PpgtaAgent(9)
    agent.setup(CampaignInfo(9, detector=oracle_settings(spec).texture_model))
    judge = agent.judge
    times: dict[str, list[float]] = {"one_by_one": [], "batched_cold": [], "cached": []}
    results: dict[str, list] = {}
    for rep in range(args.reps):
        cache = tmp / f"cache{rep}"
        os.environ["PLAYTESTER_CACHE"] = str(cache)
        t0 = time.perf_counter()
        results["one_by_one"] = [agent._oois(judge.detect(f)) for frames in episodes for f in frames]
        times["one_by_one"].append(time.perf_counter() - t0)
        for key in ("batched_cold", "cached"):
            t0 = time.perf_counter()
            results[key] = [b for frames in episodes for b in agent.demo_boxes(frames)]
            times[key].append(time.perf_counter() - t0)
        print(f"rep {rep}: " + ", ".join(f"{k} {v[-1]:.1f} s" for k, v in times.items()))
    agree = {k: same(results["one_by_one"], results[k]) for k in ("batched_cold", "cached")}
    record = {
        "game": "park", "path_demos": args.path_demos, "inspect_demos": args.inspect_demos,
        "preference_demos": repo_path(DEMOS / "path"), "inspect_demos_folder": repo_path(ORBIT_DEMOS / "inspect"),
        "demonstrations": len(episodes), "frames": n, "replay_s": round(replay_s, 1), "reps": args.reps,
        "seconds": {k: {"mean": round(statistics.mean(v), 2), "sd": round(statistics.stdev(v), 2) if len(v) > 1
                        else 0.0, "runs": [round(x, 2) for x in v]} for k, v in times.items()},
        "ms_per_frame": {k: round(1000 * statistics.mean(v) / n, 3) for k, v in times.items()},
        "speedup_vs_one_by_one": {k: round(statistics.mean(times["one_by_one"]) / statistics.mean(times[k]), 1)
                                  for k in ("batched_cold", "cached")},
        "same_boxes_as_one_by_one": agree,
    }
    for k in times:
        print(f"{k:12s} {record['seconds'][k]['mean']:7.2f} s ± {record['seconds'][k]['sd']:.2f} "
              f"({record['ms_per_frame'][k]:.3f} ms a frame)")
    print(f"same boxes: {agree}")
    print(f"written to {write_results(args.name, record, made)}")
    shutil.rmtree(tmp, ignore_errors=True)
    if not all(agree.values()):
        sys.exit("the detections differ: see the results file")


if __name__ == "__main__":
    main()
