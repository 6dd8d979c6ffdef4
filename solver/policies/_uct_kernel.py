"""numba kernels of the UCT policy: the search tree in preallocated arrays, the base heuristic
(MIG_A / MIG_B) memoised by state, and a seeded random generator.

Everything here is iterative (no recursion: numba #6061) and allocation-free inside the
rollout loop. The rules implemented (successor sets, UCB, tie-breaks, costs) are specified
in :mod:`solver.policies.uct`; this module documents only the data layout.

**State memo** (shared by every search in a process; it caches pure functions of the state,
so its contents never change a result, only the time). Key: the state's size and its 128-bit
Zobrist hash (two 64-bit sums of per-answer keys, as in the exact solver). Value, from one
pass over all guesses (:func:`scan_state`): the base heuristic's choice and the ``n_top``
best guesses by entropy (the successor ranking). Open addressing with a probe window of
``PROBE`` slots; a full window overwrites its home slot.

**Search tree** (one per decision, sized for ``n_rollouts``):

- decision node ``d`` (a state): its answers ``pool[d_start[d] : d_start[d] + d_len[d]]``,
  visits ``d_visits[d]``, successor slots ``d_succ0[d] .. d_succ0[d] + d_nsucc[d] − 1`` of
  which the first ``d_nvis[d]`` have been visited (they are expanded in order);
- successor slot ``k`` (a guess played at its decision node = a chance node over feedback):
  ``s_guess[k]``, visits ``s_visits[k]``, cost sum ``s_cost[k]`` (integer guesses, so
  averages compare exactly by cross-multiplication);
- the decision node reached from slot ``k`` by feedback ``p``: a hash map keyed by
  ``k · n_patterns + p`` (``n_patterns = 3**L`` feedback patterns of words of length L, read
  from the size of the scan workspace's ``counts`` scratch; the all-green code is
  ``n_patterns − 1``).

Each rollout creates at most one decision node, so ``n_rollouts + 1`` decision nodes and
``(n_rollouts + 1) · (n_top + O threshold)`` successor slots always suffice.
"""

from collections import namedtuple

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)
from solver.game._random_kernel import splitmix64  # noqa: F401  (also used by the other policy kernels)

from solver.policies._policy_kernel import _key_of_row, new_scratch

PROBE = 8
#: States of at most this many answers are scanned through the answer-major table.
SMALL_STATE = 24

# stats array layout returned by uct_search
STAT_ROLLOUTS = 0
STAT_DECISION_NODES = 1
STAT_SLOTS = 2
STAT_SCANS = 3
STAT_SIM_STEPS = 4
STAT_MAX_DEPTH = 5
N_STATS = 6

#: What every step of the search reads about the game: the feedback ``table`` (uint8 or uint16
#: [n_guesses, n_answers]) and its transpose ``tableT``, ``answer_guess_index`` (int32
#: [n_answers]), the answers' Zobrist keys ``zobrist1``, ``zobrist2`` (uint64[n_answers]),
#: the prime ``factors`` of the base heuristic's keys, ``answers_first`` (MIG_B's order) and
#: ``rank_answers_first`` (bool).
UctTables = namedtuple("UctTables", ["table", "tableT", "answer_guess_index", "zobrist1",
                                     "zobrist2", "factors", "answers_first", "rank_answers_first"])
#: The search's settings (solver.policies.uct): rollouts, variant O's threshold at the root and
#: below, the successors of the decision nodes below the root, the exploration divisor, the
#: loss penalty and the seed (uint64).
UctSettings = namedtuple("UctSettings", ["n_rollouts", "o_threshold", "n_below", "o_below",
                                         "b_divisor", "loss_penalty", "seed"])


@njit(cache=True)
def state_hash(S, m, zobrist1, zobrist2):
    """The two 64-bit Zobrist sums of the first ``m`` answers of ``S``."""
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(m):
        h1 += zobrist1[S[i]]
        h2 += zobrist2[S[i]]
    return h1, h2


