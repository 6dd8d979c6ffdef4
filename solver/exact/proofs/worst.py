"""The least guaranteed maximum over all openers: the opener proof of the worst-case objective.

An opener *guarantees* K when some policy that plays it first wins every game within K
guesses, i.e. its least worst case (docs/algorithms.md §2.2) is at most K. Whether it does is
a yes/no question (:func:`solver.exact._guarantee_kernel.opener_wins`, §9.5), far cheaper
than the least worst case itself: a no needs one root class that cannot be won in K − 1, a
yes one winning guess per state. The least K that some opener guarantees is found level by
level:

    for K = 1, 2, …, guess_limit:
        decide the openers, in the order of the total objective's per-guess bound (most
        classes first, answers first among equal counts, then the least Σ|C|², then index;
        docs/algorithms.md §3.2) and in chunks of CHUNK, until a chunk brings the openers
        known to guarantee a level to ``rank``.

Every level but the last decides *every* opener, so an opener that guarantees the last level
K has the exact value K (it failed K − 1), one that failed K has the proven bound K + 1, and
one not reached at level K keeps the bound K of the level below.

With ``all_openers`` every opener gets its exact least worst case: the levels go on past the
first one some opener guarantees, each deciding every opener that has not guaranteed a lower
level (all of them up to that first level, then only those that failed the level below), up
to the guess limit. An opener that guarantees level K then has the exact value K, and one
that fails the guess limit the exact value ``INF``: no policy that plays it first wins every
game within the limit (``inf`` in the openers table; a larger ``guess_limit`` goes on).

The table is the same for every run of the same proof: each decision is a yes or no that
does not depend on the memo, and the chunks a level decides depend only on the outcomes of
the chunks before them. Rows are listed best first, ties (the rule with a least maximum) in
the proof's order.

The work goes to the runner of :mod:`solver.exact.proofs.runner` (joblib processes or a dask
cluster); each keeps one memo of decided states across its chunks. Each finished chunk is
journaled (:mod:`solver.runs.journal`), so an interrupted run resumes.
"""

from __future__ import annotations

import threading
import time
import warnings

import numpy as np

from solver.exact.bellman import INF, SOLVER_VERSION, UnwinnableError
from solver.exact.proofs.results import OpenerStatus, OpenerValue, ProofResult
from solver.exact.proofs.runner import Executor, Job, memo_capacity, proof_journal_inputs, resident
from solver.runs.naming import journal_path
from solver.game.feedback import feedback_table
from solver.game.hashing import zobrist_keys
from solver.game.wording import counted

#: Openers per task and per journal record: a constant, so that where a level stops (after
#: the chunk that completes ``rank``) does not depend on the number of workers.
CHUNK = 32

_LOCAL = threading.local()


def _worker_state(job: Job):
    """(table, Zobrist keys 1 and 2, memo, workspace, rules, every guess most classes first,
    their class counts) of this worker thread, built once per job."""
    from solver.exact._guarantee_kernel import guarantee_workspace, guesses_by_class_count
    from solver.exact.bellman import search_rules
    from solver.game._memo_kernel import memo_arrays

    key = (job.word_list.identity, job.game, job.memo_capacity)
    state = getattr(_LOCAL, "state", None)
    if state is None or state[0] != key:
        _LOCAL.state = None  # free the old memo first
        table = feedback_table(job.word_list)
        z1, z2 = zobrist_keys(table.shape[1])
        n_guesses = table.shape[0]
        state = (key, table, z1, z2, resident(memo_arrays(job.memo_capacity)),
                 guarantee_workspace(job.game.guess_limit, n_guesses, table.shape[1],
                                     job.game.n_patterns),
                 search_rules(job.game), *guesses_by_class_count(table, job.game.n_patterns))
        _LOCAL.state = state
    return state[1:]


