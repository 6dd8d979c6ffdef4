"""The fixed-start proof (docs/algorithms.md §9.6) against the brute force on small lists."""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest

from conftest import random_sub_list
from naive import INF, BruteForce, fixed_start_value, table as naive_table
from solver.exact.proofs.fixed_start import (ANY, fixed_sentences, fixed_standing, prove_fixed_start,
                                             sequences_csv)
from solver.game.errors import InputError
from solver.game.spec import Game
from solver.game.wordlists import load_word_list


def small_list(seed, n_answers=20, n_guesses=45):
    return random_sub_list(load_word_list("legacy"), seed, n_answers, n_guesses)


def canonical(wl, words):
    answers = set(wl.answers)
    return tuple(sorted(words, key=lambda w: (w not in answers, wl.guess_index(w))))


def brute_totals(wl, length, limit=6):
    """Every canonical sequence's total by the definition, and every ordered sequence's."""
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index))
    totals = {}
    for combo in itertools.combinations(wl.guesses, length):
        ordered = canonical(wl, combo)
        totals[ordered] = fixed_start_value(brute, [wl.guess_index(w) for w in ordered], limit)
    return brute, totals


def check_against_brute(result, truth):
    ranked = sorted(v for v in truth.values() if v < INF)
    rank = result.rank
    assert [r.value for r in result.ranked][:rank] == ranked[:rank]
    kth = ranked[rank - 1]
    listed = {r.words for r in result.rows if r.complete}
    for row in result.rows:
        if row.complete:
            if row.status == "exact":
                assert row.value == truth[row.words]
            else:
                assert kth < row.value <= truth[row.words]
        else:  # every canonical sequence it covers, not listed, is at least its value
            prefix = tuple(w for w in row.words if w != ANY)
            covered = [w for w in truth if w[:len(prefix)] == prefix and w not in listed]
            assert all(truth[w] >= row.value for w in covered)
            assert row.value > kth
    # every sequence is listed or covered by a row
    stars = [tuple(w for w in r.words if w != ANY) for r in result.rows if not r.complete]
    for words in truth:
        assert words in listed or any(words[:len(p)] == p for p in stars)
    stand = fixed_standing(result)
    assert [row.value for _, row in stand.shown][:rank] == ranked[:rank]


@pytest.mark.kernels
@pytest.mark.parametrize("seed,rank,n_answers,n_guesses", [
    (1, 1, 20, 45), (2, 3, 20, 45), (3, 10, 20, 45),
    pytest.param(10, 1, 60, 90, marks=pytest.mark.slow), pytest.param(11, 5, 80, 110, marks=pytest.mark.slow)])
def test_pairs_equal_brute_force(tmp_path, monkeypatch, seed, rank, n_answers, n_guesses):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(seed, n_answers, n_guesses)
    _, truth = brute_totals(wl, 2)
    result = prove_fixed_start(Game(wl), 2, rank=rank, jobs=1, resume=False)
    check_against_brute(result, truth)
    assert sequences_csv(result).splitlines()[0] == "first,second,status,value"
    assert fixed_sentences(result)[0].startswith("proven: every other 2-word start")


@pytest.mark.kernels
def test_triples_equal_brute_force(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(4, n_answers=14, n_guesses=22)
    _, truth = brute_totals(wl, 3)
    result = prove_fixed_start(Game(wl), 3, rank=2, jobs=1, resume=False)
    check_against_brute(result, truth)


def small_hard_list(seed, n_answers, n_guesses):
    """A small list on which some pairs can be played blind in hard mode: few answers, so that
    few letters are ever coloured."""
    return random_sub_list(load_word_list("legacy"), seed, n_answers, n_guesses)


@pytest.mark.kernels
@pytest.mark.parametrize("seed,rank,length", [(21, 1, 2), (22, 3, 2), (23, 1, 3)])
def test_hard_mode_equals_brute_force(tmp_path, monkeypatch, seed, rank, length):
    """Hard mode: ordered sequences, each word allowed after every colouring before it."""
    from naive_hard import HardBruteForce, hard_fixed_start_value
    from solver.exact.proofs.fixed_start import ANY

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_hard_list(seed, 6, 40 if length == 2 else 24)
    brute = HardBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers))
    truth = {}
    for words in itertools.permutations(range(wl.n_guesses), length):
        value = hard_fixed_start_value(brute, words)
        if value is not None:
            truth[tuple(wl.guesses[g] for g in words)] = value
    assert truth, "the list must allow some sequence blind"
    result = prove_fixed_start(Game(wl, mode="hard"), length, rank=min(rank, len(truth)), jobs=1,
                               resume=False)
    ranked = sorted(v for v in truth.values() if v < INF)
    assert [r.value for r in result.ranked][:result.rank] == ranked[:result.rank]
    kth = ranked[result.rank - 1]
    listed = {r.words for r in result.rows if r.complete}
    assert listed <= set(truth)  # only sequences the rule allows blind
    for row in result.rows:
        if row.complete:
            assert row.value == truth[row.words] if row.status == "exact" else kth < row.value <= truth[row.words]
        else:
            prefix = tuple(w for w in row.words if w != ANY)
            assert row.value > kth
            assert all(v >= row.value for w, v in truth.items() if w[:len(prefix)] == prefix and w not in listed)
    stars = [tuple(w for w in r.words if w != ANY) for r in result.rows if not r.complete]
    assert all(w in listed or any(w[:len(p)] == p for p in stars) for w in truth)


