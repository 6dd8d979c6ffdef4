"""``python -m tools.solve``: solve the optimal decision tree for an opener and save it."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
from solver.studies.progress import LineProgress
from rich.table import Table

from solver.game.spec import MODES, OBJECTIVES
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name, journal_kept

DESCRIPTION = """\
Solve the exact optimal Wordle policy for a fixed opener (every game won within the guess
limit; by default the minimum total guesses, with --objective worst the minimum of the most
guesses any game needs, with total,worst / total,tail / worst,total one objective and then
another among its optimal trees) and write it as a msgpack decision-tree artifact.

The root's feedback classes are solved in parallel; each finished class is recorded in the
solve's journal (in the user cache, journals/), so an interrupted run resumes where it
stopped; the journal is deleted only once the artifact is written. A journal written by
another solver version or other kernels is refused: use --no-resume. The output path is
checked (its directory created) before any work. The artifact holds no timing (two solves
write the same bytes); the wall time is printed.

Exit status: 0 written, 1 a write or internal error, or a worker process killed (e.g. by the
out-of-memory killer; rerun to resume), 2 bad input (word list, opener, option value, output
path, cache directory), 3 unwinnable (no policy with this opener wins every game within the
guess limit), 130 interrupted (rerun to resume).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.solve`` (``wordle solve``), with :data:`DESCRIPTION`
    as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("solve"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy",
                        help="word list: 'legacy', 'nyt-2024', 'wordfreq-4', 'wordfreq-6', 'wordfreq-7', "
                             "or a directory with answers.txt "
                             "and guesses.txt (default: legacy)")
    parser.add_argument("--opener", default="salet", help="first guess (default: salet)")
    _cli.add_jobs_option(parser, what="for the root classes")
    parser.add_argument("--out", default=None,
                        help="artifact path (default: artifacts/<list>-<mode>-<opener>.msgpack, "
                             "<list> = a shipped list's name (legacy, wordfreq-6, …) or "
                             "custom-<12 hex of the lists' sha256> "
                             "for any other lists)")
    parser.add_argument("--guess-limit", dest="guess_limit", type=_cli.guess_limit, default=6,
                        metavar="K",
                        help="every game must be won within K guesses (default 6); with the "
                             "total objective this is the least total subject to max ≤ K")
    parser.add_argument("--mode", choices=MODES, default="normal",
                        help=f"{_cli.MODE_HELP}; default normal")
    parser.add_argument("--priors", default=None, metavar="FILE|wordfreq",
                        help="answer weights: a file of word,weight lines (every answer, positive "
                             "weights) or 'wordfreq' (English word frequencies); the tree then "
                             "minimises the expected guesses under them (total objective only)")
    parser.add_argument("--feedback", default="standard", metavar="RULE",
                        help="feedback rule: standard (default) or yellow (Yellow Wordle: every "
                             "green shown as yellow unless the guess is right; SALET's tree wins "
                             "every game within 6 guesses, docs/variants.md)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="total",
                        help="total: minimise the total guesses over all answers (default); "
                             "worst: the worst case, the most guesses any answer needs; "
                             "total,worst: the least total, then among those trees the least "
                             "worst case; total,tail: the least total, then the fewest games at "
                             "the deepest level, then the next; worst,total: the least worst "
                             "case, then the least total (docs/algorithms.md §2.5)")
    parser.add_argument("--no-resume", action="store_true",
                        help="discard the journal of an interrupted run and solve from scratch")
    add_debug_option(parser)
    return parser


@entry_point(interrupted=journal_kept("root classes", "solve"))
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``solve`` on ``argv`` (default ``sys.argv[1:]``): solve the optimal decision tree for the
    opener under the game's rules (mode, objective, guess limit, feedback rule, priors) and save it
    as an artifact (docs/algorithms.md §7); returns the exit status (0; 2 for bad input, 3 if no
    tree from the opener wins every answer in time, 130 interrupted, the journal kept)."""
    args = build_parser().parse_args(argv)
    from solver.exact.bellman import solve_and_save
    from solver.game.spec import FeedbackRule, Game, Objective
    from solver.game.wordlists import load_word_list

    from solver.game.feedback import check_feedback_rule

    check_feedback_rule(args.feedback)  # one line and exit 2 before the lists are read
    console = Console(stderr=True)
    word_list = load_word_list(args.words)
    priors = None
    if args.priors is not None:
        from solver.game.priors import load_priors

        priors = load_priors(word_list, args.priors)
    game = Game(word_list, args.guess_limit, args.feedback, args.mode, args.objective, priors)
    bar = LineProgress(TextColumn("[bold]solving[/] {task.description}"), BarColumn(),
                   TextColumn("{task.completed}/{task.total} answers"), TimeElapsedColumn(),
                   console=console, transient=True)
    tasks = []

    def progress(done: int, total: int) -> None:
        if not tasks:  # the bar appears once the checks have passed and the solve has begun
            bar.start()
            tasks.append(bar.add_task(escape(f"{word_list.name} / {args.opener}"), total=total))
        bar.update(tasks[0], completed=done)

    try:
        # checks the opener, options, output path and cache before any work
        result, path = solve_and_save(game, args.opener, args.out, jobs=args.jobs,
                                      resume=not args.no_resume, progress=progress)
    finally:
        if tasks:
            bar.stop()
    title = {Objective.TOTAL: "optimal tree", Objective.WORST: "least worst-case tree"}.get(
        game.objective, f"lexicographic optimum ({game.objective})")
    rule = "" if game.feedback is FeedbackRule.STANDARD else f", {game.feedback} feedback"
    mode = "ultra-hard" if game.ultra else game.mode
    table = Table(title=escape(f"{title}: {word_list.name}, {mode} mode{rule}, "
                               f"opener {result.opener}"))
    table.add_column("quantity")
    table.add_column("value", justify="right")
    table.add_row("answers", str(word_list.n_answers))
    table.add_row("total guesses", str(result.total))
    table.add_row("average guesses", f"{result.average:.5f}")
    if priors is not None:
        table.add_row("priors", escape(f"{priors.source} (sha256 {priors.sha256[:12]}…)"))
        table.add_row("expected guesses under the priors", f"{result.expected_guesses:.5f}")
    table.add_row("max guesses", str(result.max_guesses))
    table.add_row(f"histogram (1..{game.guess_limit})", " ".join(str(h) for h in result.histogram))
    if game.guess_limit > 6:
        won = sum(result.histogram[:6])
        table.add_row("won within 6", f"{won} ({100 * won / word_list.n_answers:.2f}%)")
    table.add_row("tree nodes", str(result.tree.n_nodes))
    table.add_row("states searched", str(result.stats.get("states_searched", 0)))
    table.add_row("wall seconds", f"{result.seconds:.2f}")
    table.add_row("artifact", escape(str(path)))
    Console().print(table)
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then a quick exit with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main, quick_exit=True)  # the artifact and the journal are closed by then


if __name__ == "__main__":
    run()
