"""``solver.runs.journal``: records round-trip (numpy arrays included), a torn or damaged
tail is dropped, a foreign journal is refused unless the caller starts over."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from solver.runs.journal import (
    ForeignJournalError, Journal, JournalDamagedWarning, MAGIC, kernel_hashes, run_fingerprint,
)
from solver.game.errors import InputError
from solver.game.wordlists import from_words

ROOT = Path(__file__).resolve().parents[1]
FINGERPRINT = {"answers_sha256": "a" * 64, "mode": "normal", "guess_limit": 6,
               "kernels": {"solver/x/_a_kernel.py": "1" * 64}}


def test_records_round_trip_with_numpy_arrays(tmp_path):
    path = tmp_path / "run.journal"
    journal = Journal.open(path, FINGERPRINT)
    assert len(journal) == 0 and path.exists()
    arrays = {"u4": np.arange(7, dtype=np.uint32), "i8": np.array([[1, -2], [3, 4]], dtype=np.int64),
              "f": np.linspace(0, 1, 5)[::2], "u1": np.zeros(0, dtype=np.uint8)}
    journal.append("7", {"value": np.int64(12), "ok": np.bool_(True), **arrays})
    journal.append("x", [1, "two", None, 2.5, b"\x00", (3, 4)])
    journal.append("7", {"value": 13})  # the last record of a key wins
    journal.close()
    again = Journal.open(path, FINGERPRINT)
    assert list(again.records()) == ["7", "x"]
    assert again.get("7") == {"value": 13}
    assert again.get("x") == [1, "two", None, 2.5, b"\x00", [3, 4]]
    assert "missing" not in again and again.get("missing", 0) == 0
    probe = tmp_path / "probe.journal"
    with Journal.open(probe, FINGERPRINT) as j:
        j.append("a", {"value": np.int64(12), "ok": np.bool_(True), **arrays})
        fresh = j.get("a")
    stored = Journal.open(probe, FINGERPRINT).get("a")
    for data in (fresh, stored):  # the same values before and after a reopen
        assert data["value"] == 12 and type(data["value"]) is int and data["ok"] is True
        for name, array in arrays.items():
            assert data[name].dtype == array.dtype and data[name].shape == array.shape
            assert np.array_equal(data[name], array) and data[name].flags.writeable


def test_a_torn_last_record_is_ignored_and_later_records_stay_readable(tmp_path):
    path = tmp_path / "run.journal"
    journal = Journal.open(path, FINGERPRINT)
    journal.append("a", np.arange(100))
    journal.append("b", np.arange(100))
    data = path.read_bytes()
    for cut in (1, 20, 300):  # inside the frame header, the body, ...
        path.write_bytes(data[:-cut])
        assert list(Journal.open(path, FINGERPRINT).records()) == ["a"]
    path.write_bytes(data[:-20])
    resumed = Journal.open(path, FINGERPRINT)
    resumed.append("c", 3)
    assert list(Journal.open(path, FINGERPRINT).records()) == ["a", "c"]


def test_a_damaged_record_ends_the_journal(tmp_path):
    path = tmp_path / "run.journal"
    journal = Journal.open(path, FINGERPRINT)
    for key in "abc":
        journal.append(key, key * 50)
    data = bytearray(path.read_bytes())
    at = data.index(b"b" * 50)
    data[at] ^= 0xFF  # a flipped bit in b's body: its CRC fails
    path.write_bytes(bytes(data))
    with pytest.warns(JournalDamagedWarning, match=r"run.journal: damaged \(the record at offset "
                      r"\d+ does not match its checksum\); set aside as .*run.journal.damaged, the "
                      "1 intact records before the damage are reused"):
        assert list(Journal.open(path, FINGERPRINT).records()) == ["a"]
    # set aside byte for byte, not cut off: the damaged file is there to look at
    assert (tmp_path / "run.journal.damaged").read_bytes() == bytes(data)
    Journal.open(path, FINGERPRINT).append("d", 1)  # the journal goes on from the intact part
    assert list(Journal.open(path, FINGERPRINT).records()) == ["a", "d"]


def test_a_bit_flip_in_the_header_sets_the_journal_aside(tmp_path):
    path = tmp_path / "run.journal"
    Journal.open(path, FINGERPRINT).append("a", 1)
    data = bytearray(path.read_bytes())
    data[20] ^= 0x04  # inside the header's body
    path.write_bytes(bytes(data))
    with pytest.warns(JournalDamagedWarning, match="its header does not match its checksum.*set "
                      "aside as .*run.journal.damaged, the run starts over"):
        assert len(Journal.open(path, FINGERPRINT)) == 0
    assert (tmp_path / "run.journal.damaged").read_bytes() == bytes(data)
    path.write_bytes(bytes(data))  # damaged again: the next free name
    with pytest.warns(JournalDamagedWarning, match="run.journal.damaged-2"):
        Journal.open(path, FINGERPRINT)
    assert (tmp_path / "run.journal.damaged-2").exists()


def test_a_record_that_checks_but_is_not_a_record_is_a_clean_error(tmp_path):
    from solver.runs.journal import MalformedJournalError, _frame, _pack

    path = tmp_path / "run.journal"
    Journal.open(path, FINGERPRINT).append("a", 1)
    with open(path, "ab") as handle:
        handle.write(_frame(_pack([1, 2, 3])))  # a valid frame, not {"key", "payload"}
    before = path.read_bytes()
    with pytest.raises(MalformedJournalError, match="run.journal: the record at offset"):
        Journal.open(path, FINGERPRINT)
    assert path.read_bytes() == before  # refused, not cut off
    journal = Journal.open(path, FINGERPRINT, resume=False)
    journal.append("x", {"value": "seven"})
    reopened = Journal.open(path, FINGERPRINT)
    with pytest.raises(MalformedJournalError, match=r"run.journal: a record is not of the shape"):
        with reopened.reading():
            int(reopened.get("x")["value"])


def test_a_foreign_journal_is_refused_unless_starting_over(tmp_path):
    path = tmp_path / "run.journal"
    Journal.open(path, FINGERPRINT).append("a", 1)
    before = path.read_bytes()
    other = dict(FINGERPRINT, kernels={"solver/x/_a_kernel.py": "2" * 64})
    with pytest.raises(ForeignJournalError) as caught:
        Journal.open(path, other)
    assert isinstance(caught.value, InputError)
    assert "_a_kernel.py changed" in str(caught.value) and "resume=False" in str(caught.value)
    assert path.read_bytes() == before  # refused, never touched
    with pytest.raises(ForeignJournalError, match="guess_limit 6 → 5"):
        Journal.open(path, dict(FINGERPRINT, guess_limit=5))
    # a key the stored run did not have names itself, even when its value is None
    with pytest.raises(ForeignJournalError, match=r"priors only in the wanted run's fingerprint\)"):
        Journal.open(path, dict(FINGERPRINT, priors=None))
    fresh = Journal.open(path, other, resume=False)
    assert len(fresh) == 0 and len(Journal.open(path, other)) == 0
    assert len(Journal.open(path, other, resume=False)) == 0  # same run, started over


def test_a_file_that_is_not_a_journal_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a journal\n")
    with pytest.raises(ForeignJournalError, match="not a journal"):
        Journal.open(path, FINGERPRINT)
    assert path.read_text() == "not a journal\n"
    assert len(Journal.open(path, FINGERPRINT, resume=False)) == 0
    assert path.read_bytes().startswith(MAGIC)


def test_discard_and_a_journal_replaced_by_another_run(tmp_path):
    path = tmp_path / "run.journal"
    first = Journal.open(path, FINGERPRINT)
    first.append("a", 1)
    second = Journal.open(path, dict(FINGERPRINT, mode="hard"), resume=False)
    first.append("b", 2)  # the file is now the other run's: kept in memory only
    assert first.detached and first.get("b") == 2
    assert list(Journal.open(path, dict(FINGERPRINT, mode="hard")).records()) == []
    first.discard()
    assert path.exists()  # another run's file is left alone
    second.discard()
    assert not path.exists()
    second.discard()  # idempotent
    with pytest.raises(ValueError, match="closed"):
        second.append("c", 3)


def test_the_fingerprint_covers_every_kernel_source():
    hashes = kernel_hashes()
    on_disk = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "solver").rglob("_*_kernel.py"))
    assert sorted(hashes) == on_disk and "solver/exact/_search_kernel.py" in hashes
    words = from_words(["cigar", "rebut"], ["cigar", "rebut", "salet"], "tiny")
    fingerprint = run_fingerprint(words, kind="solve", solver_version="1.2.3", opener="salet")
    assert fingerprint["kernels"] == hashes and fingerprint["opener"] == "salet"
    assert fingerprint["answers_sha256"] == words.answers_sha256
    assert fingerprint["solver_version"] == "1.2.3"  # the caller's, passed in: the journal
    assert "mode" not in fingerprint  # knows nothing of the solver (no dummy rules)


def test_sync_interval_fsyncs_less_but_writes_every_record(tmp_path, monkeypatch):
    """Every record is written at once (another open reads it, as after a killed process);
    with ``sync_interval`` the records are fsynced at most that often, by default each one."""
    import os

    from solver.runs import journal as journal_module

    synced = []
    monkeypatch.setattr(journal_module.os, "fsync", lambda fd: synced.append(fd))
    every = Journal.open(tmp_path / "every.journal", FINGERPRINT)
    synced.clear()  # the open's own (the header's atomic write)
    for i in range(5):
        every.append(str(i), i)
    assert len(synced) == 5
    synced.clear()
    seldom = Journal.open(tmp_path / "seldom.journal", FINGERPRINT, sync_interval=3600.0)
    synced.clear()
    for i in range(5):
        seldom.append(str(i), i)
        assert Journal.open(tmp_path / "seldom.journal", FINGERPRINT).get(str(i)) == i
    assert synced == []
    clock = [1e9]
    monkeypatch.setattr(journal_module.time, "monotonic", lambda: clock[0])
    ticking = Journal.open(tmp_path / "ticking.journal", FINGERPRINT, sync_interval=1.0)
    synced.clear()
    for step in (0.5, 0.4, 0.2, 0.1, 1.5):  # fsynced at 1.1 s and 2.7 s after the open
        clock[0] += step
        ticking.append(str(step), step)
    assert len(synced) == 2 and os.path.getsize(tmp_path / "ticking.journal") > 0
    with pytest.raises(ValueError, match="sync_interval"):
        Journal.open(tmp_path / "bad.journal", FINGERPRINT, sync_interval=-1)


@pytest.mark.parametrize("length", [0xFFFFFFFF, 1 << 20])
def test_a_corrupted_length_in_a_middle_record_is_damage_not_a_torn_tail(tmp_path, length):
    """Record 5 of 30 whose length field points past the end of the file: the 25 records from
    it on are not cut off as a torn tail (they were, silently); the file is set aside, with a
    warning, and the 4 intact records before it are kept."""
    import struct

    path = tmp_path / "run.journal"
    journal = Journal.open(path, FINGERPRINT)
    for k in range(30):
        journal.append(f"r{k:02d}", k)
    data = bytearray(path.read_bytes())
    offsets, at = [], 0
    while at < len(data):  # each frame: magic, length, crc, body
        offsets.append(at)
        at += 12 + struct.unpack_from("<I", data, at + 4)[0]
    fifth = offsets[5]  # frame 0 is the header: the 5th record is frame 5
    struct.pack_into("<I", data, fifth + 4, length)
    path.write_bytes(bytes(data))
    with pytest.warns(JournalDamagedWarning, match=rf"damaged \(the record at offset {fifth} claims "
                      rf"{length} bytes, past the end of the file, and an intact record follows.*"
                      "the 4 intact records before the damage are reused"):
        assert list(Journal.open(path, FINGERPRINT).records()) == ["r00", "r01", "r02", "r03"]
    assert (tmp_path / "run.journal.damaged").read_bytes() == bytes(data)


def test_a_torn_last_record_whose_length_runs_past_the_end_is_still_torn(tmp_path):
    path = tmp_path / "run.journal"
    journal = Journal.open(path, FINGERPRINT)
    for k in range(5):
        journal.append(f"r{k}", "x" * 40)
    data = path.read_bytes()
    path.write_bytes(data[:-10])  # the last append cut short: nothing intact after it
    with warnings.catch_warnings():
        warnings.simplefilter("error", JournalDamagedWarning)
        assert list(Journal.open(path, FINGERPRINT).records()) == ["r0", "r1", "r2", "r3"]
    assert not (tmp_path / "run.journal.damaged").exists()
