"""The shipped decision trees by name: ``legacy-normal-salet`` is
``<shipped artifacts>/legacy-normal-salet.msgpack`` and ``book/legacy-normal-crane`` the opening
book's ``<shipped artifacts>/book/legacy-normal-crane.msgpack``, where the shipped artifacts are
:func:`solver.game.files.shipped_artifacts_dir` (the copy installed with the package, else the
checkout's ``artifacts/``), so a name works from any directory and from an installed package.

:func:`policy_tree.load` and every command that takes an ARTIFACT resolve it here.
"""

from __future__ import annotations

from pathlib import Path

from policy_tree.errors import MissingArtifactError

SUFFIX = ".msgpack"
BOOK = "book/"


def _shipped_dirs() -> tuple[tuple[str, Path], ...]:
    """(prefix, directory) of the shipped trees: the artifacts (no prefix) and the book."""
    from solver.game.files import shipped_artifacts_dir

    top = shipped_artifacts_dir()
    return (("", top), (BOOK, top / "book"))


def shipped_trees() -> list[str]:
    """The short names of the shipped trees, sorted: ``NAME`` for ``NAME.msgpack`` of the
    shipped artifacts, ``book/NAME`` for the book's ``NAME.msgpack``."""
    return sorted(prefix + path.name[:-len(SUFFIX)] for prefix, directory in _shipped_dirs()
                  if directory.is_dir() for path in directory.glob("*" + SUFFIX))


def resolve_artifact(text: str | Path) -> str:
    """``text`` when it is a file (or any path: a name with a directory other than ``book/``);
    else the shipped tree its short name names (``legacy-normal-salet`` or
    ``book/legacy-normal-crane``, with or without ``.msgpack``).

    Raises:
        MissingArtifactError: a bare name that no shipped tree has (listing them), or one that
            two shipped trees have (listing both paths, so the caller picks one).
    """
    text = str(text)
    if "\0" in text or Path(text).exists():
        return text  # the loader names what is wrong with a NUL
    stem = text.removesuffix(SUFFIX)
    in_book = stem.startswith(BOOK)
    name = stem.removeprefix(BOOK)
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        return text  # a path to a file that is not there: the loader names it
    found = [directory / f"{name}{SUFFIX}" for prefix, directory in _shipped_dirs()
             if prefix or not in_book]
    found = [path for path in found if path.is_file()]
    if len(found) == 1:
        return str(found[0])
    if len(found) > 1:
        raise MissingArtifactError(text, f"names {len(found)} shipped trees, give the path of the "
                                   f"one meant: {' or '.join(str(path) for path in found)}")
    if in_book:
        return text
    raise MissingArtifactError(text, "no such file, and no shipped tree of that name; shipped: "
                               f"{', '.join(shipped_trees()) or 'none'}")
