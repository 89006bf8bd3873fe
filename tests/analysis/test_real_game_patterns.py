"""Patterns of the real-game corpus (bench/real_games.toml, issue 16), each on a small fixture game written in
the style of the corpus game that showed it (``tests/fixtures/games/rg_*``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_analysis import cross_check  # tests/analysis is on sys.path (rootdir-relative import)

from playtester.analysis import AnalysisError, GameCrashedError, analyze
from playtester.drive.inputs import InputFrame, key_code
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker

GAMES = Path(__file__).parents[1] / "fixtures" / "games"
START = [{"keys": ["RETURN"], "frames": 2}, {"frames": 3}]


def rg(folder: str, **cfg):
    return resolve(f"{GAMES / folder / 'game.py'}:main", **{"frames_per_action": 1, **cfg})


def test_a_game_that_crashes_by_itself_at_start_is_its_bug_not_an_analysis_failure():
    """fallingsky's pattern: RETURN on the menu starts play, which calls ``random.sample`` on dict keys (a
    TypeError since Python 3.11) and the crash handler's ``traceback.format_exc(error)`` fails too. The episode
    ends before any input of the analysis: `GameCrashedError`, naming the game's own line and the error."""
    spec = rg("rg_sample_history", init=START)
    with pytest.raises(GameCrashedError) as e:
        analyze(spec)
    msg = str(e.value)
    assert "game.py:" in msg and "Population must be a sequence" in msg and "not of the analysis" in msg
    assert e.value.exit is not None and e.value.exit.kind == "exception"


def test_the_same_game_fixed_is_analysed_and_its_actions_move_the_shape():
    """The control: with the shape picked from ``sorted(history)`` the game runs, its play loop is analysed
    (no GameCrashedError), and performing the analysed LEFT / RIGHT actions moves the shape."""
    spec = rg("rg_sample_history", init=START, game_args={"fixed": True})
    try:
        a = analyze(spec)
    except GameCrashedError as e:  # pragma: no cover - the failure this test guards against
        pytest.fail(f"a running game classified as crashed: {e}")
    except AnalysisError:
        raise
    by_key = {}
    for x in a.paths:
        for k in x["sample_inputs"].keys:
            by_key.setdefault(k, x)
    assert {key_code("LEFT"), key_code("RIGHT")} <= set(by_key), [x["name"] for x in a.paths]
    with Worker(spec, capture=None) as w:
        obs = w.reset(seed=0)
        x = obs.features["x"]
        for key, dx in (("RIGHT", 1), ("RIGHT", 1), ("LEFT", -1)):
            obs = w.step(by_key[key_code(key)]["sample_inputs"], frames=1)
            assert obs.features["x"] == x + dx, (key, obs.features)
            x = obs.features["x"]
            obs = w.step(InputFrame(mouse_pos=None), frames=1)
    assert cross_check(spec, a) >= 2


def _by_tap(a) -> dict[int, int]:
    """Action index by the key its KEYUP taps (the first such action of each key)."""
    out: dict[int, int] = {}
    for i, x in enumerate(a.paths):
        if x.get("tap_key") is not None:
            out.setdefault(x["tap_key"], i)
    return out


