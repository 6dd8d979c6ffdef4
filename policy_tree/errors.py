"""Errors raised when reading a decision-tree artifact or looking a history up in it.

All derive from :class:`solver.game.errors.InputError`, so the command-line tools report them as
bad input (exit status 2). Two families:

- :class:`ArtifactError` — the file itself: missing, truncated, corrupted, of another format,
  or built on word lists other than the shipped ones. The message names the file and what is
  wrong with it.
- :class:`HistoryError` — a well-formed history that the tree does not answer (it is also a
  :class:`KeyError`, so ``tree.get_next_guess(history, default)`` can return the default).
  Malformed input (an unknown word, a feedback string that is not five symbols) raises
  :class:`solver.game.errors.UnknownWordError` / :class:`solver.game.errors.FeedbackError` instead.
"""

from __future__ import annotations

from pathlib import Path

from solver.game.errors import FeedbackError, HistoryTokenError, InputError  # noqa: F401 (re-exported)


class ArtifactError(InputError, ValueError):
    """An artifact cannot be used. ``path`` is the file (or ``None`` for in-memory bytes)."""

    def __init__(self, path: str | Path | None, problem: str):
        self.path = None if path is None else Path(path)
        self.problem = problem
        where = "<artifact bytes>" if path is None else str(path)
        super().__init__(f"{where}: {problem}")

    def __reduce__(self):  # args holds the message only; rebuild from path and problem
        return type(self), (self.path, self.problem)


class MissingArtifactError(ArtifactError):
    """The artifact file does not exist or cannot be read (a directory, no permission)."""


class CorruptArtifactError(ArtifactError):
    """Truncated, not msgpack, a field of the wrong type, array sizes that disagree, an index
    out of range, or a checksum (``tree_sha256``, ``answers_sha256``, ``guesses_sha256``) that
    does not match the data."""


class UnsupportedArtifactError(ArtifactError):
    """Not a decision-tree artifact (``format``), or a ``format_version``/``mode``/``objective``
    this reader does not know."""


class WordListMismatchError(ArtifactError):
    """The artifact names a shipped word list (``legacy``, ``nyt-2024``) but was built on
    different words than the lists shipped with this copy of the project."""


class UnsolvedAnswerError(ArtifactError):
    """The tree loads but does not win some answer (no branch for a feedback it meets): the
    artifact is damaged; ``python -m tools.tree verify`` lists every such answer."""


class HistoryError(InputError, KeyError):
    """A history (guesses and their feedback) that the decision tree does not cover."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class InconsistentHistoryError(HistoryError, FeedbackError):
    """No answer of the word list produces all the feedback in the history."""


class NotInTreeError(HistoryError):
    """The history plays a guess other than the tree's while answers remain: the state is
    legitimate, only the tree holds no move for it."""


class GameOverError(HistoryError):
    """The history already contains the all-green feedback: there is no next guess."""
