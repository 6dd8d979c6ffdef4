"""The game: its word lists, word length, feedback rule, guess limit, mode, objective, priors.

Every layer takes these from a :class:`Game` instead of hard-coding Wordle's
(5 letters, 243 patterns, all-green 242, 6 guesses). The feedback code of a guess against an
answer is ``Σ c_i · 3**i`` over the L positions (docs/algorithms.md §1.3), so a game of word
length L has ``3**L`` patterns and the all-green code ``3**L − 1``; codes are stored as uint8
while ``3**L ≤ 256`` (L ≤ 5) and as uint16 up to L = 10.

Plain Python, no numba: the lookup tools import it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

import numpy as np

from solver.game.errors import InputError

if TYPE_CHECKING:  # the word lists import this module's bounds
    from solver.game.priors import Priors
    from solver.game.wordlists import WordList

#: Word lengths the project supports (uint16 codes hold 3**10 = 59049 patterns).
MIN_WORD_LENGTH = 2
MAX_WORD_LENGTH = 10
#: Wordle's guess limit.
GUESS_LIMIT = 6
#: The largest guess limit any search supports (the memo key keeps 8 bits for it).
MAX_GUESS_LIMIT = 255


class FeedbackRule(StrEnum):
    """Feedback rules: the standard green/yellow/gray rule of docs/algorithms.md §1.2, and Yellow
    Wordle's (every green shown as yellow unless the guess is right, §10.4)."""

    STANDARD = "standard"
    YELLOW = "yellow"


class Mode(StrEnum):
    """Play modes: ``normal`` (any allowed guess at any time), ``hard`` (the NYT hard mode,
    docs/algorithms.md §10.1) or ``ultra`` (ultra-hard: every guess after the first could be
    the answer given all feedback so far, §10.5). The value's index is the mode id in the
    search's memo key."""

    NORMAL = "normal"
    HARD = "hard"
    ULTRA = "ultra"


class Objective(StrEnum):
    """Objectives of the exact solver (docs/algorithms.md §2.1, §2.2, §2.5): ``total`` (Σ guesses
    over the answers) or ``worst`` (the most guesses any answer needs), which the search
    minimises (the value's index in :data:`SEARCH_OBJECTIVES` is the objective id the search
    kernel takes); and the lexicographic objectives built over them (§2.5): ``total,worst``
    (the least total, then among those trees the least worst case), ``total,tail`` (the least
    total, then the fewest games at the deepest level, then the next level up, …) and
    ``worst,total`` (the least worst case, then the least total)."""

    TOTAL = "total"
    WORST = "worst"
    TOTAL_WORST = "total,worst"
    TOTAL_TAIL = "total,tail"
    WORST_TOTAL = "worst,total"

    @property
    def primary(self) -> Objective:
        """The objective minimised first, :attr:`TOTAL` or :attr:`WORST` (itself for those)."""
        return Objective(self.value.split(",")[0])

    @property
    def lexicographic(self) -> bool:
        """Whether a second key breaks the primary objective's ties (§2.5)."""
        return "," in self.value


#: The names each option takes (what a command line offers as choices).
FEEDBACK_RULES = tuple(rule.value for rule in FeedbackRule)
MODES = tuple(mode.value for mode in Mode)
OBJECTIVES = tuple(objective.value for objective in Objective)
#: The objectives the search kernel minimises directly (the others are built over them).
SEARCH_OBJECTIVES = tuple(objective.value for objective in Objective if not objective.lexicographic)


def _member(kind: type[StrEnum], value, name: str):
    """``value`` (a member or its name) as a member of ``kind``; InputError listing the choices."""
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(member.value for member in kind)
        raise InputError(f"unknown {name} {value!r}; choose one of {choices}") from None


def as_mode(value) -> Mode:
    """``value`` (a :class:`Mode` or its name) as a Mode, as :class:`Game` reads it; InputError
    listing the choices (for a caller that checks the mode before it has the lists)."""
    return _member(Mode, value, "mode")


def n_patterns(word_length: int) -> int:
    """Number of feedback patterns of a word length: ``3**word_length``."""
    return 3 ** int(word_length)


def all_green(word_length: int) -> int:
    """The all-green feedback code of a word length: ``3**word_length − 1``."""
    return 3 ** int(word_length) - 1


def code_dtype(word_length: int) -> np.dtype:
    """numpy dtype that holds every feedback code: uint8 up to L = 5, else uint16."""
    return np.dtype(np.uint8) if n_patterns(word_length) <= 256 else np.dtype(np.uint16)


