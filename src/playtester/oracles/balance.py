"""Balance oracle: a probe value outside its designed range (e.g. damage per hit).

Ranges name a probe feature (``"damage": [0, 50]``) or a field of a probe event
(``"hit.damage": [1, 50]``: the ``damage`` of every ``hit`` event).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from playtester.drive.observation import Observation
from playtester.findings import Finding


class BalanceSettings(BaseModel):
    """The balance oracle's key of the ``[oracles]`` table: designed ranges."""

    model_config = ConfigDict(extra="forbid")
    balance: dict[str, tuple[float, float]] = Field(default_factory=dict,
                                                    description="designed ranges: feature or event.field")

    @field_validator("balance")
    @classmethod
    def _ranges(cls, v: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        for k, (lo, hi) in v.items():
            if lo > hi:
                raise ValueError(f"balance range of {k!r} has low {lo} above high {hi}")
        return v


class BalanceOracle:
    kind = "balance"
    settings = BalanceSettings  # its keys of the [oracles] table

    @classmethod
    def from_settings(cls, s: BalanceSettings) -> BalanceOracle:
        return cls({k: tuple(v) for k, v in s.balance.items()})

    def __init__(self, ranges: dict[str, tuple[float, float]]) -> None:
        self.features = {k: v for k, v in ranges.items() if "." not in k}
        self.event_fields: dict[str, list[tuple[str, tuple[float, float]]]] = {}
        for k, v in ranges.items():
            if "." in k:
                event, field = k.split(".", 1)
                self.event_fields.setdefault(event, []).append((field, v))

    def reset(self) -> None:
        pass

    def _out(self, name: str, value: float, lo: float, hi: float, step: int) -> Finding:
        side = "low" if value < lo else "high"
        return Finding("balance", f"{name} = {value:g} is outside its designed range [{lo:g}, {hi:g}]",
                       f"balance:{name}:{side}", step, "", {"value": value, "range": [lo, hi]})

    def check(self, obs: Observation, step: int) -> list[Finding]:
        out = []
        for name, (lo, hi) in self.features.items():
            v = obs.features.get(name)
            if v is not None and not lo <= v <= hi:
                out.append(self._out(name, v, lo, hi, step))
        if self.event_fields:
            for ev in obs.events:
                for field, (lo, hi) in self.event_fields.get(ev.name, ()):
                    v = ev.data.get(field)
                    if isinstance(v, (int, float)) and not lo <= v <= hi:
                        out.append(self._out(f"{ev.name}.{field}", float(v), lo, hi, step))
        return out
