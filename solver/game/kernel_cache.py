"""numba's on-disk cache, keyed on every source a kernel depends on.

numba keeps a compiled ``@njit(cache=True)`` function in ``__pycache__/*.nbi`` (the index) and
``*.nbc`` (the code). The index is stamped with the source of the function's *own* file only,
and its key holds the function's own bytecode: when a kernel it calls, or a constant it reads,
lives in another module and changes, the caller's cached code — which inlined or linked the
old callee — is still loaded. ``_search_kernel.py`` calls kernels of four other files, so an
edit there could run stale code.

Importing this module (every ``solver/**/_*_kernel.py`` does, before its first ``@njit``) puts
locators in front of numba's own (``numba.core.caching.CacheImpl._locator_classes``)
for the kernel files of the guarded packages (:func:`guard_package`; ``solver`` always): same
cache directories, but the stamp is numba's stamp of the file *and* a sha256 over the sources
of every module of the package the file imports, transitively (:func:`dependency_sources`).
A change to any of them makes the stamp differ, numba finds the index stale and compiles
again (then overwrites it).

It also holds :data:`leaf_kernel`, the decorator every kernel file takes with it: a kernel
compiled without numba's reference counts.

numba's locator classes are an internal API (numba 0.60–0.68 spell them with or without a
leading underscore); tests/test_kernel_cache.py checks that a callee's change recompiles the
caller.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

from numba import njit
from numba.core import caching as _caching

from solver.game import compile_notice  # noqa: F401  (one line on stderr when a kernel compiles)

#: The decorator of a *leaf* kernel, in place of ``@njit(cache=True)``: a kernel that returns
#: no array (numbers, a tuple of numbers, or nothing), allocates nothing, and calls only leaf
#: kernels and kernels of numbers alone. numba compiles it without its runtime's reference
#: counts (the ``_nrt`` option, spelled so in numba 0.60–0.68). A compiled call otherwise
#: increments and decrements, with atomic instructions, the count of every array it is
#: passed, of each member of a named tuple of arrays too (the search's ``Search`` holds 35):
#: the exact search calls its leaves millions of times, and before they were leaves these
#: counts took a tenth of a 867-answer hard-mode state's search (docs/algorithms.md §4).
#: numba refuses to compile a leaf that allocates ("NRT required but not enabled");
#: tests/test_kernel_cache.py checks that no leaf returns an array (its caller would release
#: a reference it was never given). A kernel a leaf calls that sets no ``_nrt`` is compiled
#: as the first caller to need it was, so it must not take or return arrays unless it is a
#: leaf itself.
leaf_kernel = njit(cache=True, _nrt=False)

#: Package name → its directory: kernel files under these are guarded.
_PACKAGES: dict[str, Path] = {}


def _locator(name: str):
    return getattr(_caching, name, None) or getattr(_caching, "_" + name)


def _module_file(root: Path, package: str, module: str) -> Path | None:
    """The file of ``module`` (dotted) if it belongs to ``package`` (rooted at ``root``)."""
    parts = module.split(".")
    if parts[0] != package:
        return None
    base = root.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_of(path: Path) -> tuple[str, Path] | None:
    for package, root in _PACKAGES.items():
        try:
            path.relative_to(root)
        except ValueError:
            continue
        return package, root
    return None


def _imports(path: Path, package: str, root: Path) -> frozenset[Path]:
    """Files of ``package`` that ``path`` imports (``import a.b``, ``from a.b import c`` with c
    a module or a name, relative imports too), at any place in the file. A package's
    ``__init__.py`` counts only when a name is imported from it."""
    stat = path.stat()
    return _parsed_imports(path, package, root, stat.st_mtime_ns, stat.st_size)


#: An import statement at the start of a line: ``from X import names`` (names in parentheses
#: may span lines) or ``import X, Y``. Read with a regular expression, not parsed: parsing
#: every kernel file cost a fresh process about 0.15 s before its first kernel loaded. A
#: match inside a string can only add a file to the fingerprint (one more recompile when it
#: changes), never drop one.
_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n]*)", re.M)
_COMMENT = re.compile(r"#[^\n]*")


def _names(text: str) -> list[str]:
    """The imported names of an import's name list (``a as b, c``, in parentheses or not)."""
    text = text.replace("(", " ").replace(")", " ").replace("\\", " ")
    return [part.split()[0] for part in text.split(",") if part.split()]


