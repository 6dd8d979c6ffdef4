"""A root searched by several processes together (docs/algorithms.md §4.5): each share takes
the first candidate and then the positions it claims from a counter they all map, cut off by
the best any share has found, and the winning share's tree is the tree one process finds, byte
for byte, whatever order the shares run in."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

from conftest import random_sub_list
from solver.exact import bellman
from solver.exact.bellman import (_localise, _new_shared_memo, allowed_after, local_rules,
                                  search_rules, solve, solve_from)
from solver.exact.search import (NO_SHARED_KEY, new_search, reset_shared_keys, search_subtree,
                                 share_search, shared_width, shared_winner, solve_subtree)
from solver.game.feedback import feedback_table
from solver.game.hashing import zobrist_keys
from solver.game.spec import Game, Objective
from solver.game.values import INF
from solver.game.wordlists import load_word_list


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


def _states(word_list, table, game, opener_index, smallest):
    """(history, answers) of the opener's classes of at least ``smallest`` answers."""
    codes = table[opener_index]
    for code in np.unique(codes):
        answers = np.flatnonzero(codes == code).astype(np.int32)
        if code != game.all_green and len(answers) >= smallest:
            yield [(word_list.guesses[opener_index], int(code))], answers


def _arrays_equal(a, b):
    return a[0] == b[0] and all(x.dtype == y.dtype and np.array_equal(x, y)
                                for x, y in zip(a[1:-1], b[1:-1]))


def _shared_in_turn(game, table, history, answers, d, shares, order, claim_from=None,
                    one_memo=True):
    """The shares of one root run one after another in ``order`` (each sees the keys the
    earlier ones left, as a slow process would, and with ``one_memo`` what they stored in the
    memo the shares write; else each has its own), then the winner's result. The claim counter
    carries over (a later share claims only what is left), or is set before each share to
    ``claim_from``'s value for it: 1 makes it claim every position again, as when two shares
    read the counter at once every time (the repeats the counter allows); more makes it start
    past positions another share has claimed and not yet finished."""
    word_list = game.word_list
    local = _localise(table, answers, word_list.answer_guess_index, zobrist_keys(word_list.n_answers))
    constraint, candidates = allowed_after(game, history)
    rules = local_rules(search_rules(game), answers)
    keys = reset_shared_keys(np.zeros(shared_width(shares), dtype=np.int64))
    memo = _new_shared_memo(1 << 16) if one_memo else None
    results = {}
    for turn, index in enumerate(order):
        if claim_from is not None:
            keys[shares] = claim_from[turn]
        search = new_search(d, table.shape[0], len(answers), game.n_patterns, 1 << 16)
        search = share_search(search, index, shares, d, keys, memo)
        results[index] = search_subtree(local[0], d, *local[1:], search, game.objective_id,
                                        game.mode_id, rules, constraint, candidates)
    alone = solve_subtree(local[0], d, *local[1:], 1 << 16, game.n_patterns, game.objective_id,
                          game.mode_id, rules, constraint, candidates)
    return results[shared_winner(keys)], alone, keys


CASES = [  # (seed, answers, guesses, mode, objective)
    (61, 60, 200, "normal", Objective.TOTAL),
    (62, 70, 160, "normal", Objective.TOTAL),
    (63, 60, 200, "hard", Objective.TOTAL),
    (64, 50, 150, "ultra", Objective.TOTAL),
    (65, 60, 200, "normal", Objective.WORST),
]


