"""The park's scripted demonstrations (bench/park_demos.py): an inspection sees every face of its object, a
path demonstration stays on the paths of the demonstration region, and both replay from their trace."""

from __future__ import annotations

import random
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _demos():
    sys.path.insert(0, str(BENCH))
    try:
        import park_demos
    finally:
        sys.path.remove(str(BENCH))
    return park_demos


def _replay(trace):
    from playtester.drive.spec import resolve
    from playtester.env import GameEnv, space_from_dict

    env = GameEnv(resolve(trace.game, **trace.config), actions=space_from_dict(trace.space), capture=None)
    try:
        env.reset(seed=trace.seed)
        seen = []
        for a in trace.actions:
            env.step(a)
            seen.append(env.last_obs)
        return seen
    finally:
        env.close()


def test_an_inspection_sees_every_face_and_replays_from_its_trace():
    from playtester.actions.space import space_to_dict
    from playtester.drive.spec import resolve
    from playtester.env import GameEnv
    from playtester.findings import Trace

    pd = _demos()
    spec = resolve("park")
    env = GameEnv(spec, capture=None)
    try:
        demo = pd.Demonstrator(env, 50002)
        ooi = demo.inspect()
        assert ooi is not None and len(demo.oois()[ooi].attrs["seen_faces"]) == 8
        trace = Trace(spec.text, spec.config.model_dump(mode="json"), 50002, space_to_dict(env.space), demo.actions)
    finally:
        env.close()
    last = _replay(Trace.from_json(trace.to_json()))[-1]
    assert len(last.entities[ooi].attrs["seen_faces"]) == 8  # the trace alone gets there again


def test_a_path_demonstration_stays_on_the_paths_of_its_region():
    from playtester.env import GameEnv

    pd = _demos()
    env = GameEnv("park", capture=None)
    try:
        seed = next(s for s in range(50001, 50100) if pd.in_demo_region(*pd.Demonstrator(env, s).pose()[:2]))
        demo = pd.Demonstrator(env, seed)
        seen, act = [], demo.act

        def recording(name):
            ok = act(name)
            seen.append((demo.obs.features["on_path"], demo.obs.features["x"]))
            return ok

        demo.act = recording
        assert demo.follow_paths(random.Random(seed), steps=150)
        assert len(seen) == 150 and len(demo.actions) == 150
        assert sum(on for on, _ in seen) / len(seen) >= 0.95  # on a path (or bridge) nearly all the time
        assert all(pd.in_demo_region(x, 0) for _, x in seen)  # and never outside the demonstration region
    finally:
        env.close()
