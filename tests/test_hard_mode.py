"""Hard mode (docs/algorithms.md §10): the rule's kernels against its definition, the search
against a brute force that carries the allowed guesses in its state, the published SALET
figure, the artifact check and the tools' refusals of illegal histories."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import msgpack

from conftest import random_sub_list
from naive import INF, table as naive_table, tree_from_arrays
from naive_hard import HardBruteForce, allowed, constraint_after, filter_allowed
from solver.exact.bellman import UnwinnableError, solve, solve_from, solve_state
from solver.exact._family_kernel import filter_allowed_sets, letter_sets
from solver.game._hard_mode_kernel import (HARD_MODE, MAX_LENGTH, filter_allowed_packed,
                                            filter_allowed_packed_counted, history_constraint,
                                            constraint_hash, no_constraint, pack_words,
                                            tighten_constraint, tightened_hash)
from solver.game.errors import HardModeError
from solver.game.feedback import feedback_code, words_to_letters
from solver.game.hashing import constraint_keys
from solver.game.hard_mode import check_hard_mode_history, hard_mode_violation
from solver.game.spec import MODES, Game
from solver.game.wordlists import from_words, load_word_list

ROOT = Path(__file__).resolve().parents[1]
HARD_TREE = ROOT / "artifacts" / "legacy-hard-salet.msgpack"


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def test_hard_mode_id_matches_the_spec():
    assert MODES.index("hard") == HARD_MODE


# -- the rule ----------------------------------------------------------------------------------
WORDS = ["salet", "speed", "abide", "eerie", "geese", "lever", "revel", "sheep", "steel", "tepee",
         "elite", "sleet", "leets", "teeth", "ethos", "those", "level", "eagle", "rebel", "emcee"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3), st.sampled_from(WORDS),
       st.sampled_from(WORDS))
def test_filter_and_plain_rule_agree_with_the_definition(played, answer, guess):
    """Repeated letters on both sides: the kernel's filter, the plain-Python rule and the
    definition's twin agree on every (history, guess)."""
    history = [(g, feedback_code(g, answer)) for g in played]
    expected = allowed(history, guess)
    assert (hard_mode_violation(history, guess) is None) == expected
    letters = words_to_letters(WORDS)
    constraint = history_constraint(letters, np.array([WORDS.index(g) for g in played]),
                                    np.array([c for _, c in history]))
    plain = filter_allowed(constraint, letters, np.arange(len(WORDS), dtype=np.int32))
    assert (WORDS.index(guess) in set(plain.tolist())) == expected
    # the kernels' filter (over packed words) keeps the same guesses, in the candidates' order,
    # and its counted twin each with its count
    candidates = np.arange(len(WORDS), dtype=np.int32)[::-1].copy()
    packed = pack_words(letters)
    kept, kept_counts = np.empty_like(candidates), np.empty_like(candidates)
    n_kept = filter_allowed_packed(constraint, packed, letters.shape[1], candidates, kept)
    assert kept[:n_kept].tolist() == sorted(plain.tolist(), reverse=True)
    n_counted = filter_allowed_packed_counted(constraint, packed, letters.shape[1], candidates,
                                              7 * candidates + 3, kept, kept_counts)
    assert n_counted == n_kept and kept[:n_kept].tolist() == sorted(plain.tolist(), reverse=True)
    assert kept_counts[:n_kept].tolist() == [7 * g + 3 for g in kept[:n_kept].tolist()]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(WORDS)), max_size=2),
       st.sampled_from(WORDS), st.integers(0, 3 ** 5 - 1))
def test_tightened_constraint_equals_the_rule_in_words(played, guess, code):
    """The kernel's constraint after a guess and any feedback code (repeated letters, codes no
    answer gives too) is the row the rule's words give, from any earlier constraint; its hash
    taken from the earlier one's and the entries changed is the hash of the whole row."""
    before = no_constraint()
    for previous, answer in played:
        before = constraint_after(before, previous, feedback_code(previous, answer))
    letters = words_to_letters([guess])[0]
    after = np.empty_like(before)
    tighten_constraint(before, letters, code, after)
    assert after.tolist() == constraint_after(before, guess, code).tolist()
    # and its hash, as the search keys a class (from the hash before and the entries changed)
    keys1, keys2 = constraint_keys()
    hash1, hash2 = (np.uint64(h) for h in constraint_hash(before, keys1, keys2))
    assert (tuple(int(h) for h in tightened_hash(before, hash1, hash2, letters, code, keys1, keys2))
            == tuple(int(h) for h in constraint_hash(after, keys1, keys2)))


