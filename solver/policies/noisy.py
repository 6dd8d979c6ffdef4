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
:mod:`solver.policies.qlearning`; built by name with
:func:`solver.policies.registry.make_policy`, the one registry), given a weighted :class:`~solver.game.protocol.Belief`
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


from solver.game.errors import InputError
from solver.game.environments import NoisyBelief, noise_likelihood  # noqa: F401  (re-exported)
from solver.game.spec import all_green
from solver.policies.classic import COMMIT_THRESHOLD, ENTROPY_SHORTLIST, entropy_candidates  # noqa: F401  (re-exported)

#: The agents, in report order.
NOISY_AGENTS = ("random_total", "random_possible", "minimax1", "expectimax1", "qlearning", "entropy")
#: Default guess cap of a noisy game: a game not won after this many guesses is stopped (a loss).
DEFAULT_CAP = 20


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


def green_code(word_list) -> int:
    """The all-green pattern code of the lists' word length."""
    return all_green(word_list.word_length)
