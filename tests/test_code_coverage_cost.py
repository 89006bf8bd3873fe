"""Code coverage in the worker: what its cheaper measurement records, and what it leaves out.

The episode process drives coverage.py's line tracer itself; a worker traces whole episodes while its traced
steps are within `Worker.code_share`, and a traced episode stops tracing after `code_patience` steps without
a new line. These tests pin down that the lines are coverage.py's, that untraced and traced episodes play
the same frames, and exactly which lines the cheaper scheme misses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from playtester.drive import InputFrame, resolve

GAME = textwrap.dedent(
    """\
    import pygame


    def early(n):
        return n + 1


    def late(n):
        x = n * 2
        return x


    def main(late_at=50, frames=0):
        pygame.init()
        screen = pygame.display.set_mode((16, 16))
        clock = pygame.time.Clock()
        n = 0
        while not frames or n < frames:
            pygame.event.get()
            n = early(n)
            if n >= late_at:
                late(n)
            screen.fill((n % 256, 0, 0))
            pygame.display.flip()
            clock.tick(30)
    """
)
LATE = {9, 10, 22}  # late() and the line calling it, first run at frame `late_at`


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    path = folder / "late_game.py"
    path.write_text(GAME)
    return path


def spec_of(path, **game_args):
    return resolve(f"{path}:main", game_args=game_args)


def lines_of(reports):
    """The union of code_lines reports, keyed by file name (paths are canonical in the worker)."""
    out: dict[str, set[int]] = {}
    for report in reports:
        for f, lines in report.items():
            out.setdefault(os.path.basename(f), set()).update(lines)
    return out


def run_episode(w, seed, steps, frames=10):
    obs = w.reset(seed=seed)
    reports, shown, stopped = [obs.info.get("code_lines", {})], [obs.frame], []
    for _ in range(steps):
        obs = w.step(InputFrame(), frames=frames)
        reports.append(obs.info.get("code_lines", {}))
        shown.append(obs.frame)
        if "code_stopped" in obs.info:
            stopped.append(obs.info["code_stopped"])
    w.end_episode()
    reports.append(w.final_code_lines)
    return lines_of(reports), shown, stopped


def coverage_py_lines(path, frames, late_at):
    """What a plain ``coverage.Coverage(include=...)`` run of the same game records (no playtester)."""
    code = textwrap.dedent(
        f"""\
        import importlib.util, json, os, coverage
        cov = coverage.Coverage(data_file=None, include=[{str(path.parent / '*')!r}], config_file=False)
        cov.start()
        spec = importlib.util.spec_from_file_location("late_game", {str(path)!r})
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main(late_at={late_at}, frames={frames})
        cov.stop()
        data = cov.get_data()
        print(json.dumps({{os.path.basename(f): sorted(data.lines(f)) for f in data.measured_files()}}))
        """
    )
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                         check=True)
    return {f: set(lines) for f, lines in json.loads(out.stdout.strip().splitlines()[-1]).items()}


def test_a_fully_traced_episode_records_what_coverage_py_records(game, worker_for):
    w = worker_for(spec_of(game, late_at=30), capture=None, code_coverage=True, code_share=1.0, code_patience=0)
    lines, _, stopped = run_episode(w, seed=0, steps=6)  # 60 frames: late() runs from frame 30 on
    assert stopped == []
    assert lines == coverage_py_lines(game, frames=60, late_at=30)
    assert LATE <= lines["late_game.py"]


def test_patience_stops_tracing_and_lines_first_run_afterwards_are_missed(game, worker_for):
    w = worker_for(spec_of(game, late_at=50), capture=None, code_coverage=True, code_share=1.0, code_patience=2)
    lines, _, stopped = run_episode(w, seed=0, steps=8)  # late() runs from frame 50, i.e. in step 5
    # the loop's lines are new in the reset and the first step; steps 2 and 3 bring nothing: stop after step 3
    assert stopped == [4]  # observations count from the reset's (1)
    assert w.code_steps == [4, 9]
    assert not LATE & lines["late_game.py"]  # what the cheaper scheme misses
    assert {5, 14, 19, 20} <= lines["late_game.py"]


def test_lines_already_known_are_not_sent_again(game, worker_for):
    w = worker_for(spec_of(game, late_at=50), capture=None, code_coverage=True, code_share=1.0, code_patience=0)
    first, _, _ = run_episode(w, seed=0, steps=3)
    assert first and not LATE & first["late_game.py"]
    second, _, _ = run_episode(w, seed=1, steps=6)
    assert second == {"late_game.py": LATE}  # only late() and its call are new to this worker
    assert w.code_known and {os.path.basename(f) for f in w.code_known} == {"late_game.py"}


def test_episodes_are_traced_within_the_share_of_steps(game, worker_for):
    w = worker_for(spec_of(game), capture=None, code_coverage=True, code_share=0.5, code_patience=0)
    traced = []
    for seed in range(5):
        before = w.code_steps[0]
        run_episode(w, seed=seed, steps=4)
        traced.append(w.code_steps[0] > before)
    # 5 observations an episode: traced while traced steps <= half of all steps at its reset
    assert traced == [True, False, True, False, True]
    assert w.code_steps == [15, 25]


def test_traced_and_untraced_episodes_play_the_same_frames(worker_for):
    spec = resolve("blockmaze")
    plain = worker_for(spec, capture=(48, 48))
    measured = worker_for(spec, capture=(48, 48), code_coverage=True, code_share=0.0, code_patience=0)
    _, reference, _ = run_episode(plain, seed=3, steps=12, frames=3)
    traced_lines, traced, _ = run_episode(measured, seed=3, steps=12, frames=3)
    untraced_lines, untraced, _ = run_episode(measured, seed=3, steps=12, frames=3)
    assert traced_lines and not untraced_lines  # share 0: the first episode only
    for a, b, c in zip(reference, traced, untraced, strict=True):
        assert np.array_equal(a, b) and np.array_equal(a, c)
