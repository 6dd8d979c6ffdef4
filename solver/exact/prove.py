"""Proving the best first guess: every allowed opener bounded, the best solved exactly.

The plan of docs/algorithms.md §9, after Selby's per-opener cut-off: every allowed guess
gets the cheap per-guess lower bound on the full answer set (§3.2; one scan of the feedback
table); the openers are then evaluated in the candidate order (bound, Σ|C|², index) by the
fail-soft search of :func:`solver.exact._search_kernel.evaluate_guess`, each against the
cut-off "the K-th best exact total so far, plus one" (plus one, so an opener that ties with
it is still evaluated exactly); the run stops when the next opener's bound exceeds the
cut-off. Every opener then has a status: ``exact`` (its optimal total) or ``lower_bound``
(a proven bound that already rules it out: from the search, or its per-guess bound when it
was never searched).

Openers are evaluated in batches of ``2 × jobs`` with joblib; a batch's cut-off is fixed
when it starts, so the exact totals found do not depend on which worker finishes first. Each
worker keeps one memo across its openers (a state's value does not depend on the opener
that led to it), of a fixed size set by ``memory_gb``. Every finished opener is journaled
(:mod:`solver.exact.journal`), so a run stopped by Ctrl-C or SIGKILL resumes without redoing
it.

Status: a working first version (issue 9). It proves the best opener on small lists and is
measured on the legacy lists in docs/benchmarks.md; it is not yet fast enough for the full
legacy proof overnight target.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.exact.bellman import INF, SOLVER_VERSION, UnwinnableError, game_spec
from solver.game.errors import InputError
from solver.game.feedback import feedback_table, table_cache_path
from solver.game.files import cache_dir, write_atomic
from solver.game.hashing import zobrist_keys
from solver.game.spec import GUESS_LIMIT, GameSpec
from solver.game.wordlists import WordList

#: Bytes per memo slot (two uint64 keys, meta, value, guess: 5 × 8).
MEMO_SLOT_BYTES = 40
#: Columns of the openers CSV.
CSV_COLUMNS = ("opener", "status", "value", "seconds")


@dataclass(frozen=True)
class OpenerValue:
    """One opener's outcome.

    Attributes:
        opener: the guess.
        status: ``"exact"`` (``value`` is its optimal total, or least worst case) or
            ``"lower_bound"`` (``value`` is a proven lower bound that rules it out).
        value: an int (total guesses over all answers, or the most guesses for the
            worst-case objective).
        seconds: wall seconds its evaluation took (0 when it was never searched).
    """

    opener: str
    status: str
    value: int
    seconds: float


@dataclass
class ProofResult:
    """The outcome of :func:`prove`.

    Attributes:
        word_list, spec: what was solved.
        rank: K; the K best openers' values are exact and every other opener's bound is
            ≥ the K-th value.
        openers: one :class:`OpenerValue` per opener considered, best first (value, then
            exact before bounds, then alphabetical).
        searched: how many openers were searched (the rest were ruled out by their bound).
        reused: how many of those came from the journal of an interrupted run.
        seconds: wall seconds of the run (journaled openers count as 0).
    """

    word_list: WordList
    spec: GameSpec
    rank: int
    openers: list[OpenerValue]
    searched: int
    reused: int
    seconds: float

    @property
    def best(self) -> OpenerValue:
        """The best opener (exact)."""
        return self.openers[0]

    @property
    def ranked(self) -> list[OpenerValue]:
        """The exact values, best first (at least ``rank`` of them)."""
        return [o for o in self.openers if o.status == "exact"]


def _memo_capacity(memory_gb: float, workers: int) -> int:
    """Memo slots per worker: a power of two using at most 60 % of ``memory_gb`` for all
    workers' memos (the rest: tables, workspaces, Python)."""
    budget = memory_gb * 1e9 * 0.6 / max(workers, 1) / MEMO_SLOT_BYTES
    if budget < 1 << 16:
        raise InputError(f"--memory-gb {memory_gb} is too small: at least "
                         f"{(1 << 16) * MEMO_SLOT_BYTES * max(workers, 1) / 0.6 / 1e9:.2f} GB "
                         f"are needed for {workers} worker(s)")
    return 1 << int(np.floor(np.log2(budget)))


_WORKER: dict = {}


