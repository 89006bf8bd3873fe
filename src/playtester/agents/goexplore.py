"""Go-Explore (Ecoffet et al. 2019, "Go-Explore: a New Approach for Hard-Exploration Problems"), phase 1,
as a playtester explorer: remember the states you reached, return to one, explore from it.

- An *archive* maps cells to the best way found to reach them: the episode seed and the actions from
  the start (the trace; shortest for the same score), the score on arrival, and counts.
- Each episode *chooses* a cell with count-based weights (Go-Explore's Eq. in its Section 2.1 / Appendix:
  ``w = sum_a 1 / sqrt(C_a + eps1) + eps2`` over "times chosen", "times chosen since it last led to a
  new cell" and "times seen"), *returns* to it, and *explores* from it with random valid actions,
  repeating the previous action with probability ``repeat_prob`` (unless it left the game's features
  unchanged: a move into a wall is not worth repeating), for ``explore_steps`` steps.
- Return: by restoring a *snapshot* of the worker (a parked fork of the game process, taken when the
  cell was added; `playtester.drive.worker.Worker.snapshot`), else by *replaying the trace* from the
  seed (``Worker.reset(seed)`` then the actions). Both give the same game state (the driver is
  deterministic); the snapshot skips the replay. A worker with no snapshot of the cell restores its
  snapshot of the nearest cell on the way (the longest prefix of the cell's trace, e.g. where the
  exploration that found it set out from) and replays only the rest; the campaign plays replays beside
  the other workers' steps. ``return_mode=replay`` switches snapshots off.
- Cells (``cell``): ``position``, the player's position cell (the game's position source, as the
  position map uses) plus a log2 bucket of the game's reward feature, Go-Explore's "domain knowledge"
  cells; ``pixels``, Go-Explore's downscaled frames (11x8 grayscale, 8 levels) plus the same score
  bucket; with both, the game config's ``cell_features`` (the rest of Go-Explore's domain knowledge:
  keys held, a level, active buffs), each as its integer part, a fixed-size or a log2 bucket, join the key; ``state``, the campaign's state abstraction; ``auto``, position when the game reports one,
  else pixels.
- Choosing the start cell (the root) starts a fresh episode with the campaign's next seed, so new
  seeds keep coming.

Every step, returns included, passes through the campaign's oracles; bugs keep their full traces
(seed plus all actions), which replay and shrink as any other.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from playtester.agents.common import Explorer, Transition, make_config, random_valid
from playtester.coverage.maps import PositionMap
from playtester.coverage.state import PixelCells
from playtester.drive.spec import cell_feature


@dataclass
class GoExploreConfig:
    """Hyper-parameters (defaults: Go-Explore 2019's Atari settings where they apply)."""

    cell: str = "auto"
    """Cell representation: auto, position, pixels or state (see the module docstring)."""
    cell_width: int = 11
    """Pixel cells across (Go-Explore: 11)."""
    cell_height: int = 8
    """Pixel cells down (Go-Explore: 8)."""
    cell_levels: int = 8
    """Intensity levels of a pixel cell (Go-Explore: 8)."""
    explore_steps: int = 100
    """Steps of exploration after each return (Go-Explore: 100)."""
    repeat_prob: float = 0.5
    """Probability of repeating the previous action while exploring. Go-Explore: 0.95 per Atari action
    (4 frames); an action here is held 10 frames and walls stop a repeated move, and on the 21x21 Block
    Maze (30 s, 2 workers) 0.95 found 51 cells and 2 bugs, 0.5 97 cells and 4 bugs, 0 91 cells and 3. On
    seeds 1-3 (bench/settings_check.py, 6,000 steps) 0.5 still covers the most Block Maze states; on the
    41x41 maze 0.95 covers more."""
    eps1: float = 0.001
    """Added to each count in the selection weight (Go-Explore: 0.001)."""
    eps2: float = 0.00001
    """Added to each weight (Go-Explore: 0.00001)."""
    power: float = 0.5
    """Exponent of the counts in the weight (Go-Explore: 0.5)."""
    level_weight: float = 0.1
    """Score priority: a cell's weight is multiplied by ``level_weight ** (top - level)``, where level is
    the cell's score bucket and top the highest bucket in the archive (Go-Explore's domain-knowledge
    runs weight lower levels by 0.1; 1 switches it off)."""
    score_base: float = 2.0
    """Score buckets of a cell: ``floor(log_base(1 + score))``."""
    replay_weight: float = 0.1
    """Weight factor of a cell this worker holds no snapshot of (its return is a slow replay); 1 = off."""
    return_mode: str = "snapshot"
    """snapshot (restore a parked fork when the cell has one, else replay) or replay (always replay)."""
    max_snapshots: int = -1
    """Parked snapshots per worker; past it the least promising cell's snapshot is dropped. -1: as many as
    40% of the memory available at the start holds at ``SNAPSHOT_MB`` each, between 64 and 512 (a
    parked fork of combat measured 5 MB; 512 per worker found all of combat's bugs in 600 s where 128
    found 3). 0: no snapshots."""


@dataclass
class Cell:
    """One archive entry."""

    seed: int
    actions: tuple[int, ...]
    score: float
    chosen: int = 0
    chosen_since_new: int = 0
    seen: int = 0
    snaps: dict[int, Any] = field(default_factory=dict, repr=False)  # worker slot -> a campaign Snapshot


ROOT = "__root__"


def bucket(v: Any, how: float | str | None = None) -> int | None:
    """A cell feature's value as a key part (see `playtester.drive.spec.cell_feature`): its floor, the floor
    of ``v / how`` for a step ``how``, or for ``"log2"`` ``ceil(log2(1 + |v|))`` with ``v``'s sign; None when
    missing or not a finite number."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(f):
        return None
    if how == "log2":
        return int(math.copysign(math.ceil(math.log2(1 + abs(f))), f)) if f else 0
    return math.floor(f / how) if how else math.floor(f)


SNAPSHOT_MB = 8.0  # what one parked snapshot is budgeted at (combat's measured 5 MB, with room)


def auto_snapshot_cap(workers: int, avail_mb: float | None = None) -> int:
    """Snapshots per worker for ``max_snapshots=-1``: 40% of the available memory at ``SNAPSHOT_MB`` each
    (about a quarter at the 5 MB measured), shared by the workers, kept within [64, 512]; 128 where the
    memory is unknown."""
    if avail_mb is None:
        try:
            import psutil

            avail_mb = psutil.virtual_memory().available / 2**20
        except (ImportError, OSError):
            return 128
    return int(min(512, max(64, avail_mb * 0.4 / SNAPSHOT_MB / max(1, workers))))


class GoExploreAgent(Explorer):
    """Go-Explore's exploration phase with snapshot or trace-replay returns."""

    name = "goexplore"

    def __init__(self, n_actions: int, seed: int = 0, workers: int = 1, **overrides: Any) -> None:
        super().__init__(n_actions, seed, workers)
        self.cfg: GoExploreConfig = make_config(GoExploreConfig, overrides)
        if self.cfg.cell not in ("auto", "position", "pixels", "state"):
            from playtester.errors import UsageError

            raise UsageError(f"goexplore: cell must be auto, position, pixels or state, not {self.cfg.cell!r}")
        self.archive: dict[Any, Cell] = {}
        self.root_chosen = 0
        self.pixels = PixelCells(self.cfg.cell_width, self.cfg.cell_height, self.cfg.cell_levels)
        self.positions: PositionMap | None = None
        self.extras: list[tuple[str, float | str | None]] = []  # the cell features and their buckets
        cap = self.cfg.max_snapshots
        self.snapshot_cap = auto_snapshot_cap(workers) if cap < 0 else cap
        self.mode: str | None = None  # the resolved cell representation
        self.chosen: dict[int, Any] = {}  # slot -> the cell key its episode returned to
        self.score: dict[int, float] = {}  # slot -> score since the episode's start
        self.explored: dict[int, int] = {}  # slot -> exploration steps in this episode
        self.last_action: dict[int, int] = {}
        self.last_features: dict[int, Any] = {}  # slot -> the game's features after its last step
        self.returns = {"root": 0, "snapshot": 0, "replay": 0, "replay_failed": 0, "via_snapshot": 0}
        self.held: dict[int, set[Any]] = {}  # slot -> keys of the cells it holds a snapshot of
        self._key_of: dict[int, Any] = {}  # id(cell) -> its key
        self.new_cells = 0
        self.top_level = 0  # the highest score bucket in the archive

    # ---- cells
    def setup(self, info: Any) -> None:
        super().setup(info)
        self.positions = PositionMap(info.position_cell, info.position)
        self.extras = [cell_feature(f) for f in info.cell_features]

    def cell_key(self, t: Transition) -> Any:
        obs = t.game_obs
        if self.mode is None:
            want = self.cfg.cell
            if want == "auto":
                has_pos = self.positions is not None and obs is not None and self.positions.position(obs) is not None
                want = "position" if has_pos else "pixels"
            self.mode = want
        if self.mode == "state":
            return t.key
        if obs is None:
            return None
        score = obs.features.get(self.info.reward_feature, 0.0) if self.info.reward_feature else 0.0
        level = self.level(score)
        extra = tuple(bucket(obs.features.get(f), how) for f, how in self.extras)
        if self.mode == "position":
            pos = self.positions.position(obs) if self.positions else None
            if pos is None or not all(math.isfinite(v) for v in pos):
                return None
            c = self.positions.cell if self.positions else 1.0
            return (math.floor(pos[0] / c), math.floor(pos[1] / c), level, *extra)
        key = self.pixels.key(obs)
        return None if key is None else (key, level, *extra)

    def level(self, score: float) -> int:
        """The score bucket of a cell."""
        return int(math.log(1 + max(0.0, score), self.cfg.score_base)) if math.isfinite(score) else -1

    def weight(self, cell: Cell) -> float:
        c = self.cfg
        w = sum(1.0 / (n + c.eps1) ** c.power for n in (cell.chosen, cell.chosen_since_new, cell.seen)) + c.eps2
        if c.level_weight != 1.0:
            w *= c.level_weight ** (self.top_level - self.level(cell.score))
        return w

    def selection_weights(self, slot: int, keys: list[Any]) -> np.ndarray:
        """Weights of choosing each cell of ``keys`` and, last, the root (a fresh episode), for ``slot``:
        a cell this slot holds no snapshot of costs a replay to return to, so it weighs ``replay_weight``
        times less."""
        c = self.cfg
        snapped = self.held.get(slot, set()) if c.return_mode == "snapshot" else set(keys)
        cells = [self.weight(self.archive[k]) * (1.0 if k in snapped else c.replay_weight) for k in keys]
        root = 3.0 / (self.root_chosen + c.eps1) ** c.power
        return np.array(cells + [root])

    # ---- episodes
    def episode_start(self, slot: int) -> bool:
        ctl = self.ctl.get(slot)
        self.explored[slot] = 0
        self.last_action.pop(slot, None)
        self.last_features.pop(slot, None)
        self.chosen[slot] = ROOT
        self.score[slot] = 0.0
        if ctl is None or not self.archive:
            self.returns["root"] += 1
            return False
        keys = list(self.archive)
        weights = self.selection_weights(slot, keys)
        pick = int(self.rng.choice(len(weights), p=weights / weights.sum()))
        if pick == len(keys):
            self.root_chosen += 1
            self.returns["root"] += 1
            return False
        key = keys[pick]
        cell = self.archive[key]
        cell.chosen += 1
        cell.chosen_since_new += 1
        self.chosen[slot] = key
        self.score[slot] = cell.score
        snap = cell.snaps.get(slot) if self.cfg.return_mode == "snapshot" else None
        if snap is not None:
            if ctl.restore(snap):
                self.returns["snapshot"] += 1
                return True
            del cell.snaps[slot]
            self.held.get(slot, set()).discard(key)
        trace = (cell.seed, cell.actions)

        def arrived(ok: bool) -> None:
            if not ok:  # the campaign starts the slot afresh (episode_start again)
                self.returns["replay_failed"] += 1
                return
            self.returns["replay"] += 1
            if (cell.seed, cell.actions) == trace:  # not improved by another slot meanwhile
                self._snapshot(slot, cell)  # this worker can restore it next time

        # from this worker's nearest snapshot on the way, played by the campaign's loop beside the other
        # workers' steps
        start = self._nearest_snapshot(slot, cell) if self.cfg.return_mode == "snapshot" else None
        if start is not None:
            self.returns["via_snapshot"] += 1
        if ctl.replay(cell.seed, cell.actions, on_done=arrived, start=start):
            return True
        self.returns["replay_failed"] += 1
        self.chosen[slot] = ROOT
        self.score[slot] = 0.0
        return False

    def _nearest_snapshot(self, slot: int, cell: Cell) -> Any | None:
        """This worker's snapshot whose trace is the longest prefix of ``cell``'s (a cell on the way there:
        the one its explorer set out from, or an ancestor of it), or None."""
        best, best_n = None, 0
        for k in self.held.get(slot, ()):
            snap = self.archive[k].snaps.get(slot)
            m = len(snap.actions) if snap is not None else 0
            if best_n < m <= len(cell.actions) and snap.seed == cell.seed and cell.actions[:m] == snap.actions:
                best, best_n = snap, m
        return best

    def act(self, obs: Any, info: dict[str, Any], slot: int = 0) -> int:
        mask = info.get("action_mask")
        last = self.last_action.get(slot)
        if last is not None and (mask is None or mask[last]) and self.rng.random() < self.cfg.repeat_prob:
            return last
        a = random_valid(self.rng, mask, self.n_actions)
        self.last_action[slot] = a
        return a

    def observe(self, slot: int, t: Transition) -> bool:
        self.score[slot] = self.score.get(slot, 0.0) + float(t.reward)
        self.explored[slot] = self.explored.get(slot, 0) + 1
        features = t.game_obs.features if t.game_obs is not None else None
        if features and features == self.last_features.get(slot):
            self.last_action.pop(slot, None)  # it changed nothing (a move into a wall): not worth repeating
        self.last_features[slot] = features
        if t.terminated or t.truncated:
            return False  # a game that ended, or hit its step limit, is no place to explore from
        key = self.cell_key(t)
        if key is not None:
            ctl = self.ctl.get(slot)
            score, actions = self.score[slot], tuple(ctl.actions) if ctl else ()
            seed = ctl.seed if ctl else 0
            cell = self.archive.get(key)
            if cell is None:
                cell = self.archive[key] = Cell(seed, actions, score)
                self.top_level = max(self.top_level, self.level(score))
                self._key_of[id(cell)] = key
                self.new_cells += 1
                source = self.archive.get(self.chosen.get(slot, ROOT))
                if source is not None:
                    source.chosen_since_new = 0
                self._snapshot(slot, cell)
            elif score > cell.score or (score == cell.score and len(actions) < len(cell.actions)):
                cell.seed, cell.actions, cell.score = seed, actions, score
                self.top_level = max(self.top_level, self.level(score))
                for holder, old in cell.snaps.items():
                    if ctl is not None:
                        ctl.drop(old)
                    self.held.get(holder, set()).discard(key)
                cell.snaps = {}
                self._snapshot(slot, cell)
            cell.seen += 1
        return self.explored[slot] >= self.cfg.explore_steps

    def _snapshot(self, slot: int, cell: Cell) -> None:
        ctl = self.ctl.get(slot)
        if self.cfg.return_mode != "snapshot" or ctl is None or not ctl.snapshots or self.snapshot_cap <= 0:
            return
        mine = self.held.setdefault(slot, set())
        if len(mine) >= self.snapshot_cap:
            worst_key = min(mine, key=lambda k: self.weight(self.archive[k]))
            worst = self.archive[worst_key]
            if self.weight(worst) > self.weight(cell):
                return
            ctl.drop(worst.snaps.pop(slot))
            mine.discard(worst_key)
        snap = ctl.snapshot()
        if snap is not None:
            cell.snaps[slot] = snap
            mine.add(self._key_of[id(cell)])

    # ---- resume and stats
    def state(self) -> dict[str, Any]:
        cells = [(k, c.seed, c.actions, c.score, c.chosen, c.chosen_since_new, c.seen) for k, c in self.archive.items()]
        return {"cells": cells, "root_chosen": self.root_chosen, "mode": self.mode, "returns": dict(self.returns),
                "new_cells": self.new_cells, "config": asdict(self.cfg)}

    def set_state(self, state: dict[str, Any]) -> None:
        self.archive = {k: Cell(seed, tuple(actions), score, ch, chn, seen)  # snapshots do not survive a restart
                        for k, seed, actions, score, ch, chn, seen in state["cells"]}
        self._key_of = {id(c): k for k, c in self.archive.items()}
        self.root_chosen, self.mode = state["root_chosen"], state["mode"]
        self.returns.update(state["returns"])
        self.new_cells = state["new_cells"]
        self.top_level = max((self.level(c.score) for c in self.archive.values()), default=0)

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cells": len(self.archive), "returns": dict(self.returns),
                               "snapshots": sum(len(c.snaps) for c in self.archive.values()),
                               "snapshot_cap": self.snapshot_cap,
                               "deepest": max((len(c.actions) for c in self.archive.values()), default=0),
                               "best_score": max((c.score for c in self.archive.values()), default=0.0)}
        t: dict[str, float] = {}
        for ctl in self.ctl.values():
            for k, v in ctl.timings().items():
                t[k] = t.get(k, 0) + v
        if t.get("restores"):
            out["restore_ms"] = 1000 * t["restore_s"] / t["restores"]
        if t.get("replays"):
            out["replay_ms"] = 1000 * t["replay_s"] / t["replays"]
            out["replay_steps_mean"] = t["replay_steps"] / t["replays"]
        if t.get("snapshots"):
            out["snapshot_ms"] = 1000 * t["snapshot_s"] / t["snapshots"]
        out["timings"] = t
        return out
