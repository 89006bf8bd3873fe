"""Godot project corpus benchmark (issue 56): what playtester says about Godot 3 projects from public GitHub
repositories that nobody here wrote, run the way its README tells a new user to.

The corpus is bench/godot_games.toml. The projects' files are not kept in this repository: each is taken, at its
pinned commit, from a bare git copy of its repository (``--mirrors DIR``, default /work/.mirror, where a copy of
``owner/name`` is ``DIR/owner+name/repo``; else a ``git clone`` from GitHub into .cache/godot_games/repos) and
written to .cache/godot_games/projects/NAME (files the copy lacks, e.g. blobs of 4 MiB and more in a shallow
snapshot, are left out and recorded). Per project this script

1. runs ``playtester analyze godot:FOLDER`` (the analysed action space) and ``playtester run godot:FOLDER --steps
   N --seed S`` (the README's commands; random agent, declared actions), each under a timeout, from a scratch
   copy of the project with a scratch HOME, with ``--out`` for the run so that its store can be read;
2. records: whether it loads (exit code 2 with the engine's message is a load failure; the message is kept),
   whether it reaches gameplay, the declared and analysed actions against the input actions its scripts read
   (``actions_read`` in the corpus: read by hand from its scripts), distinct states, and every bug the run
   stored, triaged by bench/godot_games_triage.toml (game bug / engine-version / ours).

**Reaches gameplay** is decided from the run's trace alone, without knowing the game: within the first
``--gameplay-steps`` steps (300) some entity the add-on reports (a node in the group ``playtester``, else the
physics bodies: ``KinematicBody2D``, ``RigidBody2D``, ``Area2D`` and their 3D kinds) whose name is not a camera
moved by more than ``--move-px`` (4) pixels from where it was first seen, and the project stayed loaded. A
title screen that never lets the random agent past it, or a menu driven only by mouse clicks, is "no gameplay".
An enemy that moves on its own counts too (the measure cannot tell who moves a body): the results keep which
entity moved, so a reader can check.

It writes bench/results/godot_games_SPLIT.json (bench/provenance.py's command, commit, machine and date) and
prints a table.

Usage: python bench/godot_games.py [--split dev|heldout|all] [--games a,b] [--steps 300] [--seed 0]
                                   [--timeout 300] [--name NAME] [--mirrors DIR]
       python bench/godot_games.py --extract-only         # write the projects' folders, run nothing
       python bench/godot_games.py --retriage bench/results/godot_games_dev.json  # triage table applied again
       python bench/godot_games.py --table bench/results/godot_games_dev.json     # the docs' Markdown table
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import ROOT, provenance, select_games, write_results  # noqa: E402

CORPUS = ROOT / "bench" / "godot_games.toml"
TRIAGE = ROOT / "bench" / "godot_games_triage.toml"
CACHE = ROOT / ".cache" / "godot_games"
SPLITS = ("dev", "heldout")
VERDICTS = ("game", "engine-version", "ours")
FIELDS = ("name", "repo", "commit", "licence", "genre", "path", "main_scene", "import_committed", "actions_read",
          "actions_source", "split")


# ------------------------------------------------------------------------------------------------ corpus, triage
def load_corpus(path: Path = CORPUS) -> list[dict]:
    games = tomllib.loads(path.read_text())["game"]
    for g in games:
        missing = [f for f in FIELDS if f not in g]
        if missing:
            raise ValueError(f"{path}: {g.get('name')}: missing {missing}")
        if not re.fullmatch(r"[0-9a-f]{40}", g["commit"]) or g["split"] not in SPLITS:
            raise ValueError(f"{path}: {g['name']}: commit must be 40 hex digits and split one of {SPLITS}")
    names = [g["name"] for g in games]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: duplicate names")
    return games


def select(split: str, games: str) -> list[dict]:
    return select_games(load_corpus(), str(CORPUS.relative_to(ROOT)), split, games)


def load_triage(path: Path = TRIAGE) -> list[dict]:
    """Entries: ``game``, ``match`` (a substring of the bug's kind, message or location), ``verdict`` (game /
    engine-version / ours) and ``reason``."""
    if not path.is_file():
        return []
    entries = tomllib.loads(path.read_text()).get("triage", [])
    for i, e in enumerate(entries):
        if e.get("verdict") not in VERDICTS or not e.get("game") or not e.get("match") or not e.get("reason"):
            raise ValueError(f"{path}: entry {i} needs game, match, verdict ({'/'.join(VERDICTS)}) and reason: {e}")
    return entries


def triage_of(game: str, bug: dict, entries: list[dict]) -> dict:
    text = " ".join(str(bug.get(k) or "") for k in ("kind", "message", "location", "signature"))
    for e in entries:
        if e["game"] == game and e["match"] in text:
            return {"verdict": e["verdict"], "reason": e["reason"]}
    return {"verdict": "untriaged"}


# ------------------------------------------------------------------------------------------------ the projects
def mirror_of(repo: str, mirrors: Path) -> Path | None:
    base = mirrors / repo.replace("/", "+") / "repo"
    for g in (base / ".git", base):
        if (g / "objects").is_dir():
            return g
    return None


def git_dir(repo: str, commit: str, mirrors: Path) -> Path:
    """A git directory holding ``commit`` of ``repo``: the mirror's, else a clone from GitHub (kept in the cache)."""
    g = mirror_of(repo, mirrors)
    if g is not None:
        return g
    clone = CACHE / "repos" / repo.replace("/", "+")
    if not (clone / "objects").is_dir():
        clone.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "--bare", "--filter=blob:limit=4m", f"https://github.com/{repo}", str(clone)],
                       check=True)
    return clone


