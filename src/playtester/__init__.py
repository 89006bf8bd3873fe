"""playtester: automated game testing for pygame games and Gymnasium environments."""

__version__ = "0.1.0"
