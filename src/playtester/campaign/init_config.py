"""``playtester init GAME``: a first, commented ``playtester.toml`` for a pygame game, from one short analysis and
short runs of the game.

What it finds, by playing (never by guessing from names):

- **the controls**: `playtester.analysis.analyze` (no blacklist, a short budget): each action's name, when it is
  valid and its inputs, written as a comment.
- **an init sequence**: the game runs ``seconds`` of game time with no input from its first input-reading
  frame; when the screen then stays still (at most two distinct frames: a still or blinking title), RETURN,
  SPACE, each key the analysis found, a left click at the centre and at each point the analysis clicks are tried
  in turn from that state. One *gets past* the first screen when the screen it leads to is another screen (a
  quarter of the pixels or more differ from every title frame, or another input loop of the game runs), is not
  the title again, and then changes on its own or under an input. The init is checked from a fresh start (the key
  at once; else after the wait) before it is written.
- **keys to blacklist**: from where play starts (after that init), each key the analysis found and ESCAPE, q, p,
  PAUSE, F11 are pressed once (held one action's frames, then released) and the game watched: it ends with a normal
  exit (the entry returned, ``sys.exit(0)``) -> a quit key; the window's fullscreen state (the driver's virtual
  state) flips -> a fullscreen key; the screen stops moving on its own and under every input that moved it before,
  and the same key makes it move again -> a pause key. A key that quits on the first screen only is a quit key too.

What it cannot decide becomes a ``# TODO:`` line: no controls found, a first screen it could not get past, how an
episode ends (``done_events`` / ``done_when``; the probe events it saw are listed).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from playtester.analysis.keyprobe import SUSPECT_KEYS, Watch, describe_exit, ending, movers
from playtester.configfile import toml_value
from playtester.drive.inputs import InputFrame, key_name
from playtester.drive.observation import Observation
from playtester.drive.spec import DEFAULT_BLACKLIST, GameConfig, GameSpec, InitStep, resolve
from playtester.errors import PlaytesterError, UsageError

__all__ = ["SUSPECT_KEYS", "InitProposal", "KeyFinding", "config_target", "picks_up", "propose", "render",
           "write_config"]

START_KEYS = ["RETURN", "SPACE"]  # tried first to get past a title
BIG_CHANGE = 0.25  # share of pixels that differ for another screen (a moved sprite changes far fewer)
MAX_KEYS = 24  # keys probed for quit / pause / fullscreen
ANALYSIS_SECONDS = 5.0  # CPU seconds of the analysis (at most the config's analysis_seconds)
RELEASED = InputFrame()
CARRIED = ("frames_per_action", "fps", "joysticks", "max_episode_steps")  # kept from the game's config when set


@dataclass
class KeyFinding:
    """A key ``init`` proposes to blacklist, and what was seen when it was pressed."""

    key: str
    kind: str  # quit | pause | fullscreen
    seen: str


@dataclass
class InitProposal:
    """What `propose` found, ready for `render`."""

    spec: GameSpec
    entry: str | None
    controls: list[tuple[str, str, str]] = field(default_factory=list)  # (name, valid when, inputs)
    analysis_note: str = ""
    blacklist: list[KeyFinding] = field(default_factory=list)
    init: list[InitStep] = field(default_factory=list)
    init_note: str = ""
    notes: list[str] = field(default_factory=list)  # other observations, as comments
    todos: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)  # probe events seen while probing
    clicks: list[tuple[int, int]] = field(default_factory=list)  # where the analysis's actions click
    seconds: float = 0.0


# ---------------------------------------------------------------------------------------------- playing
def _hash(obs: Observation) -> str:
    frame = obs.frame
    if frame is None:
        return ""
    return hashlib.blake2b(np.ascontiguousarray(frame).tobytes(), digest_size=12).hexdigest()


def _changed_share(a: np.ndarray | None, b: np.ndarray | None) -> float:
    """Share of pixels that differ between two frames (1.0 when their sizes differ)."""
    if a is None or b is None:
        return 0.0
    if a.shape != b.shape:
        return 1.0
    return float(np.mean(np.any(a != b, axis=-1)))


def _press(names: Iterable[str] = (), mouse: tuple[int, int] | None = None, buttons: Iterable[int] = ()) -> InputFrame:
    return InputFrame.make(keys=list(names), mouse=mouse, buttons=list(buttons))


_describe_exit = describe_exit  # shared with the analysis (playtester.analysis.keyprobe)


class _Prober:
    """One worker on the game, and the ways back to the states the probes start from (snapshots when the backend
    has them, else a reset and the inputs that led there)."""

    def __init__(self, spec: GameSpec, seed: int) -> None:
        from playtester.drive.worker import Worker

        self.spec = spec
        self.seed = seed
        self.frames = spec.config.frames_per_action
        self.worker = Worker(spec, capture="full", code_coverage=False)
        self.events: dict[str, None] = {}
        self._snaps: dict[tuple[Any, ...], int] = {}
        self.last: Observation | None = None  # the live episode's latest observation

    def close(self) -> None:
        self.worker.close()

    def _note(self, obs: Observation) -> Observation:
        self.last = obs
        for e in obs.events:
            self.events.setdefault(e.name)
        return obs

    def start(self, prefix: list[tuple[InputFrame, int]]) -> Observation:
        """A fresh episode with ``prefix`` played: (inputs, frames) steps."""
        obs = self._note(self.worker.reset(seed=self.seed))
        for frame, n in prefix:
            if obs.done:
                break
            obs = self._note(self.worker.step(frame, frames=n))
        return obs

    def goto(self, prefix: list[tuple[InputFrame, int]]) -> Observation:
        """The state after ``prefix`` from a fresh episode, by snapshot when there is one."""
        key = tuple(prefix)
        snap = self._snaps.get(key)
        if snap is not None:
            obs = self.worker.restore(snap)
            if obs is not None:
                return self._note(obs)
            self._snaps.pop(key, None)
        obs = self.start(prefix)
        if not obs.done and self.worker.snapshots_supported:
            s = self.worker.snapshot()  # a parked copy; the live episode goes on from the same state
            if s is not None:
                self._snaps[key] = s
        return obs

    def step(self, frame: InputFrame = RELEASED, frames: int | None = None) -> Observation:
        return self._note(self.worker.step(frame, frames=frames or self.frames))

    def idle(self, n: int) -> list[Observation]:
        out = []
        for _ in range(n):
            obs = self.step()
            out.append(obs)
            if obs.done:
                break
        return out

    def tap(self, frame: InputFrame) -> Observation:
        """Hold ``frame`` for one action's frames, then release it for as many."""
        obs = self.step(frame)
        return obs if obs.done else self.step()

    def loop(self) -> Any:
        try:
            info = self.worker.call("playtester.analysis.live:innermost_loop")
        except PlaytesterError:
            return None
        return None if info is None else (info.get("file"), info.get("line"))

    def fullscreen(self) -> tuple[bool, int] | None:
        """(fullscreen now, changes so far) of the live episode's window; None when it cannot be asked."""
        try:
            on, changes = self.worker.call("playtester.drive.pygame_driver:fullscreen_state")
        except (PlaytesterError, TypeError, ValueError):
            return None
        return bool(on), int(changes)

    def watch(self) -> Watch:
        return Watch(self.step, self.tap, _hash)

    def moves(self, movers: list[tuple[str, InputFrame]], watch: int) -> str | None:
        """From the live state: what makes the screen change (``on its own`` or a mover's name), else None.
        Leaves the episode where the checks left it."""
        return self.watch().moves(_hash(self.last) if self.last is not None else "", movers, watch)


