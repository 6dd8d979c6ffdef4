"""Slow, obviously correct twins of the heuristic policies, for the tests only.

They follow docs/algorithms.md §8 literally, in plain Python over a feedback table given as nested
lists or a numpy array ``table[g][a]``:

- entropy: ``−Σ p log p`` from a Counter of feedback codes;
- exact comparison of entropies: maximising H over a fixed state is minimising the integer
  ``Π_C |C|^|C|`` (Python big integers), so ties are decided without any float;
- MIG_A / MIG_B choice by sorting all guesses on (product, [not in state], index);
- base-heuristic totals by plain recursion; rollout by evaluating each candidate's Q-total;
- games played one by one.

The all-green code is ``3**L − 1`` for words of length ``word_length`` L (default 5, Wordle).
"""

from __future__ import annotations

import math
from collections import Counter

from naive import classes


def all_green(word_length: int = 5) -> int:
    """The feedback code of a correct guess for words of ``word_length`` letters."""
    return 3**word_length - 1


def entropy(table, guess: int, state) -> float:
    """Entropy in nats of the feedback distribution of ``guess`` over ``state``."""
    n = len(state)
    counts = Counter(int(table[guess][a]) for a in state)
    return -sum(c / n * math.log(c / n) for c in counts.values())


def product_key(table, guess: int, state) -> int:
    """Π_C |C|^|C| over the feedback classes: lower ⇔ higher entropy, exactly."""
    key = 1
    for c in Counter(int(table[guess][a]) for a in state).values():
        key *= c**c
    return key


def mig_order(table, state, guess_of_answer, answers_first: bool, n_guesses: int) -> list[int]:
    """Every guess in MIG's preference order: exact entropy, [answers first among ties], index."""
    members = {int(guess_of_answer[a]) for a in state}
    keys = {g: product_key(table, g, state) for g in range(n_guesses)}
    if answers_first:
        return sorted(range(n_guesses), key=lambda g: (keys[g], g not in members, g))
    return sorted(range(n_guesses), key=lambda g: (keys[g], g))


def mig_choice(table, state, guess_of_answer, answers_first: bool, n_guesses: int) -> int:
    """MIG_A (answers_first False) or MIG_B guess; a singleton state is guessed."""
    if len(state) == 1:
        return int(guess_of_answer[state[0]])
    return mig_order(table, state, guess_of_answer, answers_first, n_guesses)[0]


def base_total(table, state, guess_of_answer, answers_first: bool, n_guesses: int, memo=None,
               word_length: int = 5) -> int:
    """Σ over the answers of ``state`` of the guesses MIG uses from it (final one included)."""
    memo = {} if memo is None else memo
    key = tuple(state)
    if key in memo:
        return memo[key]
    if len(state) == 1:
        return 1
    g = mig_choice(table, state, guess_of_answer, answers_first, n_guesses)
    total = len(state)
    for code, members in classes(table, g, state).items():
        if code != all_green(word_length):
            total += base_total(table, members, guess_of_answer, answers_first, n_guesses, memo,
                                word_length)
    memo[key] = total
    return total


def rollout_choice(table, state, guess_of_answer, answers_first: bool, n_candidates: int,
                   n_guesses: int, rank_answers_first: bool = False, memo=None, word_length: int = 5):
    """Rollout_n: ``(guess, [(candidate, Q-total)])``. Candidates: the n first guesses in the
    order (exact entropy, [answers first among ties if rank_answers_first], index); lowest Q-total wins, ties
    by higher entropy, then possible answer, then index."""
    if len(state) == 1:
        return int(guess_of_answer[state[0]]), []
    members = {int(guess_of_answer[a]) for a in state}
    candidates = mig_order(table, state, guess_of_answer, rank_answers_first, n_guesses)[:n_candidates]
    scored = []
    for g in candidates:
        q = len(state)
        for code, cls in classes(table, g, state).items():
            if code != all_green(word_length):
                q += base_total(table, cls, guess_of_answer, answers_first, n_guesses, memo,
                                word_length)
        scored.append((g, q))
    best = min(scored, key=lambda t: (t[1], product_key(table, t[0], state), t[0] not in members, t[0]))
    return best[0], scored


def play(choose, table, answer: int, opener: int, n_answers: int, limit: int = 30,
         word_length: int = 5) -> int:
    """Guesses used against ``answer`` when ``choose(state) -> guess`` plays after ``opener``."""
    state = list(range(n_answers))
    guess = opener
    for used in range(1, limit + 1):
        code = int(table[guess][answer])
        if code == all_green(word_length):
            return used
        state = [a for a in state if int(table[guess][a]) == code]
        guess = choose(state)
    raise RuntimeError("no progress")
