"""Slow, obviously correct twins of a game analysis's values (docs/algorithms.md §15.2, §15.4),
for the tests only: the one valuation of a state ``W(S, d) = V*(S, d + e(S))``, a move's
finite value (its cost), its finite regret and luck, by the plain recursions of tests/naive.py
(normal mode) and tests/naive_hard.py (hard mode), over every guess, total objective.
"""

from __future__ import annotations

from fractions import Fraction

from naive import INF, BruteForce, table as naive_table
from naive_hard import HardBruteForce

#: Extra guesses tried at most (as the service's MAX_EXTRA_GUESSES).
MAX_EXTRA = 12


class NaiveValues:
    """The values of one game on a small list: ``hard`` chooses the recursion. A state is a
    tuple of answer indices (ascending); ``allowed`` the guesses hard mode still allows (a
    frozenset of guess indices; ignored in normal mode)."""

    def __init__(self, guesses, answers, hard: bool):
        self.guesses, self.answers, self.hard = list(guesses), list(answers), hard
        table = naive_table(self.guesses, self.answers)
        self.table = table
        self.green = 3 ** len(self.guesses[0]) - 1
        if hard:
            self.brute = HardBruteForce(self.guesses, self.answers, table)
        else:
            self.brute = BruteForce(table, [self.guesses.index(a) for a in self.answers])

    def start(self):
        return tuple(range(len(self.answers))), frozenset(range(len(self.guesses)))

    def after(self, allowed, g, code):
        return self.brute.after(allowed, g, code) if self.hard else allowed

    def classes(self, g, state):
        groups: dict[int, list[int]] = {}
        for a in state:
            groups.setdefault(self.table[g][a], []).append(a)
        return groups

    def value(self, state, allowed, d) -> int:
        """V*(S, d): INF when some answer cannot be won within d (d ≤ 0 included)."""
        if d <= 0:
            return INF
        if self.hard:
            return self.brute.best(state, allowed, d)[0]
        return self.brute.value(state, d)

    def q(self, state, allowed, d, g) -> int:
        """Q*(S, d, g) = |S| + Σ over non-green classes of V*(C, d − 1)."""
        if d <= 0:
            return INF
        total = len(state)
        for code, members in self.classes(g, state).items():
            if code == self.green:
                continue
            v = self.value(tuple(members), self.after(allowed, g, code), d - 1)
            if v >= INF:
                return INF
            total += v
        return total

    def w(self, state, allowed, d) -> tuple[int, int]:
        """(W(S, d), e(S)): V* with the least extra guesses that make it finite."""
        for e in range(0, MAX_EXTRA + 1):
            v = self.value(state, allowed, d + e)
            if v < INF:
                return v, e
        raise AssertionError("no finite value")

    def cost(self, state, allowed, d, g) -> tuple[int, bool]:
        """(the move's finite value, whether it gives up the sure finish), §15.4."""
        value, e = self.w(state, allowed, d)
        q = self.q(state, allowed, d + e, g)
        if q < INF:
            return q, False
        unsafe = sum(len(m) for code, m in self.classes(g, state).items()
                     if code != self.green
                     and self.value(tuple(m), self.after(allowed, g, code), d + e - 1) >= INF)
        for more in range(e + 1, e + MAX_EXTRA + 1):
            relaxed = self.q(state, allowed, d + more, g)
            if relaxed < INF:
                return max(relaxed, value) + unsafe, True
        raise AssertionError("no finite relaxed value")

    def game(self, steps, limit: int) -> list[dict]:
        """Per move of ``steps`` ((guess index, code) pairs): W, e, cost, gives_up, the finite
        regret and the luck (Fractions), and the value of the state left (``after``)."""
        state, allowed = self.start()
        rows = []
        for t, (g, code) in enumerate(steps, start=1):
            d = limit - t + 1
            n = len(state)
            value, e = self.w(state, allowed, d)
            cost, gives_up = self.cost(state, allowed, d, g)
            after_state = tuple(a for a in state if self.table[g][a] == code)
            after_allowed = self.after(allowed, g, code)
            after = 0 if code == self.green else self.w(after_state, after_allowed, d - 1)[0]
            per_after = len(after_state) or 1
            rows.append({"value": value, "extra": e, "cost": cost, "gives_up": gives_up,
                         "regret_finite": Fraction(cost - value, n),
                         "luck": Fraction(cost - n, n) - Fraction(after, per_after),
                         "after": Fraction(after, per_after)})
            state, allowed = after_state, after_allowed
        return rows
