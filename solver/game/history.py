"""A game's history: the guesses played and the feedback each got, checked against a
:class:`~solver.game.spec.Game`, with the answers it leaves (the state) and the hard-mode
constraint it implies.

:meth:`History.parse` is the one parser of what a player or a caller writes for a history:

- a text, ``"salet:bbbby crane:bbbbb"`` (tokens ``word:feedback`` split by spaces or commas)
  or ``"salet bbbby crane bbbbb"`` (words and feedback alternating);
- an iterable of tokens (``["salet:bbbby", "crane:bbbbb"]``) or of ``(word, feedback)``
  pairs (``[("salet", "bbbby"), ("crane", 0)]``), the feedback as text (b/y/g, 0/1/2 or the
  shared squares ⬛⬜🟨🟩) or as a code ``0..3**L − 1`` (docs/algorithms.md §1.3);
- a :class:`History` (checked against the game again).

:meth:`History.from_record` reads a finished game as a player keeps it: the guesses in order,
each with its feedback, or with the answer (the feedback is computed), or with the emoji grid
the game shares (:func:`grid_rows`; a ``*`` after ``4/6`` in its header marks hard mode,
:func:`grid_mode`).

Errors are :class:`~solver.game.errors.InputError` subclasses naming the guess at fault.
Plain Python and numpy: the lookup tools import it without the search kernels.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import numpy as np

from solver.game.errors import FeedbackError, HistoryTokenError, InputError, short_repr as _short
from solver.game.feedback import (TableParts, answers_after, code_to_text, feedback_code,
                                  parse_feedback)
from solver.game.spec import MAX_GUESS_LIMIT, FeedbackRule, Game, Mode

#: The squares of a shared grid (black or white for gray, yellow, green).
_SQUARES = {"\u2b1b", "\u2b1c", "\U0001f7e8", "\U0001f7e9"}


def parse_history_token(token: str) -> tuple[str, int]:
    """``"salet:bbyyg"`` → ``("salet", code)``. The word is only lowercased, not checked
    against a list. Raises :class:`~solver.game.errors.HistoryTokenError` or
    :class:`~solver.game.errors.FeedbackError`."""
    word, sep, feedback = str(token).partition(":")
    word = word.strip().lower()
    if not sep or not word or not feedback.strip():
        raise HistoryTokenError(
            f"history token {token!r} is not word:feedback (e.g. salet:bbyyg, salet:00112 "
            "or salet:⬛⬛🟨🟨🟩)"
        )
    return word, parse_feedback(feedback, len(word))


#: What a history is, for the messages that refuse something else.
_HISTORY_FORMS = ("a text like 'salet:bbbby crane:bbbbb', or a sequence of word:feedback tokens "
                  "or of (word, feedback) pairs")



def _bounded(history, most: int) -> list:
    """The items of the iterable ``history`` as a list of at most ``most``: refused
    (HistoryTokenError) when it is not a sequence of steps (a number, None, bytes, a map, a
    set), InputError when it has more items (read no further than one past ``most``, so an
    endless iterator is refused too)."""
    if isinstance(history, (bytes, bytearray, dict, set, frozenset)):
        raise HistoryTokenError(f"a history is {_HISTORY_FORMS}, not a {type(history).__name__}")
    try:
        iterator = iter(history)
    except TypeError:
        raise HistoryTokenError(f"a history is {_HISTORY_FORMS}, not {_short(history)}") from None
    items = list(itertools.islice(iterator, most + 1))
    if len(items) > most:
        count = len(history) if hasattr(history, "__len__") else f"more than {most}"
        raise InputError(f"the history has {count} guesses, more than the limit of {most}")
    return items


def _step(word_list, turn: int, item) -> tuple[str, int]:
    """One item of a history as (guess word as listed, feedback code); InputError subclasses
    prefixed with ``guess <turn>:``."""
    length = word_list.word_length
    try:
        if isinstance(item, str):
            word, code = parse_history_token(item)
        else:
            if not isinstance(item, (tuple, list)) or len(item) != 2 or not isinstance(item[0], str):
                raise HistoryTokenError(f"{_short(item)} is neither a word:feedback token nor a "
                                        "(word, feedback) pair")
            word, feedback = item
            word = word.strip().lower()
            if isinstance(feedback, (int, np.integer)) and not isinstance(feedback, bool):
                code = int(feedback)
                code_to_text(code, length)  # raises FeedbackError when out of range
            elif isinstance(feedback, str):
                code = parse_feedback(feedback, length)
            else:
                raise FeedbackError(f"{word}: feedback {_short(feedback)} is neither text (five of "
                                    "b/y/g, 0/1/2 or squares) nor a code")
        word = word_list.guesses[word_list.guess_index(word)]
    except InputError as exc:
        raise type(exc)(f"guess {turn}: {exc}") from None
    return word, code


def _items(text: str) -> list:
    """A text history as tokens or (word, feedback) pairs (module docstring)."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not parts or all(":" in p for p in parts):
        return parts
    if any(":" in p for p in parts):
        raise InputError(f"the history {text!r} mixes word:feedback tokens and plain words; write "
                         "every guess as word:feedback (salet:bbbby crane:bbbbb)")
    if len(parts) % 2:
        raise InputError(f"the history {text!r} has {len(parts)} words: give each guess with its "
                         "feedback (salet bbbby crane bbbbb, or salet:bbbby crane:bbbbb)")
    return list(zip(parts[::2], parts[1::2]))