def extract(game: dict, mirrors: Path) -> tuple[Path, list[str]]:
    """The project folder of ``game`` at its commit (written once into the cache), and the files left out (their
    blobs are not in the git copy)."""
    dst = CACHE / "projects" / game["name"]
    stamp = dst.parent / f"{game['name']}.commit"
    dropped_file = dst.parent / f"{game['name']}.dropped.json"
    if dst.is_dir() and stamp.is_file() and stamp.read_text() == game["commit"]:
        return dst, json.loads(dropped_file.read_text()) if dropped_file.is_file() else []
    g = git_dir(game["repo"], game["commit"], mirrors)
    sub = game["path"].strip("/")
    listing = subprocess.run(["git", f"--git-dir={g}", "ls-tree", "-r", "-z", game["commit"], "--", sub or "."],
                             capture_output=True, check=True).stdout.decode().split("\0")
    shutil.rmtree(dst, ignore_errors=True)
    dropped: list[str] = []
    blobs = []
    for entry in filter(None, listing):
        meta, path = entry.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind != "blob" or mode == "120000":
            continue
        rel = path[len(sub) + 1:] if sub else path
        blobs.append((sha, rel, mode))
    cat = subprocess.Popen(["git", f"--git-dir={g}", "cat-file", "--batch"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE)
    assert cat.stdin is not None and cat.stdout is not None
    for sha, rel, mode in blobs:
        cat.stdin.write(sha.encode() + b"\n")
        cat.stdin.flush()
        head = cat.stdout.readline().split()
        if len(head) < 3 or head[1] != b"blob":
            dropped.append(rel)
            continue
        data = cat.stdout.read(int(head[2]))
        cat.stdout.read(1)
        out = dst / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        if mode == "100755":
            out.chmod(0o755)
    cat.stdin.close()
    cat.wait()
    stamp.write_text(game["commit"])
    dropped_file.write_text(json.dumps(dropped))
    return dst, dropped


STAND_IN_KINDS = (".wav",)


def stand_ins(work: Path, dropped: list[str]) -> list[str]:
    """Write a silent stand-in for each dropped source audio file of the scratch copy ``work`` (a valid 16-bit mono
    WAV of 0.1 s, made with the standard library), so that the project loads as it would from GitHub; files Godot's
    import derives from them (``.import/*.sample``) are left to the import. Only this bench does this, on its copy.
    Returns the files written."""
    import wave

    written = []
    for rel in dropped:
        if rel.startswith(".import/") or Path(rel).suffix.lower() not in STAND_IN_KINDS:
            continue
        out = work / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        with wave.open(str(out), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(22050)
            w.writeframes(b"\0\0" * 2205)
        written.append(rel)
    return written


# ------------------------------------------------------------------------------------------------ one project
def _env(home: Path) -> dict[str, str]:
    from repo_games import playtester_src

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([playtester_src(), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local/share"), XDG_CONFIG_HOME=str(home / ".config"),
               PYTHONDONTWRITEBYTECODE="1", COLUMNS="200", TERM="dumb", NO_COLOR="1")
    return env  # (XDG_CACHE_HOME stays the user's: Godot's import is cached there, by the project's content)


def _cli(args: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int | str, str, float]:
    from repo_games import playtester_command

    t0 = time.perf_counter()
    try:
        p = subprocess.run([*playtester_command(), *args], cwd=cwd, env=env, capture_output=True, text=True,
                           timeout=timeout)
        return p.returncode, p.stdout + p.stderr, time.perf_counter() - t0
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "timeout", out, time.perf_counter() - t0


CAMERA = re.compile(r"camera", re.I)


def gameplay(folder: Path, steps: int, seed: int, move_px: float) -> dict:
    """Whether a player-like entity moves within ``steps`` random steps of the declared space (a worker of this
    process: what ``playtester run`` plays), and which entity moved how far."""
    import random

    from playtester.drive.spec import resolve
    from playtester.drive.worker import Worker
    from playtester.env import default_space

    spec = resolve(f"godot:{folder}")
    space = default_space(spec)
    rng = random.Random(seed)
    w = Worker(spec, space=space)
    first: dict[str, tuple[float, float]] = {}
    moved: dict[str, float] = {}
    done_at = None
    ended = None
    try:
        obs = w.reset(seed)
        for i in range(steps + 1):
            for name, e in (obs.entities or {}).items():
                if CAMERA.search(name) or e.pos is None:
                    continue
                x, y = float(e.pos[0]), float(e.pos[1])
                x0, y0 = first.setdefault(name, (x, y))
                d = ((x - x0) ** 2 + (y - y0) ** 2) ** 0.5
                moved[name] = max(moved.get(name, 0.0), d)
                if d > move_px and done_at is None:
                    done_at = i
            exit = (obs.info or {}).get("exit")
            if exit is not None and getattr(exit, "is_failure", False):
                ended = getattr(exit, "message", str(exit))
                break
            if i == steps:
                break
            if obs.done:
                obs = w.reset(seed + i + 1)
            else:
                obs = w.act(rng.randrange(len(space.actions)))
    except Exception as e:  # noqa: BLE001 - recorded: the project did not play
        return {"reached": False, "error": f"{type(e).__name__}: {e}"[:500]}
    finally:
        w.close()
    top = sorted(moved.items(), key=lambda kv: -kv[1])[:5]
    return {"reached": done_at is not None and ended is None, "first_move_step": done_at, "ended": ended,
            "entities_seen": len(first), "most_moved": [[n, round(d, 1)] for n, d in top]}


def analysed(output: str, path: Path) -> dict:
    if not path.is_file():
        return {"error": output.strip()[-1500:]}
    data = json.loads(path.read_text())
    acts = data.get("analysis", {}).get("actions", [])
    inputs = sorted({a for act in acts for held in act.get("held", []) for a in held})
    return {"n_actions": len(data.get("actions", [])), "names": [a["name"] for a in data.get("actions", [])][:40],
            "inputs": inputs}


def run_game(game: dict, mirrors: Path, steps: int, seed: int, budget: int, timeout: float, move_px: float) -> dict:
    from repo_games import read_store

    from playtester.drive.godot import import_targets, input_actions

    folder, dropped = extract(game, mirrors)
    rec: dict = {"game": game["name"], "repo": game["repo"], "commit": game["commit"], "path": game["path"],
                 "split": game["split"], "dropped": dropped, "actions_read": game["actions_read"]}
    out = CACHE / "runs" / game["name"]
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix=f"godot_game_{game['name']}_") as tmp:
        work = Path(tmp) / game["name"]
        shutil.copytree(folder, work)
        rec["stand_ins"] = stand_ins(work, dropped)  # silent WAVs for the music the git copy lacks
        home = Path(tmp) / "home"
        home.mkdir()
        env = _env(home)
        spec = f"godot:{work}"
        try:
            rec["declared"] = input_actions(work)
        except OSError as e:
            rec["declared"] = []
            rec["declared_error"] = str(e)
        # 1. the README's commands
        rc, text, wall = _cli(["run", spec, "--steps", str(steps), "--seed", str(seed)], work, env, timeout)
        rec["run"] = {"command": f"playtester run godot:FOLDER --steps {steps} --seed {seed}", "exit_code": rc,
                      "wall_s": round(wall, 1), "output_tail": text[-2500:]}
        rec["loads"] = rc == 0
        m = re.search(r"did not get to its first step: (.*?)(?:; its error lines|\n|$)", text) or \
            re.search(r"error: game spec '[^']*': (.*?)(?:; its error lines|\n|$)", text)
        rec["load_failure"] = None if rc == 0 else (m.group(1) if m else text.strip().splitlines()[-1:])
        e = text.find("error: game spec")
        rec["load_message"] = None if rc == 0 or e < 0 else text[e:].strip()[:1500]  # the whole message, Godot's lines
        rec["needs_import"] = len(import_targets(work))  # asset files Godot's import writes that the project lacks
        rec["import_message"] = next((ln for ln in text.splitlines() if "the assets of" in ln), None)
        rc, text, wall = _cli(["analyze", spec, "--json", str(out / "analyzed.json")], work, env, timeout)
        rec["analyze"] = {"exit_code": rc, "wall_s": round(wall, 1), **analysed(text, out / "analyzed.json")}
        rc, text, wall = _cli(["explore", spec, "--agent", "random", "--budget", str(budget), "--out", str(out / "explore"),
                               "--workers", "1", "--seed", str(seed)], work, env, timeout)
        rec["explore"] = {"command": f"playtester explore godot:FOLDER --agent random --budget {budget} --out DIR "
                          f"--workers 1 --seed {seed}", "exit_code": rc, "wall_s": round(wall, 1),
                          **read_store(out / "explore")}
        if rc not in (0, 1):
            rec["explore"]["output_tail"] = text[-2000:]
        # 2. gameplay: a player-like entity moves within `steps` random steps
        rec["gameplay"] = gameplay(work, steps, seed, move_px) if rec["loads"] else {"reached": False,
                                                                                   "error": "does not load"}
    read = set(game["actions_read"])
    rec["declared_covers"] = sorted(read & set(rec["declared"]))
    rec["analysed_covers"] = sorted(read & set(rec["analyze"].get("inputs", [])))
    return rec


def summarize_triage(record: dict) -> None:
    by: dict[str, int] = {}
    for r in record["runs"]:
        for b in r["explore"].get("bugs", []):
            by[b["triage"]["verdict"]] = by.get(b["triage"]["verdict"], 0) + 1
    record["summary"]["findings_by_triage"] = by


def retriage(path: Path) -> None:
    """The results file ``path`` with each finding triaged by the triage table as it is now (the run is not
    repeated: the table is written after reading the run's findings); when and how is recorded in ``triaged``."""
    record = json.loads(path.read_text())
    table = load_triage()
    for r in record["runs"]:
        for b in r["explore"].get("bugs", []):
            b["triage"] = triage_of(r["game"], b, table)
    summarize_triage(record)
    record["triaged"] = {"command": "python bench/godot_games.py --retriage " + str(path.relative_to(ROOT)
                                                                                   if path.is_absolute() else path),
                         "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "table": str(TRIAGE.relative_to(ROOT))}
    path.write_text(json.dumps(record, indent=1))
    print(json.dumps(record["summary"], indent=1))


def markdown_table(record: dict) -> str:
    """One row per project of a results file (docs/benchmarks/godot-games.md)."""
    rows = ["| project | genre | loads | reaches gameplay (entity, step) | input actions its scripts read | "
            "declared covers | analysed actions | analysed covers | states | findings (triage) |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    corpus = {g["name"]: g for g in load_corpus()}
    for r in record["runs"]:
        g = corpus.get(r["game"], {})
        gp = r["gameplay"]
        reach = "no" if not gp.get("reached") else \
            f"yes ({gp['most_moved'][0][0]}, step {gp['first_move_step']})" if gp.get("most_moved") else "yes"
        if not r["loads"]:
            reach = "no (does not load)"
        bugs = r["explore"].get("bugs", [])
        found = ", ".join(f"{b['kind']}: {b['triage']['verdict']}" for b in bugs) or "0"
        n_read = len(r["actions_read"])
        loads = ("yes" if r["loads"] else "no") + (f" ({len(r['stand_ins'])} silent stand-in{'s' * (len(r['stand_ins']) > 1)})" if r.get("stand_ins")
                                                     else "")
        rows.append(f"| {r['game']} | {g.get('genre', '')} | {loads} | {reach} | {n_read} | "
                    f"{len(r['declared_covers'])}/{n_read} | {r['analyze'].get('n_actions', 'error (' + str(r['analyze'].get('exit_code')) + ')')} | "
                    f"{len(r['analysed_covers'])}/{n_read} | {r['explore'].get('states', '-')} | {found} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="dev", choices=(*SPLITS, "all"))
    ap.add_argument("--games", default="")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--budget", type=int, default=1000, help="steps of the explore run")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--move-px", type=float, default=4.0)
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--name", default="")
    ap.add_argument("--extract-only", action="store_true")
    ap.add_argument("--retriage", type=Path, help="apply bench/godot_games_triage.toml again to the findings of a "
                    "results file (the hand-written triage, read after the run), then rewrite it; runs nothing")
    ap.add_argument("--table", type=Path, help="print the per-project Markdown table of a results file")
    args = ap.parse_args()
    if args.retriage:
        retriage(args.retriage)
        return
    if args.table:
        print(markdown_table(json.loads(args.table.read_text())))
        return
    games = select(args.split, args.games)
    if args.extract_only:
        for g in games:
            print(g["name"], *extract(g, args.mirrors))
        return
    made = provenance()
    table = load_triage()
    runs = []
    for g in games:
        print(f"== {g['name']}", flush=True)
        r = run_game(g, args.mirrors, args.steps, args.seed, args.budget, args.timeout, args.move_px)
        for b in r["explore"].get("bugs", []):
            b["triage"] = triage_of(g["name"], b, table)
        print(f"   loads={r['loads']} gameplay={r['gameplay'].get('reached')} declared={len(r['declared_covers'])}/"
              f"{len(g['actions_read'])} analysed={len(r['analysed_covers'])}/{len(g['actions_read'])} "
              f"bugs={len(r['explore'].get('bugs', []))}", flush=True)
        runs.append(r)
    n = len(runs)
    summary = {"projects": n, "load": sum(r["loads"] for r in runs),
               "reach_gameplay": sum(bool(r["gameplay"].get("reached")) for r in runs),
               "needing_import": sum(bool(r["needs_import"]) for r in runs),
               "all_read_actions_declared": sum(set(r["declared_covers"]) == set(r["actions_read"]) for r in runs),
               "all_read_actions_analysed": sum(set(r["analysed_covers"]) == set(r["actions_read"]) for r in runs),
               "findings": sum(len(r["explore"].get("bugs", [])) for r in runs),
               "findings_by_triage": {}}
    record = {"split": args.split, "steps": args.steps, "budget": args.budget, "seed": args.seed,
              "gameplay_rule": f"an entity (not a camera) moved more than {args.move_px} px from where it was first "
                               f"seen within {args.steps} random steps of the declared space, the project loaded",
              "summary": summary, "runs": runs}
    summarize_triage(record)
    path = write_results(args.name or f"godot_games_{args.split}", record, made)
    print(json.dumps(summary, indent=1))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
