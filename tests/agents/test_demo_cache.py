"""Replayed demonstrations are kept in the cache (`campaign.demos`): a second campaign with the same traces reads
them instead of playing them, and anything that could change what the replay shows (the game's files, the trace,
the observation settings) makes it play them again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from playtester.actions.space import space_to_dict
from playtester.campaign.demos import play_demos
from playtester.drive.spec import resolve
from playtester.env import GameEnv
from playtester.findings import Trace

GAME = """\
import pygame
from playtester import probe

COLOR = (200, 40, 40)


def main():
    pygame.init()
    screen = pygame.display.set_mode((32, 24))
    clock = pygame.time.Clock()
    x = 4
    while True:
        for e in pygame.event.get():
            if e.type == pygame.QUIT:
                return
        keys = pygame.key.get_pressed()
        if keys[pygame.K_RIGHT]:
            x += 1
        if keys[pygame.K_LEFT]:
            x -= 1
        probe.observe(x=x)
        screen.fill((0, 0, 0))
        pygame.draw.rect(screen, COLOR, (x % 28, 8, 4, 4))
        pygame.display.flip()
        clock.tick(60)


if __name__ == "__main__":
    main()
"""


@pytest.fixture
def game(tmp_path, monkeypatch):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "mover.py").write_text(GAME)
    monkeypatch.setenv("PLAYTESTER_CACHE", str(tmp_path / "cache"))
    return folder / "mover.py"


def _env(path, **kw):
    env = GameEnv(resolve(str(path)), actions="blind", **({"obs_size": (32, 24)} | kw))
    played = []
    step = env.step

    def counting(a):
        played.append(a)
        return step(a)

    env.step = counting  # type: ignore[method-assign]
    return env, played


def _traces(env, seed=3, n=12):
    spec = env.spec_
    rng = np.random.default_rng(seed)
    actions = [int(a) for a in rng.integers(0, len(env.space), n)]
    return [("t.json", Trace(spec.text, spec.config.model_dump(mode="json"), seed, space_to_dict(env.space), actions))]


def _same(a, b):
    assert [d.source for d in a] == [d.source for d in b]
    for da, db in zip(a, b, strict=True):
        assert len(da.steps) == len(db.steps) > 0
        for x, y in zip(da.steps, db.steps, strict=True):
            assert np.array_equal(x.obs, y.obs) and x.action == y.action and x.reward == y.reward
            assert x.info.keys() == y.info.keys() and x.info["features"] == y.info["features"]
            assert np.array_equal(x.info["action_mask"], y.info["action_mask"])


def test_a_second_replay_reads_the_cache_and_shows_the_same(game):
    env, played = _env(game)
    try:
        traces = _traces(env)
        first = play_demos(env, traces)
        assert len(played) == 12 and len(list((game.parent.parent / "cache" / "demos").glob("*.demo"))) == 1
        second = play_demos(env, traces)
        assert len(played) == 12  # not played again
        _same(first, second)
        # another trace (other actions) is played; so is the same trace with another observation size
        play_demos(env, _traces(env, seed=4))
        assert len(played) == 24
    finally:
        env.close()
    env, played = _env(game, obs_size=(16, 12))
    try:
        assert play_demos(env, _traces(env))[0].steps[0].obs.shape == (12, 16, 3) and len(played) == 12
    finally:
        env.close()


def test_a_changed_game_file_is_played_again_and_shows_the_change(game):
    env, played = _env(game)
    try:
        before = play_demos(env, _traces(env))
    finally:
        env.close()
    game.write_text(GAME.replace("COLOR = (200, 40, 40)", "COLOR = (40, 200, 40)"))
    env, played = _env(game)
    try:
        after = play_demos(env, _traces(env))
        assert len(played) == 12
        assert not np.array_equal(before[0].steps[-1].obs, after[0].steps[-1].obs)  # the new colour, not the cached
        # a file the game does not import but keeps beside it (an asset, say) counts too
        (game.parent / "level.json").write_text(json.dumps({"rows": 3}))
        play_demos(env, _traces(env))
        assert len(played) == 24
    finally:
        env.close()


def test_a_torn_entry_is_played_again_and_written_anew(game):
    env, played = _env(game)
    try:
        traces = _traces(env)
        play_demos(env, traces)
        (entry,) = (game.parent.parent / "cache" / "demos").glob("*.demo")
        entry.write_bytes(entry.read_bytes()[:100])
        again = play_demos(env, traces)
        assert len(played) == 24 and len(again[0].steps) == 12
        play_demos(env, traces)
        assert len(played) == 24  # the entry written again is read
    finally:
        env.close()


def test_no_cache_when_it_is_off(game, monkeypatch):
    monkeypatch.setenv("PLAYTESTER_CACHE", "off")
    env, played = _env(game)
    try:
        traces = _traces(env)
        play_demos(env, traces)
        play_demos(env, traces)
        assert len(played) == 24 and not (game.parent.parent / "cache").exists()
    finally:
        env.close()


def test_two_campaigns_replaying_the_same_trace_at_once_play_it_once(game, tmp_path):
    env, _ = _env(game)
    try:
        (trace,) = _traces(env, n=200)
    finally:
        env.close()
    (tmp_path / "t.json").write_text(trace[1].to_json())
    script = textwrap.dedent(f"""
        import logging
        from playtester.campaign.demos import load_demos, play_demos
        from playtester.actions.space import space_to_dict
        from playtester.drive.spec import resolve
        from playtester.env import GameEnv
        logging.basicConfig(level=logging.INFO, format="%(message)s")
        env = GameEnv(resolve({str(game)!r}), actions="blind", obs_size=(32, 24))
        play_demos(env, load_demos([{str(tmp_path / "t.json")!r}], env.spec_, space_to_dict(env.space)))
        env.close()
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True, env=dict(os.environ))
             for _ in range(2)]
    said = [p.communicate(timeout=120)[1] for p in procs]
    assert all(p.returncode == 0 for p in procs), said
    lines = sorted(next(x for x in s.splitlines() if x.startswith("demonstrations:")).split(",")[0] for s in said)
    assert lines == ["demonstrations: 0 of 1 read from the cache", "demonstrations: 1 of 1 read from the cache"]


def test_a_game_folder_too_large_to_fingerprint_is_played_every_time(game, monkeypatch):
    import playtester.campaign.demos as demos

    for i in range(4):
        (game.parent / f"asset{i}.bin").write_bytes(bytes(10))
    monkeypatch.setattr(demos, "MAX_FILES", 3)
    env, played = _env(game)
    try:
        traces = _traces(env)
        play_demos(env, traces)
        play_demos(env, traces)
        assert len(played) == 24 and not list((game.parent.parent / "cache").rglob("*.demo"))
    finally:
        env.close()


def test_pruning_removes_the_longest_unused_entries_first(tmp_path):
    from playtester.campaign.demos import _prune

    for i, name in enumerate(["old", "mid", "new"]):
        p = tmp_path / f"{name}.demo"
        p.write_bytes(bytes(100))
        p.with_suffix(".lock").write_bytes(b"")
        os.utime(p, (1000 + i, 1000 + i))
    _prune(tmp_path, limit=250)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mid.demo", "mid.lock", "new.demo", "new.lock"]
