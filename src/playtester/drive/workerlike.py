"""`WorkerLike`: the one contract of a worker, what `playtester.env.GameEnv`, the campaign, replay and demonstrations
may use of one. The local `playtester.drive.worker.Worker` (processes of this machine) and
`playtester.drive.ray_worker.RayWorker` (a Ray actor) both implement it; nothing above tells them apart
(`playtester.env.make_worker` chooses one, by the ``backend`` named).

A worker plays one game: one episode at a time, each started by `reset` (or `restore` of a snapshot), stepped by
``act_async`` / ``step_async`` then ``step_wait`` (the blocking ``act`` / ``step`` are the two in one), and, when
acting ahead, by `act_ahead_async`: a batch whose later actions a `Plan` chooses where the game runs, answered
one step at a time by ``step_wait`` while ``ahead`` (each step's action in ``played``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from playtester.drive.inputs import InputFrame
from playtester.drive.observation import Observation
from playtester.drive.spec import GameSpec
from playtester.drive.worker import Plan


@runtime_checkable
class WorkerLike(Protocol):
    """What every worker has and does (see the module's doc)."""

    spec: GameSpec
    space: Any  # the action space ``act`` indexes (None: raw inputs only)
    steps: int  # steps of the running episode
    played: int | None  # the action of the step `step_wait` answered last (None: raw inputs)
    peak_rss_kb: int  # the largest peak resident memory of an episode process of this worker
    final_code_lines: dict[str, list[int]]  # code lines an episode ran after its last report (read at `reset`)
    can_act_ahead: bool  # it plays batches (`act_ahead_async`)

    @property
    def ahead(self) -> bool:
        """The next `step_wait` answers a batch's step that the caller did not send."""
        ...

    @property
    def snapshots_supported(self) -> bool:
        """The game's backend can park a copy of a running episode (`snapshot`)."""
        ...

    # ---- episodes and steps
    def reset(self, seed: int = 0) -> Observation: ...
    def step_async(self, inputs: InputFrame, frames: int | None = None, hold: int | None = None) -> None: ...
    def act_async(self, action: int, frames: int | None = None) -> None: ...
    def act_ahead_async(self, action: int, plan: Plan | None, n: int, frames: int | None = None,
                        chunk: int | None = None) -> None: ...
    def step_wait(self) -> Observation: ...
    def step(self, inputs: InputFrame, frames: int | None = None, hold: int | None = None) -> Observation: ...
    def act(self, action: int, frames: int | None = None) -> Observation: ...
    def step_many(self, steps: Sequence[tuple[InputFrame | int, int | None]]) -> list[Observation]: ...
    def end_episode(self) -> None: ...

    # ---- measured where the game runs
    def watch_states(self, state_key: Callable[[Observation], str | None] | None) -> None: ...
    def unwatched(self) -> AbstractContextManager[None]: ...

    # ---- the game's own code, snapshots, the end
    def call(self, target: str, *args: Any, timeout: float = 60.0) -> Any: ...
    def snapshot(self) -> int | None: ...
    def restore(self, snapshot: int) -> Observation | None: ...
    def drop_snapshot(self, snapshot: int) -> None: ...
    def close(self) -> None: ...

