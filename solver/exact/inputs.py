"""The exact solver's inputs, checked and put in the kernels' form: the game's size
(:func:`check_searchable`), the search rules and objective (hard mode, priors), the answers left
after a history and the guesses it allows. Raises :class:`~solver.game.errors.InputError`
(or a subclass) for bad input; no search here."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver.exact.results import MAX_ANSWERS, MAX_GUESSES
from solver.game.errors import InputError
from solver.game.feedback import TableParts
from solver.game.hashing import constraint_keys
from solver.game.spec import Game
from solver.game.wordlists import WordList

class SearchRules(NamedTuple):
    """The ``rules`` argument of the search kernels (a named tuple, which numba passes as one
    value): what the search reads beyond the feedback table, by mode and objective."""

    #: uint8[n_guesses, L]: every guess's letters 0..25 (hard and ultra-hard mode, §10.1, §10.5).
    letters: np.ndarray
    #: uint64[...]: the hard-mode constraint keys, two halves (§10.1, the memo key).
    ckeys1: np.ndarray
    ckeys2: np.ndarray
    #: int64[n_answers]: the answers' weights (priors, §10.3; ones without).
    weights: np.ndarray
    #: uint64[n_guesses, PACKED_WORDS]: the guesses packed for the hard-mode filter
    #: (:func:`solver.game._hard_mode_kernel.pack_words`).
    packed: np.ndarray


def search_rules(game: Game) -> SearchRules:
    """The ``rules`` argument of the search kernels for ``game``: the letters and constraint
    keys read in hard and ultra-hard mode only, the weights under priors only (§10.1, §10.3);
    the weights are the priors' or ones."""
    from solver.game.hard_mode import guess_letters, packed_guesses

    weights = (np.ascontiguousarray(game.priors.weights, dtype=np.int64) if game.priors is not None
               else np.ones(game.word_list.n_answers, dtype=np.int64))
    return SearchRules(guess_letters(game.word_list), *constraint_keys(), weights,
                       packed_guesses(game.word_list))


def local_rules(rules: SearchRules, answers: np.ndarray) -> SearchRules:
    """``rules`` for a state localised by :func:`_localise` (the weights of its answers)."""
    return rules._replace(weights=np.ascontiguousarray(rules.weights[answers]))


def objective_id(game: Game) -> int:
    """The search's objective id: the game's, or the weighted total under priors (§10.3; the
    game refuses priors with another objective)."""
    from solver.exact._objective_kernel import WEIGHTED

    return game.objective_id if game.priors is None else WEIGHTED


def allowed_after(game: Game, history) -> tuple[np.ndarray, np.ndarray]:
    """(constraint int8[WIDTH], allowed guesses int32 ascending) after ``history`` ((guess
    word, feedback code) pairs): every guess and no constraint in normal mode; in hard mode
    those the history's hints allow (docs/algorithms.md §10); in ultra-hard mode those
    consistent with its feedback, and no constraint (the search keys them by the history,
    §10.5)."""
    from solver.game._hard_mode_kernel import no_constraint
    from solver.game.hard_mode import allowed_guesses, history_constraint

    if not game.hard:
        return no_constraint(), allowed_guesses(game.word_list, history, game.mode)
    return history_constraint(game.word_list, history), allowed_guesses(game.word_list, history)


def _localise(table, answers, guess_of_answer, zobrist):
    """The state's own columns of the table, with answers renumbered 0..n-1 (their order kept,
    so every tie-break is unchanged). A subset's scan then reads one or two cache lines per
    guess instead of one per answer: the full table is 30 MB, a class's columns about 1 MB.
    ``table``: the whole table, or a :class:`~solver.game.feedback.TableParts` (only these
    columns are read, or computed).

    Returns (local answers int32[n], local table uint8[n_guesses, n], guess_of_answer
    int32[n], zobrist1 uint64[n], zobrist2 uint64[n])."""
    local_table = (table.columns(answers) if isinstance(table, TableParts)
                   else np.ascontiguousarray(table[:, answers]))
    return (np.arange(len(answers), dtype=np.int32), local_table,
            np.ascontiguousarray(guess_of_answer[answers]),
            np.ascontiguousarray(zobrist[0][answers]), np.ascontiguousarray(zobrist[1][answers]))


def check_searchable(game: Game) -> Game:
    """``game`` if its lists are within the search's limits (≤ 11585 answers, < 131072
    guesses); else InputError."""
    word_list = game.word_list
    if word_list.n_answers > MAX_ANSWERS or word_list.n_guesses >= MAX_GUESSES:
        raise InputError(f"the exact solver supports at most {MAX_ANSWERS} answers and "
                         f"{MAX_GUESSES - 1} guesses; {word_list.name!r} has {word_list.n_answers} "
                         f"and {word_list.n_guesses}")
    return game


def _state_array(word_list: WordList, answers) -> np.ndarray:
    indices = [word_list.answer_index(a) if isinstance(a, str) else int(a) for a in answers]
    state = np.unique(np.asarray(indices, dtype=np.int32))
    if state.size == 0:
        raise InputError("the state is empty: no answer is possible")
    if state[0] < 0 or state[-1] >= word_list.n_answers:
        raise InputError("answer index out of range")
    return state
