"""The UCT study's bookkeeping on a small list: runs go through the journal into runs.csv and
per_answer.csv, a crashed study's journal is folded in, a foreign journal is refused."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from solver.exact.journal import ForeignJournalError, Journal
from solver.game.wordlists import load_word_list
from solver.studies.uct_study import (
    journal_path, render, run_study, study_fingerprint, write_report,
)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    legacy = load_word_list("legacy")
    answers = list(legacy.answers[::97])
    guesses = sorted(set(answers) | set(legacy.guesses[::211]))
    directory = tmp_path_factory.mktemp("words") / "small"
    directory.mkdir()
    (directory / "answers.txt").write_text("\n".join(answers) + "\n")
    (directory / "guesses.txt").write_text("\n".join(guesses) + "\n")
    return directory, load_word_list(directory)


def read(path):
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_runs_are_journaled_then_folded_into_the_csvs(small, tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    directory, word_list = small
    opener, out = word_list.answers[3], tmp_path / "uct"
    kwargs = dict(opener=opener, jobs=1, words=str(directory), out_dir=out, echo=lambda line: None)
    rows = run_study(["uct20_a"], [0, 1], **kwargs)
    assert [(r["policy"], r["seed"]) for r in rows] == [("uct20_a", 0), ("uct20_a", 1)]
    assert not journal_path(out).exists()  # discarded once every run is in the CSVs
    runs = read(out / "runs.csv")
    assert [(r["policy"], r["seed"]) for r in runs] == [("uct20_a", "0"), ("uct20_a", "1")]
    columns = read(out / "per_answer.csv")
    assert [c["answer"] for c in columns] == list(word_list.answers)
    assert sum(int(c["uct20_a@0"]) for c in columns) == int(runs[0]["total"])
    assert run_study(["uct20_a"], [0], **kwargs) == []  # already there

    # a study killed after journaling a run but before the CSVs had it
    journal = Journal.open(journal_path(out), study_fingerprint(word_list))
    guesses = np.full(word_list.n_answers, 2, dtype=np.int64)
    journal.append("uct20_b@5", {"row": dict(runs[0], policy="uct20_b", seed=5), "guesses": guesses})
    assert run_study([], [], **kwargs) == []
    assert [(r["policy"], r["seed"]) for r in read(out / "runs.csv")][-1] == ("uct20_b", "5")
    assert {c["uct20_b@5"] for c in read(out / "per_answer.csv")} == {"2"}
    assert not journal_path(out).exists()

    # a journal of other kernels is refused, and dropped on request
    Journal.open(journal_path(out), dict(study_fingerprint(word_list), kernels={}), resume=False)
    with pytest.raises(ForeignJournalError, match="kernels"):
        run_study([], [], **kwargs)
    run_study([], [], resume=False, **kwargs)
    assert not journal_path(out).exists()

    text = render(out, str(directory), opener)
    assert "| uct20_a | 20 | 0 |" in text and "Exact optimal tree" in text
    assert "<!-- generated: begin -->" in write_report(out, text).read_text()
