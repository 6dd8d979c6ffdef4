"""Vocabulary variants: seeded sub-lists of a word list and lists of random letter strings
(docs/algorithms.md §12).

Two generators, both pure and deterministic (the same arguments give the same lists, on any
machine: they draw with ``numpy.random.default_rng(seed)`` and nothing else):

- :func:`sub_lists`: a fraction of a word list's answers and the same fraction of its other
  guesses (answer and guess counts scaled together), so every sampled answer stays a guess;
- :func:`fake_lists`: ``n_guesses`` distinct random strings of lowercase letters (each letter
  drawn uniformly from a–z, independently), of which ``n_answers`` drawn at random are the
  answers.

Both return a :class:`~solver.game.wordlists.WordList` whose words are sorted (and so indexed
alphabetically, like a loaded list). Its :attr:`~solver.game.wordlists.WordList.name` says
how it was made (``sub-0.1000-s0``, ``fake-116x649-L5-s0``); files written for it are named
by its contents (``custom-<hash>``), as for any other list.

Plain Python and numpy, no numba.
"""

from __future__ import annotations

import string

import numpy as np

from solver.game.errors import VariantError
from solver.game.spec import MAX_WORD_LENGTH, MIN_WORD_LENGTH
from solver.game.wordlists import WordList, from_words

#: The kinds of vocabulary variant: a sub-list of a real list, or random letter strings.
KINDS = ("real", "fake")
_LETTERS = np.array(list(string.ascii_lowercase))


