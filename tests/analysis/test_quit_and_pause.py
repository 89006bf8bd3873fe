"""Quit and pause keys found by the analysis, not suffered (issue 55): a title whose ``q`` quits and whose RETURN
starts the play loop (`title_quit`), and a play loop whose ``p`` pauses it. The analysis marks the key, leaves it
out of the analysed space, runs again without it and reaches the play loop; it warns about input loops no run
reached. Real games, run headless."""

from __future__ import annotations

from pathlib import Path

import pytest

from playtester.analysis import analyze
from playtester.drive.inputs import key_code
from playtester.drive.spec import resolve

GAMES = Path(__file__).parents[1] / "fixtures" / "games"
TITLE_QUIT = GAMES / "title_quit" / "game.py"
ARROWS = {key_code(k) for k in ("LEFT", "RIGHT", "UP", "DOWN")}


def pressed(a) -> set[int]:
    return {k for x in a.actions for k in getattr(x.get("sample_inputs"), "keys", ())}


def play_keys(a) -> set[int]:
    """The keys of the actions analysed in the ``play`` loop."""
    loops = a.result.get("loops") or [a.result]
    idx = [i for i, x in enumerate(loops) if x["loop"]["function"] == "play"]
    return {k for x in a.actions if x.get("loop_index", 0) in idx for k in getattr(x.get("sample_inputs"), "keys", ())}


def space_keys(a) -> set[int]:
    """Every key a static action of the space built from the result presses (its fallback actions too)."""
    return {k for act in a.space().actions for k in getattr(act.inputs, "keys", ())}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("quit_by", ["exit", "return", "post"])
def test_a_quit_key_on_the_title_is_marked_and_the_play_loop_is_reached(seed, quit_by):
    """Before: on these seeds the recording run ended on q (or exploring played the title's q action), the run
    stopped on the title, the play loop's arrows were never found and q stayed an action, with no warning."""
    spec = resolve(f"{TITLE_QUIT}:main", game_args={"quit_by": quit_by})
    a = analyze(spec, seed=seed)
    assert ARROWS <= play_keys(a), [x["name"] for x in a.actions]
    assert key_code("q") not in pressed(a)
    assert key_code("q") not in space_keys(a)
    assert a.result.get("detected", {}).get("quit") == ["q"], (a.result.get("detected"), a.warnings)
    assert "q" in a.result["blacklist"]
    assert any(w.startswith("q quits the game") and "analysis_allow_keys" in w for w in a.warnings), a.warnings


def test_analysis_allow_keys_keeps_a_quit_key():
    """A quit key the tests should press: listed in analysis_allow_keys, it stays an action and is not marked."""
    spec = resolve(f"{TITLE_QUIT}:main", analysis_allow_keys=["q"])
    a = analyze(spec, seed=1)
    assert a.result["detected"] == {"quit": [], "pause": []}
    assert key_code("q") in pressed(a)
    assert "q" not in a.result["blacklist"]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_pause_key_in_the_play_loop_is_marked_pause(seed):
    """In the play loop a dot drifts on its own; p freezes everything until p again: marked pause, left out of
    the space, the arrows still found. Before: p was an action of the play loop and nothing was marked."""
    spec = resolve(f"{TITLE_QUIT}:main", game_args={"pausing": True})
    a = analyze(spec, seed=seed)
    assert key_code("p") not in pressed(a) and key_code("p") not in space_keys(a)
    assert ARROWS <= play_keys(a), [x["name"] for x in a.actions]
    assert a.result.get("detected", {}).get("pause") == ["p"], (a.result.get("detected"), a.warnings)
    assert a.result["detected"]["quit"] == ["q"]
    assert any(w.startswith("p pauses the game") for w in a.warnings), a.warnings


def test_a_key_that_moves_the_game_on_is_neither_quit_nor_pause():
    """RETURN leaves the title for good and the arrows move the square: none of them is marked."""
    a = analyze(resolve(f"{TITLE_QUIT}:main"), seed=2)
    assert a.result["detected"]["pause"] == []
    assert key_code("RETURN") in pressed(a) and not ({key_code("RETURN")} | ARROWS) & {
        key_code(k) for k in a.result["detected"]["quit"]}


def test_an_input_loop_never_reached_is_named_in_a_warning():
    """With RETURN blacklisted and no exploring, nothing leaves the title: the play loop is never reached, and
    a warning names its file:line and the init setting to reach it. Before: no warning."""
    spec = resolve(f"{TITLE_QUIT}:main", blacklist=["ESCAPE", "RETURN"])
    a = analyze(spec, seed=0, explore_steps=0)
    assert a.result["loop"]["function"] == "title"
    line = next(i for i, text in enumerate(TITLE_QUIT.read_text().splitlines(), 1)
                if text.strip() == "while True:" and i > 40)
    assert any(f"game.py:{line} was never reached" in w and "init" in w for w in a.warnings), a.warnings


def test_a_move_that_gets_the_player_killed_is_not_a_quit_key():
    """pygame's aliens returns from its entry when the player dies (a normal exit): a LEFT or RIGHT that led the
    player into a bomb ended the game, and both were marked quit and left out (before: ``detected`` quit RIGHT
    and LEFT, and no action moved the player). A quit key must quit with nothing else pressed being enough
    (the same moment with no key goes on) and again a moment later."""
    a = analyze(resolve("pygame.examples.aliens:main"))
    assert a.result["detected"]["quit"] == [], a.warnings
    keys = {k for x in a.actions for k in x["sample_inputs"].keys}
    assert {key_code("LEFT"), key_code("RIGHT"), key_code("SPACE")} <= keys
