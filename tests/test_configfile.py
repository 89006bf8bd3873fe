"""The one config loader: every config file kind reports every error as FILE:LINE: field '...': message,
with "did you mean" for misspelt fields, and syntax errors name their line."""

from __future__ import annotations

import textwrap

import pytest
from pydantic import BaseModel, ConfigDict

from playtester import configfile
from playtester.actions.manual import load_manual
from playtester.drive.spec import GameConfig, load_config, resolve
from playtester.errors import ConfigError
from playtester.plans.schema import load_config as load_plan_config
from playtester.plans.schema import load_plan


def write(path, text):
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def error_of(fn, *args, **kwargs) -> str:
    with pytest.raises(ConfigError) as e:
        fn(*args, **kwargs)
    return str(e.value)


# ------------------------------------------------------------------------------------- game config TOML
def test_game_config_toml_lists_every_error_with_its_line(tmp_path):
    path = write(tmp_path / "playtester.toml", """
        # a game
        entry = "game.py:main"
        fpss = 30

        [[init]]
        keys = ["RETURN"]

        [[init]]
        keys = ["SPACE"]
        frames = 0

        [oracles]
        stuck_step = 3
        """)
    lines = error_of(load_config, path).splitlines()
    assert lines == [
        f"{path}:3: field 'fpss': unknown field 'fpss'; did you mean 'fps'?",
        f"{path}:10: field 'init[1].frames': Input should be greater than or equal to 1 (got 0)",
    ]  # the [oracles] table is the oracles' to check (tests/test_oracles.py)


def test_game_config_inline_tables_and_multiline_arrays_map_to_their_lines(tmp_path):
    path = write(tmp_path / "playtester.toml", """
        fps = 30
        init = [
          {keys = ["RETURN"]},
          {keys = ["SPACE"], frame = 2},
        ]
        oracles = {enabled = ["crash"], stuck_steps = 1}
        """)
    msg = error_of(load_config, path)
    assert f"{path}:4: field 'init[1].frame': unknown field 'frame'; did you mean 'frames'?" in msg


def test_game_config_found_beside_a_game_reports_line_through_resolve(tmp_path):
    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    write(tmp_path / "playtester.toml", """
        frames_per_action = 4
        done_evnets = ["win"]
        """)
    msg = error_of(resolve, str(tmp_path / "game.py"))
    assert msg == (f"{tmp_path / 'playtester.toml'}:2: field 'done_evnets': unknown field 'done_evnets'; "
                   "did you mean 'done_events'?")


def test_game_config_without_a_close_name_lists_the_known_fields(tmp_path):
    path = write(tmp_path / "playtester.toml", "zzzzqqq = 1\n")
    msg = error_of(load_config, path)
    assert msg.startswith(f"{path}:1: field 'zzzzqqq': unknown field 'zzzzqqq'; known fields: entry, ")
    assert "frames_per_action" in msg


def test_game_config_forbids_unknown_fields():
    assert GameConfig.model_config.get("extra") == "forbid"


def test_toml_syntax_error_names_its_line(tmp_path):
    path = write(tmp_path / "playtester.toml", """
        fps = 30
        frames_per_action = 4
        done_when = hp <= 0
        """)
    msg = error_of(load_config, path)
    assert msg.startswith(f"{path}:3: not valid TOML, column 13: Invalid value"), msg
    assert "strings need quotes" in msg


def test_toml_syntax_error_at_end_of_file_names_the_last_line(tmp_path):
    path = write(tmp_path / "playtester.toml", "fps = 30\nframes_per_action = [\n")
    assert error_of(load_config, path).startswith(f"{path}:2: not valid TOML (at the end of the file)")


def test_config_override_suggests_a_close_name(tmp_path):
    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    msg = error_of(resolve, str(tmp_path / "game.py"), fpss=3)
    assert msg == "config override: field 'fpss': unknown field 'fpss'; did you mean 'fps'?"


