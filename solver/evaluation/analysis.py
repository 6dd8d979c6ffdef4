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

Values come from an optimal decision tree where the game follows it (past the opener a tree
node is an exactly solved state) and otherwise from :func:`solver.evaluation.assist.rank_guesses`
within a time budget per move; a value the budget did not prove is marked not exact, and
regret is then measured against the best value found. ``V*`` at the start is exact when the
tree records the opener proof (docs/algorithms.md §9; the shipped SALET tree does), else the
tree's total is the best found.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from solver.evaluation.assist import (DEFAULT_BUDGET, INF, check_options, format_steps, opener_proven,
                                      normalise_history, rank_guesses, tree_for, tree_value)
from solver.game.errors import FeedbackError, InputError
from solver.game.feedback import code_to_text, feedback_code, parse_feedback
from solver.game.spec import GUESS_LIMIT, all_green
from solver.game.wordlists import WordList

_SQUARES = {"\u2b1b", "\u2b1c", "\U0001f7e8", "\U0001f7e9"}


def grid_rows(text: str, word_length: int = 5) -> list[int]:
    """The feedback codes of a shared emoji grid, first row first. Lines that are not a row of
    squares (the ``Wordle 1,234 4/6`` header, blank lines) are skipped. Raises FeedbackError
    when no row is found or a row has the wrong number of squares."""
    rows = []
    for number, line in enumerate(str(text).splitlines(), start=1):
        symbols = [ch for ch in line if ch not in " \t\ufe0f\r"]
        if not symbols or not any(ch in _SQUARES for ch in symbols):
            continue
        if len(symbols) != word_length or not all(ch in _SQUARES for ch in symbols):
            raise FeedbackError(f"grid line {number} ({line.strip()!r}) is not a row of "
                                f"{word_length} squares (⬛ or ⬜, 🟨, 🟩)")
        rows.append(parse_feedback("".join(symbols), word_length))
    if not rows:
        raise FeedbackError("the grid has no row of squares (⬛ or ⬜, 🟨, 🟩)")
    return rows


def parse_game(word_list: WordList, tokens, *, answer: str | None = None, grid: str | None = None,
               guess_limit: int = GUESS_LIMIT) -> list[tuple[str, int]]:
    """A finished game as ``(guess, feedback code)`` pairs, from what a player has at hand.

    Args:
        word_list: the lists.
        tokens: the guesses in order, each ``"word"`` or ``"word:feedback"``.
        answer: the answer, when known: the feedback of every plain word is computed from it,
            and any given feedback must agree with it.
        grid: the emoji grid Wordle shares: its rows are the feedback of the guesses in order.

    Every guess needs its feedback from one of the three. Raises InputError subclasses naming
    the guess at fault (an unknown word, feedback that disagrees with the answer or the grid,
    a row count that differs from the guesses, a guess with no feedback, no guess at all).
    """
    tokens = [str(t).strip() for t in tokens if str(t).strip()]
    if not tokens:
        raise InputError("the game has no guesses: give them in order, e.g. salet crane bitty")
    length = word_list.word_length
    if answer is not None:
        answer = str(answer).strip().lower()
        word_list.answer_index(answer)
    rows = grid_rows(grid, length) if grid is not None else None
    if rows is not None and len(rows) != len(tokens):
        raise InputError(f"the grid has {len(rows)} rows but {len(tokens)} guesses were given")
    steps = []
    for turn, token in enumerate(tokens, start=1):
        word, sep, text = token.partition(":")
        word = word.strip().lower()
        try:
            word_list.guess_index(word)
            given = parse_feedback(text, length) if sep else None
        except InputError as exc:
            raise type(exc)(f"guess {turn}: {exc}") from None
        for source, code in (("the grid", rows[turn - 1] if rows else None),
                             (f"the answer {answer!r}", feedback_code(word, answer) if answer else None)):
            if code is None:
                continue
            if given is not None and code != given:
                raise FeedbackError(f"guess {turn} ({word}): the feedback {code_to_text(given, length)} "
                                    f"disagrees with {source}, which gives {code_to_text(code, length)}")
            given = code
        if given is None:
            raise InputError(f"guess {turn} ({word}) has no feedback: write it as {word}:bbygb, or give "
                             "the answer (--answer) or the grid (--grid)")
        steps.append((word, given))
    return normalise_history(word_list, steps, guess_limit)


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

    @property
    def expected(self) -> float | None:
        """``value / n``: expected guesses from this state with optimal play (V*)."""
        return None if self.value is None else self.value / self.answers_before

    @property
    def q_expected(self) -> float | None:
        """``q_value / n``: expected guesses after the player's move (Q*)."""
        return None if self.q_value is None else self.q_value / self.answers_before

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
            "word_list": self.word_list, "history": format_steps(self.history), "won": self.won,
            "guesses": len(self.history), "moves": [m.to_json() for m in self.moves],
            "start_expected": None if first is None else first.expected,
            "total_regret": _float(self.total_regret), "total_regret_fraction": _text(self.total_regret),
            "total_luck": _float(self.total_luck), "total_luck_fraction": _text(self.total_luck),
            "all_values_exact": self.all_exact, "seconds": round(self.seconds, 4),
        }


def _state_after(word_list: WordList, table: np.ndarray, state: np.ndarray, guess: str, code: int):
    return state[table[word_list.guess_index(guess), state] == code]


