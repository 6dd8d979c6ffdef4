"""MIG_A / MIG_B: hand-worked states, exact ties, the kernel against its plain twin, and the
thesis's figures from SALET."""

from __future__ import annotations

import math

import numpy as np
import pytest

import naive_policies as naive
from solver.game.protocol import Belief
from solver.policies._policy_kernel import entropy_keys as kernel_keys
from solver.policies._policy_kernel import factor_tables as kernel_factor_tables
from solver.policies._policy_kernel import float_entropies, mig_choose
from solver.policies.mig import MIGPolicy, entropies, entropy_keys, factor_tables, pattern_count
from solver.evaluation.scoring import score_policy
from solver.game.wordlists import from_words

# Four -atch answers. By hand (position 0 = first letter):
#   blimp, lymph, plumb: each splits the four into singletons (H = log 4);
#   chump: {hatch, latch} (c, h yellow) | {match} (m yellow) | {patch} (p yellow): H = log 4 − ½ log 2;
#   any answer: itself | the other three (bgggg): H = log 4 − ¾ log 3.
from conftest import ATCH, state_of


@pytest.mark.kernels
def test_hand_worked_entropies(atch):
    word_list, table = atch
    h = dict(zip(word_list.guesses, entropies(word_list, table, state_of(word_list, ATCH))))
    assert h["blimp"] == pytest.approx(math.log(4), abs=1e-12)
    assert h["lymph"] == pytest.approx(math.log(4), abs=1e-12)
    assert h["chump"] == pytest.approx(math.log(4) - 0.5 * math.log(2), abs=1e-12)
    for answer in ATCH:
        assert h[answer] == pytest.approx(math.log(4) - 0.75 * math.log(3), abs=1e-12)
    keys, n_classes = entropy_keys(word_list, table, state_of(word_list, ATCH))
    by_word = dict(zip(word_list.guesses, keys))
    assert by_word["blimp"] == by_word["lymph"] == by_word["plumb"] == 0.0
    assert by_word["hatch"] == by_word["latch"] == by_word["match"] == by_word["patch"]
    assert dict(zip(word_list.guesses, n_classes))["chump"] == 3


@pytest.mark.kernels
def test_hand_worked_choices(atch):
    word_list, table = atch
    mig_a, mig_b = MIGPolicy(word_list, table, "a"), MIGPolicy(word_list, table, "b")
    everything = state_of(word_list, ATCH)
    # all four: three full splitters tie at log 4, none an answer: alphabetical for both
    assert word_list.guesses[mig_a.choose(Belief(everything, 5))] == "blimp"
    assert word_list.guesses[mig_b.choose(Belief(everything, 5))] == "blimp"
    # {hatch, latch}: blimp (l yellow), hatch, latch, lymph, plumb all split it 1 | 1;
    # chump and match do not. MIG_A: alphabetically first = blimp; MIG_B: answers first = hatch
    pair = state_of(word_list, ["hatch", "latch"])
    assert word_list.guesses[mig_a.choose(Belief(pair, 5))] == "blimp"
    assert word_list.guesses[mig_b.choose(Belief(pair, 5))] == "hatch"
    # a singleton is guessed (the Policy rule), whatever the entropies say
    assert word_list.guesses[mig_a.choose(Belief(state_of(word_list, ["patch"]), 5))] == "patch"


@pytest.mark.kernels
def test_exact_ties_between_equal_products():
    """{2,2,2,2} and {4,1,1,1,1} have equal entropy (2^2·2^2·2^2·2^2 = 4^4): bit-equal keys,
    so the tie rule picks the lower index."""
    table = np.array([
        [5, 5, 5, 5, 1, 2, 3, 4],  # {4,1,1,1,1}
        [0, 0, 1, 1, 2, 2, 3, 3],  # {2,2,2,2}
        [9, 9, 7, 7, 3, 3, 1, 1],  # {2,2,2,2}, other codes and order
        [0, 0, 0, 0, 0, 0, 1, 2],  # worse
    ], dtype=np.uint8)
    state = np.arange(8, dtype=np.int32)
    factors = kernel_factor_tables(8)
    keys, n_classes = kernel_keys(state, table, factors, 243)  # codes of five letters
    assert keys[0] == keys[1] == keys[2]
    assert keys[0] == 8 * math.log(2)  # e_2 = 8: Σ e_p log p with one prime
    assert list(n_classes) == [5, 4, 4, 3]
    no_answers = np.full(4, -1, dtype=np.int32)
    guess_of_answer = np.zeros(8, dtype=np.int32)
    assert mig_choose(state, table, guess_of_answer, no_answers, False, factors, 243) == 0