def _record_token(item) -> str:
    """One guess of a record: ``"word"``, ``"word:feedback"``, or a ``(word, feedback)`` pair
    as ``"word:feedback"`` (HistoryTokenError for anything else)."""
    if isinstance(item, str):
        return item.strip()
    if isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[0], str):
        word, feedback = item
        if isinstance(feedback, (int, np.integer)) and not isinstance(feedback, bool):
            feedback = code_to_text(int(feedback), len(word.strip()))
        if isinstance(feedback, str):
            return f"{word.strip()}:{feedback.strip()}"
    raise HistoryTokenError(f"{_short(item)} is neither a guess, a word:feedback token nor a "
                            "(word, feedback) pair")


def parse_steps(word_list, history, *, feedback: FeedbackRule = FeedbackRule.STANDARD,
                most: int = MAX_GUESS_LIMIT) -> tuple[tuple[str, int], ...]:
    """What a history is written as (module docstring) read as ``(guess word as listed,
    feedback code)`` pairs: each guess an allowed guess of ``word_list``, each feedback well
    formed for its length (under the Yellow rule no green unless all green, §10.4), at most
    ``most`` of them (read no further). The game's own rules (nothing after a win, hard mode's
    hints) are :meth:`History.parse`'s; a decision tree's lookups
    (:meth:`policy_tree.PolicyTree.normalise_history`) read histories with this too.

    Raises:
        HistoryTokenError, UnknownWordError, FeedbackError, InputError: the message names the
        guess at fault.
    """
    if isinstance(history, str):
        history = _items(history)
    length = word_list.word_length
    green = 3**length - 1
    steps: list[tuple[str, int]] = []
    for turn, item in enumerate(_bounded(history, most), start=1):
        word, code = _step(word_list, turn, item)
        if FeedbackRule(feedback) is FeedbackRule.YELLOW and code != green:
            from solver.game.feedback import shows_green

            if shows_green(code, length):
                raise FeedbackError(
                    f"guess {turn}: {word}:{code_to_text(code, length)} shows a green, but in "
                    "Yellow Wordle greens show as yellow unless the whole guess is right")
        steps.append((word, code))
    return tuple(steps)