@pytest.mark.parametrize("style", ["chr", "unicode"])
def test_typed_digits_are_actions_and_typing_them_enters_the_number(style: str):
    """gorillapy's pattern: the angle is typed. ``chr(event.key) not in allowed`` against the prompt's
    ``allowed = "0123456789"`` (a local of the loop's function: read live, its containing the digit is the
    game condition), or ``event.unicode.isdigit()``: one action per digit. Performing the analysed actions for
    4, 2 and RETURN (a KEYUP action is a tap: down for the first frame, up after) types 42 and fires it."""
    spec = rg("rg_typed_numbers", frames_per_action=3, game_args={"style": style})
    a = analyze(spec)
    digits = {key_code(str(d)) for d in range(10)}
    if style == "chr":  # KEYUP handlers: the digit actions tap their key
        by_key = _by_tap(a)
        assert digits <= set(by_key), [x["name"] for x in a.paths]
        assert "('4') in (L['allowed'])" in a.paths[by_key[key_code("4")]]["p_g"]
    else:  # KEYDOWN handlers: the digit actions hold their key
        by_key = {}
        for i, x in enumerate(a.paths):
            for k in x["sample_inputs"].keys:
                by_key.setdefault(k, i)
        assert digits <= set(by_key), [x["name"] for x in a.paths]
        assert key_code("-") in by_key  # event.unicode in "+-"
    space = a.space(paths=True)
    with Worker(spec, space=space, capture=None) as w:
        obs = w.reset(seed=0)
        assert obs.features.get("typed") == -1
        for key, typed in (("4", 4), ("2", 42)):
            i = by_key[key_code(key)]
            assert obs.action_mask[i], a.paths[i]["name"]
            obs = w.act(i)
            if style == "unicode":  # a held key types once, on its KEYDOWN; let it go
                obs = w.step(InputFrame(mouse_pos=None))
            assert obs.features.get("typed") == typed, (key, obs.features)
        ret = by_key[key_code("RETURN")]
        obs = w.act(ret)
        fired = [e.data["angle"] for e in obs.events if e.name == "fired"]
        assert fired == [42], [(e.name, e.data) for e in obs.events]


def test_game_state_tests_after_the_last_input_read_do_not_fork_the_paths():
    """space-invaders-pygame's pattern: a module-level loop reads the keys, then moves 4-5 bullets and 9
    enemies and tests every bullet against every enemy. Past the frame's last input read (the input horizon)
    each path is finished: the collision tests no longer fork it (before, 91,000 paths were cut on the real
    game), so the analysis ends with one path per key combination and game condition. Performing the
    analysed actions moves the player and fires."""
    spec = resolve(str(GAMES / "rg_shooter" / "game.py"), frames_per_action=1)
    a = analyze(spec, explore_steps=0)  # one symbolic execution (not again in the states reached by playing)
    stats = a.result["stats"]
    assert stats["horizon_cuts"] > 0
    assert stats["paths"] <= 16 and not stats["truncated"] and not a.result.get("partial"), stats
    keys = {k for x in a.paths for k in x["sample_inputs"].keys}
    assert {key_code("LEFT"), key_code("RIGHT"), key_code("SPACE")} <= keys
    by_keys = {frozenset(x["sample_inputs"].keys): i for i, x in enumerate(a.paths)}
    with Worker(spec, space=a.space(paths=True), capture=None) as w:
        obs = w.reset(seed=0)
        x0 = obs.features["x"]
        obs = w.act(by_keys[frozenset({key_code("LEFT")})])
        assert obs.features["x"] == x0 - 4
        obs = w.act(by_keys[frozenset({key_code("RIGHT")})])
        obs = w.act(by_keys[frozenset({key_code("RIGHT")})])
        assert obs.features["x"] == x0 + 4
        space_held = by_keys[frozenset({key_code("SPACE")})]
        shots = obs.features["shots"]
        obs = w.act(space_held)
        assert obs.features["shots"] == shots + 1  # fewer than 5 bullets fly at the start: SPACE fires


