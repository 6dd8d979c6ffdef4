"""numba kernels of the heuristic policies: entropy of every guess, MIG choice, base-heuristic
totals and the rollout choice (Peiszan, Basel 2025 bachelor's thesis; Bhambri, Bhattacharjee &
Bertsekas, IEEE CoG 2023; our summary in docs/algorithms.md §8.1–8.2).

A state ``S`` is a sorted int32 array of answer indices, ``P`` the feedback table
uint8 or uint16[n_guesses, n_answers] of words of length L.

**Pattern count.** Nothing here assumes five letters: the Python wrappers pass the number of
feedback patterns ``n_patterns = 3**L`` (:func:`solver.game.spec.n_patterns`) to the functions
that allocate scratch, and the kernels read it back from the size of their ``counts`` scratch
(one slot per pattern); the all-green code is the last pattern, ``counts.shape[0] − 1``.

**Entropy key.** With ``n = |S|`` and the feedback classes ``C`` of a guess (the all-green class
included), ``H = log n − (1/n) Σ_C |C| log |C|``. For a fixed state, maximising ``H`` is
minimising the *key* ``K = Σ_C |C| log |C|`` (natural log). ``K`` is evaluated through unique
factorisation: ``K = Σ_p e_p log p`` with the integer exponents ``e_p = Σ_C |C| · v_p(|C|)``
(``v_p`` the multiplicity of the prime ``p``), summed in ascending ``p``. Two guesses whose
entropies are mathematically equal have the same exponent vector (the logs of the primes are
linearly independent over the rationals), so they get **bit-identical** keys: ties are exact
even between different class-size multisets such as {4,1,1,1,1} and {2,2,2,2}. Keys of
different exponent vectors are compared as floats (their mathematical difference is
``log(Π₁/Π₂)`` for two different integers ``Π``).

**Tie orders.** ``MIG_A``: lowest key, then lowest guess index (alphabetical). ``MIG_B``: lowest
key, then guesses in ``S`` first, then lowest index. The rollout's candidates are ranked by
lowest key, then (only with ``rank_answers_first``) in ``S`` first, then lowest index; its choice
is lowest Q-total, then lowest key (higher entropy), then in ``S``, then lowest index.

**Base-heuristic totals.** ``T(S)`` = Σ over the answers of S of the guesses the base
heuristic uses from S (the final, correct one included): ``T(S) = 1`` for ``|S| = 1``, else
``|S| + Σ_{C ≠ all-green} T(C)`` under the heuristic's guess. Computed without recursion
(an explicit stack; numba issue #6061) and memoised in a hash table keyed by the size and a
128-bit Zobrist hash of the state.
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

from solver.game._memo_kernel import memo_find, memo_store
from solver.game._memo_kernel import state_hash as _hash
from solver.game._partition_kernel import partition as _partition

#: Deepest base-heuristic game followed by :func:`base_total` (a heuristic that always
#: splits its state needs fewer than |S| levels; this bounds the stack).
MAX_DEPTH = 64


@njit(cache=True)
def factor_tables(n_max):
    """Prime data for the entropy key, for class sizes 1..``n_max``.

    Returns ``(log_primes, fac_start, fac_prime, fac_weight)``: ``log_primes`` float64[n_primes]
    the natural logs of the primes ≤ n_max in ascending order; for a size ``c``, the entries
    ``fac_start[c]:fac_start[c+1]`` list its distinct prime factors (as indices into
    ``log_primes``, ascending) and ``fac_weight = c · v_p(c)``, the class's contribution to
    ``e_p``.
    """
    n_max = max(n_max, 2)
    sieve = np.ones(n_max + 1, dtype=np.bool_)
    sieve[0] = False
    sieve[1] = False
    for i in range(2, n_max + 1):
        if sieve[i]:
            for j in range(i * i, n_max + 1, i):
                sieve[j] = False
    prime_index = np.full(n_max + 1, -1, dtype=np.int64)
    n_primes = 0
    for i in range(2, n_max + 1):
        if sieve[i]:
            prime_index[i] = n_primes
            n_primes += 1
    log_primes = np.zeros(n_primes, dtype=np.float64)
    for i in range(2, n_max + 1):
        if sieve[i]:
            log_primes[prime_index[i]] = np.log(np.float64(i))
    fac_start = np.zeros(n_max + 2, dtype=np.int64)
    total = 0
    for c in range(n_max + 1):
        fac_start[c] = total
        m = c
        p = 2
        while c >= 2 and m > 1:
            if m % p == 0:
                total += 1
                while m % p == 0:
                    m //= p
            p += 1
    fac_start[n_max + 1] = total
    fac_prime = np.zeros(total, dtype=np.int64)
    fac_weight = np.zeros(total, dtype=np.int64)
    for c in range(2, n_max + 1):
        j = fac_start[c]
        m = c
        p = 2
        while m > 1:
            if m % p == 0:
                v = 0
                while m % p == 0:
                    m //= p
                    v += 1
                fac_prime[j] = prime_index[p]
                fac_weight[j] = c * v
                j += 1
            p += 1
    return log_primes, fac_start, fac_prime, fac_weight


@njit(cache=True)
def _count_classes(row, S, counts, touched):
    """Count S's answers per feedback code of one guess row into ``counts``; the k codes
    present go to ``touched[:k]`` in order of first appearance. Returns k."""
    k = 0
    for i in range(S.shape[0]):
        c = row[S[i]]
        if counts[c] == 0:
            touched[k] = c
            k += 1
        counts[c] += 1
    return k


@njit(cache=True)
def _key_of_row(row, S, counts, touched, exps, primes_used, factors):
    """(entropy key K, number of classes) of S under one guess row; scratch arrays are left
    zeroed. ``counts`` int64[n_patterns], ``touched`` int64[n_patterns], ``exps`` int64[n_primes],
    ``primes_used`` int64[n_primes]."""
    log_primes, fac_start, fac_prime, fac_weight = factors
    k = _count_classes(row, S, counts, touched)
    m = 0
    for j in range(k):
        c = touched[j]
        size = counts[c]
        counts[c] = 0
        for f in range(fac_start[size], fac_start[size + 1]):
            p = fac_prime[f]
            if exps[p] == 0:
                primes_used[m] = p
                m += 1
            exps[p] += fac_weight[f]
    if m == 0:
        return 0.0, k
    # ascending primes: insertion sort of the (few) primes used
    for a in range(1, m):
        v = primes_used[a]
        b = a - 1
        while b >= 0 and primes_used[b] > v:
            primes_used[b + 1] = primes_used[b]
            b -= 1
        primes_used[b + 1] = v
    key = 0.0
    for a in range(m):
        p = primes_used[a]
        key += np.float64(exps[p]) * log_primes[p]
        exps[p] = 0
    return key, k


@njit(cache=True)
def entropy_keys(S, P, factors, n_patterns):
    """Entropy key K and class count of every guess over S (feedback codes < ``n_patterns``).

    Returns ``(keys float64[n_guesses], n_classes int64[n_guesses])``; the entropy in nats is
    ``log |S| − K / |S|``."""
    n_guesses = P.shape[0]
    keys = np.empty(n_guesses, dtype=np.float64)
    n_classes = np.empty(n_guesses, dtype=np.int64)
    counts, touched, exps, primes_used = new_scratch(factors[0].shape[0], n_patterns)
    for g in range(n_guesses):
        key, k = _key_of_row(P[g], S, counts, touched, exps, primes_used, factors)
        keys[g] = key
        n_classes[g] = k
    return keys, n_classes


@njit(cache=True)
def _in_state(S, answer):
    """True if ``answer`` is in the sorted state S (binary search)."""
    lo = 0
    hi = S.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if S[mid] < answer:
            lo = mid + 1
        else:
            hi = mid
    return lo < S.shape[0] and S[lo] == answer


@njit(cache=True)
def _mig_choose(S, P, guess_of_answer, answer_of_guess, answers_first, factors, scratch):
    """The MIG guess of S (|S| ≥ 2): lowest key, then (MIG_B) in S first, then lowest index.

    Exact shortcut: K = 0 (all classes singletons) is the least possible key, so the first
    guess reaching it in the tie order is the answer; MIG_B therefore scans the members of S
    first."""
    counts, touched, exps, primes_used = scratch
    n = S.shape[0]
    n_guesses = P.shape[0]
    best_key = np.inf
    best_g = -1
    if answers_first:
        for i in range(n):
            g = guess_of_answer[S[i]]
            key, k = _key_of_row(P[g], S, counts, touched, exps, primes_used, factors)
            if k == n:
                return g
            if key < best_key:  # members in ascending index: first of equal keys is kept
                best_key = key
                best_g = g
    for g in range(n_guesses):
        if answers_first:
            a = answer_of_guess[g]
            if a >= 0 and _in_state(S, a):
                continue  # members were scored above
        key, k = _key_of_row(P[g], S, counts, touched, exps, primes_used, factors)
        if k == n:
            return g  # no earlier guess (and, for MIG_B, no member) splits S into singletons
        if key < best_key:
            best_key = key
            best_g = g
    return best_g


@njit(cache=True)
def new_scratch(n_primes, n_patterns):
    """Scratch arrays of the key computation (counts, touched, exps, primes_used): one slot
    per feedback pattern (``3**L``) in counts and touched, one per prime in the others."""
    return (np.zeros(n_patterns, dtype=np.int64), np.zeros(n_patterns, dtype=np.int64),
            np.zeros(n_primes, dtype=np.int64), np.zeros(n_primes, dtype=np.int64))


@njit(cache=True)
def mig_choose(S, P, guess_of_answer, answer_of_guess, answers_first, factors, n_patterns):
    """MIG_A (``answers_first`` False) or MIG_B (True) guess index for a state of ≥ 2 answers
    (feedback codes < ``n_patterns``)."""
    scratch = new_scratch(factors[0].shape[0], n_patterns)
    return _mig_choose(S, P, guess_of_answer, answer_of_guess, answers_first, factors, scratch)


# ---------------------------------------------------------------------------------------------
# memo of base-heuristic totals: the shared table of solver.game._memo_kernel, meta = |S|, value = total


@njit(cache=True)
def _memo_find(memo, h1, h2, size):
    """The stored base-heuristic total of the state, or -1."""
    slot = memo_find(memo, h1, h2, size)
    if slot < 0:
        return np.int64(-1)
    return memo.value[slot]


@njit(cache=True)
def _memo_store(memo, h1, h2, size, total):
    memo_store(memo, h1, h2, size, total, 0)


@njit(cache=True)
def new_workspace(n_answers, n_patterns):
    """Per-level buffers of :func:`base_total`'s explicit stack (``n_patterns`` = 3**L). A
    state splits into at most min(3**L, n_answers) classes, which bounds a level's width."""
    width = min(n_patterns, n_answers)
    return (
        np.zeros((MAX_DEPTH + 1, n_answers), dtype=np.int32),  # members by class
        np.zeros((MAX_DEPTH + 1, width + 1), dtype=np.int64),  # class starts
        np.zeros((MAX_DEPTH + 1, width), dtype=np.int64),  # codes present
        np.zeros(MAX_DEPTH + 1, dtype=np.int64),  # number of classes
        np.zeros(MAX_DEPTH + 1, dtype=np.int64),  # next class to visit
        np.zeros(MAX_DEPTH + 1, dtype=np.int64),  # running total
        np.zeros((MAX_DEPTH + 1, 2), dtype=np.uint64),  # state hash
        np.zeros(MAX_DEPTH + 1, dtype=np.int64),  # parent level's class index (unused)
    )


