"""The classic agents (random_total, random_possible, minimax1, expectimax1, entropy, qlearning) in both
belief settings: choices against the plain-Python twins of tests/naive_classic.py, the belief
filter against brute force, determinism, every game replayed with the plain feedback rule,
the Q-table artifact, and bad input → exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

import naive_classic as twin
from conftest import numpy_sub_list
from solver.game.protocol import Belief
from solver.evaluation.belief_scoring import play_belief_game, score_in_belief
from solver.game.feedback import feedback_code
from solver.policies.belief import answers_universe, guesses_universe
from solver.policies.registry import make_policy

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ("random_total", "random_possible", "minimax1", "expectimax1", "entropy", "qlearning")


@pytest.fixture(scope="module")
def small():
    """(word list, table, {belief: universe}, {belief: trained QTable}): 14 answers, 40 guesses."""
    from solver.policies.qlearning import train_qtable

    word_list, table = numpy_sub_list(7, 14, 26, use_cache=False)
    universes = {"answers": answers_universe(word_list, table),
                 "guesses": guesses_universe(word_list, use_cache=False)}
    qtables = {b: train_qtable(word_list, b, episodes=300, alpha=0.2, epsilon=0.2, seed=3, universe=u)
               for b, u in universes.items()}
    return word_list, table, universes, qtables


def member_words(word_list, universe, state):
    return [word_list.guesses[universe.guess_of_member[m]] for m in state]


@pytest.fixture(params=["answers", "guesses"])
def belief(request):
    """Each belief setting (a test may parametrize ``belief`` itself)."""
    return request.param


@pytest.fixture(params=AGENTS)
def name(request):
    """Each classic agent (a test may parametrize ``name`` with fewer)."""
    return request.param


class Seat(NamedTuple):
    """An agent seated in a belief setting, with what the twins need."""

    word_list: object
    universe: object
    policy: object
    q_of_word: dict  # guess word → its Q-value in the setting's trained table


@pytest.fixture
def seat(small, name, belief):
    word_list, _, universes, qtables = small
    return Seat(word_list, universes[belief], agent(small, name, belief),
                dict(zip(word_list.guesses, qtables[belief].q_values)))


def agent(small, name, belief):
    from solver.policies.qlearning import QLearningPolicy

    word_list, table, universes, qtables = small
    policy = (QLearningPolicy(word_list, table, qtables[belief]) if name == "qlearning"
              else make_policy(name, word_list, table))
    return policy.in_belief(universes[belief])


def random_states(universe, rng, count=12):
    states = [universe.full_state()]
    for _ in range(count):
        size = int(rng.integers(2, universe.n_members + 1))
        states.append(np.sort(rng.choice(universe.n_members, size, replace=False)).astype(np.int32))
    return states


def twin_choice(name, word_list, possible, q_of_word, seed):
    if name in ("minimax1", "expectimax1"):
        return twin.depth_one_choice(word_list.guesses, possible, name[:-1])
    if name == "entropy":
        return twin.entropy_choice(word_list.guesses, possible)
    if name == "random_possible":
        return twin.random_possible_choice(possible, seed)
    if name == "random_total":
        return twin.random_total_choice(word_list.guesses, seed)
    return twin.q_choice(q_of_word, possible)


# ---------------------------------------------------------------------------------------------
# choices and the belief filter against the twins


@pytest.mark.kernels
def test_choice_matches_the_twin(seat, name):
    word_list, universe, policy, q_of_word = seat
    for i, state in enumerate(random_states(universe, np.random.default_rng(11))):
        possible = member_words(word_list, universe, state)
        seed = 1000 + i
        expected = twin_choice(name, word_list, possible, q_of_word, seed)
        assert word_list.guesses[policy.choose(Belief(state, 6), np.random.default_rng(seed))] == expected


@pytest.mark.kernels
def test_belief_filter_matches_brute_force(small, belief):
    from solver.policies._classic_kernel import filter_state

    word_list, _, universes, _ = small
    universe = universes[belief]
    words = member_words(word_list, universe, universe.full_state())
    rng = np.random.default_rng(5)
    for _ in range(20):
        state = universe.full_state()
        history = []
        for _ in range(3):
            guess = int(rng.integers(word_list.n_guesses))
            code = int(universe.table[guess, state[int(rng.integers(len(state)))]])
            history.append((word_list.guesses[guess], code))
            state = filter_state(state, universe.table[guess], code)
            assert member_words(word_list, universe, state) == twin.consistent(words, history)


@pytest.mark.kernels
def test_qlearning_training_matches_the_twin(small, belief):
    word_list, _, universes, qtables = small
    universe = universes[belief]
    members = member_words(word_list, universe, universe.full_state())
    expected = twin.train(members, list(word_list.answers), word_list.guesses, 300, 0.2, 0.2, 3)
    assert list(qtables[belief].q_values) == [expected[g] for g in word_list.guesses]  # bit for bit
    assert qtables[belief].visits.sum() > 300


# ---------------------------------------------------------------------------------------------
# scoring: replay, determinism, tree = games


def replay(word_list, universe, answer, game, policy, q_of_word, seed):
    """Replay one game with the plain rule (solver.game.feedback.feedback_code): the belief is
    filtered word by word; a deterministic agent's every guess is the twin's choice, a
    possible-word agent's every guess is possible; the game ends on the answer."""
    words = member_words(word_list, universe, universe.full_state())
    history = []
    for k, guess in enumerate(game):
        possible = twin.consistent(words, history)
        assert answer in possible
        guess_word = word_list.guesses[guess]
        if len(possible) == 1:
            assert guess_word == possible[0]
        elif policy.deterministic:
            assert guess_word == twin_choice(policy.name, word_list, possible, q_of_word, None)
        elif policy.name == "random_possible":
            assert guess_word in possible
        code = feedback_code(guess_word, answer)
        if k < len(game) - 1:
            assert code != twin.GREEN
        history.append((guess_word, code))
    assert word_list.guesses[game[-1]] == answer


