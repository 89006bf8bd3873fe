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
