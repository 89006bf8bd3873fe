"""JUnit XML for CI systems: one test case per oracle kind, failing with the bugs of that kind.

Layout (as pytest writes it, which Jenkins, GitLab, GitHub and Azure read)::

    <testsuites tests= failures= errors= time=>
      <testsuite name="playtester.GAME" tests= failures= errors= skipped="0" time= timestamp=>
        <properties>campaign, agent, budget, steps, episodes, seed...</properties>
        <testcase classname="GAME" name="crash" time=>
          <error message="BUG MESSAGE" type="crash">signature, location, count, replay command</error>
        </testcase>
        <testcase classname="GAME" name="stuck"><failure .../></testcase>
        <testcase classname="GAME" name="assertion"/>          (passed)
      </testsuite>
    </testsuites>

A bug is an ``<error>`` when something broke (crash, hang) and a ``<failure>`` when a check did not
hold (assertion, stuck, balance, error_log, frame_time), as pytest does. A test case with several
bugs carries one element per bug. The ``failures`` / ``errors`` counts are test cases (as JUnit
counts them), not bugs. Bug kinds missing from ``oracle_kinds`` still get a test case: no bug is
left out of the verdict. A *flaky* bug (it did not fire again at its step when replayed) does not fail its test
case unless ``fail_on_flaky``: it is listed in the case's ``<system-out>``, and a case with only flaky bugs is
``<skipped>`` with their count, as pytest-rerunfailures reports a test that passed on a rerun (the exit code
follows the same rule).
"""

from __future__ import annotations

import os
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from playtester.errors import UsageError
from playtester.files import write_atomic, xml_safe
from playtester.findings import Bug
from playtester.oracles import error_kinds
from playtester.report.html import replay_command
from playtester.store import Store

__all__ = ["write_junit"]


def _bug_text(bug: Bug, folder: Path) -> str:
    lines = [f"bug {bug.id}: {bug.kind}: {bug.message}",
             f"signature: {bug.signature}",
             f"location: {bug.location or '-'}",
             f"count: {bug.count}",
             f"first found: step {bug.first_step}, {bug.first_found_s:.1f} s into the campaign"]
    if bug.trace is not None:
        lines.append(f"trace: {len(bug.trace.actions)} actions, seed {bug.trace.seed}"
                     + (f"; shrunk to {len(bug.min_trace.actions)}" if bug.min_trace is not None else ""))
    if bug.flaky is not None:
        lines.append(f"flaky: {'yes' if bug.flaky else 'no'}")
    tb = bug.details.get("traceback") if isinstance(bug.details, dict) else None
    if isinstance(tb, str) and tb.strip():
        lines += ["", tb.rstrip()]
    lines += ["", f"replay: {replay_command(folder, bug.id)}"]
    return "\n".join(lines)


def junit_tree(store: Store, campaign_id: int | None, oracle_kinds: list[str], folder: Path,
               fail_on_flaky: bool = False) -> ET.ElementTree:
    """The JUnit XML tree (see `write_junit`)."""
    c = store.campaign(campaign_id)
    if c is None or (campaign_id is not None and c.id != campaign_id):
        raise UsageError(f"no campaign {campaign_id} in {store.path}")
    bugs = store.bugs(c.id)
    kinds = list(dict.fromkeys(oracle_kinds))
    kinds += [k for k in dict.fromkeys(b.kind for b in bugs) if k not in kinds]
    by_kind: dict[str, list[Bug]] = {k: [] for k in kinds}
    noise: dict[str, list[Bug]] = {k: [] for k in kinds}
    for b in bugs:
        (by_kind if b.fails(fail_on_flaky) else noise)[b.kind].append(b)
    broke = error_kinds()  # registered with error=True: reported as <error>, every other kind as <failure>
    failures = sum(1 for k in kinds if by_kind[k] and k not in broke)
    errors = sum(1 for k in kinds if by_kind[k] and k in broke)
    skipped = sum(1 for k in kinds if noise[k] and not by_kind[k])
    elapsed = f"{c.elapsed_s:.3f}"
    counts = {"tests": str(len(kinds)), "failures": str(failures), "errors": str(errors), "skipped": str(skipped)}
    root = ET.Element("testsuites", {"name": "playtester", **counts, "time": elapsed})
    suite = ET.SubElement(root, "testsuite", {
        "name": f"playtester.{c.game}", **counts, "time": elapsed,
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(c.started_at)),
        "hostname": os.uname().nodename if hasattr(os, "uname") else ""})
    props = ET.SubElement(suite, "properties")
    for name, value in [("campaign", c.id), ("game", c.game), ("agent", c.agent), ("budget", c.budget),
                        ("workers", c.workers), ("seed", c.seed), ("steps", c.steps), ("episodes", c.episodes),
                        ("status", c.status), ("bugs", len(bugs))]:
        ET.SubElement(props, "property", {"name": name, "value": xml_safe(str(value))})
    share = f"{c.elapsed_s / max(1, len(kinds)):.3f}"
    for kind in kinds:
        case = ET.SubElement(suite, "testcase", {"classname": c.game, "name": kind, "time": share})
        for b in by_kind[kind]:
            el = ET.SubElement(case, "error" if kind in broke else "failure",
                               {"message": xml_safe(b.message), "type": kind})
            el.text = xml_safe(_bug_text(b, folder))
        if noise[kind]:
            text = "\n\n".join(_bug_text(b, folder) for b in noise[kind])
            if not by_kind[kind]:
                el = ET.SubElement(case, "skipped", {"message": xml_safe(
                    f"{len(noise[kind])} flaky finding(s): did not fire again at their step when replayed")})
                el.text = xml_safe(text)
            else:
                ET.SubElement(case, "system-out").text = xml_safe("flaky (not failing this case):\n" + text)
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(store: Store, campaign_id: int, out: Path, oracle_kinds: list[str], *,
                folder: Path | None = None, fail_on_flaky: bool = False) -> Path:
    """Write the campaign's verdict as JUnit XML.

    Args:
        store: the findings store.
        campaign_id: the campaign (None: the latest).
        out: the XML file to write (replaced atomically).
        oracle_kinds: the oracles that ran, one test case each, in this order (kinds with bugs but not
            listed are added after them).
        folder: the output folder whose ``bugs/ID`` the replay commands name (default: ``out``'s folder).
        fail_on_flaky: flaky bugs fail their test case too (``--fail-on flaky``).

    Returns:
        ``out``.

    Raises:
        UsageError: the store has no such campaign.
    """
    out = Path(out)
    tree = junit_tree(store, campaign_id, oracle_kinds, Path(folder) if folder is not None else out.parent,
                      fail_on_flaky)
    return write_atomic(out, ET.tostring(tree.getroot(), encoding="utf-8", xml_declaration=True))
