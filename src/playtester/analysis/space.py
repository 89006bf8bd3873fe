"""The ``analyzed`` action space at play time (runs in the episode process).

- Validity: every distinct p_g is compiled once into one Python function over the live game (the
  main loop's locals ``L``, module globals ``M``, an instance ``S`` of a class whose method reads
  inputs, the inputs held in the previous frame ``H``) and evaluated per step.
- Performing: the game variables p_i mentions are evaluated on the live game; answers are cached by
  those concrete values (and the held inputs the action depends on). On a miss, the action's latest
  solutions (and a first one found in the worker host, with the game state left free) are tried under
  the new values with p_i compiled to Python (`fastcheck`) and the device rules checked in Python; the
  first that holds is reused. Only when none does, z3 solves p_i (one warm solver per p_i, made in the
  worker host with p_i and the device rules that do not depend on held inputs; push/pop for the game
  values and the rest). A solution becomes an `InputFrame`: keys held, mouse position and buttons,
  joystick axes, buttons and hats. Counters: ``timing["solves"]`` (z3) vs ``timing["reuses"]``.
"""

from __future__ import annotations

import copy
import gc
import logging
import weakref
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from playtester.actions.space import Action, ActionContext, ActionSpace
from playtester.analysis.safe_expr import (
    UnsafeExpression,
    check_analysis,
    compile_game_expr,
    eval_game_expr,
    namespace,
)
from playtester.drive.inputs import InputFrame, frame_from_dict, frame_to_dict


@dataclass
class AnalyzedSpace(ActionSpace):
    """Actions from program analysis: ``analysis`` is the JSON-ready result of `analyze_here`."""

    analysis: dict[str, Any] = field(default_factory=dict)
    _rt: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # its expressions are data (a file, a trace, the store): refused on load unless of the analysis' form
        check_analysis(self.analysis, self.source or "analysed action space")

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_rt"] = None
        return state

    def extra_dict(self) -> dict[str, Any]:
        return {"analysis": analysis_to_json(self.analysis)} if self.analysis else {}

    def _runtime(self) -> Any:
        if self._rt is None:
            self._rt = _MultiRuntime(self.analysis) if len(self.analysis.get("loops") or ()) > 1 else \
                _Runtime(self.analysis)
        return self._rt

    def prepare(self) -> None:
        """Work every episode would repeat, done once in the worker host (episodes forked from it inherit
        it): parse every action's p_i, translate it into a Python predicate, and find a first solution
        with the game state left free (within ``SEED_BUDGET_S`` per call; a later call goes on), which
        also leaves each p_i's solver built and warm."""
        if len(_PARSED) > 20000:
            _PARSED.clear()
            _FASTS.clear()
            _SOLVERS.clear()
            _SEEDS.clear()
        screen = _screen(tuple(self.analysis.get("screen") or (0, 0)))  # type: ignore[arg-type]
        t0 = _now()
        for a in (p for g in self.analysis.get("actions", []) for p in paths_of(g)):
            text = a["p_i"]
            if _fast_for(text) is not None and text not in _SEEDS and _now() - t0 < SEED_BUDGET_S:
                # one solution with the game state left free: performing tries it first (under the live
                # values) and the solver it came from is warm in every episode forked from here
                solver, formula = _shared_solver(text, screen)
                model = solve(solver, formula)
                _SEEDS[text] = _assignment(model, formula) if model is not None else None

    def mask(self, ctx: ActionContext) -> np.ndarray:
        rt = self._runtime()
        out = rt.mask(ctx)
        extra = len(self.actions) - len(out)
        if extra > 0:  # the blind actions (`fallback_actions`): outside the analysed loops, and in a loop whose
            # analysis ran out of budget (partial: its actions may not include the inputs that leave it)
            out = np.concatenate([out, np.full(extra, 1 if rt.outside or rt.partial_here else 0, dtype=np.int8)])
        return out

    def perform(self, index: int, ctx: ActionContext) -> tuple[InputFrame, int | None]:
        rt = self._runtime()
        if index >= rt.n:
            return ActionSpace.perform(self, index, ctx)
        frame = rt.perform(index, ctx)
        return frame, rt.last_hold


def paths_of(action: dict[str, Any]) -> list[dict[str, Any]]:
    """An analysed action's paths (`live.group_actions`); an action of an older result is its own one path."""
    return action["paths"] if "paths" in action else [action]


def ungroup(result: dict[str, Any]) -> dict[str, Any]:
    """The result with one action per path (each path with its action's name, sample inputs, event and loop;
    the name gets ``[k]`` for the k-th path of an action with several): what performing a given path needs
    (a test that checks each path's branches, a developer looking at why an action exists)."""
    out = dict(result)
    out["actions"] = []
    for g in result["actions"]:
        ps = paths_of(g)
        for k, p in enumerate(ps):
            shared = {f: g[f] for f in ("name", "sample_inputs", "event", "loop_index") if f in g
                      and not (f == "loop_index" and f in p)}  # a path of another loop than its action's first
            if len(ps) > 1:
                shared["name"] = f"{g['name']} [{k + 1}]"
            out["actions"].append({**{f: v for f, v in p.items()}, **shared})
    return out


def _map_samples(result: dict[str, Any], convert: Any, kind: type) -> dict[str, Any]:
    out = copy.copy(result)
    out["actions"] = []
    for a in result["actions"]:
        b = dict(a)
        if isinstance(b.get("sample_inputs"), kind):
            b["sample_inputs"] = convert(b["sample_inputs"])
        out["actions"].append(b)
    return out


def analysis_to_json(result: dict[str, Any]) -> dict[str, Any]:
    """The analysis result with its sample InputFrames as JSON-ready dicts."""
    return _map_samples(result, frame_to_dict, InputFrame)


def analysis_from_json(data: dict[str, Any]) -> dict[str, Any]:
    """The inverse of `analysis_to_json`."""
    return _map_samples(data, frame_from_dict, dict)


def _load(data: dict[str, Any], actions: list[Action]) -> AnalyzedSpace:
    """A serialized analyzed space (`space_to_dict`) back (registered with `actions.space.register_loader`)."""
    return AnalyzedSpace(data["kind"], actions, source=data.get("source"), analysis=analysis_from_json(data["analysis"]))



