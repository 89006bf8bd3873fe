"""Stuck oracle, after the Wuji paper (002_*.txt, Section III).

State level: the moving average of the previous n abstract states (the probe's numeric features) is
computed each step; when the current state differs from it by less than a threshold (max absolute
difference) while inputs keep arriving, the game is stuck. "Inputs keep arriving" means the agent held
at least ``min_inputs`` different non-empty inputs during the window, so an agent that merely pushes
against one wall is not a stuck game. Screen level: the screen stays identical for n steps while
inputs keep arriving. The oracle reports the first of the two, once per episode: a game that is stuck
stays stuck, and one report with the trace that got there is what a person needs.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from playtester.drive.observation import Observation
from playtester.findings import Finding, short_hash


class StuckOracle:
    kind = "stuck"

    def __init__(self, n: int = 30, threshold: float = 1e-6, min_inputs: int = 3,
                 features: list[str] | None = None, screen: bool = True) -> None:
        self.n, self.threshold, self.min_inputs = n, threshold, min_inputs
        self.features, self.screen = features, screen
        self.reset()

    def reset(self) -> None:
        self.states: deque[np.ndarray] = deque(maxlen=self.n)
        self.inputs: deque[object] = deque(maxlen=self.n)
        self.frames: deque[int] = deque(maxlen=self.n)
        self.names: list[str] | None = self.features
        self.fired = False

    def _inputs_arriving(self) -> bool:
        distinct = {h for h in self.inputs if h is not None and not h.is_empty()}
        return len(self.inputs) == self.n and len(distinct) >= self.min_inputs

    def check(self, obs: Observation, step: int) -> list[Finding]:
        if obs.done or self.fired:
            return []
        held = obs.info.get("held")
        out = []
        if obs.features:
            if self.names is None:
                self.names = sorted(obs.features)
            state = np.array([obs.features.get(k, 0.0) for k in self.names], dtype=np.float64)
            if len(self.states) == self.n and self._inputs_arriving():
                mean = np.mean(self.states, axis=0)
                if float(np.max(np.abs(state - mean))) < self.threshold:
                    where = ", ".join(f"{k}={v:g}" for k, v in zip(self.names, state, strict=True))
                    out.append(Finding("stuck", f"the game state did not change for {self.n} steps while "
                                       f"inputs kept arriving ({where})",
                                       f"stuck:state:{short_hash(repr(np.round(state, 3).tolist()))}", step, "",
                                       {"state": dict(zip(self.names, state.tolist(), strict=True))}))
                    self.states.clear()
            self.states.append(state)
        if self.screen and obs.frame is not None:
            h = hash(obs.frame.tobytes())
            if (len(self.frames) == self.n and all(f == h for f in self.frames) and self._inputs_arriving()
                    and not out):
                out.append(Finding("stuck", f"the screen stayed frozen for {self.n} steps while inputs kept "
                                   "arriving", f"stuck:screen:{short_hash(str(h))}", step, ""))
                self.frames.clear()
            self.frames.append(h)
        self.inputs.append(held)
        self.fired = bool(out)
        return out
