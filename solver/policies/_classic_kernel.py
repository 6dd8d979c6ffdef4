"""numba kernels of the classic agents: class sizes of every guess (depth-one minimax and
expectimax), the belief filter, the Q-table choice and Q-learning training (Orenbach et al.,
"AI algorithms on Wordle and its variants"; our account in docs/algorithms.md §8.5).

A *universe* is the set of words the agent may believe possible: the answers (the usual
setting) or every allowed guess (the "guesses" belief setting). A state ``S`` is a sorted int32
array of member indices of the universe; ``P`` is the feedback table of the universe,
uint8 or uint16[n_guesses, n_members] (``P[g, m]`` = feedback of guess ``g`` against member
``m``); ``guess_of_member`` int32[n_members] maps a member to its guess index (increasing: both
lists are sorted) and ``member_of_guess`` int32[n_guesses] back (−1: not a member).

The number of feedback patterns ``3**L`` is passed by the Python wrappers; the all-green code is
the last pattern, ``n_patterns − 1``.
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

from solver.policies._uct_kernel import splitmix64

#: Objectives of :func:`classic_choose`.
MINIMAX, EXPECTIMAX = 0, 1


@njit(cache=True)
def class_mass_scores(P, S, masses, n_patterns):
    """For every guess ``g``: the largest mass ``M(C)`` of one feedback class ``C`` of ``S``
    and ``Σ_C M(C)²`` (the all-green class included), where ``M(C)`` sums ``masses`` (positive,
    aligned with ``S``: int64 for sizes, float64 for probabilities) over the members of ``C``.

    Returns ``(largest, sum_squares)``, both [n_guesses] of ``masses``' dtype."""
    n_guesses = P.shape[0]
    largest = np.zeros(n_guesses, dtype=masses.dtype)
    sum_squares = np.zeros(n_guesses, dtype=masses.dtype)
    mass = np.zeros(n_patterns, dtype=masses.dtype)
    touched = np.zeros(n_patterns, dtype=np.int64)
    for g in range(n_guesses):
        k = 0
        for i in range(S.shape[0]):
            c = P[g, S[i]]
            if mass[c] == 0:
                touched[k] = c
                k += 1
            mass[c] += masses[i]
        big = largest[g]  # 0, of the masses' type
        squares = sum_squares[g]
        for j in range(k):
            m = mass[touched[j]]
            if m > big:
                big = m
            squares += m * m
            mass[touched[j]] = 0
        largest[g] = big
        sum_squares[g] = squares
    return largest, sum_squares


@njit(cache=True)
def class_size_scores(S, P, n_patterns):
    """For every guess ``g``: the size of its largest feedback class over ``S`` and the sum of
    squared class sizes ``Σ_C |C|²`` (the all-green class included).

    Returns ``(largest, sum_squares)``, both int64[n_guesses]. The expected size of the class
    left after ``g`` is ``Σ_C |C|² / |S|`` (a class ``C`` is met with probability ``|C|/|S|``).
    """
    return class_mass_scores(P, S, np.ones(S.shape[0], dtype=np.int64), n_patterns)


@njit(cache=True)
def state_mask(S, n_members):
    """bool[n_members]: True for the members in ``S``."""
    mask = np.zeros(n_members, dtype=np.bool_)
    for i in range(S.shape[0]):
        mask[S[i]] = True
    return mask


@njit(cache=True)
def classic_choose(S, P, member_of_guess, n_members, objective, n_patterns):
    """The depth-one choice over every allowed guess: least largest class (``objective`` =
    :data:`MINIMAX`) or least expected class size, i.e. least ``Σ_C |C|²`` (:data:`EXPECTIMAX`).

    Ties: a guess still possible (a member of ``S``) first, then the lowest guess index
    (alphabetical). Returns the guess index (int64).
    """
    largest, sum_squares = class_size_scores(S, P, n_patterns)
    scores = largest if objective == MINIMAX else sum_squares
    mask = state_mask(S, n_members)
    best = -1
    best_score = np.int64(0)
    best_possible = False
    for g in range(P.shape[0]):
        m = member_of_guess[g]
        possible = m >= 0 and mask[m]
        s = scores[g]
        if best < 0 or s < best_score or (s == best_score and possible and not best_possible):
            best = g
            best_score = s
            best_possible = possible
    return best


