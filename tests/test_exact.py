"""The exact solver against the plain brute force, on many small random sub-lists; and the
published SALET figure on the full legacy lists."""

from __future__ import annotations


from solver.game.spec import Game
import pytest

from conftest import JIT_OFF, random_sub_list
from twin_checks import check_opener_tree, check_state_value
from naive import BruteForce, table as naive_table
from solver.exact.bellman import UnwinnableError, artifact_bytes, solve, solve_state
from solver.game.wordlists import from_words, load_word_list


@pytest.fixture(scope="module")
def legacy():
    return load_word_list("legacy")


CASES = [  # (seed, answers, guesses, guess limit)
    (1, 30, 150, 6), (2, 25, 120, 6), (3, 40, 100, 6), (4, 20, 180, 6), (5, 35, 90, 4),
    (6, 30, 60, 3), (7, 15, 60, 3), (8, 40, 160, 5), (9, 28, 140, 4), (10, 36, 120, 6),
    (11, 22, 80, 3), (12, 33, 110, 5),
]
# The plain brute force takes 3 s or more on these (with numba, 8-20 s without): make test-fast
# and the JIT-off run skip them.
SLOW_SEEDS = {1, 2, 3, 4, 8, 10, 12}
VALUE_CASES = [pytest.param(*case, marks=pytest.mark.slow) if case[0] in SLOW_SEEDS else case for case in CASES]


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", VALUE_CASES)
@pytest.mark.kernels
def test_state_value_and_guess_equal_brute_force(legacy, seed, n_answers, n_guesses, limit):
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index))
    check_state_value(Game(wl), brute, limit)


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", CASES[:8])
@pytest.mark.kernels
def test_tree_for_an_opener_equals_brute_force_tree(legacy, seed, n_answers, n_guesses, limit):
    """Value and the whole tie-broken tree, for an opener the solver was never tuned on."""
    wl = random_sub_list(legacy, seed, n_answers, n_guesses)
    brute = BruteForce(naive_table(wl.guesses, wl.answers), list(wl.answer_guess_index))
    solved = check_opener_tree(Game(wl, guess_limit=limit), brute, seed)
    if solved is not None:
        result, cost = solved
        assert result.total == cost
        assert result.guesses_per_answer.max() <= limit


@pytest.mark.slow
def test_small_states_use_the_exact_shortcuts(legacy):
    wl = legacy
    assert solve_state(Game(wl), ["cigar"], 1) == (1, "cigar")
    assert solve_state(Game(wl), ["cigar", "rebut"], 2) == (3, "cigar")
    with pytest.raises(UnwinnableError):
        solve_state(Game(wl), ["cigar", "rebut"], 1)
    # batch/catch/hatch/latch/match/patch/watch: no answer splits them, so at least 2n.
    family = ["batch", "catch", "hatch", "latch", "match", "patch", "watch"]
    value, guess = solve_state(Game(wl), family, 6)
    brute_wl = from_words(family, wl.guesses)
    brute = BruteForce(naive_table(brute_wl.guesses, brute_wl.answers), list(brute_wl.answer_guess_index))
    assert (value, guess) == (brute.value(tuple(range(7)), 6), brute_wl.guesses[brute.best(tuple(range(7)), 6)[1]])


@pytest.mark.slow
def test_salet_total_is_7920(legacy):
    """The published optimum (docs/algorithms.md §11): SALET, total 7920, no answer needs > 5 guesses."""
    result = solve(Game(legacy), "salet", jobs=2, resume=False)
    assert result.total == 7920
    assert round(result.average, 5) == 3.42117
    assert result.max_guesses == 5
    assert sum(result.histogram) == legacy.n_answers
    assert result.histogram[0] == 0  # salet is not an answer


@pytest.mark.slow
def test_same_input_same_tree(legacy):
    first = solve(Game(legacy), "trace", jobs=2, resume=False)
    second = solve(Game(legacy), "trace", jobs=1, resume=False)
    assert first.total == second.total
    assert first.tree == second.tree
    # byte for byte: the artifact holds nothing that varies between runs (no timing)
    assert artifact_bytes(first) == artifact_bytes(second)



def test_unknown_opener_is_rejected(legacy):
    from solver.game.errors import UnknownWordError

    with pytest.raises(UnknownWordError):
        solve(Game(legacy), "zzzzz")


