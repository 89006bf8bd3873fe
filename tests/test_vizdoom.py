"""ViZDoom as a game playtester tests (``doom:`` specs, drive/doom.py): Freedoom 2's MAP01 without monsters.

Skipped when vizdoom is not installed (the ``doom`` extra; ``make test`` installs it), unless
PLAYTESTER_REQUIRE_VIZDOOM=1, which makes a missing vizdoom a failure (CI).
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

from playtester.coverage.maps import PositionMap
from playtester.coverage.route import ObjectsSeen, RouteCoverage
from playtester.drive.backend import backend_for
from playtester.drive.spec import resolve
from playtester.errors import GameSpecError
from playtester.findings import Trace

REQUIRE = os.environ.get("PLAYTESTER_REQUIRE_VIZDOOM") == "1"
GAME = "doom:freedoom2:MAP01"
DEMOS = Path(__file__).resolve().parent.parent / "bench" / "data" / "doom_demos"

if importlib.util.find_spec("vizdoom") is None:
    if REQUIRE:
        raise RuntimeError("vizdoom is not installed and PLAYTESTER_REQUIRE_VIZDOOM=1 (pip install -e '.[doom]')")
    pytest.skip("vizdoom is not installed (pip install -e '.[doom]', or make test)", allow_module_level=True)

from playtester.drive import doom  # noqa: E402
from playtester.env import GameEnv  # noqa: E402


@pytest.fixture(scope="module")
def env():
    e = GameEnv(GAME, capture="full")
    yield e
    e.close()


def play(env: GameEnv, seed: int, actions: list[int]) -> list:
    env.reset(seed=seed)
    out = [env.last_obs]
    for a in actions:
        env.step(a)
        out.append(env.last_obs)
    return out


def test_spec_backend_and_actions(env):
    spec = resolve(GAME)
    assert spec.kind == "doom" and spec.target == "freedoom2:MAP01"
    caps = backend_for(spec).capabilities
    assert caps.declared_actions and caps.pixels and caps.entities and not caps.snapshots
    assert env.space.names == ["forward", "turn left", "turn right", "forward left", "forward right", "backward",
                               "strafe left", "strafe right", "use"]
    monsters = GameEnv(resolve(GAME, game_args={"monsters": True}), capture=None)
    try:
        assert monsters.space.names[-1] == "attack"
    finally:
        monsters.close()


def test_bad_specs_say_what_to_write():
    with pytest.raises(GameSpecError, match="my_way_home"):
        doom.scenario("no_such_scenario")
    with pytest.raises(GameSpecError, match="freedoom1:E1M1"):
        doom.scenario("freedoom1:")
    with pytest.raises(GameSpecError, match="monsters"):
        doom.scenario("freedoom1:E1M1", {"speed": 2})


def test_same_seed_same_frames_and_positions(env):
    rng = np.random.default_rng(7)
    actions = [int(a) for a in rng.integers(0, 8, 40)]  # no "use"
    a, b = play(env, 3, actions), play(env, 3, actions)
    assert len(a) == len(b) == 41
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x.frame, y.frame)
        assert (x.features["pos_x"], x.features["pos_y"], x.features["angle"]) == \
            (y.features["pos_x"], y.features["pos_y"], y.features["angle"])
        assert {k: e.attrs.get("screen_box") for k, e in x.entities.items()} == \
            {k: e.attrs.get("screen_box") for k, e in y.entities.items()}
    moved = math.dist((a[0].features["pos_x"], a[0].features["pos_y"]), (a[-1].features["pos_x"], a[-1].features["pos_y"]))
    assert moved > 32  # the actions did something: the player walked


def test_labels_give_object_boxes_that_move_when_turning(env):
    turn_left = env.space.names.index("turn left")
    obs = play(env, 0, [turn_left] * 14)  # a full turn (30 degrees a step after the first)
    kinds = set()
    shifts = []
    for before, after in zip(obs[1:], obs[2:], strict=False):
        w, h = after.info["screen_size"]
        assert after.frame.shape == (h, w, 3)
        for key, e in after.entities.items():
            if key == "player":
                continue
            x0, y0, x1, y1 = e.attrs["screen_box"]
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h  # a real box on the screen
            assert e.kind in ("barrel", "pillar", "item", "decoration", "monster", "other") and e.attrs["class"]
            kinds.add(e.kind)
            prev = before.entities.get(key)
            if prev is not None and 8 < x0 and x1 < w - 8:  # wholly in view both times: compare centres
                px0, _, px1, _ = prev.attrs["screen_box"]
                if 8 < px0 and px1 < w - 8:
                    shifts.append((x0 + x1) / 2 - (px0 + px1) / 2)
    assert "item" in kinds
    assert len(shifts) >= 3 and all(s > 20 for s in shifts)  # turning left moves what is in view to the right
    # the box holds the object: its pixels differ from the frame's median colour somewhere
    big = max(((k, o) for o in obs for k, e in o.entities.items() if k != "player"),
              key=lambda ko: (ko[1].entities[ko[0]].attrs["screen_box"][3] - ko[1].entities[ko[0]].attrs["screen_box"][1]))
    key, o = big
    x0, y0, x1, y1 = o.entities[key].attrs["screen_box"]
    assert o.frame[y0:y1, x0:x1].std() > 5


def test_a_raw_step_holds_no_button(env):
    from playtester.drive.inputs import InputFrame

    env.reset(seed=0)
    before = env.last_obs.features
    still = env.worker.step(InputFrame(), frames=8)  # raw inputs (no action): the player stands still
    assert (still.features["pos_x"], still.features["pos_y"], still.features["angle"]) == \
        (before["pos_x"], before["pos_y"], before["angle"]) and still.frame_no == 8
    walked = env.worker.act(env.space.names.index("forward"), frames=8)
    assert walked.features["pos_x"] > before["pos_x"] + 16


def test_position_map_fills_as_the_player_walks(env):
    forward = env.space.names.index("forward")
    obs = play(env, 0, [forward] * 25)
    pmap = PositionMap(1.0)
    new = [pmap.add(o) for o in obs]
    assert pmap.missed == 0
    assert pmap.cells >= 8 and sum(new) == pmap.cells
    xs = [o.entities["player"].pos[0] for o in obs]
    assert xs[-1] - xs[0] > 8  # east, in tiles: the start faces east
    geo = doom.geometry(doom.scenario("freedoom2:MAP01"))
    w, h = geo.size
    assert all(0 <= o.features["x"] < w and 0 <= o.features["y"] < h for o in obs)


def test_geometry_rows_and_route():
    geo = doom.geometry(doom.scenario("freedoom2:MAP01"))
    path, goal = doom.preferred_route(geo)
    assert goal["kind"] in doom.OOI_KINDS and len(path) > 50
    assert all(math.dist(a, b) < 1.5 * doom.NAV_CELL for a, b in zip(path, path[1:], strict=False))  # connected
    ok = geo.walkable()
    paths = doom.Paths(geo, geo.start[:2])
    assert all(ok[paths.cell(p)] for p in path)
    rows = geo.rows(doom.route_tiles(geo, path))
    assert len(rows) == geo.size[1] and {len(r) for r in rows} == {geo.size[0]}
    text = "".join(rows)
    assert text.count("B") > 500 and text.count("_") > 3000 and text.count("=") > 30
    sx, sy = geo.to_tiles(*geo.start[:2])
    assert rows[int(sy)][int(sx)] in "_="  # the player starts on the floor


def test_demonstrations_replay_and_cover_the_route(env):
    route_file = DEMOS / "route.json"
    data = json.loads(route_file.read_text())
    trace = Trace.from_json((DEMOS / "demo_01.json").read_text())
    assert trace.game == GAME and trace.space["actions"] and len(trace.actions) > 50
    obs = play(env, trace.seed, trace.actions)
    cover, seen = RouteCoverage(data["tiles"]), ObjectsSeen(doom.OOI_KINDS)
    idle = RouteCoverage(data["tiles"])
    for o in obs:
        cover.add(o)
        seen.add(o)
    for o in play(env, trace.seed, [env.space.names.index("turn left")] * 30):
        idle.add(o)
    end = obs[-1].entities["player"].pos
    assert math.dist(end, data["goal"]["tile"]) < 2.0  # the demonstration reaches the route's goal
    assert cover.share > 0.75 and idle.share < 0.2
    assert len(seen) >= 3 and set(seen.by_kind()) <= set(doom.OOI_KINDS)
    assert "barrel" in seen.by_kind()  # the route ends at a barrel: its labels box was seen


def _vizdoom_children(pid: int) -> list[psutil.Process]:
    try:
        kids = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    return [p for p in kids if "vizdoom" in (p.name() or "").lower() and p.status() != psutil.STATUS_ZOMBIE]


def test_engine_ends_with_its_episode():
    e = GameEnv(GAME, capture=None)
    try:
        e.reset(seed=0)
        host = e.worker.host_pid
        e.step(0)
        assert host is not None and len(_vizdoom_children(host)) == 1  # each episode runs an engine process
        e.reset(seed=1)  # the first episode's engine goes with it
        e.step(0)
        deadline = time.monotonic() + 5
        while len(_vizdoom_children(host)) > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        engines = _vizdoom_children(host)
        assert len(engines) == 1
    finally:
        e.close()
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in engines) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in engines)  # closing the env ends the engine too


def _alive(p: psutil.Process) -> bool:
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "playtester.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=240)


def test_cli_run_and_explore_write_a_birdseye_report(tmp_path):
    run = _cli("run", GAME, "--steps", "200", "--json", str(tmp_path / "run.json"), cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    summary = json.loads((tmp_path / "run.json").read_text())
    assert summary["steps"] == 200
    out = tmp_path / "runs"
    ex = _cli("explore", GAME, "--agent", "random", "--budget", "300", "--out", str(out), cwd=tmp_path)
    assert ex.returncode == 0, ex.stdout + ex.stderr
    html = (out / "report.html").read_text()
    assert 'id="birdseye"' in html and 'alt="exploration traces"' in html and 'alt="position heat map"' in html
    lines = [json.loads(x) for x in next(out.glob("birdseye-*.jsonl")).read_text().splitlines()]
    assert any("B" in r for r in lines[0]["map"]) and any("=" in r for r in lines[0]["map"])
    assert sum(len(ep["trace"]) for ep in lines[1:]) >= 2
    placed = doom.geometry(doom.scenario("freedoom2:MAP01")).ooi()  # every object of interest, not those in view
    assert sorted(o["id"] for o in lines[0]["objects"]) == sorted(o["id"] for o in placed) and len(placed) == 63
    seen = {k for ep in lines[1:] for k in ep["faces"]}
    assert seen and seen <= {o["id"] for o in placed}  # the objects the random walk saw, by their map ids
    assert f"Objects of interest ({len(placed)})" in html