@pytest.mark.kernels
@pytest.mark.parametrize("repeat, one_memo", [(False, True), (True, True), (False, False)])
@pytest.mark.parametrize("seed, n_answers, n_guesses, mode, objective", CASES)
def test_shares_in_any_order_find_the_tree_one_search_finds(legacy, seed, n_answers, n_guesses,
                                                           mode, objective, repeat, one_memo):
    word_list = random_sub_list(legacy, seed, n_answers, n_guesses)
    table = feedback_table(word_list, use_cache=False)
    game = Game(word_list, 6, mode=mode, objective=objective)
    tried = 0
    for opener_index in range(0, word_list.n_guesses, 37):
        for history, answers in _states(word_list, table, game, opener_index, 6):
            for shares in (2, 3):
                for order in itertools.permutations(range(shares)):
                    won, alone, keys = _shared_in_turn(game, table, history, answers, 5, shares,
                                                       order, (1,) * shares if repeat else None,
                                                       one_memo)
                    assert _arrays_equal(won, alone), (history, shares, order)
                    if alone[0] < INF and len(alone[1]) > 0:
                        # the winner's key holds the value the single search found
                        assert keys[:shares].min() >> 17 in (alone[0], NO_SHARED_KEY >> 17)
                    tried += 1
    assert tried >= 20


@pytest.mark.kernels
def test_shares_keep_the_tie_break_when_the_first_optimal_guess_is_not_first(legacy):
    """After FIQUE (feedback code 3) on this list, 37 answers with 4 guesses left: the first
    candidate is not optimal, and the candidates at positions 1, 2 and 3 all are. Whichever
    share searches position 1, and in whatever order, its guess must win, the one a single
    search plays: also when another share has already written position 2's equal value (it
    claimed past position 1 while the first share was still on it), where a share that only
    tied that key would lose the tie-break."""
    word_list = random_sub_list(legacy, 71, 300, 1500)
    table = feedback_table(word_list, use_cache=False)
    game = Game(word_list, 6)
    opener = word_list.guess_index("fique")
    history, answers = [("fique", 3)], np.flatnonzero(table[opener] == 3).astype(np.int32)
    assert len(answers) == 37
    for shares, claim_from in itertools.product((2, 3), (None, (1, 1, 1), (2, 1, 1))):
        for order in itertools.permutations(range(shares)):
            won, alone, keys = _shared_in_turn(game, table, history, answers, 4, shares, order,
                                               claim_from and claim_from[:shares])
            assert alone[0] == 88 and _arrays_equal(won, alone), (shares, order, claim_from)
            assert keys[:shares].min() == (88 << 17) | 1  # position 1 won
            if claim_from == (2, 1, 1):  # the first share to run found position 2 first
                assert keys[order[0]] == (88 << 17) | 2
    for history, answers in _states(word_list, table, game, opener, 20):  # its other classes
        for order in ((0, 1), (1, 0)):
            won, alone, keys = _shared_in_turn(game, table, history, answers, 4, 2, order)
            assert _arrays_equal(won, alone), (history, order)


@pytest.mark.kernels
def test_a_share_that_loses_builds_no_tree(legacy):
    """A share whose best is beaten by another's returns no tree (the winner's is used)."""
    word_list = random_sub_list(legacy, 62, 70, 160)
    table = feedback_table(word_list, use_cache=False)
    game = Game(word_list, 6)
    for history, answers in _states(word_list, table, game, 0, 12):
        local = _localise(table, answers, word_list.answer_guess_index,
                          zobrist_keys(word_list.n_answers))
        constraint, candidates = allowed_after(game, history)
        rules = local_rules(search_rules(game), answers)
        # another share has already found a value no guess can beat
        keys = np.array([NO_SHARED_KEY, 1 << 17, 1, 0, 0], dtype=np.int64)
        search = share_search(new_search(5, table.shape[0], len(answers), game.n_patterns, 1 << 16),
                              0, 2, 5, keys)
        result = search_subtree(local[0], 5, *local[1:], search, game.objective_id, game.mode_id,
                                rules, constraint, candidates)
        assert result[0] == INF and len(result[1]) == 0
        assert shared_winner(keys) == 1


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_solve_and_solve_from_with_shared_roots_are_byte_identical(legacy, monkeypatch, mode):
    """Worker processes sharing the big classes (here every class of 12 answers or more, each
    with the letter family its shares build together) give the tree one process gives, byte for
    byte: a whole solve and a state's subtree."""
    from solver.exact import _search_kernel

    word_list = random_sub_list(legacy, 66, 120, 400)
    game = Game(word_list, 6, mode=mode)
    alone = bellman.artifact_bytes(solve(game, word_list.guesses[5], jobs=1, resume=False))
    state_alone = solve_from(game, [(word_list.guesses[5], "bbbbb")], jobs=1)
    monkeypatch.setattr(bellman, "SHARE_MIN", 12)
    monkeypatch.setattr(bellman, "STATE_SHARE_MIN", 12)
    monkeypatch.setattr(_search_kernel, "FAMILY_ROOT_MIN", 12)  # (read by new_search)
    shared = bellman.artifact_bytes(solve(game, word_list.guesses[5], jobs=2, resume=False))
    state_shared = solve_from(game, [(word_list.guesses[5], "bbbbb")], jobs=2)
    assert shared == alone
    assert state_shared.value == state_alone.value and state_shared.tree == state_alone.tree


