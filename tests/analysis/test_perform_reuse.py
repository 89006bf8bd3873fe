"""Fast performing of analyzed actions: p_i compiled to Python must agree with z3, the device rules
checked in Python must agree with `add_device_rules`, and on a live game every frame performed from a
kept solution (instead of a z3 call) must satisfy p_i under the game values of that moment."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
import z3

from playtester.analysis import analyze
from playtester.analysis import space as sp
from playtester.analysis.fastcheck import Devices, compile_formula, compile_smt2
from playtester.analysis.symbolic import _var_map
from playtester.drive.inputs import InputFrame
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker


def _z3_value(var, x):
    if z3.is_bool(var):
        return z3.BoolVal(bool(x))
    if z3.is_int(var):
        return z3.IntVal(int(x))
    x = Fraction(x)
    return z3.RealVal(f"{x.numerator}/{x.denominator}")


def _z3_truth(formula, values):
    """z3's own verdict on ``formula`` under a full assignment."""
    vs = _var_map(formula)
    got = z3.simplify(z3.substitute(formula, *[(v, _z3_value(v, values[n])) for n, v in vs.items()])) if vs \
        else z3.simplify(formula)
    assert z3.is_true(got) or z3.is_false(got), got
    return z3.is_true(got)


def _random_value(var, rng, consts):
    if z3.is_bool(var):
        return rng.random() < 0.5
    x = rng.choice(consts) + rng.choice([0, 0, 1, -1, rng.randint(-3, 3)])
    if z3.is_int(var):
        return int(x)
    return Fraction(x) + rng.choice([0, 0, Fraction(1, 2), Fraction(-1, 3), Fraction(7, 10)])


def _check_agreement(formula, pred, rng, n_random=40, n_models=10):
    """The predicate against z3 on random assignments and on (perturbed) models of the formula."""
    vs = _var_map(formula)
    consts = [0, 1, 2, 5, 16, 48, 100, 440, 768, 1024, 1025]
    checked = {True: 0, False: 0}
    assignments = [{n: _random_value(v, rng, consts) for n, v in vs.items()} for _ in range(n_random)]
    s = z3.Solver()
    s.add(formula)
    for _ in range(n_models):  # satisfying assignments (and their neighbours) exercise the True side
        if s.check() != z3.sat:
            break
        m = s.model()
        env = sp._assignment(m, formula)
        if env is None:
            break
        assignments.append(env)
        for _ in range(3 if vs else 0):
            near = dict(env)
            name = rng.choice(list(vs))
            near[name] = _random_value(vs[name], rng, consts + [env[name]] if not isinstance(env[name], bool)
                                       else consts)
            assignments.append(near)
        s.add(z3.Or(*[v != m.eval(v, model_completion=True) for v in vs.values()]) if vs else z3.BoolVal(False))
    for env in assignments:
        got = pred(env)
        want = _z3_truth(formula, env)
        if got is None:  # undecided (a division by zero): the caller falls back to z3
            continue
        assert got == want, (pred.source, env)
        checked[want] += 1
    return checked