def decide_openers(job: Job, openers: list[int], limit: int) -> list[tuple[int, float]]:
    """Executor task: for each opener (guess index), whether it guarantees ``limit`` guesses:
    ``(pattern, seconds)``, ``pattern`` -1 if it does, else the feedback code of a root class
    that cannot be won in ``limit − 1`` (the first in the kernel's class order)."""
    from solver.exact._guarantee_kernel import opener_wins

    table, z1, z2, memo, workspace, rules, everything, everything_counts = _worker_state(job)
    out = []
    for g in openers:
        started = time.perf_counter()
        pattern = opener_wins(g, limit, table, z1, z2, memo, workspace, job.game.mode_id, rules,
                              everything, everything_counts)
        out.append((int(pattern), time.perf_counter() - started))
    return out


def journal_kind(all_openers: bool) -> str:
    """The kind of a worst-case proof's journal (:func:`solver.runs.naming.journal_path`):
    ``prove-worst``, or ``prove-worst-all`` for the proof of every opener's value."""
    return "prove-worst-all" if all_openers else "prove-worst"


def prove_least_maximum(word_list, game, *, rank: int, chosen: list[int], names, jobs: int,
                        memory_gb: float, resume: bool, progress, backend: str,
                        scheduler: str | None, all_openers: bool = False) -> ProofResult:
    """The worst-case opener proof (the module docstring); called by
    :func:`solver.exact.proofs.total.prove` with its arguments checked.

    Returns:
        :class:`solver.exact.proofs.results.ProofResult` whose values are guesses: the least
        guaranteed maximum for an ``exact`` opener, a proven lower bound otherwise;
        ``searched`` counts the openers decided at least once, ``reused`` the decisions (an
        opener at a level) read from the journal, and ``phase_seconds`` has one entry per
        level, ``"within K"``.

    Raises:
        UnwinnableError: no opener wins every game within the guess limit.
        ForeignJournalError: ``resume`` and the journal belongs to another run.
    """
    from solver.exact._objective_kernel import TOTAL
    from solver.exact.search import guess_bounds
    from solver.runs.journal import Journal, run_fingerprint

    started = time.perf_counter()
    runner = Executor(jobs, backend, scheduler)
    try:
        job = Job(word_list, game, memo_capacity(memory_gb, runner.workers))
        table = feedback_table(word_list)
        everything = np.arange(word_list.n_answers, dtype=np.int32)
        # most classes first (answers first among equal counts), then Σ|C|², then index
        cheap, order = guess_bounds(everything, table, game.n_patterns, TOTAL)
        queue = sorted(chosen, key=lambda g: (int(cheap[g]), int(order[g]), g))
        kind = journal_kind(all_openers)
        fingerprint = run_fingerprint(word_list, kind=kind, solver_version=SOLVER_VERSION,
                                      mode=game.mode.value, objective=game.objective.value,
                                      guess_limit=game.guess_limit, rank=rank, openers=list(names or ()))
        path = journal_path(kind, *proof_journal_inputs(game, rank, names))
        with Journal.open(path, fingerprint, resume=resume) as journal:
            proof = _Levels(word_list, game, rank, queue, runner.share(job), runner, journal,
                            progress, started, all_openers)
            rows = proof.run()
            if not _winnable(rows):
                journal.discard()  # proven unwinnable: finished, nothing left to resume
    finally:
        runner.close()
    if not _winnable(rows):
        raise UnwinnableError(f"no opener wins every game within {counted(game.guess_limit, 'guess')}")
    return ProofResult(word_list, game, rank, rows, len(proof.seconds), proof.reused,
                       time.perf_counter() - started, proof.phase_seconds)


def _winnable(rows: list[OpenerValue]) -> bool:
    """Whether the best row guarantees some level (with ``all_openers`` a row may be exact
    ``INF``)."""
    return bool(rows) and rows[0].status is OpenerStatus.EXACT and rows[0].value < INF


