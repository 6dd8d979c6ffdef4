"""Proving the best fixed start: the best sequence of k guesses played blind, then optimal play.

Many players open with the same two (or three) words whatever the colours. Played blind, a
sequence ``w₁ … w_k`` of distinct guesses is worth (docs/algorithms.md §9.6)

    T(w) = Σ_{i : w_i ∈ A} i + Σ_{C ≠ green} (k·|C| + V*(C, L − k))

over the classes ``C`` of the answers' joint feedback. Only the order of the answers among the
words matters (an answer found at guess i costs i), so a set of words is best played answers
first; the proof considers each set once, in its **canonical order**: answers before other
guesses, then by guess index. Two orders of the same set that both keep the answers first have
the same total (the CLI says so).

The plan follows the opener proof (:mod:`.total`, §9.3), level by level:

A. **Seed.** The ``SEED_WORDS`` first words in the cheap per-guess order (§3.2) are extended,
   a level at a time, by the guesses with the best per-class bounds (§9.6 (b)); the
   ``SEED_TUPLES`` best sequences get their depth-one bound and the best of them are solved
   exactly until ``rank`` exact totals give a cut-off ``β`` (the K-th best plus one).
B. **Rows.** Every word is a *row*: its canonical continuations are bounded at once
   (:func:`~solver.exact._fixed_start_kernel.row_bounds`: the per-class bound (b), then (c) and
   (d) for those still under the cut-off, §9.6), each stopped at ``β``; a row keeps the
   continuations under ``β`` (candidates; for k = 3 those pairs are rows in turn) and the least
   bound of the others. (A word's own bound as an opener, §9.6 (a), rules out too few words to
   pay for itself: 84 % of legacy's words are under the best pair's total.)
C. **Search.** The candidates, in the order (bound, words), are evaluated exactly against the
   cut-off (updated between batches of ``SEARCH_BATCH``) until the next one's bound reaches it.

Every sequence ends ``exact`` (its total), ``lower_bound`` (a proven bound that rules it out: a
candidate cut off by the search, or never reached), or is covered by a row's ``*`` entry: every
canonical sequence that starts with the row's words and is not listed elsewhere is at least
that value. Determinism, journal, workers and resumption are the opener proof's (§9.4): a
batch's cut-off depends only on earlier batches, bounds read no memo, a cut-off sequence is
reported with the cut-off; every chunk of bounds, row and search is journaled with the cut-off
it ran against and reused only when a resumed run reaches it with that cut-off.
"""

from __future__ import annotations

import csv
import io
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solver.exact.bellman import INF, SOLVER_VERSION, UnwinnableError, check_searchable
from solver.exact.proofs.results import OpenerStatus
from solver.exact.proofs.runner import (BACKENDS, Executor, Job, memo_capacity, proof_journal_inputs,
                                        search_batches, worker_state)
from solver.game.checks import worker_count
from solver.game.errors import InputError
from solver.game.feedback import feedback_table
from solver.game.files import write_atomic
from solver.game.spec import FeedbackRule, Game, Mode, Objective
from solver.game.wordlists import WordList
from solver.game.wording import counted
from solver.runs.naming import journal_path

#: Words whose continuations seed the cut-off (phase A), in the cheap per-guess order.
SEED_WORDS = 16
#: Seed sequences kept per level by their per-class bound, then bounded and searched.
SEED_TUPLES = 64
#: Words per bounding task (phase B, first level); one journal record each.
BOUND_CHUNK = 128
#: Rows per task (phase B); one journal record each.
ROW_CHUNK = 4
#: Sequences per search batch (phase C): a constant, so the cut-offs and the table do not
#: depend on the workers.
SEARCH_BATCH = 16
#: The sequence lengths the proof handles (1 is the opener proof, :mod:`.total`).
LENGTHS = (2, 3)
#: A word column's entry on a row that stands for every other continuation.
ANY = "*"


