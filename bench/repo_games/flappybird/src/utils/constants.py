# list of all possible players (tuple of 3 positions of flap)
PLAYERS = (
    # red bird
    (
        "assets/sprites/redbird-upflap.png",
        "assets/sprites/redbird-midflap.png",
        "assets/sprites/redbird-downflap.png",
    ),
    # blue bird
    (
        "assets/sprites/bluebird-upflap.png",
        "assets/sprites/bluebird-midflap.png",
        "assets/sprites/bluebird-downflap.png",
    ),
    # yellow bird
    (
        "assets/sprites/yellowbird-upflap.png",
        "assets/sprites/yellowbird-midflap.png",
        "assets/sprites/yellowbird-downflap.png",
    ),
)

# list of backgrounds
BACKGROUNDS = (
    "assets/sprites/background-day.png",
    "assets/sprites/background-night.png",
)

# list of pipes
PIPES = (
    "assets/sprites/pipe-green.png",
    "assets/sprites/pipe-red.png",
)
