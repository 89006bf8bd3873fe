"""Repository-game corpus benchmark (issues 54 and 55): what playtester says about pygame games from public GitHub
repositories that nobody here wrote, run the way its README tells a new user to.

The corpus is bench/repo_games.toml. The games' files are not committed: ``materialize`` writes each game's folder,
the files of its repository at its pinned commit that its entry selects, into .cache/repo_games_files/PATH, from a
local git mirror (``--mirrors DIR`` or $PLAYTESTER_MIRRORS, default /work/.mirror: DIR/OWNER+NAME/repo) or else a
clone from GitHub, and reuses it while its stamp (PATH.json) matches. Per game and seed this script

1. copies the game's folder to a scratch folder (so nothing is ever written into the cached folder) and runs, from
   there, exactly the README's command: ``playtester explore SPEC --budget N --out DIR --workers 1 --seed S``
   (the ``playtester`` script beside this Python, with the ``src`` of the playtester this Python imports first on
   PYTHONPATH: put another checkout's ``src`` first on PYTHONPATH to measure that one), under a timeout, with a scratch HOME;
2. records the exit code, steps, episodes (and how they ended), distinct states, code coverage, the warnings it
   printed, and every bug from the campaign's store (kind, message, location, count, trace length and shrunk
   length, flaky, the step and second of its first finding);
3. gives each bug its ``triage`` from the hand-written table bench/repo_games_triage.toml: the first entry of the
   game whose ``match`` is a substring of the bug's kind, message, location or signature; ``untriaged`` when none.

It writes bench/results/repo_games_NAME.json (with bench/provenance.py's command, commit, machine and date) and
prints a summary table. The campaign folders stay in .cache/repo_games/GAME/seedS (``playtester replay`` them).

Usage: python bench/repo_games.py [--split dev|heldout|heldout2|all] [--games a,b] [--budget 1000] [--seeds 0,1,2]
                                  [--name NAME] [--merge] [--timeout 900] [--mirrors DIR]
       python bench/repo_games.py --materialize [--split S] [--games a,b]   # only write the games' folders, no runs
       python bench/repo_games.py --retriage NAME     # the triage table again over a results file, no runs

Splits (the ``split`` of each game in bench/repo_games.toml): ``dev`` (looked at while fixing playtester),
``heldout`` (the first round's held-out games), ``heldout2`` (issue 55's held-out games: run them only once its
method is frozen). ``all`` is every game of the file, held-out ones included.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import platform
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
from real_games import load_corpus  # noqa: E402

CORPUS = ROOT / "bench" / "repo_games.toml"
TRIAGE = ROOT / "bench" / "repo_games_triage.toml"
CACHE = ROOT / ".cache" / "repo_games"
FILES = ROOT / ".cache" / "repo_games_files"  # materialized game folders, FILES/PATH, each with FILES/PATH.json
CLONES = ROOT / ".cache" / "repo_games_clones"  # repositories fetched from GitHub when no mirror holds them
MIRRORS = Path("/work/.mirror")  # the default mirrors root: MIRRORS/OWNER+NAME/repo (a git directory)
MIRRORS_ENV = "PLAYTESTER_MIRRORS"
GITHUB = "https://github.com/{repo}"
FALSE_CAUSES = ("startup", "cwd", "ours", "other")
SPLITS = ("dev", "heldout", "heldout2")


# ------------------------------------------------------------------------------------------------ corpus, triage
def select(split: str, games: str) -> list[dict]:
    return select_games(load_corpus(CORPUS), str(CORPUS.relative_to(ROOT)), split, games)


def load_triage(path: Path = TRIAGE) -> list[dict]:
    """The triage entries, checked: ``game``, ``match``, ``verdict`` (real / false), ``cause`` for a false alarm
    (one of FALSE_CAUSES), ``reason``."""
    if not path.is_file():
        return []
    entries = tomllib.loads(path.read_text()).get("triage", [])
    for i, e in enumerate(entries):
        if e.get("verdict") not in ("real", "false") or not e.get("game") or not e.get("match") or not e.get("reason"):
            raise ValueError(f"{path}: entry {i} needs game, match, verdict (real/false) and reason: {e}")
        if e["verdict"] == "false" and e.get("cause") not in FALSE_CAUSES:
            raise ValueError(f"{path}: entry {i}: a false alarm's cause is one of {FALSE_CAUSES}: {e}")
    return entries


def triage(game: str, bug: dict, table: list[dict]) -> dict:
    text = " ".join(str(bug.get(k, "")) for k in ("kind", "message", "location", "signature"))
    for e in table:
        if e["game"] == game and e["match"] in text:
            out = {"verdict": e["verdict"], "reason": e["reason"]}
            if e["verdict"] == "false":
                out["cause"] = e["cause"]
            return out
    return {"verdict": "untriaged"}


# ------------------------------------------------------------------------------------------------ materialize
class Unavailable(RuntimeError):
    """A game's files could not be materialized: no mirror holds its repository at its commit and the network
    could not fetch it."""


def mirrors_root() -> Path:
    """The folder of git mirrors, ``OWNER+NAME/repo`` each: ``$PLAYTESTER_MIRRORS`` (``--mirrors DIR`` sets it),
    else /work/.mirror."""
    return Path(os.environ.get(MIRRORS_ENV) or MIRRORS)


def _git(git_dir: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    """git on ``git_dir``, never prompting and never fetching a partial clone's missing objects behind our back."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_NO_LAZY_FETCH": "1"}
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], env=env, capture_output=True, **kw)


