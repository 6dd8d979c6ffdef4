"""The exact optimal-policy solver: minimise total guesses, or the worst case.

Solves the time-indexed Bellman recursion of Bertsimas & Paskov (Operations Research 2024,
§3) with the pruning and exact small cases of docs/algorithms.md §3–§6; the recursion itself
is the numba kernel :mod:`solver.exact._search_kernel`, compiled once per objective
(:mod:`solver.exact._objective_kernel`, docs/algorithms.md §2.4). The game (word length,
guess limit, mode, objective, priors) is a :class:`solver.game.spec.Game`. With a fixed opener, the root's
feedback classes are independent sub-problems: they are solved in parallel by forked worker
processes (:mod:`solver.exact.executor`), largest first — a class of at least
:data:`SHARE_MIN` answers by all the workers together, each searching its share of the class's
candidates, with one memo they all write (docs/algorithms.md §4.5), as is a state of at
least :data:`STATE_SHARE_MIN` asked alone (:func:`solve_from`) — and each finished class is
recorded in a journal (:mod:`solver.runs.journal`) so an interrupted solve resumes. :func:`solve_and_save` (what
``python -m tools.solve`` runs) checks the output path and the cache before any work, and
discards the journal only once the artifact is written, so a failed final write loses nothing.

Tie-break (what makes the tree deterministic, docs/algorithms.md §4.4): at every state the
guess played is the first optimal guess in the candidate order (the objective's lower bound
ascending — ``3n − k − [g ∈ S]`` for the total — then Σ|C|² ascending, then alphabetical),
among the guesses that split the state.

Around the search: the result types (:mod:`solver.exact.results`), the inputs checked and put
in the kernels' form (:mod:`solver.exact.inputs`), the workers (:mod:`solver.exact.executor`)
and the artifact's bytes and write (:mod:`solver.exact.artifacts`); their public names are
re-exported here.
"""

from __future__ import annotations

import itertools
import time
from collections import namedtuple
from pathlib import Path

import numpy as np

from policy_tree.tree import DecisionTree
from solver.exact.artifacts import (_kept_proof, artifact_bytes, default_artifact_path,  # noqa: F401
                                    save_artifact)
from solver.exact.executor import DeadlineReached, Executor  # noqa: F401
from solver.exact.inputs import (_localise, _state_array, allowed_after,  # noqa: F401
                                 check_searchable, local_rules, objective_id, search_rules)
from solver.exact.results import (MAX_ANSWERS, MAX_GUESSES, SolveResult,  # noqa: F401
                                  StateSolution, UnwinnableError)
from solver.exact.versions import SOLVER_VERSION
from solver.game.checks import check_jobs, worker_count
from solver.game.errors import InputError, WriteFailedError
from solver.game.feedback import TableParts, code_to_text, feedback_table, table_cache_path
from solver.game.files import prepare_output_file, usable_cache_dir
from solver.game.hashing import zobrist_keys
from solver.game.spec import Game, Objective
from solver.game.values import INF
from solver.runs.naming import artifact_path, check_artifact_name, game_inputs, journal_path  # noqa: F401
from solver.game.wording import counted

def _memo_capacity(class_size: int) -> int:
    # ~40 bytes a slot: 2**21 slots (80 MB) covers the classes of any reasonable opener with
    # room; a class of more than 1,000 answers (a poor opener's all-gray class: FUZZY's 1,352)
    # searches some 200,000 states and bounds millions of classes, and with 2**23 slots
    # (335 MB) fewer of them are overwritten and searched again (10 % less time on FUZZY's).
    if class_size > 1000:
        return 1 << 23
    return 1 << 21 if class_size > 64 else 1 << 16


_WORKER_TABLES: dict[str, np.ndarray] = {}


def _worker_table(table_path: str) -> np.ndarray:
    """The feedback table, loaded once per worker process from the on-disk cache (a writable
    array: a read-only memmap would make numba compile a second specialisation)."""
    if table_path not in _WORKER_TABLES:
        _WORKER_TABLES.clear()
        # copy-on-write mapping: shared pages, and writable, so numba types it as ever
        _WORKER_TABLES[table_path] = np.load(table_path, allow_pickle=False,
                                             mmap_mode="c").view(np.ndarray)
    return _WORKER_TABLES[table_path]


_WORKER_SEARCH: dict[tuple, tuple] = {}


def _worker_search(memo_capacity: int, depth: int, n_guesses: int, n_answers: int,
                   n_patterns: int) -> tuple:
    """A memo of ``memo_capacity`` slots, a workspace and stats for one root class, as new
    (:func:`solver.exact.search.reset_search`). The memory is kept across the classes a
    process solves: new arrays for each of a SALET tree's 148 classes cost 0.4 s of page
    faults. The memo's slots are the first ``memo_capacity`` of its arrays (regrown when a
    class needs more), so the hash table is the one a new memo of that capacity would be."""
    from solver.exact.search import new_search, reset_search

    shape = (depth, n_guesses, n_answers, n_patterns)
    kept = _WORKER_SEARCH.get(shape)
    if kept is None or kept[0] < memo_capacity:
        _WORKER_SEARCH.clear()  # the old arrays go before the new ones are made
        kept = _WORKER_SEARCH[shape] = (memo_capacity, new_search(*shape, memo_capacity))
    memo, workspace, stats = kept[1]
    search = type(kept[1])(type(memo)(*(array[:memo_capacity] for array in memo)), workspace, stats)
    reset_search(search)
    return search


