"""What a player does during one frame: the `InputFrame`, and key names.

An `InputFrame` is the complete state of the virtual devices while it is held: which keys and mouse
buttons are down, where the mouse is, joystick axes, buttons and hats. The driver turns the difference
between two consecutive frames into the events a real device would produce (KEYDOWN, KEYUP,
MOUSEMOTION, JOYAXISMOTION, ...), so events and polled state always agree.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from playtester.errors import UsageError

JoyAxis = tuple[int, int, float]  # (joystick index, axis index, value in [-1, 1])
JoyHat = tuple[int, int, tuple[int, int]]  # (joystick index, hat index, (x, y) in {-1, 0, 1})

MOUSE_BUTTON_NAMES = {"left": 1, "middle": 2, "right": 3, "x1": 4, "x2": 5}


@dataclass(frozen=True)
class InputFrame:
    """The state of every virtual input device, held for one or more frames.

    Attributes:
        keys: pygame key codes held down (``pygame.K_LEFT``...).
        mouse_pos: where the cursor is, in window pixels; None keeps it where it was.
        mouse_buttons: mouse buttons held (1 left, 2 middle, 3 right, 4 and 5 extra).
        wheel: one wheel movement (x, y) sent on the first frame this input is applied.
        joy_axes: joystick axis positions, as sorted (joystick, axis, value) triples.
        joy_buttons: joystick buttons held, as (joystick, button) pairs.
        joy_hats: joystick hat positions, as sorted (joystick, hat, (x, y)) triples.
        native: for environments with their own discrete actions (Gymnasium), the action to take.
    """

    keys: frozenset[int] = frozenset()
    mouse_pos: tuple[int, int] | None = None
    mouse_buttons: frozenset[int] = frozenset()
    wheel: tuple[int, int] = (0, 0)
    joy_axes: tuple[JoyAxis, ...] = ()
    joy_buttons: frozenset[tuple[int, int]] = frozenset()
    joy_hats: tuple[JoyHat, ...] = ()
    native: int | None = field(default=None)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its constructor and its fields (every step command and observation carries one): the
        default for a frozen dataclass, a state dict set field by field, cost several times as much; the
        no-input frame, the most common, as a reference to one shared constant."""
        if self == _NO_INPUT:
            return _no_input, ()
        return InputFrame, (self.keys, self.mouse_pos, self.mouse_buttons, self.wheel, self.joy_axes,
                            self.joy_buttons, self.joy_hats, self.native)

    @classmethod
    def make(
        cls,
        keys: Iterable[int | str] = (),
        mouse: tuple[int, int] | None = None,
        buttons: Iterable[int | str] = (),
        wheel: tuple[int, int] = (0, 0),
        axes: Mapping[tuple[int, int], float] | None = None,
        joy_buttons: Iterable[tuple[int, int]] = (),
        hats: Mapping[tuple[int, int], tuple[int, int]] | None = None,
        native: int | None = None,
    ) -> InputFrame:
        """Build a frame from readable parts: key names or codes, button names or numbers."""
        return cls(
            keys=frozenset(key_code(k) for k in keys),
            mouse_pos=None if mouse is None else (int(mouse[0]), int(mouse[1])),
            mouse_buttons=frozenset(mouse_button(b) for b in buttons),
            wheel=(int(wheel[0]), int(wheel[1])),
            joy_axes=tuple(sorted((j, a, float(v)) for (j, a), v in (axes or {}).items())),
            joy_buttons=frozenset(joy_buttons),
            joy_hats=tuple(sorted((j, h, (int(v[0]), int(v[1]))) for (j, h), v in (hats or {}).items())),
            native=native,
        )

    def merged(self, other: InputFrame) -> InputFrame:
        """This frame with ``other`` held as well (other's mouse position and axes win)."""
        axes = {(j, a): v for j, a, v in self.joy_axes} | {(j, a): v for j, a, v in other.joy_axes}
        hats = {(j, h): v for j, h, v in self.joy_hats} | {(j, h): v for j, h, v in other.joy_hats}
        return InputFrame(
            keys=self.keys | other.keys,
            mouse_pos=other.mouse_pos if other.mouse_pos is not None else self.mouse_pos,
            mouse_buttons=self.mouse_buttons | other.mouse_buttons,
            wheel=other.wheel if other.wheel != (0, 0) else self.wheel,
            joy_axes=tuple(sorted((j, a, v) for (j, a), v in axes.items())),
            joy_buttons=self.joy_buttons | other.joy_buttons,
            joy_hats=tuple(sorted((j, h, v) for (j, h), v in hats.items())),
            native=other.native if other.native is not None else self.native,
        )

    def released(self) -> InputFrame:
        """Everything let go; the mouse stays where it is."""
        return InputFrame(mouse_pos=self.mouse_pos)

    def with_keys(self, keys: frozenset[int]) -> InputFrame:
        return replace(self, keys=keys)

    def is_empty(self) -> bool:
        return self == InputFrame(mouse_pos=self.mouse_pos)

    def describe(self) -> str:
        """A short human-readable form, e.g. ``LEFT+SPACE mouse(320,200)+left``."""
        parts = ["+".join(sorted(key_name(k) for k in self.keys))] if self.keys else []
        if self.mouse_pos is not None or self.mouse_buttons:
            m = f"mouse({self.mouse_pos[0]},{self.mouse_pos[1]})" if self.mouse_pos else "mouse"
            names = {v: k for k, v in MOUSE_BUTTON_NAMES.items()}
            m += "".join(f"+{names.get(b, b)}" for b in sorted(self.mouse_buttons))
            parts.append(m)
        if self.wheel != (0, 0):
            parts.append(f"wheel{self.wheel}")
        parts += [f"joy{j}.axis{a}={v:+.2f}" for j, a, v in self.joy_axes]
        parts += [f"joy{j}.button{b}" for j, b in sorted(self.joy_buttons)]
        parts += [f"joy{j}.hat{h}={v}" for j, h, v in self.joy_hats]
        if self.native is not None:
            parts.append(f"action {self.native}")
        return " ".join(parts) or "(nothing)"