def _has_commit(git_dir: Path, commit: str) -> bool:
    return git_dir.is_dir() and _git(git_dir, "cat-file", "-e", f"{commit}^{{commit}}").returncode == 0


def _mirror(game: dict) -> Path | None:
    """The mirror's git directory that holds the game's commit (``repo`` bare, or ``repo/.git``), else None."""
    repo = mirrors_root() / game["repo"].replace("/", "+") / "repo"
    for git_dir in (repo / ".git", repo):
        if _has_commit(git_dir, game["commit"]):
            return git_dir
    return None


_UNREACHABLE: dict[str, str] = {}  # repo -> why the network could not fetch it, this process (tried once)
_OFFLINE: list[str] = []  # why GitHub could not be reached at all, this process (no other repository is tried)
NETWORK_DOWN = ("Could not resolve host", "Failed to connect", "Network is unreachable", "Connection timed out",
                "Connection refused", "timed out")


def _clone(game: dict) -> Path:
    """A bare repository under .cache/repo_games_clones holding the game's commit, fetched from GitHub (that
    commit alone first, the whole history when the server refuses a fetch by commit); raises Unavailable with
    git's last words when the network cannot."""
    git_dir = CLONES / (game["repo"].replace("/", "+") + ".git")
    if _has_commit(git_dir, game["commit"]):
        return git_dir
    if game["repo"] in _UNREACHABLE or _OFFLINE:
        raise Unavailable(_UNREACHABLE.get(game["repo"]) or _OFFLINE[0])
    url = GITHUB.format(repo=game["repo"])
    new = not git_dir.exists()
    git_dir.mkdir(parents=True, exist_ok=True)
    _git(git_dir, "init", "--bare", "--quiet", check=True)
    why = ""
    for how in (["--depth", "1", game["commit"]], ["+refs/heads/*:refs/heads/*"]):
        try:  # a transfer slower than 1 kB/s for a minute is given up
            p = _git(git_dir, "-c", "http.lowSpeedLimit=1000", "-c", "http.lowSpeedTime=60", "fetch", "--quiet",
                     "--no-tags", url, *how, text=True, timeout=900)
        except subprocess.TimeoutExpired:
            why = f"git fetch {url} timed out"
            break
        if _has_commit(git_dir, game["commit"]):
            return git_dir
        err = (p.stderr or "").strip()
        why = err.splitlines()[-1] if err else f"git fetch {url} failed"
        if any(s in err for s in NETWORK_DOWN):  # no network: neither the whole history nor another repository
            _OFFLINE.append(re.sub(r"unable to access '[^']*': ", "", why))  # will come
            break
    _UNREACHABLE[game["repo"]] = why
    if new:
        shutil.rmtree(git_dir, ignore_errors=True)
    raise Unavailable(why)