# --------------------------------------------------------------------------------------------- proposing
def propose(spec: GameSpec, seconds: float = 3.0, seed: int = 0,
            on_stage: Callable[[str], None] | None = None) -> InitProposal:
    """Analyse and play ``spec`` briefly and propose its ``playtester.toml`` (see the module docstring).

    Args:
        spec: a resolved pygame game (module or file spec).
        seconds: game seconds the first screen is watched with no input (and the wait an init may need).
        seed: the episodes' seed.
        on_stage: told each stage's name as it starts (for a progress line).

    Raises:
        UsageError: the game does not run on a backend whose inputs init can press (a Gymnasium id, Godot, ...),
            or it ends by itself before reading any input.
    """
    import time

    from playtester.drive.backend import backend_for, capabilities

    if not capabilities(spec).analysis or capabilities(spec).scripts == "gdscript":
        raise UsageError(f"playtester init writes configs for pygame games (a module or file spec); {spec.text} runs "
                         f"on the {backend_for(spec).name} backend: write its playtester.toml by hand "
                         "(see docs/guides/init.md)")
    if seconds <= 0:
        raise UsageError(f"--seconds {seconds:g}: give a positive number of game seconds to watch the first screen")
    say = on_stage or (lambda _s: None)
    t0 = time.perf_counter()
    probe_spec = spec.with_config(blacklist=[], init=[])
    out = InitProposal(spec=spec, entry=_entry(spec))

    say("analysing the input handling")
    keys = _analyse(probe_spec, out, seed)

    prober = _Prober(probe_spec, seed)
    try:
        say("watching the first screen")
        play_prefix = _find_init(prober, out, keys, seconds)
        say("pressing keys that may quit, pause or go fullscreen")
        _find_blacklist(prober, out, keys, play_prefix)
    finally:
        prober.close()
    out.events = list(prober.events)
    out.seconds = time.perf_counter() - t0
    return out


