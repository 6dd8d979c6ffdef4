"""Lexicographic objectives (docs/algorithms.md §2.5): ``total,worst``, ``total,tail`` and
``worst,total`` against a brute force that enumerates every tree's histogram
(``tests/naive_lexicographic.py``), the command line, and the shipped SALET tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import random_sub_list
from naive import BruteForce, table as naive_table, tree_from_arrays
from naive_lexicographic import LexicographicBruteForce, key
from naive_yellow import yellow_table
from solver.exact.bellman import UnwinnableError, solve
from solver.game.errors import InputError
from solver.game.spec import OBJECTIVES, SEARCH_OBJECTIVES, Game, Objective
from solver.game.wordlists import from_words, load_word_list

ROOT = Path(__file__).resolve().parents[1]
LEXICOGRAPHIC = ("total,worst", "total,tail", "worst,total")
# (seed, answers, guesses, guess limit): random lists on which the enumeration of every tree
# takes a second or so
CASES = [(2, 15, 50, 4), (3, 10, 30, 3), (4, 14, 40, 5), (5, 16, 45, 4)]
#: SALET's class bgbby on the legacy lists (29 answers), with the guesses its trees play: on it
#: the plain tree's first optimal guess (CORBY) leaves a game at 5 guesses, PUBCO none.
BGBBY = ("batch baton batty cacti catch catty datum faith fatty hatch match party patch patio "
         "patty ratio ratty tabby taboo tacky taffy tango tangy tapir tardy tatty tawny warty "
         "watch").split()
BGBBY_GUESSES = ["confs", "corby", "hawms", "pubco", "salet", "trant"]


def bgbby_list():
    """SALET's class bgbby and a few guesses; SALET (all gray-green-gray-gray-yellow on every
    answer) tells nothing, so a tree from SALET within 5 is the class's tree within 4."""
    return from_words(BGBBY, BGBBY + BGBBY_GUESSES, name="bgbby")


def seed4_list(legacy):
    """60 answers of the legacy list (``random_sub_list(legacy, 4, 60, 150)``) and three other
    guesses; from JAFFA the plain total tree has more games at 5 (and the worst-case tree a
    larger total) than the lexicographic ones."""
    answers = list(random_sub_list(legacy, 4, 60, 150).answers)
    return from_words(answers, answers + ["jaffa", "lieve", "nites"], name="seed4")


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory, monkeypatch):
    """A user cache of this module's own: the journals an unwinnable solve keeps for a resume,
    and the small lists' tables, stay out of the user's."""
    cache = tmp_path_factory.getbasetemp() / "lexicographic-cache"
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(cache))
    return cache


def _node_state(tree, node, state, table, all_green):
    """(guess, [(child node, child state)]) of a tree node over its state."""
    guess = int(tree.node_guess[node])
    children = []
    for e in range(int(tree.edge_start[node]), int(tree.edge_start[node + 1])):
        code = int(tree.edge_feedback[e])
        assert code != all_green
        children.append((int(tree.edge_child[e]), tuple(a for a in state if table[guess][a] == code)))
    return guess, children


def _check_every_node(brute, objective, tree, node, state, d, table, allowed_set):
    """Under ``total,…`` every subtree of the optimum is the optimum of its own state (§2.5):
    each node plays the brute force's first guess of its state (among the guesses
    ``allowed_set`` holds) and reaches its least key."""
    guess, children = _node_state(tree, node, state, table, brute.all_green)
    if len(state) > 1:
        assert guess == brute.first_guess(objective, state, d, allowed_set), (state, d)
    else:
        assert guess == brute.guess_of_answer[state[0]]
    for child, members in children:
        code = table[guess][members[0]]
        _check_every_node(brute, objective, tree, child, members, d - 1, table,
                          brute.after(allowed_set, guess, code))


def _equal_brute_force(wl, limit, objective, openers, feedback="standard", mode="normal"):
    """The solver's tree from each opener against the enumeration of every tree: the least key,
    the primary value, and (``total,…``: every subtree of the optimum is its state's optimum,
    §2.5) the guess of every node, the first in the candidate order that reaches its state's
    least key. Returns how many openers were winnable. ``feedback``: the game's rule (Yellow
    Wordle's table from ``tests/naive_yellow.py``)."""
    table = (yellow_table if feedback == "yellow" else naive_table)(wl.guesses, wl.answers)
    brute = LexicographicBruteForce(table, list(wl.answer_guess_index),
                                    hard_guesses=list(wl.guesses) if mode == "hard" else None)
    everything = tuple(range(wl.n_answers))
    checked = 0
    for opener in openers:
        expected = brute.best(objective, everything, limit, guess=opener)
        game = Game(wl, guess_limit=limit, objective=objective, feedback=feedback, mode=mode)
        if expected is None:
            with pytest.raises(UnwinnableError):
                solve(game, wl.guesses[opener], jobs=1, resume=False)
            continue
        result = solve(game, wl.guesses[opener], jobs=1, resume=False)
        assert key(objective, tuple(result.histogram)) == expected[0], wl.guesses[opener]
        assert result.value == expected[0][0]  # the primary objective's value
        if objective != "worst,total":
            _, root_classes = _node_state(result.tree, 0, everything, table, brute.all_green)
            for child, members in root_classes:
                code = table[opener][members[0]]
                _check_every_node(brute, objective, result.tree, child, members, limit - 1, table,
                                  brute.after(brute.every_guess, opener, code))
        checked += 1
    return checked


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", CASES)
@pytest.mark.parametrize("objective", LEXICOGRAPHIC)
def test_lexicographic_trees_equal_the_brute_force(legacy, seed, n_answers, n_guesses, limit,
                                                   objective):
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    assert _equal_brute_force(wl, limit, objective, range(0, wl.n_guesses, 3)) >= 5


