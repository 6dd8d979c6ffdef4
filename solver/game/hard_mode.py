"""The hard-mode rule in plain Python (docs/algorithms.md §10), for the lookup tools and the
artifact check; the solver filters guesses with the numba kernels of
:mod:`solver.game._hard_mode_kernel`, which implement the same rule.

Hard mode (the NYT rule): after a guess scored a feedback, every later guess must keep each
green letter in its position and contain each letter at least as many times as it was shown
green or yellow in that feedback. Gray letters may be reused; yellow letters may stay where
they were. A history's rules add up.
"""

from __future__ import annotations

import numpy as np

from solver.game.errors import HardModeError


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


def check_hard_mode_history(history) -> None:
    """Raise :class:`HardModeError` naming the first guess of ``history`` ((guess word, feedback
    code) pairs) that hard mode does not allow after the guesses before it."""
    history = [(str(g), int(c)) for g, c in history]
    for turn in range(1, len(history)):
        why = hard_mode_violation(history[:turn], history[turn][0])
        if why:
            raise HardModeError(f"guess {turn + 1} ({history[turn][0]}) is not allowed in hard "
                                f"mode: {why}")


def allowed_guesses(word_list, history) -> np.ndarray:
    """int32 indices of the guesses of ``word_list`` that hard mode allows after ``history``
    ((guess word, feedback code) pairs), ascending (every guess for an empty history)."""
    from solver.game._hard_mode_kernel import filter_allowed

    constraint = history_constraint(word_list, history)
    everything = np.arange(word_list.n_guesses, dtype=np.int32)
    out = np.empty_like(everything)
    count = filter_allowed(constraint, guess_letters(word_list), everything, out)
    return out[:count].copy()


def allowed_after(word_list, history) -> np.ndarray:
    """int32 guess indices hard mode allows after ``history`` (``(guess index, feedback code)``
    pairs, as a :class:`~solver.game.protocol.Belief` holds them), ascending."""
    words = word_list.guesses
    return allowed_guesses(word_list, [(words[int(g)], int(c)) for g, c in history])


def history_constraint(word_list, history) -> np.ndarray:
    """The constraint row (int8[WIDTH], :mod:`solver.game._hard_mode_kernel`) of ``history``."""
    from solver.game._hard_mode_kernel import history_constraint as kernel

    history = list(history)
    guesses = np.array([word_list.guess_index(g) for g, _ in history], dtype=np.int64)
    codes = np.array([int(c) for _, c in history], dtype=np.int64)
    return kernel(guess_letters(word_list), guesses, codes)


_LETTERS: dict[str, np.ndarray] = {}


def guess_letters(word_list) -> np.ndarray:
    """uint8[n_guesses, L]: the guesses' letters as 0..25 (computed once per guess list)."""
    from solver.game.feedback import words_to_letters

    key = word_list.guesses_sha256
    if key not in _LETTERS:
        _LETTERS.clear()
        _LETTERS[key] = words_to_letters(word_list.guesses)
    return _LETTERS[key]
