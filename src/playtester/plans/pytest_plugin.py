"""A pytest plugin that collects explicit plans (``*.plan.yaml``) as tests, so a studio's CI runs them
with its other tests. Registered through the ``pytest11`` entry point: installing playtester is enough.

Each plan file is one test item (named after the plan); it runs the plan on a fresh episode of its game
(``game:`` in the plan, or ``--plan-game``) and fails with the failed validations and the reason.
Options: ``--plan-game GAME``, ``--plan-navigation teleport|path|learned``, ``--plan-out DIR`` (store
failed runs there for ``playtester replay``), ``--plan-game-arg name=value`` (repeatable).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

SUFFIX = ".plan.yaml"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("playtester-plans", "playtester explicit plans (*.plan.yaml)")
    group.addoption("--plan-game", default=None, help="run every plan on this game spec")
    group.addoption("--plan-navigation", default=None, choices=("teleport", "path", "learned"),
                    help="navigation of every plan (default: each plan's)")
    group.addoption("--plan-out", default=None, help="store failed plan runs in this folder (DIR/bugs/N)")
    group.addoption("--plan-game-arg", action="append", default=[], help="game argument name=value")


def pytest_collect_file(parent: pytest.Collector, file_path: Any) -> pytest.Collector | None:
    if file_path.name.endswith(SUFFIX):
        return PlanFile.from_parent(parent, path=file_path)
    return None


class PlanFailed(Exception):
    """A plan run failed; carries its result."""

    def __init__(self, result: Any) -> None:
        super().__init__(result.reason)
        self.result = result


class PlanFile(pytest.File):
    def collect(self) -> Any:
        from playtester.errors import PlaytesterError
        from playtester.plans.schema import load_plan

        try:
            plan = load_plan(self.path)
        except PlaytesterError as e:  # a bad file is a collection error naming file, line and field
            raise self.CollectError(str(e)) from None
        yield PlanItem.from_parent(self, name=plan.name, plan=plan)


class PlanItem(pytest.Item):
    def __init__(self, *, plan: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.plan = plan
        self.lines: list[str] = []

    def runtest(self) -> None:
        from playtester.plans.runner import plan_spec, run_plan, store_failure

        opt = self.config.getoption
        args: dict[str, Any] = {}
        for item in opt("--plan-game-arg") or []:
            key, _, value = item.partition("=")
            try:
                args[key] = json.loads(value)
            except json.JSONDecodeError:
                args[key] = value
        spec = plan_spec(self.plan, opt("--plan-game"), args)
        result, cfg, spec = run_plan(self.plan, spec, opt("--plan-navigation"), log=self.lines.append)
        self.user_properties.append(("navigation", result.navigation))
        self.user_properties.append(("steps", result.steps))
        for v in result.validations:
            self.user_properties.append((v.case_name, "pass" if v.ok else f"FAIL: {v.message}"))
        if not result.ok:
            if opt("--plan-out"):
                bug = store_failure(self.plan, result, spec, cfg, opt("--plan-out"))
                self.lines.append(f"stored as bug {bug}: playtester replay {opt('--plan-out')}/bugs/{bug}")
            raise PlanFailed(result)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        from playtester.errors import PlaytesterError

        if isinstance(excinfo.value, PlanFailed):
            r = excinfo.value.result
            failed = "\n".join(f"  FAILED {v.case_name}: {v.message}" for v in r.failed_validations)
            return (f"plan '{self.plan.name}' failed: {r.reason}\n" + (failed + "\n" if failed else "")
                    + "run log:\n" + "\n".join(self.lines[-40:]))
        if isinstance(excinfo.value, PlaytesterError):
            return f"plan '{self.plan.name}': {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, 0, f"plan: {self.name}"
