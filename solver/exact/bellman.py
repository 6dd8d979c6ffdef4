"""The exact optimal-policy solver (normal mode, minimise total guesses).

Solves the time-indexed Bellman recursion of Bertsimas & Paskov (Operations Research 2024,
§3) with the pruning and exact small cases summarised in ``algorithms.md``; the recursion
itself is the numba kernel :mod:`solver.exact._search_kernel`. With a fixed opener, the root's
feedback classes are independent sub-problems: they are solved in parallel with joblib,
largest first, and each finished class is checkpointed so an interrupted solve resumes.

Tie-break (what makes the tree deterministic): at every state the guess played is the first
optimal guess in the order (lower bound ``3n − k − [g ∈ S]`` ascending, Σ|C|² ascending,
alphabetical), among the guesses that split the state.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from policy_tree.tree import ALL_GREEN, DecisionTree
from solver.game.errors import InputError
from solver.game.feedback import cache_dir, feedback_table, table_cache_path
from solver.game.wordlists import WordList

SOLVER_VERSION = "0.1.0"
GUESS_LIMIT = 6
INF = 1 << 30
#: Zobrist keys of the memo are drawn from this fixed seed (determinism).
ZOBRIST_SEED = 20260101


class UnwinnableError(InputError):
    """No policy wins every game within the guess limit from this opener or state."""


@dataclass
class SolveResult:
    """The outcome of :func:`solve`.

    Attributes:
        word_list: the lists solved.
        opener: the root guess.
        total: Σ over answers of guesses used (the Bellman value plus the opener), an int.
        tree: the optimal decision tree.
        guesses_per_answer: int64[n_answers], guesses used for each answer.
        seconds: wall seconds of the solve (classes loaded from a checkpoint cost ~0).
        stats: counters summed over classes (states searched, memo hits, guesses expanded).
    """

    word_list: WordList
    opener: str
    total: int
    tree: DecisionTree
    guesses_per_answer: np.ndarray
    seconds: float
    guess_limit: int = GUESS_LIMIT
    stats: dict = field(default_factory=dict)

    @property
    def average(self) -> float:
        return self.total / self.word_list.n_answers

    @property
    def max_guesses(self) -> int:
        return int(self.guesses_per_answer.max())

    @property
    def histogram(self) -> list[int]:
        """``histogram[i]`` = answers solved in ``i + 1`` guesses, length ``guess_limit``."""
        counts = np.bincount(self.guesses_per_answer, minlength=self.guess_limit + 1)
        return [int(c) for c in counts[1:self.guess_limit + 1]]


def zobrist_keys(n_answers: int) -> tuple[np.ndarray, np.ndarray]:
    """Two uint64[n_answers] arrays of odd random keys from the fixed seed."""
    rng = np.random.default_rng(ZOBRIST_SEED)
    keys = rng.integers(0, 2**63, size=(2, n_answers), dtype=np.int64).astype(np.uint64)
    return keys[0] * np.uint64(2) + np.uint64(1), keys[1] * np.uint64(2) + np.uint64(1)


def _memo_capacity(class_size: int) -> int:
    # ~40 bytes a slot: 2**21 slots (80 MB) covers the largest legacy classes with room.
    return 1 << 21 if class_size > 64 else 1 << 16


_WORKER_TABLES: dict[str, np.ndarray] = {}


def _worker_table(table_path: str) -> np.ndarray:
    """The feedback table, loaded once per worker process from the on-disk cache (a writable
    in-memory copy: a read-only memmap would make numba compile a second specialisation)."""
    if table_path not in _WORKER_TABLES:
        _WORKER_TABLES.clear()
        _WORKER_TABLES[table_path] = np.load(table_path, allow_pickle=False)
    return _WORKER_TABLES[table_path]


def _solve_class(code, table_path, guess_of_answer, answers, guess_limit, zobrist):
    """joblib task: solve one root class; returns (code, (value, tree arrays..., stats))."""
    from solver.exact._search_kernel import solve_subtree

    state, table, local_guess_of_answer, z1, z2 = _localise(
        _worker_table(table_path), answers, guess_of_answer, zobrist)
    return code, solve_subtree(state, guess_limit, table, local_guess_of_answer, z1, z2,
                               _memo_capacity(len(answers)))


def _localise(table, answers, guess_of_answer, zobrist):
    """The state's own columns of the table, with answers renumbered 0..n-1 (their order kept,
    so every tie-break is unchanged). A subset's scan then reads one or two cache lines per
    guess instead of one per answer: the full table is 30 MB, a class's columns about 1 MB.

    Returns (local answers int32[n], local table uint8[n_guesses, n], guess_of_answer
    int32[n], zobrist1 uint64[n], zobrist2 uint64[n])."""
    local_table = np.ascontiguousarray(table[:, answers])
    return (np.arange(len(answers), dtype=np.int32), local_table,
            np.ascontiguousarray(guess_of_answer[answers]),
            np.ascontiguousarray(zobrist[0][answers]), np.ascontiguousarray(zobrist[1][answers]))


def solve_state(word_list: WordList, answers, guesses_left: int, table: np.ndarray | None = None):
    """Exact optimum of one state: ``(total, guess)``.

    Args:
        word_list: the lists.
        answers: the answers still possible, as words or answer indices (any order).
        guesses_left: guesses still allowed, ≥ 1.
        table: the feedback table (loaded from the cache if omitted).

    Returns:
        ``(total, guess)``: Σ over the answers of guesses still needed under an optimal policy,
        and the word to play (the tie-break in the module docstring). Raises
        :class:`UnwinnableError` if no policy wins every answer in time.
    """
    from solver.exact._search_kernel import solve_state as kernel

    state = _state_array(word_list, answers)
    if guesses_left < 1:
        raise InputError(f"guesses_left must be at least 1, got {guesses_left}")
    table = feedback_table(word_list) if table is None else table
    local_state, local_table, guess_of_answer, z1, z2 = _localise(
        table, state, word_list.answer_guess_index, zobrist_keys(word_list.n_answers))
    value, guess = kernel(local_state, int(guesses_left), local_table, guess_of_answer, z1, z2,
                          _memo_capacity(len(state)))
    if value >= INF:
        raise UnwinnableError(f"no policy wins all {len(state)} answers within {guesses_left} guesses")
    return int(value), word_list.guesses[int(guess)]


def _state_array(word_list: WordList, answers) -> np.ndarray:
    indices = [word_list.answer_index(a) if isinstance(a, str) else int(a) for a in answers]
    state = np.unique(np.asarray(indices, dtype=np.int32))
    if state.size == 0:
        raise InputError("the state is empty: no answer is possible")
    if state[0] < 0 or state[-1] >= word_list.n_answers:
        raise InputError("answer index out of range")
    return state


def checkpoint_dir(word_list: WordList, opener: str, guess_limit: int) -> Path:
    """Where finished root classes of one solve are kept until the artifact is written."""
    # The kernel's source is part of the key: a changed search never reuses stale classes.
    kernel_source = (Path(__file__).parent / "_search_kernel.py").read_bytes()
    key = hashlib.sha256(
        f"{SOLVER_VERSION}:{word_list.answers_sha256}:{word_list.guesses_sha256}:"
        f"{opener}:{guess_limit}:normal:total:".encode() + kernel_source
    ).hexdigest()[:20]
    return cache_dir() / "checkpoints" / key


def _save_checkpoint(directory: Path, code: int, result) -> None:
    value, node_guess, edge_start, edge_feedback, edge_child, stats = result
    directory.mkdir(parents=True, exist_ok=True)
    final = directory / f"class-{code:03d}.npz"
    tmp = directory / f".class-{code:03d}.{os.getpid()}.npz"
    np.savez(tmp, value=np.int64(value), node_guess=node_guess, edge_start=edge_start,
             edge_feedback=edge_feedback, edge_child=edge_child, stats=stats)
    os.replace(tmp, final)


def _load_checkpoint(directory: Path, code: int):
    path = directory / f"class-{code:03d}.npz"
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as saved:
            return (int(saved["value"]), saved["node_guess"], saved["edge_start"],
                    saved["edge_feedback"], saved["edge_child"], saved["stats"])
    except (OSError, ValueError, KeyError):
        return None  # a damaged checkpoint is solved again


def solve(word_list: WordList, opener: str = "salet", *, guess_limit: int = GUESS_LIMIT,
          jobs: int = -1, progress=None, resume: bool = True) -> SolveResult:
    """Solve the optimal decision tree with a fixed opener.

    Args:
        word_list: the lists (see :func:`solver.game.wordlists.load_word_list`).
        opener: the first guess; must be an allowed guess.
        guess_limit: games must be won within this many guesses (6 in Wordle).
        jobs: joblib worker processes for the root classes (-1: all cores; 1: in-process).
        progress: optional callable ``progress(done_answers, total_answers)`` called as
            classes finish.
        resume: reuse root classes checkpointed by an interrupted run of the same solve.

    Returns:
        :class:`SolveResult` with the exact optimal total for this opener and its tree.

    Raises:
        UnknownWordError: the opener is not an allowed guess.
        UnwinnableError: no policy with this opener wins every game within the limit.
    """
    from joblib import Parallel, delayed

    opener = opener.strip().lower()
    opener_index = word_list.guess_index(opener)
    if guess_limit < 1:
        raise InputError(f"guess limit must be at least 1, got {guess_limit}")
    started = time.perf_counter()
    table = feedback_table(word_list)
    codes = table[opener_index]
    root_classes = [
        (int(p), np.flatnonzero(codes == p).astype(np.int32)) for p in np.unique(codes) if p != ALL_GREEN
    ]
    zobrist = zobrist_keys(word_list.n_answers)
    directory = checkpoint_dir(word_list, opener, guess_limit)
    results: dict[int, tuple] = {}
    if resume:
        for code, _ in root_classes:
            saved = _load_checkpoint(directory, code)
            if saved is not None:
                results[code] = saved
    todo = sorted((c for c in root_classes if c[0] not in results), key=lambda c: (-len(c[1]), c[0]))
    done_answers = sum(len(s) for c, s in root_classes if c in results)
    if progress is not None:
        progress(done_answers, word_list.n_answers)
    if guess_limit == 1 and root_classes:
        raise UnwinnableError(f"opener {opener!r} cannot win every game in 1 guess")
    if todo:
        n_jobs = 1 if len(todo) == 1 else jobs
        table_path = str(table_cache_path(word_list))
        runner = Parallel(n_jobs=n_jobs, return_as="generator_unordered", max_nbytes=None)
        tasks = (delayed(_solve_class)(code, table_path, word_list.answer_guess_index, states,
                                        guess_limit - 1, zobrist)
                 for code, states in todo)
        sizes = dict((c, len(s)) for c, s in root_classes)
        for code, result in runner(tasks):
            if result[0] >= INF:
                raise UnwinnableError(
                    f"opener {opener!r}: the answers behind feedback {code} cannot all be won "
                    f"within {guess_limit} guesses"
                )
            results[code] = result
            _save_checkpoint(directory, code, result)
            done_answers += sizes[code]
            if progress is not None:
                progress(done_answers, word_list.n_answers)
    tree, stats = _assemble(opener_index, root_classes, results)
    per_answer = tree.guesses_per_answer(lambda g, a: int(table[g, a]), range(word_list.n_answers))
    total = int(per_answer.sum())
    expected = word_list.n_answers + sum(int(results[c][0]) for c, _ in root_classes)
    if total != expected or per_answer.min() < 1:
        raise AssertionError(f"tree replays to {total} but the search found {expected}")
    seconds = time.perf_counter() - started
    _clear_checkpoint(directory)
    return SolveResult(word_list, opener, total, tree, per_answer, seconds, guess_limit, stats)


def _clear_checkpoint(directory: Path) -> None:
    if directory.exists():
        for path in directory.glob("*.npz"):
            path.unlink(missing_ok=True)
        try:
            directory.rmdir()
        except OSError:
            pass


def _assemble(opener_index: int, root_classes, results) -> tuple[DecisionTree, dict]:
    """Join the root node and the class subtrees (ascending feedback) into one preorder tree."""
    n_root_edges = len(root_classes)
    node_guess = [np.array([opener_index], dtype=np.uint32)]
    edge_start_parts = [np.array([0], dtype=np.int64)]
    edge_feedback = [np.array([c for c, _ in root_classes], dtype=np.uint8)]
    edge_child = [np.zeros(n_root_edges, dtype=np.uint32)]
    n_nodes, n_edges = 1, n_root_edges
    stats = np.zeros(4, dtype=np.int64)
    for i, (code, _) in enumerate(root_classes):
        _, sub_guess, sub_start, sub_feedback, sub_child, sub_stats = results[code]
        edge_child[0][i] = n_nodes
        node_guess.append(sub_guess.astype(np.uint32))
        edge_start_parts.append(sub_start[:-1].astype(np.int64) + n_edges)
        edge_feedback.append(sub_feedback.astype(np.uint8))
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
    )
    names = ("states_searched", "memo_hits", "guesses_expanded")
    return tree, {name: int(stats[i]) for i, name in enumerate(names)}


def default_artifact_path(result: SolveResult, directory: str | Path = "artifacts") -> Path:
    """``<directory>/<list>-normal-<opener>.msgpack``."""
    return Path(directory) / f"{result.word_list.name}-normal-{result.opener}.msgpack"


def artifact_bytes(result: SolveResult) -> bytes:
    """``result`` as msgpack artifact bytes (schema: :mod:`policy_tree.schema`)."""
    from policy_tree.artifact import encode_artifact

    return encode_artifact(
        word_list=result.word_list, tree=result.tree, mode="normal", objective="total",
        guess_limit=result.guess_limit, opener=result.opener, total=result.total,
        max_guesses=result.max_guesses, histogram=result.histogram,
        solver_version=SOLVER_VERSION, solve_seconds=result.seconds,
    )


def save_artifact(result: SolveResult, path: str | Path) -> Path:
    """Write ``result`` as a msgpack artifact, atomically (temporary file + rename)."""
    from policy_tree.artifact import write_atomic

    return write_atomic(path, artifact_bytes(result))
