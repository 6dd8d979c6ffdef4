"""``python -m benchmarks.bench_absurdle``: how long Absurdle's least forced win and its proof take.

For each tie rule: ``python -m tools.absurdle --json --tie RULE`` as a subprocess (a cold
process: interpreter, lists, feedback table and numba kernels loaded from the cache), then the
same search in this process twice (the second run with every kernel loaded), printing the
least forced win, the proof level's states, partitions and seconds, and the wall seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from benchmarks.record import record
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with


def build_parser() -> argparse.ArgumentParser:
    from solver.exact.absurdle import TIE_RULES

    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_absurdle", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy", help="word list (default: legacy)")
    parser.add_argument("--tie", action="append", default=None,
                        help=f"a tie rule to run (repeatable; default: all of {', '.join(TIE_RULES)})")
    add_debug_option(parser)
    return parser


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from solver.exact.absurdle import TIE_RULES, check_tie, solve_absurdle
    from solver.game.feedback import feedback_table
    from solver.game.wordlists import load_word_list
    from benchmarks.bench import measure

    ties = [check_tie(tie) for tie in (args.tie or TIE_RULES)]
    word_list = load_word_list(args.words)
    table = feedback_table(word_list)
    rows = []
    for tie in ties:
        run = measure([sys.executable, "-m", "tools.absurdle", "--words", args.words, "--tie", tie, "--json"])
        cold = json.loads(run["stdout"])
        for attempt in ("in process, first", "in process, again"):
            started = time.perf_counter()
            result = solve_absurdle(word_list, tie=tie, table=table)
            wall = time.perf_counter() - started
            proof = result.proof
            rows.append((tie, attempt, str(result.least), str(proof.states), str(proof.partitions),
                         f"{proof.seconds:.2f}", f"{wall:.2f}"))
        proof = cold["proof"]
        proof_seconds = next(level["seconds"] for level in cold["levels"] if level["guesses"] == proof["guesses"])
        rows.append((tie, "cold process (tools.absurdle)", str(cold["least_forced_win"]),
                     str(proof["states_searched"]), str(proof["partitions"]), f"{proof_seconds:.2f}",
                     f"{run['wall']:.2f} (CPU {run['cpu']:.2f}, RSS {run['rss_mb']:.0f} MB)"))
    table_out = Table(title=f"Absurdle, {word_list.name} lists")
    for name in ("tie rule", "run", "least", "proof states", "proof partitions", "proof s", "wall s"):
        table_out.add_column(name)
    for row in rows:
        table_out.add_row(*row)
    Console(width=150).print(table_out)
    record("absurdle", f"Absurdle's least forced win, {word_list.name} lists",
           ("tie rule", "run", "least", "proof states", "proof partitions", "proof s", "wall s"),
           rows, prog="python -m benchmarks.bench_absurdle", argv=argv)
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
