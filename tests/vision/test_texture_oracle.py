"""The texture oracle on the park's real frames, with real (small) weights trained here: a detector of barrels
and a verdict classifier, bundled; the oracle loads the bundle through its ``[oracles]`` setting and judges
frames with no probe. Ground truth (the layout) only places the player and checks the answers."""

from __future__ import annotations

import math
import os
import warnings

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

torch = pytest.importorskip("torch")

from playtester.games import park as pk  # noqa: E402
from playtester.oracles import make_oracles  # noqa: E402
from playtester.oracles.registry import frames_needed, settings_model  # noqa: E402
from playtester.vision.evaluate import iou  # noqa: E402

LAYOUT = pk.generate_layout(0)
KINDS = ("barrel",)
# the settings these tests run the oracle with (a tiny model trained here, bundled with detector score 0.2):
# the mechanics, not the frozen defaults (tests/vision/test_texture_trust.py runs those on the shipped bundle)
MECHANICS = {"texture_min_p": 0.9, "texture_confirm": 2, "texture_min_height": 32.0, "texture_min_score": 0.2}
HOOKS = "playtester.vision.dataset:call_hook"


def _view(o, face, d=2.0):
    """Where to stand to see ``face`` of object ``o`` from ``d`` tiles, facing it (x, y, degrees)."""
    a = o.yaw + face * 2 * math.pi / pk.N_FACES
    return o.x + d * math.cos(a), o.y + d * math.sin(a), math.degrees(a + math.pi) % 360


def _free(x, y):
    g = pk.Park(0, start=(LAYOUT.start_tiles[0][0] + 0.5, LAYOUT.start_tiles[0][1] + 0.5))
    return g.free_at(x, y)


def _scene(bug):
    """A reachable barrel in the open park and a face of it showing ``bug`` (``none``: an unbugged barrel)
    with a free place to look at it from."""
    for o in LAYOUT.oois:
        if o.kind != "barrel" or o.area != "park" or (bug == "none") == o.bugged:
            continue
        for face, b in enumerate(o.bug_faces):
            if b == bug and _free(*_view(o, face)[:2]):
                return o, face
    raise AssertionError(f"no barrel face with {bug} to look at")  # pragma: no cover - the layout is fixed


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """Real weights, trained here in a few seconds on park frames of barrels (the shots and crops are labelled
    from the probe, as `playtester vision train` and `vision verdict` do)."""
    from playtester.vision import dataset as ds
    from playtester.vision import detector as dt
    from playtester.vision import verdict as vd

    tmp = tmp_path_factory.mktemp("texture")
    shots = ds.collect("park", KINDS, shots=200, seed=3, distance=(1.2, 4.0), empty_share=0.05)
    det = dt.train(shots, dt.TrainConfig(epochs=8, batch=16, width=8, threads=1, lr=5e-3))
    det_path = dt.save(det, tmp / "detector.pt")
    crops = vd.collect("park", KINDS, crops_wanted=800, seed=3)
    crops.object_split[crops.object_split >= 0] = 0  # every barrel trains: this tests the oracle's path, not the verdicts' reach
    ver = vd.train(crops, vd.VerdictConfig(epochs=8, batch=32, width=8, threads=1))
    return vd.save_bundle(tmp / "park-texture.pt", ver, det_path, min_score=0.2), det, ver, crops, det_path


@pytest.fixture(scope="module")
def worker():
    from playtester.drive import Worker, resolve
    from playtester.env import default_space

    spec = resolve("park")
    w = Worker(spec, space=default_space(spec), capture="full")
    yield w
    w.close()


def _look(w, o, face, turns=(0, 4, 5, 5, 4)):
    """Reset, stand in front of ``face`` of ``o``; observations after small turns either way."""
    from playtester.drive import InputFrame

    w.reset(seed=0)
    x, y, angle = _view(o, face)
    assert w.call(HOOKS, "teleport", x, y, angle) == ("ok", True)
    obs = [w.step(InputFrame(), frames=1)]
    for a in turns[1:]:
        obs.append(w.act(a, frames=2))
    return obs


def test_missing_model_turns_the_oracle_off_with_a_message(tmp_path, worker):
    o, face = _scene("lowres")
    frames = _look(worker, o, face, turns=(0,))
    with pytest.warns(RuntimeWarning, match=r"no texture model at .*nope\.pt; train one with 'playtester vision"):
        suite = make_oracles({"enabled": ["texture"], "texture_model": str(tmp_path / "nope.pt")})
    suite.reset()
    assert suite.check(frames[0], 1) == []


