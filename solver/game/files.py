"""Files the project writes: the user cache directory and the one atomic-write helper.

Every file the project writes in place (artifacts, the feedback-table cache, report outputs,
exports) goes through :func:`write_atomic`, so a reader never sees a half-written file and a
crash leaves either the old file or the new one, never a mix. Append-only journals of long
runs are :mod:`solver.exact.journal` (they create their file with :func:`write_atomic`).

Plain Python, no numba: the lookup tools import it.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def cache_dir() -> Path:
    """The user cache directory: ``$EXACT_WORDLE_CACHE`` or ``~/.cache/exact-wordle``.

    Holds feedback tables, the optimal trees solved for reports and the journals of
    interrupted solves. Not created here; writers create what they need.
    """
    return Path(os.environ.get("EXACT_WORDLE_CACHE", Path.home() / ".cache" / "exact-wordle"))


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