@pytest.mark.kernels
def test_interrupted_solve_resumes_from_its_journal(legacy, tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = random_sub_list(legacy, 21, 60, 200)
    seen = []

    def interrupt_after_two_classes(done, total):
        seen.append(done)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve(Game(wl), wl.answers[0], jobs=1, progress=interrupt_after_two_classes)
    finished = seen[-1]
    assert 0 < finished < wl.n_answers
    resumed = []
    result = solve(Game(wl), wl.answers[0], jobs=1, progress=lambda done, total: resumed.append(done))
    assert resumed[0] == finished  # the finished classes were loaded, not solved again
    fresh = solve(Game(wl), wl.answers[0], jobs=1, resume=False)
    assert result.total == fresh.total and result.tree == fresh.tree
    assert not any((tmp_path / "journals").iterdir())  # discarded after success


def test_a_journal_of_another_solver_is_refused(legacy, tmp_path, monkeypatch):
    from solver.exact import bellman
    from solver.runs.journal import ForeignJournalError

    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path))
    wl = random_sub_list(legacy, 22, 40, 120)

    def interrupt(done, total):
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve(Game(wl), wl.answers[0], jobs=1, progress=interrupt)
    path = bellman.journal_path("solve", *bellman.game_inputs(Game(wl)), wl.answers[0])
    assert path.exists()
    monkeypatch.setattr(bellman, "SOLVER_VERSION", "0.0.0-other")
    with pytest.raises(ForeignJournalError, match="solver_version"):
        solve(Game(wl), wl.answers[0], jobs=1)
    assert path.exists()  # refused, not touched
    seen = []
    solve(Game(wl), wl.answers[0], jobs=1, resume=False, progress=lambda done, total: seen.append(done))
    assert seen[0] == 0 and not path.exists()  # started over, then discarded


@pytest.mark.kernels
def test_search_on_kept_memory_equals_a_fresh_search(legacy):
    """``search_subtree`` on one memo and workspace kept across states (reset between them, as
    a solve's workers do) returns what ``solve_subtree`` on new ones does, tree and stats; and
    ``reset_search`` leaves the workspace as ``new_search`` makes it."""
    import numpy as np

    from solver.exact.bellman import _localise, _memo_capacity, allowed_after, local_rules, search_rules
    from solver.exact.search import new_search, reset_search, search_subtree, solve_subtree
    from solver.game.feedback import feedback_table
    from solver.game.hashing import zobrist_keys
    from solver.game.spec import Game

    wl = random_sub_list(legacy, 23, 80, 300)
    table = feedback_table(wl)
    for mode in ("normal", "hard"):
        spec = Game(wl, 6, mode=mode)
        codes = table[0]
        kept = new_search(5, wl.n_guesses, wl.n_answers, spec.n_patterns, 1 << 16)
        for code in np.unique(codes)[::-1]:
            answers = np.flatnonzero(codes == code).astype(np.int32)
            if code == spec.all_green:
                continue
            state, local, guess_of_answer, z1, z2 = _localise(table, answers, wl.answer_guess_index,
                                                               zobrist_keys(wl.n_answers))
            constraint, candidates = allowed_after(spec, [(wl.guesses[0], int(code))])
            rules = local_rules(search_rules(spec), answers)
            fresh = solve_subtree(state, 5, local, guess_of_answer, z1, z2, _memo_capacity(len(answers)),
                                  spec.n_patterns, spec.objective_id, spec.mode_id, rules, constraint,
                                  candidates)
            reset_search(kept)
            reused = search_subtree(state, 5, local, guess_of_answer, z1, z2, kept, spec.objective_id,
                                    spec.mode_id, rules, constraint, candidates)
            assert fresh[0] == reused[0]
            for a, b in zip(fresh[1:], reused[1:]):
                assert a.dtype == b.dtype and np.array_equal(a, b)
        reset_search(kept)
        new = new_search(5, wl.n_guesses, wl.n_answers, spec.n_patterns, 1 << 16)
        assert np.array_equal(kept[0][2], new[0][2]) and np.array_equal(kept[2], new[2])
        for a, b in zip(kept[1], new[1]):
            assert a.dtype == b.dtype and np.array_equal(a, b)


