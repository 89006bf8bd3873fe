"""JUnit XML for CI: one test case per oracle kind, <failure> for checks, <error> for crashes and hangs."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from playtester.findings import Finding, Trace
from playtester.report import write_junit
from playtester.store import Store

KINDS = ["crash", "hang", "stuck", "assertion", "balance", "error_log", "frame_time"]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "run")
    yield s
    s.close()


def campaign_with_bugs(store: Store) -> tuple[int, dict[str, int]]:
    cid = store.new_campaign("platformer", {}, "random", {"kind": "blind", "actions": []}, "2m", 1, 3, "scene")
    trace = Trace("platformer", {}, 5, {"kind": "blind"}, [1, 2, 3])
    ids = {}
    for sig, kind, msg, loc in [("c1", "crash", "KeyError: 'boss'", "game.py:10"),
                                ("c2", "crash", "IndexError <b>", "game.py:99"),
                                ("h1", "hang", "no frame for 5 s", ""),
                                ("a1", "assertion", "hp < 0 \x07 & <bad>", "game.py:5"),
                                ("f1", "frame_time", "frame took 80 ms", "")]:
        ids[sig], _ = store.record_finding(cid, "platformer", Finding(kind, msg, sig, 4, loc), trace, 2.0)
    store.record_finding(cid, "platformer", Finding("crash", "KeyError: 'boss'", "c1", 9), trace, 3.0)
    store.set_bug(ids["c1"], min_trace=trace.prefix(1), flaky=False)
    store.update_campaign(cid, steps=1000, episodes=4, elapsed_s=12.5, status="finished")
    return cid, ids


def test_junit_cases_failures_errors(store, tmp_path):
    cid, ids = campaign_with_bugs(store)
    out = write_junit(store, cid, tmp_path / "run" / "junit.xml", KINDS)
    root = ET.parse(out).getroot()
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    assert suite.get("name") == "playtester.platformer"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("7", "2", "2")
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("7", "2", "2")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert list(cases) == KINDS and all(c.get("classname") == "platformer" for c in cases.values())

    crash = cases["crash"]
    assert crash.findall("failure") == [] and len(crash.findall("error")) == 2
    first = crash.findall("error")[0]
    assert first.get("message") == "KeyError: 'boss'" and first.get("type") == "crash"
    text = first.text
    assert "signature: c1" in text and "location: game.py:10" in text and "count: 2" in text
    assert "shrunk to 1" in text
    assert f"playtester replay {tmp_path / 'run' / 'bugs' / str(ids['c1'])}" in text
    assert crash.findall("error")[1].get("message") == "IndexError <b>"
    assert len(cases["hang"].findall("error")) == 1

    (fail,) = cases["assertion"].findall("failure")
    assert fail.get("message") == "hp < 0 \ufffd & <bad>"  # control characters cannot be in XML
    assert cases["assertion"].findall("error") == []
    assert len(cases["frame_time"].findall("failure")) == 1
    for passed in ("stuck", "balance", "error_log"):
        assert list(cases[passed]) == []
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert props["agent"] == "random" and props["steps"] == "1000" and props["bugs"] == "5"


def test_junit_kinds_not_listed_still_count(store, tmp_path):
    cid, _ = campaign_with_bugs(store)
    root = ET.parse(write_junit(store, cid, tmp_path / "j.xml", ["stuck"], folder=tmp_path / "elsewhere")).getroot()
    suite = root.find("testsuite")
    assert [c.get("name") for c in suite.findall("testcase")] == ["stuck", "crash", "hang", "assertion", "frame_time"]
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("5", "2", "2")
    assert f"{tmp_path / 'elsewhere' / 'bugs'}" in suite.find("testcase[@name='crash']/error").text


def test_junit_clean_campaign(store, tmp_path):
    cid = store.new_campaign("blockmaze", {}, "random", {"kind": "manual", "actions": []}, "100 steps", 1, 0, "s")
    root = ET.parse(write_junit(store, cid, tmp_path / "j.xml", KINDS)).getroot()
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("7", "0", "0")
    assert all(list(c) == [] for c in suite.findall("testcase"))


def test_flaky_bugs_do_not_fail_their_case_unless_asked(store, tmp_path):
    """A bug that did not fire again when replayed is noise: its case is skipped (only flaky bugs) or passes with
    the bug in system-out (beside reproduced ones); --fail-on flaky makes it a failure again (issue 54)."""
    cid, ids = campaign_with_bugs(store)
    store.set_bug(ids["f1"], flaky=True)  # the only frame_time bug
    store.set_bug(ids["c2"], flaky=True)  # one of two crashes
    out = write_junit(store, cid, tmp_path / "run" / "junit.xml", KINDS)
    suite = ET.parse(out).getroot().find("testsuite")
    assert (suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("1", "2", "1")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    frame = cases["frame_time"]
    assert frame.findall("failure") == [] and "1 flaky" in frame.find("skipped").get("message")
    crash = cases["crash"]
    assert len(crash.findall("error")) == 1 and "IndexError" in crash.find("system-out").text
    strict = write_junit(store, cid, tmp_path / "run" / "strict.xml", KINDS, fail_on_flaky=True)
    suite = ET.parse(strict).getroot().find("testsuite")
    assert (suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("2", "2", "0")
