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
the opener's whole optimal tree (shipped, cached or solved once), exactly solved subtrees off
it, and at the start the tree whose opener is proven best over every allowed guess
(docs/algorithms.md §9; without one, the best known opener's value, marked not exact). With a
time budget for the whole analysis, the moves not valued in time are left unknown.

A lost game (docs/algorithms.md §15.2): a move from a state whose answers cannot all be won
within the guesses left, or after which they cannot, is valued with the least number of extra
guesses ``e`` past the limit that makes the move's Q* finite (``extra_guesses``); its V*, Q*
and the following state's value are all taken with those ``e`` extra guesses, so its regret
and luck keep their meaning (as if the game went on until the answer is found). The identity
above holds when no move needed extra guesses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from solver.evaluation.assist import check_budget, format_steps, service_for
from solver.exact.anytime import INF
from solver.game.errors import FeedbackError, InputError
from solver.game.feedback import code_to_text
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
            bound on ``V*``); None when the state cannot be won for sure in time.
        value_exact: whether ``value`` is proven optimal.
        value_lower_bound: a proven lower bound on ``V*`` total.
        q_value: ``Q*`` total of the player's move (exact), or None when not found in time or
            when some answer can then no longer be won in time (``q_loses``).
        q_loses: the move leaves some answer that cannot be won in the guesses left.
        optimal_guess: the optimal move (the solver's tie-break; the best found when not exact).
        regret: ``(q_value − value) / n`` as a Fraction, or None when unknown.
        luck: ``(q_value − n)/n − V*(after)/answers_after`` as a Fraction, or None.
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

    @property
    def expected(self) -> float | None:
        """``value / n``: expected guesses from this state with optimal play (V*)."""
        return None if self.value is None else self.value / (self.per_game or self.answers_before)

    @property
    def q_expected(self) -> float | None:
        """``q_value / n``: expected guesses after the player's move (Q*)."""
        return None if self.q_value is None else self.q_value / (self.per_game or self.answers_before)

    def to_json(self) -> dict:
        return {
            "number": self.number, "guess": self.guess,
            "feedback": code_to_text(self.feedback, len(self.guess)),
            "answers_before": self.answers_before, "answers_after": self.answers_after,
            "guesses_left": self.guesses_left, "value_total": self.value,
            "value_exact": self.value_exact, "value_lower_bound_total": self.value_lower_bound,
            "v_star": self.expected, "q_total": self.q_value, "q_star": self.q_expected,
            "q_loses": self.q_loses, "optimal_guess": self.optimal_guess,
            "regret": _float(self.regret), "regret_fraction": _text(self.regret),
            "luck": _float(self.luck), "luck_fraction": _text(self.luck),
            "extra_guesses": self.extra_guesses,
        }


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
    def all_exact(self) -> bool:
        return all(m.value_exact for m in self.moves)

    def to_json(self) -> dict:
        first = self.moves[0] if self.moves else None
        return {
            "word_list": self.word_list, "mode": self.mode, "history": format_steps(self.history),
            "won": self.won,
            "guesses": len(self.history), "moves": [m.to_json() for m in self.moves],
            "start_expected": None if first is None else first.expected,
            "total_regret": _float(self.total_regret), "total_regret_fraction": _text(self.total_regret),
            "total_luck": _float(self.total_luck), "total_luck_fraction": _text(self.total_luck),
            "all_values_exact": self.all_exact, "seconds": round(self.seconds, 4),
        }


def analyse_game(game: Game, history, *, budget: float | None = None, tree=None,
                 table: np.ndarray | None = None, service=None, progress=None) -> GameAnalysis:
    """Regret and luck of every move of a game (module docstring).

    Args:
        game: the :class:`~solver.game.spec.Game` (in hard mode every move must use the hints
            before it; V* and Q* are then over the guesses hard mode allows, docs/algorithms.md
            §10).
        history: the game, as for :meth:`solver.game.history.History.parse` (see
            :meth:`~solver.game.history.History.from_record` for the other ways a player gives
            it); won, lost or unfinished.
        budget: seconds the whole analysis may take (> 0), or None (default): every value
            exact, however long (a new opener's tree is solved once and kept).
        tree: a decision tree of these lists (its game is the one analysed), or None.
        table: the feedback table (loaded from the cache if omitted).
        service: a :class:`solver.exact.service.SearchService` to ask (``game`` is then
            ignored).
        progress: ``progress(done_answers, total_answers)`` while an opener's tree is solved.

    Returns:
        :class:`GameAnalysis`. Raises InputError subclasses as
        :meth:`~solver.game.history.History.parse` (naming the guess at fault), for a
        history nothing fits, no guess, a bad budget.
    """
    from solver.exact.bellman import DeadlineReached

    started = time.perf_counter()
    check_budget(budget)
    deadline = None if budget is None else time.monotonic() + budget
    if service is None:
        service = service_for(game, tree=tree, table=table)
    steps = service.normalise(history)
    if not steps:
        raise InputError("the game has no guesses to analyse")
    if service.state_after(steps).size == 0:
        return _analyse_outside_list(service, steps, budget, progress, started)
    green = service.game.all_green
    limit = service.game.guess_limit
    moves: list[MoveAnalysis] = []
    state = np.arange(service.word_list.n_answers, dtype=np.int32)
    timed_out = False
    for t, (guess, code) in enumerate(steps, start=1):
        d = limit - t + 1
        after = state[service.table[service.word_list.guess_index(guess), state] == code]
        move = MoveAnalysis(t, guess, code, len(state), len(after), d, None, False, None, None,
                            False, None, per_game=service.per_game(state))
        moves.append(move)
        if not timed_out:
            try:
                _value_move(service, steps, t, state, after, move, progress, deadline)
            except DeadlineReached:
                timed_out = True
            if deadline is not None and time.monotonic() >= deadline:
                timed_out = True
        state = after
    won = steps[-1][1] == green
    return GameAnalysis(service.word_list.name, steps, moves, won, time.perf_counter() - started,
                        service.game.mode.value)


def _value_move(service, steps, t: int, state, after, move: MoveAnalysis, progress, deadline) -> None:
    """Fill in ``move`` (the ``t``-th of ``steps``): V*, the optimal guess, Q* of the move,
    regret and luck, each exact."""
    guess, code = steps[t - 1]
    green = service.game.all_green
    before = steps[:t - 1]
    d = move.guesses_left
    luck_after = None
    if t == 1:
        if service.book.solve or service.book.loaded():  # V* at the start: the proven tree (§9)
            root = service.advise([], top=0)
            move.value, move.value_exact = root.value, root.status == "exact"
            move.optimal_guess, move.value_lower_bound = root.next_guess, root.lower_bound
        from solver.exact.bellman import UnwinnableError

        try:
            opener = service.opener_tree(guess, progress=progress, deadline=deadline)
        except UnwinnableError:  # the opener gives up winning every game within the limit:
            # regret ∞; the luck is that of the game going on past the limit (§15.2)
            move.q_loses = True
            extra, q = 0, INF
            while q >= INF and extra < 12:
                extra += 1
                q = service.q_value(state, d, before, guess, extra)
            move.extra_guesses = extra
            if code == green:
                value_after = 0
            else:
                _, value_after, _ = service.solve_state(after, d + extra - 1, steps[:1], lift=False)
            if q < INF and value_after < INF:
                per_game = move.per_game
                move.luck = (Fraction(q - per_game, per_game)
                             - Fraction(value_after, service.per_game(after) if len(after) else 1))
            return
        if opener is not None:
            q = service.tree_value(opener.tree, 0, state)
            child = opener.tree.child(0, code) if code != green else -1
            if child >= 0:
                luck_after = service.tree_value(opener.tree, child, after)
        else:
            q = service.q_value(state, d, before, guess)
        extra = 0
    else:
        where = service.position(before, progress=progress, deadline=deadline)
        extra = where.extra
        optimal = service.word_list.guesses[int(where.tree.node_guess[where.node])]
        value = where.tree_value
        if guess == optimal:
            q = value
            child = where.tree.child(where.node, code) if code != green else -1
            if child >= 0:
                luck_after = service.tree_value(where.tree, child, after)
        else:
            q = service.q_value(state, d, before, guess, extra)
            while q >= INF and extra < 12:  # the move gives up some answer: more guesses (§15.2)
                extra += 1
                q = service.q_value(state, d, before, guess, extra)
            if extra != where.extra:
                _, value, _ = service.solve_state(state, d + extra, before, lift=False)
        move.value, move.value_exact, move.value_lower_bound = value, True, value
        move.optimal_guess = optimal
    move.extra_guesses = extra
    move.q_value = q if q < INF else None
    move.q_loses = q >= INF
    per_game = move.per_game
    if move.q_value is not None and move.value is not None:
        move.regret = Fraction(move.q_value - move.value, per_game)
    if move.q_value is None:
        return
    if code == green:
        value_after = 0
    elif luck_after is not None:
        value_after = luck_after
    else:
        left = d + extra - 1
        if left < 1:
            return
        _, value_after, _ = service.solve_state(after, left, steps[:t], lift=False)
        if value_after >= INF:
            return
    per_game_after = service.per_game(after) if len(after) else 1
    move.luck = Fraction(move.q_value - per_game, per_game) - Fraction(value_after, per_game_after)


def _analyse_outside_list(service, steps, budget, progress, started) -> GameAnalysis:
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
    analysis = analyse_game(other.game, steps, budget=budget, service=other, progress=progress)
    analysis.word_list = service.word_list.name
    return analysis
