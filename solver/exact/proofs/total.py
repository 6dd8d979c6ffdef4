"""Proving the best first guess: every allowed opener bounded, the best solved exactly.

The plan of docs/algorithms.md §9, after Selby's per-opener cut-off, in three phases:

A. **Seed.** The ``SEEDS`` openers first in the cheap per-guess order (§3.2: one scan of the
   feedback table) get their depth-one bound (:func:`solver.exact._opener_kernel.opener_value`,
   §9.2); the best of them by that bound are solved exactly until ``rank`` exact totals give
   a cut-off.
B. **Bound.** Every other opener gets its depth-one bound, stopped as soon as it reaches the
   cut-off (the K-th best exact total so far, plus one: an opener that ties is still solved).
C. **Search.** All openers in the order (bound, cheap bound, Σ|C|², index) are evaluated by the
   fail-soft search of their root classes against the cut-off, in batches, until the next
   opener's bound reaches it. Every opener then has a status: ``exact`` (its optimal total)
   or ``lower_bound`` (a proven bound that rules it out).

With ``top`` N (a search, not a proof over all openers) every opener first gets its full
depth-one bound, and only the N first in the order (bound, cheap bound, Σ|C|², index) go
through the phases above: the best of them is exact, but an opener outside the N was never
searched, so its bound may be below the value found (:attr:`ProofResult.top`).

Determinism: the openers table is the same for every run of the same proof, however many
workers and whether resumed from a journal, byte for byte: a batch's cut-off is fixed when it
starts and depends only on earlier batches; bounds do not read the memo; an opener cut off by
the search is reported with the cut-off it was shown to reach (a fail-soft value can be
higher, by an amount that depends on what the worker's memo held). A resumed run *replays*
the uninterrupted one: every bound chunk and every search is journaled with the cut-off it
ran against, and is taken from the journal only when the replay reaches it with that same
cut-off, so work finished late in the interrupted run never tightens the cut-offs of earlier
steps (which would stop some bounds lower and change the table).

Work goes to the executor (:mod:`solver.exact.executor`): joblib workers (processes,
``jobs``) or a dask.distributed cluster (``backend="dask"``, ``scheduler`` its address),
through its client (the job description scattered to every worker once). Each worker
keeps one memo across its openers (a state's value does not depend on the opener that led
to it), of a fixed size set by ``memory_gb``. Every finished opener, and every chunk of
bounds, is journaled (:mod:`solver.runs.journal`), so a run stopped by Ctrl-C or SIGKILL
resumes without redoing it. Speed and memory: docs/benchmarks.md.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from solver.exact.bellman import INF, SOLVER_VERSION, UnwinnableError, check_searchable
from solver.game.checks import worker_count
from solver.game.errors import InputError
from solver.game.feedback import feedback_table
from solver.game.spec import FeedbackRule, Game, Objective
from solver.exact.proofs.results import OpenerStatus, OpenerValue, ProofResult
from solver.exact.proofs.runner import (BACKENDS, Executor, Job, memo_capacity, proof_journal_inputs,
                                        search_batches, worker_state)
from solver.runs.naming import journal_path
from solver.exact.proofs.worst import journal_kind as worst_journal_kind, prove_least_maximum
from solver.game.wording import counted

#: Openers bounded first (phase A), in the cheap order.
SEEDS = 64
#: Openers per bounding task (phase B); one journal record each.
BOUND_CHUNK = 128
#: Openers per bounding task among those whose cheap bound already reaches the cut-off: the
#: kernel returns that bound at its first test (some microseconds each), so 128 of them made
#: a task of a few milliseconds, as long as a dask task's fixed cost. The values do not depend
#: on the chunks, only the tasks do.
RULED_OUT_CHUNK = 4096
#: Openers per search batch once there is a cut-off (phase C); a constant, not a multiple of
#: the workers, so that the cut-offs, and with them the table, do not depend on the workers.
SEARCH_BATCH = 16


def _opener(job: Job, g: int, beta: int, deep: bool) -> int:
    from solver.exact._opener_kernel import opener_value
    from solver.exact.search import evaluate_guess
    from solver.game._hard_mode_kernel import no_constraint

    table, transposed, z1, z2, search, scratch, rules = worker_state(job)
    game, guess_of_answer = job.game, job.word_list.answer_guess_index
    if game.guess_limit < 3 or table.shape[1] < 2:  # no classes to search: the plain Q-value
        if not deep:
            return 0
        everything = np.arange(table.shape[1], dtype=np.int32)
        return int(evaluate_guess(everything, g, game.guess_limit, beta, table, guess_of_answer,
                                  z1, z2, search, game.objective_id, game.mode_id, rules,
                                  no_constraint(),
                                  np.arange(table.shape[0], dtype=np.int32)))
    return int(opener_value(g, game.guess_limit, beta, table, transposed, guess_of_answer, z1,
                            z2, search, scratch, game.objective_id, game.mode_id, deep, rules))


def _bound_task(job: Job, openers: list[int], beta: int) -> list[int]:
    """Executor task (phase A/B): the openers' depth-one bounds, each stopped at ``beta``."""
    return [_opener(job, g, beta, False) for g in openers]


