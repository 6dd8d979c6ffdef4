"""The API speaks its own errors (issue 32, item 2): every public function of ``solver`` refuses
an argument that is not what it should be with an InputError subclass and a one-line message,
never a raw TypeError or AttributeError from deep inside; a history is read as the command line
reads it (``History.parse``, ``History.from_record``)."""

from __future__ import annotations

import itertools

import pytest

import solver
from solver.game.errors import FeedbackError, HistoryTokenError, InputError, UnknownWordError
from solver.game.history import History
from solver.game.spec import Game
from solver.game.wordlists import from_words
from solver.game.wording import counted, plural

ANSWERS = ["awake", "blush", "cigar", "humph", "rebut", "sissy"]
WORDS = from_words(ANSWERS, ANSWERS + ["salet"], name="tiny")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))


def assert_one_line(exc: BaseException, *fragments: str) -> None:
    text = str(exc)
    assert text and "\n" not in text, text
    for fragment in fragments:
        assert fragment in text, text


# -- the examples -------------------------------------------------------------------------
@pytest.mark.parametrize("history", [42, None, 3.5, True, object(), b"salet", {"salet": "bbbbb"},
                                     {"salet:bbbbb"}])
def test_advise_refuses_a_history_that_is_no_history(history):
    with pytest.raises(HistoryTokenError) as caught:
        solver.advise(history, WORDS)
    assert_one_line(caught.value, "a history is a text like 'salet:bbbby crane:bbbbb'")


def test_solve_refuses_an_opener_that_is_not_a_word():
    for opener in (None, 42, ["salet"]):
        with pytest.raises(UnknownWordError) as caught:
            solver.solve(opener, WORDS, jobs=1)
        assert_one_line(caught.value, "is not a word (a guess is text, e.g. 'salet') of the 'tiny' word list")


def test_analyse_splits_a_text_of_plain_words_as_the_command_line_does():
    """It read 'cigar humph' letter by letter ('c' is not an allowed guess)."""
    def played(analysis):
        return [(m.guess, m.feedback) for m in analysis.moves]

    analysis = solver.analyse("cigar humph", WORDS, answer="humph")
    assert [m.guess for m in analysis.moves] == ["cigar", "humph"] and analysis.won
    assert played(solver.analyse(["cigar", "humph"], WORDS, answer="humph")) == played(analysis)
    pairs = [(guess, code) for guess, code in History.from_record(Game(WORDS), "cigar humph",
                                                                  answer="humph").steps]
    assert played(solver.analyse(pairs, WORDS)) == played(analysis)  # pairs with codes
    with pytest.raises(InputError) as caught:
        solver.analyse("cigar humph rebut", WORDS)  # plain words need their feedback
    assert_one_line(caught.value, "has 3 words: give each guess with its feedback")


# -- every public function, every argument ---------------------------------------------------------
def _good():
    return {
        "solve": (solver.solve, dict(opener="cigar", words=WORDS, jobs=1)),
        "prove": (solver.prove, dict(words=WORDS, jobs=1)),
        "advise": (solver.advise, dict(history=["cigar:bbbbb"], words=WORDS)),
        "analyse": (solver.analyse, dict(history=["cigar:bbbbb", "humph:ggggg"], words=WORDS)),
        "score": (solver.score, dict(policy="mig_a", opener="cigar", words=WORDS)),
        "word_list": (solver.word_list, dict(words=WORDS)),
        "service": (solver.service, dict(words=WORDS)),
        "as_policy": (solver.as_policy, dict(policy="mig_a", words=WORDS)),
    }


