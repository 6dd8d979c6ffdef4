"""A stamp that says numba's cache already holds the kernels a group of commands needs.

numba compiles a kernel for each new combination of argument types the first time it is
called with it, and keeps the machine code in its on-disk cache
(:mod:`solver.game.kernel_cache`). :mod:`solver.evaluation.warm` calls every kernel a group
of commands needs, with the argument types of the real calls, so that numba writes them all
to its cache before a budget runs; then it writes this stamp, and a later command reads the
stamp (a few milliseconds, numba not imported) instead of loading every kernel to find out.

The stamp is a small JSON file, ``exact-wordle-kernels.json``, kept beside numba's cache:

- in ``$NUMBA_CACHE_DIR`` when set (numba's cache is there);
- else in ``solver/__pycache__`` when it can be written (numba's cache is in the
  ``__pycache__`` directories beside the kernel files: a new install starts without a stamp);
- else in the user cache directory (:func:`solver.game.files.cache_dir`).

It holds a key and the groups warmed under it. The key (:func:`stamp_key`) changes with
whatever makes numba compile again: numba's, numpy's and Python's versions, the machine, the
kernel files (their bytes, and the modification times numba's own stamp reads), the game
layer's modules (the only package kernels may import), the warm-up's own source, and
``NUMBA_CACHE_DIR``. A stamp of another key holds no group. A stamp never proves the cache:
one deleted by hand leaves a stamp that says warm, and the kernels then compile when a
command first calls them (with the one-line notice, :mod:`solver.game.compile_notice`).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from solver.game.files import cache_dir, write_atomic

#: The stamp's file name.
STAMP_NAME = "exact-wordle-kernels.json"
#: The ``solver`` package's directory.
SOLVER_ROOT = Path(__file__).resolve().parents[1]


def _writable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError:
        return False
    return True


def stamp_path() -> Path:
    """Where the stamp is kept (module docstring)."""
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    if numba_dir:
        return Path(numba_dir) / STAMP_NAME
    in_tree = SOLVER_ROOT / "__pycache__"
    if _writable(in_tree):
        return in_tree / STAMP_NAME
    return cache_dir() / STAMP_NAME


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "?"


def _machine() -> str:
    """The machine's architecture and CPU model (numba compiles for the host's CPU)."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), "")
    except OSError:
        pass
    return f"{platform.machine()} {model or platform.processor()}"


def stamp_key(extra=()) -> str:
    """sha256 (hex) of what numba's cache depends on (module docstring), and of the files
    ``extra`` (the warm-up's own source)."""
    digest = hashlib.sha256()
    for part in (_version("numba"), _version("llvmlite"), _version("numpy"), sys.version, _machine(),
                 os.environ.get("NUMBA_CACHE_DIR", "")):
        digest.update(part.encode() + b"\0")
    kernels = sorted(SOLVER_ROOT.rglob("_*_kernel.py"))
    game = sorted((SOLVER_ROOT / "game").glob("*.py"))
    for path in sorted(set(kernels) | set(game)) + [Path(p).resolve() for p in extra]:
        name = path.relative_to(SOLVER_ROOT).as_posix() if path.is_relative_to(SOLVER_ROOT) else path.name
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    for path in kernels:  # numba's own stamp of a kernel file: its modification time and size
        stat = path.stat()
        digest.update(f"{stat.st_mtime_ns} {stat.st_size}".encode() + b"\0")
    return digest.hexdigest()


def warmed_groups(key: str) -> set[str]:
    """The groups the stamp says were warmed under ``key`` (none when there is no stamp, it
    cannot be read, or it is of another key)."""
    try:
        data = json.loads(stamp_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("groups"), list):
        return set()
    return {group for group in data["groups"] if isinstance(group, str)}


def mark_warmed(key: str, groups) -> Path | None:
    """Add ``groups`` to the stamp of ``key`` (a stamp of another key is replaced); returns
    its path, or None when it cannot be written (then the next command warms again)."""
    data = {"key": key, "groups": sorted(warmed_groups(key) | set(groups))}
    path = stamp_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, (json.dumps(data, indent=1) + "\n").encode())
    except OSError:
        return None
    return path
