"""Every opener, exactly: the opener tables (docs/algorithms.md §9.7).

:func:`build_table` computes, for every allowed opener of a list and mode, its exact total
(or that it cannot win every game within the guess limit) and, for each of its feedbacks, the
exact value and first optimal guess of the state it leaves (the second guesses), with
:func:`solver.exact._table_kernel.opener_classes`. The output is the table of
:mod:`policy_tree.opener_table`: shards of :data:`~policy_tree.opener_table.SHARD_SIZE`
openers in the order of their cheap bound (§3.2: the best openers first), written as each
completes, and the CSV derived from them.

Work and its loss: the openers go to the executor (:mod:`solver.exact.executor`: joblib
processes, or a dask cluster, a LocalCluster when no scheduler is named), one task each, each
worker keeping one memo across its openers (a state's value does not depend on the opener
that led to it, §5). Every finished opener is journaled (:mod:`solver.runs.journal`, one
journal per table, kind ``table``), so a run stopped by Ctrl-C or SIGKILL loses at most the
openers in flight; a shard is written (atomically) once all its openers are in, and shards
already on disk are read and checked, never recomputed. A table therefore grows across runs,
and a run given some shards (``shards``) or a time limit builds only those.

Determinism: an opener's value is exact and its classes' guesses are the first optimal ones in
the search's candidate order (§4.4), so neither depends on the memo, the workers or the
order the work was done in: a shard, and the CSV, are the same bytes whenever rebuilt.
Per-opener CPU seconds go to ``<name>.seconds.csv`` beside the CSV (git-ignored), never into
the table.
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from policy_tree.opener_table import (SHARD_SIZE, STORED_MIN, OpenerClasses, TableRow, TableStatus,
                                      csv_path, encode_shard, read_shard, shard_path, table_csv,
                                      table_name)
from solver.exact.bellman import INF, SOLVER_VERSION, check_searchable
from solver.exact.proofs.runner import Executor, Job, memo_capacity, worker_state
from solver.game.checks import worker_count
from solver.game.errors import InputError
from solver.game.feedback import feedback_table
from solver.game.files import prepare_output_dir, write_atomic
from solver.game.spec import FeedbackRule, Game, Mode, Objective
from solver.runs.naming import game_inputs, journal_path

#: A root class of at least this many answers is searched as a state asked alone (its own
#: workspace with the column counts and, from 300 answers, the letter family: §3.8, §4.2);
#: smaller ones on the worker's workspace, where a workspace of their own cost more than it
#: saved (docs/benchmarks.md).
PREPARED_MIN = 100
#: Where the shipped tables live, relative to the checkout.
TABLES_DIR = Path("artifacts") / "tables"


@dataclass
class TableResult:
    """The outcome of :func:`build_table`.

    Attributes:
        name: the table's name (``legacy-normal-total``).
        rows: every opener's :class:`~policy_tree.opener_table.TableRow` (pending ones
            included), in the CSV's order.
        shards: the table's number of shards; ``complete``: how many are on disk now;
            ``written``: the shards this run wrote.
        computed: openers searched by this run; ``reused``: openers read back from the journal.
        cpu_seconds: per-opener CPU seconds of the openers this run searched.
        seconds: wall seconds of the run.
        csv: the CSV written (None when ``write_csv`` was off).
    """

    name: str
    rows: list[TableRow]
    shards: int
    complete: int
    written: list[int] = field(default_factory=list)
    computed: int = 0
    reused: int = 0
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0
    csv: Path | None = None

    @property
    def finished(self) -> bool:
        """Every opener decided (no pending row)."""
        return all(row.status is not TableStatus.PENDING for row in self.rows)


def check_table_game(game: Game) -> None:
    """Refuse (:class:`InputError`) a game the tables do not cover: the total objective, the
    standard feedback rule, no priors, normal or hard mode."""
    if game.objective is not Objective.TOTAL:
        raise InputError("opener tables are for the total objective here: the worst case has its "
                         "own proof of every opener (--objective worst --all)")
    if game.priors is not None or game.feedback is not FeedbackRule.STANDARD:
        raise InputError("opener tables are for the standard feedback rule without priors")
    if game.mode not in (Mode.NORMAL, Mode.HARD):
        raise InputError(f"opener tables are for normal and hard mode, not {game.mode.value}")
    check_searchable(game)


def table_order(game: Game) -> list[int]:
    """Every guess in the tables' order: the per-guess bound on all answers (§3.2), then the
    order term, then the index: the proof's cheap order, the same for both modes."""
    from solver.exact.search import guess_bounds

    word_list = game.word_list
    table = feedback_table(word_list)
    everything = np.arange(word_list.n_answers, dtype=np.int32)
    cheap, order = guess_bounds(everything, table, game.n_patterns, game.objective_id)
    return sorted(range(word_list.n_guesses), key=lambda g: (int(cheap[g]), int(order[g]), g))


