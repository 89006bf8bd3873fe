"""The protocol's optional speed features (docs/protocol.md): answers in Godot's binary Variant format, answers
with only the entities that changed (``delta``), several steps per request (``then``), and the game's stderr read
without a thread (a game that floods it still answers)."""

from __future__ import annotations

import os
import random
import shutil
import struct
import sys
from pathlib import Path

import pytest

from playtester.drive.remote import (
    EntityTable,
    ProtocolError,
    RemoteGame,
    action_sets,
    decode_variant,
    encode_variant,
    observation_of,
    parse_body,
)

REQUIRE = os.environ.get("PLAYTESTER_REQUIRE_GODOT") == "1"
HERE = Path(__file__).resolve().parent


# ------------------------------------------------------------------------------------------ Variant
def test_variant_round_trip_of_what_observations_hold():
    value = {"type": "observation", "seq": 2**40, "n": -3, "x": 0.5, "d": 0.1, "ok": True, "none": None,
             "s": "héllo", "entities": [{"id": "P", "pos": [1.5, -2.0], "props": {}}], "raw": b"\x01\x02\x03"}
    data = encode_variant(value)
    assert data[:4] == b"\x12\x00\x00\x00" and len(data) % 4 == 0
    assert decode_variant(data) == value
    assert parse_body(data) == value


def test_variant_reads_godot_types_written_by_hand():
    vec2 = struct.pack("<I2f", 5, 1.5, -2.0)
    color = struct.pack("<I4f", 14, 1.0, 0.5, 0.25, 1.0)
    strings = struct.pack("<II", 23, 2) + struct.pack("<I", 3) + b"ab\0\0" + struct.pack("<I", 2) + b"c\0\0\0"
    ints = struct.pack("<II3i", 21, 3, 1, -2, 3)
    path = struct.pack("<I", 15) + struct.pack("<III", 0x80000000 | 2, 1, 0) + b"".join(
        struct.pack("<I", len(p)) + p.encode() + b"\0" * (-len(p) % 4) for p in ("Main", "Player", "position"))
    arr = struct.pack("<II", 19, 5) + vec2 + color + strings + ints + path
    assert decode_variant(arr) == [[1.5, -2.0], [1.0, 0.5, 0.25, 1.0], ["ab", "c"], [1, -2, 3], "Main/Player:position"]


@pytest.mark.parametrize("body", [b"\x12\x00\x00\x00\x05\x00\x00\x00", b"[1, 2]", b"\x13\x00\x00\x00", b"nonsense"])
def test_broken_bodies_are_protocol_errors(body):
    with pytest.raises(ProtocolError):
        parse_body(body)


# ------------------------------------------------------------------------------------------ stderr
def test_a_game_that_floods_its_stderr_during_a_step_still_answers_and_its_errors_are_kept():
    g = RemoteGame([sys.executable, str(HERE / "flood_game.py")], "flood", env={"FLOOD_BYTES": "300000"},
                   start_timeout=20)
    try:
        for k in range(3):
            reply = g.request({"type": "step", "inputs": {"actions": []}, "frames": 2}, timeout=20)
            assert reply["frame_no"] == 2 * (k + 1)
            # this step's error line, and only this step's: it came after 300 KB of noise (a pipe holds 64 KB)
            assert [(r.file, r.line) for r in reply["logs_parsed"]] == [("res://flood.gd", 2 * (k + 1))]
    finally:
        g.close()


# ------------------------------------------------------------------------------------------ the add-on
def _run_game(game, tmp_path):
    """``godot:GAME`` started through the add-on, as a `RemoteGame` speaking the protocol directly."""
    if shutil.which("godot3-server") is None:
        if REQUIRE:
            pytest.fail("godot3-server is not installed and PLAYTESTER_REQUIRE_GODOT=1")
        pytest.skip("godot3-server is not installed (apt-get install godot3-server, or make godot)")
    from playtester.drive import godot
    from playtester.drive.observation import EpisodeOptions
    from playtester.drive.spec import resolve

    launch = godot._launch(resolve(f"godot:{game}"), EpisodeOptions(hang_dump=str(tmp_path / "hang.txt")), False)
    return RemoteGame(launch.command, "godot", launch.cwd, launch.env, start_timeout=30)


@pytest.fixture
def coinhop(tmp_path):
    g = _run_game("coinhop", tmp_path)
    yield g
    g.close()


