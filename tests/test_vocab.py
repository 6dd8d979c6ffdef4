"""Vocabulary variants: the generators, the report's exact optimum against the brute force,
and the two command-line tools (solver.cli.make_vocab, solver.cli.vocab_report) in subprocesses."""

from __future__ import annotations

import csv
import io
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from naive import BruteForce, table as naive_table
from solver.game.errors import InputError, VariantError
from solver.game.variants import check_kind, fake_lists, scaled_sizes, sub_lists, variant_lists
from solver.game.wordlists import load_word_list

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def words(word_list):
    return word_list.answers, word_list.guesses


# ---------------------------------------------------------------------------------------------
# generators


@pytest.mark.parametrize("fraction", [0.001, 0.01, 0.1, 0.35])
def test_sub_lists_sizes_and_invariants(legacy, fraction):
    sub = sub_lists(legacy, fraction, 3)
    others = legacy.n_guesses - legacy.n_answers
    assert sub.n_answers == max(1, round(fraction * legacy.n_answers))
    assert sub.n_guesses - sub.n_answers == round(fraction * others)
    assert (sub.n_answers, sub.n_guesses) == scaled_sizes(legacy, fraction)
    assert set(sub.answers) <= set(sub.guesses)
    assert set(sub.answers) <= set(legacy.answers)
    assert set(sub.guesses) - set(sub.answers) <= set(legacy.guesses) - set(legacy.answers)
    assert list(sub.answers) == sorted(sub.answers) and list(sub.guesses) == sorted(sub.guesses)
    assert len(set(sub.guesses)) == sub.n_guesses


def test_sub_lists_seeded(legacy):
    assert words(sub_lists(legacy, 0.05, 7)) == words(sub_lists(legacy, 0.05, 7))
    assert sub_lists(legacy, 0.05, 7).identity == sub_lists(legacy, 0.05, 7).identity
    assert words(sub_lists(legacy, 0.05, 7)) != words(sub_lists(legacy, 0.05, 8))
    assert sub_lists(legacy, 0.05, 7).name == "sub-0.0500-s7"


def test_sub_lists_of_everything_is_the_list(legacy):
    assert words(sub_lists(legacy, 1.0, 0)) == words(legacy)


@pytest.mark.parametrize("n_answers,n_guesses,length", [(1, 1, 5), (20, 60, 5), (40, 40, 3), (100, 700, 5),
                                                        (5, 30, 10), (3, 10, 2)])
def test_fake_lists_invariants(n_answers, n_guesses, length):
    fake = fake_lists(n_answers, n_guesses, length, 11)
    assert (fake.n_answers, fake.n_guesses, fake.word_length) == (n_answers, n_guesses, length)
    assert set(fake.answers) <= set(fake.guesses)
    assert len(set(fake.guesses)) == n_guesses
    assert all(len(w) == length and w.isascii() and w.isalpha() and w.islower() for w in fake.guesses)
    assert list(fake.guesses) == sorted(fake.guesses) and list(fake.answers) == sorted(fake.answers)


def test_fake_lists_seeded():
    assert words(fake_lists(30, 90, 5, 4)) == words(fake_lists(30, 90, 5, 4))
    assert words(fake_lists(30, 90, 5, 4)) != words(fake_lists(30, 90, 5, 5))
    assert fake_lists(30, 90, 5, 4).name == "fake-30x90-L5-s4"


def test_fake_letters_look_uniform():
    """Letters uniform on a-z: every letter's share of 50,000 letters is within 5 sd of 1/26."""
    fake = fake_lists(1, 10_000, 5, 0)
    text = "".join(fake.guesses)
    sd = math.sqrt(len(text) * (1 / 26) * (25 / 26))
    for letter in "abcdefghijklmnopqrstuvwxyz":
        assert abs(text.count(letter) - len(text) / 26) < 5 * sd


def test_variant_lists_fake_copies_the_sizes(legacy):
    real, fake = variant_lists(legacy, "real", 0.02, 1), variant_lists(legacy, "FAKE", 0.02, 1)
    assert (fake.n_answers, fake.n_guesses, fake.word_length) == (real.n_answers, real.n_guesses, 5)


@pytest.mark.parametrize("call,message", [
    (lambda wl: sub_lists(wl, 0.0, 0), "fraction"),
    (lambda wl: sub_lists(wl, 1.5, 0), "fraction"),
    (lambda wl: sub_lists(wl, -0.1, 0), "fraction"),
    (lambda wl: sub_lists(wl, float("nan"), 0), "fraction"),
    (lambda wl: sub_lists(wl, "half", 0), "fraction"),
    (lambda wl: sub_lists(wl, 0.1, -1), "seed"),
    (lambda wl: sub_lists(wl, 0.1, 1.5), "seed"),
    (lambda wl: sub_lists(wl, 0.1, True), "seed"),
    (lambda wl: fake_lists(10, 5, 5, 0), "n_guesses"),
    (lambda wl: fake_lists(0, 5, 5, 0), "at least 1 answer"),
    (lambda wl: fake_lists(5, 10, 11, 0), "word length"),
    (lambda wl: fake_lists(5, 400, 2, 0), "distinct"),
    (lambda wl: fake_lists(5, 10, 5, -3), "seed"),
    (lambda wl: variant_lists(wl, "imaginary", 0.1, 0), "unknown vocabulary variant"),
])
def test_bad_input_is_a_variant_error(legacy, call, message):
    with pytest.raises(VariantError, match=message) as caught:
        call(legacy)
    assert isinstance(caught.value, InputError)


def test_check_kind():
    assert check_kind(" Real ") == "real"


