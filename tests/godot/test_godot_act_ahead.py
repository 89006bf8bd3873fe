"""Acting ahead on Godot: the episode process plays the batch itself (`RemoteRunner.play_batch`), several steps in
flight at godot3-server and several steps per request (``then`` with ``each``), and every step is still observed
as with one step per round trip:

- the same actions give the same observations step by step (features, entities, events, error lines with their
  file and line, frames), on the declared space (pipelined, grouped requests) and the analyzed space (its masks
  read the game: one step at a time, chosen in the episode process), and a campaign gives the same findings, traces
  and per-step observations with ``ahead`` 1 and 8;
- a hang and a crash inside a batch end the episode at the step they happen in, as one step at a time does, and
  the game's process group is gone;
- a call between two batch steps ends the batch after the steps in flight (kept, answered in order), and a
  reset drops what is left;
- the plan the episode process played comes back with the batch's last step, where its draws left it (a Ray
  actor goes on with it);
- frames on godot3-runner come out as with one step at a time.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_godot_backend import _need, _server, godot_processes, mine  # noqa: F401  (_server: autouse)

import playtester.campaign.loop as loop_module
from playtester.actions.space import native_space
from playtester.agents.common import RandomPlan
from playtester.campaign import Budget, Observer, explore
from playtester.drive.spec import resolve
from playtester.env import default_space, resolve_space

FAULTPROJ = Path(__file__).resolve().parent / "faultproj"



def seen(obs: Any) -> tuple:
    """What a step shows: everything the campaign reads of it."""
    return (obs.frame_no, obs.time_ms, obs.done, sorted(obs.features.items()),
            sorted((k, e.kind, e.pos, sorted(e.attrs.items())) for k, e in obs.entities.items()),
            [(e.name, sorted(e.data.items()), e.frame) for e in obs.events],
            [(r.logger, r.level, r.message, r.file, r.line, r.frame) for r in obs.logs],
            None if obs.action_mask is None else obs.action_mask.tolist(),
            None if obs.exit is None else (obs.exit.kind, obs.exit.signal, obs.exit.code),
            bool(obs.info.get("answer_lost")))


def one_at_a_time(w: Any, seed: int, rng_seed: int, steps: int) -> tuple[list[int], list[tuple]]:
    obs = w.reset(seed=seed)
    plan = RandomPlan.of(np.random.default_rng(rng_seed), len(w.space))
    actions, out = [], []
    for _ in range(steps):
        a = plan.choose(obs.action_mask)
        obs = w.act(a)
        actions.append(a)
        out.append(seen(obs))
        if obs.done:
            break
    return actions, out


def ahead(w: Any, seed: int, rng_seed: int, steps: int, n: int) -> tuple[list[int], list[tuple]]:
    """The same play in batches of ``n`` (each batch's first action chosen here, the rest by the plan where the game
    runs): the agent's own generator is asked for every step, as the campaign loop asks its agent."""
    obs = w.reset(seed=seed)
    agent = RandomPlan.of(np.random.default_rng(rng_seed), len(w.space))
    actions: list[int] = []
    out: list[tuple] = []
    while len(out) < steps:
        first = agent.choose(obs.action_mask)
        got_actions, got = w.act_ahead(first, RandomPlan.of(agent.rng, len(w.space)), min(n, steps - len(out)))
        for i, (a, o) in enumerate(zip(got_actions, got, strict=True)):
            if i:
                assert agent.choose(obs.action_mask) == a  # the plan chose what the agent chooses
            actions.append(a)
            out.append(seen(o))
            obs = o
        assert not w.ahead
        if obs.done:
            break
    return actions, out


def test_the_fault_project_prints_errors_on_some_steps_only(worker_for):
    spec = resolve(f"godot:{FAULTPROJ}")
    w = worker_for(spec, space=default_space(spec), capture=None)
    _, steps = one_at_a_time(w, 0, 0, 60)
    with_logs = [i for i, s in enumerate(steps) if s[6]]
    assert 0 < len(with_logs) < len(steps) // 2, with_logs
    assert {s[6][0][3:5] for s in steps if s[6]} == {("res://main.gd", 33)}


@pytest.mark.parametrize("n", [5, 200])
def test_a_batch_observes_every_step_as_one_step_at_a_time(worker_for, n):
    """The fault project's declared space: its masks and inputs depend on nothing, so the steps are pipelined and
    grouped (several per request, each answered): the error lines still land on their own steps."""
    spec = resolve(f"godot:{FAULTPROJ}")
    space = default_space(spec)
    one = one_at_a_time(worker_for(spec, space=space, capture=None), 1, 3, 200)
    many = ahead(worker_for(spec, space=space, capture=None), 1, 3, 200, n)
    assert sum(bool(s[6]) for s in one[1]) >= 5  # error lines on several steps
    assert many == one