def _random_formula(rng, depth=0):
    """A random Boolean formula over a few Int, Real and Bool constants with every translated operator."""
    xi = [z3.Int(f"i{k}") for k in range(3)]
    xr = [z3.Real(f"r{k}") for k in range(2)]
    xb = [z3.Bool(f"b{k}") for k in range(2)]

    def num(d, real=False):
        if d > 2 or rng.random() < 0.3:
            if real:
                literal = z3.RealVal(rng.choice(["1/2", "3", "-7/3", "0.25"]))
                return rng.choice(xr + [literal, z3.ToReal(rng.choice(xi))])
            return rng.choice(xi + [z3.IntVal(rng.randint(-6, 6))])
        a, b = num(d + 1, real), num(d + 1, real)
        ops = [lambda: a + b, lambda: a - b, lambda: a * rng.randint(-3, 3), lambda: -a,
               lambda: z3.If(boolean(d + 1), a, b)]
        if real:
            ops += [lambda: a / z3.RealVal(rng.choice([2, 3, -4])), lambda: z3.ToReal(z3.ToInt(a))]
        else:
            ops += [lambda: a / rng.choice([1, 2, 3, -5, 48]), lambda: a % rng.choice([2, 3, -4, 48]),
                    lambda: z3.ToInt(num(d + 1, True))]
        return rng.choice(ops)()

    def boolean(d):
        if d > 2 or rng.random() < 0.2:
            return rng.choice(xb + [z3.BoolVal(rng.random() < 0.5)])
        real = rng.random() < 0.4
        a, b = num(d + 1, real), num(d + 1, real)
        p, q = boolean(d + 1), boolean(d + 1)
        ops = [lambda: a == b, lambda: a != b, lambda: a < b, lambda: a <= b, lambda: a > b, lambda: a >= b,
               lambda: z3.And(p, q), lambda: z3.Or(p, q, boolean(d + 1)), lambda: z3.Not(p),
               lambda: z3.Implies(p, q), lambda: z3.Xor(p, q), lambda: z3.If(p, q, boolean(d + 1)),
               lambda: z3.Distinct(a, b, num(d + 1, real)), lambda: p == q, lambda: z3.IsInt(num(d + 1, True))]
        return rng.choice(ops)()

    return boolean(depth)


def test_translation_agrees_with_z3_on_random_formulas():
    rng = random.Random(7)
    totals = {True: 0, False: 0}
    for _ in range(150):
        f = _random_formula(rng)
        pred = compile_formula(f)
        assert pred is not None, f
        got = _check_agreement(f, pred, rng, n_random=25, n_models=3)
        totals[True] += got[True]
        totals[False] += got[False]
    assert totals[True] > 300 and totals[False] > 300, totals


@pytest.mark.parametrize("term,sort", [("(div x y)", "Int"), ("(mod x y)", "Int"), ("(rem x y)", "Int"),
                                       ("(to_int (/ (to_real x) (to_real y)))", "Int"), ("(abs (- x y))", "Int"),
                                       ("(/ (to_real x) (to_real y))", "Real"), ("(- x)", "Int"),
                                       ("(ite (is_int (/ (to_real x) 2.0)) 1 0)", "Int"), ("(- x y 3)", "Int"),
                                       ("(* (- 1.5) (to_real x) (to_real y))", "Real")])
def test_arithmetic_operators_have_z3_semantics_on_negative_operands(term, sort):
    """div/mod/rem/to_int round as SMT-LIB says (not as Python does) for every sign of the operands."""
    text = f"(declare-fun x () Int)(declare-fun y () Int)(declare-fun q () {sort})(assert (= {term} q))"
    pred = compile_smt2(text)
    (body,) = z3.parse_smt2_string(text)
    x, y, value_term = z3.Int("x"), z3.Int("y"), body.arg(0)
    for a in range(-9, 10):
        for b in [-4, -3, -2, -1, 1, 2, 3, 5]:
            got = z3.simplify(z3.substitute(value_term, (x, z3.IntVal(a)), (y, z3.IntVal(b))))
            value = got.as_long() if sort == "Int" else Fraction(got.numerator_as_long(), got.denominator_as_long())
            assert pred({"x": a, "y": b, "q": value}) is True, (term, a, b, value)
            assert pred({"x": a, "y": b, "q": value + 1}) is False, (term, a, b, value)
            assert _z3_truth(body, {"x": a, "y": b, "q": value})


