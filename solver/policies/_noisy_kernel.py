"""numba kernels of Noisy Wordle: the noise, its likelihood, the Bayesian belief over the
answers and the agents' scores over that belief (docs/algorithms.md §14).

Feedback codes are ``Σ c_i · 3**i`` (docs/algorithms.md §1.3); ``L`` is the word length. The
noise: one position ``i`` chosen uniformly among the ``L``, recoloured uniformly among the 3
colours (it may keep its own colour). Hence, for a guess that is not the answer, with true
pattern ``c`` and shown pattern ``o``:

    P(o | c) = Σ_i (1/L) · [o_j = c_j for every j ≠ i] · (1/3)
             = 1/3        if o = c       (every i qualifies: L · 1/L · 1/3)
             = 1/(3L)     if o and c differ in exactly one position
             = 0          otherwise.

The belief keeps, per answer, ``alive`` (likelihood never 0 so far) and ``matches`` (how many
shown patterns equalled the answer's true pattern). Each observation multiplies an alive
answer's weight by ``1/3 = L · 1/(3L)`` or by ``1/(3L)``, so up to a common factor its weight
is ``L ** matches``; the kernels use ``L ** (matches − max matches)`` (float64, ≤ 1).

Random numbers: SplitMix64 (Steele, Lea & Flood 2014), one stream per game seeded from
(seed, answer index), so a game does not depend on the order or the worker that plays it.
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

from solver.policies._uct_kernel import splitmix64


@njit(cache=True)
def game_stream(seed, answer):
    """The SplitMix64 state of the noise stream of the game (``seed`` ≥ 0, ``answer`` index)."""
    _, z = splitmix64(np.uint64(seed))
    _, s = splitmix64(z ^ (np.uint64(answer) * np.uint64(0xD1B54A32D192ED03)))
    return s


@njit(cache=True)
def add_noise(code, rng, word_length):
    """Recolour one uniform position of ``code`` with a uniform colour: ``(next_state, shown)``.

    One 64-bit draw ``z``; ``r = z mod 3L``, position ``r // 3``, colour ``r mod 3`` (the modulo
    bias is below 3L / 2**64)."""
    rng, z = splitmix64(rng)
    r = np.int64(z % np.uint64(3 * word_length))
    position = r // 3
    colour = r % 3
    power = np.int64(1)
    for _ in range(position):
        power *= 3
    digit = (np.int64(code) // power) % 3
    return rng, np.int64(code) + (colour - digit) * power


@njit(cache=True)
def scaled_likelihood(shown, true, word_length):
    """``3L · P(shown | true)``: L if equal, 1 if they differ in exactly one position, else 0."""
    if shown == true:
        return word_length
    a = np.int64(shown)
    b = np.int64(true)
    differ = 0
    for _ in range(word_length):
        if a % 3 != b % 3:
            differ += 1
            if differ > 1:
                return 0
        a //= 3
        b //= 3
    return 1


@njit(cache=True)
def update_belief(matches, alive, row, guessed_answer, shown, word_length):
    """The belief after a guess that did not win, in place.

    ``row``: the guess's feedback table row over the answers; ``guessed_answer``: the answer
    index of the guess, −1 if it is not an answer (the game went on, so that answer is ruled
    out: its likelihood is 0); ``shown``: the noisy pattern. Returns the alive count."""
    if guessed_answer >= 0:
        alive[guessed_answer] = False
    n = 0
    for a in range(matches.shape[0]):
        if not alive[a]:
            continue
        lik = scaled_likelihood(shown, row[a], word_length)
        if lik == 0:
            alive[a] = False
        else:
            if lik == word_length:
                matches[a] += 1
            n += 1
    return n


@njit(cache=True)
def belief_weights(matches, alive, word_length):
    """``(members, weights)``: the alive answers (int32, increasing) and their weights
    ``L ** (matches − max matches)`` (float64)."""
    top = -1
    n = 0
    for a in range(matches.shape[0]):
        if alive[a]:
            n += 1
            if matches[a] > top:
                top = matches[a]
    members = np.empty(n, dtype=np.int32)
    weights = np.empty(n, dtype=np.float64)
    j = 0
    for a in range(matches.shape[0]):
        if alive[a]:
            members[j] = a
            weights[j] = float(word_length) ** (matches[a] - top)
            j += 1
    return members, weights


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
    n_guesses = table.shape[0]
    largest = np.zeros(n_guesses, dtype=np.float64)
    sum_squares = np.zeros(n_guesses, dtype=np.float64)
    mass = np.zeros(n_patterns, dtype=np.float64)
    touched = np.empty(n_patterns, dtype=np.int64)
    for g in range(n_guesses):
        k = 0
        for i in range(members.shape[0]):
            c = table[g, members[i]]
            if mass[c] == 0.0:
                touched[k] = c
                k += 1
            mass[c] += share[i]
        big = 0.0
        squares = 0.0
        for j in range(k):
            m = mass[touched[j]]
            if m > big:
                big = m
            squares += m * m
            mass[touched[j]] = 0.0
        largest[g] = big
        sum_squares[g] = squares
    return largest, sum_squares


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
