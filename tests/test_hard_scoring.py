"""Hard mode through the agent protocol: the belief's allowed guesses, the classic agents and MIG
restricted to them, and the scorer's hard mode, checked against brute-force twins (every game
played word by word with the plain hard-mode rule of tests/naive_hard.py and the plain choice
rules of tests/naive_classic.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import naive_classic
import naive_hard
from conftest import numpy_sub_list
from naive import feedback
from solver.evaluation.belief_scoring import score_in_belief
from solver.evaluation.scoring import PolicyError, score_policy
from solver.game.environments import HardEpisode
from solver.game.errors import InputError
from solver.game.protocol import decision_seed
from solver.policies.belief import answers_universe
from solver.policies.function import FunctionPolicy, PolicyFunctionError
from solver.policies.registry import make_policy

OPENER = 0  # the first guess of the small list (alphabetical)
SEED = 3


@pytest.fixture(scope="module")
def small():
    return numpy_sub_list(12, 60, 150)


def product_key(guess, possible):
    key = 1
    for size in Counter(feedback(guess, w) for w in possible).values():
        key *= size ** size
    return key


def twin_choice(name, guesses, possible, seed):
    """The plain rule of agent ``name`` over the word list ``guesses`` (hard mode: the allowed
    ones), ``possible`` the answers still possible (≥ 2)."""
    if name in ("minimax1", "expectimax1"):
        return naive_classic.depth_one_choice(guesses, possible, name[:-1])
    if name in ("entropy", "mig_b"):
        return naive_classic.entropy_choice(guesses, possible)
    if name == "mig_a":
        return min(guesses, key=lambda g: (product_key(g, possible), g))
    if name == "random_total":
        return naive_classic.random_total_choice(guesses, seed)
    if name == "random_possible":
        return naive_classic.random_possible_choice(possible, seed)
    raise ValueError(name)


def twin_hard_games(word_list, name, opener, members=None):
    """Guesses per answer of agent ``name`` in hard mode from ``opener``, game by game, and how
    many decisions the restriction changed (the choice over every guess was not allowed).
    ``members``: the words the agent believes possible (default the answers; the guesses for
    the ``guesses`` belief setting)."""
    guesses, answers = list(word_list.guesses), list(word_list.answers)
    members = answers if members is None else list(members)
    per_answer, changed = [], 0
    for a, answer in enumerate(answers):
        history, guess, k = [], opener, 0
        while True:
            assert naive_hard.allowed(history, guess)
            history.append((guess, feedback(guess, answer)))
            if guess == answer:
                break
            possible = naive_classic.consistent(members, history)
            if len(possible) == 1:
                guess = possible[0]
            else:
                allowed = [w for w in guesses if naive_hard.allowed(history, w)]
                seed = decision_seed(SEED, a, k)
                guess = twin_choice(name, allowed, possible, seed)
                changed += twin_choice(name, guesses, possible, seed) != guess
            k += 1
        per_answer.append(len(history))
    return per_answer, changed


@pytest.mark.kernels
def test_hard_game_belief_allows_what_the_twin_allows(small):
    word_list, table = small
    rng = np.random.default_rng(5)
    for answer in rng.choice(word_list.n_answers, 6, replace=False):
        game = HardEpisode(word_list, table, int(answer))
        assert game.belief().allowed.tolist() == list(range(word_list.n_guesses))
        while not game.won and game.guesses < 4:
            belief = game.belief()
            history = [(word_list.guesses[g], c) for g, c in game.history]
            expected = [g for g, w in enumerate(word_list.guesses) if naive_hard.allowed(history, w)]
            assert belief.hard and belief.allowed.tolist() == expected
            assert set(belief.state.tolist()) <= {word_list.guess_answer_index[g] for g in expected}
            game.step(int(belief.allowed[int(rng.integers(len(belief.allowed)))]))


@pytest.mark.kernels
@pytest.mark.parametrize("name", ["minimax1", "expectimax1", "entropy", "mig_a", "mig_b",
                                  "random_total", "random_possible"])
def test_hard_mode_score_matches_the_brute_force(small, name):
    """score_policy(..., game_mode="hard") gives every answer the guesses of the twin's game,
    each guess allowed by the plain rule; tree and games mode agree for a deterministic agent."""
    word_list, table = small
    policy = make_policy(name, word_list, table)
    score = score_policy(policy, OPENER, seed=SEED, game_mode="hard")
    expected, _ = twin_hard_games(word_list, name, word_list.guesses[OPENER])
    assert score.game_mode == "hard"
    assert score.guesses_per_answer.tolist() == expected
    if policy.deterministic:
        games = score_policy(policy, OPENER, game_mode="hard", mode="games")
        assert games.guesses_per_answer.tolist() == expected


@pytest.mark.kernels
def test_the_restriction_changes_some_choices(small):
    """The hard-mode test above can fail: on this list the choice over every guess is not
    allowed at some decisions of each restricted agent."""
    word_list, _ = small
    for name in ("minimax1", "expectimax1", "entropy", "mig_a"):
        _, changed = twin_hard_games(word_list, name, word_list.guesses[OPENER])
        assert changed > 0, name


@pytest.mark.kernels
def test_belief_scorer_hard_mode_is_the_same_score(small):
    word_list, table = small
    policy = make_policy("expectimax1", word_list, table)
    universe = answers_universe(word_list, table)
    score = score_in_belief(policy, universe, opener=word_list.guesses[OPENER], game_mode="hard")
    expected = score_policy(policy, OPENER, game_mode="hard").guesses_per_answer.tolist()
    assert score.guesses_per_answer.tolist() == expected
    assert all(naive_hard.allowed([(word_list.guesses[g], int(table[g, a])) for g in game[:k]],
                                  word_list.guesses[game[k]])
               for a, game in enumerate(score.games) for k in range(len(game)))


@pytest.mark.kernels
@pytest.mark.parametrize("name", ["minimax1", "entropy"])
def test_hard_mode_in_the_guesses_belief_setting(small, name, tmp_path, monkeypatch):
    """In the guesses setting (every allowed guess consistent with the feedback is possible)
    the restricted agents play the twin's games too."""
    from solver.policies.belief import guesses_universe

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list, table = small
    universe = guesses_universe(word_list, use_cache=False)
    score = score_in_belief(make_policy(name, word_list, table), universe, opener=word_list.guesses[OPENER],
                            game_mode="hard")
    expected, _ = twin_hard_games(word_list, name, word_list.guesses[OPENER], members=word_list.guesses)
    assert score.belief == "guesses" and score.guesses_per_answer.tolist() == expected


