"""The least guaranteed maximum (docs/algorithms.md §9.5): the yes/no kernel and the level-by-
level opener proof against the brute forces, in normal and hard mode."""

from __future__ import annotations

import numpy as np
from solver.game.spec import Game
import pytest

from conftest import random_sub_list
from naive import INF, BruteForce, table as naive_table
from naive_hard import HardBruteForce
from naive_worst import every_opener_least_worst_case
from solver.exact.bellman import search_rules
from solver.exact.prove import openers_csv, prove
from solver.game.errors import InputError
from solver.game._hard_mode_kernel import HARD_MODE
from solver.game.feedback import feedback_table
from solver.game.hashing import zobrist_keys
from solver.game.wordlists import from_words, load_word_list


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def family_list(legacy, seed, n_answers, n_guesses):
    """Answers that share four letters in place (hatch, catch, …): sets no single guess splits,
    so that some states need three or four guesses in the worst case."""
    import random

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


def kernel_state(wl, limit):
    from solver.exact._guarantee_kernel import guarantee_workspace
    from solver.game._memo_kernel import memo_arrays

    table = feedback_table(wl)
    z1, z2 = zobrist_keys(wl.n_answers)
    return (table, z1, z2, memo_arrays(1 << 14),
            guarantee_workspace(limit, wl.n_guesses, wl.n_answers, 243),
            search_rules(Game(wl)))


def candidate_orders(table):
    """The two ways the kernels may be handed every guess: in index order with no class counts
    known (a large count each), and most classes on all answers first with those counts (what
    the proof hands them), checked against a plain count."""
    from solver.exact._guarantee_kernel import guesses_by_class_count

    n_guesses = table.shape[0]
    guesses, counts = guesses_by_class_count(table, 243)
    plain = [len(set(table[g].tolist())) for g in range(n_guesses)]
    assert guesses.tolist() == sorted(range(n_guesses), key=lambda g: (-plain[g], g))
    assert counts.tolist() == [plain[g] for g in guesses.tolist()]
    return [(np.arange(n_guesses, dtype=np.int32), np.full(n_guesses, 1 << 20, dtype=np.int32)),
            (guesses, counts)]


# least worst cases of their openers (brute force): 3 | 4-5 | 5-6 | 4-5 | 4-5 | 6 or none
LISTS = [("random", 1, 20, 60), ("family", 2, 18, 50), ("family", 3, 22, 40),
         ("family", 5, 16, 30), ("family", 9, 24, 60), ("family", 11, 25, 35)]


def make_list(legacy, kind, seed, n_answers, n_guesses):
    if kind == "random":
        return random_sub_list(legacy, seed, n_answers, n_guesses)
    return family_list(legacy, seed, n_answers, n_guesses)


@pytest.mark.kernels
@pytest.mark.parametrize("kind,seed,n_answers,n_guesses", LISTS)
def test_wins_equals_the_brute_force_on_every_class(legacy, kind, seed, n_answers, n_guesses):
    """Normal mode: for every opener and every class it leaves, wins(C, d) is exactly
    "the brute force's least worst case of C is at most d", for d = 1..6."""
    from solver.exact._guarantee_kernel import wins

    wl = make_list(legacy, kind, seed, n_answers, n_guesses)
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index), "worst")
    outcomes = set()
    for everything, counts in candidate_orders(feedback_table(wl)):
        table, z1, z2, memo, workspace, rules = kernel_state(wl, 6)  # a fresh memo per order
        for g in range(wl.n_guesses):
            for code in sorted(set(table[g].tolist()) - {242}):
                cls = np.flatnonzero(table[g] == code).astype(np.int32)
                for d in range(1, 7):
                    expected = brute.value(tuple(cls.tolist()), d) <= d
                    got = wins(cls, d, everything, counts, table, z1, z2, memo, workspace, 0,
                               rules)
                    assert got == expected, (wl.guesses[g], code, d)
                    outcomes.add((len(cls) > 2, d, expected))
    # with families, classes of ≥ 3 answers that are won and others that are not, with the
    # same number of guesses left (≥ 2)
    if kind == "family":
        assert any((True, d, True) in outcomes and (True, d, False) in outcomes
                   for d in range(2, 7))


