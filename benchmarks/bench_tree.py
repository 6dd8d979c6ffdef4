"""``python -m benchmarks.bench_tree``: how fast the decision tree answers a player.

Times, each as a fresh interpreter (cold: imports, artifact load and validation included):

- ``next`` after a two-guess history, median of ``--repeat`` runs (the budget is 0.3 s);
- ``verify`` of the artifact (replay of every answer), median of ``--repeat`` runs;

and, in this process, the replay alone (``policy_tree.verify`` on an already loaded tree).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from collections.abc import Sequence

from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import add_debug_option, entry_point, exit_with

DEFAULT_ARTIFACT = Path("artifacts") / "legacy-normal-salet.msgpack"
NEXT_BUDGET_SECONDS = 0.3


def _wall(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    return seconds


def two_step_history(artifact: Path) -> list[str]:
    """A real two-guess history from the tree: the game against the first answer whose game
    has at least three guesses, cut after two."""
    import policy_tree
    from solver.game.feedback import code_to_text

    tree = policy_tree.load(artifact)
    for answer in tree.word_list.answers:
        steps = tree.game(answer)
        if len(steps) >= 3:
            return [f"{guess}:{code_to_text(code)}" for guess, code in steps[:2]]
    return []


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_tree", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--artifact", type=Path, default=DEFAULT_ARTIFACT,
                        help=f"artifact to time (default: {DEFAULT_ARTIFACT})")
    parser.add_argument("--repeat", type=_cli.whole(1, 1000), default=5, help="runs per figure (default 5)")
    add_debug_option(parser)
    args = parser.parse_args(argv)
    if not args.artifact.exists():
        from solver.game.errors import InputError

        raise InputError(f"{args.artifact}: no such artifact (run `make solve` first)")

    history = two_step_history(args.artifact)
    base = [sys.executable, "-m", "tools.tree"]
    next_cmd = base + ["next", str(args.artifact), *history]
    verify_cmd = base + ["verify", str(args.artifact)]
    _wall(next_cmd)  # the first run pays for the disk cache; the figures are warm-disk, cold-process
    next_times = [_wall(next_cmd) for _ in range(args.repeat)]
    verify_times = [_wall(verify_cmd) for _ in range(args.repeat)]

    import policy_tree

    tree = policy_tree.load(args.artifact)
    start = time.perf_counter()
    report = policy_tree.verify(tree)
    replay = time.perf_counter() - start

    next_median = statistics.median(next_times)
    verdict = "within" if next_median <= NEXT_BUDGET_SECONDS else "OVER"
    verify_median = statistics.median(verify_times)
    print(f"decision tree lookups: {args.artifact}")
    print(f"  next {' '.join(history)}: median {next_median:.3f} s wall over {args.repeat} cold "
          f"runs (min {min(next_times):.3f}, max {max(next_times):.3f}); {verdict} the "
          f"{NEXT_BUDGET_SECONDS} s budget")
    print(f"  verify (cold process): median {verify_median:.3f} s wall over "
          f"{args.repeat} runs")
    print(f"  verify replay in process: {replay:.3f} s for {report.n_answers} answers "
          f"({'OK' if report.ok else 'FAILED'})")
    record("lookup", f"Decision-tree lookup (`tools.tree`), {args.artifact.name}", ("figure", "value"), [
        (f"`tools.tree next {' '.join(history)}`, cold process, median of {args.repeat}",
         f"{next_median:.3f} s ({verdict} the {NEXT_BUDGET_SECONDS} s budget)"),
        (f"`tools.tree verify`, cold process, median of {args.repeat}", f"{verify_median:.3f} s"),
        (f"verify replay in process, {report.n_answers} answers",
         f"{replay:.3f} s ({'OK' if report.ok else 'FAILED'})"),
    ], prog=parser.prog, argv=argv)
    return 0


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
