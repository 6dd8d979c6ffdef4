"""``python -m benchmarks.bench_play``: how fast the next guess comes, as a player meets it.

Warm (the opener's tree shipped or cached): ``tools.assist --json`` as a whole process, and the
web page's next-guess request (``POST /api/next`` with top 0, in process through Starlette's
test client) after one- and two-guess histories of the popular openers, both lists and modes.
Cold: ``tools.assist`` after an opener with no tree, in an empty cache (the state is searched;
no tree is built). Random openers from all allowed guesses: :mod:`benchmarks.bench_states`.
With ``--selby PATH`` (a ``wordle`` binary built from Selby's solver, not shipped), its parse
mode (``PATH -h answers.txt -a guesses.txt -w audio.YBBBB``, the legacy lists) runs
on the same legacy normal-mode states, paired with ours warm and with ``--no-tree`` (a search
from scratch, as Selby's is). Prints the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from benchmarks import compile_bytecode
from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, entry_point, exit_with

HISTORIES = {
    ("legacy", "normal"): [["audio:ybbbb"], ["crane:bbbbb"], ["adieu:bbybb"], ["stare:bybbb"],
                           ["raise:bbbbb", "pouty:bybbb"], ["crane:bbybb", "moist:bbbyb"]],
    ("nyt-2024", "normal"): [["audio:ybbbb"], ["slate:bbbbb", "corny:bbbyb"]],
    ("legacy", "hard"): [["crane:bbbbb"], ["stare:bybbb"]],
    ("nyt-2024", "hard"): [["adieu:bbybb"], ["crane:bbybb"]],
}


def _assist(args: list[str], env=None) -> float:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "tools.assist", *args, "--json"],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    return time.perf_counter() - started


def _selby_pair(binary: str, history: list[str], repeat: int) -> str:
    """Selby's parse mode on the state, whole process, and ours with ``--no-tree``."""
    from solver.game.wordlists import DATA_DIR

    token = ".".join(f"{h.split(':')[0]}.{h.split(':')[1].upper()}" for h in history)
    lists = ["-h", str(DATA_DIR / "legacy" / "answers.txt"), "-a", str(DATA_DIR / "legacy" / "guesses.txt")]
    selby = []
    for _ in range(repeat):
        started = time.perf_counter()
        proc = subprocess.run([binary, *lists, "-w", token], capture_output=True, text=True)
        selby.append(time.perf_counter() - started)
        if proc.returncode != 0:
            return f"   Selby failed: {proc.stderr.strip()[:80]}"
    scratch = [_assist([*history, "--no-tree", "--top", "0"]) for _ in range(repeat)]
    return (f"   ours --no-tree {statistics.median(scratch):6.3f} s   Selby -w {token} "
            f"{statistics.median(selby):6.3f} s")


@entry_point()
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_play", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=_cli.whole(1, 1000), default=3, help="runs per figure (median)")
    parser.add_argument("--selby", default=None, metavar="PATH",
                        help="Selby's built wordle binary, to compare its parse mode")
    parser.add_argument("--cold-opener", default="hotel", help="opener with no shipped tree")
    args = parser.parse_args(argv)
    compile_bytecode()  # (as installed: the timed processes load bytecode)
    print("warm: tools.assist --json, whole process, median of", args.repeat)
    rows = []
    for (words, mode), histories in HISTORIES.items():
        for history in histories:
            times = [_assist([*history, "--words", words, "--mode", mode]) for _ in range(args.repeat)]
            line = f"  {words:8s} {mode:6s} {' '.join(history):28s} {statistics.median(times):6.3f} s"
            selby = ""
            if args.selby and mode == "normal" and words == "legacy":
                selby = _selby_pair(args.selby, history, args.repeat)
                line += selby
            print(line, flush=True)
            rows.append(("`tools.assist`, whole process", words, mode, " ".join(history),
                         f"{statistics.median(times):.3f} s" + (f" ({selby.strip()})" if selby else "")))
    from starlette.testclient import TestClient

    from solver.web.app import create_app

    client = TestClient(create_app(["legacy", "nyt-2024"], allow_hosts=["testserver"]))
    print("warm: POST /api/next top 0 (in process), per request")
    for (words, mode), histories in HISTORIES.items():
        for history in histories:
            body = {"words": words, "mode": mode, "top": 0,
                    "history": [{"guess": h.split(":")[0], "feedback": h.split(":")[1]} for h in history]}
            client.post("/api/next", json=body)  # the first: subtrees solved and kept
            times = []
            for _ in range(max(args.repeat, 5)):
                started = time.perf_counter()
                response = client.post("/api/next", json=body)
                times.append(time.perf_counter() - started)
                assert response.status_code == 200, response.text
            print(f"  {words:8s} {mode:6s} {' '.join(history):28s} median {statistics.median(times) * 1000:6.1f} ms, "
                  f"max {max(times) * 1000:6.1f} ms", flush=True)
            rows.append(("`POST /api/next`, in process", words, mode, " ".join(history),
                         f"{statistics.median(times) * 1000:.1f} ms (max {max(times) * 1000:.1f} ms)"))
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, EXACT_WORDLE_CACHE=cache)
        history = f"{args.cold_opener}:bbbbb"
        cold = _assist([history], env)
        warm = _assist([history], env)
        print(f"cold: tools.assist {history} in an empty cache (the state searched) {cold:.2f} s; "
              f"then again {warm:.3f} s")
        rows.append(("`tools.assist`, empty cache (the state searched), then again", "legacy", "normal",
                     history, f"{cold:.2f} s, then {warm:.3f} s"))
    record("play", f"Next guess after popular openers, warm (median of {args.repeat})",
           ("how", "lists", "mode", "history", "time"), rows, prog=parser.prog, argv=argv)
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
