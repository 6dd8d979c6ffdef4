"""Terminal tables and plots of a scored game log (:mod:`solver.evaluation.game_log`), for
``wordle score-games``: the per-agent totals, the games, and a PNG per agent of the regret by
move number."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction
from pathlib import Path

from rich.markup import escape
from rich.table import Table

from solver.evaluation.game_log import AgentSummary, LogScore
from solver.studies.play_render import _bounded


def _fixed(x: float | None, digits: int = 3) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def agents_table(score: LogScore) -> Table:
    """One row per agent: games, win rate, mean guesses of the games won, mean regret per
    game (expected guesses; a proven interval ``a…b`` when some value is not exact), share
    of optimal moves, mean luck, skill score of the mean regret."""
    table = Table(title="agents (regret and luck in expected guesses; regret 0: every move optimal)")
    for name in ("agent", "games", "won", "win rate", "mean guesses (won)", "mean regret / game",
                 "optimal moves", "mean luck / game", "skill"):
        table.add_column(name, justify="left" if name == "agent" else "right")
    for summary in score.agents.values():
        table.add_row(escape(summary.agent), str(summary.games), str(summary.won),
                      f"{summary.win_rate:.1%}", _fixed(summary.mean_guesses, 2),
                      _mean_regret(summary), f"{summary.optimal_share:.1%}",
                      _bounded(summary.mean_luck, None), "?" if summary.skill_score is None else
                      str(summary.skill_score))
    return table


def _mean_regret(summary: AgentSummary) -> str:
    return _regret(summary.mean_regret, summary.mean_regret_bounds)


def _regret(exact: Fraction | None, bounds) -> str:
    """A regret (≥ 0, unsigned) or its proven interval ``a…b`` (``≥a`` when unbounded), ? if unknown."""
    if exact is not None:
        return f"{float(exact):.3f}"
    if bounds is None or bounds[0] is None:
        return "?"
    low = f"{float(bounds[0]):.3f}"
    return f"≥{low}" if bounds[1] is None else f"{low}…{float(bounds[1]):.3f}"


def games_table(score: LogScore) -> Table:
    """One row per game: line, agent, answer, status, the guesses with each move's regret,
    the game's total regret and luck, its skill and luck scores."""
    table = Table(title="games (each guess with its regret; * : a value known only within a proven interval)")
    for name, justify in (("line", "right"), ("agent", "left"), ("answer", "left"), ("result", "left"),
                          ("guesses (regret)", "left"), ("regret", "right"), ("luck", "right"),
                          ("skill", "right"), ("luck score", "right")):
        table.add_column(name, justify=justify)
    for game in score.games:
        analysis = game.analysis
        moves = " ".join(f"{m.guess}({_short(m.regret_finite)})" for m in analysis.moves)
        result = game.status if game.status != "won" else f"won in {len(analysis.moves)}"
        table.add_row(str(game.logged.line), escape(game.logged.agent), game.logged.answer or "?", result,
                      moves, _regret(analysis.total_regret_finite, analysis.total_regret_finite_bounds),
                      _bounded(analysis.total_luck, analysis.total_luck_bounds),
                      _score(analysis.skill_score), _score(analysis.luck_score))
    return table


def _short(x: Fraction | None) -> str:
    if x is None:
        return "*"
    return "0" if x == 0 else f"{float(x):.2f}"


def _score(x: int | None) -> str:
    return "?" if x is None else str(x)


#: The CSV's columns, in order (:meth:`solver.evaluation.game_log.ScoredGame.move_rows`).
CSV_COLUMNS = ("line", "id", "agent", "words", "mode", "answer", "status", "move", "guess", "feedback",
               "answers_before", "v_star", "q_star", "regret", "regret_fraction", "regret_strict",
               "luck", "skill_score", "luck_score", "optimal_guess", "exact")


def moves_csv(score: LogScore) -> str:
    """One CSV row per move of every game scored (:data:`CSV_COLUMNS`; empty where a value is
    not exact)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in score.move_rows():
        writer.writerow({k: "" if row[k] is None else row[k] for k in CSV_COLUMNS})
    return buffer.getvalue()


def plot_path(pattern: Path, agent: str) -> Path:
    """Where an agent's plot goes: ``{agent}`` in the file name replaced by the agent's name
    (made safe for a file name), else ``<stem>-<agent><suffix>``."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", agent).strip("._") or "agent"
    if "{agent}" in pattern.name:
        return pattern.with_name(pattern.name.replace("{agent}", safe))
    return pattern.with_name(f"{pattern.stem}-{safe}{pattern.suffix or '.png'}")


def write_regret_plots(score: LogScore, pattern: Path) -> list[Path]:
    """A PNG per agent (:func:`plot_path`): the regret of its moves by move number, each move
    a dot (exact values only) and the mean per move number a bar. Returns the files written.

    Raises:
        MissingExtraError: matplotlib (the ``studies`` extra) is not installed.
    """
    from solver.game.errors import require_extra
    from solver.game.files import write_atomic

    require_extra("matplotlib", "studies", "score-games --plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    written = []
    for agent in score.agents:
        by_move: dict[int, list[float]] = {}
        for game in score.games:
            if game.logged.agent != agent:
                continue
            for move in game.analysis.moves:
                if move.regret_finite is not None:
                    by_move.setdefault(move.number, []).append(float(move.regret_finite))
        fig, ax = plt.subplots(figsize=(7, 4.2))
        numbers = sorted(by_move)
        if numbers:
            means = [float(np.mean(by_move[n])) for n in numbers]
            ax.bar(numbers, means, color="#8fb3d9", width=0.6, label="mean regret")
            rng = np.random.default_rng(0)
            for n in numbers:
                values = by_move[n]
                ax.scatter(n + rng.uniform(-0.2, 0.2, len(values)), values, s=10, color="#1f4e79",
                           alpha=0.6, zorder=3)
            for n, mean in zip(numbers, means):
                ax.annotate(f"{mean:.3f}\n({len(by_move[n])})", (n, mean), ha="center", va="bottom",
                            fontsize=8, xytext=(0, 3), textcoords="offset points")
            ax.set_xticks(numbers)
        ax.set_xlabel("move number")
        ax.set_ylabel("regret Q* − V* (expected guesses)")
        ax.set_title(f"{agent}: regret by move (dots: moves; bars: mean, (n) moves)")
        top = max((max(v) for v in by_move.values()), default=0.0)
        ax.set_ylim(0, max(top, 0.05) * 1.25)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
        plt.close(fig)
        path = plot_path(pattern, agent)
        write_atomic(path, buffer.getvalue())
        written.append(path)
    return written
