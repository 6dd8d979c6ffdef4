"""Priors (docs/algorithms.md §10.3): the weighted search against a brute force, uniform
weights reproducing the unweighted optimum, the artifact record, and bad priors files."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
from solver.game.spec import Game
import pytest

from conftest import random_sub_list
from naive import BruteForce, table as naive_table, tree_from_arrays
from naive_priors import WeightedBruteForce
from solver.exact.bellman import artifact_bytes, solve, solve_from, solve_state
from solver.game.errors import InputError, PriorsError
from solver.game.priors import WEIGHT_SCALE, Priors, integer_weights, load_priors, priors_sha256
from solver.game.wordlists import load_word_list

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def priors_of(word_list, weights):
    weights = np.asarray(weights, dtype=np.int64)
    return Priors("test", weights, priors_sha256(word_list.answers, weights))


def skewed_weights(seed, n):
    """Integer weights spread over three orders of magnitude (a frequency-like prior)."""
    rng = random.Random(seed)
    return [rng.choice([1, 2, 3, 5, 10, 30, 100, 300, 1000]) for _ in range(n)]


CASES = [(1, 12, 40, 6), (2, 16, 45, 4), (3, 14, 50, 3), (4, 18, 40, 6), (5, 10, 60, 5),
         (6, 15, 35, 4)]


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", CASES)
@pytest.mark.kernels
def test_weighted_value_guess_and_tree_equal_brute_force(legacy, seed, n_answers, n_guesses, limit):
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    weights = skewed_weights(seed, wl.n_answers)
    brute = WeightedBruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index),
                               weights)
    everything = tuple(range(wl.n_answers))
    value, guess = brute.best(everything, limit)
    priors = priors_of(wl, weights)
    assert solve_state(Game(wl, priors=priors), everything, limit) == (value, wl.guesses[guess])
    result = solve(Game(wl, guess_limit=limit, priors=priors), wl.guesses[guess], jobs=1, resume=False)
    assert result.weighted_total == value
    assert tree_from_arrays(result.tree) == brute.tree(everything, limit)


@pytest.mark.kernels
def test_a_skewed_prior_changes_the_guesses_as_the_brute_force_says(legacy):
    """On the same lists the uniform and the skewed prior pick different guesses somewhere in
    the tree, and the solver follows the brute force under each."""
    changed = 0
    for seed in (11, 12, 13, 14):
        wl = random_sub_list(legacy, seed, 14, 40)
        table = naive_table(wl.guesses, wl.answers)
        everything = tuple(range(wl.n_answers))
        weights = skewed_weights(seed, wl.n_answers)
        skewed = WeightedBruteForce(table, list(wl.answer_guess_index), weights)
        uniform = BruteForce(table, list(wl.answer_guess_index))
        _, opener = uniform.best(everything, 6)
        expected = skewed.tree(everything, 6, opener)
        result = solve(Game(wl, priors=priors_of(wl, weights)), wl.guesses[opener], jobs=1, resume=False)
        assert tree_from_arrays(result.tree) == expected
        changed += expected != uniform.tree(everything, 6, opener)
    assert changed >= 1


@pytest.mark.kernels
def test_uniform_weights_give_the_unweighted_tree(legacy):
    wl = random_sub_list(legacy, 21, 20, 60)
    plain = solve(Game(wl), wl.answers[0], jobs=1, resume=False)
    uniform = solve(Game(wl, priors=priors_of(wl, [7] * wl.n_answers)), wl.answers[0], jobs=1,
                    resume=False)
    assert uniform.weighted_total == 7 * plain.total
    assert uniform.tree.arrays().keys() == plain.tree.arrays().keys()
    assert all(np.array_equal(uniform.tree.arrays()[k], plain.tree.arrays()[k])
               for k in plain.tree.arrays())


@pytest.mark.slow
def test_uniform_priors_reproduce_7920(legacy, tmp_path):
    path = tmp_path / "uniform.csv"
    path.write_text("".join(f"{a},0.5\n" for a in legacy.answers))
    priors = load_priors(legacy, str(path))
    assert len(set(priors.weights.tolist())) == 1
    result = solve(Game(legacy, priors=priors), "salet", jobs=2, resume=False)
    assert result.total == 7920
    assert result.weighted_total == 7920 * int(priors.weights[0])
    import policy_tree

    loaded = policy_tree.decode(artifact_bytes(result))
    assert loaded.priors["sha256"] == priors.sha256 and policy_tree.verify(loaded).ok


@pytest.mark.kernels
def test_artifact_records_the_priors_and_verify_checks_the_weighted_total(legacy):
    import msgpack

    from policy_tree.artifact import seal
    import policy_tree

    wl = random_sub_list(legacy, 5, 12, 40)
    weights = skewed_weights(5, wl.n_answers)
    result = solve(Game(wl, priors=priors_of(wl, weights)), wl.answers[0], jobs=1, resume=False)
    data = artifact_bytes(result)
    tree = policy_tree.decode(data)
    assert tree.prior_weights.tolist() == weights
    assert tree.priors["weighted_total"] == result.weighted_total and policy_tree.verify(tree).ok
    assert tree.to_bytes() == data
    document = msgpack.unpackb(data, raw=False)
    document["priors"]["weighted_total"] += 1
    report = policy_tree.verify(policy_tree.decode(seal(document)))
    assert not report.ok and any("weighted_total" in f for f in report.failures)


def test_solve_from_takes_priors(legacy):
    wl = random_sub_list(legacy, 3, 14, 50)
    weights = skewed_weights(3, wl.n_answers)
    brute = WeightedBruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index),
                               weights)
    value, guess = brute.best(tuple(range(wl.n_answers)), 6)
    solution = solve_from(Game(wl, priors=priors_of(wl, weights)), [])
    assert (solution.value, solution.next_guess) == (value, wl.guesses[guess])


def test_integer_weights_are_positive_and_scaled():
    weights = integer_weights(np.array([1e-12, 1.0, 3.0]))
    assert weights.min() >= 1 and abs(int(weights.sum()) - WEIGHT_SCALE) <= 3


@pytest.mark.parametrize("text, fragment", [
    ("cigar,-1\n", "weight '-1' of 'cigar' must be a positive number"),
    ("cigar,abc\n", "weight 'abc' of 'cigar' is not a number"),
    ("cigar,nan\n", "must be a positive number"),
    ("zzzzz,1\n", "'zzzzz' is not an answer"),
    ("cigar,1\ncigar,2\n", "'cigar' is given a weight twice"),
    ("cigar 1\n", "expected 'word,weight'"),
    ("cigar,1\n", "answer(s) have no weight"),
])
def test_bad_priors_files_are_refused(legacy, tmp_path, text, fragment):
    path = tmp_path / "priors.csv"
    path.write_text(text)
    with pytest.raises(PriorsError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        load_priors(legacy, str(path))


def test_priors_need_the_total_objective(legacy):
    wl = random_sub_list(legacy, 1, 8, 20)
    with pytest.raises(InputError, match="priors weight the total objective"):
        solve_state(Game(wl, objective="worst", priors=priors_of(wl, [1] * wl.n_answers)), range(wl.n_answers), 6)


def test_cli_bad_priors_exit_2(tmp_path):
    path = tmp_path / "priors.csv"
    path.write_text("cigar,-3\n")
    done = subprocess.run([sys.executable, "-m", "tools.solve", "--priors", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"{path}:1: weight '-3' of 'cigar' must be a positive number" in done.stderr


def _weighted_bound(table, weights, state, guess) -> int:
    """The weighted per-guess bound of §10.3, plainly: W + 2(W − w_green) − Σ_{C ≠ green} max w."""
    classes: dict[int, list[int]] = {}
    for a in state:
        classes.setdefault(int(table[guess, a]), []).append(int(a))
    green = table.max()  # the all-green code
    total = sum(weights[a] for a in state)
    w_green = weights[classes[green][0]] if green in classes else 0
    maxima = sum(max(weights[a] for a in members) for code, members in classes.items()
                 if code != green)
    return total + 2 * (total - w_green) - maxima


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", CASES[:4])
def test_a_budgeted_ranking_under_priors_takes_the_weighted_order(legacy, seed, n_answers,
                                                                  n_guesses, limit):
    """The anytime search under priors (any budget, docs/algorithms.md §15.1) orders and bounds
    the guesses as the search does (§10.3): each bound is the guess's weighted bound, so the
    lower bound without a search (and ``cheap_lower_bound``) is the least weighted bound, at
    least the state's weight (the count of §3.2 is far below any weighted value); the optimum
    it finds is the brute force's first optimal guess."""
    from solver.exact.anytime import cheap_lower_bound, rank_guesses
    from solver.game.feedback import feedback_table

    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    weights = skewed_weights(seed, wl.n_answers)
    brute = WeightedBruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index),
                               weights)
    game = Game(wl, guess_limit=limit, priors=priors_of(wl, weights))
    table = feedback_table(wl, use_cache=False)
    state = np.arange(wl.n_answers, dtype=np.int32)
    value, guess = brute.best(tuple(range(wl.n_answers)), limit)
    unsearched = rank_guesses(game, state, limit, budget=0, table=table)
    assert sum(weights) <= unsearched.lower_bound <= value
    assert unsearched.lower_bound == int(unsearched.bounds.min())
    assert cheap_lower_bound(game, state, table) == unsearched.lower_bound
    for g, bound in zip(unsearched.order, unsearched.bounds):
        assert bound == _weighted_bound(table, weights, state, int(g)), wl.guesses[g]
    ranked = rank_guesses(game, state, limit, top=1, budget=300, table=table)
    assert ranked.proven and ranked.top[0] == (guess, value)


