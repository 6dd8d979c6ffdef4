"""``python -m tools.report``: heuristic policies scored against the exact optimum, per opener."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name, seed_list

DESCRIPTION = """\
The optimality-gap report. For every opener: the exact optimum (solved on the fly, or read
from a matching tree in ./artifacts, where `solve` writes, the shipped trees or the user
cache) and every policy scored from that opener against every answer; the gap in guesses
per game and in percent; and, per policy, the decisions where it loses most against the
optimum.

Writes <out>/<name>/gap.md, gap.csv (one row per opener and policy), averages.png,
histograms.png and time_per_game.png, and prints a table. Each finished (opener, policy)
result is recorded in the journal <out>/<name>/results/report.journal, so an interrupted run
resumes (a journal written by other solver kernels is refused: use --no-resume).

<name> is by default the word lists' name: legacy, nyt-2024, or custom-<12 hex of the lists'
sha256> for any other lists (never a directory's name). The report directory is checked (and
created) before any work.

Exit status: 0 written, 1 a write or internal error, 2 bad input (word list, opener, policy,
option value, output directory, cache directory), 3 an opener that cannot win every game
within the guess limit, 130 interrupted (rerun to resume).

Policies (see solver/policies/registry.py): mig_a, mig_b (maximum information gain; _float: the
thesis's float tie reading), rollout<n>_<a|b> (Rollout_n over MIG_A / MIG_B, e.g.
rollout10_a, rollout100_b), exact, and families registered by plugins (e.g. uct...,
and the classic agents random_total, random_possible, minimax1, expectimax1, entropy,
qlearning).

Your own policy: --policy module:attr (repeatable; the current directory is searched for the
module first), where attr is a function of the history — fn(history) or fn(history, answers),
history a tuple of (guess, feedback) pairs like ("salet", "bbybb"), answers the words still
possible, returning the next guess — or a solver.policies.base.Policy subclass. With --policy
alone, only those policies are scored.

