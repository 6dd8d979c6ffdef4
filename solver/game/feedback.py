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

This module is plain Python (no numba): the lookup tools import it. The numba kernels that
fill the table live in :mod:`solver.game._feedback_kernel`: :func:`feedback_table` computes the
whole table (12,972 guesses × 2,315 answers for the legacy lists, in parallel) and caches it on
disk, for whole-tree solves and proofs; a question about one state needs only parts of it —
the rows of the history's guesses, the columns of the state's answers — which
:class:`TableParts` (:func:`feedback_rows`, :func:`feedback_columns`) reads from the cached
table when there is one, else computes alone.

The cached table (:func:`table_cache_path`, a ``.npy`` file; the yellow rule's in its own
file) carries a crc32 of every row and of every column (:mod:`solver.game.checked_table`),
and every read checks what it reads: the whole table all its rows (about 15 ms for the
legacy lists), a part only its rows or columns, so a question stays as fast as before. A
file that fails a check, has no checksums (one cached before they existed) or is not the
table it should be is never used: it is computed again and replaced, atomically.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from solver.game.checked_table import CheckedTable, DamagedTableError, load_checked, write_table
from solver.game.errors import CacheError, FeedbackError, short_repr
from solver.game.files import cache_dir, usable_cache_dir  # cache_dir: re-exported
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


