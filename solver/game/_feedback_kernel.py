"""numba kernel: the feedback table (see :mod:`solver.game.feedback` for the rule and encoding,
docs/algorithms.md §1.2–1.3)."""

import numpy as np
from numba import njit, prange
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)


@njit(cache=True, parallel=True)
def feedback_table_kernel(guess_letters, answer_letters, table):
    """Fill ``table[g, a]`` with the feedback code of guess g against answer a.

    ``guess_letters`` uint8[n_guesses, L] and ``answer_letters`` uint8[n_answers, L] hold
    letters as 0..25; ``table`` is uint8 or uint16 [n_guesses, n_answers] (codes < 3**L).
    Returns ``table``.
    """
    n_guesses = guess_letters.shape[0]
    n_answers = answer_letters.shape[0]
    length = guess_letters.shape[1]
    for g in prange(n_guesses):
        unmatched = np.zeros(26, dtype=np.int8)
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
            table[g, a] = code
    return table
