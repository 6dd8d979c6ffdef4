"""Absurdle's least forced win (solver/exact/absurdle.py, docs/algorithms.md §13) against a
plain-Python minimax over every guess sequence (tests/naive_absurdle.py), and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import random_sub_list
from naive_absurdle import NaiveAbsurdle
from solver.exact.absurdle import (TIE_RULES, AbsurdleInputError, adversary_state, replay, size_bound,
                                   solve_absurdle, split_bound, tie_priority)
from solver.game.errors import InputError
from solver.game.feedback import feedback_table
from solver.game.wordlists import from_words, load_word_list

ROOT = Path(__file__).resolve().parents[1]
TIES = list(TIE_RULES)

# Eight -ill answers and one probe: a list where the tie rule changes the least forced win
# (the adversarial rule needs one guess more).
ILL = ["drill", "frill", "grill", "krill", "quill", "skill", "spill", "still"]
ILL_GUESSES = ILL + ["lapis"]


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def check_against_naive(word_list, tie, history=(), limit=12):
    """Solve, then check the least and the plan against the brute force; returns the result."""
    table = feedback_table(word_list, use_cache=False)
    result = solve_absurdle(word_list, history, tie=tie, table=table, depth_limit=limit)
    naive = NaiveAbsurdle(word_list.answers, word_list.guesses, tie)
    state = naive.answers
    for word, code in result.history:  # the naive adversary's state after the history
        options = dict(naive.replies(word, state))
        assert code in options
        state = options[code]
    assert result.state_size == len(state)
    assert result.least == naive.least(state, limit=limit)
    if result.least is not None:
        assert naive.strategy_wins(result.plan, state)
        assert naive.depth(result.plan) == result.least
        assert naive.play(result.sequence, state)
        assert len(result.sequence) == result.least
        assert [level.won for level in result.levels] == [False] * (result.least - 1) + [True]
        if result.least > 1:
            assert not naive.wins(state, result.least - 1)  # what the proof level says
            assert result.proof.guesses == result.least - 1 and not result.proof.won
    return result


@pytest.mark.kernels
@pytest.mark.parametrize("tie", TIES)
@pytest.mark.parametrize("seed, n_answers, n_guesses", [(1, 20, 100), (4, 30, 100)])
def test_small_random_lists_match_brute_force(legacy, seed, n_answers, n_guesses, tie):
    check_against_naive(random_sub_list(legacy, seed, n_answers, n_guesses), tie)


@pytest.mark.slow
@pytest.mark.parametrize("tie", TIES)
@pytest.mark.parametrize("seed, n_answers, n_guesses", [(2, 40, 200), (3, 60, 300)])
def test_larger_random_lists_match_brute_force(legacy, seed, n_answers, n_guesses, tie):
    check_against_naive(random_sub_list(legacy, seed, n_answers, n_guesses), tie)


@pytest.mark.kernels
@pytest.mark.parametrize("tie", TIES)
@pytest.mark.parametrize("suffix, extra, least", [("atch", 0, 7), ("ake", 0, 5), ("ore", 5, 5),
                                                   ("ash", 5, 4)])
def test_deep_searches_match_brute_force(legacy, suffix, extra, least, tie):
    """Rhyming answers split badly: the four-or-more-guess recursion above the kernels runs."""
    import random

    answers = [w for w in legacy.answers if w.endswith(suffix)]
    rng = random.Random(len(answers) * 100 + extra)
    others = rng.sample([w for w in legacy.guesses if w not in answers], extra)
    result = check_against_naive(from_words(answers, answers + others, suffix), tie)
    assert result.least == least


@pytest.mark.kernels
def test_the_tie_rule_matters():
    word_list = from_words(ILL, ILL_GUESSES, "ill")
    least = {tie: check_against_naive(word_list, tie).least for tie in TIES}
    assert least == {"adversarial": 4, "fewest-clues": 3, "lowest-code": 3}


@pytest.mark.kernels
@pytest.mark.parametrize("tie", TIES)
def test_a_history_continues(legacy, tie):
    word_list = random_sub_list(legacy, 4, 30, 100)
    start = check_against_naive(word_list, tie)
    first = start.sequence[0]
    after = check_against_naive(word_list, tie, history=[first])
    assert after.least == start.least - 1
    assert after.history == [first]


@pytest.mark.kernels
def test_no_forced_win_within_the_limit():
    word_list = from_words(ILL, ILL_GUESSES, "ill")
    result = solve_absurdle(word_list, tie="adversarial", depth_limit=3)
    assert result.least is None and result.plan is None and result.proof is None
    assert [level.won for level in result.levels] == [False, False, False]


def test_one_answer_left_is_won_by_one_guess():
    from solver.game.feedback import feedback_code

    word_list = from_words(["crane", "slate"], ["crane", "slate"], "two")
    result = solve_absurdle(word_list, tie="lowest-code")
    assert result.least == 2  # a guess of either word splits the two: a full split
    # the all-green class ties with the other singleton and loses: slate leaves crane
    one = solve_absurdle(word_list, [("slate", feedback_code("slate", "crane"))], tie="lowest-code")
    assert one.state_size == 1 and one.least == 1 and one.sequence == [("crane", 242)]
    assert one.proof is None


def test_tie_priorities():
    lowest = tie_priority("lowest-code")
    assert list(lowest[:5]) == [0, 1, 2, 3, 4] and lowest[242] == 242
    fewest = tie_priority("fewest-clues")
    assert fewest[0] == 0 and fewest[242] == 242  # all gray first, all green last
    assert fewest[1] == 1 and fewest[3] == 2  # one yellow (first, then second letter)
    assert fewest[2] > fewest[1 + 3 + 9 + 27 + 81]  # a green outranks five yellows


def test_bounds():
    assert split_bound(5) == 238
    assert [size_bound(t, 5) for t in (0, 1, 2, 3)] == [0, 1, 238, 238**2]


def test_history_the_adversary_would_not_show():
    word_list = from_words(ILL, ILL_GUESSES, "ill")
    state, steps = adversary_state(word_list, [], "lowest-code")
    assert state.tolist() == list(range(8)) and steps == []
    with pytest.raises(AbsurdleInputError, match=r"guess 1 \(lapis:ggggg\).*would not show"):
        adversary_state(word_list, ["lapis:ggggg"], "lowest-code")
    with pytest.raises(InputError, match="unknown tie rule 'kind'"):
        solve_absurdle(word_list, tie="kind")
    with pytest.raises(InputError, match="whole number ≥ 1"):
        solve_absurdle(word_list, depth_limit=0)


@pytest.mark.slow
@pytest.mark.parametrize("tie", TIES)
def test_full_legacy_lists_least_forced_win_is_four(legacy, tie):
    """qntm's reported best, 4 guesses, proven: three cannot force a win under any rule here."""
    result = solve_absurdle(legacy, tie=tie)
    assert result.least == 4
    assert result.state_size == 2315
    assert result.proof.guesses == 3 and not result.proof.won and result.proof.states > 0
    assert replay(legacy, result.sequence, tie)
    naive = NaiveAbsurdle(legacy.answers, legacy.guesses, tie)
    assert naive.play(result.sequence)
    assert naive.strategy_wins(result.plan)


