"""The classic agents: random baselines, depth-one minimax and expectimax, entropy (docs/algorithms.md §8.5).

Source: Orenbach et al., *AI algorithms on Wordle and its variants* (a course project), who
compare random baselines, depth-one minimax and expectimax, entropy and a Q-learning agent
(:mod:`solver.policies.qlearning`). Their rules are described there in words; the tie-breaks
and the reading of "expected class size" below are ours, stated so that every choice is
defined.

Every agent plays in a *belief setting* (:mod:`solver.policies.belief`): a state is a sorted
int32 array of *member* indices of its :class:`~solver.policies.belief.Universe` — answers in
the ``answers`` setting (the project's usual state, so these agents are ordinary
:class:`~solver.policies.base.Policy` objects for :func:`solver.evaluation.scoring.score_policy`,
the gap report and the UCT study), every allowed guess in the ``guesses`` setting (bind one
with :meth:`ClassicPolicy.in_belief`). When one member remains, it is guessed (the project's
rule, :mod:`solver.policies.base`).

- ``random_total``: a uniformly random allowed guess (any of the ``n_guesses``), drawn with
  ``numpy.random.default_rng(seed).integers(n_guesses)``;
- ``random_possible``: a uniformly random word of the state (consistent with all feedback),
  ``default_rng(seed).integers(|S|)``-th member in index order;
- ``minimax1``: over every allowed guess, the least largest feedback class (the adversary picks
  the feedback that leaves most words);
- ``expectimax1``: over every allowed guess, the least expected size of the class left,
  ``Σ_C |C|² / |S|`` (every word of the state equally likely; the all-green class counts);
- ``entropy``: over every allowed guess, the largest Shannon entropy of the feedback
  distribution over the state, ``H(g) = −Σ_C p_C log p_C`` with ``p_C = |C| / |S|`` (the
  all-green class counts) — the expected information the feedback gives about the word.
  Entropies are compared exactly (the integer exponent key of :mod:`solver.policies.mig`), so
  mathematically equal entropies tie. In the ``answers`` setting it is MIG_B (``mig_b``),
  the same kernel over the same words; in the ``guesses`` setting the distribution is over the
  allowed words still possible.

Ties (minimax1, expectimax1, entropy): a guess still possible first, then alphabetical
(lowest index).

Hard mode (the belief's ``allowed`` set, :class:`solver.game.environments.HardEpisode`): every
rule above runs over the allowed guesses only (``random_total`` draws
``default_rng(seed).integers(len(allowed))``-th of them); the words still possible are always
allowed, so ``random_possible`` and ``qlearning`` play as in normal mode.
The random agents need the per-decision seed that the scorers give (``seed=None`` raises).
"""

from __future__ import annotations

import copy
from enum import StrEnum

import numpy as np

from solver.game.spec import n_patterns
from solver.policies.base import Policy, restricted_rows
from solver.policies.belief import BeliefSetting, Universe, answers_universe, guesses_universe

#: Registry names of the agents of this module (Q-learning: solver.policies.qlearning).
NAMES = ("random_total", "random_possible", "minimax1", "expectimax1", "entropy")
#: Posterior probability above which the deterministic agents guess the most probable word
#: (a weighted belief: Noisy Wordle, :mod:`solver.policies.noisy`).
COMMIT_THRESHOLD = 0.5
#: Guesses of best noise-free score that the entropy agent scores under noise (beside the
#: possible answers, :func:`entropy_candidates`).
ENTROPY_SHORTLIST = 100


