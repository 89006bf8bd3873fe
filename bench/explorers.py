"""The Wuji experiment on playtester's explorers: injected bugs found over wall time, and state coverage
over time, by random, curiosity, wuji and goexplore, several campaign seeds each, 2 workers.

Games: Block Maze (size 11, 5 bug cells placed at random reachable cells per episode; and the large maze,
size 41, whose 5 bug cells are drawn once from the campaign's seed and stay put, as the Wuji paper's
injected bugs do) and combat (4 injected bugs; see combat.py). Every campaign runs with the oracles and
state coverage on and code coverage off. Go-Explore runs twice: returning by snapshot (a parked fork of
the game process) and by replaying the trace; the return costs of both are printed. ``wuji-demos`` is
Wuji warm-started from the combat demonstrations in bench/data/combat_demos (bench/combat_demos.py);
it runs only on games listed in ``DEMOS``.

Prints a table per game and writes, under ``--out`` (default bench/results):
``explorers.json`` (every run: bug first-found times, timeline, agent stats) and PNG line plots
``GAME_bugs.png`` / ``GAME_states.png`` (mean over seeds; one colour per agent, legend in the JSON and
the README).

Usage: python bench/explorers.py [--seconds 120] [--seeds 2] [--first-seed 0] [--games blockmaze,maze41,combat]
       [--agents random,curiosity,wuji,goexplore,goexplore-replay,wuji-demos]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from provenance import provenance

from playtester.actions.space import space_from_dict
from playtester.campaign import Budget, explore
from playtester.drive.spec import resolve
from playtester.report.images import png_bytes

AGENTS = {
    "random": "random",
    "curiosity": "curiosity",
    # the paper's population of 30 would not finish one generation in a few minutes on 2 cores
    "wuji": "wuji:population=8,offspring=8,runs=1,max_train_rounds=4,patience=2",
    # the paper's 0.01 floor on every valid action, uncapped (an ablation: with ~100 valid actions the
    # floors take nearly all the probability and the policy hardly chooses)
    "wuji-floor": "wuji:population=8,offspring=8,runs=1,max_train_rounds=4,patience=2,floor_mass=1.0",
    "goexplore": "goexplore",
    "goexplore-replay": "goexplore:return_mode=replay",
    # Wuji warm-started from demonstrations (games with some in DEMOS; bench/combat_demos.py plays them)
    "wuji-demos": "wuji:population=8,offspring=8,runs=1,max_train_rounds=4,patience=2",
}
DEMOS = {"wuji-demos": {"combat": "bench/data/combat_demos"}}
COLORS = {"random": (120, 120, 120), "curiosity": (31, 119, 180), "wuji": (214, 39, 40), "wuji-floor": (148, 103, 189),
          "goexplore": (44, 160, 44), "goexplore-replay": (255, 127, 14),
          "wuji-demos": (140, 86, 75)}
GAMES = {
    "blockmaze": ("blockmaze", {"size": 11, "n_bugs": 5}),
    # the large maze's bug cells stay put for a campaign (drawn from its seed), as the Wuji paper's do
    "maze41": ("blockmaze", {"size": 41, "n_bugs": 5, "bug_seed": "campaign seed"}),
    "combat": ("combat", {}),
}


def _field(bug, name: str, default=None):
    """A field of a stored bug: a `Bug`, or one of a results file's ``all_bugs`` dicts."""
    return bug.get(name, default) if isinstance(bug, dict) else getattr(bug, name, default)


_STATE = re.compile(r"(\w+)=(-?[\d.]+(?:e[-+]?\d+)?)")


def stuck_state(bug) -> dict[str, float]:
    """The still state of a stuck finding: its details, else the ``(name=value, ...)`` of its message."""
    state = (_field(bug, "details") or {}).get("state")
    if state:
        return {k: float(v) for k, v in state.items()}
    message = _field(bug, "message", "")
    inside = message[message.rfind("(") + 1:message.rfind(")")] if "(" in message else ""
    return {k: float(v) for k, v in _STATE.findall(inside)}


def is_corner_charge(state: dict[str, float]) -> bool:
    """Combat's weak-charge-corner-stuck: the hero still in an arena corner with mana below what a charge
    leaves (a hero who is not charging regenerates mana, so a still state below that is a frozen charge)."""
    from playtester.games import combat as cb

    try:
        x, y, mana = state["hero_x"], state["hero_y"], state["mana"]
    except KeyError:
        return False
    return (x in (cb.HERO_MIN_X, cb.HERO_MAX_X) and y in (cb.HERO_MIN_Y, cb.HERO_MAX_Y)
            and mana <= cb.HERO_MAX_MANA - cb.CHARGE_COST)