def _plain_fast_policy(table, weights, guess_of_answer, state, d, weighted=True):
    """The fast policy of §15.1 plainly: at every node of two answers or more, the guess that
    splits it with the least (bound, Σ|C|², index) — the weighted bound of §10.3, or with
    ``weighted=False`` the count bound of §3.2 — recursively. Returns (first guess, weighted
    total), or None when it does not win every answer within ``d`` guesses."""
    green = int(table.max())

    def play(members, d, depth):
        if d < 1:
            return None
        if len(members) == 1:
            return int(guess_of_answer[members[0]]), weights[members[0]] * (depth + 1)
        best = None
        for g in range(table.shape[0]):
            classes: dict[int, list[int]] = {}
            for a in members:
                classes.setdefault(int(table[g, a]), []).append(a)
            if len(classes) < 2:
                continue
            bound = (_weighted_bound(table, weights, members, g) if weighted
                     else 3 * len(members) - len(classes) - (green in classes))
            key = (bound, sum(len(c) ** 2 for c in classes.values()), g)
            if best is None or key < best[0]:
                best = (key, classes)
        if best is None:
            return None
        total = 0
        for code, part in best[1].items():
            if code == green:
                total += weights[part[0]] * (depth + 1)
                continue
            below = play(part, d - 1, depth + 1)
            if below is None:
                return None
            total += below[1]
        return best[0][2], total

    return play(list(state), d, 0)


