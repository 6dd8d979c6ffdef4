"""The opener tables (docs/algorithms.md §9.7): every opener's exact value and its second
guesses against the brute force, the shards' bytes, resumption, damage, the CLI, and the
shipped tables against the solver and the opener proofs."""

from __future__ import annotations

import csv
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import random_sub_list
from naive import INF, BruteForce, table as naive_table
from naive_hard import HardBruteForce
from policy_tree.errors import ArtifactError, CorruptArtifactError
from policy_tree.opener_table import (OpenerTable, TableStatus, decode_shard, read_shard,
                                      read_table_csv, shard_path, table_csv)
from solver.game.spec import Game
from solver.game.wordlists import from_words, load_word_list

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "artifacts" / "tables"


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def family_list(legacy, seed, n_answers, n_guesses):
    """Answers that share four letters in place (hatch, catch, …), so that some openers cannot
    win every game within 6 and some classes need the deep search."""
    rng = random.Random(seed)
    groups: dict[str, list[str]] = {}
    for word in legacy.answers:
        for i in range(5):
            groups.setdefault(word[:i] + "_" + word[i + 1:], []).append(word)
    large = sorted((g for g in groups.values() if len(g) >= 5), key=lambda g: (-len(g), g))
    answers: list[str] = []
    for group in rng.sample(large[:12], 3):
        answers += [w for w in group if w not in answers]
    answers = sorted(answers[:n_answers])
    chosen = set(answers)
    others = rng.sample([w for w in legacy.guesses if w not in chosen], n_guesses - len(answers))
    return from_words(answers, answers + others, name=f"family{seed}")


def brute_rows(wl, mode):
    """{opener: (value, {code: (class value, class guess)})} by the plain recursion, the classes
    of at least 3 answers only (those the shards store)."""
    table = naive_table(wl.guesses, wl.answers)
    state = tuple(range(wl.n_answers))
    truth = {}
    if mode == "normal":
        brute = BruteForce(table, list(wl.answer_guess_index))
    else:
        brute = HardBruteForce(wl.guesses, wl.answers, table)
        everything = frozenset(range(wl.n_guesses))
    for g, opener in enumerate(wl.guesses):
        classes = {}
        groups = {}
        for a in state:
            groups.setdefault(table[g][a], []).append(a)
        for code, members in sorted(groups.items()):
            if code == 242 or len(members) < 3:
                continue
            if mode == "normal":
                classes[code] = brute.best(tuple(members), 5)
            else:
                classes[code] = brute.best(tuple(members), brute.after(everything, g, code), 5)
        value = (brute.guess_cost(g, state, 6) if mode == "normal"
                 else brute.cost(g, state, everything, 6))
        truth[opener] = (value, {code: (v, guess if v < INF else -1)
                                 for code, (v, guess) in classes.items()})
    return truth


def built(tmp_path, game, **kwargs):
    from solver.exact.proofs.table import build_table

    kwargs.setdefault("jobs", 1)
    kwargs.setdefault("memory_gb", 0.5)
    return build_table(game, directory=tmp_path / "tables", **kwargs)


LISTS = [("random", 1, 20, 60), ("family", 2, 18, 50), ("family", 11, 25, 35)]


def make_list(legacy, kind, seed, n_answers, n_guesses):
    if kind == "random":
        return random_sub_list(legacy, seed, n_answers, n_guesses)
    return family_list(legacy, seed, n_answers, n_guesses)