@pytest.mark.kernels
def test_order_and_limit_follow_the_definition(tmp_path, monkeypatch):
    """An answer found at guess i costs i: the reversed pair of an answer and another word
    totals one more; a guess limit of 3 leaves one guess after the pair."""
    from solver.exact._fixed_start_kernel import prefix_value
    from solver.exact.proofs.runner import Job, worker_state

    wl = small_list(5)
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index))
    for limit in (3, 4, 6):
        job = Job(wl, Game(wl, limit), 1 << 16)
        P, PT, z1, z2, search, scratch, rules = worker_state(job)
        for g1, g2 in [(0, wl.n_guesses - 1), (wl.n_guesses - 1, 0), (3, 7), (7, 3)]:
            value = prefix_value(np.array([g1, g2], dtype=np.int32), limit - 2, INF, P, PT,
                                 wl.answer_guess_index, z1, z2, search, scratch, 0, 0, rules)
            assert min(value, INF) == fixed_start_value(brute, (g1, g2), limit)


@pytest.mark.kernels
def test_row_bounds_are_lower_bounds_and_exact_below_beta(tmp_path, monkeypatch):
    from solver.exact._fixed_start_kernel import prefix_bound, row_bounds
    from solver.exact.proofs.runner import Job, worker_state

    wl = small_list(6)
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index))
    P, PT, z1, z2, search, scratch, rules = worker_state(Job(wl, Game(wl), 1 << 16))
    counts = np.zeros(243, dtype=np.int32)
    for g1 in range(0, wl.n_guesses, 4):
        prefix = np.array([g1], dtype=np.int32)
        last = np.array([h for h in range(wl.n_guesses) if h != g1], dtype=np.int32)
        full = row_bounds(prefix, last, 4, INF, P, PT, wl.answer_guess_index, 0, scratch, counts, False)
        cheap = row_bounds(prefix, last, 4, INF, P, PT, wl.answer_guess_index, 0, scratch, counts, True)
        for beta in (INF, int(np.median(full)), int(full.min()) + 1):
            cut = row_bounds(prefix, last, 4, beta, P, PT, wl.answer_guess_index, 0, scratch, counts, False)
            for h, b, f, c in zip(last, cut, full, cheap):
                truth = fixed_start_value(brute, (g1, int(h)))
                pair = np.array([g1, h], dtype=np.int32)
                assert c <= f == prefix_bound(pair, 4, INF, P, PT, wl.answer_guess_index, 0, scratch, counts)
                assert f <= truth and b <= truth
                assert (b == f) if f < beta else (b >= beta)


@pytest.mark.kernels
def test_resumed_and_rerun_tables_are_identical(tmp_path, monkeypatch):
    from solver.exact.proofs.fixed_start import fixed_start_journal

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(7)
    game = Game(wl)
    first = prove_fixed_start(game, 2, rank=3, jobs=1)
    journal = fixed_start_journal(game, 2, 3)
    assert journal.exists()
    data = journal.read_bytes()
    again = prove_fixed_start(game, 2, rank=3, jobs=1)  # everything from the journal
    assert sequences_csv(again) == sequences_csv(first)
    assert again.reused == again.searched > 0
    for cut in (len(data) // 3, len(data) * 2 // 3):  # as a run killed part-way: resumes
        journal.write_bytes(data[:cut])
        resumed = prove_fixed_start(game, 2, rank=3, jobs=1)
        assert sequences_csv(resumed) == sequences_csv(first)
    fresh = prove_fixed_start(game, 2, rank=3, jobs=2, resume=False)
    assert sequences_csv(fresh) == sequences_csv(first)


def test_bad_requests_are_input_errors():
    wl = small_list(8)
    with pytest.raises(InputError, match="fixed-start"):
        prove_fixed_start(Game(wl), 4)
    with pytest.raises(InputError, match="total objective"):
        prove_fixed_start(Game(wl, objective="worst"), 2)
    with pytest.raises(InputError, match="rank"):
        prove_fixed_start(Game(wl), 2, rank=0)
    with pytest.raises(InputError, match="no guess"):
        prove_fixed_start(Game(wl, 2), 2)


@pytest.mark.kernels
def test_cli_on_a_directory_prints_the_proven_pair(tmp_path):
    wl = small_list(9)
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "answers.txt").write_text("\n".join(wl.answers) + "\n")
    (lists / "guesses.txt").write_text("\n".join(wl.guesses) + "\n")
    out = tmp_path / "pairs.csv"
    env = {"EXACT_WORDLE_CACHE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "tools.prove", "--words", str(lists), "--fixed-start", "2",
               "--rank", "10", "--jobs", "1", "--out", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    _, truth = brute_totals(load_word_list(str(lists)), 2)
    best = min(truth.values())
    assert "proven: every other 2-word start" in run.stdout
    assert str(best) in run.stdout
    written = out.read_bytes()
    rerun = subprocess.run(command + ["--no-resume"], capture_output=True, text=True, env=env)
    assert rerun.returncode == 0, rerun.stderr
    assert out.read_bytes() == written


def test_ultra_hard_mode_is_refused_with_its_reason():
    from solver.exact.proofs.fixed_start import check_fixed_start
    from solver.game.errors import InputError
    from solver.game.spec import Game
    from solver.game.wordlists import load_word_list

    with pytest.raises(InputError, match="no word follows another blind"):
        check_fixed_start(Game(load_word_list("legacy"), mode="ultra"), 2)
