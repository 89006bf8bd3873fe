"""bench/repo_games.toml is well-formed: every vendored game is where it says, pinned, licensed and split."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "bench" / "repo_games.toml"
GAMES = ROOT / "bench" / "repo_games"
TRIAGE = ROOT / "bench" / "repo_games_triage.toml"
FIELDS = ("name", "repo", "commit", "licence", "path", "entry", "spec", "genre", "controls", "blacklist", "split")


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
    before = list(sys.path)  # bench/repo_games.py puts bench/ on sys.path: taken off again for the other tests
    spec = importlib.util.spec_from_file_location("repo_games", ROOT / "bench" / "repo_games.py")
    repo_games = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(repo_games)
    sys.path[:] = before
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
    folder = GAMES / game["path"]
    assert folder.is_dir(), folder
    assert (folder / game["entry"]).is_file(), folder / game["entry"]
    spec = folder / game["spec"]
    assert spec.is_file() or (spec / "__main__.py").is_file(), f"spec {game['spec']} names no file or package"
    licences = [p for p in folder.iterdir() if p.is_file() and re.match(r"(licen[cs]e|copying|lgpl|gpl)", p.name, re.I)]
    licences += list((folder / "licenses").glob("*")) if (folder / "licenses").is_dir() else []
    assert licences, f"{game['name']}: no licence file kept"
    controls = game["controls"]
    assert set(controls) <= {"keys", "mouse", "mouse_move"} and controls, controls
    assert set(controls.get("mouse", [])) <= {"left", "middle", "right"}
    assert not list(folder.rglob("__pycache__")), "vendored __pycache__"


def test_vendored_size() -> None:
    total = sum(p.stat().st_size for p in GAMES.rglob("*") if p.is_file())
    assert total < 40 * 2**20, f"{total / 2**20:.1f} MB of vendored games"


def test_triage_table() -> None:
    if not TRIAGE.is_file():
        pytest.skip("no triage table yet")
    names = {g["name"] for g in corpus()}
    for e in tomllib.loads(TRIAGE.read_text())["triage"]:
        assert e["game"] in names, e
        assert e["verdict"] in ("real", "false") and e["match"] and e["reason"], e
        if e["verdict"] == "false":
            assert e["cause"] in ("startup", "cwd", "ours", "other"), e
