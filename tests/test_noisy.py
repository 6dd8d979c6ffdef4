"""Noisy Wordle (docs/algorithms.md §14): the simulator's pattern distribution against the noise
model (chi-square on a fixed seed), the likelihood against an enumeration of the noise, the
belief and the entropy agent's gains against tests/naive_noisy.py, determinism, the agents
against Absurdle replayed through the adversary rule, and bad input → exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import naive_noisy as twin
from conftest import numpy_sub_list
from solver.evaluation.noisy_scoring import play_noisy_game, score_noisy, wilson
from solver.policies.noisy import NoisyBelief, noise_likelihood
from solver.policies.registry import make_policy

ROOT = Path(__file__).resolve().parents[1]
# Upper 0.1 % points of the chi-square distribution (tables, e.g. NIST/SEMATECH e-Handbook 1.4.2.7)
CHI2_999 = {5: 20.515, 10: 29.588}


@pytest.fixture(scope="module")
def small():
    """(word list, table): 30 legacy answers and 40 other guesses."""
    return numpy_sub_list(11, 30, 40, use_cache=False)


def chi_square(observed: Counter, expected: dict) -> float:
    n = sum(observed.values())
    assert set(observed) <= set(expected), "a pattern the model gives probability 0"
    return sum((observed.get(k, 0) - n * p) ** 2 / (n * p) for k, p in expected.items())


@pytest.mark.kernels
def test_likelihood_matches_the_enumerated_noise():
    rng = np.random.default_rng(5)
    for true in list(rng.integers(0, 242, 25)) + [0, 241]:
        dist = twin.noise_distribution(int(true), 5)
        assert dist[int(true)] == Fraction(1, 3) and len(dist) == 11
        for shown in range(243):
            assert noise_likelihood(shown, int(true), 5) == float(dist.get(shown, 0))
    # another word length: 1/3 own, 1/(3L) each neighbour
    dist = twin.noise_distribution(40, 4)
    for shown in range(81):
        assert noise_likelihood(shown, 40, 4) == float(dist.get(shown, 0))


@pytest.mark.kernels
def test_add_noise_distribution_chi_square_fixed_seed():
    """One true pattern, 60,000 draws of the game stream (seed 7, answer 3): the 11 possible
    shown patterns against 1/3 and 1/15 each (10 degrees of freedom)."""
    from solver.policies._noisy_kernel import add_noise, game_stream

    true = 2 + 1 * 3 + 0 * 9 + 2 * 27 + 1 * 81
    rng = game_stream(np.uint64(7), np.uint64(3))
    observed: Counter = Counter()
    for _ in range(60_000):
        rng, shown = add_noise(true, np.uint64(rng), 5)
        observed[int(shown)] += 1
    expected = {k: float(v) for k, v in twin.noise_distribution(true, 5).items()}
    assert len(expected) == 11
    statistic = chi_square(observed, expected)
    assert statistic < CHI2_999[10], statistic


@pytest.mark.kernels
def test_simulated_games_show_patterns_by_the_model(small):
    """Every shown pattern of the simulator's games (random_total, seeds 0–39): unchanged with
    probability 1/3, else changed in exactly one position, each position 2/15 (5 dof)."""
    word_list, table = small
    agent = make_policy("random_total", word_list, table)
    score = score_noisy(agent, list(range(40)), cap=40, keep_games=True)
    observed: Counter = Counter()
    for game in score.games:
        for guess, shown in zip(game.guesses, game.shown):
            true = int(table[guess, game.answer])
            diff = [i for i in range(5) if twin.digits(true, 5)[i] != twin.digits(shown, 5)[i]]
            assert len(diff) <= 1
            observed["same" if not diff else diff[0]] += 1
    assert sum(observed.values()) > 3000
    expected = {"same": 1 / 3, **{i: 2 / 15 for i in range(5)}}
    assert chi_square(observed, expected) < CHI2_999[5]


@pytest.mark.kernels
def test_game_ends_only_on_the_answer(small):
    word_list, table = small
    agent = make_policy("random_possible", word_list, table)
    green = 242
    for answer in range(word_list.n_answers):
        game = play_noisy_game(agent, answer, 9, cap=20)
        target = int(word_list.answer_guess_index[answer])
        assert all(g != target for g in game.guesses[:-1])
        if game.won:
            assert game.guesses[-1] == target and len(game.shown) == len(game.guesses) - 1
        else:
            assert len(game.guesses) == 20 and len(game.shown) == 20
        # a noisy all-green after a wrong guess does not end the game
        for k, shown in enumerate(game.shown):
            if shown == green:
                assert k + 1 < len(game.guesses)


@pytest.mark.kernels
def test_belief_against_the_plain_bayes_twin(small):
    word_list, table = small
    agent = make_policy("random_total", word_list, table)
    score = score_noisy(agent, [2], cap=8, answers=range(0, 30, 3), keep_games=True)
    for game in score.games:
        belief = NoisyBelief(word_list, table)
        history = []
        for guess, shown in zip(game.guesses, game.shown):
            belief.update(guess, shown)
            history.append((word_list.guesses[guess], shown))
            post = twin.posterior(list(word_list.answers), history)
            expected = np.array([float(post[a]) for a in word_list.answers])
            assert np.array_equal(belief.alive, expected > 0)
            np.testing.assert_allclose(belief.posterior(), expected, rtol=1e-12, atol=1e-15)


@pytest.mark.kernels
def test_information_gains_against_the_twin(small):
    from solver.policies._noisy_kernel import information_gains

    word_list, table = small
    belief = NoisyBelief(word_list, table)
    rng = np.random.default_rng(3)
    answers = list(word_list.answers)
    for _ in range(3):
        members, weights = belief.weights()
        post = twin.posterior(answers, [(word_list.guesses[g], s) for g, s in belief.history])
        candidates = np.arange(word_list.n_guesses, dtype=np.int32)
        gains, wins = information_gains(table, candidates, members, weights,
                                        np.ascontiguousarray(word_list.guess_answer_index, dtype=np.int32),
                                        5, 243)
        for g in range(word_list.n_guesses):
            gain, win = twin.information_gain(word_list.guesses[g], post)
            assert gains[g] == pytest.approx(gain, abs=1e-9)
            assert wins[g] == pytest.approx(win, abs=1e-12)
        guess = int(rng.integers(word_list.n_guesses))
        answer = int(rng.integers(word_list.n_answers))
        if answers[answer] == word_list.guesses[guess]:
            continue
        belief.update(guess, int(table[guess, answer]))


@pytest.mark.kernels
@pytest.mark.parametrize("name", ["random_total", "random_possible", "minimax1", "expectimax1", "entropy"])
def test_same_seed_same_games_in_any_order(small, name):
    word_list, table = small
    agent = make_policy(name, word_list, table)
    forward = score_noisy(agent, [5, 6], cap=20)
    backward = score_noisy(make_policy(name, word_list, table), [6, 5], cap=20,
                           answers=range(word_list.n_answers - 1, -1, -1))
    assert np.array_equal(forward.guesses_per_answer[0], backward.guesses_per_answer[1][::-1])
    assert np.array_equal(forward.guesses_per_answer[1], backward.guesses_per_answer[0][::-1])
    other = score_noisy(agent, [7], cap=20)
    assert not np.array_equal(forward.guesses_per_answer[0], other.guesses_per_answer[0])  # the noise differs per seed


def test_wilson_interval_known_values():
    low, high = wilson(90, 100)
    assert round(low, 4) == 0.8256 and round(high, 4) == 0.9448


@pytest.mark.kernels
def test_agents_against_absurdle_follow_the_adversary(small):
    """Every step of every agent's game keeps a largest class (small lists, each tie rule)."""
    from solver.evaluation.absurdle_play import play_absurdle
    from solver.exact.absurdle import replay
    from solver.policies.registry import make_policy

    word_list, table = small
    for name in ["random_total", "random_possible", "minimax1", "expectimax1", "mig_a", "mig_b"]:
        policy = make_policy(name, word_list, table)
        for tie in ["adversarial", "fewest-clues", "lowest-code"]:
            game = play_absurdle(policy, tie, seed=1, table=table)
            assert game.won
            state = np.arange(word_list.n_answers)
            for word, code in game.steps:
                g = word_list.guess_index(word)
                sizes = Counter(int(table[g, a]) for a in state)
                assert sizes[code] == max(sizes.values())
                state = np.array([a for a in state if table[g, a] == code])
            assert replay(word_list, game.steps, tie, table)