@pytest.mark.kernels
def test_every_game_replays_with_the_plain_rule(seat):
    word_list, universe, policy, q_of_word = seat
    result = score_in_belief(policy, universe, seed=4)
    assert result.n_games == word_list.n_answers
    for a, answer in enumerate(word_list.answers):
        game = result.games[a]
        assert len(game) == result.guesses_per_answer[a]
        replay(word_list, universe, answer, game, policy, q_of_word, 4)
    assert result.losses == int((result.guesses_per_answer > 6).sum())


@pytest.mark.kernels
def test_deterministic_for_a_seed(seat):
    _, universe, policy, _ = seat
    first = score_in_belief(policy, universe, seed=9)
    again = score_in_belief(policy, universe, seed=9)
    assert [g.tolist() for g in first.games] == [g.tolist() for g in again.games]
    other = score_in_belief(policy, universe, seed=10)
    if policy.deterministic:
        assert [g.tolist() for g in other.games] == [g.tolist() for g in first.games]
    else:
        assert [g.tolist() for g in other.games] != [g.tolist() for g in first.games]


@pytest.mark.kernels
@pytest.mark.parametrize("name", ["minimax1", "expectimax1", "entropy", "qlearning"])
def test_tree_scoring_equals_game_by_game(seat):
    word_list, universe, policy, _ = seat
    result = score_in_belief(policy, universe)
    for a in range(word_list.n_answers):
        game = play_belief_game(policy, universe, a)
        assert game.tolist() == result.games[a].tolist()


@pytest.mark.kernels
@pytest.mark.parametrize("name", ["minimax1", "expectimax1", "entropy", "random_possible", "random_total",
                                  "qlearning"])
def test_answers_setting_agrees_with_score_policy(small, name):
    """From a fixed opener in the answers setting, score_policy (the gap report's scorer) and
    the belief scorer play the same games (the same per-decision seeds)."""
    from solver.evaluation.scoring import score_policy

    word_list, table, universes, _ = small
    policy = agent(small, name, "answers")
    opener = word_list.guesses[3]
    ours = score_in_belief(policy, universes["answers"], seed=2, opener=opener)
    theirs = score_policy(policy, opener, seed=2, jobs=1)
    assert theirs.guesses_per_answer.tolist() == ours.guesses_per_answer.tolist()
    assert theirs.total == ours.total


