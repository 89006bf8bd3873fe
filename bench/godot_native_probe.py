"""Probe of the native route for the Godot add-on: writes bench/results/godot_native_probe.json.

The add-on's per-step observation is GDScript (bench/godot.py: the entity pass and the answer's JSON, about 45 us of
Godot's CPU a step on the slower host; with it free, acting ahead ran at 0.81 of the raw game's rate against 0.64).
Native code (GDNative) would do it faster, if three things hold, which this probe checks on the machine it runs on:

1. Godot 3's GDNative C headers can be had: Debian's source package of the godot3 runtimes
   (``godot_3.2.3-stable.orig.tar.gz``, checked against the sha256 that Debian's Sources index gives) holds
   ``modules/gdnative/include`` and ``gdnative_api.json``, from which Godot's own build script
   (``gdnative_builders.py``, in the same tarball) writes the API struct header. Downloaded once into
   ``~/.cache/playtester/godot-src`` (``--src FILE``: a tarball already here).
2. Debian's godot3-server loads a GDNative library built with gcc against them (``bench/godot_native/probe.c``: a
   NativeScript class with ``ent_json(list)``, the list as JSON, and ``ent_walk(list)``, the same walk with no
   formatting), and its JSON gives the same values as Godot's ``to_json`` (to Godot's own 6 decimals).
3. What it saves: per call, in one Godot process, rounds interleaved (medians): Godot's ``to_json``, ``var2bytes``,
   the native JSON and the native walk, on two lists as the add-on's compact answers hold them (``ent``): a typical
   step of coinhop (2 entities changed, 14 values) and a whole one (every entity, as after a reset).

Usage: python bench/godot_native_probe.py [--rounds 7] [--calls 5000] [--src TARBALL] [--name NAME]
It asserts nothing but the three checks above (it stops with the reason when one fails).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import types
import urllib.request
from pathlib import Path

from provenance import provenance, write_results

TARBALL = "godot_3.2.3-stable.orig.tar.gz"
URL = f"http://deb.debian.org/debian/pool/main/g/godot/{TARBALL}"
SHA256 = "4c2a8e7da1ad05c6223b0ff6cf2be124dad6708b56a8ec9910dc2aaf82a553ae"  # Debian bookworm's Sources index
TOP = "godot-3.2.3-stable/modules/gdnative/"
PROBE_C = Path(__file__).resolve().parent / "godot_native" / "probe.c"
# the add-on's compact answers (`ent`) of coinhop, as read off a run: a typical step (the enemy and the player
# changed: index, variables, position) and a whole one (every entity: three coins, the enemy, the main node, the player)
TYPICAL = [4, 40, 200, 300, 1, 247.333389, 212, 5, 3, [0, 0], 1, 0, 30, 211.999542]
WHOLE = [0, 1, 110, 200, 1, 1, 200, 200, 2, 1, 280, 170, 4, 40, 200, 300, 1, 247.333389, 212, 3, 0, False,
         5, 3, [0, 0], 1, 0, 30, 211.999542]
RUNNER = """extends SceneTree
# times each way of writing the lists in this process: no socket, no frames in between
func _init():
	var probe = load("res://probe.gdns").new()
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
			printerr("@@probe %%d %%s %%f %%f %%f %%f" %% [r, name, float(t1 - t0) / n, float(t2 - t1) / n,
				float(t3 - t2) / n, float(t4 - t3) / n])
	quit()
"""
GDNLIB = """[general]

singleton=false
load_once=true
symbol_prefix="godot_"
reloadable=false

[entry]

Server.64="res://libprobe.so"
X11.64="res://libprobe.so"

[dependencies]

Server.64=[  ]
X11.64=[  ]
"""
GDNS = """[gd_resource type="NativeScript" load_steps=2 format=2]

[ext_resource path="res://probe.gdnlib" type="GDNativeLibrary" id=1]