def test_translation_of_smt_lib_details():
    assert compile_smt2("")({}) is True
    assert compile_smt2("(declare-fun x () Int)(assert (let ((a!1 (+ x 1))) (let ((a!2 (* a!1 2))) (= a!2 4))))")(
        {"x": 1}) is True
    # parallel let: the bound term sees the outer name
    p = compile_smt2("(declare-fun x () Int)(assert (let ((x 3)) (let ((x (+ x 1))) (= x 4))))")
    assert p({"x": 0}) is True
    assert compile_smt2("(declare-fun x () Int)(assert (< 0 x 5 9))")({"x": 3}) is True  # chained comparison
    assert compile_smt2("(declare-fun x () Int)(assert (< 0 x 5 9))")({"x": 6}) is False
    assert compile_smt2("(declare-fun x () Real)(assert (= (/ x 0.0) 1.0))")({"x": Fraction(1)}) is None
    assert compile_smt2("(declare-fun x () Int)(assert (= x 1))")({}) is None  # no value: undecided
    assert compile_smt2("(declare-fun s () String)(assert (= s s))") is None  # not translated: z3 stays
    assert compile_smt2("(declare-fun x () (_ BitVec 8))(assert (= x x))") is None
    assert compile_smt2("(declare-fun f (Int) Int)(assert (= (f 1) 1))") is None
    # a let chain deeper than Python's parser would nest
    deep = "(declare-fun x () Int)(assert " + "(let ((a (+ x 1))) " * 600 + "(> a 0)" + ")" * 600 + ")"
    assert compile_smt2(deep)({"x": 1}) is True
    nested = "(declare-fun x () Int)(assert (> " + "(+ 1 " * 300 + "x" + ")" * 300 + " 0))"
    assert compile_smt2(nested)({"x": -299}) is True and compile_smt2(nested)({"x": -300}) is False


@pytest.fixture(scope="module")
def tilematch():
    return analyze(resolve("tilematch"), explore_steps=0)  # one analysis: the reuse mechanics


@pytest.fixture(scope="module")
def aliens():
    return analyze(resolve("pygame.examples.aliens:main"), explore_steps=0)


def test_translation_agrees_with_z3_on_bundled_game_formulas(tilematch, aliens):
    rng = random.Random(3)
    totals = {True: 0, False: 0}
    for a in (tilematch, aliens):
        for text in sorted({x["p_i"] for x in a.paths}):
            formula = sp._parsed(text)
            pred = compile_smt2(text)
            assert pred is not None, text
            got = _check_agreement(formula, pred, rng, n_random=15, n_models=2)
            totals[True] += got[True]
            totals[False] += got[False]
    assert totals[True] > 200 and totals[False] > 200, totals


def _devices_by_z3(formula, env, held, screen):
    """Whether ``env`` respects what `add_device_rules` adds and `solve` demands (the key list)."""
    s = z3.Solver()
    sp.add_device_rules(s, formula, held, screen)
    vs = sp._input_vars(formula)
    if "in:ev_key" in vs:
        s.add(z3.Or(*[vs["in:ev_key"] == k for k in sp.key_domain()]))
    s.add(*[v == _z3_value(v, env[n]) for n, v in vs.items()])
    return s.check() == z3.sat


def test_device_rules_in_python_agree_with_add_device_rules():
    import pygame

    rng = random.Random(5)
    keys = [pygame.K_LEFT, pygame.K_SPACE, pygame.K_a, 27, 5000]
    ev = z3.Int("in:ev_type")
    formula = z3.And(ev >= 0, z3.Int("in:ev_key") >= 0, z3.Int("in:ev_button") >= 0, z3.Int("in:mx") >= 0,
                     z3.Int("in:my") >= 0, z3.Bool(f"in:key_{pygame.K_LEFT}"), z3.Bool("in:mb_1") == z3.Bool("in:mb_3"),
                     z3.Int("in:hx_0_0") == z3.Int("in:hx_0_0"), z3.Real("in:ax_0_1") <= 5)
    vs = sp._input_vars(formula)
    dev = Devices(vs)
    types = [pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, 0]
    seen = {True: 0, False: 0}
    for _ in range(600):
        held = InputFrame(keys=frozenset(rng.sample(keys, rng.randint(0, 2))),
                          mouse_buttons=frozenset(rng.sample([1, 2, 3], rng.randint(0, 2))),
                          mouse_pos=rng.choice([None, (10, 20), (0, 0)]))
        env = {"in:ev_type": rng.choice(types), "in:ev_key": rng.choice(keys + [0, -3]),
               "in:ev_button": rng.choice([0, 1, 2, 3, 4]), "in:mx": rng.choice([-1, 0, 10, 639, 640]),
               "in:my": rng.choice([0, 20, 479, 480]), f"in:key_{pygame.K_LEFT}": rng.random() < 0.5,
               "in:mb_1": rng.random() < 0.5, "in:mb_3": rng.random() < 0.5, "in:hx_0_0": rng.choice([-2, -1, 0, 1]),
               "in:ax_0_1": rng.choice([Fraction(-3, 2), Fraction(1, 2), Fraction(1)])}
        screen = rng.choice([(0, 0), (640, 480)])
        got = dev.ok(env, held, screen, set(sp.key_domain()))
        want = _devices_by_z3(formula, env, held, screen)
        assert got == want, (env, held, screen)
        seen[want] += 1
    assert seen[True] > 20 and seen[False] > 20, seen


