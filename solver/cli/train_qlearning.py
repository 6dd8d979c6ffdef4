"""``python -m tools.train_qlearning``: train the Q-learning agent's table and store it as an artifact."""

from __future__ import annotations

import argparse
import shlex
import time
from collections.abc import Sequence

from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name
from solver.policies.belief import BeliefSetting

DESCRIPTION = """\
Train the constant-state Q-table of the 'qlearning' agent (solver/policies/qlearning.py,
docs/algorithms.md §8.5) by simulated games: each episode draws its hidden answer uniformly
from the answer list and plays epsilon-greedily among the words still possible; after each
guess Q[g] <- Q[g] + alpha (r - Q[g]) with r the share of the other candidates the guess ruled
out (1 on a win). Seeded: the same options give the same table, byte for byte.

--belief says which words count as possible: 'answers' (the agent knows the answer list) or
'guesses' (every allowed guess consistent with the feedback: Orenbach et al.'s setting), or
'both' (one table each). Writes artifacts/qlearning-<lists>-<belief>.msgpack (or under --out),
atomically, with the settings and this command recorded in it, and prints the training time.

Exit status: 0 written, 1 a write or internal error, 2 bad input (word list, option value,
output directory), 130 interrupted (nothing written).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.train_qlearning`` (``wordle train-qlearning``), with
    :data:`DESCRIPTION` as its help text."""
    from solver.policies.qlearning import DEFAULT_ALPHA, DEFAULT_EPISODES, DEFAULT_EPSILON, DEFAULT_SEED

    parser = argparse.ArgumentParser(prog=prog_name("train_qlearning"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy",
                        help="word list: 'legacy', 'nyt-2024', 'wordfreq-4', 'wordfreq-6', 'wordfreq-7', "
                             "or a directory with answers.txt and "
                             "guesses.txt (default: legacy)")
    parser.add_argument("--belief", default="both", choices=["answers", "guesses", "both"],
                        help="belief setting(s) to train for (default: both)")
    parser.add_argument("--episodes", type=_cli.positive_count, default=DEFAULT_EPISODES,
                        help="simulated games (default %(default)s)")
    parser.add_argument("--alpha", type=_cli.number(0, 1, lo_open=True), default=DEFAULT_ALPHA,
                        help="learning rate (default %(default)s)")
    parser.add_argument("--epsilon", type=_cli.number(0, 1), default=DEFAULT_EPSILON,
                        help="exploration rate (default %(default)s)")
    parser.add_argument("--seed", type=_cli.seed, default=DEFAULT_SEED, help="seed, ≥ 0 (default %(default)s)")
    parser.add_argument("--out", default=None, help="directory of the artifacts (default: artifacts/)")
    add_debug_option(parser)
    return parser


def _settings_argv(argv: Sequence[str]) -> list[str]:
    """``argv`` without --out and --debug: the command recorded in the artifact names the
    training settings only, so the same settings give the same bytes wherever they are written."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--out":
            skip = True
        elif not (arg.startswith("--out=") or arg == "--debug"):
            kept.append(arg)
    return kept


@entry_point(interrupted="interrupted: nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``train_qlearning`` on ``argv`` (default ``sys.argv[1:]``): train the Q-learning agent's
    table in each belief setting asked and save it as an artifact, printing its best-valued first
    word; returns the exit status (0; 2 for bad input)."""
    args = build_parser().parse_args(argv)
    from rich.console import Console
    from rich.markup import escape

    from solver.game.files import prepare_output_dir
    from solver.game.wordlists import load_word_list
    from solver.policies.qlearning import check_training, qtable_path, save_qtable, train_qtable

    check_training(args.episodes, args.alpha, args.epsilon, args.seed)
    word_list = load_word_list(args.words)
    beliefs = ["answers", "guesses"] if args.belief == "both" else [args.belief]
    if args.out is not None:
        prepare_output_dir(args.out)
    command = "python -m tools.train_qlearning " + shlex.join(_settings_argv(argv or []))
    console = Console(highlight=False)
    for belief in beliefs:
        started = time.perf_counter()
        qtable = train_qtable(word_list, belief, episodes=args.episodes, alpha=args.alpha,
                              epsilon=args.epsilon, seed=args.seed, command=command.strip())
        seconds = time.perf_counter() - started
        path = save_qtable(qtable, qtable_path(word_list, belief, args.out))
        playable = (word_list.answer_guess_index if belief == BeliefSetting.ANSWERS
                    else range(word_list.n_guesses))  # the words the agent can play first
        best = word_list.guesses[max(playable, key=lambda g: (qtable.q_values[g], -g))]
        console.print(escape(f"{belief}: {args.episodes} episodes ({qtable.meta['guesses_made']} guesses) in "
                             f"{seconds:.1f} s; best-valued word {best}; wrote {path}"))
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
