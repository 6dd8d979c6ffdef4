"""numba's cache is keyed on every source a kernel imports (solver/game/kernel_cache.py): a
change to a callee in another file recompiles the caller instead of loading stale code."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.game.kernel_cache import dependency_sources

ROOT = Path(__file__).resolve().parents[1]

CALLER = """\
from numba import njit

from kpkg._callee_kernel import value


@njit(cache=True)
def caller():
    return value() + 10
"""

CALLEE = """\
from numba import njit


@njit(cache=True)
def value():
    return {value}
"""

RUN = ("from kpkg._caller_kernel import caller; result = caller(); "
       "print(result, len(caller.stats.cache_hits), len(caller.stats.cache_misses))")


def _package(tmp_path: Path, guarded: bool) -> Path:
    package = tmp_path / "kpkg"
    package.mkdir()
    init = ("from pathlib import Path\n\nfrom solver.game import kernel_cache\n\n"
            "kernel_cache.guard_package(Path(__file__).parent)\n") if guarded else ""
    (package / "__init__.py").write_text(init)
    (package / "_caller_kernel.py").write_text(CALLER)
    (package / "_callee_kernel.py").write_text(CALLEE.format(value=1))
    return package


def _run(tmp_path: Path) -> tuple[int, int, int]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
               NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    result, hits, misses = (int(x) for x in done.stdout.split())
    return result, hits, misses


def _edit_callee(package: Path) -> None:
    (package / "_callee_kernel.py").write_text(CALLEE.format(value=2))


@pytest.mark.slow
def test_a_callee_change_recompiles_the_caller(tmp_path):
    package = _package(tmp_path, guarded=True)
    assert _run(tmp_path) == (11, 0, 1)  # compiled, written to the cache
    assert _run(tmp_path) == (11, 1, 0)  # loaded from the cache
    _edit_callee(package)
    assert _run(tmp_path) == (12, 0, 1)  # the caller's file is unchanged, yet it recompiles
    assert _run(tmp_path) == (12, 1, 0)


@pytest.mark.slow
def test_without_the_guard_numba_loads_the_stale_caller(tmp_path):
    """Why the guard exists: numba stamps a cache with the function's own file only."""
    package = _package(tmp_path, guarded=False)
    assert _run(tmp_path) == (11, 0, 1)
    _edit_callee(package)
    assert _run(tmp_path) == (11, 1, 0)  # stale: the old callee's code


def test_the_search_kernel_is_stamped_with_its_callees_files():
    names = {path.relative_to(ROOT).as_posix() for path in
             dependency_sources(ROOT / "solver" / "exact" / "_search_kernel.py")}
    assert names == {"solver/exact/_search_kernel.py", "solver/exact/_objective_kernel.py",
                     "solver/exact/_family_kernel.py", "solver/game/_memo_kernel.py",
                     "solver/game/_hard_mode_kernel.py", "solver/game/_partition_kernel.py",
                     "solver/game/kernel_cache.py", "solver/game/compile_notice.py",
                     "solver/game/values.py"}


def test_every_kernel_file_is_guarded_before_its_first_kernel():
    for path in sorted((ROOT / "solver").rglob("_*_kernel.py")):
        text = path.read_text()
        guard = text.find("from solver.game import kernel_cache")
        first = text.find("@njit")
        assert guard >= 0, f"{path} does not import solver.game.kernel_cache"
        assert first < 0 or guard < first, f"{path} imports kernel_cache after its first kernel"


def test_relative_imports_and_package_names_count(tmp_path):
    from solver.game.kernel_cache import guard_package

    package = tmp_path / "relpkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("LIMIT = 6\n")
    (package / "sub" / "_a_kernel.py").write_text("from . import LIMIT\nfrom ._b_kernel import f\n")
    (package / "sub" / "_b_kernel.py").write_text("import relpkg.consts\n")
    (package / "consts.py").write_text("X = 1\n")
    (package / "unused.py").write_text("")
    guard_package(package)
    names = {p.relative_to(package).as_posix() for p in dependency_sources(package / "sub" / "_a_kernel.py")}
    assert names == {"sub/_a_kernel.py", "sub/__init__.py", "sub/_b_kernel.py", "consts.py"}


