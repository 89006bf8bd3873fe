"""Processes that never outlive playtester, and memory that never takes the machine down.

A test tool must leave nothing behind when it is stopped, however it is stopped:

- **Die with the parent.** Each worker host asks the kernel for SIGKILL when the process that started
  it dies (``PR_SET_PDEATHSIG``), and each episode process asks the same of its host, so killing the
  CLI (even with SIGKILL, even while the game is deep in C code such as z3 or numpy) takes the whole
  tree down: CLI -> host -> episode -> the episode resumed from a snapshot. Parked snapshots cannot use
  the signal (their parent, the episode that forked them, ends long before they do), so they look for
  their host every second while parked and end when it is gone. The host also checks its parent's pid
  between commands (belt and braces, and the only guard where ``prctl`` is missing).
- **Processes outside that tree** (a local Ray instance's agents, children of Ray's raylet) are named to a
  guard process (`guard`, `playtester.drive.reaper`) that SIGKILLs them when this process dies.
- **Close on signals.** `install_signal_handlers` makes SIGTERM, SIGINT and SIGHUP kill every live
  worker's process group at once (SIGKILL, from this side: work inside the game cannot delay it), then
  unwind the CLI with `Interrupted` so what was stored stays stored.
- **Bounded memory.** Every episode process runs under ``RLIMIT_DATA`` (its heap and private writable
  mappings: what a leaking game grows), by default half the machine's memory split over the workers.
  The hard limit sits `HEADROOM_MB` above the soft one: past the soft limit allocations fail (Python's
  ``MemoryError``), and `use_headroom` lifts the soft limit so the episode can still report what
  happened. The analysis, which runs inside the episode process, lives under the same limit.

``PR_SET_PDEATHSIG`` fires when the *thread* that started the child ends: start workers from the
thread that lives as long as they should (the main thread, in the CLI).
"""

from __future__ import annotations

import os
import re
import signal
import weakref
from typing import Any

PR_SET_PDEATHSIG = 1
HEADROOM_MB = 64  # above the soft limit: room to format and send the report of a MemoryError
MIN_AUTO_MB = 512  # the automatic per-worker limit never goes below this

_LIBC: Any = None


def _prctl(option: int, arg: int) -> bool:
    global _LIBC
    try:
        if _LIBC is None:
            import ctypes

            _LIBC = ctypes.CDLL(None, use_errno=True)
        return _LIBC.prctl(option, arg, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(parent_pid: int) -> None:
    """Ask for SIGKILL when the parent dies; if ``parent_pid`` is already gone (the race between the
    fork and this call), end now."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(0)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie is dead: it waits only to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
            return True
        except OSError:
            return False


# ------------------------------------------------------------------------------------------ memory
def machine_memory_mb() -> int:
    """Physical memory of this machine (or of its cgroup, when that is smaller), in MiB."""
    import psutil

    total = psutil.virtual_memory().total
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path) as f:
                text = f.read().strip()
            if text.isdigit():
                total = min(total, int(text))
        except OSError:
            continue
    return int(total // 2**20)


def auto_memory_limit_mb(workers: int = 1) -> int:
    """The default per-worker limit: half the machine's memory split over ``workers``."""
    return max(MIN_AUTO_MB, machine_memory_mb() // 2 // max(1, workers))


def parse_memory(text: str | int | None) -> int | None:
    """``"2G"``, ``"1500M"``, ``"1500"`` (MiB), ``"auto"`` (None) or ``"0"``/``"off"`` (no limit: 0) -> MiB."""
    if text is None or isinstance(text, int):
        return text
    t = text.strip().lower()
    if t in ("", "auto"):
        return None
    if t in ("0", "off", "none", "unlimited"):
        return 0
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?", t)
    if not m:
        from playtester.errors import UsageError

        raise UsageError(f"memory limit {text!r}: write a size such as 2G, 1500M or 1500 (MiB), 'auto' or 'off'")
    scale = {"k": 1 / 1024, "": 1, "m": 1, "g": 1024, "t": 1024 * 1024}[m.group(2)]
    return max(1, int(float(m.group(1)) * scale))


def apply_memory_limit(mb: int | None) -> None:
    """Limit this process's data segment to ``mb`` MiB (soft; the hard limit is `HEADROOM_MB` above)."""
    if not mb:
        return
    import resource

    soft = int(mb) * 2**20
    hard = soft + HEADROOM_MB * 2**20
    try:
        _, cur_hard = resource.getrlimit(resource.RLIMIT_DATA)
        if cur_hard != resource.RLIM_INFINITY:
            hard = min(hard, cur_hard)
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))
    except (ValueError, OSError):
        pass


