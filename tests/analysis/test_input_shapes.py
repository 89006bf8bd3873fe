"""Issue 55, round four: input shapes of real games. Each fixture game under ``tests/fixtures/games/input_shapes``
fails on the method before it."""

from __future__ import annotations

from pathlib import Path

import pygame

from playtester.actions.space import ActionContext
from playtester.analysis import analyze
from playtester.analysis.space import FALLBACK_PREFIX
from playtester.drive.inputs import InputFrame
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker

GAMES = Path(__file__).parents[1] / "fixtures" / "games" / "input_shapes"


def test_a_mouse_only_game_gets_clicks_as_its_blind_fallback_and_no_keys():
    """A game that reads the mouse only, with an input loop no run reaches (its bonus screen): the blind fallback
    for that loop is 16 left clicks over the 4x4 grid and no key. Before: the 66 common keys' press and release
    and the mouse's 22 actions (150 blind actions in a space whose game no key can touch)."""
    a = analyze(resolve(f"{GAMES / 'mouse_only.py'}:main"))
    assert a.result["unanalysed"] == ["mouse_only.py:12"]
    assert a.result["named_inputs"] == {"keys": [], "mouse": True}
    space = a.space()
    blind = [x for x in space.actions if x.name.startswith(FALLBACK_PREFIX)]
    assert len(blind) == 16 and all(not x.inputs.keys for x in blind), [x.name for x in blind]
    assert not any(x.inputs.keys for x in space.actions)
    # a fallback action is a click: the move to its cell's centre and the left button, for the first frame only
    click = next(x for x in blind if x.cell[:2] == (1, 2))
    ctx = ActionContext(held=InputFrame(mouse_pos=(5, 5)), screen_size=(320, 240))
    assert click.perform(ctx) == InputFrame(mouse_pos=(120, 150), mouse_buttons=frozenset({1}))
    assert click.hold_frames == 1


def test_the_fallback_of_a_game_that_waits_for_any_key_keeps_keys(tmp_path):
    """A game that reads key events without naming a key ("press any key") keeps the common keys; one that names
    keys gets those; one that reads none gets none."""
    from playtester.analysis.live import named_inputs

    anykey = tmp_path / "anykey.py"
    anykey.write_text("import pygame\ndef f(e):\n    return e.type == pygame.KEYDOWN\n")
    mouse = tmp_path / "mouse.py"
    mouse.write_text("import pygame\ndef f(e, r):\n    return e.type == pygame.MOUSEBUTTONDOWN and r.collidepoint(e.pos)\n")
    assert named_inputs({str(anykey)}, pygame)["keys"] is None
    assert named_inputs({str(mouse)}, pygame) == {"keys": [], "mouse": True}


def test_held_keys_tested_apart_give_each_key_and_each_pair_not_every_subset():
    """Four held keys tested in four ``if``s make 16 paths, one per subset: the actions holding three keys or more
    are unions of smaller ones and are left out (11 actions: nothing, 4 keys, 6 pairs; before, 16, a quarter of
    them holding three or four keys). Each key alone still moves the player."""
    from playtester.drive.inputs import key_code

    spec = resolve(f"{GAMES / 'held_keys.py'}:main", frames_per_action=2)
    a = analyze(spec)
    held = [x["sample_inputs"].keys for x in a.actions]
    names = {k: key_code(k) for k in ("a", "d", "w", "LSHIFT")}
    assert sorted(len(k) for k in held) == [0] + [1] * 4 + [2] * 6, [x["name"] for x in a.actions]
    assert {frozenset({c}) for c in names.values()} <= set(held)
    assert frozenset({names["LSHIFT"], names["d"]}) in held  # a run to the right stays
    right = held.index(frozenset({names["d"]}))
    with Worker(spec, space=a.space(), capture=None) as w:
        obs = w.reset(seed=0)
        obs = w.step(InputFrame(), frames=1)
        x = obs.features["x"]
        obs = w.act(right)
        assert obs.features["x"] > x


