"""Replay traces, check that a bug reproduces, and shrink its trace with delta debugging.

- `run_trace` plays a `Trace` (game, config, seed, action space, actions) in a fresh worker with every
  oracle watching, and returns the findings with the step each fired at (and the last frames).
- `replay_bug` replays a bug's trace twice: reproduced when its signature fires at the same step both
  times; *flaky* when the two runs differ.
- `ddmin` is Zeller's delta debugging: remove chunks, then single actions, trying shorter candidates
  first, until the trace is 1-minimal (removing any one action loses the bug) or the test budget is
  spent. `minimize_bug` applies it to a bug's trace.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from playtester.drive.observation import Observation
from playtester.drive.spec import GameSpec, resolve
from playtester.drive.worker import Worker
from playtester.errors import UsageError
from playtester.findings import Bug, Finding, Trace
from playtester.oracles import kinds, make_oracles, oracle_settings
from playtester.plugins import Registry

T = TypeVar("T")


def trace_spec(trace: Trace) -> GameSpec:
    """The game spec a trace was recorded with (its full config), resolved from the folder it was recorded in (so
    ``replay`` works from any folder)."""
    if trace.origin and os.path.isdir(trace.origin):
        with contextlib.chdir(trace.origin):
            return resolve(trace.game, **trace.config)
    return resolve(trace.game, **trace.config)


@dataclass
class TraceRun:
    """What happened when a trace was played."""

    findings: list[Finding]
    steps: int
    done: bool
    frames: list[np.ndarray] = field(default_factory=list)

    def fired_at(self, signature: str) -> int | None:
        """The step at which ``signature`` first fired, or None."""
        return next((f.step for f in self.findings if f.signature == signature), None)


REPLAY_CHUNK = 16  # steps of a trace sent to the worker in one go (those past a stop are played, not checked)


def run_trace(trace: Trace, stop_on: str | None = None, keep_frames: int = 0, capture: Any = None,
              worker: Worker | None = None) -> TraceRun:
    """Play ``trace`` with every oracle watching.

    Args:
        trace: what to play.
        stop_on: stop as soon as this signature fires.
        keep_frames: keep the last N frames (needs ``capture``).
        capture: frame capture for the worker (``"full"`` or a size); None: the one the trace was recorded with.
        worker: a worker to reuse (its spec and space must match the trace's); a fresh one otherwise.
    """
    spec = trace_spec(trace)
    suite = make_oracles(oracle_settings(spec))
    own = worker is None
    if capture is None:
        capture = trace.frame_capture or ("full" if keep_frames else None)
    from playtester.env import space_from_dict  # (gymnasium: imported when a trace is replayed)

    w = worker or Worker(spec, space_from_dict(trace.space), capture=capture)
    frames: deque[np.ndarray] = deque(maxlen=max(keep_frames, 1))
    findings: list[Finding] = []
    try:
        suite.reset()
        obs = w.reset(seed=trace.seed)
        step = 0
        ahead: list[Observation] = []  # answers of steps sent together, not yet checked (last first)
        while True:
            if keep_frames and obs.frame is not None:
                frames.append(obs.frame)
            found = suite.check(obs, step)
            findings += found
            if obs.done or (stop_on and any(f.signature == stop_on for f in found)) or step >= len(trace.actions):
                break
            if not ahead:  # the trace's inputs are known: send a chunk of them at once (no round trip each)
                chunk = trace.actions[step:step + REPLAY_CHUNK]
                ahead = w.step_many([(a, None) for a in chunk])[::-1]
            obs = ahead.pop()
            step += 1
        return TraceRun(findings, step, obs.done, list(frames) if keep_frames else [])
    finally:
        if own:
            w.close()
        else:
            w.end_episode()


@dataclass
class ReplayReport:
    """The verdict of replaying a bug twice."""

    signature: str
    expected_step: int
    steps: list[int | None]  # where the signature fired in each run (None: it did not)

    @property
    def reproduced(self) -> bool:
        return all(s == self.expected_step for s in self.steps)

    @property
    def flaky(self) -> bool:
        return len(set(self.steps)) > 1

    def describe(self) -> str:
        if self.reproduced:
            return f"reproduced: {self.signature} fired at step {self.expected_step} in all {len(self.steps)} runs"
        if self.flaky:
            return (f"FLAKY: the runs differ (fired at steps {self.steps}, expected {self.expected_step}); the "
                    "game is not deterministic for this trace")
        return f"not reproduced: fired at {self.steps[0]} in every run, expected step {self.expected_step}"


# Replayers of bug kinds that no oracle raises, registered by the layer that makes them (a failed explicit
# plan: `playtester.plans.runner` replays its inputs with its validations armed).
@dataclass(frozen=True)
class Replayer:
    """How bugs of one kind replay: ``replay(bug, runs=, trace=) -> ReplayReport``, and why ddmin may not shrink
    them (None: it may; no kind registered here offers a ``fails`` test yet)."""

    replay: Callable[..., ReplayReport]
    not_shrunk: str | None = None


def _replayer(kind: str, obj: Any) -> Replayer:
    if not isinstance(obj, Replayer):
        raise TypeError(f"a playtester.replayers entry point names a playtester.replay.Replayer, not {obj!r}")
    return obj


# Each an entry point of the group ``playtester.replayers`` named after its bug kind (the plan's: ``plan``),
# imported when a bug of that kind is replayed.
REPLAYERS: Registry[Replayer] = Registry("replayers", _replayer)


def register_replayer(kind: str, replay: Callable[..., ReplayReport], not_shrunk: str | None = None) -> None:
    """Replay bugs of ``kind`` with ``replay(bug, runs=..., trace=...)`` in `replay_bug`; ``not_shrunk``: the
    reason `minimize_bug` refuses them. In code; an installed replayer is an entry point of
    ``playtester.replayers`` naming a `Replayer`."""
    REPLAYERS.add(kind, Replayer(replay, not_shrunk))


def _custom(kind: str) -> Replayer | None:
    return REPLAYERS.get(kind) if kind in REPLAYERS else None


def _unknown_kind(bug: Bug) -> UsageError:
    return UsageError(f"bug {bug.id} is a {bug.kind!r} bug and no replayer for that kind is installed (the package "
                      "whose oracle or plan made it adds one to the entry-point group playtester.replayers)")


def replay_bug(bug: Bug, runs: int = 2, trace: Trace | None = None) -> ReplayReport:
    """Replay a bug's trace ``runs`` times and compare where its signature fires (a bug of a kind with a
    registered replayer, such as a failed plan, is replayed by that)."""
    custom = _custom(bug.kind)
    if custom is not None:
        return custom.replay(bug, runs=runs, trace=trace)
    if bug.kind not in kinds():
        raise _unknown_kind(bug)
    trace = trace or bug.trace
    if trace is None:
        raise UsageError(f"bug {bug.id} has no trace to replay")
    expected = bug.first_step if trace is bug.trace else len(trace.actions)
    steps = [run_trace(trace, stop_on=bug.signature).fired_at(bug.signature) for _ in range(runs)]
    if trace is not bug.trace:  # a minimized trace: the bug fires at its last step
        expected = steps[0] if steps[0] is not None else expected
    return ReplayReport(bug.signature, expected, steps)


class NotFailing(ValueError):
    """ddmin was given an input that does not show the failure."""


@dataclass
class MinimizeResult:
    trace: Trace
    tests: int
    one_minimal: bool
    seconds: float
    reproduced: bool = True  # False: the stored trace no longer shows the bug; ``trace`` is it, unshrunk

    def describe(self, before: int) -> str:
        if not self.reproduced:
            return (f"not shrunk: its {before}-action trace did not show the bug again in {self.tests} replay(s) "
                    f"(flaky, or fixed since); kept as it was")
        return (f"{before} -> {len(self.trace.actions)} actions in {self.tests} replays ({self.seconds:.1f} s), "
                f"{'1-minimal' if self.one_minimal else 'budget spent before 1-minimal'}")


def ddmin(items: Sequence[T], fails: Callable[[list[T]], bool], max_tests: int = 400,
          deadline: float | None = None) -> tuple[list[T], int, bool]:
    """Delta debugging (Zeller and Hildebrandt's ddmin), shorter candidates first.

    Args:
        items: a failing input (``fails(list(items))`` must be True).
        fails: the test: True when the candidate still shows the failure.
        max_tests: stop after this many tests, returning the smallest failing input found so far.
        deadline: ``time.monotonic()`` value at which to stop likewise.

    Returns:
        (smallest failing input, number of tests run, whether it is 1-minimal).

    Raises:
        NotFailing: ``items`` itself does not fail (checked first: shrinking an input that passes would
            "minimize" it to whatever the budget leaves and call that a failure).
    """
    current = list(items)
    tests = 0
    cache: dict[tuple[Any, ...], bool] = {}

    def test(candidate: list[T]) -> bool:
        nonlocal tests
        key = tuple(candidate)
        if key not in cache:
            tests += 1
            cache[key] = fails(candidate)
        return cache[key]

    def out_of_budget() -> bool:
        return tests >= max_tests or (deadline is not None and time.monotonic() > deadline)

    if not test(current):
        raise NotFailing(f"the input to shrink does not fail ({len(current)} items, 1 test)")
    n = 2
    while len(current) >= 2:
        size = len(current)
        chunks = [current[i * size // n:(i + 1) * size // n] for i in range(n)]
        chunks = [c for c in chunks if c]
        reduced = False
        # subsets first (the shortest candidates), then complements (remove one chunk)
        for chunk in chunks:
            if out_of_budget():
                return current, tests, False
            if len(chunk) < size and test(chunk):
                current, n, reduced = chunk, 2, True
                break
        if not reduced:
            for i in range(len(chunks)):
                if out_of_budget():
                    return current, tests, False
                complement = [x for j, c in enumerate(chunks) if j != i for x in c]
                if complement and test(complement):
                    current, n, reduced = complement, max(n - 1, 2), True
                    break
        if not reduced:
            if n >= size:
                break  # granularity is single items and nothing can go: 1-minimal
            n = min(size, 2 * n)
    if len(current) == 1 and not out_of_budget():
        return current, tests, not test([])
    return current, tests, len(current) <= 1 or not out_of_budget()


def minimize_bug(bug: Bug, max_tests: int = 300, max_seconds: float = 120.0) -> MinimizeResult:
    """Shrink a bug's trace to a (1-minimal when the budget allows) trace with the same signature.

    A trace that does not show the bug any more is returned unshrunk with ``reproduced=False``. A kind whose
    registered replayer says why it cannot be shrunk (plan bugs: their validations are armed at the steps the
    plan took) is refused with that reason (`UsageError`); ``playtester replay`` re-checks it instead."""
    assert bug.trace is not None
    custom = _custom(bug.kind)
    if custom is not None and custom.not_shrunk:
        raise UsageError(f"bug {bug.id} ({bug.kind}: {bug.message}): {custom.not_shrunk}; re-check it with "
                         "'playtester replay' on its folder")
    if custom is None and bug.kind not in kinds():
        raise _unknown_kind(bug)
    t0 = time.monotonic()
    base = bug.trace.prefix(bug.first_step)
    spec = trace_spec(base)
    from playtester.env import space_from_dict

    worker = Worker(spec, space_from_dict(base.space), capture=base.frame_capture)  # the frames its oracles saw
    try:
        def fails(actions: list[int]) -> bool:
            run = run_trace(base.with_actions(actions), stop_on=bug.signature, worker=worker)
            return run.fired_at(bug.signature) is not None

        if fails([]):
            return MinimizeResult(base.with_actions([]), 1, True, time.monotonic() - t0)
        try:
            actions, tests, minimal = ddmin(base.actions, fails, max_tests=max_tests, deadline=t0 + max_seconds)
        except NotFailing:
            return MinimizeResult(base, 2, False, time.monotonic() - t0, reproduced=False)
        # cut what follows the step the bug fires at in the shrunk trace
        run = run_trace(base.with_actions(actions), stop_on=bug.signature, worker=worker)
        at = run.fired_at(bug.signature)
        if at is not None:
            actions = actions[:at]
        return MinimizeResult(base.with_actions(actions), tests + 2, minimal, time.monotonic() - t0)
    finally:
        worker.close()
