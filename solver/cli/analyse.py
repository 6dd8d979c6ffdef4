"""``python -m tools.analyse``: regret (skill) and luck of every move of a finished game."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from solver.cli._cli import EXIT_OK, entry_point, exit_with, prog_name
from solver.cli import _cli
from solver.cli.assist import OUTPUT_SECONDS, add_game_options, load_service, seconds_left

DESCRIPTION = """\
Analyse a finished game exactly. Give it as the guesses plus the answer
(salet crane bitty --answer bitty), as guesses with their feedback (salet:bbbby crane:bbbbb
bitty:ggggg), or as the emoji grid Wordle shares plus the guesses (--grid FILE, '-' for
standard input, or the grid text itself).

Per move: the answers remaining before it; V*, the optimal expected number of guesses from
that state; Q*, the expected number after the move played (optimal play afterwards); the
regret Q* − V* (0 for an optimal move) and its skill score (0-99, 99: optimal); the luck, how
many fewer guesses the state the feedback left needs than the move's expectation (positive:
lucky) and its score (0-99, 50: as expected); the optimal move; and a plain line on what the
guess did. The summary adds them up: guesses used = V*(start) + total regret − total luck
(a lost game: plus what the answers left would still take), with the game's two scores:
scored from the game's total regret and total luck, not averaged over the moves (three
moves of skill 98, 50 and 66 make a game of 40: their regrets add up), docs/play.md gives
the mapping. A terminal too narrow for the table (80 columns) gets a compact one, every
number printed whole.

Every value is exact. Move 1's Q* takes every root class of the opener played, so its tree
is read (shipped or cached) or solved once (a progress bar shows it) and kept; the later
states are read from it or solved on their own. At the start V* is the proven best opener's
value. With --budget the analysis answers within that many seconds (each move an equal share
of the time left, the later moves first, move 1 last; its opener's tree is then not built): a
value not proven by then is shown as a proven interval a…b (≥a or ≤b when one side was not
found in time), and so are its regret and luck.

A state whose answers cannot all be won in the guesses left is valued as if the game went
on, with the least number of guesses past the sixth that makes it winnable (marked +N), as
tools.assist values it. A move that gives up winning every answer in time (in hard mode,
openers such as SLATE and RAISE) has an infinite strict regret; its regret is finite by the
rule of docs/algorithms.md §15.4 (marked !): Q* with the limit relaxed just enough, plus the
chance of being left with no sure win. A grid whose header ends in * (Wordle 1,234
3/6*) is analysed in hard mode unless --mode says otherwise; with --mode hard every move must
use the hints before it, and V*, Q* are over the guesses hard mode allows. When the answer is
in no answer list, the allowed guesses that fit the game are added to the answers.

Exit status: 0 analysed, 1 an internal error, 2 bad input (naming the guess at fault), 130
interrupted.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.analyse`` (``wordle analyse``), with
    :data:`DESCRIPTION` as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("analyse"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("guesses", nargs="*", metavar="GUESS[:FEEDBACK]",
                        help="the guesses in order, each a word or word:feedback")
    parser.add_argument("--answer", default=None, help="the answer (gives every guess's feedback)")
    parser.add_argument("--grid", default=None, metavar="FILE|-|TEXT",
                        help="the shared emoji grid: a file, '-' for standard input, or the text")
    add_game_options(parser, "seconds the whole analysis may take (default: every value exact, "
                             "however long)")
    return parser


def read_grid(value: str | None) -> str | None:
    """The grid's text from a file, standard input ('-') or the value itself; a file and
    standard input through the one bounded reader (:mod:`solver.game.files`: a regular file
    of at most the grid's cap, checked before a byte is read)."""
    from pathlib import Path

    from solver.game.errors import InputError
    from solver.game.files import read_input_file, read_stdin

    if value is None:
        return None
    if value == "-":
        if sys.stdin is None or sys.stdin.closed:
            raise InputError("--grid -: standard input is closed")
        data = read_stdin("grid")
    else:
        squares = any(c in value for c in "⬛⬜🟨🟩")
        if "\n" in value or len(value) >= 4096 or "\0" in value or squares:
            return value  # the grid's text itself
        # no squares: it must name a file (a grid's text always has them)
        if not Path(value).exists() and not Path(value).is_symlink():
            raise InputError(f"--grid {value}: no such file (give the grid's file, '-' for "
                             "standard input, or the grid's text with its squares)")
        data = read_input_file(value, "grid")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"--grid {value}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``analyse`` on ``argv`` (default ``sys.argv[1:]``): the regret and luck of every move of
    a finished game (given as guesses, with ``--answer`` or as an emoji grid), within the budget if
    one is given (values past it as proven intervals), printed as tables or as JSON (``--json``);
    returns the exit status (0; errors mapped by :func:`~solver.cli._cli.run_main`: 2 for bad
    input)."""
    args = build_parser().parse_args(argv)
    from solver.evaluation.analysis import analyse_game
    from solver.game.history import History, grid_mode
    from solver.cli._cli import SolveProgress

    from solver.exact.service import check_budget

    started = _cli.budget_clock()  # run as a command: the process's start (start-up counts)
    check_budget(args.budget)
    grid = read_grid(args.grid)
    service = load_service(args, mode=args.mode or grid_mode(grid))
    steps = History.from_record(service.game, args.guesses, answer=args.answer, grid=grid)
    from solver.evaluation.warm import ensure_compiled

    ensure_compiled(service.word_list.word_length)  # before the budget: a first run compiles
    with SolveProgress() as progress:
        analysis = analyse_game(service.game, steps, service=service, progress=progress,
                                budget=seconds_left(args.budget, started, OUTPUT_SECONDS))
    if args.json:
        print(json.dumps(analysis.to_json(), indent=2))
        return EXIT_OK
    from rich.console import Console

    from solver.studies.play_render import analysis_summary, fitting_analysis_table, moves_in_words

    console = Console(highlight=False)
    console.print(fitting_analysis_table(analysis, console))
    console.print(moves_in_words(analysis), soft_wrap=True)
    console.print(analysis_summary(analysis), soft_wrap=True)
    return EXIT_OK


def run() -> None:
    """The console entry: ``main()``, then a quick exit (:func:`~solver.cli._cli.exit_with`:
    every file is closed when ``main`` returns), so that the interpreter's teardown of numpy
    and numba, most of a second under load, does not come after a ``--budget``'s answer."""
    exit_with(main, quick_exit=True)


if __name__ == "__main__":
    run()
