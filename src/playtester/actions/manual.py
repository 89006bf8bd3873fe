"""Manual action spaces: named input combinations written by a person in a YAML file.

```yaml
version: 1
actions:
  - name: right
    keys: [RIGHT]
  - name: jump right
    keys: [RIGHT, SPACE]
  - name: fire                # a tap: F held for 2 frames of the step, then released
    keys: [f]
    frames: 2
    when: "ammo > 0"          # valid only while the probe feature ammo is positive
  - name: aim top left
    mouse: [80, 60]
    buttons: [left]
  - name: stick right
    axes: {"0.0": 1.0}        # "joystick.axis": value
    joy_buttons: ["0.1"]      # "joystick.button"
```
Errors name the file, the line, the entry (index and name) and the field; every error is listed.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from playtester import configfile
from playtester.actions.space import Action, ActionSpace, filter_blacklist
from playtester.drive.inputs import InputFrame, check_key_names, key_code, mouse_button
from playtester.errors import ConfigError, UsageError

SCHEMA_VERSION = 1


def _pair(text: str, what: str) -> tuple[int, int]:
    try:
        a, b = str(text).split(".")
        return int(a), int(b)
    except ValueError:
        raise ValueError(f"{what} {text!r} must be written 'joystick.index', e.g. '0.1'") from None


class ManualAction(BaseModel):
    """One entry of a manual action space file."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    description: str = ""
    keys: list[str] = []
    mouse: tuple[int, int] | None = None
    buttons: list[int | str] = []
    wheel: tuple[int, int] = (0, 0)
    axes: dict[str, float] = {}
    joy_buttons: list[str] = []
    hats: dict[str, tuple[int, int]] = {}
    frames: int | None = Field(None, ge=1, description="hold only the first N frames of the step")
    when: str | None = None

    @field_validator("keys")
    @classmethod
    def _keys(cls, v: list[str]) -> list[str]:
        return check_key_names(v)

    @field_validator("buttons")
    @classmethod
    def _buttons(cls, v: list[int | str]) -> list[int | str]:
        for b in v:
            try:
                mouse_button(b)
            except UsageError as e:
                raise ValueError(str(e)) from None
        return v

    @field_validator("axes")
    @classmethod
    def _axes(cls, v: dict[str, float]) -> dict[str, float]:
        for k, val in v.items():
            _pair(k, "axis")
            if not -1.0 <= val <= 1.0:
                raise ValueError(f"axis {k} value {val} is outside [-1, 1]")
        return v

    @field_validator("joy_buttons")
    @classmethod
    def _joy_buttons(cls, v: list[str]) -> list[str]:
        for k in v:
            _pair(k, "joystick button")
        return v

    @field_validator("when")
    @classmethod
    def _when(cls, v: str | None) -> str | None:
        from playtester.expr import check_expr

        return check_expr(v, "when")

    def to_action(self) -> Action:
        frame = InputFrame.make(
            keys=self.keys, mouse=self.mouse, buttons=self.buttons, wheel=self.wheel,
            axes={_pair(k, "axis"): v for k, v in self.axes.items()},
            joy_buttons=[_pair(b, "joystick button") for b in self.joy_buttons],
            hats={_pair(k, "hat"): v for k, v in self.hats.items()},
        )
        return Action(self.name, frame, mode="hold", hold_frames=self.frames, when=self.when,
                      description=self.description)


class ManualFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = SCHEMA_VERSION
    actions: list[ManualAction] = Field(min_length=1)
    analysis: dict[str, Any] | None = None  # kept by ``playtester analyze --json``; ignored here


def load_manual(path: str | Path, blacklist: Iterable[str] = ()) -> ActionSpace:
    """Load and validate a manual action space file.

    Raises:
        ConfigError: the file is missing or not YAML, or entries are invalid: every error, each naming the
            file, line, entry and field (``a.yaml:6: field 'actions[1] ('jump').keys': ...``).
    """
    source = configfile.read(path, "yaml", what="manual action space")
    configfile.expect_mapping(source, "manual action space", "version, actions")
    version = source.data.get("version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise ConfigError(f"{source.where(('version',))}: field 'version': schema version {version!r} is not "
                          f"supported (this playtester reads version {SCHEMA_VERSION})")
    top = configfile.validate(source, ManualFile)
    errors, seen = [], set()
    for i, model in enumerate(top.actions):
        if model.name in seen:
            errors.append(source.error(("actions", i, "name"), f"duplicate action name {model.name!r}; "
                                       "give each action a name of its own"))
        seen.add(model.name)
    if errors:
        raise ConfigError("\n".join(errors))
    actions = [m.to_action() for m in top.actions]
    banned = frozenset(key_code(k) for k in blacklist)
    kept, warnings = filter_blacklist(actions, banned, str(source.path))
    if not kept:
        raise ConfigError(f"{source.path}: every action presses a blacklisted key; nothing is left to play")
    return ActionSpace("manual", kept, warnings=warnings, source=str(source.path))