#: A solve's root class of at least this many answers is searched by all the workers
#: together, each taking its share of the root's candidates (docs/algorithms.md §4.5), where
#: the platform forks (the shares' common memory is inherited). Smaller ones take a few
#: seconds at most, and a solve's many classes already keep the workers busy.
SHARE_MIN = 400
#: A lone state (a player's question, :func:`solve_from`) of at least this many answers is
#: searched by all the workers together (§4.5, §15.1): nothing else would keep the other
#: workers busy, so sharing pays once the search takes more than the shares' start (a fork
#: and the letter family: about 0.2 s); smaller states' searches are mostly shorter than
#: that (docs/algorithms.md §4.5).
STATE_SHARE_MIN = 300

#: The shared roots' keys by token: anonymous shared memory made before the workers fork.
_SHARED_KEYS: dict[int, np.ndarray] = {}
_SHARED_TOKENS = itertools.count()

#: One shared root's letter family (docs/algorithms.md §3.8), which its shares build together
#: (§4.5): ``family`` uint16[sets, n_guesses] and ``sizes`` int64[sets] as
#: :func:`~solver.exact._family_kernel.family_counts` gives them, ``done`` uint8[sets] the
#: rows finished, ``claims`` int64[1] the next row to claim; in anonymous shared memory made
#: before the workers fork, read and written under ``lock`` (a fork context's lock, whose
#: acquire and release order the rows' writes before the flags that say they are done).
SharedFamily = namedtuple("SharedFamily", ["family", "sizes", "done", "claims", "lock"])
#: The shared roots' families by token, one per row (:func:`_new_shared_keys`).
_SHARED_FAMILIES: dict[int, list] = {}
#: The shared roots' memos by token, one per row: each root's shares write one memo
#: (:func:`_new_shared_memo`, §4.5).
_SHARED_MEMOS: dict[int, list] = {}
#: A shared state's inputs by token (:func:`subtree`): the forked workers find them here, as
#: they were when the workers forked, instead of in their tasks. A task is pickled and sent
#: through a pipe, one worker after another, and a root's columns of the table are megabytes
#: (PIZZA ``bbbby``'s 607 answers: 7.9 MB; the second share started 0.06 s after the fork).
_SHARED_STATES: dict[int, tuple] = {}
#: Seconds a share waits for rows another share claimed before it counts them itself (that
#: share stalled or died; a row takes milliseconds, and counting one twice writes the same).
FAMILY_WAIT = 1.0