@pytest.mark.kernels
@pytest.mark.parametrize("kind,seed,n_answers,n_guesses", LISTS[1:5])
def test_opener_wins_in_hard_mode_equals_the_brute_force(legacy, kind, seed, n_answers,
                                                         n_guesses):
    """Hard mode: each opener's yes/no against the brute force that carries the
    allowed guesses in its state, limits 2..6; a no names a class the brute force cannot win in time."""
    wl = make_list(legacy, kind, seed, n_answers, n_guesses)
    brute = HardBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers), "worst")
    check_opener_wins(wl, brute, HARD_MODE, range(2, 7))


def check_opener_wins(wl, brute, mode, limits):
    """opener_wins of every opener and limit in ``limits`` under ``mode`` (the hard-mode
    kernel's id) against ``brute``, a hard- or ultra-mode brute force of the worst case: yes
    exactly when the brute force wins within the limit, and both answers occur; a no names a
    class the brute force cannot win with the guesses left."""
    from solver.exact._guarantee_kernel import opener_wins

    all_guesses = frozenset(range(wl.n_guesses))
    state = tuple(range(wl.n_answers))
    seen = set()
    truths = {}
    for everything, counts in candidate_orders(feedback_table(wl)):
        table, z1, z2, memo, workspace, rules = kernel_state(wl, 6)  # a fresh memo per order
        for g in range(wl.n_guesses):
            for limit in limits:
                if (g, limit) not in truths:
                    truths[g, limit] = brute.cost(g, state, all_guesses, limit) <= limit
                truth = truths[g, limit]
                pattern = opener_wins(g, limit, table, z1, z2, memo, workspace, mode, rules,
                                      everything, counts)
                assert (pattern < 0) == truth, (wl.guesses[g], limit)
                seen.add(truth)
                if pattern >= 0:
                    cls = tuple(int(a) for a in np.flatnonzero(table[g] == pattern))
                    allowed = brute.after(all_guesses, g, int(pattern))
                    assert brute.best(cls, allowed, limit - 1)[0] > limit - 1
    assert seen == {True, False}


def brute_worst(wl, mode, limit=6):
    return every_opener_least_worst_case(wl, mode, limit)


@pytest.mark.kernels
@pytest.mark.parametrize("kind,seed,n_answers,n_guesses,mode,rank", [
    ("family", 2, 18, 50, "normal", 1), ("family", 3, 22, 40, "hard", 1),
    ("random", 4, 30, 45, "normal", 4), ("family", 5, 16, 30, "hard", 3),
    ("family", 11, 25, 35, "normal", 2)])
def test_the_least_maximum_proof_equals_the_brute_force(tmp_path, monkeypatch, legacy, kind, seed,
                                                        n_answers, n_guesses, mode, rank):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = make_list(legacy, kind, seed, n_answers, n_guesses)
    truth = brute_worst(wl, mode)
    result = prove(Game(wl, objective="worst", mode=mode), rank=rank, jobs=1, resume=False)
    least = min(truth.values())
    assert result.best.value == least < INF
    assert len(result.openers) == wl.n_guesses
    assert len(result.ranked) >= rank
    assert sorted(o.value for o in result.ranked)[:rank] == sorted(truth.values())[:rank]
    for row in result.openers:
        if row.status == "exact":
            assert row.value == truth[row.opener]
        else:  # a proven bound; every opener at least the level below the last
            assert result.ranked[-1].value <= row.value <= truth[row.opener]
    # every phase but the last decided every opener
    assert list(result.phase_seconds) == [f"within {k}" for k in range(1, result.ranked[-1].value + 1)]