@pytest.mark.slow
def test_agents_against_absurdle_legacy(legacy_table):
    from solver.evaluation.absurdle_play import play_absurdle
    from solver.exact.absurdle import replay
    from solver.policies.registry import make_policy

    word_list, table = legacy_table
    for name in ["expectimax1", "qlearning", "mig_b", "random_possible"]:
        game = play_absurdle(make_policy(name, word_list, table), "lowest-code", seed=0, table=table)
        assert game.won and game.guesses >= 4  # never below the exact least forced win
        assert replay(word_list, game.steps, "lowest-code", table)
    game = play_absurdle(make_policy("expectimax1", word_list, table), "adversarial", table=table)
    assert [w for w, _ in game.steps] == ["roate", "slimy", "panda", "fizzy", "jiffy"]
    assert replay(word_list, game.steps, "adversarial", table)


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "tools.noisy", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)


@pytest.mark.parametrize("args, message", [
    (["--agents", "oracle"], "unknown agent 'oracle'"),
    (["--variant", "quantum"], "unknown variant 'quantum'"),
    (["--seeds", "-3"], "seeds in 0..4294967295"),
    (["--cap", "2"], "guess cap"),
    (["--variant", "absurdle", "--tie", "kindest"], "unknown tie rule"),
])
def test_cli_bad_input_exit_2(args, message):
    result = run_cli(*args)
    assert result.returncode == 2
    assert message in result.stderr