def _ast_imports(path: Path, root: Path) -> set[Path]:
    """The package files ``path`` imports, read from its syntax tree: the slow, obviously
    correct twin of the kernel cache's reading of import lines."""
    import ast

    from solver.game.kernel_cache import _module_file

    dotted = ".".join(("solver", *path.relative_to(root).with_suffix("").parts))
    if path.name == "__init__.py":
        dotted = dotted.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = dotted.split(".")
                parent = parent[:len(parent) - node.level + (path.name == "__init__.py")]
                base = ".".join(parent + ([base] if base else []))
            modules = []
            for alias in node.names:
                name = f"{base}.{alias.name}"
                modules.append(name if _module_file(root, "solver", name) else base)
        else:
            continue
        found.update(f for f in (_module_file(root, "solver", m) for m in modules) if f)
    found.discard(path)
    return found


def test_import_lines_read_as_the_syntax_tree_says():
    """Every file of the package: the import lines read by regular expression give every file
    its syntax tree imports (a match in a string may add one, never drop one), and exactly
    those for every kernel file."""
    from solver.game.kernel_cache import _parsed_imports

    root = (ROOT / "solver").resolve()
    files = sorted(root.rglob("*.py"))
    assert len(files) > 50
    for path in files:
        stat = path.stat()
        read = set(_parsed_imports(path, "solver", root, stat.st_mtime_ns, stat.st_size))
        parsed = _ast_imports(path, root)
        assert parsed <= read, path
        if path.name.startswith("_") and path.name.endswith("_kernel.py"):
            assert read == parsed, path


LEAVES = """\
import random

from numba.core import types
from numba.core.registry import CPUDispatcher

import solver.api as api
import solver.exact._family_kernel, solver.exact._objective_kernel, solver.exact._search_kernel
import solver.game._hard_mode_kernel, solver.game._memo_kernel, solver.game._partition_kernel
from solver.game.wordlists import from_words

legacy = api.word_list("legacy")
rng = random.Random(5)
answers = rng.sample(legacy.answers, 320)
others = rng.sample([w for w in legacy.guesses if w not in set(answers)], 480)
words = from_words(answers, answers + others, name="sub5")
for mode in ("normal", "hard"):
    api.solve(answers[0], words, mode=mode, jobs=1)
    api.advise([(answers[1], "bbbbb")], words, mode=mode, top=0)


def arrays_in(t):
    if isinstance(t, types.Array):
        return True
    return isinstance(t, types.BaseTuple) and any(arrays_in(m) for m in t.types)


checked = 0
for module in (solver.exact._family_kernel, solver.exact._objective_kernel,
               solver.exact._search_kernel, solver.game._hard_mode_kernel,
               solver.game._memo_kernel, solver.game._partition_kernel):
    for name, kernel in sorted(vars(module).items()):
        if not isinstance(kernel, CPUDispatcher) or kernel.targetoptions.get("_nrt") is not False:
            continue
        for signature in kernel.signatures:
            checked += 1
            returned = kernel.overloads[signature].signature.return_type
            if arrays_in(returned):
                print("RETURNS", f"{module.__name__}.{name}", returned)
print("CHECKED", checked)
"""


@pytest.mark.slow
def test_no_leaf_kernel_returns_an_array(tmp_path):
    """A leaf kernel (kernel_cache.leaf_kernel) keeps no reference counts; one that returned an
    array to a kernel that does would have that reference released once too often. Every leaf
    compiled by a normal- and a hard-mode solve and state search (320 answers: the letter
    family's pass too) returns numbers only. (About a minute: every kernel is compiled.)"""
    # (numba's cache empty: a kernel loaded from the cache is linked into its caller, and its
    # own dispatcher then lists no signature to check)
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"),
               EXACT_WORDLE_CACHE=str(tmp_path / "user-cache"))
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-c", LEAVES], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert [line for line in lines if line.startswith("RETURNS")] == []
    checked = int(next(line for line in lines if line.startswith("CHECKED")).split()[1])
    assert checked >= 30