@njit(cache=True)
def filter_state(S, row, code):
    """The members of ``S`` whose feedback under one table row (``P[g]``) is ``code``: the
    belief after guess ``g`` got feedback ``code`` (sorted int32, order of ``S`` kept)."""
    n = 0
    for i in range(S.shape[0]):
        if row[S[i]] == code:
            n += 1
    out = np.empty(n, dtype=np.int32)
    j = 0
    for i in range(S.shape[0]):
        if row[S[i]] == code:
            out[j] = S[i]
            j += 1
    return out


@njit(cache=True)
def q_choose(S, q_values, guess_of_member):
    """The member of ``S`` whose guess has the largest Q-value (ties: the lowest index, i.e.
    alphabetical); returns its guess index (int64)."""
    best = -1
    best_q = 0.0
    for i in range(S.shape[0]):
        g = guess_of_member[S[i]]
        if best < 0 or q_values[g] > best_q:
            best = g
            best_q = q_values[g]
    return best


@njit(cache=True)
def _uniform(rng):
    """One uniform float in [0, 1) from SplitMix64: ``(next_state, u)``."""
    rng, z = splitmix64(rng)
    return rng, np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def qlearning_train(P, guess_of_member, answer_members, q_values, visits, n_episodes, alpha,
                    epsilon, seed, max_steps, n_patterns):
    """Train the constant-state Q-table in place (docs/algorithms.md §8.5).

    Episode ``e``: the hidden answer is ``answer_members[z % len]`` (``z`` from the episode's
    SplitMix64 stream, seeded by ``seed`` and ``e``); the belief starts as the whole universe.
    While the game is not won and fewer than ``max_steps`` guesses were made: with one member
    left it is guessed (no update); otherwise the agent guesses a uniformly random member of
    the belief with probability ``epsilon``, else the member of largest Q (ties: lowest index),
    observes the feedback, filters the belief, and updates
    ``Q[g] ← Q[g] + alpha · (r − Q[g])`` with the reward ``r = (|B| − |B'|) / (|B| − 1)`` (the
    share of the other candidates the guess ruled out; 1 when it wins). ``visits[g]`` counts the
    updates. The single state makes the bootstrap term ``γ max Q`` the same for every action, so
    γ = 0. Returns the number of guesses made in all episodes (int64).
    """
    n_members = guess_of_member.shape[0]
    green = n_patterns - 1
    steps = 0
    belief = np.empty(n_members, dtype=np.int32)
    scratch = np.empty(n_members, dtype=np.int32)
    for e in range(n_episodes):
        rng, _ = splitmix64(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(e))
        rng, z = splitmix64(rng)
        answer = answer_members[np.int64(z % np.uint64(answer_members.shape[0]))]
        size = n_members
        for i in range(n_members):
            belief[i] = i
        for _ in range(max_steps):
            steps += 1
            if size == 1:
                break  # the last candidate is guessed: the game is won, nothing to learn
            rng, u = _uniform(rng)
            if u < epsilon:
                rng, v = _uniform(rng)
                member = belief[min(np.int64(v * size), size - 1)]
                g = guess_of_member[member]
            else:
                g = q_choose(belief[:size], q_values, guess_of_member)
            code = P[g, answer]
            kept = 0
            for i in range(size):
                if P[g, belief[i]] == code:
                    scratch[kept] = belief[i]
                    kept += 1
            reward = (size - kept) / (size - 1.0)
            q_values[g] += alpha * (reward - q_values[g])
            visits[g] += 1
            if code == green:
                break
            for i in range(kept):
                belief[i] = scratch[i]
            size = kept
    return steps
