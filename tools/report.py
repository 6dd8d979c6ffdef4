"""``python -m tools.report``: heuristic policies scored against the exact optimum, per opener."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from rich.console import Console
from rich.table import Table

from tools._cli import EXIT_OK, exit_with

DESCRIPTION = """\
The optimality-gap report. For every opener: the exact optimum (solved on the fly, or read
from a matching tree in artifacts/ or the user cache) and every policy scored from that
opener against every answer; the gap in guesses per game and in percent; and, per policy,
the decisions where it loses most against the optimum.

Writes <out>/<name>/gap.md, gap.csv (one row per opener and policy), averages.png,
histograms.png and time_per_game.png, and prints a table. Each finished (opener, policy)
result is checkpointed under <out>/<name>/results/, so an interrupted run resumes.

Policies (see solver/registry.py): mig_a, mig_b (maximum information gain; _float: the
thesis's float tie reading), rollout<n>_<a|b> (Rollout_n over MIG_A / MIG_B, e.g.
rollout10_a, rollout100_b), exact, and families registered by plugins (e.g. uct...).
"""


def build_parser() -> argparse.ArgumentParser:
    from solver.studies.gap_report import DEFAULT_OPENERS, DEFAULT_POLICIES

    parser = argparse.ArgumentParser(prog="python -m tools.report", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy",
                        help="word list: 'legacy', 'nyt-2024', or a directory with answers.txt "
                             "and guesses.txt (default: legacy)")
    parser.add_argument("--opener", default=",".join(DEFAULT_OPENERS),
                        help="comma-separated first guesses (default: the 16 openers of "
                             "'make report': %(default)s)")
    parser.add_argument("--policies", default=",".join(DEFAULT_POLICIES),
                        help="comma-separated policy names (default: %(default)s)")
    parser.add_argument("--out", default="reports", help="parent directory of the report (default: reports)")
    parser.add_argument("--name", default=None,
                        help="report directory name under --out (default: the word list's name)")
    parser.add_argument("--jobs", type=int, default=-1,
                        help="worker processes for the exact solves and the policy runs "
                             "(default -1: all cores)")
    parser.add_argument("--seed", type=int, default=0,
                        help="master seed of randomised policies (default 0)")
    parser.add_argument("--top", type=int, default=10,
                        help="costliest decisions kept per opener and policy (default 10)")
    parser.add_argument("--no-resume", action="store_true",
                        help="recompute results already checkpointed under <out>/<name>/results")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from pathlib import Path

    from solver.studies.gap_report import policy_summary, run_report, validate_request
    from solver.game.wordlists import load_word_list

    word_list = load_word_list(args.words)
    openers, policies = validate_request(word_list, args.opener.split(","), args.policies.split(","))
    out_dir = Path(args.out) / (args.name or word_list.name)
    report = run_report(word_list, openers, policies, out_dir, jobs=args.jobs, seed=args.seed,
                        top=args.top, resume=not args.no_resume, console=Console(stderr=True))

    console = Console(width=None if sys.stdout.isatty() else 132)
    table = Table(title=f"optimality gap: {word_list.name} ({word_list.n_answers} answers)")
    for column, justify in (("opener", "left"), ("policy", "left"), ("total", "right"),
                            ("average", "right"), ("optimum", "right"), ("gap", "right"),
                            ("gap %", "right"), ("max", "right"), ("fail", "right"),
                            ("s/game", "right")):
        table.add_column(column, justify=justify)
    for opener in report.openers:
        for i, policy in enumerate(report.policies):
            r = report.row(opener, policy)
            table.add_row(opener if i == 0 else "", policy, str(r["total"]), r["average"],
                          f"{r['optimal_total']} ({r['optimal_average']})" if i == 0 else "",
                          r["gap_guesses"], r["gap_percent"], str(r["max_guesses"]),
                          str(r["failures"]), f"{float(r['seconds_per_game']):.2e}",
                          end_section=i == len(report.policies) - 1)
    console.print(table)
    summary = Table(title="per policy, over the openers")
    for column in ("policy", "mean average", "mean gap", "mean gap %", "worst gap", "failures", "s/game"):
        summary.add_column(column, justify="left" if column == "policy" else "right")
    for s in policy_summary(report):
        summary.add_row(s["policy"], f"{s['mean_average']:.4f}", f"{s['mean_gap']:.4f}",
                        f"{s['mean_gap_percent']:.2f}", f"{s['max_gap']:.4f}", str(s["failures"]),
                        f"{s['seconds_per_game']:.2e}")
    console.print(summary)
    console.print(f"report: {out_dir / 'gap.md'}, {out_dir / 'gap.csv'}, plots in {out_dir}")
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
