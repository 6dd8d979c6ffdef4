"""Score an agent on every answer in a belief setting, the agent choosing its own first guess.

The scorer of the classic agents (docs/algorithms.md §8.5), beside
:func:`solver.evaluation.scoring.score_policy` (which plays from a fixed opener in the answers
setting). Differences:

- the **belief setting** (:mod:`solver.policies.belief`): in ``guesses`` the agent's state is
  every allowed guess consistent with the feedback; the hidden answer is always from the
  answer list. Every :class:`~solver.policies.base.Policy` is bound with its ``in_belief``:
  the classic agents play in either setting, any other policy only in ``answers``;
- the **opener** is the agent's own first decision (``opener=None``, as in Orenbach et al.)
  or a fixed word;
- every game's guesses are kept (``games``), so a test can replay them with the plain rule.

Games go on past the guess limit until won (as in :mod:`solver.evaluation.scoring`); a game not
won within ``guess_limit`` (6) guesses is a **loss**. Deterministic agents are played as a
tree (each state decided once); randomised ones game by game, the agent's decision ``k``
(0-based: its own first guess, or its first decision after a fixed opener, is ``k = 0``, as in
:mod:`solver.evaluation.scoring`) of the game against answer ``a`` seeded by
``SeedSequence(entropy=seed, spawn_key=(a, k))``, so a result depends only on the seed.
"""

from __future__ import annotations

import time

import numpy as np

from solver.evaluation.scoring import Score, ScoringMode, _score_tree, check_game_mode, play_episode
from solver.game.errors import InputError
from solver.game.environments import Episode, HardEpisode
from solver.game.spec import GUESS_LIMIT, Mode
from solver.policies.base import Policy
from solver.policies.belief import Universe

#: A game not won after this many guesses raises PolicyError. Higher than scoring's 32: a
#: random allowed guess may fail to split a two-word state many times running.
MAX_GAME_GUESSES = 10_000


#: The score of :func:`score_in_belief`: the one score type (``belief``, ``games`` filled in).
BeliefScore = Score


def bind_policy(policy: Policy, universe: Universe) -> Policy:
    """``policy`` playing in ``universe``'s belief setting. Raises InputError when it cannot
    (a policy that needs the answer list, asked to play in the guesses setting)."""
    return policy.in_belief(universe)


def _opener_index(word_list, opener) -> int | None:
    if opener is None:
        return None
    return word_list.guess_index(str(opener).strip().lower())


def play_belief_game(policy, universe: Universe, answer: int, *, opener_index: int | None = None,
                     seed: int = 0, guess_limit: int = GUESS_LIMIT,
                     max_game_guesses: int = MAX_GAME_GUESSES, hard: bool = False) -> np.ndarray:
    """One game against answer index ``answer`` in the environment
    :class:`solver.game.environments.Episode` (:class:`~solver.game.environments.HardEpisode`
    when ``hard``) over the universe's members: the guess indices played (int32), the last one
    the answer. Decision seeds as in the module docstring."""
    game = (HardEpisode if hard else Episode)(policy.word_list, universe.table,
                                              int(universe.member_of_answer[answer]), guess_limit=guess_limit)
    path, _ = play_episode(policy, game, answer, seed=seed, opener=opener_index, max_guesses=max_game_guesses)
    return np.array(path, dtype=np.int32)


def score_in_belief(policy: Policy, universe: Universe, *, seed: int = 0, opener=None,
                    guess_limit: int = GUESS_LIMIT, max_game_guesses: int = MAX_GAME_GUESSES,
                    progress=None, game_mode: str = "normal") -> BeliefScore:
    """Play ``policy`` against every answer of its word list in ``universe``'s belief setting.

    Args:
        policy: a :class:`~solver.policies.base.Policy` (bound with :func:`bind_policy`).
        universe: :func:`solver.policies.belief.make_universe` of the same word list.
        seed: master seed of a randomised agent (ignored by deterministic ones).
        opener: a fixed first guess (word), or None for the agent's own.
        guess_limit: games longer than this are losses (6).
        max_game_guesses: a game longer than this raises PolicyError.
        progress: optional ``progress(games_done, n_games)``.
        game_mode: ``"normal"`` or ``"hard"`` (each belief carries the guesses allowed,
            :func:`solver.evaluation.scoring.score_policy`).

    Returns:
        :class:`~solver.evaluation.scoring.Score` with ``belief`` and ``games`` (every game's
        guesses); no decisions in games mode.

    Raises:
        InputError: the policy cannot play in this setting; a bad seed.
        UnknownWordError: the opener is not an allowed guess.
        PolicyError: a bad guess index (in hard mode: one the hints do not allow), or no progress.
        ValueError: an unknown ``game_mode``.
    """
    hard = check_game_mode(game_mode)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"the seed is a whole number ≥ 0, not {seed!r}")
    policy = bind_policy(policy, universe)
    opener_index = _opener_index(policy.word_list, opener)
    started = time.perf_counter()
    if policy.deterministic:
        answer_of_member = np.full(universe.n_members, -1, dtype=np.int64)
        answer_of_member[universe.member_of_answer] = np.arange(policy.word_list.n_answers)
        per_answer, decisions, games = _score_tree(policy, opener_index, guess_limit, max_game_guesses, progress,
                                                   universe.table, answer_of_member, keep_games=True, hard=hard)
        mode = ScoringMode.TREE
        seed_used = None
    else:
        n = policy.word_list.n_answers
        games = []
        for a in range(n):
            games.append(play_belief_game(policy, universe, a, opener_index=opener_index, seed=int(seed),
                                          guess_limit=guess_limit, max_game_guesses=max_game_guesses,
                                          hard=hard))
            if progress is not None:
                progress(a + 1, n)
        per_answer = np.array([len(g) for g in games], dtype=np.int64)
        seed_used, decisions, mode = int(seed), [], ScoringMode.GAMES
    seconds = time.perf_counter() - started
    opener_word = None if opener_index is None else policy.word_list.guesses[opener_index]
    return Score(policy=policy.name, opener=opener_word, guesses_per_answer=per_answer, seconds=seconds,
                 mode=mode, guess_limit=guess_limit, decisions=decisions, seed=seed_used, jobs=1,
                 belief=universe.belief, games=games, game_mode=Mode(game_mode))
