"""The game's history (solver/game/history.py): the one parser of histories and grids, checked
against a Game, and the state and hard-mode constraint it implies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from naive import feedback as naive_feedback
from solver.game.errors import FeedbackError, HardModeError, HistoryTokenError, InputError, UnknownWordError
from solver.game.feedback import code_to_text, feedback_table, parse_feedback
from solver.game.history import History, grid_mode, grid_rows
from solver.game.spec import Game, Mode
from solver.game.wordlists import from_words

ANSWERS = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval", "serve"]
GUESSES = sorted(set(ANSWERS) | {"salet", "crane", "trace", "slate"})


@pytest.fixture(scope="module")
def game():
    return Game(from_words(ANSWERS, GUESSES))


def _text(guess: str, answer: str) -> str:
    return code_to_text(naive_feedback(guess, answer), 5)


def test_every_way_of_writing_a_history_gives_the_same_steps(game):
    salet, crane = _text("salet", "focal"), _text("crane", "focal")
    expected = (("salet", int(naive_feedback("salet", "focal"))), ("crane", int(naive_feedback("crane", "focal"))))
    for written in (f"salet:{salet} crane:{crane}", f"SALET:{salet}, crane:{crane}", f"salet {salet} crane {crane}",
                    [f"salet:{salet}", f"crane:{crane}"], [("salet", salet), ("crane", crane)],
                    [("salet", expected[0][1]), ("crane", expected[1][1])]):
        history = History.parse(game, written)
        assert history.steps == expected and list(history) == list(expected) and len(history) == 2
    # the round trip: its tokens parse back to it, and a History parses to itself
    history = History.parse(game, expected)
    assert History.parse(game, history.tokens()) == history == History.parse(game, history)
    assert history.tokens() == [f"salet:{salet}", f"crane:{crane}"]
    assert History.parse(game, "").steps == () and History.parse(game).guesses_left == 6


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ANSWERS), st.lists(st.sampled_from(GUESSES), min_size=1, max_size=5))
def test_the_state_is_the_answers_that_give_every_feedback(answer, guesses):
    game = Game(from_words(ANSWERS, GUESSES))
    steps = [(g, int(naive_feedback(g, answer))) for g in guesses]
    if any(code == 242 for _, code in steps[:-1]):
        with pytest.raises(FeedbackError, match="follows an all-green feedback"):
            History.parse(game, steps)
        return
    history = History.parse(game, steps)
    expected = [i for i, a in enumerate(game.word_list.answers)
                if all(naive_feedback(g, a) == code for g, code in steps)]
    assert history.state(feedback_table(game.word_list)).tolist() == expected
    assert game.word_list.answer_index(answer) in expected
    assert history.won == (steps[-1][1] == 242) and history.guesses_left == 6 - len(steps)
    assert History.parse(game, history.tokens()) == history


@pytest.mark.parametrize("written,error,message", [
    ("salet:bbbbq", FeedbackError, "guess 1: feedback .bbbbq. is not five of b/y/g"),
    ("salet:bbbbx", None, None),  # x is a gray as well (parse_feedback)
    ("salet:bbbb", FeedbackError, "guess 1: "),
    ("salet:bbbbb zzzzz:bbbbb", UnknownWordError, "guess 2: "),
    (["salet"], HistoryTokenError, "not word:feedback"),
    ("salet", InputError, "give each guess with its feedback"),
    ("salet bbbbb crane", InputError, "give each guess with its feedback"),
    ("salet:bbbbb crane bbbbb", InputError, "mixes word:feedback tokens and plain words"),
    ([("salet", 243)], FeedbackError, "guess 1: "),
    ("salet:ggggg crane:bbbbb", FeedbackError, "guess 2 (crane) follows an all-green feedback"),
    (["salet:bbbbb"] * 7, InputError, "the history has 7 guesses, more than the limit of 6"),
])
def test_bad_histories_name_the_guess_at_fault(game, written, error, message):
    if error is None:
        assert History.parse(game, written).steps == (("salet", 0),)
        return
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        History.parse(game, written)


def test_impossible_feedback_names_the_guess_at_which_no_answer_is_left(game):
    history = History.parse(game, "salet:ggggb crane:bbbbb")  # well formed, but no answer fits
    with pytest.raises(FeedbackError, match=r"after guess 1 \(salet:ggggb\) none of the answers is left"):
        history.state()
    assert history.state(strict=False).size == 0


def test_hard_mode_and_the_yellow_rule_are_the_games():
    lists = from_words(ANSWERS, GUESSES)
    hard = Game(lists, mode="hard")
    serve = _text("sissy", "serve")  # the s is green: hard mode keeps it
    History.parse(Game(lists), f"sissy:{serve} cigar:bbbbb")
    with pytest.raises(HardModeError, match=r"guess 2 \(cigar\) is not allowed in hard mode: position 1"):
        History.parse(hard, f"sissy:{serve} cigar:bbbbb")
    history = History.parse(hard, f"sissy:{serve}")
    allowed = [lists.guesses[g] for g in history.allowed_guesses()]
    assert allowed == [w for w in lists.guesses if w[0] == "s"]
    assert History.parse(Game(lists), f"sissy:{serve}").allowed_guesses().size == lists.n_guesses
    none = History.parse(Game(lists), f"sissy:{serve}").constraint()
    assert np.array_equal(none, History.parse(hard).constraint()) and (history.constraint() != none).any()
    with pytest.raises(FeedbackError, match="shows a green, but in Yellow Wordle"):
        History.parse(Game(lists, feedback="yellow"), "salet:gbbbb")


GRID = """Wordle 1,234 3/6*