[resource]
resource_name = "PlaytesterProbe"
class_name = "PlaytesterProbe"
library = ExtResource( 1 )
"""


def fetch(src: str | None) -> Path:
    """The source tarball, checked against Debian's sha256 (downloaded into the cache unless ``src`` names one)."""
    path = Path(src) if src else Path.home() / ".cache" / "playtester" / "godot-src" / TARBALL
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with urllib.request.urlopen(URL, timeout=300) as r, open(path.with_suffix(".part"), "wb") as f:
            shutil.copyfileobj(r, f)
        path.with_suffix(".part").rename(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != SHA256:
        sys.exit(f"{path}: sha256 {digest}, not Debian's {SHA256}: delete it and run again")
    return path


def headers(tarball: Path, where: Path) -> Path:
    """``modules/gdnative`` of the tarball in ``where``, with the API struct header written by Godot's build script."""
    with tarfile.open(tarball) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(TOP) and
                   (m.name.startswith(TOP + "include/") or m.name in (TOP + "gdnative_api.json",
                                                                    TOP + "gdnative_builders.py"))]
        tar.extractall(where, members=members, filter="data")
    gdn = where / TOP
    sys.modules.setdefault("platform_methods", types.SimpleNamespace(subprocess_main=lambda *a: None))
    sys.path.insert(0, str(gdn))
    import gdnative_builders  # Godot's own generator (it imports platform_methods only for Windows builds)

    api = json.loads((gdn / "gdnative_api.json").read_text())
    (gdn / "include" / "gdnative_api_struct.gen.h").write_text(gdnative_builders._build_gdnative_api_struct_header(api))
    return gdn / "include"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=5000)
    ap.add_argument("--src", default=None, help="the source tarball, if already here (else downloaded and cached)")
    ap.add_argument("--name", default="godot_native_probe")
    args = ap.parse_args()
    made = provenance()
    tarball = fetch(args.src)
    with tempfile.TemporaryDirectory() as tmp:
        include = headers(tarball, Path(tmp) / "src")
        proj = Path(tmp) / "proj"
        proj.mkdir()
        subprocess.run(["gcc", "-O2", "-Wall", "-fPIC", "-shared", "-I", str(include), str(PROBE_C), "-o",
                        str(proj / "libprobe.so")], check=True)
        (proj / "probe.gdnlib").write_text(GDNLIB)
        (proj / "probe.gdns").write_text(GDNS)
        (proj / "project.godot").write_text('config_version=4\n\n[application]\n\nconfig/name="native probe"\n')
        (proj / "run.gd").write_text(RUNNER % (json.dumps(TYPICAL), json.dumps(WHOLE),
                                               args.calls, args.rounds))
        home = Path(tmp) / "home"
        home.mkdir()
        env = {"HOME": str(home), "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home), "PATH": "/usr/bin:/bin"}
        out = subprocess.run(["godot3-server", "--path", str(proj), "--audio-driver", "Dummy", "-s", "run.gd"],
                             capture_output=True, text=True, timeout=600, env=env)
    same, cols = {}, {}
    for line in out.stderr.splitlines():
        if line.startswith("@@same "):
            _, name, pair = line.split(" ", 2)
            native, gd = json.loads(pair)
            same[name] = native == gd  # Godot's to_json of both: its 6 decimals
        elif line.startswith("@@probe "):
            _, _, name, *us = line.split()
            for how, v in zip(("to_json", "var2bytes", "native_json", "native_walk"), us, strict=True):
                cols.setdefault(f"{name}_{how}_us", []).append(float(v))
    if not cols:
        sys.exit(f"godot3-server did not run the probe (did the library load?):\n{out.stderr[-2000:]}")
    if not all(same.values()):
        sys.exit(f"the native JSON gives other values than to_json: {same}")
    med = {k: statistics.median(v) for k, v in cols.items()}
    for k, v in med.items():
        print(f"{k:28s} {v:7.2f} us")
    write_results(args.name, {"tarball": {"url": URL, "sha256": SHA256}, "calls": args.calls, "rounds": args.rounds,
                              "lists": {"typical": TYPICAL, "whole": WHOLE}, "same_values": same, "median": med,
                              "all": cols}, made)


if __name__ == "__main__":
    main()