def _search_task(job: Job, g: int, beta: int) -> tuple[int, float]:
    """Executor task (phase A/C): opener g's fail-soft value against ``beta``, and its seconds."""
    started = time.perf_counter()
    value = _opener(job, g, beta, True)
    return value, time.perf_counter() - started


def bound_chunks(openers: list[int], cheap: np.ndarray, beta: int) -> list[list[int]]:
    """The bounding tasks' openers, in order: those whose cheap bound (``cheap``, int64 per
    guess, from :func:`solver.exact._search_kernel.guess_bounds`) is under ``beta`` in chunks of
    ``BOUND_CHUNK``, then the others (whose depth-one bound is their cheap bound, returned at
    once) in chunks of ``RULED_OUT_CHUNK``."""
    live = [g for g in openers if cheap[g] < beta]
    ruled_out = [g for g in openers if cheap[g] >= beta]
    return ([live[i:i + BOUND_CHUNK] for i in range(0, len(live), BOUND_CHUNK)]
            + [ruled_out[i:i + RULED_OUT_CHUNK] for i in range(0, len(ruled_out), RULED_OUT_CHUNK)])


def _journal_kind(game: Game, all_openers: bool = False) -> str:
    """The worst-case objective's proof has journals of its own (:mod:`solver.exact.proofs.worst`)."""
    return worst_journal_kind(all_openers) if game.objective is Objective.WORST else "prove"


