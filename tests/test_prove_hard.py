"""The hard-mode opener proof (docs/algorithms.md §9, §10.1) against the brute force that
carries the allowed guesses in its state (tests/naive_hard.py): the root classes' bound over
the guesses their constraint allows, and the proof's openers table."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import random_sub_list
from naive import INF, table as naive_table
from naive_hard import HardBruteForce, filter_allowed
from solver.exact._opener_kernel import class_bound, class_bound_allowed, new_bound_scratch
from solver.exact.inputs import search_rules
from solver.exact.proofs.total import prove
from solver.game._hard_mode_kernel import no_constraint, tighten_constraint
from solver.game.feedback import feedback_table
from solver.game.spec import Game
from solver.game.wordlists import load_word_list
from test_hard_mode import clustered_list, family_list
from twin_checks import check_proof_rows, opener_values


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def root_class_bounds(wl, limit):
    """For every opener and root class of ≥ 2 answers: (opener, code, class, bound over every
    guess, bound over the allowed guesses, the brute force's exact value with limit − 1
    guesses left and the allowed guesses after the opener's feedback)."""
    table = feedback_table(wl)
    transposed = np.ascontiguousarray(table.T)
    letters = search_rules(Game(wl)).letters
    n_patterns = 3 ** len(wl.guesses[0])
    scratch = new_bound_scratch(transposed, np.ascontiguousarray(letters[wl.answer_guess_index]),
                                n_patterns)
    bits = scratch[0]
    counts = np.zeros(n_patterns, dtype=np.int32)
    everything = np.arange(wl.n_guesses, dtype=np.int32)
    constraint = np.empty_like(no_constraint())
    brute = HardBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers))
    all_guesses = frozenset(range(wl.n_guesses))
    rows = []
    for g in range(wl.n_guesses):
        for code, members in sorted(brute.classes(g, range(wl.n_answers)).items()):
            if code == n_patterns - 1 or len(members) < 2:
                continue
            cls = np.array(members, dtype=np.int32)
            every, _ = class_bound(cls, table, transposed, wl.answer_guess_index, 0, scratch, counts)
            tighten_constraint(no_constraint(), letters[g], code, constraint)
            allowed = filter_allowed(constraint, letters, everything)
            restricted, _ = class_bound_allowed(cls, allowed, table, transposed,
                                                wl.answer_guess_index, 0, bits, counts)
            exact, _ = brute.best(tuple(members), brute.after(all_guesses, g, code), limit - 1)
            rows.append((g, code, tuple(members), int(every), int(restricted), exact))
    return rows


LISTS = {  # name: (make the list, guess limit, whether the allowed guesses' bound is exact somewhere it was not)
    "family ..ill": (lambda legacy: family_list(legacy, "..ill"), 6, False),
    "family .ight": (lambda legacy: family_list(legacy, ".ight"), 6, False),
    "family s..ll": (lambda legacy: family_list(legacy, "s..ll"), 8, True),
    "cluster 4": (lambda legacy: clustered_list(legacy, 4, 14, 30), 5, True),
    "cluster 3": (lambda legacy: clustered_list(legacy, 3, 14, 30), 5, False),
}


@pytest.mark.kernels
@pytest.mark.parametrize("name", list(LISTS))
def test_hard_root_class_bound_is_valid_and_tighter(legacy, name):
    """The bound over the allowed guesses is never above a root class's exact hard-mode value
    (the brute force's) and never below the bound over every guess; on the families it is
    strictly tighter for some class, and on two lists it reaches the exact value of a class
    where the bound over every guess does not: a bound that ignored the rule, or overshot,
    fails here."""
    make, limit, reaches_exact = LISTS[name]
    rows = root_class_bounds(make(legacy), limit)
    assert rows
    for g, code, members, every, restricted, exact in rows:
        assert every <= restricted <= exact, (g, code, members)
    if name.startswith("family"):
        assert any(restricted > every for _, _, _, every, restricted, _ in rows)
    if reaches_exact:
        assert any(restricted == exact > every for _, _, _, every, restricted, exact in rows)


def brute_opener_values(wl, limit):
    return opener_values(wl, HardBruteForce(wl.guesses, wl.answers, naive_table(wl.guesses, wl.answers)),
                         limit)


@pytest.mark.kernels
@pytest.mark.parametrize("make,limit", [
    pytest.param(lambda legacy: family_list(legacy, "..ill"), 6, id="family ..ill"),
    pytest.param(lambda legacy: clustered_list(legacy, 5, 12, 40), 5, id="cluster 5"),
    pytest.param(lambda legacy: random_sub_list(legacy, 1, 12, 40), 4, id="random 1"),
])
def test_hard_mode_proof_equals_the_brute_force(legacy, make, limit):
    """Every opener's row of the hard-mode proof: exact values equal the brute force's, and a
    ruled-out opener's reported bound is at most its true value and at least the best."""
    wl = make(legacy)
    values = brute_opener_values(wl, limit)
    if min(values.values()) >= INF:
        pytest.skip("no opener wins in time")
    check_proof_rows(prove(Game(wl, limit, mode="hard"), jobs=1, resume=False), values)


@pytest.mark.kernels
@pytest.mark.parametrize("name", ["family ..ill", "family s..ll", "cluster 4"])
def test_hard_opener_search_against_a_cut_off_equals_the_brute_force(legacy, name):
    """The search of one opener (the proof's phase C, with its root classes bounded over their
    allowed guesses) against cut-offs around the opener's true value: the exact value below the
    cut-off, else a bound at least the cut-off and at most the true value. A bound over the
    allowed guesses that overshot would cut off an opener under the cut-off, or report more
    than its value."""
    from solver.exact.proofs.runner import Job, memo_capacity
    from solver.exact.proofs.total import _opener

    make, limit, _ = LISTS[name]
    wl = make(legacy)
    values = brute_opener_values(wl, limit)
    job = Job(wl, Game(wl, limit, mode="hard"), memo_capacity(0.1, 1))
    cut = 0
    for opener, truth in values.items():
        if truth >= INF:
            continue
        g = wl.guess_index(opener)
        for beta in (truth - 3, truth - 1, truth, truth + 1):
            value = _opener(job, g, beta, True)
            if truth < beta:
                assert value == truth, (opener, beta)
            else:
                assert beta <= value <= truth, (opener, beta, value)
                cut += 1
    assert cut > 0
