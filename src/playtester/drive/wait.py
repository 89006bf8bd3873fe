"""Waiting on the connection between a worker (parent) and its episode process, briefly without sleeping.

A step answered synchronously (`Worker.step`, `GameEnv.step`) is a round trip: the parent sends a command and
waits for the observation; the episode plays the step, sends the observation and waits for the next command.
Each side falls asleep in ``poll(2)`` while the other works, and waking a sleeping process costs the writer an
inter-processor wake-up and the reader its scheduling latency: on this project's virtual machine, measured by
hand with `perf_counter` stamps on both sides of a dungeon step, about 50 us for the episode's wake-up and
100 us more between the episode's write and the parent's read, against about 1.5 ms for the step's ten frames.
Adaptive mutexes and low-latency message queues wait the same way: poll without sleeping for about as long as
the other side is expected to take, then sleep.

- `CommandWait` (episode side; never on a single core): the parent answers within tens of microseconds when it is quick, so the
  episode polls for at most about twice the parent's recent time to answer (``SPIN_US`` at most), and sleeps
  at once while the parent is slow (an agent that thinks, other workers' steps first, a loaded machine).
- `ReplyWait` (parent side): the episode answers after the game's frames (milliseconds), too long to poll
  through. The parent sleeps until shortly (``LEAD_US``) before the answer is due by the recent steps, then
  polls until a little past it, then sleeps again until the step's timeout. It polls only while this process
  leaves a core free (fewer live workers than cores it may run on): with every core playing a game, a
  polling parent would take time from the games it waits for. A step sent without a recent estimate (after a
  reset, a snapshot, a call) waits asleep.

Both yield the core between polls (`os.sched_yield`), so a process with work to do on the same core goes first.
``PLAYTESTER_SPIN_US=0`` turns both off (every wait sleeps at once, as before).
"""

from __future__ import annotations

import os
import select
import time
from collections import deque

SPIN_US = float(os.environ.get("PLAYTESTER_SPIN_US", "300"))  # the longest poll without sleeping; 0: never
LEAD_US = 150.0  # the parent wakes this long before an answer is due (timer slack and its own wake-up)
CLOCK = time.perf_counter  # the real clock, taken before a game's wall clocks read virtual time (`pygame_driver`)

_live_hosts = 0  # worker hosts alive in this process (`host_started` / `host_ended`)


def host_started() -> None:
    global _live_hosts
    _live_hosts += 1


def host_ended() -> None:
    global _live_hosts
    _live_hosts = max(0, _live_hosts - 1)


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


_CORES = cores()


def spare_core() -> bool:
    """This process's workers leave a core free for the parent to poll on."""
    return _live_hosts < _CORES


def _poll_until(poller: select.poll, deadline: float) -> bool:
    """Poll without sleeping until readable (True) or past ``deadline`` (False), yielding between polls."""
    while True:
        if poller.poll(0):
            return True
        if CLOCK() > deadline:
            return False
        os.sched_yield()


class CommandWait:
    """The episode process's wait for the parent's next command (see the module's doc)."""

    def __init__(self, fd: int, cap_us: float = SPIN_US) -> None:
        self.poller = select.poll()
        self.poller.register(fd, select.POLLIN)
        self.cap = cap_us * 1e-6 if _CORES > 1 else 0.0  # one core: the parent cannot answer while this polls
        self.turn = 0.0  # the parent's recent time to answer (a moving average, seconds)
        self.spun = self.slept = 0  # waits that ended while polling / asleep (for tests and benches)

    def wait(self) -> None:
        """Return once a command can be read (or the connection ended)."""
        t0 = CLOCK()
        if self.cap > 0 and self.turn < self.cap and _poll_until(self.poller, t0 + min(self.cap, 2 * self.turn + 20e-6)):
            self.spun += 1
        else:
            self.poller.poll()
            self.slept += 1
        took = CLOCK() - t0
        self.turn = took if self.turn == 0.0 else 0.8 * self.turn + 0.2 * took


class ReplyWait:
    """The parent's wait for its episode's answer to a step (see the module's doc). `sent` when the step goes
    out; `wait` for its answer.

    The answer is due between the fastest and the slowest tenth of the last ``WINDOW`` steps' times (from
    sending to a readable answer): the parent sleeps until ``lead`` before the fast end and polls until ``cap``
    past the slow end. A game whose steps vary (platformer: 2.6 ms typical, the slowest tenth past 3.5 ms)
    costs it more polling than one whose steps do not; answers that come while it polls are timed exactly,
    and the others count as just early or just late, so one slow step does not move the window."""

    WINDOW = 32

    def __init__(self, fd: int, cap_us: float = SPIN_US, lead_us: float = LEAD_US, enabled: bool = True) -> None:
        self.fd = fd
        self.poller = select.poll()
        self.poller.register(fd, select.POLLIN)
        self.enabled = enabled and cap_us > 0
        self.cap, self.lead = cap_us * 1e-6, lead_us * 1e-6
        self.times: deque[float] = deque(maxlen=self.WINDOW)  # recent steps' time from sending to an answer (s)
        self.lo = self.hi = 0.0  # the fast and slow tenth of ``times`` (0: too few yet)
        self.at: float | None = None  # when the step in flight was sent (None: no step, or one not to estimate)
        self.spun = self.slept = 0  # answers found while polling / after sleeping (for tests and benches)

    def sent(self, step: bool = True) -> None:
        """A command went out; ``step``: one whose answer comes after a step's frames (estimated). The window
        is worked out here, while the game plays the step."""
        self.at = CLOCK() if step else None
        if step and len(self.times) >= 8:
            ordered = sorted(self.times)
            n = len(ordered)
            self.lo, self.hi = ordered[n // 10], ordered[n - 1 - n // 10]

    def wait(self, timeout: float) -> bool:
        """Whether the answer can be read within ``timeout`` seconds (False: it did not come)."""
        at, self.at = self.at, None
        if self.poller.poll(0):  # waiting already (the parent was the slower side): says nothing of when it came
            return True
        t0 = CLOCK()
        if at is not None and self.enabled and self.lo > 0 and spare_core():
            wake = at + self.lo - self.lead
            if wake - t0 > 0 and self._sleep(wake - t0):
                self.slept += 1  # early: it came before we woke (count it as just then)
                self._note(at, wake)
                return True
            if _poll_until(self.poller, max(CLOCK(), at + self.hi) + self.cap):
                self.spun += 1  # timed exactly
                self._note(at, CLOCK())
                return True
        left = timeout - (CLOCK() - t0)
        if not self.poller.poll(max(0, int(left * 1000))):
            return False
        self.slept += 1  # late, or not estimated: the time includes our own wake-up, and a slow step counts
        self._note(at, CLOCK(), most=self.hi + self.cap if self.hi else None)  # as just late
        return True

    def _sleep(self, seconds: float) -> bool:
        """Sleep ``seconds`` (to the microsecond: select(2)) unless the answer comes first; whether it came."""
        if self.fd < 1024:  # select's FD_SETSIZE
            return bool(select.select([self.fd], [], [], seconds)[0])
        return bool(self.poller.poll(int(seconds * 1000)))  # whole milliseconds, rounded down: then poll

    def _note(self, at: float | None, now: float, most: float | None = None) -> None:
        if at is not None:
            self.times.append(now - at if most is None else min(now - at, most))
