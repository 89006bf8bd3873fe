"""Run plans like tests: output as it happens, a verdict, JUnit XML, failing traces to the store, replay.

`run_plan` runs one plan on one game episode. `run_plans` runs several (the CLI's ``plan run``), writes
JUnit XML (one test suite per plan; one test case per armed validation, plus one for the plan's
completion), and stores each failed run as a bug of kind ``plan`` in ``DIR/playtester.sqlite`` with a
trace (seed, the control space, the action of every step) and what replay needs (hook calls, which
gameplay action each step performed). ``playtester replay DIR/bugs/N`` plays those inputs again with
the same validations armed and checks that the same validation fails at the same step.
"""

from __future__ import annotations

import json
import os
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playtester.drive.spec import GameSpec, resolve
from playtester.errors import UsageError
from playtester.files import write_atomic, xml_safe
from playtester.plans.agent import PlanAgent, PlanResult, control_space, replay_actions
from playtester.plans.schema import (
    Plan,
    PlanConfig,
    check_plan_against,
    config_for,
    config_path_for,
    load_plan,
)
from playtester.replay import Replayer

Log = Callable[[str], None]


def plan_spec(plan: Plan, game: str | None = None, game_args: dict[str, Any] | None = None,
              config: str | Path | None = None) -> GameSpec:
    """The game a plan runs on: ``game`` (else the plan's ``game``) with the plan's and the given
    game arguments on top of the game's own."""
    text = game or plan.game
    if not text:
        raise UsageError(f"plan {plan.source or plan.name!r} names no game; pass --game GAME or add 'game:' to it")
    spec = resolve(text, config=config)
    args = dict(spec.config.game_args) | dict(plan.game_args) | dict(game_args or {})
    if args != spec.config.game_args:
        spec = spec.with_config(game_args=args)
    return spec


def run_plan(plan: Plan, spec: GameSpec | None = None, navigation: str | None = None, seed: int | None = None,
             log: Log | None = None, cfg: PlanConfig | None = None, worker: Any = None,
             learned_policy: str | None = None) -> tuple[PlanResult, PlanConfig, GameSpec]:
    """Run ``plan`` once on a fresh episode of its game.

    Returns:
        (the result, the plan config used, the game spec used).
    """
    from playtester.drive.worker import Worker

    spec = spec or plan_spec(plan)
    cfg = cfg or config_for(spec, plan)
    check_plan_against(plan, cfg)
    own = worker is None
    w = worker or Worker(spec, control_space(cfg), capture=None)
    try:
        agent = PlanAgent(plan, cfg, w, navigation=navigation, log=log, learned_policy=learned_policy)
        result = agent.run(seed)
    finally:
        if own:
            w.close()
        else:
            w.end_episode()
    return result, cfg, spec


