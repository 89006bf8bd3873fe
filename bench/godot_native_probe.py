"""Probe of the native route for the Godot add-on: writes bench/results/godot_native_probe.json.

The add-on's per-step observation is GDScript (bench/godot.py: with it free, acting ahead ran at 0.81 of the raw
game's rate against the add-on's 0.64, `godot_free_obs`). Would native code (GDNative, C) get near that? This probe
builds it and measures, on the machine it runs on:

1. Headers: Godot 3's GDNative C headers are in Debian's source package of the godot3 runtimes
   (``godot_3.2.3-stable.orig.tar.gz``, checked against the sha256 of Debian's Sources index); Godot's own build
   script from the same tarball (``gdnative_builders.py``) writes the API struct header. Downloaded once into
   ``~/.cache/playtester/godot-src`` (``--src FILE``: a tarball already here).
2. The answer's JSON: ``bench/godot_native/observe.c``'s PlaytesterProbe (``ent_json``: a list as JSON;
   ``ent_walk``: the same walk with no formatting) against Godot's ``to_json`` and ``var2bytes``, on two lists as the add-on's compact answers hold
   them (``ent``): a typical step of coinhop (2 entities changed, 14 values) and a whole one (every entity). Its
   values are checked against ``to_json``'s.
3. The entity pass: ``bench/godot_native/observe.c``, the add-on's compact entity pass in C (read each entity's
   variables and position, compare with what was last sent, list the changed ones), used by a copy of the add-on
   (``NATIVE_EDITS``). First the copy must give the add-on's answers: both drive the same random steps of coinhop
   (godot3-server, through playtester's Worker) and every observation must be the same (and the copy's hello must
   say it observes natively). Then both passes are timed in one Godot process on coinhop's scene, rounds
   interleaved: with every entity sent (as after a reset) and with none changed (every entity read and compared).

Usage: python bench/godot_native_probe.py [--rounds 7] [--calls 5000] [--steps 300] [--src TARBALL] [--name NAME]
It stops with the reason when a check fails (no library, other values, other observations); it asserts nothing else.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import types
import urllib.request
from pathlib import Path

from godot import COINHOP, FRAMES_PER_STEP, anchored_edits
from provenance import provenance, write_results

from playtester.drive.godot import ADDON, ADDON_DIR
from playtester.drive.spec import resolve

TARBALL = "godot_3.2.3-stable.orig.tar.gz"  # the source of Debian bookworm's godot3-server 3.2.3-stable-1
URL = f"http://deb.debian.org/debian/pool/main/g/godot/{TARBALL}"
SHA256 = "4c2a8e7da1ad05c6223b0ff6cf2be124dad6708b56a8ec9910dc2aaf82a553ae"  # Debian bookworm's Sources index
TOP = "godot-3.2.3-stable/modules/gdnative/"
HERE = Path(__file__).resolve().parent / "godot_native"
# the add-on's compact answers (`ent`) of coinhop, as read off a run: a typical step (the enemy and the player
# changed: index, variables, position) and a whole one (every entity: three coins, the enemy, the main node, the player)
TYPICAL = [4, 40, 200, 300, 1, 247.333389, 212, 5, 3, [0, 0], 1, 0, 30, 211.999542]
WHOLE = [0, 1, 110, 200, 1, 1, 200, 200, 2, 1, 280, 170, 4, 40, 200, 300, 1, 247.333389, 212, 3, 0, False,
         5, 3, [0, 0], 1, 0, 30, 211.999542]

# ------------------------------------------------------------------------------------------- building
GDNLIB = """[general]

singleton=false
load_once=true
symbol_prefix="godot_"
reloadable=false

[entry]

Server.64="res://{dir}/{lib}"
X11.64="res://{dir}/{lib}"

[dependencies]

Server.64=[  ]
X11.64=[  ]
"""
GDNS = """[gd_resource type="NativeScript" load_steps=2 format=2]

[ext_resource path="res://{dir}/{name}.gdnlib" type="GDNativeLibrary" id=1]

