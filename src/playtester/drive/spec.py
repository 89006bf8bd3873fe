"""Game specs and per-game configuration.

A *game spec* names a game:

- a bundled name: ``blockmaze``
- a module entry point: ``pygame.examples.aliens:main``, or a module that runs its loop on import
- a file: ``path/to/game.py`` or ``path/to/game.py:main``
- a folder with a ``playtester.toml`` naming its ``entry``
- a Gymnasium id: ``gym:MiniGrid-Empty-5x5-v0``

A game may carry a ``playtester.toml`` (or ``[tool.playtester]`` in its ``pyproject.toml``) beside it,
validated by `GameConfig`. Bundled games keep theirs as ``games/NAME.toml``.
"""

from __future__ import annotations

import importlib.util
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from playtester.errors import ConfigError, GameSpecError

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
DEFAULT_BLACKLIST = ["ESCAPE", "F11", "PAUSE"]


class InitStep(BaseModel):
    """One step of the init sequence that gets a game past its menus before an episode starts."""

    model_config = ConfigDict(extra="forbid")
    keys: list[str] = []
    mouse: tuple[int, int] | None = None
    buttons: list[int | str] = []
    frames: int = Field(1, ge=1)


ORACLE_KINDS = ["crash", "hang", "memory", "stuck", "assertion", "balance", "error_log", "frame_time"]


