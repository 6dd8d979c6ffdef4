"""``python -m tools.assist`` (also ``wordle-assist``): the exact next guess from any position."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from solver.game.spec import MODES
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name
from solver.game.wordlists import LEGACY_LISTS, PLAY_LISTS


DESCRIPTION = """\
The optimal next guess after any history (any opener, on or off any tree, won, lost or still
going), its exact expected number of further guesses (the next one included, every remaining
answer equally likely), and the best alternatives with their exact Q-values (expected guesses
when that guess is played now and the optimum afterwards) and whether each could be the answer.

The state the history leaves is what is searched: after the openers players use most (whose
optimal trees are shipped) or an opener whose tree is cached, it is read from the tree;
after any other opener, or where the history leaves the tree, that state alone is solved
exactly (no whole tree is built). With no history the answer is the proven best opener. With
--budget the answer comes within that many seconds of the start (plus about 0.3 s to print
and exit): what is not proven by then is labelled "best found, not proven" with a proven lower
bound and the gap between the two. Alternatives are ranked until --alternatives-budget.

A history that can no longer be won within six guesses (a lost game) is answered as if the
game went on: the values then count the guesses past the sixth (extra_guesses). When no answer
of the list fits the feedback (an answer outside the list), the allowed guesses that fit are
taken as the possible answers. With --mode hard every guess of the history must use the hints
before it (greens kept in place, revealed letters reused), and only such guesses are advised;
with --mode ultra every guess must be one that could be the answer given the feedback before
it (had it been the answer, each earlier guess would have scored what it did), and a guess
that could not is refused with the earlier guess whose feedback it contradicts.

Feedback is five of b/y/g (gray/yellow/green, first letter first), five digits 0/1/2, or the
squares Wordle shares (⬛ or ⬜, 🟨, 🟩).

