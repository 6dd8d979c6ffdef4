"""UCT: the kernel's base heuristic and successor ranking against the MIG and rollout kernels;
UCB and final tie-breaks on hand-built nodes; exact optimum on tiny lists; reproducibility."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from solver.game.protocol import Belief
from solver.policies._uct_kernel import better_final, new_scan_workspace, scan_state, ucb_select
from solver.exact.bellman import solve_state
from solver.game.feedback import feedback_table
from solver.game.spec import all_green, Game
from solver.policies.mig import MIGPolicy, entropy_keys, factor_tables, pattern_count
from solver.policies.uct import UCTPolicy, make_policy, parse_policy_name, policy_name
from solver.game.wordlists import from_words, load_word_list


@pytest.fixture(scope="module")
def legacy():
    wl = load_word_list("legacy")
    return wl, feedback_table(wl)


def sub_list(seed, n_answers, n_guesses):
    full = load_word_list("legacy")
    rng = random.Random(seed)
    answers = rng.sample(full.answers, n_answers)
    chosen = set(answers)
    others = rng.sample([w for w in full.guesses if w not in chosen], n_guesses - n_answers)
    wl = from_words(answers, answers + others, name=f"sub{seed}")
    return wl, feedback_table(wl, use_cache=False)


def random_states(wl, table, count, seed):
    """States reached by one or two random guesses against a random answer (≥ 2 answers)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        answer = rng.integers(wl.n_answers)
        state = np.arange(wl.n_answers, dtype=np.int32)
        for _ in range(rng.integers(1, 3)):
            g = rng.integers(wl.n_guesses)
            state = state[table[g, state] == table[g, answer]]
        if len(state) >= 2:
            out.append(state)
    return out


def reference_top(wl, table, state, answers_first, n):
    """The n best splitting guesses in the base heuristic's order, from the MIG key kernel."""
    keys, n_classes = entropy_keys(wl, table, state)
    member = np.zeros(wl.n_guesses, dtype=bool)
    member[wl.answer_guess_index[state]] = True
    ranked = sorted((g for g in range(wl.n_guesses) if n_classes[g] >= 2),
                    key=lambda g: (keys[g], -int(member[g]) if answers_first else 0, g))
    return ranked[:n]


@pytest.mark.parametrize("variant", ["a", "b"])
@pytest.mark.slow
def test_scan_matches_mig_and_the_ranking_on_random_states(legacy, variant):
    wl, table = legacy
    prefer = variant == "b"
    tableT = np.ascontiguousarray(table.T)
    factors = factor_tables(wl.n_answers)
    ws = new_scan_workspace(wl.n_guesses, wl.n_answers, 10, factors[0].shape[0], pattern_count(wl))
    mig = MIGPolicy(wl, table, variant)
    for state in random_states(wl, table, 120, seed=11 if prefer else 12):
        found, choice = scan_state(state, table, tableT, wl.answer_guess_index, factors, prefer,
                                   prefer, ws)
        top = [int(g) for g in ws[4][:found]]
        assert top == reference_top(wl, table, state, prefer, 10)
        assert top[0] == choice == mig.choose(Belief(state, 5))


@pytest.mark.kernels
def test_scan_matches_mig_on_a_small_list_with_many_ties():
    wl, table = sub_list(3, 40, 120)
    tableT = np.ascontiguousarray(table.T)
    factors = factor_tables(wl.n_answers)
    for prefer, variant in ((False, "a"), (True, "b")):
        ws = new_scan_workspace(wl.n_guesses, wl.n_answers, 7, factors[0].shape[0], pattern_count(wl))
        mig = MIGPolicy(wl, table, variant)
        for state in random_states(wl, table, 300, seed=4):
            for rank_answers_first in (False, True):  # the successor ranking, either tie order
                found, choice = scan_state(state, table, tableT, wl.answer_guess_index, factors,
                                           prefer, rank_answers_first, ws)
                top = [int(g) for g in ws[4][:found]]
                assert top == reference_top(wl, table, state, rank_answers_first, 7)
                assert choice == mig.choose(Belief(state, 5))


@pytest.mark.kernels
def test_ucb_formula_and_first_slot_wins_ties():
    visits = np.array([0, 10, 40, 5, 10], dtype=np.int64)  # slot 0 belongs to another node
    costs = np.array([0, 30, 100, 16, 30], dtype=np.int64)
    parent = 65
    b = 0.6
    value = [b * math.sqrt(math.log(parent) / v) - c / v for v, c in zip(visits[1:], costs[1:])]
    expected = 1 + int(np.argmax(value))  # argmax keeps the first of equal values
    chosen = ucb_select(1, 4, math.log(parent), b, visits, costs)
    assert chosen == expected
    # slots 1 and 4 are identical: the first wins; make them the best by lowering their cost
    costs2 = np.array([0, 20, 100, 16, 20], dtype=np.int64)
    assert ucb_select(1, 4, math.log(parent), b, visits, costs2) == 1
    # B = 0: pure exploitation, the lowest average cost
    assert ucb_select(1, 4, math.log(parent), 0.0, visits, costs) == 2  # 100/40 = 2.5
    # a large B favours the least visited
    assert ucb_select(1, 4, math.log(parent), 1000.0, visits, costs) == 3


