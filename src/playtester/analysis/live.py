"""The analysis inside the game's process: call graph, main loop, slicing, paths, actions.

`start_recording` and `analyze_here` are called by the parent through ``Worker.call`` (they run in
the episode process between two steps, at a frame boundary, with the game's main loop on the stack).
"""

from __future__ import annotations

import ast
import gc
import os
import sys
import time
import types
from collections import defaultdict
from dataclasses import replace
from typing import Any

import z3

from playtester.analysis import symbolic as sx
from playtester.analysis.space import real_clock
from playtester.drive import lifetime

_PERF = real_clock()  # real time, not the game's

_EDGES: dict[tuple[Any, int], set[Any]] = defaultdict(set)  # (caller code, call line) -> callee codes
_RECORDING: dict[str, Any] = {}


def start_recording(rt: Any) -> bool:
    """Record the dynamic call graph (caller code and line -> callee code) from now on."""
    files = _game_files(rt.spec)
    _RECORDING["files"] = files
    import pygame

    pg_dir = os.path.dirname(pygame.__file__) + os.sep

    def prof(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            back = frame.f_back
            if back is None or code.co_filename not in files:
                return
            # a game method called by pygame's own Python code (``Group.update()`` calling each sprite's
            # update): the edge goes from the game's call site of the pygame method
            for _ in range(3):
                if back is None or not back.f_code.co_filename.startswith(pg_dir):
                    break
                back = back.f_back
            if back is not None and back.f_code.co_filename in files:
                _EDGES[(back.f_code, back.f_lineno)].add(code)

    sys.setprofile(prof)
    return True


def stop_recording(rt: Any) -> bool:
    sys.setprofile(None)
    return True


def _game_files(spec: Any) -> set[str]:
    import fnmatch

    from playtester.drive.worker import code_include_patterns

    pats = code_include_patterns(spec)  # the game's folder, symlinks resolved

    def game_file(path: str) -> bool:  # a game imported through a symlinked folder: its paths go through the link
        return any(fnmatch.fnmatch(path, p) for p in pats) or any(fnmatch.fnmatch(os.path.realpath(path), p)
                                                                for p in pats)

    out = set()
    for m in list(sys.modules.values()):
        f = getattr(m, "__file__", None)
        if f and game_file(f):
            out.add(f)
    f = sys._getframe()
    while f is not None:
        fn = f.f_code.co_filename
        if game_file(fn):
            out.add(fn)
        f = f.f_back
    return out


def analyze_here(rt: Any, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Analyse the game's input handling from the live main loop; a JSON-ready result."""
    sys.setprofile(None)
    # the executor makes millions of short-lived objects and few cycles: the cyclic collector's passes over
    # the game's heap cost more than they free (for a few seconds, with bounded memory)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        if options and options.get("profile"):
            import cProfile

            prof = cProfile.Profile()
            try:
                return prof.runcall(_analyze_here, rt, options)
            finally:
                prof.dump_stats(options["profile"])
        return _analyze_here(rt, options)
    finally:
        if was_enabled:
            gc.enable()


def _analyze_here(rt: Any, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The analysis proper; a result with ``gave_up`` (the reason) when it passed its budget of CPU time."""
    try:
        return _analyze_now(rt, options or {})
    except sx.AnalysisBudget as e:
        return {"gave_up": str(e)}


def _analyze_now(rt: Any, options: dict[str, Any]) -> dict[str, Any]:
    t0 = _PERF()
    t0_cpu = time.process_time()
    import pygame

    _limit_z3_memory(rt)

    files = _game_files(rt.spec)
    fn_index = _functions(files)
    reaches = _reachability(fn_index, pygame)
    _TREES.clear()  # fresh loop nodes: slicing marks the nodes it analyses
    _REACHING.update(files=files, names={c.co_name for c in reaches})
    loop_frame, loop_node, loop_file = _find_loop(files, _REACHING["names"])
    if loop_frame is None:
        raise RuntimeError("no main loop found: no game function on the stack runs a loop around its frame "
                           "boundary (is the game's loop in a thread or a callback?)")
    modules: list[str] = []
    for f in sorted(files):
        modules.append(f)
    module_index = {f: i for i, f in enumerate(modules)}
    roots: dict[str, Any] = {"S": []}
    screen = rt.screen_size if rt.screen_size != (0, 0) else _screen(pygame)
    ex = sx.Executor(pygame=pygame, game_files=files, reaches_input=lambda code: code in reaches,
                     screen=screen, roots=roots, module_index=module_index,
                     rebound=_rebound(fn_index, (loop_file, loop_node) if loop_frame.f_code.co_name == "<module>"
                                      else None),
                     joysticks=rt.cfg.joysticks, blacklist=frozenset(_blacklist(rt.cfg.blacklist)))
    ex.reaching_names = {c.co_name for c in reaches} | {_class_name(c) for c in reaches if c.co_name == "__init__"}
    if options.get("max_forks"):
        ex.max_forks = int(options["max_forks"])
    budget = float(options.get("seconds") or sx.HARD_SECONDS)
    ex.max_seconds = budget * sx.FORK_SHARE  # stop forking early: the paths still run, and make the actions
    ex.deadline = time.process_time() + ex.max_seconds
    ex.ceiling = t0_cpu + budget  # the budget is a ceiling: the actions are made and named within it
    ex.hard_deadline = ex.ceiling - sx.FINISH_SHARE * budget  # execution ends here, paths cut where they are
    ex.budget_s = budget
    from playtester.analysis.paths import ACTIONS_RESERVE

    ex.trim_deadline = ex.hard_deadline - ACTIONS_RESERVE * budget
    ex.live_ns = {"L": loop_frame.f_locals, "M": [rt.ctx.game.module_globals(f) or {} for f in modules],
                  "H": rt.held,
                  "getattr": getattr, "bool": bool}
    ex.known_names = _known_names(fn_index, pygame)
    ex.input_fields = set(_INPUT_FIELDS)
    ex.input_globals = set(_INPUT_GLOBALS)
    ex.dynamic_by_site = defaultdict(set)
    for (caller, line), callees in _EDGES.items():
        ex.dynamic_by_site[(caller.co_filename, line)] |= callees
    ex.functions_by_code = {code: fn for fn in _live_functions(files) for code in [fn.__code__]}
    # for the input horizon: the game's own function names, and the lines of call sites where the recording
    # saw a call of a function that reaches input
    ex.game_names = {c.co_name for c in fn_index if isinstance(c, types.CodeType)} | \
        {_class_name(c) for c in fn_index if isinstance(c, types.CodeType) and c.co_name == "__init__"}
    ex.dynamic_reaching_lines = {line for (_f, line), callees in ex.dynamic_by_site.items()
                                 if any(c in reaches for c in callees)}
    t_prep = _PERF()
    # the loop body is the frame's code; its locals and module globals are the roots
    loc = loop_frame.f_locals
    env: dict[str, Any] = {"__globals__": loop_frame.f_globals}
    is_module = loop_frame.f_code.co_name == "<module>"
    for name, value in loc.items():
        if is_module:
            break
        env[name] = sx.G(f"L[{name!r}]", value)
    body_holder = ast.Module(body=loop_node.body, type_ignores=[])
    sx.slice_function(body_holder, ex)
    st = sx.State(env=env)
    ends: list[Any] = []
    for s, _flow in ex.run_block(loop_node.body, st, loop_file):
        ends.append(s)
    ends = ex.drop_unhandled(ends)
    t_exec = _PERF()
    from playtester.analysis.paths import build_actions

    if not any(s.reads for s in ends):
        ends = []  # no path reads an input: the loop has no input handling to turn into actions
    actions, merged = build_actions(ex, ends, screen)
    result_actions = {"actions": actions}
    name_actions(result_actions, screen, ex)
    actions = group_actions(result_actions["actions"])
    t_end = _PERF()
    unsupported = [{"file": f, "line": line, "what": what} for (f, line), what in sorted(ex.unsupported.items())]
    return {
        "loop": _loop_info(loop_frame, loop_node, loop_file),
        "modules": modules,
        "instance_roots": [list(k) for k in roots["S"]],
        "screen": list(screen),
        "actions": actions,
        "game_vars": {k: v for k, v in ex.gv.info.items()},
        "enums": ex.gv.enums,
        "partial": ex.partial,
        "stats": {"paths": len(ends), "merged": merged, "horizon_cuts": ex.horizon_cuts, "notes": ex.notes, "kept_statements": ex.kept_stmts,
                  "sliced_statements": ex.sliced_stmts, "inlined": sorted(ex.inlined),
                  "summarized": sorted(ex.summarized), "functions": len(fn_index),
                  "reaching_input": sorted(c.co_name for c in reaches), "truncated": ex.truncated, "dynamic_edges": sum(len(v) for v in _EDGES.values())},
        "unsupported": unsupported,
        # the keys no action may press: the blind actions offered in loops never analysed leave them out too
        "blacklist": sorted(rt.cfg.blacklist),
        "named_inputs": named_inputs(files, pygame),
        "timings": {"prepare_s": t_prep - t0, "execute_s": t_exec - t_prep, "actions_s": t_end - t_exec,
                    "cpu_s": time.process_time() - t0_cpu},
    }


def _loop_info(frame: Any, node: Any, file: str) -> dict[str, Any]:
    """A loop's identity (file, function, the function's first line, the loop's lines)."""
    return {"file": file, "function": frame.f_code.co_name, "firstlineno": frame.f_code.co_firstlineno,
            "line": node.lineno, "end_line": node.end_lineno or node.lineno, "module": frame.f_code.co_name == "<module>"}


_REACHING: dict[str, Any] = {}  # the files and the names with a call path to an input API, for current_loop


def innermost_loop(rt: Any) -> dict[str, Any] | None:
    """The innermost loop of a game frame on the stack, whether it reads input or not (no reachability
    needed: cheap at every step of the recording run; `current_loop` decides later)."""
    files = _files_now(rt)
    f = sys._getframe(1)
    while f is not None:
        if f.f_code.co_filename in files:
            node = _loop_around(f)
            if node is not None:
                return _loop_info(f, node, f.f_code.co_filename)
        f = f.f_back
    return None


def _files_now(rt: Any) -> set[str]:
    """`_game_files`, again only when modules were imported since."""
    n = len(sys.modules)
    if _REACHING.get("n_modules") != n or "files_now" not in _REACHING:
        _REACHING["files_now"] = _game_files(rt.spec)
        _REACHING["n_modules"] = n
    return _REACHING["files_now"]


def _game_frames(files: set[str]) -> list[Any]:
    """The frames of the game's own files on the stack, innermost first."""
    frames = []
    f = sys._getframe(1)
    while f is not None:
        if f.f_code.co_filename in files:
            frames.append(f)
        f = f.f_back
    return frames


def current_loop(rt: Any) -> dict[str, Any] | None:
    """The input loop the game is running now: the innermost loop of a game frame on the stack, when it
    reads input (else None: a fade-in between two screens, whose outer loop is no input loop to analyse).
    Cheap enough to ask at every step (the reachability it needs is computed once per set of files)."""
    import pygame

    files = _files_now(rt)
    if _REACHING.get("files") != files:
        _REACHING["files"] = files
        _REACHING["names"] = {c.co_name for c in _reachability(_functions(files), pygame)}
    frames = _game_frames(files)
    for fr in frames:  # the innermost game loop: an input loop, or None (a fade-in, a loading screen: the
        node = _loop_around(fr)  # outer loop that calls the screens is no input loop of its own)
        if node is not None:
            return _loop_info(fr, node, fr.f_code.co_filename) if _reads_input(node, _REACHING["names"]) else None
    return None


def other_input_loops(rt: Any, analysed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Frame loops of the game's files (a loop that flips the display, ticks a clock or awaits) that read
    input and are neither inside nor around an analysed loop: the loops exploring could still reach. None:
    a game with one input loop need not be explored."""
    import pygame

    files = _files_now(rt)
    if _REACHING.get("files") != files:
        _REACHING["files"] = files
        _REACHING["names"] = {c.co_name for c in _reachability(_functions(files), pygame)}
    out = []
    for file in sorted(files):
        tree = _TREES.get(file)
        if tree is None:
            try:
                with open(file, "rb") as fh:
                    tree = _TREES[file] = ast.parse(fh.read())
            except (OSError, SyntaxError, ValueError):
                continue
        for n in ast.walk(tree):
            if not isinstance(n, (ast.While, ast.For, ast.AsyncFor)) or not _frame_loop(n) or \
                    not _reads_input(n, _REACHING["names"]):
                continue
            last = n.end_lineno or n.lineno
            if any(a["file"] == file and (a["line"] <= n.lineno <= a.get("end_line", a["line"]) or
                                          n.lineno <= a["line"] <= last) for a in analysed):
                continue
            out.append({"file": file, "line": n.lineno})
    return out


def _frame_loop(loop: ast.AST) -> bool:
    """Does the loop's body show a frame (``display.flip()`` / ``update()``, ``clock.tick()``, an await)?"""
    for n in ast.walk(loop):
        if isinstance(n, ast.Await):
            return True
        if isinstance(n, ast.Call):
            name = n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id if isinstance(n.func, ast.Name) else ""
            if name in ("flip", "tick", "tick_busy_loop") or name == "update" and "display" in (sx._dotted(n.func) or ""):
                return True
    return False


def _limit_z3_memory(rt: Any) -> None:
    """z3 allocates outside Python's heap: give it what the episode's memory limit leaves (z3 then answers
    unknown, which the analysis takes as feasible, instead of growing without bound)."""
    limit = getattr(rt.opts, "memory_limit_mb", None)
    if limit:
        z3.set_param("memory_max_size", max(64, int(limit - lifetime.data_mb())))


def _rebound(index: dict[Any, ast.AST], module_loop: tuple[str, Any] | None) -> dict[str, set[str]]:
    """Module globals the game rebinds while it runs (``global x`` in a function, or assignments in a
    main loop at module level): game state, never folded as constants."""
    out: dict[str, set[str]] = defaultdict(set)
    for key, tree in index.items():
        if isinstance(key, tuple) and key[0] == "module":
            for n in _walk(tree):
                if isinstance(n, ast.Global):
                    out[key[1]].update(n.names)
    if module_loop is not None:
        file, loop = module_loop
        out[file].update(n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return out


def _blacklist(names: list[str]) -> set[int]:
    from playtester.drive.inputs import key_code

    return {key_code(n) for n in names}


def _screen(pygame: Any) -> tuple[int, int]:
    surf = pygame.display.get_surface()
    return surf.get_size() if surf is not None else (640, 480)


_INPUT_CALLS = (".event.get", ".event.poll", ".event.wait", ".key.get_pressed", ".key.get_just_pressed",
                ".key.get_just_released", ".mouse.get_pos", ".mouse.get_pressed", ".mouse.get_rel")


def _find_loop(files: set[str], reaching_names: set[str] | None = None) -> tuple[Any, Any, str]:
    """The game's main loop: among the game frames on the stack whose function runs a loop around its
    current line, the innermost whose loop body reads input (an input API, or a call of a function with
    a call path to one). A game with one loop per screen (title, play, game over) called in turn from an
    outer ``while True`` is analysed in the screen's loop it is in, and a fade-in loop that flips frames
    without reading input is passed over. Without such a loop: the outermost loop (a loop that reads
    input only through calls the analysis cannot name)."""
    frames = _game_frames(files)
    loops = [(fr, node) for fr in frames for node in [_loop_around(fr)] if node is not None]  # innermost first
    for fr, node in loops:
        if reaching_names is not None and _reads_input(node, reaching_names):
            return fr, node, fr.f_code.co_filename
    if loops:
        fr, node = loops[-1]
        return fr, node, fr.f_code.co_filename
    return None, None, ""


def _reads_input(loop: ast.AST, reaching_names: set[str]) -> bool:
    """Whether a loop's body calls an input API or a function whose name has a call path to one."""
    for n in ast.walk(loop):
        if isinstance(n, ast.Call):
            chain = sx._dotted(n.func) or ""
            if any(("." + chain).endswith(c) for c in _INPUT_CALLS):
                return True
            name = n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id if isinstance(n.func, ast.Name) else ""
            if name in reaching_names or name in _INPUT_METHODS:
                return True
    return False


_TREES: dict[str, Any] = {}  # file -> its parsed module (the loops of a frame are looked up every step)


def _loop_around(fr: Any) -> Any:
    tree = _TREES.get(fr.f_code.co_filename)
    if tree is None:
        try:
            with open(fr.f_code.co_filename, "rb") as fh:
                tree = ast.parse(fh.read())  # bytes: the file's own coding cookie (PEP 263) decides
        except (OSError, SyntaxError, ValueError):
            return None
        if len(_TREES) > 256:
            _TREES.clear()
        _TREES[fr.f_code.co_filename] = tree
    line = fr.f_lineno
    scope: Any = tree
    if fr.f_code.co_name != "<module>":
        scope = None
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == fr.f_code.co_name and \
                    (n.lineno == fr.f_code.co_firstlineno or
                     (n.decorator_list and n.decorator_list[0].lineno == fr.f_code.co_firstlineno)):
                scope = n
                break
        if scope is None:
            return None
    best = None
    for n in ast.walk(scope):
        if isinstance(n, ast.While) and n.lineno <= line <= (n.end_lineno or n.lineno):
            if best is None or n.lineno > best.lineno:
                best = n
    if best is None:
        for n in ast.walk(scope):
            if isinstance(n, ast.For) and n.lineno < line <= (n.end_lineno or n.lineno):
                if best is None or n.lineno > best.lineno:
                    best = n
    return best


_SUBTREES: dict[int, list[ast.AST]] = {}  # id(function or module node) -> its nodes (set by `_functions`)


def _index_subtrees(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` in one pass (pre-order), recording each function's and the module's own nodes in
    `_SUBTREES`: the reachability, the rebound globals and the function index read the same nodes, and a walk
    of each function apart (``ast.walk``) cost a second per 15,000-line game."""
    nodes: list[ast.AST] = []
    starts: list[tuple[ast.AST, int]] = []
    stack: list[Any] = [tree]
    scoped = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)
    while stack:
        x = stack.pop()
        if type(x) is int:
            node, start = starts[x]
            _SUBTREES[id(node)] = nodes[start:]
            continue
        if isinstance(x, scoped):
            stack.append(len(starts))
            starts.append((x, len(nodes)))
        nodes.append(x)
        children = []
        for f in x._fields:
            v = getattr(x, f, None)
            if isinstance(v, ast.AST):
                children.append(v)
            elif type(v) is list:
                children.extend(c for c in v if isinstance(c, ast.AST))
        stack.extend(reversed(children))
    return nodes


def _walk(node: ast.AST) -> list[ast.AST] | Any:
    """``ast.walk(node)`` from `_SUBTREES` when the node is a function or module indexed there."""
    got = _SUBTREES.get(id(node))
    return got if got is not None else ast.walk(node)


def _live_functions(files: set[str]) -> list[types.FunctionType]:
    out = []
    for m in list(sys.modules.values()):
        if getattr(m, "__file__", None) not in files:
            continue
        for v in list(vars(m).values()):
            if isinstance(v, types.FunctionType) and v.__code__.co_filename in files:
                out.append(v)
            elif isinstance(v, type):
                for a in vars(v).values():
                    if isinstance(a, (staticmethod, classmethod)):
                        a = a.__func__
                    if isinstance(a, property):
                        a = a.fget
                    if isinstance(a, types.FunctionType) and a.__code__.co_filename in files:
                        out.append(a)
    return out


def _functions(files: set[str]) -> dict[Any, ast.AST]:
    """Every function of the game's files, by code object where one is loaded (else by (file, line))."""
    index: dict[Any, ast.AST] = {}
    _SUBTREES.clear()
    by_pos = {(c.co_filename, c.co_firstlineno): c for c in _all_codes(files)}
    for f in files:
        try:
            with open(f, "rb") as fh:
                tree = ast.parse(fh.read())  # bytes: a latin-1 file with its coding cookie parses too
        except (OSError, SyntaxError, ValueError):
            continue
        for n in _index_subtrees(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = n.decorator_list[0].lineno if n.decorator_list else n.lineno
                code = by_pos.get((f, first)) or by_pos.get((f, n.lineno))
                index[code if code is not None else (f, n.lineno)] = n
        index[("module", f)] = tree
    return index


def _all_codes(files: set[str]) -> list[Any]:
    out = []
    for fn in _live_functions(files):
        todo = [fn.__code__]
        while todo:
            c = todo.pop()
            out.append(c)
            todo.extend(x for x in c.co_consts if isinstance(x, types.CodeType))
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and obj.__code__.co_filename in files:
            out.append(obj.__code__)
    return out


_INPUT_METHODS = {"get_axis", "get_button", "get_hat"}
_INPUT_GLOBALS: set[str] = set()  # global lists of a module that hold inputs (``EVENTS``; set by _reachability)
_INPUT_FIELDS: set[str] = set()  # attributes of ``self`` that hold inputs a method stored (set by _reachability)


def _reachability(index: dict[Any, ast.AST], pygame: Any) -> set[Any]:
    """Code objects with a call path to an input API (static names + the recorded dynamic call graph)."""
    input_objs = {id(x) for x in (pygame.key.get_pressed, pygame.event.get, pygame.event.poll, pygame.event.wait,
                                  pygame.mouse.get_pos, pygame.mouse.get_pressed, pygame.mouse.get_rel,
                                  pygame.joystick.Joystick)}
    for name in ("get_just_pressed", "get_just_released"):
        if hasattr(pygame.key, name):
            input_objs.add(id(getattr(pygame.key, name)))
    direct: set[Any] = set()
    calls: dict[Any, set[str]] = {}
    by_name: dict[str, list[Any]] = defaultdict(list)
    for code in index:
        if isinstance(code, types.CodeType):
            by_name[code.co_name].append(code)
    for code, node in index.items():
        if not isinstance(code, types.CodeType):
            continue
        g = _globals_of(code)
        names = set()
        for n in _walk(node):
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Attribute) and f.attr in _INPUT_METHODS:
                    direct.add(code)
                chain = sx._dotted(f)
                if chain and g is not None:
                    obj = _resolve(chain, g)
                    if obj is not None and id(obj) in input_objs:
                        direct.add(code)
                if isinstance(f, ast.Attribute) and not f.attr.startswith("__"):
                    if isinstance(f.value, ast.Name) and f.value.id == "self":
                        names.add(("self", f.attr))
                    elif len(by_name.get(f.attr, ())) <= 2:
                        names.add(("any", f.attr))  # a distinctive method name: over-approximate by name
                elif isinstance(f, ast.Name):
                    target = g.get(f.id) if g is not None else None
                    if isinstance(target, types.FunctionType):
                        names.add(("code", target.__code__))
                    elif isinstance(target, type):
                        init = target.__dict__.get("__init__")
                        if isinstance(init, types.FunctionType):
                            names.add(("code", init.__code__))
        calls[code] = names
    # input stored in a field and read elsewhere: ``self.keys = key.get_pressed()`` in one method makes every
    # method of the class that reads ``self.keys`` an input reader too (State.heap carries the value over)
    # events collected into a list field and handled later (``for e in pg.event.get(): self.pending.append(e)``
    # in one method, ``for e in self.pending: ...`` in another): the same, for the list
    stored: list[tuple[Any, str]] = []
    stored_globals: list[tuple[types.ModuleType, str]] = []
    for code in direct:
        g = _globals_of(code)

        def is_input_call(c: ast.AST, g: dict[str, Any] | None = g) -> bool:
            return isinstance(c, ast.Call) and g is not None and \
                (obj := _resolve(sx._dotted(c.func) or "", g)) is not None and id(obj) in input_objs

        derived: set[str] = set()  # names bound to an input API's result, or to an item of it
        for n in _walk(index[code]):
            if isinstance(n, (ast.For, ast.AsyncFor)) and any(is_input_call(c) for c in ast.walk(n.iter)) or \
                    isinstance(n, ast.Assign) and any(is_input_call(c) for c in ast.walk(n.value)):
                for t in ([n.target] if isinstance(n, (ast.For, ast.AsyncFor)) else n.targets):
                    derived |= {x.id for x in ast.walk(t) if isinstance(x, ast.Name)}
        for n in _walk(index[code]):
            if isinstance(n, ast.Assign) and any(is_input_call(c) for c in ast.walk(n.value)):
                stored += [(code, t.attr) for t in n.targets if isinstance(t, ast.Attribute)
                           and isinstance(t.value, ast.Name) and t.value.id == "self"]
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    n.func.attr in ("append", "extend", "insert", "appendleft") and \
                    isinstance(n.func.value, ast.Attribute) and isinstance(n.func.value.value, ast.Name) and \
                    n.func.value.value.id == "self" and any(
                        is_input_call(x) or isinstance(x, ast.Name) and x.id in derived
                        for a in n.args for x in ast.walk(a)):
                stored.append((code, n.func.value.attr))
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    n.func.attr in ("append", "extend", "insert", "appendleft") and g is not None and \
                    isinstance(lst := _global_list(n.func.value, g), list) and any(
                        is_input_call(x) or isinstance(x, ast.Name) and x.id in derived
                        for a in n.args for x in ast.walk(a)):
                # a module's global list (``events.EVENTS.append(event)`` or ``EVENTS.append(event)``, read by
                # ``for e in events.EVENTS`` in the player's module): a list of inputs, as a field's is
                attr = n.func.value.attr if isinstance(n.func.value, ast.Attribute) else n.func.value.id
                stored_globals.append((lst, attr))
                stored.append((code, attr))
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                # an input handed to a setter (``gm.set_keys_pressed(keys)``) that stores its parameter in a
                # field (``self.keys = keys``): the same as storing the input API's result there
                for i, a in enumerate([*n.args, *n.keywords]):
                    v = a.value if isinstance(a, ast.keyword) else a
                    if not (is_input_call(v) or isinstance(v, ast.Name) and v.id in derived):
                        continue
                    for callee in by_name.get(n.func.attr, ()):
                        stored += _param_stores(callee, index.get(callee), a.arg if isinstance(a, ast.keyword) else i)
    _INPUT_FIELDS.clear()
    _INPUT_FIELDS.update(attr for _code, attr in stored)
    _INPUT_GLOBALS.clear()
    _INPUT_GLOBALS.update(attr for _lst, attr in stored_globals)
    if stored:
        where_by_attr: dict[str, list[Any]] = defaultdict(list)
        for where, attr in stored:
            where_by_attr[attr].append(where)
        for code, node in index.items():
            if isinstance(code, types.CodeType) and code not in direct and any(
                    isinstance(n, ast.Attribute) and n.attr in where_by_attr and isinstance(n.ctx, ast.Load)
                    and isinstance(n.value, ast.Name) and n.value.id == "self"
                    and any(_same_class(code, where) for where in where_by_attr[n.attr])
                    for n in _walk(node)):
                direct.add(code)
    for lst, attr in stored_globals:  # the functions reading that global list, in any module
        for code, node in index.items():
            g = _globals_of(code) if isinstance(code, types.CodeType) else None
            if g is not None and code not in direct and any(
                    isinstance(n, (ast.Attribute, ast.Name)) and isinstance(n.ctx, ast.Load)
                    and (n.attr if isinstance(n, ast.Attribute) else n.id) == attr and _global_list(n, g) is lst
                    for n in _walk(node)):
                direct.add(code)
    reach = set(direct)
    changed = True
    while changed:
        changed = False
        for code, names in calls.items():
            if code in reach:
                continue
            callees = []
            for how, nm in names:
                if how == "code":
                    callees.append(nm)
                elif how == "self":
                    callees += [c for c in by_name.get(nm, ()) if _same_class(c, code)]
                else:
                    callees += by_name.get(nm, [])
            callees += [c for (caller, _line), cs in _EDGES.items() if caller is code for c in cs]
            if any(c in reach for c in callees):
                reach.add(code)
                changed = True
    return reach


def _param_stores(code: Any, node: ast.AST | None, which: int | str | None) -> list[tuple[Any, str]]:
    """The fields (``self.X = param``) the method ``code`` stores its parameter ``which`` (the position among
    the arguments after ``self``, or a keyword's name) in."""
    if node is None or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or which is None:
        return []
    params = [x.arg for x in [*node.args.posonlyargs, *node.args.args]]
    if not params or params[0] != "self":
        return []
    if isinstance(which, int):
        if which + 1 >= len(params):
            return []
        name = params[which + 1]
    else:
        name = which
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == name:
            out += [(code, t.attr) for t in n.targets if isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name) and t.value.id == "self"]
    return out


def _global_list(node: ast.AST, g: dict[str, Any]) -> list[Any] | None:
    """The live list a module global names (``EVENTS``, ``events.EVENTS`` with ``events`` a module), else None."""
    if isinstance(node, ast.Name):
        v = g.get(node.id)
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            isinstance(mod := g.get(node.value.id), types.ModuleType):
        v = getattr(mod, node.attr, None)
    else:
        return None
    return v if isinstance(v, list) else None


def _same_class(callee: Any, caller: Any) -> bool:
    """Could ``self.m()`` in ``caller`` run ``callee``? When callee's class is related to caller's."""
    a, b = _class_of(callee), _class_of(caller)
    if a is None or b is None:
        return True  # unsure: keep the edge
    return b in getattr(a, "__mro__", ()) or a in getattr(b, "__mro__", ())  # issubclass raises on a typing.Protocol


def _class_of(code: Any) -> type | None:
    parts = code.co_qualname.split(".")
    if len(parts) < 2:
        return None
    g = _globals_of(code)
    obj: Any = g.get(parts[0]) if g else None
    for p in parts[1:-1]:
        obj = getattr(obj, p, None)
    return obj if isinstance(obj, type) else None


def _globals_of(code: Any) -> dict[str, Any] | None:
    """The globals of the loaded module that defines ``code`` (an index of modules by file, built once)."""
    if not _BY_FILE or code.co_filename not in _BY_FILE:
        _BY_FILE.clear()
        _BY_FILE.update({m.__file__: vars(m) for m in list(sys.modules.values()) if getattr(m, "__file__", None)})
        _BY_FILE.setdefault(code.co_filename, None)  # not a loaded module's file: not looked up again
    return _BY_FILE.get(code.co_filename)


_BY_FILE: dict[str, dict[str, Any] | None] = {}


def _resolve(chain: str, g: dict[str, Any]) -> Any:
    parts = chain.split(".")
    if parts[0] not in g:
        return None
    obj = g[parts[0]]
    for p in parts[1:]:
        obj = getattr(obj, p, None)
        if obj is None:
            return None
    return obj


def _class_name(code: types.CodeType) -> str:
    """``Alien`` for the code of ``Alien.__init__`` (a nested class: its own name)."""
    parts = code.co_qualname.split(".")
    return parts[-2] if len(parts) >= 2 else code.co_name


def _known_names(index: dict[Any, ast.AST], pygame: Any) -> set[str]:
    import builtins

    names = {c.co_name for c in index if isinstance(c, types.CodeType)}
    # a game class's name calls its __init__ (``Alien()``): known; it reaches inputs when __init__ does
    names |= {_class_name(c) for c in index if isinstance(c, types.CodeType) and c.co_name == "__init__"}
    names |= set(dir(builtins))
    import collections
    import functools
    import itertools
    import math
    import operator
    import random

    for obj in (random, math, itertools, functools, operator, collections,  # never read inputs
                pygame.Surface, pygame.Rect, pygame.sprite.Sprite, pygame.sprite.Group, list, dict, set, str,
                pygame.draw, pygame.display, pygame.time, pygame.font, pygame.transform, pygame.mixer,
                pygame.math.Vector2, pygame.image, pygame.time.Clock):
        names |= {n for n in dir(obj) if not n.startswith("_")}
    return names - sx._INPUT_NAMES - {"update"}


def _z3_version() -> str:
    return z3.get_version_string()


_NAMING_SOLVER: Any = None


def _one_solution(formula: Any, screen: tuple[int, int], timeout_ms: int = 500) -> tuple[Any, str]:
    """One solution of p_i with the game state left free, as an InputFrame, and its event's name (each solver check
    given ``timeout_ms``)."""
    import pygame

    from playtester.analysis.space import add_device_rules, frame_from_model, solve
    from playtester.drive.inputs import InputFrame

    global _NAMING_SOLVER
    if _NAMING_SOLVER is None:
        _NAMING_SOLVER = z3.Solver()  # one solver for every action (push / pop): no set-up per action
    s = _NAMING_SOLVER
    s.set("timeout", timeout_ms)
    s.push()
    try:
        s.add(formula)
        add_device_rules(s, formula, InputFrame(), screen, naming=True)
        m = solve(s, formula)
    finally:
        s.pop()
    frame = InputFrame()
    event = ""
    if m is not None:
        frame = frame_from_model(m, formula, InputFrame(), screen)
        evt = m.eval(z3.Int("in:ev_type"), model_completion=True)
        if "in:ev_type" in sx._var_map(formula) and z3.is_int_value(evt):
            event = pygame.event.event_name(evt.as_long())
            key = m.eval(z3.Int("in:ev_key"), model_completion=True)
            if evt.as_long() in (pygame.KEYDOWN, pygame.KEYUP) and z3.is_int_value(key) and \
                    "in:ev_key" in sx._var_map(formula):
                event += f"({pygame.key.name(key.as_long()) or key.as_long()})"
    return frame, event


def name_actions(result: dict[str, Any], screen: tuple[int, int], ex: Any = None) -> None:
    """Give each action a readable, unique name from one solution of its p_i (game state left free),
    and keep that solution as the action's sample inputs (what ``--json`` exports). Past the executor's
    hard deadline the actions not yet named (past the first ``MIN_ACTIONS``) are dropped (a partial space, said in
    ``ex.partial``); past the budget's ceiling, all but those named (at least one)."""
    from playtester.analysis.paths import MIN_ACTIONS
    from playtester.drive.inputs import InputFrame

    used: dict[str, int] = {}
    solved: dict[str, tuple[Any, str]] = {}  # p_i text -> (frame, event): paths that differ in p_g only
    for n_done, act in enumerate(list(result["actions"])):
        if ex is not None and n_done and ((n_done >= MIN_ACTIONS and time.process_time() > ex.hard_deadline)
                                          or ex.past_ceiling()):
            total = len(result["actions"])
            del result["actions"][n_done:]
            ex.partial = f"{n_done} of {total} actions solved before the analysis budget ran out"
            break
        formula = act.pop("_pi")
        if act["p_i"] in solved:
            frame, event = solved[act["p_i"]]
        else:
            frame, event = None, ""
            if ex is not None:
                # under the game's values now first: a click then lands inside the live button the path tests
                # (the sample inputs are what exploring plays and what an export lists), else with them free
                live = ex._live_view(formula)
                if not live.eq(formula) and not z3.is_false(live):
                    frame, event = _one_solution(live, screen, ex.ms_left(500))
                    if frame == InputFrame() and not event:
                        frame = None
            if frame is None:
                frame, event = _one_solution(formula, screen, ex.ms_left(500) if ex is not None else 500)
            solved[act["p_i"]] = (frame, event)
        parts = []
        tap = act.get("tap_key")
        if tap is not None and event.startswith("KeyUp"):
            import pygame

            from playtester.drive.inputs import InputFrame

            # performed as a tap of that key (`space._Runtime.perform`): named by what it presses
            event = f"KeyUp({pygame.key.name(int(tap)) or tap})"
            frame = InputFrame(keys=frozenset({int(tap)}))
        if event:
            parts.append(event)
        desc = frame.describe()
        if desc and desc != "nothing" and not (tap is not None and event.startswith("KeyUp")):
            parts.append(desc)
        mouse_cell = act["forked"].get("mouse")
        if mouse_cell is not None and frame.mouse_pos is not None:
            parts.append(f"cell {tuple(mouse_cell)}")
        for k, v in sorted(act["forked"].items()):
            if k.startswith("ax_"):
                parts.append(f"{k}{'+' if v == 'pos' else '-' if v == 'neg' else '0'}")
        base = " ".join(parts) or "no input"
        n = used.get(base, 0)
        used[base] = n + 1
        act["name"] = base if n == 0 else f"{base} #{n + 1}"
        act["sample_inputs"] = frame
        act["event"] = event


def group_actions(paths: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One action per distinct input (the paper's actions are inputs with conditions, not paths): the named
    paths whose solved inputs are the same (event, sample frame, tapped key, mouse cell, joystick forks) become
    one action whose validity is the disjunction of theirs. Each action keeps its paths under ``paths``
    (performing picks one whose p_g holds, `space._Runtime`); its name is the paths' shared name without the
    ``#n`` that told them apart, its p_g/p_i texts the distinct ones joined with ``or``. In the paths' order."""
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for p in paths:
        forks = tuple(sorted((k, str(v)) for k, v in p.get("forked", {}).items() if k == "mouse" or k.startswith("ax_")))
        key = (p.get("event", ""), p.get("sample_inputs"), p.get("tap_key"), forks)
        g = groups.get(key)
        path = {k: v for k, v in p.items() if k not in ("name", "sample_inputs", "event")}
        if g is None:
            base = p["name"].rsplit(" #", 1)[0] if " #" in p["name"] else p["name"]
            groups[key] = {"name": base, "sample_inputs": p.get("sample_inputs"), "event": p.get("event", ""),
                           "p_g_text": [p["p_g_text"]], "p_i_text": [p["p_i_text"]], "paths": [path]}
        else:
            g["paths"].append(path)
            for fld in ("p_g_text", "p_i_text"):
                if p[fld] not in g[fld]:
                    g[fld].append(p[fld])
    out = drop_composites(list(groups.values()))
    used: dict[str, int] = {}
    for g in out:  # two groups may still share a name (the same frame, another mouse cell or event detail)
        for fld in ("p_g_text", "p_i_text"):
            texts = g[fld]
            g[fld] = texts[0] if len(texts) == 1 else " or ".join(f"({t})" for t in texts)
        n = used.get(g["name"], 0)
        used[g["name"]] = n + 1
        if n:
            g["name"] = f"{g['name']} #{n + 1}"
    return out


COMPOSITE_MIN_KEYS = 3


def drop_composites(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Leave out the actions that only hold together what smaller actions hold apart: an action pressing
    ``COMPOSITE_MIN_KEYS`` or more keys whose keys are the union of the keys of other actions with the same
    event, mouse, tapped key and forks that each press fewer (independent tests of held keys, ``if keys[K_a]:``
    ... ``if keys[K_d]:`` ... ``if keys[K_LSHIFT]:``, make every subset of the keys a path: walls' five keys
    made 32 actions, a player who holds four keys at once among them). Pairs stay (a diagonal, a run key with a
    direction). In the actions' order."""
    from playtester.drive.inputs import InputFrame

    def rest(a: dict[str, Any]) -> tuple[Any, ...]:
        s = a.get("sample_inputs")
        frame = replace(s, keys=frozenset()) if isinstance(s, InputFrame) else None
        forks = tuple(sorted((k, str(v)) for p in a.get("paths", [a])
                             for k, v in p.get("forked", {}).items() if k == "mouse" or k.startswith("ax_")))
        return (a.get("event", ""), frame, a.get("paths", [a])[0].get("tap_key"), forks)

    sets: dict[tuple[Any, ...], list[frozenset[int]]] = {}
    for a in actions:
        s = a.get("sample_inputs")
        if isinstance(s, InputFrame) and s.keys:
            sets.setdefault(rest(a), []).append(frozenset(s.keys))
    out = []
    for a in actions:
        s = a.get("sample_inputs")
        keys = frozenset(s.keys) if isinstance(s, InputFrame) else frozenset()
        if len(keys) >= COMPOSITE_MIN_KEYS:
            parts = [k for k in sets.get(rest(a), []) if k < keys]
            if parts and frozenset().union(*parts) == keys:
                continue
        out.append(a)
    return out


# reads that tell any key from another: typed text, key names (``pygame.key.name(event.key)``), scancodes
_ANY_KEY_READS = {"unicode", "name", "key_code", "scancode", "TEXTINPUT", "TEXTEDITING"}
_MOUSE_READS = {"MOUSEBUTTONDOWN", "MOUSEBUTTONUP", "MOUSEMOTION", "MOUSEWHEEL", "BUTTON_LEFT", "BUTTON_RIGHT",
                "collidepoint", "get_pos", "pos", "button", "buttons", "rel"}


# reads of the keyboard at all: key events, the key module (``pygame.key.get_pressed``), an event's ``key``
_KEY_READS = {"KEYDOWN", "KEYUP", "key", "get_mods", "TEXTINPUT", "TEXTEDITING"}


def named_inputs(files: set[str], pygame: Any) -> dict[str, Any]:
    """What the blind fallback (`space.fallback_actions`) needs to press for this game, read from its files: the
    keys it names (``K_SPACE``, ``pg.K_a``, ``pygame.locals.K_UP``; None when it reads keys it does not name:
    ``event.unicode``, ``key.name(...)``, typed text, or a key event with no key named, "press any key"; an
    empty list when it reads no key at all: a mouse-only game) and whether it reads the mouse at all."""
    keys: set[int] = set()
    any_key = False
    key_read = False
    mouse = False
    for file in sorted(files):
        if file.startswith("<"):  # <frozen runpy>: no source of the game's
            continue
        try:  # parsed afresh: the slicer marks and trims the trees it analysed
            with open(file, "rb") as fh:
                tree = ast.parse(fh.read())
        except (OSError, SyntaxError, ValueError):
            any_key = mouse = True  # cannot tell: the common keys and the mouse
            continue
        for n in ast.walk(tree):
            name = n.attr if isinstance(n, ast.Attribute) else n.id if isinstance(n, ast.Name) else None
            if name is None:
                continue
            if name.startswith("K_") and isinstance(getattr(pygame, name, None), int):
                keys.add(getattr(pygame, name))
            elif name in _KEY_READS:
                key_read = True
            elif name in _ANY_KEY_READS and (name != "name" or _on_key_module(n)):
                any_key = True
            if name in _MOUSE_READS or name == "mouse":
                mouse = True
    if not keys and not any_key and not key_read:
        return {"keys": [], "mouse": mouse}  # reads no key at all (a mouse-only game): no key to press
    if any_key or not keys:
        return {"keys": None, "mouse": mouse}
    from playtester.drive.inputs import key_name

    return {"keys": sorted({key_name(k) for k in keys}), "mouse": mouse}


def _on_key_module(n: ast.AST) -> bool:
    """``key.name`` / ``pygame.key.name`` (not ``self.name``)."""
    v = getattr(n, "value", None)
    return (isinstance(v, ast.Attribute) and v.attr == "key") or (isinstance(v, ast.Name) and v.id == "key")
