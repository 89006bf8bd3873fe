"""The explicit plan agent (EPA): follows a plan's nodes in order; when rules apply, the one with the
highest priority interrupts; when none applies, the plan resumes where it left off.

It runs in the parent process and drives the game through a `Worker`, one step at a time, with the
plan config's controls as an action space: every move and gameplay action is the game's normal input
(keys held or tapped), never a call into the game. Teleports and the walkable grid go through the hooks
the game registered (`Worker.call` runs them in the game process). Every gameplay action passes
through the `Validator` (pre-action capture, post-action check). Everything it does is recorded (the
action indices, hook calls, and which gameplay action was performed at which step on what), so a
failing run can be replayed exactly.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playtester.actions.space import Action, ActionSpace
from playtester.drive.inputs import InputFrame
from playtester.drive.observation import Entity, Observation
from playtester.errors import UsageError, WorkerError
from playtester.plans.navigation import Decision, Navigator, NavState, PathNavigator, Task, TeleportNavigator
from playtester.plans.schema import Node, Plan, PlanConfig, Rule
from playtester.plans.validation import Validation, ValidationResult, Validator, validations_of

HOOKS = "playtester.plans.hooks:call_hook"
Log = Callable[[str], None]


def make_navigator(name: str, **kwargs: Any) -> Navigator:
    """A navigator by name: ``teleport``, ``path`` or ``learned``."""
    if name == "path":
        return PathNavigator()
    if name == "teleport":
        return TeleportNavigator()
    if name == "learned":
        from playtester.plans.learned import LearnedNavigator  # (torch: imported when asked for)

        return LearnedNavigator(**kwargs)
    raise UsageError(f"unknown navigation {name!r}; use teleport, path or learned")


def control_space(cfg: PlanConfig) -> ActionSpace:
    """The plan config's controls as an action space (one action per control, in the config's order)."""
    actions = []
    for name, c in cfg.controls.items():
        frame = InputFrame.make(keys=c.keys, mouse=c.mouse, buttons=c.buttons)
        actions.append(Action(name, frame, mode="hold", hold_frames=c.frames, description=c.description))
    return ActionSpace("plan", actions, source=cfg.source)


@dataclass
class ActionRecord:
    """A gameplay action the agent performed: at which step, on what, for which node or rule."""

    step: int
    action: str
    kind: str | None
    target: str | None
    context: str

    def to_list(self) -> list[Any]:
        return [self.step, self.action, self.kind, self.target, self.context]


@dataclass
class PlanResult:
    """How a plan run went.

    Attributes:
        ok: every node completed, every validation passed, the game did not end badly.
        reason: one line saying why it failed (or "completed").
        steps: steps played.
        nodes_done: nodes completed, of ``nodes_total``.
        validations: the test cases, in the order they were armed.
        actions: the action index of each step (into `control_space`), for replay.
        hook_calls: ``[step, hook, args]``: hooks called before that step's action.
        performed: the gameplay actions performed (`ActionRecord` lists), for replay.
        failed_step: the step the first failure was known at.
        events: names of the game events seen, in order.
    """

    plan: str
    game: str
    navigation: str
    seed: int
    ok: bool
    reason: str
    steps: int
    nodes_done: int
    nodes_total: int
    validations: list[ValidationResult]
    actions: list[int]
    hook_calls: list[list[Any]]
    performed: list[ActionRecord]
    failed_step: int | None = None
    seconds: float = 0.0
    events: list[str] = field(default_factory=list)

    @property
    def failed_validations(self) -> list[ValidationResult]:
        return [v for v in self.validations if v.ok is False]


class HookError(UsageError):
    """The game does not offer a hook a plan needs."""


def call_hook(worker: Any, name: str, *args: Any) -> Any:
    status, value = worker.call(HOOKS, name, *args)
    if status == "missing":
        raise HookError(f"the game registers no {name!r} hook (it has: {', '.join(value) or 'none'}); add "
                        f"probe.hook({name!r}, ...) to the game, or use another --navigation")
    return value


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


class PlanAgent:
    """Runs one plan on one game episode.

    Args:
        plan: the plan.
        cfg: the game's plan config.
        worker: a `Worker` created with ``control_space(cfg)``.
        navigation: overrides the plan's navigation.
        log: called with a line for each node, rule and validation as it happens.
        validations: overrides the config's validations (Python `Validation` objects).
        learned_policy: path of the policy weights for ``learned`` navigation (default: the shipped one).
    """

    def __init__(self, plan: Plan, cfg: PlanConfig, worker: Any, navigation: str | None = None,
                 log: Log | None = None, validations: list[Validation] | None = None,
                 learned_policy: str | None = None) -> None:
        self.plan = plan
        self.cfg = cfg
        self.worker = worker
        self.space = worker.space if worker.space is not None else control_space(cfg)
        self.index = {a.name: i for i, a in enumerate(self.space.actions)}
        self.navigation = navigation or plan.navigation
        self.log = log or (lambda s: None)
        self.learned_policy = learned_policy
        self._navs: dict[str, Any] = {}
        self.validator = Validator(validations if validations is not None else validations_of(cfg), cfg.player,
                                   on_result=self._on_result)
        self.actions: list[int] = []
        self.hook_calls: list[list[Any]] = []
        self.performed: list[ActionRecord] = []
        self.events: list[str] = []
        self.step_no = 0
        self._failed_step: int | None = None

    # ---- helpers
    def _nav(self, name: str) -> Any:
        if name not in self._navs:
            kwargs = {"policy_path": self.learned_policy} if name == "learned" and self.learned_policy else {}
            self._navs[name] = make_navigator(name, **kwargs)
        return self._navs[name]

    def _on_result(self, r: ValidationResult) -> None:
        mark = "PASS" if r.ok else "FAIL"
        extra = "" if r.ok else f": {r.message}"
        self.log(f"  [{mark}] validation '{r.name}' ({r.action}" + (f" on {r.target}" if r.target else "")
                 + f", {r.context}, step {r.step} -> {r.done_step}){extra}")
        if not r.ok and self._failed_step is None:
            self._failed_step = r.done_step

    def _act(self, name: str) -> Observation:
        i = self.index[name]
        self.actions.append(i)
        self.step_no += 1
        obs = self.worker.act(i)
        self.events += [e.name for e in obs.events]
        return obs

    def _player(self, obs: Observation) -> Entity | None:
        return obs.entities.get(self.cfg.player)

    def _busy(self, player: Entity) -> bool:
        return any(bool(player.attrs.get(a)) for a in self.cfg.busy_attrs)

    def _grid(self) -> Any:
        return call_hook(self.worker, "walkable")

    def _nav_state(self, obs: Observation, player: Entity, need_grid: bool, exclude: str | None) -> NavState:
        assert player.pos is not None
        facing = player.attrs.get("facing")
        avoid = [e.pos for e in obs.entities.values()
                 if e.kind in self.cfg.avoid and e.pos is not None and e.id != exclude]
        grid = self._grid() if need_grid else None
        return NavState(player.pos, facing if isinstance(facing, str) else None, grid, dict(self.cfg.moves), avoid)

    def resolve(self, obs: Observation, ref: str, player: Entity, ignore: set[str] = frozenset()) -> Entity | None:
        """The actor ``ref`` names: the entity with that id, else the nearest entity of that kind."""
        e = obs.entities.get(ref)
        if e is not None and e.pos is not None:
            return e
        cands = [x for x in obs.entities.values() if x.kind == ref and x.pos is not None and x.id not in ignore]
        if not cands or player.pos is None:
            return None
        return min(cands, key=lambda x: (_dist(x.pos, player.pos), x.id))  # type: ignore[arg-type]

    def _perform(self, obs: Observation, action: str, kind: str | None, target: str | None, context: str) -> Observation:
        self.validator.before_action(obs, self.step_no + 1, action, kind, target, context)
        self.performed.append(ActionRecord(self.step_no + 1, action, kind, target, context))
        self.log(f"  {context}: {action}" + (f" on {target}" if target else (f" ({kind} not found)" if kind else ""))
                 + f" (step {self.step_no + 1})")
        return self._act(action)

    def _teleport(self, cell: tuple[int, int]) -> bool:
        ok = bool(call_hook(self.worker, "teleport", cell[0], cell[1]))
        self.hook_calls.append([self.step_no, "teleport", [cell[0], cell[1]]])
        return ok

    def _navigate(self, obs: Observation, player: Entity, task: Task, mode: str) -> tuple[str, Observation | None, str]:
        """One navigation step: ("arrived" | "moved" | "unreachable", new obs or None, reason)."""
        nav = self._nav(mode)
        for _ in range(16):  # teleport candidates refused by the game are retried within the step
            state = self._nav_state(obs, player, nav.needs_grid, task.actor_id)
            d: Decision = nav.step(task, state)
            if d.kind == "arrived":
                return "arrived", None, ""
            if d.kind == "teleport":
                assert d.cell is not None
                if self._teleport(d.cell):
                    return "moved", self._act(self.cfg.idle), ""
                continue
            if d.kind == "move" and d.move is not None:
                return "moved", self._act(d.move), ""
            if d.kind == "unreachable":
                if d.move is not None:
                    return "moved", self._act(d.move), d.reason
                return "unreachable", None, d.reason
            return "moved", self._act(self.cfg.idle), ""
        return "unreachable", None, "the teleport hook refused every approach tile"

    # ---- rules
    def _applicable(self, obs: Observation, player: Entity, ignored: set[tuple[int, str]]) -> tuple[int, Rule, Entity | None] | None:
        from playtester.expr import compile_expr

        best: tuple[int, Rule, Entity | None] | None = None
        for i, rule in enumerate(self.plan.rules):
            w = rule.when
            if w.features is not None and not compile_expr(w.features, "when.features")(obs.features):
                continue
            actor = None
            if w.actor is not None:
                cands = [e for e in obs.entities.values()
                         if (e.id == w.actor or e.kind == w.actor) and e.pos is not None and e.id != self.cfg.player
                         and (i, e.id) not in ignored]
                if w.within is not None and player.pos is not None:
                    cands = [e for e in cands if _dist(e.pos, player.pos) <= w.within]  # type: ignore[arg-type]
                if not cands:
                    continue
                actor = min(cands, key=lambda e: (_dist(e.pos, player.pos), e.id))  # type: ignore[arg-type]
            if best is None or rule.priority > best[1].priority:
                best = (i, rule, actor)
        return best

    # ---- the run
    def run(self, seed: int | None = None) -> PlanResult:
        t0 = time.perf_counter()
        plan, cfg = self.plan, self.cfg
        seed = plan.seed if seed is None else seed
        for nav in self._navs.values():
            nav.reset()
        obs = self.worker.reset(seed=seed)
        self.events += [e.name for e in obs.events]
        self.log(f"plan '{plan.name}' on {self.worker.spec.text} (navigation {self.navigation}, seed {seed}): "
                 f"{len(plan.nodes)} nodes, {len(plan.rules)} rules")
        node_i = 0
        node_steps = 0
        node_acted = False
        node_waited = 0
        node_target: str | None = None
        node_started = False
        current_rule: tuple[int, str | None] | None = None
        rule_steps = 0
        ignored: set[tuple[int, str]] = set()
        reason = ""
        died = None
        problems: list[str] = []
        last_done: dict[int, int] = {}
        while True:
            self.validator.observe(obs, self.step_no)
            bad = [e.name for e in obs.events if e.name in cfg.done_events]
            if bad:
                died = bad[0]
            if self.validator.failed and plan.stop_on_failure:
                reason = f"validation '{self.validator.failed[0].name}' failed"
                break
            if died:
                reason = f"the game reported {died!r} at step {self.step_no}"
                break
            if obs.done:
                if node_i < len(plan.nodes):
                    why = obs.info.get("done_reason") or (obs.exit.describe() if obs.exit else "the game ended")
                    reason = f"the game ended ({why}) at node {node_i + 1} of {len(plan.nodes)}"
                break
            if self.step_no >= plan.max_steps:
                reason = f"the plan ran out of steps ({plan.max_steps}) at node {min(node_i + 1, len(plan.nodes))}"
                break
            if node_i >= len(plan.nodes) and not self.validator.pending:
                break
            player = self._player(obs)
            if player is None or player.pos is None:
                reason = f"the game reports no player actor {cfg.player!r} with a position (probe.entity)"
                break
            if self._busy(player):
                obs = self._act(cfg.idle)
                continue

            # rules interrupt the nodes
            picked = self._applicable(obs, player, ignored)
            if picked is not None:
                ri, rule, actor = picked
                key = (ri, actor.id if actor else None)
                if current_rule != key:
                    rule_steps = 0
                    where = f" ({actor.id} at {actor.pos[0]:.1f},{actor.pos[1]:.1f})" if actor and actor.pos else ""
                    self.log(f"rule '{rule.label()}' (priority {rule.priority}) applies{where}"
                             + (f"; node {node_i + 1} waits" if node_i < len(plan.nodes) else ""))
                    current_rule = key
                    self._nav(self.navigation).reset()
                rule_steps += 1
                if actor is not None and rule_steps > rule.give_up_steps:
                    self.log(f"rule '{rule.label()}' gives up on {actor.id} after {rule.give_up_steps} steps")
                    ignored.add((ri, actor.id))
                    current_rule = None
                    continue
                if actor is None or actor.pos is None:
                    arrived_now = True
                else:
                    face = rule.action in cfg.face_actions if rule.action else False
                    task = Task(actor.pos, rule.tolerance, face, actor.id, actor.id)
                    status, new_obs, _why = self._navigate(obs, player, task, self.navigation)
                    if status == "moved":
                        obs = new_obs  # type: ignore[assignment]
                        continue
                    if status == "unreachable":
                        ignored.add((ri, actor.id))
                        self.log(f"rule '{rule.label()}' cannot reach {actor.id}: {_why}; ignoring it")
                        current_rule = None
                        continue
                    arrived_now = True
                if arrived_now:
                    if rule.action is None:
                        if actor is not None:
                            ignored.add((ri, actor.id))  # reached it (collected, or nothing more to do)
                        obs = self._act(cfg.idle)
                        current_rule = None
                        continue
                    if any(p.result.action == rule.action for p in self.validator.pending) or \
                            self.step_no - last_done.get(ri, -10**9) < rule.cooldown_steps:
                        obs = self._act(cfg.idle)  # the last one's verdict (or the game's cooldown) first
                        continue
                    last_done[ri] = self.step_no + 1
                    obs = self._perform(obs, rule.action, actor.kind if actor else None,
                                        actor.id if actor else None, f"rule '{rule.label()}'")
                continue
            if current_rule is not None:
                current_rule = None
                if node_i < len(plan.nodes):
                    self.log(f"no rule applies: resuming node {node_i + 1}")
                    self._nav(self.navigation).reset()

            if node_i >= len(plan.nodes):  # all nodes done: let pending validations conclude
                obs = self._act(cfg.idle)
                continue
            node: Node = plan.nodes[node_i]
            mode = node.mode or self.navigation
            if not node_started:
                self.log(f"node {node_i + 1}/{len(plan.nodes)}: {node.label()}" + (f" [{node.mode}]" if node.mode else ""))
                node_started = True
                self._nav(mode).reset()
            context = f"node {node_i + 1} '{node.label()}'"
            target_pos: tuple[float, float] | None = None
            kind: str | None = None
            if node.actor is not None:
                ent = obs.entities.get(node_target) if node_target else None
                if ent is None:
                    ent = self.resolve(obs, node.actor, player)
                if ent is not None:
                    node_target, target_pos, kind = ent.id, ent.pos, ent.kind
                else:
                    kind = node.actor
            elif node.at is not None:
                target_pos = (float(node.at[0]), float(node.at[1]))
            reached = node_acted or target_pos is None
            if not reached and target_pos is not None:
                node_steps += 1
                face = node.face if node.face is not None else (node.action in cfg.face_actions)
                task = Task(target_pos, node.tolerance, face, node_target or node.label(), node_target)
                if node_steps > node.timeout_steps:
                    self.log(f"  {context}: not reached in {node.timeout_steps} steps; acting where the player is")
                    reached = True
                else:
                    status, new_obs, why = self._navigate(obs, player, task, mode)
                    if status == "moved":
                        obs = new_obs  # type: ignore[assignment]
                        continue
                    if status == "unreachable":
                        self.log(f"  {context}: out of reach: {why}; acting where the player is")
                    reached = True
            if node.actor is not None and target_pos is None and not node_acted:
                self.log(f"  {context}: no actor {node.actor!r} in the game; acting where the player is")
                problems.append(f"node {node_i + 1}: no actor {node.actor!r} in the game")
            if node.action is not None and not node_acted:
                node_acted = True
                obs = self._perform(obs, node.action, kind, node_target, context)
                if node.wait == 0 and node_i == len(plan.nodes) - 1:
                    node_i += 1
                continue
            if node_waited < node.wait:
                node_waited += 1
                obs = self._act(cfg.idle)
                continue
            self.log(f"  {context}: done (step {self.step_no})")
            node_i += 1
            node_steps, node_acted, node_waited, node_target, node_started = 0, False, 0, None, False
        if self.validator.pending:
            self.validator.finish(obs, self.step_no, reason or "the run ended")
            if not reason and self.validator.failed:
                reason = f"validation '{self.validator.failed[0].name}' failed"
        if not reason and plan.success_event and plan.success_event not in self.events:
            reason = f"the game never reported {plan.success_event!r}"
        if not reason and problems:
            reason = problems[0]
        ok = not reason and node_i >= len(plan.nodes) and not self.validator.failed
        if not ok and not reason:
            reason = f"validation '{self.validator.failed[0].name}' failed" if self.validator.failed else "incomplete"
        failed_step = self._failed_step if self._failed_step is not None else (None if ok else self.step_no)
        self.log(("PASSED" if ok else "FAILED") + f": plan '{plan.name}' after {self.step_no} steps, "
                 f"{min(node_i, len(plan.nodes))}/{len(plan.nodes)} nodes, "
                 f"{sum(1 for v in self.validator.results if v.ok)}/{len(self.validator.results)} validations passed"
                 + ("" if ok else f" ({reason})"))
        return PlanResult(plan.name, self.worker.spec.text, self.navigation, seed, ok, reason or "completed",
                          self.step_no, min(node_i, len(plan.nodes)), len(plan.nodes), list(self.validator.results),
                          list(self.actions), list(self.hook_calls), list(self.performed), failed_step,
                          time.perf_counter() - t0, list(self.events))


def replay_actions(worker: Any, cfg: PlanConfig, seed: int, actions: list[int], hook_calls: list[list[Any]],
                   performed: list[list[Any]], validations: list[Validation] | None = None,
                   log: Log | None = None, stop_at_failure: bool = True) -> tuple[list[ValidationResult], int | None, list[str]]:
    """Play recorded actions (and hook calls) again, with the same validations armed at the same steps.

    Returns:
        (validation results, the step of the first failure or None, the game events seen).
    """
    log = log or (lambda s: None)
    failed_at: list[int] = []

    def on_result(r: ValidationResult) -> None:
        log(f"  [{'PASS' if r.ok else 'FAIL'}] validation '{r.name}' ({r.context}, step {r.step} -> {r.done_step})"
            + ("" if r.ok else f": {r.message}"))
        if not r.ok and not failed_at:
            failed_at.append(r.done_step or 0)

    validator = Validator(validations if validations is not None else validations_of(cfg), cfg.player, on_result)
    by_step: dict[int, list[list[Any]]] = {}
    for h in hook_calls:
        by_step.setdefault(int(h[0]), []).append(h)
    perf = {int(p[0]): p for p in performed}
    names = [a.name for a in worker.space.actions]
    obs = worker.reset(seed=seed)
    events = [e.name for e in obs.events]
    step = 0
    for i, a in enumerate(actions):
        validator.observe(obs, step)
        if (failed_at and stop_at_failure) or obs.done:
            break
        for h in by_step.get(i, []):
            try:
                call_hook(worker, h[1], *h[2])
            except WorkerError:
                break
        p = perf.get(step + 1)
        if p is not None:
            validator.before_action(obs, step + 1, p[1], p[2], p[3], p[4])
        elif names[a] in cfg.gameplay_actions:
            validator.before_action(obs, step + 1, names[a], None, None, "replayed input")
        obs = worker.act(a)
        step += 1
        events += [e.name for e in obs.events]
    else:
        validator.observe(obs, step)
    if validator.pending:
        validator.finish(obs, step, "the recorded inputs ended")
    return validator.results, (failed_at[0] if failed_at else None), events
