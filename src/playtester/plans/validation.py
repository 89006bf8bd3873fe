"""Action validation, the article's Figure 7: the smallest unit of testing of explicit plans.

Every gameplay action the plan agent performs (from a node or a rule, in whatever order) goes through
`Validator.before_action`: the validation defined for that action (and target kind) runs its pre-action
callback, which captures the state it needs, and a post-action check is armed. The check is bound to an
in-game event (it runs when the event arrives) or runs after a delay; when the event does not come
within the timeout, the validation fails. Validations are defined once per action, in one place (the
game's plan config, or in Python with `Validation`), so they hold whatever order rules cause actions to
happen in. Each armed validation is one test case in the results.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playtester.drive.observation import Entity, GameEvent, Observation
from playtester.plans.schema import PlanConfig, ValidationSpec

State = dict[str, Any]


def snapshot(obs: Observation, player: str, target_id: str | None = None) -> State:
    """The state a validation sees: features, actor counts by kind (``count_enemy``), the player's
    position (``player_x``/``player_y``) and the target's attributes (``target_on``)."""
    state: State = dict(obs.features)
    counts: dict[str, int] = {}
    for e in obs.entities.values():
        counts[e.kind] = counts.get(e.kind, 0) + 1
    for kind, n in counts.items():
        state[f"count_{kind}"] = n
    p = obs.entities.get(player)
    if p is not None and p.pos is not None:
        state["player_x"], state["player_y"] = p.pos
    if target_id is not None:
        t = obs.entities.get(target_id)
        state["target_exists"] = int(t is not None)
        if t is not None:
            for k, v in t.attrs.items():
                if isinstance(v, (bool, int, float, str)):
                    state[f"target_{k}"] = int(v) if isinstance(v, bool) else v
    return state


@dataclass
class Validation:
    """The validation of one gameplay action, in Python.

    Attributes:
        name: what it checks, for people (the test case's name).
        action: the gameplay action it validates.
        target: target kind or id it is for (None: any target).
        event: the in-game event the post-action check is bound to (None: ``after_steps``).
        after_steps: run the check this many steps after the action (when not bound to an event).
        timeout_steps: steps to wait for ``event`` before failing.
        pre: the pre-action callback: state -> what to keep (default: the whole state).
        check: (before, after, event) -> (ok, message); ``after`` includes ``moved``.
    """

    name: str
    action: str
    target: str | None = None
    event: str | None = None
    after_steps: int | None = None
    timeout_steps: int = 5
    pre: Callable[[State], State] = field(default=lambda s: dict(s))
    check: Callable[[State, State, GameEvent | None], tuple[bool, str]] = field(
        default=lambda b, a, e: (True, ""))
    capture: list[str] = field(default_factory=list)

    def applies(self, action: str, kind: str | None, target_id: str | None) -> int:
        """0 when it does not apply; 2 for a validation of this target, 1 for one of any target."""
        if action != self.action:
            return 0
        if self.target is None:
            return 1
        return 2 if self.target in (kind, target_id) else 0


def from_spec(spec: ValidationSpec) -> Validation:
    """A `Validation` from its declarative form (a plan config entry)."""
    from playtester.expr import compile_expr

    pred = compile_expr(spec.check, f"validation {spec.label()!r} check") if spec.check else None

    def check(before: State, after: State, event: GameEvent | None) -> tuple[bool, str]:
        if pred is None:
            return True, ""
        env = dict(after)
        env.update({f"before_{k}": v for k, v in before.items()})
        if event is not None:
            env.update({f"event_{k}": v for k, v in event.data.items() if isinstance(v, (int, float, str, bool))})
        if pred(env):
            return True, ""
        shown = _shown(spec.check or "", env)
        return False, f"check failed: {spec.check}" + (f" ({shown})" if shown else "")

    return Validation(spec.label(), spec.action, spec.target, spec.event, spec.after_steps, spec.timeout_steps,
                      check=check, capture=list(spec.capture))


def _shown(expr: str, env: State) -> str:
    import ast

    try:
        names = sorted({n.id for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Name)})
    except SyntaxError:
        return ""
    return ", ".join(f"{n}={_fmt(env.get(n, 0))}" for n in names)


