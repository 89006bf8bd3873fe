"""The inspection demonstrations PPGTA and Inspector imitate must show a behaviour pixels can tell: the orbit
demonstrator of bench/ppgta.py (``--write-inspect-demos``) chooses every action from where its object is on screen,
keeps it in view (so the agent's test hand-over rules, ``test_min_box`` and the default ``lost_steps`` of 30, never
cut it short; with ``lost_steps=0`` the limit comes from the demonstrations themselves) and
sees all 8 faces within 300 steps (a test lasts as long as the longest inspection demonstration given). bench/park_demos.py's demonstrator walks between stand points
only it knows and has its object on no detector box for about half its steps; imitations of it never saw all 8
faces (the README's benchmark: 0 of 38 objects tested)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from playtester.agents.ppgta import CAPTURE, LOST_STEPS_FALLBACK, TEST_STEPS_FALLBACK, PpgtaConfig  # noqa: E402

BENCH = Path(__file__).resolve().parents[2] / "bench"
WINDOW_H = 480  # the park's window; the agent sees it at CAPTURE[1] = 120 px


def _load(module: str, file: str):
    """A bench script as a module (its folder on sys.path while it loads, for its sibling imports)."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(module, BENCH / file)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(BENCH))
    return mod


def _bench():
    mod = _load("bench_ppgta_under_test", "ppgta.py")
    sys.path.insert(0, str(BENCH))
    try:
        import park_demos
    finally:
        sys.path.remove(str(BENCH))
    return mod, park_demos


def test_the_orbit_action_follows_where_the_object_is_on_screen():
    b, _ = _bench()
    assert b.orbit_action(2.0, 30.0, "strafe_left") == "turn_right"  # to the right of the view's centre
    assert b.orbit_action(2.0, -30.0, "strafe_left") == "turn_left"
    assert b.orbit_action(5.0, 3.0, "strafe_left") == "forward"  # small box: too far
    assert b.orbit_action(1.0, 3.0, "strafe_left") == "back"  # big box: too near
    assert b.orbit_action(2.0, 3.0, "strafe_left") == "strafe_left"
    assert b.orbit_action(2.0, -3.0, "strafe_right") == "strafe_right"


def test_an_orbit_demonstration_sees_every_face_with_its_object_in_view_within_a_test():
    from playtester.drive.spec import resolve
    from playtester.env import GameEnv
    from playtester.games.park import TESTED_FACES

    b, park_demos = _bench()
    cfg = PpgtaConfig()
    env = GameEnv(resolve("park"), capture=None)
    try:
        for seed in range(50002, 50012):
            demo = park_demos.Demonstrator(env, seed)
            ooi = b.orbit(demo)
            if ooi is not None:
                break
        assert ooi is not None, "no start of ten had an object to inspect"
        assert len(demo.actions) <= (cfg.test_steps or TEST_STEPS_FALLBACK)
        # replay: the object under test on screen, big enough to start and hold a test, at every step
        env.reset(seed=seed)
        min_h = cfg.test_min_box * WINDOW_H / CAPTURE[1]
        in_view, run, longest = 0, 0, 0
        for a in demo.actions:
            env.step(a)
            box = env.last_obs.entities[ooi].attrs.get("screen_box")
            big = box is not None and box[3] - box[1] >= min_h
            in_view += big
            run = 0 if big else run + 1
            longest = max(longest, run)
        assert len(env.last_obs.entities[ooi].attrs["seen_faces"]) >= TESTED_FACES
    finally:
        env.close()
    assert in_view >= 0.9 * len(demo.actions), (in_view, len(demo.actions))
    assert longest < LOST_STEPS_FALLBACK