def use_headroom() -> None:
    """After a MemoryError: lift the soft limit to the hard one so the report can be made and sent."""
    import resource

    try:
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        resource.setrlimit(resource.RLIMIT_DATA, (hard, hard))
    except (ValueError, OSError):
        pass


def data_limit_mb() -> int | None:
    """This process's soft data limit in MiB (None: unlimited)."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
    return None if soft == resource.RLIM_INFINITY else soft // 2**20


def data_mb() -> float:
    """This process's data segment now (VmData), in MiB."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def is_memory_error(e: BaseException | None) -> bool:
    """A MemoryError, or an error caused by one (a game or library that re-raises it wrapped)."""
    seen = 0
    while e is not None and seen < 10:
        if isinstance(e, MemoryError) or (type(e).__name__ == "Z3Exception" and "out of memory" in str(e).lower()):
            return True
        e = e.__cause__ or e.__context__
        seen += 1
    return False


def _while_handling(e: BaseException) -> str:
    """`` (while handling TYPE: MESSAGE at FILE:LINE)`` for an exception raised while another was being handled
    (a game's own crash handler that fails hides the first error otherwise), the first one named; else ''."""
    import os
    import traceback

    first, seen = None, 0
    while seen < 10:
        nxt = e.__cause__ or (None if e.__suppress_context__ else e.__context__)
        if nxt is None:
            break
        first, e, seen = nxt, nxt, seen + 1
    if first is None:
        return ""
    tb = traceback.extract_tb(first.__traceback__)
    where = f" at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else ""
    return f" (while handling {type(first).__name__}: {str(first)[:300]}{where})"


def exit_of_exception(e: BaseException, memory_limit_mb: int | None, skip_file: str | None = None) -> Any:
    """The `GameExit` of an exception that ended an episode: ``memory`` for a MemoryError (then the soft
    limit is lifted first, so the traceback can be formatted and sent), else ``exception``. Frames of
    ``skip_file`` (the driver's own) at the outer end of the traceback are left out."""
    import traceback

    from playtester.drive.observation import GameExit, TraceFrame

    memory = is_memory_error(e)
    if memory:
        use_headroom()
    frames = [TraceFrame(f.filename, f.lineno or 0, f.name, (f.line or "").strip())
              for f in traceback.extract_tb(e.__traceback__)]
    while skip_file and frames and frames[0].file == skip_file:
        frames.pop(0)
    tb = e.__traceback__
    while (skip_file and tb is not None and tb.tb_next is not None
           and (tb.tb_frame.f_code.co_filename == skip_file or tb.tb_frame.f_code.co_filename.startswith("<frozen"))):
        tb = tb.tb_next  # the traceback a person reads starts in the game, not in playtester's episode body
    text = "".join(traceback.format_exception(type(e), e, tb))[-20000:]
    what = f"{type(e).__name__}: {e}" + _while_handling(e)
    if memory:
        limit = f"its memory limit ({memory_limit_mb} MiB of data)" if memory_limit_mb else "memory"
        return GameExit("memory", exc_type=type(e).__name__, message=f"the game ran out of {limit}: {what}"[:2000],
                        traceback=text, frames=frames)
    return GameExit("exception", exc_type=type(e).__name__, message=what[:2000], traceback=text, frames=frames)


