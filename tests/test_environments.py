"""The agent protocol (solver.game.protocol) and the environments (solver.game.environments),
checked against the brute-force twins: the feedback shown, the belief, the hard-mode rule, the
noisy posterior; and any object with choose(belief, rng) scored by the one scorer."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import naive
import naive_hard
import naive_absurdle
import naive_noisy as twin
from conftest import numpy_sub_list
from solver.evaluation.noisy_scoring import play_noisy_game
from solver.evaluation.scoring import score_policy
from solver.game.absurdle import AbsurdleEpisode, AbsurdleInputError
from solver.game.environments import Episode, HardEpisode, NoisyEpisode
from solver.game.errors import HardModeError
from solver.game.protocol import Agent, Belief, decision_rng, decision_seed, rng_seed
from solver.policies.registry import make_policy
from solver.policies.mig import MIGPolicy


@pytest.fixture(scope="module")
def small():
    return numpy_sub_list(5, 120, 300)


def test_game_shows_the_true_feedback_and_keeps_the_consistent_answers(small):
    word_list, table = small
    rng = np.random.default_rng(1)
    for answer in rng.choice(word_list.n_answers, 10, replace=False):
        game = Episode(word_list, table, int(answer))
        for guess in rng.choice(word_list.n_guesses, 4, replace=False):
            if game.won:
                break
            code = game.step(int(guess))
            word = word_list.guesses[int(guess)]
            assert code == naive.feedback(word, word_list.answers[answer])
            expected = [a for a in range(word_list.n_answers)
                        if all(naive.feedback(word_list.guesses[g], word_list.answers[a]) == c
                               for g, c in game.history)]
            belief = game.belief()
            assert belief.state.tolist() == expected
            assert belief.guesses_left == max(1, 6 - game.guesses)
            assert belief.history == tuple(game.history)
        target = word_list.guess_index(word_list.answers[answer])
        if not game.won:
            assert game.step(target) == 242 and game.won
        with pytest.raises(RuntimeError):
            game.step(0)


def test_game_rejects_bad_indices(small):
    word_list, table = small
    with pytest.raises(ValueError):
        Episode(word_list, table, word_list.n_answers)
    with pytest.raises(ValueError):
        Episode(word_list, table, 0).step(word_list.n_guesses)


def test_hard_game_refuses_what_the_twin_refuses(small):
    word_list, table = small
    rng = np.random.default_rng(4)
    refused = allowed = 0
    for answer in rng.choice(word_list.n_answers, 8, replace=False):
        game = HardEpisode(word_list, table, int(answer))
        game.step(int(rng.integers(word_list.n_guesses)))
        for guess in rng.choice(word_list.n_guesses, 40, replace=False):
            if game.won:
                break
            history = [(word_list.guesses[g], c) for g, c in game.history]
            word = word_list.guesses[int(guess)]
            if naive_hard.allowed(history, word):
                game.step(int(guess))
                allowed += 1
            else:
                before = list(game.history)
                with pytest.raises(HardModeError, match="not allowed in hard mode"):
                    game.step(int(guess))
                assert game.history == before
                refused += 1
    assert refused > 0 and allowed > 0


@pytest.mark.parametrize("tie", ["adversarial", "fewest-clues", "lowest-code"])
def test_absurdle_game_replies_are_the_twin_adversary(small, tie):
    """The environment's replies are the twin adversary's (every largest class under
    adversarial, the rule's one otherwise); step keeps that class, refuses another pattern
    (nothing played) and the belief is the class kept."""
    word_list, table = small
    twin_game = naive_absurdle.NaiveAbsurdle(word_list.answers, word_list.guesses, tie)
    rng = np.random.default_rng(11)
    for _ in range(6):
        game = AbsurdleEpisode(word_list, table, tie)
        state = tuple(word_list.answers)
        while not game.won and game.guesses < 8:
            guess = int(rng.integers(word_list.n_guesses))
            expected = twin_game.replies(word_list.guesses[guess], state)
            assert game.replies(guess) == [code for code, _ in expected]
            others = sorted(set(range(243)) - {code for code, _ in expected})
            with pytest.raises(AbsurdleInputError, match="would not show this pattern"):
                game.step(guess, int(others[0]))
            k = int(rng.integers(len(expected)))
            code, state = expected[k]
            assert game.step(guess, code) == code
            belief = game.belief()
            assert [word_list.answers[a] for a in belief.state] == sorted(state)
            assert belief.history == tuple(game.history) and belief.guesses_left == max(1, 6 - game.guesses)
            assert game.won == (code == 242)


def test_absurdle_game_default_reply_and_copies(small):
    word_list, table = small
    game = AbsurdleEpisode(word_list, table, "adversarial")
    replies = game.replies(3)
    branch = game.copy()
    assert game.step(3) == replies[0]
    assert branch.history == [] and branch.state.size == word_list.n_answers
    with pytest.raises(AbsurdleInputError, match="unknown tie rule"):
        AbsurdleEpisode(word_list, table, "kindest")


def test_noisy_game_belief_is_the_twin_posterior(small):
    word_list, table = small
    answers = list(word_list.answers)
    rng = np.random.default_rng(8)
    for answer in (0, 17, 60):
        game = NoisyEpisode(word_list, table, answer, seed=3)
        for _ in range(5):
            guess = int(rng.integers(word_list.n_guesses))
            if guess == word_list.guess_index(answers[answer]):
                continue
            game.step(guess)
            post = twin.posterior(answers, [(word_list.guesses[g], s) for g, s in game.history])
            belief = game.belief()
            assert belief.noisy
            assert belief.state.tolist() == [a for a in range(len(answers)) if post[answers[a]] > 0]
            probabilities = belief.weights / belief.weights.sum()
            expected = [float(post[answers[a]]) for a in belief.state]
            np.testing.assert_allclose(probabilities, expected, rtol=1e-12)
            assert sum(post.values()) == Fraction(1)


def test_noisy_scorer_replays_the_environment(small):
    """play_noisy_game's shown patterns are the environment's for the same (answer, seed)."""
    word_list, table = small
    agent = make_policy("expectimax1", word_list, table)
    for answer in range(0, word_list.n_answers, 13):
        played = play_noisy_game(agent, answer, 5)
        game = NoisyEpisode(word_list, table, answer, 5)
        shown = [game.step(g) for g in played.guesses]
        assert shown[:-1] == played.shown if played.won else shown == played.shown
        assert game.won == played.won


def test_belief_weights_must_match_the_state():
    with pytest.raises(ValueError, match="weights"):
        Belief(np.arange(3, dtype=np.int32), 6, (), np.ones(2))


def test_decision_generators_are_reproducible_and_give_back_their_seed():
    first = decision_rng(7, 3, 2).integers(1 << 30, size=4)
    assert first.tolist() == decision_rng(7, 3, 2).integers(1 << 30, size=4).tolist()
    assert first.tolist() != decision_rng(7, 3, 1).integers(1 << 30, size=4).tolist()
    assert rng_seed(decision_rng(7, 3, 2)) == decision_seed(7, 3, 2)
    assert rng_seed(None) is None
    spawned = np.random.default_rng(np.random.SeedSequence(1).spawn(1)[0])
    with pytest.raises(ValueError, match="one integer seed"):
        rng_seed(spawned)


class FirstPossible:
    """An agent of the protocol that is not a Policy: the first answer still possible, or (when
    randomised) a uniform one drawn from the generator it is given."""

    def __init__(self, word_list, table, deterministic=True):
        self.word_list, self.table = word_list, table
        self.name = "first_possible"
        self.deterministic = deterministic

    def choose(self, belief, rng):
        pick = 0 if rng is None else int(rng.integers(belief.size))
        return int(self.word_list.answer_guess_index[belief.state[pick]])


def test_any_agent_of_the_protocol_is_scored(small):
    word_list, table = small
    agent = FirstPossible(word_list, table)
    assert isinstance(agent, Agent) and isinstance(MIGPolicy(word_list, table, "a"), Agent)
    opener = word_list.guesses[0]
    result = score_policy(agent, opener)
    totals = []
    for answer in range(word_list.n_answers):
        game = Episode(word_list, table, answer)
        guess = 0
        while True:
            game.step(guess)
            if game.won:
                break
            guess = int(word_list.answer_guess_index[game.state[0]])
        totals.append(game.guesses)
    assert result.guesses_per_answer.tolist() == totals
    randomised = FirstPossible(word_list, table, deterministic=False)
    first = score_policy(randomised, opener, seed=4)
    assert first.mode == "games"
    assert first.guesses_per_answer.tolist() == score_policy(randomised, opener, seed=4).guesses_per_answer.tolist()


def test_choose_takes_a_belief_only(small):
    word_list, table = small
    policy = MIGPolicy(word_list, table, "b")
    state = np.arange(word_list.n_answers, dtype=np.int32)
    with pytest.raises(TypeError, match="Belief"):
        policy.choose(state, 6)
    assert policy.choose(Belief(state, 6)) == policy.choose(Belief(state, 1), decision_rng(0, 0, 0))