def opener_task(job: Job, g: int) -> tuple[int, int, np.ndarray, np.ndarray, np.ndarray, float]:
    """Executor task: opener ``g``'s exact value and its stored classes (those of at least
    :data:`~policy_tree.opener_table.STORED_MIN` answers): ``(g, value, codes, values, guesses,
    cpu_seconds)``, arrays int64, value ``INF`` when unwinnable."""
    from solver.exact._table_kernel import opener_classes

    table, _, z1, z2, search, _, rules = worker_state(job)
    game, word_list = job.game, job.word_list
    n_patterns = game.n_patterns
    codes = np.zeros(n_patterns, dtype=np.int32)
    values = np.zeros(n_patterns, dtype=np.int64)
    guesses = np.zeros(n_patterns, dtype=np.int32)
    started = time.thread_time()
    value, k = opener_classes(g, game.guess_limit, table, word_list.answer_guess_index, z1, z2,
                              search, game.objective_id, game.mode_id, rules, PREPARED_MIN, codes,
                              values, guesses)
    seconds = time.thread_time() - started
    sizes = np.bincount(table[g], minlength=n_patterns)
    codes = codes[:k].astype(np.int64)
    kept = sizes[codes] >= STORED_MIN
    return (g, int(min(value, INF)), codes[kept], values[:k][kept].astype(np.int64),
            guesses[:k][kept].astype(np.int64), seconds)