def test_the_judge_finds_the_bugged_face_and_passes_the_normal_one(bundle, worker):
    path, det, ver, crops, _ = bundle
    from playtester.vision.verdict import accuracy

    assert accuracy(ver.model, crops, crops.indices("train")) > 0.9  # (held-out figures: bench/park_verdicts.py)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a bundle that loads says nothing
        suite = make_oracles({"enabled": ["texture"], "texture_model": str(path), **MECHANICS})  # confirm 2, p >= 0.9
    (oracle,) = suite.oracles
    assert oracle.judge is not None
    assert frames_needed(settings_model().model_validate({"texture_model": str(path)})) == "full"
    assert frames_needed(settings_model().model_validate({})) is None  # no model: the small capture serves

    o, face = _scene("lowres")
    suite.reset()
    found, boxes = [], []
    for step, obs in enumerate(_look(worker, o, face)):
        found += suite.check(obs, step)
        boxes.append(obs.entities[o.id].attrs["screen_box"])  # ground truth, for checking only
    assert [f.signature for f in found] == ["texture:barrel:lowres"], [f.message for f in found]
    f = found[0]
    assert f.kind == "texture" and "low-resolution" in f.message
    assert len(f.details["steps"]) == 2 and f.step == f.details["steps"][-1]  # confirmed on a second frame
    assert iou(np.array(boxes[f.step], float), np.array([f.details["box"]]))[0] > 0.5  # it is that barrel
    assert set(f.details["player"]) == {"x", "y", "angle"}

    # the same barrel's normal faces, and a barrel with no bug, seen the same way: nothing reported
    normal = [k for k, b in enumerate(o.bug_faces) if b == "none" and _free(*_view(o, k)[:2])][:2]
    clean, clean_face = _scene("none")
    for obj, k in [(o, k) for k in normal] + [(clean, clean_face)]:
        suite.reset()
        said = [f for step, obs in enumerate(_look(worker, obj, k)) for f in suite.check(obs, step)]
        assert said == [], (obj.id, k, [f.message for f in said])


def test_small_frames_leave_the_oracle_idle_and_say_so(bundle, worker):
    from playtester.drive import Worker, resolve

    path = bundle[0]
    o, face = _scene("lowres")
    with Worker(resolve("park"), capture=(48, 48)) as small:
        small.reset(seed=0)
        x, y, angle = _view(o, face)
        small.call(HOOKS, "teleport", x, y, angle)
        from playtester.drive import InputFrame

        obs = small.step(InputFrame(), frames=1)
    suite = make_oracles({"enabled": ["texture"], "texture_model": str(path), **MECHANICS, "texture_confirm": 1,
                          "texture_every": 1})
    suite.reset()
    with pytest.warns(RuntimeWarning, match="frames of 48x48 are too small"):
        assert suite.check(obs, 1) == []


def test_texture_bugs_go_to_the_store_report_and_strips(bundle, tmp_path):
    """A trace replayed with full frames: the texture finding is stored like any bug; the report's bug table
    lists it and its folder gets the frames that show it."""
    from playtester.actions.space import space_to_dict
    from playtester.drive import resolve
    from playtester.env import default_space
    from playtester.findings import Trace
    from playtester.replay import run_trace
    from playtester.report import write_bug_folders, write_report
    from playtester.report.images import png_decode
    from playtester.store import Store

    path = bundle[0]
    o, face = _scene("lowres")
    x, y, angle = _view(o, face)
    spec = resolve("park", game_args={"layout_seed": 0, "start": f"{x},{y},{angle}"},
                   oracles={"enabled": ["texture"], "texture_model": str(path), **MECHANICS})
    trace = Trace("park", spec.config.model_dump(), 0, space_to_dict(default_space(spec)), [4, 5, 5, 4, 4, 5])
    run = run_trace(trace, capture="full", keep_frames=3)
    [f] = [f for f in run.findings if f.kind == "texture"]
    assert f.signature == "texture:barrel:lowres"

    store = Store(tmp_path / "run")
    cid = store.new_campaign("park", trace.config, "random", trace.space, "6 steps", 1, 0, "features")
    bug_id, new = store.record_finding(cid, "park", f, trace.prefix(f.step), 0.5)
    assert new
    store.update_campaign(cid, steps=6, episodes=1, elapsed_s=1.0, status="finished")

    def frames(bug):
        return run_trace(bug.trace, stop_on=bug.signature, keep_frames=3, capture="full").frames

    write_bug_folders(store, cid, tmp_path / "run", frames)
    folder = tmp_path / "run" / "bugs" / str(bug_id)
    strip = png_decode((folder / "strip.png").read_bytes())
    n = min(3, f.step + 1)  # the replay stops where the bug fires: the frames up to the one that confirmed it
    assert len(list((folder / "frames").glob("*.png"))) == n and strip.shape[1] > n * strip.shape[0]
    last = png_decode(sorted((folder / "frames").glob("*.png"))[-1].read_bytes())
    assert last.shape == (480, 640, 3)
    html = write_report(store, cid, tmp_path / "run" / "report.html", frames).read_text()
    assert "texture" in html and "shows a low-resolution (blocky) texture" in html
    store.close()


