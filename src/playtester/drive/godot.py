"""Godot 3 games (``godot:path/to/project``): the remote-game protocol with playtester's GDScript add-on.

The user's project is never edited: each worker copies it once into its temporary folder (again when a
file of it changes), adds the add-on (``godot_addon/playtester.gd``) and an ``override.cfg`` that makes the
add-on an autoload (Godot 3 reads ``override.cfg`` after ``project.godot``) and turns off Godot's log file (playtester
reads the game's stderr; the file costs a second flushed write of every line printed), and runs that copy:

- ``godot:`` runs Debian's ``godot3-server`` (headless, no rendering: entities, events and errors, no
  frames), the fast default;
- ``godot-runner:`` runs ``godot3`` (Debian's editor package, a debug build; else ``godot3-runner``, a release
  template that prints no script errors) with Mesa's software GL on an Xvfb display of its own, for frames.

Both run with ``--fixed-fps FPS`` (the game config's ``fps``): virtual time, each step exactly N frames.
The binaries can be named with ``PLAYTESTER_GODOT`` / ``PLAYTESTER_GODOT_RUNNER``.

The declared actions come from the project's InputMap (``[input]`` in project.godot; Godot's own ``ui_*``
actions left out): nothing held, each action, each pair of actions. Other spaces work too (`GodotRunner`):
``blind`` (its keys pressed and released as ``InputEventKey``s) and ``analyzed`` (`playtester.analysis.gdscript`:
a space with ``input_sets``, the InputMap action sets it holds (``key:NAME`` in them: a key the scripts read
directly, sent as an ``InputEventKey``), and ``watch``, the node properties and query
methods the add-on reads live after every step so the space can mask its actions by their ``p_g``).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path
from typing import Any

from playtester.drive.context import ActionContext, SpaceLike
from playtester.drive.inputs import InputFrame
from playtester.drive.observation import EpisodeOptions
from playtester.drive.remote import (
    Launch,
    ProjectRefused,
    RemoteRunner,
    _remote_sets,
    action_labels,
    action_sets,
    keeper_folder,
    run_remote,
)
from playtester.drive.spec import GameSpec
from playtester.files import folder_fingerprint

ADDON = Path(__file__).resolve().parent / "godot_addon" / "playtester.gd"
ADDON_DIR = "addons/__playtester__"
AUTOLOAD = "PlaytesterAddon"
# Godot 3 on a PC logs everything it prints to user://logs/ as well, flushed line by line: the add-on's sync line
# (one a step) and every error line cost a second write. playtester reads stderr, so the copy runs without it
# (~8 us a step less on coinhop); a project's own [logging] settings are overridden in the copy only.
NO_FILE_LOG = ("file_logging/enable_file_logging=false", "file_logging/enable_file_logging.pc=false")


# Godot 3 APIs newer than Debian's 3.2.3 (the version that added each), as Godot 3.2.3 names them when a project calls
# them: at run time "Invalid call. Nonexistent function 'get_axis' in base 'InputDefault'", when the script is parsed
# 'The method "limit_length" isn't declared on base "Vector2"', 'The method "create_tween" isn't declared in the
# current class', 'The identifier "Time" isn't declared in the current scope'. (class, member): version; "*": any class
NEWER_APIS: dict[tuple[str, str], str] = {
    ("Input", "get_axis"): "3.4", ("Input", "get_vector"): "3.4",
    ("Vector2", "limit_length"): "3.4", ("Vector3", "limit_length"): "3.4",
    ("*", "create_tween"): "3.5",  # Node.create_tween, SceneTree.create_tween (SceneTreeTween)
    ("Time", ""): "3.5",  # the Time singleton (Time.get_ticks_msec(), ...)
}
_MISSING_API = (re.compile(r"Nonexistent function '(?P<member>\w+)' in base '(?P<cls>\w+)'"),
                re.compile(r'The method "(?P<member>\w+)" isn\'t declared (?:on base "(?P<cls>\w+)"|in the current class)'),
                re.compile(r'The identifier "(?P<cls>\w+)" isn\'t declared in the current scope'))
_SINGLETON_CLASSES = {"InputDefault": "Input", "_OS": "OS", "_Engine": "Engine"}


def _version(text: str) -> tuple[int, ...]:
    m = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", text)
    return tuple(int(g or 0) for g in m.groups()) if m else ()


def newer_api(message: str, runtime: str) -> tuple[str, str] | None:
    """(the Godot version a Godot error line ``message`` says the project needs, the API: ``Input.get_axis``)
    when it names a member of `NEWER_APIS` newer than the runtime's version ``runtime`` ("3.2.3.stable"), else
    None (a method the game misspelt is the game's bug)."""
    for rx in _MISSING_API:
        m = rx.search(message)
        if m is None:
            continue
        member = m.groupdict().get("member") or ""
        cls = _SINGLETON_CLASSES.get(m["cls"] or "", m["cls"] or "")
        version = NEWER_APIS.get((cls, member)) or NEWER_APIS.get(("*", member)) if member else NEWER_APIS.get((cls, ""))
        if version is None or (_version(runtime) and _version(runtime) >= _version(version)):
            return None
        api = f"{cls}.{member}" if cls and member else (f"{member}()" if member else cls)
        return version, api
    return None


def needs_newer_godot(lines: list[str], runtime: str) -> str | None:
    """The verdict on a project whose error lines ``lines`` (Godot's stderr, or log messages) call APIs newer than
    the runtime ``runtime``: "the project needs Godot 3.4 (Input.get_axis); this runtime is 3.2.3", with the first
    line that says so and what to do; None when none does."""
    found: dict[tuple[str, str], str] = {}
    for i, ln in enumerate(lines):
        hit = newer_api(ln, runtime)
        if hit is not None and hit not in found:
            at = re.search(r"At: (res://\S+?:\d+)", lines[i + 1]) if i + 1 < len(lines) else None
            found[hit] = ln.strip() + (f" (At: {at.group(1)})" if at else "")
    if not found:
        return None
    need = max((v for v, _ in found), key=_version)
    apis = ", ".join(dict.fromkeys(a for v, a in found if v == need))
    have = ".".join(str(n) for n in _version(runtime)) or runtime or "older"
    return (f"the project needs Godot {need} ({apis}); this runtime is {have}. Godot said:\n  "
            + "\n  ".join(found.values())
            + f"\nThis is the engine's limit, not a bug of the game: run it with a Godot {need} or newer (PLAYTESTER_GODOT "
            "/ PLAYTESTER_GODOT_RUNNER name the binaries), or replace those calls with 3.2 ones")


def addon() -> Path:
    """The add-on copied into projects: ours, or ``PLAYTESTER_GODOT_ADDON`` (to measure another version)."""
    return Path(os.environ.get("PLAYTESTER_GODOT_ADDON") or ADDON)


def godot_binary(runner: bool) -> str | None:
    """The Godot that runs a project: ``PLAYTESTER_GODOT`` / ``PLAYTESTER_GODOT_RUNNER`` if set; else godot3-server
    (headless, a debug build); for frames, Debian's ``godot3`` (the editor package: a debug build that renders, run
    with ``--path`` it plays the project) before ``godot3-runner``, a release export template in which GDScript's
    run-time checks are compiled out: it prints no ``SCRIPT ERROR`` at all (only ``push_error`` and the engine's
    own errors), so the bugs ``godot:`` finds would go unseen."""
    named = os.environ.get("PLAYTESTER_GODOT_RUNNER" if runner else "PLAYTESTER_GODOT")
    if named:
        return shutil.which(named)
    for name in (("godot3", "godot3-runner") if runner else ("godot3-server",)):
        path = shutil.which(name)
        if path:
            return path
    return None


# Godot 3's default InputMap: every project has these actions (arrows, Enter/Space, Esc, Tab, ...) unless it erases
# them; a game that plays with them declares none of its own
GODOT_UI_ACTIONS = ("ui_accept", "ui_select", "ui_cancel", "ui_focus_next", "ui_focus_prev", "ui_left", "ui_right",
                    "ui_up", "ui_down", "ui_page_up", "ui_page_down", "ui_home", "ui_end")
_UI_NAME = re.compile(r"""["'](ui_[a-z_]+)["']""")
MAX_SCRIPTS = 400  # the project's .gd files read for the ui_* actions they name

# the blacklist (`GameConfig.blacklist`, pygame's key names) as Godot 3 scancodes
_SPKEY = 1 << 24
_GODOT_KEYS = {"ESCAPE": _SPKEY | 0x01, "TAB": _SPKEY | 0x02, "BACKSPACE": _SPKEY | 0x04, "RETURN": _SPKEY | 0x05,
               "PAUSE": _SPKEY | 0x09, "PRINT": _SPKEY | 0x0A, "SPACE": 32,
               **{f"F{n}": _SPKEY | (0x1C + n - 1) for n in range(1, 13)}}
# actions whose names say what the blacklist's keys do (pause, fullscreen, quit): out while that key is blacklisted
_NAMED = ((re.compile(r"pause", re.I), "PAUSE"), (re.compile(r"full_?screen", re.I), "F11"),
          (re.compile(r"(^|_)(quit|exit)($|_)", re.I), "ESCAPE"))
# the default InputMap's events of the ui_* actions a blacklist can hit
_UI_KEYS = {"ui_cancel": [("InputEventKey", _GODOT_KEYS["ESCAPE"])]}


def godot_scancode(name: str) -> int | None:
    """A blacklist key name (``ESCAPE``, ``F11``, ``q``) as Godot 3's scancode, or None."""
    n = name.strip()
    if n.upper() in _GODOT_KEYS:
        return _GODOT_KEYS[n.upper()]
    return ord(n.upper()) if len(n) == 1 and n.isprintable() else None


def _input_section(text: str) -> dict[str, list[tuple[str, int | None]]]:
    """The ``[input]`` actions of a project.godot, each with its events: (class, scancode or None)."""
    out: dict[str, list[tuple[str, int | None]]] = {}
    section, current = None, None
    for line in text.splitlines():
        m = re.match(r"^\[([^\]]+)\]\s*$", line)
        if m:
            section, current = m.group(1), None
            continue
        if section != "input":
            continue
        a = re.match(r'^"?([^"=\s]+)"?\s*=', line)
        if a:
            current = a.group(1)
            out[current] = []
        if current is not None:
            for ev in re.finditer(r"Object\((\w+),([^)]*)\)", line):
                code = re.search(r'"scancode":(\d+)', ev.group(2))
                phys = re.search(r'"physical_scancode":(\d+)', ev.group(2))
                key = int(code.group(1)) if code and int(code.group(1)) else \
                    (int(phys.group(1)) if phys and int(phys.group(1)) else None)
                out[current].append((ev.group(1), key))
    return out


def blacklisted(name: str, events: list[tuple[str, int | None]], blacklist: list[str]) -> bool:
    """An action the blacklist leaves out: every event of it a blacklisted key (``toggle_fullscreen`` on F11), or
    a name that says it pauses, goes fullscreen or quits while the key that does so by default (PAUSE, F11,
    ESCAPE) is blacklisted. An empty blacklist (or one without those keys) keeps them."""
    keys = {k.upper() for k in blacklist}
    codes = {c for c in map(godot_scancode, blacklist) if c is not None}
    if events and all(cls == "InputEventKey" and code in codes for cls, code in events):
        return True
    return any(rx.search(name) and key in keys for rx, key in _NAMED)


def input_actions(project: str | Path, blacklist: list[str] | None = None) -> list[str]:
    """The actions to play a project with, sorted: its InputMap's own (``[input]`` of project.godot), and the
    actions of Godot's default InputMap (``ui_left``, ``ui_accept``, ...) that its scripts name (issue 56: 4 of 7
    public projects played with the default actions alone, and were refused); the ``blacklist`` (the config's,
    default ESCAPE, F11, PAUSE) leaves out the actions bound to its keys alone and those named for pausing,
    fullscreen or quitting (`blacklisted`): ``ui_cancel`` (Esc), ``toggle_pause``, ``toggle_fullscreen``."""
    from playtester.drive.spec import DEFAULT_BLACKLIST

    folder = Path(project)
    bl = list(DEFAULT_BLACKLIST) if blacklist is None else list(blacklist)
    text = (folder / "project.godot").read_text(encoding="utf-8", errors="replace")
    names = [a for a, evs in _input_section(text).items() if not a.startswith("ui_") and not blacklisted(a, evs, bl)]
    used: set[str] = set()
    scripts = sorted(p for p in folder.rglob("*.gd") if not ({".import", "addons", ".git"} & set(p.parts)))
    for path in scripts[:MAX_SCRIPTS]:
        try:
            used.update(_UI_NAME.findall(path.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            continue
    names += [a for a in GODOT_UI_ACTIONS if a in used and not blacklisted(a, _UI_KEYS.get(a, []), bl)]
    return sorted(dict.fromkeys(names))


# menus and touch (issue 56): a project with buttons gets CLICK_SLOTS "click:K" actions (a click on the K-th
# visible, enabled BaseButton the add-on reports, top to bottom then left to right; masked while there is no K-th);
# a project whose scripts read screen touches gets "tap:K" actions (a tap at the centre of cell K of a TAP_GRID x
# TAP_GRID grid over the screen, a screen touch as Godot emulates it from the mouse)
CLICK_SLOTS = 4
TAP_GRID = 3
_BUTTON_TYPE = re.compile(r'type="(Button|TextureButton|CheckBox|CheckButton|LinkButton|MenuButton|OptionButton|'
                          r'ColorPickerButton|ToolButton)"')
_BUTTON_NEW = re.compile(r"\b(Button|TextureButton|CheckBox|CheckButton|LinkButton|MenuButton|OptionButton|"
                         r"ToolButton)\.new\(")
_TOUCH = re.compile(r"\bInputEventScreen(Touch|Drag)\b")


def _project_files(folder: Path, pattern: str) -> list[Path]:
    return sorted(p for p in folder.rglob(pattern) if not ({".import", "addons", ".git"} & set(p.parts)))[:MAX_SCRIPTS]


def _any_match(paths: list[Path], rx: re.Pattern[str]) -> bool:
    for path in paths:
        try:
            if rx.search(path.read_text(encoding="utf-8", errors="replace")):
                return True
        except OSError:
            continue
    return False


def has_buttons(project: str | Path) -> bool:
    """The project's scenes or scripts make BaseButtons (a menu the player clicks)."""
    folder = Path(project)
    return _any_match(_project_files(folder, "*.tscn"), _BUTTON_TYPE) or \
        _any_match(_project_files(folder, "*.gd"), _BUTTON_NEW)


def reads_touch(project: str | Path) -> bool:
    """The project's scripts read screen touches (``InputEventScreenTouch`` / ``InputEventScreenDrag``)."""
    return _any_match(_project_files(Path(project), "*.gd"), _TOUCH)


def pointer_sets(project: str | Path) -> list[tuple[str, ...]]:
    """The declared space's click and tap actions of a project (none when it has no buttons and reads no touch)."""
    out: list[tuple[str, ...]] = []
    if has_buttons(project):
        out += [(f"click:{k}",) for k in range(CLICK_SLOTS)]
    if reads_touch(project):
        out += [(f"tap:{k}",) for k in range(TAP_GRID * TAP_GRID)]
    return out


def declared_actions(spec: GameSpec) -> tuple[int, list[str]]:
    """The game's declared actions (the backend's ``declared``): from its InputMap (nothing, each action, each
    pair), and clicks on its buttons and taps when it has them (`pointer_sets`)."""
    from playtester.errors import GameSpecError

    names = input_actions(spec.target, spec.config.blacklist)
    ensure_imported(spec.target)  # (the first thing playtester's own process asks of a godot: game)
    pointer = pointer_sets(spec.target)
    if not names and not pointer:
        raise GameSpecError(f"{spec.text}: project.godot declares no input actions ([input] section), its scripts "
                            "name none of Godot's default ones (ui_left, ui_accept, ...), and it has no buttons and "
                            "reads no screen touches: nothing to play with")
    labels = action_labels(action_sets(names) + pointer)
    return len(labels), labels


def _stamp(folder: Path) -> str:
    h = hashlib.sha256(addon().read_bytes())
    h.update("\n".join(NO_FILE_LOG).encode())  # what the copy's override.cfg adds
    h.update(str(folder_fingerprint(folder, content=False)).encode())  # sizes and times: a copy is cheap to remake
    return h.hexdigest()


# ------------------------------------------------------------------------------- importing assets as Godot does
# Godot 3 plays a png, wav, ogg, ... through the file its editor imported it to (``res://.import/NAME-HASH.stex``,
# named by the ``NAME.import`` file beside the asset). Godot's default .gitignore leaves ``.import/`` out of
# repositories, so a project fresh from one cannot load a scene that holds a sound (``Failed loading scene``) and draws
# its sprites without textures. playtester runs Godot's own import on its copy: the editor (``--editor``) imports
# every asset when it opens a project; it is stopped once every file the ``.import`` files name is there (Godot
# 3.2's ``--editor --quit`` quits before the import ends, or crashes). Debian's godot3-server carries the editor
# and needs no display (about a second for a small project); ``godot3`` (the editor package) runs on an Xvfb
# display of its own. The imported files are kept in the user's cache, by the project's content.
IMPORT_TIMEOUT_S = 600.0
_DEST = re.compile(r"^dest_files=\[(.*?)\]", re.M | re.S)
_SOURCE = re.compile(r'^source_file="res://([^"]+)"', re.M)


def _sidecars(folder: Path) -> list[Path]:
    """The ``NAME.import`` files of a project (outside ``.import/`` and ``.git``)."""
    return sorted(p for p in folder.rglob("*.import") if p.is_file() and not ({".import", ".git"} & set(
        p.relative_to(folder).parts[:-1])))


def import_targets(folder: str | Path) -> list[str]:
    """The files (relative to the project) Godot's import would write that are missing, for assets that are there:
    each ``dest_files`` of an ``.import`` file whose ``source_file`` exists, and the import's ``.md5`` beside it."""
    folder = Path(folder)
    missing: list[str] = []
    for side in _sidecars(folder):
        text = side.read_text(encoding="utf-8", errors="replace")
        dest, source = _DEST.search(text), _SOURCE.search(text)
        source_path = source.group(1) if source else str(side.relative_to(folder))[:-len(".import")]
        if dest is None or not (folder / source_path).is_file():
            continue
        for d in re.findall(r'"res://([^"]+)"', dest.group(1)):
            md5 = re.sub(r"(-[0-9a-f]{32})\..*$", r"\1.md5", d)
            missing += [f for f in dict.fromkeys((d, md5)) if not (folder / f).is_file()]
    return sorted(set(missing))


def editor_binary() -> tuple[str, bool] | None:
    """Godot's editor for importing and whether it needs a display: ``PLAYTESTER_GODOT_EDITOR`` (a display unless it
    is a server build), else godot3-server (Debian builds it with the editor), else godot3 (the editor package)."""
    named = os.environ.get("PLAYTESTER_GODOT_EDITOR")
    if named:
        path = shutil.which(named)
        return (path, "server" not in os.path.basename(path)) if path else None
    for name, display in (("godot3-server", False), ("godot3", True)):
        path = shutil.which(name)
        if path:
            return path, display
    return None


def _import_key(src: Path, binary: str) -> str | None:
    from playtester.files import folder_fingerprint

    fp = folder_fingerprint(src, content=True, skip_dirs=(".git", ".import"), max_read=2 << 30)
    if fp is None:
        return None
    h = hashlib.sha256(fp.encode())
    st = os.stat(binary)
    h.update(f"{binary}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    return h.hexdigest()[:32]


def _copy_imported(frm: Path, to: Path, sidecars: list[str]) -> None:
    if (frm / ".import").is_dir():
        shutil.copytree(frm / ".import", to / ".import", dirs_exist_ok=True)
    for rel in sidecars:
        if (frm / rel).is_file():
            (to / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(frm / rel, to / rel)


def _say(text: str) -> None:
    import sys

    print(f"playtester: {text}", file=sys.stderr, flush=True)


def import_assets(src: Path, dst: Path) -> None:
    """Import the assets of the copy ``dst`` of project ``src`` with Godot's editor when some are not imported
    (`import_targets`), or take them from the cache. A project that cannot be imported here is left as it is:
    Godot then says what it cannot load, and the run stops with its lines."""
    import fcntl
    import signal
    import subprocess
    import tempfile
    import time

    from playtester.files import cache_dir

    targets = import_targets(dst)
    if not targets:
        return
    editor = editor_binary()
    if editor is None:
        _say(f"{src}: {len(targets)} imported asset files are missing and no Godot editor is installed to import "
             "them (apt-get install godot3-server or godot3, or `make godot`)")
        return
    binary, display = editor
    key = _import_key(src, binary)
    root = cache_dir("godot-import")
    entry = root / key if root is not None and key is not None else None
    lock = None
    if entry is not None:
        entry.parent.mkdir(parents=True, exist_ok=True)
        lock = open(entry.parent / f"{key}.lock", "w")  # noqa: SIM115 - held until the import is done
        fcntl.flock(lock, fcntl.LOCK_EX)  # workers of one run import once
    try:
        if entry is not None and (entry / "done").is_file():
            _copy_imported(entry, dst, (entry / "done").read_text().splitlines())
            if not import_targets(dst):
                return
        before = {str(p.relative_to(dst)): p.read_bytes() for p in _sidecars(dst)}
        _say(f"importing the assets of {src} with Godot's editor ({os.path.basename(binary)}: {len(targets)} files "
             "to write; the project has no imported assets, e.g. no .import/ folder). Done once: the result is "
             f"cached{f' in {entry}' if entry is not None else ''}")
        t0 = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="playtester-godot-import-") as home:
            env = dict(os.environ, HOME=home, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home, XDG_CACHE_HOME=home)
            xvfb = None
            if display:
                from playtester.drive.remote import start_xvfb

                env["DISPLAY"], xvfb = start_xvfb(home)
            timeout = float(os.environ.get("PLAYTESTER_GODOT_IMPORT_TIMEOUT_S") or IMPORT_TIMEOUT_S)
            with open(os.path.join(home, "import.log"), "wb") as log:
                proc = subprocess.Popen([binary, "--path", str(dst), "--editor", "--audio-driver", "Dummy"],
                                        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                                        start_new_session=True)
                left = targets
                try:
                    while left and proc.poll() is None and time.monotonic() - t0 < timeout:
                        time.sleep(0.1)
                        left = [t for t in left if not (dst / t).is_file()]
                    time.sleep(0.3)  # the editor writes the .md5 after the imported file: both are complete now
                finally:
                    for sig in (signal.SIGTERM, signal.SIGKILL):
                        try:
                            os.killpg(proc.pid, sig)
                            proc.wait(5)
                            break
                        except (ProcessLookupError, subprocess.TimeoutExpired):
                            continue
                    if xvfb is not None:
                        from playtester.drive.remote import stop_xvfb

                        stop_xvfb(xvfb)
            log_tail = Path(home, "import.log").read_text(errors="replace")[-2000:]
        left = import_targets(dst)
        if left:
            _say(f"Godot's import of {src} left {len(left)} of {len(targets)} files unwritten after "
                 f"{time.monotonic() - t0:.0f}s (e.g. {left[0]}); its output ended with:\n{log_tail}")
            return
        _say(f"imported the assets of {src} in {time.monotonic() - t0:.1f}s")
        if entry is not None:
            changed = [rel for rel in (str(p.relative_to(dst)) for p in _sidecars(dst))
                       if before.get(rel) != (dst / rel).read_bytes()]
            tmp = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=entry.parent))
            _copy_imported(dst, tmp, changed)
            (tmp / "done").write_text("\n".join(changed))
            shutil.rmtree(entry, ignore_errors=True)
            os.replace(tmp, entry)
    finally:
        if lock is not None:
            lock.close()


def ensure_imported(project: str | Path) -> None:
    """In playtester's own process, before any worker starts: import the assets of a project that lacks them (on a
    throwaway copy), so that the message is the user's to see and the workers' copies take the import from the
    cache."""
    import tempfile

    src = Path(project).resolve()
    if not (src / "project.godot").is_file() or not import_targets(src):
        return
    with tempfile.TemporaryDirectory(prefix="playtester-godot-import-") as tmp:
        dst = Path(tmp) / "project"
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".git"), symlinks=True)
        import_assets(src, dst)


