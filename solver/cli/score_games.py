"""``python -m tools.score_games``: logged games (JSON Lines) scored exactly, per move and per agent."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from solver.cli import _cli
from solver.cli._cli import EXIT_INPUT, EXIT_OK, add_debug_option, entry_point, exit_with, prog_name

DESCRIPTION = """\
Score logged games exactly: an LLM's or an RL agent's games, one JSON object per line
('-' reads standard input):

  {"agent": "llm-a", "answer": "cigar", "guesses": ["salet", "crane", "cigar"]}
  {"agent": "llm-b", "guesses": ["tarse", "colin"], "feedback": ["XYXXX", "GYXXG"]}

guesses: the guesses in order. feedback: one per guess (G/Y/X, g/y/b, 2/1/0 or squares),
needed unless the answer is given (a lost game, or one whose answer the log did not keep, is
scored from its feedback). agent: who played (default "agent"). words, mode: the line's lists
and mode (default --words, --mode). id: kept in the outputs.

Every move is analysed as `wordle analyse` does: V*, Q*, the regret Q* - V* in expected
guesses (0: an optimal move; the finite form of docs/algorithms.md §15.4 for a move that gives
up the sure finish), the luck and the 0-99 skill and luck scores. Per agent: games, win rate,
mean guesses of the games won, mean regret per game, share of optimal moves (regret exactly 0),
mean luck. The table goes to standard output; --csv writes every move, --json everything,
--plot a PNG per agent of the regret by move number.

A line that cannot be scored (not JSON, an unknown word, feedback that contradicts the answer
or that no answer fits, too many guesses) is reported on standard error with its number and
why, and the rest is scored. Every value is exact unless --budget is given (seconds per game:
what is not finished in time is a proven interval, marked). An opener with no shipped or
cached tree has its tree solved once (seconds to a minute) and kept.

Exit status: 0 when at least one game was scored, 2 when none was (or bad options), 1 an
internal error or a write that failed, 130 interrupted.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.score_games`` (``wordle score-games``), with
    :data:`DESCRIPTION` as its help text."""
    from solver.game.wordlists import PLAY_LISTS

    parser = argparse.ArgumentParser(prog=prog_name("score_games"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", metavar="FILE", help="the game log, JSON Lines ('-': standard input)")
    parser.add_argument("--words", default=PLAY_LISTS,
                        help=f"lists of a line that names none: a shipped list's name or a directory with "
                             f"answers.txt and guesses.txt (default {PLAY_LISTS})")
    parser.add_argument("--mode", default="normal", choices=("normal", "hard", "ultra"),
                        help=f"mode of a line that names none: {_cli.MODE_HELP}; default normal")
    parser.add_argument("--budget", type=_cli.positive_seconds, default=None, metavar="SECONDS",
                        help="seconds each game's analysis may take (default: every value exact)")
    parser.add_argument("--games", action="store_true", help="also print one row per game")
    parser.add_argument("--csv", default=None, metavar="FILE", help="write one row per move to FILE")
    parser.add_argument("--json", default=None, metavar="FILE",
                        help="write the agents' totals, every game's analysis and the bad lines to FILE")
    parser.add_argument("--plot", default=None, metavar="FILE",
                        help="write a PNG per agent of the regret by move number: FILE's name with "
                             "{agent} replaced, else FILE-<agent>.png (needs the studies extra)")
    add_debug_option(parser)
    return parser


def read_log_lines(value: str) -> list[str]:
    """The log's lines from a file (the bounded reader of :mod:`solver.game.files`) or
    standard input ('-'). Raises InputError for a file that cannot be read or is not UTF-8."""
    from solver.game.errors import InputError
    from solver.game.files import read_input_file, read_stdin

    if value == "-":
        if sys.stdin is None or sys.stdin.closed:
            raise InputError("-: standard input is closed")
        data = read_stdin("game log")
    else:
        data = read_input_file(value, "game log")
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise InputError(f"{value}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``score_games`` on ``argv`` (default ``sys.argv[1:]``): score every game of the JSON
    Lines log exactly (regret and luck per move, totals per agent), print the tables, and write the
    CSV, JSON and plots asked; bad lines are skipped with a note. Returns 0, or 2 when no game could
    be scored."""
    args = build_parser().parse_args(argv)
    from pathlib import Path

    from rich.console import Console

    from solver.evaluation.game_log import GameScorer
    from solver.game.errors import InputError, require_extra
    from solver.game.files import prepare_output_file, write_text_atomic

    inputs = [] if args.log == "-" else [args.log]
    outputs = {name: prepare_output_file(getattr(args, name), inputs)
               for name in ("csv", "json") if getattr(args, name) is not None}
    if args.plot is not None:
        require_extra("matplotlib", "studies", "score-games --plot")  # before any work
        prepare_output_file(Path(args.plot).with_name("probe.png"), inputs)
    lines = read_log_lines(args.log)
    scorer = GameScorer(args.words, args.mode, budget=args.budget)
    score = scorer.score_log(lines)
    errors = Console(stderr=True, highlight=False)
    for error in score.errors:
        errors.print(f"[yellow]skipped[/] line {error.line}: {escape_text(error.reason)}", soft_wrap=True)
    if not score.games:
        raise InputError(f"{args.log}: no game scored ({len(score.errors)} bad lines, "
                         f"{len(lines) - len(score.errors)} blank)")
    from solver.studies.agent_report import agents_table, games_table, moves_csv, write_regret_plots

    console = Console(highlight=False)
    if args.games:
        console.print(games_table(score))
    console.print(agents_table(score))
    from solver.game.wording import counted

    console.print(f"{counted(len(score.games), 'game')} scored, {counted(len(score.errors), 'line')} skipped, "
                  f"in {score.seconds:.1f} s ({len(score.games) / max(score.seconds, 1e-9):.1f} games/s)")
    if "csv" in outputs:
        write_text_atomic(outputs["csv"], moves_csv(score))
    if "json" in outputs:
        write_text_atomic(outputs["json"], json.dumps(score.to_json(), indent=1) + "\n")
    if args.plot is not None:
        for path in write_regret_plots(score, Path(args.plot)):
            console.print(f"wrote {path}")
    return EXIT_OK if score.games else EXIT_INPUT


def escape_text(text: str) -> str:
    """``text`` with rich's markup escaped, to print as it is."""
    from rich.markup import escape

    return escape(text)


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
