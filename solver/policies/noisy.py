"""Noisy Wordle: the agents that play on the Bayesian belief over the answers
(docs/algorithms.md §14; issue 12, item 4).

The game: after each guess that is not the answer, one of the L positions of the feedback,
chosen uniformly, is recoloured uniformly among the three colours (possibly to its own
colour). When the guess *is* the answer the game ends and the all-green pattern is shown
without noise; a noisy pattern of another guess may by chance look all green, and then the
game goes on. These rules, the likelihood ``P(shown | guess, answer)`` and the belief's
weights are the game layer's (:class:`solver.game.environments.NoisyEpisode`,
:class:`~solver.game.environments.NoisyBelief`, :mod:`solver.game._noise_kernel`).

Agents: the classic agents themselves (:mod:`solver.policies.classic`,
:mod:`solver.policies.qlearning`), given a weighted :class:`~solver.game.protocol.Belief`
(:meth:`NoisyBelief.belief`: the answers of positive weight, their weights, ``noisy=True``);
no agent is written twice. Every agent first applies the **one-left rule**: when one answer
has positive weight, it is guessed. Then:

- ``random_total``: a uniformly random allowed guess;
- ``random_possible``: a uniformly random answer of positive weight (uniform, not by weight);
- ``minimax1`` / ``expectimax1``: over every allowed guess, the least largest posterior mass of
  one true-pattern class / the least ``Σ_C W(C)²`` (the classes the guess would make if the
  feedback were truthful, weighted by the belief); ties: an answer of positive weight first,
  then alphabetical;
- ``qlearning``: the answer of positive weight with the largest value of the noise-free
  answers-setting Q-table (``artifacts/qlearning-<lists>-answers.msgpack``), ties alphabetical;
- ``entropy``: the guess of largest expected information gain about the answer (the entropy
  of the predictive outcome distribution — a win or a shown pattern — minus the noise's own
  entropy); candidates: the 100 guesses of least ``Σ_C W(C)²`` (the expectimax1 score, a
  cheap shortlist: scoring all 12,972 guesses with the noisy outcome distribution costs about
  ten times more) and every answer of positive weight; ties: the larger win probability, then
  alphabetical.

The deterministic agents (minimax1, expectimax1, qlearning, entropy) also apply the **commit
rule**: when one answer holds posterior probability above 1/2, it is guessed (its weight
dominates every other answer's together; the noise otherwise keeps low-weight answers alive
for many turns). The random agents do not (they are baselines).
"""

from __future__ import annotations

import numpy as np

from solver.game.errors import InputError
from solver.game.environments import NoisyBelief, noise_likelihood  # noqa: F401  (re-exported)
from solver.game.spec import all_green
from solver.policies.classic import COMMIT_THRESHOLD  # noqa: F401  (re-exported: the commit rule's threshold)

#: The agents, in report order.
NOISY_AGENTS = ("random_total", "random_possible", "minimax1", "expectimax1", "qlearning", "entropy")
#: Default guess cap of a noisy game: a game not won after this many guesses is stopped (a loss).
DEFAULT_CAP = 20
#: Guesses of best noise-free score that the entropy agent scores (beside the possible answers).
ENTROPY_SHORTLIST = 100


def check_agents(names) -> list[str]:
    """The normalised agent names; InputError (exit 2) for an unknown or empty list."""
    out = []
    for name in names:
        name = str(name).strip().lower()
        if not name:
            continue
        if name not in NOISY_AGENTS:
            raise InputError(f"unknown agent {name!r}: choose from {', '.join(NOISY_AGENTS)}")
        if name not in out:
            out.append(name)
    if not out:
        raise InputError("no agent given")
    return out


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


def make_noisy_agent(name: str, word_list, table: np.ndarray, qtable=None):
    """The agent ``name`` (one of :data:`NOISY_AGENTS`): the classic agent of that name
    (:mod:`solver.policies.classic`, :mod:`solver.policies.qlearning`), which plays a weighted
    belief (:meth:`NoisyBelief.belief`) by the rules of the module docstring. qlearning loads the
    answers-setting table from artifacts/ now unless ``qtable`` is given (QTableError, exit 2, if
    missing)."""
    (name,) = check_agents([name])
    if name == "qlearning":
        from solver.policies.qlearning import QLearningPolicy

        agent = QLearningPolicy(word_list, table, qtable)
        agent.qtable()  # a missing or mismatched table fails before any game
        return agent
    from solver.policies.classic import make_classic

    return make_classic(word_list, table, name)


def green_code(word_list) -> int:
    """The all-green pattern code of the lists' word length."""
    return all_green(word_list.word_length)
