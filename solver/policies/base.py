"""The policy interface shared by every policy: heuristics, rollout, UCT and the exact tree.

A **state** is the set of answers still possible, given as a sorted ``int32`` array of answer
indices (into ``word_list.answers``); ``guesses_left`` counts the guesses still allowed
(6 at the start of a game). A policy maps (state, guesses_left) to a guess index (into
``word_list.guesses``).

Every policy guesses the answer when only one remains (docs/algorithms.md §8.1: without this rule
MIG_A would play the alphabetically first word); :meth:`Policy.choose` enforces it before
calling the policy's own :meth:`Policy._choose`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np


class Policy(ABC):
    """Base class of all policies.

    Attributes:
        name: short identifier used in reports (``"mig_a"``, ``"rollout10_b"``, ...).
        deterministic: True when the choice depends only on (state, guesses_left); the
            scorer then evaluates the policy as a decision tree (each state decided once).
            Randomised policies are played game by game with an explicit seed.
        word_list: the :class:`solver.game.wordlists.WordList`.
        table: the feedback table, uint8[n_guesses, n_answers] (uint16 for words of more than 5 letters).
    """

    name: str = "policy"
    deterministic: bool = True

    def __init__(self, word_list, table: np.ndarray):
        self.word_list = word_list
        self.table = table

    def choose(self, state: np.ndarray, guesses_left: int, seed: int | None = None) -> int:
        """Guess index to play in ``state`` (sorted int32 answer indices, non-empty) with
        ``guesses_left`` ≥ 1 guesses left. ``seed`` drives randomised policies (ignored by
        deterministic ones). Raises ValueError on an empty state."""
        if len(state) == 0:
            raise ValueError("empty state: no answer is consistent with the feedback so far")
        if len(state) == 1:
            return int(self.word_list.answer_guess_index[state[0]])
        return int(self._choose(state, guesses_left, seed))

    @abstractmethod
    def _choose(self, state: np.ndarray, guesses_left: int, seed: int | None) -> int:
        """The policy's own rule, for states with at least two answers."""
