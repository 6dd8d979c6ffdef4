"""``python -m benchmarks.bench_policies``: how fast the heuristic policies score every game.

Prints, for an opener (SALET) on a word list (legacy), the total and the wall seconds of
scoring all games with MIG_A and MIG_B (warm: numba compiled and the table loaded) and with
Rollout_10 A and B (warm code, cold memo: a fresh base-heuristic memo, then again warm);
optionally Rollout_100_A and the whole gap report. Targets (issue 4): MIG ≤ 1 s warm,
Rollout_10 ≤ 30 s, the 16-opener report ≤ 15 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence

from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_policies", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy", help="word list (default: legacy)")
    parser.add_argument("--opener", default="salet", help="opener (default: salet)")
    parser.add_argument("--rollout100", action="store_true", help="also time Rollout_100_A")
    parser.add_argument("--report", action="store_true",
                        help="also time the full 16-opener gap report (in a temporary directory; "
                             "exact trees come from the cache when present)")
    _cli.add_jobs_option(parser, default=2, what="for --report")
    add_debug_option(parser)
    return parser


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    from solver.game.feedback import feedback_table
    from solver.game.protocol import Belief
    from solver.policies.mig import MIGPolicy
    from solver.policies.rollout import RolloutPolicy, clear_memos
    from solver.evaluation.scoring import score_policy
    from solver.game.wordlists import load_word_list

    word_list = load_word_list(args.words)
    word_list.guess_index(args.opener)
    table = feedback_table(word_list)
    rows = []

    def timed(label, policy):
        result = score_policy(policy, args.opener)
        rows.append((label, result.total, f"{result.average:.4f}", result.seconds, result.n_games))

    for variant in ("a", "b"):
        policy = MIGPolicy(word_list, table, variant)
        score_policy(policy, args.opener)  # compile / load the kernels
        timed(f"MIG_{variant.upper()} (warm)", policy)
    candidates = [(10, "a"), (10, "b")] + ([(100, "a")] if args.rollout100 else [])
    warm_up = RolloutPolicy(word_list, table, 10, "a")
    warm_up.choose(Belief(warm_up_state(word_list, table, args.opener), 5))  # compile only
    for n, base in candidates:
        clear_memos()
        timed(f"Rollout_{n}_{base.upper()} (cold memo)", RolloutPolicy(word_list, table, n, base))
        timed(f"Rollout_{n}_{base.upper()} (warm memo)", RolloutPolicy(word_list, table, n, base))
    table_out = Table(title=f"policies over all games: {word_list.name}, opener {args.opener}")
    for column in ("policy", "total", "average", "seconds", "ms per game"):
        table_out.add_column(column, justify="left" if column == "policy" else "right")
    for label, total, average, seconds, games in rows:
        table_out.add_row(label, str(total), average, f"{seconds:.3f}", f"{1000 * seconds / games:.3f}")
    Console().print(table_out)
    figures = [(label, str(total), average, f"{seconds:.3f}", f"{1000 * seconds / games:.3f}")
               for label, total, average, seconds, games in rows]
    notes = []
    if args.report:
        from solver.studies.gap_report import DEFAULT_OPENERS, DEFAULT_POLICIES, run_report

        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            run_report(word_list, DEFAULT_OPENERS, DEFAULT_POLICIES, tmp, jobs=args.jobs)
            seconds = time.perf_counter() - started
        line = (f"full report ({len(DEFAULT_OPENERS)} openers × {len(DEFAULT_POLICIES)} policies, "
                f"{args.jobs} jobs): {seconds:.1f} s")
        Console().print(line)
        notes.append(f"The gap report, {line}.")
    record("policies", f"Heuristics over all games: {word_list.name} lists, opener {args.opener.upper()}",
           ("policy", "total", "average", "seconds", "ms per game"), figures, notes=notes,
           prog="python -m benchmarks.bench_policies", argv=argv)
    return EXIT_OK


def warm_up_state(word_list, table, opener):
    """A small state reached after the opener, to compile the rollout kernels on."""
    import numpy as np

    codes = table[word_list.guess_index(opener)]
    values, counts = np.unique(codes, return_counts=True)
    code = values[np.argmax(np.where(counts >= 2, -counts, -10**9))]
    return np.flatnonzero(codes == code).astype(np.int32)


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
