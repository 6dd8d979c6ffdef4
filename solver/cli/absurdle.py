"""``python -m tools.absurdle``: the least number of guesses that forces a win at Absurdle."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name

DESCRIPTION = """\
Absurdle (qntm's adversarial Wordle) solved exactly. The adversary holds every answer still
possible; after each guess it partitions them by feedback and keeps the largest class,
showing its pattern. The player wins when the kept class is the all-green one, which under
the rules below means the adversary was left one word and the guess was that word.

Which of several largest classes is kept is the tie rule (--tie):
  adversarial   the one worst for the player: the search branches over every largest class,
                so a win forced under this rule is forced under any rule (default)
  fewest-clues  the pattern with the fewest greens, then the fewest yellows, then the lowest
                code (qntm's own tie rule is not published; see docs/algorithms.md §13.1)
  lowest-code   the lowest pattern code (sum of c_i * 3^i; all-green is the highest)

The search deepens the number of guesses t = 1, 2, ... up to --max-depth and stops at the
first t with a forced win: it prints t, one optimal line of play with the patterns the
adversary shows, and the exhausted search with t - 1 guesses (states and partitions it went
through) that proves one guess fewer cannot do it. Nothing is pruned on a heuristic.

Feedback in a history is five of b/y/g (gray/yellow/green), five digits 0/1/2, or the squares
Wordle shares; each pattern must be one the adversary shows under the tie rule.

Exit status: 0 solved (or no forced win within --max-depth, said so), 1 an internal error,
2 bad input (an unknown tie rule or word list, a word not in the guesses, malformed feedback,
a pattern the adversary would not show — naming the guess —, a --max-depth below 1),
130 interrupted.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.absurdle`` (``wordle absurdle``), with
    :data:`DESCRIPTION` as its help text."""
    from solver.exact.absurdle import DEFAULT_DEPTH_LIMIT, DEFAULT_TIE

    parser = argparse.ArgumentParser(prog=prog_name("absurdle"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("history", nargs="*", metavar="WORD:FEEDBACK",
                        help="the game so far, e.g. aesir:bbbbb (none: from the start)")
    parser.add_argument("--words", default="legacy",
                        help="word list: 'legacy', 'nyt-2024', 'wordfreq-4', 'wordfreq-6', 'wordfreq-7', "
                             "or a directory with answers.txt and "
                             "guesses.txt (default: legacy)")
    parser.add_argument("--tie", default=DEFAULT_TIE,
                        help=f"tie rule: adversarial, fewest-clues or lowest-code (default {DEFAULT_TIE})")
    parser.add_argument("--max-depth", dest="depth_limit", type=_cli.guess_limit,
                        default=DEFAULT_DEPTH_LIMIT, metavar="N",
                        help=f"the deepening limit: the most guesses the search tries "
                             f"(default {DEFAULT_DEPTH_LIMIT})")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    add_debug_option(parser)
    return parser


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``absurdle`` on ``argv`` (default ``sys.argv[1:]``): the least number of guesses that
    forces a win at Absurdle from the history (docs/algorithms.md §13.3), printed as tables or as
    JSON (``--json``); returns the exit status (0; errors mapped by
    :func:`~solver.cli._cli.run_main`: 2 for bad input, 130 interrupted)."""
    args = build_parser().parse_args(argv)
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
    from solver.studies.progress import LineProgress

    from solver.exact.absurdle import check_depth_limit, check_tie, solve_absurdle
    from solver.game.wordlists import load_word_list

    check_tie(args.tie)
    check_depth_limit(args.depth_limit)
    word_list = load_word_list(args.words)
    console = Console(stderr=True)
    bar = LineProgress(TextColumn("[bold]searching[/] {task.description}"), BarColumn(),
                   TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                   console=console, transient=True)
    tasks: dict[int, int] = {}

    def progress(t: int, done: int, total: int) -> None:
        if not tasks:
            bar.start()
        if t not in tasks:
            tasks[t] = bar.add_task(escape(f"win within {t} guesses?"), total=total)
        bar.update(tasks[t], completed=done, total=total)

    try:
        result = solve_absurdle(word_list, args.history, tie=args.tie, depth_limit=args.depth_limit,
                                progress=progress)
    finally:
        if tasks:
            bar.stop()
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
        return EXIT_OK
    print_result(result)
    return EXIT_OK


def print_result(result) -> None:
    """Print ``result`` (:class:`solver.exact.absurdle.AbsurdleResult`) for a reader: the start, the
    least forced win (or that none was found within the depth limit), one optimal line and the
    search's figures."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from solver.game.absurdle import TieRule
    from solver.game.feedback import code_to_text

    length = result.word_length
    console = Console(highlight=False)
    where = "the start" if not result.history else " ".join(
        f"{w}:{code_to_text(c, length)}" for w, c in result.history)
    console.print(escape(f"Absurdle, {result.word_list} lists, tie rule {result.tie}, from {where} "
                         f"({result.state_size} answers left)"))
    if result.least is None:
        console.print(escape(f"no win can be forced within {result.depth_limit} guesses "
                             "(raise --max-depth to search further)"))
    else:
        console.print(escape(f"least number of guesses that forces a win: {result.least}"))
        line = Table(title="one optimal line")
        line.add_column("#", justify="right")
        line.add_column("guess")
        line.add_column("pattern")
        for turn, (word, code) in enumerate(result.sequence, start=len(result.history) + 1):
            line.add_row(str(turn), word, code_to_text(code, length))
        console.print(line)
        if result.tie == TieRule.ADVERSARIAL and any(len(m.replies) > 1 for m in _moves(result.plan)):
            console.print("(ties: the plan in --json answers every largest class the adversary may keep)")
    levels = Table(title="the search, by number of guesses")
    for name, justify in (("guesses", "right"), ("forced win", "left"), ("states searched", "right"),
                          ("partitions", "right"), ("seconds", "right")):
        levels.add_column(name, justify=justify)
    for level in result.levels:
        verdict = "yes" if level.won else "no (size bound)" if level.by_size_bound else "no (exhausted)"
        levels.add_row(str(level.guesses), verdict, str(level.states),
                       str(level.partitions), f"{level.seconds:.2f}")
    console.print(levels)
    proof = result.proof
    if proof is not None:
        if proof.by_size_bound:
            console.print(escape(f"proof: {result.state_size} answers are more than any win within "
                                 f"{proof.guesses} guesses can start from (docs/algorithms.md §13.3)"))
        else:
            console.print(escape(f"proof: with {proof.guesses} guesses the exact search exhausted every "
                                 f"guess sequence ({proof.states} states searched, {proof.partitions} "
                                 "partitions) without a forced win"))
    elif result.least is None and result.levels:
        last = result.levels[-1]
        console.print(escape(f"with {last.guesses} guesses the exact search exhausted every guess "
                             f"sequence ({last.states} states searched, {last.partitions} partitions) "
                             "without a forced win"))
    elif result.least == 1:
        console.print("proof: one answer is left, and no game is won without a guess")
    console.print(f"wall seconds: {result.seconds:.2f}")


def _moves(move):
    if move is None:
        return
    yield move
    for _, nxt in move.replies:
        yield from _moves(nxt)


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
