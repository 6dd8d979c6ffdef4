"""Absurdle solved exactly: the least number of guesses that forces a win against qntm's
adversary, one optimal line of play, and the exhausted search proving one guess fewer fails.

The model, the tie rules and the bounds are docs/algorithms.md §13. The adversary's rules (it
keeps the largest class; the tie rules :data:`TIE_RULES`, :func:`kept_codes`) and the
environment of one game (:class:`~solver.game.absurdle.AbsurdleEpisode`) are the game layer's,
:mod:`solver.game.absurdle`, re-exported here; this module holds the exact search. Under each
tie rule the all-green class (one word) loses every tie, so a win means reducing the state to a
single word and then guessing it (§13.2).

:func:`solve_absurdle` deepens the number of guesses ``t`` = 1, 2, … and asks whether a win
within ``t`` guesses can be forced (``wins(S, t)``); the first ``t`` that succeeds is the
least forced win, and the failed search at ``t − 1`` is the proof that one fewer cannot do
it. The two- and three-guess tests are numba kernels (:mod:`solver.exact._absurdle_kernel`);
above them a memoised Python recursion tries the guesses in the order of the class they leave.
Nothing is pruned on a heuristic: every cut is one of the bounds of §13.3.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

# the adversary's rules are the game layer's (re-exported here for the search's callers)
from solver.game.absurdle import (DEFAULT_TIE, TIE_RULES, TieRule, AbsurdleEpisode, AbsurdleInputError, check_tie,
                                  kept_codes, tie_priority)
from solver.game.errors import InputError
from solver.game.feedback import code_to_text, feedback_table
from solver.game.spec import all_green, n_patterns
from solver.game.wordlists import WordList

#: The most guesses the deepening tries by default.
DEFAULT_DEPTH_LIMIT = 8


# -- histories -----------------------------------------------------------------------------------
def adversary_state(word_list: WordList, history, tie: str = DEFAULT_TIE,
                    table: np.ndarray | None = None) -> tuple[np.ndarray, list[tuple[str, int]]]:
    """Replay ``history`` against the adversary: (the state it keeps, the checked steps).

    ``history`` holds ``"word:feedback"`` tokens or ``(word, feedback)`` pairs (feedback as
    text such as ``"bbygb"`` or as a code). The state is a sorted int32 array of answer
    indices. Raises AbsurdleInputError (naming the guess) for a pattern the adversary would
    not show under ``tie`` or a history that ends in a win, UnknownWordError for a word not in
    the guesses, FeedbackError for malformed feedback or a guess after a win
    (:meth:`solver.game.history.History.parse` checks each guess).
    """
    check_tie(tie)
    table = feedback_table(word_list) if table is None else table
    from solver.game.history import History
    from solver.game.spec import MAX_GUESS_LIMIT, Game

    # the one parser: each guess and feedback checked (Absurdle has no guess limit)
    steps = list(History.parse(Game(word_list, MAX_GUESS_LIMIT), history, limit=False).steps)
    game = AbsurdleEpisode(word_list, table, tie)  # the rules: each pattern one the adversary shows
    for word, code in steps:
        game.step(word_list.guess_index(word), code)
    if game.won:
        raise AbsurdleInputError(f"the history ends in a win at guess {len(steps)} "
                                 f"({steps[-1][0]}): nothing is left to solve")
    return game.state, steps


# -- the plan ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """One guess of a forcing strategy and the adversary's possible replies.

    ``replies`` holds ``(pattern code, next Move or None)``: None after the all-green pattern
    (the game is won). A deterministic tie rule gives one reply; ``adversarial`` one per
    largest class (every one must be won).
    """

    guess: str
    replies: tuple

    @property
    def depth(self) -> int:
        """Guesses of the longest line of play from this move (this guess included)."""
        return 1 + max((nxt.depth for _, nxt in self.replies if nxt is not None), default=0)

    def line(self) -> list[tuple[str, int]]:
        """The principal line: ``(guess, pattern)`` steps following, at each move, the first
        reply (in the tie rule's order) whose line is the longest: the adversary's best play
        against this plan, ``depth`` guesses long."""
        steps, move = [], self
        while move is not None:
            code, nxt = max(move.replies, key=lambda reply: 0 if reply[1] is None else reply[1].depth)
            steps.append((move.guess, code))
            move = nxt
        return steps

    def to_json(self, word_length: int) -> dict:
        """The plan from this move as a JSON-ready dict: the guess and, per reply, its pattern as
        text and the next move's plan (None once won)."""
        return {"guess": self.guess,
                "replies": [{"pattern": code_to_text(code, word_length),
                             "next": None if nxt is None else nxt.to_json(word_length)}
                            for code, nxt in self.replies]}


@dataclass
class Level:
    """One deepening step: could a win be forced within ``guesses``? With the work it took
    (``states``: states searched, ``partitions``: guesses whose partition of a state was
    computed), its wall seconds, and ``by_size_bound``: True when the state is larger than any
    state a win within ``guesses`` can start from (§13.3), so nothing needed searching."""

    guesses: int
    won: bool
    states: int
    partitions: int
    seconds: float
    by_size_bound: bool = False


@dataclass
class AbsurdleResult:
    """What :func:`solve_absurdle` found.

    Attributes:
        word_list: name of the lists; tie: the tie rule.
        history: the checked ``(guess, pattern code)`` steps played before.
        state_size: answers the adversary still holds after the history.
        least: the least number of further guesses that forces a win (the winning guess
            included), or None if none is forced within ``depth_limit``.
        plan: a forcing strategy of ``least`` guesses (None if ``least`` is None).
        levels: the deepening steps, ``levels[-1]`` the successful one (when ``least`` is set);
            the level with ``least − 1`` guesses is the proof that one fewer cannot do it.
        depth_limit: the deepening's limit; seconds: wall time of the search.
    """

    word_list: str
    word_length: int
    tie: str
    history: list
    state_size: int
    least: int | None
    plan: Move | None
    levels: list[Level]
    depth_limit: int
    seconds: float

    @property
    def sequence(self) -> list[tuple[str, int]]:
        """One optimal line: ``(guess, pattern shown)`` steps ending with the all-green one."""
        return [] if self.plan is None else self.plan.line()

    @property
    def proof(self) -> Level | None:
        """The exhausted search with ``least − 1`` guesses (None when ``least`` ≤ 1 — zero
        guesses never win — or unknown)."""
        if self.least is None or self.least <= 1:
            return None
        return next(level for level in self.levels if level.guesses == self.least - 1)

    def to_json(self) -> dict:
        """The result as a JSON-ready dict (``absurdle --json``): the history, the least forced win
        found, the line played, the plan, the proof's counts and each level's figures."""
        length = self.word_length
        proof = self.proof
        return {
            "word_list": self.word_list, "tie": self.tie,
            "history": [f"{w}:{code_to_text(c, length)}" for w, c in self.history],
            "state_size": self.state_size, "least_forced_win": self.least,
            "depth_limit": self.depth_limit,
            "sequence": [f"{w}:{code_to_text(c, length)}" for w, c in self.sequence],
            "plan": None if self.plan is None else self.plan.to_json(length),
            "proof": None if proof is None else {
                "guesses": proof.guesses, "forced_win": proof.won, "states_searched": proof.states,
                "partitions": proof.partitions},
            "levels": [{**vars(level), "seconds": round(level.seconds, 3)} for level in self.levels],
            "seconds": round(self.seconds, 3),
        }


# -- the search ----------------------------------------------------------------------------------
def split_bound(word_length: int) -> int:
    """The most classes one guess can make: ``3**L − L`` (the L patterns with L − 1 greens and
    one yellow never occur, docs/algorithms.md §1.3); so no larger state splits fully."""
    return n_patterns(word_length) - word_length


def size_bound(t: int, word_length: int) -> int:
    """The largest state a win within ``t`` guesses can start from (§13.3): ``f(1) = 1``,
    ``f(t) = N · f(t − 1)`` with N = :func:`split_bound`."""
    return 0 if t < 1 else split_bound(word_length) ** (t - 1)


class _Search:
    """``wins(S, t)`` with a memo of the states proven lost within t guesses (§13.3)."""

    def __init__(self, table, tie, word_list, progress):
        from solver.exact import _absurdle_kernel as kernel

        self.kernel = kernel
        self.table = table
        self.tie = tie
        self.adversarial = tie == TieRule.ADVERSARIAL
        self.words = word_list.guesses
        self.length = word_list.word_length
        self.n_patterns = n_patterns(self.length)
        self.split = split_bound(self.length)
        self.priority = tie_priority(tie, self.length)
        self.guesses = np.arange(word_list.n_guesses, dtype=np.int32)
        self.answer_guess = word_list.answer_guess_index
        self.counters = np.zeros(2, dtype=np.int64)
        self.lost: dict[bytes, int] = {}
        self.progress = progress

    # each child class the adversary may keep after g
    def _children(self, g: int, state: np.ndarray) -> list[tuple[int, np.ndarray]]:
        row = self.table[g, state]
        return [(code, state[row == code])
                for code in kept_codes(self.table, g, state, self.tie, self.priority)]

    def _leaf(self, state) -> Move:
        return Move(self.words[int(self.answer_guess[state[0]])], ((all_green(self.length), None),))

    def _split_move(self, g: int, state) -> Move:
        """The move of a full split (or a singleton kept class) and the guesses after it."""
        replies = []
        for code, child in self._children(g, state):
            if code == all_green(self.length):
                replies.append((code, None))
            elif child.size == 1:
                replies.append((code, self._leaf(child)))
            else:
                g2 = self.kernel.first_full_split(self.table, child, self.guesses, self.n_patterns,
                                                  self.counters)
                replies.append((code, self._split_move(int(g2), child)))
        return Move(self.words[g], tuple(replies))

    def wins(self, state: np.ndarray, t: int, top: bool = False) -> Move | None:
        """A strategy forcing a win within ``t`` guesses from ``state``, or None."""
        n = state.size
        if n == 1 and t >= 1:
            return self._leaf(state)
        if t <= 1 or n > size_bound(t, self.length):
            return None
        key = state.tobytes()
        if self.lost.get(key, 0) >= t:
            return None
        kernel = self.kernel
        if t == 2:
            g = kernel.first_full_split(self.table, state, self.guesses, self.n_patterns, self.counters)
            move = None if g < 0 else self._split_move(int(g), state)
        elif t == 3:
            g = kernel.win_in_three(self.table, state, self.guesses, self.priority, self.adversarial,
                                    self.n_patterns, self.split, self.counters)
            move = None if g < 0 else self._split_move(int(g), state)
        else:
            move = self._deeper(state, t, top)
        if move is None:
            self.lost[key] = t
        return move

    def _deeper(self, state: np.ndarray, t: int, top: bool) -> Move | None:
        n = state.size
        self.counters[0] += 1
        sizes = np.empty(self.guesses.size, dtype=np.int64)
        self.kernel.largest_class_sizes(self.table, state, self.guesses, self.n_patterns, sizes)
        self.counters[1] += self.guesses.size
        order = np.lexsort((self.guesses, sizes))
        bound = size_bound(t - 1, self.length)
        candidates = [int(self.guesses[i]) for i in order if sizes[i] < n and sizes[i] <= bound]
        for done, g in enumerate(candidates):
            if top and self.progress is not None:
                self.progress(t, done, len(candidates))
            replies = []
            for code, child in self._children(g, state):
                sub = self.wins(child, t - 1)
                if sub is None:
                    break
                replies.append((code, sub))
            else:
                if top and self.progress is not None:
                    self.progress(t, len(candidates), len(candidates))
                return Move(self.words[g], tuple(replies))
        if top and self.progress is not None:
            self.progress(t, len(candidates), len(candidates))
        return None


def check_depth_limit(depth_limit) -> int:
    """``depth_limit`` as an int ≥ 1; else AbsurdleInputError."""
    if isinstance(depth_limit, bool) or not isinstance(depth_limit, (int, np.integer)) or depth_limit < 1:
        raise AbsurdleInputError(f"the deepening limit (guesses) must be a whole number ≥ 1, got {depth_limit!r}")
    return int(depth_limit)


def solve_absurdle(word_list: WordList, history: Sequence = (), *, tie: str = DEFAULT_TIE,
                   depth_limit: int = DEFAULT_DEPTH_LIMIT, table: np.ndarray | None = None,
                   progress: Callable[[int, int, int], None] | None = None) -> AbsurdleResult:
    """The least number of guesses that forces a win at Absurdle from ``history``.

    Iterative deepening on the number of guesses ``t`` (1, 2, …, ``depth_limit``) of the
    exact search of docs/algorithms.md §13; the first ``t`` with a forced win is the answer,
    and the exhausted search at ``t − 1`` is its proof.

    Args:
        word_list: the lists; the adversary starts from every answer, any guess may be played.
        history: ``"word:feedback"`` tokens or ``(word, feedback)`` pairs already played; each
            pattern must be one the adversary shows (:func:`adversary_state`).
        tie: a rule of :data:`TIE_RULES`.
        depth_limit: the most guesses tried (a whole number ≥ 1).
        table: the feedback table of ``word_list`` (loaded when None).
        progress: called as ``progress(t, done, total)``: for the ``t``-guess search (t ≥ 4)
            the first guesses tried of ``total``; a search of up to three guesses (one kernel
            call) reports 0 of 1, then 1 of 1.

    Raises:
        AbsurdleInputError: an unknown tie rule, a bad ``depth_limit``, a history the
            adversary would not produce or one already won (naming the guess).
        UnknownWordError, FeedbackError: a history word not in the guesses, a malformed pattern.
    """
    started = time.perf_counter()
    check_tie(tie)
    depth_limit = check_depth_limit(depth_limit)
    table = feedback_table(word_list) if table is None else table
    state, steps = adversary_state(word_list, history, tie, table)
    search = _Search(table, tie, word_list, progress)
    levels: list[Level] = []
    least, plan = None, None
    for t in range(1, depth_limit + 1):
        begun = time.perf_counter()
        before = search.counters.copy()
        if progress is not None:  # levels of up to three guesses are one kernel call: 0 of 1
            progress(t, 0, 1)
        move = search.wins(state, t, top=True)
        if progress is not None and t <= 3:
            progress(t, 1, 1)
        spent = search.counters - before
        levels.append(Level(t, move is not None, int(spent[0]), int(spent[1]), time.perf_counter() - begun,
                            int(state.size) > size_bound(t, word_list.word_length)))
        if move is not None:
            least, plan = t, move
            break
    return AbsurdleResult(word_list.name, word_list.word_length, tie, steps, int(state.size), least,
                          plan, levels, depth_limit, time.perf_counter() - started)


def replay(word_list: WordList, sequence, tie: str, table: np.ndarray | None = None) -> bool:
    """Whether playing the guesses of ``sequence`` (``(guess, pattern)`` steps) against the
    adversary from the start shows those patterns and ends with the all-green one."""
    try:
        state, _ = adversary_state(word_list, sequence[:-1], tie, table)
    except InputError:
        return False
    guess, code = sequence[-1]
    g = word_list.guess_index(guess)
    return code == all_green(word_list.word_length) and state.size == 1 and \
        int(word_list.answer_guess_index[state[0]]) == g


__all__ = ["TIE_RULES", "DEFAULT_TIE", "DEFAULT_DEPTH_LIMIT", "AbsurdleEpisode", "AbsurdleInputError",
           "AbsurdleResult", "Level", "Move", "adversary_state", "check_tie", "check_depth_limit", "kept_codes",
           "replay", "size_bound", "solve_absurdle", "split_bound", "tie_priority"]
