"""Yellow Wordle (docs/algorithms.md §10.4): every green shown as yellow unless the guess is
right. The rule against its plain twin, the exact solver against the brute force on small
lists, the artifact's feedback record, verify under the wrong rule, and the CLIs' refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from solver.game.spec import Game
import pytest
from hypothesis import given, settings, strategies as st

from conftest import random_sub_list
from twin_checks import check_opener_tree, check_state_value
from naive import INF, BruteForce
from naive_yellow import yellow_feedback, yellow_table
from solver.exact.bellman import UnwinnableError, artifact_bytes, solve, solve_state
from solver.game.errors import FeedbackError, InputError
from solver.game.feedback import (code_to_text, feedback_code, feedback_table, parse_feedback,
                                  shows_green, table_cache_path, yellow_code, yellow_lookup)
from solver.game.wordlists import from_words, load_word_list

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


# Repeated letters: a green and a yellow of one letter both show as yellow; which copy is
# marked still follows the standard rule (greens first, then left to right).
HAND_CASES = [
    ("speed", "abide", "bbyby"),
    ("eerie", "there", "ybyby"),
    ("geese", "eerie", "byyby"),
    ("abbey", "babes", "yyyyb"),
    ("eeeee", "there", "bbyby"),
    ("llama", "hello", "yybbb"),
    ("salet", "salet", "ggggg"),
    ("salet", "tales", "yyyyy"),
    ("xxxxx", "salet", "bbbbb"),
]


@pytest.mark.parametrize("guess,answer,expected", HAND_CASES)
def test_hand_worked_cases(guess, answer, expected):
    assert code_to_text(feedback_code(guess, answer, "yellow")) == expected
    assert yellow_feedback(guess, answer) == parse_feedback(expected)


words = st.text(alphabet="abeilst", min_size=5, max_size=5)  # few letters: many repeats


@given(words, words)
@settings(max_examples=400, deadline=None)
def test_rule_equals_its_twin_on_repeated_letters(guess, answer):
    code = feedback_code(guess, answer, "yellow")
    assert code == yellow_feedback(guess, answer)
    assert (code == 242) == (guess == answer)
    assert not shows_green(code)
    assert code == yellow_code(feedback_code(guess, answer))


def test_lookup_maps_every_code():
    lookup = yellow_lookup()
    assert lookup.shape == (243,) and lookup.dtype == np.uint8
    assert [int(lookup[c]) for c in range(243)] == [yellow_code(c) for c in range(243)]
    assert len(set(lookup.tolist())) == 33  # 2**5 b/y patterns and all-green


def test_table_is_the_twins_and_cached_apart(legacy):
    wl = random_sub_list(legacy, 3, 40, 120)
    table = feedback_table(wl, use_cache=False, feedback="yellow")
    assert table.tolist() == yellow_table(wl.guesses, wl.answers)
    assert table_cache_path(wl, "yellow") != table_cache_path(wl)
    with pytest.raises(FeedbackError, match="unknown feedback rule 'purple'"):
        feedback_table(wl, use_cache=False, feedback="purple")


CASES = [(1, 20, 80, 6), (2, 25, 70, 4), (5, 18, 60, 3), (7, 30, 90, 8)]


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", CASES)
@pytest.mark.kernels
def test_state_value_equals_brute_force(legacy, seed, n_answers, n_guesses, limit):
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    brute = BruteForce(yellow_table(wl.guesses, wl.answers), list(wl.answer_guess_index))
    check_state_value(Game(wl, feedback="yellow"), brute, limit)


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", CASES[:3])
@pytest.mark.kernels
def test_tree_equals_brute_force_tree(legacy, seed, n_answers, n_guesses, limit):
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    brute = BruteForce(yellow_table(wl.guesses, wl.answers), list(wl.answer_guess_index))
    solved = check_opener_tree(Game(wl, guess_limit=limit, feedback="yellow"), brute, seed)
    if solved is not None:
        result, cost = solved
        assert result.total == cost


def test_anagrams_need_guesses_beyond_the_limit():
    """Five anagrams of distinct letters: nothing tells them apart but a guess with a repeated
    letter or the word itself, so two guesses cannot win them all."""
    answers = ["least", "slate", "stale", "steal", "tales"]
    wl = from_words(answers, answers, "anagrams")
    with pytest.raises(UnwinnableError):
        solve_state(Game(wl, feedback="yellow"), answers, 2)
    value, _ = solve_state(Game(wl, feedback="yellow"), answers, 5)
    assert value == 1 + 2 + 3 + 4 + 5  # each guess tells one answer apart: 1..5 guesses
    assert solve_state(Game(wl), answers, 2)[0] == 9  # the standard game splits them at once


def test_hard_mode_is_refused(legacy):
    with pytest.raises(InputError, match="hard mode"):
        solve(Game(legacy, mode="hard", feedback="yellow"), "salet", jobs=1)


@pytest.fixture(scope="module")
def yellow_tree(legacy):
    import policy_tree

    wl = random_sub_list(legacy, 11, 40, 150)
    result = solve(Game(wl, guess_limit=8, feedback="yellow"), wl.guesses[0], jobs=1, resume=False)
    return result, policy_tree.decode(artifact_bytes(result))


def test_artifact_round_trip_records_the_rule(yellow_tree):
    result, tree = yellow_tree
    assert tree.feedback == "yellow" and result.game.feedback == "yellow"
    assert tree.to_bytes() == artifact_bytes(result)
    assert tree.total == result.total
    for answer in tree.word_list.answers:
        steps = tree.game(answer)
        assert steps[-1] == (answer, 242)
        assert not any(shows_green(code) for _, code in steps[:-1])


def test_verify_replays_with_the_trees_rule_and_refuses_the_other(yellow_tree):
    import policy_tree

    _, tree = yellow_tree
    assert policy_tree.verify(tree).ok
    wrong = policy_tree.verify(tree, feedback="standard")
    assert not wrong.ok


def test_standard_artifact_has_no_feedback_key(legacy):
    import msgpack

    wl = random_sub_list(legacy, 1, 20, 60)
    document = msgpack.unpackb(artifact_bytes(solve(Game(wl), wl.guesses[0], jobs=1, resume=False)))
    assert "feedback" not in document


def test_reader_refuses_an_unknown_rule_and_a_green_edge(yellow_tree):
    import msgpack

    from policy_tree.artifact import seal

    import policy_tree
    from policy_tree.errors import CorruptArtifactError, UnsupportedArtifactError

    result, _ = yellow_tree
    document = msgpack.unpackb(artifact_bytes(result), raw=False)
    document["feedback"] = "purple"
    with pytest.raises(UnsupportedArtifactError, match="feedback rule 'purple'"):
        policy_tree.decode(seal(document))
    document["feedback"] = "yellow"
    normal = solve(Game(result.word_list, guess_limit=8), result.opener, jobs=1, resume=False)
    standard = msgpack.unpackb(artifact_bytes(normal), raw=False)
    if any(shows_green(c) for c in standard["tree"]["edge_feedback"]):
        standard["feedback"] = "yellow"
        with pytest.raises(CorruptArtifactError, match="shows a green"):
            policy_tree.decode(seal(standard))


def test_lookup_refuses_a_green_in_a_yellow_game(yellow_tree):
    _, tree = yellow_tree
    with pytest.raises(FeedbackError, match="guess 1: .* shows a green, but in Yellow Wordle greens show as yellow"):
        tree.next_guess([(tree.opener, "gbbbb")])


def test_journal_and_artifact_names_differ_by_rule(legacy):
    from solver.exact.bellman import artifact_path, game_inputs

    assert (game_inputs(Game(legacy, guess_limit=8))
            != game_inputs(Game(legacy, guess_limit=8, feedback="yellow")))
    assert artifact_path(Game(legacy, guess_limit=8, feedback="yellow"), "salet").name == \
        "legacy-normal-yellow-salet-limit8.msgpack"


@pytest.mark.parametrize("tool,args", [("tools.solve", ["--feedback", "purple"]),
                                       ("tools.tree", ["verify", "artifacts/legacy-normal-salet.msgpack",
                                                       "--feedback", "purple"])])
def test_unknown_feedback_exits_2_with_one_line(tool, args):
    proc = subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "unknown feedback rule 'purple'" in lines[0], proc.stderr


@pytest.mark.kernels
def test_tree_floor_fills_the_levels():
    from solver.exact._search_kernel import tree_floor

    assert tree_floor(5, 1, 5) == 1 + 2 + 3 + 4 + 5  # one class a guess: the anagram chain
    assert tree_floor(5, 1, 4) >= INF
    assert tree_floor(33, 32, 2) == 1 + 2 * 32
    assert tree_floor(40, 32, 3) == 1 + 2 * 32 + 3 * 7
    assert tree_floor(40, 32, 2) >= INF


@pytest.mark.kernels
def test_branching_counts_the_non_green_codes(legacy):
    from solver.exact._search_kernel import branching

    wl = random_sub_list(legacy, 4, 60, 200)
    assert branching(feedback_table(wl, use_cache=False, feedback="yellow"), 242) <= 32
    standard = feedback_table(wl, use_cache=False)
    assert branching(standard, 242) == len(set(standard.ravel().tolist()) - {242})
