"""The feedback rule: the numba table against the plain twin, repeated letters, encodings."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from naive import feedback as naive_feedback, letter_counts_ok, table as naive_table
from naive_yellow import yellow_table
from solver.game import _feedback_kernel, feedback as feedback_module
from solver.game.errors import FeedbackError
from solver.game.feedback import (
    TableParts, code_to_text, feedback_code, feedback_columns, feedback_rows, feedback_table,
    parse_feedback, table_cache_path, words_to_letters, yellow_lookup,
)
from solver.game._feedback_kernel import feedback_table_kernel
from solver.game.checked_table import write_table
from solver.game.wordlists import from_words, load_word_list


def kernel_table(guesses, answers):
    """The kernel's table for two lists of words of one length."""
    table = np.empty((len(guesses), len(answers)), dtype=np.uint16)
    return feedback_table_kernel(words_to_letters(guesses), words_to_letters(answers), table)

# Hand-worked cases with repeated letters (docs/algorithms.md §1.2 gives the first).
HAND_CASES = [
    ("speed", "abide", "bbyby"),
    ("eerie", "there", "ybybg"),
    ("troll", "smile", "bbbgb"),
    ("geese", "eerie", "bgybg"),
    ("llama", "hello", "yybbb"),
    ("abbey", "babes", "yyggb"),
    ("salet", "salet", "ggggg"),
    ("xxxxx", "salet", "bbbbb"),
    ("eeeee", "there", "bbgbg"),
]


@pytest.mark.parametrize("guess,answer,expected", HAND_CASES)
@pytest.mark.kernels
def test_hand_worked_cases(guess, answer, expected):
    assert code_to_text(feedback_code(guess, answer)) == expected
    assert code_to_text(naive_feedback(guess, answer)) == expected
    kernel = kernel_table([guess], [answer])
    assert code_to_text(kernel[0, 0]) == expected


# Few letters make repeated letters common.
words = st.text(alphabet="aebst", min_size=5, max_size=5)


@settings(max_examples=400, deadline=None)
@given(guess=words, answer=words)
@pytest.mark.kernels
def test_kernel_equals_plain_twin_on_repeated_letters(guess, answer):
    code = int(kernel_table([guess], [answer])[0, 0])
    assert code == naive_feedback(guess, answer) == feedback_code(guess, answer)
    assert letter_counts_ok(guess, answer, code)
    assert (code == 242) == (guess == answer)


@st.composite
def word_lists(draw):
    """(guesses, answers): words of one length (2 to 7) over a few letters, so that letters
    repeat within a word and between words; up to 150 guesses, more than a thread's block of
    rows (``_feedback_kernel.ROW_BLOCK``)."""
    length = draw(st.integers(2, 7))
    word = st.text(alphabet=draw(st.sampled_from(["ab", "aeb", "aebst", "lmnoe"])),
                   min_size=length, max_size=length)
    return (draw(st.lists(word, min_size=1, max_size=150)),
            draw(st.lists(word, min_size=1, max_size=12)))


@settings(max_examples=60, deadline=None)
@given(lists=word_lists())
@pytest.mark.kernels
def test_whole_and_part_kernels_equal_the_plain_twin_at_every_length(lists):
    """Both kernels, one guess letter at a time over all answers (docs/algorithms.md §1.2), give
    every pair the naive twin's code, at word lengths 2 to 7 and over several row blocks."""
    guesses, answers = lists
    twin = np.array(naive_table(guesses, answers))
    assert np.array_equal(kernel_table(guesses, answers), twin)
    part = np.empty((len(guesses), len(answers)), dtype=np.uint16)
    _feedback_kernel.feedback_part_kernel(words_to_letters(guesses), words_to_letters(answers),
                                          part)
    assert np.array_equal(part, twin)


