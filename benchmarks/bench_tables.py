"""``python -m benchmarks.bench_tables``: the opener tables' cost per opener (table mode).

Evaluates ``--count`` openers drawn without replacement from every allowed guess of
``--words`` (``numpy.random.default_rng(--seed)``) as ``prove --all`` does
(:func:`solver.exact.proofs.table.opener_task`: the exact value and every class's value and
guess), in this process on one core with one memo across the openers (a worker's), after one
warm-up opener (SALET), and prints the CPU seconds per opener (``time.thread_time``): mean,
median, 90th percentile, worst, and the CPU-hours a whole table would take at that mean.
``--plain`` searches every class as the proof's deep pass does (no class searched as a state
asked alone: ``PREPARED_MIN`` past any class), the way before table mode. The goal:
a mean of at most 0.6 CPU-s per opener on the legacy lists (normal), the worst at most 60 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_tables", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy", help="word list (default legacy)")
    parser.add_argument("--mode", choices=("normal", "hard"), default="normal",
                        help="normal (default) or hard")
    parser.add_argument("--count", type=_cli.positive_count, default=200,
                        help="openers drawn (default 200)")
    parser.add_argument("--seed", type=_cli.whole(0, 2**32 - 1), default=2026,
                        help="seed of the draw (default 2026)")
    parser.add_argument("--memory-gb", type=_cli.memory_gb, default=4.0,
                        help="the memo's memory (default 4)")
    parser.add_argument("--plain", action="store_true",
                        help="every class searched as the proof's deep pass does (before)")
    add_debug_option(parser)
    return parser


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import numpy as np

    from solver.exact.proofs import table as table_module
    from solver.exact.proofs.runner import Job, memo_capacity
    from solver.game.spec import Game
    from solver.game.wordlists import load_word_list

    if args.plain:
        table_module.PREPARED_MIN = 1 << 30
    words = load_word_list(args.words)
    game = Game(words, mode=args.mode)
    job = Job(words, game, memo_capacity(args.memory_gb, 1))
    picks = np.random.default_rng(args.seed).choice(words.n_guesses, size=min(args.count, words.n_guesses),
                                                    replace=False)
    table_module.opener_task(job, words.guess_index("salet"))  # warm-up: kernels, table, memo
    rows = []
    for g in (int(i) for i in picks):
        _, value, _, _, _, seconds = table_module.opener_task(job, g)
        rows.append((words.guesses[g], seconds, value))
        print(f"{words.guesses[g]}: {seconds:.2f} CPU s, value {value}", file=sys.stderr, flush=True)
    cpus = sorted(seconds for _, seconds, _ in rows)
    worst = max(rows, key=lambda row: row[1])
    mean = statistics.mean(cpus)
    summary = [("openers", str(len(rows))), ("mean CPU s", f"{mean:.2f}"),
               ("median CPU s", f"{statistics.median(cpus):.2f}"),
               ("90th percentile CPU s", f"{cpus[int(0.9 * (len(cpus) - 1))]:.2f}"),
               ("worst CPU s", f"{worst[1]:.2f} ({worst[0]})"),
               ("whole table at the mean, CPU-hours", f"{mean * words.n_guesses / 3600:.1f}")]
    table = Table(title=f"opener table cost per opener: {words.name}, {args.mode}"
                        + (", plain class searches" if args.plain else ""))
    table.add_column("figure")
    table.add_column("value", justify="right")
    for name, value in summary:
        table.add_row(name, value)
    Console().print(table)
    kind = "plain" if args.plain else "table"
    record(f"tables-{args.words}-{args.mode}-{kind}",
           f"Opener tables, CPU seconds per opener: {words.name}, {args.mode}"
           + (" (plain class searches: before)" if args.plain else ""),
           ("figure", "value"), summary, prog="python -m benchmarks.bench_tables", argv=argv,
           notes=(f"{len(rows)} openers drawn with seed {args.seed} from the {words.n_guesses:,} "
                  "allowed guesses, each evaluated as prove --all does (exact value, every class's "
                  "value and guess), one process, one core, one memo across them, after a warm-up "
                  "opener; CPU s = the thread's CPU time.",))
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