@pytest.mark.parametrize("words", ["legacy", "wordfreq-4", "wordfreq-7"])
def test_packed_filter_equals_the_filter_on_random_histories(words):
    """The filter over packed words (guard bits, one comparison for every letter count) and
    the filter over the candidates' letter sets (a word of 64 candidates at a time, carrying
    their counts) keep exactly the guesses the plain filter keeps, after random histories of
    one to three guesses on lists of four, five and seven letters, from every guess and from a
    shuffled part of them."""
    word_list = load_word_list(words)
    letters = words_to_letters(word_list.guesses)
    packed = pack_words(letters)
    rng = np.random.default_rng(11)
    everything = np.arange(word_list.n_guesses, dtype=np.int32)
    some = rng.permutation(everything)[:word_list.n_guesses // 3 + 7]
    sets = {len(c): (c, letter_sets(letters, c)) for c in (everything, some)}
    fast = np.empty_like(everything)
    kept_counts = np.empty_like(everything)
    for _ in range(200):
        answer = word_list.answers[rng.integers(word_list.n_answers)]
        played = [int(g) for g in rng.integers(word_list.n_guesses, size=rng.integers(1, 4))]
        constraint = history_constraint(letters, np.array(played), np.array(
            [feedback_code(word_list.guesses[g], answer) for g in played]))
        plain = filter_allowed(constraint, letters, everything)
        n_fast = filter_allowed_packed(constraint, packed, letters.shape[1], everything, fast)
        assert plain.size > 0 and fast[:n_fast].tolist() == plain.tolist()
        for candidates, candidate_sets in sets.values():
            plain = filter_allowed(constraint, letters, candidates)
            counts = 3 * candidates + 1
            n_sets = filter_allowed_sets(constraint, MAX_LENGTH, candidate_sets, candidates,
                                         counts, fast, kept_counts,
                                         np.empty(candidate_sets.shape[1], dtype=np.uint64))
            assert fast[:n_sets].tolist() == plain.tolist()
            assert kept_counts[:n_sets].tolist() == (3 * plain + 1).tolist()


def test_rule_examples():
    code = feedback_code("speed", "abide")  # bbybb y: e yellow once, d yellow
    history = [("speed", code)]
    assert hard_mode_violation(history, "abide") is None
    assert hard_mode_violation(history, "salty") == "it must contain 'e'"
    two_greens = [("geese", feedback_code("geese", "eerie"))]  # e green at 2 and 5, one more e
    assert hard_mode_violation(two_greens, "eerie") is None
    assert hard_mode_violation(two_greens, "tepee") is None  # e at 2 and 5, three e in all
    assert hard_mode_violation(two_greens, "steel") == "position 2 must stay 'e'"
    assert hard_mode_violation(two_greens, "beige") == "it must contain 'e' 3 times"
    with pytest.raises(HardModeError, match=r"guess 2 \(salty\) is not allowed in hard mode"):
        check_hard_mode_history(history + [("salty", 0)])


# -- the search against the brute force -------------------------------------------------------
def clustered_list(legacy, seed, n_answers, n_guesses):
    """Answers sharing letters (so that hard mode bites): legacy answers with a common letter in
    a common place, plus random guesses."""
    rng = random.Random(seed)
    position, letter = rng.randrange(5), rng.choice("aeiorst")
    pool = [w for w in legacy.answers if w[position] == letter]
    answers = rng.sample(pool, min(n_answers, len(pool)))
    chosen = set(answers)
    others = rng.sample([w for w in legacy.guesses if w not in chosen], n_guesses - len(answers))
    return from_words(answers, answers + others, name=f"cluster{seed}")


CASES = [  # (kind, seed, answers, guesses, guess limit, objective)
    ("random", 1, 14, 40, 6, "total"), ("random", 2, 18, 45, 4, "total"),
    ("cluster", 3, 16, 40, 6, "total"), ("cluster", 4, 20, 40, 4, "total"),
    ("cluster", 5, 12, 45, 3, "total"), ("cluster", 6, 16, 40, 6, "worst"),
    ("random", 7, 16, 40, 4, "worst"), ("cluster", 8, 18, 35, 5, "total"),
]
# The brute force carries the allowed set in its memo key: these take 10 s or more each.
SLOW_CASES = {2, 3, 4, 8}
CASES = [pytest.param(*case, marks=pytest.mark.slow) if case[1] in SLOW_CASES else case
         for case in CASES]


def case_list(legacy, kind, seed, n_answers, n_guesses):
    if kind == "random":
        return random_sub_list(legacy, seed, n_answers, n_guesses)
    return clustered_list(legacy, seed, n_answers, n_guesses)


@pytest.mark.parametrize("kind,seed,n_answers,n_guesses,limit,objective", CASES)
@pytest.mark.kernels
def test_hard_mode_value_guess_and_tree_equal_brute_force(legacy, kind, seed, n_answers,
                                                          n_guesses, limit, objective):
    wl = case_list(legacy, kind, seed, n_answers, n_guesses)
    brute = HardBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers), objective)
    everything = tuple(range(wl.n_answers))
    all_guesses = frozenset(range(wl.n_guesses))
    value, guess = brute.best(everything, all_guesses, limit)
    if value >= INF:
        with pytest.raises(UnwinnableError):
            solve_state(Game(wl, objective=objective, mode="hard"), everything, limit)
        return
    assert solve_state(Game(wl, objective=objective, mode="hard"), everything, limit) == (
        value, wl.guesses[guess])
    # the whole tree from the brute force's opener, and from a history of two guesses
    result = solve(Game(wl, guess_limit=limit, objective=objective, mode="hard"), wl.guesses[guess],
                   jobs=1, resume=False)
    assert result.value == value and result.game.hard
    assert tree_from_arrays(result.tree) == brute.tree(everything, all_guesses, limit)


