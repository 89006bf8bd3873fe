"""The oracle protocol, and the suite that runs every oracle on every step of an episode.

An oracle looks at `Observation`s, one step at a time, and returns `Finding`s. It keeps whatever
state it needs within an episode; `reset` starts a new episode.
"""

from __future__ import annotations

from typing import Any, Protocol

from playtester.drive.observation import Observation
from playtester.findings import Finding


class Oracle(Protocol):
    """One kind of bug detector."""

    kind: str

    def reset(self) -> None:
        """A new episode starts."""

    def check(self, obs: Observation, step: int) -> list[Finding]:
        """Findings at this step (``step`` 0 is the reset observation)."""


class OracleSuite:
    """Runs oracles on each step; a signature is reported once per episode (at its first step)."""

    def __init__(self, oracles: list[Oracle]) -> None:
        self.oracles = oracles
        self._seen: set[str] = set()
        self._noted: list[Any] = [o for o in oracles if hasattr(o, "notes")]  # oracles with ``notes(step)``

    @property
    def kinds(self) -> list[str]:
        return [o.kind for o in self.oracles]

    def reset(self) -> None:
        self._seen.clear()
        for o in self.oracles:
            o.reset()

    def check(self, obs: Observation, step: int) -> list[Finding]:
        out = []
        for oracle in self.oracles:
            for f in oracle.check(obs, step):
                if f.signature not in self._seen:
                    self._seen.add(f.signature)
                    out.append(f)
        return out

    def notes(self, step: int) -> dict[str, Any]:
        """What readers of the oracles' state need of step ``step``, from each oracle that has a
        ``notes(step)``: small picklable values that a suite checking where the game runs (`Worker.check_step`)
        sends back with the step (the texture oracle's ``judged``: its judgements of that step's frame)."""
        out: dict[str, Any] = {}
        for oracle in self._noted:
            out.update(oracle.notes(step) or {})
        return out