def _entry(spec: GameSpec) -> str | None:
    if spec.kind == "file":
        name = Path(spec.target).name
        return f"{name}:{spec.function}" if spec.function else name
    if spec.kind == "module":
        return f"{spec.target}:{spec.function}" if spec.function else spec.target
    return None


def _analyse(spec: GameSpec, out: InitProposal, seed: int) -> list[str]:
    """Run the analysis; fill the controls; return the key names its actions press (in order, once each)."""
    from playtester.analysis import AnalysisError, analyze

    budget = min(spec.config.analysis_seconds, ANALYSIS_SECONDS)
    try:
        a = analyze(spec.with_config(analysis_seconds=budget), seed=seed)
    except AnalysisError as e:
        out.analysis_note = f"the analysis found no controls: {e}"
        out.todos.append("no controls found by the analysis; name the game's actions in a manual action space "
                         "(actions = \"actions.yaml\") or raise analysis_seconds and run 'playtester analyze' again")
        return []
    keys: dict[str, None] = {}
    for act in a.actions:
        sample = act.get("sample_inputs")
        out.controls.append((act["name"], act["p_g_text"], _inputs_text(sample) if sample is not None
                             else act["p_i_text"]))
        for code in sorted(getattr(sample, "keys", ()) or ()):
            keys.setdefault(key_name(code))
    for found in (a.result.get("detected") or {}).values():  # keys the analysis left out as quit or pause keys:
        for name in found:  # the blacklist probe presses them again and says what it saw
            keys.setdefault(name)
    out.analysis_note = (f"{len(a.actions)} actions found by the analysis in {a.seconds:.1f} s"
                         + (f" ({'; '.join(a.warnings[:3])})" if a.warnings else ""))
    for act in a.actions:
        sample = act.get("sample_inputs")
        if getattr(sample, "mouse_buttons", None) and sample.mouse_pos is not None \
                and tuple(sample.mouse_pos) not in out.clicks:
            out.clicks.append(tuple(sample.mouse_pos))
    return list(keys)


def _inputs_text(f: InputFrame) -> str:
    """One solution of an action's inputs, readable: ``LEFT+SPACE``, ``left click at 80,60``, ``nothing held``."""
    parts = [key_name(k) for k in sorted(f.keys)]
    names = {1: "left", 2: "middle", 3: "right"}
    parts += [f"{names.get(b, b)} click" for b in sorted(f.mouse_buttons)]
    if f.mouse_pos is not None and f.mouse_buttons:
        parts[-1] += f" at {f.mouse_pos[0]},{f.mouse_pos[1]}"
    parts += [f"joystick {j} axis {a} {v:+g}" for j, a, v in f.joy_axes if v]
    parts += [f"joystick {j} button {b}" for j, b in sorted(f.joy_buttons)]
    if f.wheel != (0, 0):
        parts.append(f"wheel {f.wheel[0]},{f.wheel[1]}")
    return "+".join(parts) or "nothing held"


_movers = movers  # shared with the analysis (playtester.analysis.keyprobe)


