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

Ultra-hard mode (docs/algorithms.md §10.5, the rule of Selby's ``-U``): every guess must be
consistent with all feedback so far, i.e. had it been the answer, each earlier guess g would
have scored exactly the feedback p it did. So a class (g, p) keeps the guesses h of its
parent's allowed list with ``feedback(g, h) == p`` (:func:`filter_consistent`). What the search
keys a state's allowed set by is the history itself: the sum of one key per (guess, feedback)
step (:func:`ultra_step_key`) plus the keys of the guesses allowed where the search started
(:func:`ultra_root_key`), keys drawn by the splitmix64 finaliser from fixed seeds (no table).
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)
from solver.game.kernel_cache import leaf_kernel

from solver.game._memo_kernel import state_hash

#: Positions a constraint row has room for (the longest word length supported).
MAX_LENGTH = 10
#: Entries of a constraint row: one per position, then one per letter a..z.
WIDTH = MAX_LENGTH + 26
#: Values an entry can take, as a key column: -1..25 (positions) or 0..10 (letter counts).
KEY_COLUMNS = 27
#: The hard mode's id, ``solver.game.spec.MODES.index("hard")`` (tests check the two agree).
HARD_MODE = 1
#: The ultra-hard mode's id, ``solver.game.spec.MODES.index("ultra")``.
ULTRA_MODE = 2
# Seeds of the ultra-hard keys: two 64-bit halves, for a step (guess, feedback) and for a
# guess allowed at the root; fixed, so the same history gives the same key run after run.
_STEP_SEED1 = 0x5EED_0001_D1B5_4A32
_STEP_SEED2 = 0x5EED_0002_9E37_79B9
_ROOT_SEED1 = 0x5EED_0003_7F4A_7C15
_ROOT_SEED2 = 0x5EED_0004_BF58_476D


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


@leaf_kernel
def _code_digits(code, length):
    """The feedback ``code``'s ``length`` digits (0 gray, 1 yellow, 2 green), two bits each,
    as a uint64: divisions by the constant 3 only (a division by a power of 3 held in a
    variable is a division instruction, and the constraint of every class a hard-mode search
    looks up reads them)."""
    digits = np.uint64(0)
    rest = np.uint64(code)
    for i in range(length):
        digits |= (rest % np.uint64(3)) << np.uint64(2 * i)
        rest //= np.uint64(3)
    return digits


@leaf_kernel
def _digit(digits, i):
    """Digit ``i`` of :func:`_code_digits` (an int64)."""
    return np.int64((digits >> np.uint64(2 * i)) & np.uint64(3))


@leaf_kernel
def _shown(guess_letters, digits, i):
    """How often the feedback (:func:`_code_digits`) marks the guess's letter ``i`` green or
    yellow, counting its copies from i on, when position i holds that letter's first copy;
    -1 when an earlier position holds it (its count is then already taken)."""
    letter = guess_letters[i]
    for j in range(i):
        if guess_letters[j] == letter:
            return -1
    shown = 0
    for j in range(i, guess_letters.shape[0]):
        if guess_letters[j] == letter and _digit(digits, j) >= 1:
            shown += 1
    return shown


@leaf_kernel
def tighten_constraint(constraint, guess_letters, code, out):
    """Write into ``out`` (int8[WIDTH]) the constraint after ``constraint`` and then the guess
    with letters ``guess_letters`` (uint8[L]) scored feedback ``code``."""
    length = guess_letters.shape[0]
    for j in range(out.shape[0]):  # (a loop: a slice copy needs numba's runtime, off here)
        out[j] = constraint[j]
    digits = _code_digits(code, length)
    for i in range(length):
        if _digit(digits, i) == 2:
            out[i] = guess_letters[i]
        shown = _shown(guess_letters, digits, i)
        if shown > out[MAX_LENGTH + guess_letters[i]]:
            out[MAX_LENGTH + guess_letters[i]] = shown


@leaf_kernel
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


# A word packed for the filter (:func:`pack_words`): word 0 holds its letters, 5 bits per
# position; words 1 to 3 its letter counts, 5 bits per letter (a..l, m..x, y..z), each count
# (0..MAX_LENGTH, 4 bits) below a guard bit that a comparison of all fields at once reads.
PACKED_WORDS = 4
_FIELD = 5
_FIELDS_PER_WORD = 12


def pack_words(letters):
    """uint64[n, :data:`PACKED_WORDS`]: the words with ``letters`` (uint8[n, L], L ≤
    :data:`MAX_LENGTH`) packed for :func:`filter_allowed_packed`. Plain numpy (Python callers:
    :func:`solver.exact.inputs.search_rules`, once per guess list)."""
    letters = np.asarray(letters, dtype=np.uint64)
    packed = np.zeros((letters.shape[0], PACKED_WORDS), dtype=np.uint64)
    for i in range(letters.shape[1]):
        packed[:, 0] |= letters[:, i] << np.uint64(_FIELD * i)
        word = 1 + letters[:, i] // _FIELDS_PER_WORD
        shift = (letters[:, i] % _FIELDS_PER_WORD) * np.uint64(_FIELD)
        for w in range(1, PACKED_WORDS):
            packed[:, w] += np.where(word == w, np.uint64(1) << shift, np.uint64(0))
    return packed


