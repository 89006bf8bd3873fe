"""Stuck false alarms: the stuck findings of short campaigns, with the stuck oracle's two criteria side by side.

Each campaign is ``playtester explore`` without shrinking (``campaign.explore``: findings are stored as
found; nothing is replayed or shrunk), code coverage off, one worker, a budget in steps, so the two
campaigns of a game, agent and seed play exactly the same steps (the agent does not see the oracles; the
script checks that both played as many steps and episodes and found the same other bugs, frame_time
aside: it times the machine). The two
criteria (``[oracles] stuck_criterion``):

- ``window``: Wuji's: the state stays within ``stuck_threshold`` of the moving average of the last
  ``stuck_steps`` states while at least ``stuck_min_inputs`` different inputs arrive (or the screen stays
  frozen that long);
- ``effects`` (the default): the same still window, but the inputs that arrived must have moved the state
  earlier in the episode, at least ``stuck_min_inputs`` of them, and cover together every direction any
  input has moved it: a wall or a dead end is not stuck.

Every stuck finding is scored with bench/explorers.py's matcher (each injected bug by its own signature):
one that matches no injected bug is a false alarm. Combat's ``weak-charge-corner-stuck`` is the one
injected stuck bug; the mazes have none, so every stuck finding there is a false alarm.

Writes bench/results/stuck_false_alarms.json (every campaign's stuck findings, with the provenance of the
run). Usage: python bench/stuck_false_alarms.py [--steps 20000] [--seeds 2] [--games blockmaze,combat]
       [--agents random,wuji] [--criteria window,effects]   (agents: bench/explorers.py's AGENTS)
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from explorers import AGENTS, GAMES, injected
from provenance import provenance

from playtester.campaign import Budget, explore
from playtester.drive.spec import resolve


def campaign(game: str, agent: str, seed: int, steps: int, criterion: str, workers: int) -> dict:
    name, args = GAMES[game]
    spec = resolve(name)
    args = {k: seed if v == "campaign seed" else v for k, v in args.items()}
    oracles = dict(spec.config.oracles) | {"stuck_criterion": criterion}
    spec = spec.with_config(game_args=spec.config.game_args | args, oracles=oracles)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        r = explore(spec, out=out, agent=AGENTS.get(agent, agent), budget=Budget(steps=steps), workers=workers,
                    seed=seed, code_coverage=False, replay_known=False, finalize=False)
        stuck = [{"signature": b.signature, "message": b.message, "count": b.count, "first_step": b.first_step,
                  "state": b.details.get("state"), "inputs": b.details.get("inputs"),
                  "injected": injected(game, b)} for b in r.bugs if b.kind == "stuck"]
        others = sorted(b.signature for b in r.bugs if b.kind not in ("stuck", "frame_time"))  # wall clock
    alarms = [s for s in stuck if s["injected"] is None]
    return {"game": game, "agent": agent, "seed": seed, "criterion": criterion, "steps": r.steps,
            "episodes": r.episodes, "seconds": round(time.perf_counter() - t0, 1),
            "stuck_bugs": len(stuck), "stuck_episodes": sum(s["count"] for s in stuck),
            "false_alarms": len(alarms), "false_alarm_episodes": sum(s["count"] for s in alarms),
            "injected_stuck": sorted({s["injected"] for s in stuck if s["injected"]}),
            "stuck": stuck, "other_bugs": others}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000, help="steps per campaign")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--games", default="blockmaze,combat")
    ap.add_argument("--agents", default="random")
    ap.add_argument("--criteria", default="window,effects")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "stuck_false_alarms.json"))
    args = ap.parse_args()
    made = provenance()
    runs: list[dict] = []
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    criteria = args.criteria.split(",")
    for game in args.games.split(","):
        for agent in args.agents.split(","):
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                pair = []
                for criterion in criteria:
                    r = campaign(game, agent, seed, args.steps, criterion, args.workers)
                    pair.append(r)
                    runs.append(r)
                    print(f"  {game} {agent} seed {seed} {criterion}: {r['steps']} steps, {r['episodes']} episodes, "
                          f"{r['stuck_bugs']} stuck bugs in {r['stuck_episodes']} episodes, {r['false_alarms']} "
                          f"false alarms ({r['false_alarm_episodes']} episodes), injected {r['injected_stuck']} "
                          f"({r['seconds']:.0f} s)", flush=True)
                    out.write_text(json.dumps({**made, "steps_per_campaign": args.steps, "workers": args.workers,
                                               "runs": runs}, indent=1))
                same = {(r["steps"], r["episodes"], tuple(r["other_bugs"])) for r in pair}
                if len(same) != 1:
                    print(f"  warning: the {game} {agent} seed {seed} campaigns did not play alike: {same}")
    totals: dict[str, dict[str, int]] = {}
    for r in runs:
        t = totals.setdefault(f"{r['game']} {r['agent']} {r['criterion']}",
                              {"campaigns": 0, "steps": 0, "stuck_bugs": 0, "false_alarms": 0,
                               "false_alarm_episodes": 0, "injected_stuck_found": 0})
        t["campaigns"] += 1
        t["steps"] += r["steps"]
        t["stuck_bugs"] += r["stuck_bugs"]
        t["false_alarms"] += r["false_alarms"]
        t["false_alarm_episodes"] += r["false_alarm_episodes"]
        t["injected_stuck_found"] += bool(r["injected_stuck"])
    out.write_text(json.dumps({**made, "steps_per_campaign": args.steps, "workers": args.workers,
                               "totals": totals, "runs": runs}, indent=1))
    print("\n| game | agent | criterion | campaigns | steps | stuck bugs | false alarms (episodes) "
          "| campaigns that found the injected stuck bug |")
    print("|---|---|---|---|---|---|---|---|")
    for key, t in totals.items():
        print(f"| {' | '.join(key.split())} | {t['campaigns']} | {t['steps']:,} | {t['stuck_bugs']} | "
              f"{t['false_alarms']} ({t['false_alarm_episodes']}) | {t['injected_stuck_found']} |")


if __name__ == "__main__":
    main()
