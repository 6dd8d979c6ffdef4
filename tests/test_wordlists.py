"""Word lists: the shipped copies, and bad lists rejected with the file and line named."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from solver.game.errors import UnknownWordError, WordListError
from solver.game.wordlists import DATA_DIR, load_word_list

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "wordlists"
PUBLISHED_SHA256 = {  # shared/data/wordlists/README.md
    "legacy/answers.txt": "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee",
    "legacy/guesses.txt": "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579",
    "nyt-2024/answers.txt": "c495f6cbc36475358a89e30ac16bd5c0c05073c8c7647bb6c35dd01f7bae6e32",
    "nyt-2024/guesses.txt": "ba86911aea83d038d53c0999fe6cbe310c8f59d2b79626c73bd0cd0773adc320",
}


@pytest.mark.parametrize("relative,digest", sorted(PUBLISHED_SHA256.items()))
def test_shipped_copies_match_the_published_hashes(relative, digest):
    assert hashlib.sha256((DATA_DIR / relative).read_bytes()).hexdigest() == digest
    if SHARED.exists():
        assert (SHARED / relative).read_bytes() == (DATA_DIR / relative).read_bytes()


def test_load_by_name():
    legacy = load_word_list("legacy")
    assert (legacy.n_answers, legacy.n_guesses) == (2315, 12972)
    assert legacy.answers_sha256 == PUBLISHED_SHA256["legacy/answers.txt"]
    nyt = load_word_list("nyt-2024")
    assert (nyt.n_answers, nyt.n_guesses) == (2309, 14855)
    assert legacy.guesses[legacy.answer_guess_index[0]] == legacy.answers[0]
    assert legacy.guess_index("SALET") == legacy.guesses.index("salet")
    with pytest.raises(UnknownWordError):
        legacy.answer_index("salet")  # a guess, not an answer


def write_list(directory: Path, answers: str, guesses: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "answers.txt").write_text(answers)
    (directory / "guesses.txt").write_text(guesses)
    return directory


def test_directory_list_is_lowercased_and_sorted(tmp_path):
    wl = load_word_list(write_list(tmp_path / "mine", "Rebut\nCIGAR\n", "salet\ncigar\nrebut\n"))
    assert wl.answers == ("cigar", "rebut")
    assert wl.guesses == ("cigar", "rebut", "salet")
    assert wl.name == "mine"


BAD_LISTS = [  # (answers.txt, guesses.txt, file named, words in the message)
    ("cigar\nreb t\n", "cigar\nrebut\n", "answers.txt", ["line 2", "ASCII letters"]),
    ("cigar\nrebuts\n", "cigar\nrebut\n", "answers.txt", ["line 2", "6 letters", "have 5"]),
    ("cigar\ncaféé\n", "cigar\n", "answers.txt", ["line 2"]),
    ("cigar\nrebut\ncigar\n", "cigar\nrebut\n", "answers.txt", ["line 3", "duplicate", "line 1"]),
    ("cigar\nrebut\n", "cigar\n", "answers.txt", ["line 2", "missing"]),
    ("", "cigar\n", "answers.txt", ["empty"]),
    ("cigar\n", "", "guesses.txt", ["empty"]),
    ("cigar\n", "cigar\ncigar,rebut\n", "guesses.txt", ["line 2", "'cigar,rebut'"]),
    ("cigar\n", "cigar\n\"rebut\"x\n", "guesses.txt", ["line 2"]),
]


EDITOR_FILES = {  # issue 23: how editors and spreadsheets save "cigar, rebut" (guesses + salet)
    "UTF-8 with a BOM (Notepad)": lambda t: b"\xef\xbb\xbf" + t.encode(),
    "CRLF line endings (Windows)": lambda t: t.replace("\n", "\r\n").encode(),
    "CR line endings (classic Mac)": lambda t: t.replace("\n", "\r").encode(),
    "no newline at the end": lambda t: t.rstrip("\n").encode(),
    "blank lines and a trailing blank line": lambda t: ("\n" + t.replace("\n", "\n\n")).encode(),
    "UTF-16 LE with a BOM (Excel 'Unicode text')": lambda t: t.replace("\n", "\r\n").encode("utf-16"),
    "UTF-16 BE with a BOM": lambda t: b"\xfe\xff" + t.encode("utf-16-be"),
    "a one-column CSV export": lambda t: "".join(f'"{w}",\r\n' for w in t.split()).encode(),
    "semicolon CSV with empty cells": lambda t: "".join(f"{w};;\n" for w in t.split()).encode(),
    "tabs, spaces and no-break spaces": lambda t: "".join(f"\t {w}\u00a0 \n" for w in t.split()).encode(),
    "capitals": lambda t: t.upper().encode(),
}


@pytest.mark.parametrize("style", list(EDITOR_FILES))
def test_lists_as_editors_save_them_load_when_their_words_are_fine(tmp_path, style):
    encode = EDITOR_FILES[style]
    directory = tmp_path / "mine"
    directory.mkdir()
    (directory / "answers.txt").write_bytes(encode("cigar\nrebut\n"))
    (directory / "guesses.txt").write_bytes(encode("salet\ncigar\nrebut\n"))
    wl = load_word_list(directory)
    assert wl.answers == ("cigar", "rebut") and wl.guesses == ("cigar", "rebut", "salet")


def test_a_file_in_another_encoding_is_named(tmp_path):
    directory = write_list(tmp_path / "latin", "cigar\n", "cigar\n")
    (directory / "answers.txt").write_bytes("cigar\ncafé\n".encode("latin-1"))
    with pytest.raises(WordListError, match=r"answers.txt: not UTF-8 text .*save it as UTF-8"):
        load_word_list(directory)


@pytest.mark.parametrize("answers,guesses,named,words", BAD_LISTS)
def test_bad_lists_are_rejected(tmp_path, answers, guesses, named, words):
    directory = write_list(tmp_path / "bad", answers, guesses)
    with pytest.raises(WordListError) as info:
        load_word_list(directory)
    message = str(info.value)
    assert named in message
    for word in words:
        assert word in message


def test_missing_directory_and_unknown_name(tmp_path):
    with pytest.raises(WordListError, match="neither a shipped word list"):
        load_word_list(tmp_path / "nowhere")
    (tmp_path / "empty_dir").mkdir()
    with pytest.raises(WordListError, match="answers.txt: no such word list file"):
        load_word_list(tmp_path / "empty_dir")


@pytest.mark.parametrize("answers,guesses,named,words", [BAD_LISTS[0], BAD_LISTS[3], BAD_LISTS[4]])
def test_solve_cli_exits_2_on_a_bad_list(tmp_path, answers, guesses, named, words):
    directory = write_list(tmp_path / "bad", answers, guesses)
    out = tmp_path / "tree.msgpack"
    proc = subprocess.run(
        [sys.executable, "-m", "tools.solve", "--words", str(directory), "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    assert named in proc.stderr and words[0] in proc.stderr
    assert not out.exists()


@pytest.mark.parametrize("text, problem", [
    ("crane\nslate\ncrane\n", "line 3: duplicate word 'crane' (first on line 1)"),
    ("crane\nslate\ncranes\n", "line 3: 'cranes' has 6 letters, but the list's words have 5"),
    ("crane\nSlate\n", None),
    ("crane\r\nslate\r\n", None),
])
def test_the_one_pass_reading_of_canonical_files_agrees_with_the_line_by_line_one(tmp_path, text, problem):
    """Files laid out as the shipped ones are read in one regular-expression pass; anything else
    (a duplicate, a wrong length, capitals, CRLF) falls back to the line-by-line reading, so the
    words and the errors (naming the line) are the same either way."""
    from solver.game.wordlists import _canonical_words, _read_words

    path = tmp_path / "answers.txt"
    path.write_bytes(text.encode())
    if problem is None:
        assert _read_words(path) == ["crane", "slate"]
        return
    assert _canonical_words(text, None) is None
    with pytest.raises(WordListError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        _read_words(path)
    assert _canonical_words("crane\nslate\n", None) == ["crane", "slate"]