@njit(cache=True)
def base_total(S, P, guess_of_answer, answer_of_guess, answers_first, factors, zobrist1,
               zobrist2, memo, ws, scratch):
    """T(S): total guesses the base heuristic (MIG_A / MIG_B) uses over every answer of S.

    Returns -1 if a game goes deeper than ``MAX_DEPTH`` levels (cannot happen for MIG, whose
    guess always splits a state of ≥ 2 answers). ``ws`` and ``scratch`` come from
    :func:`new_workspace` and :func:`new_scratch` with the same pattern count."""
    n = S.shape[0]
    if n == 1:
        return np.int64(1)
    if n == 2 and answers_first:
        return np.int64(3)
    h1, h2 = _hash(S, zobrist1, zobrist2)
    found = _memo_find(memo, h1, h2, n)
    if found >= 0:
        return found
    members, starts, present, n_classes, next_class, acc, hashes, _unused = ws
    counts = scratch[0]
    all_green = counts.shape[0] - 1  # the last pattern
    # level 0 is S itself; level L+1 is a class of level L (a slice of members[L])
    level = 0
    cur = S
    hashes[0, 0] = h1
    hashes[0, 1] = h2
    while True:
        # first visit of `cur` at `level`: choose, partition
        n_cur = cur.shape[0]
        g = _mig_choose(cur, P, guess_of_answer, answer_of_guess, answers_first, factors, scratch)
        k = _partition(P[g], cur, counts, members[level], starts[level], present[level])
        n_classes[level] = k
        next_class[level] = 0
        acc[level] = n_cur
        # advance: visit the children of `level`, descending where a child is unknown
        while True:
            j = next_class[level]
            if j >= n_classes[level]:
                total = acc[level]
                if level == 0:
                    _memo_store(memo, hashes[0, 0], hashes[0, 1], n, total)
                    return total
                size = starts[level - 1, next_class[level - 1] + 1] - starts[level - 1, next_class[level - 1]]
                _memo_store(memo, hashes[level, 0], hashes[level, 1], size, total)
                level -= 1
                acc[level] += total
                next_class[level] += 1
                continue
            if present[level, j] == all_green:
                next_class[level] = j + 1
                continue
            lo = starts[level, j]
            hi = starts[level, j + 1]
            size = hi - lo
            if size == 1:
                acc[level] += 1
                next_class[level] = j + 1
                continue
            if size == 2 and answers_first:
                acc[level] += 3
                next_class[level] = j + 1
                continue
            child = members[level, lo:hi]
            c1, c2 = _hash(child, zobrist1, zobrist2)
            value = _memo_find(memo, c1, c2, size)
            if value >= 0:
                acc[level] += value
                next_class[level] = j + 1
                continue
            if level + 1 > MAX_DEPTH:
                return np.int64(-1)
            level += 1
            hashes[level, 0] = c1
            hashes[level, 1] = c2
            cur = child
            break