def test_cli_help_explains():
    result = run_cli("--help")
    assert result.returncode == 0
    assert "recoloured uniformly" in result.stdout and "Exit status" in result.stdout


@pytest.fixture
def lists_dir(tmp_path, small):
    word_list, _ = small
    (tmp_path / "answers.txt").write_text("\n".join(word_list.answers) + "\n")
    (tmp_path / "guesses.txt").write_text("\n".join(word_list.guesses) + "\n")
    return tmp_path


def _without_seconds(text: bytes) -> str:
    """The report with its "s per game" column removed from every table (each cell checked to
    be a number ≥ 0 first: a fast agent's seconds per game can print as 0.000)."""
    out, column = [], None
    for line in text.decode().splitlines():
        if not line.startswith("|"):
            out.append(line)
            column = None
            continue
        cells = line.split("|")[1:-1]
        if column is None:
            names = [c.strip() for c in cells]
            column = names.index("s per game") if "s per game" in names else -1
        elif column >= 0 and not set(cells[column].strip()) <= set("-:"):
            assert float(cells[column]) >= 0
        if column >= 0:
            del cells[column]
        out.append("|" + "|".join(cells) + "|")
    return "\n".join(out)


def test_cli_writes_the_same_report_twice(lists_dir, tmp_path):
    outputs = []
    for run in ("a", "b"):
        result = run_cli("--words", str(lists_dir), "--agents", "random_possible,entropy", "--seeds", "0,1",
                         "--out", str(tmp_path / run), "--name", "r", "--variant", "both")
        assert result.returncode == 0, result.stderr
        outputs.append([(tmp_path / run / "r" / f).read_bytes() for f in ("noisy.md", "noisy.csv", "absurdle.md")])
    # the markdown tables carry each agent's wall seconds per game (issue 12's tables): those
    # cells differ between runs, everything else must not
    assert [_without_seconds(o) for o in outputs[0]] == [_without_seconds(o) for o in outputs[1]]
    assert outputs[0][1] == outputs[1][1]
    assert b"| s per game |" in outputs[0][0] and b"| s per game |" in outputs[0][2]
    csv_lines = outputs[0][1].decode().splitlines()
    assert csv_lines[0].startswith("agent,seed,cap") and len(csv_lines) == 1 + 2 * 2


def test_cli_missing_qtable_exit_2(lists_dir, tmp_path):
    result = run_cli("--words", str(lists_dir), "--agents", "qlearning", "--out", str(tmp_path))
    assert result.returncode == 2
    assert "no trained Q-table" in result.stderr


@pytest.mark.kernels
def test_score_absurdle_is_the_one_score_of_the_games(small):
    """score_absurdle plays the same games as play_absurdle: one for a deterministic agent, one
    per seed otherwise, in the one Score (a stopped game counts cap + 1)."""
    from solver.evaluation.absurdle_play import play_absurdle, score_absurdle
    from solver.evaluation.scoring import Score
    from solver.policies.registry import make_policy

    word_list, table = small
    minimax = make_policy("minimax1", word_list, table)
    score = score_absurdle(minimax, "adversarial", seeds=[3, 4], table=table)
    assert isinstance(score, Score) and score.seeds is None and score.n_games == 1
    assert score.guesses_per_answer.tolist() == [play_absurdle(minimax, "adversarial", table=table).guesses]
    randomised = make_policy("random_total", word_list, table)
    score = score_absurdle(randomised, "lowest-code", seeds=[3, 4], cap=6, table=table)
    games = [play_absurdle(randomised, "lowest-code", seed=s, cap=6, table=table) for s in (3, 4)]
    assert score.seeds == [3, 4]
    assert score.guesses_per_answer.tolist() == [g.guesses if g.won else 7 for g in games]
    assert score.stopped == sum(not g.won for g in games)