@pytest.mark.slow
def test_full_table_on_thousands_of_random_pairs():
    wl = load_word_list("legacy")
    table = feedback_table(wl)
    assert table.shape == (12972, 2315) and table.dtype == np.uint8
    rng = np.random.default_rng(7)
    for g, a in zip(rng.integers(wl.n_guesses, size=5000), rng.integers(wl.n_answers, size=5000)):
        assert table[g, a] == naive_feedback(wl.guesses[g], wl.answers[a])
    # every answer is all-green against itself, nothing else is
    assert (table[wl.answer_guess_index, np.arange(wl.n_answers)] == 242).all()
    assert int((table == 242).sum()) == wl.n_answers


@pytest.mark.kernels
def test_table_is_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    from solver.game.wordlists import from_words

    wl = from_words(["cigar", "rebut", "sissy"], ["cigar", "rebut", "sissy", "salet"])
    path = table_cache_path(wl)
    assert not path.exists()
    first = feedback_table(wl)
    assert path.exists()
    path.write_bytes(path.read_bytes())  # still valid
    assert np.array_equal(np.load(path), first)
    path.write_bytes(b"garbage")  # a damaged cache is recomputed
    assert np.array_equal(feedback_table(wl), first)


@pytest.mark.parametrize("text,code", [("bbbbb", 0), ("ggggg", 242), ("ybbbb", 1), ("BYGBY", 0 + 3 + 18 + 0 + 81),
                                       ("01201", 0 + 3 + 18 + 0 + 81), ("⬛🟨🟩⬜🟨", 0 + 3 + 18 + 0 + 81)])
def test_parse_feedback_forms(text, code):
    assert parse_feedback(text) == code


@pytest.mark.parametrize("text", ["bbbb", "bbbbbb", "bbxqb", "", "33333", "gggg🟩🟩"])
def test_parse_feedback_rejects(text):
    with pytest.raises(FeedbackError):
        parse_feedback(text)


def test_code_text_round_trip():
    for code in range(243):
        assert parse_feedback(code_to_text(code)) == code


# -- parts of the table: rows (guesses × every answer) and columns (every guess × answers) --------
PART_ANSWERS = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval",
                "serve", "eerie", "geese"]
PART_GUESSES = PART_ANSWERS + ["salet", "abbey", "llama", "speed", "there", "xxxxx", "eeeee"]


def _fail(*args, **kwargs):
    raise AssertionError("computed, though the table is cached")


@pytest.mark.kernels
@pytest.mark.parametrize("rule", ["standard", "yellow"])
@pytest.mark.parametrize("method", ["plain", "kernel", "cached"])
def test_rows_and_columns_of_a_small_list_are_the_twins_table(tmp_path, monkeypatch, rule, method):
    """Rows, columns, one guess's codes and the codes of (guess, answer) pairs, each computed
    alone (by feedback_code, or by the part kernel) or read from the cached table, equal the
    plain twin's table (tests/naive.py, tests/naive_yellow.py), in the table's dtype and shape;
    computing a part writes nothing."""
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = from_words(PART_ANSWERS, PART_GUESSES)
    twin = np.array((yellow_table if rule == "yellow" else naive_table)(wl.guesses, wl.answers))
    if method == "kernel":  # every part by the kernel
        monkeypatch.setattr(feedback_module, "PLAIN_MOST", 0)
        monkeypatch.setattr(feedback_module, "feedback_code", _fail)
    elif method == "plain":
        monkeypatch.setattr(_feedback_kernel, "feedback_part_kernel", _fail)
    else:
        feedback_table(wl, feedback=rule)
        monkeypatch.setattr(feedback_module, "feedback_code", _fail)
        monkeypatch.setattr(_feedback_kernel, "feedback_part_kernel", _fail)
    parts = TableParts(wl, rule)
    rng = np.random.default_rng(31)
    for k in (0, 1, 3, 6):  # at most half the table: a part, never the whole
        guesses = rng.choice(wl.n_guesses, size=k, replace=False)
        answers = rng.choice(wl.n_answers, size=k, replace=False)
        rows, columns = parts.rows(guesses), parts.columns(answers)
        assert rows.shape == (k, wl.n_answers) and columns.shape == (wl.n_guesses, k)
        assert rows.dtype == columns.dtype == np.uint8
        assert rows.flags.c_contiguous and columns.flags.c_contiguous
        assert np.array_equal(rows, twin[guesses]) and np.array_equal(columns, twin[:, answers])
        assert np.array_equal(feedback_rows(wl, guesses, rule), twin[guesses])
        assert np.array_equal(feedback_columns(wl, answers, rule), twin[:, answers])
        for g in guesses:
            assert np.array_equal(parts.codes(g, answers), twin[g, answers])
        pairs = rng.choice(wl.n_guesses, size=k), rng.choice(wl.n_answers, size=k)
        assert np.array_equal(parts.codes(*pairs), twin[pairs])  # element by element
    if method != "cached":
        assert list(tmp_path.iterdir()) == []