Exit status: 0 answered, 1 an internal error (--debug shows the traceback) or a worker process
killed (e.g. by the out-of-memory killer), 2 bad input (a word not in the guess list, malformed
feedback, a history nothing fits, naming the guess at fault; a bad option value or word list),
130 interrupted.
"""


#: Seconds kept from the budget for printing the answer and exiting.
OUTPUT_SECONDS = 0.3
#: The least the search is given, however long start-up took.
MIN_SEARCH_SECONDS = 0.05


def add_game_options(parser: argparse.ArgumentParser, budget_help: str) -> None:
    """--words, --mode, --budget, --tree/--no-tree, --json: shared with ``wordle analyse``."""
    parser.add_argument("--words", default=None,
                        help=f"word list: '{PLAY_LISTS}' (the NYT's lists of today's game, the default; "
                             f"with --tree, the tree's lists), '{LEGACY_LISTS}' (Wordle's original 2022 "
                             "lists, of the published results), 'wordfreq-4', 'wordfreq-6', 'wordfreq-7', "
                             "or a directory with answers.txt and guesses.txt")
    parser.add_argument("--mode", default=None, choices=MODES,
                        help=f"play mode: {_cli.MODE_HELP}; default normal")
    parser.add_argument("--budget", type=_cli.positive_seconds, default=None, metavar="SECONDS", help=budget_help)
    parser.add_argument("--tree", default=None, metavar="ARTIFACT",
                        help="a decision tree to answer from: its game (lists, mode, objective, "
                             "priors, feedback rule) is the one answered, off the tree too "
                             "(default: the shipped and cached trees of the lists and mode)")
    parser.add_argument("--no-tree", action="store_true",
                        help="use no tree: search every state on its own")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    add_debug_option(parser)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.assist`` (``wordle assist``), with
    :data:`DESCRIPTION` as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("assist"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("history", nargs="*", metavar="WORD:FEEDBACK",
                        help="the game so far, e.g. salet:bbbby crane:bbbbb (none: the opener)")
    parser.add_argument("--top", type=_cli.whole(0, 100), default=5,
                        help="alternatives listed with exact Q-values (default 5, 0 for none)")
    parser.add_argument("--alternatives-budget", type=_cli.seconds, default=1.0,
                        metavar="SECONDS",
                        help="rank the alternatives until this many seconds after the start "
                             "(default 1; those not finished are said to be so)")
    add_game_options(parser, "answer within this many seconds of the start (start-up included): "
                             "what is not proven by then is labelled best found, not proven "
                             "(default: wait for the exact answer)")
    return parser


def load_service(args, mode=None):
    """The :class:`solver.exact.service.SearchService` the shared options describe (``mode``,
    a :class:`~solver.game.spec.Mode` or its name, overrides ``--mode``)."""
    from solver.evaluation.assist import service_for
    from solver.game.errors import InputError
    from solver.game.spec import Game
    from solver.game.wordlists import load_word_list

    if args.tree is None:
        words = PLAY_LISTS if args.words is None else args.words
        game = Game(load_word_list(words), mode=mode or args.mode or "normal")
        return service_for(game, book=not args.no_tree)
    import policy_tree

    tree = policy_tree.load(args.tree)  # its lists unless --words names others (refused below)
    lists = load_word_list(args.words) if args.words is not None else tree.word_list
    game = Game(lists, mode=mode or args.mode or "normal")
    word_list, mode = game.word_list, game.mode
    if tree.word_list.identity != word_list.identity or tree.mode != mode:
        raise InputError(f"{args.tree}: a {tree.mode}-mode tree of the {tree.word_list.name!r} lists, "
                         f"not of the {word_list.name!r} lists in {mode} mode (give --words and "
                         "--mode to match it, or leave out --tree)")
    return service_for(game, tree=tree, book=not args.no_tree)


def seconds_left(limit: float | None, started: float, keep: float = 0.0) -> float | None:
    """What is left of ``limit`` seconds counted from ``started`` (monotonic), less ``keep``,
    at least :data:`MIN_SEARCH_SECONDS`; None for no limit."""
    if limit is None:
        return None
    return max(limit - (time.monotonic() - started) - keep, MIN_SEARCH_SECONDS)


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``assist`` on ``argv`` (default ``sys.argv[1:]``): the exact next guess after the history
    (the tree or the opener tables when they answer, else the search), with the ``--top``
    alternatives ranked by Q-value within their budget; the budgets count from the process's start;
    returns the exit status (0; 2 for bad input, :func:`~solver.cli._cli.run_main`)."""
    started = _cli.budget_clock()  # run as a command: the process's start (start-up counts)
    args = build_parser().parse_args(argv)
    from solver.game.errors import InputError

    from solver.exact.service import check_budget

    if args.top < 0:
        raise InputError(f"--top must be at least 0, got {args.top}")
    check_budget(args.budget)
    try:
        check_budget(args.alternatives_budget)
    except InputError:
        raise InputError(f"--alternatives-budget must be a positive number of seconds, got "
                         f"{args.alternatives_budget!r}") from None
    service = load_service(args)
    steps = service.checked_steps(args.history)  # a bad history is refused before any compiling
    from solver.evaluation.warm import ensure_compiled

    # a lookup (a tree's node, the opener tables) is answered at once; a search first has the
    # kernels compiled by a first run, and then the budgets count from there
    if service.needs_search(steps, args.top) and ensure_compiled(service.word_list.word_length):
        started = time.monotonic()
    advice = service.advise(args.history, top=args.top,
                            budget=seconds_left(args.budget, started, OUTPUT_SECONDS),
                            alternatives_budget=seconds_left(args.alternatives_budget, started),
                            notice=lambda sentence: print(sentence, file=sys.stderr, flush=True))
    if args.json:
        print(json.dumps(advice.to_json(), indent=2))
        return EXIT_OK
    from rich.console import Console

    from solver.studies.play_render import render_advice

    Console(highlight=False).print(render_advice(advice))
    return EXIT_OK


def run() -> None:
    """The console entry: ``main()``, then a quick exit (:func:`~solver.cli._cli.exit_with`):
    the interpreter's own teardown (numpy's and numba's modules and LLVM) takes about 0.3 s and
    does nothing for a finished command."""
    exit_with(main, quick_exit=True)


if __name__ == "__main__":
    run()
