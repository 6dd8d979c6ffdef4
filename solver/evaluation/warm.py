"""Compile every numba kernel the play commands and the web server need, once, before any budget.

numba compiles a kernel the first time it is called with new argument types and keeps it in
its on-disk cache (:mod:`solver.game.kernel_cache`). Left to the first real call, compiling
(a minute or more on a fresh install, several on a busy machine) ate the budget of whatever
asked: ``assist``'s alternatives were "not proven", a page's analysis ran past its budget,
and a server worker stopped at its deadline lost what it had compiled and compiled it again.

:func:`compile_kernels` runs, on a small word list of the same word length (its answers and
guesses taken from a shipped list), every path of the search service the commands take — the
next guess with and without a budget, a state searched in this process and in a child, a
game's analysis (with the page's splits), an opener's whole tree (the server's build lane),
normal, hard and ultra-hard mode, the worst-case objective and priors (the weighted total),
the feedback table built whole or in parts — with the argument types of the real calls, so
that numba writes every specialisation to its cache. It then writes a stamp beside the cache
(:mod:`solver.game.kernel_stamp`). :func:`ensure_compiled` reads the stamp (milliseconds)
and warms only when it is missing or stale; ``assist``, ``analyse``, ``tree next``/``play``
(off the tree) and ``opener`` call it before their budget's clock starts, ``serve`` before
it starts its workers and says it is ready, and ``wordle warm`` at install time.

The warm-up says what it does on stderr, one line per step ("compiling the kernels once:
3/32 (normal mode: next guess)"); numba's own one-line notice
(:mod:`solver.game.compile_notice`) is silenced meanwhile. Over a warm numba cache it only
loads the kernels (seconds).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from solver.game import kernel_stamp

#: The word lists the warm-up takes its words from, by word length.
SOURCE_LISTS = {4: "wordfreq-4", 5: "legacy", 6: "wordfreq-6", 7: "wordfreq-7"}
#: Answers and guesses of the warm-up's small list: enough that a guess leaves a state of
#: more than :data:`solver.exact.anytime.IN_PROCESS_MAX` answers (searched in a child), and
#: that the whole list is a state of at least :data:`solver.exact.bellman.STATE_SHARE_MIN`
#: (searched by several processes together, who build the letter family together).
N_ANSWERS = 320
N_GUESSES = 640
#: Seconds each budgeted step gets (far more than a small state needs once compiled).
STEP_BUDGET = 60.0
#: Guesses left in the state searched by two processes (few: the search is quick, and what
#: the processes compile is the same as with six).
SHARED_GUESSES_LEFT = 3
#: The word lengths warmed by default (the shipped play lists).
DEFAULT_LENGTHS = (5,)


def group_name(word_length: int) -> str:
    """The stamp's name of the play kernels for words of ``word_length`` letters."""
    return f"play-{word_length}"


def _key() -> str:
    return kernel_stamp.stamp_key(extra=(Path(__file__),))


def is_compiled(word_length: int = 5) -> bool:
    """Whether the stamp says the play kernels of ``word_length`` are in numba's cache."""
    return group_name(word_length) in kernel_stamp.warmed_groups(_key())