⬛⬛🟨⬛⬛
⬛🟩⬛🟨⬛
🟩🟩🟩🟩🟩"""


def test_a_record_from_the_answer_or_the_grid(game):
    answer = "focal"
    words = ["salet", "crane", "focal"]
    from_answer = History.from_record(game, words, answer=answer)
    assert from_answer.steps == tuple((w, int(naive_feedback(w, answer))) for w in words)
    grid = "\n".join("".join({"b": "⬛", "y": "🟨", "g": "🟩"}[c] for c in _text(w, answer)) for w in words)
    assert History.from_record(game, "salet crane focal", grid=grid) == from_answer
    assert History.from_record(game, from_answer.tokens()) == from_answer
    assert grid_rows(GRID) == [parse_feedback(text, 5) for text in ("bbybb", "bgbyb", "ggggg")]
    assert grid_mode(GRID) is Mode.HARD and grid_mode("Wordle 1,234 3/6") is Mode.NORMAL
    assert grid_mode("no header") is None
    with pytest.raises(InputError, match="the grid has 3 rows but 2 guesses were given"):
        History.from_record(game, words[:2], grid=GRID)
    with pytest.raises(FeedbackError, match=r"guess 1 \(salet\): the feedback ggggg disagrees with the answer"):
        History.from_record(game, ["salet:ggggg"], answer=answer)
    with pytest.raises(InputError, match=r"guess 1 \(salet\) has no feedback"):
        History.from_record(game, ["salet"])


def test_the_game_validates_its_options_once_and_the_tools_exit_2():
    lists = from_words(ANSWERS, GUESSES)
    with pytest.raises(InputError, match="unknown mode 'extreme'; choose one of normal, hard, ultra"):
        Game(lists, mode="extreme")
    proc = subprocess.run([sys.executable, "-m", "tools.solve", "--mode", "hard", "--feedback", "yellow",
                           "--words", "legacy"], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 2, proc.stderr
    assert "hard mode reads the greens of the standard feedback" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert np.array_equal(History.parse(Game(lists)).allowed_guesses(), np.arange(lists.n_guesses))