def _solve_with_thresholds(wl, limit, mode, settings):
    """The whole list's tree (search_subtree's result) once per workspace setting of
    ``family_thresholds`` (root size and state size of the letter family, §3.8; the most
    answers of the small states' scans, §3.9; the fewest answers of a hard- or ultra-hard-mode
    class whose allowed guesses keep their class counts, §10.1; the fewest guesses left of a
    state whose classes the family pass bounds, §4.3)."""
    import numpy as np

    from solver.exact.bellman import _localise, allowed_after, local_rules, search_rules
    from solver.exact.search import new_search, reset_search, search_subtree
    from solver.game.feedback import feedback_table
    from solver.game.hashing import zobrist_keys
    from solver.game.spec import Mode

    spec = Game(wl, limit, mode=Mode(mode))
    answers = np.arange(wl.n_answers, dtype=np.int32)
    state, local, guess_of_answer, z1, z2 = _localise(feedback_table(wl), answers,
                                                       wl.answer_guess_index, zobrist_keys(wl.n_answers))
    constraint, candidates = allowed_after(spec, [])
    rules = local_rules(search_rules(spec), answers)
    results = []
    for thresholds in settings:
        search = new_search(limit, wl.n_guesses, wl.n_answers, spec.n_patterns, 1 << 16)
        reset_search(search)
        search.ws.family_thresholds[:] = thresholds
        results.append(search_subtree(state, limit, local, guess_of_answer, z1, z2, search,
                                      spec.objective_id, spec.mode_id, rules, constraint, candidates))
    return results


# Lists large enough that states of 3 answers or more search with cut-offs (kmin > 2).
FAMILY_CASES = [(40, 150, 400, 5)] + [pytest.param(*case, marks=pytest.mark.slow) for case in
                                     [(41, 150, 400, 5), (42, 180, 300, 5), (45, 150, 300, 6)]]


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", FAMILY_CASES)
@pytest.mark.parametrize("mode", ["normal", "hard", "ultra"])
@pytest.mark.kernels
def test_letter_family_skips_change_no_value_and_no_tree(legacy, seed, n_answers, n_guesses, limit,
                                                         mode):
    """The scans skipped by the letter family's class counts (docs/algorithms.md §3.8), forced
    on for every state of 3 answers or more, change neither the value nor the tie-broken tree:
    the same tree arrays as the search without them (which the tests above and
    tests/test_hard_mode.py, tests/test_ultra_mode.py hold to the brute force), in every mode;
    and they do skip scans. The bound itself is held to the brute force in
    tests/test_opener_kernel.py (superset_counts)."""
    import numpy as np

    # the family on every state, then off (the letter positions' scans off, §3.9)
    on, off = _solve_with_thresholds(random_sub_list(legacy, seed, n_answers, n_guesses), limit,
                                     mode, [(2, 3, 0, 0, 4), (10**9, 10**9, 0, 0, 4)])
    assert on[5][3] > 0 and off[5][3] == 0  # the family spared scans (and only when on)
    assert on[0] == off[0]
    for a, b in zip(on[1:5], off[1:5]):
        assert a.dtype == b.dtype and np.array_equal(a, b)


# Lists whose guesses are few enough that many of them come close to the optimum and need
# refuting, as the guesses of a large state do.
FAMILY_PASS_CASES = [(40, 300, 300, 5), pytest.param(41, 300, 300, 5, marks=pytest.mark.slow)]


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", FAMILY_PASS_CASES)
@pytest.mark.parametrize("mode", ["normal", "hard", "ultra"])
@pytest.mark.kernels
def test_the_family_pass_changes_no_value_and_no_tree(legacy, seed, n_answers, n_guesses, limit,
                                                      mode):
    """The family pass (docs/algorithms.md §4.3: each open class bounded by the letter family's
    class counts before the deep pass) changes neither the value nor the tie-broken tree, in
    every mode, from every state with three guesses left or more (the family on for every
    state), and it refutes guesses the deep pass would have searched: fewer states are
    searched with it."""
    import numpy as np

    on, off = _solve_with_thresholds(random_sub_list(legacy, seed, n_answers, n_guesses), limit,
                                     mode, [(2, 3, 0, 0, 3), (2, 3, 0, 0, 10**9)])
    assert on[0] == off[0]
    for a, b in zip(on[1:5], off[1:5]):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert on[5][0] < off[5][0]


