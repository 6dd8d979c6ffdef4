"""``python -m tools.noisy``: the agents in Noisy Wordle and against the Absurdle adversary."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name, seed_list

VARIANTS = ("noisy", "absurdle", "both")

DESCRIPTION = """\
Issue 12's variants played by the agents (docs/algorithms.md §14).

noisy: after each guess that is not the answer, one of the five feedback positions, chosen
uniformly, is recoloured uniformly among the three colours; a correct guess ends the game and
shows all green without noise (a noisy all-green after another guess does not end it). Every
agent plays all answers once per seed, keeping a Bayesian belief over the answers; games are
stopped after --cap guesses. Writes <out>/<name>/noisy.md and noisy.csv: average guesses and
win rate within 6, with 95 % intervals over the games (answers x seeds).

absurdle: every agent plays against the Absurdle adversary (it keeps the largest feedback
class; --tie rule), from the full answer list until it wins; deterministic agents once,
random ones once per seed. Writes <out>/<name>/absurdle.md beside the exact least forced win.

Agents (noisy): random_total, random_possible, minimax1, expectimax1, qlearning, entropy.
Agents (absurdle): the same with entropy = mig_a, and mig_b.

Exit status: 0 written, 1 a write or internal error, 2 bad input (agent, variant, seeds, cap,
word list, tie rule, missing Q-table), 130 interrupted (nothing is kept: rerun).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.noisy`` (``wordle noisy``), with :data:`DESCRIPTION`
    as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("noisy"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="noisy",
                        help="noisy, absurdle or both (default: noisy)")
    parser.add_argument("--agents", default=None,
                        help="comma-separated agents (default: all of the variant's agents)")
    parser.add_argument("--seeds", type=seed_list, default=[0, 1, 2],
                        help="comma-separated seeds, whole numbers >= 0 (default 0,1,2)")
    parser.add_argument("--words", default="legacy",
                        help="word list: 'legacy', 'nyt-2024', 'wordfreq-4', 'wordfreq-6', 'wordfreq-7', "
                             "or a directory with answers.txt and "
                             "guesses.txt (default: legacy)")
    parser.add_argument("--cap", type=_cli.whole(1, 10**6), default=None,
                        help="guesses after which a game is stopped (noisy default 20, absurdle default 100)")
    parser.add_argument("--tie", default="adversarial",
                        help="Absurdle tie rule: adversarial, fewest-clues or lowest-code (default adversarial)")
    parser.add_argument("--out", default="reports", help="parent directory of the report (default: reports)")
    parser.add_argument("--name", default=None,
                        help="report directory under --out (default: classic for the legacy lists, "
                             "<lists>-classic otherwise)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON on stdout")
    add_debug_option(parser)
    return parser


@entry_point(interrupted="interrupted: nothing was written; rerun the command")
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``noisy`` on ``argv`` (default ``sys.argv[1:]``): the agents in Noisy Wordle (once per
    seed, docs/algorithms.md §14) and/or against the Absurdle adversary (§14.6), reports written
    under ``--out``, the figures printed or as JSON (``--json``); returns the exit status (0; 2 for
    bad input)."""
    args = build_parser().parse_args(argv)
    from pathlib import Path

    from solver.evaluation.noisy_scoring import check_cap, check_seeds
    from solver.exact.absurdle import check_tie
    from solver.game.errors import InputError
    from solver.game.feedback import feedback_table
    from solver.game.files import plain_name, prepare_output_dir
    from solver.game.wordlists import load_word_list
    from solver.policies.noisy import DEFAULT_CAP, NOISY_AGENTS, check_agents
    from solver.studies.noisy_report import ABSURDLE_AGENTS, check_absurdle_agents

    variant = args.variant.strip().lower()
    if variant not in VARIANTS:
        raise InputError(f"unknown variant {args.variant!r}: choose noisy, absurdle or both")
    seeds = check_seeds(args.seeds)
    check_tie(args.tie)
    noisy_agents = absurdle_agents = None
    if variant in ("noisy", "both"):
        noisy_agents = check_agents((args.agents or ",".join(NOISY_AGENTS)).split(","))
        noisy_cap = check_cap(DEFAULT_CAP if args.cap is None else args.cap)
    if variant in ("absurdle", "both"):
        absurdle_agents = check_absurdle_agents((args.agents or ",".join(ABSURDLE_AGENTS)).split(","))
        absurdle_cap = check_cap(100 if args.cap is None else args.cap)
    word_list = load_word_list(args.words)
    name = (("classic" if word_list.output_name == "legacy" else f"{word_list.output_name}-classic")
            if args.name is None else plain_name(args.name))
    out_dir = prepare_output_dir(Path(args.out) / name)  # refused (exit 2) before any work
    table = feedback_table(word_list)
    stderr = Console(stderr=True)
    console = Console(width=None if sys.stdout.isatty() else 132)
    summary: dict = {"lists": word_list.output_name, "seeds": seeds}
    if noisy_agents is not None:
        from solver.studies.noisy_report import run_noisy, write_noisy

        scores = run_noisy(word_list, table, noisy_agents, seeds, noisy_cap, console=stderr)
        md, csv_path = write_noisy(scores, out_dir, word_list.output_name, word_list.n_answers)
        summary["noisy"] = [{"agent": s.agent, "games": s.n_games, "cap": s.cap, "average": round(s.average, 5),
                             "average_ci95": [round(x, 5) for x in s.average_ci],
                             "win_rate": round(s.win_rate, 5), "win_rate_ci95": [round(x, 5) for x in s.win_rate_ci],
                             "stopped": s.stopped, "wall_seconds_per_seed": [round(x, 2) for x in s.seed_seconds],
                             "cpu_seconds_per_seed": [round(x, 2) for x in s.seed_cpu_seconds]} for s in scores]
        if not args.json:
            for row in summary["noisy"]:
                console.print(escape(f"{row['agent']:16} {row['games']} games  average {row['average']:.4f} "
                                     f"[{row['average_ci95'][0]:.4f}, {row['average_ci95'][1]:.4f}]  "
                                     f"win ≤ 6 {100 * row['win_rate']:.2f} % "
                                     f"[{100 * row['win_rate_ci95'][0]:.2f}, {100 * row['win_rate_ci95'][1]:.2f}]"
                                     f"  stopped {row['stopped']}  s per seed (wall/CPU) "
                                     + " ".join(f"{w}/{c}" for w, c in zip(row['wall_seconds_per_seed'],
                                                                           row['cpu_seconds_per_seed']))))
            console.print(escape(f"report: {md}, {csv_path}"))
    if absurdle_agents is not None:
        from solver.exact.absurdle import solve_absurdle
        from solver.studies.noisy_report import run_absurdle_agents, write_absurdle

        rows = run_absurdle_agents(word_list, table, absurdle_agents, seeds, args.tie, absurdle_cap, console=stderr)
        least = solve_absurdle(word_list, tie=args.tie).least
        path = write_absurdle(rows, out_dir, args.tie, absurdle_cap, least, word_list.output_name)
        summary["absurdle"] = {"tie": args.tie, "least_forced_win": least,
                               "agents": [{"agent": r["agent"], "guesses": r["lengths"]} for r in rows]}
        if not args.json:
            for r in rows:
                console.print(escape(f"{r['agent']:16} guesses to win against Absurdle: "
                                     f"{' '.join(str(x) for x in r['lengths'])}"))
            console.print(escape(f"least forced win (exact): {least}; report: {path}"))
    if args.json:
        print(json.dumps(summary, indent=1))
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
