"""Slow, obviously correct twins of the Noisy Wordle kernels (words, exact fractions), for the
tests only. They follow the noise model of docs/algorithms.md §14 literally: enumerate the L
positions and the 3 colours, each pair with probability 1/(3L)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from naive import feedback


def digits(code: int, length: int) -> list[int]:
    return [(code // 3**i) % 3 for i in range(length)]


def code_of(colours: list[int]) -> int:
    return sum(c * 3**i for i, c in enumerate(colours))


def noise_distribution(true: int, length: int = 5) -> dict[int, Fraction]:
    """P(shown | true) by enumerating (position, colour), each with probability 1/(3L)."""
    out: Counter = Counter()
    for position in range(length):
        for colour in range(3):
            colours = digits(true, length)
            colours[position] = colour
            out[code_of(colours)] += Fraction(1, 3 * length)
    return dict(out)


def posterior(answers: list[str], history: list[tuple[str, int]]) -> dict[str, Fraction]:
    """The posterior over ``answers`` (uniform prior) after ``history`` of (guess word, shown
    pattern) pairs, none of which won: Bayes' rule with the enumerated likelihood; an answer
    equal to a guess has likelihood 0 (the game would have ended)."""
    length = len(answers[0])
    weights = {}
    for answer in answers:
        w = Fraction(1)
        for guess, shown in history:
            if guess == answer:
                w = Fraction(0)
                break
            w *= noise_distribution(feedback(guess, answer), length).get(shown, Fraction(0))
        weights[answer] = w
    total = sum(weights.values())
    return {a: w / total for a, w in weights.items()}


def information_gain(guess: str, post: dict[str, Fraction]) -> tuple[float, float]:
    """(I(answer; outcome) in nats, P(guess is the answer)) by enumeration: the outcome is 'win'
    or the shown pattern; I = H(outcome) − Σ_a p(a) H(outcome | a)."""
    length = len(guess)
    outcome: Counter = Counter()
    conditional = 0.0
    for answer, p in post.items():
        if p == 0:
            continue
        if answer == guess:
            outcome["win"] += p
            continue
        dist = noise_distribution(feedback(guess, answer), length)
        for shown, q in dist.items():
            outcome[shown] += p * q
        conditional += float(p) * -sum(float(q) * math.log(float(q)) for q in dist.values())
    entropy = -sum(float(p) * math.log(float(p)) for p in outcome.values() if p > 0)
    return entropy - conditional, float(post.get(guess, Fraction(0)))