def _play(g, reset, steps, table=None):
    """The observations of a reset and the steps (inputs, frames), each as playtester reads it."""
    out = [observation_of(g.request(reset, 10), None, table)]
    for inputs, frames in steps:
        out.append(observation_of(g.request({"type": "step", "inputs": {"actions": list(inputs)}, "frames": frames},
                                            10), None, table))
    return out


def _random_steps(g, n, seed):
    sets = action_sets(g.hello.actions)
    rng = random.Random(seed)
    return [(sets[rng.randrange(len(sets))], 10) for _ in range(n)]


def test_the_addon_offers_the_speed_features(coinhop):
    caps = coinhop.hello.capabilities
    assert caps["encodings"] == ["json", "godot-variant"] and caps["delta"] is True and caps["batch"] is True
    assert caps["compact"] is True


def test_variant_answers_read_as_the_json_ones(coinhop):
    steps = _random_steps(coinhop, 60, 1)
    a = _play(coinhop, {"type": "reset", "seed": 5}, steps)
    b = _play(coinhop, {"type": "reset", "seed": 5, "encoding": "godot-variant"}, steps)
    assert len(a) == len(b) == 61
    for x, y in zip(a, b, strict=True):
        assert sorted(x.entities) == sorted(y.entities) and x.frame_no == y.frame_no
        assert x.features.keys() == y.features.keys()
        # Godot's JSON writes about 6 significant digits; the Variant is the exact float
        assert all(y.features[k] == pytest.approx(v, rel=1e-5, abs=1e-3) for k, v in x.features.items())
        assert [e.name for e in x.events] == [e.name for e in y.events]


def test_delta_answers_merge_into_the_same_observations_and_gone_entities_leave(coinhop):
    steps = _random_steps(coinhop, 80, 2)
    whole = _play(coinhop, {"type": "reset", "seed": 7}, steps)
    table = EntityTable()
    delta = _play(coinhop, {"type": "reset", "seed": 7, "delta": True}, steps, table)
    for x, y in zip(whole, delta, strict=True):
        assert x.features == y.features and x.entities == y.entities
    # the answers themselves are smaller: the coins do not move, so they are not sent again
    reply = coinhop.request({"type": "step", "inputs": {"actions": []}, "frames": 1}, 10)
    assert reply["delta"] is True and "Coin2" not in {e["id"] for e in reply["entities"]}
    score = observation_of(reply, None, table).features["main_score"]
    assert "coin2" in table.entities
    # a collected coin is freed: it is "gone", and leaves the merged entities and features
    assert coinhop.request({"type": "call", "name": "teleport", "args": [200, 200]}, 10)["status"] == "ok"
    reply = coinhop.request({"type": "step", "inputs": {"actions": []}, "frames": 5}, 10)
    assert reply["gone"] == ["Coin2"]
    obs = observation_of(reply, None, table)
    assert "coin2" not in obs.entities and "coin2_x" not in obs.features and obs.features["main_score"] == score + 1


def test_compact_answers_decode_to_the_same_observations_as_whole_ones(coinhop):
    steps = _random_steps(coinhop, 120, 4)
    whole = _play(coinhop, {"type": "reset", "seed": 9}, steps)
    table = EntityTable()
    compact = _play(coinhop, {"type": "reset", "seed": 9, "delta": True, "compact": True}, steps, table)
    assert len(whole) == len(compact) == 121
    for x, y in zip(whole, compact, strict=True):
        assert x.features == y.features and x.entities == y.entities and x.frame_no == y.frame_no
        assert list(x.features) == list(y.features) and list(x.entities) == list(y.entities)
        assert [(e.name, e.data, e.frame) for e in x.events] == [(e.name, e.data, e.frame) for e in y.events]
    # the answer itself: the changed entities as one flat list, their schemas sent once (in the reset's answer)
    reply = coinhop.request({"type": "step", "inputs": {"actions": ["move_right"]}, "frames": 2}, 10)
    assert reply["compact"] is True and "new" not in reply and "entities" not in reply
    listed, i, flat = [], 0, reply["ent"]
    while i < len(flat):  # each entity: its index, its values, its x and y
        sch = table.schemas[flat[i]]
        listed.append(sch.eid)
        i += 1 + sch.count + 2 * sch.pos
    assert "player" in listed and not any(e.startswith("coins_") for e in listed)
    score = observation_of(reply, None, table).features["main_score"]
    # a collected coin is freed: its index is "gone", and it leaves the merged entities and features
    assert coinhop.request({"type": "call", "name": "teleport", "args": [200, 200]}, 10)["status"] == "ok"
    reply = coinhop.request({"type": "step", "inputs": {"actions": []}, "frames": 5}, 10)
    assert [table.schemas[i].eid for i in reply["gone"]] == ["coin2"]
    obs = observation_of(reply, None, table)
    assert "coin2" not in obs.entities and "coin2_x" not in obs.features
    assert obs.features["main_score"] == score + 1
    # the same in Godot's Variant format (the flat list in a Variant Dictionary)
    table = EntityTable()
    variant = _play(coinhop, {"type": "reset", "seed": 9, "delta": True, "compact": True, "encoding": "godot-variant"},
                    steps, table)
    for x, y in zip(whole, variant, strict=True):
        assert sorted(x.entities) == sorted(y.entities) and x.features.keys() == y.features.keys()
        assert all(y.features[k] == pytest.approx(v, rel=1e-5, abs=1e-3) for k, v in x.features.items())


