from .game_config import GameConfig
from .images import Images
from .sounds import Sounds
from .utils import clamp, get_hit_mask, pixel_collision
from .window import Window
