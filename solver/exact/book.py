"""The opening book: one optimal decision tree per opener, found shipped, cached, or solved.

After the opener every state of a game is a node of that opener's optimal tree until the
player leaves it, so the exact answer to almost every question is a lookup once the opener's
whole tree exists. The book finds it, for one game (lists, mode, objective, feedback rule,
guess limit, priors), in this order:

1. trees already loaded by this process (or given, :meth:`OpeningBook.add`);
2. the shipped trees: ``artifacts/*.msgpack`` and ``artifacts/book/*.msgpack``
   (:data:`SHIPPED_DIRS`; installed from a wheel, the copy in the package,
   :func:`solver.game.files.shipped_artifacts_dir`), named as
   :func:`solver.runs.naming.artifact_path` names them;
3. the user cache, ``<cache>/book/<solver fingerprint>/`` (:func:`cache_directory`): trees this
   solver solved for earlier questions. The directory is keyed by the solver version and the
   kernels' sources, so a tree from another solver is never mistaken for this one's;
4. else the opener's whole tree is solved (:func:`solver.exact.bellman.solve`: every root
   class, in parallel, journaled) and written to the cache. A deadline stops the solve;
   the root classes it finished stay in the solve's journal and the next call resumes.

Every file found is validated on open (:func:`policy_tree.load`: its sha256s, its shape) and
must be of this game (lists' identity, mode, objective, feedback rule, guess limit, priors); a
damaged cached tree is solved again and replaced, a damaged shipped one raises
:class:`policy_tree.ArtifactError`. The note that an opener has no tree winning every game
(``<tree file>.unwinnable``, :meth:`OpeningBook.unwinnable`) is sealed with its checksum in
the cache (:func:`solver.game.files.seal`); a cached note that does not check is ignored, so
the opener is solved again and the note rewritten.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from solver.game import files
from solver.game.spec import GUESS_LIMIT, FeedbackRule, Game
from solver.game.wordlists import WordList

#: The shipped trees: the checkout's ``artifacts/``, or the copy installed with the package.
ARTIFACTS_DIR = files.ARTIFACTS_DIR
#: Where shipped trees are looked for: the proven trees, then the book of popular openers.
SHIPPED_DIRS = (ARTIFACTS_DIR, ARTIFACTS_DIR / "book")
#: The openers whose trees are shipped in ``artifacts/book/`` for the legacy and NYT-2024
#: lists in normal and hard mode (docs/play.md names the sources): the five most played
#: openers in the NYT's count of 515 million games (Dec 2022 – Nov 2023: ADIEU, STARE, SLATE,
#: AUDIO, RAISE), the NYT WordleBot's favourites (CRANE, TRACE, CRATE, CARTE, SLANT; DEALT
#: and TROPE in hard mode), and ARISE; plus the proven best openers SALET and TARSE.
POPULAR_OPENERS = ("adieu", "stare", "slate", "audio", "raise", "arise", "crane", "trace",
                   "crate", "carte", "slant", "dealt", "trope", "salet", "tarse")


def _opener_of(name: str) -> str:
    """The opener a tree file is named for (:func:`solver.runs.naming.artifact_path`):
    the last part of the name before ``-limit<N>`` and ``.msgpack``."""
    import re

    stem = re.sub(r"-limit\d+$", "", name[:-len(".msgpack")] if name.endswith(".msgpack") else name)
    return stem.rsplit("-", 1)[-1]


def solver_fingerprint() -> str:
    """20 hex digits of sha256 over the solver version and every kernel's source: a tree
    cached by one solver is looked up only by the same solver. Hashed once per process and
    version (the kernels' sources do not change under a running process; a lookup of an
    opener with no tree, on every off-tree question, would otherwise read them all again)."""
    from solver.exact.versions import SOLVER_VERSION

    return _fingerprint(SOLVER_VERSION)


@functools.cache
def _fingerprint(version: str) -> str:
    from solver.runs.journal import kernel_hashes

    text = json.dumps({"solver_version": version, "kernels": kernel_hashes()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def cache_directory() -> Path:
    """``<cache>/book/<solver fingerprint>``, where solved openers' trees are kept."""
    from solver.game.files import cache_dir

    return cache_dir() / "book" / solver_fingerprint()


