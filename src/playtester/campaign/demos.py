"""Demonstrations: trace files of play an explorer learns from before a campaign starts (``explore --demos``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from playtester.actions.space import space_identity
from playtester.agents.common import Demo, DemoStep
from playtester.drive.spec import GameSpec, resolve
from playtester.env import GameEnv
from playtester.errors import ConfigError
from playtester.findings import Trace


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


def play_demos(env: GameEnv, traces: list[tuple[str, Trace]]) -> list[Demo]:
    """Play each demonstration from its seed through ``env``: what each step showed, and the action taken.
    A demonstration that ends early (the game finished, crashed or hung) keeps the steps it played."""
    with env.worker.unwatched():  # no oracle checks them where the game runs: their findings would be dropped
        return _play(env, traces)


def _play(env: GameEnv, traces: list[tuple[str, Trace]]) -> list[Demo]:
    demos = []
    for source, trace in traces:
        obs, info = env.reset(seed=trace.seed)
        steps = []
        for a in trace.actions:
            nobs, r, term, trunc, ninfo = env.step(a)
            steps.append(DemoStep(obs, info, int(a), float(r)))
            obs, info = nobs, ninfo
            if term or trunc:
                break
        demos.append(Demo(source, steps))
    return demos
