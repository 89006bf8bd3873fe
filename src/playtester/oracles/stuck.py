"""Stuck oracle, after the Wuji paper (002_*.txt, Section III), told apart from a wall.

State level (after Wuji's): the moving average of the previous n abstract states (the probe's numeric
features, or ``features``) is computed each step; the state is *still* when the current one differs from
it, and from each of those n states, by less than a threshold (max absolute difference). Wuji compares
with the average only, which a state that changes every step can equal by chance (a sawtooth around
its mean). Screen level: the screen stays identical for n
steps. Wuji calls the game stuck when it is still while inputs keep arriving; but a player who walks
into a wall or a dead end and keeps pressing the keys that point into it is still too, and nothing is
wrong there. So this oracle asks for evidence that the inputs *should* have moved the game:

- it remembers, for each input (the held keys, buttons, axes), which way it moved each feature at the
  steps it was held this episode: a set of *directions* (feature up, feature down) per input, learned
  from the change over the step (``criterion = "effects"``, the default);
- the game is stuck only when, over the still window, the inputs that arrived include at least
  ``min_inputs`` different ones that moved the state before, and together they cover every direction
  any input has moved the state this episode. At a wall or in a dead end the way out is an input that
  would move the state in a direction nothing pressed there covers (or the agent never pressed it, or
  it never moved anything before): no alarm. A game that ignores every input, the ones that walked
  each way a moment ago included, is stuck.

A frozen screen counts the same way: identical frames over the window while inputs known to move the
state (or, in a game with no features, inputs known to change the screen) arrived, in every known
direction. A scene cut (more than ``SCENE_CUT`` of the pixels change in one step: a game-over screen, a
pause menu, the next level) starts what the screen knows afresh: the arrows that moved the player do not
say that a game-over screen waiting for R should change.

Without features, *known to change the screen* needs the change to be the input's doing, since many
screens change by themselves (an intro, a ball, an explosion) and then legitimately wait, still, for one
input (ENTER, R, a click on a free cell, P again) while keys that do nothing there keep arriving. Crediting
every input held while the screen changed calls all of those waiting screens stuck. So, per step, from
frame hashes and the input held (its keys, buttons and axes; the cursor's place only with a button held):

- the *baseline* is the latest step with nothing held, or with a *dud* held (an input that arrived on a
  still screen and, this scene, never changed it): had it changed the screen, the screen moves by itself,
  every credit is forgotten, and no change is credited until such a step finds the screen still again;
- an input is credited with a change only on its *arrival* (it was not held the step before), with the
  cursor not moved bare (hover), while the baseline is still (or unknown: nothing says the screen moves by
  itself); a key held on while the screen keeps changing proves nothing either way;
- an arrival that left the screen still breaks that input's run of changes (applied when the screen next
  changes, so the frozen window's own presses do not erase what came before it);
- an input is *known to change the screen* when its last ``REDRAWS`` (2) arrivals in a row changed it:
  an input that did something once (a click that marked a cell, ENTER that started the game) and nothing
  the next time is no evidence that the screen should change now.

A waiting screen then has no credited inputs: what changed it before was the screen itself or one-shot
inputs. A game that stops drawing while the arrows that moved things on a still field a moment ago keep
arriving still has them. The rule cannot tell a screen that moved by itself when no step ever held nothing
or a dud (an intro during which every step pressed a key, a death animation under a held arrow) from inputs
moving it; nor can it find a freeze in a game whose screen always moves by itself (the state test can).
``criterion = "window"`` is Wuji's original test (any ``min_inputs`` different inputs),
kept to compare. The oracle reports the first finding, once per episode: a game that is stuck stays
stuck, and one report with the trace that got there is what a person needs.

Cost per step: one subtraction over the features, a frame hash, and a few set and dictionary updates; the
window's inputs are only looked at on a step whose state (or screen) is still.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from playtester.drive.observation import Observation
from playtester.findings import Finding, short_hash

CRITERIA = ("effects", "window")


class StuckSettings(BaseModel):
    """The stuck oracle's keys of the ``[oracles]`` table."""

    model_config = ConfigDict(extra="forbid")
    stuck_steps: int = Field(30, ge=2, description="n: steps in the stuck oracle's moving window")
    stuck_threshold: float = Field(1e-6, ge=0, description="max |state - moving average| that counts as stuck")
    stuck_min_inputs: int = Field(3, ge=1, description="distinct inputs in the window for 'inputs keep arriving'")
    stuck_features: list[str] | None = Field(None, description="features of the stuck state (all by default)")
    stuck_screen: bool = Field(True, description="also report a screen frozen for stuck_steps steps")
    stuck_criterion: Literal["effects", "window"] = Field(
        "effects", description="effects: the inputs that arrived had moved the state before, in every direction "
        "inputs ever moved it (a wall is not stuck); window: Wuji's, any stuck_min_inputs different inputs")
SCENE_CUT = 0.5  # share of a frame's pixels that change in one step: a new screen
REDRAWS = 2  # arrivals in a row that changed the screen: an input known to change it


