"""Slow, obviously correct twin of Yellow Wordle's feedback (docs/algorithms.md §10.4), for
the tests only.

The rule by its words: score the guess as in the standard game (:func:`naive.feedback`), then
show every green as yellow, unless every letter is green (the guess is the answer and the game
is won). The brute force of the normal game (:class:`naive.BruteForce`) then runs unchanged on
this table: the recursion does not care which rule made the classes.
"""

from __future__ import annotations

from naive import feedback


def yellow_feedback(guess: str, answer: str) -> int:
    """The Yellow Wordle code of ``guess`` against ``answer``: digits 0 (gray) and 1 (shown),
    or all-green 3**L − 1 when ``guess == answer``."""
    if guess == answer:
        return 3 ** len(guess) - 1
    code = feedback(guess, answer)
    digits = [(code // 3**i) % 3 for i in range(len(guess))]
    return sum((1 if d else 0) * 3**i for i, d in enumerate(digits))


def yellow_table(guesses, answers) -> list[list[int]]:
    """The Yellow Wordle table as nested lists, ``table[g][a]``."""
    return [[yellow_feedback(g, a) for a in answers] for g in guesses]
