"""Action-space analysis of input-handling structures real games use beyond the paper's listings: events
collected into a list and handled later, handler tables and event buses, handlers named after the key
(``getattr(self, "on_" + pg.key.name(event.key))``), and games with one input loop per screen. Each
fixture reports the branch it took (``probe.event("took", ...)``) and every analysed action is performed
and checked against its path (`cross_check`)."""

from __future__ import annotations

from pathlib import Path

from test_analysis import cross_check, names  # tests/analysis is on sys.path (rootdir-relative import)

from playtester.analysis import analyze
from playtester.drive.inputs import InputFrame, key_code
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker

GAMES = Path(__file__).parents[1] / "fixtures" / "games"


def game(folder: str, **cfg):
    return resolve(f"{GAMES / folder / 'game.py'}:main", frames_per_action=1, **cfg)


def keys_of(a) -> set[int]:
    return {k for x in a.paths for k in x["sample_inputs"].keys}


def test_events_appended_to_a_list_field_and_handled_in_another_method():
    """``collect()`` appends this frame's events to ``self.pending``; ``update()`` walks the list (reading
    nothing from pygame itself) and clears it: update() reads an input-derived field, so it is inlined,
    never summarized, and the serve (valid only before the ball is served) and the moves are found."""
    spec = game("pending_events")
    a = analyze(spec)
    stats = a.result["stats"]
    assert "Game.update" in stats["inlined"] and "Game.update" not in stats["summarized"]
    assert {key_code("SPACE"), key_code("LEFT"), key_code("RIGHT")} <= keys_of(a), names(a)
    serve = next(x for x in a.paths if x["event"] == "KeyDown(space)")
    assert "served" in serve["p_g"]
    assert not a.result["unsupported"], a.result["unsupported"]  # no "loop over a game collection"
    assert cross_check(spec, a) >= 3


def test_handler_table_looked_up_with_the_event_type():
    """``self.handlers.get(event.type)`` then ``handler(event)``, and ``self.release[event.type](event)``
    guarded by ``event.type in self.release``: each bound method in the table is followed under the
    condition that the event has its type."""
    spec = game("handler_table")
    a = analyze(spec)
    assert {"Painter.on_key", "Painter.on_click", "Painter.on_key_up"} <= set(a.result["stats"]["inlined"])
    events = {x["event"] for x in a.paths}
    assert {"KeyDown(c)", "KeyDown(x)", "KeyUp(z)", "MouseButtonDown"} <= events, names(a)
    assert cross_check(spec, a) >= 4


def test_event_bus_with_listeners_subscribed_by_event_type():
    """The event-bus 2048 clone: the board subscribes its key listener, the HUD a click listener; the main
    loop only calls ``bus.emit(event)``, which calls each listener of the event's type."""
    spec = game("event_bus")
    a = analyze(spec)
    assert {"Board.on_key", "Hud.on_click"} <= set(a.result["stats"]["inlined"])
    assert {key_code(k) for k in ("LEFT", "RIGHT", "UP", "DOWN", "r")} <= keys_of(a), names(a)
    assert cross_check(spec, a) >= 5


def test_handler_named_after_the_key_or_the_event_type():
    """``getattr(self, "on_" + pg.key.name(event.key), None)`` forks once per ``on_*`` method a key can
    name (on_left, on_right, on_space); ``"on_" + event_name(type).lower()`` finds on_mousebuttondown.
    Performed, each key action runs its handler."""
    spec = game("name_dispatch")
    a = analyze(spec)
    assert not a.result["unsupported"], a.result["unsupported"]  # no "getattr with a computed name"
    want = {key_code("LEFT"): "left", key_code("RIGHT"): "right", key_code("SPACE"): "fire"}
    by_key = {}
    for i, x in enumerate(a.paths):
        if x["event"].startswith("KeyDown(") and len(x["sample_inputs"].keys) == 1:
            k = next(iter(x["sample_inputs"].keys))
            if k in want:
                by_key[k] = i
    assert set(by_key) == set(want), names(a)
    with Worker(spec, space=a.space(paths=True), capture=None) as w:
        for k, i in by_key.items():
            obs = w.reset(seed=0)
            assert obs.action_mask[i]
            got = {e.data["branch"] for e in w.act(i, frames=1).events if e.name == "took"}
            assert got == {want[k]}, (a.paths[i]["name"], got)
    assert cross_check(spec, a) >= 1  # the click (its handler tests the button)
    assert any(x["event"] == "MouseButtonDown" for x in a.paths)