@njit(cache=True)
def _top_ranked(keys, member, answers_first, m):
    """The first ``m`` guesses in the order (key ascending, [answers first among ties], index ascending)."""
    order = np.argsort(keys, kind="mergesort")  # stable: index order within equal keys
    out = np.empty(m, dtype=np.int64)
    if not answers_first:
        for i in range(m):
            out[i] = order[i]
        return out
    filled = 0
    i = 0
    n_guesses = keys.shape[0]
    while filled < m and i < n_guesses:
        j = i + 1
        while j < n_guesses and keys[order[j]] == keys[order[i]]:
            j += 1
        for want in (1, 0):  # members of this equal-key group first, then the others
            for t in range(i, j):
                if filled < m and member[order[t]] == want:
                    out[filled] = order[t]
                    filled += 1
        i = j
    return out


@njit(cache=True)
def rollout_choose(S, P, guess_of_answer, answer_of_guess, answers_first, rank_answers_first,
                   n_candidates, factors, zobrist1, zobrist2, memo, ws, n_patterns):
    """Rollout_n choice at S (|S| ≥ 2) with MIG base heuristic.

    Candidates: the ``n_candidates`` first guesses in the order (lowest key, then — with
    ``rank_answers_first`` — in S first, then lowest index); ``answers_first`` selects the base
    heuristic (MIG_B if True). Each candidate's Q-total is
    ``|S| + Σ_{C ≠ all-green} T(C)`` (exact, over every answer of S; Q-factor = Q-total / |S|).
    ``ws`` is :func:`new_workspace` with the same ``n_patterns`` (3**L).
    Returns ``(guess, candidates int64[m], q_totals int64[m], keys float64[m])`` with the
    candidates in their rank order."""
    n = S.shape[0]
    n_guesses = P.shape[0]
    all_green = n_patterns - 1
    keys, _ = entropy_keys(S, P, factors, n_patterns)
    member = np.zeros(n_guesses, dtype=np.int64)
    for i in range(n):
        member[guess_of_answer[S[i]]] = 1
    m = min(n_candidates, n_guesses)
    candidates = _top_ranked(keys, member, rank_answers_first, m)
    q_totals = np.zeros(m, dtype=np.int64)
    cand_keys = np.zeros(m, dtype=np.float64)
    scratch = new_scratch(factors[0].shape[0], n_patterns)
    counts = np.zeros(n_patterns, dtype=np.int64)
    members = np.zeros(n, dtype=np.int32)
    width = min(n_patterns, n)  # at most this many classes
    starts = np.zeros(width + 1, dtype=np.int64)
    present = np.zeros(width, dtype=np.int64)
    best = -1
    for c in range(m):
        g = candidates[c]
        cand_keys[c] = keys[g]
        k = _partition(P[g], S, counts, members, starts, present)
        q = np.int64(n)
        for j in range(k):
            if present[j] == all_green:
                continue
            child = members[starts[j]:starts[j + 1]].copy()
            t = base_total(child, P, guess_of_answer, answer_of_guess, answers_first, factors,
                           zobrist1, zobrist2, memo, ws, scratch)
            if t < 0:
                q = np.int64(1) << 40
                break
            q += t
        q_totals[c] = q
        if best < 0:
            best = c
        else:
            b = best
            if q < q_totals[b]:
                best = c
            elif q == q_totals[b]:
                if keys[g] < keys[candidates[b]]:
                    best = c
                elif keys[g] == keys[candidates[b]]:
                    if member[g] > member[candidates[b]]:
                        best = c
                    elif member[g] == member[candidates[b]] and g < candidates[b]:
                        best = c
    return candidates[best], candidates, q_totals, cand_keys


