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

A table may be written by several processes at once (the shares of one root,
docs/algorithms.md §4.5, in memory they all map: ``_new_shared_memo`` in
:mod:`solver.exact.bellman`), so a slot may be read while another process rewrites it, and
its fields then come from two entries. ``key1`` therefore holds the first sum XOR a 64-bit
hash of the slot's meta, value and extra (:func:`entry_check`, the lockless hash table of
Hyatt and Mann, 2002): a read accepts a slot only if its fields agree with each other
(:func:`memo_get`), so fields of two entries are taken for an entry with probability about
2^-64 (§5).
"""

from collections import namedtuple

import numpy as np
from numba import njit
from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)
from solver.game.kernel_cache import leaf_kernel

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


@leaf_kernel
def entry_check(meta, value, extra):
    """uint64: the hash of an entry's meta, value and extra that ``key1`` holds XOR the first
    Zobrist sum. A linear mix by odd constants, then splitmix64's finaliser (Steele, Lea and
    Flood, "Fast splittable pseudorandom number generators", 2014): a bijection, so two
    entries' checks are equal only if the mixes are, which for differences below 2^40 the
    constants make as unlikely as a random 64-bit match."""
    x = (np.uint64(meta) * np.uint64(0x9E3779B97F4A7C15)
         + np.uint64(value) * np.uint64(0xD1B54A32D192ED03)
         + np.uint64(extra) * np.uint64(0xAEF17502108EF2D9))
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@leaf_kernel
def memo_meta(n, d, objective, mode):
    """The memo's meta key of a state of n answers with d < 256 guesses left, for an objective
    and a mode (ids < 16): ``n << 16 | objective << 12 | mode << 8 | d``, nonzero for n ≥ 1."""
    return (np.int64(n) << 16) | (np.int64(objective) << 12) | (np.int64(mode) << 8) | np.int64(d)


@leaf_kernel
def state_hash(S, zobrist1, zobrist2):
    """(h1, h2) uint64: the Zobrist sums of the answers in S."""
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(S.shape[0]):
        h1 += zobrist1[S[i]]
        h2 += zobrist2[S[i]]
    return h1, h2


@leaf_kernel
def memo_get(memo, h1, h2, meta):
    """(slot, value, extra) of the entry of (h1, h2, meta), or (-1, 0, -1). The value and
    extra are the ones the slot's keys were checked with (:func:`entry_check`): read them from
    here, not from the arrays, which another process may be rewriting."""
    key1, key2, metas, values, extras = memo.key1, memo.key2, memo.meta, memo.value, memo.extra
    mask = key1.shape[0] - 1
    slot = np.int64(h1 & np.uint64(mask))
    for _ in range(PROBE):
        m = metas[slot]
        if m == 0:
            break
        if m == meta and key2[slot] == h2:
            value = values[slot]
            extra = extras[slot]
            if key1[slot] ^ entry_check(m, value, extra) == h1:
                return slot, value, extra
        slot = (slot + 1) & mask
    return np.int64(-1), np.int64(0), np.int64(-1)


@leaf_kernel
def memo_find(memo, h1, h2, meta):
    """Slot holding (h1, h2, meta), or -1 (:func:`memo_get`; a table only this process
    writes, whose slot's value and extra it may then read)."""
    return memo_get(memo, h1, h2, meta)[0]


@leaf_kernel
def memo_store(memo, h1, h2, meta, value, extra):
    """Store (value, extra) under (h1, h2, meta), replacing an entry with the same key."""
    key1, key2, metas, values, extras = memo.key1, memo.key2, memo.meta, memo.value, memo.extra
    mask = key1.shape[0] - 1
    home = np.int64(h1 & np.uint64(mask))
    slot = home
    target = home
    for _ in range(PROBE):
        m = metas[slot]
        if m == 0 or (m == meta and key2[slot] == h2
                      and key1[slot] ^ entry_check(m, values[slot], extras[slot]) == h1):
            target = slot
            break
        slot = (slot + 1) & mask
    meta, value, extra = np.int64(meta), np.int64(value), np.int64(extra)  # as the slot holds them
    key1[target] = h1 ^ entry_check(meta, value, extra)
    key2[target] = h2
    metas[target] = meta
    values[target] = value
    extras[target] = extra
