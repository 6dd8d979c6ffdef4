"""Fixtures shared by the policy tests."""

from __future__ import annotations

import numpy as np
import pytest

from solver.feedback import feedback_table
from solver.wordlists import from_words

# Four -atch answers and four probes (hand-worked entropies in test_heuristics.py).
ATCH = ["hatch", "latch", "match", "patch"]
ATCH_GUESSES = ATCH + ["blimp", "chump", "lymph", "plumb"]


@pytest.fixture(scope="module")
def atch():
    """(word list, feedback table) of the four -atch answers."""
    word_list = from_words(ATCH, ATCH_GUESSES, "atch")
    return word_list, feedback_table(word_list, use_cache=False)


def state_of(word_list, words):
    """The state holding ``words``: sorted int32 answer indices."""
    return np.array(sorted(word_list.answer_index(w) for w in words), dtype=np.int32)