@njit(cache=True)
def float_entropies(S, P, n_patterns):
    """Entropy in bits of every guess over S computed the plain floating-point way,
    ``−Σ p log2 p`` with ``p = |C| / |S|`` summed over the feedback codes (< ``n_patterns``)
    in **descending** order: float64[n_guesses]. Mathematically equal entropies may differ in
    the last bits. Used only by the "float" tie reading of MIG (see :mod:`solver.policies.mig`).

    The codes present are visited either by a scan of every pattern or, when they are few
    compared with the patterns (long words), by sorting them: the same order, the same sum."""
    n = S.shape[0]
    n_guesses = P.shape[0]
    out = np.empty(n_guesses, dtype=np.float64)
    counts = np.zeros(n_patterns, dtype=np.int64)
    touched = np.zeros(n_patterns, dtype=np.int64)
    for g in range(n_guesses):
        row = P[g]
        k = _count_classes(row, S, counts, touched)
        h = 0.0
        if k * k < n_patterns:
            # descending codes: insertion sort of the (few) codes present
            for a in range(1, k):
                v = touched[a]
                b = a - 1
                while b >= 0 and touched[b] < v:
                    touched[b + 1] = touched[b]
                    b -= 1
                touched[b + 1] = v
            for a in range(k):
                c = touched[a]
                p = counts[c] / n
                h -= p * np.log2(p)
                counts[c] = 0
        else:
            for c in range(n_patterns - 1, -1, -1):
                m = counts[c]
                if m > 0:
                    p = m / n
                    h -= p * np.log2(p)
                    counts[c] = 0
        out[g] = h
    return out


@njit(cache=True)
def mig_choose_float(S, P, guess_of_answer, answer_of_guess, answers_first, n_patterns):
    """MIG guess under the "float" tie reading: the highest :func:`float_entropies` value,
    ties (bit-equal floats only) by lowest index, MIG_B preferring members of S first."""
    h = float_entropies(S, P, n_patterns)
    best = -1
    best_member = False
    for g in range(P.shape[0]):
        a = answer_of_guess[g]
        member = a >= 0 and _in_state(S, a)
        if best < 0 or h[g] > h[best]:
            best = g
            best_member = member
        elif h[g] == h[best] and answers_first and member and not best_member:
            best = g
            best_member = True
    return best