@pytest.mark.kernels
def test_shares_build_the_letter_family_one_search_builds(legacy, monkeypatch):
    """The letter family the shares of a root build together (§4.5) is the family one search
    builds, row for row: counted by one share alone, by two forked processes claiming rows at
    once, and when rows were claimed by a share that stalled (counted again after
    ``FAMILY_WAIT``)."""
    import multiprocessing

    from solver.exact._family_kernel import family_counts, new_bits

    word_list = random_sub_list(legacy, 67, 90, 300)
    game = Game(word_list, 6)
    answers = np.arange(word_list.n_answers, dtype=np.int32)
    local = _localise(feedback_table(word_list), answers, word_list.answer_guess_index,
                      zobrist_keys(word_list.n_answers))
    rules = local_rules(search_rules(game), answers)
    P, goa = local[1], local[2]
    letters = np.ascontiguousarray(rules.letters[goa])
    family, masks, sizes = family_counts(np.ascontiguousarray(P.T), letters, game.n_patterns,
                                         new_bits(P.shape[0], game.n_patterns))
    search = new_search(6, P.shape[0], P.shape[1], game.n_patterns, 1 << 10)

    def built(shared):
        ws = bellman._shared_family(search, shared, local, rules, game.n_patterns).ws
        assert shared.done.all() and int(shared.claims[0]) >= len(sizes)
        assert np.array_equal(ws.family, family) and np.array_equal(ws.family_sizes, sizes)
        assert np.array_equal(ws.answer_masks, masks) and np.array_equal(ws.answer_letters, letters)

    def fresh():
        return bellman._new_shared_family(P.shape[0], game.word_length)

    built(fresh())
    shared = fresh()
    other = multiprocessing.get_context("fork").Process(
        target=bellman._shared_family, args=(search, shared, local, rules, game.n_patterns))
    other.start()
    built(shared)
    other.join(60)
    assert other.exitcode == 0
    shared = fresh()
    shared.claims[0] = 40  # rows 0-39 claimed by a share that never finishes them
    monkeypatch.setattr(bellman, "FAMILY_WAIT", 0.05)
    built(shared)


#: The objective of a case under priors (skewed integer weights, docs/algorithms.md §10.3).
PRIORS = "priors"


def _large_states(legacy, monkeypatch, mode, objective):
    """(game, table, [(history, answers)]): classes of 12 answers or more of three openers on a
    small list, made "large" for the anytime search (searched in a child, by shares);
    ``objective`` :data:`PRIORS`: the total under random answer weights."""
    import random

    from solver.exact import anytime
    from solver.game.priors import make_priors

    word_list = random_sub_list(legacy, 66, 120, 400)
    table = feedback_table(word_list, use_cache=False)
    if objective == PRIORS:
        rng = random.Random(66)
        weights = np.array([rng.choice([1, 3, 10, 30, 100]) for _ in range(word_list.n_answers)])
        game = Game(word_list, 6, mode=mode, priors=make_priors(word_list, weights, "test"))
    else:
        game = Game(word_list, 6, mode=mode, objective=objective)
    monkeypatch.setattr(bellman, "STATE_SHARE_MIN", 12)
    monkeypatch.setattr(anytime, "IN_PROCESS_MAX", 8)
    return game, table, [state for opener in (5, 42, 79)
                         for state in _states(word_list, table, game, opener, 12)]


