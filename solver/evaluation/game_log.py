"""Logged games scored exactly: every move's regret and luck, and each agent's totals.

A *game log* is JSON Lines, one game per line, as an agent harness (an LLM's, an RL agent's)
writes it::

    {"agent": "llm-a", "answer": "cigar", "guesses": ["salet", "crane", "cigar"]}
    {"agent": "llm-b", "guesses": ["tarse", "colin"], "feedback": ["XYXXX", "GYXXG"]}

The fields of a line (an object; any other field is ignored):

- ``guesses`` (required): the guesses in order, a list of words (or ``word:feedback``
  tokens), or one text ``"salet crane cigar"``;
- ``feedback``: one per guess, each five (the word length) of ``G``/``Y``/``X`` (TextArena's
  letters), ``g``/``y``/``b``, ``2``/``1``/``0`` or the squares people paste; needed unless
  the answer is given, and checked against it when both are;
- ``answer``: the answer, when the log kept it (a lost game, or one whose answer was never
  shown, is scored from its feedback alone);
- ``agent``: who played (default ``"agent"``), the key of the per-agent totals;
- ``words``, ``mode``: the game's lists (a shipped list's name or a directory with
  answers.txt and guesses.txt) and mode (``normal``, ``hard``, ``ultra``); when absent, the
  scorer's defaults (:data:`solver.game.wordlists.PLAY_LISTS`, normal);
- ``id``: kept as given in the outputs.

Each game is analysed by :func:`solver.evaluation.analysis.analyse_game`, the one analysis
(``wordle analyse``'s): per move ``V*``, ``Q*``, the regret ``Q* − V*`` (its finite form,
docs/algorithms.md §15.4, so that a game's total is always a number), the luck and the 0–99
skill and luck scores, all exact (or, with a time budget, proven intervals). One
:class:`~solver.exact.service.SearchService` per lists and mode serves every game of the log,
so a state met again (the same opener, the same second guess) is a lookup, and a game met
again (the same lists, mode and moves) is analysed once.

A line that cannot be scored (not JSON, no guesses, an unknown word, feedback that
contradicts the answer or that no answer fits, more guesses than the limit) is a
:class:`LogLineError` naming its line and why; the others are scored.

Per agent (:class:`AgentSummary`): games, the win rate, the mean number of guesses of the
games won, the mean regret per game (the mean over games of their total regret, in expected
guesses), the share of optimal moves (moves of regret exactly 0) and the mean luck.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from solver.evaluation.analysis import GameAnalysis, _interval, _sum_bounds, analyse_game
from solver.evaluation.scores import skill_of_bounds
from solver.game.errors import InputError
from solver.game.spec import Game, Mode
from solver.game.wordlists import PLAY_LISTS

#: The agent name of a line without one.
DEFAULT_AGENT = "agent"
#: The fields a line may have (others are ignored).
FIELDS = ("guesses", "feedback", "answer", "agent", "words", "mode", "id")


class LogLineError(InputError):
    """A line of a game log that cannot be scored.

    Attributes:
        line: its number (1 for the first line of the file).
        reason: why, in one sentence.
    """

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line, self.reason = line, reason


@dataclass(frozen=True)
class LoggedGame:
    """One line of a game log, read (not yet checked against the lists: :meth:`GameScorer.score`).

    Attributes:
        line: the line's number (1-based).
        guesses: the guesses, lowercase, as written.
        feedback: one feedback text per guess, or None (the answer gives it).
        answer: the answer, lowercase, or None.
        agent: who played.
        words, mode: the lists and mode the line names, or None (the scorer's defaults).
        id: the line's ``id`` field, or None.
    """

    line: int
    guesses: tuple[str, ...]
    feedback: tuple[str, ...] | None = None
    answer: str | None = None
    agent: str = DEFAULT_AGENT
    words: str | None = None
    mode: str | None = None
    id: object = None

    def tokens(self) -> list[str]:
        """The guesses as :meth:`solver.game.history.History.from_record` reads them: plain
        words, or ``word:feedback`` with TextArena's ``X`` read as gray."""
        if self.feedback is None:
            return list(self.guesses)
        return [f"{word}:{_feedback_text(text)}" for word, text in zip(self.guesses, self.feedback)]


def _feedback_text(text: str) -> str:
    """``GYXXX`` (TextArena's letters: G green, Y yellow, X not in the word) as ``gybbb``;
    any other form unchanged (the history parser reads b/y/g, 0/1/2 and squares)."""
    lowered = text.strip().lower()
    return lowered.replace("x", "b") if "x" in lowered and set(lowered) <= set("gyxb") else text


def _text_field(record: dict, name: str, line: int) -> str | None:
    value = record.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise LogLineError(line, f"{name!r} must be a non-empty text, not {json.dumps(value)[:60]}")
    return value.strip()


def parse_log_line(text: str, line: int) -> LoggedGame | None:
    """One line of a game log (module docstring) read as a :class:`LoggedGame`; None for a
    blank line.

    Raises:
        LogLineError: not a JSON object, no guesses, a field of the wrong type, as many
            feedback texts as guesses not given.
    """
    if not text.strip():
        return None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogLineError(line, f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(record, dict):
        raise LogLineError(line, f"a game is a JSON object with \"guesses\", not a {type(record).__name__}")
    guesses = record.get("guesses")
    if isinstance(guesses, str):
        guesses = guesses.replace(",", " ").split()
    if not isinstance(guesses, list) or not guesses or not all(isinstance(g, str) and g.strip() for g in guesses):
        raise LogLineError(line, "\"guesses\" must be a non-empty list of words")
    feedback = record.get("feedback")
    if feedback is not None:
        if not isinstance(feedback, list) or not all(isinstance(f, str) for f in feedback):
            raise LogLineError(line, "\"feedback\" must be a list of texts, one per guess (e.g. \"GYXXX\")")
        if len(feedback) != len(guesses):
            raise LogLineError(line, f"{len(guesses)} guesses but {len(feedback)} feedback texts")
    answer = _text_field(record, "answer", line)
    agent = record.get("agent", DEFAULT_AGENT)
    if not isinstance(agent, str) or not agent.strip():
        raise LogLineError(line, "\"agent\" must be a non-empty text")
    return LoggedGame(line, tuple(g.strip().lower() for g in guesses),
                      None if feedback is None else tuple(feedback),
                      None if answer is None else answer.lower(), agent.strip(),
                      _text_field(record, "words", line), _text_field(record, "mode", line),
                      record.get("id"))


def read_game_log(lines: Iterable[str]) -> tuple[list[LoggedGame], list[LogLineError]]:
    """Every line of a log read: ``(games, errors)``, a blank line being neither."""
    games, errors = [], []
    for number, text in enumerate(lines, start=1):
        try:
            game = parse_log_line(text, number)
        except LogLineError as exc:
            errors.append(exc)
            continue
        if game is not None:
            games.append(game)
    return games, errors


@dataclass
class ScoredGame:
    """A logged game and its exact analysis.

    Attributes:
        logged: the :class:`LoggedGame`.
        analysis: :class:`~solver.evaluation.analysis.GameAnalysis` (per move ``V*``, ``Q*``,
            regret, luck, scores).
    """

    logged: LoggedGame
    analysis: GameAnalysis

    @property
    def status(self) -> str:
        """``"won"``, ``"lost"`` (every guess of the limit used) or ``"unfinished"`` (the log
        stops before the end: an agent that gave up or was stopped)."""
        if self.analysis.won:
            return "won"
        return "lost" if self.analysis.game_over else "unfinished"

    @property
    def optimal_moves(self) -> int:
        """Moves whose regret is exactly 0."""
        return sum(1 for m in self.analysis.moves if m.regret_finite == 0)

    def to_json(self) -> dict:
        """The analysis's JSON (``wordle analyse --json``'s) with the line, agent, answer,
        id and status."""
        return {"line": self.logged.line, "id": self.logged.id, "agent": self.logged.agent,
                "answer": self.logged.answer, "status": self.status, **self.analysis.to_json()}

    def move_rows(self) -> list[dict]:
        """One flat dict per move (the CSV's rows): the game's line, agent, lists, mode,
        answer and status, then the move's figures (expected guesses; ``None`` where a value
        is not exact)."""
        game = {"line": self.logged.line, "id": self.logged.id, "agent": self.logged.agent,
                "words": self.analysis.word_list, "mode": self.analysis.mode,
                "answer": self.logged.answer, "status": self.status}
        rows = []
        for move in self.analysis.moves:
            data = move.to_json()
            rows.append({**game, "move": move.number, "guess": move.guess, "feedback": data["feedback"],
                         "answers_before": move.answers_before, "v_star": data["v_star"],
                         "q_star": data["q_star"], "regret": data["regret_finite"],
                         "regret_fraction": data["regret_finite_fraction"],
                         "regret_strict": "inf" if move.q_loses else data["regret"],
                         "luck": data["luck"], "skill_score": move.skill_score,
                         "luck_score": move.luck_score, "optimal_guess": move.optimal_guess,
                         "exact": move.exact})
        return rows


@dataclass
class AgentSummary:
    """One agent's totals over its games of a log.

    Attributes:
        agent: the name.
        games, won, lost, unfinished: counts of games.
        moves, optimal_moves: counts of moves, and of those of regret exactly 0.
        guesses_won: guesses used over the games won (their sum).
        regret_total, luck_total: Σ over games of the total (finite) regret and luck in
            expected guesses, exact; None when some game's is known only within an interval
            (see ``regret_bounds``, ``luck_bounds``).
        regret_bounds, luck_bounds: proven intervals on those sums (``(low, high)``, a side
            None when unbounded), or None when unknown.
    """

    agent: str
    games: int = 0
    won: int = 0
    lost: int = 0
    unfinished: int = 0
    moves: int = 0
    optimal_moves: int = 0
    guesses_won: int = 0
    regret_total: Fraction | None = Fraction(0)
    luck_total: Fraction | None = Fraction(0)
    regret_bounds: tuple | None = (Fraction(0), Fraction(0))
    luck_bounds: tuple | None = (Fraction(0), Fraction(0))

    def add(self, game: ScoredGame) -> None:
        """Add one scored game to the totals: its status count, its moves and optimal moves, and its
        total finite regret and luck (a total becomes None, an interval only, once some game's is
        not exact)."""
        analysis = game.analysis
        self.games += 1
        status = game.status
        setattr(self, status, getattr(self, status) + 1)
        if status == "won":
            self.guesses_won += len(analysis.moves)
        self.moves += len(analysis.moves)
        self.optimal_moves += game.optimal_moves
        regret, luck = analysis.total_regret_finite, analysis.total_luck
        self.regret_total = None if regret is None or self.regret_total is None else self.regret_total + regret
        self.luck_total = None if luck is None or self.luck_total is None else self.luck_total + luck
        self.regret_bounds = _sum_bounds([self.regret_bounds, analysis.total_regret_finite_bounds])
        self.luck_bounds = _sum_bounds([self.luck_bounds, analysis.total_luck_bounds])

    @property
    def win_rate(self) -> float:
        """Games won over games (0..1)."""
        return self.won / self.games if self.games else 0.0

    @property
    def mean_guesses(self) -> float | None:
        """Mean guesses of the games won (None when none was won)."""
        return self.guesses_won / self.won if self.won else None

    @property
    def mean_regret(self) -> Fraction | None:
        """Mean total regret per game in expected guesses (0: every move optimal), exact, or
        None when some game's is not (``mean_regret_bounds``)."""
        return None if self.regret_total is None or not self.games else self.regret_total / self.games

    @property
    def mean_regret_bounds(self) -> tuple | None:
        """A proven interval on the mean regret per game."""
        return _mean(self.regret_bounds, self.games)

    @property
    def mean_luck(self) -> Fraction | None:
        """Mean total luck per game in expected guesses (positive: luckier than expected)."""
        return None if self.luck_total is None or not self.games else self.luck_total / self.games

    @property
    def optimal_share(self) -> float:
        """Moves of regret exactly 0 over moves (0..1)."""
        return self.optimal_moves / self.moves if self.moves else 0.0

    @property
    def skill_score(self) -> int | None:
        """The 0–99 skill score of the mean regret per game (:mod:`solver.evaluation.scores`)."""
        return skill_of_bounds(self.mean_regret, self.mean_regret_bounds)

    def to_json(self) -> dict:
        """The agent's totals as a JSON-ready dict (win rate, mean guesses over the games won,
        optimal share, mean regret as a float, its exact fraction as text and its proven interval)."""
        def number(x):
            return None if x is None else float(x)

        return {"agent": self.agent, "games": self.games, "won": self.won, "lost": self.lost,
                "unfinished": self.unfinished, "win_rate": self.win_rate,
                "mean_guesses_won": self.mean_guesses, "moves": self.moves,
                "optimal_moves": self.optimal_moves, "optimal_share": self.optimal_share,
                "mean_regret": number(self.mean_regret),
                "mean_regret_fraction": None if self.mean_regret is None else str(self.mean_regret),
                "mean_regret_interval": _interval(self.mean_regret_bounds),
                "mean_luck": number(self.mean_luck), "skill_score": self.skill_score}


def _mean(bounds, n: int) -> tuple | None:
    if bounds is None or not n:
        return None
    return tuple(None if side is None else side / n for side in bounds)


@dataclass
class LogScore:
    """A whole log scored (:meth:`GameScorer.score_log`).

    Attributes:
        games: the :class:`ScoredGame` of every line scored, in line order.
        errors: the :class:`LogLineError` of every line not scored, in line order.
        agents: :class:`AgentSummary` per agent, in order of first appearance.
        seconds: wall seconds of the scoring.
    """

    games: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    agents: dict = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict:
        """The scored log as a JSON-ready dict: the agents' summaries, every game, the lines not
        scored (``line``, ``reason``) and the wall seconds."""
        return {"agents": [a.to_json() for a in self.agents.values()],
                "games": [g.to_json() for g in self.games],
                "errors": [{"line": e.line, "reason": e.reason} for e in self.errors],
                "seconds": round(self.seconds, 3)}

    def move_rows(self) -> list[dict]:
        """One row per move of every game scored, in line order (:meth:`ScoredGame.move_rows`)."""
        return [row for game in self.games for row in game.move_rows()]


class GameScorer:
    """Scores logged games exactly, one search service per lists and mode (module docstring).

    Args:
        words: the lists of a line that names none (a shipped list's name, a directory, or a
            :class:`~solver.game.wordlists.WordList`).
        mode: the mode of a line that names none.
        budget: seconds each game's analysis may take (None: every value exact, however
            long: an opener without a shipped or cached tree has its tree solved once and
            kept, and on lists with no proven opener the empty history is solved once,
            :func:`~solver.evaluation.exact_reward.ensure_exact_root`). Values not finished
            within it are proven intervals.

    Raises:
        InputError: an unknown default list or mode; a budget that is not > 0.
    """

    def __init__(self, words=PLAY_LISTS, mode: str = "normal", *, budget: float | None = None):
        from solver.exact.advice import check_budget
        from solver.game.wordlists import WordList

        check_budget(budget)
        self.mode, self.budget = _mode(mode), budget
        self._services: dict = {}
        self._lists: dict = {}
        if isinstance(words, WordList):
            self._lists[words.name] = words
            words = words.name
        self.words = words
        self._analyses: dict = {}
        self.service(words, self.mode)  # the defaults are checked now

    def service(self, words: str, mode: Mode):
        """The :class:`~solver.exact.service.SearchService` of ``words`` and ``mode``, made
        once and kept."""
        from solver.exact.service import SearchService
        from solver.game.wordlists import load_word_list

        key = (words, mode)
        if key not in self._services:
            if words not in self._lists:
                self._lists[words] = load_word_list(words)
            service = SearchService(Game(self._lists[words], mode=mode))
            if self.budget is None:  # V* at the start exact on lists with no opener proof too
                from solver.evaluation.exact_reward import ensure_exact_root

                ensure_exact_root(service)
            self._services[key] = service
        return self._services[key]

    def score(self, logged: LoggedGame) -> ScoredGame:
        """The exact analysis of one logged game.

        Raises:
            LogLineError: the game does not fit its lists (an unknown word, feedback that
                contradicts the answer or that no answer fits, too many guesses, a hard-mode
                guess that ignores a hint), or its lists or mode are unknown.
        """
        from solver.game.history import History

        try:
            service = self.service(logged.words or self.words,
                                   _mode(logged.mode) if logged.mode else self.mode)
            history = History.from_record(service.game, logged.tokens(), answer=logged.answer)
            key = (id(service), history.steps)
            analysis = self._analyses.get(key)
            if analysis is None:
                analysis = analyse_game(service.game, history, budget=self.budget, service=service)
                self._analyses[key] = analysis
        except LogLineError:
            raise
        except InputError as exc:
            raise LogLineError(logged.line, str(exc)) from None
        return ScoredGame(logged, analysis)

    def score_log(self, lines: Iterable[str], *, progress=None) -> LogScore:
        """Every line of a log scored (module docstring): the lines that cannot be are
        :class:`LogLineError` in ``errors``, never raised. ``progress(done, total)`` is called
        after each game."""
        started = time.perf_counter()
        logged, errors = read_game_log(lines)
        result = LogScore()
        for done, game in enumerate(logged, start=1):
            try:
                scored = self.score(game)
            except LogLineError as exc:
                errors.append(exc)
            else:
                result.games.append(scored)
                result.agents.setdefault(game.agent, AgentSummary(game.agent)).add(scored)
            if progress is not None:
                progress(done, len(logged))
        result.errors = sorted(errors, key=lambda e: e.line)
        result.seconds = time.perf_counter() - started
        return result


def _mode(name) -> Mode:
    try:
        return Mode(str(name).strip().lower())
    except ValueError:
        raise InputError(f"unknown mode {name!r}: use normal, hard or ultra") from None
