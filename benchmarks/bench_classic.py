"""``python -m benchmarks.bench_classic`` (part of ``make bench``): the classic agents' speed.

For each belief setting (answers, guesses) and each agent (random_total, random_possible,
minimax1, expectimax1, qlearning): the wall seconds of all games against every answer (the
agent choosing its own first guess; randomised agents with seed 0), warm (each kernel run
once on a small state first), in one process; the target is ≤ 60 s per agent and setting.
Then the Q-learning training time per setting with the shipped settings (nothing written).
Prints only; the loading of the guesses × guesses feedback table (168 MB, from the user
cache or computed) is timed separately.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from benchmarks.record import record
from solver.cli._cli import add_debug_option, entry_point, exit_with

TARGET_SECONDS = 60.0


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_classic", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy", help="word list (default legacy)")
    parser.add_argument("--no-training", action="store_true", help="skip the Q-learning training times")
    add_debug_option(parser)
    args = parser.parse_args(argv)

    import numpy as np

    from solver.evaluation.belief_scoring import score_in_belief
    from solver.game.protocol import Belief, decision_rng
    from solver.game.feedback import feedback_table
    from solver.game.wordlists import load_word_list
    from solver.policies.belief import make_universe
    from solver.policies.qlearning import DEFAULT_EPISODES, train_qtable
    from solver.policies.registry import make_policy
    from solver.studies.classic_report import DEFAULT_AGENTS

    word_list = load_word_list(args.words)
    table = feedback_table(word_list)
    rows, notes = [], []
    for belief in ("answers", "guesses"):
        started = time.perf_counter()
        universe = make_universe(word_list, belief, table)
        loaded = time.perf_counter() - started
        print(f"{belief}: universe of {universe.n_members} words loaded in {loaded:.2f} s")
        notes.append(f"Belief over the {belief}: a universe of {universe.n_members} words, loaded in {loaded:.2f} s.")
        warm = np.arange(min(50, universe.n_members), dtype=np.int32)
        for name in DEFAULT_AGENTS:
            policy = make_policy(name, word_list, table).in_belief(universe)
            policy.choose(Belief(warm, 6), decision_rng(0, 0, 0))  # load or compile the kernels
            result = score_in_belief(policy, universe, seed=0)
            flag = "ok" if result.seconds <= TARGET_SECONDS else "OVER TARGET"
            print(f"  {name:16s} {result.n_games} games {result.seconds:7.2f} s wall "
                  f"({1000 * result.seconds_per_game:.3f} ms/game), average {result.average:.4f}, "
                  f"wins ≤ 6 {100 * result.win_rate:.2f} %  [{flag}: ≤ {TARGET_SECONDS:.0f} s]")
            rows.append((belief, name, str(result.n_games), f"{result.seconds:.2f}",
                         f"{1000 * result.seconds_per_game:.3f}", f"{result.average:.4f}",
                         f"{100 * result.win_rate:.2f}"))
        if not args.no_training:
            started = time.perf_counter()
            train_qtable(word_list, belief, universe=universe)
            trained = time.perf_counter() - started
            print(f"  qlearning training, {DEFAULT_EPISODES} episodes: {trained:.1f} s wall")
            notes.append(f"Q-learning training over the {belief}, {DEFAULT_EPISODES} episodes: {trained:.1f} s wall.")
    record("classic", f"Classic agents, {word_list.name} lists, every answer once (seed 0)",
           ("belief", "agent", "games", "wall s", "ms per game", "average", "wins ≤ 6, %"), rows,
           notes=notes, prog=parser.prog, argv=argv)
    return 0


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
