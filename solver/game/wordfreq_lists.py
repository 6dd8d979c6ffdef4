"""Word lists of other lengths built from the wordfreq package's English word frequencies.

The shipped lists ``wordfreq-4``, ``wordfreq-6`` and ``wordfreq-7`` (``solver/data/``) are the
output of :func:`build_lists` with the thresholds of :data:`RECIPES`; ``python -m
tools.make_wordlists`` writes them and ``--check`` rebuilds and compares them.

The recipe for word length L:

1. Candidates: the words of ``wordfreq.iter_wordlist("en")`` (wordfreq's English list, already
   lowercased) that are ``L`` ASCII letters ``a``–``z`` and nothing else.
2. Each candidate's Zipf frequency is ``log10(f) + 9`` for its frequency ``f`` from
   ``wordfreq.get_frequency_dict("en")`` (occurrences per word of text, as
   ``wordfreq.zipf_frequency`` but unrounded).
3. Guesses: the candidates with Zipf frequency ≥ ``guess_zipf``.
4. Answers: the ``n_answers`` most frequent candidates (frequency descending, ties by the word
   in alphabetical order, so the cut is deterministic); a subset of the guesses, as every
   answer's frequency is at least ``guess_zipf`` (checked).

Nothing else is filtered: the lists keep what a frequency list holds, so proper nouns that
are written in lowercase in wordfreq's data (e.g. ``sara``, ``troy``, ``harvey``), plurals,
inflections, abbreviations written as words and slang appear among answers and guesses. The
lists are reproducible only with the same wordfreq data (:data:`WORDFREQ_VERSION` built the
shipped files).

Plain Python (no numba); wordfreq is imported when a list is built.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solver.game.errors import InputError

#: The wordfreq release whose data built the shipped lists.
WORDFREQ_VERSION = "3.1.1"
#: The language of the frequencies.
LANGUAGE = "en"


@dataclass(frozen=True)
class Recipe:
    """Thresholds of one shipped list.

    Attributes:
        word_length: letters per word.
        n_answers: the answers are this many most frequent candidates.
        guess_zipf: the guesses are the candidates with Zipf frequency ≥ this.
    """

    word_length: int
    n_answers: int
    guess_zipf: float

    @property
    def name(self) -> str:
        """The shipped list's name, ``wordfreq-<L>``."""
        return f"wordfreq-{self.word_length}"


#: The shipped lists' recipes, by word length.
RECIPES = {
    4: Recipe(4, 1000, 3.0),
    6: Recipe(6, 2000, 2.5),
    7: Recipe(7, 2000, 2.5),
}


def zipf_frequencies(word_length: int) -> dict[str, float]:
    """Zipf frequency (``log10(f) + 9``, unrounded) of every candidate of ``word_length``
    letters: wordfreq's English words made of exactly that many ASCII letters a–z.

    Returns a dict word → float, in wordfreq's order (frequency descending).
    Raises :class:`InputError` for a word length below 1.
    """
    if not isinstance(word_length, int) or word_length < 1:
        raise InputError(f"word length must be a positive integer, got {word_length!r}")
    from solver.game.errors import require_extra

    require_extra("wordfreq", "wordfreq", "building word lists from wordfreq")
    from wordfreq import get_frequency_dict, iter_wordlist

    frequencies = get_frequency_dict(LANGUAGE)
    return {w: math.log10(frequencies[w]) + 9.0 for w in iter_wordlist(LANGUAGE)
            if len(w) == word_length and w.isascii() and w.isalpha() and w.islower()}


def build_lists(word_length: int, n_answers: int, guess_zipf: float) -> tuple[list[str], list[str]]:
    """The (answers, guesses) of the recipe in the module docstring, each sorted alphabetically.

    Args:
        word_length: letters per word (≥ 1).
        n_answers: how many of the most frequent candidates are answers (≥ 1).
        guess_zipf: the Zipf frequency a candidate needs to be a guess.

    Returns:
        (answers, guesses): two sorted lists of lowercase str, answers ⊆ guesses,
        ``len(answers) == n_answers``.

    Raises:
        InputError: a bad argument, fewer guesses than ``n_answers``, or an answer below the
            guess cut (``n_answers`` too large for ``guess_zipf``).
    """
    if not isinstance(n_answers, int) or n_answers < 1:
        raise InputError(f"the number of answers must be a positive integer, got {n_answers!r}")
    zipf = zipf_frequencies(word_length)
    guesses = sorted(w for w, z in zipf.items() if z >= guess_zipf)
    ranked = sorted(zipf, key=lambda w: (-zipf[w], w))
    if len(ranked) < n_answers:
        raise InputError(f"only {len(ranked)} candidates of {word_length} letters, "
                         f"{n_answers} answers asked")
    answers = sorted(ranked[:n_answers])
    low = [w for w in answers if zipf[w] < guess_zipf]
    if low:
        raise InputError(f"{len(low)} answers have a Zipf frequency below the guess cut "
                         f"{guess_zipf} (e.g. {low[0]!r}): fewer answers or a lower cut")
    return answers, guesses


def build_recipe(recipe: Recipe) -> tuple[list[str], list[str]]:
    """:func:`build_lists` with ``recipe``'s thresholds."""
    return build_lists(recipe.word_length, recipe.n_answers, recipe.guess_zipf)
