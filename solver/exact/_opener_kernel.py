"""numba kernels of the opener proof: a depth-one lower bound for every opener, and the
fail-soft value of one opener with its root classes searched on their own table columns.

For an opener g, the root classes are C₁…C_k (all-green aside) and Q(g) = n + Σ V(C)
(total objective; the worst case takes the maximum of 1 + V(C)). The proof needs a bound
on Q(g) for every allowed opener that is cheap and close (docs/algorithms.md §9.2):

- :func:`class_bound`: V(C) ≥ min over *every* guess h of the per-guess bound of h on C
  (3m − k_h − [h ∈ C] for the total objective, §3.2): one scan of the table's columns of C,
  counted with one bit per feedback pattern and guess, so the scan has no branch per answer;
  an answer that splits C into singletons makes the bound exact (§3.3) and is tried first
  on small classes; on large classes, a guess whose class count on a letter-defined superset
  of C (:func:`new_bound_scratch`) cannot beat the best bound found is not read at all;
- :func:`class_bound_allowed`: the same least over the guesses a hard-mode class's
  constraint allows (valid, and tighter: §10.1), for the search of an opener;
- :func:`opener_value`: the opener's bound is the sum of its classes' bounds, classes taken
  largest first, so that a bad opener is cut off after its few large classes; with
  ``deep`` the classes are then searched exactly, largest first, each on a gathered copy of
  its columns of the table (the search reads ``m`` bytes per guess instead of ``n``) and
  with the cut-off that still lets the opener beat ``beta``.

The gathered class keeps the global Zobrist keys of its answers, so its states hash as they
do in the full table and one memo serves every opener (§5).
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

from solver.exact._objective_kernel import (INF, class_base, guess_bound,
                                            split_value, tighten)
from solver.exact._search_kernel import (_answer_splitter, _split_stats, class_key, partition_at,
                                         evaluate_guess, insert_largest_first, search_class)
from solver.game._hard_mode_kernel import (HARD_MODE, ULTRA_MODE, constraint_hash, empty_constraint,
                                            filter_allowed_packed, filter_consistent,
                                            tighten_constraint, ultra_root_key, ultra_step_key)
from solver.game._memo_kernel import memo_find, memo_meta, memo_store
from solver.exact._family_kernel import (FAMILY_ABSENT, FAMILY_POSITIONS,  # noqa: F401
                                         FAMILY_PRESENT, _min_into, bits_set, column_bits,
                                         family_counts, family_member, family_size, new_bits,
                                         superset_counts)

#: Classes up to this size first look for an answer that splits them (m² work), which
#: settles them exactly without the scan of every guess.
SPLITTER_MAX = 16


#: Classes of fewer answers than this are bounded by the plain scan of every guess
#: (:func:`_scan_bound`): below it, the upper bounds cost more than they save.
PRUNE_MIN = 64
#: Guesses counted one by one, best upper bound first, before the rest is scanned.
PROBE = 32
#: When more than 1 / DENSE of the guesses remain, all of them are scanned, without gathers.
DENSE = 3


@njit(cache=True)
def new_bound_scratch(PT, answer_letters, n_patterns):
    """Scratch and tables of :func:`class_bound` for the feedback table whose transpose is
    ``PT`` [n_answers, n_guesses] (C order, as the caller keeps it for the scans; any feedback
    rule): a tuple of

    - ``bits`` uint64[n_guesses, ⌈n_patterns / 64⌉] (:func:`new_bits`);
    - ``family`` uint16[family_size(L), n_guesses]: how many classes each guess makes on each
      set of the letter family (:data:`FAMILY_POSITIONS`), an upper bound on its classes on
      any subset;
    - the answers' letter masks int64[n_answers] and letters uint8[n_answers, L]
      (``answer_letters``, letters 0..25);
    - per-guess and per-level scratch;
    - the pruned scan's settings int64[3]: ``PRUNE_MIN``, ``PROBE``, ``DENSE`` (the tests
      change them to run every path on small lists).

    About ``family_size(L) / 2`` passes over the table: half a second on ``legacy``."""
    n_guesses = PT.shape[1]
    bits = new_bits(n_guesses, n_patterns)
    words = bits.shape[1]
    family, masks, _ = family_counts(PT, answer_letters, n_patterns, bits)
    return (bits, family, masks, np.ascontiguousarray(answer_letters),
            np.zeros(n_guesses, dtype=np.int32), np.zeros(n_guesses, dtype=np.int32),
            np.zeros(n_patterns + 2, dtype=np.int32), np.zeros(n_patterns + 2, dtype=np.int32),
            np.zeros(words, dtype=np.uint64),
            np.array([PRUNE_MIN, PROBE, DENSE], dtype=np.int64))


@njit(cache=True)
def _scan_bound(cls, PT, objective, bits, all_green):
    """The least per-guess bound over every guess by one pass over the class's rows of the
    transposed table: one bit per feedback and guess, so the loop has no branch per answer."""
    column_bits(PT, cls, None, bits)
    return _least_from_bits(bits, PT.shape[1], cls.shape[0], objective, all_green)


@njit(cache=True)
def _guess_classes(row, cls, seen, green_word, green_bit):
    """(classes, 1 if the all-green code appears) of ``cls`` under one guess row; ``seen``
    uint64[⌈n_patterns / 64⌉] zero scratch, zeroed again."""
    for a in range(cls.shape[0]):
        f = row[cls[a]]
        seen[f >> 6] |= np.uint64(1) << np.uint64(f & 63)
    green = np.int64((seen[green_word] >> green_bit) & np.uint64(1))
    k = bits_set(seen)
    seen[:] = 0
    return k, green


@njit(cache=True)
def class_bound(cls, P, PT, guess_of_answer, objective, scratch, counts):
    """Depth-one lower bound on the value of class ``cls`` (sorted global answer indices,
    m ≥ 2): the least per-guess bound over every guess (docs/algorithms.md §9.2).

    ``P`` is the feedback table [n_guesses, n_answers] and ``PT`` its transpose (C order);
    ``scratch`` from :func:`new_bound_scratch`; ``counts`` int32[n_patterns] zero scratch.
    Returns ``(bound, guess)``: ``guess`` ≥ 0 is an answer of the class that splits it into
    singletons, and then the bound is the class's exact value (with ≥ 2 guesses left).

    From ``PRUNE_MIN`` answers, only the guesses that can beat the best bound found are
    counted: every guess gets an upper bound on its classes (:func:`superset_counts`), the
    ``PROBE`` first by that bound are counted one by one, and the scan of the class's rows
    then reads only the guesses whose upper bound can still beat the best of those. A guess
    left out cannot have a lower bound than the result, so the result is the least bound over
    every guess, as from :func:`_scan_bound`."""
    m = cls.shape[0]
    if m <= SPLITTER_MAX:
        g = _answer_splitter(cls, P, guess_of_answer, counts)
        if g >= 0:
            return split_value(objective, m, True), np.int64(g)
    bits, family, masks, letters, upper, order, starts, cursor, seen, tuning = scratch
    prune_min, probe, dense = tuning[0], tuning[1], tuning[2]
    all_green = counts.shape[0] - 1
    if m < prune_min:
        return _scan_bound(cls, PT, objective, bits, all_green), np.int64(-1)
    n_guesses = P.shape[0]
    superset_counts(cls, family, masks, letters, upper)
    # guesses by their upper bound (capped at m), highest first: a counting sort, level index
    # r holding the level top − r
    top = min(m, counts.shape[0])
    starts[:top + 2] = 0
    for h in range(n_guesses):
        starts[top - min(np.int64(upper[h]), top) + 1] += 1
    for r in range(top + 1):
        starts[r + 1] += starts[r]
        cursor[r] = starts[r]
    for h in range(n_guesses):
        r = top - min(np.int64(upper[h]), top)
        order[cursor[r]] = h
        cursor[r] += 1
    best = np.int64(INF)
    green_word = all_green >> 6
    green_bit = np.uint64(all_green & 63)
    # order[:starts[useful]] are the guesses whose upper bound can beat best (level ≥ 2)
    useful = max(top - 1, 0)
    probed = 0
    while probed < starts[useful] and probed < probe:
        k, green = _guess_classes(P[order[probed]], cls, seen, green_word, green_bit)
        probed += 1
        if k >= 2:
            b = guess_bound(objective, m, k, green)
            if b < best:
                best = b
                while useful > 0 and guess_bound(objective, m, top - (useful - 1), 1) >= best:
                    useful -= 1
    if probed >= starts[useful]:
        return best, np.int64(-1)
    # the rest: one pass over the class's rows, reading only the guesses (by index, for
    # locality) whose upper bound reaches the lowest level that can still beat best
    lowest = top - (useful - 1)
    n_cand = 0
    for h in range(n_guesses):
        if upper[h] >= lowest:
            order[n_cand] = h
            n_cand += 1
    if n_cand * dense > n_guesses:  # a gather per guess costs more than reading them all
        return min(best, _scan_bound(cls, PT, objective, bits, all_green)), np.int64(-1)
    return min(best, _least_guess_bound(cls, PT, order, n_cand, objective, bits, all_green)), np.int64(-1)


@njit(cache=True)
def _least_guess_bound(cls, PT, guesses, n, objective, bits, all_green):
    """The least per-guess bound (docs/algorithms.md §9.2) over the guesses ``guesses[:n]``
    on class ``cls``, ``INF`` if none splits it: one pass over the class's rows of ``PT``,
    one bit per guess and pattern in ``bits`` (≥ n rows)."""
    column_bits(PT, cls, guesses[:n], bits)
    return _least_from_bits(bits, n, cls.shape[0], objective, all_green)


@njit(cache=True)
def _least_from_bits(bits, n, m, objective, all_green):
    """The least per-guess bound over the first ``n`` rows of ``bits`` (one bit per pattern a
    guess shows on an ``m``-answer class), ``INF`` if no row splits the class."""
    green_word = all_green >> 6
    green_bit = np.uint64(all_green & 63)
    best = np.int64(INF)
    for t in range(n):
        k = bits_set(bits[t])
        if k < 2:
            continue
        green = np.int64((bits[t, green_word] >> green_bit) & np.uint64(1))
        b = guess_bound(objective, m, k, green)
        if b < best:
            best = b
    return best


@njit(cache=True)
def class_bound_allowed(cls, allowed, P, PT, guess_of_answer, objective, bits, counts):
    """Hard mode's depth-one lower bound on class ``cls``: :func:`class_bound` with the least
    taken over the guesses ``allowed`` (int32 guess indices: those the class's constraint
    allows) instead of every guess (docs/algorithms.md §10.1). Valid because the class's
    value is a least over the allowed guesses only; a guess that does not split the class is
    skipped as in :func:`class_bound` (it is never needed). ``bits`` needs ≥ ``len(allowed)``
    rows. Returns ``(bound, guess)`` as :func:`class_bound` (an answer of the class is always
    allowed, so its splitter is the same)."""
    m = cls.shape[0]
    if m <= SPLITTER_MAX:
        g = _answer_splitter(cls, P, guess_of_answer, counts)
        if g >= 0:
            return split_value(objective, m, True), np.int64(g)
    return (_least_guess_bound(cls, PT, allowed, allowed.shape[0], objective, bits, counts.shape[0] - 1),
            np.int64(-1))


# nogil: a dask worker's event loop (another thread of the process) takes its next task and
# reports the last one while this runs, instead of queueing them until it returns.
@njit(cache=True, nogil=True)
def opener_value(g, d, beta, P, PT, guess_of_answer, zobrist1, zobrist2, search, scratch,
                 objective, mode, deep, rules):
    """Bound or fail-soft value of playing guess ``g`` first on every answer, d ≥ 3 guesses.

    Without ``deep``: the opener's depth-one bound (:func:`class_bound` for each class),
    stopped as soon as it reaches ``beta`` (so a result ≥ ``beta`` is a bound, not the full
    sum); the memo is not read, so the result depends only on the arguments. With ``deep``:
    the exact Q-value if it is < ``beta``, else a proven lower bound ≥ ``beta`` (fail-soft,
    §4.1); ``INF`` if g cannot win every game in d guesses. ``search`` is
    :func:`solver.exact._search_kernel.new_search`'s (memo, workspace, stats) of depth ≥ d;
    ``scratch`` from :func:`new_bound_scratch`; ``rules`` as for
    :func:`solver.exact._search_kernel.solve_state` (hard mode: each class is searched over
    the guesses its feedback allows; without ``deep`` its bound is the one over every guess,
    still valid, so the bounds a proof reports do not depend on the rule; with ``deep`` it is
    :func:`class_bound_allowed`, over the allowed guesses, and the classes left open are
    searched fewest allowed guesses first, docs/algorithms.md §10.1; ultra-hard mode the same
    with the guesses consistent with g's feedback, §10.5). Returns an int64."""
    memo, ws, stats = search
    n = P.shape[1]
    S = np.arange(n).astype(np.int32)
    hard = mode == HARD_MODE
    ultra = mode == ULTRA_MODE
    restricted = hard or ultra
    letters = rules.letters
    constraints = ws.constraints
    root_constraint = empty_constraint()
    everything = np.arange(P.shape[0]).astype(np.int32)
    root1 = np.uint64(0)
    root2 = np.uint64(0)
    if ultra:  # the history key of the empty history (every guess allowed)
        root1, root2 = ultra_root_key(everything)
    hash1, hash2 = np.uint64(0), np.uint64(0)
    if hard:  # the empty constraint's hash, which each class's key tightens (class_key)
        hash1, hash2 = constraint_hash(root_constraint, rules.ckeys1, rules.ckeys2)
    counts = ws.counts[d]
    k, sumsq, green = _split_stats(P[g], S, counts)
    running = guess_bound(objective, n, k, green)
    if running >= beta or (k == 1 and not deep):
        return running
    if k == 1:  # g tells nothing: the whole set again with a guess fewer
        return evaluate_guess(S, g, d, beta, P, guess_of_answer, zobrist1, zobrist2, search,
                              objective, mode, rules, root_constraint, everything)
    k = partition_at(ws, d, P[g], S)
    members, starts, present = ws.members[d], ws.starts[d], ws.present[d]
    bounds, open_classes = ws.bounds[d], ws.open_classes[d]
    all_green = counts.shape[0] - 1
    # classes of ≥ 3 answers (smaller ones are exact in the per-guess bound), largest first
    n_open = 0
    for c in range(k):
        m = starts[c + 1] - starts[c]
        if present[c] == all_green or m <= 2:
            continue
        insert_largest_first(open_classes, n_open, starts, c)
        n_open += 1
    allowed = np.empty(P.shape[0], dtype=np.int32)
    n_allowed = 0
    allowed_of = np.zeros(counts.shape[0], dtype=np.int64)  # hard mode: a class's allowed guesses
    # Cheap pass: every class's bound (memo, else the depth-one scan), largest first.
    n_deep = 0
    for a in range(n_open):
        c = open_classes[a]
        m = starts[c + 1] - starts[c]
        cls = members[starts[c]:starts[c + 1]]
        base = class_base(objective, m)
        h1, h2 = class_key(cls, g, present[c], all_green + 1, zobrist1, zobrist2, mode, rules,
                           root_constraint, hash1, hash2, root1, root2)
        meta = memo_meta(m, d - 1, objective, mode)
        # Only the search reads the memo: a bound alone must not depend on what this worker
        # solved before, so that the openers table is the same however the work was split.
        slot = memo_find(memo, h1, h2, meta) if deep else np.int64(-1)
        known = np.int64(-1)
        if slot >= 0:
            known = memo.value[slot]
            if memo.extra[slot] >= 0:  # exact
                running = tighten(objective, running, base, known)
                if running >= beta:
                    return running
                continue
        if restricted and deep:
            # the search's bound may be hard mode's own, over the guesses the class's
            # constraint allows (tighter); the bound alone stays the one over every guess, so
            # the bounds the openers table reports do not change with this
            if hard:
                tighten_constraint(root_constraint, letters[g], present[c], constraints[d - 1])
                n_allowed = filter_allowed_packed(constraints[d - 1], rules.packed, letters.shape[1],
                                                  everything, allowed)
            else:
                n_allowed = filter_consistent(letters, g, present[c], everything, allowed)
            lb, splitter = class_bound_allowed(cls, allowed[:n_allowed], P, PT, guess_of_answer,
                                               objective, scratch[0], counts)
        else:
            lb, splitter = class_bound(cls, P, PT, guess_of_answer, objective, scratch, counts)
        if splitter >= 0:
            memo_store(memo, h1, h2, meta, lb, splitter)
            running = tighten(objective, running, base, lb)
            if running >= beta:
                return running
            continue
        if known > lb:
            lb = known
        running = tighten(objective, running, base, lb)
        if running >= beta:
            return running
        bounds[c] = lb
        open_classes[n_deep] = c  # still open, in the same (largest first) order
        n_deep += 1
        if restricted and deep:
            allowed_of[c] = n_allowed
    if not deep:
        return running
    if restricted:
        # hard mode: the classes whose constraint allows the fewest guesses first (cheap to
        # search, and where hard mode costs most above the bound), then largest first
        for a in range(1, n_deep):
            c = open_classes[a]
            b = a - 1
            while b >= 0 and allowed_of[open_classes[b]] > allowed_of[c]:
                open_classes[b + 1] = open_classes[b]
                b -= 1
            open_classes[b + 1] = c
    for a in range(n_deep):
        c = open_classes[a]
        candidates = everything
        if hard:
            tighten_constraint(root_constraint, letters[g], present[c], constraints[d - 1])
            candidates = allowed[:filter_allowed_packed(constraints[d - 1], rules.packed, letters.shape[1],
                                                        everything, allowed)]
        elif ultra:
            s1, s2 = ultra_step_key(g, present[c], all_green + 1)
            ws.history_keys[d - 1, 0] = root1 + s1
            ws.history_keys[d - 1, 1] = root2 + s2
            candidates = allowed[:filter_consistent(letters, g, present[c], everything, allowed)]
        running = search_class(members[starts[c]:starts[c + 1]], d - 1, beta, running,
                               bounds[c], candidates, P, guess_of_answer, zobrist1, zobrist2,
                               search, objective, mode, rules)
        if running >= beta:
            return running
    return running