@njit(cache=True)
def new_memo(capacity, n_top):
    """Empty state memo of ``capacity`` slots (a power of two) holding ``n_top`` guesses each:
    (key1, key2, size, n_found, top, base heuristic's choice)."""
    return (
        np.zeros(capacity, dtype=np.uint64),
        np.zeros(capacity, dtype=np.uint64),
        np.zeros(capacity, dtype=np.int32),  # 0 = empty slot (states are never empty)
        np.zeros(capacity, dtype=np.int32),
        np.zeros((capacity, n_top), dtype=np.int32),
        np.zeros(capacity, dtype=np.int32),
    )


@njit(cache=True)
def new_scan_workspace(n_guesses, n_answers, n_top, n_primes, n_patterns):
    """Scratch of :func:`scan_state`: (key scratch, member flags, column, identity, top guesses,
    top keys, top member flags); ``n_patterns`` = 3**L sizes the key scratch. The column holds
    feedback codes of either table dtype (uint8 or uint16)."""
    ident = np.arange(n_answers).astype(np.int32)
    return (new_scratch(n_primes, n_patterns), np.zeros(n_guesses, dtype=np.int8),
            np.zeros(n_answers, dtype=np.uint16), ident, np.zeros(n_top, dtype=np.int32),
            np.zeros(n_top, dtype=np.float64), np.zeros(n_top, dtype=np.int8))


@njit(cache=True)
def guess_key(g, S, table, factors, scratch):
    """``(K, classes)``: the exact entropy key ``K = Σ_C |C| log |C|`` of guess ``g`` over the
    state ``S`` (:mod:`solver.policies._policy_kernel`; lower key = higher entropy)."""
    counts, touched, exps, primes_used = scratch
    return _key_of_row(table[g], S, counts, touched, exps, primes_used, factors)


@njit(cache=True)
def scan_state(S, table, tableT, answer_guess_index, factors, answers_first, rank_answers_first,
               ws):
    """One pass over every guess for the state ``S`` (≥ 2 answers), with the exact entropy
    keys of :mod:`solver.policies._policy_kernel` (ties are exact).

    Writes to ``ws[4][:n_found]`` the ``n_top`` best guesses that split S in the order: key
    ascending, then — if ``rank_answers_first`` — members of S first, then guess index. Returns
    ``(n_found, choice)``: ``n_found`` < n_top only when fewer guesses split S; ``choice`` is
    the MIG guess: lowest key, then — if ``answers_first`` (MIG_B) — answers first among ties, then
    lowest index."""
    scratch, member, column, ident, top_g, top_k, top_m = ws
    counts, touched, exps, primes_used = scratch
    n_top = top_g.shape[0]
    n_guesses = table.shape[0]
    m = S.shape[0]
    small = m <= SMALL_STATE
    sub = ident[:m]
    for i in range(m):
        member[answer_guess_index[S[i]]] = 1
    n_found = 0
    best_key = np.inf
    best_g = -1
    member_key = np.inf
    member_g = -1
    for g in range(n_guesses):
        if small:  # answer-major table: m sequential streams instead of m scattered reads
            for i in range(m):
                column[i] = tableT[S[i], g]
            key, k = _key_of_row(column, sub, counts, touched, exps, primes_used, factors)
        else:
            key, k = _key_of_row(table[g], S, counts, touched, exps, primes_used, factors)
        if k < 2:
            continue  # does not split S
        if key < best_key:
            best_key = key
            best_g = g
        if member[g] == 1 and key < member_key:
            member_key = key
            member_g = g
        is_member = member[g] if rank_answers_first else np.int8(0)
        # g has the largest index so far: it goes after every entry not worse than it
        pos = n_found
        while pos > 0 and (top_k[pos - 1] > key
                           or (top_k[pos - 1] == key and is_member > top_m[pos - 1])):
            pos -= 1
        if pos < n_top:
            last = n_found if n_found < n_top else n_top - 1
            for j in range(last, pos, -1):
                top_g[j] = top_g[j - 1]
                top_k[j] = top_k[j - 1]
                top_m[j] = top_m[j - 1]
            top_g[pos] = g
            top_k[pos] = key
            top_m[pos] = is_member
            if n_found < n_top:
                n_found += 1
    for i in range(m):
        member[answer_guess_index[S[i]]] = 0
    if answers_first and member_key == best_key:
        return n_found, member_g
    return n_found, best_g