def answers_after(table, state: np.ndarray, guess: int, code: int) -> np.ndarray:
    """The answers of ``state`` left after ``guess`` got feedback ``code``: those of ``state``
    that give ``code`` to ``guess`` (int32 answer indices, in ``state``'s order; possibly none).
    ``table`` is the game's feedback table (``table[guess, answer]``, :func:`feedback_table`)
    or its :class:`TableParts` (only the guess's codes against ``state`` are read), ``guess``
    a guess index."""
    codes = table.codes(guess, state) if isinstance(table, TableParts) else table[guess, state]
    return state[codes == code]


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
    yellow table never shares a file with a standard one), with the checksums of its rows and
    columns after the array (:mod:`solver.game.checked_table`)."""
    check_feedback_rule(feedback)
    rule = "" if feedback == FeedbackRule.STANDARD else f"{feedback}:"
    key = hashlib.sha256(
        f"feedback-v1:{rule}{word_list.guesses_sha256}:{word_list.answers_sha256}".encode()
    ).hexdigest()[:24]
    return cache_dir() / f"feedback-{rule.rstrip(':') + '-' if rule else ''}{key}.npy"


def open_cached_table(word_list, feedback: str = "standard") -> CheckedTable | None:
    """The table :func:`feedback_table` cached for ``word_list`` under the rule ``feedback``,
    memory-mapped copy-on-write, as a :class:`~solver.game.checked_table.CheckedTable` whose
    reads check the rows or columns they read; None when the cache has no such file or it is
    not an intact table file of these lists (unreadable, no checksums, wrong shape or dtype).
    Raises FeedbackError for an unknown rule."""
    # mapped copy-on-write, not read: a small state touches a few of its 30 MB, and the pages
    # read are shared with other processes (an ordinary writable ndarray)
    return CheckedTable.open(table_cache_path(word_list, feedback),
                             (word_list.n_guesses, word_list.n_answers),
                             code_dtype(word_list.word_length))


def cached_feedback_table(word_list, feedback: str = "standard") -> np.ndarray | None:
    """The table :func:`feedback_table` cached for ``word_list`` under the rule ``feedback``,
    every row checked against its checksum, memory-mapped copy-on-write (shape (n_guesses,
    n_answers), dtype :func:`~solver.game.spec.code_dtype`: an ordinary writable ndarray), or
    None when the cache has no such file or it is damaged (:func:`open_cached_table`, or a row
    that does not match its checksum). Raises FeedbackError for an unknown rule."""
    return load_checked(table_cache_path(word_list, feedback),
                        (word_list.n_guesses, word_list.n_answers), code_dtype(word_list.word_length))


def feedback_table(word_list, use_cache: bool = True, feedback: str = "standard") -> np.ndarray:
    """The pattern table of a word list: array of shape (n_guesses, n_answers), dtype uint8
    for words of up to 5 letters, uint16 for longer ones (:func:`solver.game.spec.code_dtype`).

    ``table[g, a]`` is the feedback code of guess ``g`` against answer ``a`` (indices into the
    sorted lists). Cached on disk keyed by the sha256 of both lists, so a second call loads it
    (about 30 MB for the legacy lists) instead of recomputing; the write is atomic, and a
    cached table is used only when every row matches its checksum (else computed again and
    replaced: :func:`cached_feedback_table`).
    ``feedback="yellow"``: the Yellow Wordle table, the standard one mapped by
    :func:`yellow_lookup`, cached in its own file (:func:`table_cache_path`). The whole table
    is for whole-tree solves and proofs; a question about one state reads parts of it
    (:class:`TableParts`).

    Raises:
        FeedbackError: an unknown rule.
        CacheError: ``use_cache`` and the table is not cached yet, but the cache directory
            cannot be created or written (checked before the table is computed).
    """
    if use_cache:
        table = cached_feedback_table(word_list, feedback)
        if table is not None:
            return table
        usable_cache_dir()
    else:
        check_feedback_rule(feedback)
    if feedback == FeedbackRule.YELLOW:
        table = yellow_lookup(word_list.word_length)[feedback_table(word_list, use_cache)]
    else:
        from solver.game._feedback_kernel import feedback_table_kernel

        table = np.empty((word_list.n_guesses, word_list.n_answers),
                         dtype=code_dtype(word_list.word_length))
        feedback_table_kernel(words_to_letters(word_list.guesses),
                              words_to_letters(word_list.answers), table)
    if use_cache:
        write_table(table_cache_path(word_list, feedback), table)
    return table


#: A part of more than this share of the table (guesses × answers) is the whole table's work:
#: :class:`TableParts` builds the whole table then (in parallel, and cached), not the part.
WHOLE_SHARE = 0.5
#: A part of at most this many codes is computed by :func:`feedback_code` (about 6 µs a code,
#: so 60 ms at most) rather than the kernel: a fresh process that needs no other kernel — a
#: book lookup — would spend about a second importing numba and loading the kernel.
PLAIN_MOST = 10_000


def check_given_table(word_list, table) -> np.ndarray:
    """``table`` if it can be the feedback table of ``word_list``: an array of shape
    (n_guesses, n_answers) and dtype :func:`~solver.game.spec.code_dtype`, every code at most
    all green, and all green where an answer is guessed (a guess always wins on itself). The
    search indexes its counts by these codes and takes that win as given: a table that breaks
    either would make it read out of bounds. O(n_guesses × n_answers) reads, once.

    Raises:
        FeedbackError: naming what does not fit (an InputError)."""
    length = word_list.word_length
    shape = (word_list.n_guesses, word_list.n_answers)
    if not isinstance(table, np.ndarray) or table.shape != shape or table.dtype != code_dtype(length):
        given = (f"shape {table.shape}, dtype {table.dtype}" if isinstance(table, np.ndarray)
                 else type(table).__name__)
        raise FeedbackError(f"the feedback table given does not fit the lists {word_list.name!r}: "
                            f"{given}; they need shape {shape}, dtype {code_dtype(length)}")
    green = all_green(length)
    answers = np.arange(word_list.n_answers)
    own = table[word_list.answer_guess_index, answers]
    if (own != green).any():
        a = int(np.flatnonzero(own != green)[0])
        word = word_list.answers[a]
        raise FeedbackError(f"the feedback table given is not one of the lists {word_list.name!r}: "
                            f"guess {word!r} against answer {word!r} has code {int(own[a])}, not "
                            f"all green ({green})")
    if table.size and int(table.max()) > green:
        raise FeedbackError(f"the feedback table given is not one of the lists {word_list.name!r}: "
                            f"a code is {int(table.max())}, more than all green ({green})")
    return table


class TableParts:
    """The feedback table of a word list under a rule, read in the parts a question needs.

    A question about a state reads a few of the table's codes: a book lookup the codes of the
    history's guesses and of the tree's guesses against the answers that reach them
    (:meth:`codes`), a search of the state its columns (:meth:`columns`). Each part is cut
    from the whole table when there is one — given, built by :meth:`whole`, or cached on disk
    (:func:`open_cached_table`, memory-mapped; looked for again on each read until found, so a
    table another process caches is then used) — and else computed alone, nothing written: by
    :func:`feedback_code` when it has at most :data:`PLAIN_MOST` codes (no numba to load),
    else by :func:`solver.game._feedback_kernel.feedback_part_kernel` (one thread: no thread
    pool to start). A block of more than :data:`WHOLE_SHARE` of the table is read from the
    whole table, built then by :func:`feedback_table` (and cached). Whole or in parts, the
    codes are the same.

    A read of the cached table checks the rows or columns it reads against their checksums
    (:class:`~solver.game.checked_table.CheckedTable`). A cached file that fails, or is there
    but not an intact table file, is never read from: the whole table is built again and
    replaces it (:func:`feedback_table`; where the cache cannot be written, it is built for
    this object alone), and the part is cut from that.

    Args:
        word_list: the :class:`~solver.game.wordlists.WordList`.
        feedback: the rule, ``"standard"`` or ``"yellow"``.
        table: the whole table of that rule, when the caller has it (then only sliced).

    Raises:
        FeedbackError: an unknown rule.
    """

    def __init__(self, word_list, feedback: str = "standard", table: np.ndarray | None = None):
        self.word_list = word_list
        self.feedback = check_feedback_rule(feedback)
        self._path = table_cache_path(word_list, feedback)
        # the whole table (given, checked once here, or built: trusted) or the cached one (its
        # reads checked)
        self._table: CheckedTable | None = (None if table is None
                                            else CheckedTable.trusted(check_given_table(word_list, table)))
        self._letters: tuple[np.ndarray, np.ndarray] | None = None
        # a yellow part is the standard part mapped (as the whole yellow table is)
        self._standard = TableParts(word_list) if feedback == FeedbackRule.YELLOW else None

    @classmethod
    def of(cls, word_list, feedback: str, table) -> TableParts:
        """``table`` if it is a TableParts already, else the TableParts of ``word_list`` under
        ``feedback`` over ``table`` (a whole table, checked by :func:`check_given_table`; None:
        the cached one). Raises FeedbackError as the constructor does."""
        return table if isinstance(table, TableParts) else cls(word_list, feedback, table)

    def whole(self) -> np.ndarray:
        """The whole table, shape (n_guesses, n_answers): the one given, or
        :func:`feedback_table` (cached and checked, or built in parallel and cached; CacheError
        when it cannot be), kept."""
        if self._table is not None:
            try:
                return self._table.whole()
            except DamagedTableError:
                pass  # feedback_table builds it again and replaces the file
        self._table = CheckedTable.trusted(feedback_table(self.word_list, feedback=self.feedback))
        return self._table.array

    def rows(self, guesses) -> np.ndarray:
        """The rows of ``guesses`` (guess indices, shape (k,)): C-contiguous array of shape
        (k, n_answers) and the table's dtype, ``rows[i, a]`` the code of ``guesses[i]``
        against answer ``a``. Raises IndexError for an index out of range."""
        return self._block(self._indices(guesses, self.word_list.n_guesses, "guess").reshape(-1), None)

    def columns(self, answers) -> np.ndarray:
        """The columns of ``answers`` (answer indices, shape (k,)): C-contiguous array of shape
        (n_guesses, k) and the table's dtype, ``columns[g, j]`` the code of guess ``g`` against
        ``answers[j]``. Raises IndexError for an index out of range."""
        return self._block(None, self._indices(answers, self.word_list.n_answers, "answer").reshape(-1))

    def codes(self, guesses, answers) -> np.ndarray:
        """``table[guesses, answers]``, element by element: the codes of guesses (indices)
        against answers (indices), arrays of one shape or broadcast to one (one guess against
        many answers: ``codes(g, state)``), in the table's dtype and that shape. Raises
        IndexError for an index out of range."""
        guesses, answers = np.broadcast_arrays(
            self._indices(guesses, self.word_list.n_guesses, "guess"),
            self._indices(answers, self.word_list.n_answers, "answer"))
        codes = self._read(lambda table: table.codes(guesses, answers))
        if codes is not None:
            return codes
        if self._standard is not None:
            return yellow_lookup(self.word_list.word_length)[self._standard.codes(guesses, answers)]
        if guesses.size <= PLAIN_MOST:
            return self._plain(guesses, answers)
        # many codes: the rows of their guesses, by the kernel
        distinct, row = np.unique(guesses, return_inverse=True)
        return self._block(distinct, None)[row.reshape(guesses.shape), answers]

    @staticmethod
    def _indices(indices, size: int, kind: str) -> np.ndarray:
        indices = np.asarray(indices, dtype=np.int64)
        if indices.ndim > 1:
            raise IndexError(f"{kind} indices must be one index or a flat array of them")
        if indices.size and (indices.min() < 0 or indices.max() >= size):
            bad = int(indices[(indices < 0) | (indices >= size)].reshape(-1)[0])
            raise IndexError(f"{kind} index {bad} is not in 0..{size - 1}")
        return indices

    def _cached(self) -> CheckedTable | None:
        """The whole table if this object has it, else the cached one if the cache holds it
        (a file there that is not an intact table file is built again: :meth:`_rebuilt`),
        else None."""
        if self._table is None and self._path.exists():
            self._table = open_cached_table(self.word_list, self.feedback) or self._rebuilt()
        return self._table

    def _read(self, read):
        """``read(table)`` of the table :meth:`_cached` gives, or None when there is none; a
        part that does not match its checksum is read from the table built again instead."""
        table = self._cached()
        if table is None:
            return None
        try:
            return read(table)
        except DamagedTableError:
            return read(self._rebuilt())

    def _rebuilt(self) -> CheckedTable:
        """The cached file is damaged: the whole table built again, which replaces it
        (:func:`feedback_table`); where the cache cannot take it, built for this object alone.
        Kept, and returned."""
        try:
            table = feedback_table(self.word_list, feedback=self.feedback)
        except (CacheError, OSError):
            table = feedback_table(self.word_list, use_cache=False, feedback=self.feedback)
        self._table = CheckedTable.trusted(table)
        return self._table

    def _plain(self, guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
        """:func:`feedback_code` of each (guess, answer) pair of two index arrays of one shape."""
        guess_words, answer_words = self.word_list.guesses, self.word_list.answers
        codes = [feedback_code(guess_words[g], answer_words[a])
                 for g, a in zip(guesses.reshape(-1).tolist(), answers.reshape(-1).tolist())]
        return np.array(codes, dtype=code_dtype(self.word_list.word_length)).reshape(guesses.shape)

    def _block(self, guesses: np.ndarray | None, answers: np.ndarray | None) -> np.ndarray:
        """``table[guesses][:, answers]`` (None: all of them), C-contiguous."""
        word_list = self.word_list
        n_rows = word_list.n_guesses if guesses is None else len(guesses)
        n_columns = word_list.n_answers if answers is None else len(answers)

        def read(table: CheckedTable) -> np.ndarray:
            if guesses is None:
                return np.ascontiguousarray(table.whole()) if answers is None else table.columns(answers)
            block = table.rows(guesses)
            return block if answers is None else np.ascontiguousarray(block[:, answers])

        block = self._read(read)
        if block is None and n_rows * n_columns > WHOLE_SHARE * word_list.n_guesses * word_list.n_answers:
            self.whole()
            block = self._read(read)
        if block is not None:
            return block
        if self._standard is not None:
            return yellow_lookup(word_list.word_length)[self._standard._block(guesses, answers)]
        guesses = np.arange(n_rows) if guesses is None else guesses
        answers = np.arange(n_columns) if answers is None else answers
        if n_rows * n_columns <= PLAIN_MOST:
            return self._plain(*np.meshgrid(guesses, answers, indexing="ij"))
        from solver.game._feedback_kernel import feedback_part_kernel

        if self._letters is None:
            self._letters = (words_to_letters(word_list.guesses), words_to_letters(word_list.answers))
        block = np.empty((n_rows, n_columns), dtype=code_dtype(word_list.word_length))
        return feedback_part_kernel(self._letters[0][guesses], self._letters[1][answers], block)


def feedback_rows(word_list, guesses, feedback: str = "standard") -> np.ndarray:
    """Rows of ``word_list``'s feedback table under the rule ``feedback``: the codes of
    ``guesses`` (guess indices, shape (k,)) against every answer, a C-contiguous array of
    shape (k, n_answers) and dtype :func:`~solver.game.spec.code_dtype` (``feedback_table(...)
    [guesses]``). Read from the cached table when there is one, else computed for just these
    rows (:class:`TableParts`; nothing written).

    Raises:
        FeedbackError: an unknown rule.
        IndexError: a guess index out of range.
    """
    return TableParts(word_list, feedback).rows(guesses)


def feedback_columns(word_list, answers, feedback: str = "standard") -> np.ndarray:
    """Columns of ``word_list``'s feedback table under the rule ``feedback``: the codes of
    every guess against ``answers`` (answer indices, shape (k,)), a C-contiguous array of
    shape (n_guesses, k) and dtype :func:`~solver.game.spec.code_dtype` (``feedback_table(...)
    [:, answers]``). Read from the cached table when there is one, else computed for just
    these columns (:class:`TableParts`; nothing written).

    Raises:
        FeedbackError: an unknown rule.
        IndexError: an answer index out of range.
    """
    return TableParts(word_list, feedback).columns(answers)