def test_one_input_loop_per_screen_each_analysed_and_valid_only_while_it_runs():
    """Title (after a fade-in that reads no input; RETURN starts), play (moves and a shot, until the round's
    time is up) and game over (R plays again): every input loop the recording run and the play of the
    analysed actions reach is analysed in the game's process, once per loop, and an action is valid only
    while its loop runs. Random play over the mask passes title -> play -> game over -> play."""
    import random

    import numpy as np

    spec = game("title_play_over")
    a = analyze(spec)
    loops = [entry["loop"]["function"] for entry in a.result["loops"]]
    assert sorted(loops) == ["game_over", "play", "title_screen"], loops
    k = {f: i for i, f in enumerate(loops)}
    of_loop = {f: [i for i, x in enumerate(a.paths) if x["loop_index"] == k[f]] for f in loops}
    assert any(a.paths[i]["event"] == "KeyDown(return)" for i in of_loop["title_screen"]), names(a)
    assert any(a.paths[i]["event"] == "KeyDown(r)" for i in of_loop["game_over"]), names(a)
    play_keys = {key for i in of_loop["play"] for key in a.paths[i]["sample_inputs"].keys}
    assert {key_code("LEFT"), key_code("RIGHT"), key_code("SPACE")} <= play_keys, names(a)
    screen_loop = {0: "title_screen", 1: "play", 2: "game_over"}
    rng = random.Random(0)
    trail: list[int] = []
    with Worker(spec, space=a.space(paths=True), capture=None) as w:
        obs = w.reset(seed=0)
        for _ in range(300):
            screen = obs.features.get("screen")
            if screen is None:  # the fade-in: no input loop runs (every action may be tried); wait
                obs = w.step(InputFrame(), frames=1)
                continue
            valid = set(np.flatnonzero(obs.action_mask).tolist())
            mine = set(of_loop[screen_loop[int(screen)]])
            assert valid and valid <= mine, (screen, sorted(valid - mine))  # only the running loop's actions
            if not trail or trail[-1] != int(screen):
                trail.append(int(screen))
            if trail[:4] == [0, 1, 2, 1]:
                break
            obs = w.act(rng.choice(sorted(valid)), frames=1)
        stats = w.call("playtester.analysis.space:stats")
    assert trail[:4] == [0, 1, 2, 1], trail
    assert stats["loop_steps"][k["play"]] > 0 and stats["loop_steps"][k["title_screen"]] > 0
    # from the title: its RETURN; the moves and the shot after a RETURN (the setups press it)
    assert cross_check(spec, a, ready="screen") >= 3


def test_the_input_loops_share_one_budget():
    """analysis_seconds bounds the whole analysis: a later loop gets what the earlier ones left, and none is
    analysed once less than LOOP_FLOOR of it is left (the loop is named in a warning instead)."""
    from playtester.analysis import LOOP_FLOOR, _budget_left

    loop = {"file": "/games/x/main.py", "line": 40, "function": "game_over"}
    skipped: list[str] = []
    assert _budget_left({"seconds": 10.0, "max_forks": 5}, [3.0, 1.5], loop, skipped) == \
        {"seconds": 5.5, "max_forks": 5}
    assert skipped == []
    assert _budget_left({"seconds": 10.0}, [10.0 * (1 - LOOP_FLOOR) + 0.01], loop, skipped) is None
    assert skipped == ["main.py:40 in game_over"]


def test_any_key_and_a_click_read_at_the_mouse_position_press_a_key_and_a_button():
    """Found on published games: a handler that tests only the event's type (any key starts; a click is
    read at ``mouse.get_pos()``) used to give actions that pressed nothing (the click never happened); a
    ``typing.Protocol`` class ended the analysis; a method ticking the scenes and the clock was called
    live as 'pure' and ran a frame in the middle of the analysis. Now: the start and both clicks are found,
    every click action presses a button, and each performed action takes its branch."""
    spec = game("click_anywhere")
    a = analyze(spec)
    start = [x for x in a.paths if x["sample_inputs"].keys]
    clicks = [x for x in a.paths if "MouseButtonDown" in x["event"] or "MOUSEBUTTONDOWN" in x["event"].upper()]
    assert start and clicks, names(a)
    assert all(x["sample_inputs"].mouse_buttons for x in clicks), names(a)
    assert cross_check(spec, a) >= 2


def test_match_statements_on_the_event_type_and_the_key():
    """tic-tac-toe-pygame's handler is ``match event.type:`` (value patterns), with a nested ``match
    event.key:``: executed as the if/elif chain it is, with an or-pattern (SPACE | RETURN), a capture with
    a guard (a digit key) and ``case _`` (any other key); the click reads the mouse position."""
    spec = game("match_events")
    a = analyze(spec)
    assert not a.result["unsupported"], a.result["unsupported"]
    events = {x["event"] for x in a.paths}
    assert {"KeyDown(r)", "MouseButtonDown"} <= events, names(a)
    keys = keys_of(a)
    assert key_code("r") in keys and keys & {key_code("SPACE"), key_code("RETURN")}, names(a)
    assert keys & {key_code(str(d)) for d in range(1, 10)}, names(a)  # the guarded capture
    assert keys - {key_code("r"), key_code("SPACE"), key_code("RETURN")} - {key_code(str(d)) for d in range(1, 10)}
    assert cross_check(spec, a) >= 5