def test_patches_cut_the_box_with_its_margin_and_crops_take_the_box_back():
    from playtester.vision.verdict import CROP, PATCH, crops, patch

    frame = np.zeros((480, 640, 3), np.uint8)
    frame[100:200, 300:350] = (200, 40, 40)  # a 50 x 100 red object
    p = patch(frame, (300, 100, 350, 200), shape="box")  # the first bundles' crops (the box resized to a square)
    assert p.shape == (PATCH, PATCH, 3)
    a = int(PATCH * 0.25 / 1.5)  # the margin's share of the patch
    assert (p[a + 2:PATCH - a - 2, a + 2:PATCH - a - 2] == (200, 40, 40)).all()
    assert (p[:a - 2] == 0).all() and (p[:, :a - 2] == 0).all()
    c = crops(p[None])
    assert tuple(c.shape) == (1, 3, CROP, CROP)
    assert float(c[0, 0, 2:-2, 2:-2].min()) > 0.75 and float(c[0, 1, 2:-2, 2:-2].max()) < 0.2  # all object
    edge = patch(frame, (600, 440, 660, 500), shape="box")  # past the frame's corner: grey outside
    assert (edge[-3:, -3:] == 128).all()


def test_vision_verdict_cli_writes_a_bundle_the_oracle_loads(bundle, tmp_path):
    import subprocess
    import sys

    det_path = bundle[4]
    out = tmp_path / "b.pt"
    r = subprocess.run([sys.executable, "-m", "playtester.cli", "vision", "verdict", "park", "--detector",
                        str(det_path), "--crops", "200", "--epochs", "1", "--views", "10", "--out", str(out)],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "crop verdicts right on the test objects" in r.stdout and "end to end on" in r.stdout
    assert (tmp_path / ".cache" / "vision" / "park-crops-200-s0.npz").exists()  # the crops' cache
    suite = make_oracles({"enabled": ["texture"], "texture_model": str(out)})
    assert suite.oracles[0].judge is not None
    missing = subprocess.run([sys.executable, "-m", "playtester.cli", "vision", "verdict", "park", "--detector",
                              str(tmp_path / "none.pt")], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert missing.returncode == 2 and "no detector at" in missing.stdout + missing.stderr
    wrong = subprocess.run([sys.executable, "-m", "playtester.cli", "vision", "verdict", "park", "--detector",
                            str(det_path), "--crop-shape", "round"], capture_output=True, text=True, timeout=120,
                           cwd=tmp_path)
    assert wrong.returncode == 2 and "--crop-shape round: one of box, inner, outer" in wrong.stdout + wrong.stderr


def test_a_process_that_loads_the_texture_judge_runs_torch_on_one_thread():
    """The oracle runs in a campaign's process beside its game workers: once its judge is loaded, torch there runs
    one thread (two took three times the CPU a frame for no gain, and starved the workers of a loaded machine)."""
    import subprocess
    import sys
    from pathlib import Path

    import playtester.vision

    shipped = str(Path(playtester.vision.__file__).parent / "park-texture.pt")
    code = ("import torch; torch.set_num_threads(2); import playtester.vision\n"
            "from playtester.oracles import make_oracles\n"
            f"suite = make_oracles({{'enabled': ['texture'], 'texture_model': {shipped!r}}})\n"
            "assert suite.oracles[0].judge is not None\n"
            "print(torch.get_num_threads())")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1"]


class _ScriptedJudge:
    """A `FrameJudge` whose frames show the boxes it is given (frame number -> [(box, kind)]), each judged
    ``lowres`` with p 0.99; it records what it was asked to classify."""

    def __new__(cls, boxes):
        from playtester.oracles.texture import FrameJudge
        from playtester.vision.verdict import Judgement

        class Scripted(FrameJudge):
            def __init__(self):
                self.asked, self.detected = [], 0

            def detect(self, frame):
                self.detected += 1
                return [(tuple(b), k, 0.9) for b, k in boxes[int(frame[0, 0, 0])]]

            def judge_found(self, frame, found):
                self.asked.append((int(frame[0, 0, 0]), [d[1] for d in found]))
                return [Judgement(tuple(d[0]), d[1], d[2], "lowres", 0.99) for d in found]

        return Scripted()


def _frames(n):
    from playtester.drive.observation import Observation

    out = []
    for i in range(n):
        frame = np.zeros((480, 640, 3), np.uint8)
        frame[0, 0, 0] = i  # the scripted judge reads which frame it is from here
        out.append(Observation(frame=frame))
    return out


def test_only_every_nth_frame_is_judged_and_only_its_new_boxes_are_classified():
    """Frame 0: a barrel A and a tire T. Frame 2: A moved a little (IoU > 0.7: the same object, its verdict kept),
    T gone, a chair C. Frame 4: A moved far (judged again), C in place but named a barrel (another kind: judged
    again). Odd frames are not judged; with ``detections`` each frame is detected once and its detections noted."""
    from playtester.oracles.texture import TextureOracle

    A, A2, A3 = (100, 100, 200, 300), (104, 102, 204, 302), (400, 100, 500, 300)
    T, C = (300, 200, 360, 260), (10, 10, 90, 120)
    boxes = {0: [(A, "barrel"), (T, "tire")], 1: [(A, "barrel")], 2: [(A2, "barrel"), (C, "chair")],
             3: [], 4: [(A3, "barrel"), (C, "barrel")], 5: []}
    judge = _ScriptedJudge(boxes)
    oracle = TextureOracle(judge=judge, every=2, confirm=2, min_height=0, min_score=0, detections=True)
    found = [f for step, obs in enumerate(_frames(6)) for f in oracle.check(obs, step)]
    assert judge.asked == [(0, ["barrel", "tire"]), (2, ["chair"]), (4, ["barrel", "barrel"])]
    assert judge.detected == 6  # one detection a frame, judged or not
    assert oracle.classified == 5 and oracle.carried == 1
    assert oracle.notes(5) == {"detections": ((640, 480), [])}
    # the barrel's verdict, kept on frame 2, counts as that frame's: confirmed there (its second frame)
    assert [(f.signature, f.step) for f in found] == [("texture:barrel:lowres", 2)]
    assert found[0].details["box"] == list(A2)
    # every box classified again when the setting is off; without ``detections`` odd frames are not even detected
    judge = _ScriptedJudge(boxes)
    oracle = TextureOracle(judge=judge, every=2, confirm=2, min_height=0, min_score=0, new_only=False)
    for step, obs in enumerate(_frames(6)):
        oracle.check(obs, step)
    assert [n for n, _ in judge.asked] == [0, 2, 4] and oracle.classified == 6 and judge.detected == 3
    assert oracle.notes(4) == {"judged": oracle.last_judged[1]}


def test_a_texture_bug_in_the_park_is_still_found_at_the_default_settings(bundle, worker):
    """The default ``texture_every`` and new boxes only: walking round a barrel's low-resolution face, the bug is
    still reported, with fewer classifications than judging every box of every frame."""
    from playtester.oracles.texture import DEFAULT_EVERY

    path = bundle[0]
    o, face = _scene("lowres")
    obs = _look(worker, o, face, turns=(0,) + (4, 5) * 6)
    results = {}
    for every, new in ((DEFAULT_EVERY, True), (1, False)):
        suite = make_oracles({"enabled": ["texture"], "texture_model": str(path), **MECHANICS,
                              "texture_every": every, "texture_new_boxes_only": new})
        suite.reset()
        found = [f for step, x in enumerate(obs) for f in suite.check(x, step)]
        results[(every, new)] = ([f.signature for f in found], suite.oracles[0].classified)
    assert results[(DEFAULT_EVERY, True)][0] == ["texture:barrel:lowres"] == results[(1, False)][0]
    assert results[(DEFAULT_EVERY, True)][1] < results[(1, False)][1]
