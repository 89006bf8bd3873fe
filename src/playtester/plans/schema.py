"""Explicit plans and plan configs: pydantic models, YAML loading with file/line/field errors, dumping.

A *plan* (``*.plan.yaml``) is what a QA person writes: an ordered list of nodes (where to go, what to do
there) and a set of rules (when a precondition holds, do this, with a priority)::

    version: 1
    name: complete the dungeon
    game: dungeon
    game_args: {variant: base}
    navigation: path                    # teleport | path | learned
    nodes:
      - actor: switch                   # an actor id ("switch-0") or kind ("switch": nearest instance)
        action: interact
        tolerance: 1.5                  # tiles from the target that count as arrived
      - actor: lava
        action: jump                    # face the target, then act (jump is a facing action)
      - at: [15, 7]                     # a world location instead of an actor
      - actor: shrine
        action: interact
        wait: 2                         # steps to stay after acting
    rules:
      - name: attack any enemy within 3 tiles
        when: {actor: enemy, within: 3}
        priority: 10
        action: attack
        tolerance: 1.2

A *plan config* (one per game, ``games/NAME.plan-config.yaml`` for bundled games, ``plan-config.yaml``
beside a game's ``playtester.toml`` otherwise) maps the plan's movement and gameplay actions to the
game's normal inputs, names the player actor, and holds the validations of every gameplay action
(defined once, in one place: `playtester.plans.validation`).
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from playtester import configfile
from playtester.errors import ConfigError

PLAN_SCHEMA = 1
CONFIG_SCHEMA = 1
NAVIGATIONS = ("teleport", "path", "learned")
Navigation = Literal["teleport", "path", "learned"]
DEFAULT_MOVES: dict[str, tuple[int, int]] = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


# ------------------------------------------------------------------------------------------ plan models
class Node(BaseModel):
    """One step of a plan: go to an actor or a location, optionally perform a gameplay action there.

    Attributes:
        name: a label for output and reports (derived from the action and target when left out).
        actor: target actor, an id (``switch-0``) or a kind (``switch``: the nearest instance).
        at: target world location ``[x, y]``, in the game's units (tiles for the dungeon).
        action: gameplay action performed on arrival (``interact``, ``attack``, ``jump``); none: just go.
        tolerance: distance from the target that counts as arrived.
        mode: navigation for this node only (overrides the plan's).
        face: arrive with a step towards the target, so the player faces it (default: for the config's
            ``face_actions``, e.g. jump).
        wait: steps to stay (idle) after arriving and acting.
        timeout_steps: steps allowed to reach the target; then the action is performed where the player
            is (as a tester would: "it is out of reach"), and its validation decides.
    """

    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    actor: str | None = Field(None, min_length=1)
    at: tuple[float, float] | None = None
    action: str | None = Field(None, min_length=1)
    tolerance: float = Field(1.0, ge=0)
    mode: Navigation | None = None
    face: bool | None = None
    wait: int = Field(0, ge=0)
    timeout_steps: int = Field(150, ge=1)

    @model_validator(mode="after")
    def _one_target(self) -> Node:
        if self.actor is not None and self.at is not None:
            raise ValueError("give either 'actor' or 'at', not both")
        if self.actor is None and self.at is None and self.action is None:
            raise ValueError("a node needs a target ('actor' or 'at'), an 'action', or both")
        return self

    def label(self) -> str:
        if self.name:
            return self.name
        where = self.actor or (f"({self.at[0]:g}, {self.at[1]:g})" if self.at else "here")
        return f"{self.action} {where}" if self.action else f"go to {where}"


class RuleWhen(BaseModel):
    """Preconditions of a rule: all must hold.

    Attributes:
        actor: an actor id or kind that must exist ...
        within: ... within this distance of the player (any distance when left out).
        features: an expression over probe features (``"hp > 1"``).
    """

    model_config = ConfigDict(extra="forbid")
    actor: str | None = Field(None, min_length=1)
    within: float | None = Field(None, gt=0)
    features: str | None = None

    @field_validator("features")
    @classmethod
    def _expr(cls, v: str | None) -> str | None:
        from playtester.expr import check_expr

        return check_expr(v, "when.features")

    @model_validator(mode="after")
    def _something(self) -> RuleWhen:
        if self.actor is None and self.features is None:
            raise ValueError("a rule's 'when' needs an 'actor' (with 'within') or 'features'")
        if self.within is not None and self.actor is None:
            raise ValueError("'within' needs an 'actor'")
        return self


class Rule(BaseModel):
    """(preconditions, priority, action): when ``when`` holds, the rule interrupts the nodes.

    Attributes:
        name: a label.
        when: the preconditions.
        priority: the highest-priority applicable rule acts.
        action: gameplay action performed at the matched actor (none: go there, e.g. to collect it).
        tolerance: distance to the matched actor that counts as arrived.
        give_up_steps: steps spent on one matched actor before the rule ignores it.
        cooldown_steps: steps after performing its action before the rule performs it again (a game's
            own cooldown: an attack pressed during it does nothing).
    """

    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    when: RuleWhen
    priority: int = 0
    action: str | None = Field(None, min_length=1)
    tolerance: float = Field(1.0, ge=0)
    give_up_steps: int = Field(40, ge=1)
    cooldown_steps: int = Field(0, ge=0)

    def label(self) -> str:
        if self.name:
            return self.name
        what = self.action or "go to"
        return f"{what} any {self.when.actor}" + (f" within {self.when.within:g}" if self.when.within else "")


class Plan(BaseModel):
    """An explicit plan: nodes followed in order, rules that interrupt them.

    Attributes:
        version: schema version (1).
        name: the plan's name (the test name).
        description: free text.
        game: the game spec it runs on by default (``--game`` overrides).
        game_args: game entry-point arguments (``{variant: moved}``).
        config: the plan config file, relative to this file (default: the game's).
        navigation: ``teleport``, ``path`` or ``learned``.
        seed: episode seed.
        max_steps: steps for the whole plan.
        stop_on_failure: end the run at the first failed validation (a test fails fast).
        success_event: a game event that must have happened by the end (``win``), if any.
        nodes: the nodes, in order.
        rules: the rules.
    """

    model_config = ConfigDict(extra="forbid")
    version: int = PLAN_SCHEMA
    name: str = Field("plan", min_length=1)
    description: str = ""
    game: str | None = None
    game_args: dict[str, Any] = Field(default_factory=dict)
    config: str | None = None
    navigation: Navigation = "path"
    seed: int = 0
    max_steps: int = Field(1500, ge=1)
    stop_on_failure: bool = True
    success_event: str | None = None
    nodes: list[Node] = Field(min_length=1)
    rules: list[Rule] = Field(default_factory=list)
    source: str | None = Field(None, exclude=True)  # the file it was loaded from (not part of the YAML)


# ------------------------------------------------------------------------------------- config models
class Control(BaseModel):
    """The game's normal inputs for one plan action: keys (and mouse) held, for a tap of ``frames``."""

    model_config = ConfigDict(extra="forbid")
    keys: list[str] = []
    mouse: tuple[int, int] | None = None
    buttons: list[int | str] = []
    frames: int | None = Field(None, ge=1, description="hold only the first N frames of the step (a tap)")
    description: str = ""

    @field_validator("keys")
    @classmethod
    def _keys(cls, v: list[str]) -> list[str]:
        from playtester.drive.inputs import check_key_names

        return check_key_names(v)


class ValidationSpec(BaseModel):
    """The validation of one gameplay action (optionally on one kind of target), the article's Figure 7.

    Before the action, a pre-action callback captures the state (every feature, the player's position,
    counts of actors by kind, the target's attributes). After it, the check is bound to ``event`` (it
    runs when the event arrives; no event within ``timeout_steps`` fails) or runs ``after_steps`` steps
    later. ``check`` is an expression over the state after (``door_open``, ``count_enemy``), the state
    before (``before_door_open``), ``moved`` (distance the player moved), and the bound event's data
    (``event_x``).
    """

    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    action: str = Field(min_length=1)
    target: str | None = Field(None, description="target kind (or id) this validation is for; none: any")
    event: str | None = None
    after_steps: int | None = Field(None, ge=0)
    timeout_steps: int = Field(5, ge=1)
    check: str | None = None
    capture: list[str] = Field(default_factory=list, description="features to show in reports")

    @field_validator("check")
    @classmethod
    def _expr(cls, v: str | None) -> str | None:
        if v is not None:
            from playtester.expr import compile_expr

            try:
                compile_expr(v, "check")
            except ConfigError as e:
                raise ValueError(str(e)) from None
        return v

    @model_validator(mode="after")
    def _bound(self) -> ValidationSpec:
        if self.event is None and self.after_steps is None:
            raise ValueError("a validation is bound to an 'event' or runs 'after_steps' steps after the action")
        if self.event is not None and self.after_steps is not None:
            raise ValueError("give either 'event' or 'after_steps', not both")
        return self

    def label(self) -> str:
        return self.name or f"{self.action}" + (f" {self.target}" if self.target else "")


class PlanConfig(BaseModel):
    """How plans drive one game: the player actor, controls, moves, validations.

    Attributes:
        player: the actor id the plan agent moves (``hero``).
        controls: plan action name -> the game's inputs. Must hold the moves and ``idle``; the others are
            the gameplay actions plans may name (``interact``, ``attack``, ``jump``).
        moves: move name -> (dx, dy) one step moves the player by, in world units.
        idle: the control that does nothing.
        face_actions: actions performed facing the target (arrive with a step towards it).
        busy_attrs: player attributes that, when true, mean "wait" (``airborne``).
        done_events: game events after which the plan cannot go on (``hero_died``).
        avoid: actor kinds that paths keep away from when they can (``enemy``).
        validations: the validations of the gameplay actions.
        actor_descriptions: optional words about actor kinds, for text-to-plan.
        actor_categories: optional, for text-to-plan: actor kind -> the general concepts the kind is an
            instance of, as the game's designer would say ("coin": [money, treasure]; "enemy": [monster,
            animal]). A noun WordNet files under one of them (its hypernym closure) names the kind ("florin"
            is a monetary unit). Each is a word or collocation ("place of worship"), its most frequent
            WordNet sense, or "word#N" for its N-th sense ("memorial#3": the structure).
        action_categories: optional, for text-to-plan: gameplay action (or ``go``, for moving to and taking
            things) -> general verbs it is a kind of, as WordNet senses in the same notation ("attack":
            ["cut#1", "hit#3"]); a verb filed under one of them (at most three levels up) names the action.
        vocabulary: optional, for text-to-plan: the game's own words, taught once by a tester: word (or
            collocation) -> the gameplay action, ``go`` or the actor kind it names ("heave": interact,
            "bulkhead": door). A taught word names its entry as the description's own words do.
    """

    model_config = ConfigDict(extra="forbid")
    version: int = CONFIG_SCHEMA
    player: str = "player"
    controls: dict[str, Control]
    moves: dict[str, tuple[int, int]] = Field(default_factory=lambda: dict(DEFAULT_MOVES))
    idle: str = "idle"
    face_actions: list[str] = Field(default_factory=list)
    busy_attrs: list[str] = Field(default_factory=lambda: ["airborne", "busy"])
    done_events: list[str] = Field(default_factory=list)
    avoid: list[str] = Field(default_factory=list, description="actor kinds paths keep away from (enemy)")
    validations: list[ValidationSpec] = Field(default_factory=list)
    actor_descriptions: dict[str, str] = Field(default_factory=dict)
    actor_categories: dict[str, list[str]] = Field(default_factory=dict)
    action_categories: dict[str, list[str]] = Field(default_factory=dict)
    vocabulary: dict[str, str] = Field(default_factory=dict)
    source: str | None = Field(None, exclude=True)

    @field_validator("actor_categories", "action_categories")
    @classmethod
    def _categories(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        for kind, words in v.items():
            for w in words:
                if not re.fullmatch(r"[A-Za-z][A-Za-z' -]*(#[1-9][0-9]*(,[1-9][0-9]*)*)?", w.strip()):
                    raise ValueError(f"{kind!r}: {w!r} is not a word, a collocation or "
                                     "'word#N' (its N-th WordNet sense)")
        return v

    @model_validator(mode="after")
    def _complete(self) -> PlanConfig:
        missing = [m for m in [*self.moves, self.idle] if m not in self.controls]
        if missing:
            raise ValueError(f"controls lack {', '.join(map(repr, missing))} (needed for moves and idle)")
        for v in self.validations:
            if v.action not in self.gameplay_actions:
                raise ValueError(f"validation {v.label()!r}: action {v.action!r} is not a gameplay action "
                                 f"of the controls ({', '.join(self.gameplay_actions) or 'none'})")
        for a in self.action_categories:
            if a not in [*self.gameplay_actions, "go"]:
                raise ValueError(f"action_categories: {a!r} is not a gameplay action of the controls or 'go'")
        for a in self.face_actions:
            if a not in self.controls:
                raise ValueError(f"face_actions: {a!r} is not a control")
        check_vocabulary(self.vocabulary, self.vocabulary_names)
        return self

    @property
    def vocabulary_names(self) -> list[str]:
        """What a taught word may name: the gameplay actions, ``go``, and the actor kinds the config describes
        (the player's among them: "protagonist: hero")."""
        kinds = {*self.actor_descriptions, *self.actor_categories, *self.avoid}
        return [*self.gameplay_actions, "go", *sorted(kinds)]

    @property
    def gameplay_actions(self) -> list[str]:
        """The controls that are neither moves nor idle."""
        return [n for n in self.controls if n not in self.moves and n != self.idle]


def check_vocabulary(vocabulary: dict[str, str], names: list[str], where: str = "vocabulary") -> None:
    """Raise ValueError when a taught word is not a word or names nothing of the game (``names``)."""
    for word, name in vocabulary.items():
        if not re.fullmatch(r"[A-Za-z][A-Za-z' _-]*", str(word).strip()):
            raise ValueError(f"{where}: {word!r} is not a word or a collocation")
        if name not in names:
            close = difflib.get_close_matches(str(name), names, n=1)
            raise ValueError(f"{where}: {word!r} names {name!r}, which is no gameplay action, 'go' or actor kind "
                             f"of this game ({', '.join(names)})" + (f"; did you mean {close[0]!r}?" if close else ""))


# --------------------------------------------------------------------------------------------- loading
def _item_label(item: dict[str, Any]) -> str | None:
    """How a node or rule is named in error paths: its name, else its action and actor."""
    return item.get("name") or " ".join(str(item[k]) for k in ("action", "actor") if item.get(k)) or None


def _check_version(source: configfile.Source, supported: int, what: str) -> None:
    v = source.data.get("version", supported)
    if v != supported:
        raise ConfigError(f"{source.where(('version',))}: field 'version': {what} schema version {v!r} is not "
                          f"supported (this playtester reads version {supported})")


def _plan_from(source: configfile.Source) -> Plan:
    configfile.expect_mapping(source, "plan", "version, name, nodes, ...")
    _check_version(source, PLAN_SCHEMA, "plan")
    plan = configfile.validate(source, Plan, _item_label)
    plan.source = str(source.path)
    return plan


def parse_plan(text: str, path: str | Path = "<plan>") -> Plan:
    """A plan from YAML text (errors name ``path``, the line and the field)."""
    return _plan_from(configfile.parse(text, path, "yaml", "plan"))


def load_plan(path: str | Path) -> Plan:
    """Load and validate a plan file.

    Raises:
        ConfigError: missing file, bad YAML, unknown or invalid field; names the file, line and field (every
            invalid field, one a line, with "did you mean" for misspelt ones).
    """
    return _plan_from(configfile.read(path, "yaml", what="plan"))


def load_config(path: str | Path) -> PlanConfig:
    """Load and validate a plan config file (errors name the file, line and field)."""
    source = configfile.read(path, "yaml", what="plan config")
    configfile.expect_mapping(source, "plan config", "version, player, controls, moves, validations, ...")
    _check_version(source, CONFIG_SCHEMA, "plan config")
    cfg = configfile.validate(source, PlanConfig, _item_label)
    cfg.source = str(source.path)
    return cfg


def config_path_for(spec: Any, plan: Plan | None = None) -> Path:
    """Where the plan config of a game is: the plan's ``config`` (relative to the plan file), else
    ``games/NAME.plan-config.yaml`` for bundled games, else ``plan-config.yaml`` beside the game's
    ``playtester.toml`` (or the game file)."""
    if plan is not None and plan.config:
        base = Path(plan.source).parent if plan.source else Path.cwd()
        return (base / plan.config).resolve()
    if spec.config_path:
        cp = Path(spec.config_path)
        bundled = cp.with_name(f"{cp.stem}.plan-config.yaml")
        if bundled.is_file():
            return bundled
        return cp.with_name("plan-config.yaml")
    if spec.kind == "file":
        return Path(spec.target).with_name("plan-config.yaml")
    return Path.cwd() / "plan-config.yaml"


def config_for(spec: Any, plan: Plan | None = None) -> PlanConfig:
    """The plan config of a game (see `config_path_for`).

    Raises:
        ConfigError: no plan config there (the message says where it was looked for), or it is invalid.
    """
    path = config_path_for(spec, plan)
    if not path.is_file():
        raise ConfigError(f"no plan config for {spec.text}: expected {path} (controls: the game's keys for "
                          "each plan action; player: the actor to move; validations); or name one with "
                          "'config:' in the plan")
    return load_config(path)


def check_plan_against(plan: Plan, cfg: PlanConfig) -> None:
    """Check that every action a plan names is a gameplay action of the config.

    Raises:
        ConfigError: naming the plan file, the line and the field, with suggestions.
    """
    known = cfg.gameplay_actions
    text = Path(plan.source).read_text(encoding="utf-8") if plan.source and Path(plan.source).is_file() else ""
    where = configfile.Source(Path(plan.source or "<plan>"), text, "yaml", None)
    errors = []
    for kind, items in (("nodes", plan.nodes), ("rules", plan.rules)):
        for i, item in enumerate(items):
            if item.action is not None and item.action not in known:
                close = difflib.get_close_matches(item.action, known, n=2)
                line = where.line_of((kind, i, "action"))
                errors.append(f"{plan.source or '<plan>'}:{line}: field '{kind}[{i}] ({item.label()!r}).action': "
                              f"unknown action {item.action!r}; the game's actions are {', '.join(known)}"
                              + (f" (did you mean {close[0]!r}?)" if close else ""))
    if errors:
        raise ConfigError("\n".join(errors))


# --------------------------------------------------------------------------------------------- dumping
def plan_to_dict(plan: Plan) -> dict[str, Any]:
    """A plan as plain data, defaults left out (what a person would write)."""
    data = plan.model_dump(exclude_defaults=True, mode="json")
    data = {"version": PLAN_SCHEMA, **data}
    for n in data.get("nodes", []):
        if "at" in n:
            n["at"] = [float(v) if v != int(v) else int(v) for v in n["at"]]
    return data


def dump_plan(plan: Plan) -> str:
    """A plan as YAML text that `parse_plan` reads back to the same plan."""

    class _Dumper(yaml.SafeDumper):
        pass

    def _flow_list(dumper: yaml.SafeDumper, data: list[Any]) -> Any:
        flow = all(isinstance(x, (int, float, str)) for x in data) and len(data) <= 4
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)

    _Dumper.add_representer(list, _flow_list)
    return yaml.dump(plan_to_dict(plan), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)