FALLBACK_PREFIX = "other loop: "


def fallback_actions(blacklist: list[str], named: dict[str, Any] | None = None) -> list[Action]:
    """The blind space's actions (press / release of the common keys and mouse buttons, mouse moves over a
    grid), for the frames the game spends in an input loop that was never analysed (a title or game-over
    screen the analysis had no budget left for, or never reached): there no analysed action's condition
    means anything, and the analysed actions alone (another loop's inputs) may not leave the screen. Also
    offered, beside the analysed ones, in a loop whose analysis ran out of budget (its ``partial``): the
    paths dropped may hold the only inputs that leave it (zombie-escape's title, analysed in part, kept no
    way to confirm, and the random agent stayed there for 1000 steps). Masked out in fully analysed loops.

    ``named`` (`live.named_inputs`): the keys the game's code names and whether it reads the mouse; given, the
    blind actions press those keys only (a game cannot tell a key it never names from another, unless it reads
    any key: then ``keys`` is None and the 66 common keys stay) and move the mouse only for a game that reads it.
    A game that reads the mouse gets clicks of the left button on the cells of the blind space's 4x4 grid (a move
    there and a press for the action's first frame, released after: one action per cell, the move included)
    instead of the press and release of three buttons and the 16 moves; a game that reads no key at all
    (``keys`` empty: a mouse-only game) gets no key actions (before, the 66 common keys: 150 actions where a
    mouse-only game can only be clicked)."""
    from playtester.actions.blind import GRID, blind_space

    keys = named.get("keys") if named else None
    mouse = bool(named.get("mouse", True)) if named else True
    acts = list(blind_space(blacklist, keys, mouse=False).actions)
    if mouse:
        acts += [Action(f"click mouse left at cell {col},{row}", InputFrame(mouse_buttons=frozenset({1})),
                        mode="move", hold_frames=1, cell=(col, row, GRID))
                 for row in range(GRID) for col in range(GRID)]
    return [replace(a, name=FALLBACK_PREFIX + a.name) for a in acts]


def needs_fallback(analysis: dict[str, Any]) -> bool:
    """Whether the space carries the blind actions: when an input loop of the game was left without analysed
    actions (``unanalysed``: the budget ran out before it, or no run reached it) or a loop's analysis was
    partial. Results before ``unanalysed`` was recorded always carried them. (Results before the fallback
    actions carry no ``blacklist`` and get none.)"""
    return bool(analysis.get("unanalysed", True)) or bool(analysis.get("partial"))


