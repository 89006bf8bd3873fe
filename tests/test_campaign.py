"""Campaigns end to end on real games and a real SQLite store: nothing found is ever lost."""

from __future__ import annotations

import signal

import pytest
from conftest import fixture_spec

from playtester.campaign import Budget, explore, finalize_bugs
from playtester.drive.spec import resolve
from playtester.errors import UsageError
from playtester.store import Store, StoreError


def test_budget_parsing():
    assert Budget.parse("10m") == Budget(seconds=600) and Budget.parse("1h30m").seconds == 5400
    assert Budget.parse("50000") == Budget(steps=50000) and Budget.parse("90s").seconds == 90
    with pytest.raises(UsageError, match="neither a time"):
        Budget.parse("ten minutes")


def of_kind(bugs, kind):
    """The bugs of one kind: on a loaded machine the wall-clock frame-time oracle may add its own."""
    return [b for b in bugs if b.kind == kind]


def test_explore_blockmaze_stores_bugs_coverage_and_timeline(tmp_path):
    r = explore(resolve("blockmaze"), out=tmp_path, budget=Budget(steps=600), workers=2, finalize=False)
    store = Store(tmp_path)
    c = store.campaign(r.campaign_id)
    assert c.status == "finished" and c.steps == 600 and c.abstraction == "features"
    bugs = store.bugs(r.campaign_id)
    assert bugs and all(b.kind == "assertion" and b.message.startswith("bug cell") for b in bugs)
    assert len({b.signature for b in bugs}) == len(bugs)  # de-duplicated
    for b in bugs:
        assert len(b.trace.actions) == b.first_step and b.trace.game == "blockmaze"
    assert r.states > 20 and len(store.states(r.campaign_id)) == r.states
    assert 0 < r.code_covered < r.code_total
    assert store.positions(r.campaign_id)
    timeline = store.timeline(r.campaign_id)
    assert timeline[-1]["steps"] == 600 and [t["states"] for t in timeline] == sorted(t["states"] for t in timeline)


def test_killed_game_and_infinite_loop_are_findings_and_the_campaign_goes_on(tmp_path):
    spec = fixture_spec("os_exit", game_args={"sig": int(signal.SIGKILL)})
    r = explore(spec, out=tmp_path / "a", budget=Budget(steps=12), actions="blind", finalize=False)
    [bug] = of_kind(r.bugs, "crash")
    assert bug.kind == "crash" and bug.signature == "crash:signal:9" and bug.count >= 3
    spec = fixture_spec("forever", step_timeout_s=1.0)
    r = explore(spec, out=tmp_path / "b", budget=Budget(steps=4), actions="blind", finalize=False)
    [bug] = of_kind(r.bugs, "hang")
    assert bug.kind == "hang" and "forever.py:spin" in bug.signature and r.episodes >= 2


def test_known_failures_are_replayed_first_in_the_next_campaign(tmp_path):
    spec = fixture_spec("raise_at", game_args={"n": 30})
    first = explore(spec, out=tmp_path, budget=Budget(steps=8), actions="blind", finalize=False)
    assert [b.kind for b in first.bugs] == ["crash"]
    second = explore(spec, out=tmp_path, budget=Budget(steps=1), actions="blind", finalize=False)
    assert second.replayed_known == 1 and second.reproduced_known == 1
    [bug] = of_kind(second.bugs, "crash")
    assert bug.first_found_s == 0.0  # found by the replay, before any exploration


def test_flaky_game_is_flagged(tmp_path):
    spec = fixture_spec("flaky", game_args={"counter": str(tmp_path / "counter")})
    r = explore(spec, out=tmp_path, budget=Budget(steps=30), actions="blind", finalize=False)
    [bug] = of_kind(r.bugs, "crash")
    finalize_bugs(r.store, r.campaign_id, [bug.id], shrink=False)
    assert r.store.bug(bug.id).flaky is True
    assert "FLAKY" in r.store.bug_replay(bug.id)


def test_full_disk_is_a_clear_error_that_keeps_what_was_stored(tmp_path):
    # a store size limit just above the empty schema: SQLite's own "database or disk is full" failure
    with pytest.raises(StoreError, match="full.*free some disk space.*--resume.*kept"):
        explore(resolve("blockmaze"), out=tmp_path, budget=Budget(steps=50000), max_store_mb=0.16, finalize=False)
    store = Store(tmp_path)
    c = store.campaign()
    assert c.status == "running" and c.episodes > 0
    found = store.bugs(c.id)
    assert found and found[0].trace is not None  # found before the disk filled up, still there
    # with space again, the campaign resumes
    r = explore(None, out=tmp_path, budget=Budget(steps=c.steps + 20), resume=True, finalize=False)
    assert r.campaign_id == c.id and r.steps >= c.steps + 20 and r.store.campaign().status == "finished"
    assert {b.signature for b in found} <= {b.signature for b in r.bugs}


