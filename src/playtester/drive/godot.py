"""Godot 3 games (``godot:path/to/project``): the remote-game protocol with playtester's GDScript add-on.

The user's project is never edited: each worker copies it once into its temporary folder (again when a
file of it changes), adds the add-on (``godot_addon/playtester.gd``) and an ``override.cfg`` that makes the
add-on an autoload (Godot 3 reads ``override.cfg`` after ``project.godot``), and runs that copy:

- ``godot:`` runs Debian's ``godot3-server`` (headless, no rendering: entities, events and errors, no
  frames), the fast default;
- ``godot-runner:`` runs ``godot3-runner`` (GLES2 on Mesa's software GL) on an Xvfb display of its own, for
  frames.

Both run with ``--fixed-fps FPS`` (the game config's ``fps``): virtual time, each step exactly N frames.
The binaries can be named with ``PLAYTESTER_GODOT`` / ``PLAYTESTER_GODOT_RUNNER``.

The declared actions come from the project's InputMap (``[input]`` in project.godot; Godot's own ``ui_*``
actions left out): nothing held, each action, each pair of actions.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path
from typing import Any

from playtester.drive.context import SpaceLike
from playtester.drive.observation import EpisodeOptions
from playtester.drive.remote import (
    Launch,
    _remote_sets,
    action_labels,
    action_sets,
    keeper_folder,
    run_remote,
)
from playtester.drive.spec import GameSpec

ADDON = Path(__file__).resolve().parent / "godot_addon" / "playtester.gd"
ADDON_DIR = "addons/__playtester__"
AUTOLOAD = "PlaytesterAddon"


def godot_binary(runner: bool) -> str | None:
    name = os.environ.get("PLAYTESTER_GODOT_RUNNER" if runner else "PLAYTESTER_GODOT") or \
        ("godot3-runner" if runner else "godot3-server")
    return shutil.which(name)


def input_actions(project: str | Path) -> list[str]:
    """The actions of a project's InputMap (``[input]`` of project.godot), ``ui_*`` left out, sorted."""
    text = (Path(project) / "project.godot").read_text(encoding="utf-8", errors="replace")
    names: list[str] = []
    section = None
    for line in text.splitlines():
        m = re.match(r"^\[([^\]]+)\]\s*$", line)
        if m:
            section = m.group(1)
            continue
        if section == "input":
            a = re.match(r'^"?([^"=\s]+)"?\s*=', line)
            if a and not a.group(1).startswith("ui_"):
                names.append(a.group(1))
    return sorted(dict.fromkeys(names))


def declared_actions(spec: GameSpec) -> tuple[int, list[str]]:
    """The game's declared actions (the backend's ``declared``): from its InputMap."""
    from playtester.errors import GameSpecError

    names = input_actions(spec.target)
    if not names:
        raise GameSpecError(f"{spec.text}: project.godot declares no input actions ([input] section) to play with")
    labels = action_labels(action_sets(names))
    return len(labels), labels


def _stamp(folder: Path) -> str:
    h = hashlib.sha256(ADDON.read_bytes())
    for p in sorted(folder.rglob("*")):
        if p.is_file() and ".git" not in p.parts:
            st = p.stat()
            h.update(f"{p.relative_to(folder)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def prepared_copy(project: str | Path, where: str | Path) -> Path:
    """A copy of ``project`` under ``where`` with the add-on as an autoload (made once, remade when the project
    changes). The project itself is not touched."""
    src = Path(project).resolve()
    dst = Path(where) / "godot_project"
    stamp = _stamp(src)
    stamp_file = Path(where) / "godot_project.stamp"
    if dst.is_dir() and stamp_file.is_file() and stamp_file.read_text() == stamp:
        return dst
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".git"), symlinks=True)
    (dst / ADDON_DIR).mkdir(parents=True, exist_ok=True)
    shutil.copy2(ADDON, dst / ADDON_DIR / "playtester.gd")
    line = f'{AUTOLOAD}="*res://{ADDON_DIR}/playtester.gd"'
    override = dst / "override.cfg"
    text = override.read_text(encoding="utf-8") if override.is_file() else ""
    if re.search(r"^\[autoload\]\s*$", text, re.M):
        text = re.sub(r"^\[autoload\]\s*$", "[autoload]\n" + line, text, count=1, flags=re.M)
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + "[autoload]\n\n" + line + "\n"
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


def run_godot_episode(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, opts: EpisodeOptions) -> None:
    """Body of an episode process for ``godot:`` (godot3-server)."""
    run_remote(conn, spec, seed, space, opts, lambda: _launch(spec, opts, False), _remote_sets(spec, space))


def run_godot_runner_episode(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None,
                             opts: EpisodeOptions) -> None:
    """Body of an episode process for ``godot-runner:`` (godot3-runner on Xvfb: frames)."""
    run_remote(conn, spec, seed, space, opts, lambda: _launch(spec, opts, True), _remote_sets(spec, space))
