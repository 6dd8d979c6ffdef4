"""The one search under each objective and word length, against the brute force.

The worst-case objective (docs/algorithms.md §2.2) and words of 4 and 6 letters (§1.3, uint16
feedback codes) go through the same recursion as the total objective on five letters; each
is checked against ``tests/naive.py``'s plain Bellman recursion on small lists."""

from __future__ import annotations

import dataclasses
import random
import re

import numpy as np
import pytest

from conftest import random_sub_list
from twin_checks import check_opener_tree, check_state_value
from naive import BruteForce, table as naive_table, tree_from_arrays
from solver.exact.bellman import solve, solve_state
from solver.game.errors import InputError
from solver.game.feedback import feedback_table
from solver.game.spec import Game, code_dtype
from solver.game.wordlists import from_words, load_word_list


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def toy_list(length, seed, n_answers, n_guesses):
    """A list of ``length``-letter words cut from the legacy guesses (first letters, or the
    word plus its reversed first letters), distinct, drawn with ``random.Random(seed)``."""
    legacy = load_word_list("legacy")
    if length <= 5:
        pool = sorted({w[:length] for w in legacy.guesses})
    else:
        pool = sorted({w + w[::-1][: length - 5] for w in legacy.guesses})
    rng = random.Random(seed)
    words = rng.sample(pool, n_guesses)
    return from_words(words[:n_answers], words, name=f"toy{length}-{seed}")


WORST_CASES = [  # (seed, answers, guesses, guess limit)
    (1, 30, 150, 6), (2, 25, 120, 4), (3, 40, 100, 3), (4, 20, 180, 6), (5, 35, 90, 4),
    (6, 30, 60, 3), (7, 15, 60, 2), (8, 40, 160, 5),
]
# The plain brute force takes 3 s or more on these: make test-fast skips them.
SLOW_SEEDS = {1, 4, 8}
VALUE_CASES = [pytest.param(*case, marks=pytest.mark.slow) if case[0] in SLOW_SEEDS else case
               for case in WORST_CASES]


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", VALUE_CASES)
@pytest.mark.kernels
def test_worst_case_value_and_guess_equal_brute_force(legacy, seed, n_answers, n_guesses, limit):
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index), "worst")
    check_state_value(Game(wl, objective="worst"), brute, limit)


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", WORST_CASES[:5])
@pytest.mark.kernels
def test_worst_case_tree_for_an_opener_equals_brute_force_tree(legacy, seed, n_answers,
                                                               n_guesses, limit):
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index), "worst")
    solved = check_opener_tree(Game(wl, guess_limit=limit, objective="worst"), brute, seed)
    if solved is not None:
        result, cost = solved
        assert result.max_guesses == result.value == cost


def test_the_two_objectives_differ_where_they_should(legacy):
    """A minimum-total tree need not minimise the worst case and vice versa; on this list the
    worst-case tree is never worse in its maximum, and never better in its total."""
    wl = random_sub_list(legacy, 3, 40, 100)
    opener = wl.answers[0]
    total = solve(Game(wl), opener, jobs=1, resume=False)
    worst = solve(Game(wl, objective="worst"), opener, jobs=1, resume=False)
    assert worst.max_guesses <= total.max_guesses
    assert worst.total >= total.total


@pytest.mark.parametrize("length,seed", [(4, 1), (4, 2), (6, 3), (6, 4)])
@pytest.mark.parametrize("objective", ["total", "worst"])
@pytest.mark.slow
def test_other_word_lengths_equal_brute_force(length, seed, objective):
    wl = toy_list(length, seed, 30, 120)
    assert wl.word_length == length
    table = feedback_table(wl, use_cache=False)
    assert table.dtype == code_dtype(length) == (np.uint8 if length <= 5 else np.uint16)
    naive = naive_table(wl.guesses, wl.answers)
    assert np.array_equal(table, np.array(naive))
    brute = BruteForce(naive, list(wl.answer_guess_index), objective, word_length=length)
    everything = tuple(range(wl.n_answers))
    value, guess = brute.best(everything, 6)
    assert solve_state(Game(wl, objective=objective), everything, 6) == (value, wl.guesses[guess])
    opener = random.Random(seed).randrange(wl.n_guesses)
    result = solve(Game(wl, objective=objective), wl.guesses[opener], jobs=1, resume=False)
    assert result.tree.edge_feedback.dtype == code_dtype(length)
    assert tree_from_arrays(result.tree) == brute.tree(everything, 6, guess=opener)
    assert result.value == brute.guess_cost(opener, everything, 6)


