"""numba kernels: can a state be won within d guesses, whatever the answer? (a yes/no search)

The least guaranteed maximum over all openers (docs/algorithms.md §9.5) asks, for every
opener and a limit K, whether *some* policy wins every game within K guesses: the worst-case
objective's value (§2.2) compared with K, but without computing the value. The decision is an
AND-OR search:

    wins(S, 1) = |S| = 1
    wins(S, 2) = |S| = 1, or some allowed guess gives every answer of S its own feedback (§3.4)
    wins(S, d) = |S| ≤ 2, or some allowed guess g has wins(C, d − 1) for every class C ≠ green

A yes needs one guess; a no needs every guess refuted, and a guess is refuted by its first
class that cannot be won, so the classes are tried largest first and the guesses in the order
of most classes first (the likeliest yes first). Pruning, each exact:

- a guess that gives S one class tells nothing, on S or on any subset of it: dropped below S;
- a full split of a class C needs a guess with |C| classes on C, hence on S ⊇ C: the guesses
  below S are kept in the order of their class counts on S, and the scan for a full split of
  C stops at the first guess with fewer than |C| classes on S (with 3 guesses left, a guess
  with a class larger than the most classes of any guess on S is refuted at once);
- the probe: before counting every candidate on S, one guess is tried, the one with the most
  classes on S among the first ``PROBE_WIDTH`` candidates in the parent's order; its classes
  are searched over the parent's candidates (a superset of the useful ones, with counts on a
  superset of each class). A yes found so is a yes; a no falls through to the full order;
- answers are memoised by (answer set, guesses left, hard-mode constraint) in a fixed-size
  table (:mod:`solver.game._memo_kernel`), shared by every opener a worker takes.

Hard mode (§10.1): each class is searched over the guesses its constraint allows; the
constraint's hash joins the memo key. The answers of S always meet S's constraint (they are
consistent with every feedback), so a pair is always won with two guesses left.
"""

from collections import namedtuple

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

from solver.exact._search_kernel import insert_largest_first
from solver.game._hard_mode_kernel import (HARD_MODE, MAX_LENGTH, ULTRA_MODE, WIDTH, allows,
                                            empty_constraint, filter_allowed_packed,
                                            filter_allowed_packed_counted, filter_consistent,
                                            filter_consistent_counted, mode_state_key,
                                            pair_feedback, tighten_constraint, ultra_root_key,
                                            ultra_step_key)
from solver.game._memo_kernel import memo_find, memo_meta, memo_store
from solver.game._partition_kernel import class_count, partition

#: The memo's objective field for yes/no entries (value 1 = wins, 0 = does not): apart from
#: the search's objective ids (0..2), though the two never share a table.
GUARANTEE = 3

#: How many of the parent's first candidates the probe of :func:`wins` counts on a state to
#: pick the one guess it tries before counting them all (on 40 random legacy openers at K = 5:
#: 16 → 8.3 CPU-s, 64 → 6.1, 256 → 4.3, 512 and 1024 → 3.2–4.0, 4096 → 15.5; one core).
PROBE_WIDTH = 512


#: The scratch memory of :func:`wins` (:func:`guarantee_workspace`). Per depth d (row d serves
#: the state with d guesses left): ``counts`` int32[·, 3**L] class counts, ``members``
#: int32[·, n_answers], ``starts`` int32[·, 3**L + 1] and ``present`` int32[·, 3**L] a
#: partition's classes, ``order`` int32 its classes largest first, ``keys`` int64[·, n_guesses]
#: sort keys, ``below`` int32 the guesses handed to the classes and ``kbelow`` their class
#: counts on the state, ``allowed``/``kallowed`` the same for a class in hard and ultra-hard
#: mode, ``constraints`` int8[·, WIDTH] the state's hard-mode constraint, ``history_keys``
#: uint64[·, 2] its ultra-hard history key (§10.5). Shared: ``seen`` int64[3**L] the stamp of
#: the last full-split scan that met each feedback; ``stats`` int64[4] (stamp, states
#: searched, memo hits, guesses tried).
GuaranteeWorkspace = namedtuple("GuaranteeWorkspace", [
    "counts", "members", "starts", "present", "order", "keys", "below", "kbelow", "allowed",
    "kallowed", "constraints", "seen", "stats", "history_keys"])


