"""The gap report: its API on a small list against the plain twins, and ``python -m
tools.report`` in a subprocess (gap.csv contents, outputs, resume, bad input → exit 2)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

from solver.game.spec import Game
import pytest

import naive_policies as naive
from naive import BruteForce
from solver.exact.bellman import solve
from solver.policies.exact_policy import ExactPolicy
from solver.game.feedback import feedback_table
from solver.policies.mig import MIGPolicy
from solver.policies.registry import UnknownPolicyError, check_policy_name, make_policy, register_policy
from solver.evaluation.regret import DecisionRegret, decision_regrets
from solver.evaluation.scoring import score_policy
from solver.runs.journal import Journal
from solver.runs.naming import journal_path
from solver.studies.gap_report import report_fingerprint
from solver.game.wordlists import load_word_list

ROOT = Path(__file__).resolve().parents[1]


def small_list(directory: Path):
    legacy = load_word_list("legacy")
    answers = list(legacy.answers[::97])  # 24 answers across the alphabet
    guesses = sorted(set(answers) | set(legacy.guesses[::211]))
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "answers.txt").write_text("\n".join(answers) + "\n")
    (directory / "guesses.txt").write_text("\n".join(guesses) + "\n")
    return directory


def run(args, tmp_path, timeout=300):
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, "-m", "solver.cli.report", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    directory = small_list(tmp_path_factory.mktemp("words") / "small")
    word_list = load_word_list(directory)
    return directory, word_list, feedback_table(word_list, use_cache=False)


@pytest.mark.slow
def test_report_cli_end_to_end(small, tmp_path):
    directory, word_list, table = small
    openers = [word_list.answers[3], word_list.guesses[5]]
    policies = ["mig_a", "mig_b", "rollout3_a"]
    args = ["--words", str(directory), "--opener", ",".join(openers), "--policies", ",".join(policies),
            "--out", str(tmp_path / "reports"), "--name", "tiny", "--jobs", "1"]
    proc = run(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "reports" / "tiny"
    for name in ("gap.md", "gap.csv", "averages.png", "histograms.png", "time_per_game.png"):
        assert (out / name).stat().st_size > 0
    with open(out / "gap.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["opener"], r["policy"]) for r in rows] == [(o, p) for o in openers for p in policies]

    # every number against the plain twins
    brute = BruteForce(table.tolist(), word_list.answer_guess_index.tolist())
    full = tuple(range(word_list.n_answers))
    for r in rows:
        opener = word_list.guess_index(r["opener"])
        optimal = brute.guess_cost(opener, full, 6)
        if r["policy"].startswith("mig"):
            prefer = r["policy"] == "mig_b"

            def choose(s, prefer=prefer):
                return naive.mig_choice(table, s, word_list.answer_guess_index, prefer, word_list.n_guesses)
        else:
            def choose(s):
                return naive.rollout_choice(table, s, word_list.answer_guess_index, False, 3,
                                            word_list.n_guesses)[0]
        games = [naive.play(choose, table, a, opener, word_list.n_answers) for a in range(word_list.n_answers)]
        n = word_list.n_answers
        assert int(r["total"]) == sum(games)
        assert r["average"] == f"{sum(games) / n:.4f}"
        assert int(r["max_guesses"]) == max(games)
        assert int(r["failures"]) == sum(g > 6 for g in games)
        assert r["histogram"] == " ".join(str(games.count(k)) for k in range(1, max(6, max(games)) + 1))
        assert int(r["optimal_total"]) == optimal
        assert int(r["gap_total"]) == sum(games) - optimal
        assert r["gap_guesses"] == f"{(sum(games) - optimal) / n:.4f}"
        assert float(r["seconds_per_game"]) >= 0 and r["mode"] == "tree"
    # pinned (this list: legacy answers[::97], guesses answers ∪ legacy guesses[::211])
    assert [(r["policy"], int(r["total"]), int(r["optimal_total"])) for r in rows] == PINNED

    markdown = (out / "gap.md").read_text()
    assert "## Where each policy loses most" in markdown and "![" in markdown
    # resume: a second run reuses every record of the journal and appends nothing
    journal = journal_path("report", directory=out / "results")
    records = Journal.open(journal, report_fingerprint(word_list)).records()
    assert len(records) == 2 + 2 * 3 + 2 * 2  # optima, policies, float twins of mig_a/mig_b
    assert sorted(k for k in records if k.startswith("optimum/")) == sorted(f"optimum/{o}" for o in openers)
    before = journal.read_bytes()
    again = run(args, tmp_path)
    assert again.returncode == 0, again.stderr
    assert journal.read_bytes() == before
    assert (out / "gap.csv").read_text() == "\n".join(
        [",".join(rows[0].keys())] + [",".join(r.values()) for r in rows]) + "\n"


PINNED = [("mig_a", 61, 57), ("mig_b", 57, 57), ("rollout3_a", 61, 57),
          ("mig_a", 61, 56), ("mig_b", 56, 56), ("rollout3_a", 60, 56)]


@pytest.mark.parametrize("args,message", [
    (["--policies", "mig_a,mig_c"], "unknown policy 'mig_c'"),
    (["--policies", "bogus"], "unknown policy 'bogus'"),
    (["--opener", "zzzzz"], "'zzzzz' is not an allowed guess"),
])
def test_bad_input_exits_2(small, tmp_path, args, message):
    directory, word_list, _ = small
    base = {"--opener": word_list.answers[0], "--policies": "mig_a"}
    base.update(dict(zip(args[::2], args[1::2])))
    argv = ["--words", str(directory), "--out", str(tmp_path / "r"), "--jobs", "1"]
    for key, value in base.items():
        argv += [key, value]
    proc = run(argv, tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert not (tmp_path / "r").exists()  # nothing done before validation


def test_bad_word_list_exits_2(tmp_path):
    proc = run(["--words", str(tmp_path / "missing"), "--opener", "salet", "--policies", "mig_a"], tmp_path)
    assert proc.returncode == 2


def test_the_report_takes_its_optimum_from_the_book_solved_once(small, tmp_path, monkeypatch):
    """The gap report's exact optimum is the opening book's tree (one cache of optimal trees,
    keyed by the solver's fingerprint): solved once into the book's cache, then read back."""
    from solver.exact.book import OpeningBook, cache_directory
    from solver.studies.gap_report import run_report

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    _, word_list, _ = small
    opener = word_list.answers[3]
    first = run_report(word_list, [opener], ["mig_a"], tmp_path / "r1", jobs=1, artifacts_dir=())
    optimum = first.optimal[opener]
    assert optimum["source"] == "solved" and optimum["solve_seconds"] >= 0
    cached = cache_directory() / OpeningBook(Game(word_list)).file_name(opener)
    assert optimum["tree_path"] == str(cached.resolve()) and cached.is_file()
    again = run_report(word_list, [opener], ["mig_a"], tmp_path / "r2", jobs=1, artifacts_dir=())
    assert again.optimal[opener]["source"] == "found" and again.optimal[opener]["solve_seconds"] is None
    assert optimum["total"] == again.optimal[opener]["total"] == solve(Game(word_list), opener, jobs=1).total


@pytest.mark.kernels
def test_decision_regrets_against_brute_force(small):
    _, word_list, table = small
    opener = word_list.answers[3]
    solved = solve(Game(word_list), opener, jobs=1)
    exact = ExactPolicy(word_list, table, solved.tree)
    result = score_policy(MIGPolicy(word_list, table, "a"), opener)
    regrets, summary = decision_regrets(exact, result.decisions)
    brute = BruteForce(table.tolist(), word_list.answer_guess_index.tolist())
    expected = []
    for d in result.decisions:
        if len(d.state) < 2:
            continue
        state = tuple(int(a) for a in d.state)
        best, guess = brute.best(state, d.guesses_left)
        after = brute.guess_cost(d.guess, state, d.guesses_left)
        if guess != d.guess and after > best:
            expected.append((state, after - best))
    got = sorted((tuple(word_list.answer_index(w) for w in r.state), r.regret) for r in regrets)
    assert got == sorted(expected)
    assert summary["with_regret"] == len(expected) > 0
    assert [r.regret for r in regrets] == sorted((r.regret for r in regrets), reverse=True)
    for r in regrets:
        assert r.regret == r.q_value - r.value and DecisionRegret.from_json(r.to_json()) == r


def test_registry(small):
    _, word_list, table = small
    for name in ("mig_a", "mig_b", "mig_b_float", "rollout10_a", "rollout100_b", "rollout7_b_p", "exact"):
        assert make_policy(name, word_list, table).name == name
        assert check_policy_name(name.upper()) == name
    policy = make_policy("rollout7_b_p", word_list, table)
    assert (policy.n_candidates, policy.base, policy.rank_answers_first) == (7, "b", True)
    for bad in ("mig_c", "rollout_a", "rollout0_a", "rollout10", "exact2", "nope"):
        with pytest.raises(UnknownPolicyError):
            check_policy_name(bad)
    for single in ("exact", "entropy", "minimax1", "qlearning"):  # one-name families
        with pytest.raises(UnknownPolicyError, match=f"did you mean '{single}'"):
            check_policy_name(single + "x")
        with pytest.raises(UnknownPolicyError, match=f"did you mean '{single}'"):
            make_policy(single + "x", word_list, table)

    def factory(word_list, table, name, suffix):
        if suffix != "x":
            raise UnknownPolicyError(f"unknown policy {name!r}")
        return MIGPolicy(word_list, table, "a")

    register_policy("zz_test_", factory, "zz_test_x")
    assert make_policy("zz_test_x", word_list, table).name == "zz_test_x"
    with pytest.raises(UnknownPolicyError):
        make_policy("zz_test_y", word_list, table)


@pytest.mark.parametrize("key, payload", [
    ("optimum/{opener}", {"opener": "x", "total": "fifty"}),  # a field missing, a field's type
    ("policy/{opener}/mig_a", [1, 2, 3]),                     # not a map
    ("elsewhere/{opener}", {"opener": "x"}),                  # a key this run never writes
])
def test_a_journal_record_of_the_wrong_shape_exits_2_naming_the_file(small, tmp_path, key, payload):
    """Issue 32: a checksum-valid record of the wrong shape gave `internal error: TypeError`;
    every record is checked when the journal is opened, before any work."""
    directory, word_list, _ = small
    opener = word_list.answers[0]
    out = tmp_path / "reports" / "tiny"
    journal = journal_path("report", directory=out / "results")
    Journal.open(journal, report_fingerprint(word_list)).append(key.format(opener=opener), payload)
    before = journal.read_bytes()
    proc = run(["--words", str(directory), "--opener", opener, "--policies", "mig_a", "--out",
                str(tmp_path / "reports"), "--name", "tiny", "--jobs", "1"], tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(f"error: {journal}: the record "), proc.stderr
    assert "is not of the shape this run writes" in proc.stderr and "--no-resume" in proc.stderr
    assert journal.read_bytes() == before  # refused, nothing cut off or overwritten
