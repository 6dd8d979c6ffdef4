"""numba kernels: the objectives of the exact search, one small set of functions each.

The search (:mod:`solver.exact._search_kernel`) is written once; everything in it that
depends on *what* is minimised goes through the functions below, which take the objective's
id and are inlined into the search (docs/algorithms.md §2.4). The id is an ordinary integer
argument, not a numba ``Literal``: a literal specialisation made every call from Python miss
the on-disk cache for the plain signature first (about 20 ms a call, +9 s on SALET's 444
calls), while the branch on a run-time constant costs nothing measurable.

=======================  ======================================  ============================
function                 ``TOTAL`` (Σ guesses, §2.1)              ``WORST`` (max guesses, §2.2)
=======================  ======================================  ============================
``pair_value``           3 (guess one of the two)                2
``class_base``           2m − 1 (§3.1)                            2 (m ≥ 2)
``split_value``          2n − 1 (answer) / 2n (other guess)       2
``no_answer_split``      2n: the least cost when no answer        2
                         splits S into singletons
``guess_bound``          3n − k − [g ∈ S] (§3.2)                  2 if k = n, else 3 (§3.6)
``order_term``           Σ|C|²                                    2·Σ|C|² + [g ∉ S]: answers
                                                                 first among equal splits
``min_classes``          3n − β: fewer classes cannot beat β      n if β ≤ 3 (only a full
                                                                 split can), else 0
``tighten``              running + v − old bound                  max(running, 1 + v)
``class_cutoff``         best − (running − the class's bound)     best − 1
=======================  ======================================  ============================

Every value is an exact integer; ``INF`` marks an unwinnable state. To add an objective,
add a constant and a branch to each function (and its brute-force twin to tests/naive.py):
the recursion itself is not copied.
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)
from solver.game.kernel_cache import leaf_kernel
from solver.game.values import INF  # noqa: F401  (the kernels read it from here)

#: Objective ids (the index in :data:`solver.game.spec.OBJECTIVES`); ``WEIGHTED`` is the total
#: objective under answer weights (priors, docs/algorithms.md §10.3), chosen by the API when
#: priors are given.
TOTAL = 0
WORST = 1
WEIGHTED = 2


# -- priors (§10.3): the total objective with integer answer weights ----------------------------
# Σ_a w_a · guesses(a) replaces Σ_a guesses(a): n becomes W(S) = Σ_{a∈S} w_a, a class's bound
# 2m − 1 becomes 2W(C) − max_{a∈C} w_a (its heaviest answer found first, the others second),
# and a pair is solved by guessing the heavier answer first. With every weight 1 these are the
# total objective's figures. The functions the search shares with TOTAL (order_term, tighten,
# class_cutoff) are unchanged; the rest is computed in the search from the weights.

@leaf_kernel
def state_weight(S, weights):
    """(W(S), max weight, min weight) of the answers in S."""
    total = np.int64(0)
    heaviest = np.int64(0)
    lightest = np.int64(1) << 62
    for i in range(S.shape[0]):
        w = np.int64(weights[S[i]])
        total += w
        if w > heaviest:
            heaviest = w
        if w < lightest:
            lightest = w
    return total, heaviest, lightest


@njit(cache=True)
def weighted_floor(W, heaviest, lightest, splitter_weight):
    """A lower bound on a state of n ≥ 3 answers under priors whose heaviest answer does not
    split it into singletons (§10.3): an answer that splits it costs 2W − its weight
    (``splitter_weight``, 0 if none), any other answer at least 2W − w_max + w_min (one of
    its classes has two answers), any other guess at least 2W."""
    floor = 2 * W - heaviest + lightest
    if splitter_weight > 0 and 2 * W - splitter_weight < floor:
        floor = 2 * W - splitter_weight
    return floor


@njit(cache=True)
def weighted_pair(S, weights):
    """(value, index into S of the answer to guess) of a two-answer state: the heavier first
    (the first of the two on a tie)."""
    w0 = np.int64(weights[S[0]])
    w1 = np.int64(weights[S[1]])
    if w1 > w0:
        return w1 + 2 * w0, 1
    return w0 + 2 * w1, 0


@njit(cache=True)
def pair_value(objective):
    """Value of a state of two answers with at least two guesses left."""
    if objective == WORST:
        return np.int64(2)
    return np.int64(3)


@njit(cache=True)
def class_base(objective, m):
    """Lower bound on a class of m ≥ 2 answers before anything is known about it."""
    if objective == WORST:
        return np.int64(2)
    return np.int64(2 * m - 1)


@njit(cache=True)
def split_value(objective, n, is_answer):
    """Value of playing a guess that splits n ≥ 2 answers into singletons (exact)."""
    if objective == WORST:
        return np.int64(2)
    if is_answer:
        return np.int64(2 * n - 1)
    return np.int64(2 * n)


@njit(cache=True)
def no_answer_split(objective, n):
    """A lower bound on a state of n ≥ 2 answers none of which splits it into singletons."""
    if objective == WORST:
        return np.int64(2)
    return np.int64(2 * n)


@njit(cache=True)
def guess_bound(objective, n, k, green):
    """Lower bound on playing a guess with k classes (all-green included) on n answers;
    ``green`` is 1 if the guess is one of them. Exact when every class has ≤ 2 answers."""
    if objective == WORST:
        if k == n:
            return np.int64(2)
        return np.int64(3)
    return np.int64(3 * n - k - green)


@njit(cache=True)
def order_term(objective, sumsq, green):
    """The candidate order's second key after the bound (docs/algorithms.md §4.2, §4.4): Σ|C|²,
    and for the worst case also answers before other guesses with the same Σ|C|², which
    makes the answer-splitter shortcut (§3.3) pick the first optimal guess in this order."""
    if objective == WORST:
        return np.int64(2 * sumsq + 1 - green)
    return np.int64(sumsq)


@njit(cache=True)
def min_classes(objective, n, beta):
    """The fewest classes a guess needs for its :func:`guess_bound` to come under ``beta``
    (0 when no scan can be cut short)."""
    if beta >= INF or objective == WEIGHTED:
        return np.int64(0)
    if objective == WORST:
        if beta <= 3:
            return np.int64(n)
        return np.int64(0)
    return np.int64(3 * n - beta)


@njit(cache=True)
def tighten(objective, running, old_bound, value):
    """A guess's running lower bound after one class's bound ``old_bound`` is raised to ``value``."""
    if value >= INF:
        return np.int64(INF)
    if objective == WORST:
        return max(running, np.int64(1 + value))
    return running + value - old_bound


@njit(cache=True)
def class_cutoff(objective, best, running, class_bound):
    """The cut-off for searching one class: a class value at or above it cannot let the
    guess beat ``best`` given the other classes' bounds in ``running``."""
    if objective == WORST:
        return best - 1
    return best - (running - class_bound)
