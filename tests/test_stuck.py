"""The stuck oracle on real games: a wall or a dead end is not stuck, a game that ignores its inputs is.

Each test drives a bundled game in a real worker and runs the game's own oracle settings over every
step, once with the default criterion (``effects``) and, where it shows what changed, once with Wuji's
original one (``window``), which raised these false alarms.
"""

from __future__ import annotations

from collections import deque

from playtester.drive.inputs import InputFrame
from playtester.drive.spec import resolve
from playtester.oracles import make_oracles, oracle_settings

NONE = InputFrame()
MOVES = {"RIGHT": (1, 0), "LEFT": (-1, 0), "DOWN": (0, 1), "UP": (0, -1)}


def keys(*names: str) -> InputFrame:
    return InputFrame.make(keys=list(names))


def hook(w, name, *args):
    status, value = w.call("playtester.plans.hooks:call_hook", name, *args)
    assert status == "ok", value
    return value


class Watched:
    """A worker whose every step goes through two oracle suites: today's criterion and Wuji's."""

    def __init__(self, w, spec, seed: int = 0) -> None:
        self.w = w
        self.suites = {c: make_oracles(dict(spec.config.oracles) | {"stuck_criterion": c})
                       for c in ("effects", "window")}
        self.found = {c: [] for c in self.suites}
        self.n = 0
        self.obs = w.reset(seed=seed)
        for c, s in self.suites.items():
            s.reset()
            self.found[c] += s.check(self.obs, 0)

    def step(self, inputs: InputFrame, frames: int | None = None):
        self.n += 1
        self.obs = self.w.step(inputs, frames)
        for c, s in self.suites.items():
            self.found[c] += [f for f in s.check(self.obs, self.n) if f.kind == "stuck"]
        assert not self.obs.done
        return self.obs

    def stuck(self, criterion: str = "effects"):
        return [f for f in self.found[criterion] if f.kind == "stuck"]


# --- Block Maze: a dead end -------------------------------------------------------------------------------
def _dead_end_route(grid, start, goal):
    """A dead end reachable from ``start`` (not the goal) and the path to it, by breadth-first search."""
    def free(c):
        return 0 <= c[1] < len(grid) and 0 <= c[0] < len(grid[0]) and grid[c[1]][c[0]]

    parent = {start: None}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        for dx, dy in MOVES.values():
            n = (c[0] + dx, c[1] + dy)
            if free(n) and n not in parent and n != goal:
                parent[n] = c
                queue.append(n)
    ends = [c for c in parent if c != start and sum(free((c[0] + dx, c[1] + dy)) for dx, dy in MOVES.values()) == 1]
    end = max(ends, key=lambda c: (abs(c[0] - start[0]) + abs(c[1] - start[1]), c))
    path = [end]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    return path[::-1], free


def test_a_blockmaze_dead_end_is_not_stuck(worker_for):
    spec = resolve("blockmaze")
    w = worker_for(spec, capture=(48, 48))
    run = Watched(w, spec)
    grid = hook(w, "walkable")
    start = (int(run.obs.features["x"]), int(run.obs.features["y"]))
    path, free = _dead_end_route(grid, start, (len(grid) - 2, len(grid) - 2))
    learned = set()

    def move(key):
        before = (run.obs.features["x"], run.obs.features["y"])
        run.step(keys(key), frames=4)  # one cell: the key goes down, released before it repeats
        run.step(NONE, frames=1)
        return (run.obs.features["x"], run.obs.features["y"]) != before

    # walk to the dead end; on the way, step aside and back wherever that teaches a direction not walked yet
    for here, there in zip(path, path[1:], strict=False):
        for key, (dx, dy) in MOVES.items():
            back = {"RIGHT": "LEFT", "LEFT": "RIGHT", "UP": "DOWN", "DOWN": "UP"}[key]
            side = (here[0] + dx, here[1] + dy)
            if key not in learned and free(side) and side != there:
                assert move(key) and move(back)
                learned |= {key, back}
        key = next(k for k, d in MOVES.items() if (here[0] + d[0], here[1] + d[1]) == there)
        assert move(key)
        learned.add(key)
    assert learned == set(MOVES), "the route walked every direction"
    end = path[-1]
    blocked = [k for k, (dx, dy) in MOVES.items() if not free((end[0] + dx, end[1] + dy))]
    assert len(blocked) == 3
    # keep pressing every key that points into a wall, and waiting, for three windows
    presses = [keys(k) for k in blocked] + [NONE]
    for i in range(3 * oracle_settings(spec).stuck_steps):
        run.step(presses[i % len(presses)])
    assert (run.obs.features["x"], run.obs.features["y"]) == end
    assert run.stuck() == []
    assert run.stuck("window"), "Wuji's criterion calls this dead end stuck"


