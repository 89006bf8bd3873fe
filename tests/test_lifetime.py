"""No orphans, no runaway memory: a stopped playtester leaves no process behind, a game that eats memory
is a finding, and the analysis keeps to its budgets. Real CLI processes, real signals, real limits."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from conftest import GAMES, fixture_spec

from playtester.drive import lifetime
from playtester.drive.inputs import InputFrame

MANY_PATHS = f"{GAMES / 'many_paths.py'}:main"


def start_cli(*args, cwd=None):
    return subprocess.Popen([sys.executable, "-m", "playtester.cli", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, cwd=cwd)


def descendants(pid):
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def running(procs):
    out = []
    for p in procs:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def wait_for(cond, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def episode_processes(cli_pid):
    """The episode processes of a CLI: descendants whose parent is a worker host (not the CLI itself)."""
    return [p for p in descendants(cli_pid) if p.ppid() != cli_pid]


def assert_all_gone(procs, seconds=5.0):
    deadline = time.time() + seconds
    while time.time() < deadline and running(procs):
        time.sleep(0.05)
    left = running(procs)
    assert not left, [(p.pid, p.ppid(), " ".join(p.cmdline())[-80:]) for p in left]


def kill_and_check(proc, sig=signal.SIGKILL):
    procs = descendants(proc.pid)
    assert procs, "the CLI started no worker"
    os.kill(proc.pid, sig)
    proc.wait(timeout=30)
    assert_all_gone(procs)
    return procs


def test_sigkill_of_explore_with_snapshots_leaves_no_process(tmp_path):
    """Go-Explore parks snapshots (forked copies of episodes): they, the episodes and the hosts all end."""
    proc = start_cli("explore", "blockmaze", "--agent", "goexplore", "--workers", "2", "--actions", "blind",
                     "--budget", "1000000", "--out", str(tmp_path / "run"))
    # two hosts, their episodes, and parked snapshots beyond them
    wait_for(lambda: len(descendants(proc.pid)) >= 6, 90, "episodes and snapshots")
    procs = kill_and_check(proc)
    assert len(procs) >= 6


def test_sigkill_of_run_leaves_no_process():
    proc = start_cli("run", "blockmaze", "--workers", "2", "--steps", "100000000")
    wait_for(lambda: len(episode_processes(proc.pid)) >= 2, 90, "two episode processes")
    kill_and_check(proc)


def test_sigkill_mid_analysis_leaves_no_process(tmp_path):
    """The analysis of many_paths runs for minutes when given the room: SIGKILL the CLI in the middle of it
    (the episode process is deep in the symbolic executor and z3) and nothing may remain."""
    cfg = tmp_path / "playtester.toml"
    cfg.write_text("analysis_seconds = 600\nanalysis_max_forks = 100000000\n")
    proc = start_cli("analyze", MANY_PATHS, "--config", str(cfg))

    def analysing():  # the recording run takes well under a second of CPU: past 3 s it is the analysis
        eps = episode_processes(proc.pid)
        return eps if eps and eps[0].cpu_times().user > 3.0 else None

    wait_for(analysing, 120, "the analysis to be under way")
    assert proc.poll() is None
    kill_and_check(proc)


def test_sigterm_stops_explore_at_once_and_keeps_what_was_found(tmp_path):
    out = tmp_path / "run"
    proc = start_cli("explore", f"{GAMES / 'raise_at.py'}:main", "--game-arg", "n=25", "--actions", "blind",
                     "--workers", "2", "--budget", "1000000", "--out", str(out))
    db = out / "playtester.sqlite"

    def bugs():
        try:
            with sqlite3.connect(db, timeout=5) as con:
                return con.execute("SELECT COUNT(*) FROM bugs").fetchone()[0]
        except sqlite3.Error:
            return 0

    wait_for(bugs, 90, "the crash to be stored")
    wait_for(lambda: len(episode_processes(proc.pid)) >= 2, 30, "two live episodes")
    procs = descendants(proc.pid)
    proc.send_signal(signal.SIGTERM)
    rc = proc.wait(timeout=30)
    err = proc.stderr.read()
    assert rc == 128 + signal.SIGTERM, err
    assert "stopped by SIGTERM" in err and "--resume" in err
    assert_all_gone(procs)
    with sqlite3.connect(db) as con:
        status, steps = con.execute("SELECT status, steps FROM campaigns").fetchone()
        kinds = [k for (k,) in con.execute("SELECT kind FROM bugs")]
    assert status == "running" and steps > 0 and kinds == ["crash"]  # stored, and resumable


# ------------------------------------------------------------------------------------------ memory
@pytest.mark.parametrize("native", [False, True])
def test_a_leaking_game_ends_with_a_memory_exit_and_the_next_episode_runs(worker_for, native):
    """16 MiB a frame under a 300 MiB limit: a MemoryError (bytearray) or numpy's own allocation error."""
    w = worker_for(fixture_spec("leak", game_args={"mb": 16, "native": native}, memory_limit_mb=300))
    assert w.memory_limit_mb == 300
    w.reset(seed=0)
    for _ in range(100):
        obs = w.step(InputFrame(), frames=1)
        if obs.done:
            break
    exit = obs.info["exit"]
    assert exit.kind == "memory" and exit.is_failure, exit.message
    assert "memory limit (300 MiB" in exit.message
    assert exit.frames[-1].function in ("grow", "ones") and any(f.function == "grow" for f in exit.frames)
    assert "MemoryError" in exit.traceback
    assert 200 * 1024 < w.peak_rss_kb < 400 * 1024  # it really grew to about its limit, not past it
    assert not w.reset(seed=1).done


