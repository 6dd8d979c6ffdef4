"""Rollout_n: one-step lookahead over the n highest-entropy guesses, with a MIG base heuristic.

Source: Bhambri, Bhattacharjee & Bertsekas, *Reinforcement learning methods for Wordle: a
POMDP/adaptive control approach* (IEEE CoG 2023), the rollout algorithm; the variant scored
here is the one of Peiszan (Basel 2025 bachelor's thesis), "Rollout_n"; our summary in
docs/algorithms.md §8.2.

At a state ``S`` (|S| ≥ 2):

1. the candidates are the ``n`` guesses of highest entropy (exact, see
   :mod:`solver.policies.mig`), equal entropies in alphabetical order — for both bases. This
   is the thesis's reading: with it our Rollout_10_A, Rollout_10_B and Rollout_100_A from
   SALET are 8251, 8303 and 8192 (3.5641, 3.5866, 3.5387), the published figures. With MIG_B
   as base it can leave MIG_B's own choice (a possible answer tied with alphabetically
   earlier non-answers) out of the candidates, which is why Rollout_10_B is worse than MIG_B;
   ``rank_answers_first=True`` (names ``rollout<n>_b_p``) ranks answers first among ties,
   equal entropies instead, so the base's choice is always a candidate (7921 from SALET);
2. a candidate's **Q-factor** is the average number of guesses to finish when it is played
   now and the base heuristic plays on, over **every** answer of S (exact, not sampled):
   ``Q(g) = (|S| + Σ_{C ≠ all-green} T(C)) / |S|`` where ``T(C)`` is the base heuristic's
   total over the class ``C`` (its decision tree from C);
3. the policy plays the lowest Q. Ties: higher entropy, then a possible answer, then
   alphabetical. Q-factors share the denominator |S|, so they are compared as exact integer
   totals; entropies are compared by the exact key of :mod:`solver.policies._policy_kernel`.

The base-heuristic totals ``T(C)`` are memoised by state (a 128-bit Zobrist hash and the
size) in a table shared by every rollout policy of the process with the same word list and
base heuristic (so Rollout_10_A and Rollout_100_A, and every opener, reuse each other's
work). The memo has a fixed capacity; when a probe window is full an entry is overwritten
(it only costs a recomputation). The policy is deterministic (guesses_left is not used).
"""

from __future__ import annotations

import numpy as np

from solver.policies.mig import VARIANTS, as_state, check_variant, factor_tables, pattern_count
from solver.policies.base import Policy

#: Slots of the shared memo of base-heuristic totals (32 bytes each: 128 MiB).
MEMO_CAPACITY = 1 << 22

_SHARED: dict[tuple, BaseTotals] = {}


class BaseTotals:
    """Memoised totals ``T(S)`` of a MIG base heuristic (see :func:`base_totals`)."""

    def __init__(self, word_list, table: np.ndarray, variant: str, capacity: int = MEMO_CAPACITY):
        from solver.game._memo_kernel import new_memo
        from solver.policies._policy_kernel import new_scratch, new_workspace
        from solver.game.hashing import zobrist_keys

        self.word_list = word_list
        self.table = table
        self.variant = check_variant(variant)
        self.answers_first = VARIANTS[self.variant]
        self.factors = factor_tables(word_list.n_answers)
        self.zobrist = zobrist_keys(word_list.n_answers)
        self.memo = new_memo(int(capacity))
        #: feedback patterns of the list's words (3**L): the kernels' scratch size
        self.n_patterns = pattern_count(word_list)
        self.workspace = new_workspace(word_list.n_answers, self.n_patterns)
        self.scratch = new_scratch(self.factors[0].shape[0], self.n_patterns)

    def total(self, state) -> int:
        """Σ over the answers of ``state`` of the guesses MIG uses from it (int)."""
        from solver.policies._policy_kernel import base_total

        state = as_state(state)
        if state.size == 0:
            raise ValueError("empty state")
        value = base_total(state, self.table, self.word_list.answer_guess_index,
                           self.word_list.guess_answer_index, self.answers_first, self.factors,
                           self.zobrist[0], self.zobrist[1], self.memo, self.workspace, self.scratch)
        if value < 0:
            raise RuntimeError("base heuristic game deeper than the kernel's stack")
        return int(value)

    def stored(self) -> int:
        """States currently held in the memo."""
        return int(np.count_nonzero(self.memo.meta))


def base_totals(word_list, table: np.ndarray, variant: str) -> BaseTotals:
    """The process-wide memo of MIG_<variant> totals for this word list (created on first use)."""
    key = (word_list.answers_sha256, word_list.guesses_sha256, check_variant(variant))
    shared = _SHARED.get(key)
    if shared is None:  # a table of the same lists has the same contents: the memo stays valid
        shared = BaseTotals(word_list, table, variant)
        if len(_SHARED) >= 4:
            _SHARED.clear()
        _SHARED[key] = shared
    return shared


def clear_memos() -> None:
    """Forget every shared memo of base-heuristic totals (benchmarks time cold starts)."""
    _SHARED.clear()


class RolloutPolicy(Policy):
    """Rollout_n with base heuristic MIG_A (``base="a"``) or MIG_B (``base="b"``).

    Args:
        word_list: the :class:`solver.game.wordlists.WordList`.
        table: its feedback table, uint8 or uint16[n_guesses, n_answers].
        n_candidates: n, the number of highest-entropy guesses evaluated (10, 100).
        base: ``"a"`` or ``"b"``.
        rank_answers_first: rank answers first among ties (equal entropy)
            (default False: alphabetical, the thesis's reading).

    Named ``rollout<n>_<base>`` (``rollout10_a``), ``rollout<n>_<base>_p`` with rank_answers_first.
    """

    deterministic = True

    def __init__(self, word_list, table: np.ndarray, n_candidates: int = 10, base: str = "a",
                 rank_answers_first: bool = False):
        super().__init__(word_list, table)
        self.rank_answers_first = bool(rank_answers_first)
        if int(n_candidates) < 1:
            raise ValueError(f"rollout needs at least one candidate, got {n_candidates}")
        self.n_candidates = int(n_candidates)
        self.base = check_variant(base)
        self.name = f"rollout{self.n_candidates}_{self.base}" + ("_p" if self.rank_answers_first else "")
        self._totals: BaseTotals | None = None

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_totals"] = None  # the memo is per process
        return state

    @property
    def totals(self) -> BaseTotals:
        """The memoised totals ``T(S)`` of the base heuristic (:func:`base_totals`, shared in the
        process; made on first use, not pickled)."""
        if self._totals is None:
            self._totals = base_totals(self.word_list, self.table, self.base)
        return self._totals

    def q_factors(self, state) -> list[tuple[int, int, float]]:
        """The candidates at ``state`` (≥ 2 answers) in rank order, as
        ``(guess index, Q-total, entropy key)``; Q-factor = Q-total / |state|."""
        _, candidates, q_totals, keys = self._run(state)
        return [(int(g), int(q), float(k)) for g, q, k in zip(candidates, q_totals, keys)]

    def _run(self, state):
        from solver.policies._policy_kernel import rollout_choose

        t = self.totals
        return rollout_choose(as_state(state), self.table, self.word_list.answer_guess_index,
                              self.word_list.guess_answer_index, t.answers_first,
                              self.rank_answers_first, self.n_candidates, t.factors, t.zobrist[0], t.zobrist[1], t.memo,
                              t.workspace, t.n_patterns)

    def _choose(self, state: np.ndarray, guesses_left: int, seed: int | None) -> int:
        return int(self._run(state)[0])
