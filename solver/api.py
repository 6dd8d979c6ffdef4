"""The library's front door: thin functions over the solver's modules (re-exported by ``solver``).

Score your own policy against the optimum — a function of the history — in a few lines::

    import solver

    def first_fit(history, answers):   # history: (("salet", "bbybb"), ...); answers: still possible
        return answers[0]

    print(solver.score(first_fit, opener="salet"))

Every function takes the word lists as ``words``: a shipped list's name (``"nyt-2024"``, the
NYT's lists of today's game; ``"legacy"``, Wordle's original 2,315 answers and 12,972 guesses;
``"wordfreq-4"``, ``-6``, ``-7``), a directory with ``answers.txt`` and ``guesses.txt``, or a
:class:`~solver.game.wordlists.WordList` (:func:`word_list`, :func:`solver.game.wordlists.from_words`).
The default follows one rule, the tools' (docs/api.md, "Which lists by default"): play and
analysis (:func:`advise`, :func:`analyse`, :func:`service`, :func:`word_list`, the Gymnasium
environment) use :data:`~solver.game.wordlists.PLAY_LISTS`, today's game; the research entry
points that reproduce the published figures (:func:`solve`, :func:`prove`, :func:`score`,
:func:`as_policy`) use :data:`~solver.game.wordlists.LEGACY_LISTS`, the lists of the proofs.
Values are in guesses summed over the answers of a state (docs/algorithms.md §2): ``V*(S, d)``
the optimum with ``d`` guesses left, ``Q*(S, d, g)`` when ``g`` is played now and the optimum
afterwards; a decision's regret is ``Q* − V*``.

=====================  ===========================================================================
:func:`solve`          the optimal decision tree for one opener (the Bellman recursion)
:func:`prove`          the best opener over every allowed guess, proven
:func:`advise`         the exact next guess (and alternatives) after any history
:func:`analyse`        regret and luck of every move of a game
:func:`score`          a policy (a function of the history, a :class:`Policy`, or a registry name)
                       played against every answer, beside the optimum, with each decision's regret
:func:`score_policy`,  the two steps of :func:`score` on their own
:func:`decision_regrets`
=====================  ===========================================================================

The Gymnasium environment ``ExactWordle-v0`` (:mod:`solver.evaluation.gym_env`):
``gymnasium.make("solver:ExactWordle-v0")`` (see :mod:`solver`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from solver.game.spec import GUESS_LIMIT, Game, Mode
from solver.game.wordlists import LEGACY_LISTS, PLAY_LISTS, WordList

#: Services kept per :class:`~solver.game.spec.Game`, so repeated questions reuse what was
#: solved (trees, subtrees).
_SERVICES: dict = {}


def word_list(words=PLAY_LISTS) -> WordList:
    """The word lists ``words`` names (module docstring); a WordList is returned as is.

    Raises WordListError for an unknown name, a malformed list, or a value that is neither a
    name, a path nor a WordList."""
    if isinstance(words, WordList):
        return words
    from solver.game.errors import WordListError, short_repr
    from solver.game.wordlists import load_word_list

    if not isinstance(words, (str, Path)):
        raise WordListError(f"words must be a shipped list's name (legacy, nyt-2024, ...), a "
                            f"directory or a WordList, not {short_repr(words)}")
    return load_word_list(words)


def _game(words, *, mode="normal", objective="total", guess_limit: int = GUESS_LIMIT,
         feedback="standard", priors=None) -> Game:
    """The :class:`~solver.game.spec.Game` these options name, validated once: ``words`` as in
    the module docstring; ``mode`` ``"normal"``/``"hard"``/``"ultra"``, ``objective``
    ``"total"``/``"worst"`` (:func:`solve` also ``"total,worst"``, ``"total,tail"``,
    ``"worst,total"``), ``feedback`` ``"standard"``/``"yellow"`` (names or
    :class:`~solver.game.spec.Mode`, … members); ``priors`` a
    :class:`~solver.game.priors.Priors` or None.

    Raises WordListError, and InputError naming a bad option and its choices."""
    return Game(word_list(words), guess_limit, feedback, mode, objective, priors)


def _table(lists: WordList):
    from solver.game.feedback import feedback_table

    return feedback_table(lists)


def service(words=PLAY_LISTS, *, mode="normal"):
    """The :class:`~solver.exact.service.SearchService` of the game (kept for later calls)."""
    from solver.evaluation.assist import service_for

    game = _game(words, mode=mode)
    if game not in _SERVICES:
        _SERVICES[game] = service_for(game)
    return _SERVICES[game]


def solve(opener: str = "salet", words=LEGACY_LISTS, *, mode="normal", objective="total",
          guess_limit: int = GUESS_LIMIT, jobs: int = -1, progress=None):
    """The optimal decision tree with ``opener`` first: :func:`solver.exact.bellman.solve`.

    Returns a :class:`~solver.exact.bellman.SolveResult` (``total``, ``tree``,
    ``guesses_per_answer``); save it with :func:`solver.exact.bellman.save_artifact`. Raises
    UnknownWordError, UnwinnableError (no tree with this opener wins every game in time)."""
    from solver.exact.bellman import solve as _solve
    from solver.game.checks import check_jobs, check_progress

    game = _game(words, mode=mode, objective=objective, guess_limit=guess_limit)
    game.word_list.guess_index(opener)  # UnknownWordError for a word not listed, or not text
    return _solve(game, opener, jobs=check_jobs(jobs), progress=check_progress(progress))


def prove(words=LEGACY_LISTS, *, mode="normal", objective="total", rank: int = 1,
          jobs: int = -1, progress=None):
    """The best opener over every allowed guess, proven: :func:`solver.exact.prove.prove`
    (its time on 2 cores: docs/benchmarks.md, "The opener proof"). An interrupted call
    resumes from its journal; a finished one removes it.

    Returns a :class:`~solver.exact.prove.ProofResult`; ``openers[0]`` is the best."""
    from solver.exact.prove import discard_journal, prove as _prove
    from solver.game.checks import check_jobs, check_progress, check_whole

    game = _game(words, mode=mode, objective=objective)
    result = _prove(game, rank=check_whole("rank", rank, 1), jobs=check_jobs(jobs),
                    progress=check_progress(progress))
    discard_journal(game, rank)  # the proof is finished: nothing left to resume
    return result


def advise(history=(), words=PLAY_LISTS, *, mode="normal", top: int = 5,
           budget: float | None = None, splits: bool = False):
    """The optimal next guess after ``history`` (``"salet:bbbby"`` tokens or ``(guess,
    feedback)`` pairs), its exact value and the ``top`` best guesses:
    :meth:`solver.exact.service.SearchService.advise`.

    Returns an :class:`~solver.exact.service.Advice` (``next_guess``, ``status``, ``value``,
    ``expected``, ``alternatives``; ``to_json()``). With ``budget`` seconds, what is not proven
    in time is labelled ``"best found, not proven"``; with ``splits``, ``Advice.splits`` says how
    the next guess and each alternative split the answers left. Raises InputError subclasses naming the
    guess at fault, or the argument that is not what it should be (a history that is not text
    or a sequence of steps, a ``top`` that is not a whole number ≥ 0, a ``budget`` that is not
    a positive number of seconds)."""
    _check_run(budget, None)
    return service(words, mode=mode).advise(history, top=top, budget=budget, splits=splits)


def _check_run(budget, progress) -> None:
    """The budget (None or positive finite seconds) and progress callback (None or callable)
    of a question, refused with InputError before any work."""
    from solver.exact.advice import check_budget
    from solver.game.checks import check_progress

    check_budget(budget)
    check_progress(progress)


def analyse(history, words=PLAY_LISTS, *, answer: str | None = None, mode="normal",
            budget: float | None = None, progress=None, splits: bool = False):
    """Regret (skill) and luck of every move of a game: :func:`solver.evaluation.analysis.analyse_game`.

    ``history``: a text (``"salet:bbbby crane:bybbb"``, split at spaces and commas),
    ``"word:feedback"`` tokens or ``(word, feedback)`` pairs; or plain words (``"salet crane
    birth"``) with ``answer`` given (the feedback is computed), as ``tools.analyse`` takes
    them. Returns a :class:`~solver.evaluation.analysis.GameAnalysis` (``moves``,
    ``total_regret``, ``to_json()``; with ``splits``, each move's ``split`` and
    ``optimal_split``). Raises InputError subclasses naming the guess at fault
    (plain words without ``answer``: their feedback is missing), or the argument that is not
    what it should be."""
    from solver.evaluation.analysis import analyse_game
    from solver.game.checks import check_text
    from solver.game.history import History

    _check_run(budget, progress)
    check_text("answer", answer, optional=True)
    lists = word_list(words)
    game = _game(lists, mode=mode)
    if answer is not None:
        history = History.from_record(game, history, answer=answer)
    else:
        history = History.parse(game, history)
    return analyse_game(game, history, budget=budget,
                        service=service(lists, mode=mode), progress=progress, splits=splits)


@dataclass
class PolicyScore:
    """What :func:`score` returns.

    Attributes:
        result: the :class:`~solver.evaluation.scoring.ScoreResult` (``guesses_per_answer``,
            ``histogram``, ``failures``, ``decisions``).
        optimum_total: the optimal tree's total guesses over every answer with the same opener.
        regrets: the policy's decisions that cost guesses against the optimum
            (:class:`~solver.evaluation.regret.DecisionRegret`), largest first.
        summary: counts from :func:`~solver.evaluation.regret.decision_regrets`.
    """

    result: object
    optimum_total: int
    regrets: list = field(default_factory=list)
    summary: dict = field(default_factory=dict)

    @property
    def policy(self) -> str:
        """The policy's name, from the score result."""
        return self.result.policy

    @property
    def opener(self) -> str:
        """The opener the policy was scored from."""
        return self.result.opener

    @property
    def total(self) -> int:
        """Σ guesses over every answer."""
        return self.result.total

    @property
    def average(self) -> float:
        """Average guesses per game."""
        return self.result.average

    @property
    def optimum_average(self) -> float:
        """The optimal tree's average guesses per game with the same opener (``optimum_total /
        n_games``)."""
        return self.optimum_total / self.result.n_games

    @property
    def gap(self) -> float:
        """Extra guesses per game against the optimum with the same opener."""
        return self.average - self.optimum_average

    @property
    def mode(self):
        """The game's :class:`~solver.game.spec.Mode` (normal or hard)."""
        return self.result.game_mode

    @property
    def total_regret(self) -> float:
        """Σ of the decisions' finite regrets (guesses summed over the answers; a decision that
        gives up the sure finish counted by the rule of docs/algorithms.md §15.4, as the
        analysis does), always finite. When every game is won within the limit it equals
        ``total − optimum_total``: the gap, decision by decision."""
        return sum(r.regret_finite for r in self.regrets)

    @property
    def total_regret_strict(self) -> float:
        """Σ of the decisions' strict regrets: ``inf`` when a decision gives up the sure
        finish (:attr:`total_regret` is the finite total)."""
        return sum(r.regret for r in self.regrets)

    def __str__(self) -> str:
        worst = ""
        if self.regrets:
            r = self.regrets[0]
            regret = (f"∞; finite {r.regret_finite:g}" if math.isinf(r.regret) else f"{r.regret:g}")
            worst = (f"; costliest decision: {r.guess!r} instead of {r.optimal_guess!r} with "
                     f"{len(r.state)} answers left ({regret} guesses)")
        mode = "" if Mode(self.mode) is Mode.NORMAL else f" ({Mode(self.mode).value} mode)"
        return (f"{self.policy} from {self.opener.upper()}{mode}: {self.average:.4f} guesses per game "
                f"({self.total} in all, {self.result.failures} failures), optimum "
                f"{self.optimum_average:.4f} ({self.optimum_total}): gap {self.gap:+.4f}; "
                f"{self.summary.get('with_regret', 0)} of {self.summary.get('decisions', 0)} "
                f"decisions cost guesses, {self.total_regret:g} in all{worst}")


def as_policy(policy, words=LEGACY_LISTS, *, name: str | None = None, deterministic: bool = True):
    """A :class:`~solver.policies.base.Policy` from ``policy``: a Policy (returned as is), a
    registry name (``"mig_a"``, ``"rollout10_b"``, :mod:`solver.policies.registry`) or a
    function of the history (:class:`~solver.policies.function.FunctionPolicy`)."""
    from solver.game.checks import check_flag, check_text
    from solver.policies.base import Policy

    if isinstance(policy, Policy):
        return policy
    check_text("name", name, optional=True)
    check_flag("deterministic", deterministic)
    lists = word_list(words)
    if isinstance(policy, str):
        from solver.policies.registry import make_policy

        return make_policy(policy, lists, _table(lists))
    from solver.policies.function import FunctionPolicy

    return FunctionPolicy(policy, lists, _table(lists), name=name, deterministic=deterministic)


def score(policy, opener: str = "salet", words=LEGACY_LISTS, *, mode="normal", jobs: int = 1,
          seed: int = 0, deterministic: bool = True, progress=None) -> PolicyScore:
    """Play ``policy`` from ``opener`` against every answer (six guesses, in ``mode``) and
    price each of its decisions against the exact optimum of the same mode.

    Args:
        policy: a function ``fn(history)`` or ``fn(history, answers)`` returning the next
            guess (:mod:`solver.policies.function`), a :class:`~solver.policies.base.Policy`,
            or a registry name (``"mig_a"``).
        opener: the first guess, for the policy and the optimum alike.
        words: the lists (module docstring); a Policy brings its own.
        mode: ``"normal"`` or ``"hard"`` (a name or a :class:`~solver.game.spec.Mode`, as
            everywhere; the agents do not play ``"ultra"``, refused with InputError). In hard
            mode the policy must play guesses the hints allow, and the optimum is hard mode's.
        jobs, seed: worker processes and master seed for a randomised policy.
        deterministic: for a function: False when it is randomised (played game by game).
        progress: ``progress(games_done, n_games)``.

    Returns:
        :class:`PolicyScore`; ``print()`` it for a one-paragraph summary.

    Raises:
        UnknownWordError: the opener is not an allowed guess (or not text).
        InputError: a policy that is neither a function, a Policy nor a registry name; a mode
            other than normal or hard; jobs, seed, deterministic or progress that is not what
            it should be.
        PolicyError, PolicyFunctionError: the policy returned a bad guess or made no progress.
    """
    from solver.evaluation.noisy_scoring import check_seeds
    from solver.evaluation.regret import decision_regrets
    from solver.evaluation.scoring import score_policy
    from solver.exact.book import OpeningBook
    from solver.game.checks import check_jobs, check_progress
    from solver.policies.exact_policy import ExactPolicy

    from solver.game.errors import InputError
    from solver.game.spec import Mode, as_mode

    jobs, (seed,), progress = check_jobs(jobs), check_seeds([seed]), check_progress(progress)
    mode = as_mode(mode)
    if mode is Mode.ULTRA:
        raise InputError("mode 'ultra': the agents play normal or hard mode (the exact solver's "
                         "tools play ultra-hard mode: solve, prove, advise, analyse)")
    policy = as_policy(policy, words, deterministic=deterministic)
    lists = policy.word_list
    lists.guess_index(opener)  # the opener is a word of the lists (not a guess index)
    result = score_policy(policy, opener, guess_limit=GUESS_LIMIT, seed=seed, jobs=jobs,
                          progress=progress, game_mode=mode)
    game = Game(lists, GUESS_LIMIT, mode=mode)
    optimum = OpeningBook(game).tree(result.opener, jobs=-1)
    exact = (ExactPolicy(lists, policy.table, optimum.tree) if mode is Mode.NORMAL
             else service(lists, mode=mode))
    regrets, summary = decision_regrets(exact, result.decisions)
    return PolicyScore(result, optimum.total, regrets, summary)
