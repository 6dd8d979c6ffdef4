"""numba kernels: the feedback table, whole or in part (see :mod:`solver.game.feedback` for the
rule and encoding, docs/algorithms.md §1.2–1.3).

One loop fills a guess's row (:func:`_fill_row`) from the answers' letters laid out by
position and letter count (:func:`_answer_layout`); the whole table runs it over the guesses in
parallel (:func:`feedback_table_kernel`), a part (some guesses' rows, some answers' columns)
in one thread (:func:`feedback_part_kernel`), which loads without numba's thread pool.
"""

import numpy as np
from numba import njit, prange
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

# Rows of the whole table given to one of numba's threads at a time (each block allocates
# its scratch once).
ROW_BLOCK = 64


@njit(cache=True)
def _answer_layout(answer_letters):
    """The answers' letters as the row loop reads them: ``(positions int32[L, n_answers],
    counts int32[26, n_answers])``, ``positions[i, a]`` the letter (0..25) at position i of
    answer a and ``counts[x, a]`` how many times a holds letter x."""
    n_answers, length = answer_letters.shape
    positions = np.empty((length, n_answers), dtype=np.int32)
    counts = np.zeros((26, n_answers), dtype=np.int32)
    for a in range(n_answers):
        for i in range(length):
            positions[i, a] = answer_letters[a, i]
            counts[answer_letters[a, i], a] += 1
    return positions, counts


@njit(cache=True)
def _fill_row(guess_letters, g, positions, counts, row, code, left):
    """``row[a]`` = the feedback code of guess ``g`` against every answer ``a`` (the answers as
    :func:`_answer_layout` lays them out).

    The rule of docs/algorithms.md §1.2, one letter of the guess at a time over all answers
    (loops numba vectorises): a letter x at guess positions i1 < i2 < … is green at each
    i where the answer has x; the answer's copies of x left for yellows are its count of x
    less those greens, and the non-green positions take them left to right. A letter the
    guess holds once is so yellow exactly when the answer holds x and position i is not green.
    ``code`` and ``left`` are int32[≥ n_answers] scratch."""
    n_answers = row.shape[0]
    length = guess_letters.shape[1]
    code[:n_answers] = 0
    power = np.int32(1)
    for i in range(length):
        x = guess_letters[g, i]
        repeated = False
        earlier = False
        for j in range(length):
            if j != i and guess_letters[g, j] == x:
                repeated = True
                earlier = earlier or j < i
        if not repeated:
            at, copies = positions[i], counts[x]
            for a in range(n_answers):
                # green: 1 + 1 (the answer holds x); yellow: 0 + 1; gray: 0
                code[a] += power * (np.int32(at[a] == x) + np.int32(copies[a] > 0))
        elif not earlier:  # (each repeated letter once, from its first position)
            copies = counts[x]
            for a in range(n_answers):
                left[a] = copies[a]
            for j in range(i, length):
                if guess_letters[g, j] == x:
                    at = positions[j]
                    for a in range(n_answers):
                        left[a] -= np.int32(at[a] == x)
            weight = power
            for j in range(i, length):
                if guess_letters[g, j] == x:
                    at = positions[j]
                    for a in range(n_answers):
                        green = np.int32(at[a] == x)
                        yellow = (1 - green) & np.int32(left[a] > 0)
                        code[a] += weight * (2 * green + yellow)
                        left[a] -= yellow
                weight *= 3
        power *= 3
    for a in range(n_answers):
        row[a] = code[a]


@njit(cache=True, parallel=True)
def feedback_table_kernel(guess_letters, answer_letters, table):
    """Fill ``table[g, a]`` with the feedback code of guess g against answer a, blocks of
    :data:`ROW_BLOCK` guesses shared among numba's threads (the whole table: its first call
    starts the thread pool).

    ``guess_letters`` uint8[n_guesses, L] and ``answer_letters`` uint8[n_answers, L] hold
    letters as 0..25; ``table`` is uint8 or uint16 [n_guesses, n_answers] (codes < 3**L).
    Returns ``table``.
    """
    positions, counts = _answer_layout(answer_letters)
    n_guesses, n_answers = table.shape
    for block in prange((n_guesses + ROW_BLOCK - 1) // ROW_BLOCK):
        code = np.empty(n_answers, dtype=np.int32)
        left = np.empty(n_answers, dtype=np.int32)
        for g in range(block * ROW_BLOCK, min((block + 1) * ROW_BLOCK, n_guesses)):
            _fill_row(guess_letters, g, positions, counts, table[g], code, left)
    return table


@njit(cache=True)
def feedback_part_kernel(guess_letters, answer_letters, table):
    """:func:`feedback_table_kernel` in one thread, for a part of a table: the letters of some
    guesses (rows) against all answers, or of all guesses against some answers (columns).
    Same arguments and result."""
    positions, counts = _answer_layout(answer_letters)
    code = np.empty(table.shape[1], dtype=np.int32)
    left = np.empty(table.shape[1], dtype=np.int32)
    for g in range(guess_letters.shape[0]):
        _fill_row(guess_letters, g, positions, counts, table[g], code, left)
    return table