def prepared_copy(project: str | Path, where: str | Path) -> Path:
    """A copy of ``project`` under ``where`` with the add-on as an autoload (made once, remade when the project
    changes), its assets imported by Godot's editor when the project holds none imported (`import_assets`). The
    project itself is not touched."""
    src = Path(project).resolve()
    dst = Path(where) / "godot_project"
    stamp = _stamp(src)
    stamp_file = Path(where) / "godot_project.stamp"
    if dst.is_dir() and stamp_file.is_file() and stamp_file.read_text() == stamp:
        return dst
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".git"), symlinks=True)
    import_assets(src, dst)  # before the add-on is in: the editor would import it and run its autoload's tool code
    (dst / ADDON_DIR).mkdir(parents=True, exist_ok=True)
    shutil.copy2(addon(), dst / ADDON_DIR / "playtester.gd")
    line = f'{AUTOLOAD}="*res://{ADDON_DIR}/playtester.gd"'
    override = dst / "override.cfg"
    text = override.read_text(encoding="utf-8") if override.is_file() else ""
    if re.search(r"^\[autoload\]\s*$", text, re.M):
        text = re.sub(r"^\[autoload\]\s*$", "[autoload]\n" + line, text, count=1, flags=re.M)
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + "[autoload]\n\n" + line + "\n"
    # last in the file: a section may be opened again, and a key's last value wins (over a project's own)
    text = text.rstrip("\n") + "\n\n[logging]\n\n" + "\n".join(NO_FILE_LOG) + "\n"
    override.write_text(text, encoding="utf-8")
    stamp_file.write_text(stamp)
    return dst


