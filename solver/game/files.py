"""Files the project reads and writes: the one bounded reader of input files, the user cache
directory and the one atomic-write helper.

Every file a tool takes as input (word lists, priors, journals, openers tables, Q-tables, the
decision-tree artifacts through :func:`policy_tree.reader.read_artifact_bytes`) is read by
:func:`read_input_file`: only a regular file, of at most the size cap of its kind
(:data:`INPUT_LIMITS`), both checked before a byte is read, so a FIFO, a device such as
``/dev/zero`` or a huge file is refused at once, never read until memory runs out. Standard
input is read with :func:`read_stdin` (at most a cap, refused past it).

Every file the project writes in place (artifacts, the feedback-table cache, report outputs,
exports) goes through :func:`write_atomic`, so a reader never sees a half-written file and a
crash leaves either the old file or the new one, never a mix. Append-only journals of long
runs are :mod:`solver.runs.journal` (they create their file with :func:`write_atomic`).

Long runs check where they will write *before* any work starts: :func:`prepare_output_file`
and :func:`prepare_output_dir` create missing directories or refuse the path
(:class:`~solver.game.errors.OutputError`), :func:`usable_cache_dir` does the same for the
cache (:class:`~solver.game.errors.CacheError`).

Nothing read back from the user cache is trusted unchecked: a cache file ends in a *seal*
(:func:`seal`: the length and zlib.crc32 of the bytes it covers), checked by :func:`unseal`
or, reading only a file's end, :func:`read_sealed_tail` before those bytes are used; a file
whose seal does not check is treated as absent (computed again and replaced). The feedback
tables seal per-row and per-column checksums, so a question reads and checks only its part
(:mod:`solver.game.checked_table`); decision trees carry their own sha256s
(:mod:`policy_tree.reader`), journals a crc32 per record (:mod:`solver.runs.journal`).

Plain Python, no numba: the lookup tools import it.
"""

from __future__ import annotations

import os
import secrets
import stat
import struct
import sys
import zlib
from pathlib import Path

from solver.game.errors import CacheError, InputError, OutputError

MIB = 1 << 20
#: The size cap of each kind of input file, in bytes (docs/troubleshooting.md lists them):
#: far above any real file of the kind, far below what would exhaust memory.
INPUT_LIMITS = {
    "word list": 16 * MIB,        # answers.txt / guesses.txt: the legacy guesses are 78 kB
    "priors": 16 * MIB,           # --priors FILE: word,weight lines
    "journal": 1024 * MIB,        # a run's journal (the legacy proof's: about 1 MB)
    "openers table": 64 * MIB,    # an openers CSV (the legacy one: 200 kB)
    "opener table": 16 * MIB,     # an opener table's CSV (artifacts/tables/, about 250 kB)
    "opener table shard": 32 * MIB,  # one of its shards (a few hundred kB)
    "Q-table": 256 * MIB,         # a Q-learning artifact (the shipped ones: 200 kB)
    "artifact": 256 * MIB,        # a decision tree (policy_tree.reader.read_artifact_bytes)
    "grid": 1 * MIB,              # a shared grid (tools.analyse --grid)
    "game log": 256 * MIB,        # logged games, JSON Lines (tools.score_games: ~150 bytes a game)
}


def file_kind(mode: int) -> str:
    """What a non-regular file is, for messages: ``"a directory"``, ``"a FIFO (named pipe)"``,
    ``"a character device"``, ``"a block device"``, ``"a socket"`` or ``"not a regular
    file"`` (``mode``: an ``st_mode``)."""
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def _a(what: str) -> str:
    """``what`` with its indefinite article (``"an artifact"``, ``"a word list"``)."""
    return f"{'an' if what[:1].lower() in 'aeio' else 'a'} {what}"


def _limit_text(limit: int) -> str:
    return f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit} bytes"


