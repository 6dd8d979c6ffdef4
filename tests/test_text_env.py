"""The text environment (solver.evaluation.text_env) and the exact per-move reward
(solver.evaluation.exact_reward): full games with scripted agents, offline, through
TextArena's own state and make() and through the built-in copy of its rules."""

from __future__ import annotations

import math

import pytest

from solver.evaluation.analysis import analyse_game
from solver.evaluation.exact_reward import ExactReward, RewardWeights
from solver.evaluation.text_env import ExactWordleTextEnv, register_textarena
from solver.game.errors import InputError



@pytest.fixture(scope="module")
def small():
    from conftest import numpy_sub_list

    return numpy_sub_list(5, 40, 80)[0]


def optimal_reply(env) -> str:
    """The scripted optimal agent: the exact next guess, in TextArena's format."""
    return f"My guess is [{env.service.advise(env.steps, top=0).next_guess}]"


@pytest.mark.kernels
@pytest.mark.parametrize("use_textarena", [True, False], ids=["textarena-state", "built-in-state"])
def test_the_optimal_agent_gets_zero_regret_on_every_move_and_the_win(small, use_textarena):
    env = ExactWordleTextEnv(small, textarena=use_textarena)
    for answer in small.answers[:5]:
        env.reset(answer=answer)
        prompt = env.get_observation()[1]
        assert "wrap your word in square brackets" in prompt[0][1]
        done, infos = False, []
        while not done:
            done, info = env.step(optimal_reply(env))
            infos.append(info)
        assert all(i["regret"] == 0 and i["regret_fraction"] == "0" and i["exact"] for i in infos)
        assert infos[-1]["won"] and infos[-1]["reward"] == 1.0
        rewards, game_info = env.close()
        assert rewards == {0: 1.0} and not game_info[0]["invalid_move"]


@pytest.mark.kernels
def test_a_fixed_suboptimal_agent_gets_the_regret_analyse_gives(small):
    """The agent plays the list's last guess, then the first answer still possible (the
    service's state), then on: each step's regret and luck equal analyse_game's on the same
    game, and the rewards add up to the weights' sum."""
    env = ExactWordleTextEnv(small, textarena=False, weights=RewardWeights(win=2.0, regret=0.5))
    service = env.service
    for answer in small.answers[5:10]:
        env.reset(answer=answer)
        done, infos = False, []
        while not done:
            if not env.steps:
                word = small.guesses[-1]
            else:
                word = small.answers[int(service.state_after(env.steps)[0])]
            done, info = env.step(f"[{word}]")
            infos.append(info)
        analysis = analyse_game(service.game, env.steps, service=service)
        assert analysis.all_exact
        assert [i["regret_fraction"] for i in infos] == [str(m.regret_finite) for m in analysis.moves]
        assert [i["luck"] for i in infos] == [float(m.luck) for m in analysis.moves]
        assert sum(i["regret_finite"] for i in infos) == pytest.approx(float(analysis.total_regret_finite))
        assert infos[0]["regret"] > 0
        expected = (2.0 if analysis.won else 0.0) - 0.5 * float(analysis.total_regret_finite)
        assert env.close()[0][0] == pytest.approx(expected)


@pytest.mark.kernels
@pytest.mark.parametrize("use_textarena", [True, False], ids=["textarena-state", "built-in-state"])
def test_invalid_moves_are_forgiven_once_in_a_row_then_end_the_game(small, use_textarena):
    env = ExactWordleTextEnv(small, textarena=use_textarena)
    env.reset(seed=3)
    first = small.guesses[0]
    done, info = env.step("no word in brackets")
    assert not done and info["invalid"].startswith("You tried submitting a word in the wrong format")
    assert "You attempted an invalid move" in env.get_observation()[1][-1][1]
    done, info = env.step(f"[{first}]")  # a valid guess resets the count
    assert not done and info["guess"] == first
    done, info = env.step(f"[{first}]")
    assert not done and info["invalid"] == f"You have already guessed '{first}' before. Please try a different word."
    done, info = env.step("[abc]")
    assert done and info["invalid"] == "Your word must be exactly 5 letters."
    rewards, game_info = env.close()
    assert game_info[0]["invalid_move"] and game_info[0]["reason"].startswith("Invalid Move: Your word")
    assert env.invalid_moves == 3 and rewards[0] == pytest.approx(-3 * 0.1 - env.moves[0].regret_finite)
    with pytest.raises(RuntimeError):
        env.step("[crane]")
    strict = ExactWordleTextEnv(small, textarena=use_textarena, error_allowance=0)
    strict.reset(seed=1)
    assert strict.step("[zzzzz]")[0]


