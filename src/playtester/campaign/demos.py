"""Demonstrations: trace files of play an explorer learns from before a campaign starts (``explore --demos``).

Replayed demonstrations are kept in the cache (`playtester.files.cache_dir`, ``demos``), one entry per trace, under
a hash of everything that decides what the replay shows: the trace, the game (its spec and config, and the content
of every file of its folder), the observation settings, playtester's own files and the versions of Python, NumPy and
pygame. A campaign with the same demonstrations then reads them instead of playing them again (the park's 158 take
about 200 s to play). Games whose code playtester cannot see (Gymnasium ids, remote commands, ViZDoom) are always
played. Two campaigns replaying the same trace at once take turns: the second waits and reads the first's entry.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import sys
import time
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playtester.actions.space import space_identity, space_to_dict
from playtester.agents.common import Demo, DemoStep
from playtester.drive.spec import GameSpec, resolve
from playtester.env import GameEnv
from playtester.errors import ConfigError, TraceFormatError
from playtester.files import (
    UnsafeDataFile,
    cache_dir,
    folder_fingerprint,
    pack_tree,
    unpack_tree,
    write_atomic,
)
from playtester.findings import Trace

log = logging.getLogger(__name__)
CACHE_FORMAT = 2  # of an entry (bumped when what it holds changes; 2: `files.pack_tree`, no longer a pickle)
CACHE_MAX_BYTES = 4 << 30  # the oldest entries (by last use) go when the folder holds more
BIG_FILE = 64 << 20  # a game file larger than this is known by its size and time, not read
MAX_FILES, MAX_READ = 5000, 512 << 20  # a game folder larger than this is not fingerprinted (no cache)


def load_demos(paths: Sequence[str | Path], spec: GameSpec, space: dict[str, Any]) -> list[tuple[str, Trace]]:
    """The demonstration traces in ``paths``, checked against the campaign's game and action space. A path
    is a trace file or a folder: a bug folder (``DIR/bugs/N``, which holds ``trace.json``) gives its
    ``trace.json`` (not ``min_trace.json``, a prefix of it, nor ``bug.json``); any other folder gives every
    ``*.json`` in it and the ``trace.json`` of each bug folder in it (so ``DIR/bugs`` gives every bug's).

    Any trace is a demonstration: one written by a script or by `explore` (a bug's ``trace.json``), or
    play recorded with the same action space. A trace of another game, game arguments or action space
    would show the agent actions that do not mean what they meant; that is a ConfigError naming the file.
    """
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = [p / "trace.json"] if (p / "trace.json").is_file() else \
                sorted(p.glob("*.json")) + sorted(p.glob("*/trace.json"))
            if not found:
                raise ConfigError(f"demonstrations folder {p} holds no trace files (*.json, or */trace.json of "
                                  "bug folders)")
            files += found
        elif p.is_file():
            files.append(p)
        else:
            raise ConfigError(f"demonstration {p} does not exist; pass trace files or folders of them")
    out: list[tuple[str, Trace]] = []
    cfg = spec.config.model_dump(mode="json")
    for f in files:
        try:
            trace = Trace.from_json(f.read_text())
        except TraceFormatError as e:
            raise ConfigError(f"demonstration {f} cannot be read as a trace: {e}") from None
        except ConfigError as e:
            raise ConfigError(f"demonstration {f}: {e}") from None
        except (OSError, UnicodeDecodeError, TypeError) as e:
            raise ConfigError(f"demonstration {f} cannot be read as a trace: {e}") from None
        where = f"demonstration {f}"
        try:
            game = resolve(trace.game).name
        except Exception:  # noqa: BLE001 - a game that no longer resolves is reported below by name
            game = trace.game
        if game != spec.name:
            raise ConfigError(f"{where} plays {trace.game!r}, not {spec.text!r}; pass demonstrations of this game")
        for key in ("game_args", "frames_per_action"):
            if trace.config.get(key) != cfg.get(key):
                raise ConfigError(f"{where} was played with {key} = {trace.config.get(key)!r}, this campaign uses "
                                  f"{cfg.get(key)!r}; record it again, or run the campaign with the same {key}")
        if space_identity(trace.space) != space_identity(space):  # content, not the path it was loaded from
            names = [a.get("name") for a in trace.space.get("actions", [])]
            raise ConfigError(f"{where} uses another action space ({len(names)} actions: "
                              f"{', '.join(map(str, names[:6]))}{', ...' if len(names) > 6 else ''}); its action "
                              "numbers would mean other inputs. Run the campaign with --actions matching the "
                              "demonstration's, or record it again")
        if not trace.actions:
            raise ConfigError(f"{where} has no actions")
        out.append((str(f), trace))
    return out


def play_demos(env: GameEnv, traces: list[tuple[str, Trace]], counts: dict[str, Any] | None = None) -> list[Demo]:
    """Play each demonstration from its seed through ``env``: what each step showed, and the action taken.
    A demonstration that ends early (the game finished, crashed or hung) keeps the steps it played. A trace
    replayed before with the same game, settings and playtester is read from the cache instead (module docstring).
    ``counts`` (when given) gets how many traces were ``read`` from the cache and ``played``, and the ``seconds``."""
    folder = cache_dir("demos")
    context = _context(env) if folder is not None else None
    demos, played, t0 = [], 0, time.perf_counter()
    with env.worker.unwatched():  # no oracle checks them where the game runs: their findings would be dropped
        for source, trace in traces:
            entry = None if context is None or folder is None else \
                folder / (hashlib.sha256((context + trace.to_json()).encode()).hexdigest()[:40] + ".demo")
            steps = _read(entry, trace)
            if steps is None:
                with _turn(entry):  # another campaign replaying this trace now: wait for it, then read its entry
                    steps = _read(entry, trace)
                    if steps is None:
                        steps, played = _replay(env, trace), played + 1
                        _write(entry, steps)
            demos.append(Demo(source, steps))
    seconds = time.perf_counter() - t0
    log.info("demonstrations: %d of %d read from the cache, %.1f s", len(traces) - played, len(traces), seconds)
    if counts is not None:
        counts.update(read=len(traces) - played, played=played, seconds=round(seconds, 2))
    return demos


def _replay(env: GameEnv, trace: Trace) -> list[DemoStep]:
    obs, info = env.reset(seed=trace.seed)
    steps = []
    for a in trace.actions:
        nobs, r, term, trunc, ninfo = env.step(a)
        steps.append(DemoStep(obs, info, int(a), float(r)))
        obs, info = nobs, ninfo
        if term or trunc:
            break
    return steps


# ---- the cache of replayed demonstrations
def _context(env: GameEnv) -> str | None:
    """What decides a replay's observations besides the trace, as text; None when the game's code cannot be
    seen (a Gymnasium id, a remote command, ViZDoom: replayed every time)."""
    spec = env.spec_
    game = _game_folder(spec)
    if game is None:
        return None
    versions = [sys.version]
    for dist in ("numpy", "pygame-ce", "pygame", "gymnasium"):
        try:
            from importlib.metadata import version

            versions.append(f"{dist}={version(dist)}")
        except Exception:  # noqa: BLE001 - not installed
            versions.append(f"{dist}=-")
    parts = [f"format {CACHE_FORMAT}", *versions, spec.text, spec.kind, spec.target, str(spec.function),
             spec.config.model_dump_json(), space_identity(space_to_dict(env.space)), env.obs_type,
             str(env.obs_size), str(env.frames_per_action), str(env.max_episode_steps), str(env.render_mode)]
    trees = [_tree_hash(Path(__file__).resolve().parents[1]), _tree_hash(game)]
    if None in trees:
        log.info("demonstrations: %s holds too many files to fingerprint; they are played every time", game)
        return None
    return "\n".join(parts + [t for t in trees if t is not None]) + "\n"


def _game_folder(spec: GameSpec) -> Path | None:
    """The folder of the game's own files: the module's (its package's, for a package), the file's, the Godot
    project; None for games run from elsewhere."""
    if spec.kind in ("godot", "godot-runner"):
        return Path(spec.target)
    if spec.kind == "file":
        return Path(spec.target).resolve().parent
    if spec.kind != "module":
        return None
    if spec.root:
        return Path(spec.root)
    try:
        found = importlib.util.find_spec(spec.target)
    except (ImportError, ValueError):
        return None
    if found is None or not found.origin or not Path(found.origin).is_file():
        return None
    return Path(found.origin).resolve().parent


def _tree_hash(folder: Path) -> str | None:
    """The content of every file under ``folder`` (compiled caches left out; a file over BIG_FILE by its size and
    modification time). Read at every campaign start (playtester's own files: about 4 MB, some milliseconds). None
    for a folder of more than MAX_FILES files or MAX_READ bytes to read (a game kept beside a virtual environment,
    say): its demonstrations are played every time rather than fingerprinted for seconds."""
    return folder_fingerprint(folder, skip_dirs=("__pycache__", ".git"), skip_suffixes=(".demo",),
                              big_file=BIG_FILE, max_files=MAX_FILES, max_read=MAX_READ)


def _read(entry: Path | None, trace: Trace) -> list[DemoStep] | None:
    """The steps kept in ``entry`` for ``trace``, or None (none there, torn, of another format or trace)."""
    if entry is None:
        return None
    try:
        data = unpack_tree(zlib.decompress(entry.read_bytes()), f"demonstration cache entry {entry}")
        if data["format"] != CACHE_FORMAT or list(data["actions"]) != list(trace.actions[:len(data["actions"])]):
            return None
        steps = [DemoStep(o, i, int(a), float(r))
                 for o, i, a, r in zip(data["obs"], data["infos"], data["actions"], data["rewards"], strict=True)]
    except UnsafeDataFile as e:  # a pickle (the old format) or not ours: never unpickled; played again
        log.warning("%s; the demonstration is played again and its entry replaced", e)
        return None
    except (OSError, zlib.error, EOFError, KeyError, TypeError, ValueError,
            AttributeError, ImportError, IndexError):
        return None
    try:
        os.utime(entry)  # last used now: the cache's pruning removes the longest unused first
    except OSError:
        pass
    return steps


def _write(entry: Path | None, steps: list[DemoStep]) -> None:
    if entry is None:
        return
    try:
        blob = zlib.compress(pack_tree({"format": CACHE_FORMAT, "obs": [s.obs for s in steps],
                                        "infos": [s.info for s in steps], "actions": [s.action for s in steps],
                                        "rewards": [s.reward for s in steps]}), 1)
    except TypeError as e:  # something in an observation or info that is not plain data: not kept
        log.info("demonstrations: not kept in the cache (%s); played again next time", e)
        return
    try:
        write_atomic(entry, blob)
        _prune(entry.parent)
    except OSError as e:  # a read-only or full disk: played again next time
        log.warning("cannot keep a replayed demonstration in %s (%s); set PLAYTESTER_CACHE to a writable folder, "
                    "or to off", entry.parent, e)


def _prune(folder: Path, limit: int = CACHE_MAX_BYTES) -> None:
    entries = []
    for p in folder.glob("*.demo"):
        try:
            st = p.stat()
        except OSError:
            continue
        entries.append((st.st_mtime, st.st_size, p))
    total = sum(size for _, size, _ in entries)
    for _, size, p in sorted(entries):
        if total <= limit:
            break
        p.unlink(missing_ok=True)
        p.with_suffix(".lock").unlink(missing_ok=True)
        total -= size


@contextmanager
def _turn(entry: Path | None) -> Iterator[None]:
    """Hold the entry's lock file (an advisory lock: where there is none, nobody waits)."""
    if entry is None:
        yield
        return
    try:
        import fcntl
    except ImportError:  # not on this platform: two campaigns may both replay, and both write the same entry
        yield
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(entry.with_suffix(".lock"), os.O_CREAT | os.O_RDWR, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
