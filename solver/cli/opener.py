"""``python -m tools.opener``: how good is an opener — its exact value and rank, from the
opener tables."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name
from solver.game.spec import GUESS_LIMIT
from solver.game.wordlists import LEGACY_LISTS, PLAY_LISTS

DESCRIPTION = f"""\
How good is an opener? Its exact value (the least total of guesses over every answer, when
optimal play follows it, every game won within {GUESS_LIMIT}), the average per game, its rank
among all openers (ties share a rank), the gap to the best opener, and its least worst case
(the fewest guesses within which some policy that plays it wins every game). Read from the
opener tables (artifacts/tables/, built by `prove --all`, docs/algorithms.md §9.7) in
milliseconds; an opener the table lacks yet is searched (its tree's value, a few seconds) and
labelled so. The least worst case comes from the worst-case proof's table
(artifacts/<list>-<mode>-worst-openers.csv) where it has decided the opener.

Exit status: 0 answered, 2 bad input (an unknown word, list or mode)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.opener`` (``wordle opener``), with
    :data:`DESCRIPTION` as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("opener"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("openers", nargs="+", metavar="WORD", help="one or more openers")
    parser.add_argument("--words", default=PLAY_LISTS,
                        help=f"word list: '{PLAY_LISTS}' (the NYT's lists of today's game, the "
                             f"default) or '{LEGACY_LISTS}' (Wordle's original 2022 lists)")
    parser.add_argument("--mode", choices=("normal", "hard"), default="normal",
                        help=f"{_cli.MODE_HELP}; default normal")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per opener instead of sentences")
    parser.add_argument("--no-search", action="store_true",
                        help="never search: an opener the table lacks is reported as such")
    add_debug_option(parser)
    return parser


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``opener`` on ``argv`` (default ``sys.argv[1:]``): each opener's exact value and rank
    from the opener tables, searched when the tables lack it (unless ``--no-search``), as sentences
    or JSON lines (``--json``); returns the exit status (0; 2 for bad input)."""
    args = build_parser().parse_args(argv)
    from solver.evaluation.openers import opener_report
    from solver.game.wordlists import load_word_list

    word_list = load_word_list(args.words)
    reports = [opener_report(word_list, args.mode, word, search=False) for word in args.openers]
    missing = [i for i, report in enumerate(reports) if report.value is None]
    if missing and not args.no_search:  # the openers the table lacks are searched, after a
        from solver.evaluation.warm import ensure_compiled  # first run's compiling

        ensure_compiled(word_list.word_length)
        for i in missing:
            reports[i] = opener_report(word_list, args.mode, args.openers[i], search=True)
    for report in reports:
        print(json.dumps(report.as_dict()) if args.json else report.sentences())
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then a quick exit with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main, quick_exit=True)


if __name__ == "__main__":
    run()
