"""``python -m benchmarks.bench_assist`` (part of ``make bench``): how fast advice comes.

- ``tools.assist`` cold from the shell (a fresh interpreter: imports, numba's cache load, the
  feedback table, the search, in process for a state this small) for a typical two-guess
  state, median wall and CPU (user + system, the child processes' included) of ``--repeat``
  runs (issue 11's target: ≤ 1 s wall);
- ``tools.assist W:bbbbb`` cold, the all-gray state after each of the 16 report openers, with
  the default 10 s budget, start-up included (target ≤ 10 s), and whether the answer was exact
  or not proven and its alternatives complete. Wall times count other work on the machine;
  CPU times much less, so both are printed;
- the web page's next-guess request (``POST /api/next``, ``top`` 0) for states in the SALET
  tree, in a warm server (the app in process, through Starlette's test client), median and
  max over the first two moves of 50 games (target ≤ 0.2 s).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import add_debug_option, entry_point, exit_with

REPORT_OPENERS = ("salet,carle,train,raise,clout,soare,salut,lants,reast,crate,trace,slate,trape,"
                  "slane,prate,crane").split(",")
TWO_GUESS = ["salet:bbbby", "crane:bbbbb"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _assist(args: list[str]) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds, the JSON answer) of one cold ``tools.assist --json``."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tools.assist", "--json", *args],
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"tools.assist {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return seconds, cpu, json.loads(done.stdout)


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_assist", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=_cli.whole(1, 1000), default=3,
                        help="runs of the two-guess figure (default 3)")
    add_debug_option(parser)
    args = parser.parse_args(argv)
    _assist(TWO_GUESS)  # warm the disk cache
    runs = [_assist(TWO_GUESS) for _ in range(args.repeat)]
    wall = statistics.median(s for s, _, _ in runs)
    cpu = statistics.median(c for _, c, _ in runs)
    doc = runs[0][2]
    print(f"assist {' '.join(TWO_GUESS)} (cold process): median {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"over {args.repeat} runs; {doc['next_guess']} {doc['status']}, "
          f"{doc['answers_remaining']} answers; advise() {doc['seconds']:.3f} s")
    rows = [(f"`tools.assist {' '.join(TWO_GUESS)}`, cold process, median of {args.repeat}",
             f"{wall:.2f} s wall, {cpu:.2f} s CPU; {doc['next_guess']} {doc['status']}, "
             f"{doc['answers_remaining']} answers")]
    print("assist OPENER:bbbbb (cold process, budget 10 s):")
    for opener in REPORT_OPENERS:
        seconds, cpu, doc = _assist([f"{opener}:bbbbb", "--budget", "10"])
        complete = "complete" if doc["alternatives_complete"] else "incomplete"
        print(f"  {opener}:bbbbb  {doc['answers_remaining']:4d} answers  {seconds:5.2f} s wall "
              f"{cpu:5.2f} s CPU  {doc['next_guess']} {doc['status']} ({doc['expected_guesses']:.4f}, "
              f"bound {doc['lower_bound_expected']:.4f}; alternatives {complete}; {doc['source']})")
        rows.append((f"`tools.assist {opener}:bbbbb --budget 10`, cold process ({doc['answers_remaining']} answers)",
                     f"{seconds:.2f} s wall, {cpu:.2f} s CPU; {doc['next_guess']} {doc['status']}, "
                     f"alternatives {complete}"))
    import policy_tree
    from starlette.testclient import TestClient

    from solver.evaluation.assist import ARTIFACTS_DIR
    from solver.game.feedback import code_to_text
    from solver.web.app import create_app

    tree = policy_tree.load(ARTIFACTS_DIR / "legacy-normal-salet.msgpack")
    times = []
    with TestClient(create_app(["legacy"], allow_hosts=["testserver"])) as client:
        for answer in tree.word_list.answers[::46][:50]:
            game = tree.game(answer)
            for k in (1, 2):
                history = [{"guess": g, "feedback": code_to_text(c)} for g, c in game[:k]]
                if game[k - 1][1] == 242:
                    break
                start = time.perf_counter()
                response = client.post("/api/next", json={"history": history, "top": 0})
                times.append(time.perf_counter() - start)
                assert response.status_code == 200 and response.json()["status"] == "exact"
    print(f"page next-guess request, states in the tree ({len(times)} requests, warm server): "
          f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")
    rows.append((f"page `POST /api/next`, states in the tree, warm, in process ({len(times)} requests)",
                 f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"))
    record("assist", "The next guess (`tools.assist`) and the page's lookups", ("figure", "value"), rows,
           prog=parser.prog, argv=argv)
    return 0


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
