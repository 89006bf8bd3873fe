"""Action-space analysis of pygame games (the action-space paper, 000_*.txt, done for Python).

`analyze(spec)` starts the game in a worker, records its call graph during a short random run, then
asks the game's own process (at a frame boundary, with the main loop on the stack) to find the input
handling, slice it, execute it symbolically with z3 and turn the paths into actions
(`live.analyze_here`). The result becomes an `AnalyzedSpace` (``--actions analyzed``).
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from typing import Any

from playtester.drive.spec import GameSpec
from playtester.errors import PlaytesterError


class AnalysisError(PlaytesterError):
    """The analysis could not produce an action space for this game (the message says why and which
    setting to change): exit code 2, as for any input playtester cannot use as asked."""

    exit_code = 2


class GameCrashedError(AnalysisError):
    """The game crashes by itself before its main loop can be analysed: its episode ends with an uncaught
    exception of the game at start (after the config's ``init`` inputs), before any input of the analysis,
    on every attempt. A bug of the game (or of its fit to this Python), not a failure of the analysis;
    ``exit`` is the game's `GameExit`."""

    def __init__(self, message: str, exit: Any = None) -> None:
        super().__init__(message)
        self.exit = exit


@dataclass
class Analysis:
    """What `analyze` found, with its timings."""

    game: str
    result: dict[str, Any]
    seconds: float
    run_seconds: float
    warnings: list[str] = field(default_factory=list)
    cpu_seconds: float | None = None  # CPU time of the analyses in the game process (``seconds`` is wall time)

    @property
    def actions(self) -> list[dict[str, Any]]:
        """One per distinct input (its ``paths``: the solved paths that press it)."""
        return self.result["actions"]

    @property
    def paths(self) -> list[dict[str, Any]]:
        """Every solved path as an action of its own (`space.ungroup`)."""
        from playtester.analysis.space import ungroup

        return ungroup(self.result)["actions"]

    def space(self, paths: bool = False) -> Any:
        """The analyzed space; ``paths``: one action per path instead (`paths`, in that order)."""
        from playtester.analysis.space import make_analyzed_space, ungroup

        return make_analyzed_space(ungroup(self.result) if paths else self.result, source=f"analyzed:{self.game}")


def _random_inputs(rng: random.Random, spec: GameSpec, screen: tuple[int, int]) -> Any:
    from playtester.actions.blind import COMMON_KEYS
    from playtester.drive.inputs import InputFrame, key_code

    black = {key_code(k) for k in spec.config.blacklist} if spec.config.blacklist else set()
    keys = [key_code(k) for k in COMMON_KEYS]
    keys = [k for k in keys if k not in black]
    held = frozenset(rng.sample(keys, rng.randint(0, 2)))
    w, h = screen if screen != (0, 0) else (640, 480)
    mouse = (rng.randrange(w), rng.randrange(h))
    buttons = frozenset(b for b in (1, 3) if rng.random() < 0.2)
    axes = tuple((j, a, rng.choice((-1.0, 0.0, 1.0))) for j in range(spec.config.joysticks) for a in range(4))
    jb = frozenset((j, b) for j in range(spec.config.joysticks) for b in range(4) if rng.random() < 0.2)
    return InputFrame(keys=held, mouse_pos=mouse, mouse_buttons=buttons, joy_axes=axes, joy_buttons=jb)


MAX_LOOPS = 8  # input loops analysed per game (title, play, pause, game over, ...)
EXPLORE_STEPS = 30  # actions played after the first analysis to reach other loops (each then a released frame)
LOOP_FLOOR = 0.15  # a later loop is analysed only while this share of the budget is left (the loops share it)


def analyze(spec: GameSpec, seed: int = 0, record_steps: int = 30, timeout: float | None = None,
            options_debug: bool = False, profile: str | None = None, max_forks: int | None = None,
            explore_steps: int = EXPLORE_STEPS) -> Analysis:
    """Analyse the game's input handling; raises `AnalysisError` with the reason when it cannot.

    The loop the game is in after the recording run is analysed first; then the run goes on for
    ``explore_steps`` steps playing that loop's analysed actions (their sample inputs, a released frame
    between two), and every other input loop it reaches (a title's RETURN leads to the play loop, a
    give-up key to the game-over loop) is analysed there, in the game's process, once per loop (at most
    `MAX_LOOPS`). The space holds every loop's actions, each valid only while its loop runs.

    Each analysis runs in the game's process under the game's memory limit and ``analysis_seconds`` of
    CPU time (checked between statements); ``timeout`` (wall-clock, by default the budget plus a grace)
    is the parent's last word: past it the worker is killed."""
    budget = spec.config.analysis_seconds
    if max_forks is None:
        max_forks = spec.config.analysis_max_forks
    if timeout is None:
        timeout = budget * 4 + 30.0  # wall clock: the CPU budget is enforced in the game; load stretches it
    from playtester.drive.backend import backend_for, capabilities

    if capabilities(spec).analysis and capabilities(spec).scripts == "gdscript":  # a Godot project's files
        from playtester.analysis.gdscript import analyze_godot

        return analyze_godot(spec)
    if not capabilities(spec).analysis:
        raise AnalysisError(f"{spec.text} runs on the {backend_for(spec).name} backend, which the action-space "
                            "analysis cannot read (it reads Python input handling); it declares its own actions")
    from playtester.drive.inputs import key_code

    t0 = time.perf_counter()
    allow = {key_code(k) for k in spec.config.analysis_allow_keys}
    marked: list[tuple[str, str, str]] = []  # (quit | pause, key name, what was seen) found so far
    spent: list[float] = [0.0, 0.0]  # wall and CPU seconds of the analyses of runs given up for a marked key
    for restart in range(MAX_RESTARTS + 1):
        run_spec = spec.with_config(blacklist=[*spec.config.blacklist, *(k for _kind, k, _ in marked
                                                                          if k not in spec.config.blacklist)]) \
            if marked else spec
        try:
            a = _run(run_spec, seed, record_steps, timeout, profile, max_forks, explore_steps, t0, spent,
                     allow if restart < MAX_RESTARTS else None)
        except _Marked as m:
            marked += [f for f in m.found if all(f[1] != k for _kind, k, _ in marked)]
            continue
        a.result["detected"] = {kind: [k for what, k, _ in marked if what == kind] for kind in ("quit", "pause")}
        a.warnings[:0] = [f"{k} {'quits' if kind == 'quit' else 'pauses'} the game: {seen}; blacklisted for the "
                          "analysed space, and the analysis ran again without it; to let agents press it, list it "
                          "in analysis_allow_keys in the game's playtester.toml" for kind, k, seen in marked]
        return a
    raise AssertionError("unreachable: the last run marks no key")


MAX_RESTARTS = 3  # runs of the analysis again without the keys found to quit or pause the game


class _Marked(Exception):
    """Keys found to quit or pause the game during a run of the analysis: (kind, key name, what was seen)."""

    def __init__(self, found: list[tuple[str, str, str]]) -> None:
        super().__init__(", ".join(f"{k}: {kind}" for kind, k, _ in found))
        self.found = found


def _run(spec: GameSpec, seed: int, record_steps: int, timeout: float, profile: str | None, max_forks: int,
         explore_steps: int, t0: float, spent: list[float], allow: set[int] | None) -> Analysis:
    """One run of the analysis (the recording run, the first loop's analysis, exploring, replaying) with the
    spec's blacklist. ``allow``: keys never marked; None: nothing is marked (the last run). Raises `_Marked`
    when an input is found to quit or pause the game (the caller runs again without it); adds the seconds of
    the analyses it made to ``spent`` when it does."""
    budget = spec.config.analysis_seconds
    from playtester.drive.worker import Worker
    from playtester.errors import MemoryLimitError, WorkerError

    rng = random.Random(seed)
    why = "it ended at once"
    crashed_at_start: Any = None  # the game's own exception in the attempt without analysis inputs (the last)
    with Worker(spec, capture=None) as raw:
        w = _Trail(raw, spec, allow)
        for attempt, steps in enumerate((record_steps, 3, 0)):
            obs = w.reset(seed=seed + attempt)
            if obs.done:
                why = obs.exit.message if obs.exit else f"done: {obs.info.get('done_reason')}"
                if steps == 0 and obs.exit is not None and obs.exit.kind == "exception":
                    crashed_at_start = obs.exit
                continue
            analysis_s, cpu = 0.0, []  # CPU seconds of every analysis call (a loaded machine inflates wall time)
            try:
                w.call("playtester.analysis.live:start_recording")
                recorded = []  # (inputs, the input loop running after them) of the recording run
                for _ in range(steps):
                    frame = _random_inputs(rng, spec, obs.info.get("screen_size", (0, 0)))
                    obs = w.step(frame)
                    if obs.done:
                        break
                    w.note_screen()  # a key that froze the screen: a pause key?
                    if explore_steps > 0:
                        recorded.append((frame, w.call("playtester.analysis.live:innermost_loop")))
                if obs.done:
                    continue
                # release everything so the analysis sees the game between two inputs
                from playtester.drive.inputs import InputFrame

                obs = w.step(InputFrame(mouse_pos=None))
                if obs.done:
                    if steps == 0 and obs.exit is not None and obs.exit.kind == "exception":
                        crashed_at_start = obs.exit  # a released frame is no input: the game's own doing
                    why = obs.exit.message if obs.exit else f"done: {obs.info.get('done_reason')}"
                    continue
                t1 = time.perf_counter()
                options = {"profile": profile, "max_forks": max_forks, "seconds": budget}
                result = w.call("playtester.analysis.live:analyze_here", options, timeout=timeout)
                t2 = time.perf_counter()
                analysis_s = t2 - t1
                cpu.append(_cpu(result))
                skipped: list[str] = []  # loops reached when the budget was spent
                if not result.get("gave_up") and result["actions"]:
                    _probe_keys(w, result)  # its keys that quit or pause the game (then run again without them)
                if not result.get("gave_up") and result["actions"] and explore_steps > 0:
                    # play the analysed actions: reach the game's other input loops and analyse them, and this
                    # loop again in the game states reached (`absorb`)
                    others, more_s = _explore_loops(w, spec, rng, result, options, timeout, explore_steps, cpu,
                                                    skipped)
                    analysis_s += more_s
                    again, more_s = _replay_loops(w, seed + attempt, recorded, [result, *others], options, timeout,
                                                  cpu, skipped)
                    others += again
                    analysis_s += more_s
                    if others:
                        result = merge_loops([result, *others])
                t2 = time.perf_counter()
            except _Marked:
                spent[0] += analysis_s
                spent[1] += sum(cpu)
                raise
            except MemoryLimitError:
                raise AnalysisError(f"analysis of {spec.text} ran past its memory limit ({w.memory_limit_mb} MiB "
                                    "of data in the game process) and gave up; raise memory_limit_mb in the "
                                    "game's playtester.toml or --memory-limit to let it finish") from None
            except WorkerError as e:
                if w.host_pid is None:  # the call timed out and the worker was killed
                    raise AnalysisError(f"analysis of {spec.text} did not finish within {timeout:g} s and was "
                                        f"killed (its budget is {budget:g} s of CPU time): {e}") from None
                raise AnalysisError(f"analysis of {spec.text} failed in the game process: {e}") from None
            if result.get("gave_up"):
                raise AnalysisError(f"analysis of {spec.text} gave up: {result['gave_up']} ({budget:g} s; raise "
                                    "analysis_seconds in the game's playtester.toml to give it more)")
            if not result["actions"]:
                raise AnalysisError(f"analysis of {spec.text} found no input handling in its main loop "
                                    f"({result['loop']['file']}:{result['loop']['line']})")
            warnings = [f"{u['file']}:{u['line']}: {u['what']}" for u in result["unsupported"]]
            if result.get("partial"):
                warnings.insert(0, f"partial action space: {result['partial']} ({budget:g} s of CPU time; raise "
                                "analysis_seconds in the game's playtester.toml for the rest)")
            for note in result["stats"].get("notes", []):
                warnings.append(f"{note}; the space may miss actions")
            for where in dict.fromkeys(skipped):
                warnings.append(f"input loop at {where} not analysed: the other loops spent the analysis budget "
                                f"({budget:g} s of CPU time for all loops; raise analysis_seconds to analyse it)")
            analysed = [x["loop"] for x in result.get("loops", [result])]
            unreached = _unreached(w, seed + attempt, analysed, skipped)
            # the input loops left without analysed actions: the space offers the blind ones only then
            # (`space.needs_fallback`); in a game whose every input loop is analysed they would never be valid
            result["unanalysed"] = [*dict.fromkeys(x.split(" in ")[0] for x in skipped),
                                    *(unreached if unreached is not None else ["(unknown: the game ended first)"])]
            for where in unreached or []:
                warnings.append(f"input loop at {where} was never reached: neither the recording run nor playing "
                                "the analysed actions got there, so the space has no actions of its own for it "
                                "(only the blind fallback's); if a title or menu leads there, set init inputs in the "
                                "game's playtester.toml (init = [{ keys = [\"RETURN\"], frames = 10 }]; "
                                "'playtester init GAME' looks for them)")
            analysis_s += spent[0]
            return Analysis(spec.text, result, analysis_s, (t2 - t0) - analysis_s, warnings, sum(cpu) + spent[1])
    if crashed_at_start is not None:
        ex = crashed_at_start
        import sysconfig

        stdlib = sysconfig.get_paths()["stdlib"]
        own = [f for f in ex.frames if not f.file.startswith(stdlib)]  # the game's innermost frame, not random.py
        where = f" in {os.path.basename(own[-1].file)}:{own[-1].line}" if own else ""
        raise GameCrashedError(f"{spec.text} crashes by itself before its main loop could be analysed: an "
                               f"uncaught {ex.exc_type or 'exception'}{where} as it starts (after its configured "
                               f"init inputs, with none from the analysis): {ex.message}; a bug of the game, not "
                               "of the analysis", ex)
    raise AnalysisError(f"analysis of {spec.text} failed: the game ended before its main loop could be analysed "
                        f"({why})")


def _cpu(result: dict[str, Any]) -> float:
    """CPU seconds one ``analyze_here`` call took in the game process (0 when it gave up)."""
    return float((result.get("timings") or {}).get("cpu_s", 0.0))


def _loop_id(loop: dict[str, Any]) -> tuple[Any, ...]:
    return (loop["file"], loop["function"], loop["firstlineno"], loop["line"])


def _budget_left(options: dict[str, Any], cpu: list[float], loop: dict[str, Any],
                 skipped: list[str]) -> dict[str, Any] | None:
    """The options of the next loop's analysis: the loops share one budget, so it gets what the analyses so far
    left; None (and the loop noted in ``skipped``) when less than ``LOOP_FLOOR`` of it is left."""
    budget = float(options["seconds"])
    left = budget - sum(cpu)
    if left < LOOP_FLOOR * budget:
        skipped.append(f"{os.path.basename(loop['file'])}:{loop['line']} in {loop['function']}")
        return None
    return {**options, "seconds": left}


def _explore_loops(w: Any, spec: GameSpec, rng: random.Random, first: dict[str, Any], options: dict[str, Any],
                   timeout: float, steps: int, cpu: list[float],
                   skipped: list[str]) -> tuple[list[dict[str, Any]], float]:
    """Play the analysed actions of the loop running now (random inputs where none is analysed, and now
    and then) and analyse each input loop not seen before as soon as the game reaches it (the call graph
    is recorded meanwhile: dispatched handlers seen in any loop): the other loops' results, and the
    seconds their analyses took. A released frame follows each action (a key goes down again next time:
    its KEYDOWN happens)."""
    from playtester.drive.inputs import InputFrame

    results: dict[tuple[Any, ...], dict[str, Any]] = {_loop_id(first["loop"]): first}  # analysed, by loop
    found: list[dict[str, Any]] = []
    spent = 0.0
    release = InputFrame(mouse_pos=None)
    w.call("playtester.analysis.live:start_recording")
    obs = w.step(release, frames=1)

    def random_frame() -> Any:
        return _random_inputs(rng, spec, obs.info.get("screen_size", (0, 0)))

    rounds: dict[tuple[Any, ...], list[dict[str, Any]]] = {}  # per loop: its actions not played this round
    again_at = {steps // 2, steps - 1}  # where the loop running then is analysed again, in the state reached
    every_loop = False  # every frame loop that reads input is analysed: only the analyses again are left

    for step in range(steps):
        if obs.done or (every_loop and step > max(again_at)):
            break
        loop = w.call("playtester.analysis.live:current_loop")
        here = results.get(_loop_id(loop)) if loop is not None else None
        if step in again_at and here is not None and not here.get("gave_up") and here["actions"]:
            # the same loop in another game state (a title's flags off, a state object swapped, sprites now in
            # their groups): paths the first analysis could not follow are followed from here
            left = _budget_left(options, cpu, loop, skipped)
            if left is not None:
                t1 = time.perf_counter()
                more = w.call("playtester.analysis.live:analyze_here", left, timeout=timeout)
                cpu.append(_cpu(more))
                spent += time.perf_counter() - t1
                w.call("playtester.analysis.live:start_recording")
                if not more.get("gave_up") and more["actions"]:
                    absorb(here, more)
        if loop is not None and here is None and len(results) < MAX_LOOPS:
            left = _budget_left(options, cpu, loop, skipped)
            if left is None:
                break
            t1 = time.perf_counter()
            here = w.call("playtester.analysis.live:analyze_here", left, timeout=timeout)
            cpu.append(_cpu(here))
            spent += time.perf_counter() - t1
            w.call("playtester.analysis.live:start_recording")
            results[_loop_id(loop)] = here  # once per loop, whatever it found
            if not here.get("gave_up") and here["actions"] and _loop_id(here["loop"]) not in \
                    {_loop_id(x["loop"]) for x in [first, *found]}:
                results.setdefault(_loop_id(here["loop"]), here)
                found.append(here)
                _probe_keys(w, here)
            every_loop = not w.call("playtester.analysis.live:other_input_loops",
                                    [r["loop"] for r in results.values() if "loop" in r])
        acts = [a for a in ((here or {}).get("actions") or []) if a.get("sample_inputs") is not None]
        if acts and rng.random() < 0.8:
            # every action of the loop in turn (a shuffled round), so that the one that leaves the screen is
            # played within a few rounds however many actions the loop has
            key = _loop_id(here["loop"])
            if not rounds.get(key):
                rounds[key] = rng.sample(acts, len(acts))
            obs = w.step(rounds[key].pop()["sample_inputs"])
        else:
            obs = w.step(random_frame())
        if not obs.done:
            obs = w.step(release, frames=1)
    if not obs.done:  # a game that ended while exploring has no episode left to stop recording in
        w.call("playtester.analysis.live:stop_recording")
    return found, spent


def absorb(into: dict[str, Any], more: dict[str, Any]) -> None:
    """Add ``more``, an analysis of the same loop in another game state, to ``into`` (in place): its game
    variables renamed after ``into``'s (``g:N``), its module indices (``M[i]``) mapped onto ``into``'s modules,
    then every path of both grouped again by input (`live.group_actions`), so an input's validity is the union
    of what the two states showed (space_invaders' SPACE starts the game on the title and shoots in play)."""
    import re

    from playtester.analysis.live import group_actions

    if _loop_id(into["loop"]) != _loop_id(more["loop"]):
        raise ValueError("absorb: two different loops")
    modules = into["modules"]
    for f in more["modules"]:
        if f not in modules:
            modules.append(f)
    m_map = {j: modules.index(f) for j, f in enumerate(more["modules"])}
    # a variable of the same expression is the same variable (an enum only with the same codes for its values)
    same = {(v["src"], v["kind"]): k for k, v in into["game_vars"].items()}
    off = 1 + max((int(k[2:]) for k in into["game_vars"]), default=-1)
    g_map = {}
    for k, info in more["game_vars"].items():
        old = same.get((info["src"], info["kind"]))  # (module indices are mapped below: same modules, same src)
        if old is not None and (info["kind"] != "enum" or all(
                into.get("enums", {}).get(old, {}).get(val, code) == code
                for val, code in more.get("enums", {}).get(k, {}).items())):
            g_map[k] = old
        else:
            g_map[k] = f"g:{int(k[2:]) + off}"

    def fix(text: str) -> str:
        text = re.sub(r"M\[(\d+)\]", lambda m: f"M[{m_map[int(m.group(1))]}]", text)
        return re.sub(r"\|g:(\d+)\|", lambda m: f"|{g_map['g:' + m.group(1)]}|", text)

    for k, info in more["game_vars"].items():
        if g_map[k] not in into["game_vars"]:
            into["game_vars"][g_map[k]] = dict(info, src=fix(info["src"]))
    for k, table in more.get("enums", {}).items():
        into.setdefault("enums", {}).setdefault(g_map[k], {}).update(table)
    for root in more.get("instance_roots", []):
        if root not in into.setdefault("instance_roots", []):
            into["instance_roots"].append(root)
    paths = [{**p, "name": g["name"], "sample_inputs": g["sample_inputs"], "event": g["event"]}
             for g in into["actions"] for p in g["paths"]]
    have = {(p["p_g"], p["p_i"]) for p in paths}
    for g in more["actions"]:
        for p in g["paths"]:
            p_g, p_i = fix(p["p_g"]), fix(p["p_i"])
            if (p_g, p_i) in have:  # the same path (a game state in which the first analysis saw it too)
                continue
            have.add((p_g, p_i))
            if p.get("p_g_free") is not None:
                p = dict(p, p_g_free=fix(p["p_g_free"]))
            paths.append(dict(p, p_g=p_g, p_i=p_i, p_i_game_vars=[g_map[v] for v in p["p_i_game_vars"]],
                              name=g["name"], sample_inputs=g["sample_inputs"], event=g["event"]))
    into["actions"] = group_actions(paths)
    into["unsupported"] += [u for u in more["unsupported"] if u not in into["unsupported"]]
    st, st2 = into["stats"], more["stats"]
    for key in ("paths", "merged", "kept_statements", "sliced_statements"):
        st[key] = st.get(key, 0) + st2.get(key, 0)
    st["inlined"] = sorted(set(st["inlined"]) | set(st2["inlined"]))
    st["notes"] = [*st.get("notes", []), *(n for n in st2.get("notes", []) if n not in st.get("notes", []))]
    st["again"] = st.get("again", 0) + 1
    if more.get("partial"):
        into["partial"] = "; ".join(x for x in (into.get("partial"), more["partial"]) if x)


def _replay_loops(w: Any, seed: int, recorded: list[tuple[Any, Any]], done: list[dict[str, Any]],
                  options: dict[str, Any], timeout: float, cpu: list[float],
                  skipped: list[str]) -> tuple[list[dict[str, Any]], float]:
    """The loops the recording run passed through that are not analysed yet (a title screen left before
    the first analysis): the episode is reset and the recorded inputs replayed (the game's clocks are
    virtual: the same run) up to where the loop ran, and it is analysed there when it reads input."""
    from playtester.drive.inputs import InputFrame

    have = {_loop_id(r["loop"]) for r in done}
    found: list[dict[str, Any]] = []
    spent = 0.0
    todo: list[int] = []
    from playtester.errors import WorkerError

    try:
        loops = w.call("playtester.analysis.live:other_input_loops", [r["loop"] for r in done])
    except WorkerError:  # the game ended while exploring (a crash found by the random inputs): start it again
        if w.reset(seed=seed).done:
            return [], 0.0
        loops = w.call("playtester.analysis.live:other_input_loops", [r["loop"] for r in done])
    left = {(x["file"], x["line"]) for x in loops}
    for i, (_frame, loop) in enumerate(recorded):
        if loop is not None and (loop["file"], loop["line"]) in left and _loop_id(loop) not in have and \
                all(_loop_id(recorded[j][1]) != _loop_id(loop) for j in todo):
            todo.append(i)
    for i in todo[:max(0, MAX_LOOPS - len(done))]:
        obs = w.reset(seed=seed)
        for frame, _loop in recorded[:i + 1]:
            if obs.done:
                break
            obs = w.step(frame)
        if obs.done:
            continue
        obs = w.step(InputFrame(mouse_pos=None))
        loop = w.call("playtester.analysis.live:current_loop")
        if obs.done or loop is None or _loop_id(loop) in have:
            continue
        left = _budget_left(options, cpu, loop, skipped)
        if left is None:
            continue
        t1 = time.perf_counter()
        r = w.call("playtester.analysis.live:analyze_here", left, timeout=timeout)
        cpu.append(_cpu(r))
        spent += time.perf_counter() - t1
        if not r.get("gave_up") and r["actions"] and _loop_id(r["loop"]) not in have:
            have.add(_loop_id(r["loop"]))
            found.append(r)
            _probe_keys(w, r)
    return found, spent


FROZEN = 3  # steps of random inputs with the same screen after it moved: the keys that stopped it are checked
MAX_PROBED = 12  # keys of a loop's analysed actions pressed to see whether they quit or pause the game


class _Trail:
    """The analysis' worker, with the inputs stepped since its episode's reset: a step after which the game
    exits normally (not a crash) is replayed from the reset, each key its inputs pressed tried alone, and a key
    that quits the game alone raises `_Marked` (unless ``allow`` holds it; nothing is marked when ``allow`` is
    None)."""

    def __init__(self, w: Any, spec: GameSpec, allow: set[int] | None) -> None:
        self.w = w
        self.spec = spec
        self.allow = allow
        self.seed: int | None = None
        self.steps: list[tuple[Any, int | None]] = []
        self.checking = allow is not None
        self.screens: list[tuple[str, int]] = []  # the recording run's screens: (digest, index of the step)
        self._snaps: dict[int, list[tuple[Any, int | None]]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.w, name)

    def watch(self) -> tuple[Any, Any, Any]:
        """A `keyprobe.Watch` over this run, with the two functions it is made of: the screen's digest (taken in
        the game's process) and a tap (the frame, then a released step)."""
        from playtester.analysis.keyprobe import Watch
        from playtester.drive.inputs import InputFrame

        frames = self.spec.config.frames_per_action
        released = InputFrame(mouse_pos=None)

        def digest(_obs: Any) -> str:
            return str(self.w.call("playtester.analysis.keyprobe:screen_digest"))

        def tap(frame: Any) -> Any:
            obs = self.step(frame, frames)
            return obs if obs.done else self.step(released, frames)

        return Watch(lambda: self.step(released, frames), tap, digest), digest, tap

    def reset(self, seed: int) -> Any:
        self.seed, self.steps, self.screens = seed, [], []
        return self.w.reset(seed=seed)

    def step(self, frame: Any, frames: int | None = None) -> Any:
        obs = self.w.step(frame, frames=frames)
        self.steps.append((frame, frames))
        if self.checking and frame.keys and _ending(obs) == "quit":
            obs = self._which_quits(frame, frames, obs)
        return obs

    def replay(self, steps: list[tuple[Any, int | None]]) -> Any:
        """A fresh episode (the same seed: the game's clocks are virtual, the same run) with ``steps`` played."""
        obs = self.reset(self.seed)
        for frame, frames in steps:
            if obs.done:
                break
            obs = self.w.step(frame, frames=frames)
            self.steps.append((frame, frames))
        return obs

    def _which_quits(self, frame: Any, frames: int | None, obs: Any) -> Any:
        from playtester.analysis.keyprobe import describe_exit
        from playtester.drive.inputs import InputFrame, key_name

        before = self.steps[:-1]
        found = []
        # the control: the same moment with no key (a player killed by what was coming anyway, aliens' game over
        # whatever was pressed, ends the game too: no key of this step quits it)
        if not self.replay(before).done and _ending(self.w.step(InputFrame(mouse_pos=frame.mouse_pos),
                                                              frames=frames)) is not None:
            return self.replay([*before, (frame, frames)])
        for k in sorted(frame.keys - (self.allow or set())):
            if self.replay(before).done:
                break
            alone = self.w.step(InputFrame(keys=frozenset({k}), mouse_pos=frame.mouse_pos), frames=frames)
            if _ending(alone) == "quit" and _quits_later(lambda: self.replay(before), self.w, k, frames):
                found.append(("quit", key_name(k), describe_exit(alone)))
        if found:
            raise _Marked(found)
        return self.replay([*before, (frame, frames)])  # none quits alone: where the episode was (it ended)

    def note_screen(self) -> None:
        """In the recording run, after each step: when the screen moved and then stayed the same for `FROZEN`
        steps of random inputs, the keys pressed as it stopped are pressed again alone from just before, and
        one after which it freezes until the same key again (`keyprobe.Watch.pause`) raises `_Marked`."""
        if self.allow is None:
            return
        self.screens.append((str(self.w.call("playtester.analysis.keyprobe:screen_digest")), len(self.steps) - 1))
        d = [x for x, _ in self.screens]
        n = FROZEN + 1
        if len(d) < n + 2 or len(set(d[-n:])) != 1 or d[-n - 1] == d[-n] or d[-n - 2] == d[-n - 1]:
            return
        # the run of equal screens started at step j (the frame that froze it, or the one before when the
        # pause draws nothing): its keys and the next step's are the candidates
        j = self.screens[-n][1]
        from playtester.analysis.keyprobe import movers
        from playtester.drive.inputs import InputFrame, key_name

        steps, screens = list(self.steps), list(self.screens)
        found: list[tuple[str, str, str]] = []
        self.checking = False
        watch, digest, tap = self.watch()
        try:
            for at in (j, j + 1):
                for k in sorted(steps[at][0].keys - self.allow):
                    name = key_name(k)
                    if any(f[1] == name for f in found) or self.replay(steps[:at]).done:
                        continue
                    base = watch.moves(digest(None), movers([name], [name]), 2)
                    if base is None or self.replay(steps[:at]).done:
                        continue
                    frame = InputFrame(keys=frozenset({k}))
                    after = tap(frame)
                    if not after.done:
                        verdict = watch.pause(name, frame, movers([name], [name]), base, after)
                        if verdict is not None and verdict[0] == "pause":
                            found.append(("pause", name, verdict[1] + " (in the recording run)"))
        finally:
            self.checking = True
        if found:
            raise _Marked(found)
        self.replay(steps)  # none pauses: back where the run was
        self.screens = screens

    def snapshot(self) -> int | None:
        sid = self.w.snapshot()
        if sid is not None:
            self._snaps[sid] = list(self.steps)
        return sid

    def back(self, sid: int | None, steps: list[tuple[Any, int | None]]) -> Any:
        """The episode as it was at snapshot ``sid`` (taken after ``steps``): restored, or replayed."""
        if sid is not None:
            obs = self.w.restore(sid)
            if obs is not None:
                self.steps = list(self._snaps[sid])
                return obs
        return self.replay(steps)


LATER_STEPS = 8  # released steps after which a key that quit the game must quit it again (`_quits_later`)


def _quits_later(back: Any, w: Any, key: int, frames: int | None) -> bool:
    """Whether ``key`` alone also ends the game normally `LATER_STEPS` released steps after the moment it did
    (``back()`` returns there): a quit key quits whenever it is pressed; a move that led the player into what
    killed it (aliens' game over: its entry returns) does not do so again a moment later."""
    from playtester.drive.inputs import InputFrame

    obs = back()
    for _ in range(LATER_STEPS):
        if obs is not None and obs.done:
            return False
        obs = w.step(InputFrame(mouse_pos=None), frames=frames)
    if obs.done:
        return False
    return _ending(w.step(InputFrame(keys=frozenset({key})), frames=frames)) == "quit"


def _ending(obs: Any) -> str | None:
    from playtester.analysis.keyprobe import ending

    return ending(obs)


def _probe_keys(w: _Trail, result: dict[str, Any]) -> None:
    """Press each key of a loop's analysed actions once, alone, from where the loop was analysed (`playtester
    init`'s probe, `playtester.analysis.keyprobe`): the keys after which the game exits normally (quit) or its
    screen freezes until the same key again (pause) raise `_Marked`. The episode is left as it was."""
    if w.allow is None:
        return
    from playtester.analysis.keyprobe import movers
    from playtester.drive.inputs import InputFrame, key_name

    keys: dict[int, None] = {}
    for act in result["actions"]:
        for k in sorted(getattr(act.get("sample_inputs"), "keys", ()) or ()):
            if k not in w.allow:
                keys.setdefault(k)
    cands = list(keys)[:MAX_PROBED]
    if not cands:
        return
    steps = list(w.steps)
    sid = w.snapshot()
    w.checking = False
    found: list[tuple[str, str, str]] = []
    watch, digest, tap = w.watch()
    names = [key_name(k) for k in cands]
    try:
        base = watch.moves(digest(None), movers(names), 3)
        w.back(sid, steps)
        ends_anyway = _ending(tap(InputFrame(mouse_pos=None))) is not None  # the control: no key pressed
        for k, name in zip(cands, names, strict=True):
            w.back(sid, steps)
            frame = InputFrame(keys=frozenset({k}))
            after = tap(frame)
            how = _ending(after)
            if how == "quit" and not ends_anyway and \
                    _quits_later(lambda: w.back(sid, steps), w.w, k, w.spec.config.frames_per_action):
                from playtester.analysis.keyprobe import describe_exit

                found.append(("quit", name, f"{describe_exit(after)} in the loop at "
                                            f"{os.path.basename(result['loop']['file'])}:{result['loop']['line']}"))
            elif how is None and base is not None:
                verdict = watch.pause(name, frame, movers(names, [name]), base, after)
                if verdict is not None and verdict[0] == "pause":
                    found.append(("pause", name, verdict[1]))
    finally:
        w.checking = True
        if found:
            if sid is not None:
                w.w.drop_snapshot(sid)
        else:
            w.back(sid, steps)
            if sid is not None:
                w.w.drop_snapshot(sid)
    if found:
        raise _Marked(found)


def _unreached(w: _Trail, seed: int, analysed: list[dict[str, Any]], skipped: list[str]) -> list[str] | None:
    """Input loops of the game's files that no run reached (``file:line``), those the budget skipped left out;
    None when the game could not be asked (it ends at once)."""
    from playtester.errors import WorkerError

    try:
        loops = w.w.call("playtester.analysis.live:other_input_loops", analysed)
    except WorkerError:  # the game ended (a crash the random inputs found): ask a fresh episode
        try:
            if w.w.reset(seed=seed).done:
                return None
            loops = w.w.call("playtester.analysis.live:other_input_loops", analysed)
        except WorkerError:
            return None
    told = {x.split(" in ")[0] for x in skipped}
    out = [f"{os.path.basename(x['file'])}:{x['line']}" for x in loops]
    return [x for x in dict.fromkeys(out) if x not in told]


def _input_of(act: dict[str, Any]) -> tuple[Any, ...]:
    """What an action presses (`live.group_actions`' key): its event, sample frame, tapped key and forks."""
    p = act["paths"][0]
    forks = tuple(sorted((k, str(v)) for k, v in p.get("forked", {}).items() if k == "mouse" or k.startswith("ax_")))
    return (act.get("event", ""), act.get("sample_inputs"), p.get("tap_key"), forks)


def merge_loops(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One result for several input loops: the first loop's result (``loop``, its game variables...) with
    every loop's actions (``loop_index``: which entry of ``loops`` they belong to; the names of the later
    loops' actions end with ``@function``) and ``loops``, each loop's result without its actions. An input
    several loops read is one action (its first loop's, named so), holding every loop's paths, each path with
    its own ``loop_index``."""
    merged = dict(results[0])
    merged["actions"] = []
    merged["loops"] = []
    merged["unsupported"] = []
    used: dict[str, int] = {}
    by_input: dict[tuple[Any, ...], dict[str, Any]] = {}
    functions = [r["loop"]["function"] for r in results]
    for k, r in enumerate(results):
        merged["loops"].append({key: v for key, v in r.items() if key != "actions"})
        merged["unsupported"] += [u for u in r["unsupported"] if u not in merged["unsupported"]]
        where = r["loop"]["function"] if functions.count(r["loop"]["function"]) == 1 else \
            f"{r['loop']['function']}:{r['loop']['line']}"
        for act in r["actions"]:
            act = dict(act, loop_index=k)
            if "paths" in act:
                act["paths"] = [dict(p, loop_index=k) for p in act["paths"]]
                same = by_input.get(_input_of(act))
                if same is not None:
                    # the same input in another loop (SPACE on the title, in play and on the game-over screen): one
                    # action, valid where one of its paths is, performed as the running loop's path
                    same["paths"] += act["paths"]
                    for fld in ("p_g_text", "p_i_text"):
                        if act[fld] != same[fld]:
                            same[fld] = f"({same[fld]}) or ({act[fld]})"
                    continue
                by_input[_input_of(act)] = act
            if k:
                act["name"] = f"{act['name']} @{where}"
            n = used.get(act["name"], 0)
            used[act["name"]] = n + 1
            if n:
                act["name"] = f"{act['name']} #{n + 1}"
            merged["actions"].append(act)
    stats = [r["stats"] for r in results]
    merged["stats"] = dict(stats[0], loops=len(results), paths=sum(x["paths"] for x in stats),
                           merged=sum(x["merged"] for x in stats),
                           horizon_cuts=sum(x.get("horizon_cuts", 0) for x in stats),
                           kept_statements=sum(x["kept_statements"] for x in stats),
                           sliced_statements=sum(x["sliced_statements"] for x in stats),
                           inlined=sorted({n for x in stats for n in x["inlined"]}),
                           summarized=sorted({n for x in stats for n in x["summarized"]}),
                           truncated=any(x["truncated"] for x in stats),
                           notes=[n for x in stats for n in x.get("notes", [])])
    merged["partial"] = "; ".join(r["partial"] for r in results if r.get("partial")) or None
    return merged