def _near_twins(words, rng, n_states):
    """States of words that agree on all but one position (batch, catch, ...), at most 64."""
    groups = {}
    for w in words:
        for j in range(len(w)):
            groups.setdefault((j, w[:j] + "." + w[j + 1:]), []).append(w)
    found = sorted((g for g in groups.values() if len(g) >= 3), key=lambda g: (-len(g), g))
    return [sorted(g)[:64] for g in found[:n_states]] + [
        sorted(rng.sample(words, rng.randint(2, 64))) for _ in range(n_states)]


@pytest.mark.kernels
@pytest.mark.parametrize("seed", [1, 2])
def test_letter_bound_holds_and_matches_its_twin(legacy, seed):
    """The letter-position bound (docs/algorithms.md §3.9) equals its naive twin's and is never
    below a guess's class count, under the standard and the Yellow Wordle rule, on states of
    near-identical words and random states of up to 64 answers, for random guesses and guesses
    with repeated letters; on the near-identical states it is often exact."""
    import random

    import numpy as np

    from naive import feedback, letter_bound as naive_letter_bound
    from naive_yellow import yellow_feedback
    from solver.exact._family_kernel import MINORITY_MOST, letter_bound, minority_masks
    from solver.game.feedback import words_to_letters

    rng = random.Random(seed)
    answers = list(legacy.answers)
    letters = words_to_letters(answers)
    index = {w: i for i, w in enumerate(answers)}
    repeated = [w for w in legacy.guesses if len(set(w)) < len(w)]
    guesses = rng.sample(list(legacy.guesses), 60) + rng.sample(repeated, 30)
    guess_letters = words_to_letters(guesses)
    identity = np.arange(len(answers), dtype=np.int32)
    masks = np.empty(26, dtype=np.uint64)
    tally = np.zeros(1 << letters.shape[1], dtype=np.int32)
    tight = 0
    for words in _near_twins(answers, rng, 40):
        state = np.array([index[w] for w in words], dtype=np.int32)
        minority_masks(state, identity, letters, np.empty((26, MINORITY_MOST), dtype=np.uint8),
                       tally, masks)
        assert not tally.any()
        for guess, row in zip(guesses + words, list(guess_letters) + [letters[i] for i in state]):
            bound = letter_bound(masks, row, len(words))
            assert bound == naive_letter_bound(words, guess), (words, guess)
            classes = len({feedback(guess, a) for a in words})
            assert bound >= classes, (words, guess)
            assert bound >= len({yellow_feedback(guess, a) for a in words}), (words, guess)
            tight += bound == classes
    assert tight > 1000


def _run_small(search, spec, candidates, state, tables, rules, beta):
    """(value, guess, scans spared) of ``_search`` on a state with three guesses left and
    cut-off ``beta``, from an empty memo, with the column counts on."""
    import numpy as np

    from solver.exact._search_kernel import Search, _search, with_columns
    from solver.exact.search import reset_search

    reset_search(search)
    memo, ws, stats = search
    fresh = Search(memo, with_columns(tables.P, ws), stats)
    value, guess = _search(state, np.int64(3), np.int64(beta), candidates, tables, fresh,
                           spec.objective_id, spec.mode_id, np.int64(-1), rules)
    return int(value), int(guess), int(stats[3])


