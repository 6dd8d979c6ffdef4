"""``python -m benchmarks.bench_openers`` (part of ``make bench``): random openers' whole trees.

Solves the optimal tree of ``--count`` openers drawn without replacement from every allowed
guess of the legacy lists (``numpy.random.default_rng(--seed)``), in this process on one core
(``solver.exact.bellman.solve(..., jobs=1)``, nothing written), after one warm-up solve of
SALET (numba cache and feedback table warm), and prints each opener's CPU seconds
(``time.process_time``: user + system of this process) and wall seconds, with the mean, the
median and the worst. Issue 31's target: a mean of at most 3 CPU-seconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_openers", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=_cli.positive_count, default=16,
                        help="openers drawn (default 16)")
    parser.add_argument("--seed", type=_cli.whole(0, 2**32 - 1), default=31,
                        help="seed of the draw (default 31)")
    parser.add_argument("--openers", default=None,
                        help="comma-separated openers instead of a random draw")
    add_debug_option(parser)
    return parser


def draw(count: int, seed: int) -> list[str]:
    """``count`` distinct allowed guesses of the legacy lists, drawn with ``seed``."""
    import numpy as np

    from solver.game.wordlists import load_word_list

    guesses = load_word_list("legacy").guesses
    picks = np.random.default_rng(seed).choice(len(guesses), size=min(count, len(guesses)),
                                               replace=False)
    return [guesses[int(i)] for i in picks]


def solve_cpu(opener: str) -> tuple[float, float, int]:
    """(CPU s, wall s, total) of one whole-tree solve from ``opener``, in this process."""
    from solver.exact.bellman import solve
    from solver.game.spec import Game
    from solver.game.wordlists import load_word_list

    game = Game(load_word_list("legacy"))
    cpu, wall = time.process_time(), time.perf_counter()
    result = solve(game, opener, jobs=1, resume=False)
    return time.process_time() - cpu, time.perf_counter() - wall, int(result.total)


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from solver.game.wordlists import load_word_list

    words = load_word_list("legacy")
    if args.openers:
        openers = [w.strip().lower() for w in args.openers.split(",") if w.strip()]
        for opener in openers:
            words.guess_index(opener)  # an unknown word is refused before any work
    else:
        openers = draw(args.count, args.seed)
    console = Console()
    solve_cpu("salet")  # warm-up: numba's kernels loaded, the feedback table cached
    table = Table(title="random openers' trees, one core")
    for column in ("opener", "CPU s", "wall s", "total"):
        table.add_column(column, justify="left" if column == "opener" else "right")
    rows = []
    for opener in openers:
        cpu, wall, total = solve_cpu(opener)
        rows.append((opener, f"{cpu:.2f}", f"{wall:.2f}", str(total)))
        table.add_row(*rows[-1])
        print(f"{opener}: {cpu:.2f} CPU s, {wall:.2f} s wall, total {total}", file=sys.stderr, flush=True)
    cpus = [float(row[1]) for row in rows]
    summary = [("mean", f"{statistics.mean(cpus):.2f}"), ("median", f"{statistics.median(cpus):.2f}"),
               ("worst", f"{max(cpus):.2f} ({rows[cpus.index(max(cpus))][0]})")]
    for name, value in summary:
        table.add_row(name, value, "", "")
    console.print(table)
    what = "these openers" if args.openers else f"{len(openers)} openers drawn with seed {args.seed}"
    record("openers", "Random openers' whole trees, one core, legacy lists (`bellman.solve`)",
           ("opener", "CPU s", "wall s", "total"), rows + [(n, v, "", "") for n, v in summary],
           prog="python -m benchmarks.bench_openers", argv=argv,
           notes=(f"{what} from the 12,972 allowed guesses; each tree solved in one process "
                  "(jobs=1) after a warm-up solve; CPU s = user + system of the process.",))
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
