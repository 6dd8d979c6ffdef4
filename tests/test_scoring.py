"""The scorer: tree evaluation against plain game-by-game simulation, games mode, seeds,
failures, and the exact tree scored as a policy."""

from __future__ import annotations

import numpy as np
from solver.game.spec import Game
import pytest

import naive_policies as naive
from conftest import numpy_sub_list
from solver.exact.bellman import solve
from solver.policies.exact_policy import ExactPolicy
from solver.game.feedback import feedback_table
from solver.policies.mig import MIGPolicy
from solver.policies.base import Policy
from solver.evaluation.scoring import PolicyError, play_game, score_policy
from solver.game.wordlists import from_words


@pytest.fixture(scope="module")
def small():
    return numpy_sub_list(5, 120, 300)


@pytest.mark.parametrize("variant", ["a", "b"])
@pytest.mark.kernels
def test_tree_matches_plain_simulation(small, variant):
    word_list, table = small
    opener = word_list.guess_index(word_list.answers[7])
    result = score_policy(MIGPolicy(word_list, table, variant), opener)

    def choose(state):
        return naive.mig_choice(table, state, word_list.answer_guess_index, variant == "b", word_list.n_guesses)

    expected = [naive.play(choose, table, a, opener, word_list.n_answers) for a in range(word_list.n_answers)]
    assert result.guesses_per_answer.tolist() == expected
    assert result.total == sum(expected)
    assert result.average == sum(expected) / len(expected)
    assert result.max_guesses == max(expected)
    assert result.histogram == [expected.count(k) for k in range(1, max(6, max(expected)) + 1)]
    assert result.failures == sum(1 for e in expected if e > 6)
    assert result.mode == "tree" and result.opener == word_list.answers[7]
    # each state decided once: the decisions are distinct states
    keys = [d.state.tobytes() for d in result.decisions]
    assert len(keys) == len(set(keys))
    assert sum(d.games for d in result.decisions if d.guesses_left == 5) == \
        word_list.n_answers - (1 if word_list.guesses[opener] in word_list.answers else 0)


@pytest.mark.kernels
def test_games_mode_equals_tree_mode(small):
    word_list, table = small
    policy = MIGPolicy(word_list, table, "b")
    tree = score_policy(policy, "salet" if "salet" in word_list.guesses else word_list.guesses[0])
    games = score_policy(policy, tree.opener, mode="games", jobs=1)
    assert games.guesses_per_answer.tolist() == tree.guesses_per_answer.tolist()
    assert games.mode == "games"
    assert sorted((d.state.tobytes(), d.guess, d.games) for d in games.decisions) == \
        sorted((d.state.tobytes(), d.guess, d.games) for d in tree.decisions)


class RandomMember(Policy):
    """Plays a uniformly random possible answer (a randomised policy for the tests)."""

    name = "random_member"
    deterministic = False

    def _choose(self, state, guesses_left, seed):
        rng = np.random.default_rng(seed)
        return int(self.word_list.answer_guess_index[state[rng.integers(len(state))]])


@pytest.mark.kernels
def test_randomised_policy_seeds(small):
    word_list, table = small
    policy = RandomMember(word_list, table)
    one = score_policy(policy, word_list.answers[0], seed=123, jobs=1)
    two = score_policy(policy, word_list.answers[0], seed=123, jobs=2)
    other = score_policy(policy, word_list.answers[0], seed=124, jobs=1)
    assert one.mode == "games" and one.seed == 123
    assert one.guesses_per_answer.tolist() == two.guesses_per_answer.tolist()
    assert one.guesses_per_answer.tolist() != other.guesses_per_answer.tolist()
    # a single game replays the same guesses
    used, _ = play_game(policy, 17, word_list.guess_index(word_list.answers[0]), seed=123)
    assert used == one.guesses_per_answer[17]


ATCH = ["batch", "catch", "hatch", "latch", "match", "patch", "watch"]


class FirstMember(Policy):
    name = "first_member"

    def _choose(self, state, guesses_left, seed):
        return int(self.word_list.answer_guess_index[state[0]])


class Stubborn(Policy):
    name = "stubborn"

    def _choose(self, state, guesses_left, seed):
        return self.word_list.guess_index("fuzzy")


@pytest.mark.kernels
def test_failures_counted_past_the_limit():
    word_list = from_words(ATCH, ATCH + ["fuzzy"], "atch")
    table = feedback_table(word_list, use_cache=False)
    # fuzzy tells nothing; then batch, catch, ... one at a time: answer i (0-based) takes i + 2
    result = score_policy(FirstMember(word_list, table), "fuzzy")
    assert result.guesses_per_answer.tolist() == [2, 3, 4, 5, 6, 7, 8]
    assert (result.total, result.max_guesses, result.failures) == (35, 8, 2)
    assert result.histogram == [0, 1, 1, 1, 1, 1, 1, 1]
    # the policy is asked with guesses_left clamped to 1 past the limit
    assert sorted(d.guesses_left for d in result.decisions) == [1, 1, 1, 2, 3, 4, 5]
    with pytest.raises(PolicyError):
        score_policy(Stubborn(word_list, table), "fuzzy")


@pytest.mark.kernels
def test_exact_tree_scores_its_own_total(small):
    word_list, table = small
    solved = solve(Game(word_list), word_list.answers[3], jobs=1)
    from_tree = score_policy(ExactPolicy(word_list, table, solved.tree), word_list.answers[3])
    assert from_tree.total == solved.total
    assert from_tree.guesses_per_answer.tolist() == solved.guesses_per_answer.tolist()
    # without the tree, states are solved as they come: the same decisions
    searched = score_policy(ExactPolicy(word_list, table), word_list.answers[3])
    assert searched.guesses_per_answer.tolist() == solved.guesses_per_answer.tolist()


def test_unknown_opener(small):
    from solver.game.errors import UnknownWordError

    word_list, table = small
    with pytest.raises(UnknownWordError):
        score_policy(MIGPolicy(word_list, table, "a"), "zzzzz")
