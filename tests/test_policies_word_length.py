"""The policies on words of other lengths than five: MIG_A / MIG_B, Rollout_2, a small UCT and
the exact policy play every answer of a 4-letter list (81 patterns, uint8 codes) and of a
6-letter list (729 patterns, uint16 codes) to a win, and equal their plain twins
(tests/naive_policies.py) where they exist."""

from __future__ import annotations

import random

import numpy as np
import pytest

import naive_policies as naive
from twin_checks import check_rollout_decisions
from solver.game.protocol import Belief
from solver.evaluation.scoring import score_policy
from solver.exact.bellman import solve
from solver.game.feedback import feedback_table
from solver.game.spec import all_green, code_dtype, n_patterns, Game
from solver.game.wordlists import from_words, load_word_list
from solver.policies._policy_kernel import float_entropies
from solver.policies._uct_kernel import new_scan_workspace, scan_state
from solver.policies.exact_policy import ExactPolicy
from solver.policies.mig import MIGPolicy, entropies, entropy_keys, factor_tables, pattern_count
from solver.policies.rollout import RolloutPolicy, base_totals
from solver.policies.uct import UCTPolicy


def toy_list(length: int, seed: int, n_answers: int = 30, n_guesses: int = 120):
    """(word list, table): ``length``-letter words cut from the legacy guesses — the first
    letters (length < 5) or the word plus the first letters of its reverse (length > 5) —
    distinct, drawn with ``random.Random(seed)``; the first ``n_answers`` drawn are the answers."""
    legacy = load_word_list("legacy")
    if length <= 5:
        pool = sorted({w[:length] for w in legacy.guesses})
    else:
        pool = sorted({w + w[::-1][: length - 5] for w in legacy.guesses})
    words = random.Random(seed).sample(pool, n_guesses)
    word_list = from_words(words[:n_answers], words, name=f"toy{length}-{seed}")
    return word_list, feedback_table(word_list, use_cache=False)


@pytest.fixture(scope="module", params=[4, 6], ids=["L4", "L6"])
def toy(request):
    return toy_list(request.param, seed=20 + request.param)


def everything(word_list) -> np.ndarray:
    return np.arange(word_list.n_answers, dtype=np.int32)


def opener_of(word_list, table) -> int:
    """MIG_A's guess for the whole list (a sensible opener)."""
    return MIGPolicy(word_list, table, "a").choose(Belief(everything(word_list), 6))


