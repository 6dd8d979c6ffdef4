"""Checks that the solver agrees with a plain twin (tests/naive*.py), shared by the test
modules of the variants (objectives, feedback rules, modes) that run the same comparison: each
asserts, and none passes by doing nothing."""

from __future__ import annotations

import random

import pytest

import naive_policies
from naive import INF, tree_from_arrays
from solver.exact.bellman import UnwinnableError, solve, solve_state


def check_state_value(game, brute, limit):
    """The whole answer list of ``game`` as a state with ``limit`` guesses: solve_state's
    (value, guess) equals the brute force's, or solve_state raises UnwinnableError where the
    brute force finds no win within ``limit`` (a :class:`naive.BruteForce`-like ``brute`` of
    the same lists, rule and objective)."""
    wl = game.word_list
    everything = tuple(range(wl.n_answers))
    value, guess = brute.best(everything, limit)
    if value >= INF:
        with pytest.raises(UnwinnableError):
            solve_state(game, everything, limit)
        return
    assert solve_state(game, everything, limit) == (value, wl.guesses[guess])


def check_opener_tree(game, brute, seed):
    """The solve of ``game`` from an opener drawn with ``random.Random(seed)`` (one the solver
    was never tuned on): its tree equals the brute force's tie-broken tree from that opener.
    Returns (the solve's result, the brute force's value of the opener) for the caller's
    checks of the value; None after checking that the solve raises UnwinnableError where the
    brute force cannot win within the game's guess limit."""
    wl, limit = game.word_list, game.guess_limit
    everything = tuple(range(wl.n_answers))
    opener = random.Random(seed).randrange(wl.n_guesses)
    cost = brute.guess_cost(opener, everything, limit)
    if cost >= INF:
        with pytest.raises(UnwinnableError):
            solve(game, wl.guesses[opener], jobs=1, resume=False)
        return None
    result = solve(game, wl.guesses[opener], jobs=1, resume=False)
    assert tree_from_arrays(result.tree) == brute.tree(everything, limit, guess=opener)
    return result, cost


def opener_values(wl, brute, limit) -> dict[str, int]:
    """Opener word → its value with ``limit`` guesses by a hard- or ultra-mode brute force
    (:class:`naive_hard.HardBruteForce`), for every guess that splits the answers."""
    everything = tuple(range(wl.n_answers))
    all_guesses = frozenset(range(wl.n_guesses))
    return {wl.guesses[g]: brute.cost(g, everything, all_guesses, limit)
            for g in range(wl.n_guesses) if len(brute.classes(g, everything)) > 1}


def check_proof_rows(result, values):
    """Every opener's row of a proof (:class:`solver.exact.proofs.results.ProofResult`)
    against the brute force's ``values`` (:func:`opener_values`): the proven best is the least
    value and its opener's; an exact row is the true value; a ruled-out opener's bound is at
    least the best and at most its true value."""
    best = min(values.values())
    assert result.best.value == best == values[result.best.opener]
    for row in result.openers:
        truth = values.get(row.opener, INF)
        if row.status == "exact":
            assert row.value == truth, row
        else:
            assert best <= row.value <= truth, row


def check_rollout_decisions(policy, result, table, n, base, rank_answers_first, memo) -> int:
    """Every decision of ``result`` (:func:`solver.evaluation.scoring.score_policy` of the
    Rollout_n ``policy``) on a state of two answers or more equals the plain twin's
    (:func:`naive_policies.rollout_choice` with ``n``, ``base``, ``rank_answers_first``): the
    guess and every candidate's Q-total. Returns how many decisions were checked."""
    word_list = policy.word_list
    checked = 0
    for decision in result.decisions:
        state = list(decision.state)
        if len(state) < 2:
            continue
        guess, scored = naive_policies.rollout_choice(
            table, state, word_list.answer_guess_index, base == "b", n, word_list.n_guesses,
            rank_answers_first, memo, word_length=word_list.word_length)
        assert decision.guess == guess
        assert [(g, q) for g, q, _ in policy.q_factors(decision.state)] == scored
        checked += 1
    return checked