def injected(game: str, bug) -> str | None:
    """The injected bug a stored bug is, matched by that bug's own signature, or None (a false alarm:
    a finding that is none of them). ``bug``: a `Bug` or a results file's ``all_bugs`` entry.

    combat: the zero-distance crash is a ZeroDivisionError raised in ``start_charge``; negative damage
    is the probe check "damage turned negative" or ``hit.damage`` below its range; the bolt crit is
    ``hit.damage`` above it; the corner charge is a still *state* (not a frozen screen) with the hero in an
    arena corner and its mana frozen below full less a charge's cost. The mazes: the bug cells' checks.
    """
    kind, sig, msg = _field(bug, "kind"), _field(bug, "signature", ""), _field(bug, "message", "")
    if game != "combat":
        return msg if kind == "assertion" and re.fullmatch(r"bug cell \d+ entered", msg) else None
    if kind == "crash" and sig.startswith("crash:ZeroDivisionError:combat.py:start_charge:"):
        return "charge-zero-distance"
    if (kind == "assertion" and msg == "damage turned negative") or sig == "balance:hit.damage:low":
        return "negative-damage"
    if kind == "stuck" and sig.startswith("stuck:state:") and is_corner_charge(stuck_state(bug)):
        return "weak-charge-corner-stuck"
    if sig == "balance:hit.damage:high":
        return "bolt-crit-x15"
    return None


def false_alarms(game: str, bugs) -> int:
    """How many of a campaign's stored bugs match no injected bug."""
    return sum(1 for b in bugs if injected(game, b) is None)


def n_injected(game: str) -> int:
    return 4 if game == "combat" else 5


def run(game: str, agent: str, seed: int, seconds: float, workers: int, actions: str = "default") -> dict:
    name, args = GAMES[game]
    demos = DEMOS.get(agent, {})
    if agent in DEMOS and game not in demos:
        raise SystemExit(f"{agent} needs demonstrations, and bench/ has none for {game}")
    spec = resolve(name)
    args = {k: seed if v == "campaign seed" else v for k, v in args.items()}
    if args:
        spec = spec.with_config(game_args=spec.config.game_args | args)
    with tempfile.TemporaryDirectory() as out:
        r = explore(spec, out=out, agent=AGENTS[agent], budget=Budget(seconds=seconds), workers=workers,
                    seed=seed, code_coverage=False, replay_known=False,
                    actions=None if actions == "default" else actions,
                    demos=[Path(__file__).parent.parent / demos[game]] if game in demos else (), finalize=False)
        first: dict[str, float] = {}
        for b in r.bugs:
            which = injected(game, b)
            if which is not None:
                first[which] = min(first.get(which, 1e9), b.first_found_s)
        timeline = [(t["t_s"], t["states"], t["steps"]) for t in r.store.timeline(r.campaign_id)]
        other = [b.message[:100] for b in r.bugs if injected(game, b) is None]
        found = [{"kind": b.kind, "signature": b.signature, "message": b.message[:200],  # to score again later
                  "first_found_s": b.first_found_s, "count": b.count,
                  **({"details": {"state": b.details["state"]}} if b.details.get("state") else {})}
                 for b in r.bugs]
        stats = {k: v for k, v in r.agent_stats.items() if k != "history"} if r.agent_stats else {}
        if "history" in (r.agent_stats or {}):
            stats["history"] = r.agent_stats["history"]
        return {"game": game, "agent": agent, "seed": seed, "actions": actions,
                "n_actions": len(space_from_dict(r.store.campaign(r.campaign_id).space)),
                "seconds": r.seconds, "steps": r.steps,
                "steps_per_s": r.steps / max(r.seconds, 1e-9), "episodes": r.episodes, "states": r.states,
                "bugs": first, "false_alarms": len(other), "other_findings": other, "all_bugs": found,
                "timeline": timeline, "stats": stats}


