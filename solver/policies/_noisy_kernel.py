"""numba kernels of Noisy Wordle's agents: their scores over the Bayesian belief
(docs/algorithms.md §14). The noise, its likelihood and the belief's update are the game's
rules, in :mod:`solver.game._noise_kernel`.
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

from solver.game._noise_kernel import (  # noqa: F401  (the game's rules, re-exported)
    add_noise, belief_weights, game_stream, scaled_likelihood, update_belief)
from solver.policies._classic_kernel import class_mass_scores


@njit(cache=True)
def information_gains(table, candidates, members, weights, answer_of_guess, word_length, n_patterns):
    """For each candidate guess: the expected information gain (nats) of playing it and the
    posterior probability that it is the answer.

    With ``π`` that probability and ``q(c)`` the posterior mass of the other answers whose true
    pattern is ``c``, the outcome is a win (probability ``π``) or a shown pattern ``o`` with
    ``p(o) = q(o)/3 + Σ_{c one position from o} q(c)/(3L)``. The gain is the entropy of the
    outcome minus the noise's own entropy ``(1 − π) · H_noise`` (the mutual information
    between the answer and the outcome), ``H_noise = ln 3 / 3 + (2/3) ln(3L)``.

    Returns ``(gains, win_probabilities)``, float64[len(candidates)].
    """
    total = 0.0
    for i in range(members.shape[0]):
        total += weights[i]
    h_noise = np.log(3.0) / 3.0 + (2.0 / 3.0) * np.log(3.0 * word_length)
    powers = np.empty(word_length, dtype=np.int64)
    p = np.int64(1)
    for i in range(word_length):
        powers[i] = p
        p *= 3
    q = np.zeros(n_patterns, dtype=np.float64)
    shown = np.zeros(n_patterns, dtype=np.float64)
    touched = np.empty(n_patterns, dtype=np.int64)
    seen = np.zeros(n_patterns, dtype=np.bool_)
    out_touched = np.empty(n_patterns, dtype=np.int64)
    gains = np.empty(candidates.shape[0], dtype=np.float64)
    wins = np.empty(candidates.shape[0], dtype=np.float64)
    for k in range(candidates.shape[0]):
        g = candidates[k]
        own = answer_of_guess[g]
        win = 0.0
        n_touched = 0
        for i in range(members.shape[0]):
            a = members[i]
            w = weights[i] / total
            if a == own:
                win += w
                continue
            c = np.int64(table[g, a])
            if q[c] == 0.0:
                touched[n_touched] = c
                n_touched += 1
            q[c] += w
        n_out = 0
        for t in range(n_touched):
            c = touched[t]
            mass = q[c]
            if not seen[c]:
                seen[c] = True
                out_touched[n_out] = c
                n_out += 1
            shown[c] += mass / 3.0
            for j in range(word_length):
                digit = (c // powers[j]) % 3
                for colour in range(3):
                    if colour != digit:
                        o = c + (colour - digit) * powers[j]
                        if not seen[o]:
                            seen[o] = True
                            out_touched[n_out] = o
                            n_out += 1
                        shown[o] += mass / (3.0 * word_length)
        entropy = 0.0
        if win > 0.0:
            entropy -= win * np.log(win)
        for t in range(n_out):
            o = out_touched[t]
            po = shown[o]
            if po > 0.0:
                entropy -= po * np.log(po)
            shown[o] = 0.0
            seen[o] = False
        for t in range(n_touched):
            q[touched[t]] = 0.0
        gains[k] = entropy - (1.0 - win) * h_noise
        wins[k] = win
    return gains, wins


@njit(cache=True)
def entropy_choose(table, candidates, members, weights, answer_of_guess, word_length, n_patterns):
    """The candidate of largest information gain (:func:`information_gains`); ties (equal
    floats): larger win probability, then the lowest guess index. Returns the guess index."""
    gains, wins = information_gains(table, candidates, members, weights, answer_of_guess, word_length,
                                    n_patterns)
    best = -1
    for k in range(candidates.shape[0]):
        if best < 0 or gains[k] > gains[best] or (gains[k] == gains[best] and (
                wins[k] > wins[best] or (wins[k] == wins[best] and candidates[k] < candidates[best]))):
            best = k
    return candidates[best]


@njit(cache=True)
def weighted_class_scores(table, members, weights, n_patterns):
    """For every guess: the largest posterior mass of one true-pattern class over the belief
    and ``Σ_C W(C)²`` (classes as if the feedback were truthful; masses normalised to 1).

    Returns ``(largest, sum_squares)``, float64[n_guesses]."""
    total = 0.0
    for i in range(members.shape[0]):
        total += weights[i]
    share = np.empty(members.shape[0], dtype=np.float64)
    for i in range(members.shape[0]):
        share[i] = weights[i] / total
    return class_mass_scores(table, members, share, n_patterns)


@njit(cache=True)
def weighted_depth_one_choose(table, members, weights, alive, answer_of_guess, objective, n_patterns):
    """minimax1 (``objective`` 0: least largest class mass) or expectimax1 (1: least
    ``Σ_C W(C)²``) over every allowed guess; ties: a guess whose answer is alive first, then
    the lowest guess index. Returns the guess index."""
    largest, sum_squares = weighted_class_scores(table, members, weights, n_patterns)
    scores = largest if objective == 0 else sum_squares
    best = -1
    best_possible = False
    for g in range(table.shape[0]):
        a = answer_of_guess[g]
        possible = a >= 0 and alive[a]
        if best < 0 or scores[g] < scores[best] or (scores[g] == scores[best] and possible
                                                      and not best_possible):
            best = g
            best_possible = possible
    return best
