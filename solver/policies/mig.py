"""MIG — the maximum-information-gain heuristics MIG_A and MIG_B.

Source: Peiszan, *Wordle: heuristics and simulation* (Basel 2025 bachelor's thesis), the
"MIG" policies; our summary in docs/algorithms.md §8.1.

At a state ``S`` every allowed guess ``g`` (all ``n_guesses`` of them, not only the answers
still possible) is scored by the entropy of its feedback distribution over ``S``,
``H(g) = −Σ_C p_C log p_C`` with ``p_C = |C| / |S|`` over the feedback classes ``C`` (the
all-green class included); the policy plays a guess of maximum entropy. Ties:

- **MIG_A** plays the alphabetically first of the maximal guesses (lowest guess index: the
  word lists are sorted, so index order is alphabetical order);
- **MIG_B** first prefers maximal guesses that are still possible answers (in ``S``), then
  alphabetical.

**Exact ties.** Entropies are compared through the integer exponent vector of
``Π_C |C|^|C|`` (see :mod:`solver.policies._policy_kernel`): two guesses whose entropies are
mathematically equal — equal class-size multisets, or different multisets with the same
product such as {4,1,1,1,1} and {2,2,2,2} — get bit-identical scores, so the tie rule above,
not rounding, decides between them.

**The "float" tie reading** (``ties="float"``, names ``mig_a_float`` / ``mig_b_float``): the
entropy in bits computed the plain floating-point way, ``−Σ p log2 p`` summed over the
feedback codes in descending order, and ties only between bit-equal floats. Rounding then
breaks some mathematical ties instead of the tie rule. With opener SALET on the legacy lists
the exact reading gives MIG_A 8360 and MIG_B **7946**; this float reading gives 8360 and
**7948**, the thesis's figures (3.6112 and 3.4333); other summation orders or log bases give
MIG_A 8359–8364 and MIG_B 7946–7949, so the published MIG_B figure reflects float rounding
in the thesis's ties, not a different rule. No single change of the exact tie rule moves
MIG_B's 7946 (every exact tie in its SALET tree leads to the same total).

When one answer remains, every policy guesses it (:meth:`solver.policies.base.Policy.choose`).
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache

import numpy as np

from solver.game.spec import n_patterns
from solver.policies.base import Policy

#: The two MIG variants: ``answers_first`` is the MIG_B tie rule.
VARIANTS = {"a": False, "b": True}
class TieReading(StrEnum):
    """How entropies are compared: exactly (the default) or as plain floats (see above)."""

    EXACT = "exact"
    FLOAT = "float"


TIE_READINGS = tuple(TieReading)


@lru_cache(maxsize=8)
def factor_tables(n_answers: int):
    """Prime tables for the entropy key of states of up to ``n_answers`` answers (cached)."""
    from solver.policies._policy_kernel import factor_tables as kernel

    return kernel(int(n_answers))


def pattern_count(word_list) -> int:
    """Feedback patterns of the list's words, ``3**L`` (the kernels' scratch size; the last
    pattern is all green)."""
    return n_patterns(word_list.word_length)


def as_state(state) -> np.ndarray:
    """A state as a C-contiguous int32 array (the kernels' type). The caller keeps it sorted."""
    return np.ascontiguousarray(state, dtype=np.int32)


def check_variant(variant: str) -> str:
    """The MIG variant ``variant`` names, lower-cased: ``"a"`` or ``"b"`` (docs/algorithms.md §8.1);
    raises ValueError for another."""
    variant = str(variant).lower()
    if variant not in VARIANTS:
        raise ValueError(f"MIG variant must be 'a' or 'b', got {variant!r}")
    return variant


def entropy_keys(word_list, table: np.ndarray, state) -> tuple[np.ndarray, np.ndarray]:
    """Entropy key ``K = Σ_C |C| log |C|`` (nats) and class count of every guess over ``state``.

    Args:
        word_list: the :class:`solver.game.wordlists.WordList`.
        table: its feedback table, uint8 or uint16[n_guesses, n_answers].
        state: sorted answer indices (int32), non-empty.

    Returns:
        ``(keys, n_classes)``: float64[n_guesses] and int64[n_guesses]. Lower key = higher
        entropy; ``H = log |S| − K / |S|``.
    """
    from solver.policies._policy_kernel import entropy_keys as kernel

    state = as_state(state)
    if state.size == 0:
        raise ValueError("empty state")
    return kernel(state, table, factor_tables(word_list.n_answers), pattern_count(word_list))


def entropies(word_list, table: np.ndarray, state) -> np.ndarray:
    """Entropy in nats of every guess's feedback distribution over ``state``: float64[n_guesses]."""
    keys, _ = entropy_keys(word_list, table, state)
    n = len(state)
    return np.log(n) - keys / n


class MIGPolicy(Policy):
    """MIG_A (``variant="a"``) or MIG_B (``variant="b"``); deterministic.

    Args:
        word_list: the :class:`solver.game.wordlists.WordList`.
        table: its feedback table, uint8 or uint16[n_guesses, n_answers].
        variant: ``"a"`` (ties alphabetical) or ``"b"`` (answers first among ties).
        ties: ``"exact"`` (default) or ``"float"`` (the thesis-reproducing float reading above).

    ``choose(belief)`` ignores ``belief.guesses_left`` (MIG plays the same at any depth).
    Named ``mig_a``, ``mig_b`` (``mig_a_float``, ``mig_b_float`` for the float reading).
    """

    deterministic = True

    def __init__(self, word_list, table: np.ndarray, variant: str = "a",
                 ties: TieReading | str = TieReading.EXACT):
        super().__init__(word_list, table)
        self.variant = check_variant(variant)
        if ties not in TIE_READINGS:
            raise ValueError(f"ties must be one of {', '.join(TIE_READINGS)}, got {ties!r}")
        self.ties = TieReading(ties)
        self.answers_first = VARIANTS[self.variant]
        self.name = f"mig_{self.variant}" + ("" if self.ties is TieReading.EXACT else "_float")

    def _choose(self, state: np.ndarray, guesses_left: int, seed: int | None) -> int:
        return self._run(state, self.table, self.word_list.answer_guess_index, self.word_list.guess_answer_index)

    def _choose_hard(self, state, guesses_left, seed, allowed):
        """MIG over the guesses hard mode allows (:func:`solver.policies.base.restricted_rows`)."""
        from solver.policies.base import restricted_rows

        rows, guess_of_answer, answer_of_guess = restricted_rows(
            allowed, self.table, self.word_list.answer_guess_index, self.word_list.guess_answer_index)
        return int(allowed[self._run(state, rows, guess_of_answer, answer_of_guess)])

    def _run(self, state, table, guess_of_answer, answer_of_guess) -> int:
        from solver.policies._policy_kernel import mig_choose, mig_choose_float

        if self.ties is TieReading.FLOAT:
            return int(mig_choose_float(as_state(state), table, guess_of_answer, answer_of_guess,
                                        self.answers_first, pattern_count(self.word_list)))
        return int(mig_choose(as_state(state), table, guess_of_answer, answer_of_guess, self.answers_first,
                              factor_tables(self.word_list.n_answers), pattern_count(self.word_list)))
