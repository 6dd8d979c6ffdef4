"""Rollout_n: hand-worked choices and ties, the kernel against the plain twin, and the
thesis's Rollout_10 figures from SALET."""

from __future__ import annotations

import numpy as np
import pytest

import naive_policies as naive
from solver.game.protocol import Belief
from solver.policies.mig import MIGPolicy
from solver.policies.rollout import RolloutPolicy, base_totals
from solver.evaluation.scoring import score_policy

from conftest import ATCH, numpy_sub_list, state_of
from twin_checks import check_rollout_decisions


@pytest.mark.kernels
def test_hand_worked_pair(atch):
    """{hatch, latch}: blimp, hatch, latch, lymph, plumb split it (entropy log 2).
    Q-totals: an answer 1 + 2 = 3, a non-answer 2 + 2 = 4. Candidates in entropy order, ties
    alphabetical: blimp, hatch, latch, lymph, plumb."""
    word_list, table = atch
    pair = state_of(word_list, ["hatch", "latch"])
    words = word_list.guesses
    one = RolloutPolicy(word_list, table, 1, "a")
    two = RolloutPolicy(word_list, table, 2, "a")
    five = RolloutPolicy(word_list, table, 5, "b")
    assert words[one.choose(Belief(pair, 5))] == "blimp"  # the only candidate
    assert words[two.choose(Belief(pair, 5))] == "hatch"  # Q 3 < 4
    # hatch and latch tie on Q (3) and entropy; both answers: alphabetical
    assert words[five.choose(Belief(pair, 5))] == "hatch"
    assert [(words[g], q) for g, q, _ in five.q_factors(pair)] == [
        ("blimp", 4), ("hatch", 3), ("latch", 3), ("lymph", 4), ("plumb", 4)]
    # with answers first among ties (equal entropy), n = 1 already finds hatch
    assert words[RolloutPolicy(word_list, table, 1, "b", rank_answers_first=True).choose(Belief(pair, 5))] == "hatch"


@pytest.mark.kernels
def test_hand_worked_four(atch):
    """All four: blimp/lymph/plumb split into singletons (Q = 4 + 4 = 8); chump leaves
    {hatch, latch}: Q = 4 + (3 under MIG_B) + 1 + 1 = 9; an answer: 4 + T(three others)."""
    word_list, table = atch
    everything = state_of(word_list, ATCH)
    policy = RolloutPolicy(word_list, table, 8, "b")
    q = {word_list.guesses[g]: total for g, total, _ in policy.q_factors(everything)}
    assert q["blimp"] == q["lymph"] == q["plumb"] == 8
    assert q["chump"] == 9
    assert word_list.guesses[policy.choose(Belief(everything, 5))] == "blimp"
    # MIG_B from the three others {latch, match, patch}: blimp splits them (l, m, p yellow) → 3 + 3
    three = state_of(word_list, ["latch", "match", "patch"])
    assert base_totals(word_list, table, "b").total(three) == 6
    assert q["hatch"] == 4 + 6


@pytest.fixture(scope="module")
def small():
    """200 legacy answers, 600 guesses: big enough for ties and deep games, fast in plain Python."""
    return numpy_sub_list(11, 200, 400, use_cache=False)


@pytest.mark.parametrize("base", ["a", "b"])
@pytest.mark.kernels
def test_base_totals_match_plain_twin(small, base):
    word_list, table = small
    totals = base_totals(word_list, table, base)
    rng = np.random.default_rng(3)
    memo = {}
    for size in (1, 2, 3, 5, 8, 13, 30, 200):
        for _ in range(2):
            state = np.sort(rng.choice(word_list.n_answers, size, replace=False)).astype(np.int32)
            expected = naive.base_total(table, list(state), word_list.answer_guess_index, base == "b",
                                        word_list.n_guesses, memo)
            assert totals.total(state) == expected
    # the whole list: the MIG tree from scratch, via the scorer's decisions
    full = np.arange(word_list.n_answers, dtype=np.int32)
    assert totals.total(full) == naive.base_total(table, list(full), word_list.answer_guess_index,
                                                 base == "b", word_list.n_guesses, memo)


@pytest.mark.parametrize("n,base,rank_answers_first", [(3, "a", False), (10, "b", False), (4, "b", True)])
@pytest.mark.kernels
def test_rollout_matches_plain_twin(small, n, base, rank_answers_first):
    word_list, table = small
    policy = RolloutPolicy(word_list, table, n, base, rank_answers_first)
    result = score_policy(policy, word_list.answers[0])
    assert check_rollout_decisions(policy, result, table, n, base, rank_answers_first, {}) > 10


@pytest.mark.kernels
def test_rollout_never_worse_than_base_when_base_choice_is_a_candidate(small):
    """Rollout's cost improvement: MIG_B's choice is always a candidate with _p ranking."""
    word_list, table = small
    opener = word_list.answers[5]
    base = score_policy(MIGPolicy(word_list, table, "b"), opener).total
    assert score_policy(RolloutPolicy(word_list, table, 5, "b", True), opener).total <= base


@pytest.mark.slow
def test_salet_rollout10_a(legacy_table):
    word_list, table = legacy_table
    result = score_policy(RolloutPolicy(word_list, table, 10, "a"), "salet")
    assert (result.total, result.max_guesses, result.histogram) == (8251, 5, [0, 40, 986, 1232, 57, 0])
    assert round(result.average, 4) == 3.5641  # the thesis's Rollout_10_A


@pytest.mark.slow
def test_salet_rollout10_b(legacy_table):
    word_list, table = legacy_table
    result = score_policy(RolloutPolicy(word_list, table, 10, "b"), "salet")
    assert (result.total, result.histogram) == (8303, [0, 40, 952, 1248, 75, 0])
    assert round(result.average, 4) == 3.5866  # the thesis's Rollout_10_B
    rank_answers_first = score_policy(RolloutPolicy(word_list, table, 10, "b", True), "salet")
    assert rank_answers_first.total == 7921


def test_bad_arguments(atch):
    word_list, table = atch
    with pytest.raises(ValueError):
        RolloutPolicy(word_list, table, 0, "a")
    with pytest.raises(ValueError):
        RolloutPolicy(word_list, table, 10, "x")