@pytest.mark.kernels
def test_final_choice_tie_breaks():
    # lower average cost wins, compared exactly (3/2 vs 4/3)
    assert better_final(4, 3, 9.0, False, 7, 3, 2, 1.0, True, 1)
    assert not better_final(3, 2, 1.0, True, 1, 4, 3, 9.0, False, 7)
    # equal averages (6/4 = 3/2): higher entropy (lower key) wins
    assert better_final(6, 4, 1.0, False, 9, 3, 2, 2.0, True, 1)
    # equal average and key: the possible answer wins
    assert better_final(6, 4, 2.0, True, 9, 3, 2, 2.0, False, 1)
    # all equal but the index: alphabetical
    assert better_final(6, 4, 2.0, True, 1, 3, 2, 2.0, True, 9)
    assert not better_final(6, 4, 2.0, True, 9, 3, 2, 2.0, True, 1)


def exact_value_of_guess(wl, table, state, g, guesses_left):
    total = len(state)
    for code in np.unique(table[g, state]):
        if code != all_green(wl.word_length):
            cls = state[table[g, state] == code]
            total += solve_state(Game(wl), cls, guesses_left - 1, table=table)[0]
    return total


@pytest.mark.parametrize("list_seed", [1, 2, 6, 12])
def test_enough_rollouts_pick_an_optimal_guess_on_tiny_lists(list_seed):
    """Every guess is a successor (n = all guesses), so the search tree holds the optimal
    policy; with B = mean/1 the exploration is wide enough to find it in 20k rollouts."""
    wl, table = sub_list(list_seed, 24, 60)
    state = np.arange(wl.n_answers, dtype=np.int32)
    optimum, _ = solve_state(Game(wl), state, 6, table=table)
    for seed in range(3):
        policy = UCTPolicy(wl, table, n_rollouts=20_000, n_top=wl.n_guesses, variant_o=True,
                           base="b", b_divisor=1.0)
        guess = policy.choose(Belief(state, 6), np.random.default_rng(seed))
        assert exact_value_of_guess(wl, table, state, guess, 6) == optimum


@pytest.mark.kernels
def test_costs_on_a_two_answer_state_are_exact():
    """In {x, y}: a member costs 1 or 2 (mean near 1.5), a splitting non-member exactly 2."""
    wl, table = sub_list(5, 24, 60)
    state = np.array([3, 17], dtype=np.int32)
    result = UCTPolicy(wl, table, n_rollouts=4000, n_top=3, variant_o=True).search(state, 6, 9)
    members = set(wl.answer_guess_index[state].tolist())
    assert members <= set(result.root_guesses.tolist())  # variant O adds both answers
    assert result.root_visits.sum() == 4000
    for g, visits, cost in zip(result.root_guesses, result.root_visits, result.root_costs):
        if g in members:
            assert visits <= cost <= 2 * visits
        else:
            assert cost == 2 * visits
    assert result.guess in members


@pytest.mark.slow
def test_variant_o_adds_the_answers_only_in_small_states(legacy):
    wl, table = legacy
    small = np.array([5, 90, 400, 1000], dtype=np.int32)
    plain = UCTPolicy(wl, table, n_rollouts=50, n_top=2).search(small, 6, 1)
    with_o = UCTPolicy(wl, table, n_rollouts=50, n_top=2, variant_o=True).search(small, 6, 1)
    assert len(plain.root_guesses) == 2
    assert list(with_o.root_guesses[:2]) == list(plain.root_guesses)
    assert set(wl.answer_guess_index[small]) <= set(with_o.root_guesses.tolist())
    big = np.arange(11, dtype=np.int32)
    assert len(UCTPolicy(wl, table, n_rollouts=50, n_top=2, variant_o=True)
               .search(big, 6, 1).root_guesses) == 2