def check_input_file(path: str | Path, what: str, *, limit: int | None = None,
                     error: type[Exception] = InputError, info: os.stat_result | None = None,
                     missing_ok: bool = False) -> os.stat_result | None:
    """Refuse ``path`` as a ``what`` (a key of :data:`INPUT_LIMITS`, or any name with
    ``limit``) unless it is a regular file of at most ``limit`` bytes (default: the kind's
    cap), without opening it (``os.stat``, or ``info`` when given: an ``fstat`` of an open
    file). Returns the stat result, or None when the file does not exist and ``missing_ok``.

    Raises:
        ``error`` (an :class:`~solver.game.errors.InputError` subclass, called with one
        message naming the file): no such file, a directory, a FIFO, a device or a socket, a
        file larger than the cap (the message states it), or a file that cannot be examined.
    """
    cap = INPUT_LIMITS[what] if limit is None else limit
    if "\0" in str(path):
        raise error(f"{str(path)!r}: not a file name (it holds a NUL character)")
    if info is None:
        try:
            info = os.stat(path)
        except FileNotFoundError:
            if missing_ok:
                return None
            raise error(f"{path}: no such {what} file") from None
        except OSError as exc:
            raise error(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{path}: is {file_kind(info.st_mode)}, not {_a(what)} file (a regular file "
                    "is needed)")
    if info.st_size > cap:
        raise error(f"{path}: {info.st_size} bytes, larger than {_a(what)} file may be (the limit is "
                    f"{_limit_text(cap)}); it is not read")
    return info


def read_input_file(path: str | Path, what: str, *, limit: int | None = None,
                    error: type[Exception] = InputError) -> bytes:
    """The bytes of the input file ``path``, a ``what`` (a key of :data:`INPUT_LIMITS`, whose
    cap applies unless ``limit`` is given), checked by :func:`check_input_file` before it is
    opened and again on the open file (opened with ``O_NONBLOCK``, so that a FIFO put there
    meanwhile cannot make the open wait); at most the cap is ever read.

    Raises:
        ``error`` (called with one message naming the file) as :func:`check_input_file`, or
        when the file cannot be opened or read, or grew past the cap while being read.
    """
    cap = INPUT_LIMITS[what] if limit is None else limit
    check_input_file(path, what, limit=cap, error=error)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise error(f"{path}: no such {what} file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as file:
        check_input_file(path, what, limit=cap, error=error, info=os.fstat(file.fileno()))
        try:
            data = file.read(cap + 1)
        except OSError as exc:
            raise error(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    if len(data) > cap:  # it grew while being read
        raise error(f"{path}: larger than {_a(what)} file may be (the limit is {_limit_text(cap)})")
    return data


def read_stdin(what: str, *, limit: int | None = None, error: type[Exception] = InputError,
               stream=None) -> bytes:
    """Standard input's bytes (``stream``: a binary file, default ``sys.stdin.buffer``) as a
    ``what`` (a key of :data:`INPUT_LIMITS`, or any name with ``limit``): at most the cap plus
    one byte is read, and more than the cap is refused, so ``< /dev/zero`` ends at once.

    Raises:
        ``error``: standard input is closed or unreadable, or holds more than the cap."""
    cap = INPUT_LIMITS[what] if limit is None else limit
    if stream is None:
        if sys.stdin is None or sys.stdin.closed:
            raise error(f"standard input is closed: no {what} to read")
        stream = getattr(sys.stdin, "buffer", sys.stdin)
    try:
        data = stream.read(cap + 1)
    except (OSError, ValueError) as exc:
        raise error(f"standard input cannot be read ({exc})") from None
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > cap:
        raise error(f"standard input: more than {_a(what)} may be (the limit is "
                    f"{_limit_text(cap)}); it is not read further")
    return data

#: The environment variable naming the user cache directory.
CACHE_ENV = "EXACT_WORDLE_CACHE"
#: Where an installed wheel keeps the shipped artifacts (setup.py copies ``artifacts/`` there).
INSTALLED_ARTIFACTS_DIR = Path(__file__).resolve().parents[1] / "_shipped"
#: The checkout's ``artifacts/`` directory (an editable install or a run from the checkout).
CHECKOUT_ARTIFACTS_DIR = Path(__file__).resolve().parents[2] / "artifacts"


def shipped_artifacts_dir() -> Path:
    """The directory of the shipped artifacts (decision trees ``*.msgpack``, the openers tables
    ``*-openers.csv``, the opening book ``book/``, the Q-learning tables): the copy installed
    with the package (``solver/_shipped``, from a wheel) when there is one, else the
    checkout's ``artifacts/``. The directory may be missing (then nothing is shipped)."""
    if INSTALLED_ARTIFACTS_DIR.is_dir():
        return INSTALLED_ARTIFACTS_DIR
    return CHECKOUT_ARTIFACTS_DIR


#: :func:`shipped_artifacts_dir`, decided once at import.
ARTIFACTS_DIR = shipped_artifacts_dir()


def cache_dir() -> Path:
    """The user cache directory: ``$EXACT_WORDLE_CACHE`` (when set and not empty) or
    ``~/.cache/exact-wordle``.

    Holds feedback tables, the optimal trees solved for reports and the journals of
    interrupted solves (``journals/``). Not created here: see :func:`usable_cache_dir`.
    """
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "exact-wordle")


def usable_cache_dir() -> Path:
    """:func:`cache_dir`, created if missing and checked writable; returns it.

    Raises:
        CacheError: it cannot be created (a file is in the way, no permission) or written;
            the message says to point ``$EXACT_WORDLE_CACHE`` at a writable directory.
    """
    directory = cache_dir()
    problem = _directory_problem(directory)
    if problem is not None:
        where = (f"{CACHE_ENV}={os.environ[CACHE_ENV]}" if os.environ.get(CACHE_ENV)
                 else f"the cache directory {directory}")
        fix = (f"set {CACHE_ENV} to a writable directory, or unset it to use ~/.cache/exact-wordle"
               if os.environ.get(CACHE_ENV) else f"set {CACHE_ENV} to a writable directory")
        raise CacheError(f"{where} cannot be used as the cache ({problem}); {fix}")
    return directory


#: The footer :func:`seal` puts after the bytes it covers: a magic, their length (uint64) and
#: their zlib.crc32 (uint32), little-endian (20 bytes).
SEAL = struct.Struct("<8sQI")
SEAL_MAGIC = b"EWSEAL01"


def seal(payload: bytes) -> bytes:
    """``payload`` followed by its seal (:data:`SEAL`): how a file of the user cache carries
    its checksum, which :func:`unseal` or :func:`read_sealed_tail` checks before the bytes are
    used. A crc32 is for damage at rest (a flipped bit, a zeroed block), not for tampering."""
    return bytes(payload) + SEAL.pack(SEAL_MAGIC, len(payload), zlib.crc32(payload))


def unseal(data: bytes) -> tuple[int, bytes] | None:
    """The payload sealed at the end of ``data`` by :func:`seal`: ``(start, payload)``, where
    ``start`` is its offset in ``data`` (0 when the seal covers all of it; the bytes before
    ``start`` are not covered). None when ``data`` does not end in a seal that checks (no
    magic, a length longer than ``data``, a crc32 that differs)."""
    if len(data) < SEAL.size:
        return None
    magic, length, crc = SEAL.unpack_from(data, len(data) - SEAL.size)
    start = len(data) - SEAL.size - length
    if magic != SEAL_MAGIC or start < 0:
        return None
    payload = bytes(data[start:len(data) - SEAL.size])
    return (start, payload) if zlib.crc32(payload) == crc else None


def read_sealed_tail(path: str | Path, what: str, *, limit: int) -> tuple[int, bytes] | None:
    """:func:`unseal` of the end of the file ``path``, reading only the seal and the bytes it
    covers (what comes before them, a table whose parts carry their own checksums say, is not
    read): ``(start, payload)`` with ``start`` the payload's offset in the file. None when the
    file is missing, not a regular file or over ``limit`` bytes (a ``what``,
    :func:`check_input_file`), cannot be read, or does not end in a seal that checks."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return None
    with os.fdopen(fd, "rb") as file:
        try:
            size = check_input_file(path, what, limit=limit, info=os.fstat(file.fileno())).st_size
            if size < SEAL.size:
                return None
            file.seek(size - SEAL.size)
            length = SEAL.unpack(file.read(SEAL.size))[1]
            if length > size - SEAL.size:
                return None
            file.seek(size - SEAL.size - length)
            sealed = unseal(file.read(length + SEAL.size))
        except (InputError, OSError, struct.error):
            return None
    return None if sealed is None else (size - SEAL.size - length, sealed[1])


def prepare_output_file(path: str | Path, inputs=()) -> Path:
    """Check, before any work, that :func:`write_atomic` can write a file at ``path``; missing
    parent directories are created. Returns ``path`` as a Path.

    ``inputs``: the files the run reads; ``path`` may not be one of them (compared by identity,
    device and inode, so another name or a link of an input is refused too).

    Raises:
        OutputError: ``path`` is a directory or another non-regular file (a device, a pipe),
            is one of ``inputs``, or its directory cannot be created or written (probed with a
            temporary file, removed at once).
    """
    path = Path(path)
    if "\0" in str(path):
        raise OutputError(f"{str(path)!r} is not a usable file name (it holds a NUL character)")
    refuse_input_as_output(path, inputs)
    if path.is_dir():
        raise OutputError(f"{path} is a directory; give the path of a file to write, e.g. "
                          f"{path / 'out'}")
    if path.exists() and not path.is_file():
        raise OutputError(f"{path} is not a regular file; give the path of a file to write")
    problem = _directory_problem(path.parent)
    if problem is not None:
        raise OutputError(f"cannot write {path}: {problem}; choose a path in a writable directory")
    return path


def refuse_input_as_output(path: str | Path, inputs=()) -> None:
    """Raise :class:`OutputError` when ``path`` exists and is the same file as one of
    ``inputs`` (by identity: device and inode, so a link or another spelling counts); writing
    it would destroy that input."""
    try:
        target = os.stat(path)
    except (OSError, ValueError):
        return  # nothing there yet (or not a usable name: checked elsewhere)
    for source in inputs:
        if source is None:
            continue
        try:
            if os.path.samestat(target, os.stat(source)):
                same = "" if str(source) == str(path) else f" (the same file as {source})"
                raise OutputError(f"{path} is one of this command's inputs{same}; writing it "
                                  "would destroy the input: choose another output path")
        except (OSError, ValueError):
            continue


def prepare_output_dir(directory: str | Path) -> Path:
    """Check, before any work, that files can be written in ``directory`` (created with its
    parents when missing). Returns ``directory`` as a Path.

    Raises:
        OutputError: ``directory`` is a file, or cannot be created or written.
    """
    directory = Path(directory)
    if "\0" in str(directory):
        raise OutputError(f"{str(directory)!r} is not a usable directory name (it holds a NUL character)")
    problem = _directory_problem(directory)
    if problem is not None:
        raise OutputError(f"cannot write in {directory}: {problem}; choose a writable directory")
    return directory


def plain_name(name: str, option: str = "--name") -> str:
    """``name`` when it is a plain file or directory name (a report's directory under
    ``--out``): no path separator, not ``.`` or ``..``, not empty, no NUL; so that what is
    written under it stays under the directory it was asked for.

    Raises:
        OutputError: naming the option and the name."""
    if (not isinstance(name, str) or not name.strip() or name in (".", "..") or "\0" in name
            or "/" in name or "\\" in name or os.sep in name or (os.altsep and os.altsep in name)):
        raise OutputError(f"{option} {name!r}: a name, not a path (no '/', '\\', '.' or '..'): "
                          "the report is written under --out, in a directory of that name")
    return name


def _directory_problem(directory: Path) -> str | None:
    """Why files cannot be written in ``directory`` (created if missing), or None."""
    directory = Path(directory)
    if "\0" in str(directory):
        return f"{str(directory)!r} holds a NUL character"
    if directory.exists() and not directory.is_dir():
        return f"{directory} is a file, not a directory"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a file is in the way, higher up
        blocker = next((p for p in reversed(directory.parents) if p.exists() and not p.is_dir()),
                       directory)
        return f"{blocker} is a file, not a directory"
    except OSError as exc:
        return f"cannot create {directory} ({exc.strerror or exc})"
    try:
        fd, probe = _create_temporary(directory / "write-probe")
    except OSError as exc:
        return f"cannot create a file in {directory} ({exc.strerror or exc})"
    os.close(fd)
    probe.unlink(missing_ok=True)
    return None


def write_atomic(path: str | Path, payload: bytes) -> Path:
    """Write ``payload`` to ``path`` atomically and durably; returns ``path`` as a Path.

    The bytes go to a temporary file in the same directory (so the rename cannot cross file
    systems), which is flushed and fsynced, then renamed over ``path`` with :func:`os.replace`;
    the directory is fsynced too where the platform allows, so the rename survives a crash.
    Missing parent directories are created.

    Permissions: a new file gets ``0o666`` minus the process umask (like ``open(path, "w")``);
    when ``path`` already exists, the new file keeps the old one's mode bits.

    Raises:
        OSError: the directory or file cannot be written (the temporary file is removed on
            every failure, KeyboardInterrupt included; ``path`` is then left as it was).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        keep_mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        keep_mode = None
    fd, tmp = _create_temporary(path)
    try:
        try:
            if keep_mode is not None:
                os.chmod(tmp, keep_mode)
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if exc.filename is None and exc.errno is not None:  # name the file (ENOSPC has none)
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)
    return path


def write_text_atomic(path: str | Path, text: str, encoding: str = "utf-8") -> Path:
    """:func:`write_atomic` of ``text`` encoded with ``encoding`` (no newline translation)."""
    return write_atomic(path, text.encode(encoding))


def fsync_directory(directory: str | Path) -> None:
    """fsync a directory so a rename or a new entry in it is durable; a no-op where
    directories cannot be opened (Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a directory; the data itself is synced
    finally:
        os.close(fd)


def _create_temporary(path: Path) -> tuple[int, Path]:
    """A new, empty ``.<name>.<random>.tmp`` beside ``path``: ``(fd, temporary path)``.

    Opened with mode ``0o666`` so the kernel applies the umask (``tempfile.mkstemp`` would
    make it ``0o600`` whatever the umask says)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
