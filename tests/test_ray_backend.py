"""The Ray backend (``--backend ray[:ADDRESS]``): workers as Ray actors, on a real Ray (loopback only).

- same seeds, same findings on the local and the Ray backend, acting ahead (a batch of steps per actor call)
  or not;
- an actor killed mid-campaign ends its episode as ``worker_lost`` (no bug), a new actor takes over, what was
  found before stays stored; a worker lost past its restarts is dropped and the campaign goes on;
- snapshots live in their actor: after a restart they are gone (``restore`` answers None);
- without Ray installed, ``--backend ray`` is a usage error naming the extra;
- a real two-node cluster on this machine (``ray start``), the second node's raylet killed mid-campaign (slow).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from test_loop import Counter10

from playtester.agents.common import Explorer
from playtester.campaign import Budget, CampaignLoop, explore
from playtester.drive.observation import GameExit
from playtester.drive.ray_worker import parse_backend
from playtester.drive.spec import resolve
from playtester.env import resolve_space
from playtester.errors import UsageError, WorkerError, WorkerLostError
from playtester.store import DB_NAME, Store

VENV_BIN = Path(sys.executable).parent


def findings_of(store: Store, cid: int) -> list[tuple[str, int, int]]:
    """(signature, seed of the first trace, first step) of each bug; the wall-clock frame-time oracle left out
    (on a loaded machine it fires at random)."""
    return sorted((b.signature, b.trace.seed, b.first_step) for b in store.bugs(cid) if b.kind != "frame_time")


def episodes_of(store: Store, cid: int) -> list[tuple[int, int, str]]:
    return [(e["seed"], e["steps"], e["outcome"]) for e in store.episodes(cid)]


# ------------------------------------------------------------------------------------- without Ray
def test_backend_names_are_parsed_and_checked():
    assert parse_backend(None) == ("local", None) and parse_backend("local") == ("local", None)
    assert parse_backend("ray") == ("ray", None) and parse_backend("ray:127.0.0.1:6379") == ("ray", "127.0.0.1:6379")
    with pytest.raises(UsageError, match="use local"):
        parse_backend("dask")


def test_backend_ray_without_ray_installed_says_which_extra_before_storing_anything(tmp_path):
    out = tmp_path / "run"
    for cmd in (["explore", "blockmaze", "--budget", "20", "--out", str(out)], ["run", "blockmaze", "--steps", "5"]):
        code = ("import sys; sys.modules['ray'] = None; from playtester.cli import main; "
                f"sys.argv = ['playtester', *{cmd!r}, '--backend', 'ray']; main()")
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert res.returncode == 2, res.stdout + res.stderr
        assert "--backend ray needs ray" in res.stderr and "pip install 'playtester[ray]'" in res.stderr
    assert not out.exists()


def test_worker_lost_is_no_failure_and_its_own_outcome():
    from playtester.campaign import outcome_of

    lost = GameExit("worker_lost", message="actor died")
    assert not lost.is_failure and outcome_of(lost, False, None) == "worker_lost"


class LostAfter(Counter10):
    """A toy environment whose worker is lost for good at its ``n``-th reset (WorkerLostError)."""

    def __init__(self, n: int) -> None:
        super().__init__(length=3)
        self.n = n

    def reset(self, seed: int | None = None) -> tuple[Any, dict[str, Any]]:
        if len(self.seeds) + 1 >= self.n:
            raise WorkerLostError("lost past its restarts")
        return super().reset(seed)


def test_a_slot_lost_for_good_is_dropped_and_the_others_go_on():
    envs = [Counter10(length=3), LostAfter(2)]
    loop = CampaignLoop(envs, [Explorer(2, seed=0), Explorer(2, seed=1)], Budget(steps=20))
    loop.run()
    assert loop.steps == 20  # slot 1 played its first episode (3 steps), slot 0 every other step
    assert loop.slots[1].dropped and not loop.slots[0].dropped and len(envs[1].seeds) == 1
    assert len(envs[0].seeds) >= 5 and loop.warnings == ["worker 1 dropped: lost past its restarts"]
    with pytest.raises(WorkerError, match="every worker was lost"):
        CampaignLoop([LostAfter(2)], [Explorer(2)], Budget(steps=20)).run()


# --------------------------------------------------------------------------------- a local Ray
def test_cli_run_on_a_local_ray_instance_leaves_no_ray_process_behind(tmp_path):
    pytest.importorskip("ray")
    ray_tmp = tempfile.mkdtemp(prefix="rr", dir="/tmp")  # this run's Ray files (RAY_TMPDIR), to find its processes
    try:
        res = subprocess.run([str(VENV_BIN / "playtester"), "run", "blockmaze", "--steps", "40", "--workers", "2",
                              "--actions", "blind", "--backend", "ray", "--json", str(tmp_path / "run.json")],
                             env=dict(os.environ, RAY_TMPDIR=ray_tmp), capture_output=True, text=True, timeout=240)
        assert res.returncode == 0, res.stdout + res.stderr
        import json

        summary = json.loads((tmp_path / "run.json").read_text())
        assert summary["steps"] == 40 and summary["workers"] == 2
        for _ in range(50):  # Ray's own processes end with the command (ray.shutdown at exit)
            if not _pids_under(ray_tmp):
                break
            time.sleep(0.2)
        assert not _pids_under(ray_tmp)
    finally:
        for pid in _pids_under(ray_tmp):
            os.kill(pid, signal.SIGKILL)
        subprocess.run(["rm", "-rf", ray_tmp], check=False)


def test_same_seeds_same_findings_on_the_local_and_the_ray_backend(tmp_path, ray_local):
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    runs = {}
    for backend in ("local", "ray"):
        r = explore(spec, out=tmp_path / backend, budget=Budget(steps=300), workers=1, seed=3, actions=space,
                    replay_known=False, backend=backend, finalize=False)
        runs[backend] = (findings_of(r.store, r.campaign_id), episodes_of(r.store, r.campaign_id), r.states,
                         r.code_covered)
    assert runs["local"][0], "blockmaze's injected bugs should be found in 300 steps"
    assert runs["ray"] == runs["local"]


def test_acting_ahead_on_ray_is_one_actor_call_per_batch_with_the_same_findings(tmp_path, ray_local, monkeypatch):
    """Batches of 8 on the Ray backend give what one step per call gives locally (2 workers, blockmaze's
    analyzed space, whose masks change: each batch's actions are chosen in the actor), in fewer actor calls."""
    import playtester.campaign.loop as loop_module
    from playtester.drive.ray_worker import RayWorker

    calls: list[str] = []
    real_send = RayWorker._send

    def counting(self: Any, method: str, *args: Any) -> None:
        calls.append(method)
        real_send(self, method, *args)

    monkeypatch.setattr(RayWorker, "_send", counting)
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    runs = {}
    for backend, ahead in (("local", 1), ("ray", 8)):
        monkeypatch.setattr(loop_module, "AHEAD", ahead)
        r = explore(spec, out=tmp_path / backend, budget=Budget(steps=300), workers=2, seed=3, actions=space,
                    replay_known=False, backend=backend, finalize=False)
        runs[backend] = (findings_of(r.store, r.campaign_id), episodes_of(r.store, r.campaign_id), r.states,
                         r.code_covered, sorted(tuple(b.trace.actions) for b in r.store.bugs(r.campaign_id)
                                                if b.kind != "frame_time"))
    assert runs["local"][0], "blockmaze's injected bugs should be found in 300 steps"
    assert runs["ray"] == runs["local"]
    assert calls.count("act_ahead") > 0 and len(calls) < 300 / 3  # most steps came without a call of their own


def test_a_stop_or_an_empty_mask_inside_a_plan_on_ray_ends_the_episode_as_locally(tmp_path, ray_local):
    from test_act_ahead import stop_and_empty_mask_campaign

    local, ray = stop_and_empty_mask_campaign(tmp_path, 1), stop_and_empty_mask_campaign(tmp_path, 8, "ray")
    assert ray.loop.batched_steps > 0 and "no-valid-action" in [e[2] for e in ray.ends]
    assert ray.ends == local.ends and [s[:3] for s in ray.steps] == [s[:3] for s in local.steps]


def test_go_explore_returns_by_snapshot_in_its_actor_as_it_does_locally(tmp_path, ray_local):
    spec = resolve("blockmaze")
    space = resolve_space(spec, "blind")
    runs = {}
    for backend in ("local", "ray"):
        r = explore(spec, out=tmp_path / backend, agent="goexplore", budget=Budget(steps=450), workers=1, seed=0,
                    actions=space, replay_known=False, backend=backend, finalize=False)
        runs[backend] = (episodes_of(r.store, r.campaign_id), r.states, r.agent_stats["snapshots"],
                         r.agent_stats["returns"])
        assert r.agent_stats.get("restore_ms", 0) > 0  # it returned to snapshots (in its actor, on Ray)
    assert runs["local"][2] > 0 and len(runs["local"][0]) >= 3
    assert runs["ray"] == runs["local"]


class Recording:
    """Every RayWorker made, in order (the test kills one's actor)."""

    def __init__(self, monkeypatch: Any) -> None:
        import playtester.drive.ray_worker as rw

        self.made: list[Any] = []
        base = rw.RayWorker
        made = self.made

        class Recorded(base):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                made.append(self)

        monkeypatch.setattr(rw, "RayWorker", Recorded)


def test_an_actor_killed_mid_campaign_is_worker_lost_and_the_campaign_goes_on(tmp_path, ray_local, monkeypatch):
    import playtester.campaign.loop as loop_module

    monkeypatch.setattr(loop_module, "AHEAD", 8)  # acting ahead: slot 1's actor plays between the rounds
    rec = Recording(monkeypatch)
    spec = resolve("blockmaze")
    state: dict[str, Any] = {}

    def on_progress(p: dict[str, Any]) -> None:
        # while slot 1's actor plays (a step, or a batch acting ahead): mid-episode, its answer never comes
        if "killed" not in state and p["steps"] >= 150 and rec.made[1].in_flight:
            store = Store(tmp_path, create=False)
            state["before"] = {b.signature for b in store.bugs(store.campaign().id)}
            state["killed"] = p["steps"]
            ray_local.kill(rec.made[1].actor)  # slot 1's actor dies between two of its steps, mid-episode

    r = explore(spec, out=tmp_path, budget=Budget(steps=400), workers=2, seed=0, actions="analyzed",
                replay_known=False, on_progress=on_progress, backend="ray", finalize=False)
    store = Store(tmp_path)
    assert state["killed"] >= 150 and state["before"] and r.steps == 400
    episodes = store.episodes(r.campaign_id)
    lost = [e for e in episodes if e["outcome"] == "worker_lost"]
    assert len(lost) == 1 and lost[0]["worker"] == 1 and "Ray actor was lost" in lost[0]["reason"]
    assert rec.made[1].actor_starts == 2 and rec.made[1].lost == 1 and rec.made[0].actor_starts == 1
    assert [e for e in episodes if e["worker"] == 1 and e["id"] > lost[0]["id"]], "slot 1 played on, new actor"
    bugs = store.bugs(r.campaign_id)
    assert state["before"] <= {b.signature for b in bugs}  # nothing found before the loss is lost
    assert not [b for b in bugs if b.kind == "crash"]  # a lost worker is not a game crash
    from playtester.report import write_report

    html = Path(write_report(store, r.campaign_id, tmp_path / "report.html")).read_text()
    assert 'data-outcome="worker_lost"' in html


def test_a_worker_lost_past_its_restarts_raises_and_its_snapshots_are_gone(ray_local):
    from playtester.drive.ray_worker import RayWorker

    spec = resolve("blockmaze")
    space = resolve_space(spec, "blind")
    w = RayWorker(spec, space, capture=None, max_restarts=1)
    try:
        w.reset(seed=1)
        w.act(3)
        snap = w.snapshot()
        assert snap is not None
        after = [w.act(a).features for a in (5, 7)]
        assert w.restore(snap) is not None and w.steps == 1
        assert [w.act(a).features for a in (5, 7)] == after  # a restored snapshot continues as its episode did
        _kill(ray_local, w.actor)
        obs = w.act(9)
        assert obs.done and obs.exit.kind == "worker_lost" and not obs.exit.is_failure
        assert w.act(9) is obs  # an ended episode answers with its final state
        assert w.restore(snap) is None  # its snapshot died with its actor
        w.reset(seed=1)  # a new actor (restart 1 of 1)
        assert w.actor_starts == 2 and w.restore(snap) is None
        _kill(ray_local, w.actor)
        with pytest.raises(WorkerLostError, match="lost 2 times"):
            w.reset(seed=2)
    finally:
        w.close()


def _kill(ray: Any, actor: Any) -> None:
    """``ray.kill``, and wait until the actor is gone (the kill is asynchronous: a call sent right after it
    may still be answered, more so through a compiled graph, which answers in well under a millisecond)."""
    ray.kill(actor)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            ray.get(actor.where.remote(), timeout=5)
        except Exception:  # noqa: BLE001 - ActorDiedError: gone
            return
        time.sleep(0.05)
    raise AssertionError("the killed actor still answers")


# --------------------------------------------------------------------- a two-node cluster (slow)
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ray_env(root: str) -> dict[str, str]:
    """A loopback cluster with token authentication on (issue 57): its token in a 0600 file of the test's own,
    given to every `ray start` and to the driver that joins."""
    from playtester.drive.ray_worker import ensure_token

    token = ensure_token(os.path.join(root, "token", "ray_auth_token"))
    env = dict(os.environ, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=token,
               RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="1",  # a second node (a local Ray sets 0: loopback, one node)
               RAY_USAGE_STATS_ENABLED="0",
               # a dead node is noticed in seconds instead of 30 (not faster: a loaded machine misses checks)
               RAY_health_check_period_ms="1000", RAY_health_check_timeout_ms="3000",
               RAY_health_check_failure_threshold="3", RAY_health_check_initial_delay_ms="2000")
    return env


def _pids_under(pattern: str) -> list[int]:
    """Processes whose command line mentions ``pattern`` (the cluster's own temporary folders)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if pattern.encode() in f.read():
                        pids.append(int(entry))
            except OSError:
                pass
    return pids


def _children_named(parent: int, name: str) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmd = f.read()
            except (OSError, ValueError, IndexError):
                continue
            if ppid == parent and name.encode() in cmd:
                out.append(int(entry))
    return out


@pytest.fixture
def two_nodes():
    """A head and a second node (a second raylet) on 127.0.0.1, each `ray start` in a session of its own;
    teardown kills exactly those sessions' processes (by process group, then any left by pid)."""
    pytest.importorskip("ray")
    root = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # short: Ray's socket paths must fit in 107 bytes
    port, node_port = _free_port(), _free_port()
    groups: list[int] = []
    env = _ray_env(root)
    ray_bin = str(VENV_BIN / "ray")
    try:
        for args in (["--head", f"--port={port}", "--include-dashboard=false", f"--temp-dir={root}/h"],
                     [f"--address=127.0.0.1:{port}", f"--temp-dir={root}/n", f"--node-manager-port={node_port}"]):
            log = Path(root) / f"start{len(groups)}.log"  # a file, not a pipe: the daemons keep writing to it
            with log.open("w") as f:
                p = subprocess.Popen([ray_bin, "start", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                                      "--disable-usage-stats", *args], env=env, start_new_session=True,
                                     stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            groups.append(p.pid)
            assert p.wait(timeout=120) == 0, log.read_text()[-3000:]
        [raylet] = [pid for pid in _pids_under(f"{root}/n/") if b"raylet/raylet" in Path(f"/proc/{pid}/cmdline")
                    .read_bytes()]
        yield {"address": f"127.0.0.1:{port}", "raylet2": raylet, "env": env, "root": root}
    finally:
        for g in groups:
            try:
                os.killpg(g, signal.SIGKILL)
            except OSError:
                pass
        for _ in range(50):
            left = _pids_under(root)
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            if not left:
                break
            time.sleep(0.2)
        subprocess.run(["rm", "-rf", root], check=False)


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_two_node_cluster_second_node_killed_mid_campaign(tmp_path, two_nodes):
    out = tmp_path / "run"
    cmd = [str(VENV_BIN / "playtester"), "explore", "blockmaze", "--actions", "blind", "--workers", "2",
           "--budget", "45s", "--no-shrink", "--backend", f"ray:{two_nodes['address']}", "--out", str(out)]
    proc = subprocess.Popen(cmd, env=two_nodes["env"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        hosts: list[int] = []
        seen = None
        while time.monotonic() < deadline and proc.poll() is None:  # an actor on the second node, and a bug found
            hosts = _children_named(two_nodes["raylet2"], "WorkerHost")
            seen = seen or (time.monotonic() if hosts else None)
            if hosts and (out / DB_NAME).exists():
                store = Store(out, create=False)
                c = store.campaign()
                if c is not None and (store.bug_count(c.id) or time.monotonic() - seen > 10):
                    break
            time.sleep(0.5)
        if not hosts:
            ps = subprocess.run(["ps", "-eo", "pid,ppid,pgid,cmd", "--forest"], capture_output=True, text=True).stdout
            out_text = proc.communicate(timeout=60)[0] if proc.poll() is not None else "(still running)"
            pytest.fail(f"no worker on the second node (raylet {two_nodes['raylet2']}); CLI: {out_text[-3000:]}\n"
                        + "\n".join(line for line in ps.splitlines() if "ray" in line))
        store = Store(out, create=False)
        cid = store.campaign().id
        before = {b.signature for b in store.bugs(cid)}
        os.kill(two_nodes["raylet2"], signal.SIGKILL)
        output, _ = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode in (0, 1), output[-4000:]
    store = Store(out, create=False)
    c = store.campaign(cid)
    assert c.status == "finished"
    lost = [e for e in store.episodes(cid) if e["outcome"] == "worker_lost"]
    assert lost and {e["worker"] for e in lost} == {lost[0]["worker"]}, output[-4000:]
    later = [e for e in store.episodes(cid) if e["worker"] == lost[0]["worker"] and e["id"] > lost[-1]["id"]]
    assert later, "the lost worker's slot played on with a new actor on the head node"
    assert before <= {b.signature for b in store.bugs(cid)} and "workers lost" in output


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie is reaped by init soon, and uses nothing)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _db_count(db: Path, table: str) -> int:
    import sqlite3

    try:
        with sqlite3.connect(db) as con:
            return con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_the_driver_killed_then_resume_on_ray_loses_nothing_already_found(tmp_path):
    """The whole driver (the `playtester explore` process, which started the local Ray) dies by SIGKILL
    mid-campaign: every process it started ends within seconds (Ray's agents too, by the lifetime guard), and
    `--resume --backend ray` finishes the campaign from the store, keeping every bug."""
    pytest.importorskip("ray")
    import sqlite3

    out, ray_tmp = tmp_path / "run", tempfile.mkdtemp(prefix="rk", dir="/tmp")
    env = dict(os.environ, RAY_TMPDIR=ray_tmp)
    cmd = [str(VENV_BIN / "playtester"), "explore", "blockmaze", "--budget", "2500", "--out", str(out), "--no-shrink",
           "--workers", "2", "--backend", "ray"]
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        db = out / DB_NAME
        deadline = time.time() + 180
        while time.time() < deadline and (_db_count(db, "episodes") < 3 or _db_count(db, "bugs") < 1):
            assert proc.poll() is None, "the campaign ended before it could be killed"
            time.sleep(0.2)
        from playtester.drive.lifetime import descendants

        below = descendants(proc.pid)  # Ray's head processes, its agents, the actors, their games, the guard
        assert len(below) >= 5, below
        os.kill(proc.pid, signal.SIGKILL)  # the driver alone, as the kernel's OOM killer would
        proc.wait(timeout=30)
        deadline = time.time() + 20  # Ray's agents alone would take a minute or more (children of the raylet)
        while time.time() < deadline and [p for p in below if _running(p)]:
            time.sleep(0.2)
        assert not [p for p in below if _running(p)], "a process the driver started outlived it"
        with sqlite3.connect(db) as con:
            steps_before, status = con.execute("SELECT steps, status FROM campaigns").fetchone()
            bugs_before = dict(con.execute("SELECT signature, count FROM bugs"))
        assert status == "running" and steps_before > 0 and bugs_before

        res = subprocess.run([str(VENV_BIN / "playtester"), "explore", "--resume", "--out", str(out), "--budget",
                              "2500", "--no-shrink", "--backend", "ray"], env=env, capture_output=True, text=True,
                             timeout=300)
        assert res.returncode == 1, res.stdout + res.stderr  # 1: bugs found
        with sqlite3.connect(db) as con:
            steps, status, n = con.execute("SELECT steps, status, COUNT(*) FROM campaigns").fetchone()
            bugs_after = dict(con.execute("SELECT signature, count FROM bugs"))
        assert n == 1 and status == "finished" and steps == 2500
        assert all(bugs_after[sig] >= c for sig, c in bugs_before.items())  # nothing found was lost
    finally:
        for pid in _pids_under(ray_tmp):
            os.kill(pid, signal.SIGKILL)
        subprocess.run(["rm", "-rf", ray_tmp], check=False)


def test_a_call_inside_a_plan_on_ray_sees_the_game_past_the_calls_in_flight_and_keeps_their_steps(ray_local):
    """`RayWorker.call` first takes in the plan's calls in flight (the batch answered, then up to `DEPTH` queued
    continuations of ``chunk`` steps), then the steps the actor's game played past them (it plays the whole plan
    without waiting for the next call: `WorkerHost.act_ahead`), so the game it sees is at least that many steps past
    the last answer taken; every one of those steps is still answered by `step_wait`, in order, none skipped, and
    the plan ends there."""
    import numpy as np

    from playtester.agents.common import RandomPlan
    from playtester.drive.ray_worker import DEPTH, RayWorker

    spec = resolve("blockmaze")
    space = resolve_space(spec, "blind")
    w = RayWorker(spec, space, capture=None)
    try:
        start = w.reset(seed=0)
        chunk, n = 2, 50
        w.act_ahead_async(0, RandomPlan.of(np.random.default_rng(0), len(space)), n, chunk=chunk)
        first = w.step_wait()
        assert w.ahead
        w.call("playtester.plans.hooks:hook_names")
        kept = []
        while w.ahead:
            kept.append(w.step_wait())
        # the first batch's other steps and DEPTH continuations of `chunk` steps each at least, the plan's n at most
        assert chunk - 1 + DEPTH * chunk <= len(kept) <= n - 1
        frames = [start.frame_no, first.frame_no] + [o.frame_no for o in kept]
        after = w.act(0)  # the plan ended at the call: the next step is the caller's own, right after the kept ones
        frames.append(after.frame_no)
        # each step once, in order, and none played but not answered: the frames advance by one step's frames
        assert set(np.diff(frames)) == {spec.config.frames_per_action}, frames
        assert not w.ahead and w.steps == len(kept) + 2
    finally:
        w.close()