@pytest.mark.kernels
@pytest.mark.parametrize("mode", ["normal", "hard"])
@pytest.mark.parametrize("kind,seed,n_answers,n_guesses", LISTS)
@pytest.mark.parametrize("prepared", ["shipped", "every class"])
def test_every_opener_and_its_second_guesses_equal_the_brute_force(
        tmp_path, monkeypatch, legacy, mode, kind, seed, n_answers, n_guesses, prepared):
    """Every opener's row (exact value, or unwinnable) and every stored class's value and first
    optimal guess equal the plain recursion's, whether the classes are searched on the
    worker's workspace or each as a state asked alone (the threshold below every class)."""
    from solver.exact.proofs import table as table_module

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    if prepared == "every class":
        monkeypatch.setattr(table_module, "PREPARED_MIN", 3)
    wl = make_list(legacy, kind, seed, n_answers, n_guesses)
    truth = brute_rows(wl, mode)
    result = built(tmp_path, Game(wl, mode=mode))
    assert result.finished and result.complete == result.shards == 1
    rows = {row.opener: row for row in result.rows}
    assert set(rows) == set(wl.guesses)
    table = OpenerTable.open(wl, mode, directory=tmp_path / "tables")
    outcomes = set()
    for opener, (value, classes) in truth.items():
        row = rows[opener]
        if value >= INF:
            assert (row.status, row.value) == (TableStatus.UNWINNABLE, INF), opener
        else:
            assert (row.status, row.value) == (TableStatus.EXACT, value), opener
        outcomes.add(row.status)
        entry = table.require_entry(opener)
        assert entry.value == min(value, INF)
        got = {int(c): (int(v), int(h)) for c, v, h in zip(entry.codes, entry.values, entry.guesses)}
        assert got == classes, opener
        for code, expected in classes.items():
            assert table.second_guess(opener, code) == expected
    if kind == "family" and seed == 11:  # the lists cover both outcomes
        assert outcomes == {TableStatus.EXACT, TableStatus.UNWINNABLE}


@pytest.mark.kernels
def test_a_table_is_the_same_bytes_whatever_the_workers_and_resumptions(tmp_path, monkeypatch,
                                                                         legacy):
    """Built at once with one worker, with two, and shard by shard with a resumption from the
    journal after a shard was lost: the same CSV and shards, byte for byte."""
    import policy_tree.opener_table as format_module
    from solver.exact.proofs import table as table_module

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(table_module, "SHARD_SIZE", 16)
    monkeypatch.setattr(format_module, "SHARD_SIZE", 16)
    wl = random_sub_list(legacy, 5, 40, 70)
    game = Game(wl)

    def files(directory):
        return {p.relative_to(directory).as_posix(): p.read_bytes()
                for p in sorted(directory.rglob("*")) if p.is_file() and "seconds" not in p.name}

    one = built(tmp_path / "one", game, resume=False)
    assert one.shards == 5 and one.finished
    reference = files(tmp_path / "one" / "tables")
    assert len(reference) == 6  # the CSV and five shards
    two = built(tmp_path / "two", game, jobs=2, resume=False)
    assert two.computed == wl.n_guesses
    assert files(tmp_path / "two" / "tables") == reference
    # shard by shard: 0 and 1 first; the table is partial, its other rows pending
    part = built(tmp_path / "three", game, resume=False, shards=[0, 1])
    assert sorted(part.written) == [0, 1] and not part.finished
    pending = [row for row in part.rows if row.status is TableStatus.PENDING]
    assert len(pending) == wl.n_guesses - 32
    assert read_table_csv(tmp_path / "three" / "tables" / part.csv.name) == part.rows
    # shard 1 lost: its openers come back from the journal, the rest is computed
    shard_path(tmp_path / "three" / "tables", part.name, 1).unlink()
    rest = built(tmp_path / "three", game)
    assert rest.reused == 32 and rest.computed == wl.n_guesses - 32
    assert files(tmp_path / "three" / "tables") == reference
    # a shard written by another run meanwhile (sharing the journal) is read, not recomputed
    import shutil

    four = tmp_path / "four" / "tables" / one.name
    four.mkdir(parents=True)

    def another_run_writes(shard, into, when):
        """A progress callback: once ``when`` openers are computed, shard ``shard`` of run one
        appears in run ``into``'s directory (written by another run)."""
        def callback(info):
            if info["computed"] == when:
                shutil.copyfile(shard_path(tmp_path / "one" / "tables", one.name, shard),
                                shard_path(tmp_path / into / "tables", one.name, shard))
        return callback

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache-four"))
    meanwhile = built(tmp_path / "four", game, resume=False, progress=another_run_writes(3, "four", when=1))
    assert meanwhile.computed == wl.n_guesses - 16 and 3 not in meanwhile.written
    # and a shard another run wrote after this one's last opener: in the CSV too
    five = tmp_path / "five" / "tables" / one.name
    five.mkdir(parents=True)

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache-five"))
    last = built(tmp_path / "five", game, resume=False, shards=[0],
                 progress=another_run_writes(4, "five", when=16))
    assert last.written == [0]
    assert sum(r.status is not TableStatus.PENDING for r in last.rows) == 16 + wl.n_guesses - 64
    assert read_table_csv(last.csv) == last.rows
    assert meanwhile.finished and files(tmp_path / "four" / "tables") == reference
    # complete: a rerun reads and checks the shards, searches nothing, writes the same CSV
    again = built(tmp_path / "three", game)
    assert again.computed == 0 and again.written == [] and again.finished
    assert files(tmp_path / "three" / "tables") == reference


