"""``python -m tools.uct_report``: score UCT variants — and any other registered policy, such as
the classic agents — on every answer and write the UCT report (the work is in
:mod:`solver.studies.uct_study`).

``run`` plays each (policy, seed) pair that ``reports/uct/runs.csv`` does not hold yet with
:func:`solver.evaluation.scoring.score_policy` from the fixed opener (randomised policies: games
mode, per-game seeds from the master seed, joblib workers; deterministic ones: once, tree mode,
whatever the seeds), records it in the journal ``runs.journal`` and then adds its row to ``runs.csv`` and
its per-answer guess counts to ``per_answer.csv`` (one column per run). ``render`` rewrites the
generated part of ``reports/uct/uct.md`` (between the ``<!-- generated -->`` markers; the text
around them is kept) from the CSVs, the exact tree (per-answer guesses) and the thesis's
figures.

Both check the word list, opener, options and report directory before any work (``render``
writes nothing when the exact optimum of the opener cannot be had, or when the CSVs hold runs
of other lists or another opener). The report directory is ``reports/uct`` for the legacy
lists and ``reports/uct-<name>`` for any other (``<name>``: nyt-2024, or custom-<12 hex of the
lists' sha256>), unless ``--out`` says otherwise.

Policy names as in :mod:`solver.policies.registry`: UCT names (``uct50k_a``, ``uct5k_b_o``, ...,
:func:`solver.policies.uct.parse_policy_name`), the classic agents (``random_total``,
``random_possible`` — seeded —, ``minimax1``, ``expectimax1``, ``entropy``, ``qlearning``), ``mig_a``,
``rollout10_b``, .... An unknown name, a negative seed or a missing Q-table is refused before any
work (exit 2).

Exit status: 0 done, 1 a write or internal error, 2 bad input, 130 interrupted (``run``
resumes when rerun).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from collections.abc import Sequence

from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name, seed_list


def _interrupted(argv: list[str]) -> str:
    if "render" in argv:
        return "interrupted; nothing was written"
    return ("interrupted: every finished run is kept (runs.csv, per_answer.csv, runs.journal); "
            "rerun the same command to resume")


@entry_point(interrupted=_interrupted)
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``uct_report`` on ``argv`` (default ``sys.argv[1:]``): ``run`` scores each (policy, seed)
    pair not yet in the study's ``runs.csv`` (module docstring); ``render`` writes the report from
    the CSVs; returns the exit status (0; 2 for bad input, 130 interrupted with finished runs kept)."""
    parser = argparse.ArgumentParser(prog=prog_name("uct_report"), description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["run", "render"])
    parser.add_argument("--policies", default="uct50k_a,uct50k_b,uct50k_a_o,uct50k_b_o",
                        help="comma-separated policy names (run): UCT names such as uct50k_a, or any "
                             "registered policy, e.g. minimax1,random_possible,qlearning")
    parser.add_argument("--seeds", type=seed_list, default=[0],
                        help="comma-separated master seeds, whole numbers ≥ 0 (run; default 0)")
    parser.add_argument("--opener", default="salet")
    parser.add_argument("--words", default="legacy")
    _cli.add_jobs_option(parser, default=2)
    parser.add_argument("--out", default=None,
                        help="report directory (default: reports/uct for the legacy lists, "
                             "reports/uct-<name> for others)")
    parser.add_argument("--force", action="store_true", help="rerun pairs already in runs.csv")
    parser.add_argument("--no-resume", action="store_true",
                        help="discard runs.journal (finished runs of an interrupted study not "
                             "yet in the CSVs) instead of folding it in (run)")
    add_debug_option(parser)
    args = parser.parse_args(argv)
    from solver.game.wordlists import load_word_list
    from solver.studies.uct_study import default_study_dir, render, run_study, write_report

    word_list = load_word_list(args.words)
    out_dir = Path(args.out) if args.out else default_study_dir(word_list)
    if args.command == "run":
        run_study(args.policies.split(","), args.seeds, opener=args.opener, jobs=args.jobs,
                  words=word_list, out_dir=out_dir, force=args.force, resume=not args.no_resume,
                  echo=lambda line: print(line, flush=True))
    else:
        path = write_report(out_dir, render(out_dir, word_list, args.opener))
        print(f"wrote {path}")
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
