"""``python -m tools.solve`` in a subprocess: a real solve on a small list, and bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import msgpack

from naive import BruteForce, table as naive_table

ROOT = Path(__file__).resolve().parents[1]


def run(*args, timeout=300, cache=None):
    """The tool in a subprocess; with ``cache``, that user cache (its journals are the run's
    own: another checkout's solve of the same list, with other kernels, never meets them)."""
    env = None if cache is None else dict(os.environ, EXACT_WORDLE_CACHE=str(cache))
    return subprocess.run([sys.executable, "-m", "tools.solve", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, env=env)


def small_list(tmp_path):
    from solver.game.wordlists import load_word_list

    legacy = load_word_list("legacy")
    answers = legacy.answers[::97]  # 24 answers across the alphabet
    guesses = sorted(set(answers) | set(legacy.guesses[::211]))
    directory = tmp_path / "small"
    directory.mkdir()
    (directory / "answers.txt").write_text("\n".join(answers) + "\n")
    (directory / "guesses.txt").write_text("\n".join(guesses) + "\n")
    return directory, answers, guesses


def test_solve_writes_an_exact_artifact(tmp_path):
    directory, answers, guesses = small_list(tmp_path)
    out = tmp_path / "tree.msgpack"
    proc = run("--words", str(directory), "--opener", answers[3], "--out", str(out), "--jobs", "2",
               cache=tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    document = msgpack.unpackb(out.read_bytes(), raw=False)
    guess_of_answer = [guesses.index(a) for a in answers]
    brute = BruteForce(naive_table(guesses, answers), guess_of_answer)
    expected = brute.guess_cost(guesses.index(answers[3]), tuple(range(len(answers))), 6)
    assert document["total"] == expected
    assert f"{expected}" in proc.stdout
    assert document["opener"] == answers[3] and document["word_list"] == "small"
    assert sum(document["histogram"]) == len(answers)


def test_unknown_opener_exits_2(tmp_path):
    out = tmp_path / "x.msgpack"
    proc = run("--opener", "qqqqq", "--out", str(out))
    assert proc.returncode == 2
    assert "'qqqqq' is not an allowed guess" in proc.stderr
    assert not out.exists()


def test_help_explains():
    proc = run("--help")
    assert proc.returncode == 0
    for option in ("--words", "--opener", "--jobs", "--out"):
        assert option in proc.stdout