class ClassicPolicy(Policy):
    """Base of the classic agents: a :class:`~solver.policies.base.Policy` whose state lives in
    a :class:`~solver.policies.belief.Universe` (the answers unless bound otherwise).

    Args:
        word_list: the :class:`solver.game.wordlists.WordList`.
        table: its feedback table, uint8 or uint16[n_guesses, n_answers].
    """

    deterministic = True

    def __init__(self, word_list, table: np.ndarray):
        super().__init__(word_list, table)
        self._universe: Universe | None = None
        self.belief = BeliefSetting.ANSWERS

    @property
    def universe(self) -> Universe:
        """The universe the states index (built on first use)."""
        if self._universe is None:
            self._universe = (answers_universe(self.word_list, self.table) if self.belief is BeliefSetting.ANSWERS
                              else guesses_universe(self.word_list))
        return self._universe

    def in_belief(self, universe: Universe) -> ClassicPolicy:
        """A copy of this agent whose states are member indices of ``universe``."""
        bound = copy.copy(self)
        bound.belief = universe.belief
        bound._universe = universe
        return bound

    def __getstate__(self):
        # the universe's table may be 168 MB (memory-mapped): rebuilt in the worker instead
        state = dict(self.__dict__)
        state["_universe"] = None
        return state

    def _decide(self, belief, seed: int | None) -> int:
        """The belief's state holds member indices of :attr:`universe` (non-empty). With weights
        (a noisy posterior), a committing agent first guesses a word of probability above
        :data:`COMMIT_THRESHOLD`, then :meth:`_choose_weighted` decides."""
        state = belief.state
        if len(state) == 0:
            raise ValueError("empty state: no word is consistent with the feedback so far")
        if len(state) == 1:
            return int(self.universe.guess_of_member[state[0]])
        state = np.ascontiguousarray(state, dtype=np.int32)
        if belief.weights is None:
            if belief.allowed is not None:
                return int(self._choose_hard(state, belief.guesses_left, seed,
                                             np.ascontiguousarray(belief.allowed, dtype=np.int32)))
            return int(self._choose(state, belief.guesses_left, seed))
        if belief.allowed is not None:
            raise ValueError(f"{self.name} plays a weighted belief only in normal mode")
        weights = np.ascontiguousarray(belief.weights, dtype=np.float64)
        if self.commits:
            k = int(np.argmax(weights))
            if float(weights[k] / weights.sum()) > COMMIT_THRESHOLD:
                return int(self.universe.guess_of_member[state[k]])
        return int(self._choose_weighted(state, weights, belief, seed))

    #: Whether a weighted belief's most probable word is guessed once its probability exceeds
    #: :data:`COMMIT_THRESHOLD` (the deterministic agents; the random baselines do not).
    commits = False

    def _choose_weighted(self, state: np.ndarray, weights: np.ndarray, belief, seed: int | None) -> int:
        """The rule over a weighted belief; by default the weights are ignored (the random
        agents draw uniformly over the words still possible, Q-learning reads its table)."""
        return self._choose(state, belief.guesses_left, seed)

    def _choose_hard(self, state, guesses_left, seed, allowed):
        """The rule among the guesses ``allowed``: by default :meth:`_choose`, for the agents
        that only guess words still possible (always allowed in hard mode)."""
        return self._choose(state, guesses_left, seed)

    def _answers_only(self) -> None:
        if self.belief is not BeliefSetting.ANSWERS:
            raise ValueError(f"{self.name} plays a weighted belief only over the answers")


def _need_seed(name: str, seed: int | None) -> int:
    if seed is None:
        raise ValueError(f"{name} is randomised: it needs a seed for every decision")
    return int(seed)


class RandomTotal(ClassicPolicy):
    """``random_total``: a uniformly random allowed guess (module docstring)."""

    deterministic = False
    name = "random_total"
    #: Scorers let its games run this long (a random guess may fail to split a two-word state
    #: many times running; the longest legacy game seen took 115 guesses).
    max_game_guesses = 10_000

    def _choose(self, state, guesses_left, seed):
        rng = np.random.default_rng(_need_seed(self.name, seed))
        return int(rng.integers(self.word_list.n_guesses))

    def _choose_hard(self, state, guesses_left, seed, allowed):
        rng = np.random.default_rng(_need_seed(self.name, seed))
        return int(allowed[int(rng.integers(len(allowed)))])


class RandomPossible(ClassicPolicy):
    """``random_possible``: a uniformly random word still possible (module docstring)."""

    deterministic = False
    name = "random_possible"

    def _choose(self, state, guesses_left, seed):
        rng = np.random.default_rng(_need_seed(self.name, seed))
        return int(self.universe.guess_of_member[state[int(rng.integers(len(state)))]])


class DepthOneObjective(StrEnum):
    """What a depth-one agent minimises over a guess's feedback classes."""

    #: the largest class (``minimax1``)
    MINIMAX = "minimax"
    #: the expected class size, ``Σ_C |C|²`` (``expectimax1``)
    EXPECTIMAX = "expectimax"


class DepthOnePolicy(ClassicPolicy):
    """``minimax1`` (:attr:`DepthOneObjective.MINIMAX`) or ``expectimax1``
    (:attr:`DepthOneObjective.EXPECTIMAX`); deterministic.

    The choice scans every allowed guess's classes over the state
    (:func:`solver.policies._classic_kernel.classic_choose`): O(n_guesses · |S|) per decision.
    """

    OBJECTIVES = tuple(DepthOneObjective)
    commits = True

    def __init__(self, word_list, table: np.ndarray,
                 objective: DepthOneObjective | str = DepthOneObjective.MINIMAX):
        super().__init__(word_list, table)
        if objective not in self.OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(self.OBJECTIVES)}, got {objective!r}")
        self.objective = DepthOneObjective(objective)
        self.name = f"{self.objective}1"

    def _choose(self, state, guesses_left, seed):
        universe = self.universe
        return self._run(state, universe.table, universe.member_of_guess)

    def _choose_hard(self, state, guesses_left, seed, allowed):
        universe = self.universe
        rows, _, member_of_guess = restricted_rows(allowed, universe.table, universe.guess_of_member,
                                                   universe.member_of_guess)
        return int(allowed[self._run(state, rows, member_of_guess)])

    def _run(self, state, table, member_of_guess) -> int:
        from solver.policies._classic_kernel import EXPECTIMAX, MINIMAX, classic_choose

        return int(classic_choose(state, table, member_of_guess, self.universe.n_members,
                                  MINIMAX if self.objective is DepthOneObjective.MINIMAX else EXPECTIMAX,
                                  n_patterns(self.word_list.word_length)))

    def _choose_weighted(self, state, weights, belief, seed):
        """Least largest class mass / least ``Σ_C W(C)²`` over the classes the guess would make if
        the feedback were truthful (:mod:`solver.policies.noisy`)."""
        from solver.policies._noisy_kernel import weighted_depth_one_choose

        self._answers_only()
        alive = np.zeros(self.word_list.n_answers, dtype=np.bool_)
        alive[state] = True
        answer_of_guess = np.ascontiguousarray(self.word_list.guess_answer_index, dtype=np.int32)
        return int(weighted_depth_one_choose(self.table, state, weights, alive, answer_of_guess,
                                             0 if self.objective is DepthOneObjective.MINIMAX else 1,
                                             n_patterns(self.word_list.word_length)))