def random_states(word_list, table, count, seed):
    """States reached by one or two random guesses against a random answer (≥ 2 answers)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        answer = rng.integers(word_list.n_answers)
        state = everything(word_list)
        for _ in range(rng.integers(1, 3)):
            g = rng.integers(word_list.n_guesses)
            state = state[table[g, state] == table[g, answer]]
        if len(state) >= 2:
            out.append(state)
    return out + [everything(word_list)]


def assert_all_won(result, word_list):
    """Every answer found (the scorer plays on until it is) within the guess limit."""
    assert result.n_games == word_list.n_answers
    assert (result.guesses_per_answer >= 1).all()
    assert result.failures == 0


@pytest.mark.kernels
def test_toy_lists_have_their_word_length(toy):
    word_list, table = toy
    length = word_list.word_length
    assert length in (4, 6)
    assert pattern_count(word_list) == n_patterns(length) == 3**length
    assert table.dtype == code_dtype(length) == (np.uint8 if length == 4 else np.uint16)
    assert int(table.max()) == all_green(length)
    assert (table[word_list.answer_guess_index, everything(word_list)] == all_green(length)).all()
    if length == 6:  # codes beyond Wordle's 243 patterns occur
        assert int(np.sort(np.unique(table))[-2]) >= 243


@pytest.mark.kernels
def test_entropy_keys_match_plain_twin(toy):
    word_list, table = toy
    for state in random_states(word_list, table, 25, seed=1):
        keys, n_classes = entropy_keys(word_list, table, state)
        h = entropies(word_list, table, state)
        products = {}
        for g in range(word_list.n_guesses):
            assert h[g] == pytest.approx(naive.entropy(table, g, state), abs=1e-12)
            assert n_classes[g] == len(naive.classes(table, g, state))
            products.setdefault(naive.product_key(table, g, state), set()).add(keys[g])
        # equal exact entropies ⇔ bit-equal keys
        assert all(len(v) == 1 for v in products.values())
        assert len({next(iter(v)) for v in products.values()}) == len(products)


@pytest.mark.parametrize("variant", ["a", "b"])
@pytest.mark.kernels
def test_mig_plays_every_answer_like_its_twin(toy, variant):
    word_list, table = toy
    opener = opener_of(word_list, table)
    result = score_policy(MIGPolicy(word_list, table, variant), opener)
    assert_all_won(result, word_list)

    def choose(state):
        return naive.mig_choice(table, state, word_list.answer_guess_index, variant == "b",
                                word_list.n_guesses)

    expected = [naive.play(choose, table, a, opener, word_list.n_answers,
                           word_length=word_list.word_length) for a in range(word_list.n_answers)]
    assert result.guesses_per_answer.tolist() == expected
    # and game by game, as a randomised policy would be played
    games = score_policy(MIGPolicy(word_list, table, variant), opener, mode="games", jobs=1)
    assert games.guesses_per_answer.tolist() == expected


@pytest.mark.parametrize("variant", ["a", "b"])
@pytest.mark.kernels
def test_mig_float_reading_plays_every_answer(toy, variant):
    word_list, table = toy
    result = score_policy(MIGPolicy(word_list, table, variant, ties="float"),
                          opener_of(word_list, table))
    assert_all_won(result, word_list)


@pytest.mark.kernels
def test_float_entropies_are_the_same_sum_either_way(toy):
    """The codes present are summed in descending order by a scan of every pattern or by
    sorting them (few codes, many patterns): bit-identical entropies, equal to the exact ones."""
    word_list, table = toy
    many = 10**6  # forces the sorted path for every guess
    for state in random_states(word_list, table, 10, seed=2):
        h_bits = float_entropies(state, table, pattern_count(word_list))
        assert np.array_equal(h_bits, float_entropies(state, table, many))
        np.testing.assert_allclose(h_bits * np.log(2), entropies(word_list, table, state), atol=1e-12)


@pytest.mark.parametrize("base", ["a", "b"])
@pytest.mark.kernels
def test_base_totals_match_plain_twin(toy, base):
    word_list, table = toy
    totals = base_totals(word_list, table, base)
    memo = {}
    for state in random_states(word_list, table, 15, seed=3):
        assert totals.total(state) == naive.base_total(
            table, list(state), word_list.answer_guess_index, base == "b", word_list.n_guesses, memo,
            word_length=word_list.word_length)


@pytest.mark.parametrize("base,rank_answers_first", [("a", False), ("b", False), ("b", True)])
@pytest.mark.kernels
def test_rollout2_plays_every_answer_like_its_twin(toy, base, rank_answers_first):
    word_list, table = toy
    length = word_list.word_length
    policy = RolloutPolicy(word_list, table, 2, base, rank_answers_first)
    opener = opener_of(word_list, table)
    result = score_policy(policy, opener)
    assert_all_won(result, word_list)
    memo = {}
    assert check_rollout_decisions(policy, result, table, 2, base, rank_answers_first, memo) >= 3

    def choose(state):
        return naive.rollout_choice(table, state, word_list.answer_guess_index, base == "b", 2,
                                    word_list.n_guesses, rank_answers_first, memo, word_length=length)[0]

    expected = [naive.play(choose, table, a, opener, word_list.n_answers, word_length=length)
                for a in range(word_list.n_answers)]
    assert result.guesses_per_answer.tolist() == expected


@pytest.mark.kernels
def test_uct_scan_matches_mig_and_the_ranking(toy):
    word_list, table = toy
    tableT = np.ascontiguousarray(table.T)
    factors = factor_tables(word_list.n_answers)
    for prefer, variant in ((False, "a"), (True, "b")):
        ws = new_scan_workspace(word_list.n_guesses, word_list.n_answers, 6, factors[0].shape[0],
                                pattern_count(word_list))
        mig = MIGPolicy(word_list, table, variant)
        for state in random_states(word_list, table, 40, seed=4):
            for rank_answers_first in (False, True):
                found, choice = scan_state(state, table, tableT, word_list.answer_guess_index, factors,
                                           prefer, rank_answers_first, ws)
                keys, n_classes = entropy_keys(word_list, table, state)
                member = np.zeros(word_list.n_guesses, dtype=bool)
                member[word_list.answer_guess_index[state]] = True
                ranked = sorted((g for g in range(word_list.n_guesses) if n_classes[g] >= 2),
                                key=lambda g: (keys[g], -int(member[g]) if rank_answers_first else 0, g))
                assert [int(g) for g in ws[4][:found]] == ranked[:6]
                assert choice == mig.choose(Belief(state, 5))


@pytest.mark.parametrize("base", ["a", "b"])
@pytest.mark.kernels
def test_small_uct_plays_every_answer(toy, base):
    word_list, table = toy
    opener = opener_of(word_list, table)

    def run(seed):
        policy = UCTPolicy(word_list, table, n_rollouts=300, n_top=5, variant_o=True, base=base)
        return score_policy(policy, opener, seed=seed, jobs=1)

    result = run(5)
    assert result.mode == "games"
    assert_all_won(result, word_list)
    assert all(0 <= d.guess < word_list.n_guesses for d in result.decisions)
    assert run(5).guesses_per_answer.tolist() == result.guesses_per_answer.tolist()


@pytest.mark.kernels
def test_uct_does_not_depend_on_how_codes_are_numbered(toy):
    """UCT uses the feedback codes only to split states, to stop on all green and as part of
    the key of a child node (slot · 3**L + code): renumbering the other codes 0, 1, 2, ... leaves
    every search unchanged. For six letters the codes then stay below 243 while the original
    ones do not, so a key built with Wordle's pattern count would collide in one case only."""
    import solver.policies.uct as uct

    word_list, table = toy
    green = all_green(word_list.word_length)
    used = [int(c) for c in np.unique(table) if c != green]
    relabel = np.full(n_patterns(word_list.word_length), -1, dtype=np.int64)
    relabel[used] = np.arange(len(used))
    relabel[green] = green
    compact = relabel[table].astype(table.dtype)
    assert len(used) < 243
    states = [everything(word_list)] + random_states(word_list, table, 4, seed=6)[:4]
    runs = []
    for t in (table, compact):
        uct._PROCESS.clear()  # the per-process data holds the answer-major table
        policy = UCTPolicy(word_list, t, n_rollouts=3000, n_top=word_list.n_guesses, variant_o=True,
                           base="b", b_divisor=1.0)
        runs.append([policy.search(s, 6, 17 + i) for i, s in enumerate(states)])
    uct._PROCESS.clear()
    for plain, renumbered in zip(*runs):
        assert plain.guess == renumbered.guess
        assert np.array_equal(plain.root_guesses, renumbered.root_guesses)
        assert np.array_equal(plain.root_visits, renumbered.root_visits)
        assert np.array_equal(plain.root_costs, renumbered.root_costs)
        assert plain.stats == renumbered.stats


@pytest.mark.kernels
def test_exact_policy_scores_its_own_total(toy):
    word_list, table = toy
    opener = word_list.guesses[opener_of(word_list, table)]
    solved = solve(Game(word_list), opener, jobs=1)
    result = score_policy(ExactPolicy(word_list, table, solved.tree), opener)
    assert_all_won(result, word_list)
    assert result.total == solved.total
    assert result.guesses_per_answer.tolist() == solved.guesses_per_answer.tolist()
    exact = ExactPolicy(word_list, table)
    assert exact.value_after(everything(word_list), 6, word_list.guess_index(opener)) == solved.total
    # never better than the optimum: the heuristics from the same opener
    assert score_policy(MIGPolicy(word_list, table, "b"), opener).total >= solved.total
