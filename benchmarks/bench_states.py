"""``python -m benchmarks.bench_states``: the next guess after random openers, as a player meets it.

States are drawn at random (``--seed``): an opener uniformly from all allowed guesses, an answer
uniformly from the answers, and for two-guess histories a second guess uniformly from the
guesses the rules then allow (hard mode: those that use every hint); both lists, both modes,
one- and two-guess histories. Each state is answered by ``tools.assist --json --top 0`` as a
whole process with an empty user cache (a new cache directory per state holding only the
feedback tables, built once beforehand: no opener's tree is cached, none is shipped for most
openers; the checkout's bytecode compiled first, as pip compiles an installed package's
(:func:`benchmarks.compile_bytecode`); one untimed state first, so that no timed process
compiles the kernels, and under ``--budget`` the same again within a long budget; a timed
process that still says it compiles kernels is run again, once, and that run is timed). Each
answer must be ``exact`` and equal (value and guess) to an independent solve of
the state in this process (:func:`solver.exact.bellman.solve_from`, not timed).

With ``--selby PATH`` (a ``wordle`` binary built from Selby's solver, github.com/alex1770/wordle,
not shipped), its parse mode (``PATH [-H] -h answers.txt -a guesses.txt -w
guess.FEEDBACK[.guess.FEEDBACK]``) runs on the same states as a whole process, and the ratio of
the summed times is printed. Prints one line per state and the totals; the figures go to
``benchmarks/results/states.json`` (docs/benchmarks.md).

With ``--budget SECONDS`` each state is asked as the web page asks it, within that budget
(``tools.assist --budget``): an answer must then be ``exact`` and equal to the independent solve,
or ``best found, not proven`` with a proven interval ``[lower bound, value]`` that holds the
exact value; and each process must end within the budget plus the documented margin
(:data:`MARGIN`, docs/troubleshooting.md). The figures go to ``states-budget.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks import compile_bytecode
from benchmarks.record import record
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, entry_point, exit_with
from solver.game.compile_notice import LINE as COMPILING

GAMES = (("legacy", "normal"), ("legacy", "hard"), ("nyt-2024", "normal"), ("nyt-2024", "hard"))
#: The untimed state answered before the timed ones (a search, off every shipped tree).
WARM_UP = ("xylyl:bbbbb", "fjord:bbbbb", "chant:bbbbb")
#: The same under ``--budget``: a state of more than 100 answers (361), whose search within a
#: budget runs in a child process (docs/algorithms.md §15.1).
WARM_UP_BUDGET = ("xylyl:bbbbb", "fjord:bbbbb")
#: Longest one state may take before it is recorded as timed out.
STATE_TIMEOUT = 900.0
#: Seconds past ``--budget`` a whole process may take (docs/troubleshooting.md: the
#: interpreter's start, stopping the search's child, printing).
MARGIN = 1.0


def draw_histories(words: str, mode: str, count: int, guesses: int, rng) -> list[list[str]]:
    """``count`` random histories of ``guesses`` guesses (``"word:feedback"`` tokens), each
    with an answer drawn from the list and feedback as that answer gives it; none already won."""
    from solver.game.feedback import code_to_text, feedback_code
    from solver.game.hard_mode import allowed_guesses
    from solver.game.spec import Game
    from solver.game.wordlists import load_word_list

    word_list = load_word_list(words)
    game = Game(word_list, mode=mode)
    histories = []
    while len(histories) < count:
        answer = word_list.answers[int(rng.integers(word_list.n_answers))]
        steps: list[tuple[str, int]] = []
        for _ in range(guesses):
            pool = (word_list.guesses if not game.hard or not steps else
                    [word_list.guesses[g] for g in allowed_guesses(word_list, steps)])
            guess = pool[int(rng.integers(len(pool)))]
            steps.append((guess, feedback_code(guess, answer)))
        if steps[-1][1] == game.all_green:
            continue
        histories.append([f"{g}:{code_to_text(c, len(g))}" for g, c in steps])
    return histories


def _selby(binary: str, words: str, mode: str, history: list[str], timeout: float) -> tuple[float, bool]:
    """Seconds Selby's parse mode took on the state as a whole process, and whether it finished
    within ``timeout`` (if not, the time is ``timeout``: a lower bound on its time)."""
    from solver.game.wordlists import DATA_DIR

    token = ".".join(f"{h.split(':')[0]}.{h.split(':')[1].upper()}" for h in history)
    command = [binary, *(["-H"] if mode == "hard" else []), "-h", str(DATA_DIR / words / "answers.txt"),
               "-a", str(DATA_DIR / words / "guesses.txt"), "-w", token]
    started = time.perf_counter()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, False
    if proc.returncode != 0:
        raise RuntimeError(f"Selby's parse mode failed on {token}: {proc.stderr.strip()[:200]}")
    return time.perf_counter() - started, True


def judge(answer: dict, independent: tuple[int, str] | None, budget: float | None,
          seconds: float) -> tuple[str, bool]:
    """``(verdict, ok)`` of one answer of ``tools.assist --json``: ``exact`` and equal to the
    independent solve's ``(value, next guess)``; or, only with a ``budget``, ``best found, not
    proven`` with a proven interval ``[lower_bound_total, value_total]`` (no upper end when no
    value was found) that holds the independent value; and, with a ``budget``, ``seconds`` within
    it plus :data:`MARGIN`. ``independent`` None: not checked."""
    status, value = answer["status"], answer["value_total"]
    if status == "exact":
        ok = independent is None or independent == (value, answer["next_guess"])
        verdict = ("exact" if independent is None else "exact = solve_from" if ok else
                   f"DIFFERS from solve_from ({independent[0]}, {independent[1]} vs {value}, "
                   f"{answer['next_guess']})")
    elif status == "best found, not proven" and budget is not None:
        low = answer["lower_bound_total"]
        upper = "?" if value is None else value
        if independent is None:
            ok, verdict = True, f"not proven: [{low}, {upper}]"
        else:
            ok = low is not None and low <= independent[0] and (value is None or independent[0] <= value)
            verdict = (f"not proven: [{low}, {upper}] " + ("holds" if ok else "MISSES")
                       + f" solve_from's {independent[0]}")
    else:
        ok, verdict = False, status
    if budget is not None and seconds > budget + MARGIN:
        ok, verdict = False, verdict + f"; PAST the budget and its {MARGIN:g} s margin"
    return verdict, ok


@entry_point()
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_states", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=_cli.whole(0, 2**32 - 1), default=2026, help="random seed (default 2026)")
    parser.add_argument("--per-game", type=_cli.whole(1, 1000), default=6,
                        help="states per list, mode and history length (default 6: 48 states)")
    parser.add_argument("--selby", default=None, metavar="PATH",
                        help="Selby's built wordle binary, to time its parse mode on the same states")
    parser.add_argument("--selby-timeout", type=_cli.positive_seconds, default=STATE_TIMEOUT, metavar="SECONDS",
                        help="stop Selby's solver on a state after this long and count the time as "
                             f"a lower bound on its time (default {STATE_TIMEOUT:.0f})")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the independent solve of each state")
    parser.add_argument("--budget", type=_cli.positive_seconds, default=None, metavar="SECONDS",
                        help="ask each state within this budget, as the web page does (its "
                             "default is 2): an answer not proven in time must hold the exact "
                             "value in its proven interval")
    args = parser.parse_args(argv)
    compile_bytecode()  # (as installed: the timed processes load bytecode)
    from solver.exact.bellman import solve_from
    from solver.game.feedback import feedback_table, table_cache_path
    from solver.game.spec import Game
    from solver.game.wordlists import load_word_list

    rng = np.random.default_rng(args.seed)
    states = [(words, mode, history) for words, mode in GAMES for guesses in (1, 2)
              for history in draw_histories(words, mode, args.per_game, guesses, rng)]
    tables = {words: table_cache_path(load_word_list(words)) for words, _ in GAMES}
    for words in tables:
        feedback_table(load_word_list(words))  # built once, copied into every empty cache
    # One untimed process first: numba's cache (in the checkout, not the user cache) is filled
    # by whichever process compiles the kernels, and the first timed state must not be it.
    # Under a budget a second one, with time to spare: the budget's search of a large state
    # loads other kernels (before forking its child), and compiling them is not bounded by it.
    budget = [] if args.budget is None else ["--budget", f"{args.budget:g}"]
    warm_ups = [(WARM_UP, [])] + ([(WARM_UP_BUDGET, ["--budget", f"{STATE_TIMEOUT:g}"])] if budget
                                  else [])
    for history, options in warm_ups:
        subprocess.run([sys.executable, "-m", "tools.assist", *history, "--words", "legacy", "--top",
                        "0", "--json", *options], capture_output=True, check=True)
    rows, ours, theirs, failures, unfinished, not_proven, exact = [], [], [], 0, 0, 0, 0
    recompiled = 0
    for words, mode, history in states:
        # A process that says it compiles kernels (numba's cache lacked one the warm-ups did not
        # load) timed the compiler, not the search: the state is asked again, once, and that
        # run is timed (their number is printed).
        for attempt in range(2):
            with tempfile.TemporaryDirectory() as cache:
                for path in tables.values():
                    shutil.copyfile(path, Path(cache) / path.name)
                env = dict(os.environ, EXACT_WORDLE_CACHE=cache)
                started = time.perf_counter()
                try:
                    proc = subprocess.run([sys.executable, "-m", "tools.assist", *history, "--words",
                                           words, "--mode", mode, "--top", "0", "--json", *budget],
                                          capture_output=True, text=True, env=env, timeout=STATE_TIMEOUT)
                except subprocess.TimeoutExpired:
                    proc = None
                seconds = time.perf_counter() - started
            if attempt == 0 and proc is not None and COMPILING in proc.stderr:
                recompiled += 1
                continue
            break
        ours.append(seconds)
        if proc is None or proc.returncode != 0:
            failures += 1
            verdict, n = ("timed out" if proc is None else f"exit {proc.returncode}"), "?"
        else:
            answer = json.loads(proc.stdout)
            n = answer["answers_remaining"]
            independent = None
            if not args.no_check and answer["status"] in ("exact", "best found, not proven"):
                game = Game(load_word_list(words), mode=mode)
                solved = solve_from(game, [tuple(h.split(":")) for h in history])
                independent = (solved.value, solved.next_guess)
            verdict, ok = judge(answer, independent, args.budget, seconds)
            failures += not ok
            exact += ok and answer["status"] == "exact"
            not_proven += ok and answer["status"] != "exact"
        selby = ""
        if args.selby:
            seconds_selby, finished = _selby(args.selby, words, mode, history, args.selby_timeout)
            theirs.append(seconds_selby)
            unfinished += not finished
            selby = f"{seconds_selby:.2f} s" if finished else f"> {seconds_selby:.0f} s (stopped)"
        line = f"  {words:8s} {mode:6s} {' '.join(history):28s} {n!s:>5} answers {seconds:7.2f} s  {verdict}"
        print(line + (f"  Selby {selby}" if selby else ""), flush=True)
        rows.append((words, mode, " ".join(history), str(n), f"{seconds:.2f} s", verdict)
                    + ((selby,) if args.selby else ()))
    total = sum(ours)
    summary = (f"{len(states)} states: total {total:.1f} s, median {statistics.median(ours):.2f} s, "
               f"worst {max(ours):.1f} s, over 2 s: {sum(s > 2 for s in ours)}, "
               + (f"within a budget of {args.budget:g} s: {exact} exact, "
                  f"{not_proven} not proven with the exact value in their proven interval, "
                  f"wrong or past the budget and its margin: {failures}" if args.budget is not None
                  else f"not exact or different: {failures}")
               + (f", asked again after their first process compiled kernels: {recompiled}"
                  if recompiled else ""))
    if theirs:
        at_least = "at least " if unfinished else ""
        summary += (f"; Selby's parse mode total {at_least}{sum(theirs):.1f} s"
                    + (f" ({unfinished} stopped at {args.selby_timeout:.0f} s)" if unfinished else "")
                    + f", ratio ours / Selby {'at most ' if unfinished else ''}{total / sum(theirs):.2f}")
    print(summary)
    columns = ("lists", "mode", "history", "answers", "whole process", "answer")
    within = "" if args.budget is None else f", tools.assist --budget {args.budget:g} (the page's default: 2)"
    record("states" if args.budget is None else "states-budget",
           f"The next guess after random openers (seed {args.seed}), whole process, empty user cache{within}",
           columns + (("Selby -w",) if args.selby else ()), rows, prog=parser.prog, argv=argv,
           notes=(summary,))
    return EXIT_OK if failures == 0 else 1


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
