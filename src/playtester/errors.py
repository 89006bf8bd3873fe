"""One error hierarchy for playtester. Messages say what was wrong, where, and how to fix it."""

from __future__ import annotations


class PlaytesterError(Exception):
    """Base class of every error playtester raises on purpose."""

    exit_code = 3


class UsageError(PlaytesterError):
    """The user asked for something that cannot be done as asked (exit code 2)."""

    exit_code = 2


class GameSpecError(UsageError):
    """A game spec does not resolve to a runnable game."""


class ConfigError(UsageError):
    """A configuration file (playtester.toml, a manual action space, ...) is invalid."""


class TraceFormatError(ConfigError):
    """A JSON file that is not a trace (another file's fields, actions that are not action numbers)."""


class WorkerError(PlaytesterError):
    """The worker process machinery itself failed (not the game): exit code 3."""


class WorkerLostError(WorkerError):
    """A remote worker (a Ray actor) was lost more times than it may be restarted: its campaign slot is dropped."""


class NoValidActionError(PlaytesterError):
    """An action mask had no valid action: a bug in the action space or the game, to be reported."""


class MemoryLimitError(WorkerError):
    """Work run inside the game's process (the analysis, a hook) ran past the episode's memory limit."""