def test_held_keys_read_before_the_event_loop_and_tested_inside_it():
    """arrivethespaceship: ``command = pg.key.get_pressed()`` before ``for event in pg.event.get():``, the
    arrow keys tested inside that loop (the monkey steps once per event). A path whose event matched no
    event test but took a held-key branch is an action (the event made the step happen), not the same as
    no event."""
    spec = game("keys_in_event_loop")
    a = analyze(spec)
    assert a.result["stats"]["paths"] >= 4
    arrows = {key_code(k) for k in ("UP", "DOWN", "LEFT", "RIGHT")}
    assert arrows <= keys_of(a), names(a)
    assert cross_check(spec, a) >= 4
    # performed again and again, the action still makes an event every frame (a free key goes down, then
    # up: never the arrow its path needs held), so the monkey keeps stepping
    up = next(i for i, x in enumerate(a.paths) if x["sample_inputs"].keys >= {key_code("UP")})
    with Worker(spec, space=a.space(paths=True), capture=None) as w:
        w.reset(seed=0)
        for _ in range(4):
            got = {e.data["branch"] for e in w.act(up, frames=1).events if e.name == "took"}
            assert got == {"up"}, got


def test_keys_handed_to_a_setter_and_read_by_the_state_methods_two_calls_away():
    """brickbreaker: the main loop hands ``key.get_pressed()`` to ``gm.set_keys_pressed(keys)``, which only
    stores it (``self.keys = keys``: a parameter, not an input call), then calls ``gm.update(dt)`` in a
    fixed-step ``while`` loop; ``update`` reads no input but calls the state methods that read
    ``self.keys[...]`` and pass it on to ``self.paddle.read_keys``. The field counts as an input field, its
    readers reach input, and so does ``update``, their caller: it is inlined, never summarized."""
    spec = game("keys_in_a_field")
    a = analyze(spec)
    stats = a.result["stats"]
    assert {"GameManager.update", "GameManager.state_title", "Paddle.read_keys"} <= set(stats["inlined"]), stats
    assert "GameManager.update" not in stats["summarized"]
    assert {key_code(k) for k in ("RETURN", "SPACE", "LEFT", "RIGHT")} <= keys_of(a), names(a)
    start = [x for x in a.paths if x["sample_inputs"].keys == frozenset({key_code("RETURN")})]
    assert start and all("'title'" in x["p_g"] for x in start), names(a)
    assert cross_check(spec, a, ready="screen") >= 3


def test_a_title_that_waits_for_any_key_released_is_passed_by_a_tap():
    """``if e.type == KEYUP: main_screen = False`` (any key but ESCAPE, which quits): no key is held on a title, so
    the action taps one its condition allows (SPACE) instead of pressing nothing; a random run gets past the
    title (issue 55: a public Space Invaders stayed on its title for all 1,000 steps)."""
    import random

    import numpy as np

    spec = resolve(f"{GAMES / 'keyup_title.py'}:main")
    a = analyze(spec)
    [tap] = [x for x in a.paths if x.get("tap_key") is not None]
    assert tap["tap_key"] == key_code("SPACE") and tap["name"] == "KeyUp(space)", names(a)
    rng = random.Random(0)
    with Worker(spec, space=a.space(paths=True), capture=None) as w:
        obs = w.reset(seed=0)
        for _ in range(30):
            if obs.features.get("screen") == 1:
                break
            obs = w.act(int(rng.choice(np.flatnonzero(obs.action_mask).tolist())))
    assert obs.features.get("screen") == 1, "still on the title after 30 random analyzed actions"


def test_every_key_pygame_has_is_solved_to_that_key():
    """Conditions on DELETE, the keypad and modifiers give actions that press those keys, and pressing them reaches
    the game; no action but the one "(nothing)" presses nothing (issue 55: ten "(nothing)" actions with
    ``ev_key == 127`` in their condition hid two real crashes)."""
    spec = resolve(f"{GAMES / 'rare_keys.py'}:main")
    a = analyze(spec)
    pressed = keys_of(a)
    want = {key_code(n) for n in ("DELETE", "KP_ENTER", "LSHIFT", "KP5", "F5", "BACKSPACE")}
    assert want <= pressed, names(a)
    empty = [x["name"] for x in a.paths if not x["sample_inputs"].keys and x["sample_inputs"].mouse_pos is None]
    assert len(empty) <= 1, empty
    space = a.space(paths=True)
    delete = next(i for i, x in enumerate(a.paths) if x["sample_inputs"].keys == {key_code("DELETE")})
    with Worker(spec, space=space, capture=None) as w:
        w.reset(seed=0)
        obs = w.act(delete)
    assert obs.features["n"] == 1