def analyse_game(word_list: WordList, history, *, budget: float = DEFAULT_BUDGET, tree=None,
                 table: np.ndarray | None = None, mode: str = "normal",
                 guess_limit: int = GUESS_LIMIT) -> GameAnalysis:
    """Regret and luck of every move of a game (module docstring).

    Args:
        word_list: the lists.
        history: the game, as for :func:`solver.evaluation.assist.normalise_history` (see
            :func:`parse_game` for the other ways a player gives it); usually won, but any
            game of at least one guess is analysed.
        budget: seconds the exact search may take per move (> 0).
        tree: an optimal :class:`policy_tree.PolicyTree` of these lists (or None): the moves
            on it are valued from it without search.
        table: the feedback table (loaded from the cache if omitted).
        mode: ``"normal"`` or ``"hard"`` (every move must use the hints before it; V* and Q*
            are then over the guesses hard mode allows, docs/algorithms.md §10).

    Returns:
        :class:`GameAnalysis`. Raises InputError subclasses as
        :func:`~solver.evaluation.assist.normalise_history` (naming the guess at fault), for a
        history no answer fits, no guess, a bad mode or budget.
    """
    from solver.exact.bellman import remaining_answers
    from solver.game.feedback import feedback_table

    started = time.perf_counter()
    check_options(mode, budget)
    steps = normalise_history(word_list, history, guess_limit)
    if not steps:
        raise InputError("the game has no guesses to analyse")
    if mode == "hard":
        from solver.game.hard_mode import check_hard_mode_history

        check_hard_mode_history(steps)
    table = feedback_table(word_list) if table is None else table
    remaining_answers(word_list, steps, table)  # a history no answer fits: FeedbackError naming it
    tree = tree_for(word_list, tree, mode)
    green = all_green(word_list.word_length)
    state = np.arange(word_list.n_answers, dtype=np.int32)
    node = 0 if tree is not None else None
    moves: list[MoveAnalysis] = []
    for t, (guess, code) in enumerate(steps, start=1):
        d = guess_limit - t + 1
        after = _state_after(word_list, table, state, guess, code)
        answers = [word_list.answers[int(a)] for a in state]
        known: dict[str, int] = {}
        tree_guess = tree.guess_at(node) if node is not None else None
        # the opener is exact too when the tree records the opener proof (§9)
        proven_opener = node is not None and t == 1 and opener_proven(tree, word_list)
        tree_exact = node is not None and (t > 1 or proven_opener)
        if node is not None:
            known[tree_guess] = tree.total if t == 1 else tree_value(tree, node, answers)
        value, exact, lower, optimal = None, False, None, tree_guess
        if tree_exact:
            value, exact, lower = known[tree_guess], True, known[tree_guess]
        if node is not None and t == 1 and guess == tree_guess and not proven_opener:
            # the tree's opener: its total is its exact Q*; V* at the start is the opener
            # proof's question (§9), out of reach of a per-move budget: best found + cheap bound
            from solver.evaluation.assist import cheap_lower_bound

            value, optimal = known[guess], guess
            lower = min(value, cheap_lower_bound(word_list, state, table))
        elif not (tree_exact and guess == tree_guess):
            ranking = rank_guesses(word_list, state, d, top=1, budget=budget, table=table,
                                   forced=[] if guess in known else [word_list.guess_index(guess)],
                                   mode=mode, history=steps[:t - 1])
            q_guess, q_exact = ranking.q_values.get(word_list.guess_index(guess), (None, False))
            if q_exact:
                known[guess] = q_guess  # INF: some answer lost
            for g, q in ranking.top:
                known.setdefault(word_list.guesses[g], q)
            if not tree_exact:
                if ranking.proven:
                    exact = True
                    lower = ranking.lower_bound
                    value = ranking.value
                    optimal = word_list.guesses[ranking.top[0][0]] if ranking.top else None
                else:
                    finite = [(q, w) for w, q in known.items() if q < INF]
                    if finite:
                        value, optimal = min(finite)
                    lower = min(ranking.lower_bound, value) if value is not None else ranking.lower_bound
        q = known.get(guess)
        moves.append(MoveAnalysis(
            t, guess, code, len(state), len(after), d, value, exact, lower,
            q if q is not None and q < INF else None, q is not None and q >= INF, optimal))
        if node is not None:
            node = tree.tree.child(node, code) if guess == tree_guess and code != green else None
        state = after
    won = steps[-1][1] == green
    # The value after the last move: 0 once won; else V* of the state left, when guesses remain.
    final = None
    if won:
        final = (0, True)
    elif guess_limit - len(steps) >= 1:
        ranking = rank_guesses(word_list, state, guess_limit - len(steps), top=1, budget=budget,
                               table=table, mode=mode, history=steps)
        if ranking.proven and ranking.value is not None:
            final = (ranking.value, True)
    for i, move in enumerate(moves):
        if move.q_value is not None and move.value is not None:
            move.regret = Fraction(move.q_value - move.value, move.answers_before)
        if i + 1 < len(moves):
            following = moves[i + 1]
            after = (following.value, following.value_exact) if following.value is not None else None
        else:
            after = final
        if move.q_value is not None and after is not None and after[1]:
            n_after = max(move.answers_after, 1)
            move.luck = (Fraction(move.q_value - move.answers_before, move.answers_before)
                         - Fraction(after[0], n_after))
    return GameAnalysis(word_list.name, steps, moves, won, time.perf_counter() - started)
