"""Same seed, same run: does a game play the same twice under playtester?

Every figure of this project assumes it (replays, ddmin, the corpus's means over seeds). For each game, a random
agent (a fixed generator) plays the blind space ``--steps`` steps from one seed, twice, each time in a fresh worker;
the two runs are compared step by step: the action, the frame (a hash of the 64x64 capture), the game's features and
whether the episode ended. Each run has a HOME of its own (a fresh user: what one run saves is not there for the
next). Nondeterminism that depends on timing (a game clock moved by how long something real
took) may not show on an idle machine: ``--load N`` keeps N busy processes running meanwhile, which makes it likelier
to show, not certain (the clock bug fixed on 2026-11-27, space-invaders-pygame's at seed 2, parted the runs at step
138 under three ``yes`` processes and not in 4 idle runs, nor in 4 runs under ``--load 3`` another time). Two runs
that agree say little; two that part are a bug, found. A game whose runs differ is reported with the first step where they part, so a test of
it can start there. Bundled games (``--bundled``) and the real-game corpus (``bench/real_games.toml``, installed as
``bench/real_games.py`` installs it) alike.

    python bench/determinism.py                      # the corpus, 300 steps, seed 0
    python bench/determinism.py --bundled --steps 500
    python bench/determinism.py --games space-invaders-pygame,jpong --runs 3

Results: ``bench/results/determinism.json`` (command, commit, machine, date; per game the runs' digests, whether they
agree, and the first step where they part).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import real_games as rg  # noqa: E402
from provenance import provenance, write_results  # noqa: E402


def play(spec_text: str, config: str | None, steps: int, seed: int) -> list[list]:
    """One run: per step [action, frame hash, features, done]; a fresh worker, the blind space, a fixed generator."""
    import numpy as np

    from playtester.agents.common import RandomPlan
    from playtester.drive.spec import resolve
    from playtester.drive.worker import Worker
    from playtester.env import resolve_space

    spec = resolve(spec_text, config=config) if config else resolve(spec_text)
    space = resolve_space(spec, "blind")
    plan = RandomPlan(np.random.default_rng(seed), len(space))
    out: list[list] = []
    with Worker(spec, space, capture=(64, 64)) as w:
        obs = w.reset(seed=seed)
        for _ in range(steps):
            if obs.done:
                obs = w.reset(seed=seed + len(out) + 1)  # the next episode, seeded as the run before it was
            a = plan.choose(obs.action_mask)
            obs = w.act(a)
            frame = hashlib.md5(obs.frame.tobytes()).hexdigest()[:12] if obs.frame is not None else None
            out.append([a, frame, sorted((k, round(float(v), 6)) for k, v in obs.features.items()), bool(obs.done)])
    return out


def _inner(argv: list[str]) -> None:
    spec_text, config, steps, seed = argv[0], argv[1] or None, int(argv[2]), int(argv[3])
    print("RESULT " + json.dumps(play(spec_text, config, steps, seed)))


def one_run(spec_text: str, config: str | None, steps: int, seed: int, env: dict[str, str] | None, cwd: str | None,
            timeout: float) -> list[list] | str:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--inner", spec_text, config or "", str(steps), str(seed)]
    with tempfile.TemporaryDirectory(prefix="determinism-home-") as home:
        # each run a user of its own: what one run saves (planetoids-game's high score, its settings) is not there for
        # the next, as on two machines; a game whose episodes read what earlier ones wrote is another matter
        base = dict(env or os.environ)
        cache = base.get("XDG_CACHE_HOME") or os.path.join(base.get("HOME", home), ".cache")  # caches are kept (a
        # cold fontconfig cache makes pygame's SysFont wait on fc-list near its 1 s timeout: timing again)
        env = {**base, "HOME": home, "XDG_DATA_HOME": f"{home}/.local/share", "XDG_CONFIG_HOME": f"{home}/.config",
               "XDG_CACHE_HOME": cache}
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"timed out after {timeout:g} s"
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    return f"the measuring process exited {p.returncode}: {(p.stderr or p.stdout).strip()[-600:]}"


def compare(runs: list[list[list] | str]) -> dict:
    """Digests of the runs, whether they agree, and the first step where one parts from the first run."""
    bad = [r for r in runs if isinstance(r, str)]
    if bad:
        return {"error": bad[0]}
    digests = [hashlib.md5(json.dumps(r).encode()).hexdigest()[:12] for r in runs]
    first = None
    for r in runs[1:]:
        for i, (x, y) in enumerate(zip(runs[0], r, strict=False)):
            if x != y:
                part = {"step": i + 1, "first_run": x, "other_run": y,
                        "what": [n for n, a, b in zip(("action", "frame", "features", "done"), x, y, strict=True)
                                 if a != b]}
                if first is None or part["step"] < first["step"]:
                    first = part
                break
    return {"digests": digests, "same": len(set(digests)) == 1, "parts_at": first, "steps": len(runs[0])}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--inner":
        _inner(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="", help="comma-separated corpus names (default: all of bench/real_games.toml)")
    ap.add_argument("--bundled", action="store_true", help="the bundled games instead of the corpus")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", type=int, default=2, help="runs per game (at least 2)")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--load", type=int, default=0, help="busy processes kept running meanwhile (timing bugs show)")
    ap.add_argument("--name", default="determinism", help="results file name under bench/results")
    args = ap.parse_args()
    if args.runs < 2:
        sys.exit("--runs must be 2 or more: a run is compared with another")
    made = provenance()
    games: list[tuple[str, str, str | None, dict[str, str] | None, str | None]] = []
    if args.bundled:
        from playtester.drive.spec import bundled_games

        games = [(name, name, None, None, None) for name in bundled_games()]
    else:
        for g in rg.select(args.games):
            rg.install(g)
            games.append((g["name"], g["spec"], str(rg.game_dir(g) / "playtester.toml"), rg.game_env(g),
                          str(rg.game_dir(g) / "run")))
    rows = []
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        for name, spec_text, config, env, cwd in games:
            rows.append(measure(name, spec_text, config, env, cwd, args))
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    same = sum(1 for r in rows if r.get("same"))
    print(f"{same} of {len(rows)} games play the same {args.runs} times ({args.steps} steps, seed {args.seed}, "
          f"{args.load} busy processes)")
    record = {"steps": args.steps, "seed": args.seed, "runs": args.runs, "load": args.load, "bundled": args.bundled,
              "rows": rows, "same": same, "games": len(rows)}
    print(f"written to {write_results(args.name, record, made)}")


def measure(name: str, spec_text: str, config: str | None, env: dict[str, str] | None, cwd: str | None,
            args: argparse.Namespace) -> dict:
    runs = [one_run(spec_text, config, args.steps, args.seed, env, cwd, args.timeout) for _ in range(args.runs)]
    row = {"game": name, **compare(runs)}
    verdict = row.get("error") or ("same" if row["same"] else f"DIFFERS from step {row['parts_at']['step']} "
                                                                    f"({', '.join(row['parts_at']['what'])})")
    print(f"{name}: {verdict}", flush=True)
    return row


if __name__ == "__main__":
    main()