def _verify_entry(a, e):
    """An entry of the episode's reuse log: its frame must be a solution of p_i under the game values of
    that moment, with the device rules relative to the held inputs, checked by z3 (game values turned
    into z3 terms with `_const_for`, as a z3 perform does), and the frame z3's path makes from it."""
    act = a.paths[e["index"]]
    formula = sp._parsed(act["p_i"])
    enums = a.result.get("enums", {})
    s = z3.Solver()
    s.add(formula)
    free = set()
    for name, raw in e["game_values"].items():
        info = a.result["game_vars"][name]
        term = sp._const_for(name, info, raw, enums)
        if term is None:
            free.add(name)
        else:
            s.add(sp._var(name, info) == term)
    sp.add_device_rules(s, formula, e["held"], e["screen"])
    vs = _var_map(formula)
    if "in:ev_key" in vs:
        s.add(z3.Or(*[vs["in:ev_key"] == k for k in sp.key_domain()]))
    # the solution as performed: inputs, unknowns and the game variables z3 would leave free
    s.add(*[v == _z3_value(v, e["env"][n]) for n, v in vs.items() if not n.startswith("g:") or n in free])
    assert s.check() == z3.sat, (act["name"], act["p_i_text"], e)
    frame = sp.frame_from_model(s.model(), formula, e["held"], e["screen"], e["keyat"])
    if e["kind"] == "spread":
        assert e["frame"].mouse_pos == (e["env"]["in:mx"], e["env"]["in:my"])
        if e["keyat"] is None:  # (a spread's log has no key-at values)
            frame = replace(frame, keys=frame.keys | e["frame"].keys)
    assert frame == e["frame"], (frame, e["frame"])


COUNTERS = ("solves", "reuses", "cache_hits", "spread_checks", "spread_solves", "perform_n", "perform_unsat")


def _play(a, spec, steps, seed):
    """Random valid actions on the live game: the reuse log and the perform counters of every episode."""
    space = a.space(paths=True)
    rng = random.Random(seed)
    entries, totals, last = [], dict.fromkeys(COUNTERS, 0), {}
    with Worker(spec, space=space, capture=None) as w:
        obs = w.reset(seed=seed)
        for step in range(steps):
            valid = [i for i, m in enumerate(obs.action_mask) if m] or list(range(len(space)))
            obs = w.act(rng.choice(valid))
            if obs.done:  # (what this episode did since the last look is lost with it)
                obs, last = w.reset(seed=seed + step + 1), {}
                continue
            if step % 10 == 9 or step == steps - 1:
                entries += w.call("playtester.analysis.space:reuse_log")
                st = w.call("playtester.analysis.space:stats")
                for k in COUNTERS:
                    totals[k] += st.get(k, 0) - last.get(k, 0)
                last = st
    return entries, totals


@pytest.mark.parametrize("game", ["tilematch", "pygame.examples.aliens:main"])
def test_frames_reused_on_a_live_game_satisfy_p_i_under_the_values_of_that_moment(game, tilematch, aliens):
    a = tilematch if game == "tilematch" else aliens
    entries, totals = _play(a, resolve(game), steps=250, seed=1)
    assert totals["reuses"] > 0 and entries, totals
    seen: dict[int, set] = {}
    for e in entries:
        _verify_entry(a, e)
        if e["kind"] == "reuse":
            seen.setdefault(e["index"], set()).add(tuple(sorted(e["game_values"].items())))
    # the same action was performed from a kept solution under different game values (not a cache hit)
    assert any(len(v) > 1 for v in seen.values()), seen
    assert totals["solves"] < totals["perform_n"] / 3, totals  # most performs do without z3


