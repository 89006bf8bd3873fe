"""Keys that quit or pause a game, found by pressing them: one place for `playtester init`
(`playtester.campaign.init_config`, which writes them into a config's blacklist) and the action-space analysis
(`playtester.analysis.analyze`, which blacklists them for the analysed space and runs on without them).

- A key **quits** when the episode ends with a normal exit right after it (the entry returned, ``sys.exit(0)``,
  a posted ``pygame.QUIT`` the game answers by returning); an exit with a failure (an uncaught exception, a
  non-zero status) is a crash, a finding, never a quit key.
- A key **pauses** when, on a screen that moved (on its own or under an input), after it the screen moves neither
  on its own nor under any input that moved it before, and the same key again makes it move again (a key that
  freezes the screen for good, a give-up or menu key, is not a pause key).

`screen_digest` runs in the game's process (``Worker.call("playtester.analysis.keyprobe:screen_digest")``): the
analysis' worker captures no frames."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from playtester.drive.observation import Observation

SUSPECT_KEYS = ["ESCAPE", "q", "p", "PAUSE", "F11"]  # `playtester init` tries these whether or not the analysis found them
MOVER_KEYS = ["LEFT", "RIGHT", "UP", "DOWN"]  # inputs that may move a play screen, besides the game's own keys
MAX_MOVERS = 6  # inputs tried to see whether a screen still moves


def movers(keys: list[str], leave_out: Iterable[str] = ()) -> list[tuple[str, Any]]:
    """Inputs to see whether a screen still moves: the arrows, then ``keys`` (a game's own), one key each; never
    a suspect key nor one of ``leave_out`` (the key under test); at most `MAX_MOVERS`."""
    from playtester.drive.inputs import InputFrame, key_code

    skip = {key_code(k) for k in [*SUSPECT_KEYS, *leave_out]}
    out: list[tuple[str, Any]] = []
    for name in [*MOVER_KEYS, *keys]:
        if key_code(name) in skip or any(n == name for n, _ in out):
            continue
        out.append((name, InputFrame.make(keys=[name])))
    return out[:MAX_MOVERS]


def describe_exit(obs: Observation) -> str:
    """How an episode ended, in words (a normal exit says so)."""
    ex = obs.exit
    if ex is None:
        return f"the episode ended ({obs.info.get('done_reason') or 'done'})"
    if ex.kind == "finished":
        return "the game's entry returned (a normal exit)"
    if ex.kind == "exit":
        return f"the game called sys.exit({ex.code if ex.code is not None else ''}) (a normal exit)"
    return ex.describe()


def ending(obs: Observation) -> str | None:
    """How an observation's episode ended: None (it did not), ``crash`` (a failure: an uncaught exception, a
    non-zero exit status, a signal, a hang), ``quit`` (the game exited normally), ``ended`` (the config's done
    rule or the step limit ended the episode; the game itself goes on)."""
    if not obs.done:
        return None
    if obs.exit is None:
        return "ended"
    return "crash" if obs.exit.is_failure else "quit"


def screen_digest(rt: Any) -> str:
    """In the game's process: a digest of the display surface now ("" when there is none)."""
    import pygame

    surf = pygame.display.get_surface() if pygame.display.get_init() else None
    if surf is None:
        return ""
    try:
        data = pygame.image.tobytes(surf, "RGB")
    except pygame.error:
        return ""
    return hashlib.blake2b(data, digest_size=12).hexdigest()


class Watch:
    """Whether the screen of a live episode moves: ``idle()`` steps it with no input, ``tap(frame)`` presses
    an input for one action and releases it, ``digest(obs)`` is the screen after a step."""

    def __init__(self, idle: Callable[[], Observation], tap: Callable[[Any], Observation],
                 digest: Callable[[Observation], str]) -> None:
        self.idle = idle
        self.tap = tap
        self.digest = digest

    def moves(self, start: str, movers: list[tuple[str, Any]], watch: int) -> str | None:
        """From the live state, whose screen is ``start``: what makes the screen change (``on its own`` or
        ``under NAME``), else None (also when the episode ends). Leaves the episode where the checks left it."""
        for _ in range(watch):
            o = self.idle()
            if o.done:
                return None
            if self.digest(o) != start:
                return "on its own"
        for name, frame in movers:
            o = self.tap(frame)
            if o.done:
                return None
            if self.digest(o) != start:
                return f"under {name}"
        return None

    def pause(self, name: str, frame: Any, movers: list[tuple[str, Any]], base: str,
              after: Observation, watch: int = 3) -> tuple[str, str] | None:
        """Right after ``name`` (``frame``) was tapped once on a screen that moved ``base`` (`moves`' answer
        before it), ``after`` the tap's observation: ("pause", what was seen) when the screen froze and the
        same key again made it move; ("stuck", a note) when it froze for good; None when it still moves."""
        if self.moves(self.digest(after), movers, watch) is not None:
            return None
        again = self.tap(frame)
        if again.done:
            return None
        moved = self.moves(self.digest(again), movers, watch)
        if moved is not None:
            return "pause", f"{name} froze the screen (it had moved {base}; nothing moved it after), {name} " \
                            f"again made it move {moved}"
        return "stuck", f"{name} froze the screen and a second {name} did not bring it back (a give-up or menu key?)"
