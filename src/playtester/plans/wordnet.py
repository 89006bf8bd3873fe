"""Just enough of Princeton WordNet 3.0 for text-to-plan, read from its plain dict files (Debian's
``wordnet-base``): lemmas (``morphy``), synsets in sense order with their tagged frequencies
(``cntlist.rev``), and the pointers between synsets (hypernyms, verb groups, "also see", similar-to,
derivationally related forms, pertainyms).

``similarity(word, seeds, pos)`` says how close a word is to a set of seed words (the plan config's
description words) as a sense-weighted path score:

- each sense of the word and of a seed is weighted by how often it is used (its tagged count in
  SemCor, relative to the word's most frequent sense, and its rank), so a rare sense counts for less
  ("take" as in "it takes time" is a kind of "use" as in expending: a rare sense of both);
- two senses are linked through their hypernym closures: the word's sense *is* a seed's sense
  (a synonym), is a kind of it ``d`` levels down ("doubloon" -> coin, "smite" -> hit), is more general
  than it ("currency" <- coin: counts less), or shares an ancestor with it that is specific enough
  (a cousin: "temple" and "shrine" are both places of worship; "structure" is too general to count);
  verb groups and "also see" join verbs as near synonyms; an adjective reaches nouns through its
  derivationally related forms and pertainyms ("fiery" -> fire);
- each step costs a factor (``KIND`` down a hypernym, ``GENERAL`` up, ``COUSIN`` sideways), so a score
  falls with the path's length.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

Key = tuple[str, int]  # (pos, byte offset in data.<pos>)

WORDNET_DIRS = ("/usr/share/wordnet", "/usr/share/wordnet/dict", "/usr/local/share/wordnet",
                "/usr/local/WordNet-3.0/dict", "/opt/homebrew/share/wordnet", "/usr/local/Cellar/wordnet/3.1/dict")


class WordNet:
    """WordNet's dict files: ``lemmas`` (morphy), ``synsets`` (sense order), ``synset`` (words and
    pointers), ``gloss``, ``sense_weights`` and the path scores ``similarity`` and ``related``."""

    PARTS = {"n": "noun", "v": "verb", "a": "adj"}
    SUFFIXES = {"n": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
                      ("men", "man"), ("ies", "y")],
                "v": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
                      ("ing", "")],
                "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")]}
    SYNONYM = 0.9  # the score of a shared synset (the most frequent senses of both)
    KIND_OF = 0.85  # a hyponym one level down (the word is a kind of the seed)
    KIND, GENERAL, COUSIN = 0.85, 0.7, 0.75  # the factor per hypernym step: down to the word, up, sideways
    LATERAL = 0.9  # a verb group or "also see" step
    DEPTH = 6  # hypernym levels looked at, each way
    COUSIN_DEPTH = {"n": 5}  # a cousin's shared ancestor at least this deep (from the root); verbs have none
    GENERAL_STEPS = {"n": 6, "v": 1}  # how many levels more general than a seed a word may be
    UNTAGGED = 0.7  # a seed never tagged in SemCor: its senses' order says little, they count this much
    SUPERSENSE = 0.3  # two nouns of the same lexicographer file (noun.person, noun.animal, ...) and no path
    SENSES = {"n": 6, "v": 8, "a": 4}  # a word's senses looked at (most frequent first)
    SEED_SENSES = {"n": 3, "v": 4}  # a seed's senses looked at
    FLOOR = 0.25  # the least weight of a sense

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        root = Path(folder)
        self.folder = str(root)
        self.index: dict[str, dict[str, str]] = {}
        self.exceptions: dict[str, dict[str, str]] = {}
        self._data: dict[str, bytes] = {}
        self._synsets: dict[Key, tuple[list[str], list[tuple[str, Key]]]] = {}
        self._ups: dict[Key, dict[Key, float]] = {}
        self._depth: dict[Key, int] = {}
        self._counts: dict[tuple[str, str], dict[int, int]] = {}
        self._cache: dict[Any, Any] = {}
        for pos, name in self.PARTS.items():
            if pos == "a" and not (root / "index.adj").is_file():
                continue  # a folder without adjectives (the tests' tiny ones)
            idx: dict[str, str] = {}
            for line in (root / f"index.{name}").read_text(encoding="latin-1").splitlines():
                if line and not line.startswith(" "):
                    key, _, rest = line.partition(" ")
                    idx[key] = rest
            self.index[pos] = idx
            exc: dict[str, str] = {}
            exc_file = root / f"{name}.exc"
            for line in (exc_file.read_text(encoding="latin-1").splitlines() if exc_file.is_file() else []):
                f = line.split()
                if len(f) >= 2:
                    exc.setdefault(f[0], f[1])
            self.exceptions[pos] = exc
            self._data[pos] = (root / f"data.{name}").read_bytes()
        counts = root / "cntlist.rev"
        types = {"1": "n", "2": "v", "3": "a", "5": "a"}
        for line in (counts.read_text(encoding="latin-1").splitlines() if counts.is_file() else []):
            f = line.split()
            if len(f) == 3 and "%" in f[0]:
                lemma, _, rest = f[0].partition("%")
                pos = types.get(rest[:1])
                if pos:
                    d = self._counts.setdefault((lemma, pos), {})
                    d[int(f[1])] = d.get(int(f[1]), 0) + int(f[2])

    # ---- reading
    def lemmas(self, word: str, pos: str) -> list[str]:
        """Base forms of ``word`` as a ``pos`` ("pressed" -> press, "slain" -> slay, "enemies" -> enemy)."""
        if pos not in self.index:
            return []
        w = word.lower().replace(" ", "_")
        out = []
        if w in self.exceptions[pos]:
            out.append(self.exceptions[pos][w])
        if w in self.index[pos]:
            out.append(w)
        head, sep, tail = w.partition("_")  # "picked_up" -> pick_up
        for suf, rep in self.SUFFIXES[pos]:
            if head.endswith(suf) and len(head) > len(suf) + 1:
                base = head[: len(head) - len(suf)] + rep + sep + tail
                if base in self.index[pos]:
                    out.append(base)
        if not out and pos == "v" and len(head) > 5 and head.endswith("ed") and head[-3] == head[-4]:
            base = head[:-3] + sep + tail  # "flipped" -> flip
            out += [base] if base in self.index[pos] else []
        if not out and pos == "v" and len(head) > 5 and head.endswith("ing") and head[-4] == head[-5]:
            base = head[:-4] + sep + tail  # "jogging" -> jog
            out += [base] if base in self.index[pos] else []
        return list(dict.fromkeys(out))

    def is_word(self, word: str, pos: str) -> bool:
        return bool(self.lemmas(word, pos))

    def synsets(self, lemma: str, pos: str, limit: int | None = None) -> list[Key]:
        rest = self.index.get(pos, {}).get(lemma)
        if rest is None:
            return []
        f = rest.split()
        n, ptrs = int(f[1]), int(f[2])
        offsets = f[3 + ptrs + 2: 3 + ptrs + 2 + n]
        return [(pos, int(o)) for o in offsets[: limit or n]]

    def synset(self, key: Key) -> tuple[list[str], list[tuple[str, Key]]]:
        """(words, pointers) of a synset; pointers are (symbol, synset) pairs."""
        if key not in self._synsets:
            data = self._data[key[0]]
            end = data.index(b"\n", key[1])
            body = data[key[1]:end].decode("latin-1").partition(" | ")[0].split()
            nw = int(body[3], 16)
            words = [re.sub(r"\(.*\)$", "", body[4 + 2 * i]).lower() for i in range(nw)]
            i = 4 + 2 * nw
            ptrs = []
            for _ in range(int(body[i])):
                sym, off, pos = body[i + 1], int(body[i + 2]), body[i + 3]
                pos = "a" if pos == "s" else pos
                if pos in self._data:
                    ptrs.append((sym, (pos, off)))
                i += 4
            self._synsets[key] = (words, ptrs)
        return self._synsets[key]

    def lexfile(self, key: Key) -> int:
        """The synset's lexicographer file (its supersense: noun.person, noun.artifact, ...)."""
        data = self._data[key[0]]
        return int(data[key[1]:key[1] + 20].split()[1])

    def gloss(self, key: Key) -> str:
        """A synset's definition (its gloss up to the first example or "; ")."""
        data = self._data[key[0]]
        end = data.index(b"\n", key[1])
        text = data[key[1]:end].decode("latin-1").partition(" | ")[2]
        return text.split(";")[0].split(' "')[0].strip()

    def glosses(self, word: str, pos: str, senses: int = 3) -> list[str]:
        """The definitions of the first ``senses`` senses of ``word`` ("statue" -> "a sculpture representing
        a human or animal", ...)."""
        return [self.gloss(k) for lemma in self.lemmas(word, pos)[:1] for k in self.synsets(lemma, pos, senses)]

    # ---- senses and paths
    def sense_weights(self, lemma: str, pos: str, limit: int) -> list[tuple[Key, float]]:
        """The first ``limit`` senses of ``lemma`` with a weight in [FLOOR, 1]: the sense's tagged count
        relative to the lemma's most frequent one (add-one smoothed), times 0.95 per rank."""
        keys = self.synsets(lemma, pos, limit)
        counts = self._counts.get((lemma, pos), {})
        top = max(counts.values(), default=0)
        out = []
        for r, k in enumerate(keys):
            share = ((counts.get(r + 1, 0) + 1) / (top + 1)) ** 0.5
            out.append((k, max(self.FLOOR, share * 0.95 ** r)))
        return out

    def ancestors(self, key: Key) -> dict[Key, float]:
        """Synset -> path factor of every hypernym up to ``DEPTH`` levels (``KIND`` per level, the verb
        group and "also see" neighbours at ``LATERAL``): how much of the synset's meaning an ancestor keeps."""
        if key not in self._ups:
            out: dict[Key, float] = {key: 1.0}
            if key[0] == "v":
                for sym, k in self.synset(key)[1]:
                    if sym in ("$", "^") and k[0] == "v":
                        out[k] = max(out.get(k, 0.0), self.LATERAL)
            frontier = dict(out)
            for _ in range(self.DEPTH):
                nxt: dict[Key, float] = {}
                for k, f in frontier.items():
                    for sym, up in self.synset(k)[1]:
                        if sym in ("@", "@i") and f * self.KIND > max(out.get(up, 0.0), nxt.get(up, 0.0)):
                            nxt[up] = f * self.KIND
                out.update(nxt)
                frontier = nxt
            self._ups[key] = out
        return self._ups[key]

    def depth(self, key: Key) -> int:
        """The synset's shortest hypernym path to a root."""
        if key not in self._depth:
            self._depth[key] = 0  # a guard against cycles
            ups = [k for sym, k in self.synset(key)[1] if sym in ("@", "@i")]
            self._depth[key] = 1 + min(self.depth(k) for k in ups) if ups else 0
        return self._depth[key]

    def pair(self, a: Key, b: Key) -> float:
        """How close two synsets are, in [0, 1]: 1 when equal; ``KIND`` ** d when ``a`` is a kind of ``b``
        d levels down; ``GENERAL`` ** d when ``a`` is more general; ``COUSIN`` ** (d1 + d2) through the
        nearest shared ancestor deep enough (``COUSIN_DEPTH``)."""
        if a == b:
            return 1.0
        ua, ub = self.ancestors(a), self.ancestors(b)
        if b in ua:
            return ua[b]
        if a in ub and ub[a] >= self.KIND ** self.GENERAL_STEPS[a[0]] - 1e-9:
            # a more general word ("currency" <- coin; "destroy" <- kill: one level for a verb)
            return ub[a] ** (math.log(self.GENERAL) / math.log(self.KIND))
        best = self.SUPERSENSE if a[0] == "n" and self.lexfile(a) == self.lexfile(b) else 0.0
        floor = self.COUSIN_DEPTH.get(a[0], 99)
        for k in ua.keys() & ub.keys():
            if self.depth(k) >= floor:
                best = max(best, (ua[k] * ub[k]) ** (math.log(self.COUSIN) / math.log(self.KIND)))
        return best

    def _seed_senses(self, seeds: frozenset[str], pos: str, limit: int) -> dict[Key, float]:
        key = ("seeds", seeds, pos, limit)
        if key not in self._cache:
            out: dict[Key, float] = {}
            for s in seeds:
                for lemma in self.lemmas(s, pos)[:1]:
                    tagged = bool(self._counts.get((lemma, pos))) or not self._counts
                    for k, w in self.sense_weights(lemma, pos, limit):
                        out[k] = max(out.get(k, 0.0), w * (1.0 if tagged else self.UNTAGGED))
            self._cache[key] = out
        return self._cache[key]

    def word_senses(self, word: str, pos: str) -> list[tuple[Key, float]]:
        """The senses of ``word`` as a ``pos``, weighted; an adjective's stand in for a noun through its
        derivationally related nouns and pertainyms ("fiery" -> fire, "molten" -> melt's nouns)."""
        out: dict[Key, float] = {}
        for lemma in self.lemmas(word, pos)[:2]:
            for k, w in self.sense_weights(lemma, pos, self.SENSES[pos]):
                out[k] = max(out.get(k, 0.0), w)
        if pos == "n" and not out:
            for lemma in self.lemmas(word, "a")[:1]:
                for k, w in self.sense_weights(lemma, "a", self.SENSES["a"]):
                    for sym, n in self.synset(k)[1]:
                        if sym in ("+", "\\") and n[0] == "n":
                            out[n] = max(out.get(n, 0.0), w * self.KIND)
        return list(out.items())

    def similarity(self, word: str, seeds: set[str] | frozenset[str], pos: str, seed_senses: int | None = None
                   ) -> float:
        """How close ``word`` (any inflection) is to one of ``seeds``, in [0, ``SYNONYM``]: the best
        ``SYNONYM`` x the word sense's weight x the seed sense's weight x ``pair`` (0 when no path)."""
        key = ("sim", word.lower(), frozenset(seeds), pos, seed_senses)
        if key in self._cache:
            return self._cache[key]
        target = self._seed_senses(frozenset(seeds), pos, seed_senses or self.SEED_SENSES[pos])
        best = 0.0
        for k, w in self.word_senses(word, pos):
            for t, tw in target.items():
                if w * tw <= best / self.SYNONYM:
                    continue
                best = max(best, self.SYNONYM * w * tw * self.pair(k, t))
        self._cache[key] = best
        return best

    related = similarity

    # ---- categories: what a kind *is*, as its designer says ("a coin is money, a treasure")
    CATEGORY = 0.8  # the score of a word whose most frequent sense is directly a kind of a category
    CATEGORY_STEP = 0.97  # the factor per further hypernym level between the word's sense and the category
    CATEGORY_DEPTH = 10  # hypernym levels looked at
    CATEGORY_LEVELS = {"v": 3}  # verbs: a category at most this many levels up (verb hierarchies are shallow and
    # their tops broad: "take", "move")

    def category_senses(self, categories: Any, pos: str = "n") -> frozenset[Key]:
        """The synsets a kind's category words name: "money" is the word's most frequent sense, "crown#4"
        its 4th, "place of worship" a collocation (spaces become underscores)."""
        key = ("cats", frozenset(categories), pos)
        if key not in self._cache:
            out: set[Key] = set()
            for c in categories:
                word, _, nth = str(c).strip().lower().partition("#")
                senses = [int(n) for n in nth.split(",") if n.strip().isdigit()] or [1]
                for lemma in self.lemmas(word.replace(" ", "_"), pos)[:1]:
                    keys = self.synsets(lemma, pos)
                    out.update(keys[n - 1] for n in senses if 0 < n <= len(keys))
            self._cache[key] = frozenset(out)
        return self._cache[key]

    def levels(self, key: Key) -> dict[Key, int]:
        """Synset -> the fewest hypernym (or instance) steps from ``key`` up to it, ``CATEGORY_DEPTH`` at most."""
        ck = ("levels", key)
        if ck not in self._cache:
            out = {key: 0}
            frontier = [key]
            for d in range(1, self.CATEGORY_DEPTH + 1):
                nxt = []
                for k in frontier:
                    for sym, up in self.synset(k)[1]:
                        if sym in ("@", "@i") and up not in out:
                            out[up] = d
                            nxt.append(up)
                frontier = nxt
            self._cache[ck] = out
        return self._cache[ck]

    def noun_share(self, word: str) -> float:
        """How often ``word`` is used as a noun rather than an adjective (SemCor's tagged counts, add-one
        smoothed): "entire" (an adjective; its noun sense is a horse) is seldom a noun, "rat" always."""
        nouns = sum(self._counts.get((lemma, "n"), {}).get(r, 0) for lemma in self.lemmas(word, "n")[:1] for r in range(1, 50))
        adjs = sum(self._counts.get((lemma, "a"), {}).get(r, 0) for lemma in self.lemmas(word, "a")[:1] for r in range(1, 50))
        return (nouns + 1) / (nouns + adjs + 1)

    def category(self, word: str, categories: Any, pos: str = "n") -> float:
        """How surely ``word`` names a kind of one of ``categories`` (see ``category_senses``), in [0,
        ``CATEGORY``]: the best sense of the word whose hypernym closure reaches a category, ``CATEGORY`` x
        the sense's weight x ``CATEGORY_STEP`` per level beyond the first ("florin" -> guilder -> monetary
        unit; "winch" -> lifting device -> device). A category word itself scores ``CATEGORY``."""
        cats = self.category_senses(categories, pos)
        if not cats:
            return 0.0
        key = ("cat", word.lower(), cats, pos)
        if key not in self._cache:
            best = 0.0
            for k, w in self.word_senses(word, pos):
                lv = self.levels(k)
                for c in cats:
                    if c in lv and lv[c] <= self.CATEGORY_LEVELS.get(pos, self.CATEGORY_DEPTH):
                        best = max(best, self.CATEGORY * w * self.CATEGORY_STEP ** max(0, lv[c] - 1))
            self._cache[key] = best * (self.noun_share(word) if pos == "n" else 1.0)
        return self._cache[key]


_WORDNET: dict[str, WordNet | None] = {}


def wordnet_folder(dirs: tuple[str, ...] = WORDNET_DIRS) -> str | None:
    for d in (os.environ.get("PLAYTESTER_WORDNET"), os.environ.get("WNSEARCHDIR"), *dirs):
        if d and (Path(d) / "index.verb").is_file() and (Path(d) / "data.noun").is_file():
            return d
    return None


def load_wordnet(dirs: tuple[str, ...] = WORDNET_DIRS) -> WordNet | None:
    """WordNet from Debian's ``wordnet-base`` files (or $PLAYTESTER_WORDNET), None when not found."""
    folder = wordnet_folder(dirs)
    if folder is None:
        return None
    if folder not in _WORDNET:
        try:
            _WORDNET[folder] = WordNet(folder)
        except (OSError, ValueError, IndexError):
            _WORDNET[folder] = None
    return _WORDNET[folder]


__all__ = ["WORDNET_DIRS", "WordNet", "load_wordnet", "wordnet_folder"]