def _evaluate(openers: list[int], beta: int, table_path: str, guess_of_answer: np.ndarray,
              spec: GameSpec, memo_capacity: int) -> list[tuple[int, int, float]]:
    """joblib task: evaluate openers (guess indices) against ``beta`` in this worker's memo;
    returns ``[(opener, value, seconds)]``."""
    from solver.exact._search_kernel import evaluate_guess, new_search

    key = (table_path, spec, memo_capacity)
    if _WORKER.get("key") != key:
        _WORKER.clear()
        table = np.load(table_path, allow_pickle=False)
        z1, z2 = zobrist_keys(table.shape[1])
        _WORKER.update(key=key, table=table, zobrist=(z1, z2),
                       search=new_search(spec.guess_limit, table.shape[0], table.shape[1],
                                         spec.n_patterns, memo_capacity))
    table, (z1, z2), search = _WORKER["table"], _WORKER["zobrist"], _WORKER["search"]
    state = np.arange(table.shape[1], dtype=np.int32)
    out = []
    for g in openers:
        started = time.perf_counter()
        value = evaluate_guess(state, g, spec.guess_limit, beta, table, guess_of_answer, z1, z2,
                               search, spec.objective_id, spec.mode_id)
        out.append((g, int(value), time.perf_counter() - started))
    return out


def journal_path(word_list: WordList, spec: GameSpec, rank: int, openers: tuple | None) -> Path:
    """The journal of one proof run (``cache_dir()/journals/prove-<hash>.journal``)."""
    chosen = ",".join(openers) if openers else "*"
    key = hashlib.sha256(f"{word_list.answers_sha256}:{word_list.guesses_sha256}:{spec}:"
                         f"{rank}:{chosen}".encode()).hexdigest()[:20]
    return cache_dir() / "journals" / f"prove-{key}.journal"