def test_unwritable_store_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot open the store"):
        Store(blocker / "out")
    (tmp_path / "db").mkdir()
    (tmp_path / "db" / "playtester.sqlite").write_text("garbage, not sqlite")
    # a damaged file is bad input (exit 2), said as such: not "check that the folder is writable" (issue 54)
    with pytest.raises(UsageError, match="damaged or not a playtester store.*another --out") as e:
        Store(tmp_path / "db")
    assert "check that the folder is writable" not in str(e.value)


def test_explore_calls_extra_observers_on_every_step(tmp_path):
    """`explore(observers=...)`: a benchmark's own measures see every step of the campaign's loop."""
    from playtester.campaign.loop import Observer

    class Count(Observer):
        def __init__(self) -> None:
            self.steps, self.ends = 0, 0

        def on_step(self, step) -> None:
            self.steps += 1 if step.index else 0  # index 0: an episode's first observation, not a step

        def on_end(self, loop) -> None:
            self.ends += 1

    count = Count()
    r = explore(resolve("blockmaze"), out=tmp_path, budget=Budget(steps=40), code_coverage=False,
                replay_known=False, observers=[count], finalize=False)
    assert r.steps == 40 and count.steps == 40 and count.ends == 1


def test_explore_is_the_whole_job_and_returns_the_verdict(tmp_path):
    """`explore` replays known failures, runs the loop, checks each new bug (replayed twice, shrunk) and writes
    the report, junit.xml and bug folders; its `CampaignResult` says where, and the exit code."""
    from playtester.campaign import CampaignResult

    spec = fixture_spec("raise_at", game_args={"n": 30})
    heard: list = []
    r = explore(spec, out=tmp_path, budget=Budget(steps=8), actions="blind", shrink_seconds=10,
                on_check=lambda bug_id, msg: heard.append((bug_id, msg)))
    assert isinstance(r, CampaignResult) and r.stopped is None
    [bug] = of_kind(r.bugs, "crash")
    assert r.checked == r.new_bugs and bug.id in r.checked
    assert r.store.bug_replay(bug.id) is not None and not bug.flaky and bug.min_trace is not None
    assert heard[0] == (None, f"checking {len(r.checked)} bug(s): replay twice, then shrink")
    assert any(i == bug.id and msg.startswith("shrunk") for i, msg in heard)
    assert r.report == tmp_path / "report.html" and "boom at frame 30" in r.report.read_text()
    assert r.junit == tmp_path / "junit.xml" and "<error" in r.junit.read_text()  # a crash: an error, not a failure
    assert (tmp_path / "bugs" / str(bug.id) / "bug.json").is_file()
    assert r.exit_code == 1  # a bug that reproduced fails the run
    # the next campaign replays it first; nothing new to check, the report is written again
    again = explore(spec, out=tmp_path, budget=Budget(steps=1), actions="blind")
    assert again.replayed_known == 1 and again.checked == again.new_bugs and again.report.is_file()
    with pytest.raises(UsageError, match="--fail-on 'sometimes'"):
        explore(spec, out=tmp_path / "x", budget=Budget(steps=1), fail_on="sometimes")
    assert not (tmp_path / "x").exists()  # refused before anything was stored


def test_explore_without_finalize_keeps_bugs_unchecked_for_finalize(tmp_path):
    from playtester.campaign import unfinished_bugs

    spec = fixture_spec("raise_at", game_args={"n": 30})
    r = explore(spec, out=tmp_path, budget=Budget(steps=8), actions="blind", finalize=False)
    assert r.report is None and r.junit is None and r.checked == []
    assert not (tmp_path / "report.html").exists() and unfinished_bugs(r.store, r.campaign_id) == r.new_bugs != []


def test_an_observer_stops_a_campaign_and_what_it_found_is_kept_checked_and_reported(tmp_path):
    """An observer of a real campaign on a bundled game returns False at the first failed check (blockmaze's bug
    cells): the campaign stops long before its budget, its workers are closed, the bug it found is stored,
    replayed and in the report, and the verdict fails the run."""
    from playtester.campaign.loop import Observer

    class StopAtFirstBug(Observer):
        def __init__(self) -> None:
            self.workers: list = []

        def on_start(self, loop) -> None:
            self.workers = [slot.env.worker for slot in loop.slots]

        def on_step(self, step) -> bool:
            return not (step.game_obs is not None and step.game_obs.checks)

    stop = StopAtFirstBug()
    r = explore(resolve("blockmaze"), out=tmp_path, budget=Budget(steps=100_000), workers=2, code_coverage=False,
                replay_known=False, observers=[stop], shrink=False)
    assert r.stopped is not None and r.stopped.startswith("StopAtFirstBug stopped the campaign at step ")
    assert 0 < r.steps < 100_000 and r.store.campaign(r.campaign_id).status == "finished"
    assert len(stop.workers) == 2 and all(w.host_pid is None for w in stop.workers)  # closed: no host runs
    bugs = r.bugs
    assert bugs and all(b.kind == "assertion" for b in bugs) and r.checked == [b.id for b in bugs]
    assert all(r.store.bug_replay(b.id) is not None for b in bugs)
    assert bugs[0].message in r.report.read_text() and r.exit_code == 1
    assert "stopped" in {e["outcome"] for e in r.store.episodes(r.campaign_id)}


