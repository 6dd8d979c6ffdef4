"""Slow, obviously correct twin of the worst-case proof of every opener
(``prove(..., objective worst, all_openers=True)``, docs/algorithms.md §9.5), for the tests only.

Each opener's least worst case by the plain Bellman recursion of the worst-case objective
(§2.2): :class:`naive.BruteForce` in normal mode, :class:`naive_hard.HardBruteForce` (the
allowed guesses in the state) in hard mode; no yes/no decisions, no levels, no pruning.
"""

from __future__ import annotations

from naive import BruteForce, table as naive_table
from naive_hard import HardBruteForce


def every_opener_least_worst_case(word_list, mode: str = "normal", limit: int = 6) -> dict[str, int]:
    """{opener: the least number of guesses within which some policy that plays it first wins
    every game, or ``naive.INF`` when none does within ``limit``}, for every allowed guess."""
    table = naive_table(word_list.guesses, word_list.answers)
    everything = tuple(range(word_list.n_answers))
    if mode == "hard":
        brute = HardBruteForce(word_list.guesses, word_list.answers, table, "worst")
        all_guesses = frozenset(range(word_list.n_guesses))
        return {word_list.guesses[g]: brute.cost(g, everything, all_guesses, limit)
                for g in range(word_list.n_guesses)}
    brute = BruteForce(table, list(word_list.answer_guess_index), "worst")
    return {word_list.guesses[g]: brute.guess_cost(g, everything, limit)
            for g in range(word_list.n_guesses)}
