"""Game specs and per-game configuration.

A *game spec* names a game:

- a bundled name: ``blockmaze``
- a module entry point: ``pygame.examples.aliens:main``, or a module that runs its loop on import, or a
  package that runs through its ``__main__.py`` (``python -m package``); modules are looked up in the
  current directory first (as ``python -m`` does), then among the installed packages
- a file: ``path/to/game.py`` or ``path/to/game.py:main``
- a folder with a ``playtester.toml`` naming its ``entry``, or a package folder with a ``__main__.py``
- a Gymnasium id: ``gym:MiniGrid-Empty-5x5-v0``
- a ViZDoom map or scenario (the ``doom`` extra): ``doom:freedoom1:E1M1``, ``doom:my_way_home``
- a Godot 3 project folder: ``godot:path/to/project`` (godot3-server, headless) or ``godot-runner:path`` (frames);
  a bundled one by name (``godot:coinhop``)
- a game that speaks the remote-game protocol (docs/protocol.md): ``remote:COMMAND`` (e.g. ``remote:python -m
  playtester.games.remote.refgame``)

A game may carry a ``playtester.toml`` (or ``[tool.playtester]`` in its ``pyproject.toml``) beside it,
validated by `GameConfig`. Bundled games keep theirs as ``games/NAME.toml``.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from playtester import configfile
from playtester.errors import ConfigError, GameSpecError, UsageError

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
DEFAULT_BLACKLIST = ["ESCAPE", "F11", "PAUSE"]


class InitStep(BaseModel):
    """One step of the init sequence that gets a game past its menus before an episode starts."""

    model_config = ConfigDict(extra="forbid")
    keys: list[str] = []
    mouse: tuple[int, int] | None = None
    buttons: list[int | str] = []
    frames: int = Field(1, ge=1)


LEGACY_SECTION_KEYS = {  # top-level key -> (section, key): where these keys live since the sections exist
    "abstraction": ("coverage", "abstraction"), "feature_ranges": ("coverage", "feature_ranges"),
    "feature_buckets": ("coverage", "feature_buckets"), "position": ("coverage", "position"),
    "position_cell": ("coverage", "position_cell"), "agent_features": ("agent", "features"),
    "cell_features": ("agent", "cell_features")}


class GameConfig(BaseModel):
    """How to run one game. Every field has a default; a ``playtester.toml`` overrides some."""

    model_config = ConfigDict(extra="forbid")
    entry: str | None = Field(None, description="module:function or file.py[:function], relative to the config")
    cwd: str | None = Field(None, description="the folder the game runs in, relative to the config's folder "
                            "(default: the game's project root, found from its entry file and the paths its code "
                            "opens; docs: game specs)")
    frames_per_action: int = Field(10, ge=1, description="frames each action is held (the paper's 10)")
    fps: float = Field(60.0, gt=0, description="virtual frame rate used when the game does not pass one")
    init: list[InitStep] = Field(default_factory=list, description="inputs applied at reset, before the agent")
    done_events: list[str] = Field(default_factory=list, description="probe events that end an episode")
    done_when: str | None = Field(None, description="expression over probe features that ends an episode")
    actions: str | None = Field(None, description="manual action space (YAML) used by default, relative to "
                                "the config file")
    blacklist: list[str] = Field(default_factory=lambda: list(DEFAULT_BLACKLIST),
                                 description="keys no action space may press (quit, pause, fullscreen)")
    analysis_allow_keys: list[str] = Field(default_factory=list,
                                           description="keys the action-space analysis keeps though it finds that "
                                           "they quit or pause the game (by default such a key is blacklisted for "
                                           "the analysed space and the analysis runs again without it): a quit "
                                           "or pause key the tests should press")
    reward_feature: str | None = Field(None, description="probe feature whose increase is the reward")
    features: list[str] | None = Field(None, description="probe features of the feature observation, in order")
    game_args: dict[str, Any] = Field(default_factory=dict, description="keyword arguments of the entry function")
    joysticks: int = Field(0, ge=0, le=8, description="virtual joysticks plugged in")
    max_episode_steps: int = Field(1000, ge=1)
    step_timeout_s: float = Field(10.0, gt=0, description="wall-clock seconds a step may take before it is a hang")
    slow_frame_limit_s: float = Field(120.0, gt=0, description="a step still working at step_timeout_s (the game's "
                                      "process using CPU and reading or writing files, e.g. saving screenshots) is "
                                      "waited for up to this long in all, then it is a hang; a slow frame that "
                                      "finishes is the frame_time oracle's")
    start_timeout_s: float = Field(60.0, gt=0, description="wall-clock seconds to reach the first frame")
    virtual_time: bool = Field(True, description="also virtualize time.time/monotonic/perf_counter in the game")
    seeded_entropy: bool = Field(True, description="OS entropy in a pygame game or Gymnasium environment "
                                 "(os.urandom, secrets, random.SystemRandom, uuid4) drawn from the episode's seed, so "
                                 "a game that seeds itself from it plays the same each time")
    fresh_home: bool = Field(True, description="each episode of a game whose Python runs in the episode process "
                             "starts with a HOME of its own (and XDG config, data and state folders in it), empty or "
                             "a copy of `home`, so what one episode saves (a high score, settings) is not there for "
                             "the next and the same seed plays the same on any machine; caches stay shared")
    home: str | None = Field(None, description="a folder copied as every episode's starting HOME (with "
                             "fresh_home), relative to the config file: saved settings a test needs")
    sandbox: bool = Field(False, description="run the episodes under bubblewrap (`--sandbox`): no network, the "
                          "filesystem read-only but for the worker's temporary folder (the episodes' copies of the "
                          "game's folder, their HOME); a denied connection or write is the game's exception, a crash "
                          "finding that says the sandbox denied it")
    fresh_folder: bool = Field(True, description="each episode of a pygame game runs in a copy of the game's working "
                               "folder of its own (hard links for images, sounds, fonts and code; a copy of the rest), "
                               "so a save or high-score file written there is not there for the next episode nor a "
                               "replay; the original folder is not written")
    memory_limit_mb: int | None = Field(None, ge=0, description="MiB of data each episode process (and the "
                                        "analysis in it) may use: RLIMIT_DATA; unset: half the machine's "
                                        "memory split over the workers; 0: no limit")
    analysis_seconds: float = Field(10.0, gt=0, description="CPU seconds the action-space analysis may take in "
                                    "the game process, all its input loops together; the first fifth of it may "
                                    "fork paths, the rest follows one side; past 70% unfinished paths are "
                                    "dropped and the space is partial (with a warning); past all of it the "
                                    "analysis gives up (the blind space is used, with a warning, where the "
                                    "analysis was not asked for explicitly)")
    analysis_max_forks: int = Field(1000, ge=1, description="forks of the symbolic execution per frame; past "
                                    "them later branches follow the side the game takes now")
    silent_audio: bool | None = Field(None, description="sound and music files this machine cannot decode (MIDI "
                                      "without a synth) load and play as silence, with a warning, instead of "
                                      "crashing the game; unset: on when no real audio device is used (always "
                                      "under SDL's dummy audio driver, which workers use)")
    oracles: dict[str, Any] = Field(default_factory=dict, description="the [oracles] table: which oracles run "
                                    "(enabled) and their settings; validated by playtester.oracles against the "
                                    "registered oracles (oracles.oracle_settings)")
    coverage: dict[str, Any] = Field(default_factory=dict, description="the [coverage] table: state abstraction "
                                     "and position map; validated by playtester.coverage (coverage_settings)")
    agent: dict[str, Any] = Field(default_factory=dict, description="the [agent] table: a learning agent's "
                                  "features and cell_features; validated by playtester.agents (agent_settings)")

    @model_validator(mode="before")
    @classmethod
    def _sections(cls, data: Any) -> Any:
        """Keys of the coverage and agent sections written at the top level (configs, traces and stores
        written before the sections existed) are read into their section."""
        if not isinstance(data, dict) or not any(k in data for k in LEGACY_SECTION_KEYS):
            return data
        data = dict(data)
        for key, (table, name) in LEGACY_SECTION_KEYS.items():
            if key in data:
                value = data.pop(key)
                section = dict(data.get(table) or {})
                section[name] = value  # an override (with_config) wins over what the section held
                data[table] = section
        return data

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
    kind: str  # a backend's spec kind: module, file (pygame), gym, godot, godot-runner, remote, doom, or a plugin's
    target: str  # module name, file path, or Gymnasium id
    function: str | None = None
    root: str | None = None  # the game's sys.path[0] (and its working folder unless ``cwd`` says another)
    config: GameConfig = field(default_factory=GameConfig)
    config_path: str | None = None
    cwd: str | None = None  # the folder the game runs in when not ``root`` (`drive.workdir`)

    @property
    def workdir(self) -> str | None:
        """The folder the game runs in."""
        return self.cwd or self.root

    @property
    def name(self) -> str:
        if self.kind in ("gym", "remote", "doom"):
            return self.text
        if self.kind in ("godot", "godot-runner"):
            return Path(self.target).name
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
        return dataclasses.replace(self, config=cfg)


def bundled_games() -> list[str]:
    """Names of the games shipped with playtester."""
    return sorted(p.stem for p in GAMES_DIR.glob("*.py") if not p.stem.startswith("_"))


def _explain(err: ValidationError, where: str, data: Any = None) -> str:
    """Every error of a config given without a file (overrides): ``WHERE: field 'a.b': message``, with
    "did you mean" for unknown fields (files go through `configfile`, which adds their lines)."""
    return configfile.explain(err, GameConfig, where=where, data=data)


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
    """Read and validate a ``playtester.toml`` (or a ``[tool.playtester]`` table of a pyproject).

    Raises:
        ConfigError: unreadable file, TOML syntax error, or invalid fields: every error, each as
            ``FILE:LINE: field 'a.b': message`` ("did you mean" for misspelt fields).
    """
    return configfile.load(path, GameConfig, "toml", table, what="game config")


def _config_beside(folder: Path) -> tuple[GameConfig, Path | None]:
    toml = folder / "playtester.toml"
    if toml.is_file():
        return load_config(toml), toml
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        try:
            source = configfile.read(pyproject, "toml", what="pyproject")
        except ConfigError:
            return GameConfig(), None  # a broken pyproject that may not be the game's: as before, no config
        if isinstance(source.data.get("tool"), dict) and "playtester" in source.data["tool"]:
            table = source.select("tool.playtester")
            return configfile.validate(table, GameConfig), pyproject
    return GameConfig(), None


def find_module(name: str, where: list[str] | None = None) -> ModuleSpec | None:
    """Find a module by its dotted name *without importing anything* (not even its parent packages).

    Args:
        name: dotted module name, e.g. ``game.cli``.
        where: folders to look in for its top-level package; None: ``sys.path``.

    Returns:
        The module's spec (``origin`` is its file; a namespace package has none), or None.
    """
    from importlib.machinery import PathFinder

    parts = name.split(".")
    search = [str(Path(w).resolve()) for w in where] if where is not None else None
    found = None
    for i in range(len(parts)):
        try:
            found = PathFinder.find_spec(".".join(parts[: i + 1]), search)
        except (ImportError, ValueError):
            return None
        if found is None:
            return None
        if i < len(parts) - 1:
            if not found.submodule_search_locations:
                return None  # a plain module has no submodules
            search = list(found.submodule_search_locations)
    return found


def locate_module(name: str, root: str | None = None) -> ModuleSpec | None:
    """`find_module` under ``root`` first, then on ``sys.path``, then through the import system (custom
    finders of editable installs; this imports the parent packages)."""
    found = (find_module(name, [root]) if root else None) or find_module(name)
    if found is None:
        try:
            found = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            found = None
    return found


def module_folder(name: str, root: str | None) -> str | None:
    """The folder holding a module's code: its top-level package's folder (a game package's modules and
    assets), or, for a plain module or a module of a library (``pygame.examples.aliens``), the folder of its
    file. None when the module cannot be found."""
    found = locate_module(name, root)
    if found is None:
        return None
    top_name = name.split(".")[0]
    if "." in name and top_name not in _LIBRARIES:
        top = locate_module(top_name, root)
        if top is not None and top.submodule_search_locations:
            return str(Path(list(top.submodule_search_locations)[0]).resolve())
    if found.submodule_search_locations:
        return str(Path(list(found.submodule_search_locations)[0]).resolve())
    return str(Path(found.origin).resolve().parent) if found.origin else None


_LIBRARIES = {"pygame", "playtester"}  # packages whose examples are games but whose other code is not


def resolve(text: str, config: str | Path | None = None, **overrides: Any) -> GameSpec:
    """Resolve a game spec string into a `GameSpec`, with its configuration.

    Args:
        text: the game spec (see the module docstring).
        config: an explicit ``playtester.toml`` to use instead of the one found beside the game; a module
            spec is also looked up in its folder.
        **overrides: config fields to replace (e.g. ``frames_per_action=4``).

    Raises:
        GameSpecError: the spec names nothing runnable; the message says what was tried and how to fix it.
        ConfigError: the config file is invalid; the message names the file and field.
    """
    extra = [Path(config).resolve().parent] if config is not None else []
    spec = _resolve(text.strip(), extra)
    if config is not None:
        path = Path(config)
        spec = GameSpec(spec.text, spec.kind, spec.target, spec.function, spec.root, load_config(path), str(path))
    spec = _with_workdir(spec)
    return spec.with_config(**overrides) if overrides else spec


def _with_workdir(spec: GameSpec) -> GameSpec:
    """The folder a file or module game runs in: the config's ``cwd``, else a file game's project root
    (`drive.workdir`); a module runs where ``python -m`` would, in its root."""
    if spec.kind not in ("file", "module"):
        return spec
    if spec.config.cwd is not None:
        base = Path(spec.config_path).resolve().parent if spec.config_path else Path.cwd()
        folder = (base / spec.config.cwd).resolve()
        if not folder.is_dir():
            raise GameSpecError(f"{spec.config_path or 'config'}: cwd {spec.config.cwd!r} is no folder ({folder}); "
                                "give a folder relative to the config file, e.g. cwd = \".\"")
        return dataclasses.replace(spec, cwd=str(folder))
    if spec.kind == "file" and spec.cwd is None:
        from playtester.drive.workdir import project_root

        root = str(project_root(Path(spec.target)))
        return dataclasses.replace(spec, cwd=root if root != spec.root else None)
    return spec


def _resolve(text: str, extra: list[Path] | None = None) -> GameSpec:
    """``text`` resolved by the backend whose prefix it carries, else by the backends of specs without one."""
    if not text:
        raise GameSpecError("empty game spec; " + _FORMS)
    from playtester.drive.backend import backends

    found = backends()
    for backend in found:
        if backend.prefix is not None and backend.resolve and text.startswith(backend.prefix + ":"):
            return backend.call("resolve", text, extra or [])
    for backend in found:
        if backend.prefix is None and backend.resolve:
            return backend.call("resolve", text, extra or [])
    raise GameSpecError(f"no backend resolves game spec {text!r}; " + _FORMS)


def resolve_gym(text: str, extra: list[Path] | None = None) -> GameSpec:
    """``gym:ID``: a Gymnasium environment (the gym backend's resolver)."""
    gym_id = text[4:]
    if not gym_id:
        raise GameSpecError(f"game spec {text!r} names no Gymnasium id; write e.g. gym:CartPole-v1")
    cfg = GameConfig(frames_per_action=1, blacklist=[])
    return GameSpec(text, "gym", gym_id, config=cfg)


def resolve_doom(text: str, extra: list[Path] | None = None) -> GameSpec:
    """``doom:MAP`` or ``doom:SCENARIO``: a ViZDoom game (the doom backend's resolver)."""
    if not text[5:].strip():
        raise GameSpecError(f"game spec {text!r} names no ViZDoom map or scenario; write e.g. doom:freedoom1:E1M1 "
                            "or doom:my_way_home")
    cfg = GameConfig(frames_per_action=4, blacklist=[], fps=35.0, features=["x", "y"])  # states: tiles
    return GameSpec(text, "doom", text[5:].strip(), config=cfg)


def resolve_python(text: str, extra: list[Path] | None = None) -> GameSpec:
    """A bundled game, a file or folder, or a module (the pygame backend's resolver: specs with no prefix)."""
    if text in bundled_games():
        toml = GAMES_DIR / f"{text}.toml"
        cfg = load_config(toml) if toml.is_file() else GameConfig()
        return GameSpec(text, "module", f"playtester.games.{text}", "main", None, cfg, str(toml))

    path_part, _, func = text.partition(":") if not _looks_like_windows_path(text) else (text, "", "")
    path = Path(path_part).expanduser()
    looks_like_path = path.suffix == ".py" or "/" in path_part or path_part.startswith(".") or path_part == "~"
    # a bare name that is both a folder here and a module (``pkg_game``) is the folder: the same thing
    if path.is_dir() or (looks_like_path and not path.exists()) or path.is_file():
        if path.is_dir():
            return _resolve_folder(text, path, func or None)
        if not path.is_file():
            raise GameSpecError(f"game file {path} does not exist (from spec {text!r}); check the path")
        cfg, cfg_path = _config_beside(path.resolve().parent)
        return GameSpec(text, "file", str(path.resolve()), func or None, str(path.resolve().parent), cfg,
                        str(cfg_path) if cfg_path else None)

    module = path_part
    if not all(part.isidentifier() for part in module.split(".")):
        raise GameSpecError(f"game spec {text!r} is neither a bundled game, a file, nor a module; " + _FORMS)
    folders = [Path.cwd(), *(extra or [])]
    for folder in folders:
        if find_module(module, [str(folder)]) is not None:
            return _module_spec(text, module, func or None, folder.resolve())
    if _installed(module):
        return GameSpec(text, "module", module, func or None, None, GameConfig(), None)
    raise GameSpecError(_not_found(text, module, folders))


def resolve_remote(text: str, extra: list[Path] | None = None) -> GameSpec:
    """``godot:FOLDER`` / ``godot-runner:FOLDER`` (a Godot 3 project; a bundled one by name) and ``remote:COMMAND``;
    the config is a ``playtester.toml`` in the project folder (``remote:``: in the current one)."""
    kind, _, rest = text.partition(":")
    rest = rest.strip()
    if not rest:
        raise GameSpecError(f"game spec {text!r} names nothing after {kind}:; write e.g. godot:path/to/project or "
                            "remote:python my_server.py")
    if kind == "remote":
        cfg, cfg_path = _config_beside(Path.cwd())
        return GameSpec(text, "remote", rest, None, str(Path.cwd()), cfg, str(cfg_path) if cfg_path else None)
    folder = Path(rest).expanduser()
    if not folder.exists() and "/" not in rest and (GAMES_DIR / "godot" / rest).is_dir():
        folder = GAMES_DIR / "godot" / rest
    if folder.is_file() and folder.name == "project.godot":
        folder = folder.parent
    if not (folder / "project.godot").is_file():
        raise GameSpecError(f"{text}: {folder} is not a Godot project folder (no project.godot in it)")
    cfg, cfg_path = _config_beside(folder)
    return GameSpec(text, kind, str(folder.resolve()), None, str(folder.resolve()), cfg,  # type: ignore[arg-type]
                    str(cfg_path) if cfg_path else None)


def _resolve_folder(text: str, path: Path, func: str | None) -> GameSpec:
    """A folder: its ``playtester.toml``'s ``entry``, else a package run through its ``__main__.py``."""
    cfg, cfg_path = _config_beside(path)
    folder = path.resolve()
    if cfg.entry:
        entry_path, _, entry_func = cfg.entry.partition(":")
        target = path / entry_path
        if target.suffix == ".py":
            if not target.is_file():
                raise GameSpecError(f"{cfg_path}: entry {cfg.entry!r}: no file {target}")
            # as ``python src/main.py`` from the config's folder: sys.path[0] is the file's folder
            return GameSpec(text, "file", str(target.resolve()), entry_func or None, str(target.resolve().parent),
                            cfg, str(cfg_path), cwd=None if cfg.cwd else str(folder))
        if not all(p.isidentifier() for p in entry_path.split(".")):
            raise GameSpecError(f"{cfg_path}: entry {cfg.entry!r} is neither a file.py nor a module name; write "
                                "e.g. entry = \"game.py:main\" or entry = \"game.cli:main\"")
        if find_module(entry_path, [str(folder)]) is None and not _installed(entry_path):
            raise GameSpecError(f"{cfg_path}: entry {cfg.entry!r}: " + _not_found(entry_path, entry_path, [folder]))
        return GameSpec(text, "module", entry_path, entry_func or None, str(folder), cfg, str(cfg_path))
    main = folder / "__main__.py"
    if func is None and main.is_file():
        if folder.name.isidentifier() and _is_package(folder):
            # ``python -m package`` from the folder that holds it: cwd and sys.path[0] are that folder
            return _module_spec(text, folder.name, None, folder.parent, cfg, cfg_path)
        # ``python path/to/folder``: __main__.py runs as a script with the folder as sys.path[0] and cwd
        return GameSpec(text, "file", str(main), None, str(folder), cfg, str(cfg_path) if cfg_path else None)
    if func is not None and folder.name.isidentifier() and _is_package(folder):
        return _module_spec(text, folder.name, func, folder.parent, cfg, cfg_path)
    raise GameSpecError(f"folder {path} has no __main__.py and no playtester.toml with an 'entry'; name the "
                        f"game's file ({path}/game.py or {path}/game.py:main), add a __main__.py that starts it "
                        "(as for python -m), or write a playtester.toml with e.g. entry = \"game.py:main\"")


def _is_package(folder: Path) -> bool:
    """A folder to run as ``python -m NAME``: it has an ``__init__.py``, or its ``__main__.py`` imports relatively
    (a namespace package); otherwise it is run like ``python FOLDER``."""
    if (folder / "__init__.py").is_file():
        return True
    import ast

    try:
        tree = ast.parse((folder / "__main__.py").read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, OSError, ValueError):
        return False
    return any(isinstance(n, ast.ImportFrom) and n.level > 0 for n in ast.walk(tree))


def _module_spec(text: str, module: str, func: str | None, root: Path,
                 cfg: GameConfig | None = None, cfg_path: Path | None = None) -> GameSpec:
    """A module found under ``root``: the game runs there (cwd and ``sys.path[0]``), as ``python -m`` would
    from that folder. Its config: a ``playtester.toml`` in its package's folder, else in ``root``."""
    if cfg is None or cfg_path is None:
        for folder in (module_folder(module, str(root)), str(root)):
            if folder:
                cfg, cfg_path = _config_beside(Path(folder))
                if cfg_path is not None:
                    break
    return GameSpec(text, "module", module, func, str(root), cfg or GameConfig(),
                    str(cfg_path) if cfg_path else None)


def _installed(module: str) -> bool:
    """Whether ``module`` is importable in this interpreter (site-packages, editable installs)."""
    return locate_module(module) is not None


def _not_found(text: str, module: str, folders: list[Path]) -> str:
    import sys

    parts = module.split(".")
    rel = "/".join(parts)
    tried = []
    hint = ""
    for folder in folders:
        tried.append(f"{folder}/{rel}.py, {folder}/{rel}/")
        top = find_module(parts[0], [str(folder)])
        if top is not None and len(parts) > 1 and not hint:
            hint = (f" ({folder}/{parts[0]} exists, but has no module {'.'.join(parts[1:])!r} in it: check the "
                    "name)")
    where = " and ".join(f"from {f}" for f in folders)
    return (f"no bundled game, file or importable module named {module!r}{hint}; tried "
            + "; ".join(tried) + f" ({where}), then the packages installed for {sys.executable}. "
            f"Run playtester from the folder that holds {parts[0]!r} (as you would run python -m {parts[0]}), "
            f"give a path (path/to/{rel}.py:main, or path/to/{parts[0]} for a package with a __main__.py), or "
            "install the game (pip install -e .). Accepted: " + _FORMS)


def _looks_like_windows_path(text: str) -> bool:
    return len(text) > 2 and text[1] == ":" and text[2] in "\\/"


_FORMS = ("use a bundled name (" + ", ".join(bundled_games() or ["none"]) + "), module:function, a module or "
          "package (run as python -m), path/to/game.py[:function], a package folder with a __main__.py, a folder "
          "with playtester.toml, gym:ENV_ID, doom:MAP_OR_SCENARIO, godot:PROJECT_FOLDER or remote:COMMAND")


def parse_game_args(items: list[str]) -> dict[str, Any]:
    """``--game-arg name=value`` options as keyword arguments (each value JSON when it parses, else text)."""
    import json

    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise UsageError(f"--game-arg {item!r} must look like name=value (e.g. --game-arg size=21)")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out
