"""``python -m tools.vocab_report``: the classic agents beside the exact optimum on vocabulary
variants (real sub-lists and random letter strings) of growing size."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name

DESCRIPTION = """\
The vocabulary-variant report (solver/studies/vocab_report.py, docs/algorithms.md §12). For
every kind (real: a seeded random sub-list of --words, answer and guess counts scaled by the
fraction together; fake: random letter strings of the same sizes), every fraction and every
seed, one list is generated (as python -m tools.make_vocab writes it), and on it:

- the exact optimum over all openers (python -m tools.prove's proof: every opener bounded,
  the best solved exactly), total and average guesses within 6 guesses;
- every agent scored on all answers in the 'answers' belief setting, choosing its own first
  guess: average guesses, win rate (won within 6), gap to the optimum, seconds per game.
  Randomised agents play with the list's seed. qlearning plays a table trained on that list
  (the shipped table belongs to the legacy lists): --episodes-per-answer x answers episodes.

Writes <out>/vocab.csv (one row per list and agent, the optimum as agent 'optimum'),
<out>/vocab.md (one table per kind: mean ± sd over the seeds) and <out>/vocab.png (average
guesses against answers, one line per agent and the optimum, a panel per kind). Each finished
piece is recorded in <out>/results/vocab.journal, so an interrupted run resumes; a journal of
another request (lists, grid, agents, training) or other solver kernels is refused: use
--no-resume to start over.

Exit status: 0 written, 1 a write or internal error, 2 bad input (word list, unknown agent,
unknown kind, a fraction outside (0, 1], a seed that is not a whole number >= 0, a foreign
journal, an unusable output or cache directory), 130 interrupted (rerun to resume).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.vocab_report`` (``wordle vocab-report``), with
    :data:`DESCRIPTION` as its help text."""
    from solver.studies.vocab_report import (DEFAULT_AGENTS, DEFAULT_FRACTIONS, DEFAULT_KINDS, DEFAULT_SEEDS,
                                             EPISODES_PER_ANSWER)

    parser = argparse.ArgumentParser(prog=prog_name("vocab_report"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy",
                        help="the lists the variants are drawn from: 'legacy', 'nyt-2024', or a directory "
                             "with answers.txt and guesses.txt (default: legacy)")
    parser.add_argument("--kinds", default=",".join(DEFAULT_KINDS),
                        help=f"comma-separated kinds: real, fake (default: {','.join(DEFAULT_KINDS)})")
    parser.add_argument("--fractions", default=",".join(f"{f:g}" for f in DEFAULT_FRACTIONS),
                        help="comma-separated fractions in (0, 1] (default: "
                             f"{','.join(f'{f:g}' for f in DEFAULT_FRACTIONS)})")
    parser.add_argument("--seeds", default=",".join(str(s) for s in DEFAULT_SEEDS),
                        help="comma-separated list seeds, whole numbers ≥ 0 (default: "
                             f"{','.join(str(s) for s in DEFAULT_SEEDS)})")
    parser.add_argument("--agents", default=",".join(DEFAULT_AGENTS),
                        help=f"comma-separated agents (default: {','.join(DEFAULT_AGENTS)})")
    parser.add_argument("--episodes-per-answer", type=_cli.positive_count, default=EPISODES_PER_ANSWER,
                        help="Q-learning training episodes per answer of each list (default %(default)s)")
    parser.add_argument("--out", default="reports/classic", help="report directory (default: reports/classic)")
    _cli.add_jobs_option(parser, default=1, what="of the opener proofs")
    parser.add_argument("--no-resume", action="store_true",
                        help="discard the journal <out>/results/vocab.journal and compute everything again")
    add_debug_option(parser)
    return parser


@entry_point(interrupted="interrupted: the finished pieces are kept in the report's journal "
                         "(<out>/results/vocab.journal); rerun the same command to resume, or add "
                         "--no-resume to start over")
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``vocab_report`` on ``argv`` (default ``sys.argv[1:]``): the classic agents and the exact
    optimum on every vocabulary variant asked (docs/algorithms.md §12.4), the report written under
    ``--out`` and its table printed; returns the exit status (0; 2 for bad input)."""
    args = build_parser().parse_args(argv)
    from rich.console import Console
    from rich.markup import escape

    from solver.game.wordlists import load_word_list
    from solver.studies.vocab_report import check_request, console_table, run_vocab_report
    from solver.cli.make_vocab import parse_fractions, parse_seeds, split_list

    agents, kinds, fractions, seeds = check_request(split_list(args.agents), split_list(args.kinds),
                                                    parse_fractions(args.fractions), parse_seeds(args.seeds))
    base = load_word_list(args.words)
    report = run_vocab_report(base, agents, kinds, fractions, seeds, args.out,
                              episodes_per_answer=args.episodes_per_answer, jobs=args.jobs,
                              resume=not args.no_resume, console=Console(stderr=True))
    console = Console(width=None if sys.stdout.isatty() else 132)
    console.print(console_table(report))
    out = report.out_dir
    console.print(escape(f"report: {out / 'vocab.md'}, {out / 'vocab.csv'}, {out / 'vocab.png'}"))
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
