"""numba kernels of Noisy Wordle's rules: the noise, its likelihood and the Bayesian belief
over the answers (docs/algorithms.md §14).

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

Random numbers: SplitMix64 (:mod:`solver.game._random_kernel`), one stream per game seeded
from (seed, answer index), so a game does not depend on the order or the worker that plays it.
"""

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

from solver.game._random_kernel import splitmix64


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