def build_table(game: Game, *, jobs: int = -1, memory_gb: float = 8.0, resume: bool = True,
                progress=None, backend: str = "loky", scheduler: str | None = None,
                directory: str | Path = TABLES_DIR, shards=None, deadline: float | None = None,
                write_csv: bool = True) -> TableResult:
    """Build, or resume, the opener table of ``game`` under ``directory`` (module docstring).

    Args:
        game: a :class:`~solver.game.spec.Game` the tables cover (:func:`check_table_game`).
        jobs: worker processes (-1: all cores); with dask, the cluster's threads.
        memory_gb: memory for all workers' memos (fixed size).
        resume: reuse the openers journaled by an interrupted run.
        progress: optional ``progress(info)`` after each finished opener, ``info`` a dict with
            ``done`` and ``total`` (openers of the table decided), ``computed`` (this run),
            ``per_hour`` (this run's openers per hour of wall time), ``eta`` (seconds left at
            that rate, None before the first), ``elapsed`` and ``shard`` (the lowest shard still
            open).
        backend, scheduler: ``"loky"`` (joblib processes) or ``"dask"`` (the cluster at
            ``scheduler``, or a LocalCluster of ``jobs`` workers when it is None).
        directory: where the CSV and the shards go (created).
        shards: optional iterable of shard numbers to build (default: all).
        deadline: optional :func:`time.monotonic` time after which no new opener is started
            (the ones started finish and are journaled; the table stays partial).
        write_csv: write the CSV (derived from the shards on disk) at the end.

    Returns:
        :class:`TableResult`.

    Raises:
        InputError: a game the tables do not cover, a shard number out of range, a bad memory
            budget or backend, an unreachable dask scheduler, a shard on disk that does not
            check (:class:`~policy_tree.errors.ArtifactError`, naming the file).
        ForeignJournalError: ``resume`` and the journal belongs to another run (other kernels:
            rerun with ``resume=False``; the shards on disk are kept either way).
    """
    from solver.runs.journal import Journal, run_fingerprint

    check_table_game(game)
    word_list = game.word_list
    name = table_name(word_list.output_name, game.mode.value, game.objective.value)
    directory = prepare_output_dir(directory)
    started = time.monotonic()
    order = table_order(game)
    n_shards = -(-len(order) // SHARD_SIZE)
    members = [order[s * SHARD_SIZE:(s + 1) * SHARD_SIZE] for s in range(n_shards)]
    wanted = sorted(set(range(n_shards) if shards is None else shards))
    bad = [s for s in wanted if not 0 <= s < n_shards]
    if bad:
        raise InputError(f"shard {bad[0]} is out of range: the {name} table has shards 0..{n_shards - 1}")
    entries: dict[int, OpenerClasses] = {}
    on_disk = set()
    for s in range(n_shards):
        shard = _checked_shard(directory, name, s, members[s], word_list, game, n_shards)
        if shard is not None:
            on_disk.add(s)
            entries.update((int(g), shard.entry(i)) for i, g in enumerate(shard.openers))
    result = TableResult(name, [], n_shards, len(on_disk))
    todo = [s for s in wanted if s not in on_disk]
    if todo:
        workers = worker_count(jobs)
        fingerprint = run_fingerprint(word_list, kind="table", solver_version=SOLVER_VERSION,
                                      mode=game.mode.value, objective=game.objective.value,
                                      guess_limit=game.guess_limit, shard_size=SHARD_SIZE)
        path = journal_path("table", *game_inputs(game), SHARD_SIZE)
        runner = Executor(workers, backend, scheduler)
        try:
            with Journal.open(path, fingerprint, resume=resume, sync_interval=5.0) as journal:
                for key, record in journal.records().items():
                    g = word_list.guess_index(key)
                    entries[g] = OpenerClasses(g, int(record["value"]), record["codes"],
                                               record["values"], record["guesses"])
                    result.reused += 1
                job = Job(word_list, game, memo_capacity(memory_gb, runner.workers))
                build = _Build(game, name, directory, members, todo, entries, job, runner, journal,
                               result, progress, started, deadline)
                build.run()
                on_disk |= build.elsewhere
                if len(on_disk) + len(result.written) == n_shards:
                    journal.discard()  # every shard on disk: nothing left to resume
        finally:
            runner.close()
    result.rows = table_rows(word_list, entries, order, directory, name)
    result.complete = len(on_disk) + len(result.written)
    if write_csv:
        result.csv = write_atomic(csv_path(directory, name), table_csv(result.rows).encode())
    if result.cpu_seconds:
        _merge_seconds(csv_path(directory, name).with_suffix(".seconds.csv"), result.cpu_seconds)
    result.seconds = time.monotonic() - started
    return result


def _checked_shard(directory, name, s, openers, word_list, game, n_shards):
    """Shard ``s`` as read from disk (None when it is not there yet), checked against what the
    table expects of it: its lists, mode, objective, guess limit and openers."""
    from policy_tree.errors import CorruptArtifactError

    path = shard_path(directory, name, s)
    if not path.exists():
        return None
    shard = read_shard(path, word_list)
    header = shard.header
    expected = {"mode": game.mode.value, "objective": game.objective.value,
                "guess_limit": game.guess_limit, "shard": s, "shards": n_shards,
                "shard_size": SHARD_SIZE}
    for key, value in expected.items():
        if header[key] != value:
            raise CorruptArtifactError(path, f"{key} is {header[key]!r}, the table's is {value!r}")
    if list(shard.openers) != list(openers):
        raise CorruptArtifactError(path, "its openers are not the table's for this shard (the "
                                         "lists' order differs)")
    return shard


class _Build:
    """The openers of the shards ``todo`` through the executor, journaled; each shard written
    once its openers are all in."""

    def __init__(self, game, name, directory, members, todo, entries, job, runner, journal,
                 result, progress, started, deadline):
        self.game, self.name, self.directory = game, name, directory
        self.members, self.todo, self.entries = members, todo, entries
        self.job, self.runner, self.journal = runner.share(job), runner, journal
        self.result, self.progress = result, progress
        self.started, self.deadline = started, deadline
        self.total = sum(len(m) for m in members)
        self.elsewhere: set[int] = set()  # shards another run wrote while this one ran

    def calls(self):
        for s in self.todo:
            if self._written_elsewhere(s):
                continue
            for g in self.members[s]:
                if g in self.entries:
                    continue
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    return
                yield self.job, g

    def run(self) -> None:
        word_list = self.game.word_list
        self._write_ready()
        for g, value, codes, values, guesses, seconds in self.runner.map_unordered(opener_task,
                                                                                    self.calls()):
            name = word_list.guesses[g]
            self.journal.append(name, {"value": value, "codes": codes, "values": values,
                                       "guesses": guesses, "seconds": seconds})
            self.entries[g] = OpenerClasses(g, value, codes, values, guesses)
            self.result.computed += 1
            self.result.cpu_seconds[name] = seconds
            self._write_ready()
            self._report()

    def _written_elsewhere(self, s: int) -> bool:
        """Whether shard ``s`` was written meanwhile by another run of the same table (a run
        given other ``shards``, sharing the journal): then read and checked, not recomputed."""
        if s in self.result.written or not shard_path(self.directory, self.name, s).exists():
            return False
        shard = _checked_shard(self.directory, self.name, s, self.members[s], self.game.word_list,
                               self.game, len(self.members))
        self.entries.update((int(g), shard.entry(i)) for i, g in enumerate(shard.openers))
        self.elsewhere.add(s)
        return True

    def _write_ready(self) -> None:
        """Write every shard of ``todo`` whose openers are all in and that is not written yet."""
        for s in self.todo:
            if (s in self.result.written or s in self.elsewhere
                    or any(g not in self.entries for g in self.members[s])):
                continue
            word_list = self.game.word_list
            payload = encode_shard(word_list=word_list, mode=self.game.mode.value,
                                   objective=self.game.objective.value,
                                   guess_limit=self.game.guess_limit, shard=s,
                                   shards=len(self.members), shard_size=SHARD_SIZE,
                                   solver_version=SOLVER_VERSION,
                                   entries=[self.entries[g] for g in self.members[s]])
            write_atomic(shard_path(self.directory, self.name, s), payload)
            self.result.written.append(s)

    def _report(self) -> None:
        if self.progress is None:
            return
        elapsed = time.monotonic() - self.started
        done = len(self.entries)
        rate = self.result.computed / elapsed * 3600 if elapsed > 0 else 0.0
        left = sum(1 for s in self.todo for g in self.members[s] if g not in self.entries)
        open_shards = [s for s in self.todo if s not in self.result.written]
        self.progress({"done": done, "total": self.total, "computed": self.result.computed,
                       "per_hour": rate, "eta": left / rate * 3600 if rate > 0 else None,
                       "elapsed": elapsed, "shard": open_shards[0] if open_shards else None})


def table_rows(word_list, entries: dict, order: list[int], directory, name) -> list[TableRow]:
    """Every opener's row: from the shards on disk (``entries`` holds them, and what this run
    computed); openers of shards not written yet are pending (a value journaled but not in a
    written shard is not in the table yet)."""
    from policy_tree.opener_table import sort_rows

    written = set()
    for s in range(-(-len(order) // SHARD_SIZE)):
        if shard_path(directory, name, s).exists():
            members = order[s * SHARD_SIZE:(s + 1) * SHARD_SIZE]
            written.update(members)
            if any(g not in entries for g in members):  # written meanwhile by another run
                shard = read_shard(shard_path(directory, name, s), word_list)
                entries.update((int(g), shard.entry(i)) for i, g in enumerate(shard.openers))
    rows = []
    for g in order:
        opener = word_list.guesses[g]
        if g not in written:
            rows.append(TableRow(opener, TableStatus.PENDING, None))
        elif entries[g].value >= INF:
            rows.append(TableRow(opener, TableStatus.UNWINNABLE, INF))
        else:
            rows.append(TableRow(opener, TableStatus.EXACT, entries[g].value))
    return sort_rows(rows)


def recompute(game: Game, openers, *, jobs: int = -1, memory_gb: float = 8.0,
              backend: str = "loky", scheduler: str | None = None) -> list[OpenerClasses]:
    """The table entries of ``openers`` (words), computed afresh (no journal, nothing written),
    in the order given: what ``prove --all --openers`` compares with the shipped shards.

    Raises:
        InputError: as :func:`build_table`, or an unknown opener."""
    check_table_game(game)
    word_list = game.word_list
    chosen = [word_list.guess_index(w) for w in openers]
    if not chosen:
        raise InputError("the opener list is empty")
    runner = Executor(worker_count(jobs), backend, scheduler)
    try:
        job = runner.share(Job(word_list, game, memo_capacity(memory_gb, runner.workers)))
        found = {g: OpenerClasses(g, value, codes, values, guesses)
                 for g, value, codes, values, guesses, _ in runner.map_unordered(
                     opener_task, ((job, g) for g in dict.fromkeys(chosen)))}
    finally:
        runner.close()
    return [found[g] for g in chosen]


def _merge_seconds(path: Path, seconds: dict[str, float]) -> None:
    """Add this run's per-opener CPU seconds to the timings CSV (git-ignored): ``opener,
    cpu_seconds``, sorted by opener; earlier runs' rows are kept."""
    known: dict[str, str] = {}
    if path.exists():
        from solver.game.files import read_input_file

        text = read_input_file(path, "opener table").decode("ascii", errors="replace")
        for row in csv.reader(io.StringIO(text)):
            if len(row) == 2 and row[0] != "opener":
                known[row[0]] = row[1]
    known.update((opener, f"{value:.3f}") for opener, value in seconds.items())
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("opener", "cpu_seconds"))
    writer.writerows(sorted(known.items()))
    write_atomic(path, buffer.getvalue().encode())