@njit(cache=True)
def memo_lookup(memo, S, h1, h2, tables, ws, stats):
    """Memo slot of the state ``S`` (≥ 2 answers) with hash ``(h1, h2)``, scanning it on a
    miss. The slot stays valid until the next call."""
    key1, key2, sizes, n_found, top, choices = memo
    m = S.shape[0]
    mask = key1.shape[0] - 1
    home = np.int64(h1 & np.uint64(mask))
    slot = home
    target = home  # a full probe window overwrites its home slot
    for _ in range(PROBE):
        z = sizes[slot]
        if z == m and key1[slot] == h1 and key2[slot] == h2:
            return slot
        if z == 0:
            target = slot
            break
        slot = (slot + 1) & mask
    f, choice = scan_state(S, tables.table, tables.tableT, tables.answer_guess_index,
                           tables.factors, tables.answers_first, tables.rank_answers_first, ws)
    stats[STAT_SCANS] += 1
    choices[target] = choice
    key1[target] = h1
    key2[target] = h2
    sizes[target] = m
    n_found[target] = f
    top_g = ws[4]
    for j in range(f):
        top[target, j] = top_g[j]
    return target


@njit(cache=True)
def filter_class(S, m, g, p, table, out, zobrist1, zobrist2):
    """Writes the answers of ``S[:m]`` giving feedback ``p`` to guess ``g`` into ``out``;
    returns ``(size, h1, h2)``."""
    n = 0
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(m):
        a = S[i]
        if table[g, a] == p:
            out[n] = a
            n += 1
            h1 += zobrist1[a]
            h2 += zobrist2[a]
    return n, h1, h2


@njit(cache=True)
def base_heuristic_cost(S, g, answer, tables, memo, buf1, buf2, ws, stats):
    """Guesses the base heuristic (MIG_A, or MIG_B when ``answers_first``) needs to find
    ``answer`` after guess ``g`` was played in the state ``S``, ``g`` not counted (0 when ``g``
    is the answer). Its choices come from the memo."""
    table, answer_guess_index = tables.table, tables.answer_guess_index
    zobrist1, zobrist2 = tables.zobrist1, tables.zobrist2
    if answer_guess_index[answer] == g:
        return 0
    p = table[g, answer]
    cur = buf1
    other = buf2
    n, h1, h2 = filter_class(S, S.shape[0], g, p, table, cur, zobrist1, zobrist2)
    cost = 0
    while True:
        stats[STAT_SIM_STEPS] += 1
        if n == 1:
            return cost + 1
        slot = memo_lookup(memo, cur[:n], h1, h2, tables, ws, stats)
        choice = memo[5][slot]
        cost += 1
        if answer_guess_index[answer] == choice:
            return cost
        p = table[choice, answer]
        n, h1, h2 = filter_class(cur, n, choice, p, table, other, zobrist1, zobrist2)
        tmp = cur
        cur = other
        other = tmp


@njit(cache=True)
def ucb_select(first, count, log_parent, b, s_visits, s_cost):
    """Slot among ``first .. first + count − 1`` (all visited) maximising
    ``b · sqrt(log_parent / R) − C`` (R visits, C = cost sum / R); the first slot wins ties."""
    best = -np.inf
    chosen = first
    for k in range(first, first + count):
        r = s_visits[k]
        v = b * np.sqrt(log_parent / r) - s_cost[k] / r
        if v > best:
            best = v
            chosen = k
    return chosen


@njit(cache=True)
def better_final(cost_i, visits_i, key_i, member_i, g_i, cost_j, visits_j, key_j, member_j, g_j):
    """True if root child i is played before root child j: lower average cost (cost sums over
    visits, compared exactly by cross-multiplication), then higher entropy (lower exact key),
    then a possible answer, then the lower guess index (alphabetical)."""
    lhs = cost_i * visits_j
    rhs = cost_j * visits_i
    if lhs != rhs:
        return lhs < rhs
    if key_i != key_j:
        return key_i < key_j
    if member_i != member_j:
        return member_i
    return g_i < g_j


