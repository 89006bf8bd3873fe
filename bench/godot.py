"""Godot backend benchmark (coinhop, the bundled Godot 3 game): writes bench/results/godot.json.

1. Throughput: steps/s (10 frames a step) of playtester driving coinhop with the add-on, on godot3-server and on
   godot3-runner (Xvfb), random declared actions, no episode ends; against the same project's own frame rate
   with no add-on (a frame-counting autoload only), run with ``--fixed-fps 60`` (one physics step per frame:
   the work a step's frames do under playtester) and run free (no ``--fixed-fps``: physics at 60 Hz of wall time,
   frames as fast as they come). ratio = steps/s * 10 / frames/s. Rounds are interleaved; medians reported.
   ``server_raw_replay_fps``: the raw game (no add-on, ``--fixed-fps 60``) playing the inputs of the acting-ahead run
   just before it in the same round (its warm-up steps, then its timed ones, 10 frames a step, by a frame-counting
   autoload that presses and releases the same input actions), counted over the frames of the timed steps: the same
   game work as the driven run. A random player of coinhop soon falls out of the level (its injected floor bug) and
   falls for ever, which changes what Godot's physics costs a frame (cheaper than standing on the floor at first,
   dearer as the fall speeds up), so the raw game standing still (``server_raw_fixed_fps``) is not the same work.
   ``server_ahead_ratio_replay_rounds``: each round's acting-ahead speed against the replay in the same round (and
   ``server_ahead_ratio_replay_before_rounds``: the ``--before`` revision's);
   ``server_ahead_ratio_cpu_replay``: the same in CPU time (``server_raw_replay_cpu_us_per_frame``).
   ``--addon OLD.gd`` also measures another add-on (``PLAYTESTER_GODOT_ADDON``) in the same rounds; the README's
   before/after used the add-on as committed before its leaner observations:
   ``git show 23abbab:src/playtester/drive/godot_addon/playtester.gd > /tmp/addon_before.gd``, with the
   ``watch`` handling of today's add-on copied in (it costs nothing when no watch is asked).
   Also the add-on's own cost of one observation (entities + JSON, no socket), this add-on and --addon's.
2. GDScript analysis time (gdtoolkit parse + z3), median of rounds.
3. Action spaces (the paper's comparison): declared vs analyzed vs blind, random agent, same seeds and steps:
   actions, distinct states (player cell of 16 px, score, hp), distinct player cells, bugs (signatures).
   (position cells: the campaign's position map of the player, 16 px cells.)
4. Explorers: random vs Go-Explore (returns by replay: Godot has no snapshots), same seeds and step budgets:
   bugs found and the step each was first found at.

   ``--before REV`` also measures, in the same rounds, the server with playtester's Godot files (remote.py, godot.py,
   the add-on, gdscript.py) as they are at git revision REV, the rest of the tree as it is (a copy in a temporary
   folder, run in a child process): the before/after of those files alone, one step per round trip
   (``server_steps_s_before``) and acting ahead (``server_ahead_steps_s_before``; ``server_ahead_over_before_rounds``:
   each round's acting-ahead speed now against REV's in the same round). ``server_ahead_steps_s_nocompact``: acting
   ahead with delta answers that are not compact (PLAYTESTER_REMOTE_COMPACT=0; docs/protocol.md, "Compact"). Today's code is also measured with every
   entity in every answer (``server_steps_s_whole``: PLAYTESTER_REMOTE_DELTA=0) and with the answers in Godot's
   Variant format (``server_steps_s_variant``: PLAYTESTER_REMOTE_ENCODING=godot-variant; the default is JSON
   when no frame is captured).
   CPU time too (``*_cpu_us_per_step``: all processes of a step, ``*_godot_cpu_us_per_step``: Godot's; and the raw
   game's ``server_raw_cpu_us_per_frame``), less disturbed by other load than wall-clock rates: ``server_ratio_cpu*``
   = 10 frames of the raw game's CPU / a step's CPU.
   ``server_direct_*``: the protocol alone, no Worker (a `RemoteGame` in this process, one step per request, and
   batches of 10 steps per request: ``then``).
   ``server_ahead_*``: acting ahead (``Worker.act_ahead_async`` with the random agent's plan, what a campaign's random
   agent does; each step's observation taken and dropped as the campaign loop takes them, none kept: before 4543c6c
   the bench kept a batch's 2,000 and the parent's garbage collector walked them): the episode process plays the batch
   itself, several steps in flight at Godot and several per request, each step still answered and observed on its
   own, the answers of a request joined in one message (docs/protocol.md, "Joined answers");
   ``server_ahead_steps_s_nojoin``: each answer sent on its own (PLAYTESTER_REMOTE_JOIN=0), in the same rounds
   (``server_ahead_over_nojoin_rounds``: each round's acting-ahead speed against it); beside ``server_steps_s``
   (one ``Worker.act`` per step, a round trip to Godot each) in the same rounds. ``*_ratio_fixed_rounds``: each round's speed against the raw rate of the same
   round (``*_best``: the best round).
   ``server_ahead_addon_parts``: acting ahead with a copy of the add-on that times its own parts (``addon_us_per_step_*``:
   the input events, the wait for and parse of requests, the entity pass, the answer's JSON, the sync line, the socket
   write, the rest of the add-on, and ``between``: the game's frames and the engine between two of the add-on's
   frames), wall-clock microseconds a step over the timed steps: preemption counts where it falls, so it is a
   measure for an idle machine.
   ``server_ahead_steps_s_free_obs``: acting ahead with a copy of the add-on whose observation is free (its answers
   list no entity and it runs no entity pass; all else as the add-on: inputs, frames, events, sync lines, joined
   answers): the bound on what a faster observation could give, in the same rounds (``*_free_obs_rounds``: against
   the raw rates; ``server_ahead_over_free_obs_rounds``: the add-on's speed against it).
   ``*_rounds_median_ci95``: a 95% percentile-bootstrap interval of the median round's ratio (4,000 resamples,
   seed 0): how far the median round may move between runs on a noisy host.
   ``--measures a,b,...`` runs only those throughput measures; ``--name NAME`` writes bench/results/NAME.json (the
   committed godot.json is left alone).

Usage: python bench/godot.py [--rounds 3] [--seeds 3] [--steps 1500] [--addon OLD.gd] [--before REV]
       [--skip analysis,reply,throughput,spaces,agents] [--measures KEY,...] [--name NAME]
The machine may be shared (the figures are noisy); it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from provenance import provenance, write_results

from playtester.drive.spec import GAMES_DIR, resolve

COINHOP = GAMES_DIR / "godot" / "coinhop"
FRAMES_PER_STEP = 10
WARM_STEPS = 50  # a driven run's steps before its timed ones
COUNTER = """extends Node
# counts frames (the raw game's own rate: no add-on); with BENCH_INPUTS (a JSON list, one list of held input actions a
# step) it also plays those inputs, BENCH_PER_STEP frames each, as the add-on does (InputEventActions, pressed and
# released as the held set changes), from the first frame: the same play as a driven run, without playtester
var n := 0
var t0 := 0
var total := int(OS.get_environment("BENCH_FRAMES"))
var warm := max(120, int(OS.get_environment("BENCH_WARM")))
var per := int(OS.get_environment("BENCH_PER_STEP"))
var steps = []
var held := {}
func _init():
	pause_mode = PAUSE_MODE_PROCESS
	process_priority = 1 << 30