@pytest.mark.kernels
def test_a_table_built_on_a_dask_local_cluster_is_the_same(tmp_path, monkeypatch, legacy):
    """--backend dask without a scheduler: a LocalCluster of two workers builds the same bytes
    as one process."""
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    wl = random_sub_list(legacy, 9, 30, 50)
    one = built(tmp_path / "one", Game(wl), resume=False)
    dask = built(tmp_path / "dask", Game(wl), resume=False, backend="dask", jobs=2)
    assert dask.computed == wl.n_guesses
    for name in ("csv",):
        assert dask.csv.read_bytes() == one.csv.read_bytes(), name
    assert (shard_path(tmp_path / "dask" / "tables", dask.name, 0).read_bytes()
            == shard_path(tmp_path / "one" / "tables", one.name, 0).read_bytes())


def test_a_damaged_shard_is_refused_naming_the_file(tmp_path, monkeypatch, legacy):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    wl = random_sub_list(legacy, 6, 20, 40)
    result = built(tmp_path, Game(wl))
    path = shard_path(tmp_path / "tables", result.name, 0)
    data = bytearray(path.read_bytes())
    assert decode_shard(bytes(data), path, wl).openers.size == wl.n_guesses
    for at in (len(data) // 3, len(data) // 2, len(data) - 40):
        damaged = bytearray(data)
        damaged[at] ^= 0x10
        path.write_bytes(bytes(damaged))
        with pytest.raises(ArtifactError) as error:
            read_shard(path, wl)
        assert str(path) in str(error.value)
        with pytest.raises(ArtifactError):
            built(tmp_path, Game(wl))
    path.write_bytes(bytes(data[:-5]))
    with pytest.raises(CorruptArtifactError, match="truncated"):
        read_shard(path, wl)
    path.write_bytes(bytes(data))  # intact again: read and kept
    assert built(tmp_path, Game(wl)).computed == 0
    # a CSV row changed: refused with the line
    csv_file = tmp_path / "tables" / f"{result.name}.csv"
    lines = csv_file.read_text().splitlines()
    lines[1] = lines[1].replace(",exact,", ",exact,x")
    csv_file.write_text("\n".join(lines) + "\n")
    with pytest.raises(CorruptArtifactError, match="line 2"):
        read_table_csv(csv_file)


def test_the_tables_refuse_what_they_do_not_cover(legacy):
    from solver.exact.proofs.table import build_table
    from solver.game.errors import InputError

    wl = random_sub_list(legacy, 6, 20, 40)
    for game, message in ((Game(wl, objective="worst"), "total objective"),
                          (Game(wl, mode="ultra"), "normal and hard"),
                          (Game(wl, feedback="yellow"), "standard feedback")):
        with pytest.raises(InputError, match=message):
            build_table(game, jobs=1)
    with pytest.raises(InputError, match="shard 3 is out of range"):
        build_table(Game(wl), jobs=1, shards=[3])


def write_lists(wl, directory):
    directory.mkdir()
    (directory / "answers.txt").write_text("".join(w + "\n" for w in wl.answers))
    (directory / "guesses.txt").write_text("".join(w + "\n" for w in wl.guesses))
    return directory


def test_the_cli_builds_checks_and_recomputes_a_table(tmp_path, monkeypatch, legacy):
    """``tools.prove --all`` in a subprocess: the CSV equals the brute force's values, what it
    prints is counted from the rows, a rerun writes the same bytes, ``--openers`` agrees with
    the shards (exit 0) and finds a shard whose value was changed (exit 1), and options that do
    not apply are refused (exit 2)."""
    from policy_tree.artifact import seal
    from policy_tree.opener_table import FORMAT

    wl = family_list(legacy, 11, 25, 35)
    truth = brute_rows(wl, "normal")
    words = write_lists(wl, tmp_path / "words")
    tables = tmp_path / "tables"
    env = dict(os.environ, COLUMNS="200", EXACT_WORDLE_CACHE=str(tmp_path / "cache"))
    command = [sys.executable, "-m", "tools.prove", "--words", str(words), "--all", "--jobs", "1",
               "--tables-dir", str(tables), "--memory-gb", "0.5"]

    def run(*extra):
        return subprocess.run(command + list(extra), cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=600)

    done = run()
    assert done.returncode == 0, done.stderr
    name = f"{wl.output_name}-normal-total"
    with open(tables / f"{name}.csv", newline="") as handle:
        rows = {r["opener"]: r for r in csv.DictReader(handle)}
    assert {w: r["value"] for w, r in rows.items()} == {
        w: "inf" if v >= INF else str(v) for w, (v, _) in truth.items()}
    finite = sorted((v, w) for w, (v, _) in truth.items() if v < INF)
    unwinnable = sum(1 for v, _ in truth.values() if v >= INF)
    assert unwinnable
    assert (f"every opener decided: the best is {finite[0][1]}, {finite[0][0]}; every other "
            f"opener's value is at least {finite[1][0]} ({unwinnable} cannot win every game "
            f"within 6)") in done.stdout
    first = (tables / f"{name}.csv").read_bytes()
    shard = shard_path(tables, name, 0)
    shard_bytes = shard.read_bytes()
    done = run()
    assert done.returncode == 0, done.stderr
    assert (tables / f"{name}.csv").read_bytes() == first and shard.read_bytes() == shard_bytes
    assert "0 openers searched" in done.stdout
    some = ",".join(w for _, w in finite[:3])
    done = run("--openers", some)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(" yes ") + done.stdout.count("yes │") >= 3
    # a shard whose first value is off by one (sealed again, so it reads): found, exit 1
    import msgpack

    document = msgpack.unpackb(shard_bytes, raw=False)
    document.pop("checksums")
    assert document["format"] == FORMAT
    values = np.frombuffer(document["values"], dtype=document["dtypes"]["values"]).copy()
    values[0] += 1
    document["values"] = values.tobytes()
    shard.write_bytes(seal(document))
    opener = wl.guesses[int(np.frombuffer(document["openers"], dtype=document["dtypes"]["openers"])[0])]
    done = run("--openers", opener)
    assert done.returncode == 1 and "1 of 1 openers differ" in done.stderr
    done = run("--rank", "2")
    assert done.returncode == 2 and "do not apply" in done.stderr
    done = run("--shards", "2-1")
    assert done.returncode == 2 and "runs backwards" in done.stderr


# -- the shipped tables ---------------------------------------------------------------------

def shipped_tables():
    return sorted(p.stem for p in TABLES.glob("*.csv")) if TABLES.is_dir() else []


def open_shipped(name):
    list_name, mode = name.rsplit("-", 2)[0], name.rsplit("-", 2)[1]
    wl = load_word_list(list_name)
    return wl, mode, OpenerTable.open(wl, mode, directory=TABLES)


def test_the_legacy_table_is_shipped():
    """The legacy normal-mode table is shipped, with at least its first shard (the best
    openers): the tests below then check real rows."""
    assert "legacy-normal-total" in shipped_tables()
    wl, _, table = open_shipped("legacy-normal-total")
    assert table.entry("salet") is not None


@pytest.mark.parametrize("name", shipped_tables())
def test_a_shipped_table_agrees_with_the_opener_proof(name):
    """Every decided row agrees with the opener proof's CSV: an exact value there is the
    table's, a lower bound there is at most the table's; the table's best row is the proof's
    best when the table's first shard is in."""
    wl, mode, table = open_shipped(name)
    proof = ROOT / "artifacts" / f"{wl.output_name}-{mode}-openers.csv"
    with open(proof, newline="") as handle:
        proven = {r["opener"]: r for r in csv.DictReader(handle)}
    decided = [row for row in table.rows if row.status is not TableStatus.PENDING]
    assert decided
    for row in decided:
        other = proven[row.opener]
        if other["status"] == "exact":
            assert row.status is TableStatus.EXACT and row.value == int(other["value"]), row
        else:
            assert other["value"] == "inf" or row.value >= int(other["value"]), row
    best = min(decided, key=lambda row: (row.value, row.opener))
    proof_best = next(iter(proven.values()))
    if table.entry(proof_best["opener"]) is not None:
        assert (best.opener, best.value) == (proof_best["opener"], int(proof_best["value"]))


@pytest.mark.parametrize("name", shipped_tables())
def test_a_shipped_table_holds_the_trees_second_guesses(name):
    """Where a shipped decision tree's opener is in the table: its value is the tree's total,
    and every stored class's guess and value are the tree's second guess and that subtree's
    total."""
    import policy_tree
    from solver.game.feedback import feedback_table
    from solver.game.files import ARTIFACTS_DIR

    wl, mode, table = open_shipped(name)
    P = feedback_table(wl)
    answers = np.arange(wl.n_answers)
    checked = 0
    for path in sorted(ARTIFACTS_DIR.glob(f"{wl.output_name}-{mode}-*.msgpack")) + sorted(
            (ARTIFACTS_DIR / "book").glob(f"{wl.output_name}-{mode}-*.msgpack")):
        tree = policy_tree.load(path)
        header = tree.header
        if (header["objective"] != "total" or header.get("priors") is not None
                or tree.feedback != "standard" or header["guess_limit"] != 6):
            continue
        entry = table.entry(tree.opener)
        if entry is None:
            continue
        arrays = tree.tree
        assert entry.value == header["total"] == subtree_total(arrays, 0, answers, P), path
        stored = dict(zip(entry.codes.tolist(), zip(entry.values.tolist(), entry.guesses.tolist())))
        codes = P[int(arrays.node_guess[0])]
        seen = 0
        for e in range(int(arrays.edge_start[0]), int(arrays.edge_start[1])):
            code, child = int(arrays.edge_feedback[e]), int(arrays.edge_child[e])
            members = answers[codes == code]
            if len(members) >= 3:
                assert stored[code] == (subtree_total(arrays, child, members, P),
                                        int(arrays.node_guess[child])), (path, code)
                seen += 1
        assert seen == len(stored)
        checked += 1
    assert checked or name != "legacy-normal-total"


def subtree_total(arrays, node, members, P):
    """Σ over the answers ``members`` of the guesses the tree plays for them from ``node``
    (its guess counts 1), replayed with the feedback table ``P``."""
    g = int(arrays.node_guess[node])
    total = len(members)
    codes = P[g, members]
    for e in range(int(arrays.edge_start[node]), int(arrays.edge_start[node + 1])):
        below = members[codes == int(arrays.edge_feedback[e])]
        total += subtree_total(arrays, int(arrays.edge_child[e]), below, P)
    return total


@pytest.mark.slow
@pytest.mark.parametrize("name", shipped_tables())
def test_a_seeded_sample_of_a_shipped_table_is_recomputed(name):
    """12 rows of each shipped table (seeded, among its decided rows) recomputed by the solver
    equal the shipped rows and classes. (The poorest openers are the slowest to recompute,
    QAJAQ 47 s: a seeded sample holds them as often as the table does.)"""
    from solver.exact.proofs.table import recompute

    wl, mode, table = open_shipped(name)
    decided = [row for row in table.rows if row.status is not TableStatus.PENDING]
    words = [row.opener for row in random.Random(2026).sample(decided, min(12, len(decided)))]
    assert len(set(words)) == min(12, len(decided))
    for word, entry in zip(words, recompute(Game(wl, mode=mode), words, jobs=-1)):
        stored = table.require_entry(word)
        assert entry.value == stored.value, word
        assert entry.codes.tolist() == stored.codes.tolist()
        assert entry.values.tolist() == stored.values.tolist()
        assert entry.guesses.tolist() == stored.guesses.tolist()


def test_table_csv_round_trips():
    from policy_tree.opener_table import TableRow

    rows = [TableRow("b", TableStatus.EXACT, 10), TableRow("a", TableStatus.EXACT, 10),
            TableRow("c", TableStatus.UNWINNABLE, INF), TableRow("d", TableStatus.PENDING, None),
            TableRow("e", TableStatus.EXACT, 9)]
    text = table_csv(rows)
    assert text.splitlines() == ["opener,status,value", "e,exact,9", "a,exact,10", "b,exact,10",
                                 "c,unwinnable,inf", "d,pending,"]


@pytest.mark.kernels
@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_play_and_analysis_read_moves_one_and_two_from_the_table(tmp_path, monkeypatch, legacy,
                                                                  mode):
    """With a table shipped and no tree: the next guess after any first guess comes from the
    table (exact, equal to the solver's answer for that history), and an analysis has exact
    values for moves 1 and 2 within a tiny budget, equal to the unbudgeted solver's."""
    import solver.game.files as files
    from solver.evaluation.analysis import analyse_game
    from solver.exact.advice import EXACT, Source
    from solver.exact.bellman import solve_from
    from solver.exact.service import SearchService

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    wl = random_sub_list(legacy, 8, 40, 80)
    game = Game(wl, mode=mode)
    built(tmp_path / "shipped", game)
    monkeypatch.setattr(files, "shipped_artifacts_dir", lambda: tmp_path / "shipped")
    service = SearchService(game, book=False, jobs=1)
    P = service.table
    rng = random.Random(3)
    table = service.opener_table
    assert table is not None
    for opener in rng.sample(wl.guesses, 6):
        codes = P[wl.guess_index(opener)]
        for code in sorted(set(codes.tolist()) - {242}):
            advice = service.advise([(opener, code)], top=0)
            truth = solve_from(game, [(opener, code)], jobs=1)
            assert (advice.status, advice.source) == (EXACT, Source.TABLE)
            assert advice.value == truth.value
            assert advice.next_guess == wl.guesses[int(truth.tree.node_guess[0])]
    # an analysis within a small budget: moves 1 and 2 exact, as without a budget
    for opener in rng.sample(wl.guesses, 3):
        answer = rng.choice(wl.answers)
        a = wl.answer_index(answer)
        second = service.advise([(opener, int(P[wl.guess_index(opener), a]))], top=0).next_guess
        words = [opener, second if second != opener else wl.guesses[0]]
        if words[-1] != answer:
            words.append(answer)
        history = [(w, int(P[wl.guess_index(w), a])) for w in words]
        quick = analyse_game(game, history, budget=0.2, service=service)
        slow = analyse_game(game, history, service=SearchService(game, book=False, jobs=1))
        for move_quick, move_slow in zip(quick.moves[:2], slow.moves[:2]):
            assert move_quick.value_exact and move_quick.q_value is not None
            assert (move_quick.value, move_quick.q_value) == (move_slow.value, move_slow.q_value)


def run_opener(*args):
    env = dict(os.environ, COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "tools.opener", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_opener_command_reads_value_rank_ties_and_worst_case_from_the_tables():
    """``tools.opener`` in a subprocess, every figure checked against the shipped table's rows
    and the worst-case proof's CSV."""
    import json

    wl, _, table = open_shipped("legacy-normal-total")
    exact = [row for row in table.rows if row.status is TableStatus.EXACT]
    best = exact[0]
    tied_value = next(v for v in sorted({r.value for r in exact})
                      if sum(1 for r in exact if r.value == v) >= 2)
    tied = sorted(r.opener for r in exact if r.value == tied_value)
    done = run_opener(best.opener, tied[0], "--words", "legacy")
    assert done.returncode == 0, done.stderr
    rank = 1 + sum(1 for r in exact if r.value < tied_value)
    assert f"{best.opener} (legacy, normal): {best.value} guesses over 2315 answers" in done.stdout
    assert f"rank {rank} " in done.stdout and f"tied with {len(tied) - 1} other" in done.stdout
    assert f"gap +{tied_value - best.value} guesses" in done.stdout
    assert "least worst case: 5 guesses" in done.stdout  # every legacy opener wins within 5
    done = run_opener(tied[0], "--words", "legacy", "--json")
    report = json.loads(done.stdout)
    assert (report["value"], report["rank"], report["tied"], report["source"]) == (
        tied_value, rank, len(tied) - 1, "table")
    assert report["decided"] == sum(1 for r in table.rows if r.status is not TableStatus.PENDING)
    done = run_opener("zzzzz", "--words", "legacy")
    assert done.returncode == 2 and "zzzzz" in done.stderr
    pending = [row.opener for row in table.rows if row.status is TableStatus.PENDING]
    if pending:  # while the table is partial: an opener it lacks is labelled so
        done = run_opener(pending[0], "--words", "legacy", "--no-search")
        assert done.returncode == 0 and "not in the opener table yet" in done.stdout


def test_a_lookup_needs_no_search_and_so_no_compiling(legacy_table, tmp_path, monkeypatch):
    """``needs_search`` (which decides whether a first run compiles the kernels before
    answering): a tree's node or a state the table holds, with at most the answer listed, is a
    lookup; alternatives, or a state off every tree and table, need the search."""
    from solver.exact.service import SearchService

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))  # the shipped trees only
    word_list, table = legacy_table
    service = SearchService(Game(word_list), table=table)
    steps = service.normalise
    assert not service.needs_search([], top=5)  # the book's and the table's openers
    assert not service.needs_search(steps(["reast:bbbbb"]), top=0)  # the table
    assert not service.needs_search(steps(["reast:bbbbb"]), top=1)
    assert service.needs_search(steps(["reast:bbbbb"]), top=5)  # alternatives are searched
    assert not service.needs_search(steps(["salet:bbbby"]), top=0)  # the tree
    assert service.needs_search(steps(["reast:bbbbb", "godly:bbbbb"]), top=0)  # off both
    assert not service.needs_search(steps(["crane:ggggg"]), top=5)  # won


def test_every_decided_opener_of_the_shipped_table_has_its_entry():
    """Every opener the shipped legacy table has decided is found in its shards, looked up in
    the table's order and then in the reverse order, each from a fresh table object (each
    shard's first bytes say which openers it holds, and are kept for the next lookups)."""
    wl, _, table = open_shipped("legacy-normal-total")
    decided = [row for row in table.rows if row.status is not TableStatus.PENDING]
    assert len(decided) >= 512
    for rows in (decided, decided[::-1]):
        fresh = OpenerTable.open(wl, "normal", directory=TABLES)
        for row in rows:
            assert fresh.require_entry(row.opener).value == row.value, row