@pytest.mark.kernels
def test_entropy_in_the_answers_setting_is_mig_b(small):
    """The entropy agent over the answers is MIG_B (the same rule and ties): the same guess
    in every state, hence the same games from any opener."""
    from solver.evaluation.scoring import score_policy

    word_list, table, universes, _ = small
    entropy, mig_b = agent(small, "entropy", "answers"), make_policy("mig_b", word_list, table)
    for state in random_states(universes["answers"], np.random.default_rng(17), 30):
        assert entropy.choose(Belief(state, 6)) == mig_b.choose(Belief(state, 6))
    for opener in word_list.guesses[::7]:
        assert (score_policy(entropy, opener).guesses_per_answer.tolist()
                == score_policy(mig_b, opener).guesses_per_answer.tolist())


def test_guesses_setting_refuses_other_policies(small):
    from solver.evaluation.belief_scoring import bind_policy
    from solver.game.errors import InputError

    word_list, table, universes, _ = small
    with pytest.raises(InputError, match="only in the answers belief setting"):
        bind_policy(make_policy("mig_a", word_list, table), universes["guesses"])


def test_random_agents_need_a_seed(small):
    policy = agent(small, "random_possible", "answers")
    with pytest.raises(ValueError, match="needs a seed"):
        policy.choose(Belief(np.arange(3, dtype=np.int32), 6))


# ---------------------------------------------------------------------------------------------
# the Q-table artifact


def test_qtable_artifact_round_trip_and_bytes(small, tmp_path):
    from solver.policies.qlearning import QTableError, load_qtable, save_qtable, train_qtable

    word_list, _, universes, qtables = small
    path = save_qtable(qtables["answers"], tmp_path / "a.msgpack")
    again = train_qtable(word_list, "answers", episodes=300, alpha=0.2, epsilon=0.2, seed=3,
                         universe=universes["answers"])
    assert save_qtable(again, tmp_path / "b.msgpack").read_bytes() == path.read_bytes()
    loaded = load_qtable(path, word_list)
    assert loaded.q_values.tolist() == qtables["answers"].q_values.tolist()
    assert loaded.meta["seed"] == 3 and loaded.meta["episodes"] == 300
    other, _ = numpy_sub_list(8, 10, 10, use_cache=False)
    with pytest.raises(QTableError, match="other word lists"):
        load_qtable(path, other)
    with pytest.raises(QTableError, match="no trained Q-table"):
        load_qtable(tmp_path / "missing.msgpack", word_list)


# ---------------------------------------------------------------------------------------------
# command lines: bad input → exit 2


def run(module, args, tmp_path):
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env=env)


