"""Slow, obviously correct twins for hard mode (docs/algorithms.md §10), for the tests only.

The rule is checked by its words: after a guess scored a feedback, a later guess must have
every green letter in its place and hold each letter at least as often as that letter was
marked green or yellow in the feedback. The brute force carries the allowed guesses as part
of the state, as the definition says, with no pruning at all.
"""

from __future__ import annotations

import numpy as np

from naive import INF, classes, first_optimal, tie_break
from solver.game._hard_mode_kernel import MAX_LENGTH  # the constraint row's layout


def colours(code: int, length: int) -> list[str]:
    return ["byg"[(code // 3**i) % 3] for i in range(length)]


def allowed(history, guess: str) -> bool:
    """Whether hard mode allows ``guess`` after ``history`` ((guess word, code) pairs)."""
    for previous, code in history:
        marks = colours(code, len(previous))
        for i, mark in enumerate(marks):
            if mark == "g" and guess[i] != previous[i]:
                return False
        for letter in set(previous):
            shown = sum(1 for i, mark in enumerate(marks) if previous[i] == letter and mark != "b")
            if guess.count(letter) < shown:
                return False
    return True


def constraint_after(constraint, guess: str, code: int) -> np.ndarray:
    """The constraint row after ``constraint`` and then ``guess`` scored ``code``, by the
    rule's words: each green letter in its place, and each letter's least count the larger of
    the old one and how often the guess's feedback marked it green or yellow (the twin of the
    kernels' ``tighten_constraint``)."""
    row = np.array(constraint, dtype=np.int8)
    marks = colours(code, len(guess))
    for i, mark in enumerate(marks):
        if mark == "g":
            row[i] = ord(guess[i]) - ord("a")
    for letter in set(guess):
        shown = sum(1 for i, mark in enumerate(marks) if guess[i] == letter and mark != "b")
        index = MAX_LENGTH + ord(letter) - ord("a")
        row[index] = max(row[index], shown)
    return row


def filter_allowed(constraint, letters, candidates) -> np.ndarray:
    """The guesses of ``candidates`` (in their order) that meet ``constraint`` (int8 row: a
    letter or -1 per position, then a least count per letter a..z), read plainly from the
    letters (uint8[n_guesses, L]): the twin of the kernels' packed filter."""
    letters = np.asarray(letters)[candidates]
    length = letters.shape[1]
    greens = constraint[:length]
    keeps_greens = np.all((greens < 0) | (letters == greens), axis=1)
    counts = np.stack([(letters == c).sum(axis=1) for c in range(26)], axis=1)
    has_letters = np.all(counts >= constraint[MAX_LENGTH:MAX_LENGTH + 26], axis=1)
    return np.asarray(candidates)[keeps_greens & has_letters]


class HardBruteForce:
    """F(S, G, d) over (answer set S, allowed guesses G, guesses left d) by the plain Bellman
    recursion (total or worst objective), G shrinking after every guess by the rule above;
    the solver's tie-break among the optimal guesses (§4.4: bound, second key, index)."""

    def __init__(self, guesses, answers, feedback_table, objective="total"):
        self.guesses = list(guesses)
        self.answers = list(answers)
        self.table = feedback_table
        self.guess_of_answer = [self.guesses.index(a) for a in self.answers]
        self.objective = objective
        self.all_green = 3 ** len(self.guesses[0]) - 1
        self.memo: dict = {}

    def after(self, allowed_set, g, code):
        """The guesses still allowed after guess g scored ``code``."""
        step = [(self.guesses[g], code)]
        return frozenset(h for h in allowed_set if allowed(step, self.guesses[h]))

    def classes(self, g, state):
        return classes(self.table, g, state)

    def cost(self, g, state, allowed_set, d):
        parts = [(code, tuple(m)) for code, m in self.classes(g, state).items() if code != self.all_green]
        values = [self.best(m, self.after(allowed_set, g, code), d - 1)[0] for code, m in parts]
        if self.objective == "worst":
            return min(max([1] + [1 + v for v in values]), INF)
        return min(len(state) + sum(values), INF)

    def best(self, state, allowed_set, d):
        key = (state, allowed_set, d)
        if key in self.memo:
            return self.memo[key]
        n = len(state)
        if n == 1:
            result = (1, self.guess_of_answer[state[0]])
        elif d <= 1:
            result = (INF, -1)
        else:
            result = first_optimal(self.table, sorted(allowed_set), state,
                                   lambda g: self.cost(g, state, allowed_set, d),
                                   lambda g, groups: tie_break(self.objective, self.all_green, groups, n))
        self.memo[key] = result
        return result

    def tree(self, state, allowed_set, d, guess=None):
        """The tie-broken optimal tree as nested dicts ``{"guess": g, "children": {code: …}}``."""
        if guess is None:
            _, guess = self.best(state, allowed_set, d)
        children = {}
        for code, members in sorted(self.classes(guess, state).items()):
            if code != self.all_green:
                children[code] = self.tree(tuple(members), self.after(allowed_set, guess, code), d - 1)
        return {"guess": guess, "children": children}


def hard_fixed_start_value(brute: HardBruteForce, prefix, limit=6):
    """The total of playing the guesses ``prefix`` blind in hard mode, then optimally
    (docs/algorithms.md §9.6), or None if the rule does not allow it blind: each word must be
    allowed after every colouring the words before it show on an answer they do not win."""
    everything = frozenset(range(len(brute.guesses)))
    j = len(prefix)
    groups: dict[tuple, list[int]] = {}
    total = 0
    for a in range(len(brute.answers)):
        codes = tuple(brute.table[g][a] for g in prefix)
        if brute.all_green in codes:
            total += codes.index(brute.all_green) + 1
            continue
        history = [(brute.guesses[g], code) for g, code in zip(prefix, codes)]
        for i in range(1, j):
            if not allowed(history[:i], brute.guesses[prefix[i]]):
                return None
        groups.setdefault(codes, []).append(a)
    for codes, members in groups.items():
        allowed_set = everything
        for g, code in zip(prefix, codes):
            allowed_set = brute.after(allowed_set, g, code)
        total += j * len(members) + brute.best(tuple(members), allowed_set, limit - j)[0]
    return min(total, INF)