def check_seed(seed) -> int:
    """``seed`` as an int. Raises :class:`VariantError` unless it is a whole number ≥ 0."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise VariantError(f"the seed is a whole number ≥ 0, not {seed!r}")
    return int(seed)


def check_fraction(fraction) -> float:
    """``fraction`` as a float. Raises :class:`VariantError` unless 0 < fraction ≤ 1."""
    try:
        value = float(fraction)
    except (TypeError, ValueError):
        raise VariantError(f"the fraction is a number in (0, 1], not {fraction!r}") from None
    if isinstance(fraction, bool) or not (0.0 < value <= 1.0):  # also refuses NaN
        raise VariantError(f"the fraction is a number in (0, 1], not {fraction!r}")
    return value


def fraction_text(fraction) -> str:
    """The fraction as it appears in a sub-list's name: four decimals (``0.1000``) when they
    give it exactly, else every digit needed to tell it apart (``0.09996``), so two fractions
    never share a name."""
    value = check_fraction(fraction)
    text = f"{value:.4f}"
    return text if float(text) == value else repr(value)


def check_kind(kind: str) -> str:
    """``kind`` (``real`` or ``fake``), normalised. Raises :class:`VariantError` otherwise."""
    text = str(kind).strip().lower()
    if text not in KINDS:
        raise VariantError(f"unknown vocabulary variant {kind!r}: use one of {', '.join(KINDS)}")
    return text


def scaled_sizes(word_list: WordList, fraction: float) -> tuple[int, int]:
    """``(n_answers, n_guesses)`` of the sub-list at ``fraction``: ``round(fraction ·
    n_answers)`` answers (at least 1) plus ``round(fraction · n_others)`` of the guesses that
    are not answers. Raises :class:`VariantError` for a bad fraction."""
    fraction = check_fraction(fraction)
    n_answers = max(1, round(fraction * word_list.n_answers))
    n_others = round(fraction * (word_list.n_guesses - word_list.n_answers))
    return n_answers, n_answers + n_others


def sub_lists(word_list: WordList, fraction: float, seed: int) -> WordList:
    """A random sub-list of ``word_list``: the fraction ``fraction`` of its answers and the
    same fraction of its other guesses (sizes: :func:`scaled_sizes`).

    The answers are drawn without replacement from ``word_list.answers``, then the other
    guesses from the guesses that are not answers, both with one
    ``numpy.random.default_rng(seed)``; the sampled answers are guesses of the sub-list too.
    ``fraction = 1`` returns the same words as ``word_list``.

    Args:
        word_list: the list to sample. fraction: in (0, 1]. seed: a whole number ≥ 0.

    Returns:
        a :class:`WordList` named ``sub-<fraction, 4 decimals>-s<seed>``, sorted.

    Raises:
        VariantError: a fraction outside (0, 1], a seed that is not a whole number ≥ 0.
    """
    seed = check_seed(seed)
    n_answers, n_guesses = scaled_sizes(word_list, fraction)
    rng = np.random.default_rng(seed)
    answers = np.array(word_list.answers)
    others = np.array(sorted(set(word_list.guesses) - set(word_list.answers)))
    chosen = answers[np.sort(rng.choice(len(answers), n_answers, replace=False))]
    extra = others[np.sort(rng.choice(len(others), n_guesses - n_answers, replace=False))] if len(others) else []
    name = f"sub-{fraction_text(fraction)}-s{seed}"
    return from_words(chosen.tolist(), [*chosen.tolist(), *list(extra)], name=name)


def fake_lists(n_answers: int, n_guesses: int, length: int = 5, seed: int = 0) -> WordList:
    """Random letter strings: ``n_guesses`` distinct words of ``length`` lowercase letters,
    each letter uniform on a–z and independent, ``n_answers`` of them (drawn uniformly) the
    answers.

    Words are drawn in batches with ``numpy.random.default_rng(seed)``, a repeat of an
    earlier word skipped, until there are ``n_guesses``; then ``n_answers`` of them are chosen
    without replacement by the same generator.

    Args:
        n_answers: ≥ 1. n_guesses: ≥ n_answers, and at most 26**length / 2 (so that the
            draw of distinct words ends quickly). length: 2..10. seed: a whole number ≥ 0.

    Returns:
        a :class:`WordList` named ``fake-<n_answers>x<n_guesses>-L<length>-s<seed>``, sorted.

    Raises:
        VariantError: a size, length or seed out of range (the message gives the range).
    """
    seed = check_seed(seed)
    for label, value in (("n_answers", n_answers), ("n_guesses", n_guesses), ("length", length)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise VariantError(f"{label} is a whole number, not {value!r}")
    if not MIN_WORD_LENGTH <= length <= MAX_WORD_LENGTH:
        raise VariantError(f"the word length is {MIN_WORD_LENGTH}..{MAX_WORD_LENGTH}, not {length}")
    if n_answers < 1:
        raise VariantError(f"a fake list needs at least 1 answer, not {n_answers}")
    if n_guesses < n_answers:
        raise VariantError(f"n_guesses ({n_guesses}) must be at least n_answers ({n_answers})")
    capacity = 26 ** int(length) // 2
    if n_guesses > capacity:
        raise VariantError(f"at most {capacity} distinct words of {length} letters are drawn, not {n_guesses}")
    n_answers, n_guesses, length = int(n_answers), int(n_guesses), int(length)
    rng = np.random.default_rng(seed)
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < n_guesses:
        batch = rng.integers(0, 26, size=(n_guesses - len(words), length))
        for row in _LETTERS[batch]:
            word = "".join(row)
            if word not in seen:
                seen.add(word)
                words.append(word)
    picked = np.sort(rng.choice(n_guesses, n_answers, replace=False))
    answers = [words[i] for i in picked]
    return from_words(answers, words, name=f"fake-{n_answers}x{n_guesses}-L{length}-s{seed}")


def variant_lists(word_list: WordList, kind: str, fraction: float, seed: int) -> WordList:
    """The ``kind`` variant (``real``: :func:`sub_lists`; ``fake``: :func:`fake_lists` of the
    same sizes and word length as the real sub-list at ``fraction``).

    Raises:
        VariantError: an unknown kind, a fraction outside (0, 1], a negative seed.
    """
    kind = check_kind(kind)
    if kind == "real":
        return sub_lists(word_list, fraction, seed)
    n_answers, n_guesses = scaled_sizes(word_list, fraction)
    return fake_lists(n_answers, n_guesses, word_list.word_length, seed)
