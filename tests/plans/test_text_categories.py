"""Text to plan by general method (issue 17): the plan config's actor and action categories matched through
WordNet's hypernym closure, the player's own category, and the sentence shapes handled by rule (a clause
describing the actor, a condition on where the hero is, a purpose clause, numbered steps on one line,
hyphenated modifiers)."""

from __future__ import annotations

import pytest
from plankit import GAMES

from playtester.errors import ConfigError
from playtester.plans.schema import load_config
from playtester.plans.text import TextToPlan, wordnet_folder
from playtester.plans.wordnet import load_wordnet

HAS_WORDNET = wordnet_folder() is not None
needs_wordnet = pytest.mark.skipif(not HAS_WORDNET, reason="WordNet (Debian's wordnet-base) is not installed: make wordnet")
INSTANCES = {"hero": ["hero"], "switch": ["switch-0"], "door": ["door-0"], "shrine": ["shrine"],
             "enemy": ["enemy-0", "enemy-1"], "coin": ["coin-0", "coin-1", "coin-2"],
             "lava": ["lava-0", "lava-1", "lava-2", "lava-3"]}
CONFIG = GAMES / "dungeon.plan-config.yaml"


def got(step) -> tuple:
    if step.kind == "rejected":
        return ("reject", None, None)
    return (step.kind, step.action.name if step.action else None, step.actor.name if step.actor else None)


def matcher(cfg) -> TextToPlan:
    return TextToPlan.from_config(cfg, INSTANCES, use_embeddings=False, player="hero", game="dungeon")


@pytest.fixture(scope="module")
def cfg():
    return load_config(CONFIG)


@pytest.fixture(scope="module")
def t2p(cfg):
    return matcher(cfg)


@pytest.fixture(scope="module")
def plain(cfg):
    """The same matcher without the config's categories."""
    return matcher(cfg.model_copy(update={"actor_categories": {}, "action_categories": {}}))


@pytest.fixture(scope="module")
def wn():
    return load_wordnet()


# ---- the config field
def test_the_dungeon_config_declares_categories(cfg):
    assert {"switch", "door", "shrine", "enemy", "coin", "lava", "hero"} <= set(cfg.actor_categories)
    assert "money" in cfg.actor_categories["coin"]
    assert set(cfg.action_categories) <= {"interact", "attack", "jump", "go"}


def test_a_bad_category_word_is_a_config_error_with_file_and_line(tmp_path):
    text = CONFIG.read_text().replace("coin: [money,", 'coin: ["money!!",')
    assert '"money!!"' in text
    path = tmp_path / "bad.plan-config.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}:") and "actor_categories" in msg and "money!!" in msg
    line = int(msg.split(":")[1])
    assert text.splitlines()[line - 1].startswith("actor_categories:")  # the field's line


def test_action_categories_name_gameplay_actions_or_go(tmp_path):
    text = CONFIG.read_text().replace("\n  go: [", "\n  fly: [")
    assert "\n  fly: [" in text
    (tmp_path / "x.plan-config.yaml").write_text(text)
    with pytest.raises(ConfigError, match="'fly' is not a gameplay action"):
        load_config(tmp_path / "x.plan-config.yaml")
    assert "go" in load_config(CONFIG).action_categories  # taking things: the movement


# ---- WordNet's category closure
@needs_wordnet
def test_a_noun_under_a_category_scores_by_its_senses_and_levels(wn):
    money = ["money", "currency", "monetary unit"]
    assert wn.category("florin", money) >= 0.62  # florin -> guilder -> monetary unit
    assert wn.category("rat", money) == 0.0  # no path
    assert wn.category("currency", money) == pytest.approx(wn.CATEGORY)  # a category word itself
    # a closer category scores more than a farther one
    assert wn.category("spider", ["arachnid"]) > wn.category("spider", ["animal"]) > 0


@needs_wordnet
def test_a_category_names_one_sense_or_the_nth(wn):
    # "memorial" alone is its most frequent sense (a recognition); the structure is its 3rd sense
    assert wn.category("monument", ["memorial"]) == 0.0
    assert wn.category("monument", ["memorial#3"]) >= 0.62
    assert wn.category_senses(["turn#4,9"], "v") and len(wn.category_senses(["turn#4,9"], "v")) == 2


@needs_wordnet
def test_a_word_mostly_used_as_an_adjective_is_seldom_a_noun_of_a_category(wn):
    # "entire" as a noun is an uncastrated horse (an animal); as a word it is nearly always an adjective
    assert wn.noun_share("entire") < 0.2 < 0.9 < wn.noun_share("rat")
    assert wn.category("entire", ["animal"]) < 0.2