def test_the_committed_orbit_inspections_are_the_writers_and_the_benchmarks_default(tmp_path):
    """bench/data/park_demos_orbit/inspect holds the writer's 150 (rewriting any N gives its first N, byte for
    byte), bench/ppgta.py takes them by default and names the folder relative to the repository."""
    b, _ = _bench()
    folder = BENCH / "data" / "park_demos_orbit" / "inspect"
    assert len(list(folder.glob("inspect_*.json"))) == 150
    assert b.ORBIT_DEMOS / "inspect" == folder
    b.write_inspect_demos(2, tmp_path)
    written = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in written] == ["inspect_001.json", "inspect_002.json"]
    for p in written:
        assert p.read_text() == (folder / p.name).read_text()
    assert b.repo_path(folder) == "bench/data/park_demos_orbit/inspect"
    assert b.repo_path(tmp_path) == str(tmp_path.resolve())


def test_the_benchmark_counts_a_return_in_its_campaign_episode():
    """bench/ppgta.py's episodes are the campaign's: a record the agent started itself by restoring a snapshot
    (``fresh`` false) joins the running episode of its worker, even when two workers' records interleave."""
    bench, _ = _bench()
    recs = [{"worker": 0, "fresh": True, "n": 1}, {"worker": 1, "fresh": True, "n": 2},
            {"worker": 0, "fresh": False, "n": 3}, {"worker": 1, "n": 4}, {"worker": 1, "fresh": False, "n": 5},
            {"worker": 0, "fresh": False, "n": 6}]
    groups = bench.campaign_episodes(recs)
    assert [[r["n"] for r in g] for g in groups] == [[1, 3, 6], [2], [4, 5]]
    assert bench.campaign_episodes([{"worker": 0, "fresh": False, "n": 1}]) == [[{"worker": 0, "fresh": False, "n": 1}]]


def test_the_benchmark_scores_coverage_after_each_campaign_episode():
    """``path_coverage_curve``: the share of path tiles visited after each campaign episode (a restored record counts
    in its episode), ending at ``path_coverage``; tiles off the paths do not count."""
    bench, _ = _bench()
    head = {"map": ["." * 40, "=" * 40, "." * 40],
            "objects": [{"id": "bench1", "x": 2, "y": 0, "kind": "bench", "bug_faces": ["none"] * 8}]}
    eps = [{"worker": 0, "fresh": True, "trace": [[0.5, 1.5], [3.5, 1.5]]},  # path tiles 0-3
           {"worker": 0, "fresh": True, "trace": [[2.5, 1.5], [2.5, 0.5]]},  # tile 2 again, then grass
           {"worker": 0, "fresh": True, "trace": [[5.5, 1.5], [6.5, 1.5]]},
           {"worker": 0, "fresh": False, "trace": [[8.5, 1.5], [9.5, 1.5]]}]  # restored: in the third episode
    s = bench.score({"birdseye": [head, *eps], "steps": 40, "wall_s": 1.0, "cpu_s": 1.0}, {})
    assert s["path_coverage_curve"] == [0.1, 0.1, 0.2] and s["path_coverage"] == 0.2
    assert len(s["tested_curve"]) == 3


def test_the_benchmark_draws_each_agents_curves_with_the_targets(tmp_path):
    """``curves_png``: one panel per curve the results file has (pathway coverage, objects tested), each agent's mean
    in its colour; a file from before the coverage curve was recorded gets the objects-tested panel alone."""
    from matplotlib.image import imread

    bench, _ = _bench()

    def run(cov, tested):
        return {"path_coverage_curve": cov, "tested_curve": tested, "oois": 38}

    record = {"episodes": 3, "steps_per_episode": 100, "seeds": [0, 1],
              "targets": {"path_coverage": 0.85, "tested_after_18_share": 0.8},
              "per_agent": {"ppgta": {"runs": [run([0.1, 0.3, 0.5], [1, 4, 9]), run([0.2, 0.4, 0.6], [2, 5, 8])]},
                            "random": {"runs": [run([0.05, 0.1, 0.1], [0, 0, 1]), run([0.05, 0.1, 0.2], [0, 1, 1])]}}}

    def colours(path):
        img = (imread(path)[..., :3] * 255).round().astype(int)
        return {tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in bench.AGENT_COLOURS.values()
                if ((img == [int(c[i:i + 2], 16) for i in (1, 3, 5)]).all(-1)).sum() > 20}

    both = bench.curves_png(record, tmp_path / "both.png")
    assert colours(both) == {(0x15, 0x65, 0xc0), (0x75, 0x75, 0x75)}  # ppgta's and random's lines, no inspector
    for a in record["per_agent"].values():
        for r in a["runs"]:
            del r["path_coverage_curve"]
    tested = bench.curves_png(record, tmp_path / "tested.png")
    assert imread(tested).shape[1] < 0.6 * imread(both).shape[1]  # one panel instead of two
    assert colours(tested) == {(0x15, 0x65, 0xc0), (0x75, 0x75, 0x75)}


