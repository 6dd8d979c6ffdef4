"""Opener tables: every opener's exact value, and every opener's second guesses, as artifacts.

A table covers one list, mode and objective (``legacy-normal-total``) and lives in
``artifacts/tables/`` as two things:

- ``<name>.csv``: one row per allowed opener, ``opener,status,value``: ``exact`` and the
  opener's optimal total (all answers, every game won within the guess limit), ``unwinnable``
  and ``inf`` (no policy that plays it first wins every game within the limit), or, while the
  table is being built, ``pending`` and no value. Rows are sorted best first (value, then
  word), then the unwinnable, then the pending (by word). Derived from the shards, byte for
  byte the same when rebuilt.
- ``<name>/shard-NNN.msgpack``: the work itself, :data:`SHARD_SIZE` openers each, in the
  order of their cheap bound (docs/algorithms.md §9.7), so the first shards hold the openers
  players use. A shard holds, for each of its openers, the exact value and, for each
  feedback of at least 3 answers (docs/algorithms.md §9.7), the exact value of that state
  with one guess fewer and its first optimal guess (the second guess the solver's tree
  plays). States of one or two answers are not stored: one answer is guessed (value 1), two
  are played first answer first (value 3, §3.1).

Shard format (msgpack map, sealed like a decision tree: every value's sha256 in a last
``checksums`` record, :func:`policy_tree.artifact.seal`):

=================  ====  ======================================================================
key                type  meaning
=================  ====  ======================================================================
``format``         str   ``"exact-wordle/opener-table-shard"``
``format_version`` int   1
``word_list``      str   the lists' name; ``answers_sha256``, ``guesses_sha256`` (str) name them
``mode``           str   ``normal`` or ``hard``; ``objective`` str ``total``; ``guess_limit`` int
``shard``          int   this shard's number; ``shards`` int: how many the table has;
                         ``shard_size`` int: openers per shard (the last may hold fewer)
``solver_version`` str   the solver that computed it (provenance; values are exact either way)
``dtypes``         map   each array's numpy dtype (below), the smallest that holds its values
``openers``        bin   uint16 (uint32 past 65,535 guesses) [m]: the openers (guess indices),
                         in the table's order
``values``         bin   uint32[m]: each opener's exact value, ``2**30`` when unwinnable
``class_start``    bin   uint32[m + 1]: opener i's classes are ``class_start[i]:class_start[i+1]``
``class_code``     bin   uint8 (uint16 past 256 codes) [k]: each class's feedback code,
                         ascending within an opener
``class_value``    bin   uint16 or uint32 [k]: its exact value with one guess fewer, the
                         dtype's largest value when unwinnable
``class_guess``    bin   uint16 or uint32 [k]: its first optimal guess (guess index), the
                         dtype's largest value when unwinnable
=================  ====  ======================================================================

All arrays little-endian. Reading checks the file's kind and size before a byte is read,
then the seal, the header and every array's size and range, and names the file in any error
(:class:`~policy_tree.errors.CorruptArtifactError` and kin). Nothing here imports numba: the
lookups (``wordle opener``, the next guess after one guess) run from a cold process in
milliseconds.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cached_property
from enum import StrEnum
from pathlib import Path
from typing import NamedTuple

import msgpack
import numpy as np

from policy_tree.artifact import seal
from policy_tree.errors import (CorruptArtifactError, MissingArtifactError,
                                UnsupportedArtifactError, WordListMismatchError)
from policy_tree.reader import read_sealed
from solver.game.errors import InputError
from solver.game.files import check_input_file, read_input_file
from solver.game.values import INF

FORMAT = "exact-wordle/opener-table-shard"
FORMAT_VERSION = 1
#: Openers per shard: a shard of the legacy lists' poorer openers is a few CPU-hours.
SHARD_SIZE = 512
#: Bytes of a shard read to see which openers it holds (its header and openers come first).
PEEK_BYTES = 16384
#: Columns of a table's CSV.
CSV_COLUMNS = ("opener", "status", "value")
#: Classes of fewer answers are not stored: their value and guess follow from their answers.
STORED_MIN = 3
#: The table kinds this module reads and writes.
TABLE_MODES = ("normal", "hard")
TABLE_OBJECTIVES = ("total",)

#: The arrays in file order, and the dtypes each may be stored in (the writer picks the
#: smallest that holds the values; the ``dtypes`` map says which).
_ARRAYS = (("openers", ("<u2", "<u4")), ("values", ("<u4",)), ("class_start", ("<u4",)),
           ("class_code", ("<u1", "<u2")), ("class_value", ("<u2", "<u4")),
           ("class_guess", ("<u2", "<u4")))
_HEADER = (("format", str), ("format_version", int), ("word_list", str), ("answers_sha256", str),
           ("guesses_sha256", str), ("mode", str), ("objective", str), ("guess_limit", int),
           ("shard", int), ("shards", int), ("shard_size", int), ("solver_version", str),
           ("dtypes", dict))


class TableStatus(StrEnum):
    """An opener's row in a table (the CSV's ``status``)."""

    #: ``value`` is the opener's optimal total
    EXACT = "exact"
    #: no policy playing it first wins every game within the guess limit
    UNWINNABLE = "unwinnable"
    #: not computed yet (a table being built)
    PENDING = "pending"


class TableRow(NamedTuple):
    """One opener's row: ``status`` a :class:`TableStatus`; ``value`` the optimal total
    (``EXACT``), ``INF`` (``UNWINNABLE``) or None (``PENDING``). (A named tuple: a table's CSV
    makes some 15,000 of them per cold process.)"""

    opener: str
    status: TableStatus
    value: int | None


@dataclass(frozen=True)
class OpenerClasses:
    """One opener's entry in a shard: its exact ``value`` (``INF``: unwinnable) and, for each
    stored class (at least :data:`STORED_MIN` answers), its feedback ``codes`` (int64[k],
    ascending), exact ``values`` with one guess fewer (int64[k], ``INF``: unwinnable) and first
    optimal ``guesses`` (int64[k] guess indices, -1 where unwinnable)."""

    opener: int
    value: int
    codes: np.ndarray
    values: np.ndarray
    guesses: np.ndarray


def table_name(list_name: str, mode: str, objective: str = "total") -> str:
    """``<list>-<mode>-<objective>``: a table's CSV stem and its shards' directory."""
    return f"{list_name}-{mode}-{objective}"


def shard_path(directory: str | Path, name: str, shard: int) -> Path:
    """Where shard ``shard`` of table ``name`` lives under ``directory``."""
    return Path(directory) / name / f"shard-{shard:03d}.msgpack"


def csv_path(directory: str | Path, name: str) -> Path:
    """Where table ``name``'s CSV lives under ``directory``."""
    return Path(directory) / f"{name}.csv"


