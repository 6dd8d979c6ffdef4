"""Terminal rendering of :mod:`solver.evaluation.assist` advice and
:mod:`solver.evaluation.analysis` game analyses (rich), for ``tools.assist``, ``tools.analyse``
and ``tools.tree next``."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from solver.evaluation.assist import EXACT, SOLVED, Advice
from solver.evaluation.analysis import GameAnalysis
from solver.exact.advice import ValueKind
from solver.game.wording import counted

LIST_AT_MOST = 10


def remaining_line(answers) -> str:
    """``"28 answers remain"``, listing them when there are at most ten."""
    n = len(answers)
    head = f"{n} answer{'s remain' if n != 1 else ' remains'}"
    return f"{head}: {', '.join(answers)}" if n <= LIST_AT_MOST else head


def _worth(advice: Advice, value: int) -> str:
    """``value`` of a state in words: expected guesses (total), the worst case, or expected
    guesses under the priors."""
    n = advice.n_answers
    if advice.objective == ValueKind.WORST:
        return f"at most {value} more guesses (worst case)"
    if advice.objective == ValueKind.WEIGHTED:
        return f"{value / advice.per_game:.5f} expected guesses under the priors"
    return f"{value / n:.5f} expected guesses ({value} over {n} answers)"


def advice_text(advice: Advice) -> str:
    """The next-guess line(s) of an advice, plain text."""
    if advice.status == SOLVED:
        return f"solved: {advice.history[-1][0]} in {counted(len(advice.history), 'guess')}"
    lines = []
    if advice.outside_list:
        lines.append("no answer of the list fits this feedback: the allowed guesses that fit are "
                     "taken as the possible answers")
    if advice.left_tree:
        lines.append(f"{advice.left_tree}; the exact solver answers from this state")
    if advice.game_over:
        lines.append(f"the game is over: not won within {len(advice.history)} guesses; "
                     f"{remaining_line(advice.answers)}")
        lines.append(f"had it gone on, the best next guess: {advice.next_guess} "
                     f"({_worth(advice, advice.value)}, counting {advice.extra_guesses} guess"
                     f"{'es' if advice.extra_guesses != 1 else ''} past the limit)")
        return "\n".join(lines)
    if advice.extra_guesses:
        lines.append(f"not every answer left can be won within the {counted(advice.guesses_left, 'guess')} "
                     f"left: the values count {counted(advice.extra_guesses, 'guess')}"
                     " past the limit, as if the game "
                     "went on")
    if advice.status == EXACT:
        where = {"table": "opener table"}.get(advice.source, advice.source)
        lines.append(f"next guess: {advice.next_guess} (exact, from the {where}): "
                     f"{_worth(advice, advice.value)}")
    else:
        worth = (_worth(advice, advice.value) if advice.value is not None else
                 "no exact value found in time (the first guess in the solver's order)")
        bound = "" if advice.lower_bound is None else (
            f"; the optimum is at least {_worth(advice, advice.lower_bound)}, a proven lower bound")
        if advice.gap is not None:
            bound += (f" (gap {advice.gap}: at most {advice.gap / (advice.per_game or advice.n_answers):.5f} "
                      "guesses per game from optimal)")
        lines.append(f"next guess: {advice.next_guess} (best found, not proven): {worth}{bound}")
    lines.append(f"{remaining_line(advice.answers)}; {counted(advice.guesses_left, 'guess')} left")
    return "\n".join(lines)


def alternatives_table(advice: Advice) -> Table | None:
    """The alternatives with their Q-values, or None when there are none."""
    if not advice.alternatives:
        return None
    title = (f"best {len(advice.alternatives)} guesses, exact Q-values"
             if advice.alternatives_complete else
             "guesses valued exactly within the time given (not proven to be the best)")
    table = Table(title=title)
    table.add_column("rank", justify="right")
    table.add_column("guess")
    table.add_column("expected guesses (Q*)", justify="right")
    table.add_column("total", justify="right")
    table.add_column("could be the answer")
    for rank, alt in enumerate(advice.alternatives, start=1):
        table.add_row(str(rank), alt.guess, f"{alt.expected:.5f}", str(alt.q_value),
                      "yes" if alt.could_be_answer else "no")
    return table


def render_advice(advice: Advice):
    """Everything ``tools.assist`` prints: the next guess, the remaining answers, the table."""
    parts = [Text(advice_text(advice))]
    table = alternatives_table(advice)
    if table is not None:
        parts.append(table)
    return Group(*parts)


def _signed(x: Fraction | None) -> str:
    return "?" if x is None else f"{float(x):+.3f}"


def _bounded(exact: Fraction | None, bounds, between: str = "") -> str:
    """An exact figure, or its proven interval ``low…high`` (``≥low`` when unbounded);
    ``between`` goes after the ``…`` (a newline: each end on its own line)."""
    if exact is not None or bounds is None:
        return _signed(exact)
    low, high = bounds
    if low is None:
        return f"≤{_signed(high)}"
    return f"≥{_signed(low)}" if high is None else f"{_signed(low)}…{between}{_signed(high)}"


def _range(low: int | None, high: int | None, per_game: int, between: str = "") -> str:
    """An interval of totals as expected guesses: ``a…b``, ``≥a``, or ?."""
    if low is None:
        return "?"
    if high is None:
        return f"≥{low / per_game:.3f}"
    return f"{low / per_game:.3f}…{between}{high / per_game:.3f}"


#: The columns of :func:`analysis_table`: (header, compact header, justify). Compact headers
#: are on two lines where a word fits the numbers' width better that way.
_COLUMNS = (("move", None, "right"), ("guess", "guess", "left"), ("feedback", "feedback", "left"),
            ("answers", "answers", "right"), ("V*", "V*", "right"), ("Q*", "Q*", "right"),
            ("regret", "regret", "right"), ("skill", "skill", "right"), ("luck", "luck", "right"),
            ("luck score", "luck\nscore", "right"), ("optimal", "best\nguess", "left"))


def analysis_table(analysis: GameAnalysis, compact: bool = False) -> Table:
    """One row per move: answers before, V*, Q*, regret, skill, luck, luck score, the optimal move.

    ``compact``: for a narrow terminal (it fits 80 columns): no move number (the plain lines
    below number the moves), a light frame, headers on two lines, and a value's two parts (an
    interval's ends, a value's ``+N`` past the limit) on two lines, so that every number is
    printed whole. Every column is ``no_wrap``: rich never cuts a number to fit."""
    from rich import box

    title = escape(f"game analysis: {' '.join(f'{g}' for g, _ in analysis.history)} "
                   f"({analysis.word_list})")
    table = (Table(title=title, box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False,
                   show_edge=False) if compact else Table(title=title))
    for name, short, justify in _COLUMNS:
        if compact and short is None:
            continue
        table.add_column(short if compact else name, justify=justify, no_wrap=True)
    between, plus = ("\n", "\n") if compact else ("", " ")
    from solver.game.feedback import code_to_text

    for m in analysis.moves:
        per_game = m.per_game or m.answers_before
        v = (f"{m.expected:.3f}" if m.value_exact else
             _range(m.value_lower_bound, m.value, per_game, between))
        if m.q_loses:  # gives up the sure finish: Q* with the limit relaxed (§15.4)
            q = (f"{m.relaxed_q / per_game:.3f}{plus}+{m.q_extra_guesses}" if m.relaxed_q is not None else
                 _range(*(m.relaxed_q_bounds or (None, None)), per_game, between) + f"{plus}+?")
        else:
            q = _range(m.q_lower_bound, m.q_upper_bound, per_game, between) if m.q_expected is None \
                else f"{m.q_expected:.3f}"
        regret = _bounded(m.regret_finite, m.regret_finite_bounds, between)
        if m.q_loses:
            regret += "!"
        elif m.regret is not None and not m.value_exact:
            regret += "*"
        luck = _bounded(m.luck, m.luck_bounds, between)
        if m.extra_guesses:  # the state valued as if the game went on past the limit (§15.2)
            v = f"{v}{plus}+{m.extra_guesses}"
            if not m.q_loses:
                q = f"{q}{plus}+{m.extra_guesses}"
        cells = [code_to_text(m.feedback, len(m.guess)), str(m.answers_before), v, q, regret,
                 _score(m.skill_score), luck, _score(m.luck_score), m.optimal_guess or "?"]
        table.add_row(*([] if compact else [str(m.number)]), m.guess, *cells)
    return table


def fitting_analysis_table(analysis: GameAnalysis, console) -> Table:
    """:func:`analysis_table` as it fits ``console`` (a rich Console): the full table when it
    is as wide as the terminal or narrower, else the compact one."""
    table = analysis_table(analysis)
    # measured as if the terminal were unbounded: rich caps a measure at the width it is given
    natural = console.measure(table, options=console.options.update_width(1_000_000)).maximum
    if natural <= console.width:
        return table
    return analysis_table(analysis, compact=True)


def _score(score: int | None) -> str:
    return "?" if score is None else str(score)


def moves_in_words(analysis: GameAnalysis) -> str:
    """One plain line per move: what the guess did to the answers left."""
    return "\n".join(f"{m.number} {m.guess}: {m.in_words}" for m in analysis.moves)


#: How a game's two scores come from its moves, in the summary's words.
GAME_SCORES = ("game skill is scored from the total regret of the game, not averaged over "
               "moves; game luck likewise from the total luck")


def analysis_summary(analysis: GameAnalysis) -> str:
    """The summary line, and a note when some value is not proven."""
    count = counted(len(analysis.history), "guess")
    outcome = (f"won in {count}" if analysis.won else
               f"the game is over: not won in {count}" if analysis.game_over else
               f"not finished after {count}")
    regret, luck = analysis.total_regret_finite, analysis.total_luck
    # the game's skill is not the mean of its moves' (regrets add up; scores do not): said,
    # since three moves of 98, 50 and 66 make a game of 40
    line = (f"{outcome}; skill {_score(analysis.skill_score)}, luck {_score(analysis.luck_score)} "
            f"(0-99; 99: perfect play, 50: average luck; {GAME_SCORES}); total regret "
            f"{_bounded(regret, analysis.total_regret_finite_bounds).lstrip('+')} guesses "
            f"(0 is perfect play), luck {_bounded(luck, analysis.total_luck_bounds)} guesses "
            "(positive: luckier than expected)")
    first = analysis.moves[0]
    if first.expected is not None:
        line += f"; optimal play expects {first.expected:.3f} from the start"
    final = analysis.final_value
    if not analysis.won and final is not None:
        line += (f"; the answers left would take {float(final):.3f} more guesses on average "
                 "had the game gone on")
    if any(m.extra_guesses for m in analysis.moves):
        line += ("\n+N: not every answer could be won within the guesses left there; valued as "
                 "if the game went on, N guesses past the limit")
    if any(m.q_loses for m in analysis.moves):
        line += ("\n!: the move gave up winning every answer within the limit (strict regret "
                 "∞); its regret is finite by the rule of docs/algorithms.md §15.4 (Q* with the "
                 "limit relaxed, +N, plus the chance of a state with no sure finish)")
    if not analysis.all_exact:
        line += ("\na…b: not proven within the time given; the exact value lies in this "
                 "proven interval (≥a: no upper bound found), and the score is its least "
                 "favourable end; * measured against the best value found, not proven optimal")
    return line
