"""Belief settings: which words an agent counts as possible (docs/algorithms.md §8.5).

- ``answers`` — the project's usual setting: the agent knows the answer list, so the words
  still possible are the answers consistent with the feedback so far (the state of
  :mod:`solver.policies.base`).
- ``guesses`` — the setting of Orenbach et al. ("AI algorithms on Wordle and its variants"):
  the agent is not given the answer list; every allowed guess consistent with the feedback is
  possible. The hidden answers are still drawn from the answer list.

A :class:`Universe` holds what an agent needs in either setting: the words it may believe
(*members*), their guess indices, and the feedback table of every guess against every member.
For ``guesses`` that table is guesses × guesses (12,972² = 168 MB uint8 for the legacy lists),
computed once with the feedback kernel and cached on disk beside the usual table
(:func:`guess_table_cache_path`, with the checksums of its rows and columns:
:mod:`solver.game.checked_table`); it is loaded memory-mapped, so worker processes share it,
and used only when every row matches its checksum (else computed again and replaced).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np

from solver.game.errors import InputError
from solver.game.checked_table import load_checked, write_table
from solver.game.files import cache_dir, usable_cache_dir
from solver.game.spec import code_dtype

class BeliefSetting(StrEnum):
    """Which words an agent counts as possible (module docstring)."""

    #: the answers consistent with the feedback (the agent knows the answer list)
    ANSWERS = "answers"
    #: every allowed guess consistent with the feedback (Orenbach et al.'s setting)
    GUESSES = "guesses"


#: The belief settings' names.
BELIEFS = tuple(BeliefSetting)


def check_belief(belief: str) -> BeliefSetting:
    """The setting ``belief`` names (a name or a member); raises InputError for another name
    (exit 2 in the CLIs)."""
    name = str(belief).strip().lower()
    if name not in BELIEFS:
        raise InputError(f"unknown belief setting {belief!r}: use answers or guesses")
    return BeliefSetting(name)


@dataclass(frozen=True)
class Universe:
    """The words an agent may believe possible, in one belief setting.

    Attributes:
        belief: the :class:`BeliefSetting`.
        table: feedback of every guess against every member, uint8 (uint16 above five
            letters)[n_guesses, n_members].
        guess_of_member: int32[n_members], the guess index of each member (increasing).
        member_of_guess: int32[n_guesses], the member index of each guess, −1 if none.
        member_of_answer: int32[n_answers], the member index of each answer.
    """

    belief: BeliefSetting
    table: np.ndarray
    guess_of_member: np.ndarray
    member_of_guess: np.ndarray
    member_of_answer: np.ndarray

    @property
    def n_members(self) -> int:
        """Number of members: the words the agent may believe possible in this setting."""
        return int(self.guess_of_member.shape[0])

    def full_state(self) -> np.ndarray:
        """The belief before any guess: every member (int32)."""
        return np.arange(self.n_members, dtype=np.int32)


def guess_table_cache_path(word_list) -> Path:
    """Where :func:`guess_feedback_table` caches the guesses × guesses table of ``word_list``:
    ``feedback-guesses-<24 hex>.npy`` in the user cache, keyed by the guess list's sha256."""
    key = hashlib.sha256(f"feedback-guesses-v1:{word_list.guesses_sha256}".encode()).hexdigest()[:24]
    return cache_dir() / f"feedback-guesses-{key}.npy"


def guess_feedback_table(word_list, use_cache: bool = True) -> np.ndarray:
    """Feedback of every guess against every guess: shape (n_guesses, n_guesses), ``[g, w]``
    the code of guess ``g`` against the word ``w`` (docs/algorithms.md §1.2–1.3).

    Cached on disk (atomic write, with the checksums of its rows and columns) and then loaded
    memory-mapped read-only, every row checked against its checksum (about 0.1 s for the
    legacy lists' 168 MB); a cached file that fails is computed again and replaced.

    Raises:
        CacheError: ``use_cache`` and the cache directory cannot be used.
    """
    from solver.game.feedback import words_to_letters

    path = guess_table_cache_path(word_list)
    shape, dtype = (word_list.n_guesses, word_list.n_guesses), code_dtype(word_list.word_length)
    if use_cache:
        cached = load_checked(path, shape, dtype, mmap_mode="r")
        if cached is not None:
            return cached
        usable_cache_dir()
    from solver.game._feedback_kernel import feedback_table_kernel

    letters = words_to_letters(word_list.guesses)
    table = np.empty(shape, dtype=dtype)
    feedback_table_kernel(letters, letters, table)
    if use_cache:
        write_table(path, table)
        # the mapped file rather than the array: its pages are shared with the worker processes
        mapped = load_checked(path, shape, dtype, mmap_mode="r")
        if mapped is not None:
            return mapped
    return table


def answers_universe(word_list, table: np.ndarray) -> Universe:
    """The ``answers`` setting: the members are the answers; ``table`` is the usual feedback
    table (:func:`solver.game.feedback.feedback_table`)."""
    guess_of_member = np.ascontiguousarray(word_list.answer_guess_index, dtype=np.int32)
    member_of_guess = np.full(word_list.n_guesses, -1, dtype=np.int32)
    member_of_guess[guess_of_member] = np.arange(word_list.n_answers, dtype=np.int32)
    return Universe(BeliefSetting.ANSWERS, table, guess_of_member, member_of_guess,
                    np.arange(word_list.n_answers, dtype=np.int32))


def guesses_universe(word_list, table: np.ndarray | None = None, use_cache: bool = True) -> Universe:
    """The ``guesses`` setting: every allowed guess is a member; ``table`` is the guesses ×
    guesses table (computed or loaded by :func:`guess_feedback_table` when None)."""
    if table is None:
        table = guess_feedback_table(word_list, use_cache=use_cache)
    identity = np.arange(word_list.n_guesses, dtype=np.int32)
    return Universe(BeliefSetting.GUESSES, table, identity, identity.copy(),
                    np.ascontiguousarray(word_list.answer_guess_index, dtype=np.int32))


def make_universe(word_list, belief: str, table: np.ndarray | None = None) -> Universe:
    """The :class:`Universe` of ``belief`` for ``word_list``. ``table``: the usual feedback
    table for ``answers`` (computed if None); ignored for ``guesses``."""
    belief = check_belief(belief)
    if belief is BeliefSetting.ANSWERS:
        if table is None:
            from solver.game.feedback import feedback_table

            table = feedback_table(word_list)
        return answers_universe(word_list, table)
    return guesses_universe(word_list)