# ------------------------------------------------------------------------------------------------- JUnit
def junit_tree(runs: Sequence[tuple[Plan, PlanResult]]) -> ET.ElementTree:
    """JUnit XML: one ``<testsuite>`` per plan run, one ``<testcase>`` per armed validation and one for
    the plan itself (all nodes done, nothing failed)."""
    root = ET.Element("testsuites", {"name": "playtester plans"})
    total = fails = 0
    total_time = 0.0
    for plan, r in runs:
        cases = len(r.validations) + 1
        failed = len(r.failed_validations) + (0 if r.ok else 1)
        total += cases
        fails += failed
        total_time += r.seconds
        suite = ET.SubElement(root, "testsuite", {
            "name": f"plan.{plan.name}", "tests": str(cases), "failures": str(failed), "errors": "0",
            "skipped": "0", "time": f"{r.seconds:.3f}",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S"), "file": plan.source or ""})
        props = ET.SubElement(suite, "properties")
        for k, v in [("game", r.game), ("navigation", r.navigation), ("seed", r.seed), ("steps", r.steps),
                     ("nodes", f"{r.nodes_done}/{r.nodes_total}")]:
            ET.SubElement(props, "property", {"name": k, "value": xml_safe(str(v))})
        for v in r.validations:
            case = ET.SubElement(suite, "testcase", {"classname": f"plan.{plan.name}", "name": xml_safe(v.case_name),
                                                    "time": f"{v.seconds:.3f}"})
            if not v.ok:
                el = ET.SubElement(case, "failure", {"message": xml_safe(v.message or "failed"), "type": "validation"})
                el.text = xml_safe(f"{v.case_name}\naction at step {v.step}, verdict at step {v.done_step}\n"
                                 f"{v.message}\nbefore: {v.before}\nafter: {v.after}")
        case = ET.SubElement(suite, "testcase", {"classname": f"plan.{plan.name}", "name": "plan completes",
                                                "time": f"{r.seconds:.3f}"})
        if not r.ok:
            el = ET.SubElement(case, "failure", {"message": xml_safe(r.reason), "type": "plan"})
            el.text = xml_safe(f"{r.reason}\nnodes done: {r.nodes_done}/{r.nodes_total}, steps: {r.steps}, "
                             f"navigation: {r.navigation}, seed: {r.seed}")
    root.set("tests", str(total))
    root.set("failures", str(fails))
    root.set("errors", "0")
    root.set("time", f"{total_time:.3f}")
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(runs: Sequence[tuple[Plan, PlanResult]], out: str | Path) -> Path:
    return write_atomic(out, ET.tostring(junit_tree(runs).getroot(), encoding="utf-8", xml_declaration=True))


# ----------------------------------------------------------------------------------- failures and replay
def signature_of(plan: Plan, r: PlanResult) -> str:
    """What makes two plan failures the same bug: the plan and the first failed validation (or why)."""
    if r.failed_validations:
        v = r.failed_validations[0]
        return f"plan '{plan.name}': validation '{v.name}' failed ({v.context})"
    reason = r.reason.split(" at step ")[0].split(" at node ")[0]
    return f"plan '{plan.name}': {reason}"


def store_failure(plan: Plan, r: PlanResult, spec: GameSpec, cfg: PlanConfig, out: str | Path) -> int:
    """Store a failed run as a bug of kind ``plan`` with its replayable trace; write ``DIR/bugs/N/``.

    Returns:
        The bug id.
    """
    from playtester.actions.space import space_to_dict
    from playtester.findings import BUG_JSON_SCHEMA, Finding, Trace
    from playtester.plans.schema import plan_to_dict
    from playtester.store import Store

    out = Path(out)
    store = Store(out)
    try:
        space = space_to_dict(control_space(cfg))
        config = spec.config.model_dump()
        cid = store.new_campaign(spec.text, config, f"plan:{r.navigation}", space, f"plan {plan.name}", 1, r.seed,
                                 "none")
        step = r.failed_step if r.failed_step is not None else r.steps
        v = r.failed_validations[0] if r.failed_validations else None
        details = {"plan": plan_to_dict(plan), "plan_file": plan.source, "plan_config": cfg.source,
                   "navigation": r.navigation, "hook_calls": r.hook_calls,
                   "performed": [p.to_list() for p in r.performed], "validation": v.to_dict() if v else None,
                   "reason": r.reason, "traceback": "\n".join(
                       f"{x.case_name}: {'PASS' if x.ok else 'FAIL ' + x.message}" for x in r.validations)}
        message = (f"{v.case_name}: {v.message}" if v else r.reason)[:500]
        finding = Finding("plan", message, signature_of(plan, r), step, plan.source or "", details)
        trace = Trace(spec.text, config, r.seed, space, list(r.actions), origin=os.getcwd())
        bug_id, _ = store.record_finding(cid, spec.text, finding, trace, r.seconds)
        store.update_campaign(cid, status="finished", steps=r.steps, episodes=1, elapsed_s=r.seconds)
        folder = out / "bugs" / str(bug_id)
        write_atomic(folder / "bug.json", json.dumps({"schema": BUG_JSON_SCHEMA, "id": bug_id, "kind": "plan",
                                                      "signature": finding.signature, "message": message,
                                                      "step": step, "details": details}, indent=2, default=str))
        write_atomic(folder / "trace.json", trace.to_json())
        return bug_id
    finally:
        store.close()


def replay_plan_bug(bug: Any, runs: int = 2, trace: Any = None) -> Any:
    """Replay a plan bug's recorded inputs ``runs`` times with the same validations armed; reproduced
    when the same failure happens at the same step every time (`playtester.replay.ReplayReport`)."""
    from playtester.drive.worker import Worker
    from playtester.env import space_from_dict
    from playtester.plans.schema import load_config
    from playtester.replay import ReplayReport, trace_spec

    trace = trace or bug.trace
    if trace is None:
        raise UsageError(f"bug {bug.id} has no trace to replay")
    d = bug.details
    cfg_path = d.get("plan_config")
    if not cfg_path or not Path(cfg_path).is_file():
        raise UsageError(f"bug {bug.id}: its plan config {cfg_path!r} is missing; cannot re-arm its validations")
    cfg = load_config(cfg_path)
    expected_name = (d.get("validation") or {}).get("name")
    steps: list[int | None] = []
    worker = Worker(trace_spec(trace), space_from_dict(trace.space), capture=None)
    try:
        for _ in range(runs):
            results, failed_at, events = replay_actions(worker, cfg, trace.seed, trace.actions,
                                                        d.get("hook_calls", []), d.get("performed", []))
            if expected_name is not None:
                first = next((r for r in results if r.ok is False), None)
                steps.append(first.done_step if first is not None and first.name == expected_name else None)
            else:
                bad = [e for e in events if e in cfg.done_events]
                steps.append(bug.first_step if (bad or failed_at is None) else failed_at)
    finally:
        worker.close()
    return ReplayReport(bug.signature, bug.first_step, steps)


# ------------------------------------------------------------------------------------------------ CLI body
@dataclass
class RunSummary:
    runs: list[tuple[Plan, PlanResult]]
    bugs: list[int]
    junit: Path | None

    @property
    def ok(self) -> bool:
        return all(r.ok for _, r in self.runs)


def run_plans(paths: Sequence[str | Path], game: str | None = None, navigation: str | None = None,
              seed: int | None = None, game_args: dict[str, Any] | None = None, junit: str | Path | None = None,
              out: str | Path | None = None, log: Log | None = None, learned_policy: str | None = None) -> RunSummary:
    """Run plan files (each on a fresh episode), write JUnit, store failures. Plans are loaded (and
    checked against their game's plan config) before any runs, so a bad file fails fast."""
    log = log or print
    plans = [load_plan(p) for p in paths]
    prepared = []
    for plan in plans:
        spec = plan_spec(plan, game, game_args)
        cfg = config_for(spec, plan)
        check_plan_against(plan, cfg)
        prepared.append((plan, spec, cfg))
    runs: list[tuple[Plan, PlanResult]] = []
    bugs: list[int] = []
    for plan, spec, cfg in prepared:
        result, cfg, spec = run_plan(plan, spec, navigation, seed, log, cfg, learned_policy=learned_policy)
        runs.append((plan, result))
        if not result.ok and out is not None:
            bug_id = store_failure(plan, result, spec, cfg, out)
            bugs.append(bug_id)
            log(f"  stored as bug {bug_id}: replay with 'playtester replay {Path(out) / 'bugs' / str(bug_id)}'")
    path = write_junit(runs, junit) if junit else None
    return RunSummary(runs, bugs, path)


__all__ = ["RunSummary", "config_path_for", "junit_tree", "plan_spec", "replay_plan_bug", "run_plan", "run_plans",
           "signature_of", "store_failure", "write_junit"]


# the entry point ``plan`` of the group playtester.replayers
REPLAYER = Replayer(replay_plan_bug, not_shrunk="plan traces are not shrunk, since a plan's validations are tied "
                    "to the steps the plan took")