def prove(game: Game, *, rank: int = 1, openers=None, jobs: int = -1, memory_gb: float = 4.0,
          resume: bool = True, progress=None, backend: str = "loky",
          scheduler: str | None = None, top: int | None = None,
          all_openers: bool = False) -> ProofResult:
    """Find and prove the best opener(s) over all allowed guesses (or over ``openers``).

    Args:
        game: the :class:`~solver.game.spec.Game`: lists, guess limit, objective and mode
            (docs/algorithms.md §2, §10: in hard mode every opener is allowed, and each root
            class is searched over the guesses its feedback allows); the standard feedback
            rule and no priors.
        rank: K ≥ 1: the K best openers are evaluated exactly, and every other opener is
            shown to be no better than the K-th.
        openers: optional iterable of guesses: consider only these (each evaluated exactly
            when ``rank`` ≥ their number).
        jobs: joblib worker processes (-1: all cores; 1: in-process); ignored with dask,
            which uses every thread of the cluster's workers.
        memory_gb: memory for all workers' memos (fixed size; entries are overwritten,
            never grown).
        resume: reuse the work journaled by an interrupted run of the same proof.
        progress: optional callable ``progress(info: dict)`` after every finished piece of
            work, with keys ``phase`` ("seed", "bound", "search"), ``done`` and ``total``
            (openers of this phase; ``total`` of the search phase is the openers whose bound
            is still under the cut-off, an upper estimate), ``searched``, ``best``,
            ``cutoff`` and ``elapsed`` (seconds).
        backend: ``"loky"`` (joblib processes on this machine) or ``"dask"``.
        scheduler: the dask scheduler's address (``backend="dask"``).
        top: optional N ≥ ``rank``: consider only the N openers (of ``openers``, or of all
            guesses) with the best full depth-one bounds, ties by the cheap bound, Σ|C|² and
            index; the result is then the best of those N, not a proof over all openers.
        all_openers: the worst-case objective only: every opener's exact least worst case
            (:mod:`solver.exact.proofs.worst`), ``INF`` for one that cannot win every game
            within the guess limit; ``rank`` must then be 1.

    Returns:
        :class:`ProofResult`.

    Raises:
        InputError: ``rank`` < 1 or larger than the number of openers (or than ``top``),
            ``top`` < 1, an unknown opener,
            an empty opener list, priors or another feedback rule, a bad memory budget or backend,
            an unreachable dask scheduler, ``all_openers`` with the total objective or a
            ``rank`` other than 1.
        UnwinnableError: no opener wins every game within the guess limit.
        ForeignJournalError: ``resume`` and the journal belongs to another run.
    """
    from solver.exact.search import guess_bounds
    from solver.runs.journal import Journal, run_fingerprint

    word_list = check_searchable(game).word_list
    guess_limit = game.guess_limit
    if game.priors is not None or game.feedback is not FeedbackRule.STANDARD:
        raise InputError("the proof over every opener is for the standard feedback rule "
                         "without priors")
    if openers is not None:
        chosen = sorted({word_list.guess_index(w) for w in openers})
        if not chosen:
            raise InputError("the opener list is empty")
    else:
        chosen = list(range(word_list.n_guesses))
    if top is not None and (not isinstance(top, int) or top < 1):
        raise InputError(f"--top must be a whole number ≥ 1, got {top!r}")
    limit = len(chosen) if top is None else min(top, len(chosen))
    if not isinstance(rank, int) or not 1 <= rank <= limit:
        raise InputError(f"--rank must be 1..{limit} (the number of openers), got {rank}")
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    workers = worker_count(jobs)
    if all_openers and game.objective is not Objective.WORST:
        raise InputError("--all is for --objective worst (the total objective's proof solves "
                         "only the openers it cannot rule out by their bound)")
    if all_openers and rank != 1:
        raise InputError(f"--rank has no meaning with --all (every opener is solved exactly), "
                         f"got {rank}")
    if game.objective is Objective.WORST:
        if top is not None:
            raise InputError("--top is for the total objective: the worst-case proof decides "
                             "every opener level by level (docs/algorithms.md §9.5)")
        names = tuple(word_list.guesses[g] for g in chosen) if openers is not None else None
        return prove_least_maximum(word_list, game, rank=rank, chosen=chosen, names=names,
                                   jobs=workers, memory_gb=memory_gb, resume=resume,
                                   progress=progress, backend=backend, scheduler=scheduler,
                                   all_openers=all_openers)
    started = time.perf_counter()
    runner = Executor(workers, backend, scheduler)
    try:
        workers = runner.workers
        job = Job(word_list, game, memo_capacity(memory_gb, workers))
        table = feedback_table(word_list)
        everything = np.arange(word_list.n_answers, dtype=np.int32)
        cheap, order = guess_bounds(everything, table, game.n_patterns, game.objective_id)
        names = tuple(word_list.guesses[g] for g in chosen) if openers is not None else None
        fingerprint = run_fingerprint(word_list, kind="prove", solver_version=SOLVER_VERSION,
                                      mode=game.mode.value, objective=game.objective.value,
                                      guess_limit=game.guess_limit, rank=rank, openers=list(names or ()),
                                      **({} if top is None else {"top": top}))
        with Journal.open(journal_path("prove", *proof_journal_inputs(game, rank, names, top)), fingerprint,
                          resume=resume) as journal:
            proof = _Proof(word_list, rank, chosen, cheap, order, runner.share(job), runner, journal,
                           progress, started, top)
            rows = proof.run()
            if not rows or rows[0].status is not OpenerStatus.EXACT or rows[0].value >= INF:
                journal.discard()  # proven unwinnable: finished, nothing left to resume
    finally:
        runner.close()
    if not rows or rows[0].status is not OpenerStatus.EXACT or rows[0].value >= INF:
        raise UnwinnableError(f"no opener wins every game within {counted(guess_limit, 'guess')}")
    return ProofResult(word_list, game, rank, rows, len(proof.results), proof.reused,
                       time.perf_counter() - started, proof.phase_seconds, top)