def test_compact_decoding_by_hand():
    table = EntityTable()
    reply = {"type": "observation", "compact": True, "seq": 1, "frame_no": 10, "time_ms": 167,
             "new": [[0, "Player", "player", ["hp", "velocity", "target"], True], [1, "Main", "main", ["score"], False]],
             "ent": [0, 3, [1.5, 2.0], None, 10, 20.5, 1, 0]}
    obs = observation_of(reply, None, table)
    assert obs.features == {"player_hp": 3.0, "player_x": 10.0, "player_y": 20.5, "x": 10.0, "y": 20.5,
                            "main_score": 0.0}
    assert obs.entities["player"].attrs == {"hp": 3, "velocity": [1.5, 2.0]} and obs.entities["main"].pos is None
    obs = observation_of({"type": "observation", "compact": True, "seq": 2, "ent": [1, 4], "gone": [0]}, None, table)
    assert obs.features == {"main_score": 4.0} and list(obs.entities) == ["main"]
    with pytest.raises(ProtocolError):  # an index with no schema, a list cut short
        observation_of({"type": "observation", "compact": True, "ent": [5, 1]}, None, table)
    with pytest.raises(ProtocolError):
        observation_of({"type": "observation", "compact": True, "ent": [1]}, None, table)


def test_a_batch_of_steps_answers_once_as_the_steps_one_by_one(coinhop):
    steps = [(("move_right",), 10), (("jump", "move_right"), 5), ((), 7), (("move_left",), 12)]
    one_by_one = _play(coinhop, {"type": "reset", "seed": 3}, steps)[-1]
    observation_of(coinhop.request({"type": "reset", "seed": 3}, 10), None)
    first, *rest = steps
    reply = coinhop.request({"type": "step", "inputs": {"actions": list(first[0])}, "frames": first[1],
                             "then": [{"inputs": {"actions": list(i)}, "frames": f} for i, f in rest]}, 10)
    batched = observation_of(reply, None)
    assert batched.frame_no == one_by_one.frame_no == 34
    assert batched.features == one_by_one.features


def test_joined_answers_come_in_one_message_and_read_as_each_step_answered_alone(coinhop, monkeypatch):
    """``each`` with ``join``: the batch's answers in one ``observations`` message after its last step, each with its
    own seq, error lines and sync line; the observations are those of the same steps answered one by one."""
    assert coinhop.hello.capabilities["batch_joined"] is True
    steps = _random_steps(coinhop, 24, 6)
    reset = {"type": "reset", "seed": 11, "delta": True, "compact": True}
    table = EntityTable()
    alone = _play(coinhop, reset, steps, table)
    runs = {}
    for join in ("0", "1"):
        monkeypatch.setenv("PLAYTESTER_REMOTE_JOIN", join)
        table = EntityTable()
        got = [observation_of(coinhop.request(reset, 10), None, table)]
        read = []
        for k in range(0, len(steps), 8):
            seqs = coinhop.submit_steps([{"type": "step", "inputs": {"actions": list(i)}, "frames": f}
                                         for i, f in steps[k:k + 8]])
            for q in seqs:
                reply = coinhop.answer(q, 10)
                assert reply["seq"] == q and reply["type"] == "observation"
                got.append(observation_of(reply, None, table))
                read.append(len(coinhop._joined))  # answers of the message read and not taken yet
        runs[join] = (got, read)
    for got, _ in runs.values():
        assert len(got) == len(alone) == 25
        for x, y in zip(alone, got, strict=True):
            assert x.features == y.features and x.entities == y.entities and x.frame_no == y.frame_no
            assert [(e.name, e.data, e.frame) for e in x.events] == [(e.name, e.data, e.frame) for e in y.events]
    assert runs["1"][1] == [7, 6, 5, 4, 3, 2, 1, 0] * 3  # one message for each request of 8 steps
    assert set(runs["0"][1]) == {0}