class EntropyPolicy(ClassicPolicy):
    """``entropy``: the guess of largest feedback entropy over the belief (module docstring);
    deterministic.

    The choice is :func:`solver.policies._policy_kernel.mig_choose` run over the universe
    (its table, member ↔ guess maps and prime tables for up to ``n_members`` words) with the
    possible-first tie rule: O(n_guesses · |S|) per decision.
    """

    name = "entropy"
    commits = True

    def _choose(self, state, guesses_left, seed):
        universe = self.universe
        return self._run(state, universe.table, universe.guess_of_member, universe.member_of_guess)

    def _choose_hard(self, state, guesses_left, seed, allowed):
        universe = self.universe
        rows, guess_of_member, member_of_guess = restricted_rows(allowed, universe.table, universe.guess_of_member,
                                                                 universe.member_of_guess)
        return int(allowed[self._run(state, rows, guess_of_member, member_of_guess)])

    def _run(self, state, table, guess_of_member, member_of_guess) -> int:
        from solver.policies._policy_kernel import mig_choose
        from solver.policies.mig import factor_tables

        return int(mig_choose(state, table, guess_of_member, member_of_guess, True,
                              factor_tables(self.universe.n_members), n_patterns(self.word_list.word_length)))

    def _choose_weighted(self, state, weights, belief, seed):
        """Under noisy feedback: the largest expected information gain over the posterior among
        :func:`entropy_candidates` (:mod:`solver.policies.noisy`)."""
        from solver.policies._noisy_kernel import entropy_choose

        self._answers_only()
        if not belief.noisy:
            raise ValueError("the entropy agent takes weights only under noisy feedback")
        length = self.word_list.word_length
        answer_guess = self.word_list.answer_guess_index
        answer_of_guess = np.ascontiguousarray(self.word_list.guess_answer_index, dtype=np.int32)
        candidates = entropy_candidates(self.table, state, weights, answer_guess, n_patterns(length))
        return int(entropy_choose(self.table, candidates, state, weights, answer_of_guess, length,
                                  n_patterns(length)))


def entropy_candidates(table: np.ndarray, members: np.ndarray, weights: np.ndarray, answer_guess: np.ndarray,
                       patterns: int, shortlist: int | None = None) -> np.ndarray:
    """The guesses the entropy agent scores: the ``shortlist`` (:data:`ENTROPY_SHORTLIST`) guesses
    of least ``Σ_C W(C)²`` over the belief (the noise-free expectimax score, cheap: no
    logarithms; ties lowest index) and every answer of positive weight; sorted int32."""
    from solver.policies._noisy_kernel import weighted_class_scores

    shortlist = ENTROPY_SHORTLIST if shortlist is None else int(shortlist)
    _, sum_squares = weighted_class_scores(table, members, weights, patterns)
    best = np.argsort(sum_squares, kind="stable")[:shortlist]
    return np.union1d(best, answer_guess[members]).astype(np.int32)


#: name → the agent's constructor ``(word_list, table)``, in the answers setting; the registry
#: (:func:`solver.policies.registry.make_policy`) is the one way to build one by name.
_CLASSES = {
    "random_total": RandomTotal,
    "random_possible": RandomPossible,
    "minimax1": lambda word_list, table: DepthOnePolicy(word_list, table, DepthOneObjective.MINIMAX),
    "expectimax1": lambda word_list, table: DepthOnePolicy(word_list, table, DepthOneObjective.EXPECTIMAX),
    "entropy": EntropyPolicy,
}


def _register() -> None:
    from solver.policies.registry import register_single_policy

    for name, help_text in [
            ("random_total", "random_total (a uniformly random allowed guess; seeded)"),
            ("random_possible", "random_possible (a random word consistent with the feedback; seeded)"),
            ("minimax1", "minimax1 (least largest feedback class)"),
            ("expectimax1", "expectimax1 (least expected class size)"),
            ("entropy", "entropy (largest feedback entropy over the possible words; plays in either "
                        "belief setting)")]:
        register_single_policy(name, _CLASSES[name], help_text)


_register()
