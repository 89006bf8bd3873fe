"""The stuck oracle's screen test on waiting screens: no false alarm where a game legitimately waits, an
alarm where it really freezes.

The games (tests/fixtures/games/) have no probe, so the oracle has only the screen. Each is driven through a
real worker by a seeded random player over an action set like the analyzed space's (the keys the game
reads, a key nothing reads, sometimes nothing), ``FRAMES`` frames a step, with both criteria: ``effects``
(today's) must stay quiet on the waiting screens, and Wuji's ``window`` must fire there, which shows the screen
did stay frozen for a whole window while different inputs kept arriving. The rule these tests pin down is in
the docstring of ``playtester.oracles.stuck`` (an input is credited with changing the screen only when the
change is its doing).
"""

from __future__ import annotations

import random

import pytest
from conftest import fixture_spec

from playtester.drive.inputs import InputFrame
from playtester.oracles import make_oracles

NONE = InputFrame()
FRAMES = 5  # frames a step: a fast agent (the explorers hold an action 10)
N = 12  # stuck_steps: 60 frames, two seconds of a still screen
ARROWS = ["UP", "DOWN", "LEFT", "RIGHT"]


def keys(*names: str) -> InputFrame:
    return InputFrame.make(keys=list(names))


def click(x: int, y: int) -> InputFrame:
    return InputFrame.make(mouse=(x, y), buttons=["left"])


class Run:
    """A worker whose every step goes through the stuck oracle with both criteria."""

    def __init__(self, worker_for, name: str, seed: int = 0, capture=(48, 48), **game_args) -> None:
        spec = fixture_spec(name, oracles={"stuck_steps": N, "enabled": ["stuck"]}, frames_per_action=FRAMES,
                            **({"game_args": game_args} if game_args else {}))
        self.w = worker_for(spec, capture=capture)
        self.rng = random.Random(seed)
        self.suites = {c: make_oracles(dict(spec.config.oracles) | {"stuck_criterion": c}) for c in ("effects", "window")}
        self.found: dict[str, list] = {c: [] for c in self.suites}
        self.n, self.frozen, self.longest = 0, 0, 0
        self.obs = self.w.reset(seed=seed)
        for c, s in self.suites.items():
            s.reset()
            self.found[c] += s.check(self.obs, 0)

    def step(self, inputs: InputFrame) -> None:
        before = self.obs.frame
        self.n += 1
        self.obs = self.w.step(inputs)
        assert not self.obs.done
        self.frozen = self.frozen + 1 if (before == self.obs.frame).all() else 0
        self.longest = max(self.longest, self.frozen)
        for c, s in self.suites.items():
            self.found[c] += [f for f in s.check(self.obs, self.n) if f.kind == "stuck"]

    def play(self, actions: list[InputFrame], steps: int) -> None:
        for _ in range(steps):
            self.step(self.rng.choice(actions))

    def stuck(self, criterion: str = "effects") -> list:
        return self.found[criterion]


