"""Action-space analysis on small handlers, one per construct (the paper's listings and more), on the
bundled games and on pygame's own examples; and the cross-check that performing an analyzed action
in a state where it is valid makes the game take the path it was derived from."""

from __future__ import annotations

import json
import linecache
import re
from pathlib import Path

import pytest

from playtester.analysis import AnalysisError, analyze
from playtester.drive.inputs import InputFrame, key_code
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker

LISTINGS = Path(__file__).parents[1] / "fixtures" / "games" / "analysis" / "listings.py"


def spec_of(fn: str, **cfg):
    return resolve(f"{LISTINGS}:{fn}", frames_per_action=1, **cfg)


def names(a) -> list[str]:
    return [x["name"] for x in a.paths]


def took_on(file: str, line: int) -> str | None:
    """The branch name a fixture reports right after the ``if`` at ``line``."""
    m = re.search(r'took\("([^"]+)"\)|took\(f"([^"]+)"\)', linecache.getline(file, line + 1))
    return (m.group(1) or m.group(2)) if m else None


def test_listing1_axis_and_jump_with_game_state_conditions():
    a = analyze(spec_of("listing1", joysticks=1))
    acts = a.paths
    # the axis is forked into negative / zero / positive; jump needs the button
    forks = {x["forked"].get("ax_0_0") for x in acts}
    assert forks == {"neg", "zero", "pos"}
    jumps = [x for x in acts if "jb_0_0" in x["p_i_text"] and "not jb_0_0" not in x["p_i_text"]]
    assert jumps, names(a)
    # jumping is valid only when jump_enabled and on_ground() hold (p_g, evaluated on the live player)
    for x in jumps:
        if any(line == 43 and side for _, line, side in x["decisions"]):
            assert "L['player'].jump_enabled" in x["p_g"] and "L['player'].on_ground()" in x["p_g"]


def test_listing3_multi_frame_events_need_previous_frame_state():
    a = analyze(spec_of("listing3"))
    by_branch = {took_on(f, line): x for x in a.paths for f, line, side in x["decisions"] if side}
    assert set(by_branch) >= {"reload", "shoot"}
    shoot = by_branch["shoot"]
    # KEYUP f needs ammo (game state) and f held in the previous frame (expanded into game state)
    assert "L['ammo']" in shoot["p_g"]
    assert f"{key_code('f')} in H.keys" in shoot["p_g"]
    reload = by_branch["reload"]
    ns = {"L": {"ammo": 0}, "M": [], "S": None, "getattr": getattr, "bool": bool}
    r = key_code("r")
    assert eval(reload["p_g"], ns | {"H": InputFrame()})  # r up before: KEYDOWN r can happen
    assert not eval(reload["p_g"], ns | {"H": InputFrame(keys=frozenset({r}))})  # r already down: it cannot
    assert eval(shoot["p_g"], {**ns, "L": {"ammo": 2}, "H": InputFrame(keys=frozenset({key_code("f")}))})
    assert not eval(shoot["p_g"], {**ns, "L": {"ammo": 0}, "H": InputFrame(keys=frozenset({key_code("f")}))})


def test_listing4_inputs_used_without_a_branch_still_yield_actions():
    a = analyze(spec_of("listing4"))
    cells = {tuple(x["forked"]["mouse"]) for x in a.paths if "mouse" in x["forked"]}
    assert len(cells) == 16  # the mouse position forked into the 4x4 grid
    held = {frozenset(x["sample_inputs"].keys) for x in a.paths}
    d, aa = key_code("d"), key_code("a")
    # h = keys[d] - keys[a] is discretized: left, right and still all exist
    assert any(d in k and aa not in k for k in held) and any(aa in k and d not in k for k in held)
    assert frozenset() in held or any(d in k and aa in k for k in held)
    assert len(a.paths) == 16 * 3