class _Proof:
    """The three phases of :func:`prove` over one journal (see the module docstring)."""

    def __init__(self, word_list, rank, chosen, cheap, order, job, runner, journal, progress,
                 started, top=None):
        self.word_list, self.rank, self.chosen, self.top = word_list, rank, chosen, top
        self.cheap, self.order, self.job, self.runner = cheap, order, job, runner
        self.journal, self.progress, self.started = journal, progress, started
        self.bounds: dict[int, int] = {}
        self.results: dict[int, tuple[int, float, int]] = {}  # opener → (value, seconds, beta)
        self.searched = 0
        self.reused = 0  # searches taken from the journal
        self.phase_seconds: dict[str, float] = {}
        # The journal is a cache keyed by what a step computed against: a bound chunk by its
        # openers and cut-off, a search by its opener and cut-off (module docstring).
        self.journaled_bounds: dict[tuple, list[int]] = {}
        self.journaled_searches: dict[tuple[int, int], tuple[int, float]] = {}
        with journal.reading():  # a record of the wrong shape: a clean error naming the file
            for key, record in journal.records().items():
                if key.startswith("bounds:"):
                    if "beta" in record:  # earlier journals did not record it: recomputed
                        names = tuple(str(w) for w in record["openers"])
                        values = [int(v) for v in record["values"]]
                        if len(values) != len(names):
                            raise ValueError(f"{key}: {len(values)} values for {len(names)} openers")
                        self.journaled_bounds[names, int(record["beta"])] = values
                else:
                    g = word_list.guess_index(key.split("@")[0])
                    self.journaled_searches[g, int(record["beta"])] = (
                        int(record["value"]), float(record["seconds"]))

    # -- the cut-off ------------------------------------------------------------------------
    def exact(self) -> list[int]:
        return sorted(v for v, _, beta in self.results.values() if v < beta)

    def cutoff(self) -> int:
        """The K-th best exact value so far, or ``INF``."""
        exact = self.exact()
        return exact[self.rank - 1] if len(exact) >= self.rank else INF

    def beta(self) -> int:
        limit = self.cutoff()
        return limit + 1 if limit < INF else INF

    def report(self, phase: str, done: int, total: int) -> None:
        if self.progress is not None:
            limit = self.cutoff()
            exact = self.exact()
            self.progress({"phase": phase, "done": done, "total": total,
                           "searched": self.searched, "best": exact[0] if exact else None,
                           "cutoff": limit if limit < INF else None,
                           "elapsed": time.perf_counter() - self.started})

    def undecided(self, g: int, beta: int) -> bool:
        """Whether opener g still needs a search against ``beta``: no result yet, or only a
        cut-off at a larger β (an exact value, or a cut-off at ≤ β, stays true)."""
        if g not in self.results:
            return True
        value, _, searched_beta = self.results[g]
        return value >= searched_beta and searched_beta > beta

    def key(self, g: int) -> tuple:
        """The search order: depth-one bound, cheap bound, order term, index."""
        return (self.bounds.get(g, int(self.cheap[g])), int(self.cheap[g]), int(self.order[g]), g)

    # -- phases -------------------------------------------------------------------------------
    def bound(self, openers: list[int], beta: int, phase: str) -> None:
        """Depth-one bounds of the openers not yet bounded, in chunks, journaled per chunk."""
        missing = [g for g in openers if g not in self.bounds]
        chunks = bound_chunks(missing, self.cheap, beta)
        done = len(openers) - len(missing)
        keys = [(tuple(self.word_list.guesses[g] for g in chunk), beta) for chunk in chunks]
        calls = ((self.job, chunk, beta) for chunk, key in zip(chunks, keys)
                 if key not in self.journaled_bounds)
        computed = self.runner.map(_bound_task, calls)
        for chunk, key in zip(chunks, keys):
            values = self.journaled_bounds.get(key)
            if values is None:
                values = next(computed)
                self.journal.append(f"bounds:{key[0][0]}@{beta}",
                                    {"openers": list(key[0]), "values": values, "beta": beta})
            self.bounds.update(zip(chunk, values))
            done += len(chunk)
            self.report(phase, done, len(openers))

    def search(self, queue: list[int], phase: str, until_exact: bool) -> int:
        """Fail-soft searches along ``queue`` in batches, each against the cut-off fixed when
        it starts; stops at the first opener whose bound reaches the cut-off, or (``until_exact``)
        once ``rank`` exact values are known. Returns how far along ``queue`` it got."""
        position = 0
        for beta, batch, position in search_batches(queue, self.beta, lambda: self.rank - len(self.exact()),
                                                    SEARCH_BATCH,
                                                    lambda g: self.bounds.get(g, int(self.cheap[g])),
                                                    until_exact):
            todo = [g for g in batch if self.undecided(g, beta)]
            calls = ((self.job, g, beta) for g in todo if (g, beta) not in self.journaled_searches)
            computed = self.runner.map(_search_task, calls)
            remaining = sum(1 for g in queue[position:] if self.bounds.get(g, INF) < beta)
            for g in todo:
                if (g, beta) in self.journaled_searches:
                    value, seconds = self.journaled_searches[g, beta]
                    self.reused += 1
                else:
                    value, seconds = next(computed)
                    self.journal.append(f"{self.word_list.guesses[g]}@{beta}",
                                        {"value": value, "seconds": seconds, "beta": beta})
                self.results[g] = (value, seconds, beta)
                self.searched += 1
                self.report(phase, position, position + remaining)
        return position

    def run(self) -> list[OpenerValue]:
        clock = time.perf_counter()
        if self.top is not None:  # full bounds of every opener, then only the N best go on
            self.bound(self.chosen, INF, "bound")
            self.chosen = sorted(self.chosen, key=self.key)[:self.top]
        # the cheap order alone (not the journal's bounds), so a resumed run picks the same seeds
        cheap_queue = sorted(self.chosen, key=lambda g: (int(self.cheap[g]), int(self.order[g]), g))
        seeds = cheap_queue[:SEEDS]
        self.bound(seeds, INF, "seed")
        self.search(sorted(seeds, key=self.key), "seed", until_exact=True)
        self.phase_seconds["seed"] = time.perf_counter() - clock
        clock = time.perf_counter()
        self.bound(cheap_queue, self.beta(), "bound")
        self.phase_seconds["bound"] = time.perf_counter() - clock
        clock = time.perf_counter()
        queue = sorted(self.chosen, key=self.key)
        self.search(queue, "search", until_exact=False)
        self.phase_seconds["search"] = time.perf_counter() - clock
        return self.rows()

    def rows(self) -> list[OpenerValue]:
        rows = []
        for g in self.chosen:
            name = self.word_list.guesses[g]
            if g in self.results:
                value, seconds, beta = self.results[g]
                if value < beta:
                    rows.append(OpenerValue(name, OpenerStatus.EXACT, min(value, INF), seconds))
                else:  # shown to reach the cut-off (see the module docstring)
                    rows.append(OpenerValue(name, OpenerStatus.LOWER_BOUND, max(beta, self.bounds[g]),
                                            seconds))
            else:
                rows.append(OpenerValue(name, OpenerStatus.LOWER_BOUND, min(self.bounds[g], INF), 0.0))
        rows.sort(key=lambda o: (o.value, o.status is not OpenerStatus.EXACT, o.opener))
        return rows