@pytest.mark.parametrize("tool, args, message", [
    ("tools.report", ["--belief", "both", "--policies", "minimax1,nosuch"], "unknown policy 'nosuch'"),
    ("tools.report", ["--belief", "both", "--seeds", "0,-1"],
     "is not a comma-separated list of seeds in 0..4294967295"),
    ("tools.report", ["--belief", "guesses", "--policies", "mig_a"],
     "cannot play in the guesses belief setting"),
    ("tools.report", ["--belief", "answers", "--opener", "salet,crane"], "give one opener, or 'own'"),
    ("tools.report", ["--belief", "answers", "--opener", "zzzzz"], "zzzzz"),
    ("tools.report", ["--belief", "sideways"], "invalid choice: 'sideways'"),
    ("tools.report", ["--seeds", "1,2"], "--seeds goes with --belief"),
    ("tools.train_qlearning", ["--seed", "-1"], "argument --seed: must be a seed in 0..4294967295"),
    ("tools.train_qlearning", ["--episodes", "0"],
     "argument --episodes: must be a whole number in 1..1000000000"),
    ("tools.train_qlearning", ["--alpha", "0"], "argument --alpha: must be a finite number > 0 and ≤ 1"),
    ("tools.train_qlearning", ["--belief", "nowhere"], "invalid choice: 'nowhere'"),
])
def test_bad_input_exits_2_and_writes_nothing(tmp_path, tool, args, message):
    proc = run(tool, [*args, "--out", str(tmp_path / "out")], tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------------------------
# the full legacy lists (slow)


@pytest.fixture(scope="module")
def legacy_universes(legacy_table):
    from solver.policies.belief import make_universe

    word_list, table = legacy_table
    return {b: make_universe(word_list, b, table) for b in ("answers", "guesses")}


@pytest.mark.slow
@pytest.mark.parametrize("belief", ["answers", "guesses"])
@pytest.mark.parametrize("name", AGENTS)
def test_legacy_games_replay_with_the_plain_rule(legacy_table, legacy_universes, name, belief):
    """All 2,315 games of every agent in both settings: each game ends on its answer and no
    earlier guess is the answer; every guess of a possible-word agent is consistent with the
    feedback of the guesses before it (by feedback_code, the plain rule); the same seed gives
    the same games."""
    word_list, table = legacy_table
    policy = make_policy(name, word_list, table)
    result = score_in_belief(policy, legacy_universes[belief], seed=0)
    assert result.n_games == 2315
    for answer, game in zip(word_list.answers, result.games):
        words = [word_list.guesses[g] for g in game]
        assert words[-1] == answer and answer not in words[:-1]
        if name in ("random_possible", "qlearning"):
            for k, word in enumerate(words):
                assert all(feedback_code(prev, word) == feedback_code(prev, answer) for prev in words[:k])
    if not policy.deterministic:
        again = score_in_belief(policy, legacy_universes[belief], seed=0)
        assert again.guesses_per_answer.tolist() == result.guesses_per_answer.tolist()


def write_small_list(directory: Path):
    """24 answers and about 85 guesses of the legacy lists, as a custom list directory."""
    from solver.game.wordlists import load_word_list

    legacy = load_word_list("legacy")
    answers = list(legacy.answers[::97])
    guesses = sorted(set(answers) | set(legacy.guesses[::211]))
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "answers.txt").write_text("\n".join(answers) + "\n")
    (directory / "guesses.txt").write_text("\n".join(guesses) + "\n")
    return directory


@pytest.mark.slow
def test_report_cli_belief_end_to_end(tmp_path):
    """tools.report --belief both on a small custom list from a fixed opener: classic.csv holds
    one row per (belief, agent, seed) with the totals score_in_belief gives; a rerun resumes
    and writes the same bytes; the Q-learning agent without a table for these lists is exit 2."""
    import csv

    from solver.game.feedback import feedback_table
    from solver.game.wordlists import load_word_list
    from solver.policies.belief import make_universe

    directory = write_small_list(tmp_path / "words")
    word_list = load_word_list(directory)
    opener = word_list.answers[2]
    args = ["--words", str(directory), "--belief", "both", "--policies", "minimax1,random_possible",
            "--seeds", "0,1", "--opener", opener, "--out", str(tmp_path / "r"), "--name", "c", "--jobs", "1"]
    proc = run("tools.report", args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader((tmp_path / "r" / "c" / "classic.csv").open()))
    assert [(r["belief"], r["policy"], r["seed"]) for r in rows] == [
        ("answers", "minimax1", ""), ("answers", "random_possible", "0"), ("answers", "random_possible", "1"),
        ("guesses", "minimax1", ""), ("guesses", "random_possible", "0"), ("guesses", "random_possible", "1")]
    table = feedback_table(word_list, use_cache=False)
    for row in rows:
        universe = make_universe(word_list, row["belief"], table) if row["belief"] == "answers" else \
            guesses_universe(word_list, use_cache=False)
        result = score_in_belief(make_policy(row["policy"], word_list, table), universe,
                                 seed=int(row["seed"] or 0), opener=opener)
        assert int(row["total"]) == result.total
        assert int(row["losses"]) == result.losses
    first = (tmp_path / "r" / "c" / "classic.md").read_bytes()
    again = run("tools.report", args, tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "r" / "c" / "classic.md").read_bytes() == first
    missing = run("tools.report", [*args[:5], "qlearning", *args[6:]], tmp_path)
    assert missing.returncode == 2
    assert "no trained Q-table" in missing.stderr
