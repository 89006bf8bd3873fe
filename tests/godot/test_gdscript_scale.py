"""Building the GDScript analysis' actions scales (issue 56: openjam2020's `analyze` ran past 300 s: one handler
with 430 behaviours, 8 actions, each behaviour tried against all 256 sets of held actions and every combination
with the other handlers' behaviours). A behaviour is decided once per part of a held set it reads, handlers that
share no variable are decided apart, and past MAX_JOINT joint behaviours each group's behaviours are actions of
their own; below it the actions are those of the plain product (checked against it here)."""

from __future__ import annotations

import itertools
from pathlib import Path

from playtester.analysis import gdscript
from playtester.analysis.gdscript import _assign, _subsets, analyze_project
from playtester.drive.godot import input_actions

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "godot"


def _product_joint(behaviours, names):
    """The held sets of each joint behaviour, as the plain product over every held set decides them (the code
    before this change)."""
    z3 = gdscript._z3()
    solver = z3.Solver()
    joint = {}
    for held in _subsets(names):
        sub = _assign(names, held)
        options = []
        for bs in behaviours:
            ok = []
            for k, b in enumerate(bs):
                c = z3.simplify(z3.substitute(b.cond, *sub)) if sub else b.cond
                solver.push()
                solver.add(c)
                if not z3.is_false(c) and solver.check() != z3.unsat:
                    ok.append((k, c))
                solver.pop()
            options.append(ok)
        for combo in itertools.product(*options):
            solver.push()
            solver.add(*[c for _, c in combo])
            if solver.check() != z3.unsat:
                joint.setdefault(tuple(k for k, _ in combo), []).append(held)
            solver.pop()
    return sorted(([list(h) for h in hs] for hs in joint.values()), key=lambda hs: (len(hs[0]), hs[0]))


def _spy(monkeypatch):
    seen = {}
    real = gdscript._actions

    def spy(behaviours, names, game_vars):
        seen["args"] = (behaviours, names)
        out = real(behaviours, names, game_vars)
        seen["out"] = out
        return out

    monkeypatch.setattr(gdscript, "_actions", spy)
    return seen


def test_below_the_cap_the_actions_are_the_products(monkeypatch):
    for name in ("nodesproj", "axisproj", "suffixproj"):
        seen = _spy(monkeypatch)
        folder = FIXTURES / name
        analyze_project(folder, input_actions(folder))
        behaviours, names = seen["args"]
        want = _product_joint(behaviours, names)
        got = [a["held"] for a in seen["out"]]
        assert sorted(got, key=lambda hs: (len(hs[0]), hs[0])) == want, name
        assert not any("handlers" in a for a in seen["out"])


def test_many_behaviours_in_independent_handlers_analyse_quickly():
    folder = FIXTURES / "manyproj"
    names = input_actions(folder)
    assert len(names) == 8
    r = analyze_project(folder, names)
    # 4 handlers of 20 behaviours each, sharing no variable: 5^4 joint behaviours for each of the 256 held sets
    # (160,000 solver calls before); now each handler's behaviours are its actions.
    assert r["timings"]["cpu_s"] < 40, r["timings"]
    assert [h["behaviours"] for h in r["handlers"]] == [20, 20, 20, 20]
    assert len(r["actions"]) == 80
    assert sorted(r["input_actions"]) == sorted(names)
    for a in r["actions"]:
        assert len(a["handlers"]) == 1 and len(a["effects"]) == 1
    held_first = {x for a in r["actions"] for x in a["held"][0]}
    assert held_first == set(names)
    ship = [a for a in r["actions"] if a["handlers"] == ["res://ship.gd:_physics_process"]]
    assert len(ship) == 20
    assert all({v.split(":")[-2] for v in a["vars"] if v.startswith("g:")} <= {"engine"} for a in ship)
