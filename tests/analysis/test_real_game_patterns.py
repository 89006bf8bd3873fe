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
    for x in a.actions:
        for k in x["sample_inputs"].keys:
            by_key.setdefault(k, x)
    assert {key_code("LEFT"), key_code("RIGHT")} <= set(by_key), [x["name"] for x in a.actions]
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
    for i, x in enumerate(a.actions):
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
        assert digits <= set(by_key), [x["name"] for x in a.actions]
        assert "('4') in (L['allowed'])" in a.actions[by_key[key_code("4")]]["p_g"]
    else:  # KEYDOWN handlers: the digit actions hold their key
        by_key = {}
        for i, x in enumerate(a.actions):
            for k in x["sample_inputs"].keys:
                by_key.setdefault(k, i)
        assert digits <= set(by_key), [x["name"] for x in a.actions]
        assert key_code("-") in by_key  # event.unicode in "+-"
    space = a.space()
    with Worker(spec, space=space, capture=None) as w:
        obs = w.reset(seed=0)
        assert obs.features.get("typed") == -1
        for key, typed in (("4", 4), ("2", 42)):
            i = by_key[key_code(key)]
            assert obs.action_mask[i], a.actions[i]["name"]
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
    a = analyze(spec)
    stats = a.result["stats"]
    assert stats["horizon_cuts"] > 0
    assert stats["paths"] <= 16 and not stats["truncated"] and not a.result.get("partial"), stats
    keys = {k for x in a.actions for k in x["sample_inputs"].keys}
    assert {key_code("LEFT"), key_code("RIGHT"), key_code("SPACE")} <= keys
    by_keys = {frozenset(x["sample_inputs"].keys): i for i, x in enumerate(a.actions)}
    with Worker(spec, space=a.space(), capture=None) as w:
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
