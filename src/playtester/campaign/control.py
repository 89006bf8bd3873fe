"""How an explorer steers its slot's episodes (Go-Explore's return): snapshot the running episode, restore a
snapshot, or replay a trace from its seed. The protocol an explorer sees is
`playtester.agents.common.EpisodeControl`; this is the campaign's side of it."""

from __future__ import annotations

import copy
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playtester.campaign.loop import CampaignLoop, Slot


@dataclass
class Snapshot:
    """A parked copy of an episode (see `Worker.snapshot`) with what the campaign needs to continue it:
    the seed and actions that led there (its trace) and the oracles' state at that step."""

    slot: int
    id: int
    seed: int
    actions: tuple[int, ...]
    suite: Any


class EpisodeControl:
    """One slot's episodes as its explorer may steer them, with the time spent returning."""

    def __init__(self, slot: Slot, loop: CampaignLoop) -> None:
        self._slot, self._loop = slot, loop
        self.slot = slot.index
        worker = slot.env.worker
        self.snapshots = bool(worker is not None and worker.snapshots_supported)
        self._t = {"restore_s": 0.0, "restores": 0, "restore_failed": 0, "replay_s": 0.0, "replays": 0,
                   "replay_steps": 0, "replay_skipped_steps": 0, "snapshot_s": 0.0, "snapshots": 0}

    @property
    def seed(self) -> int:
        return self._slot.seed

    @property
    def actions(self) -> list[int]:
        return self._slot.actions

    def snapshot(self) -> Snapshot | None:
        t0 = time.perf_counter()
        sid = self._slot.env.snapshot() if self.snapshots else None
        if sid is None:
            return None
        self._t["snapshot_s"] += time.perf_counter() - t0
        self._t["snapshots"] += 1
        return Snapshot(self.slot, sid, self._slot.seed, tuple(self._slot.actions), copy.deepcopy(self._slot.suite))

    def restore(self, snap: Snapshot) -> bool:
        if snap.slot != self.slot:
            return False
        t0 = time.perf_counter()
        started = self._slot.env.restore(snap.id)
        if started is None:
            self._t["restore_failed"] += 1
            return False
        slot = self._slot
        self._loop.emit("on_reset", slot)
        slot.obs, slot.info = started
        slot.seed, slot.actions = snap.seed, list(snap.actions)
        slot.suite = copy.deepcopy(snap.suite)
        self._t["restore_s"] += time.perf_counter() - t0
        self._t["restores"] += 1
        return True

    def replay(self, seed: int, actions: list[int] | tuple[int, ...],
               on_done: Callable[[bool], None] | None = None, start: Snapshot | None = None) -> bool:
        t0 = time.perf_counter()
        slot, env = self._slot, self._slot.env
        actions = tuple(actions)
        skip = 0
        if (start is not None and start.seed == seed and actions[:len(start.actions)] == start.actions
                and self.restore(start)):  # a snapshot on the way: replay only the rest
            skip = len(start.actions)
            self._t["replay_skipped_steps"] += skip
        else:
            slot.obs, slot.info = env.reset(seed=seed)
            self._loop.emit("on_reset", slot)
            slot.suite = self._loop.new_suite()
            slot.seed, slot.actions = seed, []
            self._loop.emit("on_replay_step", slot, 0)  # findings on the way were reported when first played
        rest = actions[skip:]
        if on_done is not None and rest:  # played by the campaign's loop, beside the other slots' steps
            slot.replaying, slot.replay_t0, slot.replay_skip = deque(rest), t0, skip
            slot.replayed = lambda ok: self._replayed(ok, on_done)
            return True
        for j, a in enumerate(rest, start=skip):
            slot.obs, _r, term, trunc, slot.info = env.step(a)
            slot.actions.append(a)
            self._loop.emit("on_replay_step", slot, j + 1)
            if (term or trunc) and j < len(actions) - 1:
                return False
        self._t["replay_s"] += time.perf_counter() - t0
        self._t["replays"] += 1
        self._t["replay_steps"] += len(rest)
        if slot.last_obs is not None and slot.last_obs.done:
            return False
        if on_done is not None:
            on_done(True)
        return True

    def _replayed(self, ok: bool, on_done: Callable[[bool], None]) -> None:
        """The end of a replay played by the campaign's loop: count it, tell the explorer."""
        if ok:
            slot = self._slot
            self._t["replay_s"] += time.perf_counter() - slot.replay_t0
            self._t["replays"] += 1
            self._t["replay_steps"] += len(slot.actions) - slot.replay_skip
        on_done(ok)

    def drop(self, snap: Snapshot) -> None:
        self._loop.slots[snap.slot].env.worker.drop_snapshot(snap.id)

    def timings(self) -> dict[str, float]:
        return dict(self._t)
