"""Worker snapshots (Go-Explore's return): a parked fork of the episode process, resumed as the live
episode any number of times; real processes, compared with replaying the trace."""

from __future__ import annotations

from conftest import fixture_spec

from playtester.drive.spec import resolve
from playtester.env import resolve_space


def _play(worker, actions):
    return [(o.features, o.frame.tobytes()) for o in (worker.act(a) for a in actions)]


def test_restore_continues_exactly_as_replaying_the_trace_and_can_be_repeated(worker_for):
    spec = resolve("blockmaze")
    w = worker_for(spec, space=resolve_space(spec, None), capture=(48, 48))
    prefix, after = [3, 3, 1, 1, 3], [1, 3, 1, 2, 0, 3, 3, 1]
    w.reset(seed=7)
    for a in prefix:
        at = w.act(a)
    sid = w.snapshot()
    assert sid is not None and w.snapshot_count == 1
    runs = []
    for _ in range(3):
        obs = w.restore(sid)
        assert obs is not None and obs.features == at.features and w.steps == len(prefix)
        assert not obs.checks and not obs.events  # the snapshot step's findings are not reported twice
        runs.append(_play(w, after))
    w.reset(seed=7)
    for a in prefix:
        w.act(a)
    assert runs[0] == runs[1] == runs[2] == _play(w, after)  # same game state as the trace replayed
    w.drop_snapshot(sid)
    assert w.restore(sid) is None and w.snapshot_count == 0


def test_a_restored_episode_draws_the_same_random_numbers_as_the_trace(worker_for):
    # combat rolls its damage and the boss's moves with the module-level random, which CPython reseeds
    # in every forked child: the restored episode must get the snapshot's generator state back
    import random

    spec = resolve("combat")
    space = resolve_space(spec, None)
    w = worker_for(spec, space=space)
    rng = random.Random(1)
    prefix, after = [rng.randrange(len(space)) for _ in range(100)], [rng.randrange(len(space)) for _ in range(60)]
    w.reset(seed=5)
    for a in prefix:
        w.act(a)
    sid = w.snapshot()
    played = [w.act(a).features for a in after]
    assert len({f["score"] for f in played}) > 1  # hits were rolled after the snapshot
    w.restore(sid)
    assert [w.act(a).features for a in after] == played


def test_a_crash_after_a_restore_is_reported_and_the_snapshot_survives_it(worker_for):
    spec = fixture_spec("raise_at", game_args={"n": 8})
    w = worker_for(spec, space=resolve_space(spec, "blind"), capture=None)
    w.reset(seed=0)
    w.act(0, frames=2)
    sid = w.snapshot()
    for _ in range(2):
        assert w.restore(sid) is not None
        obs = w.act(0, frames=10)
        assert obs.done and obs.exit.kind == "exception" and "boom at frame 8" in obs.exit.message
    # a fresh episode after resumed ones: the host is back in charge
    assert not w.reset(seed=1).done


def test_snapshots_die_with_a_restarted_worker(worker_for):
    spec = fixture_spec("forever", step_timeout_s=1.0)
    w = worker_for(spec, space=resolve_space(spec, "blind"), capture=None)
    first = w.reset(seed=0)
    assert first is not None
    sid = w.snapshot()
    assert sid is not None
    obs = w.act(0)  # the game loops forever: a hang, the worker is killed
    assert obs.exit.kind == "hang"
    assert w.restore(sid) is None  # gone with the old worker: the caller replays the trace instead
