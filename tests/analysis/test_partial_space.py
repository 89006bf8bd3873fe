"""A budget spent before the paths became actions leaves a partial space, made from paths spread over the
whole input handling (not the executor's depth-first prefix), with at least ``MIN_PATHS`` paths read and
``MIN_ACTIONS`` actions made. `build_actions` on real executor states (z3 conditions) past the deadline."""

from __future__ import annotations

import time

import pygame
import z3

from playtester.analysis import symbolic as sx
from playtester.analysis.paths import MIN_ACTIONS, MIN_PATHS, build_actions


def _executor_out_of_time() -> sx.Executor:
    ex = sx.Executor(pygame=pygame, game_files=set(), reaches_input=lambda code: False, screen=(64, 64), roots={},
                     module_index={})
    ex.hard_deadline = time.process_time() - 1.0  # the budget is already spent
    ex.budget_s = 1.0
    return ex


def test_paths_past_the_budget_are_read_spread_over_the_input_handling():
    # 20 keys, 30 paths each, in the executor's depth-first order: key a's paths first, then b's ...
    ends = [sx.State(pc=[z3.Bool(f"in:key_{97 + i // 30}")]) for i in range(20 * 30)]
    ex = _executor_out_of_time()
    actions, merged = build_actions(ex, ends, (64, 64))
    assert ex.partial == f"{MIN_PATHS} of 600 paths read before the analysis budget ran out"
    keys = {a["p_i_text"] for a in actions}
    # the first 256 paths in the executor's order would hold 9 keys only
    assert keys == {f"key_{97 + k}" for k in range(20)}, keys
    assert merged == MIN_PATHS - 20


def test_actions_past_the_budget_stop_after_the_minimum():
    ends = [sx.State(pc=[z3.Bool(f"in:key_{k}"), z3.Bool(f"in:key_{k + 1}")]) for k in range(1, 400)]
    ex = _executor_out_of_time()
    actions, _merged = build_actions(ex, ends, (64, 64))
    assert len(actions) == MIN_ACTIONS
    assert f"{MIN_ACTIONS} of {MIN_PATHS} actions made before the analysis budget ran out" in ex.partial


def test_past_the_ceiling_of_the_budget_no_more_actions_are_made_or_named_and_checks_end_at_once():
    """The budget is a ceiling (zombie-escape's analysis took 10.10 s of CPU for a budget of 10 s: the minimum of
    actions was made and named past it). Past ``ceiling`` the actions phase keeps what it has (at least one action),
    naming stops likewise, and each solver check's timeout is cut to what is left (1 ms past it)."""
    from playtester.analysis.live import name_actions

    ends = [sx.State(pc=[z3.Bool(f"in:key_{k}"), z3.Bool(f"in:key_{k + 1}")]) for k in range(1, 400)]
    ex = _executor_out_of_time()
    ex.ceiling = time.process_time() - 0.5
    assert ex.past_ceiling() and ex.ms_left(500) == 1
    actions, _merged = build_actions(ex, ends, (64, 64))
    assert len(actions) == 1 and "1 of 399 paths read before the analysis budget ran out" in ex.partial
    ex.partial = None
    many = [sx.State(pc=[z3.Bool(f"in:key_{k}")]) for k in range(1, 40)]
    sx_ceiling, ex.ceiling = ex.ceiling, time.process_time() + 60.0  # reading within the budget, making past it:
    asked = [0]  # the clock passes the ceiling once the 39 paths are read (38 asks), as the actions are made

    def passes() -> bool:
        asked[0] += 1
        return asked[0] > 38

    ex.past_ceiling = passes  # type: ignore[method-assign]
    actions, _merged = build_actions(ex, many, (64, 64))
    assert len(actions) == 1 and "1 of 39 actions made before the analysis budget ran out" in ex.partial
    del ex.past_ceiling
    ex.ceiling = sx_ceiling
    result = {"actions": actions + [dict(a) for a in actions]}
    result["actions"][1]["_pi"] = result["actions"][0]["_pi"]
    name_actions(result, (64, 64), ex)
    assert len(result["actions"]) == 1 and "name" in result["actions"][0]
    assert "1 of 2 actions solved before the analysis budget ran out" in ex.partial
    # within the budget, a check gets its full timeout, less as the ceiling comes
    ex.ceiling = time.process_time() + 60.0
    assert ex.ms_left(500) == 500 and not ex.past_ceiling()
    ex.ceiling = time.process_time() + 0.2
    assert 100 <= ex.ms_left(500) <= 200


