"""Entities of a project without a "playtester" group (issue 56, demo_role_playing_game): besides the physics
bodies, the scripted 2D/3D nodes are the game's objects, so a grid walker moved by its script (a plain Node2D) is
seen moving; a scripted camera is not an entity."""

from __future__ import annotations

from pathlib import Path

from playtester.drive.spec import resolve
from playtester.env import default_space

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "godot"


def test_a_scripted_node2d_walker_is_an_entity_and_moves(godot, worker_for):
    spec = resolve(f"godot:{FIXTURES / 'gridproj'}")
    space = default_space(spec)
    names = space.names
    w = worker_for(spec, space=space, capture=None)
    obs = w.reset(0)
    assert set(obs.entities) == {"walker"}, obs.entities  # the camera is left out
    assert obs.entities["walker"].pos[0] == 160 and obs.entities["walker"].kind == "walker"
    for _ in range(3):
        obs = w.act(names.index("ui_right"))
    assert obs.entities["walker"].pos[0] > 160 + 40
    assert obs.features["walker_steps"] > 0


def test_explore_counts_states_past_a_title_screen_without_entities(godot, tmp_path):
    """gdq_beginner, boxcape: the first screen (a menu of Controls) reports no entity and godot: sends no frames; the
    auto abstraction took pixel cells there and counted 0 states for the whole campaign. It takes the features the
    level brings instead."""
    from playtester.campaign import Budget, explore

    spec = resolve(f"godot:{Path(__file__).resolve().parent / 'menuproj'}")
    result = explore(spec, out=tmp_path / "run", agent="random", budget=Budget(steps=300), seed=0,
                     code_coverage=False)
    assert result.store.campaign(result.campaign_id).abstraction == "features"
    assert result.states > 1
