"""Demonstrations (``explore --demos``): Wuji clones part of its first population from them; bad
demonstrations are clear errors raised before anything is stored."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from toy import TwoStates, drive

from playtester.actions.space import space_to_dict
from playtester.agents.common import CampaignInfo, Demo, DemoStep
from playtester.agents.wuji import WujiAgent, action_probs_np
from playtester.campaign import Budget, explore, load_demos
from playtester.drive.spec import resolve
from playtester.env import resolve_space
from playtester.errors import ConfigError, UsageError
from playtester.findings import Trace
from playtester.store import Store

WUJI = "wuji:population=2,offspring=2,runs=1,hidden=16,max_train_rounds=1,bc_steps=200"


def two_state_demos(n: int = 4) -> list[Demo]:
    """The right action in each state of `TwoStates`: 1 in state 0, 2 in state 1."""
    env = TwoStates(seed=5)
    demos = []
    for _ in range(n):
        obs, info = env.reset()
        steps = []
        while True:
            a = 1 if env.s == 0 else 2
            nobs, r, _term, trunc, ninfo = env.step(a)
            steps.append(DemoStep(obs, info, a, r))
            obs, info = nobs, ninfo
            if trunc:
                break
        demos.append(Demo(f"toy {len(demos)}", steps))
    return demos


def greedy_prob(agent: WujiAgent, weights: np.ndarray, s: int) -> np.ndarray:
    assert agent.norm is not None
    from playtester.agents.wuji import FastActor

    x = agent.norm(np.array([float(s)]))
    return action_probs_np(FastActor(agent._net(weights)).logits(x), np.array([1, 1, 1, 0]), agent.cfg.min_prob,
                           agent.cfg.floor_mass)


def test_wuji_clones_part_of_its_first_population_from_demonstrations():
    agent = WujiAgent(4, seed=0, population=4, offspring=4, runs=1, hidden=16, bc_steps=300, demo_share=0.5)
    agent.setup(CampaignInfo(4, 1, features=["s"]))
    agent.demonstrate(two_state_demos())
    cloned = [p for p in agent.population if p.origin == "demo"]
    assert len(cloned) == 2 and agent.demo_stats["cloned"] == 2 and agent.demo_stats["demo_steps"] == 40
    assert agent.demo_stats["bc_accuracy"] == 1.0
    for p in agent.population:  # cloned policies take the demonstrator's action; the others do not know it
        right = greedy_prob(agent, p.weights, 0)[1] + greedy_prob(agent, p.weights, 1)[2]
        if p.origin == "demo":
            assert right > 1.8, right
        else:
            assert right < 1.2, right
    assert agent.norm is not None and agent.norm.count >= 40  # input statistics start from the demonstrations
    assert agent.ret_norm.count == 40

    # the cloned policies score best when the population is scored (the toy pays 1 per right action)
    drive(agent, TwoStates(seed=1), 4 * 10, ["s"])
    assert agent.phase == "evolve"
    scores = {p.origin: p.rs for p in agent.population if p.runs}
    by_origin = {o: [p.rs for p in agent.population if p.origin == o and p.runs] for o in ("demo", "P0")}
    assert min(by_origin["demo"]) >= 8 > max(by_origin["P0"]), scores


def test_demo_stats_round_trip_for_resume():
    agent = WujiAgent(4, seed=0, population=2, hidden=16, bc_steps=50)
    agent.setup(CampaignInfo(4, 1, features=["s"]))
    agent.demonstrate(two_state_demos(1))
    again = WujiAgent(4, seed=0, population=2, hidden=16)
    again.load_state(agent.state_bytes())
    assert again.demo_stats == agent.demo_stats and again.stats()["cloned"] == 1


def combat_trace(path, actions, **changes) -> None:
    spec = resolve("combat")
    trace = Trace(spec.text, spec.config.model_dump(mode="json"), 7, space_to_dict(resolve_space(spec, None)),
                  actions)
    data = json.loads(trace.to_json()) | changes
    path.write_text(json.dumps(data))


def test_a_campaign_plays_its_demonstrations_for_wuji_before_the_first_step(tmp_path):
    demos = tmp_path / "demos"
    demos.mkdir()
    right, strike = 4, 5  # combat.actions.yaml: walk right towards the boss, then strike
    combat_trace(demos / "a.json", [right] * 20 + [strike] * 10)
    combat_trace(demos / "b.json", [right] * 18 + [strike] * 30)  # longer than an episode: cut at 40 steps
    spec = resolve("combat").with_config(max_episode_steps=40)
    r = explore(spec, out=tmp_path / "out", agent=WUJI, budget=Budget(steps=60), workers=1,
                code_coverage=False, replay_known=False, demos=[demos], finalize=False)
    assert r.agent_stats["demos"] == 2 and r.agent_stats["demo_steps"] == 30 + 40 and r.agent_stats["cloned"] == 1
    assert r.agent_stats["bc_accuracy"] > 0.5  # ten times an untrained policy's (1 in 21 actions of the space)
    assert r.steps == 60  # the demonstrations' steps are not the campaign's
    first = r.store.episodes(r.campaign_id)[0]
    assert first["seed"] == 0  # the first episode still starts from the campaign's first seed


def test_bad_demonstrations_are_clear_errors_and_store_nothing(tmp_path):
    spec = resolve("combat")
    good = tmp_path / "good.json"
    combat_trace(good, [4, 5])

    def fails(demos, exc=ConfigError, match="", agent=WUJI, **kw) -> None:
        out = tmp_path / f"out{len(list(tmp_path.iterdir()))}"
        with pytest.raises(exc, match=match):
            explore(kw.pop("spec", spec), out=out, agent=agent, budget=Budget(steps=5), workers=1,
                    code_coverage=False, replay_known=False, demos=demos, **kw, finalize=False)
        assert not out.exists() or Store(out).campaign() is None

    fails([tmp_path / "missing.json"], match="missing.json does not exist")
    (tmp_path / "empty").mkdir()
    fails([tmp_path / "empty"], match="holds no trace files")
    (tmp_path / "bad.json").write_text("{not json")
    fails([tmp_path / "bad.json"], match=r"bad.json: trace is not valid JSON")
    other = tmp_path / "other.json"
    combat_trace(other, [1], game="blockmaze")
    fails([other], match=r"other.json plays 'blockmaze', not 'combat'")
    phase = tmp_path / "phase.json"
    combat_trace(phase, [1], config=spec.config.model_dump(mode="json") | {"game_args": {"start_phase": 2}})
    fails([phase], match=r"game_args = \{'start_phase': 2\}, this campaign uses \{'start_phase': 1\}")
    space = space_to_dict(resolve_space(spec, None))
    space["actions"] = space["actions"][:5]
    fewer = tmp_path / "fewer.json"
    combat_trace(fewer, [1], space=space)
    fails([fewer], match=r"another action space \(5 actions: idle, up, down, left, right\)")
    fails([good], UsageError, match="'random' agent does not learn from demonstrations; --demos works with: inspector, ppgta, wuji$",
          agent="random")
    fails([good], UsageError, match="leave --demos out with --resume", resume=True, spec=None)


def test_cli_explore_with_demos(tmp_path):
    """The summary says how many demonstrations were read from the cache: none the first time, all the second."""
    demo = tmp_path / "demo.json"
    combat_trace(demo, [4] * 20 + [5] * 10)
    env = dict(os.environ, PLAYTESTER_CACHE=str(tmp_path / "cache"), COLUMNS="200")
    for run, said in ((1, "1 (0 read from the cache, 1 played"), (2, "1 (1 read from the cache, 0 played")):
        res = subprocess.run([sys.executable, "-m", "playtester.cli", "explore", "combat", "--agent", WUJI,
                              "--budget", "40", "--out", str(tmp_path / f"out{run}"), "--no-shrink",
                              "--no-code-coverage", "--demos", str(demo)], capture_output=True, text=True,
                             timeout=300, env=env)
        assert res.returncode in (0, 1), res.stderr  # 1: the campaign found bugs
        assert "40 in" in res.stdout and said in res.stdout, res.stdout
    bad = subprocess.run([sys.executable, "-m", "playtester.cli", "explore", "combat", "--agent", "random",
                          "--budget", "40", "--out", str(tmp_path / "out2"), "--demos", str(demo)],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0 and "does not learn from demonstrations" in bad.stdout + bad.stderr


def test_a_bug_folder_gives_its_trace_and_a_folder_of_bugs_gives_each(tmp_path):
    """``DIR/bugs/N`` holds trace.json, min_trace.json (a prefix) and bug.json (not a trace): only trace.json
    is a demonstration; ``DIR/bugs`` gives each bug's trace.json."""
    spec = resolve("combat")
    space = space_to_dict(resolve_space(spec, None))
    for n, actions in ((3, [4, 4, 5]), (7, [1, 2])):
        bug = tmp_path / "bugs" / str(n)
        bug.mkdir(parents=True)
        combat_trace(bug / "trace.json", actions)
        combat_trace(bug / "min_trace.json", actions[:1])
        (bug / "bug.json").write_text(json.dumps({"schema": 1, "id": n, "kind": "crash"}))
    one = load_demos([tmp_path / "bugs" / "3"], spec, space)
    assert [(src.endswith("3/trace.json"), t.actions) for src, t in one] == [(True, [4, 4, 5])]
    both = load_demos([tmp_path / "bugs"], spec, space)
    assert [t.actions for _, t in both] == [[4, 4, 5], [1, 2]]
    with pytest.raises(ConfigError, match=r"bug.json cannot be read as a trace"):
        load_demos([tmp_path / "bugs" / "3" / "bug.json"], spec, space)


