"""The ``analyzed`` action space at play time (runs in the episode process).

- Validity: every distinct p_g is compiled once into one Python function over the live game (the
  main loop's locals ``L``, module globals ``M``, an instance ``S`` of a class whose method reads
  inputs, the inputs held in the previous frame ``H``) and evaluated per step.
- Performing: p_i is parsed once, the game variables it mentions are evaluated on the live game, and
  z3 solves it (one solver per action, push/pop, answers cached by those concrete values). The model
  becomes an `InputFrame`: keys held, mouse position and buttons, joystick axes, buttons and hats.
"""

from __future__ import annotations

import gc
import weakref
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from playtester.actions.space import Action, ActionContext, ActionSpace
from playtester.drive.inputs import InputFrame


@dataclass
class AnalyzedSpace(ActionSpace):
    """Actions from program analysis: ``analysis`` is the JSON-ready result of `analyze_here`."""

    analysis: dict[str, Any] = field(default_factory=dict)
    _rt: Any = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_rt"] = None
        return state

    def _runtime(self) -> _Runtime:
        if self._rt is None:
            self._rt = _Runtime(self.analysis)
        return self._rt

    def prepare(self) -> None:
        """Parse every action's p_i once in the worker host; episodes forked from it inherit them."""
        import z3

        for a in self.analysis.get("actions", []):
            text = a["p_i"]
            if text not in _PARSED:
                _PARSED[text] = z3.And(*z3.parse_smt2_string(text)) if text else z3.BoolVal(True)
        if len(_PARSED) > 20000:
            _PARSED.clear()

    def mask(self, ctx: ActionContext) -> np.ndarray:
        return self._runtime().mask(ctx)

    def perform(self, index: int, ctx: ActionContext) -> tuple[InputFrame, int | None]:
        return self._runtime().perform(index, ctx), None


def make_analyzed_space(analysis: dict[str, Any], source: str) -> AnalyzedSpace:
    actions = [Action(a["name"], a.get("sample_inputs") or InputFrame(), mode="hold",
                      description=f"valid when {a['p_g_text']}; inputs {a['p_i_text']}")
               for a in analysis["actions"]]
    return AnalyzedSpace("analyzed", actions, source=source, analysis=analysis)


class _Instances:
    """Live instances of a class, found with the garbage collector (again while none exist yet: a game
    may create them after its first frame), then tracked through the class's ``__init__``."""

    def __init__(self, module: str, qualname: str) -> None:
        self.module, self.qualname = module, qualname
        self.cls: type | None = None
        self.live: weakref.WeakSet[Any] = weakref.WeakSet()
        self.calls = 0
        self._scan()

    def _scan(self) -> None:
        for o in gc.get_objects():  # by name: the running module may be another copy than sys.modules'
            t = type(o)
            if t.__qualname__ == self.qualname and t.__module__ == self.module:
                try:
                    self.live.add(o)
                except TypeError:
                    continue
                if self.cls is None:
                    self.cls = t
                    self._track(t)

    def _track(self, cls: type) -> None:
        orig = cls.__init__
        live = self.live

        def tracked(obj: Any, *a: Any, **k: Any) -> None:
            orig(obj, *a, **k)
            if type(obj) is cls:
                live.add(obj)

        try:
            cls.__init__ = tracked  # type: ignore[method-assign]
        except TypeError:
            pass

    def all(self) -> list[Any]:
        if self.cls is None:
            self.calls += 1
            if self.calls % 10 == 1:
                self._scan()
        return list(self.live)[:32]


