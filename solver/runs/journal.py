"""Append-only journals of the finished pieces of long runs, so an interrupted run resumes.

A long run appends one record per finished piece (a root class of a solve, an (opener,
policy) result of the gap report, a run of the UCT study); a rerun opens the same journal,
skips the pieces it holds and appends the rest. A journal belongs to one run, named by a
*fingerprint*: everything the pieces' results depend on (see :func:`run_fingerprint`), which
the caller names (its version included): this module knows nothing of the solver. A journal
whose stored fingerprint differs from the one asked for is refused, never reused.

File format (all integers little-endian). The file is a sequence of frames::

    magic  4 bytes   b"EWJ1"
    length uint32    byte length of the body
    crc32  uint32    zlib.crc32 of the body
    body   msgpack   (``length`` bytes)

Frame 0, the header, has the body ``{"format": "exact-wordle/journal", "version": 1,
"fingerprint": {...}}``; every later frame is one record, ``{"key": str, "payload": ...}``.
Payloads are msgpack values (None, bool, int, float, str, bytes, lists, maps; tuples come
back as lists) and numpy arrays, stored as msgpack extension type 1 whose data is the msgpack
array ``[dtype.str, shape, raw C-order bytes]`` (numpy scalars are stored as Python numbers;
object and structured dtypes are refused). A key appended twice keeps its last payload.

Durability: a journal file is created with its header by
:func:`solver.game.files.write_atomic`; each record is then written with one ``write`` of
the whole frame to the file opened for appending, so a record :meth:`Journal.append` has
returned from survives the process being killed (Ctrl-C, SIGKILL). Against a crash of the
machine, records are fsynced: each one by default (:meth:`Journal.append` returns only once
it is on disk), or, for a journal opened with ``sync_interval`` > 0, a record at most every
that many seconds (a solve's root classes: a SALET tree's 148 classes finish within a second,
docs/benchmarks.md, and an fsync each took longer than the search when it was measured: the
history of docs/benchmarks.md), so a crash of the machine
loses at most that many seconds of records. A record cut short by a crash (or any frame whose
length or CRC does not check) ends the journal: it and everything after it are ignored on
reading and cut off before the next append, so a torn last record never hides later ones.
A frame that is *damaged* rather than torn — a complete frame whose CRC or magic fails with
more bytes after it, a length field that runs past the end of the file with an intact frame
after it (a record in the middle whose length was corrupted: a torn record is always the last),
or a header frame that does not check (a flipped bit) — is never cut off
or overwritten silently: the file is set aside as ``<name>.damaged`` (the first free name of
``.damaged``, ``.damaged-2``, ...), a :class:`JournalDamagedWarning` says so and what is
kept, and the run goes on from the intact records before the damage (from nothing when the
header is damaged).
Every read or write of the file holds an exclusive ``flock`` on it (POSIX) for that one
operation, so two processes may share a journal: their records never interleave, and a
process that starts over (``resume=False``) makes a new file, which the other notices
(:attr:`Journal.detached`).

Errors: :class:`ForeignJournalError` (an :class:`~solver.game.errors.InputError`, exit
status 2 in the command-line tools) when the file holds another run's journal or is not a
journal at all, unless the caller starts over with ``resume=False``; :class:`JournalError`
when the path is not a regular file (a directory, a FIFO, a device: refused before it is
opened, never waited on) or is larger than ``INPUT_LIMITS["journal"]``
(:func:`solver.game.files.check_input_file`), and, through :meth:`Journal.reading`, when a
record that checks is not of the shape its run writes; :class:`OSError` when the file cannot
be read or written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import time
import warnings
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgpack
import numpy as np

from solver.game.errors import InputError, UserNotice
from solver.game.files import check_input_file, write_atomic

try:  # advisory locks are POSIX; elsewhere one writer at a time is the caller's business
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

FORMAT = "exact-wordle/journal"
VERSION = 1
MAGIC = b"EWJ1"
_FRAME = struct.Struct("<4sII")  # magic, body length, crc32 of the body
_NDARRAY_EXT = 1
#: The package whose ``_*_kernel.py`` files :func:`kernel_hashes` covers.
SOLVER_ROOT = Path(__file__).resolve().parents[1]


class JournalError(InputError):
    """A journal cannot be used as asked."""


class ForeignJournalError(JournalError):
    """The journal file belongs to another run (its fingerprint differs) or is not a journal."""


class MalformedJournalError(JournalError):
    """A journal record that checks (its CRC is right) is not of the shape its run writes
    (:meth:`Journal.reading`): the message names the file and the record."""


class JournalDamagedWarning(UserNotice):
    """A damaged journal was set aside as ``<name>.damaged`` (module docstring); the message
    names both files and what the run keeps."""


# ---------------------------------------------------------------------------------------------
# fingerprints


def kernel_hashes(root: str | Path = SOLVER_ROOT) -> dict[str, str]:
    """sha256 (hex) of every ``_*_kernel.py`` file under ``root`` (the ``solver`` package),
    keyed by its path relative to ``root``'s parent (``"solver/exact/_search_kernel.py"``),
    sorted. Every numba kernel is included: results may depend on any of them."""
    root = Path(root)
    return {path.relative_to(root.parent).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("_*_kernel.py"))}


def run_fingerprint(word_list, **inputs) -> dict:
    """The fingerprint of a run over ``word_list``: a dict to pass to :meth:`Journal.open`.

    Holds the sha256 of both lists, :func:`kernel_hashes`, and the caller's ``inputs``:
    msgpack-serialisable items naming everything else the run's results depend on (the kind
    of run, the caller's own version, the opener, the game's rules...). The journal gives
    them no meaning; it only compares them.
    """
    return {"answers_sha256": word_list.answers_sha256, "guesses_sha256": word_list.guesses_sha256,
            "kernels": kernel_hashes(), **inputs}


# ---------------------------------------------------------------------------------------------
# encoding


def _default(value):
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject or value.dtype.fields is not None:
            raise TypeError(f"a journal cannot store arrays of dtype {value.dtype}")
        array = np.ascontiguousarray(value)
        data = msgpack.packb([array.dtype.str, list(array.shape), array.tobytes()], use_bin_type=True)
        return msgpack.ExtType(_NDARRAY_EXT, data)
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"a journal cannot store a {type(value).__name__}")


def _ext_hook(code: int, data: bytes):
    if code == _NDARRAY_EXT:
        dtype, shape, raw = msgpack.unpackb(data, raw=False)
        return np.frombuffer(raw, dtype=np.dtype(dtype)).reshape(shape).copy()
    return msgpack.ExtType(code, data)


def _pack(value) -> bytes:
    return msgpack.packb(value, default=_default, use_bin_type=True)


def _unpack(body: bytes):
    return msgpack.unpackb(body, raw=False, ext_hook=_ext_hook, strict_map_key=False)


def _frame(body: bytes) -> bytes:
    return _FRAME.pack(MAGIC, len(body), zlib.crc32(body)) + body


def _damage(data: bytes, end: int) -> str | None:
    """Why the bytes of ``data`` after its intact frames (from ``end``) are damage rather than a
    torn last record (None): a torn record is the last thing in the file (a frame cut short, or
    a last frame whose body does not check, or zeros a crash left); damage is a complete frame
    that fails its check with more bytes after it, or a frame whose length field runs past the
    end of the file while an intact frame follows it (a torn record is cut off before the next
    append, so nothing intact ever follows one: that length field is damaged)."""
    rest = data[end:]
    if not rest or len(rest) < _FRAME.size or not rest.strip(b"\0"):
        return None
    magic, length, _ = _FRAME.unpack_from(rest)
    if magic != MAGIC:
        return f"bytes at offset {end} are not a journal frame"
    if _FRAME.size + length >= len(rest):  # the last frame, cut short or torn; unless ...
        later = _intact_frame_in(rest, _FRAME.size)
        if later is None:
            return None
        return (f"the record at offset {end} claims {length} bytes, past the end of the file, "
                f"and an intact record follows it at offset {end + later}")
    return f"the record at offset {end} does not match its checksum"


def _intact_frame_in(data: bytes, start: int) -> int | None:
    """The offset in ``data`` (from ``start`` on) of the first frame that checks whole (magic,
    length within ``data``, CRC), or None."""
    at = data.find(MAGIC, start)
    while at >= 0:
        if at + _FRAME.size <= len(data):
            _, length, crc = _FRAME.unpack_from(data, at)
            body = data[at + _FRAME.size:at + _FRAME.size + length]
            if len(body) == length and zlib.crc32(body) == crc:
                return at
        at = data.find(MAGIC, at + 1)
    return None


def _frames(data: bytes) -> list[tuple[bytes, int]]:
    """``(body, offset just after the frame)`` of each intact frame at the start of ``data``."""
    frames, at = [], 0
    while at + _FRAME.size <= len(data):
        magic, length, crc = _FRAME.unpack_from(data, at)
        start = at + _FRAME.size
        body = data[start:start + length]
        if magic != MAGIC or len(body) != length or zlib.crc32(body) != crc:
            break
        at = start + length
        frames.append((body, at))
    return frames


_ABSENT = object()


def _differences(stored, wanted) -> str:
    """What differs between two fingerprints, briefly (``kernels: solver/x.py changed``)."""
    if not isinstance(stored, dict) or not isinstance(wanted, dict):
        return "the fingerprint is not a map"
    parts = []
    for key in sorted(set(stored) | set(wanted), key=str):
        old, new = stored.get(key, _ABSENT), wanted.get(key, _ABSENT)
        if old == new:
            continue
        if old is _ABSENT or new is _ABSENT:  # a key only one of them has, even with value None
            parts.append(f"{key} only in the {'wanted' if old is _ABSENT else 'stored'} run's fingerprint")
        elif isinstance(old, dict) and isinstance(new, dict):
            changed = sorted(str(k) for k in set(old) | set(new) if old.get(k) != new.get(k))
            parts.append(f"{key}: {', '.join(changed)} changed")
        else:
            parts.append(f"{key} {_short(old)} → {_short(new)}")
    return "; ".join(parts)


def _short(value, limit: int = 24) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


# ---------------------------------------------------------------------------------------------
# the journal


class Journal:
    """An open journal (create or reopen one with :meth:`Journal.open`).

    No file descriptor or lock is held between calls: each :meth:`append` opens the file,
    locks it, checks it is still this journal, appends, fsyncs and closes. So an abandoned
    Journal (its run raised) blocks nobody, and closing it is optional.

    Attributes:
        path: the journal file.
        fingerprint: the run's fingerprint, as stored (after a msgpack round trip).
        detached: True once the file was discarded or replaced by another run (another
            process opened the same path with ``resume=False``); later appends are then kept
            in memory only, so the other run's journal is never mixed with this one's records.
    """

    def __init__(self, path: Path, fingerprint: dict, identity: tuple[int, int], records: dict,
                 sync_interval: float = 0.0):
        self.path = path
        self.fingerprint = fingerprint
        self.detached = False
        self._identity: tuple[int, int] | None = identity
        self._records = records
        self._sync_interval = sync_interval
        self._synced = time.monotonic()  # the header was fsynced by write_atomic or the open

    @classmethod
    def open(cls, path: str | Path, fingerprint: dict, resume: bool = True,
             sync_interval: float = 0.0, shape: Callable[[str, Any], None] | None = None) -> Journal:
        """Open the journal at ``path`` for the run ``fingerprint``, creating it if missing.

        Args:
            path: the journal file (parent directories are created).
            fingerprint: a msgpack-serialisable dict naming the run (:func:`run_fingerprint`).
            resume: keep the records of an earlier run with this fingerprint. With False, any
                file at ``path`` (another run's journal included) is discarded and the
                journal starts empty.
            sync_interval: seconds; 0 (the default) fsyncs every record, more fsyncs a record
                only when that long has passed since the last fsync (every record is still
                written at once: see the module docstring's Durability).
            shape: ``shape(key, payload)`` raises (KeyError, TypeError, ValueError) when a
                record read back is not of the shape its run writes (e.g. built with
                :func:`record_shape`); every record is checked on open.

        Returns:
            the open :class:`Journal`, holding the records read (a torn last record dropped).

        Raises:
            ForeignJournalError: ``resume`` is true and the file holds a journal with another
                fingerprint, or something that is not a journal.
            MalformedJournalError: a record matches its checksum but not ``shape`` (or is not
                a journal record at all); the message names the file and the record.
            OSError: the file cannot be created, locked, read or written.
        """
        path = Path(path)
        wanted = _unpack(_pack(fingerprint))  # as it will read back (tuples → lists)
        # a directory, FIFO or device there is refused before it is opened (never waited on)
        check_input_file(path, "journal", error=JournalError, missing_ok=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = _open_locked(path, create=True)
        notice = None
        try:
            data = _read_all(fd, path)
            frames = _frames(data)
            records: dict[str, Any] = {}
            problem = None
            damage = None
            if resume and frames and _is_header(frames[0][0]):
                damage = _damage(data, frames[-1][1])
            elif resume and not frames and data.startswith(MAGIC):
                # write_atomic writes the header whole: one that does not check is damaged
                damage = "its header does not match its checksum"
            if damage is not None:
                kept = data[:frames[-1][1]] if frames else b""
                aside = _set_aside(path)
                notice = (f"{path}: damaged ({damage}); set aside "
                          f"as {aside}, " + (f"the {len(frames) - 1} intact records before the "
                                             "damage are reused" if frames else
                                             "the run starts over"))
                if frames:  # the intact part, as a new file (a new inode)
                    write_atomic(path, kept)
                os.close(fd)
                fd = _open_locked(path, create=True)
                data = _read_all(fd, path)
                frames = _frames(data)
            if frames:
                try:
                    head = _unpack(frames[0][0])
                except Exception:  # undecodable: not ours
                    head = None
                if not isinstance(head, dict) or head.get("format") != FORMAT:
                    problem = "not a journal of this project"
                elif head.get("version") != VERSION:
                    problem = f"journal format version {head.get('version')!r}, not {VERSION}"
                elif head.get("fingerprint") != wanted:
                    problem = ("the journal of another run ("
                               f"{_differences(head.get('fingerprint'), wanted)})")
            elif data and not data.startswith(MAGIC[:len(data)]):
                problem = "not a journal of this project"
            if problem and resume:
                raise ForeignJournalError(
                    f"{path}: {problem}; it is not reused. Start over with resume=False "
                    "(--no-resume on the command line) to discard it")
            if resume and frames:
                end = frames[0][1]
                for body, stop in frames[1:]:
                    try:
                        record = _unpack(body)
                        records[record["key"]] = record["payload"]
                    except Exception as exc:  # it checks, so it was written so: not ours
                        raise MalformedJournalError(
                            f"{path}: the record at offset {end} matches its checksum but is "
                            f"not a journal record ({type(exc).__name__}); it is not reused. "
                            "Start over with resume=False (--no-resume on the command line), "
                            "which discards it") from None
                    end = stop
                if end < len(data):
                    os.ftruncate(fd, end)  # drop a torn tail so later records stay readable
                    os.fsync(fd)
                identity = _identity(os.fstat(fd))
            else:
                # New, empty, torn before its header was complete, or discarded: a new file
                # (a new inode, so a run still appending to the old one notices).
                header = _frame(_pack({"format": FORMAT, "version": VERSION, "fingerprint": wanted}))
                write_atomic(path, header)
                identity = _identity(os.stat(path))
        finally:
            os.close(fd)
        if notice is not None:
            warnings.warn(notice, JournalDamagedWarning, stacklevel=2)
        if sync_interval < 0:
            raise ValueError(f"sync_interval must be ≥ 0 seconds, got {sync_interval}")
        journal = cls(path, wanted, identity, records, sync_interval)
        if shape is not None:
            for key, payload in records.items():
                with journal.reading(key):
                    shape(key, payload)
        return journal

    # -- reading ------------------------------------------------------------------------------
    def records(self) -> dict[str, Any]:
        """``{key: payload}`` of every record, in first-append order (a copy)."""
        return dict(self._records)

    def get(self, key: str, default=None):
        """The payload recorded under ``key``, or ``default``."""
        return self._records.get(key, default)

    @contextlib.contextmanager
    def reading(self, key: str | None = None):
        """Context for decoding this journal's records into a run's values: a record of the
        wrong shape (a missing key, a wrong type or length: KeyError, TypeError, ValueError,
        IndexError, AttributeError raised inside) becomes a :class:`MalformedJournalError`
        naming the file (and the record's ``key`` when given), and that ``--no-resume``
        starts over."""
        try:
            yield self
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            which = "a record" if key is None else f"the record {_short(key, 60)}"
            raise MalformedJournalError(
                f"{self.path}: {which} is not of the shape this run writes "
                f"({type(exc).__name__}: {str(exc)[:120]}); it is not reused. Start over with "
                "resume=False (--no-resume on the command line), which discards it") from None

    def __contains__(self, key: str) -> bool:
        return key in self._records

    def __len__(self) -> int:
        return len(self._records)

    # -- writing ------------------------------------------------------------------------------
    def append(self, key: str, payload) -> None:
        """Record ``payload`` under ``key`` (replacing an earlier record of that key); returns
        once the record is written, and fsynced unless the journal was opened with a
        ``sync_interval`` that has not yet passed. Raises TypeError for a key that is not a str
        or a value the journal cannot store, ValueError when the journal is closed, OSError."""
        if self._identity is None:
            raise ValueError(f"journal {self.path} is closed")
        if not isinstance(key, str):
            raise TypeError(f"journal keys are str, not {type(key).__name__}")
        body = _pack({"key": key, "payload": payload})
        if not self.detached:
            fd = self._open_mine()
            if fd is not None:
                try:
                    _write_all(fd, _frame(body))
                    now = time.monotonic()
                    if now - self._synced >= self._sync_interval:
                        os.fsync(fd)
                        self._synced = now
                except OSError as exc:  # name the journal (a full disk's ENOSPC names nothing)
                    if exc.filename is None and exc.errno is not None:
                        raise OSError(exc.errno, f"{exc.strerror} (the journal keeps the records "
                                      "written before this one: rerun the same command to resume)",
                                      str(self.path)) from exc
                    raise
                finally:
                    os.close(fd)
        self._records[key] = _unpack(body)["payload"]  # what a resumed run would read

    def close(self) -> None:
        """Stop using the journal; its records stay on disk. Idempotent."""
        self._identity = None

    def discard(self) -> None:
        """Delete the journal file (the run is finished or abandoned) and close the journal.
        A file that another run has meanwhile replaced is left alone."""
        if self._identity is not None and not self.detached:
            fd = self._open_mine()
            if fd is not None:
                try:
                    self.path.unlink(missing_ok=True)
                finally:
                    os.close(fd)
        self.close()

    def _open_mine(self) -> int | None:
        """The journal file opened for appending and locked, or None (and ``detached`` set)
        when it is gone or is no longer the file this journal opened."""
        try:
            fd = _open_locked(self.path, create=False)
        except FileNotFoundError:
            fd = None
        if fd is not None and _identity(os.fstat(fd)) == self._identity:
            return fd
        if fd is not None:
            os.close(fd)
        self.detached = True
        return None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._identity is None else "detached" if self.detached else "open"
        return f"<Journal {str(self.path)!r}: {len(self._records)} records, {state}>"


#: The types a record's field may have in :func:`record_shape` (msgpack's: a tuple is read
#: back as a list, a float may be written as an int).
NUMBER = (int, float)


def record_shape(fields_by_prefix: Mapping[str, Mapping[str, type | tuple[type, ...]]],
                 kind: Callable[[str], str] | None = None) -> Callable[[str, Any], None]:
    """A ``shape`` check for :meth:`Journal.open`: a record whose key starts with a prefix of
    ``fields_by_prefix`` (the longest that matches; ``""`` matches every key), or whose
    ``kind(key)`` is one of its keys when ``kind`` is given, must be a map holding each named
    field with one of its types (``None`` allowed only when listed as ``type(None)``); a key
    with no match is not of this run.

    Raises (from the returned check): ValueError (a field missing, an unknown key), TypeError
    (not a map, a field of another type)."""
    prefixes = sorted(fields_by_prefix, key=len, reverse=True)

    def check(key: str, payload) -> None:
        prefix = kind(key) if kind is not None else next((p for p in prefixes if key.startswith(p)), None)
        if prefix not in fields_by_prefix:
            prefix = None
        if prefix is None:
            raise ValueError(f"no record of this run has the key {_short(key, 40)}")
        if not isinstance(payload, dict):
            raise TypeError(f"a {type(payload).__name__}, not a map")
        for name, kinds in fields_by_prefix[prefix].items():
            if name not in payload:
                raise ValueError(f"no field {name!r}")
            value = payload[name]
            kinds = kinds if isinstance(kinds, tuple) else (kinds,)
            if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                raise TypeError(f"field {name!r} is a {type(value).__name__}")
    return check


def _identity(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_dev, stat.st_ino


def _open_locked(path: Path, create: bool) -> int:
    """``path`` opened for reading and appending (created with mode 0o666 minus the umask if
    ``create``) and exclusively locked; reopened when the file was replaced while waiting for
    the lock. Raises FileNotFoundError when ``create`` is false and there is no file."""
    flags = os.O_RDWR | os.O_APPEND | getattr(os, "O_BINARY", 0) | (os.O_CREAT if create else 0)
    while True:
        fd = os.open(path, flags, 0o666)
        if fcntl is None:
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            on_disk = os.stat(path)
        except FileNotFoundError:
            os.close(fd)
            if not create:
                raise
            continue
        except BaseException:
            os.close(fd)
            raise
        if _identity(os.fstat(fd)) == _identity(on_disk):
            return fd
        os.close(fd)  # replaced while we waited: lock the file that is there now


def _is_header(body: bytes) -> bool:
    try:
        head = _unpack(body)
    except Exception:
        return False
    return isinstance(head, dict) and head.get("format") == FORMAT


def _set_aside(path: Path) -> Path:
    """Rename a damaged journal to the first free ``<name>.damaged``, ``.damaged-2``, ...;
    returns the new path."""
    for n in range(1, 10_000):
        aside = path.with_name(path.name + (".damaged" if n == 1 else f".damaged-{n}"))
        if not os.path.lexists(aside):
            os.replace(path, aside)
            return aside
    raise JournalError(f"{path}: damaged, and too many damaged journals beside it to set it aside")


def _read_all(fd: int, path: Path | None = None) -> bytes:
    """The whole open journal, checked again on the open file (a regular file within its cap:
    the path may have been replaced since it was checked)."""
    check_input_file(path, "journal", error=JournalError, info=os.fstat(fd))
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