def test_game_rejects_bad_values_with_the_choices():
    from solver.game.priors import Priors
    from solver.game.spec import FeedbackRule, Mode, Objective

    five = from_words(["cigar", "rebut"], ["cigar", "rebut", "salet"])
    six = from_words(["planet", "rocket"], ["planet", "rocket"])
    game = Game(five, mode="hard", objective="worst")
    assert game.n_patterns == 243 and game.all_green == 242 and Game(six).n_patterns == 729
    assert game.mode is Mode.HARD and game.objective is Objective.WORST
    assert game.feedback is FeedbackRule.STANDARD and game.hard and (game.mode_id, game.objective_id) == (1, 1)
    assert game == Game(from_words(["rebut", "cigar"], ["salet", "cigar", "rebut"]), 6, "standard", "hard", "worst")
    assert game != Game(five, mode="hard") and hash(game) != hash(Game(five))
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.mode = Mode.NORMAL
    for bad, message in (({"guess_limit": 0}, "guess limit must be 1..255, got 0"),
                         ({"guess_limit": 2.5}, "guess limit must be 1..255, got 2.5"),
                         ({"objective": "fastest"}, "unknown objective 'fastest'; choose one of total, worst"),
                         ({"mode": "extreme"}, "unknown mode 'extreme'; choose one of normal, hard, ultra"),
                         ({"feedback": "purple"}, "unknown feedback rule 'purple'; choose one of standard, yellow"),
                         ({"mode": "hard", "feedback": "yellow"}, "hard mode reads the greens"),
                         ({"priors": Priors("x", np.ones(3, np.int64), "0" * 64)},
                          "the priors have 3 weights for 2 answers"),
                         ({"priors": Priors("x", np.ones(2, np.int64), "0" * 64), "objective": "worst"},
                          "priors weight the total objective; the 'worst' objective takes none")):
        with pytest.raises(InputError, match=re.escape(message)):
            Game(five, **bad)
    assert game.replace(mode="normal") == Game(five, objective="worst")


def test_unknown_objective_is_an_input_error(legacy):
    with pytest.raises(InputError, match="objective"):
        solve_state(Game(legacy, objective="fastest"), ["cigar", "rebut", "sissy"], 6)


@pytest.mark.slow
def test_salet_least_worst_case_on_the_legacy_lists(legacy):
    """SALET's minimum-total tree needs 5 guesses at most; the worst-case search finds the
    least maximum any SALET tree can guarantee, and its tree replays to exactly that."""
    result = solve(Game(legacy, objective="worst"), "salet", jobs=2, resume=False)
    assert result.max_guesses == result.value == 5
    assert (result.guesses_per_answer >= 1).all()


@pytest.mark.parametrize("length", [4, 6])
def test_artifacts_of_other_word_lengths_round_trip_and_verify(tmp_path, length):
    import policy_tree
    from solver.exact.bellman import save_artifact

    wl = toy_list(length, 7, 25, 90)
    result = solve(Game(wl, objective="worst"), wl.answers[0], jobs=1, resume=False)
    path = save_artifact(result, tmp_path / "toy.msgpack")
    tree = policy_tree.load(path)
    assert tree.header["word_length"] == length and tree.objective == "worst"
    assert tree.tree == result.tree and tree.tree.edge_feedback.dtype == code_dtype(length)
    report = policy_tree.verify(tree)
    assert report.ok, report.failures
    answer = wl.answers[-1]
    game = tree.game(answer)
    assert game[-1] == (answer, 3**length - 1) and len(game) == result.guesses_per_answer[-1]
    assert tree.next_guess(game[:1]) == game[1][0]
