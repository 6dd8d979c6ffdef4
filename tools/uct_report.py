"""``python -m tools.uct_report``: score UCT variants on every answer and write the UCT report
(the work is in :mod:`solver.studies.uct_study`).

``run`` plays each (policy, seed) pair that ``reports/uct/runs.csv`` does not hold yet with
:func:`solver.evaluation.scoring.score_policy` (games mode, per-game seeds from the master seed, joblib
workers), records it in the journal ``runs.journal`` and then adds its row to ``runs.csv`` and
its per-answer guess counts to ``per_answer.csv`` (one column per run). ``render`` rewrites the
generated part of ``reports/uct/uct.md`` (between the ``<!-- generated -->`` markers; the text
around them is kept) from the CSVs, the exact tree (per-answer guesses) and the thesis's
figures.

Policy names as in :func:`solver.policies.uct.parse_policy_name` (``uct50k_a``, ``uct5k_b_o``, ...).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from collections.abc import Sequence

from solver.studies.uct_study import REPORT_DIR, render, run_study, write_report
from tools._cli import EXIT_OK, exit_with


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.uct_report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["run", "render"])
    parser.add_argument("--policies", default="uct50k_a,uct50k_b,uct50k_a_o,uct50k_b_o",
                        help="comma-separated UCT policy names (run)")
    parser.add_argument("--seeds", default="0", help="comma-separated master seeds (run)")
    parser.add_argument("--opener", default="salet")
    parser.add_argument("--words", default="legacy")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--out", default=str(REPORT_DIR), help="report directory")
    parser.add_argument("--force", action="store_true", help="rerun pairs already in runs.csv")
    parser.add_argument("--no-resume", action="store_true",
                        help="discard runs.journal (finished runs of an interrupted study not "
                             "yet in the CSVs) instead of folding it in (run)")
    args = parser.parse_args(argv)
    out_dir = Path(args.out)
    if args.command == "run":
        seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
        run_study(args.policies.split(","), seeds, opener=args.opener, jobs=args.jobs,
                  words=args.words, out_dir=out_dir, force=args.force, resume=not args.no_resume,
                  echo=lambda line: print(line, flush=True))
    else:
        path = write_report(out_dir, render(out_dir, args.words, args.opener))
        print(f"wrote {path}")
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
