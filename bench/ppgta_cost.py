"""Half the cost (issue 59): CPU per step of PPGTA against random on the park, side by side in one run, with the
texture oracle as it was (every frame judged, every box classified, the agent running the detector a second time)
and as it is now (one detection a frame shared by the oracle and the agent, every Nth frame judged, new boxes only).

Two parts:

``--choose-every`` (development): the inspection demonstrations ``inspect_001``..``inspect_0NN`` of
``bench/data/park_demos_orbit/inspect`` (they circle an object, so they see bugged faces) replayed with full
frames, the texture oracle at its frozen defaults and the shipped bundle run on every frame with N = 1 (every box:
the old oracle) and with N in ``--every-grid`` (new boxes only). A finding is (demonstration, signature). The rule,
fixed before the run: the largest N whose findings keep at least ``--keep`` (0.9) of N = 1's. That N is
``texture_every``'s default (`playtester.oracles.texture.DEFAULT_EVERY`). The detector and the classifier run once
per frame and box (a cache shared by the settings), and the classifications each setting asked for are counted.

Default (the cost): ``--seeds`` campaigns per (agent, setting), each one ``explore`` on the park (one worker, every
oracle of the park's config, code coverage off), ``--steps`` steps after PPGTA's warm-up and fit. **CPU per step**
is measured over the steps after the ``--skip`` first (PPGTA's warm-up of random steps and its fitting are left
out; random gets the same skip): CPU seconds of the campaign's process (agent, oracles: they check where the game
runs, here the local worker in this process) and of its game processes (the worker host and its episode
processes, read from /proc), over those steps. Settings: ``old`` = ``texture_every=1, texture_new_boxes_only=false``
and the agent detecting by itself (``oracles_in=parent``, which hands it no detections); ``new`` = the defaults
(``oracles_in=worker``: the oracle's detections travel with each step to the agent). PPGTA learns from ``--path-demos`` (2)
path and ``--inspect-demos`` (2) inspection demonstrations, with short fits (`AGENT`) so the warm-up and fit stay
short: its networks are the default sizes, and the per-step cost of acting is what is measured, not what it learnt.

    .venv/bin/python bench/ppgta_cost.py --choose-every [--demos 20]
    .venv/bin/python bench/ppgta_cost.py [--seeds 0,1,2] [--steps 300] [--jobs 1]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from campaign_pool import mean_sd, run_pool  # noqa: E402
from provenance import ROOT, provenance, write_results  # noqa: E402

from playtester.campaign.loop import Observer  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

INSPECT = ROOT / "bench" / "data" / "park_demos_orbit" / "inspect"
PATH = ROOT / "bench" / "data" / "park_demos" / "path"
BUNDLE = ROOT / "src" / "playtester" / "vision" / "park-texture.pt"
WARMUP = 50
# short fits (the per-step cost of acting is measured, not what was learnt); the networks are the default sizes
AGENT = f"ppgta:warmup_steps={WARMUP},idm_updates=30,il_updates=10,inspect_il_updates=10,il_episodes=2"
SETTINGS = {"old": ({"texture_every": 1, "texture_new_boxes_only": False}, "parent"),
            "new": ({}, "worker")}


# ---- choosing N on development episodes -------------------------------------------------------------------------
class SharedJudge:
    """The shipped judge, its detections and classifications of the latest frame kept, so several oracles judging
    the same frames pay for each once; ``asked`` counts the classifications each oracle asked for."""

    def __init__(self, judge: Any) -> None:
        self.judge, self.frame, self.found, self.judged = judge, None, [], {}

    def view(self) -> Any:
        from playtester.oracles.texture import FrameJudge

        shared = self

        class View(FrameJudge):
            asked = 0

            def detect(self, frame: Any) -> list[Any]:
                if shared.frame is not frame:
                    shared.frame, shared.found, shared.judged = frame, shared.judge.detect(frame), {}
                return shared.found

            def judge_found(self, frame: Any, found: list[Any]) -> list[Any]:
                self.detect(frame)
                todo = [d for d in found if (tuple(d[0]), d[1]) not in shared.judged]
                for j in shared.judge.judge_found(frame, todo):
                    shared.judged[(tuple(j.box), j.kind)] = j
                for d in todo:
                    shared.judged.setdefault((tuple(d[0]), d[1]), None)
                out = [shared.judged[(tuple(d[0]), d[1])] for d in found]
                out = [j for j in out if j is not None]
                View.asked += len(out)
                return out

        return View()


def choose_every(n_demos: int, grid: list[int], keep: float) -> dict[str, Any]:
    import playtester.vision  # noqa: F401 - registers the judge's loader
    from playtester.actions.space import space_from_dict
    from playtester.drive import Worker
    from playtester.findings import Trace
    from playtester.oracles.texture import TextureOracle, load_judge
    from playtester.replay import trace_spec

    judge, why = load_judge(str(BUNDLE))
    assert judge is not None, why
    shared = SharedJudge(judge)
    settings = [("1_all", 1, False)] + [(f"{n}_new", n, True) for n in grid]
    oracles = {name: TextureOracle(judge=shared.view(), every=n, new_only=new) for name, n, new in settings}
    found: dict[str, set[tuple[str, str]]] = {name: set() for name in oracles}
    steps, t0 = 0, time.process_time()
    files = sorted(INSPECT.glob("inspect_*.json"))[:n_demos]
    for f in files:
        trace = Trace.from_json(f.read_text())
        spec = trace_spec(trace)
        with Worker(spec, space=space_from_dict(trace.space), capture="full") as w:
            obs = w.reset(seed=trace.seed)
            for o in oracles.values():
                o.reset()
            for i in range(len(trace.actions) + 1):
                if i:
                    obs = w.act(trace.actions[i - 1])
                steps += 1
                for name, o in oracles.items():
                    for x in o.check(obs, i):
                        found[name].add((f.stem, x.signature))
                if obs.done:
                    break
        print(f"{f.stem}: {steps} frames so far; " + ", ".join(f"{k} {len(v)}" for k, v in found.items()), flush=True)
    base = found["1_all"]
    rows = {name: {"every": n, "new_boxes_only": new, "findings": len(found[name]),
                   "kept_of_every_frame": len(found[name] & base), "not_in_every_frame": len(found[name] - base),
                   "classified": type(oracles[name].judge).asked, "findings_list": sorted(map(list, found[name]))}
            for name, n, new in settings}
    ok = [n for name, n, new in settings if new and len(found[name] & base) >= keep * len(base)]
    return {"demos": [f.stem for f in files], "frames": steps, "cpu_s": round(time.process_time() - t0, 1),
            "rule": f"the largest N (new boxes only) keeping >= {keep} of every frame's findings",
            "settings": rows, "chosen_every": max(ok) if ok else 1}


# ---- the cost -------------------------------------------------------------------------------------------------
def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of ``root``'s descendants, not itself, and of the children they reaped."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, times = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            fields = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(d)] = int(fields[1])
        times[int(d)] = sum(int(x) for x in fields[11:15]) / tick  # utime stime cutime cstime
    total = 0.0
    for pid, t in times.items():
        p = parent.get(pid)
        while p is not None and p != root and p in parent:
            p = parent[p]
        if p == root and pid != root:
            total += t
    return total


class CpuMark(Observer):
    """An observer of the campaign's loop: the CPU of this process and of its game processes at step ``skip`` and
    at the last step."""

    def __init__(self, skip: int) -> None:
        self.skip, self.steps, self.marks = skip, 0, []

    def _mark(self) -> None:
        self.marks.append((self.steps, time.process_time(), tree_cpu(os.getpid()), time.perf_counter()))

    def on_step(self, step: Any) -> None:
        if step.index == 0:
            return
        self.steps += 1
        if self.steps == self.skip:
            self._mark()

    def on_end(self, loop: Any) -> None:
        self._mark()


def campaign(job: dict[str, Any]) -> dict[str, Any]:
    import torch

    torch.set_num_threads(1)
    import playtester.vision  # noqa: F401
    from playtester.campaign import Budget, explore
    from playtester.drive.spec import resolve

    extra, where = SETTINGS[job["setting"]]
    park = resolve("park")
    spec = resolve("park", oracles={**park.config.oracles, **extra}).with_config(max_episode_steps=10**6)
    mark = CpuMark(job["skip"])
    r = explore(spec, out=job["out"], agent=job["agent"], budget=Budget(steps=job["skip"] + job["steps"]), workers=1,
                seed=job["seed"], code_coverage=False, replay_known=False, demos=job["demos"], observers=[mark],
                finalize=False, oracles_in=where)
    r.store.close()
    (s0, p0, c0, w0), (s1, p1, c1, w1) = mark.marks[0], mark.marks[-1]
    n = s1 - s0
    stats = r.agent_stats
    return {"agent": job["label"], "setting": job["setting"], "seed": job["seed"], "steps": n,
            "cpu_ms_per_step": round(1000 * ((p1 - p0) + (c1 - c0)) / n, 2),
            "agent_process_ms_per_step": round(1000 * (p1 - p0) / n, 2),
            "game_ms_per_step": round(1000 * (c1 - c0) / n, 2), "wall_ms_per_step": round(1000 * (w1 - w0) / n, 2),
            "detections_shared": stats.get("detections_shared"), "detections_own": stats.get("detections_own"),
            "bugs": len(r.new_bugs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--choose-every", action="store_true", help="choose texture_every's default (development)")
    ap.add_argument("--demos", type=int, default=20, help="--choose-every: inspection demonstrations replayed")
    ap.add_argument("--every-grid", default="2,3,4,6,8")
    ap.add_argument("--keep", type=float, default=0.9)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--steps", type=int, default=150, help="steps measured per campaign, after --skip")
    ap.add_argument("--skip", type=int, default=WARMUP + 20, help="first steps left out (PPGTA's warm-up and fit)")
    ap.add_argument("--path-demos", type=int, default=2)
    ap.add_argument("--inspect-demos", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--name", default=None)
    args = ap.parse_args()
    made = provenance()
    if args.choose_every:
        record = choose_every(args.demos, [int(x) for x in args.every_grid.split(",")], args.keep)
        print(f"chosen texture_every: {record['chosen_every']}")
        print(f"written to {write_results(args.name or 'ppgta_cost_every', record, made)}")
        return
    tmp = Path(tempfile.mkdtemp(prefix="ppgta-cost-"))
    os.environ["PLAYTESTER_CACHE"] = str(tmp / "cache")
    sys.path.insert(0, str(ROOT / "bench"))
    from ppgta import pick_demos

    demos = [str(pick_demos(PATH, args.path_demos, tmp / "demos" / "preference")),
             str(pick_demos(INSPECT, args.inspect_demos, tmp / "demos" / "inspect"))]
    seeds = [int(s) for s in args.seeds.split(",")]
    jobs = [{"agent": a, "label": label, "setting": setting, "seed": s, "steps": args.steps, "skip": args.skip,
             "demos": demos if label == "ppgta" else [], "out": str(tmp / f"{label}-{setting}-{s}")}
            for s in seeds for setting in SETTINGS for label, a in (("random", "random"), ("ppgta", AGENT))]
    start = time.perf_counter()
    runs = run_pool(campaign, jobs, args.jobs, lambda r: (
        f"{r['agent']} {r['setting']} seed {r['seed']}: {r['cpu_ms_per_step']} ms CPU a step over {r['steps']} steps "
        f"(agent process {r['agent_process_ms_per_step']}, game {r['game_ms_per_step']})"))
    summary: dict[str, Any] = {}
    for setting in SETTINGS:
        row = {}
        for label in ("random", "ppgta"):
            mine = [r for r in runs if r["agent"] == label and r["setting"] == setting]
            row[label] = {k: mean_sd([r[k] for r in mine]) for k in ("cpu_ms_per_step", "agent_process_ms_per_step",
                                                                    "game_ms_per_step")}
        ratios = [p["cpu_ms_per_step"] / q["cpu_ms_per_step"] for p, q in zip(
            [r for r in runs if r["agent"] == "ppgta" and r["setting"] == setting],
            [r for r in runs if r["agent"] == "random" and r["setting"] == setting], strict=True)]
        row["ppgta_over_random"] = mean_sd(ratios)
        summary[setting] = row
    for label in ("random", "ppgta"):
        summary[f"{label}_new_over_old"] = mean_sd([n["cpu_ms_per_step"] / o["cpu_ms_per_step"] for n, o in zip(
            [r for r in runs if r["agent"] == label and r["setting"] == "new"],
            [r for r in runs if r["agent"] == label and r["setting"] == "old"], strict=True)])
    from playtester.oracles.texture import DEFAULT_EVERY

    record = {"size": {"seeds": seeds, "steps_measured": args.steps, "skipped": args.skip, "jobs": args.jobs,
                       "path_demos": args.path_demos, "inspect_demos": args.inspect_demos},
              "agent": AGENT, "settings": {"old": {"oracles": SETTINGS["old"][0], "oracles_in": "parent"},
                                           "new": {"oracles": {"texture_every": DEFAULT_EVERY,
                                                               "texture_new_boxes_only": True},
                                                   "oracles_in": "worker"}},
              "seconds": round(time.perf_counter() - start, 1), "summary": summary, "runs": runs}
    print(summary)
    print(f"written to {write_results(args.name or 'ppgta_cost', record, made)}")


if __name__ == "__main__":
    main()
