"""``python -m tools.warm`` (``wordle warm``): compile the numba kernels once, at install time."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name

DESCRIPTION = """\
Compile, once, every numba kernel that assist, analyse, tree next/play, and the web server
need: the search of the next guess with and without a budget, a game's analysis, an opener's
tree; normal, hard and ultra-hard mode, the worst case and priors. numba keeps them in its
cache, so no command's budget pays for compiling them. One line on stderr per step.

Run it after installing (make install does): otherwise the first command that needs the
kernels does the same before its budget starts (a few minutes on a fresh install, with the
same lines), and the server before it says it is ready. With the kernels already compiled
(a stamp beside numba's cache says so) it does nothing; --force loads them all again (and
compiles what numba's cache lacks).

Exit status: 0 done, 1 an internal error, 2 bad input, 130 interrupted.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.warm`` (``wordle warm``), with :data:`DESCRIPTION`
    as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("warm"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lengths", default="5", metavar="LIST",
                        help="word lengths to compile for, comma-separated among 4,5,6,7 (default 5: the "
                             "shipped play lists; 6 and 7 take 16-bit feedback codes, other kernels)")
    parser.add_argument("--force", action="store_true",
                        help="run every step even when the stamp says the kernels are compiled")
    add_debug_option(parser)
    return parser


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``warm`` on ``argv`` (default ``sys.argv[1:]``): compile the numba kernels for the word
    lengths asked that are not compiled yet (all of them with ``--force``); returns the exit status
    (0; 2 for a length with no source list)."""
    args = build_parser().parse_args(argv)
    from solver.evaluation.warm import SOURCE_LISTS, compile_kernels, is_compiled, print_progress
    from solver.game.errors import InputError

    try:
        lengths = sorted({int(part) for part in args.lengths.split(",") if part.strip()})
    except ValueError:
        lengths = []
    if not lengths or any(length not in SOURCE_LISTS for length in lengths):
        raise InputError(f"--lengths must name word lengths among {', '.join(map(str, SOURCE_LISTS))}, "
                         f"got {args.lengths!r}")
    todo = [length for length in lengths if args.force or not is_compiled(length)]
    if not todo:
        print("the kernels are compiled already (numba's cache); --force runs the warm-up again")
        return EXIT_OK
    seconds = compile_kernels(todo, progress=print_progress)
    print(f"kernels compiled for {', '.join(f'{n}-letter' for n in todo)} words in {seconds:.1f} s")
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
