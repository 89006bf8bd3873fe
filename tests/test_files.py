"""`playtester.files`: where cached results go."""

from __future__ import annotations

from pathlib import Path

from playtester.files import cache_dir


def test_the_cache_folder_follows_playtester_cache_then_xdg_then_home(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYTESTER_CACHE", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir("detections") == tmp_path / "mine" / "detections"
    monkeypatch.delenv("PLAYTESTER_CACHE")
    assert cache_dir("detections") == tmp_path / "xdg" / "playtester" / "detections"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir("x") == Path(tmp_path / "home" / ".cache" / "playtester" / "x")
    for off in ("off", "OFF", "0"):
        monkeypatch.setenv("PLAYTESTER_CACHE", off)
        assert cache_dir("detections") is None