def prove(word_list: WordList, *, guess_limit: int = GUESS_LIMIT, objective: str = "total",
          rank: int = 1, openers=None, jobs: int = -1, memory_gb: float = 4.0,
          resume: bool = True, progress=None) -> ProofResult:
    """Find and prove the best opener(s) over all allowed guesses (or over ``openers``).

    Args:
        word_list: the lists.
        guess_limit, objective: the game (docs/algorithms.md §2).
        rank: K ≥ 1: the K best openers are evaluated exactly, and every other opener is
            shown to be no better than the K-th.
        openers: optional iterable of guesses: consider only these (each evaluated exactly
            when ``rank`` ≥ their number).
        jobs: joblib worker processes (-1: all cores; 1: in-process).
        memory_gb: memory for all workers' memos (fixed size; entries are overwritten,
            never grown).
        resume: reuse the openers journaled by an interrupted run of the same proof.
        progress: optional callable ``progress(info: dict)`` after every batch, with keys
            ``decided``, ``total``, ``best``, ``cutoff``, ``elapsed``.

    Returns:
        :class:`ProofResult`.

    Raises:
        InputError: ``rank`` < 1 or larger than the number of openers, an unknown opener,
            an empty opener list, a bad guess limit, objective or memory budget.
        UnwinnableError: no opener wins every game within the guess limit.
        ForeignJournalError: ``resume`` and the journal belongs to another run.
    """
    from joblib import Parallel, cpu_count, delayed

    from solver.exact.journal import Journal, run_fingerprint

    spec = game_spec(word_list, guess_limit, objective)
    if openers is not None:
        chosen = sorted({word_list.guess_index(w) for w in openers})
        if not chosen:
            raise InputError("the opener list is empty")
    else:
        chosen = list(range(word_list.n_guesses))
    if not isinstance(rank, int) or not 1 <= rank <= len(chosen):
        raise InputError(f"--rank must be 1..{len(chosen)} (the number of openers), got {rank}")
    workers = cpu_count() if jobs == -1 else int(jobs)
    if workers < 1:
        raise InputError(f"--jobs must be ≥ 1 or -1 (all cores), got {jobs}")
    capacity = _memo_capacity(memory_gb, workers)
    started = time.perf_counter()

    from solver.exact._search_kernel import guess_bounds

    table = feedback_table(word_list)
    everything = np.arange(word_list.n_answers, dtype=np.int32)
    bound, order = guess_bounds(everything, table, spec.n_patterns, spec.objective_id)
    queue = sorted(chosen, key=lambda g: (int(bound[g]), int(order[g]), g))

    names = tuple(word_list.guesses[g] for g in chosen) if openers is not None else None
    fingerprint = run_fingerprint(word_list, mode=spec.mode, objective=spec.objective,
                                  guess_limit=spec.guess_limit, solver_version=SOLVER_VERSION,
                                  kind="prove", rank=rank, openers=list(names or ()))
    journal = Journal.open(journal_path(word_list, spec, rank, names), fingerprint, resume=resume)
    results: dict[int, tuple[int, float, int]] = {}  # opener → (value, seconds, beta)
    for key, record in journal.records().items():
        results[word_list.guess_index(key)] = (int(record["value"]), float(record["seconds"]),
                                               int(record["beta"]))

    def cutoff() -> int:
        exact = sorted(v for v, _, beta in results.values() if v < beta)
        return exact[rank - 1] if len(exact) >= rank else INF

    table_path = str(table_cache_path(word_list))
    runner = Parallel(n_jobs=workers, max_nbytes=None) if workers > 1 else None
    position = 0
    reused = searched = len(results)
    batch_size = 2 * workers
    while position < len(queue):
        limit = cutoff()
        beta = limit + 1 if limit < INF else INF
        # Without a cut-off yet, solve only the openers still needed for one (K − exact so
        # far): more of them at β = ∞ would be solved exactly for nothing.
        exact_so_far = sum(1 for v, _, b in results.values() if v < b)
        size = batch_size if limit < INF else max(1, min(batch_size, rank - exact_so_far))
        # skip what the journal holds; stop at the first opener whose bound rules it out
        batch = []
        while position < len(queue) and len(batch) < size:
            g = queue[position]
            if bound[g] >= beta:
                break
            position += 1
            if g not in results:
                batch.append(g)
        if not batch:
            if position < len(queue) and bound[queue[position]] >= beta:
                break
            continue
        chunks = [batch[i::workers] for i in range(min(workers, len(batch)))]
        if runner is None:
            outcomes = [_evaluate(batch, beta, table_path, word_list.answer_guess_index, spec,
                                  capacity)]
        else:
            outcomes = runner(delayed(_evaluate)(chunk, beta, table_path,
                                                 word_list.answer_guess_index, spec, capacity)
                              for chunk in chunks)
        for outcome in outcomes:
            for g, value, seconds in outcome:
                results[g] = (value, seconds, beta)
                journal.append(word_list.guesses[g], {"value": value, "seconds": seconds,
                                                      "beta": beta})
        searched += len(batch)
        if progress is not None:
            limit = cutoff()
            progress({"decided": position, "total": len(queue), "searched": searched,
                      "best": min((v for v, _, b in results.values() if v < b), default=None),
                      "cutoff": limit if limit < INF else None,
                      "elapsed": time.perf_counter() - started})
    rows = []
    for g in chosen:
        if g in results:
            value, seconds, beta = results[g]
            status = "exact" if value < beta else "lower_bound"
            rows.append(OpenerValue(word_list.guesses[g], status, min(int(value), INF), seconds))
        else:
            rows.append(OpenerValue(word_list.guesses[g], "lower_bound", int(bound[g]), 0.0))
    rows.sort(key=lambda o: (o.value, o.status != "exact", o.opener))
    if not rows or rows[0].status != "exact" or rows[0].value >= INF:
        raise UnwinnableError(f"no opener wins every game within {guess_limit} guesses")
    journal.close()
    return ProofResult(word_list, spec, rank, rows, searched, reused, time.perf_counter() - started)


def openers_csv(result: ProofResult) -> str:
    """The openers table as CSV text: ``opener,status,value,seconds``, best first."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in result.openers:
        value = "inf" if row.value >= INF else row.value
        writer.writerow((row.opener, row.status, value, f"{row.seconds:.3f}"))
    return buffer.getvalue()


def save_openers_csv(result: ProofResult, path: str | Path) -> Path:
    """Write :func:`openers_csv` atomically; returns the path."""
    return write_atomic(path, openers_csv(result).encode())


def default_csv_path(word_list: WordList, objective: str = "total", mode: str = "normal",
                     directory: str | Path = "artifacts") -> Path:
    """``<directory>/<lists>-<mode>[-worst]-openers.csv``, named by the lists' identity
    (:attr:`solver.game.wordlists.WordList.output_name`: ``legacy``, ``nyt-2024`` or
    ``custom-<hash>``), so a custom list never writes over a shipped list's file."""
    suffix = "" if objective == "total" else f"-{objective}"
    return Path(directory) / f"{word_list.output_name}-{mode}{suffix}-openers.csv"


def discard_journal(word_list: WordList, spec: GameSpec, rank: int, openers=None) -> None:
    """Remove a finished proof's journal (after its outputs are written)."""
    names = tuple(sorted(word_list.guesses[word_list.guess_index(w)] for w in openers)) \
        if openers is not None else None
    path = journal_path(word_list, spec, rank, names)
    if path.exists():
        os.unlink(path)