def test_binding_dict_is_constant_folded_and_filtered_event_get():
    a = analyze(spec_of("bindings"))
    keys = {next(iter(x["sample_inputs"].keys)) for x in a.paths if x["sample_inputs"].keys}
    assert keys == {key_code(k) for k in ("LEFT", "RIGHT", "UP", "DOWN")}
    assert all(x["event"] in ("", "KeyDown(left)", "KeyDown(right)", "KeyDown(up)", "KeyDown(down)")
               for x in a.paths)


def test_getattr_dispatch_from_the_recorded_call_graph_and_string_enums():
    a = analyze(spec_of("dispatch"))
    taken = {took_on(f, line) for x in a.paths for f, line, side in x["decisions"] if side}
    assert {"start", "pause", "louder", "resume"} <= taken
    louder = next(x for x in a.paths if any(took_on(f, ln) == "louder" and s for f, ln, s in x["decisions"]))
    assert ".volume" in louder["p_g"] and "__qualname__" in louder["p_g"]


def test_globals_the_game_rebinds_are_game_state_not_folded_constants():
    a = analyze(spec_of("global_state"))
    fire = next(x for x in a.paths if any(took_on(f, ln) == "fire" and s for f, ln, s in x["decisions"]))
    assert "['LIVES']" in fire["p_g"]  # read live (M[i]['LIVES']), so the mask follows the lives left
    listing1 = analyze(spec_of("listing1", joysticks=1))  # DEADZONE is never rebound: folded into p_i
    assert "DEADZONE" not in json.dumps(listing1.result["game_vars"])
    assert any("0.2" in x["p_i_text"] for x in listing1.paths)


def test_mouse_click_inside_a_rect_is_solved_under_the_live_rect():
    a = analyze(spec_of("clicks"))
    hit = next(x for x in a.paths if any(took_on(f, ln) == "button" and s for f, ln, s in x["decisions"]))
    assert "button.x" in hit["p_i_text"] and "mx" in hit["p_i_text"]


def test_staticmethod_classmethod_splatted_results_and_loops_over_a_binding_dict():
    a = analyze(spec_of("static_moves"))
    held = {frozenset(x["sample_inputs"].keys) for x in a.paths}
    moves = {key_code(k) for k in ("a", "d", "w", "s")}
    assert {frozenset({k}) for k in moves} <= held  # each key of MOVES.items(), read in a staticmethod
    assert any(key_code("LSHIFT") in h for h in held)  # the classmethod's key
    # every key combination reports its own took() events: none merged; of the 32, the actions holding three
    # keys or more only hold together what smaller ones hold apart and are left out (`live.drop_composites`)
    assert sorted(len(h) for h in held) == [0] + [1] * 5 + [2] * 10 and len(a.paths) == 16