def test_a_leaking_game_is_a_memory_bug_and_the_campaign_goes_on(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "playtester.cli", "explore", f"{GAMES / 'leak.py'}:main",
                           "--game-arg", "mb=16", "--actions", "blind", "--budget", "120", "--memory-limit", "250M",
                           "--no-shrink", "--out", str(tmp_path / "run")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    with sqlite3.connect(tmp_path / "run" / "playtester.sqlite") as con:
        bugs = con.execute("SELECT kind, count FROM bugs").fetchall()
        episodes = con.execute("SELECT COUNT(*) FROM episodes").fetchone()[0]
        config = con.execute("SELECT config FROM campaigns").fetchone()[0]
    assert [k for k, _ in bugs] == ["memory"] and bugs[0][1] >= 2  # one bug, seen in several episodes
    assert episodes >= 2 and '"memory_limit_mb": 250' in config  # the limit is in the config traces carry
    assert "memory" in proc.stdout


def test_default_memory_limit_splits_half_the_machine_over_the_workers():
    total = lifetime.machine_memory_mb()
    assert lifetime.auto_memory_limit_mb(1) == max(lifetime.MIN_AUTO_MB, total // 2)
    assert lifetime.auto_memory_limit_mb(4) == max(lifetime.MIN_AUTO_MB, total // 8)
    from playtester.campaign import with_memory_limit

    spec = fixture_spec("raise_at")
    assert with_memory_limit(spec, 2).config.memory_limit_mb == lifetime.auto_memory_limit_mb(2)
    assert with_memory_limit(spec.with_config(memory_limit_mb=0), 2).config.memory_limit_mb == 0  # off stays off


def test_memory_sizes_parse_and_bad_ones_say_how_to_write_them():
    assert lifetime.parse_memory("2G") == 2048 and lifetime.parse_memory("1500M") == 1500
    assert lifetime.parse_memory("1500") == 1500 and lifetime.parse_memory("512MiB") == 512
    assert lifetime.parse_memory("off") == 0 and lifetime.parse_memory("auto") is None
    from playtester.errors import UsageError

    with pytest.raises(UsageError, match="2G, 1500M"):
        lifetime.parse_memory("lots")


# ---------------------------------------------------------------------------------------- analysis
def test_analysis_keeps_to_its_cpu_budget_and_says_so():
    """2**22 paths and 3 s of CPU: past 70% of it the unfinished paths are dropped, the execution ends in time
    and the space is partial, with a warning that names the setting to raise."""
    from playtester.analysis import analyze
    from playtester.drive.spec import resolve

    spec = resolve(MANY_PATHS, analysis_seconds=3, analysis_max_forks=100_000_000)
    t0 = time.perf_counter()
    a = analyze(spec)
    took = time.perf_counter() - t0
    assert a.cpu_seconds <= 3 * 1.05, a.cpu_seconds  # the budget is CPU time in the game process, a ceiling
    assert took < 60, took  # wall time stretches on a busy machine; without the budget: minutes
    assert a.result["partial"] and a.result["actions"]
    assert any(w.startswith("partial action space:") and "analysis_seconds" in w for w in a.warnings), a.warnings


def test_analysis_past_its_memory_limit_falls_back_to_blind_with_the_reason():
    from playtester.drive.spec import resolve
    from playtester.env import default_space

    spec = resolve(MANY_PATHS, analysis_seconds=120, analysis_max_forks=100_000_000, memory_limit_mb=250)
    t0 = time.perf_counter()
    space = default_space(spec)
    assert space.kind == "blind"
    assert any("ran past its memory limit (250 MiB" in w and "memory_limit_mb" in w for w in space.warnings), \
        space.warnings
    assert time.perf_counter() - t0 < 60


def test_analyze_past_its_budget_exits_2_with_the_reason(tmp_path):
    """`playtester analyze` (and --actions analyzed) on a game the analysis cannot finish: exit 2, the
    reason and the setting to raise; nothing left running. A budget spent before the first statement of the
    loop ran (1 ms: the call graph alone takes longer) leaves no path at all to make a partial space of."""
    cfg = tmp_path / "playtester.toml"
    cfg.write_text("analysis_seconds = 0.001\nanalysis_max_forks = 100000000\n")
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "playtester.cli", "analyze", MANY_PATHS, "--config", str(cfg)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "analysis budget of CPU time" in res.stderr and "analysis_seconds" in res.stderr
    assert time.perf_counter() - t0 < 30


def test_a_new_worker_removes_the_temporary_folders_of_killed_runs(tmp_path, worker_for):
    """A SIGKILLed run cannot remove its workers' log folders; the next worker on the machine does."""
    import tempfile

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    stale = Path(tempfile.gettempdir()) / f"{lifetime.WORKER_DIR_PREFIX}{gone}-abc123"
    stale.mkdir()
    (stale / "game.log").write_text("left behind")
    mine = Path(tempfile.mkdtemp(prefix=f"{lifetime.WORKER_DIR_PREFIX}{os.getpid()}-"))  # a live process's
    try:
        w = worker_for(fixture_spec("raise_at"))
        assert not stale.exists() and mine.exists()
        assert Path(w.log_path).parent.name.startswith(f"{lifetime.WORKER_DIR_PREFIX}{os.getpid()}-")
        folder = Path(w.log_path).parent
        w.close()
        assert not folder.exists()
    finally:
        import shutil

        shutil.rmtree(mine, ignore_errors=True)


GUARDED = """
import subprocess, sys, time
from playtester.drive.lifetime import guard
# a process outside the tree that dies with this one (a session of its own, no death signal), as Ray's agents are
orphan = subprocess.Popen(["sleep", "120"], start_new_session=True)
recycled = subprocess.Popen(["sleep", "120"], start_new_session=True)
assert guard([orphan.pid]) == 1 and guard([orphan.pid]) == 0  # named once
from playtester.drive import lifetime
lifetime._GUARDED.add((recycled.pid, "0"))  # named with another start time: a recycled pid is never hit
lifetime._GUARD.stdin.write(f"{recycled.pid} 0\\n"); lifetime._GUARD.stdin.flush()
print(orphan.pid, recycled.pid, lifetime._GUARD.pid, flush=True)
time.sleep(120)
"""


def test_the_guard_ends_what_it_was_named_when_its_parent_is_killed():
    proc = subprocess.Popen([sys.executable, "-c", GUARDED], stdout=subprocess.PIPE, text=True)
    try:
        orphan, recycled, guard = (int(x) for x in proc.stdout.readline().split())
        assert psutil.pid_exists(orphan) and psutil.pid_exists(guard)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.time() + 10
        while time.time() < deadline and (_alive(orphan) or _alive(guard)):
            time.sleep(0.05)
        assert not _alive(orphan), "the named process outlived its parent"
        assert not _alive(guard), "the guard stays after its work is done"
        assert _alive(recycled), "a pid named with another start time was killed"
    finally:
        for pid in locals().get("orphan", 0), locals().get("recycled", 0):
            if pid and _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


GUARD_EXITS = """
import os
from playtester.drive.lifetime import guard
pid = os.spawnvp(os.P_NOWAIT, "setsid", ["setsid", "sleep", "120"])  # a session of its own; no Popen to warn
assert guard([pid]) == 1
print(pid, flush=True)
"""


def test_a_normal_exit_ends_the_guard_and_what_it_named_with_no_resource_warning():
    out = subprocess.run([sys.executable, "-W", "always::ResourceWarning", "-c", GUARD_EXITS], capture_output=True,
                         text=True, timeout=60)
    child = int(out.stdout.split()[0])
    try:
        assert out.returncode == 0, out.stderr
        assert "ResourceWarning" not in out.stderr, out.stderr  # the guard's pipe and process were ended at exit
        deadline = time.time() + 10
        while time.time() < deadline and _alive(child):
            time.sleep(0.05)
        assert not _alive(child), "the named process outlived its parent's normal exit"
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)


def test_sigterm_stops_run_with_the_summary_of_what_ran(tmp_path):
    """A `run` stopped by SIGTERM still prints its summary of the steps played (issue 54), then exits 128+15."""
    proc = subprocess.Popen([sys.executable, "-m", "playtester.cli", "run", f"{GAMES / 'raise_at.py'}:main",
                             "--game-arg", "n=25", "--actions", "blind", "--steps", "1000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)
    proc.send_signal(signal.SIGTERM)
    rc = proc.wait(timeout=30)
    out, err = proc.stdout.read(), proc.stderr.read()
    assert rc == 128 + signal.SIGTERM, err
    assert "stopped: the summary of the steps run so far" in out and "game crashes" in out, out