def save_proven_tree(result: ProofResult, *, jobs: int = -1, progress=None,
                     directory: str | Path = "artifacts") -> Path:
    """Solve the proven best opener's decision tree and write it (as
    :func:`solver.exact.bellman.solve_and_save`, default path under ``directory``) with the
    proof recorded in the artifact: how many openers, over which guess list, and the least
    value (exact or a proven bound) of any other opener. Returns the artifact's path.

    Raises:
        InputError: the proof covered only some of the allowed guesses (``openers=`` or
            ``top=``).
        As :func:`solver.exact.bellman.solve_and_save` otherwise."""
    from solver.exact.bellman import solve_and_save

    word_list = result.word_list
    if len(result.openers) != word_list.n_guesses or result.top is not None:
        raise InputError(f"the proof covered {len(result.openers)} of {word_list.n_guesses} "
                         f"guesses: only a proof over every allowed guess marks a tree as proven")
    others = min((o.value for o in result.openers[1:]), default=INF)
    proof = {"openers": len(result.openers), "guesses_sha256": word_list.guesses_sha256,
             "others_at_least": int(min(others, INF))}
    _, path = solve_and_save(result.game, result.best.opener, jobs=jobs, progress=progress,
                             directory=directory, opener_proof=proof)
    return path


def proof_journal(game: Game, rank: int, openers=None, top: int | None = None,
                  all_openers: bool = False) -> Path:
    """The journal of the proof :func:`prove` runs for these arguments."""
    word_list = game.word_list
    names = tuple(sorted(word_list.guesses[word_list.guess_index(w)] for w in openers)) \
        if openers is not None else None
    return journal_path(_journal_kind(game, all_openers),
                        *proof_journal_inputs(game, rank, names, top))


def discard_journal(game: Game, rank: int, openers=None, top: int | None = None,
                    all_openers: bool = False) -> None:
    """Remove a finished proof's journal (after its outputs are written)."""
    path = proof_journal(game, rank, openers, top, all_openers)
    if path.exists():
        os.unlink(path)
