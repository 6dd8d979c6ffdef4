"""``python -m tools.book``: build the shipped opening book (``artifacts/book/``).

The book holds the optimal decision tree of each popular opener
(:data:`solver.exact.book.POPULAR_OPENERS`) for a list and mode, so that players' questions
after those openers are lookups (:mod:`solver.exact.service`). Trees already there are kept
(``--force`` solves them again); each is written atomically as a standard artifact.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from solver.game.spec import MODES
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name

DESCRIPTION = """\
Solve and write the optimal decision tree of each popular opener for a word list and mode
into artifacts/book/ (the opening book the assistant, the analysis and the web page read).
Openers whose tree is already there are skipped unless --force. An opener that cannot win
every game within six guesses (possible in hard mode) is reported and skipped.

Exit status: 0 written, 1 a write or internal error, 2 bad input, 130 interrupted (the
solve's journal keeps the finished part).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.book`` (``wordle book``), with :data:`DESCRIPTION`
    as its help text."""
    from solver.exact.book import POPULAR_OPENERS

    parser = argparse.ArgumentParser(prog=prog_name("book"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy", help="word list (default: legacy)")
    parser.add_argument("--mode", default="normal", choices=MODES)
    parser.add_argument("--openers", default=None,
                        help="comma-separated openers (default: the popular openers, "
                             f"{','.join(POPULAR_OPENERS)}, those in the guess list)")
    parser.add_argument("--directory", default=None,
                        help="where to write (default: artifacts/book of the project)")
    _cli.add_jobs_option(parser)
    parser.add_argument("--force", action="store_true", help="solve again trees already written")
    add_debug_option(parser)
    return parser


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``book`` on ``argv`` (default ``sys.argv[1:]``): solve and save the optimal tree of each
    opener (the popular openers in the guess list, or ``--openers``), skipping trees already written
    unless ``--force``; an opener no tree wins with is recorded (an ``.unwinnable`` marker beside
    its path) and skipped; returns the exit status (0; 2 for an opener not in the list)."""
    args = build_parser().parse_args(argv)
    from rich.console import Console

    from solver.exact.bellman import UnwinnableError, artifact_path, solve_and_save
    from solver.exact.book import ARTIFACTS_DIR
    from solver.game.wordlists import load_word_list

    console = Console(stderr=True, highlight=False)
    from solver.game.spec import Game

    word_list = load_word_list(args.words)
    game = Game(word_list, mode=args.mode)
    directory = args.directory or ARTIFACTS_DIR / "book"
    if args.openers is None:
        from solver.exact.book import POPULAR_OPENERS

        openers = [w for w in POPULAR_OPENERS if w in set(word_list.guesses)]
    else:
        openers = [w.strip().lower() for w in args.openers.split(",") if w.strip()]
        for opener in openers:
            word_list.guess_index(opener)  # every opener checked before any work
    for opener in openers:
        path = artifact_path(game, opener, directory=directory)
        shipped = artifact_path(game, opener, directory=ARTIFACTS_DIR)
        marker = path.with_name(path.name + ".unwinnable")
        if shipped.exists() or ((path.exists() or marker.exists()) and not args.force):
            console.print(f"{opener}: kept ({shipped if shipped.exists() else path})")
            if marker.exists():
                _record_relaxed(game, opener, path, console)
            continue
        try:
            result, written = solve_and_save(game, opener, out=path, jobs=args.jobs)
        except UnwinnableError as exc:  # recorded, so no player's question solves it again
            from solver.game.files import write_atomic

            write_atomic(path.with_name(path.name + ".unwinnable"), f"{exc}\n".encode())
            console.print(f"{opener}: no tree wins every game, {exc}")
            _record_relaxed(game, opener, path, console)
            continue
        console.print(f"{opener}: total {result.total} ({result.average:.5f}), max "
                      f"{result.max_guesses}, {result.seconds:.1f} s → {written}")
    return EXIT_OK


def _record_relaxed(game, opener: str, path, console) -> None:
    """Beside an opener's ``.unwinnable`` note, its finite value (docs/algorithms.md §15.4)
    as ``<tree file>.relaxed``, computed once (seconds), unless it is there."""
    import numpy as np

    from solver.exact.service import SearchService
    from solver.game.files import write_atomic

    record = path.with_name(path.name + ".relaxed")
    if record.exists():
        return
    service = SearchService(game, book=False, cache=False)
    state = np.arange(game.word_list.n_answers, dtype=np.int32)
    relaxed = service.relaxed_q(state, game.guess_limit, [], opener)
    write_atomic(record, service.book.relaxed_record(opener, relaxed))
    console.print(f"{opener}: finite value Q* {relaxed.q} with {relaxed.extra} guess(es) past "
                  f"the limit, {relaxed.unsafe} answers with no sure finish → {record}")


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    sys.exit(run())