# -- shards ---------------------------------------------------------------------------------

def _smallest(dtypes, largest: int) -> str:
    """The first of ``dtypes`` (unsigned, smallest first) that holds ``largest``."""
    return next(d for d in dtypes if largest <= np.iinfo(d).max)


def encode_shard(*, word_list, mode: str, objective: str, guess_limit: int, shard: int,
                 shards: int, shard_size: int, solver_version: str,
                 entries: list[OpenerClasses]) -> bytes:
    """The sealed msgpack bytes of one shard (module docstring); the same entries give the same
    bytes. ``entries`` in the table's order; only classes of at least :data:`STORED_MIN`
    answers should be in them (the caller drops the others)."""
    starts = np.zeros(len(entries) + 1, dtype=np.int64)
    for i, entry in enumerate(entries):
        starts[i + 1] = starts[i] + len(entry.codes)

    def joined(field):
        parts = [np.asarray(getattr(entry, field), dtype=np.int64) for entry in entries]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)

    guesses, class_values = joined("guesses"), joined("values")
    n_guesses = word_list.n_guesses
    dtypes = {"openers": _smallest(("<u2", "<u4"), n_guesses - 1), "values": "<u4",
              "class_start": "<u4",
              "class_code": _smallest(("<u1", "<u2"), 3 ** word_list.word_length - 1),
              "class_value": _smallest(("<u2", "<u4"), int(class_values[class_values < INF].max(initial=0)) + 1),
              "class_guess": _smallest(("<u2", "<u4"), n_guesses)}
    unwinnable = class_values >= INF
    arrays = {
        "openers": np.array([entry.opener for entry in entries], dtype=np.int64),
        "values": np.array([min(entry.value, INF) for entry in entries], dtype=np.int64),
        "class_start": starts,
        "class_code": joined("codes"),
        # the dtype's largest value marks an unwinnable class, in both arrays
        "class_value": np.where(unwinnable, np.iinfo(dtypes["class_value"]).max, class_values),
        "class_guess": np.where(unwinnable, np.iinfo(dtypes["class_guess"]).max, guesses),
    }
    document = {"format": FORMAT, "format_version": FORMAT_VERSION, "word_list": word_list.name,
                "answers_sha256": word_list.answers_sha256,
                "guesses_sha256": word_list.guesses_sha256, "mode": mode, "objective": objective,
                "guess_limit": int(guess_limit), "shard": int(shard), "shards": int(shards),
                "shard_size": int(shard_size), "solver_version": solver_version,
                "dtypes": dtypes}
    for key, _ in _ARRAYS:
        document[key] = np.ascontiguousarray(arrays[key], dtype=dtypes[key]).tobytes()
    return seal(document)


