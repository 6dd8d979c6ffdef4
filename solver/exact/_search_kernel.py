"""numba kernels of the exact solver: the time-indexed Bellman recursion over answer sets.

V(S, d) = 1 if |S| = 1; ∞ if |S| > 1 and d = 1; else min_g [ |S| + Σ_{C ≠ all-green} V(C, d−1) ]
for the total objective (Bertsimas & Paskov, Operations Research 2024, §3; docs/algorithms.md
§2.1), and min_g max_C [1 + V(C, d−1)] for the worst-case objective (§2.2). The recursion is
written once; what depends on the objective comes from :mod:`solver.exact._objective_kernel`,
and ``objective`` is the objective's id, passed down the recursion (§2.4).

A state ``S`` is a sorted int32 array of answer indices; ``d`` is the number of guesses left.
``_search(S, d, beta, ...)`` returns ``(value, guess)``: the exact optimum and the first
optimal guess in the candidate order when the optimum is < ``beta``; otherwise a lower bound
≥ ``beta`` and guess -1 (a fail-soft cut-off, §4.1). All values are exact integers; ``INF``
marks an unwinnable state. The pattern count is the workspace's width (3**L, §1.3), so one
kernel serves every word length.

Pruning and ordering (docs/algorithms.md §3–§6; the figures below are the total objective's,
the worst-case counterparts are in :mod:`solver.exact._objective_kernel`):

- a guess with k classes (all-green included) costs at least ``3n − k − [g ∈ S]``;
- a state or class of m answers, when no guess makes more than b non-green classes, costs at
  least the level bound ``tree_floor(m, b, d)`` (§3.7; ∞ if d levels cannot hold m answers),
  for b counted over the whole table (it matters for m > b + 1, i.e. under Yellow Wordle's 32
  classes, §10.4) and, for the classes of a state S, over S: no guess makes more classes on a
  subset of S than on S, so a class larger than S's most non-green classes + 1 has no full
  split (no answer-splitter scan) and costs at least ``tree_floor(m, b_S, d − 1)`` (a poor
  opener's 1,352-answer class has b_S = 139);
- candidates are tried in the order (that bound, Σ|C|², guess index) and the loop stops at
  the first whose bound reaches the best total so far; this order is also the tie-break rule:
  **the chosen guess is the first optimal guess in that order**, whatever the memo holds;
- exact small cases: an answer that splits S into singletons (2n − 1); with two guesses left
  only a full split wins (2n − 1 for an answer, 2n for another word); a guess whose classes
  all have size ≤ 2 costs exactly its bound;
- a guess's classes are first bounded (memo; else the class's own answers are tried as
  splitters, m² work: 2|C| − 1 exactly if one splits it, else at least 2|C|; then, in a large
  state's search, by the most classes the letter family allows any guess on them), then solved
  largest first, each with the cut-off that would still let the guess beat the best so far;
  a state none of whose answers splits it returns at once when the cut-off is ≤ 2n;
- the bounding scan of a guess gives up as soon as it cannot reach the k ≥ 3n − β classes
  that its bound would need to come under the cut-off β, and a guess that made fewer than
  that many classes on the parent state (a superset) is not scanned at all: each state hands
  its subsets an upper bound on every useful guess's class count (``kub``); the same counts
  skip answers that cannot split a class in the answer-splitter scan, and a stored lower
  bound above 2n − 1 skips a state's own answer-splitter scan;
- guesses that do not split S are dropped for S and all its subsets, and non-answer guesses
  that split S exactly like a lower-indexed one are dropped for the subsets (they split every
  subset alike, so they can never come first in the order), found when a class of S is first
  searched (many states never search one);
- a memo keyed by (|S|, objective, mode, d, 128-bit Zobrist hash of S) holds exact values
  with their guess, and lower bounds learned from cut-offs (§5). Its capacity is fixed (memory cap); a full probe
  window overwrites its home slot. Two different states collide only if both 64-bit halves
  of their hash sums agree (probability about m²/2¹²⁷ for m stored states: the keys are odd,
  so each half has 63 random bits).
"""

from collections import namedtuple

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)
from solver.game.kernel_cache import leaf_kernel

from solver.exact._objective_kernel import (INF, TOTAL, WEIGHTED, class_base, class_cutoff,
                                            guess_bound, min_classes, no_answer_split,
                                            order_term, pair_value, split_value, state_weight,
                                            tighten, weighted_floor, weighted_pair)
from solver.game._memo_kernel import memo_get as _memo_get
from solver.game._memo_kernel import memo_meta
from solver.game._memo_kernel import memo_store as _memo_store
from solver.game._hard_mode_kernel import (HARD_MODE, MAX_LENGTH, ULTRA_MODE, WIDTH, allows,
                                            filter_allowed_packed,
                                            filter_allowed_packed_counted, filter_consistent,
                                            filter_consistent_counted, mode_state_key,
                                            constraint_hash, tighten_constraint, tightened_hash,
                                            ultra_root_key, ultra_step_key)
from solver.game._memo_kernel import memo_arrays, new_memo, state_hash
from solver.game._partition_kernel import class_count
from solver.game._partition_kernel import partition as _partition
from solver.exact._family_kernel import (MINORITY_MOST, letter_bound, minority_masks,
                                         bits_set, column_bits, family_counts,
                                         filter_allowed_sets, letter_sets, new_bits,
                                         superset_counts, superset_sets)

# Candidate sort key: bound << 45 | order term (Σ|C|²-based, < 2**28) << 17 | guess index, so
# ≤ 2**17 guesses and Σ|C|² < 2**27, i.e. ≤ 11585 answers (the API checks both).
KEY_BOUND_SHIFT = 45
KEY_SUMSQ_SHIFT = 17
KEY_GUESS_MASK = (1 << 17) - 1
MAX_GUESSES = 1 << 17
MAX_ANSWERS = 11585
#: A shared root's key before its share has found a guess (§4.5): above any real key.
NO_SHARED_KEY = (1 << 62) - 1
SHARED_VALUE_SHIFT = 17
SHARED_POSITION_MASK = (1 << 17) - 1
# Deduplicating guesses costs a second scan of S; it pays only where the subsets are searched
# deeply (their subsets with two guesses left need no more than one scan). From 5 guesses left;
# from 4 when the table has few feedback codes (b ≤ DEDUPE_FEW_CODES), as under Yellow Wordle's
# rule (32 codes), whose guesses split alike far more often (docs/algorithms.md §6, §10.4). Under
# the standard rule (238 codes) the scan at 4 guesses left did not pay where measured (a poor
# opener's 488-answer class read 570 million table entries for it).
# The column counts of a state that may have a guess splitting it into singletons are taken
# this many guesses at a time, so that the count stops soon after the first such guess; only
# for a state of at most FULL_SPLIT_MOST answers (counting by blocks is slower, and a state
# with four or more guesses left, of more answers, had one in 9 of 9,094 cases on PIZZA's
# class against 4,014 of 8,985 with three left, of 9 answers on average).
FULL_SPLIT_BLOCK = 512
FULL_SPLIT_MOST = 64
DEDUPE_MIN_DEPTH = 5
DEDUPE_MIN_DEPTH_FEW_CODES = 4
DEDUPE_FEW_CODES = 64
# The letter family's class counts (docs/algorithms.md §3.8) are built for a root state of at
# least FAMILY_ROOT_MIN answers (about a fifth of a second for 500 answers), and then read by
# every state of at least FAMILY_MIN answers under it, before its scan of the candidates.
FAMILY_ROOT_MIN = 300
FAMILY_MIN = 24
# A class searched in hard or ultra-hard mode takes its allowed guesses with their class counts
# on the state (upper bounds on theirs on the class, §10.1) when it has at least this many
# answers: every class (tests set it past any class to compare the search without them).
CARRIED_COUNTS_MIN = 0
# The family pass (docs/algorithms.md §4.3) bounds the classes of a state with at least this
# many guesses left (its classes have three or more), when the letter family is on.
FAMILY_PASS_MIN_DEPTH = 4
# A hard-mode state whose deep pass has filtered this many classes' allowed guesses, from a
# list of at least LETTER_SETS_MIN candidates, builds the list's letter sets and filters the
# rest by them (docs/algorithms.md §10.1): a root of hundreds of answers filters thousands of
# classes, most states a few (building the sets costs about as much as ten filters).
LETTER_SETS_AFTER = 16
LETTER_SETS_MIN = 2048


#: The search's scratch memory (:func:`workspace_arrays`), so that the recursion allocates
#: nothing. Per depth d (row d of a 2-D array serves the state with d guesses left):
#: ``counts`` int32[·, 3**L] class counts; ``keys`` int64[·, n_guesses] candidate sort keys;
#: ``useful`` int32 the guesses useful for the subsets, ``kub`` int32 their class counts (upper
#: bounds for the subsets, §4.2); ``members`` int32[·, n_answers] and ``starts``
#: int32[·, 3**L + 1] a partition's classes; ``bounds`` int64 the classes' bounds; ``present``
#: int32 the patterns present; ``signatures`` uint64[·, n_guesses] partition signatures (§6);
#: ``open_classes`` int32 the classes left to search, largest first; ``allowed`` int32 a
#: class's allowed guesses, ``allowed_kub`` int32 their class counts on the state (when known,
#: §3.7) and ``constraints`` int8[·, WIDTH] the state's constraint (hard mode, §10.1);
#: ``kval`` int32[·, n_guesses] the class counts by guess index and ``stamp`` int64 the scan
#: that wrote each. Shared: ``branching`` int64[1] the most non-green classes
#: any guess makes (§3.7); ``serial`` int64[1] scans so far (the stamps); the letter family
#: (§3.8): ``family`` uint16[·, n_guesses] (none: off), ``answer_masks`` int64[n_answers],
#: ``answer_letters`` uint8[n_answers, L], ``family_sizes`` int64[·] each set's answers,
#: ``upper`` uint16[n_guesses] a state's class-count
#: bounds (the family's own type: the row minima of :func:`superset_counts` vectorise twice as
#: wide as in int32), ``family_thresholds`` int64[5] (root size, state size; the most answers of a state
#: whose letters bound the counts, §3.9; the fewest answers of a hard- or ultra-hard-mode class
#: whose allowed guesses keep their class counts, §10.1; the fewest guesses left of a state
#: whose classes the family pass bounds, §4.3); the column counts (§4.2):
#: ``columns`` the table's transpose (none: off), ``column_bits`` uint64[n_guesses, ⌈3**L/64⌉],
#: ``column_counts`` int32[4, n_guesses] (candidate, guess, classes, all-green bit); ultra-hard
#: mode (§10.5): ``history_keys`` uint64[·, 2] the state's history key; a root shared by
#: several processes (§4.5): ``share`` int64[3] (this share's index, the number of shares
#: (1: not shared), the root's depth) and ``shared_keys`` int64[2 · shares + 1] each share's
#: best (value << SHARED_VALUE_SHIFT | position in the candidate order), then the next position
#: to claim (:func:`_claim`), then each share's last claimed position, in memory the shares map
#: (:func:`reset_shared_keys`).
#: :func:`shared_best`'s answer: ``value`` (int or None), ``position`` (int or None),
#: ``unsettled`` (int).
SharedBest = namedtuple("SharedBest", ["value", "position", "unsettled"])
SearchWorkspace = namedtuple("SearchWorkspace", [
    "counts", "keys", "useful", "members", "starts", "bounds", "present", "signatures",
    "open_classes", "allowed", "allowed_kub", "constraints", "branching", "kub", "kval", "stamp", "serial",
    "family", "answer_masks", "answer_letters", "family_sizes", "upper", "family_thresholds", "columns",
    "column_bits", "column_counts", "history_keys", "share", "shared_keys"])