# -- the command line --------------------------------------------------------------------------
def run_cli(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "tools.absurdle", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def write_list(tmp_path, answers, guesses) -> Path:
    directory = tmp_path / "ill"
    directory.mkdir()
    (directory / "answers.txt").write_text("\n".join(answers) + "\n")
    (directory / "guesses.txt").write_text("\n".join(guesses) + "\n")
    return directory


@pytest.mark.slow
def test_cli_json_on_a_small_list(tmp_path):
    directory = write_list(tmp_path, ILL, ILL_GUESSES)
    done = run_cli("--words", str(directory), "--tie", "fewest-clues", "--json")
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["least_forced_win"] == 3 and output["tie"] == "fewest-clues"
    assert output["proof"]["guesses"] == 2 and output["proof"]["forced_win"] is False
    word_list = from_words(ILL, ILL_GUESSES, "ill")
    steps = [(token.split(":")[0], token.split(":")[1]) for token in output["sequence"]]
    from solver.game.feedback import parse_feedback

    assert replay(word_list, [(w, parse_feedback(p)) for w, p in steps], "fewest-clues")


@pytest.mark.parametrize("args, message", [
    (["--tie", "nicest"], "unknown tie rule 'nicest'"),
    (["--max-depth", "-1"], "argument --max-depth: must be a number of guesses in 1..50, got '-1'"),
    (["--words", "nowhere"], "neither a shipped word list"),
])
def test_cli_bad_options_exit_2(args, message):
    done = run_cli(*args)
    assert done.returncode == 2
    assert message in done.stderr


@pytest.mark.parametrize("args, fragments", [
    (["--tie", "lowest-code", "lapis:ggggg"], ["guess 1 (lapis:ggggg)", "would not show this pattern"]),
    (["zzzzz:bbbbb"], ["guess 1: 'zzzzz' is not an allowed guess"]),
    (["lapis:bbbbq"], ["guess 1: feedback 'bbbbq'"]),
])
def test_cli_bad_history_exit_2(tmp_path, args, fragments):
    directory = write_list(tmp_path, ILL, ILL_GUESSES)
    done = run_cli("--words", str(directory), *args)
    assert done.returncode == 2
    assert all(fragment in done.stderr for fragment in fragments), done.stderr


def test_kernel_state_dtype_is_int32():
    word_list = from_words(ILL, ILL_GUESSES, "ill")
    state, _ = adversary_state(word_list, [], "adversarial", feedback_table(word_list, use_cache=False))
    assert state.dtype == np.int32


@pytest.mark.slow
def test_three_guesses_fail_under_any_tie_rule(legacy):
    """No first guess leaves a largest class (whichever the adversary keeps) that one guess
    splits into singletons; first guesses whose largest class exceeds the split bound cannot
    (docs/algorithms.md §13.3). So no tie rule lets three guesses force a win."""
    from solver.exact import _absurdle_kernel as kernel

    table = feedback_table(legacy)
    state = np.arange(legacy.n_answers, dtype=np.int32)
    guesses = np.arange(legacy.n_guesses, dtype=np.int32)
    sizes = np.empty(legacy.n_guesses, dtype=np.int64)
    kernel.largest_class_sizes(table, state, guesses, 243, sizes)
    assert sizes.min() == 168
    counters = np.zeros(2, dtype=np.int64)
    tested = 0
    for g in np.flatnonzero(sizes <= split_bound(5)):
        codes, counts = np.unique(table[g], return_counts=True)
        for code in codes[counts == counts.max()]:
            largest = state[table[g] == code]
            assert kernel.first_full_split(table, largest, guesses, 243, counters) == -1
            tested += 1
    assert tested == 278  # 277 first guesses, one of them with two largest classes


@pytest.mark.kernels
@pytest.mark.parametrize("tie", TIES)
@pytest.mark.parametrize("answers, others", [
    (["act", "arc", "bat", "cab", "car", "cat", "hat", "mat", "rat", "sat", "tab", "tar"], ["bhm", "cst"]),
    (["banner", "bather", "batter", "better", "bitter", "butter", "letter", "matter", "setter"],
     ["abcdef", "mbsltu"]),
])
def test_other_word_lengths_match_brute_force(answers, others, tie):
    """Three- and six-letter words (uint8 and uint16 tables, 27 and 729 patterns)."""
    check_against_naive(from_words(answers, answers + others, "len"), tie)