@dataclass(frozen=True)
class Shard:
    """A shard read and checked (:func:`read_shard`): its header fields and arrays (module
    docstring), as int64 numpy arrays."""

    path: Path | None
    header: dict
    openers: np.ndarray
    values: np.ndarray
    class_start: np.ndarray
    class_code: np.ndarray
    class_value: np.ndarray
    class_guess: np.ndarray

    def entry(self, i: int) -> OpenerClasses:
        """The ``i``-th opener's entry."""
        a, b = int(self.class_start[i]), int(self.class_start[i + 1])
        return OpenerClasses(int(self.openers[i]), int(self.values[i]), self.class_code[a:b].copy(),
                             self.class_value[a:b].copy(), self.class_guess[a:b].copy())

    def find(self, opener: int) -> OpenerClasses | None:
        """The entry of ``opener`` (a guess index), or None when this shard does not hold it."""
        where = np.flatnonzero(self.openers == opener)
        return self.entry(int(where[0])) if where.size else None


def read_shard(path: str | Path, word_list=None) -> Shard:
    """Read and check a shard file (module docstring). With ``word_list``, its lists must be
    the shard's.

    Raises:
        MissingArtifactError: no such file, not a regular file, larger than
            ``INPUT_LIMITS["opener table shard"]`` (:mod:`solver.game.files`), or unreadable.
        CorruptArtifactError: the seal, a header field or an array does not check (the message
            names the file and the field).
        UnsupportedArtifactError: another format or version.
        WordListMismatchError: ``word_list`` given and the shard is of other lists."""
    path = Path(path)

    def refused(message: str) -> MissingArtifactError:
        return MissingArtifactError(path, message.removeprefix(f"{path}: "))

    data = read_input_file(path, "opener table shard", error=refused)
    return decode_shard(data, path, word_list)


def decode_shard(data: bytes, path: Path | None = None, word_list=None) -> Shard:
    """:func:`read_shard` of bytes in memory (``path`` only names them in errors)."""
    document = read_sealed(data, path)
    if document.get("format") != FORMAT:
        raise UnsupportedArtifactError(path, f"not an opener-table shard (format is "
                                             f"{document.get('format')!r}, expected {FORMAT!r})")
    for key, kind in _HEADER:
        value = document.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CorruptArtifactError(path, f"header field {key!r} is missing or not a {kind.__name__}")
    if document["format_version"] != FORMAT_VERSION:
        raise UnsupportedArtifactError(path, f"format version {document['format_version']} is not "
                                             f"supported (this reader knows {FORMAT_VERSION})")
    if document["mode"] not in TABLE_MODES or document["objective"] not in TABLE_OBJECTIVES:
        raise UnsupportedArtifactError(path, f"a {document['mode']}/{document['objective']} table "
                                             "is not one this reader knows")
    if not 0 <= document["shard"] < document["shards"] or document["shard_size"] < 1:
        raise CorruptArtifactError(path, f"shard {document['shard']} of {document['shards']} "
                                         f"(size {document['shard_size']}) is out of range")
    if word_list is not None and (document["answers_sha256"] != word_list.answers_sha256
                                  or document["guesses_sha256"] != word_list.guesses_sha256):
        raise WordListMismatchError(path, f"the shard is of other lists than {word_list.name!r} "
                                          "(their sha256s differ)")
    dtypes = document.get("dtypes")
    if not isinstance(dtypes, dict):
        raise CorruptArtifactError(path, "header field 'dtypes' is missing or not a map")
    arrays = {}
    for key, allowed in _ARRAYS:
        dtype, raw = dtypes.get(key), document.get(key)
        if dtype not in allowed:
            raise CorruptArtifactError(path, f"array {key!r} has dtype {dtype!r}, not one of "
                                             f"{', '.join(allowed)}")
        if not isinstance(raw, bytes) or len(raw) % np.dtype(dtype).itemsize:
            raise CorruptArtifactError(path, f"array {key!r} is missing or of a size no {dtype} "
                                             "array has")
        arrays[key] = np.frombuffer(raw, dtype=dtype).astype(np.int64)
    # the dtype's largest value marks an unwinnable class: INF and no guess, as in memory
    unwinnable = arrays["class_value"] == np.iinfo(dtypes["class_value"]).max
    if np.any(unwinnable != (arrays["class_guess"] == np.iinfo(dtypes["class_guess"]).max)):
        raise CorruptArtifactError(path, "a class's guess disagrees with its value (a guess for "
                                         "each winnable class, none otherwise)")
    arrays["class_value"][unwinnable] = INF
    arrays["class_guess"][unwinnable] = -1
    _check_arrays(arrays, document, path, word_list)
    header = {key: document[key] for key, _ in _HEADER}
    return Shard(path, header, **arrays)


