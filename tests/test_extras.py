"""The default install is light: torch and the language tools are extras, and a feature that needs
one says which extra to install instead of failing with an ImportError."""

from __future__ import annotations

import subprocess
import sys

import pytest

from playtester.errors import UsageError
from playtester.extras import require

BLOCK = "import sys; sys.modules.update(torch=None, spacy=None, rapidfuzz=None); "


def test_require_names_the_extra_and_how_to_install_it():
    with pytest.raises(UsageError, match=r"pip install 'playtester\[text\]'") as e:
        require("playtester_no_such_module", "text", "text-to-plan")
    assert "text-to-plan needs playtester_no_such_module" in str(e.value)
    assert require("json", "text", "x").dumps([1]) == "[1]"


def light_install_block() -> tuple[str, set[str]]:
    """Code that makes every installed top-level module unimportable but the standard library's and those of the
    distributions playtester's core dependencies need (their closure, no extras): the default install, simulated in
    this venv (which has every extra), so that an import the core dependencies do not bring fails here as it does on a
    machine with `pip install -e .` only. Also the names blocked."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    allowed: set[str] = set()
    todo = ["playtester"]
    while todo:
        dist = canonicalize_name(todo.pop())
        if dist in allowed:
            continue
        allowed.add(dist)
        try:
            requires = metadata.requires(dist) or []
        except metadata.PackageNotFoundError:
            continue
        for text in requires:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    blocked = {mod for mod, dists in metadata.packages_distributions().items()
               if mod.isidentifier() and mod not in sys.stdlib_module_names
               and not any(canonicalize_name(d) in allowed for d in dists)}
    return f"import sys; sys.modules.update(dict.fromkeys({sorted(blocked)!r})); ", blocked


def test_a_campaign_with_the_random_agent_runs_on_the_default_install(tmp_path):
    """What `make demo` runs, in an interpreter where only the core dependencies (and what they need) can be imported:
    torch, spaCy, rapidfuzz and whatever else the extras bring (click, which typer 0.29 no longer needs, once slipped
    in this way) cannot."""
    block, blocked = light_install_block()
    assert {"torch", "spacy", "pytest"} <= blocked and not {"pygame", "z3", "typer", "yaml"} & blocked
    code = block + ("from playtester.cli import main; sys.argv = ['playtester', 'explore', 'blockmaze', '--actions', "
                    f"'analyzed', '--budget', '150', '--no-shrink', '--out', {str(tmp_path / 'run')!r}]; main()")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert res.returncode in (0, 1), res.stdout + res.stderr
    assert (tmp_path / "run" / "report.html").is_file() and "Traceback" not in res.stderr


def test_a_learning_agent_without_torch_says_which_extra_before_storing_anything(tmp_path):
    code = BLOCK + ("from playtester.cli import main; sys.argv = ['playtester', 'explore', 'blockmaze', '--agent', "
                    f"'wuji', '--budget', '50', '--out', {str(tmp_path / 'run')!r}]; main()")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "the wuji agent needs PyTorch" in res.stderr and "pip install 'playtester[agents]'" in res.stderr
    assert not (tmp_path / "run").exists()


def test_a_doom_game_without_vizdoom_says_which_extra(tmp_path):
    """`doom:` games need the doom extra: without vizdoom, `run` exits 2 naming it (and starts no worker)."""
    code = ("import sys; sys.modules.update(vizdoom=None); from playtester.cli import main; "
            "sys.argv = ['playtester', 'run', 'doom:freedoom2:MAP01', '--steps', '10']; main()")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "doom: games (ViZDoom) needs vizdoom" in res.stderr and "pip install 'playtester[doom]'" in res.stderr
