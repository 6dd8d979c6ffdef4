"""Feedback (the pattern) of a guess against an answer: the rule, its encodings, its table.

Rule (algorithms.md, "The game"): greens first; then, left to right, a non-green letter of
the guess is yellow while the answer still has an unmatched copy of that letter, else gray.

Encoding used across the project: ``code = sum(c_i * 3**i)`` with position 0 the first letter
and ``c = 0`` gray, ``1`` yellow, ``2`` green, so all green is ``ALL_GREEN = 242``. Text form:
five characters of ``b`` (gray), ``y`` (yellow), ``g`` (green), e.g. ``"bbygb"``.

This module is plain Python (no numba): the lookup tools import it. The numba kernel that
fills the whole table lives in :mod:`solver.game._feedback_kernel`; :func:`feedback_table` calls
it and caches the result on disk.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np

from solver.game.errors import FeedbackError

ALL_GREEN = 242
N_PATTERNS = 243
_LETTER_OF = "byg"
# Accepted spellings of one position, for parse_feedback: letters, digits, and the squares people paste.
_SYMBOL_VALUE = {
    "b": 0, "x": 0, "0": 0, "\u2b1b": 0, "\u2b1c": 0,  # ⬛ ⬜ gray
    "y": 1, "1": 1, "\U0001f7e8": 1,  # 🟨 yellow
    "g": 2, "2": 2, "\U0001f7e9": 2,  # 🟩 green
}


def feedback_code(guess: str, answer: str) -> int:
    """The feedback code (0..242) of ``guess`` against ``answer``; both five lowercase letters."""
    colours = [0] * 5
    unmatched: dict[str, int] = {}
    for i in range(5):
        if guess[i] == answer[i]:
            colours[i] = 2
        else:
            unmatched[answer[i]] = unmatched.get(answer[i], 0) + 1
    for i in range(5):
        if colours[i] == 0 and unmatched.get(guess[i], 0) > 0:
            colours[i] = 1
            unmatched[guess[i]] -= 1
    return sum(c * 3**i for i, c in enumerate(colours))


def code_to_text(code: int) -> str:
    """``code`` (0..242) as five of b/y/g, first letter first. Raises FeedbackError if out of range."""
    code = int(code)
    if not 0 <= code < N_PATTERNS:
        raise FeedbackError(f"feedback code {code} is not in 0..242")
    return "".join(_LETTER_OF[(code // 3**i) % 3] for i in range(5))


def parse_feedback(text: str) -> int:
    """Parse a feedback string into its code (0..242).

    Accepts five of ``b``/``y``/``g`` (any case), five digits ``0``/``1``/``2``, or the five
    squares people paste (⬛ or ⬜ gray, 🟨 yellow, 🟩 green). Raises :class:`FeedbackError`.
    """
    symbols = [ch for ch in str(text).strip().lower() if ch != "\ufe0f"]
    if len(symbols) != 5 or any(ch not in _SYMBOL_VALUE for ch in symbols):
        raise FeedbackError(
            f"feedback {text!r} is not five of b/y/g (gray/yellow/green), 0/1/2, or ⬛🟨🟩 squares"
        )
    return sum(_SYMBOL_VALUE[ch] * 3**i for i, ch in enumerate(symbols))


def words_to_letters(words) -> np.ndarray:
    """uint8 array of shape (len(words), 5): letters as 0..25."""
    raw = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
    return (raw.reshape(len(words), 5) - ord("a")).astype(np.uint8)


def cache_dir() -> Path:
    """Where feedback tables are cached: ``$EXACT_WORDLE_CACHE`` or ``~/.cache/exact-wordle``."""
    return Path(os.environ.get("EXACT_WORDLE_CACHE", Path.home() / ".cache" / "exact-wordle"))


def table_cache_path(word_list) -> Path:
    key = hashlib.sha256(
        f"feedback-v1:{word_list.guesses_sha256}:{word_list.answers_sha256}".encode()
    ).hexdigest()[:24]
    return cache_dir() / f"feedback-{key}.npy"


def feedback_table(word_list, use_cache: bool = True) -> np.ndarray:
    """The pattern table of a word list: uint8 array of shape (n_guesses, n_answers).

    ``table[g, a]`` is the feedback code of guess ``g`` against answer ``a`` (indices into the
    sorted lists). Cached on disk keyed by the sha256 of both lists, so a second call loads it
    (about 30 MB for the legacy lists) instead of recomputing; the write is atomic.
    """
    path = table_cache_path(word_list)
    if use_cache and path.exists():
        try:
            table = np.load(path, allow_pickle=False)
            if table.shape == (word_list.n_guesses, word_list.n_answers) and table.dtype == np.uint8:
                return table
        except (OSError, ValueError):
            pass  # a damaged cache file is recomputed and replaced
    from solver.game._feedback_kernel import feedback_table_kernel

    table = feedback_table_kernel(words_to_letters(word_list.guesses), words_to_letters(word_list.answers))
    if use_cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                np.save(handle, table, allow_pickle=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return table