@pytest.mark.parametrize("objective", LEXICOGRAPHIC)
def test_lexicographic_trees_equal_the_brute_force_under_yellow_feedback(legacy, objective):
    """Yellow Wordle (docs/algorithms.md §10.4): the same recursion over its table."""
    wl = random_sub_list(legacy, 2, 15, 50)
    assert _equal_brute_force(wl, 5, objective, range(0, wl.n_guesses, 4), "yellow") >= 5


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit,stride", [
    (7, 10, 40, 4, 3), pytest.param(2, 15, 50, 4, 8, marks=pytest.mark.slow),
    pytest.param(6, 20, 60, 5, 4, marks=pytest.mark.slow)])
@pytest.mark.parametrize("objective", LEXICOGRAPHIC)
def test_lexicographic_trees_equal_the_brute_force_in_hard_mode(legacy, seed, n_answers, n_guesses,
                                                                limit, stride, objective):
    """Hard mode (docs/algorithms.md §10): every state carries the guesses its hints allow."""
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    assert _equal_brute_force(wl, limit, objective, range(0, wl.n_guesses, stride), mode="hard") >= 5


@pytest.mark.parametrize("objective", LEXICOGRAPHIC)
def test_hard_mode_keeps_every_hint_down_the_tree(objective):
    """SALET's hard-mode class gbyyb (SHELF … SWELL) with SALET and SHLEP: deep in the tree
    the hints rule out guesses a recursion that kept only the class's first hints would play
    (it finds 4 games at 3 and 5 at 4, with a guess the rule forbids; the least hard-mode
    tree has 5 at 3, 3 at 4, 1 at 5)."""
    answers = "shelf shell slice slide slime slope smell smile spell swell".split()
    wl = from_words(answers, answers + ["salet", "shlep"], name="gbyyb")
    assert _equal_brute_force(wl, 6, objective, range(wl.n_guesses), mode="hard") == wl.n_guesses
    result = solve(Game(wl, mode="hard", objective=objective), "salet", jobs=1, resume=False)
    assert result.histogram == [0, 1, 5, 3, 1, 0]


@pytest.mark.parametrize("objective", LEXICOGRAPHIC)
@pytest.mark.slow  # the enumeration over 60 answers: about 10 s each
def test_lexicographic_trees_equal_the_brute_force_where_the_plain_tree_loses(legacy, objective):
    """The openers of the plain trees' defeats (pinned below) on the two lists, and others."""
    bgbby, seed4 = bgbby_list(), seed4_list(legacy)
    openers = [bgbby.guess_index("salet"), *range(0, bgbby.n_guesses, 3)]
    assert _equal_brute_force(bgbby, 5, objective, openers) == len(openers)
    openers = [seed4.guess_index("jaffa"), *range(0, seed4.n_guesses, 15)]
    assert _equal_brute_force(seed4, 5, objective, openers) == len(openers)