# --- combat ------------------------------------------------------------------------------------------------
def test_a_combat_corner_at_full_mana_is_not_stuck(worker_for):
    """The hero walks every way and fires a bolt, then stands in the top-left corner at full mana pressing
    the keys that point into it and a strike: nothing moves, as the player chose."""
    spec = resolve("combat")
    w = worker_for(spec, capture=(48, 48))
    run = Watched(w, spec)
    run.step(keys("2"))  # a bolt: mana falls, and refills while walking
    for k in ("RIGHT", "DOWN", "LEFT", "UP", "RIGHT", "DOWN", "LEFT", "UP"):
        run.step(keys(k), frames=8)
    while run.obs.features["hero_x"] > 16 or run.obs.features["hero_y"] > 16:
        run.step(keys("UP", "LEFT"))
    while run.obs.features["mana"] < 100:
        run.step(keys("UP"))
    corner = [keys("UP"), keys("LEFT"), keys("UP", "LEFT"), keys("1"), NONE]
    for i in range(40):
        run.step(corner[i % len(corner)])
    f = run.obs.features
    assert (f["hero_x"], f["hero_y"], f["mana"]) == (16, 16, 100)
    assert run.stuck() == []
    assert run.stuck("window"), "Wuji's criterion calls this corner stuck"


def test_the_weakened_corner_charge_is_still_stuck(worker_for):
    """Injected bug 3: a weakened charge wedged in a corner never ends; every input is ignored."""
    spec = resolve("combat").with_config(game_args={"start_phase": 2})
    w = worker_for(spec, capture=(48, 48))
    run = Watched(w, spec)
    space = [keys(*ks) for ks in (["UP"], ["DOWN"], ["LEFT"], ["RIGHT"], ["1"], ["2"], ["3"], ["UP", "LEFT"],
                                  ["DOWN", "RIGHT"], ["RIGHT", "4"])]
    # play: every input above moves the hero or its mana
    for inputs in space:
        run.step(inputs)
    # keep away from the boss until its curse lands (weakness: bit 5 of buff_mask)
    weak = 1 << 5
    for _ in range(200):
        if int(run.obs.features["buff_mask"]) & weak:
            break
        hero, boss = run.obs.entities["hero"].pos, run.obs.entities["boss"].pos
        if abs(hero[0] - boss[0]) + abs(hero[1] - boss[1]) < 200:
            hook(w, "teleport", 624 if boss[0] < 320 else 16, 384 if boss[1] < 200 else 16)
        run.step(NONE)
    assert int(run.obs.features["buff_mask"]) & weak
    boss = run.obs.entities["boss"].pos
    cx, cy = (624, "RIGHT") if boss[0] < 320 else (16, "LEFT"), (384, "DOWN") if boss[1] < 200 else (16, "UP")
    hook(w, "teleport", cx[0], cy[0])
    run.step(NONE, frames=1)
    run.step(keys(cx[1], cy[1], "4"), frames=2)  # charge diagonally into the corner
    assert run.obs.entities["hero"].attrs["charging"]
    for i in range(2 * oracle_settings(spec).stuck_steps):
        run.step(space[i % len(space)])
        if run.stuck():
            break
    [f] = run.stuck()
    assert (f.details["state"]["hero_x"], f.details["state"]["hero_y"]) == (cx[0], cy[0])
    assert f.details["state"]["mana"] <= 80 and f.details["inputs"] >= 3
    assert run.obs.entities["hero"].attrs["charging"]