@njit(cache=True)
def _add_decision_node(S, node, tree, pool, pool_used, n_slots, memo, h1, h2, tables, n_succ,
                       o_threshold, ws, stats):
    """Create decision node ``node`` for the state ``S`` with the first ``n_succ`` guesses of
    the memo's ranking as successors, plus (variant O) the answers of S when there are at most
    ``o_threshold``; returns ``(pool, pool_used, n_slots)`` (the pool grows by doubling)."""
    d_start, d_len, d_succ0, d_nsucc, d_nvis, d_visits, s_guess, s_visits, s_cost = tree
    m = S.shape[0]
    if pool_used + m > pool.shape[0]:
        grown = np.empty(max(2 * pool.shape[0], pool_used + m), dtype=np.int32)
        grown[:pool_used] = pool[:pool_used]
        pool = grown
    for i in range(m):
        pool[pool_used + i] = S[i]
    d_start[node] = pool_used
    d_len[node] = m
    pool_used += m
    d_succ0[node] = n_slots
    d_nvis[node] = 0
    d_visits[node] = 0
    count = 0
    if m >= 2:
        slot = memo_lookup(memo, S, h1, h2, tables, ws, stats)
        f = min(memo[3][slot], n_succ)
        for j in range(f):
            s_guess[n_slots + j] = memo[4][slot, j]
        count = f
        if m <= o_threshold:  # variant O: the state's answers join the successors
            for i in range(m):
                g = tables.answer_guess_index[S[i]]
                present = False
                for j in range(f):
                    if s_guess[n_slots + j] == g:
                        present = True
                        break
                if not present:
                    s_guess[n_slots + count] = g
                    count += 1
        for j in range(count):
            s_visits[n_slots + j] = 0
            s_cost[n_slots + j] = 0
    d_nsucc[node] = count
    return pool, pool_used, n_slots + count