def small_word_list(word_length: int = 5):
    """The warm-up's word list: :data:`N_ANSWERS` answers spread over the shipped list of that
    word length (:data:`SOURCE_LISTS`), and :data:`N_GUESSES` guesses (the answers first)."""
    from solver.game.wordlists import from_words, load_word_list

    source = load_word_list(SOURCE_LISTS[word_length])
    answers = list(source.answers[::max(1, source.n_answers // N_ANSWERS)][:N_ANSWERS])
    chosen = set(answers)
    others = [word for word in source.guesses if word not in chosen]
    guesses = answers + others[::max(1, len(others) // (N_GUESSES - len(answers)))][:N_GUESSES - len(answers)]
    return from_words(sorted(answers), sorted(guesses), name=f"warm-up-{word_length}")


def _history(service, words) -> list[tuple[str, str]]:
    """``words`` played against the list's middle answer, as (guess, feedback text) pairs."""
    from solver.game.feedback import code_to_text, feedback_code

    answer = service.word_list.answers[len(service.word_list.answers) // 2]
    return [(word, code_to_text(feedback_code(word, answer, service.game.feedback), len(word))) for word in words]


def _largest_state_guess(service) -> str:
    """The allowed guess whose largest feedback class is the largest (a poor opener: it
    leaves a state of many answers, searched in a child process)."""
    from solver.game.feedback import feedback_classes

    state = np.arange(service.word_list.n_answers, dtype=np.int32)
    table = service.parts.whole()
    best, word = -1, service.word_list.guesses[0]
    for g in range(0, service.word_list.n_guesses, 7):
        largest = int(feedback_classes(table[g], state, service.word_list.word_length)[1].max())
        if largest > best:
            best, word = largest, service.word_list.guesses[g]
    return word


def _steps(word_length: int) -> list[tuple[str, Callable[[], object]]]:
    """The warm-up's steps for words of ``word_length`` letters: (what, call)."""
    from solver.evaluation.analysis import analyse_game
    from solver.exact.anytime import rank_guesses
    from solver.exact.service import SearchService
    from solver.game.feedback import TableParts, feedback_classes, feedback_table
    from solver.game.priors import Priors, integer_weights, priors_sha256
    from solver.game.spec import Game, Mode
    from policy_tree.opener_table import TABLE_MODES

    word_list = small_word_list(word_length)
    held: dict = {}

    def table():
        if "table" not in held:  # the whole table, by its kernel (a solve's, a build's)
            held["table"] = feedback_table(word_list, use_cache=False)
        return held["table"]

    def service(mode="normal", objective="total", priors=None):
        key = (mode, objective, priors is not None)
        if key not in held:
            game = Game(word_list, mode=mode, objective=objective, priors=priors)
            held[key] = SearchService(game, table=table(), book=False, cache=False, tables=False)
        return held[key]

    def parts():
        # the columns of a state and the rows of guesses computed alone (no cached table):
        # a fresh install's first question reads these, by the part kernel
        fresh = TableParts(word_list)
        fresh.columns(np.arange(0, word_list.n_answers, 4))
        fresh.rows(np.arange(0, word_list.n_guesses, 24))
        state = np.arange(word_list.n_answers, dtype=np.int32)
        feedback_classes(table()[0], state, word_length)

    def opening(mode):
        # two guesses every mode allows: the second could be the answer after the first
        chosen = service(mode)
        first = _history(chosen, [chosen.word_list.answers[7]])
        state = chosen.state_after(chosen.normalise(first))
        target = chosen.word_list.answers[len(chosen.word_list.answers) // 2]
        second = next((chosen.word_list.answers[a] for a in state if chosen.word_list.answers[a] != target), target)
        return _history(chosen, [chosen.word_list.answers[7], second])

    def advise(mode, **options):
        chosen = service(mode, **{k: v for k, v in options.items() if k in ("objective", "priors")})
        budget = options.get("budget")
        for history in (opening(mode)[:1], opening(mode)):
            chosen.advise(history, top=5, budget=budget, alternatives_budget=budget or STEP_BUDGET,
                          splits=True)

    def advise_large(mode):
        chosen = service(mode)
        history = _history(chosen, [_largest_state_guess(chosen)])
        chosen.advise(history, top=5, budget=STEP_BUDGET, alternatives_budget=STEP_BUDGET, splits=True)
        chosen.advise(history, top=5, splits=True)

    def analyse(mode, budget=None):
        chosen = service(mode)
        words = [word for word, _ in opening(mode)]
        answer = chosen.word_list.answers[len(chosen.word_list.answers) // 2]
        history = _history(chosen, words + [answer])
        analyse_game(chosen.game, history, service=chosen, splits=True, budget=budget)

    def ranked(mode):
        chosen = service(mode)
        state = chosen.state_after(chosen.normalise(opening(mode)[:1]))
        rank_guesses(chosen.game, state, 5, top=2, table=chosen.parts, in_process=True,
                     history=chosen.normalise(opening(mode)[:1]))

    def shared(mode):  # a large state searched by two processes together (§4.5)
        chosen = service(mode)
        state = np.arange(chosen.word_list.n_answers, dtype=np.int32)
        rank_guesses(chosen.game, state, SHARED_GUESSES_LEFT, top=2, table=chosen.parts, in_process=False,
                     jobs=2)

    def opener(mode):  # an opener's exact value as the opener tables hold it (wordle opener)
        from solver.evaluation.openers import opener_report

        opener_report(word_list, mode, word_list.answers[3], search=True, table=None)

    def tree(mode):  # an opener's whole tree (the server's build lane, jobs=1)
        chosen = service(mode)
        chosen.book.tree(chosen.word_list.answers[3], jobs=1)

    raw = np.linspace(1.0, 3.0, word_list.n_answers)
    weights = integer_weights(raw)
    priors = Priors("warm-up", weights, priors_sha256(word_list.answers, weights))

    steps = [("the feedback table", table), ("the feedback table's parts", parts)]
    names = {Mode.NORMAL: "normal mode", Mode.HARD: "hard mode", Mode.ULTRA: "ultra-hard mode"}
    for mode in Mode:
        name = names[mode]
        steps += [
            (f"{name}: next guess", lambda mode=mode: advise(mode)),
            (f"{name}: next guess within a budget", lambda mode=mode: advise(mode, budget=STEP_BUDGET)),
            (f"{name}: a large state", lambda mode=mode: advise_large(mode)),
            (f"{name}: the alternatives", lambda mode=mode: ranked(mode)),
            (f"{name}: a state searched by two processes", lambda mode=mode: shared(mode)),
            (f"{name}: a game's analysis", lambda mode=mode: analyse(mode)),
            (f"{name}: a game's analysis within a budget", lambda mode=mode: analyse(mode, STEP_BUDGET)),
            (f"{name}: an opener's tree", lambda mode=mode: tree(mode)),
        ]
        if mode in TABLE_MODES:  # the opener tables are of normal and hard mode
            steps.append((f"{name}: an opener's value", lambda mode=mode: opener(mode)))
    steps += [
        ("worst case: next guess", lambda: advise("normal", objective="worst")),
        ("worst case: within a budget", lambda: advise("normal", objective="worst", budget=STEP_BUDGET)),
        ("priors: next guess", lambda: advise("normal", priors=priors)),
        ("priors: within a budget", lambda: advise("normal", priors=priors, budget=STEP_BUDGET)),
    ]
    return steps


def compile_kernels(word_lengths=DEFAULT_LENGTHS, progress: Callable[[int, int, str], None] | None = None) -> float:
    """Run every step of the warm-up for each word length (numba compiles what its cache lacks,
    and loads the rest), then stamp the groups warmed; returns the seconds it took.

    ``progress(done, total, what)`` is called before each step (and once at the end with
    ``done == total``). numba's own notice is silenced meanwhile."""
    from solver.game.compile_notice import SAID
    from solver.game.files import CACHE_ENV

    started = time.monotonic()
    key = _key()
    saved = {name: os.environ.get(name) for name in (SAID, CACHE_ENV)}
    # the small list's feedback table (an opener's proof caches it) goes to a scratch
    # directory, not the user's cache
    with tempfile.TemporaryDirectory(prefix="exact-wordle-warm-") as scratch:
        os.environ.update({SAID: "1", CACHE_ENV: scratch})
        try:
            plan = [(length, what, call) for length in word_lengths for what, call in _steps(length)]
            for done, (length, what, call) in enumerate(plan):
                if progress is not None:
                    progress(done, len(plan), what if len(word_lengths) == 1 else f"{length} letters, {what}")
                call()
            if progress is not None:
                progress(len(plan), len(plan), "done")
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
    kernel_stamp.mark_warmed(key, [group_name(length) for length in word_lengths])
    return time.monotonic() - started


def print_progress(done: int, total: int, what: str, stream=None) -> None:
    """The warm-up's progress as plain lines on stderr: ``compiling the kernels once: 3/32
    (normal mode: next guess)``."""
    stream = stream or sys.stderr
    try:
        if done < total:
            print(f"compiling the kernels once: {done + 1}/{total} ({what})", file=stream, flush=True)
        else:
            print(f"compiling the kernels once: done ({total} steps); later runs load them from numba's cache",
                  file=stream, flush=True)
    except (OSError, ValueError):  # no stderr to tell
        pass


def ensure_compiled(word_length: int = 5, progress=print_progress) -> bool:
    """Warm the play kernels of ``word_length`` unless the stamp says they are in the cache;
    returns True when it warmed (the caller's budget starts after it). Nothing to compile with
    numba's JIT off (``NUMBA_DISABLE_JIT=1``: the kernels run as Python)."""
    if word_length not in SOURCE_LISTS or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return False
    if is_compiled(word_length):
        return False
    compile_kernels((word_length,), progress=progress)
    return True
