"""False alarms of the ``texture`` oracle in short random campaigns on the park.

Each seed runs the campaign loop of ``playtester explore`` (`CampaignLoop`, the ``random`` agent, every oracle
of the park's ``[oracles]`` table, the texture oracle with ``--bundle`` judging full-size frames) for
``--steps`` steps in episodes of ``--episode-steps``. Every ``texture`` finding (the oracle reports
``texture:KIND:VERDICT`` once per episode, on the ``texture_confirm``-th frame that showed it) is scored
against the game's ground truth **at the finding's step** (the probe, read here for scoring only; the oracle
never sees it):

- **find**: an object of that kind is on screen (its probe ``screen_box``) and the face it shows has that bug;
- **false alarm**: no object of that kind on screen shows that bug on the face it shows. Each false alarm's
  cause, from the object the finding's box overlaps most (IoU >= 0.3 with a probe box): ``alarm_wrong_verdict``
  (an object of that kind whose face shown has not that bug: the verdict classifier's error; ``alarm_far``
  counts those farther than the game's 6 tiles for a face seen), ``alarm_wrong_kind`` (an object of another
  kind: the detector's kind), ``alarm_no_object`` (no object: the detector fired on scenery).

Per seed: finds, false alarms, the share of findings that are false alarms, the distinct signatures; over
seeds the mean ± sd. Written to bench/results/park_texture_alarms.json (``--name``).

**Settings, tuned apart from what is reported.** On the same campaigns, the same frames and the same
judgements (judged once a frame), texture oracles with every setting of a grid (``texture_min_p`` x
``texture_confirm`` x ``texture_min_height`` (window pixels: a smaller box is not judged) x ``texture_min_score``
(the detector's)) are scored the same way; ``default`` is the configured oracle itself. Two roles:

- ``--role tune`` runs the **tuning seeds** (``TUNING_SEEDS``, never reported) and picks a grid setting by a
  rule fixed before the run (``RULE``); its results go to bench/results/park_texture_tuning.json. The choice is
  then frozen by hand as the oracle's defaults (``oracles/texture.py`` ``DEFAULTS`` and ``FROZEN``: settings,
  time, tuning seeds, results file).
  The same run also chooses a **minimum box height per kind** (``texture_min_height`` as a table): the
  findings of one kind depend only on that kind's floor (the oracle confirms per kind and verdict), so each
  kind's grid heights are scored apart, at the chosen ``min_p``, ``confirm`` and ``min_score``, by
  ``PER_KIND_RULE`` (fixed before the run); the table is chosen only where it beats the single height.
- ``--role report`` runs the **reported seeds** (``REPORTED_SEEDS``) once with the frozen defaults, refuses any
  tuning seed and runs only when the settings are frozen; it records the freeze and, side by side, the same
  seeds' results before the change (``--before``, the first bench run: the first bundle, ``texture_min_p`` 0.9,
  ``texture_confirm`` 2). Written to bench/results/park_texture_alarms.json.

    .venv/bin/python bench/park_texture_alarms.py --role tune|report [--jobs 2] [--steps 2000] [--episode-steps 500]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import ROOT, provenance, write_results  # noqa: E402

from playtester.vision.evaluate import box_iou  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


# The settings grid scored on the same frames: (texture_min_p, texture_confirm, texture_min_height in window
# pixels, texture_min_score). ``default`` is the configured oracle itself (the frozen defaults of
# oracles/texture.py when the park's config names none).
GRID_P = (0.9, 0.97, 0.99, 0.999)
GRID_CONFIRM = (2, 3, 4)
GRID_HEIGHT = (32.0, 40.0, 48.0, 64.0)
GRID_SCORE = (0.3, 0.5, 0.7)
BEFORE = (0.9, 2, 32.0, 0.3)  # the settings before the tuning (issue 19's first texture oracle)
VARIANTS: dict[str, tuple[float, int, float, float]] = {"default": (0.0, 0, 0.0, 0.0)}  # filled from the config
VARIANTS.update({f"p{p}_c{c}_h{h:g}_s{sc}": (p, c, h, sc) for p in GRID_P for c in GRID_CONFIRM for h in GRID_HEIGHT
                 for sc in GRID_SCORE})
TUNING_SEEDS = (100, 101, 102, 103)
REPORTED_SEEDS = (0, 1, 2, 3, 4)
RULE = ("the grid variant with the most finds - false alarms, summed over the tuning seeds, among those that keep "
        "at least 75% (rounded down) of the most finds any variant made; ties: fewer false alarms, then the least "
        "strict (lower min_p, confirm, min_height, min_score)")
PER_KIND_RULE = ("per kind (the kind the detector names), at the chosen min_p, confirm and min_score: the grid height "
                 "with the most finds - false alarms of that kind over the tuning seeds, among those that keep every "
                 "find of that kind the chosen single height makes; ties: the chosen single height, then the lower. "
                 "The table is chosen only when some kind's height differs from the single one")
SCORES = ("find", "alarm_wrong_verdict", "alarm_wrong_kind", "alarm_no_object")


def _stat(values: list[float]) -> dict[str, float]:
    return {"mean": round(statistics.mean(values), 4), "sd": round(statistics.stdev(values), 4) if len(values) > 1
            else 0.0, "min": round(min(values), 4), "max": round(max(values), 4)}


def score(finding: Any, obs: Any) -> dict[str, Any]:
    """The finding against the ground truth of its step (see the module docstring): ``score`` (``find``,
    ``alarm_wrong_verdict``, ``alarm_wrong_kind`` or ``alarm_no_object``), and the object its box overlaps."""
    kind, verdict, box = finding.details["kind"], finding.details["verdict"], finding.details["box"]
    on_screen = [e for e in obs.entities.values() if e.attrs.get("screen_box") and e.attrs.get("face") is not None
                 and "bug_faces" in e.attrs]
    shows = any(e.kind == kind and str(e.attrs["bug_faces"][int(e.attrs["face"])]) == verdict for e in on_screen)
    best = max(on_screen, key=lambda e: box_iou(box, e.attrs["screen_box"]), default=None)
    if best is not None and box_iou(box, best.attrs["screen_box"]) < 0.3:
        best = None
    under = None if best is None else {
        "id": best.id, "kind": best.kind, "face": int(best.attrs["face"]), "distance": best.attrs.get("distance"),
        "bug": str(best.attrs["bug_faces"][int(best.attrs["face"])])}
    if shows:
        result = "find"
    elif best is None:
        result = "alarm_no_object"
    else:
        result = "alarm_wrong_verdict" if best.kind == kind else "alarm_wrong_kind"
    far = result == "alarm_wrong_verdict" and float(best.attrs.get("distance") or 0) > 6.0  # type: ignore[union-attr]
    return {"score": result, "far": far, "under_box": under}


def campaign(seed: int, steps: int, episode_steps: int, bundle: str, frames: Path | None = None) -> dict[str, Any]:
    from playtester.campaign.explore import CAPTURE
    from playtester.campaign.loop import Budget, CampaignLoop, Observer
    from playtester.campaign.observers import OracleWatch
    from playtester.campaign.run import make_agents
    from playtester.drive.spec import resolve
    from playtester.env import GameEnv, resolve_space
    from playtester.oracles import make_oracles, oracle_settings
    from playtester.oracles.texture import TextureOracle, load_judge

    spec = resolve("park")
    spec = spec.with_config(max_episode_steps=episode_steps, oracles={**spec.config.oracles, "texture_model": bundle})
    settings = oracle_settings(spec)
    space = resolve_space(spec, None)
    env = GameEnv(spec, actions=space, capture="full", obs_size=CAPTURE)
    findings: list[dict[str, Any]] = []
    judge, why = load_judge(bundle)
    assert judge is not None, why
    memo: list[Any] = [None, None]

    def judged(frame: Any) -> list[Any]:  # one judgement a frame, shared by every variant
        if memo[0] is not frame:
            memo[0], memo[1] = frame, judge(frame)
        return memo[1]

    def suite() -> Any:
        made = make_oracles(settings)
        for o in made.oracles:
            if o.kind == "texture":
                o.judge = judged
        return made

    variant_found: dict[str, list[dict[str, Any]]] = {name: [] for name in VARIANTS}

    class Variant(Observer):
        def __init__(self, name: str, min_p: float, confirm: int, min_height: float, min_score: float) -> None:
            self.name, self.min_p, self.confirm, self.min_height, self.min_score = name, min_p, confirm, min_height, min_score
            self.oracle: Any = None

        def on_episode_start(self, slot: Any, fresh: bool) -> None:
            self.oracle = TextureOracle(min_p=self.min_p, confirm=self.confirm, judge=judged,
                                        min_height=self.min_height, min_score=self.min_score)

        def on_step(self, step: Any) -> None:
            if step.game_obs is None or self.oracle is None:
                return
            for f in self.oracle.check(step.game_obs, step.index):
                variant_found[self.name].append({"signature": f.signature, **score(f, step.game_obs)})

    def sink(slot: Any, f: Any) -> None:
        if f.kind != "texture":
            return
        obs = slot.last_obs  # this step's observation: ground truth for scoring only
        findings.append({"episode_seed": slot.seed, "step": f.step, "signature": f.signature, "p": f.details["p"],
                         "box": f.details["box"], "player": f.details["player"], **score(f, obs)})
        if frames is not None and obs.frame is not None:  # the frame with the finding's box, to look at
            from playtester.report.images import png_bytes

            img = obs.frame.copy()
            x0, y0, x1, y1 = (int(v) for v in f.details["box"])
            img[max(0, y0):y1, [max(0, x0), max(0, x1 - 1)]] = (255, 0, 255)
            img[[max(0, y0), max(0, y1 - 1)], max(0, x0):x1] = (255, 0, 255)
            frames.mkdir(parents=True, exist_ok=True)
            name = f"s{seed}-e{slot.seed}-t{f.step}-{findings[-1]['score']}-{f.signature.replace(':', '_')}.png"
            (frames / name).write_bytes(png_bytes(img))

    loop = CampaignLoop([env], make_agents("random", len(space), 1, seed), Budget(steps=steps),
                        seed=seed * 1000, make_suite=suite,
                        observers=[OracleWatch(sink), *(Variant(k, *v) for k, v in VARIANTS.items() if k != "default")])
    start = time.perf_counter()
    try:
        loop.run()
    finally:
        env.close()
    n = {k: sum(1 for f in findings if f["score"] == k) for k in SCORES}
    n["alarm_far"] = sum(1 for f in findings if f["far"])
    alarms = len(findings) - n["find"]
    return {"seed": seed, "episodes": loop.episodes, "steps": loop.steps, "seconds": round(time.perf_counter() - start, 1),
            "findings": len(findings), "finds": n["find"], "false_alarms": alarms, **n,
            "false_alarm_share": round(alarms / len(findings), 4) if findings else None,
            "signatures": sorted({f["signature"] for f in findings}),
            "false_alarm_signatures": sorted({f["signature"] for f in findings if f["score"] != "find"}),
            "variants": {"default": _count(findings), **{k: _count(v) for k, v in variant_found.items() if k != "default"}},
            "detail": findings}


def _count(found: list[dict[str, Any]]) -> dict[str, Any]:
    finds = sum(1 for f in found if f["score"] == "find")
    by_kind: dict[str, dict[str, int]] = {}
    for f in found:  # the signature names the kind the detector saw: texture:KIND:VERDICT
        k = by_kind.setdefault(f["signature"].split(":")[1], {"finds": 0, "false_alarms": 0})
        k["finds" if f["score"] == "find" else "false_alarms"] += 1
    return {"findings": len(found), "finds": finds, "false_alarms": len(found) - finds,
            "alarm_no_object": sum(1 for f in found if f["score"] == "alarm_no_object"), "by_kind": by_kind}


def choose_per_kind(variants: dict[str, dict[str, Any]], chosen: str, kinds: tuple[str, ...]) -> dict[str, Any]:
    """``PER_KIND_RULE``, applied to the grid's per-kind totals over the tuning seeds: each kind's height, and
    the per-kind finds and false alarms at the chosen single height and at the kind's own."""
    p, c, h, sc = VARIANTS[chosen]
    out: dict[str, Any] = {}
    for kind in kinds:
        def tally(height: float, kind: str = kind) -> tuple[int, int]:
            v = variants[f"p{p}_c{c}_h{height:g}_s{sc}"]["by_kind_total"].get(kind, {})
            return v.get("finds", 0), v.get("false_alarms", 0)

        base_finds = tally(h)[0]
        ok = [x for x in GRID_HEIGHT if tally(x)[0] >= base_finds]
        best = min(ok, key=lambda x: (-(tally(x)[0] - tally(x)[1]), x != h, x))
        out[kind] = {"height": best, "finds": tally(best)[0], "false_alarms": tally(best)[1],
                     "at_single_height": {"height": h, "finds": tally(h)[0], "false_alarms": tally(h)[1]}}
    return out


