"""Ultra-hard mode (docs/algorithms.md §10.5): the rule's kernels against its definition, the
search and the opener proof against a brute force that carries the allowed guesses in its state
(tests/naive_ultra.py), the published SALET figure, the artifact check and the tools' refusals
of a guess that could not be the answer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgpack
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from naive import INF, table as naive_table, tree_from_arrays
from naive_hard import allowed as hard_allowed
from naive_ultra import UltraBruteForce, consistent
from solver.exact.bellman import UnwinnableError, solve, solve_from, solve_state
from solver.game._hard_mode_kernel import (ULTRA_MODE, filter_consistent,
                                            filter_consistent_counted, pair_feedback)
from solver.game.errors import HardModeError
from solver.game.feedback import code_to_text, feedback_code, words_to_letters
from solver.game.hard_mode import allowed_guesses, check_mode_history, ultra_violation
from solver.game.spec import MODES, Game
from solver.game.wordlists import load_word_list
from test_hard_mode import WORDS, case_list, family_list
from twin_checks import check_proof_rows, opener_values

ROOT = Path(__file__).resolve().parents[1]
ULTRA_TREE = ROOT / "artifacts" / "legacy-ultra-salet.msgpack"


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def test_ultra_mode_id_matches_the_spec():
    assert MODES.index("ultra") == ULTRA_MODE


# -- the rule ----------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3), st.sampled_from(WORDS),
       st.sampled_from(WORDS))
def test_filter_and_plain_rule_agree_with_the_definition(played, answer, guess):
    """Repeated letters on both sides: the kernels' pair feedback is the feedback, and the
    kernel's filter, the plain-Python rule and the definition's twin agree on every (history,
    guess); whatever ultra-hard mode allows, hard mode allows."""
    letters = words_to_letters(WORDS)
    assert pair_feedback(letters[WORDS.index(guess)], letters[WORDS.index(answer)]) == \
        feedback_code(guess, answer)
    history = [(g, feedback_code(g, answer)) for g in played]
    expected = consistent(history, guess)
    assert (ultra_violation(history, guess) is None) == expected
    kept = np.arange(len(WORDS), dtype=np.int32)
    counts = 7 * kept + 3  # (each guess's label, carried by the counted filter)
    for g, code in history:
        out = np.empty_like(kept)
        out_counts = np.empty_like(kept)
        n_kept = filter_consistent_counted(letters, WORDS.index(g), code, kept, counts, out,
                                           out_counts)
        assert n_kept == filter_consistent(letters, WORDS.index(g), code, kept, out)
        kept, counts = out[:n_kept].copy(), out_counts[:n_kept].copy()
    assert (WORDS.index(guess) in set(kept.tolist())) == expected
    assert counts.tolist() == [7 * g + 3 for g in kept.tolist()]
    if expected:
        assert hard_allowed(history, guess)


def test_rule_examples(legacy):
    history = [("salet", feedback_code("salet", "mount"))]  # bbbbg
    assert ultra_violation(history, "mount") is None
    # toast keeps the green t (hard mode allows it) but would have shown s and a
    assert ultra_violation(history, "toast") == \
        "had it been the answer, salet would have shown yybbg, not bbbbg"
    with pytest.raises(HardModeError, match=r"guess 2 \(toast\) is not allowed in ultra-hard "
                                            r"mode: had it been the answer, salet would"):
        check_mode_history("ultra", history + [("toast", 0)])
    check_mode_history("hard", history + [("toast", 0)])  # legal in hard mode
    allowed = [legacy.guesses[g] for g in allowed_guesses(legacy, history, "ultra")]
    assert "mount" in allowed and "toast" not in allowed
    assert all(feedback_code("salet", w) == history[0][1] for w in allowed)
    # not only answers: a consistent word of the guess list is allowed
    assert any(w not in set(legacy.answers) for w in allowed)


# -- the search against the brute force -------------------------------------------------------
CASES = [  # (kind, seed, answers, guesses, guess limit, objective)
    ("random", 1, 14, 40, 6, "total"), ("cluster", 3, 16, 40, 6, "total"),
    ("cluster", 5, 12, 45, 3, "total"), ("cluster", 6, 16, 40, 6, "worst"),
    ("cluster", 14, 16, 40, 4, "worst"),
]


@pytest.mark.parametrize("kind,seed,n_answers,n_guesses,limit,objective", CASES)
@pytest.mark.kernels
def test_ultra_value_guess_and_tree_equal_brute_force(legacy, kind, seed, n_answers, n_guesses,
                                                      limit, objective):
    wl = case_list(legacy, kind, seed, n_answers, n_guesses)
    brute = UltraBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers), objective)
    everything = tuple(range(wl.n_answers))
    all_guesses = frozenset(range(wl.n_guesses))
    value, guess = brute.best(everything, all_guesses, limit)
    assert value < INF
    assert solve_state(Game(wl, objective=objective, mode="ultra"), everything, limit) == (
        value, wl.guesses[guess])
    result = solve(Game(wl, guess_limit=limit, objective=objective, mode="ultra"),
                   wl.guesses[guess], jobs=1, resume=False)
    assert result.value == value and result.game.ultra
    assert tree_from_arrays(result.tree) == brute.tree(everything, all_guesses, limit)


def test_cluster_14_plays_another_opener_in_ultra_than_in_hard_mode(legacy):
    """The brute forces' pinned answers: the same least maximum, 3, but hard mode's first
    optimal guess ROGUE has no ultra-hard tree within 3 guesses, so ultra-hard mode plays GEOID."""
    from naive_hard import HardBruteForce

    wl = case_list(legacy, "cluster", 14, 16, 40)
    table = naive_table(wl.guesses, wl.answers)
    everything, all_guesses = tuple(range(wl.n_answers)), frozenset(range(wl.n_guesses))
    hard = HardBruteForce(wl.guesses, wl.answers, table, "worst").best(everything, all_guesses, 4)
    ultra = UltraBruteForce(wl.guesses, wl.answers, table, "worst").best(everything, all_guesses, 4)
    assert (hard[0], wl.guesses[hard[1]]) == (3, "rogue")
    assert (ultra[0], wl.guesses[ultra[1]]) == (3, "geoid")


FAMILIES = [  # (pattern, guess limit, hard total, ultra total): the brute forces' values
    (".ight", 8, 22, 24),
]


@pytest.mark.parametrize("pattern,limit,hard_total,ultra_total", FAMILIES)
@pytest.mark.kernels
def test_ultra_mode_costs_more_than_hard_mode_where_the_brute_force_says(
        legacy, pattern, limit, hard_total, ultra_total):
    """On a word family, hard mode may still guess a word that uses a gray letter again to
    tell the family apart; ultra-hard mode may not. The totals are the brute forces' (pinned),
    and the solver agrees with both."""
    from naive_hard import HardBruteForce

    wl = family_list(legacy, pattern)
    table = naive_table(wl.guesses, wl.answers)
    everything, all_guesses = tuple(range(wl.n_answers)), frozenset(range(wl.n_guesses))
    hard = HardBruteForce(wl.guesses, wl.answers, table).best(everything, all_guesses, limit)[0]
    brute = UltraBruteForce(wl.guesses, wl.answers, table)
    ultra, guess = brute.best(everything, all_guesses, limit)
    assert (hard, ultra) == (hard_total, ultra_total)
    assert solve_state(Game(wl, mode="hard"), everything, limit)[0] == hard
    assert solve_state(Game(wl, mode="ultra"), everything, limit) == (ultra, wl.guesses[guess])
    result = solve(Game(wl, guess_limit=limit, mode="ultra"), wl.guesses[guess], jobs=1,
                   resume=False)
    assert tree_from_arrays(result.tree) == brute.tree(everything, all_guesses, limit)


@pytest.mark.kernels
def test_solve_from_an_ultra_history_equals_brute_force(legacy):
    wl = case_list(legacy, "cluster", 4, 20, 40)
    brute = UltraBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers))
    answer = wl.answers[3]
    first = wl.guesses[-1]  # a guess outside the answers: its class keeps non-answer words
    code = feedback_code(first, answer)
    state = tuple(a for a in range(wl.n_answers) if feedback_code(first, wl.answers[a]) == code)
    allowed_set = brute.after(frozenset(range(wl.n_guesses)), wl.n_guesses - 1, code)
    assert any(wl.guesses[h] not in set(wl.answers) for h in allowed_set) or len(state) > 0
    value, guess = brute.best(state, allowed_set, 5)
    solution = solve_from(Game(wl, mode="ultra"), [(first, code)])
    assert (solution.value, solution.next_guess) == (value, wl.guesses[guess])


def test_solve_from_refuses_an_inconsistent_history(legacy):
    with pytest.raises(HardModeError, match=r"guess 2 \(toast\) .* salet would have shown yybbg"):
        solve_from(Game(legacy, mode="ultra"), [("salet", "bbbbg"), ("toast", "bbbbg")])


def test_ultra_mode_takes_only_the_standard_feedback(legacy):
    from solver.game.errors import InputError

    with pytest.raises(InputError, match="ultra-hard mode .* yellow"):
        Game(legacy, mode="ultra", feedback="yellow")


def test_an_opener_that_cannot_win_in_time_is_said_to_be_so(legacy):
    """The .ight family in 6 guesses: the brute force finds no ultra-hard tree from WIGHT,
    and the solver says which class cannot be won."""
    wl = family_list(legacy, ".ight")
    table = naive_table(wl.guesses, wl.answers)
    brute = UltraBruteForce(wl.guesses, wl.answers, table)
    g = wl.guesses.index("wight")
    assert brute.cost(g, tuple(range(wl.n_answers)), frozenset(range(wl.n_guesses)), 6) >= INF
    with pytest.raises(UnwinnableError, match="cannot all be won within 6 guesses"):
        solve(Game(wl, guess_limit=6, mode="ultra"), "wight", jobs=1, resume=False)


# -- the opener proofs -------------------------------------------------------------------------
@pytest.mark.kernels
@pytest.mark.parametrize("pattern,limit", [("..ill", 6), (".ight", 8)])
def test_ultra_opener_proof_equals_the_brute_force(legacy, pattern, limit):
    from solver.exact.proofs.total import prove

    wl = family_list(legacy, pattern)
    brute = UltraBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers))
    values = opener_values(wl, brute, limit)
    assert min(values.values()) < INF
    check_proof_rows(prove(Game(wl, limit, mode="ultra"), jobs=1, resume=False), values)


@pytest.mark.kernels
def test_opener_wins_in_ultra_mode_equals_the_brute_force(legacy):
    """The least-maximum proof's yes/no per opener and limit against the brute force; a no
    names a class the brute force cannot win in time."""
    from test_prove_worst import check_opener_wins, family_list

    # the family list: states with two guesses left where a full split exists, but not among
    # the guesses consistent with the last feedback
    for wl in [case_list(legacy, kind, seed, 16, 40) for kind, seed in (("cluster", 14),
                                                                       ("cluster", 6))] + \
            [family_list(legacy, 2, 18, 50)]:
        brute = UltraBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers),
                                "worst")
        check_opener_wins(wl, brute, ULTRA_MODE, range(2, 6))


# -- the published figure, the artifact and the tools -----------------------------------------
@pytest.mark.slow
def test_salet_ultra_total_is_8125_and_the_tree_verifies(legacy):
    """SALET's ultra-hard total on the legacy lists, 8125 (3.50972), as Selby's solver gives
    with -U; the shipped artifact is that tree."""
    import policy_tree
    from solver.exact.bellman import artifact_bytes

    result = solve(Game(legacy, mode="ultra"), "salet", jobs=2, resume=False)
    assert result.total == 8125
    loaded = policy_tree.decode(artifact_bytes(result))
    assert loaded.mode == "ultra" and policy_tree.verify(loaded).ok
    shipped = policy_tree.load(ULTRA_TREE)
    assert shipped.mode == "ultra" and shipped.total == 8125
    assert np.array_equal(shipped.tree.node_guess, result.tree.node_guess)


def test_shipped_ultra_tree_verifies_and_the_hard_tree_labelled_ultra_does_not():
    import policy_tree
    from policy_tree.artifact import seal

    ultra = policy_tree.load(ULTRA_TREE)
    report = policy_tree.verify(ultra)
    assert report.ok and report.total == 8125
    # written by `tools.prove --mode ultra --tree`: the proof's record, as its openers table says
    assert ultra.opener_proof["openers"] == 12972
    with open(ROOT / "artifacts" / "legacy-ultra-openers.csv") as handle:
        rows = [line.strip().split(",") for line in handle][1:]
    assert rows[0] == ["salet", "exact", "8125"] and len(rows) == 12972
    assert ultra.opener_proof["others_at_least"] == min(int(r[2]) for r in rows[1:]) == 8126
    hard_bytes = (ROOT / "artifacts" / "legacy-hard-salet.msgpack").read_bytes()
    relabelled = policy_tree.decode(seal(dict(msgpack.unpackb(hard_bytes, raw=False), mode="ultra")))
    report = policy_tree.verify(relabelled)
    assert not report.ok and any("illegal in ultra-hard mode: had it been the answer" in f
                                 for f in report.failures)


def run_tool(*args):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_assist_refuses_a_guess_that_could_not_be_the_answer():
    """salet:bbbbg then toast: hard mode allows it (the green t kept), ultra-hard mode does not,
    and says which earlier guess's colours it contradicts."""
    done = run_tool("tools.assist", "--mode", "ultra", "salet:bbbbg", "toast:bbbbg")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("error: guess 2 (toast) is not allowed in ultra-hard mode: "
                                   "had it been the answer, salet would have shown yybbg, not bbbbg")
    assert done.stdout == ""