class OracleSettings(BaseModel):
    """The ``[oracles]`` table of a game's config: which oracles run and how sensitive they are."""

    model_config = ConfigDict(extra="forbid")
    enabled: list[str] = Field(default_factory=lambda: list(ORACLE_KINDS))
    stuck_steps: int = Field(30, ge=2, description="n: steps in the stuck oracle's moving window")
    stuck_threshold: float = Field(1e-6, ge=0, description="max |state - moving average| that counts as stuck")
    stuck_min_inputs: int = Field(3, ge=1, description="distinct inputs in the window for 'inputs keep arriving'")
    stuck_features: list[str] | None = Field(None, description="features of the stuck state (all by default)")
    stuck_screen: bool = Field(True, description="also report a screen frozen for stuck_steps steps")
    balance: dict[str, tuple[float, float]] = Field(default_factory=dict,
                                                    description="designed ranges: feature or event.field")
    frame_budget_ms: float = Field(250.0, gt=0, description="wall-clock game work one frame may take")

    @field_validator("enabled")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        unknown = [k for k in v if k not in ORACLE_KINDS]
        if unknown:
            raise ValueError(f"unknown oracle {unknown[0]!r}; known: {', '.join(ORACLE_KINDS)}")
        return v

    @field_validator("balance")
    @classmethod
    def _ranges(cls, v: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        for k, (lo, hi) in v.items():
            if lo > hi:
                raise ValueError(f"balance range of {k!r} has low {lo} above high {hi}")
        return v


class GameConfig(BaseModel):
    """How to run one game. Every field has a default; a ``playtester.toml`` overrides some."""

    model_config = ConfigDict(extra="forbid")
    entry: str | None = Field(None, description="module:function or file.py[:function], relative to the config")
    frames_per_action: int = Field(10, ge=1, description="frames each action is held (the paper's 10)")
    fps: float = Field(60.0, gt=0, description="virtual frame rate used when the game does not pass one")
    init: list[InitStep] = Field(default_factory=list, description="inputs applied at reset, before the agent")
    done_events: list[str] = Field(default_factory=list, description="probe events that end an episode")
    done_when: str | None = Field(None, description="expression over probe features that ends an episode")
    actions: str | None = Field(None, description="manual action space (YAML) used by default, relative to "
                                "the config file")
    blacklist: list[str] = Field(default_factory=lambda: list(DEFAULT_BLACKLIST),
                                 description="keys no action space may press (quit, pause, fullscreen)")
    reward_feature: str | None = Field(None, description="probe feature whose increase is the reward")
    features: list[str] | None = Field(None, description="probe features of the feature observation, in order")
    game_args: dict[str, Any] = Field(default_factory=dict, description="keyword arguments of the entry function")
    joysticks: int = Field(0, ge=0, le=8, description="virtual joysticks plugged in")
    max_episode_steps: int = Field(1000, ge=1)
    step_timeout_s: float = Field(10.0, gt=0, description="wall-clock seconds a step may take before it is a hang")
    start_timeout_s: float = Field(60.0, gt=0, description="wall-clock seconds to reach the first frame")
    virtual_time: bool = Field(True, description="also virtualize time.time/monotonic/perf_counter in the game")
    memory_limit_mb: int | None = Field(None, ge=0, description="MiB of data each episode process (and the "
                                        "analysis in it) may use: RLIMIT_DATA; unset: half the machine's "
                                        "memory split over the workers; 0: no limit")
    analysis_seconds: float = Field(15.0, gt=0, description="CPU seconds the action-space analysis may take in "
                                    "the game process; past it the analysis gives up (the blind space is used, "
                                    "with a warning, where the analysis was not asked for explicitly); the "
                                    "first fifth of it may fork paths, the rest follows one side")
    analysis_max_forks: int = Field(1000, ge=1, description="forks of the symbolic execution per frame; past "
                                    "them later branches follow the side the game takes now")
    oracles: OracleSettings = Field(default_factory=OracleSettings)
    abstraction: str = Field("auto", description="state abstraction for coverage: auto, features, scene, pixels")
    feature_ranges: dict[str, tuple[float, float]] = Field(
        default_factory=dict, description="ranges of probe features for the features abstraction: each ranged "
        "feature is cut into feature_buckets equal intervals (Wuji's state abstraction); others are rounded")
    feature_buckets: int = Field(10, ge=1, description="intervals per ranged feature (Wuji's m)")
    agent_features: list[str] | None = Field(
        None, description="probe features a learning agent takes as input (Wuji's policy network), when it "
        "should see more than coverage counts (where the boss is, which way the hero faces); default: features")
    position_cell: float = Field(1.0, gt=0, description="size of a position-map cell, in the game's units")
    position: str = Field("auto", description="where the player's position comes from, for the map: auto, "
                          "features, or entity:NAME")
    cell_features: list[str] = Field(default_factory=list, description="probe features that tell game states "
                                     "apart beyond the player's position (Go-Explore's domain-knowledge cells: "
                                     "a level, keys held, buffs); NAME joins each cell's key with its integer "
                                     "part, NAME:STEP with floor(value / STEP), NAME:log2 with a log2 bucket "
                                     "(0 alone, then (0,1], (1,3], (3,7], ...)")

    @field_validator("feature_ranges")
    @classmethod
    def _feature_ranges(cls, v: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        for k, (lo, hi) in v.items():
            if not hi > lo:
                raise ValueError(f"feature range of {k!r} must have its high above its low, got [{lo}, {hi}]")
        return v

    @field_validator("cell_features")
    @classmethod
    def _cell_features(cls, v: list[str]) -> list[str]:
        for entry in v:
            cell_feature(entry)
        return v

    @field_validator("done_when")
    @classmethod
    def _check_expr(cls, v: str | None) -> str | None:
        if v is not None:
            from playtester.expr import compile_expr

            try:
                compile_expr(v, "done_when")
            except ConfigError as e:
                raise ValueError(str(e)) from None
        return v


@dataclass(frozen=True)
class GameSpec:
    """A resolved game: what to run, from where, and how. Picklable."""

    text: str
    kind: Literal["module", "file", "gym"]
    target: str  # module name, file path, or Gymnasium id
    function: str | None = None
    root: str | None = None  # folder the game runs in (cwd and sys.path[0])
    config: GameConfig = field(default_factory=GameConfig)
    config_path: str | None = None

    @property
    def name(self) -> str:
        if self.kind == "gym":
            return self.text
        if self.kind == "file":
            return Path(self.target).stem
        return self.target.rsplit(".", 1)[-1]

    def with_config(self, **overrides: Any) -> GameSpec:
        """A copy with some config fields replaced (validated)."""
        data = self.config.model_dump() | overrides
        try:
            cfg = GameConfig.model_validate(data)
        except ValidationError as e:
            raise ConfigError(_explain(e, "config override")) from None
        return GameSpec(self.text, self.kind, self.target, self.function, self.root, cfg, self.config_path)


def bundled_games() -> list[str]:
    """Names of the games shipped with playtester."""
    return sorted(p.stem for p in GAMES_DIR.glob("*.py") if not p.stem.startswith("_"))


def _explain(err: ValidationError, where: str) -> str:
    lines = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"]) or "(top level)"
        lines.append(f"{where}: field '{loc}': {e['msg']}")
    fields = ", ".join(GameConfig.model_fields)
    return "\n".join(lines) + f"\n(known fields: {fields})"


def cell_feature(entry: str) -> tuple[str, float | str | None]:
    """Parse one ``cell_features`` entry: ``NAME`` (integer part), ``NAME:STEP`` (floor of value / STEP) or
    ``NAME:log2`` (``ceil(log2(1 + |value|))`` with the value's sign: 0 has a bucket of its own).

    Returns:
        ``(name, bucket)`` with bucket None, the step, or ``"log2"``.

    Raises:
        ValueError: the entry is malformed (the message says what a valid one looks like).
    """
    name, sep, how = entry.partition(":")
    name, how = name.strip(), how.strip()
    if not name:
        raise ValueError(f"cell feature {entry!r} has no feature name; write NAME, NAME:STEP or NAME:log2")
    if not sep:
        return name, None
    if how == "log2":
        return name, "log2"
    try:
        step = float(how)
    except ValueError:
        step = float("nan")
    if not step > 0 or step == float("inf"):
        raise ValueError(f"cell feature {entry!r}: after the colon write a positive bucket size (e.g. "
                         f"{name}:16) or log2, not {how!r}")
    return name, step


def load_config(path: Path, table: str | None = None) -> GameConfig:
    """Read and validate a ``playtester.toml`` (or a ``[tool.playtester]`` table of a pyproject)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}; fix the file or remove it") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
    if table:
        for part in table.split("."):
            data = data.get(part, {})
    try:
        return GameConfig.model_validate(data)
    except ValidationError as e:
        raise ConfigError(_explain(e, str(path))) from None


def _config_beside(folder: Path) -> tuple[GameConfig, Path | None]:
    toml = folder / "playtester.toml"
    if toml.is_file():
        return load_config(toml), toml
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        try:
            has = "playtester" in tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
        except (tomllib.TOMLDecodeError, OSError):
            has = False
        if has:
            return load_config(pyproject, "tool.playtester"), pyproject
    return GameConfig(), None


def resolve(text: str, config: str | Path | None = None, **overrides: Any) -> GameSpec:
    """Resolve a game spec string into a `GameSpec`, with its configuration.

    Args:
        text: the game spec (see the module docstring).
        config: an explicit ``playtester.toml`` to use instead of the one found beside the game.
        **overrides: config fields to replace (e.g. ``frames_per_action=4``).

    Raises:
        GameSpecError: the spec names nothing runnable; the message lists the forms accepted.
        ConfigError: the config file is invalid; the message names the file and field.
    """
    spec = _resolve(text.strip())
    if config is not None:
        path = Path(config)
        spec = GameSpec(spec.text, spec.kind, spec.target, spec.function, spec.root, load_config(path), str(path))
    return spec.with_config(**overrides) if overrides else spec


def _resolve(text: str) -> GameSpec:
    if not text:
        raise GameSpecError("empty game spec; " + _FORMS)
    if text.startswith("gym:"):
        gym_id = text[4:]
        if not gym_id:
            raise GameSpecError(f"game spec {text!r} names no Gymnasium id; write e.g. gym:CartPole-v1")
        cfg = GameConfig(frames_per_action=1, blacklist=[])
        return GameSpec(text, "gym", gym_id, config=cfg)

    if text in bundled_games():
        toml = GAMES_DIR / f"{text}.toml"
        cfg = load_config(toml) if toml.is_file() else GameConfig()
        return GameSpec(text, "module", f"playtester.games.{text}", "main", None, cfg, str(toml))

    path_part, _, func = text.partition(":") if not _looks_like_windows_path(text) else (text, "", "")
    path = Path(path_part).expanduser()
    if path.suffix == ".py" or path.exists():
        if path.is_dir():
            cfg, cfg_path = _config_beside(path)
            if not cfg.entry:
                raise GameSpecError(f"folder {path} has no playtester.toml with an 'entry' "
                                    "(e.g. entry = \"game.py:main\"); or name the file directly")
            entry_path, _, entry_func = cfg.entry.partition(":")
            target = path / entry_path
            if target.suffix == ".py":
                if not target.is_file():
                    raise GameSpecError(f"{cfg_path}: entry {cfg.entry!r}: no file {target}")
                return GameSpec(text, "file", str(target.resolve()), entry_func or None, str(path.resolve()),
                                cfg, str(cfg_path))
            return GameSpec(text, "module", entry_path, entry_func or None, str(path.resolve()), cfg, str(cfg_path))
        if not path.is_file():
            raise GameSpecError(f"game file {path} does not exist (from spec {text!r}); check the path")
        cfg, cfg_path = _config_beside(path.resolve().parent)
        return GameSpec(text, "file", str(path.resolve()), func or None, str(path.resolve().parent), cfg,
                        str(cfg_path) if cfg_path else None)

    module = path_part
    if not all(part.isidentifier() for part in module.split(".")):
        raise GameSpecError(f"game spec {text!r} is neither a bundled game, a file, nor a module; " + _FORMS)
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        found = None
    if found is None:
        raise GameSpecError(f"no bundled game, file or importable module named {module!r}; " + _FORMS)
    return GameSpec(text, "module", module, func or None, None, GameConfig(), None)


def _looks_like_windows_path(text: str) -> bool:
    return len(text) > 2 and text[1] == ":" and text[2] in "\\/"


_FORMS = ("use a bundled name (" + ", ".join(bundled_games() or ["none"]) + "), module:function, "
          "path/to/game.py[:function], a folder with playtester.toml, or gym:ENV_ID")