@dataclass(frozen=True)
class History:
    """The guesses of one game and their feedback, checked against ``game``.

    Attributes:
        game: the :class:`~solver.game.spec.Game`.
        steps: ``(guess word as listed, feedback code)`` pairs, first guess first.

    Build it with :meth:`parse` or :meth:`from_record` (which check it); iterating gives the
    steps.
    """

    game: Game
    steps: tuple[tuple[str, int], ...] = ()

    # -- parsing ----------------------------------------------------------------------------
    @classmethod
    def parse(cls, game: Game, history=(), *, limit: bool = True) -> History:
        """``history`` (module docstring) checked against ``game``.

        Checks what ``history`` is (a text, or a sequence of tokens or ``(word, feedback)``
        pairs: a number, None, bytes, a map or a set is refused), each guess (an allowed guess
        of the lists) and feedback (well formed for the word length; under the Yellow rule no
        green unless all green, §10.4), that no guess follows an all-green feedback, that in
        hard mode every guess uses the hints before it (§10), in ultra-hard mode every guess
        is consistent with the feedback before it (§10.5), and that there are at most
        ``game.guess_limit`` guesses (a lost game has as many as the limit; without ``limit``,
        at most 255), read no further than that.

        Raises:
            HistoryTokenError, UnknownWordError, FeedbackError, HardModeError, InputError: the
            message names the guess at fault.
        """
        if isinstance(history, History):
            history = history.steps
        steps = parse_steps(game.word_list, history, feedback=game.feedback,
                            most=game.guess_limit if limit else MAX_GUESS_LIMIT)
        green = game.all_green
        for turn, ((_, before), (word, _)) in enumerate(zip(steps, steps[1:]), start=2):
            if before == green:
                raise FeedbackError(f"guess {turn} ({word}) follows an all-green feedback: the game "
                                    f"was already won at guess {turn - 1}")
        if game.mode is not Mode.NORMAL:
            from solver.game.hard_mode import check_mode_history

            check_mode_history(game.mode, steps)
        return cls(game, steps)

    @classmethod
    def from_record(cls, game: Game, guesses, *, answer: str | None = None,
                    grid: str | None = None) -> History:
        """A finished game as a player keeps it.

        Args:
            game: the game.
            guesses: the guesses in order, each ``"word"``, ``"word:feedback"`` or a
                ``(word, feedback)`` pair (a text is split at spaces and commas; a number,
                None, bytes, a map or a set is refused).
            answer: the answer, when known: the feedback of every plain word is computed from
                it, and any given feedback must agree with it.
            grid: the emoji grid the game shares: its rows are the feedback of the guesses.

        Every guess needs its feedback from one of the three. Raises InputError subclasses
        naming the guess at fault (an unknown word, feedback that disagrees with the answer or
        the grid, a row count that differs from the guesses, a guess with no feedback, no
        guess at all), then as :meth:`parse`.
        """
        if isinstance(guesses, str):
            guesses = re.split(r"[\s,]+", guesses)
        tokens = [t for t in map(_record_token, _bounded(guesses, MAX_GUESS_LIMIT)) if t]
        if not tokens:
            raise InputError("the game has no guesses: give them in order, e.g. salet crane bitty")
        word_list, length = game.word_list, game.word_length
        if answer is not None:
            answer = str(answer).strip().lower()
            word_list.guess_index(answer)  # an answer outside the answer list is a guess of the list
        rows = grid_rows(grid, length) if grid is not None else None
        if rows is not None and len(rows) != len(tokens):
            raise InputError(f"the grid has {len(rows)} rows but {len(tokens)} guesses were given")
        steps = []
        for turn, token in enumerate(tokens, start=1):
            word, sep, text = token.partition(":")
            word = word.strip().lower()
            try:
                word_list.guess_index(word)
                given = parse_feedback(text, length) if sep else None
            except InputError as exc:
                raise type(exc)(f"guess {turn}: {exc}") from None
            known = (("the grid", rows[turn - 1] if rows else None),
                     (f"the answer {answer!r}",
                      feedback_code(word, answer, game.feedback.value) if answer else None))
            for source, code in known:
                if code is None:
                    continue
                if given is not None and code != given:
                    raise FeedbackError(f"guess {turn} ({word}): the feedback "
                                        f"{code_to_text(given, length)} disagrees with {source}, "
                                        f"which gives {code_to_text(code, length)}")
                given = code
            if given is None:
                raise InputError(f"guess {turn} ({word}) has no feedback: write it as {word}:bbygb, "
                                 "or give the answer (--answer) or the grid (--grid)")
            steps.append((word, given))
        return cls.parse(game, steps)

    # -- what it implies --------------------------------------------------------------------
    def __iter__(self):
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def won(self) -> bool:
        """The last feedback is all green."""
        return bool(self.steps) and self.steps[-1][1] == self.game.all_green

    @property
    def guesses_left(self) -> int:
        """Guesses left within the game's limit (0 once a lost game used them all)."""
        return max(self.game.guess_limit - len(self.steps), 0)

    def tokens(self) -> list[str]:
        """``["salet:bbybb", ...]``."""
        return [f"{word}:{code_to_text(code, len(word))}" for word, code in self.steps]

    def state(self, table=None, *, strict: bool = True) -> np.ndarray:
        """int32 answer indices consistent with every step (the state), ascending.

        ``table``: the game's feedback table, whole or its
        :class:`~solver.game.feedback.TableParts` (omitted: the rows of the history's guesses,
        read from the cached table or computed). With ``strict`` a history no answer fits
        raises FeedbackError naming the first guess at which none is left; else the state is
        then empty."""
        if table is None:
            table = TableParts(self.game.word_list, self.game.feedback.value)
        word_list = self.game.word_list
        state = np.arange(word_list.n_answers, dtype=np.int32)
        for turn, (word, code) in enumerate(self.steps, start=1):
            state = answers_after(table, state, word_list.guess_index(word), code)
            if state.size == 0 and strict:
                raise FeedbackError(f"no answer fits the history: after guess {turn} "
                                    f"({word}:{code_to_text(code, self.game.word_length)}) none "
                                    "of the answers is left")
        return state

    def constraint(self) -> np.ndarray:
        """The hard-mode constraint the history implies (int8[WIDTH],
        :mod:`solver.game._hard_mode_kernel`): none in normal mode."""
        from solver.game._hard_mode_kernel import no_constraint
        from solver.game.hard_mode import history_constraint

        if self.game.mode is not Mode.HARD:
            return no_constraint()
        return history_constraint(self.game.word_list, self.steps)

    def allowed_guesses(self) -> np.ndarray:
        """int32 indices of the guesses allowed next, ascending: every guess in normal mode,
        those the history's hints allow in hard mode (§10), those consistent with its feedback
        in ultra-hard mode (§10.5)."""
        from solver.game.hard_mode import allowed_guesses

        return allowed_guesses(self.game.word_list, self.steps, self.game.mode)