def _campaign_job(job: tuple[int, int, int, str, Path | None]) -> dict[str, Any]:
    import torch

    torch.set_num_threads(1)
    import playtester.vision  # noqa: F401 - registers the texture judge's loader with the oracle

    return campaign(*job)


def choose(variants: dict[str, dict[str, Any]]) -> str:
    """The tuning rule (`RULE`), applied to the grid's totals over the tuning seeds."""
    grid = {k: v for k, v in variants.items() if k != "default"}
    most = max(v["finds_total"] for v in grid.values())
    floor = int(0.75 * most)
    ok = [k for k, v in grid.items() if v["finds_total"] >= floor]
    return min(ok, key=lambda k: (-(grid[k]["finds_total"] - grid[k]["false_alarms_total"]),
                                  grid[k]["false_alarms_total"], VARIANTS[k]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--role", choices=("tune", "report"), required=True,
                    help="tune: score the settings grid on the tuning seeds and choose by the rule (RULE); report: "
                         "run the frozen defaults (oracles/texture.py FROZEN) on the reported seeds")
    ap.add_argument("--seeds", type=int, nargs="+", default=None,
                    help=f"default: {list(TUNING_SEEDS)} to tune, {list(REPORTED_SEEDS)} to report")
    ap.add_argument("--steps", type=int, default=2000, help="steps per campaign")
    ap.add_argument("--episode-steps", type=int, default=500)
    ap.add_argument("--jobs", type=int, default=1, help="campaigns run in parallel (one PyTorch thread each)")
    ap.add_argument("--bundle", default=str(ROOT / ".cache" / "vision" / "park-texture.pt"),
                    help="texture model bundle ('playtester vision verdict park')")
    ap.add_argument("--frames", type=Path, default=None, help="save each finding's frame (its box drawn) here")
    ap.add_argument("--before", type=Path, default=ROOT / "bench" / "results" / "park_texture_alarms_before.json",
                    help="report: the results of the same seeds before the change, shown side by side")
    ap.add_argument("--previous", type=Path, default=None,
                    help="report: an earlier report of the same seeds (e.g. with another bundle), shown side by side")
    ap.add_argument("--name", default=None, help="results file name under bench/results (default: "
                    "park_texture_tuning to tune, park_texture_alarms to report)")
    args = ap.parse_args()
    made = provenance()
    from playtester.oracles.texture import DEFAULTS, FROZEN

    seeds = args.seeds or list(TUNING_SEEDS if args.role == "tune" else REPORTED_SEEDS)
    if args.role == "report":
        overlap = sorted(set(seeds) & set(FROZEN["tuning_seeds"]) | set(seeds) & set(TUNING_SEEDS))
        if overlap:
            sys.exit(f"seeds {overlap} were used to tune the settings: not reported")
        if not FROZEN["frozen_at"]:
            sys.exit("the settings are not frozen yet (oracles/texture.py FROZEN): run --role tune first")
    else:
        overlap = sorted(set(seeds) & set(REPORTED_SEEDS))
        if overlap:
            sys.exit(f"seeds {overlap} are the reported ones: never tune on them")
    VARIANTS["default"] = (DEFAULTS["texture_min_p"], DEFAULTS["texture_confirm"], DEFAULTS["texture_min_height"],
                           DEFAULTS["texture_min_score"])

    import torch

    torch.set_num_threads(1)
    import playtester.vision  # noqa: F401 - registers the texture judge's loader with the oracle

    jobs = [(seed, args.steps, args.episode_steps, args.bundle, args.frames) for seed in seeds]
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        from playtester.drive.lifetime import die_with_parent

        # each pool process dies with this one: a bench stopped by a signal leaves no campaign running on
        with ProcessPoolExecutor(args.jobs, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
            runs = list(pool.map(_campaign_job, jobs))
    else:
        runs = [campaign(*job) for job in jobs]
    for r in runs:
        print(f"seed {r['seed']}: {r['episodes']} episodes, {r['findings']} texture findings: {r['finds']} finds, "
              f"{r['false_alarms']} false alarms ({r['alarm_wrong_verdict']} wrong verdict, {r['alarm_far']} of them "
              f"far; {r['alarm_wrong_kind']} wrong kind; {r['alarm_no_object']} on no object)  {r['seconds']:.0f} s",
              flush=True)
    with_findings = [r["false_alarm_share"] for r in runs if r["false_alarm_share"] is not None]
    variants = {k: {"texture_min_p": v[0], "texture_confirm": v[1], "texture_min_height": v[2], "texture_min_score": v[3],
                    **{m: _stat([float(r["variants"][k][m]) for r in runs])
                       for m in ("findings", "finds", "false_alarms", "alarm_no_object")},
                    "finds_total": sum(r["variants"][k]["finds"] for r in runs),
                    "false_alarms_total": sum(r["variants"][k]["false_alarms"] for r in runs),
                    "false_alarm_share_pooled": round(sum(r["variants"][k]["false_alarms"] for r in runs) /
                                                      max(1, sum(r["variants"][k]["findings"] for r in runs)), 4),
                    "by_kind_total": {kind: {m: sum(r["variants"][k]["by_kind"].get(kind, {}).get(m, 0) for r in runs)
                                             for m in ("finds", "false_alarms")}
                                      for kind in sorted({kk for r in runs for kk in r["variants"][k]["by_kind"]})}}
                for k, v in VARIANTS.items()}
    record: dict[str, Any] = {
        "game": "park", "agent": "random", "role": args.role, "seeds": seeds,
        "seeds_roles": {"tuning": list(TUNING_SEEDS), "reported": list(REPORTED_SEEDS)},
        "steps_per_campaign": args.steps, "episode_steps": args.episode_steps,
        "bundle": os.path.relpath(args.bundle, ROOT), "settings": dict(DEFAULTS),
        "per_seed": {k: _stat([float(r[k]) for r in runs]) for k in
                     ("findings", "finds", "false_alarms", *SCORES[1:], "alarm_far")},
        "totals": {k: sum(r[k] for r in runs) for k in ("findings", "finds", "false_alarms")},
        "false_alarm_share": {"pooled": round(sum(r["false_alarms"] for r in runs) /
                                              max(1, sum(r["findings"] for r in runs)), 4),
                              "per_seed": _stat(with_findings) if with_findings else None,
                              "seeds_with_findings": len(with_findings)},
        "variants": variants,
    }
    if args.role == "tune":
        best = choose(variants)
        p, c, h, sc = VARIANTS[best]
        record["rule"] = RULE
        from playtester.vision.dataset import PARK_KINDS

        per_kind = choose_per_kind(variants, best, tuple(PARK_KINDS))
        table = {k: v["height"] for k, v in per_kind.items()}
        height: Any = table if any(x != h for x in table.values()) else h
        record["rule"] = RULE
        record["per_kind_rule"] = PER_KIND_RULE
        record["per_kind"] = per_kind
        record["chosen"] = {"variant": best, "texture_min_p": p, "texture_confirm": c, "texture_min_height": height,
                            "texture_min_score": sc, **{k: variants[best][k] for k in
                                                        ("finds_total", "false_alarms_total", "finds", "false_alarms")}}
        if isinstance(height, dict):
            record["chosen"].update({"single_height": h, "finds_total": sum(v["finds"] for v in per_kind.values()),
                                     "false_alarms_total": sum(v["false_alarms"] for v in per_kind.values())})
        print(f"chosen by the rule on seeds {seeds}: {record['chosen']}")
    else:
        record["freeze"] = FROZEN
        if args.before.is_file():
            import json

            before = json.loads(args.before.read_text())
            record["before"] = {"file": os.path.relpath(args.before, ROOT), "bundle": before.get("bundle"),
                                "commit": before.get("commit"), "date": before.get("date"),
                                "seeds": before.get("seeds"), "settings": dict(zip(
                                    ("texture_min_p", "texture_confirm", "texture_min_height", "texture_min_score"),
                                    BEFORE, strict=True)),
                                "per_seed": before["per_seed"], "false_alarm_share": before["false_alarm_share"],
                                "per_run": [{k: r[k] for k in ("seed", "findings", "finds", "false_alarms")}
                                            for r in before["runs"]]}
        if args.previous is not None and args.previous.is_file():
            import json

            prev = json.loads(args.previous.read_text())
            record["previous"] = {"file": os.path.relpath(args.previous, ROOT), "bundle": prev.get("bundle"),
                                  "date": prev.get("date"), "seeds": prev.get("seeds"), "settings": prev.get("settings"),
                                  "freeze": (prev.get("freeze") or {}).get("frozen_at"), "per_seed": prev["per_seed"],
                                  "totals": prev.get("totals"), "false_alarm_share": prev["false_alarm_share"],
                                  "per_run": [{k: r[k] for k in ("seed", "findings", "finds", "false_alarms")}
                                              for r in prev["runs"]]}
    record["runs"] = runs
    ps = record["per_seed"]
    print(f"{len(runs)} seeds x {args.steps} steps: finds {ps['finds']['mean']:.2f} ± {ps['finds']['sd']:.2f}, "
          f"false alarms {ps['false_alarms']['mean']:.2f} ± {ps['false_alarms']['sd']:.2f} per campaign")
    name = args.name or ("park_texture_tuning" if args.role == "tune" else "park_texture_alarms")
    print(f"written to {write_results(name, record, made)}")


if __name__ == "__main__":
    main()
