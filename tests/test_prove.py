"""The opener proof against the brute force on small lists."""

from __future__ import annotations


import pytest

from conftest import random_sub_list
from naive import INF, BruteForce, table as naive_table
from solver.exact.prove import openers_csv, prove
from solver.game.errors import InputError
from solver.game.wordlists import load_word_list


def small_list(seed, n_answers=25, n_guesses=80):
    return random_sub_list(load_word_list("legacy"), seed, n_answers, n_guesses)


def brute_values(wl, objective, limit=6):
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index), objective)
    everything = tuple(range(wl.n_answers))
    return {wl.guesses[g]: brute.guess_cost(g, everything, limit) for g in range(wl.n_guesses)}


@pytest.mark.kernels
@pytest.mark.parametrize("seed,objective,rank", [(1, "total", 1), (2, "total", 3),
                                                 (3, "worst", 1), (4, "total", 5)])
def test_proof_equals_brute_force(tmp_path, monkeypatch, seed, objective, rank):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(seed)
    truth = brute_values(wl, objective)
    result = prove(wl, objective=objective, rank=rank, jobs=1, resume=False)
    ranked = sorted(v for v in truth.values() if v < INF)
    assert [o.value for o in result.ranked][:rank] == ranked[:rank]
    assert len(result.openers) == wl.n_guesses
    for row in result.openers:
        if row.status == "exact":
            assert row.value == truth[row.opener]
        else:  # a proven bound, and it rules the opener out
            assert row.value <= truth[row.opener] and row.value >= ranked[rank - 1]
    assert openers_csv(result).splitlines()[0] == "opener,status,value,seconds"


def test_bad_requests_are_input_errors():
    wl = small_list(5)
    with pytest.raises(InputError, match="rank"):
        prove(wl, rank=0, jobs=1)
    with pytest.raises(InputError, match="rank"):
        prove(wl, rank=wl.n_guesses + 1, jobs=1)
    with pytest.raises(InputError):
        prove(wl, openers=["zzzzz"], jobs=1)


def _write_list(directory, wl):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "answers.txt").write_text("".join(w + "\n" for w in wl.answers))
    (directory / "guesses.txt").write_text("".join(w + "\n" for w in wl.guesses))
    return directory


@pytest.mark.slow
def test_a_proof_killed_with_sigkill_resumes_without_redoing_work(tmp_path):
    """Kill ``tools.prove`` part-way with SIGKILL; the rerun reloads the journaled openers
    (they are not searched again) and writes the same CSV values as an uninterrupted run."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    words = _write_list(tmp_path / "words", small_list(11, 100, 600))
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"))
    command = [sys.executable, "-m", "tools.prove", "--words", str(words), "--jobs", "1",
               "--rank", "600"]
    journals = tmp_path / "cache" / "journals"
    proc = subprocess.Popen(command + ["--out", str(tmp_path / "killed.csv")], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:  # wait until some openers are journaled
        files = list(journals.glob("prove-*.journal")) if journals.exists() else []
        if files and files[0].stat().st_size > 2000:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not (tmp_path / "killed.csv").exists()
    resumed = subprocess.run(command + ["--out", str(tmp_path / "resumed.csv")], cwd=root,
                             env=env, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    fresh = subprocess.run(command + ["--out", str(tmp_path / "fresh.csv"), "--no-resume"],
                           cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert fresh.returncode == 0, fresh.stderr

    def values(name):
        lines = (tmp_path / name).read_text().splitlines()[1:]
        return [line.rsplit(",", 1)[0] for line in lines]  # drop the seconds

    assert values("resumed.csv") == values("fresh.csv")
    # "<searched> searched (<reused> from the journal)": the resumed run reused the journaled
    # openers and searched only the others
    import re

    def counts(text):
        found = re.search(r"(\d+) searched \((\d+) from the journal\)", text)
        return int(found.group(1)), int(found.group(2))

    resumed_searched, reused = counts(resumed.stdout)
    fresh_searched, fresh_reused = counts(fresh.stdout)
    assert reused > 0 and fresh_reused == 0
    assert resumed_searched == fresh_searched


def test_a_journal_of_other_lists_is_refused(tmp_path, monkeypatch):
    from solver.exact import prove as prove_module
    from solver.exact.journal import ForeignJournalError

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    first, second = small_list(12), small_list(13)
    prove(first, jobs=1, resume=False)
    spec = prove_module.game_spec(first)
    # the second list's proof finds the first list's journal at its own path: refused
    stale = prove_module.journal_path(first, spec, 1, None)
    stale.parent.mkdir(parents=True, exist_ok=True)
    from solver.exact.journal import Journal, run_fingerprint

    Journal.open(stale, run_fingerprint(first, mode="normal", objective="total", guess_limit=6,
                                        kind="prove", rank=1, openers=[]), resume=False).close()
    target = prove_module.journal_path(second, spec, 1, None)
    target.write_bytes(stale.read_bytes())
    with pytest.raises(ForeignJournalError):
        prove(second, jobs=1)
    assert prove(second, jobs=1, resume=False).best.status == "exact"
