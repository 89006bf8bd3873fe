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
Errors name the file, the entry (index, name and line) and the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

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
    actions: list[dict[str, Any]] = Field(min_length=1)
    analysis: dict[str, Any] | None = None  # kept by ``playtester analyze --json``; ignored here


def _entry_lines(text: str) -> list[int]:
    """1-based line of each entry under ``actions:``, for error messages."""
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return []
    if not isinstance(root, yaml.MappingNode):
        return []
    for key, value in root.value:
        if getattr(key, "value", None) == "actions" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


def load_manual(path: str | Path, blacklist: Iterable[str] = ()) -> ActionSpace:
    """Load and validate a manual action space file.

    Raises:
        ConfigError: the file is missing, not YAML, or an entry is invalid; names file, entry and field.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"manual action space {path}: cannot read: {e.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML: {e}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping with 'version' and 'actions' (a list of actions)")
    try:
        top = ManualFile.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        raise ConfigError(f"{path}: field '{'.'.join(map(str, err['loc']))}': {err['msg']}") from None
    if top.version != SCHEMA_VERSION:
        raise ConfigError(f"{path}: schema version {top.version} is not supported (this playtester reads "
                          f"version {SCHEMA_VERSION})")
    lines = _entry_lines(text)
    actions, seen = [], set()
    for i, entry in enumerate(top.actions):
        label = f"actions[{i}]" + (f" ({entry.get('name')!r})" if isinstance(entry, dict) and entry.get("name") else "")
        where = f"{path}:{lines[i]}" if i < len(lines) else str(path)
        try:
            model = ManualAction.model_validate(entry)
        except ValidationError as e:
            err = e.errors()[0]
            field = ".".join(map(str, err["loc"])) or "(entry)"
            raise ConfigError(f"{where}: {label}: field '{field}': {err['msg']}") from None
        if model.name in seen:
            raise ConfigError(f"{where}: {label}: field 'name': duplicate action name {model.name!r}")
        seen.add(model.name)
        actions.append(model.to_action())
    banned = frozenset(key_code(k) for k in blacklist)
    kept, warnings = filter_blacklist(actions, banned, str(path))
    if not kept:
        raise ConfigError(f"{path}: every action presses a blacklisted key; nothing is left to play")
    return ActionSpace("manual", kept, warnings=warnings, source=str(path))