def progress(pid: int) -> tuple[int, int] | None:
    """A process's CPU time (clock ticks, user + system) and read/write system calls so far, from /proc; None when
    it is gone or /proc does not say (then nothing waits on it)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
        io = 0
        with open(f"/proc/{pid}/io", encoding="ascii") as f:
            for line in f:
                if line.startswith(("syscr:", "syscw:")):
                    io += int(line.split()[1])
        return cpu, io
    except (OSError, ValueError, IndexError):
        return None


# ---------------------------------------------------------------------------------- temporary files
WORKER_DIR_PREFIX = "playtester-worker-"


def worker_dir() -> str:
    """A new temporary folder for a worker's log and stack dumps, named after this process, after removing
    the folders of playtester processes that are gone (a killed run cannot clean up after itself)."""
    import glob
    import shutil
    import tempfile

    for path in glob.glob(os.path.join(tempfile.gettempdir(), WORKER_DIR_PREFIX + "*-*")):
        pid = os.path.basename(path)[len(WORKER_DIR_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{WORKER_DIR_PREFIX}{os.getpid()}-")


# ----------------------------------------------------------------------------- the parent's registry
_WORKERS: weakref.WeakSet[Any] = weakref.WeakSet()


def register(worker: Any) -> None:
    """Remember a live `Worker`, so `kill_all` can end it whatever the CLI is doing."""
    _WORKERS.add(worker)


def kill_all() -> int:
    """SIGKILL the process group of every live worker (host, episode, snapshots); how many there were."""
    n = 0
    for w in list(_WORKERS):
        pgid = w.host_pid
        if pgid:
            n += 1
            try:
                os.killpg(pgid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    return n


class Interrupted(BaseException):  # noqa: N818 - reads as what happened
    """The CLI was asked to stop (SIGTERM, SIGINT or SIGHUP); its workers are already dead.

    A BaseException, so no ``except Exception`` on the way swallows it; ``finally`` blocks still run."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _on_signal(signum: int, _frame: Any) -> None:
    kill_all()
    signal.signal(signum, signal.SIG_DFL)  # a second signal of the same kind ends the process at once
    raise Interrupted(signum)


def install_signal_handlers() -> None:
    """In the main thread of the CLI: SIGTERM / SIGINT / SIGHUP kill the workers, then raise `Interrupted`;
    at exit, whatever the reason, no worker is left."""
    import atexit

    atexit.register(kill_all)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        try:
            signal.signal(sig, _on_signal)
        except (ValueError, OSError):  # not the main thread, or the signal is not ours to take
            pass


# ----------------------------------------------------------------------------- processes outside the tree
_GUARD: Any = None
_GUARDED: set[tuple[int, str]] = set()


def descendants(pid: int | None = None) -> list[int]:
    """Every process below ``pid`` (this one by default), from ``/proc``; [] where there is no ``/proc``."""
    root = os.getpid() if pid is None else pid
    parent: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read().decode(errors="replace")
                parent[int(entry)] = int(stat.rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    out, frontier = [], [root]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out.extend(kids)
        frontier.extend(kids)
    return out


def _end_guard(proc: Any, timeout: float = 5.0) -> None:
    """At a normal exit: close the guard's pipe, as this process's death would, and wait for the guard to do its
    work and exit (so no pipe or child is left to the interpreter's teardown)."""
    import subprocess

    try:
        proc.stdin.close()
        proc.wait(timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        pass


def guard(pids: list[int]) -> int:
    """Name ``pids`` to the guard process (started on first use), which SIGKILLs those still running when this
    process dies, however it dies; how many were newly named. Linux only (a no-op without ``/proc``)."""
    global _GUARD
    import subprocess
    import sys

    from playtester.drive.reaper import start_time

    lines = []
    for pid in pids:
        if _GUARD is not None and pid == _GUARD.pid:
            continue
        start = start_time(pid)
        if start is not None and (pid, start) not in _GUARDED:
            _GUARDED.add((pid, start))
            lines.append(f"{pid} {start}\n")
    if not lines:
        return 0
    if _GUARD is None or _GUARD.poll() is not None:
        import atexit

        _GUARD = subprocess.Popen([sys.executable, "-P", "-m", "playtester.drive.reaper"], stdin=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                  close_fds=True, text=True)
        atexit.register(_end_guard, _GUARD)
    try:
        _GUARD.stdin.write("".join(lines))
        _GUARD.stdin.flush()
    except (BrokenPipeError, OSError):
        return 0
    return len(lines)