class _Levels:
    """The levels of :func:`prove_least_maximum` over one journal."""

    def __init__(self, word_list, game, rank, queue, job, runner, journal, progress, started,
                 all_openers=False):
        self.word_list, self.game, self.rank, self.queue = word_list, game, rank, queue
        self.all_openers = all_openers
        self.job, self.runner, self.journal = job, runner, journal
        self.progress, self.started = progress, started
        self.failed: dict[int, int] = {}  # opener → the highest level it was shown to fail
        self.won: dict[int, int] = {}  # opener → the level it guarantees (exact)
        self.seconds: dict[int, float] = {}
        self.phase_seconds: dict[str, float] = {}
        self.done: dict[str, list] = dict(journal.records())  # "K:first opener" → record
        self.reused = 0  # decisions (an opener at a level) read from the journal

    def run(self) -> list[OpenerValue]:
        for limit in range(1, self.game.guess_limit + 1):
            clock = time.perf_counter()
            self.level(limit)
            self.phase_seconds[f"within {limit}"] = time.perf_counter() - clock
            if self.finished():
                break
        return self.rows()

    def finished(self) -> bool:
        """``rank`` openers won, or with ``all_openers`` every opener won."""
        if self.all_openers:
            return len(self.won) == len(self.queue)
        return len(self.won) >= self.rank

    def level(self, limit: int) -> None:
        """Decide the open openers at ``limit``, chunk by chunk, until ``rank`` are won (with
        ``all_openers``: every open opener)."""
        todo = [g for g in self.queue if g not in self.won]
        chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
        pending = []  # chunks not in the journal: computed in order, as workers finish them
        for chunk in chunks:
            record = self.done.get(self.key(limit, chunk))
            if record is None:
                pending.append(chunk)
        results = iter(self.runner.map(decide_openers,
                                       ((self.job, chunk, limit) for chunk in pending)))
        decided = 0
        for chunk in chunks:
            key = self.key(limit, chunk)
            record = self.done.get(key)
            if record is not None:
                with self.journal.reading():  # the wrong shape: a clean error naming the file
                    record = {"patterns": [int(p) for p in record["patterns"]],
                              "seconds": [float(t) for t in record["seconds"]]}
                    if not len(record["patterns"]) == len(record["seconds"]) == len(chunk):
                        raise ValueError(f"{key}: {len(record['patterns'])} decisions for a "
                                         f"chunk of {len(chunk)} openers")
                self.reused += len(chunk)
            else:
                outcome = next(results)
                record = {"openers": [self.word_list.guesses[g] for g in chunk],
                          "patterns": [p for p, _ in outcome],
                          "seconds": [s for _, s in outcome]}
                self.journal.append(key, record)
            for g, pattern, seconds in zip(chunk, record["patterns"], record["seconds"]):
                self.seconds[g] = self.seconds.get(g, 0.0) + float(seconds)
                if pattern < 0:
                    self.won[g] = limit
                else:
                    self.failed[g] = limit
            decided += len(chunk)
            self.report(limit, decided, len(todo))
            if not self.all_openers and len(self.won) >= self.rank:
                break
        close = getattr(results, "close", None)
        if close is not None:  # cancel the chunks dispatched past the last one needed
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*have been cancelled")
                close()

    def key(self, limit: int, chunk: list[int]) -> str:
        return f"{limit}:{self.word_list.guesses[chunk[0]]}"

    def report(self, limit: int, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress({"phase": "level", "level": limit, "done": done, "total": total,
                           "searched": len(self.seconds), "won": len(self.won),
                           "best": min(self.won.values()) if self.won else None,
                           "cutoff": limit, "elapsed": time.perf_counter() - self.started})

    def rows(self) -> list[OpenerValue]:
        """Best first: value, exact before bounds, then the proof's order (most classes
        first), which breaks the many ties of the least maximum; the first row is the opener
        the proof names best."""
        rows = []
        for g in self.queue:
            name = self.word_list.guesses[g]
            seconds = self.seconds.get(g, 0.0)
            if g in self.won:
                rows.append(OpenerValue(name, OpenerStatus.EXACT, self.won[g], seconds))
            elif self.all_openers:  # failed the guess limit: no policy wins every game in time
                rows.append(OpenerValue(name, OpenerStatus.EXACT, INF, seconds))
            else:
                bound = self.failed.get(g, 0) + 1
                rows.append(OpenerValue(name, OpenerStatus.LOWER_BOUND,
                                        INF if bound > self.game.guess_limit else bound, seconds))
        position = {name: i for i, name in enumerate(row.opener for row in rows)}
        rows.sort(key=lambda o: (o.value, o.status is not OpenerStatus.EXACT, position[o.opener]))
        return rows