@needs_wordnet
def test_verb_categories_reach_only_a_few_levels_up(wn):
    assert wn.category("slash", ["cut#1"], "v") >= 0.62  # slash is a kind of cut
    assert wn.CATEGORY_LEVELS["v"] <= 3
    # "move" is above "cut" (cut -> separate -> move): within reach for slash; "slash" reaches "move" in 3
    # levels, a verb much farther down does not
    far = [k for k, d in wn.levels(wn.synsets("slash", "v")[0]).items() if d > wn.CATEGORY_LEVELS["v"]]
    if far:
        top = wn.synset(far[0])[0][0]
        assert wn.category("slash", [top], "v") < wn.category("slash", ["cut#1"], "v")


# ---- the matcher
@needs_wordnet
def test_actor_categories_name_kinds_the_config_does_not_mention(t2p, plain):
    for sentence, want in {"Walk to the winch.": ("node", "go", "switch"),  # winch -> lifting device
                           "Grab the florin.": ("node", "go", "coin"),  # florin -> monetary unit
                           "Walk to the ogre.": ("node", "go", "enemy")}.items():  # ogre -> monster
        step, before = t2p.parse(sentence), plain.parse(sentence)
        assert got(step) == want and step.actor.score >= t2p.actor_threshold, step.describe()  # named
        # without the categories: rejected, or at best a closed-world guess
        assert got(before) != want or before.actor.score < plain.actor_threshold, before.describe()


@needs_wordnet
def test_action_categories_name_verbs_the_descriptions_do_not(t2p, plain):
    assert got(t2p.parse("Pocket the coin.")) == ("node", "go", "coin")  # pocket -> take (into possession)
    assert got(plain.parse("Pocket the coin.")) == ("reject", None, None)


@needs_wordnet
def test_impossible_requests_stay_rejected(t2p):
    for sentence in ("Purchase a healing potion from the merchant.", "Talk to the slime.", "Use the computer.",
                     "Jump over the coin.", "Attack the door.", "Cast a fireball at the dragon."):
        assert got(t2p.parse(sentence)) == ("reject", None, None), t2p.parse(sentence).describe()


@needs_wordnet
def test_a_person_before_the_actor_is_the_player_in_other_words(t2p, plain):
    # "knight" is filed under the hero's category (person) and no other kind's
    assert got(t2p.parse("Walk the knight to the lever.")) == ("node", "go", "switch")
    assert got(plain.parse("Walk the knight to the lever.")) == ("reject", None, None)
    assert not t2p._thing("knight") and t2p._thing("knight", before_actor=False)
    assert t2p._thing("ogre")  # a monster: an enemy, not the player
    assert not t2p._thing("stage")  # not a concrete thing


@needs_wordnet
def test_a_clause_describing_the_actor_names_no_other_target(t2p):
    assert got(t2p.parse("Walk to the lever that opens the gate.")) == ("node", "go", "switch")
    assert got(t2p.parse("Pull the lever mounted on the wall.")) == ("node", "interact", "switch")
    # without a relative clause, another thing that is no actor still rejects the step
    assert got(t2p.parse("Pull the lever and the rope.")) == ("reject", None, None)


@needs_wordnet
def test_a_condition_on_where_the_hero_is_is_no_rule(t2p):
    assert got(t2p.parse("Once you are next to the lever, pull it.")) == ("node", "interact", "switch")
    assert got(t2p.parse("When the hero is beside the shrine, activate it.")) == ("node", "interact", "shrine")
    assert got(t2p.parse("Whenever an enemy is next to you, attack it.")) == ("rule", "attack", "enemy")
    assert got(t2p.parse("When an enemy appears, attack it.")) == ("rule", "attack", "enemy")


@needs_wordnet
def test_a_purpose_clause_is_cut(t2p):
    assert t2p._main_clause("Pull the lever so that the gate opens.") == "Pull the lever"
    assert t2p._main_clause("Pull the lever till the gate opens.") == "Pull the lever"
    assert t2p._main_clause("Touch the altar to unlock the door.") == "Touch the altar"
    assert t2p._main_clause("Walk to the altar to pray.") == "Walk to the altar"
    assert t2p._main_clause("Don't forget to pull the lever.") == "Don't forget to pull the lever."
    assert t2p._main_clause("Walk to the shrine.") == "Walk to the shrine."
    step = t2p.parse("Pull the lever so the gate opens.")
    assert got(step) == ("node", "interact", "switch") and step.sentence == "Pull the lever so the gate opens."


def test_numbered_steps_on_one_line(t2p):
    assert t2p.sentences("1. Jump over the lava. 2. Pull the lever.") == ["1. Jump over the lava.", "Pull the lever."] \
        or all(not s.strip(" .").isdigit() for s in t2p.sentences("1. Jump over the lava. 2. Pull the lever."))
    assert not any(s.strip() in ("2.", "2") for s in t2p.sentences("Jump over the lava. 2. Pull the lever."))


def test_a_hyphenated_modifier_stays_in_its_phrase(t2p):
    doc = t2p.nlp("Jump over the ember-filled hollow.")
    phrases = [[doc[i].text for i in p] for p in t2p._noun_phrases(doc)]
    assert phrases == [["ember", "filled", "hollow"]]
