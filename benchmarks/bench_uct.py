"""``python -m benchmarks.bench_uct``: speed of the UCT policy — rollouts per second and seconds
per game — playing every answer (or a sample) from an opener, games in parallel.

Default: UCT_50k with MIG_A, opener SALET, all 2,315 legacy games on 2 worker processes, the
scorer's per-game seeds from master seed 0. Kernels are compiled (or loaded from the numba
cache) before the clock starts; each worker builds its own state memo, which is part of the
timed run. Rollouts per second = N × decisions searched / (wall seconds × workers): per core,
with the workers' start-up counted against it.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
from rich.console import Console
from rich.table import Table

from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with

VARIANTS = ("a", "b", "a_o", "b_o")
#: The speed target: N = 50,000 over all 2,315 games from SALET on 2 cores.
BUDGET_SECONDS = 15 * 60


def _sample(n_answers: int, games: int) -> np.ndarray:
    if games <= 0 or games >= n_answers:
        return np.arange(n_answers)
    return np.unique(np.linspace(0, n_answers - 1, games).round().astype(np.int64))


def run_bench(words: str, opener: str, rollouts: int, variant: str, games: int, jobs: int,
              seed: int) -> dict:
    """Play the games and return the figures (see the module docstring)."""
    from solver.game.feedback import feedback_table
    from solver.evaluation.scoring import play_game, score_policy
    from solver.policies.uct import make_policy, policy_name
    from solver.game.wordlists import load_word_list

    word_list = load_word_list(words)
    table = feedback_table(word_list)
    name = policy_name(rollouts, variant[0], variant.endswith("_o"))
    policy = make_policy(name, word_list, table, seed=seed)
    opener_index = word_list.guess_index(opener)
    warm = make_policy(policy_name(50, variant[0], variant.endswith("_o")), word_list, table)
    play_game(warm, 0, opener_index, seed=seed)  # compile / load the kernels
    answers = _sample(word_list.n_answers, games)
    started = time.perf_counter()
    if len(answers) == word_list.n_answers:
        result = score_policy(policy, opener_index, seed=seed, jobs=jobs, mode="games")
        per_answer = result.guesses_per_answer
        searched = sum(d.games for d in result.decisions if len(d.state) >= 2)
        workers = result.jobs
    else:  # a sample, in this process
        per_answer, searched, workers = [], 0, 1
        for a in answers:
            used, decisions = play_game(policy, int(a), opener_index, seed=seed)
            per_answer.append(used)
            searched += sum(1 for state, _, _ in decisions if len(state) >= 2)
        per_answer = np.asarray(per_answer)
    wall = time.perf_counter() - started
    return {
        "policy": name, "opener": opener, "games": len(answers), "workers": workers,
        "wall": wall, "seconds_per_game": wall * workers / len(answers),
        "decisions": searched, "rollouts": searched * rollouts,
        "rollouts_per_second": searched * rollouts / (wall * workers),
        "average": float(np.mean(per_answer)), "failures": int((per_answer > 6).sum()),
        "seed": seed,
    }


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_uct", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy", help="word list name or directory")
    parser.add_argument("--opener", default="salet")
    parser.add_argument("--rollouts", type=_cli.positive_count, default=50_000, help="N per decision (50000)")
    parser.add_argument("--variant", choices=VARIANTS, default="a",
                        help="base heuristic MIG_A/MIG_B, _o = variant O (default a)")
    parser.add_argument("--games", type=_cli.whole(0, 10**9), default=0,
                        help="evenly spaced sample of answers, played in-process (0 = all, "
                             "in parallel; default)")
    _cli.add_jobs_option(parser, default=2)
    parser.add_argument("--seed", type=_cli.seed, default=0, help="master seed (default 0)")
    add_debug_option(parser)
    args = parser.parse_args(argv)
    figures = run_bench(args.words, args.opener, args.rollouts, args.variant, args.games,
                        args.jobs, args.seed)
    table = Table(title=f"UCT speed: {figures['policy']} from {figures['opener'].upper()}, "
                        f"{figures['games']} games, {figures['workers']} worker(s), "
                        f"seed {args.seed}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    rows = [("wall seconds", f"{figures['wall']:.1f}"),
            ("seconds per game (wall × workers / games)", f"{figures['seconds_per_game']:.3f}"),
            ("decisions searched (≥ 2 answers)", f"{figures['decisions']:,}"),
            ("rollouts", f"{figures['rollouts']:,}"),
            ("rollouts per second per core", f"{figures['rollouts_per_second']:,.0f}"),
            ("average guesses", f"{figures['average']:.4f}"),
            ("failures (> 6 guesses)", str(figures["failures"]))]
    if figures["games"] > 0:
        projected = figures["seconds_per_game"] * 2315 / 2
        rows.append(("projected 2,315 games on 2 cores, s (budget 900)", f"{projected:.0f}"))
    for row in rows:
        table.add_row(*row)
    Console().print(table)
    record("uct", table.title, ("figure", "value"), rows, prog="python -m benchmarks.bench_uct", argv=argv)
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