def test_a_digit_range_and_a_keypad_tuple_give_one_action_per_key():
    """``K_1 <= event.key <= K_9`` and ``event.key in (K_KP1, ..., K_KP9)``: one action per key the condition admits
    (before, one solution each: the digit 1 and KP1, so 16 of sudoku's 19 digit controls were never pressed), each
    performed takes its branch; no action but the one ``(nothing)`` presses nothing."""
    from playtester.drive.inputs import key_code

    spec = resolve(f"{GAMES / 'digits.py'}:main", frames_per_action=2)
    a = analyze(spec)
    pressed = {k for x in a.actions for k in x["sample_inputs"].keys}
    digits = {key_code(str(d)) for d in range(1, 10)}
    keypad = {getattr(pygame, f"K_KP{d}") for d in range(1, 10)}
    assert digits | keypad | {key_code("BACKSPACE")} <= pressed, [x["name"] for x in a.actions]
    assert sum(1 for x in a.actions if x["sample_inputs"] == InputFrame() and not x["event"]) == 1
    assert all(x["sample_inputs"].keys for x in a.actions if x["event"].startswith("KeyDown")), \
        [x["name"] for x in a.actions]
    seven = next(i for i, x in enumerate(a.actions) if x["sample_inputs"].keys == frozenset({pygame.K_KP7}))
    five = next(i for i, x in enumerate(a.actions) if x["sample_inputs"].keys == frozenset({key_code("5")}))
    with Worker(spec, space=a.space(), capture=None) as w:
        w.reset(seed=0)
        w.step(InputFrame(), frames=1)
        obs = w.act(seven)
        assert [e.data["branch"] for e in obs.events if e.name == "took"] == ["keypad7"]
        obs = w.act(five)
        assert [e.data["branch"] for e in obs.events if e.name == "took"] == ["digit5"]
        assert obs.features["value"] == 5


def test_events_kept_in_another_modules_global_list_are_followed_there():
    """The main loop puts the frame's events into ``events.EVENTS`` (or ``EVENTS`` imported by name) and the
    player's ``update`` in another module walks that list: LEFT and RIGHT are found and move the player. Before:
    "found no input handling in its main loop" (the list was a constant table of the other module, and by its
    bare name the player's loop over it was sliced away)."""
    from playtester.drive.inputs import key_code

    for entry in ("game.py", "game_from.py"):
        spec = resolve(f"{GAMES / 'events_global' / entry}:main", frames_per_action=2)
        a = analyze(spec)
        keys = {x["event"]: i for i, x in enumerate(a.actions)}
        assert "KeyDown(left)" in keys and "KeyDown(right)" in keys, (entry, [x["name"] for x in a.actions])
        assert a.actions[keys["KeyDown(left)"]]["sample_inputs"].keys == frozenset({key_code("LEFT")})
        with Worker(spec, space=a.space(), capture=None) as w:
            w.reset(seed=0)
            x = w.step(InputFrame(), frames=1).features["x"]
            obs = w.act(keys["KeyDown(right)"])
            assert obs.features["x"] == x + 10
            assert [e.data["branch"] for e in obs.events if e.name == "took"] == ["right"]
            obs = w.step(InputFrame(), frames=1)
            obs = w.act(keys["KeyDown(left)"])
            assert obs.features["x"] == x


def test_the_same_input_in_several_loops_is_one_action():
    """title_play_over (title -> play -> game over, three input loops): an input several loops read is one action
    holding each loop's paths (before, one action per loop: flappybird's SPACE and ``(nothing)`` three times
    each); valid where one of the running loop's paths is, and performed as that loop's path, so random play over
    the mask still passes title -> play -> game over -> play."""
    import random

    import numpy as np

    spec = resolve(str(GAMES.parent / "title_play_over" / "game.py") + ":main", frames_per_action=1)
    a = analyze(spec)
    assert len(a.result["loops"]) == 3
    inputs = [(x["event"], x["sample_inputs"]) for x in a.actions]
    assert len(inputs) == len(set(inputs)), [x["name"] for x in a.actions]
    nothing = [x for x in a.actions if x["sample_inputs"] == InputFrame() and not x["event"]]
    assert len(nothing) == 1 and {p["loop_index"] for p in nothing[0]["paths"]} == {0, 1, 2}
    assert len(a.paths) == sum(len(x["paths"]) for x in a.actions)
    rng = random.Random(0)
    trail: list[int] = []
    with Worker(spec, space=a.space(), capture=None) as w:
        obs = w.reset(seed=0)
        for _ in range(300):
            screen = obs.features.get("screen")
            if screen is None:
                obs = w.step(InputFrame(), frames=1)
                continue
            if not trail or trail[-1] != int(screen):
                trail.append(int(screen))
            if trail[:4] == [0, 1, 2, 1]:
                break
            valid = np.flatnonzero(obs.action_mask[:len(a.actions)]).tolist()
            assert valid
            obs = w.act(rng.choice(valid), frames=1)
    assert trail[:4] == [0, 1, 2, 1], trail
