"""What both opener proofs share (:mod:`solver.exact.proofs.total`, :mod:`.worst`): the task
description every worker gets (:class:`Job`), the memo size (:func:`memo_capacity`), the
journal's inputs (:func:`proof_journal_inputs`), and the executor that hands tasks to the workers
(:class:`solver.exact.executor.Executor`, the solve's too, re-exported). The proofs import
this module, never each other's internals."""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from solver.exact.executor import BACKENDS, Executor  # noqa: F401  (re-exported)
from solver.game.errors import InputError
from solver.game.feedback import feedback_table
from solver.game.hashing import zobrist_keys
from solver.game.spec import Game
from solver.game.values import INF
from solver.game.wordlists import WordList
from solver.runs.naming import game_inputs

#: Bytes per memo slot (two uint64 keys, meta, value, guess: 5 × 8).
MEMO_SLOT_BYTES = 40


def memo_capacity(memory_gb: float, workers: int) -> int:
    """Memo slots per worker: a power of two using at most 60 % of ``memory_gb`` for all
    workers' memos (the rest: tables, workspaces, Python)."""
    import math

    if isinstance(memory_gb, bool) or not isinstance(memory_gb, (int, float)) \
            or not math.isfinite(memory_gb) or memory_gb <= 0:
        raise InputError(f"--memory-gb must be a finite number of GB > 0, got {memory_gb!r}")
    budget = memory_gb * 1e9 * 0.6 / max(workers, 1) / MEMO_SLOT_BYTES
    if budget < 1 << 16:
        raise InputError(f"--memory-gb {memory_gb} is too small: at least "
                         f"{(1 << 16) * MEMO_SLOT_BYTES * max(workers, 1) / 0.6 / 1e9:.2f} GB "
                         f"are needed for {workers} worker(s)")
    return 1 << int(np.floor(np.log2(budget)))


@dataclass(frozen=True)
class Job:
    """What every task needs: the lists (a worker builds or loads their table), the game and
    the memo size."""

    word_list: WordList
    game: Game
    memo_capacity: int


def search_batches(queue: list, cut_off, wanted, batch_size: int, bound_of, until_exact: bool,
                   searched=None):
    """The batches of a proof's search phase along ``queue`` (in bound order), each against the
    cut-off fixed when it starts (``cut_off()``, read after the caller has recorded the batch
    before). A batch holds max(2, ``wanted()``) items while there is no cut-off (INF),
    ``wanted()`` being how many exact values are still wanted, else ``batch_size`` items; it
    stops before the first item whose bound (``bound_of(item)``) reaches the cut-off, and that
    batch is the last (no later item needs a search). Items for which ``searched(item)`` is
    true are passed over without counting. With ``until_exact`` the batches stop once there
    is a cut-off.

    Yields:
        (beta, batch, the position in ``queue`` after the batch).
    """
    position = 0
    while position < len(queue):
        beta = cut_off()
        if until_exact and beta < INF:
            return
        size = max(2, wanted()) if beta >= INF else batch_size
        batch: list = []
        ruled_out = False
        while position < len(queue) and len(batch) < size:
            item = queue[position]
            if bound_of(item) >= beta:
                ruled_out = True
                break
            position += 1
            if searched is None or not searched(item):
                batch.append(item)
        yield beta, batch, position
        if ruled_out:
            return


def resident(memo: tuple) -> tuple:
    """The memo's arrays with every page written once, so that the worker's size is fixed
    from its first task on: loky ends a worker that grows by more than 300 MB after its
    first task (its leak check), and a memo filling up lazily-mapped zero pages would grow
    that much and be dropped with the worker, part-way through a proof."""
    for array in memo:  # each is uniform when new (zeros, or -1): rewrite that value
        array.fill(array.flat[0])
    return memo


def proof_journal_inputs(game: Game, rank: int, openers: tuple | None,
                         top: int | None = None) -> tuple:
    """What names one proof run's journal (:func:`solver.runs.naming.journal_path`, kind
    ``prove``, or ``prove-worst`` for :mod:`solver.exact.proofs.worst`): the game, the rank,
    the openers considered (all: ``*``) and ``top``."""
    chosen = ",".join(openers) if openers else "*"
    limit = "" if top is None else f":top{top}"
    return (*game_inputs(game), rank, f"{chosen}{limit}")


# One search state per worker thread (a dask worker may run tasks in several threads).
_LOCAL = threading.local()


def worker_state(job: Job):
    """(table, transposed table, Zobrist keys 1 and 2, search, bound scratch, rules) of this
    worker thread for ``job``, built once (a new job's state replaces the old one): the
    feedback table [n_guesses, n_answers] and its C-order transpose, the search of
    :func:`solver.exact.search.new_search` (memo of ``job.memo_capacity`` slots, resident),
    :func:`solver.exact._opener_kernel.new_bound_scratch` and
    :func:`solver.exact.bellman.search_rules`."""
    from solver.exact._opener_kernel import new_bound_scratch
    from solver.exact.bellman import search_rules
    from solver.exact.search import new_search

    key = (job.word_list.identity, job.game, job.memo_capacity)
    state = getattr(_LOCAL, "state", None)
    if state is None or state[0] != key:
        _LOCAL.state = None  # free the old memo before allocating the new one
        table = feedback_table(job.word_list)
        z1, z2 = zobrist_keys(table.shape[1])
        search = new_search(job.game.guess_limit, table.shape[0], table.shape[1],
                            job.game.n_patterns, job.memo_capacity)
        resident(search[0])
        rules = search_rules(job.game)
        answer_letters = np.ascontiguousarray(rules.letters[job.word_list.answer_guess_index])
        columns = np.ascontiguousarray(table.T)
        state = (key, table, columns, z1, z2, search,
                 new_bound_scratch(columns, answer_letters, job.game.n_patterns), rules)
        _LOCAL.state = state
    return state[1:]
