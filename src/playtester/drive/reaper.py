"""``python -m playtester.drive.reaper``: ends, when its parent dies however it dies, the processes its parent
named.

Some processes playtester starts are not in a tree that dies with it: a local Ray instance's agents are
children of Ray's raylet, and outlive a SIGKILLed driver by a minute or more. The parent starts this guard once
(`playtester.drive.lifetime.guard`), in a session of its own (a Ctrl-C in the terminal does not reach it), and
writes one line per process to its standard input: ``PID STARTTIME`` (the start time in clock ticks from
``/proc/PID/stat``, so a recycled PID is never hit). When standard input ends, which the kernel does when the
parent is gone (exit, crash or SIGKILL), the guard SIGKILLs every named process still running and exits.
"""

from __future__ import annotations

import os
import signal
import sys


def start_time(pid: int) -> str | None:
    """The start time of process ``pid`` in clock ticks since boot (field 22 of ``/proc/PID/stat``); None when
    it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode(errors="replace")
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]  # the fields after the command name (which may hold spaces)


def main() -> None:
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    named: dict[int, str] = {}
    for line in sys.stdin:
        pid, _, start = line.strip().partition(" ")
        if pid.isdigit() and start:
            named[int(pid)] = start
    for pid, start in named.items():
        if start_time(pid) == start:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


if __name__ == "__main__":
    main()
