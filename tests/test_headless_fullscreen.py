"""Fullscreen on the headless display: SDL's dummy driver cannot toggle fullscreen (pygame.error) and dies natively
in ``set_mode(SCALED)`` after exclusive fullscreen; a game that works on a real display must not crash under
playtester for that (zombie-escape's fullscreen key was reported as a SIGABRT/SIGSEGV crash in every run)."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import GAMES

from playtester.drive.inputs import InputFrame
from playtester.drive.spec import resolve

FIXTURE = GAMES / "fullscreen_toggle.py"


def test_the_dummy_driver_itself_fails_at_what_a_real_display_does():
    """The premise, checked on this machine's pygame: without playtester, the game's own sequence dies natively
    (SIGSEGV or SIGABRT) or deadlocks under the dummy driver within 20 presses (if a later pygame or SDL mends it,
    this test says so and the patch can go)."""
    code = ("import os; os.environ['SDL_VIDEODRIVER']='dummy'; os.environ['SDL_AUDIODRIVER']='dummy'\n"
            "import pygame; from pygame import _sdl2\npygame.init()\n"
            "f = pygame.SCALED | pygame.RESIZABLE\nscreen = pygame.display.set_mode((160, 120), f)\n"
            "for full in [True, False] * 10:  # the fixture's F key pressed 20 times\n"
            "    _sdl2.Window.from_display_module().set_fullscreen(full)\n"
            "    screen = pygame.display.set_mode((160, 120), f)\n"
            "    screen.fill((255, 0, 0)); pygame.display.flip()\n"
            "print('SURVIVED')\n")
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=8,
                             env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    except subprocess.TimeoutExpired:
        return  # it hung (the third way it fails: SIGSEGV, SIGABRT or a deadlock); subprocess.run killed it
    assert "SURVIVED" not in out.stdout and out.returncode < 0, (out.returncode, out.stdout, out.stderr[-500:])


def test_fullscreen_toggles_are_virtual_under_the_headless_display(worker_for):
    w = worker_for(resolve(f"{FIXTURE}:main"))
    obs = w.reset(seed=0)
    assert not obs.done, obs.exit
    # the fixture's F asks for fullscreen, then sets its windowed SCALED mode again (windowed, as on X11 under Xvfb:
    # checked by hand); T toggles
    for key, toggles, full in (("f", 1, 0), ("f", 2, 0), ("t", 3, 1), ("f", 4, 0), ("t", 5, 1)):
        w.step(InputFrame.make(keys=[key]), frames=1)
        obs = w.step(InputFrame(), frames=1)
        assert not obs.done, obs.exit  # no SIGSEGV / SIGABRT, no "That operation is not supported"
        assert obs.features["toggles"] == toggles
        assert obs.features["width"] == 160  # the frames keep their size
        assert obs.features["fullscreen"] == full  # display.is_fullscreen answers the virtual state


WINDOW_SCALE = GAMES / "window_scale.py"


def test_the_dummy_driver_itself_dies_when_a_scaled_window_grows():
    """The premise of the virtual window size, on this machine's pygame: growing a SCALED window through
    ``Window.size`` and setting the mode again, as the fixture's S key does, dies natively (or hangs) under the
    dummy driver within 8 presses; X11 under Xvfb resizes the window (checked by hand). If a later pygame or SDL
    mends it, this test says so and the patch can go."""
    code = ("import os; os.environ['SDL_VIDEODRIVER']='dummy'; os.environ['SDL_AUDIODRIVER']='dummy'\n"
            "import pygame; from pygame import _sdl2\npygame.init()\n"
            "size, f = (160, 120), pygame.SCALED | pygame.RESIZABLE\nscreen = pygame.display.set_mode(size, f)\n"
            "for i in range(8):  # the fixture's S key pressed 8 times\n"
            "    k = (1.5, 2.0, 2.5, 3.0)[i % 4]\n"
            "    screen = pygame.display.set_mode(size, f)\n"
            "    _sdl2.Window.from_display_module().size = (int(160 * k), int(120 * k))\n"
            "    screen.fill((255, 0, 0)); pygame.display.flip()\n"
            "print('SURVIVED')\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    try:
        out, err = p.communicate(timeout=8)
    except subprocess.TimeoutExpired:
        p.kill()  # a deadlock in the corrupted heap ignores SIGTERM: SIGKILL
        p.communicate()
        return
    assert "SURVIVED" not in out and p.returncode < 0, (p.returncode, out, err[-500:])


def test_window_resizes_are_virtual_under_the_headless_display(worker_for):
    w = worker_for(resolve(f"{WINDOW_SCALE}:main"))
    obs = w.reset(seed=0)
    assert not obs.done, obs.exit
    modes: set[float] = set()
    for presses, scale in zip(range(1, 9), (1.5, 2.0, 2.5, 3.0) * 2, strict=True):
        w.step(InputFrame.make(keys=["s"]), frames=1)
        obs = w.step(InputFrame(), frames=1)
        assert not obs.done, obs.exit  # no SIGABRT / SIGSEGV / deadlock
        assert obs.features["presses"] == presses
        assert obs.features["window_width"] == int(160 * scale)  # Window.size answers the size the game set
        assert obs.features["width"] == 160  # the frames keep the mode's size
        assert obs.features["other_width"] == 100 + presses - 1  # each window its own size
        modes.add(obs.features["mode_width"])
    # set_mode sized the window again each time: the size read before the game's resize is the mode's, never the
    # size the game had set before it
    assert len(modes) == 1 and modes.isdisjoint({int(160 * k) for k in (1.5, 2.0, 2.5, 3.0)})