@pytest.mark.kernels
def test_the_worst_case_table_does_not_depend_on_the_workers_or_a_resume(tmp_path, monkeypatch,
                                                                        legacy):
    from solver.exact.proofs import total as prove_module
    from solver.runs.journal import _frames

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = random_sub_list(legacy, 7, 60, 200)
    one = prove(Game(wl, objective="worst"), rank=2, jobs=1, resume=False)
    two = prove(Game(wl, objective="worst"), rank=2, jobs=2, resume=False)
    assert openers_csv(two) == openers_csv(one)
    path = prove_module.proof_journal(one.game, 2)
    data = path.read_bytes()
    frames = _frames(data)
    assert len(frames) > 4
    path.write_bytes(data[:frames[len(frames) // 2][1] + 7])  # half the records, one torn
    resumed = prove(Game(wl, objective="worst"), rank=2, jobs=1)
    assert openers_csv(resumed) == openers_csv(one)
    complete = prove(Game(wl, objective="worst"), rank=2, jobs=1)  # every decision journaled now
    assert 0 < resumed.reused < complete.reused
    assert openers_csv(complete) == openers_csv(one)


# -- every opener's least worst case (--all) ----------------------------------------------------
@pytest.mark.kernels
@pytest.mark.parametrize("kind,seed,n_answers,n_guesses,mode,limit", [
    ("random", 1, 20, 60, "normal", 6), ("family", 2, 18, 50, "normal", 6),
    ("family", 3, 22, 40, "normal", 6), ("family", 11, 25, 35, "normal", 6),
    ("family", 11, 25, 35, "normal", 7), ("family", 2, 18, 50, "hard", 6),
    ("family", 3, 22, 40, "hard", 6), ("family", 9, 24, 60, "hard", 6)])
def test_every_openers_least_worst_case_equals_the_brute_force(tmp_path, monkeypatch, legacy, kind,
                                                               seed, n_answers, n_guesses, mode,
                                                               limit):
    """``all_openers``: every row exact, each opener's value (INF: not within the guess limit)
    == the brute force's least worst case; the rows best first in the proof's order; the
    levels go on past the best one up to the limit while some opener has not won."""
    from solver.exact.prove import least_worst_case_counts

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = make_list(legacy, kind, seed, n_answers, n_guesses)
    truth = every_opener_least_worst_case(wl, mode, limit)
    result = prove(Game(wl, objective="worst", mode=mode, guess_limit=limit), jobs=1,
                   resume=False, all_openers=True)
    assert all(row.status == "exact" for row in result.openers)
    assert {row.opener: row.value for row in result.openers} == truth
    assert len(result.openers) == wl.n_guesses
    assert [row.value for row in result.openers] == sorted(truth.values())
    counts = least_worst_case_counts(result)
    assert counts == {v: list(truth.values()).count(v) for v in sorted(set(truth.values()))}
    worst = max(truth.values())
    last = limit if worst >= INF else worst
    assert list(result.phase_seconds) == [f"within {k}" for k in range(1, last + 1)]
    # the usual proof's exact rows agree, and its bounds are below the values found here
    usual = prove(Game(wl, objective="worst", mode=mode, guess_limit=limit), jobs=1, resume=False)
    for row in usual.openers:
        assert row.value == truth[row.opener] if row.status == "exact" else row.value <= truth[row.opener]


def test_the_lists_of_the_all_tests_cover_every_outcome(legacy):
    """The lists above hold openers at 3, 4, 5, 6 and beyond 6 guesses (normal and hard), so
    the levels past the best one and the INF rows are exercised."""
    seen = set()
    for kind, seed, n_answers, n_guesses, mode in [("random", 1, 20, 60, "normal"),
                                                   ("family", 2, 18, 50, "normal"),
                                                   ("family", 3, 22, 40, "hard"),
                                                   ("family", 11, 25, 35, "normal")]:
        seen |= set(every_opener_least_worst_case(make_list(legacy, kind, seed, n_answers, n_guesses),
                                                  mode).values())
    assert {3, 4, 5, 6, INF} <= seen


@pytest.mark.kernels
def test_every_openers_table_is_the_same_after_a_resume(tmp_path, monkeypatch, legacy):
    """An ``all_openers`` run stopped part-way (its journal cut, one record torn) resumes to the
    same CSV byte for byte, with 2 workers too; a finished journal answers every decision."""
    from solver.exact.proofs import total as prove_module
    from solver.runs.journal import _frames

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = make_list(legacy, "family", 3, 22, 40)
    game = Game(wl, objective="worst")
    one = prove(game, jobs=1, resume=False, all_openers=True)
    assert {row.value for row in one.openers} == {5, 6}
    path = prove_module.proof_journal(game, 1, all_openers=True)
    assert path.name.startswith("prove-worst-all-") and path != prove_module.proof_journal(game, 1)
    data = path.read_bytes()
    frames = _frames(data)
    assert len(frames) > 6
    path.write_bytes(data[:frames[len(frames) - 2][1] + 7])  # the last level's record lost
    resumed = prove(game, jobs=2, all_openers=True)
    assert openers_csv(resumed) == openers_csv(one)
    complete = prove(game, jobs=1, all_openers=True)
    assert 0 < resumed.reused < complete.reused == sum(
        min(row.value, 6) for row in one.openers)  # opener o decided at levels 1..W(o)
    assert openers_csv(complete) == openers_csv(one)


def test_all_is_refused_where_it_has_no_meaning(legacy):
    wl = random_sub_list(legacy, 8, 20, 40)
    with pytest.raises(InputError, match="--all is for --objective worst"):
        prove(Game(wl), jobs=1, all_openers=True)
    with pytest.raises(InputError, match="--rank"):
        prove(Game(wl, objective="worst"), rank=2, jobs=1, all_openers=True)


@pytest.mark.kernels
def test_the_cli_writes_every_openers_least_worst_case(tmp_path, monkeypatch, legacy):
    """``tools.prove --objective worst --all`` in a subprocess: the CSV holds every opener's
    brute-force value (``inf`` beyond the limit, no lower_bound row), and what it prints is
    counted from those rows."""
    import csv
    import os
    import re
    import subprocess
    import sys

    wl = make_list(legacy, "family", 11, 25, 35)
    truth = every_opener_least_worst_case(wl, "normal")
    words = tmp_path / "words"
    words.mkdir()
    (words / "answers.txt").write_text("".join(w + "\n" for w in wl.answers))
    (words / "guesses.txt").write_text("".join(w + "\n" for w in wl.guesses))
    out = tmp_path / "openers.csv"
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    env = dict(os.environ, COLUMNS="200")
    command = [sys.executable, "-m", "tools.prove", "--words", str(words), "--objective", "worst",
               "--all", "--jobs", "1", "--out", str(out)]
    done = subprocess.run(command, cwd=ARTIFACTS.parent, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    with open(out, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {r["opener"]: r["value"] for r in rows} == {
        w: "inf" if v >= INF else str(v) for w, v in truth.items()}
    assert {r["status"] for r in rows} == {"exact"}
    sixes, beyond = list(truth.values()).count(6), list(truth.values()).count(INF)
    assert sixes and beyond
    assert (f"proven for every opener: {sixes} openers win every game within 6 but not 5; "
            f"{beyond} openers do not win every game within 6 guesses") in done.stdout
    assert re.search(rf"│\s+more than 6 │\s+{beyond} │", done.stdout)
    assert re.search(rf"within 6: {len(rows)} decided, {sixes} win", done.stdout)
    assert not prove_module_journal(wl).exists()  # finished: the journal is gone
    # a rerun (nothing to resume) writes the same bytes
    first = out.read_bytes()
    done = subprocess.run(command, cwd=ARTIFACTS.parent, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == first
    # --all with the total objective: a clear error, exit status 2
    done = subprocess.run(command[:5] + ["--all", "--jobs", "1", "--out", str(out)],
                          cwd=ARTIFACTS.parent, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 2 and "do not apply" in done.stderr


def prove_module_journal(wl):
    from solver.exact.proofs import total as prove_module

    return prove_module.proof_journal(Game(wl, objective="worst"), 1, all_openers=True)


@pytest.mark.parametrize("all_openers", [False, True])
def test_no_opener_in_time_is_unwinnable(tmp_path, monkeypatch, legacy, all_openers):
    from solver.exact.bellman import UnwinnableError

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = make_list(legacy, *LISTS[5])  # every opener needs 6 guesses or more
    with pytest.raises(UnwinnableError, match="within 5 guesses"):
        prove(Game(wl, objective="worst", guess_limit=5), jobs=1, resume=False,
              all_openers=all_openers)


def test_top_is_refused_for_the_worst_case(legacy):
    wl = random_sub_list(legacy, 8, 20, 40)
    with pytest.raises(InputError, match="--top"):
        prove(Game(wl, objective="worst"), top=5, jobs=1)


# -- the legacy lists --------------------------------------------------------------------------
ARTIFACTS = __import__("pathlib").Path(__file__).resolve().parents[1] / "artifacts"


def legacy_decisions(legacy, mode, limit, openers):
    """{opener: pattern of a class it cannot win in time, or -1} from the kernel."""
    from solver.exact._guarantee_kernel import (guarantee_workspace, guesses_by_class_count,
                                                 opener_wins)
    from solver.game._memo_kernel import memo_arrays

    table = feedback_table(legacy)
    z1, z2 = zobrist_keys(legacy.n_answers)
    memo = memo_arrays(1 << 22)
    workspace = guarantee_workspace(6, legacy.n_guesses, legacy.n_answers, 243)
    rules = search_rules(Game(legacy))
    everything, counts = guesses_by_class_count(table, 243)
    mode_id = 1 if mode == "hard" else 0
    return {w: int(opener_wins(legacy.guess_index(w), limit, table, z1, z2, memo, workspace,
                               mode_id, rules, everything, counts)) for w in openers}


@pytest.mark.slow
def test_legacy_no_sampled_opener_wins_within_4_and_the_known_ones_win_within_5(legacy):
    """The proof's key facts, recomputed on a seeded sample: no opener guarantees 4 (normal
    mode); SALET guarantees 5 in normal mode but not in hard mode, where DEALT does."""
    import random

    sample = random.Random(0).sample(legacy.guesses, 80) + ["salet", "trace", "crane"]
    assert all(p >= 0 for p in legacy_decisions(legacy, "normal", 4, sample).values())
    # the sample and the last openers of the shipped `--all` table (the fewest classes) win 5
    last = [line.split(",")[0] for line in
            (ARTIFACTS / "legacy-normal-worst-openers.csv").read_text().splitlines()[-20:]]
    assert set(legacy_decisions(legacy, "normal", 5, sample + last).values()) == {-1}
    hard = legacy_decisions(legacy, "hard", 5, ["salet", "dealt"])
    assert hard["dealt"] == -1 and hard["salet"] >= 0


def test_the_shipped_nyt_2024_table_gives_every_opener_its_least_worst_case():
    """`tools.prove --objective worst --all --words nyt-2024`: one exact row per allowed guess,
    each 5 (no opener guarantees 4 there either), in the proof's order (TRACE first)."""
    import csv

    nyt = load_word_list("nyt-2024")
    with open(ARTIFACTS / "nyt-2024-normal-worst-openers.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert sorted(r["opener"] for r in rows) == sorted(nyt.guesses)
    assert rows[0]["opener"] == "trace"
    assert {(r["status"], r["value"]) for r in rows} == {("exact", "5")}


@pytest.mark.parametrize("mode,opener", [("normal", "trace"), ("hard", "dealt")])
def test_the_shipped_worst_case_proofs_and_trees_agree(legacy, mode, opener):
    """The committed openers tables of `tools.prove --objective worst` prove the least
    guaranteed maximum 5 over all 12,972 openers, and the tree beside them records it."""
    import csv

    import policy_tree

    with open(ARTIFACTS / f"legacy-{mode}-worst-openers.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == legacy.n_guesses == len({r["opener"] for r in rows})
    assert rows[0] == {"opener": opener, "status": "exact", "value": "5"}
    assert all(int(r["value"]) >= 5 for r in rows)
    assert all(r["value"] == "5" for r in rows if r["status"] == "exact")
    assert {r["value"] for r in rows if r["status"] == "lower_bound"} <= {"5", "6"}
    if mode == "normal":  # the table of `--all`: every opener's exact least worst case
        assert all(r["status"] == "exact" for r in rows)
    tree = policy_tree.load(ARTIFACTS / f"legacy-{mode}-worst-{opener}.msgpack")
    assert (tree.opener, tree.header["objective"], tree.header["mode"]) == (opener, "worst", mode)
    assert tree.header["max_guesses"] == 5
    assert tree.opener_proof == {"openers": legacy.n_guesses,
                                 "guesses_sha256": legacy.guesses_sha256, "others_at_least": 5}