def test_analyse_refuses_a_game_with_a_guess_that_could_not_be_the_answer():
    done = run_tool("tools.analyse", "--mode", "ultra", "--words", "legacy", "--answer", "haste",
                    "salet", "tabes", "haste")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("error: guess 2 (tabes) is not allowed in ultra-hard mode: had "
                                   "it been the answer, salet would have shown ygbgy, not ygbyy")


def test_tree_next_on_the_ultra_tree_refuses_an_inconsistent_history():
    done = run_tool("tools.tree", "next", str(ULTRA_TREE), "salet:bbbbg", "toast:bbbbg")
    assert done.returncode == 2, done.stderr
    assert "not allowed in ultra-hard mode" in done.stderr and "salet would have shown" in done.stderr


@pytest.mark.kernels
def test_the_service_answers_ultra_histories_as_solve_from_does(legacy):
    """Random two-guess ultra-hard histories (the second guess drawn from the words consistent
    with the first feedback, answers or not), answered by one service in turn: its exact value
    and next guess equal an independent solve of the state (solve_from)."""
    from solver.exact.service import SearchService
    from solver.game.feedback import feedback_table

    table = feedback_table(legacy)
    game = Game(legacy, mode="ultra")
    service = SearchService(game, table=table, book=False)
    rng = np.random.default_rng(34)
    compared = 0
    while compared < 8:
        answer = legacy.answers[int(rng.integers(legacy.n_answers))]
        first = legacy.guesses[int(rng.integers(legacy.n_guesses))]
        history = [(first, feedback_code(first, answer))]
        allowed = allowed_guesses(legacy, history, "ultra")
        second = legacy.guesses[int(rng.choice(allowed))]
        history.append((second, feedback_code(second, answer)))
        if history[-1][1] == game.all_green:
            continue
        tokens = [f"{w}:{code_to_text(c)}" for w, c in history]
        advice = service.advise(tokens, top=0)
        extra = advice.extra_guesses  # a lost state: valued with the least extra guesses
        if extra:
            with pytest.raises(UnwinnableError):
                solve_from(game.replace(guess_limit=5 + extra), history, table=table)
        independent = solve_from(game.replace(guess_limit=6 + extra), history, table=table)
        assert (advice.value, advice.next_guess) == (independent.value, independent.next_guess), tokens
        assert advice.next_guess in {legacy.guesses[g] for g in allowed_guesses(legacy, history, "ultra")} \
            | set(independent.answers)
        compared += 1