@pytest.mark.kernels
def test_small_scans_keep_the_fail_soft_contract(legacy):
    """A state of near-identical words with three guesses left, searched with every cut-off
    from 2n to one past its value (the small states' scans of docs/algorithms.md §3.9, where
    the bound leaves few guesses or none to count): below the cut-off, its exact value and
    first optimal guess; at or above it, a bound between the cut-off and the value (§4.1)."""
    import random

    import numpy as np

    from solver.exact._search_kernel import INF, Tables
    from solver.exact.bellman import _localise, local_rules, search_rules
    from solver.exact.search import new_search
    from solver.game.feedback import feedback_columns
    from solver.game.hashing import zobrist_keys

    spec = Game(legacy)
    rules = search_rules(spec)
    zobrist = zobrist_keys(legacy.n_answers)
    index = {w: i for i, w in enumerate(legacy.answers)}
    candidates = np.arange(legacy.n_guesses, dtype=np.int32)
    search = new_search(3, legacy.n_guesses, 64, spec.n_patterns, 1 << 12)
    checked = skipped = 0
    for words in _near_twins(list(legacy.answers), random.Random(5), 12)[:12]:
        answers = np.array(sorted(index[w] for w in words), dtype=np.int32)
        table = feedback_columns(legacy, answers)
        state, local, guess_of_answer, z1, z2 = _localise(
            table, np.arange(len(answers), dtype=np.int32), legacy.answer_guess_index[answers],
            (zobrist[0][answers], zobrist[1][answers]))
        tables = Tables(local, guess_of_answer, z1, z2)
        args = (state, tables, local_rules(rules, answers))
        exact, best, _ = _run_small(search, spec, candidates, *args, INF)
        n = len(answers)
        for beta in range(2 * n, min(exact, 4 * n) + 2):
            value, guess, spared = _run_small(search, spec, candidates, *args, beta)
            skipped += spared
            if exact < beta:
                assert (value, guess) == (exact, best), (words, beta)
            else:
                assert beta <= value <= exact and guess == -1, (words, beta, value, exact)
            checked += 1
    assert checked > 50 and skipped > 0


# Four guesses: the root's classes are searched with three guesses left and cut-offs.
LETTER_CASES = [(40, 300, 600, 4)] + [pytest.param(*case, marks=pytest.mark.slow) for case in
                                     [(41, 300, 600, 4), (42, 500, 1500, 4), (43, 400, 900, 4)]]


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", LETTER_CASES)
@pytest.mark.parametrize("mode", ["normal", "hard"])
@pytest.mark.kernels
def test_letter_bound_changes_no_value_and_no_tree(legacy, seed, n_answers, n_guesses, limit,
                                                   mode):
    """The small states' scans by the letter-position bound (docs/algorithms.md §3.9), which
    count only the guesses the bound leaves and keep no list for the subsets, change neither
    the value nor the tie-broken tree: the same tree arrays as the full scans (which the tests
    above hold to the brute force), in normal and hard mode; and they do skip counts."""
    import numpy as np

    # small states scanned by the bound, then not (the letter family off)
    on, off = _solve_with_thresholds(random_sub_list(legacy, seed, n_answers, n_guesses), limit,
                                     mode, [(10**9, 10**9, 64, 0, 4), (10**9, 10**9, 0, 0, 4)])
    assert on[5][3] > 0 and off[5][3] == 0  # counts skipped (and only when on)
    assert on[0] == off[0]
    for a, b in zip(on[1:5], off[1:5]):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("seed,n_answers,n_guesses,limit", LETTER_CASES)
@pytest.mark.parametrize("mode", ["hard", "ultra"])
@pytest.mark.kernels
def test_carried_class_counts_change_no_hard_mode_value_and_no_tree(legacy, seed, n_answers,
                                                                    n_guesses, limit, mode):
    """A hard- or ultra-hard-mode class whose allowed guesses keep their class counts on the
    state (upper bounds that spare scans, docs/algorithms.md §10.1) gets the value and the
    tie-broken tree the search without them gets (which tests/test_hard_mode.py and
    tests/test_ultra_mode.py hold to the brute force); a count carried to the wrong guess
    fails it."""
    import numpy as np

    # the letter family and the small states' scans off, so that only the carried counts differ
    on, off = _solve_with_thresholds(random_sub_list(legacy, seed, n_answers, n_guesses), limit,
                                     mode, [(10**9, 10**9, 0, 0, 4), (10**9, 10**9, 0, 10**9, 4)])
    assert on[0] == off[0]
    for a, b in zip(on[1:5], off[1:5]):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.kernels
