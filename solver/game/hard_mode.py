"""The hard-mode and ultra-hard-mode rules in plain Python (docs/algorithms.md §10.1, §10.5),
for the lookup tools and the artifact check; the solver filters guesses with the numba kernels
of :mod:`solver.game._hard_mode_kernel`, which implement the same rules.

Hard mode (the NYT rule): after a guess scored a feedback, every later guess must keep each
green letter in its position and contain each letter at least as many times as it was shown
green or yellow in that feedback. Gray letters may be reused; yellow letters may stay where
they were. A history's rules add up.

Ultra-hard mode (the rule of Selby's solver's ``-U`` option): every guess after the first
must be consistent with all feedback so far: had it been the answer, each earlier guess would
have scored exactly the feedback it did. Any allowed word may be played, not only an answer
of the list. A guess consistent with a feedback keeps its greens and shows its yellows, so
ultra-hard mode allows a subset of what hard mode allows.
"""

from __future__ import annotations

import numpy as np

from solver.game.errors import HardModeError
from solver.game.spec import Mode

#: How messages name the modes that restrict the guesses.
MODE_NAMES = {Mode.HARD: "hard mode", Mode.ULTRA: "ultra-hard mode"}


def hard_mode_violation(history, guess: str) -> str | None:
    """Why ``guess`` breaks hard mode after ``history`` ((guess word, feedback code) pairs), in
    words ("position 2 must stay 'a'", "it must contain 'e' twice"), or None if it is allowed."""
    for previous, code in history:
        length = len(previous)
        shown: dict[str, int] = {}
        for i in range(length):
            colour = (int(code) // 3**i) % 3
            if colour == 2 and guess[i] != previous[i]:
                return f"position {i + 1} must stay {previous[i]!r}"
            if colour:
                shown[previous[i]] = shown.get(previous[i], 0) + 1
        for letter, count in shown.items():
            if guess.count(letter) < count:
                times = "" if count == 1 else " twice" if count == 2 else f" {count} times"
                return f"it must contain {letter!r}{times}"
    return None


def ultra_violation(history, guess: str) -> str | None:
    """Why ``guess`` breaks ultra-hard mode after ``history`` ((guess word, feedback code)
    pairs), in words naming the first earlier guess whose feedback it contradicts ("had it been
    the answer, salet would have shown bbbbg, not bbbbb"), or None if it is allowed."""
    from solver.game.feedback import code_to_text, feedback_code

    for previous, code in history:
        shown = feedback_code(previous, guess)
        if shown != int(code):
            length = len(previous)
            return (f"had it been the answer, {previous} would have shown "
                    f"{code_to_text(shown, length)}, not {code_to_text(int(code), length)}")
    return None


def mode_violation(mode, history, guess: str) -> str | None:
    """Why ``guess`` breaks the rule of ``mode`` (a :class:`~solver.game.spec.Mode` or its
    name) after ``history`` ((guess word, feedback code) pairs), or None if it is allowed
    (always None in normal mode)."""
    mode = Mode(mode)
    if mode is Mode.HARD:
        return hard_mode_violation(history, guess)
    if mode is Mode.ULTRA:
        return ultra_violation(history, guess)
    return None


def check_mode_history(mode, history) -> None:
    """Raise :class:`HardModeError` naming the first guess of ``history`` ((guess word,
    feedback code) pairs) that ``mode`` (hard or ultra-hard) does not allow after the guesses
    before it, and why."""
    mode = Mode(mode)
    history = [(str(g), int(c)) for g, c in history]
    for turn in range(1, len(history)):
        why = mode_violation(mode, history[:turn], history[turn][0])
        if why:
            raise HardModeError(f"guess {turn + 1} ({history[turn][0]}) is not allowed in "
                                f"{MODE_NAMES.get(mode, mode.value)}: {why}")


def check_hard_mode_history(history) -> None:
    """Raise :class:`HardModeError` naming the first guess of ``history`` ((guess word, feedback
    code) pairs) that hard mode does not allow after the guesses before it."""
    check_mode_history(Mode.HARD, history)


def allowed_guesses(word_list, history, mode=Mode.HARD) -> np.ndarray:
    """int32 indices of the guesses of ``word_list`` that ``mode`` (hard, the default, or
    ultra-hard; every guess in normal mode) allows after ``history`` ((guess word, feedback
    code) pairs), ascending (every guess for an empty history)."""
    from solver.game._hard_mode_kernel import filter_allowed_packed, filter_consistent

    mode = Mode(mode)
    everything = np.arange(word_list.n_guesses, dtype=np.int32)
    if mode is Mode.NORMAL:
        return everything
    letters = guess_letters(word_list)
    if mode is Mode.ULTRA:
        allowed = everything
        for word, code in history:
            out = np.empty_like(allowed)
            count = filter_consistent(letters, word_list.guess_index(word), int(code), allowed, out)
            allowed = out[:count].copy()
        return allowed
    constraint = history_constraint(word_list, history)
    out = np.empty_like(everything)
    count = filter_allowed_packed(constraint, packed_guesses(word_list), letters.shape[1], everything, out)
    return out[:count].copy()


def allowed_after(word_list, history, mode=Mode.HARD) -> np.ndarray:
    """int32 guess indices ``mode`` (hard by default, or ultra-hard) allows after ``history``
    (``(guess index, feedback code)`` pairs, as a :class:`~solver.game.protocol.Belief` holds
    them), ascending."""
    words = word_list.guesses
    return allowed_guesses(word_list, [(words[int(g)], int(c)) for g, c in history], mode)


def history_constraint(word_list, history) -> np.ndarray:
    """The constraint row (int8[WIDTH], :mod:`solver.game._hard_mode_kernel`) of ``history``."""
    from solver.game._hard_mode_kernel import history_constraint as kernel

    history = list(history)
    guesses = np.array([word_list.guess_index(g) for g, _ in history], dtype=np.int64)
    codes = np.array([int(c) for _, c in history], dtype=np.int64)
    return kernel(guess_letters(word_list), guesses, codes)


_LETTERS: dict[str, np.ndarray] = {}
_PACKED: dict[str, np.ndarray] = {}


def _once_per_list(cache: dict, word_list, compute) -> np.ndarray:
    """``compute()`` for the newest guess list only: kept in ``cache`` under the list's hash."""
    key = word_list.guesses_sha256
    if key not in cache:
        cache.clear()
        cache[key] = compute()
    return cache[key]


def guess_letters(word_list) -> np.ndarray:
    """uint8[n_guesses, L]: the guesses' letters as 0..25 (computed once per guess list)."""
    from solver.game.feedback import words_to_letters

    return _once_per_list(_LETTERS, word_list, lambda: words_to_letters(word_list.guesses))


def packed_guesses(word_list) -> np.ndarray:
    """uint64[n_guesses, PACKED_WORDS]: the guesses packed for the search's hard-mode filter
    (:func:`solver.game._hard_mode_kernel.pack_words`; computed once per guess list)."""
    from solver.game._hard_mode_kernel import pack_words

    return _once_per_list(_PACKED, word_list, lambda: pack_words(guess_letters(word_list)))