#: The read-only inputs every step of the search reads: the feedback table ``P`` (uint8 or
#: uint16 [n_guesses, n_answers]), ``guess_of_answer`` (int32[n_answers], each answer's guess
#: index) and the answers' Zobrist keys ``zobrist1``, ``zobrist2`` (uint64[n_answers], §5).
Tables = namedtuple("Tables", ["P", "guess_of_answer", "zobrist1", "zobrist2"])
#: The search's memory: its :class:`~solver.game._memo_kernel.Memo`, its
#: :class:`SearchWorkspace` and its ``stats`` (int64[4]: states searched, memo hits, guesses
#: expanded, scans the letter family or the letters' positions spared, §3.8, §3.9, and guesses
#: the family pass refuted before their deep pass, §4.3), as :func:`new_search` makes them.
Search = namedtuple("Search", ["memo", "ws", "stats"])
#: A decision tree being written in preorder (:mod:`policy_tree.schema`): ``node_guess``,
#: ``edge_start``, ``edge_feedback``, ``edge_child`` and ``counters`` (int64[2]: nodes and
#: edges written so far).
TreeArrays = namedtuple("TreeArrays", ["node_guess", "edge_start", "edge_feedback", "edge_child",
                                       "counters"])


def workspace_arrays(depth, n_guesses, n_answers, n_patterns):
    """A :class:`SearchWorkspace` for states of up to ``depth`` guesses left; ``n_patterns`` =
    3**L. Plain numpy for Python callers; :func:`new_workspace` is its twin for kernels."""
    return SearchWorkspace(
        np.zeros((depth + 1, n_patterns), dtype=np.int32),  # counts
        np.zeros((depth + 1, n_guesses), dtype=np.int64),  # keys
        np.zeros((depth + 1, n_guesses), dtype=np.int32),  # useful
        np.zeros((depth + 1, n_answers), dtype=np.int32),  # members
        np.zeros((depth + 1, n_patterns + 1), dtype=np.int32),  # starts
        np.zeros((depth + 1, n_patterns), dtype=np.int64),  # bounds
        np.zeros((depth + 1, n_patterns), dtype=np.int32),  # present
        np.zeros((depth + 1, n_guesses), dtype=np.uint64),  # signatures
        np.zeros((depth + 1, n_patterns), dtype=np.int32),  # open_classes
        np.zeros((depth + 1, n_guesses), dtype=np.int32),  # allowed
        np.zeros((depth + 1, n_guesses), dtype=np.int32),  # allowed_kub
        np.zeros((depth + 1, WIDTH), dtype=np.int8),  # constraints
        np.full(1, n_patterns - 1, dtype=np.int64),  # branching
        np.zeros((depth + 1, n_guesses), dtype=np.int32),  # kub
        np.zeros((depth + 1, n_guesses), dtype=np.int32),  # kval
        np.full((depth + 1, n_guesses), -1, dtype=np.int64),  # stamp
        np.zeros(1, dtype=np.int64),  # serial
        np.zeros((0, n_guesses), dtype=np.uint16),  # family (none: off)
        np.zeros(n_answers, dtype=np.int64),  # answer_masks
        np.zeros((n_answers, 1), dtype=np.uint8),  # answer_letters
        np.zeros(0, dtype=np.int64),  # family_sizes
        np.zeros(n_guesses, dtype=np.uint16),  # upper
        np.array([FAMILY_ROOT_MIN, FAMILY_MIN, MINORITY_MOST, CARRIED_COUNTS_MIN,
                  FAMILY_PASS_MIN_DEPTH], dtype=np.int64),  # family_thresholds
        np.zeros((0, n_guesses), dtype=np.uint8),  # columns (none: off; set by with_columns)
        np.zeros((n_guesses, (n_patterns + 63) // 64), dtype=np.uint64),  # column_bits
        np.zeros((4, n_guesses), dtype=np.int32),  # column_counts
        np.zeros((depth + 1, 2), dtype=np.uint64),  # history_keys
        np.array([0, 1, -1], dtype=np.int64),  # share (not shared)
        np.full(1, NO_SHARED_KEY, dtype=np.int64),  # shared_keys
    )


#: :func:`workspace_arrays` compiled, for kernels.
new_workspace = njit(cache=True)(workspace_arrays)


@njit(cache=True)
def branching(P, all_green):
    """The most non-green classes any guess can make on any subset of P's answers: the number
    of distinct codes other than ``all_green`` in the table (32 at most under Yellow Wordle's
    rule, docs/algorithms.md §10.4)."""
    seen = np.zeros(all_green + 1, dtype=np.bool_)
    for g in range(P.shape[0]):
        for a in range(P.shape[1]):
            seen[P[g, a]] = True
    k = np.int64(0)
    for c in range(all_green):
        if seen[c]:
            k += 1
    return max(k, np.int64(1))


@njit(cache=True)
def tree_floor(m, b, d):
    """A lower bound on the total of m ≥ 1 answers with d guesses left when a guess makes at
    most b non-green classes (§3.7): the i-th guess of a game is played at ≤ b**(i−1) nodes, each
    winning at most one answer, so the best case fills those levels in order; INF when d levels
    hold fewer than m answers."""
    total = np.int64(0)
    left = np.int64(m)
    width = np.int64(1)
    level = np.int64(1)
    while left > 0:
        if level > d:
            return np.int64(INF)
        take = min(left, width)
        total += take * level
        left -= take
        level += 1
        width = min(width * b, np.int64(m))
    return total


@leaf_kernel
def _class_tally(row, S, counts, heaviest):
    """(k classes, Σ|C|², 1 if the guess is in S, w_green, Σ_{C ≠ green} heaviest) from filled
    ``counts``, which it zeroes; ``heaviest`` (int64[n_patterns], each class's heaviest weight,
    zeroed too) is None but under priors, and then the last two are 0 (numba compiles the
    None case without the weights). The all-green code is the last pattern,
    ``counts.shape[0] − 1``."""
    all_green = counts.shape[0] - 1
    k = 0
    sumsq = 0
    green = 0
    w_green = np.int64(0)
    maxima = np.int64(0)
    for i in range(S.shape[0]):
        c = row[S[i]]
        m = counts[c]
        if m > 0:
            k += 1
            sumsq += m * m
            if c == all_green:
                green = 1
            counts[c] = 0
            if heaviest is not None:
                if c == all_green:
                    w_green = heaviest[c]
                else:
                    maxima += heaviest[c]
                heaviest[c] = 0
    return k, sumsq, green, w_green, maxima


@leaf_kernel
def _class_stats(row, S, counts):
    """(k classes, Σ|C|², 1 if the guess is in S) from filled ``counts``, which it zeroes."""
    k, sumsq, green, _, _ = _class_tally(row, S, counts, None)
    return k, sumsq, green


@leaf_kernel
def _split_stats(row, S, counts):
    """(k classes, Σ|C|², 1 if the guess is in S) of S under one guess row; ``counts`` is
    int32[n_patterns] scratch, zero on entry and on exit."""
    for i in range(S.shape[0]):
        counts[row[S[i]]] += 1
    return _class_stats(row, S, counts)


@leaf_kernel
def _answer_splitter(S, P, guess_of_answer, counts):
    """The first answer of S (lowest index) that splits S into singletons, or -1 (as a guess index)."""
    n = S.shape[0]
    for i in range(n):
        g = guess_of_answer[S[i]]
        k, sumsq, green = _split_stats_cut(P[g], S, counts, n)  # stops at its first repeat
        if k == n and sumsq >= 0:
            return g
    return -1


@leaf_kernel
def _answer_splitter_known(S, P, guess_of_answer, counts, kval, stamp, serial):
    """:func:`_answer_splitter`, without scanning an answer whose guess is known (``stamp`` =
    ``serial``) to make fewer than |S| classes on a superset of S (``kval``, by guess index)."""
    n = S.shape[0]
    for i in range(n):
        g = guess_of_answer[S[i]]
        if stamp[g] == serial and kval[g] < n:
            continue
        k, sumsq, green = _split_stats_cut(P[g], S, counts, n)
        if k == n and sumsq >= 0:
            return g
    return -1


@leaf_kernel
def _heaviest_splitter(S, P, guess_of_answer, counts, weights):
    """(guess index, weight) of the heaviest answer of S that splits S into singletons (the
    first of the heaviest on a tie), or (-1, 0): under priors the answer splitter to play
    (it costs 2W(S) − its weight, §10.3)."""
    n = S.shape[0]
    best = np.int64(-1)
    best_w = np.int64(0)
    for i in range(n):
        w = np.int64(weights[S[i]])
        if best >= 0 and w <= best_w:
            continue
        g = guess_of_answer[S[i]]
        k, sumsq, green = _split_stats(P[g], S, counts)
        if k == n:
            best = np.int64(g)
            best_w = w
    return best, best_w


@leaf_kernel
def _weighted_bound(row, S, counts, heaviest, weights, W):
    """(k, Σ|C|², green, bound) of one guess under priors: bound = W + 2(W − w_green) −
    Σ_{classes C ≠ green} max_{a∈C} w_a (§10.3); ``heaviest`` int64[n_patterns] zero scratch,
    zeroed again, like ``counts``."""
    for i in range(S.shape[0]):
        c = row[S[i]]
        counts[c] += 1
        w = np.int64(weights[S[i]])
        if w > heaviest[c]:
            heaviest[c] = w
    k, sumsq, green, w_green, maxima = _class_tally(row, S, counts, heaviest)
    return k, sumsq, green, W + 2 * (W - w_green) - maxima


@leaf_kernel
def _split_stats_cut(row, S, counts, kmin):
    """Like :func:`_split_stats`, but gives up (returns sumsq = -1) as soon as the guess can no
    longer reach ``kmin`` classes, the fewest that could bring its bound under the cut-off; k
    is then an upper bound on its classes (< kmin)."""
    k, read = class_count(row, S, counts, kmin)
    if read < S.shape[0]:
        for j in range(read):
            counts[row[S[j]]] = 0
        return k, -1, 0
    return _class_stats(row, S, counts)


@leaf_kernel
def _count_columns(columns, S, candidates, counted, bits, all_green, full_split):
    """Class count and all-green bit (1 if the guess is in S) of S under each guess
    ``candidates[counted[0, t]]``: ``counted`` is int32[4, n], candidate positions in its row
    0; rows 1, 2 and 3 get the guesses, their class counts and their all-green bits
    (docs/algorithms.md §4.2).

    ``columns`` is the feedback table's transpose, read one answer's row after another by
    :func:`~solver.exact._family_kernel.column_bits` (on a large class's table, most reads of a
    scan per guess row miss the cache); ``bits`` is its scratch (uint64[≥ n, ⌈n_patterns /
    64⌉]).

    With ``full_split`` the guesses are counted a block of :data:`FULL_SPLIT_BLOCK` at a time,
    in order, and the count stops at the first guess outside S that splits S into singletons
    (§3.3: then the state's value and guess are known, and the rest is not needed). Returns
    that guess's t, or -1 when every guess was counted and none does."""
    n = counted.shape[1]
    for t in range(n):
        counted[1, t] = candidates[counted[0, t]]
    green_word = all_green >> 6
    green_bit = np.uint64(all_green & 63)
    block = FULL_SPLIT_BLOCK if full_split else max(n, 1)
    for first in range(0, n, block):
        last = min(first + block, n)
        column_bits(columns, S, counted[1, first:last], bits)
        for t in range(first, last):
            counted[2, t] = bits_set(bits[t - first])
            counted[3, t] = (bits[t - first, green_word] >> green_bit) & np.uint64(1)
            if full_split and counted[2, t] == S.shape[0] and counted[3, t] == 0:
                return t
    return -1


@leaf_kernel
def _signature(row, S, counts):
    """64-bit hash of the set partition of S under one guess (pattern labels renamed by first
    appearance), used only to find candidates for equality; equality is then checked exactly.
    0 for a guess in S (its green class makes it unlike any other guess)."""
    all_green = counts.shape[0] - 1
    n = S.shape[0]
    h = np.uint64(1469598103934665603)
    next_label = 1
    for i in range(n):
        c = row[S[i]]
        if c == all_green:
            h = np.uint64(0)
            break
        if counts[c] == 0:
            counts[c] = next_label
            next_label += 1
        h = (h ^ np.uint64(counts[c])) * np.uint64(1099511628211)
    for i in range(n):
        counts[row[S[i]]] = 0
    if h == np.uint64(0):
        return h
    return h | np.uint64(1)


@leaf_kernel
def _same_partition(row_a, row_b, S, counts_a, counts_b):
    """True if two guesses split S into the same classes (ignoring which pattern names them)."""
    n = S.shape[0]
    same = True
    label = 1
    for i in range(n):
        ca = row_a[S[i]]
        cb = row_b[S[i]]
        if counts_a[ca] == 0 and counts_b[cb] == 0:
            counts_a[ca] = label
            counts_b[cb] = label
            label += 1
        elif counts_a[ca] != counts_b[cb]:
            same = False
            break
    for i in range(n):
        counts_a[row_a[S[i]]] = 0
        counts_b[row_b[S[i]]] = 0
    return same


@njit(cache=True)
def _dedupe_useful(S, P, useful, kub, nu, signatures, counts, counts_b):
    """Drop from ``useful[:nu]`` every guess outside S that splits S exactly like a
    lower-indexed guess outside S; returns the new count (order kept ascending). ``kub[:nu]``,
    aligned with ``useful``, is compacted alike."""
    m = 0
    for j in range(nu):
        signatures[j] = _signature(P[useful[j]], S, counts)
        if signatures[j] != np.uint64(0):
            m += 1
    if m < 2:
        return nu
    order = np.argsort(signatures[:nu], kind="mergesort")  # stable: equal hashes in index order
    drop = np.zeros(nu, dtype=np.bool_)
    i = 0
    while i < nu:
        j = i + 1
        while j < nu and signatures[order[j]] == signatures[order[i]]:
            j += 1
        if signatures[order[i]] != np.uint64(0) and j - i > 1:
            # within one hash group, keep each first of an exact-equality class
            for a in range(i, j):
                ia = order[a]
                if drop[ia]:
                    continue
                for b in range(a + 1, j):
                    ib = order[b]
                    if drop[ib]:
                        continue
                    if _same_partition(P[useful[ia]], P[useful[ib]], S, counts, counts_b):
                        drop[ib] = True
        i = j
    out = 0
    for j in range(nu):
        if not drop[j]:
            useful[out] = useful[j]
            kub[out] = kub[j]
            out += 1
    return out


@leaf_kernel
def insert_largest_first(open_classes, n_open, starts, c):
    """Insert class c into the list ``open_classes[:n_open]``, kept largest class first (a
    class goes after those of its size already there: ties keep their insertion order)."""
    m = starts[c + 1] - starts[c]
    b = n_open - 1
    while b >= 0 and starts[open_classes[b] + 1] - starts[open_classes[b]] < m:
        open_classes[b + 1] = open_classes[b]
        b -= 1
    open_classes[b + 1] = c


@leaf_kernel
def _full_splitter(S, candidates, kub_in, P, counts):
    """The first of ``candidates`` that splits S into singletons (§3.4: with two guesses left
    only such a guess wins), or -1; ``kub_in`` as for :func:`_search_kub` (a candidate with
    fewer classes than S has answers on a superset is not scanned); ``counts`` scratch."""
    n = S.shape[0]
    known = kub_in.shape[0] == candidates.shape[0]
    for j in range(candidates.shape[0]):
        if known and kub_in[j] < n:
            continue
        g = candidates[j]
        k, sumsq, _ = _split_stats_cut(P[g], S, counts, n)
        if k == n and sumsq >= 0:
            return np.int64(g)
    return np.int64(-1)


@njit(cache=True)
def _scan_candidates(S, d, beta, candidates, kub_in, P, search, objective, only, kmin, weights, W,
                     full_split, guess_of_answer, letters):
    """Step 1 of :func:`_search_kub`: bound every candidate on S (d guesses left, cut-off
    ``beta``), in one pass that counts each one's classes (§3.2, §4.2).

    Writes, at depth d of the workspace: ``keys[:nk]`` the sort keys (bound, order term,
    guess) of the candidates whose bound is under ``beta`` (``only`` ≥ 0: that guess's alone);
    ``useful[:nu]`` the candidates that split S, kept for the subsets, with ``kub[:nu]`` their
    class counts (an upper bound on any subset's); ``kval``/``stamp`` the counts by guess index
    for this scan (``serial``, advanced here). A scan gives up once a guess cannot reach the
    ``kmin`` classes a bound under ``beta`` needs (``kub_in`` and the letter family's counts
    spare some scans altogether). Returns ``(nk, nu, min_excluded, local_b, weighted_bounds,
    lazy, splitter)``: the least bound among the guesses not kept for ``beta`` (``INF`` if
    none), the most non-green classes of any guess on S (§3.7, an upper bound), under priors the
    keys' bounds (int64[nk]; empty otherwise), whether the keys were counted by columns (their
    order terms left to :func:`_order_group`), and -1, or with ``full_split`` (no answer splits
    S) the first candidate outside S that splits S into singletons, found by the column counts
    before the rest is counted; then nothing else is written (§3.3)."""
    _, ws, stats = search
    n = S.shape[0]
    weighted = objective == WEIGHTED
    if (d == 3 and kmin > 2 and only < 0 and not weighted and ws.columns.shape[0] > 0
            and n <= ws.family_thresholds[2] and letters.shape[0] == P.shape[0]):
        return _scan_small(S, d, beta, candidates, kub_in, search, objective, kmin, full_split,
                           guess_of_answer, letters)
    counts = ws.counts[d]
    all_green = counts.shape[0] - 1
    keys = ws.keys[d]
    useful = ws.useful[d]
    nk = 0
    nu = 0
    min_excluded = np.int64(INF)
    weighted_bounds = np.empty(candidates.shape[0] if weighted else 0, dtype=np.int64)
    heaviest = np.zeros(counts.shape[0] if weighted else 0, dtype=np.int64)  # per-pattern scratch
    bound = np.int64(0)
    kub = ws.kub[d]
    known = kub_in.shape[0] == candidates.shape[0]
    # The most non-green classes any guess makes on S (an upper bound): on every subset of S
    # no guess makes more (§3.7 with a local b). Guesses not among the candidates split some
    # superset of S into one class, or exactly like a candidate.
    local_b = np.int64(1)
    ws.serial[0] += 1
    serial = ws.serial[0]
    kval = ws.kval[d]
    stamp = ws.stamp[d]
    # Every guess's class count on the letter family's sets that contain S bounds its count
    # on S (§3.8): a guess whose bound is below kmin is not scanned, as with kub_in.
    upper = ws.upper
    family_known = kmin > 2 and ws.family.shape[0] > 0 and n >= ws.family_thresholds[1]
    if family_known:
        superset_counts(S, ws.family, ws.answer_masks, ws.answer_letters, upper)
    # The candidates that need their classes counted are counted in one pass over the
    # transposed table (§4.2), when the workspace has it: the same counts, read in the order
    # memory holds them.
    column_counts = ws.column_counts
    by_columns = ws.columns.shape[0] > 0 and not weighted
    n_counted = 0
    if by_columns:
        for j in range(candidates.shape[0]):
            if kmin > 2 and ((known and kub_in[j] < kmin)
                             or (family_known and upper[candidates[j]] < kmin)):
                continue
            column_counts[0, n_counted] = j
            n_counted += 1
        t = _count_columns(ws.columns, S, candidates, column_counts[:, :n_counted],
                           ws.column_bits, all_green, full_split)
        if t >= 0:
            return 0, 0, min_excluded, local_b, weighted_bounds, by_columns, np.int64(column_counts[1, t])
    cursor = 0
    spared = 0  # (added to the stats once: a counter in memory is a store per guess)
    for j in range(candidates.shape[0]):
        g = candidates[j]
        counted = cursor < n_counted and column_counts[0, cursor] == j
        k_counted = np.int64(0)
        green_counted = np.int64(0)
        if counted:
            k_counted = np.int64(column_counts[2, cursor])
            green_counted = np.int64(column_counts[3, cursor])
            cursor += 1
        if kmin > 2:
            if known and kub_in[j] < kmin:
                # fewer classes on a superset than a bound under beta needs: no scan
                k = kub_in[j]
                sumsq = -1
            elif family_known and upper[g] < kmin:
                # fewer classes on a letter-family superset of S than needed: no scan
                spared += 1
                k = np.int64(upper[g])
                if known and kub_in[j] < k:
                    k = kub_in[j]
                sumsq = -1
            elif counted:
                k = k_counted
                if k <= 1:  # does not split S, nor any subset (§6): dropped
                    kval[g] = k
                    stamp[g] = serial
                    continue
                if k < kmin:  # as a scan that gave up, with the exact count as the bound
                    sumsq = np.int64(-1)
                else:  # its order term when its bound group is reached (§4.2)
                    sumsq = np.int64(-2)
                    green = green_counted
            else:
                k, sumsq, green = _split_stats_cut(P[g], S, counts, kmin)
            if sumsq == -1:
                # bound ≥ beta; kept for the subsets (a guess that does not split them is
                # skipped there, so keeping one that may not split S costs only a scan)
                useful[nu] = g
                kub[nu] = k
                nu += 1
                kval[g] = k
                stamp[g] = serial
                if k > local_b:
                    local_b = k
                if beta < min_excluded and (only < 0 or g == only):
                    min_excluded = beta
                continue
        elif weighted:
            k, sumsq, green, bound = _weighted_bound(P[g], S, counts, heaviest, weights, W)
        elif counted:
            k = k_counted
            green = green_counted
            sumsq = np.int64(-2)  # order term left to the bound group (below)
        else:
            k, sumsq, green = _split_stats(P[g], S, counts)
        kval[g] = k
        stamp[g] = serial
        if k == 1:
            continue
        useful[nu] = g
        kub[nu] = k
        nu += 1
        if k - green > local_b:
            local_b = k - green
        if only >= 0 and g != only:
            continue
        if not weighted:
            bound = guess_bound(objective, n, k, green)
        if bound < beta:
            if sumsq == -2:  # counted: the order term is left to its bound group (§4.2)
                keys[nk] = (bound << KEY_BOUND_SHIFT) | g
                nk += 1
                continue
            if weighted:  # totals of weights do not fit the key's bound field: kept apart
                weighted_bounds[nk] = bound
                keys[nk] = (order_term(objective, sumsq, green) << KEY_SUMSQ_SHIFT) | g
            else:
                keys[nk] = ((bound << KEY_BOUND_SHIFT)
                            | (order_term(objective, sumsq, green) << KEY_SUMSQ_SHIFT) | g)
            nk += 1
        elif bound < min_excluded:
            min_excluded = bound
    stats[3] += spared
    return nk, nu, min_excluded, local_b, weighted_bounds, by_columns, np.int64(-1)


@njit(cache=True)
def _scan_small(S, d, beta, candidates, kub_in, search, objective, kmin, full_split,
                guess_of_answer, letters):
    """:func:`_scan_candidates` for a small state with three guesses left searched with a
    cut-off (``kmin`` > 2 classes needed, at most ``family_thresholds[2]`` answers, column
    counts on; docs/algorithms.md §3.9). Only the candidates whose class count can reach
    ``kmin`` by ``kub_in`` and by where S's letters sit (:func:`letter_bound`) are counted,
    and no list is kept for the subsets: their scans (two guesses left, a full split or
    nothing, §3.4) take this state's own candidates and ``kub_in``, which is signalled by
    ``nu`` = -1. The keys (bound, guess) are those the full scan writes; ``local_b`` is the
    most non-green classes of a counted guess or ``kmin`` − 1, whichever is more (an upper
    bound on every guess's). Returns what :func:`_scan_candidates` returns."""
    _, ws, stats = search
    n = S.shape[0]
    keys = ws.keys[d]
    kval = ws.kval[d]
    stamp = ws.stamp[d]
    ws.serial[0] += 1
    serial = ws.serial[0]
    all_green = ws.counts.shape[1] - 1
    known = kub_in.shape[0] == candidates.shape[0]
    masks = np.empty(26, dtype=np.uint64)
    minority_masks(S, guess_of_answer, letters, np.empty((26, n), dtype=np.uint8),
                   np.zeros(1 << letters.shape[1], dtype=np.int32), masks)
    column_counts = ws.column_counts
    n_counted = 0
    for j in range(candidates.shape[0]):
        if known and kub_in[j] < kmin:
            continue
        if letter_bound(masks, letters[candidates[j]], n) < kmin:
            continue
        column_counts[0, n_counted] = j
        n_counted += 1
    skipped = candidates.shape[0] - n_counted
    stats[3] += skipped
    no_bounds = np.empty(0, dtype=np.int64)
    min_excluded = np.int64(INF)
    t = _count_columns(ws.columns, S, candidates, column_counts[:, :n_counted],
                       ws.column_bits, all_green, full_split)
    if t >= 0:
        return 0, -1, min_excluded, np.int64(1), no_bounds, True, np.int64(column_counts[1, t])
    local_b = max(np.int64(1), kmin - 1)
    if skipped > 0:  # (a skipped guess's bound is at least beta, as a scan that gave up)
        min_excluded = np.int64(beta)
    nk = 0
    for t in range(n_counted):
        g = np.int64(column_counts[1, t])
        k = np.int64(column_counts[2, t])
        green = np.int64(column_counts[3, t])
        kval[g] = k
        stamp[g] = serial
        if k - green > local_b:
            local_b = k - green
        if k <= 1:
            continue
        if k < kmin:
            if beta < min_excluded:
                min_excluded = np.int64(beta)
            continue
        bound = guess_bound(objective, n, k, green)
        if bound < beta:
            keys[nk] = (bound << KEY_BOUND_SHIFT) | g
            nk += 1
        elif bound < min_excluded:
            min_excluded = bound
    return nk, -1, min_excluded, local_b, no_bounds, True, np.int64(-1)


@njit(cache=True)
def _order_group(S, P, counts, objective, ordered, ordered_bounds, first):
    """Put the order terms into the keys of the bound group that starts at ``first`` of
    ``ordered`` (keys of one bound, sorted by guess index, with no order term) and sort the
    group by them (§4.2): the order :func:`_ordered_candidates` gives full keys. Returns the
    group's end. (Most searches stop within the first groups: the guesses of the others are
    never scanned for their class sizes.)"""
    end = first
    bound = ordered_bounds[first]
    while end < ordered.shape[0] and ordered_bounds[end] == bound:
        g = ordered[end] & KEY_GUESS_MASK
        k, sumsq, green = _split_stats(P[g], S, counts)
        ordered[end] |= order_term(objective, sumsq, green) << KEY_SUMSQ_SHIFT
        end += 1
    ordered[first:end] = np.sort(ordered[first:end])
    return end


@njit(cache=True)
def _ordered_candidates(keys, weighted_bounds, weighted, lazy):
    """Step 2 of :func:`_search_kub`: the candidates' keys in search order, (bound, order term,
    guess index) ascending, and their bounds (int64 arrays of the keys' length). ``lazy``: the
    keys have no order terms yet (:func:`_order_group` adds them a bound at a time) and come
    in guess-index order, so one counting pass by bound orders them (:func:`_by_bound`)."""
    if weighted:  # the same order, (bound, order term, guess), by two stable sorts
        by_key = np.argsort(keys, kind="mergesort")
        by_bound = by_key[np.argsort(weighted_bounds[by_key], kind="mergesort")]
        ordered = keys[by_bound]
        ordered_bounds = weighted_bounds[by_bound]
    elif lazy:
        ordered = _by_bound(keys)
        ordered_bounds = ordered >> KEY_BOUND_SHIFT
    else:
        ordered = np.sort(keys)
        ordered_bounds = ordered >> KEY_BOUND_SHIFT
    return ordered, ordered_bounds


@njit(cache=True)
def _by_bound(keys):
    """``keys`` (no order terms) sorted by bound, then guess index: one stable counting pass
    by bound (the bounds of a state span about n values) when the keys come in guess-index
    order, as the candidates do; else a sort."""
    n = keys.shape[0]
    if n == 0:
        return keys.copy()
    low = keys[0] >> KEY_BOUND_SHIFT
    high = low
    ascending = True
    for i in range(n):
        b = keys[i] >> KEY_BOUND_SHIFT
        if b < low:
            low = b
        if b > high:
            high = b
        if i > 0 and (keys[i] & KEY_GUESS_MASK) <= (keys[i - 1] & KEY_GUESS_MASK):
            ascending = False
    if not ascending or high - low > 4 * n + 64:
        return np.sort(keys)
    starts = np.zeros(high - low + 2, dtype=np.int64)
    for i in range(n):
        starts[(keys[i] >> KEY_BOUND_SHIFT) - low + 1] += 1
    for b in range(1, starts.shape[0]):
        starts[b] += starts[b - 1]
    ordered = np.empty(n, dtype=np.int64)
    for i in range(n):
        b = (keys[i] >> KEY_BOUND_SHIFT) - low
        ordered[starts[b]] = keys[i]
        starts[b] += 1
    return ordered


@leaf_kernel
def class_key(cls, g, code, n_patterns, zobrist1, zobrist2, mode, rules, constraint, hash1,
              hash2, history1, history2):
    """(h1, h2) uint64: the memo key (:func:`~solver.game._hard_mode_kernel.mode_state_key`)
    of the class ``cls`` (int32 answer indices) that guess ``g``'s feedback ``code`` leaves of a
    state whose hard-mode ``constraint`` (int8[WIDTH], its :func:`constraint_hash` ``hash1``,
    ``hash2``) and ultra-hard history key (``history1``, ``history2``) are given;
    ``n_patterns`` = 3**L. In hard mode the class's constraint is the state's tightened by g's
    feedback (read with ``rules.letters``): its hash is the state's with the entries that
    feedback changes (:func:`tightened_hash`), so the constraint itself is not written (the
    callers that read it tighten it where they do). In ultra-hard mode the class's history key
    is the state's plus the step key of (g, code) (§10.5)."""
    if mode == HARD_MODE:
        c1, c2 = state_hash(cls, zobrist1, zobrist2)
        k1, k2 = tightened_hash(constraint, hash1, hash2, rules.letters[g], code, rules.ckeys1,
                                rules.ckeys2)
        return c1 + k1, c2 + k2
    s1 = np.uint64(0)
    s2 = np.uint64(0)
    if mode == ULTRA_MODE:
        s1, s2 = ultra_step_key(g, code, n_patterns)
    return mode_state_key(cls, zobrist1, zobrist2, mode, constraint, history1 + s1, history2 + s2,
                          rules.ckeys1, rules.ckeys2)


@leaf_kernel
def partition_at(ws, d, row, S):
    """Partition S by one guess's feedback ``row`` into the workspace's rows of depth d (a
    :class:`SearchWorkspace`: ``members``, ``starts``, ``present``), where that guess's cheap
    and deep passes read its classes; returns k, the number of classes."""
    return _partition(row, S, ws.counts[d], ws.members[d], ws.starts[d], ws.present[d])


@leaf_kernel
def _bound_classes(S, d, g, bound, size_cut, tables, search, objective, mode, rules, local_b,
                   serial):
    """Step 3 of :func:`_search_kub`, the cheap pass of guess g on S (§4.3): partition S by g
    (into the workspace's ``members``/``starts``/``present`` at depth d) and raise g's
    ``bound`` class by class from what is known without searching: the memo's value or bound,
    the level bound (§3.7, ``local_b`` the most non-green classes of a guess on S), or an
    answer that splits the class (§3.5, m² work over the class's own answers, skipping those
    this state's scan (``serial``) found unable to split it). Stores what it learns in the
    memo. First the floors of the classes too large to split into singletons, read off their
    sizes: if they already reach ``size_cut`` (INF: only when some class cannot be won in the
    guesses left), that bound is returned with no class open (nothing keyed, probed or stored).
    Returns ``(running, n_open)``: g's
    raised bound, and how many classes are left to search, listed largest first in
    ``open_classes[:n_open]`` with their bounds in ``bounds``."""
    P, guess_of_answer, zobrist1, zobrist2 = tables
    memo, ws, _ = search
    weights = rules.weights
    weighted = objective == WEIGHTED
    b = ws.branching[0]
    counts = ws.counts[d]
    all_green = counts.shape[0] - 1
    constraints = ws.constraints
    history_keys = ws.history_keys
    kval = ws.kval[d]
    stamp = ws.stamp[d]
    k = partition_at(ws, d, P[g], S)
    members, starts, present = ws.members[d], ws.starts[d], ws.present[d]
    bounds, open_classes = ws.bounds[d], ws.open_classes[d]
    running = bound
    n_open = 0
    if not weighted:
        # The classes too large for any guess to split into singletons first, by their sizes
        # alone (§3.7): when their floors already reach ``size_cut``, g is refuted without a
        # key, a memo probe or an answer-splitter scan; the bound returned is then no higher
        # than the whole pass would give, still a lower bound, and equal to it at INF (§4.3).
        for c in range(k):
            m = starts[c + 1] - starts[c]
            if present[c] == all_green or m <= local_b + 1:
                continue
            floor = no_answer_split(objective, m)
            if objective == TOTAL:
                floor = max(floor, tree_floor(m, local_b, d - 1))
            running = tighten(objective, running, class_base(objective, m), floor)
        if running >= size_cut:
            return running, 0
        running = bound
    # hard mode: S's constraint hash, from which each class's key takes only the entries g's
    # feedback changes (:func:`class_key`)
    hash1, hash2 = np.uint64(0), np.uint64(0)
    if mode == HARD_MODE:
        hash1, hash2 = constraint_hash(constraints[d], rules.ckeys1, rules.ckeys2)
    for c in range(k):
        m = starts[c + 1] - starts[c]
        if present[c] == all_green or m <= 2:
            continue
        cls = members[starts[c]:starts[c + 1]]
        c1, c2 = class_key(cls, g, present[c], all_green + 1, zobrist1, zobrist2, mode, rules,
                           constraints[d], hash1, hash2, history_keys[d, 0], history_keys[d, 1])
        class_meta = memo_meta(m, d - 1, objective, mode)
        s, known, known_guess = _memo_get(memo, c1, c2, class_meta)
        class_weight = np.int64(0)
        class_heaviest = np.int64(0)
        class_lightest = np.int64(0)
        if weighted:
            class_weight, class_heaviest, class_lightest = state_weight(cls, weights)
            base = 2 * class_weight - class_heaviest
        else:
            base = class_base(objective, m)
        if s >= 0:
            v = known
            if known_guess >= 0:
                running = tighten(objective, running, base, v)
                continue
            if v > base:
                running = tighten(objective, running, base, v)
                base = v
            if objective == TOTAL and m > local_b + 1:
                v = tree_floor(m, local_b, d - 1)
                if v > base:
                    _memo_store(memo, c1, c2, class_meta, v, -1)
                    running = tighten(objective, running, base, v)
                    base = v
        elif m > local_b + 1 and not weighted:
            # no guess splits the class into singletons: no answer-splitter scan (§3.5)
            floor = no_answer_split(objective, m)
            if objective == TOTAL:
                floor = max(floor, tree_floor(m, local_b, d - 1))
            _memo_store(memo, c1, c2, class_meta, floor, -1)
            running = tighten(objective, running, base, floor)
            base = floor
        else:
            # m² work settles what a scan of every guess would (§3.5): exact if an
            # answer splits the class, else a better lower bound
            if weighted:
                sg, w_sg = _heaviest_splitter(cls, P, guess_of_answer, ws.counts[d - 1], weights)
                if sg >= 0 and (w_sg == class_heaviest or d - 1 == 2):
                    v = 2 * class_weight - w_sg
                    _memo_store(memo, c1, c2, class_meta, v, sg)
                    running = tighten(objective, running, base, v)
                    continue
                floor = weighted_floor(class_weight, class_heaviest, class_lightest,
                                       w_sg if sg >= 0 else np.int64(0))
            else:
                sg = _answer_splitter_known(cls, P, guess_of_answer, ws.counts[d - 1],
                                            kval, stamp, serial)
                if sg >= 0:
                    _memo_store(memo, c1, c2, class_meta, split_value(objective, m, True), sg)
                    continue
                floor = no_answer_split(objective, m)
                if objective == TOTAL and m > b + 1:
                    floor = max(floor, tree_floor(m, b, d - 1))
            _memo_store(memo, c1, c2, class_meta, floor, -1)
            running = tighten(objective, running, base, floor)
            base = floor
        bounds[c] = base
        insert_largest_first(open_classes, n_open, starts, c)
        n_open += 1
    return running, n_open


@njit(cache=True)
def _class_candidates(ws, d, g, code, m, sub_candidates, sub_kub, rules, mode, sets, scratch):
    """The candidates of the class of ``m`` answers that guess ``g`` leaves with feedback
    ``code`` at a state with ``d`` guesses left, and their class-count bounds (empty: none
    known): the state's ``sub_candidates`` and ``sub_kub`` in normal mode; in hard mode those
    the class's constraint allows (written to ``ws.constraints[d - 1]`` and ``ws.allowed[d]``;
    by the :func:`letter_sets` ``sets`` of ``sub_candidates`` when built, with their
    ``scratch``, else by the packed filter), in ultra-hard mode those consistent with the
    feedback (the class's history key written to ``ws.history_keys[d - 1]``). The allowed
    guesses keep their class counts on the state, upper bounds on theirs on the class in any
    mode (§3.7), when the state's scan or its caller's knew them. Returns ``(int32[:],
    int32[:])``, views of the workspace or of the arguments."""
    if mode != HARD_MODE and mode != ULTRA_MODE:
        return sub_candidates, sub_kub
    letters = rules.letters
    kub_known = sub_kub.shape[0] == sub_candidates.shape[0] and m >= ws.family_thresholds[3]
    if mode == HARD_MODE:
        tighten_constraint(ws.constraints[d], letters[g], code, ws.constraints[d - 1])
        if sets.shape[0] > 0:
            na = filter_allowed_sets(ws.constraints[d - 1], MAX_LENGTH, sets, sub_candidates,
                                     sub_kub if kub_known else sub_kub[:0], ws.allowed[d],
                                     ws.allowed_kub[d], scratch)
        elif kub_known:
            na = filter_allowed_packed_counted(
                ws.constraints[d - 1], rules.packed, letters.shape[1], sub_candidates, sub_kub,
                ws.allowed[d], ws.allowed_kub[d])
        else:
            na = filter_allowed_packed(ws.constraints[d - 1], rules.packed, letters.shape[1],
                                       sub_candidates, ws.allowed[d])
    else:
        s1, s2 = ultra_step_key(g, code, ws.counts.shape[1])
        ws.history_keys[d - 1, 0] = ws.history_keys[d, 0] + s1
        ws.history_keys[d - 1, 1] = ws.history_keys[d, 1] + s2
        if kub_known:
            na = filter_consistent_counted(letters, g, code, sub_candidates, sub_kub,
                                           ws.allowed[d], ws.allowed_kub[d])
        else:
            na = filter_consistent(letters, g, code, sub_candidates, ws.allowed[d])
    return ws.allowed[d][:na], ws.allowed_kub[d][:na if kub_known else 0]


@leaf_kernel
def _family_pass(d, g, running, cut, n_open, serial, search, objective, hard, letters, scratch):
    """Step 4 of :func:`_search_kub`, the family pass of the guess g on S (§4.3), between its
    cheap pass (:func:`_bound_classes`, which left ``n_open`` open classes at depth d of the
    workspace, largest first, and the guess's bound ``running``) and its deep pass: each open
    class of at least ``family_thresholds[1]`` answers, largest first, has its bound raised to
    :func:`_family_bound` over S's candidates (those S's scan ``serial`` counted; in hard mode,
    ``hard`` true, only those its constraint allows, read from the guesses' ``letters``)
    before any class is searched, until ``running`` reaches the cut-off ``cut``. A guess whose
    classes cannot all be split well enough is so refuted without reading a column, and the
    cut-offs of the deep pass are tighter. ``scratch`` is :func:`_family_bound`'s. Returns the
    raised ``running``."""
    _, ws, stats = search
    members, starts, bounds = ws.members[d], ws.starts[d], ws.bounds[d]
    open_classes, present = ws.open_classes[d], ws.present[d]
    # (the slot of the classes' constraint, which the deep pass rewrites for each class it
    # searches; empty in other modes)
    constraint = ws.constraints[d - 1][:WIDTH if hard else 0]
    for a in range(n_open):
        c = open_classes[a]
        cls = members[starts[c]:starts[c + 1]]
        if cls.shape[0] < ws.family_thresholds[1]:
            break
        if hard:
            tighten_constraint(ws.constraints[d], letters[g], present[c], constraint)
        v = _family_bound(cls, ws.kval[d], ws.stamp[d], serial, ws, objective, constraint, letters,
                          scratch)
        if v > bounds[c]:
            running = tighten(objective, running, bounds[c], v)
            bounds[c] = v
            if running >= cut:
                stats[3] += 1  # (the scans of its deep pass spared)
                break
    return running


@leaf_kernel
def _family_bound(cls, kval, stamp, serial, ws, objective, constraint, letters, scratch):
    """A lower bound on the value of the class ``cls`` (total objective; the letter family on,
    docs/algorithms.md §3.8) that reads none of its columns: the per-guess bound (§3.2) of the
    most classes any candidate of its state can make on it, by the family's counts and by the
    class counts on the state (``kval`` int32 by guess index, those of the state's scan where
    ``stamp`` == ``serial``; the other guesses are not the state's candidates), the guess
    counted as a possible answer. In hard mode (``constraint`` int8[WIDTH] the class's, as
    :func:`tighten_constraint` writes it; empty otherwise) only the guesses it allows (by their
    ``letters``, uint8[n_guesses, L]) count, the class's own candidates (§10.1); in ultra-hard
    mode the state's candidates are a superset of the class's own: the bound is then weaker,
    still valid.

    The most is found exactly, without the minimum of every family set's row (§4.3): one pass
    over every guess index takes each guess's count on the state and on the two smallest
    family sets that contain the class (an upper bound on its least count, kept in
    ``ws.upper``); the guess with the highest is then bounded by every set, and only the
    guesses whose two-set bound exceeds the most found so far are bounded by the rest, each
    until its count falls to that most. ``scratch`` is int64[≥ family rows + MAX_LENGTH], the
    caller's (a leaf kernel allocates nothing, ``kernel_cache.leaf_kernel``). Returns an
    int64."""
    m = cls.shape[0]
    family = ws.family
    sizes = ws.family_sizes
    sets = scratch[:family.shape[0]]
    n_sets = superset_sets(cls, ws.answer_masks, ws.answer_letters, sets,
                           scratch[family.shape[0]:])
    sets[n_sets] = 0  # every answer's set too, as superset_counts takes it
    n_sets += 1
    for i in range(min(2, n_sets)):  # the two smallest sets first
        least = i
        for t in range(i + 1, n_sets):
            if sizes[sets[t]] < sizes[sets[least]]:
                least = t
        sets[i], sets[least] = sets[least], sets[i]
    first = family[sets[0]]
    second = family[sets[min(1, n_sets - 1)]]
    upper = ws.upper
    cap = np.int64(min(m, 65535))
    top = np.int64(0)
    for h in range(upper.shape[0]):
        k = min(np.int64(first[h]), np.int64(second[h]), np.int64(kval[h]), cap)
        if stamp[h] != serial:
            k = 0
        upper[h] = k
        top = max(top, k)
    # (a guess's constraint is checked only where its count could raise the most found)
    hard = constraint.shape[0] > 0
    most = np.int64(0)
    for h in range(upper.shape[0]):
        if upper[h] == top and (not hard or allows(constraint, letters[h])):
            most = _family_least(family, sets, n_sets, h, np.int64(upper[h]), most)
            break
    if most < top:
        for h in range(upper.shape[0]):
            if upper[h] > most and (not hard or allows(constraint, letters[h])):
                most = _family_least(family, sets, n_sets, h, np.int64(upper[h]), most)
    return guess_bound(objective, m, max(most, 1), 1)


@leaf_kernel
def _family_least(family, sets, n_sets, h, k, most):
    """max(``most``, the least of ``k`` and guess h's counts on the family sets ``sets[2:n_sets]``),
    reading those sets until the least falls to ``most``."""
    for i in range(2, n_sets):
        if k <= most:
            return most
        k = min(k, np.int64(family[sets[i], h]))
    return max(most, k)


@njit(cache=True)
def _search(S, d, beta, candidates, tables, search, objective, mode, only, rules):
    """(value, guess) of state S with d guesses left, searched with cut-off ``beta``: see
    :func:`_search_kub`, here with no class-count bounds known for the candidates."""
    _, ws, _ = search
    return _search_kub(S, d, beta, candidates, ws.kub[0][:0], tables, search, objective, mode,
                       only, rules)


@njit(cache=True)
def _search_kub(S, d, beta, candidates, kub_in, tables, search, objective, mode, only, rules):
    """(value, guess) of state S with d guesses left, searched with cut-off ``beta``.
    (One self-recursive function on purpose: splitting the per-guess body into a second
    function made the pair mutually recursive, and numba's cached build of that segfaulted on
    load, numba #6061.) ``objective`` is the objective's id (:mod:`solver.exact._objective_kernel`); ``mode`` is
    the play mode's id, part of the memo key. ``only`` ≥ 0 restricts the guess played at S
    (not below it) to that one guess, which must split S, with d ≥ 3: the result is then that
    guess's Q-value (fail-soft) and the memo holds nothing for S itself; -1 otherwise.

    Hard mode (``mode == HARD_MODE``, docs/algorithms.md §10): ``candidates`` are the guesses
    the history allows (and that may split S), the state's constraint is ``ws.constraints[d]``, and
    ``rules`` = (letters uint8[n_guesses, L], constraint keys 1 and 2) give each class its
    constraint, its allowed guesses and its memo key (the constraint's hash is added to the
    answer set's). In normal mode ``rules`` is not read. ``rules.weights`` is int64[n_answers], the
    answers' weights, read only under priors (``objective == WEIGHTED``, §10.3).

    Ultra-hard mode (``mode == ULTRA_MODE``, §10.5): ``candidates`` are guesses the history
    allows (at least those that split S), the state's history key is ``ws.history_keys[d]``; a
    class (g, p) keeps the candidates h with feedback(g, h) = p and adds g's step key to the
    history key, which is added to the answer set's hash in the memo key.

    ``kub_in`` is empty, or aligned with ``candidates``: an upper bound on each candidate's
    number of classes on S (its classes on a superset of S, from the caller's scan: a guess
    never makes more classes on a subset). A candidate whose bound is below the fewest classes
    that could beat ``beta`` is then not scanned at all (docs/algorithms.md §4.2).

    The steps, each its own function but the recursion: the memo and the exact small cases;
    :func:`_scan_candidates` bounds every candidate; :func:`_ordered_candidates` sorts those
    under the cut-off; then, for each in that order until one's bound reaches the best so far,
    :func:`_bound_classes` (the cheap pass), :func:`_family_pass` (when the letter family is
    on) and the search of its open classes, largest first (the deep pass, §4.3). ``tables`` is
    a :class:`Tables`, ``search`` a :class:`Search`."""
    P, guess_of_answer, zobrist1, zobrist2 = tables
    memo, ws, stats = search
    n = S.shape[0]
    letters, ckeys1, ckeys2, weights = rules.letters, rules.ckeys1, rules.ckeys2, rules.weights
    weighted = objective == WEIGHTED
    if n == 1:
        return (np.int64(weights[S[0]]) if weighted else np.int64(1)), np.int64(guess_of_answer[S[0]])
    if d <= 1:
        return np.int64(INF), np.int64(-1)
    if n == 2 and only < 0:
        if weighted:
            value, i = weighted_pair(S, weights)
            return np.int64(value), np.int64(guess_of_answer[S[i]])
        return pair_value(objective), np.int64(guess_of_answer[S[0]])
    stats[0] += 1
    hard = mode == HARD_MODE
    ultra = mode == ULTRA_MODE
    W = np.int64(n)
    w_max = np.int64(1)
    w_min = np.int64(1)
    if weighted:
        W, w_max, w_min = state_weight(S, weights)
    constraints = ws.constraints
    history_keys = ws.history_keys
    h1, h2 = mode_state_key(S, zobrist1, zobrist2, mode, constraints[d], history_keys[d, 0],
                            history_keys[d, 1], ckeys1, ckeys2)
    meta = memo_meta(n, d, objective, mode)
    slot, known, known_guess = np.int64(-1), np.int64(0), np.int64(-1)
    if only < 0:  # (a search of one guess does not read the state's entry)
        slot, known, known_guess = _memo_get(memo, h1, h2, meta)
    if slot >= 0:
        stats[1] += 1
        if known_guess >= 0 or known >= beta:
            return known, known_guess
    b = ws.branching[0]
    counts = ws.counts[d]

    # An answer that splits S into singletons is optimal (§3.3: it meets the least any guess costs).
    # Under priors only the heaviest answer's split is sure to be optimal (its cost 2W − w_max
    # is the least bound of any guess); a lighter splitter is exact at d = 2 (§10.3).
    w_g = np.int64(0)
    if weighted:
        g = np.int64(-1)
        if only < 0:
            g, w_g = _heaviest_splitter(S, P, guess_of_answer, counts, weights)
        if g >= 0 and w_g < w_max and d > 2:
            g = -1
    elif only >= 0 or (objective == TOTAL and slot >= 0 and known > 2 * n - 1):
        g = -1  # (a stored lower bound above 2n − 1: no answer splits S, §3.3)
    else:
        g = _answer_splitter(S, P, guess_of_answer, counts)
    if g >= 0:
        value = 2 * W - w_g if weighted else split_value(objective, n, True)
        _memo_store(memo, h1, h2, meta, value, g)
        return value, np.int64(g)
    floor = weighted_floor(W, w_max, w_min, w_g) if weighted else no_answer_split(objective, n)
    if objective == TOTAL and n > b + 1:
        floor = max(floor, tree_floor(n, b, d))
    if beta <= floor and only < 0:  # no answer splits S, so it costs at least floor ≥ beta
        _memo_store(memo, h1, h2, meta, floor, -1)
        return floor, np.int64(-1)
    if d == 2:
        # Two guesses left: only a full split wins; no answer does (checked above).
        g = _full_splitter(S, candidates, kub_in, P, counts)
        value = INF if g < 0 else 2 * W if weighted else split_value(objective, n, False)
        _memo_store(memo, h1, h2, meta, value, g)
        return np.int64(value), np.int64(g)

    # Bound every guess; keep those that split S (for the subsets) and those under beta. When no
    # answer splits S, a guess that splits it into singletons is optimal and the first of them
    # is the first optimal guess in the order (§3.3): the count stops there.
    kmin = min_classes(objective, n, beta)
    full_split = only < 0 and not weighted and n <= min(b + 1, FULL_SPLIT_MOST)
    nk, nu, min_excluded, local_b, weighted_bounds, lazy, splitter = _scan_candidates(
        S, d, beta, candidates, kub_in, P, search, objective, only, kmin, weights, W, full_split,
        guess_of_answer, letters)
    if splitter >= 0:
        value = split_value(objective, n, False)
        _memo_store(memo, h1, h2, meta, value, splitter)
        return value, splitter
    useful = ws.useful[d]
    kub = ws.kub[d]
    serial = ws.serial[0]
    ordered, ordered_bounds = _ordered_candidates(ws.keys[d][:nk], weighted_bounds, weighted, lazy)
    # (not in hard or ultra-hard mode: two guesses that split S alike allow different guesses
    # later); done when a class is first searched, as many states never search one
    dedupe_depth = DEDUPE_MIN_DEPTH_FEW_CODES if b <= DEDUPE_FEW_CODES else DEDUPE_MIN_DEPTH
    dedupe = nk > 1 and n >= 4 and d >= dedupe_depth and not hard and not ultra
    sub_candidates = useful[:nu]
    sub_kub = kub[:nu]
    if nu < 0:  # (a small state's scan keeps no list: its subsets take its own, §3.9)
        sub_candidates = candidates
        sub_kub = kub_in
    if local_b > b:
        local_b = b

    members = ws.members[d]
    starts = ws.starts[d]
    bounds = ws.bounds[d]
    present = ws.present[d]
    open_classes = ws.open_classes[d]
    best = np.int64(beta)
    best_guess = np.int64(-1)
    fail = np.int64(min_excluded)
    # No cut-off (the state's exact value is wanted: the root of a solve, each state its tree
    # descends into): a refuted guess's bound is never read, so the cheap pass may refute by
    # the classes' sizes alone (§4.3); under a cut-off the state's bound, the least of its
    # guesses', is kept in the memo, and a weaker one would cost searches later, so sizes
    # refute only at INF, the bound the whole pass would give too.
    exact_wanted = beta >= INF
    # A root shared by several processes (§4.5): each searches the first candidate, then the
    # positions it claims from a counter all of them map, cut off by the best any share has
    # found so far.
    share = ws.share
    sharing = share[1] > 1 and d == share[2] and only < 0
    group_end = 0 if lazy else nk  # the order terms are known up to here
    family_pass = (objective == TOTAL and d >= ws.family_thresholds[4] and only < 0
                   and ws.family.shape[0] > 0)
    # (the family pass's scratch, :func:`_family_bound`'s: allocated only for a state that
    # runs the pass, most do not; an empty view otherwise)
    family_scratch = (np.empty(ws.family.shape[0] + MAX_LENGTH, dtype=np.int64) if family_pass
                      else ws.family_sizes[:0])
    # hard mode: the letter sets of sub_candidates, once enough classes were filtered (§10.1)
    filtered = 0
    sets = np.empty((0, 1), dtype=np.uint64)
    sets_scratch = np.empty(0, dtype=np.uint64)
    j = 0
    while j < nk:
        bound = np.int64(ordered_bounds[j])
        cut = _shared_cut(share, ws.shared_keys, j, best) if sharing else best
        if bound >= cut:
            if bound < fail:
                fail = bound
            break
        while j >= group_end:  # (a share's claims may pass several bound groups)
            group_end = _order_group(S, P, counts, objective, ordered, ordered_bounds, group_end)
        key = ordered[j]
        g = np.int64(key & KEY_GUESS_MASK)
        stats[2] += 1
        # Cheap pass (§4.3): tighten each class's bound from the memo before searching any class.
        running, n_open = _bound_classes(S, d, g, bound, cut if exact_wanted else np.int64(INF),
                                         tables, search, objective, mode, rules, local_b, serial)
        if running < cut and n_open > 0:
            if dedupe:
                nu = _dedupe_useful(S, P, useful, kub, nu, ws.signatures[d], counts, ws.counts[0])
                sub_candidates = useful[:nu]
                sub_kub = kub[:nu]
                dedupe = False
            if family_pass:
                running = _family_pass(d, g, running, cut, n_open, serial, search, objective,
                                       hard, rules.letters, family_scratch)
            # Deep pass: open classes largest first, each with the cut-off left to this guess.
            for a in range(n_open):
                if running >= cut:
                    break
                c = open_classes[a]
                cls = members[starts[c]:starts[c + 1]]
                if hard:
                    filtered += 1
                    if (filtered == LETTER_SETS_AFTER
                            and sub_candidates.shape[0] >= LETTER_SETS_MIN):
                        sets = letter_sets(letters, sub_candidates)
                        sets_scratch = np.empty(sets.shape[1], dtype=np.uint64)
                class_candidates, class_kub = _class_candidates(
                    ws, d, g, present[c], cls.shape[0], sub_candidates, sub_kub, rules, mode,
                    sets, sets_scratch)
                v, sub_guess = _search_kub(cls, np.int64(d - 1),
                                           class_cutoff(objective, cut, running, bounds[c]),
                                           class_candidates, class_kub, tables, search, objective,
                                           mode, np.int64(-1), rules)
                running = tighten(objective, running, bounds[c], v)
                if sharing:  # another share may have found better meanwhile
                    cut = _shared_cut(share, ws.shared_keys, j, best)
                if running >= cut:
                    break
        if running < cut:
            best = running
            best_guess = g
            if sharing:
                ws.shared_keys[share[0]] = (best << SHARED_VALUE_SHIFT) | j
        elif running < fail:
            fail = running
        j = _claim(share, ws.shared_keys, j) if sharing else j + 1
    if sharing:  # (this share claims no more: its slot no longer holds back shared_best)
        ws.shared_keys[share[1] + 1 + share[0]] = NO_SHARED_KEY
    if best_guess >= 0:
        if only < 0 and not sharing:
            _memo_store(memo, h1, h2, meta, best, best_guess)
        return best, best_guess
    if fail < beta:  # every candidate was examined and none beat beta: fail is still ≥ beta
        fail = beta
    if only < 0 and not sharing:
        _memo_store(memo, h1, h2, meta, fail, -1)
    return fail, np.int64(-1)


@njit(cache=True)
def _claim(share, shared_keys, last):
    """The next position of a shared root's candidate order that this share searches, after
    ``last`` (§4.5): the claim counter all the shares map (``shared_keys[share[1]]``), or
    ``last + 1`` where the counter is behind it; the counter is moved past the claim, and the
    claim written in this share's slot after it (``shared_keys[share[1] + 1 + share[0]]``).
    Two shares that read the counter at once may both take one position, a repeat: never a
    gap (every position claimed is the counter's value or one past a claimed position), and
    each share's positions increase, so every position below the counter and below each
    share's slot is finished (:func:`shared_best`); a share that stops claiming sets its slot
    to :data:`NO_SHARED_KEY` (the positions it stopped at, and all after, have bounds at its
    cut-off)."""
    counter = share[1]
    j = max(shared_keys[counter], last + 1)
    shared_keys[counter] = j + 1
    shared_keys[counter + 1 + share[0]] = j
    return j


@njit(cache=True)
def _shared_cut(share, shared_keys, position, best):
    """The cut-off for the candidate at ``position`` of a root shared by ``share[1]``
    processes (§4.5): this share's ``best`` so far, and each other share's best, one more
    where that share's guess comes later in the candidate order (a guess that only ties it
    from an earlier place is still the first optimal guess)."""
    cut = best
    for t in range(share[1]):
        if t != share[0]:
            key = shared_keys[t]
            value = key >> SHARED_VALUE_SHIFT
            if position < (key & SHARED_POSITION_MASK):
                value += 1
            if value < cut:
                cut = value
    return cut


@njit(cache=True)
def local_tables(cls, P, guess_of_answer, zobrist1, zobrist2):
    """The :class:`Tables` of the class ``cls`` (sorted int32 answer indices) on its own: P's
    columns of its answers, their guesses and Zobrist keys, so that the class is the state
    ``0..m−1`` and its search reads only its own m columns."""
    m = cls.shape[0]
    local_table = np.empty((P.shape[0], m), dtype=P.dtype)
    for h in range(P.shape[0]):
        row = P[h]
        for i in range(m):
            local_table[h, i] = row[cls[i]]
    local_guess = np.empty(m, dtype=guess_of_answer.dtype)
    local_z1 = np.empty(m, dtype=zobrist1.dtype)
    local_z2 = np.empty(m, dtype=zobrist2.dtype)
    for i in range(m):
        local_guess[i] = guess_of_answer[cls[i]]
        local_z1[i] = zobrist1[cls[i]]
        local_z2[i] = zobrist2[cls[i]]
    return Tables(local_table, local_guess, local_z1, local_z2)


@njit(cache=True)
def search_class(cls, d, beta, running, bound, candidates, P, guess_of_answer, zobrist1,
                 zobrist2, search, objective, mode, rules):
    """The deep pass over one open class of a guess (§4.3): ``running`` (the guess's bound,
    int64, counting the class at its ``bound``) tightened by the class's value from ``_search``,
    with d guesses left and the cut-off that still lets the guess beat ``beta``. The class
    ``cls`` (sorted int32 global answer indices) is searched as the state ``0..m−1`` of its
    :func:`local_tables` (the global Zobrist keys, so one memo serves every class)."""
    local = local_tables(cls, P, guess_of_answer, zobrist1, zobrist2)
    local_state = np.arange(cls.shape[0]).astype(np.int32)
    v, _ = _search(local_state, np.int64(d), class_cutoff(objective, beta, running, bound),
                   candidates, local, search, objective, mode, np.int64(-1), rules)
    return tighten(objective, running, bound, v)


@njit(cache=True)
def solve_state(S, d, P, guess_of_answer, zobrist1, zobrist2, memo_capacity, n_patterns,
                objective, mode, rules, constraint, candidates):
    """Exact (value, first optimal guess) of state S (sorted int32 answer indices) with d
    guesses left; value ``INF`` (2**30) if S cannot be won in time.

    ``P`` is the feedback table (uint8 or uint16 [n_guesses, n_answers]) with ``n_patterns``
    = 3**L codes; ``objective`` the objective's id (:mod:`solver.exact._objective_kernel`:
    ``TOTAL`` 0, ``WORST`` 1, ``WEIGHTED`` 2, the total under ``rules.weights``, §10.3);
    ``mode`` the play mode's id.
    ``candidates`` (int32 guess indices, ascending) are the guesses allowed at S: every guess
    in normal mode, those the history allows in hard mode, whose ``constraint`` (int8[WIDTH],
    :mod:`solver.game._hard_mode_kernel`) and ``rules`` (letters, constraint keys 1, 2) the
    search needs; in normal mode they are not read. In ultra-hard mode ``candidates`` are the
    guesses consistent with the history (§10.5; at least those of them that split S), keyed
    by :func:`solver.game._hard_mode_kernel.ultra_root_key`; ``constraint`` is not read."""
    search = prepare_search(S, P, guess_of_answer,
                            Search(new_memo(memo_capacity),
                                   new_workspace(d, P.shape[0], P.shape[1], n_patterns),
                                   np.zeros(4, dtype=np.int64)),
                            objective, rules)
    return search_state(S, d, P, guess_of_answer, zobrist1, zobrist2, search, objective, mode,
                        rules, constraint, candidates)


@njit(cache=True)
def search_state(S, d, P, guess_of_answer, zobrist1, zobrist2, search, objective, mode, rules,
                 constraint, candidates):
    """:func:`solve_state` on a search the caller keeps (:func:`new_search` of depth ≥ d,
    readied for S by :func:`prepare_search`), so that the guess-by-guess values asked after it
    (:func:`evaluate_guess`) find its memo. Same result."""
    search.ws.constraints[d][:] = constraint
    search.ws.history_keys[d][:] = root_key(candidates, mode)
    return _search(S, np.int64(d), np.int64(INF), candidates,
                   Tables(P, guess_of_answer, zobrist1, zobrist2), search, objective, mode,
                   np.int64(-1), rules)


@njit(cache=True)
def root_key(candidates, mode):
    """uint64[2]: the history key a search starting with the allowed guesses ``candidates``
    gives its root in ultra-hard mode (:func:`solver.game._hard_mode_kernel.ultra_root_key`);
    zero in the other modes."""
    key = np.zeros(2, dtype=np.uint64)
    if mode == ULTRA_MODE:
        key[0], key[1] = ultra_root_key(candidates)
    return key


@njit(cache=True)
def _build(S, d, candidates, tables, search, tree, objective, mode, rules, constraint, key):
    """Append the optimal subtree of S (preorder) to ``tree`` (:class:`TreeArrays`); returns
    its value. ``key`` (uint64[2]) is S's history key in ultra-hard mode (:func:`root_key` at
    the root, then the steps' keys added on the way down, as the search adds them)."""
    P = tables.P
    ws = search.ws
    node_guess, edge_start, edge_feedback, edge_child, counters = tree
    ws.constraints[d][:] = constraint
    ws.history_keys[d][:] = key
    value, g = _search(S, np.int64(d), np.int64(INF), candidates, tables, search, objective, mode,
                       np.int64(-1), rules)
    if g < 0:
        return np.int64(INF)
    share = ws.share
    if share[1] > 1 and d == share[2]:  # a shared root (§4.5): only the best share's tree
        for t in range(share[1]):
            if ws.shared_keys[t] < ws.shared_keys[share[0]]:
                return np.int64(INF)
    hard = mode == HARD_MODE
    ultra = mode == ULTRA_MODE
    letters = rules.letters
    all_green = ws.counts.shape[1] - 1
    node = counters[0]
    counters[0] += 1
    node_guess[node] = g
    row = P[g]
    # Partition into freshly allocated arrays: the children's searches reuse the workspace.
    n = S.shape[0]
    codes = np.empty(n, dtype=np.int32)
    for i in range(n):
        codes[i] = row[S[i]]
    order = np.argsort(codes, kind="mergesort")
    patterns = np.unique(codes)
    n_edges = 0
    for p in patterns:
        if p != all_green:
            n_edges += 1
    first_edge = counters[1]
    counters[1] += n_edges
    edge_start[node] = first_edge
    edge_start[node + 1] = counters[1]  # provisional; the next node overwrites with the same
    sorted_members = S[order]
    sorted_codes = codes[order]
    e = first_edge
    i = 0
    while i < n:
        j = i
        while j < n and sorted_codes[j] == sorted_codes[i]:
            j += 1
        p = sorted_codes[i]
        if p != all_green:
            edge_feedback[e] = p
            edge_child[e] = counters[0]
            child = np.sort(sorted_members[i:j])
            child_constraint = constraint.copy()
            child_candidates = candidates
            child_key = key.copy()
            if hard:
                tighten_constraint(constraint, letters[g], p, child_constraint)
                allowed = np.empty(candidates.shape[0], dtype=np.int32)
                na = filter_allowed_packed(child_constraint, rules.packed, letters.shape[1], candidates,
                                           allowed)
                child_candidates = allowed[:na]
            elif ultra:
                s1, s2 = ultra_step_key(g, p, all_green + 1)
                child_key[0] += s1
                child_key[1] += s2
                allowed = np.empty(candidates.shape[0], dtype=np.int32)
                na = filter_consistent(letters, g, p, candidates, allowed)
                child_candidates = allowed[:na]
            _build(child, np.int64(d - 1), child_candidates, tables, search, tree, objective, mode,
                   rules, child_constraint, child_key)
            e += 1
        i = j
    return np.int64(value)


@njit(cache=True)
def family_wanted(S, P, objective, thresholds):
    """Whether the search of the root state S builds the letter family over P's answers
    (docs/algorithms.md §3.8): total objective (any mode: class counts do not depend on the
    guesses a history allows), at least ``thresholds[0]`` answers (a workspace's
    ``family_thresholds``), P holding S's own columns (a localised table)."""
    n = S.shape[0]
    return objective == TOTAL and n >= thresholds[0] and P.shape[1] <= 2 * n


@njit(cache=True)
def with_family(S, P, guess_of_answer, ws, objective, rules):
    """``ws`` with the letter family's class counts over P's answers (docs/algorithms.md §3.8),
    counted from ``ws.columns`` (P's transpose, :func:`with_columns`), when S is a root state
    worth them (:func:`family_wanted`); else ``ws`` as it is. A workspace that already holds a
    family keeps it: the shares of a root searched by several processes build it together
    (§4.5, :mod:`solver.exact.bellman`)."""
    if not family_wanted(S, P, objective, ws.family_thresholds) or ws.family.shape[0] > 0:
        return ws
    letters = rules.letters
    answer_letters = np.empty((P.shape[1], letters.shape[1]), dtype=np.uint8)
    for a in range(P.shape[1]):
        answer_letters[a, :] = letters[guess_of_answer[a]]
    family, masks, sizes = family_counts(ws.columns, answer_letters, ws.counts.shape[1],
                                         new_bits(P.shape[0], ws.counts.shape[1]))
    return SearchWorkspace(ws.counts, ws.keys, ws.useful, ws.members, ws.starts, ws.bounds,
                           ws.present, ws.signatures, ws.open_classes, ws.allowed, ws.allowed_kub,
                           ws.constraints,
                           ws.branching, ws.kub, ws.kval, ws.stamp, ws.serial,
                           family, masks, answer_letters, sizes,  # the letter family's, new
                           ws.upper, ws.family_thresholds, ws.columns, ws.column_bits,
                           ws.column_counts, ws.history_keys, ws.share, ws.shared_keys)


@njit(cache=True)
def with_columns(P, ws):
    """``ws`` with P's transpose, for the column counts of the scans and the letter family's
    counts (docs/algorithms.md §4.2, §3.8): one copy of the table (P.shape[0] · P.shape[1]
    codes), made once per solve."""
    return SearchWorkspace(ws.counts, ws.keys, ws.useful, ws.members, ws.starts, ws.bounds,
                           ws.present, ws.signatures, ws.open_classes, ws.allowed, ws.allowed_kub,
                           ws.constraints,
                           ws.branching, ws.kub, ws.kval, ws.stamp, ws.serial, ws.family,
                           ws.answer_masks, ws.answer_letters, ws.family_sizes, ws.upper, ws.family_thresholds,
                           np.ascontiguousarray(P.T),  # columns, new
                           ws.column_bits, ws.column_counts, ws.history_keys, ws.share,
                           ws.shared_keys)


@njit(cache=True)
def prepare_search(S, P, guess_of_answer, search, objective, rules):
    """``search`` (a :class:`Search`) made ready for the state S and every state under it, as
    every whole search of a state makes it before its first step: the branching ``b`` of P
    (§3.7), P's transpose for the column counts (:func:`with_columns`, §4.2) and from it the
    letter family's counts when S is a root worth them (:func:`with_family`, §3.8). P holds
    S's own columns (a localised table) for the family; values, guesses and trees are what the
    bare workspace gives, only found sooner (docs/algorithms.md §3.8, §4.2)."""
    memo, ws, stats = search
    ws.branching[0] = branching(P, ws.counts.shape[1] - 1)
    ws = with_columns(P, ws)
    return Search(memo, with_family(S, P, guess_of_answer, ws, objective, rules), stats)


@njit(cache=True)
def solve_subtree(S, d, P, guess_of_answer, zobrist1, zobrist2, memo_capacity, n_patterns,
                  objective, mode, rules, constraint, candidates):
    """Solve state S exactly and return its optimal subtree.

    Arguments as for :func:`solve_state`. Returns ``(value, node_guess, edge_start,
    edge_feedback, edge_child, stats)`` with the tree arrays as described in
    :mod:`policy_tree.schema` (root = node 0 of the subtree; edge_start has n_nodes + 1
    entries; edge_feedback has P's dtype) and stats int64[4] = (states searched, memo hits,
    guesses expanded, scans spared by the letter family or the letters' positions, §3.8,
    §3.9). value is ``INF`` and the tree empty if S cannot be won in d guesses.
    """
    search = Search(new_memo(memo_capacity), new_workspace(d, P.shape[0], P.shape[1], n_patterns),
                    np.zeros(4, dtype=np.int64))
    return search_subtree(S, d, P, guess_of_answer, zobrist1, zobrist2, search, objective, mode,
                          rules, constraint, candidates)


@njit(cache=True)
def search_subtree(S, d, P, guess_of_answer, zobrist1, zobrist2, search, objective, mode, rules,
                   constraint, candidates):
    """:func:`solve_subtree` on a memo, workspace and stats the caller gives: ``search`` from
    :func:`new_search` (depth ≥ d, its workspace's answer count ≥ P's columns, the pattern
    count of P) as :func:`reset_search` leaves it, so that one process solving many states
    reuses the same memory (stats is the state's own, from zero). Same result, byte for byte."""
    memo, ws, stats = prepare_search(S, P, guess_of_answer, search, objective, rules)
    # Every answer takes at most d guesses, so the tree has at most d·n nodes.
    cap = d * S.shape[0] + 2
    node_guess = np.zeros(cap, dtype=np.uint32)
    edge_start = np.zeros(cap + 1, dtype=np.uint32)
    edge_feedback = np.zeros(cap, dtype=P.dtype)
    edge_child = np.zeros(cap, dtype=np.uint32)
    counters = np.zeros(2, dtype=np.int64)
    value = _build(S, np.int64(d), candidates, Tables(P, guess_of_answer, zobrist1, zobrist2),
                   Search(memo, ws, stats),
                   TreeArrays(node_guess, edge_start, edge_feedback, edge_child, counters),
                   objective, mode, rules, constraint, root_key(candidates, mode))
    if value >= INF:
        counters[:] = 0
    n_nodes = counters[0]
    edge_start[n_nodes] = counters[1]
    return (value, node_guess[:n_nodes].copy(), edge_start[:n_nodes + 1].copy(),
            edge_feedback[:counters[1]].copy(), edge_child[:counters[1]].copy(), stats.copy())


@njit(cache=True)
def guess_bounds(S, P, n_patterns, objective):
    """Every guess's lower bound on state S (docs/algorithms.md §3.2, §3.6) and its order term.

    Returns ``(bound int64[n_guesses], order int64[n_guesses])``; a guess that does not split
    S (one class) gets bound ``INF``. The candidate order of §4.2 is (bound, order, index)."""
    return guess_bounds_of(S, P, np.arange(P.shape[0], dtype=np.int32), n_patterns, objective)


@njit(cache=True)
def weighted_guess_bounds(S, P, n_patterns, weights):
    """:func:`guess_bounds` under priors (``objective == WEIGHTED``, §10.3): every guess's
    weighted bound on state S (``W + 2(W − w_green) − Σ_{C ≠ green} max_{a∈C} w_a``, the bound
    the search orders by, :func:`_weighted_bound`) and its order term; ``weights`` int64, the
    answers' weights by answer index (``weights[S[i]]``). Returns ``(bound int64[n_guesses],
    order int64[n_guesses])``, bound ``INF`` for a guess that does not split S."""
    return weighted_guess_bounds_of(S, P, np.arange(P.shape[0], dtype=np.int32), n_patterns,
                                    weights)


@njit(cache=True)
def weighted_guess_bounds_of(S, P, guesses, n_patterns, weights):
    """:func:`weighted_guess_bounds` of the guesses ``guesses`` (int32 indices) only:
    ``(bound, order)`` int64 arrays aligned with ``guesses``."""
    counts = np.zeros(n_patterns, dtype=np.int32)
    heaviest = np.zeros(n_patterns, dtype=np.int64)
    n = S.shape[0]
    W = state_weight(S, weights)[0]
    bound = np.empty(guesses.shape[0], dtype=np.int64)
    order = np.empty(guesses.shape[0], dtype=np.int64)
    for i in range(guesses.shape[0]):
        k, sumsq, green, weighted = _weighted_bound(P[guesses[i]], S, counts, heaviest, weights, W)
        bound[i] = INF if k == 1 and n > 1 else weighted
        order[i] = order_term(WEIGHTED, sumsq, green)
    return bound, order


@njit(cache=True)
def guess_bounds_of(S, P, guesses, n_patterns, objective):
    """:func:`guess_bounds` of the guesses ``guesses`` (int32 indices) only: ``(bound,
    order)`` int64 arrays aligned with ``guesses``."""
    counts = np.zeros(n_patterns, dtype=np.int32)
    n = S.shape[0]
    bound = np.empty(guesses.shape[0], dtype=np.int64)
    order = np.empty(guesses.shape[0], dtype=np.int64)
    for i in range(guesses.shape[0]):
        k, sumsq, green = _split_stats(P[guesses[i]], S, counts)
        bound[i] = INF if k == 1 and n > 1 else guess_bound(objective, n, k, green)
        order[i] = order_term(objective, sumsq, green)
    return bound, order


def new_search(depth, n_guesses, n_answers, n_patterns, memo_capacity):
    """(memo, workspace, stats) for :func:`evaluate_guess`, kept across calls so that states
    solved for one opener serve the next (a memo's values do not depend on the opener).
    Plain numpy (Python callers only): no compiled code to load at start-up."""
    return Search(memo_arrays(memo_capacity),
                  workspace_arrays(depth, n_guesses, n_answers, n_patterns),
                  np.zeros(4, dtype=np.int64))


def shared_width(shares):
    """The length of one root's ``shared_keys`` for ``shares`` shares (§4.5): each share's
    best, the claim counter, each share's last claim."""
    return 2 * shares + 1


def _shares_of(shared_keys):
    """The number of shares whose ``shared_keys`` (one root's, or rows of them) these are:
    :func:`shared_width` inverted."""
    return (shared_keys.shape[-1] - 1) // 2


def reset_shared_keys(shared_keys):
    """Set ``shared_keys`` (int64[..., :func:`shared_width` (shares)], one row per shared root)
    as the shares of a root must find it before any starts (§4.5): no share's best yet
    (:data:`NO_SHARED_KEY`), position 1 the first to claim, and position 0 each share's claim
    (every share searches it first). Returns it. Plain numpy."""
    shares = _shares_of(shared_keys)
    shared_keys[..., :shares] = NO_SHARED_KEY
    shared_keys[..., shares] = 1
    shared_keys[..., shares + 1:] = 0
    return shared_keys


def share_search(search, index, shares, depth, shared_keys, memo=None):
    """``search`` (a :class:`Search`) as share ``index`` of ``shares`` processes searching one
    root of ``depth`` guesses left together (docs/algorithms.md §4.5): ``shared_keys``
    (int64[:func:`shared_width` (shares)], as :func:`reset_shared_keys` sets it before any
    share starts) is
    memory every share maps, where each writes its best and claims the positions it
    searches. ``memo``: the memo all the shares write (in memory they all map, empty before
    any share starts, :func:`solver.exact.bellman._new_shared_memo`), or None to keep the
    search's own. Its workspace's share settings are set. Plain numpy."""
    own, ws, stats = search
    ws.share[:] = (index, shares, depth)
    return Search(own if memo is None else memo, ws._replace(shared_keys=shared_keys), stats)


def shared_winner(shared_keys):
    """The share whose guess a shared root plays (§4.5), from the keys the shares left: the
    least (value, position in the candidate order), the first share on a tie (all shares
    searched the first candidate, and all agree on a state settled before the candidates);
    ``shared_keys`` as the shares left it (:func:`share_search`)."""
    return int(np.argmin(shared_keys[:_shares_of(shared_keys)]))


def shared_best(shared_keys):
    """What the shares of a root have settled so far (``shared_keys`` the root's row,
    :func:`share_search`), a :class:`SharedBest`: the least key any share wrote — a candidate's
    exact value at its position of the root's candidate order, the best finished (both None
    before any) — and ``unsettled``, the first position that may not be finished: the least of
    the claim counter and the shares' last claims. Every candidate before it is worth at least
    the least key (a share abandons a candidate only at a cut-off no lower, §4.5), so
    ``V* ≥ min(value, the bound at unsettled)``. The fields are read one at a time while the
    shares write, in an order that keeps that true: the counter, then the claims (each only
    grows, and a share writes its claim after moving the counter), then the keys (which only
    fall, so the least key read is at most what every candidate finished before was worth).
    Plain numpy."""
    shares = _shares_of(shared_keys)
    unsettled = int(min(shared_keys[shares], shared_keys[shares + 1:].min()))
    key = int(shared_keys[:shares].min())
    if key == NO_SHARED_KEY:
        return SharedBest(None, None, unsettled)
    return SharedBest(key >> SHARED_VALUE_SHIFT, key & SHARED_POSITION_MASK, unsettled)


def reset_search(search):
    """Put a :func:`new_search` triple back as :func:`new_search` made it, for the search of
    another state: every memo slot free (meta 0 marks a free slot; the other fields of a free
    slot are never read), the workspace as :func:`workspace_arrays` fills it, the stats zero.
    Refilling memory already mapped is a memset; new arrays cost a page fault every 4 KB (a
    SALET tree's 148 root classes, each in new arrays, took 210,000 faults, 0.4 s of system
    time). Plain numpy."""
    memo, ws, stats = search
    memo.meta.fill(0)
    for array in ws:
        array.fill(0)
    ws.branching.fill(ws.counts.shape[1] - 1)
    ws.stamp.fill(-1)
    ws.share[:] = (0, 1, -1)
    ws.shared_keys.fill(NO_SHARED_KEY)
    ws.family_thresholds[:] = (FAMILY_ROOT_MIN, FAMILY_MIN, MINORITY_MOST, CARRIED_COUNTS_MIN,
                               FAMILY_PASS_MIN_DEPTH)
    stats.fill(0)


@njit(cache=True)
def evaluate_guess(S, g, d, beta, P, guess_of_answer, zobrist1, zobrist2, search, objective, mode,
                   rules, constraint, candidates):
    """Q-value of playing guess g first on state S with d guesses left, against the cut-off
    ``beta``: the exact value if it is < ``beta``, else a proven lower bound ≥ ``beta``
    (fail-soft, docs/algorithms.md §4.1, §9). ``INF`` if g cannot win every answer in time.
    ``search`` comes from :func:`new_search` (its depth ≥ d); ``rules``, ``constraint`` and
    ``candidates`` (the guesses allowed at S, g among them) as for :func:`solve_state`."""
    ws = search.ws
    tables = Tables(P, guess_of_answer, zobrist1, zobrist2)
    ws.constraints[d][:] = constraint
    ws.history_keys[d][:] = root_key(candidates, mode)
    k, sumsq, green = _split_stats(P[g], S, ws.counts[d])
    n = S.shape[0]
    if n == 1:
        return np.int64(1) if green == 1 else np.int64(2) if d >= 2 else np.int64(INF)
    if d <= 1:
        return np.int64(INF)
    if d == 2:  # only a full split wins with the one guess left after g (§3.4)
        return split_value(objective, n, green == 1) if k == n else np.int64(INF)
    bound = guess_bound(objective, n, k, green)
    if bound >= beta:
        return bound
    if k == 1:
        # g tells nothing: S again, with a guess fewer (in hard mode, and the rule of g's feedback)
        sub_candidates = candidates
        if mode == HARD_MODE:
            letters = rules.letters
            tighten_constraint(constraint, letters[g], P[g][S[0]], ws.constraints[d - 1])
            allowed = np.empty(candidates.shape[0], dtype=np.int32)
            na = filter_allowed_packed(ws.constraints[d - 1], rules.packed, letters.shape[1], candidates,
                                       allowed)
            sub_candidates = allowed[:na]
        elif mode == ULTRA_MODE:
            letters = rules.letters
            code = P[g][S[0]]
            s1, s2 = ultra_step_key(g, code, ws.counts.shape[1])
            ws.history_keys[d - 1, 0] = ws.history_keys[d, 0] + s1
            ws.history_keys[d - 1, 1] = ws.history_keys[d, 1] + s2
            allowed = np.empty(candidates.shape[0], dtype=np.int32)
            na = filter_consistent(letters, g, code, candidates, allowed)
            sub_candidates = allowed[:na]
        base = class_base(objective, n)
        v, _ = _search(S, np.int64(d - 1), class_cutoff(objective, np.int64(beta), bound, base),
                       sub_candidates, tables, search,
                       objective, mode, np.int64(-1), rules)
        return tighten(objective, bound, base, v)
    value, _ = _search(S, np.int64(d), np.int64(beta), candidates, tables, search, objective, mode,
                       np.int64(g), rules)
    return value
