"""``python -m benchmarks.bench_prove`` (part of ``make bench``): the opener proof's speed and memory.

Runs ``python -m tools.prove --words LIST [--objective worst] [--mode hard] --no-resume`` as a
subprocess, once per ``--rank`` (default: 1 and 10), with a warm numba cache and feedback
table, and prints its wall seconds, CPU seconds (the process and its joblib workers) and peak
RSS summed over the process tree (sampled from /proc every 20 ms), beside its best openers.
The outputs go to a scratch directory, so nothing under artifacts/ changes.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with
from benchmarks.bench import measure


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_prove", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy", help="word list (default: legacy)")
    parser.add_argument("--rank", type=_cli.positive_count, action="append", default=None,
                        help="a --rank to run (repeatable; default: 1 and 10)")
    parser.add_argument("--objective", choices=("total", "worst"), default="total",
                        help="the proof to run: least total (default) or least guaranteed "
                             "maximum (docs/algorithms.md §9.5)")
    parser.add_argument("--mode", choices=("normal", "hard"), default="normal",
                        help="normal (default) or hard mode")
    _cli.add_jobs_option(parser)
    add_debug_option(parser)
    return parser


def bench_prove(words: str, rank: int, jobs: int, objective: str = "total",
                mode: str = "normal") -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "openers.csv"
        command = [sys.executable, "-m", "tools.prove", "--words", words, "--rank", str(rank),
                   "--jobs", str(jobs), "--objective", objective, "--mode", mode,
                   "--no-resume", "--out", str(out)]
        run = measure(command)
        with open(out, newline="") as handle:
            rows = list(csv.DictReader(handle))
    exact = [row for row in rows if row["status"] == "exact"]
    best = ", ".join(f"{row['opener']} {row['value']}" for row in exact[:max(rank, 3)])
    return [
        (f"prove --rank {rank}, wall s", f"{run['wall']:.0f}"),
        (f"prove --rank {rank}, CPU s incl. workers", f"{run['cpu']:.0f}"),
        (f"prove --rank {rank}, peak RSS MB, process tree", f"{run['rss_mb']:.0f}"),
        (f"prove --rank {rank}, openers: exact / bounded / searched",
         f"{len(exact)} / {len(rows) - len(exact)} / {_searched(run['stdout'])}"),
        (f"prove --rank {rank}, best", best),
    ]


def _searched(stdout: str) -> str:
    for line in stdout.splitlines():
        if " searched" in line:
            return line.split(" searched")[0].split()[-1]
        if " openers decided" in line:  # the worst case decides every opener
            return line.split(" openers decided")[0].split()[-1]
    return "?"


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from solver.game.errors import InputError
    from solver.game.wordlists import load_word_list

    ranks = args.rank or [1, 10]
    if any(rank < 1 for rank in ranks):
        raise InputError(f"--rank must be at least 1, got {ranks}")
    load_word_list(args.words)
    console = Console()
    console.print(f"machine: {platform.machine()}, {os.cpu_count()} cores, "
                  f"Python {platform.python_version()}")
    table = Table(title=f"opener proof, {args.words} lists, {args.mode}, {args.objective}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    rows = []
    for rank in ranks:
        rows += bench_prove(args.words, rank, args.jobs, args.objective, args.mode)
    for name, value in rows:
        table.add_row(name, value)
    console.print(table)
    workload = "-".join(["prove", *([args.words] if args.words != "legacy" else []), args.mode,
                         *(["worst"] if args.objective == "worst" else [])])
    what = "least guaranteed maximum" if args.objective == "worst" else "opener proof"
    record(workload, f"The {what}, {args.mode} mode, {args.words} lists (`tools.prove`)",
           ("figure", "value"), rows, prog="python -m benchmarks.bench_prove", argv=argv)
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
