"""Skill and luck on a 0–99 scale, from a game analysis's exact regret and luck.

The analysis (:mod:`solver.evaluation.analysis`) prices every move in expected guesses: its
finite regret ``r ≥ 0`` (0 for an optimal move) and its luck ``ℓ`` (positive: the feedback
left fewer guesses to go than the move's expectation). A player reads a score at a glance;
these map the exact figures to whole numbers 0–99 with one half-scale ``H`` (half a guess),
in exact rational arithmetic (no float rounding at a boundary):

- **skill** ``⌊99 · H / (H + r)⌋``: 99 exactly for optimal play (``r = 0``), at most 98 for
  any regret, 49 at half a guess of regret, 33 at a whole guess, towards 0 as ``r`` grows;
- **luck** ``⌊99 · (1/2 + ℓ / (2 (H + |ℓ|))) + 1/2⌋``: 50 for feedback exactly as good as
  expected (``ℓ = 0``), 74 at half a guess of luck, 25 at half a guess of bad luck, towards
  99 and 0 as ``|ℓ|`` grows.

Both are monotone (a larger regret never scores more skill; more luck never scores less) and
use the same scale per move and per game (the game's total regret and total luck). Why this
shape: it is bounded without a cut-off (every regret, however large, still ranks), it is
linear near 0 where most moves are (a tenth of a guess costs 17 points of skill), and
it needs no fitted constant but the half-scale. A figure known only within a proven interval
(an analysis under a time budget) is scored at its least favourable end, so the score is a
proven bound on the exact one: skill from the regret's upper end, luck from the luck's lower
end (0 when that end is unbounded).
"""

from __future__ import annotations

import math
from fractions import Fraction

#: The half-scale: the regret (in expected guesses) that halves the skill score, and the luck
#: that moves the luck score halfway from 50 to 99.
HALF = Fraction(1, 2)
#: The top of the scale: optimal play's skill.
TOP = 99


def skill_score(regret: Fraction | int) -> int:
    """The 0–99 skill score of a regret ≥ 0 in expected guesses (module docstring).

    Raises:
        ValueError: a negative regret.
    """
    regret = Fraction(regret)
    if regret < 0:
        raise ValueError(f"a regret is never negative, got {regret}")
    return math.floor(TOP * HALF / (HALF + regret))


def luck_score(luck: Fraction | int) -> int:
    """The 0–99 luck score of a luck in expected guesses (module docstring)."""
    luck = Fraction(luck)
    share = Fraction(1, 2) + luck / (2 * (HALF + abs(luck)))
    return math.floor(TOP * share + Fraction(1, 2))


def _score_of_bounds(score, exact: Fraction | None, bounds, end: int) -> int | None:
    """``score`` of the exact figure, else of its proven interval ``bounds`` = (lower, upper)
    at index ``end``, the end least favourable to the player (module docstring), so a proven
    lower bound on the exact score; 0 when that end is unbounded (None); None when nothing
    is known."""
    if exact is not None:
        return score(exact)
    if bounds is None:
        return None
    return 0 if bounds[end] is None else score(bounds[end])


def skill_of_bounds(regret: Fraction | None, bounds) -> int | None:
    """The skill score of an exact regret, else of its proven interval's upper end (a proven
    lower bound on the exact score; 0 with no upper end); None when nothing is known."""
    if bounds is not None and bounds[1] is not None:  # a regret is never negative
        bounds = (bounds[0], max(bounds[1], Fraction(0)))
    return _score_of_bounds(skill_score, regret, bounds, 1)


def luck_of_bounds(luck: Fraction | None, bounds) -> int | None:
    """The luck score of an exact luck, else of its proven interval's lower end (a proven
    lower bound on the exact score; 0 with no lower end); None when nothing is known."""
    return _score_of_bounds(luck_score, luck, bounds, 0)