# --- waiting screens: no alarm --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_title_that_waits_for_enter_after_its_intro_is_not_stuck(worker_for, seed):
    """The intro's band sweeps across for 18 steps whatever is pressed, so every key the player tried then
    was held while the screen changed; then the title waits, still, for ENTER, which this player never
    presses. The screen moved by itself (it changed at steps where nothing was held): no key is credited."""
    run = Run(worker_for, "wait_title", seed)
    run.play([keys(k) for k in ARROWS] + [keys("a"), keys("SPACE"), NONE], 6 * N)
    assert run.longest >= 3 * N, "the title sat still for three windows"
    assert run.stuck("window"), "inputs kept arriving at a frozen screen (Wuji's test fires)"
    assert run.stuck() == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_board_that_waits_for_clicks_and_then_for_r_is_not_stuck(worker_for, seed):
    """Tic-tac-toe: a click on an empty cell changes the board once, a second click there changes nothing,
    arrows never do anything, and the computer's answer comes a few frames after the click, at whatever
    input arrives next. When the game ends, the board waits for R, which this player never presses: a
    one-shot click is not an input known to change the screen, nor is a key the answer happened to meet."""
    run = Run(worker_for, "click_board", seed, capture=(48, 48))
    cells = [click(20 + 40 * (i % 3), 20 + 40 * (i // 3)) for i in range(9)]
    run.play(cells + [keys(k) for k in ARROWS] + [keys("a"), NONE], 8 * N)
    assert run.longest >= 2 * N, "the finished board sat still"
    assert run.stuck("window")
    assert run.stuck() == []


def test_a_board_played_again_and_again_is_not_stuck(worker_for):
    """The same board with R in the action set: games end and start again without a scene cut (the marks are
    a small part of the screen), so the same cells change the screen once per game."""
    cells = [click(20 + 40 * (i % 3), 20 + 40 * (i // 3)) for i in range(9)]
    for seed in range(3):
        run = Run(worker_for, "click_board", seed, capture=(48, 48))
        run.play(cells + [keys(k) for k in ARROWS] + [keys("a"), NONE, keys("r")], 20 * N)
        assert run.stuck() == [], seed


@pytest.mark.parametrize("seed", [0, 1])
def test_a_paused_pong_is_not_stuck(worker_for, seed):
    """The ball moves by itself from the first frame, so the screen changes at every step whatever is held;
    P pauses (a small box, no new screen) and the paddle keys do nothing until P again."""
    run = Run(worker_for, "paddle_pause", seed)
    play = [keys("UP"), keys("DOWN"), keys("a"), NONE]
    run.play(play, 3 * N)
    run.step(keys("p"))
    run.play(play, 4 * N)
    assert run.longest >= 3 * N
    assert run.stuck("window")
    assert run.stuck() == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_end_screen_after_a_death_animation_is_not_stuck(worker_for, seed):
    """The arrows moved the ship (at steps where nothing else moved), then the ship hits the mine: the
    explosion changes the screen at every step, at whatever the player presses, and the GAME OVER banner
    (a small part of the screen) waits for R, which this player never presses."""
    run = Run(worker_for, "death_screen", seed)
    play = [keys(k) for k in ARROWS] + [keys("a"), keys("SPACE"), NONE]
    run.play(play, 2 * N)
    for _ in range(80):  # steer into the mine
        x, y = _ship(run)
        if x is None:
            break
        run.step(keys("DOWN" if y < 54 else "UP" if y > 66 else "RIGHT" if x < 130 else "LEFT"))
    assert _ship(run)[0] is None, "the ship hit the mine"
    run.play(play, 5 * N)
    assert run.longest >= 3 * N
    assert run.stuck("window")
    assert run.stuck() == []


def _ship(run: Run):
    """Where the yellow ship is on the captured screen (in game pixels), or (None, None) once it is gone."""
    import numpy as np

    f = run.obs.frame
    ys, xs = np.nonzero((f[..., 0] > 200) & (f[..., 1] > 200) & (f[..., 2] < 50))
    if len(xs) == 0:
        return None, None
    return float(xs.mean()) * 160 / f.shape[1], float(ys.mean()) * 120 / f.shape[0]


# --- real freezes: an alarm -----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_game_that_freezes_while_reading_input_is_stuck(worker_for, seed):
    """The banner slides in by itself (nothing is credited then), the arrows move the square on a still field,
    at steps where nothing held left it still; then the game stops updating and drawing but keeps reading
    input, and the same player's arrows keep arriving: stuck, once, on the screen."""
    run = Run(worker_for, "freeze_later", seed, freeze_at=60 * FRAMES)
    run.play([keys(k) for k in ARROWS] + [keys("a"), keys("SPACE"), NONE], 60 + 3 * N)
    [f] = run.stuck()
    assert f.signature.startswith("stuck:screen:") and f.details["inputs"] >= 3
    assert 60 + N <= f.step <= 60 + 3 * N


def test_a_game_frozen_while_only_arrows_arrive_is_stuck(worker_for):
    """No step with nothing held, no key that does nothing: only arrows, each changing the screen at its every
    arrival. With no sign that the screen moves by itself, the changes are the arrows'."""
    run = Run(worker_for, "freeze_later", 3, freeze_at=40 * FRAMES, intro=0)
    run.play([keys(k) for k in ARROWS], 40 + 3 * N)
    assert [f.kind for f in run.stuck()] == ["stuck"]


@pytest.mark.parametrize("sign", [None, "nothing held", "a dud"])
def test_inputs_that_changed_a_still_screen_then_stop_are_stuck_unless_it_moved_by_itself(sign):
    """The rule, replayed without a game: the arrows changed a still screen at each of their arrivals, then
    the screen freezes while they keep arriving: stuck. The same trace where, before the arrows, the screen
    changed at a step with nothing held, or with a key known to do nothing (it arrived on a still screen and
    left it still), is not: the screen moves by itself, so its changes under the arrows are not theirs."""
    import numpy as np

    from playtester.drive.observation import Observation
    from playtester.oracles.stuck import StuckOracle

    oracle = StuckOracle(8)
    frame, found, step = np.zeros((4, 4, 3), np.uint8), [], 0

    def see(inputs: InputFrame, change: bool) -> None:
        nonlocal frame, step
        if change:
            frame = frame.copy()
            frame[0, step % 4, 0] += 1  # a small change: no scene cut
        step += 1
        found.extend(oracle.check(Observation(frame=frame, features={}, info={"held": inputs}), step))

    see(NONE, False)
    see(keys("a"), False)  # "a" does nothing on a still screen
    if sign is not None:
        see(NONE if sign == "nothing held" else keys("a"), True)
    for k in ARROWS * 3:
        see(keys(k), True)
    see(NONE, False)
    for k in ARROWS * 4:
        see(keys(k), False)
    assert [f.kind for f in found] == ([] if sign else ["stuck"])
    if not sign:
        assert found[0].signature.startswith("stuck:screen:") and found[0].details["inputs"] == 4


def test_a_frozen_screen_found_by_a_campaign_replays_and_shrinks(tmp_path):
    """The trace keeps the frames the oracles watched (the campaign's capture): replaying it shows them the
    same frames, so a screen-only finding reproduces, and ddmin can shrink it (without frames it never
    fired again: every such bug of the real-game corpus was 'not reproduced')."""
    from playtester.actions.manual import load_manual
    from playtester.campaign import CAPTURE, Budget, explore
    from playtester.replay import minimize_bug, replay_bug

    spec = fixture_spec("freeze_later", oracles={"stuck_steps": N, "enabled": ["stuck"]},
                        game_args={"freeze_at": 40 * 10, "intro": 0})
    (tmp_path / "arrows.yaml").write_text("version: 1\nactions:\n" + "".join(
        f"  - name: {k.lower()}\n    keys: [{k}]\n" for k in ARROWS))
    space = load_manual(tmp_path / "arrows.yaml")
    r = explore(spec, out=tmp_path / "out", agent="random", budget=Budget(steps=40 + 3 * N), seed=0, actions=space,
                code_coverage=False, replay_known=False, finalize=False)
    try:
        [bug] = [r.store.bug(b) for b in r.new_bugs]
        assert bug.signature.startswith("stuck:screen:")
        assert bug.trace.capture == list(CAPTURE)
        assert replay_bug(bug).reproduced
        shrunk = minimize_bug(bug, max_seconds=60)
        assert shrunk.reproduced and len(shrunk.trace.actions) <= len(bug.trace.actions)
    finally:
        r.store.close()