@leaf_kernel
def _packed_constraint(constraint, length):
    """The constraint in :func:`pack_words`' layout: (green mask, green letters, the least
    counts in words 1, 2 and 3, the guard bits of a counts word), all uint64."""
    green_mask = np.uint64(0)
    green_value = np.uint64(0)
    for i in range(length):
        if constraint[i] >= 0:
            green_mask |= np.uint64(31) << np.uint64(_FIELD * i)
            green_value |= np.uint64(constraint[i]) << np.uint64(_FIELD * i)
    guards = np.uint64(0)
    for f in range(_FIELDS_PER_WORD):
        guards |= np.uint64(16) << np.uint64(_FIELD * f)
    need1 = np.uint64(0)  # (three integers, not an array: the filter runs per class searched)
    need2 = np.uint64(0)
    need3 = np.uint64(0)
    for c in range(26):
        field = np.uint64(constraint[MAX_LENGTH + c]) << np.uint64(_FIELD * (c % _FIELDS_PER_WORD))
        word = 1 + c // _FIELDS_PER_WORD
        if word == 1:
            need1 |= field
        elif word == 2:
            need2 |= field
        else:
            need3 |= field
    return green_mask, green_value, need1, need2, need3, guards


@leaf_kernel
def filter_allowed_packed(constraint, packed, length, candidates, out):
    """Copy into ``out`` the guesses of ``candidates`` (int32 guess indices) that meet
    ``constraint`` (as :func:`allows` says), in their order; ``packed`` is the guesses' words
    packed by :func:`pack_words`, of ``length`` letters. A few word operations per guess: a
    count field with its guard bit set, less a needed count, keeps the guard bit exactly when
    the count is at least the need (both at most MAX_LENGTH < 16, so no field borrows from the
    next; docs/algorithms.md §10.1). Returns how many were kept."""
    green_mask, green_value, need1, need2, need3, guards = _packed_constraint(constraint, length)
    n_out = 0
    for j in range(candidates.shape[0]):
        h = candidates[j]
        # (branch-free: a guess is kept or not by arithmetic, and written either way)
        ok = (((packed[h, 0] & green_mask) ^ green_value)
              | ((((packed[h, 1] | guards) - need1) & guards) ^ guards)
              | ((((packed[h, 2] | guards) - need2) & guards) ^ guards)
              | ((((packed[h, 3] | guards) - need3) & guards) ^ guards)) == 0
        out[n_out] = h
        n_out += 1 if ok else 0
    return n_out


@leaf_kernel
def filter_allowed_packed_counted(constraint, packed, length, candidates, counts, out,
                                  out_counts):
    """:func:`filter_allowed_packed` that also carries each kept guess's class count: ``counts``
    is aligned with ``candidates`` and ``out_counts`` gets the kept guesses' (the search's class
    count bounds, docs/algorithms.md §3.7, hold on any subset whatever the mode). Returns how
    many were kept (order kept)."""
    n_out = filter_allowed_packed(constraint, packed, length, candidates, out)
    _carry_counts(candidates, counts, out, n_out, out_counts)
    return n_out


@leaf_kernel
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


@leaf_kernel
def tightened_hash(constraint, hash1, hash2, guess_letters, code, keys1, keys2):
    """(h1, h2) uint64: :func:`constraint_hash` of the constraint :func:`tighten_constraint`
    makes of ``constraint`` (whose hash is ``hash1``, ``hash2``) and the guess with letters
    ``guess_letters`` scored ``code``, without writing it: the keys of the entries it changes
    replace theirs in the sums (uint64 sums wrap, so a difference is exact). At most 2·L
    entries change, against the WIDTH a whole hash reads: a hard-mode search keys every class
    it looks up so."""
    length = guess_letters.shape[0]
    h1 = hash1
    h2 = hash2
    digits = _code_digits(code, length)
    for i in range(length):
        if _digit(digits, i) == 2 and constraint[i] != guess_letters[i]:
            old = np.int64(constraint[i]) + 1
            new = np.int64(guess_letters[i]) + 1
            h1 += keys1[i, new] - keys1[i, old]
            h2 += keys2[i, new] - keys2[i, old]
        shown = _shown(guess_letters, digits, i)
        row = MAX_LENGTH + np.int64(guess_letters[i])
        old = np.int64(constraint[row])
        if shown > old:
            h1 += keys1[row, shown] - keys1[row, old]
            h2 += keys2[row, shown] - keys2[row, old]
    return h1, h2