def curve(runs: list[dict], seconds: float, what: str, n: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Mean over runs of bugs found (or states) by time, on ``n`` points."""
    ts = np.linspace(0, seconds, n)
    ys = []
    for r in runs:
        if what == "bugs":
            times = sorted(r["bugs"].values())
            ys.append([sum(1 for t in times if t <= x) for x in ts])
        else:
            tl = r["timeline"] or [(0, 0, 0)]
            ys.append([max([s for t, s, _ in tl if t <= x], default=0) for x in ts])
    return ts, np.mean(ys, axis=0)


def line_plot(series: dict[str, tuple[np.ndarray, np.ndarray]], ymax: float, w: int = 480, h: int = 300) -> bytes:
    """A plain PNG line plot (white background, axes, one coloured polyline per series)."""
    img = np.full((h, w, 3), 255, np.uint8)
    left, bottom, top, right = 30, 20, 10, 10
    pw, ph = w - left - right, h - top - bottom
    img[top:h - bottom, left] = 0
    img[h - bottom, left:w - right] = 0
    for k in range(1, 5):  # light grid
        y = top + ph - k * ph // 4
        img[y, left + 1:w - right] = 225
    for name, (xs, ys) in series.items():
        color = COLORS.get(name, (0, 0, 0))
        xmax = max(xs[-1], 1e-9)
        px = left + (xs / xmax * (pw - 1)).astype(int)
        py = top + ph - 1 - np.clip(ys / max(ymax, 1e-9) * (ph - 1), 0, ph - 1).astype(int)
        for (x0, y0), (x1, y1) in zip(zip(px[:-1], py[:-1], strict=True), zip(px[1:], py[1:], strict=True),
                                      strict=True):
            steps = max(abs(x1 - x0), abs(y1 - y0), 1)
            for s in range(steps + 1):
                x, y = x0 + (x1 - x0) * s // steps, y0 + (y1 - y0) * s // steps
                img[max(0, y - 1):y + 1, max(0, x - 1):x + 1] = color
    # legend: a colour chip per series, in the order given, top left
    for i, name in enumerate(series):
        img[top + 4 + 10 * i: top + 10 + 10 * i, left + 6: left + 20] = COLORS.get(name, (0, 0, 0))
    return png_bytes(img)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=0, help="campaign seeds are FIRST .. FIRST+SEEDS-1")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games", default="blockmaze,maze41,combat")
    ap.add_argument("--agents", default="random,curiosity,wuji,goexplore,goexplore-replay")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    ap.add_argument("--actions", default="default", help="action space of every campaign: default (the game "
                    "config's, a hand-written space for the bundled games), analyzed or blind")
    ap.add_argument("--append", action="store_true", help="add to the runs already in OUT/explorers.json "
                    "(the same game, agent and seed is run again and replaced)")
    args = ap.parse_args()
    made = provenance()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "explorers.json"
    results: list[dict] = json.loads(path.read_text())["runs"] if args.append and path.is_file() else []
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    todo = {(g, a, s) for g in args.games.split(",") for a in args.agents.split(",") for s in seeds}
    results = [r for r in results if (r["game"], r["agent"], r["seed"]) not in todo]
    for game in args.games.split(","):
        for seed in seeds:
            for agent in args.agents.split(","):  # interleaved: machine load drifts over time
                t0 = time.time()
                res = run(game, agent, seed, args.seconds, args.workers, args.actions)
                results.append(res)
                path.write_text(json.dumps({**made, "seconds": args.seconds, "workers": args.workers,
                                            "actions": args.actions, "runs": results}, indent=1))
                print(f"  {game} {agent} seed {seed}: {len(res['bugs'])}/{n_injected(game)} bugs, "
                      f"{res['false_alarms']} false alarms, {res['states']} states, "
                      f"{res['steps_per_s']:.0f} steps/s ({time.time() - t0:.0f} s)",
                      flush=True)
        print(f"\n{game}: {args.seconds:g} s per campaign, {args.workers} workers")
        print("| agent | injected bugs found per seed | time to each (s) | false alarms per seed | states (mean) "
              "| steps/s |")
        print("|---|---|---|---|---|---|")
        bug_series, state_series = {}, {}
        for agent in [a for a in AGENTS if any(r["game"] == game and r["agent"] == a for r in results)]:
            rs = [r for r in results if r["game"] == game and r["agent"] == agent]
            if not rs:
                continue
            found = ", ".join(str(len(r["bugs"])) for r in rs)
            times = " / ".join(" ".join(f"{t:.0f}" for t in sorted(r["bugs"].values())) or "-" for r in rs)
            alarms = ", ".join(str(r.get("false_alarms", "?")) for r in rs)
            print(f"| {agent} | {found} (of {n_injected(game)}) | {times} | {alarms} | "
                  f"{statistics.mean(r['states'] for r in rs):,.0f} | "
                  f"{statistics.mean(r['steps_per_s'] for r in rs):.0f} |")
            bug_series[agent] = curve(rs, args.seconds, "bugs")
            state_series[agent] = curve(rs, args.seconds, "states")
            for r in rs:
                st = r["stats"]
                if "restore_ms" in st or "replay_ms" in st:
                    print(f"|   {agent} seed {r['seed']} returns | {st.get('returns')} | restore "
                          f"{st.get('restore_ms', 0):.1f} ms, replay {st.get('replay_ms', 0):.1f} ms "
                          f"({st.get('replay_steps_mean', 0):.0f} steps) | cells {st.get('cells')} | |")
        (out / f"{game}_bugs.png").write_bytes(line_plot(bug_series, n_injected(game)))
        smax = max(float(y.max()) for _, y in state_series.values()) if state_series else 1.0
        (out / f"{game}_states.png").write_bytes(line_plot(state_series, smax))
        print()


if __name__ == "__main__":
    main()
