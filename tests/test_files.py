"""`playtester.files`: where cached results go, and folder fingerprints."""

from __future__ import annotations

import os
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


def test_folder_fingerprint_content_or_stat_skips_and_limits(tmp_path):
    from playtester.files import folder_fingerprint

    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text("one")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("x")
    first, by_stat = folder_fingerprint(tmp_path), folder_fingerprint(tmp_path, content=False)
    st = os.stat(tmp_path / "sub" / "a.txt")
    (tmp_path / "sub" / "a.txt").write_text("two")  # the same size, and the same time put back
    os.utime(tmp_path / "sub" / "a.txt", ns=(st.st_atime_ns, st.st_mtime_ns))
    assert folder_fingerprint(tmp_path) != first  # content read: the change shows
    assert folder_fingerprint(tmp_path, content=False) == by_stat  # sizes and times only: it cannot
    again = folder_fingerprint(tmp_path)
    (tmp_path / ".git" / "HEAD").write_text("changed")
    (tmp_path / "sub" / "b.demo").write_text("kept beside")
    assert folder_fingerprint(tmp_path, skip_suffixes=(".demo",)) == again  # skipped folders and suffixes
    assert folder_fingerprint(tmp_path) != again  # the .demo file counts when not skipped
    (tmp_path / "sub" / "c.txt").write_text("three")
    assert folder_fingerprint(tmp_path, max_files=2) is None and folder_fingerprint(tmp_path, max_files=3)
    assert folder_fingerprint(tmp_path, max_read=5) is None and folder_fingerprint(tmp_path, max_read=100)
    assert folder_fingerprint(tmp_path, big_file=2, max_read=5)  # files over big_file are known by stat, not read