[resource]
resource_name = "{cls}"
class_name = "{cls}"
library = ExtResource( 1 )
"""


def fetch(src: str | None) -> Path:
    """The source tarball, checked against Debian's sha256 (downloaded into the cache unless ``src`` names one)."""
    path = Path(src) if src else Path.home() / ".cache" / "playtester" / "godot-src" / TARBALL
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".part")
        with urllib.request.urlopen(URL, timeout=600) as r, open(part, "wb") as f:
            shutil.copyfileobj(r, f)
        part.rename(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != SHA256:
        sys.exit(f"{path}: sha256 {digest}, not Debian's {SHA256}: delete it and run again")
    return path


def headers(tarball: Path, where: Path) -> Path:
    """``modules/gdnative`` of the tarball in ``where``, with the API struct header written by Godot's build script."""
    with tarfile.open(tarball) as tar:
        keep = (TOP + "gdnative_api.json", TOP + "gdnative_builders.py")
        members = [m for m in tar.getmembers() if m.name.startswith(TOP + "include/") or m.name in keep]
        tar.extractall(where, members=members, filter="data")
    gdn = where / TOP
    # the generator imports platform_methods (SCons' helpers, for Windows builds) and uses none of it here
    sys.modules.setdefault("platform_methods", types.SimpleNamespace(subprocess_main=lambda *a: None))
    sys.path.insert(0, str(gdn))
    import gdnative_builders

    api = json.loads((gdn / "gdnative_api.json").read_text())
    (gdn / "include" / "gdnative_api_struct.gen.h").write_text(gdnative_builders._build_gdnative_api_struct_header(api))
    return gdn / "include"


def install(source: Path, include: Path, folder: Path, res_dir: str, name: str, cls: str) -> None:
    """``source`` built with gcc into ``folder`` (``res://res_dir``) as lib``name``.so, with its two resources
    (``name``.gdnlib, ``name``.gdns, the NativeScript class ``cls``)."""
    folder.mkdir(parents=True, exist_ok=True)
    lib = f"lib{name}.so"
    subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-fPIC", "-shared", "-I", str(include), str(source), "-o",
                    str(folder / lib)], check=True)
    (folder / f"{name}.gdnlib").write_text(GDNLIB.format(dir=res_dir, lib=lib))
    (folder / f"{name}.gdns").write_text(GDNS.format(dir=res_dir, name=name, cls=cls))