def guarantee_workspace(depth, n_guesses, n_answers, n_patterns):
    """A :class:`GuaranteeWorkspace` for states of up to ``depth`` guesses left, so the
    recursion allocates nothing (plain numpy); every depth's constraint starts empty (no
    green, no letter required)."""
    constraints = np.zeros((depth + 1, WIDTH), dtype=np.int8)
    constraints[:, :MAX_LENGTH] = -1
    return GuaranteeWorkspace(
        np.zeros((depth + 1, n_patterns), dtype=np.int32),  # class counts
        np.zeros((depth + 1, n_answers), dtype=np.int32),  # class members
        np.zeros((depth + 1, n_patterns + 1), dtype=np.int32),  # class starts
        np.zeros((depth + 1, n_patterns), dtype=np.int32),  # patterns present
        np.zeros((depth + 1, n_patterns), dtype=np.int32),  # classes, largest first
        np.zeros((depth + 1, n_guesses), dtype=np.int64),  # sort keys
        np.zeros((depth + 1, n_guesses), dtype=np.int32),  # guesses below, by class count
        np.zeros((depth + 1, n_guesses), dtype=np.int32),  # their class counts on the state
        np.zeros((depth + 1, n_guesses), dtype=np.int32),  # hard mode: a class's allowed guesses
        np.zeros((depth + 1, n_guesses), dtype=np.int32),  # hard mode: their class counts
        constraints,  # hard mode: the state's constraint
        np.zeros(n_patterns, dtype=np.int64),  # feedback last seen at stamp (full-split scan)
        np.zeros(4, dtype=np.int64),  # [stamp, states searched, memo hits, guesses tried]
        np.zeros((depth + 1, 2), dtype=np.uint64),  # ultra-hard mode: the state's history key
    )


@njit(cache=True)
def _splits_fully(row, S, seen, stamp):
    """True if every answer of S gets its own feedback in ``row``; ``seen`` int64[n_patterns]
    holds the stamp of the last scan that met each feedback, so no scan clears it."""
    for i in range(S.shape[0]):
        p = row[S[i]]
        if seen[p] == stamp:
            return False
        seen[p] = stamp
    return True


@njit(cache=True)
def _full_split(S, candidates, counts_on_parent, P, seen, stats, mode, constraint, letters, g,
                code):
    """wins(S, 2) for |S| ≥ 3: the first guess h of ``candidates`` that gives every answer of S
    its own feedback, or -1. The scan stops at the first guess with fewer classes than |S| in
    ``counts_on_parent`` (as for :func:`wins`). In hard mode (``mode``) h must meet
    ``constraint``; in ultra-hard mode it must be consistent with the last feedback, ``code``
    to guess ``g`` (``pair_feedback(letters[g], letters[h]) == code``; ``candidates`` are
    consistent with the feedback before). Each guess is tested as the scan reaches it, so the
    guesses past the stop are never tested."""
    n = S.shape[0]
    row = letters[g]
    for j in range(candidates.shape[0]):
        if counts_on_parent[j] < n:
            break
        h = candidates[j]
        if mode == HARD_MODE and not allows(constraint, letters[h]):
            continue
        if mode == ULTRA_MODE and pair_feedback(row, letters[h]) != code:
            continue
        stats[0] += 1
        if _splits_fully(P[h], S, seen, stats[0]):
            return h
    return -1