def family_list(legacy, pattern):
    """The legacy answers matching ``pattern`` (a family like ``.ight``: one letter apart) and
    the 12 guesses that split them into the most classes: normal mode's way out of the family,
    which hard mode closes once the family's greens are shown."""
    import re

    from solver.game.feedback import feedback_table

    table = feedback_table(legacy)
    answers = [w for w in legacy.answers if re.fullmatch(pattern, w)]
    columns = [legacy.answer_index(a) for a in answers]
    classes = np.array([len(np.unique(table[g, columns])) for g in range(legacy.n_guesses)])
    splitters = [legacy.guesses[g] for g in np.argsort(-classes, kind="stable")
                 if legacy.guesses[g] not in answers][:12]
    return from_words(answers, answers + splitters, name=pattern.replace(".", "_"))


FAMILIES = [  # (pattern, opener: the family's last answer, guess limit, hard total or INF, normal total)
    (".ight", "wight", 8, INF, 28), (".ound", "wound", 6, INF, 25), (".ound", "wound", 8, 36, 25),
    (".a.ch", "watch", 8, 33, 27), ("s..ll", "swill", 6, 35, 33), ("..ill", "swill", 6, 31, 29),
]


@pytest.mark.parametrize("pattern,opener,limit,hard_total,normal_total", FAMILIES)
@pytest.mark.kernels
def test_hard_mode_costs_more_on_word_families_as_the_brute_force_says(
        legacy, pattern, opener, limit, hard_total, normal_total):
    """After the family's greens hard mode may only guess inside the family (one answer a
    guess): it costs more than normal mode, or cannot win in time. The totals are the brute
    forces' (pinned), and the solver must agree with both."""
    from naive import BruteForce

    wl = family_list(legacy, pattern)
    table = naive_table(wl.guesses, wl.answers)
    everything = tuple(range(wl.n_answers))
    g = wl.guesses.index(opener)
    hard = HardBruteForce(wl.guesses, wl.answers, table).cost(g, everything, frozenset(range(wl.n_guesses)), limit)
    normal = BruteForce(table, list(wl.answer_guess_index)).guess_cost(g, everything, limit)
    assert (hard, normal) == (hard_total, normal_total)
    assert solve(Game(wl, guess_limit=limit), opener, jobs=1, resume=False).total == normal
    if hard >= INF:
        with pytest.raises(UnwinnableError, match=f"within {limit} guesses"):
            solve(Game(wl, guess_limit=limit, mode="hard"), opener, jobs=1, resume=False)
    else:
        result = solve(Game(wl, guess_limit=limit, mode="hard"), opener, jobs=1, resume=False)
        assert result.total == hard
        assert tree_from_arrays(result.tree) == HardBruteForce(
            wl.guesses, wl.answers, table).tree(everything, frozenset(range(wl.n_guesses)), limit, g)


