"""Feedback (the pattern) of a guess against an answer: the rule, its encodings, its table.

Rule (docs/algorithms.md §1.2): greens first; then, left to right, a non-green letter of
the guess is yellow while the answer still has an unmatched copy of that letter, else gray.

Encoding used across the project (docs/algorithms.md §1.3): ``code = sum(c_i * 3**i)`` over
the L positions, position 0 the first letter, ``c = 0`` gray, ``1`` yellow, ``2`` green, so all
green is ``3**L − 1`` (``ALL_GREEN = 242`` for Wordle's five letters). Text form: L characters
of ``b`` (gray), ``y`` (yellow), ``g`` (green), e.g. ``"bbygb"``. The word length is a
parameter everywhere (default 5); see :mod:`solver.game.spec`.

Yellow Wordle (``feedback="yellow"``, docs/algorithms.md §10.4) shows every green as yellow
except on a correct guess, which still shows all green and ends the game: its codes are the
standard codes passed through :func:`yellow_code` (same 0..3**L − 1 space, only b/y digits but
for all-green), so every kernel reads a yellow table unchanged.

This module is plain Python (no numba): the lookup tools import it. The numba kernel that
fills the whole table lives in :mod:`solver.game._feedback_kernel`; :func:`feedback_table` calls
it and caches the result on disk.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import numpy as np

from solver.game.errors import FeedbackError, short_repr
from solver.game.files import cache_dir, usable_cache_dir, write_atomic  # cache_dir: re-exported
from solver.game.spec import FEEDBACK_RULES, FeedbackRule, all_green, code_dtype, n_patterns

#: Wordle's (five letters) all-green code and pattern count; other lengths: solver.game.spec.
ALL_GREEN = all_green(5)
N_PATTERNS = n_patterns(5)
_LETTER_OF = "byg"
# Accepted spellings of one position, for parse_feedback: letters, digits, and the squares people paste.
_SYMBOL_VALUE = {
    "b": 0, "x": 0, "0": 0, "\u2b1b": 0, "\u2b1c": 0,  # ⬛ ⬜ gray
    "y": 1, "1": 1, "\U0001f7e8": 1,  # 🟨 yellow
    "g": 2, "2": 2, "\U0001f7e9": 2,  # 🟩 green
}


def check_feedback_rule(feedback: str) -> str:
    """``feedback`` if it names a rule of ``FEEDBACK_RULES``; else raises FeedbackError (one
    line listing the rules)."""
    if feedback not in FEEDBACK_RULES:
        raise FeedbackError(f"unknown feedback rule {feedback!r}; choose one of {', '.join(FEEDBACK_RULES)}")
    return feedback


def yellow_code(code: int, word_length: int = 5) -> int:
    """The Yellow Wordle code of a standard code: every green digit (2) becomes yellow (1),
    except in the all-green code ``3**L − 1``, which is kept (a correct guess wins)."""
    code = int(code)
    if code == all_green(word_length):
        return code
    out = 0
    for i in range(word_length):
        digit = (code // 3**i) % 3
        out += (1 if digit == 2 else digit) * 3**i
    return out


def yellow_lookup(word_length: int = 5) -> np.ndarray:
    """:func:`yellow_code` of every code 0..3**L − 1, as an array of shape (3**L,) and dtype
    :func:`~solver.game.spec.code_dtype` (index a standard table with it: ``lookup[table]``)."""
    codes = np.arange(n_patterns(word_length), dtype=np.int64)
    digits = (codes[:, None] // 3 ** np.arange(word_length, dtype=np.int64)) % 3
    mapped = (np.minimum(digits, 1) * 3 ** np.arange(word_length, dtype=np.int64)).sum(axis=1)
    mapped[-1] = all_green(word_length)
    return mapped.astype(code_dtype(word_length))


def shows_green(code: int, word_length: int = 5) -> bool:
    """Whether ``code`` has a green digit without being all green: impossible in Yellow Wordle."""
    code = int(code)
    return code != all_green(word_length) and any(
        (code // 3**i) % 3 == 2 for i in range(word_length))


def feedback_code(guess: str, answer: str, feedback: str = "standard") -> int:
    """The feedback code (0..3**L − 1) of ``guess`` against ``answer``, two words of one length L,
    under the rule ``feedback`` (``"standard"`` or ``"yellow"``; FeedbackError for another)."""
    if feedback != FeedbackRule.STANDARD:
        check_feedback_rule(feedback)  # "yellow", the one other rule
        return yellow_code(feedback_code(guess, answer), len(guess))
    length = len(guess)
    colours = [0] * length
    unmatched: dict[str, int] = {}
    for i in range(length):
        if guess[i] == answer[i]:
            colours[i] = 2
        else:
            unmatched[answer[i]] = unmatched.get(answer[i], 0) + 1
    for i in range(length):
        if colours[i] == 0 and unmatched.get(guess[i], 0) > 0:
            colours[i] = 1
            unmatched[guess[i]] -= 1
    return sum(c * 3**i for i, c in enumerate(colours))


def answers_after(table: np.ndarray, state: np.ndarray, guess: int, code: int) -> np.ndarray:
    """The answers of ``state`` left after ``guess`` got feedback ``code``: those of ``state``
    that give ``code`` to ``guess`` (int32 answer indices, in ``state``'s order; possibly none).
    ``table`` is the game's feedback table (``table[guess, answer]``, :func:`feedback_table`),
    ``guess`` a guess index."""
    return state[table[guess, state] == code]


def code_to_text(code: int, word_length: int = 5) -> str:
    """``code`` (0..3**L − 1) as L of b/y/g, first letter first. Raises FeedbackError if out of range."""
    code = int(code)
    if not 0 <= code < n_patterns(word_length):
        raise FeedbackError(f"feedback code {code} is not in 0..{n_patterns(word_length) - 1}")
    return "".join(_LETTER_OF[(code // 3**i) % 3] for i in range(word_length))


_NUMBER_WORDS = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def parse_feedback(text: str, word_length: int = 5) -> int:
    """Parse a feedback string into its code (0..3**L − 1, L = ``word_length``).

    Accepts L of ``b``/``y``/``g`` (any case), L digits ``0``/``1``/``2``, or the L squares
    people paste (⬛ or ⬜ gray, 🟨 yellow, 🟩 green). Raises :class:`FeedbackError`.
    """
    symbols = [ch for ch in str(text).strip().lower() if ch != "\ufe0f"]
    if len(symbols) != word_length or any(ch not in _SYMBOL_VALUE for ch in symbols):
        count = _NUMBER_WORDS.get(word_length, str(word_length))
        raise FeedbackError(
            f"feedback {short_repr(text)} is not {count} of b/y/g (gray/yellow/green), 0/1/2, or ⬛🟨🟩 squares"
        )
    return sum(_SYMBOL_VALUE[ch] * 3**i for i, ch in enumerate(symbols))


def feedback_classes(row: np.ndarray, state: np.ndarray, word_length: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """How one guess splits a state: its feedback classes, by the solver's own partition
    kernel (:func:`solver.game._partition_kernel.partition`, loaded on the first call).

    Args:
        row: the guess's row of the feedback table, shape (n_answers,), uint8 or uint16.
        state: the answers' indices, int32 array of shape (n,), ascending.
        word_length: L (the codes are 0..3**L − 1).

    Returns:
        ``(codes, sizes)``: the feedback codes present, ascending (int64, shape (k,)), and the
        number of answers each leaves (int64, shape (k,), summing to n).
    """
    from solver.game._partition_kernel import partition

    state = np.ascontiguousarray(state, dtype=np.int32)
    width = n_patterns(word_length)
    counts = np.zeros(width, dtype=np.int64)
    members = np.empty(len(state), dtype=np.int32)
    starts = np.zeros(width + 1, dtype=np.int64)
    present = np.zeros(width, dtype=np.int64)
    k = partition(row, state, counts, members, starts, present)
    return present[:k].copy(), np.diff(starts[:k + 1])


def words_to_letters(words) -> np.ndarray:
    """uint8 array of shape (len(words), L): letters as 0..25 (all words of one length L)."""
    words = list(words)
    length = len(words[0]) if words else 5
    raw = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
    return (raw.reshape(len(words), length) - ord("a")).astype(np.uint8)


def table_cache_path(word_list, feedback: str = "standard") -> Path:
    """Where :func:`feedback_table` caches the table of ``word_list`` under the rule
    ``feedback``: a ``.npy`` file in :func:`solver.game.files.cache_dir` keyed by the sha256 of
    both lists and by the rule (the standard table's key is unchanged by the rule's name, so a
    yellow table never shares a file with a standard one)."""
    check_feedback_rule(feedback)
    rule = "" if feedback == FeedbackRule.STANDARD else f"{feedback}:"
    key = hashlib.sha256(
        f"feedback-v1:{rule}{word_list.guesses_sha256}:{word_list.answers_sha256}".encode()
    ).hexdigest()[:24]
    return cache_dir() / f"feedback-{rule.rstrip(':') + '-' if rule else ''}{key}.npy"


def feedback_table(word_list, use_cache: bool = True, feedback: str = "standard") -> np.ndarray:
    """The pattern table of a word list: array of shape (n_guesses, n_answers), dtype uint8
    for words of up to 5 letters, uint16 for longer ones (:func:`solver.game.spec.code_dtype`).

    ``table[g, a]`` is the feedback code of guess ``g`` against answer ``a`` (indices into the
    sorted lists). Cached on disk keyed by the sha256 of both lists, so a second call loads it
    (about 30 MB for the legacy lists) instead of recomputing; the write is atomic.
    ``feedback="yellow"``: the Yellow Wordle table, the standard one mapped by
    :func:`yellow_lookup`, cached in its own file (:func:`table_cache_path`).

    Raises:
        FeedbackError: an unknown rule.
        CacheError: ``use_cache`` and the table is not cached yet, but the cache directory
            cannot be created or written (checked before the table is computed).
    """
    path = table_cache_path(word_list, feedback)
    if use_cache and path.exists():
        try:
            # mapped copy-on-write, not read: a small state touches a few of its 30 MB, and the
            # pages read are shared with other processes (an ordinary writable ndarray)
            table = np.load(path, allow_pickle=False, mmap_mode="c").view(np.ndarray)
            if (table.shape == (word_list.n_guesses, word_list.n_answers)
                    and table.dtype == code_dtype(word_list.word_length)):
                return table
        except (OSError, ValueError):
            pass  # a damaged cache file is recomputed and replaced
    if use_cache:
        usable_cache_dir()
    if feedback == FeedbackRule.YELLOW:
        table = yellow_lookup(word_list.word_length)[feedback_table(word_list, use_cache)]
    else:
        from solver.game._feedback_kernel import feedback_table_kernel

        table = np.empty((word_list.n_guesses, word_list.n_answers),
                         dtype=code_dtype(word_list.word_length))
        feedback_table_kernel(words_to_letters(word_list.guesses),
                              words_to_letters(word_list.answers), table)
    if use_cache:
        buffer = io.BytesIO()
        np.save(buffer, table, allow_pickle=False)
        write_atomic(path, buffer.getvalue())
    return table
