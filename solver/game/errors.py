"""Errors raised for bad input anywhere in the project.

Every error a user can cause by what they pass in (a word list, a word, a feedback string,
an artifact) derives from :class:`InputError`; the command-line tools map it to exit status 2
in one place (``solver/cli/_cli.py``). A solver outcome is not bad input:
:class:`UnwinnableError` (no policy wins every game in time) has its own exit status, 3. The
failures of a run that are nobody's input (:class:`WriteFailedError`, :class:`WorkerLost`)
exit with status 1. Programming errors are left as ordinary exceptions.
"""

from __future__ import annotations


class InputError(Exception):
    """Base class of every error caused by the user's input (exit status 2 in the CLI)."""


def short_repr(value, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters (with an ellipsis): how a message quotes
    a value it refuses, so a huge one does not flood the line."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


class WordListError(InputError, ValueError):
    """A word list file is malformed: names the file and, where there is one, the line."""


class UnknownWordError(InputError, KeyError):
    """A word is not in the word list it must belong to."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class FeedbackError(InputError, ValueError):
    """A feedback string is malformed, or no remaining answer can produce it."""


class HistoryTokenError(InputError, ValueError):
    """A history token is not ``word:feedback``."""


class OutputError(InputError):
    """An output path that cannot be used: a directory where a file is asked for (or the
    reverse), a parent that cannot be created, a place that cannot be written, or a name
    reserved for another word list. Raised before any work starts (exit status 2)."""


class CacheError(InputError):
    """The user cache directory (``$EXACT_WORDLE_CACHE``, or ``~/.cache/exact-wordle``) cannot
    be created or written; the message says how to point it elsewhere (exit status 2)."""


class UnwinnableError(Exception):
    """No policy wins every game within the guess limit from this opener or state: an answer
    of the solver about well-formed input, not bad input (exit status 3 in the CLI; the web
    page answers 422). Raised by the exact solver (:mod:`solver.exact.bellman`)."""


class WorkerLost(RuntimeError):
    """A worker process died before it finished its task: killed from outside (``kill -9``, the
    out-of-memory killer) or crashed. The run stops instead of waiting for a result that will
    never come (:mod:`solver.exact.executor`); the message says how the worker ended, and a
    run that journals its work adds what was kept (a rerun resumes from it). Not an
    :class:`InputError`: the command-line tools print it as one line and exit with status 1;
    the web server answers 503 ("try again")."""


class WriteFailedError(OSError):
    """A write that failed after the work was done; the message names the file, the reason and
    where the finished work is kept (a journal), so a rerun with a good path finishes quickly.
    Not an :class:`InputError`: the command-line tools exit with status 1."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class ActionError(InputError, ValueError):
    """An environment's action that is not a guess index of its lists (a ValueError too, as
    Gymnasium's environments raise for an action outside their space)."""


class HardModeError(InputError, ValueError):
    """A guess that hard mode does not allow after the history before it (names the guess,
    the turn and the hint it ignores)."""


class PriorsError(InputError, ValueError):
    """A priors file (answer weights) is malformed: names the file and line, or the word."""


class VariantError(InputError, ValueError):
    """A vocabulary variant that cannot be generated (a fraction outside (0, 1], a negative
    seed, sizes that do not fit): the message names the setting and its allowed range."""


class MissingExtraError(InputError, ImportError):
    """An optional dependency (an *extra* of the package) is not installed."""


def require_extra(module: str, extra: str, purpose: str) -> None:
    """Raise :class:`MissingExtraError` naming the ``pip install`` that adds ``module`` when it
    cannot be imported: ``purpose`` says what needs it ("the web page")."""
    import importlib.util

    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a finder that refuses it, a broken install
        found = False
    if not found:
        raise MissingExtraError(f"{purpose} needs the {module!r} package, which is not installed: "
                                f"pip install 'exact-wordle[{extra}]'")


class UserNotice(UserWarning):
    """A warning meant for the user of a tool (a damaged journal set aside, say): the
    command-line tools print it as one line, ``warning: <message>``, on stderr
    (``tools/_cli.py``)."""