def _fmt(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def validations_of(cfg: PlanConfig) -> list[Validation]:
    return [from_spec(s) for s in cfg.validations]


@dataclass
class ValidationResult:
    """One armed validation: a test case.

    Attributes:
        name: the validation's name.
        context: what performed the action (``node 1 'interact switch'`` or ``rule 'attack ...'``).
        action, target: the action and its target (id, or the kind when none was found).
        step: the step the action was performed at; ``done_step`` when the verdict came.
        ok: passed; None while pending.
        message: why it failed (or what it saw).
        before, after: the captured values (``capture`` features) before and after.
    """

    name: str
    context: str
    action: str
    target: str | None
    step: int
    ok: bool | None = None
    message: str = ""
    done_step: int | None = None
    before: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def case_name(self) -> str:
        on = f" on {self.target}" if self.target else ""
        return f"{self.context}: {self.action}{on}: {self.name}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "context": self.context, "action": self.action, "target": self.target,
                "step": self.step, "ok": self.ok, "message": self.message, "done_step": self.done_step,
                "before": self.before, "after": self.after}


@dataclass
class _Pending:
    validation: Validation
    result: ValidationResult
    before: State
    start_pos: tuple[float, float] | None
    target_id: str | None
    t0: float


class Validator:
    """Arms validations before actions and resolves them on the observations that follow.

    Args:
        validations: the game's validations (one place, whatever order actions come in).
        player: the player actor's id (for ``moved`` and positions).
        on_result: called with each `ValidationResult` when its verdict is known.
    """

    def __init__(self, validations: list[Validation], player: str,
                 on_result: Callable[[ValidationResult], None] | None = None) -> None:
        self.validations = validations
        self.player = player
        self.on_result = on_result
        self.results: list[ValidationResult] = []
        self.pending: list[_Pending] = []

    def find(self, action: str, kind: str | None, target_id: str | None) -> Validation | None:
        best = max(self.validations, key=lambda v: v.applies(action, kind, target_id), default=None)
        return best if best is not None and best.applies(action, kind, target_id) else None

    def before_action(self, obs: Observation, step: int, action: str, kind: str | None, target_id: str | None,
                      context: str) -> ValidationResult | None:
        """The pre-action callback: capture the state, arm the post-action check. None: no validation."""
        import time

        v = self.find(action, kind, target_id)
        if v is None:
            return None
        state = snapshot(obs, self.player, target_id)
        before = v.pre(state)
        result = ValidationResult(v.name, context, action, target_id or kind, step,
                                  before={k: state.get(k) for k in v.capture})
        self.results.append(result)
        p = obs.entities.get(self.player)
        self.pending.append(_Pending(v, result, before, p.pos if p is not None else None, target_id,
                                     time.perf_counter()))
        return result

    def _moved(self, pend: _Pending, obs: Observation) -> float:
        p = obs.entities.get(self.player)
        if p is None or p.pos is None or pend.start_pos is None:
            return 0.0
        return math.hypot(p.pos[0] - pend.start_pos[0], p.pos[1] - pend.start_pos[1])

    def _decide(self, pend: _Pending, obs: Observation, step: int, ok: bool, message: str) -> None:
        import time

        r = pend.result
        r.ok, r.message, r.done_step = ok, message, step
        r.seconds = time.perf_counter() - pend.t0
        state = snapshot(obs, self.player, pend.target_id)
        r.after = {k: state.get(k) for k in pend.validation.capture}
        self.pending.remove(pend)
        if self.on_result:
            self.on_result(r)

    def observe(self, obs: Observation, step: int) -> None:
        """Resolve armed validations with the observation of ``step`` (events, delays, timeouts)."""
        used: set[int] = set()
        for pend in list(self.pending):
            v = pend.validation
            if step <= pend.result.step - 1:
                continue
            event = None
            if v.event is not None:
                for i, ev in enumerate(obs.events):
                    if ev.name == v.event and i not in used:
                        event = ev
                        used.add(i)
                        break
                if event is None:
                    if step - pend.result.step + 1 >= v.timeout_steps:
                        self._decide(pend, obs, step, False, f"expected event {v.event!r} within "
                                     f"{v.timeout_steps} steps of the action; it did not come")
                    continue
            elif step - pend.result.step + 1 < (v.after_steps or 0):
                continue
            after = snapshot(obs, self.player, pend.target_id)
            after["moved"] = self._moved(pend, obs)
            ok, msg = v.check(pend.before, after, event)
            self._decide(pend, obs, step, ok, msg or (f"event {v.event!r} came" if v.event else "checked"))

    def finish(self, obs: Observation, step: int, reason: str) -> None:
        """The run ended: what is still pending fails (its event never came)."""
        for pend in list(self.pending):
            v = pend.validation
            what = f"event {v.event!r}" if v.event else "its delayed check"
            self._decide(pend, obs, step, False, f"{reason} before {what} (action at step {pend.result.step})")

    @property
    def failed(self) -> list[ValidationResult]:
        return [r for r in self.results if r.ok is False]


def entity_distance(a: Entity, b: Entity) -> float:
    if a.pos is None or b.pos is None:
        return math.inf
    return math.hypot(a.pos[0] - b.pos[0], a.pos[1] - b.pos[1])
