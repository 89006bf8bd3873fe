"""Action-space analysis of player input reached through pygame's sprite groups (``GroupSingle.update()``, a
custom group's own ``update()``, pygame's ``update()`` inherited by a game's group, ``for s in group``,
``group.sprites()``), and of click targets smaller than the 4x4 grid of mouse cells (buttons and board cells
tested with ``rect.collidepoint``). Fixtures: ``tests/fixtures/games/sprite_input.py`` and ``click_targets.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_analysis import cross_check, names  # tests/analysis is on sys.path (rootdir-relative import)

from playtester.analysis import analyze
from playtester.drive.inputs import key_code
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker

GAMES = Path(__file__).parents[1] / "fixtures" / "games"


def spec(file: str, fn: str):
    return resolve(f"{GAMES / file}:{fn}", frames_per_action=1)


def keys_of(a) -> set[int]:
    return {k for x in a.paths for k in x["sample_inputs"].keys}


@pytest.mark.parametrize("fn", ["group_single", "camera_group", "ysort_group"])
def test_player_sprite_updated_through_a_group(fn):
    """``level.run()`` -> ``self.player.update()`` on a GroupSingle (pygame's update calls the sprite's, so the
    recorded call graph must see through pygame's frames), a CameraGroup overriding ``update()`` with ``for s in
    self.sprites(): s.update()``, and a YSortCameraGroup whose ``update()`` is pygame's: the moves and the shot are
    found, the shot valid only while the live player's cooldown is 0, and each action takes its path."""
    s = spec("sprite_input.py", fn)
    a = analyze(s)
    assert {key_code("LEFT"), key_code("RIGHT"), key_code("SPACE")} <= keys_of(a), names(a)
    assert "Player.update" in a.result["stats"]["inlined"]
    fire = [x for x in a.paths if key_code("SPACE") in x["sample_inputs"].keys]
    assert fire and all(".cooldown" in x["p_g"] + x["p_i"] for x in fire), [x["p_g"] for x in fire]
    assert not any(x["p_i"] and "u:" in x["p_i"] for x in a.paths), "a condition on an unknown self"
    assert cross_check(s, a) >= 3


def test_for_sprite_in_group_dispatches_to_each_sprite_class():
    """``for sprite in things: sprite.handle(event)``: each sprite class in the live group handles the event
    (a Ship moves up and down, Rocks ignore it), with ``self`` a live instance: UP is valid only while the ship's
    top is on screen, and no "loop over a game collection" is left unsupported."""
    s = spec("sprite_input.py", "iterate_group")
    a = analyze(s)
    assert not a.result["unsupported"], a.result["unsupported"]
    events = {x["event"] for x in a.paths}
    assert {"KeyDown(up)", "KeyDown(down)"} <= events, names(a)
    up = next(x for x in a.paths if x["event"] == "KeyDown(up)")
    assert "rect.top" in up["p_g"] + up["p_i"]
    assert {"Ship.handle", "Rock.handle"} <= set(a.result["stats"]["inlined"])
    assert cross_check(s, a) >= 2


def test_group_sprites_list_reaches_a_sprite_added_after_the_start():
    """``for unit in units.sprites(): unit.control(keys)``, the Tank joining the group at frame 3: its keys are
    found, turning left valid only with fuel left (the live tank's field), and performing them turns it."""
    s = spec("sprite_input.py", "sprites_list")
    a = analyze(s)
    assert {key_code("a"), key_code("d")} <= keys_of(a), names(a)
    left = [x for x in a.paths if key_code("a") in x["sample_inputs"].keys]
    assert left and all(".fuel" in x["p_g"] + x["p_i"] for x in left), [x["p_g"] for x in left]
    assert cross_check(s, a, ready="units") >= 2


def _performed(s, a, event: str) -> list[list[dict]]:
    """Perform each action once from the start; the data of the ``event`` probe events each one made."""
    out = []
    with Worker(s, space=a.space(paths=True), capture=None) as w:
        for i in range(len(a.paths)):
            obs = w.reset(seed=0)
            if not obs.action_mask[i]:
                out.append([])
                continue
            obs = w.act(i, frames=1)
            out.append([e.data for e in obs.events if e.name == event])
    return out


def test_each_small_menu_button_gets_a_click_inside_it():
    """Four 60x20 buttons in a list, two in one grid cell and two across the grid's lines: the loop over the
    live list tests each button's rect, so some action clicks inside each of them, and an action clicking one
    never clicks another."""
    s = spec("click_targets.py", "menu")
    a = analyze(s)
    hits = _performed(s, a, "button")
    assert all(len(h) <= 1 for h in hits), hits
    assert {h[0]["name"] for h in hits if h} == {"new", "load", "options", "credits"}, names(a)


def test_every_cell_of_an_8x8_board_is_a_click_target():
    """An 8x8 board of 30x30 cells (64 targets, 16 grid cells): the cells' own rects give the points to click,
    and performing the actions reveals every cell of the board."""
    s = spec("click_targets.py", "board")
    a = analyze(s)
    assert not a.result.get("partial"), a.result.get("partial")
    hits = _performed(s, a, "cell")
    assert all(len(h) <= 1 for h in hits), hits
    cells = {(h[0]["col"], h[0]["row"]) for h in hits if h}
    assert cells == {(c, r) for c in range(8) for r in range(8)}, sorted(cells)


def test_the_sample_click_of_a_button_action_lands_on_the_live_button():
    """An action's sample inputs (what the analysis' exploring plays, what ``--json`` exports) are solved under the
    game's values at analysis time first: a click that a path needs inside a button is inside that button, not at
    the corner of its grid cell (pacman-chasing-game's level buttons were never hit while exploring, so its play
    state and its WASD were never analysed)."""
    import pygame

    s = spec("click_targets.py", "menu")
    a = analyze(s)
    rects = [pygame.Rect(4, 4, 60, 20), pygame.Rect(4, 30, 60, 20), pygame.Rect(130, 110, 60, 20),
             pygame.Rect(230, 170, 60, 20)]
    inside = {i for i, r in enumerate(rects) for x in a.actions
              if x["sample_inputs"].mouse_buttons and x["sample_inputs"].mouse_pos is not None
              and r.collidepoint(x["sample_inputs"].mouse_pos)}
    assert inside == {0, 1, 2, 3}, sorted((x["name"], x["sample_inputs"].mouse_pos) for x in a.actions)
