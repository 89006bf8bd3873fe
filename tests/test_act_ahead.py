"""Acting ahead: an agent's plan lets the loop play several steps per call to the worker.

- the same seed gives the same episodes, traces, states and findings with one step per call and with
  batches of 8, on bundled games whose action masks change from step to step (blockmaze's analyzed space,
  arena's bomb): the plan chooses on each step's mask where the game runs;
- a crash inside a batch is that step's finding, with its trace; a hang too;
- the step budget and the episode step limit are kept; bad ``ahead`` values are usage errors;
- the worker's own batch: the same game as one step at a time, and a call between two batch steps;
- a pygame episode plays the batch itself (one message from the parent for the whole batch) unless
  ``PLAYTESTER_EPISODE_PLAYS=0``, with the same steps either way; a crash in a batch step it played is reported
  with that step's action.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import fixture_spec

import playtester.campaign.loop as loop_module
from playtester.agents.common import Explorer, RandomPlan, random_valid
from playtester.agents.random import RandomAgent
from playtester.campaign import Budget, CampaignLoop, Observer, explore
from playtester.drive.spec import resolve
from playtester.env import GameEnv, resolve_space
from playtester.errors import NoValidActionError, UsageError, WorkerError


class Watch(Observer):
    """Keeps the loop, every step (slot, index, action, whether a batch answered it) and every episode end."""

    def __init__(self) -> None:
        self.loop: Any = None
        self.steps: list[tuple[int, int, int | None, bool]] = []
        self.ends: list[tuple[int, int, str, list[int]]] = []
        self._batched = 0

    def on_start(self, loop: Any) -> None:
        self.loop = loop

    def on_step(self, step: Any) -> None:
        batched = self.loop is not None and self.loop.batched_steps > self._batched
        self._batched = self.loop.batched_steps if self.loop is not None else 0
        self.steps.append((step.slot.index, step.index, step.action, batched))

    def on_episode_end(self, slot: Any, outcome: str, reason: str) -> None:
        self.ends.append((slot.index, slot.seed, outcome, list(slot.actions)))


def bugs_of(r: Any) -> list[tuple[str, int, int, tuple[int, ...]]]:
    """(signature, seed, first step, trace) of each bug; the wall-clock frame-time oracle left out."""
    return sorted((b.signature, b.trace.seed, b.first_step, tuple(b.trace.actions))
                  for b in r.store.bugs(r.campaign_id) if b.kind != "frame_time")


def campaign(tmp_path, monkeypatch, game: str, ahead: int, steps: int = 300, workers: int = 2,
             space: Any = None, backend: str | None = None) -> tuple[Any, Watch]:
    monkeypatch.setattr(loop_module, "AHEAD", ahead)
    spec = resolve(game)
    watch = Watch()
    r = explore(spec, out=tmp_path / f"{game}-{ahead}-{backend}", budget=Budget(steps=steps), workers=workers, seed=3,
                actions=space, replay_known=False, backend=backend, observers=[watch], finalize=False)
    eps = [(e["seed"], e["steps"], e["outcome"]) for e in r.store.episodes(r.campaign_id)]
    out = (bugs_of(r), eps, r.states, r.code_covered, r.steps, [s[:3] for s in watch.steps], watch.ends)
    r.store.close()
    return out, watch


@pytest.mark.parametrize("game", ["blockmaze", "arena"])
def test_same_seed_same_campaign_one_step_per_call_and_in_batches(tmp_path, monkeypatch, game):
    space = resolve_space(resolve(game), "analyzed") if game == "blockmaze" else None
    one, w1 = campaign(tmp_path, monkeypatch, game, 1, space=space)
    eight, w8 = campaign(tmp_path, monkeypatch, game, 8, space=space)
    assert w1.loop.batches == 0 and w8.loop.batches > 0
    assert w8.loop.batched_steps > 0.5 * w8.loop.steps  # most steps came from a batch, not a call of their own
    if game == "blockmaze":
        assert one[0], "blockmaze's injected bugs should be found in 300 steps"
    assert eight == one  # bugs with traces, episodes, states, code lines, steps, every step's action, every end


def test_plans_choose_on_masks_that_change():
    """Blockmaze's analyzed space has actions valid only in some states (as arena's bomb): a list of actions
    fixed in advance would differ from what the agent chooses one step at a time."""
    spec = resolve("blockmaze")
    env = GameEnv(spec, actions=resolve_space(spec, "analyzed"), capture=None)
    try:
        _, info = env.reset(seed=3)
        masks = {tuple(info["action_mask"])}
        agent = RandomAgent(len(env.space), seed=0)
        for _ in range(120):
            _, _, term, trunc, info = env.step(agent.act(None, info))
            masks.add(tuple(info["action_mask"]))
            if term or trunc:
                _, info = env.reset(seed=4)
        assert len(masks) > 1
    finally:
        env.close()


def crash_campaign(ahead: int, spec: Any, steps: int = 60) -> Watch:
    envs = [GameEnv(spec, actions="blind", capture=None, frames_per_action=1) for _ in range(2)]
    watch = Watch()
    loop = CampaignLoop(envs, [RandomAgent(len(envs[0].space), seed=i) for i in range(2)], Budget(steps=steps),
                        seed=0, observers=[watch], ahead=ahead)
    try:
        loop.run()
    finally:
        loop.close()
    return watch


def test_a_crash_inside_a_batch_is_that_steps_finding_with_its_trace():
    spec = fixture_spec("raise_at", game_args={"n": 12})
    one, eight = crash_campaign(1, spec), crash_campaign(8, spec)
    crashes = [e for e in eight.ends if e[2] == "crash"]
    assert crashes and eight.ends == one.ends and [s[:3] for s in eight.steps] == [s[:3] for s in one.steps]
    # the crash answered a batch step (not one sent on its own), the one whose trace it ends
    assert any((slot, len(trace), trace[-1], True) in eight.steps for slot, _, _, trace in crashes)
    assert eight.loop.batches > 0 and one.loop.batches == 0


def test_a_hang_inside_a_batch_is_that_steps_hang():
    spec = fixture_spec("forever", step_timeout_s=1.0)
    watch = crash_campaign(8, spec, steps=6)
    hangs = [e for e in watch.ends if e[2] == "hang"]
    assert hangs, watch.ends
    one = crash_campaign(1, spec, steps=6)
    assert [e[:3] + (len(e[3]),) for e in one.ends] == [e[:3] + (len(e[3]),) for e in watch.ends]


def test_the_budget_and_the_episode_limit_are_kept(monkeypatch):
    from playtester.drive.worker import Worker

    answered: list[int] = []  # every step a game played and answered, whether the loop used it or dropped it
    real_answer = Worker._answer

    def counting(self: Worker, timeout: float, starting: bool = False, working: bool = False) -> Any:
        obs = real_answer(self, timeout, starting, working)
        if not starting:
            answered.append(1)
        return obs

    monkeypatch.setattr(Worker, "_answer", counting)
    spec = resolve("blockmaze", max_episode_steps=13)
    envs = [GameEnv(spec, capture=None) for _ in range(2)]
    watch = Watch()
    loop = CampaignLoop(envs, [RandomAgent(len(envs[0].space), seed=i) for i in range(2)], Budget(steps=45),
                        seed=0, observers=[watch], ahead=8)
    try:
        loop.run()
        assert loop.steps == 45 and loop.batches > 0
        assert sum(1 for s in watch.steps if s[1] > 0) == 45
        assert max(s[1] for s in watch.steps) <= 13  # no episode past its step limit, no batch across it
        assert all(len(trace) <= 13 for _, _, _, trace in watch.ends)
        assert [e[2] for e in watch.ends].count("truncated") >= 2
        # the games played at most a step per slot beyond the budget (its last rounds split between slots)
        assert 45 <= len(answered) <= 45 + 1
    finally:
        loop.close()


def test_bad_ahead_values_are_usage_errors():
    for bad in (0, -1, 2.5, "8", True, None.__class__):
        with pytest.raises(UsageError, match="ahead"):
            CampaignLoop([], [], Budget(steps=1), ahead=bad)  # type: ignore[arg-type]
    assert CampaignLoop([], [], Budget(steps=1)).ahead == loop_module.AHEAD == 32


def test_a_plan_that_disagrees_with_act_is_an_error():
    class Liar(Explorer):
        def plan(self, obs: Any, info: dict[str, Any], slot: int = 0) -> Any:
            return RandomPlan.of(np.random.default_rng(99), self.n_actions)

    spec = resolve("blockmaze")
    env = GameEnv(spec, capture=None)
    loop = CampaignLoop([env], [Liar(len(env.space), seed=0)], Budget(steps=40), ahead=8)
    try:
        with pytest.raises(WorkerError, match="plan chose"):
            loop.run()
    finally:
        loop.close()


# ------------------------------------------------------------------------------- the worker's batch
def test_a_worker_batch_plays_as_one_step_at_a_time_on_changing_masks(worker_for):
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    one, many = worker_for(spec, space=space, capture=(32, 32)), worker_for(spec, space=space, capture=(32, 32))
    a = RandomPlan.of(np.random.default_rng(7), len(space))
    obs = one.reset(seed=5)
    singles, acts = [], []
    for _ in range(60):
        try:
            act = a.choose(obs.action_mask)
        except NoValidActionError:
            break
        obs = one.act(act)
        singles.append(obs)
        acts.append(act)
        if obs.done:
            break
    # as a campaign's random agent: each batch's plan draws with a copy of the agent's generator, which then
    # draws the same on the batch's masks (the agent's act on each step), wherever the plan was played
    g = np.random.default_rng(7)
    mask = many.reset(seed=5).action_mask
    actions, batched = [], []
    while len(batched) < len(singles):
        act0 = random_valid(g, mask, len(space))
        got_actions, got = many.act_ahead(act0, RandomPlan.of(g, len(space)), min(8, len(singles) - len(batched)))
        for o in got[:-1]:
            random_valid(g, o.action_mask, len(space))
        actions += got_actions
        batched += got
        if got[-1].done or len(batched) >= len(singles):
            break
        mask = got[-1].action_mask
    assert actions == acts and many.steps == one.steps
    assert len({tuple(o.action_mask) for o in singles}) > 1  # the masks changed on the way
    for x, y in zip(singles, batched, strict=True):
        assert x.frame_no == y.frame_no and x.features == y.features and np.array_equal(x.frame, y.frame)
        assert np.array_equal(x.action_mask, y.action_mask)


def test_a_call_between_batch_steps_keeps_the_step_in_flight(worker_for):
    spec = fixture_spec("echo_inputs")
    w = worker_for(spec, space=resolve_space(spec, "blind"), capture=None)
    w.reset(seed=0)
    plan = RandomPlan.of(np.random.default_rng(0), len(w.space))
    w.act_ahead_async(0, plan, 5, 1)
    first = w.step_wait()
    assert w.ahead  # the batch goes on past its first step (sent by the worker, or played by the episode itself)
    assert w.snapshot() is None  # the game is past what was answered: no snapshot of it
    assert w.call("playtester.plans.hooks:call_hook", "nothing")[0] == "missing"  # the batch ends; its steps played are kept
    assert w.ahead
    held = []
    while w.ahead:
        held.append(w.step_wait())
    # one step in flight when the worker sends each step; up to the rest of the batch when the episode plays it
    assert 1 <= len(held) <= 4
    assert [o.frame_no for o in held] == list(range(first.frame_no + 1, first.frame_no + 1 + len(held)))
    w.end_episode()  # drops the rest of the batch
    assert not w.ahead
    obs = w.reset(seed=1)
    assert not obs.done and w.act(0, 1).frame_no == obs.frame_no + 1


class StopEveryOther(RandomAgent):
    """The random agent, asking the campaign to end every other episode of its slot at its 7th step."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.count, self.episodes = 0, 0

    def observe(self, slot: int, t: Any) -> bool:
        self.count += 1
        return self.episodes % 2 == 0 and self.count == 7

    def episode_end(self, slot: int, outcome: str) -> None:
        self.count, self.episodes = 0, self.episodes + 1