@pytest.mark.kernels
def test_a_part_of_more_than_half_the_table_builds_and_caches_the_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = from_words(PART_ANSWERS, PART_GUESSES)
    parts = TableParts(wl)
    parts.columns(np.arange(6))  # half: computed alone
    assert not table_cache_path(wl).exists()
    columns = parts.columns(np.arange(7))
    assert table_cache_path(wl).exists()
    assert np.array_equal(columns, np.array(naive_table(wl.guesses, wl.answers))[:, :7])


@pytest.mark.kernels
def test_a_part_refuses_an_index_out_of_range(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = from_words(PART_ANSWERS, PART_GUESSES)
    with pytest.raises(IndexError, match="guess index 19 is not in 0..18"):
        feedback_rows(wl, [0, 19])
    with pytest.raises(IndexError, match="answer index -1 is not in 0..11"):
        feedback_columns(wl, [-1])
    with pytest.raises(IndexError, match="answer index 12 is not in 0..11"):
        TableParts(wl).codes([0, 1], [3, 12])
    with pytest.raises(FeedbackError):
        feedback_rows(wl, [0], "green")


@pytest.mark.slow
@pytest.mark.parametrize("rule, cache", [("standard", "empty"), ("standard", "this rule's table"),
                                         ("yellow", "empty"), ("yellow", "this rule's table"),
                                         ("yellow", "the standard table")])
def test_rows_and_columns_of_the_legacy_lists_are_the_tables(legacy_table, tmp_path, monkeypatch,
                                                              rule, cache):
    """The legacy lists: parts computed with an empty cache (by feedback_code, and by the
    kernel for the larger ones; nothing written) or read from a cached table (nothing
    computed; a yellow part from the standard table, mapped, when only that is cached) equal
    the whole table's."""
    word_list, standard = legacy_table
    table = yellow_lookup(5)[standard] if rule == "yellow" else standard
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    if cache != "empty":
        write_table(table_cache_path(word_list, rule if cache == "this rule's table" else "standard"),
                    table if cache == "this rule's table" else standard)
        monkeypatch.setattr(feedback_module, "feedback_code", _fail)
        monkeypatch.setattr(_feedback_kernel, "feedback_part_kernel", _fail)
    parts = TableParts(word_list, rule)
    rng = np.random.default_rng(2315)
    few = rng.choice(word_list.n_guesses, size=4, replace=False)  # 9,260 codes: feedback_code
    many = rng.choice(word_list.n_guesses, size=60, replace=False)  # the kernel
    assert np.array_equal(parts.rows(few), table[few])
    assert np.array_equal(parts.rows(many), table[many])
    answers = np.sort(rng.choice(word_list.n_answers, size=114, replace=False))
    assert np.array_equal(parts.columns(answers), table[:, answers])
    assert np.array_equal(parts.columns(answers[:1]), table[:, answers[:1]])
    assert np.array_equal(parts.codes(int(many[0]), answers), table[many[0], answers])
    for size in (2315, 12_000):  # pairs: by feedback_code, then by the kernel (their rows)
        pairs = rng.choice(many, size=size), rng.choice(word_list.n_answers, size=size)
        assert np.array_equal(parts.codes(*pairs), table[pairs])
    if cache == "empty":
        assert list(tmp_path.iterdir()) == []
