"""The environments: the rules of one game, and nothing about how an agent plays it.

Each environment is one game against a hidden answer: :meth:`Episode.belief` is what the agent
may know (a :class:`~solver.game.protocol.Belief`), :meth:`Episode.step` plays a guess and returns
the feedback shown, updating the belief. An agent and a scorer drive them
(:mod:`solver.evaluation.scoring`); the rules live here, in the game layer, which imports
nothing from the policies or the evaluation (import-linter, pyproject.toml).

- :class:`Episode` — standard Wordle: the true feedback; the belief is the answers consistent
  with it (docs/algorithms.md §1);
- :class:`HardEpisode` — hard mode (docs/algorithms.md §10): the belief carries the guesses
  the revealed hints allow (``allowed``); a guess that breaks one raises
  :class:`~solver.game.errors.HardModeError`;
- :class:`NoisyEpisode` — Noisy Wordle (docs/algorithms.md §14): after a guess that is not the
  answer, one uniform position of the feedback is recoloured uniformly; the belief is the
  Bayesian posterior over the answers (:class:`NoisyBelief`).

The Absurdle adversary (it keeps the largest class; no answer is fixed) is the environment
:class:`solver.game.absurdle.AbsurdleEpisode`, with the same ``belief()`` / ``step(guess)``.

A game goes on past the guess limit until won (so its guesses can be counted): the belief's
``guesses_left`` is then clamped to 1.
"""

from __future__ import annotations

import numpy as np

from solver.game.feedback import answers_after
from solver.game.protocol import Belief
from solver.game.spec import GUESS_LIMIT, all_green


class Board:
    """What every environment keeps: the lists, the table, the guess limit, the state (sorted
    int32 columns still possible), the history of ``(guess index, feedback code)`` pairs and
    whether the game is won; the belief an agent sees, and the check of a guess index. The
    environments below (and :class:`solver.game.absurdle.AbsurdleEpisode`) add the rule that
    picks the feedback."""

    def __init__(self, word_list, table: np.ndarray, *, guess_limit: int = GUESS_LIMIT):
        self.word_list = word_list
        self.table = table
        self.guess_limit = int(guess_limit)
        self.green = all_green(word_list.word_length)
        self.state = np.arange(table.shape[1], dtype=np.int32)
        self.history: list[tuple[int, int]] = []
        self.won = False

    @property
    def guesses(self) -> int:
        """Guesses played so far."""
        return len(self.history)

    def belief(self) -> Belief:
        """What the agent knows now: the columns still possible, the guesses left (≥ 1), the
        history."""
        return Belief(self.state, max(1, self.guess_limit - self.guesses), tuple(self.history))

    def _check(self, guess: int) -> int:
        if self.won:
            raise RuntimeError("the game is won: no further guess")
        if not 0 <= int(guess) < self.table.shape[0]:
            raise ValueError(f"guess index {guess} out of range 0..{self.table.shape[0] - 1}")
        return int(guess)


class Episode(Board):
    """One game of standard Wordle against ``answer``.

    Args:
        word_list: the :class:`solver.game.wordlists.WordList`.
        table: feedback of every guess against every *column*, uint8 or
            uint16[n_guesses, n_columns]: the answers (the usual table), or every allowed guess
            (the classic agents' ``guesses`` belief setting, :mod:`solver.policies.belief`).
        answer: the hidden answer's column in ``table``.
        guess_limit: guesses allowed (the belief's ``guesses_left`` counts down from it).

    Attributes:
        state: sorted int32 columns still consistent with the feedback.
        history: ``(guess index, feedback code)`` pairs played. won: the answer was guessed.

    Raises:
        ValueError: ``answer`` is not a column of ``table``.
    """

    def __init__(self, word_list, table: np.ndarray, answer: int, *, guess_limit: int = GUESS_LIMIT):
        if not 0 <= int(answer) < table.shape[1]:
            raise ValueError(f"answer column {answer} out of range 0..{table.shape[1] - 1}")
        super().__init__(word_list, table, guess_limit=guess_limit)
        self.answer = int(answer)

    def step(self, guess: int) -> int:
        """Play guess index ``guess``: the feedback code shown (all green when it is the answer).
        Raises ValueError for an index out of range, RuntimeError once the game is won."""
        guess = self._check(guess)
        code = int(self.table[guess, self.answer])
        self.history.append((guess, code))
        self.state = answers_after(self.table, self.state, guess, code)
        self.won = code == self.green
        return code


class HardEpisode(Episode):
    """One game of hard mode (docs/algorithms.md §10, :mod:`solver.game.hard_mode`): as
    :class:`Episode`, but the belief's ``allowed`` lists the guesses the hints revealed so far
    allow, and :meth:`step` raises :class:`~solver.game.errors.HardModeError` for a guess that
    breaks one (nothing is played then)."""

    def belief(self) -> Belief:
        """What the agent knows now (:meth:`Episode.belief`), with ``allowed``: the guesses the
        hard-mode history still allows (:func:`solver.game.hard_mode.allowed_after`)."""
        from solver.game.hard_mode import allowed_after

        belief = super().belief()
        return Belief(belief.state, belief.guesses_left, belief.history,
                      allowed=allowed_after(self.word_list, self.history))

    def step(self, guess: int) -> int:
        """Play guess index ``guess`` as :meth:`Episode.step` does, after checking the hard-mode
        rule: raises HardModeError for a guess the history does not allow (ValueError for an index
        out of range, RuntimeError once the game is won)."""
        from solver.game.errors import HardModeError
        from solver.game.hard_mode import hard_mode_violation

        guess = self._check(guess)
        words = self.word_list.guesses
        why = hard_mode_violation([(words[g], c) for g, c in self.history], words[guess])
        if why:
            raise HardModeError(f"guess {self.guesses + 1} ({words[guess]}) is not allowed in hard mode: {why}")
        return super().step(guess)