def test_an_input_layer_forking_on_absent_controllers_still_reaches_the_movement_keys():
    """zombie-escape's pattern (``rg_input_layer``): every frame builds an input snapshot through a helper that
    tests the absent controller and joystick (None now) and calls their getters in each of its eight held-state
    methods, the analog stick and the accelerator, and the frame reads the mouse buttons up to its end. Under a
    budget of forks (not time: the CPU budget is generous here), the paths through the helper must not use up
    the forks before the movement keys are read: a path assumes the controller attached at most once, and there
    the getters of an object the live game does not hold are one game value each, taken one way. Every
    direction, the accelerator and the mouse button are in some action, and performing each action's sample
    moves the player the way its keys say (LSHIFT speeds time up)."""
    spec = rg("rg_input_layer", analysis_seconds=60)
    a = analyze(spec, max_forks=400)
    assert not a.result.get("partial"), a.result.get("partial")
    dirs = {"left": {"LEFT", "a"}, "right": {"RIGHT", "d"}, "up": {"UP", "w"}, "down": {"DOWN", "s"}}
    codes = {d: {key_code(k) for k in ks} for d, ks in dirs.items()}
    shift = {key_code("LSHIFT"), key_code("RSHIFT")}
    pressed = set().union(*[x["sample_inputs"].keys for x in a.paths])
    for d, cs in codes.items():
        assert cs & pressed, (d, [x["name"] for x in a.paths])
    assert shift & pressed
    assert any(1 in x["sample_inputs"].mouse_buttons for x in a.paths)
    with Worker(spec, capture=None) as w:
        obs = w.reset(seed=0)
        for x in a.paths:
            keys = x["sample_inputs"].keys
            if x["sample_inputs"].mouse_buttons:  # a click may arm the mouse accelerator: not what this checks
                continue
            before = (obs.features["x"], obs.features["y"])
            obs = w.step(x["sample_inputs"], frames=1)
            dx = -1 if keys & codes["left"] else 1 if keys & codes["right"] else 0
            dy = -1 if keys & codes["up"] else 1 if keys & codes["down"] else 0
            speed = 4 if keys & shift else 2
            want = (max(0, min(320, before[0] + dx * speed)), max(0, min(240, before[1] + dy * speed)))
            assert (obs.features["x"], obs.features["y"]) == want, (x["name"], before, obs.features)
            assert obs.features["accel"] == (1 if keys & shift else 0), (x["name"], obs.features)
            obs = w.step(InputFrame(mouse_pos=None), frames=1)


def test_a_loop_never_analysed_gets_the_blind_actions_and_only_there():
    """A game that moves to an input loop whose analysis never happened (here: only the loop the recording run
    ended in is analysed, ``explore_steps=0``; in zombie-escape the budget was spent on its play loop) gets the
    blind actions there, so it can leave that screen (its RETURN or R), while the analysed loop keeps only its
    own actions. title_play_over: title (RETURN) -> play (40 frames) -> game over (R plays again)."""
    from playtester.analysis.space import FALLBACK_PREFIX

    spec = resolve(f"{GAMES / 'title_play_over' / 'game.py'}:main", frames_per_action=1)
    a = analyze(spec, explore_steps=0)
    assert len(a.result.get("loops") or [a.result]) == 1
    analysed = {"title_screen": 0, "play": 1, "game_over": 2}[a.result["loop"]["function"]]
    assert len(a.result["unanalysed"]) == 2 and all(x.startswith("game.py:") for x in a.result["unanalysed"])
    space = a.space(paths=True)
    n = len(a.paths)
    other = {space.actions[i].name[len(FALLBACK_PREFIX):]: i for i in range(n, len(space))}
    assert all(space.actions[i].name.startswith(FALLBACK_PREFIX) for i in other.values())
    assert {"press RETURN", "press r", "press LEFT"} <= set(other) and "press ESCAPE" not in other
    # only the keys the game's code names (it names five and reads no mouse): not the 66 common keys and the grid
    assert {x[len("press "):] for x in other if x.startswith("press ")} == {"RETURN", "r", "LEFT", "RIGHT", "SPACE"}
    assert not any("mouse" in x for x in other), sorted(other)
    trail: list[int] = []
    with Worker(spec, space=space, capture=None) as w:
        obs = w.reset(seed=0)
        for _ in range(200):
            screen = obs.features.get("screen")
            if screen is None:  # the fade-in
                obs = w.step(InputFrame(), frames=1)
                continue
            screen = int(screen)
            if not trail or trail[-1] != screen:
                trail.append(screen)
            if trail[-4:] == [0, 1, 2, 1] or trail[-3:] == [1, 2, 1]:
                break
            blind_on = obs.action_mask[n:]
            if screen == analysed:
                assert not blind_on.any()
                valid = [i for i in range(n) if obs.action_mask[i]]
                pick = next((i for i in valid if a.paths[i]["event"] == "KeyDown(return)"), valid[0])
                obs = w.act(pick, frames=1)
            else:
                assert blind_on.all(), screen
                key = {0: "press RETURN", 1: "press LEFT", 2: "press r"}[screen]
                obs = w.act(other[key], frames=1)
                obs = w.act(other["release" + key[5:]], frames=1)
    assert trail[-3:] == [1, 2, 1], trail
