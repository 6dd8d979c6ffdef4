"""The exact optimum per opener, solved once and kept: optimal decision trees cached on disk.

:func:`load_or_solve_optimum` answers "the optimal tree for this opener" from, in order,

1. ``<artifacts_dir>/<name>-normal-<opener>.msgpack`` for each directory of ``artifacts_dir``
   (by default :data:`ARTIFACT_DIRS`: the current directory's ``artifacts/``, where
   ``python -m tools.solve`` writes, then the shipped trees; ``<name>`` is the lists'
   :attr:`~solver.game.wordlists.WordList.output_name`, see
   :func:`solver.runs.naming.artifact_path`),
2. the user cache, ``cache_dir()/optimal-trees/<name>-<key>-normal-<opener>-<limit>.msgpack``
   (:func:`optimal_tree_cache_path`; ``key`` hashes both word lists),
3. a solve (:func:`solver.exact.bellman.solve`), whose tree is then written to the cache.

A file counts only if it loads (:func:`policy_tree.load` validates it) and was written for the
same word lists (sha256), opener, mode (normal), objective (total) and guess limit; anything
else is passed over. Nothing is ever written to ``artifacts/``. Trees are artifacts, so they
hold no timing: the solve's wall time is returned (:attr:`Optimum.seconds`) for the caller's
log, and is ``None`` for a tree read from a file.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path

from policy_tree.tree import DecisionTree
from solver.game.files import ARTIFACTS_DIR, cache_dir
from solver.game.spec import GUESS_LIMIT, Mode, Objective

#: Where :func:`load_or_solve_optimum` looks for trees before the cache: ``./artifacts`` (what
#: ``tools.solve`` wrote here), then the shipped trees (:data:`solver.game.files.ARTIFACTS_DIR`).
ARTIFACT_DIRS = (Path("artifacts"), ARTIFACTS_DIR)


@dataclass(frozen=True)
class Optimum:
    """The exact optimum for one opener.

    Attributes:
        opener: the root guess.
        header: the artifact's scalar fields (``total``, ``max_guesses``, ``histogram``,
            ``guess_limit``, ... see :mod:`policy_tree.schema`).
        tree: the optimal :class:`~policy_tree.tree.DecisionTree`.
        path: the artifact file holding the tree (in ``artifacts/`` or the cache).
        source: ``"artifacts"``, ``"cache"`` (read from that file) or ``"solved"`` (solved now,
            then cached).
        seconds: wall seconds of the solve when ``source == "solved"``, else None.
    """

    opener: str
    header: dict
    tree: DecisionTree
    path: Path
    source: str
    seconds: float | None = None


def optimal_tree_cache_path(word_list, opener: str, guess_limit: int = GUESS_LIMIT) -> Path:
    """Where a tree solved by :func:`load_or_solve_optimum` is cached (user cache dir, never
    ``artifacts/``)."""
    key = hashlib.sha256(f"{word_list.answers_sha256}:{word_list.guesses_sha256}".encode()).hexdigest()[:12]
    name = word_list.shipped_name or "custom"
    return cache_dir() / "optimal-trees" / f"{name}-{key}-normal-{opener}-{guess_limit}.msgpack"


def matching_tree(path: str | Path, word_list, opener: str, guess_limit: int = GUESS_LIMIT):
    """The :class:`policy_tree.PolicyTree` at ``path`` if it is a valid artifact of the optimal
    normal-mode, total-objective tree for ``word_list``, ``opener`` and ``guess_limit``; else
    None (missing, unreadable, damaged or another problem's tree)."""
    import policy_tree

    path = Path(path)
    if not path.is_file():
        return None
    try:
        loaded = policy_tree.load(path)
    except policy_tree.ArtifactError:
        return None
    header = loaded.header
    if (loaded.word_list.answers_sha256 != word_list.answers_sha256
            or loaded.word_list.guesses_sha256 != word_list.guesses_sha256
            or header.get("opener") != opener or header.get("mode") != Mode.NORMAL
            or header.get("objective") != Objective.TOTAL or header.get("guess_limit") != guess_limit):
        return None
    return loaded


def load_or_solve_optimum(word_list, opener: str, *, jobs: int = -1, guess_limit: int = GUESS_LIMIT,
                          artifacts_dir=ARTIFACT_DIRS, progress=None,
                          resume: bool = True) -> Optimum:
    """The exact optimum for ``opener``: read from ``artifacts_dir`` (a directory or a sequence
    of them) or the cache, else solved
    with :func:`solver.exact.bellman.solve` (``jobs``, ``progress``, ``resume`` passed on) and
    cached.

    Raises:
        UnknownWordError: ``opener`` is not an allowed guess.
        UnwinnableError: no policy with this opener wins every game within ``guess_limit``.
        ForeignJournalError: see :func:`solver.exact.bellman.solve` (``resume``).
        CacheError: the cache directory cannot be used (checked before a solve).
        WriteFailedError: the solved tree could not be written to the cache (the solve's
            journal is kept, so a rerun finishes quickly).
    """
    from solver.exact.bellman import artifact_path, save_artifact, solve
    from solver.game.errors import WriteFailedError
    from solver.game.files import usable_cache_dir
    from solver.game.spec import Game

    game = Game(word_list, guess_limit)
    opener = opener.strip().lower()
    word_list.guess_index(opener)
    directories = [artifacts_dir] if isinstance(artifacts_dir, (str, Path)) else list(artifacts_dir)
    shipped = [artifact_path(game, opener, directory=d) for d in directories]
    cached = optimal_tree_cache_path(word_list, opener, guess_limit)
    for path, source in [(path, "artifacts") for path in shipped] + [(cached, "cache")]:
        found = matching_tree(path, word_list, opener, guess_limit)
        if found is not None:
            return Optimum(opener, dict(found.header), found.tree, path, source)
    usable_cache_dir()
    started = time.perf_counter()
    result = solve(game, opener, jobs=jobs, progress=progress, resume=resume, keep_journal=True)
    seconds = time.perf_counter() - started
    journal = result.journal
    try:
        save_artifact(result, cached)
    except OSError as exc:
        raise WriteFailedError(f"cannot write the solved tree to the cache, {cached} "
                               f"({exc.strerror or exc}); it is kept in the journal "
                               f"{journal.path}, so a rerun finishes quickly") from exc
    found = matching_tree(cached, word_list, opener, guess_limit)
    if found is None:  # the solver wrote something its own reader refuses: a bug, say so
        raise AssertionError(f"{cached}: the tree just solved does not read back")
    return Optimum(opener, dict(found.header), found.tree, cached, "solved", seconds)
