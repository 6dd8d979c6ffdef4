"""A slow, obviously correct twin of the search under priors (docs/algorithms.md §10.3), for
the tests only: the plain Bellman recursion with Σ_a w_a · guesses(a) as the cost, no
pruning, no shortcuts; and the solver's tie-break among the optimal guesses (§4.4) with the
weighted per-guess bound W + 2(W − w_green) − Σ_{C ≠ green} max_{a∈C} w_a."""

from __future__ import annotations

from naive import INF, BruteForce


class WeightedBruteForce(BruteForce):
    """:class:`naive.BruteForce` (its recursion, memo and tree) with answer a weighing
    ``weights[a]``: a state's cost is its weight W plus its non-green classes' costs, and the
    candidate order after the value is (weighted bound, Σ|C|²)."""

    def __init__(self, feedback_table, guess_of_answer, weights, word_length=5):
        super().__init__(feedback_table, guess_of_answer, "total", word_length)
        self.weights = [int(w) for w in weights]

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

    def order(self, g, groups, n):
        sumsq = sum(len(m) ** 2 for m in groups.values())
        return (self.bound(groups), sumsq)

    def one_answer(self, a) -> int:
        return self.weights[a]