def stop_and_empty_mask_campaign(tmp_path: Any, ahead: int, backend: str | None = None) -> Watch:
    """120 steps on 2 workers of a game whose every action is masked from frame 30 on (one is masked on some
    frames before), by random agents that end every other episode at its 7th step."""
    from playtester.actions import make_space
    from playtester.campaign.observers import ExplorerHooks

    (tmp_path / "space.yaml").write_text(
        "version: 1\nactions:\n"
        "  - {name: left, keys: [LEFT], when: 'frame < 30'}\n"
        "  - {name: right, keys: [RIGHT], when: 'frame < 30 and frame != 9 and frame != 10 and frame != 17'}\n"
        "  - {name: up, keys: [UP], when: 'frame < 30 and frame > 4'}\n")
    spec = fixture_spec("echo_inputs")
    space = make_space(f"manual:{tmp_path / 'space.yaml'}")
    envs = [GameEnv(spec, actions=space, capture=None, frames_per_action=1, backend=backend) for _ in range(2)]
    watch = Watch()
    loop = CampaignLoop(envs, [StopEveryOther(len(space), seed=i) for i in range(2)], Budget(steps=120),
                        seed=0, observers=[watch, ExplorerHooks()], ahead=ahead)
    try:
        loop.run()
    finally:
        loop.close()
    return watch