class OpeningBook:
    """The optimal trees of one game, by opener (module docstring).

    Args:
        game: the :class:`~solver.game.spec.Game` (lists, options, priors).
        shipped: directories of shipped trees (default :data:`SHIPPED_DIRS`); ``()`` for none.
        cache: read and write the user cache (False: solve in memory only).
        solve: solve an opener's tree when none is found (False: only the trees found or
            added are used; :meth:`tree` then returns None for the others).
    """

    def __init__(self, game: Game, *, shipped=SHIPPED_DIRS, cache: bool = True,
                 solve: bool = True):
        self.game = game
        self.word_list: WordList = game.word_list
        self.priors = game.priors
        self.shipped = tuple(Path(d) for d in shipped)
        self.cache = cache
        self.solve = solve
        self._trees: dict[str, object] = {}
        self._unwinnable: dict[str, str] = {}

    # -- which trees belong to this game --------------------------------------------------
    def matches(self, tree) -> bool:
        """Whether a :class:`policy_tree.PolicyTree` is an optimal tree of this game."""
        priors = tree.priors
        same_priors = (priors is None and self.priors is None) or (
            priors is not None and self.priors is not None and priors["sha256"] == self.priors.sha256)
        game = self.game
        return (tree.word_list.identity == self.word_list.identity and tree.mode == game.mode
                and tree.objective == game.objective and tree.feedback == game.feedback
                and tree.guess_limit == game.guess_limit and same_priors)

    def file_name(self, opener: str) -> str:
        """The tree's file name (:func:`solver.runs.naming.artifact_path`)."""
        from solver.runs.naming import artifact_path

        return artifact_path(self.game, opener, directory=".").name

    def add(self, tree) -> None:
        """Keep ``tree`` (a PolicyTree of this game, else ValueError) for its opener."""
        if not self.matches(tree):
            raise ValueError(f"{tree!r} is not a tree of this game")
        self._trees[tree.opener] = tree

    # -- lookups ----------------------------------------------------------------------------
    def find(self, opener: str):
        """The opener's tree if it is loaded, shipped or cached, else None (no solve)."""
        opener = opener.strip().lower()
        if opener in self._trees:
            return self._trees[opener]
        import policy_tree

        name = self.file_name(opener)
        for directory in self.shipped:
            path = directory / name
            if path.is_file():
                tree = policy_tree.load(path)
                if self.matches(tree) and tree.opener == opener:
                    self._trees[opener] = tree
                    return tree
        if self.cache:
            path = cache_directory() / name
            if path.is_file():
                try:
                    tree = policy_tree.load(path)
                except policy_tree.ArtifactError:
                    return None  # damaged: solved again and replaced
                if self.matches(tree) and tree.opener == opener:
                    self._trees[opener] = tree
                    return tree
        return None

    def tree(self, opener: str, *, progress=None, deadline: float | None = None, jobs: int = -1):
        """The opener's optimal tree: found (:meth:`find`) or solved now and cached.

        Args:
            opener: an allowed guess.
            progress: ``progress(done_answers, total_answers)``, called as root classes
                finish while the tree is solved (not called when it is found).
            deadline: a :func:`time.monotonic` time past which a solve stops with
                :class:`solver.exact.bellman.DeadlineReached` (its finished classes kept).
            jobs: worker processes for the solve (-1: all cores).

        Raises:
            UnknownWordError: the opener is not an allowed guess.
            UnwinnableError: no policy with this opener wins every game within the limit.
            DeadlineReached: the deadline came before the tree was solved.
        """
        opener = self.word_list.guesses[self.word_list.guess_index(opener)]
        found = self.find(opener)
        if found is not None or not self.solve:
            return found
        reason = self.unwinnable(opener)
        if reason is not None:
            from solver.exact.bellman import UnwinnableError

            raise UnwinnableError(reason)
        return self._solve(opener, progress, deadline, jobs)

    def unwinnable(self, opener: str) -> str | None:
        """Why no tree of this opener wins every game within the limit, when that is known
        (a solve found it: ``<tree file>.unwinnable`` shipped, or cached and sealed with its
        checksum: :meth:`_solve`), else None. A note that cannot be read, or a cached one
        whose seal does not check, is skipped."""
        if opener in self._unwinnable:
            return self._unwinnable[opener]
        name = self.file_name(opener) + ".unwinnable"
        directories = [(directory, False) for directory in self.shipped]
        if self.cache:
            directories.append((cache_directory(), True))
        for directory, sealed in directories:
            path = directory / name
            if path.is_file():
                from solver.game.errors import InputError
                from solver.game.files import read_input_file, unseal

                try:  # a one-line note: a regular file of at most 64 kB, or it is skipped
                    note = read_input_file(path, "note", limit=1 << 16)
                    if sealed:
                        found = unseal(note)
                        if found is None or found[0] != 0:
                            continue  # damaged: solved again, and the note rewritten
                        note = found[1]
                    self._unwinnable[opener] = note.decode("utf-8").strip()
                except (InputError, UnicodeDecodeError):
                    continue
                return self._unwinnable[opener]
        return None

    def relaxed(self, opener: str):
        """The finite value (docs/algorithms.md §15.4) of an opener with no tree winning every
        game within the limit, when it is recorded (``<tree file>.relaxed``, shipped or cached:
        :meth:`relaxed_record`), as a :class:`solver.exact.advice.RelaxedQ`; else None. A
        record that is damaged or of other lists is skipped."""
        from solver.exact.advice import RelaxedQ
        from solver.game.errors import InputError
        from solver.game.files import read_input_file

        name = self.file_name(opener) + ".relaxed"
        directories = self.shipped + ((cache_directory(),) if self.cache else ())
        for directory in directories:
            path = directory / name
            if not path.is_file():
                continue
            try:  # a small JSON record: a regular file of at most 4 kB, or it is skipped
                record = json.loads(read_input_file(path, "record", limit=1 << 12))
                if (record.get("opener") != opener or record.get("lists") != self.word_list.identity
                        or record.get("mode") != self.game.mode.value):
                    continue
                values = [record[key] for key in ("q", "extra", "unsafe")]
                if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
                    continue
                return RelaxedQ(*values)
            except (InputError, ValueError, KeyError, AttributeError, TypeError):
                continue
        return None

    def relaxed_record(self, opener: str, relaxed) -> bytes:
        """The bytes of ``<tree file>.relaxed`` for :meth:`relaxed` (``tools.book`` writes it
        beside the ``.unwinnable`` note)."""
        return (json.dumps({"opener": opener, "lists": self.word_list.identity,
                            "mode": self.game.mode.value, "q": int(relaxed.q),
                            "extra": int(relaxed.extra), "unsafe": int(relaxed.unsafe)},
                           sort_keys=True) + "\n").encode()

    def _solve(self, opener: str, progress, deadline, jobs):
        import policy_tree
        from solver.exact.bellman import artifact_bytes, solve
        from solver.game.files import seal, write_atomic

        from solver.exact.bellman import UnwinnableError
        from solver.runs.journal import ForeignJournalError

        def solved(resume: bool):
            return solve(self.game, opener, jobs=jobs, progress=progress, keep_journal=True,
                         resume=resume, deadline=deadline)

        try:
            try:
                result = solved(resume=True)
            except ForeignJournalError:
                # the journal of these inputs under another solver version or other kernels
                # (an upgrade): never reused; the book's solve is the user's question, not a run
                # of theirs to resume, so it starts over instead of refusing to answer
                result = solved(resume=False)
        except UnwinnableError as exc:
            self._unwinnable[opener] = str(exc)
            if self.cache:
                try:
                    write_atomic(cache_directory() / (self.file_name(opener) + ".unwinnable"),
                                 seal(str(exc).encode()))
                except OSError:
                    pass
            raise
        data = artifact_bytes(result)
        path = cache_directory() / self.file_name(opener)
        if self.cache:
            try:
                write_atomic(path, data)
            except OSError:
                path = None  # an unwritable cache: the tree serves this process only
        tree = policy_tree.decode(data, path)
        if result.journal is not None:
            result.journal.discard()
        self._trees[opener] = tree
        return tree

    def proven(self):
        """The shipped tree whose opener is proven optimal over every allowed guess of these
        lists (docs/algorithms.md §9), or None."""
        import policy_tree

        for tree in self._trees.values():
            proof = tree.opener_proof
            if (proof is not None and proof["guesses_sha256"] == self.word_list.guesses_sha256
                    and proof["openers"] == self.word_list.n_guesses):
                return tree
        for directory in self.shipped:
            if not directory.is_dir():
                continue
            for path in sorted(directory.glob(f"{self.word_list.output_name}-{self.game.mode.value}-*.msgpack")):
                opener = _opener_of(path.name)
                if self.file_name(opener) != path.name:
                    continue
                tree = self._trees.get(opener) or policy_tree.load(path)
                proof = tree.opener_proof
                if (self.matches(tree) and proof is not None
                        and proof["guesses_sha256"] == self.word_list.guesses_sha256
                        and proof["openers"] == self.word_list.n_guesses):
                    self._trees[tree.opener] = tree
                    return tree
        return None

    def loaded(self) -> list[str]:
        """The openers whose trees this book holds in memory, sorted."""
        return sorted(self._trees)

    def shipped_openers(self) -> list[str]:
        """The openers with a shipped tree of this game, sorted."""
        openers = set()
        for directory in self.shipped:
            if directory.is_dir():
                for path in directory.glob(f"{self.word_list.output_name}-{self.game.mode.value}-*.msgpack"):
                    opener = _opener_of(path.name)
                    if self.file_name(opener) == path.name:
                        openers.add(opener)
        return sorted(openers)

    def root_lower_bound(self) -> int | None:
        """The least value of the shipped openers table (``artifacts/<lists>-<mode>[-worst]-
        openers.csv``, :func:`solver.exact.prove.default_csv_path`): a proven lower bound on
        the optimum over every opener, or None without a table (or with priors)."""
        game = self.game
        if (self.priors is not None or game.feedback is not FeedbackRule.STANDARD
                or game.guess_limit != GUESS_LIMIT):
            return None
        from solver.exact.prove import default_csv_path

        path = default_csv_path(game, directory=ARTIFACTS_DIR)
        if not path.is_file():
            return None
        import csv
        import io

        from solver.game.files import read_input_file

        text = read_input_file(path, "openers table").decode("utf-8")
        values = [int(row["value"]) for row in csv.DictReader(io.StringIO(text, newline=""))
                  if row["value"] != "inf"]
        return min(values) if values else None
