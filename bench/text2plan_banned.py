"""The banned words of a blind text-to-plan set: every content word (three letters or more, not a function word)
of the matcher's code and comments, the plan config, the dungeon plans, the text-to-plan tests, this bench, the
text-to-plan part of docs/benchmarks/plans.md (the README's until it moved) and every sentence set, with their WordNet base forms and the inflections of
those (regular endings and WordNet's exception lists). The writer of a held-out set gets the list, a
description of the game (``bench/data/text2plan_game.md``) and ``--check``, never the repository.

Run at the freeze's commit: ``python bench/text2plan_banned.py OUT_DIR`` writes ``banned.json`` and
``banned.txt``; ``python bench/text2plan_banned.py --check SET.yaml [BANNED.json]`` lists every banned word in
a set's sentences (exit 1 when there is one). test6 was written against the list made from the files as they were
at 79675bb (31,789 forms), test7 against this script's list at a089302 (33,813 forms)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FUNCTION = set("""a an the this that these those my your his her its our their mine yours ours theirs i me you he him she
it we us they them myself yourself himself herself itself ourselves yourselves themselves oneself one ones
who whom whose which what whatever whichever whoever where when whenever wherever why how while until till
and or but nor so yet if then than as because since though although unless whether both either neither
to of in on at by for from with without into onto over under above below across through throughout along
around about after before behind beside besides between beyond near off out up down upon within against
among toward towards past via per like unlike
be am is are was were been being have has had having do does did doing done
can could may might must shall should will would ought need needs dare
not no never ever always often once twice again also too very just only even still already soon now
here there then next first second third last finally later afterwards
all any each every some many much more most few less least several other another such own same
yes ok okay please let lets s t re ve ll d don won isn aren wasn weren hasn haven hadn doesn didn can't
""".split())


def sources() -> list[str]:
    files = ["src/playtester/plans/text.py", "src/playtester/plans/wordnet.py", "src/playtester/plans/schema.py",
             "src/playtester/games/dungeon.plan-config.yaml", "src/playtester/games/dungeon.plan.yaml",
             "tests/plans/dungeon_base.plan.yaml", "tests/plans/plankit.py", "bench/text2plan.py"]
    paths = [ROOT / f for f in files] + sorted((ROOT / "tests" / "plans").glob("test_*text*.py")) \
        + sorted((ROOT / "bench" / "data").glob("text2plan_dungeon.*.yaml"))
    page = (ROOT / "docs" / "benchmarks" / "plans.md").read_text()  # the README's plans benchmark section until it moved
    a = page.index("Text to plan (`bench/text2plan.py`")
    return [p.read_text() for p in paths] + [page[a:]]


def forms(b: str) -> set[str]:
    out = {b, b + "s", b + "es", b + "ed", b + "d", b + "ing", b + "er", b + "ers", b + "est", b + "ly", b + "ise", b + "ize"}
    if b.endswith("e"):
        out |= {b[:-1] + "ing", b[:-1] + "er", b[:-1] + "y"}
    if b.endswith("y"):
        out |= {b[:-1] + "ies", b[:-1] + "ied", b[:-1] + "ier", b[:-1] + "ily"}
    if len(b) >= 3 and b[-1] not in "aeiouwxy" and b[-2] in "aeiou" and b[-3] not in "aeiou":
        out |= {b + b[-1] + "ed", b + b[-1] + "ing", b + b[-1] + "er"}
    if b.endswith("ize"):
        out |= {b[:-3] + "ise", b[:-3] + "ised", b[:-3] + "ising"}
    if b.endswith("ise"):
        out |= {b[:-3] + "ize", b[:-3] + "ized", b[:-3] + "izing"}
    return out


def banned_words() -> list[str]:
    from playtester.plans.wordnet import load_wordnet

    wn = load_wordnet()
    if wn is None:
        raise SystemExit("WordNet is not installed: make wordnet")
    words = {w.lower() for t in sources() for w in re.findall(r"[A-Za-z]+", t)}
    words = {w for w in words if len(w) >= 3 and w not in FUNCTION}
    bases = set(words)
    for w in words:
        for pos in ("n", "v", "a"):
            bases.update(x for x in wn.lemmas(w, pos) if "_" not in x)
    bases -= FUNCTION
    out = set().union(*[forms(b) for b in bases])
    for pos in ("n", "v", "a"):
        out |= {form for form, lemma in wn.exceptions[pos].items() if lemma in bases}
    return sorted(out - FUNCTION)


def check(text: str, banned: set[str]) -> list[str]:
    """Every banned word in the quoted sentences of a set file, as 'line N: word in sentence'."""
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        for q in re.findall(r'"([^"]*)"', line):
            found += [f"line {n}: banned word {w!r} in {q!r}" for w in re.findall(r"[A-Za-z]+", q) if w.lower() in banned]
    return found


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "--check":
        banned = set(json.loads(Path(sys.argv[3]).read_text())) if len(sys.argv) > 3 else set(banned_words())
        found = check(Path(sys.argv[2]).read_text(), banned)
        print("\n".join(found + [f"{len(found)} banned word(s)"]))
        raise SystemExit(1 if found else 0)
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    words = banned_words()
    (out / "banned.json").write_text(json.dumps(words))
    (out / "banned.txt").write_text("\n".join(words) + "\n")
    print(f"{len(words)} banned forms -> {out}/banned.json, banned.txt")


if __name__ == "__main__":
    main()
