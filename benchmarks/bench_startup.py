"""``python -m benchmarks.bench_startup``: one opener's optimal tree as a whole process, beside
Alex Selby's C++ solver doing the same job.

Ours: ``python -m tools.solve --words legacy --opener OPENER --mode MODE --out FILE`` (the
legacy lists, default workers), a fresh process each run, timed from its start to its exit:
the interpreter's start-up, the imports, the numba kernels' first calls, the search, the
tree's check and its write. One run first warms the numba cache and the feedback table; it is
not counted.

Selby's solver (https://github.com/alex1770/wordle, not shipped with this project) is compared
only when ``--selby-source DIR`` names a checkout of its repository: its ``wordle.cpp`` is built
with the system's C++ compiler in a scratch directory that is deleted afterwards
(``g++ -std=c++14 -O3``, the flags of its own Makefile), and run on the same lists as
``wordle -h answers.txt -a guesses.txt -w OPENER`` (``-H`` for hard mode): it evaluates the
opener exactly and prints the total (SALET: 7920, hard mode 8122). Both totals are checked
to be equal, so both programs did the same search. With ``--selby-tree`` it also writes its
tree (``-p FILE``) in a third, separate column.

The runs are interleaved (ours, Selby's, ours, …; the order alternates between rounds) so that
both see the same load; the figures are the medians of ``--repeat`` runs of each, wall seconds
and CPU seconds (the process and its children), with the ratio ours / Selby of the medians.
The load average before and after is printed: on a shared machine compare the ratio, not the
seconds. Nothing is written outside a temporary directory.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import compile_bytecode
from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with

ROOT = Path(__file__).resolve().parents[1]
SELBY_FLAGS = ("-std=c++14", "-O3")  # as Selby's Makefile builds it (its -Wall aside)


def _timed(command: list[str], cwd: Path | None = None) -> tuple[float, float, str]:
    """Run ``command``; (wall s, CPU s of it and its children, stdout). Raises RuntimeError
    with the command's stderr when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed (exit {proc.returncode}):\n"
                           f"{(proc.stderr or proc.stdout)[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def _our_total(stdout: str) -> int:
    match = re.search(r"total guesses\D+(\d+)", stdout)
    if match is None:
        raise RuntimeError(f"tools.solve printed no total:\n{stdout[-1000:]}")
    return int(match.group(1))


def _selby_total(stdout: str) -> int:
    match = re.search(r"Best first guess score\s*=\s*(\d+)", stdout)
    if match is None:
        raise RuntimeError(f"Selby's solver printed no total:\n{stdout[-1000:]}")
    return int(match.group(1))


def build_selby(source: Path, scratch: Path, compiler: str) -> Path:
    """Build ``source/wordle.cpp`` into ``scratch/wordle``; returns the binary's path."""
    from solver.game.errors import InputError

    cpp = source / "wordle.cpp"
    if not cpp.is_file():
        raise InputError(f"{source}: no wordle.cpp here; --selby-source must be a checkout of "
                         "Selby's repository (github.com/alex1770/wordle)")
    if shutil.which(compiler) is None:
        raise InputError(f"the C++ compiler {compiler!r} is not installed (--cxx names another)")
    binary = scratch / "wordle"
    # COMMITDESC is what its Makefile sets from git; the program only prints it
    command = [compiler, "-o", str(binary), str(cpp), *SELBY_FLAGS, '-DCOMMITDESC="benchmark build"']
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise InputError(f"building Selby's solver failed ({' '.join(command)}):\n{proc.stderr[-2000:]}")
    return binary


