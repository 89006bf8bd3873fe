"""The texture oracle is trustworthy on the park: with the shipped model bundle (the detector trained with scenery
shots as hard negatives, `bench/vision.py --scenery`) and the oracle's frozen default settings, real game frames
of scenery only raise no texture finding, a bugged face seen up close still does, and the settings were chosen
on tuning seeds kept apart from the reported ones. Ground truth (the layout, the probe) only places the player
and checks that a frame shows no object; the oracle sees pixels only. No timing is asserted."""

from __future__ import annotations

import json
import math
import os
import random
import warnings
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

torch = pytest.importorskip("torch")

import playtester.vision  # noqa: E402 - registers the texture judge's loader
from playtester.games import park as pk  # noqa: E402
from playtester.oracles import make_oracles  # noqa: E402
from playtester.oracles.texture import DEFAULTS, FROZEN, TextureSettings  # noqa: E402
from playtester.vision.dataset import PARK_KINDS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = Path(playtester.vision.__file__).resolve().parent / "park-texture.pt"
HOOKS = "playtester.vision.dataset:call_hook"
LAYOUT = pk.generate_layout(0)

needs_bundle = pytest.mark.skipif(not BUNDLE.is_file(), reason=f"no shipped texture bundle at {BUNDLE}")


@pytest.fixture(scope="module")
def worker():
    from playtester.drive import Worker, resolve
    from playtester.env import default_space

    spec = resolve("park")
    w = Worker(spec, space=default_space(spec), capture="full")
    w.reset(seed=0)
    yield w
    w.close()


def _oracle():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the shipped bundle loads without a word
        suite = make_oracles({"enabled": ["texture"], "texture_model": str(BUNDLE)})  # the frozen defaults
    (oracle,) = suite.oracles
    assert (oracle.min_p, oracle.confirm, oracle.min_height, oracle.min_score) == (
        DEFAULTS["texture_min_p"], DEFAULTS["texture_confirm"], DEFAULTS["texture_min_height"],
        DEFAULTS["texture_min_score"])
    return suite


def _no_object(obs) -> bool:
    return not any(e.kind in PARK_KINDS and e.attrs.get("screen_box") for e in obs.entities.values())


def _scenery_views(w, n: int, seed: int):
    """``n`` spots (a fixed seed, not picked by hand), each seen as the player turns, looks down at the ground
    and up: every frame with no object of interest anywhere on screen (the probe says so)."""
    from playtester.drive import InputFrame

    walkable = w.call(HOOKS, "walkable")[1]
    rng = random.Random(seed)
    sx, sy, sw, sh = LAYOUT.service_area
    views = []
    while len(views) < n:
        if len(views) % 2 == 0:  # half of them in the service yard, facing the building or its edges
            x, y = rng.uniform(sx, sx + sw), rng.uniform(sy, sy + sh)
        else:
            x, y = rng.uniform(0, LAYOUT.size), rng.uniform(0, LAYOUT.size)
        if not walkable[int(y)][int(x)]:
            continue
        assert w.call(HOOKS, "teleport", x, y, rng.uniform(0, 360))[0] == "ok"
        frames = [w.step(InputFrame(), frames=1)]
        for action in (4, 7, 7, 6, 5):  # turn left, look down twice, up, turn right (park.actions.yaml)
            frames.append(w.act(action, frames=3))
        frames = [o for o in frames if _no_object(o)]
        if len(frames) >= 3:
            views.append(frames)
    return views


@needs_bundle
def test_scenery_only_frames_raise_no_texture_finding(worker):
    suite = _oracle()
    said = []
    for i, frames in enumerate(_scenery_views(worker, 12, seed=20261125)):
        suite.reset()
        for step, obs in enumerate(frames):
            said += [(i, step, f.signature, f.details["box"]) for f in suite.check(obs, step)]
    assert said == []


def _close_view(o, face, d):
    a = o.yaw + face * 2 * math.pi / pk.N_FACES
    return o.x + d * math.cos(a), o.y + d * math.sin(a), math.degrees(a + math.pi) % 360


@needs_bundle
@pytest.mark.parametrize("bug", ["lowres", "stretched"])
def test_a_bugged_face_up_close_is_still_found(worker, bug):
    """The first reachable object (layout order) with a face showing ``bug`` and room to stand 1.5 tiles in front
    of it: looked at for a few frames, the oracle reports that kind of object with that bug."""
    from playtester.drive import InputFrame

    walkable = worker.call(HOOKS, "walkable")[1]
    for o in LAYOUT.oois:
        faces = [f for f, b in enumerate(o.bug_faces) if b == bug]
        spots = [(f, _close_view(o, f, 1.5)) for f in faces]
        spots = [(f, v) for f, v in spots if 0 <= v[0] < LAYOUT.size and 0 <= v[1] < LAYOUT.size
                 and walkable[int(v[1])][int(v[0])]]
        if o.area == "park" and spots:
            face, (x, y, angle) = spots[0]
            break
    else:  # pragma: no cover - the layout is fixed
        raise AssertionError(f"no {bug} face to look at")
    suite = _oracle()
    suite.reset()
    assert worker.call(HOOKS, "teleport", x, y, angle) == ("ok", True)
    found = []
    for step in range(6):
        obs = worker.step(InputFrame(), frames=1)
        assert obs.entities[o.id].attrs["face"] == face  # ground truth: that face is the one shown
        found += suite.check(obs, step)
    assert [f.signature for f in found] == [f"texture:{o.kind}:{bug}"], [f.message for f in found]


def test_the_settings_were_tuned_on_seeds_apart_from_the_reported_ones():
    """The defaults are the frozen ones, the freeze names its tuning seeds, and the results files say which seeds
    tuned and which are reported: no seed is both."""
    assert FROZEN["frozen_at"], "the texture oracle's settings are not frozen"
    assert FROZEN["settings"] == DEFAULTS
    settings = TextureSettings()
    assert {k: getattr(settings, k) for k in DEFAULTS} == DEFAULTS
    tuning, reported = set(FROZEN["tuning_seeds"]), set(FROZEN["reported_seeds"])
    assert tuning and reported and not tuning & reported

    tuned = json.loads((ROOT / FROZEN["tuning_results"]).read_text())
    assert tuned["role"] == "tune" and set(tuned["seeds"]) == tuning
    chosen = {k: tuned["chosen"][k] for k in DEFAULTS}
    assert chosen == DEFAULTS  # what the rule chose on the tuning seeds is what was frozen
    assert tuned["date"] < FROZEN["frozen_at"]

    report = ROOT / "bench" / "results" / "park_texture_alarms.json"
    if report.is_file():
        rep = json.loads(report.read_text())
        if rep.get("role") == "report":  # the file written before the freeze had no roles
            assert set(rep["seeds"]) == reported and not set(rep["seeds"]) & tuning
            assert rep["settings"] == DEFAULTS and rep["freeze"]["frozen_at"] == FROZEN["frozen_at"]
            assert rep["date"] > FROZEN["frozen_at"]
