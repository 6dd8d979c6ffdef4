"""``python -m tools.prove``: prove the best first guess over all allowed guesses."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from tools._cli import EXIT_OK, add_debug_option, entry_point, exit_with, journal_kept

DESCRIPTION = """\
Find and prove the best opener: every allowed guess gets a cheap lower bound, then the
openers are solved in bound order, each against the best total so far as a cut-off (a
cut-off opener gets a proven lower bound), until every remaining opener's bound is at
least the best. Writes artifacts/<list>-<mode>-openers.csv (opener, status exact or
lower_bound, value, seconds; best first). With --rank K the K best openers are solved
exactly. Every finished opener is journaled in the user cache, so an interrupted run
resumes (--no-resume starts over). First version: see docs/benchmarks.md for its speed.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.prove", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy",
                        help="word list: 'legacy', 'nyt-2024', or a directory with answers.txt "
                             "and guesses.txt (default: legacy)")
    parser.add_argument("--mode", choices=("normal",), default="normal", help="play mode")
    parser.add_argument("--objective", choices=("total", "worst"), default="total",
                        help="minimise total guesses (default) or the worst case")
    parser.add_argument("--rank", type=int, default=1,
                        help="solve the K best openers exactly (default 1: the best)")
    parser.add_argument("--openers", default=None,
                        help="comma-separated openers: consider only these")
    parser.add_argument("--jobs", type=int, default=-1, help="worker processes (-1: all cores)")
    parser.add_argument("--memory-gb", type=float, default=4.0,
                        help="memory for the workers' memo tables (default 4)")
    parser.add_argument("--guess-limit", type=int, default=6, help="guesses allowed (default 6)")
    parser.add_argument("--out", default=None,
                        help="CSV path (default: artifacts/<list>-<mode>-openers.csv)")
    parser.add_argument("--no-resume", action="store_true",
                        help="discard the journal of an interrupted run and start over")
    add_debug_option(parser)
    return parser


@entry_point(interrupted=journal_kept("openers", "proof"))
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from solver.exact.prove import default_csv_path, discard_journal, prove, save_openers_csv
    from solver.game.wordlists import load_word_list

    from solver.game.files import prepare_output_file

    word_list = load_word_list(args.words)
    openers = [w for w in args.openers.split(",") if w.strip()] if args.openers else None
    # the output path is checked before any work (a bad one would lose the run's result)
    path = prepare_output_file(args.out or default_csv_path(word_list, args.objective, args.mode))
    console = Console(stderr=True)
    with Progress(TextColumn("[bold]proving[/]"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task("", total=None)

        def progress(info):
            bar.update(task, completed=info["decided"], total=info["total"],
                       description=f"best {info['best']}, cut-off {info['cutoff']}, "
                                   f"{info['searched']} searched")

        result = prove(word_list, guess_limit=args.guess_limit, objective=args.objective,
                       rank=args.rank, openers=openers, jobs=args.jobs,
                       memory_gb=args.memory_gb, resume=not args.no_resume, progress=progress)
    save_openers_csv(result, path)
    discard_journal(word_list, result.spec, args.rank, openers)
    table = Table(title=f"best openers: {word_list.name}, {args.mode}, {args.objective}")
    for column in ("rank", "opener", "value", "average"):
        table.add_column(column, justify="right" if column != "opener" else "left")
    for i, row in enumerate(result.ranked[:max(args.rank, 1)], start=1):
        average = f"{row.value / word_list.n_answers:.5f}" if args.objective == "total" else ""
        table.add_row(str(i), row.opener, str(row.value), average)
    Console().print(table)
    Console().print(f"{len(result.openers)} openers: {result.searched} searched "
                    f"({result.reused} from the journal), the rest ruled out by their bound; "
                    f"{result.seconds:.1f} s; CSV {path}", soft_wrap=True)
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
