"""Text to plan, the game's own words taught once (issue 17): a word the matcher cannot place is rejected with
a message that says how to teach it; a word taught in the plan config's ``vocabulary`` (or a vocabulary file,
or answered under ``plan from-text --learn``) names its action or actor kind from then on, inflections
included, and teaches nothing else. The words are made up, so no resource of the matcher knows them."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml
from plankit import DUNGEON_INSTANCES, GAMES, got

from playtester.errors import ConfigError
from playtester.plans.schema import load_config
from playtester.plans.text import TextToPlan, load_vocabulary, save_vocabulary, wordnet_folder

pytestmark = pytest.mark.skipif(wordnet_folder() is None, reason="WordNet (Debian's wordnet-base) is not installed")
INSTANCES = DUNGEON_INSTANCES
TAUGHT = {"zorp": "interact", "glimmerstone": "shrine", "pip": "hero", "skree": "enemy"}


@pytest.fixture(scope="module")
def cfg():
    return load_config(GAMES / "dungeon.plan-config.yaml")


def matcher(cfg, vocabulary=None):
    return TextToPlan.from_config(cfg, INSTANCES, use_embeddings=False, player="hero", game="dungeon",
                                  vocabulary=vocabulary)


def test_an_unknown_word_is_rejected_with_how_to_teach_it(cfg):
    t2p = matcher(cfg)
    step = t2p.parse("Zorp the lever.")
    assert got(step) == ("reject", None, None)
    assert step.unknown is not None and step.unknown[0].lower() == "zorp"
    assert "add 'zorp: NAME' under vocabulary:" in step.describe()
    actor = t2p.parse("Walk to the glimmerstone.")
    assert got(actor) == ("reject", None, None) and actor.unknown[0] == "glimmerstone"


def test_taught_words_name_their_action_and_kind_inflected_too(cfg):
    t2p = matcher(cfg, TAUGHT)
    assert got(t2p.parse("Zorp the lever.")) == ("node", "interact", "switch")
    assert got(t2p.parse("The lever must be zorped.")) == ("node", "interact", "switch")
    assert got(t2p.parse("Walk to the glimmerstone.")) == ("node", "go", "shrine")
    assert got(t2p.parse("Attack every skree.")) == ("rule", "attack", "enemy")
    # the player in the game's words is never the target: the movement goes to the shrine, not to Pip
    assert got(t2p.parse("Pip should walk to the glimmerstone.")) == ("node", "go", "shrine")
    # a taught word keeps the rest of the rules: interacting applies to switches and shrines, not to enemies
    assert got(t2p.parse("Zorp the skree.")) == ("reject", None, None)


def test_teaching_changes_nothing_else(cfg):
    plain, taught = matcher(cfg), matcher(cfg, TAUGHT)
    for s in ["Pull the lever.", "Jump over the lava.", "Talk to the merchant.", "Attack the slime.",
              "Collect every coin."]:
        assert got(plain.parse(s)) == got(taught.parse(s)), s


def test_the_plan_config_checks_its_vocabulary_with_file_and_line(tmp_path):
    text = (GAMES / "dungeon.plan-config.yaml").read_text()
    bad = tmp_path / "bad.plan-config.yaml"
    bad.write_text(text + "vocabulary:\n  zorp: interract\n")
    with pytest.raises(ConfigError) as e:
        load_config(bad)
    msg = str(e.value)
    assert str(bad) in msg and "'zorp' names 'interract'" in msg and "did you mean 'interact'" in msg
    good = tmp_path / "good.plan-config.yaml"
    good.write_text(text + "vocabulary:\n  zorp: interact\n  pip: hero\n")
    cfg = load_config(good)
    assert cfg.vocabulary == {"zorp": "interact", "pip": "hero"}
    assert got(matcher(cfg).parse("Zorp the lever.")) == ("node", "interact", "switch")


def test_vocabulary_files_round_trip_and_name_the_bad_line(tmp_path, cfg):
    path = tmp_path / "words.yaml"
    save_vocabulary(path, TAUGHT)
    assert load_vocabulary(path, cfg.vocabulary_names) == TAUGHT
    path.write_text("zorp: interact\nglimmerstone: temple\n")
    with pytest.raises(ConfigError, match=r"words\.yaml:2: .*'glimmerstone' names 'temple'"):
        load_vocabulary(path, cfg.vocabulary_names)


def test_plan_from_text_learn_asks_once_writes_the_file_and_converts_again(tmp_path):
    words = tmp_path / "words.yaml"
    out = subprocess.run([sys.executable, "-m", "playtester.cli", "plan", "from-text", "dungeon",
                          "Zorp the lever. Zorp the switch again.", "--no-embeddings", "--learn",
                          "--vocabulary", str(words)], input="interact\n", capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("what does 'zorp' name") == 1  # asked once for the word, not per sentence
    assert yaml.safe_load(words.read_text()) == {"zorp": "interact"}
    assert "action interact ('Zorp'" in out.stdout
    # the next run reads the taught word without asking
    again = subprocess.run([sys.executable, "-m", "playtester.cli", "plan", "from-text", "dungeon", "Zorp the lever.",
                            "--no-embeddings", "--vocabulary", str(words)], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "what does" not in again.stdout


def test_the_benchmark_teaches_from_a_sets_word_labels_and_skips_what_they_lack(tmp_path):
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        import text2plan
    finally:
        sys.path.pop(0)
    from playtester.drive.spec import resolve

    data = tmp_path / "set.yaml"
    data.write_text(yaml.safe_dump({"sentences": [
        ["Zorp the lever.", "node", "interact", "switch", {"zorp": "interact"}],
        ["Walk to the glimmerstone.", "node", "go", "shrine", {"glimmerstone": "shrine"}],
        ["Blorf the lever.", "reject", None, None, {}]]}))
    items, labels = text2plan.items(data), text2plan.word_labels(data)
    assert items[0] == ("Zorp the lever.", [("node", "interact", "switch")])
    e = text2plan.teach(resolve("dungeon"), items, labels, use_embeddings=False)
    assert e["vocabulary"] == {"zorp": "interact", "glimmerstone": "shrine"}  # "blorf": asked, not taught
    assert e["questions"] == 3 and e["words_taught"] == 2
    assert e["all_correct"] == 3 and e["impossible_rejected"] == 1


def test_plan_from_text_names_a_missing_vocabulary_file_and_learn_stops_at_the_end_of_input(tmp_path):
    missing = subprocess.run([sys.executable, "-m", "playtester.cli", "plan", "from-text", "dungeon", "Zorp the lever.",
                              "--no-embeddings", "--vocabulary", str(tmp_path / "nowhere.yaml")], capture_output=True,
                             text=True, timeout=300)
    assert missing.returncode != 0 and "nowhere.yaml: no such file" in missing.stdout + missing.stderr
    words = tmp_path / "words.yaml"
    closed = subprocess.run([sys.executable, "-m", "playtester.cli", "plan", "from-text", "dungeon",
                             "Zorp the lever. Walk to the glimmerstone.", "--no-embeddings", "--learn", "--vocabulary",
                             str(words)], input="interact\n", capture_output=True, text=True, timeout=300)
    # the second question meets the end of the input: the first answer is kept, the unplaced step stays rejected
    assert closed.returncode == 1, closed.stdout + closed.stderr
    assert yaml.safe_load(words.read_text()) == {"zorp": "interact"}
    assert "action interact ('Zorp'" in closed.stdout and "Traceback" not in closed.stderr
