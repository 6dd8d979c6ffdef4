"""Post-game analysis (solver.evaluation.analysis, solver.cli.analyse): regret and luck against
independent exact values, the three ways to give a game, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
from solver.game.spec import Game
from solver.game.history import History
import pytest

from solver.evaluation.analysis import analyse_game
from solver.exact.bellman import solve_state
from solver.game.errors import FeedbackError, InputError, UnknownWordError
from conftest import q_value
from solver.game.feedback import feedback_code

ROOT = Path(__file__).resolve().parents[1]
ARTIFACT = ROOT / "artifacts" / "legacy-normal-salet.msgpack"


@pytest.mark.slow
@pytest.mark.timed
def test_games_of_the_optimal_tree_have_zero_regret(legacy_table, legacy_tree, warm_assist_kernels):
    """Games the tree plays: every move's regret is 0, with the tree (all values exact past
    the opener) and without it (moves 2.. solved from scratch, exact); the guesses used equal
    V*(start) + Σ regret − Σ luck exactly."""
    word_list, table = legacy_table
    for answer in ("crony", "vivid", "zesty", "abbey"):
        game = legacy_tree.game(answer)
        analysis = analyse_game(Game(word_list), game, tree=legacy_tree, budget=0.2, table=table)
        assert analysis.won and [m.regret for m in analysis.moves] == [0] * len(game)
        assert all(m.value_exact for m in analysis.moves[1:])
        first = analysis.moves[0]
        # the shipped tree records the opener proof (make solve): V* at the start is exact
        assert (first.value, first.value_exact) == (7920, True)
        assert len(game) == (Fraction(first.value, 2315) + analysis.total_regret
                             - analysis.total_luck)
        # the tree's moves past the opener are optimal by the solver too (no tree used)
        state = np.arange(word_list.n_answers, dtype=np.int32)
        for number, (guess, code) in enumerate(game[:-1], start=1):
            if number > 1:
                value = solve_state(Game(word_list), state, 7 - number, table)[0]
                assert q_value(word_list, table, state, 7 - number, guess) == value
            state = state[table[word_list.guess_index(guess), state] == code]


@pytest.mark.slow
def test_a_known_suboptimal_move_has_its_regret_pinned(legacy_table, legacy_tree,
                                                       warm_assist_kernels):
    """After salet:bbbby (86 answers, V* 221 = north), crane costs Q* 263: regret 42/86 =
    21/43 guesses; Q* is also summed here from solve_state on each class. The luck of each
    move matches its definition from independent values."""
    word_list, table = legacy_table
    game = [("salet", "bbbby"), ("crane", feedback_code("crane", "birth")), ("birth", 242)]
    analysis = analyse_game(Game(word_list), game, tree=legacy_tree, budget=20, table=table)
    second = analysis.moves[1]
    state = History.parse(Game(word_list), game[:1], limit=False).state(table)
    assert (second.answers_before, second.value, second.optimal_guess) == (86, 221, "north")
    assert second.q_value == q_value(word_list, table, state, 5, "crane") == 263
    assert second.regret == Fraction(21, 43)
    after = History.parse(Game(word_list), game[:2], limit=False).state(table)
    v_after = solve_state(Game(word_list), after, 4, table)[0]
    assert second.luck == Fraction(263 - 86, 86) - Fraction(v_after, len(after))
    third = analysis.moves[2]
    assert third.value == v_after and third.q_value == q_value(word_list, table, after, 4, "birth")
    assert third.luck == Fraction(third.q_value - len(after), len(after))  # then 0 left to play


def test_three_ways_to_give_a_game(legacy_table):
    word_list, _ = legacy_table
    answer = "birth"
    words = ["salet", "crane", "birth"]
    from_answer = list(History.from_record(Game(word_list), words, answer=answer))
    squares = {0: "⬛", 1: "🟨", 2: "🟩"}
    grid = "Wordle 1,234 3/6\n\n" + "\n".join(
        "".join(squares[(code // 3**i) % 3] for i in range(5)) for _, code in from_answer)
    assert list(History.from_record(Game(word_list), words, grid=grid)) == from_answer
    assert list(History.from_record(Game(word_list), ["salet:bbbby", "crane:bybbb", "birth:ggggg"])) == from_answer
    assert from_answer == [(w, feedback_code(w, answer)) for w in words]


@pytest.mark.parametrize("tokens, options, error, fragment", [
    (["salet", "crane"], {}, InputError, "guess 1 (salet) has no feedback"),
    (["salet", "zzzzz"], {"answer": "birth"}, UnknownWordError, "guess 2: 'zzzzz' is not an allowed guess"),
    (["salet:ggggg", "crane"], {"answer": "birth"}, FeedbackError, "guess 1 (salet): the feedback ggggg"),
    (["salet", "crane"], {"grid": "⬛⬛⬛⬛🟨"}, InputError, "the grid has 1 rows but 2 guesses"),
    (["salet"], {"grid": "⬛⬛⬛🟨"}, FeedbackError, "grid line 1"),
    ([], {"answer": "birth"}, InputError, "the game has no guesses"),
])
def test_bad_games_name_what_is_wrong(legacy_table, tokens, options, error, fragment):
    word_list, _ = legacy_table
    with pytest.raises(error, match=None) as info:
        list(History.from_record(Game(word_list), tokens, **options))
    assert fragment in str(info.value)


@pytest.mark.slow
@pytest.mark.timed
def test_cli_json_with_a_grid_on_standard_input(warm_assist_kernels):
    grid = "Wordle 1,234 3/6\n⬛⬛⬛⬛🟨\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩\n"
    proc = subprocess.run([sys.executable, "-m", "tools.analyse", "salet", "crane", "birth",
                           "--grid", "-", "--json", "--words", "legacy"], cwd=ROOT, input=grid,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["won"] and [m["guess"] for m in doc["moves"]] == ["salet", "crane", "birth"]
    assert doc["moves"][1]["regret_fraction"] == "21/43" and doc["moves"][1]["optimal_guess"] == "north"
    text = subprocess.run([sys.executable, "-m", "tools.analyse", "salet", "crane", "birth",
                           "--answer", "birth", "--budget", "1"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert text.returncode == 0 and "won in 3 guesses; skill " in text.stdout
    assert "game analysis: salet crane birth (nyt-2024)" in text.stdout  # today's lists by default


def test_cli_bad_input_is_status_2():
    proc = subprocess.run([sys.executable, "-m", "tools.analyse", "salet", "crane"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: guess 1 (salet) has no feedback")


@pytest.mark.slow
def test_cli_prints_every_number_whole_in_80_columns():
    """In an 80-column terminal the table is the compact one: every line fits, no number is
    cut (rich's … never appears), and each move's V*, Q*, regret, skill, luck and luck score
    are printed whole, as the JSON has them; the summary says how the game's skill is scored
    (three moves of 98, 50 and 66 make a game of 40)."""
    args = [sys.executable, "-m", "tools.analyse", "salet", "crane", "birth", "--answer", "birth"]
    env = {"COLUMNS": "80", "PATH": ""}
    doc = json.loads(subprocess.run([*args, "--json"], cwd=ROOT, capture_output=True, text=True,
                                    timeout=600, env=env, check=True).stdout)
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    table = lines[:lines.index(next(line for line in lines if line.startswith("1 salet:")))]
    assert all(len(line) <= 80 for line in table), table
    assert "…" not in "\n".join(table)
    for m in doc["moves"]:
        row = next(line.split() for line in table if line.startswith(m["guess"] + " "))
        assert row == [m["guess"], m["feedback"], str(m["answers_before"]), f"{m['v_star']:.3f}",
                       f"{m['q_star']:.3f}", f"{m['regret']:+.3f}", str(m["skill_score"]),
                       f"{m['luck']:+.3f}", str(m["luck_score"]), m["optimal_guess"]]
    assert [m["skill_score"] for m in doc["moves"]] == [98, 50, 66] and doc["skill_score"] == 40
    summary = lines[-1]
    assert summary.startswith("won in 3 guesses; skill 40, luck ")
    assert "game skill is scored from the total regret of the game, not averaged over moves" in summary