@njit(cache=True)
def wins(S, d, candidates, counts_on_parent, P, zobrist1, zobrist2, memo, ws, mode, rules):
    """True if some policy wins every answer of S (sorted int32 answer indices) within d
    guesses, playing only ``candidates`` (int32 guess indices) at S.

    ``counts_on_parent`` int32[len(candidates)]: each candidate's class count on a superset
    of S, non-increasing along ``candidates`` (or all equal to a large number when unknown):
    a guess with fewer classes than |S| there cannot split S fully. ``P`` uint8/uint16
    [n_guesses, n_answers] feedback table; ``zobrist1/2`` the answers' keys; ``memo`` from
    :func:`solver.game._memo_kernel.memo_arrays`; ``ws`` from :func:`guarantee_workspace`
    with depth ≥ d; ``mode`` 0 normal, 1 hard (then ``ws.constraints[d]`` holds S's constraint and
    ``rules`` the :class:`~solver.exact.inputs.SearchRules` (letters, constraint keys)), 2 ultra-hard (then
    ``ws.history_keys[d]`` holds S's history key, docs/algorithms.md §10.5, and a class keeps the
    candidates consistent with its feedback)."""
    n = S.shape[0]
    if n == 1:
        return d >= 1
    if d <= 1:
        return False
    if n == 2:  # play either answer (an answer always meets the constraint)
        return True
    (counts_ws, members_ws, starts_ws, present_ws, order_ws, keys_ws, below_ws, kbelow_ws,
     allowed_ws, kallowed_ws, constraints, seen, stats, history_keys) = ws
    letters, ckeys1, ckeys2 = rules.letters, rules.ckeys1, rules.ckeys2
    hard = mode == HARD_MODE
    ultra = mode == ULTRA_MODE
    stats[1] += 1
    h1, h2 = mode_state_key(S, zobrist1, zobrist2, mode, constraints[d], history_keys[d, 0],
                            history_keys[d, 1], ckeys1, ckeys2)
    meta = memo_meta(n, d, GUARANTEE, mode)
    slot = memo_find(memo, h1, h2, meta)
    if slot >= 0:
        stats[2] += 1
        return memo.value[slot] == 1
    if d == 2:  # the guesses handed down already meet S's constraint
        h = _full_split(S, candidates, counts_on_parent, P, seen, stats, 0, constraints[d],
                        letters, 0, 0)
        memo_store(memo, h1, h2, meta, 1 if h >= 0 else 0, h)
        return h >= 0

    below = below_ws[d]
    kbelow = kbelow_ws[d]
    members = members_ws[d]
    starts = starts_ws[d]
    present = present_ws[d]
    order = order_ws[d]
    counts = counts_ws[d]
    keys = keys_ws[d]
    all_green = counts.shape[0] - 1
    # Two phases. The probe (phase 0) tries one guess before any guess is counted on the whole
    # of S: the most classes on S among the first PROBE_WIDTH candidates of the parent's order,
    # its classes searched over the parent's candidates (their counts are on a superset of
    # every class, so every bound below holds). Most states are a yes, and a yes is a yes
    # whichever guess finds it; counting every candidate on S (phase 1) was nearly all of a
    # yes's cost. A no still needs phase 1: every guess, in the order of its classes on S.
    for phase in range(2):
        if phase == 0:
            best_j = -1
            best_k = 1
            for j in range(min(PROBE_WIDTH, candidates.shape[0])):
                if counts_on_parent[j] <= best_k:
                    break  # no later candidate has more classes on S
                row = P[candidates[j]]
                k, _ = class_count(row, S, counts, 0)
                for i in range(n):
                    counts[row[S[i]]] = 0
                if k > best_k:
                    best_k = k
                    best_j = j
            if best_j < 0:
                continue
            below[0] = candidates[best_j]
            n_try = 1
            sub = candidates
            ksub = counts_on_parent
            most = counts_on_parent[0]  # a bound on the most classes of any guess on S
        else:
            # Class counts of every candidate on S: the order of the guesses here and below.
            # (Counts only: _search_kernel._split_stats also sums |C|², which made this loop,
            # the innermost of the proof, 23 % slower on a sample of hard-mode openers at
            # K = 4.)
            nk, most = by_class_count(S, candidates, P, counts, keys, below, kbelow, 2)
            n_try = nk
            sub = below[:nk]
            ksub = kbelow[:nk]
        for j in range(n_try):
            g = below[j]
            stats[3] += 1
            k = partition(P[g], S, counts, members, starts, present)
            for c in range(k):  # largest first, ties by number
                insert_largest_first(order, c, starts, c)
            if d == 3 and starts[order[0] + 1] - starts[order[0]] > most:
                continue  # its largest class cannot be split fully by any guess
            ok = True
            for a in range(k):
                c = order[a]
                m = starts[c + 1] - starts[c]
                if m <= 2:
                    break  # classes of ≤ 2 answers are won with ≥ 2 guesses left
                if present[c] == all_green:
                    continue
                cls = members[starts[c]:starts[c + 1]]
                if (hard or ultra) and d == 3:
                    # two guesses left: the full-split scan tests each guess's constraint (or
                    # consistency) as it reaches it, so the guesses past the stop are never tested
                    if hard:
                        tighten_constraint(constraints[d], letters[g], present[c],
                                           constraints[d - 1])
                    won = _full_split(cls, sub, ksub, P, seen, stats, mode, constraints[d - 1],
                                      letters, g, present[c]) >= 0
                elif hard:
                    tighten_constraint(constraints[d], letters[g], present[c], constraints[d - 1])
                    na = filter_allowed_packed_counted(constraints[d - 1], rules.packed, letters.shape[1],
                                                       sub, ksub, allowed_ws[d], kallowed_ws[d])
                    won = wins(cls, d - 1, allowed_ws[d][:na], kallowed_ws[d][:na], P, zobrist1,
                               zobrist2, memo, ws, mode, rules)
                elif ultra:
                    s1, s2 = ultra_step_key(g, present[c], all_green + 1)
                    history_keys[d - 1, 0] = history_keys[d, 0] + s1
                    history_keys[d - 1, 1] = history_keys[d, 1] + s2
                    na = filter_consistent_counted(letters, g, present[c], sub, ksub,
                                                   allowed_ws[d], kallowed_ws[d])
                    won = wins(cls, d - 1, allowed_ws[d][:na], kallowed_ws[d][:na], P, zobrist1,
                               zobrist2, memo, ws, mode, rules)
                else:
                    won = wins(cls, d - 1, sub, ksub, P, zobrist1, zobrist2, memo, ws, mode,
                               rules)
                if not won:
                    ok = False
                    break
            if ok:
                memo_store(memo, h1, h2, meta, 1, g)
                return True
    memo_store(memo, h1, h2, meta, 0, -1)
    return False


