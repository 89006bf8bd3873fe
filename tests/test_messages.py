"""The messages between the parent, the worker host and the episode process (issue 58): every kind goes through
`encode` / `decode` and comes back equal, over a real connection too; a kind or version this side does not know is
refused with an error that names both; the episode's command loop refuses what is no command."""

from __future__ import annotations

import dataclasses
import pickle
import socket
from multiprocessing.connection import Connection

import numpy as np
import pytest

from playtester.drive import messages as wire
from playtester.drive.episode import dumps, recv, send, send_many
from playtester.drive.inputs import InputFrame
from playtester.drive.observation import EpisodeOptions, GameExit, Observation


def _obs(**info) -> Observation:
    return Observation(frame=np.arange(12, dtype=np.uint8).reshape(2, 2, 3), features={"x": 1.5}, frame_no=7,
                       action_mask=np.array([1, 0, 1], dtype=np.int8), info=dict(info))


class _Plan:
    def __init__(self, n: int) -> None:
        self.n = n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Plan) and other.n == self.n

    def choose(self, mask):  # pragma: no cover - never played here
        return self.n


def _one_of_each() -> list[wire.Message]:
    obs = _obs()
    return [
        wire.StartEpisode("spec", 3, None, EpisodeOptions(capture="full")), wire.Resume(41), wire.Quit(),
        wire.Ready(12), wire.Exited(13, 256, 2048), wire.ResumeFailed(41),
        wire.Step(InputFrame.make(keys=["a"]), 4, 2, (84, 84)), wire.Act(2, 4, "full"),
        wire.Ahead(1, 4, None, _Plan(5), 8), wire.Stop(), wire.End(), wire.Call("mod:fn", (1, "two")),
        wire.TakeSnapshot(), wire.Hello(99, ahead=True), wire.Answer(obs),
        wire.Batch((wire.BatchStep(dumps(obs), 1, True, 2), wire.BatchStep(obs, 2, False, None, _Plan(3)))),
        wire.Final(Observation(frame=None, done=True, info={"exit": GameExit("crash", message="boom")}), 2),
        wire.Reply("memory", "out of memory"), wire.SnapshotTaken(None), wire.Coverage({"game.py": [1, 2]}),
        wire.SpecError("no such game"), wire.Broken("EOFError()"),
        wire.Checked(obs, findings=("f1",), state_key="k", judged=[("barrel", 0.9)], notes={"n": 1}, watched=True),
        wire.Steps((wire.Checked(obs),), (3,), 5), wire.Called(True, 7, (wire.Checked(obs),), (1,)),
        wire.WorkerState(4, 1024, {"g.py": [3]}, 1, 2),
    ]


def _norm(x: object) -> object:
    """``x`` as nested plain values: dataclasses and objects by type and fields, arrays by dtype, shape and bytes."""
    if isinstance(x, np.ndarray):
        return ("array", str(x.dtype), x.shape, x.tobytes())
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, tuple((f.name, _norm(getattr(x, f.name))) for f in dataclasses.fields(x)))
    if isinstance(x, dict):
        return ("dict", tuple((k, _norm(v)) for k, v in x.items()))
    if isinstance(x, list | tuple):
        return (type(x).__name__, tuple(_norm(v) for v in x))
    if hasattr(x, "__dict__"):
        return (type(x).__name__, _norm(vars(x)))
    return x


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and _norm(a) == _norm(b)


def test_every_kind_is_covered_once():
    kinds = {type(m) for m in _one_of_each()}
    assert kinds == set(wire.KINDS.values())
    assert len({c.kind for c in kinds}) == len(kinds)  # a kind names one message


@pytest.mark.parametrize("msg", _one_of_each(), ids=lambda m: type(m).__name__)
def test_every_message_round_trips(msg):
    data = wire.encode(msg)
    assert data[:2] == (type(msg).kind, type(msg).version)
    back = wire.decode(pickle.loads(dumps(data)))
    assert _same(back, msg)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(back, next(iter(f.name for f in dataclasses.fields(back)), "x"), 1)


def test_messages_cross_a_real_connection_one_by_one_and_together():
    a, b = socket.socketpair()
    left, right = Connection(a.detach()), Connection(b.detach())
    try:
        msgs = _one_of_each()
        send(left, msgs[0])
        send_many(left, msgs[1:])
        got = [recv(right) for _ in msgs]
        assert all(_same(x, y) for x, y in zip(got, msgs, strict=True))
    finally:
        left.close()
        right.close()


def test_an_unknown_version_is_refused_naming_kind_and_version():
    data = ("obs", 2, _obs())
    with pytest.raises(wire.MessageError, match=r"'obs' of version 2.*speaks version 1"):
        wire.decode(data)


def test_an_unknown_kind_is_refused_naming_kind_and_version():
    with pytest.raises(wire.MessageError, match=r"unknown message kind 'teleport' \(version 1\)"):
        wire.decode(("teleport", 1, 3))


@pytest.mark.parametrize("data", [("bobs",), ["obs", 1, None], "obs", None])
def test_what_is_not_a_message_is_refused(data):
    with pytest.raises(wire.MessageError, match="not a playtester message"):
        wire.decode(data)


def test_fields_that_do_not_fit_are_refused():
    with pytest.raises(wire.MessageError, match=r"'exited' of version 1 does not fit its fields \(pid, status"):
        wire.decode(("exited", 1))
    with pytest.raises(wire.MessageError, match=r"'bobs'"):
        wire.decode(("bobs", 1, [(1, 2)]))


def test_a_checked_step_puts_its_fields_into_info_as_users_read_them():
    obs = wire.Checked(_obs(exit=None), findings=("f",), state_key=None, judged=["j"], notes={"n": 2},
                       watched=True).observation()
    assert obs.info == {"exit": None, "findings": ["f"], "state_key": None, "judged": ["j"], "n": 2}
    bare = wire.Checked(_obs()).observation()
    assert bare.info == {}  # nothing measured: no key (OracleWatch reads "no findings" from the absence)


def test_the_episode_loop_refuses_what_is_no_command():
    from playtester.drive import episode

    a, b = socket.socketpair()
    parent, child = Connection(a.detach()), Connection(b.detach())

    class Ep:
        conn = child
        capture = None

        def over(self):
            return False

    try:
        send(parent, wire.Hello(1))
        with pytest.raises(wire.MessageError, match=r"'hello' \(version 1\).*no command"):
            episode.serve(Ep())  # type: ignore[arg-type]
        parent.send(("step", 9, InputFrame.make(), 1, None, None))
        with pytest.raises(wire.MessageError, match=r"'step' of version 9"):
            episode.serve(Ep())  # type: ignore[arg-type]
    finally:
        parent.close()
        child.close()