@pytest.mark.parametrize("which", ["declared", "analyzed"])
def test_the_plan_comes_back_where_the_batch_left_it(worker_for, which):
    """A Ray actor goes on with a batch's plan in its next call (`WorkerHost.act_more`): the episode process's copy
    comes back with the batch's last step (`Worker.plan_after`) and draws next what the plan draws after the batch's
    steps, pipelined (the declared space) or chosen on each step's mask (the analyzed space)."""
    if which == "analyzed":
        pytest.importorskip("gdtoolkit")
    spec = resolve("godot:coinhop").with_config(done_events=[], max_episode_steps=10**6)
    space = default_space(spec) if which == "declared" else resolve_space(spec, "analyzed")
    w = worker_for(spec, space=space, capture=None)
    first = int(np.flatnonzero(w.reset(seed=0).action_mask)[0])
    _, got = w.act_ahead(first, RandomPlan.of(np.random.default_rng(9), len(space)), 20)
    assert len(got) == 20 and not got[-1].done
    mine = RandomPlan.of(np.random.default_rng(9), len(space))
    for o in got[:-1]:
        mine.choose(o.action_mask)  # the draws the batch made for its steps 2 to 20
    after = w.plan_after
    assert after is not None
    assert [after.choose(got[-1].action_mask) for _ in range(5)] == [mine.choose(got[-1].action_mask) for _ in range(5)]


def test_coinhop_wall_kicks_in_a_batch(worker_for):
    """coinhop with two actions (walk left, jump while walking left): the wall kick's script error on many steps,
    and its events, seen in batches as one step at a time."""
    spec = resolve("godot:coinhop").with_config(done_events=[], max_episode_steps=10**6)
    space = native_space(2, ["move_left", "jump+move_left"])
    one = one_at_a_time(worker_for(spec, space=space, capture=None), 0, 5, 300)
    many = ahead(worker_for(spec, space=space, capture=None), 0, 5, 300, 300)
    assert sum(bool(s[6]) for s in one[1]) >= 5, "the wall kick's error should come up often"
    assert many == one


def test_the_analyzed_space_chooses_on_each_steps_mask_in_the_episode(worker_for):
    pytest.importorskip("gdtoolkit")
    spec = resolve("godot:coinhop").with_config(done_events=[], max_episode_steps=10**6)
    space = resolve_space(spec, "analyzed")
    one = one_at_a_time(worker_for(spec, space=space, capture=None), 2, 1, 150)
    many = ahead(worker_for(spec, space=space, capture=None), 2, 1, 150, 150)
    assert len({tuple(s[7]) for s in one[1]}) > 1  # the masks changed on the way
    assert many == one


def test_frames_in_a_batch_on_the_runner(worker_for):
    """godot3-runner under Xvfb with frames: the steps are pipelined one request each (a frame is drawn after the
    step's frames), and each step's frame is the one a step of its own gets."""
    _need("godot3-runner", "godot3-runner")
    _need("Xvfb", "xvfb")
    spec = resolve("godot-runner:coinhop").with_config(done_events=[], max_episode_steps=10**6)
    space = default_space(spec)
    runs = []
    for n in (0, 40):
        w = worker_for(spec, space=space, capture=(32, 24))
        obs = w.reset(seed=0)
        plan = RandomPlan.of(np.random.default_rng(0), len(space))
        if n:
            _, got = w.act_ahead(plan.choose(obs.action_mask), plan, n)
        else:
            got = []
            for _ in range(40):
                obs = w.act(plan.choose(obs.action_mask))
                got.append(obs)
        runs.append([(seen(o), o.frame.tobytes()) for o in got])
        w.close()
    assert len(runs[0]) == 40 and len({f for _, f in runs[0]}) > 1
    assert runs[1] == runs[0]


@pytest.mark.parametrize("fault", ["hang_at", "crash_at"])
def test_a_hang_or_crash_inside_a_batch_is_that_steps(worker_for, fault, monkeypatch):
    """With joined answers (the default) the batch's answers go down with the game: the steps of its batch played
    before the fault (their sync lines came) are kept with their own frames and error lines, marked
    ``answer_lost``, and the fault is still its own step's; with each step sent on its own (PLAYTESTER_REMOTE_JOIN=0)
    every step is as one step at a time."""
    spec = resolve(f"godot:{FAULTPROJ}", game_args={fault: 203})  # frame 203: step 41 (5 frames a step)
    space = default_space(spec)
    runs = []
    for n, join in ((0, "1"), (100, "1"), (100, "0")):
        monkeypatch.setenv("PLAYTESTER_REMOTE_JOIN", join)
        w = worker_for(spec, space=space, capture=None)
        actions, steps = one_at_a_time(w, 4, 2, 100) if n == 0 else ahead(w, 4, 2, 100, n)
        runs.append((actions, steps))
        assert not mine(godot_processes(), w.host_pid)  # the game's process group is gone
        obs = w.reset(seed=5)  # a fresh game for the next episode
        assert obs.exit is None and w.act(0).frame_no == 5
    assert runs[2] == runs[0]
    steps = runs[0][1]
    assert len(steps) == 41 and all(s[8] is None for s in steps[:40])
    assert steps[-1][8][0] == ("hang" if fault == "hang_at" else "signal"), steps[-1][8]
    joined = runs[1][1]
    assert runs[1][0] == runs[0][0] and len(joined) == 41
    lost = [i for i, s in enumerate(joined) if s[9]]
    assert lost == list(range(lost[0], 40)) and 1 <= len(lost) <= 7, lost  # the batch's steps before the fault
    for i, (a, b) in enumerate(zip(joined, steps, strict=True)):
        if i in lost:  # its frames and error lines; what the game showed is the step's before
            assert a[:2] == b[:2] and a[6] == b[6] and a[3] == joined[i - 1][3], i
        elif i == 40:  # the fault: as one step at a time, after the state last seen
            assert a[8] == b[8] and a[:2] == joined[39][:2]
        else:
            assert a == b, i
    assert any(joined[i][6] for i in lost)  # (an error line landed on a lost step: its own)


