"""Slow, obviously correct twin for ultra-hard mode (docs/algorithms.md §10.5), for the tests
only.

The rule by its words: a guess is allowed after a history when, had it been the answer, every
earlier guess would have scored exactly the feedback it did (:func:`consistent`, with the
naive feedback of tests/naive.py). The brute force is the hard-mode one (tests/naive_hard.py)
with that rule: the allowed guesses are part of the state, no pruning at all.
"""

from __future__ import annotations

from naive import feedback
from naive_hard import HardBruteForce


def consistent(history, guess: str) -> bool:
    """Whether ultra-hard mode allows ``guess`` after ``history`` ((guess word, code) pairs)."""
    return all(feedback(previous, guess) == code for previous, code in history)


class UltraBruteForce(HardBruteForce):
    """F(S, G, d) of :class:`naive_hard.HardBruteForce`, G shrinking after every guess to the
    guesses consistent with its feedback."""

    def after(self, allowed_set, g, code):
        step = [(self.guesses[g], code)]
        return frozenset(h for h in allowed_set if consistent(step, self.guesses[h]))
