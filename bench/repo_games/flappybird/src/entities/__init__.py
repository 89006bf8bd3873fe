from .background import Background
from .entity import Entity
from .floor import Floor
from .game_over import GameOver
from .pipe import Pipe, Pipes
from .player import Player, PlayerMode
from .score import Score
from .welcome_message import WelcomeMessage

__all__ = [
    "Background",
    "Floor",
    "Pipe",
    "Pipes",
    "Player",
    "Score",
    "Entity",
    "WelcomeMessage",
]
