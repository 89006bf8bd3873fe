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
    with pytest.raises(ConfigError, match=r"playtester.toml: field 'frames_per_action'.*\n.*field 'fpss'"):
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
    (tmp_path / "playtester.toml").write_text("feature_ranges = { hp = [100, 0] }\n")
    with pytest.raises(ConfigError, match="feature range of 'hp' must have its high above its low"):
        resolve(str(tmp_path / "game.py"))
    (tmp_path / "playtester.toml").write_text("feature_ranges = { hp = [0, 100] }\nfeature_buckets = 4\n")
    cfg = resolve(str(tmp_path / "game.py")).config
    a = choose_abstraction("auto", Observation(frame=None, features={"hp": 0.0, "x": 3.0}), None, cfg.feature_ranges,
                           cfg.feature_buckets)
    key = {hp: a.key(Observation(frame=None, features={"hp": hp, "x": 3.4})) for hp in (10.0, 20.0, 30.0, 99.0)}
    assert key[10.0] == key[20.0] != key[30.0] != key[99.0]  # 4 buckets of 25 hp; x is rounded
    assert dict(key[99.0]) == {"hp": 3, "x": 3}
