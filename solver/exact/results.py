"""The results of the exact solver (:mod:`solver.exact.bellman`): a solve's tree and figures
(:class:`SolveResult`), a state's exact value and optimal guesses (:class:`StateSolution`),
and the error of a game no policy wins (:class:`~solver.game.errors.UnwinnableError`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from policy_tree.tree import DecisionTree
from solver.game.errors import UnwinnableError  # noqa: F401 (re-exported)
from solver.game.spec import Game, Objective
from solver.game.wordlists import WordList

#: Limits of the search kernel's candidate sort key (:mod:`solver.exact._search_kernel`).
MAX_ANSWERS = 11585


MAX_GUESSES = 1 << 17


@dataclass
class SolveResult:
    """The outcome of :func:`solve`.

    Attributes:
        game: the :class:`~solver.game.spec.Game` solved (lists, guess limit, objective, mode,
            priors, feedback rule).
        opener: the root guess.
        total: Σ over answers of guesses used, an int (for the worst-case objective too: the
            tree minimises ``max_guesses``, and ``total`` is what that tree adds up to).
        tree: the optimal decision tree.
        guesses_per_answer: int64[n_answers], guesses used for each answer.
        seconds: wall seconds of the solve (classes read from the journal cost ~0); for the
            run's log only, never written to the artifact.
        stats: counters summed over classes (states searched, memo hits, guesses expanded).
        journal: the solve's journal while it is kept for :func:`save_artifact` to discard
            (``solve(..., keep_journal=True)``), else None.
        opener_proof: the record that the opener was proven optimal over every allowed guess
            (:data:`policy_tree.schema.OPENER_PROOF_FIELDS`; set by
            :func:`solver.exact.prove.save_proven_tree`), else None.
    """

    game: Game
    opener: str
    total: int
    tree: DecisionTree
    guesses_per_answer: np.ndarray
    seconds: float
    stats: dict = field(default_factory=dict)
    journal: object = field(default=None, repr=False, compare=False)
    opener_proof: dict | None = None

    @property
    def word_list(self) -> WordList:
        """The game's lists."""
        return self.game.word_list

    @property
    def weighted_total(self) -> int | None:
        """Σ_a w_a · guesses(a) under the priors' integer weights (what the search minimised
        with priors, §10.3), or None without priors."""
        if self.game.priors is None:
            return None
        return int((self.game.priors.weights * self.guesses_per_answer).sum())

    @property
    def expected_guesses(self) -> float:
        """Expected guesses per game: under the priors when given, else the average."""
        if self.game.priors is None:
            return self.average
        return self.weighted_total / self.game.priors.total_weight

    @property
    def value(self) -> int:
        """The optimised value: ``total`` (objective total) or ``max_guesses`` (worst); under
        a lexicographic objective, its primary objective's (docs/algorithms.md §2.5)."""
        return self.max_guesses if self.game.objective.primary is Objective.WORST else self.total

    @property
    def average(self) -> float:
        """Average guesses per answer (``total / n_answers``)."""
        return self.total / self.word_list.n_answers

    @property
    def max_guesses(self) -> int:
        """The most guesses any answer takes in the tree."""
        return int(self.guesses_per_answer.max())

    @property
    def histogram(self) -> list[int]:
        """``histogram[i]`` = answers solved in ``i + 1`` guesses, length ``guess_limit``."""
        limit = self.game.guess_limit
        counts = np.bincount(self.guesses_per_answer, minlength=limit + 1)
        return [int(c) for c in counts[1:limit + 1]]


@dataclass
class StateSolution:
    """The outcome of :func:`solve_from`: the optimal subtree below a history.

    Attributes:
        game: the :class:`~solver.game.spec.Game`.
        history: the (guess, feedback code) pairs played so far, as given.
        answers: the answers still possible after the history (the state), sorted words.
        guesses_left: guesses still allowed (the guess limit minus the history's length).
        value: the Bellman value of the state under ``objective`` (Σ of further guesses over
            the answers, or the most further guesses any answer needs); 0 when the history
            already found the answer.
        tree: the optimal subtree (root = the next guess); empty when the game is over.
    """

    game: Game
    history: list
    answers: tuple[str, ...]
    guesses_left: int
    value: int
    tree: DecisionTree

    @property
    def word_list(self) -> WordList:
        """The game's lists."""
        return self.game.word_list

    @property
    def next_guess(self) -> str | None:
        """The optimal next guess, or None when the history already found the answer."""
        if self.tree.n_nodes == 0:
            return None
        return self.word_list.guesses[int(self.tree.node_guess[0])]
