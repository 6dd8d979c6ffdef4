"""numba kernels: the feedback table, whole or in part (see :mod:`solver.game.feedback` for the
rule and encoding, docs/algorithms.md §1.2–1.3).

One loop fills a block of the table (:func:`_fill_row`); the whole table runs it over the
guesses in parallel (:func:`feedback_table_kernel`), a part (some guesses' rows, some answers'
columns) in one thread (:func:`feedback_part_kernel`), which loads without numba's thread pool.
"""

import numpy as np
from numba import njit, prange
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)


@njit(cache=True)
def _fill_row(guess_letters, g, answer_letters, row, unmatched):
    """``row[a]`` = the feedback code of guess ``g`` against every answer ``a``.

    ``unmatched`` is int8[26], all zero on entry and on return (scratch kept by the caller)."""
    n_answers = answer_letters.shape[0]
    length = guess_letters.shape[1]
    for a in range(n_answers):
        code = 0
        green = 0  # bit i set when position i is green
        for i in range(length):
            if guess_letters[g, i] == answer_letters[a, i]:
                green |= 1 << i
            else:
                unmatched[answer_letters[a, i]] += 1
        power = 1
        for i in range(length):
            if green & (1 << i):
                code += 2 * power
            else:
                letter = guess_letters[g, i]
                if unmatched[letter] > 0:
                    unmatched[letter] -= 1
                    code += power
            power *= 3
        for i in range(length):
            unmatched[answer_letters[a, i]] = 0
        row[a] = code


@njit(cache=True, parallel=True)
def feedback_table_kernel(guess_letters, answer_letters, table):
    """Fill ``table[g, a]`` with the feedback code of guess g against answer a, the guesses
    shared among numba's threads (the whole table: its first call starts the thread pool).

    ``guess_letters`` uint8[n_guesses, L] and ``answer_letters`` uint8[n_answers, L] hold
    letters as 0..25; ``table`` is uint8 or uint16 [n_guesses, n_answers] (codes < 3**L).
    Returns ``table``.
    """
    for g in prange(guess_letters.shape[0]):
        _fill_row(guess_letters, g, answer_letters, table[g], np.zeros(26, dtype=np.int8))
    return table


@njit(cache=True)
def feedback_part_kernel(guess_letters, answer_letters, table):
    """:func:`feedback_table_kernel` in one thread, for a part of a table: the letters of some
    guesses (rows) against all answers, or of all guesses against some answers (columns).
    Same arguments and result."""
    unmatched = np.zeros(26, dtype=np.int8)
    for g in range(guess_letters.shape[0]):
        _fill_row(guess_letters, g, answer_letters, table[g], unmatched)
    return table