def test_a_stop_or_an_empty_mask_inside_a_plan_ends_the_episode_there(tmp_path):
    """An explorer's stop drops the rest of the plan; a mask that allows nothing ends the plan before that
    step, and the agent's act says so (``no-valid-action``), as one step at a time."""
    one, eight = stop_and_empty_mask_campaign(tmp_path, 1), stop_and_empty_mask_campaign(tmp_path, 8)
    outcomes = [e[2] for e in eight.ends]
    assert "agent" in outcomes and "no-valid-action" in outcomes, outcomes
    assert eight.loop.batches > 0 and eight.loop.batched_steps > 0
    assert eight.ends == one.ends and [s[:3] for s in eight.steps] == [s[:3] for s in one.steps]


@pytest.mark.parametrize("plays", ["1", "0"])
def test_a_pygame_episode_plays_the_batch_itself_unless_turned_off(worker_for, monkeypatch, plays):
    from playtester.drive.worker import Worker

    monkeypatch.setenv("PLAYTESTER_EPISODE_PLAYS", plays)
    sent: list[str] = []
    real_send = Worker._send

    def counting(self: Worker, msg: Any) -> None:
        sent.append(msg.kind)
        real_send(self, msg)

    monkeypatch.setattr(Worker, "_send", counting)
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    w = worker_for(spec, space=space, capture=None)
    g = np.random.default_rng(3)
    mask = w.reset(seed=2).action_mask
    sent.clear()  # (the game's init steps)
    act0 = random_valid(g, mask, len(space))
    actions, got = w.act_ahead(act0, RandomPlan.of(g, len(space)), 20)
    assert len(got) == 20 and not got[-1].done
    assert w._episode_plays == (plays == "1")
    assert sent == (["ahead"] if plays == "1" else ["act"] * 20)
    # the same actions as the plan's copy draws on the same masks
    mine = [act0] + [random_valid(g, o.action_mask, len(space)) for o in got[:-1]]
    assert actions == mine


