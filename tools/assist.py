"""``python -m tools.assist`` (also ``wordle-assist``): the exact next guess from any position."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence

from tools._cli import EXIT_OK, add_debug_option, entry_point, exit_with

#: When this module was loaded: run as a command (:func:`run`), the interpreter's start give
#: or take a few milliseconds, and ``--budget`` counts from here (start-up is part of the
#: wait); ``main()`` called in a process counts from its own call.
STARTED = time.monotonic()
_as_command = False

DESCRIPTION = """\
The optimal next guess after any history (on or off the optimal SALET tree, any opener), its
exact expected number of further guesses (the next one included, every remaining answer
equally likely), and the best alternatives with their exact Q-values (expected guesses when
that guess is played now and the optimum afterwards) and whether each could be the answer.

Past the opener, a history that follows the optimal tree is answered from the tree; any other
is solved exactly (a large state in a worker process). The answer comes within --budget
seconds of the start, start-up included: the optimum is searched first, the alternatives with
the time left. When the optimum cannot be proven in time (a poor opener leaves thousands of
answers), the best guess found so far is printed, labelled "best found, not proven", with a
proven lower bound on the optimum; exact answers are labelled exact, and alternatives not
ranked in time are said to be so. With --mode hard every guess of the history must use the
hints before it (greens kept in place, revealed letters reused), and only such guesses are
advised; the hard-mode tree (artifacts/<list>-hard-salet.msgpack) answers on its path.

Feedback is five of b/y/g (gray/yellow/green, first letter first), five digits 0/1/2, or the
squares Wordle shares (⬛ or ⬜, 🟨, 🟩).

Exit status: 0 answered, 1 an internal error (--debug shows the traceback), 2 bad input (a
word not in the guess list, malformed feedback, a history no answer fits, naming the guess at
fault; a bad option value or word list), 130 interrupted.
"""


#: Seconds kept from the budget for printing the answer and exiting.
OUTPUT_SECONDS = 0.3
#: The least the search is given, however long start-up took.
MIN_SEARCH_SECONDS = 0.05


def add_game_options(parser: argparse.ArgumentParser, budget_help: str) -> None:
    """--words, --mode, --budget, --tree/--no-tree, --json: shared with ``tools.analyse``."""
    parser.add_argument("--words", default="legacy",
                        help="word list: 'legacy', 'nyt-2024', 'wordfreq-4', 'wordfreq-6', 'wordfreq-7', "
                             "or a directory with answers.txt and "
                             "guesses.txt (default: legacy)")
    parser.add_argument("--mode", default="normal", choices=("normal", "hard"),
                        help="play mode: normal (default) or hard (the NYT rule: every guess "
                             "keeps the greens in place and uses every revealed letter)")
    parser.add_argument("--budget", type=float, default=10.0, metavar="SECONDS", help=budget_help)
    parser.add_argument("--tree", default=None, metavar="ARTIFACT",
                        help="an optimal decision tree of the same lists and mode to answer "
                             "from (default: artifacts/<list>-<mode>-salet.msgpack when it exists)")
    parser.add_argument("--no-tree", action="store_true", help="solve every state, use no tree")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    add_debug_option(parser)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.assist", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("history", nargs="*", metavar="WORD:FEEDBACK",
                        help="the game so far, e.g. salet:bbbby crane:bbbbb (none: the opener)")
    parser.add_argument("--top", type=int, default=5,
                        help="alternatives listed with exact Q-values (default 5, 0 for none)")
    add_game_options(parser, "seconds from the start (start-up included) until the answer: the "
                             "search stops then, and an optimum not proven by then is given as "
                             "the best guess found so far, labelled not proven (default 10)")
    return parser


def load_game(args):
    """(word list, tree or None) from the shared options."""
    from solver.evaluation.assist import default_tree, tree_for
    from solver.game.errors import InputError
    from solver.game.wordlists import load_word_list

    word_list = load_word_list(args.words)
    if args.no_tree or args.tree is None:
        return word_list, None if args.no_tree else default_tree(word_list, mode=args.mode)
    import policy_tree

    tree = policy_tree.load(args.tree)
    if tree_for(word_list, tree, args.mode) is None:
        raise InputError(f"{args.tree}: not an optimal total-guesses tree of the {word_list.name!r} "
                         f"lists in {args.mode} mode (give --words and --mode to match it, or "
                         "--no-tree)")
    return word_list, tree


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    started = STARTED if _as_command else time.monotonic()
    args = build_parser().parse_args(argv)
    from solver.evaluation.assist import advise, check_options

    check_options(args.mode, args.budget)
    word_list, tree = load_game(args)
    # what is left of the budget once started, less the time to print the answer
    budget = max(args.budget - (time.monotonic() - started) - OUTPUT_SECONDS, MIN_SEARCH_SECONDS)
    advice = advise(word_list, args.history, top=args.top, budget=budget, tree=tree,
                    mode=args.mode)
    if args.json:
        print(json.dumps(advice.to_json(), indent=2))
        return EXIT_OK
    from rich.console import Console

    from solver.studies.play_render import render_advice

    Console(highlight=False).print(render_advice(advice))
    return EXIT_OK


def run() -> None:
    """The console entry: ``main()``, then a quick exit. The interpreter's own shutdown (tearing
    down numpy's and numba's modules and LLVM) takes about 0.3 s and does nothing for a
    finished command: output is flushed and the exit handlers run, then the process ends."""
    global _as_command
    _as_command = True
    try:
        exit_with(main)
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    else:  # pragma: no cover - exit_with always exits
        status = 0
    fast_exit(status)


def fast_exit(status: int) -> None:
    """Flush stdout and stderr, run the ``atexit`` handlers, and end the process with
    ``status`` without the interpreter's teardown."""
    import atexit

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    run_exit = getattr(atexit, "_run_exitfuncs", None)
    if run_exit is not None:
        run_exit()
    os._exit(status)


if __name__ == "__main__":
    run()