@pytest.mark.kernels
def test_hard_mode_refusals(small):
    word_list, table = small
    with pytest.raises(InputError, match="does not play hard mode"):
        score_policy(make_policy("rollout2_a", word_list, table), OPENER, game_mode="hard")
    with pytest.raises(ValueError, match="game_mode"):
        score_policy(make_policy("mig_a", word_list, table), OPENER, game_mode="easy")
    # a function of the history that ignores the hints: refused with the hint it breaks
    def stubborn_rule(history, answers):
        played = [(w, sum("byg".index(c) * 3**i for i, c in enumerate(f))) for w, f in history]
        refused = [w for w in word_list.guesses if not naive_hard.allowed(played, w)]
        return refused[0] if refused else answers[0]

    stubborn = FunctionPolicy(stubborn_rule, word_list, table)
    with pytest.raises(PolicyFunctionError, match="hard mode does not allow"):
        score_policy(stubborn, OPENER, game_mode="hard")
    # any agent of the protocol that plays a refused guess is stopped by the scorer
    class Rebel:
        name, deterministic, word_list = "rebel", True, None

        def choose(self, belief, rng):
            refused = np.setdiff1d(np.arange(word_list.n_guesses), belief.allowed)
            return int(refused[0]) if refused.size else int(word_list.answer_guess_index[belief.state[0]])

    rebel = Rebel()
    rebel.word_list, rebel.table = word_list, table
    with pytest.raises(PolicyError, match="hard mode does not allow"):
        score_policy(rebel, OPENER, game_mode="hard")


@pytest.mark.kernels
@pytest.mark.parametrize("pattern, opener", [("s..ll", "swill"), ("..ill", "swill")])
def test_exact_policy_in_hard_mode_plays_the_brute_force_tree(pattern, opener):
    """On a word family (where hard mode bites: tests/test_hard_mode.py), the exact policy
    scored in hard mode plays the brute force's optimal hard-mode tree from the opener: every
    answer's guesses are its depth there; in normal mode it scores fewer."""
    from naive import table as naive_table
    from solver.game.feedback import feedback_table
    from solver.game.wordlists import load_word_list
    from solver.policies.exact_policy import ExactPolicy
    from test_hard_mode import family_list

    word_list = family_list(load_word_list("legacy"), pattern)
    table = feedback_table(word_list, use_cache=False)
    brute = naive_hard.HardBruteForce(word_list.guesses, word_list.answers,
                                      naive_table(word_list.guesses, word_list.answers))
    everything, all_guesses = tuple(range(word_list.n_answers)), frozenset(range(word_list.n_guesses))
    g = word_list.guess_index(opener)
    value = brute.cost(g, everything, all_guesses, 6)
    depth = {}

    def walk(node, state, level):
        for code, members in brute.classes(node["guess"], state).items():
            if code == brute.all_green:
                depth[members[0]] = level
            else:
                walk(node["children"][code], members, level + 1)

    walk(brute.tree(everything, all_guesses, 6, g), everything, 1)
    score = score_policy(ExactPolicy(word_list, table), opener, game_mode="hard")
    assert score.total == value
    assert score.guesses_per_answer.tolist() == [depth[a] for a in range(word_list.n_answers)]
    assert score_policy(ExactPolicy(word_list, table), opener).total < value