# --------------------------------------------------------------------- the add-on observing through observe.c
# a copy of the add-on that loads observe.gdns from its own folder and runs its compact entity pass through it: the
# entity list and the entities' schemas are worked out in GDScript when the tree changes, as the add-on does; each
# step the native observer reads, compares and lists. Each anchor must be found once (`anchored_edits`).
NATIVE_EDITS = [
    ("var holding := false  # ... the answer being written is not the batch's last\n",
     "var holding := false  # ... the answer being written is not the batch's last\n"
     "var native = null  # bench: the native observer (observe.gdns beside this script: observe.c)\n"
     "var c_ninfos := []  # ... [index, where, NodePaths] of each of c_nodes, what it reads\n"),
    ("\tvar info := Engine.get_version_info()\n\tprinterr(\"@@playtester hello\")",
     "\tvar observer: String = get_script().resource_path.get_base_dir() + \"/observe.gdns\"\n"
     "\tif ResourceLoader.exists(observer):\n\t\tvar ns = load(observer)\n\t\tif ns:\n\t\t\tnative = ns.new()\n"
     "\tvar info := Engine.get_version_info()\n\tprinterr(\"@@playtester hello\")"),
    ("\"compact\": true, \"batch_joined\": true},",
     "\"compact\": true, \"batch_joined\": true,\n\t\t\t\"observer\": \"native\" if native != null else \"gdscript\"},"),
    ("\t\t\tc_sigs = []\n\t\t\tc_dirty = true\n",
     "\t\t\tc_sigs = []\n\t\t\tc_ninfos = []\n\t\t\tc_dirty = true\n\t\t\tif native != null:\n"
     "\t\t\t\tnative.forget()\n"),
    ("\t\tc_nodes = nodes\n\t\tc_infos = []\n\t\tc_sigs = []\n",
     "\t\tc_nodes = nodes\n\t\tc_infos = []\n\t\tc_sigs = []\n\t\tc_ninfos = []\n"),
    ("\t\t\tc_sigs.append(old.get(info[4]))\n\t\t\told.erase(info[4])\n\t\tc_gone = old.keys()\n",
     "\t\t\tc_sigs.append(old.get(info[4]))\n\t\t\told.erase(info[4])\n"
     "\t\t\tif native != null:\n\t\t\t\tc_ninfos.append([info[4], info[3], _paths(n, info[2], info[3])])\n"
     "\t\t\t\tif not info[5]:  # new: listed at this step (the observer has none of its values), so described now\n"
     "\t\t\t\t\tinfo[5] = true\n\t\t\t\t\tfresh.append([info[4], info[0], info[1], info[2], info[3] != 0])\n"
     "\t\tc_gone = old.keys()\n"
     "\t\tif native != null and not c_gone.empty():\n"
     "\t\t\tnative.forget(c_gone)  # left: listed again if they come back, as the GDScript pass lists them\n"
     "\tif native != null:\n\t\tvar r = native.observe(nodes, c_ninfos)\n\t\tif typeof(r) == TYPE_ARRAY:\n"
     "\t\t\tent = r[0]\n\t\t\tfor i in r[1]:  # Object values: their names (or null), as _plain gives them\n"
     "\t\t\t\tent[i] = _plain(ent[i])\n\t\t\treturn\n"
     "\t\tnative = null  # not expected: the GDScript pass from here on (it lists every entity once more)\n"),
    ("func _bodies(node: Node, out: Array) -> void:",
     "var paths_of := {}  # script instance id and where -> the NodePaths the native observer reads (_paths)\n\n\n"
     "func _paths(n: Node, names: Array, where: int) -> Array:\n"
     "\t# \":NAME\" for each script variable, then the position's (the native observer's Object.get_indexed)\n"
     "\tvar s = n.get_script()\n\tvar key := \"%d/%d\" % [s.get_instance_id() if s else 0, where]\n"
     "\tif not paths_of.has(key):\n\t\tvar paths := []\n\t\tfor name in names:\n"
     "\t\t\tpaths.append(NodePath(\":\" + String(name)))\n\t\tif where == 1:\n"
     "\t\t\tpaths.append(NodePath(\":global_position\"))\n\t\telif where == 2:\n"
     "\t\t\tpaths.append(NodePath(\":global_transform:origin\"))\n\t\tpaths_of[key] = paths\n"
     "\treturn paths_of[key]\n\n\nfunc _bodies(node: Node, out: Array) -> void:"),
]


def native_addon(source: str) -> str:
    """The add-on's source observing through the native observer (`NATIVE_EDITS`); ValueError naming an anchor."""
    return anchored_edits(source, NATIVE_EDITS, "bench/godot_native_probe.py's NATIVE_EDITS")


