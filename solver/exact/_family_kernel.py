"""numba kernels of the letter family (docs/algorithms.md §9.2, §3.8): for a fixed table, how
many classes every guess makes on each of a family of letter-defined answer sets, and from
those an upper bound on every guess's class count on any set of answers (no guess makes more
classes on a subset). The opener proof's depth-one bound (:mod:`solver.exact._opener_kernel`)
and the search's scans of a large root class (:mod:`solver.exact._search_kernel`) read them.
Also the letter sets of a list of guesses (:func:`letter_sets`), by which the guesses a
hard-mode constraint allows are found a word of 64 guesses at a time (§10.1).
"""

import numpy as np
from numba import njit, types
from numba.extending import intrinsic, overload
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)
from solver.game.kernel_cache import leaf_kernel


def popcount(x):
    """Set bits of a uint64: compiled, LLVM's ``ctpop`` (one instruction where the CPU has
    it); this plain body runs when numba's JIT is off."""
    return np.uint64(int(x).bit_count())


@intrinsic
def _ctpop(typingctx, x):
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@overload(popcount)
def _popcount_compiled(x):
    if x == types.uint64:
        return lambda x: _ctpop(x)


@leaf_kernel
def bits_set(row):
    """The bits set in a row of uint64 words (int64): a guess's class count from its row of
    :func:`column_bits`."""
    k = np.int64(0)
    for w in range(row.shape[0]):
        k += np.int64(popcount(row[w]))
    return k


