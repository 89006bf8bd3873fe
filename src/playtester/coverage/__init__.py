"""Coverage measurement: distinct abstract states, player positions, and executed statements.

Everything here works on `Observation`s and plain line sets in the parent process; nothing imports
pygame. See `state` (state coverage with pluggable abstractions), `maps` (position map) and `code`
(statement coverage bookkeeping).
"""

from playtester.coverage.code import CodeCoverage
from playtester.coverage.maps import PositionMap
from playtester.coverage.state import (
    Abstraction,
    EpisodeStates,
    FeatureBuckets,
    PixelCells,
    SceneAbstraction,
    StateCoverage,
    auto_abstraction,
    make_abstraction,
)

__all__ = [
    "Abstraction",
    "CodeCoverage",
    "EpisodeStates",
    "FeatureBuckets",
    "PixelCells",
    "PositionMap",
    "SceneAbstraction",
    "StateCoverage",
    "auto_abstraction",
    "make_abstraction",
]
