"""Errors raised for bad input anywhere in the project.

Every error a user can cause by what they pass in (a word list, a word, a feedback string,
an artifact) derives from :class:`InputError`; the command-line tools map it to exit status 2
in one place (``tools/_cli.py``). Programming errors are left as ordinary exceptions.
"""

from __future__ import annotations


class InputError(Exception):
    """Base class of every error caused by the user's input (exit status 2 in the CLI)."""


class WordListError(InputError, ValueError):
    """A word list file is malformed: names the file and, where there is one, the line."""


class UnknownWordError(InputError, KeyError):
    """A word is not in the word list it must belong to."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class FeedbackError(InputError, ValueError):
    """A feedback string is malformed, or no remaining answer can produce it."""
