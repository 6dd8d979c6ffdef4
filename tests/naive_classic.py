"""Slow, obviously correct twins of the classic agents' kernels (words, not indices), for the
tests only. They follow docs/algorithms.md §8.5 literally."""

from __future__ import annotations

from collections import Counter

import numpy as np

from naive import feedback

MASK64 = (1 << 64) - 1
GREEN = 242


def consistent(words, history):
    """The words ``w`` with ``feedback(guess, w) == code`` for every (guess, code) of ``history``,
    in the given order."""
    return [w for w in words if all(feedback(g, w) == c for g, c in history)]


def depth_one_choice(guesses, possible, objective):
    """minimax ("minimax": least largest class) or expectimax ("expectimax": least Σ|C|²)
    over every guess; ties: a possible word first, then alphabetical."""
    def key(g):
        sizes = Counter(feedback(g, w) for w in possible).values()
        score = max(sizes) if objective == "minimax" else sum(s * s for s in sizes)
        return (score, g not in possible, g)

    return min(guesses, key=key)


def entropy_choice(guesses, possible):
    """Largest entropy of the feedback distribution over ``possible`` (every word equally
    likely) over every guess; ties: a possible word first, then alphabetical. Entropies are
    compared exactly: H = log n − (1/n) log Π_C |C|^|C|, so the largest H is the least
    product (Python integers)."""
    def key(g):
        product = 1
        for size in Counter(feedback(g, w) for w in possible).values():
            product *= size ** size
        return (product, g not in possible, g)

    return min(guesses, key=key)


def random_possible_choice(possible, seed):
    """The ``default_rng(seed).integers(len)``-th possible word (alphabetical order)."""
    return sorted(possible)[int(np.random.default_rng(seed).integers(len(possible)))]


def random_total_choice(guesses, seed):
    return sorted(guesses)[int(np.random.default_rng(seed).integers(len(guesses)))]


def q_choice(q_of_word, possible):
    """The possible word of largest Q; ties alphabetical."""
    return min(possible, key=lambda w: (-q_of_word[w], w))


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def uniform(rng):
    rng, z = splitmix64(rng)
    return rng, float(z >> 11) * (1.0 / 9007199254740992.0)


def train(members, answers, guesses, episodes, alpha, epsilon, seed, max_steps=64):
    """Q-learning by its definition: one value per guess word, ε-greedy among the possible
    words, reward = share of the other candidates ruled out; the random stream of the
    kernel (SplitMix64 seeded by seed and episode). Returns {word: Q}."""
    q = {g: 1.0 for g in guesses}
    for e in range(episodes):
        rng, _ = splitmix64(((seed * 0x9E3779B97F4A7C15) + e) & MASK64)
        rng, z = splitmix64(rng)
        answer = answers[z % len(answers)]
        belief = list(members)
        for _ in range(max_steps):
            if len(belief) == 1:
                break
            rng, u = uniform(rng)
            if u < epsilon:
                rng, v = uniform(rng)
                word = belief[min(int(v * len(belief)), len(belief) - 1)]
            else:
                word = q_choice(q, belief)
            code = feedback(word, answer)
            kept = [w for w in belief if feedback(word, w) == code]
            reward = (len(belief) - len(kept)) / (len(belief) - 1.0)
            q[word] += alpha * (reward - q[word])
            if code == GREEN:
                break
            belief = kept
    return q
