"""Solving from any history: the state, its value and subtree, against the brute force and
against the full solve."""

from __future__ import annotations

from solver.game.spec import Game
from solver.game.history import History
import pytest

from naive import BruteForce, table as naive_table, tree_from_arrays
from solver.exact.bellman import UnwinnableError, solve_from, solve_state
from solver.game.errors import FeedbackError, UnknownWordError
from solver.game.feedback import feedback_code
from solver.game.wordlists import from_words, load_word_list


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def played(guesses, answer):
    return [(g, feedback_code(g, answer)) for g in guesses]


@pytest.mark.parametrize("objective", ["total", "worst"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_off_tree_history_equals_brute_force_on_the_state(legacy, objective, seed):
    """Two arbitrary guesses on a small random list (120 answers, 400 guesses), then the
    state's value, next guess and whole subtree against the plain recursion."""
    import random

    rng = random.Random(seed)
    answers = rng.sample(legacy.answers, 120)
    others = rng.sample([w for w in legacy.guesses if w not in set(answers)], 280)
    wl = from_words(answers, answers + others, name=f"sub{seed}")
    answer = rng.choice(wl.answers)
    history = played(rng.sample(wl.guesses, 2), answer)
    solution = solve_from(Game(wl, objective=objective), history)
    state = History.parse(Game(wl), history, limit=False).state()
    assert solution.answers == tuple(wl.answers[a] for a in state)
    assert answer in solution.answers and solution.guesses_left == 4
    naive = naive_table(wl.guesses, wl.answers)
    brute = BruteForce(naive, list(wl.answer_guess_index), objective)
    value, guess = brute.best(tuple(int(a) for a in state), 4)
    assert (solution.value, solution.next_guess) == (value, wl.guesses[guess])
    assert tree_from_arrays(solution.tree) == brute.tree(tuple(int(a) for a in state), 4)
    assert solve_state(Game(wl, objective=objective), solution.answers, 4) == (value, wl.guesses[guess])


def test_text_feedback_and_a_won_game(legacy):
    solution = solve_from(Game(legacy), [("salet", "bbbby"), ("north", "bbggg")])
    assert solution.answers == ("birth", "girth", "mirth") and solution.value == 6
    done = solve_from(Game(legacy), [("salet", "bbbby"), ("birth", "ggggg")])
    assert done.value == 0 and done.next_guess is None


def test_bad_histories_name_the_guess_at_fault(legacy):
    with pytest.raises(FeedbackError, match=r"guess 2 \(crane:ggggg\)"):
        solve_from(Game(legacy), [("salet", "bbbby"), ("crane", "ggggg")])
    with pytest.raises(UnknownWordError):
        solve_from(Game(legacy), [("zzzzz", "bbbbb")])
    with pytest.raises(FeedbackError):
        solve_from(Game(legacy), [("salet", "bbbbq")])
    with pytest.raises(UnwinnableError):
        solve_from(Game(legacy, guess_limit=2), played(["salet"], "pound"))
