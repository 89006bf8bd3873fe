"""What the driver asks of an action space, and what a space may look at in the worker.

The driver (this package) runs an action space in the episode process without knowing its kind: it calls
``mask(ctx)`` each step and ``perform(index, ctx)`` for the chosen action. The spaces themselves live a
layer up (`playtester.actions`, `playtester.analysis`), so the protocol and the context are defined here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from playtester.drive.inputs import InputFrame


@dataclass
class ActionContext:
    """What an action space may look at in the worker when masking or performing.

    Attributes:
        held: the inputs held during the previous step.
        features: the latest probe features.
        screen_size: (width, height) of the game window, (0, 0) before it opened.
        rng: a random generator seeded per episode, separate from the game's own ``random``.
        game: a handle on the live game (used by analyzed spaces); None in the parent.
    """

    held: InputFrame = field(default_factory=InputFrame)
    features: dict[str, float] = field(default_factory=dict)
    screen_size: tuple[int, int] = (0, 0)
    rng: random.Random = field(default_factory=random.Random)
    game: Any = None


class SpaceLike(Protocol):
    """An action space as the driver uses it (`playtester.actions.space.ActionSpace` and its kinds)."""

    actions: list[Any]

    def __len__(self) -> int: ...

    def mask(self, ctx: ActionContext) -> np.ndarray: ...

    def perform(self, index: int, ctx: ActionContext) -> tuple[InputFrame, int | None]: ...
