"""numba kernel of the opener tables: one opener's exact value and its root classes' values
and first optimal guesses (docs/algorithms.md §9.7).

For an opener g with d guesses, the root classes C₁…C_k (all-green aside) are independent:
Q(g) = n + Σ V_{d−1}(C) for the total objective (n: every game plays g). A table wants Q(g)
exactly for every opener, so there is no cut-off at the root and each class is searched
exactly, on its own: :func:`opener_classes` returns every class's value and first optimal
guess (the guess the solver's tree plays there, §4.4) beside Q(g), which is what the table's
second guesses are.

A class of at least ``prepared_min`` answers is searched as a state asked alone is
(:func:`solver.exact._search_kernel.search_state` on its gathered columns, readied by
:func:`solver.exact._search_kernel.prepare_search`: the column counts, and the letter family
from ``FAMILY_ROOT_MIN`` answers, §3.8, §4.2), smaller ones on the worker's workspace without them, as the
proof's deep pass searches them (:func:`solver.exact._search_kernel.search_class`). The
values and guesses are the same either way (those passes only find them sooner); the large
classes, a poor opener's all-gray class of 800–1,000 answers, took 4–6 times longer without
them (docs/benchmarks.md). Every class keeps the global Zobrist keys, so one memo serves every
opener a worker evaluates (§5).
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

from solver.exact._objective_kernel import INF, pair_value
from solver.exact._search_kernel import (Search, local_tables, new_workspace, partition_at,
                                         prepare_search, search_state)
from solver.game._hard_mode_kernel import (HARD_MODE, empty_constraint, filter_allowed_packed,
                                            tighten_constraint)


@njit(cache=True, nogil=True)
def opener_classes(g, d, P, guess_of_answer, zobrist1, zobrist2, search, objective, mode, rules,
                   prepared_min, codes, values, guesses):
    """Exact Q-value of opener ``g`` with ``d`` ≥ 2 guesses on every answer of ``P``
    (uint8/uint16 [n_guesses, n_answers]), normal or hard mode, and its root classes.

    Writes, for each non-green root class in feedback-code order, its code into ``codes``
    (int32[≥ 3**L]), its exact value with d − 1 guesses left into ``values`` (int64; ``INF``
    when it cannot be won in time) and the first optimal guess there into ``guesses`` (int32
    guess index; the first answer of a pair, the answer of a singleton, -1 for ``INF``).
    ``search`` is a :class:`~solver.exact._search_kernel.Search` of depth ≥ d whose memo
    persists across calls; ``rules`` as for :func:`search_state`; ``objective`` the total
    (``TOTAL``; the worst case has its own table proof, §9.5).

    Returns ``(value, k)``: Q(g) (``INF`` if some class cannot be won within d − 1) and the
    number of classes written."""
    memo, ws, stats = search
    n = P.shape[1]
    n_guesses = P.shape[0]
    all_green = ws.counts.shape[1] - 1
    S = np.arange(n).astype(np.int32)
    everything = np.arange(n_guesses).astype(np.int32)
    hard = mode == HARD_MODE
    letters = rules.letters
    root_constraint = empty_constraint()
    constraint = empty_constraint()
    allowed = np.empty(n_guesses, dtype=np.int32)
    k = partition_at(ws, d, P[g], S)
    members, starts, present = ws.members[d], ws.starts[d], ws.present[d]
    total = np.int64(n)
    written = 0
    for c in range(k):
        code = present[c]
        if code == all_green:
            continue
        cls = members[starts[c]:starts[c + 1]]
        m = cls.shape[0]
        codes[written] = code
        if m == 1:
            value, guess = np.int64(1), np.int64(guess_of_answer[cls[0]])
        elif d - 1 <= 1:
            value, guess = np.int64(INF), np.int64(-1)
        elif m == 2:  # the first answer, as the search plays a pair
            value, guess = pair_value(objective), np.int64(guess_of_answer[cls[0]])
        else:
            candidates = everything
            if hard:
                tighten_constraint(root_constraint, letters[g], code, constraint)
                candidates = allowed[:filter_allowed_packed(constraint, rules.packed, letters.shape[1],
                                                            everything, allowed)]
            local = local_tables(cls, P, guess_of_answer, zobrist1, zobrist2)
            local_state = np.arange(m).astype(np.int32)
            alone = search
            if m >= prepared_min:  # its own workspace, readied as a state asked alone
                alone = prepare_search(local_state, local.P, local.guess_of_answer,
                                       Search(memo, new_workspace(d, n_guesses, m, all_green + 1),
                                              stats),
                                       objective, rules)
            value, guess = search_state(local_state, d - 1, local.P, local.guess_of_answer,
                                        local.zobrist1, local.zobrist2, alone, objective, mode,
                                        rules, constraint, candidates)
            if value >= INF:
                value, guess = np.int64(INF), np.int64(-1)
        values[written] = value
        guesses[written] = guess
        written += 1
        total = INF if value >= INF or total >= INF else total + value
    return total, written
