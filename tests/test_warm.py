"""The warm worker host (playtester.drive.warm): what episodes load, the host loads once before it forks."""

import importlib
import importlib.machinery
import sys

from conftest import fixture_spec

from playtester.drive import InputFrame, warm


def test_the_host_imports_standard_modules_an_episode_used_but_never_the_games_own(worker_for):
    w = worker_for(fixture_spec("warm"))
    first = w.reset(seed=3)
    assert first.features["std_before"] == 0.0 and first.features["own_before"] == 0.0
    w.step(InputFrame(), frames=2)
    second = w.reset(seed=3)
    assert second.features["std_before"] == 1.0  # loaded by the host before this fork
    assert second.features["own_before"] == 0.0  # the game's own import-time code still runs in the episode
    assert second.features["helper"] == 7.0
    assert second.features["draw"] == first.features["draw"]  # same seed, same game: warming changes nothing
    third = w.reset(seed=4)
    assert third.features["draw"] != first.features["draw"]


def test_compiled_sources_are_cached_for_their_exact_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # as with PYTHONDONTWRITEBYTECODE: no .pyc
    monkeypatch.syspath_prepend(str(tmp_path))
    loader = importlib.machinery.SourceFileLoader
    monkeypatch.setattr(loader, "source_to_code", loader.source_to_code)  # undone after the test
    src = tmp_path / "warm_cached_mod.py"
    src.write_text("X = 1\n")
    notes = tmp_path / "notes.txt"
    warm.install_code_cache()
    warm.episode_started()
    try:
        importlib.import_module("warm_cached_mod")
        warm.note(str(notes))
        assert f"C {src}" in notes.read_text().splitlines()
        warm.warm(str(notes))
        cached = warm._CODE[str(src)][1]
        del sys.modules["warm_cached_mod"]
        mod = importlib.import_module("warm_cached_mod")
        assert mod.__spec__.loader.get_code("warm_cached_mod") is cached  # not compiled again
        assert mod.X == 1
        src.write_text("X = 22\n")  # the game changed: its new source is compiled, not the cached code
        del sys.modules["warm_cached_mod"]
        importlib.invalidate_caches()
        assert importlib.import_module("warm_cached_mod").X == 22
    finally:
        sys.modules.pop("warm_cached_mod", None)
        warm._CODE.pop(str(src), None)
