"""The opener proof's depth-one class bound (solver.exact._opener_kernel) against its brute
force on small lists: the same bound whether or not the pruned scan skips guesses."""

from __future__ import annotations

import random

import numpy as np
import pytest

from conftest import random_sub_list
from naive import depth_one_bound, letter_family, table as naive_table
from solver.exact._objective_kernel import TOTAL, WORST
from solver.exact._opener_kernel import PRUNE_MIN, class_bound, new_bound_scratch, superset_counts
from solver.exact.inputs import search_rules
from solver.game.spec import Game
from solver.game.feedback import feedback_table
from solver.game.wordlists import load_word_list


def setup(seed, n_answers=150, n_guesses=300):
    wl = random_sub_list(load_word_list("legacy"), seed, n_answers, n_guesses)
    P = feedback_table(wl)
    letters = np.ascontiguousarray(search_rules(Game(wl)).letters[wl.answer_guess_index])
    return wl, P, new_bound_scratch(np.ascontiguousarray(P.T), letters, 243)


def classes(wl, P, seed):
    """Root classes of a few openers and random subsets large enough for the pruned scan."""
    rng = random.Random(seed)
    found = []
    for g in rng.sample(range(wl.n_guesses), 6):
        for code in np.unique(P[g]):
            members = np.flatnonzero(P[g] == code)
            if len(members) >= 2 and code != 242:
                found.append(members)
    for _ in range(12):
        found.append(np.array(sorted(rng.sample(range(wl.n_answers),
                                                rng.randint(PRUNE_MIN, wl.n_answers)))))
    return [np.asarray(c, dtype=np.int32) for c in found]


@pytest.mark.kernels
@pytest.mark.parametrize("seed", [1, 2])
def test_the_letter_family_counts_equal_the_brute_force(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl, P, scratch = setup(seed)
    family = scratch[1]
    sets = letter_family(wl.answers)
    assert family.shape == (len(sets), wl.n_guesses)
    for s, members in enumerate(sets):
        expected = [len({int(P[h, a]) for a in members}) for h in range(wl.n_guesses)]
        assert family[s].tolist() == expected, s


# (PRUNE_MIN, PROBE, DENSE): the shipped settings; every class of ≥ 3 answers pruned, with one
# guess probed and then the gathered scan of the rest, or the full scan, or everything probed.
SETTINGS = {"shipped": None, "gathered": (3, 1, 0), "full": (3, 1, 10**6),
            "probed": (3, 10**6, 0)}


@pytest.mark.kernels
@pytest.mark.parametrize("seed,settings", [(3, "shipped"), (4, "shipped"), (5, "gathered"),
                                           (6, "full"), (7, "probed")])
def test_the_class_bound_equals_the_brute_force(tmp_path, monkeypatch, seed, settings):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl, P, scratch = setup(seed)
    if SETTINGS[settings] is not None:
        scratch[-1][:] = SETTINGS[settings]
    brute_table = naive_table(wl.guesses, wl.answers)
    PT = np.ascontiguousarray(P.T)
    counts = np.zeros(243, dtype=np.int32)
    upper = np.zeros(wl.n_guesses, dtype=np.int32)
    pruned = 0
    for cls in classes(wl, P, seed):
        state = [int(a) for a in cls]
        superset_counts(cls, scratch[1], scratch[2], scratch[3], upper)
        assert all(upper[h] >= len({brute_table[h][a] for a in state})
                   for h in range(wl.n_guesses))
        pruned += len(cls) >= scratch[-1][0]
        for objective, name in ((TOTAL, "total"), (WORST, "worst")):
            bound, splitter = class_bound(cls, P, PT, wl.answer_guess_index, objective, scratch,
                                          counts)
            assert bound == depth_one_bound(brute_table, state, name), (len(cls), name)
            if splitter >= 0:  # an answer of the class that splits it into singletons
                assert splitter in {int(wl.answer_guess_index[a]) for a in state}
                assert len({brute_table[splitter][a] for a in state}) == len(state)
            assert not counts.any()
    assert pruned >= 12