def _matches(path: str, patterns: list[str]) -> bool:
    """``path`` (a repository path) is one of ``patterns`` (fnmatch patterns of repository paths), or lies in a
    folder one of them names."""
    return any(fnmatch.fnmatchcase(path, pat) or path.startswith(pat.rstrip("/") + "/")
               or fnmatch.fnmatchcase(path, pat.rstrip("/") + "/*") for pat in patterns)


def selection(game: dict) -> dict:
    """What of the repository the game folder holds (bench/repo_games.toml): ``subdir`` (the repository folder
    that is the game folder; the root by default), ``keep`` (repository paths or patterns kept: files, or folders
    with everything under them; all by default) and ``omit`` (patterns left out, of what ``keep`` kept)."""
    return {"subdir": game.get("subdir", "").strip("/"), "keep": list(game.get("keep", [])),
            "omit": list(game.get("omit", []))}


def _files(git_dir: Path, game: dict) -> dict[str, tuple[str, str, str]]:
    """The files the game folder holds: its path in the folder -> (repository path, git mode, blob id)."""
    sel = selection(game)
    listing = _git(git_dir, "ls-tree", "-r", "-z", "--full-tree", game["commit"], check=True).stdout.decode()
    out: dict[str, tuple[str, str, str]] = {}
    for item in filter(None, listing.split("\0")):
        meta, path = item.split("\t", 1)
        mode, kind, blob = meta.split()
        if kind != "blob":  # a submodule's commit: no files here
            continue
        if sel["keep"] and not _matches(path, sel["keep"]):
            continue
        if sel["omit"] and _matches(path, sel["omit"]):
            continue
        inner = path[len(sel["subdir"]) + 1:] if sel["subdir"] and path.startswith(sel["subdir"] + "/") else path
        if inner in out:
            raise ValueError(f"{game['name']}: {path} and {out[inner][0]} both land on {inner}")
        out[inner] = (path, mode, blob)
    return out


def _write(game: dict, git_dir: Path, files: dict[str, tuple[str, str, str]], dest: Path) -> None:
    """Writes every file's blob (``git cat-file --batch``) under ``dest``: executable bits and symbolic links as
    the commit has them."""
    blobs = sorted({blob for _, _, blob in files.values()})
    p = _git(git_dir, "cat-file", "--batch", input="".join(b + "\n" for b in blobs).encode(), check=True)
    data, content, i = p.stdout, {}, 0
    for _ in blobs:
        end = data.index(b"\n", i)
        head = data[i:end].decode().split()
        if len(head) < 3 or head[1] != "blob":
            path = next(r for r, _, b in files.values() if b == head[0])
            raise Unavailable(f"{game['name']}: {path} at {game['commit']} is not in {git_dir} (a partial clone "
                              "without it): leave it out with `omit` in bench/repo_games.toml")
        size = int(head[2])
        content[head[0]] = data[end + 1:end + 1 + size]
        i = end + 1 + size + 1
    for inner, (_, mode, blob) in sorted(files.items()):
        target = dest / inner
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            target.symlink_to(content[blob].decode())
            continue
        target.write_bytes(content[blob])
        if mode == "100755":
            target.chmod(0o755)