def grid_rows(text: str, word_length: int = 5) -> list[int]:
    """The feedback codes of a shared emoji grid, first row first. Lines that are not a row of
    squares (the ``Wordle 1,234 4/6`` header, blank lines) are skipped. Raises FeedbackError
    when no row is found or a row has the wrong number of squares."""
    rows = []
    for number, line in enumerate(str(text).splitlines(), start=1):
        symbols = [ch for ch in line if ch not in " \t\ufe0f\r"]
        if not symbols or not any(ch in _SQUARES for ch in symbols):
            continue
        if len(symbols) != word_length or not all(ch in _SQUARES for ch in symbols):
            raise FeedbackError(f"grid line {number} ({line.strip()!r}) is not a row of "
                                f"{word_length} squares (⬛ or ⬜, 🟨, 🟩)")
        rows.append(parse_feedback("".join(symbols), word_length))
    if not rows:
        raise FeedbackError("the grid has no row of squares (⬛ or ⬜, 🟨, 🟩)")
    return rows


def grid_mode(text: str | None) -> Mode | None:
    """:attr:`Mode.HARD` when a shared grid's header marks hard mode (``Wordle 1,234 3/6*``,
    ``X/6*``), :attr:`Mode.NORMAL` for a header without the star, None when the text has no
    such header."""
    if text is None:
        return None
    match = re.search(r"\b([1-9X])/(\d+)(\*?)", str(text))
    if match is None:
        return None
    return Mode.HARD if match.group(3) else Mode.NORMAL
