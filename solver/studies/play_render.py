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

LIST_AT_MOST = 10


def remaining_line(answers) -> str:
    """``"28 answers remain"``, listing them when there are at most ten."""
    n = len(answers)
    head = f"{n} answer{'s remain' if n != 1 else ' remains'}"
    return f"{head}: {', '.join(answers)}" if n <= LIST_AT_MOST else head


def advice_text(advice: Advice) -> str:
    """The next-guess line(s) of an advice, plain text."""
    if advice.status == SOLVED:
        return f"solved: {advice.history[-1][0]} in {len(advice.history)} guesses"
    n = advice.n_answers
    lines = []
    if advice.left_tree:
        lines.append(f"{advice.left_tree}; the exact solver answers from this state")
    if advice.status == EXACT:
        lines.append(f"next guess: {advice.next_guess} (exact, from the {advice.source}): "
                     f"{advice.expected:.5f} expected guesses ({advice.value} over {n} answers)")
    else:
        if advice.value is not None:
            worth = f"{advice.expected:.5f} expected guesses ({advice.value} over {n} answers)"
        else:
            worth = "no exact value found in time (the first guess in the solver's order)"
        lines.append(f"next guess: {advice.next_guess} (best found, not proven): {worth}; "
                     f"the optimum is at least {advice.lower_bound / n:.5f} "
                     f"({advice.lower_bound} over {n} answers, a proven lower bound)")
    lines.append(f"{remaining_line(advice.answers)}; {advice.guesses_left} guesses left")
    return "\n".join(lines)


def alternatives_table(advice: Advice) -> Table | None:
    """The alternatives with their Q-values, or None when there are none."""
    if not advice.alternatives:
        return None
    title = (f"best {len(advice.alternatives)} guesses, exact Q-values"
             if advice.alternatives_complete else
             "guesses valued exactly within the budget (not proven to be the best)")
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


def analysis_table(analysis: GameAnalysis) -> Table:
    """One row per move: answers before, V*, Q*, regret, luck, the optimal move."""
    table = Table(title=escape(f"game analysis: {' '.join(f'{g}' for g, _ in analysis.history)} "
                               f"({analysis.word_list})"))
    for name, justify in (("move", "right"), ("guess", "left"), ("feedback", "left"),
                          ("answers", "right"), ("V*", "right"), ("Q*", "right"),
                          ("regret", "right"), ("luck", "right"), ("optimal", "left")):
        table.add_column(name, justify=justify)
    from solver.game.feedback import code_to_text

    for m in analysis.moves:
        v = "?" if m.expected is None else f"{m.expected:.3f}" + ("" if m.value_exact else "*")
        q = ("loses" if m.q_loses else "?") if m.q_expected is None else f"{m.q_expected:.3f}"
        regret = _signed(m.regret) + ("" if m.value_exact or m.regret is None else "*")
        table.add_row(str(m.number), m.guess, code_to_text(m.feedback, len(m.guess)),
                      str(m.answers_before), v, q, regret, _signed(m.luck), m.optimal_guess or "?")
    return table


def analysis_summary(analysis: GameAnalysis) -> str:
    """The summary line, and a note when some value is not proven."""
    outcome = (f"won in {len(analysis.history)}" if analysis.won
               else f"not won after {len(analysis.history)}")
    regret, luck = analysis.total_regret, analysis.total_luck
    line = (f"{outcome} guesses; total regret {'?' if regret is None else f'{float(regret):.3f}'} "
            f"guesses (skill: 0 is perfect play), luck {_signed(luck)} guesses (positive: luckier "
            "than expected)")
    first = analysis.moves[0]
    if first.expected is not None:
        line += f"; optimal play expects {first.expected:.3f} from the start"
    if not analysis.all_exact:
        line += ("\n* best found within the time budget, not proven optimal (regret measured "
                 "against it); ? not found within the budget")
    return line
