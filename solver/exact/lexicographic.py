"""Lexicographic objectives: the least primary value, then, among the trees that reach it, the
least second key (docs/algorithms.md §2.5).

- ``total,worst``: the least total, then the least worst case;
- ``total,tail``: the least total, then the fewest games at the deepest level, then at the
  level above, … (the depth histogram compared from its deep end);
- ``worst,total``: the least worst case W*, then the least total — the total objective's tree
  under the guess limit W* (:func:`solve_worst_total`).

For the two ``total,…`` objectives a tree is total-optimal if and only if its root guess g has
``Q*(S, d, g) = V*(S, d)`` and every subtree is total-optimal in its class (additivity of the
total, §2.5), so the set of total-optimal trees is a product over the classes, and both second
keys combine over the classes monotonically (the worst case as 1 + the largest child's, the
histogram as the children's sum, and a sum of histograms is least, in the order from the deep
end, when each summand is least). The optimum is therefore the recursion
:meth:`_Lexicographic.best` over the total-optimal guesses only, memoised per (S, d). The
total-optimal guesses of a state are found by the exact search's :func:`evaluate_guess`
against the cut-off V* + 1, in the candidate order, so the guesses whose lower bound exceeds
V* are never searched. Ties of the second key go to the first guess in the candidate order
(the objective's bound, then Σ|C|², then alphabetical; §4.4), as in every other tree.

Normal or hard mode (a state then carries the hints so far: the guesses they allow, §10),
standard or Yellow feedback, no priors; the recursion is plain Python over the search kernel
(each root class is one task of :func:`solver.exact.bellman.solve`'s workers).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.game.errors import InputError
from solver.game.spec import MODES, Game, Mode, Objective
from solver.game.values import INF

#: The search kernel's id of the total objective (``SEARCH_OBJECTIVES.index("total")``).
_TOTAL_ID = 0


@dataclass(frozen=True)
class LexicographicValue:
    """The lexicographic optimum of one state S with d guesses left.

    Attributes:
        total: V*(S, d), the least total of further guesses over S's answers.
        histogram: tuple of d ints: ``histogram[i]`` answers of S found with ``i + 1`` more
            guesses by the chosen total-optimal tree.
        guess: the guess played at S (a guess index).
    """

    total: int
    histogram: tuple[int, ...]
    guess: int

    @property
    def worst(self) -> int:
        """The most further guesses any answer of S needs."""
        return max(i + 1 for i, count in enumerate(self.histogram) if count)


def second_key(objective: Objective, histogram) -> tuple[int, ...]:
    """The second key of a total-optimal tree under ``objective`` (smaller is better), from
    its depth histogram (``histogram[i]`` = answers found with ``i + 1`` guesses): the worst
    case for ``total,worst``; the histogram read from its deep end for ``total,tail``."""
    if objective is Objective.TOTAL_WORST:
        return (max(i + 1 for i, count in enumerate(histogram) if count),)
    if objective is Objective.TOTAL_TAIL:
        return tuple(reversed(histogram))
    raise ValueError(f"no second key over the total for {objective!r}")


def check_lexicographic(game: Game) -> Game:
    """``game`` if its lexicographic objective can be built here (normal or hard mode, the
    modes whose allowed guesses the recursion carries); else InputError."""
    if game.mode not in (Mode.NORMAL, Mode.HARD):
        raise InputError(f"the '{game.objective}' objective is built in normal and hard mode "
                         f"only; got {game.mode} mode")
    return game


class _Lexicographic:
    """The recursion of the module docstring over one localised root class.

    ``table`` holds the class's own columns (answers 0..m-1), ``search`` a
    :func:`solver.exact.search.new_search` triple deep enough for the class."""

    def __init__(self, objective: Objective, table, guess_of_answer, zobrist1, zobrist2, search,
                 n_patterns: int, mode_id: int, rules):
        from solver.exact.search import evaluate_guess, guess_bounds_of

        self.objective = objective
        self.mode_id = mode_id
        self.hard = mode_id == MODES.index(Mode.HARD)
        self.table = table
        self.guess_of_answer = guess_of_answer
        self.zobrist = (zobrist1, zobrist2)
        self.search = search
        self.n_patterns = n_patterns
        self.all_green = n_patterns - 1
        self.rules = rules
        self.memo: dict[tuple, LexicographicValue | None] = {}
        self._evaluate = evaluate_guess
        self._bounds = guess_bounds_of

    def classes(self, guess: int, state: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """The non-green classes of ``guess`` on ``state``: (code, sorted answers), codes
        ascending."""
        codes = self.table[guess, state]
        return [(int(code), state[codes == code]) for code in np.unique(codes)
                if code != self.all_green]

    def after(self, rule: tuple, guess: int, code: int) -> tuple:
        """The rule (constraint int8[WIDTH], allowed guesses int32 ascending) after ``guess``
        scored ``code``: the same in normal mode; in hard mode the hints tightened and the
        guesses that keep them (§10)."""
        if not self.hard:
            return rule
        from solver.game._hard_mode_kernel import filter_allowed_packed, tighten_constraint

        constraint, candidates = rule
        letters = self.rules.letters
        tightened = np.empty_like(constraint)
        tighten_constraint(constraint, letters[guess], code, tightened)
        allowed = np.empty(candidates.shape[0], dtype=np.int32)
        count = filter_allowed_packed(tightened, self.rules.packed, letters.shape[1], candidates, allowed)
        return tightened, allowed[:count]

    def optimal_guesses(self, state: np.ndarray, d: int, rule: tuple) -> tuple[int, list[int]]:
        """(V*(S, d), the guesses g with Q*(S, d, g) = V*(S, d), in the candidate order),
        among the guesses ``rule`` allows; V* is INF (and the list empty) when S cannot be
        won in time."""
        constraint, candidates = rule
        n = len(state)
        bound, order = self._bounds(state, self.table, candidates, self.n_patterns, _TOTAL_ID)
        ranked = np.lexsort((candidates, order, bound))
        best, optimal = INF, []
        for i in ranked:
            if bound[i] > best or bound[i] >= INF:
                break  # ascending bounds: no later guess can reach the best value
            g = int(candidates[i])
            if bound[i] == 2 * n - 1:  # an answer that splits S into singletons: exact (§3.3)
                value = 2 * n - 1
            else:
                value = int(self._evaluate(state, g, d, min(best + 1, INF), self.table,
                                           self.guess_of_answer, *self.zobrist, self.search,
                                           _TOTAL_ID, self.mode_id, self.rules, constraint,
                                           candidates))
            if value < best:
                best, optimal = value, [g]
            elif value == best < INF:
                optimal.append(g)
        return best, optimal

    def best(self, state: np.ndarray, d: int, rule: tuple) -> LexicographicValue | None:
        """The lexicographic optimum of ``state`` (sorted local answer indices, int32) with
        ``d`` guesses left under ``rule`` (:meth:`after`); None when it cannot be won in time."""
        n = len(state)
        key = (state.tobytes(), d, rule[0].tobytes() if self.hard else b"")
        if key in self.memo:
            return self.memo[key]
        empty = [0] * d
        if n == 1 and d >= 1:
            result = LexicographicValue(1, tuple([1] + empty[1:]), int(self.guess_of_answer[state[0]]))
        elif d <= 1:
            result = None
        elif n == 2:  # guess either answer: 1 + 2 guesses, one game at each depth
            result = LexicographicValue(3, tuple([1, 1] + empty[2:]),
                                        int(self.guess_of_answer[state[0]]))
        else:
            total, optimal = self.optimal_guesses(state, d, rule)
            result = None
            if total == 2 * n - 1:
                # every total-optimal tree guesses an answer that splits S into singletons
                # (§3.1): one game at depth 1, the others at 2; the first such answer
                result = LexicographicValue(total, tuple([1, n - 1] + empty[2:]), optimal[0])
            elif optimal:
                best_key = None
                for g in optimal:
                    histogram = np.zeros(d, dtype=np.int64)
                    histogram[0] = int(np.any(self.table[g, state] == self.all_green))
                    for code, members in self.classes(g, state):
                        child = self.best(members, d - 1, self.after(rule, g, code))
                        histogram[1:] += child.histogram
                    candidate = tuple(int(h) for h in histogram)
                    order = second_key(self.objective, candidate)
                    if best_key is None or order < best_key:  # ties: the first in the order
                        best_key, result = order, LexicographicValue(total, candidate, g)
        self.memo[key] = result
        return result

    def tree(self, state: np.ndarray, d: int, rule: tuple, dtype) -> tuple:
        """The chosen tree of ``state`` as the search kernel's arrays (preorder, children by
        ascending feedback): (node_guess uint32, edge_start uint32[n_nodes + 1],
        edge_feedback ``dtype``, edge_child uint32)."""
        node_guess, edge_start, edge_feedback, edge_child = [], [], [], []

        def build(members: np.ndarray, guesses_left: int, rule: tuple) -> int:
            node = len(node_guess)
            chosen = self.best(members, guesses_left, rule)
            node_guess.append(chosen.guess)
            edge_start.append(len(edge_feedback))
            children = self.classes(chosen.guess, members)
            first = len(edge_feedback)
            edge_feedback.extend(code for code, _ in children)
            edge_child.extend([0] * len(children))
            for i, (code, child) in enumerate(children):
                edge_child[first + i] = build(child, guesses_left - 1,
                                              self.after(rule, chosen.guess, code))
            return node

        build(state, d, rule)
        edge_start.append(len(edge_feedback))
        return (np.asarray(node_guess, dtype=np.uint32), np.asarray(edge_start, dtype=np.uint32),
                np.asarray(edge_feedback, dtype=dtype), np.asarray(edge_child, dtype=np.uint32))


def solve_class(objective: Objective, state, guesses_left: int, table, guess_of_answer, zobrist1,
                zobrist2, search, n_patterns: int, mode_id: int, rules, constraint,
                candidates) -> tuple:
    """The lexicographic optimum of one localised root class as the search kernel's
    :func:`~solver.exact.search.search_subtree` returns it: ``(total, node_guess, edge_start,
    edge_feedback, edge_child, stats)``; total INF and an empty tree when the class cannot be
    won in time. ``objective`` is ``total,worst`` or ``total,tail``; ``mode_id`` the mode's
    id (:attr:`~solver.game.spec.Game.mode_id`); the other arguments as for
    :func:`~solver.exact.search.search_subtree`."""
    solver = _Lexicographic(objective, table, guess_of_answer, zobrist1, zobrist2, search,
                            n_patterns, mode_id, rules)
    rule = (constraint, candidates)
    result = solver.best(state, guesses_left, rule)
    stats = search[2].copy()
    if result is None:
        empty = np.zeros(0, dtype=np.uint32)
        return (INF, empty, np.zeros(1, dtype=np.uint32), np.zeros(0, dtype=table.dtype), empty,
                stats)
    return (result.total, *solver.tree(state, guesses_left, rule, table.dtype), stats)
