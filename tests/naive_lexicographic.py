"""A slow, obviously correct twin of the lexicographic objectives (docs/algorithms.md §2.5), for
the tests only: it enumerates the depth histogram of *every* decision tree of a state, with no
bound, no pruning and no use of the additivity the solver relies on, then picks the least by
the objective's key.

Only trees that split the state at every node are enumerated: a guess that leaves S whole
(one class) lets the same tree minus that guess play every game one guess shorter, so it is
beaten in the total, the worst case and every level of the histogram, and never optimal under
any of the objectives here.
"""

from __future__ import annotations

from functools import lru_cache

from naive import INF
from naive_hard import allowed


def key(objective: str, histogram: tuple[int, ...]) -> tuple:
    """The lexicographic key of a tree from its histogram (``histogram[i]`` = games won with
    ``i + 1`` guesses): smaller is better."""
    total = sum((i + 1) * h for i, h in enumerate(histogram))
    worst = max(i + 1 for i, h in enumerate(histogram) if h)
    if objective == "total,worst":
        return (total, worst)
    if objective == "total,tail":
        return (total, *reversed(histogram))
    if objective == "worst,total":
        return (worst, total)
    raise ValueError(objective)


class LexicographicBruteForce:
    """Every tree's histogram of a state, by the definition of a decision tree.

    ``table[g][a]`` the feedback code; ``guess_of_answer[a]`` an answer's guess index; states
    are tuples of answer indices in ascending order. With ``hard_guesses`` (the guess words),
    hard mode: a state carries the guesses still allowed (``tests/naive_hard.py``'s rule by its
    words), which shrink after every guess."""

    def __init__(self, feedback_table, guess_of_answer, word_length=5, hard_guesses=None):
        self.table = feedback_table
        self.guess_of_answer = guess_of_answer
        self.all_green = 3**word_length - 1
        self.hard_guesses = hard_guesses
        self.every_guess = frozenset(range(len(feedback_table)))
        self.histograms = lru_cache(maxsize=None)(self._histograms)

    def after(self, allowed_set, g, code) -> frozenset:
        """The guesses allowed after guess g scored ``code`` (all of them in normal mode)."""
        if self.hard_guesses is None:
            return allowed_set
        step = [(self.hard_guesses[g], code)]
        return frozenset(h for h in allowed_set if allowed(step, self.hard_guesses[h]))

    def classes(self, g, state) -> dict[int, tuple[int, ...]]:
        groups: dict[int, list[int]] = {}
        for a in state:
            groups.setdefault(self.table[g][a], []).append(a)
        return {code: tuple(members) for code, members in groups.items()}

    def guess_histograms(self, g, state, d, forced=False, allowed_set=None) -> frozenset:
        """The histograms (tuples of length d) of every tree of (state, d) whose root plays g;
        empty if some answer cannot be won in time, or if g does not split the state and is
        not ``forced`` (a fixed opener is played even when it tells nothing)."""
        allowed_set = self.every_guess if allowed_set is None else allowed_set
        groups = self.classes(g, state)
        if len(groups) == 1 and self.all_green not in groups and not forced:
            return frozenset()
        first = tuple([1 if self.all_green in groups else 0] + [0] * (d - 1))
        sums = {first}
        for code, members in groups.items():
            if code == self.all_green:
                continue
            below = self.histograms(members, d - 1, self.after(allowed_set, g, code))
            sums = {tuple([s[0]] + [s[i + 1] + h[i] for i in range(d - 1)]) for s in sums for h in below}
            if not sums:
                return frozenset()
        return frozenset(sums)

    def _histograms(self, state, d, allowed_set) -> frozenset:
        """The histograms of every tree of (state, d) (every answer won within d guesses)
        playing only guesses of ``allowed_set``."""
        if d < 1:
            return frozenset()
        result: set = set()
        for g in sorted(allowed_set):
            result |= self.guess_histograms(g, state, d, allowed_set=allowed_set)
        return frozenset(result)

    def best(self, objective, state, d, guess=None, allowed_set=None) -> tuple | None:
        """The least key over every tree of (state, d) (whose root plays ``guess`` if given)
        under ``allowed_set`` (default every guess), as (key, histogram); None when no tree
        wins every answer in time."""
        allowed_set = self.every_guess if allowed_set is None else allowed_set
        found = (self.guess_histograms(guess, state, d, forced=True, allowed_set=allowed_set)
                 if guess is not None else self.histograms(state, d, allowed_set))
        if not found:
            return None
        histogram = min(found, key=lambda h: key(objective, h))
        return key(objective, histogram), histogram

    def first_guess(self, objective, state, d, allowed_set=None) -> int:
        """The guess the solver must play at (state, d): the first, in the candidate order of
        the total objective (3n − k − [g ∈ S], Σ|C|², index; docs/algorithms.md §4.4), among
        the guesses (of ``allowed_set``) some tree with the least key starts with."""
        allowed_set = self.every_guess if allowed_set is None else allowed_set
        best = self.best(objective, state, d, allowed_set=allowed_set)
        n = len(state)
        ranked = []
        for g in sorted(allowed_set):
            groups = self.classes(g, state)
            green = 1 if self.all_green in groups else 0
            ranked.append((3 * n - len(groups) - green, sum(len(m) ** 2 for m in groups.values()), g))
        for *_, g in sorted(ranked):
            mine = self.best(objective, state, d, guess=g, allowed_set=allowed_set)
            if mine is not None and mine[0] == best[0]:
                return g
        return -1


__all__ = ["INF", "LexicographicBruteForce", "key"]