def _changed_share(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels that differ between frames ``a`` and ``b`` (any channel)."""
    diff = a != b
    if diff.ndim == 3:  # or-ing the channel planes is >10x faster than diff.any(axis=-1) on a 3-wide axis
        plane = diff[..., 0]
        for c in range(1, diff.shape[2]):
            plane = plane | diff[..., c]
        diff = plane
    return np.count_nonzero(diff) / diff.size if diff.size else 0.0


def _screen_key(held) -> tuple[int | None, tuple[int, int] | None]:
    """The input as the screen test sees it, and the cursor: the keys, buttons and axes held (None when
    nothing is), with the cursor's place only while a button is held (a click there); a cursor that merely
    rests somewhere else does not make RIGHT another input."""
    if held is None:
        return None, None
    mouse = held.mouse_pos
    if held.is_empty():
        return None, mouse
    return hash(held if held.mouse_buttons else replace(held, mouse_pos=None)), mouse


class StuckOracle:
    kind = "stuck"
    settings = StuckSettings  # its keys of the [oracles] table

    def __init__(self, n: int = 30, threshold: float = 1e-6, min_inputs: int = 3,
                 features: list[str] | None = None, screen: bool = True, criterion: str = "effects") -> None:
        if criterion not in CRITERIA:
            raise ValueError(f"stuck criterion must be one of {', '.join(CRITERIA)}, got {criterion!r}")
        self.n, self.threshold, self.min_inputs = n, threshold, min_inputs
        self.features, self.screen, self.criterion = features, screen, criterion
        self.reset()

    @classmethod
    def from_settings(cls, s: StuckSettings) -> StuckOracle:
        return cls(s.stuck_steps, s.stuck_threshold, s.stuck_min_inputs, s.stuck_features, s.stuck_screen,
                   s.stuck_criterion)

    def reset(self) -> None:
        self.states: deque[list[float]] = deque(maxlen=self.n)
        self.inputs: deque[int | None] = deque(maxlen=self.n)  # hash of each step's non-empty input
        self.frames: deque[int] = deque(maxlen=self.n)
        self.names: list[str] | None = self.features
        self.fired = False
        # what each non-empty input did this episode: bit 2i = feature i rose, bit 2i+1 = it fell
        self.moves: dict[int, int] = {}
        self.known = 0  # every direction any input moved the state this episode
        # what the screen knows, this scene (see the docstring): per input (``_screen_key``), how many of its
        # latest arrivals in a row changed the screen where the change was its doing
        self.redraws: dict[int, int] = {}
        self.redrew: set[int] = set()  # inputs that ever changed the screen on arrival, this scene
        self.duds: set[int] = set()  # inputs that arrived on a still screen and never changed it, this scene
        self.pending: set[int] = set()  # inputs that arrived since the screen last changed (no effect so far)
        self.animating = False  # the latest step with no input (or a dud) changed the screen: it moves by itself
        self.screen_inputs: deque[int | None] = deque(maxlen=self.n)
        self.prev_skey: int | None = None
        self.prev_mouse: tuple[int, int] | None = None
        self.prev_state: list[float] | None = None
        self.prev_frame: int | None = None
        self.prev_pixels: np.ndarray | None = None

    # ---- evidence ----------------------------------------------------------------------------------
    def _window_inputs(self) -> set[int] | None:
        """The distinct non-empty inputs of a full window, or None while it is not full."""
        if len(self.inputs) < self.n:
            return None
        return {h for h in self.inputs if h is not None}

    def _evidence(self, use_state: bool) -> dict | None:
        """Why the window's inputs should have moved the game (details for the finding), or None."""
        held = self._window_inputs()
        if held is None:
            return None
        if self.criterion == "window":
            return {"inputs": len(held)} if len(held) >= self.min_inputs else None
        if use_state and self.known:
            movers = [h for h in held if self.moves.get(h)]
            tried = 0
            for h in movers:
                tried |= self.moves[h]
            if len(movers) >= self.min_inputs and tried & self.known == self.known:
                return {"inputs": len(movers), "directions": self._directions(self.known)}
            return None
        if use_state:  # features, but no input has moved them yet: nothing says an input should
            return None
        movers = [h for h in {h for h in self.screen_inputs if h is not None} if self.redraws.get(h, 0) >= REDRAWS]
        return {"inputs": len(movers)} if len(movers) >= self.min_inputs else None

    def _directions(self, bits: int) -> list[str]:
        names = self.names or []
        return [f"{name}{sign}" for i, name in enumerate(names) for j, sign in enumerate("+-")
                if bits >> (2 * i + j) & 1]

    def _learn(self, key: int | None, state: list[float] | None, frame: int | None, pixels: np.ndarray | None) -> bool:
        """Remember which way the input ``key`` (held over this step) moved the features; False on a scene cut
        (more than SCENE_CUT of the pixels changed), which teaches nothing."""
        if frame is not None and self.prev_frame is not None and frame != self.prev_frame and pixels is not None \
                and self.prev_pixels is not None and pixels.shape == self.prev_pixels.shape \
                and _changed_share(pixels, self.prev_pixels) > SCENE_CUT:
            return False
        if key is None:
            return True
        prev = self.prev_state
        if state is not None and prev is not None and len(state) == len(prev):
            bits, t = 0, self.threshold
            for i, (a, b) in enumerate(zip(state, prev, strict=True)):  # a few features: plain Python beats numpy
                if a - b > t:
                    bits |= 1 << (2 * i)
                elif b - a > t:
                    bits |= 2 << (2 * i)
            if bits:
                self.moves[key] = self.moves.get(key, 0) | bits
                self.known |= bits
        return True

    def _forget_screen(self) -> None:
        """A scene cut: what inputs did to the old screen says nothing about the new one."""
        self.redraws.clear()
        self.redrew.clear()
        self.duds.clear()
        self.pending.clear()
        self.animating = False

    def _learn_screen(self, skey: int | None, frame: int, moved: bool) -> None:
        """Credit an input with changing the screen only where the change is its doing (the docstring's rule):
        it arrived (was not held the step before), the screen changed, the mouse stayed put, and the latest
        step with no input or a dud held left the screen still. A change at a step with no input or a dud
        says the screen moves by itself: every credit is forgotten until such a step is still again."""
        if self.prev_frame is None:
            return
        arrival = skey is not None and skey != self.prev_skey
        baseline = skey is None or skey in self.duds
        if frame == self.prev_frame:
            if baseline:
                self.animating = False
            if arrival:
                self.pending.add(skey)
            return
        # the screen changed: the inputs that arrived while it stayed still did nothing there
        for p in self.pending:
            self.redraws[p] = 0
            if p not in self.redrew:
                self.duds.add(p)
        self.pending.clear()
        if moved:  # the cursor moved with no button held: it may be what changed the screen (hover, a pointer)
            return
        baseline = skey is None or skey in self.duds
        if baseline:
            self.animating = True
            self.redraws.clear()
        elif arrival and not self.animating:
            self.redraws[skey] = self.redraws.get(skey, 0) + 1
            self.redrew.add(skey)

    def _still(self, state: list[float]) -> bool:
        """Every state of the window is within the threshold of ``state``, feature by feature."""
        t = self.threshold
        for past in reversed(self.states):
            if len(past) != len(state):
                return False
            for a, b in zip(past, state, strict=True):
                if not abs(a - b) < t:
                    return False
        return True

    # ---- the oracle ------------------------------------------------------------------------------
    def check(self, obs: Observation, step: int) -> list[Finding]:
        if obs.done or self.fired:
            return []
        if obs.info.get("answer_lost"):  # a remote game's step whose answer went down with the game: it shows the
            return []  # step before's state again, which says nothing about whether this step's inputs moved it
        held = obs.info.get("held")
        key = None if held is None or held.is_empty() else hash(held)  # the input, as a number
        out = []
        state = values = None
        if obs.features:
            if self.names is None:
                self.names = sorted(obs.features)
            values = state = [float(obs.features.get(k, 0.0)) for k in self.names]
            # still: every one of the window's states is the current one (then their mean, Wuji's test, is too;
            # the mean alone lets a state that moves every step through by chance: mana as a 0-14 sawtooth under
            # a held bolt averages 7, so at 7 it equalled its mean: 16 false alarms in blind combat campaigns).
            # Newest first: a state that moves differs from the step before, and the test ends there.
            if len(self.states) == self.n and self._still(state):
                why = self._evidence(use_state=True)
                if why is not None:
                    where = ", ".join(f"{k}={v:g}" for k, v in zip(self.names, state, strict=True))
                    out.append(Finding("stuck", f"the game state did not change for {self.n} steps while "
                                       f"inputs kept arriving ({where})",
                                       f"stuck:state:{short_hash(repr(np.round(state, 3).tolist()))}", step,
                                       "", {"state": dict(zip(self.names, state, strict=True)), **why}))
                    self.states.clear()
            self.states.append(state)
        h = None
        if self.screen and obs.frame is not None:
            h = hash(obs.frame.tobytes())
            if len(self.frames) == self.n and not out and all(f == h for f in self.frames):
                why = self._evidence(use_state=state is not None and self.known != 0)
                if why is not None:
                    out.append(Finding("stuck", f"the screen stayed frozen for {self.n} steps while inputs kept "
                                       "arriving", f"stuck:screen:{short_hash(str(h))}", step, "", why))
                    self.frames.clear()
            self.frames.append(h)
        skey, mouse = _screen_key(held)
        if self.criterion == "effects":
            if not self._learn(key, values, h, obs.frame if h is not None else None):
                self._forget_screen()
            elif h is not None:
                self._learn_screen(skey, h, mouse != self.prev_mouse and not (held and held.mouse_buttons))
            self.prev_pixels = obs.frame if h is not None else None
        self.prev_state, self.prev_frame = values, h
        self.prev_skey, self.prev_mouse = skey, mouse
        self.inputs.append(key)
        self.screen_inputs.append(skey)
        self.fired = bool(out)
        return out