def test_loops_that_only_set_locals_merge_paths_with_equal_locals():
    a = analyze(spec_of("merged_moves"))
    # 4 keys: 16 combinations, but only 9 (dx, dy) directions; the move itself happens after the loop
    assert len(a.paths) == 9
    dirs = set()
    for x in a.paths:
        keys = x["sample_inputs"].keys
        dx = (key_code("d") in keys) - (key_code("a") in keys)
        dy = (key_code("s") in keys) - (key_code("w") in keys)
        dirs.add((dx, dy))
    assert dirs == {(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    # performed in the game, the 9 actions move the 9 ways (a merged action may pick any of its inputs)
    spec = spec_of("merged_moves")
    moved = set()
    with Worker(spec, space=a.space(paths=True), capture=None) as w:
        for i in range(len(a.paths)):
            before = w.reset(seed=0).features
            after = w.act(i, frames=1).features
            moved.add((after["x"] - before["x"], after["y"] - before["y"]))
    assert moved == dirs


@pytest.mark.parametrize("fn,cfg", [("listing1", {"joysticks": 1}), ("listing3", {}), ("bindings", {}),
                                    ("dispatch", {}), ("clicks", {}), ("early_return", {}), ("collected_events", {}),
                                    ("screens", {"init": [{"keys": ["RETURN"], "frames": 20}, {"frames": 2}]})])
def test_cross_check_each_action_takes_its_path(fn, cfg):
    """Perform every analyzed action in a state where it is valid; the game must report the branch the
    action's path went through (and not the ones it avoided)."""
    spec = spec_of(fn, **cfg)
    assert cross_check(spec, analyze(spec)) >= 2


def cross_check(spec, a, ready: str | None = None) -> int:
    """Perform each analyzed action where it is valid; how many were checked against their paths.
    ``ready``: a probe feature the game reports once an analysed loop runs (before it, in a fade-in that
    reads no input, every action is offered and none can take its path)."""
    space = a.space(paths=True)
    checked = 0
    with Worker(spec, space=space, capture=None) as w:
        for i, act in enumerate(a.paths):
            expect = {took_on(f, ln) for f, ln, side in act["decisions"] if side} - {None}
            avoid = {took_on(f, ln) for f, ln, side in act["decisions"] if not side} - {None}
            if not expect and not avoid:
                continue
            obs = w.reset(seed=0)
            for _ in range(100):
                if ready is None or ready in obs.features:
                    break
                obs = w.step(InputFrame(), frames=1)
            for setup in _setups(act):  # reach a state where the action is valid
                if obs.action_mask[i]:
                    break
                obs = w.step(setup, frames=1)
            if not obs.action_mask[i]:
                continue
            unsat = w.call("playtester.analysis.space:stats").get("perform_unsat", 0)
            obs = w.act(i, frames=1)
            if not obs.done and w.call("playtester.analysis.space:stats").get("perform_unsat", 0) > unsat:
                # p_i has no solution under this concrete state (e.g. this grid cell misses the live
                # rect): validity over-approximates there, as the paper's p_g-only check does
                continue
            got = {e.data["branch"] for e in obs.events if e.name == "took"}
            # an f-string branch name (took(f"move{move}")) matches on its constant prefix
            got |= {x.split("{")[0] for x in expect | avoid if "{" in x and any(g.startswith(x.split("{")[0]) for g in got)}
            expect = {x.split("{")[0] if "{" in x else x for x in expect}
            avoid = {x.split("{")[0] if "{" in x else x for x in avoid}
            assert expect <= got, f"{act['name']}: expected {expect}, game took {got}"
            assert not (avoid & got), f"{act['name']}: took {avoid & got}, which its path avoids"
            checked += 1
    return checked


def _setups(act):
    """Inputs to hold first: reload before shooting, the key held before a KEYUP, the menu started."""
    yield InputFrame()
    yield InputFrame(keys=frozenset({key_code("r")}))
    yield InputFrame()
    yield InputFrame(keys=frozenset({key_code("f")}))
    yield InputFrame(keys=frozenset({key_code("RETURN")}))
    yield InputFrame()
    yield InputFrame(keys=frozenset({key_code("p")}))


@pytest.mark.parametrize("game", ["blockmaze", "platformer", "tilematch", "arena", "combat", "dungeon",
                                  "pygame.examples.aliens:main", "pygame.examples.chimp:main",
                                  "pymunk.examples.platformer:main", "pymunk.examples.tank:main",
                                  "pymunk.examples.breakout:main"])
def test_every_bundled_game_and_pygame_example_is_analysed(game):
    a = analyze(resolve(game))
    import z3

    assert len(a.paths) >= 3
    assert a.result["stats"]["kept_statements"] > 0
    for x in a.paths:  # every validity predicate compiles, every input condition parses
        compile(x["p_g"], "p_g", "eval")
        if x["p_i"]:
            z3.parse_smt2_string(x["p_i"])
    # the actions perform different inputs (at least a few distinct sample solutions)
    assert len({x["sample_inputs"] for x in a.paths}) >= 3


def test_blockmaze_analyzed_actions_are_the_direction_keys():
    a = analyze(resolve("blockmaze"))
    keys = {k for x in a.paths for k in x["sample_inputs"].keys}
    dirs = {key_code(k) for k in ("UP", "DOWN", "LEFT", "RIGHT", "w", "a", "s", "d")}
    assert dirs <= keys
    assert key_code("ESCAPE") not in keys  # blacklisted keys never appear


def test_chimp_mouse_read_in_a_sprite_update_gives_grid_actions():
    a = analyze(resolve("pygame.examples.chimp:main"))
    cells = {tuple(x["forked"]["mouse"]) for x in a.paths if "mouse" in x["forked"]}
    assert len(cells) == 16
    assert a.result["instance_roots"], "Fist.update runs on a Fist instance found through its sprite group"


def test_json_export_loads_as_manual_and_as_analyzed(tmp_path):
    from typer.testing import CliRunner

    from playtester.cli import app

    out = tmp_path / "space.json"
    r = CliRunner().invoke(app, ["analyze", "blockmaze", "--json", str(out), "--limit", "5"])
    assert r.exit_code == 0, r.output
    assert "actions of blockmaze" in r.output and "sliced away" in r.output
    data = json.loads(out.read_text())
    assert data["version"] == 1 and data["analysis"]["actions"]
    from playtester.actions.manual import load_manual
    from playtester.analysis.export import load_analyzed

    manual = load_manual(out)
    assert len(manual) == len(data["actions"])
    analyzed = load_analyzed(out)
    # the analysed actions; no blind ones: blockmaze's one input loop is analysed, none is left for them
    assert data["analysis"]["unanalysed"] == []
    assert analyzed.kind == "analyzed" and len(analyzed) == len(manual)
    assert analyzed.names == manual.names
    from playtester.analysis.space import paths_of

    paths = sum(len(paths_of(x)) for x in data["analysis"]["actions"])
    assert f"{len(manual)} actions from {paths} solved paths" in r.output
    assert "blind actions" not in r.output
    # a trace of an analyzed space round-trips through the store's JSON form
    from playtester.actions.space import space_from_dict, space_to_dict

    again = space_from_dict(json.loads(json.dumps(space_to_dict(analyzed))))
    assert again.analysis["actions"] and [p["p_g"] for x in again.analysis["actions"] for p in x["paths"]] == \
        [p["p_g"] for x in analyzed.analysis["actions"] for p in x["paths"]]


def test_bad_export_file_names_the_problem(tmp_path):
    from playtester.analysis.export import load_analyzed
    from playtester.errors import ConfigError

    bad = tmp_path / "x.json"
    bad.write_text('{"version": 1, "actions": [{"name": "a"}]}')
    with pytest.raises(ConfigError, match="field 'analysis'"):
        load_analyzed(bad)
    bad.write_text('{"version": 1,\n "actions": [}')
    with pytest.raises(ConfigError, match=r"x.json:2"):
        load_analyzed(bad)


def test_analysis_failure_falls_back_to_blind_with_a_reason():
    from playtester.env import default_space

    spec = resolve(str(Path(__file__).parents[1] / "fixtures" / "games" / "no_input.py") + ":main")
    space = default_space(spec)  # a game that reads no input: nothing to analyse
    assert space.kind == "blind"
    assert any("analysis failed" in w and "no input handling" in w for w in space.warnings), space.warnings
    with pytest.raises(AnalysisError):
        analyze(resolve("gym:CartPole-v1"))


def test_an_end_of_frame_exit_test_is_not_part_of_any_validity_condition():
    """``if level.finished or frames >= max_frames: running = False`` closes the main loop's body: the
    local it sets is read only by the next frame (live), so no action's p_g may depend on it (else every
    action is valid only on the frame the game ends, and the mask falls back to all-valid)."""
    a = analyze(spec_of("exit_check"))
    assert a.paths
    assert not any("finished" in x["p_g"] or "max_frames" in x["p_g"] for x in a.paths)
    right = [x for x in a.paths if key_code("right") in x["sample_inputs"].keys]
    assert right, names(a)
    with Worker(spec_of("exit_check"), space=a.space(paths=True), capture=None) as w:
        obs = w.reset(seed=0)
        i = a.paths.index(right[0])
        assert obs.action_mask[i] and obs.action_mask.sum() < len(a.paths)  # RIGHT is valid; "not running" is not
        after = w.act(i, frames=1)
        assert after.features["x"] == 1


def test_past_the_fork_budget_a_mixed_input_and_game_test_keeps_only_its_input_part():
    """``if keys[SPACE] and self.cooldown == 0`` met past the budget: the cooldown is taken as the game has
    it now (an assumption, out of p_g), so no action becomes valid only when the cooldown is 0; with the
    whole budget, the cooldown is a real validity condition."""
    full = analyze(spec_of("cooldown_fire"))
    assert any("cooldown" in x["p_g"] for x in full.paths)
    cut = analyze(spec_of("cooldown_fire"), max_forks=1)
    assert cut.paths and any("forks" in n for n in cut.result["stats"]["notes"])
    assert not any("cooldown" in x["p_g"] for x in cut.paths), [x["p_g"] for x in cut.paths]
    assert any(key_code("space") in x["sample_inputs"].keys for x in cut.paths)


def test_slicing_keeps_early_returns_drops_unread_attribute_stores_and_follows_input_reading_constructors():
    """``if self.blink > 0: self.blink -= 1`` stores what nothing after it in the call reads: no action may
    depend on it. ``if self.press is None: return`` decides whether the release is handled: the release's
    actions must. ``Quick()``'s constructor reads the q key: its paths become actions."""
    a = analyze(spec_of("early_return"))
    assert not any("blink" in x["p_g"] for x in a.paths), [x["p_g"] for x in a.paths]
    ups = [x for x in a.paths if x["event"] == "MouseButtonUp"]
    assert ups and all("press" in x["p_g"] for x in ups), [x["p_g"] for x in ups]
    assert len({x["p_g"] for x in ups}) == 2  # press is None (returns early) / is not None (handled)
    q = key_code("q")
    assert any(q in x["sample_inputs"].keys for x in a.paths) and any(q not in x["sample_inputs"].keys
                                                                         for x in a.paths)
    with Worker(spec_of("early_return"), space=a.space(paths=True), capture=None) as w:
        obs = w.reset(seed=0)
        quick = next(i for i, x in enumerate(a.paths) if x["name"] == "q" or x["name"] == "Q")
        assert obs.action_mask[quick]
        assert w.act(quick, frames=1).features["quick"] == 1


def test_past_the_fork_budget_a_call_whose_value_is_dropped_and_reads_no_input_is_not_followed():
    """Past the budget such a call could only add one side of a test on inputs already read; following it
    on every path was most of arena's analysis time."""
    full = analyze(spec_of("dropped_call"))
    assert "recoil" in full.result["stats"]["inlined"]
    cut = analyze(spec_of("dropped_call"), max_forks=1)
    assert cut.result["stats"]["truncated"]
    assert "recoil" not in cut.result["stats"]["inlined"] and "recoil" in cut.result["stats"]["summarized"]
    assert cut.paths


def test_tests_on_unknown_values_do_not_multiply_paths():
    """``if lamp.flicker(): glow = 1`` twice, then LEFT and RIGHT: 4 paths, not 16 (each unknown test's
    two sides continue as one path, the local they set becoming unknown), and the 4 key actions."""
    a = analyze(spec_of("unknown_tests"), explore_steps=0)  # one analysis: its own paths
    assert a.result["stats"]["paths"] == 4
    held = {frozenset(x["sample_inputs"].keys) for x in a.paths}
    left, right = key_code("left"), key_code("right")
    assert len(a.paths) == 4 and {frozenset({left}), frozenset({right})} <= held


def test_one_loop_per_screen_the_play_loop_is_analysed_not_the_outer_loop():
    """An outer ``while True`` calls title (a fade-in that reads no input, then a loop waiting for
    RETURN), play and game-over loops in turn: the analysis takes the innermost loop on the stack that
    reads input, the play loop, and finds its moves and its shot (the outer loop gave no action)."""
    a = analyze(spec_of("screens", init=[{"keys": ["RETURN"], "frames": 20}, {"frames": 2}]))
    assert a.result["loop"]["function"] == "_play_screen"
    keys = {k for x in a.paths for k in x["sample_inputs"].keys}
    assert {key_code("LEFT"), key_code("RIGHT"), key_code("SPACE")} <= keys, names(a)
    # then the other screens' loops, reached by playing the play loop's actions (BACKSPACE gives up, any
    # key leaves game over, RETURN on the title): each analysed too, never the outer loop
    assert sorted(x["loop"]["function"] for x in a.result["loops"]) == ["_game_over", "_play_screen",
                                                                         "_title_screen"]


def test_module_level_loop_reading_input_in_a_sprite_update_through_a_group_single():
    """``if __name__ == "__main__": while True: ... game.run(screen)``, where run() updates a GroupSingle
    whose Player reads the keyboard in update() -> get_input(): every direction and the jump are found,
    and each performed action makes the player take its branch."""
    spec = resolve(str(Path(__file__).parents[1] / "fixtures" / "games" / "module_loop" / "game.py"),
                   frames_per_action=1)
    a = analyze(spec)
    assert a.result["loop"]["module"]
    keys = {k for x in a.paths for k in x["sample_inputs"].keys}
    assert {key_code("LEFT"), key_code("RIGHT"), key_code("SPACE")} <= keys, names(a)
    assert cross_check(spec, a) >= 3


@pytest.mark.parametrize("function", [None, "main"])
def test_an_async_main_loop_is_driven_and_analysed(function):
    """pygbag style: ``async def main()`` whose loop awaits ``asyncio.sleep(0)`` every frame, started by
    ``asyncio.run(main())`` under ``__main__`` (spec: the file) or named as the entry (spec: file:main)."""
    path = Path(__file__).parents[1] / "fixtures" / "games" / "async_loop" / "game.py"
    spec = resolve(f"{path}:{function}" if function else str(path), frames_per_action=1)
    a = analyze(spec)
    assert a.result["loop"]["function"] == "main" and not a.warnings, a.warnings
    keys = {k for x in a.paths for k in x["sample_inputs"].keys}
    assert {key_code("LEFT"), key_code("RIGHT"), key_code("SPACE")} <= keys, names(a)
    assert cross_check(spec, a) >= 3


def test_input_stored_in_a_field_and_passed_to_a_state_picked_from_a_dict():
    """The state-machine platformer style: ``self.keys = pg.key.get_pressed()`` in event_loop(), read in
    update() and passed as ``self.state.update(screen, self.keys, now)`` to the state object picked from a
    dict, whose player reads ``keys[keybinding['jump']]``: the moves and the jump are found (before: 2
    actions, nothing moved), and each performed action takes its branch."""
    spec = resolve(str(Path(__file__).parents[1] / "fixtures" / "games" / "state_machine" / "game.py") + ":main",
                   frames_per_action=1)
    a = analyze(spec)
    assert {"Control.update", "Level.update", "Player.update"} <= set(a.result["stats"]["inlined"])
    keys = {k for x in a.paths for k in x["sample_inputs"].keys}
    assert {key_code("LEFT"), key_code("RIGHT"), key_code("a")} <= keys, names(a)
    assert cross_check(spec, a) >= 3


def test_an_action_presses_no_key_its_path_does_not_need():
    """``keys[a] or keys[LEFT]``: a model may hold both (or keys the path never tests as pressed); the
    action's inputs are the fewest that take the path. Checked on the solver's own terms (a model that
    holds both keys is released to one), then on a game: no action holds both keys of a pair."""
    import z3

    from playtester.analysis.space import fewest_pressed

    a, left = z3.Bool(f"in:key_{key_code('a')}"), z3.Bool(f"in:key_{key_code('left')}")
    shift = z3.Bool(f"in:key_{key_code('left shift')}")
    formula = z3.And(z3.Or(a, left), z3.Or(shift, z3.Not(shift)))
    greedy = z3.Solver()
    greedy.add(formula, a, left, shift)
    assert greedy.check() == z3.sat
    s = z3.Solver()
    s.add(formula)
    m = fewest_pressed(s, formula, greedy.model())
    held = [v for v in (a, left, shift) if z3.is_true(m.eval(v, model_completion=True))]
    assert len(held) == 1 and held[0] in (a, left), held

    acts = analyze(spec_of("either_key_moves")).paths
    pairs = [(key_code("a"), key_code("left")), (key_code("d"), key_code("right")),
             (key_code("w"), key_code("up")), (key_code("s"), key_code("down"))]
    # 16 direction combinations; those of three directions or more that only hold together what smaller actions
    # hold apart (the same keys) are left out (`live.drop_composites`; which depends on the keys each was solved to)
    assert 11 <= len(acts) < 16
    for x in acts:
        keys = x["sample_inputs"].keys
        assert not any(p in keys and q in keys for p, q in pairs), (x["name"], x["p_i_text"])
    assert sum(1 for x in acts if not x["sample_inputs"].keys) == 1  # "no move" presses nothing


def test_past_the_fork_budget_paths_follow_either_side_of_later_input_tests():
    """Past the fork budget each path follows one side of every later test on inputs. Always the pressed
    side made every action hold every key tested late in the frame (on a real game: all four direction
    keys at once, a player who never moves); the side is a seeded coin, so the actions are a spread sample
    and the analysis stays deterministic."""
    spec = spec_of("many_keys")
    cut = analyze(spec, max_forks=8)
    assert cut.result["stats"]["truncated"]
    late = [key_code(c) for c in "ijkl"]
    held = [set(x["sample_inputs"].keys) for x in cut.paths]
    for k in late:
        assert any(k in h for h in held) and any(k not in h for h in held), (k, held)
    assert len(held) >= 8 and not any(len(h) == 12 for h in held)
    again = analyze(spec, max_forks=8)
    assert [x["sample_inputs"].keys for x in again.paths] == [x["sample_inputs"].keys for x in cut.paths]


def test_a_game_test_followed_on_the_live_side_only_is_not_a_condition_of_the_action():
    """The restart path assumes ``game_over`` (the game plays while it is analysed); the ball test after it
    would be a second assumed game value, so only the live side (the ball on screen) is followed, and that
    side must not become part of p_g: the restart would then be valid only while the ball is on screen, which
    never holds once the game is over (pygame-brickbreaker's restart key, before). Performed after the ball
    fell, the restart restarts."""
    spec = spec_of("restart_after_fall")
    a = analyze(spec)
    restart = [x for x in a.paths if x["event"] == "KeyDown(r)"]
    assert restart and all("game_over" in x["p_g"] and "ball_y" not in x["p_g"] for x in restart), \
        [x["p_g"] for x in restart]
    i = a.paths.index(restart[0])
    with Worker(spec, space=a.space(paths=True), capture=None) as w:
        obs = w.reset(seed=0)
        obs = w.step(InputFrame(), frames=260)  # no input: the ball falls and the game is over
        assert obs.features["game_over"] == 1 and not obs.done
        assert obs.action_mask[i]
        after = w.act(i, frames=1)
        assert after.features["restarts"] == 1 and after.features["game_over"] == 0