def test_a_broken_joined_message_is_a_protocol_error(coinhop):
    coinhop._rbuf += b"\x00\x00\x00\x2c" + b'{"type": "observations", "answers": "oops"} '
    with pytest.raises(ProtocolError, match="observations"):
        coinhop._next_message(None)


# ------------------------------------------------------------------------------------------ what an entity holds
SPATIAL_SCENE = """[gd_scene load_steps=3 format=2]

[ext_resource path="res://rover.gd" type="Script" id=1]
[ext_resource path="res://world.gd" type="Script" id=2]

[node name="World" type="Spatial" groups=["playtester"]]
script = ExtResource( 2 )

[node name="Rover" type="KinematicBody" parent="." groups=["playtester"]]
transform = Transform( 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3 )
script = ExtResource( 1 )

[node name="Beacon" type="Spatial" parent="." groups=["playtester"]]
transform = Transform( 1, 0, 0, 0, 1, 0, 0, 0, 1, -4, 0, 7 )
"""

ROVER = """extends KinematicBody
var fuel := 10 setget , get_fuel
var spin := Vector3(0, 1, 0)
var tag := "idle"


func get_fuel():
	return fuel * 100  # read from outside, a getter's value, not the stored one


func _physics_process(_delta):
	if Input.is_action_pressed("go"):
		translation.x += 0.5
		fuel -= 1
		tag = "moving"
"""

WORLD = """extends Spatial
var ticks := 0


func _physics_process(_delta):
	ticks += 1


func _get_property_list():  # script variables named as GDScript's keywords: `n.and` would not compile
	return [{"name": "class", "type": TYPE_INT, "usage": 8192}, {"name": "and", "type": TYPE_INT, "usage": 8192},
		{"name": "void", "type": TYPE_INT, "usage": 8192}]


func _get(property):
	if property in ["class", "and", "void"]:
		return ticks % 3
	return null
"""


@pytest.mark.parametrize("compact", [False, True])
def test_entities_of_a_3d_scene_are_read_as_scripts_see_them(tmp_path, compact):
    """Each entity's script variables are read as another script reads them (a getter's value, a Vector3 as a list),
    its position is its x and z on the ground (3D), a node with no script is its position alone, and variables named
    as GDScript's keywords are read too, with no error line of the add-on's taken for the game's."""
    project = tmp_path / "rover"
    project.mkdir()
    (project / "project.godot").write_text('config_version=4\n\n[application]\n\nconfig/name="Rover"\n'
                                           'run/main_scene="res://main.tscn"\n\n[input]\n\ngo={\n"deadzone": 0.5,\n'
                                           '"events": [  ]\n}\n')
    (project / "main.tscn").write_text(SPATIAL_SCENE)
    (project / "rover.gd").write_text(ROVER)
    (project / "world.gd").write_text(WORLD)
    g = _run_game(project, tmp_path)
    try:
        table = EntityTable() if compact else None
        reset = {"type": "reset", "seed": 1, "delta": compact, "compact": compact}
        first = observation_of(g.request(reset, 10), None, table)
        rover, beacon = first.entities["rover"], first.entities["beacon"]
        assert rover.attrs == {"fuel": 1000, "spin": [0, 1, 0], "tag": "idle"} and rover.kind == "rover"
        assert rover.pos == (1, 3)  # x and z
        assert beacon.pos == (-4, 7) and beacon.kind == "Spatial" and beacon.attrs == {}
        steps = [observation_of(g.request({"type": "step", "inputs": {"actions": ["go"]}, "frames": 4}, 10), None,
                                table) for _ in range(2)]
        rover = steps[-1].entities["rover"]
        assert rover.attrs["fuel"] == 200 and rover.attrs["tag"] == "moving" and rover.pos[0] == pytest.approx(5)
        world = steps[-1].entities["world"]
        assert world.attrs["ticks"] == first.entities["world"].attrs["ticks"] + 8
        assert world.attrs["class"] == world.attrs["and"] == world.attrs["void"] == world.attrs["ticks"] % 3
        assert [r.message for o in [first, *steps] for r in o.logs] == []  # no parse error of ours as the game's
        assert steps[-1].entities["beacon"].pos == (-4, 7)  # unchanged entities are still there (delta merges them)
    finally:
        g.close()
