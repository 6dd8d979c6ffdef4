"""``python -m tools.make_wordlists``: build the shipped word lists of 4, 6 and 7 letters."""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Sequence
from pathlib import Path

from solver.cli._cli import EXIT_FAILED, EXIT_OK, add_debug_option, entry_point, exit_with, prog_name

DESCRIPTION = """\
Build the word lists wordfreq-4, wordfreq-6 and wordfreq-7 from the wordfreq package's English
word frequencies (recipe and thresholds: solver/game/wordfreq_lists.py and
solver/data/README.md): the answers are the most frequent words of L ASCII letters, the
guesses every such word above a lower Zipf frequency. Writes <out>/wordfreq-<L>/answers.txt
and guesses.txt (each file atomically) and prints the counts and sha256 of each file.

With --check nothing is written: the lists are rebuilt in memory and compared with the files
in <out>; exit status 1 if any differs (e.g. another wordfreq release), 0 if all match.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.make_wordlists`` (``wordle make-wordlists``), with
    :data:`DESCRIPTION` as its help text."""
    from solver.game.wordfreq_lists import RECIPES

    parser = argparse.ArgumentParser(prog=prog_name("make_wordlists"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lengths", default=",".join(str(L) for L in RECIPES),
                        help="comma-separated word lengths to build, of "
                             f"{', '.join(str(L) for L in RECIPES)} (default: all)")
    parser.add_argument("--out", default=None,
                        help="directory holding the lists' folders (default: solver/data)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing: rebuild and compare with the files in --out "
                             "(exit 1 on a difference)")
    add_debug_option(parser)
    return parser


def _lengths(text: str) -> list[int]:
    from solver.game.errors import InputError
    from solver.game.wordfreq_lists import RECIPES

    try:
        lengths = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        lengths = []
    if not lengths or any(L not in RECIPES for L in lengths):
        raise InputError(f"--lengths {text!r}: give some of {', '.join(str(L) for L in RECIPES)}, "
                         "comma-separated")
    return lengths


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``make_wordlists`` on ``argv`` (default ``sys.argv[1:]``): build the wordfreq lists of
    the lengths asked and write them (or, with ``--check``, compare them with the files); returns
    the exit status: 0, or 1 when ``--check`` finds a difference."""
    args = build_parser().parse_args(argv)
    from solver.game.files import prepare_output_dir, write_atomic
    from solver.game.wordfreq_lists import RECIPES, build_recipe
    from solver.game.wordlists import DATA_DIR

    lengths = _lengths(args.lengths)
    from importlib.metadata import version

    from solver.game.wordfreq_lists import WORDFREQ_VERSION

    installed = version("wordfreq")
    if installed != WORDFREQ_VERSION:
        print(f"note: wordfreq {installed} is installed; the shipped lists were built with "
              f"{WORDFREQ_VERSION}, so they may differ")
    out = Path(args.out) if args.out else DATA_DIR
    status = EXIT_OK
    for length in lengths:
        recipe = RECIPES[length]
        answers, guesses = build_recipe(recipe)
        directory = out / recipe.name
        if not args.check:
            prepare_output_dir(directory)
        for kind, words in (("answers", answers), ("guesses", guesses)):
            payload = "".join(w + "\n" for w in words).encode("ascii")
            digest = hashlib.sha256(payload).hexdigest()
            path = directory / f"{kind}.txt"
            if args.check:
                try:
                    same = path.read_bytes() == payload
                except OSError:
                    same = False
                verdict = "matches" if same else "DIFFERS"
                if not same:
                    status = EXIT_FAILED
            else:
                write_atomic(path, payload)
                verdict = "written"
            print(f"{digest}  {recipe.name}/{kind}.txt  {len(words)} words  {verdict}")
    return status


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
