"""Games as people write them: a package game named as Python users name it, and music the machine cannot
decode. Run as a user runs them: the installed ``playtester`` command in the game's folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GAMES

from playtester.drive.inputs import InputFrame
from playtester.drive.spec import resolve

PLAYTESTER = Path(sys.executable).with_name("playtester")  # the console script: the cwd is not on its sys.path


def playtester(*args, cwd, timeout=300):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [str(PLAYTESTER)] if PLAYTESTER.exists() else [sys.executable, "-c",
                                                          "import sys; sys.path.pop(0); from playtester.cli import "
                                                          "app; app()"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)


@pytest.mark.parametrize("spec,cwd", [("pkg_game", GAMES), ("pkg_game.cli:main", GAMES),
                                      (str(GAMES / "pkg_game"), GAMES.parent.parent)])
def test_package_game_runs_by_module_entry_point_and_folder(tmp_path, spec, cwd):
    out = playtester("run", spec, "--steps", "40", "--json", str(tmp_path / "s.json"), cwd=cwd)
    assert out.returncode == 0, out.stdout + out.stderr
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["steps"] == 40 and data["episodes"] == [] and data["actions"] == "analyzed", data


def test_package_game_loads_its_assets_and_counts_its_code(worker_for, monkeypatch):
    monkeypatch.chdir(GAMES)
    for text in ("pkg_game", "pkg_game.cli:main"):
        w = worker_for(resolve(text), code_coverage=True)
        obs = w.reset(seed=0)
        assert not obs.done, obs.exit
        start = (obs.features["x"], obs.features["y"])
        obs = w.step(InputFrame.make(keys=["RIGHT"]), frames=2)
        assert obs.features["walls"] == 28  # the level from pkg_game/assets/level1.txt
        assert (obs.features["x"], obs.features["y"]) == (start[0] + 1, start[1])
        w.end_episode()
        files = {os.path.basename(f) for f in w.final_code_lines}
        assert {"cli.py", "world.py", "settings.py"} <= files, files
        assert all(f.startswith(str(GAMES / "pkg_game")) for f in w.final_code_lines)


@pytest.fixture(scope="module")
def undecodable_midi():
    """The MIDI fixture fails to decode in plain pygame here (no synth), as on the machine it was reported on."""
    code = ("import pygame; pygame.init()\n"
            "try:\n    pygame.mixer.music.load('theme.mid')\nexcept pygame.error as e:\n    print('ERR', e)\n"
            "else:\n    print('LOADED')\n")
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", SDL_VIDEODRIVER="dummy")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=GAMES / "midi_music",
                         env=env, timeout=60)
    if "LOADED" in out.stdout:
        pytest.skip("this machine has a MIDI synth: the MIDI fixture decodes here")
    assert "ERR" in out.stdout, out.stdout + out.stderr
    return out.stdout.split("ERR", 1)[1].strip()


def test_undecodable_music_plays_as_silence_with_one_warning(tmp_path, undecodable_midi):
    out = playtester("run", "midi_music/game.py:main", "--steps", "60", "--json", str(tmp_path / "s.json"),
                     cwd=GAMES)
    assert out.returncode == 0, out.stdout + out.stderr
    data = json.loads((tmp_path / "s.json").read_text())
    assert not any(e["outcome"] == "crash" for e in data["episodes"])
    audio = [w for w in data["warnings"] if "played as silence" in w]
    assert len(audio) == 1 and "jingle.mid, theme.mid" in audio[0] and "--no-silent-audio" in audio[0], audio
    assert out.stdout.count("played as silence") == 1


def test_undecodable_music_with_silent_audio_off_is_a_crash(tmp_path, undecodable_midi):
    out = playtester("run", "midi_music/game.py:main", "--steps", "3", "--no-silent-audio", "--actions", "blind",
                     "--json", str(tmp_path / "s.json"), cwd=GAMES)
    assert out.returncode == 1, out.stdout + out.stderr
    data = json.loads((tmp_path / "s.json").read_text())
    crashes = [e for e in data["episodes"] if e["outcome"] == "crash"]
    assert len(crashes) == 3 and all(undecodable_midi in e["exit"]["message"] for e in crashes), data
    assert "game.py:19" in out.stdout  # where the game loads it, as without playtester


def test_silent_audio_in_the_worker(worker_for, undecodable_midi):
    spec = resolve(str(GAMES / "midi_music" / "game.py") + ":main")
    w = worker_for(spec)
    obs = w.reset(seed=0)
    assert not obs.done, obs.exit
    assert obs.info["audio_silenced"] == [("theme.mid", undecodable_midi), ("jingle.mid", undecodable_midi)]
    for _ in range(3):  # the jingle plays, music is queued again: silence, nothing new to warn about
        w.step(InputFrame.make(keys=["SPACE"]), frames=1)
        obs = w.step(InputFrame(), frames=1)
        assert "audio_silenced" not in obs.info
    assert obs.features["score"] == 3 and not obs.done
    off = worker_for(spec.with_config(silent_audio=False))
    obs = off.reset(seed=0)
    assert obs.done and obs.exit.kind == "exception" and obs.exit.exc_type == "error"
    assert (os.path.basename(obs.exit.frames[-1].file), obs.exit.frames[-1].line) == ("game.py", 19)


def test_missing_sound_file_is_still_a_crash(worker_for, tmp_path):
    game = tmp_path / "game.py"
    game.write_text("import pygame\n\ndef main():\n    pygame.init()\n    pygame.display.set_mode((8, 8))\n"
                    "    pygame.mixer.Sound('missing.ogg')\n    while True:\n        pygame.display.flip()\n")
    obs = worker_for(resolve(f"{game}:main")).reset(seed=0)
    assert obs.done and obs.exit.exc_type == "FileNotFoundError"
    assert (obs.exit.frames[-1].file, obs.exit.frames[-1].line) == (str(game), 6)
