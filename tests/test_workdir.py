"""The folder a game runs in (issue 54): its project root, as `python src/main.py` from a repository's root would run
it, with the entry's folder on sys.path; the config's `cwd` overrides; a crash on a relative path says which folder
playtester used and how to change it."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import GAMES

from playtester.drive.inputs import InputFrame
from playtester.drive.spec import resolve
from playtester.drive.workdir import project_root

REPO = GAMES / "repo_layout"


def play(worker_for, spec, steps=3):
    w = worker_for(spec, capture=None)
    obs = w.reset(seed=0)
    for _ in range(steps):
        if obs.done:
            break
        obs = w.step(InputFrame.make(keys=["RIGHT"]))
    return obs


def test_project_root_is_the_folder_its_relative_paths_exist_in(tmp_path):
    assert project_root(REPO / "src" / "main.py") == REPO.resolve()
    # the same layout where the assets sit beside the entry: the entry's folder
    copy = tmp_path / "game"
    shutil.copytree(REPO, copy)
    shutil.move(copy / "assets", copy / "src" / "assets")
    assert project_root(copy / "src" / "main.py") == (copy / "src").resolve()
    # no project marker above the entry's folder: the entry's folder alone
    lone = tmp_path / "lone" / "src"
    lone.mkdir(parents=True)
    (lone / "main.py").write_text("open('assets/x.txt')\n")
    (lone.parent / "assets").mkdir()
    (lone.parent / "assets" / "x.txt").write_text("x")
    assert project_root(lone / "main.py") == lone.resolve()


def test_a_repository_game_runs_from_its_root_with_src_on_sys_path(worker_for):
    spec = resolve(f"{REPO}/src/main.py:main")
    assert spec.workdir == str(REPO.resolve()) and spec.root == str((REPO / "src").resolve())
    obs = play(worker_for, spec)
    assert not obs.done, obs.info.get("exit")


def test_a_folder_whose_entry_is_src_main_runs_like_python_src_main(worker_for, tmp_path):
    copy = tmp_path / "game"
    shutil.copytree(REPO, copy)
    (copy / "playtester.toml").write_text('entry = "src/main.py:main"\n')
    spec = resolve(str(copy))
    assert spec.workdir == str(copy.resolve()) and spec.root == str((copy / "src").resolve())
    assert not play(worker_for, spec).done


def test_cwd_in_the_config_overrides_and_a_crash_on_a_relative_path_says_where_and_how(worker_for, tmp_path):
    config = tmp_path / "playtester.toml"
    config.write_text(f'cwd = "{REPO / "src"}"\n')
    spec = resolve(f"{REPO}/src/main.py:main", config=config)
    assert spec.workdir == str((REPO / "src").resolve())
    obs = play(worker_for, spec)
    exit = obs.info["exit"]
    assert obs.done and exit.kind == "exception" and exit.exc_type == "FileNotFoundError"
    assert f"playtester ran the game in {(REPO / 'src').resolve()}" in exit.message and "cwd =" in exit.message
    config.write_text('cwd = "nowhere"\n')
    try:
        resolve(f"{REPO}/src/main.py:main", config=config)
    except Exception as e:  # noqa: BLE001
        assert "cwd 'nowhere' is no folder" in str(e) and type(e).__name__ == "GameSpecError"
    else:
        raise AssertionError("a cwd that is no folder must be refused")


def test_game_files_of_the_relative_path_hint_are_not_in_the_signature(worker_for, tmp_path):
    """The hint is in the message only: the bug's identity (type and frames) is the game's."""
    config = tmp_path / "playtester.toml"
    config.write_text(f'cwd = "{REPO / "src"}"\n')
    exit = play(worker_for, resolve(f"{REPO}/src/main.py:main", config=config)).info["exit"]
    assert exit.frames and Path(exit.frames[-1].file).name == "main.py"
    # the traceback a person reads starts in the game, not in playtester's episode body (issue 54)
    first = next(line for line in exit.traceback.splitlines() if line.strip().startswith("File "))
    assert "main.py" in first and "pygame_driver" not in exit.traceback, exit.traceback


def test_a_game_folder_with_modules_named_like_playtesters_dependencies_does_not_break_it(tmp_path):
    """A game that ships its own old `yaml` package, run from its folder: playtester's worker must not import it
    in place of PyYAML (issue 54: cabbages-and-kings crashed playtester, exit 3, before step 1)."""
    import subprocess
    import sys

    game = tmp_path / "game"
    shutil.copytree(REPO, game)
    (game / "yaml").mkdir()
    (game / "yaml" / "__init__.py").write_text("from error import *  # Python 2 PyYAML, as a game shipped it\n")
    cli = Path(sys.executable).parent / "playtester"
    res = subprocess.run([str(cli), "run", "src/main.py:main", "--steps", "10"], cwd=game, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