def test_a_bug_found_again_is_counted_without_a_transaction_each_time_and_every_count_is_kept(tmp_path):
    """`Store.record_finding` keeps the counts of known bugs in memory until `flush_counts` (each episode's end,
    the campaign's end, reading bugs, closing the store): another connection sees them only then, and none is
    lost; a bug is still written at once, with its trace."""
    from playtester.findings import Finding

    store = Store(tmp_path)
    cid = store.new_campaign("blockmaze", {}, "random", {}, "100", 1, 0, "default")
    f = Finding("stuck", "stuck for 200 steps", "stuck:hero", 7)
    other = Store(tmp_path)  # another reader of the same file (the report, a resumed campaign)
    ids = [store.record_finding(cid, "blockmaze", f, None, 1.0) for _ in range(5)]
    assert ids[0][1] is True and all(i == (ids[0][0], False) for i in ids[1:])
    assert [(b.signature, b.count) for b in other.bugs(cid)] == [("stuck:hero", 1)]  # the new bug: at once
    store.flush_counts()
    assert other.bugs(cid)[0].count == 5
    for _ in range(3):
        store.record_finding(cid, "blockmaze", f, None, 2.0)
    store.close()  # closing writes what is pending
    assert other.bugs(cid)[0].count == 8
    other.close()


def test_an_interrupted_campaign_keeps_the_counts_of_its_episode_in_flight(tmp_path, monkeypatch):
    """Interrupted right after a bug was found again (its count pending in memory): the count is written."""
    counted = []
    record = Store.record_finding

    def recording(self, cid, game, finding, trace, t):
        counted.append(finding.signature)
        out = record(self, cid, game, finding, trace, t)
        if self._pending:  # a repeat is pending: stop the campaign here, as Ctrl-C would
            raise KeyboardInterrupt
        return out

    monkeypatch.setattr(Store, "record_finding", recording)
    with pytest.raises(KeyboardInterrupt):
        explore(fixture_spec("buggy"), out=tmp_path, budget=Budget(steps=20_000), workers=1, replay_known=False,
                actions="blind", finalize=False)
    store = Store(tmp_path)
    by_sig = {b.signature: b.count for b in store.bugs()}
    store.close()
    assert len(counted) > len(by_sig)  # some bug was found again
    assert sum(by_sig.values()) == len(counted)


def test_a_trace_is_written_as_its_fields_and_read_back_the_same():
    """`Trace.to_json` writes the fields as they are (no deep copy first): the same JSON as `asdict`'s, and a
    trace read back equals the one written."""
    import json
    from dataclasses import asdict

    from playtester.actions.space import space_to_dict
    from playtester.env import resolve_space
    from playtester.findings import Trace

    spec = resolve("blockmaze")
    trace = Trace(spec.text, spec.config.model_dump(mode="json"), 3, space_to_dict(resolve_space(spec, "analyzed")),
                  [1, 4, 2, 0], capture=[84, 84])
    text = trace.to_json()
    # asdict's fields, but no origin field where there is no origin (traces and demonstrations written before it)
    assert text == json.dumps({k: v for k, v in asdict(trace).items() if k != "origin"}, sort_keys=True)
    assert Trace.from_json(text) == trace
    placed = trace.with_actions(trace.actions)
    placed.origin = "/somewhere"
    assert placed.to_json() == json.dumps(asdict(placed), sort_keys=True) and Trace.from_json(placed.to_json()) == placed


def test_code_coverage_counts_the_files_the_game_ran_not_its_neighbours(tmp_path):
    """A repository's other files (a level editor, tests) are not the game: only files it ran count (issue 54)."""
    import shutil

    from conftest import GAMES

    game = tmp_path / "game"
    shutil.copytree(GAMES / "repo_layout", game)
    (game / "src" / "level_editor.py").write_text("\n".join(f"x{i} = {i}" for i in range(500)) + "\n")
    r = explore(resolve(f"{game}/src/main.py:main"), out=tmp_path / "out", budget=Budget(steps=20), finalize=False)
    files = set(r.store.code_lines(r.campaign_id))
    assert files and not any(f.endswith("level_editor.py") for f in files)
    assert {f.rsplit("/", 1)[-1] for f in files} >= {"main.py", "const.py"}
    assert 0 < r.code_covered <= r.code_total < 100  # the editor's 500 statements would be in it
