"""The answers of the search service (:mod:`solver.exact.service`): the next guess with its
value and status (:class:`Advice`, one :class:`Alternative` per guess listed), where a
history leads (:class:`policy_tree.Position`), and the check of a time budget (a history is checked by
:meth:`solver.game.history.History.parse`).

Values are in the objective's units (docs/algorithms.md §2). Plain Python and numpy: the
lookup tools import it without loading the search kernels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum


from solver.game.errors import InputError
from solver.game.feedback import code_to_text

class Status(StrEnum):
    """:attr:`Advice.status`: how far the answer is proven (its value is the JSON's text)."""

    #: the next guess is optimal and its value is ``V*``
    EXACT = "exact"
    #: a deadline's answer: the best guess found, with a proven lower bound and the gap
    NOT_PROVEN = "best found, not proven"
    #: the game is won: no next guess
    SOLVED = "solved"


class Source(StrEnum):
    """:attr:`Advice.source`: where the next guess came from."""

    #: a decision tree the history followed (shipped, cached or solved)
    TREE = "tree"
    #: the opener tables' second guesses (a state one guess leaves, docs/algorithms.md §9.7)
    TABLE = "table"
    #: a state searched now (off every tree)
    SOLVER = "solver"
    #: the fast policy (the first guess of the candidate order at every node, §4.2)
    HEURISTIC = "heuristic"


class ValueKind(StrEnum):
    """:attr:`Advice.objective`: what the values count (the game's objective, or the weighted
    total under priors)."""

    #: the total of further guesses over the answers left
    TOTAL = "total"
    #: the most further guesses any answer left needs
    WORST = "worst"
    #: the prior-weighted total of further guesses
    WEIGHTED = "weighted"


EXACT, NOT_PROVEN, SOLVED = Status.EXACT, Status.NOT_PROVEN, Status.SOLVED


def format_steps(steps) -> list[str]:
    """``[("salet", 3), ...]`` → ``["salet:bbybb", ...]``."""
    return [f"{word}:{code_to_text(code, len(word))}" for word, code in steps]


def check_budget(budget) -> None:
    """Refuse (InputError) a budget that is not None or a positive finite number of seconds."""
    if budget is None:
        return
    if not isinstance(budget, (int, float)) or isinstance(budget, bool) or not math.isfinite(budget) \
            or budget <= 0:
        raise InputError(f"the time budget must be a positive number of seconds, got {budget!r}")


# -- answers -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Alternative:
    """One guess at the state with its value.

    Attributes:
        guess: the word.
        q_value: ``Q*(S, d, guess)`` in the objective's units (an int): exact when ``exact``,
            else a proven lower bound.
        exact: whether ``q_value`` is exact.
        could_be_answer: the guess is one of the answers still possible.
        per_game: what ``q_value`` is divided by for the expected guesses of one game: ``|S|``,
            the state's weight under priors, or 1 for the worst case.
    """

    guess: str
    q_value: int
    exact: bool
    could_be_answer: bool
    per_game: int

    @property
    def expected(self) -> float:
        """Expected guesses for one game from here when this guess is played (``q / |S|``;
        the worst case itself for the worst-case objective)."""
        return self.q_value / self.per_game

    def to_json(self) -> dict:
        """The alternative as a JSON-ready dict (``q_total`` in the objective's units, ``expected``
        per game)."""
        return {"guess": self.guess, "q_total": self.q_value, "expected": self.expected,
                "exact": self.exact, "could_be_answer": self.could_be_answer}


@dataclass(frozen=True)
class Split:
    """How a guess splits the answers still possible (the page's "why" panel): its feedback
    classes, as the search sees them (:meth:`SearchService.split`).

    Attributes:
        guess: the word.
        class_sizes: the number of answers each feedback would leave, largest first (a tuple
            of ints summing to ``|S|``; the guess's own all-green class, of 1, when it could be
            the answer).
        could_be_answer: the guess is one of the answers still possible (it wins now for one).
    """

    guess: str
    class_sizes: tuple[int, ...]
    could_be_answer: bool

    @property
    def classes(self) -> int:
        """How many different feedbacks the guess can get here."""
        return len(self.class_sizes)

    @property
    def largest(self) -> int:
        """The most answers any feedback leaves (the worst case of the next turn)."""
        return self.class_sizes[0] if self.class_sizes else 0

    @property
    def solved_next(self) -> int:
        """Answers left alone in their class by this guess, other than the guess itself: the
        guess after it wins for each of them (the game ends next turn)."""
        return sum(1 for size in self.class_sizes if size == 1) - int(self.could_be_answer)

    def to_json(self) -> dict:
        """The split as a JSON-ready dict (class sizes largest first, classes, largest, solved
        next)."""
        return {"guess": self.guess, "class_sizes": list(self.class_sizes), "classes": self.classes,
                "largest": self.largest, "solved_next": self.solved_next,
                "could_be_answer": self.could_be_answer}


@dataclass
class Advice:
    """The service's answer about one history (:meth:`SearchService.advise`).

    Attributes:
        word_list: the lists' name.
        history: the history as ``(guess, feedback code)`` pairs.
        answers: the answers still possible, in list order (the allowed guesses that fit, when
            ``outside_list``).
        guesses_left: guesses left within the game's limit (0 once a lost game used them all).
        status: ``"exact"`` (``next_guess`` is optimal, ``value`` is ``V*``), ``"best found,
            not proven"`` (the deadline came first: ``next_guess`` is the best guess found,
            ``value`` an upper bound on ``V*`` reached by playing it: its exact ``Q*``, or the
            value of the fast policy that starts with it (``source`` ``"heuristic"``), or
            None; ``lower_bound`` a proven bound on ``V*``) or
            ``"solved"`` (the history ends in all green; no next guess).
        source: ``"tree"`` (a shipped, cached or just solved decision tree), ``"solver"`` (a
            state off every tree, solved now), ``"heuristic"`` (the fast policy's guess — the
            first guess in the candidate order at every node, §4.2 — when the search found
            nothing better in time) or None when solved.
        next_guess: the word to play, or None when solved.
        value: ``V*`` in the objective's units as described under ``status``, or None.
        lower_bound: a proven lower bound on ``V*`` (equal to ``value`` when exact).
        alternatives: up to ``top`` guesses with their values, best first.
        alternatives_complete: whether ``alternatives`` are proven to be the best ``top``.
        left_tree: when the history left the opener's tree, a sentence saying where; else None.
        seconds: wall seconds.
        objective: a :class:`ValueKind`: the game's objective (total, worst), or weighted
            under priors.
        mode: ``"normal"``, ``"hard"`` or ``"ultra"``.
        per_game: ``|S|`` (total), the state's weight (priors) or 1 (worst case): value / per_game
            is the expected number of guesses of one game (the worst case itself).
        extra_guesses: 0, or how many guesses past the limit the values count when the answers
            left cannot all be won within the guesses left (a lost game, §15.2).
        outside_list: no answer of the list fits the history: ``answers`` are the allowed
            guesses that fit.
        opener_tree: the opener whose tree answered, or None.
        splits: how the next guess and each alternative split the answers left, by guess
            (:class:`Split`; empty unless asked for, and when solved).
    """

    word_list: str
    history: list
    answers: tuple
    guesses_left: int
    status: str
    source: str | None
    next_guess: str | None
    value: int | None
    lower_bound: int | None
    alternatives: list = field(default_factory=list)
    alternatives_complete: bool = True
    left_tree: str | None = None
    seconds: float = 0.0
    objective: str = "total"
    mode: str = "normal"
    per_game: int | None = None
    extra_guesses: int = 0
    outside_list: bool = False
    opener_tree: str | None = None
    splits: dict = field(default_factory=dict)

    @property
    def n_answers(self) -> int:
        """How many answers are still possible (``len(answers)``)."""
        return len(self.answers)

    @property
    def expected(self) -> float | None:
        """``value / per_game``: expected further guesses for one game (the next one included)."""
        if self.value is None:
            return None
        return self.value / (self.per_game or self.n_answers)

    @property
    def gap(self) -> int | None:
        """``value − lower_bound``: how far the guess given may be from the optimum (0 when
        exact), or None when either is unknown."""
        if self.value is None or self.lower_bound is None:
            return None
        return self.value - self.lower_bound

    @property
    def game_over(self) -> bool:
        """The game is finished: won (``status`` solved), or every guess of the limit used."""
        return self.status == SOLVED or self.guesses_left == 0

    @property
    def lost(self) -> bool:
        """The answers left cannot all be won within the game's guess limit."""
        return self.extra_guesses > 0

    def to_json(self) -> dict:
        """A JSON-ready dict (what ``tools.assist --json`` prints and the web page receives)."""
        per_game = self.per_game or self.n_answers
        return {
            "word_list": self.word_list, "history": format_steps(self.history),
            "mode": self.mode, "objective": self.objective,
            "answers_remaining": self.n_answers, "answers": list(self.answers),
            "guesses_left": self.guesses_left, "game_over": self.game_over,
            "status": self.status, "source": self.source,
            "next_guess": self.next_guess, "value_total": self.value,
            "expected_guesses": self.expected,
            "lower_bound_total": self.lower_bound,
            "lower_bound_expected": None if self.lower_bound is None else self.lower_bound / per_game,
            "gap_total": self.gap,
            "gap_expected": None if self.gap is None else self.gap / per_game,
            "alternatives": [a.to_json() for a in self.alternatives],
            "alternatives_complete": self.alternatives_complete,
            "left_tree": self.left_tree, "extra_guesses": self.extra_guesses,
            "outside_list": self.outside_list, "opener_tree": self.opener_tree,
            "splits": {guess: split.to_json() for guess, split in self.splits.items()},
            "seconds": round(self.seconds, 4),
        }


@dataclass(frozen=True)
class Bounds:
    """A value in the objective's units (an int), known exactly or within a proven interval.

    Attributes:
        lower: a proven lower bound (``INF``, 2**30, when no policy wins in time).
        upper: a proven upper bound (the value of a policy that reaches it), or None when no
            such policy was found in time. ``lower == upper``: the value is exact.
    """

    lower: int
    upper: int | None

    @classmethod
    def exactly(cls, value: int) -> Bounds:
        """The bounds of a value known exactly: ``lower == upper == value``."""
        return cls(int(value), int(value))

    @property
    def exact(self) -> bool:
        """True if the value is known exactly (``lower == upper``)."""
        return self.upper is not None and self.lower == self.upper


@dataclass(frozen=True)
class OpenerValue:
    """``Q*`` of an opener at the empty history (:meth:`SearchService.opener_value`).

    Attributes:
        opener: the word.
        q: ``Q*(A, limit, opener)`` as :class:`Bounds` (``INF`` exactly when ``unwinnable``).
        classes: feedback code → :class:`Bounds` of ``V*(C, limit − 1)`` for each non-green
            root class ``C`` (empty when ``unwinnable``).
        tree: the opener's optimal :class:`policy_tree.PolicyTree` when it was found or solved,
            else None (the deadline came first, or ``unwinnable``).
        unwinnable: no policy with this opener wins every game within the guess limit.
    """

    opener: str
    q: Bounds
    classes: dict
    tree: object = None
    unwinnable: bool = False


@dataclass(frozen=True)
class RelaxedQ:
    """The finite value of a move that gives up the sure finish of its state
    (:meth:`SearchService.relaxed_q`, docs/algorithms.md §15.4), in the objective's units.

    The state ``S`` is valued with its own ``e`` extra guesses (§15.2; 0 when it can be won in
    time); the move ``g`` leaves some answer that can no longer be won within ``d + e``.

    Attributes:
        q: ``Q*(S, d + extra, g)``: the move's value with the limit relaxed by the least
            ``extra`` > ``e`` that lets it win every answer (an int).
        extra: that least number of guesses past the limit.
        unsafe: the weight (answers; prior weight under priors; 1 for the worst case) of the
            classes of ``g`` that cannot be won within the ``d + e − 1`` guesses left after it:
            over the state's weight, the probability that the feedback leaves a state with no
            sure finish.
    """

    q: int
    extra: int
    unsafe: int

    def cost(self, value: int) -> int:
        """The move's finite value against the state's ``V*`` (``value``): the relaxed
        ``Q*``, never below ``V*``, plus ``unsafe`` (so its finite regret
        ``cost − value ≥ unsafe > 0``)."""
        return max(int(self.q), int(value)) + int(self.unsafe)
