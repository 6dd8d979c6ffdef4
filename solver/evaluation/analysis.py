"""Post-game analysis: how good each move was (regret) and how lucky its feedback was (luck).

For move ``t`` the player stands in state ``S_t`` (the answers consistent with the feedback
so far, ``n_t = |S_t|``) with ``d_t`` guesses left and plays ``g_t``. In expected guesses for
one game, every answer of ``S_t`` equally likely (docs/algorithms.md §2.3):

- ``v_t = V*(S_t, d_t) / n_t``: the optimal expected number of guesses from here;
- ``q_t = Q*(S_t, d_t, g_t) / n_t``: the same after the player's move, optimal play afterwards;
- **regret** ``q_t − v_t ≥ 0`` ("skill": 0 for an optimal move);
- **luck** ``(q_t − 1) − v_{t+1}``: the expected further guesses after the move,
  ``E_C[V*(C, d_t − 1)/|C|]`` over the feedback classes ``C`` weighted by size, minus those of
  the state the feedback actually left (``v_{t+1} = 0`` once the answer is found). Positive is
  lucky.

They add up: a won game of ``T`` guesses has ``T = v_1 + Σ regret − Σ luck`` exactly
(``v_{t+1} = v_t + regret_t − 1 − luck_t``, telescoped to ``v_{T+1} = 0``); the summary checks it.

Values come from the exact layer's search service (:class:`solver.exact.service.SearchService`):
a move's state is read from the opener's tree when the book has it, else searched on its own
(:meth:`~solver.exact.service.SearchService.position`); at the start ``V*`` is the tree whose
opener is proven best over every allowed guess (docs/algorithms.md §9; without one, the best
known opener's value, marked not exact). Move 1's ``Q*`` takes every root class of the opener
played, so without a budget its tree is read or solved
(:meth:`~solver.exact.service.SearchService.opener_value`) and kept. With a time budget for
the whole analysis each move gets an equal share of what is left (the later moves first, then
move 1 with all that remains), and a value not finished within it is a **proven interval**: a
lower bound from the search's bounds, an upper bound from the best guess found (regret and
luck then intervals too), never left unknown.

One valuation of states (docs/algorithms.md §15.2): every state is valued as the advice
values it (:meth:`~solver.exact.service.SearchService.position`, the one home): ``V*`` within
the guesses left, or, when its answers cannot all be won in time (a lost game), with the least
number ``e`` of extra guesses past the limit that makes it finite (``extra_guesses``). A move
is valued with the same ``e`` as its state; one after which some answer can no longer be won
within those guesses *gives up the sure finish*: its strict regret is ∞ (``q_loses``) and its
**finite regret** follows the rule of §15.4 (:class:`~solver.exact.advice.RelaxedQ`): the
move's ``Q*`` with the limit relaxed by the least extra guesses that let it win every answer,
never below ``V*``, plus the probability that its feedback leaves a state with no sure
finish. For every other move the finite regret is the regret.

The identity holds for every game, won, lost or unfinished, with ``v_{T+1}`` the value of the
state the last feedback left (0 once won; past the limit for a lost game)::

    guesses used + v_{T+1} = v_1 + Σ finite regret − Σ luck

and the skill and luck scores (0–99, :mod:`solver.evaluation.scores`) come from these exact
figures, per move and for the game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from solver.evaluation.assist import EXACT, check_budget, format_steps, service_for
from solver.evaluation.scores import luck_of_bounds, skill_of_bounds
from solver.exact.advice import Bounds, Split
from solver.exact.anytime import INF
from solver.game.errors import FeedbackError, InputError
from solver.game.feedback import answers_after, code_to_text
from solver.game.spec import Game

@dataclass
class MoveAnalysis:
    """One move of an analysed game (totals are over the ``answers_before`` answers).

    Attributes:
        number: 1 for the first guess.
        guess, feedback: the move and the feedback code it got.
        answers_before: ``n_t``; answers_after: answers consistent after the feedback.
        guesses_left: ``d_t``, before the move.
        value: ``V*`` total (int) when ``value_exact``, else the best total found (an upper
            bound on ``V*``) or None when no upper bound was found in time.
        value_exact: whether ``value`` is proven optimal.
        value_lower_bound: a proven lower bound on ``V*`` total.
        q_value: ``Q*`` total of the player's move when exact, else None (see
            ``q_lower_bound``, ``q_upper_bound``; ``q_loses``).
        q_loses: the move leaves some answer that cannot be won in the guesses left.
        optimal_guess: the optimal move (the solver's tie-break; the best found when not exact).
        regret: ``(q_value − value) / n`` as a Fraction when ``q_value`` is exact and ``value``
            known (measured against the best value found when ``value_exact`` is False), else
            None.
        luck: ``(q − n)/n − V*(after)/answers_after`` as a Fraction when exact, else None,
            with ``q`` the move's ``q_value``, or its ``cost`` when it gives up the sure finish.
        extra_guesses: guesses past the limit the state's value counts (a lost game, §15.2;
            the advice's ``extra_guesses`` for the same state).
        q_extra_guesses: guesses past the limit the move's value counts (more than
            ``extra_guesses`` when the move gives up the sure finish, §15.4).
        relaxed_q, unsafe: a move that gives up the sure finish (``q_loses``): its ``Q*`` total
            with the limit relaxed, and the weight of its classes with no sure finish
            (:class:`~solver.exact.advice.RelaxedQ`); else None.
        cost: the finite value of such a move (``RelaxedQ.cost``), or None; cost_bounds: a
            proven interval on it (the high side None when not bounded in time);
            relaxed_q_bounds: a proven interval on ``relaxed_q`` (equal ends when exact).
        regret_finite, regret_finite_bounds: the finite regret (§15.4; the regret for a move
            that does not give up the sure finish) as a Fraction and a proven interval.
        after_value, after_per_game: ``V*`` total of the state the feedback left, when exact
            (0 once won; with its extra guesses past the limit), and its per-game divisor.
        in_words: one plain sentence on what the guess does to the answers left.
        per_game: what a total is divided by for one game (``n``, or the state's weight).
        q_lower_bound, q_upper_bound: a proven interval on ``Q*`` total (equal to ``q_value``
            when exact; the upper bound None when not found in time).
        regret_bounds, luck_bounds: ``(low, high)`` Fractions proven to hold the regret and the
            luck (a side None: not bounded), or None when unknown (``q_loses``).
        split, optimal_split: how the guess and ``optimal_guess`` split the answers before the
            move (:class:`solver.exact.advice.Split`: why one is better than the other), or None
            (not asked for: ``analyse_game(splits=True)``).
    """

    number: int
    guess: str
    feedback: int
    answers_before: int
    answers_after: int
    guesses_left: int
    value: int | None
    value_exact: bool
    value_lower_bound: int | None
    q_value: int | None
    q_loses: bool
    optimal_guess: str | None
    regret: Fraction | None = None
    luck: Fraction | None = None
    extra_guesses: int = 0
    per_game: int | None = None
    q_lower_bound: int | None = None
    q_upper_bound: int | None = None
    regret_bounds: tuple | None = None
    luck_bounds: tuple | None = None
    q_extra_guesses: int = 0
    relaxed_q: int | None = None
    unsafe: int | None = None
    cost: int | None = None
    cost_bounds: tuple | None = None
    relaxed_q_bounds: tuple | None = None
    regret_finite: Fraction | None = None
    regret_finite_bounds: tuple | None = None
    after_value: int | None = None
    after_per_game: int | None = None
    in_words: str = ""
    split: Split | None = None
    optimal_split: Split | None = None

    @property
    def expected(self) -> float | None:
        """``value / n``: expected guesses from this state with optimal play (V*)."""
        return None if self.value is None else self.value / (self.per_game or self.answers_before)

    @property
    def q_expected(self) -> float | None:
        """``q_value / n``: expected guesses after the player's move (Q*)."""
        return None if self.q_value is None else self.q_value / (self.per_game or self.answers_before)

    @property
    def exact(self) -> bool:
        """V*, the move's value (Q*, or its finite value when it gives up the sure finish),
        the finite regret and the luck all exact."""
        return self.value_exact and self.regret_finite is not None and self.luck is not None

    def to_json(self) -> dict:
        """The move as a JSON-ready dict (``analyse --json``): counts and values in the objective's
        units (``value_total``, ``q_total``...), V* and Q* in expected guesses, regret and luck as
        floats with their exact fractions as text (``regret_fraction``) and their proven intervals
        (``regret_interval``, ``None`` when unknown)."""
        per_game = self.per_game or self.answers_before
        return {
            "number": self.number, "guess": self.guess,
            "feedback": code_to_text(self.feedback, len(self.guess)),
            "answers_before": self.answers_before, "answers_after": self.answers_after,
            "guesses_left": self.guesses_left, "value_total": self.value,
            "value_exact": self.value_exact, "value_lower_bound_total": self.value_lower_bound,
            "v_star": self.expected, "q_total": self.q_value, "q_star": self.q_expected,
            "q_lower_bound_total": self.q_lower_bound, "q_upper_bound_total": self.q_upper_bound,
            "q_star_interval": _interval((self.q_lower_bound, self.q_upper_bound), per_game),
            "q_loses": self.q_loses, "optimal_guess": self.optimal_guess,
            "regret": _float(self.regret), "regret_fraction": _text(self.regret),
            "regret_interval": _interval(self.regret_bounds),
            "luck": _float(self.luck), "luck_fraction": _text(self.luck),
            "luck_interval": _interval(self.luck_bounds),
            "extra_guesses": self.extra_guesses, "q_extra_guesses": self.q_extra_guesses,
            "relaxed_q_total": self.relaxed_q, "unsafe_total": self.unsafe,
            "relaxed_q_interval": _interval(self.relaxed_q_bounds, per_game),
            "regret_finite": _float(self.regret_finite),
            "regret_finite_fraction": _text(self.regret_finite),
            "regret_finite_interval": _interval(self.regret_finite_bounds),
            "skill_score": self.skill_score, "luck_score": self.luck_score,
            "in_words": self.in_words,
            "split": None if self.split is None else self.split.to_json(),
            "optimal_split": None if self.optimal_split is None else self.optimal_split.to_json(),
        }

    @property
    def skill_score(self) -> int | None:
        """0–99 from the finite regret (:mod:`solver.evaluation.scores`; 99: optimal)."""
        return skill_of_bounds(self.regret_finite, self.regret_finite_bounds)

    @property
    def luck_score(self) -> int | None:
        """0–99 from the luck (:mod:`solver.evaluation.scores`; 50: as expected)."""
        return luck_of_bounds(self.luck, self.luck_bounds)


def _interval(bounds, per_game: int = 1) -> list | None:
    """``[low, high]`` as floats (divided by ``per_game``; None for a side not bounded)."""
    if bounds is None or (bounds[0] is None and bounds[1] is None):
        return None
    return [None if x is None else float(x) / per_game for x in bounds]


def _sum_bounds(bounds) -> tuple | None:
    """The interval of a sum from its terms' intervals (None if a term is unknown)."""
    low, high = Fraction(0), Fraction(0)
    for term in bounds:
        if term is None:
            return None
        low = None if low is None or term[0] is None else low + term[0]
        high = None if high is None or term[1] is None else high + term[1]
    return None if low is None and high is None else (low, high)


def _float(x: Fraction | None) -> float | None:
    return None if x is None else float(x)


def _text(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


@dataclass
class GameAnalysis:
    """The outcome of :func:`analyse_game`.

    Attributes:
        word_list: the lists' name.
        history: the game as ``(guess, feedback code)`` pairs.
        moves: one :class:`MoveAnalysis` per guess.
        won: the last feedback is all green.
        seconds: wall seconds.
    """

    word_list: str
    history: list
    moves: list = field(default_factory=list)
    won: bool = False
    seconds: float = 0.0
    mode: str = "normal"
    guess_limit: int = 6

    @property
    def total_regret(self) -> Fraction | None:
        """Σ regret in expected guesses, or None when some move's regret is unknown."""
        values = [m.regret for m in self.moves]
        return None if any(v is None for v in values) else sum(values, Fraction(0))

    @property
    def total_luck(self) -> Fraction | None:
        """Σ luck in expected guesses, or None when some move's luck is unknown."""
        values = [m.luck for m in self.moves]
        return None if any(v is None for v in values) else sum(values, Fraction(0))

    @property
    def total_regret_bounds(self) -> tuple | None:
        """``(low, high)`` proven to hold Σ regret (``high`` None: unbounded), or None when
        some move's regret is unknown (a move that gives up a game: ∞)."""
        return _sum_bounds(m.regret_bounds for m in self.moves)

    @property
    def total_luck_bounds(self) -> tuple | None:
        """``(low, high)`` proven to hold Σ luck, or None when some move's luck is unknown."""
        return _sum_bounds(m.luck_bounds for m in self.moves)

    @property
    def total_regret_finite(self) -> Fraction | None:
        """Σ finite regret (§15.4: a move that gives up the sure finish counted finitely),
        or None when some move's is unknown."""
        values = [m.regret_finite for m in self.moves]
        return None if any(v is None for v in values) else sum(values, Fraction(0))

    @property
    def total_regret_finite_bounds(self) -> tuple | None:
        """``(low, high)`` proven to hold Σ finite regret (§15.4; ``high`` None: unbounded), or None
        when some move's finite regret is unknown."""
        return _sum_bounds(m.regret_finite_bounds for m in self.moves)

    @property
    def start_value(self) -> Fraction | None:
        """``v_1``: V* at the start in expected guesses (None unless exact)."""
        first = self.moves[0] if self.moves else None
        if first is None or first.value is None or not first.value_exact:
            return None
        return Fraction(first.value, first.per_game or first.answers_before)

    @property
    def final_value(self) -> Fraction | None:
        """``v_{T+1}``: V* of the state the last feedback left (0 once won; past the limit
        with its extra guesses for a lost game, §15.2), or None when not exact."""
        if self.won:
            return Fraction(0)
        last = self.moves[-1] if self.moves else None
        if last is None or last.after_value is None:
            return None
        return Fraction(last.after_value, last.after_per_game or 1)

    @property
    def skill_score(self) -> int | None:
        """The game's 0–99 skill from its total finite regret (:mod:`solver.evaluation.scores`)."""
        return skill_of_bounds(self.total_regret_finite, self.total_regret_finite_bounds)

    @property
    def luck_score(self) -> int | None:
        """The game's 0–99 luck from its total luck (:mod:`solver.evaluation.scores`)."""
        return luck_of_bounds(self.total_luck, self.total_luck_bounds)

    @property
    def game_over(self) -> bool:
        """Won, or every guess of the limit used."""
        return self.won or len(self.history) >= self.guess_limit

    @property
    def all_exact(self) -> bool:
        """True if every move's values are exact (:attr:`MoveAnalysis.exact`)."""
        return all(m.exact for m in self.moves)

    def to_json(self) -> dict:
        """The game as a JSON-ready dict (``analyse --json``): the history, every move's
        :meth:`MoveAnalysis.to_json`, and the totals of regret, finite regret and luck as floats,
        exact fractions as text and proven intervals."""
        first = self.moves[0] if self.moves else None
        return {
            "word_list": self.word_list, "mode": self.mode, "history": format_steps(self.history),
            "won": self.won,
            "guesses": len(self.history), "moves": [m.to_json() for m in self.moves],
            "start_expected": None if first is None else first.expected,
            "total_regret": _float(self.total_regret), "total_regret_fraction": _text(self.total_regret),
            "total_luck": _float(self.total_luck), "total_luck_fraction": _text(self.total_luck),
            "total_regret_interval": _interval(self.total_regret_bounds),
            "total_luck_interval": _interval(self.total_luck_bounds),
            "total_regret_finite": _float(self.total_regret_finite),
            "total_regret_finite_fraction": _text(self.total_regret_finite),
            "total_regret_finite_interval": _interval(self.total_regret_finite_bounds),
            "final_expected": _float(self.final_value),
            "final_expected_fraction": _text(self.final_value),
            "skill_score": self.skill_score, "luck_score": self.luck_score,
            "game_over": self.game_over,
            "all_values_exact": self.all_exact, "seconds": round(self.seconds, 4),
        }


def analyse_game(game: Game, history, *, budget: float | None = None, tree=None,
                 table: np.ndarray | None = None, service=None, progress=None,
                 splits: bool = False) -> GameAnalysis:
    """Regret and luck of every move of a game (module docstring).

    Args:
        game: the :class:`~solver.game.spec.Game` (in hard mode every move must use the hints
            before it, in ultra-hard mode be consistent with the feedback before it; V* and Q*
            are then over the guesses the mode allows, docs/algorithms.md §10.1, §10.5).
        history: the game, as for :meth:`solver.game.history.History.parse` (see
            :meth:`~solver.game.history.History.from_record` for the other ways a player gives
            it); won, lost or unfinished.
        budget: seconds the whole analysis may take (> 0), or None (default): every value
            exact, however long (the opener's tree is solved once and kept). Within a budget
            each move gets an equal share of the time left; a value not finished in its share
            is a proven interval (module docstring).
        tree: a decision tree of these lists (its game is the one analysed), or None.
        table: the feedback table (loaded from the cache if omitted).
        service: a :class:`solver.exact.service.SearchService` to ask (``game`` is then
            ignored).
        progress: ``progress(done_answers, total_answers)`` while the opener's tree is solved.
        splits: also say how each move's guess and the optimal one split the answers before
            it (``split``, ``optimal_split``: the page's "why"), once the values are in (the
            partition kernel's first call in a process loads it: up to a second cold).

    Returns:
        :class:`GameAnalysis`. Raises InputError subclasses as
        :meth:`~solver.game.history.History.parse` (naming the guess at fault), for a
        history nothing fits, no guess, a bad budget.
    """
    started = time.perf_counter()
    check_budget(budget)
    deadline = None if budget is None else time.monotonic() + budget
    if service is None:
        service = service_for(game, tree=tree, table=table)
    steps = service.normalise(history)
    if not steps:
        raise InputError("the game has no guesses to analyse")
    if service.state_after(steps).size == 0:
        return _analyse_outside_list(service, steps, budget, progress, started, splits)
    limit = service.game.guess_limit
    moves: list[MoveAnalysis] = []
    states = []
    state = np.arange(service.word_list.n_answers, dtype=np.int32)
    for t, (guess, code) in enumerate(steps, start=1):
        after = answers_after(service.parts, state, service.word_list.guess_index(guess), code)
        moves.append(MoveAnalysis(t, guess, code, len(state), len(after), limit - t + 1, None,
                                  False, None, None, False, None, per_game=service.per_game(state),
                                  in_words=move_in_words(service, state, guess)))
        states.append((state, after))
        state = after
    afters: dict[int, Bounds] = {}  # move -> V* of the state its feedback left (for the luck)
    # the later moves first (their states are small: exact in their share, once the kernels
    # are loaded), then move 1 with all the time left (its Q* needs every root class)
    order = list(range(2, len(moves) + 1)) + [1]
    for k, t in enumerate(order):
        move = moves[t - 1]
        share = None
        if deadline is not None:  # an equal share of what is left for each move still to value
            share = time.monotonic() + max(deadline - time.monotonic(), 0.0) / (len(order) - k)
        if t == 1:
            _value_first(service, steps, *states[0], move, progress, share, afters)
        else:
            _value_later(service, steps, t, *states[t - 1], move, share, afters)
    for t, move in enumerate(moves, start=1):
        _regret_and_luck(service, steps, t, states[t - 1][1], move, moves, afters, deadline)
        if splits:  # why: the classes of the guess and of the optimal one
            move.split = service.split(states[t - 1][0], move.guess)
            if move.optimal_guess is not None:
                move.optimal_split = service.split(states[t - 1][0], move.optimal_guess)
    won = steps[-1][1] == service.game.all_green
    return GameAnalysis(service.word_list.name, steps, moves, won, time.perf_counter() - started,
                        service.game.mode.value, limit)


def move_in_words(service, state: np.ndarray, guess: str) -> str:
    """One plain sentence on what ``guess`` does to the answers of ``state``: the most it
    can leave whatever the colours, the feedback groups, how many games it would end by the
    next turn (won now, or one answer left), and whether it could be the answer."""
    from solver.game.wording import counted

    codes = service.parts.codes(service.word_list.guess_index(guess), state)
    green = service.game.all_green
    values, sizes = np.unique(codes, return_counts=True)
    others = sizes[values != green]
    n = len(state)
    won_now = int(sizes[values == green].sum())
    if n == 1:
        return "the only answer left: wins now" if won_now else "cannot win: the one answer left is another word"
    largest = int(others.max()) if len(others) else 0
    pinned = int((others == 1).sum())
    words = [f"leaves at most {counted(largest, 'answer')} whatever the colours "
             f"({counted(len(values), 'feedback group')})"]
    ends = won_now + pinned
    words.append(f"ends {ends} of the {counted(n, 'game')} by the next turn" if ends else
                 "ends no game by the next turn")
    if won_now:
        words.append("could be the answer")
    return "; ".join(words)


def _seconds_to(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.monotonic(), 0.0)


def _search_seconds(state, deadline: float | None) -> float | None:
    """The anytime search's budget for ``state``: the time to ``deadline``, and at least a
    moment for a state of at most :data:`FAST_ANYWAY` answers (its first guesses' exact values
    take microseconds once the kernels are loaded)."""
    seconds = _seconds_to(deadline)
    if seconds is not None and len(state) <= FAST_ANYWAY:
        seconds = max(seconds, 0.01)
    return seconds


def _value_first(service, steps, state, after, move: MoveAnalysis, progress, deadline, afters) -> None:
    """Move 1: V* at the start (the proven opener's tree, §9) and the opener's Q* with each
    root class's value (:meth:`~solver.exact.service.SearchService.opener_value`)."""
    from solver.exact.anytime import cheap_lower_bound

    guess, code = steps[0]
    green = service.game.all_green
    d = move.guesses_left
    opener = service.opener_value(guess, deadline=deadline, progress=progress)
    if service.book.solve or service.book.loaded() or service.table_root() is not None:
        # V* at the start: the proven tree (§9), or a complete opener table (§9.7)
        budget = _seconds_to(deadline)
        root = service.advise([], top=0, budget=max(budget, 0.05) if budget is not None else None)
        move.value, move.value_exact = root.value, root.status == EXACT
        move.optimal_guess, move.value_lower_bound = root.next_guess, root.lower_bound
        move.extra_guesses = move.q_extra_guesses = root.extra_guesses
    else:  # no trees: V* lies between the cheap bound and the opener played (an upper bound)
        move.value_lower_bound = min(cheap_lower_bound(service.game, state, service.parts),
                                     opener.q.upper if opener.q.upper is not None else INF)
        move.value = opener.q.upper if opener.q.upper is not None and opener.q.upper < INF else None
        move.value_exact = move.value is not None and move.value == move.value_lower_bound
        move.optimal_guess = guess if move.value_exact else None
    if move.extra_guesses and move.value_exact:  # no opener wins every game in time (§15.2)
        q = service.q_value(state, d, [], guess, move.extra_guesses)
        if q >= INF:
            _gives_up(service, [], state, d, guess, move, move.extra_guesses)
        else:
            move.q_value = move.q_lower_bound = move.q_upper_bound = q
        return
    if opener.unwinnable:  # no tree of this opener wins every game within the limit:
        # strict regret ∞; the finite rule of §15.4 (the limit relaxed, the chance of losing)
        # exactly: without a deadline, or from the book's record (tools.book), else within it
        recorded = not move.extra_guesses and service.book.relaxed(guess) is not None
        if deadline is None or recorded or move.extra_guesses:
            _gives_up(service, [], state, d, guess, move, move.extra_guesses)
        else:
            _gives_up_within(service, [], state, d, guess, move, deadline)
        return
    move.q_lower_bound, move.q_upper_bound = opener.q.lower, opener.q.upper
    move.q_value = opener.q.lower if opener.q.exact else None
    afters[1] = Bounds.exactly(0) if code == green else opener.classes[code]


def _gives_up_within(service, before, state, d: int, guess: str, move: MoveAnalysis, deadline) -> None:
    """A move that gives up the sure finish of a state won within ``d`` (``extra`` 0), valued
    within a deadline: its finite value (§15.4) as a proven interval. Each class of the move
    is solved exactly within the limit while time is left, smallest first (it has a sure
    finish or not: ``unsafe``); the relaxed ``Q*`` lies between the classes' cheap bounds
    (§3.1, true at any horizon) and the fast policy's value one guess past the limit
    (:func:`solver.exact.anytime.greedy_guesses`; when it wins every class there, one extra
    guess is enough and that is an upper bound). A class not settled in time counts as
    unsafe for the upper end, and at least one class is unsafe."""
    from solver.exact.anytime import IN_PROCESS_MAX, greedy_guesses

    if len(state) <= IN_PROCESS_MAX:  # small: the exact rule takes milliseconds to a second
        _gives_up(service, before, state, d, guess, move, 0)
        return
    g = service.word_list.guess_index(guess)
    codes = service.parts.codes(g, state)
    classes = [(len(state[codes == code]), int(code), state[codes == code])
               for code in np.unique(codes) if code != service.game.all_green]
    unsafe, unknown, bounds, uppers = 0, [], [], []
    for _, code, members in sorted(classes, key=lambda c: c[:2]):
        steps = [*before, (guess, code)]
        bounds.append(service.class_bound(members) if len(members) > 1 else service.per_game(members))
        small = service.small_value(members, d)
        if small is not None:
            uppers.append(small)
        elif uppers is not None:
            greedy = greedy_guesses(service.game, members, d, table=service.parts, history=steps,
                                    deadline=deadline)
            uppers = None if greedy is None else uppers + [service.value_from_used(greedy[1], members)]
        if len(members) <= IN_PROCESS_MAX and time.monotonic() < deadline:
            _, value, _ = service.optimal_subtree(members, d - 1, steps, lift=False)
            unsafe += service.per_game(members) if value >= INF else 0
        else:
            unknown.append(service.per_game(members))
    unsafe_low = unsafe if unsafe else min(unknown, default=0)
    unsafe_high = unsafe + sum(unknown)
    q_low = service.q_from_classes(state, bounds)
    q_high = None if uppers is None else service.q_from_classes(state, uppers)
    move.q_loses = True
    move.q_value = move.q_lower_bound = move.q_upper_bound = None
    # V* itself may be known only within bounds (the best value found is an upper bound)
    low = max(q_low, move.value_lower_bound if move.value_lower_bound is not None else 0) + unsafe_low
    high = None if q_high is None or move.value is None else max(q_high, move.value) + unsafe_high
    move.cost_bounds = (low, high)
    move.relaxed_q_bounds = (q_low, q_high)


def _value_later(service, steps, t: int, state, after, move: MoveAnalysis, deadline, afters) -> None:
    """Move ``t`` ≥ 2: V* of its state and Q* of the move, exactly (no deadline, or a state of
    at most :data:`FAST_ANYWAY` answers: milliseconds) or within the deadline (a proven
    interval for what is not finished)."""
    guess, code = steps[t - 1]
    green = service.game.all_green
    before = steps[:t - 1]
    d = move.guesses_left
    if len(state) <= FAST_ANYWAY:
        deadline = None
    # move 2 after an opener the table holds: V* and the optimal guess from its second guesses
    # (docs/algorithms.md §9.7), with no search
    known = service.table_class(*before[0], state) if t == 2 else None
    where = None
    if known is None:
        where = service.position(before, solve=deadline is None)
        if where.tree is None:
            if _value_within(service, before, state, d, guess, move, deadline):
                if move.q_loses:  # gives up the sure finish: its finite value within the deadline
                    _gives_up_within(service, before, state, d, guess, move, deadline)
                return
            where = service.position(before)  # a lost game: solved with extra guesses (§15.2)
        extra = where.extra  # the state's own extra guesses (§15.2), as the advice says
        optimal = service.word_list.guesses[int(where.tree.node_guess[where.node])]
        value = where.tree_value
    else:
        value, extra = known[0], 0
        optimal = service.word_list.guesses[known[1]]
    move.value, move.value_exact, move.value_lower_bound = value, True, value
    move.optimal_guess = optimal
    move.extra_guesses = move.q_extra_guesses = extra
    if guess == optimal:
        q = value
        child = where.tree.child(where.node, code) if code != green and where is not None else -1
        if child >= 0 and extra == 0:  # the child's value within the limit is its own V*
            afters[t] = Bounds.exactly(service.tree_value(where.tree, child, after))
    elif deadline is not None and extra == 0:  # Q* of the move within the deadline
        _q_within(service, before, state, d, guess, move, deadline,
                  {service.word_list.guess_index(optimal): value, "optimum": value})
        if move.q_loses:  # gives up the sure finish: its finite value within the deadline
            _gives_up_within(service, before, state, d, guess, move, deadline)
        return
    else:
        q = service.q_value(state, d, before, guess, extra)
    if q >= INF:  # the move gives up the state's sure finish (§15.4)
        _gives_up(service, before, state, d, guess, move, extra)
        return
    move.q_value = move.q_lower_bound = move.q_upper_bound = q
    move.q_loses = False


def _gives_up(service, before, state, d: int, guess: str, move: MoveAnalysis, extra: int) -> None:
    """A move after which some answer can no longer be won within the state's ``d + extra``
    guesses: strict regret ∞ (``q_loses``), and its finite value by the rule of §15.4."""
    relaxed = service.relaxed_q(state, d, before, guess, extra)
    move.q_loses = True
    move.q_value = move.q_lower_bound = move.q_upper_bound = None
    move.q_extra_guesses = relaxed.extra
    move.relaxed_q = relaxed.q
    move.relaxed_q_bounds = (relaxed.q, relaxed.q)
    move.unsafe = relaxed.unsafe
    if move.value is not None and move.value_exact:
        move.cost = relaxed.cost(move.value)
        move.cost_bounds = (move.cost, move.cost)
    elif move.value_lower_bound is not None:  # V* within bounds (no proven opener)
        move.cost_bounds = (relaxed.cost(move.value_lower_bound),
                            None if move.value is None else relaxed.cost(move.value))


def _value_within(service, before, state, d: int, guess: str, move: MoveAnalysis, deadline) -> bool:
    """V* and the move's Q* by the anytime search (:func:`solver.exact.anytime.rank_guesses`)
    until ``deadline``; False (nothing set) when no guess wins every answer within ``d``."""
    ranking = _q_within(service, before, state, d, guess, move, deadline, None)
    if ranking.proven and ranking.value is None:
        return False
    word = service.word_list.guesses
    upper = ranking.value
    if not ranking.proven:
        greedy = _fast(service, state, d, before, deadline)
        if greedy is not None:
            value = service.value_from_used(greedy[1], state)
            if upper is None or value < upper:
                upper = value
                move.optimal_guess = word[greedy[0]]
    if ranking.top and (upper is None or ranking.value == upper):
        move.optimal_guess = word[ranking.top[0][0]]
    move.value, move.value_lower_bound = upper, min(ranking.lower_bound, upper if upper is not None else INF)
    move.value_exact = upper is not None and move.value_lower_bound == upper
    return True


def _q_within(service, before, state, d: int, guess: str, move: MoveAnalysis, deadline, known):
    """The move's Q* (exact, or a proven interval) from the anytime search until ``deadline``,
    with ``known`` exact values; returns the :class:`~solver.exact.anytime.Ranking`."""
    from solver.exact.anytime import _positions, rank_guesses

    g = service.word_list.guess_index(guess)
    ranking = rank_guesses(service.game, state, d, top=1, forced=[g], known=known,
                           budget=_search_seconds(state, deadline), table=service.parts,
                           history=before, jobs=service.jobs)
    exact = ranking.exact_q(g)
    if exact is not None:
        move.q_value = move.q_lower_bound = move.q_upper_bound = exact if exact < INF else None
        move.q_loses = exact >= INF
        return ranking
    position = _positions(ranking.order).get(g)
    lower = ranking.q_values.get(g, (None, False))[0]
    if position is not None:
        lower = max(int(ranking.bounds[position]), lower or 0)
    move.q_lower_bound = lower
    move.q_upper_bound = _greedy_q(service, before, state, d, guess, deadline)
    return ranking


#: States of at most this many answers get the fast policy's upper bound whatever the deadline
#: (milliseconds), so that a tight budget still leaves intervals bounded on both sides.
FAST_ANYWAY = 64


def _fast(service, state, d: int, history, deadline):
    """:func:`solver.exact.anytime.greedy_guesses` of a state within ``deadline`` (none for a
    state of at most :data:`FAST_ANYWAY` answers)."""
    from solver.exact.anytime import greedy_guesses

    return greedy_guesses(service.game, state, d, table=service.parts, history=history,
                          deadline=None if len(state) <= FAST_ANYWAY else deadline)


def _greedy_q(service, before, state, d: int, guess: str, deadline) -> int | None:
    """An upper bound on Q*: the guess, then the fast policy in every class (None if it loses,
    or when ``deadline`` comes first)."""
    codes = service.parts.codes(service.word_list.guess_index(guess), state)
    values = []
    for code in np.unique(codes):
        if code == service.game.all_green:
            continue
        members = state[codes == code]
        small = service.small_value(members, d - 1)
        if small is not None:
            values.append(small)
            continue
        greedy = _fast(service, members, d - 1, [*before, (guess, int(code))], deadline)
        if greedy is None:
            return None
        values.append(service.value_from_used(greedy[1], members))
    total = service.q_from_classes(state, values)
    return None if total >= INF else total


def _regret_and_luck(service, steps, t: int, after, move: MoveAnalysis, moves, afters, deadline) -> None:
    """Regret and luck of move ``t`` from its values, exact or as proven intervals.

    Every state is valued by the one rule (its ``V*`` with its own extra guesses, §15.2, as
    the advice says); the move by its ``Q*``, or by the finite rule of §15.4 when it gives up
    the state's sure finish. The luck is the move's value less the guess itself less the
    value of the state the feedback left, so that the identity of the module docstring holds
    for every game."""
    per_game = move.per_game
    if move.q_loses:
        if move.cost_bounds is None:
            return
        q_low, q_high = move.cost_bounds
    elif move.q_lower_bound is None:
        return
    else:
        q_low, q_high = move.q_lower_bound, move.q_upper_bound
    if move.value_lower_bound is not None:
        low = max(Fraction(q_low - (move.value if move.value is not None else q_low), per_game), Fraction(0))
        high = None if q_high is None else Fraction(q_high - move.value_lower_bound, per_game)
        move.regret_finite_bounds = (low, high)
        if move.value is not None and q_high == q_low:
            # against the best value found when V* is not proven (a list with no proven opener)
            move.regret_finite = Fraction(q_low - move.value, per_game)
            move.regret_finite_bounds = (move.regret_finite, move.regret_finite)
        if not move.q_loses:
            move.regret_bounds, move.regret = move.regret_finite_bounds, move.regret_finite
    code = steps[t - 1][1]
    value_after = afters.get(t)
    if value_after is None and code == service.game.all_green:
        value_after = Bounds.exactly(0)
    if value_after is None and t < len(moves):  # the next move's state, valued by the one rule
        following = moves[t]
        if following.value_lower_bound is not None:
            value_after = Bounds(following.value_lower_bound, following.value)
    if value_after is None:
        left = move.guesses_left - 1
        if deadline is None or left < 1 or len(after) <= FAST_ANYWAY:
            _, value, _ = service.optimal_subtree(after, left, steps[:t])  # with its extra guesses
            value_after = Bounds.exactly(value)
        else:
            from solver.exact.anytime import rank_guesses

            ranking = rank_guesses(service.game, after, left, top=1,
                                   budget=_search_seconds(after, deadline), table=service.parts,
                                   history=steps[:t], jobs=service.jobs)
            if ranking.proven and ranking.value is None:  # past the limit: exactly (§15.2)
                _, value, _ = service.optimal_subtree(after, left, steps[:t])
                value_after = Bounds.exactly(value)
            else:
                upper = ranking.value
                if not ranking.proven:
                    greedy = _fast(service, after, left, steps[:t], deadline)
                    if greedy is not None:
                        greedy_value = service.value_from_used(greedy[1], after)
                        upper = greedy_value if upper is None else min(upper, greedy_value)
                value_after = Bounds(min(ranking.lower_bound, upper if upper is not None else INF), upper)
    if value_after.upper is None and len(after) and move.guesses_left > 1:
        greedy = _fast(service, after, move.guesses_left - 1, steps[:t], deadline)
        if greedy is not None:  # the fast policy's bound, where it is cheap
            value_after = Bounds(value_after.lower, service.value_from_used(greedy[1], after))
    per_game_after = service.per_game(after) if len(after) else 1
    move.after_per_game = per_game_after
    if value_after.exact:
        move.after_value = value_after.lower
    spent = Fraction(q_low - per_game, per_game)
    low = None if value_after.upper is None else spent - Fraction(value_after.upper, per_game_after)
    high = None if q_high is None else (Fraction(q_high - per_game, per_game)
                                        - Fraction(value_after.lower, per_game_after))
    move.luck_bounds = None if low is None and high is None else (low, high)
    if q_high == q_low and value_after.exact:
        move.luck = Fraction(q_low - per_game, per_game) - Fraction(value_after.lower, per_game_after)
        move.luck_bounds = (move.luck, move.luck)


def _analyse_outside_list(service, steps, budget, progress, started, splits=False) -> GameAnalysis:
    """A game whose answer is in no answer list: analysed over the allowed guesses that fit."""
    from solver.exact.service import SearchService
    from solver.game.wordlists import from_words

    fitting = service.fitting_guesses(steps)
    if not fitting:
        raise FeedbackError("no answer and no allowed guess fits the game's feedback")
    # the game's answer is one of the guesses that fit it: the answer list with those added
    answers = sorted(set(service.word_list.answers) | set(fitting))
    derived = from_words(answers, service.word_list.guesses, name=f"{service.word_list.name}+guesses")
    other = SearchService(service.game.replace(word_list=derived, priors=None), book=False,
                          cache=False)
    analysis = analyse_game(other.game, steps, budget=budget, service=other, progress=progress, splits=splits)
    analysis.word_list = service.word_list.name
    return analysis