# ------------------------------------------------------------------------------------ pyproject table
PYPROJECT = """
    [project]
    name = "mygame"
    version = "0.1"

    [tool.ruff]
    line-length = 100

    [tool.playtester]
    entry = "game.py:main"
    frames_per_action = 0
    blacklisst = ["ESCAPE"]

    [tool.playtester.oracles]
    enabled = ["crash", "hangs"]
    """


def test_pyproject_table_errors_name_the_line_in_the_pyproject(tmp_path):
    path = write(tmp_path / "pyproject.toml", PYPROJECT)
    assert error_of(load_config, path, "tool.playtester").splitlines() == [
        f"{path}:10: field 'tool.playtester.frames_per_action': Input should be greater than or equal to 1 "
        "(got 0)",
        f"{path}:11: field 'tool.playtester.blacklisst': unknown field 'blacklisst'; did you mean 'blacklist'?",
    ]


def test_pyproject_found_beside_a_game_folder(tmp_path):
    (tmp_path / "game.py").write_text("def main():\n    pass\n")
    write(tmp_path / "pyproject.toml", PYPROJECT)
    msg = error_of(resolve, str(tmp_path))
    assert f"{tmp_path / 'pyproject.toml'}:11: field 'tool.playtester.blacklisst'" in msg
    assert "did you mean 'blacklist'?" in msg


def test_pyproject_without_the_table_is_the_default_config(tmp_path):
    path = write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    assert load_config(path, "tool.playtester") == GameConfig()


def test_pyproject_table_that_is_not_a_table_names_its_line(tmp_path):
    path = write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n[tool]\nplaytester = 3\n')
    msg = error_of(load_config, path, "tool.playtester")
    assert msg.startswith(f"{path}:4: field 'tool.playtester': expected a table"), msg


# ------------------------------------------------------------------------------ manual action space YAML
def test_manual_space_lists_every_error_with_the_line_of_the_field(tmp_path):
    path = write(tmp_path / "a.yaml", """
        version: 1
        actions:
          - name: left
            keys: [LEFT]
            frames: 0
          - name: jump
            keyz: [SPACE]
          - name: fire
            keys: [LFET]
        """)
    lines = error_of(load_manual, path).splitlines()
    assert lines[0] == f"{path}:5: field 'actions[0] ('left').frames': Input should be greater than or equal to 1 (got 0)"
    assert lines[1] == f"{path}:7: field 'actions[1] ('jump').keyz': unknown field 'keyz'; did you mean 'keys'?"
    assert lines[2].startswith(f"{path}:9: field 'actions[2] ('fire').keys': unknown key name 'LFET'")
    assert len(lines) == 3


def test_manual_space_typo_at_top_level_and_duplicate_names(tmp_path):
    path = write(tmp_path / "a.yaml", "version: 1\nactoins:\n  - name: a\n")
    msg = error_of(load_manual, path)
    assert f"{path}:2: field 'actoins': unknown field 'actoins'; did you mean 'actions'?" in msg
    assert f"{path}:1: field 'actions': Field required" in msg  # missing: the line of its parent (the file)
    path = write(tmp_path / "b.yaml", "version: 1\nactions:\n  - name: a\n  - {keys: [UP], name: a}\n")
    assert error_of(load_manual, path).startswith(f"{path}:4: field 'actions[1] ('a').name': duplicate action name")


def test_yaml_syntax_error_names_its_line(tmp_path):
    path = write(tmp_path / "a.yaml", """
        version: 1
        actions:
          - name: a
            keys: [LEFT
          - name: b
        """)
    msg = error_of(load_manual, path)
    assert msg.startswith(f"{path}:5: not valid YAML"), msg
    assert "(while parsing a flow sequence that starts at line 4)" in msg
    assert "unclosed bracket" in msg


def test_manual_space_that_is_not_a_mapping(tmp_path):
    path = write(tmp_path / "a.yaml", "- name: a\n")
    assert error_of(load_manual, path).startswith(f"{path}:1: a manual action space is a mapping (version, actions)")