def can_share(workers: int) -> bool:
    """True if ``workers`` processes can search one root together: more than one, forked,
    from a process that may start processes (not a daemonic one)."""
    import multiprocessing

    return (workers > 1 and "fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon)


def share_workers(n_answers: int, jobs) -> int:
    """How many processes search a state of ``n_answers`` together (§4.5) when ``jobs``
    (as :func:`~solver.game.checks.worker_count` reads it) are allowed: the workers when the
    state has at least :data:`STATE_SHARE_MIN` answers and :func:`can_share`, else 1 (one
    search in this process)."""
    # the size first: counting the workers imports joblib (0.1 s a process start pays for none
    # of the states a player usually asks about)
    workers = worker_count(jobs) if n_answers >= STATE_SHARE_MIN else 1
    return workers if can_share(workers) else 1


def _new_shared_keys(rows: int, shares: int, memo_capacities: tuple, n_guesses: int = 0,
                     word_length: int = 0) -> int:
    """Shared memory for ``rows`` roots of ``shares`` shares each, as the shares must find it
    (:func:`solver.exact.search.reset_shared_keys`: each row the shares' keys, the claim
    counter, then each share's last claim), a memo per row of ``memo_capacities[row]`` slots that the row's shares all
    write, and with ``n_guesses`` a :class:`SharedFamily` per row for words of
    ``word_length`` letters; returns its token (:func:`release_shared_root`)."""
    import mmap

    from solver.exact.search import reset_shared_keys, shared_width

    token = next(_SHARED_TOKENS)
    # MAP_SHARED | MAP_ANONYMOUS: forked workers see each other's writes
    width = shared_width(shares)
    keys = np.frombuffer(mmap.mmap(-1, 8 * max(rows * width, 1)), dtype=np.int64)
    keys = reset_shared_keys(keys[:rows * width].reshape(rows, width))
    _SHARED_KEYS[token] = keys
    if n_guesses:
        _SHARED_FAMILIES[token] = [_new_shared_family(n_guesses, word_length)
                                   for _ in range(rows)]
    _SHARED_MEMOS[token] = [_new_shared_memo(capacity) for capacity in memo_capacities]
    return token


def _new_shared_family(n_guesses: int, word_length: int) -> SharedFamily:
    """A :class:`SharedFamily` of no row done, in anonymous shared memory (its pages are
    mapped only as rows are written)."""
    import mmap
    import multiprocessing

    from solver.exact._family_kernel import family_size

    # its Python body (no kernel to load here; with the JIT off, family_size is that body)
    n_sets = int(getattr(family_size, "py_func", family_size)(word_length))
    at_done = 8 * n_sets + 8
    at_family = -(-(at_done + n_sets) // 64) * 64  # (aligned, as numba types a fresh array)
    buffer = mmap.mmap(-1, at_family + 2 * n_sets * n_guesses)
    return SharedFamily(
        np.frombuffer(buffer, np.uint16, n_sets * n_guesses, at_family).reshape(n_sets, n_guesses),
        np.frombuffer(buffer, np.int64, n_sets, 0), np.frombuffer(buffer, np.uint8, n_sets, at_done),
        np.frombuffer(buffer, np.int64, 1, 8 * n_sets), multiprocessing.get_context("fork").Lock())


def _new_shared_memo(capacity: int):
    """An empty :class:`~solver.game._memo_kernel.Memo` of ``capacity`` slots (a power of two)
    in anonymous shared memory: processes forked after it is made read and write the same
    table (docs/algorithms.md §5; its pages are mapped as slots are written). Unlike
    :func:`~solver.game._memo_kernel.memo_arrays`, an empty slot's ``extra`` is 0: no read
    looks past a slot's meta of 0."""
    import mmap

    from solver.game._memo_kernel import Memo, memo_arrays

    dtypes = [field.dtype for field in memo_arrays(1)]  # the fields as a memo has them
    buffer = mmap.mmap(-1, capacity * sum(dtype.itemsize for dtype in dtypes))  # MAP_SHARED
    offsets = np.cumsum([0] + [capacity * dtype.itemsize for dtype in dtypes])
    return Memo(*(np.frombuffer(buffer, dtype, capacity, int(offset))
                  for dtype, offset in zip(dtypes, offsets)))


def release_shared_root(token: int) -> None:
    """Drop this process's references to the shares' memory of ``token``
    (:func:`_new_shared_keys`, :func:`new_shared_root`)."""
    _SHARED_KEYS.pop(token, None)
    _SHARED_FAMILIES.pop(token, None)
    _SHARED_MEMOS.pop(token, None)
    _SHARED_STATES.pop(token, None)


def _shared(search, share, guesses_left: int, local, objective: int, rules, n_patterns: int):
    """``search`` as the share ``share`` = (token, row, index, shares) says, or as it is; a
    share of a root whose search builds the letter family (``local`` the root's localised
    inputs, :func:`_localise`) gets the family its shares built together
    (:func:`_shared_family`)."""
    if share is None:
        return search
    from solver.exact.search import family_wanted, share_search

    token, row, index, shares = share
    search = share_search(search, index, shares, guesses_left, _SHARED_KEYS[token][row],
                          _SHARED_MEMOS[token][row])
    if token not in _SHARED_FAMILIES or not family_wanted(local[0], local[1], np.int64(objective),
                                                           search.ws.family_thresholds):
        return search
    return _shared_family(search, _SHARED_FAMILIES[token][row], local, rules, n_patterns)


def _shared_family(search, shared: SharedFamily, local, rules, n_patterns: int):
    """``search`` with the letter family of the root's answers (§3.8), its rows claimed one at
    a time by the root's shares and counted by whichever claimed each (§4.5); each share then
    waits for the rows the others claimed (at most :data:`FAMILY_WAIT` seconds without one
    finishing, and then counts what is left itself). The rows are the ones a share alone
    would count (:func:`~solver.exact._family_kernel.family_counts`), so the search is too."""
    from solver.exact._family_kernel import family_masks, family_row, new_bits

    _, P, guess_of_answer = local[:3]
    answer_letters = np.ascontiguousarray(rules.letters[guess_of_answer])
    masks = family_masks(answer_letters)
    PT = np.ascontiguousarray(P.T)
    bits = new_bits(P.shape[0], n_patterns)
    members = np.empty(P.shape[1], dtype=np.int32)
    lock = shared.lock

    def count(row: int) -> None:
        with lock:
            first_known = bool(shared.done[0])
        size = family_row(PT, answer_letters, masks, np.int64(row), shared.family, bits, members,
                          first_known)
        with lock:
            shared.sizes[row] = size
            shared.done[row] = 1

    n_sets = shared.family.shape[0]
    while True:
        with lock:
            row = int(shared.claims[0])
            shared.claims[0] = row + 1
        if row >= n_sets:
            break
        count(row)
    finished, since = -1, time.monotonic()
    while True:
        with lock:
            missing = np.flatnonzero(shared.done == 0)
        if missing.size == 0:
            break
        if missing.size != finished:
            finished, since = missing.size, time.monotonic()
        elif time.monotonic() - since > FAMILY_WAIT:
            for row in missing:
                count(int(row))
            break
        time.sleep(0.0005)
    memo, ws, stats = search
    ws = ws._replace(family=shared.family, answer_masks=masks, answer_letters=answer_letters,
                     family_sizes=shared.sizes)
    return type(search)(memo, ws, stats)


def _worker_class(table_path, guess_of_answer, answers, guesses_left, zobrist, n_patterns,
                  shared: bool = False):
    """A root class's inputs in this worker: its state, table, guess of each answer and
    Zobrist keys cut down to its ``answers`` (:func:`_localise`), and this worker's search
    sized for it (:func:`_worker_search`); for a share of a shared class (``shared``), with a
    memo of one slot, which the shares' memo replaces (:func:`_shared`)."""
    full_table = _worker_table(table_path)
    state, table, local_guess_of_answer, z1, z2 = _localise(
        full_table, answers, guess_of_answer, zobrist)
    search = _worker_search(1 if shared else _memo_capacity(len(answers)), guesses_left,
                            full_table.shape[0], full_table.shape[1], n_patterns)
    return state, table, local_guess_of_answer, z1, z2, search


def _solve_class(code, table_path, guess_of_answer, answers, guesses_left, zobrist, n_patterns,
                 mode_id, rules, constraint, candidates, objective_id, share=None):
    """One root class (a worker task): returns (code, share index or -1, (value, tree
    arrays..., stats)). ``share`` (token, row, index, shares): the class is a shared root
    (§4.5) and this task is one of its shares."""
    from solver.exact.search import search_subtree

    state, table, local_guess_of_answer, z1, z2, search = _worker_class(
        table_path, guess_of_answer, answers, guesses_left, zobrist, n_patterns,
        shared=share is not None)
    rules = local_rules(rules, answers)
    search = _shared(search, share, guesses_left, (state, table, local_guess_of_answer),
                     objective_id, rules, n_patterns)
    result = search_subtree(state, guesses_left, table, local_guess_of_answer, z1, z2, search,
                            objective_id, mode_id, rules, constraint, candidates)
    return code, -1 if share is None else share[2], result


def _solve_task(task: tuple):
    """:func:`_solve_class` of one task tuple (what the executor's workers call)."""
    return _solve_class(*task)


def _state_share(task: tuple):
    """One share of a shared state (a worker task, :func:`subtree`): ``task`` (token, share
    index, shares), the state's inputs in :data:`_SHARED_STATES`; returns (share index,
    result)."""
    from solver.exact.search import new_search, search_subtree

    token, index, shares = task
    local, d, n_patterns, objective, mode, rules, *rest = _SHARED_STATES[token]
    # (a memo of one slot: the shares' memo replaces it)
    search = new_search(d, local[1].shape[0], local[1].shape[1], n_patterns, 1)
    search = _shared(search, (token, 0, index, shares), d, local, objective, rules, n_patterns)
    return index, search_subtree(local[0], d, *local[1:], search, objective, mode, rules, *rest)


def _winner(token: int, row: int, shares: dict) -> tuple:
    """The result of a shared root from its shares' ``{index: result}`` (§4.5): the winning
    share's tree, with the work of all the shares in its stats."""
    from solver.exact.search import shared_winner

    result = shares[shared_winner(_SHARED_KEYS[token][row])]
    stats = sum(r[-1] for r in shares.values())
    return (*result[:-1], stats)


def subtree(local, d: int, capacity: int, n_patterns: int, objective: int, mode: int, rules,
            constraint, candidates, *, jobs: int = 1, root: int | None = None) -> tuple:
    """The search kernel's ``solve_subtree`` of a localised state (``local`` as
    :func:`_localise` gives it), its root searched by ``jobs`` workers together (§4.5) when it
    has at least :data:`STATE_SHARE_MIN` answers and the platform forks; the same result, byte for
    byte, either way. ``root``: the shares' memory, made by :func:`new_shared_root` for that
    many workers (the caller, or a process it forked, then reads their best so far,
    :func:`shared_best`), released by the caller; None: made and released here."""
    from solver.exact.search import shared_width, solve_subtree

    workers = share_workers(len(local[0]), jobs)
    if workers == 1:
        return solve_subtree(local[0], d, *local[1:], capacity, n_patterns, objective, mode,
                             rules, constraint, candidates)
    token = root if root is not None else new_shared_root(
        workers, capacity, local[1].shape[0], rules.letters.shape[1])
    if _SHARED_KEYS[token].shape[1] != shared_width(workers):
        raise ValueError(f"the shares' memory of root {token} was not made for {workers} workers")
    try:
        _SHARED_STATES[token] = (local, d, n_patterns, objective, mode, rules, constraint,
                                 candidates)
        tasks = [(token, index, workers) for index in range(workers)]
        shares = dict(Executor(workers).as_finished(_state_share, tasks, workers))
        return _winner(token, 0, shares)
    finally:
        _SHARED_STATES.pop(token, None)
        if root is None:
            release_shared_root(token)


def new_shared_root(workers: int, capacity: int, n_guesses: int, word_length: int) -> int:
    """The memory ``workers`` shares of one state's root search together (§4.5: their keys,
    claim counter, memo of ``capacity`` slots and letter family, for a table of ``n_guesses``
    guesses of ``word_length`` letters), for :func:`subtree`'s ``root``; returns its token.
    Processes forked after it is made see the shares' writes (:func:`shared_best`)."""
    return _new_shared_keys(1, workers, (capacity,), n_guesses, word_length)


def shared_best(token: int):
    """What the shares of the root ``token`` (:func:`new_shared_root`) have settled so far: a
    :class:`~solver.exact._search_kernel.SharedBest` (the best candidate finished, its exact
    ``value`` and ``position`` in the root's candidate order — bound, order term, guess index,
    §4.2 — both None before any; ``unsettled``, the first position that may not be finished;
    :func:`solver.exact.search.shared_best`). Once the shares are done, ``value`` is the root's
    ``V*`` and ``position`` the first optimal guess's."""
    from solver.exact.search import shared_best as best

    return best(_SHARED_KEYS[token][0])


def shared_memo(token: int):
    """The memo the shares of the root ``token`` (:func:`new_shared_root`) write: once they are
    done, what they found below the root serves a later search of it in any process forked
    after the root was made (§4.4: no memo changes a value)."""
    return _SHARED_MEMOS[token][0]


def _solve_lexicographic_class(code, table_path, guess_of_answer, answers, guesses_left, zobrist,
                               n_patterns, mode_id, rules, constraint, candidates, objective):
    """One root class under a ``total,…`` objective (a worker task, :func:`_solve_class`'s
    arguments with the :class:`Objective` last, never shared): returns (code, -1, (total,
    tree arrays..., stats))."""
    from solver.exact.lexicographic import solve_class

    state, table, local_guess_of_answer, z1, z2, search = _worker_class(
        table_path, guess_of_answer, answers, guesses_left, zobrist, n_patterns)
    return code, -1, solve_class(objective, state, guesses_left, table, local_guess_of_answer,
                                 z1, z2, search, n_patterns, mode_id, local_rules(rules, answers),
                                 constraint, candidates)


def _solve_lexicographic_task(task: tuple):
    """:func:`_solve_lexicographic_class` of one task tuple."""
    return _solve_lexicographic_class(*task)


def solve_state(game: Game, answers, guesses_left: int, table=None):
    """Exact optimum of one state: ``(value, guess)``.

    Args:
        game: the :class:`~solver.game.spec.Game`: its objective (Σ over the answers of
            guesses still needed, or the most guesses any of them needs, docs/algorithms.md
            §2), mode (hard mode from an empty history: every guess allowed at first), priors
            (the value is then Σ w_a · guesses(a) in the priors' integer weights, §10.3) and
            feedback rule (§10.4); its guess limit is not read (``guesses_left`` is).
        answers: the answers still possible, as words or answer indices (any order).
        guesses_left: guesses still allowed, ≥ 1.
        table: the feedback table of the game's rule, whole or its
            :class:`~solver.game.feedback.TableParts` (omitted: the state's columns, read from
            the cached table or computed).

    Returns:
        ``(value, guess)``: the optimal value under the objective (an int), and the word to
        play (the tie-break in the module docstring).

    Raises:
        UnwinnableError: no policy wins every answer in time.
        InputError: an empty state, an unknown answer, ``guesses_left < 1``, lists too large.
    """
    from solver.exact.search import solve_state as kernel

    word_list = check_searchable(game).word_list
    state = _state_array(word_list, answers)
    if guesses_left < 1:
        raise InputError(f"guesses_left must be at least 1, got {guesses_left}")
    table = TableParts.of(word_list, game.feedback, table)
    local_state, local_table, guess_of_answer, z1, z2 = _localise(
        table, state, word_list.answer_guess_index, zobrist_keys(word_list.n_answers))
    constraint, candidates = allowed_after(game, [])
    value, guess = kernel(local_state, int(guesses_left), local_table, guess_of_answer, z1, z2,
                          _memo_capacity(len(state)), game.n_patterns, objective_id(game),
                          game.mode_id, local_rules(search_rules(game), state),
                          constraint, candidates)
    if value >= INF:
        raise UnwinnableError(f"no policy wins all {counted(len(state), 'answer')} within "
                              f"{counted(guesses_left, 'guess')}")
    return int(value), word_list.guesses[int(guess)]


def solve_from(game: Game, history, *, table=None, jobs: int = -1) -> StateSolution:
    """The exact optimal subtree after a history of guesses and their feedback.

    Args:
        game: the :class:`~solver.game.spec.Game` (guess limit, objective §2, priors §10.3,
            feedback rule §10.4 under which the history's feedback is read; in hard mode every
            guess of the history must be allowed after those before it, and the subtree uses
            only allowed guesses, §10).
        history: (guess word, feedback) pairs as played, feedback as a code or ``"bbygb"``
            text; any guesses, on or off any tree.
        table: the feedback table of the game's rule, whole or its
            :class:`~solver.game.feedback.TableParts` (omitted: the history's rows and the
            state's columns, read from the cached table or computed).
        jobs: worker processes (-1: all cores, as joblib counts them) that search a state of
            at least :data:`STATE_SHARE_MIN` answers together (docs/algorithms.md §4.5); the same
            result whatever the number.

    Returns:
        :class:`StateSolution` with the state, its value and the optimal subtree (tie-break of
        the module docstring). A history that ends in all-green has value 0 and no tree.

    Raises:
        UnknownWordError, FeedbackError, HardModeError: see
            :meth:`solver.game.history.History.parse` (a history no answer fits:
            FeedbackError naming the guess).
        UnwinnableError: the state cannot be won within the guesses left.
    """
    from solver.game.history import History

    history = list(history)
    word_list = check_searchable(game).word_list
    table = TableParts.of(word_list, game.feedback, table)
    parsed = History.parse(game, history, limit=False)
    state = parsed.state(table)
    empty = DecisionTree(np.zeros(0, np.uint32), np.zeros(1, np.uint32),
                         np.zeros(0, game.code_dtype), np.zeros(0, np.uint32), game.word_length)
    answers = tuple(word_list.answers[int(a)] for a in state)
    guesses_left = game.guess_limit - len(history)
    if history:
        last_guess, _ = history[-1]
        if state.size == 1 and word_list.guesses[word_list.guess_index(last_guess)] == answers[0]:
            return StateSolution(game, history, answers, guesses_left, 0, empty)
    if guesses_left < 1:
        raise UnwinnableError(f"no guesses are left after {counted(len(history), 'guess')}")
    local_state, local_table, guess_of_answer, z1, z2 = _localise(
        table, state, word_list.answer_guess_index, zobrist_keys(word_list.n_answers))
    constraint, candidates = parsed.constraint(), parsed.allowed_guesses()
    value, node_guess, edge_start, edge_feedback, edge_child, _ = subtree(
        (local_state, local_table, guess_of_answer, z1, z2), guesses_left,
        _memo_capacity(len(state)), game.n_patterns, objective_id(game), game.mode_id,
        local_rules(search_rules(game), state), constraint, candidates, jobs=jobs)
    if value >= INF:
        raise UnwinnableError(f"the {len(state)} answers left cannot all be won within "
                              f"{guesses_left} more guesses")
    tree = DecisionTree(node_guess, edge_start, edge_feedback, edge_child, game.word_length)
    return StateSolution(game, history, answers, guesses_left, int(value), tree)


def _open_journal(game: Game, opener: str, resume: bool):
    """The solve's :class:`~solver.runs.journal.Journal` (:mod:`solver.runs.journal`): one
    record per finished root class, kept in ``cache_dir()/journals`` until the tree is
    assembled (:func:`solve`) or, with ``keep_journal``, until the artifact is written
    (:func:`save_artifact`, :func:`solve_and_save`). Named by
    :func:`solver.runs.naming.journal_path` (kind ``solve``: the game, the opener); the
    solver version and the kernels' sources are in its fingerprint, so a journal of an older
    solver is refused rather than reused: ForeignJournalError when ``resume`` and the file
    holds another run's journal."""
    from solver.runs.journal import Journal, run_fingerprint

    priors = game.priors
    fingerprint = run_fingerprint(game.word_list, kind="solve", solver_version=SOLVER_VERSION,
                                  mode=game.mode.value, objective=game.objective.value,
                                  guess_limit=game.guess_limit, opener=opener,
                                  priors=priors.sha256 if priors is not None else None,
                                  feedback=game.feedback.value)
    if game.objective.lexicographic:  # its classes are built by Python code, not only kernels
        import hashlib

        from solver.exact import lexicographic

        fingerprint["lexicographic"] = hashlib.sha256(
            Path(lexicographic.__file__).read_bytes()).hexdigest()
    # a root class is journaled as it finishes; fsyncing each of a quick tree's 148 classes took
    # longer than its search, so they are fsynced at most once a second (a killed process
    # still loses nothing written: solver.runs.journal, Durability)
    return Journal.open(journal_path("solve", *game_inputs(game), opener), fingerprint,
                        resume=resume, sync_interval=1.0)


def _class_record(result) -> dict:
    """A root class's kernel result as a journal payload (the arrays stored as they are)."""
    value, node_guess, edge_start, edge_feedback, edge_child, stats = result
    return {"value": int(value), "node_guess": node_guess, "edge_start": edge_start,
            "edge_feedback": edge_feedback, "edge_child": edge_child, "stats": stats}


def _class_result(record: dict) -> tuple:
    """The kernel result tuple of a journal payload written by :func:`_class_record`
    (TypeError when it is not of that shape: :meth:`solver.runs.journal.Journal.reading`)."""
    arrays = [record[name] for name in ("node_guess", "edge_start", "edge_feedback", "edge_child")]
    if not all(isinstance(a, np.ndarray) and a.ndim == 1 for a in arrays):
        raise TypeError("a root class's tree arrays are not one-dimensional arrays")
    return (int(record["value"]), *arrays, record["stats"])


def solve(game: Game, opener: str = "salet", *, jobs: int = -1, progress=None,
          resume: bool = True, keep_journal: bool = False,
          deadline: float | None = None) -> SolveResult:
    """Solve the optimal decision tree with a fixed opener.

    Args:
        game: the :class:`~solver.game.spec.Game`: its lists, guess limit (games must be won
            within it), objective (Σ guesses, docs/algorithms.md §2.1, or the maximum number of
            guesses, §2.2), mode (hard: every guess uses the hints so far, §10), priors
            (minimise Σ_a w_a · guesses(a), the expected guesses under the weights, §10.3) and
            feedback rule (Yellow Wordle: every green shown as yellow unless the guess is
            right, §10.4).
        opener: the first guess; must be an allowed guess.
        jobs: worker processes for the root classes (-1: all cores, as joblib counts them;
            1: in-process).
        progress: optional callable ``progress(done_answers, total_answers)`` called as
            classes finish.
        resume: reuse the root classes journaled by an interrupted run of the same solve
            (:func:`_open_journal`); False discards that journal and starts over.
        keep_journal: keep the journal after the solve (in ``result.journal``), so that
            :func:`save_artifact` discards it only once the artifact is written; by default
            it is discarded as soon as the tree is assembled.
        deadline: a :func:`time.monotonic` time past which the solve stops with
            :class:`DeadlineReached` (the finished root classes stay in the journal); None:
            no limit.

    Returns:
        :class:`SolveResult` with the exact optimal total for this opener and its tree.

    Raises:
        UnknownWordError: the opener is not an allowed guess.
        UnwinnableError: no policy with this opener wins every game within the limit.
        InputError: lists too large for the search, or a bad ``jobs`` (0).
        ForeignJournalError: ``resume`` and the solve's journal was written by another
            solver version or other kernels (rerun with ``resume=False``).
    """
    word_list = check_searchable(game).word_list
    guess_limit = game.guess_limit
    opener = opener.strip().lower()
    opener_index = word_list.guess_index(opener)
    if game.objective is Objective.WORST_TOTAL:
        return _solve_worst_total(game, opener, jobs=jobs, progress=progress, resume=resume,
                                  keep_journal=keep_journal, deadline=deadline)
    lexicographic = game.objective.lexicographic
    if lexicographic:  # total,worst or total,tail: the recursion over total-optimal guesses
        from solver.exact.lexicographic import check_lexicographic

        check_lexicographic(game)
    search_objective = game.objective if lexicographic else objective_id(game)
    solve_task = _solve_lexicographic_task if lexicographic else _solve_task
    jobs = check_jobs(jobs)
    started = time.perf_counter()
    table = feedback_table(word_list, feedback=game.feedback)
    codes = table[opener_index]
    root_classes = [
        (int(p), np.flatnonzero(codes == p).astype(np.int32))
        for p in np.unique(codes) if p != game.all_green
    ]
    zobrist = zobrist_keys(word_list.n_answers)
    journal = _open_journal(game, opener, resume)
    with journal.reading():  # a record of the wrong shape: a clean error naming the file
        results: dict[int, tuple] = {code: _class_result(journal.get(str(code)))
                                     for code, _ in root_classes if str(code) in journal}
    todo = sorted((c for c in root_classes if c[0] not in results), key=lambda c: (-len(c[1]), c[0]))
    done_answers = sum(len(s) for c, s in root_classes if c in results)
    if progress is not None:
        progress(done_answers, word_list.n_answers)
    if guess_limit == 1 and root_classes:
        raise UnwinnableError(f"opener {opener!r} cannot win every game in 1 guess")
    if todo:
        workers = worker_count(jobs)
        # the big classes are each searched by all the workers together (§4.5), first
        shared = [c for c in todo if len(c[1]) >= SHARE_MIN] if not lexicographic and can_share(
            workers) else []
        if not shared:
            workers = min(workers, len(todo))
        table_path = str(table_cache_path(word_list, game.feedback))
        rules = search_rules(game)
        token = (_new_shared_keys(len(shared), workers,
                                  tuple(_memo_capacity(len(c[1])) for c in shared),
                                  word_list.n_guesses, game.word_length)
                 if shared else None)
        rows = {c[0]: row for row, c in enumerate(shared)}

        def task(code, states, index=None):
            """The task of a root class, or of share ``index`` of a shared one."""
            args = (code, table_path, word_list.answer_guess_index, states, guess_limit - 1,
                    zobrist, game.n_patterns, game.mode_id, rules,
                    *allowed_after(game, [(opener, code)]), search_objective)
            return args if index is None else (*args, (token, rows[code], index, workers))

        def tasks():
            for code, states in todo:
                for index in range(workers) if code in rows else [None]:
                    yield task(code, states, index)

        # With workers, the smallest class is solved here first: its call loads the search
        # kernel (numba's first call of it, about 0.2 s), which the workers forked after it
        # inherit instead of each loading it again. Not under a deadline: this process then
        # only watches the clock.
        here = ([todo.pop()] if workers > 1 and len(todo) > 1 and deadline is None
                and todo[-1][0] not in rows else [])
        n_tasks = sum(workers if c[0] in rows else 1 for c in todo)
        finished = itertools.chain(
            (solve_task(task(*c)) for c in here),
            Executor(workers).as_finished(solve_task, tasks(), n_tasks, deadline))
        sizes = dict((c, len(s)) for c, s in root_classes)
        shares: dict[int, dict] = {}
        try:
            for code, index, result in finished:
                if index >= 0:  # a share of a shared class: the class is done with its last
                    shares.setdefault(code, {})[index] = result
                    if len(shares[code]) < workers:
                        continue
                    result = _winner(token, rows[code], shares.pop(code))
                if result[0] >= INF:
                    raise UnwinnableError(
                        f"opener {opener!r}: after {opener}:{code_to_text(code, game.word_length)} "
                        f"the {sizes[code]} answers left cannot all be won within {guess_limit} "
                        "guesses")
                results[code] = result
                journal.append(str(code), _class_record(result))
                done_answers += sizes[code]
                if progress is not None:
                    progress(done_answers, word_list.n_answers)
        except DeadlineReached as reached:  # what is finished, for a proven interval
            reached.class_values = {c: int(r[0]) for c, r in results.items()}
            raise
        finally:
            _WORKER_SEARCH.clear()  # this process's memo (up to 335 MB) is not kept past the solve
            if token is not None:
                release_shared_root(token)
    tree, stats = _assemble(opener_index, root_classes, results, game)
    per_answer = tree.guesses_per_answer(lambda g, a: int(table[g, a]), range(word_list.n_answers))
    total = int(per_answer.sum())
    replayed, expected = _check_value(game, per_answer, [int(results[c][0]) for c, _ in root_classes])
    if replayed != expected or per_answer.min() < 1:
        raise AssertionError(f"tree replays to {replayed} but the search found {expected}")
    seconds = time.perf_counter() - started
    if not keep_journal:
        journal.discard()  # the tree is assembled and checked: nothing left to resume
    return SolveResult(game, opener, total, tree, per_answer, seconds, stats,
                       journal if keep_journal else None)


def _solve_worst_total(game: Game, opener: str, **options) -> SolveResult:
    """:func:`solve` under ``worst,total`` (docs/algorithms.md §2.5): the least worst case W*
    of the opener's trees (the worst-case solve), then the least total among the trees that
    win every game within W* guesses (the total solve under the guess limit W*), which are
    exactly the trees whose worst case is W*. The result's game is ``game`` (its guess limit,
    its histogram's length); its stats are both solves' added."""
    started = time.perf_counter()
    keep_journal = options.pop("keep_journal")
    worst = solve(game.replace(objective=Objective.WORST), opener, keep_journal=False, **options)
    total = solve(game.replace(objective=Objective.TOTAL, guess_limit=worst.max_guesses), opener,
                  keep_journal=keep_journal, **options)
    stats = {name: worst.stats.get(name, 0) + total.stats.get(name, 0)
             for name in set(worst.stats) | set(total.stats)}
    return SolveResult(game, total.opener, total.total, total.tree, total.guesses_per_answer,
                       time.perf_counter() - started, stats, total.journal)


def _check_value(game: Game, per_answer: np.ndarray, class_values: list[int]) -> tuple[int, int]:
    """(the replayed tree's value, the value the search found) under the objective: the total
    is n + Σ class values (W + Σ under priors); the worst case is 1 + the largest class value
    (1 with no class)."""
    priors = game.priors
    if priors is not None:
        return (int((priors.weights * per_answer).sum()),
                int(priors.weights.sum()) + sum(class_values))
    if game.objective.primary is Objective.WORST:
        return int(per_answer.max()), 1 + max(class_values, default=0)
    return int(per_answer.sum()), len(per_answer) + sum(class_values)


def _assemble(opener_index: int, root_classes, results, game: Game) -> tuple[DecisionTree, dict]:
    """Join the root node and the class subtrees (ascending feedback) into one preorder tree."""
    n_root_edges = len(root_classes)
    node_guess = [np.array([opener_index], dtype=np.uint32)]
    edge_start_parts = [np.array([0], dtype=np.int64)]
    edge_feedback = [np.array([c for c, _ in root_classes], dtype=game.code_dtype)]
    edge_child = [np.zeros(n_root_edges, dtype=np.uint32)]
    n_nodes, n_edges = 1, n_root_edges
    stats = np.zeros(4, dtype=np.int64)
    for i, (code, _) in enumerate(root_classes):
        _, sub_guess, sub_start, sub_feedback, sub_child, sub_stats = results[code]
        edge_child[0][i] = n_nodes
        node_guess.append(sub_guess.astype(np.uint32))
        edge_start_parts.append(sub_start[:-1].astype(np.int64) + n_edges)
        edge_feedback.append(sub_feedback.astype(game.code_dtype))
        edge_child.append(sub_child.astype(np.uint32) + np.uint32(n_nodes))
        n_nodes += len(sub_guess)
        n_edges += len(sub_feedback)
        stats += sub_stats
    edge_start_parts.append(np.array([n_edges], dtype=np.int64))
    tree = DecisionTree(
        node_guess=np.concatenate(node_guess),
        edge_start=np.concatenate(edge_start_parts).astype(np.uint32),
        edge_feedback=np.concatenate(edge_feedback),
        edge_child=np.concatenate(edge_child),
        word_length=game.word_length,
    )
    names = ("states_searched", "memo_hits", "guesses_expanded")
    return tree, {name: int(stats[i]) for i, name in enumerate(names)}


def solve_and_save(game: Game, opener: str = "salet", out: str | Path | None = None, *,
                   jobs: int = -1, progress=None, resume: bool = True,
                   directory: str | Path = "artifacts",
                   opener_proof: dict | None = None) -> tuple[SolveResult, Path]:
    """:func:`solve`, then :func:`save_artifact`, with every check made before any work.

    Before the solve: the opener, the lists' size and ``jobs``; the output path
    (``out``, or :func:`artifact_path` under ``directory``), its directory created or refused
    (:func:`solver.game.files.prepare_output_file`) and its name checked
    (:func:`check_artifact_name`); the cache directory, which holds the journal and the
    feedback table (:func:`solver.game.files.usable_cache_dir`). The journal is kept until the
    artifact is written, so a failed final write loses no work. ``opener_proof`` is stored in
    the artifact (:attr:`SolveResult.opener_proof`); without it, the proof recorded in an
    artifact of the same game and opener already at the path is kept.

    Returns:
        ``(result, path)``: the :class:`SolveResult` and the artifact's path.

    Raises:
        UnknownWordError, UnwinnableError, InputError, ForeignJournalError: as :func:`solve`.
        OutputError: the output path cannot be used (nothing was solved).
        CacheError: the cache directory cannot be used (nothing was solved).
        WriteFailedError: the final write failed; the message names the journal that holds
            the solved classes (a rerun with a writable path finishes in seconds).
    """
    word_list = check_searchable(game).word_list
    priors = game.priors
    opener = opener.strip().lower()
    word_list.guess_index(opener)
    check_jobs(jobs)
    if game.guess_limit == 1 and any(answer != opener for answer in word_list.answers):
        raise UnwinnableError(f"opener {opener!r} cannot win every game in 1 guess")
    path = Path(out) if out is not None else artifact_path(game, opener, directory=directory)
    check_artifact_name(word_list, path)
    priors_file = None if priors is None or priors.source == "wordfreq" else priors.source
    prepare_output_file(path, inputs=(*word_list.files, priors_file))
    usable_cache_dir()
    result = solve(game, opener, jobs=jobs, progress=progress, resume=resume, keep_journal=True)
    journal = result.journal
    result.opener_proof = opener_proof if opener_proof is not None else _kept_proof(path, result)
    try:
        return result, save_artifact(result, path)
    except OSError as exc:
        raise WriteFailedError(
            f"cannot write {path} ({exc.strerror or exc}); the solved tree is kept in the journal "
            f"{journal.path}: rerun with a writable output path and it finishes in seconds") from exc
