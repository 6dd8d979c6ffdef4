"""Score a policy from a fixed opener against every answer.

Two ways to play all ``n_answers`` games, with the same result for a deterministic policy:

- **tree** (deterministic policies, the default for them): the games are played together as
  a recursive partition from the opener: at a state the policy is asked once, the state is
  split by the feedback of its guess, and each class is played on. Each state's decision is
  computed once, not once per game.
- **games** (randomised policies, e.g. UCT): game by game. The seed of decision ``k``
  (0-based, the opener not counted) of the game against answer index ``a`` is drawn from
  ``numpy.random.SeedSequence(entropy=seed, spawn_key=(a, k))``, so results do not depend on
  how the games are split between worker processes; the policy is given
  ``numpy.random.default_rng`` of that seed (:func:`solver.game.protocol.decision_rng`). Games
  run in parallel on the executor (:class:`solver.exact.executor.Executor`: joblib's loky
  workers).

Every policy is asked through the agent protocol, ``choose(belief, rng)``
(:mod:`solver.game.protocol`); the belief carries the history, which a function of the
history (:class:`solver.policies.function.FunctionPolicy`) reads.

``game_mode="hard"`` scores hard mode (docs/algorithms.md §10): each belief carries the guesses
the history's hints allow (``allowed``, as the environment
:class:`solver.game.environments.HardEpisode` gives it), and a guess outside them raises
:class:`PolicyError`.

A game goes on past the guess limit until it is won (so its guesses can be counted); a game
not won within ``guess_limit`` guesses is a **failure**. A policy is then asked with
``guesses_left`` clamped to 1. A game longer than ``max_game_guesses`` means the policy makes
no progress and raises :class:`PolicyError`.

Randomised policies and worker processes: the policy is pickled once per chunk of games,
**without** its ``table`` attribute (the worker loads the feedback table from the on-disk
cache, :func:`solver.game.feedback.table_cache_path`, and sets ``policy.table``). A policy that
keeps other large arrays should drop them in ``__getstate__`` and rebuild them lazily.
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from solver.game.checks import worker_count
from solver.game.feedback import cached_feedback_table, table_cache_path
from solver.game.environments import Episode, HardEpisode
from solver.game.protocol import Belief, decision_rng, decision_seed
from solver.policies.base import Policy
from solver.game.spec import GUESS_LIMIT, MODES, Mode, all_green
from solver.policies.belief import BeliefSetting
from solver.game.wording import counted

#: A game still not won after this many guesses raises PolicyError (no progress).
MAX_GAME_GUESSES = 32


class PolicyError(RuntimeError):
    """A policy made no progress (a game exceeded ``max_game_guesses``) or returned a bad guess."""


class ScoringMode(StrEnum):
    """How :func:`score_policy` plays a policy."""

    #: each state the policy reaches is played once (a deterministic policy: every game that
    #: reaches a state plays the same guess there)
    TREE = "tree"
    #: one game per answer, each decision with its own seeded generator (a randomised policy)
    GAMES = "games"
    #: ``TREE`` for a deterministic policy, else ``GAMES``
    AUTO = "auto"


@dataclass
class Decision:
    """One decision of the policy: in ``state`` with ``guesses_left`` it played ``guess``.

    Attributes:
        state: sorted int32 answer indices.
        guesses_left: guesses left before this one (clamped at 1 past the limit).
        guess: guess index played.
        games: number of games that passed through this decision.
        history: the ``(guess index, feedback code)`` pairs that led to it (in hard mode what
            they allow is part of the state's value; one of them when several histories lead
            to the same normal-mode state).
    """

    state: np.ndarray
    guesses_left: int
    guess: int
    games: int
    history: tuple = ()


@dataclass
class Score:
    """The outcome of scoring an agent: the one score type of every scorer —
    :func:`score_policy` (from an opener, standard or hard mode),
    :func:`solver.evaluation.belief_scoring.score_in_belief` (a belief setting),
    :func:`solver.evaluation.noisy_scoring.score_noisy` (Noisy Wordle, once per seed) and
    :func:`solver.evaluation.absurdle_play.score_absurdle` (against the Absurdle adversary).

    Attributes:
        policy: the agent's name (also :attr:`agent`).
        opener: the first guess (word), or None when the agent chose its own.
        guesses_per_answer: int64, the guesses of each game (≥ 1): shape (n_answers,) for one
            game per answer; (n_seeds, n_answers) when ``seeds`` is set (a row per seed: Noisy
            Wordle); (n_seeds,) for Absurdle (one game per seed, no answer). A game stopped at
            ``cap`` counts ``cap + 1``.
        seconds: wall seconds of the evaluation.
        mode: :attr:`ScoringMode.TREE` or :attr:`ScoringMode.GAMES`.
        guess_limit: games not won within this many guesses are failures (losses).
        decisions: the agent's decisions (the opener excluded); in tree mode each state once.
        seed: the master seed (games mode, one seed) or None.
        jobs: worker processes used.
        belief: the :class:`~solver.policies.belief.BeliefSetting`.
        games: the games played, when kept: per answer the int32 guess indices played (the last
            one the answer); the noisy and Absurdle scorers' game records.
        seeds: the master seeds, one row of ``guesses_per_answer`` each (None: one seed, ``seed``).
        cap: games are stopped after this many guesses (None: played until won).
        seed_seconds, seed_cpu_seconds: wall and process CPU seconds per seed (when ``seeds``).
        game_mode: the rules played, a :class:`~solver.game.spec.Mode`.
    """

    policy: str
    opener: str | None
    guesses_per_answer: np.ndarray
    seconds: float
    mode: ScoringMode
    guess_limit: int = GUESS_LIMIT
    decisions: list = field(default_factory=list, repr=False)
    seed: int | None = None
    jobs: int = 1
    belief: BeliefSetting = BeliefSetting.ANSWERS
    games: list | None = field(default=None, repr=False)
    seeds: list | None = None
    cap: int | None = None
    seed_seconds: list = field(default_factory=list, repr=False)
    seed_cpu_seconds: list = field(default_factory=list, repr=False)
    game_mode: Mode = Mode.NORMAL

    @property
    def agent(self) -> str:
        """The agent's name (the same as :attr:`policy`)."""
        return self.policy

    @property
    def n_games(self) -> int:
        """Games played: ``guesses_per_answer.size`` (every seed's games when ``seeds`` is set)."""
        return int(self.guesses_per_answer.size)

    @property
    def total(self) -> int:
        """Σ guesses over every game played (a game stopped at ``cap`` counts ``cap + 1``)."""
        return int(self.guesses_per_answer.sum())

    @property
    def average(self) -> float:
        """Average guesses per game (``total / n_games``)."""
        return self.total / self.n_games

    @property
    def max_guesses(self) -> int:
        """The most guesses any game took."""
        return int(self.guesses_per_answer.max())

    @property
    def failures(self) -> int:
        """Games not won within ``guess_limit`` guesses (a stopped game among them)."""
        return int((self.guesses_per_answer > self.guess_limit).sum())

    @property
    def losses(self) -> int:
        """The same as :attr:`failures` (the classic agents' reports say losses)."""
        return self.failures

    @property
    def wins(self) -> int:
        """Games won within ``guess_limit`` guesses."""
        return self.n_games - self.failures

    @property
    def win_rate(self) -> float:
        """Share of the games won within ``guess_limit`` guesses."""
        return 1.0 - self.failures / self.n_games

    @property
    def won(self) -> np.ndarray:
        """bool, the shape of ``guesses_per_answer``: the game was won at all (not stopped at
        ``cap``)."""
        if self.cap is None:
            return np.ones(self.guesses_per_answer.shape, dtype=np.bool_)
        return self.guesses_per_answer <= self.cap

    @property
    def stopped(self) -> int:
        """Games stopped at ``cap`` (not won at all)."""
        return int((~self.won).sum())

    @property
    def histogram(self) -> list[int]:
        """``histogram[i]`` = games won in ``i + 1`` guesses; length max(guess_limit, max)."""
        counts = np.bincount(self.guesses_per_answer.ravel(),
                             minlength=max(self.guess_limit, self.max_guesses) + 1)
        return [int(c) for c in counts[1:]]

    @property
    def seconds_per_game(self) -> float:
        """Wall seconds per game (times the worker count in games mode: a CPU-time estimate)."""
        return self.seconds * max(1, self.jobs) / self.n_games

    @property
    def average_ci(self) -> tuple[float, float]:
        """95 % normal-approximation interval of the average over the games,
        ``mean ± 1.96 sd / √n``: the randomness of the games (noise, seeds), not a sample of
        answers."""
        n = self.n_games
        sd = float(self.guesses_per_answer.std(ddof=1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n)
        return self.average - half, self.average + half

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        """95 % Wilson interval of the win rate within ``guess_limit``."""
        return wilson(self.wins, self.n_games)

    def seed_averages(self) -> list[float]:
        """The average guesses of each seed's games (a row of ``guesses_per_answer`` each)."""
        rows = self.guesses_per_answer.reshape(len(self.seeds or [self.seed]), -1)
        return [float(row.mean()) for row in rows]


#: The 97.5 % quantile of the standard normal distribution (two-sided 95 % intervals).
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (Wilson 1927)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


#: The former name of :class:`Score`.
ScoreResult = Score


def _opener_index(word_list, opener) -> int:
    if isinstance(opener, (int, np.integer)):
        if not 0 <= int(opener) < word_list.n_guesses:
            raise ValueError(f"opener index {opener} out of range")
        return int(opener)
    return word_list.guess_index(opener)


def _split(row: np.ndarray, state: np.ndarray):
    """The feedback classes of ``state`` under one table row: list of (code, sorted class)."""
    codes = row[state]
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    cuts = np.flatnonzero(np.diff(sorted_codes)) + 1
    starts = np.concatenate(([0], cuts))
    ends = np.concatenate((cuts, [len(state)]))
    return [(int(sorted_codes[s]), state[order[s:e]]) for s, e in zip(starts, ends)]


def _ask(policy: Policy, history, state: np.ndarray, left: int, rng: np.random.Generator | None = None,
         hard: bool = False) -> int:
    """The policy's guess index given the belief (``state``, ``left`` guesses left, ``history``
    of ``(guess index, code)`` pairs; in hard mode the guesses allowed), through the agent
    protocol."""
    allowed = None
    if hard:
        from solver.game.hard_mode import allowed_after

        allowed = allowed_after(policy.word_list, history)
    belief = Belief(state, left, history, allowed=allowed)
    return _check_guess(policy, policy.choose(belief, rng), belief)


def _check_guess(policy: Policy, guess: int, belief: Belief | None = None) -> int:
    if not 0 <= guess < policy.word_list.n_guesses:
        raise PolicyError(f"policy {policy.name!r} returned guess index {guess}, out of range")
    if belief is not None and not belief.is_allowed(guess):
        words = policy.word_list.guesses
        raise PolicyError(f"policy {policy.name!r} played {words[guess]!r} after "
                          f"{[words[g] for g, _ in belief.history]}, which hard mode does not allow")
    return guess


def check_game_mode(game_mode: Mode | str) -> bool:
    """True for hard mode, False for normal (a :class:`~solver.game.spec.Mode` or its name,
    :data:`solver.game.spec.MODES`); else ValueError, also for ultra-hard mode, which the
    agents do not play (the exact solver and its tools do, docs/algorithms.md §10.5)."""
    if game_mode not in MODES:
        raise ValueError(f"game_mode must be one of {', '.join(MODES)}, got {game_mode!r}")
    if Mode(game_mode) is Mode.ULTRA:
        raise ValueError("the agents play normal or hard mode, not ultra-hard mode (the exact "
                         "solver's tools do: solve, prove, assist, analyse, the trees)")
    return Mode(game_mode) is Mode.HARD


def _score_tree(policy: Policy, opener_index: int | None, guess_limit: int, max_game_guesses: int,
                progress, table: np.ndarray | None = None, answer_of_column: np.ndarray | None = None,
                keep_games: bool = False, hard: bool = False) -> tuple[np.ndarray, list, list | None]:
    """Play every game at once as a recursive partition (module docstring):
    ``(guesses per answer, decisions, games)``.

    ``table``: feedback of every guess against every column (default the policy's, over the
    answers); ``answer_of_column``: int64[n_columns], the answer index of each column, −1 for a
    word that is no answer (a class without an answer is not played on; default: the columns
    are the answers). ``opener_index`` None: the agent chooses its first guess too.
    ``keep_games``: also return each answer's guesses (int32 arrays), else None. ``hard``: hard
    mode (each belief carries the guesses allowed; the opener is always allowed)."""
    word_list = policy.word_list
    table = policy.table if table is None else table
    n_answers = word_list.n_answers
    per_answer = np.zeros(n_answers, dtype=np.int64)
    games: list | None = [None] * n_answers if keep_games else None
    decisions: list[Decision] = []
    green = all_green(word_list.word_length)
    done = 0
    # (state, guess to play or -1 = ask the policy, history)
    stack = [(np.arange(table.shape[1], dtype=np.int32), -1 if opener_index is None else opener_index, ())]
    while stack:
        state, guess, history = stack.pop()
        used = len(history)
        if used >= max_game_guesses:
            raise PolicyError(f"policy {policy.name!r} has not won {len(state)} games after "
                              f"{counted(max_game_guesses, 'guess')} (no progress)")
        if guess < 0:
            left = max(1, guess_limit - used)
            guess = _ask(policy, history, state, left, hard=hard)
            n_games = len(state) if answer_of_column is None else int((answer_of_column[state] >= 0).sum())
            decisions.append(Decision(state, left, guess, n_games, history))
        for code, members in reversed(_split(table[guess], state)):
            answers = members if answer_of_column is None else answer_of_column[members]
            if answer_of_column is not None:
                answers = answers[answers >= 0]
                if answers.size == 0:
                    continue  # no hidden answer reaches this class
            if code == green:
                per_answer[answers] = used + 1
                if keep_games:
                    games[int(answers[0])] = np.array([g for g, _ in history] + [guess], dtype=np.int32)
                done += 1
                if progress is not None:
                    progress(done, n_answers)
            else:
                stack.append((members, -1, history + ((guess, code),)))
    return per_answer, decisions, games


#: The seed of decision ``k`` of the game against answer ``a`` (kept for the noisy scorer).
_decision_seed = decision_seed


def play_episode(policy, episode, answer: int, *, seed: int, opener: int | None = None,
                 max_guesses: int = MAX_GAME_GUESSES, stop_at_max: bool = False, memo: dict | None = None,
                 seeded_when_deterministic: bool = True) -> tuple[list[int], list]:
    """The one game loop of every scorer: ``policy`` plays ``episode`` (an environment of
    :mod:`solver.game.environments` — Episode, HardEpisode, NoisyEpisode — against answer
    index ``answer``) until it is won.

    Args:
        seed: the master seed; decision ``k`` (0-based, a given opener not counted) gets
            ``decision_rng(seed, answer, k)`` (module docstring).
        opener: a guess index played first, or None (the policy chooses its first guess).
        max_guesses: a game not won after this many guesses raises :class:`PolicyError` (no
            progress), or with ``stop_at_max`` stops there (a loss: Noisy Wordle's cap).
        memo: decisions of a deterministic policy shared between games, keyed by the history
            (the policy is asked once per history).
        seeded_when_deterministic: give a deterministic policy its decision's generator too
            (False: None, as Noisy Wordle asks its deterministic agents).

    Returns:
        ``(guesses, decisions)``: the guess indices played, and each decision the policy made
        as ``(state, guesses_left, guess, history)`` (memoised ones and the opener excluded;
        ``history``: the ``(guess index, feedback code)`` pairs before it).

    Raises:
        PolicyError: a bad guess index (in hard mode: one the hints do not allow), or no
            progress.
    """
    guesses: list[int] = []
    decisions = []
    while not episode.won:
        made = len(guesses)
        if made >= max_guesses:
            if stop_at_max:
                break
            raise PolicyError(f"policy {policy.name!r} has not won the game against answer "
                              f"{policy.word_list.answers[answer]!r} after {max_guesses} "
                              "guesses (no progress)")
        key = tuple(episode.history) if memo is not None else None
        if made == 0 and opener is not None:
            guess = opener
        elif key is not None and key in memo:
            guess = memo[key]
        else:
            belief = episode.belief()
            seeded = seeded_when_deterministic or not policy.deterministic
            rng = decision_rng(seed, answer, made - (opener is not None)) if seeded else None
            guess = _check_guess(policy, int(policy.choose(belief, rng)), belief)
            decisions.append((belief.state, belief.guesses_left, guess, tuple(belief.history)))
            if key is not None:
                memo[key] = guess
        guesses.append(guess)
        episode.step(guess)
    return guesses, decisions


def play_game(policy: Policy, answer: int, opener_index: int, *, guess_limit: int = GUESS_LIMIT,
              seed: int = 0, max_game_guesses: int = MAX_GAME_GUESSES, hard: bool = False):
    """Play one game against answer index ``answer`` in the environment
    :class:`solver.game.environments.Episode` (:class:`~solver.game.environments.HardEpisode`
    when ``hard``), :func:`play_episode`: ``(guesses used, decisions)`` where the decisions
    are ``(state, guesses_left, guess, history)`` tuples (the opener excluded)."""
    game = (HardEpisode if hard else Episode)(policy.word_list, policy.table, answer, guess_limit=guess_limit)
    guesses, decisions = play_episode(policy, game, answer, seed=seed, opener=opener_index,
                                      max_guesses=max_game_guesses)
    return len(guesses), decisions


_WORKER_TABLES: dict[str, np.ndarray] = {}


def _play_chunk(policy: Policy, table_path: str | None, answers, opener_index: int,
                guess_limit: int, seed: int, max_game_guesses: int, hard: bool = False):
    """joblib task: play the games of one chunk of answers."""
    if table_path is not None:
        if table_path not in _WORKER_TABLES:
            _WORKER_TABLES.clear()
            _WORKER_TABLES[table_path] = np.load(table_path, allow_pickle=False)
        policy.table = _WORKER_TABLES[table_path]
    out = []
    for a in answers:
        used, decisions = play_game(policy, int(a), opener_index, guess_limit=guess_limit,
                                    seed=seed, max_game_guesses=max_game_guesses, hard=hard)
        out.append((int(a), used, decisions))
    return out


def _score_games(policy: Policy, opener_index: int, guess_limit: int, seed: int, jobs: int,
                 max_game_guesses: int, progress, hard: bool = False) -> tuple[np.ndarray, list]:
    from solver.exact.executor import Executor

    word_list = policy.word_list
    n = word_list.n_answers
    per_answer = np.zeros(n, dtype=np.int64)
    merged: dict[tuple, Decision] = {}
    n_workers = worker_count(jobs)
    if n_workers == 1:
        results = (_play_chunk(policy, None, [a], opener_index, guess_limit, seed, max_game_guesses, hard)
                   for a in range(n))
    else:
        path = table_cache_path(word_list)
        payload, table_path = policy, None
        # the workers load the cached file unchecked, so it is checked here, whole, first
        if cached_feedback_table(word_list) is not None:
            payload = copy.copy(policy)
            payload.table = None
            table_path = str(path)
        chunks = np.array_split(np.arange(n), min(n, n_workers * 8))
        results = Executor(n_workers).map_unordered(
            _play_chunk, ((payload, table_path, chunk, opener_index, guess_limit, seed,
                           max_game_guesses, hard) for chunk in chunks))
    done = 0
    for chunk_result in results:
        for a, used, decisions in chunk_result:
            per_answer[a] = used
            for state, left, guess, history in decisions:
                # in hard mode a state's value depends on what its history allows
                key = (state.tobytes(), left, guess, history if hard else None)
                if key in merged:
                    merged[key].games += 1
                else:
                    merged[key] = Decision(state, left, guess, 1, history)
            done += 1
        if progress is not None:
            progress(done, n)
    return per_answer, list(merged.values())


def score_policy(policy: Policy, opener, *, guess_limit: int = GUESS_LIMIT, seed: int = 0,
                 jobs: int = 1, mode: ScoringMode | str = "auto", progress=None,
                 max_game_guesses: int = MAX_GAME_GUESSES, game_mode: Mode | str = Mode.NORMAL) -> Score:
    """Play ``policy`` from ``opener`` against every answer of its word list.

    Args:
        policy: a :class:`solver.policies.base.Policy` (its ``word_list`` and ``table`` are used).
        opener: the first guess, a word or a guess index.
        guess_limit: games not won within this many guesses count as failures (6).
        seed: master seed of a randomised policy (games mode).
        jobs: worker processes in games mode (-1: all cores; 1: in-process). Tree mode runs
            in-process.
        mode: a :class:`ScoringMode` or its name (``"auto"``: tree for deterministic policies).
        progress: optional ``progress(games_done, n_games)`` callable.
        max_game_guesses: a game longer than this raises :class:`PolicyError`; a policy with a
            larger ``max_game_guesses`` attribute (``random_total``, whose random guesses may
            fail to split a two-word state many times running) raises the limit to its own.
        game_mode: a :class:`~solver.game.spec.Mode` or its name (module docstring).

    Returns:
        :class:`Score` (total, average, max, histogram, failures, seconds per game).

    Raises:
        UnknownWordError: the opener is not an allowed guess.
        PolicyError: the policy returned an invalid guess (in hard mode: one the hints do not
            allow) or made no progress.
        ValueError: an unknown ``mode`` or ``game_mode``.
    """
    hard = check_game_mode(game_mode)
    opener_index = _opener_index(policy.word_list, opener)
    max_game_guesses = max(max_game_guesses, int(getattr(policy, "max_game_guesses", 0)))
    if mode not in tuple(ScoringMode):
        raise ValueError(f"mode must be 'tree', 'games' or 'auto', got {mode!r}")
    mode = ScoringMode(mode)
    if mode is ScoringMode.AUTO:
        mode = ScoringMode.TREE if policy.deterministic else ScoringMode.GAMES
    started = time.perf_counter()
    if mode is ScoringMode.TREE:
        per_answer, decisions, _ = _score_tree(policy, opener_index, guess_limit, max_game_guesses, progress,
                                               hard=hard)
        workers = 1
    else:
        workers = worker_count(jobs)
        per_answer, decisions = _score_games(policy, opener_index, guess_limit, seed, workers,
                                             max_game_guesses, progress, hard)
    seconds = time.perf_counter() - started
    return Score(policy=policy.name, opener=policy.word_list.guesses[opener_index],
                 guesses_per_answer=per_answer, seconds=seconds, mode=mode, guess_limit=guess_limit,
                 decisions=decisions, seed=seed if mode is ScoringMode.GAMES else None, jobs=workers,
                 game_mode=Mode(game_mode))
