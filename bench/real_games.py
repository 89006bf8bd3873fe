"""Real-game corpus benchmark: pygame games nobody here wrote, from PyPI (issue 16) or from GitHub repositories
(``--corpus repo``, issue 55).

The PyPI corpus (the default, ``--corpus pypi``) is bench/real_games.toml: per game a pinned pip requirement (and
pinned extra requirements), the playtester spec that starts it, and the controls its own README or code says it
uses. The repository corpus (``--corpus repo``) is bench/repo_games.toml, the games bench/repo_games.py runs as
their READMEs say: per game its folder (its repository's files at the pinned commit, not committed: written into
.cache/repo_games_files by bench/repo_games.py's ``materialize`` from a git mirror, ``--mirrors DIR``, or GitHub),
the spec a user would write from that folder, its controls and blacklist in the same format, and its ``split``
(``--split dev`` by default: the held-out splits are run only to judge a frozen method). This script

1. installs each PyPI game into its own cached folder, ``.cache/real_games/NAME/site``, with
   ``pip install --no-deps --target`` (pygame is playtester's pygame-ce: a game's ``pygame`` requirement is
   never installed, so it cannot shadow pygame-ce). The folder reaches the game through ``PYTHONPATH``,
   which playtester's worker processes inherit; it is reused while the game's pins are unchanged. A repository
   game is not installed: every measuring process runs in a fresh scratch copy of its folder (bench/repo_games.py's
   `scratch_copy`, at the same path for all of one game's measurements), the spec resolved there, and its cached
   folder ``.cache/real_games_repo/NAME`` holds only its config and its exported space;
2. per game, measures
   - ``playtester run SPEC --steps N`` (exit code, steps/s, episodes, crashes found, warnings);
   - the analysis (``playtester.analysis.analyze``): succeeded / partial / failed with the reason, or "game
     crashed" (the game's own uncaught exception as it starts, before any input of the analysis: counted apart,
     the analysis target is over the games that start), analysis seconds, the main loop it found, and which of
     the documented controls its actions involve; the space it gives, as the coverage runs load it:
     ``actions`` (every action of the space an agent picks from), ``analysed_actions`` (those from the analysis:
     one per distinct input), ``fallback_actions`` (the blind fallback's, named with
     ``playtester.analysis.space.FALLBACK_PREFIX``, carried when an input loop was left unanalysed or a loop's
     analysis was partial), ``path_actions`` (the solved paths the analysed actions stand for, each once), ``unanalysed`` (the input loops left without analysed actions) and ``actions_per_control``
     (``actions`` over the documented controls). Rows measured before these fields existed count ``actions`` as
     the analysed actions alone;
   - the random agent, same seeds and steps, with the analyzed and the blind space: distinct states (the
     ``pixels`` abstraction, Go-Explore's cells) and statement coverage of the game's code;
3. prints a markdown table and a summary against the targets, issue 16's and issue 55's (its "Done when":
   analysis succeeds on every game that starts, documented controls found, analyzed >= blind on code coverage on
   >= 90% of games and more distinct states on >= 80%, median actions per documented control <= 3), over all
   the games measured and per split, and writes bench/results/real_games.json (the repository corpus:
   bench/results/real_games_repo_SPLIT.json), with bench/provenance.py's command, commit, machine and date.

Every measurement of a game runs in a child process (``--inner``) under a timeout: a PyPI game with its folder
on its path and a scratch folder (``.cache/real_games/NAME/run``, also its HOME) as its working directory, a
repository game in its scratch copy with a scratch HOME beside it. The blacklist of a game (either corpus) is
written into its ``playtester.toml`` and applies to every space. The playtester measured is the one this Python
imports (``playtester_src`` in the results): put another checkout's ``src`` first on PYTHONPATH to measure that one.

Usage: python bench/real_games.py [--games a,b] [--steps 1000] [--seeds 0] [--jobs 1] [--out FILE]
       python bench/real_games.py --corpus repo [--split dev|heldout|heldout2|all] [--games a,b] [--steps 1000]
                                  [--seeds 0,1,2] [--jobs 1] [--out FILE]
       python bench/real_games.py --rescore [FILE]   # inputs found, table and summary again from the exported spaces
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import ROOT, provenance, select_games  # noqa: E402

CORPUS = ROOT / "bench" / "real_games.toml"
CACHE = ROOT / ".cache" / "real_games"
RESULTS = ROOT / "bench" / "results" / "real_games.json"
REPO_CORPUS = ROOT / "bench" / "repo_games.toml"  # files materialized at bench time (bench/repo_games.py)
REPO_CACHE = ROOT / ".cache" / "real_games_repo"
CORPORA = {"pypi": CORPUS, "repo": REPO_CORPUS}
NETWORK_ERRORS = ("NewConnectionError", "Failed to establish a new connection", "Temporary failure in name resolution",
                  "Name or service not known", "Network is unreachable", "Connection refused", "ConnectTimeoutError",
                  "Read timed out", "Could not fetch URL", "ProxyError", "SSLError")


class InstallError(RuntimeError):
    """A game could not be installed; ``unreachable`` when pip could not reach the package registry."""

    def __init__(self, message: str, unreachable: bool = False) -> None:
        super().__init__(message)
        self.unreachable = unreachable


# ------------------------------------------------------------------------------------------------ corpus
def load_corpus(path: Path = CORPUS) -> list[dict]:
    games = tomllib.loads(path.read_text())["game"]
    names = [g["name"] for g in games]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: duplicate game names")
    return games


def load_games(corpus: str = "pypi") -> list[dict]:
    """The games of ``corpus`` (pypi / repo), each with its ``corpus`` and ``split`` (a repository game's own;
    ``pypi`` for every PyPI game)."""
    return [{**g, "corpus": corpus, "split": g.get("split", "pypi")} for g in load_corpus(CORPORA[corpus])]


def select(games: str, corpus: str = "pypi", split: str = "all") -> list[dict]:
    """The games of ``corpus`` in ``split`` (``all``: every split), only those named in ``games`` when given
    (comma-separated); exits naming any game the corpus does not hold, or that lies in another split (so that
    no held-out game is run by naming it with the default ``--split dev``)."""
    return select_games(load_games(corpus), str(CORPORA[corpus].relative_to(ROOT)), split, games)


def pins(game: dict) -> dict:
    """What an install of ``game`` depends on: a change of any of these reinstalls it."""
    return {"pip": game["pip"], "deps": list(game.get("deps", [])), "python": sys.version.split()[0]}


def is_repo(game: dict) -> bool:
    return game.get("corpus") == "repo"


def game_dir(game: dict) -> Path:
    """The game's cached folder: its install (PyPI), config, exported space and measuring scratch."""
    return (REPO_CACHE if is_repo(game) else CACHE) / game["name"]