def _launch(spec: GameSpec, opts: EpisodeOptions, runner: bool) -> Launch:
    from playtester.errors import GameSpecError

    binary = godot_binary(runner)
    if binary is None:
        pkg = "godot3-runner" if runner else "godot3-server"
        raise GameSpecError(f"{spec.text}: {pkg} is not installed (apt-get install {pkg}, or `make godot`; or name "
                            f"the binary with {'PLAYTESTER_GODOT_RUNNER' if runner else 'PLAYTESTER_GODOT'})")
    where = os.path.dirname(opts.hang_dump) if opts.hang_dump else None
    if where is None:
        import tempfile

        where = tempfile.mkdtemp(prefix="playtester-godot-")
    project = prepared_copy(spec.target, where)
    home = os.path.join(where, "godot_home")
    os.makedirs(home, exist_ok=True)
    env = {"HOME": home, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home, "XDG_CACHE_HOME": home}
    fps = max(1, round(spec.config.fps))
    cmd = [binary, "--path", str(project), "--fixed-fps", str(fps), "--audio-driver", "Dummy", "--"]
    return Launch(cmd, "godot", str(project), env, True, display=runner, keeper=keeper_folder(opts))


# godot3-server's dummy rasterizer makes an Image of a mipmapped texture's data without its mipmaps: each such
# texture the game loads prints this (data 4/3 of the size expected). A renderer (godot3, godot3-runner, a player's
# Godot) loads the same texture silently, so under the server it is not the game's error.
SERVER_ONLY = re.compile(r"^create: Expected data size of \d+ bytes in Image::create\(\), got instead \d+ bytes\.?$")