func _ready():
	var path := OS.get_environment("BENCH_INPUTS")
	if path != "":
		var f := File.new()
		f.open(path, File.READ)
		steps = parse_json(f.get_as_text())
		f.close()
func _process(_delta):
	if per > 0 and n % per == 0 and n / per < steps.size():
		var now := {}
		for a in steps[n / per]:
			now[a] = true
		for a in held.keys():
			if not now.has(a):
				_event(a, false)
		for a in now.keys():
			if not held.has(a):
				_event(a, true)
		held = now
	if n == warm:
		t0 = OS.get_ticks_usec()
	n += 1
	if n == warm + total:
		printerr("@@bench %d %d" % [total, OS.get_ticks_usec() - t0])
		get_tree().quit()
func _event(action, pressed):
	var ev := InputEventAction.new()
	ev.action = action
	ev.pressed = pressed
	ev.strength = 1.0 if pressed else 0.0
	Input.parse_input_event(ev)
"""


OWN_FILES = ("src/playtester/drive/remote.py", "src/playtester/drive/godot.py",
             "src/playtester/drive/godot_addon/playtester.gd", "src/playtester/analysis/gdscript.py")
REPO = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------------------------------ throughput
def before_tree(rev: str, where: Path) -> Path:
    """A copy of src/ with OWN_FILES as they are at ``rev`` (read with ``git show``)."""
    dst = where / "before"
    shutil.copytree(REPO / "src", dst / "src", ignore=shutil.ignore_patterns("__pycache__", "*.pt"))
    for f in OWN_FILES:
        text = subprocess.run(["git", "show", f"{rev}:{f}"], cwd=REPO, capture_output=True, check=True).stdout
        (dst / f).write_bytes(text)
    return dst / "src"


def driven_in(src: Path, kind: str, steps: int, ahead: int = 0) -> float:
    """`driven` in a child process that imports playtester from ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    env.pop("PLAYTESTER_GODOT_ADDON", None)
    out = subprocess.run([sys.executable, __file__, "--driven", kind, str(steps), "--ahead", str(ahead)], env=env,
                         capture_output=True, text=True, timeout=600)
    for line in out.stdout.splitlines():
        if line.startswith("@@driven "):
            _, rate, total, godot = line.split()
            LAST_CPU.update(total=float(total), godot=float(godot))
            return float(rate)
    raise RuntimeError(f"driven in {src}: {out.stdout[-500:]} {out.stderr[-1500:]}")