def pythonpath(game: dict) -> list[str]:
    return [] if is_repo(game) else [str(game_dir(game) / "site")]


def version(game: dict) -> str:
    """A PyPI game's version, a repository game's commit (short)."""
    return game["version"] if "version" in game else game["commit"][:7]


def prepare(game: dict) -> Path:
    """A PyPI game installed (`install`); a repository game's cached folder made, with its config (nothing to
    install: each measurement copies its materialized folder afresh)."""
    if not is_repo(game):
        return install(game)
    d = game_dir(game)
    d.mkdir(parents=True, exist_ok=True)
    (d / "playtester.toml").write_text(_config_toml(game))
    return d


def registry_reachable(project: str) -> bool:
    """Whether pip's index answers for ``project`` (any HTTP answer counts: the registry is there). pip says
    "no matching distribution" alike when the registry cannot be reached and when a release does not exist."""
    import urllib.error
    import urllib.request

    index = os.environ.get("PIP_INDEX_URL", "")
    if not index:
        p = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True)
        for line in p.stdout.splitlines():
            key, _, value = line.partition("=")
            if key.strip().endswith("index-url") and not key.strip().endswith("extra-index-url"):
                index = value.strip().strip("'\"")
    index = index or "https://pypi.org/simple"
    try:
        urllib.request.urlopen(f"{index.rstrip('/')}/{project}/", timeout=20).close()
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, OSError, ValueError):
        return False
    return True


def install(game: dict, quiet: bool = True) -> Path:
    """Install ``game`` (its pinned requirement and its pinned extra requirements, with --no-deps, in one pip
    call so that packages sharing a namespace merge) into ``.cache/real_games/NAME/site``; reuse the folder
    when its pins have not changed. Raises `InstallError`."""
    d = game_dir(game)
    stamp = d / "pins.json"
    want = pins(game)
    if stamp.is_file() and json.loads(stamp.read_text()) == want:
        (d / "playtester.toml").write_text(_config_toml(game))  # init etc. may have changed in the corpus
        return d
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    reqs = [game["pip"], *game.get("deps", [])]
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "--disable-pip-version-check",
           "--target", str(d / "site"), *(["--quiet"] if quiet else []), *reqs]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        out = p.stdout + p.stderr
        shutil.rmtree(d, ignore_errors=True)
        project = game["pip"].split("==")[0]
        unreachable = any(m in out for m in NETWORK_ERRORS) or not registry_reachable(project)
        raise InstallError(f"pip could not install {' '.join(reqs)} for {game['name']}"
                           f"{' (the package registry cannot be reached)' if unreachable else ''}: "
                           f"{out.strip()[-800:]}", unreachable=unreachable)
    (d / "playtester.toml").write_text(_config_toml(game))  # what the corpus says about starting the game
    stamp.write_text(json.dumps(want))
    return d


def _config_toml(game: dict) -> str:
    from playtester.configfile import toml_value

    lines = [f"# written by bench/real_games.py from {CORPORA[game.get('corpus', 'pypi')].relative_to(ROOT)}"]
    for key in ("frames_per_action", "init"):
        if key in game:
            lines.append(f"{key} = {toml_value(game[key])}")
    if game.get("blacklist"):  # the game's own pause / menu / restart keys, on top of playtester's default list
        from playtester.drive.spec import DEFAULT_BLACKLIST

        lines.append(f"blacklist = {toml_value(list(DEFAULT_BLACKLIST) + game['blacklist'])}")
    if game.get("game_args"):
        lines.append("[game_args]")
        lines += [f"{k} = {toml_value(v)}" for k, v in game["game_args"].items()]
    return "\n".join(lines) + "\n"