# --- the benchmark's scorer: each injected bug by its own signature -------------------------------------------
def test_the_scorer_matches_each_injected_bug_by_its_signature(monkeypatch):
    """Stored findings (as bench/results/*/explorers.json keep them) scored against combat's and the mazes'
    injected bugs: a stuck finding is the corner charge only when its state is one; the rest are false alarms."""
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "bench"))
    from explorers import false_alarms, injected

    still = "the game state did not change for 30 steps while inputs kept arriving"
    combat = [  # bench/results/combat_analyzed/explorers.json, random seed 1
        {"kind": "assertion", "signature": "assertion:combat.py:882:damage turned negative",
         "message": "damage turned negative"},
        {"kind": "balance", "signature": "balance:hit.damage:low",
         "message": "hit.damage = -19 is outside its designed range [1, 60]"},
        {"kind": "stuck", "signature": "stuck:state:a47a9ef326", "message": f"{still} (hero_x=624, hero_y=16, mana=0)"},
    ]
    assert [injected("combat", b) for b in combat] == ["negative-damage", "negative-damage",
                                                       "weak-charge-corner-stuck"]
    others = [
        # the corner at full mana: the player chose to stay there (what Wuji's window reported)
        {"kind": "stuck", "signature": "stuck:state:0", "message": f"{still} (hero_x=16, hero_y=16, mana=100)"},
        # a still hero by a wall, not in a corner
        {"kind": "stuck", "signature": "stuck:state:1", "message": f"{still} (hero_x=300, hero_y=16, mana=40)"},
        # a frozen screen is not the charge (the boss keeps moving while the hero is frozen)
        {"kind": "stuck", "signature": "stuck:screen:2", "message": "the screen stayed frozen for 30 steps"},
        # a ZeroDivisionError elsewhere, and a crit that is not out of range on the high side
        {"kind": "crash", "signature": "crash:ZeroDivisionError:combat.py:_hit:811 < combat.py:cast:790",
         "message": "ZeroDivisionError: division by zero at combat.py"},
        {"kind": "frame_time", "signature": "frame_time", "message": "a frame took 300 ms"},
    ]
    assert [injected("combat", b) for b in others] == [None] * len(others)
    assert injected("combat", {"kind": "stuck", "signature": "stuck:state:3", "message": still,
                               "details": {"state": {"hero_x": 16, "hero_y": 384, "mana": 55}}}) \
        == "weak-charge-corner-stuck"
    assert injected("combat", {"kind": "crash", "message": "ZeroDivisionError: float division by zero at combat.py",
                               "signature": "crash:ZeroDivisionError:combat.py:start_charge:360 < "
                                            "combat.py:cast:785 < combat.py:update:760"}) == "charge-zero-distance"
    assert injected("combat", {"kind": "balance", "signature": "balance:hit.damage:high",
                               "message": "hit.damage = 255 is outside its designed range [1, 60]"}) == "bolt-crit-x15"
    assert false_alarms("combat", combat + others) == len(others)
    # the mazes: the bug cells' checks; a dead end's stuck (bench/results/explorers.json) is a false alarm
    maze = [{"kind": "assertion", "signature": "assertion:blockmaze.py:667:bug cell 3 entered",
             "message": "bug cell 3 entered"},
            {"kind": "stuck", "signature": "stuck:state:4", "message": f"{still} (score=0, steps=64, x=7, y=3)"}]
    assert [injected("maze41", b) for b in maze] == ["bug cell 3 entered", None]
    assert false_alarms("blockmaze", maze) == 1