class GodotRunner(RemoteRunner):
    """`RemoteRunner` for any action space: actions are performed by the space (press/release of ``blind``,
    the analyzed space's input sets), the held inputs are tracked for it, the reset asks the add-on to read
    the space's ``watch`` terms after every step, and the space's mask is computed on what they read."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        import random

        self.held = InputFrame()
        self.rng = random.Random(self.seed)
        self.watch = [list(w) for w in getattr(self.space, "watch", None) or []]
        self.watch_values: Any = None
        self.requested: dict[Any, dict[str, Any]] = {}  # `inputs_of`'s answers
        self.buttons: list[list[Any]] = []  # the clickable buttons the add-on reported last ([x, y, w, h, text])
        self.touch = reads_touch(self.spec.target)
        # the declared space's click slots: action index -> K ("click:K": the K-th button)
        self.clicks = {i: int(s[0][6:]) for i, s in enumerate(self.sets or []) if len(s) == 1
                       and s[0].startswith("click:")}

    def context(self, features: dict[str, float] | None = None) -> ActionContext:
        if features is None:
            features = self.last.features if self.last is not None else {}
        return ActionContext(held=self.held, features=features, rng=self.rng, game={"watch": self.watch_values})

    def perform(self, action: int) -> tuple[InputFrame, int | None]:
        assert self.space is not None
        if self.shared_mask is not None:  # a batch on a static space (`static_mask`): each action is its fixed inputs
            a = self.space.actions[action]  # type: ignore[attr-defined]
            return a.inputs, a.hold_frames
        return self.space.perform(action, self.context())

    def begin_step(self, inputs: InputFrame, frames: int, hold: int | None) -> None:
        super().begin_step(inputs, frames, hold)
        self.held = inputs

    def inputs_of(self, inputs: InputFrame) -> dict[str, Any]:
        """The held inputs; the analyzed space's ``key:NAME`` inputs (keys its scripts read directly) go as keys
        (``InputEventKey``s)."""
        cached = (inputs.native, inputs.keys, inputs.mouse_pos, inputs.mouse_buttons)
        out = self.requested.get(cached)
        if out is None:
            out = super().inputs_of(inputs)
            keys = [a[4:] for a in out["actions"] if a.startswith("key:")]
            if keys:
                out["actions"] = [a for a in out["actions"] if not a.startswith("key:")]
                out["keys"] = sorted(set(out["keys"]) | set(keys))
            if inputs.mouse_pos is not None:  # (an init step's mouse: pygame's buttons 1, 2, 3 are left, middle, right)
                out["mouse"] = [int(inputs.mouse_pos[0]), int(inputs.mouse_pos[1])]
            if inputs.mouse_buttons:
                out["buttons"] = sorted({1: 1, 2: 3, 3: 2}[b] for b in inputs.mouse_buttons if b in (1, 2, 3))
            if len(self.requested) < 4096:
                self.requested[cached] = out
        pointer = [a for a in out["actions"] if a.startswith(("click:", "tap:"))]
        if not pointer:  # the same inputs as an earlier step's: the same (unchanged) request part
            return out
        out = dict(out, actions=[a for a in out["actions"] if a not in pointer])
        at = self.pointer_at(pointer[0])
        if at is not None:
            out["click"] = at
        return out

    def pointer_at(self, action: str) -> list[float] | None:
        """Where ``click:K`` (the centre of the K-th reported button) or ``tap:K`` (cell K's centre) clicks, in the
        game's viewport coordinates; None when there is no K-th button (the action is masked then)."""
        kind, _, k = action.partition(":")
        if kind == "click":
            if int(k) >= len(self.buttons):
                return None
            x, y, w, h = (float(v) for v in self.buttons[int(k)][:4])
            return [x + w / 2, y + h / 2]
        hello = self.game.hello if self.game is not None else None
        screen = (hello.capabilities.get("screen") if hello else None) or [1024, 600]
        col, row = int(k) % TAP_GRID, int(k) // TAP_GRID
        return [(col + 0.5) * float(screen[0]) / TAP_GRID, (row + 0.5) * float(screen[1]) / TAP_GRID]

    def exchange(self, msg: dict[str, Any], what: str, timeout: float | None = None) -> Any:
        if msg.get("type") == "reset":
            self.held = InputFrame()
            self.buttons = []
            if self.watch:
                msg = dict(msg, watch=self.watch)
            if self.touch:
                msg = dict(msg, touch=True)
        return super().exchange(msg, what, timeout)

    def call(self, target: str, args: tuple[Any, ...]) -> tuple[Any, Any]:
        """Plans' hooks (``playtester.plans.hooks:call_hook`` / ``hook_names``) go to the game as a ``call``
        request: the add-on calls the main scene's ``playtester_NAME(args...)``; nothing else runs here."""
        module, _, fn = target.partition(":")
        if module != "playtester.plans.hooks" or fn not in ("call_hook", "hook_names") or self.game is None:
            return super().call(target, args)
        name = str(args[0]) if fn == "call_hook" and args else ""
        try:
            reply = self.game.request({"type": "call", "name": name, "args": list(args[1:])}, self.step_timeout)
        except Exception as e:  # noqa: BLE001 - a game that died or hung: the next step reports it
            return False, f"hook {name!r}: the game did not answer: {e}"
        if reply.get("type") != "reply":  # a game that does not know the request: it has no hooks
            return True, ("missing", []) if fn == "call_hook" else []
        hooks = [str(h) for h in reply.get("hooks") or []]
        if fn == "hook_names":
            return True, hooks
        if reply.get("status") != "ok":
            return True, ("missing", hooks)
        return True, ("ok", reply.get("value"))

    def static_mask(self) -> Any:
        """All ones for a space whose masks and inputs depend on nothing (the declared space: each action is its
        fixed InputMap actions, always valid), else None (``analyzed``'s masks read the watched terms, ``blind``'s
        presses and releases depend on what is held)."""
        space = self.space  # the plain ActionSpace of kind native (the drive layer does not import the actions layer)
        if space is None or self.watch or self.clicks or type(space).__name__ != "ActionSpace" \
                or getattr(space, "kind", "") != "native" \
                or any(a.when is not None or a.mode != "native" for a in getattr(space, "actions", [])):
            return None
        return super().static_mask()

    def runtime(self) -> str:
        hello = self.game.hello if self.game is not None else None
        return hello.engine_version if hello is not None else ""

    def version_refusal(self, lines: list[str]) -> str | None:
        return needs_newer_godot(lines, self.runtime())

    startup_code = "its scripts' _ready / _init"

    def load_hint(self, errors: list[str]) -> str:
        """What to do about Godot's load errors ``errors``: the ``res://`` files they name that are not in the
        project folder, a script that did not parse (an autoload said so), assets that were never imported."""
        text = "\n".join(errors)
        target = self.spec.target
        named = sorted(set(re.findall(r"res://([^\s'\"()]+?)[.,]?(?=[\s'\"()]|$)", text)))
        named = [n.rsplit(":", 1)[0] if re.search(r":\d+$", n) else n for n in named]
        missing = [n for n in dict.fromkeys(named) if not os.path.exists(os.path.join(target, n))]
        if missing:
            return f"\nNot in the project folder {target}: " + ", ".join(f"res://{n}" for n in missing)
        broken = [m for m in re.findall(r"At: (res://[^\s)]+:\d+)", text)] if "Parse Error" in text else []
        if broken:
            try:
                settings = Path(target, "project.godot").read_text(encoding="utf-8", errors="replace")
            except OSError:
                settings = ""
            autoload = settings.split("[autoload]", 1)[1].split("\n[", 1)[0] if "[autoload]" in settings else ""
            where = ", ".join(f"{b} (an autoload in project.godot)" if f'"*{b.rsplit(":", 1)[0]}"' in autoload
                              or f'"{b.rsplit(":", 1)[0]}"' in autoload else b for b in dict.fromkeys(broken))
            return (f"\nA script of the project does not parse in this Godot: {where}. Fix it there (Godot's "
                    "parse error is above; the Godot 3 editor shows it too), then run again")
        if named and not os.path.isdir(os.path.join(target, ".import")):
            return ("\nIts assets were not imported: playtester runs Godot's editor on a copy of a project that "
                    "lacks them (`ensure_imported`), and that import failed or found no editor (godot3-server or "
                    "godot3: `make godot` installs them; PLAYTESTER_GODOT_EDITOR names another)")
        return ""

    def observe(self, reply: dict[str, Any]) -> Any:
        buttons = reply.get("buttons")
        if buttons is not None:  # sent when they changed
            self.buttons = [list(b) for b in buttons]
        obs = super().observe(reply)
        if obs.logs and not self.launch.display:  # the headless server's own error, not the game's (`SERVER_ONLY`)
            obs.logs = [r for r in obs.logs if not SERVER_ONLY.match(r.message)]
        if obs.logs:  # an API newer than this Godot: the run stops with the version it needs (never a game's bug)
            lines = [ln for r in obs.logs for ln in (f"{r.level}: {r.message}", f"   At: {r.file}:{r.line}")]
            why = needs_newer_godot(lines, self.runtime())
            if why is not None:
                raise ProjectRefused(why)
        self.watch_values = reply.get("watch")
        if self.space is not None and not obs.done and self.shared_mask is None:  # (a static mask: set already)
            obs.action_mask = self.space.mask(self.context(obs.features))  # type: ignore[union-attr]
            for i, k in self.clicks.items():  # a click on the K-th button: while there is one
                if k >= len(self.buttons) and i < len(obs.action_mask):
                    obs.action_mask[i] = 0
        if self.buttons:
            obs.info["buttons"] = [list(b) for b in self.buttons]
        return obs


def _sets(spec: GameSpec, space: SpaceLike | None) -> list[tuple[str, ...]]:
    sets = getattr(space, "input_sets", None)
    return [tuple(s) for s in sets] if sets is not None else _remote_sets(spec, space)


def run_godot(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, opts: EpisodeOptions,
              runner: bool) -> None:
    """Body of an episode process for a Godot game (`playtester.drive.remote.run_remote` with `GodotRunner`)."""
    run_remote(conn, spec, seed, space, opts, lambda: _launch(spec, opts, runner), _sets(spec, space), GodotRunner)


def run_godot_episode(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, opts: EpisodeOptions) -> None:
    """Body of an episode process for ``godot:`` (godot3-server)."""
    run_godot(conn, spec, seed, space, opts, False)


def run_godot_runner_episode(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None,
                             opts: EpisodeOptions) -> None:
    """Body of an episode process for ``godot-runner:`` (godot3-runner on Xvfb: frames)."""
    run_godot(conn, spec, seed, space, opts, True)
