"""numba kernels of the Absurdle adversary's rule (docs/algorithms.md §13.1): the class sizes of
a state under a guess, and the class a deterministic tie rule keeps.

Pure functions over numpy arrays: ``table`` is a feedback table (n_guesses, n_columns) of uint8
or uint16 codes, ``state`` a sorted int32 array of columns, ``priority`` an int32 array of shape
(n_patterns,) ranking the codes for a deterministic tie rule (the adversary keeps, among the
largest classes, the one of lowest priority). The exact search's kernels
(:mod:`solver.exact._absurdle_kernel`) call these. No fastmath.
"""

from __future__ import annotations

from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)


@njit(cache=True)
def class_counts(table, g, state, counts):
    """Fill ``counts`` (int64, n_patterns, zeroed here) with the class sizes of ``state``
    under guess ``g``; return the largest class size."""
    counts[:] = 0
    largest = 0
    for i in range(state.shape[0]):
        code = table[g, state[i]]
        counts[code] += 1
        if counts[code] > largest:
            largest = counts[code]
    return largest


@njit(cache=True)
def kept_code(counts, largest, priority):
    """The code of the class a deterministic adversary keeps: among the classes of size
    ``largest``, the one of lowest ``priority``."""
    best = -1
    for code in range(counts.shape[0]):
        if counts[code] == largest and (best < 0 or priority[code] < priority[best]):
            best = code
    return best
