"""Numba kernels of the Absurdle search (docs/algorithms.md §13): the largest class of each
guess, the two-guess full-split test, and the three-guess search. The adversary's rule (class
sizes, the kept class) is the game layer's kernel :mod:`solver.game._absurdle_kernel`.

Pure functions over numpy arrays: ``table`` is the feedback table (n_guesses, n_answers) of
uint8 or uint16 codes, ``state`` a sorted int32 array of answer indices, ``guesses`` an int32
array of guess indices (the order in which they are tried), ``priority`` an int32 array of
shape (n_patterns,) ranking the codes for a deterministic tie rule (the adversary keeps, among
the largest classes, the one with the lowest priority). ``adversarial`` (a bool) replaces the
priority by a branch over every largest class. No fastmath.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)
# the adversary's rule is the game layer's (re-exported for callers of this module)
from solver.game._absurdle_kernel import class_counts, kept_code  # noqa: F401

#: Counters written by the kernels (indices into the int64 ``counters`` array).
STATES, GUESSES = 0, 1


@njit(cache=True)
def largest_class_sizes(table, state, guesses, n_patterns, sizes):
    """``sizes[i]`` = the size of the largest class of ``state`` under ``guesses[i]``."""
    counts = np.zeros(n_patterns, dtype=np.int64)
    for i in range(guesses.shape[0]):
        sizes[i] = class_counts(table, guesses[i], state, counts)


@njit(cache=True)
def class_members(table, g, state, code, out):
    """Write the members of the class ``code`` of ``state`` under ``g`` into ``out`` (in
    ascending order); return how many."""
    n = 0
    for i in range(state.shape[0]):
        if table[g, state[i]] == code:
            out[n] = state[i]
            n += 1
    return n


@njit(cache=True)
def first_full_split(table, state, guesses, n_patterns, counters):
    """The first guess of ``guesses`` that splits ``state`` into singletons (every answer its
    own feedback), or -1. With ``|state| ≥ 2`` this is the two-guess test: a full split leaves
    the adversary one answer, found by the next guess (§13.3)."""
    n = state.shape[0]
    counters[STATES] += 1
    if n > n_patterns:
        return -1
    seen = np.zeros(n_patterns, dtype=np.int64)
    for i in range(guesses.shape[0]):
        g = guesses[i]
        counters[GUESSES] += 1
        stamp = i + 1
        split = True
        for j in range(n):
            code = table[g, state[j]]
            if seen[code] == stamp:
                split = False
                break
            seen[code] = stamp
        if split:
            return g
    return -1


@njit(cache=True)
def _order_by_size(sizes, guesses):
    """``guesses`` sorted by (largest class size, position in ``guesses``): a stable sort."""
    order = np.argsort(sizes, kind="mergesort")
    return guesses[order], sizes[order]


@njit(cache=True)
def win_in_three(table, state, guesses, priority, adversarial, n_patterns, split_bound, counters):
    """The first guess (in the order of the size of the class it leaves, then of ``guesses``)
    after which the adversary's kept class (every largest class, if ``adversarial``) is a
    singleton or splits fully, i.e. a win within three guesses from ``state`` (|state| ≥ 2);
    -1 if there is none. A guess whose largest class exceeds ``split_bound`` (no state that
    large splits fully) or equals ``|state|`` (no progress) is not tried (§13.3)."""
    n = state.shape[0]
    counters[STATES] += 1
    sizes = np.empty(guesses.shape[0], dtype=np.int64)
    largest_class_sizes(table, state, guesses, n_patterns, sizes)
    counters[GUESSES] += guesses.shape[0]
    ordered, ordered_sizes = _order_by_size(sizes, guesses)
    counts = np.zeros(n_patterns, dtype=np.int64)
    members = np.empty(n, dtype=np.int32)
    for i in range(ordered.shape[0]):
        m = ordered_sizes[i]
        if m > split_bound:
            break
        if m >= n:
            continue
        g = ordered[i]
        class_counts(table, g, state, counts)
        if m == 1:
            return g
        if not adversarial:
            code = kept_code(counts, m, priority)
            k = class_members(table, g, state, code, members)
            if first_full_split(table, members[:k], guesses, n_patterns, counters) >= 0:
                return g
        else:
            every = True
            for code in range(n_patterns):
                if counts[code] == m:
                    k = class_members(table, g, state, code, members)
                    if first_full_split(table, members[:k], guesses, n_patterns, counters) < 0:
                        every = False
                        break
            if every:
                return g
    return -1