def make_analyzed_space(analysis: dict[str, Any], source: str) -> AnalyzedSpace:
    actions = [Action(a["name"], a.get("sample_inputs") or InputFrame(), mode="hold",
                      description=f"valid when {a['p_g_text']}; inputs {a['p_i_text']}")
               for a in analysis["actions"]]
    if analysis.get("blacklist") is not None and needs_fallback(analysis):
        actions += fallback_actions(list(analysis["blacklist"]), analysis.get("named_inputs"))
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
        # the actions (one per distinct input, `live.group_actions`) and their paths, flattened: a path's
        # p_g is its validity, an action is valid when one of its paths is, and performing it performs one
        # of its valid paths; below, ``index`` is a path's unless a method says otherwise
        self.groups = analysis["actions"]
        self.n = len(self.groups)
        self.actions = [p for g in self.groups for p in paths_of(g)]
        self.n_paths = len(self.actions)
        sizes = [len(paths_of(g)) for g in self.groups]
        self.starts = np.cumsum([0, *sizes[:-1]]).astype(np.int64) if sizes else np.zeros(0, dtype=np.int64)
        self.sizes = sizes
        self.group_of = np.repeat(np.arange(self.n, dtype=np.int64), sizes) if sizes else np.zeros(0, dtype=np.int64)
        # one compiled function per distinct p_g, with a map path -> predicate
        preds: list[str] = []
        self.pred_of = np.zeros(self.n_paths, dtype=np.int64)
        inst: list[int] = []
        free: dict[str, str] = {}
        for i, act in enumerate(self.actions):
            src = act["p_g"]
            if src not in preds:
                preds.append(src)
                inst.append(1 if "S[" in src else 0)
            if act.get("p_g_free") is not None:
                free[src] = act["p_g_free"]
            self.pred_of[i] = preds.index(src)
        self.preds = [compile_game_expr(p, f"p_g {k}") for k, p in enumerate(preds)]
        # per predicate on instances: its tests on the rest of the game, for while no instance exists
        self.pred_free = [compile_game_expr(free[p], f"p_g_free {k}") if p in free else None
                          for k, p in enumerate(preds)]
        self.pred_src = preds
        self.pred_inst = inst
        self.errors = 0
        self.outside = False  # the last mask was taken outside the analysed loop (`AnalyzedSpace.mask`)
        self.partial_here = bool(analysis.get("partial"))  # the loop's analysis ran out of budget: blind actions too
        self._cache: dict[tuple[Any, ...], tuple[InputFrame, dict[str, Any] | None] | None] = {}
        self.perform_unsat = 0
        self._M: list[dict[str, Any]] | None = None
        self._var_code: dict[str, Any] = {}
        self._fasts: dict[int, Any] = {}
        self._cands: dict[int, list[dict[str, Any]]] = {}  # action -> its latest distinct solutions
        self.keep = 8
        self.reuse_log: deque[dict[str, Any]] = deque(maxlen=256)  # the latest reuses (`reuse_log`, tests)
        self.global_index: list[int] | None = None  # action index in the whole space (one loop's part of it)
        # KEYUP actions of a known key (``tap_key``): valid as if the key were held before, performed as a tap
        # (down for the action's first frame, then up: the KEYUP comes within the action) where it is up;
        # only with two frames or more per action (in one frame the key cannot go down and up)
        self.taps = {i: int(a["tap_key"]) for i, a in enumerate(self.actions) if a.get("tap_key") is not None}
        self.last_hold: int | None = None  # hold_frames of the last perform (a tap: 1)
        # solves: z3 calls for a perform (solve_s: their time; held_solves: those that needed the rules
        # relative to held inputs, a second z3 call); reuses: a kept solution still held (checked in
        # Python); cache_hits: same action, game values and held inputs as before; spread_checks /
        # spread_solves: mouse points checked with the compiled predicate / with z3
        self.timing = {"mask_s": 0.0, "mask_n": 0, "valid_sum": 0, "perform_s": 0.0, "perform_n": 0,
                       "empty_masks": 0, "solves": 0, "solve_s": 0.0, "held_solves": 0, "reuses": 0,
                       "cache_hits": 0, "spread_checks": 0, "spread_solves": 0}

    # ---- roots
    def roots(self, ctx: ActionContext) -> dict[str, Any]:
        game = ctx.game
        if self._M is None:
            self._M = [game.module_globals(f) or {} for f in self.modules] if game is not None else []
        L: dict[str, Any] | None = {}
        if game is not None and not self.is_module:
            fr = game.frame(*self.loop_key)
            L = fr.f_locals if fr is not None else None
        return namespace(L=L, M=self._M, H=ctx.held, S=None)

    def _eval(self, code: Any, ns: dict[str, Any], k: int) -> bool:
        try:
            if self.pred_inst[k]:
                if not any(r.all() for r in self.inst_roots):
                    # no instance yet (the game is still setting up): its tests on the rest of the game decide
                    free = self.pred_free[k]
                    return True if free is None else bool(eval_game_expr(free, ns))
                for inst_root in self.inst_roots:
                    for obj in inst_root.all():
                        ns["S"] = _S(obj)
                        try:
                            if eval_game_expr(code, ns):
                                return True
                        except Exception:  # noqa: BLE001
                            continue
                return False
            return bool(eval_game_expr(code, ns))
        except Exception:  # noqa: BLE001 - the game changed shape: keep the action (over-approximate)
            self.errors += 1
            return True

    def mask(self, ctx: ActionContext) -> np.ndarray:
        """Which actions are valid now: those with a path whose p_g holds."""
        t0 = _now()
        ns = self.roots(ctx)
        self.outside = ns["L"] is None
        if ns["L"] is None:  # the main loop is not running yet (or any more): every action may be tried
            out = np.ones(self.n, dtype=np.int8)
            self.timing["mask_n"] += 1
            self.timing["valid_sum"] += self.n
            return out
        values = np.array([self._eval(c, ns, k) for k, c in enumerate(self.preds)], dtype=np.int8)
        out = values.take(self.pred_of) if self.n_paths else np.zeros(0, dtype=np.int8)
        if self.taps and _frames_per_action() > 1:
            for i, key in self.taps.items():
                if not out[i] and key not in ctx.held.keys:
                    k = int(self.pred_of[i])
                    out[i] = self._eval(self.preds[k], {**ns, "H": _with_key(ctx.held, key)}, k)
        out = np.maximum.reduceat(out, self.starts) if self.n else np.zeros(0, dtype=np.int8)
        valid = int(np.count_nonzero(out))
        if self.n and not valid:
            # no path condition holds: the analysis missed this state (a path limit, an unsupported
            # construct); every action may be tried rather than none, and the stats say it happened
            out = np.ones(self.n, dtype=np.int8)
            valid = self.n
            self.timing["empty_masks"] += 1
        timing = self.timing
        timing["mask_s"] += _now() - t0
        timing["mask_n"] += 1
        timing["valid_sum"] += valid
        return out

    # ---- performing
    def perform(self, index: int, ctx: ActionContext) -> InputFrame:
        """Perform action ``index``: one of its paths whose p_g holds now (chosen with the episode's rng when
        several do; the first when none does)."""
        t0 = _now()
        try:
            return self._perform(self._path_for(index, ctx), ctx)
        finally:
            self.timing["perform_s"] += _now() - t0
            self.timing["perform_n"] += 1

    def _path_for(self, index: int, ctx: ActionContext) -> int:
        first, size = int(self.starts[index]), self.sizes[index]
        if size == 1:
            return first
        ns = self.roots(ctx)
        if ns["L"] is None:
            return first
        valid = [p for p in range(first, first + size) if self._path_valid(p, ns, ctx)]
        if not valid:
            return first
        return valid[0] if len(valid) == 1 else valid[ctx.rng.randrange(len(valid))]

    def _path_valid(self, p: int, ns: dict[str, Any], ctx: ActionContext) -> bool:
        k = int(self.pred_of[p])
        if self._eval(self.preds[k], ns, k):
            return True
        key = self.taps.get(p)
        return key is not None and key not in ctx.held.keys and _frames_per_action() > 1 and \
            self._eval(self.preds[k], {**ns, "H": _with_key(ctx.held, key)}, k)

    def _perform(self, index: int, ctx: ActionContext) -> InputFrame:
        self.last_hold = None
        tap = self.taps.get(index)
        if tap is not None and tap not in ctx.held.keys and _frames_per_action() > 1:
            self.last_hold = 1
            return InputFrame(keys=frozenset({tap}), mouse_pos=None)
        act = self.actions[index]
        ns = self.roots(ctx)
        if act.get("uses_instances"):
            cands = [o for r in self.inst_roots for o in r.all()]
            ok = []
            code = self.preds[int(self.pred_of[index])]
            for o in cands:
                ns["S"] = _S(o)
                try:
                    if eval_game_expr(code, ns):
                        ok.append(o)
                except Exception:  # noqa: BLE001
                    continue
            if ok or cands:
                ns["S"] = _S(ctx.rng.choice(ok or cands))
        gv = self._game_values(act, ns)
        held = ctx.held
        key: tuple[Any, ...] = (index, gv.key)
        for part in act.get("needs_held", ("keys", "mouse_buttons", "mouse_pos")):
            key += (getattr(held, part),)
        mouse = "mouse" in act["forked"]
        cached = self._cache.get(key, _MISSING)
        if cached is not _MISSING:
            self.timing["cache_hits"] += 1
            if cached is None:
                return held.released()
            return self._spread(index, cached[0], cached[1], gv, ctx) if mouse else cached[0]
        found = self._reuse(index, gv, ns, ctx)
        if found is not None:
            self.timing["reuses"] += 1
        else:
            t0 = _now()
            found = self._solve(index, gv, ns, ctx)
            self.timing["solve_s"] += _now() - t0
        self._cache[key] = found
        if len(self._cache) > 50000:
            self._cache.clear()
        if found is None:
            return held.released()
        return self._spread(index, found[0], found[1], gv, ctx) if mouse else found[0]

    def _game_values(self, act: dict[str, Any], ns: dict[str, Any]) -> _GameValues:
        """The game variables p_i mentions, evaluated on the live game."""
        enums = self.a.get("enums", {})
        names, raw, infos = act["p_i_game_vars"], [], []
        for name in names:
            info = self.a["game_vars"][name]
            code = self._var_code.get(name)
            if code is None:
                code = self._var_code[name] = compile_game_expr(info["src"], f"game variable {name}")
            try:
                v = eval_game_expr(code, ns)
            except Exception:  # noqa: BLE001
                v = None
            raw.append(v)
            infos.append(info)
        return _GameValues(names, raw, infos, enums)

    def _fast(self, index: int) -> _Fast | None:
        got = self._fasts.get(index, _MISSING)
        if got is _MISSING:
            text = self.actions[index]["p_i"]
            got = self._fasts[index] = _fast_for(text)
        return got

    def _keyat(self, names: Any, ns: dict[str, Any]) -> dict[str, int]:
        keyat = {}
        for name in names:
            if name.startswith("in:keyat:"):
                try:
                    code = compile_game_expr(name[len("in:keyat:"):], f"input {name}")
                except UnsafeExpression as e:
                    _warn_once(str(e))
                    continue
                try:
                    keyat[name] = int(eval_game_expr(code, ns))
                except Exception:  # noqa: BLE001
                    continue
        return keyat

    def _reuse(self, index: int, gv: _GameValues, ns: dict[str, Any],
               ctx: ActionContext) -> tuple[InputFrame, dict[str, Any] | None] | None:
        """An earlier solution of this action's p_i that still holds under the live game values and the
        device rules relative to the held inputs (checked with the compiled predicate), or None."""
        cands = self._cands.get(index)
        if cands is None:
            seed = _SEEDS.get(self.actions[index]["p_i"])
            cands = self._cands[index] = [seed] if seed is not None else []
        if not cands:
            return None
        fast = self._fast(index)
        concrete = gv.concrete()
        if fast is None or concrete is None:
            return None
        held, screen, dom = ctx.held, ctx.screen_size, _key_set()
        found = None
        for k, cand in enumerate(cands):
            env = {**cand, **concrete}
            if fast.devices.ok(env, held, screen, dom) and fast.pred(env):
                if k:
                    cands.insert(0, cands.pop(k))
                found = env
                break
        if found is None and "in:ev_key" in fast.inputs:
            # a KEYDOWN of a key held now (an event key p_i leaves free, a catch-all): another free key
            tries = 0
            for cand in cands:
                if cand.get("in:ev_type") != fast.devices.KEYDOWN or cand.get("in:ev_key") not in held.keys:
                    continue
                for key in key_domain():
                    if key in held.keys or key == cand.get("in:ev_key"):
                        continue
                    env = {**cand, **concrete, "in:ev_key": key}
                    if fast.devices.ok(env, held, screen, dom) and fast.pred(env):
                        found = env
                        break
                    tries += 1
                    if tries >= MAX_KEY_TRIES:
                        return None
                if found is not None:
                    break
        if found is None:
            return None
        keyat = self._keyat(fast.inputs, ns)
        frame = frame_from_values(found, fast.inputs, held, screen, keyat)
        self._log("reuse", index, gv, found, ctx, frame, keyat)
        return frame, found

    def _solve(self, index: int, gv: _GameValues, ns: dict[str, Any],
               ctx: ActionContext) -> tuple[InputFrame, dict[str, Any] | None] | None:
        """z3: p_i under the live game values and the device rules; the solution is kept for reuse.

        The rules relative to the held inputs are added lazily: without them first (unsat then is unsat
        with them too), and only when the model breaks one of them (checked in Python), again with them."""
        held, screen = ctx.held, _screen(ctx.screen_size)
        solver, formula = self._solver(index, screen)  # p_i and the device rules held inputs do not change
        fast = self._fast(index)
        solver.push()
        for var, term in gv.subs():
            solver.add(var == term)
        self.timing["solves"] += 1
        model = solve(solver, formula) if fast is not None else None
        env = _assignment(model, formula) if model is not None else None
        if fast is None or model is not None and (env is None or not fast.devices.ok(env, held, screen, _key_set())):
            solver.add(*_held_rules(self.actions[index]["p_i"], formula, held))
            self.timing["held_solves"] += 1
            model = solve(solver, formula)
            env = _assignment(model, formula) if model is not None else None
        found = None
        if model is not None:
            inputs = _input_vars(formula)
            keyat = self._keyat(inputs, ns)
            if env is None:
                found = (frame_from_model(model, formula, held, ctx.screen_size, keyat), None)
            else:  # the same frame as from the model, read from its assignment
                found = (frame_from_values(env, inputs, held, ctx.screen_size, keyat), env)
                if fast is not None:
                    cands = self._cands.setdefault(index, [])
                    if env in cands:
                        cands.remove(env)
                    cands.insert(0, env)
                    del cands[self.keep:]
        solver.pop()
        if found is None:
            self.perform_unsat += 1
        return found

    def _spread(self, index: int, frame: InputFrame, env: dict[str, Any] | None, gv: _GameValues,
                ctx: ActionContext) -> InputFrame:
        """A random point of the action's mouse cell instead of the solver's corner, when the path still
        holds there (a 4x4 grid cell covers many targets: a match-3 board's tiles, a crowd of sprites)."""
        col, row = self.actions[index]["forked"]["mouse"]
        w, h = ctx.screen_size if ctx.screen_size != (0, 0) else tuple(self.a.get("screen", (640, 480)))
        from playtester.analysis.symbolic import GRID

        x = ctx.rng.randrange(col * w // GRID, max(col * w // GRID + 1, (col + 1) * w // GRID))
        y = ctx.rng.randrange(row * h // GRID, max(row * h // GRID + 1, (row + 1) * h // GRID))
        fast = self._fast(index)
        if fast is not None and env is not None and "in:mx" in fast.inputs and "in:my" in fast.inputs:
            # the same solution with the mouse moved there: the predicate decides, no solver call
            env2 = dict(env, **{"in:mx": x, "in:my": y})
            ok = fast.devices.ok(env2, ctx.held, ctx.screen_size, _key_set()) and fast.pred(env2)
            if ok is not None:
                self.timing["spread_checks"] += 1
                if not ok:
                    return frame
                frame = replace(frame, mouse_pos=(x, y))
                self._log("spread", index, gv, env2, ctx, frame, None)
                return frame
        import z3

        solver, _ = self._solver(index, _screen(ctx.screen_size))
        solver.push()
        for var, term in gv.subs():
            solver.add(var == term)
        solver.add(z3.Int("in:mx") == x, z3.Int("in:my") == y)
        self.timing["spread_solves"] += 1
        ok = solver.check() == z3.sat
        solver.pop()
        return replace(frame, mouse_pos=(x, y)) if ok else frame

    def _log(self, kind: str, index: int, gv: _GameValues, env: dict[str, Any], ctx: ActionContext,
             frame: InputFrame, keyat: dict[str, int] | None) -> None:
        raw = [v if v is None or isinstance(v, (bool, int, float, str)) else repr(v) for v in gv.raw]
        index = int(self.group_of[index])  # the action's index, not its path's
        if self.global_index is not None:
            index = self.global_index[index]
        self.reuse_log.append({"kind": kind, "index": index, "game_values": dict(zip(gv.names, raw, strict=True)),
                               "env": env, "held": ctx.held, "screen": ctx.screen_size, "frame": frame,
                               "keyat": keyat})

    def _solver(self, index: int, screen: tuple[int, int]) -> tuple[Any, Any]:
        return _shared_solver(self.actions[index]["p_i"], screen)


_MISSING: Any = object()
_FREE: Any = object()


def _frames_per_action() -> int:
    """The running episode's frames per action (1 outside an episode)."""
    from playtester.drive import pygame_driver

    rt = getattr(pygame_driver, "RT", None)
    cfg = getattr(rt, "cfg", None)
    return int(getattr(cfg, "frames_per_action", 1) or 1)


def _with_key(held: InputFrame, key: int) -> InputFrame:
    import dataclasses

    return dataclasses.replace(held, keys=frozenset(held.keys) | {key})


class _MultiRuntime:
    """A game with several input loops (title, play, game over): each loop's actions were analysed in
    that loop (``analysis["loops"][k]``, actions tagged ``loop_index``) and are valid only while it runs.
    The running loop is the innermost frame on the stack that is one of them (code location, and the
    frame's line inside the loop's lines: two loops of one function are told apart); each loop's part
    of the space is a `_Runtime` of its own (its game variables, modules and instance roots). In a loop
    that was not analysed, every action may be tried (as before any loop runs), counted as
    ``unknown_loop`` steps."""

    def __init__(self, analysis: dict[str, Any]) -> None:
        self.a = analysis
        acts = analysis["actions"]
        self.n = len(acts)
        self.loop_of = np.array([a.get("loop_index", 0) for a in acts], dtype=np.int64)  # each action's first loop
        # an action may hold paths of several loops (the same input on the title and in play, `merge_loops`):
        # each loop's part of the space gets the action with that loop's paths
        per_loop: list[list[tuple[int, dict[str, Any]]]] = [[] for _ in analysis["loops"]]
        for i, a in enumerate(acts):
            by_loop: dict[int, list[dict[str, Any]]] = {}
            for p in paths_of(a):
                by_loop.setdefault(int(p.get("loop_index", a.get("loop_index", 0))), []).append(p)
            for k, ps in by_loop.items():
                per_loop[k].append((i, {**a, "paths": ps} if "paths" in a else a))
        self.local: dict[tuple[int, int], int] = {}  # (action, loop) -> the action's index in that loop's part
        self.members: list[np.ndarray] = []
        self.subs: list[_Runtime] = []
        self.reuse_log: deque[dict[str, Any]] = deque(maxlen=256)
        sites: dict[tuple[str, str, int], list[tuple[int, int, int]]] = {}
        for k, entry in enumerate(analysis["loops"]):
            idx = [i for i, _a in per_loop[k]]
            for j, i in enumerate(idx):
                self.local[(i, k)] = j
            self.members.append(np.array(idx, dtype=np.int64))
            sub = _Runtime({**entry, "actions": [a for _i, a in per_loop[k]]})
            sub.global_index = idx
            sub.reuse_log = self.reuse_log
            self.subs.append(sub)
            loop = entry["loop"]
            sites.setdefault((loop["file"], loop["function"], loop["firstlineno"]), []).append(
                (k, loop["line"], loop.get("end_line") or loop["line"]))
        for cands in sites.values():  # nested loops of one function: the innermost (shortest) first
            cands.sort(key=lambda c: c[2] - c[1])
        self.sites = sites
        self.unknown_loop = 0
        self.outside = False
        self.partial_here = False  # the last mask was taken in a loop whose analysis ran out of budget
        self.loop_steps = [0] * len(self.subs)

    def current(self) -> int | None:
        """The analysed loop running now (the innermost on the stack), or None."""
        import sys

        f = sys._getframe(1)
        while f is not None:
            c = f.f_code
            cands = self.sites.get((c.co_filename, c.co_name, c.co_firstlineno))
            if cands:
                line = f.f_lineno or 0
                for k, first, last in cands:
                    if first <= line <= last:
                        return k
            f = f.f_back
        return None

    def mask(self, ctx: ActionContext) -> np.ndarray:
        k = self.current()
        self.outside = k is None
        self.partial_here = k is not None and self.subs[k].partial_here
        if k is None:
            self.unknown_loop += 1
            return np.ones(self.n, dtype=np.int8)
        self.loop_steps[k] += 1
        out = np.zeros(self.n, dtype=np.int8)
        if len(self.members[k]):
            out[self.members[k]] = self.subs[k].mask(ctx)
        return out

    def perform(self, index: int, ctx: ActionContext) -> InputFrame:
        k = self.current()  # the loop running now, when the action has paths there; else its first loop
        if k is None or (index, k) not in self.local:
            k = int(self.loop_of[index])
        sub = self.subs[k]
        frame = sub.perform(self.local[(index, k)], ctx)
        self.last_hold = sub.last_hold
        return frame

    last_hold: int | None = None

    @property
    def timing(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for sub in self.subs:
            for key, v in sub.timing.items():
                out[key] = out.get(key, 0) + v
        out["unknown_loop"] = self.unknown_loop
        out["loop_steps"] = list(self.loop_steps)
        return out

    @property
    def errors(self) -> int:
        return sum(sub.errors for sub in self.subs)

    @property
    def perform_unsat(self) -> int:
        return sum(sub.perform_unsat for sub in self.subs)


class _GameValues:
    """The game variables of one perform: raw live values (the cache key), their exact Python values
    for the compiled predicate, and (only when z3 runs) the z3 equalities."""

    def __init__(self, names: list[str], raw: list[Any], infos: list[dict[str, Any]],
                 enums: dict[str, dict[str, int]]) -> None:
        self.names, self.raw, self.infos, self.enums = names, raw, infos, enums
        self.key = tuple(_hashable(v) for v in raw)

    def subs(self) -> list[tuple[Any, Any]]:
        out = []
        for name, info, v in zip(self.names, self.infos, self.raw, strict=True):
            term = _const_for(name, info, v, self.enums)
            if term is not None:
                out.append((_var(name, info), term))
        return out

    def concrete(self) -> dict[str, Any] | None:
        """name -> the value z3 would be given (as `_const_for` builds it); variables `_const_for` leaves
        free are left out (a kept solution supplies them); None if a value has no exact counterpart."""
        out: dict[str, Any] = {}
        for name, info, v in zip(self.names, self.infos, self.raw, strict=True):
            try:
                x = _py_const(name, info, v, self.enums)
            except (ValueError, OverflowError, ZeroDivisionError):
                return None
            if x is not _FREE:
                out[name] = x
        return out


def _py_const(name: str, info: dict[str, Any], v: Any, enums: dict[str, dict[str, int]]) -> Any:
    """`_const_for` as a Python value: bool, int, or an exact Fraction (z3.RealVal reads ``str(float)``)."""
    from fractions import Fraction

    kind = info["kind"]
    try:
        if kind in ("truth", "isnone", "held_key", "held_button"):
            return bool(v)
        if kind == "enum":
            table = enums.get(name, {})
            return table.get(v, -1) if isinstance(v, str) else _FREE
        if kind == "int":
            return int(v)
        f = float(v)
    except (TypeError, ValueError):
        return _FREE
    return Fraction(str(f))  # inf / nan: ValueError, OverflowError (no exact value: z3 decides)


@dataclass
class _Fast:
    """An action's p_i as a compiled predicate, with the device rules that apply to its inputs."""

    pred: Any
    devices: Any
    inputs: frozenset[str]


_FASTS: dict[str, _Fast | None] = {}  # p_i text -> compiled predicate, filled in the worker host too


MAX_KEY_TRIES = 24  # other event keys a perform tries in Python before asking z3
SEED_BUDGET_S = 5.0  # seconds `prepare` may spend per call finding first solutions (it goes on next call)
_SOLVERS: dict[tuple[str, tuple[int, int]], tuple[Any, Any]] = {}  # (p_i text, screen) -> solver, formula
_SEEDS: dict[str, dict[str, Any] | None] = {}  # p_i text -> a solution (game state free), from `prepare`


_HELD_RULES: dict[tuple[Any, ...], list[Any]] = {}


def _held_rules(text: str, formula: Any, held: InputFrame) -> list[Any]:
    """`held_device_rules`, built once per p_i and held inputs (z3's Python API is slow to build terms)."""
    key = (text, held.keys, held.mouse_buttons, held.mouse_pos)
    got = _HELD_RULES.get(key)
    if got is None:
        if len(_HELD_RULES) > 20000:
            _HELD_RULES.clear()
        got = _HELD_RULES[key] = held_device_rules(formula, held)
    return got


def _screen(size: tuple[int, int]) -> tuple[int, int]:
    return (int(size[0]), int(size[1])) if tuple(size) != (0, 0) else (640, 480)


def _shared_solver(text: str, screen: tuple[int, int]) -> tuple[Any, Any]:
    """One solver per p_i and screen holding p_i and the device rules that do not depend on held inputs
    (a perform adds the game values and the held-input rules in a push/pop); made in the worker host
    when it can be, so that episodes start with it built and warm."""
    got = _SOLVERS.get((text, screen))
    if got is None:
        import z3

        formula = _parsed(text)
        s = z3.SimpleSolver()
        s.set("timeout", 500)
        s.add(formula)
        s.add(*static_device_rules(formula, screen))
        got = _SOLVERS[(text, screen)] = (s, formula)
    return got


def _parsed(text: str) -> Any:
    import z3

    formula = _PARSED.get(text)
    if formula is None:
        formula = _PARSED[text] = z3.And(*z3.parse_smt2_string(text)) if text else z3.BoolVal(True)
    return formula


def _fast_for(text: str) -> _Fast | None:
    if text in _FASTS:
        return _FASTS[text]
    from playtester.analysis.fastcheck import Devices, compile_smt2

    pred = compile_smt2(text)
    names = frozenset(_input_vars(_parsed(text)))
    got = _FASTS[text] = _Fast(pred, Devices(names), names) if pred is not None else None
    return got


def _assignment(model: Any, formula: Any) -> dict[str, Any] | None:
    """Every constant of the formula as the model completes it (bool, int, exact Fraction); None when a
    value is not rational (non-linear arithmetic), which the predicate could not check exactly."""
    from fractions import Fraction

    import z3

    from playtester.analysis.symbolic import _var_map

    out: dict[str, Any] = {}
    for name, var in _var_map(formula).items():
        r = model.eval(var, model_completion=True)
        if z3.is_true(r):
            out[name] = True
        elif z3.is_false(r):
            out[name] = False
        elif z3.is_int_value(r):
            out[name] = r.as_long()
        elif z3.is_rational_value(r):
            out[name] = Fraction(r.numerator_as_long(), r.denominator_as_long())
        else:
            return None
    return out


_KEY_SET: set[int] = set()


def _key_set() -> set[int]:
    if not _KEY_SET:
        _KEY_SET.update(key_domain())
    return _KEY_SET


def real_clock() -> Any:
    """Real time, not the game's (the driver makes ``time.perf_counter`` the virtual clock in the game)."""
    from playtester.drive.pygame_driver import REAL_PERF_COUNTER

    return REAL_PERF_COUNTER


_CLOCK: list[Any] = []


_WARNED: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        logging.getLogger(__name__).warning("%s", message)


def _now() -> float:
    if not _CLOCK:
        _CLOCK.append(real_clock())
    return _CLOCK[0]()


def stats(rt: Any) -> dict[str, Any]:
    """Validity and perform timings of the episode's analyzed space (``Worker.call`` target)."""
    space = rt.space
    r = getattr(space, "_rt", None)
    if r is None:
        return {}
    return dict(r.timing, errors=r.errors, perform_unsat=r.perform_unsat, n_actions=r.n)


def reuse_log(rt: Any) -> list[dict[str, Any]]:
    """The frames performed from a kept solution instead of z3 since the last call (at most the latest
    256; ``Worker.call`` target): kind (reuse, spread), action index, raw game values, the assignment,
    held inputs, screen, frame, key-at values."""
    r = getattr(rt.space, "_rt", None)
    if r is None:
        return []
    out = list(r.reuse_log)
    r.reuse_log.clear()
    return out


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
    solver.add(*static_device_rules(formula, screen, naming))
    if not naming:
        solver.add(*held_device_rules(formula, held))


def static_device_rules(formula: Any, screen: tuple[int, int], naming: bool = False) -> list[Any]:
    """The device rules that do not depend on the inputs held in the previous frame."""
    import pygame
    import z3

    vs = _input_vars(formula)
    ev_type = vs.get("in:ev_type")
    w, h = screen if screen != (0, 0) else (640, 480)
    out: list[Any] = []
    if "in:ev_key" in vs:
        k = vs["in:ev_key"]
        out.append(k > 0)  # the key list itself is enforced after solving (`solve`), a big Or is slow
        if ev_type is not None and not naming:
            for name, var in vs.items():
                if name.startswith("in:key_"):
                    code = int(name[len("in:key_"):])
                    out.append(z3.Implies(z3.And(ev_type == pygame.KEYDOWN, k == code), var))
                    out.append(z3.Implies(z3.And(ev_type == pygame.KEYUP, k == code), z3.Not(var)))
    if "in:ev_button" in vs:
        b = vs["in:ev_button"]
        out += [b >= 1, b <= 3]
        if ev_type is not None and not naming:
            for i in (1, 2, 3):
                now = vs.get(f"in:mb_{i}")
                if now is not None:
                    out.append(z3.Implies(z3.And(ev_type == pygame.MOUSEBUTTONDOWN, b == i), now))
                    out.append(z3.Implies(z3.And(ev_type == pygame.MOUSEBUTTONUP, b == i), z3.Not(now)))
    if "in:mx" in vs:
        out += [vs["in:mx"] >= 0, vs["in:mx"] < w]
    if "in:my" in vs:
        out += [vs["in:my"] >= 0, vs["in:my"] < h]
    for name, var in vs.items():
        if name.startswith(("in:hx_", "in:hy_", "in:ev_hx", "in:ev_hy", "in:ax_")):
            out += [var >= -1, var <= 1]
    return out


def held_device_rules(formula: Any, held: InputFrame) -> list[Any]:
    """The device rules relative to the inputs held in the previous frame (KEYDOWN needs the key up,
    KEYUP needs it down, the same for mouse buttons, a motion moves the mouse)."""
    import pygame
    import z3

    vs = _input_vars(formula)
    ev_type = vs.get("in:ev_type")
    if ev_type is None:
        return []
    out: list[Any] = []
    if "in:ev_key" in vs:
        k = vs["in:ev_key"]
        for hk in held.keys:
            out.append(z3.Implies(ev_type == pygame.KEYDOWN, k != hk))
        out.append(z3.Implies(ev_type == pygame.KEYUP, z3.Or(*[k == hk for hk in held.keys])
                            if held.keys else z3.BoolVal(False)))
    else:
        # a KEYUP whose key p_i leaves free (an event loop testing held keys: ``if command[K_UP]:``) releases
        # a held key p_i does not need held; with none, no KEYUP can happen (a KEYDOWN of a free key can)
        free = [z3.Not(vs[f"in:key_{hk}"]) if f"in:key_{hk}" in vs else z3.BoolVal(True) for hk in sorted(held.keys)]
        out.append(z3.Implies(ev_type == pygame.KEYUP, z3.Or(*free) if free else z3.BoolVal(False)))
    if "in:ev_button" in vs:
        b = vs["in:ev_button"]
        for i in (1, 2, 3):
            ev = pygame.MOUSEBUTTONDOWN if i in held.mouse_buttons else pygame.MOUSEBUTTONUP
            out.append(z3.Not(z3.And(ev_type == ev, b == i)))
    else:  # the same for a MOUSEBUTTONUP whose button p_i leaves free
        free = [z3.Not(vs[f"in:mb_{i}"]) if f"in:mb_{i}" in vs else z3.BoolVal(True) for i in sorted(held.mouse_buttons)]
        out.append(z3.Implies(ev_type == pygame.MOUSEBUTTONUP, z3.Or(*free) if free else z3.BoolVal(False)))
    if "in:mx" in vs and held.mouse_pos is not None:
        px, py = held.mouse_pos
        out.append(z3.Implies(ev_type == pygame.MOUSEMOTION, z3.Or(vs["in:mx"] != px, vs["in:my"] != py)))
    return out


def frame_from_model(model: Any, formula: Any, held: InputFrame, screen: tuple[int, int],
                     keyat: dict[str, int] | None = None) -> InputFrame:
    """The inputs to hold so the game takes the solved path (keys, mouse, joysticks)."""
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

    return _frame(val, vs, held, screen, keyat)


def frame_from_values(values: dict[str, Any], inputs: Any, held: InputFrame, screen: tuple[int, int],
                      keyat: dict[str, int] | None = None) -> InputFrame:
    """`frame_from_model` for an assignment {name: bool | int | Fraction} of the input variables
    ``inputs`` (a solution kept from an earlier model: the same frame that model gave)."""
    from fractions import Fraction

    def val(name: str) -> Any:
        if name not in inputs:
            return None
        v = values.get(name)
        if isinstance(v, Fraction):
            return float(v.numerator) / float(v.denominator)
        return v

    return _frame(val, inputs, held, screen, keyat)


def _frame(val: Any, vs: Any, held: InputFrame, screen: tuple[int, int], keyat: dict[str, int] | None) -> InputFrame:
    import pygame

    keys: set[int] = set()
    for name in vs:
        if name.startswith("in:key_") and val(name):
            keys.add(int(name[len("in:key_"):]))
        elif name.startswith("in:keyat:"):
            if val(name) and keyat and name in keyat:
                keys.add(keyat[name])
    ev_type = val("in:ev_type")
    buttons = {i for i in (1, 2, 3) if val(f"in:mb_{i}")}
    # a path that tests only the event's type ("press any key", a click read at mouse.get_pos()) leaves its
    # key or button free: some key or button must still go down (or up) for the event to happen
    ev_key, ev_button = val("in:ev_key"), val("in:ev_button")
    if ev_type == pygame.KEYDOWN:
        keys.add(ev_key if ev_key is not None else _any_key_up(held.keys | keys))
    if ev_type == pygame.KEYUP:
        if ev_key is None and held.keys:
            ev_key = min(held.keys - keys, default=min(held.keys))  # not a key p_i needs held
        keys.discard(ev_key)
    if ev_type == pygame.MOUSEBUTTONDOWN:
        buttons.add(ev_button or next((i for i in (1, 3, 2) if i not in held.mouse_buttons), 1))
    if ev_type == pygame.MOUSEBUTTONUP:
        buttons.discard(ev_button or min(held.mouse_buttons - buttons, default=min(held.mouse_buttons, default=1)))
    if ev_type == pygame.MOUSEMOTION:
        buttons = {i for i in (1, 2, 3) if val(f"in:mb_{i}") or (i in held.mouse_buttons and val(f"in:mb_{i}") is None)}
    mouse = None
    if "in:mx" in vs or "in:my" in vs:
        w, h = screen if screen != (0, 0) else (640, 480)
        mx = val("in:mx")
        my = val("in:my")
        mouse = (int(mx) if mx is not None else w // 2, int(my) if my is not None else h // 2)
    elif ev_type == pygame.MOUSEMOTION:  # a motion p_i does not place (any event will do): move the mouse
        w, h = screen if screen != (0, 0) else (640, 480)
        mouse = (w // 2, h // 2) if held.mouse_pos is None or tuple(held.mouse_pos) != (w // 2, h // 2) else (w // 2 + 1, h // 2)
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


def _any_key_up(held: Any) -> int:
    """A key to press for a KEYDOWN whose key nothing tests: SPACE or RETURN, else any common key, not held
    (never ESCAPE, which games read as quit)."""
    import pygame

    for k in (pygame.K_SPACE, pygame.K_RETURN, *key_domain()):
        if k not in held and k != pygame.K_ESCAPE:
            return k
    return pygame.K_SPACE


def key_domain() -> list[int]:
    """Key codes an event may carry: the blind space's 66 common keys first (a path that leaves its key free gets
    one of them), then every other key pygame names (DELETE, the keypad, modifiers, ...), so a path that tests
    ``key == K_DELETE`` is solved to DELETE, not to an action that presses nothing (issue 55)."""
    if not _KEY_DOMAIN:
        import pygame

        from playtester.actions.blind import COMMON_KEYS
        from playtester.drive.inputs import key_code

        _KEY_DOMAIN.extend(key_code(n) for n in COMMON_KEYS)
        seen = set(_KEY_DOMAIN)
        for name in sorted(n for n in dir(pygame) if n.startswith("K_")):
            code = getattr(pygame, name)
            if isinstance(code, int) and code not in seen:
                seen.add(code)
                _KEY_DOMAIN.append(code)
    return _KEY_DOMAIN


MAX_RELEASE_CHECKS = 12  # solver checks `fewest_pressed` may spend releasing inputs a path does not need


def fewest_pressed(solver: Any, formula: Any, m: Any) -> Any:
    """A model like ``m`` that presses no key or mouse button the path does not need.

    A solver's model presses whatever it likes where p_i leaves an input free: the path "no horizontal
    move" of ``if keys[a]: dx -= 1`` / ``if keys[d]: dx += 1`` can come out as *a and d held*, and
    ``keys[a] or keys[LEFT]`` as both held; an action that holds needless keys moves the game less than
    it says and reads wrong. So the keys and buttons pressed in ``m`` are assumed released, all at once
    first, then one at a time (each kept when the solver agrees), at most ``MAX_RELEASE_CHECKS`` checks;
    ``m`` if no release is possible."""
    import z3

    pressed = [v for n, v in sorted(_input_vars(formula).items())
               if n.startswith(("in:key_", "in:mb_")) and z3.is_true(m.eval(v, model_completion=True))]
    if not pressed:
        return m
    r = solver.check(*[z3.Not(v) for v in pressed])
    if r == z3.sat:
        return solver.model()
    if r != z3.unsat or len(pressed) == 1:
        return m
    released: list[Any] = []
    best = m
    for v in pressed[:MAX_RELEASE_CHECKS - 1]:
        if solver.check(*released, z3.Not(v)) == z3.sat:
            released.append(z3.Not(v))
            best = solver.model()
    return best


def solve(solver: Any, formula: Any) -> Any:
    """A model of the solver's constraints whose event key (if any) is a real key, pressing no key or
    button the path does not need (`fewest_pressed`); None if none."""
    import z3

    if solver.check() != z3.sat:
        return None
    m = fewest_pressed(solver, formula, solver.model())
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
        m2 = fewest_pressed(solver, formula, solver.model()) if ok else None
        solver.pop()
        if ok:
            return m2
    solver.push()
    solver.add(z3.Or(*[k == c for c in dom]))
    ok = solver.check() == z3.sat
    m2 = fewest_pressed(solver, formula, solver.model()) if ok else None
    solver.pop()
    return m2