@pytest.mark.kernels
def test_solve_from_a_hard_mode_history_equals_brute_force(legacy):
    wl = clustered_list(legacy, 4, 20, 40)
    brute = HardBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers))
    answer = wl.answers[3]
    first = wl.answers[0]
    history = [(first, feedback_code(first, answer))]
    state = tuple(a for a in range(wl.n_answers)
                  if feedback_code(first, wl.answers[a]) == history[0][1])
    allowed_set = brute.after(frozenset(range(wl.n_guesses)), wl.guesses.index(first), history[0][1])
    value, guess = brute.best(state, allowed_set, 5)
    solution = solve_from(Game(wl, mode="hard"), history)
    if len(state) == 1 and wl.answers[state[0]] == first:
        assert solution.value == 0
    else:
        assert (solution.value, solution.next_guess) == (value, wl.guesses[guess])


def test_solve_from_refuses_an_illegal_hard_mode_history(legacy):
    history = [("salet", "bbbbg"), ("crony", "bbbbb")]  # t green: crony drops it
    with pytest.raises(HardModeError, match=r"guess 2 \(crony\) .* position 5 must stay 't'"):
        solve_from(Game(legacy, mode="hard"), history)


# -- the published figure and the artifact -----------------------------------------------------
@pytest.mark.slow
def test_salet_hard_mode_total_is_8122(legacy):
    """Bertsimas & Paskov's hard-mode figure for SALET: 8122 (3.50842)."""
    result = solve(Game(legacy, mode="hard"), "salet", jobs=2, resume=False)
    assert result.total == 8122
    import policy_tree
    from solver.exact.bellman import artifact_bytes

    loaded = policy_tree.decode(artifact_bytes(result))
    assert loaded.mode == "hard" and policy_tree.verify(loaded).ok


@pytest.mark.slow
def test_shipped_hard_tree_verifies_and_a_normal_tree_labelled_hard_does_not():
    import policy_tree
    from policy_tree.artifact import seal

    hard = policy_tree.load(HARD_TREE)
    assert hard.mode == "hard" and hard.total == 8122
    assert policy_tree.verify(hard).ok
    # written by `tools.prove --mode hard --tree`: the proof's record, as its openers table says
    assert hard.opener_proof["openers"] == 12972
    with open(ROOT / "artifacts" / "legacy-hard-openers.csv") as handle:
        rows = [line.strip().split(",") for line in handle][1:]
    assert rows[0] == ["salet", "exact", "8122"] and len(rows) == 12972
    assert hard.opener_proof["others_at_least"] == min(int(r[2]) for r in rows[1:]) == 8123
    normal_bytes = (ROOT / "artifacts" / "legacy-normal-salet.msgpack").read_bytes()
    relabelled = policy_tree.decode(seal(dict(msgpack.unpackb(normal_bytes, raw=False), mode="hard")))
    assert relabelled.mode == "hard"
    report = policy_tree.verify(relabelled)
    assert not report.ok and any("illegal in hard mode" in f for f in report.failures)


def run_tool(*args):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
def test_tree_next_on_the_hard_tree_refuses_an_illegal_history():
    # salet:bbbbg keeps t in place; crony drops it
    done = run_tool("tools.tree", "next", str(HARD_TREE), "salet:bbbbg", "crony:bbbbb")
    assert done.returncode == 2, done.stderr
    assert "not allowed in hard mode" in done.stderr and "crony" in done.stderr


@pytest.mark.slow
def test_assist_hard_mode_refuses_an_illegal_history_and_answers_a_legal_one():
    done = run_tool("tools.assist", "--mode", "hard", "salet:bbbbg", "crony:bbbbb")
    assert done.returncode == 2 and "position 5 must stay 't'" in done.stderr
    done = run_tool("tools.assist", "--mode", "hard", "--json", "--no-tree", "salet:bbbbg")
    assert done.returncode == 0, done.stderr
    import json

    advice = json.loads(done.stdout)
    assert advice["status"] == "exact" and advice["alternatives"]
    history = [("salet", 162)]  # bbbbg: t stays last
    for word in [advice["next_guess"]] + [a["guess"] for a in advice["alternatives"]]:
        assert word.endswith("t") and hard_mode_violation(history, word) is None


def test_unknown_mode_exits_2():
    done = run_tool("tools.solve", "--mode", "easy")
    assert done.returncode == 2 and "invalid choice: 'easy'" in done.stderr
