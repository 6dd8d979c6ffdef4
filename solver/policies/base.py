"""The policy interface shared by every policy: heuristics, rollout, UCT and the exact tree.

Every policy is an agent of the one protocol (:mod:`solver.game.protocol`):
``choose(belief, rng) -> guess index``, the :class:`~solver.game.protocol.Belief` holding the
**state** (the answers still possible, a sorted ``int32`` array of answer indices into
``word_list.answers``), ``guesses_left`` (6 at the start of a game) and the history.

Every policy guesses the answer when only one remains (docs/algorithms.md §8.1: without this rule
MIG_A would play the alphabetically first word); :meth:`Policy.choose` enforces it before
calling the policy's own rule :meth:`Policy._choose` ``(state, guesses_left, seed)``, where
``seed`` is the integer the decision's generator was made from
(:func:`solver.game.protocol.rng_seed`; None for a deterministic call). ``_choose`` is a private
helper of ``choose`` (a template method), not a second protocol: nothing else calls it.

In hard mode (the belief's ``allowed`` is set) :meth:`Policy.choose` calls
:meth:`Policy._choose_hard` ``(state, guesses_left, seed, allowed)`` instead; a policy that
cannot restrict its guesses (rollout, UCT) refuses with an InputError. The classic agents and
MIG restrict theirs (:func:`restricted_rows`); the exact policy solves hard mode
(:meth:`solver.policies.exact_policy.ExactPolicy.solve_hard`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from solver.game.errors import InputError
from solver.game.protocol import Belief, rng_seed
from solver.policies.belief import BeliefSetting


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

    def choose(self, belief: Belief, rng: np.random.Generator | None = None) -> int:
        """Guess index to play given ``belief`` (:class:`~solver.game.protocol.Belief`, its state
        non-empty). ``rng`` drives randomised policies (ignored by deterministic ones); see
        :func:`solver.game.protocol.decision_rng`. Raises ValueError on an empty state,
        TypeError when ``belief`` is not a Belief."""
        if not isinstance(belief, Belief):
            raise TypeError(f"choose takes a solver.game.protocol.Belief, not {type(belief).__name__} "
                            "(Belief(state, guesses_left))")
        return self._decide(belief, rng_seed(rng))

    def _decide(self, belief: Belief, seed: int | None) -> int:
        """The one-left rule, then :meth:`_choose`."""
        state = belief.state
        if len(state) == 0:
            raise ValueError("empty state: no answer is consistent with the feedback so far")
        if len(state) == 1:
            return int(self.word_list.answer_guess_index[state[0]])
        if belief.allowed is not None:
            allowed = np.ascontiguousarray(belief.allowed, dtype=np.int32)
            return int(self._choose_hard(np.ascontiguousarray(state, dtype=np.int32), belief.guesses_left, seed,
                                         allowed))
        return int(self._choose(state, belief.guesses_left, seed))

    def _choose_hard(self, state: np.ndarray, guesses_left: int, seed: int | None, allowed: np.ndarray) -> int:
        """The policy's rule in hard mode, among the guess indices ``allowed`` (sorted int32):
        refused unless a policy overrides it."""
        raise InputError(f"policy {self.name!r} does not play hard mode (it cannot restrict its guesses); "
                         "hard mode takes mig_a, mig_b, random_total, random_possible, minimax1, expectimax1, "
                         "entropy, qlearning, exact or a function of the history")

    def in_belief(self, universe) -> Policy:
        """This policy playing in ``universe``'s belief setting
        (:class:`solver.policies.belief.Universe`). A policy that needs the answer list plays
        only in ``answers`` (itself); the classic agents also play in ``guesses``
        (:meth:`solver.policies.classic.ClassicPolicy.in_belief`). Raises InputError otherwise."""
        if universe.belief is not BeliefSetting.ANSWERS:
            raise InputError(f"policy {self.name!r} plays only in the answers belief setting (it needs the "
                             "answer list); the guesses setting takes random_total, random_possible, minimax1, "
                             "expectimax1, entropy, qlearning")
        return self

    @abstractmethod
    def _choose(self, state: np.ndarray, guesses_left: int, seed: int | None) -> int:
        """The policy's own rule, for states with at least two answers."""


def restricted_rows(allowed: np.ndarray, table: np.ndarray, guess_of_member: np.ndarray,
                    member_of_guess: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays of a choice kernel restricted to the guesses ``allowed`` (sorted int32 guess
    indices), so that a kernel scanning "every guess" scans those: ``(table[allowed],
    position in allowed of each member's guess (−1 if not allowed), member_of_guess[allowed])``,
    each of its input's dtype.
    A kernel's answer ``k`` is then guess ``allowed[k]``; the order of the guesses (and so every
    tie-break by index) is kept."""
    position = np.searchsorted(allowed, guess_of_member)
    clipped = np.minimum(position, len(allowed) - 1)
    found = allowed[clipped] == guess_of_member
    return (np.ascontiguousarray(table[allowed]), np.where(found, clipped, -1).astype(guess_of_member.dtype),
            np.ascontiguousarray(member_of_guess[allowed]))