def _source_note(source: Path) -> str:
    """What DIR held: the sha256 of its wordle.cpp (and its git commit when it is a checkout)."""
    digest = hashlib.sha256((source / "wordle.cpp").read_bytes()).hexdigest()[:16]
    proc = subprocess.run(["git", "-C", str(source), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True) if shutil.which("git") else None
    commit = f", commit {proc.stdout.strip()}" if proc is not None and proc.returncode == 0 else ""
    return (f"DIR: Selby's source (github.com/alex1770/wordle{commit}), outside this repository; "
            f"its wordle.cpp has sha256 {digest}….")


def _median_line(name: str, runs: list[tuple[float, float]]) -> str:
    walls = [w for w, _ in runs]
    cpus = [c for _, c in runs]
    return (f"  {name:44s} wall median {statistics.median(walls):6.3f} s "
            f"(min {min(walls):.3f}, max {max(walls):.3f})   CPU median {statistics.median(cpus):6.3f} s")


def bench_mode(mode: str, opener: str, repeat: int, selby: Path | None, selby_tree: bool,
               scratch: Path) -> list[tuple[str, ...]]:
    """Time ``mode``'s tree of ``opener``: ours, and Selby's when ``selby`` is a binary.
    Returns the table's rows: mode, program, median wall, median CPU, ratio."""
    from solver.game.wordlists import DATA_DIR

    out = scratch / f"ours-{mode}.msgpack"
    ours_command = [sys.executable, "-m", "tools.solve", "--words", "legacy", "--opener", opener,
                    "--mode", mode, "--out", str(out)]
    _, _, stdout = _timed(ours_command, cwd=ROOT)  # warms the numba cache and the feedback table
    our_total = _our_total(stdout)
    commands = {"ours": ours_command}
    if selby is not None:
        lists = ["-h", str(DATA_DIR / "legacy" / "answers.txt"), "-a", str(DATA_DIR / "legacy" / "guesses.txt")]
        hard = ["-H"] if mode == "hard" else []
        commands["selby"] = [str(selby), *hard, *lists, "-w", opener]
        if selby_tree:
            commands["selby tree"] = [*commands["selby"], "-p", str(scratch / f"selby-{mode}.tree")]
        _, _, stdout = _timed(commands["selby"])
        if _selby_total(stdout) != our_total:
            raise RuntimeError(f"{mode} mode, opener {opener}: Selby's solver found total "
                               f"{_selby_total(stdout)}, ours {our_total}: not the same job")
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    load_before = os.getloadavg()[0]
    names = list(commands)
    for i in range(repeat):
        for name in names if i % 2 == 0 else names[::-1]:
            wall, cpu, _ = _timed(commands[name], cwd=ROOT if name == "ours" else None)
            runs[name].append((wall, cpu))
    load_after = os.getloadavg()[0]
    print(f"{opener.upper()}, legacy lists, {mode} mode, total {our_total}: {repeat} interleaved "
          f"runs each, load average {load_before:.2f} before, {load_after:.2f} after", flush=True)
    print(_median_line("ours: python -m tools.solve (writes the tree)", runs["ours"]))

    def row(program, name, ratio=""):
        return (mode, program, f"{statistics.median(w for w, _ in runs[name]):.3f}",
                f"{statistics.median(c for _, c in runs[name]):.3f}", ratio)

    if selby is None:
        print("  Selby's solver: comparison skipped (no --selby-source)")
        return [row("ours: `tools.solve` (writes the tree)", "ours", "not compared")]
    print(_median_line(f"Selby: wordle{' -H' if mode == 'hard' else ''} -w {opener}", runs["selby"]))
    ours = statistics.median(w for w, _ in runs["ours"])
    ratio = ours / statistics.median(w for w, _ in runs["selby"])
    line = f"  ratio ours / Selby, median wall: {ratio:.2f}"
    if selby_tree:
        print(_median_line("Selby: the same with -p FILE (writes its tree)", runs["selby tree"]))
        line += f"   (ours / Selby writing its tree: {ours / statistics.median(w for w, _ in runs['selby tree']):.2f})"
    print(line, flush=True)
    rows = [row("ours: `tools.solve` (writes the tree)", "ours", f"{ratio:.2f}"),
            row(f"Selby: `wordle{' -H' if mode == 'hard' else ''} -w {opener}`", "selby")]
    if selby_tree:
        rows.append(row("Selby writing its tree (`-p FILE`)", "selby tree",
                        f"{ours / statistics.median(w for w, _ in runs['selby tree']):.2f}"))
    return rows


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_startup", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=_cli.whole(1, 1000), default=5,
                        help="timed runs of each program per mode (default 5; the medians are printed)")
    parser.add_argument("--opener", default="salet", help="the first guess (default: salet)")
    parser.add_argument("--modes", default="normal,hard", metavar="MODES",
                        help="comma-separated: normal, hard (default: both)")
    parser.add_argument("--selby-source", default=None, metavar="DIR",
                        help="a checkout of Selby's repository (its wordle.cpp is built in a "
                             "temporary directory); without it only ours is timed")
    parser.add_argument("--selby-tree", action="store_true",
                        help="also time Selby's solver writing its tree (-p FILE)")
    parser.add_argument("--cxx", default="g++", help="the C++ compiler for Selby's solver (default g++)")
    add_debug_option(parser)
    return parser


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    compile_bytecode()  # (as installed: the timed processes load bytecode)
    from solver.game.errors import InputError
    from solver.game.wordlists import load_word_list

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not modes or any(m not in ("normal", "hard") for m in modes):
        raise InputError(f"--modes takes normal and/or hard, got {args.modes!r}")
    load_word_list("legacy").guess_index(args.opener)  # an unknown opener: exit 2 before any run
    source = Path(args.selby_source) if args.selby_source else None
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as scratch:
        selby = build_selby(source, Path(scratch), args.cxx) if source is not None else None
        rows = []
        for mode in modes:
            rows += bench_mode(mode, args.opener.strip().lower(), args.repeat, selby, args.selby_tree,
                               Path(scratch))
    notes = [f"Whole processes, {args.repeat} interleaved runs each; legacy lists."]
    if source is not None:
        notes.append("Selby's solver built by the benchmark from a checkout of its repository "
                     f"(`{args.cxx} -o wordle wordle.cpp {' '.join(SELBY_FLAGS)}`) in a temporary directory.")
        notes.append(_source_note(source))
    record("startup", f"{args.opener.upper()}'s tree as a whole process, beside Selby's C++ solver",
           ("mode", "program", "median wall s", "median CPU s", "ours / Selby"), rows, notes=notes,
           prog="python -m benchmarks.bench_startup", argv=argv)
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