@leaf_kernel
def mode_state_key(S, zobrist1, zobrist2, mode, constraint, history1, history2, keys1, keys2):
    """(h1, h2) uint64: the memo key of the answer set ``S`` (int32 answer indices) in a play
    mode (docs/algorithms.md §5, §10.1, §10.5): the Zobrist sums of its answers
    (:func:`~solver.game._memo_kernel.state_hash` over ``zobrist1``/``zobrist2``), plus in hard
    mode the hash of its ``constraint`` (int8[WIDTH], :func:`constraint_hash` with ``keys1``,
    ``keys2``), plus in ultra-hard mode its history key ``(history1, history2)`` (uint64, the sum
    of :func:`ultra_root_key` and the :func:`ultra_step_key` of its history). Normal mode: the
    Zobrist sums alone (the constraint and history are not read)."""
    h1, h2 = state_hash(S, zobrist1, zobrist2)
    if mode == HARD_MODE:
        c1, c2 = constraint_hash(constraint, keys1, keys2)
        h1 += c1
        h2 += c2
    elif mode == ULTRA_MODE:
        h1 += history1
        h2 += history2
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


@njit(cache=True)
def pair_feedback(guess, word):
    """The standard feedback code (docs/algorithms.md §1.2–1.3) of the guess with letters
    ``guess`` against the word with letters ``word`` (uint8[L] each, 0..25) taken as the
    answer: the rule of :func:`solver.game._feedback_kernel.feedback_table_kernel`, for one
    pair of any two words (ultra-hard mode scores guesses against guesses)."""
    length = guess.shape[0]
    # bit i of ``used``: the word's letter i is matched (green, or the yellow of an earlier
    # guess letter); no array, as this runs once per word in every filter
    green = 0
    for i in range(length):
        if guess[i] == word[i]:
            green |= 1 << i
    used = green
    code = 0
    power = 1
    for i in range(length):
        if green & (1 << i):
            code += 2 * power
        else:
            letter = guess[i]
            for j in range(length):
                if not (used >> j) & 1 and word[j] == letter:
                    used |= 1 << j
                    code += power
                    break
        power *= 3
    return code


@njit(cache=True)
def filter_consistent(letters, g, code, candidates, out):
    """Ultra-hard mode's filter: copy into ``out`` the guesses h of ``candidates`` (int32 guess
    indices) with ``pair_feedback(letters[g], letters[h]) == code`` (had h been the answer, g
    would have scored ``code``), in their order; ``letters`` is uint8[n_guesses, L]. Returns
    how many."""
    row = letters[g]
    n_out = 0
    for j in range(candidates.shape[0]):
        h = candidates[j]
        if pair_feedback(row, letters[h]) == code:
            out[n_out] = h
            n_out += 1
    return n_out


@njit(cache=True)
def filter_consistent_counted(letters, g, code, candidates, counts, out, out_counts):
    """:func:`filter_consistent` that also carries each kept guess's class count, as
    :func:`filter_allowed_packed_counted` does. Returns how many were kept (order kept)."""
    n_out = filter_consistent(letters, g, code, candidates, out)
    _carry_counts(candidates, counts, out, n_out, out_counts)
    return n_out


@leaf_kernel
def _carry_counts(candidates, counts, out, n_out, out_counts):
    """Write into ``out_counts`` the class count (``counts``, aligned with ``candidates``) of
    each of the ``n_out`` guesses ``out`` kept from ``candidates`` in their order."""
    # the filters keep the order, so a merge walk recovers each kept guess's position
    j = 0
    for i in range(n_out):
        while candidates[j] != out[i]:
            j += 1
        out_counts[i] = counts[j]
        j += 1


@leaf_kernel
def _mix(x):
    """The splitmix64 finaliser (Steele, Lea & Flood, OOPSLA 2014) of uint64 ``x``."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@leaf_kernel
def ultra_step_key(g, code, n_patterns):
    """(k1, k2) uint64, both even: the keys of the step "guess g scored feedback ``code``"
    (``n_patterns`` = 3**L), whose sum over a history keys the guesses it allows in
    ultra-hard mode (even, as the hard-mode constraint keys: a state's sum keeps the parity of
    its answer keys)."""
    x = np.uint64(g) * np.uint64(n_patterns) + np.uint64(code)
    mask = ~np.uint64(1)
    return _mix(x ^ np.uint64(_STEP_SEED1)) & mask, _mix(x ^ np.uint64(_STEP_SEED2)) & mask


@njit(cache=True)
def ultra_root_key(candidates):
    """(k1, k2) uint64, even: the sum of one key per guess of ``candidates`` (int32 guess
    indices), keying the allowed set a search starts from in ultra-hard mode."""
    mask = ~np.uint64(1)
    k1 = np.uint64(0)
    k2 = np.uint64(0)
    for j in range(candidates.shape[0]):
        x = np.uint64(candidates[j])
        k1 += _mix(x ^ np.uint64(_ROOT_SEED1)) & mask
        k2 += _mix(x ^ np.uint64(_ROOT_SEED2)) & mask
    return k1, k2