BAD = [
    ("solve", "opener", None), ("solve", "opener", 3.5), ("solve", "words", 42),
    ("solve", "mode", "speedrun"), ("solve", "objective", None), ("solve", "guess_limit", "6"),
    ("solve", "jobs", None), ("solve", "jobs", 0), ("solve", "progress", 42),
    ("prove", "rank", True), ("prove", "rank", 0), ("prove", "rank", "1"), ("prove", "jobs", "x"),
    ("prove", "jobs", float("nan")), ("prove", "progress", "print"),
    ("advise", "history", 42), ("advise", "history", [("cigar",)]), ("advise", "history", [42]),
    ("advise", "history", [(42, "bbbbb")]), ("advise", "history", [("cigar", 3.5)]),
    ("advise", "history", itertools.repeat("cigar:bbbbb")), ("advise", "top", "x"),
    ("advise", "budget", "1"), ("advise", "budget", float("nan")), ("advise", "budget", -1),
    ("advise", "words", None),
    ("analyse", "history", None), ("analyse", "history", 3.5), ("analyse", "history", b"cigar"),
    ("analyse", "answer", 42), ("analyse", "budget", float("inf")), ("analyse", "progress", []),
    ("score", "policy", None), ("score", "policy", 42), ("score", "opener", None),
    ("score", "opener", 3), ("score", "opener", True), ("score", "jobs", None),
    ("score", "seed", -1), ("score", "seed", 3.5), ("score", "deterministic", "yes"),
    ("score", "progress", 1),
    ("word_list", "words", 42), ("word_list", "words", None), ("service", "mode", 42),
    ("as_policy", "policy", 3.5), ("as_policy", "name", 42), ("as_policy", "deterministic", None),
]


@pytest.mark.parametrize("function, argument, value", BAD,
                         ids=[f"{f}-{a}-{v!r}"[:60] for f, a, v in BAD])
def test_every_public_function_refuses_a_bad_argument_with_an_input_error(function, argument, value):
    call, good = _good()[function]
    with pytest.raises(InputError) as caught:
        call(**dict(good, **{argument: value}))
    assert_one_line(caught.value)


# -- History.parse and from_record, the one parser ----------------------------------------------------
def test_an_endless_history_is_refused_after_the_limit():
    game = Game(WORDS)
    with pytest.raises(InputError, match="the history has more than 6 guesses, more than the limit of 6"):
        History.parse(game, itertools.repeat("cigar:bbbbb"))
    with pytest.raises(InputError, match="the history has 7 guesses, more than the limit of 6"):
        History.parse(game, ["cigar:bbbbb"] * 7)
    with pytest.raises(InputError, match="more than the limit of 255"):
        History.parse(game, itertools.repeat(("cigar", 0)), limit=False)
    with pytest.raises(InputError, match="more than the limit of 255"):
        History.from_record(game, itertools.repeat("cigar"), answer="humph")


@pytest.mark.parametrize("item, error, words", [
    (("cigar",), HistoryTokenError, "guess 1: ('cigar',) is neither a word:feedback token nor a (word, feedback) pair"),
    ((42, "bbbbb"), HistoryTokenError, "guess 1: (42, 'bbbbb') is neither"),
    (("cigar", None), FeedbackError, "guess 1: cigar: feedback None is neither text"),
    (("cigar", 3.5), FeedbackError, "feedback 3.5 is neither text"),
    (("cigar", True), FeedbackError, "feedback True is neither text"),
    (("cigar", 243), FeedbackError, "guess 1:"),
])
def test_a_bad_step_is_refused_naming_the_guess(item, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        History.parse(Game(WORDS), [item])


def test_the_forms_the_command_line_accepts_agree():
    game = Game(WORDS)
    expected = History.parse(game, "cigar:bbbbb humph:ggggg").steps
    for form in ("cigar bbbbb, humph ggggg", ["cigar:00000", "humph:22222"],
                 [("cigar", "⬛⬛⬛⬛⬛"), ("humph", 242)], ("cigar:bbbbb", ["humph", "ggggg"])):
        assert History.parse(game, form).steps == expected
    assert History.from_record(game, [("cigar", 0), "humph"], answer="humph").steps == expected


# -- the counts -----------------------------------------------------------------------------------
def test_one_helper_writes_every_count():
    assert [counted(n, "guess") for n in (0, 1, 2)] == ["0 guesses", "1 guess", "2 guesses"]
    assert counted(1, "answer") == "1 answer" and counted(3, "leaf") == "3 leaves"
    assert plural(1, "remains") == "remains" and plural(2, "remains") == "remain"
