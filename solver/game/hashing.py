"""Zobrist keys for hashing answer sets (docs/algorithms.md §5).

A state's key is the sum of its answers' random keys in two independent uint64 streams
(the 128-bit Zobrist sum computed by :func:`solver.game._memo_kernel.state_hash`), so it does
not depend on the order in which the state was reached. The keys come from a fixed seed:
the same lists give the same keys, run after run (determinism).
"""

from __future__ import annotations

import numpy as np

#: Seed of the Zobrist keys.
ZOBRIST_SEED = 20260101


def zobrist_keys(n_answers: int) -> tuple[np.ndarray, np.ndarray]:
    """Two uint64[n_answers] arrays of odd random keys from :data:`ZOBRIST_SEED`."""
    rng = np.random.default_rng(ZOBRIST_SEED)
    keys = rng.integers(0, 2**63, size=(2, n_answers), dtype=np.int64).astype(np.uint64)
    return keys[0] * np.uint64(2) + np.uint64(1), keys[1] * np.uint64(2) + np.uint64(1)


#: Seed of the hard-mode constraint keys.
CONSTRAINT_SEED = 20261122


def constraint_keys() -> tuple[np.ndarray, np.ndarray]:
    """Two uint64[WIDTH, KEY_COLUMNS] arrays of random keys for hashing a hard-mode constraint
    (:func:`solver.game._hard_mode_kernel.constraint_hash`), from :data:`CONSTRAINT_SEED`;
    column 0 (no constraint) is zero, so the empty constraint hashes to 0."""
    from solver.game._hard_mode_kernel import KEY_COLUMNS, WIDTH

    rng = np.random.default_rng(CONSTRAINT_SEED)
    keys = rng.integers(0, 2**63, size=(2, WIDTH, KEY_COLUMNS), dtype=np.int64).astype(np.uint64)
    keys = keys * np.uint64(2)  # even: a state's sum keeps the parity of its answer keys
    keys[:, :, 0] = 0
    return np.ascontiguousarray(keys[0]), np.ascontiguousarray(keys[1])
