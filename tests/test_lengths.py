"""Other word lengths: the shipped wordfreq-4/6/7 lists (rebuilt from wordfreq, no network),
a list of mixed lengths refused with exit status 2, and the shipped trees of each length."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from solver.game.errors import InputError
from solver.game.wordfreq_lists import RECIPES, build_lists, build_recipe
from solver.game.wordlists import BUILTIN_LISTS, DATA_DIR, load_word_list

ROOT = Path(__file__).resolve().parents[1]
#: The sha256 of the shipped files, as in solver/data/README.md.
SHIPPED_SHA256 = {
    "wordfreq-4/answers.txt": "7399d39a596ac5dc2e71c916198ae8db8299911101eb4ca334e81b07af95fda9",
    "wordfreq-4/guesses.txt": "13d72eeebde8f44870f816c1e5f05649e9dc25cd0cb92674807937e8e77623b6",
    "wordfreq-6/answers.txt": "78bd1530ecaba045a130c2cfe293ac72e86b845b7193215b7e9d4d2ba5914904",
    "wordfreq-6/guesses.txt": "4c300e181a379438aca2d4fadb2a69a34dbf953cdb0a0aae79ca2a21a4b06243",
    "wordfreq-7/answers.txt": "2244a407836ec9e5ab448af581f304822832f75b8a29c118e74f3691c08cc965",
    "wordfreq-7/guesses.txt": "d40009259e8228bb803feeacfc90c2cde7a958d6a28a8dc67317c8842f3ec3bb",
}
#: (answers, guesses) of each shipped list, as in solver/data/README.md.
SIZES = {4: (1000, 2510), 6: (2000, 7578), 7: (2000, 7836)}


@pytest.mark.parametrize("relative,digest", sorted(SHIPPED_SHA256.items()))
def test_shipped_files_have_the_documented_sha256(relative, digest):
    assert hashlib.sha256((DATA_DIR / relative).read_bytes()).hexdigest() == digest


@pytest.mark.parametrize("length", sorted(RECIPES))
def test_the_builder_rebuilds_the_shipped_files(length):
    from importlib.metadata import version

    from solver.game.wordfreq_lists import WORDFREQ_VERSION

    assert version("wordfreq") == WORDFREQ_VERSION, \
        "another wordfreq release: rebuild with python -m tools.make_wordlists and update the hashes"
    recipe = RECIPES[length]
    answers, guesses = build_recipe(recipe)
    assert (answers, guesses) == build_recipe(recipe)  # deterministic
    for kind, words in (("answers", answers), ("guesses", guesses)):
        payload = "".join(w + "\n" for w in words).encode("ascii")
        assert payload == (DATA_DIR / recipe.name / f"{kind}.txt").read_bytes()


@pytest.mark.parametrize("length", sorted(RECIPES))
def test_shipped_lists_load_by_name(length):
    name = f"wordfreq-{length}"
    assert name in BUILTIN_LISTS
    wl = load_word_list(name)
    assert (wl.n_answers, wl.n_guesses) == SIZES[length]
    assert wl.word_length == length
    assert wl.shipped_name == name and wl.output_name == name
    assert set(wl.answers) <= set(wl.guesses)
    assert all(len(w) == length and w.isascii() and w.isalpha() and w.islower() for w in wl.guesses)


def test_answers_are_the_most_frequent_words():
    from wordfreq import word_frequency

    answers, guesses = build_lists(6, 50, 3.0)
    rest = sorted(set(guesses) - set(answers))
    assert len(answers) == 50 and rest
    assert min(word_frequency(w, "en") for w in answers) >= max(word_frequency(w, "en") for w in rest)


def test_bad_thresholds_are_refused():
    with pytest.raises(InputError, match="below the guess cut"):
        build_lists(6, 3000, 5.0)
    with pytest.raises(InputError, match="positive"):
        build_lists(6, 0, 3.0)


def test_check_reports_a_difference(tmp_path, capsys):
    from solver.cli.make_wordlists import main

    assert main(["--lengths", "7", "--out", str(tmp_path)]) == 0
    assert main(["--lengths", "7", "--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "wordfreq-7" / "guesses.txt").write_text("abcdefg\n")
    assert main(["--lengths", "7", "--out", str(tmp_path), "--check"]) == 1
    assert "DIFFERS" in capsys.readouterr().out
    assert main(["--lengths", "5"]) == 2


@pytest.mark.parametrize("answers,guesses,message", [
    ("word\nwords\n", "word\nwords\n", "has 5 letters, but the list's words have 4"),
    ("tories\n", "tories\nparties\n", "has 7 letters, but the list's words have 6"),
])
def test_a_list_of_mixed_lengths_exits_2(tmp_path, answers, guesses, message):
    directory = tmp_path / "mixed"
    directory.mkdir()
    (directory / "answers.txt").write_text(answers)
    (directory / "guesses.txt").write_text(guesses)
    out = tmp_path / "tree.msgpack"
    proc = subprocess.run(
        [sys.executable, "-m", "tools.solve", "--words", str(directory), "--opener", "word",
         "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    assert message in proc.stderr and "line 2" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()


#: The shipped trees: (artifact, opener, total, max guesses, proof over all openers), as in
#: README "Other word lengths".
TREES = {
    4: ("wordfreq-4-normal-sent.msgpack", "sent", 3752, 6, False),
    6: ("wordfreq-6-normal-tories.msgpack", "tories", 5909, 4, True),
    7: ("wordfreq-7-normal-parties.msgpack", "parties", 5469, 4, True),
}


@pytest.mark.parametrize("length", sorted(TREES))
def test_shipped_trees_verify_with_the_documented_figures(length):
    import policy_tree

    name, opener, total, worst, proven = TREES[length]
    tree = policy_tree.load(ROOT / "artifacts" / name)
    report = policy_tree.verify(tree)
    assert report.ok, report.failures
    assert tree.word_list.name == f"wordfreq-{length}" and tree.word_list.word_length == length
    assert tree.opener == opener
    assert (report.total, report.max_guesses) == (total, worst)
    assert (tree.opener_proof is not None) == proven
    if proven:
        assert tree.opener_proof["openers"] == load_word_list(f"wordfreq-{length}").n_guesses


#: The openers CSV of each length: a proof over every guess, or the labelled top-N search.
OPENER_CSVS = {4: ("wordfreq-4-normal-top250-openers.csv", 250),
               6: ("wordfreq-6-normal-openers.csv", None), 7: ("wordfreq-7-normal-openers.csv", None)}


@pytest.mark.parametrize("length", sorted(OPENER_CSVS))
def test_openers_csv_agrees_with_the_tree(length):
    import csv

    name, top = OPENER_CSVS[length]
    with open(ROOT / "artifacts" / name, newline="") as handle:
        rows = list(csv.DictReader(handle))
    n_guesses = load_word_list(f"wordfreq-{length}").n_guesses
    assert len(rows) == (n_guesses if top is None else top)
    _, opener, total, _, proven = TREES[length]
    assert (rows[0]["opener"], rows[0]["status"], int(rows[0]["value"])) == (opener, "exact", total)
    assert all(int(r["value"]) > total for r in rows[1:])
    assert proven == (top is None)
