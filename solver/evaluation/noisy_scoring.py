"""The Noisy Wordle simulator and the scoring of its agents (docs/algorithms.md §14).

A game against answer ``a`` with seed ``s``: the agent guesses; if the guess is the answer the
game ends (the all-green pattern is shown without noise); otherwise the true pattern is
noised (the environment :class:`solver.game.environments.NoisyEpisode`, the game's own
SplitMix64 stream seeded from ``(s, a)``), shown, and the belief is updated. A game not won after ``cap``
guesses is stopped. The random agents' decision ``k`` is seeded by
``SeedSequence(entropy=s, spawn_key=(a, k))`` (as in :mod:`solver.evaluation.belief_scoring`),
so a game's outcome depends only on ``(s, a)``, not on the order in which games are played.

Figures: each (answer, seed) game is one observation. A game not won within ``guess_limit``
(6) guesses is a loss for the win rate; the average counts every game, a stopped game as
``cap + 1`` guesses (the fewest it could have needed). 95 % intervals: Wilson's for the win
rate, the normal approximation ``mean ± 1.96 sd / √n`` for the average; they measure the
simulation's randomness (noise and seeds) over the fixed answer list.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from solver.evaluation.scoring import Z95, Score, ScoringMode, play_episode, wilson  # noqa: F401  (Z95, wilson: re-exported)
from solver.game.errors import InputError
from solver.game.spec import GUESS_LIMIT
from solver.game.environments import NoisyEpisode
from solver.policies.noisy import DEFAULT_CAP


def check_seeds(seeds) -> list[int]:
    """The seeds as ints; InputError (exit 2) unless each is a whole number ≥ 0 (and one given)."""
    out = []
    for seed in seeds:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise InputError(f"a seed is a whole number ≥ 0, not {seed!r}")
        out.append(int(seed))
    if not out:
        raise InputError("no seed given")
    return out


def check_cap(cap) -> int:
    """The guess cap; InputError unless a whole number in 6..1000."""
    if isinstance(cap, bool) or not isinstance(cap, (int, np.integer)) or not GUESS_LIMIT <= cap <= 1000:
        raise InputError(f"the guess cap is a whole number in {GUESS_LIMIT}..1000, not {cap!r}")
    return int(cap)


@dataclass
class NoisyOutcome:
    """One game: the guesses (indices), the patterns shown after each guess that did not win
    (the true ones are ``table[guess, answer]``), and whether it was won."""

    answer: int
    seed: int
    guesses: list
    shown: list
    won: bool


def play_noisy_game(agent, answer: int, seed: int, cap: int = DEFAULT_CAP,
                    memo: dict | None = None) -> NoisyOutcome:
    """Play one game of ``agent`` against answer index ``answer`` in the environment
    :class:`solver.game.environments.NoisyEpisode` (module docstring). ``memo``: a dict shared by
    the games of a deterministic agent (decisions keyed by the history)."""
    game = NoisyEpisode(agent.word_list, agent.table, answer, seed)
    guesses, _ = play_episode(agent, game, answer, seed=seed, max_guesses=cap, stop_at_max=True,
                              memo=memo if agent.deterministic else None, seeded_when_deterministic=False)
    return NoisyOutcome(answer, seed, guesses, list(game.shown), game.won)


def score_noisy(agent, seeds, cap: int = DEFAULT_CAP, answers=None, progress=None,
                keep_games: bool = False) -> Score:
    """Play ``agent`` against every answer (or the answer indices ``answers``) once per seed.

    Returns:
        :class:`~solver.evaluation.scoring.Score` with ``seeds`` and ``cap``:
        ``guesses_per_answer`` int64[n_seeds, n_answers] (``cap + 1`` for a stopped game),
        ``seed_seconds`` / ``seed_cpu_seconds`` the wall / process CPU seconds of each seed's
        games (a deterministic agent's decisions are memoised by history across seeds, so the
        first seed's figure is the cold one), ``games`` the :class:`NoisyOutcome` records when
        ``keep_games``.

    Raises:
        InputError: a bad seed or cap (before any work).
    """
    seeds = check_seeds(seeds)
    cap = check_cap(cap)
    answers = range(agent.word_list.n_answers) if answers is None else [int(a) for a in answers]
    answers = list(answers)
    guesses = np.zeros((len(seeds), len(answers)), dtype=np.int64)
    seconds, cpu_seconds, games = [], [], []
    memo: dict = {}
    done, total = 0, len(seeds) * len(answers)
    for i, seed in enumerate(seeds):
        started, cpu_started = time.perf_counter(), time.process_time()
        for j, answer in enumerate(answers):
            game = play_noisy_game(agent, answer, seed, cap, memo)
            guesses[i, j] = len(game.guesses) if game.won else cap + 1
            if keep_games:
                games.append(game)
            done += 1
            if progress is not None:
                progress(done, total)
        seconds.append(time.perf_counter() - started)
        cpu_seconds.append(time.process_time() - cpu_started)
    return Score(policy=agent.name, opener=None, guesses_per_answer=guesses, seconds=sum(seconds),
                 mode=ScoringMode.GAMES, guess_limit=GUESS_LIMIT, games=games, seeds=seeds, cap=cap,
                 seed_seconds=seconds, seed_cpu_seconds=cpu_seconds)