@pytest.mark.kernels
def test_mig_b_prefers_answers_on_exact_tie():
    # guess 0 (not an answer) and guess 2 (answer 1) both split {0, 1, 2} into singletons
    table = np.array([[0, 1, 2], [0, 0, 1], [3, 242, 4], [0, 0, 0]], dtype=np.uint8)
    state = np.arange(3, dtype=np.int32)
    factors = kernel_factor_tables(3)
    guess_of_answer = np.array([1, 2, 3], dtype=np.int32)
    answer_of_guess = np.array([-1, 0, 1, 2], dtype=np.int32)
    assert mig_choose(state, table, guess_of_answer, answer_of_guess, False, factors, 243) == 0
    assert mig_choose(state, table, guess_of_answer, answer_of_guess, True, factors, 243) == 2


@pytest.mark.slow
def test_kernel_entropy_matches_plain_twin(legacy_table):
    word_list, table = legacy_table
    rng = np.random.default_rng(20260101)
    guesses = rng.choice(word_list.n_guesses, 300, replace=False)
    for size in (2, 3, 5, 9, 17, 40, 120):
        state = np.sort(rng.choice(word_list.n_answers, size, replace=False)).astype(np.int32)
        keys, n_classes = entropy_keys(word_list, table, state)
        h = entropies(word_list, table, state)
        products = {}
        for g in guesses:
            assert h[g] == pytest.approx(naive.entropy(table, g, state), abs=1e-12)
            assert n_classes[g] == len(naive.classes(table, g, state))
            products.setdefault(naive.product_key(table, g, state), set()).add(keys[g])
        # equal exact entropies ⇔ bit-equal keys
        assert all(len(v) == 1 for v in products.values())
        assert len({next(iter(v)) for v in products.values()}) == len(products)


@pytest.mark.slow
def test_choice_matches_plain_twin_on_random_states(legacy_table):
    word_list, table = legacy_table
    rng = np.random.default_rng(7)
    # restrict the guesses to keep the plain twin fast: a table of 400 guesses + the answers
    extra = rng.choice(word_list.n_guesses, 400, replace=False)
    rows = np.unique(np.concatenate([extra, word_list.answer_guess_index]))
    sub_words = [word_list.guesses[g] for g in rows]
    small = from_words(word_list.answers, sub_words, "sub")
    sub_table = np.ascontiguousarray(table[rows])
    for variant in ("a", "b"):
        policy = MIGPolicy(small, sub_table, variant)
        for size in (2, 3, 4, 6, 10, 25):
            for _ in range(3):
                state = np.sort(rng.choice(small.n_answers, size, replace=False)).astype(np.int32)
                expected = naive.mig_choice(sub_table, list(state), small.answer_guess_index,
                                            variant == "b", small.n_guesses)
                assert policy.choose(Belief(state, 5)) == expected


@pytest.mark.slow
def test_salet_figures_exact_ties(legacy_table):
    word_list, table = legacy_table
    a = score_policy(MIGPolicy(word_list, table, "a"), "salet")
    b = score_policy(MIGPolicy(word_list, table, "b"), "salet")
    assert (a.total, a.max_guesses, a.histogram) == (8360, 6, [0, 39, 910, 1282, 80, 4])
    assert round(a.average, 4) == 3.6112  # the thesis's MIG_A
    assert (b.total, b.max_guesses, b.histogram) == (7946, 6, [0, 79, 1206, 982, 46, 2])
    assert a.failures == b.failures == 0


@pytest.mark.slow
def test_salet_figures_float_reading(legacy_table):
    """The float tie reading reproduces both thesis figures (3.6112 and 3.4333)."""
    word_list, table = legacy_table
    a = score_policy(MIGPolicy(word_list, table, "a", ties="float"), "salet")
    b = score_policy(MIGPolicy(word_list, table, "b", ties="float"), "salet")
    assert (a.total, b.total) == (8360, 7948)
    assert round(b.average, 4) == 3.4333


@pytest.mark.slow
def test_float_entropies_are_entropies_in_bits(legacy_table):
    word_list, table = legacy_table
    state = np.arange(0, 2315, 97, dtype=np.int32)
    h_bits = float_entropies(state, table, pattern_count(word_list))
    h_nats = entropies(word_list, table, state)
    np.testing.assert_allclose(h_bits * math.log(2), h_nats, atol=1e-12)


@pytest.mark.kernels
def test_factor_tables_weights():
    log_primes, start, prime, weight = factor_tables(12)
    # 12 = 2^2 · 3: the class of size 12 adds 12·2 to e_2 and 12·1 to e_3
    rows = zip(prime[start[12]:start[13]], weight[start[12]:start[13]])
    assert [(round(math.exp(log_primes[p])), w) for p, w in rows] == [(2, 24), (3, 12)]
    assert start[1] == start[2]  # size 1 contributes nothing


def test_bad_variant(atch):
    word_list, table = atch
    with pytest.raises(ValueError):
        MIGPolicy(word_list, table, "c")
    with pytest.raises(ValueError):
        MIGPolicy(word_list, table, "a", ties="fuzzy")
