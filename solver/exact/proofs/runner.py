"""What both opener proofs share (:mod:`solver.exact.proofs.total`, :mod:`.worst`): the task
description every worker gets (:class:`Job`), the memo size (:func:`memo_capacity`), the
runner that hands tasks to workers (:class:`Runner`) and the journal's name
(:func:`journal_path`). The proofs import this module, never each other's internals."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.game.errors import InputError
from solver.game.spec import GameSpec
from solver.game.wordlists import WordList
from solver.runs.naming import journal_file

#: Bytes per memo slot (two uint64 keys, meta, value, guess: 5 × 8).
MEMO_SLOT_BYTES = 40
BACKENDS = ("loky", "dask")


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
    spec: GameSpec
    memo_capacity: int


def resident(memo: tuple) -> tuple:
    """The memo's arrays with every page written once, so that the worker's size is fixed
    from its first task on: loky ends a worker that grows by more than 300 MB after its
    first task (its leak check), and a memo filling up lazily-mapped zero pages would grow
    that much and be dropped with the worker, part-way through a proof."""
    for array in memo:  # each is uniform when new (zeros, or -1): rewrite that value
        array.fill(array.flat[0])
    return memo


class Runner:
    """Runs tasks in order on joblib workers (loky processes, or a dask cluster through
    joblib's dask backend) or in this process, yielding each result as it is ready."""

    def __init__(self, workers: int, backend: str, scheduler: str | None):
        self.workers = workers
        self._stack = contextlib.ExitStack()
        self._parallel = None
        if backend == "dask":
            self._parallel = self._dask(scheduler)
        elif workers > 1:
            from joblib import Parallel
            self._parallel = Parallel(n_jobs=workers, max_nbytes=None, return_as="generator")

    def _dask(self, scheduler: str | None):
        from joblib import Parallel, parallel_config

        if not scheduler:
            raise InputError("--backend dask needs --scheduler ADDRESS (e.g. tcp://host:8786, "
                             "from `dask scheduler`)")
        from solver.game.errors import require_extra

        require_extra("distributed", "dask", "--backend dask")
        try:
            from distributed import Client
            client = self._stack.enter_context(Client(scheduler, timeout="5s"))
        except (OSError, TimeoutError, ValueError) as error:
            raise InputError(f"cannot reach the dask scheduler at {scheduler}: {error}") from None
        threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
        if threads < 1:
            raise InputError(f"the dask scheduler at {scheduler} has no workers")
        self.workers = threads
        self._stack.enter_context(parallel_config(backend="dask"))
        return Parallel(n_jobs=-1, return_as="generator")

    def map(self, function, calls):
        """Yield ``function(*args)`` for each args tuple of ``calls``, in order."""
        from joblib import delayed

        if self._parallel is None:
            for args in calls:
                yield function(*args)
        else:
            yield from self._parallel(delayed(function)(*args) for args in calls)

    def close(self):
        self._stack.close()


def journal_path(word_list: WordList, spec: GameSpec, rank: int, openers: tuple | None,
                 top: int | None = None, kind: str = "prove") -> Path:
    """The journal of one proof run (``cache_dir()/journals/<kind>-<hash>.journal``; ``kind``
    ``prove``, or ``prove-worst`` for :mod:`solver.exact.prove_worst`)."""
    chosen = ",".join(openers) if openers else "*"
    limit = "" if top is None else f":top{top}"
    return journal_file(kind, word_list.answers_sha256, word_list.guesses_sha256, spec, rank,
                        f"{chosen}{limit}")
