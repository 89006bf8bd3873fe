"""Backends: which engine runs a spec, and capability flags instead of engine names."""

from __future__ import annotations

import pytest

from playtester.drive.backend import (
    BACKENDS,
    Backend,
    Capabilities,
    backend_for,
    capabilities,
    register_backend,
)
from playtester.drive.spec import resolve

GYM = "gym:MiniGrid-Empty-5x5-v0"


def test_specs_map_to_their_backend_and_capabilities():
    assert backend_for(resolve("blockmaze")).name == "pygame"
    pytest.importorskip("minigrid")
    gym = resolve(GYM)
    assert backend_for(gym).name == "gym"
    caps = capabilities(gym)
    assert caps.declared_actions and not caps.snapshots and not caps.analysis and not caps.code_coverage
    assert capabilities(resolve("blockmaze")).snapshots


def test_a_kind_runs_on_one_backend_only():
    other = Backend("other", ("gym",), Capabilities(False, False, False, False, True, False, True), "x:y")
    with pytest.raises(ValueError, match="already runs on backend 'gym'"):
        register_backend(other)
    prefixed = Backend("other", ("other",), Capabilities(False, False, False, False, True, False, True), "x:y",
                       prefix="doom")
    with pytest.raises(ValueError, match="prefix 'doom:' is already backend 'doom'"):
        register_backend(prefixed)
    assert "other" not in BACKENDS and BACKENDS.get("gym").name == "gym"


def test_spec_prefixes_come_from_the_backends():
    """`resolve` asks each backend for its prefix: a backend added with one resolves its specs, and its
    games run on it; without it the same text is a module name that does not resolve."""
    from playtester.drive.spec import GameSpec
    from playtester.errors import GameSpecError

    with pytest.raises(GameSpecError):
        resolve("xtoy:level1")
    register_backend(Backend("xtoy", ("xtoy",), Capabilities(False, False, False, False, True, False, True),
                             "x:y", prefix="xtoy", resolve=f"{__name__}:_resolve_xtoy"))
    try:
        spec = resolve("xtoy:level1")
        assert isinstance(spec, GameSpec) and (spec.kind, spec.target) == ("xtoy", "level1")
        assert backend_for(spec).name == "xtoy"
        assert resolve("gym:CartPole-v1").kind == "gym" and resolve("blockmaze").kind == "module"
    finally:
        BACKENDS.remove("xtoy")
    with pytest.raises(GameSpecError):
        resolve("xtoy:level1")


def _resolve_xtoy(text, folders):
    from playtester.drive.spec import GameSpec

    return GameSpec(text, "xtoy", text.partition(":")[2])


def test_what_a_backend_cannot_do_is_refused_by_capability():
    """A declared-actions engine gets its own space and no other; no snapshots, analysis or code coverage;
    and a playtester function cannot run inside it (the shared command loop answers, it does not hang)."""
    pytest.importorskip("minigrid")
    from playtester.analysis import AnalysisError, analyze
    from playtester.env import GameEnv, resolve_space
    from playtester.errors import UsageError, WorkerError

    spec = resolve(GYM)
    with pytest.raises(UsageError, match="declares its own discrete actions"):
        resolve_space(spec, "blind")
    with pytest.raises(AnalysisError, match="gym backend"):
        analyze(spec)
    env = GameEnv(spec, code_coverage=True)
    try:
        assert env.space.kind == "native" and env.worker.code_include is None
        env.reset(seed=0)
        assert not env.worker.snapshots_supported and env.snapshot() is None
        with pytest.raises(WorkerError, match="runs no playtester functions"):
            env.worker.call("playtester.drive.pygame_driver:scene")
        _, _, term, _, info = env.step(2)  # the episode goes on after the refused call
        assert info["features"]["x"] == 2.0 and not term
    finally:
        env.close()
