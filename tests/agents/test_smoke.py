"""Every agent on every bundled game with a tiny budget, the CLI, and stop-and-resume of agent state."""

from __future__ import annotations

import subprocess
import sys

import pytest

from playtester.campaign import Budget, explore
from playtester.drive.spec import resolve
from playtester.store import Store

# blockmaze in the fast tier; the other bundled games in the slow one (make test-slow), 2 cores being few
GAMES = ["blockmaze"] + [pytest.param(g, marks=pytest.mark.slow)
                         for g in ("arena", "combat", "dungeon", "platformer", "tilematch")]
SMALL = {"random": "random", "curiosity": "curiosity:learning_starts=8,batch_size=4,train_frequency=2",
         "wuji": "wuji:population=2,offspring=2,runs=1,hidden=16,max_train_rounds=1",
         "goexplore": "goexplore:explore_steps=6"}


@pytest.mark.parametrize("game", GAMES)
def test_every_agent_explores_every_bundled_game(tmp_path, game):
    spec = resolve(game).with_config(max_episode_steps=10)
    for name, agent in SMALL.items():
        r = explore(spec, out=tmp_path / name, agent=agent, budget=Budget(steps=24), workers=2 if name != "random"
                    else 1, code_coverage=False, replay_known=False, finalize=False)
        c = r.store.campaign(r.campaign_id)
        assert c.status == "finished" and r.steps >= 24 and r.episodes >= 2 and r.states >= 1, (name, game)
        assert (c.agent_state is not None) == (name != "random")
        assert r.store.timeline(r.campaign_id)  # steps/s, states and bugs over time, per agent


@pytest.mark.parametrize("agent", ["goexplore:explore_steps=10", "wuji:population=2,offspring=2,runs=1,hidden=16"])
def test_a_stopped_campaign_resumes_with_its_agent_state(tmp_path, agent):
    first = explore(resolve("blockmaze"), out=tmp_path, agent=agent, budget=Budget(steps=150), workers=2,
                    code_coverage=False, finalize=False)
    store = Store(tmp_path)
    store.update_campaign(first.campaign_id, status="running")  # as if it had been killed
    assert store.campaign().agent_state
    again = explore(None, out=tmp_path, budget=Budget(steps=300), resume=True, code_coverage=False, finalize=False)
    assert again.campaign_id == first.campaign_id and again.steps >= 300
    if agent.startswith("goexplore"):
        assert again.agent_stats["cells"] >= first.agent_stats["cells"] > 0
        assert sum(again.agent_stats["returns"].values()) > sum(first.agent_stats["returns"].values())
    else:
        assert again.agent_stats["episodes"] > first.agent_stats["episodes"] > 0


def test_cli_explore_with_a_learning_agent(tmp_path):
    res = subprocess.run([sys.executable, "-m", "playtester.cli", "explore", "blockmaze", "--agent", "wuji",
                          "--budget", "300", "--out", str(tmp_path), "--no-shrink", "--no-code-coverage"],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode in (0, 1), res.stdout + res.stderr
    assert Store(tmp_path).campaign().agent == "wuji"
    res = subprocess.run([sys.executable, "-m", "playtester.cli", "explore", "--help"], capture_output=True,
                         text=True, timeout=60)
    assert "goexplore" in res.stdout and "curiosity" in res.stdout


def test_agent_features_are_what_wuji_sees_and_a_wrong_name_is_a_clear_error(tmp_path):
    """``[agent] features`` widens a learning agent's input beyond the coverage features (combat: where the boss
    is); coverage still counts ``features``. A name the probe does not report stops before anything is
    stored, naming it and what the game does report."""
    from playtester.errors import ConfigError
    from playtester.files import unpack_tree

    spec = resolve("combat").with_config(max_episode_steps=10)
    from playtester.agents.settings import agent_settings

    assert "boss_dx" in agent_settings(spec).features and "boss_dx" not in spec.config.features
    r = explore(spec, out=tmp_path / "ok", agent=SMALL["wuji"], budget=Budget(steps=12), workers=1,
                code_coverage=False, replay_known=False, finalize=False)
    state = unpack_tree(r.store.campaign(r.campaign_id).agent_state)["state"]
    assert state["n_in"] == len(agent_settings(spec).features)
    keys = r.store.states(r.campaign_id)  # coverage: the same features as before
    assert keys and all("boss_hp" in k and "boss_dx" not in k for k in keys), list(keys)[:2]
    bad = spec.with_config(agent=spec.config.agent | {"features": ["hero_x", "boss_dz"]})
    with pytest.raises(ConfigError, match=r"\[agent\] features lists 'boss_dz'.*reports .*boss_dx"):
        explore(bad, out=tmp_path / "bad", agent=SMALL["wuji"], budget=Budget(steps=12), workers=1,
                code_coverage=False, replay_known=False, finalize=False)
    assert not (tmp_path / "bad").exists() or Store(tmp_path / "bad").campaign() is None
