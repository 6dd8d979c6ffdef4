"""A slow, obviously correct twin of the search under priors (docs/algorithms.md §10.3), for
the tests only: the plain Bellman recursion with Σ_a w_a · guesses(a) as the cost, no
pruning, no shortcuts; and the solver's tie-break among the optimal guesses (§4.4) with the
weighted per-guess bound W + 2(W − w_green) − Σ_{C ≠ green} max_{a∈C} w_a."""

from __future__ import annotations

from naive import INF


class WeightedBruteForce:
    def __init__(self, feedback_table, guess_of_answer, weights, word_length=5):
        self.table = feedback_table
        self.guess_of_answer = guess_of_answer
        self.weights = [int(w) for w in weights]
        self.all_green = 3**word_length - 1
        self.memo: dict = {}

    def classes(self, g, state):
        groups: dict[int, list[int]] = {}
        for a in state:
            groups.setdefault(self.table[g][a], []).append(a)
        return groups

    def bound(self, groups):
        W = sum(self.weights[a] for members in groups.values() for a in members)
        green = sum(self.weights[a] for a in groups.get(self.all_green, []))
        maxima = sum(max(self.weights[a] for a in members)
                     for code, members in groups.items() if code != self.all_green)
        return W + 2 * (W - green) - maxima

    def guess_cost(self, g, state, d):
        W = sum(self.weights[a] for a in state)
        classes = [tuple(m) for code, m in self.classes(g, state).items() if code != self.all_green]
        return min(W + sum(self.value(c, d - 1) for c in classes), INF)

    def value(self, state, d):
        return self.best(state, d)[0]

    def best(self, state, d):
        key = (state, d)
        if key in self.memo:
            return self.memo[key]
        if len(state) == 1:
            result = (self.weights[state[0]], self.guess_of_answer[state[0]])
        elif d <= 1:
            result = (INF, -1)
        else:
            result, best_key = (INF, -1), None
            for g in range(len(self.table)):
                groups = self.classes(g, state)
                if len(groups) == 1:
                    continue
                cost = self.guess_cost(g, state, d)
                if cost >= INF:
                    continue
                sumsq = sum(len(m) ** 2 for m in groups.values())
                order = (cost, self.bound(groups), sumsq, g)
                if best_key is None or order < best_key:
                    best_key, result = order, (cost, g)
        self.memo[key] = result
        return result

    def tree(self, state, d, guess=None):
        if guess is None:
            _, guess = self.best(state, d)
        return {"guess": guess,
                "children": {code: self.tree(tuple(m), d - 1)
                             for code, m in sorted(self.classes(guess, state).items())
                             if code != self.all_green}}