def test_execution_past_the_budget_drops_unfinished_paths_and_keeps_a_partial_space():
    """many_paths given the room to fork (2**22 paths) and 2 s of CPU: it used to give up (no space at all);
    past the trim deadline each block runs at most TRIM_KEEP paths on, so the execution ends in time and its
    paths, spread over the 22 keys, become a partial space that says so."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1]))
    from conftest import fixture_spec

    from playtester.analysis import analyze

    a = analyze(fixture_spec("many_paths", analysis_seconds=2, analysis_max_forks=10**8), explore_steps=0)
    r = a.result
    assert "paths dropped unfinished to end the symbolic execution within the analysis budget" in r["partial"]
    assert any(w.startswith("partial action space:") and "dropped unfinished" in w for w in a.warnings)
    assert MIN_ACTIONS <= len(r["actions"]) <= sx.TRIM_KEEP
    frames = [act["sample_inputs"] for act in r["actions"] if act["sample_inputs"] is not None]
    # the kept paths are spread: the first keys the executor forked on are down in some and up in others (the
    # thousands of paths forked in 0.4 s share their first decisions in fork order: 64 of them in a row would hold
    # keys a, b, c ... one way only). The keys past the fork budget follow one side on every path.
    for key in range(pygame.K_a, pygame.K_f + 1):
        assert any(key in f.keys for f in frames) and any(key not in f.keys for f in frames), chr(key)
    assert a.cpu_seconds <= 2 * 1.05  # ended within the budget (its ceiling), not by running every path


def test_paths_still_running_at_the_deadline_end_there_and_the_analysis_gives_up_only_past_a_grace():
    """At the hard deadline the paths the trimming kept running end where they are (their conditions so far
    make over-approximating actions, the space says it is partial); only ``GIVE_UP_GRACE`` of the budget later
    does the executor give up."""
    import ast

    import pytest

    ex = _executor_out_of_time()
    ex.budget_s = 10.0
    now = time.process_time()
    ex.trim_deadline = now - 2.0
    ex.hard_deadline = now - 0.1  # within the grace (0.5 s of a 10 s budget)
    body = ast.parse("a = 1\nb = 2\n").body
    out = ex.run_block(body, sx.State(), "game.py")
    assert len(out) == 1 and out[0][0].done and "a" not in out[0][0].env
    assert "1 paths cut short at the end of the analysis budget (at game.py:1)" in ex.partial
    ex.hard_deadline = time.process_time() - sx.GIVE_UP_GRACE * ex.budget_s - 0.5
    with pytest.raises(sx.AnalysisBudget):
        ex.run_block(body, sx.State(), "game.py")


def test_a_trim_keeps_mostly_paths_in_the_world_the_live_game_is_in():
    """Past the trim deadline the paths kept are mostly those that assume no game value other than it is now
    (``LIVE_SHARE``): the agent starts in that world, and actions valid only in an assumed one (paused, a debug
    mode) cannot be taken until the game gets there. The rest go to assumed worlds, and all to one world when
    the other has too few."""
    import ast

    ex = _executor_out_of_time()

    def trim(n_here: int, n_there: int, keep: int) -> tuple[int, int]:
        here = [sx.State(pc=[z3.Bool(f"in:key_{97 + i % 20}")]) for i in range(n_here)]
        there = [sx.State(pc=[z3.Bool(f"in:key_{97 + i % 20}")], deviated=frozenset({"g:paused"}))
                 for i in range(n_there)]
        todo = [(s, None) for s in here + there]
        out = ex._trim(todo, ast.Pass(), "game.py", keep, ran=len(todo))
        kept = [s for s, _ in out]
        return sum(1 for s in kept if not s.deviated), sum(1 for s in kept if s.deviated)

    assert trim(100, 100, 16) == (12, 4)
    assert trim(2, 100, 16) == (2, 14)
    assert trim(100, 1, 16) == (15, 1)
    assert trim(100, 0, 16) == (16, 0)


def test_a_loop_whose_analysis_ran_out_of_budget_also_offers_the_blind_actions():
    """A partial analysis may have dropped the only paths that leave a screen (zombie-escape's title kept no
    way to confirm, and the random agent stayed there): in such a loop the blind actions (`fallback_actions`)
    are valid beside the analysed ones; a game whose one loop is analysed in full gets none."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1]))
    from conftest import fixture_spec

    from playtester.analysis import analyze
    from playtester.analysis.space import FALLBACK_PREFIX
    from playtester.drive.worker import Worker

    def valid_fallbacks(spec, a) -> tuple[int, int]:
        space = a.space(paths=True)
        fb = [i for i, act in enumerate(space.actions) if act.name.startswith(FALLBACK_PREFIX)]
        with Worker(spec, space=space, capture=None) as w:
            w.reset(seed=0)
            obs = w.step(space.actions[0].inputs, frames=3)  # the loop runs
            return len(fb), sum(int(obs.action_mask[i]) for i in fb)

    part_spec = fixture_spec("many_paths", analysis_seconds=2, analysis_max_forks=10**8)
    part = analyze(part_spec)
    assert part.result["partial"]
    n, valid = valid_fallbacks(part_spec, part)
    assert n == 2 * 22 and valid == n  # press and release of each of the 22 keys the game names
    full_spec = fixture_spec("many_paths", analysis_max_forks=64)
    full = analyze(full_spec)
    assert not full.result.get("partial")
    n, valid = valid_fallbacks(full_spec, full)
    assert n == 0 and full.result["unanalysed"] == []  # its one loop analysed in full: no blind action at all
