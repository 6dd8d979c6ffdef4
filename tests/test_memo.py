"""The memo's hash table (solver/game/_memo_kernel.py, docs/algorithms.md §5): entries round
trip, and a slot whose fields come from two entries — what a read sees while another process
rewrites the slot of a memo the shares of a root all write (§4.5) — is never taken for an
entry."""

from __future__ import annotations

import itertools
import multiprocessing

import numpy as np
import pytest

from solver.exact.bellman import _new_shared_memo as shared_memo
from solver.game._memo_kernel import Memo, memo_arrays, memo_find, memo_get, memo_store

FIELDS = Memo._fields


def _key(seed):
    """A random 128-bit key (two uint64 sums) and a meta, as a state's would be."""
    rng = np.random.default_rng(seed)
    h1, h2 = (np.uint64(x) for x in rng.integers(0, 2**63, size=2, dtype=np.uint64) * 2 + 1)
    return h1, h2, np.int64(int(rng.integers(1, 1 << 30)))


def _slot_fields(memo, slot):
    return [getattr(memo, field)[slot] for field in FIELDS]


@pytest.mark.kernels
@pytest.mark.parametrize("make", [memo_arrays, shared_memo])
def test_entries_round_trip_and_replace_their_own_key(make):
    memo = make(64)
    keys = [_key(seed) for seed in range(40)]
    for i, (h1, h2, meta) in enumerate(keys):
        memo_store(memo, h1, h2, meta, 10 * i, i - 20)
    found = 0
    for i, (h1, h2, meta) in enumerate(keys):
        slot, value, extra = memo_get(memo, h1, h2, meta)
        assert slot == memo_find(memo, h1, h2, meta)
        if slot >= 0:  # (a full probe window overwrites its home slot)
            assert (value, extra) == (10 * i, i - 20)
            found += 1
        assert memo_get(memo, h1, h2 + np.uint64(2), meta)[0] == -1
        assert memo_get(memo, h1, h2, meta + 1)[0] == -1
    assert found >= 30
    h1, h2, meta = keys[-1]
    memo_store(memo, h1, h2, meta, 7, -1)  # a lower bound replaces the exact value in place
    assert memo_get(memo, h1, h2, meta)[1:] == (7, -1)
    assert int((memo.meta == meta).sum()) == 1


@pytest.mark.kernels
@pytest.mark.parametrize("same_key", [False, True])
def test_a_slot_of_two_entries_fields_is_never_read_as_an_entry(same_key):
    """Every mix of the fields of two entries in one slot, as a read may meet it while another
    process rewrites the slot: a read finds an entry only when every field that differs between
    the two is that entry's. With one key and two values (a lower bound, then the exact value
    with its guess) a mix would otherwise pass the lower bound off as exact."""
    a = _key(1)
    entries = {"a": (a, 11, -1), "b": (a if same_key else _key(2), 12, 3)}
    images = {}
    for name, ((h1, h2, meta), value, extra) in entries.items():
        memo = memo_arrays(1)
        memo_store(memo, h1, h2, meta, value, extra)
        images[name] = _slot_fields(memo, 0)
    differ = [f for f in range(len(FIELDS)) if images["a"][f] != images["b"][f]]
    assert [FIELDS[f] for f in differ] == (["key1", "value", "extra"] if same_key else list(FIELDS))
    for choice in itertools.product("ab", repeat=len(FIELDS)):
        memo = memo_arrays(1)
        for f, field in enumerate(FIELDS):
            getattr(memo, field)[0] = images[choice[f]][f]
        sources = {choice[f] for f in differ}
        for name, ((h1, h2, meta), _, _) in entries.items():
            if len(sources) == 1 and (same_key or sources == {name}):
                _, value, extra = entries[next(iter(sources))]
                assert memo_get(memo, h1, h2, meta) == (0, value, extra), choice
            else:
                assert memo_get(memo, h1, h2, meta) == (-1, 0, -1), choice


def _write(memo, seed, rounds):
    """Store, many times over, entries whose value and extra are functions of their key."""
    keys = [_key(1000 + k) for k in range(8)]
    rng = np.random.default_rng(seed)
    for _ in range(rounds):
        k = int(rng.integers(len(keys)))
        h1, h2, meta = keys[k]
        # eight keys in a table of four slots: the writes race on every slot
        memo_store(memo, h1, h2, meta, 100 + k if rng.random() < 0.5 else -k, k)


@pytest.mark.kernels
def test_a_memo_written_by_forked_processes_is_read_by_all():
    """Two processes forked after the shared memo is made write the same few slots at once while
    this one reads: every entry read is one a writer stored for that key."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("needs fork")
    memo = shared_memo(4)
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_write, args=(memo, seed, 20_000)) for seed in (1, 2)]
    for writer in writers:
        writer.start()
    keys = [_key(1000 + k) for k in range(8)]
    read = 0
    while any(writer.is_alive() for writer in writers) or read == 0:
        for k, (h1, h2, meta) in enumerate(keys):
            slot, value, extra = memo_get(memo, h1, h2, meta)
            if slot >= 0:
                assert extra == k and value in (100 + k, -k), (k, value, extra)
                read += 1
    for writer in writers:
        writer.join()
        assert writer.exitcode == 0
    assert read > 0
