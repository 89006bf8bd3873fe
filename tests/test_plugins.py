"""One plugin mechanism (`playtester.plugins`): entry-point groups found by importlib.metadata, as pytest finds
``pytest11``. A package of the user's adds an engine, an oracle and an agent without editing playtester; a broken
or clashing plugin is named with its distribution."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from playtester.errors import UsageError
from playtester.plugins import PluginError, Registry

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "plugin"


def _dist_info(folder: Path, name: str, entry_points: str) -> None:
    """An installed distribution as importlib.metadata reads it: NAME-0.1.dist-info with METADATA and
    entry_points.txt, in ``folder`` (put on sys.path)."""
    info = folder / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)


def test_playtesters_own_parts_are_entry_points():
    from playtester.agents import AGENTS
    from playtester.drive.backend import backends
    from playtester.oracles import REGISTRY

    assert {b.name: b.prefix for b in backends()} == {
        "doom": "doom", "godot": "godot", "godot-runner": "godot-runner", "gym": "gym", "pygame": None,
        "remote": "remote"}
    assert REGISTRY.names()[:9] == ["assertion", "balance", "crash", "error_log", "frame_time", "hang", "memory",
                                    "stuck", "texture"]
    assert {"random", "curiosity", "wuji", "goexplore", "ppgta", "inspector"} <= set(AGENTS)


def test_a_plugin_that_does_not_import_is_named_with_its_distribution_and_error(tmp_path, monkeypatch):
    _dist_info(tmp_path, "playtester-broken", "[playtester.oracles]\nbroken = no_such_module_here:Oracle\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    oracles = Registry("oracles")
    assert "broken" in oracles and "crash" in oracles  # listed without importing anything
    with pytest.raises(PluginError) as e:
        oracles.get("broken")
    assert str(e.value) == (
        "oracle plugin 'broken' (entry point broken = no_such_module_here:Oracle in group 'playtester.oracles' of "
        "playtester-broken 0.1) failed to load: ModuleNotFoundError: No module named 'no_such_module_here'")
    assert isinstance(e.value, UsageError)  # exit code 2: the installation needs fixing


def test_two_distributions_claiming_one_name_are_both_named(tmp_path, monkeypatch):
    _dist_info(tmp_path, "playtester-one", "[playtester.agents]\nexplorer = one_pkg:Agent\n")
    _dist_info(tmp_path, "playtester-two", "[playtester.agents]\nexplorer = two_pkg:Agent\n")
    _dist_info(tmp_path, "playtester-three", "[playtester.backends]\ngym = three_pkg:BACKEND\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError, match=r"agent 'explorer' is registered twice in entry-point group "
                                          r"'playtester.agents': by playtester-(one|two) 0.1 \((one|two)_pkg:Agent\) "
                                          r"and by playtester-(one|two) 0.1"):
        Registry("agents").names()
    with pytest.raises(PluginError, match=r"backend 'gym' is registered twice .* by playtester[^-].*"
                                          r"playtester.drive.backend:GYM.* by playtester-three 0.1"):
        Registry("backends").names()


def test_a_plugin_of_the_wrong_kind_is_refused_with_its_name(tmp_path, monkeypatch):
    _dist_info(tmp_path, "playtester-odd", "[playtester.oracles]\nodd = json:dumps\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from playtester.oracles.registry import _oracle_kind

    with pytest.raises(PluginError, match=r"oracle plugin 'odd' .* of playtester-odd 0.1\) failed to load: "
                                          r"TypeError: a playtester.oracles entry point names an oracle class"):
        Registry("oracles", _oracle_kind).get("odd")


def test_a_third_party_package_adds_a_backend_an_oracle_and_an_agent(tmp_path):
    """pip installs tests/fixtures/plugin (its own pyproject.toml and entry points) into a folder; with that folder
    on the path, ``playtester explore counter:5 --agent upward`` runs the package's engine with its agent, and its
    oracle's bug is stored, replayed and reported. Without the package the same command is refused."""
    src = tmp_path / "src"
    shutil.copytree(FIXTURE, src)  # the build writes build/ and egg-info where it runs
    site = tmp_path / "site"
    env = {k: v for k, v in os.environ.items() if k not in ("PIP_REQUIRE_VIRTUALENV",)}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                          "--no-index", "--target", str(site), str(src)], capture_output=True, text=True,
                         timeout=300, env=env)
    assert pip.returncode == 0, pip.stdout[-2000:] + pip.stderr[-2000:]
    assert (site / "playtester_counter-0.1.0.dist-info" / "entry_points.txt").is_file()

    def explore(with_plugin: bool, out: str) -> subprocess.CompletedProcess:
        paths = [str(site)] if with_plugin else []
        paths += [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]  # from tmp
        run_env = dict(env, PYTHONPATH=os.pathsep.join(paths))
        return subprocess.run([sys.executable, "-c", "from playtester.cli import main; main()", "explore",
                               "counter:5", "--agent", "upward", "--budget", "40", "--out", out,
                               "--no-code-coverage", "--no-shrink"],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path, env=run_env)

    without = explore(False, "none")
    assert without.returncode == 2, without.stdout[-2000:] + without.stderr[-2000:]
    assert "no bundled game, file or importable module named 'counter'" in without.stderr

    run = explore(True, "out")
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]  # a reproduced bug
    with sqlite3.connect(tmp_path / "out" / "playtester.sqlite") as con:
        campaign = con.execute("SELECT game, agent FROM campaigns").fetchone()
        bugs = con.execute("SELECT kind, signature FROM bugs").fetchall()
    assert campaign == ("counter:5", "upward")
    assert bugs == [("counter_limit", "counter_limit:5")]
    junit = (tmp_path / "out" / "junit.xml").read_text()
    assert 'name="counter_limit"' in junit and "the counter passed 5 (6)" in junit


def test_entry_points_are_imported_only_when_asked_for():
    """Listing the agents imports none of the learning ones; resolving a gym: spec reads every backend's prefix
    but imports no engine (the pygame driver stays out of a Gymnasium game's parent); a replayer's module is
    imported when its kind is asked for."""
    code = """
import json, sys
from playtester.agents import AGENTS
from playtester.drive.backend import backend_for
from playtester.drive.spec import resolve
from playtester.replay import REPLAYERS

names = list(AGENTS)
gym = backend_for(resolve("gym:CartPole-v1")).name
listed = "plan" in REPLAYERS
watched = ("playtester.agents.", "playtester.drive.pygame", "playtester.drive.gym_driver", "playtester.plans", "torch")
before = sorted(m for m in sys.modules if m.startswith(watched))
REPLAYERS.get("plan")
print(json.dumps([names, gym, listed, before, "playtester.plans.runner" in sys.modules]))
"""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    names, gym, listed, before, plans_after = json.loads(out.stdout)
    assert {"random", "wuji", "ppgta"} <= set(names) and gym == "gym" and listed
    assert before == ["playtester.agents.common", "playtester.agents.random"]  # imported by playtester.agents
    assert plans_after
