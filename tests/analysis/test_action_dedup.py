"""Issue 55: one action per input. Paths whose solved inputs are the same are one action, valid when one of
its paths is and performed as the path that holds; the blind actions only where an input loop was left
without analysed actions."""

from __future__ import annotations

from pathlib import Path

from playtester.analysis import analyze
from playtester.drive.inputs import InputFrame, key_code
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker

GAME = Path(__file__).parents[1] / "fixtures" / "games" / "analysis" / "one_key_many_paths.py"


def test_paths_with_the_same_inputs_are_one_action_performed_as_the_path_that_holds():
    """RETURN starts, boosts and restarts: three paths, one action, valid on every screen, and each press takes
    the branch of the screen it is pressed on. Before: three actions (``KeyDown(return) RETURN #2``, ``#3``),
    each valid on one screen."""
    spec = resolve(f"{GAME}:main", frames_per_action=1)
    a = analyze(spec)
    inputs = [(x["event"], x["sample_inputs"]) for x in a.actions]
    assert len(inputs) == len(set(inputs)), [x["name"] for x in a.actions]  # one action per input
    assert len(a.paths) > len(a.actions)
    assert not any("#" in x["name"] for x in a.actions), [x["name"] for x in a.actions]
    assert sum(1 for x in a.actions if x["sample_inputs"] == InputFrame() and not x["event"]) == 1
    ret = [i for i, x in enumerate(a.actions) if x["event"] == "KeyDown(return)"]
    assert len(ret) == 1 and len(a.actions[ret[0]]["paths"]) == 3
    # every arrow is its own action (LEFT too: its test on the heading came after the title was assumed away)
    arrows = {k for x in a.actions for k in x["sample_inputs"].keys if x["event"].startswith("KeyDown")}
    assert {key_code(k) for k in ("LEFT", "RIGHT", "UP", "DOWN")} <= arrows
    i = ret[0]
    left = next(j for j, x in enumerate(a.actions) if x["event"] == "KeyDown(left)")
    up = next(j for j, x in enumerate(a.actions) if x["event"] == "KeyDown(up)")
    got = []
    with Worker(spec, space=a.space(), capture=None) as w:
        obs = w.reset(seed=0)
        assert not obs.action_mask[up] and not obs.action_mask[left]  # the title: the arrows do nothing there
        for _ in range(3):
            assert obs.action_mask[i]
            obs = w.act(i, frames=1)
            got.append([e.data["branch"] for e in obs.events if e.name == "took"])
            obs = w.step(InputFrame(), frames=1)  # released: the next press is a KEYDOWN again
            if len(got) == 1:  # playing, heading right: UP turns, LEFT would turn back
                assert obs.action_mask[up] and not obs.action_mask[left]
    assert got == [["start"], ["boost"], ["boost"]]


def test_the_blind_actions_only_for_input_loops_left_without_analysed_actions(tmp_path):
    """A game whose one input loop is analysed gets no blind actions (before: 150 of them, masked out, in every
    analyzed space), and ``analyze`` says how many actions came from how many paths."""
    from typer.testing import CliRunner

    from playtester.cli import app

    r = CliRunner().invoke(app, ["analyze", f"{GAME}:main", "--limit", "3"])
    assert r.exit_code == 0, r.output
    a = analyze(resolve(f"{GAME}:main"))
    assert a.result["unanalysed"] == [] and len(a.space()) == len(a.actions)
    assert f"{len(a.actions)} actions from {len(a.paths)} solved paths" in r.output
    assert "blind actions" not in r.output


def _signature(a) -> list[tuple[str, str, str]]:
    return [(x["name"], x["p_g_text"], x["p_i_text"]) for x in a.actions]


def test_the_same_game_analysed_three_times_gives_the_same_space():
    """Deterministic analysis (issue 55: an event-bus game gave 3 actions or failed, run to run): three analyses
    of each game, each in a fresh worker, give the same actions in the same order with the same conditions."""
    games = [resolve(str(Path(__file__).parents[1] / "fixtures" / "games" / "event_bus" / "game.py") + ":main"),
             resolve("platformer")]
    for spec in games:
        first = _signature(analyze(spec))
        assert first
        for _ in range(2):
            assert _signature(analyze(spec)) == first, spec.text


def test_the_blind_fallback_presses_the_keys_the_game_names(tmp_path):
    """The blind actions of an input loop left unanalysed press the keys the game's code names (a game cannot tell
    a key it never names from another) and move the mouse only for a game that reads it; a game that reads any
    key (typed text, key names) keeps the 66 common keys."""
    import pygame

    from playtester.analysis.live import named_inputs
    from playtester.analysis.space import fallback_actions

    named = tmp_path / "named.py"
    named.write_text("import pygame as pg\nfrom pygame.locals import K_SPACE\n"
                     "def f(e, keys):\n    return e.key == K_SPACE or keys[pg.K_a] or self.name\n")
    typed = tmp_path / "typed.py"
    typed.write_text("def f(event):\n    return event.unicode.isdigit()\n")
    clicks = tmp_path / "clicks.py"
    clicks.write_text("import pygame\ndef f(r):\n    return r.collidepoint(pygame.mouse.get_pos())\n")
    got = named_inputs({str(named)}, pygame)
    assert got == {"keys": ["SPACE", "a"], "mouse": False}
    names = [a.name for a in fallback_actions(["ESCAPE"], got)]
    assert names == ["other loop: press SPACE", "other loop: release SPACE", "other loop: press a",
                     "other loop: release a"]
    assert named_inputs({str(named), str(typed)}, pygame)["keys"] is None  # any key: the common keys
    assert len(fallback_actions(["ESCAPE"], named_inputs({str(typed)}, pygame))) == 65 * 2
    assert named_inputs({str(clicks), str(named), "<frozen runpy>"}, pygame) == {"keys": ["SPACE", "a"], "mouse": True}


def test_a_loop_is_analysed_again_in_the_state_reached_by_playing():
    """space_invaders' shape: analysed on its title (``main_screen``), the play branch is a second assumed flag
    and its ship is not in its group yet; analysed again after its actions left the title, the ship's update
    (reached through ``sprites.update(keys, now)``, the keys handed on) gives LEFT and RIGHT, valid in play
    and moving the ship. Before: only the title's keys (space_invaders found 1 of its 3 controls)."""
    spec = resolve(str(GAME.parent / "flags_and_group.py") + ":main", frames_per_action=2)
    a = analyze(spec)
    assert a.result["stats"].get("again", 0) >= 1
    moves = {k: i for i, x in enumerate(a.actions) for k in [x["sample_inputs"].keys]
             if k in (frozenset({key_code("LEFT")}), frozenset({key_code("RIGHT")}))}
    assert len(moves) == 2, [x["name"] for x in a.actions]
    left, right = moves[frozenset({key_code("LEFT")})], moves[frozenset({key_code("RIGHT")})]
    start = next(i for i, x in enumerate(a.actions) if x["event"].startswith("KeyUp"))
    with Worker(spec, space=a.space(), capture=None) as w:
        obs = w.step(InputFrame(), frames=1) if not w.reset(seed=0).done else None  # the loop runs
        assert obs.action_mask[start] and not obs.action_mask[left]  # the title
        obs = w.act(start)
        assert obs.features["x"] == 76 and obs.action_mask[left] and obs.action_mask[right]
        obs = w.act(right)
        assert obs.features["x"] > 76
        x = obs.features["x"]
        obs = w.act(left)
        assert obs.features["x"] < x