_NO_INPUT = InputFrame()


def _no_input() -> InputFrame:
    return _NO_INPUT


def _pygame():
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    return pygame


@lru_cache(maxsize=1024)
def key_code(name: int | str) -> int:
    """The pygame key code for a key name: ``"LEFT"``, ``"K_LEFT"``, ``"left"``, ``"a"``, ``"left shift"``.

    Raises:
        UsageError: the name is not a key pygame knows, with suggestions.
    """
    if isinstance(name, int):
        return name
    pg = _pygame()
    text = name.strip()
    candidates = [text, text[2:] if text.upper().startswith("K_") else text]
    for cand in candidates:
        for attr in (f"K_{cand}", f"K_{cand.upper()}", f"K_{cand.lower()}"):
            if hasattr(pg, attr):
                return int(getattr(pg, attr))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "pygame.init() has not been called": names need no init
                return int(pg.key.key_code(cand.lower().replace("_", " ")))
        except ValueError:
            pass
    close = sorted(n[2:] for n in dir(pg) if n.startswith("K_") and n[2:].lower().startswith(text[:1].lower()))
    raise UsageError(f"unknown key name {name!r}; use pygame names such as LEFT, SPACE, a, RETURN"
                     + (f" (keys starting with {text[:1]!r}: {', '.join(close[:12])})" if close else ""))


@lru_cache(maxsize=1024)
def key_name(code: int) -> str:
    """A readable name for a key code (``"LEFT"``, ``"SPACE"``, ``"a"``)."""
    pg = _pygame()
    for attr in dir(pg):
        if attr.startswith("K_") and getattr(pg, attr) == code:
            return attr[2:]
    return pg.key.name(code) or str(code)


def mouse_button(b: int | str) -> int:
    """Mouse button number for ``1``..``5`` or ``"left"``/``"middle"``/``"right"``/``"x1"``/``"x2"``."""
    if isinstance(b, int) or (isinstance(b, str) and b.isdigit()):
        n = int(b)
        if 1 <= n <= 7:
            return n
    elif b.lower() in MOUSE_BUTTON_NAMES:
        return MOUSE_BUTTON_NAMES[b.lower()]
    raise UsageError(f"unknown mouse button {b!r}; use 1-5 or one of {', '.join(MOUSE_BUTTON_NAMES)}")


def check_key_names(names: list[str]) -> list[str]:
    """A pydantic field validator's body: ``names`` if every one is a key, else ValueError saying which."""
    from playtester.errors import UsageError

    for k in names:
        try:
            key_code(k)
        except UsageError as e:
            raise ValueError(str(e)) from None
    return names


def frame_to_dict(f: InputFrame) -> dict[str, Any]:
    """A JSON-ready form of an input frame (traces, action spaces)."""
    return {"keys": sorted(f.keys), "mouse_pos": list(f.mouse_pos) if f.mouse_pos else None,
            "mouse_buttons": sorted(f.mouse_buttons), "wheel": list(f.wheel),
            "joy_axes": [list(a) for a in f.joy_axes], "joy_buttons": sorted(list(b) for b in f.joy_buttons),
            "joy_hats": [[j, h, list(v)] for j, h, v in f.joy_hats], "native": f.native}


def frame_from_dict(d: dict[str, Any]) -> InputFrame:
    """The inverse of `frame_to_dict`."""
    return InputFrame(keys=frozenset(d["keys"]), mouse_pos=tuple(d["mouse_pos"]) if d["mouse_pos"] else None,
                      mouse_buttons=frozenset(d["mouse_buttons"]), wheel=tuple(d["wheel"]),
                      joy_axes=tuple((int(j), int(a), float(v)) for j, a, v in d["joy_axes"]),
                      joy_buttons=frozenset((int(j), int(b)) for j, b in d["joy_buttons"]),
                      joy_hats=tuple((int(j), int(h), (int(v[0]), int(v[1]))) for j, h, v in d["joy_hats"]),
                      native=d["native"])
