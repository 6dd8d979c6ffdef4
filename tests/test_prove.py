"""The opener proof against the brute force on small lists."""

from __future__ import annotations


from solver.game.spec import Game
import numpy as np
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
    result = prove(Game(wl, objective=objective), rank=rank, jobs=1, resume=False)
    ranked = sorted(v for v in truth.values() if v < INF)
    assert [o.value for o in result.ranked][:rank] == ranked[:rank]
    assert len(result.openers) == wl.n_guesses
    for row in result.openers:
        if row.status == "exact":
            assert row.value == truth[row.opener]
        elif objective == "total":  # a proven bound that rules the opener out (ties with
            assert ranked[rank - 1] < row.value <= truth[row.opener]  # the K-th are exact)
        else:  # the worst case's ties are the rule: openers past the last level keep its bound
            assert ranked[rank - 1] <= row.value <= truth[row.opener]
    assert openers_csv(result).splitlines()[0] == "opener,status,value"
    assert openers_csv(result, seconds=True).splitlines()[0] == "opener,status,value,seconds"


@pytest.mark.kernels
@pytest.mark.parametrize("seed,top,rank", [(6, 5, 1), (7, 12, 3), (8, 1, 1)])
def test_top_n_is_the_best_of_the_n_best_bounds(tmp_path, monkeypatch, seed, top, rank):
    from solver.exact.proofs.runner import Job
    from solver.exact.proofs.total import _opener
    from solver.exact.prove import default_csv_path

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(seed)
    truth = brute_values(wl, "total")
    job = Job(wl, Game(wl), 1 << 16)
    bounds = {wl.guesses[g]: _opener(job, g, INF, False) for g in range(wl.n_guesses)}
    assert all(bounds[w] <= truth[w] for w in truth)  # a depth-one bound is a lower bound
    result = prove(Game(wl), rank=rank, top=top, jobs=1, resume=False)
    chosen = {o.opener for o in result.openers}
    assert result.top == top and len(chosen) == top
    # the N considered have the N best bounds (ties are broken by the cheaper keys)
    assert max(bounds[w] for w in chosen) <= min(bounds[w] for w in truth if w not in chosen)
    # exact over those N, brute force's ranking of them
    ranked = sorted(truth[w] for w in chosen if truth[w] < INF)
    assert [o.value for o in result.ranked][:rank] == ranked[:rank]
    for row in result.openers:
        assert row.value == truth[row.opener] if row.status == "exact" else row.value <= truth[row.opener]
    assert result.best.value >= min(truth.values())
    assert default_csv_path(Game(wl), top=top).name.endswith(f"-normal-top{top}-openers.csv")
    full = prove(Game(wl), top=wl.n_guesses, jobs=1, resume=False)
    assert full.best.value == min(truth.values())


def test_bad_requests_are_input_errors():
    wl = small_list(5)
    with pytest.raises(InputError, match="rank"):
        prove(Game(wl), rank=0, jobs=1)
    with pytest.raises(InputError, match="rank"):
        prove(Game(wl), rank=wl.n_guesses + 1, jobs=1)
    with pytest.raises(InputError):
        prove(Game(wl), openers=["zzzzz"], jobs=1)
    with pytest.raises(InputError, match="--top"):
        prove(Game(wl), top=0, jobs=1)
    with pytest.raises(InputError, match="rank"):
        prove(Game(wl), top=2, rank=3, jobs=1)


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
    from solver.runs.journal import _frames

    deadline = time.time() + 120
    while time.time() < deadline:  # wait until some openers are journaled: frames past the header
        files = list(journals.glob("prove-*.journal")) if journals.exists() else []
        # (the header's size grows with the kernel files it fingerprints: count frames, not bytes)
        if files and len(_frames(files[0].read_bytes())) >= 3:
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

    assert (tmp_path / "resumed.csv").read_text() == (tmp_path / "fresh.csv").read_text()
    assert (tmp_path / "resumed.seconds.csv").exists()
    # "<searched> searched (<reused> from the journal)": the resumed run reused the journaled
    # openers and searched only the others
    import re

    def counts(text):
        found = re.search(r"(\d+) searched \((\d+) of them from the journal\)", text)
        return int(found.group(1)), int(found.group(2))

    resumed_searched, reused = counts(resumed.stdout)
    fresh_searched, fresh_reused = counts(fresh.stdout)
    assert reused > 0 and fresh_reused == 0
    assert resumed_searched == fresh_searched


