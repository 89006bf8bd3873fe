"""`WorkerLike`: the local `Worker` and the `RayWorker` keep one contract, so nothing above tells them apart."""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from playtester.drive.ray_worker import RayWorker
from playtester.drive.worker import Worker
from playtester.drive.workerlike import WorkerLike

METHODS = sorted(n for n, v in vars(WorkerLike).items()
                 if not n.startswith("_") and inspect.isfunction(v))
PROPERTIES = sorted(n for n, v in vars(WorkerLike).items() if isinstance(v, property))
ATTRIBUTES = sorted(WorkerLike.__annotations__)


def _assigned(cls: type) -> set[str]:
    """The ``self.NAME`` its ``__init__`` assigns, and the names its classes define."""
    source = textwrap.dedent(inspect.getsource(cls.__init__))  # type: ignore[misc]
    names = {t.attr for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.Assign, ast.AnnAssign))
             for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
             for t in (t.elts if isinstance(t, ast.Tuple) else [t])
             if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    return names | {n for k in cls.__mro__ for n in vars(k)}


def test_the_contract_names_what_the_campaign_uses():
    assert {"reset", "act_async", "act_ahead_async", "step_wait", "watch_states", "snapshot", "restore", "close",
            "call"} <= set(METHODS)
    assert {"ahead", "snapshots_supported"} <= set(PROPERTIES)
    assert {"can_act_ahead", "played", "steps", "final_code_lines", "spec"} <= set(ATTRIBUTES)


@pytest.mark.parametrize("cls", [Worker, RayWorker], ids=lambda c: c.__name__)
def test_both_workers_implement_every_member_with_the_same_parameters(cls):
    for name in METHODS:
        mine, theirs = getattr(cls, name, None), getattr(WorkerLike, name)
        assert callable(mine), f"{cls.__name__}.{name} is missing"
        assert list(inspect.signature(mine).parameters) == list(inspect.signature(theirs).parameters), name
    for name in PROPERTIES:
        assert isinstance(inspect.getattr_static(cls, name, None), property), f"{cls.__name__}.{name}: no property"
    missing = [n for n in ATTRIBUTES if n not in _assigned(cls)]
    assert not missing, f"{cls.__name__} lacks {missing}"
    assert cls.can_act_ahead is True


def test_a_real_worker_is_a_workerlike_and_the_env_asks_it_not_probes(tmp_path):
    from playtester.env import GameEnv

    env = GameEnv("blockmaze", actions="blind")
    try:
        assert isinstance(env.worker, WorkerLike) and isinstance(env.worker, Worker)
        env.reset(seed=0)
        assert env.can_act_ahead is True and env.ahead is False
        env.worker.can_act_ahead = False  # what the env says is what the worker says
        assert env.can_act_ahead is False
    finally:
        env.close()
