"""numba kernel: a state split into its feedback classes (shared by the exact solver and the
policies)."""

from solver.game import kernel_cache  # noqa: F401  (numba's cache stamped with every source this file imports)
from solver.game.kernel_cache import leaf_kernel


@leaf_kernel
def partition(row, S, counts, members, starts, present):
    """Stable counting sort of S by feedback into ``members``; returns the number k of classes.
    ``present[:k]`` are the feedback codes in ascending order and class j is
    ``members[starts[j]:starts[j+1]]`` (ascending, as S is). ``counts`` has one slot per
    pattern (3**L) and is zero on entry and exit; ``starts`` has 3**L + 1 slots."""
    n = S.shape[0]
    for i in range(n):
        counts[row[S[i]]] += 1
    k = 0
    offset = 0
    for p in range(counts.shape[0]):
        if counts[p] > 0:
            present[k] = p
            starts[k] = offset
            offset += counts[p]
            counts[p] = offset - counts[p]  # becomes the write cursor
            k += 1
    starts[k] = offset
    for i in range(n):
        p = row[S[i]]
        members[counts[p]] = S[i]
        counts[p] += 1
    for j in range(k):
        counts[present[j]] = 0
    return k


@leaf_kernel
def class_count(row, S, counts, kmin):
    """The classes of S under one guess's feedback ``row``, counted in ``counts`` (int32 zero
    scratch, left holding the classes of the answers read; the caller zeroes them): ``(k,
    read)``. The count stops once k plus the answers left to read cannot reach ``kmin``; k is
    then an upper bound on the classes (the unread answers counted as new ones) and ``read``
    < |S|. ``kmin`` ≤ 1 counts every answer."""
    n = S.shape[0]
    k = 0
    for i in range(n):
        c = row[S[i]]
        if counts[c] == 0:
            k += 1
        counts[c] += 1
        if k + (n - 1 - i) < kmin:
            return k + (n - 1 - i), i + 1
    return k, n
