"""``python -m benchmarks.bench_serve``: the web server under load, on the loopback only.

Starts ``tools.serve`` on a free loopback port, then times cheap lookups (``/api/next`` on
histories that follow the shipped SALET tree, ``top`` 5 as the page asks) alone, and again
while 4 expensive searches run (histories that leave the tree at a large state, each with a
5-second budget, each client asking the next as soon as one is answered), and prints p50/p95 of each. Fixed counts,
seeded histories (each phase its own, so that the server's memory of exact answers does not
serve the second phase what the first asked); stops by itself and stops the server.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from benchmarks.record import record

ROOT = Path(__file__).resolve().parents[1]
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def post(url: str, body: dict, timeout: float = 60.0) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def rows(tokens) -> list[dict]:
    return [{"guess": t.split(":")[0], "feedback": t.split(":")[1]} for t in tokens]


def on_tree_histories(count: int, seed: int) -> list[list[str]]:
    """``count`` histories that follow the SALET tree (1 to 3 guesses, not yet solved)."""
    import policy_tree

    from solver.game.feedback import code_to_text

    from solver.game.wordlists import load_word_list

    tree = policy_tree.load(ROOT / "artifacts" / "legacy-normal-salet.msgpack")
    answers = load_word_list("legacy").answers
    rng = random.Random(seed)
    histories = []
    while len(histories) < count:
        game = tree.game(rng.choice(answers))
        if len(game) < 2:
            continue
        k = rng.randrange(1, min(len(game), 4))
        histories.append([f"{g}:{code_to_text(c)}" for g, c in game[:k]])
    return histories


def off_tree_histories(count: int, seed: int) -> list[list[str]]:
    """``count`` histories that leave the SALET tree at the second guess (a random allowed
    guess, its feedback from a random answer), each state of 150+ answers left: searches."""
    import policy_tree

    from solver.game.feedback import code_to_text, feedback_table
    from solver.game.wordlists import load_word_list

    tree = policy_tree.load(ROOT / "artifacts" / "legacy-normal-salet.msgpack")
    word_list = load_word_list("legacy")
    table = feedback_table(word_list)
    opener = word_list.guess_index("salet")
    rng = random.Random(seed)
    histories = []
    while len(histories) < count:
        answer, guess = rng.randrange(word_list.n_answers), rng.randrange(word_list.n_guesses)
        first = f"salet:{code_to_text(table[opener, answer])}"
        if word_list.guesses[guess] == tree.next_guess([first]):
            continue
        state = (table[opener] == table[opener, answer]) & (table[guess] == table[guess, answer])
        if state.sum() >= 150:
            histories.append([first, f"{word_list.guesses[guess]}:{code_to_text(table[guess, answer])}"])
    return histories


def time_lookups(url: str, histories) -> list[float]:
    seconds = []
    for history in histories:
        started = time.perf_counter()
        status, answer = post(url + "/api/next", {"words": "legacy", "history": rows(history), "top": 5})
        seconds.append(time.perf_counter() - started)
        if os.environ.get("BENCH_SERVE_VERBOSE"):
            print(f"    {seconds[-1] * 1000:8.1f} ms  {' '.join(history)}  {answer.get('alternatives_complete')}")
        if status != 200 or answer.get("status") != "exact":
            raise SystemExit(f"lookup {history}: HTTP {status} {answer}")
    return seconds


def percentiles(seconds) -> str:
    cuts = statistics.quantiles(seconds, n=20, method="inclusive")
    return f"p50 {statistics.median(seconds) * 1000:7.1f} ms   p95 {cuts[18] * 1000:7.1f} ms   (n={len(seconds)})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lookups", type=int, default=40, help="cheap lookups per phase (default 40)")
    args = parser.parse_args(argv)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "tools.serve", "--port", str(port), "--words", "legacy",
                               "--per-client", "4"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        if not line.startswith("serving"):
            raise SystemExit(f"the server did not start: {line!r}")
        url = f"http://127.0.0.1:{port}"
        time_lookups(url, on_tree_histories(5, seed=99))  # first requests load what they use
        alone = time_lookups(url, on_tree_histories(args.lookups, seed=1))
        stop = threading.Event()
        searches: list[tuple[float, int]] = []

        expensive_histories = [off_tree_histories(20, seed=100 + k) for k in range(4)]

        def expensive(k: int) -> None:
            for history in expensive_histories[k]:
                if stop.is_set():
                    return
                started = time.perf_counter()
                status, _ = post(url + "/api/next", {"words": "legacy", "history": rows(history),
                                                     "top": 5, "budget": 5})
                searches.append((time.perf_counter() - started, status))

        threads = [threading.Thread(target=expensive, args=(k,), daemon=True) for k in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # the searches are running
        loaded = time_lookups(url, on_tree_histories(args.lookups, seed=2))
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        print("web server, loopback, SALET tree, legacy lists (python -m benchmarks.bench_serve)")
        print(f"  cheap lookups alone:                   {percentiles(alone)}")
        print(f"  cheap lookups with 4 searches running: {percentiles(loaded)}")
        statuses = sorted({status for _, status in searches})
        rows = [(f"cheap lookups alone ({args.lookups})", " ".join(percentiles(alone).split())),
                (f"cheap lookups with 4 searches running ({args.lookups})", " ".join(percentiles(loaded).split()))]
        if searches:
            print(f"  the searches: {len(searches)} answered (HTTP {', '.join(map(str, statuses))}), "
                  f"median {statistics.median(s for s, _ in searches):.2f} s")
            rows.append(("the searches (budget 5 s)", f"{len(searches)} answered (HTTP "
                         f"{', '.join(map(str, statuses))}), median {statistics.median(s for s, _ in searches):.2f} s"))
        record("serve", "Web server under load: loopback, SALET tree, legacy lists", ("figure", "value"), rows,
               prog=parser.prog, argv=argv)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
