"""A policy written as a plain function of the game's history.

Most Wordle strategies outside this project are written as "given the guesses so far and their
colours, what next?". :class:`FunctionPolicy` makes such a function a
:class:`~solver.policies.base.Policy`, so that :func:`solver.evaluation.scoring.score_policy`
plays it against every answer and :func:`solver.evaluation.regret.decision_regrets` prices its
decisions against the optimum::

    def first_fit(history, answers):   # answers: the words still possible, in list order
        return answers[0]

    policy = FunctionPolicy(first_fit, word_list, table)

The function is called as ``fn(history)`` or, when it takes two arguments, ``fn(history,
answers)``: ``history`` a tuple of ``(guess, feedback)`` string pairs, first guess first, the
feedback as ``b``/``y``/``g`` letters (``("salet", "bbybb")``); ``answers`` a tuple of the
answers consistent with it. It returns a word of the guess list (or a guess index). Its
choice is scored as made: unlike the built-in policies it is not overridden when one answer
remains. In hard mode a guess that breaks a revealed hint raises :class:`PolicyFunctionError`
(the function sees the history, so it can keep the hints).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np

from solver.game.errors import InputError, UnknownWordError, short_repr
from solver.game.feedback import code_to_text
from solver.policies.base import Policy


class PolicyFunctionError(ValueError):
    """The function returned something that is not an allowed guess."""


class NotAPolicyError(InputError, TypeError):
    """What was given as a policy is not callable (nor a Policy or a registry name)."""


def _takes_answers(fn: Callable) -> bool:
    """Whether ``fn`` can be called with two positional arguments (history, answers)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin without a signature: one argument
        return False
    try:
        signature.bind(None, None)
    except TypeError:
        return False
    return True


class FunctionPolicy(Policy):
    """A policy from ``fn(history)`` or ``fn(history, answers)`` (module docstring).

    Args:
        fn: the function; it returns a guess word (any case) or a guess index.
        word_list: the :class:`solver.game.wordlists.WordList` it plays.
        table: its feedback table, uint8 or uint16[n_guesses, n_answers].
        name: the name in reports (default: the function's ``__name__``).
        deterministic: True (default) when the guess depends only on the history: the scorer
            then asks once per state of the policy's decision tree. False: game by game.

    :meth:`choose` is the agent protocol's (:mod:`solver.game.protocol`): the function sees
    the belief's history and its answers still possible.
    """

    def __init__(self, fn: Callable, word_list, table: np.ndarray, *, name: str | None = None,
                 deterministic: bool = True):
        if not callable(fn):
            raise NotAPolicyError(f"a policy is a function of the history, a Policy or a "
                                  f"registry name (mig_a, entropy, ...), not {short_repr(fn)}")
        super().__init__(word_list, table)
        self.fn = fn
        self.name = name or getattr(fn, "__name__", None) or type(fn).__name__
        self.deterministic = bool(deterministic)
        self._with_answers = _takes_answers(fn)

    def _decide(self, belief, seed: int | None) -> int:
        """Guess index the function plays after ``belief.history`` (``(guess index, feedback
        code)`` pairs), its answers still possible ``belief.state`` (sorted int32 answer
        indices); no one-left rule. Raises :class:`PolicyFunctionError` for a word not in the
        guess list, an index out of range, or (hard mode: ``belief.allowed`` set) a guess that
        breaks a hint revealed so far."""
        guess = self._call(belief)
        if not belief.is_allowed(guess):
            from solver.game.hard_mode import hard_mode_violation

            words = self.word_list.guesses
            played = [(words[g], int(code)) for g, code in belief.history]
            raise PolicyFunctionError(f"policy {self.name!r} returned {words[guess]!r} after "
                                      f"{[w for w, _ in played]}, which hard mode does not allow: "
                                      f"{hard_mode_violation(played, words[guess])}")
        return guess

    def _call(self, belief) -> int:
        """The function's guess index (checked to be a guess, not yet against hard mode)."""
        words = self.word_list.guesses
        length = self.word_list.word_length
        played = tuple((words[g], code_to_text(int(code), length)) for g, code in belief.history)
        if self._with_answers:
            answers = tuple(self.word_list.answers[int(a)] for a in belief.state)
            guess = self.fn(played, answers)
        else:
            guess = self.fn(played)
        if isinstance(guess, (int, np.integer)) and not isinstance(guess, bool):
            if not 0 <= int(guess) < self.word_list.n_guesses:
                raise PolicyFunctionError(f"policy {self.name!r} returned guess index {guess}, "
                                          f"out of range after {list(played)}")
            return int(guess)
        if not isinstance(guess, str):
            raise PolicyFunctionError(f"policy {self.name!r} returned {guess!r} after {list(played)}, "
                                      "not a word")
        try:
            return self.word_list.guess_index(guess)
        except UnknownWordError:
            raise PolicyFunctionError(f"policy {self.name!r} returned {guess!r} after {list(played)}, "
                                      f"which is not in the {self.word_list.name!r} guess list") from None

    def _choose(self, state, guesses_left, seed):  # pragma: no cover - _decide is overridden
        raise TypeError("a function policy chooses from the history")