@functools.cache
def _parsed_imports(path: Path, package: str, root: Path, mtime_ns: int, size: int) -> frozenset[Path]:
    # keyed on (mtime, size): a file edited while the process runs is read again
    source = _COMMENT.sub("", path.read_text(encoding="utf-8"))  # (a comment may hold brackets)
    dotted = ".".join((package, *path.relative_to(root).with_suffix("").parts))
    if path.name == "__init__.py":
        dotted = dotted.rsplit(".", 1)[0]
    found: set[Path] = set()

    def add(module: str) -> bool:
        file = _module_file(root, package, module)
        if file is not None:
            found.add(file)
        return file is not None

    for match in _IMPORT.finditer(source):
        for name in _names(match.group(1)):
            add(name)
    for match in _FROM_IMPORT.finditer(source):
        base = match.group(1)
        level = len(base) - len(base.lstrip("."))
        base = base[level:]
        if level:
            parent = dotted.split(".")
            parent = parent[:len(parent) - level + (path.name == "__init__.py")]
            base = ".".join(parent + ([base] if base else []))
        for name in _names(match.group(2)):
            # a submodule counts as itself; a name counts as the module that defines it
            # (a package's __init__ only when a name is taken from it)
            if not add(f"{base}.{name}"):
                add(base)
    found.discard(path)
    return frozenset(found)


def dependency_sources(path: str | Path) -> list[Path]:
    """The file ``path`` and every file of its package it imports, transitively, sorted.

    Raises ValueError if ``path`` is not under a guarded package."""
    path = Path(path).resolve()
    owner = _package_of(path)
    if owner is None:
        raise ValueError(f"{path} is not in a guarded package ({', '.join(_PACKAGES)})")
    package, root = owner
    seen, todo = {path}, [path]
    while todo:
        for dependency in _imports(todo.pop(), package, root):
            if dependency not in seen:
                seen.add(dependency)
                todo.append(dependency)
    return sorted(seen)


@functools.cache
def _fingerprint(path: str, stamps: tuple) -> str:
    digest = hashlib.sha256()
    for dependency in dependency_sources(path):
        digest.update(str(dependency.name).encode() + b"\0" + dependency.read_bytes() + b"\0")
    return digest.hexdigest()


def dependency_fingerprint(path: str | Path) -> str:
    """sha256 (hex) over the sources of :func:`dependency_sources` of ``path``."""
    path = Path(path).resolve()
    # keyed on the files' (mtime, size) too, so an edit while the process runs is seen
    stamps = tuple((p.stat().st_mtime_ns, p.stat().st_size) for p in dependency_sources(path))
    return _fingerprint(str(path), stamps)


def _guarded(py_file) -> bool:
    path = Path(py_file)
    return path.name.endswith("_kernel.py") and path.name.startswith("_") and \
        _package_of(path.resolve()) is not None


class _DependencyStamp:
    """Mixin: numba's stamp of the file, and the fingerprint of everything it imports."""

    def get_source_stamp(self):
        return (super().get_source_stamp(), dependency_fingerprint(self._py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _guarded(py_file):
            return None
        return super().from_function(py_func, py_file)


class UserProvidedLocator(_DependencyStamp, _locator("UserProvidedCacheLocator")):
    """``NUMBA_CACHE_DIR`` set: there."""


class InTreeLocator(_DependencyStamp, _locator("InTreeCacheLocator")):
    """``__pycache__`` beside the kernel file."""


class UserWideLocator(_DependencyStamp, _locator("UserWideCacheLocator")):
    """``__pycache__`` not writable (a read-only install): numba's user-wide cache directory."""


def _install() -> None:
    classes = _locator("CacheImpl")._locator_classes
    if UserProvidedLocator not in classes:
        classes[:0] = [UserProvidedLocator, InTreeLocator, UserWideLocator]


def guard_package(root: str | Path, name: str | None = None) -> None:
    """Guard the ``_*_kernel.py`` files under the package directory ``root`` (named ``name``,
    default the directory's name): kernels decorated after this call are cached under the
    stamp of their dependencies (module docstring)."""
    root = Path(root).resolve()
    _PACKAGES[name or root.name] = root
    _install()


guard_package(Path(__file__).resolve().parents[1], "solver")
