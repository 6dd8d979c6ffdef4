"""Issue 32: every "proven" sentence ``tools.prove`` prints is derived from the values it wrote,
ties at the K-th place included, and is true: checked against the brute force (tests/naive.py)
on random small lists, for every K."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import random_sub_list
from naive import INF, BruteForce, table as naive_table
from solver.exact.prove import proof_sentences, prove, standing
from solver.game.spec import Game
from solver.game.wordlists import load_word_list

ROOT = Path(__file__).resolve().parents[1]


def small_list(seed, n_answers, n_guesses):
    return random_sub_list(load_word_list("legacy"), seed, n_answers, n_guesses)


def brute_values(wl, objective="total", limit=6):
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index), objective)
    everything = tuple(range(wl.n_answers))
    return {wl.guesses[g]: brute.guess_cost(g, everything, limit) for g in range(wl.n_guesses)}


def check_against_truth(result, truth, rank):
    """The table (:func:`standing`) and the sentences (:func:`proof_sentences`) of a proof of
    rank K hold for the brute-force values ``truth``."""
    ordered = sorted(truth.values())
    kth = ordered[rank - 1]
    stand = standing(result)
    shown = {row.opener: (place, row.value) for place, row in stand.shown}
    # the table: every opener at most as bad as the K-th (ties included), exact, ranked; the
    # worst-case proof leaves openers undecided at the last level: those may tie, and say so
    tied = {w for w, v in truth.items() if v <= kth}
    if result.game.objective.value == "total":
        assert set(shown) == tied, rank
    else:
        assert {w for w, v in truth.items() if v < kth} <= set(shown) <= tied, rank
    for opener, (place, value) in shown.items():
        assert value == truth[opener]
        assert place == 1 + sum(1 for v in truth.values() if v < value)
    sentences = proof_sentences(result)
    others = [w for w in truth if w not in shown]
    least_other = min((truth[w] for w in others), default=None)
    if result.game.objective.value == "worst":
        least = ordered[0]
        first = re.fullmatch(r"proven: (?:no opener wins every game within (\d+) guess(?:es)?; )?"
                             r"(\w+) wins every game within (\d+)(?:, as do(?:es)? the (\d+ )?other "
                             r"openers? ranked 1)?", sentences[0])
        assert first, sentences[0]
        assert int(first.group(3)) == least and truth[first.group(2)] == least
        assert first.group(1) is None or int(first.group(1)) == least - 1
        winners = sum(1 for v in truth.values() if v == least)
        told = 1 + int(first.group(4) or (1 if "as does" in sentences[0] else 0))
        assert told == len([w for w in shown if truth[w] == least]) <= winners
        rest = sentences[1:]
    else:
        rest = sentences
    if least_other is None:
        assert len(rest) <= 1 and "at least" not in "".join(rest)
        return
    (sentence,) = rest
    found = re.fullmatch(r"proven: every other opener(?:'s value is| needs) at least (\d+)"
                         r"(?: guesses in some game)?(?: \((\d+) of them, not decided further, "
                         r"may tie with the K-th value (\d+)\))?", sentence)
    assert found, sentence
    bound = int(found.group(1))
    assert bound <= least_other  # true of every opener not in the table
    if result.game.objective.value == "total":
        assert bound > kth and found.group(2) is None  # the table holds every tie
    else:
        assert bound >= kth
        untold = len(tied - set(shown))  # openers tied with the K-th, not in the table
        assert untold == 0 or (bound == kth and int(found.group(2)) >= untold)


@pytest.mark.kernels
@pytest.mark.parametrize("seed", [31, 32, 33])
def test_every_rank_states_what_the_brute_force_finds(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(seed, 12, 30)
    for objective in ("total", "worst"):
        truth = brute_values(wl, objective)
        winnable = sum(1 for v in truth.values() if v < INF)
        for rank in range(1, winnable + 1):
            result = prove(Game(wl, objective=objective), rank=rank, jobs=1, resume=False)
            check_against_truth(result, truth, rank)


def test_the_printed_statement_holds_at_a_tie_on_the_kth_place(tmp_path):
    """The issue's case, through the command line: K is a place whose value other openers tie
    with; the table lists them all, and the sentence's bound is above the K-th value."""
    wl = small_list(4, 30, 90)
    truth = brute_values(wl)
    ordered = sorted(truth.values())
    rank = next(k for k in range(1, len(ordered)) if ordered[k - 1] == ordered[k] and ordered[k] < INF)
    words = tmp_path / "words"
    words.mkdir()
    (words / "answers.txt").write_text("".join(w + "\n" for w in wl.answers))
    (words / "guesses.txt").write_text("".join(w + "\n" for w in wl.guesses))
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"), COLUMNS="200")
    done = subprocess.run([sys.executable, "-m", "tools.prove", "--words", str(words), "--jobs",
                           "1", "--rank", str(rank), "--out", str(tmp_path / "openers.csv")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = re.findall(r"│\s+(\d+) │ (\w+)\s+│\s+(\d+) │", done.stdout)
    kth = ordered[rank - 1]
    assert {w for _, w, _ in rows} == {w for w, v in truth.items() if v <= kth}
    assert len(rows) > rank  # the tie is shown
    assert all(int(v) == truth[w] for _, w, v in rows)
    bound = int(re.search(r"proven: every other opener's value is at least (\d+)", done.stdout).group(1))
    assert kth < bound <= min(v for w, v in truth.items() if v > kth)
    # the CSV agrees with the table
    csv_rows = (tmp_path / "openers.csv").read_text().splitlines()[1:]
    assert [line.split(",")[0] for line in csv_rows[:len(rows)]] == [w for _, w, _ in rows]


@pytest.mark.kernels
def test_a_proof_over_some_openers_says_so(tmp_path, monkeypatch):
    """With ``openers=`` the sentence speaks of the openers considered, not of every opener."""
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(34, 12, 30)
    truth = brute_values(wl)
    chosen = wl.guesses[:6]
    result = prove(Game(wl), openers=chosen, jobs=1, resume=False)
    (sentence,) = proof_sentences(result)
    found = re.fullmatch(r"proven: of the 6 openers considered, every other one's value is at least "
                         r"(\d+)", sentence)
    assert found, sentence
    best = min(truth[w] for w in chosen)
    assert best < int(found.group(1)) <= min(truth[w] for w in chosen if truth[w] > best)