# ---------------------------------------------------------------------------------------------- timing scripts
JSON_RUNNER = """extends SceneTree
# times each way of writing the lists in this process: no socket, no frames in between
func _init():
	var probe = load("res://probe/probe.gdns").new()
	var lists := {"typical": %s, "whole": %s}
	for name in lists:
		printerr("@@same %%s %%s" %% [name, to_json([JSON.parse(probe.ent_json(lists[name])).result, lists[name]])])
	var n := %d
	for r in range(%d):
		for name in lists:
			var l: Array = lists[name]
			var t0 := OS.get_ticks_usec()
			for i in range(n):
				var s: String = to_json(l)
			var t1 := OS.get_ticks_usec()
			for i in range(n):
				var b: PoolByteArray = var2bytes(l)
			var t2 := OS.get_ticks_usec()
			for i in range(n):
				var s: String = probe.ent_json(l)
			var t3 := OS.get_ticks_usec()
			for i in range(n):
				var k: int = probe.ent_walk(l)
			var t4 := OS.get_ticks_usec()
			printerr("@@json %%d %%s %%f %%f %%f %%f" %% [r, name, float(t1 - t0) / n, float(t2 - t1) / n,
				float(t3 - t2) / n, float(t4 - t3) / n])
	quit()
"""
PASS_RUNNER = """extends Node
# times the compact entity pass on coinhop's scene, GDScript and native, in this process (no socket, no frames in
# between), after checking that both list the same values: with every entity sent, and with none changed
var frames := 0


func _fresh(a, native) -> void:
	a.native = native
	a.node_info = {}
	a.c_nodes = []
	a.c_infos = []
	a.c_sigs = []
	a.c_ninfos = []
	a.c_dirty = true
	a.next_index = 0
	if native != null:
		native.forget()


func _resend(a) -> void:
	if a.native != null:
		a.native.forget()
	else:
		for j in range(a.c_sigs.size()):
			a.c_sigs[j] = null


func _process(_delta):
	frames += 1
	if frames < 60:
		return
	set_process(false)
	var a := Node.new()
	get_tree().root.add_child(a)
	a.set_script(load("res://%s/playtester.gd"))
	a.set_process(false)
	var native = load("res://%s/observe.gdns").new()
	var lists := []
	for nat in [null, native]:
		_fresh(a, nat)
		a._entities_compact()
		var all_sent = [a.ent.duplicate(true), a.fresh.duplicate(true)]
		a._entities_compact()
		lists.append([all_sent, a.ent.duplicate(true)])
	printerr("@@same_pass %%s" %% to_json(lists))
	var n := %d
	for r in range(%d):
		for nat in [null, native]:
			var how := "native" if nat != null else "gdscript"
			_fresh(a, nat)
			a._entities_compact()
			var t0 := OS.get_ticks_usec()
			for k in range(n):
				_resend(a)
				a._entities_compact()
			var t1 := OS.get_ticks_usec()
			for k in range(n):
				a._entities_compact()
			var t2 := OS.get_ticks_usec()
			printerr("@@pass %%d %%s %%f %%f" %% [r, how, float(t1 - t0) / n, float(t2 - t1) / n])
	get_tree().quit()
"""


def run_godot(proj: Path, extra: list[str], home: Path) -> str:
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home), "PATH": os.environ["PATH"]}
    out = subprocess.run(["godot3-server", "--path", str(proj), "--audio-driver", "Dummy", *extra],
                         capture_output=True, text=True, timeout=900, env=env)
    return out.stderr


