"""Fixtures shared by the policy tests."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
from solver.game.spec import Game
import pytest

from solver.game.feedback import feedback_table
from solver.game.wordlists import from_words

# A benchmark run by a test keeps its figures in a scratch directory, never in the committed
# benchmarks/results/ (benchmarks/record.py); subprocesses inherit it.
os.environ["EXACT_WORDLE_BENCH_RESULTS"] = tempfile.mkdtemp(prefix="bench-results-")
# The one line numba's first compilation prints (solver/game/compile_notice.py) would appear in
# whichever test compiles first: it is said "already", here and in subprocesses, except in
# tests/test_compile_notice.py, which checks it.
os.environ["EXACT_WORDLE_COMPILE_NOTICE_SAID"] = "1"

# Four -atch answers and four probes (hand-worked entropies in test_heuristics.py).
#: The kernels run as plain Python (make test-jit-off): a test may then check fewer cases of the
#: same kind, which the compiled run checks in full (the point of that run is the Python bodies).
JIT_OFF = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")

ATCH = ["hatch", "latch", "match", "patch"]
ATCH_GUESSES = ATCH + ["blimp", "chump", "lymph", "plumb"]


@pytest.fixture(scope="module")
def atch():
    """(word list, feedback table) of the four -atch answers."""
    word_list = from_words(ATCH, ATCH_GUESSES, "atch")
    return word_list, feedback_table(word_list, use_cache=False)


def state_of(word_list, words):
    """The state holding ``words``: sorted int32 answer indices."""
    return np.array(sorted(word_list.answer_index(w) for w in words), dtype=np.int32)


@pytest.fixture(scope="session")
def legacy_table():
    """(legacy word list, its feedback table)."""
    from solver.game.wordlists import load_word_list

    word_list = load_word_list("legacy")
    return word_list, feedback_table(word_list)


def numpy_sub_list(seed, n_answers, n_others, use_cache=True):
    """(word list, table): ``n_answers`` legacy answers and ``n_others`` other guesses drawn
    with ``numpy.random.default_rng(seed)``; named ``small``."""
    from solver.game.wordlists import load_word_list

    legacy = load_word_list("legacy")
    rng = np.random.default_rng(seed)
    answers = sorted(rng.choice(legacy.answers, n_answers, replace=False))
    others = [w for w in legacy.guesses if w not in set(answers)]
    guesses = sorted(set(answers) | set(rng.choice(others, n_others, replace=False)))
    word_list = from_words(answers, guesses, "small")
    return word_list, feedback_table(word_list, use_cache=use_cache)


def random_sub_list(full, seed, n_answers, n_guesses):
    """A word list of ``n_answers`` answers of ``full`` and ``n_guesses`` guesses in all,
    drawn with ``random.Random(seed)``; named ``sub<seed>``."""
    import random

    from solver.game.wordlists import from_words

    rng = random.Random(seed)
    answers = rng.sample(full.answers, n_answers)
    chosen = set(answers)
    others = rng.sample([w for w in full.guesses if w not in chosen], n_guesses - n_answers)
    return from_words(answers, answers + others, name=f"sub{seed}")


SHIPPED_TREE = Path(__file__).resolve().parents[1] / "artifacts" / "legacy-normal-salet.msgpack"


@pytest.fixture(scope="module")
def legacy_tree():
    """The shipped SALET tree (proven opener, legacy lists)."""
    import policy_tree

    return policy_tree.load(SHIPPED_TREE)


def q_value(word_list, table, state, guesses_left, guess) -> int:
    """Q* total by its definition: |S| plus each non-green class solved on its own with
    :func:`solver.exact.bellman.solve_state`."""
    from solver.exact.bellman import solve_state

    codes = table[word_list.guess_index(guess), state]
    green = 3 ** word_list.word_length - 1
    return len(state) + sum(solve_state(Game(word_list), state[codes == c], guesses_left - 1, table)[0]
                            for c in np.unique(codes) if c != green)


@pytest.fixture(scope="session")
def warm_assist_kernels(legacy_table):
    """Compile (or load) every kernel the assist's searches use, in this process and with no
    deadline, before any test gives a search a time budget: on a fresh machine the first
    compile takes longer than such budgets (a forked search child inherits what is loaded)."""
    from solver.evaluation.assist import rank_guesses
    from solver.game.history import History

    word_list, table = legacy_table
    for history in ([("salet", "bbbby"), ("crane", "bbbbb")], [("salet", "bbbbb")]):
        state = History.parse(Game(word_list), history, limit=False).state(table)
        ranking = rank_guesses(Game(word_list), state, 6 - len(history), top=5, budget=3600,
                               table=table, in_process=True)
        assert ranking.finished