def test_a_crash_in_a_step_the_episode_played_has_that_steps_action(worker_for):
    spec = fixture_spec("raise_at", game_args={"n": 12})
    w = worker_for(spec, space=resolve_space(spec, "blind"), capture=None)
    w.reset(seed=0)
    plan = RandomPlan.of(np.random.default_rng(4), len(w.space))
    actions, got = w.act_ahead(1, plan, 40, 1)
    assert w._episode_plays and got[-1].done and got[-1].exit is not None and got[-1].exit.kind == "exception"
    # the episode chose every action after the first; the crashed step's came with the answer before it
    copy = RandomPlan.of(np.random.default_rng(4), len(w.space))
    assert actions == [1] + [copy.choose(o.action_mask) for o in got[:-1]]


@pytest.mark.parametrize("plays", ["1", "0"])
def test_the_plan_goes_on_where_the_batch_left_it(worker_for, monkeypatch, plays):
    """A Ray actor goes on with a batch's plan in its next call (`WorkerHost.act_more`): ``plan_after`` draws next
    what the plan draws after the batch's steps, wherever the batch was played."""
    monkeypatch.setenv("PLAYTESTER_EPISODE_PLAYS", plays)
    spec = resolve("blockmaze")
    space = resolve_space(spec, "analyzed")
    w = worker_for(spec, space=space, capture=None)
    first = w.reset(seed=4)
    mine = RandomPlan.of(np.random.default_rng(11), len(space))
    act0 = int(np.flatnonzero(first.action_mask)[0])
    _, got = w.act_ahead(act0, RandomPlan.of(np.random.default_rng(11), len(space)), 12)
    assert len(got) == 12 and not got[-1].done
    for o in got[:-1]:
        mine.choose(o.action_mask)  # the draws the batch made for its steps 2 to 12
    after = w.plan_after
    assert after is not None
    assert [after.choose(got[-1].action_mask) for _ in range(5)] == [mine.choose(got[-1].action_mask) for _ in range(5)]
