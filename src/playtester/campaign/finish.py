"""The end of a campaign: its new bugs checked (each replayed twice, then shrunk with ddmin), the report, junit.xml
and the bug folders written, and the verdict (the exit code) decided here, in one place.

`campaign.explore` ends with `finish_campaign`; ``playtester finalize`` calls it alone on a campaign that was stopped before
its end (its `unfinished_bugs`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playtester.errors import UsageError
from playtester.store import Store

FAIL_ON = ("reproduced", "flaky")  # what fails a run (exit code 1): the first is the default


def check_fail_on(fail_on: str) -> str:
    """``fail_on`` as given, or a UsageError that says what it may be."""
    if fail_on not in FAIL_ON:
        raise UsageError(f"--fail-on {fail_on!r}: use reproduced (the default: only bugs that fire again when "
                         "replayed fail the run) or flaky (any bug fails it)")
    return fail_on


def exit_code(bugs: list[Any], fail_on: str = "reproduced") -> int:
    """1 when a bug fails the run (`Bug.fails`: it reproduced, or any bug with ``fail_on`` ``flaky``); else 0: a
    finding that did not fire again is noise a CI build should see, not fail on. The one place a campaign's exit
    code is decided (``playtester explore`` and ``playtester finalize``)."""
    return 1 if any(b.fails(fail_on == "flaky") for b in bugs) else 0


@dataclass(frozen=True)
class Finished:
    """What `finish_campaign` did: the bugs it checked and the files it wrote."""

    checked: list[int]
    report: Path
    junit: Path


def unfinished_bugs(store: Store, campaign_id: int) -> list[int]:
    """The campaign's bugs that were stored but never replayed (a campaign killed before its end, or one that ran
    with an older playtester): what `finalize_bugs` has left to do."""
    return [b.id for b in store.bugs(campaign_id) if b.trace is not None and store.bug_replay(b.id) is None]


def finalize_bugs(store: Store, campaign_id: int, bug_ids: list[int], shrink: bool = True,
                  shrink_seconds: float = 30.0, on_bug: Callable[[int, str], None] | None = None) -> None:
    """For each new bug: replay it twice, and shrink its trace with ddmin. A bug whose replays did not fire it at
    its step, in every run, is *flaky* (``flaky`` True): it does not fail a run unless asked (``--fail-on flaky``)."""
    from playtester.replay import minimize_bug, replay_bug

    for bug_id in bug_ids:
        bug = store.bug(bug_id)
        if bug.trace is None:
            continue
        report = replay_bug(bug)
        store.set_bug(bug_id, flaky=not report.reproduced, replay=report.describe())
        if on_bug:
            on_bug(bug_id, report.describe())
        if shrink and report.reproduced and bug.kind != "hang":
            result = minimize_bug(store.bug(bug_id), max_seconds=shrink_seconds)
            if result.reproduced:
                store.set_bug(bug_id, min_trace=result.trace)
            if on_bug:
                on_bug(bug_id, f"shrunk {result.describe(len(bug.trace.actions))}" if result.reproduced
                       else result.describe(len(bug.trace.actions)))


def bug_frames(bug: Any, n: int = 8) -> list[Any]:
    """The last ``n`` full-size frames of a bug's (shrunk) trace, by replaying it."""
    from playtester.replay import run_trace

    trace = bug.min_trace or bug.trace
    if trace is None:
        return []
    return run_trace(trace, stop_on=bug.signature, keep_frames=n, capture="full").frames


def finish_campaign(store: Store, campaign_id: int, pending: list[int], *, shrink: bool = True, shrink_seconds: float = 30.0,
           fail_on: str = "reproduced", on_check: Callable[[int | None, str], None] | None = None) -> Finished:
    """Check the ``pending`` bugs (`finalize_bugs`: ``on_check(bug_id, message)`` hears how each went, and
    ``on_check(None, message)`` what is about to happen), then write the bug folders, junit.xml and report.html in
    the store's folder."""
    from playtester.oracles import settings_model
    from playtester.report import write_bug_folders, write_junit, write_report

    check_fail_on(fail_on)
    if pending:
        if on_check:
            on_check(None, f"checking {len(pending)} bug(s): replay twice, then shrink")
        finalize_bugs(store, campaign_id, pending, shrink=shrink, shrink_seconds=shrink_seconds, on_bug=on_check)
    frames_cache: dict[int, Any] = {}

    def frames_for(bug: Any) -> Any:
        if bug.id not in frames_cache:
            frames_cache[bug.id] = bug_frames(bug)
        return frames_cache[bug.id]

    out = store.folder
    campaign = store.campaign(campaign_id)
    kinds = settings_model().model_validate(campaign.config.get("oracles", {}) if campaign else {}).enabled
    write_bug_folders(store, campaign_id, out, frames_for_bug=frames_for)
    junit = write_junit(store, campaign_id, out / "junit.xml", kinds, fail_on_flaky=fail_on == "flaky")
    report = write_report(store, campaign_id, out / "report.html", frames_for_bug=frames_for)
    return Finished(list(pending), report, junit)
