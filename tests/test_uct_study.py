"""The UCT study's bookkeeping on a small list: runs go through the journal into runs.csv and
per_answer.csv, a crashed study's journal is folded in, a foreign journal is refused; the
classic agents (any registered policy) in the same study, through the API and the CLI."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.runs.journal import ForeignJournalError, Journal
from solver.runs.naming import journal_path
from solver.game.errors import InputError
from solver.game.wordlists import load_word_list
from solver.studies.uct_study import (
    render, run_study, study_fingerprint, write_report,
)

ROOT = Path(__file__).resolve().parents[1]


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
    assert not journal_path("runs", directory=out).exists()  # discarded once every run is in the CSVs
    runs = read(out / "runs.csv")
    assert [(r["policy"], r["seed"]) for r in runs] == [("uct20_a", "0"), ("uct20_a", "1")]
    columns = read(out / "per_answer.csv")
    assert [c["answer"] for c in columns] == list(word_list.answers)
    assert sum(int(c["uct20_a@0"]) for c in columns) == int(runs[0]["total"])
    assert run_study(["uct20_a"], [0], **kwargs) == []  # already there

    # a study killed after journaling a run but before the CSVs had it
    journal = Journal.open(journal_path("runs", directory=out), study_fingerprint(word_list))
    guesses = np.full(word_list.n_answers, 2, dtype=np.int64)
    journal.append("uct20_b@5", {"row": dict(runs[0], policy="uct20_b", seed=5), "guesses": guesses})
    assert run_study([], [], **kwargs) == []
    assert [(r["policy"], r["seed"]) for r in read(out / "runs.csv")][-1] == ("uct20_b", "5")
    assert {c["uct20_b@5"] for c in read(out / "per_answer.csv")} == {"2"}
    assert not journal_path("runs", directory=out).exists()

    # a journal of other kernels is refused, and dropped on request
    Journal.open(journal_path("runs", directory=out), dict(study_fingerprint(word_list), kernels={}), resume=False)
    with pytest.raises(ForeignJournalError, match="kernels"):
        run_study([], [], **kwargs)
    run_study([], [], resume=False, **kwargs)
    assert not journal_path("runs", directory=out).exists()

    text = render(out, str(directory), opener)
    assert "| uct20_a | 20 | 0 |" in text and "Exact optimal tree" in text
    assert "<!-- generated: begin -->" in write_report(out, text).read_text()


# ---------------------------------------------------------------------------------------------
# other registered policies in the study: the classic agents


def replay_games(word_list, table, name, seed, opener, counts):
    """Play every game of ``name`` again (solver.evaluation.scoring.play_game, the scorer's
    per-decision seeds) and check it with the plain rule (solver.game.feedback.feedback_code):
    every state a decision saw is exactly the answers consistent with the feedback so far,
    random_possible guesses a possible answer, minimax1 the twin's choice, the game ends on the
    answer after ``counts[a]`` guesses."""
    import naive_classic as twin
    from solver.evaluation.scoring import play_game
    from solver.game.feedback import feedback_code
    from solver.policies.registry import make_policy

    policy = make_policy(name, word_list, table)
    opener_index = word_list.guess_index(opener)
    for a, answer in enumerate(word_list.answers):
        used, decisions = play_game(policy, a, opener_index, seed=seed)
        guesses = [opener] + [word_list.guesses[g] for _, _, g, _ in decisions]
        assert used == len(guesses) == counts[a]
        assert guesses[-1] == answer and answer not in guesses[:-1]
        history = []
        for k, guess in enumerate(guesses):
            possible = [w for w in word_list.answers
                        if all(feedback_code(g, w) == c for g, c in history)]
            if k > 0:
                state = decisions[k - 1][0]
                assert [word_list.answers[i] for i in state] == possible
                if len(possible) == 1:
                    assert guess == possible[0]
                elif name == "random_possible":
                    assert guess in possible
                elif name == "minimax1":
                    assert guess == twin.depth_one_choice(word_list.guesses, possible, "minimax")
            history.append((guess, feedback_code(guess, answer)))


OLD_FIELDS = ["policy", "base", "variant_o", "rank", "n_rollouts", "n_top", "b_divisor", "seed",
              "opener", "games", "total", "average", "max_guesses", "failures", "histogram",
              "wall_seconds", "workers", "decisions", "rollouts", "rollouts_per_second",
              "seconds_per_game", "finished"]


def write_old_study(out, word_list, opener):
    """A study directory as the first studies wrote it (no ``mode`` column): one UCT run."""
    out.mkdir(parents=True)
    n = word_list.n_answers
    row = {"policy": "uct20_a", "base": "a", "variant_o": "0", "rank": "alpha", "n_rollouts": "20",
           "n_top": "10", "b_divisor": "5.0", "seed": "0", "opener": opener, "games": str(n),
           "total": str(3 * n), "average": "3.00000", "max_guesses": "3", "failures": "0",
           "histogram": f"0 0 {n} 0 0 0", "wall_seconds": "1.0", "workers": "1", "decisions": "9",
           "rollouts": "180", "rollouts_per_second": "180", "seconds_per_game": "0.0100",
           "finished": "2026-01-01T00:00:00"}
    with (out / "runs.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, OLD_FIELDS)
        writer.writeheader()
        writer.writerow(row)
    with (out / "per_answer.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["answer", "uct20_a@0"])
        writer.writerows([a, "3"] for a in word_list.answers)


def test_classic_agents_in_the_study(small, tmp_path, monkeypatch):
    """minimax1 (deterministic: one run, tree mode, empty seed) and random_possible (one run per
    seed, games mode) through run_study, beside an older UCT row without the mode column: the
    totals are score_policy's, every game replays with the plain rule, seeds reproduce and
    differ, and render keeps UCT and the other agents in separate tables."""
    from solver.evaluation.scoring import score_policy
    from solver.game.feedback import feedback_table
    from solver.policies.registry import make_policy

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    directory, word_list = small
    opener, out = word_list.answers[3], tmp_path / "uct"
    write_old_study(out, word_list, opener)
    kwargs = dict(opener=opener, jobs=1, words=str(directory), out_dir=out, echo=lambda line: None)
    rows = run_study(["minimax1", "random_possible"], [0, 1], **kwargs)
    assert [(r["policy"], r["seed"], r["mode"]) for r in rows] == [
        ("minimax1", "", "tree"), ("random_possible", 0, "games"), ("random_possible", 1, "games")]
    runs = read(out / "runs.csv")
    assert [(r["policy"], r["seed"], r["mode"]) for r in runs] == [
        ("uct20_a", "0", ""), ("minimax1", "", "tree"), ("random_possible", "0", "games"),
        ("random_possible", "1", "games")]
    assert all(r[f] == "" for r in runs[1:] for f in ("n_rollouts", "rank", "base", "rollouts"))
    columns = read(out / "per_answer.csv")
    assert list(columns[0]) == ["answer", "uct20_a@0", "minimax1", "random_possible@0", "random_possible@1"]

    table = feedback_table(word_list)
    for row in runs[1:]:
        key = row["policy"] + (f"@{row['seed']}" if row["seed"] else "")
        counts = [int(c[key]) for c in columns]
        direct = score_policy(make_policy(row["policy"], word_list, table), opener,
                              seed=int(row["seed"] or 0), mode="games")
        assert direct.guesses_per_answer.tolist() == counts
        assert int(row["total"]) == direct.total == sum(counts)
        assert int(row["failures"]) == direct.failures
        replay_games(word_list, table, row["policy"], int(row["seed"] or 0), opener, counts)
    seed0 = [c["random_possible@0"] for c in columns]
    assert seed0 != [c["random_possible@1"] for c in columns]

    # a deterministic agent is not played again for other seeds; a seeded one is
    again = run_study(["minimax1", "random_possible"], [0, 2], **kwargs)
    assert [(r["policy"], r["seed"]) for r in again] == [("random_possible", 2)]
    assert run_study(["random_possible"], [0], force=True, **kwargs)[0]["total"] == int(runs[2]["total"])
    assert [c["random_possible@0"] for c in read(out / "per_answer.csv")] == seed0

    text = render(out, str(directory), opener)
    assert "### Every run (UCT)" in text and "| uct20_a | 20 | 0 |" in text
    assert "### Other agents" in text
    assert f"| minimax1 | – | tree | {runs[1]['average']} | {runs[1]['total']} |" in text
    assert "| random_possible | 0 | games |" in text and "| random_possible | 2 | games |" in text
    assert f"fixed opener {opener.upper()}" in text

    with pytest.raises(InputError, match="unknown policy 'nosuch'"):
        run_study(["minimax1", "nosuch"], [0], **kwargs)
    with pytest.raises(InputError, match="seeds are whole numbers"):
        run_study(["minimax1"], [-1], **kwargs)


def run_cli(args, tmp_path):
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "tools.uct_report", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, env=env)


def test_cli_runs_classic_agents(small, tmp_path):
    """``tools.uct_report run`` with minimax1 and random_possible (two seeds, two workers) on a
    small list: runs.csv holds score_policy's totals; render writes the other agents' table."""
    from solver.evaluation.scoring import score_policy
    from solver.game.feedback import feedback_table
    from solver.policies.registry import make_policy

    directory, word_list = small
    opener, out = word_list.answers[5], tmp_path / "study"
    common = ["--words", str(directory), "--opener", opener, "--out", str(out)]
    proc = run_cli(["run", *common, "--policies", "minimax1,random_possible", "--seeds", "0,1",
                    "--jobs", "2"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "minimax1 (deterministic): average" in proc.stdout
    runs = read(out / "runs.csv")
    assert [(r["policy"], r["seed"], r["workers"]) for r in runs] == [
        ("minimax1", "", "1"), ("random_possible", "0", "2"), ("random_possible", "1", "2")]
    table = feedback_table(word_list, use_cache=False)
    for row in runs:
        direct = score_policy(make_policy(row["policy"], word_list, table), opener,
                              seed=int(row["seed"] or 0), mode="games", jobs=1)
        assert int(row["total"]) == direct.total  # the same games with 2 workers as with 1
    proc = run_cli(["render", *common], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "| random_possible | 1 | games |" in (out / "uct.md").read_text()


@pytest.mark.parametrize("args, message", [
    (["--policies", "minimax1,nosuch"], "unknown policy 'nosuch'"),
    (["--policies", "minimax1", "--seeds", "0,-1"], "is not a comma-separated list of seeds in 0..4294967295"),
    (["--policies", "qlearning"], "no trained Q-table"),
])
def test_cli_bad_input_exits_2(small, tmp_path, args, message):
    directory, word_list = small
    out = tmp_path / "study"
    proc = run_cli(["run", "--words", str(directory), "--opener", word_list.answers[0], "--out", str(out),
                    *args], tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 or "usage:" in proc.stderr
    assert not out.exists()