def _check_arrays(arrays: dict, header: dict, path: Path | None, word_list) -> None:
    m = arrays["openers"].size
    starts = arrays["class_start"]
    k = arrays["class_code"].size

    def bad(problem: str):
        raise CorruptArtifactError(path, problem)

    if m < 1 or m > header["shard_size"]:
        bad(f"{m} openers, outside 1..{header['shard_size']} (the shard size)")
    if arrays["values"].size != m or starts.size != m + 1:
        bad("the openers, values and class_start arrays disagree in size")
    if starts[0] != 0 or starts[-1] != k or np.any(np.diff(starts) < 0):
        bad("class_start does not run from 0 to the number of classes, non-decreasing")
    if arrays["class_value"].size != k or arrays["class_guess"].size != k:
        bad("the class arrays disagree in size")
    n_guesses = None if word_list is None else word_list.n_guesses
    if n_guesses is not None and arrays["openers"].max(initial=0) >= n_guesses:
        bad("an opener index is past the guess list")
    if np.unique(arrays["openers"]).size != m:
        bad("an opener appears twice")
    values = arrays["values"]
    if np.any(values < 1) or np.any(values > INF):
        bad("an opener's value is out of range")
    class_values = arrays["class_value"]
    if np.any(class_values < 1) or np.any(class_values > INF):
        bad("a class value is out of range")
    guesses = arrays["class_guess"]
    finite = class_values < INF
    if n_guesses is not None and np.any(guesses[finite] >= n_guesses):
        bad("a class's guess is past the guess list")
    for i in range(m):  # codes strictly ascending within an opener
        codes = arrays["class_code"][starts[i]:starts[i + 1]]
        if np.any(np.diff(codes) <= 0):
            bad(f"the class codes of opener {i} are not strictly ascending")


# -- the CSV ---------------------------------------------------------------------------------

def sort_rows(rows) -> list[TableRow]:
    """Rows in the CSV's order: exact best first (value, then word), unwinnable, pending."""
    rank = {TableStatus.EXACT: 0, TableStatus.UNWINNABLE: 1, TableStatus.PENDING: 2}
    return sorted(rows, key=lambda row: (rank[row.status], row.value or 0, row.opener))


