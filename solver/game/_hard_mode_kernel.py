"""numba kernels: the hard-mode rule (docs/algorithms.md §10).

Hard mode (the NYT rule): after a guess g scored feedback p, every later guess must keep each
green letter of p in its position, and contain each letter at least as many times as that
letter was shown green or yellow in p. Gray letters may be reused, yellow letters may stay
where they were. The rules of several feedbacks add up, so what a history allows is one
*constraint*: an int8 row of :data:`WIDTH` entries,

- ``constraint[i]`` for position i < :data:`MAX_LENGTH`: the letter (0..25) position i must
  hold, or -1;
- ``constraint[MAX_LENGTH + c]``: the least number of letter c (0 = a) a guess must contain.

Words are rows of letters 0..25 (:func:`solver.game.feedback.words_to_letters`); feedback codes
are ``Σ c_i · 3**i`` (§1.3). A constraint's hash (for the solver's memo key, §5) is the sum of
one random key per entry that is not "no constraint", so the empty constraint hashes to 0.
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

#: Positions a constraint row has room for (the longest word length supported).
MAX_LENGTH = 10
#: Entries of a constraint row: one per position, then one per letter a..z.
WIDTH = MAX_LENGTH + 26
#: Values an entry can take, as a key column: -1..25 (positions) or 0..10 (letter counts).
KEY_COLUMNS = 27
#: The hard mode's id, ``solver.game.spec.MODES.index("hard")`` (tests check the two agree).
HARD_MODE = 1


def no_constraint():
    """The constraint of an empty history: int8[WIDTH], no green, no letter required.

    Plain numpy, for Python callers: loading the compiled twin :func:`empty_constraint` (for
    kernels) would cost a start-up tens of milliseconds for three lines (the assistant's cold
    start, issue 11)."""
    constraint = np.zeros(WIDTH, dtype=np.int8)
    constraint[:MAX_LENGTH] = -1
    return constraint


#: :func:`no_constraint` compiled, for kernels.
empty_constraint = njit(cache=True)(no_constraint)


@njit(cache=True)
def tighten_constraint(constraint, guess_letters, code, out):
    """Write into ``out`` (int8[WIDTH]) the constraint after ``constraint`` and then the guess
    with letters ``guess_letters`` (uint8[L]) scored feedback ``code``; returns ``out``."""
    length = guess_letters.shape[0]
    out[:] = constraint
    power = 1
    for i in range(length):
        if (code // power) % 3 == 2:
            out[i] = guess_letters[i]
        power *= 3
    power_i = 1
    for i in range(length):
        letter = guess_letters[i]
        first = True
        for j in range(i):
            if guess_letters[j] == letter:
                first = False
                break
        if first:
            shown = 0
            power_j = power_i
            for j in range(i, length):
                if guess_letters[j] == letter and (code // power_j) % 3 >= 1:
                    shown += 1
                power_j *= 3
            if shown > out[MAX_LENGTH + letter]:
                out[MAX_LENGTH + letter] = shown
        power_i *= 3
    return out


@njit(cache=True)
def allows(constraint, letters):
    """True if a word with ``letters`` (uint8[L]) meets ``constraint``."""
    length = letters.shape[0]
    for i in range(length):
        if constraint[i] >= 0 and letters[i] != constraint[i]:
            return False
    for c in range(26):
        need = constraint[MAX_LENGTH + c]
        if need > 0:
            have = 0
            for i in range(length):
                if letters[i] == c:
                    have += 1
            if have < need:
                return False
    return True


@njit(cache=True)
def filter_allowed(constraint, letters, candidates, out):
    """Copy into ``out`` the guesses of ``candidates`` (int32 guess indices) that meet
    ``constraint``, in their order; ``letters`` is uint8[n_guesses, L]. Returns how many."""
    length = letters.shape[1]
    # the constraint's entries, gathered once: greens (position, letter), counts (letter, n)
    green_pos = np.empty(length, dtype=np.int64)
    n_green = 0
    for i in range(length):
        if constraint[i] >= 0:
            green_pos[n_green] = i
            n_green += 1
    need_letter = np.empty(26, dtype=np.int64)
    need_count = np.empty(26, dtype=np.int64)
    n_need = 0
    for c in range(26):
        if constraint[MAX_LENGTH + c] > 0:
            need_letter[n_need] = c
            need_count[n_need] = constraint[MAX_LENGTH + c]
            n_need += 1
    n_out = 0
    for j in range(candidates.shape[0]):
        h = candidates[j]
        row = letters[h]
        ok = True
        for a in range(n_green):
            if row[green_pos[a]] != constraint[green_pos[a]]:
                ok = False
                break
        if ok:
            for b in range(n_need):
                have = 0
                for i in range(length):
                    if row[i] == need_letter[b]:
                        have += 1
                if have < need_count[b]:
                    ok = False
                    break
        if ok:
            out[n_out] = h
            n_out += 1
    return n_out


@njit(cache=True)
def constraint_hash(constraint, keys1, keys2):
    """(h1, h2) uint64: the sums of ``keys1``/``keys2`` (uint64[WIDTH, KEY_COLUMNS], column 0
    zero) over the constraint's entries; 0 for the empty constraint."""
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for j in range(WIDTH):
        v = np.int64(constraint[j])
        column = v + 1 if j < MAX_LENGTH else v
        h1 += keys1[j, column]
        h2 += keys2[j, column]
    return h1, h2


@njit(cache=True)
def history_constraint(letters, guesses, codes):
    """The constraint of a history: guesses int64[t] (guess indices), codes int64[t]."""
    constraint = empty_constraint()
    scratch = np.empty(WIDTH, dtype=np.int8)
    for t in range(guesses.shape[0]):
        tighten_constraint(constraint, letters[guesses[t]], codes[t], scratch)
        constraint[:] = scratch
    return constraint