The belief setting (--belief, the classic agents' report, docs/algorithms.md §8.5): with
--belief answers|guesses|both the agents play every answer choosing their own first guess
(--opener own, the default then; or one fixed opener), randomised agents once per seed of
--seeds (mean ± sd), and the report goes to <out>/<name>/classic.md and classic.csv (<name>
by default 'classic' for the legacy lists, '<lists>-classic' for others; journal
results/classic.journal). 'answers': the agent knows the answer list (today's setting);
'guesses' (Orenbach et al.'s): every allowed word consistent with the feedback is possible;
its exact optimum is not computable here, so both settings are compared with the optimum
with the answers known (over every opener: artifacts/<lists>-normal-openers.csv). Policies
default to the classic agents; in 'guesses' only they can play.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.report`` (``wordle report``), with
    :data:`DESCRIPTION` as its help text."""
    from solver.studies.gap_report import DEFAULT_OPENERS, DEFAULT_POLICIES

    parser = argparse.ArgumentParser(prog=prog_name("report"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy",
                        help="word list: 'legacy', 'nyt-2024', 'wordfreq-4', 'wordfreq-6', 'wordfreq-7', "
                             "or a directory with answers.txt "
                             "and guesses.txt (default: legacy)")
    parser.add_argument("--opener", default=None,
                        help="comma-separated first guesses (default: the 16 openers of 'make report': "
                             f"{','.join(DEFAULT_OPENERS)}); with --belief: one opener, or 'own' (the "
                             "default: each agent chooses its first guess)")
    parser.add_argument("--policies", default=None,
                        help=f"comma-separated policy names (default: {','.join(DEFAULT_POLICIES)}; with "
                             "--belief: random_total,random_possible,minimax1,expectimax1,entropy,qlearning)")
    parser.add_argument("--policy", action="append", default=[], metavar="MODULE:ATTR",
                        help="a policy of your own (repeatable): a function of the history or a "
                             "Policy subclass in an importable module (see above)")
    parser.add_argument("--belief", default=None, choices=["answers", "guesses", "both"],
                        help="score the agents in this belief setting (or both) with their own first "
                             "guess and write classic.md / classic.csv (see above)")
    parser.add_argument("--seeds", type=seed_list, default=None,
                        help="with --belief: comma-separated seeds of the randomised agents, whole "
                             "numbers ≥ 0 (default 0,1,2,3,4)")
    parser.add_argument("--out", default="reports", help="parent directory of the report (default: reports)")
    parser.add_argument("--name", default=None,
                        help="report directory name under --out (default: legacy, nyt-2024 or "
                             "custom-<12 hex of the lists' sha256>)")
    _cli.add_jobs_option(parser, what="for the exact solves and the policy runs")
    parser.add_argument("--seed", type=_cli.seed, default=0,
                        help="master seed of randomised policies (default 0)")
    parser.add_argument("--top", type=_cli.whole(0, 10**6), default=10,
                        help="costliest decisions kept per opener and policy (default 10)")
    parser.add_argument("--no-resume", action="store_true",
                        help="discard the journal <out>/<name>/results/report.journal and "
                             "compute every result again")
    add_debug_option(parser)
    return parser


@entry_point(interrupted="interrupted: the finished results are kept in the report's journal "
                         "(<out>/<name>/results/report.journal); rerun the same command to "
                         "resume, or add --no-resume to start over")
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``report`` on ``argv`` (default ``sys.argv[1:]``): the gap report (policies scored
    against the exact optimum per opener), or with ``--belief`` the classic agents' report; writes
    the report directory and prints its tables; returns the exit status (0; 2 for bad input)."""
    args = build_parser().parse_args(argv)
    from pathlib import Path

    from solver.game.errors import InputError
    from solver.game.files import plain_name
    from solver.game.wordlists import load_word_list
    from solver.studies.gap_report import (DEFAULT_OPENERS, DEFAULT_POLICIES, default_report_dir, run_report,
                                           validate_request)
    from solver.studies.render import console_tables

    if args.name is not None:
        plain_name(args.name)  # a directory under --out, never a path out of it
    if args.belief is not None:
        if args.policy:
            raise InputError("--policy goes with the gap report, not with --belief")
        return _classic(args)
    if args.seeds is not None:
        raise InputError("--seeds goes with --belief (the gap report takes one --seed)")
    word_list = load_word_list(args.words)
    for spec in args.policy:
        if ":" not in spec:
            raise InputError(f"--policy {spec!r}: give module:attr (a registered name goes to --policies)")
    if args.policy:
        import os

        sys.path.insert(0, os.getcwd())  # as `python -m` does, also for the `wordle` command
    names = args.policies.split(",") if args.policies else ([] if args.policy else list(DEFAULT_POLICIES))
    openers, policies = validate_request(word_list, (args.opener or ",".join(DEFAULT_OPENERS)).split(","),
                                         names + args.policy)
    out_dir = Path(args.out) / args.name if args.name is not None else default_report_dir(word_list, args.out)
    from solver.exact.book import SHIPPED_DIRS

    # the trees `wordle solve` wrote here (its default output, ./artifacts), then the shipped ones
    trees = (Path("artifacts"), *SHIPPED_DIRS)
    report = run_report(word_list, openers, policies, out_dir, jobs=args.jobs, seed=args.seed,
                        top=args.top, resume=not args.no_resume, artifacts_dir=trees,
                        console=Console(stderr=True))
    console = Console(width=None if sys.stdout.isatty() else 132)
    for table in console_tables(report):
        console.print(table)
    console.print(escape(f"report: {out_dir / 'gap.md'}, {out_dir / 'gap.csv'}, plots in {out_dir}"))
    return EXIT_OK


def _classic(args) -> int:
    """The belief-setting report of the classic agents (solver/studies/classic_report.py)."""
    from pathlib import Path

    from solver.game.errors import InputError
    from solver.game.wordlists import load_word_list
    from solver.studies.classic_report import (DEFAULT_AGENTS, DEFAULT_SEEDS, check_request, console_table,
                                               run_classic_report)

    openers = [o for o in (args.opener or "own").split(",") if o.strip()]
    if len(openers) != 1:
        raise InputError("with --belief give one opener, or 'own'")
    word_list = load_word_list(args.words)
    beliefs = ["answers", "guesses"] if args.belief == "both" else [args.belief]
    policies = (args.policies or ",".join(DEFAULT_AGENTS)).split(",")
    seeds = args.seeds if args.seeds is not None else list(DEFAULT_SEEDS)
    policies, beliefs, seeds, opener = check_request(word_list, policies, beliefs, seeds, openers[0])
    default_name = "classic" if word_list.output_name == "legacy" else f"{word_list.output_name}-classic"
    out_dir = Path(args.out) / (default_name if args.name is None else args.name)
    report = run_classic_report(word_list, policies, beliefs, seeds, out_dir, opener=opener,
                                resume=not args.no_resume, jobs=args.jobs, console=Console(stderr=True))
    console = Console(width=None if sys.stdout.isatty() else 132)
    console.print(console_table(report))
    console.print(escape(f"report: {out_dir / 'classic.md'}, {out_dir / 'classic.csv'}"))
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
