"""The feedback rule: the numba table against the plain twin, repeated letters, encodings."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from naive import feedback as naive_feedback, letter_counts_ok
from solver.game.errors import FeedbackError
from solver.game.feedback import (
    code_to_text, feedback_code, feedback_table, parse_feedback, table_cache_path, words_to_letters,
)
from solver.game._feedback_kernel import feedback_table_kernel
from solver.game.wordlists import load_word_list


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