def _read_shares_best(monkeypatch) -> list:
    """A list that gets the shares' best key (:func:`bellman.shared_best`) of every shared
    root's memory as it is released."""
    read = []
    release = bellman.release_shared_root

    def read_then_release(token):
        read.append(bellman.shared_best(token))
        release(token)

    monkeypatch.setattr(bellman, "release_shared_root", read_then_release)
    return read


def _exact_q(game, table, history, answers, guess, guesses_left=5):
    """Q* of one guess, searched in this process (no shares)."""
    from solver.exact.anytime import rank_guesses

    ranking = rank_guesses(game, answers, guesses_left, top=1, forced=[guess], budget=300,
                           table=table, history=history, in_process=True)
    return ranking.exact_q(guess)


SHARED_MODES = [("normal", Objective.TOTAL), ("hard", Objective.TOTAL),
                ("ultra", Objective.TOTAL), ("normal", Objective.WORST), ("normal", PRIORS)]


@pytest.mark.parametrize("mode, objective", SHARED_MODES)
def test_a_budgeted_search_of_a_large_state_is_shared(legacy, monkeypatch, mode, objective):
    """With a budget, a state of at least STATE_SHARE_MIN answers is searched in a child that forks
    shares (§4.5), which find the ranking the search in this process finds (the alternatives and
    a forced guess valued on the shares' memo); the shares' memory is made here, and its best
    key, read by its position in the candidate order, is the optimum's value and guess."""
    from solver.exact.anytime import rank_guesses

    game, table, states = _large_states(legacy, monkeypatch, mode, objective)
    read = _read_shares_best(monkeypatch)
    searched = 0
    for history, answers in states:
        # a forced guess (a player's move; an answer left, which every mode allows) is valued
        # first, into the memo the shares then write
        forced = [int(game.word_list.answer_guess_index[answers[-1]])]
        here = rank_guesses(game, answers, 5, top=3, forced=forced, budget=300, table=table,
                            history=history, in_process=True)
        read.clear()
        child = rank_guesses(game, answers, 5, top=3, forced=forced, budget=300, table=table,
                             history=history, in_process=False, jobs=2)
        assert child.proven and child.finished and child.top == here.top, history
        assert child.exact_q(forced[0]) == here.exact_q(forced[0]) is not None, history
        assert len(read) == 1, history  # the shares' memory was made here
        if read[0].value is None:  # settled before any candidate: a full split (§3.3), no key
            weight = (int(game.priors.weights[answers].sum()) if game.priors is not None
                      else len(answers))
            assert child.top[0][1] <= (2 if objective == Objective.WORST else 2 * weight)
            continue
        value, position, unsettled = read[0]
        assert (int(child.order[position]), value) == child.top[0], history
        # the shares are done: every candidate from the first unsettled one has a bound that
        # reaches V* (where they stopped), so the lower bound they give is V*
        assert unsettled >= child.order.size or child.bounds[unsettled] >= value, history
        searched += 1
    assert searched >= 2