@dataclass(frozen=True)
class SequenceValue:
    """One line of a fixed-start proof's table.

    Attributes:
        words: the k words in canonical order (answers first, then by guess index); a row's
            ``*`` entries (:data:`ANY`) stand for every canonical continuation not listed on
            another line.
        status: ``EXACT`` (``value`` is the total) or ``LOWER_BOUND`` (every sequence the line
            covers has at least ``value``).
        value: total guesses over all answers (int); ``INF`` (2**30) for a sequence that
            cannot win every game.
        seconds: wall seconds its search took (0 when it was never searched).
    """

    words: tuple[str, ...]
    status: OpenerStatus
    value: int
    seconds: float

    def __post_init__(self):
        object.__setattr__(self, "status", OpenerStatus(self.status))

    @property
    def complete(self) -> bool:
        """Whether the line is one sequence (no ``*``)."""
        return ANY not in self.words


@dataclass
class FixedStartResult:
    """The outcome of :func:`prove_fixed_start`.

    Attributes:
        word_list, game: what was solved; ``length`` the k words played blind.
        rank: K: the K best sequences are exact, and every line not among them is at least the
            K-th value plus one.
        rows: :class:`SequenceValue` lines, best first (value, exact first, words).
        words: how many words were considered (all guesses, or ``words=``).
        searched: how many sequences were searched exactly or against a cut-off (journal
            included); ``reused`` how many of those came from the journal.
        seconds, phase_seconds: wall seconds of the run and of each phase.
    """

    word_list: WordList
    game: Game
    length: int
    rank: int
    rows: list[SequenceValue]
    words: int
    searched: int
    reused: int
    seconds: float
    phase_seconds: dict = field(default_factory=dict)

    @property
    def ranked(self) -> list[SequenceValue]:
        """The exact sequences, best first."""
        return [r for r in self.rows if r.status is OpenerStatus.EXACT and r.complete]

    @property
    def best(self) -> SequenceValue:
        """The best exact sequence (the first of :attr:`ranked`); IndexError if none is exact."""
        return self.ranked[0]


def csv_columns(length: int) -> tuple[str, ...]:
    """``first, second[, third], status, value``."""
    return ("first", "second", "third")[:length] + ("status", "value")