@pytest.mark.slow
def test_n_below_one_estimates_the_rollout_q_factors(legacy):
    """With one successor below the root (the base heuristic's guess), each root child's
    average cost is a Monte Carlo estimate of its rollout Q-factor, computed exactly by the
    rollout kernel over every answer; the successors are the rollout's candidates."""
    from solver.game._memo_kernel import new_memo
    from solver.policies._policy_kernel import new_workspace, rollout_choose
    from solver.game.hashing import zobrist_keys

    wl, table = legacy
    salet = wl.guess_index("salet")
    everything = np.arange(wl.n_answers, dtype=np.int32)
    state = everything[table[salet] == table[salet, wl.answer_index("crane")]]
    z1, z2 = zobrist_keys(wl.n_answers)
    checked = 0
    # the ranking's first guess is the base heuristic's: MIG_A with alphabetical ties, MIG_B
    # with answers first among ties
    for base, rank in (("a", "alpha"), ("b", "members")):
        _, candidates, q_totals, _ = rollout_choose(
            state, table, wl.answer_guess_index, wl.guess_answer_index, base == "b",
            rank == "members", 10, factors_of(wl), z1, z2, new_memo(1 << 12),
            new_workspace(wl.n_answers, pattern_count(wl)), pattern_count(wl))
        result = UCTPolicy(wl, table, n_rollouts=20_000, n_below=1, base=base,
                           rank=rank).search(state, 5, 4)
        assert list(result.root_guesses) == list(candidates)
        q = dict(zip(candidates.tolist(), (q_totals / len(state)).tolist()))
        for g, visits, mean in zip(result.root_guesses, result.root_visits, result.root_means):
            if visits >= 400:  # costs lie within a range of 4 guesses: sd ≤ 2
                assert abs(mean - q[int(g)]) < 4 * 2 / math.sqrt(visits)
                checked += 1
    assert checked >= 2


def factors_of(wl):
    return factor_tables(wl.n_answers)


@pytest.mark.slow
def test_same_seed_same_result_whatever_the_memo_holds(legacy):
    import solver.policies.uct as uct

    wl, table = legacy
    salet = wl.guess_index("salet")
    everything = np.arange(wl.n_answers, dtype=np.int32)
    state = everything[table[salet] == table[salet, wl.answer_index("crane")]]
    policy = UCTPolicy(wl, table, n_rollouts=3000, base="a", variant_o=True)
    first = policy.search(state, 5, 123)
    uct._PROCESS.clear()  # a cold memo must not change anything
    again = UCTPolicy(wl, table, n_rollouts=3000, base="a", variant_o=True).search(state, 5, 123)
    assert first.guess == again.guess
    assert np.array_equal(first.root_visits, again.root_visits)
    assert np.array_equal(first.root_costs, again.root_costs)
    other = policy.search(state, 5, 124)
    assert not np.array_equal(first.root_costs, other.root_costs)
    # seeds are taken modulo 2**64 (the scorer's seeds are uint64)
    assert policy.search(state, 5, 2**64 - 1).guess == policy.search(state, 5, -1).guess


@pytest.mark.slow
def test_names_and_validation(legacy):
    wl, table = legacy
    assert policy_name(50_000, "a", False) == "uct50k_a"
    assert policy_name(1500, "b", True) == "uct1500_b_o"
    assert parse_policy_name("uct5k_b_o") == {"n_rollouts": 5000, "base": "b", "variant_o": True}
    assert parse_policy_name("uct100_a_n20_d2.5") == {"n_rollouts": 100, "base": "a",
                                                      "variant_o": False, "n_top": 20,
                                                      "b_divisor": 2.5}
    assert parse_policy_name("uct50k_b_p") == {"n_rollouts": 50_000, "base": "b",
                                               "variant_o": False, "rank": "members"}
    assert policy_name(50_000, "b", True, rank="members") == "uct50k_b_o_p"
    assert policy_name(5000, "a", True, o_scope="root", n_below=1) == "uct5k_a_o_root_nb1"
    for name in ("uct50k_a_o_root", "uct5k_b_o_p_n20_nb3_d2.5", "uct1500_a_nb1"):
        options = parse_policy_name(name)
        policy = UCTPolicy(load_word_list("legacy"), None, **options)
        assert policy.name == name
    assert parse_policy_name("mig_a") is None
    policy = make_policy("UCT50k_B_O", wl, table, seed=3)
    assert policy.rank == "alpha" and not policy.rank_answers_first
    assert (policy.name, policy.n_rollouts, policy.base, policy.variant_o, policy.seed) == (
        "uct50k_b_o", 50_000, "b", True, 3)
    assert policy.deterministic is False
    for bad in ({"n_rollouts": 0}, {"n_top": 0}, {"b_divisor": 0}, {"base": "c"},
                {"memo_capacity": 1000}, {"rank": "x"}, {"n_below": 11},
                {"o_scope": "x"}):
        with pytest.raises(ValueError):
            UCTPolicy(wl, table, **bad)
    with pytest.raises(ValueError):
        make_policy("uct_fast", wl, table)
    with pytest.raises(ValueError):
        UCTPolicy(wl, table).search(np.array([4], dtype=np.int32), 6)
    # a singleton is guessed without searching
    assert UCTPolicy(wl, table).choose(Belief(np.array([4], dtype=np.int32), 6)) == wl.answer_guess_index[4]
