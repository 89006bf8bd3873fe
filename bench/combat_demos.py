"""Demonstrations of the combat game for Wuji's warm start (``explore --demos``), played by a script.

A tester would record a few fights of their own; this script stands in for one, so that the benchmark
can be rerun by anyone. It plays the way the combat docstring says the fight is won: close in and strike,
fire bolts while closing in with mana to spare, heal below half health, and step back from a telegraphed
swipe or slam. It uses only the game's hand-written action space (``combat.actions.yaml``) and its probe
features (what Wuji's network sees too), and it does not aim for any injected bug.

Each demonstration is written as a trace (the format of a bug's ``trace.json``; ``playtester replay``
plays it too), with its seed, so the campaign plays it back exactly.

Usage: python bench/combat_demos.py [--n 8] [--first-seed 10001] [--out bench/data/combat_demos]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playtester.actions.space import space_to_dict
from playtester.drive.spec import resolve
from playtester.env import GameEnv, resolve_space
from playtester.findings import Trace


def choose(f: dict[str, float], memory: dict[str, int]) -> str:
    """The scripted player's next action name, from the probe features of the current step."""
    dx, dy, d = f["boss_dx"], f["boss_dy"], f["distance"]
    memory["t"] += 1
    memory["since_heal"] += 1
    bolt_turn = memory["t"] % 2 == 0  # every other step
    if f["hero_hp"] < 55 and f["mana"] >= 35 and memory["since_heal"] > 40:
        memory["since_heal"] = 0
        return "heal"
    if f["boss_windup"] and d < 120:  # step out of the telegraphed attack
        return "left" if dx > 0 else "right"
    if d > 50:
        if f["mana"] > 60 and bolt_turn:
            return "bolt"
        if abs(dx) >= abs(dy):
            return "right" if dx > 0 else "left"
        return "down" if dy > 0 else "up"
    return "strike"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--first-seed", type=int, default=10001)
    ap.add_argument("--out", default="bench/data/combat_demos")
    args = ap.parse_args()
    spec = resolve("combat")
    space = resolve_space(spec, None)
    index = {a.name: i for i, a in enumerate(space.actions)}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = GameEnv(spec, actions=space, capture=None)
    try:
        for k in range(args.n):
            seed = args.first_seed + k
            _obs, info = env.reset(seed=seed)
            memory = {"t": 0, "since_heal": 99}
            actions: list[int] = []
            phase = 1
            while True:
                actions.append(index[choose(info["features"], memory)])
                _obs, _r, term, trunc, info = env.step(actions[-1])
                phase = max(phase, int(info["features"]["boss_phase"]))
                if term or trunc:
                    break
            events = [e.name for e in env.last_obs.events]
            end = "won" if "win" in events else "died" if "hero_died" in events else "cut off"
            trace = Trace(spec.text, spec.config.model_dump(mode="json"), seed, space_to_dict(space), actions)
            path = out / f"demo_{k + 1:02d}.json"
            path.write_text(trace.to_json())
            print(f"{path}: seed {seed}, {len(actions)} steps, damage {info['features']['score']:.0f}, "
                  f"phase {phase}, {end}")
    finally:
        env.close()


if __name__ == "__main__":
    main()
