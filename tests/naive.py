"""Slow, obviously correct twins of the kernels, written for the tests only.

Every kernel test compares against one of these (the stumpy pattern): they follow the
definitions in algorithms.md literally, with no pruning, no bounds and no shortcuts beyond
the base case of the recursion.
"""

from __future__ import annotations

from collections import Counter

INF = 1 << 30
ALL_GREEN = 242


def feedback(guess: str, answer: str) -> int:
    """Feedback code by the rule's words: greens first, then yellows left to right while the
    answer still has an unmatched copy of the letter (a different procedure from
    ``solver.game.feedback.feedback_code``: it crosses letters off a list)."""
    colours = ["b"] * 5
    leftover = []
    for i in range(5):
        if guess[i] == answer[i]:
            colours[i] = "g"
        else:
            leftover.append(answer[i])
    for i in range(5):
        if colours[i] != "g" and guess[i] in leftover:
            colours[i] = "y"
            leftover.remove(guess[i])
    return sum("byg".index(c) * 3**i for i, c in enumerate(colours))


def table(guesses, answers) -> list[list[int]]:
    """The feedback table as nested lists, ``table[g][a]``."""
    return [[feedback(g, a) for a in answers] for g in guesses]


class BruteForce:
    """F(S, d) by the plain Bellman recursion over every guess (Bertsimas & Paskov §3),
    memoised on (S, d) only so that the tests finish; plus the solver's tie-break rule.

    ``guess_of_answer[a]`` is the guess index of answer a; states are tuples of answer
    indices in ascending order.
    """

    def __init__(self, feedback_table, guess_of_answer):
        self.table = feedback_table
        self.guess_of_answer = guess_of_answer
        self.memo: dict = {}

    def classes(self, g, state):
        groups: dict[int, list[int]] = {}
        for a in state:
            groups.setdefault(self.table[g][a], []).append(a)
        return groups

    def guess_cost(self, g, state, d):
        """|S| + Σ over non-green classes of F(C, d − 1)."""
        cost = len(state)
        for code, members in self.classes(g, state).items():
            if code != ALL_GREEN:
                cost += self.value(tuple(members), d - 1)
        return min(cost, INF)

    def value(self, state, d) -> int:
        return self.best(state, d)[0]

    def best(self, state, d):
        """(F(S, d), the guess the solver must pick): the first optimal guess in the order
        (3n − k − [g ∈ S], Σ|C|², index) among guesses that split S (n ≥ 2)."""
        key = (state, d)
        if key in self.memo:
            return self.memo[key]
        n = len(state)
        if n == 1:
            result = (1, self.guess_of_answer[state[0]])
        elif d <= 1:
            result = (INF, -1)
        else:
            result = (INF, -1)
            best_key = None
            for g in range(len(self.table)):
                groups = self.classes(g, state)
                if len(groups) == 1:
                    continue
                cost = self.guess_cost(g, state, d)
                if cost >= INF:
                    continue
                green = 1 if ALL_GREEN in groups else 0
                order = (cost, 3 * n - len(groups) - green,
                         sum(len(m) ** 2 for m in groups.values()), g)
                if best_key is None or order < best_key:
                    best_key = order
                    result = (cost, g)
        self.memo[key] = result
        return result

    def tree(self, state, d, guess=None):
        """The tie-broken optimal tree as nested dicts ``{"guess": g, "children": {code: …}}``."""
        if guess is None:
            _, guess = self.best(state, d)
        children = {}
        for code, members in sorted(self.classes(guess, state).items()):
            if code != ALL_GREEN:
                children[code] = self.tree(tuple(members), d - 1)
        return {"guess": guess, "children": children}


def tree_from_arrays(tree, node=0):
    """A :class:`policy_tree.tree.DecisionTree` as the same nested dicts."""
    lo, hi = int(tree.edge_start[node]), int(tree.edge_start[node + 1])
    return {
        "guess": int(tree.node_guess[node]),
        "children": {int(tree.edge_feedback[e]): tree_from_arrays(tree, int(tree.edge_child[e]))
                     for e in range(lo, hi)},
    }


def letter_counts_ok(guess: str, answer: str, code: int) -> bool:
    """A property of every feedback: per letter, greens + yellows = min(count in guess,
    count in answer)."""
    marks = [(code // 3**i) % 3 for i in range(5)]
    shown = Counter(guess[i] for i in range(5) if marks[i] > 0)
    return all(shown[ch] == min(guess.count(ch), answer.count(ch)) for ch in set(guess))
