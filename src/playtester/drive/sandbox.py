"""``--sandbox``: a game's episodes run under bubblewrap (Debian's ``bubblewrap``), with no network and writes only in
the worker's own temporary folder (issue 57).

`Worker` starts its host process (the one that forks each episode) through `host_command`: ``bwrap`` with

- ``--unshare-net``: a network namespace of its own with only a loopback interface: any connection outward fails
  (``ENETUNREACH``), names do not resolve, and 127.0.0.1 there is not this machine's (no local service, no Ray);
- the whole filesystem read-only (``--ro-bind / /``, ``/tmp`` too), a private ``/dev/shm`` (``--tmpfs``), a
  minimal ``/dev`` and a fresh ``/proc``; the only folder bound writable is the worker's temporary folder, which
  holds the episodes' copies of the game's folder (`drive.isolation`; under the sandbox every file is copied, no
  hard link, so no write reaches an original), their HOME (`GameConfig.fresh_home`), ``$TMPDIR``, logs and stack
  dumps;
- ``--die-with-parent`` (bwrap itself is killed when the worker dies: ``PR_SET_PDEATHSIG`` before it starts).

No PID namespace: the worker signals its episodes by pid (the watchdog's stack dumps, kills). The sandbox does not
hide files from reading (the game reads what the user can; with no network and no writable place but its own
copies, it cannot send them anywhere), and does not limit CPU or memory (the memory limit does that).

A game stopped by the sandbox fails as it would on a machine without network or with a read-only disk: its
exception is a crash finding; `denial_note` adds to its message that the sandbox denied it.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import socket
from collections.abc import Callable

from playtester.errors import UsageError

ENV = "PLAYTESTER_SANDBOX"  # set inside the sandbox: the episode knows a denial is the sandbox's
DENIED = {errno.EROFS: "a write outside the game's folder", errno.ENETUNREACH: "a network connection",
          errno.EHOSTUNREACH: "a network connection", errno.ECONNREFUSED: "a network connection",
          errno.EACCES: "an access", errno.EPERM: "an operation"}


def bwrap() -> str:
    """The path of ``bwrap``, or a UsageError saying how to install it."""
    path = shutil.which("bwrap")
    if path is None:
        raise UsageError("--sandbox runs the game's episodes under bubblewrap, which is not installed: "
                         "apt-get install bubblewrap (Debian, Ubuntu), or run without --sandbox")
    return path


def host_command(cmd: list[str], writable: list[str]) -> tuple[list[str], Callable[[], None]]:
    """``cmd`` (the worker host's command line) run under bubblewrap, with only ``writable`` folders writable (the
    first also holds ``$TMPDIR``: ``/tmp`` is read-only), and the function to run in the child before it execs
    ``bwrap`` (it dies with its parent)."""
    args = [bwrap(), "--die-with-parent", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/dev/shm"]
    for folder in writable:
        os.makedirs(folder, exist_ok=True)
        args += ["--bind", folder, folder]
    if writable:
        tmp = os.path.join(writable[0], "tmp")
        os.makedirs(tmp, exist_ok=True)
        args += ["--setenv", "TMPDIR", tmp]
    args += ["--setenv", ENV, "1", "--"]
    return args + cmd, _die_with_parent


def _die_with_parent() -> None:
    from playtester.drive.lifetime import PR_SET_PDEATHSIG, _prctl

    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def active() -> bool:
    """Whether this process runs inside playtester's sandbox."""
    return os.environ.get(ENV) == "1"


def denial_note(e: BaseException) -> str | None:
    """What to add to the message of a game's exception that the sandbox caused, else None."""
    if not active():
        return None
    if isinstance(e, socket.gaierror):
        what = "a network name lookup"
    elif isinstance(e, OSError) and e.errno in DENIED:
        what = DENIED[e.errno]
    else:
        return None
    return (f"[denied by playtester's --sandbox: {what} ({errno.errorcode.get(e.errno or 0, e.errno)}); under it "
            f"a game has no network and may write only in its own copy of its folder and its HOME]")