def same_play(project: Path, steps: int) -> dict:
    """The add-on and its native copy (in ``project``'s ADDON_DIR, which the project copy keeps) drive the same random
    steps of the project through a Worker: every observation must be the same (`seen`) and the copy must observe
    natively."""
    from playtester.drive.worker import Worker
    from playtester.env import default_space

    spec = resolve(f"godot:{project}").with_config(done_events=[], max_episode_steps=10**9,
                                                    frames_per_action=FRAMES_PER_STEP)
    space = default_space(spec)
    rng = random.Random(0)
    plan = [rng.randrange(len(space)) for _ in range(steps)]
    runs = {}
    for how, addon in (("gdscript", None), ("native", str(project / ADDON_DIR / "playtester.gd"))):
        old = os.environ.pop("PLAYTESTER_GODOT_ADDON", None)
        if addon:
            os.environ["PLAYTESTER_GODOT_ADDON"] = addon
        try:
            with Worker(spec, space, capture=None) as w:
                obs = [w.reset(seed=0)] + [w.act(a) for a in plan]
                runs[how] = [(o.frame_no, sorted(o.features.items()),
                              sorted((k, e.kind, e.pos, sorted(e.attrs.items())) for k, e in o.entities.items()),
                              [(e.name, sorted(e.data.items())) for e in o.events]) for o in obs]
        finally:
            os.environ.pop("PLAYTESTER_GODOT_ADDON", None)
            if old is not None:
                os.environ["PLAYTESTER_GODOT_ADDON"] = old
    differ = [i for i, (x, y) in enumerate(zip(runs["gdscript"], runs["native"], strict=True)) if x != y]
    entities = sum(len(o[2]) for o in runs["native"])
    return {"steps": steps, "observations_differ": differ, "entities_seen": entities}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=5000)
    ap.add_argument("--steps", type=int, default=300, help="random steps of coinhop played with each add-on")
    ap.add_argument("--src", default=None, help="the source tarball, if already here (else downloaded and cached)")
    ap.add_argument("--name", default="godot_native_probe")
    args = ap.parse_args()
    made = provenance()
    tarball = fetch(args.src)
    record: dict = {"tarball": {"url": URL, "sha256": SHA256}, "calls": args.calls, "rounds": args.rounds}
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        include = headers(tarball, tmp_path / "src")
        home = tmp_path / "home"
        home.mkdir()
        # 2. the answer's JSON
        proj = tmp_path / "json"
        install(HERE / "observe.c", include, proj / "probe", "probe", "probe", "PlaytesterProbe")
        (proj / "project.godot").write_text('config_version=4\n\n[application]\n\nconfig/name="native probe"\n')
        (proj / "run.gd").write_text(JSON_RUNNER % (json.dumps(TYPICAL), json.dumps(WHOLE), args.calls, args.rounds))
        err = run_godot(proj, ["-s", "run.gd"], home)
        same, cols = {}, {}
        for line in err.splitlines():
            if line.startswith("@@same "):
                _, name, pair = line.split(" ", 2)
                native, gd = json.loads(pair)
                same[name] = native == gd  # Godot's to_json of both: its 6 decimals
            elif line.startswith("@@json "):
                _, _, name, *us = line.split()
                for how, v in zip(("to_json", "var2bytes", "native_json", "native_walk"), us, strict=True):
                    cols.setdefault(f"{name}_{how}_us", []).append(float(v))
        if not cols:
            sys.exit(f"godot3-server did not run the JSON probe (did the library load?):\n{err[-2000:]}")
        if not all(same.values()):
            sys.exit(f"the native JSON gives other values than to_json: {same}")
        record["json"] = {"lists": {"typical": TYPICAL, "whole": WHOLE}, "same_values": same,
                          "median": {k: statistics.median(v) for k, v in cols.items()}, "all": cols}
        # 3. the entity pass: a coinhop copy with the native add-on and observe.c in the add-on's folder
        game = tmp_path / "coinhop_native"
        shutil.copytree(COINHOP, game)
        folder = game / ADDON_DIR
        install(HERE / "observe.c", include, folder, ADDON_DIR, "observe", "PlaytesterObserver")
        (folder / "playtester.gd").write_text(native_addon(ADDON.read_text()))
        play = same_play(game, args.steps)
        if play["observations_differ"] or not play["entities_seen"]:
            sys.exit(f"the native copy's observations are not the add-on's: {play}")
        record["same_play"] = play
        (game / "bench_pass.gd").write_text(PASS_RUNNER % (ADDON_DIR, ADDON_DIR, args.calls, args.rounds))
        (game / "override.cfg").write_text('[autoload]\n\nBenchPass="*res://bench_pass.gd"\n')
        err = run_godot(game, ["--fixed-fps", "60"], home)
        passes: dict[str, list[float]] = {}
        lists = None
        for line in err.splitlines():
            if line.startswith("@@same_pass "):
                lists = json.loads(line.split(" ", 1)[1])
            elif line.startswith("@@pass "):
                _, _, how, sent, unchanged = line.split()
                passes.setdefault(f"{how}_every_entity_sent_us", []).append(float(sent))
                passes.setdefault(f"{how}_none_changed_us", []).append(float(unchanged))
        if lists is None or not passes:
            sys.exit(f"godot3-server did not run the pass probe:\n{err[-2000:]}")
        if lists[0] != lists[1] or lists[0][1] != []:
            sys.exit(f"the two passes list other values: {lists}")
        record["entity_pass"] = {"median": {k: statistics.median(v) for k, v in passes.items()}, "all": passes,
                                 "listed_every_entity": lists[0][0][0]}
    for part in ("json", "entity_pass"):
        for k, v in record[part]["median"].items():
            print(f"{k:34s} {v:7.2f} us")
    print(f"same play: {record['same_play']}")
    write_results(args.name, record, made)


if __name__ == "__main__":
    main()