@pytest.mark.kernels
def test_textarena_make_builds_it_with_its_llm_wrappers(small, tmp_path):
    """textarena.make("ExactWordle-v0") with TextArena's default wrappers plays a game to the
    end on a user's lists (a directory), V* computed for them."""
    import textarena as ta

    for kind, words in (("answers", small.answers), ("guesses", small.guesses)):
        (tmp_path / f"{kind}.txt").write_text("\n".join(words) + "\n")
    assert register_textarena()
    env = ta.make("ExactWordle-v0", words=str(tmp_path))
    env.reset(num_players=1, seed=7)
    player, observation = env.get_observation()
    assert player == 0 and isinstance(observation, str) and "[GAME] You are Playing Wordle." in observation
    inner = env.env.env  # the two wrappers' environment
    done = False
    while not done:
        done, _ = env.step(optimal_reply(inner))
    rewards, _ = env.close()
    assert rewards == {0: 1.0} and all(m.regret == 0 for m in inner.moves)


def test_bad_arguments_are_input_errors(small):
    with pytest.raises(InputError):
        RewardWeights(regret=-1)
    with pytest.raises(InputError):
        RewardWeights(win=math.nan)
    with pytest.raises(InputError):
        ExactWordleTextEnv("no-such-list")
    with pytest.raises(InputError):
        ExactReward(ExactWordleTextEnv(small, textarena=False).service, budget=0)


@pytest.mark.kernels
def test_hard_mode_refuses_a_guess_that_ignores_a_hint_as_an_invalid_move(small):
    from solver.game.feedback import feedback_code

    env = ExactWordleTextEnv(small, mode="hard", textarena=False, error_allowance=2)
    answer = small.answers[0]
    env.reset(answer=answer)
    first = next(w for w in small.guesses if 0 < feedback_code(w, answer) < 3**5 - 1)
    assert not env.step(f"[{first}]")[0]
    allowed = {small.guesses[int(i)] for i in env.reward.service.state_after(env.steps)} | {first}
    ignoring = next(w for w in small.guesses if w not in allowed and
                    feedback_code(first, w) != feedback_code(first, answer))
    done, info = env.step(f"[{ignoring}]")
    assert not done and "hard mode" in info["invalid"] and len(env.steps) == 1


@pytest.mark.slow
def test_within_a_budget_a_move_gets_a_proven_interval_holding_the_exact_regret(tmp_path):
    """A list of 300 answers, an odd opener, a budget of a millisecond: the move is not
    valued in time, so its regret is a proven interval (labelled not exact, the reward at its
    upper end) that holds the exact regret; score-games with --budget marks it too."""
    import random

    from solver.evaluation.game_log import GameScorer
    from solver.evaluation.exact_reward import shared_reward
    from solver.game.spec import Game
    from solver.game.feedback import feedback_code
    from solver.game.wordlists import from_words, load_word_list

    legacy = load_word_list("legacy")
    rng = random.Random(4)
    answers = rng.sample(legacy.answers, 300)
    word_list = from_words(answers, answers + rng.sample([w for w in legacy.guesses if w not in set(answers)], 300),
                           name="mid")
    exact = shared_reward(Game(word_list))  # the root solved exactly first
    service = exact.service
    opener, answer = "fuzzy" if "fuzzy" in word_list.guesses else word_list.guesses[-1], word_list.answers[0]
    code = feedback_code(opener, answer)
    truth = exact.move([], opener, code)
    assert truth.exact and truth.regret_fraction > 0
    fresh = type(service)(service.game, book=False, cache=False)
    bounded = ExactReward(fresh, budget=0.001).move([], opener, code)
    low, high = bounded.regret_interval
    assert not bounded.exact and low is not None and low <= float(truth.regret_fraction)
    assert high is None or float(truth.regret_fraction) <= high
    weights = RewardWeights()
    expected = -(high if high is not None else weights.win)
    assert weights.move_reward(bounded, won=False, lost=False) == pytest.approx(expected)
    line = f'{{"answer": "{answer}", "guesses": ["{opener}", "{answer}"]}}'
    scored = GameScorer(word_list, budget=0.001).score_log([line])
    assert scored.games and not scored.games[0].analysis.all_exact


@pytest.mark.slow
def test_within_a_budget_an_odd_opener_on_the_shipped_lists_is_not_solved_whole():
    """nyt-2024: V* at the start is exact (the opener table), but an opener with no tree would
    need its whole tree: within a budget of 0.2 s it is a proven interval, answered in time."""
    import time

    from solver.evaluation.exact_reward import shared_reward
    from solver.game.spec import Game
    from solver.game.feedback import feedback_code
    from solver.game.wordlists import load_word_list

    word_list = load_word_list("nyt-2024")
    reward = ExactReward(shared_reward(Game(word_list)).service, budget=0.2)
    started = time.monotonic()
    move = reward.move([], "xylyl", feedback_code("xylyl", "gland"))
    assert time.monotonic() - started < 30
    low, high = move.regret_interval
    assert not move.exact and move.regret_fraction is None and low is not None and low >= 0
    assert high is None or high >= low
    optimal = reward.move([], "tarse", feedback_code("tarse", "gland"))
    assert optimal.regret_fraction == 0