def materialize(game: dict) -> Path:
    """The game's folder, .cache/repo_games_files/PATH: the files of its ``repo`` at its ``commit`` that its
    ``subdir`` / ``keep`` / ``omit`` select, written from the mirror (``mirrors_root()``), else from a clone of
    github.com/OWNER/NAME. The stamp beside it, PATH.json, records the repository, commit, selection and files:
    the folder is reused while they match (and its files are there), written afresh otherwise. Raises
    Unavailable, naming the game, its repository and commit and how to provide them, when neither has it."""
    import fcntl

    dest, stamp = FILES / game["path"], FILES / f"{game['path']}.json"
    want = {"repo": game["repo"], "commit": game["commit"], **selection(game)}
    FILES.mkdir(parents=True, exist_ok=True)
    with open(FILES / f"{game['path']}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one writer at a time (bench/real_games.py measures games in threads)
        if stamp.is_file() and dest.is_dir():
            have = json.loads(stamp.read_text())
            if ({k: have.get(k) for k in want} == want
                    and all((dest / f).is_file() or (dest / f).is_symlink() for f in have.get("files", []))):
                return dest
        git_dir, source = _mirror(game), "mirror"
        if git_dir is None:
            try:
                git_dir, source = _clone(game), "github"
            except Unavailable as e:
                raise Unavailable(
                    f"{game['name']}: cannot materialize {game['repo']} at {game['commit']}: no mirror "
                    f"{mirrors_root() / game['repo'].replace('/', '+') / 'repo'} holds that commit, and fetching "
                    f"{GITHUB.format(repo=game['repo'])} failed ({e}). Provide it: point --mirrors DIR (or "
                    f"${MIRRORS_ENV}) at a folder holding {game['repo'].replace('/', '+')}/repo, a git clone with "
                    f"that commit, or run where github.com can be reached.") from None
        files = _files(git_dir, game)
        tmp = Path(tempfile.mkdtemp(prefix=f".{game['path']}.", dir=FILES))
        try:
            _write(game, git_dir, files, tmp)
            stamp.unlink(missing_ok=True)
            shutil.rmtree(dest, ignore_errors=True)
            tmp.rename(dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        stamp.write_text(json.dumps({**want, "source": source, "files": sorted(files)}, indent=1) + "\n")
    return dest


# ------------------------------------------------------------------------------------------------ one run
def playtester_src() -> str:
    import playtester

    return str(Path(playtester.__file__).resolve().parents[1])


def playtester_command() -> list[str]:
    """The ``playtester`` console script beside this Python (what a user types); without one, the same entry point
    through ``-c``. Never ``python -m playtester.cli``: ``-m`` puts the working directory (the game's folder) first
    on playtester's own sys.path, where a game's vendored package (cabbages' Python 2 ``yaml``) shadows the one
    playtester imports."""
    script = Path(sys.executable).parent / "playtester"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "import sys; sys.path.pop(0) if sys.path[0] == '' else None; "
            "from playtester.cli import main; sys.argv[0] = 'playtester'; main()"]


def scratch_copy(game: dict, parent: Path) -> tuple[Path, Path]:
    """A fresh copy of the game's materialized folder (``materialize``), ``PARENT/PATH`` (its working directory:
    nothing is ever written into the cached folder), and a fresh, empty scratch HOME beside it, ``PARENT/home``;
    what either held is removed first. Also bench/real_games.py's (``--corpus repo``)."""
    source = materialize(game)
    work, home = parent / game["path"], parent / "home"
    for folder in (work, home):
        shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(source, work, symlinks=True)
    home.mkdir(parents=True)
    return work, home


def scratch_env(home: Path) -> dict[str, str]:
    """The environment a repo game's playtester runs in: the ``src`` of the playtester this Python imports first
    on PYTHONPATH, ``home`` as HOME (and the XDG folders under it), no bytecode written, plain output."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([playtester_src(), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local/share"), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_CACHE_HOME=str(home / ".cache"), PYTHONDONTWRITEBYTECODE="1", COLUMNS="200",
               TERM="dumb", NO_COLOR="1")
    return env


def run_one(game: dict, seed: int, budget: str, timeout: float) -> dict:
    out = CACHE / game["name"] / f"seed{seed}"
    shutil.rmtree(out, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd_args = ["explore", game["spec"], "--budget", str(budget), "--out", str(out), "--workers", "1",
                "--seed", str(seed)]
    with tempfile.TemporaryDirectory(prefix=f"repo_game_{game['name']}_") as tmp:
        work, home = scratch_copy(game, Path(tmp))
        env = scratch_env(home)
        t0 = time.perf_counter()
        try:
            p = subprocess.run([*playtester_command(), *cmd_args], cwd=work, env=env,
                               capture_output=True, text=True, timeout=timeout)
            rc, output = p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired as e:
            rc = "timeout"
            output = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        wall = time.perf_counter() - t0
    record: dict = {"game": game["name"], "seed": seed, "command": "playtester " + " ".join(cmd_args),
                    "cwd": f"<scratch copy of {game['repo']}@{game['commit'][:7]}: {game['path']}>", "exit_code": rc,
                    "wall_s": round(wall, 1), "out": str(out.relative_to(ROOT))}
    record["warnings"] = [re.sub(r"\s+", " ", m).strip()
                          for m in re.findall(r"warning:(.*?)(?=\n\S|\n\s*(?:warning:|#\d+ )|\Z)", output, re.S)]
    record.update(read_store(out))
    if "error" in record or rc not in (0, 1):
        record["output_tail"] = output[-3000:]
    return record


def read_store(out: Path) -> dict:
    from playtester.store import Store

    if not (out / "playtester.sqlite").is_file():
        return {"error": "no store written"}
    store = Store(out, create=False)
    try:
        c = store.campaign()
        if c is None:
            return {"error": "no campaign in the store"}
        timeline = store.timeline(c.id)
        last = timeline[-1] if timeline else {}
        outcomes: dict[str, int] = {}
        for ep in store.episodes(c.id):
            outcomes[ep["outcome"]] = outcomes.get(ep["outcome"], 0) + 1
        bugs = []
        for b in store.bugs(c.id):
            bugs.append({"id": b.id, "kind": b.kind, "message": b.message, "location": b.location,
                         "signature": b.signature, "count": b.count,
                         "trace_length": len(b.trace.actions) if b.trace else None,
                         "min_trace_length": len(b.min_trace.actions) if b.min_trace else None,
                         "flaky": b.flaky, "first_step": b.first_step, "first_found_s": round(b.first_found_s, 2)})
        states = len(store.states(c.id))
        return {"status": c.status, "steps": c.steps, "episodes": c.episodes, "episode_outcomes": outcomes,
                "elapsed_s": round(c.elapsed_s, 1), "states": states, "abstraction": c.abstraction,
                "code_covered": last.get("code_covered"), "code_total": last.get("code_total") or c.code_total,
                "steps_per_s": round(c.steps / c.elapsed_s, 1) if c.elapsed_s else None, "bugs": bugs}
    finally:
        store.close()


def apply_triage(runs: list[dict], table: list[dict]) -> None:
    for r in runs:
        for b in r.get("bugs", []):
            b["triage"] = triage(r["game"], b, table)


# ------------------------------------------------------------------------------------------------ summary
def per_game(runs: list[dict]) -> dict[str, dict]:
    """Per game, over its seeds: the mean and sample standard deviation of distinct states and of code coverage (%
    of the statements of the files that ran), the exit codes, and the findings by triage (what the docs cite)."""
    import statistics

    out: dict[str, dict] = {}
    for game in dict.fromkeys(r["game"] for r in runs):
        rs = [r for r in runs if r["game"] == game and "error" not in r]
        states = [float(r["states"]) for r in rs]
        code = [100.0 * r["code_covered"] / r["code_total"] for r in rs if r.get("code_total")]
        verdicts: dict[str, int] = {}
        for r in rs:
            for b in r.get("bugs", []):
                key = b["triage"]["verdict"] + ("/" + b["triage"]["cause"] if "cause" in b["triage"] else "")
                verdicts[key] = verdicts.get(key, 0) + 1

        def mean_sd(xs: list[float]) -> tuple[float | None, float | None]:
            if not xs:
                return None, None
            return round(statistics.fmean(xs), 1), round(statistics.stdev(xs), 1) if len(xs) > 1 else 0.0

        out[game] = {"seeds": len(rs), "exit_codes": sorted({r["exit_code"] for r in runs if r["game"] == game}),
                     "states_mean": mean_sd(states)[0], "states_sd": mean_sd(states)[1],
                     "code_pct_mean": mean_sd(code)[0], "code_pct_sd": mean_sd(code)[1],
                     "findings": sum(verdicts.values()), "by_triage": verdicts,
                     "false_alarms": sum(v for k, v in verdicts.items() if k.startswith("false"))}
    return out


def summary(runs: list[dict]) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title="repo games: playtester explore, as the README says")
    for col in ("game", "seed", "exit", "steps", "eps", "states", "code", "bugs: triage"):
        t.add_column(col)
    for r in runs:
        cov = (f"{r['code_covered']}/{r['code_total']}" if r.get("code_total") else "-")
        bugs = "; ".join(f"{b['kind']} x{b['count']} @{b['first_step']} "
                         f"[{b['triage']['verdict']}{'/' + b['triage']['cause'] if 'cause' in b['triage'] else ''}]"
                         for b in r.get("bugs", [])) or ("-" if "error" not in r else r["error"])
        t.add_row(r["game"], str(r["seed"]), str(r["exit_code"]), str(r.get("steps", "-")),
                  str(r.get("episodes", "-")), str(r.get("states", "-")), cov, bugs)
    console = Console(width=200)
    console.print(t)
    verdicts: dict[str, int] = {}
    for r in runs:
        for b in r.get("bugs", []):
            key = b["triage"]["verdict"] + ("/" + b["triage"]["cause"] if "cause" in b["triage"] else "")
            verdicts[key] = verdicts.get(key, 0) + 1
    console.print("findings by triage: " + (", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())) or "none"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="all", choices=[*SPLITS, "all"])
    ap.add_argument("--games", default="")
    ap.add_argument("--budget", default="1000")
    ap.add_argument("--seeds", default="0")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds for one game and seed")
    ap.add_argument("--name", default=None, help="results file bench/results/repo_games_NAME.json (default: split)")
    ap.add_argument("--merge", action="store_true", help="keep the runs of other games already in the results file")
    ap.add_argument("--retriage", metavar="NAME", help="apply the triage table to repo_games_NAME.json again")
    ap.add_argument("--mirrors", metavar="DIR", help=f"the git mirrors, DIR/OWNER+NAME/repo (default: ${MIRRORS_ENV} "
                    f"or {MIRRORS}); a repository no mirror holds is cloned from GitHub")
    ap.add_argument("--materialize", action="store_true", help="only write the selected games' folders into "
                    ".cache/repo_games_files (no runs)")
    a = ap.parse_args()
    if a.mirrors:
        os.environ[MIRRORS_ENV] = a.mirrors
    table = load_triage()
    if a.retriage:
        path = ROOT / "bench" / "results" / f"repo_games_{a.retriage}.json"
        data = json.loads(path.read_text())
        apply_triage(data["runs"], table)
        data["triage_file"] = str(TRIAGE.relative_to(ROOT))
        data["per_game"] = per_game(data["runs"])
        path.write_text(json.dumps(data, indent=1))
        summary(data["runs"])
        return
    name = a.name or a.split
    made = provenance()
    made["machine"] = {**made["machine"], "node": platform.node(), "cpu_count": os.cpu_count()}  # type: ignore[dict-item]
    runs: list[dict] = []
    games = select(a.split, a.games)
    try:  # every game's files first: a game that cannot be had stops the bench before any run
        for game in games:
            print(f"{game['name']}: {materialize(game).relative_to(ROOT)}", flush=True)
    except Unavailable as e:
        sys.exit(str(e))
    if a.materialize:
        return
    for game in games:
        for seed in (int(s) for s in a.seeds.split(",")):
            print(f"{game['name']} seed {seed} ...", flush=True)
            runs.append(run_one(game, seed, a.budget, a.timeout))
    for r in runs:  # with --merge, the file's top-level provenance is only the last call's: each run keeps its own
        r["made"] = {k: made[k] for k in ("command", "commit", "dirty", "date")}
    apply_triage(runs, table)
    path = ROOT / "bench" / "results" / f"repo_games_{name}.json"
    if a.merge and path.is_file():
        done = {g["name"] for g in games}
        runs = [r for r in json.loads(path.read_text())["runs"] if r["game"] not in done] + runs
    corpus = {g["name"]: g for g in load_corpus(CORPUS)}
    runs.sort(key=lambda r: (list(corpus).index(r["game"]) if r["game"] in corpus else 99, r["seed"]))
    record = {"budget": a.budget, "seeds": a.seeds, "split": a.split, "playtester_src": playtester_src(),
              "triage_file": str(TRIAGE.relative_to(ROOT)),
              "games": {n: {k: corpus[n][k] for k in ("repo", "commit", "split", "genre", "spec")}
                        for n in sorted({r["game"] for r in runs}) if n in corpus},
              "per_game": per_game(runs), "runs": runs}
    out = write_results(f"repo_games_{name}", record, made)
    summary(runs)
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