def test_the_fast_policy_under_priors_takes_the_weighted_order(legacy):
    """The fast policy (``greedy_guesses``, the anytime answer's upper bound, §15.1) plays the
    search's candidate order under priors, the weighted bound of §10.3: its first guess and
    weighted total are those of a plain twin, at least the brute force's V*, and on some of
    these states the count bound's order would play otherwise."""
    from solver.exact.anytime import greedy_guesses
    from solver.game.feedback import feedback_table

    differs = 0
    for seed, n_answers, n_guesses, limit in CASES[:4]:
        wl = random_sub_list(legacy, seed, n_answers, n_guesses)
        weights = skewed_weights(seed, wl.n_answers)
        game = Game(wl, guess_limit=limit, priors=priors_of(wl, weights))
        table = feedback_table(wl, use_cache=False)
        state = np.arange(wl.n_answers, dtype=np.int32)
        plain = _plain_fast_policy(table, weights, wl.answer_guess_index, state, limit)
        played = greedy_guesses(game, state, limit, table=table)
        if plain is None:
            assert played is None, seed
            continue
        first, used = played
        assert (first, int(np.dot(np.asarray(weights, dtype=np.int64), used))) == plain, seed
        brute = WeightedBruteForce(naive_table(wl.guesses, wl.answers),
                                   list(wl.answer_guess_index), weights)
        assert plain[1] >= brute.best(tuple(range(wl.n_answers)), limit)[0], seed
        counted = _plain_fast_policy(table, weights, wl.answer_guess_index, state, limit,
                                     weighted=False)
        differs += counted != plain
    assert differs > 0  # (so that the unweighted order would fail this test)
