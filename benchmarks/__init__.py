"""Benchmarks (``make bench``): speed and memory figures, printed, recorded in docs/benchmarks.md.

Run from the checkout as ``python -m benchmarks.<name>``; they are not part of the installed
package."""

from __future__ import annotations

from pathlib import Path

#: The checkout's packages a timed process imports.
_PACKAGES = ("solver", "tools", "policy_tree")


def compile_bytecode(root: Path | None = None, packages: tuple[str, ...] = _PACKAGES) -> None:
    """Compile the checkout's Python sources to bytecode (``compileall``), as pip does when it
    installs a package, before a benchmark times whole processes: they then load it as an
    installed tool does. Otherwise, where ``PYTHONDONTWRITEBYTECODE`` is set (it keeps a run
    from writing ``__pycache__``), every timed process compiles the ~30 modules a state's
    search imports from source again: about 0.085 s of each, measured with cProfile on a
    small state (LAKER ``bbbbb``). ``root`` is the checkout (default this one), ``packages``
    the directories under it to compile."""
    import compileall

    root = Path(__file__).resolve().parents[1] if root is None else root
    for package in packages:
        compileall.compile_dir(root / package, quiet=1)
