"""The installable package (issue 54): ``python -m build --wheel`` makes a wheel that carries every data file the
code reads at run time, and a fresh venv with only that wheel (its dependencies from the package index) runs a
campaign on a bundled game from a folder outside the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "playtester"
JUNK = ("__pycache__", ".pyc", ".egg-info")


def data_files() -> set[str]:
    """The package's files that are not Python code, as wheel paths (``playtester/games/blockmaze.toml``)."""
    out = set()
    for path in PACKAGE.rglob("*"):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        if path.is_file() and path.suffix != ".py" and not any(j in rel for j in JUNK):
            out.add(rel)
    return out


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def build_wheel(tmp: Path) -> Path:
    """Build the wheel from a copy of the project (the build leaves build/ and egg-info where it runs)."""
    proj = tmp / "proj"
    proj.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, proj / name)
    shutil.copytree(ROOT / "src", proj / "src", ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    dist = tmp / "dist"
    out = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--skip-dependency-check",
                          "--outdir", str(dist), str(proj)], capture_output=True, text=True, timeout=300,
                         env=clean_env())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    wheels = list(dist.glob("playtester-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_carries_the_data_and_runs_from_a_fresh_venv(tmp_path):
    wheel = build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = data_files()
    # what the code loads by path: bundled game configs, the Godot add-on and project, the model bundles
    for must in ("playtester/games/blockmaze.toml", "playtester/games/blockmaze.actions.yaml",
                 "playtester/drive/godot_addon/playtester.gd", "playtester/games/godot/coinhop/project.godot",
                 "playtester/plans/nav_policy.pt", "playtester/vision/park-texture.pt"):
        assert must in expected, must  # the list below is the tree's, not a guess
    missing = sorted(expected - names)
    assert not missing, f"data files not in the wheel (add them to [tool.setuptools.package-data]): {missing}"
    assert "playtester/cli.py" in names and "playtester/games/remote/refgame.py" in names
    # playtester's own parts are entry points (playtester.plugins): the wheel's metadata carries every group
    with zipfile.ZipFile(wheel) as z:
        eps = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    import configparser
    import tomllib

    parsed = configparser.ConfigParser(delimiters=("=",))
    parsed.optionxform = str  # names as written (godot-runner, error_log)
    parsed.read_string(eps)
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    for group in ("playtester.backends", "playtester.oracles", "playtester.agents", "playtester.spaces",
                  "playtester.replayers", "playtester.judges"):
        assert dict(parsed[group]) == declared[group], group
    assert parsed["playtester.backends"]["doom"] == "playtester.drive.backend:DOOM"

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    out = subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(wheel)], capture_output=True, text=True,
                         timeout=600, env=clean_env())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]

    work = tmp_path / "elsewhere"
    work.mkdir()
    run = subprocess.run([str(env_dir / "bin" / "playtester"), "explore", "blockmaze", "--budget", "200",
                          "--workers", "1", "--out", "OUT"], capture_output=True, text=True, timeout=300,
                         cwd=work, env=clean_env())
    assert run.returncode in (0, 1), run.stdout[-3000:] + run.stderr[-3000:]
    assert (work / "OUT" / "report.html").is_file()
    # the installed copy ran, not this checkout
    where = subprocess.run([str(py), "-c", "import playtester; print(playtester.__file__)"], capture_output=True,
                           text=True, cwd=work, env=clean_env())
    assert str(env_dir) in where.stdout and str(ROOT) not in where.stdout