@dataclass(frozen=True, eq=False, repr=False)
class Game:
    """A game, validated once, as every layer of the project takes it: the word lists, the
    guess limit, the feedback rule, the play mode, the objective and the answers' priors.

    Built at the boundary (the API's functions, the command-line tools) from the user's words
    and option names; every layer below takes the ``Game`` and compares its members
    (:class:`Mode`, :class:`Objective`, :class:`FeedbackRule`), never strings. The option
    fields accept a member or its name (``mode="hard"``) and store the member.

    Attributes:
        word_list: the :class:`~solver.game.wordlists.WordList` (answers and allowed guesses);
            its word length is the game's (``MIN_WORD_LENGTH``..``MAX_WORD_LENGTH``).
        guess_limit: a game is lost when this many guesses did not find the answer (Wordle: 6),
            1..``MAX_GUESS_LIMIT``.
        feedback: the :class:`FeedbackRule`.
        mode: the :class:`Mode`.
        objective: the :class:`Objective` the exact solver minimises.
        priors: :class:`solver.game.priors.Priors` weighting the answers (the total objective
            then minimises the expected guesses, §10.3), or None (every answer equally likely).

    Two games are equal when their lists (by identity, :attr:`WordList.identity`), options and
    priors (by sha256) are.

    Raises:
        InputError: a value out of range or an unknown name (the message lists the choices);
            hard or ultra-hard mode under a feedback rule other than the standard one (hard
            mode reads its greens); priors of another list, or with an objective other than the total.
    """

    word_list: WordList
    guess_limit: int = GUESS_LIMIT
    feedback: FeedbackRule = FeedbackRule.STANDARD
    mode: Mode = Mode.NORMAL
    objective: Objective = Objective.TOTAL
    priors: Priors | None = None

    def __post_init__(self):
        word_length = self.word_list.word_length
        if not MIN_WORD_LENGTH <= word_length <= MAX_WORD_LENGTH:
            raise InputError(f"word length must be {MIN_WORD_LENGTH}..{MAX_WORD_LENGTH}, got {word_length!r}")
        if (isinstance(self.guess_limit, bool) or not isinstance(self.guess_limit, (int, np.integer))
                or not 1 <= self.guess_limit <= MAX_GUESS_LIMIT):
            raise InputError(f"guess limit must be 1..{MAX_GUESS_LIMIT}, got {self.guess_limit!r}")
        object.__setattr__(self, "guess_limit", int(self.guess_limit))
        object.__setattr__(self, "feedback", _member(FeedbackRule, self.feedback, "feedback rule"))
        object.__setattr__(self, "mode", _member(Mode, self.mode, "mode"))
        object.__setattr__(self, "objective", _member(Objective, self.objective, "objective"))
        if self.mode is Mode.HARD and self.feedback is not FeedbackRule.STANDARD:
            raise InputError(f"hard mode reads the greens of the standard feedback; it cannot be "
                             f"combined with the {self.feedback} feedback rule")
        if self.mode is Mode.ULTRA and self.feedback is not FeedbackRule.STANDARD:
            raise InputError(f"ultra-hard mode scores guesses against guesses with the standard "
                             f"feedback; it cannot be combined with the {self.feedback} feedback rule")
        if self.priors is not None:
            if len(self.priors.weights) != self.word_list.n_answers:
                raise InputError(f"the priors have {len(self.priors.weights)} weights for "
                                 f"{self.word_list.n_answers} answers")
            if self.objective is not Objective.TOTAL:
                raise InputError(f"priors weight the total objective; the '{self.objective}' "
                                 "objective takes none")

    def _key(self) -> tuple:
        return (self.word_list.identity, self.guess_limit, self.feedback, self.mode,
                self.objective, None if self.priors is None else self.priors.sha256)

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        priors = None if self.priors is None else self.priors.sha256[:12]
        return (f"Game({self.word_list.name!r}, guess_limit={self.guess_limit}, "
                f"feedback={self.feedback.value!r}, mode={self.mode.value!r}, "
                f"objective={self.objective.value!r}, priors={priors!r})")

    @property
    def word_length(self) -> int:
        """Letters per word."""
        return self.word_list.word_length

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
    def hard(self) -> bool:
        """Hard mode: every guess must use the hints revealed so far."""
        return self.mode is Mode.HARD

    @property
    def ultra(self) -> bool:
        """Ultra-hard mode: every guess must be consistent with all feedback so far."""
        return self.mode is Mode.ULTRA

    @property
    def restricted(self) -> bool:
        """Hard or ultra-hard mode: the guesses allowed depend on the history."""
        return self.mode is not Mode.NORMAL

    @property
    def objective_id(self) -> int:
        """The objective as the small integer the search kernel is specialised on; InputError
        for a lexicographic objective, which only :func:`solver.exact.bellman.solve` builds
        (over its primary objective's search)."""
        if self.objective.lexicographic:
            raise InputError(f"the '{self.objective}' objective builds a whole tree "
                             "(tools.solve); this search takes 'total' or 'worst'")
        return SEARCH_OBJECTIVES.index(self.objective)

    @property
    def mode_id(self) -> int:
        """The mode as a small integer (part of the memo key)."""
        return MODES.index(self.mode)

    def replace(self, **changes) -> Game:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)