def test_the_plain_trees_are_beaten_on_these_lists(legacy):
    """The figures that make the brute-force comparisons above bite: a total-optimal tree with
    a smaller worst case / fewer deep games than the plain tree, and a least-worst-case tree
    with a smaller total than the worst-case search's."""
    histograms = {objective: solve(Game(bgbby_list(), guess_limit=5, objective=objective), "salet",
                                   jobs=1, resume=False).histogram
                  for objective in ("total", *LEXICOGRAPHIC)}
    assert histograms == {"total": [0, 0, 13, 15, 1], "total,worst": [0, 0, 12, 17, 0],
                          "total,tail": [0, 0, 12, 17, 0], "worst,total": [0, 0, 12, 17, 0]}
    histograms = {objective: solve(Game(seed4_list(legacy), guess_limit=5, objective=objective),
                                   "jaffa", jobs=1, resume=False).histogram
                  for objective in ("total", "worst", *LEXICOGRAPHIC)}
    assert histograms == {"total": [0, 13, 37, 10, 0], "worst": [0, 12, 38, 10, 0],
                          "total,worst": [0, 13, 37, 10, 0], "total,tail": [0, 12, 39, 9, 0],
                          "worst,total": [0, 13, 37, 10, 0]}


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", CASES[:2])
def test_worst_total_is_the_total_tree_under_the_least_worst_case(legacy, seed, n_answers,
                                                                   n_guesses, limit):
    """``worst,total`` = the least total within W* guesses, W* the least worst case: the same
    tree, node for node, as the total objective's brute force under the guess limit W*."""
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    table = naive_table(wl.guesses, wl.answers)
    worst = BruteForce(table, list(wl.answer_guess_index), "worst")
    everything = tuple(range(wl.n_answers))
    for opener in range(0, wl.n_guesses, 5):
        least_worst = worst.guess_cost(opener, everything, limit)
        if least_worst >= 1 << 30:
            continue
        result = solve(Game(wl, guess_limit=limit, objective="worst,total"), wl.guesses[opener],
                       jobs=1, resume=False)
        total = BruteForce(table, list(wl.answer_guess_index))
        assert result.max_guesses == least_worst and len(result.histogram) == limit
        assert tree_from_arrays(result.tree) == total.tree(everything, least_worst, guess=opener)


def test_objectives_and_their_refusals():
    five = from_words(["cigar", "rebut"], ["cigar", "rebut", "salet"])
    assert OBJECTIVES == ("total", "worst", "total,worst", "total,tail", "worst,total")
    assert SEARCH_OBJECTIVES == ("total", "worst")
    assert [Objective(o).primary for o in OBJECTIVES] == [
        Objective.TOTAL, Objective.WORST, Objective.TOTAL, Objective.TOTAL, Objective.WORST]
    game = Game(five, objective="total,tail")
    with pytest.raises(InputError, match="the 'total,tail' objective builds a whole tree"):
        _ = game.objective_id
    with pytest.raises(InputError, match="choose one of total, worst, total,worst, total,tail, worst,total"):
        Game(five, objective="tail")


def test_artifact_name_records_the_objective(legacy):
    from solver.runs.naming import artifact_path

    assert artifact_path(Game(legacy, objective="total,tail"), "salet").name == (
        "legacy-normal-total-tail-salet.msgpack")
    assert artifact_path(Game(legacy, objective="worst,total"), "salet").name == (
        "legacy-normal-worst-total-salet.msgpack")


def _run(*args, cache):
    import os

    env = dict(os.environ, EXACT_WORDLE_CACHE=str(cache))
    return subprocess.run([sys.executable, "-m", "tools.solve", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)


def test_cli_writes_a_lexicographic_artifact_and_refuses_bad_names(tmp_path, legacy):
    import policy_tree

    wl = random_sub_list(legacy, 5, 16, 45)
    directory = tmp_path / "small"
    directory.mkdir()
    (directory / "answers.txt").write_text("\n".join(wl.answers) + "\n")
    (directory / "guesses.txt").write_text("\n".join(wl.guesses) + "\n")
    brute = LexicographicBruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index))
    opener = wl.guesses[8]
    expected = brute.best("total,tail", tuple(range(wl.n_answers)), 4, guess=8)
    out = tmp_path / "tree.msgpack"
    proc = _run("--words", str(directory), "--opener", opener, "--guess-limit", "4",
                "--objective", "total,tail", "--out", str(out), "--jobs", "1", cache=tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    assert "lexicographic optimum (total,tail)" in proc.stdout
    tree = policy_tree.load(out)
    assert tree.objective == "total,tail" and tuple(tree.header["histogram"]) == expected[1]
    assert policy_tree.verify(tree).ok
    bad = _run("--objective", "tail", "--out", str(tmp_path / "x.msgpack"), cache=tmp_path / "cache")
    assert bad.returncode == 2
    assert "invalid choice: 'tail'" in bad.stderr
    assert "'total,worst', 'total,tail', 'worst,total'" in bad.stderr
    assert not (tmp_path / "x.msgpack").exists()


SHIPPED = ROOT / "artifacts" / "legacy-normal-total-tail-salet.msgpack"


def test_shipped_salet_total_tail_tree():
    """The shipped tree (``python -m tools.solve --objective total,tail``): SALET's least total
    7920, and among those trees the fewest games at five guesses; it replays and verifies."""
    import policy_tree

    tree = policy_tree.load(SHIPPED)
    plain = policy_tree.load(ROOT / "artifacts" / "legacy-normal-salet.msgpack")
    assert tree.objective == "total,tail" and tree.opener == "salet"
    assert tree.total == plain.total == 7920
    assert policy_tree.verify(tree).ok
    histogram, before = tree.header["histogram"], plain.header["histogram"]
    assert histogram[::-1] < before[::-1]
    assert np.dot(np.arange(1, 7), histogram) == 7920
