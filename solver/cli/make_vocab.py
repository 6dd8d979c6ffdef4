"""``python -m tools.make_vocab``: write vocabulary variants (seeded sub-lists, random letter
strings) as word-list directories that ``--words DIR`` accepts."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name, seed_list

DESCRIPTION = """\
Generate vocabulary variants of a word list (solver/game/variants.py, docs/algorithms.md §12)
and write each as a directory holding answers.txt and guesses.txt (one word per line, sorted),
the form every tool's --words DIR reads.

Kinds (--kinds):
  real  a random sub-list: round(F x answers) of the list's answers and round(F x others) of
        its guesses that are not answers (answer and guess counts scaled together, every
        sampled answer kept as a guess), drawn with numpy.random.default_rng(SEED);
  fake  the same numbers of distinct random strings of the list's word length, each letter
        uniform on a-z, the answers a random subset of the guesses.

One directory per (kind, fraction, seed), named after the list: <out>/sub-0.1000-s0,
<out>/fake-232x1298-L5-s0, ... The same options give the same files, byte for byte. Each file
is written atomically (an existing one is replaced).

Exit status: 0 written, 1 a write or internal error, 2 bad input (word list, unknown kind, a
fraction outside (0, 1], a seed that is not a whole number >= 0, an unusable output
directory), 130 interrupted.

Example:
  python -m tools.make_vocab --kinds real,fake --fractions 0.1 --seeds 0 --out vocab/
  python -m tools.solve --words vocab/sub-0.1000-s0 --opener arise
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.make_vocab`` (``wordle make-vocab``), with
    :data:`DESCRIPTION` as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("make_vocab"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy",
                        help="the list to sample: 'legacy', 'nyt-2024', or a directory with answers.txt "
                             "and guesses.txt (default: legacy)")
    parser.add_argument("--kinds", default="real",
                        help="comma-separated kinds: real, fake (default: real)")
    parser.add_argument("--fractions", default="0.1",
                        help="comma-separated fractions of the list's sizes, each in (0, 1] (default 0.1)")
    parser.add_argument("--seeds", default="0",
                        help="comma-separated seeds, whole numbers ≥ 0 (default 0)")
    parser.add_argument("--out", default="vocab", help="parent directory of the lists (default: vocab)")
    add_debug_option(parser)
    return parser


def split_list(text: str) -> list[str]:
    """``"a, b,,c"`` → ``["a", "b", "c"]``."""
    return [part.strip() for part in str(text).split(",") if part.strip()]


def parse_fractions(text: str) -> list[float]:
    """Fractions from ``"0.05,0.1"``. Raises VariantError for one outside (0, 1] or none."""
    from solver.game.errors import VariantError
    from solver.game.variants import check_fraction

    parts = split_list(text)
    if not parts:
        raise VariantError(f"--fractions {text!r}: give comma-separated numbers in (0, 1], e.g. 0.05,0.1")
    values = []
    for part in parts:
        try:
            value = float(part)
        except ValueError:
            raise VariantError(f"--fractions: {part!r} is not a number in (0, 1]") from None
        values.append(check_fraction(value))
    return list(dict.fromkeys(values))


def parse_seeds(text: str) -> list[int]:
    """Seeds from ``"0,1"`` (:func:`solver.cli._cli.seed_list`). Raises VariantError for one that
    is not a whole number ≥ 0, or none."""
    from solver.game.errors import VariantError

    try:
        return seed_list(text)
    except argparse.ArgumentTypeError as error:
        raise VariantError(f"--seeds: {error}") from None


def write_word_list(word_list, directory) -> None:
    """``directory/answers.txt`` and ``directory/guesses.txt``, each written atomically."""
    from solver.game.files import prepare_output_dir, write_text_atomic

    directory = prepare_output_dir(directory)
    write_text_atomic(directory / "answers.txt", "".join(w + "\n" for w in word_list.answers), "ascii")
    write_text_atomic(directory / "guesses.txt", "".join(w + "\n" for w in word_list.guesses), "ascii")


@entry_point(interrupted="interrupted: the lists already written are complete; rerun to write the rest")
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``make_vocab`` on ``argv`` (default ``sys.argv[1:]``): draw every vocabulary variant
    asked (kinds × fractions × seeds, docs/algorithms.md §12.1) and write each as a word-list
    directory under ``--out`` (lists of equal names written once); returns the exit status (0; 2 for
    bad input)."""
    args = build_parser().parse_args(argv)
    from pathlib import Path

    from rich.console import Console
    from rich.markup import escape

    from solver.game.files import prepare_output_dir
    from solver.game.variants import check_kind, variant_lists
    from solver.game.wordlists import load_word_list

    kinds = list(dict.fromkeys(check_kind(k) for k in split_list(args.kinds)))
    if not kinds:
        from solver.game.errors import VariantError

        raise VariantError(f"--kinds {args.kinds!r}: give real and/or fake")
    fractions, seeds = parse_fractions(args.fractions), parse_seeds(args.seeds)
    base = load_word_list(args.words)
    out = prepare_output_dir(Path(args.out))
    console = Console(highlight=False, soft_wrap=True)
    # every list is drawn before any is written: two outputs never share a directory (a name
    # says everything its lists depend on, so equal names hold equal lists: written once)
    planned: dict[str, tuple] = {}
    for kind in kinds:
        for fraction in fractions:
            for seed in seeds:
                word_list = variant_lists(base, kind, fraction, seed)
                earlier = planned.get(word_list.name)
                if earlier is not None and earlier[0].identity != word_list.identity:
                    from solver.game.errors import VariantError

                    raise VariantError(f"{kind} fraction {fraction!r} seed {seed} and {earlier[1]} "
                                       f"would both be written to {out / word_list.name}: nothing written")
                planned.setdefault(word_list.name, (word_list, f"{kind} fraction {fraction!r} seed {seed}",
                                                    kind, fraction, seed))
    for word_list, _, kind, fraction, seed in planned.values():
        directory = out / word_list.name
        write_word_list(word_list, directory)
        console.print(escape(f"{directory}: {word_list.n_answers} answers, {word_list.n_guesses} guesses "
                             f"({kind}, fraction {fraction!r} of {base.output_name}, seed {seed}; "
                             f"lists {word_list.output_name})"))
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
