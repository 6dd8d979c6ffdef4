"""Tables cached in the user cache, checked part by part as they are read.

A feedback table (:func:`solver.game.feedback.feedback_table`, about 30 MB for the legacy
lists; the guesses × guesses table of :mod:`solver.policies.belief`, 168 MB) is cached as a
``.npy`` file and memory-mapped, and a question about one state reads only parts of it: a
few guesses' rows, the state's answers' columns. A damaged table must never be served, yet a
checksum of the whole file would cost a question a pass over all of it (a crc32 of 30 MB
takes about 15 ms, a sha256 about 17 ms, a blake2b about 50 ms on the development machine,
on top of reading every page). So the file carries a zlib.crc32 of every row and of every
column, and a read checks the rows or columns it returns:

- :meth:`CheckedTable.rows` the crc32 of each row it returns;
- :meth:`CheckedTable.columns` the crc32 of each column it returns (its codes, top to bottom;
  a column cut from the mapped table already reads every row's page, so this adds little);
- :meth:`CheckedTable.codes` (codes of guess–answer pairs) the rows of the guesses read;
- :meth:`CheckedTable.whole` every row.

A row or column that checks is not checked again by the same object. A mismatch raises
:class:`DamagedTableError`; the callers then build the table again and replace the file.

File format: the table as ``np.save`` writes it (C order; any ``np.load`` reads it, and
ignores what follows), then :func:`solver.game.files.seal` of ``b"EWTABLE1"``, the table's
rows and columns (two uint64), the zlib.crc32 of the ``.npy`` header (the bytes before the
codes; uint32), the rows' crc32s and the columns' crc32s (uint32 each), all little-endian:
61 kB more for the legacy lists' table. A file without that seal (written before the
checksums existed, cut short, or damaged in its last bytes), or whose header, shape or size
is not the table's, is not opened (:meth:`CheckedTable.open` returns None), so it is
computed again and replaced.

The checks are for damage at rest (a flipped bit, a zeroed block), not for tampering; a file
changed in place after its parts were checked is not looked at again (the cache's files are
only ever replaced whole, by :func:`solver.game.files.write_atomic`).
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np

from solver.game.files import read_sealed_tail, seal, write_atomic

#: What the seal of a table file starts with: its tag, rows, columns and the crc32 of the
#: ``.npy`` header; the rows' and then the columns' crc32s follow.
SUMS_HEAD = struct.Struct("<8sQQI")
SUMS_TAG = b"EWTABLE1"
#: ``np.save`` pads its header to a multiple of 64 bytes; a few kB is far more than any shape
#: needs. Only bounds the size a table file may have before it is opened.
HEADER_MOST = 1 << 16


class DamagedTableError(Exception):
    """A part of a cached table does not match its checksum (the message names the file and
    the row or column): the file is damaged and must be computed again, never used."""


def _crc32s(lines, count: int) -> np.ndarray:
    """zlib.crc32 of each of ``count`` lines (C-contiguous 1-D arrays, or the rows of a
    C-contiguous 2-D array): uint32 array of shape (count,)."""
    return np.fromiter((zlib.crc32(line) for line in lines), dtype=np.uint32, count=count)


def table_file_bytes(table: np.ndarray) -> bytes:
    """The bytes of ``table``'s cache file (module docstring): ``table`` is any 2-D array of a
    fixed-size dtype (saved C-contiguous)."""
    table = np.ascontiguousarray(table)
    buffer = io.BytesIO()
    np.save(buffer, table, allow_pickle=False)
    header_length = buffer.tell() - table.nbytes
    with buffer.getbuffer() as written:
        header_crc = zlib.crc32(written[:header_length])
    sums = (SUMS_HEAD.pack(SUMS_TAG, table.shape[0], table.shape[1], header_crc)
            + _crc32s(table, table.shape[0]).astype("<u4").tobytes()
            + _crc32s(np.ascontiguousarray(table.T), table.shape[1]).astype("<u4").tobytes())
    buffer.write(seal(sums))
    return buffer.getvalue()


def write_table(path: str | Path, table: np.ndarray) -> Path:
    """Write ``table`` (2-D) to the cache file ``path`` with its checksums, atomically
    (:func:`solver.game.files.write_atomic`); returns ``path``. Raises OSError as
    :func:`~solver.game.files.write_atomic` does."""
    return write_atomic(path, table_file_bytes(table))


class CheckedTable:
    """A table whose reads are checked: a cached file opened by :meth:`open`, or an array
    already trusted (:meth:`trusted`: one just computed, or given by the caller), whose reads
    check nothing.

    Reads return arrays in the table's dtype: :meth:`rows`, :meth:`columns` and
    :meth:`whole` C-contiguous ones. Each raises :class:`DamagedTableError` when a part it read
    does not match its checksum, and IndexError for an index out of range.
    """

    def __init__(self, array: np.ndarray, path: Path | None = None,
                 row_sums: np.ndarray | None = None, column_sums: np.ndarray | None = None):
        self.array = array
        self.path = path
        self._row_sums, self._column_sums = row_sums, column_sums
        checked = row_sums is None  # a trusted array: nothing to check
        self._all_checked = checked
        self._row_checked = None if checked else np.zeros(array.shape[0], dtype=bool)
        self._column_checked = None if checked else np.zeros(array.shape[1], dtype=bool)

    @classmethod
    def trusted(cls, array: np.ndarray) -> CheckedTable:
        """``array`` (2-D, computed here or given by the caller), read without checks."""
        return cls(array)

    @classmethod
    def open(cls, path: str | Path, shape: tuple[int, int], dtype,
             mmap_mode: str = "c") -> CheckedTable | None:
        """The table cached at ``path`` (:func:`write_table`; ``dtype`` a numpy dtype such as
        uint8), memory-mapped with ``mmap_mode``
        (``"c"``: copy-on-write, an ordinary writable array; ``"r"``: read-only), its checksums
        read but no part of it yet. None when there is no such file, or it is not a table file
        of ``shape`` (rows, columns) and ``dtype`` with its seal and ``.npy`` header intact
        (not a regular file, unreadable, cut short, written without checksums, damaged in its
        header or its checksums)."""
        path = Path(path)
        dtype = np.dtype(dtype)
        n_rows, n_columns = shape
        sums_size = SUMS_HEAD.size + 4 * (n_rows + n_columns)
        sealed = read_sealed_tail(path, "cached table", limit=HEADER_MOST + n_rows * n_columns
                                  * dtype.itemsize + sums_size + 64)
        if sealed is None or len(sealed[1]) != sums_size:
            return None
        end, sums = sealed
        tag, stored_rows, stored_columns, header_crc = SUMS_HEAD.unpack_from(sums)
        header_length = end - n_rows * n_columns * dtype.itemsize
        if (tag, stored_rows, stored_columns) != (SUMS_TAG, n_rows, n_columns) or header_length < 0:
            return None
        try:
            # the header is checked before numpy parses it: a damaged one can make its parser
            # raise anything (SyntaxError, tokenize errors), or describe another array
            with open(path, "rb") as file:
                if zlib.crc32(file.read(header_length)) != header_crc:
                    return None
            mapped = np.load(path, allow_pickle=False, mmap_mode=mmap_mode)
        except (OSError, ValueError):
            return None
        if (not isinstance(mapped, np.memmap) or mapped.shape != (n_rows, n_columns)
                or mapped.dtype != dtype or not mapped.flags.c_contiguous or mapped.offset != header_length):
            return None
        sums_array = np.frombuffer(sums, dtype="<u4", offset=SUMS_HEAD.size)
        return cls(mapped.view(np.ndarray), path, sums_array[:n_rows], sums_array[n_rows:])

    # -- reads -------------------------------------------------------------------------------
    def rows(self, rows) -> np.ndarray:
        """``table[rows]`` (row indices, shape (k,)): shape (k, n_columns), each row checked."""
        rows = np.asarray(rows, dtype=np.int64)
        block = np.ascontiguousarray(self.array[rows])
        if not self._all_checked:
            self._check(rows, lambda todo: (block[j] for j in todo), self._row_sums,
                        self._row_checked, "row")
        return block

    def columns(self, columns) -> np.ndarray:
        """``table[:, columns]`` (column indices, shape (k,)): shape (n_rows, k), each column
        checked."""
        columns = np.asarray(columns, dtype=np.int64)
        block = np.ascontiguousarray(self.array[:, columns])
        if not self._all_checked:
            self._check(columns, lambda todo: np.ascontiguousarray(block[:, todo].T),
                        self._column_sums, self._column_checked, "column")
        return block

    def codes(self, rows, columns) -> np.ndarray:
        """``table[rows, columns]`` element by element (index arrays of one shape), each row
        read checked whole."""
        rows = np.asarray(rows, dtype=np.int64)
        if not self._all_checked:
            # the distinct rows not checked yet, by a mask (np.unique's first call in a process
            # costs 10-20 ms of lazy imports, as much as a question's whole table reads)
            todo = np.zeros(self.array.shape[0], dtype=bool)
            todo[rows[~self._row_checked[rows]]] = True
            self._check_in_place(np.flatnonzero(todo))
        return self.array[rows, np.asarray(columns, dtype=np.int64)]

    def whole(self) -> np.ndarray:
        """The whole table (the mapped array itself, not a copy), every row checked."""
        if not self._all_checked:
            self._check_in_place(np.arange(self.array.shape[0]))
            self._all_checked = True
        return self.array

    def _check_in_place(self, rows: np.ndarray) -> None:
        """Check ``rows`` (row indices) on the mapped table itself, copying nothing."""
        self._check(rows, lambda todo: (self.array[i] for i in rows[todo]), self._row_sums,
                    self._row_checked, "row")

    def _check(self, indices: np.ndarray, lines, sums: np.ndarray, checked: np.ndarray,
               kind: str) -> None:
        """Check the rows or columns ``indices`` against ``sums``, but those already
        ``checked``, and mark them: ``lines(todo)`` gives the C-contiguous lines of
        ``indices[todo]`` (rows, or columns transposed), in order."""
        todo = np.flatnonzero(~checked[indices])
        if todo.size == 0:
            return
        found = _crc32s(lines(todo), todo.size)
        bad = np.flatnonzero(found != sums[indices[todo]])
        if bad.size:
            raise DamagedTableError(f"{self.path}: {kind} {int(indices[todo[bad[0]]])} does not "
                                    "match its checksum (the file is damaged)")
        checked[indices[todo]] = True


def load_checked(path: str | Path, shape: tuple[int, int], dtype,
                 mmap_mode: str = "c") -> np.ndarray | None:
    """The whole table cached at ``path``, memory-mapped with ``mmap_mode``
    (:meth:`CheckedTable.open`), every row checked; None when there is no such file or it is
    not intact (not an intact table file of ``shape`` and ``dtype``, or a row that does not
    match its checksum): the caller computes the table again and replaces the file."""
    cached = CheckedTable.open(path, shape, dtype, mmap_mode)
    try:
        return None if cached is None else cached.whole()
    except DamagedTableError:
        return None