# --- a game without a probe: a game-over screen is not a frozen game ---------------------------------------
def test_a_game_over_screen_is_not_stuck_a_frozen_game_is(worker_for):
    """No features: the oracle has only the screen. Arrows changed the screen while playing; on the
    game-over screen (a new screen: most of its pixels changed at once) they change nothing, and the screen
    waits for R. That screen is no stuck game (Wuji's window test says it is). A game that freezes in place
    (F: it keeps reading input, never redraws) with the same arrows arriving is stuck."""
    from conftest import fixture_spec

    spec = fixture_spec("game_over_screen", oracles={"stuck_steps": 10})
    walk = [keys("RIGHT"), keys("DOWN"), keys("LEFT"), keys("UP")] * 3
    for ending, stuck in (("k", False), ("f", True)):
        w = Watched(worker_for(spec, capture=(32, 24)), spec)
        for frame in walk + [keys(ending)] + walk * 3:
            w.step(frame, frames=1)
        assert bool(w.stuck()) == stuck, (ending, w.stuck())
        assert w.stuck("window"), ending  # Wuji's test fires on both
        if stuck:
            assert w.stuck()[0].signature.startswith("stuck:screen:")


# --- a state that moves every step, caught at its mean -------------------------------------------------------
def test_a_state_that_moves_every_step_is_not_stuck_even_at_its_mean():
    """Replayed from a blind combat campaign (stuck:state:4091fedcfc): the hero at its start holds the bolt key,
    so mana climbs and drops as a 0-14 sawtooth that changes at every step; at 7 it equals the mean of the 30
    states before it, which Wuji's moving-average test took for a still state (16 such false alarms in the
    blind combat campaigns). A state that really stays put still fires."""
    from playtester.drive.observation import Observation
    from playtester.oracles.stuck import StuckOracle

    mana = [12, 13, 14, 1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 0, 2, 3, 4, 6, 7, 8, 10, 11, 12, 14, 0, 1, 3, 4, 5, 7]
    inputs = [keys(k) for k in ("2", "k", "l")]

    def run(values, x=120.0, y=200.0):
        oracle = StuckOracle(30, 1e-6, 3, ["hero_x", "hero_y", "mana"], screen=False)
        found = []
        for i, m in enumerate(values):  # the first steps teach it that these inputs move mana
            obs = Observation(frame=None, features={"hero_x": x, "hero_y": y, "mana": float(m)},
                              info={"held": inputs[i % 3]})
            found += oracle.check(obs, i)
        return found

    sawtooth = [0, 1, 2, 3, 4, 5] + mana
    assert sum(sawtooth[-31:-1]) == 30 * sawtooth[-1]  # the coincidence: the last state is its window's mean
    assert run(sawtooth) == []
    frozen = run([0, 1, 2, 3, 4, 5] + [7] * 40, x=16.0, y=16.0)
    assert [f.kind for f in frozen] == ["stuck"] and frozen[0].step == 6 + 30


# --- a step whose answer was lost (a joined Godot batch cut by a crash) is no evidence ---------------------
def test_steps_whose_answer_was_lost_are_not_evidence_of_stuck():
    """A remote game's steps played before a crash in a joined batch come back with the state before them
    (``info["answer_lost"]``): the game did move, so they must not fill a stuck window; the same observations
    unmarked do."""
    from playtester.drive.observation import Observation
    from playtester.oracles.stuck import StuckOracle

    right = keys("RIGHT")

    def run(mark: bool) -> list:
        o = StuckOracle(n=5, min_inputs=1)
        found = []
        for i in range(6):  # RIGHT moves x: the oracle learns that it does
            found += o.check(Observation(frame=None, features={"x": float(i)}, info={"held": right}), i)
        for i in range(6, 14):  # the lost steps: the state of step 5 again, RIGHT still held
            info = {"held": right, **({"answer_lost": True} if mark else {})}
            found += o.check(Observation(frame=None, features={"x": 5.0}, info=info), i)
        return found

    assert [f.kind for f in run(mark=False)] == ["stuck"]  # unmarked, the repeats look like a stuck game
    assert run(mark=True) == []
