"""The agent protocol: what an agent sees (a :class:`Belief`) and what it does (``choose``).

One protocol for every agent the project scores: heuristics, rollout, UCT, the exact tree,
the classic agents, a function of the history. An agent is any object with

- ``name`` (str): its name in reports;
- ``deterministic`` (bool): True when its choice depends only on the belief (the scorer may
  then decide each belief once); randomised agents draw from the ``rng`` they are given;
- ``word_list``: the :class:`solver.game.wordlists.WordList` it plays;
- ``choose(belief, rng) -> int``: the guess index (into ``word_list.guesses``) to play.

``rng`` is a :class:`numpy.random.Generator` made by the caller (the scorer seeds one per
decision, :func:`decision_rng`), or None for a deterministic agent: randomness is explicit, so
a score depends only on its master seed, not on how games are split between processes.

This module holds no rules of play and imports nothing outside the game layer (import-linter,
pyproject.toml).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True)
class Belief:
    """What an agent knows before a guess.

    Attributes:
        state: sorted int32 indices of the words still possible (answer indices in the
            usual setting; member indices of a :class:`solver.policies.belief.Universe` in the
            classic agents' ``guesses`` setting); non-empty.
        guesses_left: guesses still allowed, ≥ 1 (clamped at 1 past the guess limit).
        history: ``(guess index, feedback code)`` pairs played so far, first guess first.
        weights: float64 weights of the words of ``state`` (priors, or a noisy posterior), same
            length as ``state``; None when every word is equally likely.
        noisy: the feedback of a guess that is not the answer is noised (Noisy Wordle,
            docs/algorithms.md §14: one uniform position recoloured uniformly), so an agent
            that predicts feedback must account for it.
        allowed: in hard mode (docs/algorithms.md §10), the sorted int32 guess indices the
            history's hints allow (:func:`solver.game.hard_mode.allowed_after`; the words of
            ``state`` are always among them); None in normal mode (every guess allowed).
    """

    state: np.ndarray
    guesses_left: int
    history: tuple = ()
    weights: np.ndarray | None = None
    noisy: bool = False
    allowed: np.ndarray | None = None

    def __post_init__(self):
        if self.weights is not None and len(self.weights) != len(self.state):
            raise ValueError(f"belief weights have length {len(self.weights)}, its state {len(self.state)}")

    @property
    def hard(self) -> bool:
        """Hard mode: only the guesses of :attr:`allowed` may be played."""
        return self.allowed is not None

    def is_allowed(self, guess: int) -> bool:
        """Whether guess index ``guess`` may be played (always in normal mode)."""
        if self.allowed is None:
            return True
        k = int(np.searchsorted(self.allowed, guess))
        return k < len(self.allowed) and int(self.allowed[k]) == int(guess)

    @property
    def size(self) -> int:
        """Words still possible."""
        return int(len(self.state))

    @property
    def turn(self) -> int:
        """Guesses played so far (0 before the first)."""
        return len(self.history)


@runtime_checkable
class Agent(Protocol):
    """The agent protocol (module docstring)."""

    name: str
    deterministic: bool

    def choose(self, belief: Belief, rng: np.random.Generator | None) -> int:
        """The guess index to play given ``belief``."""


def decision_seed(seed: int, game: int, k: int) -> int:
    """The seed of decision ``k`` (0-based) of game ``game`` under master seed ``seed``: the first
    word of ``SeedSequence(entropy=seed, spawn_key=(game, k))`` (uint64, as a Python int)."""
    ss = np.random.SeedSequence(entropy=int(seed), spawn_key=(int(game), int(k)))
    return int(ss.generate_state(1, dtype=np.uint64)[0])


def decision_rng(seed: int, game: int, k: int) -> np.random.Generator:
    """The generator of decision ``k`` of game ``game``: ``default_rng(decision_seed(...))``.

    Its seed is recoverable (:func:`rng_seed`), so agents whose kernels take an integer seed
    (UCT, rollout) draw exactly as they did when the scorers passed that integer."""
    return np.random.default_rng(decision_seed(seed, game, k))


def rng_seed(rng: np.random.Generator | None) -> int | None:
    """The integer a generator was made from (``default_rng(n)`` gives ``n``); None for None.

    Raises ValueError for a generator not made from one integer (e.g. from a spawned
    SeedSequence): an agent that needs an integer seed cannot use it."""
    if rng is None:
        return None
    entropy = rng.bit_generator.seed_seq.entropy
    if not isinstance(entropy, int) or getattr(rng.bit_generator.seed_seq, "spawn_key", ()):
        raise ValueError("this agent needs a generator made from one integer seed "
                         "(numpy.random.default_rng(n); solver.game.protocol.decision_rng)")
    return entropy
