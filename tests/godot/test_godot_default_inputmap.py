"""Projects that play with Godot's default InputMap alone (`ui_left`, `ui_accept`, ...) are played, not refused
(issue 56: 4 of 7 public projects declared no [input] actions of their own); `ui_cancel` (Esc) is left out."""

from __future__ import annotations

import re
import shutil

from playtester.drive.godot import input_actions
from playtester.drive.spec import GAMES_DIR, resolve
from playtester.env import default_space


def ui_only(tmp_path):
    """Coin Hop with its own [input] actions removed and its scripts reading the default ui_* ones."""
    folder = tmp_path / "uihop"
    shutil.copytree(GAMES_DIR / "godot" / "coinhop", folder)
    text = (folder / "project.godot").read_text()
    text = re.sub(r"\[input\]\n.*?(?=\n\[|\Z)", "", text, flags=re.S)
    (folder / "project.godot").write_text(text)
    player = (folder / "player.gd").read_text()
    for mine, ui in (("move_right", "ui_right"), ("move_left", "ui_left"), ("jump", "ui_accept")):
        player = player.replace(f'"{mine}"', f'"{ui}"')
    (folder / "player.gd").write_text(player)
    main = (folder / "main.gd").read_text()
    (folder / "main.gd").write_text(main + '\n\nfunc _unhandled_input(event):\n'
                                    '\tif event.is_action_pressed("ui_cancel"):\n\t\tget_tree().quit()\n')
    return folder


def test_default_actions_the_scripts_name_are_the_declared_space(tmp_path):
    folder = ui_only(tmp_path)
    assert "[input]" not in (folder / "project.godot").read_text()
    assert input_actions(folder) == ["ui_accept", "ui_left", "ui_right"]  # ui_cancel named, left out
    assert input_actions(GAMES_DIR / "godot" / "coinhop") == ["jump", "move_left", "move_right"]  # unchanged
    names = [a.name for a in default_space(resolve(f"godot:{folder}")).actions]
    assert names[:4] == ["none", "ui_accept", "ui_left", "ui_right"] and "ui_cancel" not in " ".join(names)


def test_a_project_with_the_default_actions_alone_plays(godot, tmp_path, worker_for):
    folder = ui_only(tmp_path)
    spec = resolve(f"godot:{folder}")
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    x0 = w.reset(0).features["player_x"]
    right = [a.name for a in space.actions].index("ui_right")
    for _ in range(10):
        obs = w.act(right)
    assert obs.features["player_x"] > x0 + 20  # pressed through the add-on, read by the game as ui_right
