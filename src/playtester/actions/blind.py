"""The *blind* action space of the action-space paper (000_*.txt, Section 4.2).

"An action for pressing down and an action for releasing 66 commonly used keys on the keyboard and
the three mouse buttons, as well as 16 actions for moving the mouse cursor within cells on a 4x4 grid
on the screen." Blacklisted keys (quit, pause, fullscreen) are left out.
"""

from __future__ import annotations

import string
from collections.abc import Iterable

from playtester.actions.space import Action, ActionSpace, filter_blacklist
from playtester.drive.inputs import InputFrame, key_code

COMMON_KEYS: list[str] = (
    list(string.ascii_lowercase)
    + list(string.digits)
    + ["UP", "DOWN", "LEFT", "RIGHT", "SPACE", "RETURN", "ESCAPE", "TAB", "BACKSPACE",
       "LSHIFT", "RSHIFT", "LCTRL", "RCTRL", "LALT", "RALT"]
    + [f"F{i}" for i in range(1, 13)]
    + ["MINUS", "EQUALS", "PERIOD"]
)
assert len(COMMON_KEYS) == 66
MOUSE_BUTTONS = {1: "left", 2: "middle", 3: "right"}
GRID = 4


def blind_space(blacklist: Iterable[str] = (), keys: Iterable[str] | None = None, mouse: bool = True) -> ActionSpace:
    """Press and release for 66 keys and 3 mouse buttons, and 16 mouse moves over a 4x4 grid. ``keys``: other
    key names instead of the 66 (the keys a game's code names); ``mouse=False``: no mouse actions."""
    actions: list[Action] = []
    for name in (COMMON_KEYS if keys is None else keys):
        code = key_code(name)
        actions.append(Action(f"press {name}", InputFrame(keys=frozenset({code})), mode="press"))
        actions.append(Action(f"release {name}", InputFrame(keys=frozenset({code})), mode="release"))
    for button, name in (MOUSE_BUTTONS.items() if mouse else ()):
        actions.append(Action(f"press mouse {name}", InputFrame(mouse_buttons=frozenset({button})), mode="press"))
        actions.append(Action(f"release mouse {name}", InputFrame(mouse_buttons=frozenset({button})),
                              mode="release"))
    for row in range(GRID if mouse else 0):
        for col in range(GRID):
            actions.append(Action(f"mouse to cell {col},{row}", mode="move", cell=(col, row, GRID)))
    banned = frozenset(key_code(k) for k in blacklist)
    kept, warnings = filter_blacklist(actions, banned, "blind")
    return ActionSpace("blind", kept, warnings=[w for w in warnings if "blacklisted" not in w])