class _Runtime:
    def __init__(self, analysis: dict[str, Any]) -> None:
        self.a = analysis
        loop = analysis["loop"]
        self.loop_key = (loop["file"], loop["function"], loop["firstlineno"])
        self.is_module = loop["module"]
        self.modules = analysis["modules"]
        self.inst_roots = [_Instances(m, q) for m, q in analysis.get("instance_roots", [])]
        self.actions = analysis["actions"]
        self.n = len(self.actions)
        # one compiled function per distinct p_g, with a map action -> predicate
        preds: list[str] = []
        self.pred_of = np.zeros(self.n, dtype=np.int64)
        inst: list[int] = []
        for i, act in enumerate(self.actions):
            src = act["p_g"]
            if src not in preds:
                preds.append(src)
                inst.append(1 if "S[" in src else 0)
            self.pred_of[i] = preds.index(src)
        self.preds = [compile(p, f"<p_g {k}>", "eval") for k, p in enumerate(preds)]
        self.pred_src = preds
        self.pred_inst = inst
        self.errors = 0
        self._solvers: dict[int, Any] = {}
        self._cache: dict[tuple[Any, ...], InputFrame | None] = {}
        self.perform_unsat = 0
        self._M: list[dict[str, Any]] | None = None
        self._var_code: dict[str, Any] = {}
        self._free_keydown: dict[tuple[Any, ...], tuple[InputFrame, int]] = {}
        self.timing = {"mask_s": 0.0, "mask_n": 0, "valid_sum": 0, "perform_s": 0.0, "perform_n": 0,
                       "empty_masks": 0, "solves": 0}

    # ---- roots
    def roots(self, ctx: ActionContext) -> dict[str, Any]:
        game = ctx.game
        if self._M is None:
            self._M = [game.module_globals(f) or {} for f in self.modules] if game is not None else []
        L: dict[str, Any] | None = {}
        if game is not None and not self.is_module:
            fr = game.frame(*self.loop_key)
            L = fr.f_locals if fr is not None else None
        return {"L": L, "M": self._M, "H": ctx.held, "S": None, "getattr": getattr, "bool": bool}

    def _eval(self, code: Any, ns: dict[str, Any], k: int) -> bool:
        try:
            if self.pred_inst[k]:
                if not any(r.all() for r in self.inst_roots):
                    return True  # no instance yet (the game is still setting up): over-approximate
                for inst_root in self.inst_roots:
                    for obj in inst_root.all():
                        ns["S"] = _S(obj)
                        try:
                            if eval(code, ns):  # noqa: S307 - our own compiled predicate
                                return True
                        except Exception:  # noqa: BLE001
                            continue
                return False
            return bool(eval(code, ns))  # noqa: S307
        except Exception:  # noqa: BLE001 - the game changed shape: keep the action (over-approximate)
            self.errors += 1
            return True

    def mask(self, ctx: ActionContext) -> np.ndarray:
        t0 = _now()
        ns = self.roots(ctx)
        if ns["L"] is None:  # the main loop is not running yet (or any more): every action may be tried
            out = np.ones(self.n, dtype=np.int8)
            self.timing["mask_n"] += 1
            self.timing["valid_sum"] += self.n
            return out
        values = np.array([self._eval(c, ns, k) for k, c in enumerate(self.preds)], dtype=np.int8)
        out = values[self.pred_of] if self.n else np.zeros(0, dtype=np.int8)
        if self.n and not out.any():
            # no path condition holds: the analysis missed this state (a path limit, an unsupported
            # construct); every action may be tried rather than none, and the stats say it happened
            out = np.ones(self.n, dtype=np.int8)
            self.timing["empty_masks"] += 1
        self.timing["mask_s"] += _now() - t0
        self.timing["mask_n"] += 1
        self.timing["valid_sum"] += int(out.sum())
        return out

    # ---- performing
    def perform(self, index: int, ctx: ActionContext) -> InputFrame:
        t0 = _now()
        try:
            return self._perform(index, ctx)
        finally:
            self.timing["perform_s"] += _now() - t0
            self.timing["perform_n"] += 1

    def _perform(self, index: int, ctx: ActionContext) -> InputFrame:
        import z3

        act = self.actions[index]
        ns = self.roots(ctx)
        if act.get("uses_instances"):
            cands = [o for r in self.inst_roots for o in r.all()]
            ok = []
            code = self.preds[int(self.pred_of[index])]
            for o in cands:
                ns["S"] = _S(o)
                try:
                    if eval(code, ns):  # noqa: S307
                        ok.append(o)
                except Exception:  # noqa: BLE001
                    continue
            if ok or cands:
                ns["S"] = _S(ctx.rng.choice(ok or cands))
        solver, formula = self._solver(index)
        values = []
        subs = []
        for name in act["p_i_game_vars"]:
            info = self.a["game_vars"][name]
            code = self._var_code.get(name)
            if code is None:
                code = self._var_code[name] = compile(info["src"], f"<{name}>", "eval")
            try:
                v = eval(code, ns)  # noqa: S307 - our own compiled game-variable expression
            except Exception:  # noqa: BLE001
                v = None
            values.append(_hashable(v))
            term = _const_for(name, info, v, self.a.get("enums", {}))
            if term is not None:
                subs.append((_var(name, info), term))
        held = ctx.held
        key: tuple[Any, ...] = (index, tuple(values))
        for part in act.get("needs_held", ("keys", "mouse_buttons", "mouse_pos")):
            key += (getattr(held, part),)
        if key in self._cache:
            cached = self._cache[key]
            if cached is None:
                return held.released()
            return self._spread(index, cached, subs, ctx) if "mouse" in act["forked"] else cached
        # a free KEYDOWN key solved before stays right while it is not held now: no new solve
        free_down = self._free_keydown.get((index, tuple(values)))
        if act.get("needs_held") == ["keys"] and free_down is not None and free_down[1] not in held.keys:
            return free_down[0]
        solver.push()
        for var, term in subs:
            solver.add(var == term)
        add_device_rules(solver, formula, held, ctx.screen_size)
        keyat = {}
        for name in _input_vars(formula):
            if name.startswith("in:keyat:"):
                try:
                    keyat[name] = int(eval(name[len("in:keyat:"):], ns))  # noqa: S307
                except Exception:  # noqa: BLE001
                    continue
        frame = None
        self.timing["solves"] += 1
        model = solve(solver, formula)
        if model is not None:
            frame = frame_from_model(model, formula, held, ctx.screen_size, keyat)
            if act.get("needs_held") == ["keys"]:
                import pygame

                ev_type = model.eval(z3.Int("in:ev_type"), model_completion=True)
                ev_key = model.eval(z3.Int("in:ev_key"), model_completion=True)
                if z3.is_int_value(ev_type) and ev_type.as_long() == pygame.KEYDOWN and z3.is_int_value(ev_key):
                    self._free_keydown[(index, tuple(values))] = (frame, ev_key.as_long())
        solver.pop()
        if frame is None:
            self.perform_unsat += 1
        self._cache[key] = frame
        if len(self._cache) > 50000:
            self._cache.clear()
        if frame is None:
            return held.released()
        return self._spread(index, frame, subs, ctx) if "mouse" in act["forked"] else frame

    def _spread(self, index: int, frame: InputFrame, subs: list[Any], ctx: ActionContext) -> InputFrame:
        """A random point of the action's mouse cell instead of the solver's corner, when the path still
        holds there (a 4x4 grid cell covers many targets: a match-3 board's tiles, a crowd of sprites)."""
        import z3

        col, row = self.actions[index]["forked"]["mouse"]
        w, h = ctx.screen_size if ctx.screen_size != (0, 0) else tuple(self.a.get("screen", (640, 480)))
        from playtester.analysis.symbolic import GRID

        x = ctx.rng.randrange(col * w // GRID, max(col * w // GRID + 1, (col + 1) * w // GRID))
        y = ctx.rng.randrange(row * h // GRID, max(row * h // GRID + 1, (row + 1) * h // GRID))
        solver, formula = self._solver(index)
        solver.push()
        for var, term in subs:
            solver.add(var == term)
        solver.add(z3.Int("in:mx") == x, z3.Int("in:my") == y)
        ok = solver.check() == z3.sat
        solver.pop()
        return replace(frame, mouse_pos=(x, y)) if ok else frame

    def _solver(self, index: int) -> tuple[Any, Any]:
        import z3

        got = self._solvers.get(index)
        if got is None:
            text = self.actions[index]["p_i"]
            formula = _PARSED.get(text)
            if formula is None:
                formula = _PARSED[text] = z3.And(*z3.parse_smt2_string(text)) if text else z3.BoolVal(True)
            s = z3.Solver()
            s.set("timeout", 500)
            s.add(formula)
            got = self._solvers[index] = (s, formula)
        return got


def _now() -> float:
    from playtester.drive.pygame_driver import _REAL_PERF

    return _REAL_PERF()


def stats(rt: Any) -> dict[str, Any]:
    """Validity and perform timings of the episode's analyzed space (``Worker.call`` target)."""
    space = rt.space
    r = getattr(space, "_rt", None)
    if r is None:
        return {}
    return dict(r.timing, errors=r.errors, perform_unsat=r.perform_unsat, n_actions=r.n)


_PARSED: dict[str, Any] = {}  # p_i text -> formula, filled in the worker host before each fork


class _S:
    """``S[k]`` in a predicate: the instance under test whatever k (one class per predicate)."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __getitem__(self, k: int) -> Any:
        return self.obj


def _hashable(v: Any) -> Any:
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


def _var(name: str, info: dict[str, Any]) -> Any:
    import z3

    kind = info["kind"]
    if kind in ("truth", "isnone", "held_key", "held_button"):
        return z3.Bool(name)
    if kind in ("int", "enum"):
        return z3.Int(name)
    return z3.Real(name)


def _const_for(name: str, info: dict[str, Any], v: Any, enums: dict[str, dict[str, int]]) -> Any:
    import z3

    kind = info["kind"]
    try:
        if kind in ("truth", "isnone", "held_key", "held_button"):
            return z3.BoolVal(bool(v))
        if kind == "enum":
            table = enums.get(name, {})
            return z3.IntVal(table.get(v, -1)) if isinstance(v, str) else None
        if kind == "int":
            return z3.IntVal(int(v))
        return z3.RealVal(float(v))
    except (TypeError, ValueError):
        return None


def _input_vars(formula: Any) -> dict[str, Any]:
    from playtester.analysis.symbolic import _var_map

    return {n: v for n, v in _var_map(formula).items() if n.startswith("in:")}


def add_device_rules(solver: Any, formula: Any, held: InputFrame, screen: tuple[int, int],
                     naming: bool = False) -> None:
    """What real devices guarantee: keys from the key list, buttons 1-3, the mouse on the screen, an
    event consistent with the polled state and with the previous frame (KEYDOWN needs the key up)."""
    import z3

    vs = _input_vars(formula)
    ev_type = vs.get("in:ev_type")
    w, h = screen if screen != (0, 0) else (640, 480)
    import pygame

    if "in:ev_key" in vs:
        k = vs["in:ev_key"]
        solver.add(k > 0)  # the key list itself is enforced after solving (`solve`), a big Or is slow
        if ev_type is not None and not naming:
            for hk in held.keys:
                solver.add(z3.Implies(ev_type == pygame.KEYDOWN, k != hk))
            solver.add(z3.Implies(ev_type == pygame.KEYUP, z3.Or(*[k == hk for hk in held.keys])
                                  if held.keys else z3.BoolVal(False)))
            for name, var in vs.items():
                if name.startswith("in:key_"):
                    code = int(name[len("in:key_"):])
                    solver.add(z3.Implies(z3.And(ev_type == pygame.KEYDOWN, k == code), var))
                    solver.add(z3.Implies(z3.And(ev_type == pygame.KEYUP, k == code), z3.Not(var)))
    if "in:ev_button" in vs:
        b = vs["in:ev_button"]
        solver.add(b >= 1, b <= 3)
        if ev_type is not None and not naming:
            for i in (1, 2, 3):
                now = vs.get(f"in:mb_{i}")
                was = i in held.mouse_buttons
                if was:
                    solver.add(z3.Implies(z3.And(ev_type == pygame.MOUSEBUTTONDOWN, b == i), z3.BoolVal(False)))
                else:
                    solver.add(z3.Implies(z3.And(ev_type == pygame.MOUSEBUTTONUP, b == i), z3.BoolVal(False)))
                if now is not None:
                    solver.add(z3.Implies(z3.And(ev_type == pygame.MOUSEBUTTONDOWN, b == i), now))
                    solver.add(z3.Implies(z3.And(ev_type == pygame.MOUSEBUTTONUP, b == i), z3.Not(now)))
    if ev_type is not None and "in:mx" in vs and held.mouse_pos is not None:
        px, py = held.mouse_pos
        solver.add(z3.Implies(ev_type == pygame.MOUSEMOTION, z3.Or(vs["in:mx"] != px, vs["in:my"] != py)))
    if "in:mx" in vs:
        solver.add(vs["in:mx"] >= 0, vs["in:mx"] < w)
    if "in:my" in vs:
        solver.add(vs["in:my"] >= 0, vs["in:my"] < h)
    for name, var in vs.items():
        if name.startswith(("in:hx_", "in:hy_", "in:ev_hx", "in:ev_hy")):
            solver.add(var >= -1, var <= 1)
        elif name.startswith("in:ax_"):
            solver.add(var >= -1, var <= 1)


def frame_from_model(model: Any, formula: Any, held: InputFrame, screen: tuple[int, int],
                     keyat: dict[str, int] | None = None) -> InputFrame:
    """The inputs to hold so the game takes the solved path (keys, mouse, joysticks)."""
    import pygame
    import z3

    vs = _input_vars(formula)

    def val(name: str) -> Any:
        v = vs.get(name)
        if v is None:
            return None
        r = model.eval(v, model_completion=True)
        if z3.is_true(r):
            return True
        if z3.is_false(r):
            return False
        if z3.is_int_value(r):
            return r.as_long()
        if z3.is_rational_value(r):
            return float(r.numerator_as_long()) / float(r.denominator_as_long())
        if z3.is_algebraic_value(r):
            return float(r.approx(6).as_decimal(6).rstrip("?"))
        return None

    keys: set[int] = set()
    for name in vs:
        if name.startswith("in:key_") and val(name):
            keys.add(int(name[len("in:key_"):]))
        elif name.startswith("in:keyat:"):
            if val(name) and keyat and name in keyat:
                keys.add(keyat[name])
    ev_type = val("in:ev_type")
    buttons = {i for i in (1, 2, 3) if val(f"in:mb_{i}")}
    if ev_type == pygame.KEYDOWN and val("in:ev_key") is not None:
        keys.add(val("in:ev_key"))
    if ev_type == pygame.KEYUP and val("in:ev_key") is not None:
        keys.discard(val("in:ev_key"))
    if ev_type == pygame.MOUSEBUTTONDOWN and val("in:ev_button"):
        buttons.add(val("in:ev_button"))
    if ev_type == pygame.MOUSEBUTTONUP and val("in:ev_button"):
        buttons.discard(val("in:ev_button"))
    if ev_type == pygame.MOUSEMOTION:
        buttons = {i for i in (1, 2, 3) if val(f"in:mb_{i}") or (i in held.mouse_buttons and val(f"in:mb_{i}") is None)}
    mouse = None
    if "in:mx" in vs or "in:my" in vs:
        w, h = screen if screen != (0, 0) else (640, 480)
        mx = val("in:mx")
        my = val("in:my")
        mouse = (int(mx) if mx is not None else w // 2, int(my) if my is not None else h // 2)
    axes, jbuttons, hats = [], set(), []
    for name in vs:
        if name.startswith("in:ax_"):
            j, a = map(int, name[len("in:ax_"):].split("_"))
            v = val(name) or 0.0
            if v != 0.0:
                axes.append((j, a, max(-1.0, min(1.0, float(v)))))
        elif name.startswith("in:jb_") and val(name):
            j, b = map(int, name[len("in:jb_"):].split("_"))
            jbuttons.add((j, b))
        elif name.startswith("in:hx_"):
            j, hh = map(int, name[len("in:hx_"):].split("_"))
            hx, hy = val(name) or 0, val(f"in:hy_{j}_{hh}") or 0
            if (hx, hy) != (0, 0):
                hats.append((j, hh, (int(hx), int(hy))))
    if ev_type in (pygame.JOYBUTTONDOWN,) and val("in:ev_button") is not None:
        jbuttons.add((val("in:ev_joy") or 0, val("in:ev_button")))
    if ev_type == pygame.JOYHATMOTION:
        hats.append((val("in:ev_joy") or 0, val("in:ev_hat") or 0, (int(val("in:ev_hx") or 0), int(val("in:ev_hy") or 0))))
    if ev_type == pygame.JOYAXISMOTION:
        axes.append((val("in:ev_joy") or 0, val("in:ev_axis") or 0, 1.0))
    return InputFrame(keys=frozenset(keys), mouse_pos=mouse, mouse_buttons=frozenset(buttons),
                      joy_axes=tuple(sorted(axes)), joy_buttons=frozenset(jbuttons), joy_hats=tuple(sorted(hats)))



_KEY_DOMAIN: list[int] = []


def key_domain() -> list[int]:
    """Key codes an event may carry: the blind space's 66 common keys."""
    if not _KEY_DOMAIN:
        from playtester.actions.blind import COMMON_KEYS
        from playtester.drive.inputs import key_code

        _KEY_DOMAIN.extend(key_code(n) for n in COMMON_KEYS)
    return _KEY_DOMAIN


def solve(solver: Any, formula: Any) -> Any:
    """A model of the solver's constraints whose event key (if any) is a real key; None if none."""
    import z3

    if solver.check() != z3.sat:
        return None
    m = solver.model()
    k = z3.Int("in:ev_key")
    if "in:ev_key" not in _input_vars(formula):
        return m
    v = m.eval(k, model_completion=True)
    dom = key_domain()
    if z3.is_int_value(v) and v.as_long() in dom:
        return m
    # the key is free (a catch-all path): a few direct tries, then the whole key list at once
    for c in dom[:6]:
        solver.push()
        solver.add(k == c)
        ok = solver.check() == z3.sat
        m2 = solver.model() if ok else None
        solver.pop()
        if ok:
            return m2
    solver.push()
    solver.add(z3.Or(*[k == c for c in dom]))
    ok = solver.check() == z3.sat
    m2 = solver.model() if ok else None
    solver.pop()
    return m2


