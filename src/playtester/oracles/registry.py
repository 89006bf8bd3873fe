"""The oracle registry: every oracle kind with how it is made, its settings, and how its bugs are reported.

Adding an oracle is one module and one entry point: write the oracle class (``kind``, ``reset``, ``check``;
``error = True`` when its bugs are things that broke; a ``frames_needed(settings)`` class method when it needs
full-size frames) and, if it has settings, a pydantic model of its keys in the game config's ``[oracles]``
table (named after the kind, e.g. ``stuck_steps``) as the class's ``settings``, made with a ``from_settings``
class method; then name the class in the entry-point group ``playtester.oracles`` (``KIND = "module:Class"``:
playtester's own in its pyproject.toml, a user's in their package's). `register` does the same in code. The
``[oracles]`` table is validated against the union of the registered settings (plus ``enabled``), with the
file's line numbers and "did you mean" for typos (`oracle_settings`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

from playtester import configfile
from playtester.plugins import PluginError, Registry


@dataclass(frozen=True)
class OracleKind:
    """One registered oracle."""

    kind: str
    make: Callable[[Any], Any]  # the validated [oracles] settings -> a fresh oracle
    settings: type[BaseModel] | None  # its keys of the [oracles] table, or None
    error: bool  # True: its bugs are things that broke (JUnit <error>); False: checks that failed (<failure>)
    frames: Callable[[Any], str | None] = lambda s: None  # settings -> "full" when it needs full-size frames


def _oracle_kind(name: str, cls: Any) -> OracleKind:
    """An oracle class (its ``kind``, ``settings`` and ``error`` attributes) as the registry keeps it."""
    if isinstance(cls, OracleKind):
        return cls
    kind = getattr(cls, "kind", None)
    if kind != name or not callable(getattr(cls, "check", None)):
        raise TypeError(f"a playtester.oracles entry point names an oracle class whose kind is its name "
                        f"({name!r}) with reset() and check(obs, step); got {cls!r} of kind {kind!r}")
    settings = getattr(cls, "settings", None)
    return OracleKind(kind, (lambda s: cls.from_settings(s)) if settings else (lambda s: cls()), settings,
                      bool(getattr(cls, "error", False)), getattr(cls, "frames_needed", lambda s: None))


REGISTRY: Registry[OracleKind] = Registry("oracles", _oracle_kind)


def _all() -> dict[str, OracleKind]:
    return REGISTRY.load_all()


def register(cls: type, settings: type[BaseModel] | None = None, *, error: bool = False) -> None:
    """Register an oracle class in code (its ``kind`` attribute names it; an installed oracle is an entry point of
    ``playtester.oracles`` instead). With ``settings``, the class is made with ``cls.from_settings(validated)``,
    else with ``cls()``.

    Raises:
        ValueError: the kind is registered already, or a settings key is another oracle's.
    """
    kind = cls.kind
    if kind in REGISTRY:
        raise ValueError(f"oracle {kind!r} is registered twice")
    settings = settings if settings is not None else getattr(cls, "settings", None)
    clash = _clash(kind, settings, _all())
    if clash:
        raise ValueError(clash)
    REGISTRY.add(kind, OracleKind(kind, (lambda s: cls.from_settings(s)) if settings else (lambda s: cls()),
                                  settings, error or bool(getattr(cls, "error", False)),
                                  getattr(cls, "frames_needed", lambda s: None)))
    settings_model.cache_clear()


def _clash(kind: str, settings: type[BaseModel] | None, others: dict[str, OracleKind]) -> str | None:
    taken = {f: k.kind for k in others.values() if k.kind != kind and k.settings for f in k.settings.model_fields}
    clash = [f for f in (settings.model_fields if settings else ()) if f in taken or f == "enabled"]
    if clash:
        return (f"oracle {kind!r}: settings key {clash[0]!r} is already "
                f"{taken.get(clash[0], 'the list of enabled oracles')!r}'s")
    return None


def kinds() -> list[str]:
    """Every registered oracle kind, in registration order (entry points as declared, then code's)."""
    return REGISTRY.names()


def error_kinds() -> list[str]:
    """Kinds whose bugs are things that broke (JUnit ``<error>``), not checks that failed."""
    return [k for k, o in _all().items() if o.error]


def oracle(kind: str) -> OracleKind:
    """The registered oracle ``kind``."""
    return REGISTRY.get(kind)


class _Enabled(BaseModel):
    model_config = ConfigDict(extra="forbid")
    enabled: list[str] = Field(default_factory=kinds, description="oracles that run (all registered by default)")

    @field_validator("enabled")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        unknown = [k for k in v if k not in REGISTRY]
        if unknown:
            raise ValueError(f"unknown oracle {unknown[0]!r}; known: {', '.join(REGISTRY.names())}")
        return v


def frames_needed(settings: Any) -> str | None:
    """``"full"`` when an enabled oracle needs the game's full-size frames (its class's ``frames_needed(settings)``
    says so: the texture oracle with a model), else None: the campaign's small capture serves every oracle."""
    needs = {REGISTRY.get(k).frames(settings) for k in settings.enabled}
    return "full" if "full" in needs else None


@functools.cache
def settings_model() -> type[BaseModel]:
    """The ``[oracles]`` table's model: ``enabled`` and every registered oracle's settings."""
    oracles = _all()
    for o in oracles.values():
        clash = _clash(o.kind, o.settings, oracles)
        if clash:
            raise PluginError(clash)
    bases = tuple(o.settings for o in oracles.values() if o.settings is not None)
    return create_model("OracleSettings", __base__=(_Enabled, *bases))


def oracle_settings(spec: Any) -> BaseModel:
    """The game's ``[oracles]`` table (``spec.config.oracles``) validated against the registered oracles.

    Raises:
        ConfigError: every invalid key, as ``FILE:LINE: field 'oracles.KEY': message`` when the table is the
            one in the game's config file (else naming the game), with "did you mean" for typos.
    """
    return configfile.section(spec.config.oracles, settings_model(), spec.config_path, "oracles", spec.text)
