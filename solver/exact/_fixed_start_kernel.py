"""numba kernels of the fixed-start proof: the value of a sequence of guesses played blind
(each whatever the colours of the ones before), then optimal play (docs/algorithms.md §9.6).

For a prefix ``p₀ … p_{j−1}`` of distinct guesses played blind on the answers ``A`` with a
guess limit ``L``, every answer ``a`` falls in the class of its joint feedback
``(f(p₀, a), …, f(p_{j−1}, a))``. An answer that is a prefix word ``p_i`` is found at guess
``i + 1`` (its class is ``{p_i}``, the first all-green component); every other answer has paid
``j`` guesses and its class ``C`` is then played optimally with ``d = L − j`` guesses left:

    T(p) = Σ_{i : p_i ∈ A} (i + 1) + Σ_{C ≠ green} (j·|C| + V*(C, d))

- :func:`prefix_classes`: the joint classes (one stable sort of the joint codes).
- :func:`prefix_bound`: a lower bound on ``T(p)``, each class bounded by the depth-one bound of
  :func:`solver.exact._opener_kernel.class_bound` (§9.2), classes largest first, stopped as
  soon as the sum reaches ``beta``.
- :func:`row_bounds`: for one prefix and many last words ``h``, lower bounds on ``T(p + h)``,
  each as cheap as it can be: the per-guess bound per class of ``p`` (§9.6 (b), one scan of the
  prefix's classes for every ``h`` at once), then the answer-splitter bound of the joint
  classes (§9.6 (c)), then :func:`prefix_bound`.
- :func:`prefix_value`: ``T(p)`` exactly if it is below ``beta``, else a proven lower bound
  ``≥ beta`` (fail-soft): the joint classes searched largest first with the search of §4, on
  gathered copies of their columns, with the cut-off left to the prefix.

Hard mode (§9.6): a word played blind must be allowed after *every* colouring the words before
it can show on an answer (:func:`blind_allowed`); a class's constraint is its history's
(:func:`class_constraint`). Total objective (the API refuses the others).
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

from solver.exact._family_kernel import bits_set, column_bits
from solver.exact._objective_kernel import INF
from solver.exact._opener_kernel import class_bound
from solver.exact._search_kernel import _answer_splitter, search_class
from solver.game._hard_mode_kernel import (HARD_MODE, empty_constraint, filter_allowed_packed,
                                            mode_state_key, tighten_constraint)
from solver.game._memo_kernel import memo_find, memo_meta, memo_store


@njit(cache=True)
def prefix_classes(prefix, P, n_patterns):
    """The joint classes of the guesses ``prefix`` (int32[j], distinct guess indices, j ≥ 1,
    ``n_patterns ** j`` < 2⁶³) over every answer of the feedback table ``P`` [n_guesses,
    n_answers].

    Returns ``(members, starts, found_at)``: class c is ``members[starts[c]:starts[c + 1]]``
    (int32 answer indices, ascending), classes in ascending joint code; ``found_at[c]`` is
    ``i + 1`` if the class is the answer ``prefix[i]`` (found by the prefix's guess i + 1), 0
    for a class still to be played."""
    n = P.shape[1]
    j = prefix.shape[0]
    all_green = n_patterns - 1
    codes = np.zeros(n, dtype=np.int64)
    found = np.zeros(n, dtype=np.int64)
    for i in range(j):
        row = P[prefix[i]]
        for a in range(n):
            f = row[a]
            codes[a] = codes[a] * n_patterns + f
            if f == all_green and found[a] == 0:
                found[a] = i + 1
    order = np.argsort(codes, kind="mergesort")
    members = order.astype(np.int32)
    starts = np.empty(n + 1, dtype=np.int64)
    found_at = np.zeros(n, dtype=np.int64)
    k = 0
    for i in range(n):
        if i == 0 or codes[order[i]] != codes[order[i - 1]]:
            starts[k] = i
            found_at[k] = found[order[i]]
            k += 1
    starts[k] = n
    return members, starts[:k + 1].copy(), found_at[:k].copy()


@njit(cache=True)
def class_constraint(prefix, answer, P, letters, out):
    """Write into ``out`` (int8[WIDTH]) the hard-mode constraint after the guesses ``prefix``
    scored as on ``answer`` (any answer of the class: they all score alike); returns ``out``."""
    current = empty_constraint()
    for i in range(prefix.shape[0]):
        tighten_constraint(current, letters[prefix[i]], P[prefix[i], answer], out)
        current[:] = out
    out[:] = current
    return out


@njit(cache=True)
def blind_allowed(prefix, candidates, P, letters, packed, n_patterns):
    """The guesses of ``candidates`` (int32, in their order) that hard mode allows after the
    guesses ``prefix`` whatever their colours: allowed by the constraint of every joint class
    of the answers that no prefix word wins (§9.6). ``letters`` and ``packed`` are the
    guesses' (:class:`~solver.exact.inputs.SearchRules`). Returns an int32 array."""
    members, starts, found_at = prefix_classes(prefix, P, n_patterns)
    allowed = candidates.copy()
    n = allowed.shape[0]
    out = np.empty(n, dtype=np.int32)
    constraint = empty_constraint()
    for c in range(found_at.shape[0]):
        if found_at[c] > 0 or n == 0:
            continue
        class_constraint(prefix, members[starts[c]], P, letters, constraint)
        n = filter_allowed_packed(constraint, packed, letters.shape[1], allowed[:n], out)
        allowed[:n] = out[:n]
    return allowed[:n].copy()


@njit(cache=True)
def _small_value(m, d):
    """V*(C, d) of a class of m ≤ 2 answers."""
    if m == 1:
        return np.int64(1) if d >= 1 else np.int64(INF)
    return np.int64(3) if d >= 2 else np.int64(INF)


@njit(cache=True)
def _found_and_left(starts, found_at):
    """``(found, left)`` of a prefix's joint classes (:func:`prefix_classes`): the guesses
    the answers won by a prefix word took (Σ ``found_at``), and how many answers the other
    classes hold (each has paid the j prefix guesses and is still to be found)."""
    found = np.int64(0)
    left = np.int64(0)
    for c in range(found_at.shape[0]):
        if found_at[c] > 0:
            found += found_at[c]
        else:
            left += starts[c + 1] - starts[c]
    return found, left


@njit(cache=True)
def _largest_first(starts, found_at):
    """The classes still to be played (``found_at`` 0), largest first (ties in code order)."""
    k = found_at.shape[0]
    sizes = np.empty(k, dtype=np.int64)
    n_open = 0
    index = np.empty(k, dtype=np.int64)
    for c in range(k):
        if found_at[c] == 0:
            index[n_open] = c
            sizes[n_open] = -(starts[c + 1] - starts[c])
            n_open += 1
    order = np.argsort(sizes[:n_open], kind="mergesort")
    return index[:n_open][order]


@njit(cache=True)
def prefix_bound(prefix, d, beta, P, PT, guess_of_answer, objective, scratch, counts):
    """A lower bound on ``T(prefix)`` with ``d`` guesses left after the prefix (module
    docstring): each class of ≤ 2 answers exact, each larger one by :func:`class_bound`
    (§9.2); classes largest first, returned as soon as the running sum reaches ``beta`` (then a
    bound ≥ ``beta``, not the full sum). ``scratch`` from
    :func:`solver.exact._opener_kernel.new_bound_scratch`; ``counts`` int32[n_patterns] zero
    scratch. Reads no memo. Returns an int64 (``INF`` when some class cannot be won in d)."""
    j = prefix.shape[0]
    members, starts, found_at = prefix_classes(prefix, P, counts.shape[0])
    found, left = _found_and_left(starts, found_at)
    running = found + j * left
    for c in _largest_first(starts, found_at):
        m = starts[c + 1] - starts[c]
        if m <= 2 or d <= 1:
            v = _small_value(m, d) if m <= 2 else np.int64(INF)
        else:
            v, _ = class_bound(members[starts[c]:starts[c + 1]], P, PT, guess_of_answer, objective,
                               scratch, counts)
        if v >= INF:
            return np.int64(INF)
        running += v
        if running >= beta:
            return running
    return running


@njit(cache=True)
def _sub_bound(cls, row, d, P, guess_of_answer, tally, present, buffer, counts):
    """Σ over the classes of ``cls`` under one guess ``row`` (all-green aside) of their lower
    bound with ``d`` guesses left: 1 for one answer, 3 for two, ``2m − 1`` if one of its answers
    splits it into singletons, else ``2m`` (§3.1, §3.3); ``INF`` if a class cannot be won.
    ``tally`` int32[n_patterns] zero scratch (zeroed again), ``present``, ``buffer`` int32
    scratch of ≥ |cls| entries, ``counts`` int32[n_patterns] zero scratch."""
    m = cls.shape[0]
    all_green = tally.shape[0] - 1
    n_present = 0
    for i in range(m):
        f = row[cls[i]]
        if tally[f] == 0:
            present[n_present] = f
            n_present += 1
        tally[f] += 1
    total = np.int64(0)
    large = False
    for t in range(n_present):
        f = present[t]
        size = tally[f]
        if f == all_green:
            continue
        if size >= 3:
            large = True
            if d <= 1:
                total = np.int64(INF)
        elif size == 2:
            total += 3 if d >= 2 else INF
        else:
            total += 1 if d >= 1 else INF
    if large and total < INF:
        # gather the large classes, then look for an answer splitter in each
        offset = 0
        for t in range(n_present):
            f = present[t]
            size = tally[f]
            tally[f] = offset  # becomes the write cursor
            offset += size
        for i in range(m):
            f = row[cls[i]]
            buffer[tally[f]] = cls[i]
            tally[f] += 1
        start = 0
        for t in range(n_present):
            f = present[t]
            end = tally[f]
            size = end - start
            if size >= 3 and f != all_green:
                split = _answer_splitter(buffer[start:end], P, guess_of_answer, counts)
                total += 2 * size - 1 if split >= 0 else 2 * size
            start = end
    for t in range(n_present):
        tally[present[t]] = 0
    return total


# nogil: a dask worker's event loop runs beside it (see solver.exact._opener_kernel.opener_value)
@njit(cache=True, nogil=True)
def row_bounds(prefix, last, d, beta, P, PT, guess_of_answer, objective, scratch, counts, cheap):
    """Lower bounds on ``T(prefix + h)`` for every guess ``h`` of ``last`` (int32, none of
    them in ``prefix``), ``d`` guesses left after ``prefix + h``, each stopped at ``beta``.

    Three bounds, each computed only for the ``h`` the one before leaves under ``beta``
    (docs/algorithms.md §9.6):

    (b) per class ``C`` of ``prefix``, the per-guess bound of §3.2 on playing ``h`` in it,
        ``3|C| − k_h(C) − [h ∈ C]``, so ``T ≥ base + (j + 3)·r − Σ_C k_h(C) − [h ∈ A]``
        (``r`` answers still to find after the prefix); the class counts of every guess on
        every class come from one pass over the class's rows of ``PT`` (a bit per feedback);
    (c) the joint classes of ``prefix + h``: ``j + 1`` guesses each, plus 1, 3, ``2m − 1``
        (an answer splits it) or ``2m`` (none does) (§3.1, §3.3);
    (d) :func:`prefix_bound` of ``prefix + h``.

    Returns int64[len(last)]: a bound ≥ ``beta``, or (d)'s full bound when it is under ``beta``;
    with ``cheap``, (b) alone for every ``h`` (the seed's ranking). Reads no memo."""
    n_guesses = P.shape[0]
    n = P.shape[1]
    j = prefix.shape[0]
    n_patterns = counts.shape[0]
    members, starts, found_at = prefix_classes(prefix, P, n_patterns)
    base, r = _found_and_left(starts, found_at)
    is_answer = np.zeros(n_guesses, dtype=np.int64)
    for a in range(n):
        is_answer[guess_of_answer[a]] = 1
    for i in range(j):
        is_answer[prefix[i]] = 0  # found in its own class, not in a class still to play
    # (b): Σ_C k_h(C) for every guess h
    bits = scratch[0]
    classes_of = np.zeros(n_guesses, dtype=np.int64)
    for c in range(found_at.shape[0]):
        if found_at[c] > 0:
            continue
        m = starts[c + 1] - starts[c]
        if m == 1:
            for h in range(n_guesses):
                classes_of[h] += 1
            continue
        if m == 2:
            first = PT[members[starts[c]]]
            second = PT[members[starts[c] + 1]]
            for h in range(n_guesses):
                classes_of[h] += 2 if first[h] != second[h] else 1
            continue
        column_bits(PT, members[starts[c]:starts[c + 1]], None, bits)
        for h in range(n_guesses):
            classes_of[h] += bits_set(bits[h])
    out = np.empty(last.shape[0], dtype=np.int64)
    tally = np.zeros(n_patterns, dtype=np.int32)
    present = np.empty(n, dtype=np.int32)
    buffer = np.empty(n, dtype=np.int32)
    extended = np.empty(j + 1, dtype=np.int32)
    extended[:j] = prefix
    for t in range(last.shape[0]):
        h = last[t]
        bound = base + (j + 3) * r - classes_of[h] - is_answer[h]
        if bound >= beta or cheap:
            out[t] = bound
            continue
        # (c): the joint classes, answer splitters
        row = P[h]
        bound = base + (j + 1) * r
        for c in range(found_at.shape[0]):
            if found_at[c] > 0:
                continue
            bound += _sub_bound(members[starts[c]:starts[c + 1]], row, d, P, guess_of_answer,
                                tally, present, buffer, counts)
            if bound >= beta:
                break
        if bound >= beta:
            out[t] = min(bound, INF)
            continue
        # (d): the depth-one bound of every joint class
        extended[j] = h
        out[t] = prefix_bound(extended, d, beta, P, PT, guess_of_answer, objective, scratch, counts)
    return out


@njit(cache=True, nogil=True)
def prefix_value(prefix, d, beta, P, PT, guess_of_answer, zobrist1, zobrist2, search, scratch,
                 objective, mode, rules):
    """``T(prefix)`` with ``d`` guesses left after it (module docstring) if it is below
    ``beta``, else a proven lower bound ≥ ``beta`` (fail-soft, §4.1); ``INF`` if some class
    cannot be won in time. As :func:`solver.exact._opener_kernel.opener_value` with ``deep``,
    for the joint classes: each class's bound (memo, else :func:`class_bound`) in a cheap pass,
    then the classes still open searched largest first with ``_search`` on a gathered copy of
    their columns (global Zobrist keys, so one memo serves every prefix), each with the
    cut-off left to the prefix. ``search`` from :func:`solver.exact._search_kernel.new_search`
    (depth ≥ d); ``rules`` as for ``_search``. In hard mode (``mode``) each class carries the
    constraint of its history (:func:`class_constraint`): in its memo key and in the guesses
    its search may play; the prefix itself must be allowed blind (:func:`blind_allowed`, the
    caller's check). Returns an int64."""
    memo, ws, stats = search
    hard = mode == HARD_MODE
    letters, ckeys1, ckeys2 = rules.letters, rules.ckeys1, rules.ckeys2
    j = prefix.shape[0]
    counts = ws.counts[d]
    members, starts, found_at = prefix_classes(prefix, P, counts.shape[0])
    found, left = _found_and_left(starts, found_at)
    running = found + j * left
    order = _largest_first(starts, found_at)
    bounds = np.zeros(found_at.shape[0], dtype=np.int64)
    open_classes = np.empty(order.shape[0], dtype=np.int64)
    no_constraint = empty_constraint()
    width = no_constraint.shape[0]
    constraints = np.empty((found_at.shape[0] if hard else 0, width), dtype=np.int8)
    n_open = 0
    for c in order:  # the cheap pass: every class's bound, memo first
        m = starts[c + 1] - starts[c]
        if m <= 2 or d <= 1:
            v = _small_value(m, d) if m <= 2 else np.int64(INF)
            if v >= INF:
                return np.int64(INF)
            running += v
            if running >= beta:
                return running
            continue
        cls = members[starts[c]:starts[c + 1]]
        constraint = no_constraint  # (normal mode: not read)
        if hard:
            constraint = class_constraint(prefix, cls[0], P, letters, constraints[c])
        h1, h2 = mode_state_key(cls, zobrist1, zobrist2, mode, constraint, np.uint64(0),
                                np.uint64(0), ckeys1, ckeys2)
        meta = memo_meta(m, d, objective, mode)
        slot = memo_find(memo, h1, h2, meta)
        known = np.int64(-1)
        if slot >= 0:
            known = memo.value[slot]
            if memo.extra[slot] >= 0:  # exact
                running += known
                if running >= beta:
                    return min(running, INF)
                continue
        lb, splitter = class_bound(cls, P, PT, guess_of_answer, objective, scratch, counts)
        if splitter >= 0:
            memo_store(memo, h1, h2, meta, lb, splitter)
            running += lb
            if running >= beta:
                return running
            continue
        if known > lb:
            lb = known
        running += lb
        if lb >= INF or running >= beta:
            return min(running, INF)
        bounds[c] = lb
        open_classes[n_open] = c
        n_open += 1
    everything = np.arange(P.shape[0]).astype(np.int32)
    for a in range(n_open):  # the deep pass, largest first
        c = open_classes[a]
        candidates = everything
        if hard:
            ws.constraints[d][:] = constraints[c]
            allowed = np.empty(P.shape[0], dtype=np.int32)
            candidates = allowed[:filter_allowed_packed(constraints[c], rules.packed, letters.shape[1],
                                                        everything, allowed)]
        running = search_class(members[starts[c]:starts[c + 1]], d, beta, running, bounds[c],
                               candidates, P, guess_of_answer, zobrist1, zobrist2, search,
                               objective, mode, rules)
        if running >= beta:
            return running
    return running
