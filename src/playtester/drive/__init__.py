"""Drive games headless: virtual devices, virtual time, frame stepping, one worker process per game.

Only this package touches pygame at run time.
"""

from playtester.drive.inputs import InputFrame, key_code, key_name
from playtester.drive.observation import GameExit, Observation
from playtester.drive.spec import GameConfig, GameSpec, bundled_games, resolve
from playtester.drive.worker import Worker

__all__ = ["GameConfig", "GameExit", "GameSpec", "InputFrame", "Observation", "Worker", "bundled_games",
           "key_code", "key_name", "resolve"]
