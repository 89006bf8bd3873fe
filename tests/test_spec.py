"""Game specs and playtester.toml: every form resolves, every mistake is a clear error."""

from __future__ import annotations

import pytest
from conftest import GAMES

from playtester.drive.spec import bundled_games, resolve
from playtester.errors import ConfigError, GameSpecError


def test_bundled_games_resolve_with_their_config():
    assert {"blockmaze", "platformer"} <= set(bundled_games())
    spec = resolve("blockmaze")
    assert spec.kind == "module" and spec.target == "playtester.games.blockmaze" and spec.function == "main"
    assert spec.config.actions and "win" in spec.config.done_events


def test_module_file_and_gym_specs():
    assert resolve("pygame.examples.aliens:main").target == "pygame.examples.aliens"
    spec = resolve(f"{GAMES / 'raise_at.py'}:main")
    assert spec.kind == "file" and spec.function == "main" and spec.root == str(GAMES)
    assert resolve(str(GAMES / "at_import.py")).function is None
    assert resolve("gym:CartPole-v1").kind == "gym"


def test_folder_with_playtester_toml(tmp_path):
    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    (tmp_path / "playtester.toml").write_text('entry = "game.py:main"\nframes_per_action = 4\n')
    spec = resolve(str(tmp_path))
    assert spec.kind == "file" and spec.function == "main" and spec.config.frames_per_action == 4


def test_pyproject_tool_table_is_read(tmp_path):
    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    (tmp_path / "pyproject.toml").write_text('[tool.playtester]\nblacklist = ["q"]\n')
    assert resolve(str(tmp_path / "game.py")).config.blacklist == ["q"]


@pytest.mark.parametrize("text,expected", [
    ("no_such_game_xyz", "no bundled game, file or importable module named 'no_such_game_xyz'"),
    ("missing/dir/game.py", "does not exist"),
    ("gym:", "names no Gymnasium id"),
    ("", "empty game spec"),
    ("1bad name", "neither a bundled game"),
])
def test_specs_that_do_not_resolve(text, expected):
    with pytest.raises(GameSpecError, match=expected):
        resolve(text)


