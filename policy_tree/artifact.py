"""Writing decision-tree artifacts (format in :mod:`policy_tree.schema`)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import msgpack
import numpy as np

from policy_tree.schema import FORMAT, FORMAT_VERSION, TREE_ARRAYS
from policy_tree.tree import DecisionTree


def tree_to_bins(tree: DecisionTree) -> dict[str, bytes]:
    """The tree's arrays as little-endian bytes, in schema order."""
    arrays = tree.arrays()
    return {name: np.ascontiguousarray(arrays[name], dtype=dtype).tobytes() for name, dtype in TREE_ARRAYS}


def tree_sha256(bins: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name, _ in TREE_ARRAYS:
        digest.update(bins[name])
    return digest.hexdigest()


def encode_artifact(*, word_list, tree: DecisionTree, mode: str, objective: str, guess_limit: int,
                    opener: str, total: int, max_guesses: int, histogram, solver_version: str,
                    solve_seconds: float) -> bytes:
    """msgpack bytes of an artifact; the same arguments give the same bytes."""
    bins = tree_to_bins(tree)
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "word_list": word_list.name,
        "answers_sha256": word_list.answers_sha256,
        "guesses_sha256": word_list.guesses_sha256,
        "answers": "".join(word_list.answers).encode("ascii"),
        "guesses": "".join(word_list.guesses).encode("ascii"),
        "mode": mode,
        "objective": objective,
        "guess_limit": int(guess_limit),
        "opener": opener,
        "total": int(total),
        "average": float(total) / word_list.n_answers,
        "max_guesses": int(max_guesses),
        "histogram": [int(h) for h in histogram],
        "solver_version": solver_version,
        "solve_seconds": float(round(solve_seconds, 3)),
        "tree": bins,
        "tree_sha256": tree_sha256(bins),
    }
    return msgpack.packb(document, use_bin_type=True)


def write_atomic(path: str | Path, payload: bytes) -> Path:
    """Write ``payload`` to ``path`` via a temporary file in the same folder and a rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
