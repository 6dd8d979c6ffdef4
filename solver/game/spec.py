"""The rules of one game: word length, feedback patterns, guess limit, mode, objective.

Every layer takes these numbers from a :class:`GameSpec` instead of hard-coding Wordle's
(5 letters, 243 patterns, all-green 242, 6 guesses). The feedback code of a guess against an
answer is ``Σ c_i · 3**i`` over the L positions (docs/algorithms.md §1.3), so a game of word
length L has ``3**L`` patterns and the all-green code ``3**L − 1``; codes are stored as uint8
while ``3**L ≤ 256`` (L ≤ 5) and as uint16 up to L = 10.

Plain Python, no numba: the lookup tools import it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.game.errors import InputError

#: Word lengths the project supports (uint16 codes hold 3**10 = 59049 patterns).
MIN_WORD_LENGTH = 2
MAX_WORD_LENGTH = 10
#: Wordle's guess limit.
GUESS_LIMIT = 6
#: The largest guess limit any search supports (the memo key keeps 8 bits for it).
MAX_GUESS_LIMIT = 255
#: Feedback rules: the standard green/yellow/gray rule of docs/algorithms.md §1.2, and Yellow
#: Wordle's (every green shown as yellow unless the guess is right, §10.4).
FEEDBACK_RULES = ("standard", "yellow")
#: Play modes ("normal": any allowed guess at any time; "hard": the NYT hard mode, docs/algorithms.md §10).
MODES = ("normal", "hard")
#: Objectives of the exact solver (docs/algorithms.md §2.1 and §2.2).
OBJECTIVES = ("total", "worst")


def n_patterns(word_length: int) -> int:
    """Number of feedback patterns of a word length: ``3**word_length``."""
    return 3 ** int(word_length)


def all_green(word_length: int) -> int:
    """The all-green feedback code of a word length: ``3**word_length − 1``."""
    return 3 ** int(word_length) - 1


def code_dtype(word_length: int) -> np.dtype:
    """numpy dtype that holds every feedback code: uint8 up to L = 5, else uint16."""
    return np.dtype(np.uint8) if n_patterns(word_length) <= 256 else np.dtype(np.uint16)


@dataclass(frozen=True)
class GameSpec:
    """What a game is, for every layer of the project.

    Attributes:
        word_length: letters per word, ``MIN_WORD_LENGTH``..``MAX_WORD_LENGTH`` (Wordle: 5).
        guess_limit: a game is lost when this many guesses did not find the answer (Wordle: 6).
        feedback: the feedback rule, one of ``FEEDBACK_RULES``.
        mode: the play mode, one of ``MODES``.
        objective: what the exact solver minimises, one of ``OBJECTIVES``: ``"total"``
            (Σ guesses over answers) or ``"worst"`` (the maximum number of guesses).

    Raises:
        InputError: a value out of range or an unknown name (the message lists the choices).
    """

    word_length: int = 5
    guess_limit: int = GUESS_LIMIT
    feedback: str = "standard"
    mode: str = "normal"
    objective: str = "total"

    def __post_init__(self):
        if not isinstance(self.word_length, int) or not MIN_WORD_LENGTH <= self.word_length <= MAX_WORD_LENGTH:
            raise InputError(f"word length must be {MIN_WORD_LENGTH}..{MAX_WORD_LENGTH}, got {self.word_length!r}")
        if not isinstance(self.guess_limit, int) or not 1 <= self.guess_limit <= MAX_GUESS_LIMIT:
            raise InputError(f"guess limit must be 1..{MAX_GUESS_LIMIT}, got {self.guess_limit!r}")
        for name, value, choices in (("feedback rule", self.feedback, FEEDBACK_RULES),
                                     ("mode", self.mode, MODES),
                                     ("objective", self.objective, OBJECTIVES)):
            if value not in choices:
                raise InputError(f"unknown {name} {value!r}; choose one of {', '.join(choices)}")

    @property
    def n_patterns(self) -> int:
        """``3**word_length`` feedback patterns."""
        return n_patterns(self.word_length)

    @property
    def all_green(self) -> int:
        """The feedback code of a correct guess, ``3**word_length − 1``."""
        return all_green(self.word_length)

    @property
    def code_dtype(self) -> np.dtype:
        """dtype of the feedback table and of a tree's edge feedback (uint8 or uint16)."""
        return code_dtype(self.word_length)

    @property
    def objective_id(self) -> int:
        """The objective as the small integer the search kernel is specialised on."""
        return OBJECTIVES.index(self.objective)

    @property
    def mode_id(self) -> int:
        """The mode as a small integer (part of the memo key)."""
        return MODES.index(self.mode)

    def replace(self, **changes) -> GameSpec:
        """A copy with some fields changed (validated again)."""
        fields = {name: getattr(self, name) for name in self.__dataclass_fields__}
        fields.update(changes)
        return GameSpec(**fields)


#: Wordle as the NYT plays it in normal mode, scored by total guesses.
WORDLE = GameSpec()
