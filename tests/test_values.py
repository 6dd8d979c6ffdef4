"""One valuation of a state, lost games included (docs/algorithms.md §15.2, §15.4): the analysis
values every state as the advice does, a move that gives up the sure finish gets a finite
regret by the documented rule, the identity ``guesses + v_{T+1} = v_1 + Σ finite regret −
Σ luck`` holds exactly for every game, and the 0–99 scores (solver.evaluation.scores).

Exact values on small lists against the plain recursions of tests/naive_values.py; a
hypothesis property test over random games, won and lost, normal and hard mode."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from naive_values import NaiveValues
from solver.evaluation.analysis import analyse_game
from solver.evaluation.scores import luck_of_bounds, luck_score, skill_of_bounds, skill_score
from solver.exact.service import SearchService
from solver.game.feedback import feedback_code, feedback_table
from solver.game.spec import Game, Mode

ROOT = Path(__file__).resolve().parents[1]

# -- the scores ------------------------------------------------------------------------------


def test_scores_pinned():
    assert [skill_score(Fraction(x)) for x in ("0", "1/1000", "1/10", "1/2", "1", "100")] == \
        [99, 98, 82, 49, 33, 0]
    assert [luck_score(Fraction(x)) for x in ("-100", "-1/2", "0", "1/2", "100")] == [0, 25, 50, 74, 99]
    with pytest.raises(ValueError):
        skill_score(Fraction(-1, 3))


@given(st.fractions(min_value=0, max_value=50), st.fractions(min_value=0, max_value=50))
def test_skill_is_monotone_and_99_only_for_optimal_play(a, b):
    low, high = sorted((a, b))
    assert 0 <= skill_score(high) <= skill_score(low) <= 99
    assert (skill_score(low) == 99) == (low == 0)


@given(st.fractions(min_value=-50, max_value=50), st.fractions(min_value=-50, max_value=50))
def test_luck_is_monotone_within_0_99(a, b):
    low, high = sorted((a, b))
    assert 0 <= luck_score(low) <= luck_score(high) <= 99


def test_a_score_within_bounds_takes_the_least_favourable_end():
    half, one = Fraction(1, 2), Fraction(1)
    assert skill_of_bounds(half, (0, one)) == 49 and luck_of_bounds(half, (0, one)) == 74  # exact
    assert skill_of_bounds(None, (half, one)) == 33  # the larger regret
    assert luck_of_bounds(None, (-half, one)) == 25  # the smaller luck
    assert skill_of_bounds(None, (0, None)) == 0 and luck_of_bounds(None, (None, one)) == 0
    assert skill_of_bounds(None, (Fraction(-1), Fraction(-1, 2))) == 99  # no regret below 0
    assert skill_of_bounds(None, None) is None and luck_of_bounds(None, None) is None


# -- small lists -----------------------------------------------------------------------------
_LISTS: dict = {}


def small_list(seed: int):
    """(word list, table, {mode: NaiveValues}) of 9 legacy answers and 16 guesses in all."""
    if seed not in _LISTS:
        from conftest import random_sub_list
        from solver.game.wordlists import load_word_list

        word_list = random_sub_list(load_word_list("legacy"), seed, 9, 16)
        _LISTS[seed] = (word_list, feedback_table(word_list, use_cache=False), {})
    return _LISTS[seed]


def naive_of(word_list, hard: bool) -> NaiveValues:
    cache = small_list_cache(word_list)
    if hard not in cache:
        cache[hard] = NaiveValues(word_list.guesses, word_list.answers, hard)
    return cache[hard]


def small_list_cache(word_list):
    for _, (wl, _, cache) in _LISTS.items():
        if wl is word_list:
            return cache
    raise KeyError(word_list.name)


def random_game(word_list, naive: NaiveValues, answer: int, picks, limit: int):
    """A game against ``answer``: each pick chooses among the guesses the mode allows (the
    game ends when won or at the limit). Returns (word steps, index steps)."""
    state, allowed = naive.start()
    words, indices = [], []
    for pick in picks[:limit]:
        options = sorted(allowed)
        g = options[pick % len(options)]
        code = feedback_code(word_list.guesses[g], word_list.answers[answer])
        words.append((word_list.guesses[g], code))
        indices.append((g, code))
        allowed = naive.after(allowed, g, code)
        if code == naive.green:
            break
    return words, indices


def check_game(seed, hard, limit, answer, picks):
    word_list, table, _ = small_list(seed)
    naive = naive_of(word_list, hard)
    game = Game(word_list, guess_limit=limit, mode=Mode.HARD if hard else Mode.NORMAL)
    steps, indices = random_game(word_list, naive, answer % word_list.n_answers, picks, limit)
    service = SearchService(game, table=table, cache=False)
    analysis = analyse_game(game, steps, service=service, budget=600)
    expected = naive.game(indices, limit)
    assert analysis.all_exact
    for move, row in zip(analysis.moves, expected, strict=True):
        # the one valuation: the analysis's V* is the advice's, extra guesses included
        advice = service.advise(steps[:move.number - 1], top=0)
        assert (move.value, move.extra_guesses) == (advice.value, advice.extra_guesses), move
        assert (move.value, move.extra_guesses) == (row["value"], row["extra"]), move
        assert move.q_loses == row["gives_up"], move
        assert move.regret_finite == row["regret_finite"], move
        assert move.luck == row["luck"], move
        if not move.q_loses:
            assert move.regret == move.regret_finite
        assert 0 <= move.skill_score <= 99 and 0 <= move.luck_score <= 99
    # the identity, exactly, for every game
    final = analysis.final_value
    assert final == expected[-1]["after"]
    assert len(steps) + final == (analysis.start_value + analysis.total_regret_finite
                                  - analysis.total_luck)
    # a finished game is said to be finished, by the advice and the analysis
    over = analysis.won or len(steps) == limit
    assert analysis.game_over == over
    assert service.advise(steps, top=0).game_over == over
    return analysis


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), hard=st.booleans(), limit=st.integers(2, 5),
       answer=st.integers(0, 8), picks=st.lists(st.integers(0, 15), min_size=5, max_size=5))
def test_every_game_keeps_the_identity_and_the_one_valuation(seed, hard, limit, answer, picks):
    check_game(seed, hard, limit, answer, picks)


def test_lost_and_given_up_games_are_covered():
    """The property test's space holds lost games and moves that give up the sure finish,
    in both modes: a few are pinned here (found by the strategy's space)."""
    seen = {"lost": set(), "gives_up": set()}
    for seed in range(2):
        for hard in (False, True):
            for answer in range(9):
                analysis = check_game(seed, hard, 2, answer, [answer + 7, 3, 0, 0])
                if not analysis.won:
                    seen["lost"].add(hard)
                if any(m.q_loses for m in analysis.moves):
                    seen["gives_up"].add(hard)
    assert seen == {"lost": {False, True}, "gives_up": {False, True}}


# -- the full lists: the probe's game and hard-mode SLATE -------------------------------------
WATCH = ["stare", "match", "patch", "latch", "hatch", "catch"]


@pytest.mark.slow
def test_hard_lost_game_is_valued_as_the_advice_values_it(legacy_table):
    """Issue 32's probe: hard mode, answer WATCH; after stare:byybb the advice says 218/74
    (winnable within five); the analysis's row says the same, and the identity holds."""
    from solver.game.history import History

    word_list, table = legacy_table
    game = Game(word_list, mode=Mode.HARD)
    service = SearchService(game, table=table)
    steps = list(History.from_record(game, WATCH, answer="watch"))
    analysis = analyse_game(game, steps, service=service)
    second = analysis.moves[1]
    assert (second.value, second.extra_guesses) == (218, 0)
    assert second.q_loses and second.q_extra_guesses == 2 and second.regret is None
    assert second.regret_finite == Fraction(second.cost - 218, 74) > 0
    for move in analysis.moves:
        advice = service.advise(steps[:move.number - 1], top=0)
        assert (move.value, move.extra_guesses) == (advice.value, advice.extra_guesses)
    assert analysis.final_value == Fraction(3, 2)  # batch, watch: one past the limit each way
    assert 6 + analysis.final_value == (analysis.start_value + analysis.total_regret_finite
                                        - analysis.total_luck)
    over = service.advise(steps, top=0)
    assert over.game_over and analysis.game_over


@pytest.mark.slow
def test_hard_slate_has_a_finite_regret_cli():
    """Hard-mode SLATE gives up the sure finish (no tree wins every game in six): its regret
    is finite in the JSON (8/2315: Q* 8124 one guess past the limit, plus the six answers of
    slate:ybygg), its scores are whole numbers, and the text shows them."""
    proc = subprocess.run([sys.executable, "-m", "tools.analyse", "--words", "legacy", "--mode", "hard", "slate",
                           "plate", "--answer", "plate", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    first = doc["moves"][0]
    assert first["q_loses"] and first["regret"] is None
    assert (first["relaxed_q_total"], first["q_extra_guesses"], first["unsafe_total"]) == (8124, 1, 6)
    assert first["regret_finite_fraction"] == "8/2315"
    assert first["skill_score"] == skill_score(Fraction(8, 2315)) == 98
    assert doc["skill_score"] == 98 and isinstance(doc["luck_score"], int)
    assert all(isinstance(m["skill_score"], int) and isinstance(m["luck_score"], int) for m in doc["moves"])
    assert doc["game_over"] and doc["total_regret_finite_fraction"] == "8/2315"
    assert "leaves at most" in first["in_words"]
    text = subprocess.run([sys.executable, "-m", "tools.analyse", "--words", "legacy", "--mode", "hard", "slate",
                           "plate", "--answer", "plate"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={"COLUMNS": "160", "PATH": ""}).stdout
    assert "+0.003!" in text and "skill 98" in text and "∞" not in text.split("\n!:")[0]


def test_in_words_counts_by_hand():
    """The plain line of a move on the four -atch answers: BLIMP splits them by L and M."""
    from conftest import ATCH, ATCH_GUESSES
    from solver.evaluation.analysis import move_in_words
    from solver.game.wordlists import from_words

    word_list = from_words(ATCH, ATCH_GUESSES, "atch")
    service = SearchService(Game(word_list), table=feedback_table(word_list, use_cache=False), book=False)
    state = np.arange(4, dtype=np.int32)
    # blimp: hatch, latch (L yellow), match (M yellow), patch (P yellow) -> 4 groups of 1
    assert move_in_words(service, state, "blimp") == (
        "leaves at most 1 answer whatever the colours (4 feedback groups); ends 4 of the 4 games "
        "by the next turn")
    assert move_in_words(service, state, "hatch") == (
        "leaves at most 3 answers whatever the colours (2 feedback groups); ends 1 of the 4 games "
        "by the next turn; could be the answer")


@pytest.mark.slow
@pytest.mark.parametrize("opener", ["slate", "trace"])
def test_shipped_relaxed_records_are_the_rule(legacy_table, opener):
    """The book's record of an unwinnable opener's finite value (artifacts/book/*.relaxed,
    written by tools.book) is what the rule gives when computed afresh; SLATE's six answers
    with no sure finish are the class its unwinnable note names (slate:ybygg)."""
    from solver.exact.book import OpeningBook
    from solver.game.feedback import parse_feedback

    word_list, table = legacy_table
    game = Game(word_list, mode=Mode.HARD)
    recorded = OpeningBook(game, cache=False).relaxed(opener)
    assert recorded is not None
    fresh = SearchService(game, table=table, book=False, cache=False)
    state = np.arange(word_list.n_answers, dtype=np.int32)
    assert fresh.relaxed_q(state, 6, [], opener) == recorded
    if opener == "slate":
        assert (recorded.q, recorded.extra, recorded.unsafe) == (8124, 1, 6)
        codes = table[word_list.guess_index("slate"), state]
        assert (codes == parse_feedback("ybygg")).sum() == 6


def test_a_damaged_or_foreign_relaxed_record_is_skipped(tmp_path):
    """A record of other lists, of another opener, or not JSON is ignored (None)."""
    from conftest import ATCH, ATCH_GUESSES
    from solver.exact.advice import RelaxedQ
    from solver.exact.book import OpeningBook
    from solver.game.wordlists import from_words

    word_list = from_words(ATCH, ATCH_GUESSES, "atch")
    book = OpeningBook(Game(word_list), shipped=(tmp_path,), cache=False)
    path = tmp_path / (book.file_name("blimp") + ".relaxed")
    path.write_bytes(book.relaxed_record("blimp", RelaxedQ(9, 1, 2)))
    assert book.relaxed("blimp") == RelaxedQ(9, 1, 2)
    for data in (b"{not json", book.relaxed_record("chump", RelaxedQ(9, 1, 2)),
                 book.relaxed_record("blimp", RelaxedQ(9, 1, 2)).replace(word_list.identity.encode(), b"x"),
                 b'{"opener": "blimp", "q": -1}'):
        path.write_bytes(data)
        assert book.relaxed("blimp") is None


@pytest.mark.slow
def test_every_tool_says_a_finished_game_is_over():
    """After the sixth miss (hard mode, answer WATCH) and after a win, tools.assist says the
    game is over in its text and its JSON, and tools.analyse's summary says so too."""
    lost = ["stare:byybb", "match:bgggg", "patch:bgggg", "latch:bgggg", "hatch:bgggg", "catch:bgggg"]
    won = ["salet:bbbby", "crane:bybbb", "birth:ggggg"]

    def run(*args):
        proc = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=600, env={"COLUMNS": "160", "PATH": ""})
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    text = run("tools.assist", "--mode", "hard", *lost, "--top", "0")
    assert text.startswith("the history leaves") and "the game is over: not won within 6 guesses" in text
    assert "\nnext guess:" not in text and "had it gone on, the best next guess: batch" in text
    doc = json.loads(run("tools.assist", "--mode", "hard", *lost, "--top", "0", "--json"))
    assert doc["game_over"] and doc["guesses_left"] == 0
    assert run("tools.assist", *won, "--top", "0").strip() == "solved: birth in 3 guesses"
    assert json.loads(run("tools.assist", *won, "--top", "0", "--json"))["game_over"]
    summary = run("tools.analyse", "--mode", "hard", *lost)
    assert "the game is over: not won in 6 guesses; skill " in summary
    assert "the answers left would take 1.500 more guesses on average had the game gone on" in summary


@pytest.mark.parametrize("solved_up_to", [0, 1, 3])
def test_within_a_deadline_a_given_up_move_is_a_proven_interval(monkeypatch, solved_up_to):
    """Under a deadline a large state's move that gives up the sure finish is valued as a
    proven interval (analysis._gives_up_within); forced here on small lists by treating only
    classes of at most ``solved_up_to`` answers as small enough to solve: the exact cost of
    the brute force lies inside it, for every guess that gives up, both modes."""
    import time

    import solver.exact.anytime as anytime
    from solver.evaluation import analysis as module

    monkeypatch.setattr(anytime, "IN_PROCESS_MAX", solved_up_to)
    checked = bounded = 0
    for seed, limit in ((1, 2), (2, 2), (3, 2)):
        word_list, table, _ = small_list(seed)
        for hard in (False, True):
            naive = naive_of(word_list, hard)
            game = Game(word_list, guess_limit=limit, mode=Mode.HARD if hard else Mode.NORMAL)
            service = SearchService(game, table=table, book=False, cache=False)
            state, allowed = naive.start()
            value, extra = naive.w(state, allowed, limit)
            if extra:
                continue
            for g in range(word_list.n_guesses):
                cost, gives_up = naive.cost(state, allowed, limit, g)
                if not gives_up:
                    continue
                move = module.MoveAnalysis(1, word_list.guesses[g], 0, len(state), 0, limit, value, True,
                                           value, None, False, None, per_game=len(state))
                module._gives_up_within(service, [], np.arange(len(state), dtype=np.int32), limit,
                                        word_list.guesses[g], move, time.monotonic() + 60)
                low, high = move.cost_bounds
                assert move.q_loses and low <= cost and (high is None or cost <= high), (g, low, cost, high)
                assert low > value  # at least one answer with no sure finish
                checked += 1
                bounded += high is not None
    assert checked >= 10 and bounded >= 1
