"""The classic agents and MIG played against the Absurdle adversary (docs/algorithms.md §14.6).

The adversary (docs/algorithms.md §13.1) holds the answers still possible; after each guess it
keeps the largest feedback class, under a tie rule (:data:`solver.game.absurdle.TIE_RULES`): the
environment :class:`solver.game.absurdle.AbsurdleEpisode`. An agent plays as in ordinary Wordle
(answers setting: its state is the adversary's class, which it sees through the feedback) until
the adversary is left with the guessed word.

- ``fewest-clues`` / ``lowest-code``: the adversary's choice is fixed, so a deterministic agent
  plays one game;
- ``adversarial`` (the default, as in the exact search): among several largest classes the
  adversary keeps the one worst for *this* agent — every largest class is followed and the
  game is the longest of them (ties between equally long lines: the first in the rule's
  ranking, i.e. the lowest pattern code).

A random agent plays one game per seed (decision ``k`` seeded by
``SeedSequence(entropy=seed, spawn_key=(0, k))``; under ``adversarial`` every branch at depth
``k`` uses the same decision seed). A game not won after ``cap`` guesses is stopped and
counted as ``cap + 1``. :func:`score_absurdle` returns the one score type,
:class:`solver.evaluation.scoring.Score`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from solver.evaluation.scoring import PolicyError, Score, ScoringMode
from solver.game.absurdle import DEFAULT_TIE, AbsurdleEpisode, check_tie
from solver.game.protocol import decision_rng

#: Default cap of an agent's game against the adversary.
DEFAULT_ABSURDLE_CAP = 100


@dataclass
class AbsurdleLine:
    """One agent's game (the longest line under ``adversarial``): ``steps`` are
    ``(guess word, pattern code)``, the last one all green when ``won``."""

    agent: str
    tie: str
    seed: int | None
    steps: list
    won: bool

    @property
    def guesses(self) -> int:
        """Guesses played in the line (``len(steps)``)."""
        return len(self.steps)


def play_absurdle(policy, tie: str = DEFAULT_TIE, seed: int = 0, cap: int = DEFAULT_ABSURDLE_CAP,
                  table: np.ndarray | None = None) -> AbsurdleLine:
    """Play ``policy`` (an agent of the answers setting, :mod:`solver.game.protocol`) against
    the adversary under ``tie`` in the environment :class:`solver.game.absurdle.AbsurdleEpisode`
    (module docstring): under ``adversarial`` every reply the adversary may give is followed
    and the line worst for the agent is returned. Raises AbsurdleInputError for a bad tie,
    PolicyError for a guess index out of range."""
    check_tie(tie)
    word_list = policy.word_list
    table = policy.table if table is None else table
    words = word_list.guesses

    def line(game: AbsurdleEpisode) -> tuple[list, bool]:
        if game.guesses >= cap:
            return [], False
        rng = None if policy.deterministic else decision_rng(seed, 0, game.guesses)
        guess = int(policy.choose(game.belief(), rng))
        if not 0 <= guess < word_list.n_guesses:
            raise PolicyError(f"policy {policy.name!r} returned guess index {guess}, out of range")
        best: tuple[list, bool] | None = None
        for code in game.replies(guess):
            branch = game.copy()
            branch.step(guess, code)
            step = (words[guess], int(code))
            if branch.won:
                option = ([step], True)
            else:
                rest, won = line(branch)
                option = ([step] + rest, won)
            if best is None or _longer(option, best):
                best = option
        return best

    steps, won = line(AbsurdleEpisode(word_list, table, tie))
    return AbsurdleLine(policy.name, tie, None if policy.deterministic else int(seed), steps, won)


def _longer(a: tuple[list, bool], b: tuple[list, bool]) -> bool:
    """Whether line ``a`` is worse for the player than ``b``: not won beats won, then longer."""
    if a[1] != b[1]:
        return not a[1]
    return len(a[0]) > len(b[0])


def game_length(game: AbsurdleLine, cap: int = DEFAULT_ABSURDLE_CAP) -> int:
    """Guesses of a game, ``cap + 1`` when it was stopped."""
    return game.guesses if game.won else cap + 1


def score_absurdle(policy, tie: str = DEFAULT_TIE, seeds=(0,), cap: int = DEFAULT_ABSURDLE_CAP,
                   table: np.ndarray | None = None) -> Score:
    """Score ``policy`` against the adversary: one game if it is deterministic, one per seed
    otherwise (:func:`play_absurdle`).

    Returns:
        the one :class:`~solver.evaluation.scoring.Score`: ``guesses_per_answer``
        int64[n_games] the guesses to win of each game (``cap + 1`` when stopped; there is no
        answer: a game per seed), ``seeds`` (None for a deterministic agent), ``cap``, ``games``
        the :class:`AbsurdleLine` of each game; ``failures`` counts the games not won within 6.

    Raises:
        AbsurdleInputError: an unknown tie rule. PolicyError: a bad guess index.
    """
    check_tie(tie)
    runs = [None] if policy.deterministic else [int(s) for s in seeds]
    started = time.perf_counter()
    games = [play_absurdle(policy, tie, seed=0 if s is None else s, cap=cap, table=table) for s in runs]
    lengths = np.array([game_length(g, cap) for g in games], dtype=np.int64)
    return Score(policy=policy.name, opener=None, guesses_per_answer=lengths,
                 seconds=time.perf_counter() - started, mode=ScoringMode.GAMES, games=games,
                 seeds=None if policy.deterministic else runs, cap=cap)