class NoisyEpisode(Episode):
    """One game of Noisy Wordle against answer index ``answer``, its noise the SplitMix64 stream
    seeded from ``(seed, answer)`` (:mod:`solver.game._noise_kernel`), so a game depends only
    on them. ``table`` is the usual answers table. The belief is the posterior
    (:meth:`NoisyBelief.belief`: the answers of positive weight, their weights,
    ``noisy=True``); ``shown`` lists the patterns shown after each guess that did not win."""

    def __init__(self, word_list, table: np.ndarray, answer: int, seed: int, *, guess_limit: int = GUESS_LIMIT):
        from solver.game._noise_kernel import game_stream

        super().__init__(word_list, table, answer, guess_limit=guess_limit)
        self.seed = int(seed)
        self.posterior = NoisyBelief(word_list, table)
        self.shown: list[int] = []
        self._stream = game_stream(np.uint64(self.seed), np.uint64(self.answer))
        self._target = int(word_list.answer_guess_index[self.answer])

    def belief(self) -> Belief:
        """What the agent knows now: the posterior (:meth:`NoisyBelief.belief`: the answers of
        positive weight, their weights, the history, ``noisy=True``) with the guesses left."""
        return self.posterior.belief(self.guess_limit - self.guesses)

    def step(self, guess: int) -> int:
        """Play ``guess``: all green if it is the answer (no noise), else the noisy pattern."""
        from solver.game._noise_kernel import add_noise

        guess = self._check(guess)
        if guess == self._target:
            self.history.append((guess, self.green))
            self.won = True
            return self.green
        self._stream, observed = add_noise(int(self.table[guess, self.answer]), np.uint64(self._stream),
                                           self.word_list.word_length)
        shown = int(observed)
        self.shown.append(shown)
        self.posterior.update(guess, shown)
        self.history.append((guess, shown))
        self.state = self.posterior.weights()[0]
        return shown


def noise_likelihood(shown: int, true: int, word_length: int = 5) -> float:
    """``P(shown | true pattern)`` under the noise (1/3, 1/(3L) or 0; module docstring)."""
    from solver.game._noise_kernel import scaled_likelihood

    return scaled_likelihood(int(shown), int(true), int(word_length)) / (3.0 * word_length)


class NoisyBelief:
    """The Bayesian belief over the answers of a Noisy Wordle game.

    Attributes:
        matches: int32[n_answers], how many shown patterns equalled the answer's true pattern.
        alive: bool[n_answers], False once an observation had likelihood 0 for the answer (or
            the answer was guessed and the game went on).

    The weight of an alive answer is ``L ** matches`` up to a common factor: the product of its
    likelihoods (uniform prior over the answers).
    """

    def __init__(self, word_list, table: np.ndarray):
        self.word_list = word_list
        self.table = table
        self.word_length = word_list.word_length
        self.matches = np.zeros(word_list.n_answers, dtype=np.int32)
        self.alive = np.ones(word_list.n_answers, dtype=np.bool_)
        self.n_alive = word_list.n_answers
        self.history: list[tuple[int, int]] = []

    def update(self, guess: int, shown: int) -> None:
        """Take the shown pattern of ``guess`` (a guess index) that did not win."""
        from solver.game._noise_kernel import update_belief

        guessed_answer = int(self.word_list.guess_answer_index[guess])
        self.n_alive = int(update_belief(self.matches, self.alive, self.table[guess], guessed_answer,
                                         int(shown), self.word_length))
        self.history.append((int(guess), int(shown)))

    def weights(self) -> tuple[np.ndarray, np.ndarray]:
        """``(members, weights)``: alive answer indices (int32) and their weights (float64, the
        largest 1)."""
        from solver.game._noise_kernel import belief_weights

        return belief_weights(self.matches, self.alive, self.word_length)

    def posterior(self) -> np.ndarray:
        """float64[n_answers]: the posterior probability of each answer (sums to 1)."""
        members, weights = self.weights()
        out = np.zeros(self.word_list.n_answers, dtype=np.float64)
        out[members] = weights / weights.sum()
        return out

    def belief(self, guesses_left: int = GUESS_LIMIT):
        """The agent's view (:class:`solver.game.protocol.Belief`): the alive answers, their
        weights, the history and ``noisy=True``."""
        members, weights = self.weights()
        return Belief(members, max(1, int(guesses_left)), tuple(self.history), weights, noisy=True)

    def most_probable(self) -> tuple[int, float]:
        """``(answer index, posterior)`` of the most probable answer (ties: lowest index)."""
        members, weights = self.weights()
        k = int(np.argmax(weights))
        return int(members[k]), float(weights[k] / weights.sum())