@njit(cache=True)
def new_bits(n_guesses, n_patterns):
    """Scratch for :func:`column_bits`: uint64[n_guesses, ⌈n_patterns / 64⌉]."""
    return np.zeros((n_guesses, (n_patterns + 63) // 64), dtype=np.uint64)


@leaf_kernel
def column_bits(PT, S, guesses, bits):
    """One bit per feedback that each guess shows on the answers ``S`` (int32 answer
    indices), from ``PT``, the feedback table's transpose (uint8 or uint16 [n_answers,
    n_guesses], a row of guess feedbacks per answer): row t of ``bits`` (uint64[≥ n,
    ⌈n_patterns / 64⌉], cleared first) gets the feedbacks of guess ``guesses[t]`` (int32, n of
    them), or of guess t when ``guesses`` is None (every guess, read without a gather). The
    guess's class count on S is then :func:`bits_set` of its row (docs/algorithms.md §4.2, §9.2).

    The rows of S's answers are read one after another: the guesses' feedbacks for one answer
    lie together, so the pass streams through memory and has no branch per answer, where a scan
    per guess row reads one byte per answer from rows far apart. Two answers' rows are read
    per pass over ``bits``, which halves the passes over it (a fifth to a third less time per
    code read, measured on classes of 5 to 150 answers)."""
    n = PT.shape[1] if guesses is None else guesses.shape[0]
    bits[:n, :] = 0
    m = S.shape[0]
    for i in range(0, m - 1, 2):
        first = PT[S[i]]
        second = PT[S[i + 1]]
        for t in range(n):
            g = t if guesses is None else guesses[t]
            _set_bit(bits, t, first[g])
            _set_bit(bits, t, second[g])
    if m % 2 == 1:
        last = PT[S[m - 1]]
        for t in range(n):
            _set_bit(bits, t, last[t if guesses is None else guesses[t]])


@leaf_kernel
def _set_bit(bits, t, f):
    """Set bit ``f`` (a feedback code) of row t of ``bits``."""
    bits[t, f >> 6] |= np.uint64(1) << np.uint64(f & 63)


#: The family of answer sets whose class counts :func:`new_bound_scratch` precomputes, by
#: index: 0 every answer; 1 + x the answers without letter x; 27 + x those with it;
#: ``FAMILY_POSITIONS`` + 26·j + x those with x at position j; then, 26·L further on, those with
#: x elsewhere than at j. Any class lies in several of them (docs/algorithms.md §9.2).
FAMILY_ABSENT = 1
FAMILY_PRESENT = 27
FAMILY_POSITIONS = 53


@njit(cache=True)
def family_size(length):
    """Number of answer sets in the letter family of words of ``length`` letters."""
    return FAMILY_POSITIONS + 2 * 26 * length


@njit(cache=True)
def family_member(mask, letters, s):
    """Whether an answer (``mask``: its letters as bits 0..25, ``letters`` uint8[L]) is in
    the family's set ``s`` (see :data:`FAMILY_POSITIONS`)."""
    length = letters.shape[0]
    if s == 0:
        return True
    if s < FAMILY_PRESENT:
        return (mask >> np.int64(s - FAMILY_ABSENT)) & 1 == 0
    if s < FAMILY_POSITIONS:
        return (mask >> np.int64(s - FAMILY_PRESENT)) & 1 == 1
    t = s - FAMILY_POSITIONS
    if t < 26 * length:
        return letters[t // 26] == t % 26
    t -= 26 * length
    x = t % 26
    return (mask >> np.int64(x)) & 1 == 1 and letters[t // 26] != x


@njit(cache=True)
def family_members(masks, answer_letters, s, members):
    """The answers (indices into ``masks`` int64[n] and ``answer_letters`` uint8[n, L]) in the
    letter family's set ``s``, written to ``members`` (int32[≥ n]) in index order; returns
    how many."""
    size = 0
    for a in range(masks.shape[0]):
        if family_member(masks[a], answer_letters[a], s):
            members[size] = a
            size += 1
    return size


@njit(cache=True)
def family_masks(answer_letters):
    """Each answer's letters as bits 0..25 (int64[n]) from ``answer_letters`` (uint8[n, L],
    letters 0..25): what :func:`family_member` reads."""
    n, length = answer_letters.shape
    masks = np.zeros(n, dtype=np.int64)
    for a in range(n):
        for j in range(length):
            masks[a] |= np.int64(1) << np.int64(answer_letters[a, j])
    return masks


@njit(cache=True)
def family_row(PT, answer_letters, masks, s, family, bits, members, first_known):
    """Row ``s`` of the letter family's counts (:func:`family_counts`): ``family[s, h]`` = the
    classes guess h makes on the set's answers, from ``PT``, the feedback table's transpose
    (uint8 or uint16 [n_answers, n_guesses]); 0 for an empty set. A set of every answer takes
    row 0's counts when ``first_known`` (row 0 filled). ``bits`` (:func:`new_bits`) and
    ``members`` (int32[≥ n_answers]) are scratch. Returns the set's size."""
    n = masks.shape[0]
    size = family_members(masks, answer_letters, s, members)
    if size == 0:
        family[s, :] = 0
    elif size == n and s > 0 and first_known:  # as set 0 (a letter no answer has, or all do)
        family[s, :] = family[0, :]
    else:
        column_bits(PT, members[:size], None, bits)
        row = family[s]
        for h in range(row.shape[0]):
            row[h] = bits_set(bits[h])
    return size


@njit(cache=True)
def family_counts(PT, answer_letters, n_patterns, bits):
    """``(family, masks, sizes)`` for the feedback table whose transpose is ``PT`` (uint8 or
    uint16 [n_answers, n_guesses], C order; any feedback rule): ``family``
    uint16[family_size(L), n_guesses], how many classes each guess makes on each set of the
    letter family (:data:`FAMILY_POSITIONS`), an upper bound on its classes on any subset of
    that set; ``masks`` int64[n_answers], each answer's letters as
    bits 0..25 (``answer_letters`` uint8[n_answers, L], letters 0..25); ``sizes``
    int64[family_size(L)], each set's number of answers (no guess makes more classes on it).
    ``bits`` is :func:`new_bits` scratch. About ``family_size(L) / 2`` passes over the table:
    half a second on ``legacy``."""
    n, n_guesses = PT.shape
    masks = family_masks(answer_letters)
    n_sets = family_size(answer_letters.shape[1])
    family = np.zeros((n_sets, n_guesses), dtype=np.uint16)
    sizes = np.zeros(n_sets, dtype=np.int64)
    members = np.empty(n, dtype=np.int32)
    for s in range(n_sets):
        sizes[s] = family_row(PT, answer_letters, masks, s, family, bits, members, True)
    return family, masks, sizes


@leaf_kernel
def superset_sets(cls, masks, letters, out, at):
    """The sets of the letter family other than set 0 (every answer) that contain the class
    ``cls`` (int32 answer indices into ``masks`` and ``letters``, as for
    :func:`superset_counts`): their indices written to ``out`` (int64[≥ family_size(L)]);
    returns how many. A set is listed when every answer of the class lacks its letter, has it,
    has it at its position, or has it elsewhere than at its position. ``at`` is int64[≥ L]
    scratch (the letters seen at each position)."""
    length = letters.shape[1]
    union = np.int64(0)
    common = np.int64((1 << 26) - 1)
    for j in range(length):
        at[j] = 0
    for i in range(cls.shape[0]):
        a = cls[i]
        union |= masks[a]
        common &= masks[a]
        for j in range(length):
            at[j] |= np.int64(1) << np.int64(letters[a, j])
    n = 0
    for x in range(26):
        bit = np.int64(1) << np.int64(x)
        if union & bit == 0:
            out[n] = FAMILY_ABSENT + x
            n += 1
        if common & bit != 0:
            out[n] = FAMILY_PRESENT + x
            n += 1
    for j in range(length):
        for x in range(26):
            bit = np.int64(1) << np.int64(x)
            if at[j] == bit:
                out[n] = FAMILY_POSITIONS + 26 * j + x
                n += 1
            elif common & bit != 0 and at[j] & bit == 0:
                out[n] = FAMILY_POSITIONS + 26 * (length + j) + x
                n += 1
    return n


@njit(cache=True)
def superset_counts(cls, family, masks, letters, out):
    """``out[h]`` = the least class count of guess h over the sets of the letter family that
    contain the class ``cls`` (every answer's set at least, :func:`superset_sets`): an upper
    bound on the classes h makes on ``cls``, since no guess makes more classes on a subset."""
    scratch = np.empty(family.shape[0] + letters.shape[1], dtype=np.int64)  # (sets, then at)
    sets = scratch[:family.shape[0]]
    n = superset_sets(cls, masks, letters, sets, scratch[family.shape[0]:])
    out[:] = family[0]
    for i in range(n):
        _min_into(out, family[sets[i]])


@njit(cache=True)
def _min_into(out, row):
    """out = min(out, row), element-wise (written without a branch, so that it vectorises: 2.2
    instead of 7.3 µs a row of 12,972 guesses)."""
    for h in range(out.shape[0]):
        out[h] = min(out[h], row[h])


#: The most answers a state may have for :func:`minority_masks` (one bit per answer).
MINORITY_MOST = 64


@njit(cache=True)
def minority_masks(S, guess_of_answer, letters, status, tally, masks):
    """For a state of at most :data:`MINORITY_MOST` answers (``S[i]`` indexes the rows of
    ``answer_letters``, uint8[·, L], letters 0..25, L ≤ 8): ``masks[x]`` (uint64[26]) gets bit
    i for each answer ``S[i]`` whose positions of letter x (an L-bit set, empty when the word
    lacks x) differ from the positions most of S's answers have (docs/algorithms.md §3.9).
    ``status`` (uint8[26, ≥ n]) and ``tally`` (int32[2**L]) are scratch; ``tally`` is left
    zero."""
    n = S.shape[0]
    length = letters.shape[1]
    status[:, :n] = 0
    union = np.int64(0)
    for i in range(n):
        for j in range(length):
            x = letters[guess_of_answer[S[i]], j]
            status[x, i] |= np.uint8(1 << j)
            union |= np.int64(1) << np.int64(x)
    masks[:] = 0
    for x in range(26):
        if (union >> np.int64(x)) & 1 == 0:
            continue
        most = 0
        for i in range(n):
            t = status[x, i]
            tally[t] += 1
            most = max(most, tally[t])
        common = status[x, 0]  # the first placement, in S's order, that most answers share
        for i in range(n):
            if tally[status[x, i]] == most:
                common = status[x, i]
                break
        mask = np.uint64(0)
        for i in range(n):
            tally[status[x, i]] = 0
            if status[x, i] != common:
                mask |= np.uint64(1) << np.uint64(i)
        masks[x] = mask


@njit(cache=True)
def letter_bound(masks, guess_letters, n):
    """An upper bound on the classes a guess (``guess_letters``, uint8[L]) makes on a state of
    n answers whose :func:`minority_masks` are ``masks``: the answers outside every mask of
    the guess's letters place each of its letters alike, so they share one feedback; each
    other answer is at most one more class (docs/algorithms.md §3.9)."""
    union = np.uint64(0)
    for j in range(guess_letters.shape[0]):
        union |= masks[guess_letters[j]]
    k = np.int64(popcount(union))
    return k + 1 if k < n else k



@njit(cache=True)
def letter_sets(letters, guesses):
    """uint64[2·26·L, ⌈n/64⌉]: bit j of a row for the j-th of ``guesses`` (int32 guess indices,
    n of them; ``letters`` uint8[n_guesses, L], letters 0..25) when it has letter x at position
    i (row 26·i + x), or at least c copies of letter x (row 26·L + L·x + c − 1, c = 1..L): the
    rows :func:`filter_allowed_sets` reads for a hard-mode constraint (docs/algorithms.md
    §10.1)."""
    length = letters.shape[1]
    n = guesses.shape[0]
    sets = np.zeros((2 * 26 * length, (n + 63) >> 6), dtype=np.uint64)
    seen = np.zeros(26, dtype=np.int64)
    for j in range(n):
        h = guesses[j]
        word = j >> 6
        bit = np.uint64(1) << np.uint64(j & 63)
        for i in range(length):
            x = np.int64(letters[h, i])
            sets[26 * i + x, word] |= bit
            sets[26 * length + length * x + seen[x], word] |= bit
            seen[x] += 1
        for i in range(length):
            seen[letters[h, i]] = 0
    return sets


@leaf_kernel
def filter_allowed_sets(constraint, max_length, sets, guesses, counts, out, out_counts, scratch):
    """The twin of :func:`solver.game._hard_mode_kernel.filter_allowed_packed_counted` over the
    :func:`letter_sets` of ``guesses``: copy into ``out`` the guesses that meet ``constraint``
    (int8[WIDTH]: a letter or -1 for each of ``max_length`` positions, then a least count per
    letter), in their order, and into ``out_counts`` their entries of ``counts`` (aligned with
    ``guesses``; empty: none carried). The rows of the constraint's greens and least counts are
    ANDed a word at a time (``scratch`` uint64[≥ ⌈n/64⌉]), then the kept guesses read off the
    set bits. Returns how many were kept."""
    length = sets.shape[0] // 52
    n = guesses.shape[0]
    words = (n + 63) >> 6
    kept = scratch[:words]
    kept[:] = ~np.uint64(0)
    if n & 63:
        kept[words - 1] = (np.uint64(1) << np.uint64(n & 63)) - np.uint64(1)
    for i in range(length):
        x = constraint[i]
        if x >= 0:
            row = sets[26 * i + x]
            for w in range(words):
                kept[w] &= row[w]
    for x in range(26):
        need = np.int64(constraint[max_length + x])
        if need > length:
            return 0
        if need > 0:
            row = sets[26 * length + length * x + need - 1]
            for w in range(words):
                kept[w] &= row[w]
    carry = counts.shape[0] == n
    n_out = 0
    for w in range(words):
        b = kept[w]
        while b != 0:
            j = 64 * w + np.int64(popcount((b & (~b + np.uint64(1))) - np.uint64(1)))
            out[n_out] = guesses[j]
            if carry:
                out_counts[n_out] = counts[j]
            n_out += 1
            b &= b - np.uint64(1)
    return n_out