def test_bad_config_names_file_and_field(tmp_path):
    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    (tmp_path / "playtester.toml").write_text("frames_per_action = 0\nfpss = 3\n")
    with pytest.raises(ConfigError, match=r"playtester.toml:1: field 'frames_per_action'.*\n.*playtester.toml:2: field 'fpss'.*did you mean 'fps'"):
        resolve(str(tmp_path / "game.py"))
    (tmp_path / "playtester.toml").write_text("frames_per_action = [\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        resolve(str(tmp_path / "game.py"))
    (tmp_path / "playtester.toml").write_text("done_when = 'hp <= 0 and __import__(\"os\")'\n")
    with pytest.raises(ConfigError, match="done_when"):
        resolve(str(tmp_path / "game.py"))


def test_feature_ranges_are_checked_and_cut_coverage_into_buckets(tmp_path):
    from playtester.campaign import choose_abstraction
    from playtester.drive.observation import Observation

    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    from playtester.coverage.settings import coverage_settings

    (tmp_path / "playtester.toml").write_text("[coverage]\nfeature_ranges = { hp = [100, 0] }\n")
    with pytest.raises(ConfigError, match="playtester.toml:2: field 'coverage.feature_ranges': "
                       "feature range of 'hp' must have its high above its low"):
        coverage_settings(resolve(str(tmp_path / "game.py")))
    (tmp_path / "playtester.toml").write_text("feature_ranges = { hp = [0, 100] }\nfeature_buckets = 4\n")
    cfg = coverage_settings(resolve(str(tmp_path / "game.py")))  # top-level keys of old configs still count
    a = choose_abstraction("auto", Observation(frame=None, features={"hp": 0.0, "x": 3.0}), None, cfg.feature_ranges,
                           cfg.feature_buckets)
    key = {hp: a.key(Observation(frame=None, features={"hp": hp, "x": 3.4})) for hp in (10.0, 20.0, 30.0, 99.0)}
    assert key[10.0] == key[20.0] != key[30.0] != key[99.0]  # 4 buckets of 25 hp; x is rounded
    assert dict(key[99.0]) == {"hp": 3, "x": 3}


def test_package_game_resolves_as_python_m_would(monkeypatch, tmp_path):
    """A package game (``python -m pkg_game``, entry ``pkg_game.cli:main``) from the folder that holds it, by
    module, by entry point and by its folder; each runs in that folder, which goes on sys.path."""
    from playtester.drive.worker import code_include_patterns

    monkeypatch.chdir(GAMES)
    for text, function in [("pkg_game", None), ("pkg_game.cli:main", "main")]:
        spec = resolve(text)
        assert (spec.kind, spec.function, spec.root) == ("module", function, str(GAMES)), text
        assert code_include_patterns(spec) == [str(GAMES / "pkg_game" / "*")]
    monkeypatch.chdir(tmp_path)  # a folder path works from anywhere, "." from inside the package too
    for text in [str(GAMES / "pkg_game"), str(GAMES / "pkg_game") + "/"]:
        spec = resolve(text)
        assert (spec.kind, spec.target, spec.function, spec.root) == ("module", "pkg_game", None, str(GAMES))
    monkeypatch.chdir(GAMES / "pkg_game")
    assert resolve(".").root == str(GAMES)


def test_folder_with_main_but_no_package_runs_like_python_folder(tmp_path):
    (tmp_path / "my-game").mkdir()
    (tmp_path / "my-game" / "__main__.py").write_text("import engine\nengine.run()\n")
    spec = resolve(str(tmp_path / "my-game"))
    assert spec.kind == "file" and spec.target.endswith("__main__.py") and spec.root == str(tmp_path / "my-game")


def test_module_found_in_the_current_folder_gets_it_as_root_and_its_config(monkeypatch, tmp_path):
    (tmp_path / "snake.py").write_text("def main():\n    pass\n")
    (tmp_path / "playtester.toml").write_text("frames_per_action = 3\n")
    monkeypatch.chdir(tmp_path)
    spec = resolve("snake:main")
    assert (spec.kind, spec.target, spec.root, spec.config.frames_per_action) == ("module", "snake", str(tmp_path), 3)
    # installed modules keep running from wherever playtester runs
    assert resolve("pygame.examples.aliens:main").root is None


def test_module_that_does_not_resolve_says_what_was_tried_and_how_to_fix_it(monkeypatch):
    monkeypatch.chdir(GAMES.parent)
    with pytest.raises(GameSpecError) as e:
        resolve("pkg_game.cli:main")
    msg = str(e.value)
    assert f"{GAMES.parent}/pkg_game/cli.py" in msg and "installed" in msg
    assert "Run playtester from the folder that holds 'pkg_game'" in msg and "pip install -e ." in msg
    monkeypatch.chdir(GAMES)
    with pytest.raises(GameSpecError, match=r"pkg_game exists, but has no module 'clii'"):
        resolve("pkg_game.clii:main")


def test_folder_without_main_or_entry_says_how_to_fix_it(tmp_path):
    with pytest.raises(GameSpecError, match=r"no __main__.py and no playtester.toml with an 'entry'"):
        resolve(str(tmp_path))
    (tmp_path / "playtester.toml").write_text('entry = "game.nope:main"\n')
    with pytest.raises(GameSpecError, match=r"entry 'game.nope:main': no bundled game.*'game.nope'"):
        resolve(str(tmp_path))


def test_silent_audio_is_a_config_field(tmp_path):
    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    assert resolve(str(tmp_path / "game.py")).config.silent_audio is None
    (tmp_path / "playtester.toml").write_text("silent_audio = false\n")
    assert resolve(str(tmp_path / "game.py")).config.silent_audio is False
    assert resolve(str(tmp_path / "game.py"), silent_audio=True).config.silent_audio is True
