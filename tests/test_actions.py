"""Blind and manual action spaces."""

from __future__ import annotations

import pytest

from playtester.actions.blind import COMMON_KEYS, blind_space
from playtester.actions.manual import load_manual
from playtester.actions.space import ActionContext
from playtester.drive.inputs import InputFrame, key_code
from playtester.errors import ConfigError


def test_blind_space_matches_the_paper():
    space = blind_space()
    assert len(COMMON_KEYS) == 66
    assert len(space) == 66 * 2 + 3 * 2 + 16
    assert space.kind == "blind"


def test_blind_blacklist_removes_both_press_and_release():
    space = blind_space(["ESCAPE", "F11"])
    assert len(space) == 64 * 2 + 3 * 2 + 16
    assert not any("ESCAPE" in n for n in space.names)


def test_press_and_release_accumulate_held_keys():
    space = blind_space()
    ctx = ActionContext(screen_size=(400, 200))
    ctx.held, _ = space.perform(space.names.index("press LEFT"), ctx)
    ctx.held, _ = space.perform(space.names.index("press SPACE"), ctx)
    assert ctx.held.keys == {key_code("LEFT"), key_code("SPACE")}
    ctx.held, _ = space.perform(space.names.index("release LEFT"), ctx)
    assert ctx.held.keys == {key_code("SPACE")}
    ctx.held, _ = space.perform(space.names.index("mouse to cell 3,1"), ctx)
    assert ctx.held.mouse_pos == (350, 75) and ctx.held.keys == {key_code("SPACE")}


def test_manual_space_loads_every_input_kind(tmp_path):
    f = tmp_path / "a.yaml"
    f.write_text("""
version: 1
actions:
  - name: jump right
    keys: [RIGHT, SPACE]
  - name: fire
    keys: [f]
    frames: 2
    when: "ammo > 0"
  - name: click
    mouse: [10, 20]
    buttons: [left]
  - name: stick
    axes: {"0.0": -1.0}
    joy_buttons: ["0.3"]
    hats: {"0.0": [1, 0]}
""")
    space = load_manual(f)
    assert space.names == ["jump right", "fire", "click", "stick"]
    frame, hold = space.perform(1, ActionContext())
    assert frame.keys == {key_code("f")} and hold == 2
    assert space.mask(ActionContext(features={"ammo": 0})).tolist() == [1, 0, 1, 1]
    assert space.mask(ActionContext(features={"ammo": 3})).tolist() == [1, 1, 1, 1]
    stick, _ = space.perform(3, ActionContext())
    assert stick == InputFrame.make(axes={(0, 0): -1.0}, joy_buttons=[(0, 3)], hats={(0, 0): (1, 0)})


@pytest.mark.parametrize("body,expected", [
    ("version: 1\nactions:\n  - name: a\n    keys: [LEFT]\n  - name: b\n    keys: [LFET]\n",
     r"a.yaml:6: field 'actions\[1\] \('b'\)\.keys': unknown key name 'LFET'"),
    ("version: 1\nactions:\n  - name: a\n    keyz: [LEFT]\n", r"a.yaml:4: field 'actions\[0\] \('a'\)\.keyz': unknown field 'keyz'; did you mean 'keys'\?"),
    ("version: 1\nactions:\n  - name: a\n    when: 'import os'\n", r"a.yaml:4: field 'actions\[0\] \('a'\)\.when'"),
    ("version: 1\nactions:\n  - name: a\n  - name: a\n", r"duplicate action name 'a'"),
    ("version: 2\nactions:\n  - name: a\n", r"schema version 2 is not supported"),
    ("actions: [\n", r"not valid YAML"),
    ("version: 1\nactions:\n  - name: a\n    axes: {'0.0': 3}\n", r"outside \[-1, 1\]"),
])
def test_manual_space_errors_name_file_entry_line_and_field(tmp_path, body, expected):
    f = tmp_path / "a.yaml"
    f.write_text(body)
    with pytest.raises(ConfigError, match=expected):
        load_manual(f)


def test_manual_space_blacklist_drops_actions_with_a_warning(tmp_path):
    f = tmp_path / "a.yaml"
    f.write_text("version: 1\nactions:\n  - name: quit\n    keys: [ESCAPE]\n  - name: go\n    keys: [UP]\n")
    space = load_manual(f, blacklist=["ESCAPE"])
    assert space.names == ["go"] and "quit" in space.warnings[0]


def test_a_trace_names_a_bundled_games_space_file_the_same_in_every_clone(tmp_path):
    import json
    from pathlib import Path

    from playtester.actions.space import space_to_dict
    from playtester.drive.spec import resolve
    from playtester.env import resolve_space

    data = space_to_dict(resolve_space(resolve("combat"), "default"))
    assert data["source"] == "playtester/games/combat.actions.yaml"  # not this checkout's absolute path
    own = tmp_path / "mine.actions.yaml"
    own.write_text("actions:\n  - {name: jump, keys: [SPACE]}\n")
    assert space_to_dict(load_manual(str(own)))["source"] == str(own)  # a user's file: as given
    # the committed demonstrations and traces carry no path of the machine that recorded them
    root = Path(__file__).resolve().parents[1] / "bench" / "data"
    spaces = [json.loads(p.read_text()).get("space") for p in root.rglob("*.json")]
    spaces = [s for s in spaces if isinstance(s, dict)]
    assert len(spaces) > 100 and not [s["source"] for s in spaces if str(s.get("source") or "").startswith("/")]
