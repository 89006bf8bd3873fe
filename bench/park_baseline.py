"""The park's random-agent baseline (paper 001's random row): pathway coverage, OOIs tested and verdicts right.

Episodes of ``--steps`` steps (2000, the paper's horizon) from the park's random starts (a random pathway
tile and facing, drawn from the episode seed), played by playtester's ``random`` agent (uniform over the 9
actions). Per episode:

- **pathway coverage**: the share of the park's path and bridge tiles the player stood on (also over the
  region evaluations keep, east of the demonstrations' west region, `park_demos.in_demo_region`);
- **OOIs tested**: objects of interest all of whose 8 faces were seen in the episode (the game's rule for
  a face seen: on screen, within 6 tiles, its box at least 32 px tall; the probe's ``seen_faces``);
- **verdicts right**: tested OOIs whose every face was judged right by the pixel pipeline (detector +
  verdict classifier of the ``--bundle``, no probe): each frame on which a face is seen (ground truth) is
  judged, the face's verdict is the majority over its frames, a face the detector never found counts as
  judged ``normal`` (the texture oracle says nothing of it). **crop verdicts right**: the share of the
  judged crops (faces seen and found) whose verdict matches the face's texture.

The ground truth (the probe) is read here for evaluation only; the agent never sees it. Frames are captured
at full size only on steps that may show a face (the player was within 6.5 tiles of an object a step before:
it moves at most 0.24 tiles a step), so most steps run without capture. Results: means and standard
deviations over episodes (each its own seed), the union over the run (after 18 episodes and at the end:
the paper's random agent tested 9 OOIs in 18 episodes, 17 in 45), written to
bench/results/park_baseline.json with the run's size; the bird's-eye maps (exploration traces; OOIs
tested-right / tested-wrong / missed) to bench/results/park_baseline_traces.png and _status.png.

    .venv/bin/python bench/park_baseline.py [--episodes 45] [--steps 2000] [--seed 1000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from park_demos import in_demo_region  # noqa: E402
from provenance import ROOT, provenance, write_results  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

NEAR = 6.5  # tiles: a face can be seen on the next step only from this close
HOOKS = "playtester.vision.dataset:call_hook"


def _stat(values: list[float]) -> dict[str, float]:
    return {"mean": round(statistics.mean(values), 4), "sd": round(statistics.stdev(values), 4) if len(values) > 1
            else 0.0, "min": round(min(values), 4), "max": round(max(values), 4)}


def episode(w: Any, agent: Any, seed: int, steps: int, judge: Any, paths: set[tuple[int, int]],
            oois: list[dict[str, Any]]) -> dict[str, Any]:
    """One episode of the random agent with the ground-truth bookkeeping (see the module docstring)."""
    import numpy as np

    from playtester.vision.evaluate import iou
    from playtester.vision.verdict import PARK_KINDS, VERDICTS, seen_faces

    ox = np.array([o["x"] for o in oois])
    oy = np.array([o["y"] for o in oois])
    w.capture = None
    obs = w.reset(seed=seed)
    info: dict[str, Any] = {"action_mask": obs.action_mask}
    visited: set[tuple[int, int]] = set()
    trace = []
    votes: dict[tuple[str, int], Counter[int]] = defaultdict(Counter)
    crops_right = crops_judged = faces_missed = judged_frames = 0
    for _ in range(steps):
        x, y = obs.features["x"], obs.features["y"]
        visited.add((int(x), int(y)))
        trace.append((round(x, 2), round(y, 2)))
        w.capture = "full" if float(np.min((ox - x) ** 2 + (oy - y) ** 2)) <= NEAR ** 2 else None
        obs = w.act(agent.act(obs, info, 0))
        if obs.frame is None:
            continue
        truth = seen_faces(obs, PARK_KINDS)
        if not truth:
            continue
        judged = judge(obs.frame)
        judged_frames += 1
        for e, box, face, verdict in truth:
            best = max(judged, key=lambda j: iou(np.array(box), np.array([j.box]))[0], default=None)
            if best is None or iou(np.array(box), np.array([best.box]))[0] < 0.5:
                faces_missed += 1
                continue
            v = VERDICTS.index(best.verdict)
            votes[(e.id, face)][v] += 1
            crops_judged += 1
            crops_right += int(v == verdict)
    x, y = obs.features["x"], obs.features["y"]
    visited.add((int(x), int(y)))
    trace.append((round(x, 2), round(y, 2)))
    seen = {e.id: set(e.attrs["seen_faces"]) for e in obs.entities.values() if "seen_faces" in e.attrs}
    tested, right = [], []
    for o in oois:
        if len(seen.get(o["id"], ())) < 8:
            continue
        tested.append(o["id"])
        judged_faces = [votes[(o["id"], f)].most_common(1)[0][0] if votes[(o["id"], f)] else 0 for f in range(8)]
        truth_faces = [VERDICTS.index({"none": "normal"}.get(b, b)) for b in o["bug_faces"]]
        if judged_faces == truth_faces:
            right.append(o["id"])
    east_paths = {t for t in paths if not in_demo_region(t[0] + 0.5, t[1] + 0.5)}
    return {"seed": seed, "path_coverage": len(visited & paths) / len(paths),
            "path_coverage_eval_region": len(visited & east_paths) / len(east_paths),
            "path_tiles": sorted(visited & paths), "faces_seen": sum(len(s) for s in seen.values()),
            "oois_seen": sum(1 for s in seen.values() if s), "tested": tested, "right": right,
            "crops_judged": crops_judged, "crops_right": crops_right, "faces_missed_by_detector": faces_missed,
            "judged_frames": judged_frames, "trace": trace}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=45)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1000, help="episode i plays seed + i")
    ap.add_argument("--bundle", default=str(ROOT / ".cache" / "vision" / "park-texture.pt"),
                    help="texture model bundle ('playtester vision verdict park')")
    ap.add_argument("--name", default="park_baseline", help="results file name under bench/results")
    args = ap.parse_args()
    made = provenance()

    import torch

    torch.set_num_threads(1)
    from playtester.agents.random import RandomAgent
    from playtester.drive import Worker, resolve
    from playtester.env import default_space
    from playtester.report.images import png_bytes
    from playtester.report.maps import BirdsEye, exploration_map, status_map
    from playtester.vision.verdict import load_bundle

    judge = load_bundle(args.bundle)
    spec = resolve("park").with_config(max_episode_steps=10**9)
    space = default_space(spec)
    runs = []
    start = time.perf_counter()
    with Worker(spec, space=space, capture=None) as w:
        w.reset(seed=args.seed)
        layout = w.call(HOOKS, "layout")[1]
        paths = {(int(x), int(y)) for x, y in w.call(HOOKS, "pathways")[1]}
        oois = layout["oois"]
        for i in range(args.episodes):
            agent = RandomAgent(len(space), seed=args.seed + i)
            r = episode(w, agent, args.seed + i, args.steps, judge, paths, oois)
            runs.append(r)
            print(f"episode {i + 1}/{args.episodes} seed {r['seed']}: paths {100 * r['path_coverage']:.1f}%, "
                  f"faces seen {r['faces_seen']}, tested {len(r['tested'])}, right {len(r['right'])}, crops "
                  f"{r['crops_right']}/{r['crops_judged']}  ({time.perf_counter() - start:.0f} s)", flush=True)
    seconds = time.perf_counter() - start

    def union(key: str, n: int) -> set[Any]:
        return set().union(*[set(map(tuple, r[key])) if key == "path_tiles" else set(r[key]) for r in runs[:n]])

    n18 = min(18, len(runs))
    tested_all, right_all = union("tested", len(runs)), union("right", len(runs))
    status = [{"id": o["id"], "x": o["x"], "y": o["y"], "kind": o["kind"], "bugged": any(b != "none" for b in o["bug_faces"]),
               "reachable": o["reachable"],
               "status": "ok" if o["id"] in right_all else "wrong" if o["id"] in tested_all else "missed"} for o in oois]
    crops_j = sum(r["crops_judged"] for r in runs)
    crops_r = sum(r["crops_right"] for r in runs)
    record = {
        "game": "park", "agent": "random", "episodes": len(runs), "steps_per_episode": args.steps,
        "size_note": ("the paper's size (45 x 2000)" if (len(runs), args.steps) == (45, 2000)
                      else f"a smaller run than the paper's 45 x 2000: {len(runs)} x {args.steps}"),
        "seeds": [r["seed"] for r in runs], "bundle": os.path.relpath(args.bundle, ROOT), "oois": len(oois),
        "unreachable_oois": sum(1 for o in oois if not o["reachable"]), "path_tiles": len(paths),
        "per_episode": {
            "path_coverage": _stat([r["path_coverage"] for r in runs]),
            "path_coverage_eval_region": _stat([r["path_coverage_eval_region"] for r in runs]),
            "oois_seen": _stat([r["oois_seen"] for r in runs]),
            "faces_seen": _stat([r["faces_seen"] for r in runs]),
            "oois_tested": _stat([len(r["tested"]) for r in runs]),
            "verdicts_right": _stat([len(r["right"]) for r in runs]),
        },
        "union": {
            "path_coverage": round(len(union("path_tiles", len(runs))) / len(paths), 4),
            "oois_tested_after_18": len(union("tested", n18)), "oois_tested": len(tested_all),
            "verdicts_right_after_18": len(union("right", n18)), "verdicts_right": len(right_all),
        },
        "crop_verdicts": {"judged": crops_j, "right": crops_r, "accuracy": round(crops_r / crops_j, 4) if crops_j
                          else None, "faces_missed_by_detector": sum(r["faces_missed_by_detector"] for r in runs)},
        "seconds": round(seconds, 1),
        "episodes_detail": [{k: v for k, v in r.items() if k not in ("trace", "path_tiles")} for r in runs],
        "oois_status": status,
    }
    view = BirdsEye(layout["rows"], traces=[r["trace"] for r in runs], objects=status, scale=6)
    for name, img in (("traces", exploration_map(view)), ("status", status_map(view))):
        (ROOT / "bench" / "results" / f"{args.name}_{name}.png").write_bytes(png_bytes(img))
    pe = record["per_episode"]
    print(f"{len(runs)} episodes x {args.steps} steps in {seconds:.0f} s: pathway coverage per episode "
          f"{100 * pe['path_coverage']['mean']:.1f} ± {100 * pe['path_coverage']['sd']:.1f}% (union "
          f"{100 * record['union']['path_coverage']:.1f}%), OOIs tested per episode {pe['oois_tested']['mean']:.2f} ± "
          f"{pe['oois_tested']['sd']:.2f} (union {len(tested_all)}, after 18 episodes "
          f"{record['union']['oois_tested_after_18']}), verdicts right {len(right_all)}, crop verdicts "
          f"{crops_r}/{crops_j}")
    print(f"written to {write_results(args.name, record, made)}")


if __name__ == "__main__":
    main()