# ------------------------------------------------------------------------------------------- plan YAML
def test_plan_nested_typo_suggests_the_field_of_that_level(tmp_path):
    path = write(tmp_path / "p.plan.yaml", """
        version: 1
        nodes:
          - actor: switch
            action: interact
        rules:
          - name: fight
            when: {actor: enemy, withn: 3}
            action: attack
        """)
    msg = error_of(load_plan, path)
    assert msg == (f"{path}:7: field 'rules[0] ('fight').when.withn': unknown field 'withn'; "
                   "did you mean 'within'?")


def test_plan_lists_every_error(tmp_path):
    path = write(tmp_path / "p.plan.yaml", """
        version: 1
        navigation: fly
        nodes:
          - actor: switch
            tolerance: -1
          - at: [1, 2]
            wiat: 3
        """)
    lines = error_of(load_plan, path).splitlines()
    assert lines == [
        f"{path}:2: field 'navigation': Input should be 'teleport', 'path' or 'learned' (got 'fly')",
        f"{path}:5: field 'nodes[0] ('switch').tolerance': Input should be greater than or equal to 0 (got -1)",
        f"{path}:7: field 'nodes[1].wiat': unknown field 'wiat'; did you mean 'wait' or 'at'?",
    ]


def test_plan_config_typo_inside_a_dict_of_models_suggests_the_field(tmp_path):
    path = write(tmp_path / "cfg.yaml", """
        version: 1
        controls:
          up: {keys: [UP]}
          idle: {}
          jump:
            keyz: [SPACE]
        """)
    msg = error_of(load_plan_config, path)
    assert f"{path}:6: field 'controls.jump.keyz': unknown field 'keyz'; did you mean 'keys'?" in msg


# ------------------------------------------------------------------------------------ the module itself
class Inner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    x: int
    y: int


class Outer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    a: Inner
    items: list[Inner] = []


def test_missing_field_falls_back_to_the_line_of_its_parent(tmp_path):
    path = write(tmp_path / "c.toml", "# top\n\n[a]\nx = 1\n\n[[items]]\nx = 1\ny = 2\n[[items]]\ny = 'no'\n")
    lines = error_of(configfile.load, path, Outer).splitlines()
    assert lines == [
        f"{path}:3: field 'a.y': Field required (add 'y')",
        f"{path}:9: field 'items[1].x': Field required (add 'x')",
        f"{path}:10: field 'items[1].y': Input should be a valid integer, unable to parse string as an integer "
        "(got 'no')",
    ]


def test_yaml_and_toml_by_suffix_and_kind(tmp_path):
    assert configfile.load(write(tmp_path / "c.yaml", "a: {x: 1, y: 2}\n"), Outer).a.y == 2
    assert configfile.load(write(tmp_path / "c.toml", "a = {x = 1, y = 2}\n"), Outer).a.y == 2
    assert configfile.load(write(tmp_path / "c.cfg", "[a]\nx = 1\ny = 3\n"), Outer, kind="toml").a.y == 3
    assert "cannot read" in error_of(configfile.load, tmp_path / "missing.toml", Outer)


def test_toml_scanner_maps_paths_to_lines():
    text = textwrap.dedent('''
        title = "x"  # comment
        [tool.playtester]
        s = """not
        [a.header]
        """
        point.x = 1
        'quoted.key' = 2
        [[fruits]]
        name = "a"
        [[fruits.v]]
        x = 1
        [[fruits]]
        [[fruits.v]]
        [[fruits.v]]
        when = 1979-05-27 07:32:00Z
        list = [
          1,
          {k = 2},
        ]
        ''').lstrip("\n")
    lines = configfile.toml_lines(text)
    assert lines[("title",)] == 1
    assert lines[("tool", "playtester")] == 2
    assert ("a", "header") not in lines and ("a",) not in lines
    assert lines[("tool", "playtester", "point", "x")] == 6
    assert lines[("tool", "playtester", "quoted.key")] == 7
    assert lines[("fruits", 0, "name")] == 9
    assert lines[("fruits", 0, "v", 0, "x")] == 11
    assert lines[("fruits", 1)] == 12
    assert lines[("fruits", 1, "v", 1)] == 14
    assert lines[("fruits", 1, "v", 1, "when")] == 15
    assert lines[("fruits", 1, "v", 1, "list", 1, "k")] == 18
