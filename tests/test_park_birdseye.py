"""The bird's-eye maps of ``playtester explore``'s report: the `BirdsEyeWatch` observer records each episode's
position trace and the objects of interest it tested (faces from the probe, verdicts from the texture oracle's
judgements matched by screen box); the report draws both maps from that record."""

from __future__ import annotations

import base64
import json
import os
import re
from types import SimpleNamespace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from playtester.campaign.loop import Slot, Step  # noqa: E402
from playtester.campaign.observers import BIRDSEYE_FILE, BirdsEyeWatch  # noqa: E402
from playtester.drive.observation import Entity  # noqa: E402
from playtester.report.images import png_decode  # noqa: E402
from playtester.report.maps import STATUS_RGB, load_birdseye, object_status  # noqa: E402


def _images(html_text: str) -> list[bytes]:
    section = html_text[html_text.index('id="birdseye"'):]
    section = section[:section.index("</section>")]
    return [base64.b64decode(m) for m in re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', section)]


def test_explore_on_the_park_writes_both_birdseye_maps_with_a_dot_per_probe_object(tmp_path):
    from playtester.campaign import Budget, explore
    from playtester.drive import Worker
    from playtester.drive.spec import resolve
    from playtester.env import default_space
    from playtester.report import write_report

    spec = resolve("park").with_config(oracles={"texture_model": None}, max_episode_steps=50)
    with Worker(spec, space=default_space(spec), capture=None) as w:
        obs = w.reset(seed=0)
        probe_objects = {k: e for k, e in obs.entities.items() if "bug_faces" in e.attrs}
    assert len(probe_objects) == 38

    result = explore(spec, out=tmp_path, budget=Budget(steps=120), code_coverage=False, replay_known=False,
        finalize=False)
    record = tmp_path / BIRDSEYE_FILE.format(cid=result.campaign_id)
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(lines[0]["map"]) == 96 and {o["id"] for o in lines[0]["objects"]} == set(probe_objects)
    episodes = lines[1:]
    assert len(episodes) == result.episodes == 3  # 50 + 50 + the 20 steps the budget ended
    assert all(len(ep["trace"]) >= 1 for ep in episodes)

    text = write_report(result.store, result.campaign_id, tmp_path / "report.html").read_text()
    traces_png, status_png = _images(text)
    assert f"Exploration traces ({result.episodes} episodes)" in text
    assert "Objects of interest (38)" in text
    counts = {s: int(n) for s, n in re.findall(r"<span>([^<:]+): (\d+)</span>", text[text.index('id="birdseye"'):])}
    assert sum(counts.values()) == len(probe_objects)
    assert counts["missed"] + counts["tested, no verdict (no texture oracle)"] == len(probe_objects)  # no oracle ran

    status = png_decode(status_png)
    plain = png_decode(traces_png)
    assert status.shape == plain.shape == (96 * 6, 96 * 6, 3)
    colours = {tuple(c) for c in STATUS_RGB.values()}
    for e in probe_objects.values():  # a dot at each object (the centre pixel, or the next one if a neighbour's
        x, y = int(e.pos[0] * 6), int(e.pos[1] * 6)  # outline crosses it)
        near = {tuple(int(v) for v in status[y + dy, x + dx]) for dy in (-1, 0, 1) for dx in (-1, 0, 1)}
        assert near & colours, e.id
    # the traces are drawn where the player stood
    first = episodes[0]["trace"][0]
    assert tuple(plain[int(first[1] * 6), int(first[0] * 6)]) == (220, 30, 30)


# ---- the verdicts: the texture oracle's judgements matched to the probe's objects by screen box


def _ooi(box, face, seen, bug_faces, distance=3.0):
    return Entity("ooi-1", "barrel", (10.0, 10.0), {"bug_faces": bug_faces, "seen_faces": tuple(seen),
                                                     "screen_box": box, "face": face, "distance": distance})


class _Oracle:
    kind = "texture"
    judge = object()

    def __init__(self):
        self.last_judged = None


def _play(watch, oracle, frames):
    slot = Slot(0, SimpleNamespace(), None, seed=7, suite=SimpleNamespace(oracles=[oracle]))
    watch.header = True  # the map and objects are not needed here
    watch.on_episode_start(slot, True)
    for i, (entity, judgements) in enumerate(frames):
        obs = SimpleNamespace(features={"x": 1.0 + i, "y": 2.0}, entities={"ooi-1": entity})
        oracle.last_judged = (i, judgements)
        watch.on_step(Step(slot, i, None, None, None, None, 0.0, False, False, {}, obs))
    watch.on_episode_end(slot, "finished", "")


def _j(box, verdict):
    return SimpleNamespace(box=box, verdict=verdict, kind="barrel", p=0.99, score=0.9)


def test_verdicts_are_majority_per_face_and_objects_are_ok_wrong_or_missed(tmp_path):
    bugs = ["none", "lowres", "none", "none", "stretched", "none", "none", "none"]
    box = [100.0, 100.0, 160.0, 200.0]
    frames = []
    for face in range(8):
        verdict = {"none": "normal"}.get(bugs[face], bugs[face])
        seen = range(face + 1)
        frames.append((_ooi(box, face, seen, bugs), [_j([102, 98, 158, 203], verdict)]))  # IoU ~0.9
        if face == 1:  # a wrong verdict outvoted on face 1, and a far-off detection matching nothing
            frames.append((_ooi(box, face, seen, bugs), [_j([102, 98, 158, 203], "normal"), _j([0, 0, 40, 40], "x")]))
            frames.append((_ooi(box, face, seen, bugs), [_j([101, 100, 160, 200], "lowres")]))
    path = tmp_path / "b.jsonl"
    watch = BirdsEyeWatch(path)
    _play(watch, _Oracle(), frames)
    ep = json.loads(path.read_text().splitlines()[-1])
    assert ep["faces"] == {"ooi-1": list(range(8))} and ep["judged"]
    assert ep["votes"]["ooi-1"]["1"] == {"lowres": 2, "normal": 1}
    assert "x" not in json.dumps(ep["votes"])
    objects = [{"id": "ooi-1", "kind": "barrel", "x": 10, "y": 10, "bug_faces": bugs}]
    assert object_status(objects, [ep])[0]["status"] == "ok"

    # the stretched face judged normal: tested, verdict wrong
    wrong = [(e, [_j(js[0].box, "normal")] if e.attrs["face"] == 4 else js) for e, js in frames]
    path2 = tmp_path / "c.jsonl"
    _play(BirdsEyeWatch(path2), _Oracle(), wrong)
    ep2 = json.loads(path2.read_text().splitlines()[-1])
    assert object_status(objects, [ep2])[0]["status"] == "wrong"
    assert object_status(objects, [ep2, ep])[0]["status"] == "ok"  # right in some episode

    # a face too far (beyond the game's 6 tiles) gets no vote; seven faces seen: missed
    far = [(_ooi(box, e.attrs["face"], range(min(7, e.attrs["face"] + 1)), bugs, distance=9.0), js) for e, js in frames]
    path3 = tmp_path / "d.jsonl"
    _play(BirdsEyeWatch(path3), _Oracle(), far)
    ep3 = json.loads(path3.read_text().splitlines()[-1])
    assert ep3["votes"] == {} and object_status(objects, [ep3])[0]["status"] == "missed"
    assert object_status(objects, [{**ep, "judged": False}])[0]["status"] == "tested"  # no texture oracle


def test_traces_are_thinned_to_a_bounded_size_and_the_map_falls_back_to_blank_tiles(tmp_path):
    path = tmp_path / "b.jsonl"
    watch = BirdsEyeWatch(path, max_points=100)
    slot = Slot(0, SimpleNamespace(), None, seed=1)
    watch.on_episode_start(slot, True)
    ooi = _ooi(None, None, (), ["none"] * 8)
    for i in range(5000):  # a walk of 0.3 tiles a step
        obs = SimpleNamespace(features={"x": 5 + 0.3 * (i % 100), "y": 5 + 0.3 * (i // 100)},
                              entities={"ooi-1": ooi})
        watch.on_step(Step(slot, i, None, None, None, None, 0.0, False, False, {}, obs))
    watch.on_episode_end(slot, "finished", "")
    head, ep = (json.loads(line) for line in path.read_text().splitlines())
    assert head["map"] is None and [o["id"] for o in head["objects"]] == ["ooi-1"]  # no layout hook: no rows
    assert 50 <= len(ep["trace"]) <= 100
    view = load_birdseye(path)
    assert view is not None and view.episodes == 1 and len(view.rows) >= 20 and len(view.rows[0]) >= 34
    assert [o["status"] for o in view.objects] == ["missed"]


def test_a_game_with_positions_but_no_map_and_no_objects_gets_no_birdseye_record(tmp_path):
    path = tmp_path / "b.jsonl"
    watch = BirdsEyeWatch(path)
    slot = Slot(0, SimpleNamespace(), None, seed=1)
    watch.on_episode_start(slot, True)
    for i in range(10):
        obs = SimpleNamespace(features={"x": float(i), "y": 0.0}, entities={})
        watch.on_step(Step(slot, i, None, None, None, None, 0.0, False, False, {}, obs))
    watch.on_episode_end(slot, "finished", "")
    assert not path.exists() and load_birdseye(path) is None