def test_discounted_returns_with_a_bootstrap():
    from playtester.agents.wuji import discounted

    assert discounted([1.0, 0.0, 2.0], 0.5) == [1.5, 1.0, 2.0]
    assert discounted([1.0, 0.0], 0.5, bootstrap=4.0) == [2.0, 2.0]
    assert discounted([], 0.9, bootstrap=3.0) == []


def test_the_committed_combat_demonstrations_load_from_another_clone(tmp_path):
    """A trace names its action space by content, not by the path it was loaded from: the committed
    demonstrations, as a clone at another path would hold them (their space's source is that clone's
    combat.actions.yaml), load against this checkout's combat space; a blind-space trace still does not."""
    from pathlib import Path

    from playtester.actions.space import space_identity

    committed = Path(__file__).parents[2] / "bench" / "data" / "combat_demos"
    clone = tmp_path / "elsewhere" / "combat_demos"
    clone.mkdir(parents=True)
    for f in sorted(committed.glob("*.json")):
        data = json.loads(f.read_text())
        data["space"]["source"] = "/home/someone/src/playtester/src/playtester/games/combat.actions.yaml"
        (clone / f.name).write_text(json.dumps(data))
    spec = resolve("combat")
    space = space_to_dict(resolve_space(spec, None))
    assert space["source"] != json.loads(next(clone.glob("*.json")).read_text())["space"]["source"]
    demos = load_demos([clone], spec, space)
    assert len(demos) == len(list(committed.glob("*.json"))) >= 8
    blind = space_to_dict(resolve_space(spec, "blind"))
    assert space_identity(blind) != space_identity(space)
    with pytest.raises(ConfigError, match="uses another action space"):
        load_demos([clone], spec, blind)