def _tests_bench():
    return _load("bench_ppgta_tests_under_test", "ppgta_tests.py")


def test_the_tests_benchmark_puts_a_test_on_the_object_under_the_agents_box():
    import math

    from playtester.drive.spec import resolve
    from playtester.env import GameEnv
    from playtester.games.park import SCREEN_W

    b, park_demos = _bench()
    tb = _tests_bench()
    scale = SCREEN_W / CAPTURE[0]
    env = GameEnv(resolve("park"), capture=None)
    try:
        for seed in range(50002, 50040):
            demo = park_demos.Demonstrator(env, seed)
            ooi = b.nearest_ooi(demo)
            if ooi is not None:
                break
        assert ooi is not None, "no start had an object within reach"
        ox, oy = demo.oois()[ooi].pos
        for _ in range(40):  # turn until the object is at the view's centre
            x, y, angle = demo.pose()
            bearing = (math.degrees(math.atan2(oy - y, ox - x)) - angle + 180) % 360 - 180
            if abs(bearing) <= 6:
                break
            demo.act("turn_right" if bearing > 0 else "turn_left")
        seen = env.last_obs.entities[ooi].attrs
        box = tuple(v / scale for v in seen["screen_box"])  # the agent's pixels
        assert tb.target(env.last_obs, box, scale) == (ooi, round(seen["distance"], 2))
        assert tb.target(env.last_obs, (0.0, 0.0, 8.0, 8.0), scale) == (None, None)  # the sky: no object there
        assert tb.target(env.last_obs, None, scale) == (None, None)
        for _ in range(15):  # 180 degrees: the object is behind the player, the same box shows something else
            demo.act("turn_left")
        assert tb.target(env.last_obs, box, scale)[0] != ooi
    finally:
        env.close()


def test_the_tests_benchmark_groups_tests_by_what_they_started_on():
    tb = _tests_bench()
    row = {"ooi": "ooi-1", "steps": 10, "ended": "limit"}
    rows = [{**row, "distance": 2.0, "faces_start": 3, "faces_end": 8},
            {**row, "distance": 6.5, "faces_start": 1, "faces_end": 2, "ended": "lost"},
            {**row, "distance": 12.0, "faces_start": 0, "faces_end": 0, "steps": 20, "approach_steps": 6},
            {**row, "distance": 3.0, "faces_start": 8, "faces_end": 8, "steps": 0},
            {**row, "ooi": None, "distance": None, "faces_start": None, "faces_end": None, "steps": 20}]
    g = tb.group(rows)
    near, mid, far, none = (g[k] for k in tb.GROUPS)
    assert (near["tests"], near["finished_an_object"], near["gained_a_face"]) == (2, 1, 1)
    assert near["on_an_object_already_finished"] == 1
    assert (mid["tests"], mid["lost"], mid["gained_a_face"], mid["finished_an_object"]) == (1, 1, 1, 0)
    assert (far["tests"], far["steps"], far["gained_a_face"], far["approach_steps"]) == (1, 20, 0, 6)
    assert near["approach_steps"] == 0  # rows from before approaches have none
    assert (none["tests"], none["share_of_test_steps"], none["at_limit"]) == (1, round(20 / 60, 3), 1)