def test_column_counts_equal_the_plain_count(legacy):
    """The scans' column pass (docs/algorithms.md §4.2) gives every counted guess its classes on
    S and whether S holds it (the all-green code), as counting each guess's feedbacks does."""
    import numpy as np

    from solver.exact._search_kernel import _count_columns
    from solver.game.feedback import feedback_table

    wl = random_sub_list(legacy, 50, 120, 1200)
    table = feedback_table(wl)
    columns = np.ascontiguousarray(table.T)
    all_green = 242
    rng = np.random.default_rng(50)
    full_splits = 0
    for _ in range(20):
        state = np.sort(rng.choice(wl.n_answers, size=int(rng.integers(1, 60)), replace=False)).astype(np.int32)
        # more candidates than a block of the full-split count (FULL_SPLIT_BLOCK = 512)
        candidates = np.arange(wl.n_guesses, dtype=np.int32)
        picks = np.sort(rng.choice(wl.n_guesses, size=int(rng.integers(0, wl.n_guesses)),
                                   replace=False))
        counted = np.zeros((4, len(picks)), dtype=np.int32)
        counted[0] = picks
        bits = np.zeros((wl.n_guesses, 4), dtype=np.uint64)
        assert _count_columns(columns, state, candidates, counted, bits, all_green, False) == -1
        first_split = -1  # the first counted guess outside S that splits S into singletons
        for t, j in enumerate(picks):
            codes = set(table[candidates[j], state].tolist())
            assert counted[1, t] == candidates[j]
            assert counted[2, t] == len(codes)
            assert counted[3, t] == (all_green in codes)
            if first_split < 0 and len(codes) == len(state) and all_green not in codes:
                first_split = t
        # with full_split the count stops at that guess, every count before it filled
        stopped = np.zeros_like(counted)
        stopped[0] = picks
        assert _count_columns(columns, state, candidates, stopped, bits, all_green, True) == first_split
        last = len(picks) if first_split < 0 else first_split + 1
        assert (stopped[:, :last] == counted[:, :last]).all()
        full_splits += first_split >= 0
    assert 0 < full_splits < 20  # both cases met


@pytest.mark.kernels
@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_a_prepared_search_values_every_guess_as_a_bare_one(legacy, mode):
    """``prepare_search`` (what every whole search of a state does first, and the anytime
    search's guess-by-guess values too) gives the workspace the table's transpose, its branching
    and the letter family's counts over the state's columns (§3.7, §3.8, §4.2); every guess's
    Q-value under every cut-off tried is then what the bare workspace gives, and the family
    does spare scans."""
    import numpy as np

    from solver.exact._family_kernel import family_counts, new_bits
    from solver.exact._search_kernel import branching
    from solver.exact.bellman import _localise, allowed_after, local_rules, search_rules
    from solver.exact.search import evaluate_guess, new_search, prepare_search
    from solver.game.feedback import feedback_table
    from solver.game.hashing import zobrist_keys
    from solver.game.values import INF

    wl = random_sub_list(legacy, 40, 150, 400)
    spec = Game(wl, 5, mode=mode)
    answers = np.arange(wl.n_answers, dtype=np.int32)
    S, P, goa, z1, z2 = _localise(feedback_table(wl), answers, wl.answer_guess_index,
                                  zobrist_keys(wl.n_answers))
    constraint, candidates = allowed_after(spec, [])
    rules = local_rules(search_rules(spec), answers)

    def searches():
        bare = new_search(5, P.shape[0], P.shape[1], spec.n_patterns, 1 << 16)
        ready = new_search(5, P.shape[0], P.shape[1], spec.n_patterns, 1 << 16)
        ready.ws.family_thresholds[:2] = (2, 3)  # the family for this root and every state
        return bare, prepare_search(S, P, goa, ready, np.int64(spec.objective_id), rules)

    bare, ready = searches()
    assert np.array_equal(ready.ws.columns, P.T)
    assert ready.ws.branching[0] == branching(P, spec.all_green) < spec.all_green
    letters = rules.letters[goa]
    family, _, _ = family_counts(np.ascontiguousarray(P.T), letters, spec.n_patterns,
                                 new_bits(P.shape[0], spec.n_patterns))
    assert np.array_equal(ready.ws.family, family)
    assert bare.ws.columns.shape[0] == 0 and bare.ws.family.shape[0] == 0

    def q_value(search, g, beta):
        return int(evaluate_guess(S, np.int64(g), np.int64(5), np.int64(beta), P, goa, z1, z2,
                                  search, np.int64(spec.objective_id), np.int64(spec.mode_id),
                                  rules, constraint, candidates))

    bare, ready = searches()
    for g in candidates[::20 if JIT_OFF else 5]:
        q = q_value(bare, g, INF)
        assert q_value(ready, g, INF) == q
        for beta in (q, q - 2, q - 8):  # cut-offs the guess cannot beat: fail-soft bounds
            assert q_value(bare, g, beta) >= beta and q_value(ready, g, beta) >= beta
    assert bare.stats[3] == 0 and ready.stats[3] > 0  # the family and letters spared scans