def _tiny_space(pi_formula, game_vars=("g:0",)):
    """An analyzed space of one action with p_i = ``pi_formula`` over ``L['n']`` (g:0), run in-process."""
    pi = z3.Solver()
    pi.add(pi_formula)
    analysis = {"loop": {"file": "x", "function": "f", "firstlineno": 1, "module": True}, "modules": [],
                "game_vars": {"g:0": {"src": "L['n']", "kind": "int"}}, "enums": {}, "screen": [640, 480],
                "actions": [{"name": "a key", "p_g": "True", "p_i": pi.to_smt2(), "p_i_game_vars": list(game_vars),
                             "forked": {}, "needs_held": ["keys"], "uses_instances": False}]}
    space = sp.AnalyzedSpace("analyzed", [], analysis=analysis)
    rt = space._runtime()
    rt.roots = lambda ctx: {"L": {"n": ctx.features.get("n", 0)}, "M": [], "H": ctx.held, "S": None}
    return space, rt


def test_reuse_respects_held_inputs_in_process():
    """A KEYDOWN solution is not reused while its key is held (another free key is), and z3 is asked
    only when no kept solution holds under the new game values."""
    import pygame

    from playtester.actions.space import ActionContext

    ev, key = z3.Int("in:ev_type"), z3.Int("in:ev_key")
    space, rt = _tiny_space(z3.And(ev == pygame.KEYDOWN, key != 27, z3.Int("g:0") > 2))
    space.prepare()  # (as the worker host does: a first solution, game state left free)
    first = space.perform(0, ActionContext(features={"n": 3}))[0]
    assert len(first.keys) == 1
    (k,) = first.keys
    assert rt.timing["reuses"] == 1 and rt.timing["solves"] == 0  # the host's first solution held
    assert space.perform(0, ActionContext(features={"n": 4}))[0] == first and rt.timing["reuses"] == 2
    other = space.perform(0, ActionContext(features={"n": 5}, held=InputFrame(keys=frozenset({k}))))[0]
    assert rt.timing["reuses"] == 3 and rt.timing["solves"] == 0
    assert len(other.keys) == 1 and k not in other.keys and other.keys <= set(sp.key_domain())
    assert space.perform(0, ActionContext(features={"n": 2}))[0] == InputFrame()  # unsat: everything released
    assert rt.perform_unsat == 1 and rt.timing["solves"] == 1
    log = rt.reuse_log
    assert [e["kind"] for e in log] == ["reuse"] * 3 and log[2]["held"].keys == {k}


def test_solving_adds_the_held_input_rules_when_the_model_breaks_them():
    import pygame

    from playtester.actions.space import ActionContext

    a, b, c = pygame.K_a, pygame.K_b, pygame.K_c
    ev, key = z3.Int("in:ev_type"), z3.Int("in:ev_key")
    space, rt = _tiny_space(z3.And(ev == pygame.KEYDOWN, z3.Or(key == a, key == b, key == c), z3.Int("g:0") > 0))
    got = space.perform(0, ActionContext(features={"n": 1}, held=InputFrame(keys=frozenset({a, b}))))[0]
    assert got.keys == {c} and rt.timing["solves"] == 1  # (no first solution: prepare did not run)
    space2, rt2 = _tiny_space(z3.And(ev == pygame.KEYDOWN, z3.Or(key == a, key == b), z3.Int("g:0") > 1))
    assert space2.perform(0, ActionContext(features={"n": 2}, held=InputFrame(keys=frozenset({a, b}))))[0] == \
        InputFrame()
    assert rt2.timing["held_solves"] == 1 and rt2.perform_unsat == 1  # sat without them, unsat with them
