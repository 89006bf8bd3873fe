"""bench/repo_games.toml is well-formed: every game pinned, licensed and split, its files selected. The games' files
are not committed: bench/repo_games.py's ``materialize`` writes them from a git mirror or GitHub at bench time. The
tests of the files themselves use the materialized folders and skip, saying why, where neither can be reached (CI:
no mirror, no network); the tests of the file and of ``materialize`` on a local repository always run."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "bench" / "repo_games.toml"
TRIAGE = ROOT / "bench" / "repo_games_triage.toml"
FIELDS = ("name", "repo", "commit", "licence", "path", "entry", "spec", "genre", "controls", "blacklist", "split")


def _repo_games():
    """bench/repo_games.py as a module (it puts bench/ on sys.path for its siblings: taken off again, so that
    bench's scripts cannot shadow anything for the other tests)."""
    before = list(sys.path)
    spec = importlib.util.spec_from_file_location("repo_games", ROOT / "bench" / "repo_games.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.path[:] = before
    return module


repo_games = _repo_games()
_MADE: dict[str, Path | str] = {}  # game -> its materialized folder, or why it could not be had


def materialized(game: dict) -> Path:
    """The game's materialized folder; skips the test, saying why, when neither a mirror nor the network has it."""
    if game["name"] not in _MADE:
        try:
            _MADE[game["name"]] = repo_games.materialize(game)
        except repo_games.Unavailable as e:
            _MADE[game["name"]] = str(e)
    made = _MADE[game["name"]]
    if isinstance(made, str):
        pytest.skip(f"corpus not materialized: {made}")
    return made


def corpus() -> list[dict]:
    return tomllib.loads(CORPUS.read_text())["game"]


def test_corpus_size_and_splits() -> None:
    games = corpus()
    names = [g["name"] for g in games]
    assert len(names) == len(set(names)), "duplicate game names"
    assert len(games) >= 12
    splits = [g["split"] for g in games]
    assert set(splits) <= {"dev", "heldout", "heldout2"}, set(splits)
    assert splits.count("dev") >= 6
    assert splits.count("heldout") >= 6
    assert splits.count("heldout2") >= 10  # issue 55's frozen held-out split


def test_heldout2_is_apart() -> None:
    """The second held-out split shares no game folder with the earlier splits, and repo_games.py can select it."""
    games = corpus()
    later = [g for g in games if g["split"] == "heldout2"]
    earlier = {g["path"] for g in games if g["split"] != "heldout2"}
    assert not {g["path"] for g in later} & earlier
    assert "heldout2" in repo_games.SPLITS
    assert [g["name"] for g in repo_games.select("heldout2", "")] == [g["name"] for g in later]


@pytest.mark.parametrize("game", corpus(), ids=lambda g: g["name"])
def test_game_entry(game: dict) -> None:
    missing = [f for f in FIELDS if f not in game]
    assert not missing, f"{game['name']}: missing {missing}"
    assert re.fullmatch(r"[0-9a-f]{40}", game["commit"]), game["commit"]
    assert re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", game["repo"]), game["repo"]
    assert game["licence"].strip()
    assert re.fullmatch(r"[A-Za-z0-9_.-]+", game["path"]), game["path"]
    assert isinstance(game.get("subdir", ""), str)
    for field in ("keep", "omit", "dropped"):
        assert all(isinstance(x, str) and x for x in game.get(field, [])), (field, game.get(field))
    if game.get("subdir"):  # the subfolder is kept, or nothing would land in the game folder
        assert any(game["subdir"] == k or game["subdir"].startswith(k.rstrip("/") + "/") for k in game["keep"])
    controls = game["controls"]
    assert set(controls) <= {"keys", "mouse", "mouse_move"} and controls, controls
    assert set(controls.get("mouse", [])) <= {"left", "middle", "right"}


def test_no_files_committed() -> None:
    """The games' files are materialized at bench time, never committed (code fetched from public repositories is
    kept out of commits)."""
    tracked = subprocess.run(["git", "ls-files", "bench/repo_games"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode:
        pytest.skip("not a git checkout")
    assert tracked.stdout == "", tracked.stdout[:500]


@pytest.mark.parametrize("game", corpus(), ids=lambda g: g["name"])
def test_game_files(game: dict) -> None:
    """The materialized folder holds the entry, the spec and the licence, and no __pycache__."""
    folder = materialized(game)
    assert folder == repo_games.FILES / game["path"] and folder.is_dir(), folder
    assert (folder / game["entry"]).is_file(), folder / game["entry"]
    spec = folder / game["spec"]
    assert spec.is_file() or (spec / "__main__.py").is_file(), f"spec {game['spec']} names no file or package"
    licences = [p for p in folder.iterdir() if p.is_file() and re.match(r"(licen[cs]e|copying|lgpl|gpl)", p.name, re.I)]
    licences += list((folder / "licenses").glob("*")) if (folder / "licenses").is_dir() else []
    assert licences, f"{game['name']}: no licence file kept"
    stamp = json.loads((repo_games.FILES / f"{game['path']}.json").read_text())
    assert stamp["commit"] == game["commit"] and stamp["repo"] == game["repo"], stamp
    assert not [f for f in stamp["files"] if "__pycache__" in f.split("/")], "materialized __pycache__"


def test_materialized_size() -> None:
    total = 0
    for game in corpus():
        folder = materialized(game)
        total += sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert total < 40 * 2**20, f"{total / 2**20:.1f} MB of repository games"


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                               "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin:/usr/local/bin",
                               "HOME": str(cwd)}).stdout.strip()


def test_materialize_from_a_mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``materialize`` on a local mirror: the commit's files that ``subdir`` / ``keep`` / ``omit`` select (a file
    outside the subfolder at its own path, executable bits kept), a stamp that reuses the folder while the entry
    is unchanged, and a clear error naming the game, repository, commit and --mirrors where nothing has it."""
    work = tmp_path / "mirrors" / "someone+games" / "repo"
    (work / "games" / "jump" / "img").mkdir(parents=True)
    (work / "games" / "jump" / "__pycache__").mkdir()
    (work / "games" / "other").mkdir()
    (work / "LICENSE").write_text("MIT\n")
    (work / "README.md").write_text("games\n")
    (work / "games" / "jump" / "main.py").write_text("print('v1')\n")
    (work / "games" / "jump" / "main.py").chmod(0o755)
    (work / "games" / "jump" / "img" / "a.png").write_bytes(bytes(range(256)))
    (work / "games" / "jump" / "big.zip").write_bytes(b"zip")
    (work / "games" / "jump" / "__pycache__" / "main.pyc").write_bytes(b"pyc")
    (work / "games" / "other" / "x.py").write_text("x\n")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "v1")
    first = _git(work, "rev-parse", "HEAD")
    (work / "games" / "jump" / "main.py").write_text("print('v2')\n")
    _git(work, "commit", "-qam", "v2")
    monkeypatch.setenv(repo_games.MIRRORS_ENV, str(tmp_path / "mirrors"))
    monkeypatch.setattr(repo_games, "FILES", tmp_path / "files")
    monkeypatch.setattr(repo_games, "CLONES", tmp_path / "clones")
    monkeypatch.setattr(repo_games, "GITHUB", f"file://{tmp_path}/nowhere/{{repo}}")  # no network in a test
    game = {"name": "jump", "repo": "someone/games", "commit": first, "path": "jump", "subdir": "games/jump",
            "keep": ["games/jump", "LICENSE"], "omit": ["*.zip", "*/__pycache__"]}
    folder = repo_games.materialize(game)
    assert folder == tmp_path / "files" / "jump"
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == [
        "LICENSE", "img/a.png", "main.py"]
    assert (folder / "main.py").read_text() == "print('v1')\n"  # the pinned commit, not the newest
    assert (folder / "main.py").stat().st_mode & 0o111 and (folder / "img" / "a.png").read_bytes() == bytes(range(256))
    stamp = json.loads((tmp_path / "files" / "jump.json").read_text())
    assert stamp["commit"] == first and stamp["source"] == "mirror" and stamp["files"] == [
        "LICENSE", "img/a.png", "main.py"]
    (folder / "mark").write_text("reused")
    assert repo_games.materialize(game) == folder and (folder / "mark").is_file()  # the stamp matches: reused
    game2 = {**game, "commit": _git(work, "rev-parse", "HEAD")}
    assert (repo_games.materialize(game2) / "main.py").read_text() == "print('v2')\n"  # another commit: rewritten
    assert not (folder / "mark").exists()
    whole = repo_games.materialize({**game2, "name": "all", "path": "all", "subdir": "", "keep": [], "omit": []})
    assert (whole / "games" / "other" / "x.py").is_file() and (whole / "README.md").is_file()
    monkeypatch.setenv(repo_games.MIRRORS_ENV, str(tmp_path / "none"))
    with pytest.raises(repo_games.Unavailable) as e:
        repo_games.materialize({**game, "path": "jump2", "name": "jump2"})
    assert all(s in str(e.value) for s in ("jump2", "someone/games", first, "--mirrors", "someone+games/repo"))
    assert not list((tmp_path / "clones").glob("*")), "a failed clone is not left behind"


def test_materialize_from_a_clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no mirror holds the repository, ``materialize`` fetches the pinned commit from its URL (GitHub's; here
    a local repository's file:// URL) into .cache/repo_games_clones and writes the folder from there."""
    remote = tmp_path / "remote" / "someone" / "games"
    remote.mkdir(parents=True)
    (remote / "LICENSE").write_text("MIT\n")
    (remote / "main.py").write_text("print('v1')\n")
    _git(remote, "init", "-q")
    _git(remote, "add", "-A")
    _git(remote, "commit", "-qm", "v1")
    first = _git(remote, "rev-parse", "HEAD")
    (remote / "main.py").write_text("print('v2')\n")
    _git(remote, "commit", "-qam", "v2")
    monkeypatch.setenv(repo_games.MIRRORS_ENV, str(tmp_path / "no-mirrors"))
    monkeypatch.setattr(repo_games, "FILES", tmp_path / "files")
    monkeypatch.setattr(repo_games, "CLONES", tmp_path / "clones")
    monkeypatch.setattr(repo_games, "GITHUB", f"file://{tmp_path}/remote/{{repo}}")
    monkeypatch.setattr(repo_games, "_UNREACHABLE", {})
    monkeypatch.setattr(repo_games, "_OFFLINE", [])
    game = {"name": "g", "repo": "someone/games", "commit": first, "path": "g"}
    folder = repo_games.materialize(game)
    assert (folder / "main.py").read_text() == "print('v1')\n" and (folder / "LICENSE").is_file()
    assert json.loads((tmp_path / "files" / "g.json").read_text())["source"] == "github"
    assert (tmp_path / "clones" / "someone+games.git").is_dir()


def test_triage_table() -> None:
    if not TRIAGE.is_file():
        pytest.skip("no triage table yet")
    names = {g["name"] for g in corpus()}
    for e in tomllib.loads(TRIAGE.read_text())["triage"]:
        assert e["game"] in names, e
        assert e["verdict"] in ("real", "false") and e["match"] and e["reason"], e
        if e["verdict"] == "false":
            assert e["cause"] in ("startup", "cwd", "ours", "other"), e