@njit(cache=True)
def opener_wins(g, d, P, zobrist1, zobrist2, memo, ws, mode, rules, everything, everything_counts):
    """Whether opener ``g`` wins every answer within d ≥ 1 guesses (the opener counts as one):
    returns the pattern of the first root class that cannot be won in d − 1, or -1 if every
    class can. Classes are decided largest first (ties by pattern); in hard mode with d ≥ 4
    those whose constraint allows the fewest guesses come first. ``everything`` int32[n_guesses]
    every guess, in an order that makes ``everything_counts`` int32[n_guesses], each one's
    class count on all answers, non-increasing (:func:`guesses_by_class_count`; a large number
    each, in any order, is valid too but gives the probes below no order to start from); the
    other arguments as for :func:`wins`, ``ws`` of depth ≥ d. In hard mode each class is first
    decided in normal mode: a no there is a no in hard mode (it allows fewer
    policies), and much cheaper to find; ultra-hard mode likewise (§10.5)."""
    n = P.shape[1]
    S = np.arange(n).astype(np.int32)
    counts_ws, members_ws, starts_ws, present_ws, order_ws = (ws.counts, ws.members, ws.starts,
                                                             ws.present, ws.order)
    constraints = ws.constraints
    letters = rules.letters
    counts = counts_ws[d]
    members = members_ws[d]
    starts = starts_ws[d]
    present = present_ws[d]
    order = order_ws[d]
    all_green = counts.shape[0] - 1
    k = partition(P[g], S, counts, members, starts, present)
    for c in range(k):
        insert_largest_first(order, c, starts, c)
    root = empty_constraint()
    allowed = np.empty(P.shape[0], dtype=np.int32)
    allowed_counts = np.empty(P.shape[0], dtype=np.int32)
    hard = mode == HARD_MODE
    ultra = mode == ULTRA_MODE
    history_keys = ws.history_keys
    root1 = np.uint64(0)
    root2 = np.uint64(0)
    if ultra:  # the history key of the empty history (every guess allowed)
        root1, root2 = ultra_root_key(everything)
    # the order the classes are decided in: largest first; in hard mode with ≥ 3 guesses
    # left after g, the classes whose constraint allows the fewest guesses first (a family
    # like ?A?TE with S, T, E shown leaves few guesses and is where a hard-mode no is found),
    # then largest first; with fewer, the normal-mode no on the largest class comes at once
    # and counting the allowed guesses of every class would cost more than the decision
    keys = np.empty(k, dtype=np.int64)
    n_keys = 0
    for a in range(k):
        c = order[a]
        if present[c] == all_green:
            continue
        rank = np.int64(0)
        if hard and d - 1 >= 3:
            tighten_constraint(root, letters[g], present[c], constraints[d - 1])
            rank = np.int64(filter_allowed_packed(constraints[d - 1], rules.packed, letters.shape[1],
                                                  everything, allowed))
        elif ultra and d - 1 >= 3:
            rank = np.int64(filter_consistent(letters, g, present[c], everything, allowed))
        keys[n_keys] = (rank << 20) | np.int64(a)
        n_keys += 1
    ranked = np.sort(keys[:n_keys])
    for j in range(n_keys):
        c = order[ranked[j] & 0xFFFFF]
        cls = members[starts[c]:starts[c + 1]]
        # hard mode allows fewer policies: a class normal mode cannot win is lost in hard mode
        # too, and the normal search (all guesses, no constraint) is the cheaper one
        if not wins(cls, d - 1, everything, everything_counts, P, zobrist1, zobrist2, memo, ws,
                    0, rules):
            return np.int64(present[c])
        if hard:
            tighten_constraint(root, letters[g], present[c], constraints[d - 1])
            na = filter_allowed_packed_counted(constraints[d - 1], rules.packed, letters.shape[1],
                                               everything, everything_counts, allowed, allowed_counts)
            if not wins(cls, d - 1, allowed[:na], allowed_counts[:na], P, zobrist1, zobrist2,
                        memo, ws, mode, rules):
                return np.int64(present[c])
        elif ultra:
            s1, s2 = ultra_step_key(g, present[c], all_green + 1)
            history_keys[d - 1, 0] = root1 + s1
            history_keys[d - 1, 1] = root2 + s2
            na = filter_consistent_counted(letters, g, present[c], everything,
                                           everything_counts, allowed, allowed_counts)
            if not wins(cls, d - 1, allowed[:na], allowed_counts[:na], P, zobrist1, zobrist2,
                        memo, ws, mode, rules):
                return np.int64(present[c])
    return np.int64(-1)