def sequences_csv(result: FixedStartResult, seconds: bool = False) -> str:
    """The table as CSV, best first (the same for every run of the same proof), or with
    ``seconds`` each line's search time too."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(csv_columns(result.length) + (("seconds",) if seconds else ()))
    for row in result.rows:
        fields = (*row.words, row.status, "inf" if row.value >= INF else row.value)
        writer.writerow(fields + ((f"{row.seconds:.3f}",) if seconds else ()))
    return buffer.getvalue()


def default_csv_path(game: Game, length: int, directory: str | Path = "artifacts") -> Path:
    """``<directory>/<lists>-<mode>-fixed<k>.csv`` (the lists' output name, as the openers CSV)."""
    return Path(directory) / f"{game.word_list.output_name}-{game.mode.value}-fixed{length}.csv"


def save_sequences_csv(result: FixedStartResult, path: str | Path) -> tuple[Path, Path]:
    """Write :func:`sequences_csv` and its timings beside it (``<stem>.seconds.csv``),
    atomically; returns both paths."""
    path = Path(path)
    timings = path.with_name(path.stem + ".seconds.csv")
    return (write_atomic(path, sequences_csv(result).encode()),
            write_atomic(timings, sequences_csv(result, seconds=True).encode()))


@dataclass(frozen=True)
class FixedStanding:
    """What the lines establish (the CLI's table and sentences come from it).

    Attributes:
        shown: ``(rank, line)``: every exact sequence at most the K-th best exact value
            (ties included), best first; rank = 1 + the number of smaller values.
        kth: the K-th best exact value (``INF`` if fewer are exact).
        others_least: the least value of every other line (exact or bound), None if none.
    """

    shown: list[tuple[int, SequenceValue]]
    kth: int
    others_least: int | None


def fixed_standing(result: FixedStartResult) -> FixedStanding:
    """What ``result`` establishes: every exact sequence at most the K-th best exact value (ties
    included) with its rank, the K-th value (``INF`` if fewer than K are exact), and the least value
    of every other line (docs/algorithms.md §9.6)."""
    exact = sorted(r.value for r in result.ranked)
    kth = exact[result.rank - 1] if len(exact) >= result.rank else INF
    chosen = sorted((r for r in result.ranked if r.value <= kth), key=lambda r: r.value)
    shown = [(1 + sum(1 for o in chosen if o.value < r.value), r) for r in chosen]
    picked = {id(r) for r in chosen}
    least = min((r.value for r in result.rows if id(r) not in picked), default=None)
    return FixedStanding(shown, kth, least)


def fixed_sentences(result: FixedStartResult) -> list[str]:
    """What the lines prove, in words (each figure read from the lines)."""
    stand = fixed_standing(result)
    k = result.length
    scope = "" if result.words == result.word_list.n_guesses else f" of the {result.words} words considered"
    if not stand.shown or stand.kth >= INF:
        return [f"no {k}-word start{scope} wins every game"]
    if stand.others_least is None:
        return [f"proven: every {k}-word start{scope} is solved exactly (the table lists them all)"]
    return [f"proven: every other {k}-word start{scope}, played blind then optimally, totals at "
            f"least {stand.others_least}"]


def order_note(result: FixedStartResult, words: tuple[str, ...]) -> str:
    """How the sequence may be reordered without changing its total: answers first; among
    the answers (and among the other guesses) any order gives the same total."""
    if result.game.mode is Mode.HARD:
        return "this order"
    answers = set(result.word_list.answers)
    n_answers = sum(1 for w in words if w in answers)
    if n_answers in (0, len(words)):
        return "any order"
    if n_answers == 1 and len(words) == 2:
        return "this order"
    return "answers first"


# -- the workers' tasks ------------------------------------------------------------------------

@dataclass(frozen=True)
class _Task:
    """What every task gets (shared once per worker): the job and the words considered, in
    canonical order (answers first, then by index)."""

    job: Job
    words: tuple[int, ...]


def _continuations(task: _Task, prefix: tuple[int, ...]) -> np.ndarray:
    """The words that may follow ``prefix``: in normal mode those after its last word in
    canonical order; in hard mode every other word that the rule allows after the prefix
    whatever its colours (§9.6: there the order matters, each order is its own sequence)."""
    if task.job.game.mode is not Mode.HARD:
        position = task.words.index(prefix[-1])
        return np.array(task.words[position + 1:], dtype=np.int32)
    from solver.exact._fixed_start_kernel import blind_allowed

    P, _, _, _, _, _, rules = worker_state(task.job)
    others = np.array([g for g in task.words if g not in prefix], dtype=np.int32)
    return blind_allowed(np.array(prefix, dtype=np.int32), others, P, rules.letters, rules.packed,
                         task.job.game.n_patterns)


def _bound_task(task: _Task, prefixes: list[tuple[int, ...]], beta: int) -> list[int]:
    """Depth-one bounds of the sequences ``prefixes`` (as played blind, d = L − j), each
    stopped at ``beta``."""
    from solver.exact._fixed_start_kernel import prefix_bound

    P, PT, _, _, _, scratch, _ = worker_state(task.job)
    game = task.job.game
    counts = np.zeros(game.n_patterns, dtype=np.int32)
    guess_of_answer = task.job.word_list.answer_guess_index
    return [int(prefix_bound(np.array(p, dtype=np.int32), game.guess_limit - len(p), beta, P, PT,
                             guess_of_answer, game.objective_id, scratch, counts)) for p in prefixes]


def _row_task(task: _Task, prefixes: list[tuple[int, ...]], beta: int,
              cheap: bool) -> list[tuple[list[int], list[int], int, int]]:
    """For each row ``prefix``: (the continuations whose bound is under ``beta``, their bounds,
    the least bound of the other continuations or INF, how many continuations it has); with
    ``cheap`` the per-class bounds alone (§9.6 (b)), for the seed."""
    from solver.exact._fixed_start_kernel import row_bounds

    P, PT, _, _, _, scratch, _ = worker_state(task.job)
    game = task.job.game
    counts = np.zeros(game.n_patterns, dtype=np.int32)
    guess_of_answer = task.job.word_list.answer_guess_index
    out = []
    for prefix in prefixes:
        last = _continuations(task, prefix)
        if not last.size:  # hard mode, mostly: nothing may follow the prefix blind
            out.append(([], [], INF, 0))
            continue
        bounds = row_bounds(np.array(prefix, dtype=np.int32), last, game.guess_limit - len(prefix) - 1,
                            beta, P, PT, guess_of_answer, game.objective_id, scratch, counts, cheap)
        keep = bounds < beta
        others = bounds[~keep]
        out.append(([int(h) for h in last[keep]], [int(b) for b in bounds[keep]],
                    int(min(others.min(), INF)) if others.size else INF, int(last.size)))
    return out


def _search_task(task: _Task, words: tuple[int, ...], beta: int) -> tuple[int, float]:
    """The sequence's fail-soft total against ``beta``, and its seconds."""
    from solver.exact._fixed_start_kernel import prefix_value

    started = time.perf_counter()
    P, PT, z1, z2, search, scratch, rules = worker_state(task.job)
    game = task.job.game
    value = prefix_value(np.array(words, dtype=np.int32), game.guess_limit - len(words), beta, P, PT,
                         task.job.word_list.answer_guess_index, z1, z2, search, scratch,
                         game.objective_id, game.mode_id, rules)
    return int(min(value, INF)), time.perf_counter() - started


# -- the proof -----------------------------------------------------------------------------------

def check_fixed_start(game: Game, length: int) -> None:
    """InputError unless the proof handles ``game`` and ``length``."""
    if length not in LENGTHS:
        raise InputError(f"--fixed-start must be one of {', '.join(map(str, LENGTHS))} "
                         f"(1 is the opener proof), got {length!r}")
    if game.objective is not Objective.TOTAL or game.priors is not None \
            or game.feedback is not FeedbackRule.STANDARD:
        raise InputError("the fixed-start proof is for the total objective, the standard feedback "
                         "rule and no priors")
    if game.mode is Mode.ULTRA:
        # a word played blind after g must be consistent with every colouring g can get, and
        # a word gets one colouring from g: no blind start exists (docs/algorithms.md §10.5)
        raise InputError("the fixed-start proof has no ultra-hard mode: there a guess must be "
                         "consistent with the colours of every guess before it, and a word is "
                         "consistent with one colouring of each, so no word follows another blind")
    if length >= game.guess_limit:
        raise InputError(f"a start of {length} words leaves no guess within the limit of "
                         f"{game.guess_limit}")


def fixed_start_journal(game: Game, length: int, rank: int, words=None) -> Path:
    """The journal of the proof :func:`prove_fixed_start` runs for these arguments."""
    names = _names(game.word_list, words)
    return journal_path("prove-fixed", *proof_journal_inputs(game, rank, names), f"length{length}")


def discard_fixed_start_journal(game: Game, length: int, rank: int, words=None) -> None:
    """Delete the journal of :func:`prove_fixed_start` for these arguments, if there is one."""
    path = fixed_start_journal(game, length, rank, words)
    if path.exists():
        os.unlink(path)


def _names(word_list: WordList, words) -> tuple[str, ...] | None:
    if words is None:
        return None
    return tuple(sorted({word_list.guesses[word_list.guess_index(w)] for w in words}))


def prove_fixed_start(game: Game, length: int = 2, *, rank: int = 1, words=None, jobs: int = -1,
                      memory_gb: float = 4.0, resume: bool = True, progress=None,
                      backend: str = "loky", scheduler: str | None = None) -> FixedStartResult:
    """Find and prove the best ``length`` words to play blind, then optimally (module docstring).

    Args:
        game: the :class:`~solver.game.spec.Game` (total objective, standard feedback, no
            priors; in hard mode each order is its own sequence, and only those the rule
            allows blind are considered, §9.6).
        length: k, 2 or 3 (< the guess limit).
        rank: K ≥ 1: the K best sequences are exact, every other one is shown worse.
        words: optional iterable of guesses: sequences of these words only.
        jobs, memory_gb, resume, backend, scheduler: as :func:`solver.exact.proofs.total.prove`.
        progress: optional ``progress(info)`` with keys ``phase`` ("seed", "bound", "rows",
            "search"), ``done``, ``total``, ``searched``, ``best``, ``cutoff``, ``elapsed``.

    Returns:
        :class:`FixedStartResult`.

    Raises:
        InputError: a game or length the proof does not handle, ``rank`` < 1 or above the
            number of sequences, an unknown word, fewer words than ``length``, a bad memory
            budget or backend.
        UnwinnableError: no sequence wins every game within the guess limit (in hard mode:
            or none can be played blind).
        ForeignJournalError: ``resume`` and the journal belongs to another run.
    """
    from solver.exact.search import guess_bounds
    from solver.runs.journal import Journal, run_fingerprint

    word_list = check_searchable(game).word_list
    check_fixed_start(game, length)
    names = _names(word_list, words)
    chosen = sorted({word_list.guess_index(w) for w in names}) if names is not None \
        else list(range(word_list.n_guesses))
    if len(chosen) < length:
        raise InputError(f"{counted(len(chosen), 'word')} cannot make a start of {length}")
    from math import comb, perm
    starts = (perm if game.mode is Mode.HARD else comb)(len(chosen), length)
    if not isinstance(rank, int) or not 1 <= rank <= starts:
        raise InputError(f"--rank must be 1..{starts} (the number of {length}-word starts), got {rank}")
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    started = time.perf_counter()
    is_answer = np.zeros(word_list.n_guesses, dtype=bool)
    is_answer[word_list.answer_guess_index] = True
    canonical = tuple(sorted(chosen, key=lambda g: (not is_answer[g], g)))
    runner = Executor(worker_count(jobs), backend, scheduler)
    try:
        job = Job(word_list, game, memo_capacity(memory_gb, runner.workers))
        table = feedback_table(word_list)
        cheap, order = guess_bounds(np.arange(word_list.n_answers, dtype=np.int32), table,
                                    game.n_patterns, game.objective_id)
        fingerprint = run_fingerprint(word_list, kind="prove-fixed", solver_version=SOLVER_VERSION,
                                      mode=game.mode.value, objective=game.objective.value,
                                      guess_limit=game.guess_limit, rank=rank, length=length,
                                      words=list(names or ()))
        path = fixed_start_journal(game, length, rank, words)
        with Journal.open(path, fingerprint, resume=resume) as journal:
            proof = _FixedProof(word_list, length, rank, canonical, cheap, order,
                                runner.share(_Task(job, canonical)), runner, journal, progress, started,
                                game.mode is Mode.HARD)
            rows = proof.run()
            if not any(r.status is OpenerStatus.EXACT and r.complete and r.value < INF for r in rows):
                journal.discard()
    finally:
        runner.close()
    if proof.sequences == 0 and not proof.results:
        raise UnwinnableError(f"in hard mode no start of {length} words can be played blind on these "
                              "lists: after some colouring of a word, the next is not allowed "
                              "(docs/algorithms.md §9.6)")
    result = FixedStartResult(word_list, game, length, rank, rows, len(chosen), proof.searched,
                              proof.reused, time.perf_counter() - started, proof.phase_seconds)
    if not result.ranked or result.best.value >= INF:
        raise UnwinnableError(f"no start of {length} words played blind wins every game within "
                              f"{counted(game.guess_limit, 'guess')}")
    return result


class _FixedProof:
    """The phases of :func:`prove_fixed_start` over one journal (module docstring)."""

    def __init__(self, word_list, length, rank, canonical, cheap, order, task, runner, journal,
                 progress, started, hard=False):
        self.word_list, self.length, self.rank, self.canonical = word_list, length, rank, canonical
        self.cheap, self.order, self.task, self.runner = cheap, order, task, runner
        self.journal, self.progress, self.started = journal, progress, started
        self.position = {g: i for i, g in enumerate(canonical)}
        self.hard = hard
        self.results: dict[tuple, tuple[int, float, int]] = {}  # words → (value, seconds, beta)
        self.candidates: dict[tuple, int] = {}  # k-word sequences under the cut-off → bound
        self.covered: dict[tuple, int] = {}  # prefix → every other continuation is ≥ this
        self.searched = self.reused = 0
        self.phase_seconds: dict[str, float] = {}
        self.journaled: dict[tuple, object] = {}
        with journal.reading():
            for key, record in journal.records().items():
                kind = key.split(":")[0]
                beta = int(record["beta"])
                if kind == "bounds":
                    prefixes = tuple(tuple(self._index(w) for w in p) for p in record["prefixes"])
                    values = [int(v) for v in record["values"]]
                    if len(values) != len(prefixes):
                        raise ValueError(f"{key}: {len(values)} values for {len(prefixes)} sequences")
                    self.journaled["bounds", prefixes, beta] = values
                elif kind in ("rows", "seedrows"):
                    prefixes = tuple(tuple(self._index(w) for w in p) for p in record["prefixes"])
                    rows = [([self._index(w) for w in last], [int(v) for v in values], int(others),
                             int(count)) for last, values, others, count in record["rows"]]
                    if len(rows) != len(prefixes):
                        raise ValueError(f"{key}: {len(rows)} rows for {len(prefixes)} prefixes")
                    self.journaled[kind, prefixes, beta] = rows
                elif kind == "search":
                    words = tuple(self._index(w) for w in record["words"])
                    self.journaled["search", words, beta] = (int(record["value"]), float(record["seconds"]))
                else:
                    raise ValueError(f"{key}: unknown record")

    def _index(self, word) -> int:
        return self.word_list.guess_index(str(word))

    def _words(self, seq) -> list[str]:
        return [self.word_list.guesses[g] for g in seq]

    # -- the cut-off ----------------------------------------------------------------------------
    def exact(self) -> list[int]:
        return sorted(v for v, _, beta in self.results.values() if v < beta)

    def beta(self) -> int:
        exact = self.exact()
        return exact[self.rank - 1] + 1 if len(exact) >= self.rank and exact[self.rank - 1] < INF else INF

    def report(self, phase: str, done: int, total: int) -> None:
        if self.progress is not None:
            exact = self.exact()
            beta = self.beta()
            self.progress({"phase": phase, "done": done, "total": total, "searched": self.searched,
                           "best": exact[0] if exact else None,
                           "cutoff": beta - 1 if beta < INF else None,
                           "elapsed": time.perf_counter() - self.started})

    # -- work, from the journal or the workers --------------------------------------------------
    def bounds(self, prefixes: list[tuple], beta: int, phase: str) -> dict[tuple, int]:
        chunks = [tuple(prefixes[i:i + BOUND_CHUNK]) for i in range(0, len(prefixes), BOUND_CHUNK)]
        computed = self.runner.map(_bound_task, ((self.task, list(c), beta) for c in chunks
                                                 if ("bounds", c, beta) not in self.journaled))
        out: dict[tuple, int] = {}
        for chunk in chunks:
            values = self.journaled.get(("bounds", chunk, beta))
            if values is None:
                values = next(computed)
                self.journal.append(f"bounds:{'+'.join(self._words(chunk[0]))}@{beta}",
                                    {"prefixes": [self._words(p) for p in chunk], "values": values,
                                     "beta": beta})
            out.update(zip(chunk, values))
            self.report(phase, len(out), len(prefixes))
        return out

    def rows(self, prefixes: list[tuple], beta: int, phase: str, kind: str = "rows") -> dict[tuple, tuple]:
        """Rows (``kind`` "rows") or the seed's cheap rows ("seedrows"), journaled per chunk."""
        chunks = [tuple(prefixes[i:i + ROW_CHUNK]) for i in range(0, len(prefixes), ROW_CHUNK)]
        computed = self.runner.map(_row_task, ((self.task, list(c), beta, kind == "seedrows") for c in chunks
                                               if (kind, c, beta) not in self.journaled))
        out: dict[tuple, tuple] = {}
        for chunk in chunks:
            rows = self.journaled.get((kind, chunk, beta))
            if rows is None:
                rows = next(computed)
                self.journal.append(f"{kind}:{'+'.join(self._words(chunk[0]))}@{beta}",
                                    {"prefixes": [self._words(p) for p in chunk],
                                     "rows": [[self._words(last), values, others, count]
                                              for last, values, others, count in rows], "beta": beta})
            out.update(zip(chunk, rows))
            self.report(phase, len(out), len(prefixes))
        return out

    def search(self, queue: list[tuple], bounds: dict[tuple, int], phase: str, until_exact: bool) -> None:
        """Searches along ``queue`` in batches, each against the cut-off fixed when it starts;
        stops at the first sequence whose bound reaches the cut-off, or (``until_exact``) once
        ``rank`` exact values are known."""
        # a result at a larger cut-off still holds: such sequences need no search
        for beta, batch, position in search_batches(queue, self.beta, lambda: self.rank - len(self.exact()),
                                                    SEARCH_BATCH, bounds.__getitem__, until_exact,
                                                    self.results.__contains__):
            computed = self.runner.map(_search_task, ((self.task, w, beta) for w in batch
                                                      if ("search", w, beta) not in self.journaled))
            for words in batch:
                found = self.journaled.get(("search", words, beta))
                if found is not None:
                    value, seconds = found
                    self.reused += 1
                else:
                    value, seconds = next(computed)
                    self.journal.append(f"search:{'+'.join(self._words(words))}@{beta}",
                                        {"words": self._words(words), "value": value,
                                         "seconds": seconds, "beta": beta})
                self.results[words] = (value, seconds, beta)
                self.searched += 1
                self.report(phase, position, len(queue))

    # -- phases ----------------------------------------------------------------------------------
    def seed(self) -> None:
        """Phase A: seed sequences by their per-class bounds, then searched until ``rank`` exact."""
        cheap_order = sorted(self.canonical, key=lambda g: (int(self.cheap[g]), int(self.order[g]), g))
        level = [(g,) for g in cheap_order[:SEED_WORDS]]
        for _ in range(1, self.length):
            scored = []
            rows = level if self.hard else [p for p in level if p[-1] != self.canonical[-1]]
            for prefix, (last, values, _, _) in self.rows(rows, INF, "seed", "seedrows").items():
                scored += [(v, prefix + (h,)) for h, v in zip(last, values)]
            scored.sort(key=lambda item: (item[0], [self.position[g] for g in item[1]]))
            level = [words for _, words in scored[:SEED_TUPLES]]
        if not level:
            return
        bounds = self.bounds(level, INF, "seed")
        queue = sorted(level, key=lambda w: (bounds[w], [self.position[g] for g in w]))
        self.search(queue, bounds, "seed", until_exact=True)
        self.seed_bounds = bounds

    def run(self) -> list[SequenceValue]:
        self.seed_bounds: dict[tuple, int] = {}
        self.sequences = 0  # the k-word sequences the last level's rows considered
        clock = time.perf_counter()
        self.seed()
        self.phase_seconds["seed"] = time.perf_counter() - clock
        clock = time.perf_counter()
        beta = self.beta()
        level = [(g,) for g in self.canonical]
        for depth in range(2, self.length + 1):
            if not self.hard:  # in canonical order the last word has no continuation
                level = [p for p in level if p[-1] != self.canonical[-1]]
            found = self.rows(level, beta, "rows")
            next_level = []
            for prefix in level:
                last, values, others, count = found[prefix]
                self.sequences += count if depth == self.length else 0
                if others < INF:
                    self.covered[prefix] = others
                for h, v in zip(last, values):
                    if depth == self.length:
                        self.candidates[prefix + (h,)] = v
                    else:
                        next_level.append(prefix + (h,))
            level = next_level
        self.phase_seconds["rows"] = time.perf_counter() - clock
        clock = time.perf_counter()
        bounds = dict(self.seed_bounds)
        bounds.update(self.candidates)
        queue = sorted(self.candidates, key=lambda w: (self.candidates[w], [self.position[g] for g in w]))
        self.search(queue, bounds, "search", until_exact=False)
        self.phase_seconds["search"] = time.perf_counter() - clock
        return self.lines(bounds)

    def lines(self, bounds: dict[tuple, int]) -> list[SequenceValue]:
        lines = []
        listed = set(self.results) | set(self.candidates)
        for words in sorted(listed, key=lambda w: [self.position[g] for g in w]):
            if words in self.results:
                value, seconds, beta = self.results[words]
                if value < beta:
                    lines.append(SequenceValue(tuple(self._words(words)), OpenerStatus.EXACT, value, seconds))
                else:
                    lines.append(SequenceValue(tuple(self._words(words)), OpenerStatus.LOWER_BOUND,
                                               min(max(beta, bounds[words]), INF), seconds))
            else:
                lines.append(SequenceValue(tuple(self._words(words)), OpenerStatus.LOWER_BOUND,
                                           min(bounds[words], INF), 0.0))
        for prefix, value in self.covered.items():
            padded = tuple(self._words(prefix)) + (ANY,) * (self.length - len(prefix))
            lines.append(SequenceValue(padded, OpenerStatus.LOWER_BOUND, min(value, INF), 0.0))
        lines.sort(key=lambda r: (r.value, r.status is not OpenerStatus.EXACT, r.words))
        return lines