def _find_init(p: _Prober, out: InitProposal, keys: list[str], seconds: float) -> list[tuple[InputFrame, int]]:
    """Watch the first screen; when it waits, find the input that gets past it. Returns the inputs (as
    (frame, frames) steps from a fresh start) that lead to where play starts."""
    fps = p.spec.config.fps
    watch = max(4, math.ceil(seconds * fps / p.frames))
    obs = p.start([])
    lead = 0  # steps with no input until the game reads input
    while not obs.done and not obs.info.get("inputs_read") and lead < 4 * watch:
        obs = p.step()
        lead += 1
    if obs.done:
        raise UsageError(f"{p.spec.text} ended by itself before reading any input ({_describe_exit(obs)}); "
                         "check that it runs (playtester run GAME --steps 50) and that its game_args are right")
    idle = p.idle(watch)
    if idle and idle[-1].done:
        out.todos.append(f"the game ended by itself {len(idle) * p.frames} frames after it started, with no input "
                         f"({_describe_exit(idle[-1])}): check its game_args, or write an init that keeps it going")
        return []
    tail = idle[len(idle) // 2:]
    title = {_hash(o) for o in tail}
    wait_frames = (lead + len(idle)) * p.frames
    if len(title) > 2:
        out.notes.append(f"the first screen changes on its own with no input ({len(set(map(_hash, idle)))} distinct "
                         f"frames in {wait_frames} frames): no title to pass, no init")
        return []
    title_frames = [o.frame for o in tail]
    title_loop = p.loop()
    wait = [(RELEASED, wait_frames)]

    candidates: list[tuple[str, InputFrame]] = [(k, _press([k])) for k in START_KEYS]
    candidates += [(k, _press([k])) for k in keys if k not in START_KEYS and k not in SUSPECT_KEYS]
    w, h = obs.info.get("screen_size") or (0, 0)
    clicks = [(w // 2, h // 2)] if w and h else []
    clicks += [c for c in out.clicks if c not in clicks]
    candidates += [(f"a left click at {c[0]},{c[1]}", _press(mouse=c, buttons=[1])) for c in clicks]
    responded: str | None = None
    skipped: list[str] = []  # candidates that quit or went fullscreen
    for name, frame in candidates:
        p.goto(wait)
        fs0 = p.fullscreen()
        after = p.tap(frame)
        if after.done or p.fullscreen() != fs0:
            skipped.append(name)
            continue  # a key that ends the game or goes fullscreen is no init (the blacklist probe names it)
        watched = p.idle(3)
        if watched and watched[-1].done:
            continue
        now = watched[-1] if watched else after
        share = min(_changed_share(now.frame, t) for t in title_frames)
        if _hash(now) in title:
            continue
        other_loop = title_loop is not None and p.loop() not in (None, title_loop)
        if share < BIG_CHANGE and not other_loop:
            responded = responded or name
            continue
        lives = p.moves(_movers(keys, [name] if name in keys or name in START_KEYS else []), 3)
        if lives is None:
            continue
        how = ("another input loop of the game runs" if other_loop else f"{share:.0%} of the pixels changed")
        step = _init_step(frame, p.frames)
        seen = (f"the first screen stays still with no input ({len(title)} distinct frame(s) after "
                f"{wait_frames} frames); {name} led to another screen ({how}) that then moved {lives}")
        if _passes(p, [(frame, p.frames)], title):
            out.init = [step, InitStep(frames=1)]
            out.init_note = seen + "; checked from a fresh start"
            return [(frame, p.frames), (RELEASED, 1)]
        if _passes(p, [*wait, (frame, p.frames)], title):
            out.init = [InitStep(frames=wait_frames), step, InitStep(frames=1)]
            out.init_note = seen + f"; the game ignores it until frame {wait_frames}, so init waits first; checked " \
                                   "from a fresh start"
            return [*wait, (frame, p.frames), (RELEASED, 1)]
        out.notes.append(seen + ", but not again from a fresh start: no init written")
    if responded is not None:
        out.notes.append(f"the first screen stays still with no input and {responded} moved it a little: play "
                         "starts there, no init")
        return wait
    tried = ", ".join(n for n, _ in candidates if n not in skipped)
    also = f"; {', '.join(skipped)} quit or went fullscreen" if skipped else ""
    out.todos.append(f"the first screen stays still with no input and nothing tried changed it ({tried}{also}); if it is a "
                     "title, write the input that starts the game as init = [{ keys = [\"KEY\"], frames = "
                     f"{p.frames} }}] (or mouse = [X, Y], buttons = [1])")
    return wait


def _init_step(frame: InputFrame, frames: int) -> InitStep:
    return InitStep(keys=[key_name(k) for k in sorted(frame.keys)], mouse=frame.mouse_pos,
                    buttons=sorted(frame.mouse_buttons), frames=frames)


def _passes(p: _Prober, prefix: list[tuple[InputFrame, int]], title: set[str]) -> bool:
    """From a fresh start, ``prefix`` then a released frame leaves the title for good (three idle steps)."""
    obs = p.start([*prefix, (RELEASED, 1)])
    if obs.done:
        return False
    seen = [obs, *p.idle(3)]
    return not seen[-1].done and all(_hash(o) not in title for o in seen)


def _find_blacklist(p: _Prober, out: InitProposal, keys: list[str], play: list[tuple[InputFrame, int]]) -> None:
    """Press each candidate key once where play starts (and on the first screen, when that is another one)."""
    cands = list(dict.fromkeys([*keys, *SUSPECT_KEYS]))[:MAX_KEYS]
    start = p.goto(play)
    if start.done:
        out.todos.append("the game ended on the way to where play starts; no key was probed for quit/pause")
        return
    base_moves = p.moves(_movers(keys), 3)
    for name in cands:
        frame = _press([name])
        p.goto(play)
        fs0 = p.fullscreen()
        obs = p.tap(frame)
        if obs.done:
            _quit_or_crash(out, name, obs, "")
            continue
        fs1 = p.fullscreen()
        if fs0 is not None and fs1 is not None and fs0 != fs1:
            out.blacklist.append(KeyFinding(name, "fullscreen", _fullscreen_seen(name, fs0, fs1)))
            continue
        if base_moves is None:
            continue
        found = p.watch().pause(name, frame, _movers(keys, [name]), base_moves, obs)  # a pause key resumes
        if found is not None and found[0] == "pause":
            out.blacklist.append(KeyFinding(name, "pause", found[1]))
        elif found is not None:
            out.notes.append(found[1] + ": not blacklisted")
    if out.init:  # past a title: keys that quit there
        for name in cands:
            if any(f.key == name for f in out.blacklist):
                continue
            p.goto([])
            obs = p.tap(_press([name]))
            if obs.done:
                _quit_or_crash(out, name, obs, " on the first screen")


def _fullscreen_seen(name: str, before: tuple[bool, int], after: tuple[bool, int]) -> str:
    n = after[1] - before[1]
    if after[0] != before[0]:
        return f"{name} turned the window's fullscreen {'on' if after[0] else 'off'}"
    return f"{name} switched the window's fullscreen {n} times (and back to {'on' if after[0] else 'off'})"


def _quit_or_crash(out: InitProposal, name: str, obs: Observation, where: str) -> None:
    if ending(obs) == "crash":
        out.notes.append(f"{name}{where} ended the game with a failure ({obs.exit.describe()}): a bug for the "
                         "campaign to report, not blacklisted")
    else:
        out.blacklist.append(KeyFinding(name, "quit", f"{name}{where}: {_describe_exit(obs)}"))


# ---------------------------------------------------------------------------------------------- writing


def _comment(text: str, width: int = 110) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width - 2, initial_indent="# ", subsequent_indent="#   ") or ["#"]


def _clip(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def render(p: InitProposal, max_controls: int = 40) -> str:
    """The commented ``playtester.toml`` text of a proposal."""
    spec = p.spec
    lines = [f"# playtester configuration of {spec.text}, written by 'playtester init' in {p.seconds:.0f} s.",
             "# Review it: each setting says what was seen. 'playtester explore GAME --out DIR' reads it."]
    lines.append(f"# game spec: {spec.text}")
    if p.entry:
        lines += _comment("entry: how a folder spec (playtester explore FOLDER) runs the game, relative to this file")
        lines.append(f"entry = {toml_value(p.entry)}")
    if spec.config.game_args:
        lines.append(f"game_args = {toml_value(spec.config.game_args)}")
    default = GameConfig()
    kept = [k for k in CARRIED if getattr(spec.config, k) != getattr(default, k)]
    if kept:
        lines += _comment(f"from the game's config ({spec.config_path}), as the probes ran it:")
        lines += [f"{k} = {toml_value(getattr(spec.config, k))}" for k in kept]
    lines.append("")
    lines.append("# Controls (" + (p.analysis_note or "not analysed") + "):")
    # one line per input: the analysis gives one action per path, so one key can be several actions (valid in
    # different game states); the person reviewing wants the inputs the game reads
    by_input: dict[str, list[tuple[str, str]]] = {}
    for name, valid, inputs in p.controls:
        by_input.setdefault(inputs, []).append((name, valid))
    lines.append(f"#   {len(by_input)} distinct input(s) in {len(p.controls)} action(s): input | actions | valid when "
                 "(the first action's)")
    for inputs, acts in list(by_input.items())[:max_controls]:
        names = acts[0][0] if len(acts) == 1 else f"{acts[0][0].split(' #')[0]} ({len(acts)} paths)"
        lines.append(f"#   {_clip(inputs)} | {_clip(names, 40)} | {_clip(acts[0][1])}")
    if len(by_input) > max_controls:
        lines.append(f"#   ... {len(by_input) - max_controls} more ('playtester analyze GAME --limit 0' lists every "
                     "action)")
    lines.append("")
    lines.append("# Keys no action may press (quit, pause, fullscreen), each found by pressing it once:")
    for f in p.blacklist:
        lines += _comment(f"{f.key}: {f.kind} key: {f.seen}")
    if not p.blacklist:
        lines += _comment("none of the keys tried quit, paused or went fullscreen; the list is empty (the default "
                          f"would be {', '.join(DEFAULT_BLACKLIST)})")
    lines.append(f"blacklist = {toml_value([f.key for f in p.blacklist])}")
    lines.append("")
    if p.init:
        lines += _comment("init: inputs applied at every reset, before the agent: " + p.init_note)
        steps = [{k: v for k, v in s.model_dump().items() if v not in ([], None)} for s in p.init]
        lines.append("init = [")
        lines += [f"    {toml_value(s)}," for s in steps]
        lines.append("]")
        lines.append("")
    for note in p.notes:
        lines += _comment(note)
    todos = [*p.todos]
    events = ", ".join(p.events[:12])
    todos.append("how an episode ends: done_events = [\"EVENT\"] (probe events) or done_when = \"EXPRESSION\" "
                 "(probe features); " + (f"probe events seen: {events}" if events else
                                         "no probe events were seen, so only the game's exit ends one")
                 + "; max_episode_steps (default 1000) truncates the rest")
    for t in todos:
        lines += _comment("TODO: " + t)
    return "\n".join(lines) + "\n"


def config_target(text: str, spec: GameSpec, out: Path | None) -> Path:
    """Where the config goes: ``out``; else beside the game (a file spec: next to the file; a folder: in it),
    else (a module spec) in the current folder."""
    if out is not None:
        return out
    if Path(text.partition(":")[0]).expanduser().is_dir():
        return Path(text.partition(":")[0]).expanduser() / "playtester.toml"
    if spec.kind == "file":
        return Path(spec.target).parent / "playtester.toml"
    return Path.cwd() / "playtester.toml"


def write_config(text: str, path: Path, force: bool) -> None:
    """Write the config, refusing to replace a file unless ``force``; the written file must load."""
    from playtester.drive.spec import load_config
    from playtester.files import write_atomic

    if path.exists() and not force:
        raise UsageError(f"{path} already exists; pass --force to replace it, or --out FILE to write elsewhere")
    if path.is_dir():
        raise UsageError(f"{path} is a folder; give --out a file name (e.g. {path / 'playtester.toml'})")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}; choose another place with --out") from None
    load_config(path)  # what was written reads back (a ConfigError otherwise)


def picks_up(text: str, path: Path) -> bool:
    """Whether ``playtester ... GAME`` (as given) reads the config at ``path`` without --config."""
    try:
        spec = resolve(text)
    except PlaytesterError:
        return False
    return spec.config_path is not None and Path(spec.config_path).resolve() == path.resolve()
