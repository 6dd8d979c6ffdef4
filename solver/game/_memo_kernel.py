"""numba kernels: a fixed-size hash table keyed by answer sets, shared by the exact solver's
memo and the base-heuristic memo of rollout.

A state S (int32 answer indices) is keyed by its 128-bit Zobrist sum: two uint64 sums of
per-answer random keys (order-free, so a state's key does not depend on how it was reached),
plus a caller-chosen nonzero ``meta`` (the solver packs |S|, the objective, the mode and
the guesses left with :func:`memo_meta`; rollout, |S|). Two different states with equal meta
collide only if both 64-bit sums agree (docs/algorithms.md §5).

The table is a :class:`Memo`, a named tuple of arrays ``(key1 uint64, key2 uint64, meta int64,
value int64, extra int64)`` of one power-of-two length; meta 0 marks an empty slot. Linear probing over
``PROBE`` slots; when they are all taken the home slot is overwritten, so memory stays
capped and no probe chain gets a hole.
"""

from collections import namedtuple

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)

PROBE = 16

#: The memo's arrays, one entry per slot: the state's two Zobrist sums (``key1``, ``key2``,
#: uint64), its ``meta`` key (int64, 0 = free slot), the stored ``value`` (int64) and an
#: ``extra`` (int64: the exact solver's optimal guess, or -1 for a lower bound).
Memo = namedtuple("Memo", ["key1", "key2", "meta", "value", "extra"])


def memo_arrays(capacity):
    """Empty table of ``capacity`` slots (a power of two); ``extra`` starts at -1. Plain numpy
    for Python callers (no compiled code to load); :func:`new_memo` is its twin for kernels."""
    return Memo(np.zeros(capacity, dtype=np.uint64), np.zeros(capacity, dtype=np.uint64),
                np.zeros(capacity, dtype=np.int64), np.zeros(capacity, dtype=np.int64),
                np.full(capacity, -1, dtype=np.int64))


#: :func:`memo_arrays` compiled, for kernels.
new_memo = njit(cache=True)(memo_arrays)


@njit(cache=True)
def memo_meta(n, d, objective, mode):
    """The memo's meta key of a state of n answers with d < 256 guesses left, for an objective
    and a mode (ids < 16): ``n << 16 | objective << 12 | mode << 8 | d``, nonzero for n ≥ 1."""
    return (np.int64(n) << 16) | (np.int64(objective) << 12) | (np.int64(mode) << 8) | np.int64(d)


@njit(cache=True)
def state_hash(S, zobrist1, zobrist2):
    """(h1, h2) uint64: the Zobrist sums of the answers in S."""
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(S.shape[0]):
        h1 += zobrist1[S[i]]
        h2 += zobrist2[S[i]]
    return h1, h2


@njit(cache=True)
def memo_find(memo, h1, h2, meta):
    """Slot holding (h1, h2, meta), or -1."""
    key1, key2, metas = memo.key1, memo.key2, memo.meta
    mask = key1.shape[0] - 1
    slot = np.int64(h1 & np.uint64(mask))
    for _ in range(PROBE):
        m = metas[slot]
        if m == 0:
            return np.int64(-1)
        if m == meta and key1[slot] == h1 and key2[slot] == h2:
            return slot
        slot = (slot + 1) & mask
    return np.int64(-1)


@njit(cache=True)
def memo_store(memo, h1, h2, meta, value, extra):
    """Store (value, extra) under (h1, h2, meta), replacing an entry with the same key."""
    key1, key2, metas, values, extras = memo.key1, memo.key2, memo.meta, memo.value, memo.extra
    mask = key1.shape[0] - 1
    home = np.int64(h1 & np.uint64(mask))
    slot = home
    target = home
    for _ in range(PROBE):
        m = metas[slot]
        if m == 0 or (m == meta and key1[slot] == h1 and key2[slot] == h2):
            target = slot
            break
        slot = (slot + 1) & mask
    key1[target] = h1
    key2[target] = h2
    metas[target] = meta
    values[target] = value
    extras[target] = extra