def table_csv(rows) -> str:
    """The CSV text of ``rows`` (any order: sorted here)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in sort_rows(rows):
        value = {TableStatus.EXACT: row.value, TableStatus.UNWINNABLE: "inf",
                 TableStatus.PENDING: ""}[row.status]
        writer.writerow((row.opener, row.status.value, value))
    return buffer.getvalue()


def read_table_csv(path: str | Path) -> list[TableRow]:
    """The rows of a table's CSV, checked: the header, each status and value.

    Raises:
        MissingArtifactError: no such file, not a regular file, too large, unreadable.
        CorruptArtifactError: a malformed row (the message names the file and the line)."""
    path = Path(path)

    def refused(message: str) -> MissingArtifactError:
        return MissingArtifactError(path, message.removeprefix(f"{path}: "))

    data = read_input_file(path, "opener table", error=refused)
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise CorruptArtifactError(path, "not ASCII text") from None
    reader = csv.reader(io.StringIO(text))
    if next(reader, None) != list(CSV_COLUMNS):
        raise CorruptArtifactError(path, f"the first line is not {','.join(CSV_COLUMNS)}")
    rows, seen = [], set()
    statuses = {status.value: status for status in TableStatus}
    for line, fields in enumerate(reader, start=2):
        if len(fields) != 3:
            raise CorruptArtifactError(path, f"line {line}: {len(fields)} fields, not 3")
        opener, status, value = fields
        status = statuses.get(status)
        if status is None:
            raise CorruptArtifactError(path, f"line {line}: unknown status {fields[1]!r}")
        if status is TableStatus.EXACT and value.isdigit() and int(value) >= 1:
            number = int(value)
        elif status is TableStatus.UNWINNABLE and value == "inf":
            number = INF
        elif status is TableStatus.PENDING and value == "":
            number = None
        else:
            raise CorruptArtifactError(path, f"line {line}: value {value!r} does not fit status "
                                             f"{status.value}")
        if opener in seen:
            raise CorruptArtifactError(path, f"line {line}: opener {opener!r} appears twice")
        seen.add(opener)
        rows.append(TableRow(opener, status, number))
    if rows != sort_rows(rows):
        raise CorruptArtifactError(path, "the rows are not in the table's order (best first)")
    return rows


# -- lookups ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class OpenerStanding:
    """Where an opener stands in a table (:meth:`OpenerTable.standing`).

    Attributes:
        row: its :class:`TableRow`.
        rank: 1 + the number of decided openers with a lower value (ties share a rank), None
            unless exact; ``tied``: how many other openers have the same value.
        decided: openers of the table with an exact value or unwinnable; ``openers``: all.
        best: the best row of the table (None when no row is exact).
    """

    row: TableRow
    rank: int | None
    tied: int
    decided: int
    openers: int
    best: TableRow | None

    @property
    def complete(self) -> bool:
        """Every opener decided: the rank is among all openers."""
        return self.decided == self.openers


class OpenerTable:
    """One table on disk: its rows (the CSV, read and checked when first needed) and its shards
    (each read in full and checked the first time one of its openers is asked for; the first
    bytes of the others tell which holds it). :meth:`open` finds it.

    ``entry(word)`` returns an opener's :class:`OpenerClasses` or None (not in a shard on
    disk); ``second_guess(word, code)`` the (value, guess index) of the state after it, or
    None; :meth:`require_entry` raises instead."""

    def __init__(self, word_list, name: str, directory: Path):
        self.word_list, self.name, self.directory = word_list, name, Path(directory)
        self._shards: dict[int, Shard] = {}
        self._where: dict[int, int] = {}
        self._peeked: dict[int, set[int]] = {}  # shard → the openers its first bytes name

    @cached_property
    def rows(self) -> list[TableRow]:
        """Every opener's row, from the CSV (read and checked at the first use: a lookup of
        second guesses reads only the shards).

        Raises:
            CorruptArtifactError: the CSV does not check, or its openers are not the lists'."""
        path = csv_path(self.directory, self.name)
        rows = read_table_csv(path)
        if sorted(row.opener for row in rows) != list(self.word_list.guesses):
            raise CorruptArtifactError(path, f"its openers are not the {self.word_list.name!r} guesses")
        return rows

    @cached_property
    def by_opener(self) -> dict[str, TableRow]:
        """:attr:`rows` by opener."""
        return {row.opener: row for row in self.rows}

    @classmethod
    def open(cls, word_list, mode: str, objective: str = "total", *, directory=None,
             missing_ok: bool = False) -> OpenerTable | None:
        """The table of ``word_list`` (its :attr:`output_name`), ``mode`` and ``objective``
        under ``directory`` (default: the shipped artifacts' ``tables/``); its files are read
        when first needed.

        Raises:
            MissingArtifactError: no such table (None instead with ``missing_ok``)."""
        from solver.game.files import shipped_artifacts_dir

        directory = Path(directory) if directory is not None else shipped_artifacts_dir() / "tables"
        name = table_name(word_list.output_name, mode, objective)
        path = csv_path(directory, name)
        if not path.exists():
            if missing_ok:
                return None
            raise MissingArtifactError(path, f"no opener table {name} (build it with "
                                             "`python -m tools.prove --all`)")
        return cls(word_list, name, directory)

    def standing(self, word: str) -> OpenerStanding:
        """Where ``word`` stands (ties share a rank).

        Raises:
            KeyError: ``word`` is not an allowed guess."""
        row = self.by_opener[word]
        exact = [r.value for r in self.rows if r.status is TableStatus.EXACT]
        decided = sum(1 for r in self.rows if r.status is not TableStatus.PENDING)
        best = next((r for r in self.rows if r.status is TableStatus.EXACT), None)
        if row.status is not TableStatus.EXACT:
            return OpenerStanding(row, None, 0, decided, len(self.rows), best)
        rank = 1 + sum(1 for v in exact if v < row.value)
        tied = sum(1 for v in exact if v == row.value) - 1
        return OpenerStanding(row, rank, tied, decided, len(self.rows), best)

    def _shard(self, s: int) -> Shard | None:
        if s not in self._shards:
            path = shard_path(self.directory, self.name, s)
            if not path.exists():
                return None
            shard = read_shard(path, self.word_list)
            self._shards[s] = shard
            self._where.update((int(g), s) for g in shard.openers)
        return self._shards[s]

    def entry(self, word: str) -> OpenerClasses | None:
        """The shard entry of opener ``word``, None when no shard on disk holds it (or the
        word is no guess). Shards are read in order until one holds it, each checked once;
        the CSV is not read."""
        try:
            g = self.word_list.guess_index(word)
        except InputError:
            return None
        if g not in self._where:
            for shard in range(shard_count(self.word_list.n_guesses)):
                if shard not in self._shards and g in self._peek(shard):
                    self._shard(shard)  # read in full and checked
                    break
        if g not in self._where:
            return None
        return self._shards[self._where[g]].find(g)

    def _peek(self, shard: int) -> set[int]:
        """The openers shard ``shard`` says it holds, from the first bytes of its file, unchecked
        (empty when it is not on disk or they do not parse): only to know which file to read
        in full (and check) for an opener, instead of every shard."""
        if shard in self._peeked:
            return self._peeked[shard]
        self._peeked[shard] = openers = self._peek_file(shard)
        return openers

    def _peek_file(self, shard: int) -> set[int]:
        """:meth:`_peek` from the file."""
        path = shard_path(self.directory, self.name, shard)
        try:
            if check_input_file(path, "opener table shard", missing_ok=True) is None:
                return set()
            with open(path, "rb") as handle:
                head = handle.read(PEEK_BYTES)
            unpacker = msgpack.Unpacker(raw=False, max_buffer_size=PEEK_BYTES)
            unpacker.feed(head)
            fields = {}
            for _ in range(unpacker.read_map_header()):
                key = unpacker.unpack()
                fields[key] = unpacker.unpack()
                if key == "openers":
                    return set(np.frombuffer(fields["openers"], dtype=fields["dtypes"]["openers"]).tolist())
        except (OSError, InputError, ValueError, TypeError, KeyError, msgpack.UnpackException):
            pass
        return set()

    def require_entry(self, word: str) -> OpenerClasses:
        """:meth:`entry`, raising :class:`KeyError` (naming the table) when it is None."""
        entry = self.entry(word)
        if entry is None:
            raise KeyError(f"{word!r} has no entry in the {self.name} table")
        return entry

    def second_guess(self, word: str, code: int) -> tuple[int, int] | None:
        """(exact value with one guess fewer, first optimal guess index) of the state opener
        ``word`` and feedback ``code`` leave, when that state has at least
        :data:`STORED_MIN` answers and the table holds the opener; else None (a state of one
        or two answers is the caller's: value 1 or 3, its first answer)."""
        entry = self.entry(word)
        if entry is None:
            return None
        where = np.searchsorted(entry.codes, code)
        if where >= len(entry.codes) or entry.codes[where] != code:
            return None
        return int(entry.values[where]), int(entry.guesses[where])


def shard_count(n_guesses: int) -> int:
    """How many shards a table of ``n_guesses`` openers has."""
    return -(-n_guesses // SHARD_SIZE)