def test_a_journal_of_other_lists_is_refused(tmp_path, monkeypatch):
    from solver.exact.proofs import total as prove_module
    from solver.runs.journal import ForeignJournalError

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    first, second = small_list(12), small_list(13)
    prove(Game(first), jobs=1, resume=False)
    game = Game(first)
    # the second list's proof finds the first list's journal at its own path: refused
    stale = prove_module.proof_journal(game, 1)
    stale.parent.mkdir(parents=True, exist_ok=True)
    from solver.runs.journal import Journal, run_fingerprint

    Journal.open(stale, run_fingerprint(first, mode="normal", objective="total", guess_limit=6,
                                        kind="prove", rank=1, openers=[]), resume=False).close()
    target = prove_module.proof_journal(Game(second), 1)
    target.write_bytes(stale.read_bytes())
    with pytest.raises(ForeignJournalError):
        prove(Game(second), jobs=1)
    assert prove(Game(second), jobs=1, resume=False).best.status == "exact"


@pytest.mark.kernels
def test_the_table_does_not_depend_on_the_workers_or_a_resume(tmp_path, monkeypatch):
    """The same proof run in one process and on two workers, and resumed from a journal cut
    short, gives the same openers table (cut-offs are fixed per batch, bounds read no memo)."""
    from solver.exact.proofs import total as prove_module

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(21, 40, 160)
    one = prove(Game(wl), rank=2, jobs=1, resume=False)
    two = prove(Game(wl), rank=2, jobs=2, resume=False)
    assert openers_csv(two) == openers_csv(one)
    # prove() keeps its journal (the CLI discards it after writing the CSV): keep its first
    # half of records and a torn one, as a SIGKILL part-way would leave it
    from solver.runs.journal import _frames

    path = prove_module.proof_journal(one.game, 2)
    data = path.read_bytes()
    frames = _frames(data)
    assert len(frames) > 4
    cut = frames[len(frames) // 2][1]
    path.write_bytes(data[:cut + 7])
    resumed = prove(Game(wl), rank=2, jobs=1)
    assert 0 < resumed.reused < one.searched + wl.n_guesses
    assert openers_csv(resumed) == openers_csv(one)


@pytest.mark.kernels
@pytest.mark.parametrize("seed", [2, 7])
def test_a_resumed_proof_writes_the_uninterrupted_csv_byte_for_byte(tmp_path, monkeypatch, seed):
    """Issue 23: the openers CSV is a function of the inputs only. Small phases (one seed,
    bound chunks of 8, search batches of 2) give many steps and cut-offs that tighten in the
    search phase; the journal is cut after every record in turn (as a SIGKILL there would
    leave it), and the run is also stopped by Ctrl-C at several points, resumed and stopped
    again: every resumed run writes the uninterrupted run's CSV. (Before the replay, the cuts
    late in the search gave cut-off openers a bound one lower.)"""
    from solver.exact.proofs import total as prove_module
    from solver.runs.journal import _frames

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    monkeypatch.setattr(prove_module, "SEEDS", 1)
    monkeypatch.setattr(prove_module, "BOUND_CHUNK", 8)
    monkeypatch.setattr(prove_module, "RULED_OUT_CHUNK", 16)
    monkeypatch.setattr(prove_module, "SEARCH_BATCH", 2)
    wl, rank = small_list(seed, 40, 120), 4
    fresh = prove(Game(wl), rank=rank, jobs=1, resume=False)
    expected = openers_csv(fresh)
    path = prove_module.proof_journal(fresh.game, rank)
    data = path.read_bytes()
    frames = _frames(data)
    assert len(frames) > 15
    for k in range(1, len(frames)):
        path.write_bytes(data[:frames[k][1]])
        resumed = prove(Game(wl), rank=rank, jobs=1)
        assert openers_csv(resumed) == expected, f"cut after {k} of {len(frames)} records"
        assert resumed.searched == fresh.searched and resumed.reused <= resumed.searched

    reports = []

    def stop_at(calls):
        def progress(info):
            reports.append(info)
            if len(reports) == calls:
                raise KeyboardInterrupt
        return progress

    prove(Game(wl), rank=rank, jobs=1, resume=False, progress=stop_at(10**9))
    total_reports = len(reports)
    for first, second in ((1, 3), (total_reports // 3, 2), (total_reports - 2, 1)):
        reports.clear()
        with pytest.raises(KeyboardInterrupt):
            prove(Game(wl), rank=rank, jobs=1, resume=False, progress=stop_at(first))
        reports.clear()
        with pytest.raises(KeyboardInterrupt):  # resumed, and stopped again
            prove(Game(wl), rank=rank, jobs=1, progress=stop_at(second))
        assert openers_csv(prove(Game(wl), rank=rank, jobs=1)) == expected, (first, second)


@pytest.mark.kernels
def test_openers_ruled_out_by_their_cheap_bound_go_many_to_a_task(tmp_path, monkeypatch):
    """The bounding tasks: openers whose cheap bound is under the cut-off in chunks of
    BOUND_CHUNK, the others (their bound is the cheap one, found at once) in larger chunks;
    every opener once, and the table the same however the openers are chunked."""
    from solver.exact.proofs import total as prove_module
    from solver.exact.proofs.total import bound_chunks

    cheap = np.array([5, 9, 3, 9, 7, INF, 4, 8, 6, 9], dtype=np.int64)
    monkeypatch.setattr(prove_module, "BOUND_CHUNK", 2)
    monkeypatch.setattr(prove_module, "RULED_OUT_CHUNK", 3)
    assert bound_chunks(list(range(10)), cheap, 7) == [[0, 2], [6, 8], [1, 3, 4], [5, 7, 9]]
    assert bound_chunks([9, 5], cheap, INF) == [[9], [5]]
    assert bound_chunks([], cheap, 7) == []

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    monkeypatch.setattr(prove_module, "SEEDS", 2)
    wl = small_list(3, 40, 160)
    tables = set()
    for bound_chunk, ruled_out_chunk in ((128, 4096), (1, 1), (3, 5)):
        monkeypatch.setattr(prove_module, "BOUND_CHUNK", bound_chunk)
        monkeypatch.setattr(prove_module, "RULED_OUT_CHUNK", ruled_out_chunk)
        tables.add(openers_csv(prove(Game(wl), rank=2, jobs=1, resume=False)))
    assert len(tables) == 1


def _tasks_run(client, run):
    """``run()``'s result and how many tasks of each function ran on ``client``'s cluster."""
    from collections import Counter

    from distributed import get_task_stream

    with get_task_stream(client) as stream:
        result = run()
    return result, Counter(str(task["key"]).split("-")[0] for task in stream.data)


def test_a_proof_on_a_threaded_dask_cluster_runs_there_and_equals_the_local_proof(tmp_path,
                                                                                   monkeypatch):
    """Every task goes to the cluster, however few its workers (with one, joblib's dask
    backend ran them in the client), and the openers table is the in-process one."""
    from distributed import Client, LocalCluster

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(25, 30, 120)
    expected = openers_csv(prove(Game(wl), rank=3, jobs=1, resume=False, memory_gb=0.1))
    worst = openers_csv(prove(Game(wl, objective="worst"), jobs=1, resume=False, memory_gb=0.1))
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            remote, ran = _tasks_run(client, lambda: prove(
                Game(wl), rank=3, resume=False, backend="dask", scheduler=cluster.scheduler_address,
                memory_gb=0.1))
            remote_worst, ran_worst = _tasks_run(client, lambda: prove(
                Game(wl, objective="worst"), resume=False, backend="dask",
                scheduler=cluster.scheduler_address, memory_gb=0.1))
        assert openers_csv(remote) == expected, workers
        assert ran["_search_task"] == remote.searched > 0, workers
        assert ran["_bound_task"] >= 2, workers  # the seeds' bounds and the others'
        assert openers_csv(remote_worst) == worst, workers
        assert ran_worst["decide_openers"] >= 1, workers


@pytest.mark.slow
def test_a_proof_on_a_dask_local_cluster_equals_the_local_proof(tmp_path, monkeypatch):
    from distributed import LocalCluster

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(22, 30, 120)
    local = prove(Game(wl), rank=3, jobs=1, resume=False)
    loky = prove(Game(wl), rank=3, jobs=2, resume=False, memory_gb=1)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        remote = prove(Game(wl), rank=3, resume=False, backend="dask",
                       scheduler=cluster.scheduler_address, memory_gb=1)
    assert openers_csv(remote) == openers_csv(local) == openers_csv(loky)
    assert (remote.best.opener, remote.best.value) == (local.best.opener, local.best.value)
    assert remote.searched == local.searched


def test_an_unreachable_scheduler_is_an_input_error():
    wl = small_list(23)
    with pytest.raises(InputError, match="cannot reach the dask scheduler"):
        prove(Game(wl), jobs=1, backend="dask", scheduler="tcp://127.0.0.1:9")
    with pytest.raises(InputError, match="backend"):
        prove(Game(wl), jobs=1, backend="spark")


@pytest.mark.kernels
def test_the_proven_tree_records_its_proof(tmp_path, monkeypatch):
    import policy_tree
    from solver.exact.prove import save_proven_tree

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = small_list(24)
    truth = brute_values(wl, "total")
    result = prove(Game(wl), rank=2, jobs=1, resume=False)
    path = save_proven_tree(result, jobs=1, directory=tmp_path / "artifacts")
    tree = policy_tree.load(path)
    assert tree.opener == result.best.opener
    assert tree.header["total"] == result.best.value == min(truth.values())
    proof = tree.opener_proof
    assert proof == {"openers": wl.n_guesses, "guesses_sha256": wl.guesses_sha256,
                     "others_at_least": result.openers[1].value}
    # with rank 2 the runner-up is exact: the second best value over every opener
    assert proof["others_at_least"] == sorted(truth.values())[1]
    # re-solving the proven opener's tree to the same path keeps the record; another doesn't
    from solver.exact.bellman import solve_and_save

    _, again = solve_and_save(Game(wl), result.best.opener, jobs=1, resume=False,
                              directory=tmp_path / "artifacts")
    assert again == path and policy_tree.load(again).opener_proof == proof
    other = next(o.opener for o in result.openers if o.opener != result.best.opener)
    _, elsewhere = solve_and_save(Game(wl), other, jobs=1, resume=False, directory=tmp_path / "artifacts")
    assert policy_tree.load(elsewhere).opener_proof is None
    partial = prove(Game(wl), openers=wl.guesses[:5], jobs=1, resume=False)
    with pytest.raises(InputError, match="every allowed guess"):
        save_proven_tree(partial, jobs=1, directory=tmp_path / "artifacts")


@pytest.mark.parametrize("arguments,message", [
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"], "cannot reach the dask scheduler"),
    (["--rank", "0"], "--rank"),
    (["--openers", "zzzzz"], "zzzzz"),
    (["--top", "0"], "--top"),
    (["--top", "3", "--tree"], "--tree"),
    (["--objective", "worst", "--top", "3"], "--top is for the total objective"),
])
def test_the_cli_refuses_bad_requests_with_status_2(tmp_path, arguments, message):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    words = _write_list(tmp_path / "words", small_list(25))
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "tools.prove", "--words", str(words), "--jobs", "1",
                           "--out", str(tmp_path / "openers.csv")] + arguments,
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "openers.csv").exists()


@pytest.mark.parametrize("proof, words", [
    ("yes", "opener_proof should be map"),
    ({"openers": 12972, "guesses_sha256": "x"}, "opener_proof['others_at_least']"),
    ({"openers": True, "guesses_sha256": "x", "others_at_least": 7921}, "opener_proof['openers']"),
])
def test_a_damaged_proof_record_is_refused_and_named(tmp_path, proof, words):
    from pathlib import Path

    import msgpack

    import policy_tree
    from policy_tree.artifact import seal
    from policy_tree.errors import CorruptArtifactError

    shipped = Path(__file__).resolve().parents[1] / "artifacts" / "legacy-normal-salet.msgpack"
    document = msgpack.unpackb(shipped.read_bytes(), raw=False)
    assert document["opener_proof"]["others_at_least"] == 7921  # the shipped tree is proven
    document["opener_proof"] = proof
    path = tmp_path / "bad.msgpack"
    path.write_bytes(seal(document))
    with pytest.raises(CorruptArtifactError, match=words.replace("[", r"\[").replace("]", r"\]")):
        policy_tree.load(path)
