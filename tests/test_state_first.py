"""The state asked, first (docs/algorithms.md §15.1): a question after any opener is answered by
searching the state the history leaves, never by building the opener's whole tree; a budget is
a bound; "exact" means proven and "best found, not proven" says its gap; an analysis within a
budget gives proven intervals that hold the exact values."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from solver.evaluation.analysis import analyse_game
from solver.exact.bellman import solve_from, solve_state
from solver.exact.service import EXACT, NOT_PROVEN, SearchService
from solver.game.feedback import code_to_text, feedback_code
from solver.game.spec import Game

ROOT = Path(__file__).resolve().parents[1]


def _history(words, answer):
    return [(w, code_to_text(feedback_code(w, answer), len(w))) for w in words]


@pytest.fixture(scope="module")
def small():
    from conftest import numpy_sub_list

    return numpy_sub_list(31, 60, 200)


@pytest.mark.slow
def test_a_few_answers_after_an_opener_with_no_tree_are_answered_at_once(tmp_path, monkeypatch):
    """The issue's case: hard mode, OUIJA then TRIST leave four answers; OUIJA has no tree. The
    answer is exact from the state (SIGHT, 7 over 4 answers), and no tree of OUIJA is built."""
    from solver.game.wordlists import load_word_list

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    game = Game(load_word_list("legacy"), mode="hard")
    service = SearchService(game)
    history = ["ouija:bbybb", "trist:bbyyg"]
    advice = service.advise(history, top=0, budget=30)
    independent = solve_from(game, [h.split(":") for h in history])
    assert (advice.status, advice.source, advice.opener_tree) == (EXACT, "solver", None)
    assert (advice.next_guess, advice.value, advice.gap) == (independent.next_guess, independent.value, 0)
    assert (advice.next_guess, advice.value, advice.n_answers) == ("sight", 7, 4)
    assert service.book.find("ouija") is None and not list(tmp_path.glob("book/*/*ouija*"))
    assert not list(tmp_path.glob("journals/*ouija*"))


def test_exact_means_proven_and_not_proven_says_its_gap(small):
    """Within budgets from none to generous, an answer is exact exactly when its value is
    proven (value == lower bound), and a "best found" answer has a positive gap."""
    word_list, table = small
    service = SearchService(Game(word_list), table=table, book=False)
    rng = np.random.default_rng(5)
    seen = set()
    for _ in range(12):
        answer = word_list.answers[int(rng.integers(word_list.n_answers))]
        opener = word_list.guesses[int(rng.integers(word_list.n_guesses))]
        if opener == answer:
            continue
        for budget in (1e-4, 0.05, None):
            advice = service.advise(_history([opener], answer), top=0, budget=budget)
            seen.add(advice.status)
            if advice.status == EXACT:
                assert advice.value == advice.lower_bound and advice.gap == 0
                exact = solve_from(Game(word_list), _history([opener], answer), table=table)
                assert advice.value == exact.value
            else:
                assert advice.status == NOT_PROVEN
                assert advice.gap is None or advice.gap > 0
                exact = solve_from(Game(word_list), _history([opener], answer), table=table)
                assert advice.lower_bound is None or advice.lower_bound <= exact.value
                assert advice.value is None or advice.value >= exact.value
    assert EXACT in seen


def _inside(bounds, exact) -> bool:
    low, high = bounds
    return (low is None or low <= exact) and (high is None or exact <= high)


@pytest.mark.parametrize("budget", [1e-4, 0.02, 0.2])
def test_an_analysis_within_a_budget_holds_the_exact_values(small, budget, tmp_path, monkeypatch):
    """Every value of an analysis under a budget is exact or a proven interval, never unknown,
    and holds the value the analysis without a budget finds (V*, Q*, regret, luck)."""
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list, table = small
    rng = np.random.default_rng(11)
    for _ in range(4):
        answer = word_list.answers[int(rng.integers(word_list.n_answers))]
        words = [word_list.guesses[int(g)] for g in rng.choice(word_list.n_guesses, 2, replace=False)]
        if answer in words:
            continue
        history = _history([*words, answer], answer)
        exact = analyse_game(Game(word_list), history,
                             service=SearchService(Game(word_list), table=table, cache=False))
        # a list with no proven opener: V* at the start is not known to the analysis
        assert all(m.exact for m in exact.moves[1:]) and exact.moves[0].q_value is not None
        timed = analyse_game(Game(word_list), history, budget=budget,
                             service=SearchService(Game(word_list), table=table, cache=False))
        for quick, full in zip(timed.moves, exact.moves):
            assert quick.value_lower_bound is not None
            if full.value_exact:
                assert _inside((quick.value_lower_bound, quick.value), full.value)
            assert _inside((quick.q_lower_bound, quick.q_upper_bound), full.q_value)
            assert quick.regret_bounds is not None
            if full.regret is not None and full.value_exact:
                assert _inside(quick.regret_bounds, full.regret)
            if full.luck is not None:
                assert quick.luck_bounds is not None and _inside(quick.luck_bounds, full.luck)
            if quick.value_exact and quick.q_value is not None and full.value_exact:
                assert quick.regret == full.regret
        # the identity of the module docstring, with the true V* at the start
        start, _ = solve_state(Game(word_list), list(range(word_list.n_answers)), 6, table=table)
        first = Fraction(exact.moves[0].q_value - start, word_list.n_answers)
        assert len(history) == Fraction(start, word_list.n_answers) + first \
            + sum(m.regret for m in exact.moves[1:]) - exact.total_luck


@pytest.mark.timed
@pytest.mark.parametrize("tool,args,budget", [
    ("assist", ["qajaq:bbbbb", "--top", "0"], 2),
    ("assist", ["fuzzy:bbbbb", "--mode", "hard", "--top", "0"], 2),
    ("analyse", ["qajaq", "salet", "tenor", "--answer", "tenor"], 5),
])
def test_a_budget_is_a_bound(tool, args, budget, tmp_path):
    """With --budget B a play tool returns within B plus the documented margin (1 s: start-up
    before the clock starts, stopping the search's child), start-up included, with an empty
    user cache but for the feedback table, after openers with no tree and a state of over a
    thousand answers; the analysis has every value exact or a proven interval."""
    import os
    import shutil

    from solver.game.feedback import feedback_table, table_cache_path
    from solver.game.wordlists import load_word_list

    word_list = load_word_list("legacy")
    feedback_table(word_list)
    shutil.copyfile(table_cache_path(word_list), tmp_path / table_cache_path(word_list).name)
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path))
    subprocess.run([sys.executable, "-m", f"tools.{tool}", "--help"], cwd=ROOT, env=env,
                   capture_output=True, check=True)  # the interpreter's own caches, once
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", f"tools.{tool}", *args, "--budget", str(budget), "--json",
                           "--words", "legacy"],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=budget + 120)
    wall = time.perf_counter() - started
    assert proc.returncode == 0, proc.stderr
    assert wall < budget + 1.0, wall
    answer = json.loads(proc.stdout)
    if tool == "assist":
        assert answer["status"] in ("exact", "best found, not proven")
        assert answer["lower_bound_total"] is not None
    else:
        for move in answer["moves"]:
            assert move["value_lower_bound_total"] is not None
            assert move["q_star_interval"] is not None and move["regret_interval"] is not None


@pytest.mark.parametrize("mode", ["normal", "hard", "ultra"])
def test_states_of_one_or_two_answers_are_answered_without_the_kernels_as_the_kernels_would(small, mode):
    """small_tree (no search) gives the value, the guess and the subtree's replay of the
    solver's own search (solve_from), lifted past the limit when too few guesses are left."""
    word_list, table = small
    game = Game(word_list, mode=mode)
    service = SearchService(game, table=table, book=False)
    rng = np.random.default_rng(17)
    tried = 0
    while tried < 40:
        answer = word_list.answers[int(rng.integers(word_list.n_answers))]
        words = [word_list.guesses[int(g)] for g in rng.choice(word_list.n_guesses, 3, replace=False)]
        history = _history(words, answer)
        steps = service.normalise(history) if mode == "normal" else None
        if steps is None:
            try:
                steps = service.normalise(history)
            except Exception:  # a random guess that ignores a hint: not a hard-mode history
                continue
        for k in range(1, 4):
            state = service.state_after(steps[:k])
            if not 1 <= len(state) <= 2 or steps[k - 1][1] == game.all_green:
                continue
            tried += 1
            small_answer = service.small_tree(state, 6 - k)
            independent = solve_from(game, steps[:k], table=table)
            assert small_answer[1] == independent.value and small_answer[2] == 0
            assert word_list.guesses[int(small_answer[0].node_guess[0])] == independent.next_guess
            assert service.tree_value(small_answer[0], 0, state) == independent.value
            lifted = service.small_tree(state, len(state) - 1)
            assert lifted[2] == 1 and lifted[1] == independent.value
            assert service.small_tree(state, len(state) - 1, lift=False)[1] >= 2**30


def test_a_long_exact_search_is_announced(small, monkeypatch):
    """With no budget, the player is told before the exact search of a large state starts
    (here any state of more than 2 answers counts as large), and never for a tree's lookup."""
    import solver.exact.anytime as anytime

    monkeypatch.setattr(anytime, "IN_PROCESS_MAX", 2)
    word_list, table = small
    service = SearchService(Game(word_list), table=table, book=False)
    opener = word_list.guesses[0]
    told = []
    advice = service.advise([(opener, "bbbbb")], top=0, notice=told.append)
    assert advice.n_answers > 2 and advice.status == EXACT
    assert len(told) == 1 and f"searching the {advice.n_answers} answers left exactly" in told[0]
    assert opener.upper() in told[0]
    told.clear()
    service.advise([(opener, "bbbbb")], top=0, budget=5, notice=told.append)
    assert told == []  # within a budget the answer comes in time: nothing to announce
