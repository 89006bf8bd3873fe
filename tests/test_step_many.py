"""Steps sent together (`Worker.step_many`): the same game as step by step, stopped at the end, hangs caught."""

from __future__ import annotations

import numpy as np
from conftest import fixture_spec

from playtester.drive.inputs import InputFrame
from playtester.drive.spec import resolve
from playtester.findings import Trace
from playtester.replay import REPLAY_CHUNK, run_trace


def _keys(*names: str) -> InputFrame:
    return InputFrame.make(keys=list(names))


def test_steps_sent_together_play_exactly_as_one_by_one(worker_for):
    spec = resolve("dungeon")
    plan = [(_keys(k), 3) for k in ["RIGHT", "RIGHT", "DOWN", "LEFT", "UP", "SPACE", "DOWN", "DOWN"] * 3]
    one = worker_for(spec, capture=(32, 32))
    one.reset(seed=5)
    singles = [one.step(inputs, frames=n) for inputs, n in plan]
    many = worker_for(spec, capture=(32, 32))
    many.reset(seed=5)
    batched = many.step_many(plan)
    assert len(batched) == len(plan) and many.steps == one.steps == len(plan)
    for a, b in zip(singles, batched, strict=True):
        assert a.frame_no == b.frame_no and a.features == b.features
        assert np.array_equal(a.frame, b.frame)
        assert [e.name for e in a.events] == [e.name for e in b.events]
    assert batched[-1].features != batched[0].features  # the keys did move the game


def test_a_batch_stops_at_the_end_of_the_episode_and_the_worker_goes_on(worker_for):
    # done_when: the episode process stays up and answers the queued commands with its final state
    w = worker_for(fixture_spec("echo_inputs", done_when="frame >= 7"))
    start = w.reset(seed=0).features["frame"]
    out = w.step_many([(InputFrame(), 2)] * 10)
    assert len(out) == (7 - start + 1) // 2 < 10 and out[-1].done and not any(o.done for o in out[:-1])
    assert out[-1].features["frame"] == 7
    obs = w.reset(seed=1)  # nothing of the dropped answers is left on the line
    assert not obs.done and w.step_many([(InputFrame(), 1)] * 3)[-1].features["frame"] == obs.features["frame"] + 3
    # a game that crashes: its process is gone, the queued commands are never played
    w2 = worker_for(fixture_spec("raise_at", game_args={"n": 6}))
    w2.reset(seed=0)
    out = w2.step_many([(InputFrame(), 1)] * 20)
    assert out[-1].done and out[-1].exit.kind == "exception" and len(out) < 20
    assert not w2.reset(seed=0).done and not w2.step(InputFrame(), frames=1).done


def test_a_hang_inside_a_batch_is_the_hang_of_that_step(worker_for):
    w = worker_for(fixture_spec("forever", step_timeout_s=1.0))
    w.reset(seed=0)
    out = w.step_many([(InputFrame(), 1)] * 6)
    assert out[-1].done and out[-1].exit.kind == "hang" and "forever.py" in out[-1].exit.frames[-1].file
    assert len(out) <= 3  # frame 3 spins: the steps queued behind it were not played


def test_replay_in_chunks_stops_where_the_signature_fires():
    from playtester.actions.space import space_to_dict
    from playtester.env import GameEnv

    spec = fixture_spec("buggy")
    env = GameEnv(spec, actions="blind", obs_type="features", capture=None)
    try:
        names = [a.name for a in env.space.actions]
        space = space_to_dict(env.space)
    finally:
        env.close()
    idle, log_error = names.index("release a"), names.index("press e")
    at = REPLAY_CHUNK + 3  # the error is logged in the second chunk the replay sends
    actions = [idle] * (at - 1) + [log_error] + [idle] * (2 * REPLAY_CHUNK)
    trace = Trace(spec.text, spec.config.model_dump(mode="json"), 0, space, actions)
    whole = run_trace(trace)
    fired = whole.fired_at(next(f.signature for f in whole.findings if f.kind == "error_log"))
    assert fired == at and whole.steps == len(actions) and not whole.done
    stopped = run_trace(trace, stop_on=next(f.signature for f in whole.findings if f.kind == "error_log"))
    assert stopped.steps == at and stopped.fired_at(stopped.findings[-1].signature) == at
