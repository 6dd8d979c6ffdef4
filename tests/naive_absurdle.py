"""A slow, obviously correct twin of the Absurdle search (docs/algorithms.md §13), for the tests.

The adversary is played by its definition: partition the state by feedback (computed with
``naive.feedback``), keep a largest class, chosen by the tie rule (every largest class for
``adversarial``). ``wins(S, t)`` is the plain minimax over every guess sequence of length up
to ``t``: no bounds, no move ordering, no skipping of useless guesses, and no assumption about
when a win happens — a reply is a win exactly when the kept class is the all-green one.
Only a memo over (state, t), which changes no value.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from naive import feedback


def greens_yellows(code: int, word_length: int) -> tuple[int, int]:
    digits = [(code // 3**i) % 3 for i in range(word_length)]
    return digits.count(2), digits.count(1)


class NaiveAbsurdle:
    """Absurdle on ``answers`` (the adversary's first state) and ``guesses`` (lists of words)."""

    def __init__(self, answers, guesses, tie: str):
        self.answers = tuple(answers)
        self.guesses = tuple(guesses)
        self.tie = tie
        self.length = len(self.answers[0])
        self.green = 3**self.length - 1
        self._wins = lru_cache(maxsize=None)(self._wins_uncached)

    def classes(self, guess: str, state) -> dict[int, tuple[str, ...]]:
        parts = defaultdict(list)
        for answer in state:
            parts[feedback(guess, answer)].append(answer)
        return {code: tuple(words) for code, words in parts.items()}

    def replies(self, guess: str, state) -> list[tuple[int, tuple[str, ...]]]:
        """The (pattern, class) the adversary may keep: one under a deterministic rule, every
        largest class under ``adversarial``."""
        parts = self.classes(guess, state)
        largest = max(len(words) for words in parts.values())
        tied = sorted(code for code, words in parts.items() if len(words) == largest)
        if self.tie == "adversarial":
            chosen = tied
        elif self.tie == "lowest-code":
            chosen = [min(tied)]
        elif self.tie == "fewest-clues":
            chosen = [min(tied, key=lambda c: (*greens_yellows(c, self.length), c))]
        else:
            raise ValueError(self.tie)
        return [(code, parts[code]) for code in chosen]

    def _wins_uncached(self, state: tuple, t: int) -> bool:
        if t == 0:
            return False
        return any(all(code == self.green or self._wins(words, t - 1)
                       for code, words in self.replies(guess, state))
                   for guess in self.guesses)

    def wins(self, state, t: int) -> bool:
        return self._wins(tuple(state), t)

    def least(self, state=None, limit: int = 8) -> int | None:
        """The least t with a forced win from ``state`` (default: every answer), or None."""
        state = self.answers if state is None else tuple(state)
        return next((t for t in range(1, limit + 1) if self.wins(state, t)), None)

    def play(self, steps, state=None) -> bool:
        """Whether the (guess, pattern) ``steps`` are a game the adversary may play from
        ``state`` that ends in a win at the last step (under ``adversarial``, any of the
        largest classes may be the one shown)."""
        state = self.answers if state is None else tuple(state)
        for i, (guess, code) in enumerate(steps):
            options = dict(self.replies(guess, state))
            if code not in options:
                return False
            if code == self.green:
                return i == len(steps) - 1
            state = options[code]
        return False

    def strategy_wins(self, move, state=None) -> bool:
        """Whether a plan (``solver.exact.absurdle.Move``) wins against every reply the
        adversary may give from ``state``; counts nothing, checks every branch."""
        state = self.answers if state is None else tuple(state)
        options = dict(self.replies(move.guess, state))
        if sorted(options) != sorted(code for code, _ in move.replies):
            return False
        for code, nxt in move.replies:
            if code == self.green:
                if nxt is not None:
                    return False
            elif nxt is None or not self.strategy_wins(nxt, options[code]):
                return False
        return True

    def depth(self, move) -> int:
        """Guesses of the longest line of a plan."""
        return 1 + max((self.depth(nxt) for _, nxt in move.replies if nxt is not None), default=0)
