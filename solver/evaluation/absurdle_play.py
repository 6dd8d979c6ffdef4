"""The classic agents and MIG played against the Absurdle adversary (docs/algorithms.md §14.6).

The adversary (docs/algorithms.md §13.1) holds the answers still possible; after each guess it
keeps the largest feedback class, under a tie rule (:data:`solver.exact.absurdle.TIE_RULES`).
An agent plays as in ordinary Wordle (answers setting: its state is the adversary's class,
which it sees through the feedback) until the adversary is left with the guessed word.

- ``fewest-clues`` / ``lowest-code``: the adversary's choice is fixed, so a deterministic agent
  plays one game;
- ``adversarial`` (the default, as in the exact search): among several largest classes the
  adversary keeps the one worst for *this* agent — every largest class is followed and the
  game is the longest of them (ties between equally long lines: the first in the rule's
  ranking, i.e. the lowest pattern code).

A random agent plays one game per seed (decision ``k`` seeded by
``SeedSequence(entropy=seed, spawn_key=(0, k))``; under ``adversarial`` every branch at depth
``k`` uses the same decision seed). A game not won after ``cap`` guesses is stopped and
counted as ``cap + 1``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.exact.absurdle import DEFAULT_TIE, check_tie, kept_codes, tie_priority
from solver.game.protocol import Belief, decision_rng
from solver.game.spec import all_green

#: Default cap of an agent's game against the adversary.
DEFAULT_ABSURDLE_CAP = 100


@dataclass
class AbsurdleGame:
    """One agent's game (the longest line under ``adversarial``): ``steps`` are
    ``(guess word, pattern code)``, the last one all green when ``won``."""

    agent: str
    tie: str
    seed: int | None
    steps: list
    won: bool

    @property
    def guesses(self) -> int:
        return len(self.steps)


def play_absurdle(policy, tie: str = DEFAULT_TIE, seed: int = 0, cap: int = DEFAULT_ABSURDLE_CAP,
                  table: np.ndarray | None = None) -> AbsurdleGame:
    """Play ``policy`` (a :class:`~solver.policies.base.Policy` of the answers setting) against
    the adversary under ``tie`` (module docstring). Raises AbsurdleInputError for a bad tie."""
    check_tie(tie)
    word_list = policy.word_list
    table = policy.table if table is None else table
    priority = tie_priority(tie, word_list.word_length)
    green = all_green(word_list.word_length)
    words = word_list.guesses

    def line(state: np.ndarray, used: int) -> tuple[list, bool]:
        if used >= cap:
            return [], False
        guess = int(policy.choose(Belief(state, max(1, 6 - used)),
                                  None if policy.deterministic else decision_rng(seed, 0, used)))
        best: tuple[list, bool] | None = None
        for code in kept_codes(table, guess, state, tie, priority):
            step = (words[guess], int(code))
            if code == green:
                option = ([step], True)
            else:
                kept = state[table[guess, state] == code]
                rest, won = line(np.ascontiguousarray(kept, dtype=np.int32), used + 1)
                option = ([step] + rest, won)
            if best is None or _longer(option, best):
                best = option
        return best

    steps, won = line(np.arange(word_list.n_answers, dtype=np.int32), 0)
    return AbsurdleGame(policy.name, tie, None if policy.deterministic else int(seed), steps, won)


def _longer(a: tuple[list, bool], b: tuple[list, bool]) -> bool:
    """Whether line ``a`` is worse for the player than ``b``: not won beats won, then longer."""
    if a[1] != b[1]:
        return not a[1]
    return len(a[0]) > len(b[0])


def game_length(game: AbsurdleGame, cap: int = DEFAULT_ABSURDLE_CAP) -> int:
    """Guesses of a game, ``cap + 1`` when it was stopped."""
    return game.guesses if game.won else cap + 1
