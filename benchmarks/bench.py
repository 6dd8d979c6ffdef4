"""``python -m benchmarks.bench`` (``make bench``): speed and memory figures, printed.

Solver: SALET on the legacy lists with a warm numba cache and a cached feedback table, as
``python -m tools.solve`` subprocesses (median of ``--repeat`` runs): wall seconds, CPU seconds
(the process and its forked workers), and peak RSS summed over the process tree (sampled from
/proc every 20 ms). The one-time cold compile is measured apart, with an empty numba cache.
Then the lookup and policy benchmarks (``benchmarks.bench_tree``, ``benchmarks.bench_policies``);
UCT (minutes long) only with ``--only uct``. ``make bench`` runs this and every other
``benchmarks/bench_*.py``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from benchmarks import compile_bytecode
from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import EXIT_INTERRUPTED, EXIT_OK, add_debug_option, entry_point, exit_with

ROOT = Path(__file__).resolve().parents[1]
COMPILE_SNIPPET = """
import time, numpy as np
from solver.game.wordlists import from_words
from solver.exact.bellman import solve
from solver.game.spec import Game
wl = from_words(["cigar", "rebut", "sissy", "humph", "awake"], ["cigar", "rebut", "sissy", "humph", "awake", "salet"])
t = time.perf_counter(); solve(Game(wl), "salet", jobs=1, resume=False); print(time.perf_counter() - t)
"""


def _tree_rss_kb(pid: int) -> int:
    """VmRSS (kB) of ``pid`` and all its descendants, read from /proc."""
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    stack.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return total


def measure(command: list[str], env=None) -> dict:
    """Run ``command``; wall s, CPU s (with descendants), peak summed RSS (MB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample():
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(proc.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{err.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "rss_mb": peak / 1024, "stdout": out.decode()}


def bench_solve(repeat: int, opener: str, console: Console) -> list[tuple[str, str]]:
    python = sys.executable
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(scratch) / "numba"))
        cold = measure([python, "-c", COMPILE_SNIPPET], env=env)
        compile_seconds = float(cold["stdout"].strip().splitlines()[-1])
        out = str(Path(scratch) / "bench.msgpack")
        for mode in ("normal", "hard"):
            command = [python, "-m", "tools.solve", "--opener", opener, "--mode", mode, "--out", out]
            measure(command)  # warm the numba cache and the feedback table
            runs = [measure(command) for _ in range(repeat)]
            wall = statistics.median(r["wall"] for r in runs)
            cpu = statistics.median(r["cpu"] for r in runs)
            rss = max(r["rss_mb"] for r in runs)
            total = next((line for line in runs[0]["stdout"].splitlines() if "total guesses" in line), "")
            name = f"solve {opener}, {mode} mode (warm)"
            rows += [
                (f"{name}, wall s, median of {repeat}", f"{wall:.2f}"),
                (f"{name}, CPU s incl. workers", f"{cpu:.2f}"),
                (f"{name}, peak RSS MB, process tree", f"{rss:.0f}"),
                (f"{name}, result", " ".join(total.replace("│", " ").split())),
            ]
    return rows + [("one-time cold numba compile, s", f"{compile_seconds:.1f}")]


# (module, name, in the default run): UCT takes minutes, so it runs only when asked for.
OPTIONAL = (("benchmarks.bench_tree", "lookup", True), ("benchmarks.bench_policies", "policies", True),
            ("benchmarks.bench_uct", "uct", False))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=_cli.whole(1, 1000), default=3, help="warm solve runs (default 3)")
    parser.add_argument("--opener", default="salet")
    parser.add_argument("--only", choices=["solve", "lookup", "policies", "uct"], default=None,
                        help="run one benchmark only (uct, minutes long, runs only this way)")
    add_debug_option(parser)
    return parser


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    compile_bytecode()  # (as installed: the timed processes load bytecode)
    from solver.game.errors import InputError
    from solver.game.wordlists import load_word_list

    if args.repeat < 1:
        raise InputError(f"--repeat must be at least 1, got {args.repeat}")
    load_word_list("legacy").guess_index(args.opener)  # the benchmarks solve on the legacy lists
    console = Console()
    console.print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    if args.only in (None, "solve"):
        table = Table(title="exact solver")
        table.add_column("figure")
        table.add_column("value", justify="right")
        rows = bench_solve(args.repeat, args.opener, console)
        for name, value in rows:
            table.add_row(name, value)
        console.print(table)
        if rows:
            record("solve", f"{args.opener.upper()}'s tree, whole process (`tools.solve`)",
                   ("figure", "value"), rows, prog="python -m benchmarks.bench", argv=argv)
    status = EXIT_OK
    for module_name, key, by_default in OPTIONAL:
        if args.only != key and not (args.only is None and by_default):
            continue
        module = importlib.import_module(module_name)
        status = max(status, module.main([]) or EXIT_OK)  # each reports its own errors
        if status == EXIT_INTERRUPTED:
            break
    return status


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
