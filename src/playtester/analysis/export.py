"""The analyzed action space as a file people can review, edit and load again.

``playtester analyze GAME --json FILE`` writes a manual-space file (``version: 1``, ``actions`` with
the inputs of one solution per action, so ``--actions manual:FILE`` works after hand edits) that also
carries the full analysis under ``analysis`` (path conditions, validity predicates, the loop it came
from), which ``--actions analyzed:FILE`` loads as the live ``analyzed`` space without re-analysing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playtester.analysis.space import analysis_from_json, analysis_to_json, make_analyzed_space, paths_of
from playtester.drive.inputs import InputFrame, key_name
from playtester.errors import ConfigError

EXPORT_SCHEMA = 1


def manual_entry(name: str, f: InputFrame) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name}
    if f.keys:
        entry["keys"] = sorted(key_name(k) for k in f.keys)
    if f.mouse_pos is not None:
        entry["mouse"] = list(f.mouse_pos)
    if f.mouse_buttons:
        entry["buttons"] = sorted(f.mouse_buttons)
    if f.joy_axes:
        entry["axes"] = {f"{j}.{a}": v for j, a, v in f.joy_axes}
    if f.joy_buttons:
        entry["joy_buttons"] = [f"{j}.{b}" for j, b in sorted(f.joy_buttons)]
    return entry


def export(result: dict[str, Any], game: str, path: str | Path) -> None:
    """Write the analyzed space to ``path`` (JSON, readable as a manual-space YAML file too)."""
    data = {"version": 1, "actions": [manual_entry(a["name"], a.get("sample_inputs") or InputFrame())
                                      for a in result["actions"]],
            "analysis": {"schema": EXPORT_SCHEMA, "game": game, **analysis_to_json(result)}}
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def load_analyzed(path: str | Path) -> Any:
    """An `AnalyzedSpace` from a file written by `export` (its ``analysis`` part)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file (write one with: playtester analyze GAME --json {path})") from None
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}:{e.lineno}: not valid JSON ({e.msg})") from None
    analysis = data.get("analysis") if isinstance(data, dict) else None
    if not isinstance(analysis, dict) or analysis.get("schema") != EXPORT_SCHEMA:
        raise ConfigError(f"{path}: field 'analysis': missing or not schema {EXPORT_SCHEMA}; this file is not an "
                          "export of playtester analyze --json (load a manual space with --actions manual:FILE)")
    if analysis.get("engine") == "godot":  # a Godot project's GDScript analysis (analysis/gdscript.py)
        return _load_godot(path, data, analysis)
    for i, a in enumerate(analysis.get("actions", [])):
        if "name" not in a:
            raise ConfigError(f"{path}: analysis.actions[{i}]: field 'name' is missing")
        for j, p in enumerate(paths_of(a)):
            where = f"analysis.actions[{i}]" + (f".paths[{j}]" if "paths" in a else "")
            for fld in ("p_g", "p_i", "p_i_game_vars"):
                if fld not in p:
                    raise ConfigError(f"{path}: {where}: field '{fld}' is missing")
    names = [e.get("name") for e in data.get("actions", [])]
    result = analysis_from_json(analysis)
    for a, n in zip(result["actions"], names, strict=False):
        if n:
            a["name"] = n  # names edited by hand are kept
    return make_analyzed_space(result, source=f"analyzed:{path}")


def _load_godot(path: str | Path, data: dict[str, Any], analysis: dict[str, Any]) -> Any:
    from playtester.analysis.gdscript import make_space

    for i, a in enumerate(analysis.get("actions", [])):
        for fld in ("name", "held", "p_g", "p_g_text", "p_i"):
            if fld not in a:
                raise ConfigError(f"{path}: analysis.actions[{i}]: field '{fld}' is missing")
    result = {k: v for k, v in analysis.items() if k not in ("schema", "game")}
    for a, e in zip(result["actions"], data.get("actions", []), strict=False):
        if isinstance(e, dict) and e.get("name"):
            a["name"] = e["name"]  # names edited by hand are kept
    return make_space(result, source=f"analyzed:{path}")