@pytest.mark.kernels
@pytest.mark.parametrize("seed", [1, 2])
def test_the_family_bound_is_the_bound_by_every_family_set(legacy, seed):
    """``_family_bound`` (docs/algorithms.md §4.3) reads two of the letter family's rows for
    every guess and the others only for the guesses still above the most found: its bound is
    the one from every set's row minimum (``superset_counts``, held to the brute force in
    tests/test_opener_kernel.py) and the state's stamped class counts, on the classes of random
    guesses and on random subsets, with random counts stamped or stale; in hard mode over only
    the guesses the class's constraint allows."""
    import random

    import numpy as np

    from solver.exact._family_kernel import superset_counts
    from solver.exact._objective_kernel import guess_bound
    from solver.exact._search_kernel import _family_bound
    from solver.game._hard_mode_kernel import MAX_LENGTH, WIDTH, allows, no_constraint, tighten_constraint
    from solver.exact.bellman import _localise, local_rules, search_rules
    from solver.exact.search import new_search, prepare_search
    from solver.game.feedback import feedback_table
    from solver.game.hashing import zobrist_keys

    rng = random.Random(seed)
    wl = random_sub_list(legacy, seed, 200, 600)
    spec = Game(wl, 6)
    answers = np.arange(wl.n_answers, dtype=np.int32)
    S, P, goa, _, _ = _localise(feedback_table(wl), answers, wl.answer_guess_index,
                                zobrist_keys(wl.n_answers))
    search = new_search(6, P.shape[0], P.shape[1], spec.n_patterns, 1 << 10)
    search.ws.family_thresholds[:2] = (2, 3)
    ws = prepare_search(S, P, goa, search, np.int64(spec.objective_id),
                        local_rules(search_rules(spec), answers)).ws
    assert ws.family.shape[0] > 0 and ws.family_sizes[0] == wl.n_answers
    classes = []
    for g in rng.sample(range(wl.n_guesses), 40):
        codes = P[g]
        classes += [np.flatnonzero(codes == c).astype(np.int32) for c in np.unique(codes)]
    classes += [np.sort(np.array(rng.sample(range(wl.n_answers), rng.randint(2, 120)),
                                 dtype=np.int32)) for _ in range(60)]
    upper = np.zeros(wl.n_guesses, dtype=np.uint16)
    letters = search_rules(spec).letters
    serial = 7
    checked = 0
    for cls in classes:
        if len(cls) < 2:
            continue
        kval = np.array([rng.randint(0, 200) for _ in range(wl.n_guesses)], dtype=np.int32)
        stamp = np.array([serial if rng.random() < 0.8 else serial - 1
                          for _ in range(wl.n_guesses)], dtype=np.int64)
        superset_counts(cls, ws.family, ws.answer_masks, ws.answer_letters, upper)
        # normal mode (no constraint: every guess the state's scan counted), then hard mode
        # (only the guesses a constraint from a random guess and feedback allows)
        g = rng.randrange(wl.n_guesses)
        hard = np.empty(WIDTH, dtype=np.int8)
        tighten_constraint(no_constraint(), letters[g], P[g, rng.randrange(wl.n_answers)], hard)
        for constraint in (np.empty(0, dtype=np.int8), hard):
            most = max(1, max((min(int(upper[h]), int(kval[h])) for h in range(wl.n_guesses)
                               if stamp[h] == serial
                               and (len(constraint) == 0 or allows(constraint, letters[h]))),
                              default=0))
            expected = guess_bound(np.int64(spec.objective_id), len(cls), min(most, len(cls)), 1)
            scratch = np.empty(ws.family.shape[0] + MAX_LENGTH, dtype=np.int64)
            assert _family_bound(cls, kval, stamp, np.int64(serial), ws,
                                 np.int64(spec.objective_id), constraint, letters,
                                 scratch) == expected
        checked += 1
    assert checked >= 200
