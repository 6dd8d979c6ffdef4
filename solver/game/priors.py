"""Answer weights (priors) for the weighted total objective (docs/algorithms.md §10.3).

A prior gives every answer a positive weight; the solver then minimises the expected number of
guesses, ``Σ_a w_a · guesses(a) / Σ_a w_a``. The search works in exact integers, so the
weights are scaled to integers summing to about :data:`WEIGHT_SCALE` (each
``max(1, round(w / Σw · WEIGHT_SCALE))``): the tree is exactly optimal for those integer weights,
which differ from the given ones by at most half a unit in 2**24 of the total. Equal weights
give equal integers, so a uniform prior reproduces the unweighted optimum exactly.

Sources: a file of ``word,weight`` lines (``#`` comments and blank lines allowed; one line per
answer, every answer present), or ``"wordfreq"``: the English word frequencies of the
wordfreq package (``wordfreq.word_frequency(word, "en")``; an answer it does not know gets the
smallest frequency it gives any answer).

Plain Python (no numba).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.game.errors import PriorsError
from solver.game.files import read_input_file

#: The integer weights sum to about this (2**24): weighted totals stay below the search's
#: infinity (2**30) for up to about 60 guesses per game on average.
WEIGHT_SCALE = 1 << 24
WORDFREQ = "wordfreq"


@dataclass(frozen=True)
class Priors:
    """Integer answer weights for one word list.

    Attributes:
        source: the file's path, or ``"wordfreq"``.
        weights: int64[n_answers] ≥ 1, in the answer list's (sorted) order.
        sha256: sha256 of the integer weights as ``word,weight`` lines in answer order (what
            a tree solved under these priors records).
    """

    source: str
    weights: np.ndarray
    sha256: str

    @property
    def total_weight(self) -> int:
        """Σ of the answers' integer weights, W of the whole answer list (about
        :data:`WEIGHT_SCALE`)."""
        return int(self.weights.sum())


def integer_weights(raw: np.ndarray) -> np.ndarray:
    """Positive floats → int64 weights ≥ 1 summing to about :data:`WEIGHT_SCALE`."""
    raw = np.asarray(raw, dtype=np.float64)
    return np.maximum(1, np.rint(raw / raw.sum() * WEIGHT_SCALE)).astype(np.int64)


def priors_sha256(answers, weights: np.ndarray) -> str:
    """sha256 (hex) of the integer weights as ``word,weight`` lines (each ending in ``\\n``) in the
    order of ``answers``: the :attr:`Priors.sha256` a tree solved under these priors records."""
    text = "".join(f"{a},{int(w)}\n" for a, w in zip(answers, weights))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def make_priors(word_list, raw, source: str) -> Priors:
    """:class:`Priors` from positive float weights in answer order."""
    weights = integer_weights(raw)
    return Priors(source, weights, priors_sha256(word_list.answers, weights))


def load_priors(word_list, spec: str) -> Priors:
    """The priors named by ``spec``: ``"wordfreq"`` or the path of a ``word,weight`` file.

    Raises:
        PriorsError: an unreadable file, one that is not a regular file or is larger than
            ``INPUT_LIMITS["priors"]`` (refused before it is read); a line that is not
            ``word,weight``; a weight that is not a finite positive number; a word that is not
            an answer, or given twice; an answer with no weight (each names the file and line,
            or the word).
    """
    if spec == WORDFREQ:
        return _wordfreq_priors(word_list)
    path = Path(spec)
    # a regular file within the priors' size cap, checked before it is read
    data = read_input_file(path, "priors", error=PriorsError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PriorsError(f"{path}: cannot read the priors file ({exc})") from exc
    index = {a: i for i, a in enumerate(word_list.answers)}
    raw = np.full(word_list.n_answers, np.nan)
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 2 or not parts[0]:
            raise PriorsError(f"{path}:{number}: expected 'word,weight', got {line!r}")
        word, text_weight = parts[0].lower(), parts[1]
        try:
            weight = float(text_weight)
        except ValueError:
            raise PriorsError(f"{path}:{number}: weight {text_weight!r} of {word!r} is not a number") from None
        if not math.isfinite(weight) or weight <= 0:
            raise PriorsError(f"{path}:{number}: weight {text_weight!r} of {word!r} must be a "
                              "positive number")
        if word not in index:
            raise PriorsError(f"{path}:{number}: {word!r} is not an answer of the "
                              f"{word_list.name!r} list")
        if not np.isnan(raw[index[word]]):
            raise PriorsError(f"{path}:{number}: {word!r} is given a weight twice")
        raw[index[word]] = weight
    missing = np.flatnonzero(np.isnan(raw))
    if missing.size:
        raise PriorsError(f"{path}: {missing.size} answer(s) have no weight, e.g. "
                          f"{word_list.answers[int(missing[0])]!r} (every answer needs one)")
    return make_priors(word_list, raw, str(path))


def _wordfreq_priors(word_list) -> Priors:
    from solver.game.errors import require_extra

    require_extra("wordfreq", "wordfreq", "priors from wordfreq")
    from wordfreq import word_frequency

    raw = np.array([word_frequency(a, "en") for a in word_list.answers], dtype=np.float64)
    known = raw[raw > 0]
    floor = known.min() if known.size else 1.0
    return make_priors(word_list, np.where(raw > 0, raw, floor), WORDFREQ)
