"""Text to plan, sentence shapes and word forms a tester writes (issue 17, session of 2026-11-29): closed
compounds WordNet does not know ("frogleap": a leap), the player named before its verb ("let the archer jog
to ..."), a movement "over beside" a thing or "onto" it, "ever" in a condition, a closing "then stop", lists of
commands ("A, B, and C"), sequence adverbs (", next"), a greeting before a comma, "once ..." as one step, and
adverbs of frequency as rule cues. Each shape is checked against the neighbour it must not be taken for."""

from __future__ import annotations

import pytest
from plankit import dungeon_matcher, got

from playtester.plans.text import wordnet_folder

HAS_WORDNET = wordnet_folder() is not None
pytestmark = pytest.mark.skipif(not HAS_WORDNET, reason="WordNet (Debian's wordnet-base) is not installed: make wordnet")


@pytest.fixture(scope="module", params=[False, True], ids=["wordnet", "embeddings+wordnet"])
def t2p(request):
    return dungeon_matcher(request.param)


def steps(t2p, text):
    return [got(s) for s in t2p.steps(text)]


# ---- closed compounds
def test_a_closed_compound_is_its_head_or_wordnets_collocation(t2p):
    assert t2p._compound("frogleap") == "leap"
    assert t2p._compound("firepit") == "fire_pit"  # WordNet knows the two words as one
    assert t2p._compound("trapdoor") == "trap_door"
    assert t2p._compound("doorway") is None  # a word WordNet knows stays itself
    assert t2p._compound("qxzvwkjq") is None  # no split into known words
    assert t2p._compound("frog") is None  # too short to be two words


def test_a_compound_verb_names_its_heads_action(t2p):
    assert steps(t2p, "Frogleap over the chasm.") == [("node", "jump", "lava")]


# ---- the player before its verb
def test_the_player_named_before_a_verb_leaves_the_verb_a_verb(t2p):
    doc = t2p.nlp("Let the archer jog over to the lever.")
    words, _idx, verbs = t2p._words(doc)
    assert words[:2] == ["archer", "jog"] and verbs[:2] == [False, True]
    assert steps(t2p, "Let the archer jog over to the lever.") == [("node", "go", "switch")]
    # only the player ends the noun phrase: after another thing the next word is still inside it
    words, _idx, verbs = t2p._words(t2p.nlp("Let the lever jog over to the door."))
    assert words[:2] == ["lever", "jog"] and verbs[:2] == [False, False]
    # a thing before a word is still one noun phrase: "the door frame" names no verb
    words, _idx, verbs = t2p._words(t2p.nlp("Walk to the iron door frame."))
    assert not any(v for w, v in zip(words, verbs, strict=True) if w in ("door", "frame"))


def test_player_like_nouns(t2p):
    assert t2p._player_like("archer") and t2p._player_like("hero")
    assert not t2p._player_like("goblin") and not t2p._player_like("lever")


# ---- movements: over beside, onto
def test_over_beside_a_thing_goes_next_to_it_and_over_a_thing_jumps_it(t2p):
    assert steps(t2p, "Jog over beside the goblin.") == [("node", "go", "enemy")]
    assert steps(t2p, "Jog over the chasm.") == [("node", "jump", "lava")]


def test_onto_a_thing_arrives_at_it(t2p):
    assert steps(t2p, "Jog onto the coin.") == [("node", "go", "coin")]


# ---- conditions
def test_ever_keeps_a_positioned_condition_a_rule(t2p):
    assert steps(t2p, "If there is ever a goblin beside you, wallop it.") == [("rule", "attack", "enemy")]
    assert steps(t2p, "If you are beside the goblin, wallop it.") == [("node", "attack", "enemy")]


def test_once_something_happened_is_one_step(t2p):
    assert steps(t2p, "Once the portcullis is open, jog through it.") == [("node", "go", "door")]


def test_the_player_named_in_a_condition_is_no_unknown_thing(t2p):
    assert steps(t2p, "Whenever a goblin lurks beside the archer, wallop it.") == [("rule", "attack", "enemy")]


def test_adverbs_of_frequency_make_a_rule(t2p):
    assert steps(t2p, "Unfailingly hurdle the chasm.") == [("rule", "jump", "lava")]
    assert steps(t2p, "Deliberately hurdle the chasm.") == [("node", "jump", "lava")]
    assert t2p._frequency(t2p.nlp("wallop goblins ceaselessly"))
    assert not t2p._frequency(t2p.nlp("wallop the goblin gently"))


# ---- several steps, and clauses that are no step
def test_a_closing_stop_is_no_step_of_its_own(t2p):
    assert steps(t2p, "Jog to the door, then stop.") == [("node", "go", "door")]
    assert t2p._pause("then wait") and not t2p._pause("then wallop the goblin")


def test_a_list_of_commands_is_a_step_each(t2p):
    want = [("node", "attack", "enemy"), ("node", "jump", "lava"), ("node", "interact", "switch")]
    assert steps(t2p, "Wallop the goblin, hurdle the chasm, and yank the lever.") == want
    assert steps(t2p, "Wallop the goblin, hurdle the chasm and yank the lever.") == want
    assert t2p._series("Alright archer, yank the lever and jog to the door") is None  # a greeting is no command


def test_sequence_adverbs_split_steps(t2p):
    assert steps(t2p, "Grab the coin, next yank the lever.") == [("node", "go", "coin"), ("node", "interact", "switch")]


def test_a_greeting_before_a_comma_is_no_step(t2p):
    assert steps(t2p, "Alright archer, yank the lever.") == [("node", "interact", "switch")]
    step = t2p.steps("Alright archer, zqxv the switch.")[0]  # the question asked is about the verb, not the greeting
    assert step.kind == "rejected" and step.unknown is not None and step.unknown[0].lower() != "alright"


def test_commands_joined_by_a_bare_comma_are_a_step_each(t2p):
    assert steps(t2p, "Jog to the lever, yank it, then jog through the portcullis.") == [
        ("node", "go", "switch"), ("node", "interact", "switch"), ("node", "go", "door")]
    # an adverbial phrase before a comma is no command of its own
    assert t2p._series("Throughout the level, wallop goblins beside the archer.") is None
    assert t2p._series("Without delay, yank the lever.") is None


def test_and_finally_and_after_which_split_steps(t2p):
    assert steps(t2p, "Grab the coin and finally yank the lever.") == [("node", "go", "coin"), ("node", "interact", "switch")]
    assert steps(t2p, "Hurdle the chasm, after which the archer should yank the lever.") == [
        ("node", "jump", "lava"), ("node", "interact", "switch")]


def test_an_archaic_reflexive_is_the_hero_moving(t2p):
    words, _idx, _verbs = t2p._words(t2p.nlp("Hie thee to the lever."))
    assert words[0] == "hie_oneself"


def test_a_compound_nouns_head_is_not_its_kind(t2p):
    words, _idx, _verbs = t2p._words(t2p.nlp("Wallop the slimeball."))
    assert words == ["Wallop", "slimeball"]  # not a ball: the tester may be asked about the word written
    assert t2p._compound("throughout") is None  # no "through" + "out"