@pytest.mark.parametrize("mode, objective", SHARED_MODES)
def test_every_share_key_is_the_exact_value_of_the_guess_at_its_position(legacy, monkeypatch,
                                                                        mode, objective):
    """What a budgeted search keeps when its shares are stopped (``shared_best``) is read by
    position in the candidate order of :func:`solver.exact.anytime._candidate_order`: every
    key any share left (the losers' bests too) is the exact Q* of the guess at its position."""
    from solver.exact.anytime import _candidate_order
    from solver.exact.search import NO_SHARED_KEY

    game, table, states = _large_states(legacy, monkeypatch, mode, objective)
    word_list = game.word_list
    checked = 0
    for history, answers in states:
        local = _localise(table, answers, word_list.answer_guess_index,
                          zobrist_keys(word_list.n_answers))
        constraint, candidates = allowed_after(game, history)
        rules = local_rules(search_rules(game), answers)
        token = bellman.new_shared_root(2, 1 << 16, table.shape[0], rules.letters.shape[1])
        try:
            result = bellman.subtree(local, 5, 1 << 16, game.n_patterns,
                                     bellman.objective_id(game), game.mode_id, rules, constraint,
                                     candidates, jobs=2, root=token)
            keys = bellman._SHARED_KEYS[token][0, :2].copy()
        finally:
            bellman.release_shared_root(token)
        order, _ = _candidate_order(local[0], local[1], game.n_patterns,
                                    candidates if game.restricted else None,
                                    bellman.objective_id(game),
                                    rules.weights if game.priors is not None else None)
        if keys.min() == NO_SHARED_KEY:  # settled before any candidate (§3.3): no key
            continue
        assert (result[0] << 17) | list(order).index(result[1][0]) == keys.min(), history
        for key in keys[keys != NO_SHARED_KEY]:
            guess = int(order[int(key) & ((1 << 17) - 1)])
            assert _exact_q(game, table, history, answers, guess) == int(key) >> 17, history
            checked += 1
    assert checked >= 4


def test_a_budget_that_ends_before_the_shares_keeps_their_best(legacy, monkeypatch):
    """When the budget ends while the shares search, the answer is the best guess they have
    finished, with its exact Q*, not proven, and its lower bound counts the candidates they
    settled (each worth at least that best): the deadline is simulated by a stream that stops
    once the shares have settled a few candidates (or are done)."""
    from solver.exact import executor
    from solver.exact.anytime import rank_guesses

    from solver.exact import anytime

    # FIQUE's classes of 20 answers or more, 4 guesses left: the first candidate of its class
    # of code 3 is not optimal (test_shares_keep_the_tie_break_...), so the shares go on
    word_list = random_sub_list(legacy, 71, 300, 1500)
    table = feedback_table(word_list, use_cache=False)
    game = Game(word_list, 6)
    monkeypatch.setattr(bellman, "STATE_SHARE_MIN", 12)
    monkeypatch.setattr(anytime, "IN_PROCESS_MAX", 8)
    states = list(_states(word_list, table, game, word_list.guess_index("fique"), 20))
    d = 4
    real = executor.Stream

    class StoppedEarly(real):
        def __init__(self, steps, args, deadline):
            super().__init__(steps, args, deadline)
            self.root = args[-1]

        def __iter__(self):
            # (a message from the child: the shares are done)
            while bellman.shared_best(self.root).unsettled < 3 and not self._receiver.poll(0):
                time.sleep(0.001)
            self.close()
            time.sleep(0.2)  # (the shares die with the child: then no key changes)
            return iter(())

    monkeypatch.setattr(executor, "Stream", StoppedEarly)
    read = _read_shares_best(monkeypatch)
    settled = 0
    for history, answers in states:
        read.clear()
        ranking = rank_guesses(game, answers, d, top=1, budget=300, table=table, history=history,
                               in_process=False, jobs=2)
        if read[0].value is None:  # settled before any candidate (§3.3)
            continue
        assert not ranking.proven and len(ranking.top) == 1, history
        guess, value = ranking.top[0]
        assert (guess, value) == (int(ranking.order[read[0].position]), read[0].value), history
        assert ranking.exact_q(guess) == value == _exact_q(game, table, history, answers, guess, d)
        assert ranking.settled == min(read[0].unsettled, ranking.order.size), history
        assert ranking.settled_value == value, history
        settled += ranking.settled >= 3
        settled_guesses = ranking.order[:ranking.settled]
        for other in np.concatenate([settled_guesses[:5], settled_guesses[5:][-5:]]):
            q = _exact_q(game, table, history, answers, int(other), d)
            assert q >= value, (history, int(other))
        optimum = rank_guesses(game, answers, d, top=1, budget=300, table=table,
                               history=history, in_process=True).value
        assert int(ranking.bounds.min()) <= ranking.lower_bound <= optimum, history
    assert settled >= 1