#: Above any class count (at most the answers): the sort keys of :func:`by_class_count`.
CLASS_KEY_TOP = 1 << 20


@njit(cache=True)
def by_class_count(S, candidates, P, counts, keys, guesses, class_counts, least):
    """The ``candidates`` (int32 guess indices) that make at least ``least`` classes on S
    (int32 answer indices), in the order of their class count on S, most first, ties by index:
    written into ``guesses`` and their counts into ``class_counts`` (int32, each at least as
    long as ``candidates``). ``P`` uint8/uint16 [n_guesses, n_answers]; ``keys`` int64 scratch
    as long; ``counts`` int32[n_patterns] zero scratch, left zero. Returns ``(how many, the
    most classes of any of them)`` (0 when none)."""
    n = S.shape[0]
    kept = 0
    most = 0
    for j in range(candidates.shape[0]):
        g = candidates[j]
        row = P[g]
        k, _ = class_count(row, S, counts, 0)
        for i in range(n):
            counts[row[S[i]]] = 0
        if k < least:
            continue
        if k > most:
            most = k
        keys[kept] = (np.int64(CLASS_KEY_TOP - k) << 32) | np.int64(g)
        kept += 1
    ordered = np.sort(keys[:kept])
    for j in range(kept):
        guesses[j] = np.int32(ordered[j] & 0xFFFFFFFF)
        class_counts[j] = np.int32(CLASS_KEY_TOP - (ordered[j] >> 32))
    return kept, most


@njit(cache=True)
def guesses_by_class_count(P, n_patterns):
    """Every guess of ``P`` (uint8/uint16 [n_guesses, n_answers]) in the order of its class
    count on all answers, most first, ties by index (:func:`by_class_count`): ``(guesses
    int32[n_guesses], counts int32[n_guesses])``, the ``everything`` and ``everything_counts``
    of :func:`opener_wins`."""
    n_guesses, n = P.shape
    guesses = np.empty(n_guesses, dtype=np.int32)
    class_counts = np.empty(n_guesses, dtype=np.int32)
    by_class_count(np.arange(n).astype(np.int32), np.arange(n_guesses).astype(np.int32), P,
                   np.zeros(n_patterns, dtype=np.int32), np.empty(n_guesses, dtype=np.int64),
                   guesses, class_counts, 0)
    return guesses, class_counts