def test_a_game_that_quits_inside_a_joined_batch_still_sends_the_answers_before(worker_for):
    """The game quits by itself (get_tree().quit()) mid-step: the add-on sends the batch's answers so far as it
    leaves the tree, so every step before the quit is observed, as one step at a time."""
    spec = resolve(f"godot:{FAULTPROJ}", game_args={"quit_at": 203})  # step 41
    space = default_space(spec)
    runs = []
    for n in (0, 100):
        w = worker_for(spec, space=space, capture=None)
        runs.append(one_at_a_time(w, 4, 2, 100) if n == 0 else ahead(w, 4, 2, 100, n))
    assert runs[1] == runs[0]
    steps = runs[0][1]
    assert len(steps) == 41 and not any(s[9] for s in steps) and steps[-1][8] == ("exit", None, 0), steps[-1]


def test_an_outside_kill_inside_a_batch_ends_it_at_the_step_in_flight(worker_for):
    spec = resolve("godot:coinhop").with_config(done_events=[], max_episode_steps=10**6)
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    w.reset(0)
    w.act_ahead_async(0, RandomPlan.of(np.random.default_rng(0), len(space)), 10**5)
    first = w.step_wait()
    (game,) = mine(godot_processes(), w.host_pid)
    os.kill(game.pid, signal.SIGSEGV)
    frames = [first.frame_no]
    while True:
        obs = w.step_wait()
        if obs.exit is not None:
            break
        frames.append(obs.frame_no)
        assert w.ahead
    assert obs.exit.kind in ("signal", "exit") and obs.exit.is_failure, obs.exit
    assert frames == list(range(frames[0], frames[0] + 10 * len(frames), 10))  # every step up to it, in order
    assert not w.ahead


def test_a_call_between_batch_steps_keeps_the_steps_in_flight(worker_for):
    spec = resolve("godot:coinhop").with_config(done_events=[], max_episode_steps=10**6)
    space = default_space(spec)
    w = worker_for(spec, space=space, capture=None)
    w.reset(0)
    w.act_ahead_async(0, RandomPlan.of(np.random.default_rng(0), len(space)), 500)
    first = w.step_wait()
    assert w.ahead
    assert "teleport" in w.call("playtester.plans.hooks:hook_names")  # the batch ends; its steps in flight are kept
    frames = [first.frame_no]
    while w.ahead:
        frames.append(w.step_wait().frame_no)
    assert 1 < len(frames) < 500 and frames == list(range(10, 10 * len(frames) + 1, 10))
    assert w.act(0).frame_no == frames[-1] + 10  # the game is where the last kept step left it
    w.act_ahead_async(0, RandomPlan.of(np.random.default_rng(1), len(space)), 500)
    w.step_wait()
    obs = w.reset(seed=1)  # drops the rest of the batch
    assert not w.ahead and obs.frame_no == 0 and w.act(0).frame_no == 10


class Steps(Observer):
    """Every step the campaign saw: slot, index, action and what the driver observed."""

    def __init__(self) -> None:
        self.steps: list[tuple] = []

    def on_step(self, step: Any) -> None:
        obs = step.game_obs
        self.steps.append((step.slot.index, step.index, step.action, step.slot.seed, seen(obs)))


def test_a_campaign_acting_ahead_finds_the_same_as_one_step_per_call(tmp_path, monkeypatch):
    runs = []
    for ahead_steps in (1, 8):
        monkeypatch.setattr(loop_module, "AHEAD", ahead_steps)
        watch = Steps()
        r = explore(resolve("godot:coinhop"), out=tmp_path / f"run{ahead_steps}", budget=Budget(steps=400), workers=1,
                    seed=2, replay_known=False, observers=[watch], finalize=False)
        bugs = sorted((b.signature, b.trace.seed, b.first_step, tuple(b.trace.actions))
                      for b in r.store.bugs(r.campaign_id) if b.kind != "frame_time")
        eps = [(e["seed"], e["steps"], e["outcome"]) for e in r.store.episodes(r.campaign_id)]
        runs.append((bugs, eps, r.states, r.steps, watch.steps))
        r.store.close()
    assert runs[0][0], "random play finds coinhop's bugs in 400 steps"
    assert len(runs[1][4]) == 400 + len(runs[1][1])  # every step seen (and each episode's step 0)
    assert runs[1] == runs[0]