@njit(cache=True)
def uct_search(state, guesses_left, tables, memo, ws, settings):
    """UCT from ``state`` (sorted int32 answer indices, ≥ 2 of them); rules in
    :mod:`solver.policies.uct`. The root takes the memo's width ``n_top`` of successors and variant O
    below ``o_threshold`` answers; the other decision nodes ``n_below`` (≤ n_top) and
    ``o_below``.

    Returns ``(guess, root_guesses, root_visits, root_costs, stats)``: the guess to play, the
    root's successors in successor order with their visit counts and cost sums (int64), and
    int64[N_STATS] counters. ``tables`` is a :class:`UctTables`, ``settings`` a
    :class:`UctSettings`.
    """
    table, answer_guess_index = tables.table, tables.answer_guess_index
    zobrist1, zobrist2, factors = tables.zobrist1, tables.zobrist2, tables.factors
    n_rollouts, o_threshold, n_below, o_below, b_divisor, loss_penalty, seed = settings
    n_answers = table.shape[1]
    n_top = memo[4].shape[1]
    m0 = state.shape[0]
    max_succ = n_top + max(o_threshold, o_below)
    cap_d = n_rollouts + 2
    cap_s = cap_d * max_succ
    tree = (np.empty(cap_d, dtype=np.int64), np.empty(cap_d, dtype=np.int32),
            np.empty(cap_d, dtype=np.int64), np.empty(cap_d, dtype=np.int32),
            np.empty(cap_d, dtype=np.int32), np.empty(cap_d, dtype=np.int64),
            np.empty(cap_s, dtype=np.int32), np.empty(cap_s, dtype=np.int64),
            np.empty(cap_s, dtype=np.int64))
    d_start, d_len, d_succ0, d_nsucc, d_nvis, d_visits, s_guess, s_visits, s_cost = tree
    hcap = 1
    while hcap < 2 * cap_d:
        hcap *= 2
    hmask = hcap - 1
    h_key = np.full(hcap, -1, dtype=np.int64)
    h_val = np.empty(hcap, dtype=np.int32)
    pool = np.empty(max(1 << 16, 8 * m0), dtype=np.int32)
    pool_used = 0
    n_slots = 0
    buf1 = np.empty(n_answers, dtype=np.int32)
    buf2 = np.empty(n_answers, dtype=np.int32)
    cls = np.empty(n_answers, dtype=np.int32)
    path_slot = np.empty(m0 + 1, dtype=np.int64)  # every level strictly shrinks the state
    path_node = np.empty(m0 + 1, dtype=np.int64)
    stats = np.zeros(N_STATS, dtype=np.int64)
    n_patterns = ws[0][0].shape[0]  # one counts slot per feedback pattern (3**L)
    all_green = n_patterns - 1

    h1, h2 = state_hash(state, m0, zobrist1, zobrist2)
    pool, pool_used, n_slots = _add_decision_node(
        state, 0, tree, pool, pool_used, n_slots, memo, h1, h2, tables, n_top, o_threshold, ws, stats)
    n_nodes = 1

    rng, _ = splitmix64(np.uint64(seed))
    _, rng = splitmix64(rng ^ h1 ^ np.uint64(guesses_left))
    total_cost = 0
    for r in range(n_rollouts):
        rng, z = splitmix64(rng)
        answer = state[np.int64(z % np.uint64(m0))]
        d = 0
        depth = 0
        tail = 0
        singleton = False
        while True:
            m = d_len[d]
            if m == 1:  # a singleton: its answer is guessed next
                singleton = True
                break
            first = d_succ0[d]
            start = d_start[d]
            if d_nvis[d] < d_nsucc[d]:  # an unvisited successor: value it by the base heuristic
                k = first + d_nvis[d]
                d_nvis[d] += 1
                path_slot[depth] = k
                path_node[depth] = d
                depth += 1
                tail = 1 + base_heuristic_cost(pool[start:start + m], s_guess[k], answer, tables,
                                               memo, buf1, buf2, ws, stats)
                break
            b = (total_cost / r) / b_divisor
            k = ucb_select(first, d_nsucc[d], np.log(np.float64(d_visits[d])), b, s_visits,
                           s_cost)
            path_slot[depth] = k
            path_node[depth] = d
            depth += 1
            g = s_guess[k]
            p = table[g, answer]
            if p == all_green:
                tail = 1
                break
            key = k * n_patterns + np.int64(p)
            hs = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(24)) & hmask
            while h_key[hs] != -1 and h_key[hs] != key:
                hs = (hs + 1) & hmask
            if h_key[hs] == key:
                d = h_val[hs]
                continue
            n, c1, c2 = filter_class(pool[start:start + m], m, g, p, table, cls, zobrist1,
                                     zobrist2)
            pool, pool_used, n_slots = _add_decision_node(
                cls[:n], n_nodes, tree, pool, pool_used, n_slots, memo, c1, c2, tables, n_below,
                o_below, ws, stats)
            h_key[hs] = key
            h_val[hs] = n_nodes
            d = n_nodes
            n_nodes += 1
        # guesses from the root: one per slot on the path, the last one counted in the tail
        # unless the rollout ended on a singleton decision node below it
        if singleton:
            cost = depth + 1
        else:
            cost = depth - 1 + tail
        if cost > guesses_left:
            cost += loss_penalty
        total_cost += cost
        if depth > stats[STAT_MAX_DEPTH]:
            stats[STAT_MAX_DEPTH] = depth
        for i in range(depth):
            k = path_slot[i]
            s_visits[k] += 1
            s_cost[k] += cost - i
            d_visits[path_node[i]] += 1
    stats[STAT_ROLLOUTS] = n_rollouts
    stats[STAT_DECISION_NODES] = n_nodes
    stats[STAT_SLOTS] = n_slots

    # the root child to play
    first = d_succ0[0]
    count = d_nsucc[0]
    member = ws[1]
    for i in range(m0):
        member[answer_guess_index[state[i]]] = 1
    best = -1
    best_key = 0.0
    for k in range(first, first + count):
        if s_visits[k] == 0:
            continue
        g = s_guess[k]
        key, _ = guess_key(g, state, table, factors, ws[0])
        if best < 0 or better_final(s_cost[k], s_visits[k], key, member[g] == 1, g, s_cost[best],
                                    s_visits[best], best_key, member[s_guess[best]] == 1,
                                    s_guess[best]):
            best = k
            best_key = key
    for i in range(m0):
        member[answer_guess_index[state[i]]] = 0
    return (s_guess[best], s_guess[first:first + count].copy(),
            s_visits[first:first + count].copy(), s_cost[first:first + count].copy(), stats)