def game_env(game: dict) -> dict[str, str]:
    """The environment a PyPI game's processes run in: its folders on PYTHONPATH, a scratch HOME."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(pythonpath(game) + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    home = game_dir(game) / "run"
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local/share"), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_CACHE_HOME=str(home / ".cache"), PYTHONDONTWRITEBYTECODE="1")
    return env


_SCRATCH: dict[str, Path] = {}  # repository game -> the temporary folder its scratch copies go in, this run


def _scratch_root(game: dict) -> Path:
    """One temporary folder per repository game for this benchmark run (outside the repository, as
    bench/repo_games.py's, so that playtester's project-root search stops where it does there), removed at exit:
    all of a game's measurements see its copy at the same path (the analysis' exported space names its files)."""
    if game["name"] not in _SCRATCH:
        _SCRATCH[game["name"]] = Path(tempfile.mkdtemp(prefix=f"real_games_{game['name']}_"))
        atexit.register(shutil.rmtree, _SCRATCH[game["name"]], True)
    return _SCRATCH[game["name"]]


@contextmanager
def workdir(game: dict) -> Iterator[tuple[Path, dict[str, str]]]:
    """The working directory and environment of one measuring process: a PyPI game's scratch folder
    (``.cache/real_games/NAME/run``, also its HOME); a fresh scratch copy of a repository game's folder with a
    fresh HOME beside it (bench/repo_games.py's `scratch_copy` and `scratch_env`)."""
    if not is_repo(game):
        yield game_dir(game) / "run", game_env(game)
        return
    import repo_games  # here, not at the top: repo_games imports this module

    work, home = repo_games.scratch_copy(game, _scratch_root(game))
    yield work, repo_games.scratch_env(home)


# ------------------------------------------------------------------------------------------------ the inner side
def _key_names() -> dict[int, str]:
    import pygame

    return {getattr(pygame, n): n[2:] for n in dir(pygame) if n.startswith("K_")}


def inputs_found(space_file: str | Path) -> list[str]:
    """The inputs an exported analyzed space involves, named as the corpus names controls: keys as pygame names
    without K_ (UP, a, 1), mouse_left / mouse_middle / mouse_right, mouse_move (a position condition).

    Read from each action's input condition (p_i: ``key_N`` polled keys, ``ev_key == N`` key events,
    ``ev_type`` mouse-button events with their ``ev_button``, ``mb_N`` polled buttons, ``mx``/``my``) and
    from the inputs its sample frame presses. A mouse-button event whose button the game never tests counts as
    a left click (any button satisfies it)."""
    import re

    import pygame

    keys = _key_names()
    buttons = {1: "mouse_left", 2: "mouse_middle", 3: "mouse_right"}
    found: set[str] = set()
    data = json.loads(Path(space_file).read_text())
    for act in data["analysis"]["actions"]:
        text = act.get("p_i_text", "")
        found |= {keys.get(int(n), n) for n in re.findall(r"\bkey_(\d+)\b", text)}
        found |= {keys.get(int(n), n) for n in re.findall(r"\bev_key == (\d+)", text)}
        found |= {buttons.get(int(n), f"mouse_{n}") for n in re.findall(r"\bmb_(\d+)\b", text)}
        if re.search(rf"\bev_type == ({pygame.MOUSEBUTTONDOWN}|{pygame.MOUSEBUTTONUP})\b", text):
            named = re.findall(r"\bev_button == (\d+)", text)
            found |= {buttons.get(int(n), f"mouse_{n}") for n in named} or {"mouse_left"}
        if re.search(r"\b(mx|my)\b", text):
            found.add("mouse_move")
        frame = act.get("sample_inputs") or {}
        found |= {keys.get(k, str(k)) for k in frame.get("keys", [])}
        found |= {buttons.get(b, f"mouse_{b}") for b in frame.get("mouse_buttons", [])}
    return sorted(found)


def distinct_inputs(space_file: str | Path) -> int:
    """How many distinct inputs an exported analyzed space's actions perform (one sample each: its inputs, its
    event and its loop); several paths of the input code can share one input."""
    acts = json.loads(Path(space_file).read_text())["analysis"]["actions"]
    return len({(json.dumps(a.get("sample_inputs"), sort_keys=True), a.get("event"), a.get("loop_index"))
                for a in acts})


def space_counts(space_file: str | Path) -> dict:
    """The space an exported analysis gives, loaded as the coverage runs load it (``analyzed:FILE``): ``actions``
    (all of them), ``fallback_actions`` (the blind fallback's, `FALLBACK_PREFIX`), ``analysed_actions`` (the
    rest), ``path_actions`` (the solved paths the analysed actions stand for, counted in the actions: each
    once, however many analyses of its loop found it) and ``unanalysed`` (the input loops left without
    analysed actions; None where the result predates the field)."""
    from playtester.analysis.export import load_analyzed
    from playtester.analysis.space import FALLBACK_PREFIX

    space = load_analyzed(space_file)
    fallback = sum(1 for a in space.actions if a.name.startswith(FALLBACK_PREFIX))
    result = space.analysis
    from playtester.analysis.space import paths_of

    return {"actions": len(space.actions), "analysed_actions": len(space.actions) - fallback,
            "fallback_actions": fallback, "path_actions": sum(len(paths_of(a)) for a in result["actions"]),
            "unanalysed": result.get("unanalysed")}


def inner_analyze(game: dict, seed: int, space_file: str) -> dict:
    from playtester.analysis import AnalysisError, GameCrashedError, analyze
    from playtester.analysis.export import export
    from playtester.drive.spec import resolve

    spec = resolve(game["spec"], config=str(game_dir(game) / "playtester.toml"))
    t0 = time.perf_counter()
    try:
        a = analyze(spec, seed=seed)
    except GameCrashedError as e:  # the game cannot start: a finding about the game, not an analysis failure
        return {"status": "game crashed", "reason": str(e), "wall_s": time.perf_counter() - t0}
    except AnalysisError as e:
        return {"status": "failed", "reason": str(e), "wall_s": time.perf_counter() - t0}
    wall = time.perf_counter() - t0
    r = a.result
    export(r, spec.text, space_file)
    loop = r.get("loop") or {}
    return {"status": "partial" if r.get("partial") else "succeeded", "reason": r.get("partial") or "",
            **space_counts(space_file), "analysis_s": a.seconds, "analysis_cpu_s": a.cpu_seconds,
            "record_run_s": a.run_seconds, "wall_s": wall,
            "loop": f"{Path(loop['file']).name}:{loop['line']} in {loop['function']}" if loop else None,
            "paths": r["stats"]["paths"], "truncated": r["stats"]["truncated"], "warnings": a.warnings,
            "inputs": inputs_found(space_file), "distinct_inputs": distinct_inputs(space_file)}


def inner_coverage(game: dict, actions: str, seed: int, steps: int) -> dict:
    from playtester.campaign import Budget, explore
    from playtester.drive.spec import resolve
    from playtester.env import resolve_space

    spec = resolve(game["spec"], config=str(game_dir(game) / "playtester.toml")).with_config(abstraction="pixels")
    space = resolve_space(spec, actions)  # analyzed:FILE: the space the analysis exported, not analysed again
    with tempfile.TemporaryDirectory() as out:
        r = explore(spec, out=out, agent="random", budget=Budget(steps=steps), workers=1, seed=seed, actions=space,
                    code_coverage=True, replay_known=False, finalize=False)
        row = {"states": r.states, "lines": r.code_covered, "lines_total": r.code_total, "episodes": r.episodes,
               "bugs": len(r.new_bugs), "seconds": r.seconds, "actions": len(space),
               "bug_list": [{"kind": b.kind, "message": b.message[:300], "location": b.location, "count": b.count}
                            for b in r.bugs]}
        r.store.close()
    return row


def _inner(argv: list[str]) -> None:
    what, corpus, name = argv[0], argv[1], argv[2]
    game = next(g for g in load_games(corpus) if g["name"] == name)
    if what == "analyze":
        row = inner_analyze(game, int(argv[3]), argv[4])
    else:
        row = inner_coverage(game, argv[3], int(argv[4]), int(argv[5]))
    print("RESULT " + json.dumps(row))


# Children (measuring processes, `playtester run`) each start a process group of their own; a timeout kills
# the group, and so does this script's end, however it ends (SIGTERM, SIGINT, an error): a stopped benchmark
# leaves no game running.
_GROUPS: set[int] = set()


def _run(cmd: list[str], timeout: float, **kw) -> subprocess.CompletedProcess:
    """``subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)`` in a process group of its
    own, killed whole on timeout (``TimeoutExpired`` as subprocess.run raises it)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         **kw)
    _GROUPS.add(p.pid)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(p.pid)
        p.communicate()
        raise
    finally:
        _kill_group(p.pid)  # what the child left behind (its workers), if anything
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    _GROUPS.discard(pgid)


def _kill_all(*_: object) -> None:
    for pgid in list(_GROUPS):
        _kill_group(pgid)


def _on_signal(signum: int, _frame: object) -> None:
    _kill_all()
    raise SystemExit(128 + signum)


def _call_inner(game: dict, args: list[str], timeout: float) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--inner", args[0], game.get("corpus", "pypi"), *args[1:]]
    try:
        with workdir(game) as (cwd, env):
            p = _run(cmd, timeout, env=env, cwd=cwd)
    except subprocess.TimeoutExpired:
        return {"status": "failed", "reason": f"timed out after {timeout:g} s", "error": "timeout"}
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    return {"status": "failed", "reason": f"the measuring process exited {p.returncode}",
            "error": (p.stderr or p.stdout).strip()[-1500:]}


# ------------------------------------------------------------------------------------------------ measuring
def playtester_cmd() -> list[str]:
    exe = shutil.which("playtester", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-c", "from playtester.cli import main; main()"]


def measure_run(game: dict, steps: int, seed: int, timeout: float) -> dict:
    d = game_dir(game)
    out = d / "run.json"
    out.unlink(missing_ok=True)
    cmd = [*playtester_cmd(), "run", game["spec"], "--steps", str(steps), "--seed", str(seed),
           "--config", str(d / "playtester.toml"), "--json", str(out)]
    t0 = time.perf_counter()
    try:
        with workdir(game) as (cwd, env):
            p = _run(cmd, timeout, env=env, cwd=cwd)
    except subprocess.TimeoutExpired:
        return {"rc": None, "error": f"timed out after {timeout:g} s", "wall_s": time.perf_counter() - t0}
    row: dict = {"rc": p.returncode, "wall_s": time.perf_counter() - t0,
                 "command": f"playtester run {game['spec']} --steps {steps} --seed {seed} --config "
                            f"{(d / 'playtester.toml').relative_to(ROOT)}",
                 "cwd": (f"<scratch copy of {game['repo']}@{game['commit'][:7]}: {game['path']}>" if is_repo(game)
                         else str((d / "run").relative_to(ROOT)))}
    if not out.is_file():
        row["error"] = (p.stderr or p.stdout).strip()[-1500:]
        return row
    s = json.loads(out.read_text())
    eps = s["episodes"]
    crashes = [e for e in eps if e["outcome"] in ("crash", "hang", "memory")]
    row.update(steps=s["steps"], steps_per_s=s["steps_per_s"], actions=s["actions"], n_actions=s["n_actions"],
               episodes=len(eps), outcomes={o: sum(e["outcome"] == o for e in eps) for o in {e["outcome"] for e in eps}},
               crashes=len(crashes),
               crash_messages=sorted({f"{e['outcome']}: {(e['exit'] or {}).get('message', '')}"[:300] for e in crashes}),
               warnings=s["warnings"], peak_rss_mb=s["peak_rss_mb"])
    return row


def measure_analysis(game: dict, seed: int, space_file: Path | None = None) -> dict:
    """The analysis of ``game`` (succeeded / partial / failed) and which documented controls its actions involve;
    the space is exported to ``space_file`` (by default the one the coverage runs load)."""
    space_file = space_file or game_dir(game) / "space.json"
    space_file.unlink(missing_ok=True)
    row: dict = {"game": game["name"], "version": version(game), "spec": game["spec"], "genre": game["genre"],
                 "corpus": game.get("corpus", "pypi"), "split": game.get("split", "pypi")}
    a = _call_inner(game, ["analyze", game["name"], str(seed), str(space_file)], timeout=120)
    row["analysis"] = a
    # blacklisted keys are no action's, by design: not counted as controls the analysis should find
    keys = set(game["controls"].get("keys", [])) - set(game.get("blacklist", []))
    controls = keys | {f"mouse_{b}" for b in game["controls"].get("mouse", [])}
    if game["controls"].get("mouse_move"):
        controls.add("mouse_move")
    row["controls"] = sorted(controls)
    row["controls_found"] = sorted(controls & set(a.get("inputs", [])))
    row["actions_per_control"] = per_control(row)
    return row


def per_control(row: dict) -> float | None:
    """The analysed space's actions per documented control (issue 55: at most 3 in the median game); None
    without an analysed space or documented controls."""
    n = row["analysis"].get("actions")
    return round(n / len(row["controls"]), 2) if n is not None and row["controls"] else None


def rescore(path: Path) -> None:
    """Recompute the inputs found, the table and the summary of a results file from the spaces its run exported
    (``.cache/real_games/NAME/space.json``), e.g. after a change of `inputs_found`; the measurements stay."""
    data = json.loads(path.read_text())
    for row in data["rows"]:
        space_file = game_dir({"name": row["game"], "corpus": row.get("corpus", "pypi")}) / "space.json"
        if row["analysis"].get("status") in ("succeeded", "partial") and space_file.is_file():
            row["analysis"]["inputs"] = inputs_found(space_file)
            row["analysis"]["distinct_inputs"] = distinct_inputs(space_file)
            row["analysis"].update(space_counts(space_file))
            row["controls_found"] = sorted(set(row["controls"]) & set(row["analysis"]["inputs"]))
            row["actions_per_control"] = per_control(row)
    data["summary"], data["table"] = summary(data["rows"]), table(data["rows"])
    data["rescored"] = provenance()["date"]
    path.write_text(json.dumps(data, indent=1))
    print(data["table"])
    print(summary_lines(data["summary"]))


def measure_play(game: dict, row: dict, steps: int, seeds: list[int], timeout: float, status=lambda text: None) -> dict:
    """``playtester run``, then the random agent with the analyzed (when there is one) and the blind space."""
    status("playtester run")
    row["run"] = measure_run(game, steps, seeds[0], timeout)
    space_file = game_dir(game) / "space.json"
    spaces = {"blind": "blind"}
    if row["analysis"].get("status") in ("succeeded", "partial") and space_file.is_file():
        spaces["analyzed"] = f"analyzed:{space_file}"
    for name, actions in spaces.items():
        runs = []
        for seed in seeds:
            status(f"{name} space, seed {seed}")
            runs.append(_call_inner(game, ["coverage", game["name"], actions, str(seed), str(steps)],
                                    timeout=timeout))
        ok = [r for r in runs if "states" in r]
        row[name] = {"runs": runs,
                     "states": statistics.mean(r["states"] for r in ok) if ok else None,
                     "lines": statistics.mean(r["lines"] for r in ok) if ok else None,
                     "lines_total": max((r["lines_total"] for r in ok), default=None),
                     "bugs": sum(r["bugs"] for r in ok) if ok else None,
                     "bug_kinds": sorted({b["kind"] for r in ok for b in r.get("bug_list", [])})}
    return row


# ------------------------------------------------------------------------------------------------ reporting
def _fmt(v, spec=".0f") -> str:
    return "-" if v is None else format(v, spec)


def table(rows: list[dict]) -> str:
    out = ["| game | genre | run: steps/s, episodes, crashes + hangs | analysis | actions (blind fallback; paths) "
           "| actions per control | analysis s: CPU (wall; + recording) "
           "| controls found | states analyzed / blind | code lines analyzed / blind (of) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        run, a = r["run"], r["analysis"]
        ran = (f"{run['steps_per_s']:.0f}, {run['episodes']}, {run['crashes']}" if "steps_per_s" in run
               else f"no ({run.get('error', 'rc ' + str(run.get('rc')))[:40]})")
        status = a.get("status", "failed")
        an, bl = r.get("analyzed") or {}, r.get("blind") or {}
        times = (f"{_fmt(a.get('analysis_cpu_s'), '.2f')} ({a['analysis_s']:.2f}; +{a['record_run_s']:.2f})"
                 if "analysis_s" in a
                 else f"({a.get('wall_s', 0):.1f} to fail)" if "wall_s" in a else "-")
        acts = (f"{a['actions']} ({_fmt(a.get('fallback_actions'), 'd')}; {_fmt(a.get('path_actions'), 'd')})"
                if "actions" in a else "-")
        ratio = _fmt(r.get("actions_per_control", per_control(r) if "controls" in r else None), ".1f")
        out.append(f"| {r['game']} {r['version']} | {r['genre']} | {ran} | {status} | {acts} | {ratio} | {times} "
                   f"| {len(r['controls_found'])} / {len(r['controls'])} "
                   f"| {_fmt(an.get('states'))} / {_fmt(bl.get('states'))} "
                   f"| {_fmt(an.get('lines'))} / {_fmt(bl.get('lines'))} ({_fmt(bl.get('lines_total'))}) |")
    return "\n".join(out)


def summary(rows: list[dict]) -> dict:
    """Over all the rows, against issue 16's targets (``targets``) and issue 55's (``targets_issue55``), and the
    same per split (``by_split``: a repository game's split, ``pypi`` for the PyPI corpus)."""
    s = _summary(rows)
    splits = dict.fromkeys(r.get("split", "pypi") for r in rows)
    s["by_split"] = {sp: _summary([r for r in rows if r.get("split", "pypi") == sp]) for sp in splits}
    return s


def _summary(rows: list[dict]) -> dict:
    n = len(rows)
    ran = [r for r in rows if r["run"].get("rc") in (0, 1) and r["run"].get("steps")]
    ok = [r for r in rows if r["analysis"].get("status") == "succeeded"]
    partial = [r for r in rows if r["analysis"].get("status") == "partial"]
    # games that crash by themselves before their main loop (no input of the analysis): nothing to analyse,
    # so the analysis target counts the other games (the crash is reported as the game's bug)
    crashed = [r for r in rows if r["analysis"].get("status") == "game crashed"]
    analysable = n - len(crashed)
    both = [r for r in rows if (r.get("analyzed") or {}).get("lines") is not None
            and (r.get("blind") or {}).get("lines") is not None]
    lines_ge = [r for r in both if r["analyzed"]["lines"] >= r["blind"]["lines"]]
    states_gt = [r for r in both if r["analyzed"]["states"] > r["blind"]["states"]]
    # CPU seconds of the analysis in the game process where measured (wall time grows with whatever else
    # the machine runs), else its wall time
    times = [r["analysis"].get("analysis_cpu_s") or r["analysis"]["analysis_s"] for r in rows
             if "analysis_s" in r["analysis"]]
    # an analysis that gave up counts with the time it took to give up
    spent = times + [r["analysis"]["wall_s"] for r in rows if "analysis_s" not in r["analysis"] and "wall_s" in r["analysis"]]
    s = {"games": n, "ran": len(ran), "analysis_succeeded": len(ok), "analysis_partial": len(partial),
         "analysis_game_crashed": len(crashed), "analysable": analysable,
         "analysis_failed": analysable - len(ok) - len(partial), "compared": len(both),
         "analyzed_ge_blind_lines": len(lines_ge), "analyzed_gt_blind_states": len(states_gt),
         "median_analysis_s": statistics.median(times) if times else None, "max_analysis_s": max(spent, default=None),
         "controls": sum(len(r["controls"]) for r in rows), "controls_found": sum(len(r["controls_found"]) for r in rows)}
    s["targets"] = {
        "every game runs": len(ran) == n,
        "analysis succeeds (not partial) on >= 90%": len(ok) >= 0.9 * analysable,
        "analyzed >= blind on code coverage on >= 80%": len(lines_ge) >= 0.8 * n,
        "analyzed > blind on distinct states on most": len(states_gt) > n / 2,
        "median analysis < 2 s": bool(times) and statistics.median(times) < 2,
        "no analysis > 10 s": bool(spent) and max(spent) <= 10,
    }
    # issue 55: the analysed space's size against the documented controls (rows measured before the field was
    # recorded: their `actions` are the analysed ones alone), the blind fallback in it, paths against actions
    spaced = [r for r in rows if "actions" in r["analysis"]]
    ratios = [x for x in (r.get("actions_per_control", per_control(r)) for r in spaced) if x is not None]
    with_controls = [r for r in rows if r["controls"]]
    all_found = [r for r in with_controls if set(r["controls"]) <= set(r["controls_found"])]
    s.update({
        "spaces": len(spaced),
        "median_actions": statistics.median(r["analysis"]["actions"] for r in spaced) if spaced else None,
        "median_actions_per_control": statistics.median(ratios) if ratios else None,
        "max_actions_per_control": max(ratios, default=None),
        "spaces_with_fallback": sum(1 for r in spaced if r["analysis"].get("fallback_actions")),
        "fallback_actions": sum(r["analysis"].get("fallback_actions") or 0 for r in spaced),
        "analysed_actions": sum(r["analysis"].get("analysed_actions", r["analysis"]["actions"]) for r in spaced),
        "path_actions": sum(r["analysis"].get("path_actions") or 0 for r in spaced),
        "spaces_with_unanalysed_loops": sum(1 for r in spaced if r["analysis"].get("unanalysed")),
        "games_with_controls": len(with_controls), "games_all_controls_found": len(all_found),
    })
    s["targets_issue55"] = {
        "analysis succeeds on every game that starts": len(ok) == analysable,
        "documented controls found >= 100 of 107 (93%)": s["controls_found"] >= 100 / 107 * s["controls"],
        "every control found on >= 8 of 10 games": len(all_found) >= 0.8 * len(with_controls),
        "analyzed >= blind on code coverage on >= 90%": len(lines_ge) >= 0.9 * n,
        "analyzed > blind on distinct states on >= 80%": len(states_gt) >= 0.8 * n,
        "median actions per documented control <= 3": bool(ratios) and statistics.median(ratios) <= 3,
    }
    return s


def summary_line(s: dict) -> str:
    n = s["games"]
    m = s.get("analysable", n)
    return (f"{s['ran']}/{n} games run; analysis succeeded on {s['analysis_succeeded']}/{m} games that start "
            f"({s['analysis_partial']} partial, {s['analysis_failed']} failed; {n - m} crash by themselves at start; "
            f"target >= 90%); analyzed >= blind on "
            f"code coverage on {s['analyzed_ge_blind_lines']}/{n} (target >= 80%), more distinct states on "
            f"{s['analyzed_gt_blind_states']}/{n} (target: most); median analysis "
            f"{_fmt(s['median_analysis_s'], '.2f')} s (target < 2 s), slowest {_fmt(s['max_analysis_s'], '.1f')} s "
            f"(target <= 10 s); documented controls found {s['controls_found']}/{s['controls']}. Targets: "
            + ", ".join(f"{k}: {'met' if v else 'NOT met'}" for k, v in s["targets"].items())
            + (f"\nIssue 55: every control found on {s['games_all_controls_found']}/{s['games_with_controls']} games; "
               f"median space {_fmt(s['median_actions'])} actions, {_fmt(s['median_actions_per_control'], '.2f')} per "
               f"documented control (max {_fmt(s['max_actions_per_control'], '.1f')}, over {s['spaces']} analysed "
               f"spaces); blind fallback in {s['spaces_with_fallback']}/{s['spaces']} spaces "
               f"({s['fallback_actions']} actions in all); {s['analysed_actions']} analysed actions from "
               f"{s['path_actions']} input paths. Targets: "
               + ", ".join(f"{k}: {'met' if v else 'NOT met'}" for k, v in s["targets_issue55"].items())
               if "targets_issue55" in s else ""))


def summary_lines(s: dict) -> str:
    """The summary over all the rows, then per split where there are several."""
    by = s.get("by_split") or {}
    if len(by) <= 1:
        return summary_line(s)
    return "\n".join([f"All {s['games']} games: " + summary_line(s)]
                     + [f"Split {sp}: " + summary_line(x) for sp, x in by.items()])


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--inner":
        _inner(sys.argv[2:])
        return
    atexit.register(_kill_all)
    signal.signal(signal.SIGTERM, _on_signal)
    if len(sys.argv) > 1 and sys.argv[1] == "--rescore":
        rescore(Path(sys.argv[2]) if len(sys.argv) > 2 else RESULTS)
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default="pypi", choices=sorted(CORPORA), help="pypi: bench/real_games.toml (the "
                    "default); repo: bench/repo_games.toml, games from GitHub repositories at pinned commits")
    ap.add_argument("--split", default=None, choices=["dev", "heldout", "heldout2", "all"],
                    help="with --corpus repo: the games of this split (default: dev; the held-out splits only to "
                    "judge a frozen method)")
    ap.add_argument("--games", default="", help="comma-separated names from the corpus (default: all of the split)")
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--seeds", default="0", help="comma-separated seeds of the random agent (means over them)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds each run may take before it counts as hung")
    ap.add_argument("--jobs", type=int, default=1, help="games run at once after the analyses (which run one at a time)")
    ap.add_argument("--out", default=None, help="results file (default: bench/results/real_games.json; with "
                    "--corpus repo, bench/results/real_games_repo_SPLIT.json)")
    ap.add_argument("--merge", action="store_true", help="measure only --games and put their rows into the results "
                    "file OUT already holds (each rerun row keeps the commit and date it was measured at)")
    ap.add_argument("--analysis-only", action="store_true", help="with --merge: measure only the analysis of --games "
                    "and keep the run and coverage figures of their rows in OUT; allowed only for a game with no "
                    "analyzed space before or now (its runs used the blind space either way, so they still hold)")
    ap.add_argument("--mirrors", metavar="DIR", help="with --corpus repo: the git mirrors the games' files come "
                    "from, DIR/OWNER+NAME/repo (default: $PLAYTESTER_MIRRORS or /work/.mirror; else GitHub)")
    args = ap.parse_args()
    if args.mirrors:
        os.environ["PLAYTESTER_MIRRORS"] = args.mirrors
    if args.split is not None and args.corpus != "repo":
        sys.exit("--split is for --corpus repo (the PyPI corpus has no splits)")
    split = args.split or ("dev" if args.corpus == "repo" else "all")
    if args.out is None:
        args.out = str(RESULTS if args.corpus == "pypi" else RESULTS.with_name(f"real_games_repo_{split}.json"))
    if args.analysis_only and not args.merge:
        sys.exit("--analysis-only needs --merge (it keeps the runs of the rows OUT holds)")
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console()
    corpus = select(args.games, args.corpus, split)
    if args.corpus == "repo":  # every game's files first: one that cannot be had stops the bench before any run
        import repo_games

        try:
            for game in corpus:
                repo_games.materialize(game)
        except repo_games.Unavailable as e:
            sys.exit(str(e))
    seeds = [int(s) for s in args.seeds.split(",")]
    import playtester

    # which playtester was measured: the repository's src/, or another copy put first on PYTHONPATH
    made = {**provenance(), "playtester_src": str(Path(playtester.__file__).resolve().parents[1])}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict] = {}

    def save() -> None:  # after each game: a stopped run keeps what it measured
        done = [rows[g["name"]] for g in corpus if g["name"] in rows and "run" in rows[g["name"]]]
        (out.with_suffix(".partial.json") if args.merge else out).write_text(json.dumps(
            {**made, "corpus": args.corpus, "split": split, "steps": args.steps, "seeds": seeds, "rows": done},
            indent=1))

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[what]}"), TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task("install", total=len(corpus), what="")
        failed = {}
        for g in corpus:
            progress.update(task, what=g["name"])
            try:
                prepare(g)
            except InstallError as e:
                failed[g["name"]] = str(e)
                console.print(f"[red]{g['name']}: not installed[/]: {e}", highlight=False)
            progress.advance(task)
        # the analyses one at a time (their timings are a target), then the runs, --jobs games at a time
        progress.update(task, description="analysis", completed=0)
        for g in corpus:
            if g["name"] in failed:
                rows[g["name"]] = {"game": g["name"], "version": version(g), "spec": g["spec"], "genre": g["genre"],
                                   "corpus": g["corpus"], "split": g["split"],
                                   "install_error": failed[g["name"]], "run": {"error": "not installed"},
                                   "analysis": {"status": "failed", "reason": "not installed"},
                                   "controls": [], "controls_found": []}
            else:
                progress.update(task, what=g["name"])
                rows[g["name"]] = row = measure_analysis(g, seeds[0])
                a = row["analysis"]
                console.print(f"{g['name']}: analysis {a.get('status')}, {a.get('actions', '-')} actions "
                              f"({a.get('fallback_actions', '-')} blind fallback, {a.get('path_actions', '-')} "
                              f"paths, unanalysed {a.get('unanalysed')}), {_fmt(row.get('actions_per_control'), '.1f')}"
                              " per control, "
                              f"{_fmt(a.get('analysis_s'), '.2f')} s, loop {a.get('loop')}, controls found "
                              f"{len(row['controls_found'])}/{len(row['controls'])} {a.get('reason', '')[:200]}",
                              highlight=False)
            progress.advance(task)
        progress.update(task, description="runs", completed=len(failed))
        todo = [g for g in corpus if g["name"] not in failed]
        if args.analysis_only:
            before_rows = {r["game"]: r for r in json.loads(out.read_text())["rows"]} if out.is_file() else {}
            spaced = ("succeeded", "partial")
            for g in todo:
                old_row = before_rows.get(g["name"])
                row = rows[g["name"]]
                if old_row is None or row["analysis"].get("status") in spaced or \
                        old_row["analysis"].get("status") in spaced:
                    sys.exit(f"{g['name']}: --analysis-only keeps runs measured without an analyzed space; this game "
                             "has one (now or before): measure it fully")
                for k in ("run", "blind", "analyzed"):
                    if k in old_row:
                        row[k] = old_row[k]
                row["runs_measured"] = old_row.get("measured") or {"commit": json.loads(out.read_text())["commit"]}
            todo = []

        def play(g: dict) -> dict:
            t = progress.add_task(f"  {g['name']}", total=None, what="")
            try:
                return measure_play(g, rows[g["name"]], args.steps, seeds, args.timeout,
                                    status=lambda text: progress.update(t, what=text))
            except Exception as e:  # noqa: BLE001 - a measurement that broke is a row that says so
                rows[g["name"]].setdefault("run", {"error": f"the benchmark failed: {e!r}"})
                return rows[g["name"]]
            finally:
                progress.remove_task(t)

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for row in pool.map(play, todo):
                run = row["run"]
                an, bl = row.get("analyzed") or {}, row.get("blind") or {}
                console.print(
                    f"{row['game']}: run rc {run.get('rc')}, {_fmt(run.get('steps_per_s'))} steps/s, "
                    f"{run.get('episodes', '-')} episodes, {run.get('crashes', '-')} crashes {run.get('error', '')[:200]}"
                    f"| states a/b {_fmt(an.get('states'))}/{_fmt(bl.get('states'))} | lines a/b "
                    f"{_fmt(an.get('lines'))}/{_fmt(bl.get('lines'))}", highlight=False)
                progress.advance(task)
                save()
    rows = [rows[g["name"]] for g in corpus]  # type: ignore[assignment]
    reruns = []
    if args.merge and out.is_file():  # the other games' rows as measured before, in the corpus order
        before = json.loads(out.read_text())
        for r in rows:
            r["measured"] = {k: made[k] for k in ("commit", "dirty", "date")}
        new = {r["game"]: r for r in rows}
        order = [g["name"] for g in load_games(args.corpus)]
        old_rows = {r["game"]: r for r in before["rows"]}
        rows = [new.get(name) or old_rows[name] for name in order if name in new or name in old_rows]
        reruns = before.get("reruns", []) + [{**made, "games": sorted(new)}]
        made = {k: before[k] for k in made if k in before}  # the file's own provenance: its full run
    s = summary(rows)
    md = table(rows)
    print(md)
    print(summary_lines(s))
    corpus_file = CORPORA[args.corpus]
    corpus_hash = hashlib.sha256(corpus_file.read_bytes()).hexdigest()[:12]
    out.write_text(json.dumps({**made, "steps": args.steps, "seeds": seeds, "jobs": args.jobs,
                               "corpus": args.corpus, "split": split, "corpus_file": str(corpus_file.relative_to(ROOT)),
                               "corpus_sha256": corpus_hash, "rows": rows, "summary": s, "table": md,
                               **({"reruns": reruns} if reruns else {})}, indent=1))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