# ---------------------------------------------------------------------------------------------
# the report's exact optimum against the brute force


@pytest.mark.kernels
@pytest.mark.parametrize("make", [lambda wl: fake_lists(20, 60, 5, 2), lambda wl: sub_lists(wl, 0.008, 1)])
def test_report_optimum_equals_brute_force(legacy, tmp_path, monkeypatch, make):
    from solver.studies.vocab_report import exact_optimum

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    word_list = make(legacy)
    assert 15 <= word_list.n_answers <= 25
    brute = BruteForce(naive_table(word_list.guesses, word_list.answers), list(word_list.answer_guess_index))
    truth = brute.value(tuple(range(word_list.n_answers)), 6)
    optimum = exact_optimum(word_list, jobs=1)
    assert optimum["optimum_total"] == truth
    assert optimum["optimum_source"] == "proven over all openers"
    everything = tuple(range(word_list.n_answers))
    assert brute.guess_cost(word_list.guess_index(optimum["first_guess"]), everything, 6) == truth


# ---------------------------------------------------------------------------------------------
# command-line tools


def run_tool(tool, args, tmp_path, timeout=300):
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", f"solver.cli.{tool}", *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=timeout, env=env)


@pytest.mark.parametrize("tool", ["make_vocab", "vocab_report"])
def test_help(tool, tmp_path):
    proc = run_tool(tool, ["--help"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "fake" in proc.stdout and "Exit status" in proc.stdout


@pytest.mark.parametrize("tool,args,message", [
    ("vocab_report", ["--agents", "minimax1,telepath"], "unknown policy 'telepath'"),
    ("vocab_report", ["--agents", "mig_a"], "classic agents"),
    ("vocab_report", ["--kinds", "real,imaginary"], "unknown vocabulary variant 'imaginary'"),
    ("vocab_report", ["--seeds", "0,-1"], "--seeds: '0,-1' is not a comma-separated list"),
    ("vocab_report", ["--seeds=-1"], "--seeds: '-1' is not a comma-separated list"),
    ("vocab_report", ["--fractions", "0.1,2"], "fraction is a number in (0, 1]"),
    ("vocab_report", ["--episodes-per-answer", "0"], "episodes-per-answer"),
    ("make_vocab", ["--kinds", "imaginary"], "unknown vocabulary variant 'imaginary'"),
    ("make_vocab", ["--seeds=-2"], "--seeds: '-2' is not a comma-separated list"),
    ("make_vocab", ["--fractions", "0"], "fraction is a number in (0, 1]"),
    ("make_vocab", ["--words", "no-such-list"], "no-such-list"),
])
def test_bad_input_exits_2_with_one_line(tool, args, message, tmp_path):
    proc = run_tool(tool, [*args, "--out", str(tmp_path / "out")], tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], proc.stderr
    assert not (tmp_path / "out" / "vocab.csv").exists()


def test_make_vocab_writes_loadable_lists(legacy, tmp_path):
    proc = run_tool("make_vocab", ["--kinds", "real,fake", "--fractions", "0.01", "--seeds", "0,3",
                                   "--out", str(tmp_path / "vocab")], tmp_path)
    assert proc.returncode == 0, proc.stderr
    written = sorted(p.name for p in (tmp_path / "vocab").iterdir())
    assert written == ["fake-23x130-L5-s0", "fake-23x130-L5-s3", "sub-0.0100-s0", "sub-0.0100-s3"]
    for kind, name, seed in (("real", "sub-0.0100-s3", 3), ("fake", "fake-23x130-L5-s0", 0)):
        loaded = load_word_list(tmp_path / "vocab" / name)
        assert words(loaded) == words(variant_lists(legacy, kind, 0.01, seed))
        assert loaded.identity == variant_lists(legacy, kind, 0.01, seed).identity


@pytest.mark.slow
def test_vocab_report_end_to_end(tmp_path):
    out = tmp_path / "report"
    args = ["--fractions", "0.004,0.008", "--seeds", "0", "--out", str(out), "--jobs", "1",
            "--episodes-per-answer", "20"]
    proc = run_tool("vocab_report", args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO((out / "vocab.csv").read_text())))
    agents = ["optimum", "random_total", "random_possible", "minimax1", "expectimax1", "qlearning"]
    assert [(r["kind"], r["fraction"], r["agent"]) for r in rows] == [
        (kind, fraction, agent) for kind in ("real", "fake") for fraction in ("0.0040", "0.0080") for agent in agents]
    for row in rows:
        optimum = int(row["optimum_total"])
        assert row["optimum_source"] == "proven over all openers"
        assert int(row["total"]) >= optimum  # nothing beats the optimum
        assert abs(float(row["gap_guesses"]) - (int(row["total"]) - optimum) / int(row["n_answers"])) < 1e-4
    text = (out / "vocab.md").read_text()
    assert "## Real sub-lists" in text and "## Fake lists" in text and "Orenbach" in text
    assert (out / "vocab.png").read_bytes().startswith(b"\x89PNG")
    # a rerun resumes from the journal: the same figures
    before = [(r["agent"], r["total"]) for r in rows]
    again = run_tool("vocab_report", args, tmp_path)
    assert again.returncode == 0, again.stderr
    assert [(r["agent"], r["total"]) for r in csv.DictReader(io.StringIO((out / "vocab.csv").read_text()))] == before
    # another request into the same directory: the journal is refused, exit 2, one line
    other = run_tool("vocab_report", [*args[:-2], "--episodes-per-answer", "30"], tmp_path)
    assert other.returncode == 2 and "journal of another run" in other.stderr
    assert len(other.stderr.strip().splitlines()) == 1
