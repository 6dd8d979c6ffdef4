"""Absurdle's rules, and the environment of one game against its adversary.

Absurdle (qntm) is Wordle against an adversary that commits to no answer (docs/algorithms.md
§13.1): it holds a set ``S`` of answers (the *state*; at the start every answer); after a guess
it partitions ``S`` by feedback and keeps the largest class, showing its pattern. Which of
several largest classes it keeps is the *tie rule* (:data:`TIE_RULES`). The player wins when
the kept class is the all-green one; under each rule here the all-green class (one word) loses
every tie, so a win means reducing ``S`` to a single word and then guessing it (§13.2).

:class:`AbsurdleEpisode` is the environment (the protocol of :mod:`solver.game.environments`:
``belief()``, ``step(guess)``, ``won``, ``history``); the exact search for the least forced win
is :mod:`solver.exact.absurdle`, an agent's game and its score
:mod:`solver.evaluation.absurdle_play`. The rules live here, in the game layer (the numba twin
of the kept class: :mod:`solver.game._absurdle_kernel`).
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np

from solver.game.errors import InputError
from solver.game.feedback import answers_after, code_to_text
from solver.game.environments import Board
from solver.game.spec import GUESS_LIMIT, n_patterns

class TieRule(StrEnum):
    """Which of several largest classes the adversary keeps (docs/algorithms.md §13.1)."""

    ADVERSARIAL = "adversarial"
    FEWEST_CLUES = "fewest-clues"
    LOWEST_CODE = "lowest-code"


#: Tie rules and what each keeps.
TIE_RULES = {
    TieRule.ADVERSARIAL: "the largest class worst for the player (the search branches over every "
                   "largest class: a win forced under this rule is forced under any rule)",
    TieRule.FEWEST_CLUES: "the largest class whose pattern has the fewest greens, then the fewest "
                    "yellows, then the lowest pattern code",
    TieRule.LOWEST_CODE: "the largest class of lowest pattern code (Σ c_i·3^i, docs/algorithms.md §1.3)",
}
DEFAULT_TIE = TieRule.ADVERSARIAL


class AbsurdleInputError(InputError, ValueError):
    """A tie rule, a guess limit, a reply or a history the Absurdle adversary cannot use."""


def check_tie(tie: str) -> TieRule:
    """The :class:`TieRule` ``tie`` names (a rule of :data:`TIE_RULES`); else AbsurdleInputError."""
    if not isinstance(tie, str) or tie not in TIE_RULES:
        raise AbsurdleInputError(f"unknown tie rule {tie!r}: choose one of {', '.join(TIE_RULES)}")
    return TieRule(tie)


def tie_priority(tie: str, word_length: int = 5) -> np.ndarray:
    """int32 array of shape (3**word_length,): the rank of each pattern code under a
    deterministic tie rule (the adversary keeps the largest class of lowest rank). For
    ``adversarial`` the ranks are those of ``lowest-code`` and only order the branches."""
    check_tie(tie)
    codes = np.arange(n_patterns(word_length), dtype=np.int64)
    if tie == TieRule.FEWEST_CLUES:
        digits = (codes[:, None] // 3 ** np.arange(word_length)) % 3
        greens = (digits == 2).sum(axis=1)
        yellows = (digits == 1).sum(axis=1)
        order = np.lexsort((codes, yellows, greens))
    else:
        order = codes
    priority = np.empty(codes.size, dtype=np.int32)
    priority[order] = np.arange(codes.size, dtype=np.int32)
    return priority


def kept_codes(table: np.ndarray, g: int, state: np.ndarray, tie: str, priority: np.ndarray
               ) -> list[int]:
    """The patterns the adversary may show after guess index ``g`` on ``state``: the one kept
    class's code under a deterministic rule, every largest class's code (by rank) under
    ``adversarial``."""
    codes, counts = np.unique(table[g, state], return_counts=True)
    largest = codes[counts == counts.max()]
    ranked = sorted((int(priority[c]), int(c)) for c in largest)
    return [c for _, c in ranked] if tie == TieRule.ADVERSARIAL else [ranked[0][1]]


class AbsurdleEpisode(Board):
    """One game against the Absurdle adversary under tie rule ``tie``.

    No answer is fixed in advance: after each guess the adversary keeps a largest class of the
    state (:func:`kept_codes`). Under a deterministic rule that class is fixed; under
    ``adversarial`` the adversary keeps the class worst for the player, which depends on how
    the player goes on: :meth:`replies` lists the candidates, and :meth:`step` takes the one to
    keep (``reply``; by default the first in the rule's order). A scorer follows every reply
    (:func:`solver.evaluation.absurdle_play.play_absurdle`).

    Args:
        word_list: the :class:`solver.game.wordlists.WordList`.
        table: feedback of every guess against every answer, uint8 or uint16[n_guesses, n_answers].
        tie: a rule of :data:`TIE_RULES`.
        guess_limit: guesses allowed (the belief's ``guesses_left`` counts down from it and is
            clamped at 1 past it; the game goes on until won).

    Attributes:
        state: sorted int32 answer indices the adversary still holds.
        history: ``(guess index, feedback code)`` pairs played. won: the all-green pattern was shown.

    Raises:
        AbsurdleInputError: an unknown tie rule.
    """

    def __init__(self, word_list, table: np.ndarray, tie: str = DEFAULT_TIE, *,
                 guess_limit: int = GUESS_LIMIT):
        self.tie = check_tie(tie)
        super().__init__(word_list, table, guess_limit=guess_limit)
        self.priority = tie_priority(tie, word_list.word_length)

    def replies(self, guess: int) -> list[int]:
        """The patterns the adversary may show after guess index ``guess``: one under a
        deterministic rule, every largest class's (in the rule's order) under ``adversarial``."""
        return kept_codes(self.table, self._check(guess), self.state, self.tie, self.priority)

    def step(self, guess: int, reply: int | None = None) -> int:
        """Play guess index ``guess``; the adversary shows ``reply`` (a pattern code among
        :meth:`replies`; None: the first of them). Returns the pattern shown.

        Raises:
            ValueError: an index out of range. RuntimeError: the game is won.
            AbsurdleInputError: ``reply`` is not a pattern the adversary shows (nothing is played).
        """
        allowed = self.replies(guess)
        code = allowed[0] if reply is None else int(reply)
        if code not in allowed:
            length = self.word_list.word_length
            shown = " or ".join(code_to_text(c, length) for c in allowed)
            raise AbsurdleInputError(
                f"guess {self.guesses + 1} ({self.word_list.guesses[int(guess)]}:{code_to_text(code, length)}): "
                f"the adversary (tie rule {self.tie}) would not show this pattern; it shows {shown}")
        guess = int(guess)
        self.history.append((guess, code))
        self.state = answers_after(self.table, self.state, guess, code)
        self.won = code == self.green
        return code

    def copy(self) -> AbsurdleEpisode:
        """An independent game at the same point (to follow another reply)."""
        twin = object.__new__(AbsurdleEpisode)
        twin.__dict__.update(self.__dict__)
        twin.history = list(self.history)
        return twin