def driven_env(kind: str, steps: int, env: dict[str, str], ahead: int = 0, addon: str | None = None) -> float:
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return driven(kind, steps, addon, ahead)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def direct(steps: int, batch: int) -> float:
    """steps/s of the protocol alone: a `RemoteGame` on godot3-server in this process, random declared actions,
    ``batch`` steps per request (``then``), the observation decoded (`observation_of`)."""
    from playtester.drive.godot import godot_binary, prepared_copy
    from playtester.drive.remote import EntityTable, RemoteGame, action_sets, choose_encoding, observation_of

    with tempfile.TemporaryDirectory() as tmp:
        project = prepared_copy(COINHOP, tmp)
        home = Path(tmp) / "home"
        home.mkdir()
        env = {k: str(home) for k in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")}
        cmd = [godot_binary(False), "--path", str(project), "--fixed-fps", "60", "--audio-driver", "Dummy", "--"]
        g = RemoteGame(cmd, "godot", str(project), env, 30)
        try:
            sets = action_sets(g.hello.actions)
            table = EntityTable()
            reset = {"type": "reset", "seed": 0, "args": {}, "capture": None, "delta": True,
                     "encoding": choose_encoding(g.hello)}
            if g.hello.capabilities.get("compact") and os.environ.get("PLAYTESTER_REMOTE_COMPACT", "1") != "0":
                reset["compact"] = True  # as the episode asks (docs/protocol.md, "Compact")
            observation_of(g.request(reset, 10), None, table)
            rng = random.Random(0)

            def one() -> dict:
                return {"inputs": {"actions": list(sets[rng.randrange(len(sets))]), "keys": []},
                        "frames": FRAMES_PER_STEP}

            for _ in range(50):
                observation_of(g.request({"type": "step", **one()}, 10), None, table)
            t0 = time.perf_counter()
            for _ in range(steps // batch):
                msg = {"type": "step", **one()}
                if batch > 1:
                    msg["then"] = [one() for _ in range(batch - 1)]
                observation_of(g.request(msg, 10), None, table)
            return steps // batch * batch / (time.perf_counter() - t0)
        finally:
            g.close()


LAST_CPU: dict[str, float] = {}  # CPU time of the last `driven` run, microseconds per step
LAST_PLAY: list[list[str]] = []  # the input actions held at each step of the last `driven` run (warm-up included)


def _tree_cpu() -> tuple[float, float]:
    """CPU seconds (user + system) used so far by this process and its live descendants (worker host, episode
    processes, keeper, Godot), and by the Godot processes among them."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    godot = 0.0
    for c in me.children(recursive=True):
        try:
            t = c.cpu_times()
            total += t.user + t.system
            if c.name().startswith("godot"):
                godot += t.user + t.system
        except psutil.Error:
            pass
    return total, godot


def driven(kind: str, steps: int, addon: str | None, ahead: int = 0) -> float:
    """steps/s of the declared space played at random through a Worker (no oracles), no episode ends. The CPU time
    all processes spent on those steps goes to LAST_CPU (a figure the machine's other load disturbs less than
    wall-clock time: it counts what the steps cost, not how long they waited for a core). ``ahead``: acting ahead
    (`Worker.act_ahead`, the random agent's `RandomPlan`), batches of that many steps, each step still observed;
    0: one `Worker.act` per step (a round trip to the game each)."""
    import numpy as np

    from playtester.agents.common import RandomPlan
    from playtester.drive.worker import Worker
    from playtester.env import default_space

    old = os.environ.get("PLAYTESTER_GODOT_ADDON")
    if addon:
        os.environ["PLAYTESTER_GODOT_ADDON"] = addon
    try:
        spec = resolve(f"{kind}:coinhop").with_config(done_events=[], max_episode_steps=10**9,
                                                        frames_per_action=FRAMES_PER_STEP)
        space = default_space(spec)
        rng = random.Random(0)
        played = [rng.randrange(len(space)) for _ in range(WARM_STEPS)]
        with Worker(spec, space, capture=None) as w:
            w.reset(seed=0)
            for a in played:
                w.act(a)
            plan = RandomPlan.of(np.random.default_rng(0), len(space))
            c0 = _tree_cpu()
            t0 = time.perf_counter()
            if ahead:  # each step's observation taken and dropped, as the campaign loop takes them (none kept)
                done = 0
                while done < steps:
                    w.act_ahead_async(plan.choose(None), plan, min(ahead, steps - done))
                    while True:
                        w.step_wait()
                        played.append(w.played)
                        done += 1
                        if not w.ahead:
                            break
            else:
                for _ in range(steps):
                    played.append(rng.randrange(len(space)))
                    w.act(played[-1])
            rate = steps / (time.perf_counter() - t0)
            c1 = _tree_cpu()
            LAST_CPU.update(total=(c1[0] - c0[0]) / steps * 1e6, godot=(c1[1] - c0[1]) / steps * 1e6)
            # the declared space's labels are its held input actions joined by "+" (`remote.action_labels`)
            LAST_PLAY[:] = [[] if space.names[a] == "none" else space.names[a].split("+") for a in played]
            return rate
    finally:
        if addon:
            if old is None:
                os.environ.pop("PLAYTESTER_GODOT_ADDON", None)
            else:
                os.environ["PLAYTESTER_GODOT_ADDON"] = old


# ------------------------------------------------------------------------------------- where the add-on's time goes
# `timed_addon` makes a copy of the add-on that times its own parts with OS.get_ticks_usec (insertions at the anchors
# below, each of which must be found, or the copy is refused: the add-on changed and these must follow it). It adds
# its totals to a JSON file (BENCH_PARTS_OUT) every 250 answers, from the answer after the first BENCH_PARTS_SKIP on
# (the reset's and the warm-up steps'), so only the timed steps count. The timing itself costs microseconds a step
# (four clock reads a frame, two more around each part): it falls mostly in "other", and the steps/s of this run is
# below the add-on's own.
PART_EDITS = [
    ("var holding := false", "var holding := false\n"
     "var B := {}  # bench: microseconds per part, summed over the answers after the first BENCH_PARTS_SKIP\n"
     "var b_answers := 0\nvar b_last := 0\nvar b_skip := int(OS.get_environment(\"BENCH_PARTS_SKIP\"))\n"
     "func _b(k, t0):\n\tif b_answers > b_skip:\n"
     "\t\tB[k] = B.get(k, 0) + OS.get_ticks_usec() - t0\n"),
    ("func _frame_end() -> void:\n",
     "func _frame_end() -> void:\n\tvar now := OS.get_ticks_usec()\n\tif b_last != 0:\n\t\t_b(\"between\", b_last)\n"
     "\t_process_timed()\n\tb_last = OS.get_ticks_usec()\n\t_b(\"in_addon\", now)\n\n\n"
     "func _process_timed():\n"),
    ("\t\tvar text = _recv()\n", "\t\tvar t0 := OS.get_ticks_usec()\n\t\tvar text = _recv()\n\t\t_b(\"recv_wait\", t0)\n"
     "\t\tt0 = OS.get_ticks_usec()\n"),
    ("\t\tvar msg: Dictionary = parsed.result\n", "\t\tvar msg: Dictionary = parsed.result\n\t\t_b(\"parse\", t0)\n"),
    ("\t_entities_compact()\n\tvar t := int(", "\tvar t0 := OS.get_ticks_usec()\n\t_entities_compact()\n"
     "\t_b(\"entities\", t0)\n\tt0 = OS.get_ticks_usec()\n\tvar t := int("),
    ("\t\tprinterr(\"@@playtester sync %d\" % seq)\n\t\tif join:",
     "\t\t_b(\"answer_json\", t0)\n\t\tt0 = OS.get_ticks_usec()\n\t\tprinterr(\"@@playtester sync %d\" % seq)\n"
     "\t\t_b(\"sync_line\", t0)\n\t\t_b_answered()\n\t\tif join:"),
    ("\t\t\t_send_bytes(_joined_message().to_utf8())\n\t\t\treturn\n",
     "\t\t\tt0 = OS.get_ticks_usec()\n\t\t\t_send_bytes(_joined_message().to_utf8())\n\t\t\t_b(\"send\", t0)\n"
     "\t\t\treturn\n"),
    ("func _apply_inputs(inputs: Dictionary) -> void:\n",
     "func _apply_inputs(inputs: Dictionary) -> void:\n\tvar t0 := OS.get_ticks_usec()\n\t_apply_inputs_timed(inputs)\n"
     "\t_b(\"inputs\", t0)\n\n\nfunc _b_answered() -> void:\n\tb_answers += 1\n"
     "\tif b_answers > b_skip:\n\t\tB[\"answers\"] = B.get(\"answers\", 0) + 1\n"
     "\t\tif int(B[\"answers\"]) % 250 == 0:\n\t\t\tvar out := OS.get_environment(\"BENCH_PARTS_OUT\")\n"
     "\t\t\tvar f := File.new()\n\t\t\tf.open(out + \".tmp\", File.WRITE)\n\t\t\tf.store_string(to_json(B))\n"
     "\t\t\tf.close()\n\t\t\tDirectory.new().rename(out + \".tmp\", out)\n\n\n"
     "func _apply_inputs_timed(inputs: Dictionary) -> void:\n"),
]
PARTS = ("inputs", "recv_wait", "parse", "entities", "answer_json", "sync_line", "send")


def anchored_edits(source: str, edits: list[tuple[str, str]], name: str) -> str:
    """``source`` with each anchor of ``edits`` replaced; ValueError naming an anchor not found exactly once (the
    add-on changed: ``name``, the edits, must follow it)."""
    for anchor, replacement in edits:
        if source.count(anchor) != 1:
            raise ValueError(f"the add-on has {source.count(anchor)} copies of {anchor!r}, not one: "
                             f"{name} must follow its changes")
        source = source.replace(anchor, replacement)
    return source


def timed_addon(source: str) -> str:
    """The add-on's source with its parts timed (`PART_EDITS`); ValueError naming an anchor it lacks."""
    return anchored_edits(source, PART_EDITS, "bench/godot.py's PART_EDITS")


# `free_obs_addon` makes a copy of the add-on whose observation costs nothing: its compact answer lists no entity (the
# entity pass is not run), all else as in the add-on (inputs, frames, events, sync lines, joined answers, the socket).
# Acting ahead with it bounds what any faster observation (a native one, say) could give: the speed of a step that
# observes nothing, on the same host in the same rounds.
FREE_OBS_EDITS = [("\t_entities_compact()\n\tvar t := int(",
                   "\tent = []  # bench: the observation is free (no entity pass, no entity in the answer)\n"
                   "\tfresh = []\n\tc_gone = []\n\tvar t := int(")]


def free_obs_addon(source: str) -> str:
    """The add-on's source with its observation free (`FREE_OBS_EDITS`); ValueError naming an anchor it lacks."""
    return anchored_edits(source, FREE_OBS_EDITS, "bench/godot.py's FREE_OBS_EDITS")


def driven_free_obs(steps: int) -> float:
    """steps/s acting ahead with the add-on whose observation is free (`free_obs_addon`)."""
    from playtester.drive.godot import ADDON

    with tempfile.TemporaryDirectory() as tmp:
        free = Path(tmp) / "playtester.gd"
        free.write_text(free_obs_addon(ADDON.read_text()))
        return driven("godot", steps, str(free), ahead=steps)


LAST_PARTS: dict[str, float] = {}  # microseconds a step per part of the add-on, of the last `addon_parts` run


def addon_parts(steps: int) -> float:
    """steps/s acting ahead with the timed add-on (`timed_addon`); each part's wall-clock microseconds per step go
    to LAST_PARTS ("between": the game's own frames and the engine between two of the add-on's frames; "other": the
    add-on's time not in a named part: its per-frame check whether the step is over, and most of the timing's own
    cost, which this run cannot tell apart)."""
    from playtester.drive.godot import ADDON

    with tempfile.TemporaryDirectory() as tmp:
        timed = Path(tmp) / "playtester.gd"
        timed.write_text(timed_addon(ADDON.read_text()))
        out = Path(tmp) / "parts.json"
        rate = driven_env("godot", steps, {"BENCH_PARTS_OUT": str(out), "BENCH_PARTS_SKIP": str(WARM_STEPS + 2)},
                          ahead=steps, addon=str(timed))
        parts = json.loads(out.read_text())
    n = parts.pop("answers")
    LAST_PARTS.clear()
    LAST_PARTS.update({k: parts.get(k, 0) / n for k in ("between", "in_addon") + PARTS})
    LAST_PARTS["other"] = LAST_PARTS["in_addon"] - sum(LAST_PARTS[k] for k in PARTS)
    LAST_PARTS["answers"] = n
    return rate


def raw_copy(where: Path) -> Path:
    dst = where / "coinhop_raw"
    if not dst.exists():
        shutil.copytree(COINHOP, dst)
        (dst / "bench_counter.gd").write_text(COUNTER)
        (dst / "override.cfg").write_text('[autoload]\n\nBenchCounter="*res://bench_counter.gd"\n')
    return dst


def raw_fps(binary: str, project: Path, frames: int, fixed: bool, display: str | None,
            play: list[list[str]] | None = None) -> float:
    """Frames/s of the project with no add-on (a frame-counting autoload), after 120 warm-up frames. ``play``: the
    input actions held at each step of a driven run (`LAST_PLAY`), played by the autoload, FRAMES_PER_STEP frames a
    step, from the first frame; frames are then counted from the end of the driven run's warm-up steps on."""
    home = project.parent / "home"
    home.mkdir(exist_ok=True)
    env = dict(os.environ, BENCH_FRAMES=str(frames), HOME=str(home), XDG_DATA_HOME=str(home),
               XDG_CONFIG_HOME=str(home), XDG_CACHE_HOME=str(home))
    if play:
        inputs = project.parent / "play.json"
        inputs.write_text(json.dumps(play))
        env.update(BENCH_INPUTS=str(inputs), BENCH_PER_STEP=str(FRAMES_PER_STEP),
                   BENCH_WARM=str(WARM_STEPS * FRAMES_PER_STEP))
    if display:
        env["DISPLAY"] = display
    cmd = [binary, "--path", str(project), "--audio-driver", "Dummy"] + (["--fixed-fps", "60"] if fixed else [])
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    for line in out.stderr.splitlines():
        if line.startswith("@@bench "):
            n, us = map(int, line.split()[1:3])
            return n / (us / 1e6)
    raise RuntimeError(f"{binary}: no frame count: {out.stderr[-800:]}")


def raw_cpu(binary: str, project: Path, frames: int, play: list[list[str]] | None = None) -> float:
    """CPU microseconds per frame of the project with no add-on under ``--fixed-fps 60``: the CPU time of a run of
    ``frames`` frames less that of a run of a quarter as many (start-up and loading cancel out). ``play``: as
    `raw_fps`'s (the frames counted are then those of the play's last three quarters)."""
    import resource

    used = []
    for n in (frames // 4, frames):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        raw_fps(binary, project, n, True, None, play)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        used.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    return (used[1] - used[0]) / (frames - frames // 4) * 1e6


class Xvfb:
    def __enter__(self) -> str:
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "640x480x24", "-nolisten", "tcp"],
                                     pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        data = b""
        while not data.endswith(b"\n"):
            chunk = os.read(r, 64)
            if not chunk:
                break
            data += chunk
        os.close(r)
        return ":" + data.decode().strip()

    def __exit__(self, *exc: object) -> None:
        self.proc.kill()
        self.proc.wait()


def median_ci(values: list[float], level: float = 0.95, resamples: int = 4000) -> list[float]:
    """A percentile-bootstrap confidence interval of the median of ``values`` (rounds' ratios), from a fixed seed: on
    a noisy host the median round moves from run to run, and this says how far it may."""
    rng = random.Random(0)
    meds = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples))
    lo = meds[int((1 - level) / 2 * resamples)]
    hi = meds[min(resamples - 1, int((1 + level) / 2 * resamples))]
    return [lo, hi]


def throughput(rounds: int, addon: str | None, before: str | None, only: set[str] | None = None) -> dict:
    cols: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp, Xvfb() as display:
        project = raw_copy(Path(tmp))
        old_src = before_tree(before, Path(tmp)) if before else None
        for r in range(rounds):
            m = {
                "server_steps_s": lambda: driven("godot", 2000, None),
                "server_raw_fixed_fps": lambda: raw_fps("godot3-server", project, 60000, True, None),
                "server_raw_free_fps": lambda: raw_fps("godot3-server", project, 600, False, None),
                "runner_steps_s": lambda: driven("godot-runner", 300, None),
                "runner_raw_fixed_fps": lambda: raw_fps("godot3-runner", project, 3000, True, display),
                "runner_raw_free_fps": lambda: raw_fps("godot3-runner", project, 600, False, display),
            }
            # acting ahead (the random agent's plan, `Worker.act_ahead`): the episode process plays the batch, several
            # steps in flight at Godot and several per request, every step still observed
            m["server_ahead_steps_s"] = lambda: driven("godot", 2000, None, ahead=2000)
            # the raw game playing the same inputs as the acting-ahead run just before it (its warm-up steps, then
            # its 2000 timed ones; 10 frames a step, no add-on): the same game work, without playtester. A random
            # player of coinhop falls out of the level through its injected floor bug, and a body falling for
            # ever costs Godot's physics more each frame; a raw game standing still never pays that
            m["server_raw_replay_fps"] = lambda: raw_fps("godot3-server", project, 2000 * FRAMES_PER_STEP, True, None,
                                                         play=list(LAST_PLAY))
            m["server_raw_replay_cpu_us_per_frame"] = lambda: raw_cpu("godot3-server", project, 2000 * FRAMES_PER_STEP,
                                                                      play=list(LAST_PLAY))
            m["server_steps_s_whole"] = lambda: driven_env("godot", 2000, {"PLAYTESTER_REMOTE_DELTA": "0"})
            m["server_steps_s_variant"] = lambda: driven_env("godot", 2000, {"PLAYTESTER_REMOTE_ENCODING":
                                                                             "godot-variant"})
            m["server_direct_steps_s"] = lambda: direct(2000, 1)
            m["server_direct_batch10_steps_s"] = lambda: direct(4000, 10)
            # acting ahead with whole delta answers (PLAYTESTER_REMOTE_COMPACT=0), to tell what the compact ones give
            m["server_ahead_steps_s_nocompact"] = lambda: driven_env("godot", 2000, {"PLAYTESTER_REMOTE_COMPACT": "0"},
                                                                     ahead=2000)
            # acting ahead with each answer of a batch sent on its own (PLAYTESTER_REMOTE_JOIN=0), to tell what joined
            # answers give
            m["server_ahead_steps_s_nojoin"] = lambda: driven_env("godot", 2000, {"PLAYTESTER_REMOTE_JOIN": "0"},
                                                                  ahead=2000)
            if old_src is not None:
                m["server_ahead_steps_s_before"] = lambda: driven_in(old_src, "godot", 2000, ahead=2000)
                m["server_steps_s_before"] = lambda: driven_in(old_src, "godot", 2000)
                m["runner_steps_s_before"] = lambda: driven_in(old_src, "godot-runner", 300)
            if addon:
                m["server_steps_s_other_addon"] = lambda: driven("godot", 2000, addon)
                m["runner_steps_s_other_addon"] = lambda: driven("godot-runner", 300, addon)
            m["server_raw_cpu_us_per_frame"] = lambda: raw_cpu("godot3-server", project, 40000)
            # acting ahead with the add-on timing its own parts (`timed_addon`): where Godot's time a step goes
            m["server_ahead_addon_parts"] = lambda: addon_parts(2000)
            # acting ahead with the add-on's observation free (`free_obs_addon`): the bound on a faster observation
            m["server_ahead_steps_s_free_obs"] = lambda: driven_free_obs(2000)
            if only:
                m = {k: f for k, f in m.items() if k in only}
            for k, f in m.items():
                LAST_CPU.clear()
                cols.setdefault(k, []).append(f())
                if k == "server_ahead_addon_parts":
                    for part, us in LAST_PARTS.items():
                        cols.setdefault(f"addon_us_per_step_{part}", []).append(us)
                if k.startswith(("server_steps_s", "server_ahead_steps_s")) and LAST_CPU:  # (and their _before)
                    cols.setdefault(k.replace("steps_s", "cpu_us_per_step"), []).append(LAST_CPU["total"])
                    cols.setdefault(k.replace("steps_s", "godot_cpu_us_per_step"), []).append(LAST_CPU["godot"])
            print(f"round {r}: " + ", ".join(f"{k} {v[-1]:,.0f}" for k, v in cols.items()), flush=True)
    med = {k: statistics.median(v) for k, v in cols.items()}
    out: dict = {"rounds": rounds, "frames_per_step": FRAMES_PER_STEP, "median": med, "all": cols}
    for side in ("server", "runner"):
        if f"{side}_steps_s" not in med or f"{side}_raw_fixed_fps" not in med:
            continue
        frames = med[f"{side}_steps_s"] * FRAMES_PER_STEP
        out[f"{side}_ratio_fixed"] = frames / med[f"{side}_raw_fixed_fps"]
        if f"{side}_raw_free_fps" in med:
            out[f"{side}_ratio_free"] = frames / med[f"{side}_raw_free_fps"]
        if before and f"{side}_steps_s_before" in med:
            out[f"{side}_ratio_fixed_before"] = med[f"{side}_steps_s_before"] * FRAMES_PER_STEP / \
                med[f"{side}_raw_fixed_fps"]
        if addon:
            out[f"{side}_ratio_fixed_other_addon"] = med[f"{side}_steps_s_other_addon"] * FRAMES_PER_STEP / \
                med[f"{side}_raw_fixed_fps"]
    for k in ("server_ahead_steps_s", "server_steps_s_whole", "server_steps_s_variant", "server_direct_steps_s",
              "server_direct_batch10_steps_s", "server_ahead_steps_s_before", "server_ahead_steps_s_nocompact",
              "server_ahead_steps_s_nojoin"):
        if k in med and "server_raw_fixed_fps" in med:
            out[k.replace("steps_s", "ratio_fixed")] = med[k] * FRAMES_PER_STEP / med["server_raw_fixed_fps"]
    # each round's own ratio (its speed against the raw rate measured in the same round) and the best round: the
    # machine's other load moves both, so a round's ratio is steadier than a ratio of medians
    for k in ("server_steps_s", "server_ahead_steps_s", "server_ahead_steps_s_before", "server_ahead_steps_s_nocompact",
              "server_ahead_steps_s_nojoin", "server_steps_s_before", "server_ahead_steps_s_free_obs"):
        if k in cols and "server_raw_fixed_fps" in cols:
            per = [v * FRAMES_PER_STEP / raw for v, raw in zip(cols[k], cols["server_raw_fixed_fps"], strict=True)]
            out[k.replace("steps_s", "ratio_fixed") + "_rounds"] = per
            out[k.replace("steps_s", "ratio_fixed") + "_best"] = max(per)
            out[k.replace("steps_s", "ratio_fixed") + "_rounds_median"] = statistics.median(per)
            out[k.replace("steps_s", "ratio_fixed") + "_rounds_median_ci95"] = median_ci(per)
            out[k + "_best"] = max(cols[k])
    # acting ahead against the raw game playing the same inputs, in the same round (the same game work)
    for k in ("server_ahead_steps_s", "server_ahead_steps_s_nojoin", "server_ahead_steps_s_before",
              "server_ahead_steps_s_free_obs"):
        if k in cols and "server_raw_replay_fps" in cols:
            per = [v * FRAMES_PER_STEP / raw for v, raw in zip(cols[k], cols["server_raw_replay_fps"], strict=True)]
            tag = k.replace("steps_s", "ratio_replay")
            out[tag + "_rounds"] = per
            out[tag + "_rounds_median"] = statistics.median(per)
            out[tag + "_rounds_median_ci95"] = median_ci(per)
            out[tag + "_best"] = max(per)
    for k in ("server_ahead_cpu_us_per_step", "server_ahead_cpu_us_per_step_nojoin",
              "server_ahead_cpu_us_per_step_free_obs"):
        if k in med and "server_raw_replay_cpu_us_per_frame" in med:
            out[k.replace("cpu_us_per_step", "ratio_cpu_replay")] = \
                FRAMES_PER_STEP * med["server_raw_replay_cpu_us_per_frame"] / med[k]
    # acting ahead against the --before revision's (or without compact answers) in the same round
    for k in ("server_ahead_steps_s_before", "server_ahead_steps_s_nocompact", "server_ahead_steps_s_nojoin",
              "server_ahead_steps_s_free_obs"):
        if k in cols and "server_ahead_steps_s" in cols:
            per = [a / b for a, b in zip(cols["server_ahead_steps_s"], cols[k], strict=True)]
            tag = k.replace("server_ahead_steps_s_", "server_ahead_over_")
            out[tag + "_rounds"] = per
            out[tag + "_rounds_median"] = statistics.median(per)
            out[tag + "_rounds_median_ci95"] = median_ci(per)
    # the same ratio in CPU time: the CPU a step's 10 frames cost the game alone, against the CPU the whole step cost
    # (all processes): what the machine's other load disturbs least
    for k in [k for k in med if k.startswith(("server_cpu_us_per_step", "server_ahead_cpu_us_per_step"))]:
        if "server_raw_cpu_us_per_frame" in med:
            out[k.replace("cpu_us_per_step", "ratio_cpu")] = FRAMES_PER_STEP * med["server_raw_cpu_us_per_frame"] / med[k]
    if before:
        out["before"] = {"rev": before, "files": list(OWN_FILES)}
    return out


REPLY_COST = """extends Node
# times each add-on's observation (entities + JSON) in this process: no socket, no frames in between
var paths := []
var frames := 0
func _process(_delta):
	frames += 1
	if frames < 60:
		return
	var n := int(OS.get_environment("BENCH_REPLIES"))
	var adds := []
	for p in paths:
		var a := Node.new()
		get_tree().root.add_child(a)
		a.set_script(load(p))
		a.set_process(false)
		adds.append(a)
	for r in range(int(OS.get_environment("BENCH_ROUNDS"))):
		for i in range(adds.size()):
			var a = adds[i]
			var t0 := OS.get_ticks_usec()
			for k in range(n):
				var obs := {"type": "observation", "seq": k, "frame_no": k, "time_ms": k, "entities": a._entities(),
					"events": [], "done": false}
				var data: PoolByteArray = to_json(obs).to_utf8()
			printerr("@@reply %d %d %f" % [r, i, float(OS.get_ticks_usec() - t0) / n])
			t0 = OS.get_ticks_usec()
			for k in range(n):
				var obs := {"type": "observation", "seq": k, "frame_no": k, "time_ms": k, "entities": a._entities(),
					"events": [], "done": false}
				var data: PoolByteArray = var2bytes(obs)
			printerr("@@variant %d %d %f" % [r, i, float(OS.get_ticks_usec() - t0) / n])
			# the compact answer (the default): every entity sent, as if each had changed since the last step (its
			# own entity records, as after a reset: the whole answers' ones above lack its fields)
			a.compact = true
			a.node_info = {}
			a.c_nodes = []
			a.c_infos = []
			a.c_sigs = []
			a.c_dirty = true
			a._entities_compact()
			t0 = OS.get_ticks_usec()
			for k in range(n):
				for j in range(a.c_sigs.size()):
					a.c_sigs[j] = null
				a._entities_compact()
				var data: PoolByteArray = to_json(a.ent).to_utf8()
			printerr("@@compact %d %d %f" % [r, i, float(OS.get_ticks_usec() - t0) / n])
	get_tree().quit()
"""


def reply_cost(addons: list[str], rounds: int, replies: int = 3000) -> dict:
    """Microseconds an add-on spends building and serialising one observation of coinhop (its entities and the
    JSON), each add-on in the same Godot process, rounds interleaved: the per-step protocol cost without the
    socket and the frames."""
    with tempfile.TemporaryDirectory() as tmp:
        dst = Path(tmp) / "coinhop_cost"
        shutil.copytree(COINHOP, dst)
        names = []
        for i, a in enumerate(addons):
            shutil.copy(a, dst / f"bench_addon_{i}.gd")
            names.append(f"res://bench_addon_{i}.gd")
        (dst / "bench_cost.gd").write_text(REPLY_COST.replace("var paths := []", f"var paths := {names!r}"))
        (dst / "override.cfg").write_text('[autoload]\n\nBenchCost="*res://bench_cost.gd"\n')
        home = Path(tmp) / "home"
        home.mkdir()
        env = dict(os.environ, BENCH_REPLIES=str(replies), BENCH_ROUNDS=str(rounds), HOME=str(home),
                   XDG_DATA_HOME=str(home), XDG_CONFIG_HOME=str(home), XDG_CACHE_HOME=str(home))
        out = subprocess.run(["godot3-server", "--path", str(dst), "--fixed-fps", "60", "--audio-driver", "Dummy"],
                             env=env, capture_output=True, text=True, timeout=300)
    per: dict[int, list[float]] = {}
    var: dict[int, list[float]] = {}
    compact: dict[int, list[float]] = {}
    for line in out.stderr.splitlines():
        if line.startswith(("@@reply ", "@@variant ", "@@compact ")):
            tag, r, i, us = line.split()
            {"@@reply": per, "@@variant": var, "@@compact": compact}[tag].setdefault(int(i), []).append(float(us))
    if len(per) != len(addons):
        raise RuntimeError(f"reply cost: {out.stderr[-800:]}")
    return {"addons": addons, "replies_per_round": replies, "rounds": rounds,
            "us_per_reply_median": [statistics.median(per[i]) for i in range(len(addons))],
            "us_per_reply": [per[i] for i in range(len(addons))],
            "us_per_reply_variant_median": [statistics.median(var[i]) for i in range(len(addons))],
            "us_per_reply_variant": [var[i] for i in range(len(addons))],
            "us_per_reply_compact_median": [statistics.median(compact[i]) for i in range(len(addons))],
            "us_per_reply_compact": [compact[i] for i in range(len(addons))],
            "note": "entities (every entity, no delta) then to_json (us_per_reply) or var2bytes (_variant); "
                    "_compact: the compact pass with every entity sent, then to_json of its flat list"}


# ------------------------------------------------------------------------------------------- analysis
def analysis_time(rounds: int) -> dict:
    from playtester.analysis import analyze
    from playtester.analysis.gdscript import analyze_project
    from playtester.drive.godot import input_actions

    names = input_actions(COINHOP)
    analyze_project(COINHOP, names)  # gdtoolkit's grammar is loaded (and cached on disk) once
    walls, cpus, parse, execute, acts = [], [], [], [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        a = analyze(resolve("godot:coinhop"))
        walls.append(time.perf_counter() - t0)
        t = a.result["timings"]
        cpus.append(t["cpu_s"])
        parse.append(t["prepare_s"])
        execute.append(t["execute_s"])
        acts.append(t["actions_s"])
    r = a.result
    return {"rounds": rounds, "wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus),
            "parse_s": statistics.median(parse), "symbolic_s": statistics.median(execute),
            "actions_s": statistics.median(acts), "actions": len(r["actions"]), "paths": r["stats"]["paths"],
            "handlers": r["handlers"], "watch": r["watch"],
            "action_list": [{"name": x["name"], "held": x["held"], "p_g": x["p_g_text"], "errors": x["errors"]}
                            for x in r["actions"]]}


# ----------------------------------------------------------------------------------------- campaigns
def campaign(kind: str, agent: str, actions: str, steps: int, seed: int) -> dict:
    from playtester.campaign import Budget, explore
    from playtester.env import resolve_space

    spec = resolve(f"{kind}:coinhop").with_config(
        features=["player_x", "player_y", "main_score", "player_hp"],
        feature_ranges={"player_x": (0, 320), "player_y": (0, 240)}, feature_buckets=20, position_cell=16.0)
    space = resolve_space(spec, actions)
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        r = explore(spec, out=out, agent=agent, budget=Budget(steps=steps), workers=1, seed=seed, actions=space,
                    code_coverage=False, replay_known=False, finalize=False)
        wall = time.perf_counter() - t0
        cells = r.store.db.execute("SELECT COUNT(*) FROM positions").fetchone()[0] \
            if _has_table(r.store, "positions") else None
        row = {"seed": seed, "steps": r.steps, "episodes": r.episodes, "states": r.states, "wall_s": wall,
               "actions": len(space), "bugs": sorted(b.signature for b in r.bugs),
               "first_step": {b.signature: b.first_step for b in r.bugs}, "position_cells": cells}
        r.store.close()
    return row


def _has_table(store, name: str) -> bool:
    return store.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def compare(what: dict[str, tuple[str, str]], seeds: int, steps: int) -> dict:
    """Campaigns per configuration, seeds interleaved."""
    rows: dict[str, list[dict]] = {k: [] for k in what}
    for seed in range(seeds):
        for name, (agent, actions) in what.items():
            row = campaign("godot", agent, actions, steps, seed)
            rows[name].append(row)
            print(f"{name} seed {seed}: {row['actions']} actions, states {row['states']}, bugs {len(row['bugs'])} "
                  f"{row['bugs']}, {row['wall_s']:.1f} s", flush=True)
    out = {}
    for name, rs in rows.items():
        sigs = sorted({s for r in rs for s in r["bugs"]})
        out[name] = {"agent": what[name][0], "actions_space": what[name][1], "actions": rs[0]["actions"],
                     "states_median": statistics.median(r["states"] for r in rs),
                     "states": [r["states"] for r in rs],
                     "bugs_per_seed": [len(r["bugs"]) for r in rs], "bugs_median": statistics.median(
                         len(r["bugs"]) for r in rs),
                     "distinct_bugs": sigs,
                     "first_step_median": {s: statistics.median(r["first_step"][s] for r in rs if s in r["first_step"])
                                           for s in sigs},
                     "found_in_seeds": {s: sum(s in r["bugs"] for r in rs) for s in sigs},
                     "runs": rs}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--explore-steps", type=int, default=1000)
    ap.add_argument("--addon", default=None, help="another add-on to measure in the same rounds (before/after)")
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: throughput,analysis,spaces,agents")
    ap.add_argument("--name", default="godot", help="the results file: bench/results/NAME.json")
    ap.add_argument("--measures", default="", help="throughput: only these measures (comma-separated keys, e.g. "
                    "server_steps_s,server_ahead_steps_s,server_raw_fixed_fps,server_raw_cpu_us_per_frame)")
    ap.add_argument("--before", default=None, help="git revision of playtester's Godot files to measure against")
    ap.add_argument("--driven", nargs=2, default=None, help=argparse.SUPPRESS)  # KIND STEPS: one measure (child)
    ap.add_argument("--ahead", type=int, default=0, help=argparse.SUPPRESS)  # ... acting ahead, batches of this many
    args = ap.parse_args()
    if args.driven:
        rate = driven(args.driven[0], int(args.driven[1]), None, args.ahead)
        print(f"@@driven {rate} {LAST_CPU['total']} {LAST_CPU['godot']}", flush=True)
        return
    made = provenance()
    skip = set(filter(None, args.skip.split(",")))
    record: dict = {"game": "godot:coinhop", "shared_machine": True, "seeds": list(range(args.seeds))}
    t0 = time.perf_counter()
    if "analysis" not in skip:
        record["analysis"] = analysis_time(max(3, args.rounds))
        a = record["analysis"]
        print(f"analysis: {a['wall_s'] * 1000:.0f} ms wall ({a['cpu_s'] * 1000:.0f} ms CPU; parse "
              f"{a['parse_s'] * 1000:.0f}, symbolic {a['symbolic_s'] * 1000:.0f}, actions {a['actions_s'] * 1000:.0f}), "
              f"{a['actions']} actions from {a['paths']} paths", flush=True)
    if "reply" not in skip:
        from playtester.drive.godot import ADDON

        record["reply_cost"] = reply_cost([str(ADDON)] + ([args.addon] if args.addon else []), max(5, args.rounds))
        c = record["reply_cost"]["us_per_reply_median"]
        print("observation (entities + var2bytes) per step: " + ", ".join(
            f"{u:.0f} us" for u in record["reply_cost"]["us_per_reply_variant_median"]), flush=True)
        print("observation (entities + JSON) per step: " + ", ".join(f"{u:.0f} us" for u in c) +
              " (this add-on" + (", --addon)" if args.addon else ")"), flush=True)
        print("compact observation, every entity (entities + JSON) per step: " + ", ".join(
            f"{u:.1f} us" for u in record["reply_cost"]["us_per_reply_compact_median"]), flush=True)
    if "throughput" not in skip:
        only = set(filter(None, args.measures.split(","))) or None
        record["throughput"] = throughput(args.rounds, args.addon, args.before, only)
        t = record["throughput"]
        m = t["median"]
        for side in ("server", "runner"):
            if f"{side}_ratio_fixed" in t:
                print(f"throughput: {side} {m[f'{side}_steps_s']:,.0f} steps/s (ratio {t[f'{side}_ratio_fixed']:.2f} of "
                      f"--fixed-fps" + (f", {t[f'{side}_ratio_free']:.2f} of free)" if f"{side}_ratio_free" in t else ")"),
                      flush=True)
        if "server_ahead_ratio_fixed" in t:
            print(f"throughput: server acting ahead {m['server_ahead_steps_s']:,.0f} steps/s (ratio "
                  f"{t['server_ahead_ratio_fixed']:.2f} of --fixed-fps; each round against its own raw rate: median "
                  f"{t['server_ahead_ratio_fixed_rounds_median']:.2f} (95% interval "
                  f"{t['server_ahead_ratio_fixed_rounds_median_ci95'][0]:.2f} to "
                  f"{t['server_ahead_ratio_fixed_rounds_median_ci95'][1]:.2f}), best {t['server_ahead_ratio_fixed_best']:.2f}; one "
                  f"step per round trip: median {t.get('server_ratio_fixed_rounds_median', 0):.2f}, best "
                  f"{t.get('server_ratio_fixed_best', 0):.2f})", flush=True)
        if "server_ahead_ratio_replay_rounds_median" in t:
            lo, hi = t["server_ahead_ratio_replay_rounds_median_ci95"]
            print(f"  acting ahead against the raw game playing the same inputs: median round "
                  f"{t['server_ahead_ratio_replay_rounds_median']:.2f} (95% interval {lo:.2f} to {hi:.2f}), best "
                  f"{t['server_ahead_ratio_replay_best']:.2f}"
                  + (f"; in CPU time {t['server_ahead_ratio_cpu_replay']:.2f}" if "server_ahead_ratio_cpu_replay" in t
                     else ""), flush=True)
        if "server_ahead_ratio_replay_nojoin_rounds_median" in t:
            print(f"  each answer on its own (PLAYTESTER_REMOTE_JOIN=0): against the replay median round "
                  f"{t['server_ahead_ratio_replay_nojoin_rounds_median']:.2f}; joined / on its own per round: median "
                  f"{t['server_ahead_over_nojoin_rounds_median']:.2f}", flush=True)
        if "server_ahead_ratio_fixed_before_rounds_median" in t:
            print(f"  acting ahead at --before: ratio median {t['server_ahead_ratio_fixed_before_rounds_median']:.2f}, best "
                  f"{t['server_ahead_ratio_fixed_before_best']:.2f}"
                  + (f"; against the replay median {t['server_ahead_ratio_replay_before_rounds_median']:.2f}, best "
                     f"{t['server_ahead_ratio_replay_before_best']:.2f}" if "server_ahead_ratio_replay_before_best" in t
                     else "")
                  + f"; now / before per round: median {t['server_ahead_over_before_rounds_median']:.2f}", flush=True)
        print("  server: " + ", ".join(f"{k} {v:,.0f}" for k, v in m.items() if k.startswith("server")), flush=True)
    if "spaces" not in skip:
        record["spaces"] = {"steps": args.steps, **compare({"declared": ("random", "default"),
                                                            "analyzed": ("random", "analyzed"),
                                                            "blind": ("random", "blind")}, args.seeds, args.steps)}
    if "agents" not in skip:
        record["agents"] = {"steps": args.explore_steps, **compare({"random": ("random", "default"),
                                                                    "goexplore": ("goexplore", "default")},
                                                                   args.seeds, args.explore_steps)}
    record["bench_wall_s"] = time.perf_counter() - t0
    path = write_results(args.name, record, made)
    print(f"written to {path}")


if __name__ == "__main__":
    sys.exit(main())
